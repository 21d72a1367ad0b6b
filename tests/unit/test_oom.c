/* test_oom.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_oom_register(void)
{
    return CU_add_suite("oom", NULL, NULL) ? 0 : -1;
}

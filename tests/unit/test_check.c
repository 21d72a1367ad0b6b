/* test_check.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_check_register(void)
{
    return CU_add_suite("check", NULL, NULL) ? 0 : -1;
}

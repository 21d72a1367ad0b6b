/* test_status.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_status_register(void)
{
    return CU_add_suite("status", NULL, NULL) ? 0 : -1;
}

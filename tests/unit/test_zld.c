/* test_zld.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_zld_register(void)
{
    return CU_add_suite("zld", NULL, NULL) ? 0 : -1;
}

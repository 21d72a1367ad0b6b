/* test_idn.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_idn_register(void)
{
    return CU_add_suite("idn", NULL, NULL) ? 0 : -1;
}

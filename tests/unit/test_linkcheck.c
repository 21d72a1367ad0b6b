/* test_linkcheck.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_linkcheck_register(void)
{
    return CU_add_suite("linkcheck", NULL, NULL) ? 0 : -1;
}

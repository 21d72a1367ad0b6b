/* test_resolve.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_resolve_register(void)
{
    return CU_add_suite("resolve", NULL, NULL) ? 0 : -1;
}

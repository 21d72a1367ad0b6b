/* test_registry.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_registry_register(void)
{
    return CU_add_suite("registry", NULL, NULL) ? 0 : -1;
}

/* test_shapes.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_shapes_register(void)
{
    return CU_add_suite("shapes", NULL, NULL) ? 0 : -1;
}

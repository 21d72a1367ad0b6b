/* test_props.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_props_register(void)
{
    return CU_add_suite("props", NULL, NULL) ? 0 : -1;
}

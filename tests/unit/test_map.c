/* test_map.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_map_register(void)
{
    return CU_add_suite("map", NULL, NULL) ? 0 : -1;
}

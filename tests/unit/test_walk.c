/* test_walk.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_walk_register(void)
{
    return CU_add_suite("walk", NULL, NULL) ? 0 : -1;
}

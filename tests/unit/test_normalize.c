/* test_normalize.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_normalize_register(void)
{
    return CU_add_suite("normalize", NULL, NULL) ? 0 : -1;
}

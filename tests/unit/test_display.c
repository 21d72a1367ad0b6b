/* test_display.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_display_register(void)
{
    return CU_add_suite("display", NULL, NULL) ? 0 : -1;
}

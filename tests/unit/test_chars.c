/* test_chars.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_chars_register(void)
{
    return CU_add_suite("chars", NULL, NULL) ? 0 : -1;
}

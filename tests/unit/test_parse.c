/* test_parse.c - placeholder suite, being written. */
#include <CUnit/CUnit.h>

#include "suites.h"

int suite_parse_register(void)
{
    return CU_add_suite("parse", NULL, NULL) ? 0 : -1;
}

/* main.c - the CUnit runner: registers every suite, runs all of them or
 * the one named by "SUITE" or "SUITE:TEST" on the command line, prints
 * CUnit's summary and a final "N passed, N failed" line, and exits non-zero
 * on any failure (assertions or suite set-up). */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

typedef int register_fn(void);

static register_fn *const registrars[] = {
    suite_status_register, suite_chars_register,  suite_parse_register,
    suite_resolve_register, suite_map_register,   suite_idn_register,
    suite_props_register,  suite_check_register,  suite_normalize_register,
    suite_display_register, suite_zld_register,   suite_oom_register,
    suite_registry_register, suite_walk_register, suite_shapes_register,
    suite_htmlref_register,
    suite_linkcheck_register, suite_mojibake_register,
    suite_threads_register,
};

static int run_filtered(const char *filter)
{
    char name[256];
    char *colon;
    CU_pSuite suite;
    CU_pTest test;

    snprintf(name, sizeof(name), "%s", filter);
    colon = strchr(name, ':');
    if (colon)
        *colon++ = '\0';
    suite = CU_get_suite(name);
    if (!suite) {
        fprintf(stderr, "unit: no suite named '%s'\n", name);
        return -1;
    }
    if (!colon)
        return CU_basic_run_suite(suite);
    test = CU_get_test(suite, colon);
    if (!test) {
        fprintf(stderr, "unit: no test '%s' in suite '%s'\n", colon, name);
        return -1;
    }
    return CU_basic_run_test(suite, test);
}

int main(int argc, char **argv)
{
    unsigned failures, suites_failed, asserts_failed, tests_run, tests_failed;
    size_t i;
    int rc;

    /* The presets come from the source tree's schemas/ unless the caller
     * says otherwise (make check does; a developer running one suite by
     * hand need not): the library itself never looks there. */
    setenv("XIRI_SCHEMA_DIR", TEST_SOURCE_SCHEMA_DIR, 0);
    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "unit: cannot initialise CUnit: %s\n",
                CU_get_error_msg());
        return 2;
    }
    for (i = 0; i < sizeof(registrars) / sizeof(registrars[0]); i++)
        if (registrars[i]() != 0) {
            fprintf(stderr, "unit: cannot register a suite: %s\n",
                    CU_get_error_msg());
            CU_cleanup_registry();
            return 2;
        }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    rc = argc > 1 ? run_filtered(argv[1]) : (int)CU_basic_run_tests();
    failures = CU_get_number_of_failures();
    suites_failed = CU_get_number_of_suites_failed();
    asserts_failed = CU_get_number_of_failures();
    tests_run = CU_get_number_of_tests_run();
    tests_failed = CU_get_number_of_tests_failed();
    (void)asserts_failed;
    printf("\n%u passed, %u failed\n", tests_run - tests_failed, tests_failed);
    CU_cleanup_registry();
    if (rc != CUE_SUCCESS)
        return 2;
    return failures || suites_failed || tests_failed ? 1 : 0;
}

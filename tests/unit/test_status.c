/* test_status.c - statuses and their messages, profile and part names, the
 * version, and the accessors of a parsed reference (absent, empty,
 * offsets, bad arguments). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

#include "helpers.h"
#include "suites.h"

/* Every status has its own non-empty message. */
static void test_strerror(void)
{
    int i, j;

    for (i = 0; i < XIRI_STATUS_COUNT; i++) {
        const char *a = xiri_strerror((enum xiri_status)i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_TRUE(a[0] != '\0');
        for (j = 0; j < i; j++)
            if (strcmp(a, xiri_strerror((enum xiri_status)j)) == 0)
                TEST_FAIL("statuses %d and %d share the message \"%s\"", i, j,
                          a);
    }
    /* outside the enumeration: still a string, never NULL */
    CU_ASSERT_PTR_NOT_NULL(xiri_strerror(XIRI_STATUS_COUNT));
    CU_ASSERT_PTR_NOT_NULL(xiri_strerror((enum xiri_status) - 1));
    CU_ASSERT_PTR_NOT_NULL(xiri_strerror((enum xiri_status)1000));
    CU_ASSERT_EQUAL(XIRI_OK, 0);
}

/* xiri_profile_from_name(xiri_profile_name(p)) == p, and the documented
 * names. */
static void test_profile_names(void)
{
    static const char *const names[XIRI_PROFILE_COUNT] = {
        [XIRI_PROFILE_RFC3987] = "rfc3987",
        [XIRI_PROFILE_URI] = "uri",
        [XIRI_PROFILE_LEIRI] = "leiri",
        [XIRI_PROFILE_HTML] = "html",
    };
    static const char *const bad[] = {"",       "RFC 3987", "rfc",     "uris",
                                      "leiri ", "xml",      "rfc39870"};
    enum xiri_profile p;
    int i;
    size_t k;

    for (i = 0; i < XIRI_PROFILE_COUNT; i++) {
        const char *name = xiri_profile_name((enum xiri_profile)i);
        TEST_STR_EQ("profile name", name, names[i]);
        p = XIRI_PROFILE_COUNT;
        CU_ASSERT_EQUAL(xiri_profile_from_name(name, &p), XIRI_OK);
        CU_ASSERT_EQUAL(p, i);
    }
    for (k = 0; k < ARRAY_LEN(bad); k++) {
        p = XIRI_PROFILE_HTML;
        CU_ASSERT_EQUAL(xiri_profile_from_name(bad[k], &p), XIRI_EINVAL);
        CU_ASSERT_EQUAL(p, XIRI_PROFILE_HTML); /* untouched */
    }
    CU_ASSERT_EQUAL(xiri_profile_from_name(NULL, &p), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_profile_from_name("uri", NULL), XIRI_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(xiri_profile_name(XIRI_PROFILE_COUNT));
    CU_ASSERT_PTR_NOT_NULL(xiri_profile_name((enum xiri_profile) - 1));
}

static void test_part_names(void)
{
    static const char *const names[XIRI_PART_COUNT] = {
        "scheme", "authority", "userinfo", "host",
        "port",   "path",      "query",    "fragment",
    };
    int i;

    for (i = 0; i < XIRI_PART_COUNT; i++)
        TEST_STR_EQ("part name", xiri_part_name((enum xiri_part)i), names[i]);
    CU_ASSERT_PTR_NOT_NULL(xiri_part_name(XIRI_PART_COUNT));
    CU_ASSERT_PTR_NOT_NULL(xiri_part_name((enum xiri_part) - 1));
}

static void test_severity_names(void)
{
    TEST_STR_EQ("note", xiri_severity_name(XIRI_SEV_NOTE), "note");
    TEST_STR_EQ("warning", xiri_severity_name(XIRI_SEV_WARNING), "warning");
    TEST_STR_EQ("error", xiri_severity_name(XIRI_SEV_ERROR), "error");
    CU_ASSERT_PTR_NOT_NULL(xiri_severity_name((enum xiri_severity)3));
    CU_ASSERT_TRUE(XIRI_SEV_NOTE < XIRI_SEV_WARNING &&
                   XIRI_SEV_WARNING < XIRI_SEV_ERROR);
}

static void test_version(void)
{
    char want[32];

    TEST_STR_EQ("version", xiri_version(), XIRI_VERSION_STRING);
    snprintf(want, sizeof(want), "%d.%d.%d", XIRI_VERSION_MAJOR,
             XIRI_VERSION_MINOR, XIRI_VERSION_PATCH);
    TEST_STR_EQ("version string", XIRI_VERSION_STRING, want);
    CU_ASSERT_EQUAL(XIRI_VERSION_NUM, (XIRI_VERSION_MAJOR << 16) |
                                          (XIRI_VERSION_MINOR << 8) |
                                          XIRI_VERSION_PATCH);
}

/* The accessors: absent (NULL) versus empty (length 0), offsets into
 * xiri_text(), optional out-parameters, bad arguments. */
static void test_accessors(void)
{
    struct xiri *x = NULL;
    const char *t, *p;
    size_t len = 77, off = 77;

    /* "a:?#" has an empty query and an empty fragment, no authority */
    CU_ASSERT_EQUAL_FATAL(xiri_parse("a:?#", 4, XIRI_PROFILE_RFC3987, &x, NULL),
                          XIRI_OK);
    t = xiri_text(x, &len);
    CU_ASSERT_EQUAL(len, 4);
    TEST_STR_EQ("text", t, "a:?#");
    CU_ASSERT_PTR_EQUAL(xiri_text(x, NULL), t);
    CU_ASSERT_TRUE(xiri_is_absolute(x));

    p = xiri_part(x, XIRI_PART_QUERY, &len, &off);
    CU_ASSERT_PTR_EQUAL(p, t + 3);
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_EQUAL(off, 3);
    p = xiri_part(x, XIRI_PART_FRAGMENT, &len, &off);
    CU_ASSERT_PTR_EQUAL(p, t + 4);
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_EQUAL(off, 4);
    p = xiri_part(x, XIRI_PART_PATH, &len, &off); /* always present */
    CU_ASSERT_PTR_EQUAL(p, t + 2);
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_EQUAL(off, 2);
    CU_ASSERT_PTR_NULL(xiri_part(x, XIRI_PART_AUTHORITY, &len, &off));
    CU_ASSERT_PTR_NULL(xiri_part(x, XIRI_PART_HOST, &len, &off));
    CU_ASSERT_PTR_NULL(xiri_part(x, XIRI_PART_USERINFO, NULL, NULL));
    CU_ASSERT_PTR_NULL(xiri_part(x, XIRI_PART_PORT, NULL, NULL));
    /* the out-parameters are optional */
    CU_ASSERT_PTR_EQUAL(xiri_part(x, XIRI_PART_SCHEME, NULL, NULL), t);
    CU_ASSERT_PTR_EQUAL(xiri_part(x, XIRI_PART_SCHEME, &len, NULL), t);
    CU_ASSERT_EQUAL(len, 1);
    /* out of range */
    CU_ASSERT_PTR_NULL(xiri_part(x, XIRI_PART_COUNT, &len, &off));
    CU_ASSERT_PTR_NULL(xiri_part(x, (enum xiri_part) - 1, &len, &off));
    xiri_free(x);
    x = NULL;

    /* "a:" has neither */
    CU_ASSERT_EQUAL_FATAL(xiri_parse("a:", 2, XIRI_PROFILE_URI, &x, NULL),
                          XIRI_OK);
    CU_ASSERT_PTR_NULL(xiri_part(x, XIRI_PART_QUERY, NULL, NULL));
    CU_ASSERT_PTR_NULL(xiri_part(x, XIRI_PART_FRAGMENT, NULL, NULL));
    xiri_free(x);
    x = NULL;

    /* a relative reference; the text is a NUL-terminated copy */
    {
        char buf[] = "//h:8/p";
        CU_ASSERT_EQUAL_FATAL(xiri_parse(buf, 7, XIRI_PROFILE_URI, &x, NULL),
                              XIRI_OK);
        buf[0] = 'X'; /* the object keeps its own copy */
        t = xiri_text(x, &len);
        TEST_STR_EQ("copy", t, "//h:8/p");
        CU_ASSERT_EQUAL(t[len], '\0');
        CU_ASSERT_FALSE(xiri_is_absolute(x));
        p = xiri_part(x, XIRI_PART_PORT, &len, &off);
        CU_ASSERT_EQUAL(off, 4);
        CU_ASSERT_EQUAL(len, 1);
        CU_ASSERT_PTR_EQUAL(p, t + 4);
        xiri_free(x);
        x = NULL;
    }

    /* NULL objects */
    CU_ASSERT_PTR_NULL(xiri_text(NULL, &len));
    CU_ASSERT_PTR_NULL(xiri_part(NULL, XIRI_PART_PATH, &len, &off));
    CU_ASSERT_FALSE(xiri_is_absolute(NULL));
    xiri_free(NULL);
    xiri_str_free(NULL);
}

/* Error details: status, offset, a NUL-terminated message that fits. */
static void test_error_detail(void)
{
    struct xiri_error err;
    struct xiri *x = NULL;
    char long_ref[600];
    enum xiri_status st;

    memset(long_ref, 'a', sizeof(long_ref));
    memcpy(long_ref, "http://h/", 9);
    long_ref[500] = ' ';
    memset(&err, 0x55, sizeof(err));
    st = xiri_parse(long_ref, sizeof(long_ref), XIRI_PROFILE_RFC3987, &x, &err);
    CU_ASSERT_EQUAL(st, XIRI_ESYNTAX);
    CU_ASSERT_EQUAL(err.status, XIRI_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 500);
    CU_ASSERT_PTR_NULL(x);
    CU_ASSERT_TRUE(memchr(err.message, '\0', sizeof(err.message)) != NULL);
    CU_ASSERT_TRUE(err.message[0] != '\0');
    /* the message names the position */
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "500"));

    /* error_set with no detail wanted just returns the status */
    CU_ASSERT_EQUAL(error_set(NULL, XIRI_ELIMIT, 3, "x"), XIRI_ELIMIT);
    CU_ASSERT_EQUAL(error_set(&err, XIRI_EIDNA, 7, "%s", "y"), XIRI_EIDNA);
    CU_ASSERT_EQUAL(err.status, XIRI_EIDNA);
    CU_ASSERT_EQUAL(err.offset, 7);
    TEST_STR_EQ("message", err.message, "y");
    /* a long message is cut, never overflows */
    memset(long_ref, 'm', sizeof(long_ref) - 1);
    long_ref[sizeof(long_ref) - 1] = '\0';
    error_set(&err, XIRI_EINVAL, 0, "%s", long_ref);
    CU_ASSERT_EQUAL(strlen(err.message), sizeof(err.message) - 1);
    /* ... and says so */
    TEST_STR_EQ("cut message end",
                err.message + sizeof(err.message) - 5, "m...");
    /* one that just fits is whole */
    long_ref[sizeof(err.message) - 1] = '\0';
    error_set(&err, XIRI_EINVAL, 0, "%s", long_ref);
    TEST_STR_EQ("whole message", err.message, long_ref);
    /* the cut falls before a UTF-8 character, not inside it: 'x' then
     * U+00E9 (two bytes) over and over, so that byte 252, where "..."
     * would go, is the second byte of one: the text keeps 125 of them */
    {
        size_t i, n = 1;

        long_ref[0] = 'x';
        for (i = 0; i < 250; i++) {
            long_ref[n++] = '\xC3';
            long_ref[n++] = '\xA9';
        }
        long_ref[n] = '\0';
        error_set(&err, XIRI_EINVAL, 0, "%s", long_ref);
        CU_ASSERT_EQUAL(strlen(err.message), 251 + 3);
        TEST_STR_EQ("cut before a character", err.message + 251, "...");
        CU_ASSERT(memcmp(err.message, long_ref, 251) == 0);
    }
}

static void test_ctx(void)
{
    struct xiri_ctx *c = NULL;

    CU_ASSERT_EQUAL(xiri_ctx_new(&c), XIRI_OK);
    CU_ASSERT_PTR_NOT_NULL(c);
    xiri_ctx_free(c);
    xiri_ctx_free(NULL);
}

int suite_status_register(void)
{
    CU_pSuite s = CU_add_suite("status", NULL, NULL);

    if (!s || !CU_add_test(s, "strerror", test_strerror) ||
        !CU_add_test(s, "profile_names", test_profile_names) ||
        !CU_add_test(s, "part_names", test_part_names) ||
        !CU_add_test(s, "severity_names", test_severity_names) ||
        !CU_add_test(s, "version", test_version) ||
        !CU_add_test(s, "accessors", test_accessors) ||
        !CU_add_test(s, "error_detail", test_error_detail) ||
        !CU_add_test(s, "ctx", test_ctx))
        return -1;
    return 0;
}

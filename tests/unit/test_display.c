/* test_display.c - the bidi display forms (RFC 3987 4.1; seed 001 section
 * 4.2; seed 000 section 2.4): Jena IRI's toDisplayString values for the
 * LRE form, the RFC 3987 4.4 examples in Hebrew letters for all three
 * forms, and the rejection of bidi formatting characters. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xiri.h"
#include "helpers.h"
#include "suites.h"

static int mode_of(const char *s, enum xiri_display *m)
{
    if (strcmp(s, "lre") == 0)
        *m = XIRI_DISPLAY_LRE;
    else if (strcmp(s, "component") == 0)
        *m = XIRI_DISPLAY_LRM_COMPONENT;
    else if (strcmp(s, "reserved") == 0)
        *m = XIRI_DISPLAY_LRM_RESERVED;
    else
        return -1;
    return 0;
}

/* One check: display s (len bytes) in mode m and compare with want, or
 * expect "!ESYNTAX@N". */
static void check_display(const char *file, int lineno, enum xiri_display m,
                          const char *s, size_t len, const char *want)
{
    char *out = NULL, what[600];
    size_t out_len = 0;
    struct xiri_error err;
    enum xiri_status st;

    st = xiri_display(NULL, s, len, m, &out, &out_len, &err);
    snprintf(what, sizeof(what), "%s:%d", file, lineno);
    if (strncmp(want, "!ESYNTAX@", 9) == 0) {
        if (st != XIRI_ESYNTAX || err.offset != strtoul(want + 9, NULL, 10))
            TEST_FAIL("%s: want %s, got status %d offset %zu", what, want,
                      (int)st, st == XIRI_OK ? (size_t)0 : err.offset);
        else
            CU_PASS("rejected");
        CU_ASSERT_PTR_NULL(out);
        xiri_str_free(out);
        return;
    }
    if (st != XIRI_OK) {
        TEST_FAIL("%s: status %d (%s)", what, (int)st, err.message);
        return;
    }
    TEST_STR_EQ(what, out, want);
    CU_ASSERT_EQUAL(out_len, strlen(want));
    xiri_str_free(out);
}

static void jena_row(void *user, char **f, int nf, int lineno)
{
    int *rows = user;
    size_t len;

    (*rows)++;
    if (nf < 2) {
        TEST_FAIL("display-jena.tsv:%d: bad row", lineno);
        return;
    }
    len = test_unescape(f[0]);
    test_unescape(f[1]);
    check_display("display-jena.tsv", lineno, XIRI_DISPLAY_LRE, f[0], len,
                  f[1]);
}

/* 161 distinct IRIs of Jena's test.xml, each displayed as U+202A IRI
 * U+202C: all followed (none holds a bidi formatting character). */
static void test_jena(void)
{
    int rows = 0;

    test_read_tsv("display-jena.tsv", jena_row, &rows);
    CU_ASSERT_EQUAL(rows, 161);
}

static void seed_row(void *user, char **f, int nf, int lineno)
{
    int *rows = user;
    enum xiri_display m;
    size_t len;

    (*rows)++;
    if (nf < 3 || mode_of(f[0], &m) != 0) {
        TEST_FAIL("display-seeds.tsv:%d: bad row", lineno);
        return;
    }
    len = test_unescape(f[1]);
    test_unescape(f[2]);
    check_display("display-seeds.tsv", lineno, m, f[1], len, f[2]);
}

static void test_seeds(void)
{
    int rows = 0;

    test_read_tsv("display-seeds.tsv", seed_row, &rows);
    CU_ASSERT_EQUAL(rows, 48);
}

/* The display form only adds marks: taking them out gives the input
 * back, for each mode, on every Jena IRI and a few right-to-left ones. */
static void strip_marks(char *s)
{
    char *r = s, *w = s;

    while (*r) {
        if ((unsigned char)r[0] == 0xE2 && (unsigned char)r[1] == 0x80 &&
            ((unsigned char)r[2] == 0x8E || (unsigned char)r[2] == 0xAA ||
             (unsigned char)r[2] == 0xAC)) {
            r += 3;
            continue;
        }
        *w++ = *r++;
    }
    *w = '\0';
}

static void test_marks_only(void)
{
    static const char *const in[] = {
        "http://\xD7\x90\xD7\x91.example/\xD7\x92?\xD7\x93=1#\xD7\x94",
        "\xD8\xA7\xD9\x84\xD8\xB9\xD8\xB1\xD8\xA8\xD9\x8A\xD8\xA9/x",
        "mailto:a@b",
        "",
        "%D7%90/%E2%80%8F",
        "http://[::1]:80/a;b=c",
    };
    size_t i;
    int m;

    for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        for (m = XIRI_DISPLAY_LRE; m <= XIRI_DISPLAY_LRM_RESERVED; m++) {
            char *out = NULL;

            if (xiri_display(NULL, in[i], strlen(in[i]), (enum xiri_display)m,
                             &out, NULL, NULL) != XIRI_OK) {
                TEST_FAIL("display of <%s> failed", in[i]);
                continue;
            }
            strip_marks(out);
            TEST_STR_EQ(in[i], out, in[i]);
            xiri_str_free(out);
        }
    }
}

static void test_errors(void)
{
    static char dummy[] = "x";
    char *out = dummy;
    struct xiri_error err;

    CU_ASSERT_EQUAL(
        xiri_display(NULL, "a", 1, XIRI_DISPLAY_LRE, NULL, NULL, &err),
        XIRI_EINVAL);
    CU_ASSERT_EQUAL(
        xiri_display(NULL, NULL, 1, XIRI_DISPLAY_LRE, &out, NULL, &err),
        XIRI_EINVAL);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_EQUAL(
        xiri_display(NULL, "a", 1, (enum xiri_display)3, &out, NULL, &err),
        XIRI_EINVAL);
    /* the length is the caller's: the NUL and what follows are not read */
    CU_ASSERT_EQUAL(
        xiri_display(NULL, "ab\xFF", 2, XIRI_DISPLAY_LRE, &out, NULL, &err),
        XIRI_OK);
    TEST_STR_EQ("length", out,
                "\xE2\x80\xAA"
                "ab"
                "\xE2\x80\xAC");
    xiri_str_free(out);
}

int suite_display_register(void)
{
    CU_pSuite s = CU_add_suite("display", NULL, NULL);

    if (!s || !CU_add_test(s, "jena", test_jena) ||
        !CU_add_test(s, "seeds", test_seeds) ||
        !CU_add_test(s, "marks_only", test_marks_only) ||
        !CU_add_test(s, "errors", test_errors))
        return -1;
    return 0;
}

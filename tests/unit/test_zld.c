/* test_zld.c - the HISTORICAL "zero-level domain" host encoding of seed
 * 004 (Duerst, 1997/98): the draft's worked example both ways, the other
 * examples of the draft, round trips and malformed inputs. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xiri.h"
#include "helpers.h"
#include "suites.h"

/* Seed 004 section 3.3, as the brief and the draft write it. */
static void test_worked_example(void)
{
    static const char name[] = "\xE6\x83\x85\xE5\xA0\xB1.\xE7\x90\x86."
                               "\xE6\x9D\xB1\xE5\xA4\xA7.\xE5\xAD\xA6."
                               "\xE6\x97\xA5\xE6\x9C\xAC";
    static const char enc[] = "M0C5L831.N406.M771L927.LB66.M5E5M72C.i";
    char *out = NULL;
    size_t len = 0;

    CU_ASSERT_EQUAL(xiri_zld_encode(name, strlen(name), &out, &len, NULL),
                    XIRI_OK);
    TEST_STR_EQ("encode", out, enc);
    CU_ASSERT_EQUAL(len, strlen(enc));
    xiri_str_free(out);
    out = NULL;
    CU_ASSERT_EQUAL(xiri_zld_decode(enc, strlen(enc), &out, &len, NULL),
                    XIRI_OK);
    TEST_STR_EQ("decode", out, name);
    CU_ASSERT_EQUAL(len, strlen(name));
    xiri_str_free(out);
}

static void example_row(void *user, char **f, int nf, int lineno)
{
    int *rows = user;
    char *enc = NULL, *dec = NULL, what[300];
    size_t len;
    enum xiri_status st;

    (*rows)++;
    if (nf < 3) {
        TEST_FAIL("zld-examples.tsv:%d: bad row", lineno);
        return;
    }
    len = test_unescape(f[0]);
    test_unescape(f[1]);
    snprintf(what, sizeof(what), "zld-examples.tsv:%d", lineno);
    st = xiri_zld_encode(f[0], len, &enc, NULL, NULL);
    if (st != XIRI_OK) {
        TEST_FAIL("%s: encode status %d", what, (int)st);
        return;
    }
    TEST_STR_EQ(what, enc, f[1]);
    st = xiri_zld_decode(enc, strlen(enc), &dec, NULL, NULL);
    if (st != XIRI_OK)
        TEST_FAIL("%s: decode status %d", what, (int)st);
    else if (atoi(f[2]) == 1)
        TEST_STR_EQ(what, dec, f[0]);
    xiri_str_free(dec);
    dec = NULL;
    /* DNS names are case-insensitive (RFC 4343): lower case decodes too */
    {
        size_t i;

        for (i = 0; enc[i]; i++)
            if (enc[i] >= 'A' && enc[i] <= 'Z')
                enc[i] = (char)(enc[i] - 'A' + 'a');
        st = xiri_zld_decode(enc, strlen(enc), &dec, NULL, NULL);
        CU_ASSERT_EQUAL(st, XIRI_OK);
        if (st == XIRI_OK && atoi(f[2]) == 1)
            TEST_STR_EQ(what, dec, f[0]);
        xiri_str_free(dec);
    }
    xiri_str_free(enc);
}

static void test_examples(void)
{
    int rows = 0;

    test_read_tsv("zld-examples.tsv", example_row, &rows);
    CU_ASSERT_EQUAL(rows, 19);
}

static void malformed_row(void *user, char **f, int nf, int lineno)
{
    int *rows = user;
    char *out = NULL;
    size_t len;
    struct xiri_error err;
    enum xiri_status st, want;

    (*rows)++;
    if (nf < 4) {
        TEST_FAIL("zld-malformed.tsv:%d: bad row", lineno);
        return;
    }
    len = test_unescape(f[1]);
    want = strcmp(f[2], "ELIMIT") == 0 ? XIRI_ELIMIT : XIRI_ESYNTAX;
    if (strcmp(f[0], "encode") == 0)
        st = xiri_zld_encode(f[1], len, &out, NULL, &err);
    else
        st = xiri_zld_decode(f[1], len, &out, NULL, &err);
    if (st != want || err.offset != strtoul(f[3], NULL, 10))
        TEST_FAIL("zld-malformed.tsv:%d: %s <%s>: want %s at %s, got %d at "
                  "%zu (%s)",
                  lineno, f[0], f[1], f[2], f[3], (int)st,
                  st == XIRI_OK ? (size_t)0 : err.offset,
                  st == XIRI_OK ? out : err.message);
    else
        CU_PASS("rejected");
    CU_ASSERT_PTR_NULL(out);
    xiri_str_free(out);
}

static void test_malformed(void)
{
    int rows = 0;

    test_read_tsv("zld-malformed.tsv", malformed_row, &rows);
    CU_ASSERT_EQUAL(rows, 39);
}

/* Round trips over every code point an ireg-name allows, a few per
 * label: decode(encode(x)) == x, and each character takes the number of
 * letters section 3.2 says (two up to U+00FF, three up to U+0FFF, four
 * in the rest of the BMP, five above). */
/* RFC 3987 2.2: the non-ASCII characters of an ireg-name. */
static int is_ucschar(uint32_t cp)
{
    return (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xF900 && cp <= 0xFDCF) ||
           (cp >= 0xFDF0 && cp <= 0xFFEF) ||
           (cp >= 0x10000 && cp <= 0xEFFFD && (cp & 0xFFFF) <= 0xFFFD &&
            !(cp >= 0xE0000 && cp < 0xE1000));
}

static void test_round_trips(void)
{
    uint32_t cp;
    int bad = 0, done = 0;

    for (cp = 0xA0; cp <= 0xEFFFD && bad < 10; cp += (cp < 0x10000 ? 1 : 7)) {
        char in[16], *enc = NULL, *dec = NULL;
        size_t n, letters, want;

        if (!is_ucschar(cp) || (cp >= 0x200E && cp <= 0x200F) ||
            (cp >= 0x202A && cp <= 0x202E))
            continue;
        n = test_put_utf8(in, cp);
        in[n] = '\0';
        if (xiri_zld_encode(in, n, &enc, NULL, NULL) != XIRI_OK ||
            xiri_zld_decode(enc, strlen(enc), &dec, NULL, NULL) != XIRI_OK ||
            strcmp(dec, in) != 0) {
            TEST_FAIL("round trip of U+%04lX: <%s> <%s>", (unsigned long)cp,
                      enc ? enc : "(error)", dec ? dec : "(error)");
            bad++;
        } else {
            letters = strlen(enc) - 2;
            want = cp <= 0xFF ? 2 : cp <= 0xFFF ? 3 : cp <= 0xFFFF ? 4 : 5;
            if (letters != want) {
                TEST_FAIL("U+%04lX takes %zu letters, not %zu",
                          (unsigned long)cp, letters, want);
                bad++;
            }
        }
        done++;
        xiri_str_free(enc);
        xiri_str_free(dec);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(done > 60000);
}

static void test_errors(void)
{
    static char dummy[] = "x";
    char *out = dummy;

    CU_ASSERT_EQUAL(xiri_zld_encode("a", 1, NULL, NULL, NULL), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_zld_decode("M1.i", 4, NULL, NULL, NULL), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_zld_encode(NULL, 1, &out, NULL, NULL), XIRI_EINVAL);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_EQUAL(xiri_zld_decode(NULL, 1, &out, NULL, NULL), XIRI_EINVAL);
    /* the length is the caller's */
    CU_ASSERT_EQUAL(xiri_zld_encode("ab", 1, &out, NULL, NULL), XIRI_OK);
    TEST_STR_EQ("length", out, "M1.i");
    xiri_str_free(out);
}

int suite_zld_register(void)
{
    CU_pSuite s = CU_add_suite("zld", NULL, NULL);

    if (!s || !CU_add_test(s, "worked_example", test_worked_example) ||
        !CU_add_test(s, "examples", test_examples) ||
        !CU_add_test(s, "malformed", test_malformed) ||
        !CU_add_test(s, "round_trips", test_round_trips) ||
        !CU_add_test(s, "errors", test_errors))
        return -1;
    return 0;
}

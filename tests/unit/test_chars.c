/* test_chars.c - character classes (RFC 3986 section 2, RFC 3987 section
 * 2.2, LEIRI) and strict UTF-8 (RFC 3629 section 4): every range boundary,
 * a sweep of all code points against tables written from the RFC text, and
 * the ill-formed sequences a decoder must refuse. */
#include <CUnit/CUnit.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>

#include "common.h"
#include "chars.h"
#include "parse.h"
#include "unicode.h"

#include "helpers.h"
#include "suites.h"

struct range {
    uint32_t lo, hi;
};

/* RFC 3987 2.2, copied from the ABNF:
 *   ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
 *           / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
 *           / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
 *           / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
 *           / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
 *           / %xD0000-DFFFD / %xE1000-EFFFD */
static const struct range ucschar[] = {
    {0xA0, 0xD7FF},     {0xF900, 0xFDCF},   {0xFDF0, 0xFFEF},
    {0x10000, 0x1FFFD}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
    {0x40000, 0x4FFFD}, {0x50000, 0x5FFFD}, {0x60000, 0x6FFFD},
    {0x70000, 0x7FFFD}, {0x80000, 0x8FFFD}, {0x90000, 0x9FFFD},
    {0xA0000, 0xAFFFD}, {0xB0000, 0xBFFFD}, {0xC0000, 0xCFFFD},
    {0xD0000, 0xDFFFD}, {0xE1000, 0xEFFFD},
};

/* iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD */
static const struct range iprivate[] = {
    {0xE000, 0xF8FF},
    {0xF0000, 0xFFFFD},
    {0x100000, 0x10FFFD},
};

/* LEIRI (W3C Note 2008, section 7): the non-ASCII it allows:
 * %xA0-D7FF (ucschar) widened to %x7F-D7FF / %xE000-FFFD /
 * %x10000-10FFFF. */
static const struct range leiri_nonascii[] = {
    {0x80, 0xD7FF},
    {0xE000, 0xFFFD},
    {0x10000, 0x10FFFF},
};

static bool in_ranges(const struct range *r, size_t n, uint32_t cp)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (cp >= r[i].lo && cp <= r[i].hi)
            return true;
    return false;
}

/* Each range's first and last code point and the ones just outside. */
static void check_bounds(const char *name, const struct range *r, size_t n,
                         bool (*fn)(uint32_t))
{
    size_t i;

    for (i = 0; i < n; i++) {
        uint32_t probe[4];
        size_t k;

        probe[0] = r[i].lo - 1;
        probe[1] = r[i].lo;
        probe[2] = r[i].hi;
        probe[3] = r[i].hi + 1;
        for (k = 0; k < 4; k++) {
            bool want = in_ranges(r, n, probe[k]);
            /* the explicit expectation for the four probes */
            bool expect = k == 1 || k == 2;
            if (want != expect)
                TEST_FAIL("%s: table inconsistent at U+%04X", name,
                          (unsigned)probe[k]);
            if (fn(probe[k]) != expect)
                TEST_FAIL("%s(U+%04X) = %d, want %d", name, (unsigned)probe[k],
                          fn(probe[k]), expect);
        }
    }
}

static void test_ucschar_bounds(void)
{
    check_bounds("cp_is_ucschar", ucschar, ARRAY_LEN(ucschar), cp_is_ucschar);
    /* spot checks named in RFC 3987 and IRI-NOTES: surrogates, FDD0-FDEF,
     * the plane-end non-characters, U+E0000-E0FFF (tags, not ucschar) */
    CU_ASSERT_FALSE(cp_is_ucschar(0x9F));
    CU_ASSERT_FALSE(cp_is_ucschar(0xD800));
    CU_ASSERT_FALSE(cp_is_ucschar(0xDFFF));
    CU_ASSERT_FALSE(cp_is_ucschar(0xFDD0));
    CU_ASSERT_FALSE(cp_is_ucschar(0xFDEF));
    CU_ASSERT_FALSE(cp_is_ucschar(0xFFFD));
    CU_ASSERT_FALSE(cp_is_ucschar(0xFFFE));
    CU_ASSERT_FALSE(cp_is_ucschar(0x2FFFF));
    CU_ASSERT_FALSE(cp_is_ucschar(0xE0001));
    CU_ASSERT_FALSE(cp_is_ucschar(0xE0FFF));
    CU_ASSERT_FALSE(cp_is_ucschar(0xEFFFE));
    CU_ASSERT_FALSE(cp_is_ucschar(0x10FFFF));
    CU_ASSERT_FALSE(cp_is_ucschar(0x110000));
    CU_ASSERT_FALSE(cp_is_ucschar(0xFFFFFFFF));
    CU_ASSERT_FALSE(cp_is_ucschar('A'));
    CU_ASSERT_FALSE(cp_is_ucschar(0));
}

static void test_iprivate_bounds(void)
{
    check_bounds("cp_is_iprivate", iprivate, ARRAY_LEN(iprivate),
                 cp_is_iprivate);
    CU_ASSERT_FALSE(cp_is_iprivate(0xFFFFE));
    CU_ASSERT_FALSE(cp_is_iprivate(0x10FFFF));
    CU_ASSERT_FALSE(cp_is_iprivate(0x110000));
}

/* Every code point up to U+10FFFF (and a few beyond) against the tables. */
static void test_sweep(void)
{
    uint32_t cp;
    unsigned bad_ucs = 0, bad_priv = 0, bad_leiri = 0, overlap = 0;

    for (cp = 0; cp <= 0x110010; cp++) {
        bool u = in_ranges(ucschar, ARRAY_LEN(ucschar), cp);
        bool p = in_ranges(iprivate, ARRAY_LEN(iprivate), cp);
        bool l;

        if (cp < 0x80) /* ASCII: the LEIRI additions are the URI-forbidden
                          ones: controls, space, < > " { } | \ ^ `, DEL */
            l = cp < 0x20 || cp == 0x7F ||
                strchr(" <>\"{}|\\^`", (int)cp) != NULL;
        else
            l = in_ranges(leiri_nonascii, ARRAY_LEN(leiri_nonascii), cp) && !u;
        if (cp_is_ucschar(cp) != u && bad_ucs++ < 5)
            TEST_FAIL("cp_is_ucschar(U+%04X) != %d", (unsigned)cp, u);
        if (cp_is_iprivate(cp) != p && bad_priv++ < 5)
            TEST_FAIL("cp_is_iprivate(U+%04X) != %d", (unsigned)cp, p);
        if (cp_is_leiri_extra(cp) != l && bad_leiri++ < 5)
            TEST_FAIL("cp_is_leiri_extra(U+%04X) != %d", (unsigned)cp, l);
        if (u && p)
            overlap++;
    }
    CU_ASSERT_EQUAL(bad_ucs, 0);
    CU_ASSERT_EQUAL(bad_priv, 0);
    CU_ASSERT_EQUAL(bad_leiri, 0);
    CU_ASSERT_EQUAL(overlap, 0);
    /* the LEIRI boundaries named in IRI-NOTES section 1 */
    CU_ASSERT_TRUE(cp_is_leiri_extra(0x7F));
    CU_ASSERT_TRUE(cp_is_leiri_extra(0x9F));
    CU_ASSERT_FALSE(cp_is_leiri_extra(0xA0));  /* ucschar already */
    CU_ASSERT_TRUE(cp_is_leiri_extra(0xE000)); /* iprivate */
    CU_ASSERT_TRUE(cp_is_leiri_extra(0xFDD0));
    CU_ASSERT_TRUE(cp_is_leiri_extra(0xFFFD));
    CU_ASSERT_FALSE(cp_is_leiri_extra(0xFFFE));
    CU_ASSERT_FALSE(cp_is_leiri_extra(0xFFFF));
    CU_ASSERT_FALSE(cp_is_leiri_extra(0xD800));
    CU_ASSERT_TRUE(cp_is_leiri_extra(0x1FFFE));
    CU_ASSERT_TRUE(cp_is_leiri_extra(0x10FFFF));
    CU_ASSERT_FALSE(cp_is_leiri_extra(0x110000));
    CU_ASSERT_FALSE(cp_is_leiri_extra('a'));
    CU_ASSERT_FALSE(cp_is_leiri_extra('%'));
    CU_ASSERT_FALSE(cp_is_leiri_extra('['));
    CU_ASSERT_FALSE(cp_is_leiri_extra('#'));
}

/* RFC 3987 4.1: LRM, RLM, LRE, RLE, PDF, LRO, RLO. */
static void test_bidi_format(void)
{
    static const uint32_t yes[] = {0x200E, 0x200F, 0x202A, 0x202B,
                                   0x202C, 0x202D, 0x202E};
    static const uint32_t no[] = {0x200D, 0x2010, 0x2029, 0x202F,
                                  0x2066, 0x061C, 'a',    0};
    size_t i;

    for (i = 0; i < ARRAY_LEN(yes); i++)
        CU_ASSERT_TRUE(cp_is_bidi_format(yes[i]));
    for (i = 0; i < ARRAY_LEN(no); i++)
        CU_ASSERT_FALSE(cp_is_bidi_format(no[i]));
}

/* cp_hides_in_iri is Unicode's White_Space and Default_Ignorable_Code_Point
 * past ASCII as ICU knows them: every code point of Unicode 15.0 or
 * before (the table's version; one a later ICU assigns is not asked). */
static void test_hides_in_iri(void)
{
    UVersionInfo v15 = {15, 0, 0, 0};
    uint32_t cp;
    size_t wrong = 0, hidden = 0;

    for (cp = 0x80; cp <= 0x10FFFF; cp++) {
        UVersionInfo age;
        bool want;

        u_charAge((UChar32)cp, age);
        if (memcmp(age, v15, sizeof(age)) > 0)
            continue;
        want = u_hasBinaryProperty((UChar32)cp, UCHAR_WHITE_SPACE) ||
               u_hasBinaryProperty((UChar32)cp,
                                   UCHAR_DEFAULT_IGNORABLE_CODE_POINT);
        hidden += want;
        if (cp_hides_in_iri(cp) != want && wrong++ < 5)
            TEST_FAIL("U+%04X: cp_hides_in_iri %d, ICU %d", (unsigned)cp,
                      cp_hides_in_iri(cp), want);
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_TRUE(hidden > 4000); /* E0000-E0FFF... */
    CU_ASSERT_FALSE(cp_hides_in_iri(' '));
    CU_ASSERT_FALSE(cp_hides_in_iri(0xE9));
}

/* utf8_may_be_rtl is a filter in front of the RFC 3987 4.2 checks: it
 * must say "maybe" for every code point ICU gives bidi class R or AL. */
static void test_rtl_filter(void)
{
    uint32_t cp;
    size_t missed = 0, rtl = 0;

    for (cp = 0; cp <= 0x10FFFF; cp++) {
        char u[4];
        size_t n;
        UCharDirection d;

        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        d = u_charDirection((UChar32)cp);
        if (d != U_RIGHT_TO_LEFT && d != U_RIGHT_TO_LEFT_ARABIC)
            continue;
        rtl++;
        n = utf8_encode(cp, u);
        if (!utf8_may_be_rtl((const unsigned char *)u, n)) {
            if (missed++ < 5)
                TEST_FAIL("U+%04X is R/AL but the filter says no",
                          (unsigned)cp);
        }
    }
    CU_ASSERT_EQUAL(missed, 0);
    CU_ASSERT_TRUE(rtl > 1000); /* the loop really saw them */
    /* ASCII, Latin and CJK never need the bidi checks */
    CU_ASSERT_FALSE(utf8_may_be_rtl((const unsigned char *)
                                        "http://\xC3\xA9\xE6\x97\xA5/", 13));
    CU_ASSERT_TRUE(utf8_may_be_rtl((const unsigned char *)"\xD7\x90", 2));
}

/* uni_is_normalized answers "yes" without ICU for ASCII and
 * U+00C0-U+0131; every pair of those characters must really be in NFC and
 * NFKC according to ICU itself. */
static void test_normalized_fast_path(void)
{
    static const enum uni_form forms[] = {UNI_NFC, UNI_NFKC};
    struct xiri_ctx *ctx = NULL;
    uint32_t set[128 + 0x72];
    size_t nset = 0, a, b, f, wrong = 0;
    uint32_t cp;

    for (cp = 0; cp < 0x80; cp++)
        set[nset++] = cp;
    for (cp = 0xC0; cp <= 0x131; cp++)
        set[nset++] = cp;
    CU_ASSERT_EQUAL_FATAL(xiri_ctx_new(&ctx), XIRI_OK);
    for (f = 0; f < ARRAY_LEN(forms); f++) {
        UErrorCode ec = U_ZERO_ERROR;
        const UNormalizer2 *icu = forms[f] == UNI_NFC
                                      ? unorm2_getNFCInstance(&ec)
                                      : unorm2_getNFKCInstance(&ec);
        CU_ASSERT_FALSE(U_FAILURE(ec));
        for (a = 0; a < nset && icu; a++)
            for (b = 0; b < nset; b++) {
                char u8[8];
                UChar u16[4];
                size_t n = utf8_encode(set[a], u8);
                bool yes = false;
                UBool want;

                n += utf8_encode(set[b], u8 + n);
                u16[0] = (UChar)set[a];
                u16[1] = (UChar)set[b];
                ec = U_ZERO_ERROR;
                want = unorm2_isNormalized(icu, u16, 2, &ec);
                if (uni_is_normalized(ctx, forms[f], u8, n, &yes) !=
                        XIRI_OK ||
                    U_FAILURE(ec) || yes != (want != 0)) {
                    if (wrong++ < 5)
                        TEST_FAIL("U+%04X U+%04X form %zu: xiri %d ICU %d",
                                  (unsigned)set[a], (unsigned)set[b], f,
                                  (int)yes, (int)want);
                }
            }
    }
    CU_ASSERT_EQUAL(wrong, 0);
    /* just outside the fast range: U+0132 (IJ) is not NFKC */
    {
        bool yes = true;
        CU_ASSERT_EQUAL(uni_is_normalized(ctx, UNI_NFKC, "\xC4\xB2", 2,
                                          &yes),
                        XIRI_OK);
        CU_ASSERT_FALSE(yes);
    }
    xiri_ctx_free(ctx);
}

/* RFC 3986 2.1-2.3, 3.1, 3.3 as literal character lists. */
static void test_ascii_classes(void)
{
    static const char alpha[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    static const char digit[] = "0123456789";
    static const char hex[] = "0123456789ABCDEFabcdef";
    static const char unreserved_extra[] = "-._~";
    static const char subdelims[] = "!$&'()*+,;=";
    static const char gendelims[] = ":/?#[]@";
    static const char scheme_extra[] = "+-.";
    static const char leiri[] = " <>\"{}|\\^`";
    int c;

    for (c = 0; c < 128; c++) {
        bool a = c && strchr(alpha, c);
        bool d = c && strchr(digit, c);
        bool h = c && strchr(hex, c);
        bool u = a || d || (c && strchr(unreserved_extra, c));
        bool s = c && strchr(subdelims, c);
        bool g = c && strchr(gendelims, c);
        bool sch = a || d || (c && strchr(scheme_extra, c));
        bool l = c < 0x20 || c == 0x7F || (c && strchr(leiri, c));
        bool pc = u || s || c == ':' || c == '@';
        unsigned char uc = (unsigned char)c;

        if (ch_is(uc, CH_ALPHA) != a || ch_is(uc, CH_DIGIT) != d ||
            ch_is(uc, CH_HEX) != h || ch_is(uc, CH_UNRESERVED) != u ||
            ch_is(uc, CH_SUBDELIM) != s || ch_is(uc, CH_GENDELIM) != g ||
            ch_is(uc, CH_SCHEME) != sch || ch_is(uc, CH_LEIRI) != l ||
            ch_is(uc, CH_PCHAR) != pc)
            TEST_FAIL("chars_ascii[0x%02X] has the wrong classes", c);
        /* the classes partition ASCII: every byte is exactly one of
         * unreserved, reserved, '%', LEIRI-only */
        CU_ASSERT_EQUAL((int)u + (int)s + (int)g + (int)(c == '%') + (int)l, 1);
        CU_ASSERT_EQUAL(ch_hexval(uc), !h         ? -1
                                       : c <= '9' ? c - '0'
                                                  : (c | 0x20) - 'a' + 10);
    }
    for (c = 128; c < 256; c++)
        CU_ASSERT_FALSE(ch_is((unsigned char)c, 0xFFFF));
    CU_ASSERT_TRUE(ch_is_pct("%41", 3, 0));
    CU_ASSERT_TRUE(ch_is_pct("x%aF", 4, 1));
    CU_ASSERT_FALSE(ch_is_pct("%4", 2, 0));
    CU_ASSERT_FALSE(ch_is_pct("%41", 2, 0)); /* the length bounds it */
    CU_ASSERT_FALSE(ch_is_pct("%G1", 3, 0));
    CU_ASSERT_FALSE(ch_is_pct("A41", 3, 0));
}

/* Strict UTF-8 (RFC 3629 section 4 table; Unicode 3.9 D92). */
static const struct {
    const char *bytes;
    size_t len;
    size_t want_n; /* 0: ill-formed */
    uint32_t want_cp;
    const char *what;
} utf8_cases[] = {
    {"\x41", 1, 1, 0x41, "ASCII"},
    {"\x00", 1, 1, 0, "NUL"},
    {"\x7F", 1, 1, 0x7F, "DEL"},
    {"\xC2\x80", 2, 2, 0x80, "first 2-byte"},
    {"\xDF\xBF", 2, 2, 0x7FF, "last 2-byte"},
    {"\xE0\xA0\x80", 3, 3, 0x800, "first 3-byte"},
    {"\xED\x9F\xBF", 3, 3, 0xD7FF, "last before surrogates"},
    {"\xEE\x80\x80", 3, 3, 0xE000, "first after surrogates"},
    {"\xEF\xBF\xBF", 3, 3, 0xFFFF, "U+FFFF (a character, if not ucschar)"},
    {"\xF0\x90\x80\x80", 4, 4, 0x10000, "first 4-byte"},
    {"\xF4\x8F\xBF\xBF", 4, 4, 0x10FFFF, "U+10FFFF"},
    {"\xC3\xA9\x41", 3, 2, 0xE9, "stops after the sequence"},
    /* overlong forms */
    {"\xC0\xAF", 2, 0, 0, "overlong '/' C0 AF"},
    {"\xC0\x80", 2, 0, 0, "overlong NUL C0 80"},
    {"\xC1\xBF", 2, 0, 0, "overlong C1 BF"},
    {"\xE0\x80\xAF", 3, 0, 0, "overlong '/' E0 80 AF"},
    {"\xE0\x9F\xBF", 3, 0, 0, "overlong U+07FF"},
    {"\xF0\x80\x80\xAF", 4, 0, 0, "overlong '/' F0 80 80 AF"},
    {"\xF0\x8F\xBF\xBF", 4, 0, 0, "overlong U+FFFF"},
    /* surrogates */
    {"\xED\xA0\x80", 3, 0, 0, "surrogate U+D800"},
    {"\xED\xAD\xBF", 3, 0, 0, "surrogate U+DB7F"},
    {"\xED\xB0\x80", 3, 0, 0, "surrogate U+DC00"},
    {"\xED\xBF\xBF", 3, 0, 0, "surrogate U+DFFF"},
    {"\xED\xA0\x80\xED\xB0\x80", 6, 0, 0, "CESU-8 pair"},
    /* above U+10FFFF, and lead bytes that cannot start a sequence */
    {"\xF4\x90\x80\x80", 4, 0, 0, "U+110000"},
    {"\xF5\x80\x80\x80", 4, 0, 0, "lead F5"},
    {"\xF7\xBF\xBF\xBF", 4, 0, 0, "lead F7"},
    {"\xF8\x88\x80\x80\x80", 5, 0, 0, "5-byte form"},
    {"\xFC\x84\x80\x80\x80\x80", 6, 0, 0, "6-byte form"},
    {"\xFE", 1, 0, 0, "FE"},
    {"\xFF", 1, 0, 0, "FF"},
    {"\x80", 1, 0, 0, "lone continuation 80"},
    {"\xBF\xBF", 2, 0, 0, "lone continuation BF"},
    /* truncated sequences and bad continuation bytes */
    {"\xC3", 1, 0, 0, "truncated 2-byte"},
    {"\xC3\xA9", 1, 0, 0, "2-byte cut by the length"},
    {"\xE6\x97", 2, 0, 0, "truncated 3-byte"},
    {"\xF0\x9F\x8D", 3, 0, 0, "truncated 4-byte"},
    {"\xC3\x41", 2, 0, 0, "ASCII as continuation"},
    {"\xC3\xC3\xA9", 3, 0, 0, "lead as continuation"},
    {"\xE6\x41\x80", 3, 0, 0, "bad second byte"},
    {"\xE6\x97\x41", 3, 0, 0, "bad third byte"},
    {"\xF0\x9F\x8D\x41", 4, 0, 0, "bad fourth byte"},
    {"", 0, 0, 0, "empty"},
};

static void test_utf8_decode(void)
{
    size_t i;

    for (i = 0; i < ARRAY_LEN(utf8_cases); i++) {
        uint32_t cp = 0xDEADBEEF;
        size_t n = utf8_decode((const unsigned char *)utf8_cases[i].bytes,
                               utf8_cases[i].len, &cp);
        if (n != utf8_cases[i].want_n)
            TEST_FAIL("utf8_decode(%s) = %zu, want %zu", utf8_cases[i].what, n,
                      utf8_cases[i].want_n);
        else if (n && cp != utf8_cases[i].want_cp)
            TEST_FAIL("utf8_decode(%s): U+%04X, want U+%04X",
                      utf8_cases[i].what, (unsigned)cp,
                      (unsigned)utf8_cases[i].want_cp);
        else
            CU_PASS(utf8_cases[i].what);
    }
}

/* Every scalar value encodes and decodes back (RFC 3629 3), with the
 * length of the table in RFC 3629 section 3. */
static void test_utf8_roundtrip(void)
{
    uint32_t cp;
    unsigned bad = 0;

    for (cp = 0; cp <= 0x10FFFF; cp++) {
        char b[4];
        uint32_t back = 0;
        size_t n, want;

        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        want = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        n = utf8_encode(cp, b);
        if ((n != want ||
             utf8_decode((const unsigned char *)b, n, &back) != n ||
             back != cp) &&
            bad++ < 5)
            TEST_FAIL("utf8 round trip of U+%04X", (unsigned)cp);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_describe(void)
{
    char buf[32];

    describe_cp(buf, sizeof(buf), 'a');
    TEST_STR_EQ("describe a", buf, "'a' (U+0061)");
    describe_cp(buf, sizeof(buf), ' ');
    TEST_STR_EQ("describe space", buf, "U+0020");
    describe_cp(buf, sizeof(buf), 0x10FFFF);
    TEST_STR_EQ("describe U+10FFFF", buf, "U+10FFFF");
}

int suite_chars_register(void)
{
    CU_pSuite s = CU_add_suite("chars", NULL, NULL);

    if (!s || !CU_add_test(s, "ucschar_bounds", test_ucschar_bounds) ||
        !CU_add_test(s, "iprivate_bounds", test_iprivate_bounds) ||
        !CU_add_test(s, "sweep", test_sweep) ||
        !CU_add_test(s, "bidi_format", test_bidi_format) ||
        !CU_add_test(s, "rtl_filter", test_rtl_filter) ||
        !CU_add_test(s, "hides_in_iri", test_hides_in_iri) ||
        !CU_add_test(s, "normalized_fast_path", test_normalized_fast_path) ||
        !CU_add_test(s, "ascii_classes", test_ascii_classes) ||
        !CU_add_test(s, "utf8_decode", test_utf8_decode) ||
        !CU_add_test(s, "utf8_roundtrip", test_utf8_roundtrip) ||
        !CU_add_test(s, "describe", test_describe))
        return -1;
    return 0;
}

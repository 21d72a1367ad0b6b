/* test_mojibake.c - the mojibake and double percent-encoding detector
 * (mojibake.c).  Expected values are derived outside xiri:
 * - the damaged inputs are python3's s.encode("utf-8").decode("cp1252")
 *   (and .decode("latin-1") where cp1252 leaves a byte undefined), their
 *   bytes written below as C escapes, and urllib.parse.quote() for the
 *   escaped and twice-escaped forms;
 * - the exhaustive round trip builds its inputs with this file's own
 *   windows-1252 table (python3: bytes([b]).decode("cp1252") for
 *   0x80-0x9F, the five undefined bytes standing for themselves as in the
 *   WHATWG index) and the tests' own UTF-8 encoder;
 * - precision: correct values must not be reported (UTF-8 structure, RFC
 *   3629 3: a windows-1252 letter 0xC0-0xFF can never follow a lead byte,
 *   so no pair of Latin-1 letters can look like UTF-8). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "buf.h"
#include "helpers.h"
#include "mem.h"
#include "mojibake.h"
#include "suites.h"

/* python3: [ord(bytes([b]).decode("cp1252")) for b in 0x80..0x9F], the
 * undefined 0x81 0x8D 0x8F 0x90 0x9D as themselves */
static const uint32_t cp1252_hi[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

struct repair_case {
    const char *in;
    const char *want; /* the repaired value */
    const char *hits; /* "KIND@off+len ...": T text, P escaped, D double */
};

static const struct repair_case cases[] = {
    /* "café": python3 'café'.encode('utf-8').decode('cp1252') = 'cafÃ©' */
    {"http://x/caf\xC3\x83\xC2\xA9", "http://x/caf\xC3\xA9", "T@12+4"},
    /* "Ö" as windows-1252 'Ã–' (0x96 EN DASH) and as Latin-1 'Ã\x96' */
    {"/\xC3\x83\xE2\x80\x93", "/\xC3\x96", "T@1+5"},
    {"/\xC3\x83\xC2\x96", "/\xC3\x96", "T@1+4"},
    /* "日本" as 'æ—¥æœ¬' */
    {"/\xC3\xA6\xE2\x80\x94\xC2\xA5\xC3\xA6\xC5\x93\xC2\xAC/x",
     "/\xE6\x97\xA5\xE6\x9C\xAC/x", "T@1+13"},
    /* "€" as 'â‚¬' */
    {"?p=\xC3\xA2\xE2\x80\x9A\xC2\xAC", "?p=\xE2\x82\xAC", "T@3+7"},
    /* "Straße" as 'StraÃŸe'; two runs: "Düsseldorf/naïve" */
    {"Stra\xC3\x83\xC5\xB8\x65", "Stra\xC3\x9F\x65", "T@4+4"}, /* \x65 'e' */
    {"D\xC3\x83\xC2\xBCsseldorf/na\xC3\x83\xC2\xAFve",
     "D\xC3\xBCsseldorf/na\xC3\xAFve", "T@1+4 T@16+4"},
    /* "Á" (C3 81): 0x81 is undefined in cp1252, U+0081 in Latin-1 */
    {"\xC3\x83\xC2\x81", "\xC3\x81", "T@0+4"},
    /* escaped: quote('cafÃ©') = 'caf%C3%83%C2%A9' */
    {"http://x/caf%C3%83%C2%A9", "http://x/caf%C3%A9", "P@12+12"},
    /* quote('Ã\x96') with an escaped space before and after it */
    {"/%20%C3%83%C2%96%20", "/%20%C3%96%20", "P@4+12"},
    /* quote('中'.encode().decode('latin-1')) = '%C3%A4%C2%B8%C2%AD' */
    {"/%c3%a4%c2%b8%c2%ad", "/%E4%B8%AD", "P@1+18"},
    /* twice escaped: quote('a%20b') = 'a%2520b', quote(quote('é')) */
    {"/a%2520b", "/a%20b", "D@2+5"},
    {"/%25C3%25A9", "/%C3%A9", "D@1+5 D@6+5"},
    {"/x?q=%25e9", "/x?q=%e9", "D@5+5"},
    /* both kinds, in document order */
    {"/%2520/caf\xC3\x83\xC2\xA9", "/%20/caf\xC3\xA9", "D@1+5 T@10+4"},
    /* a nested URL in a parameter is escaped twice on purpose:
     * quote('http://x/a%20b', safe='') */
    {"/r?u=http%3A%2F%2Fx%2Fa%2520b", NULL, ""},
    {"/r?u=http%3A%2F%2Fx%2Fa%2520b&v=%2520",
     "/r?u=http%3A%2F%2Fx%2Fa%2520b&v=%20", "D@32+5"},
    /* a URL escaped twice as a parameter, as affiliate redirects do:
     * quote(quote('http://x/a b', safe=''), safe='') */
    {"/r?u=http%253A%252F%252Fx%252Fa%2520b", NULL, ""},
    /* correct values: nothing to report */
    {"http://x/caf\xC3\xA9", NULL, ""},
    {"http://x/caf%C3%A9", NULL, ""},
    {"http://x/caf%E9", NULL, ""}, /* Latin-1 escape: not UTF-8 */
    {"http://\xEC\x95\x84\xEC\x9D\xB4.21kr.com/", NULL, ""},
    {"/\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0", NULL, ""},
    {"/\xC3\xA9\xC3\xA8\xC3\xA0\xC3\xBC", NULL, ""}, /* éèàü */
    {"/\xC3\x82\xC2\xB0", "/\xC2\xB0", "T@1+4"}, /* 'Â°' is '°' read wrongly */
    {"/50%25", NULL, ""},
    {"/50%25off", NULL, ""},
    {"/%25", NULL, ""},
    {"/%2", NULL, ""},
    {"", NULL, ""},
    {"\xEF\xBF\xBD", NULL, ""},
};

static void render(const char *v, size_t n, char *out, size_t size)
{
    struct moji_hit h;
    size_t at = 0, used = 0;
    int w;

    out[0] = '\0';
    while (moji_next(v, n, at, &h, NULL)) {
        w = snprintf(out + used, size - used, "%s%c@%zu+%zu", used ? " " : "",
                     h.kind == MOJI_TEXT  ? 'T'
                     : h.kind == MOJI_PCT ? 'P'
                                          : 'D',
                     h.off, h.len);
        if (w < 0 || (size_t)w >= size - used)
            return;
        used += (size_t)w;
        at = h.off + h.len;
    }
}

/* The same with one scan carried across the calls. */
static void render_scan(const char *v, size_t n, char *out, size_t size)
{
    struct moji_scan s;
    struct moji_hit h;
    size_t at = 0, used = 0;
    int w;

    out[0] = '\0';
    moji_scan_init(&s, v, n);
    while (moji_scan_next(&s, at, &h, NULL)) {
        w = snprintf(out + used, size - used, "%s%c@%zu+%zu", used ? " " : "",
                     h.kind == MOJI_TEXT  ? 'T'
                     : h.kind == MOJI_PCT ? 'P'
                                          : 'D',
                     h.off, h.len);
        if (w < 0 || (size_t)w >= size - used)
            return;
        used += (size_t)w;
        at = h.off + h.len;
    }
}

static void test_cases(void)
{
    size_t i;

    for (i = 0; i < ARRAY_LEN(cases); i++) {
        const struct repair_case *c = &cases[i];
        const char *want = c->want ? c->want : c->in;
        struct buf out;
        char got[256];
        size_t n;

        render(c->in, strlen(c->in), got, sizeof(got));
        if (strcmp(got, c->hits) != 0)
            TEST_FAIL("case %zu \"%s\": hits [%s], want [%s]", i, c->in, got,
                      c->hits);
        render_scan(c->in, strlen(c->in), got, sizeof(got));
        if (strcmp(got, c->hits) != 0)
            TEST_FAIL("case %zu \"%s\": scan hits [%s], want [%s]", i, c->in,
                      got, c->hits);
        buf_init(&out, 1024);
        n = moji_repair(c->in, strlen(c->in), &out);
        buf_putc(&out, '\0');
        CU_ASSERT_EQUAL_FATAL(out.status, XIRI_OK);
        if (strcmp(out.data, want) != 0 || (n == 0) != (c->want == NULL))
            TEST_FAIL("case %zu \"%s\": repaired \"%s\" (%zu), want \"%s\"", i,
                      c->in, out.data, n, want);
        else
            CU_PASS("case");
        buf_free(&out);
    }
}

/* Every code point from U+0080 (not surrogates): its UTF-8 bytes read as
 * windows-1252, written as UTF-8, repair to the code point's UTF-8, as
 * text and escaped; and the correct UTF-8 alone is never reported. */
static void test_round_trip(void)
{
    uint32_t cp;
    unsigned long bad = 0, checked = 0;
    struct buf out;

    buf_init(&out, 1024);
    for (cp = 0x80; cp <= 0x10FFFF; cp++) {
        char u[4], m[16], e[64], want[16];
        size_t un, mn = 0, en = 0, k, wn;
        struct moji_hit h;

        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        un = test_put_utf8(u, cp);
        for (k = 0; k < un; k++) {
            unsigned char b = (unsigned char)u[k];
            uint32_t c = b >= 0x80 && b < 0xA0 ? cp1252_hi[b - 0x80] : b;
            mn += test_put_utf8(m + mn, c);
        }
        for (k = 0; k < mn; k++)
            en += (size_t)snprintf(e + en, sizeof(e) - en, "%%%02X",
                                   (unsigned char)m[k]);
        out.len = 0;
        if (moji_repair(m, mn, &out) != 1 || out.len != un ||
            memcmp(out.data, u, un) != 0)
            bad++;
        out.len = 0;
        wn = 0;
        for (k = 0; k < un; k++)
            wn += (size_t)snprintf(want + wn, sizeof(want) - wn, "%%%02X",
                                   (unsigned char)u[k]);
        if (moji_repair(e, en, &out) != 1 || out.len != wn ||
            memcmp(out.data, want, wn) != 0)
            bad++;
        if (moji_next(u, un, 0, &h, NULL) || moji_next(want, wn, 0, &h, NULL))
            bad++;
        checked++;
        if (bad > 0 && bad < 4) {
            TEST_FAIL("U+%04lX: damaged form not repaired, or the correct "
                      "one reported",
                      (unsigned long)cp);
            bad = 4;
        }
    }
    buf_free(&out);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(checked, 0x110000 - 0x80 - 0x800);
}

/* A run of any length: 200 times U+3042 (600 UTF-8 bytes, 1,400 once
 * damaged, 4,200 escaped), built as in test_round_trip. */
static void test_long_run(void)
{
    static char m[4096], e[8192], u[1024], want[4096];
    size_t mn = 0, en = 0, un = 0, wn = 0, i, k;
    struct buf out;

    for (i = 0; i < 200; i++)
        un += test_put_utf8(u + un, 0x3042);
    for (k = 0; k < un; k++) {
        unsigned char b = (unsigned char)u[k];
        mn += test_put_utf8(m + mn,
                            b >= 0x80 && b < 0xA0 ? cp1252_hi[b - 0x80] : b);
        wn += (size_t)snprintf(want + wn, sizeof(want) - wn, "%%%02X", b);
    }
    for (k = 0; k < mn; k++)
        en += (size_t)snprintf(e + en, sizeof(e) - en, "%%%02X",
                               (unsigned char)m[k]);
    CU_ASSERT_EQUAL(mn, 1400); /* E3 81 82: U+00E3 U+0081 U+201A, 7 bytes */
    buf_init(&out, 1 << 20);
    CU_ASSERT_EQUAL(moji_repair(m, mn, &out), 1);
    CU_ASSERT(out.len == un && memcmp(out.data, u, un) == 0);
    out.len = 0;
    CU_ASSERT_EQUAL(moji_repair(e, en, &out), 1);
    CU_ASSERT(out.len == wn && memcmp(out.data, want, wn) == 0);
    buf_free(&out);
}

/* RFC 3629 3: after a lead byte (0xC2-0xF4, windows-1252 'Â'-'ô') only
 * 0x80-0xBF may follow; the Latin-1 letters U+00C0-U+00FF are bytes
 * 0xC0-0xFF, so no run of them is ever taken for mojibake. */
static void test_latin1_letters(void)
{
    uint32_t a, b, c;
    unsigned long bad = 0;
    struct moji_hit h;

    for (a = 0xC0; a <= 0xFF; a++)
        for (b = 0xC0; b <= 0xFF; b++)
            for (c = 0xC0; c <= 0xFF; c += 7) {
                char s[16];
                size_t n = 0;
                if (a == 0xD7 || a == 0xF7 || b == 0xD7 || b == 0xF7 ||
                    c == 0xD7 || c == 0xF7)
                    continue; /* × and ÷ are not letters */
                n += test_put_utf8(s + n, a);
                n += test_put_utf8(s + n, b);
                n += test_put_utf8(s + n, c);
                if (moji_next(s, n, 0, &h, NULL))
                    bad++;
            }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_cp1252_byte(void)
{
    unsigned b;

    for (b = 0; b < 0x80; b++)
        CU_ASSERT_EQUAL(moji_cp1252_byte(b), (int)b);
    for (b = 0x80; b < 0xA0; b++)
        CU_ASSERT_EQUAL(moji_cp1252_byte(cp1252_hi[b - 0x80]), (int)b);
    for (b = 0xA0; b < 0x100; b++)
        CU_ASSERT_EQUAL(moji_cp1252_byte(b), (int)b);
    CU_ASSERT_EQUAL(moji_cp1252_byte(0x100), -1);
    CU_ASSERT_EQUAL(moji_cp1252_byte(0x3042), -1);
    CU_ASSERT_EQUAL(moji_cp1252_byte(0xFFFD), -1);
}

/* Allocation failure: for each N, the repair with the Nth allocation
 * failing either reports ENOMEM (and nothing leaks: the ASan build) or
 * gives the whole correct result; some N gives ENOMEM.  Expected
 * repair by hand:
 * '%2520' is '%20' escaped twice; 'Ã©' is python3
 * 'é'.encode('utf-8').decode('cp1252'). */
static void test_oom(void)
{
    static const char v[] = "/%2520/caf\xC3\x83\xC2\xA9";
    static const char want[] = "/%20/caf\xC3\xA9";
    unsigned long i;
    size_t got;
    struct buf out;
    bool failed = false, whole = false;

    for (i = 0; i < 10; i++) {
        buf_init(&out, 1024);
        mem_fail_after(i);
        got = moji_repair(v, sizeof(v) - 1, &out);
        mem_fail_reset();
        if (out.status == XIRI_ENOMEM) {
            failed = true;
        } else if (out.status == XIRI_OK && got == 2 &&
                   out.len == sizeof(want) - 1 &&
                   memcmp(out.data, want, out.len) == 0) {
            whole = true;
        } else {
            TEST_FAIL("allocation %lu failing: status %s, %zu spans, %zu "
                      "bytes",
                      i, xiri_strerror(out.status), got, out.len);
        }
        buf_free(&out);
    }
    CU_ASSERT(failed);
    CU_ASSERT(whole);
}

/* One pass over a value, however many spans it has: the scan counts the
 * bytes it looks at (struct moji_scan steps), and a 64 KB value of each
 * shape that made the earlier detector rescan the rest of the value for
 * each span (quadratic: about 10^9 steps here, a few seconds, so that a
 * regression fails rather than hangs) must cost at most 16 steps a
 * byte.  Shapes: '%2541' repeated in one query parameter that
 * holds a nested URL ('%3A' at its end: each '%25' asked for its
 * parameter), the same without it (every '%2541' a span), 'Ã©' runs
 * between ASCII letters, and one run of escapes with an escaped 'Ã©'
 * ('%C3%83%C2%A9') between '%41' (every sub-run a span of one run). */
static size_t scan_steps(const char *v, size_t n, size_t *spans)
{
    struct moji_scan s;
    struct moji_hit h;
    size_t at = 0;

    *spans = 0;
    moji_scan_init(&s, v, n);
    while (moji_scan_next(&s, at, &h, NULL)) {
        at = h.off + h.len;
        (*spans)++;
    }
    return s.steps;
}

static void test_linear(void)
{
    static const struct {
        const char *head, *unit, *tail;
        size_t spans_per_unit;
    } shapes[] = {
        {"http://e.com/?a=", "%2541", "%3A", 0},
        {"http://e.com/?a=", "%2541", "", 1},
        {"http://e.com/", "x\xC3\x83\xC2\xA9", "", 1},
        {"http://e.com/", "%41%C3%83%C2%A9", "", 1},
    };
    const size_t size = 1 << 16;
    char *v = mem_alloc(size + 64);
    size_t k;

    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    for (k = 0; k < ARRAY_LEN(shapes); k++) {
        size_t n = 0, units = 0, spans, steps, ul = strlen(shapes[k].unit);
        struct buf out;

        memcpy(v, shapes[k].head, strlen(shapes[k].head));
        n = strlen(shapes[k].head);
        while (n + ul <= size) {
            memcpy(v + n, shapes[k].unit, ul);
            n += ul;
            units++;
        }
        memcpy(v + n, shapes[k].tail, strlen(shapes[k].tail));
        n += strlen(shapes[k].tail);
        steps = scan_steps(v, n, &spans);
        if (spans != units * shapes[k].spans_per_unit || steps > 16 * n)
            TEST_FAIL("shape %zu: %zu bytes, %zu spans (want %zu), %zu steps",
                      k, n, spans, units * shapes[k].spans_per_unit, steps);
        else
            CU_PASS("linear");
        /* the repair goes through the same scan */
        buf_init(&out, n + 1);
        CU_ASSERT_EQUAL(moji_repair(v, n, &out), spans);
        CU_ASSERT_EQUAL(out.status, XIRI_OK);
        buf_free(&out);
    }
    mem_free(v);
}

/* A message cuts text at a character boundary (RFC 3629 3: continuation
 * bytes are 10xxxxxx): '日' is E6 97 A5. */
static void test_cut(void)
{
    static const char s[] = "ab\xE6\x97\xA5z";

    CU_ASSERT_EQUAL(moji_cut(s, 6, 400), 6);
    CU_ASSERT_EQUAL(moji_cut(s, 6, 6), 6);
    CU_ASSERT_EQUAL(moji_cut(s, 6, 5), 5);
    CU_ASSERT_EQUAL(moji_cut(s, 6, 4), 2);
    CU_ASSERT_EQUAL(moji_cut(s, 6, 3), 2);
    CU_ASSERT_EQUAL(moji_cut(s, 6, 2), 2);
    CU_ASSERT_EQUAL(moji_cut(s, 6, 0), 0);
}

int suite_mojibake_register(void)
{
    CU_pSuite s = CU_add_suite("mojibake", NULL, NULL);

    if (!s || !CU_add_test(s, "cases (python3-derived)", test_cases) ||
        !CU_add_test(s, "every code point round trip", test_round_trip) ||
        !CU_add_test(s, "a long run", test_long_run) ||
        !CU_add_test(s, "Latin-1 letters never reported",
                     test_latin1_letters) ||
        !CU_add_test(s, "windows-1252 bytes", test_cp1252_byte) ||
        !CU_add_test(s, "out of memory", test_oom) ||
        !CU_add_test(s, "one linear pass a value", test_linear) ||
        !CU_add_test(s, "cut at a character boundary", test_cut))
        return -1;
    return 0;
}

/* test_map.c - IRI to URI (RFC 3987 section 3.1) and URI to IRI (section
 * 3.2): the RFC's examples, the vectors of iri-string, python-hyper/rfc3986
 * and Jena, and our own cases for every rule of both mappings. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#include <unicode/uversion.h>

#include "helpers.h"
#include "suites.h"

static struct xiri_ctx *ctx;

static int map_init(void)
{
    return xiri_ctx_new(&ctx) == XIRI_OK ? 0 : -1;
}

static int map_cleanup(void)
{
    xiri_ctx_free(ctx);
    ctx = NULL;
    return 0;
}

static const char *const status_tokens[XIRI_STATUS_COUNT] = {
    "!OK",    "!ENOMEM",     "!EINVAL", "!ESYNTAX",  "!ENOTABS",
    "!EIDNA", "!EFORBIDDEN", "!ELIMIT", "!EUNICODE",
};

static int token_status(const char *f)
{
    int i;

    for (i = 0; i < XIRI_STATUS_COUNT; i++)
        if (strcmp(f, status_tokens[i]) == 0)
            return i;
    return -1;
}

static int idn_of(const char *name)
{
    if (strcmp(name, "percent") == 0)
        return XIRI_IDN_PERCENT;
    if (strcmp(name, "punycode") == 0)
        return XIRI_IDN_PUNYCODE;
    if (strcmp(name, "unicode") == 0)
        return XIRI_IDN_UNICODE;
    return -1;
}

static const char *const idn_names[] = {"percent", "punycode", "unicode"};

enum dir { TO_URI, TO_IRI };

/* Map s[0..n) and compare with want (a string or "!STATUS"); want_off >= 0
 * also checks err.offset of a failure. Returns 1 when as expected. */
static int check_map(const char *where, int lineno, enum dir dir, const char *s,
                     size_t n, enum xiri_idn idn, unsigned flags,
                     const char *want, long want_off)
{
    char *out = NULL;
    size_t out_len = 0;
    struct xiri_error err;
    enum xiri_status st;
    int want_st = want[0] == '!' ? token_status(want) : XIRI_OK;
    int ok = 0;

    memset(&err, 0, sizeof(err));
    if (dir == TO_URI)
        st = xiri_to_uri(ctx, s, n, idn, flags, &out, &out_len, &err);
    else
        st = xiri_to_iri(ctx, s, n, idn, &out, &out_len, &err);
    if (want_st < 0) {
        TEST_FAIL("%s:%d: bad status token %s", where, lineno, want);
    } else if ((int)st != want_st) {
        TEST_FAIL("%s:%d: %s(%s, %s, flags %u) = %s \"%s\" (%s), want %s",
                  where, lineno, dir == TO_URI ? "to_uri" : "to_iri", s,
                  idn_names[idn], flags, status_tokens[st], out ? out : "",
                  err.message, want);
    } else if (st == XIRI_OK) {
        char what[512];
        snprintf(what, sizeof(what), "%s:%d %s(%s, %s)", where, lineno,
                 dir == TO_URI ? "to_uri" : "to_iri", s, idn_names[idn]);
        ok = TEST_STR_EQ(what, out, want);
        if (ok && out_len != strlen(out)) {
            TEST_FAIL("%s: out_len %zu", what, out_len);
            ok = 0;
        }
    } else {
        CU_ASSERT_PTR_NULL(out);
        CU_ASSERT_EQUAL(err.status, st);
        if (want_off >= 0 && err.offset != (size_t)want_off)
            TEST_FAIL("%s:%d: %s: error at %zu (%s), want at %ld", where,
                      lineno, s, err.offset, err.message, want_off);
        else
            ok = 1;
    }
    xiri_str_free(out);
    return ok;
}

/* RFC 3987 3.1: the mapping is idempotent, and the identity on its own
 * output (which is a URI). */
static void check_idempotent(const char *where, int lineno, const char *s,
                             size_t n, enum xiri_idn idn, unsigned flags)
{
    char *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;

    if (xiri_to_uri(ctx, s, n, idn, flags, &a, &alen, NULL) != XIRI_OK)
        return;
    if (!xiri_is_valid(a, alen, XIRI_PROFILE_URI))
        TEST_FAIL("%s:%d: to_uri(%s) = %s is not a URI", where, lineno, s, a);
    if (xiri_to_uri(ctx, a, alen, idn, flags, &b, &blen, NULL) != XIRI_OK)
        TEST_FAIL("%s:%d: to_uri(to_uri(%s)) fails", where, lineno, s);
    else
        TEST_STR_EQ("to_uri idempotent", b, a);
    xiri_str_free(a);
    xiri_str_free(b);
}

/* ---------------------------------------------------------------- data */

static void rfc3987_row(void *user, char **f, int n, int lineno)
{
    int *count = user;
    int idn;
    size_t len;
    enum dir dir;

    if (n < 6) {
        TEST_FAIL("map-rfc3987.tsv:%d: %d fields", lineno, n);
        return;
    }
    idn = idn_of(f[1]);
    dir = strcmp(f[0], "to_uri") == 0 ? TO_URI : TO_IRI;
    len = test_unescape(f[2]);
    test_unescape(f[3]);
    if (idn < 0) {
        TEST_FAIL("map-rfc3987.tsv:%d: bad idn %s", lineno, f[1]);
        return;
    }
    check_map("map-rfc3987.tsv", lineno, dir, f[2], len, (enum xiri_idn)idn, 0,
              f[3], -1);
    if (dir == TO_URI)
        check_idempotent("map-rfc3987.tsv", lineno, f[2], len,
                         (enum xiri_idn)idn, 0);
    (*count)++;
}

/* RFC 3987 3.1 and 3.2 examples (5 + 5, each under the modes that must
 * give that answer). */
static void test_rfc3987(void)
{
    int count = 0;

    CU_ASSERT_EQUAL(test_read_tsv("map-rfc3987.tsv", rfc3987_row, &count), 20);
}

struct src_count {
    int rows, followed;
};

static void sources_row(void *user, char **f, int n, int lineno)
{
    struct src_count *c = user;
    int idn;
    size_t len;

    const char *want;

    if (n < 6) {
        TEST_FAIL("map-sources.tsv:%d: %d fields", lineno, n);
        return;
    }
    idn = idn_of(f[1]);
    len = test_unescape(f[2]);
    test_unescape(f[3]);
    if (idn < 0) {
        TEST_FAIL("map-sources.tsv:%d: bad idn %s", lineno, f[1]);
        return;
    }
    c->rows++;
    want = f[3];
#if U_ICU_VERSION_MAJOR_NUM < 74
    /* the IDNA mapping of Unicode 15.0 and before (see the note) */
    if (strcmp(f[4], "\\e") != 0) {
        test_unescape(f[4]);
        want = f[4];
    }
#endif
    check_map("map-sources.tsv", lineno, TO_URI, f[2], len, (enum xiri_idn)idn,
              0, want, -1);
    check_idempotent("map-sources.tsv", lineno, f[2], len, (enum xiri_idn)idn,
                     0);
    if (want == f[3] && strncmp(f[5], "not followed", 12) != 0)
        c->followed++;
}

/* iri-string's 3 and python-hyper/rfc3986's 10 + 3 IRI to URI vectors. */
static void test_sources(void)
{
    struct src_count c = {0, 0};

    CU_ASSERT_EQUAL(test_read_tsv("map-sources.tsv", sources_row, &c), 19);
    /* U+2665 and U+36FC: UTS #46 accepts them; U+1E9E before ICU 74 (see
     * the notes) */
#if U_ICU_VERSION_MAJOR_NUM < 74
    CU_ASSERT_EQUAL(c.followed, 14);
#else
    CU_ASSERT_EQUAL(c.followed, 17);
#endif
}

struct jena_count {
    int rows, same, differ;
};

static void jena_row(void *user, char **f, int n, int lineno)
{
    struct jena_count *c = user;
    size_t len;
    const char *want;

    if (n < 5) {
        TEST_FAIL("map-jena.tsv:%d: %d fields", lineno, n);
        return;
    }
    c->rows++;
    len = test_unescape(f[1]);
    if (strcmp(f[3], "\\e") != 0) {
        /* xiri differs from Jena; the note says why */
        c->differ++;
        if (strcmp(f[4], "\\e") == 0)
            TEST_FAIL("map-jena.tsv:%d: differs without a reason", lineno);
        test_unescape(f[3]);
        want = f[3];
    } else if (strcmp(f[2], "\\N") == 0) {
        TEST_FAIL("map-jena.tsv:%d: Jena fails but xiri's answer is missing",
                  lineno);
        return;
    } else {
        c->same++;
        test_unescape(f[2]);
        want = f[2];
    }
    check_map("map-jena.tsv", lineno, TO_URI, f[1], len, XIRI_IDN_PUNYCODE,
              XIRI_MAP_ESCAPE_LEIRI, want, -1);
    check_idempotent("map-jena.tsv", lineno, f[1], len, XIRI_IDN_PUNYCODE,
                     XIRI_MAP_ESCAPE_LEIRI);
}

/* Jena's toASCIIString for 177 IRIs. */
static void test_jena(void)
{
    struct jena_count c = {0, 0, 0};

    CU_ASSERT_EQUAL(test_read_tsv("map-jena.tsv", jena_row, &c), 177);
    CU_ASSERT_EQUAL(c.same, 158);
    CU_ASSERT_EQUAL(c.differ, 19);
}

/* ---------------------------------------------------------------- to_uri */

struct map_case {
    const char *in;
    enum xiri_idn idn;
    unsigned flags;
    const char *want; /* or "!STATUS" */
    long off;         /* err.offset of a failure, -1 when not checked */
};

#define ESC XIRI_MAP_ESCAPE_LEIRI
#define DNS XIRI_MAP_DNS_ONLY
#define PCT XIRI_IDN_PERCENT
#define PUNY XIRI_IDN_PUNYCODE
#define UNI XIRI_IDN_UNICODE

/* RFC 3987 3.1, worked out by hand; ToASCII forms checked with an
 * independent RFC 3492 implementation (Python's punycode codec). */
static const struct map_case to_uri_cases[] = {
    /* identity on URIs, existing escapes untouched (lower case kept) */
    {"http://a/b?c#d", PCT, 0, "http://a/b?c#d", -1},
    {"http://a/%7e%41%c3%a9?%2f#%25", PCT, 0, "http://a/%7e%41%c3%a9?%2f#%25",
     -1},
    {"mailto:a@b.example", PUNY, 0, "mailto:a@b.example", -1},
    {"", PCT, 0, "", -1},
    {"urn:isbn:0451450523", PUNY, DNS, "urn:isbn:0451450523", -1},
    {"HTTP://EXAMPLE.ORG/", PUNY, 0, "HTTP://EXAMPLE.ORG/", -1},
    /* step 2: UTF-8, %HH upper-case */
    {"http://a/\xc3\xa9", PCT, 0, "http://a/%C3%A9", -1},
    {"\xc3\xa9", PCT, 0, "%C3%A9", -1},
    {"http://a/\xf0\x90\x8c\x80", PCT, 0, "http://a/%F0%90%8C%80", -1},
    {"http://a/?\xee\x80\x80", PCT, 0, "http://a/?%EE%80%80", -1},
    {"http://a/?\xf4\x8f\xbf\xbd", PCT, 0, "http://a/?%F4%8F%BF%BD", -1},
    {"http://a/#\xc2\xa0", PCT, 0, "http://a/#%C2%A0", -1},
    {"http://\xc3\xbc@a/", PCT, 0, "http://%C3%BC@a/", -1},
    {"http://a/\xe2\x80\x8e", PCT, 0, "http://a/%E2%80%8E", -1},
    /* the LEIRI characters: an error unless asked for (3.1 step 2 note);
     * the offset names the character */
    {"http://a/b c", PCT, 0, "!EFORBIDDEN", 10},
    {"http://a/\xc3\xa9 c", PCT, 0, "!EFORBIDDEN", 11},
    {"http://a/b c", PCT, ESC, "http://a/b%20c", -1},
    {"http://a/<>\"{}|\\^`", PCT, 0, "!EFORBIDDEN", 9},
    {"http://a/<>\"{}|\\^`", PCT, ESC, "http://a/%3C%3E%22%7B%7D%7C%5C%5E%60",
     -1},
    {"http://a/?x=|", PCT, 0, "!EFORBIDDEN", 12},
    {"http://a/#\x01\x1f\x7f", PCT, ESC, "http://a/#%01%1F%7F", -1},
    {"http://a/\t", PCT, 0, "!EFORBIDDEN", 9},
    {"http://a/\xc2\x85", PCT, 0, "!EFORBIDDEN", 9},
    {"http://a/\xc2\x85", PCT, ESC, "http://a/%C2%85", -1},
    {"http://a/\xef\xbf\xbd", PCT, 0, "!EFORBIDDEN", 9},
    {"http://a/\xef\xbf\xbd", PCT, ESC, "http://a/%EF%BF%BD", -1},
    {"http://a/\xef\xb7\x90", PCT, ESC, "http://a/%EF%B7%90", -1},
    /* iprivate outside the query is not an IRI either */
    {"http://a/\xee\x80\x80", PCT, 0, "!EFORBIDDEN", 9},
    {"http://a/\xee\x80\x80", PCT, ESC, "http://a/%EE%80%80", -1},
    {"http://a/#\xee\x80\x80", PCT, 0, "!EFORBIDDEN", 10},
    /* host with a LEIRI character: escaped, not given to IDNA */
    {"http://a b/", PUNY, 0, "!EFORBIDDEN", 8},
    {"http://a b/", PUNY, ESC, "http://a%20b/", -1},
    /* not a LEIRI, not UTF-8: syntax errors */
    {"http://a/%zz", PCT, ESC, "!ESYNTAX", 9},
    {"http://a/\xc3", PCT, ESC, "!ESYNTAX", 9},
    {"http://a/\xc0\xaf", PCT, ESC, "!ESYNTAX", 9},
    {"http://a/\xed\xa0\x80", PCT, ESC, "!ESYNTAX", 9},
    {"http://a/\xef\xbf\xbe", PCT, ESC, "!ESYNTAX", 9},
    {"http://a/#x#y", PCT, ESC, "!ESYNTAX", 11},
    /* hosts: %HH (step 2) or ToASCII (the 3.1 alternative) */
    {"http://\xc3\xa9.example/", PCT, 0, "http://%C3%A9.example/", -1},
    {"http://\xc3\xa9.example/", PUNY, 0, "http://xn--9ca.example/", -1},
    {"http://\xc3\xa9.example/", UNI, 0, "http://xn--9ca.example/", -1},
    {"http://\xc3\x89.example/", PUNY, 0, "http://xn--9ca.example/", -1},
    {"http://%C3%A9.example/", PUNY, 0, "http://xn--9ca.example/", -1},
    {"http://%c3%a9.example/", PUNY, 0, "http://xn--9ca.example/", -1},
    {"http://\xc3\xa9.example./", PUNY, 0, "http://xn--9ca.example./", -1},
    {"http://\xc3\xbc@\xc3\xa9.example:80/\xc3\xa9?\xc3\xa9#\xc3\xa9", PUNY, 0,
     "http://%C3%BC@xn--9ca.example:80/%C3%A9?%C3%A9#%C3%A9", -1},
    {"http://\xe7\xb4\x8d\xe8\xb1\x86.example.org/", PUNY, 0,
     "http://xn--99zt52a.example.org/", -1},
    {"http://b\xc3\xbc\x63her.example/", PUNY, 0,
     "http://xn--bcher-kva.example/", -1},
    /* an all-ASCII host is already a URI host: never through IDNA */
    {"http://Ex_ample.COM/", PUNY, 0, "http://Ex_ample.COM/", -1},
    {"http://xn--a.example/\xc3\xa9", PUNY, 0, "http://xn--a.example/%C3%A9",
     -1},
    {"http://%41.example/", PUNY, 0, "http://%41.example/", -1},
    /* IP literals are not names */
    {"http://[::1]/\xc3\xa9", PUNY, 0, "http://[::1]/%C3%A9", -1},
    {"http://[v1.x]:8/", PUNY, 0, "http://[v1.x]:8/", -1},
    {"file:///\xc3\xa9", PUNY, 0, "file:///%C3%A9", -1},
    /* IDNA failures are errors, never a silent fallback; the offset is
     * the host's */
    {"http://\xc3\xa9_x.example/", PUNY, 0, "!EIDNA", 7},
    {"http://-\xc3\xa9.example/", PUNY, 0, "!EIDNA", 7},
    {"http://\xcd\xb8.net/", PUNY, 0, "!EIDNA", 7},
    {"http://u@\xe2\x80\x8d\xc3\xa9.example/", PUNY, 0, "!EIDNA", 9},
    {"http://%FF.example/", PUNY, 0, "!EIDNA", 7},
    {"http://%C3.example/", PUNY, 0, "!EIDNA", 7},
    /* the same hosts percent-encoded are fine */
    {"http://\xc3\xa9_x.example/", PCT, 0, "http://%C3%A9_x.example/", -1},
    {"http://%FF.example/", PCT, 0, "http://%FF.example/", -1},
    /* XIRI_MAP_DNS_ONLY: ToASCII for DNS schemes and mailto only */
    {"http://\xc3\xa9.example/", PUNY, DNS, "http://xn--9ca.example/", -1},
    {"HTTPS://\xc3\xa9.example/", PUNY, DNS, "HTTPS://xn--9ca.example/", -1},
    {"ftp://\xc3\xa9.example/", PUNY, DNS, "ftp://xn--9ca.example/", -1},
    {"ws://\xc3\xa9.example/", PUNY, DNS, "ws://xn--9ca.example/", -1},
    {"wss://\xc3\xa9.example/", PUNY, DNS, "wss://xn--9ca.example/", -1},
    {"foo://\xc3\xa9.example/", PUNY, DNS, "foo://%C3%A9.example/", -1},
    {"urn://\xc3\xa9.example/", PUNY, DNS, "urn://%C3%A9.example/", -1},
    {"foo://\xc3\xa9.example/", PUNY, 0, "foo://xn--9ca.example/", -1},
    {"//\xc3\xa9.example/", PUNY, DNS, "//%C3%A9.example/", -1},
    {"//\xc3\xa9.example/", PUNY, 0, "//xn--9ca.example/", -1},
    {"foo://\xc3\xa9_x/", PUNY, DNS, "foo://%C3%A9_x/", -1},
    /* bits other than XIRI_MAP_* are ignored: the library's internal
     * "keep hosts" bit (0x100) must not reach the mapping */
    {"http://\xc3\xa9.example/", PUNY, 0x100u, "http://xn--9ca.example/", -1},
    {"mailto:a@\xc3\xa9.example", PUNY, 0xff00u, "mailto:a@xn--9ca.example",
     -1},
    /* mailto (RFC 6068 2): the domain of each address */
    {"mailto:jos\xc3\xa9@\xc3\xa9.example", PUNY, 0,
     "mailto:jos%C3%A9@xn--9ca.example", -1},
    {"mailto:jos\xc3\xa9@\xc3\xa9.example", PUNY, DNS,
     "mailto:jos%C3%A9@xn--9ca.example", -1},
    {"mailto:jos\xc3\xa9@\xc3\xa9.example", PCT, 0,
     "mailto:jos%C3%A9@%C3%A9.example", -1},
    {"mailto:a@\xc3\xa9.example,b@\xc3\xbc.example?subject=\xc3\xa9", PUNY, 0,
     "mailto:a@xn--9ca.example,b@xn--tda.example?subject=%C3%A9", -1},
    {"MAILTO:a@\xc3\xa9.example", PUNY, DNS, "MAILTO:a@xn--9ca.example", -1},
    {"mailto:\xc3\xa9", PUNY, 0, "mailto:%C3%A9", -1},
    {"mailto:a@\xc3\xa9_x.example", PUNY, 0, "!EIDNA", 9},
};

static void test_to_uri_cases(void)
{
    size_t i;

    for (i = 0; i < ARRAY_LEN(to_uri_cases); i++) {
        const struct map_case *c = &to_uri_cases[i];
        check_map("to_uri_cases", (int)i, TO_URI, c->in, strlen(c->in), c->idn,
                  c->flags, c->want, c->off);
        check_idempotent("to_uri_cases", (int)i, c->in, strlen(c->in), c->idn,
                         c->flags);
    }
}

/* ---------------------------------------------------------------- to_iri */

/* RFC 3987 3.2, worked out by hand. */
static const struct map_case to_iri_cases[] = {
    {"http://a/b?c#d", PCT, 0, "http://a/b?c#d", -1},
    {"", PCT, 0, "", -1},
    /* step 2: never %25, reserved, or ASCII that URIs forbid; kept escapes
     * get upper-case hex */
    {"http://a/%25C3%25A9", PCT, 0, "http://a/%25C3%25A9", -1},
    {"http://a/%25", PCT, 0, "http://a/%25", -1},
    {"x:%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D", PCT, 0,
     "x:%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D", -1},
    {"x:%2f%3f%5b", PCT, 0, "x:%2F%3F%5B", -1},
    {"x:%20%3C%3E%22%7B%7D%7C%5C%5E%60%00%1F%7F", PCT, 0,
     "x:%20%3C%3E%22%7B%7D%7C%5C%5E%60%00%1F%7F", -1},
    {"x:%3c%7f", PCT, 0, "x:%3C%7F", -1},
    /* unreserved ASCII decodes (RFC 3986 2.3), but not '.', so that no
     * dot segment appears */
    {"x:%41%7A%30%2D%5F%7E", PCT, 0, "x:Az0-_~", -1},
    {"x:%7e%2d", PCT, 0, "x:~-", -1},
    {"x:/%2E%2E/%2e", PCT, 0, "x:/%2E%2E/%2E", -1},
    /* step 3: UTF-8 of ucschar decodes, any hex case */
    {"http://a/D%C3%BCrst", PCT, 0, "http://a/D\xc3\xbcrst", -1},
    {"http://a/%c3%bc", PCT, 0, "http://a/\xc3\xbc", -1},
    {"x:%C2%A1", PCT, 0, "x:\xc2\xa1", -1},
    {"x:%E2%82%AC", PCT, 0, "x:\xe2\x82\xac", -1},
    {"x:%F0%9F%98%80", PCT, 0, "x:\xf0\x9f\x98\x80", -1},
    {"x:%F0%A0%80%80", PCT, 0, "x:\xf0\xa0\x80\x80", -1},
    /* (U+E1000 is ucschar, but no character yet: kept) */
    {"x:%F3%A1%80%80", PCT, 0, "x:%F3%A1%80%80", -1},
    {"x:%C3%A9%C3%A9", PCT, 0, "x:\xc3\xa9\xc3\xa9", -1},
    {"x:\xc3\xa9%C3%A9", PCT, 0, "x:\xc3\xa9\xc3\xa9", -1},
    /* not UTF-8: stays escaped, upper-cased */
    {"http://a/D%FCrst", PCT, 0, "http://a/D%FCrst", -1},
    {"http://a/r%e9sum%e9", PCT, 0, "http://a/r%E9sum%E9", -1},
    {"x:%C0%AF", PCT, 0, "x:%C0%AF", -1},
    {"x:%c0%af", PCT, 0, "x:%C0%AF", -1},
    {"x:%E0%80%AF", PCT, 0, "x:%E0%80%AF", -1},
    {"x:%F0%80%80%AF", PCT, 0, "x:%F0%80%80%AF", -1},
    {"x:%C1%BF", PCT, 0, "x:%C1%BF", -1},
    {"x:%ED%A0%80", PCT, 0, "x:%ED%A0%80", -1},
    {"x:%ED%A0%80%ED%B0%80", PCT, 0, "x:%ED%A0%80%ED%B0%80", -1},
    {"x:%F4%90%80%80", PCT, 0, "x:%F4%90%80%80", -1},
    {"x:%F5%80%80%80", PCT, 0, "x:%F5%80%80%80", -1},
    {"x:%FF%FE", PCT, 0, "x:%FF%FE", -1},
    {"x:%80", PCT, 0, "x:%80", -1},
    {"x:%C3", PCT, 0, "x:%C3", -1},
    {"x:%C3%41", PCT, 0, "x:%C3A", -1},
    {"x:%E6%97", PCT, 0, "x:%E6%97", -1},
    {"x:%E6%97x", PCT, 0, "x:%E6%97x", -1},
    {"x:%C3%C3%A9", PCT, 0, "x:%C3\xc3\xa9", -1},
    {"x:%F0%9F%98", PCT, 0, "x:%F0%9F%98", -1},
    {"x:%F0%9F%98%2E", PCT, 0, "x:%F0%9F%98%2E", -1},
    {"x:%C3/%A9", PCT, 0, "x:%C3/%A9", -1},
    /* step 4: not allowed at that position */
    {"x:%C2%85", PCT, 0, "x:%C2%85", -1}, /* C1 control */
    {"x:%C2%9F", PCT, 0, "x:%C2%9F", -1},
    {"x:%EF%B7%90", PCT, 0, "x:%EF%B7%90", -1},       /* U+FDD0 */
    {"x:%EF%BF%BD", PCT, 0, "x:%EF%BF%BD", -1},       /* U+FFFD */
    {"x:%EF%BF%BE", PCT, 0, "x:%EF%BF%BE", -1},       /* U+FFFE */
    {"x:%F0%9F%BF%BE", PCT, 0, "x:%F0%9F%BF%BE", -1}, /* U+1FFFE */
    {"x:%F3%A0%80%81", PCT, 0, "x:%F3%A0%80%81", -1}, /* U+E0001 */
    /* bidi formatting characters (RFC 3987 4.1) */
    {"x:%E2%80%8E%E2%80%8F", PCT, 0, "x:%E2%80%8E%E2%80%8F", -1},
    {"x:%e2%80%aa%E2%80%AB%E2%80%AC%E2%80%AD%e2%80%ae", PCT, 0,
     "x:%E2%80%AA%E2%80%AB%E2%80%AC%E2%80%AD%E2%80%AE", -1},
    {"x:?%E2%80%8E#%E2%80%8E", PCT, 0, "x:?%E2%80%8E#%E2%80%8E", -1},
    /* 6.1 (b), which step 4 refers to: characters not seen (Unicode
     * White_Space, Default_Ignorable_Code_Point) stay escaped: no-break
     * space, soft hyphen, ZWJ, word joiner, ideographic space, BOM, a
     * variation selector, a tag character; their neighbours decode */
    {"x:%C2%A0%C2%AD%E2%80%8D%E2%81%A0%E3%80%80%EF%BB%BF", PCT, 0,
     "x:%C2%A0%C2%AD%E2%80%8D%E2%81%A0%E3%80%80%EF%BB%BF", -1},
    {"x:%E2%80%8A%EF%B8%8F%F3%A0%80%A1", PCT, 0,
     "x:%E2%80%8A%EF%B8%8F%F3%A0%80%A1", -1},
    {"x:%C2%9F%C2%A0%C2%A1%E2%80%8B%E2%80%90%E3%80%81", PCT, 0,
     "x:%C2%9F%C2%A0\xc2\xa1%E2%80%8B\xe2\x80\x90\xe3\x80\x81", -1},
    /* iprivate: in the query only */
    {"x:/%EE%80%80?%EE%80%80#%EE%80%80", PCT, 0,
     "x:/%EE%80%80?\xee\x80\x80#%EE%80%80", -1},
    {"x:?%EF%A3%BF%F3%B0%80%80%F4%8F%BF%BD", PCT, 0,
     "x:?\xef\xa3\xbf\xf3\xb0\x80\x80\xf4\x8f\xbf\xbd", -1},
    {"x:/%F3%B0%80%80", PCT, 0, "x:/%F3%B0%80%80", -1},
    {"x:?%F4%8F%BF%BE", PCT, 0, "x:?%F4%8F%BF%BE", -1}, /* U+10FFFE */
    {"//%EE%80%80/", PCT, 0, "//%EE%80%80/", -1},
    /* every component */
    {"http://%C3%BC@%C3%A9.example:8/%C3%A9?%C3%A9#%C3%A9", PCT, 0,
     "http://\xc3\xbc@\xc3\xa9.example:8/\xc3\xa9?\xc3\xa9#\xc3\xa9", -1},
    /* hosts: xn-- labels stay, unless ToUnicode is asked for (3.2.1) */
    {"http://xn--9ca.example/", PCT, 0, "http://xn--9ca.example/", -1},
    {"http://xn--9ca.example/", PUNY, 0, "http://xn--9ca.example/", -1},
    {"http://xn--9ca.example/", UNI, 0, "http://\xc3\xa9.example/", -1},
    {"http://u@xn--9ca.example:8/%C3%A9", UNI, 0,
     "http://u@\xc3\xa9.example:8/\xc3\xa9", -1},
    {"http://a.xn--99zt52a.example/", UNI, 0,
     "http://a.\xe7\xb4\x8d\xe8\xb1\x86.example/", -1},
    {"http://[::1]/%C3%A9", UNI, 0, "http://[::1]/\xc3\xa9", -1},
    {"http://example.com/", UNI, 0, "http://example.com/", -1},
    /* an ACE label that is no valid IDNA: kept (no silent change) */
    {"http://xn--9ca-.example/", UNI, 0, "http://xn--9ca-.example/", -1},
    {"http://xn--a.example/", UNI, 0, "http://xn--a.example/", -1},
    {"http://xn--9ca_x.example/", UNI, 0, "http://xn--9ca_x.example/", -1},
    /* step 4 leaves to the converter what stays escaped (6.1); a
     * character that would pass for a delimiter does (7.5, 8): U+2215
     * DIVISION SLASH and U+2044 FRACTION SLASH (UTS #39 skeleton '/'),
     * whatever their script U+1735 PHILIPPINE SINGLE PUNCTUATION ('/')
     * and U+0589 ARMENIAN FULL STOP (':'); U+FF06 FULLWIDTH AMPERSAND,
     * U+FE56 SMALL QUESTION MARK, U+2024 ONE DOT LEADER and U+FF0E
     * FULLWIDTH FULL STOP (NFKC '&', '?', '.'), U+2025 TWO DOT LEADER
     * (NFKC ".."); U+FF21 FULLWIDTH LATIN CAPITAL A (NFKC 'A'), fullwidth
     * parentheses and plus sign (not delimiters of the generic syntax)
     * and U+2026 HORIZONTAL ELLIPSIS ("...": no dot segment) decode */
    {"http://bank.example%E2%88%95login.evil.example/", PCT, 0,
     "http://bank.example%E2%88%95login.evil.example/", -1},
    {"http://bank.example%E1%9C%B5login.evil.example/", PCT, 0,
     "http://bank.example%E1%9C%B5login.evil.example/", -1},
    {"x:/a%E2%88%95b%E2%81%84c?q=1%EF%BC%86r%EF%B9%96", PCT, 0,
     "x:/a%E2%88%95b%E2%81%84c?q=1%EF%BC%86r%EF%B9%96", -1},
    {"x:/a%D6%89b%E2%80%A4c/%EF%BC%8E%EF%BC%8E/%E2%80%A5", PCT, 0,
     "x:/a%D6%89b%E2%80%A4c/%EF%BC%8E%EF%BC%8E/%E2%80%A5", -1},
    /* and punctuation whose NFKC form holds a delimiter among other
     * characters: U+2047 DOUBLE QUESTION MARK "??", U+2100 ACCOUNT OF
     * "a/c" */
    {"x:/search%E2%81%87q=1/a%E2%84%80b", PCT, 0,
     "x:/search%E2%81%87q=1/a%E2%84%80b", -1},
    {"x:%EF%BC%A1%EF%BC%88%EF%BC%91%EF%BC%89%EF%BC%8B%E2%80%A6", PCT, 0,
     "x:\xef\xbc\xa1\xef\xbc\x88\xef\xbc\x91\xef\xbc\x89\xef\xbc\x8b"
     "\xe2\x80\xa6",
     -1},
    /* a character that is ASCII in NFC (5.3.2.2 compares so): U+037E
     * GREEK QUESTION MARK is ';', U+1FEF GREEK VARIA '`', U+212A KELVIN
     * SIGN 'K' */
    {"x:/%CD%BE%E1%BF%AF%E2%84%AA", PCT, 0, "x:/%CD%BE%E1%BF%AF%E2%84%AA", -1},
    /* a character NFC may join to what is before it, when that is of the
     * syntax: '=' U+0338 is U+2260, "%BE" U+0301 "%B" U+00C9 (a broken
     * escape), the start; a Hangul vowel jamo (combining class 0,
     * NFC_Quick_Check Maybe) after '='; after a letter, raw, decoded or
     * ASCII (a file name in NFD), they decode */
    {"x:?a=%CC%B8b", PCT, 0, "x:?a=%CC%B8b", -1},
    /* a mark NFC joins to nothing, but drawn on the character before it:
     * U+20E3 COMBINING ENCLOSING KEYCAP after '#', U+20DD COMBINING
     * ENCLOSING CIRCLE after an escape, U+0903 DEVANAGARI SIGN VISARGA
     * (a spacing mark) after '-' */
    {"x:a#%E2%83%A3", PCT, 0, "x:a#%E2%83%A3", -1},
    {"x:/%2F%E2%83%9D/-%E0%A4%83", PCT, 0, "x:/%2F%E2%83%9D/-%E0%A4%83", -1},
    {"x:%EF%BF%BE%CC%81", PCT, 0, "x:%EF%BF%BE%CC%81", -1},
    {"x:%CC%81", PCT, 0, "x:%CC%81", -1},
    {"x:=%E1%85%A1", PCT, 0, "x:=%E1%85%A1", -1},
    {"x:a%E1%85%A1", PCT, 0, "x:a\xe1\x85\xa1", -1},
    {"file:///Users/x/Re%CC%81sume%CC%81.pdf", PCT, 0,
     "file:///Users/x/Re\xcc\x81sume\xcc\x81.pdf", -1},
    {"x:%C3%A9%CC%81%E1%84%80%E1%85%A1", PCT, 0,
     "x:\xc3\xa9\xcc\x81\xe1\x84\x80\xe1\x85\xa1", -1},
    /* a character written as it is that no IRI holds there is escaped as
     * 3.1 does (4.1: bidi formatting; private use outside the query; a
     * noncharacter); one an IRI holds stays */
    {"x:/a\xe2\x80\xae"
     "b?\xee\x80\x80#\xef\xb7\x90\xee\x80\x80\xc3\xa9",
     PCT, 0, "x:/a%E2%80%AEb?\xee\x80\x80#%EF%B7%90%EE%80%80\xc3\xa9", -1},
    /* the host of a DNS name (and a mailto domain) decodes only where
     * 3.1 with IDNA ToASCII takes it back: "résumé-" breaks the hyphen
     * rule, %C0%AF is no UTF-8; then nothing of the value decodes (to-uri
     * leaves a value whose host it cannot map as it is: the rest must
     * stay a URI); another scheme's host decodes */
    {"http://r%C3%A9sum%C3%A9-.example/caf%C3%A9", PCT, 0,
     "http://r%C3%A9sum%C3%A9-.example/caf%C3%A9", -1},
    {"http://%C0%AF.r%C3%A9sum%C3%A9.example/%C3%A9", PCT, 0,
     "http://%C0%AF.r%C3%A9sum%C3%A9.example/%C3%A9", -1},
    {"http://r%C3%A9sum%C3%A9.example/", PCT, 0,
     "http://r\xc3\xa9sum\xc3\xa9.example/", -1},
    {"foo://r%C3%A9sum%C3%A9-.example/", PCT, 0,
     "foo://r\xc3\xa9sum\xc3\xa9-.example/", -1},
    {"mailto:a@r%C3%A9sum%C3%A9-.example,b@%C3%A9.example?subject=%C3%A9", PCT,
     0, "mailto:a@r%C3%A9sum%C3%A9-.example,b@%C3%A9.example?subject=%C3%A9",
     -1},
    {"mailto:a@r%C3%A9sum%C3%A9.example,b@%C3%A9.example?subject=%C3%A9", PCT,
     0,
     "mailto:a@r\xc3\xa9sum\xc3\xa9.example,b@\xc3\xa9.example?subject="
     "\xc3\xa9",
     -1},
    /* in a host a letter that passes for a delimiter stays escaped too
     * (U+30CE KATAKANA LETTER NO, skeleton '/'; DNS takes it), and stays
     * ACE with --idn=unicode (xn--ldk); in a path it decodes */
    {"http://bank.example%E3%83%8Elogin.evil.example/%E3%83%8E", PCT, 0,
     "http://bank.example%E3%83%8Elogin.evil.example/\xe3\x83\x8e", -1},
    {"http://bank.example.xn--ldk.evil.example/", UNI, 0,
     "http://bank.example.xn--ldk.evil.example/", -1},
    /* ToUnicode only for DNS names (3.2: with knowledge of the scheme),
     * label by label, the others as written; a label whose characters
     * would not be seen (U+200C ZERO WIDTH NON-JOINER, RFC 5892
     * Appendix A.1) stays in ACE form */
    {"foo://xn--9ca.example/", UNI, 0, "foo://xn--9ca.example/", -1},
    {"http://EXAMPLE.xn--9ca/", UNI, 0, "http://EXAMPLE.\xc3\xa9/", -1},
    {"mailto:a@xn--9ca.Example", UNI, 0, "mailto:a@\xc3\xa9.Example", -1},
    {"http://xn--mgba3gch31f060k.example/", UNI, 0,
     "http://xn--mgba3gch31f060k.example/", -1},
    /* a component with right-to-left characters decodes only where it is
     * then well-formed for bidi (RFC 3987 4.2: no left-to-right character,
     * right-to-left ones at both ends; section 8), else keeps its escapes
     * (%D7%90 is U+05D0 HEBREW LETTER ALEF, %D7%91 U+05D1 BET, %D7%92
     * U+05D2 GIMEL; a hex letter of a kept escape is left-to-right); a
     * segment's file extension, each query name and value, each label of
     * a host are components of their own, a mailto path's are split at
     * '/' and '.' (check.c reads them so) */
    {"http://a/%D7%90%D7%91/1.html?q=%D7%90&r=x%D7%90#%D7%90", PCT, 0,
     "http://a/\xd7\x90\xd7\x91/1.html?q=\xd7\x90&r=x%D7%90#\xd7\x90", -1},
    {"http://a/x%D7%90/%D7%901/%D7%90.txt/%D7%90%E2%88%95%D7%91", PCT, 0,
     "http://a/x%D7%90/%D7%901/\xd7\x90.txt/%D7%90%E2%88%95%D7%91", -1},
    {"foo://%D7%90b@%D7%90.x%D7%90/", PCT, 0, "foo://%D7%90b@\xd7\x90.x%D7%90/",
     -1},
    {"mailto:%D7%90@ex.org", PCT, 0, "mailto:%D7%90@ex.org", -1},
    {"mailto:%D7%90@%D7%91.%D7%92", PCT, 0, "mailto:\xd7\x90@\xd7\x91.\xd7\x92",
     -1},
    /* an unassigned code point stays escaped (U+0E00, in the Thai block;
     * U+10000 LINEAR B SYLLABLE B008 A is assigned) */
    {"http://a/%E0%B8%80/%F0%90%80%80", PCT, 0,
     "http://a/%E0%B8%80/\xf0\x90\x80\x80", -1},
    /* each label of a DNS host too, as check.c reads it (IDNA's bidi rule
     * lets "א1" end with a digit): the host keeps its escapes, or its
     * xn-- label */
    {"http://%D7%901.com/%D7%90", PCT, 0, "http://%D7%901.com/\xd7\x90", -1},
    {"http://xn--1-zhc.com/", UNI, 0, "http://xn--1-zhc.com/", -1},
    {"http://%D7%90%D7%91.com/", PCT, 0, "http://\xd7\x90\xd7\x91.com/", -1},
    /* (raw characters already mixed: nothing of the component decodes) */
    {"x:\xd7\x90"
     "a%C3%A9/%C3%A9",
     PCT, 0,
     "x:\xd7\x90"
     "a%C3%A9/\xc3\xa9",
     -1},
    /* not a URI (nor a LEIRI) */
    {"x:%zz", PCT, 0, "!ESYNTAX", 2},
    {"x:#a#b", PCT, 0, "!ESYNTAX", 4},
    /* raw non-ASCII and LEIRI characters pass through */
    {"x:\xc3\xa9 %20", PCT, 0, "x:\xc3\xa9 %20", -1},
};

static void test_to_iri_cases(void)
{
    size_t i;

    for (i = 0; i < ARRAY_LEN(to_iri_cases); i++) {
        const struct map_case *c = &to_iri_cases[i];
        check_map("to_iri_cases", (int)i, TO_IRI, c->in, strlen(c->in), c->idn,
                  0, c->want, c->off);
    }
}

/* Round trip of the to_iri table: to_uri(to_iri(u)) gives u back, up to
 * the case of the hex digits and the decoded unreserved escapes (which
 * the table lists in the input only where it also checks the output). */
static void test_round_trip(void)
{
    static const char *const uris[] = {
        "http://a/"
        "%C3%BC%C0%AF%ED%A0%80%F4%90%80%80%E2%80%8E?%EE%80%80#%EE%80%80",
        "http://%C3%A9.example/%25%2F%3F%20",
        "x:%C3%41%E6%97x%FF",
        "http://xn--99zt52a.example.org/%E2%80%AE",
    };
    size_t i;

    for (i = 0; i < ARRAY_LEN(uris); i++) {
        char *iri = NULL, *back = NULL;
        size_t ilen = 0;
        if (xiri_to_iri(ctx, uris[i], strlen(uris[i]), XIRI_IDN_PERCENT, &iri,
                        &ilen, NULL) != XIRI_OK) {
            TEST_FAIL("to_iri(%s) fails", uris[i]);
            continue;
        }
        if (!xiri_is_valid(iri, ilen, XIRI_PROFILE_RFC3987))
            TEST_FAIL("to_iri(%s) = %s is not an IRI", uris[i], iri);
        if (xiri_to_uri(ctx, iri, ilen, XIRI_IDN_PERCENT, 0, &back, NULL,
                        NULL) != XIRI_OK)
            TEST_FAIL("to_uri(%s) fails", iri);
        else if (strcmp(uris[i], "x:%C3%41%E6%97x%FF") == 0)
            TEST_STR_EQ("round trip", back, "x:%C3A%E6%97x%FF");
        else
            TEST_STR_EQ("round trip", back, uris[i]);
        xiri_str_free(iri);
        xiri_str_free(back);
    }
}

/* Arguments and the (pointer, length) convention. */
static void test_args(void)
{
    char *out = NULL;
    size_t len = 99;
    struct xiri_error err;

    CU_ASSERT_EQUAL(xiri_to_uri(ctx, "a:b", 3, PCT, 0, NULL, NULL, &err),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_to_iri(ctx, "a:b", 3, PCT, NULL, NULL, &err),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_to_uri(ctx, NULL, 3, PCT, 0, &out, NULL, &err),
                    XIRI_EINVAL);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_EQUAL(xiri_to_iri(ctx, NULL, 3, PCT, &out, NULL, &err),
                    XIRI_EINVAL);
    /* a context is needed for IDNA, not for %HH */
    CU_ASSERT_EQUAL(xiri_to_uri(NULL, "a:b", 3, PUNY, 0, &out, NULL, &err),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_to_iri(NULL, "a:b", 3, UNI, &out, NULL, &err),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(
        xiri_to_uri(NULL, "a:\xc3\xa9", 4, PCT, 0, &out, &len, &err), XIRI_OK);
    if (out)
        TEST_STR_EQ("no ctx", out, "a:%C3%A9");
    CU_ASSERT_EQUAL(len, 8);
    xiri_str_free(out);
    out = NULL;
    CU_ASSERT_EQUAL(xiri_to_iri(NULL, "a:%C3%A9", 8, PCT, &out, NULL, &err),
                    XIRI_OK);
    if (out)
        TEST_STR_EQ("no ctx", out, "a:\xc3\xa9");
    xiri_str_free(out);
    out = NULL;
    /* to-iri makes a context of its own for the look-alikes and a DNS
     * name's IDNA check */
    CU_ASSERT_EQUAL(xiri_to_iri(NULL,
                                "http://r%C3%A9sum%C3%A9.example/a%E2%88%95",
                                42, PCT, &out, NULL, &err),
                    XIRI_OK);
    if (out)
        TEST_STR_EQ("no ctx", out,
                    "http://r\xc3\xa9sum\xc3\xa9.example/a%E2%88%95");
    xiri_str_free(out);
    out = NULL;
    CU_ASSERT_EQUAL(xiri_to_iri(NULL, "http://r%C3%A9sum%C3%A9-.example/", 33,
                                PCT, &out, NULL, &err),
                    XIRI_OK);
    if (out)
        TEST_STR_EQ("no ctx", out, "http://r%C3%A9sum%C3%A9-.example/");
    xiri_str_free(out);
    out = NULL;
    /* only len bytes are read */
    CU_ASSERT_EQUAL(
        xiri_to_uri(NULL, "a:\xc3\xa9 zz", 4, PCT, 0, &out, NULL, NULL),
        XIRI_OK);
    if (out)
        TEST_STR_EQ("len", out, "a:%C3%A9");
    xiri_str_free(out);
    out = NULL;
    CU_ASSERT_EQUAL(xiri_to_iri(NULL, "a:%C3%A9%", 8, PCT, &out, NULL, NULL),
                    XIRI_OK);
    if (out)
        TEST_STR_EQ("len", out, "a:\xc3\xa9");
    xiri_str_free(out);
    out = NULL;
    CU_ASSERT_EQUAL(xiri_to_uri(NULL, NULL, 0, PCT, 0, &out, NULL, NULL),
                    XIRI_OK);
    if (out)
        TEST_STR_EQ("NULL, 0", out, "");
    xiri_str_free(out);
}

int suite_map_register(void)
{
    CU_pSuite s = CU_add_suite("map", map_init, map_cleanup);

    if (!s || !CU_add_test(s, "rfc3987", test_rfc3987) ||
        !CU_add_test(s, "sources", test_sources) ||
        !CU_add_test(s, "jena", test_jena) ||
        !CU_add_test(s, "to_uri", test_to_uri_cases) ||
        !CU_add_test(s, "to_iri", test_to_iri_cases) ||
        !CU_add_test(s, "round_trip", test_round_trip) ||
        !CU_add_test(s, "args", test_args))
        return -1;
    return 0;
}

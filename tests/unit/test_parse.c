/* test_parse.c - IRI reference syntax (RFC 3986 section 3, RFC 3987
 * section 2.2) under each profile: uriparser's and oxiri's valid/invalid
 * lists, IPv4/IPv6 literals, the component splits of iri-string and Jena,
 * absent versus empty components, and a table of our own profile cases. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "parse.h"

#include "helpers.h"
#include "suites.h"

static const char *const part_field[XIRI_PART_COUNT] = {
    "scheme", "authority", "userinfo", "host",
    "port",   "path",      "query",    "fragment",
};

/* Check one component of a parsed reference: want NULL means absent.
 * Also checks that the pointer and the offset agree with xiri_text(). */
static void check_part(const char *where, int lineno, const struct xiri *x,
                       enum xiri_part part, const char *want, size_t want_len)
{
    size_t len = 12345, off = 12345, tlen;
    const char *text = xiri_text(x, &tlen);
    const char *p = xiri_part(x, part, &len, &off);

    if (!want) {
        if (p)
            TEST_FAIL("%s:%d: %s <%s>: %s present (\"%.*s\"), want absent",
                      where, lineno, text, part_field[part], part_field[part],
                      (int)len, p);
        else
            CU_PASS("absent");
        return;
    }
    if (!p) {
        TEST_FAIL("%s:%d: %s <%s>: %s absent, want \"%s\"", where, lineno, text,
                  part_field[part], part_field[part], want);
        return;
    }
    if (len != want_len || memcmp(p, want, len) != 0)
        TEST_FAIL("%s:%d: <%s>: %s \"%.*s\", want \"%s\"", where, lineno, text,
                  part_field[part], (int)len, p, want);
    else if (p != text + off || off + len > tlen)
        TEST_FAIL("%s:%d: <%s>: %s at offset %zu, pointer at %td", where,
                  lineno, text, part_field[part], off, p - text);
    else
        CU_PASS("part");
}

/* A field that is "\N" (absent) or an escaped value. */
static void check_field(const char *where, int lineno, const struct xiri *x,
                        enum xiri_part part, char *field)
{
    size_t n;

    if (strcmp(field, "\\N") == 0) {
        check_part(where, lineno, x, part, NULL, 0);
        return;
    }
    n = test_unescape(field);
    check_part(where, lineno, x, part, field, n);
}

/* Parse s[0..n) and expect success, or failure at offset want_off. */
static void check_parse(const char *where, int lineno, const char *s, size_t n,
                        enum xiri_profile prof, long want_off)
{
    struct xiri *x = NULL;
    struct xiri_error err;
    enum xiri_status st;

    memset(&err, 0, sizeof(err));
    st = xiri_parse(s, n, prof, &x, &err);
    if (want_off < 0) {
        if (st != XIRI_OK)
            TEST_FAIL("%s:%d: <%.*s> (%s): %s at %zu, want valid", where,
                      lineno, (int)n, s, xiri_profile_name(prof), err.message,
                      err.offset);
        else
            CU_PASS("valid");
    } else if (st != XIRI_ESYNTAX) {
        TEST_FAIL("%s:%d: <%.*s> (%s): status %d, want ESYNTAX at %ld", where,
                  lineno, (int)n, s, xiri_profile_name(prof), st, want_off);
    } else if (err.offset != (size_t)want_off || err.status != st ||
               x != NULL) {
        TEST_FAIL("%s:%d: <%.*s> (%s): error at %zu (%s), want at %ld", where,
                  lineno, (int)n, s, xiri_profile_name(prof), err.offset,
                  err.message, want_off);
    } else {
        CU_PASS("invalid");
    }
    /* xiri_is_valid agrees with xiri_parse */
    CU_ASSERT_EQUAL(xiri_is_valid(s, n, prof), want_off < 0);
    xiri_free(x);
}

/* ---------------------------------------------------------------- uriparser */

static void uriparser_row(void *user, char **f, int n, int lineno)
{
    int *count = user;
    size_t len;
    long off;

    if (n < 5) {
        TEST_FAIL("parse-uriparser.tsv:%d: %d fields", lineno, n);
        return;
    }
    len = test_unescape(f[1]);
    off = strcmp(f[3], "ok") == 0 ? -1 : strtol(f[3], NULL, 10);
    if ((strcmp(f[0], "valid") == 0) != (off < 0))
        TEST_FAIL("parse-uriparser.tsv:%d: kind and offset disagree", lineno);
    check_parse("parse-uriparser.tsv", lineno, f[1], len, XIRI_PROFILE_URI,
                off);
    /* ASCII: the same verdict under RFC 3987; a URI is also a LEIRI */
    check_parse("parse-uriparser.tsv", lineno, f[1], len, XIRI_PROFILE_RFC3987,
                off);
    if (off < 0) {
        check_parse("parse-uriparser.tsv", lineno, f[1], len,
                    XIRI_PROFILE_LEIRI, -1);
        check_parse("parse-uriparser.tsv", lineno, f[1], len, XIRI_PROFILE_HTML,
                    -1);
    }
    (*count)++;
}

/* uriparser's GoodUriReferences (66) and BadUriReferences (31, with the
 * offset of the first offending character). */
static void test_uriparser(void)
{
    int count = 0;

    CU_ASSERT_EQUAL(test_read_tsv("parse-uriparser.tsv", uriparser_row, &count),
                    97);
}

static void path_kind_row(void *user, char **f, int n, int lineno)
{
    struct xiri *x = NULL;
    size_t len, plen = 0;
    const char *path;
    int host_set, absolute;

    (void)user;
    if (n < 4) {
        TEST_FAIL("parse-path-kind.tsv:%d: %d fields", lineno, n);
        return;
    }
    len = test_unescape(f[1]);
    if (xiri_parse(f[1], len, XIRI_PROFILE_URI, &x, NULL) != XIRI_OK) {
        TEST_FAIL("parse-path-kind.tsv:%d: <%s> does not parse", lineno, f[1]);
        return;
    }
    host_set = xiri_part(x, XIRI_PART_HOST, NULL, NULL) != NULL;
    CU_ASSERT_EQUAL(host_set, (int)strtol(f[0], NULL, 10));
    CU_ASSERT_EQUAL(xiri_part(x, XIRI_PART_AUTHORITY, NULL, NULL) != NULL,
                    host_set);
    path = xiri_part(x, XIRI_PART_PATH, &plen, NULL);
    absolute = !host_set && plen > 0 && path[0] == '/';
    CU_ASSERT_EQUAL(absolute, (int)strtol(f[2], NULL, 10));
    check_field("parse-path-kind.tsv", lineno, x, XIRI_PART_PATH, f[3]);
    xiri_free(x);
}

/* uriparser's path distinction: "s://" vs "s:///" vs "s:/" ... */
static void test_path_kind(void)
{
    CU_ASSERT_EQUAL(test_read_tsv("parse-path-kind.tsv", path_kind_row, NULL),
                    14);
}

/* ---------------------------------------------------------------- IP */

struct ip_count {
    int v4, v6;
};

static void ip_row(void *user, char **f, int n, int lineno)
{
    struct ip_count *c = user;
    char uri[256];
    size_t len;
    int valid, v6;
    struct xiri *x = NULL;

    if (n < 3) {
        TEST_FAIL("parse-ip.tsv:%d: %d fields", lineno, n);
        return;
    }
    len = test_unescape(f[2]);
    valid = (int)strtol(f[1], NULL, 10);
    v6 = strcmp(f[0], "ipv6") == 0;
    if (v6) {
        c->v6++;
        if (ipv6_is_valid(f[2], len) != valid)
            TEST_FAIL("parse-ip.tsv:%d: ipv6_is_valid(%s) != %d", lineno, f[2],
                      valid);
        /* RFC 3986 3.2.2 IP-literal = "[" IPv6address "]" */
        snprintf(uri, sizeof(uri), "http://[%s]/", f[2]);
        check_parse("parse-ip.tsv", lineno, uri, strlen(uri), XIRI_PROFILE_URI,
                    valid ? -1 : 7);
    } else {
        c->v4++;
        if (ipv4_is_valid(f[2], len) != valid)
            TEST_FAIL("parse-ip.tsv:%d: ipv4_is_valid(%s) != %d", lineno, f[2],
                      valid);
        CU_ASSERT_FALSE(ipv6_is_valid(f[2], len));
        /* what is no IPv4address is a reg-name (RFC 3986 3.2.2): the
         * reference stays valid and keeps the host as written */
        snprintf(uri, sizeof(uri), "http://%s/", f[2]);
        if (xiri_parse(uri, strlen(uri), XIRI_PROFILE_URI, &x, NULL) == XIRI_OK)
            check_part("parse-ip.tsv", lineno, x, XIRI_PART_HOST, f[2], len);
        else
            TEST_FAIL("parse-ip.tsv:%d: <%s> does not parse", lineno, uri);
        xiri_free(x);
    }
}

/* uriparser's IPv4/IPv6 lists, directly and inside a reference. */
static void test_ip(void)
{
    struct ip_count c = {0, 0};
    static const struct {
        const char *s;
        bool valid;
    } future[] = {
        /* IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) */
        {"v1.x", true},  {"VF.a:b", true},  {"v1a.!$&'()*+,;=:-._~", true},
        {"v.x", false},  {"v1.", false},    {"v1x", false},
        {"vg.x", false}, {"v1.%41", false}, {"v1.a/b", false},
        {"1.x", false},  {"", false},       {"v1.\xc3\xa9", false},
    };
    size_t i;

    CU_ASSERT_EQUAL(test_read_tsv("parse-ip.tsv", ip_row, &c), 99);
    CU_ASSERT_EQUAL(c.v4, 20);
    CU_ASSERT_EQUAL(c.v6, 79);
    for (i = 0; i < ARRAY_LEN(future); i++)
        if (ipvfuture_is_valid(future[i].s, strlen(future[i].s)) !=
            future[i].valid)
            TEST_FAIL("ipvfuture_is_valid(%s) != %d", future[i].s,
                      future[i].valid);
    /* the length is respected: "1.2.3.4" inside a longer buffer */
    CU_ASSERT_TRUE(ipv4_is_valid("1.2.3.45", 7));
    CU_ASSERT_FALSE(ipv4_is_valid("1.2.3.", 6));
    CU_ASSERT_TRUE(ipv6_is_valid("::1:", 3));
}

/* ---------------------------------------------------------------- oxiri */

struct ox_count {
    int iri, ref, invalid;
};

static void oxiri_row(void *user, char **f, int n, int lineno)
{
    struct ox_count *c = user;
    struct xiri *x = NULL;
    size_t len;

    if (n < 2) {
        TEST_FAIL("parse-oxiri.tsv:%d: %d fields", lineno, n);
        return;
    }
    len = test_unescape(f[1]);
    if (strcmp(f[0], "invalid") == 0) {
        c->invalid++;
        if (xiri_is_valid(f[1], len, XIRI_PROFILE_RFC3987))
            TEST_FAIL("parse-oxiri.tsv:%d: <%s> accepted", lineno, f[1]);
        if (xiri_is_valid(f[1], len, XIRI_PROFILE_URI))
            TEST_FAIL("parse-oxiri.tsv:%d: <%s> accepted as URI", lineno, f[1]);
        return;
    }
    if (xiri_parse(f[1], len, XIRI_PROFILE_RFC3987, &x, NULL) != XIRI_OK) {
        TEST_FAIL("parse-oxiri.tsv:%d: <%s> rejected", lineno, f[1]);
        return;
    }
    if (strcmp(f[0], "iri") == 0) {
        c->iri++;
        CU_ASSERT_TRUE(xiri_is_absolute(x));
    } else {
        c->ref++;
    }
    /* every IRI reference is a LEIRI, and an HTML reference but for an
     * IPvFuture host, which browsers reject (WHATWG URL 3.5) */
    CU_ASSERT_TRUE(xiri_is_valid(f[1], len, XIRI_PROFILE_LEIRI));
    CU_ASSERT_EQUAL(xiri_is_valid(f[1], len, XIRI_PROFILE_HTML),
                    !strstr(f[1], "//[v") && !strstr(f[1], "//[V"));
    xiri_free(x);
}

static void test_oxiri(void)
{
    struct ox_count c = {0, 0, 0};

    CU_ASSERT_EQUAL(test_read_tsv("parse-oxiri.tsv", oxiri_row, &c), 188);
    CU_ASSERT_EQUAL(c.iri, 31);
    CU_ASSERT_EQUAL(c.ref, 70);
    CU_ASSERT_EQUAL(c.invalid, 87);
}

/* ---------------------------------------------------------------- split */

static void components_row(void *user, char **f, int n, int lineno)
{
    struct xiri *x = NULL;
    struct xiri_error err;
    size_t len;
    /* columns 2-8 */
    static const enum xiri_part cols[] = {
        XIRI_PART_SCHEME,   XIRI_PART_USERINFO, XIRI_PART_HOST,
        XIRI_PART_PORT,     XIRI_PART_PATH,     XIRI_PART_QUERY,
        XIRI_PART_FRAGMENT,
    };
    size_t i;

    (void)user;
    if (n < 9) {
        TEST_FAIL("parse-components.tsv:%d: %d fields", lineno, n);
        return;
    }
    len = test_unescape(f[1]);
    if (xiri_parse(f[1], len, XIRI_PROFILE_RFC3987, &x, &err) != XIRI_OK) {
        TEST_FAIL("parse-components.tsv:%d: <%s>: %s", lineno, f[1],
                  err.message);
        return;
    }
    for (i = 0; i < ARRAY_LEN(cols); i++)
        check_field("parse-components.tsv", lineno, x, cols[i], f[2 + i]);
    /* the authority is there exactly when the host is */
    CU_ASSERT_EQUAL(xiri_part(x, XIRI_PART_AUTHORITY, NULL, NULL) != NULL,
                    xiri_part(x, XIRI_PART_HOST, NULL, NULL) != NULL);
    CU_ASSERT_EQUAL(xiri_is_absolute(x),
                    xiri_part(x, XIRI_PART_SCHEME, NULL, NULL) != NULL);
    xiri_free(x);
}

/* iri-string's component split of 138 references. */
static void test_components(void)
{
    CU_ASSERT_EQUAL(test_read_tsv("parse-components.tsv", components_row, NULL),
                    138);
}

struct jena_count {
    int rows, none;
};

static int profile_of(const char *name)
{
    enum xiri_profile p;

    if (xiri_profile_from_name(name, &p) != XIRI_OK)
        return -1;
    return (int)p;
}

static void jena_row(void *user, char **f, int n, int lineno)
{
    struct jena_count *c = user;
    struct xiri *x = NULL;
    struct xiri_error err;
    size_t len, plen = 0;
    const char *port;
    int prof;

    if (n < 11) {
        TEST_FAIL("parse-jena.tsv:%d: %d fields", lineno, n);
        return;
    }
    c->rows++;
    len = test_unescape(f[1]);
    if (strcmp(f[2], "none") == 0) {
        /* not followed: no profile reads Jena's scheme (reason in the
         * file); browsers read a relative path */
        c->none++;
        CU_ASSERT_FALSE(xiri_is_valid(f[1], len, XIRI_PROFILE_RFC3987));
        CU_ASSERT_FALSE(xiri_is_valid(f[1], len, XIRI_PROFILE_LEIRI));
        CU_ASSERT_TRUE(xiri_is_valid(f[1], len, XIRI_PROFILE_HTML));
        return;
    }
    prof = profile_of(f[2]);
    if (prof < 0) {
        TEST_FAIL("parse-jena.tsv:%d: bad profile %s", lineno, f[2]);
        return;
    }
    /* the strictest profile that takes it: the stricter ones do not */
    if (prof == XIRI_PROFILE_LEIRI || prof == XIRI_PROFILE_HTML)
        CU_ASSERT_FALSE(xiri_is_valid(f[1], len, XIRI_PROFILE_RFC3987));
    if (prof == XIRI_PROFILE_HTML)
        CU_ASSERT_FALSE(xiri_is_valid(f[1], len, XIRI_PROFILE_LEIRI));
    if (xiri_parse(f[1], len, (enum xiri_profile)prof, &x, &err) != XIRI_OK) {
        TEST_FAIL("parse-jena.tsv:%d: <%s> (%s): %s", lineno, f[1], f[2],
                  err.message);
        return;
    }
    check_field("parse-jena.tsv", lineno, x, XIRI_PART_SCHEME, f[3]);
    check_field("parse-jena.tsv", lineno, x, XIRI_PART_USERINFO, f[4]);
    check_field("parse-jena.tsv", lineno, x, XIRI_PART_HOST, f[5]);
    /* getPort: -1 when there is none (an empty port counts as none) */
    port = xiri_part(x, XIRI_PART_PORT, &plen, NULL);
    if (strcmp(f[6], "-1") == 0) {
        CU_ASSERT_TRUE(!port || plen == 0);
    } else if (!port || strtol(port, NULL, 10) != strtol(f[6], NULL, 10)) {
        TEST_FAIL("parse-jena.tsv:%d: port %.*s, want %s", lineno,
                  port ? (int)plen : 0, port ? port : "", f[6]);
    }
    check_field("parse-jena.tsv", lineno, x, XIRI_PART_PATH, f[7]);
    check_field("parse-jena.tsv", lineno, x, XIRI_PART_QUERY, f[8]);
    check_field("parse-jena.tsv", lineno, x, XIRI_PART_FRAGMENT, f[9]);
    xiri_free(x);
}

/* Jena IRI's raw accessors (getScheme, getRawHost, ...) for 177 IRIs. */
static void test_jena(void)
{
    struct jena_count c = {0, 0};

    CU_ASSERT_EQUAL(test_read_tsv("parse-jena.tsv", jena_row, &c), 177);
    CU_ASSERT_EQUAL(c.none, 13);
}

/* ---------------------------------------------------------------- own */

/* Absent versus empty (RFC 3986 5.2.1, 5.3): want NULL = absent. */
static const struct {
    const char *s;
    const char *part[XIRI_PART_COUNT];
} split_cases[] = {
    /* scheme, authority, userinfo, host, port, path, query, fragment */
    {"", {NULL, NULL, NULL, NULL, NULL, "", NULL, NULL}},
    {"a:", {"a", NULL, NULL, NULL, NULL, "", NULL, NULL}},
    {"a:?", {"a", NULL, NULL, NULL, NULL, "", "", NULL}},
    {"a:#", {"a", NULL, NULL, NULL, NULL, "", NULL, ""}},
    {"a:?#", {"a", NULL, NULL, NULL, NULL, "", "", ""}},
    {"a:#?", {"a", NULL, NULL, NULL, NULL, "", NULL, "?"}},
    {"?", {NULL, NULL, NULL, NULL, NULL, "", "", NULL}},
    {"#", {NULL, NULL, NULL, NULL, NULL, "", NULL, ""}},
    {"//", {NULL, "", NULL, "", NULL, "", NULL, NULL}},
    {"//@", {NULL, "@", "", "", NULL, "", NULL, NULL}},
    {"//:", {NULL, ":", NULL, "", "", "", NULL, NULL}},
    {"//@:", {NULL, "@:", "", "", "", "", NULL, NULL}},
    {"a://?#", {"a", "", NULL, "", NULL, "", "", ""}},
    {"a:///", {"a", "", NULL, "", NULL, "/", NULL, NULL}},
    {"a:/?/", {"a", NULL, NULL, NULL, NULL, "/", "/", NULL}},
    {"http://u:p@h:1/p?q#f",
     {"http", "u:p@h:1", "u:p", "h", "1", "/p", "q", "f"}},
    {"http://[::1]:80",
     {"http", "[::1]:80", NULL, "[::1]", "80", "", NULL, NULL}},
    {"http://[v7.a:b]",
     {"http", "[v7.a:b]", NULL, "[v7.a:b]", NULL, "", NULL, NULL}},
    {"http://u@[::1]:", {"http", "u@[::1]:", "u", "[::1]", "", "", NULL, NULL}},
    {"http://a:b:c@h", {"http", "a:b:c@h", "a:b:c", "h", NULL, "", NULL, NULL}},
    {"x:a/b?c?d#e/f?g", {"x", NULL, NULL, NULL, NULL, "a/b", "c?d", "e/f?g"}},
    {"./a:b", {NULL, NULL, NULL, NULL, NULL, "./a:b", NULL, NULL}},
    {"a+b-c.d:e", {"a+b-c.d", NULL, NULL, NULL, NULL, "e", NULL, NULL}},
    {"\xc3\xa9:x", {NULL, NULL, NULL, NULL, NULL, "\xc3\xa9:x", NULL, NULL}},
    {"//\xc3\xa9/\xd7\x90?\xee\x80\x80#\xf0\x90\x8c\x80",
     {NULL, "\xc3\xa9", NULL, "\xc3\xa9", NULL, "/\xd7\x90", "\xee\x80\x80",
      "\xf0\x90\x8c\x80"}},
};

static void test_absent_empty(void)
{
    size_t i;
    int p;

    for (i = 0; i < ARRAY_LEN(split_cases); i++) {
        struct xiri *x = NULL;
        const char *s = split_cases[i].s;
        /* split_cases[23] ("é:x") is split the same by every profile but
         * is invalid (":" in the first segment): use ref_split for it */
        if (xiri_parse(s, strlen(s), XIRI_PROFILE_RFC3987, &x, NULL) !=
            XIRI_OK) {
            struct ref r;
            if (strcmp(s, "\xc3\xa9:x") != 0) {
                TEST_FAIL("split_cases[%zu]: <%s> does not parse", i, s);
                continue;
            }
            ref_split(s, strlen(s), &r);
            CU_ASSERT_FALSE(r.part[XIRI_PART_SCHEME].set);
            CU_ASSERT_TRUE(r.part[XIRI_PART_PATH].set);
            CU_ASSERT_EQUAL(r.part[XIRI_PART_PATH].len, strlen(s));
            continue;
        }
        for (p = 0; p < XIRI_PART_COUNT; p++) {
            const char *w = split_cases[i].part[p];
            check_part("split_cases", (int)i, x, (enum xiri_part)p, w,
                       w ? strlen(w) : 0);
        }
        xiri_free(x);
    }
}

/* Offsets of every component in one reference. */
static void test_offsets(void)
{
    static const char s[] = "http://u:p@h:1/p?q#f";
    static const size_t want[XIRI_PART_COUNT] = {0, 7, 7, 11, 13, 14, 17, 19};
    struct xiri *x = NULL;
    size_t off, len;
    int p;

    CU_ASSERT_EQUAL_FATAL(
        xiri_parse(s, sizeof(s) - 1, XIRI_PROFILE_URI, &x, NULL), XIRI_OK);
    for (p = 0; p < XIRI_PART_COUNT; p++) {
        off = len = 999;
        CU_ASSERT_PTR_NOT_NULL(xiri_part(x, (enum xiri_part)p, &len, &off));
        CU_ASSERT_EQUAL(off, want[p]);
    }
    xiri_free(x);
}

struct prof_count {
    int rows;
};

static void profiles_row(void *user, char **f, int n, int lineno)
{
    struct prof_count *c = user;
    static const enum xiri_profile cols[] = {
        XIRI_PROFILE_URI,
        XIRI_PROFILE_RFC3987,
        XIRI_PROFILE_LEIRI,
        XIRI_PROFILE_HTML,
    };
    size_t len, i;

    if (n < 7) {
        TEST_FAIL("parse-profiles.tsv:%d: %d fields", lineno, n);
        return;
    }
    c->rows++;
    len = test_unescape(f[1]);
    for (i = 0; i < ARRAY_LEN(cols); i++) {
        long off =
            strcmp(f[2 + i], "ok") == 0 ? -1 : strtol(f[2 + i], NULL, 10);
        check_parse("parse-profiles.tsv", lineno, f[1], len, cols[i], off);
    }
}

/* Our own table: what each profile rejects or adds, with the offsets. */
static void test_profiles(void)
{
    struct prof_count c = {0};

    CU_ASSERT_EQUAL(test_read_tsv("parse-profiles.tsv", profiles_row, &c), 82);
}

/* Findings through a scan sink: every one is reported, in offset order,
 * and the status is that of the first error. */
struct finding {
    enum scan_kind kind;
    enum xiri_part part;
    size_t off;
    uint32_t cp;
};

struct sink_log {
    struct finding f[16];
    int n;
};

static void sink_fn(void *user, enum scan_kind kind, enum xiri_part part,
                    size_t off, size_t len, uint32_t cp)
{
    struct sink_log *log = user;

    (void)len;
    if (log->n < 16) {
        log->f[log->n].kind = kind;
        log->f[log->n].part = part;
        log->f[log->n].off = off;
        log->f[log->n].cp = cp;
    }
    log->n++;
}

static void test_sink(void)
{
    /* "a b" in the path (LEIRI warning), iprivate in the path (error),
     * a bare '%' in the query (error), '#' in the fragment (error) */
    static const char s[] = "http://h/a b\xee\x80\x80?%#x#";
    struct sink_log log;
    struct scan_sink sink = {sink_fn, &log};
    struct xiri_error err;
    struct ref r;
    enum xiri_status st;

    memset(&log, 0, sizeof(log));
    st = ref_parse(s, sizeof(s) - 1, XIRI_PROFILE_LEIRI, &r, &sink, &err);
    CU_ASSERT_EQUAL(st, XIRI_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 16); /* the '%': the first error */
    CU_ASSERT_EQUAL_FATAL(log.n, 4);
    CU_ASSERT_EQUAL(log.f[0].kind, SCAN_WARN_LEIRI);
    CU_ASSERT_EQUAL(log.f[0].off, 10);
    CU_ASSERT_EQUAL(log.f[0].cp, ' ');
    CU_ASSERT_EQUAL(log.f[1].kind, SCAN_WARN_LEIRI);
    CU_ASSERT_EQUAL(log.f[1].off, 12);
    CU_ASSERT_EQUAL(log.f[1].cp, 0xE000);
    CU_ASSERT_EQUAL(log.f[2].kind, SCAN_ERR_PCT);
    CU_ASSERT_EQUAL(log.f[2].part, XIRI_PART_QUERY);
    CU_ASSERT_EQUAL(log.f[2].off, 16);
    CU_ASSERT_EQUAL(log.f[3].kind, SCAN_ERR_CHAR);
    CU_ASSERT_EQUAL(log.f[3].part, XIRI_PART_FRAGMENT);
    CU_ASSERT_EQUAL(log.f[3].off, 19);

    /* RFC 3987: the iprivate is an error there, and comes first */
    memset(&log, 0, sizeof(log));
    st = ref_parse(s, sizeof(s) - 1, XIRI_PROFILE_RFC3987, &r, &sink, &err);
    CU_ASSERT_EQUAL(st, XIRI_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 10);
    CU_ASSERT_EQUAL_FATAL(log.n, 4);
    CU_ASSERT_EQUAL(log.f[0].kind, SCAN_ERR_CHAR);
    CU_ASSERT_EQUAL(log.f[1].kind, SCAN_ERR_PRIVATE);
    CU_ASSERT_EQUAL(log.f[1].off, 12);

    /* a relative path whose first segment has both a bad character and a
     * ':' is reported in offset order */
    memset(&log, 0, sizeof(log));
    st = ref_parse("a b:c", 5, XIRI_PROFILE_RFC3987, &r, &sink, &err);
    CU_ASSERT_EQUAL(st, XIRI_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 1);
    CU_ASSERT_EQUAL_FATAL(log.n, 2);
    CU_ASSERT_EQUAL(log.f[0].off, 1);
    CU_ASSERT_EQUAL(log.f[1].kind, SCAN_ERR_COLON);
    CU_ASSERT_EQUAL(log.f[1].off, 3);
}

/* Bad arguments. */
static void test_args(void)
{
    struct xiri *x = NULL;
    struct xiri_error err;

    CU_ASSERT_EQUAL(xiri_parse("a:", 2, XIRI_PROFILE_URI, NULL, &err),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_parse(NULL, 2, XIRI_PROFILE_URI, &x, &err),
                    XIRI_EINVAL);
    CU_ASSERT_PTR_NULL(x);
    CU_ASSERT_EQUAL(xiri_parse("a:", 2, XIRI_PROFILE_COUNT, &x, &err),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_parse(NULL, 0, XIRI_PROFILE_URI, &x, &err), XIRI_OK);
    CU_ASSERT_PTR_NOT_NULL(x);
    xiri_free(x);
    CU_ASSERT_FALSE(xiri_is_valid(NULL, 1, XIRI_PROFILE_URI));
    CU_ASSERT_FALSE(xiri_is_valid("a:", 2, (enum xiri_profile)99));
    CU_ASSERT_TRUE(xiri_is_valid(NULL, 0, XIRI_PROFILE_URI));
    /* the length bounds the input: a NUL is an ordinary (bad) byte */
    CU_ASSERT_TRUE(xiri_is_valid("a:b c", 3, XIRI_PROFILE_URI));
    CU_ASSERT_FALSE(xiri_is_valid("a:b\0c", 5, XIRI_PROFILE_URI));
}

int suite_parse_register(void)
{
    CU_pSuite s = CU_add_suite("parse", NULL, NULL);

    if (!s || !CU_add_test(s, "uriparser", test_uriparser) ||
        !CU_add_test(s, "path_kind", test_path_kind) ||
        !CU_add_test(s, "ip", test_ip) ||
        !CU_add_test(s, "oxiri", test_oxiri) ||
        !CU_add_test(s, "components", test_components) ||
        !CU_add_test(s, "jena", test_jena) ||
        !CU_add_test(s, "absent_empty", test_absent_empty) ||
        !CU_add_test(s, "offsets", test_offsets) ||
        !CU_add_test(s, "profiles", test_profiles) ||
        !CU_add_test(s, "sink", test_sink) ||
        !CU_add_test(s, "args", test_args))
        return -1;
    return 0;
}

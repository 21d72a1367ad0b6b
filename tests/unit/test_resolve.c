/* test_resolve.c - reference resolution (RFC 3986 section 5.2, RFC 3987
 * section 6.5): the RFC's own examples, the merged conformance vectors of
 * uriparser, oxiri, iri-string, Jena, libxml2 and the W3C RDF tests, the
 * vectors xiri does not follow (with the reason), and remove_dot_segments. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "buf.h"
#include "linkcheck.h"
#include "resolve.h"
#include "to_uri.h"

#include "helpers.h"
#include "suites.h"

/* "!ESYNTAX" and friends in the data files. */
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

/* ------------------------------------------------- the prepared base */
/* rewrite.c resolves a document's links against a base parsed once
 * (resolve_base_init, resolve_ref) and, for a plain reference
 * (linkcheck_plain), from its ref_split without scanning it
 * (resolve_parsed).  check_prepared holds both to xiri_resolve on every
 * vector that goes through check_resolve: same status, same error
 * (offset and message), same result, with the base of each profile kept
 * from one vector to the next as long as it is the same string. */

struct prep_stats {
    unsigned long compared, reused, split, composed, leiri;
};
static struct prep_stats prep;

static struct xiri_ctx *prep_ctx;

static void same_components(const char *what, const struct ref *a,
                            const struct ref *b)
{
    size_t k;

    for (k = 0; k < XIRI_PART_COUNT; k++)
        if (a->part[k].set != b->part[k].set ||
            a->part[k].off != b->part[k].off ||
            a->part[k].len != b->part[k].len)
            TEST_FAIL("%s: ref_parse and ref_split differ (part %zu)", what, k);
}

/* rewrite.c takes the target of a plain relative reference against a
 * plain base, when one of them has an authority, as plain without
 * looking: check that it is, and that it is its own URI as rewrite maps
 * (RFC 3987 3.1). */
static void check_composed(const char *what, const char *t, size_t tn)
{
    struct ref rt;
    size_t k;

    prep.composed++;
    ref_split(t, tn, &rt);
    if (!linkcheck_plain(t, tn, &rt))
        TEST_FAIL("%s: the target \"%.*s\" is not plain", what, (int)tn, t);
    for (k = 0; k < 2; k++) {
        char *m = NULL;
        size_t mlen = 0;
        enum xiri_status ms = xiri_to_uri(
            prep_ctx, t, tn, k ? XIRI_IDN_PUNYCODE : XIRI_IDN_PERCENT,
            XIRI_MAP_ESCAPE_LEIRI | (k ? XIRI_MAP_DNS_ONLY : 0u), &m, &mlen,
            NULL);
        if (ms != XIRI_OK || mlen != tn || (tn && memcmp(m, t, tn) != 0))
            TEST_FAIL("%s: the URI of \"%.*s\" is not itself", what, (int)tn,
                      t);
        xiri_str_free(m);
    }
}

/* rewrite.c maps a target resolved under any profile but HTML to a URI
 * from its ref_split, without parsing it again as a LEIRI: check that
 * ref_parse accepts it under XIRI_PROFILE_LEIRI with those components, and
 * that to_uri_append from the split says what xiri_to_uri says (result,
 * status and error), in every mode rewrite uses and without
 * XIRI_MAP_ESCAPE_LEIRI (which makes errors). */
static void check_target_leiri(const char *what, const char *t, size_t tn)
{
    static const unsigned flag_sets[] = {
        XIRI_MAP_ESCAPE_LEIRI, XIRI_MAP_ESCAPE_LEIRI | XIRI_MAP_DNS_ONLY, 0};
    struct ref rs, rp;
    size_t k, f;

    prep.leiri++;
    ref_split(t, tn, &rs);
    if (ref_parse(t, tn, XIRI_PROFILE_LEIRI, &rp, NULL, NULL) != XIRI_OK) {
        TEST_FAIL("%s: the target \"%.*s\" is not a LEIRI", what, (int)tn, t);
        return;
    }
    same_components(what, &rs, &rp);
    for (k = 0; k < 2; k++)
        for (f = 0; f < ARRAY_LEN(flag_sets); f++) {
            enum xiri_idn idn = k ? XIRI_IDN_PUNYCODE : XIRI_IDN_PERCENT;
            struct xiri_error e1, e2;
            char *m = NULL;
            size_t mlen = 0;
            struct buf o;
            enum xiri_status s1, s2;

            memset(&e1, 0, sizeof(e1));
            memset(&e2, 0, sizeof(e2));
            s1 =
                xiri_to_uri(prep_ctx, t, tn, idn, flag_sets[f], &m, &mlen, &e1);
            buf_init(&o, XIRI_MAX_LEN);
            s2 =
                to_uri_append(prep_ctx, t, tn, &rs, idn, flag_sets[f], &o, &e2);
            if (s1 != s2 ||
                (s1 == XIRI_OK &&
                 (o.len != mlen || (mlen && memcmp(o.data, m, mlen) != 0))) ||
                (s1 != XIRI_OK && (e1.offset != e2.offset ||
                                   strcmp(e1.message, e2.message) != 0)))
                TEST_FAIL("%s: to_uri_append from the split of \"%.*s\" "
                          "differs (idn %zu, flags %u)",
                          what, (int)tn, t, k, flag_sets[f]);
            xiri_str_free(m);
            buf_free(&o);
        }
}

static void check_prepared(const char *what, const char *base, const char *ref,
                           enum xiri_profile prof, enum xiri_status want_st,
                           const char *want, size_t want_len,
                           const struct xiri_error *want_err)
{
    static char kept[XIRI_PROFILE_COUNT][4096];
    static struct resolve_base bases[XIRI_PROFILE_COUNT];
    static bool have[XIRI_PROFILE_COUNT];
    struct resolve_base *b = &bases[prof];
    size_t blen = strlen(base), rlen = strlen(ref);
    struct xiri_error err;
    struct buf o;
    struct ref r, r2;
    enum xiri_status st;

    if (blen >= sizeof(kept[0]))
        return;
    if (have[prof] && strcmp(kept[prof], base) == 0) {
        prep.reused++;
    } else {
        memcpy(kept[prof], base, blen + 1);
        resolve_base_init(b, kept[prof], blen, prof);
        have[prof] = true;
    }
    prep.compared++;
    memset(&err, 0x5a, sizeof(err));
    buf_init(&o, XIRI_MAX_LEN);
    buf_append(&o, "PFX", 3); /* the result is appended */
    st = resolve_ref(b, ref, rlen, &o, &err);
    if (st != want_st) {
        TEST_FAIL("%s: resolve_ref says %s, xiri_resolve %s", what,
                  xiri_strerror(st), xiri_strerror(want_st));
    } else if (st == XIRI_OK) {
        if (o.len != want_len + 3 || memcmp(o.data, "PFX", 3) != 0 ||
            memcmp(o.data + 3, want, want_len) != 0)
            TEST_FAIL("%s: resolve_ref gives \"%.*s\"", what,
                      (int)(o.len > 3 ? o.len - 3 : 0), o.data + 3);
        else if (prof != XIRI_PROFILE_HTML)
            check_target_leiri(what, o.data + 3, o.len - 3);
    } else if (err.status != want_err->status ||
               err.offset != want_err->offset ||
               strcmp(err.message, want_err->message) != 0) {
        TEST_FAIL("%s: resolve_ref's error \"%s\" at %zu, xiri_resolve's "
                  "\"%s\" at %zu",
                  what, err.message, err.offset, want_err->message,
                  want_err->offset);
    }
    /* a plain reference: valid under every profile, split as ref_split
     * splits it, and resolved from that split */
    ref_split(ref, rlen, &r);
    if (b->status == XIRI_OK && linkcheck_plain(ref, rlen, &r)) {
        prep.split++;
        if (ref_parse(ref, rlen, prof, &r2, NULL, NULL) != XIRI_OK)
            TEST_FAIL("%s: plain reference refused by ref_parse", what);
        else
            same_components(what, &r, &r2);
        o.len = 0;
        resolve_parsed(b, ref, rlen, &r, &o);
        if (want_st != XIRI_OK || o.status != XIRI_OK || o.len != want_len ||
            memcmp(o.data, want, want_len) != 0)
            TEST_FAIL("%s: resolve_parsed on the split differs", what);
        else if (!r.part[XIRI_PART_SCHEME].set &&
                 linkcheck_plain(b->s, b->len, &b->r) &&
                 (b->r.part[XIRI_PART_AUTHORITY].set ||
                  r.part[XIRI_PART_AUTHORITY].set))
            check_composed(what, o.data, o.len);
    }
    buf_free(&o);
}

/* Resolve and compare with want: a string, or a "!STATUS" token. */
static void check_resolve(const char *where, int lineno, const char *base,
                          const char *ref, enum xiri_profile prof,
                          const char *want)
{
    char *out = NULL;
    size_t out_len = 0;
    struct xiri_error err;
    enum xiri_status st;
    int want_st = want[0] == '!' ? token_status(want) : XIRI_OK;

    memset(&err, 0, sizeof(err));
    st = xiri_resolve(base, strlen(base), ref, strlen(ref), prof, &out,
                      &out_len, &err);
    {
        char what[512];
        snprintf(what, sizeof(what), "%s:%d <%s> + <%s> (%s)", where, lineno,
                 base, ref, xiri_profile_name(prof));
        check_prepared(what, base, ref, prof, st, out, out_len, &err);
    }
    if (want_st < 0) {
        TEST_FAIL("%s:%d: bad status token %s", where, lineno, want);
    } else if ((int)st != want_st) {
        TEST_FAIL("%s:%d: <%s> + <%s> (%s): status %s (%s), want %s", where,
                  lineno, base, ref, xiri_profile_name(prof), status_tokens[st],
                  err.message, want);
    } else if (st == XIRI_OK) {
        char what[512];
        snprintf(what, sizeof(what), "%s:%d <%s> + <%s> (%s)", where, lineno,
                 base, ref, xiri_profile_name(prof));
        if (TEST_STR_EQ(what, out, want) && out_len != strlen(want))
            TEST_FAIL("%s: out_len %zu", what, out_len);
    } else {
        CU_ASSERT_PTR_NULL(out);
        CU_ASSERT_EQUAL(err.status, st);
    }
    xiri_str_free(out);
}

static int is_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return 0;
    return 1;
}

/* ---------------------------------------------------------------- RFC */

struct count {
    int rows;
    int fails;
};

static void rfc_row(void *user, char **f, int n, int lineno)
{
    struct count *c = user;

    if (n < 4) {
        TEST_FAIL("resolve-rfc3986.tsv:%d: %d fields", lineno, n);
        return;
    }
    test_unescape(f[1]);
    test_unescape(f[2]);
    test_unescape(f[3]);
    c->rows++;
    check_resolve("resolve-rfc3986.tsv", lineno, f[1], f[2],
                  XIRI_PROFILE_RFC3987, f[3]);
    /* all ASCII: a URI must resolve the same (RFC 3987 6.5) */
    check_resolve("resolve-rfc3986.tsv", lineno, f[1], f[2], XIRI_PROFILE_URI,
                  f[3]);
}

/* RFC 3986 5.4.1 and 5.4.2: 23 normal and 19 abnormal examples. */
static void test_rfc3986_examples(void)
{
    struct count c = {0, 0};

    CU_ASSERT_EQUAL(test_read_tsv("resolve-rfc3986.tsv", rfc_row, &c), 42);
    CU_ASSERT_EQUAL(c.rows, 42);
}

/* ---------------------------------------------------------------- merged */

static const char *const source_tags[] = {
    "rfc3986-5.4.1",
    "rfc3986-5.4.2",
    "uriparser",
    "oxiri",
    "oxiri-unchecked",
    "iri-string",
    "iri-string-pct-dots",
    "jena-iri",
    "libxml2",
    "rdf-tests",
    "rdf-tests-pr13-unmerged",
};
/* SOURCES.md section 1: how many vectors each source contributes. */
static const int source_counts[] = {23, 19, 190, 437, 65, 89,
                                    5,  66, 21,  136, 168};

struct merged {
    int rows;
    int non_ascii;
    int per_source[ARRAY_LEN(source_tags)];
};

static void merged_row(void *user, char **f, int n, int lineno)
{
    struct merged *m = user;
    char *tag, *save = NULL;

    if (n < 5) {
        TEST_FAIL("resolve-resolution.tsv:%d: %d fields", lineno, n);
        return;
    }
    test_unescape(f[1]);
    test_unescape(f[2]);
    test_unescape(f[3]);
    m->rows++;
    check_resolve("resolve-resolution.tsv", lineno, f[1], f[2],
                  XIRI_PROFILE_RFC3987, f[3]);
    /* the profiles only widen the character set: same result */
    check_resolve("resolve-resolution.tsv", lineno, f[1], f[2],
                  XIRI_PROFILE_LEIRI, f[3]);
    check_resolve("resolve-resolution.tsv", lineno, f[1], f[2],
                  XIRI_PROFILE_HTML, f[3]);
    if (is_ascii(f[1]) && is_ascii(f[2]))
        check_resolve("resolve-resolution.tsv", lineno, f[1], f[2],
                      XIRI_PROFILE_URI, f[3]);
    else
        m->non_ascii++;
    for (tag = strtok_r(f[4], ",", &save); tag;
         tag = strtok_r(NULL, ",", &save)) {
        size_t i;
        for (i = 0; i < ARRAY_LEN(source_tags); i++)
            if (strcmp(tag, source_tags[i]) == 0)
                m->per_source[i]++;
    }
}

/* ../shared/conformance/resolution.json: 654 vectors, all must pass. */
static void test_resolution_json(void)
{
    struct merged m;
    size_t i;

    memset(&m, 0, sizeof(m));
    CU_ASSERT_EQUAL(test_read_tsv("resolve-resolution.tsv", merged_row, &m),
                    654);
    CU_ASSERT_EQUAL(m.non_ascii, 2);
    for (i = 0; i < ARRAY_LEN(source_tags); i++)
        if (m.per_source[i] != source_counts[i])
            TEST_FAIL("resolve-resolution.tsv: %d vectors from %s, want %d",
                      m.per_source[i], source_tags[i], source_counts[i]);
}

/* ---------------------------------------------------------------- special */

struct special {
    int rows;
    int followed; /* xiri gives the source's answer */
};

static void special_row(void *user, char **f, int n, int lineno)
{
    struct special *s = user;
    int must_fail;

    if (n < 7) {
        TEST_FAIL("resolve-special.tsv:%d: %d fields", lineno, n);
        return;
    }
    must_fail = strcmp(f[3], "\\N") == 0;
    test_unescape(f[1]);
    test_unescape(f[2]);
    test_unescape(f[3]);
    test_unescape(f[4]);
    test_unescape(f[5]);
    s->rows++;
    check_resolve("resolve-special.tsv", lineno, f[1], f[2],
                  XIRI_PROFILE_RFC3987, f[4]);
    check_resolve("resolve-special.tsv", lineno, f[1], f[2], XIRI_PROFILE_LEIRI,
                  f[5]);
    if (must_fail ? f[4][0] == '!' : strcmp(f[3], f[4]) == 0)
        s->followed++;
    else if (f[6][0] == '\0')
        TEST_FAIL("resolve-special.tsv:%d: not followed and no reason", lineno);
}

/* Every vector that is not in resolution.json, each with xiri's answer and
 * the section behind it (SOURCES.md sections 2.2 and 2.3). */
static void test_special(void)
{
    struct special s = {0, 0};

    CU_ASSERT_EQUAL(test_read_tsv("resolve-special.tsv", special_row, &s), 88);
    /* followed: the 4 relative bases of oxiri's resolve_must_fail,
     * uriparser's f:/a + .//g (our guard) and its compat-mode vector with
     * another scheme */
    if (s.followed != 6)
        TEST_FAIL("resolve-special.tsv: %d followed, want 6", s.followed);
}

/* ---------------------------------------------------------------- own */

struct case3 {
    const char *base, *ref, *want;
};

/* The guard of xiri.h: a result without authority whose path starts with
 * "//" is written "/.//" (RFC 3986 5.3 would re-parse it as an authority).
 * Expected values worked out by hand with RFC 3986 5.2.2-5.2.4. */
static const struct case3 guard_cases[] = {
    /* resolution-excluded.json: uriparser's vector */
    {"f:/a", ".//g", "f:/.//g"},
    /* merge "/..//g", 2C gives "//g" */
    {"f:/a", "..//g", "f:/.//g"},
    /* absolute-path reference: remove_dot_segments("/.//g") = "//g" */
    {"f:", "/.//g", "f:/.//g"},
    {"f:/x/y", "/.//g?q#h", "f:/.//g?q#h"},
    /* a reference with a scheme goes through remove_dot_segments too */
    {"x:/b", "f:/.//g", "f:/.//g"},
    {"x:/b", "f:/..//g", "f:/.//g"},
    /* an authority (even empty) needs no guard */
    {"http://a/b", "/.//g", "http://a//g"},
    {"http://a/b", ".//g", "http://a//g"},
    {"f:///a", ".//g", "f:////g"},
    {"f://h", "f://h/.//g", "f://h//g"},
    /* the base path itself is kept as is when the reference is empty
     * (T.path = Base.path, RFC 3986 5.2.2) */
    {"f:/.//g", "", "f:/.//g"},
    {"f:/.//g", "#x", "f:/.//g#x"},
    {"f:/.//g", "?y", "f:/.//g?y"},
    /* the "/." is a dot segment: removed again, then the guard */
    {"f:/.//g", "h", "f:/.//h"},
    /* rootless paths never start with "//" */
    /* 2A drops "./" of the merged ".//g": no "//" left */
    {"f:a", ".//g", "f:/g"},
    {"f:a/b", "..//g", "f:/.//g"},
};

static void test_guard(void)
{
    size_t i;

    for (i = 0; i < ARRAY_LEN(guard_cases); i++)
        check_resolve("guard_cases", (int)i, guard_cases[i].base,
                      guard_cases[i].ref, XIRI_PROFILE_RFC3987,
                      guard_cases[i].want);
}

/* IRIs resolve like URIs (RFC 3987 6.5): non-ASCII behaves as unreserved.
 * Expected values by hand from RFC 3986 5.2. */
static const struct case3 iri_cases[] = {
    {"http://\xc3\xa9x.example/\xd7\x90/\xd7\x91", "\xd7\x92",
     "http://\xc3\xa9x.example/\xd7\x90/\xd7\x92"},
    {"http://a/\xe6\x97\xa5/\xe6\x9c\xac?\xe8\xaa\x9e", "../x", "http://a/x"},
    {"http://a/b", "?\xee\x80\x80", "http://a/b?\xee\x80\x80"},
    {"http://a/b?\xee\x80\x80", "#\xf0\x90\x8c\x80",
     "http://a/b?\xee\x80\x80#\xf0\x90\x8c\x80"},
    {"http://a/b/c", "./%C3%A9/./..", "http://a/b/"},
    {"urn:x:\xc3\xa9", "#f", "urn:x:\xc3\xa9#f"},
};

static void test_iri(void)
{
    size_t i;

    for (i = 0; i < ARRAY_LEN(iri_cases); i++)
        check_resolve("iri_cases", (int)i, iri_cases[i].base, iri_cases[i].ref,
                      XIRI_PROFILE_RFC3987, iri_cases[i].want);
}

/* The base's fragment is ignored (RFC 3986 5.2.2: T.fragment is always
 * R.fragment), empty components stay empty (5.3). */
static const struct case3 component_cases[] = {
    {"http://a/b#f", "", "http://a/b"},
    {"http://a/b?#f", "", "http://a/b?"},
    {"http://a/b?q#f", "#", "http://a/b?q#"},
    {"http://a/b?q", "?", "http://a/b?"},
    {"http://a/b", "//", "http://"},
    {"http://a/b", "///", "http:///"},
    {"http://u@a:1/b", "c", "http://u@a:1/c"},
    {"http://a", "c", "http://a/c"},
    {"http://a", "", "http://a"},
    {"http://a", "?q", "http://a?q"},
    {"a:", "b", "a:b"},
    {"a:", "", "a:"},
    {"a:?q", "", "a:?q"},
    {"a:b/c", "d", "a:b/d"},
    {"a:b/c", "../../d", "a:/d"},
    {"http://[::1]:8/a/b", "../c", "http://[::1]:8/c"},
};

static void test_components(void)
{
    size_t i;

    for (i = 0; i < ARRAY_LEN(component_cases); i++)
        check_resolve("component_cases", (int)i, component_cases[i].base,
                      component_cases[i].ref, XIRI_PROFILE_RFC3987,
                      component_cases[i].want);
}

/* Errors: relative base, invalid base or reference, bad arguments. */
static void test_errors(void)
{
    struct xiri_error err;
    char *out = NULL;
    enum xiri_status st;

    memset(&err, 0, sizeof(err));
    st =
        xiri_resolve("/a/b", 4, "c", 1, XIRI_PROFILE_RFC3987, &out, NULL, &err);
    CU_ASSERT_EQUAL(st, XIRI_ENOTABS);
    CU_ASSERT_EQUAL(err.status, XIRI_ENOTABS);
    CU_ASSERT_PTR_NULL(out);

    /* an empty base is relative too (RFC 3986 5.1) */
    st = xiri_resolve("", 0, "c", 1, XIRI_PROFILE_RFC3987, &out, NULL, &err);
    CU_ASSERT_EQUAL(st, XIRI_ENOTABS);

    /* invalid base: the message says it is the base */
    memset(&err, 0, sizeof(err));
    st = xiri_resolve("http://a/b c", 12, "d", 1, XIRI_PROFILE_RFC3987, &out,
                      NULL, &err);
    CU_ASSERT_EQUAL(st, XIRI_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 10);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "base"));
    CU_ASSERT_PTR_NULL(out);

    /* invalid reference: offset into the reference */
    memset(&err, 0, sizeof(err));
    st = xiri_resolve("http://a/b", 10, "d<e", 3, XIRI_PROFILE_RFC3987, &out,
                      NULL, &err);
    CU_ASSERT_EQUAL(st, XIRI_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 1);
    CU_ASSERT_PTR_NULL(out);

    /* the same reference is a LEIRI */
    st = xiri_resolve("http://a/b", 10, "d<e", 3, XIRI_PROFILE_LEIRI, &out,
                      NULL, NULL);
    CU_ASSERT_EQUAL(st, XIRI_OK);
    if (out)
        TEST_STR_EQ("leiri d<e", out, "http://a/d<e");
    xiri_str_free(out);

    /* a non-ASCII reference is not a URI */
    st = xiri_resolve("http://a/b", 10, "\xc3\xa9", 2, XIRI_PROFILE_URI, &out,
                      NULL, &err);
    CU_ASSERT_EQUAL(st, XIRI_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 0);

    st = xiri_resolve("http://a/b", 10, "c", 1, XIRI_PROFILE_RFC3987, NULL,
                      NULL, &err);
    CU_ASSERT_EQUAL(st, XIRI_EINVAL);
    st = xiri_resolve(NULL, 3, "c", 1, XIRI_PROFILE_RFC3987, &out, NULL, &err);
    CU_ASSERT_EQUAL(st, XIRI_EINVAL);
    st = xiri_resolve("a:", 2, "c", 1, XIRI_PROFILE_COUNT, &out, NULL, &err);
    CU_ASSERT_EQUAL(st, XIRI_EINVAL);
    /* NULL with length 0 is the empty string */
    st =
        xiri_resolve("a:b", 3, NULL, 0, XIRI_PROFILE_RFC3987, &out, NULL, NULL);
    CU_ASSERT_EQUAL(st, XIRI_OK);
    if (out)
        TEST_STR_EQ("NULL ref", out, "a:b");
    xiri_str_free(out);
}

/* Inputs are (pointer, length): nothing past len is read, embedded text
 * after it does not count. */
static void test_lengths(void)
{
    char *out = NULL;
    enum xiri_status st;

    st = xiri_resolve("http://a/b/cXXXX", 12, "../dYYY", 4,
                      XIRI_PROFILE_RFC3987, &out, NULL, NULL);
    CU_ASSERT_EQUAL(st, XIRI_OK);
    if (out)
        TEST_STR_EQ("lengths", out, "http://a/d");
    xiri_str_free(out);
}

/* Every base of the vectors against every reference of the vectors,
 * under three profiles: resolve_ref against a kept base, and resolve_parsed
 * from the split of a plain reference, against xiri_resolve (through
 * check_prepared); then the vectors themselves. */

struct strings {
    char *s[2048];
    size_t n;
};

static void add_string(struct strings *l, const char *s)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        if (strcmp(l->s[i], s) == 0)
            return;
    if (l->n < ARRAY_LEN(l->s))
        l->s[l->n++] = strdup(s);
}

struct both {
    struct strings bases, refs;
};

static void collect_row(void *user, char **f, int n, int lineno)
{
    struct both *b = user;

    (void)lineno;
    if (n < 3)
        return;
    test_unescape(f[1]);
    test_unescape(f[2]);
    add_string(&b->bases, f[1]);
    add_string(&b->refs, f[2]);
    /* a reference with a scheme is a base too */
    add_string(&b->bases, f[2]);
}

static void test_prepared_base(void)
{
    static const enum xiri_profile profs[] = {
        XIRI_PROFILE_RFC3987, XIRI_PROFILE_LEIRI, XIRI_PROFILE_HTML};
    struct both *b = calloc(1, sizeof(*b));
    struct merged m;
    struct count c = {0, 0};
    struct special sp = {0, 0};
    size_t i, j, k;

    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    memset(&prep, 0, sizeof(prep));
    test_read_tsv("resolve-rfc3986.tsv", collect_row, b);
    test_read_tsv("resolve-resolution.tsv", collect_row, b);
    test_read_tsv("resolve-special.tsv", collect_row, b);
    for (i = 0; i < b->bases.n; i++)
        for (j = 0; j < b->refs.n; j++)
            for (k = 0; k < ARRAY_LEN(profs); k++) {
                char *out = NULL;
                size_t out_len = 0;
                struct xiri_error err;
                enum xiri_status st;
                char what[512];

                memset(&err, 0, sizeof(err));
                st = xiri_resolve(b->bases.s[i], strlen(b->bases.s[i]),
                                  b->refs.s[j], strlen(b->refs.s[j]), profs[k],
                                  &out, &out_len, &err);
                snprintf(what, sizeof(what), "<%s> + <%s> (%s)", b->bases.s[i],
                         b->refs.s[j], xiri_profile_name(profs[k]));
                check_prepared(what, b->bases.s[i], b->refs.s[j], profs[k], st,
                               out, out_len, &err);
                xiri_str_free(out);
            }
    for (i = 0; i < b->bases.n; i++)
        free(b->bases.s[i]);
    for (i = 0; i < b->refs.n; i++)
        free(b->refs.s[i]);
    free(b);
    /* the vectors, through check_resolve */
    memset(&m, 0, sizeof(m));
    test_read_tsv("resolve-rfc3986.tsv", rfc_row, &c);
    test_read_tsv("resolve-resolution.tsv", merged_row, &m);
    test_read_tsv("resolve-special.tsv", special_row, &sp);
    for (i = 0; i < ARRAY_LEN(guard_cases); i++)
        check_resolve("guard_cases", (int)i, guard_cases[i].base,
                      guard_cases[i].ref, XIRI_PROFILE_RFC3987,
                      guard_cases[i].want);
    for (i = 0; i < ARRAY_LEN(component_cases); i++)
        check_resolve("component_cases", (int)i, component_cases[i].base,
                      component_cases[i].ref, XIRI_PROFILE_RFC3987,
                      component_cases[i].want);
    /* every path was taken, many times */
    CU_ASSERT(prep.compared > 100000);
    CU_ASSERT(prep.reused > 90000);
    CU_ASSERT(prep.split > 10000);
    CU_ASSERT(prep.composed > 5000);
    CU_ASSERT(prep.leiri > 90000);
    if (getenv("XIRI_TEST_VERBOSE"))
        fprintf(stderr,
                "prepared base: %lu compared, %lu with a kept base, %lu "
                "from the split, %lu targets composed plain, %lu mapped "
                "from their split\n",
                prep.compared, prep.reused, prep.split, prep.composed,
                prep.leiri);
}

/* ---------------------------------------------------------------- dots */

static void check_dots(const char *where, int lineno, const char *in,
                       const char *want)
{
    struct buf b;
    char what[256];

    buf_init(&b, 1 << 20);
    buf_append(&b, "PFX", 3); /* the result is appended */
    path_remove_dots(&b, in, strlen(in));
    buf_putc(&b, '\0');
    CU_ASSERT_EQUAL_FATAL(b.status, XIRI_OK);
    snprintf(what, sizeof(what), "%s:%d remove_dot_segments(%s)", where, lineno,
             in);
    CU_ASSERT_NSTRING_EQUAL(b.data, "PFX", 3);
    TEST_STR_EQ(what, b.data + 3, want);
    buf_free(&b);
}

static void dots_row(void *user, char **f, int n, int lineno)
{
    (void)user;
    if (n < 3) {
        TEST_FAIL("resolve-remove-dots.tsv:%d: %d fields", lineno, n);
        return;
    }
    test_unescape(f[1]);
    test_unescape(f[2]);
    check_dots("resolve-remove-dots.tsv", lineno, f[1], f[2]);
}

/* RFC 3986 5.2.4 by hand: each rule, and inputs made of dots only. */
static const struct {
    const char *in, *want;
} dot_cases[] = {
    {"", ""},
    {".", ""},
    {"..", ""},
    {"./", ""},
    {"../", ""},
    {"/.", "/"},
    {"/..", "/"},
    {"/./", "/"},
    {"/../", "/"},
    {"/a/..", "/"},
    {"/a/../", "/"},
    {"/a/.", "/a/"},
    {"/a/./b", "/a/b"},
    {"a/..", "/"},
    {"a/../b", "/b"},
    {"a/b/../../..", "/"},
    {"/a/b/../../../c", "/c"},
    {"../../a", "a"},
    {"./../.././a", "a"},
    {"/...", "/..."},
    {"/.../..", "/"},
    {"/..a/.b/a..", "/..a/.b/a.."},
    {"/a/%2E/b", "/a/%2E/b"},
    {"//a/../b", "//b"},
    {"/a//..", "/a/"},
    {"/a//../..", "/"},
    {"a:b/../c", "/c"},
    {"/\xc3\xa9/./\xe6\x97\xa5/..", "/\xc3\xa9/"},
};

static void test_remove_dots(void)
{
    size_t i;

    CU_ASSERT_EQUAL(test_read_tsv("resolve-remove-dots.tsv", dots_row, NULL),
                    14);
    for (i = 0; i < ARRAY_LEN(dot_cases); i++)
        check_dots("dot_cases", (int)i, dot_cases[i].in, dot_cases[i].want);
}

/* RFC 3986 5.3: recomposing the components of a parsed reference gives
 * the reference back (absent and empty components differ), and the guard
 * writes a path "//..." without authority as "/.//...". */
static void test_recompose(void)
{
    static const char *const refs[] = {
        "",
        "a:",
        "a:?",
        "a:#",
        "a:?#",
        "//",
        "//@:",
        "?",
        "#",
        "a://h",
        "http://u@h:8/p?q#f",
        "x:/p/../q",
        "../a?b#c",
        "a/b:c",
        "//\xc3\xa9/\xd7\x90?\xee\x80\x80#x",
        "f:/.//g",
    };
    size_t i;

    for (i = 0; i < ARRAY_LEN(refs); i++) {
        struct ref r;
        struct buf b;

        ref_split(refs[i], strlen(refs[i]), &r);
        buf_init(&b, 1 << 16);
        ref_recompose(&b, refs[i], &r);
        buf_putc(&b, '\0');
        if (b.status == XIRI_OK)
            TEST_STR_EQ("recompose", b.data, refs[i]);
        else
            TEST_FAIL("recompose(%s): status %d", refs[i], b.status);
        buf_free(&b);
    }
    /* a path "//g" with no authority: the guard */
    {
        static const char s[] = "f:x//g";
        struct ref r;
        struct buf b;

        ref_split(s, sizeof(s) - 1, &r);
        r.part[XIRI_PART_PATH].off = 3; /* the path "//g" */
        r.part[XIRI_PART_PATH].len = 3;
        buf_init(&b, 1 << 16);
        ref_recompose(&b, s, &r);
        buf_putc(&b, '\0');
        if (b.status == XIRI_OK)
            TEST_STR_EQ("recompose guard", b.data, "f:/.//g");
        buf_free(&b);
    }
}

static int suite_init(void)
{
    return xiri_ctx_new(&prep_ctx) == XIRI_OK ? 0 : -1;
}

static int suite_cleanup(void)
{
    xiri_ctx_free(prep_ctx);
    prep_ctx = NULL;
    return 0;
}

int suite_resolve_register(void)
{
    CU_pSuite s = CU_add_suite("resolve", suite_init, suite_cleanup);

    if (!s || !CU_add_test(s, "rfc3986_examples", test_rfc3986_examples) ||
        !CU_add_test(s, "resolution_json", test_resolution_json) ||
        !CU_add_test(s, "not_followed", test_special) ||
        !CU_add_test(s, "guard", test_guard) ||
        !CU_add_test(s, "iri", test_iri) ||
        !CU_add_test(s, "components", test_components) ||
        !CU_add_test(s, "errors", test_errors) ||
        !CU_add_test(s, "lengths", test_lengths) ||
        !CU_add_test(s, "remove_dots", test_remove_dots) ||
        !CU_add_test(s, "recompose", test_recompose) ||
        !CU_add_test(s, "prepared_base", test_prepared_base))
        return -1;
    return 0;
}

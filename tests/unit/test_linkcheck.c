/* test_linkcheck.c - the linkcheck suite: xiri_check_link and its
 * encoding-given core linkcheck_run on hand-built links (findings derived
 * from RFC 3986 5.1/4.4, the WHATWG URL and Encoding Standards), the
 * browser query encoding of uni_encode_query against the wpt vectors
 * (tests/data/linkcheck-query-encoding.tsv), the windows-1252 table
 * against ICU's converter, and the out-of-memory paths. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "buf.h"
#include "chars.h"
#include "codes.h"
#include "helpers.h"
#include "linkcheck.h"
#include "mem.h"
#include "suites.h"
#include "unicode.h"

#define MAX_FOUND 32

struct found {
    char code[32];
    size_t offset, length;
    uint32_t codepoint;
    enum xiri_part part;
    enum xiri_severity severity;
    char message[1024];
};

struct run {
    size_t len; /* of the value */
    struct found f[MAX_FOUND];
    size_t n;
    int stop_after; /* non-zero: stop after this many findings */
    bool bad;       /* a finding broke the diag contract */
};

static struct xiri_ctx *ctx;

static int suite_init(void)
{
    return xiri_ctx_new(&ctx) == XIRI_OK ? 0 : -1;
}

static int suite_clean(void)
{
    xiri_ctx_free(ctx);
    ctx = NULL;
    return 0;
}

static int collect(void *user, const struct xiri_diag *d)
{
    struct run *r = user;
    const struct xiri_code_info *info =
        d->code ? xiri_code_lookup(d->code) : NULL;

    if (!info || !d->section || !d->section[0] || !d->message ||
        !d->message[0] || d->offset > r->len ||
        d->length > r->len - d->offset || (unsigned)d->part > XIRI_PART_COUNT)
        r->bad = true;
    if (r->n < MAX_FOUND && d->code) {
        struct found *f = &r->f[r->n++];
        snprintf(f->code, sizeof(f->code), "%s", d->code);
        f->offset = d->offset;
        f->length = d->length;
        f->codepoint = d->codepoint;
        f->part = d->part;
        f->severity = d->severity;
        snprintf(f->message, sizeof(f->message), "%s", d->message);
    }
    return r->stop_after && (int)r->n >= r->stop_after;
}

static bool is_link_code(const char *code)
{
    size_t k;

    for (k = CODE_LINK_FIRST; k <= CODE_LINK_LAST; k++)
        if (strcmp(xiri_code_at(k)->code, code) == 0)
            return true;
    return false;
}

static void make_link(struct xiri_link *l, const char *value, size_t len,
                      const char *base, enum xiri_profile profile)
{
    memset(l, 0, sizeof(*l));
    l->value = value;
    l->value_len = len;
    l->line = 1;
    l->column = 1;
    l->element = "a";
    l->attribute = "href";
    l->base = base;
    l->shape = XIRI_SHAPE_IRI;
    l->profile = profile;
}

/* ------------------------------------------------------------------ */
/* Browser query encoding                                              */

static void query_line(void *user, char **f, int nf, int lineno)
{
    int *count = user;
    struct buf out;
    size_t len;
    enum xiri_status st;

    (*count)++;
    if (nf < 5) {
        TEST_FAIL("linkcheck-query-encoding.tsv:%d: malformed line", lineno);
        return;
    }
    len = test_unescape(f[1]);
    test_unescape(f[2]);
    buf_init(&out, XIRI_MAX_LEN);
    st = uni_encode_query(f[0], f[1], len, true, &out, NULL);
    buf_putc(&out, '\0');
    if (st != XIRI_OK || out.status != XIRI_OK)
        TEST_FAIL("linkcheck-query-encoding.tsv:%d: status %s", lineno,
                  xiri_strerror(st));
    else if (strcmp(out.data, f[2]) != 0)
        TEST_FAIL("linkcheck-query-encoding.tsv:%d (%s, %s): got \"%s\", "
                  "want \"%s\" (%s)",
                  lineno, f[0], f[3], out.data, f[2], f[4]);
    else
        CU_PASS("query vector");
    buf_free(&out);
}

static void test_query_vectors(void)
{
    int count = 0;

    CU_ASSERT(test_read_tsv("linkcheck-query-encoding.tsv", query_line,
                            &count) >= 40);
}

static void test_query_api(void)
{
    static const struct {
        const char *label, *want;
    } names[] = {
        /* WHATWG Encoding 4.2 labels */
        {"ISO-8859-1", "windows-1252"},
        {"ascii", "windows-1252"},
        {"  Latin1\n", "windows-1252"},
        {"iso-8859-9", "windows-1254"},
        {"tis-620", "windows-874"},
        {"x-sjis", "Shift_JIS"},
        {"gb2312", "GBK"},
        {"EUC-KR", "EUC-KR"},
        {"big5-hkscs", "Big5"},
        /* 4.3 output encodings: UTF-16 and replacement give UTF-8 */
        {"utf-16le", "UTF-8"},
        {"UTF-16BE", "UTF-8"},
        {"iso-2022-kr", "UTF-8"},
        {"utf8", "UTF-8"},
        /* ICU's Unicode encodings, not in the Encoding Standard */
        {"UTF-32", "UTF-8"},
        {"UTF-7", "UTF-8"},
        /* other labels ICU knows stay as written */
        {"koi8-r", "koi8-r"},
        {"windows-1251", "windows-1251"},
        {"no-such-encoding", NULL},
    };
    struct buf out;
    size_t i;

    for (i = 0; i < ARRAY_LEN(names); i++) {
        const char *got = uni_query_encoding(names[i].label);
        if (!names[i].want ? got != NULL
                           : !got || strcmp(got, names[i].want) != 0)
            TEST_FAIL("uni_query_encoding(\"%s\"): got %s, want %s",
                      names[i].label, got ? got : "NULL",
                      names[i].want ? names[i].want : "NULL");
    }
    CU_ASSERT_PTR_NULL(uni_query_encoding(NULL));

    CU_ASSERT(uni_encoding_is_latin1("ISO-8859-1"));
    CU_ASSERT(uni_encoding_is_latin1("latin1"));
    CU_ASSERT(uni_encoding_is_latin1("l1"));
    CU_ASSERT(uni_encoding_is_latin1("ISO_8859-1:1987"));
    CU_ASSERT(uni_encoding_is_latin1("cp819"));
    CU_ASSERT(!uni_encoding_is_latin1("windows-1252"));
    CU_ASSERT(!uni_encoding_is_latin1("US-ASCII"));
    CU_ASSERT(!uni_encoding_is_latin1("UTF-8"));
    CU_ASSERT(!uni_encoding_is_latin1("no-such-encoding"));
    CU_ASSERT(!uni_encoding_is_latin1(NULL));

    /* not special: ' stays (WHATWG URL 1.3 query percent-encode set) */
    buf_init(&out, XIRI_MAX_LEN);
    CU_ASSERT_EQUAL(
        uni_encode_query("windows-1252", "'\xC3\xA9", 3, false, &out, NULL),
        XIRI_OK);
    buf_putc(&out, '\0');
    TEST_STR_EQ("not special", out.data, "'%E9");
    out.len = 0;
    CU_ASSERT_EQUAL(
        uni_encode_query("UTF-8", "'\xC3\xA9", 3, false, &out, NULL), XIRI_OK);
    buf_putc(&out, '\0');
    TEST_STR_EQ("not special, UTF-8", out.data, "'%C3%A9");
    out.len = 0;
    CU_ASSERT_EQUAL(
        uni_encode_query("windows-1252", "a\xE9", 2, true, &out, NULL),
        XIRI_ESYNTAX);
    out.len = 0;
    CU_ASSERT_EQUAL(
        uni_encode_query("no-such-encoding", "a", 1, true, &out, NULL),
        XIRI_EENCODING);
    CU_ASSERT_EQUAL(uni_encode_query(NULL, "a", 1, true, &out, NULL),
                    XIRI_EENCODING);
    out.len = 0;
    CU_ASSERT_EQUAL(uni_encode_query("windows-1252", "", 0, true, &out, NULL),
                    XIRI_OK);
    CU_ASSERT_EQUAL(out.len, 0);
    buf_free(&out);
}

/* The hand-written windows-1252 table (WHATWG index-windows-1252) agrees
 * with ICU's windows-1252 converter: each character encodes back to its
 * byte; the five undefined bytes have no character. */
static void test_cp1252(void)
{
    static const unsigned char undefined[] = {0x81, 0x8D, 0x8F, 0x90, 0x9D};
    struct buf out;
    unsigned b;
    int defined = 0;

    buf_init(&out, XIRI_MAX_LEN);
    for (b = 0x80; b <= 0x9F; b++) {
        const char *name = "x";
        uint32_t cp = linkcheck_cp1252((unsigned char)b, &name);
        char u[4], want[4];
        size_t n;

        if (!cp) {
            CU_ASSERT_PTR_NULL(name);
            CU_ASSERT_PTR_NOT_NULL(
                memchr(undefined, (int)b, sizeof(undefined)));
            continue;
        }
        defined++;
        CU_ASSERT(name && name[0]);
        n = utf8_encode(cp, u);
        out.len = 0;
        CU_ASSERT_EQUAL(
            uni_encode_query("windows-1252", u, n, true, &out, NULL), XIRI_OK);
        buf_putc(&out, '\0');
        snprintf(want, sizeof(want), "%%%02X", b);
        if (strcmp(out.data, want) != 0)
            TEST_FAIL("0x%02X: table says U+%04X, ICU encodes it as %s", b,
                      (unsigned)cp, out.data);
    }
    buf_free(&out);
    CU_ASSERT_EQUAL(defined, 27);
    CU_ASSERT_EQUAL(linkcheck_cp1252(0x80, NULL), 0x20AC);
    CU_ASSERT_EQUAL(linkcheck_cp1252(0x93, NULL), 0x201C);
    CU_ASSERT_EQUAL(linkcheck_cp1252(0x9F, NULL), 0x0178);
    CU_ASSERT_EQUAL(linkcheck_cp1252(0x7F, NULL), 0);
    CU_ASSERT_EQUAL(linkcheck_cp1252(0xA0, NULL), 0);
}

/* ------------------------------------------------------------------ */
/* Document-level findings                                             */

#define HTML XIRI_PROFILE_HTML
#define LEIRI XIRI_PROFILE_LEIRI

struct link_case {
    const char *encoding; /* NULL: unknown (no walker) */
    enum xiri_profile profile;
    const char *base;
    const char *value;
    const char *want;   /* document-level findings in delivery order:
                           "code@offset+length ...", "" for none */
    uint32_t cp;        /* codepoint of the first of them */
    const char *msg[2]; /* substrings of its message */
};

static const struct link_case link_cases[] = {
    /* no-base: RFC 3986 5.1; same-document references exempt (4.4) */
    {NULL, HTML, NULL, "a/b.html", "no-base@0+8", 0, {"no base", NULL}},
    {NULL, HTML, NULL, "?q", "no-base@0+2", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "//host/p", "no-base@0+8", 0, {NULL, NULL}},
    {NULL, LEIRI, NULL, "../x", "no-base@0+4", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "#top", "", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "", "", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "http://a/b", "", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "mailto:a@b", "", 0, {NULL, NULL}},
    {NULL, HTML, "http://x/", "a/b", "", 0, {NULL, NULL}},
    {NULL, HTML, "foo/", "a/b", "", 0, {NULL, NULL}},

    /* query-encoding: WHATWG URL 4.4 query state, special schemes other
     * than ws and wss, HTML only, document encoding not UTF-8 */
    {"windows-1252",
     HTML,
     "http://example.com/",
     "search?q=\xC3\xA9",
     "query-encoding@7+4",
     0xE9,
     {"?q=%E9", "?q=%C3%A9"}},
    {"windows-1252",
     LEIRI,
     "http://example.com/",
     "search?q=\xC3\xA9",
     "",
     0,
     {NULL, NULL}},
    {"UTF-8",
     HTML,
     "http://example.com/",
     "search?q=\xC3\xA9",
     "",
     0,
     {NULL, NULL}},
    {"utf-16le",
     HTML,
     "http://example.com/",
     "search?q=\xC3\xA9",
     "",
     0,
     {NULL, NULL}},
    {NULL,
     HTML,
     "http://example.com/",
     "search?q=\xC3\xA9",
     "",
     0,
     {NULL, NULL}},
    {"windows-1252", HTML, NULL, "ws://h/?q=\xC3\xA9", "", 0, {NULL, NULL}},
    {"windows-1252", HTML, NULL, "wss://h/?q=\xC3\xA9", "", 0, {NULL, NULL}},
    {"windows-1252",
     HTML,
     NULL,
     "mailto:a@b?subject=\xC3\xA9",
     "",
     0,
     {NULL, NULL}},
    {"windows-1252",
     HTML,
     NULL,
     "ftp://h/?\xC3\xA9",
     "query-encoding@9+2",
     0xE9,
     {"?%E9", "?%C3%A9"}},
    {"windows-1252",
     HTML,
     NULL,
     "file:///p?\xC3\xA9",
     "query-encoding@10+2",
     0xE9,
     {NULL, NULL}},
    {"windows-1252",
     HTML,
     NULL,
     "HTTPS://h/?\xC3\xA9",
     "query-encoding@11+2",
     0xE9,
     {NULL, NULL}},
    {"windows-1252", HTML, "ws://h/", "?\xC3\xA9", "", 0, {NULL, NULL}},
    {"windows-1252",
     HTML,
     "https://h/",
     "?\xC3\xA9",
     "query-encoding@1+2",
     0xE9,
     {NULL, NULL}},
    {"windows-1252", HTML, "foo/", "?\xC3\xA9", "", 0, {NULL, NULL}},
    {"windows-1252", HTML, NULL, "?\xC3\xA9", "no-base@0+3", 0, {NULL, NULL}},
    {"windows-1252", HTML, NULL, "http://h/?q=%C3%A9", "", 0, {NULL, NULL}},
    {"windows-1252",
     HTML,
     NULL,
     "http://h/\xC3\xA9?q=a#\xC3\xA9",
     "",
     0,
     {NULL, NULL}},
    {"ISO-8859-1",
     HTML,
     NULL,
     "http://h/?q=\xE2\x82\xAC",
     "query-encoding@10+5",
     0x20AC,
     {"ISO-8859-1, which browsers read as windows-1252", "?q=%80"}},
    /* wpt attributes.sub.html: "?\u00FF" in windows-1251 */
    {"windows-1251",
     HTML,
     "http://web-platform.test/",
     "?\xC3\xBF",
     "query-encoding@1+2",
     0xFF,
     {"as ?%26%23255%3B (1 character it lacks written as an HTML character "
      "reference)",
      "UTF-8: ?%C3%BF"}},
    /* wpt resolve-url.js: q=\u00E5 in windows-1252 */
    {"windows-1252",
     HTML,
     "http://web-platform.test/",
     "resources/resource.py?q=\xC3\xA5&encoding=windows-1252",
     "query-encoding@22+26",
     0xE5,
     {"?q=%E5&encoding=windows-1252", NULL}},

    /* replacement-char: runs of U+FFFD */
    {"windows-1252",
     HTML,
     "http://h/",
     "a\xEF\xBF\xBD"
     "b",
     "replacement-char@1+3",
     0xFFFD,
     {"not valid windows-1252", NULL}},
    {NULL,
     HTML,
     "http://h/",
     "\xEF\xBF\xBD\xEF\xBF\xBDx",
     "replacement-char@0+6",
     0xFFFD,
     {"several in a row", "the document's encoding"}},
    {"UTF-8",
     LEIRI,
     "http://h/",
     "\xEF\xAC\x81\xEF\xBF\xBD\xEF",
     "replacement-char@3+3",
     0xFFFD,
     {"not valid UTF-8", NULL}},
    {"Shift_JIS",
     LEIRI,
     "http://h/",
     "\xEF\xBF\xBD"
     "a\xEF\xBF\xBD",
     "replacement-char@0+3 replacement-char@4+3",
     0xFFFD,
     {NULL, NULL}},

    /* c1-control: ISO-8859-1 documents */
    {"ISO-8859-1",
     LEIRI,
     "http://h/",
     "a\xC2\x93"
     "b\xC2\x81",
     "c1-control@1+2 c1-control@4+2",
     0x93,
     {"0x93", "U+201C LEFT DOUBLE QUOTATION MARK"}},
    {"latin1",
     HTML,
     "http://h/",
     "x\xC2\x81",
     "c1-control@1+2",
     0x81,
     {"undefined", NULL}},
    {"ISO-8859-1",
     LEIRI,
     "http://h/",
     "\xC2\xA0x\xC2\x85",
     "c1-control@3+2",
     0x85,
     {"U+2026 HORIZONTAL ELLIPSIS", NULL}},
    {"ISO-8859-1", LEIRI, "http://h/", "x\xC2", "", 0, {NULL, NULL}},
    {"windows-1252", LEIRI, "http://h/", "a\xC2\x93", "", 0, {NULL, NULL}},
    {NULL, LEIRI, "http://h/", "a\xC2\x93", "", 0, {NULL, NULL}},

    /* several kinds: no-base, replacement-char, c1-control */
    {"ISO-8859-1",
     HTML,
     NULL,
     "p\xC2\x80\xEF\xBF\xBD?x",
     "no-base@0+8 replacement-char@3+3 c1-control@1+2",
     0,
     {NULL, NULL}},
};

static void render_doc(const struct run *r, char *out, size_t size,
                       const struct found **first)
{
    size_t i, used = 0;

    out[0] = '\0';
    *first = NULL;
    for (i = 0; i < r->n; i++) {
        int w;
        if (!is_link_code(r->f[i].code))
            continue;
        if (!*first)
            *first = &r->f[i];
        w = snprintf(out + used, size - used, "%s%s@%zu+%zu", used ? " " : "",
                     r->f[i].code, r->f[i].offset, r->f[i].length);
        if (w < 0 || (size_t)w >= size - used)
            return;
        used += (size_t)w;
    }
}

static void test_link_cases(void)
{
    bool seen[CODE_COUNT];
    size_t i, k;

    memset(seen, 0, sizeof(seen));
    for (i = 0; i < ARRAY_LEN(link_cases); i++) {
        const struct link_case *c = &link_cases[i];
        const struct found *first;
        struct xiri_link l;
        struct run r;
        char got[512];
        enum xiri_status st;
        int worst = -3;
        bool ok = true;

        memset(&r, 0, sizeof(r));
        r.len = strlen(c->value);
        make_link(&l, c->value, r.len, c->base, c->profile);
        st = linkcheck_run(ctx, c->encoding, &l, collect, &r, &worst);
        render_doc(&r, got, sizeof(got), &first);
        if (st != XIRI_OK || r.bad || strcmp(got, c->want) != 0)
            ok = false;
        if (ok && first) {
            const struct xiri_code_info *info = xiri_code_lookup(first->code);
            if (first->codepoint != c->cp || first->severity != info->severity)
                ok = false;
            if (strcmp(first->code, "query-encoding") == 0 &&
                first->part != XIRI_PART_QUERY)
                ok = false;
            for (k = 0; k < 2; k++)
                if (c->msg[k] && !strstr(first->message, c->msg[k]))
                    ok = false;
        }
        for (k = 0; ok && k < r.n; k++)
            if ((int)r.f[k].severity > worst)
                ok = false;
        if (!ok) {
            TEST_FAIL("link case %zu (%s, \"%s\", base %s): status %s, got "
                      "[%s], want [%s]; first: cp U+%04X, message \"%s\"",
                      i, c->encoding ? c->encoding : "no encoding", c->value,
                      c->base ? c->base : "none", xiri_strerror(st), got,
                      c->want, first ? (unsigned)first->codepoint : 0u,
                      first ? first->message : "");
            continue;
        }
        CU_PASS("link case");
        for (k = 0; k < r.n; k++) {
            const struct xiri_code_info *info = xiri_code_lookup(r.f[k].code);
            size_t id;
            for (id = 0; id < CODE_COUNT; id++)
                if (xiri_code_at(id) == info)
                    seen[id] = true;
        }
    }
    /* every document-level code is produced by some case */
    for (k = CODE_LINK_FIRST; k <= CODE_LINK_LAST; k++)
        if (!seen[k])
            TEST_FAIL("code %s is produced by no link case",
                      xiri_code_at(k)->code);
}

/* Every finding of xiri_check is forwarded unchanged, first, and *worst
 * covers them all. */
static void test_forwarding(void)
{
    static const char *const values[] = {
        "http://EXAMPLE.com:80/a/./b?%7e#\xE2\x80\x8F",
        "a b<c>",
        "http://h/\xEF\xAC\x81?q=\xC3\xA9",
        "%zz\xEF\xBF\xBD",
    };
    size_t i, k;

    for (i = 0; i < ARRAY_LEN(values); i++) {
        struct run direct, linked;
        struct xiri_link l;
        int w1 = -3, w2 = -3;
        size_t len = strlen(values[i]);

        memset(&direct, 0, sizeof(direct));
        memset(&linked, 0, sizeof(linked));
        direct.len = linked.len = len;
        CU_ASSERT_EQUAL(
            xiri_check(ctx, values[i], len, HTML, collect, &direct, &w1),
            XIRI_OK);
        make_link(&l, values[i], len, NULL, HTML);
        CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, collect, &linked, &w2),
                        XIRI_OK);
        CU_ASSERT(direct.n > 0);
        CU_ASSERT(linked.n >= direct.n);
        CU_ASSERT(w2 >= w1);
        for (k = 0; k < direct.n && k < linked.n; k++)
            if (strcmp(direct.f[k].code, linked.f[k].code) != 0 ||
                direct.f[k].offset != linked.f[k].offset ||
                direct.f[k].length != linked.f[k].length ||
                strcmp(direct.f[k].message, linked.f[k].message) != 0)
                TEST_FAIL("\"%s\": finding %zu differs: %s@%zu / %s@%zu",
                          values[i], k, direct.f[k].code, direct.f[k].offset,
                          linked.f[k].code, linked.f[k].offset);
        for (; k < linked.n; k++)
            CU_ASSERT(is_link_code(linked.f[k].code));
    }
}

/* Without a walker there is no encoding: only no-base and
 * replacement-char can appear. */
static void test_no_walker(void)
{
    static const char v[] = "x\xC2\x93?q=\xC3\xA9\xEF\xBF\xBD";
    struct xiri_link l;
    struct run r;
    char got[512];
    const struct found *first;

    memset(&r, 0, sizeof(r));
    r.len = strlen(v);
    make_link(&l, v, r.len, "http://h/", HTML);
    CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, collect, &r, NULL), XIRI_OK);
    render_doc(&r, got, sizeof(got), &first);
    TEST_STR_EQ("no walker", got, "replacement-char@8+3");
}

static void test_contract(void)
{
    struct xiri_link l;
    struct run r;
    int worst = 7;

    make_link(&l, "a", 1, NULL, HTML);
    CU_ASSERT_EQUAL(linkcheck_run(NULL, NULL, &l, collect, &r, &worst),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(worst, -1);
    CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, NULL, collect, &r, NULL),
                    XIRI_EINVAL);
    make_link(&l, NULL, 3, NULL, HTML);
    CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, collect, &r, NULL),
                    XIRI_EINVAL);
    make_link(&l, "a", 1, NULL, (enum xiri_profile)99);
    CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, collect, &r, NULL),
                    XIRI_EINVAL);

    /* no findings: worst -1; a NULL callback is allowed */
    memset(&r, 0, sizeof(r));
    r.len = 10;
    make_link(&l, "http://a/b", 10, NULL, HTML);
    worst = 7;
    CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, collect, &r, &worst),
                    XIRI_OK);
    CU_ASSERT_EQUAL(worst, -1);
    CU_ASSERT_EQUAL(r.n, 0);
    make_link(&l, "a b", 3, NULL, HTML);
    CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, NULL, NULL, &worst),
                    XIRI_OK);
    CU_ASSERT_EQUAL(worst, XIRI_SEV_WARNING);
    make_link(&l, NULL, 0, NULL, HTML);
    CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, NULL, NULL, &worst),
                    XIRI_OK);
    CU_ASSERT_EQUAL(worst, -1);
}

/* A callback that returns non-zero stops everything, both the engine's
 * findings and the document's. */
static void test_stop(void)
{
    static const char v[] = "a\xC2\x93\xEF\xBF\xBD?\xC3\xA9";
    struct xiri_link l;
    struct run r;
    int n, all;

    make_link(&l, v, strlen(v), NULL, HTML);
    memset(&r, 0, sizeof(r));
    r.len = l.value_len;
    CU_ASSERT_EQUAL(linkcheck_run(ctx, "ISO-8859-1", &l, collect, &r, NULL),
                    XIRI_OK);
    all = (int)r.n;
    CU_ASSERT(all >= 4);
    for (n = 1; n <= all; n++) {
        memset(&r, 0, sizeof(r));
        r.len = l.value_len;
        r.stop_after = n;
        CU_ASSERT_EQUAL(linkcheck_run(ctx, "ISO-8859-1", &l, collect, &r, NULL),
                        XIRI_OK);
        if ((int)r.n != n)
            TEST_FAIL("stop after %d: %zu findings delivered", n, r.n);
    }
}

/* Allocation failures end cleanly (ASan checks for leaks). */
static void test_oom(void)
{
    static const char v[] = "search?q=\xC3\xA9\xE2\x82\xAC&x=\xF0\x9F\x98\x80";
    struct xiri_link l;
    unsigned long i;
    enum xiri_status st = XIRI_ENOMEM;

    make_link(&l, v, strlen(v), "http://h/", HTML);
    for (i = 0; i < 200 && st == XIRI_ENOMEM; i++) {
        struct run r;
        memset(&r, 0, sizeof(r));
        r.len = l.value_len;
        mem_fail_after(i);
        st = linkcheck_run(ctx, "windows-1252", &l, collect, &r, NULL);
        mem_fail_reset();
        if (st != XIRI_OK && st != XIRI_ENOMEM)
            TEST_FAIL("allocation %lu failing: status %s", i,
                      xiri_strerror(st));
    }
    CU_ASSERT_EQUAL(st, XIRI_OK);
    CU_ASSERT(i > 1);
}

int suite_linkcheck_register(void)
{
    CU_pSuite s = CU_add_suite("linkcheck", suite_init, suite_clean);

    if (!s || !CU_add_test(s, "query vectors (wpt)", test_query_vectors) ||
        !CU_add_test(s, "query encoding API", test_query_api) ||
        !CU_add_test(s, "windows-1252 table", test_cp1252) ||
        !CU_add_test(s, "document-level findings", test_link_cases) ||
        !CU_add_test(s, "engine findings forwarded", test_forwarding) ||
        !CU_add_test(s, "no walker", test_no_walker) ||
        !CU_add_test(s, "API contract", test_contract) ||
        !CU_add_test(s, "callback stops", test_stop) ||
        !CU_add_test(s, "out of memory", test_oom))
        return -1;
    return 0;
}

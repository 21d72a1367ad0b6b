/* test_linkcheck.c - the linkcheck suite: xiri_check_link and its
 * encoding-given core linkcheck_run on hand-built links (findings derived
 * from RFC 3986 5.1/4.4, the WHATWG URL and Encoding Standards), the
 * browser query encoding of uni_encode_query against the wpt vectors
 * (tests/data/linkcheck-query-encoding.tsv), the windows-1252 table
 * against ICU's converter, and the out-of-memory paths. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "buf.h"
#include "chars.h"
#include "codes.h"
#include "helpers.h"
#include "linkcheck.h"
#include "mem.h"
#include "parse.h"
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

/* The codes xiri_check_link adds to xiri_check's, and host-missing,
 * which xiri_check reports too (without a base: "http://"), and
 * xiri_check_link against the link's base ("//" against an http base). */
static bool is_link_code(const char *code)
{
    size_t k;

    if (strcmp(code, "host-missing") == 0)
        return true;

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

/* the context query_line also encodes through, its converters kept
 * from one line to the next (and switched when the encoding changes) */
static struct xiri_ctx *query_ctx;

static void query_line(void *user, char **f, int nf, int lineno)
{
    int *count = user;
    struct buf out;
    size_t len;
    enum xiri_status st;
    int pass;

    (*count)++;
    if (nf < 5) {
        TEST_FAIL("linkcheck-query-encoding.tsv:%d: malformed line", lineno);
        return;
    }
    len = test_unescape(f[1]);
    test_unescape(f[2]);
    for (pass = 0; pass < 2; pass++) {
        buf_init(&out, XIRI_MAX_LEN);
        st = uni_encode_query(pass ? query_ctx : NULL, f[0], f[1], len, true,
                              &out, NULL);
        buf_putc(&out, '\0');
        if (st != XIRI_OK || out.status != XIRI_OK)
            TEST_FAIL("linkcheck-query-encoding.tsv:%d: status %s%s", lineno,
                      xiri_strerror(st), pass ? " (context)" : "");
        else if (strcmp(out.data, f[2]) != 0)
            TEST_FAIL("linkcheck-query-encoding.tsv:%d (%s, %s)%s: got "
                      "\"%s\", want \"%s\" (%s)",
                      lineno, f[0], f[3], pass ? " (context)" : "", out.data,
                      f[2], f[4]);
        else
            CU_PASS("query vector");
        buf_free(&out);
    }
}

static void test_query_vectors(void)
{
    int count = 0;

    CU_ASSERT_EQUAL_FATAL(xiri_ctx_new(&query_ctx), XIRI_OK);
    CU_ASSERT(test_read_tsv("linkcheck-query-encoding.tsv", query_line,
                            &count) >= 40);
    xiri_ctx_free(query_ctx);
    query_ctx = NULL;
}

/* A converter kept in a context starts each query in its initial state:
 * ISO-2022-JP left in JIS X 0208 mode by a query that stopped at a byte
 * that is not UTF-8 must not put ESC ( B (%1B(B) before the next one
 * (WHATWG Encoding 12.2.2: the encoder starts in ASCII). */
static void test_query_ctx_reset(void)
{
    struct xiri_ctx *qctx = NULL;
    struct buf out;

    CU_ASSERT_EQUAL_FATAL(xiri_ctx_new(&qctx), XIRI_OK);
    buf_init(&out, XIRI_MAX_LEN);
    /* U+65E5 then a stray byte: stops after switching to JIS X 0208 */
    CU_ASSERT_EQUAL(uni_encode_query(qctx, "iso-2022-jp", "\xE6\x97\xA5\xFF", 4,
                                     true, &out, NULL),
                    XIRI_ESYNTAX);
    out.len = 0;
    CU_ASSERT_EQUAL(
        uni_encode_query(qctx, "iso-2022-jp", "a", 1, true, &out, NULL),
        XIRI_OK);
    buf_putc(&out, '\0');
    TEST_STR_EQ("after a stopped query", out.data, "a");
    /* another encoding, then back */
    out.len = 0;
    CU_ASSERT_EQUAL(
        uni_encode_query(qctx, "windows-1252", "\xC3\xA9", 2, true, &out, NULL),
        XIRI_OK);
    buf_putc(&out, '\0');
    TEST_STR_EQ("windows-1252 in the same context", out.data, "%E9");
    out.len = 0;
    /* U+65E5 is 0x467C in JIS X 0208: ESC $ B, the bytes, ESC ( B */
    CU_ASSERT_EQUAL(uni_encode_query(qctx, "iso-2022-jp", "\xE6\x97\xA5", 3,
                                     true, &out, NULL),
                    XIRI_OK);
    buf_putc(&out, '\0');
    TEST_STR_EQ("iso-2022-jp again", out.data, "%1B$BF|%1B(B");
    buf_free(&out);
    xiri_ctx_free(qctx);
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
    CU_ASSERT_EQUAL(uni_encode_query(NULL, "windows-1252", "'\xC3\xA9", 3,
                                     false, &out, NULL),
                    XIRI_OK);
    buf_putc(&out, '\0');
    TEST_STR_EQ("not special", out.data, "'%E9");
    out.len = 0;
    CU_ASSERT_EQUAL(
        uni_encode_query(NULL, "UTF-8", "'\xC3\xA9", 3, false, &out, NULL),
        XIRI_OK);
    buf_putc(&out, '\0');
    TEST_STR_EQ("not special, UTF-8", out.data, "'%C3%A9");
    out.len = 0;
    CU_ASSERT_EQUAL(
        uni_encode_query(NULL, "windows-1252", "a\xE9", 2, true, &out, NULL),
        XIRI_ESYNTAX);
    out.len = 0;
    CU_ASSERT_EQUAL(
        uni_encode_query(NULL, "no-such-encoding", "a", 1, true, &out, NULL),
        XIRI_EENCODING);
    CU_ASSERT_EQUAL(uni_encode_query(NULL, NULL, "a", 1, true, &out, NULL),
                    XIRI_EENCODING);
    out.len = 0;
    CU_ASSERT_EQUAL(
        uni_encode_query(NULL, "windows-1252", "", 0, true, &out, NULL),
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
            uni_encode_query(NULL, "windows-1252", u, n, true, &out, NULL),
            XIRI_OK);
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

    /* opaque-base: WHATWG URL 4.4 no scheme state, a base with an opaque
     * path takes a fragment only (Node 20: new URL(v, "mailto:x") fails
     * for "c", "", "?q", "//h/x" and "/x", gives mailto:x#f for "#f") */
    {NULL,
     HTML,
     "mailto:x",
     "c",
     "opaque-base@0+1",
     0,
     {"opaque path", "mailto:x"}},
    {NULL, HTML, "mailto:x", "", "opaque-base@0+0", 0, {NULL, NULL}},
    {NULL, HTML, "urn:a:b", "?q", "opaque-base@0+2", 0, {NULL, NULL}},
    {NULL, HTML, "mailto:x", "//h/x", "opaque-base@0+5", 0, {NULL, NULL}},
    {NULL,
     HTML,
     "javascript:void(0)",
     "/x",
     "opaque-base@0+2",
     0,
     {NULL, NULL}},
    {NULL, HTML, "mailto:x", "#f", "", 0, {NULL, NULL}},
    {NULL, HTML, "mailto:x", "http://h/", "", 0, {NULL, NULL}},
    {NULL, HTML, "sc:/x", "c", "", 0, {NULL, NULL}},    /* a path: not opaque */
    {NULL, HTML, "http:x", "c", "", 0, {NULL, NULL}},   /* special */
    {NULL, LEIRI, "urn:a:b", "c", "", 0, {NULL, NULL}}, /* XML: RFC 3986 */

    /* host-missing: WHATWG URL 4.4 host state (Node 20: new URL(v,
     * "http://e.org/d/") fails for "http://", "//", "https:",
     * "http://a@/", "\\\\" and "h<TAB>ttp://"; gives http://x/ for
     * "http:///x", the base for "http:", file:/// for "file://") */
    {NULL,
     HTML,
     "http://e.org/d/",
     "http://",
     "host-missing@0+7",
     0,
     {"no host", NULL}},
    {NULL, HTML, "http://e.org/d/", "//", "host-missing@0+2", 0, {NULL, NULL}},
    {NULL,
     HTML,
     "http://e.org/d/",
     "https:",
     "host-missing@0+6",
     0,
     {NULL, NULL}},
    {NULL,
     HTML,
     "http://e.org/d/",
     "http://a@/",
     "host-missing@0+10",
     0,
     {NULL, NULL}},
    {NULL, HTML, NULL, "ws://:80/x", "host-missing@0+10", 0, {NULL, NULL}},
    {NULL,
     HTML,
     "http://e.org/d/",
     "h\tttp://",
     "host-missing@0+8",
     0,
     {NULL, NULL}},
    {NULL, HTML, "http://e.org/d/", "http:///x", "", 0, {NULL, NULL}},
    {NULL, HTML, "http://e.org/d/", "http:", "", 0, {NULL, NULL}},
    {NULL, HTML, "http://e.org/d/", "file://", "", 0, {NULL, NULL}},
    {NULL, HTML, "file:///d/", "//", "", 0, {NULL, NULL}},
    {NULL, LEIRI, "http://e.org/d/", "//", "", 0, {NULL, NULL}}, /* XML */
    /* any URL with an authority: userinfo or a port and no host (WHATWG
     * URL 4.4 authority and host states; Node 20 fails on these, and
     * gives "sc:///x", "sc://" and "sc://h:12/" as written) */
    {NULL, HTML, NULL, "sc://@/", "host-missing@0+7", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "sc://:12/", "host-missing@0+9", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "sc://te@s:t@/", "host-missing@0+13", 0, {NULL, NULL}},
    {NULL, HTML, "sc://e/d/", "//@/x", "host-missing@0+5", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "sc:///x", "", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "sc://", "", 0, {NULL, NULL}},
    {NULL, HTML, NULL, "sc://h:12/", "", 0, {NULL, NULL}},

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

    /* mojibake, double-pct (mojibake.c; test_mojibake.c has the rest):
     * python3 'café'.encode('utf-8').decode('cp1252') is 'cafÃ©', and
     * quote(quote('a b')) is 'a%2520b' */
    {"UTF-8",
     LEIRI,
     "http://h/",
     "caf\xC3\x83\xC2\xA9/%C3%83%C2%A9",
     "mojibake@3+4 mojibake@8+12",
     0,
     {"repaired: caf\xC3\xA9/%C3%A9", "windows-1252"}},
    {NULL,
     HTML,
     "http://h/",
     "a%2520b",
     "double-pct@1+5",
     0,
     {"'%2520' is '%20' percent-encoded twice", "repaired: a%20b"}},

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

/* relative-identifier: RFC 4287 4.2.6 (an Atom id is an IRI, hence
 * absolute), Namespaces in XML 1.0 2.2 (relative namespace names
 * deprecated); identifiers are not resolved, so a base changes nothing and
 * no-base is not reported for them.  Item 0 of a pairs value is a
 * namespace name, item 1 a location (XSD 1.0 Part 1 2.6.3). */
static const struct {
    struct link_case c;
    enum xiri_shape shape;
    unsigned item;
} ident_cases[] = {
    {{NULL,
      LEIRI,
      "http://h/feed",
      "entry-1",
      "relative-identifier@0+7",
      0,
      {"identifier", "absolute IRI"}},
     XIRI_SHAPE_IDENTIFIER,
     0},
    {{NULL, LEIRI, NULL, "#ns", "relative-identifier@0+3", 0, {NULL, NULL}},
     XIRI_SHAPE_IDENTIFIER,
     0},
    {{NULL, LEIRI, NULL, "ns", "relative-identifier@0+2", 0, {NULL, NULL}},
     XIRI_SHAPE_PAIRS,
     0},
    {{NULL, LEIRI, NULL, "a.xsd", "no-base@0+5", 0, {NULL, NULL}},
     XIRI_SHAPE_PAIRS,
     1},
    {{NULL, LEIRI, NULL, "tag:h,2026:1", "", 0, {NULL, NULL}},
     XIRI_SHAPE_IDENTIFIER,
     0},
    /* invalid-hash-name: an HTML usemap is a hash-name reference (HTML LS
     * 2.3, References): '#' and a map's name, which is not empty and
     * holds no ASCII whitespace (the map element); no URL, so no no-base,
     * no relative-identifier, no engine finding ("%zz" is part of a name),
     * but what the document's bytes did (c1-control) */
    {{NULL, HTML, NULL, "m", "invalid-hash-name@0+1", 0, {"no '#'", NULL}},
     XIRI_SHAPE_HASH_NAME,
     0},
    {{NULL,
      HTML,
      "http://h/",
      "#",
      "invalid-hash-name@0+1",
      '#',
      {"nothing follows", NULL}},
     XIRI_SHAPE_HASH_NAME,
     0},
    {{NULL,
      HTML,
      NULL,
      "#a b\tc",
      "invalid-hash-name@2+1",
      ' ',
      {"U+0020", NULL}},
     XIRI_SHAPE_HASH_NAME,
     0},
    {{NULL, HTML, NULL, "#caf%C3%A9%zz", "", 0, {NULL, NULL}},
     XIRI_SHAPE_HASH_NAME,
     0},
    {{NULL, LEIRI, NULL, "#caf\xC3\xA9", "", 0, {NULL, NULL}},
     XIRI_SHAPE_HASH_NAME,
     0},
    {{"ISO-8859-1",
      HTML,
      NULL,
      "#a\xC2\x93",
      "c1-control@2+2",
      0x93,
      {NULL, NULL}},
     XIRI_SHAPE_HASH_NAME,
     0},
};

/* One case: its findings against c->want; the codes found are marked in
 * seen. */
static void run_link_case(size_t i, const struct link_case *c,
                          enum xiri_shape shape, unsigned item, bool *seen)
{
    size_t k;
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
    l.shape = shape;
    l.item = item;
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
        return;
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

static void test_link_cases(void)
{
    bool seen[CODE_COUNT];
    size_t i, k;

    memset(seen, 0, sizeof(seen));
    for (i = 0; i < ARRAY_LEN(link_cases); i++)
        run_link_case(i, &link_cases[i], XIRI_SHAPE_IRI, 0, seen);
    for (i = 0; i < ARRAY_LEN(ident_cases); i++)
        run_link_case(ARRAY_LEN(link_cases) + i, &ident_cases[i].c,
                      ident_cases[i].shape, ident_cases[i].item, seen);
    /* every document-level code is produced by some case */
    for (k = CODE_LINK_FIRST; k <= CODE_LINK_LAST; k++)
        if (!seen[k])
            TEST_FAIL("code %s is produced by no link case",
                      xiri_code_at(k)->code);
}

/* An HTML usemap with text before its '#' works in browsers (they take
 * what follows the first '#') but is not valid: invalid-hash-name as a
 * warning; and nothing is trimmed from a usemap, no control-around-url
 * (HTML LS 2.3, "rules for parsing a hash-name reference", strip
 * nothing: " #m" is found by its "m", "#m\x01" names "m\x01"). */
static void test_hash_name(void)
{
    static const struct {
        const char *value, *want;
        int worst;
    } cases[] = {
        {"p.html#m", "invalid-hash-name@0+6", XIRI_SEV_WARNING},
        {" #m", "invalid-hash-name@0+1", XIRI_SEV_WARNING},
        {"\x01#m", "invalid-hash-name@0+1", XIRI_SEV_WARNING},
        {"#m\x01", "", -1},
        {"x#", "invalid-hash-name@0+1 invalid-hash-name@1+1", XIRI_SEV_ERROR},
    };
    size_t i, k;

    for (i = 0; i < ARRAY_LEN(cases); i++) {
        struct xiri_link l;
        struct run r;
        char got[512];
        int worst = -3;

        memset(&r, 0, sizeof(r));
        r.len = strlen(cases[i].value);
        make_link(&l, cases[i].value, r.len, "http://h/", HTML);
        l.element = "img";
        l.attribute = i % 2 ? "usemap" : "data-map"; /* named in messages */
        l.shape = XIRI_SHAPE_HASH_NAME;
        CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, collect, &r, &worst),
                        XIRI_OK);
        got[0] = '\0';
        for (k = 0; k < r.n; k++)
            snprintf(got + strlen(got), sizeof(got) - strlen(got),
                     "%s%s@%zu+%zu", k ? " " : "", r.f[k].code, r.f[k].offset,
                     r.f[k].length);
        for (k = 0; k < r.n; k++)
            if (!strstr(r.f[k].message, l.attribute))
                r.bad = true;
        if (strcmp(got, cases[i].want) != 0 || worst != cases[i].worst || r.bad)
            TEST_FAIL("usemap \"%s\": got [%s] worst %d, want [%s] worst %d",
                      cases[i].value, got, worst, cases[i].want,
                      cases[i].worst);
        else
            CU_PASS("usemap");
    }
}

/* Every finding of xiri_check is forwarded unchanged, first, and *worst
 * covers them all. */
/* A network-path reference ("//h/p") is read with its base's scheme
 * (RFC 3986 5.2.2), which decides what browsers take in its host (WHATWG
 * URL host and file host states); each checked with Node 20's new URL():
 * "//C|/x" against a file base is file:///C:/x (the drive letter of the
 * path), "//a%b/" against sc://h/ is sc://a%b/, and the others fail. */
static void test_network_path(void)
{
    static const struct {
        const char *value, *base;
        size_t offset;
        uint32_t cp;
        const char *code;
        enum xiri_severity sev;
    } v[] = {
        {"//C|/x", "file:///d/", 3, '|', "html-only", XIRI_SEV_WARNING},
        {"//C|/x", "http://e.org/d/", 3, '|', "invalid-char", XIRI_SEV_ERROR},
        {"//C|/x", NULL, 3, '|', "invalid-char", XIRI_SEV_ERROR},
        {"//a%b/", "http://e.org/d/", 3, '%', "invalid-char", XIRI_SEV_ERROR},
        {"//a%b/", "sc://h/", 3, '%', "html-only", XIRI_SEV_WARNING},
        {"//u@h/x", "file:///d/", 3, '@', "invalid-char", XIRI_SEV_ERROR},
    };
    size_t i, k;

    for (i = 0; i < ARRAY_LEN(v); i++) {
        struct run r;
        struct xiri_link l;
        int worst = -3, found = 0;
        size_t n = strlen(v[i].value);

        memset(&r, 0, sizeof(r));
        r.len = n;
        make_link(&l, v[i].value, n, v[i].base, HTML);
        CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, collect, &r, &worst),
                        XIRI_OK);
        for (k = 0; k < r.n; k++)
            if (r.f[k].offset == v[i].offset && r.f[k].codepoint == v[i].cp) {
                found++;
                CU_ASSERT_STRING_EQUAL(r.f[k].code, v[i].code);
                CU_ASSERT_EQUAL(r.f[k].severity, v[i].sev);
            }
        if (found != 1 || worst != (int)v[i].sev)
            TEST_FAIL("\"%s\" against %s: %d findings at byte %zu, worst %d",
                      v[i].value, v[i].base ? v[i].base : "none", found,
                      v[i].offset, worst);
    }
}

/* How many control-char findings each byte got (at), and whether
 * another finding was given past the authority (other). */
struct count {
    unsigned char *at;
    size_t n;
    bool other;
};

static int count_control(void *user, const struct xiri_diag *d)
{
    struct count *c = user;

    if (strcmp(d->code, "control-char") == 0) {
        c->at[d->offset]++;
        c->n++;
    } else if (d->offset >= 9) {
        c->other = true;
    }
    return 0;
}

/* A map for codes_rebase_bytes: one byte on. */
static size_t plus_one(const void *user, size_t o)
{
    (void)user;
    return o + 1;
}

/* xiri_check of t under the html profile, its findings into r. */
static void html_check(const char *t, struct run *r)
{
    memset(r, 0, sizeof(*r));
    r->len = strlen(t);
    CU_ASSERT_EQUAL(
        xiri_check(ctx, t, r->len, XIRI_PROFILE_HTML, collect, r, NULL),
        XIRI_OK);
}

/* An authority browsers read otherwise than RFC 3986: a host after other
 * than "//" (WHATWG URL 4.4, special authority slashes and ignore slashes
 * states), where RFC 3986 reads a path, or one a '\' ends (authority
 * state), where RFC 3986 reads on: checked as the host it is to them, its
 * findings at their place in the value, and host-slashes said where the
 * slashes are odd.  fails: what
 * Node 20's new URL(value, base) does (throws), checked by hand; code, at,
 * cp: the finding on the host expected there (NULL: none); slashes: the
 * length of host-slashes at byte slashes_at, or -1 when it is not said. */
static void test_hidden_host(void)
{
    static const char *const B = "http://e.org/d/";
    static const struct {
        const char *value, *base;
        bool fails;
        const char *code;
        size_t at;
        uint32_t cp;
        size_t slashes_at;
        int slashes;
    } v[] = {
        {"///a%b/", B, true, "invalid-char", 4, '%', 0, 3},
        {"http:///a%b/", NULL, true, "invalid-char", 9, '%', 5, 3},
        {"https:a%b/", B, true, "invalid-char", 7, '%', 6, 0},
        {"http:a%b/", "sc:/x", true, "invalid-char", 6, '%', 5, 0},
        {"http:/a%b/", "sc:/x", true, "invalid-char", 7, '%', 5, 1},
        {"http:a%b/", NULL, true, "invalid-char", 6, '%', 5, 0},
        {"ws:/a%b/", NULL, true, "invalid-char", 5, '%', 3, 1},
        {"///a:99999/", B, true, "invalid-port", 5, 0, 0, 3},
        {"https:a:99999/", B, true, "invalid-port", 8, 0, 6, 0},
        {"///1.2.3.400/", B, true, "invalid-ipv4", 9, 0, 0, 3},
        {"///a b/", B, true, "invalid-char", 4, ' ', 0, 3},
        /* two slashes, one a '\': each is html-only already */
        {"\\\\a%b/", B, true, "invalid-char", 3, '%', 0, -1},
        {"/\\a%b/", B, true, "invalid-char", 3, '%', 0, -1},
        /* file: two slashes, either a '\' (file slash state) */
        {"file:\\\\a:12/", NULL, true, "invalid-port", 8, ':', 0, -1},
        {"\\\\u@h/", "file:///d/", true, "invalid-char", 3, '@', 0, -1},
        {"/\\1.2.3.400/", "file:///d/", true, "invalid-ipv4", 8, 0, 0, -1},
        {"file:\\\\h/x", NULL, false, NULL, 0, 0, 0, -1},
        /* a '\\' ends a special URL's authority: what follows it is the
         * path, where RFC 3986 reads a userinfo or a port */
        {"http://a\\:99999/", NULL, false, NULL, 0, 0, 0, -1},
        {"http://h\\@x/", NULL, false, NULL, 0, 0, 0, -1},
        {"http://u@a\\@b/", NULL, false, NULL, 0, 0, 0, -1},
        {"file://a\\:12/", NULL, false, NULL, 0, 0, 0, -1},
        {"//\x14z\\@h/", B, true, "invalid-char", 2, 0x14, 0, -1},
        {"http://a%\\b/", NULL, true, "invalid-char", 8, '%', 0, -1},
        /* a '\\' that ends the authority ends the port too, and an
         * escaped one is no '\\' (Node: http://a:8/0, http://h/p,
         * http://a/%5Cb/, file:///a%5Cb) */
        {"http://a:8\\0", NULL, false, NULL, 0, 0, 0, -1},
        {"http://h:\\p", NULL, false, NULL, 0, 0, 0, -1},
        {"//a:8\\0", B, false, NULL, 0, 0, 0, -1},
        {"http://a\\%5Cb/", NULL, false, NULL, 0, 0, 0, -1},
        {"file://\\a%5Cb", NULL, false, NULL, 0, 0, 0, -1},
        /* reported once: "%09" is a tab in the domain (both readings
         * see it), a '\\' in a host that is not special */
        {"http://a\t%09b/", NULL, true, "invalid-char", 9, '\t', 0, -1},
        {"sc://a\\b\t/", NULL, true, "invalid-char", 6, '\\', 0, -1},
        /* tabs and newlines, which browsers remove first */
        {"tp:\n//[", "ht:", true, "invalid-ip-literal", 6, 0, 0, -1},
        {"http:\n//a%b/", NULL, true, "invalid-char", 9, '%', 0, -1},
        {"http:/\t//a:99999/", NULL, true, "invalid-port", 11, 0, 5, 4},
        {"ws://\r/a@?q", "sc://h/", true, "host-missing", 0, 0, 3, 4},
        {"http://exa\nmple.com/", NULL, false, NULL, 0, 0, 0, -1},
        /* what browsers remove around a URL first (WHATWG URL 4.4 step
         * 1): the rest checked, a C0 control said where it is (Node:
         * throws, http://h/) */
        {" http://a%b/", NULL, true, "invalid-char", 9, '%', 0, -1},
        {"\x01http://h/\x01", NULL, false, "control-around-url", 10, 1, 0, -1},
        /* a tab in or after an IP literal, which RFC 3986's reading
         * makes part of an invalid-ip-literal (Node: http://[::1]/
         * twice, then throws) */
        {"http://[::1\t]/", NULL, false, "control-char", 11, '\t', 0, -1},
        {"http://[::1]\t/", NULL, false, "control-char", 12, '\t', 0, -1},
        {"http://[::1\t]x/", NULL, true, "control-char", 11, '\t', 0, -1},
        {"ht\ttp://u@h/", "mailto:x", false, NULL, 0, 0, 0, -1},
        /* a fragment after what browsers strip: mailto:x#f, no
         * opaque-base */
        {"\t#f", "mailto:x", false, NULL, 0, 0, 0, -1},
        {" #f", "mailto:x", false, NULL, 0, 0, 0, -1},
        {"///a/", B, false, NULL, 0, 0, 0, 3},
        {"https:a/", NULL, false, NULL, 0, 0, 6, 0},
        {"///\xC3\xA9-/", B, false, "idna-error", 3, 0, 0, 3},
        /* relative: a path to browsers too (http:///e.org/d/a%b/) */
        {"http:a%b/", B, false, "html-only", 6, '%', 0, -1},
        /* not special, or file: no host after the slashes */
        {"///a%b/", "file:///d/", false, "html-only", 4, '%', 0, -1},
        {"///a%b/", "sc://h/", false, "html-only", 4, '%', 0, -1},
    };
    size_t i, k;

    for (i = 0; i < ARRAY_LEN(v); i++) {
        struct run r;
        struct xiri_link l;
        int worst = -3, found = 0, slashes = -1;
        size_t n = strlen(v[i].value);
        char byte[32];
        bool ok = true;

        memset(&r, 0, sizeof(r));
        r.len = n;
        make_link(&l, v[i].value, n, v[i].base, HTML);
        CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, &l, collect, &r, &worst),
                        XIRI_OK);
        snprintf(byte, sizeof(byte), "byte %zu", v[i].at);
        for (k = 0; k < r.n; k++) {
            size_t j;

            for (j = 0; j < k; j++)
                if (strcmp(r.f[j].code, r.f[k].code) == 0 &&
                    r.f[j].offset == r.f[k].offset)
                    ok = false; /* reported twice */
            if (v[i].code && r.f[k].offset == v[i].at &&
                strcmp(r.f[k].code, v[i].code) == 0) {
                found++;
                if (r.f[k].codepoint != v[i].cp ||
                    (strstr(r.f[k].message, "byte ") &&
                     !strstr(r.f[k].message, byte)))
                    ok = false;
            }
            if (strcmp(r.f[k].code, "host-slashes") == 0) {
                if (slashes != -1 || r.f[k].offset != v[i].slashes_at)
                    ok = false;
                slashes = (int)r.f[k].length;
            }
        }
        if ((worst == XIRI_SEV_ERROR) != v[i].fails || r.bad ||
            found != (v[i].code ? 1 : 0) || slashes != v[i].slashes)
            ok = false;
        if (!ok)
            TEST_FAIL("\"%s\" against %s: worst %d, %d %s at byte %zu, "
                      "host-slashes %d",
                      v[i].value, v[i].base ? v[i].base : "none", worst, found,
                      v[i].code ? v[i].code : "-", v[i].at, slashes);
        else
            CU_PASS("hidden host");
    }
    /* xiri_check too (no base): its "byte N" in the value as written
     * (the tab removed first is byte 0), "byte 0xFF" left as it is */
    {
        static const char t[] = "\thttp://a\xFF"
                                "b/";
        struct run r;
        size_t placed = 0;

        html_check(t, &r);
        for (k = 0; k < r.n; k++)
            if (r.f[k].offset == 9 &&
                strstr(r.f[k].message, "byte 0xFF at byte 9"))
                placed++;
        CU_ASSERT_EQUAL(placed, 1);
    }
    /* digits quoted from the value are no offset (only "at byte N" is
     * placed back), and a finding spans no tab after it (the second
     * review's A and B) */
    {
        static const char o[] = "http://a:8O\t0/";
        struct run r;
        size_t good = 0;
        char moved[128];

        /* (the port "99999byte 3" of "\thttp://h:99999byte 3/" was
         * quoted so; now that no longer a number, it is not over 65535:
         * codes_rebase_bytes itself) */
        codes_rebase_bytes("the port \"99999byte 3\" at byte 9 holds byte "
                           "0xFF at byte 12",
                           plus_one, NULL, moved, sizeof(moved));
        CU_ASSERT_STRING_EQUAL(moved, "the port \"99999byte 3\" at byte 10 "
                                      "holds byte 0xFF at byte 13");
        /* nor "at byte N" quoted from the value (the review's finding 4:
         * xiri_check of "\x01http:at byte 1/" quoted "at byte 2") */
        codes_rebase_bytes("browsers read \"at byte 1\" at byte 6", plus_one,
                           NULL, moved, sizeof(moved));
        CU_ASSERT_STRING_EQUAL(moved, "browsers read \"at byte 1\" at byte 7");
        html_check(o, &r);
        for (k = 0, good = 0; k < r.n; k++)
            if (strcmp(r.f[k].code, "invalid-port") == 0)
                good += r.f[k].offset == 10 && r.f[k].length == 1 ? 1 : 100;
        CU_ASSERT_EQUAL(good, 1);
    }
    /* in offset order: the slashes' findings (each '\\' read as '/')
     * before the host's */
    {
        static const char t[] = "http:\\\\a%b/";
        struct run r;

        html_check(t, &r);
        CU_ASSERT_EQUAL_FATAL(r.n, 3);
        CU_ASSERT(r.f[0].offset == 5 && r.f[1].offset == 6 &&
                  r.f[2].offset == 8);
        CU_ASSERT_STRING_EQUAL(r.f[0].code, "html-only");
        CU_ASSERT_STRING_EQUAL(r.f[2].code, "invalid-char");
    }
    /* in offset order when a tab, newline or '\\' in the authority (the
     * value's pass) meets a finding of the form's pass: the tab at 8
     * before U+0001 at 9 (they came 9, 8), the newline at 10 before the
     * spaces (10 came last), U+0001 at 8 before the tab at 11; the same
     * through xiri_check_link */
    {
        static const struct {
            const char *value;
            size_t n, first, last;
        } o[] = {
            {"http://u\t\x01@h/", 2, 8, 9},
            {"http://exa\n  mple.com/", 3, 10, 12},
            {"http://u\x01@h\tx/", 2, 8, 11},
        };

        for (i = 0; i < ARRAY_LEN(o); i++) {
            struct run r;
            struct xiri_link l;
            int pass;

            for (pass = 0; pass < 2; pass++) {
                bool sorted = true;

                if (pass == 0) {
                    html_check(o[i].value, &r);
                } else {
                    memset(&r, 0, sizeof(r));
                    r.len = strlen(o[i].value);
                    make_link(&l, o[i].value, r.len, NULL, HTML);
                    CU_ASSERT_EQUAL(
                        xiri_check_link(ctx, NULL, &l, collect, &r, NULL),
                        XIRI_OK);
                }
                for (k = 1; k < r.n; k++)
                    if (r.f[k].offset < r.f[k - 1].offset)
                        sorted = false;
                if (r.n != o[i].n || !sorted || r.f[0].offset != o[i].first ||
                    r.f[r.n - 1].offset != o[i].last)
                    TEST_FAIL("\"%s\" (%s): %zu findings, in order %d",
                              o[i].value, pass ? "link" : "check", r.n, sorted);
                else
                    CU_PASS("offset order");
            }
        }
    }
    /* more findings than html_auth_run holds (1 MiB): each still said
     * once, in three runs */
    {
        enum { N = 20000 };
        char *t = malloc(N + 16);
        struct count c;

        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        /* (a 'x' last: browsers remove trailing controls first) */
        memcpy(t, "http://h\t/", 10);
        memset(t + 10, 1, N);
        t[N + 10] = 'x';
        memset(&c, 0, sizeof(c));
        c.at = calloc(N + 11, 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c.at);
        CU_ASSERT_EQUAL(xiri_check(ctx, t, N + 11, XIRI_PROFILE_HTML,
                                   count_control, &c, NULL),
                        XIRI_OK);
        for (i = 0; i < N + 11; i++)
            if (c.at[i] != (i == 8 || (i >= 10 && i < N + 10)))
                break;
        if (i != N + 11 || c.other)
            TEST_FAIL("%zu control-char findings, byte %zu said %d times", c.n,
                      i, i < N + 11 ? c.at[i] : 0);
        else
            CU_PASS("held no more than 1 MiB");
        free(c.at);
        free(t);
    }
}

static void test_forwarding(void)
{
    static const char *const values[] = {
        "http://EXAMPLE.com:80/a/./b?%7e#\xE2\x80\x8F",
        "a b<c>",
        "http://h/\xEF\xAC\x81?q=\xC3\xA9",
        "%zz\xEF\xBF\xBD",
        /* host-missing (WHATWG URL 4.4, no base), first in both */
        "HTTP:?q",
        "http:\\\\\xC3\xA9",
        "ws://:80/%zz",
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

/* Which links browsers complete with the document's encoding (WHATWG URL
 * 4.4 through HTML's "encoding-parse a URL"): HTML's, and those of XHTML
 * and SVG elements in a document browsers render; and so which get
 * query-encoding from linkcheck_run (no walker: rendered). */
static void test_query_rendered(void)
{
    static const char v[] = "http://h/s?q=\xC3\xA9";
    struct xiri_link l;
    struct run r;
    char got[512];
    const struct found *first;

    make_link(&l, v, strlen(v), NULL, HTML);
    CU_ASSERT_TRUE(linkcheck_query_in_document_encoding(&l, false));
    make_link(&l, v, strlen(v), NULL, LEIRI);
    CU_ASSERT_FALSE(linkcheck_query_in_document_encoding(&l, true));
    l.element_ns = "http://www.w3.org/1999/xhtml";
    CU_ASSERT_TRUE(linkcheck_query_in_document_encoding(&l, true));
    CU_ASSERT_FALSE(linkcheck_query_in_document_encoding(&l, false));
    l.element_ns = "http://www.w3.org/2000/svg";
    CU_ASSERT_TRUE(linkcheck_query_in_document_encoding(&l, true));
    l.element_ns = "http://www.w3.org/2005/Atom";
    CU_ASSERT_FALSE(linkcheck_query_in_document_encoding(&l, true));
    /* é is E9 in windows-1252: a finding for the XHTML link only */
    l.element_ns = "http://www.w3.org/1999/xhtml";
    memset(&r, 0, sizeof(r));
    r.len = strlen(v);
    CU_ASSERT_EQUAL(linkcheck_run(ctx, "windows-1252", &l, collect, &r, NULL),
                    XIRI_OK);
    render_doc(&r, got, sizeof(got), &first);
    TEST_STR_EQ("xhtml", got, "query-encoding@11+4");
    l.element_ns = "http://www.w3.org/2005/Atom";
    memset(&r, 0, sizeof(r));
    r.len = strlen(v);
    CU_ASSERT_EQUAL(linkcheck_run(ctx, "windows-1252", &l, collect, &r, NULL),
                    XIRI_OK);
    render_doc(&r, got, sizeof(got), &first);
    TEST_STR_EQ("atom", got, "");
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
    /* a fresh context each time: the allocations of its first query
     * (its Unicode state, the converters' name) fail too */
    st = XIRI_ENOMEM;
    for (i = 0; i < 200 && st == XIRI_ENOMEM; i++) {
        struct xiri_ctx *fresh = NULL;
        struct run r;

        CU_ASSERT_EQUAL_FATAL(xiri_ctx_new(&fresh), XIRI_OK);
        memset(&r, 0, sizeof(r));
        r.len = l.value_len;
        mem_fail_after(i);
        st = linkcheck_run(fresh, "Shift_JIS", &l, collect, &r, NULL);
        mem_fail_reset();
        if (st != XIRI_OK && st != XIRI_ENOMEM)
            TEST_FAIL("fresh context, allocation %lu failing: status %s", i,
                      xiri_strerror(st));
        xiri_ctx_free(fresh);
    }
    CU_ASSERT_EQUAL(st, XIRI_OK);
    CU_ASSERT(i > 1);
    /* xiri_link_resolve of a link browsers reject for its host (U+2003
     * maps to a space, which no domain may hold; Node 20 fails on it):
     * out of memory at any allocation is XIRI_ENOMEM and no result, and
     * the answer once all succeed is XIRI_ESYNTAX */
    st = XIRI_ENOMEM;
    for (i = 0; i < 200 && st == XIRI_ENOMEM; i++) {
        static const char bad[] = "http://\xC3\xA9\xE2\x80\x83x/";
        struct xiri_ctx *fresh = NULL;
        struct xiri_link bl;
        char *out = NULL;

        CU_ASSERT_EQUAL_FATAL(xiri_ctx_new(&fresh), XIRI_OK);
        make_link(&bl, bad, strlen(bad), NULL, HTML);
        mem_fail_after(i);
        st = xiri_link_resolve(fresh, &bl, &out, NULL, NULL);
        mem_fail_reset();
        if (st != XIRI_ESYNTAX && st != XIRI_ENOMEM)
            TEST_FAIL("xiri_link_resolve, allocation %lu failing: status %s", i,
                      xiri_strerror(st));
        CU_ASSERT_PTR_NULL(out);
        xiri_str_free(out);
        xiri_ctx_free(fresh);
    }
    CU_ASSERT_EQUAL(st, XIRI_ESYNTAX);
    CU_ASSERT(i > 1);
    /* a link whose host only the browsers' reading shows missing (the CR
     * removed, "ws:///a@" has the userinfo a and no host; Node 20 fails
     * on it): out of memory at any allocation is XIRI_ENOMEM, never
     * XIRI_OK without host-missing (lc_host_missing once read it as a
     * host) */
    st = XIRI_ENOMEM;
    for (i = 0; i < 200 && st == XIRI_ENOMEM; i++) {
        static const char cr[] = "ws://\r/a@?q";
        struct xiri_link cl;
        struct run r;
        int worst = -3;
        size_t k, missing = 0;

        make_link(&cl, cr, strlen(cr), "sc://h/", HTML);
        memset(&r, 0, sizeof(r));
        r.len = cl.value_len;
        mem_fail_after(i);
        st = xiri_check_link(ctx, NULL, &cl, collect, &r, &worst);
        mem_fail_reset();
        for (k = 0; k < r.n; k++)
            missing += strcmp(r.f[k].code, "host-missing") == 0;
        if ((st != XIRI_OK && st != XIRI_ENOMEM) ||
            (st == XIRI_OK && (missing != 1 || worst != XIRI_SEV_ERROR)))
            TEST_FAIL("\"ws://\\r/a@?q\", allocation %lu failing: status %s, "
                      "%zu host-missing, worst %d",
                      i, xiri_strerror(st), missing, worst);
    }
    CU_ASSERT_EQUAL(st, XIRI_OK);
    CU_ASSERT(i > 1);
    /* the findings held to be put in offset order, and a tab in an IP
     * literal added to them (htmlauth.c): XIRI_ENOMEM, or all of them */
    st = XIRI_ENOMEM;
    for (i = 0; i < 200 && st == XIRI_ENOMEM; i++) {
        static const char lit[] = "http://u\x01@[::1\t]/";
        struct xiri_link cl;
        struct run r;
        size_t k, tab = 0;

        make_link(&cl, lit, strlen(lit), NULL, HTML);
        memset(&r, 0, sizeof(r));
        r.len = cl.value_len;
        mem_fail_after(i);
        st = xiri_check_link(ctx, NULL, &cl, collect, &r, NULL);
        mem_fail_reset();
        for (k = 0; k < r.n; k++)
            tab +=
                r.f[k].offset == 14 && strcmp(r.f[k].code, "control-char") == 0;
        if ((st != XIRI_OK && st != XIRI_ENOMEM) ||
            (st == XIRI_OK && (tab != 1 || r.n != 2 || r.f[0].offset != 8)))
            TEST_FAIL("\"http://u\\x01@[::1\\t]/\", allocation %lu "
                      "failing: status %s, %zu findings",
                      i, xiri_strerror(st), r.n);
    }
    CU_ASSERT_EQUAL(st, XIRI_OK);
    CU_ASSERT(i > 1);
}

/* ---------------------------------------------------------------- */
/* The fast path for plain links (linkcheck_plain) against the full one:
 * every string of the conformance data (each field of every tests/data
 * TSV file) and every quoted or element-content string of the sample
 * documents, plus the hand-made near misses below, under every profile,
 * with and without a base and a legacy encoding, must give exactly the
 * same findings, status and worst severity both ways.  Where
 * linkcheck_plain says no, the fast run takes the very code of the slow
 * one, so the runs compared are those where it says yes; the reference
 * is xiri_check itself (the suites check and parse derive its findings
 * from RFC 3986/3987). */

struct plain_stats {
    unsigned long strings, plain, runs, split_checked;
};

static bool same_runs(const struct run *a, const struct run *b)
{
    size_t i;

    if (a->n != b->n)
        return false;
    for (i = 0; i < a->n; i++)
        if (strcmp(a->f[i].code, b->f[i].code) != 0 ||
            a->f[i].offset != b->f[i].offset ||
            a->f[i].length != b->f[i].length ||
            a->f[i].codepoint != b->f[i].codepoint ||
            a->f[i].part != b->f[i].part ||
            a->f[i].severity != b->f[i].severity ||
            strcmp(a->f[i].message, b->f[i].message) != 0)
            return false;
    return true;
}

static void plain_one(struct plain_stats *st, const char *s, size_t n)
{
    static const char *const bases[] = {NULL, "http://a.example/b/c?q"};
    static const char *const encs[] = {NULL, "windows-1252", "Shift_JIS"};
    struct ref r, r2;
    size_t b, e, p, k;
    int worst;

    if (n > XIRI_MAX_LEN)
        return;
    st->strings++;
    ref_split(s, n, &r);
    /* check_run hands linkcheck the split it made */
    if (check_run(ctx, s, n, XIRI_PROFILE_LEIRI, NULL, NULL, NULL, &worst,
                  &r2) == XIRI_OK) {
        st->split_checked++;
        for (k = 0; k < XIRI_PART_COUNT; k++)
            if (r.part[k].set != r2.part[k].set ||
                r.part[k].off != r2.part[k].off ||
                r.part[k].len != r2.part[k].len)
                TEST_FAIL("check_run split \"%.*s\" differently from "
                          "ref_split (part %zu)",
                          (int)n, s, k);
    }
    /* the one pass of linkcheck_plain_split says what linkcheck_plain
     * says of ref_split's split, and gives that split when it says yes */
    {
        struct ref r3;
        bool fused = linkcheck_plain_split(s, n, &r3);
        if (fused != linkcheck_plain(s, n, &r))
            TEST_FAIL("linkcheck_plain_split says %d of \"%.*s\"", fused,
                      (int)n, s);
        for (k = 0; fused && k < XIRI_PART_COUNT; k++)
            if (r.part[k].set != r3.part[k].set ||
                r.part[k].off != r3.part[k].off ||
                r.part[k].len != r3.part[k].len)
                TEST_FAIL("linkcheck_plain_split split \"%.*s\" "
                          "differently from ref_split (part %zu)",
                          (int)n, s, k);
    }
    if (!linkcheck_plain(s, n, &r))
        return;
    st->plain++;
    /* rewrite.c takes a plain link with a scheme as its own target
     * under --resolve, without asking xiri_resolve, when the base is
     * one xiri_resolve accepts */
    if (r.part[XIRI_PART_SCHEME].set) {
        static const char *const rbases[] = {
            "http://a/b/c/d;p?q", "https://a.example/b/", "file:///tmp/x",
            "urn:isbn:1", "HTTP://A/./b/../c", "tag:a,2024:b/c#f",
        };
        size_t bi, pi;
        for (bi = 0; bi < sizeof(rbases) / sizeof(rbases[0]); bi++)
            for (pi = 0; pi < XIRI_PROFILE_COUNT; pi++) {
                char *o = NULL;
                size_t olen = 0;
                enum xiri_status rs =
                    xiri_resolve(rbases[bi], strlen(rbases[bi]), s, n,
                                 (enum xiri_profile)pi, &o, &olen, NULL);
                if (rs != XIRI_OK || olen != n ||
                    (n && memcmp(o, s, n) != 0))
                    TEST_FAIL("plain \"%.*s\" against %s (profile %zu) "
                              "resolves to something else (%s)",
                              (int)n, s, rbases[bi], pi, xiri_strerror(rs));
                xiri_str_free(o);
            }
    }
    /* rewrite.c writes a plain link as its own URI without asking
     * xiri_to_uri, with the modes and flags it uses */
    for (k = 0; k < 2; k++) {
        char *m = NULL;
        size_t mlen = 0;
        enum xiri_status ms = xiri_to_uri(
            ctx, s, n, k ? XIRI_IDN_PUNYCODE : XIRI_IDN_PERCENT,
            XIRI_MAP_ESCAPE_LEIRI | (k ? XIRI_MAP_DNS_ONLY : 0u), &m, &mlen,
            NULL);
        if (ms != XIRI_OK || mlen != n || (n && memcmp(m, s, n) != 0))
            TEST_FAIL("the URI of plain \"%.*s\" is not itself (%s, idn "
                      "mode %zu): \"%.*s\"",
                      (int)n, s, xiri_strerror(ms), k,
                      ms == XIRI_OK ? (int)mlen : 0, ms == XIRI_OK ? m : "");
        xiri_str_free(m);
    }
    for (p = 0; p < XIRI_PROFILE_COUNT; p++)
        for (b = 0; b < 2; b++)
            for (e = 0; e < 3; e++) {
                static struct run fast, slow;
                struct xiri_link l;
                enum xiri_status s1, s2;
                int w1, w2;

                test_href_link(&l, s, n, bases[b], p);
                memset(&fast, 0, sizeof(fast));
                memset(&slow, 0, sizeof(slow));
                fast.len = slow.len = n;
                s1 = linkcheck_run_path(ctx, encs[e], &l, collect, &fast, &w1,
                                        true);
                s2 = linkcheck_run_path(ctx, encs[e], &l, collect, &slow, &w2,
                                        false);
                st->runs++;
                if (s1 != s2 || w1 != w2 || !same_runs(&fast, &slow) ||
                    fast.bad)
                    TEST_FAIL("fast and full checks differ on \"%.*s\" "
                              "(profile %zu, base %s, encoding %s): %zu "
                              "findings (%s) against %zu (%s)",
                              (int)n, s, p, bases[b] ? bases[b] : "none",
                              encs[e] ? encs[e] : "none", fast.n,
                              fast.n ? fast.f[0].code : "-", slow.n,
                              slow.n ? slow.f[0].code : "-");
            }
}

static void plain_tsv_line(void *user, char **fields, int nfields, int lineno)
{
    int i;

    (void)lineno;
    for (i = 0; i < nfields; i++) {
        size_t n = test_unescape(fields[i]);
        plain_one(user, fields[i], n);
    }
}

/* Every "..." and '...' string and every run of text between tags of a
 * sample document, as written (references not decoded: more strings). */
static void plain_sample(struct plain_stats *st, const char *path)
{
    FILE *f = fopen(path, "rb");
    static char data[1 << 20];
    size_t n, i, j;

    if (!f) {
        TEST_FAIL("cannot read %s", path);
        return;
    }
    n = fread(data, 1, sizeof(data), f);
    fclose(f);
    for (i = 0; i < n; i++) {
        char end = data[i] == '"' ? '"' : data[i] == '\'' ? '\'' :
                   data[i] == '>' ? '<' : 0;
        if (!end)
            continue;
        for (j = i + 1; j < n && j - i < 4096 && data[j] != end; j++)
            ;
        if (j < n && data[j] == end) {
            size_t a = i + 1, e = j;
            plain_one(st, data + a, e - a);
            /* the text trimmed, like an element's content */
            while (a < e && strchr(" \t\r\n", data[a]))
                a++;
            while (e > a && strchr(" \t\r\n", data[e - 1]))
                e--;
            plain_one(st, data + a, e - a);
        }
    }
}

static void test_plain_fast_path(void)
{
    static const char *const hand[] = {
        "", "#", "##", "a#b#c", "?", "/", "//", "///", "a", "a/b?c#d",
        "http://a.example/b", "HTTP://a.example/", "hTtp://a/", "http://A/",
        "http://a.Example/", "http://a:80/", "http://a:/", "http://a:8080/",
        "http://u@a/", "http://@a/", "http://[::1]/", "http://[v1.x]/",
        "http://a.example/./b", "http://a/../b", "http://a/b/..",
        "http://a/b/.", "http://a/.b", "http://a/..b/", "http://a/.../",
        "./a", "../a", "a/./b", "a:b", "a/b:c", "./a:b", "1a:b", "+a:b",
        "mailto:x@y.example", "urn:isbn:0451450523", "tag:a,2024:b",
        "file:///tmp/x", "file://localhost/etc", "http://", "http:",
        "http:a", "http:/a", "data:text/plain,hi", "http://a_b.example/",
        "http://a!$&'()*+,;=b/", "http://a~b-c.d/", "//a.example/b",
        "//A.example/b", "///a", "a?b?c", "a?b/c#d?e/f", "?a=b&c=d;e",
        "a b", "a%20b", "a%2", "http://a/b c", "a\\b", "a|b", "a^b",
        "a`b", "a{b}", "a[b]", "a<b>", "a\"b", "http://a/%7e",
        "javascript:void(0)", "#top", "http://a.example/p?q#f#g",
        "http://a.example:/", "http://a.example:0080/",
    };
    struct plain_stats st;
    static const char *const samples[] = {
        "catalog.xml", "custom.xml", "custom.xsd", "euc-jp.html",
        "feed.atom", "feed.rss", "html4-base.html", "html5-media.html",
        "latin1.xml", "links.xhtml", "no-charset.html", "shift_jis.html",
        "sitemap-utf16le.xml", "stylesheet-utf16be.xsl", "trail-legend.svg",
        "windows-1252.html",
    };
    static const char *const tsv[] = {
        "check-cases.tsv", "check-messages.tsv", "display-jena.tsv",
        "display-seeds.tsv", "linkcheck-query-encoding.tsv", "map-jena.tsv",
        "map-rfc3987.tsv", "map-sources.tsv", "normalize-compare.tsv",
        "normalize-iri-string-resolve.tsv", "normalize-iri-string.tsv",
        "normalize-rfc.tsv", "normalize-rfc3986-python.tsv",
        "normalize-uriparser.tsv", "normalize-xiri.tsv",
        "parse-components.tsv", "parse-ip.tsv", "parse-jena.tsv",
        "parse-oxiri.tsv", "parse-path-kind.tsv", "parse-profiles.tsv",
        "parse-uriparser.tsv", "resolve-remove-dots.tsv",
        "resolve-resolution.tsv", "resolve-rfc3986.tsv",
        "resolve-special.tsv", "zld-examples.tsv", "zld-malformed.tsv",
    };
    size_t i;

    memset(&st, 0, sizeof(st));
    /* the byte table is the character classes of chars.c (RFC 3986 2),
     * and ':', '?', '@' and the upper-case letters marked */
    for (i = 0; i < 256; i++) {
        bool plain =
            i < 128 && (chars_ascii[i] & (CH_PCHAR | CH_SLASH | CH_QMARK));
        unsigned want = !plain                 ? LC_PLAIN_NOT
                        : i == ':'             ? LC_PLAIN_COLON
                        : i == '?'             ? LC_PLAIN_QMARK
                        : i == '@'             ? LC_PLAIN_AT
                        : i >= 'A' && i <= 'Z' ? LC_PLAIN_UPPER
                                               : 0;
        if (linkcheck_plain_class[i] != want)
            TEST_FAIL("linkcheck_plain_class[0x%02zX] is wrong", i);
    }
    for (i = 0; i < sizeof(hand) / sizeof(hand[0]); i++)
        plain_one(&st, hand[i], strlen(hand[i]));
    /* the near misses above that must not take the fast path */
    {
        static const char *const not_plain[] = {
            "##", "HTTP://a.example/", "http://A/", "http://a:80/",
            "http://a:/", "http://u@a/", "http://[::1]/", "http://a/../b",
            "http://a/b/.", "a:b" /* scheme: fine */, "1a:b", "a%20b",
            "a b", "a|b",
        };
        for (i = 0; i < sizeof(not_plain) / sizeof(not_plain[0]); i++) {
            struct ref r;
            const char *s = not_plain[i];
            ref_split(s, strlen(s), &r);
            if (strcmp(s, "a:b") == 0) {
                CU_ASSERT(linkcheck_plain(s, strlen(s), &r));
                CU_ASSERT(linkcheck_plain_split(s, strlen(s), &r));
            } else if (linkcheck_plain(s, strlen(s), &r) ||
                       linkcheck_plain_split(s, strlen(s), &r)) {
                TEST_FAIL("\"%s\" took the fast path", s);
            }
        }
    }
    for (i = 0; i < sizeof(tsv) / sizeof(tsv[0]); i++)
        test_read_tsv(tsv[i], plain_tsv_line, &st);
    for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/../../samples/%s", TEST_DATA_DIR,
                 samples[i]);
        plain_sample(&st, path);
    }
    /* the data must exercise both paths */
    CU_ASSERT(st.plain > 500);
    CU_ASSERT(st.strings - st.plain > 500);
    CU_ASSERT(st.split_checked > 1000);
    if (getenv("XIRI_TEST_VERBOSE"))
        fprintf(stderr, "plain: %lu strings, %lu plain, %lu runs compared\n",
                st.strings, st.plain, st.runs);
}

/* xiri_html_url: what the WHATWG basic URL parser reads in an HTML
 * attribute value before it parses (leading and trailing C0 controls and
 * spaces removed, tabs and newlines removed; '\' as '/' before the query
 * or fragment of a special URL; a file URL's drive letter "C|" as "C:";
 * a special URL's odd slashes as html_url_rfc_form spells them).
 * Expected strings by hand from the URL Standard 4.4; the inputs marked
 * WPT are from urltestdata.json, whose href shows the reading (e.g. "\x"
 * against http://example.org/foo/bar is http://example.org/x). */
static void test_html_url(void)
{
    static const struct {
        const char *in, *base, *want;
    } v[] = {
        {"\\x", "http://example.org/foo/bar", "/x"},                 /* WPT */
        {"\\\\x\\hello", "http://example.org/foo/bar", "//x/hello"}, /* WPT */
        {"http:\\\\foo.com\\", NULL, "http://foo.com/"},             /* WPT */
        {"http:\\\\a\\b:c\\d@foo.com\\", NULL, "http://a/b:c/d@foo.com/"},
        {"ws://a@b\\c", NULL, "ws://a@b/c"},          /* WPT */
        {"#\\", "http://example.org/foo/bar", "#\\"}, /* WPT */
        {"sc:\\../", NULL, "sc:\\../"},               /* WPT */
        {"file:c:\\foo\\bar.html", "file:///tmp/mock/path",
         "/c:/foo/bar.html"}, /* WPT (file:///c:/foo/bar.html) */
        {":foo.com\\", "http://example.org/foo/bar", ":foo.com/"}, /* WPT */
        {"h\ttt\np:\\\\x\\y", NULL, "http://x/y"},
        {"a\\b?c\\d#e\\f", "https://h/", "a/b?c\\d#e\\f"},
        {"a\\b", NULL, "a\\b"},      /* no base: not known to be special */
        {"a\\b", "urn:x:y", "a\\b"}, /* a base that is not special */
        {"HTTPS:\\\\h", NULL, "HTTPS://h"},
        {"httpsx:\\a", "http://h/", "httpsx:\\a"},
        {"1http:\\a", "http://h/", "1http:/a"}, /* no scheme: relative */
        {"a\tb\r\nc", NULL, "abc"},
        {"", "http://h/", ""},
        /* leading and trailing C0 controls and spaces removed */
        {"\x1b\x04\x12 http://example.com/\x1f \r ", NULL,
         "http://example.com/"},                                 /* WPT */
        {" foo.com  ", "http://example.org/foo/bar", "foo.com"}, /* WPT */
        {"non-special:opaque  ", NULL, "non-special:opaque"},    /* WPT */
        {"\x01"
         "a b\x7f",
         NULL, "a b\x7f"}, /* U+007F: no C0 control */
        /* a file URL's drive letter "C|" where the host or the first
         * path segment stands is "C:" (file host and path states) */
        {"  File:c|////foo\\bar.html", "file:///tmp/mock/path",
         "/c:////foo/bar.html"}, /* WPT (file:///c:////foo/bar.html) */
        {"/C|\\foo\\bar", "file:///tmp/mock/path", "/C:/foo/bar"},  /* WPT */
        {"//C|/foo/bar", "file:///tmp/mock/path", "///C:/foo/bar"}, /* WPT */
        {"/c|/foo/bar", "file:///c:/baz/qux", "/c:/foo/bar"},       /* WPT */
        {"C|a", "file://host/dir/file", "C|a"},                     /* WPT */
        {"file:///C|/x", NULL, "file:///C:/x"},
        {"file:///C|", NULL, "file:///C:"},
        {"file:///C|?q", NULL, "file:///C:?q"},
        {"file:////C|/x", NULL, "file:////C|/x"}, /* the first is empty */
        {"file:///x/C|/y", NULL, "file:///x/C|/y"},
        {"http://h/C|/x", NULL, "http://h/C|/x"},
        {"/C|/x", "http://h/", "/C|/x"}, /* not against a file base */
        /* (WPT: file:///C:/foo/bar: html_url_rfc_form's) */
        {"C|/foo/bar", "file:///tmp/mock/path", "/C:/foo/bar"},
        {"//host/C|/x", "file:///D:/w/p", "//host/C:/x"},
        {"file://host/C|/x", NULL, "file://host/C:/x"},
        /* a special scheme without "//": relative against a base of the
         * same scheme, else an authority after any slashes; three
         * slashes or more before an authority are two (resolved: below) */
        {"http:foo.com", "http://example.org/foo/bar", "foo.com"}, /* WPT */
        {"http:/example.com/", "http://example.org/foo/bar",
         "/example.com/"},                                         /* WPT */
        {"http:", "http://example.org/foo/bar", ""},               /* WPT */
        {"http::@c:29", "http://example.org/foo/bar", "./:@c:29"}, /* WPT */
        {"ftp:/example.com/", "http://example.org/foo/bar",
         "ftp://example.com/"}, /* WPT */
        {"https:example.com/", "http://example.org/foo/bar",
         "https://example.com/"}, /* WPT */
        {"wss:example.com/", "http://example.org/foo/bar",
         "wss://example.com/"},                       /* WPT */
        {"///test", "http://example.org/", "//test"}, /* WPT */
        {"///example.org/../path", "http://example.org/",
         "//example.org/../path"}, /* WPT */
        {"HTTP:///h/x", NULL, "HTTP://h/x"},
        {"http:///", NULL, "http:///"}, /* no host: browsers reject it */
        {"///test", "file:///tmp/mock/path", "///test"}, /* file: not */
        {"///x/", "sc://x/", "///x/"},        /* a base that is not special */
        {"file:x", "http://h/", "file:///x"}, /* file, path states */
        /* a relative rest that must not read as a scheme, or lose its
         * first byte when read again (WHATWG URL strips C0 and space at
         * the ends): "./" before it (fuzz_resolve) */
        {"http:\x01x", "http://h/d/", "./\x01x"},
        {"http: foo", "http://h/d/", "./ foo"},
        {"file:a:b", "file:///C:/w/", "./a:b"},
        {"foo:bar", "http://h/", "foo:bar"}, /* not special */
    };
    static const struct {
        const char *in, *base, *href;
    } r[] = {
        {"http:foo.com", "http://example.org/foo/bar",
         "http://example.org/foo/foo.com"},
        {"http:/example.com/", "http://example.org/foo/bar",
         "http://example.org/example.com/"},
        {"http:", "http://example.org/foo/bar", "http://example.org/foo/bar"},
        {"http::@c:29", "http://example.org/foo/bar",
         "http://example.org/foo/:@c:29"},
        {"ftp:/example.com/", "http://example.org/foo/bar",
         "ftp://example.com/"},
        {"https:example.com/", "http://example.org/foo/bar",
         "https://example.com/"},
        {"///test", "http://example.org/", "http://test"},
        {"///example.org/../path", "http://example.org/",
         "http://example.org/path"},
        {"C|/foo/bar", "file:///tmp/mock/path", "file:///C:/foo/bar"},
        /* a dot segment written "%2e" (WPT; path state) */
        {"http://example.com/foo/%2e", "http://h/", "http://example.com/foo/"},
        {"http://example.com/foo/%2e%2", "http://h/",
         "http://example.com/foo/%2e%2"},
        {"http://example.com/foo/%2e./%2e%2e/.%2e/%2e.bar", "http://h/",
         "http://example.com/%2e.bar"},
        {"http://www/foo%2Ehtml", "http://h/", "http://www/foo%2Ehtml"},
        {"http://www/foo/%2E/html", "http://h/", "http://www/foo/html"},
        {"https://example.com/aaa/bbb/%2e%2e?query", "http://h/",
         "https://example.com/aaa/?query"},
        /* (Node 20's new URL()) */
        {"%2e%2e/x", "http://h/a/b/c", "http://h/a/x"},
        {"x/%2e%2e?%2e%2e#%2e%2e", "http://h/a/b/c",
         "http://h/a/b/?%2e%2e#%2e%2e"},
        {"%2e%2e%2e/x", "http://h/a/b/c", "http://h/a/b/%2e%2e%2e/x"},
        {"%2f%2e%2e/x", "http://h/a/b/c", "http://h/a/b/%2f%2e%2e/x"},
        {"http:%2e%2e/x", "http://h/a/b/c", "http://h/a/x"},
        {"%2e%2e/x", "sc://h/a/b", "sc://h/x"},
        {"mailto:%2e%2e", "http://h/", "mailto:%2e%2e"}, /* opaque */
        /* a file URL's drive letter stays (WPT; file states) */
        {"..", "file:///C:/", "file:///C:/"},
        {"/", "file:///C:/a/b", "file:///C:/"},
        {"/", "file://h/C:/a/b", "file://h/C:/"},
        {"//d:", "file:///C:/a/b", "file:///d:"},
        {"//d:/..", "file:///C:/a/b", "file:///d:/"},
        {"..", "file://x/C:/", "file://x/C:/"},
        {"//C|/foo/bar", "file:///tmp/mock/path", "file:///C:/foo/bar"},
        {"file:c:\\foo\\bar.html", "file:///tmp/mock/path",
         "file:///c:/foo/bar.html"},
        {"  File:c|////foo\\bar.html", "file:///tmp/mock/path",
         "file:///c:////foo/bar.html"},
        /* (Node 20's new URL()) */
        {"../../../y", "file:///C:/w/x/", "file:///C:/y"},
        {"/../z", "file:///C:/w/x/", "file:///C:/z"},
        {"/D:/../z", "file:///C:/w/x/", "file:///D:/z"},
        {"//h/C:/../x", "file:///C:/w/x/", "file://h/C:/x"},
        {"a/../../../../b?q#f", "file:///C:/w/x/", "file:///C:/b?q#f"},
        {"%2e%2e/%2e%2e/%2e%2e/q", "file:///C:/w/x/", "file:///C:/q"},
        {"x", "file:///C:", "file:///C:/x"},
        {"file:x", "file:///C:/w/", "file:///C:/w/x"},
        {"file:/x", "file:///tmp/w/", "file:///x"},
        {"file:x", "http://h/w/", "file:///x"},
        {"file:/C:/../x", "http://h/w/", "file:///C:/x"},
        {"file:?q", "http://h/w/", "file:///?q"},
        {"../../../x", "file:///tmp/a/b", "file:///x"}, /* no drive */
        {"file:a:b", "file:///C:/w/", "file:///C:/w/a:b"},
        {"file:c:x", "file:///C:/w/", "file:///C:/w/c:x"}, /* no drive */
        /* a drive where the host stands, "e:" as "e|": the path's first
         * segment, and the next one no drive (fuzz_resolve) */
        {"//e:/L|", "file:///d/", "file:///e:/L|"},
        {"//e|/L|", "file:///d/", "file:///e:/L|"},
        /* a special URL has no opaque path: its "%2e" segments count
         * when no "/" follows the scheme (fuzz_resolve) */
        {"file:x/%2e%2e/y", "http://h/", "file:///y"},
        {"file:%2e%2e/y", "file:///C:/w/v/", "file:///C:/w/y"},
    };
    size_t i;
    char *out = NULL;
    size_t n = 0;

    for (i = 0; i < ARRAY_LEN(v); i++) {
        enum xiri_status st =
            xiri_html_url(v[i].in, strlen(v[i].in), v[i].base, &out, &n);

        if (st != XIRI_OK) {
            TEST_FAIL("%s: %s", v[i].in, xiri_strerror(st));
            continue;
        }
        TEST_STR_EQ(v[i].in, out, v[i].want);
        CU_ASSERT_EQUAL(n, strlen(v[i].want));
        xiri_str_free(out);
    }
    /* the odd slashes above, resolved by xiri_resolve: WPT's href, but
     * for the '/' it gives an empty path (http://test/); and dot segments
     * written "%2e" and file URLs' drive letters, as browsers read them */
    for (i = 0; i < ARRAY_LEN(r); i++) {
        char *t = NULL;
        size_t tn;

        CU_ASSERT_EQUAL_FATAL(xiri_html_url(r[i].in, strlen(r[i].in),
                                            r[i].base, &out, &n),
                              XIRI_OK);
        CU_ASSERT_EQUAL(xiri_resolve(r[i].base, strlen(r[i].base), out, n,
                                     XIRI_PROFILE_HTML, &t, &tn, NULL),
                        XIRI_OK);
        TEST_STR_EQ(r[i].in, t ? t : "", r[i].href);
        xiri_str_free(t);
        xiri_str_free(out);
    }
    CU_ASSERT_EQUAL(xiri_html_url(NULL, 1, NULL, &out, &n), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_html_url("a", 1, NULL, NULL, &n), XIRI_EINVAL);
}

/* ------------------------------------------------------------------ */
/* xiri_link_resolve against the wpt URL vectors                       */

struct wpt_resolve {
    int ok, fail, same; /* rows, and successes giving wpt's href */
    int checked;        /* rows xiri_check_link agreed on */
};

/* Whether s holds a bidi formatting character (U+200E, U+200F,
 * U+202A-202E, U+2066-2069, in UTF-8 E2 80 8E/8F, E2 80 AA-AE, E2 81
 * A6-A9): RFC 3987 4.1 forbids them, browsers do not. */
static bool has_bidi_format(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    for (; *p; p++)
        if (p[0] == 0xE2 && p[1] &&
            ((p[1] == 0x80 && (p[2] == 0x8E || p[2] == 0x8F ||
                               (p[2] >= 0xAA && p[2] <= 0xAE))) ||
             (p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)))
            return true;
    return false;
}

/* Whether s starts with a scheme (RFC 3986 3.1) and its ':'. */
static bool has_scheme(const char *s)
{
    size_t i = 0;

    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    while ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
           (s[i] >= '0' && s[i] <= '9') || s[i] == '+' || s[i] == '-' ||
           s[i] == '.')
        i++;
    return s[i] == ':';
}

/* xiri_check_link reports an error where browsers fail to parse the
 * link against its base, and none where they succeed; not so for a bidi
 * formatting character, an error by design (has_bidi_format), nor for
 * a relative reference without a base (no-base, a warning: a document
 * always has a base). */
static void wpt_check_line(struct wpt_resolve *w, const struct xiri_link *l,
                           bool fail, int lineno)
{
    struct run r;
    int worst = -3;

    if ((!l->base && !has_scheme(l->value)) || has_bidi_format(l->value))
        return;
    memset(&r, 0, sizeof(r));
    r.len = l->value_len;
    CU_ASSERT_EQUAL(xiri_check_link(ctx, NULL, l, collect, &r, &worst),
                    XIRI_OK);
    if ((worst == (int)XIRI_SEV_ERROR) == fail)
        w->checked++;
    else
        TEST_FAIL("resolve-html-wpt.tsv:%d: \"%s\" against %s: wpt says %s, "
                  "xiri_check_link reports %s",
                  lineno, l->value, l->base, fail ? "failure" : "success",
                  worst == (int)XIRI_SEV_ERROR ? "an error" : "no error");
}

/* One line of resolve-html-wpt.tsv: the input as an <a href> under the
 * html profile, against the base.  Where wpt's URL parser succeeds, the
 * link must resolve; where it fails, xiri_link_resolve must fail. */
static void wpt_resolve_line(void *user, char **fields, int nfields, int lineno)
{
    struct wpt_resolve *w = user;
    struct xiri_link l;
    struct xiri_error err;
    enum xiri_status st;
    char *out = NULL, *uri = NULL;
    size_t n, len = 0, ulen;
    bool fail;

    if (nfields < 3) {
        TEST_FAIL("resolve-html-wpt.tsv:%d: malformed line", lineno);
        return;
    }
    fail = strcmp(fields[2], "fail") == 0;
    n = test_unescape(fields[0]);
    if (strcmp(fields[1], "-") != 0)
        test_unescape(fields[1]);
    test_unescape(fields[2]);
    test_href_link(&l, fields[0], n,
                   strcmp(fields[1], "-") != 0 ? fields[1] : NULL,
                   XIRI_PROFILE_HTML);
    wpt_check_line(w, &l, fail, lineno);
    st = xiri_link_resolve(ctx, &l, &out, &len, &err);
    if ((st == XIRI_OK) == fail) {
        TEST_FAIL("resolve-html-wpt.tsv:%d: \"%s\" against %s: wpt says %s, "
                  "xiri_link_resolve %s (%s)",
                  lineno, fields[0], fields[1], fail ? "failure" : fields[2],
                  st == XIRI_OK ? "resolves it" : "fails",
                  st == XIRI_OK ? out : err.message);
    } else if (st == XIRI_OK) {
        CU_ASSERT_EQUAL(out[len], '\0'); /* NUL-ended (a NUL may be in it) */
        if (xiri_to_uri(ctx, out, len, XIRI_IDN_PUNYCODE,
                        XIRI_MAP_DNS_ONLY | XIRI_MAP_ESCAPE_LEIRI, &uri, &ulen,
                        NULL) == XIRI_OK &&
            strcmp(uri, fields[2]) == 0)
            w->same++;
    } else {
        CU_ASSERT_PTR_NULL(out);
        CU_ASSERT(st == XIRI_ESYNTAX || st == XIRI_ENOTABS);
    }
    if (fail)
        w->fail++;
    else
        w->ok++;
    xiri_str_free(out);
    xiri_str_free(uri);
}

static void test_link_resolve_wpt(void)
{
    struct wpt_resolve w;

    memset(&w, 0, sizeof(w));
    CU_ASSERT(test_read_tsv("resolve-html-wpt.tsv", wpt_resolve_line, &w) > 0);
    /* 624 successes and 267 failures */
    CU_ASSERT(w.ok >= 620);
    CU_ASSERT(w.fail >= 265);
    /* where browsers succeed, the URI of the resolution is wpt's href
     * byte for byte in 463 cases; the others differ in WHATWG's
     * serialization only (default ports dropped, hosts in lower case,
     * IPv4 and IPv6 addresses in canonical form, "/" for an empty path,
     * its percent-encode sets), which xiri_link_resolve does not apply, or
     * their URI fails (html-only characters: a '%' without two hex
     * digits, '[' ']' outside the host, noncharacters) */
    CU_ASSERT(w.same >= 463);
    /* 882 rows have a base or a scheme; one holds bidi characters */
    CU_ASSERT(w.checked >= 880);
}

/* xiri_link_resolve on hand-built links: what RFC 3986 5.2 and the
 * WHATWG URL parser give (checked with Node 20's new URL()). */
static void test_link_resolve(void)
{
    static const struct {
        const char *value, *base;
        int profile;
        enum xiri_status st;
        const char *out;
    } v[] = {
        /* RFC 3986 5.4.1 */
        {"../g", "http://a/b/c/d;p?q", XIRI_PROFILE_LEIRI, XIRI_OK,
         "http://a/b/g"},
        /* a reference with a scheme needs no base; its dots go */
        {"http://h/a/../b", NULL, XIRI_PROFILE_LEIRI, XIRI_OK, "http://h/b"},
        {"g", NULL, XIRI_PROFILE_LEIRI, XIRI_ENOTABS, NULL},
        /* an opaque path: browsers keep it, RFC 3986 removes dots */
        {"data:text/plain,a/../b", NULL, XIRI_PROFILE_HTML, XIRI_OK,
         "data:text/plain,a/../b"},
        {"data:text/plain,a/../b", NULL, XIRI_PROFILE_LEIRI, XIRI_OK,
         "data:text/b"},
        /* browsers: a tab is removed, '\\' is '/', "%2e" is "." */
        {"a\tb\\%2e/c", "http://h/d/", XIRI_PROFILE_HTML, XIRI_OK,
         "http://h/d/ab/c"},
        /* a relative reference against a base with an opaque path */
        {"c", "mailto:x@example.org", XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        {"#c", "mailto:x@example.org", XIRI_PROFILE_HTML, XIRI_OK,
         "mailto:x@example.org#c"},
        {"c", "mailto:x@example.org", XIRI_PROFILE_LEIRI, XIRI_OK, "mailto:c"},
        /* no host, a bad port, a bad host, a bad IPv4 address */
        {"//", "http://h/", XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        {"http://h:99999/", NULL, XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        {"http://ex<ample/", NULL, XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        {"http://1.2.3.4.5./", NULL, XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        {"http://a%b/", NULL, XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        {"sc://a%b/", NULL, XIRI_PROFILE_HTML, XIRI_OK, "sc://a%b/"},
        {"sc://:12/", NULL, XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        /* a special scheme without "//": relative against a base of the
         * same scheme, with a host (here none, or a control character)
         * against another */
        {"https:", "http://h/d/", XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        {"http:", "http://h/d/", XIRI_PROFILE_HTML, XIRI_OK, "http://h/d/"},
        {"http:\x1f//a/b", "sc://h/", XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        {"http:a/b", "sc://h/", XIRI_PROFILE_HTML, XIRI_OK, "http://a/b"},
        /* three slashes: the host is after them */
        {"///|/y", "http://h/", XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        /* leading and trailing C0 controls and spaces are no part of an
         * HTML link; without a base, a relative one has no target */
        {" \x01http://h/a ", NULL, XIRI_PROFILE_HTML, XIRI_OK, "http://h/a"},
        {"//h:99999/", NULL, XIRI_PROFILE_HTML, XIRI_ENOTABS, NULL},
        {"g", NULL, XIRI_PROFILE_HTML, XIRI_ENOTABS, NULL},
        /* IDNA as browsers run it: hyphens, '_' and long labels pass */
        {"http://\xC3\xA9-/", NULL, XIRI_PROFILE_HTML, XIRI_OK,
         "http://\xC3\xA9-/"},
        {"http://\xC3\xA9_b/", NULL, XIRI_PROFILE_HTML, XIRI_OK,
         "http://\xC3\xA9_b/"},
        {"https://\xC2\xAD/", NULL, XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        /* a file URL's host "localhost" is the empty host */
        {"file://LocalHost/a/../b", NULL, XIRI_PROFILE_HTML, XIRI_OK,
         "file:///b"},
        {"//localhost/x", "file:///C:/w/", XIRI_PROFILE_HTML, XIRI_OK,
         "file:///x"},
        {"//localhost/x", "http://h/", XIRI_PROFILE_HTML, XIRI_OK,
         "http://localhost/x"},
        {"file://localhostx/y", NULL, XIRI_PROFILE_HTML, XIRI_OK,
         "file://localhostx/y"},
        {"file://localhost/x", NULL, XIRI_PROFILE_LEIRI, XIRI_OK,
         "file://localhost/x"},
        /* a network-path reference takes the base's scheme: against an
         * http base its host is a domain, where a control character is
         * forbidden (not so in an opaque host) */
        {"//a\x14"
         "b/",
         "http://h/", XIRI_PROFILE_HTML, XIRI_ESYNTAX, NULL},
        {"//a\x14"
         "b/",
         "sc://h/", XIRI_PROFILE_HTML, XIRI_OK,
         "sc://a\x14"
         "b/"},
    };
    size_t i;

    for (i = 0; i < ARRAY_LEN(v); i++) {
        struct xiri_link l;
        char *out = NULL;
        size_t len = 0;
        enum xiri_status st;

        test_href_link(&l, v[i].value, strlen(v[i].value), v[i].base,
                       v[i].profile);
        st = xiri_link_resolve(ctx, &l, &out, &len, NULL);
        CU_ASSERT_EQUAL(st, v[i].st);
        if (st != v[i].st)
            TEST_FAIL("xiri_link_resolve(\"%s\", %s): status %d", v[i].value,
                      v[i].base ? v[i].base : "no base", (int)st);
        if (v[i].out)
            TEST_STR_EQ(v[i].value, out, v[i].out);
        else
            CU_ASSERT_PTR_NULL(out);
        xiri_str_free(out);
    }
    {
        struct xiri_link l;
        char dummy[] = "x", *out = dummy;

        test_href_link(&l, "a", 1, NULL, XIRI_PROFILE_HTML);
        CU_ASSERT_EQUAL(xiri_link_resolve(NULL, &l, &out, NULL, NULL),
                        XIRI_EINVAL);
        CU_ASSERT_PTR_NULL(out);
        CU_ASSERT_EQUAL(xiri_link_resolve(ctx, NULL, &out, NULL, NULL),
                        XIRI_EINVAL);
        CU_ASSERT_EQUAL(xiri_link_resolve(ctx, &l, NULL, NULL, NULL),
                        XIRI_EINVAL);
    }
}

int suite_linkcheck_register(void)
{
    CU_pSuite s = CU_add_suite("linkcheck", suite_init, suite_clean);

    if (!s || !CU_add_test(s, "query vectors (wpt)", test_query_vectors) ||
        !CU_add_test(s, "query encoding API", test_query_api) ||
        !CU_add_test(s, "query converters kept in a context",
                     test_query_ctx_reset) ||
        !CU_add_test(s, "windows-1252 table", test_cp1252) ||
        !CU_add_test(s, "document-level findings", test_link_cases) ||
        !CU_add_test(s, "engine findings forwarded", test_forwarding) ||
        !CU_add_test(s, "usemap: hash-name references", test_hash_name) ||
        !CU_add_test(s, "network-path references", test_network_path) ||
        !CU_add_test(s, "the authority as browsers read it",
                     test_hidden_host) ||
        !CU_add_test(s, "no walker", test_no_walker) ||
        !CU_add_test(s, "query encoding of rendered XML",
                     test_query_rendered) ||
        !CU_add_test(s, "API contract", test_contract) ||
        !CU_add_test(s, "callback stops", test_stop) ||
        !CU_add_test(s, "out of memory", test_oom) ||
        !CU_add_test(s, "fast path for plain links", test_plain_fast_path) ||
        !CU_add_test(s, "xiri_html_url", test_html_url) ||
        !CU_add_test(s, "xiri_link_resolve", test_link_resolve) ||
        !CU_add_test(s, "xiri_link_resolve (wpt)", test_link_resolve_wpt))
        return -1;
    return 0;
}

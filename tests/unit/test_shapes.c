/* test_shapes.c - the shapes suite: shape_split() on a table of values
 * whose items (exact byte ranges) were derived by hand from XSD 1.0 part 2
 * (anyURI, list types) and the HTML Living Standard ("parse a srcset
 * attribute", "shared declarative refresh steps"); the pseudo-attributes
 * of processing instructions (Associating Style Sheets with XML
 * documents 1.0, Second Edition, section 2). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "buf.h"
#include "helpers.h"
#include "pseudoattr.h"
#include "shapes.h"
#include "srcset.h"
#include "cssurl.h"
#include "suites.h"

#define MAX_ITEMS 6

struct item {
    size_t start;
    const char *text; /* NULL ends the list */
};

struct shape_case {
    enum xiri_shape shape;
    const char *value;
    struct item items[MAX_ITEMS];
    const char *why;
};

/* Positions counted by hand from the value as written in C. */
static const struct shape_case cases[] = {
    /* XIRI_SHAPE_IRI: XSD anyURI whiteSpace=collapse strips XML
     * whitespace at both ends; one item always */
    {XIRI_SHAPE_IRI, "http://a/b", {{0, "http://a/b"}}, "plain"},
    {XIRI_SHAPE_IRI, "  http://a/ \t\r\n", {{2, "http://a/"}}, "trimmed"},
    {XIRI_SHAPE_IRI, "", {{0, ""}}, "empty: same-document reference"},
    {XIRI_SHAPE_IRI, " \t ", {{3, ""}}, "blank: one empty item"},
    {XIRI_SHAPE_IRI, "a b", {{0, "a b"}}, "inner space kept"},
    {XIRI_SHAPE_IRI, "\fa\f", {{0, "\fa\f"}}, "FF is not XML whitespace"},
    {XIRI_SHAPE_IRI, "\n\xC3\xA9\n", {{1, "\xC3\xA9"}}, "non-ASCII"},

    /* XIRI_SHAPE_LIST: XSD 1.0 part 2 3.3.1.3, runs of non-whitespace */
    {XIRI_SHAPE_LIST, "a b  c", {{0, "a"}, {2, "b"}, {5, "c"}}, "three"},
    {XIRI_SHAPE_LIST, "", {{0, NULL}}, "empty list"},
    {XIRI_SHAPE_LIST, "  \n", {{0, NULL}}, "blank list"},
    {XIRI_SHAPE_LIST,
     "\thttp://x/ http://y/\r\n",
     {{1, "http://x/"}, {11, "http://y/"}},
     "tab, CR LF"},
    {XIRI_SHAPE_LIST,
     "urn:ns a.xsd",
     {{0, "urn:ns"}, {7, "a.xsd"}},
     "xsi:schemaLocation pair"},
    {XIRI_SHAPE_LIST, "a\fb", {{0, "a\fb"}}, "FF does not separate"},
    {XIRI_SHAPE_LIST, "a,b c", {{0, "a,b"}, {4, "c"}}, "comma is data"},

    /* XIRI_SHAPE_SRCSET: HTML "parse a srcset attribute" */
    {XIRI_SHAPE_SRCSET,
     "a.png 1x, b.png 2x",
     {{0, "a.png"}, {10, "b.png"}},
     "two candidates"},
    {XIRI_SHAPE_SRCSET,
     "a,b.png 1x",
     {{0, "a,b.png"}},
     "a URL runs up to whitespace, commas included"},
    {XIRI_SHAPE_SRCSET,
     "data:image/png;base64,xxx 1x",
     {{0, "data:image/png;base64,xxx"}},
     "data: URL with a comma"},
    {XIRI_SHAPE_SRCSET,
     "data:image/png;base64,xxx 1x, b.png 2x",
     {{0, "data:image/png;base64,xxx"}, {30, "b.png"}},
     "data: URL then a second candidate"},
    {XIRI_SHAPE_SRCSET,
     "a.png,b.png",
     {{0, "a.png,b.png"}},
     "no whitespace: one URL"},
    {XIRI_SHAPE_SRCSET,
     "a.png, b.png",
     {{0, "a.png"}, {7, "b.png"}},
     "trailing comma of the URL removed"},
    {XIRI_SHAPE_SRCSET,
     "a.png,,, b.png",
     {{0, "a.png"}, {9, "b.png"}},
     "all trailing commas removed"},
    {XIRI_SHAPE_SRCSET,
     "a.png,, ,b.png",
     {{0, "a.png"}, {9, "b.png"}},
     "splitting loop skips whitespace and commas"},
    {XIRI_SHAPE_SRCSET, ", , a.png", {{4, "a.png"}}, "leading commas"},
    {XIRI_SHAPE_SRCSET, "", {{0, NULL}}, "empty"},
    {XIRI_SHAPE_SRCSET, " , , ", {{0, NULL}}, "only empty candidates"},
    {XIRI_SHAPE_SRCSET,
     "a.png 1x,b.png 2x",
     {{0, "a.png"}, {9, "b.png"}},
     "comma ends the descriptors"},
    {XIRI_SHAPE_SRCSET,
     "a.png (1x, foo) 2x, b.png",
     {{0, "a.png"}, {20, "b.png"}},
     "comma inside parentheses does not end the candidate"},
    {XIRI_SHAPE_SRCSET,
     "a.png foo(a,b) 1x, c.png",
     {{0, "a.png"}, {19, "c.png"}},
     "parentheses inside a descriptor"},
    {XIRI_SHAPE_SRCSET,
     "a.png (1x, b.png 2x",
     {{0, "a.png"}},
     "unclosed parenthesis runs to the end"},
    {XIRI_SHAPE_SRCSET,
     "a.png, 1x",
     {{0, "a.png"}, {7, "1x"}},
     "after a URL ending in ',' the next token is a URL"},
    {XIRI_SHAPE_SRCSET,
     "\ta.png\f1x",
     {{1, "a.png"}},
     "FF is ASCII whitespace in HTML"},
    {XIRI_SHAPE_SRCSET,
     "\xC3\xA9.png 1x, b.png",
     {{0, "\xC3\xA9.png"}, {11, "b.png"}},
     "non-ASCII URL"},
    {XIRI_SHAPE_SRCSET,
     "a.png 1x 2x, b.png",
     {{0, "a.png"}, {13, "b.png"}},
     "invalid descriptors: the URL is still a link"},
    {XIRI_SHAPE_SRCSET, "a.png   ", {{0, "a.png"}}, "trailing whitespace"},
    {XIRI_SHAPE_SRCSET,
     "a.png 100w, b.png 200w,c.png",
     {{0, "a.png"}, {12, "b.png"}, {23, "c.png"}},
     "width descriptors"},

    /* XIRI_SHAPE_REFRESH: HTML "shared declarative refresh steps" */
    {XIRI_SHAPE_REFRESH, "5; url=foo", {{7, "foo"}}, "usual form"},
    {XIRI_SHAPE_REFRESH,
     "0;URL='a b'",
     {{7, "a b"}},
     "upper case, quoted with a space"},
    {XIRI_SHAPE_REFRESH, "3", {{0, NULL}}, "time only: no URL"},
    {XIRI_SHAPE_REFRESH,
     "1.5, url = x",
     {{11, "x"}},
     "fraction, comma, spaces around '='"},
    {XIRI_SHAPE_REFRESH,
     " 0 ; foo",
     {{5, "foo"}},
     "a URL without \"url=\" is taken"},
    {XIRI_SHAPE_REFRESH,
     "5;url=\"http://a/?b\"c",
     {{7, "http://a/?b"}},
     "a quote ends at its match"},
    {XIRI_SHAPE_REFRESH, "5; url='a", {{8, "a"}}, "unmatched quote"},
    {XIRI_SHAPE_REFRESH,
     "5; urx",
     {{3, "urx"}},
     "not \"url\": the whole remainder"},
    {XIRI_SHAPE_REFRESH, "5; u", {{3, "u"}}, "lone 'u'"},
    {XIRI_SHAPE_REFRESH, "5; url", {{3, "url"}}, "\"url\" without '='"},
    {XIRI_SHAPE_REFRESH,
     "5; url foo",
     {{3, "url foo"}},
     "no '=' after \"url\": the remainder from \"url\""},
    {XIRI_SHAPE_REFRESH, "5; url=", {{7, ""}}, "empty URL: the document's own"},
    {XIRI_SHAPE_REFRESH, "5;", {{0, NULL}}, "separator only"},
    {XIRI_SHAPE_REFRESH, "5; ", {{0, NULL}}, "separator and space"},
    {XIRI_SHAPE_REFRESH, "x; url=foo", {{0, NULL}}, "no time: nothing"},
    {XIRI_SHAPE_REFRESH,
     "5x; url=foo",
     {{0, NULL}},
     "bad character after the time"},
    {XIRI_SHAPE_REFRESH, ".5; url=a", {{8, "a"}}, "time starting with '.'"},
    {XIRI_SHAPE_REFRESH, "5 url=foo", {{6, "foo"}}, "whitespace as separator"},
    {XIRI_SHAPE_REFRESH,
     "5;'foo'",
     {{3, "foo"}},
     "quoted URL without \"url=\""},
    {XIRI_SHAPE_REFRESH,
     "5; URL = 'x' ",
     {{10, "x"}},
     "text after the closing quote dropped"},
    {XIRI_SHAPE_REFRESH,
     "5; url=foo  ",
     {{7, "foo"}},
     "trailing whitespace trimmed"},
    {XIRI_SHAPE_REFRESH, "", {{0, NULL}}, "empty"},
    {XIRI_SHAPE_REFRESH, "   ", {{0, NULL}}, "blank"},
    {XIRI_SHAPE_REFRESH,
     "5,,url=x",
     {{2, ",url=x"}},
     "only one separator is consumed"},
    {XIRI_SHAPE_REFRESH, "5;\turl=foo", {{7, "foo"}}, "tab"},
    {XIRI_SHAPE_REFRESH, "5 ; 'a b' ", {{5, "a b"}}, "quoted, spaces"},
    {XIRI_SHAPE_REFRESH, "\f5;url=a", {{7, "a"}}, "leading FF"},
    {XIRI_SHAPE_REFRESH, "5;URL=\xC3\xA9", {{6, "\xC3\xA9"}}, "non-ASCII"},

    /* XIRI_SHAPE_HASH_NAME: HTML LS "rules for parsing a hash-name
     * reference" strip nothing: the whole value, one item */
    {XIRI_SHAPE_HASH_NAME, "#map", {{0, "#map"}}, "usemap"},
    {XIRI_SHAPE_HASH_NAME, " #m\t", {{0, " #m\t"}}, "white space kept"},
    {XIRI_SHAPE_HASH_NAME, "", {{0, ""}}, "empty: one empty item"},
    /* CSS: the url()s as CSS Syntax Level 3 section 4 tokenizes the
     * text (offsets counted by hand) */
    {XIRI_SHAPE_CSS,
     "background: url(a.png) no-repeat",
     {{16, "a.png"}},
     "an unquoted url()"},
    {XIRI_SHAPE_CSS,
     "background-image:URL( \"b c.png\" )",
     {{23, "b c.png"}},
     "4.3.4: any case; white space, then a string: its text"},
    {XIRI_SHAPE_CSS,
     "content:'url(x)';b:url(y)",
     {{23, "y"}},
     "4.3.5: no url() inside a string"},
    {XIRI_SHAPE_CSS,
     "/* url(x) */ x:url( y )",
     {{20, "y"}},
     "4.3.2: none in a comment; 4.3.6: white space around the URL"},
    {XIRI_SHAPE_CSS,
     "a:url(my photo.png), url(b)",
     {{25, "b"}},
     "4.3.6: a bad URL is no item, and ends at its ')'"},
    {XIRI_SHAPE_CSS,
     "a:url(a\\)b.png) url(c)",
     {{20, "c"}},
     "4.3.7: an escaped URL is no item; its '\\)' ends nothing"},
    {XIRI_SHAPE_CSS,
     "a:\\75 rl(x.png)",
     {{9, "x.png"}},
     "4.3.7: \\75 and a space are 'u': the name is \"url\""},
    {XIRI_SHAPE_CSS, "u\\rl(x)", {{5, "x"}}, "4.3.7: \\r is 'r'"},
    {XIRI_SHAPE_CSS,
     "a:myurl(x) #url(x) @url(x) 1url(x) -url(x)",
     {{0}},
     "4.3.1: a function of another name, a hash, an at-keyword, a "
     "dimension, an ident \"-url\""},
    {XIRI_SHAPE_CSS,
     "+url(x) 1.url(y)",
     {{5, "x"}, {14, "y"}},
     "4.3.1: '+' and '.' are delimiters here, and \"1\" a number"},
    {XIRI_SHAPE_CSS,
     "fill:url(a.png",
     {{9, "a.png"}},
     "4.3.6: the end of the text ends it"},
    {XIRI_SHAPE_CSS,
     "url() url(\"\") url(' ')",
     {{0}},
     "empty URLs (CSS Values 4: they refer to nothing) are none"},
    {XIRI_SHAPE_CSS,
     "url('a.png' crossorigin(anonymous)) url(#g)",
     {{5, "a.png"}, {40, "#g"}},
     "a string with url modifiers (CSS Values 4); a fragment"},
    {XIRI_SHAPE_CSS, "color: red", {{0}}, "no url()"},
    {XIRI_SHAPE_CSS,
     "--x:<!--url(a'b); background:url(c.png)",
     {{33, "c.png"}},
     "4.3.1: \"<!--\" is a CDO token, then a bad URL, then c.png"},
    /* CSS Images Module Level 4, "the image-set() notation": a string
     * option is a URL; not one in a function inside it (type(), another
     * image-set()), nor one after it; the name is a function's only when
     * '(' follows at once (4.3.4) */
    {XIRI_SHAPE_CSS,
     "background:image-set(\"a.png\" 1x, url(b.png) 2x)",
     {{22, "a.png"}, {37, "b.png"}},
     "image-set(): a string and a url()"},
    {XIRI_SHAPE_CSS,
     "-WEBKIT-Image-Set('c.png' type(\"image/avif\"), \"d.png\")",
     {{19, "c.png"}, {47, "d.png"}},
     "-webkit-image-set() in any case; type()'s string is no URL"},
    {XIRI_SHAPE_CSS,
     "x:\"e.png\" my-image-set(\"f\") image-set (\"g\") image-setx(\"h\")",
     {{0}},
     "strings outside image-set(): an ident, other functions"},
    {XIRI_SHAPE_CSS,
     "a:image-set(\"i\"), \"j\"",
     {{13, "i"}},
     "the string after the image-set() is none"},
    {XIRI_SHAPE_CSS,
     "a:image-set(linear-gradient(red,blue) 1x, image-set(\"k\") 2x, \"l\")",
     {{62, "l"}},
     "a gradient's parentheses; an image-set() inside another is none"},
    {XIRI_SHAPE_CSS,
     "a:image-set(url(\"a\") 1x, \"b\" 2x)",
     {{17, "a"}, {26, "b"}},
     "a quoted url(): its ')' closes it, not the image-set() (review)"},
    {XIRI_SHAPE_CSS,
     "a:image-set(URL( 'c' ) 1x,'d')",
     {{18, "c"}, {27, "d"}},
     "the same, white space around the string"},
    {XIRI_SHAPE_CSS,
     "a:image-set(cross-fade(url(\"f.png\"), url(g.png)) 1x, \"h.png\" 2x)",
     {{28, "f.png"}, {41, "g.png"}, {54, "h.png"}},
     "url()s inside a function inside the image-set()"},
    {XIRI_SHAPE_CSS,
     "a:image-set(url(i i) 1x, \"j.png\" 2x)",
     {{0}},
     "after a bad URL nothing of the declaration is loaded"},
    {XIRI_SHAPE_CSS,
     "a:\\69mage-set(\"r\")",
     {{15, "r"}},
     "4.3.7: \\69 is 'i': the function is image-set()"},
};

struct got {
    size_t start[MAX_ITEMS + 2];
    size_t len[MAX_ITEMS + 2];
    unsigned n;
    bool bad_index;
    unsigned stop_at; /* return non-zero at this index + 1; 0: never */
};

static int collect(void *user, size_t start, size_t len, unsigned index)
{
    struct got *g = user;

    if (index != g->n)
        g->bad_index = true;
    if (g->n < MAX_ITEMS + 2) {
        g->start[g->n] = start;
        g->len[g->n] = len;
    }
    g->n++;
    return g->stop_at && g->n >= g->stop_at;
}

static void test_table(void)
{
    size_t i, k, want_n, n;
    unsigned ret;

    for (i = 0; i < ARRAY_LEN(cases); i++) {
        const struct shape_case *c = &cases[i];
        struct got g;
        bool ok = true;

        memset(&g, 0, sizeof(g));
        n = strlen(c->value);
        ret = shape_split(c->shape, c->value, n, collect, &g);
        for (want_n = 0; want_n < MAX_ITEMS && c->items[want_n].text; want_n++)
            ;
        if (ret != g.n || g.n != want_n || g.bad_index)
            ok = false;
        for (k = 0; ok && k < want_n; k++) {
            const struct item *it = &c->items[k];
            if (g.start[k] != it->start || g.len[k] != strlen(it->text) ||
                g.start[k] + g.len[k] > n ||
                memcmp(c->value + g.start[k], it->text, g.len[k]) != 0)
                ok = false;
        }
        if (ok) {
            CU_PASS("shape case");
            continue;
        }
        TEST_FAIL("%s \"%s\" (%s): got %u items (returned %u):",
                  xiri_shape_name(c->shape), c->value, c->why, g.n, ret);
        for (k = 0; k < g.n && k < MAX_ITEMS + 2; k++)
            TEST_FAIL("  item %zu at %zu: \"%.*s\"", k, g.start[k],
                      (int)g.len[k], c->value + g.start[k]);
    }
    CU_ASSERT(ARRAY_LEN(cases) >= 60);
}

/* A callback returning non-zero stops the split: the return value is the
 * index of that item plus one. */
static void test_stop(void)
{
    static const struct {
        enum xiri_shape shape;
        const char *value;
    } many[] = {
        {XIRI_SHAPE_LIST, "a b c d"},
        {XIRI_SHAPE_SRCSET, "a 1x, b 2x, c 3x, d 4x"},
    };
    size_t i;

    for (i = 0; i < ARRAY_LEN(many); i++) {
        struct got g;

        memset(&g, 0, sizeof(g));
        g.stop_at = 2;
        CU_ASSERT_EQUAL(shape_split(many[i].shape, many[i].value,
                                    strlen(many[i].value), collect, &g),
                        2);
        CU_ASSERT_EQUAL(g.n, 2);
        memset(&g, 0, sizeof(g));
        CU_ASSERT_EQUAL(shape_split(many[i].shape, many[i].value,
                                    strlen(many[i].value), collect, &g),
                        4);
    }
}

/* Only n bytes are read: a value is not NUL-terminated. */
static void test_length(void)
{
    struct got g;

    memset(&g, 0, sizeof(g));
    CU_ASSERT_EQUAL(shape_split(XIRI_SHAPE_LIST, "a b c", 3, collect, &g), 2);
    CU_ASSERT_EQUAL(g.start[1], 2);
    CU_ASSERT_EQUAL(g.len[1], 1);
    memset(&g, 0, sizeof(g));
    CU_ASSERT_EQUAL(
        shape_split(XIRI_SHAPE_REFRESH, "5; url=abc", 9, collect, &g), 1);
    CU_ASSERT_EQUAL(g.len[0], 2);
    memset(&g, 0, sizeof(g));
    CU_ASSERT_EQUAL(
        shape_split(XIRI_SHAPE_SRCSET, "a.png 1x, b.png", 9, collect, &g), 1);
    memset(&g, 0, sizeof(g));
    CU_ASSERT_EQUAL(shape_split(XIRI_SHAPE_IRI, NULL, 0, collect, &g), 1);
    CU_ASSERT_EQUAL(g.len[0], 0);
}

/* Identifiers split like their kin (one IRI; a list) and are told by
 * xiri_link_is_identifier: xsi:schemaLocation is "a list of pairs ...
 * the first member of each pair is a namespace name, and the second
 * member is a hint" (XSD 1.0 Part 1 2.6.3), items counted from 0. */
static void test_identifiers(void)
{
    static const char pairs[] = " urn:a a.xsd\n urn:b  b.xsd ";
    struct xiri_link l;
    struct got g;
    unsigned i;

    memset(&g, 0, sizeof(g));
    CU_ASSERT_EQUAL(
        shape_split(XIRI_SHAPE_IDENTIFIER, " tag:x,2026:1 ", 14, collect, &g),
        1);
    CU_ASSERT_EQUAL(g.start[0], 1);
    CU_ASSERT_EQUAL(g.len[0], 12);
    memset(&g, 0, sizeof(g));
    CU_ASSERT_EQUAL(
        shape_split(XIRI_SHAPE_PAIRS, pairs, sizeof(pairs) - 1, collect, &g),
        4);
    CU_ASSERT_EQUAL(g.start[2], 14);
    CU_ASSERT_EQUAL(g.len[3], 5);

    memset(&l, 0, sizeof(l));
    CU_ASSERT(!xiri_link_is_identifier(NULL));
    for (i = 0; i < 4; i++) {
        l.item = i;
        l.shape = XIRI_SHAPE_PAIRS;
        CU_ASSERT_EQUAL(xiri_link_is_identifier(&l), i % 2 == 0);
        l.shape = XIRI_SHAPE_LIST;
        CU_ASSERT(!xiri_link_is_identifier(&l));
    }
    l.item = 0;
    l.shape = XIRI_SHAPE_IDENTIFIER;
    CU_ASSERT(xiri_link_is_identifier(&l));
    l.shape = XIRI_SHAPE_IRI;
    CU_ASSERT(!xiri_link_is_identifier(&l));
    l.shape = XIRI_SHAPE_SRCSET;
    CU_ASSERT(!xiri_link_is_identifier(&l));
}

/* ---------------------------------------------------------- srcset */

#define SRCSET_MAX 64

/* What srcset_check reported. */
struct problems {
    size_t n;
    enum srcset_problem_kind kind[SRCSET_MAX];
    size_t at[SRCSET_MAX];
    char msg[SRCSET_MAX][512];
};

static int record_problem(void *user, enum srcset_problem_kind kind, size_t at,
                          const char *message)
{
    struct problems *p = user;

    if (p->n < SRCSET_MAX) {
        p->kind[p->n] = kind;
        p->at[p->n] = at;
        snprintf(p->msg[p->n], sizeof(p->msg[0]), "%s", message);
    }
    p->n++;
    return 0;
}

/* One row of srcset-wpt.tsv: the candidate browsers choose (the first
 * one srcset_check does not say they drop; every candidate kept there is
 * 1x) is the one web-platform-tests expects. */
static void srcset_wpt_row(void *user, char **f, int n, int lineno)
{
    struct problems p;
    struct got g;
    size_t vn, en, i, k;
    const char *chosen = NULL;
    size_t chosen_len = 0;

    (void)user;
    if (n < 2) {
        TEST_FAIL("srcset-wpt.tsv:%d: %d fields", lineno, n);
        return;
    }
    vn = test_unescape(f[0]);
    en = test_unescape(f[1]);
    memset(&g, 0, sizeof(g));
    memset(&p, 0, sizeof(p));
    shape_split(XIRI_SHAPE_SRCSET, f[0], vn, collect, &g);
    srcset_check(f[0], vn, record_problem, &p);
    for (i = 0; i < g.n && i < MAX_ITEMS && !chosen; i++) {
        bool dropped = false;

        for (k = 0; k < p.n && k < SRCSET_MAX; k++)
            if (p.kind[k] == SRCSET_DROPPED && p.at[k] == g.start[i])
                dropped = true;
        if (!dropped) {
            chosen = f[0] + g.start[i];
            chosen_len = g.len[i];
        }
    }
    if (en == 0 ? chosen != NULL
                : !chosen || chosen_len != en || memcmp(chosen, f[1], en) != 0)
        TEST_FAIL("srcset-wpt.tsv:%d: chose \"%.*s\", want \"%s\"", lineno,
                  chosen ? (int)chosen_len : 6, chosen ? chosen : "(none)",
                  f[1]);
}

static void test_srcset_wpt(void)
{
    CU_ASSERT_EQUAL(test_read_tsv("srcset-wpt.tsv", srcset_wpt_row, NULL), 235);
}

/* The attribute's requirements ("Attributes common to source, img, and
 * link elements"), which browsers do not enforce: the problems and the
 * candidates (offsets) they are reported at, derived by hand. */
static void test_srcset_rules(void)
{
    static const struct {
        const char *value;
        size_t n;
        enum srcset_problem_kind kind[3];
        size_t at[3];
        const char *word; /* in the first message */
    } rows[] = {
        /* valid: no problem */
        {"a.png 1x, b.png 2x, c.png 1.5x", 0, {0}, {0}, NULL},
        {"a.png 100w, b.png 200w", 0, {0}, {0}, NULL},
        {"a.png, b.png 2x", 0, {0}, {0}, NULL},
        /* "a candidate without descriptor is 1x": a repeat */
        {"a.png, b.png 1x", 1, {SRCSET_INVALID}, {7}, "1x"},
        {"a.png 2x, b.png 2.0x, c.png 2e0x",
         2,
         {SRCSET_INVALID, SRCSET_INVALID},
         {10, 22},
         "same density"},
        {"a.png 100w, b.png 100w", 1, {SRCSET_INVALID}, {12}, "same width"},
        /* widths on all or none: told once, at the first that breaks it */
        {"a.png 100w, b.png 2x, c.png", 1, {SRCSET_INVALID}, {12}, "width"},
        {"a.png, b.png 100w, c.png 200w", 1, {SRCSET_INVALID}, {7}, "width"},
        /* 0x: parsed, but a density must be greater than zero */
        {"a.png 0x", 1, {SRCSET_INVALID}, {0}, "zero"},
        /* h beside w: kept by browsers, not allowed to authors */
        {"a.png 100w 50h", 1, {SRCSET_INVALID}, {0}, "height"},
        /* dropped candidates count in no comparison */
        {"a.png 2x, b.png 2 x, c.png 2x",
         2,
         {SRCSET_DROPPED, SRCSET_INVALID},
         {10, 21},
         "\"2\" is not a descriptor"},
        /* a space in the URL: the rest is read as descriptors */
        {"my photo.png 2x", 1, {SRCSET_DROPPED}, {0}, "%20"},
    };
    size_t i, k;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct problems p;

        memset(&p, 0, sizeof(p));
        CU_ASSERT_EQUAL(srcset_check(rows[i].value, strlen(rows[i].value),
                                     record_problem, &p),
                        rows[i].n);
        if (p.n != rows[i].n) {
            TEST_FAIL("srcset \"%s\": %zu problems, want %zu", rows[i].value,
                      p.n, rows[i].n);
            continue;
        }
        for (k = 0; k < p.n; k++)
            if (p.kind[k] != rows[i].kind[k] || p.at[k] != rows[i].at[k])
                TEST_FAIL("srcset \"%s\": problem %zu: kind %d at %zu, want "
                          "%d at %zu (%s)",
                          rows[i].value, k, (int)p.kind[k], p.at[k],
                          (int)rows[i].kind[k], rows[i].at[k], p.msg[k]);
        if (rows[i].word && p.n > 0 && !strstr(p.msg[0], rows[i].word))
            TEST_FAIL("srcset \"%s\": message \"%s\" lacks \"%s\"",
                      rows[i].value, p.msg[0], rows[i].word);
    }
}

/* ------------------------------------------------ pseudo-attributes */

/* Places counted by hand in the data as written in C. */
struct pa_case {
    const char *data;
    struct {
        size_t name, name_len, value, value_len;
        char quote;
    } attrs[3];
    size_t nattrs;
    bool error;      /* after the attributes: pseudo_attr_next gives -1 */
    size_t err_at;   /* ... with the cursor there */
    const char *why; /* ... and a reason holding this */
};

static const struct pa_case pa_cases[] = {
    {"", {{0}}, 0, false, 0, NULL},
    {" \t\r\n", {{0}}, 0, false, 0, NULL},
    {"href=\"a.css\" type=\"text/css\"",
     {{0, 4, 6, 5, '"'}, {13, 4, 19, 8, '"'}},
     2,
     false,
     0,
     NULL},
    /* blanks around '=' and at both ends; single quotes */
    {"  type = 'text/xsl'  href  =  \"x\"  ",
     {{2, 4, 10, 8, '\''}, {21, 4, 31, 1, '"'}},
     2,
     false,
     0,
     NULL},
    /* the other quote, references of both kinds */
    {"title='say \"hi\"' href=\"a&amp;b&#x20AC;&#65;&lt;\"",
     {{0, 5, 7, 8, '\''}, {17, 4, 23, 24, '"'}},
     2,
     false,
     0,
     NULL},
    {"a.b-c:d_e=\"\"", {{0, 9, 11, 0, '"'}}, 1, false, 0, NULL},
    /* errors: where the data stops matching */
    {"href=\"a\"type=\"b\"", {{0, 4, 6, 1, '"'}}, 1, true, 8, "white space"},
    {"href=a.css", {{0}}, 0, true, 5, "quoted"},
    {"href", {{0}}, 0, true, 4, "'='"},
    {"href \"a\"", {{0}}, 0, true, 5, "'='"},
    {"href=\"abc", {{0}}, 0, true, 5, "not closed"},
    {"href=\"a<b\"", {{0}}, 0, true, 7, "'<'"},
    {"href=\"a&b\"", {{0}}, 0, true, 7, "'&'"},
    {"href=\"a&AMP;\"", {{0}}, 0, true, 7, "'&'"},
    {"href=\"&#X41;\"", {{0}}, 0, true, 6, "'&'"}, /* 'x' only */
    {"href=\"&#;\"", {{0}}, 0, true, 6, "'&'"},
    {"href=\"&#x;\"", {{0}}, 0, true, 6, "'&'"},
    {"href=\"&#0;\"", {{0}}, 0, true, 6, "'&'"}, /* XML 1.0 Char */
    {"href=\"&#xD800;\"", {{0}}, 0, true, 6, "'&'"},
    {"href=\"&#x110000;\"", {{0}}, 0, true, 6, "'&'"},
    {"href=\"&#65\"", {{0}}, 0, true, 6, "'&'"},
    {"href=\"a\" href=\"b\"", {{0, 4, 6, 1, '"'}}, 1, true, 9, "before"},
    {"=\"a\"", {{0}}, 0, true, 0, "name"},
    {"1x=\"a\"", {{0}}, 0, true, 0, "name"},
    {"href=\"a\" ?", {{0, 4, 6, 1, '"'}}, 1, true, 9, "name"},
};

static void test_pseudo_attrs(void)
{
    size_t i, k;

    for (i = 0; i < ARRAY_LEN(pa_cases); i++) {
        const struct pa_case *c = &pa_cases[i];
        struct pseudo_attr seen[4], a;
        size_t cursor = 0, n = strlen(c->data);
        const char *why = NULL;
        int r = 0;

        for (k = 0; k < 4; k++) {
            r = pseudo_attr_next(c->data, n, &cursor, seen, k, &a, &why);
            if (r != 1)
                break;
            seen[k] = a;
            if (k >= c->nattrs) {
                TEST_FAIL("'%s': attribute %zu too many", c->data, k);
                break;
            }
            if (a.name != c->attrs[k].name ||
                a.name_len != c->attrs[k].name_len ||
                a.value != c->attrs[k].value ||
                a.value_len != c->attrs[k].value_len ||
                a.quote != c->attrs[k].quote)
                TEST_FAIL("'%s': attribute %zu: %zu+%zu=%zu+%zu %c", c->data, k,
                          a.name, a.name_len, a.value, a.value_len, a.quote);
        }
        if (k != c->nattrs)
            TEST_FAIL("'%s': %zu attributes, want %zu", c->data, k, c->nattrs);
        if (c->error) {
            if (r != -1 || cursor != c->err_at || !why || !strstr(why, c->why))
                TEST_FAIL("'%s': %d at %zu (%s), want -1 at %zu (...%s...)",
                          c->data, r, cursor, why ? why : "-", c->err_at,
                          c->why);
        } else if (r != 0 || cursor != n) {
            TEST_FAIL("'%s': ends with %d at %zu", c->data, r, cursor);
        }
    }
    CU_PASS("pseudo-attributes");
}

static void test_pseudo_attr_decode(void)
{
    static const struct {
        const char *raw, *want;
    } rows[] = {
        {"a.css", "a.css"},
        {"", ""},
        /* XML 1.0 2.11 and 3.3.3: CR LF, a lone CR, LF and tab read as
         * a space */
        {"a\r\nb\rc\n\td", "a b c  d"},
        {"&lt;&gt;&quot;&apos;&amp;", "<>\"'&"},
        {"&#9;&#x41;&#x20AC;&#x1F600;", "\tA\xE2\x82\xAC\xF0\x9F\x98\x80"},
        /* a reference keeps its character */
        {"&#13;&#10;&#9;", "\r\n\t"},
        {"\xC3\xA9&amp;amp;", "\xC3\xA9&amp;"},
    };
    size_t i;

    for (i = 0; i < ARRAY_LEN(rows); i++) {
        struct buf b;

        buf_init(&b, 1024);
        pseudo_attr_decode(rows[i].raw, strlen(rows[i].raw), &b);
        if (b.status != XIRI_OK || b.len != strlen(rows[i].want) ||
            (b.len && memcmp(b.data, rows[i].want, b.len) != 0))
            TEST_FAIL("decode '%s': '%.*s', want '%s'", rows[i].raw, (int)b.len,
                      b.data ? b.data : "", rows[i].want);
        buf_free(&b);
    }
    CU_PASS("decode");
}

/* What css_url_next finds: the kind of each url(), where it is bad or
 * its first escape is (at), and an OK one's length; offsets counted by
 * hand from CSS Syntax Level 3, 4.3.5 to 4.3.7 and 4.3.14. */
static void test_css_url_kinds(void)
{
    static const struct {
        const char *v;
        bool sheet; /* read as a style sheet */
        unsigned n;
        enum css_url_kind kind[3];
        size_t at[3], len[3];
        char quote[3];
        enum css_url_source source[3]; /* CSS_IN_URL unless given */
    } rows[] = {
        {"a:url(my photo.png)",
         false,
         1,
         {CSS_URL_BAD},
         {8},
         {0},
         {0},
         {CSS_IN_URL}},
        {"url(a b )", false, 1, {CSS_URL_BAD}, {5}, {0}, {0}, {CSS_IN_URL}},
        {"url(a\"b)", false, 1, {CSS_URL_BAD}, {5}, {0}, {0}, {CSS_IN_URL}},
        {"url(a(b)", false, 1, {CSS_URL_BAD}, {5}, {0}, {0}, {CSS_IN_URL}},
        {"url(a\x01"
         "b)",
         false,
         1,
         {CSS_URL_BAD},
         {5},
         {0},
         {0},
         {CSS_IN_URL}},
        /* a '\' before a line end is no escape in a URL: bad */
        {"url(a\\\nb)", false, 1, {CSS_URL_BAD}, {5}, {0}, {0}, {CSS_IN_URL}},
        /* the remnants of a bad URL skip an escaped ')' (4.3.14) */
        {"url(a b\\)c) url(d)",
         false,
         2,
         {CSS_URL_BAD, CSS_URL_OK},
         {5, 16},
         {0, 1},
         {0, 0},
         {CSS_IN_URL}},
        {"url(a\\)b) url(c)",
         false,
         2,
         {CSS_URL_ESCAPED, CSS_URL_OK},
         {5, 14},
         {0, 1},
         {0, 0},
         {CSS_IN_URL}},
        {"url(\"a\\\"b\")",
         false,
         1,
         {CSS_URL_ESCAPED},
         {6},
         {0},
         {'"'},
         {CSS_IN_URL}},
        {"url(a.png   )", false, 1, {CSS_URL_OK}, {4}, {5}, {0}, {CSS_IN_URL}},
        {"url( 'x' )", false, 1, {CSS_URL_OK}, {6}, {1}, {'\''}, {CSS_IN_URL}},
        /* a line end cuts the string: a bad string, and what follows is
         * read anew, 'b' and then a string to the end of the text, which
         * swallows the second url() */
        {"url(\"a\nb\") url(c)",
         false,
         1,
         {CSS_URL_BAD},
         {6},
         {0},
         {'"'},
         {CSS_IN_URL}},
        /* a style sheet: the string of an @import (CSS Cascading and
         * Inheritance 4, 2.1) names a style sheet too; in declarations
         * (an attribute) it is no URL */
        {"@import \"a.css\"; @import url(b.css); @import 'c.css' screen;",
         true,
         3,
         {CSS_URL_OK, CSS_URL_OK, CSS_URL_OK},
         {9, 29, 46},
         {5, 5, 5},
         {'"', 0, '\''},
         {CSS_IN_IMPORT, CSS_IN_URL, CSS_IN_IMPORT}},
        {"@import \"a.css\"; @import url(b.css); @import 'c.css' screen;",
         false,
         1,
         {CSS_URL_OK},
         {29},
         {5},
         {0},
         {CSS_IN_URL}},
        {"@importx \"a\"; @media{a{b:url(c)}}",
         true,
         1,
         {CSS_URL_OK},
         {29},
         {1},
         {0},
         {CSS_IN_URL}},
        {"@\\69mport \"e.css\"",
         true,
         1,
         {CSS_URL_OK},
         {11},
         {5},
         {'"'},
         {CSS_IN_IMPORT}},
        /* where browsers read no @import (CSS Cascading and Inheritance
         * 4, 2.1: before any rule but @charset and @layer statements,
         * outside blocks) its string names nothing; @namespace's URL is
         * a namespace name (CSS Namespaces 3, 2), never loaded */
        {"p{} @import \"late.css\"; a{b:url(u)}",
         true,
         1,
         {CSS_URL_OK},
         {32},
         {1},
         {0},
         {CSS_IN_URL}},
        {"@charset \"utf-8\"; @layer base; @import \"ok.css\"; "
         "@namespace url(ns); @import \"no.css\";",
         true,
         1,
         {CSS_URL_OK},
         {40},
         {6},
         {'"'},
         {CSS_IN_IMPORT}},
        {"@media screen { @import \"in.css\"; }",
         true,
         0,
         {CSS_URL_OK},
         {0},
         {0},
         {0},
         {CSS_IN_URL}},
        {"@import url(a.css) screen; @import \"b.css\"",
         true,
         2,
         {CSS_URL_OK, CSS_URL_OK},
         {12, 36},
         {5, 5},
         {0, '"'},
         {CSS_IN_URL, CSS_IN_IMPORT}},
        /* image-set()'s strings (CSS Images Module Level 4), in any
         * CSS: an escape; a line end that cuts one, after which nothing
         * of the declaration browsers drop is a URL */
        {"a:image-set(\"m\\\" n\" 1x)",
         false,
         1,
         {CSS_URL_ESCAPED},
         {14},
         {0},
         {'"'},
         {CSS_IN_IMAGE_SET}},
        {"a:image-set(\"o\np\" 1x, \"q\")",
         false,
         1,
         {CSS_URL_BAD},
         {14},
         {0},
         {'"'},
         {CSS_IN_IMAGE_SET}},
        {"@import 'a.css'; b{c:image-set('d.png' 2x)}",
         true,
         2,
         {CSS_URL_OK, CSS_URL_OK},
         {9, 32},
         {5, 5},
         {'\'', '\''},
         {CSS_IN_IMPORT, CSS_IN_IMAGE_SET}},
    };
    size_t i;
    unsigned k;
    struct css_url u;
    struct css_scan scan;

    for (i = 0; i < ARRAY_LEN(rows); i++) {
        size_t n = strlen(rows[i].v);

        css_scan_init(&scan, rows[i].sheet);
        for (k = 0; css_url_next(rows[i].v, n, &scan, &u); k++) {
            if (k >= rows[i].n) {
                TEST_FAIL("css '%s': url %u at %zu not expected", rows[i].v, k,
                          u.start);
                break;
            }
            if (u.kind != rows[i].kind[k] || u.at != rows[i].at[k] ||
                u.quote != rows[i].quote[k] || u.source != rows[i].source[k] ||
                (u.kind == CSS_URL_OK && u.len != rows[i].len[k]))
                TEST_FAIL("css '%s': url %u: kind %d at %zu len %zu quote "
                          "%d source %d, want %d at %zu len %zu quote %d "
                          "source %d",
                          rows[i].v, k, (int)u.kind, u.at, u.len, u.quote,
                          (int)u.source, (int)rows[i].kind[k], rows[i].at[k],
                          rows[i].len[k], rows[i].quote[k],
                          (int)rows[i].source[k]);
            if (scan.pos > n)
                TEST_FAIL("css '%s': pos %zu past the end", rows[i].v,
                          scan.pos);
        }
        if (k != rows[i].n)
            TEST_FAIL("css '%s': %u urls, want %u", rows[i].v, k, rows[i].n);
    }
    CU_PASS("css urls");
}

int suite_shapes_register(void)
{
    CU_pSuite s = CU_add_suite("shapes", NULL, NULL);

    if (!s || !CU_add_test(s, "table of shapes", test_table) ||
        !CU_add_test(s, "callback stops", test_stop) ||
        !CU_add_test(s, "length respected", test_length) ||
        !CU_add_test(s, "identifiers", test_identifiers) ||
        !CU_add_test(s, "srcset descriptors (wpt)", test_srcset_wpt) ||
        !CU_add_test(s, "srcset rules", test_srcset_rules) ||
        !CU_add_test(s, "pseudo-attributes", test_pseudo_attrs) ||
        !CU_add_test(s, "pseudo-attribute values", test_pseudo_attr_decode) ||
        !CU_add_test(s, "css url kinds", test_css_url_kinds))
        return -1;
    return 0;
}

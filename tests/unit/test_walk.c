/* test_walk.c - the document walker: values as the document means them,
 * positions in the original bytes (line, column in characters, byte
 * offset, raw length), bases (XML Base 4.2, HTML <base>), encodings, and
 * that none of it depends on how the input is cut into chunks.  Every
 * expected position below was counted by hand in the document beside it. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "common.h"
#include "helpers.h"
#include "registry.h"
#include "suites.h"

/* Everything the walker reported, as text lines, for comparison. */
struct record {
    char *text;
    size_t len, cap;
};

static void rec_add(struct record *r, const char *line)
{
    size_t n = strlen(line);

    if (r->len + n + 2 > r->cap) {
        r->cap = (r->len + n + 2) * 2;
        r->text = realloc(r->text, r->cap);
    }
    memcpy(r->text + r->len, line, n);
    r->len += n;
    r->text[r->len++] = '\n';
    r->text[r->len] = '\0';
}

static int on_link(void *user, const struct xiri_link *l)
{
    char line[2048];

    snprintf(line, sizeof(line), "%lu:%lu+%zu/%zu %s@%s#%u [%.*s] <%s>",
             l->line, l->column, l->offset, l->raw_length, l->element,
             l->attribute ? l->attribute : "()", l->item, (int)l->value_len,
             l->value, l->base ? l->base : "-");
    rec_add(user, line);
    return 0;
}

static int on_diag(void *user, const struct xiri_doc_diag *d)
{
    char line[1024];

    snprintf(line, sizeof(line), "! %lu:%lu+%zu %s", d->line, d->column,
             d->offset, d->code);
    rec_add(user, line);
    return 0;
}

static struct xiri_registry *test_registry(void)
{
    struct xiri_registry *reg = NULL;

    if (xiri_registry_new(&reg) != XIRI_OK)
        return NULL;
    xiri_registry_add(reg, XHTML_NS, "a", NULL, "href",
                      XIRI_SHAPE_IRI);
    xiri_registry_add(reg, XHTML_NS, "a", NULL, "ping",
                      XIRI_SHAPE_LIST);
    xiri_registry_add(reg, XHTML_NS, "img", NULL, "src",
                      XIRI_SHAPE_IRI);
    xiri_registry_add(reg, XHTML_NS, "img", NULL, "srcset",
                      XIRI_SHAPE_SRCSET);
    xiri_registry_add(reg, XHTML_NS, "base", NULL, "href",
                      XIRI_SHAPE_IRI);
    xiri_registry_add(reg, XHTML_NS, "meta", NULL, "content",
                      XIRI_SHAPE_REFRESH);
    xiri_registry_add(reg, NULL, "a", NULL, "href", XIRI_SHAPE_IRI);
    xiri_registry_add(reg, NULL, "img", NULL, "src", XIRI_SHAPE_IRI);
    xiri_registry_add(reg, NULL, "id", NULL, NULL, XIRI_SHAPE_IRI);
    xiri_registry_add(reg, NULL, "*", "http://www.w3.org/XML/1998/namespace",
                      "base",
                      XIRI_SHAPE_IRI);
    return reg;
}

/* Walk doc[0..n) in chunks of the given size; returns the status. */
static enum xiri_status walk(const char *doc, size_t n, size_t chunk,
                             enum xiri_doc_type type, const char *base,
                             struct record *r, struct xiri_error *err)
{
    struct xiri_ctx *ctx = NULL;
    struct xiri_registry *reg = test_registry();
    struct xiri_walk_options o;
    struct xiri_walker *w = NULL;
    enum xiri_status st;
    size_t i;

    xiri_walk_options_init(&o);
    o.type = type;
    o.base = base;
    xiri_ctx_new(&ctx);
    st = xiri_walker_new(ctx, reg, &o, on_link, on_diag, r, &w);
    for (i = 0; st == XIRI_OK && i < n; i += chunk)
        st = xiri_walker_feed(w, doc + i, n - i < chunk ? n - i : chunk, err);
    if (st == XIRI_OK)
        st = xiri_walker_finish(w, err);
    if (st == XIRI_OK) {
        char line[128];
        int guessed = 0;
        const char *enc = xiri_walker_encoding(w, &guessed);
        snprintf(line, sizeof(line), "= %s %s%s",
                 xiri_walker_type(w) == XIRI_DOC_HTML ? "html" : "xml",
                 enc ? enc : "?", guessed ? " (guessed)" : "");
        rec_add(r, line);
    }
    xiri_walker_free(w);
    xiri_registry_free(reg);
    xiri_ctx_free(ctx);
    return st;
}

/* Walk in many chunk sizes: the record must be the same every time and
 * equal to want. */
static void check_doc(const char *name, const char *doc, size_t n,
                      enum xiri_doc_type type, const char *base,
                      const char *want)
{
    static const size_t chunks[] = {1, 2, 3, 7, 64, 4096, 1 << 20};
    size_t k;

    for (k = 0; k < ARRAY_LEN(chunks); k++) {
        struct record r = {NULL, 0, 0};
        struct xiri_error err;
        enum xiri_status st = walk(doc, n, chunks[k], type, base, &r, &err);
        char what[128];

        snprintf(what, sizeof(what), "%s (chunks of %zu)", name, chunks[k]);
        if (st != XIRI_OK)
            TEST_FAIL("%s: %s: %s", what, xiri_strerror(st), err.message);
        else
            TEST_STR_EQ(what, r.text ? r.text : "", want);
        free(r.text);
    }
}

/* XML: references in attribute values (the SAX2 "&#38;" form of &amp;
 * and an internal entity), an xml:base chain, whitespace trimmed from a
 * single-quoted value with spaces around '=', element content with an
 * entity, a CR LF line end. */
static void test_walk_xml_values_positions_bases(void)
{
    static const char doc[] =
        "<?xml version=\"1.0\"?>\n"                            /* 0 */
        "<!DOCTYPE r [<!ENTITY e \"ent\">]>\n"                 /* 22 */
        "<r xml:base=\"http://ex.org/a/\">\r\n"                 /* 55 */
        "  <a href=\"b&amp;c&#233;&e;d\">t</a>\n"             /* 88 */
        "  <s xml:base=\"sub/\"><img src = '  p.png '/></s>\n" /* 124 */
        "  <id>\n"
        "   urn:x:&e;</id>\n"
        "</r>\n";
    static const char want[] =
        "3:14+68/16 r@xml:base#0 [http://ex.org/a/] <->\n"
        "4:12+99/17 a@href#0 [b&c\xC3\xA9" "entd] <http://ex.org/a/>\n"
        "5:16+139/4 s@xml:base#0 [sub/] <http://ex.org/a/>\n"
        "5:36+159/5 img@src#0 [p.png] <http://ex.org/a/sub/>\n"
        "7:4+183/9 id@()#0 [urn:x:ent] <http://ex.org/a/>\n"
        "= xml UTF-8\n";

    check_doc("xml", doc, sizeof(doc) - 1, XIRI_DOC_AUTO, NULL, want);
}

/* Shift_JIS HTML: <meta charset>, <base href> resolved against the
 * document's address, meta refresh, a list-valued ping, srcset, an
 * unquoted value, named and numeric references. */
static void test_walk_html_shift_jis(void)
{
    static const char doc[] =
        "<!DOCTYPE html>\n"
        "<html><head><meta charset=\"shift_jis\"><base href=\"sub/dir/\">\n"
        "<meta http-equiv=\"Refresh\" content=\"5; URL='next.html'\">"
        "</head>\n"
        "<body><p><a href=\"/\x83" "e\x83X\x83g?q=\x93\xfa&amp;x=&eacute;\" "
        "ping=\"p1  p2\">t</a>\n"
        "<img src=a.png srcset=\"b.png 2x, c.png 3x\" alt=x></p>"
        "</body></html>\n";
    static const char want[] =
        "2:51+66/8 base@href#0 [sub/dir/] <http://h.example/base/>\n"
        "3:45+121/9 meta@content#0 [next.html] "
        "<http://h.example/base/sub/dir/>\n"
        "4:19+159/27 a@href#0 [/\xE3\x83\x86\xE3\x82\xB9\xE3\x83\x88?q="
        "\xE6\x97\xA5&x=\xC3\xA9] <http://h.example/base/sub/dir/>\n"
        "4:50+194/2 a@ping#0 [p1] <http://h.example/base/sub/dir/>\n"
        "4:54+198/2 a@ping#1 [p2] <http://h.example/base/sub/dir/>\n"
        "5:10+217/5 img@src#0 [a.png] <http://h.example/base/sub/dir/>\n"
        "5:24+231/5 img@srcset#0 [b.png] <http://h.example/base/sub/dir/>\n"
        "5:34+241/5 img@srcset#1 [c.png] <http://h.example/base/sub/dir/>\n"
        "= html shift_jis\n";

    check_doc("shift_jis", doc, sizeof(doc) - 1, XIRI_DOC_AUTO,
              "http://h.example/base/", want);
}

/* UTF-16LE with a BOM: offsets and lengths count the document's bytes,
 * columns its characters. */
static void test_walk_utf16le_bom(void)
{
    static const char utf8[] = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n"
                               "<r>\n"
                               " <a href=\"\xE6\x97\xA5x\"/></r>\n";
    char doc[256];
    size_t n = 0, i = 0;
    static const char want[] = "3:11+110/4 a@href#0 [\xE6\x97\xA5x] <->\n"
                               "= xml UTF-16LE\n";

    doc[n++] = '\xFF';
    doc[n++] = '\xFE';
    while (i < sizeof(utf8) - 1) {
        if ((unsigned char)utf8[i] == 0xE6) { /* U+65E5 */
            doc[n++] = '\xE5';
            doc[n++] = '\x65';
            i += 3;
        } else {
            doc[n++] = utf8[i++];
            doc[n++] = '\0';
        }
    }
    check_doc("utf-16le", doc, n, XIRI_DOC_AUTO, NULL, want);
}

/* HTML without a declaration and without UTF-8: windows-1252, a guess
 * reported as a note (WHATWG HTML encoding sniffing). */
static void test_walk_html_guess_windows_1252(void)
{
    static const char doc[] = "<html><body>\n<a href=\"caf\xE9\">x</a>"
                              "</body></html>";
    static const char want[] = "! 0:0+0 encoding-guess\n"
                               "2:10+22/4 a@href#0 [caf\xC3\xA9] <->\n"
                               "= html windows-1252 (guessed)\n";

    check_doc("guess", doc, sizeof(doc) - 1, XIRI_DOC_AUTO, NULL, want);
}

/* Bytes that are not UTF-8 become U+FFFD and are reported where they
 * are; the value's raw length still counts the original bytes. */
static void test_walk_invalid_utf8(void)
{
    static const char doc[] = "<r><a href=\"ok\xFF\xFEok\"/></r>";
    static const char want[] =
        "! 1:15+14 invalid-byte\n"
        "! 1:16+15 invalid-byte\n"
        "1:13+12/6 a@href#0 [ok\xEF\xBF\xBD\xEF\xBF\xBDok] <->\n"
        "= xml UTF-8\n";

    check_doc("invalid", doc, sizeof(doc) - 1, XIRI_DOC_AUTO, NULL, want);
}

/* A relative xml:base with no document base, and an HTML <base> after
 * links. */
static void test_walk_base_findings(void)
{
    static const char xml[] = "<r xml:base=\"rel/\"><a href=\"x\"/></r>";
    static const char want_xml[] = "! 1:19+18 base-not-absolute\n"
                                   "1:14+13/4 r@xml:base#0 [rel/] <->\n"
                                   "1:29+28/1 a@href#0 [x] <->\n"
                                   "= xml UTF-8\n";
    static const char html[] = "<meta charset=utf-8><a href=\"x\">x</a>"
                               "<base href=\"http://b.example/\">";
    static const char want_html[] =
        "1:30+29/1 a@href#0 [x] <->\n"
        "1:50+49/17 base@href#0 [http://b.example/] <->\n"
        "! 1:68+67 base-after-links\n"
        "= html utf-8\n";

    check_doc("xml:base", xml, sizeof(xml) - 1, XIRI_DOC_AUTO, NULL,
              want_xml);
    check_doc("base-after", html, sizeof(html) - 1, XIRI_DOC_HTML, NULL,
              want_html);
}

/* Not well-formed: XIRI_EDOC with the position of the error. */
static void test_walk_not_well_formed(void)
{
    static const char doc[] = "<r>\n<a href=\"x\">\n</r>";
    struct record r = {NULL, 0, 0};
    struct xiri_error err;
    enum xiri_status st = walk(doc, sizeof(doc) - 1, 4096, XIRI_DOC_XML,
                               NULL, &r, &err);

    CU_ASSERT_EQUAL(st, XIRI_EDOC);
    if (st == XIRI_EDOC && strncmp(err.message, "3:", 2) != 0)
        TEST_FAIL("error position: %s", err.message);
    free(r.text);
}

/* An external entity is never loaded: the content of the file it names
 * appears nowhere in what the walker reports (in attribute values such a
 * reference is not even well-formed: XML 1.0 3.1 WFC "No External Entity
 * References", which test_walk_not_well_formed's kind of error covers). */
static void test_walk_external_entity_not_loaded(void)
{
    char path[] = "/tmp/xiri-xxe-XXXXXX";
    char doc[512];
    struct record r = {NULL, 0, 0};
    struct xiri_error err;
    enum xiri_status st;
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("SECRET-CONTENT", f);
    fclose(f);
    snprintf(doc, sizeof(doc),
             "<!DOCTYPE r [<!ENTITY x SYSTEM \"file://%s\">]>\n"
             "<r><a href=\"ab\"/><id>&x;</id><p>&x;</p></r>",
             path);
    st = walk(doc, strlen(doc), 4096, XIRI_DOC_XML, NULL, &r, &err);
    unlink(path);
    if (st != XIRI_OK)
        TEST_FAIL("%s: %s", xiri_strerror(st), err.message);
    CU_ASSERT_EQUAL(st, XIRI_OK);
    CU_ASSERT_PTR_NOT_NULL(r.text);
    if (r.text && strstr(r.text, "SECRET"))
        TEST_FAIL("the external entity was loaded: %s", r.text);
    free(r.text);
}

int suite_walk_register(void)
{
    CU_pSuite s = CU_add_suite("walk", NULL, NULL);

    if (!s)
        return -1;
    CU_ADD_TEST(s, test_walk_xml_values_positions_bases);
    CU_ADD_TEST(s, test_walk_html_shift_jis);
    CU_ADD_TEST(s, test_walk_utf16le_bom);
    CU_ADD_TEST(s, test_walk_html_guess_windows_1252);
    CU_ADD_TEST(s, test_walk_invalid_utf8);
    CU_ADD_TEST(s, test_walk_base_findings);
    CU_ADD_TEST(s, test_walk_not_well_formed);
    CU_ADD_TEST(s, test_walk_external_entity_not_loaded);
    return 0;
}

/* test_walk.c - the document walker: values as the document means them,
 * positions in the original bytes (line, column in characters, byte
 * offset, raw length), bases (XML Base 4.2, HTML <base>), encodings, and
 * that none of it depends on how the input is cut into chunks.  Every
 * expected position below was counted by hand in the document beside it. */
#include <CUnit/CUnit.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "chars.h"
#include "common.h"
#include "helpers.h"
#include "input.h"
#include "registry.h"
#include "suites.h"
#include "tagscan.h"
#include "walk.h"

#include <libxml/HTMLparser.h>
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <unicode/ucnv.h>

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

    char findings[32] = "";

    if (l->findings)
        snprintf(findings, sizeof(findings), " findings=%#x", l->findings);
    snprintf(line, sizeof(line), "%lu:%lu+%zu/%zu %s@%s#%u [%.*s] <%s>%s%s%s%s",
             l->line, l->column, l->offset, l->raw_length, l->element,
             l->attribute ? l->attribute : "()", l->item, (int)l->value_len,
             l->value, l->base ? l->base : "-", l->in_cdata ? " cdata" : "",
             l->has_markup ? " markup" : "", l->empty_tag ? " empty-tag" : "",
             findings);
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

/* How the walks below parse XML after the root (walk.h enum walk_pipe),
 * and the steps they read the text in (0: the walker's own; with the
 * records, the chunk size, as the first 64 KiB are read at once
 * whatever the chunks): each document is walked every way, with the
 * same results. */
static enum walk_pipe pipe_mode;
static size_t pipe_step;
static const enum walk_pipe pipe_modes[] = {WALK_PIPE_OFF, WALK_PIPE_INLINE,
                                            WALK_PIPE_THREAD, WALK_PIPE_LAG};
static const char *const pipe_names[] = {
    "", ", records replayed", ", parser thread", ", records replayed late"};
/* the same with parse_ahead, for documents over the 64 KiB the walker
 * holds before it starts (WALK_SNIFF_MAX: below, a walk is one push) */
static const enum walk_pipe ahead_modes[] = {WALK_PIPE_OFF, WALK_PIPE_THREAD,
                                             WALK_PIPE_LAG};
static const char *const ahead_names[] = {
    "", ", parser thread parsing ahead",
    ", records replayed late, across feeds"};

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
    walk_set_pipe(w, pipe_mode, pipe_step);
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
    size_t k, m;

    for (m = 0; m < ARRAY_LEN(pipe_modes); m++) {
        pipe_mode = pipe_modes[m];
        for (k = 0; k < ARRAY_LEN(chunks); k++) {
            struct record r = {NULL, 0, 0};
            struct xiri_error err;
            enum xiri_status st;
            char what[160];

            /* (a job a byte is slow with a thread) */
            if (m > 0 && chunks[k] < 64 && n > 20000)
                continue;
            pipe_step = m > 0 ? chunks[k] : 0;
            st = walk(doc, n, chunks[k], type, base, &r, &err);

            snprintf(what, sizeof(what), "%s (chunks of %zu%s)", name,
                     chunks[k], pipe_names[m]);
            if (st != XIRI_OK)
                TEST_FAIL("%s: %s: %s", what, xiri_strerror(st), err.message);
            else
                TEST_STR_EQ(what, r.text ? r.text : "", want);
            free(r.text);
        }
    }
    pipe_mode = WALK_PIPE_OFF;
    pipe_step = 0;
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

/* Element content written with markup (XML 1.0 2.5-2.7): one CDATA
 * section is the value, its '&' a character (in_cdata, the span its
 * inside); a comment before the value is left out of the span; a
 * processing instruction among the characters is in it (has_markup).
 * Places counted by hand. */
static void test_walk_content_markup(void)
{
    static const char doc[] = "<r>\n"
                              "<id><![CDATA[urn:a&b]]></id>\n"
                              "<id>  <!--c-->urn:c</id>\n"
                              "<id>urn:<?p?>d</id>\n"
                              "</r>\n";
    static const char want[] = "2:14+17/7 id@()#0 [urn:a&b] <-> cdata\n"
                               "3:15+47/5 id@()#0 [urn:c] <->\n"
                               "4:5+62/10 id@()#0 [urn:d] <-> markup\n"
                               "= xml UTF-8\n";

    check_doc("content markup", doc, sizeof(doc) - 1, XIRI_DOC_XML, NULL,
              want);
}

/* An element of IRI content written as an empty-element tag is the
 * same element as with a start and an end tag (XML 1.0 3.1): an empty
 * link, placed at the '/' of its "/>" (empty_tag: a rewriter cannot write
 * another value there), whatever is between the name and "/>".  A nilled
 * element (xsi:nil "true" or "1", XSD Part 1 2.6.2, 3.3.4.4) has no value
 * and gives no link; one with content is read.  Content that is only a
 * comment is the empty value before it (a new value goes there, the
 * comment stays).  Places counted by hand. */
static void test_walk_empty_element(void)
{
    static const char doc[] =
        "<r xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\">\n"  /* 0 */
        "<id/><id></id><id a='/' /><id\n"                              /* 56 */
        "/>\n"                                                         /* 86 */
        "<id i:nil='true'/><id i:nil=' 1 '></id><id i:nil='false'/>\n" /* 89 */
        "<id i:nil='true'>urn:x</id><id><!--c--></id></r>\n";          /* 148 */
    static const char want[] = "2:4+59/0 id@()#0 [] <-> empty-tag\n"
                               "2:10+65/0 id@()#0 [] <->\n"
                               "2:25+80/0 id@()#0 [] <-> empty-tag\n"
                               "3:1+86/0 id@()#0 [] <-> empty-tag\n"
                               "4:57+145/0 id@()#0 [] <-> empty-tag\n"
                               "5:18+165/5 id@()#0 [urn:x] <->\n"
                               "5:32+179/0 id@()#0 [] <->\n"
                               "= xml UTF-8\n";

    check_doc("empty element", doc, sizeof(doc) - 1, XIRI_DOC_XML, NULL, want);
}

/* An element the document says is an xs:anyURI (xsi:type, XSD Part 1
 * 2.6.1) is a link, none of the registry's: the QName's prefix bound
 * where the element stands (t only inside the element declaring it), an
 * unprefixed name in the default namespace (none on line 3: no link), the
 * value's white space collapsed; xs:string is no link.  Places counted by
 * hand. */
static void test_walk_xsi_type(void)
{
    static const char doc[] =
        "<r xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
        "xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n" /* 0 */
        "<v xsi:type=\"xs:anyURI\">urn:a</v>"
        "<v xsi:type=\"xs:string\">b</v>\n" /* 102 */
        "<v xmlns:t=\"http://www.w3.org/2001/XMLSchema\" "
        "xsi:type=\" t:anyURI \">urn:c</v><v xsi:type=\"anyURI\">d</v>\n" /* 165
                                                                           */
        "<w xmlns=\"http://www.w3.org/2001/XMLSchema\">"
        "<v xsi:type=\"anyURI\">urn:e</v></w>"
        "<v xsi:type=\"t:anyURI\">f</v></r>\n"; /* 269 */
    static const char want[] = "2:25+126/5 v@()#0 [urn:a] <->\n"
                               "3:69+233/5 v@()#0 [urn:c] <->\n"
                               "4:66+334/5 v@()#0 [urn:e] <->\n"
                               "= xml UTF-8\n";

    check_doc("xsi:type", doc, sizeof(doc) - 1, XIRI_DOC_XML, NULL, want);
    /* the XSI namespace declared on the element itself (the walker reads
     * xsi:type only while one is in scope) */
    check_doc("xsi:type declared on the element",
              "<r><v xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" "
              "xmlns:s=\"http://www.w3.org/2001/XMLSchema\" "
              "i:type=\"s:anyURI\">urn:g</v><v>urn:h</v></r>",
              144, XIRI_DOC_XML, NULL,
              "1:120+119/5 v@()#0 [urn:g] <->\n= xml UTF-8\n");
    /* ":anyURI" is no QName (Namespaces in XML 1.0 4), even with XSD as
     * the default namespace */
    check_doc("xsi:type without a prefix before its colon",
              "<r xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
              "xmlns=\"http://www.w3.org/2001/XMLSchema\">"
              "<v xsi:type=\":anyURI\">urn:colon</v></r>",
              137, XIRI_DOC_XML, NULL, "= xml UTF-8\n");
    /* values through references; a nilled element with only a comment
     * has no characters: no value */
    check_doc("xsi:type and xsi:nil by reference",
              "<!DOCTYPE r [<!ENTITY t \"true\"><!ENTITY a \"xs:anyURI\">]>\n"
              "<r xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
              "xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">"
              "<v xsi:type=\"&a;\">urn:a</v>"
              "<v xsi:type=\"&a;\" xsi:nil=\"&t;\"/>"
              "<v xsi:type=\"xs:anyURI\" xsi:nil=\"true\"><!--c--></v>"
              "<v xsi:type=\"xs:anyURI\" xsi:nil=\"&#116;rue\"></v></r>\n",
              322, XIRI_DOC_XML, NULL,
              "2:120+176/5 v@()#0 [urn:a] <->\n= xml UTF-8\n");
}

/* Elements of content in an entity's replacement text (XML 1.0 4.4.3),
 * which is not in the document's text: the characters libxml2 gives
 * (its character references and CDATA sections read), placed after the
 * reference, as its attributes are, with no span and has_markup (a
 * rewriter leaves them); an entity referred to twice gives its links
 * twice.  Places counted by hand (line 1 is 101 bytes). */
static void test_walk_content_in_entity(void)
{
    static const char doc[] =
        "<!DOCTYPE r [<!ENTITY i \"<id>urn:&#38;#x41;<![CDATA[<b>]]></id>\">"
        "<!ENTITY e \"<id></id><id>b</id>\">]>\n"
        "<r>&i;&e;<id>urn:c</id>&e;</r>\n";
    static const char want[] = "2:7+107/0 id@()#0 [urn:A<b>] <-> markup\n"
                               "2:10+110/0 id@()#0 [] <-> markup\n"
                               "2:10+110/0 id@()#0 [b] <-> markup\n"
                               "2:14+114/5 id@()#0 [urn:c] <->\n"
                               "2:27+127/0 id@()#0 [] <-> markup\n"
                               "2:27+127/0 id@()#0 [b] <-> markup\n"
                               "= xml UTF-8\n";

    check_doc("content in an entity", doc, sizeof(doc) - 1, XIRI_DOC_XML, NULL,
              want);
    /* white space between comments is characters (XML 1.0 2.10); a
     * reference to an external entity, which is not read, leaves the value
     * incomplete: not checked, as in the document (line 1: 123 bytes) */
    check_doc("content in an entity, white space and an external entity",
              "<!DOCTYPE r SYSTEM \"none.dtd\" [<!ENTITY x SYSTEM \"x.txt\">"
              "<!ENTITY b \"<id>urn:a<!--c--> <!--d-->b</id>"
              "<id>urn:&x;t</id>\">]>\n<r>&b;</r>\n",
              134, XIRI_DOC_XML, NULL,
              "2:7+129/0 id@()#0 [urn:a b] <-> markup\n"
              "! 2:7+129 unknown-entity\n"
              "= xml UTF-8\n");
}

/* HTML that declares no encoding and whose first 64 KiB are ASCII: the
 * head grows (up to 1 MiB) until UTF-8 sniffing can tell, here 70,000
 * bytes on: valid UTF-8 there is UTF-8, else windows-1252 (0xE9 is U+00E9
 * in it); a lead byte that is the last byte of the document is no UTF-8.
 * The places of the links, counted by hand. */
/* XML: the replacement text of an entity, read where it is referred to.
 * In an attribute value its literal white space is spaces and its
 * character references keep theirs (XML 1.0 3.3.3: "a&#38;#9;b c" gives
 * a TAB, "x<TAB>y<LF>z" spaces); an item of a list that starts or ends
 * inside it has no place in the text (offset of the value, length 0: a
 * rewriter leaves it), the items around it keep theirs.  In content its
 * markup is markup (4.4.2): a comment gives nothing, a CDATA section its
 * characters, and the value is marked as having markup. */
static void test_walk_xml_entity_text(void)
{
    static const char doc[] =
        "<!DOCTYPE r [<!ENTITY e \"a&#38;#9;b c\"><!ENTITY s \"x\ty\nz\">"
        "<!ENTITY c \"urn:<!--n-->k\"><!ENTITY q \"urn:<![CDATA[<q>]]>\">]>\n"
        "<r><h:a xmlns:h=\"http://www.w3.org/1999/xhtml\" ping=\"p1 &e; p2\" "
        "href=\"h/&s;\"/><id>&c;</id><id>&q;</id></r>\n";
    static const char want[] = "3:54+174/2 a@ping#0 [p1] <->\n"
                               "3:54+174/0 a@ping#1 [a] <->\n"
                               "3:54+174/0 a@ping#2 [b] <->\n"
                               "3:54+174/0 a@ping#3 [c] <->\n"
                               "3:61+181/2 a@ping#4 [p2] <->\n"
                               "3:71+191/5 a@href#0 [h/x y z] <->\n"
                               "3:83+203/3 id@()#0 [urn:k] <-> markup\n"
                               "3:95+215/3 id@()#0 [urn:<q>] <-> markup\n"
                               "= xml UTF-8\n";

    check_doc("entity text", doc, sizeof(doc) - 1, XIRI_DOC_XML, NULL, want);
}

static void test_walk_html_late_utf8_sniffing(void)
{
    static const char *const tails[] = {"caf\xC3\xA9", "caf\xE9"};
    static const char *const want[] = {
        "! 0:0+0 encoding-guess\n"
        "1:25+24/1 a@href#0 [b] <->\n"
        "1:70037+70036/5 a@href#0 [caf\xC3\xA9] <->\n"
        "= html UTF-8 (guessed)\n",
        "! 0:0+0 encoding-guess\n"
        "1:25+24/1 a@href#0 [b] <->\n"
        "1:70037+70036/4 a@href#0 [caf\xC3\xA9] <->\n"
        "= html windows-1252 (guessed)\n"};
    size_t k;

    for (k = 0; k < 2; k++) {
        size_t n = 0;
        char *doc = malloc(70100);

        if (!doc) {
            CU_FAIL("out of memory");
            return;
        }
        n += (size_t)sprintf(doc, "<!DOCTYPE html><a href=\"b\">");
        memset(doc + n, 'x', 70000);
        n += 70000;
        n += (size_t)sprintf(doc + n, "<a href=\"%s\">y</a>\n", tails[k]);
        check_doc(k ? "late windows-1252" : "late UTF-8", doc, n,
                  XIRI_DOC_HTML, NULL, want[k]);
        if (k == 1) {
            /* one such byte, the last of the document: no UTF-8 */
            n = (size_t)sprintf(doc, "<!DOCTYPE html><a href=\"b\">");
            memset(doc + n, 'x', 70000);
            n += 70000;
            n += (size_t)sprintf(doc + n, "<a href=\"z\">y</a>\xE9");
            check_doc("late, last byte", doc, n, XIRI_DOC_HTML, NULL,
                      "! 0:0+0 encoding-guess\n"
                      "1:25+24/1 a@href#0 [b] <->\n"
                      "1:70037+70036/1 a@href#0 [z] <->\n"
                      "= html windows-1252 (guessed)\n");
        }
        free(doc);
    }
}

/* Shift_JIS HTML: <meta charset>, <base href> resolved against the
 * document's address, meta refresh, a list-valued ping, srcset, an
 * unquoted value, named and numeric references. */
/* HTML: a quote left open in the text of title, textarea or xmp, or a
 * "</b>" in a style, would make libxml2 read the rest as a tag (or end the
 * style early); a browser reads the text up to the element's own end tag
 * (WHATWG HTML 13.2.5.2-3), so the links after it are found, in any
 * chunking (html5lib 1.1 finds the same four links, and not "in"). */
static void test_walk_html_text_with_open_quote(void)
{
    static const char doc[] =
        "<title>Q&A: <b class=\"x</title>\n"
        "<a href=\"e/1\">1</a>\n"
        "<textarea>say <i title='x</TEXTAREA ><a href=\"e/2\">2</a>\n"
        "<xmp><p class=\"</xmp><a href=\"e/3\">3</a><style>p{}</b>"
        "<a href=\"in\"></style><a href=\"e/4\">4</a>\n";
    static const char want[] = "! 0:0+0 encoding-guess\n"
                               "2:10+41/3 a@href#0 [e/1] <->\n"
                               "3:47+98/3 a@href#0 [e/2] <->\n"
                               "4:31+139/3 a@href#0 [e/3] <->\n"
                               "4:85+193/3 a@href#0 [e/4] <->\n"
                               "= html windows-1252 (guessed)\n";

    check_doc("text with open quotes", doc, sizeof(doc) - 1, XIRI_DOC_HTML,
              NULL, want);
}

/* A document that ends inside a tag: the finding comes after the links
 * before the tag, whatever the steps the text was read in (it came first
 * when the whole text was one step; with the parser thread, before the
 * links whose records were not replayed yet).  Places by hand: the
 * values at offsets 12 and 29, the <img at 37. */
static void test_walk_html_eof_in_tag_order(void)
{
    static const char doc[] =
        "<p><a href=\"a\">x</a><a href=\"c\">y</a><img src=\"e\" alt='t";
    static const char want[] = "! 0:0+0 encoding-guess\n"
                               "1:13+12/1 a@href#0 [a] <->\n"
                               "1:30+29/1 a@href#0 [c] <->\n"
                               "! 1:38+37 eof-in-tag\n"
                               "= html windows-1252 (guessed)\n";

    check_doc("eof in tag", doc, sizeof(doc) - 1, XIRI_DOC_HTML, NULL, want);
}

/* Links after </html>, and after an end tag before the first element:
 * libxml2 2.9's HTML push parser read no element after them (its stack
 * of open elements empty, it went to its epilog), where browsers read on
 * (WHATWG HTML 13.2.6.4.23, "after after body"; 13.2.6.4.1-2 ignore the
 * stray end tag).  Places by hand: 6 + 6 + 7 + 8 + 9 = offset 36 on line
 * 1; on line 2 "</p>" and "<a href=\"" before y. */
static void test_walk_html_after_html_end(void)
{
    static const struct {
        const char *name, *doc, *link;
    } cases[] = {
        {"after </html>", "<html><body></body></HTML ><a href=\"x\">x</a>",
         "1:37+36/1 a@href#0 [x] <->"},
        {"end tag first", "<!-- c -->\n</p><a href=\"y\">y</a>",
         "2:14+24/1 a@href#0 [y] <->"},
        /* the "<p" in the dropped end tag's value is no tag either (a
         * browser: "</x" and its attributes u="<p>a href=" and h1", then
         * the a); libxml2 read p@href "h1" (fuzz_rewrite: the rewrite was
         * not idempotent) */
        {"tag in a dropped end tag",
         "</x u=\"<p>a href=\"h1\"><a href=\"u\">u</a>",
         "1:32+31/1 a@href#0 [u] <->"},
        /* "</ " starts a bogus comment, "</>" is dropped (13.2.5.7) */
        {"no name first", "</ x></><a href=\"v\">v</a>",
         "1:18+17/1 a@href#0 [v] <->"},
        /* libxml2 closes <html/> at once, its stack empty again: as before
         * the first element (a browser reads <html>, then the a;
         * helper-73) */
        {"after <html/>", "<html/>\n</p>\n<a href=\"x\">x</a>",
         "3:10+22/1 a@href#0 [x] <->"},
        {"after <HTML />", "<HTML a=\"1\" />\n</x><a href=\"y\">y</a>",
         "2:14+28/1 a@href#0 [y] <->"},
        {"after <html a/>", "<html a/>\n</p><a href=\"z\">z</a>",
         "2:14+23/1 a@href#0 [z] <->"},
    };
    size_t k;

    for (k = 0; k < ARRAY_LEN(cases); k++) {
        char want[256];

        snprintf(want, sizeof(want),
                 "! 0:0+0 encoding-guess\n%s\n"
                 "= html windows-1252 (guessed)\n",
                 cases[k].link);
        check_doc(cases[k].name, cases[k].doc, strlen(cases[k].doc),
                  XIRI_DOC_HTML, NULL, want);
    }
}

/* A tag whose '<' stands inside an earlier tag's quoted value: the walker
 * took '<a href="&><a href="' for the second tag, since the first had no
 * link and left its floor behind (fuzz_rewrite: the rewrite was not
 * idempotent).  Expected from html5lib: href "%3E" and href "%3F". */
static void test_walk_html_tag_in_earlier_value(void)
{
    static const char doc[] =
        "<a f=\"<a href=\"&><a href=\"%3E\"\">1</a>\n"
        "<textarea><a f=\"<a href=\"&></textarea><a href=\"%3F\"\">2</a>\n";
    static const char want[] = "! 0:0+0 encoding-guess\n"
                               "1:27+26/3 a@href#0 [%3E] <->\n"
                               "2:48+85/3 a@href#0 [%3F] <->\n"
                               "= html windows-1252 (guessed)\n";

    check_doc("tag in an earlier value", doc, sizeof(doc) - 1, XIRI_DOC_HTML,
              NULL, want);
}

/* The same trap in every second tag of a document with more tags than
 * the guard's log holds (TAG_LOG_TAGS), read in one chunk: the guard
 * stops when its log is full (TAG_GUARD_FULL), so no tag goes unlogged
 * and none is searched for in the text.  Expected: as above, worked out
 * per line. */
static void test_walk_html_tag_log_full(void)
{
    enum { UNITS = 3 * TAG_LOG_TAGS / 2 };
    static const char unit[] = "<b f=\"<a href=\"&></b><a href=\"";
    static const size_t chunks[] = {4096, 1 << 20};
    struct record want = {NULL, 0, 0};
    char *doc = malloc(UNITS * 64), line[128];
    size_t n = 0, k, u;

    rec_add(&want, "! 0:0+0 encoding-guess");
    for (u = 0; u < UNITS; u++) {
        snprintf(line, sizeof(line), "%zu:%zu+%zu/%zu a@href#0 [%zu] <->",
                 u + 1, sizeof(unit), n + sizeof(unit) - 1,
                 (size_t)snprintf(NULL, 0, "%zu", u), u);
        rec_add(&want, line);
        n += (size_t)sprintf(doc + n, "%s%zu\"\"></a>\n", unit, u);
    }
    rec_add(&want, "= html windows-1252 (guessed)");
    for (k = 0; k < ARRAY_LEN(chunks); k++) {
        struct record r = {NULL, 0, 0};
        struct xiri_error err;
        enum xiri_status st =
            walk(doc, n, chunks[k], XIRI_DOC_HTML, NULL, &r, &err);
        snprintf(line, sizeof(line), "full tag log (chunks of %zu)",
                 chunks[k]);
        if (st != XIRI_OK)
            TEST_FAIL("%s: %s: %s", line, xiri_strerror(st), err.message);
        else
            TEST_STR_EQ(line, r.text ? r.text : "", want.text);
        free(r.text);
    }
    free(want.text);
    free(doc);
}

/* The guard reads at most TAG_LOG_TAGS tags ahead of what libxml2 was
 * given (TAG_GUARD_FULL), however far the replay of the records lags:
 * the text is given to libxml2 in the same steps with the records and
 * without (the log was trimmed at the last record replayed, so with the
 * records it filled sooner: more, shorter steps, and a wait for the
 * replay at each).  Pages of dense markup, more tags to a step than the
 * log's TAG_LOG_TAGS; the links the same too. */
static void test_walk_steps_with_records(void)
{
    static const char *const units[] = {"<br><a href=x>t</a>",
                                        "<br/><a href=\"x\">t</a>"};
    static const char *const heads[] = {"<html><body>",
                                        "<r xmlns=\"" XHTML_NS "\">"};
    static const enum walk_pipe modes[] = {WALK_PIPE_OFF, WALK_PIPE_INLINE,
                                           WALK_PIPE_LAG, WALK_PIPE_THREAD};
    size_t t, m;

    for (t = 0; t < 2; t++) {
        size_t n = 0, u, parses[ARRAY_LEN(modes)];
        char *doc = malloc(30 * 20000 + 64);
        char *links[ARRAY_LEN(modes)];

        n += (size_t)sprintf(doc + n, "%s", heads[t]);
        for (u = 0; u < 20000; u++)
            n += (size_t)sprintf(doc + n, "%s", units[t]);
        n += (size_t)sprintf(doc + n, "%s", t ? "</r>" : "");
        for (m = 0; m < ARRAY_LEN(modes); m++) {
            struct xiri_ctx *ctx = NULL;
            struct xiri_registry *reg = test_registry();
            struct xiri_walk_options o;
            struct xiri_walker *w = NULL;
            struct record r = {NULL, 0, 0};
            enum xiri_status st;

            xiri_walk_options_init(&o);
            o.type = t ? XIRI_DOC_XML : XIRI_DOC_HTML;
            xiri_ctx_new(&ctx);
            st = xiri_walker_new(ctx, reg, &o, on_link, on_diag, &r, &w);
            walk_set_pipe(w, modes[m], 0);
            if (st == XIRI_OK)
                st = xiri_walker_feed(w, doc, n, NULL);
            if (st == XIRI_OK)
                st = xiri_walker_finish(w, NULL);
            if (st != XIRI_OK)
                TEST_FAIL("steps: %s", xiri_strerror(st));
            parses[m] = walk_parse_count(w);
            links[m] = r.text;
            xiri_walker_free(w);
            xiri_registry_free(reg);
            xiri_ctx_free(ctx);
        }
        for (m = 1; m < ARRAY_LEN(modes); m++) {
            if (parses[m] != parses[0])
                TEST_FAIL("steps (%s, mode %zu): %zu, without records %zu",
                          t ? "XML" : "HTML", m, parses[m], parses[0]);
            TEST_STR_EQ("steps: the links", links[m] ? links[m] : "",
                        links[0] ? links[0] : "");
        }
        /* (20,000 links, a line each; the steps are many) */
        CU_ASSERT(links[0] && strlen(links[0]) > 20000 * 10);
        CU_ASSERT(parses[0] > 20);
        for (m = 0; m < ARRAY_LEN(modes); m++)
            free(links[m]);
        free(doc);
    }
}

/* A start tag named "image" is an img "in body" (WHATWG HTML 13.2.6.4.7),
 * where the dispatcher (13.2.6.5) reads the children of a MathML text
 * integration point (mi, mo, mn, ms, mtext) but mglyph and malignmark,
 * those of an annotation-xml of text/html, and all in an HTML element
 * there (b); a <math> inside begins MathML again, a p ends MathML, and a
 * MathML title is no text element.  html5lib 1.1 reads "mi", "mo", "b",
 * "mn", "ax", "mi2", "p", "html" and "t" as img src, the "no" ones as
 * MathML image or in an HTML title's text; xiri read all in <math> as
 * MathML, and "t" as text. */
static void test_walk_html_image_in_mathml(void)
{
    static const char doc[] =
        "<math><mi><image src=\"mi\"></mi><mo><image src=\"mo\"></mo>\n"
        "<mtext><b><image src=\"b\"></b></mtext><mn><image src=\"mn\"></mn>\n"
        "<annotation-xml encoding=\"Text/HTML\"><image src=\"ax\">"
        "</annotation-xml>\n"
        "<annotation-xml><image src=\"no1\"></annotation-xml>\n"
        "<mi><math><image src=\"no2\"></math><image src=\"mi2\"></mi>\n"
        "<mi><mglyph><image src=\"no3\"></mglyph></mi><mrow><image "
        "src=\"no4\"></mrow>\n"
        "<mrow><p><image src=\"p\"></p></mrow></math><image src=\"html\">\n";
    static const char want[] = "! 0:0+0 encoding-guess\n"
                               "1:23+22/2 img@src#0 [mi] <->\n"
                               "1:48+47/2 img@src#0 [mo] <->\n"
                               "2:23+79/1 img@src#0 [b] <->\n"
                               "2:54+110/2 img@src#0 [mn] <->\n"
                               "3:50+169/2 img@src#0 [ax] <->\n"
                               "5:47+288/3 img@src#0 [mi2] <->\n"
                               "7:22+394/1 img@src#0 [p] <->\n"
                               "7:55+427/4 img@src#0 [html] <->\n"
                               "= html windows-1252 (guessed)\n";

    static const char title[] =
        "<math><title><mi><image src=\"t\"></mi></title></math>\n"
        "<math><mi><title><image src=\"no5\"></title></mi></math>\n";
    static const char title_want[] = "! 0:0+0 encoding-guess\n"
                                     "1:30+29/1 img@src#0 [t] <->\n"
                                     "= html windows-1252 (guessed)\n";

    check_doc("image in MathML", doc, sizeof(doc) - 1, XIRI_DOC_HTML, NULL,
              want);
    check_doc("MathML title", title, sizeof(title) - 1, XIRI_DOC_HTML, NULL,
              title_want);
}

/* The guard writes '-' over the bytes of a character that a browser's
 * attribute or end tag name goes on through; columns still count that
 * character once (a review found them 1 or 2 too high after "é"). */
static void test_walk_html_columns_after_masked_names(void)
{
    static const char doc[] = "<a \xc3\xa9\xc3\xa9 href=x>1</a>\n"
                              "<p>\xc3\xa9</p\xc3\xa9><a href=y>\r\n"
                              "<a t\xe2\x82\xac href=z>\n";
    static const char want[] = "! 0:0+0 encoding-guess\n"
                               "1:12+13/1 a@href#0 [x] <->\n"
                               "2:18+40/1 a@href#0 [y] <->\n"
                               "3:12+57/1 a@href#0 [z] <->\n"
                               "= html UTF-8 (guessed)\n";

    check_doc("columns after masked names", doc, sizeof(doc) - 1,
              XIRI_DOC_HTML, NULL, want);
}

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
        "= html Shift_JIS\n";

    check_doc("shift_jis", doc, sizeof(doc) - 1, XIRI_DOC_AUTO,
              "http://h.example/base/", want);
}

/* xiri_link.findings: each item's link says what the walker reports of
 * it, in every chunking: srcset candidates browsers drop (0x2: "1q" is no
 * descriptor; " 2x 3x" two densities) or HTML does not allow (0x4: the
 * density of another), C0 controls around a URL (0x1, reported before
 * the link for one before it, after for one after it).  Places counted
 * by hand. */
static void test_walk_link_findings(void)
{
    static const char doc[] =
        "<!DOCTYPE html><meta charset=utf-8>\n"                   /* 0 */
        "<img srcset=\"a.png 1q, b.png 2x,c.png 2x, d 2x 3x\">\n" /* 36 */
        "<a href=\"\x01"
        "x\">1</a><a href=\"y&#31;\">2</a>"
        "<a href=\" z \">3</a>\n"; /* 87 */
    static const char want[] =
        "2:14+49/5 img@srcset#0 [a.png] <-> findings=0x2\n"
        "2:24+59/5 img@srcset#1 [b.png] <->\n"
        "2:33+68/5 img@srcset#2 [c.png] <-> findings=0x4\n"
        "2:43+78/1 img@srcset#3 [d] <-> findings=0x2\n"
        "! 2:14+49 srcset-dropped\n"
        "! 2:33+68 srcset-invalid\n"
        "! 2:43+78 srcset-dropped\n"
        "! 3:10+97 control-around-url\n"
        "3:11+98/1 a@href#0 [x] <-> findings=0x1\n"
        "3:28+115/1 a@href#0 [y] <-> findings=0x1\n"
        "! 3:29+116 control-around-url\n"
        "3:51+138/1 a@href#0 [z] <->\n"
        "= html UTF-8\n";

    check_doc("link findings", doc, sizeof(doc) - 1, XIRI_DOC_AUTO, NULL, want);
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
    /* findings about a base are placed at its value, as its link is */
    static const char want_xml[] = "! 1:14+13 base-not-absolute\n"
                                   "1:14+13/4 r@xml:base#0 [rel/] <->\n"
                                   "1:29+28/1 a@href#0 [x] <->\n"
                                   "= xml UTF-8\n";
    static const char html[] = "<meta charset=utf-8><a href=\"x\">x</a>"
                               "<base href=\"http://b.example/\">";
    static const char want_html[] =
        "1:30+29/1 a@href#0 [x] <->\n"
        "1:50+49/17 base@href#0 [http://b.example/] <->\n"
        "! 1:50+49 base-after-links\n"
        "= html UTF-8\n";

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

/* ------------------------------------------------------------ limits */

/* What a walk with given options ended with. */
struct lim {
    enum xiri_status st;
    char message[256];
    unsigned long backstops;
    struct record r;
};

static void walk_lim(const char *doc, size_t n, size_t chunk,
                     enum xiri_doc_type type, const struct xiri_walk_options *o,
                     struct lim *out)
{
    struct xiri_ctx *ctx = NULL;
    struct xiri_registry *reg = test_registry();
    struct xiri_walk_options opts = *o;
    struct xiri_walker *w = NULL;
    struct xiri_error err;
    size_t i;

    memset(out, 0, sizeof(*out));
    opts.type = type;
    err.message[0] = '\0';
    xiri_ctx_new(&ctx);
    out->st = xiri_walker_new(ctx, reg, &opts, on_link, on_diag, &out->r, &w);
    walk_set_pipe(w, pipe_mode, pipe_step);
    for (i = 0; out->st == XIRI_OK && i < n; i += chunk)
        out->st = xiri_walker_feed(w, doc + i, n - i < chunk ? n - i : chunk,
                                   &err);
    if (out->st == XIRI_OK)
        out->st = xiri_walker_finish(w, &err);
    if (out->st != XIRI_OK)
        snprintf(out->message, sizeof(out->message), "%s", err.message);
    out->backstops = walk_backstops(w);
    xiri_walker_free(w);
    xiri_registry_free(reg);
    xiri_ctx_free(ctx);
}

/* A growing string for building documents. */
struct text {
    char *s;
    size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void text_add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* Expect the walk of doc to stop at a limit whose message holds want
 * (want NULL: expect success), the guard having stopped it (no start tag
 * over the limit reached libxml2). */
static void expect_lim(const char *name, const char *doc, size_t n,
                       enum xiri_doc_type type,
                       const struct xiri_walk_options *o, const char *want)
{
    static const size_t chunks[] = {1, 7, 4096, 1 << 20};
    size_t k, m;

    for (m = 0; m < ARRAY_LEN(pipe_modes); m++) {
        pipe_mode = pipe_modes[m];
        for (k = 0; k < ARRAY_LEN(chunks); k++) {
            struct lim l;
            if (chunks[k] == 1 && n > 100000)
                continue;
            if (m > 0 && chunks[k] < 64 && n > 20000)
                continue;
            pipe_step = m > 0 ? chunks[k] : 0;
            walk_lim(doc, n, chunks[k], type, o, &l);
            if (want && (l.st != XIRI_ELIMIT || !strstr(l.message, want)))
                TEST_FAIL("%s (chunks of %zu%s): want a limit \"%s\", got "
                          "%s: %s",
                          name, chunks[k], pipe_names[m], want,
                          xiri_strerror(l.st), l.message);
            if (!want && l.st != XIRI_OK)
                TEST_FAIL("%s (chunks of %zu%s): %s: %s", name, chunks[k],
                          pipe_names[m], xiri_strerror(l.st), l.message);
            if (l.backstops)
                TEST_FAIL("%s (chunks of %zu%s): libxml2 read a tag over the "
                          "attribute limit before the guard stopped it",
                          name, chunks[k], pipe_names[m]);
            free(l.r.text);
        }
    }
    pipe_mode = WALK_PIPE_OFF;
    pipe_step = 0;
}

/* Nesting: 512 elements deep is the default limit (XML counts the root,
 * HTML its implied html and body). */
static void test_walk_limit_depth(void)
{
    struct xiri_walk_options o;
    struct text t = {NULL, 0, 0};
    int i;

    xiri_walk_options_init(&o);
    text_add(&t, "<r>");
    for (i = 0; i < 511; i++)
        text_add(&t, "<e>");
    for (i = 0; i < 511; i++)
        text_add(&t, "</e>");
    text_add(&t, "</r>");
    expect_lim("xml depth 512", t.s, t.len, XIRI_DOC_XML, &o, NULL);
    t.len = 0;
    text_add(&t, "<r>");
    for (i = 0; i < 512; i++)
        text_add(&t, "<e>");
    expect_lim("xml depth 513", t.s, t.len, XIRI_DOC_XML, &o,
               "1:1537: <e> is nested deeper than 512 elements");
    o.max_depth = 513;
    text_add(&t, "%s", "");
    t.len = 0;
    text_add(&t, "<r>");
    for (i = 0; i < 512; i++)
        text_add(&t, "<e>");
    for (i = 0; i < 512; i++)
        text_add(&t, "</e>");
    text_add(&t, "</r>");
    expect_lim("xml depth 513, limit raised", t.s, t.len, XIRI_DOC_XML, &o,
               NULL);
    xiri_walk_options_init(&o);
    t.len = 0;
    for (i = 0; i < 600; i++)
        text_add(&t, "<div>");
    expect_lim("html depth", t.s, t.len, XIRI_DOC_HTML, &o,
               "<div> is nested deeper than 512");
    free(t.s);
}

/* Attributes: the guard stops a start tag over the limit before libxml2
 * reads it, in XML, in HTML, in an XML entity, and in HTML's tricky
 * places (a comment libxml2 2.9 does not end at "<!-->", the raw text
 * of a script that an end tag does not close). */
static void test_walk_limit_attributes(void)
{
    struct xiri_walk_options o;
    struct text t = {NULL, 0, 0};
    int i;

    xiri_walk_options_init(&o);
    text_add(&t, "<r><e");
    for (i = 0; i < 1000; i++)
        text_add(&t, " a%d=\"\"", i);
    text_add(&t, "/></r>");
    expect_lim("xml 1000 attributes", t.s, t.len, XIRI_DOC_XML, &o, NULL);
    t.len -= 6;
    text_add(&t, " a1000=''/></r>");
    expect_lim("xml 1001 attributes", t.s, t.len, XIRI_DOC_XML, &o,
               "1:4: start tag <e> has more than 1000 attributes");
    o.max_attributes = 1001;
    expect_lim("xml 1001 attributes, limit raised", t.s, t.len, XIRI_DOC_XML,
               &o, NULL);
    xiri_walk_options_init(&o);
    t.len = 0;
    text_add(&t, "<p>x<a");
    for (i = 0; i < 1001; i++)
        text_add(&t, " a%d", i);
    text_add(&t, ">");
    expect_lim("html 1001 attributes", t.s, t.len, XIRI_DOC_HTML, &o,
               "1:5: start tag <a> has more than 1000 attributes");
    t.len = 0;
    text_add(&t, "<!DOCTYPE r [<!ENTITY x \"<e");
    for (i = 0; i < 1001; i++)
        text_add(&t, " a%d=''", i);
    text_add(&t, "/>\">]><r>&x;</r>");
    expect_lim("xml entity", t.s, t.len, XIRI_DOC_XML, &o,
               "the entity x holds a start tag with more than 1000");
    free(t.s);

    o.max_attributes = 10;
    {
        static const struct {
            const char *name, *doc, *want;
        } cases[] = {
            /* the expected tags are those html5lib 1.1 finds: "<!-->"
             * is a whole comment (libxml2 2.9 would read on to "-->"),
             * "<? " starts a bogus comment up to the next '>' (libxml2
             * would read the tag in it) */
            {"tag after <!-->",
             "<p><!--> <b a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10> --><i>",
             "1:10: start tag <b> has more"},
            {"after a comment opened by <!-->",
             "<p><!--> x --><b a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10>",
             "1:15: start tag <b> has more"},
            {"script not closed by </b>",
             "<p><script t=a'b></b><x y='\"> </script>"
             "<b a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10>'>",
             "start tag <b> has more"},
            {"script text",
             "<p><script><b a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10></script>", NULL},
            {"DOCTYPE literal",
             "<p><!DOCTYPE html SYSTEM \"x> <y z='\"> "
             "<b a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10> '>",
             "start tag <b> has more"},
            /* a name browsers read where libxml2 skips to a blank or
             * '>': the quoted value is one, no <b> in it (html5lib) */
            {"bogus attribute name",
             "<p><a #x=\"q><b a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10>\"", NULL},
            {"processing instruction without target",
             "<p><? <b a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10> >", NULL},
        };
        size_t k;
        for (k = 0; k < ARRAY_LEN(cases); k++)
            expect_lim(cases[k].name, cases[k].doc, strlen(cases[k].doc),
                       XIRI_DOC_HTML, &o, cases[k].want);
    }
}

/* Namespace declarations in scope (libxml2 2.9 looks each prefix up
 * through all of them). */
static void test_walk_limit_namespaces(void)
{
    struct xiri_walk_options o;
    struct text t = {NULL, 0, 0};
    int i;

    xiri_walk_options_init(&o);
    text_add(&t, "<r");
    for (i = 0; i < 500; i++)
        text_add(&t, " xmlns:p%d='urn:x'", i);
    text_add(&t, "><e");
    for (i = 500; i < 1000; i++)
        text_add(&t, " xmlns:p%d='urn:x'", i);
    text_add(&t, "><e/></e></r>");
    expect_lim("1000 namespaces", t.s, t.len, XIRI_DOC_XML, &o, NULL);
    t.len -= 13;
    text_add(&t, "><e xmlns:q='urn:y'/></e></r>");
    expect_lim("1001 namespaces", t.s, t.len, XIRI_DOC_XML, &o,
               "more than 1000 namespace declarations in scope");
    free(t.s);
}

/* Attributes with a default value that the DTD declares are added to
 * every tag of their element; they are still reported. */
static void test_walk_limit_default_attributes(void)
{
    struct xiri_walk_options o;
    struct text t = {NULL, 0, 0};
    struct lim l;
    int i;

    xiri_walk_options_init(&o);
    text_add(&t, "<!DOCTYPE r [<!ATTLIST a href CDATA 'd.html'");
    for (i = 0; i < 99; i++)
        text_add(&t, " d%d CDATA 'x'", i);
    text_add(&t, ">]><r><a/></r>");
    walk_lim(t.s, t.len, 4096, XIRI_DOC_XML, &o, &l);
    CU_ASSERT_EQUAL(l.st, XIRI_OK);
    if (!l.r.text || !strstr(l.r.text, "a@href#0 [d.html]"))
        TEST_FAIL("the defaulted href was not reported: %s",
                  l.r.text ? l.r.text : "");
    free(l.r.text);
    t.len -= 14;
    text_add(&t, " d99 CDATA 'x'>]><r><a/></r>");
    expect_lim("101 defaults", t.s, t.len, XIRI_DOC_XML, &o,
               "more than 100 attributes with a default for <a>");
    free(t.s);
}

/* Entity expansion: a budget of replacement text per document, which
 * libxml2 reads again at every reference in content (100 references to
 * 1000 bytes: 100000 bytes), and the walker in values. */
static void test_walk_limit_entities(void)
{
    static const char small[] =
        "<!DOCTYPE r [<!ENTITY e 'x'><!ENTITY f '&e;&e;&e;'>]>"
        "<r><a href='&f;&f;'/></r>";
    struct xiri_walk_options o;
    struct text t = {NULL, 0, 0};
    struct lim l;
    int i;

    xiri_walk_options_init(&o);
    walk_lim(small, sizeof(small) - 1, 4096, XIRI_DOC_XML, &o, &l);
    CU_ASSERT_EQUAL(l.st, XIRI_OK);
    if (!l.r.text || !strstr(l.r.text, "a@href#0 [xxxxxx]"))
        TEST_FAIL("value: %s", l.r.text ? l.r.text : "");
    free(l.r.text);
    text_add(&t, "<!DOCTYPE r [<!ENTITY big '");
    for (i = 0; i < 100; i++)
        text_add(&t, "0123456789");
    text_add(&t, "'>]><r>");
    for (i = 0; i < 100; i++)
        text_add(&t, "&big;");
    text_add(&t, "</r>");
    o.max_entity_expansion = 150000;
    expect_lim("100000 bytes", t.s, t.len, XIRI_DOC_XML, &o, NULL);
    o.max_entity_expansion = 50000;
    expect_lim("100000 bytes, 50000 allowed", t.s, t.len, XIRI_DOC_XML, &o,
               "entity references expand to more than 50000 bytes");
    free(t.s);
}

/* One construct held at once; an element's content read as a link is
 * given up instead (with a finding), and never reported cut short. */
static void test_walk_limit_markup(void)
{
    struct xiri_walk_options o;
    struct text t = {NULL, 0, 0};
    struct lim l;
    int i;

    xiri_walk_options_init(&o);
    o.max_markup = 4096;
    text_add(&t, "<r>\n<!--");
    for (i = 0; i < 1000; i++)
        text_add(&t, "comment ");
    text_add(&t, "--></r>");
    expect_lim("xml comment", t.s, t.len, XIRI_DOC_XML, &o,
               "2:1: a comment longer than 4096 bytes");
    t.len = 0;
    text_add(&t, "<p><a href=\"");
    for (i = 0; i < 1000; i++)
        text_add(&t, "abcdefgh");
    text_add(&t, "\">");
    expect_lim("html tag", t.s, t.len, XIRI_DOC_HTML, &o,
               "1:4: a start tag longer than 4096 bytes");
    /* libxml2's HTML parser holds a run of text until the next '<', and
     * the content of a script until the next "</" */
    t.len = 0;
    text_add(&t, "<p>");
    for (i = 0; i < 1000; i++)
        text_add(&t, "text <  ");
    text_add(&t, "<a href=x>");
    expect_lim("html text", t.s, t.len, XIRI_DOC_HTML, &o, NULL);
    t.len = 0;
    text_add(&t, "<p>");
    for (i = 0; i < 1000; i++)
        text_add(&t, "text and");
    text_add(&t, "<a href=x>");
    expect_lim("html text", t.s, t.len, XIRI_DOC_HTML, &o,
               "1:4: a run of text longer than 4096 bytes");
    t.len = 0;
    text_add(&t, "<script>");
    for (i = 0; i < 1000; i++)
        text_add(&t, "a<b;</ ");
    text_add(&t, "</script>");
    expect_lim("script with </", t.s, t.len, XIRI_DOC_HTML, &o, NULL);
    t.len = 0;
    text_add(&t, "<script>");
    for (i = 0; i < 1000; i++)
        text_add(&t, "a<b; c<d");
    text_add(&t, "</script>");
    expect_lim("script", t.s, t.len, XIRI_DOC_HTML, &o,
               "1:9: a run of text longer than 4096 bytes");
    t.len = 0;
    text_add(&t, "<r><id>http://example.org/");
    for (i = 0; i < 1000; i++)
        text_add(&t, "abcdefgh");
    text_add(&t, "</id><a href='x'/></r>");
    walk_lim(t.s, t.len, 1000, XIRI_DOC_XML, &o, &l);
    CU_ASSERT_EQUAL(l.st, XIRI_OK);
    TEST_STR_EQ("content over the markup limit", l.r.text ? l.r.text : "",
                "! 1:8+7 value-too-long\n1:8041+8040/1 a@href#0 [x] <->\n");
    free(l.r.text);
    o.max_markup = 0;
    o.max_value = 16;
    walk_lim(t.s, t.len, 1000, XIRI_DOC_XML, &o, &l);
    CU_ASSERT_EQUAL(l.st, XIRI_OK);
    TEST_STR_EQ("content over the value limit", l.r.text ? l.r.text : "",
                "! 1:8+7 value-too-long\n1:8041+8040/1 a@href#0 [x] <->\n");
    free(l.r.text);
    free(t.s);
}

/* How much of the document had been fed when value-too-long came. */
struct fed_at {
    size_t fed, at;
};

static int on_diag_fed_at(void *user, const struct xiri_doc_diag *d)
{
    struct fed_at *f = user;

    if (strcmp(d->code, "value-too-long") == 0 && f->at == 0)
        f->at = f->fed;
    return 0;
}

/* An element's content longer than max_markup is given up at the end of
 * the feed that makes it so (check_window), not held to its end: with
 * parse_ahead too, where a feed returns before the records of its last
 * text are replayed, since the window is then checked with every record
 * replayed once it is longer than max_markup. */
static void test_walk_content_given_up_early(void)
{
    struct text t = {NULL, 0, 0};
    size_t m, i, start, want;
    int k;

    /* (after the first 64 KiB, which the walker reads at once) */
    text_add(&t, "<r>");
    for (k = 0; k < 10000; k++)
        text_add(&t, "<b>x</b>");
    text_add(&t, "<id>");
    start = t.len;
    text_add(&t, "http://example.org/");
    for (k = 0; k < 20000; k++)
        text_add(&t, "abcdefgh");
    text_add(&t, "</id><a href='x'/></r>");
    /* the first feed end with more than 4096 bytes of it */
    want = (start + 4096) / 1000 * 1000 + 1000;
    for (m = 0; m < ARRAY_LEN(ahead_modes); m++) {
        struct xiri_ctx *ctx = NULL;
        struct xiri_registry *reg = test_registry();
        struct xiri_walk_options o;
        struct xiri_walker *w = NULL;
        struct fed_at f = {0, 0};
        enum xiri_status st;

        xiri_walk_options_init(&o);
        o.type = XIRI_DOC_XML;
        o.max_markup = 4096;
        o.parse_ahead = 1;
        xiri_ctx_new(&ctx);
        st = xiri_walker_new(ctx, reg, &o, NULL, on_diag_fed_at, &f, &w);
        walk_set_pipe(w, ahead_modes[m], m > 0 ? 1000 : 0);
        for (i = 0; st == XIRI_OK && i < t.len; i += 1000) {
            size_t n = t.len - i < 1000 ? t.len - i : 1000;
            f.fed = i + n;
            st = xiri_walker_feed(w, t.s + i, n, NULL);
        }
        if (st == XIRI_OK)
            st = xiri_walker_finish(w, NULL);
        if (st != XIRI_OK)
            TEST_FAIL("content given up%s: %s", ahead_names[m],
                      xiri_strerror(st));
        if (f.at != want)
            TEST_FAIL("content given up%s: when %zu bytes were fed, want "
                      "%zu",
                      ahead_names[m], f.at, want);
        xiri_walker_free(w);
        xiri_registry_free(reg);
        xiri_ctx_free(ctx);
    }
    free(t.s);
}

static int on_link_count(void *user, const struct xiri_link *l)
{
    (void)l;
    ++*(size_t *)user;
    return 0;
}

/* parse_ahead: a feed returns before the links of its last text are
 * reported (records replayed late: one batch a step), and they come with
 * the next feed or the finish; without it, a feed returns with every
 * link whose tag it completes. */
static void test_walk_parse_ahead(void)
{
    struct text t = {NULL, 0, 0};
    size_t m, first[2];
    int k;

    text_add(&t, "<r>");
    for (k = 0; k < 20000; k++)
        text_add(&t, "<a href='x'/>");
    text_add(&t, "</r>");
    for (m = 0; m < 2; m++) {
        struct xiri_ctx *ctx = NULL;
        struct xiri_registry *reg = test_registry();
        struct xiri_walk_options o;
        struct xiri_walker *w = NULL;
        size_t links = 0;
        enum xiri_status st;

        xiri_walk_options_init(&o);
        o.parse_ahead = m == 1;
        xiri_ctx_new(&ctx);
        st = xiri_walker_new(ctx, reg, &o, on_link_count, NULL, &links, &w);
        walk_set_pipe(w, WALK_PIPE_LAG, 0);
        if (st == XIRI_OK)
            st = xiri_walker_feed(w, t.s, 150000, NULL);
        first[m] = links;
        if (st == XIRI_OK)
            st = xiri_walker_feed(w, t.s + 150000, t.len - 150000, NULL);
        if (st == XIRI_OK)
            st = xiri_walker_finish(w, NULL);
        if (st != XIRI_OK || links != 20000)
            TEST_FAIL("parse_ahead %zu: %s, %zu links", m, xiri_strerror(st),
                      links);
        xiri_walker_free(w);
        xiri_registry_free(reg);
        xiri_ctx_free(ctx);
    }
    /* the 13-byte tags after "<r>" complete in the first 150,000 bytes */
    CU_ASSERT_EQUAL(first[0], (150000 - 3) / 13);
    if (first[1] >= first[0])
        TEST_FAIL("parse_ahead: %zu links after the first feed, want fewer "
                  "than %zu",
                  first[1], first[0]);
    free(t.s);
}

/* References to entities of an external DTD (never read) leave values
 * unknown: not checked, and said so. */
static void test_walk_unknown_entity(void)
{
    static const char doc[] = "<!DOCTYPE r SYSTEM 'http://127.0.0.1:9/x.dtd'>"
                              "<r><a href='caf&eacute;'/><id>x&eacute;</id>"
                              "<a href='ok&amp;'/></r>";
    static const char want[] = "! 1:59+58 unknown-entity\n"
                               "! 1:77+76 unknown-entity\n"
                               "1:100+99/7 a@href#0 [ok&] <->\n"
                               "= xml UTF-8\n";
    char *got;
    struct record r = {NULL, 0, 0};

    struct xiri_error err;
    enum xiri_status st = walk(doc, sizeof(doc) - 1, 4096, XIRI_DOC_XML,
                               NULL, &r, &err);

    CU_ASSERT_EQUAL(st, XIRI_OK);
    /* libxml2's own warnings (xml-error) are left out */
    got = r.text;
    if (got) {
        struct record keep = {NULL, 0, 0};
        char *line = got, *nl;
        for (; *line; line = nl + 1) {
            nl = strchr(line, '\n');
            *nl = '\0';
            if (!strstr(line, "xml-error"))
                rec_add(&keep, line);
        }
        TEST_STR_EQ("unknown entities", keep.text ? keep.text : "", want);
        free(keep.text);
    }
    free(r.text);
}

/* HTML: a NUL character is read as U+FFFD (libxml2 would cut the value
 * at it), and said so. */
static void test_walk_html_nul(void)
{
    static const char doc[] = "<meta charset=utf-8><a href=\"x\0y\">t</a>";
    static const char want[] = "! 1:31+30 invalid-byte\n"
                               "1:30+29/3 a@href#0 [x\xEF\xBF\xBDy] <->\n"
                               "= html UTF-8\n";

    check_doc("nul", doc, sizeof(doc) - 1, XIRI_DOC_HTML, NULL, want);
}

/* XML 4.3.3, F.1: a declaration that contradicts a UTF-16 mark. */
static void test_walk_bom_conflict_utf16(void)
{
    static const char *const decl[] = {"UTF-8", "UTF-16"};
    size_t k;

    for (k = 0; k < 2; k++) {
        char utf8[128], doc[256];
        size_t n = 2, i;
        struct record r = {NULL, 0, 0};
        struct xiri_error err;
        snprintf(utf8, sizeof(utf8),
                 "<?xml version=\"1.0\" encoding=\"%s\"?><r/>", decl[k]);
        doc[0] = '\xFF';
        doc[1] = '\xFE';
        for (i = 0; utf8[i]; i++) {
            doc[n++] = utf8[i];
            doc[n++] = '\0';
        }
        CU_ASSERT_EQUAL(walk(doc, n, 4096, XIRI_DOC_AUTO, NULL, &r, &err),
                        XIRI_OK);
        CU_ASSERT_EQUAL(r.text && strstr(r.text, "encoding-conflict") != NULL,
                        k == 0);
        free(r.text);
    }
}

/* A list of 50,000 items (each found from the previous one, not from the
 * start of the value). */
static void test_walk_long_list(void)
{
    struct xiri_walk_options o;
    struct text t = {NULL, 0, 0};
    struct lim l;
    size_t lines = 0;
    const char *p;
    int i;

    xiri_walk_options_init(&o);
    text_add(&t, "<meta charset=utf-8><a ping=\"");
    for (i = 0; i < 50000; i++)
        text_add(&t, "p%d ", i);
    text_add(&t, "\">");
    walk_lim(t.s, t.len, 65536, XIRI_DOC_HTML, &o, &l);
    CU_ASSERT_EQUAL(l.st, XIRI_OK);
    for (p = l.r.text; p && (p = strchr(p, '\n')) != NULL; p++)
        lines++;
    CU_ASSERT_EQUAL(lines, 50000);
    /* the last item, p49999, at offset 29 + 10 * 3 + 90 * 4 + 900 * 5 +
     * 9000 * 6 + 39999 * 7 */
    if (l.r.text && !strstr(l.r.text, "+338912/6 a@ping#49999 [p49999]"))
        TEST_FAIL("last item: %s", strrchr(l.r.text, '1'));
    free(l.r.text);
    free(t.s);
}

/* HTML is read as it comes: what libxml2 has read is let go, even after
 * a chunk that ends inside a quoted value (libxml2 2.9 then waits for the
 * end of the document) or an unquoted value holding a quote. */
static void test_walk_html_streams(void)
{
    struct xiri_ctx *ctx = NULL;
    struct xiri_registry *reg = test_registry();
    struct xiri_walker *w = NULL;
    struct xiri_walk_options o;
    struct text t = {NULL, 0, 0};
    struct record r = {NULL, 0, 0};
    size_t i, worst = 0;
    int k;

    xiri_walk_options_init(&o);
    o.type = XIRI_DOC_HTML;
    text_add(&t, "<meta charset=utf-8><img alt=don't src=x.png>\n");
    for (k = 0; k < 20000; k++)
        text_add(&t, "<p>text <a href=\"p%d.html\" title=\"t\">a</a></p>\n", k);
    xiri_ctx_new(&ctx);
    CU_ASSERT_EQUAL(xiri_walker_new(ctx, reg, &o, on_link, NULL, &r, &w),
                    XIRI_OK);
    for (i = 0; w && i < t.len; i += 4093) {
        size_t n = t.len - i < 4093 ? t.len - i : 4093;
        size_t lag;
        CU_ASSERT_EQUAL(xiri_walker_feed(w, t.s + i, n, NULL), XIRI_OK);
        lag = i + n - walk_settled(w);
        if (i + n > 70000 && lag > worst)
            worst = lag;
    }
    CU_ASSERT_EQUAL(xiri_walker_finish(w, NULL), XIRI_OK);
    if (worst > 8192)
        TEST_FAIL("the walker held %zu bytes behind the input", worst);
    CU_ASSERT_PTR_NOT_NULL(r.text);
    if (r.text && !strstr(r.text, "img@src#0 [x.png]"))
        TEST_FAIL("img src not reported");
    xiri_walker_free(w);
    xiri_registry_free(reg);
    xiri_ctx_free(ctx);
    free(r.text);
    free(t.s);
}

/* ------------------------------------------------------------ the guard
 * against libxml2: random documents built from the pieces of markup
 * where libxml2's tokenizer is odd; for each, the most attributes
 * libxml2 reports on one start tag, K, read in one go; then the walker
 * with the limit K - 1, fed in random chunks, must stop with the guard
 * (not after libxml2 has read the tag). */

static unsigned long rnd_state;

static unsigned rnd(unsigned n)
{
    rnd_state = rnd_state * 6364136223846793005UL + 1442695040888963407UL;
    return (unsigned)((rnd_state >> 33) % n);
}

static int max_attrs;

/* HTML: the start tags libxml2 reported, with where they end, so that
 * those in the text of an element that browsers read as text can be told
 * (text_ranges) */
#define MAX_SEEN 1024
static struct seen_tag {
    size_t at;  /* libxml2's position when it reported the tag: its '>' */
    int attrs;
    char name[12];
} seen_tags[MAX_SEEN];
static size_t nseen;

static void count_html(void *ctx, const xmlChar *name, const xmlChar **atts)
{
    htmlParserCtxtPtr px = ctx;
    int n = 0;

    while (atts && atts[2 * n])
        n++;
    if (nseen < MAX_SEEN) {
        seen_tags[nseen].at = (size_t)px->input->consumed +
                         (size_t)(px->input->cur - px->input->base);
        seen_tags[nseen].attrs = n;
        snprintf(seen_tags[nseen].name, sizeof(seen_tags[nseen].name), "%s",
                 name);
        nseen++;
    }
}

/* The text that browsers read as the content of script, style, title,
 * textarea, xmp or plaintext (WHATWG HTML 13.2.5.2-5: up to "</", the
 * name in any case and a space, '/' or '>'; plaintext to the end), found
 * from the start tags of the last parse, in doc[0..n): out is doc with
 * each '<' in it that is not that end tag written over with '&', and the
 * tags found in it are marked (attrs -1). */
static void text_ranges(const char *doc, size_t n, char *out)
{
    static const char *const names[] = {"script", "style", "title",
                                        "textarea", "xmp", "plaintext"};
    size_t i, k, until = 0;

    memcpy(out, doc, n);
    for (i = 0; i < nseen; i++) {
        size_t e = seen_tags[i].at, len, j;
        if (e < until) {
            seen_tags[i].attrs = -1; /* text to a browser */
            continue;
        }
        for (k = 0; k < ARRAY_LEN(names); k++)
            if (strcmp(seen_tags[i].name, names[k]) == 0)
                break;
        if (k == ARRAY_LEN(names))
            continue;
        len = strlen(names[k]);
        until = n;
        for (j = e; k != 5 && j + 2 + len < n; j++) {
            char c = doc[j + 2 + len];
            if (doc[j] == '<' && doc[j + 1] == '/' &&
                xmlStrncasecmp((const xmlChar *)doc + j + 2,
                               (const xmlChar *)names[k], (int)len) == 0 &&
                strchr(" \t\n\f\r/>", c) != NULL && c != '\0') {
                until = j;
                break;
            }
        }
        for (j = e; j < until; j++)
            if (out[j] == '<')
                out[j] = '&';
    }
}

static void count_xml(void *ctx, const xmlChar *localname,
                      const xmlChar *prefix, const xmlChar *URI,
                      int nb_namespaces, const xmlChar **namespaces,
                      int nb_attributes, int nb_defaulted,
                      const xmlChar **attributes)
{
    int n = nb_attributes - nb_defaulted + nb_namespaces;

    (void)ctx, (void)localname, (void)prefix, (void)URI, (void)namespaces;
    (void)attributes;
    if (n > max_attrs)
        max_attrs = n;
}

static void quiet(void *ctx, xmlErrorPtr e)
{
    (void)ctx, (void)e;
}

/* The most attributes libxml2 reports on one tag of doc, read at once;
 * HTML: on a tag that is not in the text of an element that browsers
 * read as text (the walker does not have libxml2 read it as a tag), found
 * by parsing again with that text's '<' written over (text_ranges) until
 * nothing changes. */
static int libxml2_max_attrs(const char *doc, size_t n, bool html)
{
    xmlSAXHandler sax;
    xmlParserCtxtPtr px;

    memset(&sax, 0, sizeof(sax));
    sax.initialized = XML_SAX2_MAGIC;
    sax.serror = quiet;
    max_attrs = 0;
    if (html) {
        static char masked[2][8192];
        size_t round, i;
        const char *text = doc;

        sax.startElement = count_html;
        for (round = 0; round < 8 && n <= sizeof(masked[0]); round++) {
            nseen = 0;
            px = htmlCreatePushParserCtxt(&sax, NULL, NULL, 0, "t",
                                          XML_CHAR_ENCODING_UTF8);
            htmlCtxtUseOptions(px, HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC |
                                       HTML_PARSE_NOERROR |
                                       HTML_PARSE_NOWARNING |
                                       HTML_PARSE_NOBLANKS);
            htmlParseChunk(px, text, (int)n, 1);
            htmlFreeParserCtxt(px);
            text_ranges(doc, n, masked[round % 2]);
            if (memcmp(masked[round % 2], text, n) == 0)
                break; /* the tags of the text parsed are the same */
            text = masked[round % 2];
        }
        for (i = 0; i < nseen; i++)
            if (seen_tags[i].attrs > max_attrs)
                max_attrs = seen_tags[i].attrs;
    } else {
        sax.startDocument = xmlSAX2StartDocument;
        sax.internalSubset = xmlSAX2InternalSubset;
        sax.entityDecl = xmlSAX2EntityDecl;
        sax.getEntity = xmlSAX2GetEntity;
        sax.getParameterEntity = xmlSAX2GetParameterEntity;
        sax.startElementNs = count_xml;
        px = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, "t");
        xmlCtxtUseOptions(px, XML_PARSE_NONET | XML_PARSE_IGNORE_ENC |
                                  XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
        xmlSwitchEncoding(px, XML_CHAR_ENCODING_UTF8);
        xmlParseChunk(px, doc, (int)n, 1);
        if (px->myDoc)
            xmlFreeDoc(px->myDoc);
        xmlFreeParserCtxt(px);
    }
    return max_attrs;
}

/* (no bogus comments: see bogus_comment) */
static const char *const html_pieces[] = {
    "<p>", "<a", "<b ", "<script>", "<style>", "</script>", "</style>",
    "</b>", "<!--", "-->", "--!>", "-- >", "<!DOCTYPE html", "<!doctype",
    " SYSTEM ", " PUBLIC ", "<?pi ", "?>", ">", "/>", "/", "\"", "'", "=",
    "= ", " ", "\n", "\t", "\f", "x", "\xC3\xA9", "]]>", "&amp;", "#x",
    "<", "<_", "<3", "<T", "A", "A", "A", "AAA", "AAAA",
};
static const char *const xml_pieces[] = {
    "<e", "<e", "<p:e", "</e>", "/>", ">", ">", " ", "\n", "=", "\"", "'",
    "A", "A", "A", "AA", "AAA", "AAAA", "<!--", "-->", "-", "<?pi ", "?>",
    "?", "<![CDATA[", "]]>", "]", "x", "&amp;", "<!DOCTYPE r [", "]>",
    "<!ENTITY x \"", "\">", "&x;", " xmlns:p=\"urn:p\"", "\xC3\xA9",
};

/* A random document: pieces of markup, and start tags with attributes
 * of new names (with or without a value, quoted or not). */
static size_t random_doc(char *out, size_t cap, bool html)
{
    static const char *const forms[] = {"", "=v", "=\"v\"", "='>'",
                                        " = \"'\"", "=\"a b\""};
    size_t n = 0, count = 10 + rnd(120), i;
    int attr = 0;

    if (html && rnd(2))
        n += (size_t)snprintf(out, cap, "<html><body>");
    if (!html)
        n += (size_t)snprintf(out, cap, "<r xmlns:p=\"urn:p\">");
    for (i = 0; i < count && n + 256 < cap; i++) {
        const char *piece = html ? html_pieces[rnd(ARRAY_LEN(html_pieces))]
                                 : xml_pieces[rnd(ARRAY_LEN(xml_pieces))];
        if (piece[0] == 'A' || rnd(3) == 0) {
            /* a start tag, or (piece "A...") attributes where it falls */
            size_t k, len = piece[0] == 'A' ? strlen(piece) : 1 + rnd(6);
            bool script = false;
            if (piece[0] != 'A') {
                script = html && rnd(4) == 0;
                n += (size_t)snprintf(out + n, cap - n, "<%s",
                                      html ? (script ? "script" : "a")
                                           : (rnd(4) ? "e" : "p:e"));
            }
            for (k = 0; k < len; k++)
                n += (size_t)snprintf(out + n, cap - n, " a%d%s", attr++,
                                      forms[html ? rnd(6) : 2 + rnd(4)]);
            /* (a script closed by "/>" is text up to "</script" to a
             * browser and so to the walker, not to libxml2 alone) */
            if (piece[0] != 'A')
                n += (size_t)snprintf(out + n, cap - n, "%s",
                                      rnd(3) || script ? ">" : "/>");
        } else {
            n += (size_t)snprintf(out + n, cap - n, "%s", piece);
        }
    }
    return n;
}

/* Whether doc may hold what a browser reads as a bogus comment and
 * libxml2 as text, or "<!-->" (WHATWG HTML 13.2.5.6, 7, 42, 43): the
 * walker has libxml2 read no tag in it, which the libxml2 of
 * libxml2_max_attrs would (test_walk_limit_attributes has such cases). */
static bool bogus_comment(const char *doc, size_t n, bool html)
{
    size_t i;

    for (i = 0; html && i + 2 < n; i++) {
        const char *p = doc + i;
        if (p[0] != '<')
            continue;
        if ((p[1] == '?' && !isalpha((unsigned char)p[2])) ||
            (p[1] == '/' && !isalpha((unsigned char)p[2])))
            return true;
        if (p[1] == '!' && strncmp(p + 2, "--", 2) != 0 &&
            xmlStrncasecmp((const xmlChar *)p + 2,
                           (const xmlChar *)"doctype", 7) != 0)
            return true;
        if (strncmp(p, "<!-->", 5) == 0 || strncmp(p, "<!--->", 6) == 0)
            return true;
    }
    return false;
}

/* The text as the walker gives it to libxml2: the guard's masks written
 * over it (tagscan.h: '_', '-', ' ' where browsers read a name or a blank
 * that libxml2 would not), read in one go, resumed with its own guesses. */
static void guard_masks(char *text, size_t n, bool html)
{
    struct tag_guard g;

    tag_guard_init(&g, html, 0);
    while (tag_guard_scan(&g, text, 0, n, (unsigned long)-1, SIZE_MAX) ==
           TAG_GUARD_SYNC)
        tag_guard_resume(&g, -1, NULL);
}

/* The guard writes over bytes libxml2 must not read as written; where
 * one is the second or later byte of a UTF-8 character the text holds
 * one character more, and the guard says where (masked), so that columns
 * count the document's characters: for any text, the characters after
 * the scan less the masked places are the characters before.  Random HTML
 * tags of names and values with non-ASCII characters, and the case fuzz_walk
 * found: a tag name of 100 characters that a two-byte character goes on
 * from after its first byte, whose second byte libxml2 takes for the
 * start of an attribute's name (written over with '_', not said: a
 * column one too far when the line was counted again). */
static size_t masked_count;

static void count_masked(void *user, size_t pos)
{
    const char *orig = user;

    if (((unsigned char)orig[pos] & 0xC0) != 0x80)
        TEST_FAIL("masked at %zu, no second byte of a character", pos);
    masked_count++;
}

static size_t utf8_chars(const char *s, size_t n)
{
    size_t i, c = 0;

    for (i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

static void test_walk_guard_masks_count_characters(void)
{
    static const char *const bits[] = {"a",
                                       "b",
                                       "\xC3\xA9",
                                       "\xE2\x82\xAC",
                                       " ",
                                       "=",
                                       "\"",
                                       "'",
                                       "/",
                                       "<",
                                       ">",
                                       "x=\"\xC3\xA9\"",
                                       "</",
                                       "\n",
                                       "\xF0\x9F\x98\x80",
                                       "-",
                                       "_"};
    static char doc[4096], text[4096];
    unsigned long round;

    rnd_state = 20261128;
    for (round = 0; round < 3000; round++) {
        struct tag_guard g;
        size_t n = 0, k;

        if (round == 0) {
            /* <b, 98 a and the first byte of an e-acute: libxml2's
             * name stops at 100 bytes, before the second */
            n = (size_t)snprintf(
                doc, sizeof(doc), "<b%.98s\xC3\xA9 x><a href=y>",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
        } else {
            while (n + 300 < sizeof(doc) && rnd(40) != 0) {
                const char *b = bits[rnd(ARRAY_LEN(bits))];
                if (rnd(30) == 0) {
                    /* a name of about 100 characters */
                    size_t len = 95 + rnd(10);
                    doc[n++] = '<';
                    for (k = 0; k < len; k++)
                        doc[n++] = 'a';
                }
                memcpy(doc + n, b, strlen(b));
                n += strlen(b);
            }
        }
        memcpy(text, doc, n);
        masked_count = 0;
        tag_guard_init(&g, true, 0);
        g.masked = count_masked;
        g.masked_user = doc;
        while (tag_guard_scan(&g, text, 0, n, (unsigned long)-1, SIZE_MAX) ==
               TAG_GUARD_SYNC)
            tag_guard_resume(&g, -1, NULL);
        if (utf8_chars(text, n) - masked_count != utf8_chars(doc, n))
            TEST_FAIL("round %lu: %zu characters, %zu after the scan with "
                      "%zu masked: %.*s",
                      round, utf8_chars(doc, n), utf8_chars(text, n),
                      masked_count, (int)n, doc);
    }
}

static void test_walk_guard_against_libxml2(void)
{
    static char doc[8192], masked[8192];
    unsigned long round, stopped = 0, checked = 0;

    rnd_state = 20240601;
    for (round = 0; round < 8000; round++) {
        bool html = round % 3 != 0;
        size_t n = random_doc(doc, sizeof(doc), html);
        int k;
        struct xiri_walk_options o;
        struct lim l;
        size_t chunk = 1 + rnd(round % 2 ? 16 : 300);

        /* libxml2 counts the attributes of the text it is given */
        memcpy(masked, doc, n);
        guard_masks(masked, n, html);
        k = libxml2_max_attrs(masked, n, html);
        if (k < 2 || bogus_comment(doc, n, html))
            continue; /* a limit of 0 means the default */
        xiri_walk_options_init(&o);
        o.max_attributes = (unsigned long)k - 1;
        o.max_depth = 100000;
        walk_lim(doc, n, chunk, html ? XIRI_DOC_HTML : XIRI_DOC_XML, &o, &l);
        checked++;
        if (l.st == XIRI_ELIMIT && l.backstops == 0 &&
            strstr(l.message, "attributes"))
            stopped++;
        else if (l.backstops > 0 || l.st != XIRI_EDOC)
            TEST_FAIL("round %lu (%s, chunks of %zu, limit %d): %s %s, "
                      "backstops %lu: %.*s",
                      round, html ? "html" : "xml", chunk, k - 1,
                      xiri_strerror(l.st), l.message, l.backstops, (int)n,
                      doc);
        free(l.r.text);
    }
    /* XML that libxml2 reads at once but the walker stops on as not
     * well-formed before the tag: none expected either */
    CU_ASSERT_EQUAL(stopped, checked);
    CU_ASSERT(checked > 5000);
}

/* ------------------------------------------------------------ the log
 * The guard records the start tags it reads in one go (tag_log), so that
 * the walker need not scan them again.  Every record must be what the
 * independent scanners say of the same tag: a '<' that tag_find_start
 * (XML; reading backward) or tag_find_start_html (HTML; reading
 * forward, as libxml2 does) finds for that '>', and the attributes
 * tag_next_attr reads, in order, with the same spans and quotes.  The
 * documents: every sample, whole and fed in chunks of 1 to 97 bytes
 * (tags cut anywhere are not recorded, never recorded wrong), and
 * hand-made tags that read differently in HTML. */

static unsigned long log_check(const char *text, size_t n, bool html,
                               size_t step, const char *what)
{
    static struct tag_log log;
    static char t[1 << 20];
    struct tag_guard g;
    size_t end = 0, k;
    unsigned long seen = 0;

    if (n >= sizeof(t)) {
        TEST_FAIL("%s: longer than %zu bytes", what, sizeof(t));
        return 0;
    }
    memcpy(t, text, n); /* the guard may write over it, as in the walker */
    tag_guard_init(&g, html, 0);
    memset(&log, 0, sizeof(log));
    g.log = &log;
    while (end < n) {
        enum tag_guard_result r;
        end = end + step < n ? end + step : n;
        /* resumed with -1: the guard keeps its own guess */
        r = tag_guard_scan(&g, t, 0, end, 100000, (size_t)1 << 30);
        if (r == TAG_GUARD_SYNC)
            tag_guard_resume(&g, -1, NULL);
        for (k = 0; k < log.ntags; k++) {
            const struct tag_rec *rec = &log.tags[k];
            size_t cursor = rec->lt, i, want;
            struct tag_attr a;
            char name[16];

            seen++;
            if (t[rec->lt] != '<' || t[rec->gt] != '>' || rec->gt >= end) {
                TEST_FAIL("%s: tag [%zu, %zu] is not a tag", what, rec->lt,
                          rec->gt);
                continue;
            }
            /* the element name, for the HTML scanner */
            for (i = 0; i < sizeof(name) - 1 && rec->lt + 1 + i < rec->gt &&
                        !strchr(" \t\r\n/>", t[rec->lt + 1 + i]);
                 i++)
                name[i] = (char)(t[rec->lt + 1 + i] >= 'A' &&
                                         t[rec->lt + 1 + i] <= 'Z'
                                     ? t[rec->lt + 1 + i] - 'A' + 'a'
                                     : t[rec->lt + 1 + i]);
            name[i] = '\0';
            if (!html)
                want = tag_find_start(t, k ? log.tags[k - 1].gt + 1 : 0,
                                      rec->gt);
            else
                want = tag_find_start_html(t, k ? log.tags[k - 1].gt + 1 : 0,
                                           rec->gt, name);
            if (want != rec->lt && !(html && i == sizeof(name) - 1))
                TEST_FAIL("%s: the tag ending at %zu starts at %zu, the "
                          "scanner says %zu",
                          what, rec->gt, rec->lt, want);
            if (rec->n == TAG_REC_UNREAD)
                continue; /* read by the state machine: a place only */
            for (i = 0; tag_next_attr(t, rec->gt + 1, &cursor, &a); i++) {
                const struct tag_attr *b = &log.attrs[rec->first + i];
                if (i >= rec->n || a.name != b->name ||
                    a.name_len != b->name_len || a.value != b->value ||
                    a.value_len != b->value_len || a.quote != b->quote) {
                    TEST_FAIL("%s: attribute %zu of the tag at %zu differs "
                              "from tag_next_attr's",
                              what, i, rec->lt);
                    break;
                }
            }
            if (i != rec->n || cursor != rec->gt)
                TEST_FAIL("%s: the tag at %zu has %u attributes recorded, "
                          "tag_next_attr reads %zu ending at %zu",
                          what, rec->lt, rec->n, i, cursor);
        }
        /* as the walker does once libxml2 has read them */
        tag_log_trim(&log, end);
    }
    return seen;
}

static void test_walk_guard_log(void)
{
    static const char *const samples[] = {
        "catalog.xml", "custom.xml", "custom.xsd", "euc-jp.html",
        "feed.atom", "feed.rss", "html4-base.html", "html5-media.html",
        "latin1.xml", "links.xhtml", "no-charset.html", "shift_jis.html",
        "trail-legend.svg", "windows-1252.html",
    };
    static const char *const html_cases[] = {
        "<p><a href=x>a</a><A HREF='y' title=\"z\">b</A><img src=i.png "
        "alt=don't><br/><input disabled value=v><a href = \"q\" >",
        "<a href=\"x\"title='t'id=i><area href=/a/b?c=d&e=f shape=rect>",
        "<a href=x/><a href=x / ><a b/c=d>",
        "<!-- <a href=c> --><script>var s = '<a href=s>';</script>"
        "<style>a{}</style><a href=after>",
        "<a href=\"unterminated><b>x</b>\">",
        "<div data-x=\"a>b\" onclick='c<d'><a\thref\n=\r'w'>",
    };
    static const char *const xml_cases[] = {
        "<r xmlns:x='urn:x'><a x:href=\"a\" b = 'c'/><c d='&lt;&amp;'/>"
        "<e f=\"g>h\"/><![CDATA[<a href='cd'/>]]><?pi <a b='c'?></r>",
        "<!DOCTYPE r [<!ENTITY e '<x a=\"1\"/>'>]><r><x a='1'/>&e;</r>",
    };
    size_t i, step;
    unsigned long seen = 0;
    char what[64];

    for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        static char data[1 << 20];
        size_t n = test_read_sample(samples[i], data, sizeof(data));
        bool html = strstr(samples[i], ".html") != NULL;

        if (n == SIZE_MAX)
            continue;
        for (step = 1; step < 100; step += 8) {
            snprintf(what, sizeof(what), "%s by %zu", samples[i], step);
            seen += log_check(data, n, html, step, what);
        }
        snprintf(what, sizeof(what), "%s whole", samples[i]);
        seen += log_check(data, n, html, n, what);
    }
    for (i = 0; i < sizeof(html_cases) / sizeof(html_cases[0]); i++)
        for (step = 1; step < 100; step += 8) {
            snprintf(what, sizeof(what), "html case %zu by %zu", i, step);
            seen += log_check(html_cases[i], strlen(html_cases[i]), true,
                              step, what);
        }
    for (i = 0; i < sizeof(xml_cases) / sizeof(xml_cases[0]); i++)
        for (step = 1; step < 100; step += 8) {
            snprintf(what, sizeof(what), "xml case %zu by %zu", i, step);
            seen += log_check(xml_cases[i], strlen(xml_cases[i]), false,
                              step, what);
        }
    CU_ASSERT(seen > 1000);
}

/* Decode data[0..n) with the input module, fed step bytes at a time, and
 * compare the UTF-8 window with want; 'at' is where U+1D11E is expected
 * in the text and 'orig' its original offset. */
static void input_pair_case(const char *enc, const char *data, size_t n,
                            size_t step, const char *want, size_t want_len,
                            size_t at, size_t orig, const char *what)
{
    struct input *in = NULL;
    size_t off, fresh, start, end;
    const char *text;
    enum xiri_status st = XIRI_OK;

    if (input_new(enc, 0, NULL, NULL, &in) != XIRI_OK) {
        TEST_FAIL("%s: input_new", what);
        return;
    }
    for (off = 0; off < n && st == XIRI_OK; off += step) {
        size_t k = n - off < step ? n - off : step;
        st = input_convert(in, data + off, k, off + k == n, &fresh);
    }
    text = input_window(in, &start, &end);
    if (st != XIRI_OK || start != 0 || end != want_len ||
        memcmp(text, want, want_len) != 0)
        TEST_FAIL("%s: status %d, %zu bytes of text (want %zu), U+1D11E "
                  "%s",
                  what, (int)st, end - start, want_len,
                  end >= at + 4 && memcmp(text + at, "\xF0\x9D\x84\x9E", 4) == 0
                      ? "decoded"
                      : "lost");
    else if (input_orig_offset(in, at) != orig)
        TEST_FAIL("%s: U+1D11E at original offset %zu, want %zu", what,
                  input_orig_offset(in, at), orig);
    input_free(in);
}

/* The text and the invalid bytes (their original offsets) of UTF-8
 * data[0..n) fed in the chunks that cuts[] ends (ascending, the last
 * n). */
struct utf8_log {
    char text[64];
    size_t len, bad[16], nbad;
};

static void utf8_log_bad(void *user, size_t pos, size_t orig,
                         const unsigned char *b, size_t n)
{
    struct utf8_log *l = user;

    (void)pos, (void)b, (void)n;
    if (l->nbad < ARRAY_LEN(l->bad))
        l->bad[l->nbad++] = orig;
}

static void utf8_fed(const char *data, size_t n, const size_t *cuts,
                     struct utf8_log *l)
{
    struct input *in = NULL;
    size_t off = 0, fresh, start, end, k;
    const char *text;

    memset(l, 0, sizeof(*l));
    if (input_new("UTF-8", 0, utf8_log_bad, l, &in) != XIRI_OK)
        return;
    for (k = 0; off < n || k == 0; k++) {
        input_convert(in, data + off, cuts[k] - off, cuts[k] == n, &fresh);
        off = cuts[k];
    }
    text = input_window(in, &start, &end);
    l->len = end - start < sizeof(l->text) ? end - start : sizeof(l->text);
    memcpy(l->text, text, l->len);
    input_free(in);
}

/* A UTF-8 sequence cut by the end of a chunk: wherever the text is cut
 * (each cut, and every pair of cuts), the same text and the same invalid
 * bytes as fed whole.  A sequence of two bytes cut from its third by a
 * byte that does not continue it ("\xE0\xA0" | "A") lost the "A" and the
 * second byte: the first was reported and the rest read again from a
 * place before the chunk.  By hand, for that one: x U+FFFD U+FFFD A,
 * offsets 1 and 2 invalid (each byte of a broken sequence is one
 * U+FFFD, as xiri reads UTF-8 whole). */
static void test_walk_utf8_cut_sequences(void)
{
    static const char *const cases[] = {"x\xE0\xA0"
                                        "A",
                                        "\xE0\xA0",
                                        "\xF0\x9F\x98",
                                        "\xF0\x9F\x98\x80z",
                                        "\xE2\x82\xACy\xE2\x82",
                                        "\xF0\x9F\xC3\xA9",
                                        "\xC3",
                                        "\xED\xA0\x80q",
                                        "\xF4\x90\x80\x80",
                                        "ab\xF0\x9F\x98\xE2\x82\xAC",
                                        "\xC3\xA9\xC3",
                                        "\x80\xBF\xC3\xA9"};
    size_t c, i, j;

    for (c = 0; c < ARRAY_LEN(cases); c++) {
        const char *d = cases[c];
        size_t n = strlen(d), whole_cut[1] = {n};
        struct utf8_log whole, cut;

        utf8_fed(d, n, whole_cut, &whole);
        if (c == 0) {
            CU_ASSERT_EQUAL(whole.len, 8);
            CU_ASSERT(memcmp(whole.text,
                             "x\xEF\xBF\xBD\xEF\xBF\xBD"
                             "A",
                             8) == 0);
            CU_ASSERT(whole.nbad == 2 && whole.bad[0] == 1 &&
                      whole.bad[1] == 2);
        }
        for (i = 0; i < n; i++)
            for (j = i; j < n; j++) {
                size_t cuts[3], k = 0;

                cuts[k++] = i;
                if (j > i)
                    cuts[k++] = j;
                cuts[k++] = n;
                utf8_fed(d, n, cuts, &cut);
                if (cut.len != whole.len ||
                    memcmp(cut.text, whole.text, whole.len) != 0 ||
                    cut.nbad != whole.nbad ||
                    memcmp(cut.bad, whole.bad,
                           whole.nbad * sizeof(whole.bad[0])) != 0)
                    TEST_FAIL("UTF-8 case %zu cut at %zu and %zu: %zu bytes "
                              "of text, %zu invalid; fed whole %zu and %zu",
                              c, i, j, cut.len, cut.nbad, whole.len,
                              whole.nbad);
            }
    }
}

/* A supplementary character whose UTF-16 pair straddles the end of ICU's
 * 4096-unit output buffer (or of a chunk) is one character, not two
 * U+FFFD: UTF-16LE and GB18030 (U+1D11E is 94 32 BE 34 there, from
 * Python's gb18030 codec), every cut position around the buffer end. */
static void test_walk_surrogate_pair_straddles(void)
{
    static char data[2 * 4200], want[4200];
    size_t k;

    for (k = 4088; k <= 4100; k++) {
        size_t i, n = 0, w = 0;
        char what[64];

        for (i = 0; i < k; i++) { /* 'x' * k, U+1D11E, 'y' */
            data[n++] = 'x';
            data[n++] = 0;
            want[w++] = 'x';
        }
        memcpy(data + n, "\x34\xD8\x1E\xDD" "y\0", 6);
        memcpy(want + w, "\xF0\x9D\x84\x9E" "y", 5);
        snprintf(what, sizeof(what), "UTF-16LE, %zu units before", k);
        input_pair_case("UTF-16LE", data, n + 6, n + 6, want, w + 5, k,
                        2 * k, what);
        snprintf(what, sizeof(what), "UTF-16LE by 3, %zu units before", k);
        input_pair_case("UTF-16LE", data, n + 6, 3, want, w + 5, k, 2 * k,
                        what);
        memcpy(data, want, w); /* GB18030: ASCII is itself */
        memcpy(data + w, "\x94\x32\xBE\x34" "y", 5);
        snprintf(what, sizeof(what), "GB18030, %zu units before", k);
        input_pair_case("GB18030", data, w + 5, w + 5, want, w + 5, k, k,
                        what);
    }
}

/* tag_html_text_element: the six elements whose content is text to a
 * browser (WHATWG HTML 13.2.6.4.7 RCDATA and raw text, 13.2.5.1
 * plaintext), in any ASCII case, by their whole name only. */
static void test_walk_html_text_elements(void)
{
    static const struct {
        const char *name;
        const char *want;
        bool raw;
    } cases[] = {
        {"script", "script", true},   {"STYLE", "style", true},
        {"Title", "title", false},    {"textArea", "textarea", false},
        {"xmp", "xmp", false},        {"PLAINTEXT", "plaintext", false},
        {"scripts", NULL, false},     {"scrip", NULL, false},
        {"titlf", NULL, false},       {"textarea2", NULL, false},
        {"iframe", NULL, false},      {"noembed", NULL, false},
        {"s\xC3\xA9ript", NULL, false}, {"tItLe", "title", false}};
    size_t i;

    for (i = 0; i < ARRAY_LEN(cases); i++) {
        const struct tag_text_element *te =
            tag_html_text_element(cases[i].name, strlen(cases[i].name));
        if (!cases[i].want ? te != NULL
                           : !te || strcmp(te->name, cases[i].want) != 0 ||
                                 te->libxml2_raw != cases[i].raw)
            TEST_FAIL("%s: %s", cases[i].name, te ? te->name : "none");
    }
}

/* The single-byte encodings (read from a table of what ICU makes of each
 * byte, input.c probe_single_bytes): every byte 00-FF, fed 1, 5 and 256
 * bytes at a time, as XML and as HTML (NUL is U+FFFD there).  What a byte
 * must give: windows-1252 from WHATWG Encoding's index-windows-1252
 * (0x80-0x9F below; A0-FF are U+00A0-U+00FF); the others, ASCII as
 * itself (WHATWG single-byte decoder: IBM866's 1A, 1C and 7F too, which
 * ICU's ibm-866 exchanges), the rest as a converter of ICU's own reading
 * the byte alone says (US-ASCII: not valid).  Each character's first and
 * other bytes are at the byte's offset. */
struct sb_bad {
    size_t n, pos[256], orig[256];
};

static void sb_on_bad(void *user, size_t pos, size_t orig,
                      const unsigned char *b, size_t n)
{
    struct sb_bad *r = user;

    (void)b;
    (void)n;
    if (r->n < 256) {
        r->pos[r->n] = pos;
        r->orig[r->n++] = orig;
    }
}

static void test_walk_single_byte_encodings(void)
{
    static const uint16_t cp1252[32] = {
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
    static const char *const encs[] = {"windows-1252", "IBM866", "KOI8-R",
                                       "ISO-8859-2", "US-ASCII"};
    static const size_t steps[] = {1, 5, 256};
    char data[256];
    size_t e, b, si;
    int html;

    for (b = 0; b < 256; b++)
        data[b] = (char)b;
    for (e = 0; e < ARRAY_LEN(encs); e++) {
        char want[256 * 4];
        size_t first[256], w = 0, bad_want = 0;
        UErrorCode ec = U_ZERO_ERROR;
        UConverter *cnv = ucnv_open(encs[e], &ec);

        CU_ASSERT_FATAL(U_SUCCESS(ec));
        ucnv_setToUCallBack(cnv, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL,
                            &ec);
        for (html = 0; html < 2; html++)
            for (si = 0; si < ARRAY_LEN(steps); si++) {
                struct input *in = NULL;
                struct sb_bad bad = {0};
                size_t off, fresh, start, end;
                const char *text;
                enum xiri_status st = XIRI_OK;

                /* the text every byte must give */
                for (b = 0, w = 0, bad_want = 0; b < 256; b++) {
                    uint32_t cp;
                    UChar u[4];
                    int32_t k;

                    ec = U_ZERO_ERROR;
                    k = ucnv_toUChars(cnv, u, 4, data + b, 1, &ec);
                    if (b < 0x80 && (b > 0 || !html)) {
                        cp = (uint32_t)b;
                    } else if (b == 0 || U_FAILURE(ec) || k != 1) {
                        cp = 0xFFFD;
                        bad_want++;
                    } else if (e == 0) {
                        cp = b < 0xA0 ? cp1252[b - 0x80] : (uint32_t)b;
                    } else {
                        cp = u[0];
                    }
                    first[b] = w;
                    w += utf8_encode(cp, want + w);
                }
                CU_ASSERT_FATAL(input_new(encs[e], 0, sb_on_bad, &bad,
                                          &in) == XIRI_OK);
                if (html)
                    input_read_as_html(in);
                for (off = 0; off < 256 && st == XIRI_OK; off += steps[si]) {
                    size_t k = 256 - off < steps[si] ? 256 - off : steps[si];
                    st = input_convert(in, data + off, k, off + k == 256,
                                       &fresh);
                }
                text = input_window(in, &start, &end);
                if (st != XIRI_OK || start != 0 || end != w ||
                    memcmp(text, want, w) != 0)
                    TEST_FAIL("%s by %zu%s: status %d, %zu bytes of text, "
                              "want %zu",
                              encs[e], steps[si], html ? " (HTML)" : "",
                              (int)st, end - start, w);
                for (b = 0; b < 256; b++) {
                    size_t last = b == 255 ? w : first[b + 1], p;
                    for (p = first[b]; p < last; p++)
                        if (input_orig_offset(in, p) != b)
                            TEST_FAIL("%s: text byte %zu at offset %zu, "
                                      "want %zu",
                                      encs[e], p, input_orig_offset(in, p),
                                      b);
                }
                CU_ASSERT_EQUAL(bad.n, bad_want);
                for (b = 0; b < bad.n; b++)
                    if (bad.orig[b] >= 256 ||
                        bad.pos[b] != first[bad.orig[b]])
                        TEST_FAIL("%s: bad byte %zu reported at %zu",
                                  encs[e], bad.orig[b], bad.pos[b]);
                input_free(in);
            }
        ucnv_close(cnv);
    }
}

/* xiri_walker_position: for each link, the place of every character of
 * its value and of its end, asked for on a copy of the link (as xiri
 * check does); then, once, for an earlier offset again (the cursor goes
 * back) and for another link's value (XIRI_EINVAL). */
struct pos_run {
    struct xiri_walker *w;
    struct record r;
};

static int on_link_positions(void *user, const struct xiri_link *l)
{
    struct pos_run *p = user;
    struct xiri_link copy = *l;
    char line[256];
    unsigned long ln, col;
    size_t off, k;
    struct xiri_link other = *l;

    snprintf(line, sizeof(line), "%s#%u", l->attribute ? l->attribute : "()",
             l->item);
    rec_add(&p->r, line);
    for (k = 0; k <= l->value_len; k++) {
        if (k < l->value_len && ((unsigned char)l->value[k] & 0xC0) == 0x80)
            continue; /* not the first byte of a character */
        if (xiri_walker_position(p->w, &copy, k, &ln, &col, &off) != XIRI_OK) {
            rec_add(&p->r, "  failed");
            continue;
        }
        snprintf(line, sizeof(line), "  %zu %lu:%lu+%zu", k, ln, col, off);
        rec_add(&p->r, line);
    }
    if (xiri_walker_position(p->w, &copy, 0, &ln, &col, &off) != XIRI_OK ||
        ln != l->line)
        rec_add(&p->r, "  back to 0 failed");
    other.value = "x";
    other.value_len = 1;
    if (xiri_walker_position(p->w, &other, 0, &ln, &col, &off) !=
        XIRI_EINVAL)
        rec_add(&p->r, "  another value accepted");
    return 0;
}

static void positions_case(const char *name, const char *doc, size_t n,
                           enum xiri_doc_type type, const char *want)
{
    static const size_t chunks[] = {1, 5, 4096};
    struct xiri_registry *reg = test_registry();
    struct xiri_ctx *ctx = NULL;
    size_t k, i;

    xiri_ctx_new(&ctx);
    for (k = 0; k < ARRAY_LEN(chunks); k++) {
        struct pos_run p;
        enum xiri_status st;
        struct xiri_error err;
        char what[128];

        struct xiri_walk_options o;

        xiri_walk_options_init(&o);
        o.type = type;
        memset(&p, 0, sizeof(p));
        st = xiri_walker_new(ctx, reg, &o, on_link_positions, NULL, &p,
                             &p.w);
        for (i = 0; st == XIRI_OK && i < n; i += chunks[k])
            st = xiri_walker_feed(p.w, doc + i,
                                  n - i < chunks[k] ? n - i : chunks[k], &err);
        if (st == XIRI_OK)
            st = xiri_walker_finish(p.w, &err);
        snprintf(what, sizeof(what), "%s (chunks of %zu)", name, chunks[k]);
        if (st != XIRI_OK)
            TEST_FAIL("%s: %s", what, xiri_strerror(st));
        else
            TEST_STR_EQ(what, p.r.text ? p.r.text : "", want);
        /* outside on_link: no link is current */
        if (xiri_walker_position(p.w, NULL, 0, NULL, NULL, NULL) !=
            XIRI_EINVAL)
            TEST_FAIL("%s: NULL link accepted", what);
        xiri_walker_free(p.w);
        free(p.r.text);
    }
    xiri_ctx_free(ctx);
    xiri_registry_free(reg);
}

/* Positions counted by hand in the documents: a finding about a character
 * written as a reference is placed at its '&', and the characters after
 * it where they are written (xiri check used to count the decoded
 * characters from the value's start: column 19 for the 'd' below, 28 in
 * the document). */
static void test_walk_positions_in_value(void)
{
    /* line 3 starts at byte 55; the value at column 13, byte 67: b, then
     * &amp; (5 columns), &#233; (6, two bytes of UTF-8), &e; ("ent") and
     * d; the end is the quote.  Line 4 (byte 87): the content of <id>
     * starts at column 5; CDATA's markers decode to nothing, so 'u' is
     * at column 14 and 'b', after "]]>", at 22. */
    static const char xml[] =
        "<?xml version=\"1.0\"?>\n"
        "<!DOCTYPE r [<!ENTITY e \"ent\">]>\n"
        "<r><a href=\"b&amp;&#233;&e;d\"/>\n"
        "<id><![CDATA[urn:a]]>b</id></r>\n";
    static const char xml_want[] =
        "href#0\n"
        "  0 3:13+67\n"
        "  1 3:14+68\n"
        "  2 3:19+73\n"
        "  4 3:25+79\n"
        "  5 3:25+79\n"
        "  6 3:25+79\n"
        "  7 3:28+82\n"
        "  8 3:29+83\n"
        "()#0\n"
        "  0 4:14+100\n"
        "  1 4:15+101\n"
        "  2 4:16+102\n"
        "  3 4:17+103\n"
        "  4 4:18+104\n"
        "  5 4:22+108\n"
        "  6 4:23+109\n";
    /* Shift_JIS: byte offsets count the document's bytes (the katakana
     * TE is the two bytes 83 65), columns its characters.  The value
     * starts at column 36, byte 35; &eacute; takes 8.  Line 2 (byte 55):
     * srcset's value at column 14, its second item "b&#233;.png" 10
     * columns further: column 24, byte 78; its end is the space before
     * "2x" (column 35, byte 89). */
    static const char sjis[] =
        "<meta charset=\"shift_jis\"><a href=\"/\x83" "e&eacute;x\">t</a>\n"
        "<img srcset=\"a.png 1x, b&#233;.png 2x\">\n";
    static const char sjis_want[] =
        "href#0\n"
        "  0 1:36+35\n"
        "  1 1:37+36\n"
        "  4 1:38+38\n"
        "  6 1:46+46\n"
        "  7 1:47+47\n"
        "srcset#0\n"
        "  0 2:14+68\n"
        "  1 2:15+69\n"
        "  2 2:16+70\n"
        "  3 2:17+71\n"
        "  4 2:18+72\n"
        "  5 2:19+73\n"
        "srcset#1\n"
        "  0 2:24+78\n"
        "  1 2:25+79\n"
        "  3 2:31+85\n"
        "  4 2:32+86\n"
        "  5 2:33+87\n"
        "  6 2:34+88\n"
        "  7 2:35+89\n";

    positions_case("xml", xml, sizeof(xml) - 1, XIRI_DOC_XML, xml_want);
    positions_case("shift_jis", sjis, sizeof(sjis) - 1, XIRI_DOC_HTML,
                   sjis_want);
}

/* lazy_positions: the walker leaves each link's line and column 0, and
 * xiri_walker_position, asked during the callback, gives for every
 * character of every value (and its end) the place it gives without the
 * option, and for the value's first byte the line and column the link
 * has without it; offsets and raw lengths are the same.  Over every
 * document of samples/ under the "all" preset, the position documents
 * above, and chunk sizes that cut the window at many places. */
struct lazy_run {
    struct xiri_walker *w;
    bool lazy;
    struct record r;
};

static int on_link_lazy(void *user, const struct xiri_link *l)
{
    struct lazy_run *p = user;
    struct xiri_link copy = *l;
    char line[256];
    unsigned long ln = 0, col = 0;
    size_t off = 0, k;

    if (p->lazy && (l->line != 0 || l->column != 0))
        rec_add(&p->r, "lazy link with a line or column");
    /* the link's own place: as given, or asked for */
    if (p->lazy &&
        xiri_walker_position(p->w, &copy, 0, &ln, &col, &off) != XIRI_OK)
        rec_add(&p->r, "  failed");
    snprintf(line, sizeof(line), "%lu:%lu+%zu/%zu [%.*s]",
             p->lazy ? ln : l->line, p->lazy ? col : l->column, l->offset,
             l->raw_length, (int)l->value_len, l->value);
    rec_add(&p->r, line);
    for (k = 0; k <= l->value_len; k++) {
        if (k < l->value_len && ((unsigned char)l->value[k] & 0xC0) == 0x80)
            continue;
        if (xiri_walker_position(p->w, &copy, k, &ln, &col, &off) != XIRI_OK) {
            rec_add(&p->r, "  failed");
            continue;
        }
        snprintf(line, sizeof(line), "  %zu %lu:%lu+%zu", k, ln, col, off);
        rec_add(&p->r, line);
    }
    return 0;
}

static char *lazy_walk(struct xiri_ctx *ctx, const struct xiri_registry *reg,
                       const char *doc, size_t n, size_t chunk, bool lazy)
{
    struct lazy_run p;
    struct xiri_walk_options o;
    struct xiri_error err;
    enum xiri_status st;
    size_t i;

    xiri_walk_options_init(&o);
    CU_ASSERT_EQUAL(o.lazy_positions, 0);
    o.lazy_positions = lazy;
    memset(&p, 0, sizeof(p));
    p.lazy = lazy;
    st = xiri_walker_new(ctx, reg, &o, on_link_lazy, NULL, &p, &p.w);
    for (i = 0; st == XIRI_OK && i < n; i += chunk)
        st =
            xiri_walker_feed(p.w, doc + i, n - i < chunk ? n - i : chunk, &err);
    if (st == XIRI_OK)
        st = xiri_walker_finish(p.w, &err);
    if (st != XIRI_OK) {
        char line[128];
        snprintf(line, sizeof(line), "status %d", (int)st);
        rec_add(&p.r, line);
    }
    xiri_walker_free(p.w);
    return p.r.text ? p.r.text : strdup("");
}

static void lazy_case(struct xiri_ctx *ctx, const struct xiri_registry *reg,
                      const char *name, const char *doc, size_t n)
{
    static const size_t chunks[] = {1, 7, 100, 4096, 1 << 20};
    size_t k;

    for (k = 0; k < ARRAY_LEN(chunks); k++) {
        char *eager = lazy_walk(ctx, reg, doc, n, chunks[k], false);
        char *lazy = lazy_walk(ctx, reg, doc, n, chunks[k], true);
        char what[128];

        snprintf(what, sizeof(what), "%s (chunks of %zu)", name, chunks[k]);
        TEST_STR_EQ(what, lazy, eager);
        if (k == 0 && strchr(eager, '[') == NULL)
            TEST_FAIL("%s: no link", what);
        free(eager);
        free(lazy);
    }
}

/* xiri_rewriter_new ignores lazy_positions: its events give each link's
 * line and column (the e acute on line 2, column 10, by hand). */
static int lazy_write(void *user, const void *data, size_t len)
{
    (void)user, (void)data, (void)len;
    return 0;
}

/* What lazy_event saw of the one link's event. */
struct lazy_seen {
    struct xiri_rewriter *rw;
    unsigned long link_place[2]; /* the link's line and column */
    unsigned long event_place[2];
    unsigned long asked[2]; /* xiri_rewriter_position's */
    bool changed;
};

static int lazy_event(void *user, const struct xiri_rewrite_event *ev)
{
    struct lazy_seen *seen = user;
    size_t off;

    seen->link_place[0] = ev->link->line;
    seen->link_place[1] = ev->link->column;
    seen->event_place[0] = ev->line;
    seen->event_place[1] = ev->column;
    seen->changed = ev->new_value != NULL;
    CU_ASSERT_EQUAL(xiri_rewriter_position(seen->rw, ev->link, 0,
                                           &seen->asked[0], &seen->asked[1],
                                           &off),
                    XIRI_OK);
    return 0;
}

/* The rewriter under lazy_positions: a changed value's event (no message)
 * has no line and column, nor has its link, and xiri_rewriter_position
 * gives them: line 2, column 10 ('b' after <a href="). */
static void test_walk_rewriter_lazy(void)
{
    static const char doc[] = "<p>\n<a href=\"b\xC3\xA9\">x</a>\n";
    struct xiri_ctx *ctx = NULL;
    struct xiri_registry *reg = test_registry();
    struct xiri_walk_options o;
    struct lazy_seen seen;

    memset(&seen, 0, sizeof(seen));
    xiri_walk_options_init(&o);
    o.type = XIRI_DOC_HTML;
    o.encoding = "UTF-8";
    o.lazy_positions = 1;
    xiri_ctx_new(&ctx);
    CU_ASSERT_EQUAL(xiri_rewriter_new(ctx, reg, &o, NULL, lazy_write,
                                      lazy_event, NULL, &seen, &seen.rw),
                    XIRI_OK);
    if (seen.rw) {
        CU_ASSERT_EQUAL(
            xiri_rewriter_feed(seen.rw, doc, sizeof(doc) - 1, NULL), XIRI_OK);
        CU_ASSERT_EQUAL(xiri_rewriter_finish(seen.rw, NULL), XIRI_OK);
    }
    CU_ASSERT(seen.changed);
    CU_ASSERT_EQUAL(seen.link_place[0], 0);
    CU_ASSERT_EQUAL(seen.event_place[0], 0);
    CU_ASSERT_EQUAL(seen.asked[0], 2);
    CU_ASSERT_EQUAL(seen.asked[1], 10);
    CU_ASSERT_EQUAL(xiri_rewriter_position(NULL, NULL, 0, NULL, NULL, NULL),
                    XIRI_EINVAL);
    xiri_rewriter_free(seen.rw);
    xiri_registry_free(reg);
    xiri_ctx_free(ctx);
}

static int text_write(void *user, const void *data, size_t len)
{
    text_add(user, "%.*s", (int)len, (const char *)data);
    return 0;
}

/* The rewriter with parse_ahead, the records replayed late: the same
 * bytes as without (each e acute escaped, %C3%A9), fewer of them written
 * after the first feed (what a feed writes stops before the links not
 * reported yet). */
static void test_walk_rewriter_parse_ahead(void)
{
    struct text doc = {NULL, 0, 0}, want = {NULL, 0, 0}, out[2];
    size_t m, first[2];
    int k;

    text_add(&doc, "<r>");
    text_add(&want, "<r>");
    for (k = 0; k < 12000; k++) {
        text_add(&doc, "<a href='\xC3\xA9'/>");
        text_add(&want, "<a href='%%C3%%A9'/>");
    }
    text_add(&doc, "</r>");
    text_add(&want, "</r>");
    for (m = 0; m < 2; m++) {
        struct xiri_ctx *ctx = NULL;
        struct xiri_registry *reg = test_registry();
        struct xiri_walk_options o;
        struct xiri_rewriter *rw = NULL;
        enum xiri_status st;

        memset(&out[m], 0, sizeof(out[m]));
        text_add(&out[m], "%s", "");
        xiri_walk_options_init(&o);
        o.parse_ahead = m == 1;
        xiri_ctx_new(&ctx);
        st = xiri_rewriter_new(ctx, reg, &o, NULL, text_write, NULL, NULL,
                               &out[m], &rw);
        if (st == XIRI_OK)
            walk_set_pipe(
                (struct xiri_walker *)(uintptr_t)xiri_rewriter_walker(rw),
                WALK_PIPE_LAG, 0);
        if (st == XIRI_OK)
            st = xiri_rewriter_feed(rw, doc.s, 150000, NULL);
        first[m] = out[m].len;
        if (st == XIRI_OK)
            st = xiri_rewriter_feed(rw, doc.s + 150000, doc.len - 150000, NULL);
        if (st == XIRI_OK)
            st = xiri_rewriter_finish(rw, NULL);
        if (st != XIRI_OK)
            TEST_FAIL("rewrite, parse_ahead %zu: %s", m, xiri_strerror(st));
        else
            TEST_STR_EQ("rewrite with parse_ahead", out[m].s, want.s);
        xiri_rewriter_free(rw);
        xiri_registry_free(reg);
        xiri_ctx_free(ctx);
    }
    if (first[1] >= first[0])
        TEST_FAIL("rewrite, parse_ahead: %zu bytes written after the first "
                  "feed, want fewer than %zu",
                  first[1], first[0]);
    free(doc.s);
    free(want.s);
    free(out[0].s);
    free(out[1].s);
}

static int count_event(void *user, const struct xiri_rewrite_event *ev)
{
    (void)ev;
    ++*(size_t *)user;
    return 0;
}

/* How a rewrite of doc, fed 100,000 bytes at a time, ended: the links
 * reported before it stopped, its status and message. */
struct rw_end {
    size_t events;
    enum xiri_status st;
    char message[256];
};

static void rewrite_fed(const struct text *doc, enum xiri_doc_type type,
                        bool ahead, struct rw_end *end)
{
    struct xiri_ctx *ctx = NULL;
    struct xiri_registry *reg = test_registry();
    struct xiri_walk_options o;
    struct xiri_rewriter *rw = NULL;
    struct xiri_error err;
    size_t i;

    memset(end, 0, sizeof(*end));
    err.message[0] = '\0';
    xiri_walk_options_init(&o);
    o.type = type;
    o.parse_ahead = ahead;
    xiri_ctx_new(&ctx);
    end->st = xiri_rewriter_new(ctx, reg, &o, NULL, lazy_write, count_event,
                                NULL, &end->events, &rw);
    if (end->st == XIRI_OK && ahead)
        walk_set_pipe((struct xiri_walker *)(uintptr_t)xiri_rewriter_walker(rw),
                      WALK_PIPE_LAG, 0);
    for (i = 0; end->st == XIRI_OK && i < doc->len; i += 100000)
        end->st = xiri_rewriter_feed(
            rw, doc->s + i, doc->len - i < 100000 ? doc->len - i : 100000,
            &err);
    if (end->st == XIRI_OK)
        end->st = xiri_rewriter_finish(rw, &err);
    snprintf(end->message, sizeof(end->message), "%s", err.message);
    xiri_rewriter_free(rw);
    xiri_registry_free(reg);
    xiri_ctx_free(ctx);
}

/* A rewrite that stops on what was fed (a NUL; a byte not ASCII in a
 * page whose late <meta> names another encoding than the guess) reports
 * the same links before it with parse_ahead, the records replayed late,
 * as without: the rewriter has every record replayed before it decides
 * (walk_catch_up).  The page is ASCII for its first MiB (the head the
 * walker holds, the encoding then a guess), the <meta> at 1,180,000
 * bytes, the first byte not ASCII at 1,210,000, in the next feed: without
 * parse_ahead the rewrite stops after that feed, when its links are all
 * reported; with it, the <meta>'s finding may come during that feed. */
static void test_walk_rewriter_stops_parse_ahead(void)
{
    struct text doc = {NULL, 0, 0};
    struct rw_end off, ahead;
    int k;

    text_add(&doc, "<r>");
    for (k = 0; k < 12000; k++)
        text_add(&doc, "<a href='\xC3\xA9'/>");
    /* the 'a' of the 10,715th 14-byte tag after "<r>": 10,714 links before
     * it (libxml2 stops at the NUL, column 3 + 10,714 x 13 + 2) */
    doc.s[150000] = '\0';
    text_add(&doc, "</r>");
    rewrite_fed(&doc, XIRI_DOC_XML, false, &off);
    rewrite_fed(&doc, XIRI_DOC_XML, true, &ahead);
    CU_ASSERT_EQUAL(off.st, XIRI_EDOC);
    CU_ASSERT_EQUAL(off.events, 10714);
    TEST_STR_EQ("NUL: the message", off.message,
                "1:139287: not well-formed: Char 0x0 out of allowed range");
    CU_ASSERT_EQUAL(ahead.st, off.st);
    TEST_STR_EQ("NUL, parse_ahead: the message", ahead.message, off.message);
    if (ahead.events != off.events)
        TEST_FAIL("NUL: %zu links before the stop with parse_ahead, %zu "
                  "without",
                  ahead.events, off.events);
    doc.len = 0;
    text_add(&doc, "<html><head><title>t</title></head><body>\n");
    while (doc.len < 1180000)
        text_add(&doc, "<a href=x>y</a>\n");
    text_add(&doc, "<meta charset=\"Shift_JIS\">\n");
    while (doc.len < 1210000)
        text_add(&doc, "<a href=x>y</a>\n");
    text_add(&doc, "<p>\xE9</p>\n");
    while (doc.len < 1300000)
        text_add(&doc, "<a href=x>y</a>\n");
    text_add(&doc, "</body></html>\n");
    rewrite_fed(&doc, XIRI_DOC_HTML, false, &off);
    rewrite_fed(&doc, XIRI_DOC_HTML, true, &ahead);
    /* without parse_ahead, the stop comes after the feed that ends at
     * 1,300,000, with the links of the 16-byte lines whose tags it holds:
     * 73,748 before the <meta> (42 + 73,748 x 16 = 1,180,010), 1,873
     * before the <p> (to 1,210,005; the <meta> line is 27 bytes), 5,624 of
     * the 5,625 after it (the <p> line is 9 bytes: the last tag starts at
     * 1,299,998) */
    CU_ASSERT_EQUAL(off.st, XIRI_EENCODING);
    CU_ASSERT_EQUAL(off.events, 73748 + 1873 + 5624);
    CU_ASSERT_EQUAL(ahead.st, off.st);
    TEST_STR_EQ("encoding-late, parse_ahead: the message", ahead.message,
                off.message);
    if (ahead.events != off.events)
        TEST_FAIL("encoding-late: %zu links before the stop with "
                  "parse_ahead, %zu without",
                  ahead.events, off.events);
    free(doc.s);
}

static void test_walk_lazy_positions(void)
{
    static const char *const samples[] = {
        "catalog.xml",
        "feed.atom",
        "feed.rdf",
        "feed.rss",
        "euc-jp.html",
        "html4-base.html",
        "html5-media.html",
        "latin1.xml",
        "links.xhtml",
        "no-charset.html",
        "shift_jis.html",
        "sitemap-utf16le.xml",
        "stylesheet-utf16be.xsl",
        "trail-legend.svg",
        "windows-1252.html",
    };
    /* references, CR LF and CR, a list whose items start inside an
     * entity's text (their place is not known: counted from the value's) */
    static const char xml[] =
        "<?xml version=\"1.0\"?>\n"
        "<!DOCTYPE r [<!ENTITY e \"ent\"><!ENTITY two \"u1 u2\">]>\n"
        "<r xmlns='http://www.w3.org/1999/xhtml'><a href=\"b&amp;&#233;&e;d\"/>"
        "\n <a ping=' &two; v'/>"
        "\r\n<a href='x\r\ny'/>\r<a href=\"&#x10000;z\"/></r>\n";
    struct xiri_registry *reg = NULL;
    struct xiri_ctx *ctx = NULL;
    struct xiri_error err;
    static char data[1 << 20];
    size_t i;

    xiri_ctx_new(&ctx);
    xiri_registry_new(&reg);
    if (xiri_registry_load_preset(reg, "all", &err) != XIRI_OK) {
        TEST_FAIL("preset all: %s", err.message);
        goto done;
    }
    for (i = 0; i < ARRAY_LEN(samples); i++) {
        size_t n = test_read_sample(samples[i], data, sizeof(data));

        if (n != SIZE_MAX)
            lazy_case(ctx, reg, samples[i], data, n);
    }
    lazy_case(ctx, reg, "xml", xml, sizeof(xml) - 1);
done:
    xiri_registry_free(reg);
    xiri_ctx_free(ctx);
}

/* What the walker's value_in_input relies on (walk.c): libxml2 2.9's
 * push parser hands an attribute value that needs nothing decoded or
 * normalized as a pointer into its input buffer, at the value's place in
 * the stream (input->consumed + (value - input->base)), and any other
 * value as a copy outside the buffer; a value whose blanks it normalized
 * in place (a declared NMTOKEN) is never between two equal quotes there.
 * Fed in pieces, so that the buffer is not the first chunk's memory. */
struct in_buffer_seen {
    const char *doc;
    unsigned inside, outside, wrong;
};

static void in_buffer_start(void *ctx, const xmlChar *localname,
                            const xmlChar *prefix, const xmlChar *URI,
                            int nb_namespaces, const xmlChar **namespaces,
                            int nb_attributes, int nb_defaulted,
                            const xmlChar **attrs)
{
    xmlParserCtxtPtr px = ctx;
    struct in_buffer_seen *seen = px->_private;
    const xmlParserInput *in = px->input;
    int i;

    (void)localname, (void)prefix, (void)URI, (void)nb_namespaces;
    (void)namespaces, (void)nb_defaulted;
    for (i = 0; i < nb_attributes; i++) {
        const xmlChar *v = attrs[5 * i + 3], *e = attrs[5 * i + 4];
        const char *name = (const char *)attrs[5 * i];
        size_t pos, n = (size_t)(e - v);
        bool quoted;

        if ((uintptr_t)v <= (uintptr_t)in->base ||
            (uintptr_t)e >= (uintptr_t)in->end) {
            /* decoded: only the attributes not named "in..." */
            if (strncmp(name, "in", 2) == 0)
                seen->wrong++;
            else
                seen->outside++;
            continue;
        }
        pos = in->consumed + (size_t)((uintptr_t)v - (uintptr_t)in->base);
        if (memcmp(seen->doc + pos, v, n) != 0) {
            seen->wrong++; /* not the stream's bytes */
            continue;
        }
        quoted = (seen->doc[pos - 1] == '"' || seen->doc[pos - 1] == '\'') &&
                 seen->doc[pos + n] == seen->doc[pos - 1];
        if (strncmp(name, "in", 2) == 0 && quoted)
            seen->inside++;
        else if (strncmp(name, "norm", 4) == 0 && !quoted)
            seen->outside++;
        else
            seen->wrong++;
    }
}

static void test_walk_libxml2_values_in_buffer(void)
{
    static const char doc[] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!DOCTYPE r [<!ATTLIST e norm NMTOKEN #IMPLIED>]>\n"
        "<r>\n"
        "<e in1=\"http://a.example/b?c=d#e\" amp=\"a?b&amp;c\" "
        "nonascii=\"caf\xC3\xA9\" in2='x y/z' tab=\"a\tb\"/>\n"
        "<e norm=\" spaced \" in3=\"../up\" lt=\"&#60;\"/>\n"
        "</r>\n";
    struct in_buffer_seen seen = {doc, 0, 0, 0};
    xmlSAXHandler sax;
    xmlParserCtxtPtr px;
    size_t n = sizeof(doc) - 1, k, step = 7;

    memset(&sax, 0, sizeof(sax));
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = in_buffer_start;
    px = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(px);
    px->_private = &seen;
    xmlCtxtUseOptions(px, XML_PARSE_NONET | XML_PARSE_NOERROR |
                              XML_PARSE_NOWARNING);
    for (k = 0; k < n; k += step)
        xmlParseChunk(px, doc + k, (int)(n - k < step ? n - k : step), 0);
    xmlParseChunk(px, NULL, 0, 1);
    CU_ASSERT(px->wellFormed);
    xmlFreeParserCtxt(px);
    CU_ASSERT_EQUAL(seen.wrong, 0);
    CU_ASSERT_EQUAL(seen.inside, 3);
    /* amp, nonascii, tab, norm and lt */
    CU_ASSERT_EQUAL(seen.outside, 5);
}

int suite_walk_register(void)
{
    CU_pSuite s = CU_add_suite("walk", NULL, NULL);

    if (!s)
        return -1;
    CU_ADD_TEST(s, test_walk_xml_values_positions_bases);
    CU_ADD_TEST(s, test_walk_html_shift_jis);
    CU_ADD_TEST(s, test_walk_content_markup);
    CU_ADD_TEST(s, test_walk_html_late_utf8_sniffing);
    CU_ADD_TEST(s, test_walk_link_findings);
    CU_ADD_TEST(s, test_walk_empty_element);
    CU_ADD_TEST(s, test_walk_xsi_type);
    CU_ADD_TEST(s, test_walk_content_in_entity);
    CU_ADD_TEST(s, test_walk_utf16le_bom);
    CU_ADD_TEST(s, test_walk_html_guess_windows_1252);
    CU_ADD_TEST(s, test_walk_invalid_utf8);
    CU_ADD_TEST(s, test_walk_base_findings);
    CU_ADD_TEST(s, test_walk_not_well_formed);
    CU_ADD_TEST(s, test_walk_external_entity_not_loaded);
    CU_ADD_TEST(s, test_walk_limit_depth);
    CU_ADD_TEST(s, test_walk_limit_attributes);
    CU_ADD_TEST(s, test_walk_limit_namespaces);
    CU_ADD_TEST(s, test_walk_limit_default_attributes);
    CU_ADD_TEST(s, test_walk_limit_entities);
    CU_ADD_TEST(s, test_walk_limit_markup);
    CU_ADD_TEST(s, test_walk_content_given_up_early);
    CU_ADD_TEST(s, test_walk_parse_ahead);
    CU_ADD_TEST(s, test_walk_unknown_entity);
    CU_ADD_TEST(s, test_walk_html_nul);
    CU_ADD_TEST(s, test_walk_bom_conflict_utf16);
    CU_ADD_TEST(s, test_walk_long_list);
    CU_ADD_TEST(s, test_walk_html_streams);
    CU_ADD_TEST(s, test_walk_html_text_with_open_quote);
    CU_ADD_TEST(s, test_walk_html_eof_in_tag_order);
    CU_ADD_TEST(s, test_walk_html_after_html_end);
    CU_ADD_TEST(s, test_walk_html_tag_in_earlier_value);
    CU_ADD_TEST(s, test_walk_html_tag_log_full);
    CU_ADD_TEST(s, test_walk_steps_with_records);
    CU_ADD_TEST(s, test_walk_html_columns_after_masked_names);
    CU_ADD_TEST(s, test_walk_html_image_in_mathml);
    CU_ADD_TEST(s, test_walk_xml_entity_text);
    CU_ADD_TEST(s, test_walk_guard_against_libxml2);
    CU_ADD_TEST(s, test_walk_guard_masks_count_characters);
    CU_ADD_TEST(s, test_walk_guard_log);
    CU_ADD_TEST(s, test_walk_surrogate_pair_straddles);
    CU_ADD_TEST(s, test_walk_utf8_cut_sequences);
    CU_ADD_TEST(s, test_walk_single_byte_encodings);
    CU_ADD_TEST(s, test_walk_html_text_elements);
    CU_ADD_TEST(s, test_walk_positions_in_value);
    CU_ADD_TEST(s, test_walk_lazy_positions);
    CU_ADD_TEST(s, test_walk_rewriter_lazy);
    CU_ADD_TEST(s, test_walk_rewriter_parse_ahead);
    CU_ADD_TEST(s, test_walk_rewriter_stops_parse_ahead);
    CU_ADD_TEST(s, test_walk_libxml2_values_in_buffer);
    return 0;
}

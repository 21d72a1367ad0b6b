/* walk.c - the document walker: a streaming libxml2 SAX pass (the XML push
 * parser with namespaces, or the HTML push parser) over UTF-8 that input.c
 * decoded, reporting every IRI-valued attribute and element (registry.c)
 * with its value as the document means it, its base (XML Base section 4.2,
 * HTML "document base URL") and its position in the original bytes. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "htmlref.h"
#include "htmlurl.h"
#include "input.h"
#include "mem.h"
#include "pipe.h"
#include "pseudoattr.h"
#include "registry.h"
#include "scheme.h"
#include "shapes.h"
#include "srcset.h"
#include "cssurl.h"
#include "tagscan.h"
#include "walk.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <libxml/HTMLparser.h>
#include <libxml/entities.h>
#include <libxml/hash.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>


enum walk_state { WALK_HEAD, WALK_RUN, WALK_DONE };

/* A base pushed by an element with xml:base, valid for its subtree. */
struct base_entry {
    unsigned long depth;
    char *base; /* NULL: the element has no usable base */
};

/* The element whose content is being collected as a link. */
struct content {
    bool active;
    unsigned long depth;
    size_t start; /* text position just after its start tag */
    struct buf value;
    enum xiri_shape shape;
    char *element, *element_ns;
    char *base;
    /* XML: the start tag is an empty-element tag, <e/> (XML 1.0 3.1:
     * the same element as <e></e>); it has xsi:nil="true" (XSD Part 1
     * 2.6.2) */
    size_t empty_at; /* the '/' of its "/>", or SIZE_MAX */
    bool nil;
    /* the element stands in an entity's replacement text, which is not
     * in the text window: value holds the characters libxml2 gives */
    bool in_entity;
};

struct emit;

/* A namespace declaration in scope (prefix NULL: the default namespace). */
struct ns_binding {
    char *prefix, *uri;
};

/* xiri_walker.marks: the XIRI_LINK_* bits below, the offset above */
#define MARK_SHIFT 3
#define MARK_BITS (XIRI_LINK_SRCSET_DROPPED | XIRI_LINK_SRCSET_INVALID)

struct xiri_walker {
    struct xiri_ctx *ctx;
    const struct xiri_registry *reg;
    char *name, *doc_base, *encoding_option;
    /* the document's own URI (doc_base before any <base href>): the base
     * of a CSS url() that is only a fragment */
    char *doc_uri;
    bool ending; /* the text being parsed ends the document (push) */
    enum xiri_doc_type type;
    size_t max_value;
    /* the limits against hostile documents (xiri.h, xiri(1) LIMITS) */
    size_t max_markup;
    unsigned long max_depth, max_attributes, max_namespaces;
    unsigned long max_default_attributes;
    size_t max_entities;  /* max_entity_expansion */
    size_t entities_left; /* bytes of it left in this document */
    xiri_link_fn *on_link;
    xiri_doc_diag_fn *on_diag;
    void *user;
    /* lazy_positions: a link's line and column are left 0, for
     * xiri_walker_position to give on demand */
    bool lazy;

    enum walk_state state;
    enum xiri_status status;
    struct xiri_error error;
    struct buf head; /* the first bytes, until the encoding is known */
    struct sniff sniff;
    struct input *in;
    xmlParserCtxtPtr px;
    bool html;
    /* the markup guard reads the text before libxml2 is given it */
    struct tag_guard guard;
    size_t fed; /* text before this position was given to libxml2 */
    unsigned long backstops; /* tags past the limit libxml2 read first */
    /* XML: the namespace declarations in scope, innermost last (to read
     * QName values, xsi:type), and how many each open element made */
    struct ns_binding *ns_bind;
    size_t ns_nbind, ns_bind_cap;
    unsigned *ns_per_depth;
    size_t ns_cap;
    size_t xsi_bound; /* of them, those of the XSI namespace: without
                         one no attribute is xsi:type or xsi:nil */
    /* XML: attributes with a default the DTD declares, per element */
    xmlHashTablePtr defaults;
    /* XML: a value referred to an entity that was not expanded */
    bool undeclared_entity; /* libxml2 said so while reading a tag */
    bool entity_markup;     /* an entity expanded in content held markup
                               (expand_entity) */
    char unknown_entity[64];
    bool entities_exhausted; /* max_entities were read */
    /* the srcset candidates of the value being emitted that have a
     * problem: (offset of the candidate's URL << MARK_SHIFT) |
     * XIRI_LINK_SRCSET_* bits, ascending (srcset_mark) */
    size_t *marks;
    size_t nmarks, marks_cap;

    unsigned long depth;
    bool root_seen;           /* XML: an element was started */
    bool root_rendered;       /* XML: the root is XHTML's or SVG's
                                 (walk_rendered) */
    bool meta_seen;           /* HTML: a <meta> declared an encoding */
    size_t sniffed_len;       /* the head the encoding was decided on */
    bool sniffed_whole;       /* it was all of the document */
    size_t head_max;          /* the head is read up to here (WALK_SNIFF_MAX,
                                 or WALK_SNIFF_ASCII: head_ready) */
    size_t head_scan;         /* head_ready looked for a byte that is not
                                 ASCII up to here */
    /* HTML: inside an element whose content browsers read as text
     * (html_text): its name, and where its end tag "</name" is in the
     * text (SIZE_MAX: not seen yet; text_seek looks from text_scan on) */
    const char *text_name;
    size_t text_end, text_scan;
    /* HTML foreign content (WHATWG HTML 13.2.6.5): the depths where the
     * way of reading changed, innermost last, and what each began (enum
     * html_mode): an <svg> opens SVG (svg_element), a <math> MathML, an
     * integration point inside them (foreignObject, mi, annotation-xml of
     * HTML...) HTML again, and so on; none means HTML. */
    unsigned long modes[16];
    unsigned char mode_kinds[16];
    unsigned nmodes;
    struct base_entry *bases;
    size_t nbases, bases_cap;
    size_t bases_bytes; /* the lengths of the bases in force, summed */
    bool base_element_seen; /* the first <base href> was taken */
    /* HTML: the depth of the outermost open template element, 0 outside
     * one: its contents are a fragment of their own, not part of the
     * document (WHATWG HTML 4.12.3), so a <base href> there sets no base */
    unsigned long template_depth;
    unsigned long links;
    unsigned long links_before_tag; /* links before the current start tag */
    size_t safe; /* text before this position is no longer needed */
    size_t floor; /* where the last markup the parser reported ended: the
                     next start tag begins after it */
    struct content content;
    struct buf value;  /* scratch: one decoded value */
    struct emit *cur;  /* the value whose link on_link is given, or NULL */
    unsigned long bad_bytes;
    /* invalid bytes met while decoding, reported once their text exists */
    struct bad_byte {
        size_t pos, orig, n;
        unsigned char bytes[8];
    } bad[16];
    size_t nbad;
    /* registry answers by the parser's interned names (reg_find) */
    struct reg_memo {
        const void *el, *el_ns, *at_ns, *at; /* at NULL: element content */
        bool used, found;
        enum xiri_shape shape;
    } memo[128];
    /* XML after the root's start tag, HTML from the start: libxml2 on a
     * thread of its own (pipe.h, "the parser thread" below); mode enum
     * walk_pipe */
    int pipe_mode;
    bool parse_ahead; /* xiri_walk_options: push returns undrained */
    size_t step;      /* WALK_STEP (walk_set_pipe) */
    size_t parses;    /* walk_parse_count */
    struct pipe *pipe;
    size_t p_entities_left;       /* the parser thread's own expansion budget */
    unsigned long p_entity_depth; /* its elements open in entity text */
    const xmlChar *p_owned[256];  /* and its names known owned (rec_owned) */
    /* what the record being replayed says of the parser (its position,
     * kept after the record; whether it was in an entity's replacement
     * text; its start tag's values' places; its bounds, which hold the
     * names the parser's dictionary did not own; the parser's current
     * element at an error) */
    struct replay {
        size_t pos;
        bool in_entity;
        const size_t *vpos;
        const char *lo, *hi;
        const char *name;
    } rp;
    /* last: 200 KB that xiri_walker_new does not clear (its counters
     * say what of it holds anything) */
    struct tag_log taglog; /* the start tags it read, with attributes */
};

/* ---------------------------------------------------------------- helpers */

static char *dup_or_null(const char *s)
{
    return s ? mem_strndup(s, strlen(s)) : NULL;
}

/* Stop libxml2: at once, or, on the parser thread, at its next
 * callback. */
static void stop_parser(struct xiri_walker *w)
{
    if (w->pipe)
        pipe_stop(w->pipe);
    else if (w->px)
        xmlStopParser(w->px);
}

static void fail(struct xiri_walker *w, enum xiri_status st)
{
    if (w->status == XIRI_OK)
        w->status = st;
    stop_parser(w);
}

/* The text position the parser has reached (a start tag's '>' inside
 * startElement; LIBXML2-NOTES.md).  It is asked for at every start and end
 * tag: without an encoder (the walker gives libxml2 UTF-8 and tells it
 * so) xmlByteConsumed returns input->consumed + (input->cur -
 * input->base), computed here without the call; with one it converts
 * back, and is called. */
static inline size_t px_pos(const struct xiri_walker *w)
{
    const xmlParserInput *in = w->px->input;
    long pos;

    if (in && in->cur && in->base && (!in->buf || !in->buf->encoder))
        pos = (long)in->consumed + (long)(in->cur - in->base);
    else
        pos = xmlByteConsumed(w->px);
    return pos < 0 ? 0 : (size_t)pos;
}

/* The same, as the walker sees it: with the parser thread, where the
 * parser was at the record being replayed (or the last one). */
static inline size_t parser_pos(const struct xiri_walker *w)
{
    return w->pipe ? w->rp.pos : px_pos(w);
}

/* The parser's current element (at an error), or NULL. */
static const char *parser_name(const struct xiri_walker *w)
{
    if (w->pipe)
        return w->rp.name;
    return w->px ? (const char *)w->px->name : NULL;
}

static void diag(struct xiri_walker *w, const char *code,
                 enum xiri_severity sev, size_t text_pos, const char *fmt,
                 ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* What a finding is about when it is about one value (xiri_doc_diag's
 * value, element, attribute). */
struct diag_about {
    const char *value;
    size_t value_len;
    const char *element, *attribute;
};

/* A finding about the document (about NULL), or about one value. */
static void vdiag(struct xiri_walker *w, const struct diag_about *about,
                  const char *code, enum xiri_severity sev, size_t text_pos,
                  const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 0)))
#endif
    ;

static void vdiag(struct xiri_walker *w, const struct diag_about *about,
                  const char *code, enum xiri_severity sev, size_t text_pos,
                  const char *fmt, va_list ap)
{
    struct xiri_doc_diag d;
    char msg[512];

    if (!w->on_diag || w->status != XIRI_OK)
        return;
    vsnprintf(msg, sizeof(msg), fmt, ap);
    d.value = about ? about->value : NULL;
    d.value_len = about ? about->value_len : 0;
    d.element = about ? about->element : NULL;
    d.attribute = about ? about->attribute : NULL;
    d.code = code;
    d.severity = sev;
    d.message = msg;
    if (w->in && text_pos != SIZE_MAX) {
        d.offset = input_orig_offset(w->in, text_pos);
        input_line_col(w->in, text_pos, &d.line, &d.column);
    } else {
        d.offset = 0;
        d.line = d.column = 0;
    }
    if (w->on_diag(w->user, &d) != 0)
        fail(w, XIRI_ECANCELED);
}

static void diag(struct xiri_walker *w, const char *code,
                 enum xiri_severity sev, size_t text_pos, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vdiag(w, NULL, code, sev, text_pos, fmt, ap);
    va_end(ap);
}

/* A finding about the value v[0..n) of attribute of element (NULL: its
 * content, or a processing instruction's data): a value that sets a base
 * (xml:base, or href of <base>), the data of a processing instruction, a
 * KML template. */
static void about_diag(struct xiri_walker *w, const char *v, size_t n,
                       const char *element, const char *attribute,
                       const char *code, enum xiri_severity sev,
                       size_t text_pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 9, 10)))
#endif
    ;

static void about_diag(struct xiri_walker *w, const char *v, size_t n,
                       const char *element, const char *attribute,
                       const char *code, enum xiri_severity sev,
                       size_t text_pos, const char *fmt, ...)
{
    struct diag_about about = {v, n, element, attribute};
    va_list ap;

    va_start(ap, fmt);
    vdiag(w, &about, code, sev, text_pos, fmt, ap);
    va_end(ap);
}

struct emit;
static void value_diag(struct xiri_walker *w, const struct emit *e,
                       const char *code, enum xiri_severity sev,
                       size_t text_pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static void limit_error(struct xiri_walker *w, size_t text_pos,
                        const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Stop the walk at a limit: the error says "LINE:COL: " and why. */
static void limit_error(struct xiri_walker *w, size_t text_pos,
                        const char *fmt, ...)
{
    char msg[160];
    va_list ap;
    unsigned long line = 0, col = 0;

    if (w->status != XIRI_OK)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (w->in && text_pos != SIZE_MAX) {
        input_line_col(w->in, text_pos, &line, &col);
        error_set(&w->error, XIRI_ELIMIT, input_orig_offset(w->in, text_pos),
                  "%lu:%lu: %s", line, col, msg);
    } else {
        error_set(&w->error, XIRI_ELIMIT, 0, "%s", msg);
    }
    fail(w, XIRI_ELIMIT);
}

/* ---------------------------------------------------------------- registry */

/* libxml2 hands element, attribute and namespace names from its parser
 * dictionary, one pointer per distinct string for the whole parse: the
 * registry's answer for a tuple of such pointers never changes, and
 * comparing pointers stands for hashing and comparing the strings.  Names
 * the dictionary does not own are looked up every time. */
static bool memo_owned(const struct xiri_walker *w, const void *s)
{
    if (w->pipe) /* (the parser thread copied the others) */
        return !s || (const char *)s < w->rp.lo || (const char *)s >= w->rp.hi;
    return !s || (w->px && w->px->dict &&
                  xmlDictOwns(w->px->dict, (const xmlChar *)s) == 1);
}

/* The registry's answer, remembered in m when the names are the
 * dictionary's (out of line: reg_find below answers most calls). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool reg_find_slow(struct xiri_walker *w, struct reg_memo *m,
                          const char *el_ns, const char *el,
                          const char *at_ns, const char *at,
                          enum xiri_shape *shape)
{
    bool found;

    found = at ? registry_find_attr(w->reg, el_ns, el, at_ns, at, w->html,
                                    shape)
               : registry_find_content(w->reg, el_ns, el, w->html, shape);
    if (memo_owned(w, el) && memo_owned(w, at) && memo_owned(w, el_ns) &&
        memo_owned(w, at_ns)) {
        m->used = true;
        m->el = el;
        m->at = at;
        m->el_ns = el_ns;
        m->at_ns = at_ns;
        m->found = found;
        m->shape = found ? *shape : XIRI_SHAPE_IRI;
    }
    return found;
}

static inline bool reg_find(struct xiri_walker *w, const char *el_ns,
                            const char *el, const char *at_ns, const char *at,
                            enum xiri_shape *shape)
{
    uintptr_t h = (uintptr_t)el ^ ((uintptr_t)at >> 3) ^
                  ((uintptr_t)at_ns >> 5) ^ ((uintptr_t)el_ns >> 7);
    struct reg_memo *m;

    h ^= h >> 11;
    m = &w->memo[(h ^ (h >> 7)) % ARRAY_LEN(w->memo)];
    if (m->used && m->el == el && m->at == at && m->el_ns == el_ns &&
        m->at_ns == at_ns) {
        *shape = m->shape;
        return m->found;
    }
    return reg_find_slow(w, m, el_ns, el, at_ns, at, shape);
}

/* ---------------------------------------------------------------- bases */

/* The base in force for the current element (XML Base 4.2: the nearest
 * ancestor-or-self xml:base, resolved; else the document's base). */
static const char *current_base(const struct xiri_walker *w)
{
    return w->nbases ? w->bases[w->nbases - 1].base : w->doc_base;
}

static bool push_base(struct xiri_walker *w, char *base, size_t tag_end)
{
    size_t len = base ? strlen(base) : 0;

    /* each relative xml:base makes a base longer than its parent's: held
     * at every depth, they could take depth times the document's size */
    if (len > w->max_markup - w->bases_bytes) {
        mem_free(base);
        limit_error(w, tag_end,
                    "the xml:base attributes in force give bases of more "
                    "than %zu bytes in all (%zu nested); raise --max-markup",
                    w->max_markup, w->nbases + 1);
        return false;
    }
    if (!mem_reserve(&w->bases, &w->bases_cap, w->nbases + 1,
                     sizeof(*w->bases))) {
        mem_free(base);
        fail(w, XIRI_ENOMEM);
        return false;
    }
    w->bases[w->nbases].depth = w->depth;
    w->bases[w->nbases].base = base;
    w->nbases++;
    w->bases_bytes += len;
    return true;
}

static void pop_bases(struct xiri_walker *w)
{
    while (w->nbases > 0 && w->bases[w->nbases - 1].depth >= w->depth) {
        char *base = w->bases[w->nbases - 1].base;
        w->bases_bytes -= base ? strlen(base) : 0;
        mem_free(base);
        w->nbases--;
    }
}

/* Where a base-setting attribute ([prefix:]local) is written in the
 * start tag at tag_start..tag_end of text (from stream position s0), for
 * a finding about it: looked for only when a finding needs it. */
struct attr_place {
    const char *text;
    size_t s0, tag_start, tag_end;
    const struct tag_rec *rec; /* the guard's record of the tag, or NULL */
    const char *prefix, *local;
};

static bool find_raw_attr(const char *text, size_t start, size_t end,
                          const char *prefix, size_t pl, const char *local,
                          size_t ll, bool nocase, const struct tag_log *log,
                          const struct tag_rec *rec, size_t text_start,
                          struct tag_attr *out);

/* The place of a <base>'s unprefixed href, in its tag at tag_start. */
static struct attr_place href_place(const char *text, size_t s0,
                                    size_t tag_start, size_t tag_end,
                                    const struct tag_rec *rec)
{
    struct attr_place at = {.text = text,
                            .s0 = s0,
                            .tag_start = tag_start,
                            .tag_end = tag_end,
                            .rec = rec,
                            .local = "href"};
    return at;
}

/* The text position of the attribute's value, or the tag's end when the
 * tag or the attribute cannot be found. */
static size_t attr_place_pos(struct xiri_walker *w, const struct attr_place *at)
{
    struct tag_attr ta;

    if (at->tag_start != SIZE_MAX &&
        find_raw_attr(at->text, at->tag_start - at->s0, at->tag_end - at->s0,
                      at->prefix, at->prefix ? strlen(at->prefix) : 0,
                      at->local, strlen(at->local), w->html, &w->taglog,
                      at->rec, at->s0, &ta))
        return at->s0 + ta.value;
    return at->tag_end;
}

/* Resolve a base-setting value against the base in force; NULL (and a
 * finding at the value, at) when that cannot be done. */
static char *resolve_base(struct xiri_walker *w, const char *against,
                          const char *v, size_t n, const struct attr_place *at,
                          const char *element, const char *attribute,
                          const char *what)
{
    struct xiri_error err;
    char *out = NULL;
    enum xiri_status st;
    enum xiri_profile prof = w->html ? XIRI_PROFILE_HTML : XIRI_PROFILE_LEIRI;

    if (!against) {
        st = xiri_resolve(v, n, "", 0, prof, &out, NULL, &err);
        if (st == XIRI_OK)
            return out;
        if (st == XIRI_ENOMEM)
            fail(w, st);
        else if (scheme_prefix_len(v, n) > 0) /* meant as absolute */
            about_diag(w, v, n, element, attribute, "base-invalid",
                       XIRI_SEV_WARNING, attr_place_pos(w, at),
                       "the %s \"%.*s\" is not a valid IRI: %s; the links it "
                       "governs have no base",
                       what, (int)(n > 200 ? 200 : n), v, err.message);
        else
            about_diag(w, v, n, element, attribute, "base-not-absolute",
                       XIRI_SEV_WARNING, attr_place_pos(w, at),
                       "the %s \"%.*s\" is relative and there is no base to "
                       "resolve it against: the links it governs have no base; "
                       "give the document a base (--base)",
                       what, (int)(n > 200 ? 200 : n), v);
        return NULL;
    }
    st = xiri_resolve(against, strlen(against), v, n, prof, &out, NULL,
                      &err);
    if (st == XIRI_OK)
        return out;
    if (st == XIRI_ENOMEM)
        fail(w, st);
    else
        about_diag(
            w, v, n, element, attribute, "base-invalid", XIRI_SEV_WARNING,
            attr_place_pos(w, at),
            "the %s \"%.*s\" cannot be resolved: %s; the links it governs "
            "have no base",
            what, (int)(n > 200 ? 200 : n), v, err.message);
    return NULL;
}

/* ---------------------------------------------------------------- values */

static const char *trim_ws(const char *s, size_t *n)
{
    while (*n > 0 && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++, (*n)--;
    while (*n > 0 && (s[*n - 1] == ' ' || s[*n - 1] == '\t' ||
                      s[*n - 1] == '\n' || s[*n - 1] == '\r'))
        (*n)--;
    return s;
}

/* XML 1.0 4.1 CharRef: the code point of "&#...;" at s[0..n) or -1. */
static long char_ref(const char *s, size_t n, size_t *len)
{
    size_t i = 2;
    long v = 0;
    bool hex;

    if (n < 4 || s[0] != '&' || s[1] != '#')
        return -1;
    hex = s[2] == 'x' || s[2] == 'X';
    if (hex)
        i++;
    for (; i < n && s[i] != ';'; i++) {
        int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0'
                : hex && s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
                : hex && s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 10
                                                      : -1;
        if (d < 0 || v > 0x10FFFF)
            return -1;
        v = v * (hex ? 16 : 10) + d;
    }
    if (i >= n)
        return -1;
    *len = i + 1;
    return v;
}

static size_t utf8_len_of(long cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* The internal general entity of that name, or NULL. */
static xmlEntityPtr internal_entity(struct xiri_walker *w, const char *name,
                                   size_t n)
{
    char nm[128];
    xmlEntityPtr e;

    if (n == 0 || n >= sizeof(nm))
        return NULL;
    memcpy(nm, name, n);
    nm[n] = '\0';
    e = xmlGetPredefinedEntity((const xmlChar *)nm);
    if (!e && w->px && w->px->myDoc)
        e = xmlGetDocEntity(w->px->myDoc, (const xmlChar *)nm);
    if (!e || (e->etype != XML_INTERNAL_GENERAL_ENTITY &&
               e->etype != XML_INTERNAL_PREDEFINED_ENTITY))
        return NULL;
    return e;
}

/* Where raw text stands, for unit_len. */
enum unit_mode {
    UNIT_ATTRIBUTE = 0, /* an attribute value */
    UNIT_CONTENT = 1,   /* element content */
    UNIT_CDATA = 2      /* the inside of a CDATA section (XML 1.0 2.7):
                           every character stands for itself */
};

static void decode_refs(struct xiri_walker *w, const char *s, size_t n,
                        struct buf *out, size_t *budget, int mode,
                        bool replacement);
static void decode_content_to(struct xiri_walker *w, const char *raw,
                              size_t n, int mode, struct buf *out,
                              size_t *budget);

/* Note a reference to an entity that cannot be expanded (external, or
 * not declared: xiri never reads an external DTD or entity); the value
 * it is in is not checked. */
static void unknown_entity(struct xiri_walker *w, const char *name, size_t n,
                           struct buf *out)
{
    if (!w->unknown_entity[0])
        snprintf(w->unknown_entity, sizeof(w->unknown_entity), "%.*s",
                 (int)(n < 60 ? n : 60), name);
    if (out->status == XIRI_OK)
        out->status = XIRI_EINVAL; /* stops the decoding */
}

/* Append the replacement text of an entity reference s[0..n) ("&name;")
 * (XML 1.0 4.4.5), within the document's budget of expansions, as it
 * reads where it is referred to (mode: enum unit_mode): in an attribute
 * value its white space characters are spaces (3.3.3); in content its
 * markup is markup (4.4.2: comments and processing instructions give
 * nothing, a CDATA section its characters), and w->entity_markup is
 * set. */
static bool expand_entity(struct xiri_walker *w, const char *s, size_t n,
                          struct buf *out, size_t *budget, int mode)
{
    xmlEntityPtr e = internal_entity(w, s + 1, n - 2);
    size_t cost;

    if (!e)
        return false;
    cost = e->length > 0 ? (size_t)e->length : 1;
    if (*budget < cost) {
        if (budget == &w->entities_left)
            w->entities_exhausted = true;
        if (out->status == XIRI_OK)
            out->status = XIRI_ELIMIT;
        return true;
    }
    *budget -= cost;
    if (e->etype == XML_INTERNAL_PREDEFINED_ENTITY) {
        buf_append(out, (const char *)e->content,
                   strlen((const char *)e->content));
    } else if (e->content) {
        const char *c = (const char *)e->content;
        size_t len = strlen(c);

        if (mode == UNIT_CONTENT && memchr(c, '<', len)) {
            w->entity_markup = true;
            decode_content_to(w, c, len, UNIT_CONTENT, out, budget);
        } else {
            decode_refs(w, c, len, out, budget, mode, true);
        }
    }
    return true;
}

/* Append the literal text s[0..n); in the replacement text of an entity
 * referred to in an attribute value (ws), each white space character as
 * a space (XML 1.0 3.3.3: character references, decoded apart, keep
 * theirs). */
static void append_literal(struct buf *out, const char *s, size_t n, bool ws)
{
    size_t from = out->len, i;

    buf_append(out, s, n);
    if (ws && out->status == XIRI_OK)
        for (i = from; i < out->len; i++)
            if (out->data[i] == '\t' || out->data[i] == '\n' ||
                out->data[i] == '\r')
                out->data[i] = ' ';
}

/* Text with character and entity references decoded (XML 1.0 4.4.5)
 * within the budget of expansions and the value limit: a value as
 * libxml2's SAX2 hands it (no entity substitution: "&#38;" stands for '&'
 * and "&name;" for an entity), or (replacement) the replacement text of
 * an entity, read where it is referred to (mode, see expand_entity). */
static void decode_refs(struct xiri_walker *w, const char *s, size_t n,
                        struct buf *out, size_t *budget, int mode,
                        bool replacement)
{
    size_t i = 0, run = 0;
    bool ws = replacement && mode == UNIT_ATTRIBUTE;

    while (i < n && out->status == XIRI_OK) {
        size_t len, semi;
        long cp;
        char tmp[4];
        const char *amp = memchr(s + i, '&', n - i);

        if (!amp) {
            i = n;
            break;
        }
        i = (size_t)(amp - s);
        append_literal(out, s + run, i - run, ws);
        if ((cp = char_ref(s + i, n - i, &len)) >= 0) {
            buf_append(out, tmp, utf8_encode((uint32_t)cp, tmp));
            i += len;
        } else {
            for (semi = i + 1; semi < n && s[semi] != ';' && semi - i < 128;
                 semi++)
                ;
            if (semi < n && s[semi] == ';' && semi > i + 1 &&
                !expand_entity(w, s + i, semi - i + 1, out, budget, mode)) {
                unknown_entity(w, s + i + 1, semi - i - 1, out);
            } else if (semi < n && s[semi] == ';' && semi > i + 1) {
                i = semi + 1;
            } else {
                buf_putc(out, '&');
                i++;
            }
        }
        run = i;
    }
    append_literal(out, s + run, i - run, ws);
}

/* A value as libxml2's SAX2 hands it (see decode_refs). */
static void decode_xml(struct xiri_walker *w, const char *s, size_t n,
                       struct buf *out, size_t *budget)
{
    decode_refs(w, s, n, out, budget, UNIT_ATTRIBUTE, false);
}

/* How many bytes of decoded value the unit of raw text at s[0..n) gives,
 * and its raw length in *rlen: a reference, a CR LF pair (XML 1.0 2.11),
 * markup that gives nothing (CDATA delimiters, comments, processing
 * instructions in element content), or one byte. */
static size_t unit_len(struct xiri_walker *w, const char *s, size_t n,
                       int content, size_t *rlen)
{
    size_t len, semi;
    long cp;

    *rlen = 1;
    if (content == UNIT_CDATA) {
        if (s[0] == '\r' && n > 1 && s[1] == '\n')
            *rlen = 2;
        return 1;
    }
    if (s[0] == '&' && w->html) {
        /* as a browser reads it (htmlref.c) */
        char tmp[8];
        size_t dl, k = htmlref_decode(s, n, content == UNIT_ATTRIBUTE, tmp,
                                      &dl);
        if (k == 0)
            return 1;
        *rlen = k;
        return dl;
    }
    if (s[0] == '&') {
        if ((cp = char_ref(s, n, &len)) >= 0) {
            *rlen = len;
            return utf8_len_of(cp);
        }
        for (semi = 1; semi < n && s[semi] != ';' && semi < 64; semi++)
            ;
        if (semi < n && s[semi] == ';') {
            struct buf tmp;
            size_t budget = w->max_entities;
            size_t got;
            buf_init(&tmp, w->max_value);
            if (expand_entity(w, s, semi + 1, &tmp, &budget, content)) {
                got = tmp.len;
                buf_free(&tmp);
                *rlen = semi + 1;
                return got;
            }
            buf_free(&tmp);
        }
        return 1;
    }
    if (s[0] == '\r' && n > 1 && s[1] == '\n') {
        /* one LF: XML 1.0 2.11; HTML's input stream preprocessing (WHATWG
         * HTML 13.2.3.5) */
        *rlen = 2;
        return 1;
    }
    if (content && s[0] == '<') {
        static const struct {
            const char *open, *close;
        } skip[] = {{"<!--", "-->"}, {"<?", "?>"}};
        size_t k, e;
        if (n >= 9 && memcmp(s, "<![CDATA[", 9) == 0) {
            *rlen = 9;
            return 0;
        }
        for (k = 0; k < ARRAY_LEN(skip); k++) {
            size_t ol = strlen(skip[k].open), cl = strlen(skip[k].close);
            if (n < ol || memcmp(s, skip[k].open, ol) != 0)
                continue;
            for (e = ol; e + cl <= n && memcmp(s + e, skip[k].close, cl); e++)
                ;
            *rlen = e + cl <= n ? e + cl : n;
            return 0;
        }
    }
    if (content && n >= 3 && memcmp(s, "]]>", 3) == 0) {
        *rlen = 3; /* the end of a CDATA section */
        return 0;
    }
    return 1;
}

/* Whether unit_len reads the byte c as one unit of one byte, whatever
 * the context: any byte but '&', CR, '<' and ']'. */
static inline bool unit_single(char c)
{
    return c != '&' && c != '\r' && c != '<' && c != ']';
}

/* unit_len, with the common case answered inline (unit_single). */
static inline size_t unit_step(struct xiri_walker *w, const char *s, size_t n,
                               int content, size_t *rlen)
{
    if (unit_single(s[0])) {
        *rlen = 1;
        return 1;
    }
    return unit_len(w, s, n, content, rlen);
}

static bool map_offsets(struct xiri_walker *w, struct emit *e,
                        const size_t *offsets, size_t *pos, size_t count);

/* unit_step in element content with CDATA sections among its text
 * (struct emit's mixed_cdata): *in_cd says whether s stands inside one,
 * whose characters stand for themselves and whose "]]>" gives nothing,
 * as decode_content_to reads them (XML 1.0 2.7). */
static size_t unit_step_cd(struct xiri_walker *w, const char *s, size_t n,
                           bool *in_cd, size_t *rlen)
{
    size_t dl;

    if (*in_cd) {
        if (n >= 3 && memcmp(s, "]]>", 3) == 0) {
            *in_cd = false;
            *rlen = 3;
            return 0;
        }
        return unit_len(w, s, n, UNIT_CDATA, rlen);
    }
    dl = unit_step(w, s, n, UNIT_CONTENT, rlen);
    if (dl == 0 && *rlen == 9 && memcmp(s, "<![CDATA[", 9) == 0)
        *in_cd = true;
    return dl;
}

/* ---------------------------------------------------------------- links */

struct emit {
    struct xiri_walker *w;
    const char *value;   /* decoded */
    size_t value_len;
    const char *raw;     /* the raw value in the text window */
    size_t raw_len;
    size_t raw_pos;      /* its text position */
    int content;         /* enum unit_mode */
    /* element content with markup among its characters (comments,
     * processing instructions, CDATA sections): an item whose span holds
     * some cannot be replaced as one span (xiri_link.has_markup); with
     * CDATA sections among them (mixed_cdata), an item inside one stands
     * for itself (xiri_link.in_cdata: cdata_at) */
    bool mixed, mixed_cdata;
    bool markup_unplaced; /* markup from an entity stands among the
                             characters, where is not in the text: no
                             item can be replaced as a span */
    struct xiri_link link;
    /* map_offsets: whether the raw text decodes to the value (-1: not
     * known yet, 2: byte for byte), and a cursor: raw index, decoded offset, and the last
     * offset mapped (the items of a list come in order) */
    int map_ok;
    size_t map_i, map_d, map_end;
    bool map_cd; /* mixed_cdata: map_i stands inside a CDATA section */
    /* mixed_cdata: a cursor (raw index) over the CDATA sections, and
     * whether it stands inside one (cdata_at) */
    size_t cd_i;
    bool cd_in;
    /* xiri_walker_position: whether the current item's start was mapped,
     * its raw index and decoded offset, and a cursor after it (raw index,
     * decoded offset: the places asked for usually ascend) */
    bool item_mapped;
    size_t item_i, item_d, at_i, at_d;
    bool item_cd, at_cd; /* mixed_cdata: item_i, at_i inside a section */
    size_t item_pos; /* the text position of the link's line and column */
    size_t item_end; /* the text position of the item's end */
    /* xiri_link.findings of the value's items known before they are
     * emitted: a cursor over w->marks, and the index of a XIRI_SHAPE_PAIRS
     * value's unpaired last item (UINT_MAX: none) */
    size_t mark_i;
    unsigned unpaired;
};

/* A finding about the value e holds (its whole attribute value or
 * element content), which a baseline then tells from another value's. */
static void value_diag(struct xiri_walker *w, const struct emit *e,
                       const char *code, enum xiri_severity sev,
                       size_t text_pos, const char *fmt, ...)
{
    struct diag_about about = {e->value, e->value_len, e->link.element,
                               e->link.attribute};
    va_list ap;

    va_start(ap, fmt);
    vdiag(w, &about, code, sev, text_pos, fmt, ap);
    va_end(ap);
}

/* Map decoded byte offsets of a value to text positions by walking the
 * raw text unit by unit, from where the previous item of the value was
 * found (so that a list of n items costs n, not n squared).  Positions of
 * offsets[i] are written to pos[i] (offsets ascending).  False when the
 * raw text does not decode to exactly the value (then the caller falls
 * back to the raw value's bounds). */
static bool map_offsets(struct xiri_walker *w, struct emit *e,
                        const size_t *offsets, size_t *pos, size_t count)
{
    size_t i = 0, d = 0, k = 0, rlen, ci, cd;
    bool first, in_cd = false, ccd;

    if (e->map_ok < 0 && e->content != UNIT_CONTENT &&
        (e->content == UNIT_CDATA || !memchr(e->raw, '&', e->raw_len)) &&
        (!input_cr_from(w->in, e->raw_pos) ||
         !memchr(e->raw, '\r', e->raw_len))) {
        /* no reference, no CR: every raw byte is one decoded byte
         * (unit_len gives 1 for each), so an offset is its own position */
        e->map_ok = e->raw_len == e->value_len ? 2 : 0;
    }
    if (e->map_ok == 0)
        return false;
    if (e->map_ok == 2) {
        for (; k < count; k++) {
            if (offsets[k] > e->raw_len)
                return false;
            pos[k] = e->raw_pos + offsets[k];
        }
        return true;
    }
    first = e->map_ok < 0;
    if (!first && offsets[0] >= e->map_end) {
        i = e->map_i;
        d = e->map_d;
        in_cd = e->map_cd;
    }
    while (k < count) {
        size_t dl;

        if (offsets[k] <= d) {
            pos[k++] = e->raw_pos + i;
            continue;
        }
        if (i >= e->raw_len)
            break;
        /* a run of bytes that are one unit of one byte each, up to the
         * offset sought, in one step */
        if (unit_single(e->raw[i])) {
            size_t i0 = i, lim = e->raw_len;

            if (lim - i > offsets[k] - d)
                lim = i + (offsets[k] - d);
            while (++i < lim && unit_single(e->raw[i]))
                ;
            d += i - i0;
            continue;
        }
        dl = e->mixed_cdata
                 ? unit_step_cd(w, e->raw + i, e->raw_len - i, &in_cd, &rlen)
                 : unit_step(w, e->raw + i, e->raw_len - i, e->content, &rlen);
        if (offsets[k] < d + dl && rlen > 1)
            /* the offset falls inside what a reference stands for (an
             * item of a list that starts or ends inside an entity's text,
             * XML 1.0 4.4.5): it has no place in the text */
            return false;
        d += dl;
        i += rlen;
    }
    ci = i;
    cd = d;
    ccd = in_cd;
    if (first) {
        /* read on to the end once, to know the raw text decodes to
         * exactly the value */
        while (i < e->raw_len) {
            d += e->mixed_cdata ? unit_step_cd(w, e->raw + i, e->raw_len - i,
                                               &in_cd, &rlen)
                                : unit_step(w, e->raw + i, e->raw_len - i,
                                            e->content, &rlen);
            i += rlen;
        }
        e->map_ok = d == e->value_len && k == count;
    }
    if (!e->map_ok || k < count)
        return false;
    e->map_i = ci;
    e->map_d = cd;
    e->map_cd = ccd;
    e->map_end = offsets[count - 1];
    return true;
}

/* mixed_cdata: does raw index idx of the value stand inside a CDATA
 * section?  Read from a cursor (the items of a value ascend). */
static bool cdata_at(struct xiri_walker *w, struct emit *e, size_t idx)
{
    size_t rlen;

    if (idx < e->cd_i) {
        e->cd_i = 0;
        e->cd_in = false;
    }
    while (e->cd_i < idx && e->cd_i < e->raw_len) {
        unit_step_cd(w, e->raw + e->cd_i, e->raw_len - e->cd_i, &e->cd_in,
                     &rlen);
        e->cd_i += rlen;
    }
    return e->cd_in;
}

/* Does s[0..n) hold "]]>"? */
static bool holds_cdata_end(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i + 3 <= n; i++)
        if (s[i] == ']' && s[i + 1] == ']' && s[i + 2] == '>')
            return true;
    return false;
}

/* The C0 control at offset at of the value (not ASCII whitespace), which
 * browsers remove from before or after the URL (emit_item), reported at
 * text position pos. */
static void report_removed_control(struct xiri_walker *w, struct emit *e,
                                   size_t at, size_t pos, bool before)
{
    value_diag(w, e, "control-around-url", XIRI_SEV_WARNING, pos,
               "control character U+%04X %s the URL in %s: browsers remove it "
               "(WHATWG URL: invalid-URL-unit), other software does not, and "
               "HTML allows only spaces there; remove it",
               (unsigned char)e->value[at], before ? "before" : "after",
               e->link.attribute ? e->link.attribute : "the element's content");
}

/* The quote of the CSS string an item of a XIRI_SHAPE_CSS value starts
 * at v[start] in, or 0: white space may stand between them (shapes.c
 * leaves it out); an unquoted URL follows its "url(" and white space. */
static char css_item_quote(const char *v, size_t start)
{
    while (start > 0 && ch_is_ascii_space((unsigned char)v[start - 1]))
        start--;
    return start > 0 && (v[start - 1] == '"' || v[start - 1] == '\'')
               ? v[start - 1]
               : 0;
}

static int emit_item(void *user, size_t start, size_t len, unsigned index)
{
    struct emit *e = user;
    struct xiri_walker *w = e->w;
    /* the item's start and end (pos), after the control reported
     * before it and before the one after it, or the start and the end
     * again when there is none: one ascending walk (a list stays linear),
     * of four offsets always (map_offsets is inlined for them) */
    size_t offs[4], place[4], *pos = place + 1, lead = SIZE_MAX,
                              trail = SIZE_MAX;
    const char *base;
    unsigned findings = 0;

    if (w->status != XIRI_OK)
        return 1;
    /* the srcset problems of this candidate (srcset_mark; their offset is the
     * URL's, before any control is trimmed below) */
    while (e->mark_i < w->nmarks && (w->marks[e->mark_i] >> MARK_SHIFT) < start)
        e->mark_i++;
    if (e->mark_i < w->nmarks && (w->marks[e->mark_i] >> MARK_SHIFT) == start)
        findings |= (unsigned)(w->marks[e->mark_i] & MARK_BITS);
    if (index == e->unpaired)
        findings |= XIRI_LINK_UNPAIRED;
    /* (a usemap is no URL: HTML LS, "rules for parsing a hash-name
     * reference", keep every character) */
    if (w->html && e->link.shape != XIRI_SHAPE_HASH_NAME) {
        /* WHATWG URL, basic URL parser: leading and trailing C0 controls
         * and spaces are removed (HTML's ASCII whitespace among them);
         * the first control other than whitespace on each side is
         * reported (HTML 2.4.5: a valid URL potentially surrounded by
         * spaces).  (A rewriter that must quote an unquoted value puts
         * the quotes around the whole value only: rewrite.c
         * whole_unquoted.) */
        for (; len > 0 && (unsigned char)e->value[start] <= 0x20;
             start++, len--)
            if (lead == SIZE_MAX &&
                !ch_is_ascii_space((unsigned char)e->value[start]))
                lead = start;
        for (; len > 0 && (unsigned char)e->value[start + len - 1] <= 0x20;
             len--)
            if (!ch_is_ascii_space((unsigned char)e->value[start + len - 1]))
                trail = start + len - 1;
        /* (not an identifier, which is compared, not parsed) */
        if (e->link.shape == XIRI_SHAPE_IDENTIFIER)
            lead = trail = SIZE_MAX;
    }
    offs[0] = lead != SIZE_MAX ? lead : start;
    offs[1] = start;
    offs[2] = start + len;
    offs[3] = trail != SIZE_MAX ? trail : start + len;
    e->item_mapped = map_offsets(w, e, offs, place, 4);
    if (!e->item_mapped) {
        /* the text does not decode to the value as the parser gave it:
         * the value's place is known, its span is not (a rewriter must
         * not touch it) */
        place[0] = place[1] = place[2] = place[3] = e->raw_pos;
    }
    /* (an item whose place is not known: has_markup, so that nothing is
     * written there even when it is empty) */
    e->link.has_markup = e->markup_unplaced;
    if (e->mixed)
        e->link.in_cdata = 0; /* (per item: below) */
    if (e->mixed && e->item_mapped) {
        /* the item starts at its first character, after any comment,
         * processing instruction or CDATA opener before it; inside a
         * section "<!--" is characters, and only "]]>" gives nothing */
        size_t rlen, dl;
        bool cd = e->mixed_cdata && cdata_at(w, e, pos[0] - e->raw_pos);

        while (pos[0] < pos[1]) {
            const char *u = e->raw + (pos[0] - e->raw_pos);
            size_t left = e->raw_len - (pos[0] - e->raw_pos);

            dl = e->mixed_cdata ? unit_step_cd(w, u, left, &cd, &rlen)
                                : unit_len(w, u, left, UNIT_CONTENT, &rlen);
            if (dl != 0)
                break;
            pos[0] += rlen;
        }
        const char *span = e->raw + (pos[0] - e->raw_pos);
        size_t span_len = pos[1] - pos[0];

        /* an item inside one CDATA section stands for itself, and the
         * rewriter writes it so (in_cdata); elsewhere, in text, '<'
         * only ever opens markup (XML 1.0 2.4) */
        e->link.in_cdata = cd;
        e->link.has_markup = e->markup_unplaced ||
                             (e->link.in_cdata
                                  ? holds_cdata_end(span, span_len)
                                  : memchr(span, '<', span_len) != NULL);
    }
    e->item_i = e->at_i = pos[0] - e->raw_pos;
    e->item_d = e->at_d = start;
    e->item_cd = e->at_cd = e->mixed && e->link.in_cdata;
    e->item_end = pos[1];
    e->link.value = e->value + start;
    e->link.value_len = len;
    e->link.item = index;
    if (lead != SIZE_MAX || trail != SIZE_MAX)
        findings |= XIRI_LINK_CONTROL_AROUND;
    e->link.findings = findings;
    e->link.offset = input_orig_offset(w->in, pos[0]);
    e->link.raw_length = input_orig_offset(w->in, pos[1]) - e->link.offset;
    e->item_pos = pos[0];
    if (w->lazy)
        e->link.line = e->link.column = 0;
    else
        input_line_col(w->in, pos[0], &e->link.line, &e->link.column);
    if (lead != SIZE_MAX)
        report_removed_control(w, e, lead, place[0], true);
    if (w->status != XIRI_OK)
        return 1;
    w->links++;
    w->cur = e;
    /* CSS Values and Units 4, "Fragment URLs" (local URLs): a url() that
     * begins with '#' refers to the document itself, whatever its base */
    base = e->link.base;
    e->link.item_quote = 0;
    if (e->link.shape == XIRI_SHAPE_CSS) {
        /* (no document URI: no base, never <base href>'s) */
        if (len > 0 && e->value[start] == '#')
            e->link.base = w->doc_uri;
        e->link.item_quote = css_item_quote(e->value, start);
    }
    if (w->on_link && w->on_link(w->user, &e->link) != 0) {
        e->link.base = base;
        w->cur = NULL;
        fail(w, XIRI_ECANCELED);
        return 1;
    }
    e->link.base = base;
    w->cur = NULL;
    if (trail != SIZE_MAX)
        report_removed_control(w, e, trail, place[3], false);
    return w->status != XIRI_OK;
}

/* The raw text of the current value from the cursor on, unit by unit
 * (unit_step: a reference, a CR LF, CDATA markers...), up to the unit
 * that holds decoded offset target: its text position.  Units that
 * decode to nothing (markers, comments in element content) are stepped
 * over, so that the place is that of a character. */
static size_t raw_place(struct xiri_walker *w, struct emit *e, size_t target)
{
    size_t rlen, d;

    if (e->map_ok == 2) /* every raw byte is one decoded byte */
        return e->raw_pos + target;
    if (target < e->at_d) {
        e->at_i = e->item_i;
        e->at_d = e->item_d;
        e->at_cd = e->item_cd;
    }
    while (e->at_i < e->raw_len) {
        d = e->mixed_cdata
                ? unit_step_cd(w, e->raw + e->at_i, e->raw_len - e->at_i,
                               &e->at_cd, &rlen)
                : unit_step(w, e->raw + e->at_i, e->raw_len - e->at_i,
                            e->content, &rlen);
        if (d > 0 && e->at_d + d > target)
            break;
        e->at_d += d;
        e->at_i += rlen;
    }
    return e->raw_pos + e->at_i;
}

enum xiri_status xiri_walker_position(struct xiri_walker *w,
                                      const struct xiri_link *link,
                                      size_t off, unsigned long *line,
                                      unsigned long *column, size_t *offset)
{
    struct emit *e;
    size_t pos, i;

    /* link: the one on_link was given, or a copy of it */
    if (!w || !link || !w->cur || link->value != w->cur->link.value ||
        link->value_len != w->cur->link.value_len || !line || !column ||
        !offset)
        return XIRI_EINVAL;
    e = w->cur;
    if (off > link->value_len)
        off = link->value_len;
    if (e->item_mapped) {
        pos = raw_place(w, e, (size_t)(link->value - e->value) + off);
        if (pos > e->item_end)
            /* past units that give nothing after the item's last
             * character (an empty entity, a comment): its end */
            pos = e->item_end;
        *offset = input_orig_offset(w->in, pos);
        input_line_col(w->in, pos, line, column);
        return XIRI_OK;
    }
    /* the raw text is not known to decode to the value: count the
     * value's characters from its first one (line ends as written); the
     * offset stays the value's (xiri.h) */
    if (w->lazy) /* the place the link would have been given */
        input_line_col(w->in, e->item_pos, line, column);
    else {
        *line = link->line;
        *column = link->column;
    }
    *offset = link->offset;
    for (i = 0; i < off;) {
        unsigned char c = (unsigned char)link->value[i];

        if (c == '\n' || c == '\r') {
            i += c == '\r' && i + 1 < off && link->value[i + 1] == '\n' ? 2 : 1;
            ++*line;
            *column = 1;
            continue;
        }
        i++;
        if ((c & 0xC0) != 0x80)
            ++*column; /* the first byte of a character (UTF-8) */
    }
    return XIRI_OK;
}

/* A problem of a srcset's descriptors (srcset.c), reported at the
 * candidate's URL when the raw text maps to the value, else at the
 * value. */
static int srcset_problem(void *user, enum srcset_problem_kind kind, size_t at,
                          const char *message)
{
    struct emit *e = user;
    struct xiri_walker *w = e->w;
    size_t pos = e->map_ok > 0 ? raw_place(w, e, at) : e->raw_pos;

    if (kind == SRCSET_DROPPED)
        value_diag(w, e, "srcset-dropped", XIRI_SEV_ERROR, pos, "%s", message);
    else
        value_diag(w, e, "srcset-invalid", XIRI_SEV_WARNING, pos, "%s",
                   message);
    return w->status != XIRI_OK;
}

/* srcset_check's callback before a srcset value's candidates are emitted:
 * which candidates have a problem (w->marks), so that their links say so
 * (xiri_link.findings). */
static int srcset_mark(void *user, enum srcset_problem_kind kind, size_t at,
                       const char *message)
{
    struct emit *e = user;
    struct xiri_walker *w = e->w;
    size_t bit = kind == SRCSET_DROPPED ? XIRI_LINK_SRCSET_DROPPED
                                        : XIRI_LINK_SRCSET_INVALID;

    (void)message;
    if (w->nmarks > 0 && (w->marks[w->nmarks - 1] >> MARK_SHIFT) == at) {
        w->marks[w->nmarks - 1] |= bit;
        return 0;
    }
    if (!mem_reserve(&w->marks, &w->marks_cap, w->nmarks + 1,
                     sizeof(*w->marks))) {
        fail(w, XIRI_ENOMEM);
        return 1;
    }
    w->marks[w->nmarks++] = at << MARK_SHIFT | bit;
    return 0;
}

/* shape_split's callback that only counts the items. */
static int count_item(void *user, size_t start, size_t len, unsigned index)
{
    (void)user, (void)start, (void)len, (void)index;
    return 0;
}

/* The url()s of a CSS value that come to no link (shapes.c): one written
 * with an escape, which xiri does not decode (a note), and one browsers
 * drop with its declaration (CSS Syntax Level 3: a bad URL, 4.3.6, or a
 * string a line end cuts, 4.3.5), an error.  raw_place walks from the
 * value's start: e's item fields are reset first. */
static void css_problems(struct xiri_walker *w, struct emit *e)
{
    struct css_scan scan;
    struct css_url u;
    const char *v = e->value;

    e->item_i = e->item_d = e->at_i = e->at_d = 0;
    e->item_cd = e->at_cd = false;
    if (e->map_ok < 0) {
        /* no item mapped a place yet: learn whether places can be */
        size_t zero = 0, ignored;
        map_offsets(w, e, &zero, &ignored, 1);
    }
    css_scan_init(&scan, !e->link.attribute);
    while (w->status == XIRI_OK && css_url_next(v, e->value_len, &scan, &u)) {
        size_t place = e->map_ok > 0 ? raw_place(w, e, u.at) : e->raw_pos;
        unsigned char c = (unsigned char)v[u.at];
        char what[48];

        if (u.kind == CSS_URL_ESCAPED) {
            about_diag(w, v + u.start, u.len, e->link.element,
                       e->link.attribute, "css-escape", XIRI_SEV_NOTE, place,
                       "%s written with a CSS escape ('\\', CSS Syntax "
                       "Level 3, 4.3.7): xiri does not decode CSS escapes, "
                       "so this URL is neither checked nor rewritten",
                       u.source == CSS_IN_IMPORT      ? "an @import's URL"
                       : u.source == CSS_IN_IMAGE_SET ? "an image-set()'s URL"
                                                      : "a url()");
            continue;
        }
        if (u.kind == CSS_URL_BAD && u.source != CSS_IN_URL) {
            bool import = u.source == CSS_IN_IMPORT;

            about_diag(w, v + u.start, u.len, e->link.element,
                       e->link.attribute, "css-bad-url", XIRI_SEV_ERROR, place,
                       "%s string with a line end inside its quotes is a bad "
                       "string (CSS Syntax Level 3, 4.3.5): browsers drop "
                       "the %s and never load %s; remove the line end or "
                       "write it as %%0A",
                       import ? "an @import's" : "an image-set()'s",
                       import ? "@import" : "whole declaration",
                       import ? "the style sheet" : "it");
            continue;
        }
        if (u.kind != CSS_URL_BAD)
            continue;
        if (u.quote)
            snprintf(what, sizeof(what), "a line end inside its quotes");
        else if (c == '\\')
            snprintf(what, sizeof(what), "a '\\' before a line end");
        else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f')
            snprintf(what, sizeof(what), "white space inside it");
        else if (c == '(')
            snprintf(what, sizeof(what), "a '(' inside it");
        else if (c == '"' || c == '\'')
            snprintf(what, sizeof(what), "a quote mark (%c) inside it", c);
        else
            snprintf(what, sizeof(what), "a control character (U+%04X)",
                     (unsigned)c);
        about_diag(w, v + u.start, u.len, e->link.element, e->link.attribute,
                   "css-bad-url", XIRI_SEV_ERROR, place,
                   "a url() with %s is a bad URL (CSS Syntax Level 3, "
                   "%s): browsers drop the whole declaration and never load "
                   "it; %s",
                   what, u.quote ? "4.3.5" : "4.3.6",
                   u.quote ? "remove the line end or write it as %0A"
                           : "quote the URL, url(\"...\"), or percent-encode "
                             "the character (%20 for a space)");
    }
}

/* Does v[0..n) hold a token of a KML image pyramid's tile URL ($[level],
 * $[x], $[y]: OGC KML 2.2 kml:href of a kml:PhotoOverlay's kml:Icon with
 * a kml:ImagePyramid; Google's KML reference, "Adding PhotoOverlays")? */
static bool kml_template(const char *v, size_t n)
{
    static const char *const tokens[] = {"$[level]", "$[x]", "$[y]"};
    const char *p = v, *end = v + n;
    size_t k;

    while ((p = memchr(p, '$', (size_t)(end - p))) != NULL) {
        for (k = 0; k < ARRAY_LEN(tokens); k++) {
            size_t tl = strlen(tokens[k]);
            if ((size_t)(end - p) >= tl && memcmp(p, tokens[k], tl) == 0)
                return true;
        }
        p++;
    }
    return false;
}

/* shape_split's callback for a value of one item: its start and length
 * into span[0], span[1]. */
static int one_item(void *user, size_t start, size_t len, unsigned index)
{
    size_t *span = user;

    (void)index;
    span[0] = start;
    span[1] = len;
    return 0;
}

static void emit_links(struct xiri_walker *w, struct emit *e,
                       enum xiri_shape shape)
{
    unsigned n;

    if (e->value_len > w->max_value) {
        diag(w, "value-too-long", XIRI_SEV_WARNING, e->raw_pos,
             "a value of %zu bytes is longer than the limit of %zu bytes "
             "and is left alone (not checked, not rewritten); raise "
             "--max-value if it is real",
             e->value_len, w->max_value);
        return;
    }
    if (shape == XIRI_SHAPE_KML_TEMPLATE) {
        if (kml_template(e->value, e->value_len)) {
            /* the value as one IRI would be: white space trimmed (XSD
             * anyURI), so that a baseline keys it as a link's finding */
            size_t span[2] = {0, e->value_len};
            shape_split(XIRI_SHAPE_IRI, e->value, e->value_len, one_item, span);
            about_diag(w, e->value + span[0], span[1], e->link.element,
                       e->link.attribute, "kml-template", XIRI_SEV_NOTE,
                       raw_place(w, e, span[0]),
                       "a KML image pyramid's tile URL template ($[level], "
                       "$[x], $[y], which the viewer replaces; OGC KML 2.2, "
                       "PhotoOverlay): no IRI until then, so it is neither "
                       "checked nor rewritten");
            return;
        }
        shape = XIRI_SHAPE_IRI;
    }
    e->link.shape = shape;
    e->link.profile = w->html ? XIRI_PROFILE_HTML : XIRI_PROFILE_LEIRI;
    /* what the items' links are to say of themselves (xiri_link.findings):
     * the srcset candidates with a problem, an unpaired last item */
    w->nmarks = 0;
    e->mark_i = 0;
    e->unpaired = UINT_MAX;
    if (shape == XIRI_SHAPE_SRCSET) {
        srcset_check(e->value, e->value_len, srcset_mark, e);
        if (w->status != XIRI_OK)
            return;
    }
    if (shape == XIRI_SHAPE_PAIRS) {
        n = shape_split(shape, e->value, e->value_len, count_item, NULL);
        if (n % 2 == 1)
            e->unpaired = n - 1;
    }
    /* (the content of a style element is a style sheet: cssurl.h) */
    n = shape == XIRI_SHAPE_CSS
            ? shape_split_css(e->value, e->value_len, !e->link.attribute,
                              emit_item, e)
            : shape_split(shape, e->value, e->value_len, emit_item, e);
    if (shape == XIRI_SHAPE_SRCSET && w->status == XIRI_OK && w->nmarks > 0) {
        /* the problems' messages and places: the descriptors read again
         * (srcset_mark found some); raw_place walks from the value's
         * start */
        e->item_i = e->item_d = e->at_i = e->at_d = 0;
        srcset_check(e->value, e->value_len, srcset_problem, e);
    }
    if (shape == XIRI_SHAPE_CSS && w->status == XIRI_OK)
        css_problems(w, e);
    /* XSD 1.0 Part 1 2.6.3 and 4.3.2: xsi:schemaLocation holds pairs, a
     * namespace name then a location; with an odd count the last item
     * (even: a namespace name, shapes.c) has none.  e->link and item_i
     * still describe that last item. */
    if (shape == XIRI_SHAPE_PAIRS && n % 2 == 1)
        value_diag(
            w, e, "unpaired-namespace", XIRI_SEV_WARNING,
            e->raw_pos + e->item_i,
            "%s holds %u item%s, an odd number: its last, \"%.*s%s\", a "
            "namespace name, has no schema location after it (XSD 1.0 "
            "Part 1 4.3.2: pairs of a namespace name and a location); add "
            "the location or remove the name",
            e->link.attribute ? e->link.attribute : "the value", n,
            n == 1 ? "" : "s",
            e->link.value_len > 64 ? 64 : (int)e->link.value_len, e->link.value,
            e->link.value_len > 64 ? "..." : "");
}

/* ---------------------------------------------------------------- XML SAX */

static struct xiri_walker *walker_of(void *ctx)
{
    xmlParserCtxtPtr px = ctx;
    return px->_private;
}

/* Find attribute qname (prefix:local or local, of lengths pl and ll; pl
 * 0 without a prefix) in the start tag at text[start..end]; false when it
 * is not there as written. */
/* a[0..n) and b[0..n) are the same name (ignoring ASCII case: nocase) */
static bool same_name(const char *a, const char *b, size_t n, bool nocase)
{
    size_t i;

    for (i = 0; i < n; i++) {
        char x = a[i], y = b[i];
        if (x == y)
            continue; /* (most are: no case to fold) */
        if (!nocase)
            return false;
        x = (char)(x >= 'A' && x <= 'Z' ? x - 'A' + 'a' : x);
        y = (char)(y >= 'A' && y <= 'Z' ? y - 'A' + 'a' : y);
        if (x != y)
            return false;
    }
    return true;
}

static bool find_raw_attr(const char *text, size_t start, size_t end,
                          const char *prefix, size_t pl, const char *local,
                          size_t ll, bool nocase, const struct tag_log *log,
                          const struct tag_rec *rec, size_t text_start,
                          struct tag_attr *out)
{
    size_t cursor = start, want = pl ? pl + 1 + ll : ll, k = 0;

    /* the guard's record of the tag when there is one, else the text */
    while (rec ? k < rec->n : tag_next_attr(text, end, &cursor, out)) {
        const char *nm;
        if (rec) {
            *out = log->attrs[rec->first + k++];
            out->name -= text_start;
            out->value -= text_start;
        }
        nm = text + out->name;
        if (out->name_len != want)
            continue;
        if (pl && (nm[pl] != ':' || !same_name(nm, prefix, pl, nocase)))
            continue;
        if (same_name(nm + (pl ? pl + 1 : 0), local, ll, nocase))
            return true;
    }
    return false;
}

/* An entity reference "&name;" at s[0..n) (not a character reference):
 * its name's length, or 0. */
static size_t entity_ref(const char *s, size_t n)
{
    size_t i;

    if (n < 3 || s[0] != '&' || s[1] == '#')
        return 0;
    for (i = 1; i < n && i < 128 && s[i] != ';' && s[i] != '&'; i++)
        ;
    return i < n && s[i] == ';' && i > 1 ? i - 1 : 0;
}

/* libxml2 leaves out of an attribute value a reference to an entity it
 * does not know (declared in an external DTD, which xiri never reads):
 * find one in the value as written. */
static bool raw_unknown_entity(struct xiri_walker *w, const char *raw,
                               size_t n)
{
    size_t i, len;

    for (i = 0; i < n; i++)
        if (raw[i] == '&' && (len = entity_ref(raw + i, n - i)) > 0 &&
            !internal_entity(w, raw + i + 1, len)) {
            struct buf none;
            buf_init(&none, 0);
            unknown_entity(w, raw + i + 1, len, &none);
            return true;
        }
    return false;
}

/* Would value_failed report (cheap: its message is built only then)? */
static bool value_failing(const struct xiri_walker *w, const struct buf *v)
{
    return v->status != XIRI_OK || w->entities_exhausted ||
           w->unknown_entity[0];
}

/* Why a value could not be decoded; false when it could. */
static bool value_failed(struct xiri_walker *w, const struct buf *v,
                         const char *what, size_t pos)
{
    if (v->status == XIRI_ENOMEM) {
        fail(w, XIRI_ENOMEM);
        return true;
    }
    if (w->entities_exhausted) {
        limit_error(w, pos,
                    "entity references expand to more than %zu bytes; raise "
                    "--max-entity-expansion",
                    w->max_entities);
        return true;
    }
    if (w->unknown_entity[0]) {
        diag(w, "unknown-entity", XIRI_SEV_WARNING, pos,
             "the %s refers to the entity &%s;, which is external or not "
             "declared (xiri never reads external DTDs or entities); it was "
             "not checked",
             what, w->unknown_entity);
        return true;
    }
    if (v->status != XIRI_OK) {
        diag(w, "value-too-long", XIRI_SEV_WARNING, pos,
             "the %s is longer than the limit of %zu bytes once its "
             "references are expanded, and is left alone (not checked, not "
             "rewritten); raise --max-value if it is real",
             what, w->max_value);
        return true;
    }
    return false;
}

/* An HTML attribute value as written, decoded as the tokenizer does it
 * (WHATWG HTML 13.2.5.72-80, htmlref.c), after the input stream's
 * preprocessing (13.2.3.5: a CR LF pair and a CR alone are one LF; a
 * reference to U+000D stays one); what else stands there is itself
 * (unit_len mirrors this). */
static void decode_html_attr(struct xiri_walker *w, const char *raw, size_t n,
                             struct buf *out)
{
    size_t i = 0, run;

    (void)w;
    out->len = 0;
    out->status = XIRI_OK;
    while (i < n) {
        char tmp[8];
        size_t dl, k;

        for (run = i; i < n && raw[i] != '&' && raw[i] != '\r'; i++)
            ;
        buf_append(out, raw + run, i - run);
        if (i >= n)
            break;
        if (raw[i] == '\r') {
            buf_putc(out, '\n');
            i += i + 1 < n && raw[i + 1] == '\n' ? 2 : 1;
            continue;
        }
        k = htmlref_decode(raw + i, n - i, true, tmp, &dl);
        if (k == 0) {
            buf_putc(out, '&');
            i++;
        } else {
            buf_append(out, tmp, dl);
            i += k;
        }
    }
}

/* One attribute found to hold IRIs: decode, locate, split, report.  known
 * is its value as written when value_in_input found it (else NULL: it is
 * looked for in the tag at tag_start, or in the guard's record rec). */
static void
attribute_links(struct xiri_walker *w, const char *text, size_t text_start,
                size_t tag_start, const struct tag_rec *rec,
                const struct tag_attr *known, size_t tag_end,
                const char *prefix, const char *local, const char *attr_ns,
                const char *value, size_t value_len, enum xiri_shape shape,
                const char *element, const char *element_ns, const char *base)
{
    struct emit e;
    struct tag_attr ta;
    bool found, direct;
    char what[300];
    size_t pl = prefix ? strlen(prefix) : 0, ll = strlen(local);

    memset(&e, 0, sizeof(e));
    e.w = w;
    e.map_ok = -1;
    w->value.len = 0;
    w->value.status = XIRI_OK;
    w->unknown_entity[0] = '\0';
    if (known) {
        ta = *known; /* value_in_input found it */
        found = true;
    } else {
        found = tag_start != SIZE_MAX &&
                find_raw_attr(text, tag_start - text_start,
                              tag_end - text_start, prefix, pl, local, ll,
                              w->html, &w->taglog, rec, text_start, &ta);
    }
    /* A value with nothing to decode (HTML: no '&' as written, so libxml2's
     * value is the text; XML: no '&', as a value known in libxml2's buffer
     * never has) is reported where libxml2 holds it, not copied; one over
     * the limit still goes through the buffer, which says so.  An HTML
     * value with '&' is decoded from the text as browsers do. */
    direct = false;
    if (!w->html && w->undeclared_entity && found &&
        raw_unknown_entity(w, text + ta.value, ta.value_len))
        ; /* reported below */
    else if (w->html && found && ta.value_len <= w->value.max &&
             (memchr(text + ta.value, '&', ta.value_len) ||
              (input_cr_from(w->in, text_start + ta.value) &&
               memchr(text + ta.value, '\r', ta.value_len))))
        /* references as a browser reads them (libxml2 2.9 knows HTML 4's
         * names only, and not the rules for a missing ';'), and a CR as
         * the LF it is to a browser (libxml2 2.9 keeps it) */
        decode_html_attr(w, text + ta.value, ta.value_len, &w->value);
    else if (value_len <= w->value.max &&
             (w->html || known || !memchr(value, '&', value_len)))
        direct = true;
    else if (w->html)
        buf_append(&w->value, value, value_len);
    else
        decode_xml(w, value, value_len, &w->value, &w->entities_left);
    if (value_failing(w, &w->value)) {
        snprintf(what, sizeof(what), "value of %s%s%s", prefix ? prefix : "",
                 prefix ? ":" : "", local);
        if (value_failed(w, &w->value, what,
                         found ? text_start + ta.value : tag_end))
            return;
    }
    if (direct) {
        e.value = value_len ? value : "";
        e.value_len = value_len;
    } else {
        e.value = w->value.data ? w->value.data : "";
        e.value_len = w->value.len;
    }
    if (found) {
        e.raw = text + ta.value;
        e.raw_len = ta.value_len;
        e.raw_pos = text_start + ta.value;
        e.link.quote = ta.quote;
        /* a value in libxml2's buffer is its raw text, byte for byte
         * (value_in_input): map_offsets need not look */
        if (known && direct)
            e.map_ok = 2;
    } else {
        /* not found as written (a defaulted attribute, an implied
         * element): report the end of the tag */
        e.raw = "";
        e.raw_len = 0;
        e.raw_pos = tag_end;
    }
    e.link.element = element;
    e.link.element_ns = element_ns;
    e.link.attribute = NULL;
    e.link.attribute_ns = attr_ns;
    e.link.base = base;
    {
        /* prefix:local, cut to the buffer as snprintf would (without its
         * cost on every link) */
        char qname[256];
        size_t q = 0;
        if (!pl && ll < sizeof(qname)) {
            e.link.attribute = local; /* the name itself, uncut */
        } else {
            if (pl) {
                q = pl < sizeof(qname) - 1 ? pl : sizeof(qname) - 1;
                memcpy(qname, prefix, q);
                if (q < sizeof(qname) - 1)
                    qname[q++] = ':';
            }
            if (ll > sizeof(qname) - 1 - q)
                ll = sizeof(qname) - 1 - q;
            memcpy(qname + q, local, ll);
            qname[q + ll] = '\0';
            e.link.attribute = qname;
        }
        emit_links(w, &e, shape);
    }
}

/* Append element content as written, decoded (XML 1.0 2.4, 2.7, 4.4.2):
 * character and entity references expanded (within the budget), CDATA
 * markers, comments and processing instructions dropped, the characters
 * of a CDATA section as they are, CR LF read as LF.  Mirrors unit_len(),
 * but expands each entity once; mode is UNIT_CONTENT, or UNIT_CDATA when
 * raw is the inside of one CDATA section. */
static void decode_content_to(struct xiri_walker *w, const char *raw,
                              size_t n, int mode, struct buf *out,
                              size_t *budget)
{
    size_t i = 0, len;
    bool in_cdata = mode == UNIT_CDATA;

    while (i < n && out->status == XIRI_OK) {
        size_t rlen, dl;

        if (in_cdata && mode != UNIT_CDATA && n - i >= 3 &&
            memcmp(raw + i, "]]>", 3) == 0) {
            in_cdata = false; /* the end of a section among other text */
            i += 3;
            continue;
        }
        if (raw[i] == '&' && !in_cdata && !w->html) {
            long cp = char_ref(raw + i, n - i, &len);
            char tmp[4];

            if (cp >= 0) {
                buf_append(out, tmp, utf8_encode((uint32_t)cp, tmp));
                i += len;
            } else if ((len = entity_ref(raw + i, n - i)) > 0) {
                if (!expand_entity(w, raw + i, len + 2, out, budget,
                                   UNIT_CONTENT))
                    unknown_entity(w, raw + i + 1, len, out);
                i += len + 2;
            } else {
                buf_putc(out, '&');
                i++;
            }
            continue;
        }
        dl = unit_len(w, raw + i, n - i, in_cdata ? UNIT_CDATA : UNIT_CONTENT,
                      &rlen);
        if (dl == 0) {
            /* markup that gives nothing */
            if (rlen == 9 && memcmp(raw + i, "<![CDATA[", 9) == 0)
                in_cdata = true;
        } else if (in_cdata) {
            /* as written, but for line ends (XML 1.0 2.11) */
            buf_putc(out, rlen == 2 || raw[i] == '\r' ? '\n' : raw[i]);
        } else if (raw[i] == '&' && rlen > 1 && w->html) {
            char tmp[8];
            size_t got;
            htmlref_decode(raw + i, n - i, false, tmp, &got);
            buf_append(out, tmp, got);
        } else if (rlen == 2 || raw[i] == '\r') {
            /* CR LF, or CR alone (XML 1.0 2.11, HTML 13.2.3.5) */
            buf_putc(out, '\n');
        } else {
            buf_putc(out, raw[i]);
        }
        i += rlen;
    }
}

/* Decode element content as written into out (decode_content_to). */
static void decode_content(struct xiri_walker *w, const char *raw, size_t n,
                           int mode, struct buf *out)
{
    out->len = 0;
    out->status = XIRI_OK;
    w->unknown_entity[0] = '\0';
    decode_content_to(w, raw, n, mode, out, &w->entities_left);
}

static void content_drop(struct xiri_walker *w);
static void on_characters(void *ctx, const xmlChar *ch, int len);
static void on_entity_characters(void *ctx, const xmlChar *ch, int len);

/* Element content e that holds markup: when it is one CDATA section
 * (with white space around it, which every shape leaves out), the value
 * is the section's inside, whose characters stand for themselves (XML 1.0
 * 2.7): e becomes that inside (link.in_cdata: a rewriter writes it
 * without references); else e is mixed (emit_item). */
/* Past white space, comments and processing instructions from r[i] on
 * (XML 1.0 2.5, 2.6: they are no character data). */
static size_t skip_misc(const char *r, size_t n, size_t i)
{
    for (;;) {
        const char *close;
        size_t k;

        while (i < n && (r[i] == ' ' || r[i] == '\t' || r[i] == '\n' ||
                         r[i] == '\r'))
            i++;
        if (n - i >= 4 && memcmp(r + i, "<!--", 4) == 0)
            close = "-->";
        else if (n - i >= 2 && memcmp(r + i, "<?", 2) == 0)
            close = "?>";
        else
            return i;
        for (k = i + 2; k + strlen(close) <= n &&
                        memcmp(r + k, close, strlen(close)) != 0;
             k++)
            ;
        if (k + strlen(close) > n)
            return i; /* not closed here: not one */
        i = k + strlen(close);
    }
}

static void content_markup(struct emit *e)
{
    static const char open[] = "<![CDATA[";
    size_t i, k, n = e->raw_len;
    const char *r = e->raw;

    /* the section may have comments and processing instructions around
     * it: they stay where they are, outside the span */
    i = skip_misc(r, n, 0);
    if (n - i >= sizeof(open) - 1 &&
        memcmp(r + i, open, sizeof(open) - 1) == 0) {
        size_t in = i + sizeof(open) - 1;

        /* a section ends at the first "]]>" */
        for (k = in; k + 3 <= n && memcmp(r + k, "]]>", 3) != 0; k++)
            ;
        if (k + 3 <= n) {
            size_t j = skip_misc(r, n, k + 3);

            if (j == n) {
                e->raw += in;
                e->raw_pos += in;
                e->raw_len = k - in;
                e->content = UNIT_CDATA;
                e->link.in_cdata = 1;
                return;
            }
        }
    }
    e->mixed = true;
    for (k = 0; k + 9 <= n; k++)
        if (r[k] == '<' && memcmp(r + k, open, 9) == 0)
            e->mixed_cdata = true;
}

/* The content being read as a link, with its end tag, is longer than
 * max_markup: not checked, and said so. */
static void content_too_long(struct xiri_walker *w)
{
    struct content *c = &w->content;

    diag(w, "value-too-long", XIRI_SEV_WARNING, c->start,
         "the content of <%.60s> is longer than %zu bytes and was not "
         "checked; raise --max-markup if it is real",
         c->element, w->max_markup);
    content_drop(w);
}

/* Start collecting an element's content as a link (e.g. Atom <id>). */
static void content_begin(struct xiri_walker *w, const char *element,
                          const char *element_ns, enum xiri_shape shape,
                          size_t tag_end, bool in_entity)
{
    struct content *c = &w->content;
    const char *base = current_base(w);

    c->active = true;
    c->depth = w->depth;
    c->start = tag_end + 1;
    c->nil = false;
    c->in_entity = in_entity;
    if (in_entity && w->px->sax && !w->pipe) {
        /* (the parser of the replacement text shares the handler; the
         * parser thread records such characters itself: rec_characters) */
        w->px->sax->characters = on_entity_characters;
        w->px->sax->cdataBlock = on_entity_characters;
        w->px->sax->ignorableWhitespace = on_entity_characters;
    }
    if (in_entity)
        w->unknown_entity[0] = '\0'; /* (on_get_entity) */
    /* in XML a '/' before a start tag's '>' is always the empty
     * element's (values are quoted); in HTML it may end an unquoted
     * value, and HTML's elements of content are not empty-element tags.
     * (libxml2 reports an empty-element tag with its position at the
     * '/', another at the '>'.) */
    c->empty_at = SIZE_MAX;
    if (!w->html && !in_entity) {
        size_t s0, s1;
        const char *text = input_window(w->in, &s0, &s1);
        const char *t = text - s0;

        if (tag_end >= s0 && tag_end + 1 < s1 && t[tag_end] == '/' &&
            t[tag_end + 1] == '>')
            c->empty_at = tag_end;
        else if (tag_end > s0 && tag_end < s1 && t[tag_end] == '>' &&
                 t[tag_end - 1] == '/')
            c->empty_at = tag_end - 1;
    }
    c->shape = shape;
    c->value.len = 0;
    c->value.status = XIRI_OK;
    c->element = dup_or_null(element);
    c->element_ns = dup_or_null(element_ns);
    c->base = dup_or_null(base);
    if (!c->element || (element_ns && !c->element_ns) ||
        (base && !c->base))
        fail(w, XIRI_ENOMEM);
}

/* What the text may be let go up to after a start tag whose end is at
 * tag_end: the content being collected is kept, from the '/' of an
 * empty element's "/>" on, or from the reference to the entity it
 * stands in (content_end places its value there; with the parser
 * thread, the end's record may be replayed after the text before the
 * next record's is let go). */
static size_t safe_after_start(const struct xiri_walker *w, size_t tag_end)
{
    const struct content *c = &w->content;

    if (!c->active || c->in_entity)
        return tag_end;
    return c->empty_at < c->start ? c->empty_at : c->start;
}

static void content_drop(struct xiri_walker *w)
{
    struct content *c = &w->content;

    if (c->in_entity && w->px && w->px->sax && !w->pipe) {
        w->px->sax->characters = on_characters;
        w->px->sax->cdataBlock = on_characters;
        w->px->sax->ignorableWhitespace = on_characters;
    }
    c->in_entity = false;
    c->active = false;
    mem_free(c->element);
    mem_free(c->element_ns);
    mem_free(c->base);
    c->element = c->element_ns = c->base = NULL;
}

/* The end of content_end and content_of_entity: the value c->value, at
 * e's place, is emitted unless the element is nilled or the value could
 * not be read (a finding at text position pos). */
static void content_emit(struct xiri_walker *w, struct emit *e, size_t pos)
{
    struct content *c = &w->content;

    /* a nilled element has no value at all (XSD Part 1 3.3.4.4: no
     * character or element children; comments and processing
     * instructions may stand there); one that has characters is invalid,
     * and its content is read as written */
    if (c->nil && c->value.len == 0) {
        content_drop(w);
        return;
    }
    if (value_failing(w, &c->value)) {
        char what[100];
        snprintf(what, sizeof(what), "content of <%.60s>", c->element);
        if (value_failed(w, &c->value, what, pos)) {
            content_drop(w);
            return;
        }
    }
    e->value = c->value.data ? c->value.data : "";
    e->value_len = c->value.len;
    e->link.element = c->element;
    e->link.element_ns = c->element_ns;
    e->link.base = c->base;
    emit_links(w, e, c->shape);
    content_drop(w);
}

/* Content from an entity's replacement text (XML 1.0 4.4.3; libxml2
 * gives its elements the place of the reference): the characters
 * libxml2 gave, placed there, with no span (has_markup: a rewriter leaves
 * it). */
static void content_of_entity(struct xiri_walker *w)
{
    size_t pos = parser_pos(w), s0, s1;
    const char *text = input_window(w->in, &s0, &s1);
    struct emit e;

    memset(&e, 0, sizeof(e));
    e.w = w;
    e.map_ok = -1;
    e.content = UNIT_CONTENT;
    e.raw_pos = pos < s0 ? s0 : pos > s1 ? s1 : pos;
    e.raw = text + (e.raw_pos - s0);
    e.mixed = e.markup_unplaced = true;
    content_emit(w, &e, pos);
}

static void content_end(struct xiri_walker *w)
{
    struct content *c = &w->content;
    size_t end = parser_pos(w), s0, s1, lt;
    const char *text = input_window(w->in, &s0, &s1);
    const struct tag_text_element *te;
    struct emit e;

    if (c->in_entity) {
        content_of_entity(w);
        return;
    }
    if (end - c->start > w->max_markup) {
        content_too_long(w);
        return;
    }
    /* (the end tag's '>' may be the last byte of the document) */
    lt = end >= s0 && end <= s1 ? tag_find_end_start(text, end - s0) : SIZE_MAX;
    if (lt == SIZE_MAX && w->html && w->ending && end == s1 && c->start >= s0)
        /* an element the end of the document closes: a browser reads a
         * style element's raw text up to there (WHATWG HTML 13.2.5.3,
         * EOF in the RAWTEXT state emits an end-of-file token) */
        lt = s1 - s0;
    memset(&e, 0, sizeof(e));
    e.w = w;
    e.map_ok = -1;
    e.content = UNIT_CONTENT;
    if (c->empty_at != SIZE_MAX && c->empty_at >= s0 && c->empty_at < s1) {
        /* <e/>: the empty value, placed at the '/' of its "/>" (which
         * holds no place for another value: xiri_link.empty_tag) */
        e.raw_pos = c->empty_at;
        e.raw = text + (e.raw_pos - s0);
        e.raw_len = 0;
        e.link.empty_tag = 1;
    } else if (lt == SIZE_MAX || c->start < s0 || s0 + lt < c->start) {
        content_drop(w); /* cannot happen: the window holds the content */
        return;
    } else {
        e.raw = text + (c->start - s0);
        e.raw_len = s0 + lt - c->start;
        e.raw_pos = c->start;
    }
    /* (an SVG element of an HTML page has its namespace: no raw text) */
    te = w->html && !c->element_ns ? tag_html_text_element_z(c->element) : NULL;
    if (te && te->libxml2_raw) {
        /* HTML's style and script hold raw text (WHATWG HTML 13.2.5.3,
         * "RAWTEXT state"; 13.2.5.4, script data): no reference, no
         * markup; every character stands for itself, as in a CDATA
         * section, and a rewriter writes it so */
        e.content = UNIT_CDATA;
        e.link.in_cdata = 1;
    } else if (memchr(e.raw, '<', e.raw_len)) {
        content_markup(&e);
    }
    w->entity_markup = false;
    decode_content(w, e.raw, e.raw_len, e.content, &c->value);
    if (w->entity_markup)
        /* markup from an entity stands among the characters, and where
         * is not in the text: no item can be replaced as a span */
        e.mixed = e.markup_unplaced = true;
    content_emit(w, &e, c->start);
}

/* The document's base from the first base element with an href (WHATWG
 * HTML "set the frozen base URL"): its value parsed against the
 * document's address as a browser reads it (in HTML: character references
 * by the tokenizer, htmlref.c; leading and trailing C0 controls and
 * spaces, tabs and newlines removed, '\\' as '/' in a special URL,
 * htmlurl.c).  When that fails (a host or port browsers reject, or no
 * resolution) or gives a data: or javascript: URL, browsers keep the
 * document's address as the base, and so does the walker. */
static void html_base_element(struct xiri_walker *w, const char *href,
                              const struct attr_place *at)
{
    size_t n = strlen(href), k;
    const char *v = href;
    char *b;
    struct buf dec, prep, rel;
    struct tag_attr ta;
    bool ignored, rejected = false;

    if (w->base_element_seen)
        return;
    w->base_element_seen = true;
    buf_init(&dec, w->max_value);
    buf_init(&prep, w->max_value);
    buf_init(&rel, w->max_value);
    if (w->html) {
        if (at->tag_start != SIZE_MAX &&
            find_raw_attr(at->text, at->tag_start - at->s0,
                          at->tag_end - at->s0, NULL, 0, "href", 4, true,
                          &w->taglog, at->rec, at->s0, &ta)) {
            decode_html_attr(w, at->text + ta.value, ta.value_len, &dec);
            if (dec.status == XIRI_OK) {
                v = dec.data ? dec.data : "";
                n = dec.len;
            }
        }
        html_url_trim(&v, &n);
        html_url_prepare(v, n, w->doc_base, &prep);
        if (prep.status == XIRI_OK) {
            v = prep.data ? prep.data : "";
            n = prep.len;
            /* "http:other/" is "other/" against an http address */
            if (html_url_rfc_form(v, n, w->doc_base, &rel) &&
                rel.status == XIRI_OK) {
                v = rel.data;
                n = rel.len;
            }
        }
    } else {
        v = trim_ws(href, &n);
    }
    for (k = 0; k < n && v[k] != ':' && v[k] != '/' && v[k] != '?' &&
                v[k] != '#';
         k++)
        ;
    ignored = k < n && v[k] == ':' &&
              (scheme_is(v, k, "data") || scheme_is(v, k, "javascript"));
    if (!ignored) {
        enum xiri_status st =
            html_url_rejected(w->ctx, v, n, w->doc_base, &rejected);
        if (st != XIRI_OK)
            fail(w, st);
    }
    if (w->status != XIRI_OK) {
        ; /* the walk stops */
    } else if (ignored || rejected) {
        about_diag(w, v, n, "base", "href", "base-invalid", XIRI_SEV_WARNING,
                   attr_place_pos(w, at),
                   "browsers ignore this <base href> (%s): the links keep the "
                   "document's address as their base",
                   ignored ? "a data: or javascript: URL"
                           : "a host or port they reject; see xiri check "
                             "--profile=html");
    } else {
        b = resolve_base(w, w->doc_base, v, n, at, "base", "href",
                         "<base href>");
        /* (a base that is the document's address, as an empty href
         * gives, changes nothing for the links before it) */
        if (b && w->links_before_tag > 0 &&
            (!w->doc_base || strcmp(b, w->doc_base) != 0))
            diag(w, "base-after-links", XIRI_SEV_WARNING, attr_place_pos(w, at),
                 "<base href> comes after %lu links, which were resolved "
                 "against the document's address; browsers resolve them "
                 "against this base: move <base> to the start of <head>",
                 w->links_before_tag);
        if (b) {
            mem_free(w->doc_base);
            w->doc_base = b;
        }
    }
    buf_free(&dec);
    buf_free(&prep);
    buf_free(&rel);
}

/* The guard's record of the start tag of element prefix:local (ASCII
 * case ignored in HTML) whose '>' is at tag_end, in text[0..] from
 * stream position s0, beginning after the last markup; or NULL. */
static const struct tag_rec *logged_tag(struct xiri_walker *w,
                                        const char *text, size_t s0,
                                        size_t tag_end, const char *prefix,
                                        const char *local)
{
    const struct tag_rec *r = tag_log_find(&w->taglog, tag_end, text, s0);
    size_t pl = prefix ? strlen(prefix) : 0, ll = strlen(local), i;
    const char *t;
    char c;

    if (!r || r->lt < s0 || r->lt < w->floor ||
        r->lt + 1 + (pl ? pl + 1 : 0) + ll > tag_end)
        return NULL;
    t = text + (r->lt - s0) + 1;
    if (pl) {
        if (memcmp(t, prefix, pl) != 0 || t[pl] != ':')
            return NULL;
        t += pl + 1;
    }
    for (i = 0; i < ll; i++) {
        char a = t[i], b = local[i];
        if (w->html) {
            a = (char)(a >= 'A' && a <= 'Z' ? a - 'A' + 'a' : a);
            b = (char)(b >= 'A' && b <= 'Z' ? b - 'A' + 'a' : b);
        }
        if (a != b)
            return NULL;
    }
    c = t[ll];
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' ||
                   c == '>'
               ? r
               : NULL;
}

/* The '<' of the start tag whose '>' is at tag_end, or tag_end. */
static size_t tag_pos(struct xiri_walker *w, size_t tag_end)
{
    size_t s0, s1, t;
    const char *text = input_window(w->in, &s0, &s1);

    if (tag_end < s0 || tag_end >= s1)
        return tag_end;
    t = tag_find_start(text, w->floor > s0 ? w->floor - s0 : 0, tag_end - s0);
    return t == SIZE_MAX ? tag_end : s0 + t;
}

/* start_limits' error, out of line (start_limits is asked at every
 * start tag, and almost always passes). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool start_limits_fail(struct xiri_walker *w, const char *el,
                              unsigned long attrs, size_t tag_end)
{
    if (w->depth > w->max_depth) {
        limit_error(w, tag_pos(w, tag_end),
                    "<%.40s> is nested deeper than %lu elements; raise "
                    "--max-depth",
                    el, w->max_depth);
        return false;
    }
    if (attrs > w->max_attributes) {
        w->backstops++;
        limit_error(w, tag_pos(w, tag_end),
                    "start tag <%.40s> has more than %lu attributes; raise "
                    "--max-attributes",
                    el, w->max_attributes);
        return false;
    }
    return true;
}

/* The limits every start tag is held to: nesting, and (after the fact:
 * the guard stops such a tag before libxml2 reads it) attributes. */
static inline bool start_limits(struct xiri_walker *w, const char *el,
                                unsigned long attrs, size_t tag_end)
{
    if (w->depth <= w->max_depth && attrs <= w->max_attributes)
        return true;
    return start_limits_fail(w, el, attrs, tag_end);
}

/* Let go of the last n declarations (an end tag's). */
static void ns_unbind(struct xiri_walker *w, size_t n)
{
    while (n-- > 0 && w->ns_nbind > 0) {
        struct ns_binding *b = &w->ns_bind[--w->ns_nbind];
        w->xsi_bound -= strcmp(b->uri, XSI_NS) == 0;
        mem_free(b->prefix);
        mem_free(b->uri);
    }
}

/* The namespace prefix p[0..n) is bound to (n 0: the default namespace),
 * or NULL: none (Namespaces in XML 1.0 6.1, 6.2; an empty default
 * undeclares it). */
static const char *ns_lookup(const struct xiri_walker *w, const char *p,
                             size_t n)
{
    size_t i = w->ns_nbind;

    if (n == 3 && memcmp(p, "xml", 3) == 0)
        return XML_NS;
    while (i-- > 0) {
        const struct ns_binding *b = &w->ns_bind[i];
        if (n == 0 ? !b->prefix
                   : b->prefix && strlen(b->prefix) == n &&
                         memcmp(b->prefix, p, n) == 0)
            return n == 0 && !b->uri[0] ? NULL : b->uri;
    }
    return NULL;
}

/* XML: the namespace declarations of a start tag (libxml2's prefix and
 * URI pairs), kept for ns_lookup and counted against max_namespaces
 * (libxml2 2.9 looks a prefix up through all of them in scope, for every
 * prefixed name). */
static bool ns_push(struct xiri_walker *w, unsigned n,
                    const xmlChar **namespaces, size_t tag_end)
{
    unsigned i;

    if (!mem_reserve(&w->ns_per_depth, &w->ns_cap, w->depth + 1,
                     sizeof(*w->ns_per_depth))) {
        fail(w, XIRI_ENOMEM);
        return false;
    }
    w->ns_per_depth[w->depth] = n;
    if (w->ns_nbind + n > w->max_namespaces) {
        limit_error(w, tag_pos(w, tag_end),
                    "more than %lu namespace declarations in scope; raise "
                    "--max-namespaces",
                    w->max_namespaces);
        return false;
    }
    if (!mem_reserve(&w->ns_bind, &w->ns_bind_cap, w->ns_nbind + n,
                     sizeof(*w->ns_bind))) {
        fail(w, XIRI_ENOMEM);
        return false;
    }
    for (i = 0; i < n; i++) {
        struct ns_binding *b = &w->ns_bind[w->ns_nbind];
        const char *uri = (const char *)namespaces[2 * i + 1];

        b->prefix = dup_or_null((const char *)namespaces[2 * i]);
        b->uri = mem_strndup(uri ? uri : "", uri ? strlen(uri) : 0);
        if ((namespaces[2 * i] && !b->prefix) || !b->uri) {
            mem_free(b->prefix);
            mem_free(b->uri);
            fail(w, XIRI_ENOMEM);
            return false;
        }
        w->ns_nbind++;
        w->xsi_bound += strcmp(b->uri, XSI_NS) == 0;
    }
    return true;
}

/* A style element whose type attribute (type[0..n)) names another
 * language than CSS: browsers do not read its content as a style sheet
 * (WHATWG HTML, "update a style block": a type neither empty nor
 * "text/css" in any ASCII case; SVG 2, 6.3, the style element), so it
 * holds no url() to report. */
static bool style_type_not_css(const char *type, size_t n)
{
    return n != 0 && !(n == 8 && same_name(type, "text/css", 8, true));
}

/* HTML: content of shape css (a style element) whose type attribute
 * (atts: libxml2's name and value pairs) names another language. */
static bool html_css_of_other_type(enum xiri_shape shape, const xmlChar **atts)
{
    size_t i;

    for (i = 0; shape == XIRI_SHAPE_CSS && atts && atts[i]; i += 2)
        if (strcmp((const char *)atts[i], "type") == 0 && atts[i + 1])
            return style_type_not_css((const char *)atts[i + 1],
                                      strlen((const char *)atts[i + 1]));
    return false;
}

/* RSS 2.0, "<guid> sub-element of <item>": "If the guid element has an
 * attribute named isPermaLink with a value of false, the reader may
 * assume that it is not a link"; the value is an xs:boolean, whose
 * white space collapses (XML Schema 2 3.2.2.1: "false" or "0").  RSS 2.0
 * has no namespace, or UserLand's (schemas/rss2-userland.xsd). */
static bool guid_not_permalink(struct xiri_walker *w, const char *el_ns,
                               const char *el, int n, const xmlChar **attrs)
{
    int i;

    if (strcmp(el, "guid") != 0 ||
        (el_ns && *el_ns &&
         strcmp(el_ns, "http://backend.userland.com/rss2") != 0))
        return false;
    for (i = 0; i < n; i++) {
        struct buf dec;
        const char *v;
        size_t len;
        bool no;

        if (attrs[5 * i + 2] ||
            strcmp((const char *)attrs[5 * i], "isPermaLink") != 0)
            continue;
        /* the value as the document means it (references decoded, as
         * for every other attribute: isPermaLink="&f;" can be "false") */
        buf_init(&dec, XIRI_MAX_LEN);
        decode_xml(w, (const char *)attrs[5 * i + 3],
                   (size_t)(attrs[5 * i + 4] - attrs[5 * i + 3]), &dec,
                   &w->entities_left);
        len = dec.len;
        v = trim_ws(dec.data ? dec.data : "", &len);
        no = (len == 5 && memcmp(v, "false", 5) == 0) ||
             (len == 1 && v[0] == '0');
        buf_free(&dec);
        return no;
    }
    return false;
}

/* The text position of the start tag that ends at tag_end (and the
 * guard's record of it in *rec, when there is one), or SIZE_MAX.  In
 * HTML an element the parser implied has no tag of its own, and is not
 * found. */
static size_t start_tag_at(struct xiri_walker *w, const char *text, size_t s0,
                           size_t s1, size_t tag_end, const char *prefix,
                           const char *el, const struct tag_rec **rec)
{
    size_t t, from = w->floor > s0 ? w->floor - s0 : 0;
    const struct tag_log *log = &w->taglog;
    const struct tag_rec *r;

    *rec = NULL;
    if (tag_end < s0 || tag_end >= s1)
        return SIZE_MAX;
    r = logged_tag(w, text, s0, tag_end, prefix, el);
    if (r) {
        if (r->n != TAG_REC_UNREAD)
            *rec = r; /* its attributes too */
        return r->lt;
    }
    /* not logged (the log was full): it is after the tags logged before
     * it (tag_log_find left rd at the first after) */
    if (log->rd > 0 && log->rd <= log->ntags &&
        log->tags[log->rd - 1].gt < tag_end &&
        log->tags[log->rd - 1].gt + 1 > s0 + from)
        from = log->tags[log->rd - 1].gt + 1 - s0;
    t = w->html ? tag_find_start_html(text, from, tag_end - s0, el)
                : tag_find_start(text, from, tag_end - s0);
    return t == SIZE_MAX ? SIZE_MAX : s0 + t;
}

/* The parser's input, read once for the values of one start tag (the
 * parser thread's records: rec_start_ns). */
struct rec_input {
    uintptr_t base, end;
    size_t consumed;
    bool usable;
};

static inline void rec_input_of(const struct xiri_walker *w,
                                struct rec_input *ri)
{
    const xmlParserInput *in = w->px->input;

    ri->usable = in && in->base && in->end && !(in->buf && in->buf->encoder);
    ri->base = ri->usable ? (uintptr_t)in->base : 0;
    ri->end = ri->usable ? (uintptr_t)in->end : 0;
    ri->consumed = ri->usable ? in->consumed : 0;
}

static inline size_t rec_value_pos(const struct rec_input *ri, const xmlChar *v,
                                   const xmlChar *v_end)
{
    uintptr_t p = (uintptr_t)v, e = (uintptr_t)v_end;

    if (!ri->usable || p <= ri->base || e < p || e >= ri->end)
        return SIZE_MAX;
    return ri->consumed + (size_t)(p - ri->base);
}

/* XML: the value of an attribute as written, found without scanning its
 * tag.  libxml2 2.9 (xmlParseAttValueInternal) hands a value that needs
 * nothing decoded or normalized (printable ASCII without '&' or '<') as
 * a pointer into its input buffer, which holds the walker's UTF-8 text
 * byte for byte (no encoder: parser_pos); any other value is a copy
 * elsewhere.  So a value between the buffer's base and end is at stream
 * position consumed + (v - base), where the text must hold it between
 * two equal quotes (a value whose blanks libxml2 normalized away is not
 * taken).  False when it is not so: the tag is scanned then. */
static size_t value_stream_pos(const struct xiri_walker *w, const xmlChar *v,
                               const xmlChar *v_end)
{
    struct rec_input ri;

    rec_input_of(w, &ri);
    return rec_value_pos(&ri, v, v_end);
}

/* (attribute i of the start tag; with the parser thread, its place is
 * in the record) */
static bool value_in_input(struct xiri_walker *w, int i, const xmlChar *v,
                           const xmlChar *v_end, const char *text, size_t s0,
                           size_t s1, size_t tag_end, struct tag_attr *out)
{
    size_t pos = w->pipe ? w->rp.vpos[i] : value_stream_pos(w, v, v_end);
    size_t n = (size_t)(v_end - v);
    char q;

    if (pos == SIZE_MAX)
        return false;
    /* the value and its quotes lie inside the tag, in the window */
    if (pos <= s0 || pos <= w->floor || pos + n >= tag_end || tag_end >= s1)
        return false;
    q = text[pos - s0 - 1];
    if ((q != '"' && q != '\'') || text[pos - s0 + n] != q)
        return false;
    out->value = pos - s0;
    out->value_len = n;
    out->quote = q;
    out->name = out->value;
    out->name_len = 0;
    return true;
}

/* Is the parser reading an entity's replacement text (libxml2 2.9 parses
 * it with a context of its own, whose callbacks get that context; later
 * versions push it as an input of the document's)? */
static bool px_in_entity_text(const struct xiri_walker *w, void *ctx)
{
    return ctx != (void *)w->px || w->px->inputNr > 1;
}

static bool in_entity_text(const struct xiri_walker *w, void *ctx)
{
    return w->pipe ? w->rp.in_entity : px_in_entity_text(w, ctx);
}

/* What a start tag says with xsi:nil and xsi:type (XSD Part 1 2.6.1,
 * 2.6.2): *nil when it is "true" or "1" (an xs:boolean, white space
 * collapsed: Part 2 3.3.2), and whether its type is the built-in
 * xs:anyURI (a QName, its prefix bound where the element stands, an
 * unprefixed one in the default namespace: Part 2 3.3.18). */
static bool xsi_any_uri(struct xiri_walker *w, int nb_attributes,
                        const xmlChar **attrs, bool *nil)
{
    bool any_uri = false;
    int i;

    *nil = false;
    for (i = 0; i < nb_attributes; i++) {
        const xmlChar **a = attrs + 5 * i;
        const char *v = (const char *)a[3], *colon, *ns;
        size_t n = (size_t)(a[4] - a[3]), pn;

        if (!a[2] || strcmp((const char *)a[2], XSI_NS) != 0)
            continue;
        if (memchr(v, '&', n)) {
            /* a reference ("&#116;rue", an entity's "true") */
            w->value.len = 0;
            w->value.status = XIRI_OK;
            decode_xml(w, v, n, &w->value, &w->entities_left);
            v = w->value.data ? w->value.data : "";
            n = w->value.len;
        }
        v = trim_ws(v, &n);
        if (strcmp((const char *)a[0], "nil") == 0) {
            *nil = (n == 4 && memcmp(v, "true", 4) == 0) ||
                   (n == 1 && v[0] == '1');
        } else if (strcmp((const char *)a[0], "type") == 0) {
            colon = memchr(v, ':', n);
            pn = colon ? (size_t)(colon - v) : 0;
            if (colon && pn == 0)
                continue; /* ":anyURI" is no QName */
            ns = ns_lookup(w, v, pn);
            any_uri = ns && strcmp(ns, XSD_NS) == 0 &&
                      n - (colon ? pn + 1 : 0) == 6 &&
                      memcmp(v + n - 6, "anyURI", 6) == 0;
        }
    }
    return any_uri;
}

static void on_start_ns(void *ctx, const xmlChar *localname,
                        const xmlChar *prefix, const xmlChar *URI,
                        int nb_namespaces, const xmlChar **namespaces,
                        int nb_attributes, int nb_defaulted,
                        const xmlChar **attrs)
{
    struct xiri_walker *w = walker_of(ctx);
    const char *el = (const char *)localname, *el_ns = (const char *)URI;
    size_t tag_end = parser_pos(w), s0 = 0, s1 = 0, tag_start = SIZE_MAX;
    const char *text = NULL;
    const char *parent_base = NULL;
    char *own_base = NULL;
    bool has_own_base = false, scanned = false;
    const struct tag_rec *rec = NULL;
    struct tag_attr ta;
    bool known;
    enum xiri_shape shape;
    int i;

    if (w->status != XIRI_OK)
        return;
    w->links_before_tag = w->links;
    if (w->content.active)
        content_drop(w); /* mixed content: not an IRI */
    w->depth++;
    if (!w->root_seen)
        w->root_rendered = el_ns && (strcmp(el_ns, XHTML_NS) == 0 ||
                                     strcmp(el_ns, SVG_NS) == 0);
    w->root_seen = true;
    if (!start_limits(w, el,
                      (unsigned long)(nb_attributes - nb_defaulted) +
                          (unsigned long)nb_namespaces,
                      tag_end) ||
        !ns_push(w, (unsigned)nb_namespaces, namespaces, tag_end))
        return;
    /* the text and the base serve the attributes only (a third of the
     * elements have none) */
    if (nb_attributes > 0) {
        text = input_window(w->in, &s0, &s1);
        parent_base = current_base(w);
    }

    /* XML Base 4.2: xml:base applies to the element itself (and so to its
     * other attributes) and its descendants */
    for (i = 0; i < nb_attributes; i++) {
        const xmlChar **a = attrs + 5 * i;
        if (a[2] && strcmp((const char *)a[2], XML_NS) == 0 &&
            strcmp((const char *)a[0], "base") == 0) {
            size_t n;
            const char *v;
            struct attr_place at;
            w->value.len = 0;
            w->value.status = XIRI_OK;
            w->unknown_entity[0] = '\0';
            decode_xml(w, (const char *)a[3], (size_t)(a[4] - a[3]), &w->value,
                       &w->entities_left);
            n = w->value.len;
            v = trim_ws(w->value.data ? w->value.data : "", &n);
            /* a finding about the base is placed at its value as
             * written (the tag's end when it cannot be found) */
            if (!scanned) {
                tag_start = start_tag_at(w, text, s0, s1, tag_end,
                                         (const char *)prefix, el, &rec);
                scanned = true;
            }
            at = (struct attr_place){.text = text,
                                     .s0 = s0,
                                     .tag_start = tag_start,
                                     .tag_end = tag_end,
                                     .rec = rec,
                                     .prefix = "xml",
                                     .local = "base"};
            /* a base that cannot be read governs its subtree with none
             * (the attribute itself is reported below) */
            if (w->value.status == XIRI_OK && !w->undeclared_entity)
                own_base = resolve_base(w, parent_base, v, n, &at,
                                        (const char *)localname, "xml:base",
                                        "xml:base");
            has_own_base = true;
        }
    }
    for (i = 0; i < nb_attributes && w->status == XIRI_OK; i++) {
        const xmlChar **a = attrs + 5 * i;
        const char *at_ns = (const char *)a[2];
        bool is_base = at_ns && strcmp(at_ns, XML_NS) == 0 &&
                       strcmp((const char *)a[0], "base") == 0;

        if (!reg_find(w, el_ns, el, at_ns, (const char *)a[0], &shape))
            continue;
        known = value_in_input(w, i, a[3], a[4], text, s0, s1, tag_end, &ta);
        if (!known && !scanned) {
            tag_start = start_tag_at(w, text, s0, s1, tag_end,
                                     (const char *)prefix, el, &rec);
            scanned = true;
        }
        /* xml:base itself is relative to the parent's base */
        attribute_links(w, text, s0, tag_start, rec, known ? &ta : NULL,
                        tag_end, (const char *)a[1], (const char *)a[0], at_ns,
                        (const char *)a[3], (size_t)(a[4] - a[3]), shape, el,
                        el_ns,
                        is_base        ? parent_base
                        : has_own_base ? own_base
                                       : parent_base);
    }
    /* XHTML's <base href> sets the document's base as in HTML (after its
     * own href was reported against the base it is resolved against) */
    if (el[0] == 'b' && strcmp(el, "base") == 0 && el_ns &&
        strcmp(el_ns, XHTML_NS) == 0)
        for (i = 0; i < nb_attributes; i++)
            if (!attrs[5 * i + 2] &&
                strcmp((const char *)attrs[5 * i], "href") == 0) {
                struct buf *v = &w->value;
                struct attr_place at =
                    href_place(text, s0, tag_start, tag_end, rec);
                v->len = 0;
                v->status = XIRI_OK;
                w->unknown_entity[0] = '\0';
                decode_xml(w, (const char *)attrs[5 * i + 3],
                           (size_t)(attrs[5 * i + 4] - attrs[5 * i + 3]), v,
                           &w->entities_left);
                buf_putc(v, '\0');
                if (v->status == XIRI_OK && !w->undeclared_entity)
                    html_base_element(w, v->data, &at);
            }
    w->undeclared_entity = false;
    if (has_own_base)
        push_base(w, own_base, tag_end);
    if (w->status == XIRI_OK && reg_find(w, el_ns, el, NULL, NULL, &shape) &&
        !guid_not_permalink(w, el_ns, el, nb_attributes, attrs)) {
        bool skip = false, nil;

        /* (a style sheet in another language: its type as written) */
        for (i = 0; shape == XIRI_SHAPE_CSS && i < nb_attributes; i++)
            if (!attrs[5 * i + 2] &&
                strcmp((const char *)attrs[5 * i], "type") == 0)
                skip = style_type_not_css(
                    (const char *)attrs[5 * i + 3],
                    (size_t)(attrs[5 * i + 4] - attrs[5 * i + 3]));
        if (!skip) {
            nil = false;
            if (w->xsi_bound)
                xsi_any_uri(w, nb_attributes, attrs, &nil);
            content_begin(w, el, el_ns, shape, tag_end, in_entity_text(w, ctx));
            w->content.nil = nil;
        }
    } else if (w->status == XIRI_OK && nb_attributes > 0 && w->xsi_bound) {
        /* an element the document itself says is an xs:anyURI (a SAML
         * AttributeValue, a SOAP-encoded value) */
        bool nil;

        if (xsi_any_uri(w, nb_attributes, attrs, &nil)) {
            content_begin(w, el, el_ns, XIRI_SHAPE_IRI, tag_end,
                          in_entity_text(w, ctx));
            w->content.nil = nil;
        }
    }
    w->safe = safe_after_start(w, tag_end);
    w->floor = tag_end + 1;
}

static void on_end_ns(void *ctx, const xmlChar *localname,
                      const xmlChar *prefix, const xmlChar *URI)
{
    struct xiri_walker *w = walker_of(ctx);

    (void)localname, (void)prefix, (void)URI;
    if (w->status != XIRI_OK)
        return;
    if (w->content.active && w->content.depth == w->depth)
        content_end(w);
    pop_bases(w);
    if (w->depth < w->ns_cap)
        ns_unbind(w, w->ns_per_depth[w->depth]);
    w->depth--;
    /* libxml2 calls this after the end tag's '>' (or the "/>") */
    w->safe = parser_pos(w);
    w->floor = w->safe;
}

/* Text between tags: nothing is needed from it (content links are
 * decoded from the text at their end tag).  The text it consumed is let
 * go once per chunk, where feed_parser moves safe to the parser's
 * position (asking libxml2 for it here cost 2% of a check). */
static void on_characters(void *ctx, const xmlChar *ch, int len)
{
    (void)ctx, (void)ch, (void)len;
}

/* The characters of an element of content in an entity's replacement
 * text, which is not in the text window (content_of_entity): libxml2
 * calls this instead of on_characters while content_begin has it so. */
static void on_entity_characters(void *ctx, const xmlChar *ch, int len)
{
    struct xiri_walker *w = walker_of(ctx);
    struct content *c = &w->content;

    if (c->active && c->depth == w->depth)
        buf_append(&c->value, (const char *)ch, (size_t)len);
}

/* Where the data of the processing instruction that ends just before
 * text position end (after its "?>") starts as written, and so where it
 * begins ("<?"): libxml2 hands the data (n bytes, line ends read as LF,
 * XML 1.0 2.11) from the first character after the target and its white
 * space up to the "?>".  Counting n such characters back from the "?>"
 * finds it; the text before must then be white space, the target and
 * "<?".  False when the text does not read so (it is not in the window). */
static bool pi_data_place(struct xiri_walker *w, const char *target,
                          const char *data, size_t end, size_t *data_pos)
{
    size_t s0, s1, i, k, n = data ? strlen(data) : 0, tl = strlen(target), from;
    const char *text = input_window(w->in, &s0, &s1);

    from = w->floor > s0 ? w->floor : s0;
    if (end < from + 4 + tl || end > s1 ||
        memcmp(text + (end - s0) - 2, "?>", 2) != 0)
        return false;
    i = end - s0 - 2;
    for (k = 0; k < n && i > from - s0; k++) {
        i--;
        if (text[i] == '\n' && i > from - s0 && text[i - 1] == '\r')
            i--;
    }
    if (k < n)
        return false;
    *data_pos = s0 + i;
    /* the data as written reads as libxml2's */
    for (k = 0; k < n; k++, i++) {
        char c = text[i];
        if (c == '\r') {
            c = '\n';
            if (text[i + 1] == '\n')
                i++;
        }
        if (c != data[k])
            return false;
    }
    i = *data_pos - s0;
    k = i;
    while (i > from - s0 && (text[i - 1] == ' ' || text[i - 1] == '\t' ||
                             text[i - 1] == '\n' || text[i - 1] == '\r'))
        i--;
    if ((n > 0 && i == k) || i < from - s0 + 2 + tl ||
        memcmp(text + i - tl, target, tl) != 0 ||
        memcmp(text + i - tl - 2, "<?", 2) != 0)
        return false;
    return true;
}

/* A processing instruction: in the prolog (Associating Style Sheets with
 * XML documents 1.0, Second Edition, section 2; ISO/IEC 19757-11 for
 * xml-model), a target the registry holds pseudo-attributes of
 * ('?xml-stylesheet@href') has them read as written (pseudoattr.c) and
 * reported as links of element "?target", with the base of the document
 * (XML Base 4.2: the base of a processing instruction outside every
 * element is the document's).  Data that breaks the pseudo-attributes'
 * grammar is reported (browsers ignore the instruction); the
 * pseudo-attributes before the place are still links. */
static void on_pi(void *ctx, const xmlChar *target, const xmlChar *data)
{
    struct xiri_walker *w = walker_of(ctx);
    size_t end, data_pos, n, cursor = 0, s0, s1, ns = 0, tl;
    const char *text, *d, *why = NULL;
    char el[128], attr[128];
    struct pseudo_attr seen[16], pa; /* a name given twice among the
                                         first 16 is found */
    enum xiri_shape shape;
    bool stylesheet;
    int r;

    if (w->status != XIRI_OK || w->root_seen || w->px->inSubset || !target)
        return;
    tl = strlen((const char *)target);
    if (tl + 2 > sizeof(el))
        return;
    el[0] = '?';
    memcpy(el + 1, target, tl + 1);
    if (!registry_find_pi(w->reg, el, NULL, NULL))
        return;
    end = parser_pos(w);
    text = input_window(w->in, &s0, &s1);
    if (!pi_data_place(w, (const char *)target, (const char *)data, end,
                       &data_pos))
        return; /* not as written in the window: cannot be placed */
    d = text + (data_pos - s0);
    n = end - 2 - data_pos;
    while ((r = pseudo_attr_next(d, n, &cursor, seen, ns, &pa, &why)) == 1) {
        struct emit e;

        if (ns < ARRAY_LEN(seen))
            seen[ns++] = pa;
        if (pa.name_len >= sizeof(attr))
            continue;
        memcpy(attr, d + pa.name, pa.name_len);
        attr[pa.name_len] = '\0';
        if (!registry_find_pi(w->reg, el, attr, &shape))
            continue;
        memset(&e, 0, sizeof(e));
        e.w = w;
        e.map_ok = -1;
        e.raw = d + pa.value;
        e.raw_len = pa.value_len;
        e.raw_pos = data_pos + pa.value;
        e.link.quote = pa.quote;
        /* (always decoded: processing instructions are few) */
        w->value.len = 0;
        w->value.status = XIRI_OK;
        w->unknown_entity[0] = '\0';
        pseudo_attr_decode(e.raw, e.raw_len, &w->value);
        if (w->value.status != XIRI_OK &&
            value_failed(w, &w->value, attr, e.raw_pos))
            continue;
        e.value = w->value.data ? w->value.data : "";
        e.value_len = w->value.len;
        e.link.element = el;
        e.link.attribute = attr;
        e.link.base = current_base(w);
        emit_links(w, &e, shape);
        if (w->status != XIRI_OK)
            return;
    }
    /* Only these two are defined to hold pseudo-attributes: another
     * target's data may be free text after them.  The finding is about
     * the whole data, as libxml2 hands it (line ends read as LF), which
     * a baseline tells two such apart by. */
    stylesheet = strcmp(el, "?xml-stylesheet") == 0;
    if (r < 0 && (stylesheet || strcmp(el, "?xml-model") == 0))
        about_diag(w, (const char *)data, strlen((const char *)data), el, NULL,
                   "pi-syntax", XIRI_SEV_ERROR, data_pos + cursor,
                   "the pseudo-attributes of <?%s?> do not parse: %s; %s",
                   el + 1, why,
                   stylesheet ? "Chromium ignores the processing "
                                "instruction, Firefox reads what it can"
                              : "ISO/IEC 19757-11 requires the syntax of "
                                "xml-stylesheet's");
}

/* Entities are declared in the document's internal subset; this keeps
 * their replacement text (libxml2's SAX2 document, holding only the DTD)
 * without ever loading anything external. */
static xmlParserInputPtr on_resolve_entity(void *ctx, const xmlChar *public_id,
                                           const xmlChar *system_id)
{
    struct xiri_walker *w = walker_of(ctx);

    (void)public_id;
    diag(w, "external-entity", XIRI_SEV_NOTE, parser_pos(w),
         "the document refers to the external resource \"%s\"; xiri never "
         "loads external entities or DTDs",
         system_id ? (const char *)system_id : "");
    return NULL;
}

/* XML: libxml2 looks an entity up at every reference, in content and in
 * attribute values.  Without a tree (SAX), it reads the replacement text
 * again at every reference in content: a big entity referred to many
 * times ("quadratic blow-up") costs time in proportion to the text it
 * expands to, which the budget bounds. */
static xmlEntityPtr on_get_entity(void *ctx, const xmlChar *name)
{
    struct xiri_walker *w = walker_of(ctx);
    xmlEntityPtr e = xmlSAX2GetEntity(ctx, name);
    const struct content *c = &w->content;

    /* in the content of an element in an entity's replacement text
     * (content_of_entity), a reference libxml2 gives no text for: that
     * value is not all there */
    if (c->in_entity && c->active && c->depth == w->depth &&
        (!e || e->etype == XML_EXTERNAL_GENERAL_PARSED_ENTITY ||
         e->etype == XML_EXTERNAL_GENERAL_UNPARSED_ENTITY) &&
        !w->unknown_entity[0])
        snprintf(w->unknown_entity, sizeof(w->unknown_entity), "%s",
                 (const char *)name);
    if (e && e->etype != XML_INTERNAL_PREDEFINED_ENTITY &&
        w->status == XIRI_OK) {
        size_t cost = e->length > 0 ? (size_t)e->length : 1;
        if (w->entities_left < cost) {
            w->entities_left = 0;
            limit_error(w, parser_pos(w),
                        "entity references expand to more than %zu bytes; "
                        "raise --max-entity-expansion",
                        w->max_entities);
            return NULL;
        }
        w->entities_left -= cost;
    }
    return e;
}

/* XML: the replacement text of an internal entity is read as markup
 * where the entity is referred to: the guard reads it too. */
static void on_entity_decl(void *ctx, const xmlChar *name, int type,
                           const xmlChar *public_id, const xmlChar *system_id,
                           xmlChar *content)
{
    struct xiri_walker *w = walker_of(ctx);

    if (w->status != XIRI_OK)
        return;
    if (content && type == XML_INTERNAL_GENERAL_ENTITY) {
        struct tag_guard g;
        tag_guard_init(&g, false, 0);
        /* XML: the guard never writes over it (that is HTML's text) */
        if (tag_guard_scan(&g, (char *)content, 0,
                           strlen((const char *)content), w->max_attributes,
                           SIZE_MAX) == TAG_GUARD_LIMIT) {
            limit_error(w, parser_pos(w),
                        "the entity %.40s holds a start tag with more than "
                        "%lu attributes; raise --max-attributes",
                        (const char *)name, w->max_attributes);
            return;
        }
    }
    xmlSAX2EntityDecl(ctx, name, type, public_id, system_id, content);
}

/* XML: libxml2 adds the attributes with a default value that the DTD
 * declares to every start tag of their element, checking each against
 * all the others (quadratic): count them per element. */
static void on_attribute_decl(void *ctx, const xmlChar *elem,
                              const xmlChar *fullname, int type, int def,
                              const xmlChar *default_value,
                              xmlEnumerationPtr tree)
{
    struct xiri_walker *w = walker_of(ctx);
    uintptr_t n;

    (void)fullname, (void)type;
    xmlFreeEnumeration(tree); /* the callback owns it */
    if (w->status != XIRI_OK || !default_value ||
        def == XML_ATTRIBUTE_REQUIRED || def == XML_ATTRIBUTE_IMPLIED)
        return;
    if (!w->defaults && !(w->defaults = xmlHashCreate(16))) {
        fail(w, XIRI_ENOMEM);
        return;
    }
    n = (uintptr_t)xmlHashLookup(w->defaults, elem) + 1;
    if (n > w->max_default_attributes) {
        limit_error(w, parser_pos(w),
                    "the DTD declares more than %lu attributes with a default "
                    "for <%.40s>; raise --max-default-attributes",
                    w->max_default_attributes, (const char *)elem);
        return;
    }
    if (xmlHashUpdateEntry(w->defaults, elem, (void *)n, NULL) != 0)
        fail(w, XIRI_ENOMEM);
}

/* Whether an entity's system literal is a LEIRI reference (the W3C LEIRI
 * note, which XML 1.0 4.2.2's escaping rule amounts to). */
static bool system_literal_is_leiri(const char *lit)
{
    struct xiri *x = NULL;
    enum xiri_status st;

    st = xiri_parse(lit, strlen(lit), XIRI_PROFILE_LEIRI, &x, NULL);
    xiri_free(x);
    return st == XIRI_OK;
}

static void on_error(void *user, xmlErrorPtr e)
{
    struct xiri_walker *w = walker_of(user);
    size_t pos;
    char msg[256], *cut;
    size_t n;
    unsigned long line = 0, col = 0;

    if (!e || w->status != XIRI_OK)
        return;
    /* libxml2 leaves such a reference out of an attribute value */
    if (!w->html && (e->code == XML_WAR_UNDECLARED_ENTITY ||
                     e->code == XML_ERR_UNDECLARED_ENTITY))
        w->undeclared_entity = true;
    if (e->level < XML_ERR_ERROR)
        return;
    if (w->html)
        return; /* HTML parse errors are recovered from, as browsers do */
    /* libxml2 reads the system literal of an entity declaration as an RFC
     * 2396 URI and says "Invalid URI" at a non-ASCII character or a
     * space; XML 1.0 4.2.2 allows them (they are escaped when the
     * identifier is dereferenced: a LEIRI), so only a literal that is no
     * LEIRI reference either ("%zz") is in error */
    if (e->code == XML_ERR_INVALID_URI && e->str1 &&
        system_literal_is_leiri(e->str1))
        return;
    snprintf(msg, sizeof(msg), "%s", e->message ? e->message : "error");
    if ((cut = strstr(msg, " use XML_PARSE_HUGE")) != NULL ||
        (cut = strstr(msg, ", use XML_PARSE_HUGE")) != NULL)
        *cut = '\0';
    n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ' ||
                     msg[n - 1] == ','))
        msg[--n] = '\0';
    if (e->code == XML_ERR_DOCUMENT_END && w->depth > 0)
        /* libxml2's push parser says "Extra content" when the text
         * ends inside an element (its name: the parser's current one) */
        snprintf(msg, sizeof(msg),
                 "the document ends inside <%.60s> (%lu element%s still "
                 "open): it is cut short",
                 parser_name(w) ? parser_name(w) : "?", w->depth,
                 w->depth == 1 ? "" : "s");
    else if (e->code == XML_ERR_DOCUMENT_END && !w->root_seen)
        snprintf(msg, sizeof(msg),
                 "the document has no root element (it is empty, or holds "
                 "only a declaration, comments or text)");
    pos = w->px ? parser_pos(w) : 0;
    if (e->level != XML_ERR_FATAL) {
        diag(w, "xml-error", XIRI_SEV_WARNING, pos, "%s", msg);
        return;
    }
    if (w->in)
        input_line_col(w->in, pos, &line, &col);
    if (e->code == XML_ERR_ENTITY_LOOP) {
        /* libxml2 also says so of entities that expand far more than
         * the document they are in ("billion laughs") */
        error_set(&w->error, XIRI_EDOC,
                  w->in ? input_orig_offset(w->in, pos) : 0,
                  "%lu:%lu: not well-formed: entity references loop, or "
                  "expand far more than the document",
                  line, col);
        w->status = XIRI_EDOC;
    } else if (strstr(msg, "Huge input lookup") || strstr(msg, "too long") ||
               strstr(msg, "too big") || strstr(msg, "too deep") ||
               strstr(msg, "Excessive depth")) {
        /* the hard limits of libxml2 (without XML_PARSE_HUGE, which
         * would also lift its defence against entity expansion) */
        error_set(&w->error, XIRI_ELIMIT,
                  w->in ? input_orig_offset(w->in, pos) : 0,
                  "%lu:%lu: over a limit libxml2 sets for XML: %s", line, col,
                  strstr(msg, "Huge input lookup")
                      ? "a construct longer than 10000000 bytes"
                      : msg);
        w->status = XIRI_ELIMIT;
    } else {
        error_set(&w->error, XIRI_EDOC,
                  w->in ? input_orig_offset(w->in, pos) : 0,
                  "%lu:%lu: not well-formed: %s", line, col, msg);
        w->status = XIRI_EDOC;
    }
    stop_parser(w);
}

/* ------------------------------------------------------- the parser thread */

static void on_html_start(void *ctx, const xmlChar *name, const xmlChar **atts);
static void on_html_end(void *ctx, const xmlChar *name);
static void html_parse_chunk(struct xiri_walker *w, const char *data, size_t n,
                             bool final);

/* XML once the root's start tag is read (the internal subset is over:
 * no more declarations), HTML from its first step, libxml2 may run on a
 * thread of its own (P) while the walker (W, the caller's thread) reads
 * what it reported of the text before: each callback of libxml2's records what
 * the walker's callback would be given and would ask the parser (its position,
 * whether it is in an entity's replacement text, where each attribute value is
 * in the text), W replays the records in order through the same
 * callbacks (struct replay), and so reports the same links and findings
 * in the same order.  P touches nothing of the walker's but libxml2's
 * context and its own budget: the guard, the text window, the bases, the
 * links are W's.  Each xiri_walker_feed returns with every record
 * replayed (walk_drain), so that nothing of it lags behind the call,
 * unless the caller asked for parse_ahead (push).
 * HTML's callbacks ask the parser only its position; where the guard
 * must ask libxml2 what it read (TAG_GUARD_SYNC: after the tag of a
 * script, a style or an element of text) W first replays every record,
 * P then waiting for a job, and reads libxml2's state itself
 * (html_raw). */
enum rec_type {
    REC_START = 1,
    REC_END,
    REC_CHARS,
    REC_ERROR,
    REC_RESOLVE,
    REC_ENTITY,
    REC_DONE,
    REC_HTML_START
};

struct rec {
    uint32_t type;
    uint32_t size; /* of the whole record, a multiple of 8 */
    size_t pos;    /* px_pos when libxml2 called back */
};

/* a start tag; then 2 * nb_namespaces and 5 * nb_attributes pointers
 * (as libxml2 gives them), nb_attributes stream positions
 * (value_stream_pos), then the values' bytes and the names the parser's
 * dictionary does not own, NUL-terminated */
struct rec_start {
    struct rec h;
    const xmlChar *localname, *prefix, *uri;
    int nb_namespaces, nb_attributes, nb_defaulted;
    bool in_entity;
};

/* characters of an entity's replacement text; a system identifier */
struct rec_text {
    struct rec h;
    size_t len; /* then the bytes, NUL-terminated */
};

struct rec_error {
    struct rec h;
    int code, level;
    const char *str1, *message, *name; /* in the record, or NULL */
};

/* a reference to an entity (on_get_entity) */
struct rec_entity {
    struct rec h;
    size_t cost;  /* of the budget, 0 for none */
    bool unknown; /* not declared, or external */
    char name[64];
};

/* HTML: a start tag; then natts + 1 pointers (NULL-terminated pairs, as
 * libxml2 gives them, or none when natts is -1), then the values (which
 * libxml2 frees after the call) and the names the dictionary does not
 * own, NUL-terminated */
struct rec_html_start {
    struct rec h;
    const xmlChar *name;
    int natts; /* names and values; -1: no attributes (atts NULL) */
};

/* the end of a job: the text up to end was parsed */
struct rec_done {
    struct rec h;
    size_t end;
};

#define REC_ALIGN(n) (((n) + 7) & ~(size_t)7)

static inline void *rec_new(struct xiri_walker *w, enum rec_type type,
                            size_t size)
{
    struct rec *r;

    size = REC_ALIGN(size);
    r = pipe_record(w->pipe, size);
    if (!r) {
        xmlStopParser(w->px); /* (pipe_failed tells W) */
        return NULL;
    }
    r->type = (uint32_t)type;
    r->size = (uint32_t)size;
    r->pos = px_pos(w);
    return r;
}

/* The parser thread's callbacks: nothing more once W said stop. */
static inline struct xiri_walker *rec_walker(void *ctx)
{
    struct xiri_walker *w = walker_of(ctx);

    if (pipe_stopped(w->pipe)) {
        xmlStopParser(w->px);
        return NULL;
    }
    return w;
}

/* A copy of s (n bytes and a NUL) at *at, which moves past it. */
static const char *rec_copy(char **at, const char *s, size_t n)
{
    char *c = *at;

    if (n)
        memcpy(c, s, n);
    c[n] = '\0';
    *at += n + 1;
    return c;
}

/* Whether the parser's dictionary owns s (then it stays where it is,
 * unchanged, for the whole parse: the record holds the pointer).  The
 * pointers found owned are remembered (the same few names come again
 * and again; a pointer once owned stays so). */
static inline bool rec_owned(struct xiri_walker *w, const xmlChar *s)
{
    uintptr_t h = (uintptr_t)s;
    const xmlChar **slot;

    if (!s)
        return true;
    slot = &w->p_owned[((h >> 3) ^ (h >> 11)) % ARRAY_LEN(w->p_owned)];
    if (*slot == s)
        return true;
    if (xmlDictOwns(w->px->dict, s) != 1)
        return false;
    *slot = s;
    return true;
}

static inline size_t rec_name_size(struct xiri_walker *w, const xmlChar *s)
{
    return rec_owned(w, s) ? 0 : strlen((const char *)s) + 1;
}

static inline const xmlChar *rec_name(struct xiri_walker *w, char **at,
                                      const xmlChar *s)
{
    return rec_owned(w, s) ? s
                           : (const xmlChar *)rec_copy(at, (const char *)s,
                                                       strlen((const char *)s));
}

static void rec_characters(void *ctx, const xmlChar *ch, int len);

/* XML: libxml2 reports characters to the parser thread only while an
 * element an entity holds is open (rec_characters): the rest of the
 * text is nothing to the walker (on_characters), and a callback at
 * every run of text costs time.  (The same handler for white space:
 * libxml2 2.9 then does not ask which is ignorable, either way.) */
static void rec_characters_from(struct xiri_walker *w, bool on)
{
    xmlSAXHandler *sax = w->px->sax;

    sax->characters = on ? rec_characters : NULL;
    sax->cdataBlock = on ? rec_characters : NULL;
    sax->ignorableWhitespace = on ? rec_characters : NULL;
}

static void rec_start_ns(void *ctx, const xmlChar *localname,
                         const xmlChar *prefix, const xmlChar *URI,
                         int nb_namespaces, const xmlChar **namespaces,
                         int nb_attributes, int nb_defaulted,
                         const xmlChar **attrs)
{
    struct xiri_walker *w = rec_walker(ctx);
    size_t size = sizeof(struct rec_start), *vpos, vp[16];
    struct rec_input ri;
    struct rec_start *r;
    const xmlChar **p;
    bool owned;
    char *at;
    int i;

    if (!w || nb_namespaces < 0 || nb_attributes < 0)
        return;
    rec_input_of(w, &ri);
    size +=
        ((size_t)nb_namespaces * 2 + (size_t)nb_attributes * 5) * sizeof(*p) +
        (size_t)nb_attributes * sizeof(size_t);
    /* the values not as written are copied, and the names only when the
     * dictionary does not own one (libxml2 2.9 gives every name from it) */
    owned =
        rec_owned(w, localname) && rec_owned(w, prefix) && rec_owned(w, URI);
    for (i = 0; i < 2 * nb_namespaces; i++)
        owned = owned && rec_owned(w, namespaces[i]);
    for (i = 0; i < nb_attributes; i++) {
        const xmlChar **a = attrs + 5 * i;
        size_t pos = rec_value_pos(&ri, a[3], a[4]);

        owned = owned && rec_owned(w, a[0]) && rec_owned(w, a[1]) &&
                rec_owned(w, a[2]);
        if (i < (int)ARRAY_LEN(vp))
            vp[i] = pos;
        if (pos == SIZE_MAX)
            size += (size_t)(a[4] - a[3]) + 1;
    }
    if (!owned) {
        for (i = 0; i < 2 * nb_namespaces; i++)
            size += rec_name_size(w, namespaces[i]);
        for (i = 0; i < nb_attributes; i++)
            size += rec_name_size(w, attrs[5 * i]) +
                    rec_name_size(w, attrs[5 * i + 1]) +
                    rec_name_size(w, attrs[5 * i + 2]);
        size += rec_name_size(w, localname) + rec_name_size(w, prefix) +
                rec_name_size(w, URI);
    }
    if (!(r = rec_new(w, REC_START, size)))
        return;
    p = (const xmlChar **)(r + 1);
    vpos = (size_t *)(p + 2 * nb_namespaces + 5 * nb_attributes);
    at = (char *)(vpos + nb_attributes);
    r->nb_namespaces = nb_namespaces;
    r->nb_attributes = nb_attributes;
    r->nb_defaulted = nb_defaulted;
    r->in_entity = px_in_entity_text(w, ctx);
    if (r->in_entity && w->p_entity_depth++ == 0)
        rec_characters_from(w, true);
    if (owned) {
        r->localname = localname;
        r->prefix = prefix;
        r->uri = URI;
        if (nb_namespaces)
            memcpy(p, namespaces, 2 * (size_t)nb_namespaces * sizeof(*p));
    } else {
        r->localname = rec_name(w, &at, localname);
        r->prefix = rec_name(w, &at, prefix);
        r->uri = rec_name(w, &at, URI);
        for (i = 0; i < 2 * nb_namespaces; i++)
            p[i] = rec_name(w, &at, namespaces[i]);
    }
    p += 2 * nb_namespaces;
    for (i = 0; i < nb_attributes; i++) {
        const xmlChar **a = attrs + 5 * i;
        size_t n = (size_t)(a[4] - a[3]);

        if (owned) {
            p[5 * i] = a[0];
            p[5 * i + 1] = a[1];
            p[5 * i + 2] = a[2];
        } else {
            p[5 * i] = rec_name(w, &at, a[0]);
            p[5 * i + 1] = rec_name(w, &at, a[1]);
            p[5 * i + 2] = rec_name(w, &at, a[2]);
        }
        /* a value as written is in W's text window (replay points to
         * it); another is copied */
        vpos[i] =
            i < (int)ARRAY_LEN(vp) ? vp[i] : rec_value_pos(&ri, a[3], a[4]);
        p[5 * i + 3] =
            vpos[i] != SIZE_MAX
                ? NULL
                : (const xmlChar *)rec_copy(&at, (const char *)a[3], n);
        p[5 * i + 4] = (const xmlChar *)(uintptr_t)n;
    }
}

static void rec_end_ns(void *ctx, const xmlChar *localname,
                       const xmlChar *prefix, const xmlChar *URI)
{
    struct xiri_walker *w = rec_walker(ctx);

    (void)localname, (void)prefix, (void)URI;
    if (!w)
        return;
    if (w->p_entity_depth > 0 && px_in_entity_text(w, ctx) &&
        --w->p_entity_depth == 0)
        rec_characters_from(w, false);
    rec_new(w, REC_END, sizeof(struct rec));
}

static void rec_text(struct xiri_walker *w, enum rec_type type, const char *s,
                     size_t n)
{
    struct rec_text *r = rec_new(w, type, sizeof(*r) + n + 1);
    char *at = (char *)(r + 1);

    if (r) {
        r->len = n;
        rec_copy(&at, s, n);
    }
}

/* (all white space and CDATA sections too; of the document's own text
 * nothing is needed: on_characters; of an entity's, only what is in an
 * element the entity holds, which may be one of IRI content) */
static void rec_characters(void *ctx, const xmlChar *ch, int len)
{
    struct xiri_walker *w = walker_of(ctx);

    if (len > 0 && w->p_entity_depth > 0 && px_in_entity_text(w, ctx) &&
        rec_walker(ctx))
        rec_text(w, REC_CHARS, (const char *)ch, (size_t)len);
}

static xmlParserInputPtr rec_resolve_entity(void *ctx, const xmlChar *public_id,
                                            const xmlChar *system_id)
{
    struct xiri_walker *w = rec_walker(ctx);
    const char *id = system_id ? (const char *)system_id : "";

    (void)public_id;
    if (w)
        rec_text(w, REC_RESOLVE, id, strlen(id));
    return NULL;
}

/* The budget is charged here as on_get_entity does, against the parser
 * thread's own share (it charges what libxml2 expands; W charges that
 * and what the walker expands in values, so W runs out first, at this
 * reference or before). */
static xmlEntityPtr rec_get_entity(void *ctx, const xmlChar *name)
{
    struct xiri_walker *w = rec_walker(ctx);
    xmlEntityPtr e = xmlSAX2GetEntity(ctx, name);
    struct rec_entity *r;

    if (!w || !(r = rec_new(w, REC_ENTITY, sizeof(*r))))
        return e;
    snprintf(r->name, sizeof(r->name), "%s", (const char *)name);
    r->unknown = !e || e->etype == XML_EXTERNAL_GENERAL_PARSED_ENTITY ||
                 e->etype == XML_EXTERNAL_GENERAL_UNPARSED_ENTITY;
    r->cost = 0;
    if (e && e->etype != XML_INTERNAL_PREDEFINED_ENTITY) {
        r->cost = e->length > 0 ? (size_t)e->length : 1;
        if (w->p_entities_left < r->cost) {
            w->p_entities_left = 0;
            xmlStopParser(w->px);
            return NULL;
        }
        w->p_entities_left -= r->cost;
    }
    return e;
}

/* on_error's decision to stop at a fatal error, taken here too. */
static void rec_error(void *user, xmlErrorPtr e)
{
    struct xiri_walker *w = rec_walker(user);
    const char *s1, *msg, *name;
    size_t n1, nm, nn;
    struct rec_error *r;
    char *at;

    if (!w || !e)
        return;
    s1 = e->str1;
    msg = e->message;
    name = w->px->name ? (const char *)w->px->name : NULL;
    n1 = s1 ? strlen(s1) : 0;
    nm = msg ? strlen(msg) : 0;
    nn = name ? strlen(name) : 0;
    if (!(r = rec_new(w, REC_ERROR, sizeof(*r) + n1 + nm + nn + 3)))
        return;
    at = (char *)(r + 1);
    r->code = e->code;
    r->level = (int)e->level;
    r->str1 = s1 ? rec_copy(&at, s1, n1) : NULL;
    r->message = msg ? rec_copy(&at, msg, nm) : NULL;
    r->name = name ? rec_copy(&at, name, nn) : NULL;
    if (e->level == XML_ERR_FATAL &&
        !(e->code == XML_ERR_INVALID_URI && s1 && system_literal_is_leiri(s1)))
        xmlStopParser(w->px);
}

/* HTML: the start tag as on_html_start would have it. */
static void rec_html_start(void *ctx, const xmlChar *name, const xmlChar **atts)
{
    struct xiri_walker *w = rec_walker(ctx);
    size_t size = sizeof(struct rec_html_start);
    struct rec_html_start *r;
    const xmlChar **p;
    char *at;
    int i, n;

    if (!w)
        return;
    /* (a value is NULL for an attribute written without one) */
    for (i = 0; atts && atts[i]; i += 2)
        size += rec_name_size(w, atts[i]) +
                (atts[i + 1] ? strlen((const char *)atts[i + 1]) + 1 : 0);
    n = i;
    size += (atts ? (size_t)n + 1 : 0) * sizeof(*p) + rec_name_size(w, name);
    if (!(r = rec_new(w, REC_HTML_START, size)))
        return;
    p = (const xmlChar **)(r + 1);
    at = (char *)(p + (atts ? n + 1 : 0));
    r->natts = atts ? n : -1;
    r->name = rec_name(w, &at, name);
    for (i = 0; i < n; i += 2) {
        const char *v = (const char *)atts[i + 1];

        p[i] = rec_name(w, &at, atts[i]);
        p[i + 1] = v ? (const xmlChar *)rec_copy(&at, v, strlen(v)) : NULL;
    }
    if (atts)
        p[n] = NULL;
}

static void rec_html_end(void *ctx, const xmlChar *name)
{
    struct xiri_walker *w = rec_walker(ctx);

    (void)name;
    if (w)
        rec_new(w, REC_END, sizeof(struct rec));
}

/* P: parse one job, and say where it ended. */
static void pipe_parse(void *user, const char *data, size_t len, bool final,
                       size_t end)
{
    struct xiri_walker *w = user;
    struct rec_done *r;

    if (w->html)
        html_parse_chunk(w, data, len, final);
    else
        xmlParseChunk(w->px, data, (int)len, final);
    if ((r = rec_new(w, REC_DONE, sizeof(*r))) != NULL)
        r->end = end;
}

/* W: one record through the walker's callbacks. */
static void replay(struct xiri_walker *w, const struct rec *r)
{
    w->rp.pos = r->pos;
    switch ((enum rec_type)r->type) {
    case REC_START: {
        const struct rec_start *s = (const void *)r;
        const xmlChar **p = (const xmlChar **)(uintptr_t)(s + 1);
        const xmlChar **attrs = p + 2 * s->nb_namespaces;
        size_t s0, s1;
        const char *text = input_window(w->in, &s0, &s1);
        int i;

        w->rp.vpos = (const size_t *)(attrs + 5 * s->nb_attributes);
        for (i = 0; i < s->nb_attributes; i++) {
            const xmlChar **a = attrs + 5 * i;
            size_t n = (size_t)(uintptr_t)a[4], at = w->rp.vpos[i];

            if (at != SIZE_MAX) /* (the text after safe is all there) */
                a[3] = (const xmlChar *)text + (at - s0);
            a[4] = a[3] + n;
        }
        w->rp.in_entity = s->in_entity;
        w->rp.lo = (const char *)r;
        w->rp.hi = (const char *)r + r->size;
        on_start_ns(w->px, s->localname, s->prefix, s->uri, s->nb_namespaces, p,
                    s->nb_attributes, s->nb_defaulted, attrs);
        w->rp.lo = w->rp.hi = NULL;
        break;
    }
    case REC_HTML_START: {
        const struct rec_html_start *s = (const void *)r;
        const xmlChar **atts = (const xmlChar **)(uintptr_t)(s + 1);

        w->rp.lo = (const char *)r;
        w->rp.hi = (const char *)r + r->size;
        on_html_start(w->px, s->name, s->natts < 0 ? NULL : atts);
        w->rp.lo = w->rp.hi = NULL;
        break;
    }
    case REC_END:
        if (w->html)
            on_html_end(w->px, NULL);
        else
            on_end_ns(w->px, NULL, NULL, NULL);
        break;
    case REC_CHARS: {
        const struct rec_text *t = (const void *)r;
        const struct content *c = &w->content;

        /* what on_entity_characters, swapped in by content_begin, got */
        if (c->active && c->in_entity)
            on_entity_characters(w->px, (const xmlChar *)(t + 1), (int)t->len);
        break;
    }
    case REC_RESOLVE:
        on_resolve_entity(w->px, NULL,
                          (const xmlChar *)((const struct rec_text *)r + 1));
        break;
    case REC_ENTITY: {
        const struct rec_entity *e = (const void *)r;
        const struct content *c = &w->content;

        /* on_get_entity */
        if (c->in_entity && c->active && c->depth == w->depth && e->unknown &&
            !w->unknown_entity[0])
            snprintf(w->unknown_entity, sizeof(w->unknown_entity), "%s",
                     e->name);
        if (e->cost && w->status == XIRI_OK) {
            if (w->entities_left < e->cost) {
                w->entities_left = 0;
                limit_error(w, r->pos,
                            "entity references expand to more than %zu "
                            "bytes; raise --max-entity-expansion",
                            w->max_entities);
            } else {
                w->entities_left -= e->cost;
            }
        }
        break;
    }
    case REC_ERROR: {
        const struct rec_error *e = (const void *)r;
        xmlError err;

        memset(&err, 0, sizeof(err));
        err.code = e->code;
        err.level = (xmlErrorLevel)e->level;
        err.str1 = (char *)(uintptr_t)e->str1;
        err.message = (char *)(uintptr_t)e->message;
        w->rp.name = e->name;
        on_error(w->px, &err);
        w->rp.name = NULL;
        break;
    }
    case REC_DONE: {
        /* feed_parser's end: everything before libxml2's position has
         * been reported */
        size_t end = ((const struct rec_done *)r)->end;

        if (w->status == XIRI_OK && !w->content.active && r->pos > w->safe &&
            r->pos <= end)
            w->safe = r->pos;
        break;
    }
    }
}

/* W: replay one batch of records (wait: waiting for it unless the jobs
 * given are all parsed); false when there was none.  The parser thread
 * out of memory fails the walk. */
static bool replay_batch(struct xiri_walker *w, bool wait)
{
    const char *b;
    size_t len, i;

    b = pipe_batch(w->pipe, wait, &len);
    if (b) {
        for (i = 0; i < len; i += ((const struct rec *)(b + i))->size)
            replay(w, (const struct rec *)(b + i));
        pipe_batch_done(w->pipe);
    }
    if (pipe_failed(w->pipe))
        fail(w, XIRI_ENOMEM);
    return b != NULL;
}

/* W: replay the records there are (wait: all that the jobs given will
 * make). */
static void walk_replay(struct xiri_walker *w, bool wait)
{
    if (!wait && w->pipe_mode == WALK_PIPE_LAG) {
        replay_batch(w, false); /* (tests: walk.h) */
        return;
    }
    while (replay_batch(w, wait))
        ;
}

static void walk_drain(struct xiri_walker *w)
{
    if (w->pipe)
        walk_replay(w, true);
}

/* W, between two steps (P is idle): hand libxml2 to P from here on; when
 * the thread cannot be started, go on without. */
static void pipe_start(struct xiri_walker *w)
{
    xmlSAXHandler *sax = w->px->sax;
    struct pipe *p;
    enum xiri_status st;

    st = pipe_new(pipe_parse, w, w->pipe_mode == WALK_PIPE_THREAD, &p);
    if (st != XIRI_OK) {
        w->pipe_mode = WALK_PIPE_OFF;
        if (st == XIRI_ENOMEM)
            fail(w, st);
        return;
    }
    if (w->pipe_mode == WALK_PIPE_LAG)
        pipe_set_batch(p, 1);
    w->rp.pos = px_pos(w);
    w->pipe = p;
    if (w->html) {
        /* (characters: on_characters, which does nothing) */
        sax->startElement = rec_html_start;
        sax->endElement = rec_html_end;
        sax->serror = NULL; /* (on_error reads nothing of HTML's errors,
                               and HTML_PARSE_NOERROR keeps libxml2 quiet) */
        sax->resolveEntity = rec_resolve_entity;
        return;
    }
    w->p_entities_left = w->entities_left;
    w->p_entity_depth = 0;
    sax->startElementNs = rec_start_ns;
    sax->endElementNs = rec_end_ns;
    rec_characters_from(w, false);
    sax->serror = rec_error;
    sax->resolveEntity = rec_resolve_entity;
    sax->getEntity = rec_get_entity;
    sax->processingInstruction = NULL; /* (on_pi: none after the root) */
}

/* ---------------------------------------------------------------- HTML SAX */

/* The elements whose content an HTML parser reads as text, tags and all
 * (tag_html_text_element): libxml2 2.9 reads title, textarea, xmp and
 * plaintext as elements, and what it reports inside them is not a link
 * (and is not rewritten); script and style it reads as raw text itself,
 * except after a "/>" that the HTML tokenizer ignores
 * (<script src="a.js"/>).  The content of iframe, noembed and noframes,
 * raw text to a browser that supports them, is left a document: it is
 * markup meant for the user agents that do not (HTML 4.01 16.4.1,
 * 16.5). */
static const char *html_text(const char *el)
{
    const struct tag_text_element *te = tag_html_text_element_z(el);

    return te ? te->name : NULL;
}

/* Where the text element ends: its end tag as the tokenizer finds it,
 * "</" and the name in any case, then a space, '/' or '>' (WHATWG HTML
 * 13.2.5.10-13 and 13.2.5.13-16, "appropriate end tag"), wherever libxml2
 * put its own end (it reads tags inside, and may close the element early
 * or never); plaintext has none (13.2.5.1).  Looks through the window
 * from text_scan on; called when the element starts and on new text. */
static void text_seek(struct xiri_walker *w)
{
    size_t s0, s1, i, n = strlen(w->text_name), k;
    const char *t = input_window(w->in, &s0, &s1);

    if (w->text_end != SIZE_MAX || strcmp(w->text_name, "plaintext") == 0)
        return;
    i = w->text_scan > s0 ? w->text_scan : s0;
    for (; i < s1; i++) {
        const char *p = memchr(t + (i - s0), '<', s1 - i);

        if (!p)
            break;
        i = (size_t)(p - t) + s0;
        if (s1 - i < n + 3) {
            w->text_scan = i; /* too near the end to tell: later */
            return;
        }
        if (p[1] != '/')
            continue;
        for (k = 0; k < n; k++) {
            char c = p[2 + k];
            if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != w->text_name[k])
                break;
        }
        if (k == n && (p[2 + n] == ' ' || p[2 + n] == '\t' ||
                       p[2 + n] == '\n' || p[2 + n] == '\f' ||
                       p[2 + n] == '\r' || p[2 + n] == '/' || p[2 + n] == '>')) {
            w->text_end = i;
            return;
        }
    }
    w->text_scan = s1;
}

/* A start tag that ends foreign content (WHATWG HTML 13.2.6.5, "any other
 * start tag" exceptions: b, big, blockquote... and font with color, face
 * or size): an HTML parser pops the SVG elements and reads it as HTML. */
static bool html_breakout(const char *el, const xmlChar **atts)
{
    static const char *const names[] = {
        "b",      "big",   "blockquote", "body",  "br",     "center",
        "code",   "dd",    "div",        "dl",    "dt",     "em",
        "embed",  "h1",    "h2",         "h3",    "h4",     "h5",
        "h6",     "head",  "hr",         "i",     "img",    "li",
        "listing", "menu", "meta",       "nobr",  "ol",     "p",
        "pre",    "ruby",  "s",          "small", "span",   "strong",
        "strike", "sub",   "sup",        "table", "tt",     "u",
        "ul",     "var"};
    size_t i;

    if (strcmp(el, "font") == 0) {
        for (i = 0; atts && atts[i]; i += 2)
            if (strcmp((const char *)atts[i], "color") == 0 ||
                strcmp((const char *)atts[i], "face") == 0 ||
                strcmp((const char *)atts[i], "size") == 0)
                return true;
        return false;
    }
    for (i = 0; i < ARRAY_LEN(names); i++)
        if (strcmp(el, names[i]) == 0)
            return true;
    return false;
}

/* An HTML parser puts <svg> and what it holds in the SVG namespace, with
 * the SVG names of mixed case (WHATWG HTML 13.2.6.5, "adjust SVG tag
 * name": libxml2 gives them in lower case); xlink:href and the other
 * XLink attributes in the XLink namespace ("adjust foreign attributes").
 * The element's name in the SVG namespace. */
static const char *svg_element(const char *el)
{
    static const char *const mixed[] = {
        "altGlyph",          "altGlyphDef",       "altGlyphItem",
        "animateColor",      "animateMotion",     "animateTransform",
        "clipPath",          "feBlend",           "feColorMatrix",
        "feComponentTransfer", "feComposite",     "feConvolveMatrix",
        "feDiffuseLighting", "feDisplacementMap", "feDistantLight",
        "feDropShadow",      "feFlood",           "feFuncA",
        "feFuncB",           "feFuncG",           "feFuncR",
        "feGaussianBlur",    "feImage",           "feMerge",
        "feMergeNode",       "feMorphology",      "feOffset",
        "fePointLight",      "feSpecularLighting", "feSpotLight",
        "feTile",            "feTurbulence",      "foreignObject",
        "glyphRef",          "linearGradient",    "radialGradient",
        "textPath"};
    size_t i;

    for (i = 0; i < ARRAY_LEN(mixed); i++)
        if (xmlStrcasecmp((const xmlChar *)el, (const xmlChar *)mixed[i]) ==
            0)
            return mixed[i];
    return el;
}

/* The attributes of an element of <svg> in HTML (svg_element) that hold
 * IRIs, found in the registry by namespace like XML's. */
static void svg_links(struct xiri_walker *w, const char *el,
                      const xmlChar **atts, const char *text, size_t s0,
                      size_t s1, size_t tag_end, size_t *tag_start,
                      const struct tag_rec **rec)
{
    const char *svg_el = svg_element(el);
    enum xiri_shape shape;
    bool scanned = false;
    int i;

    for (i = 0; atts && atts[i] && w->status == XIRI_OK; i += 2) {
        const char *an = (const char *)atts[i];
        const char *av = atts[i + 1] ? (const char *)atts[i + 1] : "";
        /* the tokenizer reads attribute names in lower case (13.2.5.33),
         * then "xlink:" names are XLink's */
        char name[64] = ""; /* all of it set: the analyzer sees the NUL */
        size_t k;
        bool xlink;
        const char *local;

        for (k = 0; an[k] && k + 1 < sizeof(name); k++)
            name[k] = (char)(an[k] >= 'A' && an[k] <= 'Z' ? an[k] + 32 : an[k]);
        name[k] = '\0';
        if (an[k])
            continue; /* longer than any name the registry holds */
        xlink = strncmp(name, "xlink:", 6) == 0;
        local = xlink ? name + 6 : name;
        if (!registry_find_attr(w->reg, SVG_NS, svg_el, xlink ? XLINK_NS : NULL,
                                local, false, &shape))
            continue;
        if (!scanned) {
            *tag_start = start_tag_at(w, text, s0, s1, tag_end, NULL, el, rec);
            scanned = true;
        }
        attribute_links(w, text, s0, *tag_start, *rec, NULL, tag_end,
                        xlink ? "xlink" : NULL, local, xlink ? XLINK_NS : NULL,
                        av, strlen(av), shape, svg_el, SVG_NS, w->doc_base);
    }
}

/* The first <meta> that declares an encoding, seen by the parser (WHATWG
 * HTML 13.2.6.4.4, "in head" for meta; "change the encoding"): when the
 * prescan found none in the first 1024 bytes and the encoding was a guess,
 * a browser reads the page again in the one declared here, if it differs;
 * xiri reads a document once and says so. */
static void late_meta(struct xiri_walker *w, const xmlChar **atts,
                      size_t tag_end)
{
    const char *charset = NULL, *equiv = NULL, *content = NULL;
    char enc[64];
    int i, same;

    for (i = 0; atts[i]; i += 2) {
        const char *an = (const char *)atts[i];
        const char *av = (const char *)atts[i + 1];

        if (!av)
            continue;
        if (strcmp(an, "charset") == 0)
            charset = av;
        else if (strcmp(an, "http-equiv") == 0)
            equiv = av;
        else if (strcmp(an, "content") == 0)
            content = av;
    }
    if (!input_meta_encoding(charset, equiv, content, enc, sizeof(enc)))
        return;
    same = input_same_encoding(enc, w->sniff.encoding);
    if (same < 0)
        return; /* a label that names no encoding is ignored (13.2.6.4.4) */
    w->meta_seen = true;
    if (!w->sniff.guessed || same)
        return;
    diag(w, "encoding-late", XIRI_SEV_WARNING, tag_end,
         "this <meta> declares %s where the prescan of browsers did not "
         "find it (past the first 1024 bytes, or where it reads no tag): "
         "they read the page again in %s, but xiri read it as %s (a guess); "
         "move the <meta> to the start of <head> or give --encoding=%s",
         enc, enc, w->sniff.encoding, enc);
}

/* How an HTML parser reads the start tags in an element (WHATWG HTML
 * 13.2.6.5, "tree construction dispatcher"): the kinds of walker.modes,
 * the foreign ones last. */
enum html_mode {
    MODE_HTML,       /* "in body": an HTML integration point (13.2.6.1),
                        SVG's foreignObject, desc and title, or MathML's
                        annotation-xml of HTML (math_html_annotation) */
    MODE_MATH_TEXT,  /* a MathML text integration point (mi, mo, mn, ms,
                        mtext): "in body", but an mglyph or malignmark
                        child is MathML */
    MODE_SVG,        /* foreign content, in SVG */
    MODE_MATH,       /* foreign content, in MathML */
    MODE_MATH_ANNOT, /* a MathML annotation-xml of no HTML: MathML, but
                        an svg child is SVG */
};

/* The element at w->depth changes the mode of its content to m. */
static void mode_push(struct xiri_walker *w, enum html_mode m)
{
    if (w->nmodes < ARRAY_LEN(w->modes)) {
        w->modes[w->nmodes] = w->depth;
        w->mode_kinds[w->nmodes++] = (unsigned char)m;
    }
}

/* A MathML annotation-xml that is an HTML integration point (13.2.6.1):
 * its encoding is "text/html" or "application/xhtml+xml", in any ASCII
 * case (the first encoding attribute: the tokenizer drops the others). */
static bool math_html_annotation(const xmlChar **atts)
{
    int i;

    for (i = 0; atts && atts[i]; i += 2)
        if (strcmp((const char *)atts[i], "encoding") == 0) {
            const xmlChar *v = atts[i + 1];

            return v && (xmlStrcasecmp(v, (const xmlChar *)"text/html") == 0 ||
                         xmlStrcasecmp(
                             v, (const xmlChar *)"application/xhtml+xml") == 0);
        }
    return false;
}

/* The start tag of the element at w->depth, in a page with <svg> or
 * <math>: the namespace an HTML parser puts the element in (MODE_HTML,
 * MODE_SVG or MODE_MATH), once the mode of its content is pushed.  The
 * dispatcher (13.2.6.5) reads a start tag "in body" in an HTML element or
 * integration point (but an mglyph or malignmark child of a text
 * integration point), and an svg child of any annotation-xml; else by
 * the rules for foreign content.  (Out of line: on_html_start calls it
 * only in a page with <svg> or <math>.) */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static enum html_mode
start_mode(struct xiri_walker *w, const char *el, const xmlChar **atts)
{
    enum html_mode m =
        w->nmodes ? (enum html_mode)w->mode_kinds[w->nmodes - 1] : MODE_HTML;
    /* the current node is the element that began the mode */
    bool child = w->nmodes > 0 && w->depth == w->modes[w->nmodes - 1] + 1;

    if (m == MODE_MATH_TEXT)
        m = child &&
                    (strcmp(el, "mglyph") == 0 || strcmp(el, "malignmark") == 0)
                ? MODE_MATH
                : MODE_HTML;
    else if (m == MODE_MATH_ANNOT && child && strcmp(el, "svg") == 0)
        m = MODE_HTML;
    if (m >= MODE_SVG && html_breakout(el, atts)) {
        /* pop the foreign elements up to an HTML element or integration
         * point, as an HTML parser does, and read the tag "in body" */
        while (w->nmodes > 0 && w->mode_kinds[w->nmodes - 1] >= MODE_SVG)
            w->nmodes--;
        m = MODE_HTML;
    }
    switch (m) {
    case MODE_HTML:
        /* 13.2.6.4.7, "in body": svg and math begin foreign content */
        if (strcmp(el, "svg") == 0) {
            mode_push(w, MODE_SVG);
            return MODE_SVG;
        }
        if (strcmp(el, "math") == 0) {
            mode_push(w, MODE_MATH);
            return MODE_MATH;
        }
        return MODE_HTML;
    case MODE_SVG:
        if (strcmp(el, "foreignobject") == 0 || strcmp(el, "desc") == 0 ||
            strcmp(el, "title") == 0)
            mode_push(w, MODE_HTML);
        return MODE_SVG;
    default:
        /* MathML: a math or svg tag here is MathML's too */
        if (strcmp(el, "mi") == 0 || strcmp(el, "mo") == 0 ||
            strcmp(el, "mn") == 0 || strcmp(el, "ms") == 0 ||
            strcmp(el, "mtext") == 0)
            mode_push(w, MODE_MATH_TEXT);
        else if (strcmp(el, "annotation-xml") == 0)
            mode_push(w,
                      math_html_annotation(atts) ? MODE_HTML : MODE_MATH_ANNOT);
        else if (w->mode_kinds[w->nmodes - 1] == MODE_MATH_TEXT)
            mode_push(w, MODE_MATH); /* mglyph, malignmark */
        return MODE_MATH;
    }
}

/* HTML: libxml2 reports an element it implies (htmlCheckImplied) or
 * closes (htmlAutoClose) when it has read the name of the tag that makes
 * it: at pos, inside that tag, whose links are still to come.  What the
 * text may be let go up to: that tag's '<' then, else pos (with the
 * parser thread, the replay may stop at the record, and the text before
 * the place be let go before the tag's record is replayed). */
static size_t html_keep_tag(const struct xiri_walker *w, size_t pos)
{
    size_t s0, s1, k;
    const char *text = input_window(w->in, &s0, &s1);

    if (pos <= s0 || pos > s1 || text[pos - 1 - s0] == '>')
        return pos;
    /* (libxml2 reads a tag name of at most 100 characters) */
    for (k = pos; k > s0 && pos - k < 512; k--)
        if (text[k - 1 - s0] == '<')
            return k - 1;
    return pos;
}

static void on_html_start(void *ctx, const xmlChar *name, const xmlChar **atts)
{
    struct xiri_walker *w = walker_of(ctx);
    const char *el = (const char *)name, *dom_el;
    size_t tag_end = parser_pos(w), s0, s1, tag_start = SIZE_MAX;
    const char *text;
    bool scanned = false, refresh = false;
    const struct tag_rec *rec = NULL;
    enum xiri_shape shape;
    enum html_mode ns = MODE_HTML;
    int i;

    if (w->status != XIRI_OK)
        return;
    w->links_before_tag = w->links;
    if (w->content.active)
        content_drop(w);
    w->depth++;
    for (i = 0; atts && atts[i]; i += 2)
        ;
    if (!start_limits(w, el, (unsigned long)i / 2, tag_end))
        return;
    if (w->text_name) {
        if (w->text_end == SIZE_MAX || tag_end < w->text_end) {
            w->safe = tag_end; /* text to a browser (html_text) */
            return;
        }
        w->text_name = NULL; /* a tag after the element's end */
    }
    text = input_window(w->in, &s0, &s1);
    /* a page without <svg> or <math> is all HTML (the names spelled out:
     * libxml2 gives them in lower case) */
    if (w->nmodes > 0 ||
        (el[0] == 's' && el[1] == 'v' && el[2] == 'g' && el[3] == '\0') ||
        (el[0] == 'm' && el[1] == 'a' && el[2] == 't' && el[3] == 'h' &&
         el[4] == '\0'))
        ns = start_mode(w, el, atts);
    if (ns == MODE_SVG) {
        const char *svg_el = svg_element(el);

        /* foreign content: an SVG title is no HTML title */
        svg_links(w, el, atts, text, s0, s1, tag_end, &tag_start, &rec);
        /* an SVG element's content (its style sheet), read as foreign
         * content: references decoded, CDATA sections real (13.2.6.5);
         * content_end tells it from HTML's raw text by its namespace */
        if (w->status == XIRI_OK &&
            registry_find_content(w->reg, SVG_NS, svg_el, false, &shape) &&
            !html_css_of_other_type(shape, atts))
            content_begin(w, svg_el, SVG_NS, shape, tag_end, false);
        w->safe = safe_after_start(w, tag_end);
        if (tag_start != SIZE_MAX)
            w->floor = tag_end + 1;
        return;
    }
    /* WHATWG HTML 13.2.6.4.7, "in body": a start tag named "image" is
     * read as "img" (libxml2 keeps the name, which its text keeps too);
     * in MathML it stays a MathML element (13.2.6.5) */
    dom_el = ns == MODE_HTML && el[0] == 'i' && el[1] == 'm' && el[2] == 'a' &&
                     strcmp(el, "image") == 0
                 ? "img"
                 : el;
    /* a MathML title or textarea is no text element (13.2.6.5: the
     * tokenizer's state changes "in body" only), as an SVG one */
    if (ns == MODE_HTML && (w->text_name = html_text(el)) != NULL) {
        /* its own attributes still count */
        w->text_end = SIZE_MAX;
        w->text_scan = tag_end + 1;
        text_seek(w);
    }
    /* names by their first letter first (libxml2 gives them lower case) */
    if (atts && el[0] == 'm' && strcmp(el, "meta") == 0) {
        if (!w->meta_seen)
            late_meta(w, atts, tag_end);
        for (i = 0; atts[i]; i += 2)
            if (strcmp((const char *)atts[i], "http-equiv") == 0 &&
                atts[i + 1] &&
                xmlStrcasecmp(atts[i + 1], (const xmlChar *)"refresh") == 0)
                refresh = true;
    }
    for (i = 0; atts && atts[i] && w->status == XIRI_OK; i += 2) {
        const char *an = (const char *)atts[i];
        const char *av = atts[i + 1] ? (const char *)atts[i + 1] : "";

        if (!reg_find(w, NULL, dom_el, NULL, an, &shape))
            continue;
        if (shape == XIRI_SHAPE_REFRESH && !refresh)
            continue; /* <meta content> is a URL only for a refresh */
        if (!scanned) {
            tag_start = start_tag_at(w, text, s0, s1, tag_end, NULL, el, &rec);
            scanned = true;
        }
        attribute_links(w, text, s0, tag_start, rec, NULL, tag_end, NULL, an,
                        NULL, av, strlen(av), shape, dom_el, NULL,
                        w->doc_base);
    }
    if (ns == MODE_HTML && w->template_depth == 0 && el[0] == 't' &&
        strcmp(el, "template") == 0)
        w->template_depth = w->depth;
    /* HTML "document base URL": the first <base href> of HTML's namespace
     * in the document (not in a template's contents, not MathML's: 13.2.6.5
     * keeps a base start tag in MathML), after its own href was reported
     * against the document's address */
    if (w->status == XIRI_OK && atts && ns == MODE_HTML &&
        w->template_depth == 0 && el[0] == 'b' && strcmp(el, "base") == 0)
        for (i = 0; atts[i]; i += 2)
            if (strcmp((const char *)atts[i], "href") == 0) {
                /* <base href> with no value is the first all the same:
                 * its URL is the document's (HTML "set the frozen base
                 * URL" parses the empty string) */
                struct attr_place at =
                    href_place(text, s0, tag_start, tag_end, rec);
                html_base_element(
                    w, atts[i + 1] ? (const char *)atts[i + 1] : "", &at);
            }
    /* (a MathML element's content is none of HTML's: <math><style> is
     * no style sheet, WHATWG HTML 13.2.6.5) */
    if (w->status == XIRI_OK && ns == MODE_HTML &&
        reg_find(w, NULL, dom_el, NULL, NULL, &shape) &&
        !html_css_of_other_type(shape, atts))
        content_begin(w, dom_el, NULL, shape, tag_end, false);
    w->safe = safe_after_start(w, tag_end);
    /* elements the parser implies carry the position of the next real
     * tag, so only a tag actually found moves the floor */
    if (tag_start != SIZE_MAX)
        w->floor = tag_end + 1;
    else
        w->safe = html_keep_tag(w, w->safe);
}

static void on_html_end(void *ctx, const xmlChar *name)
{
    struct xiri_walker *w = walker_of(ctx);

    (void)name;
    if (w->status != XIRI_OK)
        return;
    if (w->content.active && w->content.depth == w->depth)
        content_end(w);
    while (w->nmodes > 0 && w->modes[w->nmodes - 1] >= w->depth)
        w->nmodes--;
    if (w->template_depth == w->depth)
        w->template_depth = 0;
    if (w->depth > 0)
        w->depth--;
    w->safe = html_keep_tag(w, parser_pos(w));
}

/* ---------------------------------------------------------------- driver */

static void on_bad_bytes(void *user, size_t pos, size_t orig,
                         const unsigned char *b, size_t n)
{
    struct xiri_walker *w = user;
    struct bad_byte *e;

    w->bad_bytes++;
    if (w->nbad == ARRAY_LEN(w->bad) || w->bad_bytes > 100)
        return;
    e = &w->bad[w->nbad++];
    e->pos = pos;
    e->orig = orig;
    e->n = n < sizeof(e->bytes) ? n : sizeof(e->bytes);
    memcpy(e->bytes, b, e->n);
}

/* Report the invalid bytes queued by on_bad_bytes (at most 100 in all). */
static void report_bad_bytes(struct xiri_walker *w)
{
    size_t k;

    for (k = 0; k < w->nbad; k++) {
        const struct bad_byte *e = &w->bad[k];
        char hex[40];
        size_t i, used = 0;

        for (i = 0; i < e->n; i++)
            used += (size_t)snprintf(hex + used, sizeof(hex) - used, "%s%02X",
                                     i ? " " : "", e->bytes[i]);
        if (e->n == 1 && e->bytes[0] == 0 && w->html) {
            /* WHATWG HTML 13.2.5: unexpected-null-character */
            diag(w, "invalid-byte", XIRI_SEV_WARNING, e->pos,
                 "a NUL character at offset %zu is not allowed in HTML and "
                 "is read as U+FFFD",
                 e->orig);
            continue;
        }
        diag(w, "invalid-byte", XIRI_SEV_WARNING, e->pos,
             "byte%s %s at offset %zu %s not valid %s and read as U+FFFD; "
             "check the document's encoding (--encoding)",
             e->n > 1 ? "s" : "", hex, e->orig, e->n > 1 ? "are" : "is",
             w->sniff.encoding);
    }
    if (w->nbad > 0 && w->bad_bytes > 100 && w->bad[w->nbad - 1].orig != 0 &&
        w->nbad == ARRAY_LEN(w->bad))
        diag(w, "invalid-byte", XIRI_SEV_WARNING, SIZE_MAX,
             "more invalid bytes follow: they are not reported one by one; "
             "is the encoding right?");
    w->nbad = 0;
}

void xiri_walk_options_init(struct xiri_walk_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof(*opts));
    opts->type = XIRI_DOC_AUTO;
    opts->max_value = WALK_DEFAULT_MAX_VALUE;
    opts->max_markup = WALK_DEFAULT_MAX_MARKUP;
    opts->max_depth = WALK_DEFAULT_MAX_DEPTH;
    opts->max_attributes = WALK_DEFAULT_MAX_ATTRIBUTES;
    opts->max_namespaces = WALK_DEFAULT_MAX_NAMESPACES;
    opts->max_default_attributes = WALK_DEFAULT_MAX_DEFAULT_ATTRIBUTES;
    opts->max_entity_expansion = WALK_DEFAULT_MAX_ENTITY_EXPANSION;
}

enum xiri_status xiri_walker_new(struct xiri_ctx *ctx,
                                 const struct xiri_registry *reg,
                                 const struct xiri_walk_options *opts,
                                 xiri_link_fn *on_link,
                                 xiri_doc_diag_fn *on_diag, void *user,
                                 struct xiri_walker **out)
{
    struct xiri_walker *w;
    struct xiri_walk_options defaults;

    if (!out)
        return XIRI_EINVAL;
    *out = NULL;
    if (!ctx || !reg)
        return XIRI_EINVAL;
    if (!opts) {
        xiri_walk_options_init(&defaults);
        opts = &defaults;
    }
    w = mem_alloc(sizeof(*w));
    if (!w)
        return XIRI_ENOMEM;
    /* all but the tag log's arrays, which only its counters make count
     * (a walker per document: many small ones are common) */
    memset(w, 0, offsetof(struct xiri_walker, taglog));
    w->taglog.ntags = w->taglog.rd = w->taglog.given = w->taglog.nattrs = 0;
    w->ctx = ctx;
    w->reg = reg;
    w->type = opts->type;
    w->max_value = opts->max_value ? opts->max_value : WALK_DEFAULT_MAX_VALUE;
    w->max_markup = opts->max_markup ? opts->max_markup
                                     : WALK_DEFAULT_MAX_MARKUP;
    if (w->max_markup > WALK_MAX_MARKUP)
        w->max_markup = WALK_MAX_MARKUP;
    w->max_depth = opts->max_depth ? opts->max_depth : WALK_DEFAULT_MAX_DEPTH;
    w->max_attributes = opts->max_attributes ? opts->max_attributes
                                             : WALK_DEFAULT_MAX_ATTRIBUTES;
    w->max_namespaces = opts->max_namespaces ? opts->max_namespaces
                                             : WALK_DEFAULT_MAX_NAMESPACES;
    w->max_default_attributes = opts->max_default_attributes
                                    ? opts->max_default_attributes
                                    : WALK_DEFAULT_MAX_DEFAULT_ATTRIBUTES;
    w->max_entities = opts->max_entity_expansion
                          ? opts->max_entity_expansion
                          : WALK_DEFAULT_MAX_ENTITY_EXPANSION;
    w->entities_left = w->max_entities;
    w->on_link = on_link;
    w->on_diag = on_diag;
    w->user = user;
    w->lazy = opts->lazy_positions != 0;
    w->pipe_mode = opts->parse_thread ? WALK_PIPE_THREAD : WALK_PIPE_OFF;
    w->parse_ahead = opts->parse_ahead != 0;
    w->step = WALK_STEP;
    w->name = dup_or_null(opts->name);
    w->encoding_option = dup_or_null(opts->encoding);
    buf_init(&w->head, WALK_SNIFF_ASCII);
    w->head_max = WALK_SNIFF_MAX;
    buf_init(&w->value, w->max_value);
    buf_init(&w->content.value, w->max_value);
    if ((opts->name && !w->name) ||
        (opts->encoding && !w->encoding_option)) {
        xiri_walker_free(w);
        return XIRI_ENOMEM;
    }
    if (opts->base) {
        /* the document's base must be absolute (RFC 3986 5.1) */
        struct xiri *iri = NULL;
        enum xiri_status st = xiri_parse(opts->base, strlen(opts->base),
                                         XIRI_PROFILE_LEIRI, &iri, NULL);
        bool abs = st == XIRI_OK && xiri_is_absolute(iri);
        xiri_free(iri);
        if (st == XIRI_ENOMEM) {
            xiri_walker_free(w);
            return XIRI_ENOMEM;
        }
        if (!abs) {
            xiri_walker_free(w);
            return XIRI_ENOTABS;
        }
        w->doc_base = dup_or_null(opts->base);
        w->doc_uri = dup_or_null(opts->base);
        if (!w->doc_base || !w->doc_uri) {
            xiri_walker_free(w);
            return XIRI_ENOMEM;
        }
    }
    xmlInitParser();
    *out = w;
    return XIRI_OK;
}

static void encoding_guess_note(struct xiri_walker *w)
{
    diag(w, "encoding-guess", XIRI_SEV_NOTE, SIZE_MAX,
         "the document declares no encoding; read as %s (%s); declare it "
         "with <meta charset> or give --encoding",
         w->sniff.encoding, w->sniff.source);
}

/* Is the head long enough to sniff?  64 KiB is; but HTML that declares no
 * encoding and is ASCII so far cannot tell UTF-8 from windows-1252 yet
 * (the same bytes), so the head grows to WALK_SNIFF_ASCII until some
 * bytes past the first that is not ASCII are in (or the document ends:
 * xiri_walker_finish). */
static bool head_ready(struct xiri_walker *w)
{
    const unsigned char *h = (const unsigned char *)w->head.data;
    size_t i;

    if (w->head.len < w->head_max && w->head.len < WALK_SNIFF_MAX)
        return false;
    if (w->head.len >= w->head_max && w->head_max > WALK_SNIFF_MAX)
        return true; /* the longest head: the guess stands */
    if (w->head_max == WALK_SNIFF_MAX) {
        struct sniff s;

        input_sniff(h, w->head.len, false, w->type, w->name,
                    w->encoding_option, &s);
        if (!s.undecided)
            return true;
        w->head_max = WALK_SNIFF_ASCII;
        w->head_scan = 0;
    }
    for (i = w->head_scan; i < w->head.len && h[i] < 0x80; i++)
        ;
    w->head_scan = i;
    /* 64 bytes from it on tell UTF-8 (as input_sniff reads them) */
    return i < w->head.len && w->head.len - i >= 64;
}

/* Sniff, open the decoder and the parser; whole: the head is all of the
 * document. */
/* The guard wrote over a continuation byte at pos (tagscan.h): columns
 * leave it out. */
static void on_guard_mask(void *user, size_t pos)
{
    struct xiri_walker *w = user;

    if (!input_mark_masked(w->in, pos))
        fail(w, XIRI_ENOMEM);
}

static enum xiri_status start(struct xiri_walker *w, bool whole)
{
    const unsigned char *h = (const unsigned char *)w->head.data;
    enum xiri_status st;
    xmlSAXHandler sax;

    input_sniff(h ? h : (const unsigned char *)"", w->head.len, whole,
                w->type, w->name, w->encoding_option, &w->sniff);
    w->sniffed_len = w->head.len;
    w->sniffed_whole = whole;
    w->html = w->sniff.type == XIRI_DOC_HTML;
    st = input_new(w->sniff.encoding, w->sniff.bom_len, on_bad_bytes, w,
                   &w->in);
    if (st == XIRI_OK && w->html)
        input_read_as_html(w->in);
    if (st == XIRI_OK && w->pipe_mode == WALK_PIPE_LAG)
        input_discard_eagerly(w->in); /* (tests: walk.h) */
    if (st == XIRI_EENCODING)
        return error_set(&w->error, st, 0,
                         "unknown encoding \"%s\" (from the %s); name one "
                         "that ICU knows with --encoding",
                         w->sniff.encoding, w->sniff.source);
    if (st != XIRI_OK)
        return error_set(&w->error, st, 0, "%s", xiri_strerror(st));
    w->state = WALK_RUN;
    if (w->sniff.replaced[0] && w->sniff.bom_len == 0) {
        /* WHATWG HTML 13.2.3.2 ends the prescan there (the BOM would have
         * come first), and a browser reads no later <meta> */
        diag(w, "encoding-replacement", XIRI_SEV_ERROR, SIZE_MAX,
             "the <meta> declares \"%s\", which browsers decode as the "
             "replacement encoding: they show one U+FFFD for the whole page "
             "and none of its links; read as %s (%s) instead; transcode the "
             "page to UTF-8 and declare that",
             w->sniff.replaced, w->sniff.encoding, w->sniff.source);
        w->meta_seen = true;
    } else if (w->sniff.guessed) {
        encoding_guess_note(w);
    }
    if (w->sniff.conflict)
        diag(w, "encoding-conflict", XIRI_SEV_WARNING, SIZE_MAX,
             "the byte order mark says %s but the document declares \"%s\"; "
             "read as %s (the mark wins); fix the declaration",
             w->sniff.encoding, w->sniff.declared, w->sniff.encoding);

    memset(&sax, 0, sizeof(sax));
    sax.initialized = XML_SAX2_MAGIC;
    sax.serror = on_error;
    sax.characters = on_characters;
    sax.cdataBlock = on_characters;
    sax.resolveEntity = on_resolve_entity;
    if (w->html) {
        sax.startElement = on_html_start;
        sax.endElement = on_html_end;
        w->px = htmlCreatePushParserCtxt(&sax, NULL, NULL, 0, w->name,
                                         XML_CHAR_ENCODING_UTF8);
        if (!w->px)
            return error_set(&w->error, XIRI_ENOMEM, 0, "out of memory");
        htmlCtxtUseOptions(w->px, HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC |
                                      HTML_PARSE_NOERROR |
                                      HTML_PARSE_NOWARNING | HTML_PARSE_NOBLANKS);
    } else {
        /* a document (holding only the internal subset) keeps the
         * entities' replacement text */
        /* white space is characters (XML 1.0 2.10): with the same
         * handler libxml2 does not guess which is ignorable */
        sax.ignorableWhitespace = on_characters;
        sax.startDocument = xmlSAX2StartDocument;
        sax.internalSubset = xmlSAX2InternalSubset;
        sax.entityDecl = on_entity_decl;
        sax.attributeDecl = on_attribute_decl;
        sax.getEntity = on_get_entity;
        sax.getParameterEntity = xmlSAX2GetParameterEntity;
        sax.startElementNs = on_start_ns;
        sax.endElementNs = on_end_ns;
        sax.processingInstruction = on_pi;
        w->px = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, w->name);
        if (!w->px)
            return error_set(&w->error, XIRI_ENOMEM, 0, "out of memory");
        /* never the network, never an external DTD or entity, no entity
         * substitution (XML_PARSE_NOENT would load external entities) */
        xmlCtxtUseOptions(w->px, XML_PARSE_NONET | XML_PARSE_IGNORE_ENC |
                                     XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
        xmlSwitchEncoding(w->px, XML_CHAR_ENCODING_UTF8);
    }
    w->px->_private = w;
    tag_guard_init(&w->guard, w->html, 0);
    w->taglog.ntags = w->taglog.rd = w->taglog.given = w->taglog.nattrs = 0;
    w->guard.log = &w->taglog;
    w->guard.masked = on_guard_mask;
    w->guard.masked_user = w;
    w->fed = 0;
    return XIRI_OK;
}

#if LIBXML_VERSION < 21100
/* libxml2 before 2.11: its HTML push parser reads a start tag (or a
 * DOCTYPE) only once it has seen a '>' outside quotes, pairing every quote
 * character of the tag, even one in an unquoted value (alt=don't): with
 * an odd number it waits for the next quote of the document, perhaps
 * its end, holding all that text.  The guard knows where libxml2 will end
 * the construct: make its lookup find that '>' (HTMLparser.c
 * htmlParseLookupSequence resumes at checkIndex, an index from
 * input->base, inside or outside a quoted value after bit 0 of
 * hasPErefs). */
static void html_unstick(struct xiri_walker *w)
{
    int tries;

    for (tries = 0; tries < 16; tries++) {
        /* libxml2's input holds the text it was given from its position
         * on, byte for byte (UTF-8, no encoder: px_pos) */
        xmlParserInputPtr in = w->px->input;
        size_t c = px_pos(w), e, n;
        int st = (int)w->px->instate;
        const char *p;

        if (w->px->disableSAX || !in || !in->cur || !in->base || !in->end ||
            in->end <= in->cur)
            return;
        p = (const char *)in->cur;
        n = (size_t)(in->end - in->cur);
        if (p[0] != '<' || n < 2)
            return;
        if (st != XML_PARSER_START_TAG &&
            !(n >= 9 && p[1] == '!' &&
              xmlStrncasecmp((const xmlChar *)p + 2, (const xmlChar *)"DOCTYPE",
                             7) == 0))
            return;
        e = tag_guard_construct_end(p, n, true);
        if (e == SIZE_MAX)
            return;
        w->px->checkIndex = (long)(in->cur - in->base) + (long)e - 1;
        w->px->hasPErefs &= ~1;
        htmlParseChunk(w->px, "", 0, 0);
        if (px_pos(w) <= c)
            return;
    }
}
#endif

/* HTML: give libxml2 n bytes of text (on the parser thread, a job). */
static void html_parse_chunk(struct xiri_walker *w, const char *data, size_t n,
                             bool final)
{
#if LIBXML_VERSION < 21100
    /* after a cut inside a quoted value its lookup forgets which quote
     * it was (htmlParseLookupSequence): it would wait for the end of the
     * document; the guard never cuts there, but if it did, start the
     * lookup again */
    if (w->px->hasPErefs & 1) {
        w->px->checkIndex = 0;
        w->px->hasPErefs &= ~1;
    }
#endif
    htmlParseChunk(w->px, data, (int)n, final);
#if LIBXML_VERSION < 21100
    if (!final)
        html_unstick(w);
#endif
}

/* Give libxml2 the text up to stream position to (a place where the
 * guard says it may be cut); final: the end of the document. */
static void feed_parser(struct xiri_walker *w, size_t to, bool final)
{
    size_t s0, s1;
    const char *text = input_window(w->in, &s0, &s1);
    int n;

    if (w->status != XIRI_OK || to < w->fed || (to == w->fed && !final))
        return;
    if (!w->html && !final) {
        /* XML text is cut where it cannot matter: libxml2 2.9 sees a "]]>"
         * in text (XML 1.0 2.4, not allowed there) only when it has its
         * three characters at once, and a character only whole */
        const char *t = text - s0;
        int back = 0;

        while (to > w->fed && to < s1 && ((unsigned char)t[to] & 0xC0) == 0x80)
            to--;
        while (back < 2 && to > w->fed && t[to - 1] == ']') {
            to--;
            back++;
        }
        if (to == w->fed)
            return;
    }
    n = (int)(to - w->fed);
    tag_log_give(&w->taglog, to);
    w->parses++;
    if (w->pipe) {
        /* (the rest is done as its records are replayed: REC_DONE) */
        enum xiri_status st;

        while (!pipe_job_room(w->pipe, (size_t)n))
            replay_batch(w, true); /* (the jobs are many) */
        if (w->pipe_mode == WALK_PIPE_LAG)
            replay_batch(w, false); /* (tests: walk.h) */
        st = pipe_job(w->pipe, text + (w->fed - s0), (size_t)n, final, to);
        if (st != XIRI_OK)
            fail(w, st);
        w->fed = to;
        return;
    }
    text += w->fed - s0;
    w->fed = to;
    if (w->html)
        html_parse_chunk(w, text, (size_t)n, final);
    else
        xmlParseChunk(w->px, text, n, final);
    /* everything before libxml2's position has been reported */
    if (w->status == XIRI_OK && !w->content.active) {
        size_t pos = parser_pos(w);
        if (pos > w->safe && pos <= w->fed)
            w->safe = pos;
    }
}

/* HTML after TAG_GUARD_SYNC, for tag_guard_resume: 1 when libxml2 is in
 * the raw text of script or style, 2 when the walker is in the content of
 * an element that is text to a browser but not to libxml2 (html_text: an
 * HTML title, textarea, xmp or plaintext; a script or style closed by
 * "/>", or by libxml2 at a "</" that does not end it for a browser), 0
 * otherwise, -1 when libxml2 has not read that far. */
static int html_raw(struct xiri_walker *w)
{
    /* (with the parser thread, every record replayed: push_piece) */
    const char *name = (const char *)w->px->name;

    if (parser_pos(w) < w->guard.pos)
        return -1;
    if (name && (strcmp(name, "script") == 0 || strcmp(name, "style") == 0))
        return 1;
    return w->text_name && (w->text_end == SIZE_MAX ||
                            w->text_end >= w->guard.pos)
               ? 2
               : 0;
}

/* What kind of construct starts at s[0..n), for messages. */
static const char *construct_name(const char *s, size_t n)
{
    if (n == 0 || s[0] != '<')
        return "a run of text";
    if (n > 1 && s[1] == '/')
        return "an end tag";
    if (n > 3 && memcmp(s, "<!--", 4) == 0)
        return "a comment";
    if (n > 1 && s[1] == '!')
        return "a declaration";
    if (n > 1 && s[1] == '?')
        return "a processing instruction";
    return "a start tag";
}

/* The content of an element read as a link is given up (with a finding)
 * once it and its end tag are longer than max_markup; and, a net under
 * the guard (which holds every construct and HTML run of text to
 * max_markup), the text held at once may not grow past twice that. */
static void check_window(struct xiri_walker *w)
{
    size_t s0, s1, from, at;
    const char *text = input_window(w->in, &s0, &s1);
    struct content *c = &w->content;

    if (s1 - s0 <= w->max_markup)
        return;
    if (c->active && s1 - c->start > w->max_markup) {
        content_too_long(w);
        w->safe = parser_pos(w) < w->fed ? parser_pos(w) : w->fed;
        input_discard(w->in, w->safe);
        text = input_window(w->in, &s0, &s1);
    }
    from = c->active ? c->start : parser_pos(w);
    if (from > w->fed)
        from = w->fed;
    if (from < s0)
        from = s0;
    if (s1 - from <= 2 * w->max_markup + WALK_SNIFF_MAX)
        return;
    at = from < w->fed ? from : w->guard.start;
    if (at < s0 || at > s1)
        at = from;
    limit_error(w, at, "%s longer than %zu bytes; raise --max-markup",
                construct_name(text + (at - s0), s1 - at), w->max_markup);
}

/* Decode bytes, let the guard read the new text, and hand libxml2 what
 * it may have. */
static void push_piece(struct xiri_walker *w, const char *data, size_t n,
                       bool final)
{
    size_t fresh, s0, s1, lim = 0;
    const char *text;
    enum xiri_status st;
    bool again = false;

    w->ending = final;
    st = input_convert(w->in, data, n, final, &fresh);
    if (st != XIRI_OK) {
        error_set(&w->error, st, 0, "%s", xiri_strerror(st));
        fail(w, st);
        return;
    }
    if (w->text_name)
        text_seek(w); /* the new text may end a text element */
    if (w->nbad > 0)
        walk_drain(w); /* (their findings come after the links before) */
    report_bad_bytes(w);
    /* the tags libxml2 has read are not asked for any more */
    if (w->px)
        tag_log_trim(&w->taglog, parser_pos(w));
    while (w->status == XIRI_OK) {
        enum tag_guard_result r;
        size_t end;

        if (w->pipe_mode != WALK_PIPE_OFF && !w->pipe && w->px &&
            (w->html || w->root_seen))
            pipe_start(w);
        text = input_window(w->in, &s0, &s1);
        /* a step at a time (what libxml2 is given at once stays in the
         * caches; with the parser thread, it parses one step while the
         * guard reads the next and the walker replays the one before).
         * The same steps with the thread and without: libxml2 2.9 does
         * not read some text the same when it is cut elsewhere (where it
         * places an error in text; feed_parser).  From the last step's
         * end: the guard may stop short of it, waiting for the
         * characters that tell what it read. */
        if (!again)
            lim = (lim > w->guard.pos ? lim : w->guard.pos) + w->step;
        again = false;
        end = lim < s1 ? lim : s1;
        /* the window is the walker's own copy of the text: the guard
         * may write over a '<' in an element of text (tagscan.h) */
        r = tag_guard_scan(&w->guard, (char *)(uintptr_t)text, s0, end,
                           w->max_attributes, w->max_markup);
        if (r == TAG_GUARD_LONG) {
            size_t at = w->guard.start;
            feed_parser(w, w->guard.safe < at ? w->guard.safe : at, false);
            walk_drain(w);
            limit_error(w, at, "%s longer than %zu bytes; raise --max-markup",
                        construct_name(text + (at - s0), s1 - at),
                        w->max_markup);
            break;
        }
        if (r == TAG_GUARD_LIMIT) {
            size_t i = w->guard.start + 1 - s0, k = 0;
            while (i + k < s1 - s0 && k < 40 &&
                   !strchr(" \t\r\n/>", text[i + k]))
                k++;
            feed_parser(w, w->guard.safe, false); /* the links before */
            walk_drain(w);
            limit_error(w, w->guard.start,
                        "start tag <%.*s> has more than %lu attributes; "
                        "raise --max-attributes",
                        (int)k, text + i, w->max_attributes);
            break;
        }
        if (r == TAG_GUARD_FULL) {
            /* the guard is TAG_LOG_TAGS tags ahead of libxml2: it is
             * given them; or, with the parser thread, the log is full
             * of tags given but not replayed yet: they are replayed,
             * and the same step goes on (the steps do not depend on
             * how far the replay lags) */
            again = !tag_log_ahead(&w->taglog);
            if (!again)
                feed_parser(w, w->guard.safe, false);
            if (w->taglog.ntags == TAG_LOG_ROOM)
                walk_drain(w);
            tag_log_trim(&w->taglog, parser_pos(w));
            continue;
        }
        if (r == TAG_GUARD_SYNC) {
            feed_parser(w, w->guard.pos, false);
            /* (html_raw asks libxml2, and the replay sets text_name:
             * every record replayed first, the thread idle) */
            walk_drain(w);
            if (w->status == XIRI_OK)
                tag_guard_resume(&w->guard, html_raw(w), w->text_name);
            continue;
        }
        if (end < s1) {
            feed_parser(w, w->guard.safe, false);
            if (w->pipe)
                walk_replay(w, false);
            continue;
        }
        if (final && tag_guard_in_tag(&w->guard) &&
            w->guard.start >= w->fed) {
            /* a tag cut by the end of the document: said after the
             * links before it, however the text was cut */
            feed_parser(w, w->guard.start, false);
            walk_drain(w);
            diag(w, "eof-in-tag", XIRI_SEV_WARNING, w->guard.start,
                 "the document ends inside this tag, which browsers drop "
                 "with its attributes (WHATWG HTML 13.2.5, eof-in-tag); "
                 "its links are not read: complete the tag");
            feed_parser(w, w->guard.start, true);
        } else
            feed_parser(w, final ? s1 : w->guard.safe, final);
        break;
    }
}

/* Every record of the text given to libxml2 replayed, the text reported
 * let go and the window checked: where a feed ends (push), or where the
 * caller asks for it (walk_catch_up). */
static void catch_up(struct xiri_walker *w)
{
    walk_drain(w);
    if (w->status == XIRI_OK) {
        input_discard(w->in, w->safe);
        check_window(w);
    }
}

/* The walk's status, its error said when nothing else said it. */
static enum xiri_status walk_status(struct xiri_walker *w)
{
    if (w->status != XIRI_OK && w->status != XIRI_EDOC &&
        w->status != w->error.status)
        error_set(&w->error, w->status, 0, "%s", xiri_strerror(w->status));
    return w->status;
}

/* The caller's bytes a piece at a time (with the parser thread, the next
 * piece is decoded and read by the guard while the last is parsed), and
 * nothing of them left to report when it returns; with parse_ahead, the
 * records of the last jobs may be replayed at the next push (the thread
 * parses them meanwhile) unless the window has grown past max_markup:
 * check_window, which asks how far libxml2 has read, needs every record
 * replayed, and finds something only when the text from the content's
 * start, or from libxml2's place, to the window's end is longer than
 * max_markup; both places are at or after w->safe, itself at or after
 * the window's start, so a window no longer than that rules out every
 * finding it would make after the replay: the findings are the same. */
static enum xiri_status push(struct xiri_walker *w, const char *data, size_t n,
                             bool final)
{
    size_t s0, s1;

    do {
        size_t k = n > w->step ? w->step : n;

        push_piece(w, data, k, final && k == n);
        /* what has been reported is let go as it goes: the window holds
         * a few steps, not the whole feed */
        if (w->status == XIRI_OK)
            input_discard(w->in, w->safe);
        data += k;
        n -= k;
    } while (n > 0 && w->status == XIRI_OK);
    (void)input_window(w->in, &s0, &s1);
    if (w->parse_ahead && w->pipe && !final && s1 - s0 <= w->max_markup) {
        walk_replay(w, false); /* (what is there already) */
        if (w->status == XIRI_OK)
            input_discard(w->in, w->safe);
    } else
        catch_up(w);
    return walk_status(w);
}

enum xiri_status xiri_walker_feed(struct xiri_walker *w, const void *data,
                                  size_t len, struct xiri_error *err)
{
    enum xiri_status st;

    if (!w || (!data && len))
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (w->state == WALK_DONE)
        return error_set(err, XIRI_EINVAL, 0, "the walk is finished");
    if (w->status != XIRI_OK)
        goto out;
    while (w->state == WALK_HEAD) {
        size_t room = w->head_max - w->head.len;
        size_t take = len < room ? len : room;
        buf_append(&w->head, data, take);
        if (w->head.status != XIRI_OK) {
            w->status = error_set(&w->error, XIRI_ENOMEM, 0, "out of memory");
            goto out;
        }
        data = (const char *)data + take;
        len -= take;
        if (!head_ready(w)) {
            if (len == 0)
                return XIRI_OK; /* wait for more, or the end */
            continue; /* the head was made longer */
        }
        w->status = start(w, false);
        if (w->status == XIRI_OK)
            w->status = push(w, w->head.data, w->head.len, false);
        buf_free(&w->head);
        if (w->status != XIRI_OK)
            goto out;
        break;
    }
    if (len > 0)
        w->status = push(w, data, len, false);
out:
    st = w->status;
    if (st != XIRI_OK && err)
        *err = w->error;
    return st;
}

enum xiri_status xiri_walker_finish(struct xiri_walker *w,
                                    struct xiri_error *err)
{
    if (!w)
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (w->state == WALK_DONE)
        return w->status;
    if (w->status == XIRI_OK && w->state == WALK_HEAD) {
        w->status = start(w, true);
        if (w->status == XIRI_OK)
            w->status = push(w, w->head.data ? w->head.data : "", w->head.len,
                             true);
        buf_free(&w->head);
    } else if (w->status == XIRI_OK) {
        w->status = push(w, "", 0, true);
    }
    w->state = WALK_DONE;
    if (w->status != XIRI_OK && err)
        *err = w->error;
    return w->status;
}

void xiri_walker_free(struct xiri_walker *w)
{
    if (!w)
        return;
    if (w->px) {
        pipe_free(w->pipe);
        w->pipe = NULL;
        if (w->px->myDoc)
            xmlFreeDoc(w->px->myDoc);
        w->px->myDoc = NULL;
        if (w->html)
            htmlFreeParserCtxt(w->px);
        else
            xmlFreeParserCtxt(w->px);
        w->px = NULL; /* (content_drop below asks) */
    }
    input_free(w->in);
    if (w->defaults)
        xmlHashFree(w->defaults, NULL);
    mem_free(w->ns_per_depth);
    ns_unbind(w, w->ns_nbind);
    mem_free(w->ns_bind);
    mem_free(w->marks);
    while (w->nbases > 0)
        mem_free(w->bases[--w->nbases].base);
    mem_free(w->bases);
    content_drop(w);
    buf_free(&w->content.value);
    buf_free(&w->value);
    buf_free(&w->head);
    mem_free(w->name);
    mem_free(w->doc_base);
    mem_free(w->doc_uri);
    mem_free(w->encoding_option);
    mem_free(w);
}

enum xiri_doc_type xiri_walker_type(const struct xiri_walker *w)
{
    if (!w || w->state == WALK_HEAD)
        return XIRI_DOC_AUTO;
    return w->sniff.type;
}

size_t walk_nul_count(const struct xiri_walker *w)
{
    return w && w->in ? input_nul_count(w->in) : 0;
}

enum xiri_status walk_catch_up(struct xiri_walker *w, struct xiri_error *err)
{
    if (w->status == XIRI_OK && w->state == WALK_RUN)
        catch_up(w);
    if (walk_status(w) != XIRI_OK && err)
        *err = w->error;
    return w->status;
}

size_t walk_parse_count(const struct xiri_walker *w)
{
    return w->parses;
}

bool walk_guessed_head(const struct xiri_walker *w, size_t *len,
                       bool *whole)
{
    if (!w || !w->in || !w->html || !w->sniff.guessed)
        return false;
    *len = w->sniffed_len;
    *whole = w->sniffed_whole;
    return true;
}

bool walk_rendered(const struct xiri_walker *w)
{
    return w->html || w->root_rendered;
}

bool walk_html_prescan(const struct xiri_walker *w)
{
    return w && w->in && w->html && w->sniff.bom_len == 0;
}

size_t walk_settled(const struct xiri_walker *w)
{
    if (!w || !w->in)
        return 0;
    return input_orig_offset(w->in, w->safe);
}

const char *xiri_walker_encoding(const struct xiri_walker *w, int *guessed)
{
    if (!w || w->state == WALK_HEAD)
        return NULL;
    if (guessed)
        *guessed = w->sniff.guessed;
    return w->sniff.encoding;
}

unsigned long walk_backstops(const struct xiri_walker *w)
{
    return w ? w->backstops : 0;
}

void walk_set_pipe(struct xiri_walker *w, enum walk_pipe mode, size_t step)
{
    if (!w || w->pipe)
        return;
    w->pipe_mode = (int)mode;
    if (step)
        w->step = step;
}

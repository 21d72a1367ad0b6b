/* xsd.c - learn which attributes and elements hold IRIs from XML Schema
 * documents (XSD 1.0 Part 1, plus xs:override of XSD 1.1): every
 * declaration whose type is xs:anyURI, a restriction of it, a list of it
 * or a union holding it, across xs:include/import/redefine/override of
 * local files, and xiri's own <xiri:shape> annotation.
 *
 * Decisions (see also schemas/README.md):
 *  - Never the network: a schemaLocation with a scheme other than "file"
 *    (http:, https:, ftp:, urn:, ...), a "file:" URI naming another host,
 *    or a network-path reference ("//host/...") is skipped: it is a hint
 *    (XSD 1.0 Part 1 4.3.2, 4.2.3), and real schemas import the W3C's own
 *    (xml.xsd, xlink.xsd) by http: URI, which xiri's presets cover.  The
 *    registry's notice callback is told of each other one (not_read).  A
 *    local file that cannot be read is an error (XIRI_EIO).
 *  - schemaLocation is a URI reference: its query and fragment are
 *    dropped, %HH decoded, and a relative one is taken relative to the
 *    directory of the including file (xml:base is not honoured).
 *  - References to types, groups and attributes that no loaded document
 *    declares are taken as "not an IRI" (a schema may import a namespace
 *    without a location); circular definitions are XIRI_EDOC.  The schema
 *    is otherwise trusted, not validated (an include of a file with
 *    another target namespace keeps that namespace).
 *  - Not read: XSD 1.1 targetNamespace on local declarations and
 *    xs:alternative (conditional types); DTD default attributes.
 *  - A global attribute of a target namespace is registered on every
 *    element ("*"), since anyAttribute and ref= put it anywhere; a
 *    global attribute with no namespace is registered only on the
 *    elements that refer to it.
 *  - Files are read by us (open/read: exact XIRI_EIO messages) and parsed
 *    from memory with XML_PARSE_NONET, no DTD loading and no entity
 *    substitution: external entities are never read.
 *  - libxml2 reports errors through handlers: the parser context's
 *    structured handler, plus the structured and generic handlers, which
 *    libxml2 (built with thread support, as distributions ship it) keeps
 *    per thread; they are set for the duration of the call and restored
 *    before it returns, so nothing is printed and other threads are not
 *    disturbed.  One registry is loaded by one thread at a time. */
#include "common.h"
#include "chars.h"
#include "mem.h"
#include "mojibake.h"
#include "registry.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#define ANNOT_NS "urn:xiri:schema"

#define XSD_MAX_DEPTH 64                     /* nested includes/imports */
#define XSD_MAX_FILES 256                    /* schema documents per load */
#define XSD_MAX_FILE_SIZE ((size_t)64 << 20) /* bytes per document */
#define XSD_MAX_NEST 256 /* type derivation and group nesting */
/* xmlCtxtReadMemory takes an int length. */
_Static_assert(XSD_MAX_FILE_SIZE < INT_MAX, "schema size limit too large");

#define SHAPE_NONE (-1)
#define RANK_ORIGINAL UINT_MAX

/* The options every schema document is parsed with: never the network,
 * no DTD loading (no XML_PARSE_DTDLOAD), no entity substitution (no
 * XML_PARSE_NOENT, which would read external entities). */
#define XSD_PARSE_OPTIONS                                        \
    (XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_NOWARNING | \
     XML_PARSE_BIG_LINES)

struct span {
    const char *s;
    size_t n;
};

/* One loaded schema document. */
struct sdoc {
    xmlDocPtr doc;
    char *path;
    char *tns;      /* effective target namespace, NULL for none */
    bool chameleon; /* had none and took its includer's (XSD 4.2.1) */
    bool elem_qual; /* elementFormDefault="qualified" */
    bool attr_qual; /* attributeFormDefault="qualified" */
    unsigned depth;
    dev_t dev;
    ino_t ino;
};

/* Symbol spaces (XSD 1.0 Part 1 section 2.5): simple and complex types
 * share one. */
enum comp_kind { K_TYPE, K_ELEMENT, K_ATTRIBUTE, K_ATTR_GROUP, K_GROUP };

/* One top-level named component. */
struct comp {
    enum comp_kind kind;
    const char *ns; /* the owning document's tns */
    struct span name;
    xmlNode *node;
    struct sdoc *doc;
    /* RANK_ORIGINAL, or for a component inside xs:redefine/xs:override
     * the depth of its document + 1: lookups prefer the lowest rank, and
     * a redefinition's reference to its own name finds the next one. */
    unsigned rank;
    int state; /* 0 not computed, 1 being computed, 2 done */
    int shape; /* of the type's value (simple content) */
    int total; /* type_total: 0 not known, 1 being computed, 2 yes, 3 no */
    bool walking; /* its attributes are being walked (a cycle if met) */
    /* an attribute group: the element (xsd.element) and restriction
     * chain it was last walked for (group_walked) */
    unsigned long walked_for;
    const struct restr_chain *walked_chain;
};

struct xsd {
    struct xiri_registry *reg;
    struct xiri_error *err;
    xmlParserCtxtPtr pctxt;
    struct sdoc **docs;
    size_t ndocs, docs_cap;
    struct comp *comps;
    size_t ncomps, comps_cap;
    uint32_t *ctab; /* comp index + 1 */
    size_t ctab_cap;
    xmlChar **strs; /* attribute values libxml2 built for us */
    size_t nstrs, strs_cap;
    bool oom;
    unsigned nest;
    /* The element being registered, counted from 1 (group_walked). */
    unsigned long element;
    /* The first error libxml2 reported while parsing. */
    bool perr_set;
    int perr_line;
    char perr[120];
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static bool is_ws(char c)
{
    /* XML 1.0 section 2.3 production [3] S */
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* XSD 1.0 Part 2 4.3.6: QName, NCName and anyURI values are
 * whitespace-collapsed; leading and trailing white space goes. */
static struct span trim(const xmlChar *v)
{
    struct span sp = {"", 0};
    const char *s = (const char *)v, *e;

    if (!s)
        return sp;
    while (is_ws(*s))
        s++;
    e = s + strlen(s);
    while (e > s && is_ws(e[-1]))
        e--;
    sp.s = s;
    sp.n = (size_t)(e - s);
    return sp;
}

static bool span_is(struct span sp, const char *lit)
{
    return strlen(lit) == sp.n && memcmp(sp.s, lit, sp.n) == 0;
}

static bool span_eq(struct span a, struct span b)
{
    return a.n == b.n && memcmp(a.s, b.s, a.n) == 0;
}

static bool ns_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool is_xs(const xmlNode *n, const char *local)
{
    return n && n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
           strcmp((const char *)n->ns->href, XSD_NS) == 0 &&
           strcmp((const char *)n->name, local) == 0;
}

/* The last max bytes or so of a path, for messages of 256 bytes: the
 * file name is what matters. */
static const char *path_tail(const char *p, size_t max, const char **ellipsis)
{
    size_t n = strlen(p);
    const char *t;

    *ellipsis = n > max ? "..." : "";
    if (n <= max)
        return p;
    t = p + n - (max - 3);
    /* at the start of a UTF-8 character, not inside one */
    while (*t && ((unsigned char)*t & 0xC0) == 0x80)
        t++;
    return t;
}

/* "FILE:LINE" of node n of d (n NULL: "FILE"), the path's end only. */
static void place(char *out, size_t size, const struct sdoc *d,
                  const xmlNode *n)
{
    const char *ell = "", *p = path_tail(d->path, 50, &ell);

    if (n)
        snprintf(out, size, "%s%s:%ld", ell, p, xmlGetLineNo(n));
    else
        snprintf(out, size, "%s%s", ell, p);
}

/* Fill x->err with "FILE:LINE: message" and return st. */
static enum xiri_status fail(struct xsd *x, enum xiri_status st,
                             const struct sdoc *d, const xmlNode *n,
                             const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static enum xiri_status fail(struct xsd *x, enum xiri_status st,
                             const struct sdoc *d, const xmlNode *n,
                             const char *fmt, ...)
{
    char msg[256], at[80];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (!d)
        return error_set(x->err, st, 0, "%s", msg);
    place(at, sizeof(at), d, n);
    return error_set(x->err, st, 0, "%s: %s", at, msg);
}

/* The value of the unqualified attribute name of n, or NULL.  Points into
 * the tree, or into a string kept until the end of the load when the
 * value holds entity references (x->oom on failure). */
static const xmlChar *attr_get(struct xsd *x, const xmlNode *n,
                               const char *name)
{
    const xmlAttr *a;
    xmlChar *v, **ns;
    size_t cap;

    for (a = n->properties; a; a = a->next) {
        if (a->ns || strcmp((const char *)a->name, name) != 0)
            continue;
        if (!a->children)
            return (const xmlChar *)"";
        if (a->children->type == XML_TEXT_NODE && !a->children->next)
            return a->children->content ? a->children->content
                                        : (const xmlChar *)"";
        v = xmlNodeListGetString(n->doc, a->children, 1);
        if (!v) {
            x->oom = true;
            return NULL;
        }
        if (x->nstrs == x->strs_cap) {
            cap = x->strs_cap ? x->strs_cap * 2 : 16;
            ns = mem_realloc(x->strs, cap * sizeof(*ns));
            if (!ns) {
                xmlFree(v);
                x->oom = true;
                return NULL;
            }
            x->strs = ns;
            x->strs_cap = cap;
        }
        x->strs[x->nstrs++] = v;
        return v;
    }
    return NULL;
}

/* Register one entry (spans copied to NUL-terminated strings). */
static enum xiri_status add_entry(struct xsd *x, const char *ens,
                                  struct span en, const char *ans,
                                  const struct span *an, int shape)
{
    char *buf;
    size_t n = en.n + 1 + (an ? an->n + 1 : 0);
    enum xiri_status st;

    buf = mem_alloc(n);
    if (!buf)
        return error_set(x->err, XIRI_ENOMEM, 0, "out of memory");
    memcpy(buf, en.s, en.n);
    buf[en.n] = '\0';
    if (an) {
        memcpy(buf + en.n + 1, an->s, an->n);
        buf[n - 1] = '\0';
    }
    st = xiri_registry_add(x->reg, ens, buf, an ? ans : NULL,
                           an ? buf + en.n + 1 : NULL, (enum xiri_shape)shape);
    mem_free(buf);
    if (st != XIRI_OK)
        return error_set(x->err, st, 0, "%s", xiri_strerror(st));
    return XIRI_OK;
}

/* ------------------------------------------------------------------ */
/* QNames (XSD 1.0 Part 2 3.2.18, Namespaces in XML 1.0 section 4)     */

static enum xiri_status qname(struct xsd *x, const struct sdoc *d, xmlNode *n,
                              struct span q, const char **ns,
                              struct span *local)
{
    const char *colon = memchr(q.s, ':', q.n);
    char prefix[64];
    size_t plen;
    xmlNsPtr xns;

    /* set on every path: the static analyzer does not follow fail()
     * (variadic) and so cannot tell that its result is never XIRI_OK */
    *ns = NULL;
    *local = q;
    if (colon) {
        plen = (size_t)(colon - q.s);
        if (plen == 0 || plen >= sizeof(prefix) ||
            (size_t)(colon + 1 - q.s) >= q.n)
            return fail(x, XIRI_EDOC, d, n, "'%.*s' is not a QName",
                        (int)(q.n > 60 ? 60 : q.n), q.s);
        memcpy(prefix, q.s, plen);
        prefix[plen] = '\0';
        xns = xmlSearchNs(n->doc, n, (const xmlChar *)prefix);
        if (!xns)
            return fail(x, XIRI_EDOC, d, n,
                        "the prefix '%s' of '%.*s' is not declared", prefix,
                        (int)(q.n > 60 ? 60 : q.n), q.s);
        local->s = colon + 1;
        local->n = q.n - plen - 1;
    } else {
        if (q.n == 0)
            return fail(x, XIRI_EDOC, d, n, "empty QName");
        /* An unprefixed QName is in the default namespace. */
        xns = xmlSearchNs(n->doc, n, NULL);
        *local = q;
    }
    *ns = xns && xns->href && *xns->href ? (const char *)xns->href : NULL;
    /* XSD 1.0 Part 1 4.2.1: in a schema included without a target
     * namespace ("chameleon"), references to no namespace become
     * references to the includer's. */
    if (!*ns && d->chameleon)
        *ns = d->tns;
    return XIRI_OK;
}

/* ------------------------------------------------------------------ */
/* Component table                                                     */

static uint32_t comp_hash(enum comp_kind k, const char *ns, struct span name)
{
    uint32_t h = 2166136261u;
    size_t i;

    h = (h ^ (unsigned)k) * 16777619u;
    if (ns)
        for (; *ns; ns++)
            h = (h ^ (unsigned char)*ns) * 16777619u;
    h = (h ^ 0xFFu) * 16777619u;
    for (i = 0; i < name.n; i++)
        h = (h ^ (unsigned char)name.s[i]) * 16777619u;
    return h;
}

static void ctab_put(uint32_t *tab, size_t cap, uint32_t h, size_t idx)
{
    size_t i;

    for (i = h & (cap - 1); tab[i]; i = (i + 1) & (cap - 1))
        ;
    tab[i] = (uint32_t)(idx + 1);
}

static enum xiri_status comp_add(struct xsd *x, enum comp_kind kind,
                                 struct sdoc *d, xmlNode *node, unsigned rank)
{
    const xmlChar *v = attr_get(x, node, "name");
    struct comp *c;
    uint32_t *tab;
    size_t cap, i;
    struct span name;

    if (!v)
        return x->oom ? XIRI_ENOMEM : XIRI_OK;
    name = trim(v);
    if (name.n == 0)
        return fail(x, XIRI_EDOC, d, node, "empty name");
    if (x->ncomps == x->comps_cap) {
        cap = x->comps_cap ? x->comps_cap * 2 : 64;
        if (cap > UINT32_MAX / 4)
            return fail(x, XIRI_ELIMIT, d, node, "too many components");
        c = mem_realloc(x->comps, cap * sizeof(*c));
        if (!c)
            return XIRI_ENOMEM;
        x->comps = c;
        x->comps_cap = cap;
    }
    if ((x->ncomps + 1) * 2 > x->ctab_cap) {
        cap = x->ctab_cap ? x->ctab_cap * 2 : 128;
        tab = mem_alloc(cap * sizeof(*tab));
        if (!tab)
            return XIRI_ENOMEM;
        memset(tab, 0, cap * sizeof(*tab));
        for (i = 0; i < x->ncomps; i++)
            ctab_put(
                tab, cap,
                comp_hash(x->comps[i].kind, x->comps[i].ns, x->comps[i].name),
                i);
        mem_free(x->ctab);
        x->ctab = tab;
        x->ctab_cap = cap;
    }
    c = &x->comps[x->ncomps];
    memset(c, 0, sizeof(*c));
    c->kind = kind;
    c->ns = d->tns;
    c->name = name;
    c->node = node;
    c->doc = d;
    c->rank = rank;
    c->shape = SHAPE_NONE;
    ctab_put(x->ctab, x->ctab_cap, comp_hash(kind, d->tns, name), x->ncomps);
    x->ncomps++;
    return XIRI_OK;
}

/* The component of that kind and name with the lowest rank above
 * `above` (first declared among equals), or NULL. */
static struct comp *comp_find(struct xsd *x, enum comp_kind kind,
                              const char *ns, struct span name, unsigned above)
{
    struct comp *best = NULL, *c;
    size_t i;

    if (!x->ctab_cap)
        return NULL;
    for (i = comp_hash(kind, ns, name) & (x->ctab_cap - 1); x->ctab[i];
         i = (i + 1) & (x->ctab_cap - 1)) {
        c = &x->comps[x->ctab[i] - 1];
        if (c->kind != kind || !ns_eq(c->ns, ns) || !span_eq(c->name, name))
            continue;
        if (c->rank <= above)
            continue;
        if (!best || c->rank < best->rank ||
            (c->rank == best->rank && c < best))
            best = c;
    }
    return best;
}

/* XSD 1.0 Part 1 4.2.2: inside xs:redefine, a reference to the
 * component's own name means the definition being redefined. */
static unsigned above_for(const struct comp *self, enum comp_kind kind,
                          const char *ns, struct span name)
{
    if (self && self->kind == kind && self->rank != RANK_ORIGINAL &&
        ns_eq(self->ns, ns) && span_eq(self->name, name))
        return self->rank;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Shapes of types                                                     */

static enum xiri_status simple_shape(struct xsd *x, struct sdoc *d, xmlNode *st,
                                     struct comp *self, int *shape);
static enum xiri_status complex_shape(struct xsd *x, struct sdoc *d,
                                      xmlNode *ct, struct comp *self,
                                      int *shape);

/* xiri's own annotation, for values that are not xs:anyURI in XSD terms:
 * <xs:annotation><xs:appinfo><xiri:shape xmlns:xiri="urn:xiri:schema">
 * srcset</xiri:shape>... on a declaration or a type. */
static enum xiri_status annot_shape(struct xsd *x, struct sdoc *d,
                                    const xmlNode *node, int *shape)
{
    const xmlNode *a, *p, *s;
    xmlChar *text;
    struct span v;
    enum xiri_shape sh;
    bool ok;

    *shape = SHAPE_NONE;
    for (a = node->children; a; a = a->next) {
        if (!is_xs(a, "annotation"))
            continue;
        for (p = a->children; p; p = p->next) {
            if (!is_xs(p, "appinfo"))
                continue;
            for (s = p->children; s; s = s->next) {
                if (s->type != XML_ELEMENT_NODE || !s->ns ||
                    strcmp((const char *)s->ns->href, ANNOT_NS) != 0 ||
                    strcmp((const char *)s->name, "shape") != 0)
                    continue;
                text = xmlNodeGetContent(s);
                if (!text)
                    return XIRI_ENOMEM;
                v = trim(text);
                ok = registry_shape_from_name(v.s, v.n, &sh);
                if (!ok) {
                    char names[160];

                    /* before a UTF-8 character, not inside it */
                    size_t cut = moji_cut(v.s, v.n, 40);

                    registry_shape_list(names, sizeof(names));
                    fail(x, XIRI_EDOC, d, s, "unknown xiri:shape '%.*s%s' (%s)",
                         (int)cut, v.s, cut < v.n ? "..." : "", names);
                    xmlFree(text);
                    return XIRI_EDOC;
                }
                xmlFree(text);
                *shape = (int)sh;
                return XIRI_OK;
            }
        }
    }
    return XIRI_OK;
}

static enum xiri_status comp_shape(struct xsd *x, struct comp *c, int *shape)
{
    enum xiri_status st;

    if (c->state == 2) {
        *shape = c->shape;
        return XIRI_OK;
    }
    if (c->state == 1)
        return fail(x, XIRI_EDOC, c->doc, c->node,
                    "circular definition of the type '%.*s'",
                    (int)(c->name.n > 60 ? 60 : c->name.n), c->name.s);
    c->state = 1;
    if (is_xs(c->node, "complexType"))
        st = complex_shape(x, c->doc, c->node, c, shape);
    else
        st = simple_shape(x, c->doc, c->node, c, shape);
    if (st != XIRI_OK)
        return st;
    c->state = 2;
    c->shape = *shape;
    return XIRI_OK;
}

/* The type named q (as written on node): the shape of its value and,
 * when it is a complex type, that type (ct may be NULL). */
static enum xiri_status type_ref(struct xsd *x, struct sdoc *d, xmlNode *node,
                                 struct span q, struct comp *self, int *shape,
                                 struct comp **ct)
{
    const char *ns;
    struct span local;
    struct comp *c;
    enum xiri_status st;

    *shape = SHAPE_NONE;
    if (ct)
        *ct = NULL;
    st = qname(x, d, node, q, &ns, &local);
    if (st != XIRI_OK)
        return st;
    /* XSD 1.0 Part 2 3.2.17: the built-in anyURI (checked first, so that
     * a loaded schema for schemas cannot redefine it). */
    if (ns && strcmp(ns, XSD_NS) == 0 && span_is(local, "anyURI")) {
        *shape = XIRI_SHAPE_IRI;
        return XIRI_OK;
    }
    c = comp_find(x, K_TYPE, ns, local, above_for(self, K_TYPE, ns, local));
    if (!c)
        return XIRI_OK; /* a built-in other than anyURI, or not loaded */
    st = comp_shape(x, c, shape);
    if (st == XIRI_OK && ct && is_xs(c->node, "complexType"))
        *ct = c;
    return st;
}

static enum xiri_status nest_enter(struct xsd *x, struct sdoc *d,
                                   const xmlNode *n)
{
    if (++x->nest > XSD_MAX_NEST)
        return fail(x, XIRI_EDOC, d, n,
                    "definitions nested deeper than %d levels", XSD_MAX_NEST);
    return XIRI_OK;
}

/* The first xs:simpleType child of n, or NULL. */
static xmlNode *child_xs(xmlNode *n, const char *local)
{
    xmlNode *c;

    for (c = n->children; c; c = c->next)
        if (is_xs(c, local))
            return c;
    return NULL;
}

static enum xiri_status simple_total(struct xsd *x, struct sdoc *d,
                                     xmlNode *stn, struct comp *self,
                                     bool *total);

/* The next white-space separated token of list from *i on (a union's
 * memberTypes) into *tok; false when there is none. */
static bool list_token(struct span list, size_t *i, struct span *tok)
{
    while (*i < list.n && is_ws(list.s[*i]))
        (*i)++;
    tok->s = list.s + *i;
    while (*i < list.n && !is_ws(list.s[*i]))
        (*i)++;
    tok->n = (size_t)(list.s + *i - tok->s);
    return tok->n > 0;
}

/* Whether the type named q (as written on node) is one whose lexical
 * space holds every string, after its white space is processed (XSD 1.0
 * Part 2 4.3.6): xs:string, normalizedString, token, anyURI (3.2.17:
 * an "anyURI" need not be a URI) and anySimpleType, their restrictions
 * that constrain nothing but white space, lists of them, unions with one
 * of them.  A union's value is of the first member type that holds it
 * (Part 2 2.5.1.3): no member after such a one is ever chosen. */
static enum xiri_status type_total(struct xsd *x, struct sdoc *d, xmlNode *node,
                                   struct span q, struct comp *self,
                                   bool *total)
{
    static const char *const builtins[] = {"string", "normalizedString",
                                           "token", "anyURI", "anySimpleType"};
    const char *ns;
    struct span local;
    struct comp *c;
    enum xiri_status st;
    size_t i;

    *total = false;
    st = qname(x, d, node, q, &ns, &local);
    if (st != XIRI_OK)
        return st;
    if (ns && strcmp(ns, XSD_NS) == 0)
        for (i = 0; i < ARRAY_LEN(builtins); i++)
            if (span_is(local, builtins[i])) {
                *total = true;
                return XIRI_OK;
            }
    c = comp_find(x, K_TYPE, ns, local, above_for(self, K_TYPE, ns, local));
    if (!c || !is_xs(c->node, "simpleType") || c->total == 1)
        return XIRI_OK; /* other built-ins; a cycle (comp_shape says) */
    if (c->total == 0) {
        c->total = 1;
        st = simple_total(x, c->doc, c->node, c, total);
        if (st != XIRI_OK)
            return st;
        c->total = *total ? 2 : 3;
    }
    *total = c->total == 2;
    return XIRI_OK;
}

/* type_total of a simpleType element. */
static enum xiri_status simple_total(struct xsd *x, struct sdoc *d,
                                     xmlNode *stn, struct comp *self,
                                     bool *total)
{
    xmlNode *c, *m;
    const xmlChar *v;
    struct span list, tok;
    enum xiri_status st;
    size_t i;

    *total = false;
    st = nest_enter(x, d, stn);
    for (c = stn->children; c && st == XIRI_OK; c = c->next) {
        if (is_xs(c, "restriction")) {
            /* a facet other than whiteSpace narrows the lexical space */
            for (m = c->children; m; m = m->next)
                if (m->type == XML_ELEMENT_NODE && !is_xs(m, "annotation") &&
                    !is_xs(m, "simpleType") && !is_xs(m, "whiteSpace"))
                    break;
            if (m)
                break;
            if ((v = attr_get(x, c, "base")))
                st = type_total(x, d, c, trim(v), self, total);
            else if ((m = child_xs(c, "simpleType")))
                st = simple_total(x, d, m, NULL, total);
            break;
        }
        if (is_xs(c, "list")) {
            if ((v = attr_get(x, c, "itemType")))
                st = type_total(x, d, c, trim(v), self, total);
            else if ((m = child_xs(c, "simpleType")))
                st = simple_total(x, d, m, NULL, total);
            break;
        }
        if (is_xs(c, "union")) {
            if ((v = attr_get(x, c, "memberTypes"))) {
                list = trim(v);
                for (i = 0;
                     st == XIRI_OK && !*total && list_token(list, &i, &tok);)
                    st = type_total(x, d, c, tok, self, total);
            }
            for (m = c->children; m && st == XIRI_OK && !*total; m = m->next)
                if (is_xs(m, "simpleType"))
                    st = simple_total(x, d, m, NULL, total);
            break;
        }
    }
    x->nest--;
    if (st == XIRI_OK && x->oom)
        st = XIRI_ENOMEM;
    return st;
}

/* XSD 1.0 Part 1 3.14.2: a simple type is a restriction, a list or a
 * union. */
static enum xiri_status simple_body(struct xsd *x, struct sdoc *d, xmlNode *stn,
                                    struct comp *self, int *shape)
{
    xmlNode *c, *m;
    const xmlChar *v;
    struct span list, tok;
    int s, best = SHAPE_NONE;
    enum xiri_status st;
    size_t i;

    *shape = SHAPE_NONE;
    for (c = stn->children; c; c = c->next) {
        if (is_xs(c, "restriction")) {
            /* A restriction keeps its base's value space shape
             * (Part 2 4.1.2.1). */
            if ((v = attr_get(x, c, "base")))
                return type_ref(x, d, c, trim(v), self, shape, NULL);
            if ((m = child_xs(c, "simpleType")))
                return simple_shape(x, d, m, NULL, shape);
            return x->oom ? XIRI_ENOMEM : XIRI_OK;
        }
        if (is_xs(c, "list")) {
            /* Part 2 2.5.1.2: white-space separated items. */
            s = SHAPE_NONE;
            st = XIRI_OK;
            if ((v = attr_get(x, c, "itemType")))
                st = type_ref(x, d, c, trim(v), self, &s, NULL);
            else if ((m = child_xs(c, "simpleType")))
                st = simple_shape(x, d, m, NULL, &s);
            if (st != XIRI_OK)
                return st;
            *shape = s == SHAPE_NONE ? SHAPE_NONE : XIRI_SHAPE_LIST;
            return x->oom ? XIRI_ENOMEM : XIRI_OK;
        }
        if (is_xs(c, "union")) {
            /* Part 2 2.5.1.3: memberTypes, then the anonymous members;
             * a value is of the first member that holds it.  Up to the
             * first member that holds every string (type_total; none
             * after it is ever chosen), one member holding an IRI makes
             * the value an IRI (a value of an earlier member, an integer
             * before xs:anyURI, is read as one too); else the first
             * member with a shape gives it: union(xs:string xs:anyURI)
             * holds no IRI, union(list-of-anyURI xs:anyURI) a list. */
            bool total = false;

            if ((v = attr_get(x, c, "memberTypes"))) {
                list = trim(v);
                for (i = 0; !total && list_token(list, &i, &tok);) {
                    st = type_ref(x, d, c, tok, self, &s, NULL);
                    if (st == XIRI_OK)
                        st = type_total(x, d, c, tok, self, &total);
                    if (st != XIRI_OK)
                        return st;
                    if (s == XIRI_SHAPE_IRI || best == SHAPE_NONE)
                        best = best == XIRI_SHAPE_IRI ? best : s;
                }
            }
            for (m = c->children; m && !total; m = m->next) {
                if (!is_xs(m, "simpleType"))
                    continue;
                st = simple_shape(x, d, m, NULL, &s);
                if (st == XIRI_OK)
                    st = simple_total(x, d, m, NULL, &total);
                if (st != XIRI_OK)
                    return st;
                if (s == XIRI_SHAPE_IRI || best == SHAPE_NONE)
                    best = best == XIRI_SHAPE_IRI ? best : s;
            }
            *shape = best;
            return x->oom ? XIRI_ENOMEM : XIRI_OK;
        }
    }
    return x->oom ? XIRI_ENOMEM : XIRI_OK;
}

static enum xiri_status simple_shape(struct xsd *x, struct sdoc *d,
                                     xmlNode *stn, struct comp *self,
                                     int *shape)
{
    enum xiri_status st;

    st = nest_enter(x, d, stn);
    if (st == XIRI_OK)
        st = annot_shape(x, d, stn, shape);
    if (st == XIRI_OK && *shape == SHAPE_NONE)
        st = simple_body(x, d, stn, self, shape);
    x->nest--;
    return st;
}

/* XSD 1.0 Part 1 3.4.2: only a complex type with simple content has a
 * value; it is that of its base (extension) or of the restriction. */
static enum xiri_status complex_shape(struct xsd *x, struct sdoc *d,
                                      xmlNode *ct, struct comp *self,
                                      int *shape)
{
    xmlNode *sc, *dv, *m;
    const xmlChar *v;
    enum xiri_status st;

    st = nest_enter(x, d, ct);
    if (st == XIRI_OK)
        st = annot_shape(x, d, ct, shape);
    if (st != XIRI_OK || *shape != SHAPE_NONE) {
        x->nest--;
        return st;
    }
    sc = child_xs(ct, "simpleContent");
    for (dv = sc ? sc->children : NULL; dv; dv = dv->next) {
        if (!is_xs(dv, "extension") && !is_xs(dv, "restriction"))
            continue;
        if (is_xs(dv, "restriction") && (m = child_xs(dv, "simpleType")))
            st = simple_shape(x, d, m, NULL, shape);
        else if ((v = attr_get(x, dv, "base")))
            st = type_ref(x, d, dv, trim(v), self, shape, NULL);
        break;
    }
    x->nest--;
    if (st == XIRI_OK && x->oom)
        st = XIRI_ENOMEM;
    return st;
}

/* ------------------------------------------------------------------ */
/* Declarations                                                        */

/* XSD 1.0 Part 1 3.2.2 / 3.3.2: a local declaration is qualified when
 * form="qualified", or with no form when the schema's
 * attributeFormDefault / elementFormDefault is "qualified". */
static const char *local_ns(struct xsd *x, const struct sdoc *d,
                            const xmlNode *n, bool qual_default)
{
    const xmlChar *form = attr_get(x, n, "form");
    struct span f;

    if (form) {
        f = trim(form);
        if (span_is(f, "qualified"))
            return d->tns;
        if (span_is(f, "unqualified"))
            return NULL;
    }
    return qual_default ? d->tns : NULL;
}

/* The shape of an attribute declaration's value. */
static enum xiri_status attr_shape(struct xsd *x, struct sdoc *d, xmlNode *decl,
                                   int *shape)
{
    const xmlChar *v;
    xmlNode *m;
    enum xiri_status st;

    st = annot_shape(x, d, decl, shape);
    if (st != XIRI_OK || *shape != SHAPE_NONE)
        return st;
    if ((v = attr_get(x, decl, "type")))
        return type_ref(x, d, decl, trim(v), NULL, shape, NULL);
    if ((m = child_xs(decl, "simpleType")))
        return simple_shape(x, d, m, NULL, shape);
    return x->oom ? XIRI_ENOMEM : XIRI_OK;
}

/* The restrictions between an element's type and the base being walked:
 * their use="prohibited" attributes remove the base's (Part 1 3.4.2). */
struct restr_chain {
    xmlNode *restr;
    struct sdoc *d;
    const struct restr_chain *next;
};

/* The (namespace, name) an attribute use inside a complex type or group
 * stands for; *name is empty when there is none. */
static enum xiri_status use_name(struct xsd *x, struct sdoc *d, xmlNode *n,
                                 const char **ns, struct span *name)
{
    const xmlChar *v;

    name->s = "";
    name->n = 0;
    *ns = NULL;
    if ((v = attr_get(x, n, "ref")))
        return qname(x, d, n, trim(v), ns, name);
    if ((v = attr_get(x, n, "name"))) {
        *name = trim(v);
        *ns = local_ns(x, d, n, d->attr_qual);
    }
    return x->oom ? XIRI_ENOMEM : XIRI_OK;
}

/* Whether a restriction between the element's type and the base being
 * walked declares the attribute {ns}name itself: prohibited
 * (use="prohibited"), or declared again, which replaces the base's
 * attribute use (XSD 1.0 Part 1 3.4.2, {attribute uses} of a
 * restriction: the base's are kept only where the restriction has none
 * of that name); its own declaration was walked already. */
static enum xiri_status replaced_in_restriction(struct xsd *x,
                                                const struct restr_chain *ch,
                                                const char *ns,
                                                struct span name, bool *out)
{
    xmlNode *c;
    const char *pns;
    struct span pn;
    enum xiri_status st;

    *out = false;
    for (; ch; ch = ch->next)
        for (c = ch->restr->children; c; c = c->next) {
            if (!is_xs(c, "attribute"))
                continue;
            st = use_name(x, ch->d, c, &pns, &pn);
            if (st != XIRI_OK)
                return st;
            if (ns_eq(pns, ns) && span_eq(pn, name)) {
                *out = true;
                return XIRI_OK;
            }
        }
    return XIRI_OK;
}

/* One xs:attribute inside a complex type or attribute group, for the
 * element {ens}en. */
static enum xiri_status attr_use(struct xsd *x, struct sdoc *d, xmlNode *n,
                                 const char *ens, struct span en,
                                 const struct restr_chain *ch)
{
    const xmlChar *use = attr_get(x, n, "use");
    const char *ans;
    struct span name;
    struct comp *g;
    int shape = SHAPE_NONE;
    bool replaced;
    enum xiri_status st;

    if (use && span_is(trim(use), "prohibited"))
        return XIRI_OK;
    st = use_name(x, d, n, &ans, &name);
    if (st != XIRI_OK || name.n == 0)
        return st;
    if (attr_get(x, n, "ref")) {
        /* A global attribute of a namespace already has its "*" entry. */
        if (ans)
            return XIRI_OK;
        g = comp_find(x, K_ATTRIBUTE, NULL, name, 0);
        if (!g)
            return XIRI_OK;
        st = attr_shape(x, g->doc, g->node, &shape);
    } else {
        st = attr_shape(x, d, n, &shape);
    }
    if (st != XIRI_OK || shape == SHAPE_NONE)
        return st;
    st = replaced_in_restriction(x, ch, ans, name, &replaced);
    if (st != XIRI_OK || replaced)
        return st;
    return add_entry(x, ens, en, ans, &name, shape);
}

static enum xiri_status attrs_of(struct xsd *x, struct sdoc *d, xmlNode *parent,
                                 struct comp *self_group, const char *ens,
                                 struct span en, const struct restr_chain *ch);

/* Whether group g was walked for the current element under the
 * restrictions ch (then true), else mark it so.  A group that several
 * groups refer to is walked once, not once per path (a "diamond" of n
 * levels would take 2^n walks).  One mark a group is enough: an
 * element's walk goes through its type's restriction chain in one
 * direction (complex_attrs), so a group met again under an earlier
 * chain cannot happen. */
static bool group_walked(struct xsd *x, struct comp *g,
                         const struct restr_chain *ch)
{
    if (g->walked_for == x->element && g->walked_chain == ch)
        return true;
    g->walked_for = x->element;
    g->walked_chain = ch;
    return false;
}

/* XSD 1.0 Part 1 3.6.2: <attributeGroup ref=...> brings in the group's
 * attribute uses (each group once per element and restriction chain:
 * its attributes are registered the first time). */
static enum xiri_status group_ref(struct xsd *x, struct sdoc *d, xmlNode *n,
                                  struct comp *self_group, const char *ens,
                                  struct span en, const struct restr_chain *ch)
{
    const xmlChar *v = attr_get(x, n, "ref");
    const char *ns;
    struct span name;
    struct comp *g;
    enum xiri_status st;

    if (!v)
        return x->oom ? XIRI_ENOMEM : XIRI_OK;
    st = qname(x, d, n, trim(v), &ns, &name);
    if (st != XIRI_OK)
        return st;
    g = comp_find(x, K_ATTR_GROUP, ns, name,
                  above_for(self_group, K_ATTR_GROUP, ns, name));
    if (g && g->walking) /* Part 1 3.6.6: no circular group reference */
        return fail(x, XIRI_EDOC, d, n,
                    "circular reference to the attribute group '%.*s'",
                    (int)(name.n > 60 ? 60 : name.n), name.s);
    if (!g || group_walked(x, g, ch))
        return x->oom ? XIRI_ENOMEM : XIRI_OK;
    st = nest_enter(x, d, n);
    g->walking = true;
    if (st == XIRI_OK)
        st = attrs_of(x, g->doc, g->node, g, ens, en, ch);
    g->walking = false;
    x->nest--;
    return st;
}

static enum xiri_status attrs_of(struct xsd *x, struct sdoc *d, xmlNode *parent,
                                 struct comp *self_group, const char *ens,
                                 struct span en, const struct restr_chain *ch)
{
    xmlNode *c;
    enum xiri_status st = XIRI_OK;

    for (c = parent->children; c && st == XIRI_OK; c = c->next) {
        if (is_xs(c, "attribute"))
            st = attr_use(x, d, c, ens, en, ch);
        else if (is_xs(c, "attributeGroup"))
            st = group_ref(x, d, c, self_group, ens, en, ch);
    }
    return st;
}

/* The attributes a complex type gives element {ens}en: its own, then its
 * base's (XSD 1.0 Part 1 3.4.2: extension adds to the base's attribute
 * uses, restriction keeps those it does not prohibit). */
static enum xiri_status complex_attrs(struct xsd *x, struct sdoc *d,
                                      xmlNode *ct, struct comp *self,
                                      const char *ens, struct span en,
                                      const struct restr_chain *ch)
{
    xmlNode *c, *dv;
    const xmlChar *v;
    const char *ns;
    struct span name;
    struct comp *b;
    struct restr_chain link;
    enum xiri_status st;

    st = nest_enter(x, d, ct);
    if (st == XIRI_OK)
        st = attrs_of(x, d, ct, NULL, ens, en, ch);
    for (c = ct->children; c && st == XIRI_OK; c = c->next) {
        if (!is_xs(c, "simpleContent") && !is_xs(c, "complexContent"))
            continue;
        for (dv = c->children; dv && st == XIRI_OK; dv = dv->next) {
            if (!is_xs(dv, "extension") && !is_xs(dv, "restriction"))
                continue;
            st = attrs_of(x, d, dv, NULL, ens, en, ch);
            if (st != XIRI_OK || !(v = attr_get(x, dv, "base")))
                break;
            st = qname(x, d, dv, trim(v), &ns, &name);
            if (st != XIRI_OK)
                break;
            b = comp_find(x, K_TYPE, ns, name,
                          above_for(self, K_TYPE, ns, name));
            if (!b || !is_xs(b->node, "complexType"))
                break;
            if (b->walking) { /* Part 1 3.4.6: no circular derivation */
                st = fail(x, XIRI_EDOC, d, dv,
                          "circular derivation of the type '%.*s'",
                          (int)(name.n > 60 ? 60 : name.n), name.s);
                break;
            }
            link.restr = dv;
            link.d = d;
            link.next = ch;
            b->walking = true;
            st = complex_attrs(x, b->doc, b->node, b, ens, en,
                               is_xs(dv, "restriction") ? &link : ch);
            b->walking = false;
            break;
        }
    }
    x->nest--;
    if (st == XIRI_OK && x->oom)
        st = XIRI_ENOMEM;
    return st;
}

/* The type of an element declaration: its value's shape and, when it is
 * complex, the type for its attributes (*ct, *ctd, *ctc; *ct NULL
 * otherwise). */
static enum xiri_status elem_type(struct xsd *x, struct sdoc *d, xmlNode *decl,
                                  unsigned depth, int *shape, xmlNode **ct,
                                  struct sdoc **ctd, struct comp **ctc)
{
    const xmlChar *v;
    xmlNode *m;
    struct span q;
    const char *ns;
    struct span name;
    struct comp *c = NULL;
    enum xiri_status st;
    size_t i;

    *shape = SHAPE_NONE;
    *ct = NULL;
    *ctd = NULL;
    *ctc = NULL;
    if ((v = attr_get(x, decl, "type"))) {
        st = type_ref(x, d, decl, trim(v), NULL, shape, &c);
        if (st == XIRI_OK && c) {
            *ct = c->node;
            *ctd = c->doc;
            *ctc = c;
        }
        return st;
    }
    if ((m = child_xs(decl, "simpleType")))
        return simple_shape(x, d, m, NULL, shape);
    if ((m = child_xs(decl, "complexType"))) {
        *ct = m;
        *ctd = d;
        return complex_shape(x, d, m, NULL, shape);
    }
    /* XSD 1.0 Part 1 3.3.2: with no type, the {type definition} is that
     * of the substitution group's head (XSD 1.1: the first head). */
    if ((v = attr_get(x, decl, "substitutionGroup"))) {
        q = trim(v);
        for (i = 0; i < q.n && !is_ws(q.s[i]); i++)
            ;
        q.n = i;
        if (depth >= XSD_MAX_NEST)
            return fail(x, XIRI_EDOC, d, decl,
                        "substitution groups nested deeper than %d levels",
                        XSD_MAX_NEST);
        st = qname(x, d, decl, q, &ns, &name);
        if (st != XIRI_OK)
            return st;
        c = comp_find(x, K_ELEMENT, ns, name, 0);
        if (c)
            return elem_type(x, c->doc, c->node, depth + 1, shape, ct, ctd,
                             ctc);
    }
    return x->oom ? XIRI_ENOMEM : XIRI_OK;
}

/* Register element {ens}en: its content and its attributes. */
static enum xiri_status element_decl(struct xsd *x, struct sdoc *d,
                                     xmlNode *decl, const char *ens,
                                     struct span en)
{
    int shape, ashape;
    xmlNode *ct;
    struct sdoc *ctd;
    struct comp *ctc;
    enum xiri_status st;

    st = annot_shape(x, d, decl, &ashape);
    if (st == XIRI_OK)
        st = elem_type(x, d, decl, 0, &shape, &ct, &ctd, &ctc);
    if (st != XIRI_OK)
        return st;
    if (ashape != SHAPE_NONE)
        shape = ashape;
    if (shape != SHAPE_NONE) {
        st = add_entry(x, ens, en, NULL, NULL, shape);
        if (st != XIRI_OK)
            return st;
    }
    x->element++; /* (group_walked: a new element) */
    if (ctc)
        ctc->walking = true;
    if (ct)
        st = complex_attrs(x, ctd, ct, ctc, ens, en, NULL);
    if (ctc)
        ctc->walking = false;
    return st;
}

/* Every local element declaration under n (XSD 1.0 Part 1 3.3.2);
 * top: n's children are top-level (schema, redefine, override). */
static enum xiri_status local_elements(struct xsd *x, struct sdoc *d,
                                       xmlNode *n, bool top)
{
    xmlNode *c;
    const xmlChar *v;
    enum xiri_status st = XIRI_OK;

    for (c = n->children; c && st == XIRI_OK; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || !c->ns ||
            strcmp((const char *)c->ns->href, XSD_NS) != 0 ||
            is_xs(c, "annotation"))
            continue;
        if (!top && is_xs(c, "element") && (v = attr_get(x, c, "name")))
            st =
                element_decl(x, d, c, local_ns(x, d, c, d->elem_qual), trim(v));
        if (st == XIRI_OK)
            st = local_elements(x, d, c,
                                is_xs(c, "redefine") || is_xs(c, "override"));
    }
    if (st == XIRI_OK && x->oom)
        st = XIRI_ENOMEM;
    return st;
}

/* ------------------------------------------------------------------ */
/* Indexing and learning                                               */

static enum xiri_status index_children(struct xsd *x, struct sdoc *d,
                                       xmlNode *parent, unsigned rank)
{
    xmlNode *c;
    enum xiri_status st = XIRI_OK;

    for (c = parent->children; c && st == XIRI_OK; c = c->next) {
        if (is_xs(c, "simpleType") || is_xs(c, "complexType"))
            st = comp_add(x, K_TYPE, d, c, rank);
        else if (is_xs(c, "element"))
            st = comp_add(x, K_ELEMENT, d, c, rank);
        else if (is_xs(c, "attribute"))
            st = comp_add(x, K_ATTRIBUTE, d, c, rank);
        else if (is_xs(c, "attributeGroup"))
            st = comp_add(x, K_ATTR_GROUP, d, c, rank);
        else if (is_xs(c, "group"))
            st = comp_add(x, K_GROUP, d, c, rank);
        else if (rank == RANK_ORIGINAL &&
                 (is_xs(c, "redefine") || is_xs(c, "override")))
            st = index_children(x, d, c, d->depth + 1);
    }
    return st;
}

static enum xiri_status learn(struct xsd *x)
{
    struct comp *c;
    enum xiri_status st = XIRI_OK;
    struct span star = {"*", 1};
    size_t i;
    int shape;

    for (i = 0; i < x->ndocs && st == XIRI_OK; i++)
        st =
            index_children(x, x->docs[i], xmlDocGetRootElement(x->docs[i]->doc),
                           RANK_ORIGINAL);
    /* Global attributes of a namespace: on any element. */
    for (i = 0; i < x->ncomps && st == XIRI_OK; i++) {
        c = &x->comps[i];
        if (c->kind != K_ATTRIBUTE || !c->ns ||
            comp_find(x, c->kind, c->ns, c->name, 0) != c)
            continue;
        st = attr_shape(x, c->doc, c->node, &shape);
        if (st == XIRI_OK && shape != SHAPE_NONE)
            st = add_entry(x, NULL, star, c->ns, &c->name, shape);
    }
    /* Global elements, then local ones. */
    for (i = 0; i < x->ncomps && st == XIRI_OK; i++) {
        c = &x->comps[i];
        if (c->kind != K_ELEMENT ||
            comp_find(x, c->kind, c->ns, c->name, 0) != c)
            continue;
        st = element_decl(x, c->doc, c->node, c->ns, c->name);
    }
    for (i = 0; i < x->ndocs && st == XIRI_OK; i++)
        st = local_elements(x, x->docs[i],
                            xmlDocGetRootElement(x->docs[i]->doc), true);
    if (st == XIRI_OK && x->oom)
        st = XIRI_ENOMEM;
    return st;
}

/* ------------------------------------------------------------------ */
/* Reading files                                                       */

static void on_parse_error(struct xsd *x, const xmlError *e)
{
    size_t n;

    if (x->perr_set || e->level < XML_ERR_ERROR)
        return;
    x->perr_set = true;
    x->perr_line = e->line;
    snprintf(x->perr, sizeof(x->perr), "%s",
             e->message ? e->message : "not well-formed");
    /* Some messages go on with a quote of the document on more lines. */
    x->perr[strcspn(x->perr, "\r\n")] = '\0';
    n = strlen(x->perr);
    while (n > 0 && x->perr[n - 1] == ' ')
        x->perr[--n] = '\0';
}

/* The parser context's handler: its data is the context. */
static void on_ctxt_error(void *ctxt, xmlErrorPtr e)
{
    on_parse_error(((xmlParserCtxtPtr)ctxt)->_private, e);
}

/* The per-thread handlers, for errors raised without the context. */
static void on_thread_error(void *x, xmlErrorPtr e)
{
    on_parse_error(x, e);
}

static void on_generic_error(void *x, const char *msg, ...)
{
    (void)x;
    (void)msg;
}

static enum xiri_status read_file(struct xsd *x, const char *path,
                                  const struct sdoc *from, const xmlNode *at,
                                  char **data, size_t *len, struct stat *sb)
{
    char *buf = NULL, *nb;
    size_t cap = 0, n = 0;
    ssize_t got;
    int fd, e;
    const char *tail, *ell;

    *data = NULL;
    *len = 0;
    memset(sb, 0, sizeof(*sb)); /* see qname */
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, sb) != 0 || S_ISDIR(sb->st_mode)) {
        e = fd < 0 || !S_ISDIR(sb->st_mode) ? errno : EISDIR;
        if (fd >= 0)
            close(fd);
        goto io_error;
    }
    for (;;) {
        if (n == cap) {
            if (cap >= XSD_MAX_FILE_SIZE) {
                close(fd);
                mem_free(buf);
                tail = path_tail(path, 60, &ell);
                return fail(x, XIRI_ELIMIT, from, at,
                            "%s%s: larger than %zu MiB", ell, tail,
                            XSD_MAX_FILE_SIZE >> 20);
            }
            cap = cap ? cap * 2 : 16384;
            nb = mem_realloc(buf, cap + 1);
            if (!nb) {
                close(fd);
                mem_free(buf);
                return error_set(x->err, XIRI_ENOMEM, 0, "out of memory");
            }
            buf = nb;
        }
        got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            e = errno;
            close(fd);
            mem_free(buf);
            goto io_error;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    *data = buf;
    *len = n;
    return XIRI_OK;

io_error:
    tail = path_tail(path, from ? 40 : 80, &ell);
    if (from)
        return fail(x, XIRI_EIO, from, at, "cannot read %s%s: %s", ell, tail,
                    strerror(e));
    return error_set(x->err, XIRI_EIO, 0, "%s%s: %s", ell, tail, strerror(e));
}

/* A schemaLocation as a local path (allocated), or *out NULL when it
 * names something that is not a local file (skipped, see the top; and
 * *remote set when it names one elsewhere). */
static enum xiri_status locate(struct xsd *x, const struct sdoc *d,
                               const xmlNode *at, struct span loc, char **out,
                               bool *remote)
{
    size_t i, dirlen = 0, n;
    const char *p = loc.s, *end, *slash;
    char *path, *w;
    int hi, lo;

    *out = NULL;
    *remote = true;
    /* RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) */
    for (i = 0; i < loc.n; i++) {
        char c = loc.s[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (alpha || (i > 0 && ((c >= '0' && c <= '9') || c == '+' ||
                                c == '-' || c == '.')))
            continue;
        break;
    }
    end = loc.s + loc.n;
    if (i > 0 && i < loc.n && loc.s[i] == ':') {
        /* RFC 8089 section 2: file:///path, file://localhost/path,
         * file:/path; every other scheme is remote or unknown. */
        if (i != 4 || strncasecmp(loc.s, "file", 4) != 0)
            return XIRI_OK;
        p = loc.s + 5;
        if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
            p += 2;
            slash = memchr(p, '/', (size_t)(end - p));
            if (!slash)
                return XIRI_OK;
            if (slash != p && !((size_t)(slash - p) == 9 &&
                                strncasecmp(p, "localhost", 9) == 0))
                return XIRI_OK;
            p = slash;
        }
        if (p == end || *p != '/')
            return XIRI_OK;
    } else if (loc.n >= 2 && loc.s[0] == '/' && loc.s[1] == '/') {
        return XIRI_OK; /* RFC 3986 4.2: a network-path reference */
    }
    *remote = false;
    /* RFC 3986 3.4, 3.5: the query and fragment are not part of a path. */
    for (i = 0; p + i < end && p[i] != '?' && p[i] != '#'; i++)
        ;
    n = i;
    if (n == 0)
        return XIRI_OK; /* a same-document reference: nothing to load */
    if (*p != '/') {
        slash = strrchr(d->path, '/');
        dirlen = slash ? (size_t)(slash - d->path) + 1 : 0;
    }
    path = mem_alloc(dirlen + n + 1);
    if (!path)
        return error_set(x->err, XIRI_ENOMEM, 0, "out of memory");
    memcpy(path, d->path, dirlen);
    w = path + dirlen;
    /* RFC 3986 2.1: %HH is the octet HH. */
    for (i = 0; i < n; i++) {
        if (p[i] == '%' && i + 2 < n &&
            (hi = ch_hexval((unsigned char)p[i + 1])) >= 0 &&
            (lo = ch_hexval((unsigned char)p[i + 2])) >= 0) {
            if (hi == 0 && lo == 0) {
                mem_free(path);
                return fail(x, XIRI_EDOC, d, at,
                            "schemaLocation '%.*s' holds %%00",
                            (int)(loc.n > 60 ? 60 : loc.n), loc.s);
            }
            *w++ = (char)(hi * 16 + lo);
            i += 2;
        } else {
            *w++ = p[i];
        }
    }
    *w = '\0';
    *out = path;
    return XIRI_OK;
}

static enum xiri_status load(struct xsd *x, const char *path, unsigned depth,
                             const char *cham_ns, bool include,
                             const struct sdoc *from, const xmlNode *at);

/* The schema at the remote location loc (not a local file), which
 * xs:include (include) or xs:import c of d names, is not read: say so
 * (xiri_registry_notice_fn), unless it is an import of the XML or XLink
 * namespace, whose attributes the presets xml and xlink hold (W3C
 * schemas import them by http:). */
static void not_read(struct xsd *x, const struct sdoc *d, const xmlNode *c,
                     struct span loc, bool include)
{
    static const char *const covered[] = {XML_NS, XLINK_NS};
    const xmlChar *ns;
    char at[80], msg[512];
    size_t i;

    if (!include) {
        ns = attr_get(x, c, "namespace");
        for (i = 0; ns && i < ARRAY_LEN(covered); i++)
            if (strcmp((const char *)ns, covered[i]) == 0)
                return;
    }
    place(at, sizeof(at), d, c);
    snprintf(msg, sizeof(msg),
             "%s: xs:%s of '%.*s%s' not read (xiri reads local files only, "
             "never the network), so what that schema declares is not known; "
             "point schemaLocation at a local copy, or load the copy too",
             at, (const char *)c->name, (int)moji_cut(loc.s, loc.n, 100), loc.s,
             loc.n > 100 ? "..." : "");
    registry_notice(x->reg, msg);
}

/* Follow the xs:include, xs:import, xs:redefine and xs:override of d
 * (XSD 1.0 Part 1 4.2.1, 4.2.2, 4.2.3; XSD 1.1 Part 1 4.2.5). */
static enum xiri_status follow(struct xsd *x, struct sdoc *d, xmlNode *root)
{
    xmlNode *c;
    const xmlChar *v;
    bool include, remote;
    char *path;
    enum xiri_status st;

    for (c = root->children; c; c = c->next) {
        include =
            is_xs(c, "include") || is_xs(c, "redefine") || is_xs(c, "override");
        if (!include && !is_xs(c, "import"))
            continue;
        v = attr_get(x, c, "schemaLocation");
        if (!v) {
            if (x->oom)
                return XIRI_ENOMEM;
            if (include)
                return fail(x, XIRI_EDOC, d, c, "xs:%s without schemaLocation",
                            (const char *)c->name);
            continue; /* an import may name only the namespace */
        }
        st = locate(x, d, c, trim(v), &path, &remote);
        if (st != XIRI_OK)
            return st;
        if (!path && remote)
            not_read(x, d, c, trim(v), include);
        if (!path)
            continue;
        st =
            load(x, path, d->depth + 1, include ? d->tns : NULL, include, d, c);
        mem_free(path);
        if (st != XIRI_OK)
            return st;
    }
    return XIRI_OK;
}

static void sdoc_free(struct sdoc *d)
{
    if (!d)
        return;
    if (d->doc)
        xmlFreeDoc(d->doc);
    mem_free(d->path);
    mem_free(d->tns);
    mem_free(d);
}

static bool form_default(struct xsd *x, const xmlNode *root, const char *name)
{
    const xmlChar *v = attr_get(x, root, name);

    return v && span_is(trim(v), "qualified");
}

static enum xiri_status load(struct xsd *x, const char *path, unsigned depth,
                             const char *cham_ns, bool include,
                             const struct sdoc *from, const xmlNode *at)
{
    struct sdoc *d, **nd;
    struct stat sb;
    char *data;
    size_t len, i, cap;
    xmlDocPtr doc;
    xmlNode *root;
    const xmlChar *v;
    struct span tns;
    enum xiri_status st;

    if (depth > XSD_MAX_DEPTH)
        return fail(x, XIRI_ELIMIT, from, at,
                    "schemas nested deeper than %d includes or imports",
                    XSD_MAX_DEPTH);
    st = read_file(x, path, from, at, &data, &len, &sb);
    if (st != XIRI_OK)
        return st;
    /* The same file again (a cycle, or a diamond): once is enough, unless
     * a schema without a target namespace now gets another one than it
     * got then (XSD 1.0 Part 1 4.2.1: included, it takes its includer's;
     * loaded or imported, it has none). */
    for (i = 0; i < x->ndocs; i++) {
        d = x->docs[i];
        if (d->dev == sb.st_dev && d->ino == sb.st_ino &&
            ((!d->chameleon && d->tns) || /* its own target namespace */
             ns_eq(d->tns, include ? cham_ns : NULL))) {
            mem_free(data);
            return XIRI_OK;
        }
    }
    if (x->ndocs >= XSD_MAX_FILES) {
        mem_free(data);
        return fail(x, XIRI_ELIMIT, from, at, "more than %d schema files",
                    XSD_MAX_FILES);
    }

    d = mem_alloc(sizeof(*d));
    if (d) {
        memset(d, 0, sizeof(*d));
        d->path = mem_strndup(path, strlen(path));
    }
    if (!d || !d->path) {
        mem_free(d);
        mem_free(data);
        return error_set(x->err, XIRI_ENOMEM, 0, "out of memory");
    }
    d->dev = sb.st_dev;
    d->ino = sb.st_ino;
    d->depth = depth;

    x->perr_set = false;
    x->perr[0] = '\0';
    x->perr_line = 0;
    doc = xmlCtxtReadMemory(x->pctxt, data, (int)len, path, NULL,
                            XSD_PARSE_OPTIONS);
    mem_free(data);
    d->doc = doc;
    if (!doc || !x->pctxt->wellFormed || !x->pctxt->nsWellFormed) {
        const char *ell;
        const char *p = path_tail(path, 60, &ell);
        if (x->perr_set)
            st = error_set(x->err, XIRI_EDOC, 0, "%s%s:%d: %s", ell, p,
                           x->perr_line, x->perr);
        else
            st = error_set(x->err, XIRI_EDOC, 0, "%s%s: not well-formed XML",
                           ell, p);
        sdoc_free(d);
        return st;
    }
    root = xmlDocGetRootElement(doc);
    if (!root || !is_xs(root, "schema")) {
        st = fail(x, XIRI_EDOC, d, root,
                  "not an XML Schema: the root element is not "
                  "{" XSD_NS "}schema");
        sdoc_free(d);
        return st;
    }
    v = attr_get(x, root, "targetNamespace");
    tns = trim(v);
    if (tns.n) {
        d->tns = mem_strndup(tns.s, tns.n);
        if (!d->tns)
            x->oom = true;
    } else if (include && cham_ns) {
        /* XSD 1.0 Part 1 4.2.1: a schema without a target namespace
         * takes that of the schema including it. */
        d->tns = mem_strndup(cham_ns, strlen(cham_ns));
        d->chameleon = true;
        if (!d->tns)
            x->oom = true;
    }
    d->elem_qual = form_default(x, root, "elementFormDefault");
    d->attr_qual = form_default(x, root, "attributeFormDefault");
    if (x->oom) {
        sdoc_free(d);
        return error_set(x->err, XIRI_ENOMEM, 0, "out of memory");
    }
    if (x->ndocs == x->docs_cap) {
        cap = x->docs_cap ? x->docs_cap * 2 : 8;
        nd = mem_realloc(x->docs, cap * sizeof(*nd));
        if (!nd) {
            sdoc_free(d);
            return error_set(x->err, XIRI_ENOMEM, 0, "out of memory");
        }
        x->docs = nd;
        x->docs_cap = cap;
    }
    x->docs[x->ndocs++] = d;
    return follow(x, d, root);
}

enum xiri_status xiri_registry_load_schema(struct xiri_registry *reg,
                                           const char *path,
                                           struct xiri_error *err)
{
    struct xsd x;
    size_t mark, i;
    enum xiri_status st;
    xmlStructuredErrorFunc old_serror;
    void *old_sctx;
    xmlGenericErrorFunc old_generic;
    void *old_gctx;

    if (!reg || !path || !*path)
        return error_set(err, XIRI_EINVAL, 0, "no registry or no path");
    memset(&x, 0, sizeof(x));
    x.reg = reg;
    x.err = err;
    mark = registry_mark(reg);

    xmlInitParser();
    old_serror = xmlStructuredError;
    old_sctx = xmlStructuredErrorContext;
    old_generic = xmlGenericError;
    old_gctx = xmlGenericErrorContext;
    xmlSetStructuredErrorFunc(&x, on_thread_error);
    xmlSetGenericErrorFunc(&x, on_generic_error);

    x.pctxt = xmlNewParserCtxt();
    if (!x.pctxt) {
        st = error_set(err, XIRI_ENOMEM, 0, "out of memory");
    } else {
        x.pctxt->_private = &x;
        if (x.pctxt->sax)
            x.pctxt->sax->serror = on_ctxt_error;
        st = load(&x, path, 0, NULL, false, NULL, NULL);
        if (st == XIRI_OK)
            st = learn(&x);
        if (st == XIRI_OK && x.oom)
            st = error_set(err, XIRI_ENOMEM, 0, "out of memory");
        if (st == XIRI_ENOMEM)
            error_set(err, XIRI_ENOMEM, 0, "out of memory");
        xmlFreeParserCtxt(x.pctxt);
    }

    for (i = 0; i < x.nstrs; i++)
        xmlFree(x.strs[i]);
    mem_free(x.strs);
    for (i = 0; i < x.ndocs; i++)
        sdoc_free(x.docs[i]);
    mem_free(x.docs);
    mem_free(x.comps);
    mem_free(x.ctab);

    xmlSetStructuredErrorFunc(old_sctx, old_serror);
    xmlSetGenericErrorFunc(old_gctx, old_generic);
    if (st != XIRI_OK)
        registry_rollback(reg, mark);
    return st;
}

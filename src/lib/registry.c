/* registry.c - the set of IRI-valued attributes and elements: open
 * addressing hash tables keyed on (element ns, element, attribute ns,
 * attribute), a second one keyed on ASCII-lowercased local names for HTML,
 * and the '{NS}element@attr' command-line form.
 *
 * Lookups never allocate: one FNV-1a pass over the attribute's local name
 * and a 256-bit filter of registered attribute names, which rejects most
 * attributes right there; then the namespaces and the element's name are
 * hashed, and one probe finds the element's own entry, followed, only
 * when such entries exist, by one for '{NS}*' and one for '*'.  Strings
 * are interned at add time, so a namespace is stored once.  A registry
 * is filled by one thread; once filled it is read-only and may be shared
 * by any number of walkers and threads. */
#include "common.h"
#include "chars.h"
#include "mem.h"
#include "registry.h"

#include <stdio.h>
#include <strings.h>

struct entry {
    const char *ens;   /* element namespace, NULL for none */
    const char *elem;  /* local name or "*" */
    const char *ans;   /* attribute namespace, NULL for none */
    const char *attr;  /* local name, NULL for the content */
    const char *lelem; /* ASCII-lowercased copies for the HTML index */
    const char *lattr;
    uint32_t hash;   /* of the exact key */
    uint32_t lhash;  /* of the lowercased key, when in_html */
    uint32_t nhash;  /* of the attribute's local name (the element's for
                        content), for the filters */
    uint32_t lnhash; /* the same, lowercased */
    uint8_t shape;
    bool in_html; /* holds the HTML index's slot for its key */
};

struct xiri_registry {
    struct entry *entries;
    size_t count, cap;
    /* Both indexes hold entry index + 1 (0 is an empty slot); their size
     * is a power of two at least twice the number of entries. */
    uint32_t *slots;
    uint32_t *hslots;
    size_t nslots;
    /* Bit (nhash & 255) is set when some entry has that hash: filter for
     * attribute names, cfilter for elements with content entries, and
     * hfilter, hcfilter for the lowercased names of the HTML index. */
    uint64_t filter[4];
    uint64_t cfilter[4];
    uint64_t hfilter[4];
    uint64_t hcfilter[4];
    size_t wild_any; /* entries for element "*" with no namespace */
    size_t wild_ns;  /* entries for '{NS}*' */
    size_t hwild;    /* HTML index entries for "*" */
    /* xiri_registry_set_notice */
    xiri_registry_notice_fn *notice;
    void *notice_user;
    /* Interned strings: open addressing over char pointers. */
    char **strs;
    size_t nstrs, strs_cap;
};

/* ------------------------------------------------------------------ */
/* Hashing                                                             */

#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u
/* Stand-ins for "no namespace" and "the element's content". */
#define NO_NS_HASH 0x6A09E667u
#define CONTENT_HASH 0xBB67AE85u

static inline uint32_t fnv_byte(uint32_t h, unsigned char c)
{
    return (h ^ c) * FNV_PRIME;
}

static uint32_t fnv_str(uint32_t h, const char *s)
{
    for (; *s; s++)
        h = fnv_byte(h, (unsigned char)*s);
    return h;
}

static inline unsigned char ascii_lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static uint32_t fnv_lower(uint32_t h, const char *s)
{
    for (; *s; s++)
        h = fnv_byte(h, ascii_lower((unsigned char)*s));
    return h;
}

static inline uint32_t ns_hash(const char *ns)
{
    return ns ? fnv_str(FNV_OFFSET, ns) : NO_NS_HASH;
}

/* A namespace and a local name. */
static inline uint32_t pair(uint32_t ns, uint32_t name)
{
    return (ns * 0x3C6EF373u) ^ name;
}

/* Combine the element's and the attribute's hashes (a 32-bit finaliser
 * so that both halves reach every bit used for the slot). */
static inline uint32_t key_mix(uint32_t e, uint32_t a)
{
    uint32_t h = (e * 0x9E3779B1u) ^ a;

    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    h *= 0xC2B2AE3Du;
    h ^= h >> 16;
    return h;
}

/* The HTML index's key: lowercased local names, no namespaces. */
static inline uint32_t html_key(uint32_t lelem, uint32_t lattr, bool attr)
{
    return key_mix(pair(NO_NS_HASH, lelem),
                   attr ? pair(NO_NS_HASH, lattr) : CONTENT_HASH);
}

static inline bool filter_has(const uint64_t f[4], uint32_t h)
{
    return (f[(h >> 6) & 3] >> (h & 63)) & 1u;
}

static inline void filter_set(uint64_t f[4], uint32_t h)
{
    f[(h >> 6) & 3] |= (uint64_t)1 << (h & 63);
}

/* ------------------------------------------------------------------ */
/* Comparisons                                                         */

static inline bool str_eq(const char *a, const char *b)
{
    if (a == b)
        return true;
    return a && b && strcmp(a, b) == 0;
}

/* s, in any ASCII case, equals lower (already lowercased). */
static bool lower_eq(const char *s, const char *lower)
{
    for (; *s && *lower; s++, lower++)
        if (ascii_lower((unsigned char)*s) != (unsigned char)*lower)
            return false;
    return *s == *lower;
}

static inline const char *ns_norm(const char *ns)
{
    return ns && *ns ? ns : NULL;
}

/* ------------------------------------------------------------------ */
/* Interning                                                           */

static enum xiri_status intern_grow(struct xiri_registry *reg)
{
    size_t ncap = reg->strs_cap ? reg->strs_cap * 2 : 64, i, j;
    char **nt;

    if (ncap > SIZE_MAX / sizeof(*nt))
        return XIRI_ENOMEM;
    nt = mem_alloc(ncap * sizeof(*nt));
    if (!nt)
        return XIRI_ENOMEM;
    memset(nt, 0, ncap * sizeof(*nt));
    for (i = 0; i < reg->strs_cap; i++) {
        if (!reg->strs[i])
            continue;
        j = fnv_str(FNV_OFFSET, reg->strs[i]) & (ncap - 1);
        while (nt[j])
            j = (j + 1) & (ncap - 1);
        nt[j] = reg->strs[i];
    }
    mem_free(reg->strs);
    reg->strs = nt;
    reg->strs_cap = ncap;
    return XIRI_OK;
}

/* The interned copy of s (lowercased when lower); NULL stays NULL. */
static enum xiri_status intern(struct xiri_registry *reg, const char *s,
                               bool lower, const char **out)
{
    char *copy;
    size_t len, i, j;
    uint32_t h;
    bool same;

    *out = NULL;
    if (!s)
        return XIRI_OK;
    len = strlen(s);
    if (len >= XIRI_MAX_LEN)
        return XIRI_ELIMIT;
    h = lower ? fnv_lower(FNV_OFFSET, s) : fnv_str(FNV_OFFSET, s);
    if (reg->strs_cap) {
        for (j = h & (reg->strs_cap - 1); reg->strs[j];
             j = (j + 1) & (reg->strs_cap - 1)) {
            same = lower ? lower_eq(s, reg->strs[j])
                         : strcmp(s, reg->strs[j]) == 0;
            if (same) {
                *out = reg->strs[j];
                return XIRI_OK;
            }
        }
    }
    if ((reg->nstrs + 1) * 2 > reg->strs_cap && intern_grow(reg) != XIRI_OK)
        return XIRI_ENOMEM;
    copy = mem_strndup(s, len);
    if (!copy)
        return XIRI_ENOMEM;
    if (lower)
        for (i = 0; i < len; i++)
            copy[i] = (char)ascii_lower((unsigned char)copy[i]);
    for (j = h & (reg->strs_cap - 1); reg->strs[j];
         j = (j + 1) & (reg->strs_cap - 1))
        ;
    reg->strs[j] = copy;
    reg->nstrs++;
    *out = copy;
    return XIRI_OK;
}

/* ------------------------------------------------------------------ */
/* Indexes                                                             */

/* Does entry e have exactly this key? */
static bool key_eq(const struct entry *e, const char *ens, const char *elem,
                   const char *ans, const char *attr)
{
    if (attr ? !e->attr || strcmp(e->attr, attr) != 0 : e->attr != NULL)
        return false;
    return strcmp(e->elem, elem) == 0 && str_eq(e->ens, ens) &&
           str_eq(e->ans, ans);
}

/* The HTML key: lowercased element (or "*") and attribute, no
 * namespaces; e is stored lowercased, elem/attr may be in any case. */
static bool hkey_eq(const struct entry *e, const char *elem, const char *attr)
{
    if (attr ? !e->lattr || !lower_eq(attr, e->lattr) : e->lattr != NULL)
        return false;
    return lower_eq(elem, e->lelem);
}

static const struct entry *probe(const struct xiri_registry *reg, uint32_t h,
                                 const char *ens, const char *elem,
                                 const char *ans, const char *attr)
{
    size_t mask = reg->nslots - 1, i;
    const struct entry *e;

    for (i = h & mask; reg->slots[i]; i = (i + 1) & mask) {
        e = &reg->entries[reg->slots[i] - 1];
        if (e->hash == h && key_eq(e, ens, elem, ans, attr))
            return e;
    }
    return NULL;
}

static const struct entry *hprobe(const struct xiri_registry *reg, uint32_t h,
                                  const char *elem, const char *attr)
{
    size_t mask = reg->nslots - 1, i;
    const struct entry *e;

    for (i = h & mask; reg->hslots[i]; i = (i + 1) & mask) {
        e = &reg->entries[reg->hslots[i] - 1];
        if (e->lhash == h && hkey_eq(e, elem, attr))
            return e;
    }
    return NULL;
}

static void slot_put(uint32_t *slots, size_t nslots, uint32_t h, size_t idx)
{
    size_t mask = nslots - 1, i;

    for (i = h & mask; slots[i]; i = (i + 1) & mask)
        ;
    slots[i] = (uint32_t)(idx + 1);
}

/* Put entries[i] into the indexes, filters and counts. */
static void index_one(struct xiri_registry *reg, size_t i)
{
    const struct entry *e = &reg->entries[i];
    bool star = strcmp(e->elem, "*") == 0;

    slot_put(reg->slots, reg->nslots, e->hash, i);
    filter_set(e->attr ? reg->filter : reg->cfilter, e->nhash);
    if (star) {
        if (e->ens)
            reg->wild_ns++;
        else
            reg->wild_any++;
    }
    if (!e->in_html)
        return;
    slot_put(reg->hslots, reg->nslots, e->lhash, i);
    filter_set(e->attr ? reg->hfilter : reg->hcfilter, e->lnhash);
    if (star)
        reg->hwild++;
}

/* Put entries[0..count) into empty tables and recount the summaries. */
static void reindex(struct xiri_registry *reg)
{
    size_t i;

    memset(reg->filter, 0, sizeof(reg->filter));
    memset(reg->cfilter, 0, sizeof(reg->cfilter));
    memset(reg->hfilter, 0, sizeof(reg->hfilter));
    memset(reg->hcfilter, 0, sizeof(reg->hcfilter));
    reg->wild_any = reg->wild_ns = reg->hwild = 0;
    for (i = 0; i < reg->count; i++)
        index_one(reg, i);
}

/* Room for one more entry in the array and both indexes. */
static enum xiri_status reserve_one(struct xiri_registry *reg)
{
    size_t ncap, nslots;
    struct entry *ne;
    uint32_t *s, *hs;

    if (reg->count == reg->cap) {
        ncap = reg->cap ? reg->cap * 2 : 32;
        if (ncap > UINT32_MAX / 4 || ncap > SIZE_MAX / sizeof(*ne))
            return XIRI_ELIMIT;
        ne = mem_realloc(reg->entries, ncap * sizeof(*ne));
        if (!ne)
            return XIRI_ENOMEM;
        reg->entries = ne;
        reg->cap = ncap;
    }
    if ((reg->count + 1) * 2 <= reg->nslots)
        return XIRI_OK;
    nslots = reg->nslots ? reg->nslots * 2 : 64;
    s = mem_alloc(nslots * sizeof(*s));
    hs = mem_alloc(nslots * sizeof(*hs));
    if (!s || !hs) {
        mem_free(s);
        mem_free(hs);
        return XIRI_ENOMEM;
    }
    memset(s, 0, nslots * sizeof(*s));
    memset(hs, 0, nslots * sizeof(*hs));
    mem_free(reg->slots);
    mem_free(reg->hslots);
    reg->slots = s;
    reg->hslots = hs;
    reg->nslots = nslots;
    reindex(reg);
    return XIRI_OK;
}

/* ------------------------------------------------------------------ */
/* Public: building                                                    */

static const char *const shape_names[XIRI_SHAPE_COUNT] = {
    [XIRI_SHAPE_IRI] = "iri",
    [XIRI_SHAPE_LIST] = "list",
    [XIRI_SHAPE_SRCSET] = "srcset",
    [XIRI_SHAPE_REFRESH] = "refresh",
    [XIRI_SHAPE_IDENTIFIER] = "identifier",
    [XIRI_SHAPE_PAIRS] = "pairs",
    [XIRI_SHAPE_RESOLVED_IDENTIFIER] = "resolved-identifier",
    [XIRI_SHAPE_HASH_NAME] = "hash-name",
    [XIRI_SHAPE_KML_TEMPLATE] = "kml-template",
    [XIRI_SHAPE_CSS] = "css",
};

const char *xiri_shape_name(enum xiri_shape shape)
{
    if ((unsigned)shape >= XIRI_SHAPE_COUNT)
        return "unknown";
    return shape_names[shape];
}

void registry_shape_list(char *out, size_t size)
{
    size_t i, used = 0;

    if (size == 0)
        return;
    out[0] = '\0';
    for (i = 0; i < XIRI_SHAPE_COUNT && used < size; i++) {
        int w = snprintf(out + used, size - used, "%s%s", i ? ", " : "",
                         shape_names[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

bool registry_shape_from_name(const char *s, size_t len, enum xiri_shape *out)
{
    size_t i;

    for (i = 0; i < XIRI_SHAPE_COUNT; i++)
        if (strlen(shape_names[i]) == len &&
            memcmp(shape_names[i], s, len) == 0) {
            *out = (enum xiri_shape)i;
            return true;
        }
    return false;
}

enum xiri_status xiri_registry_new(struct xiri_registry **out)
{
    struct xiri_registry *reg;

    if (!out)
        return XIRI_EINVAL;
    *out = NULL;
    reg = mem_alloc(sizeof(*reg));
    if (!reg)
        return XIRI_ENOMEM;
    memset(reg, 0, sizeof(*reg));
    *out = reg;
    return XIRI_OK;
}

void xiri_registry_free(struct xiri_registry *reg)
{
    size_t i;

    if (!reg)
        return;
    for (i = 0; i < reg->strs_cap; i++)
        mem_free(reg->strs[i]);
    mem_free(reg->strs);
    mem_free(reg->entries);
    mem_free(reg->slots);
    mem_free(reg->hslots);
    mem_free(reg);
}

void xiri_registry_set_notice(struct xiri_registry *reg,
                              xiri_registry_notice_fn *fn, void *user)
{
    if (!reg)
        return;
    reg->notice = fn;
    reg->notice_user = user;
}

void registry_notice(const struct xiri_registry *reg, const char *message)
{
    if (reg && reg->notice)
        reg->notice(reg->notice_user, message);
}

size_t xiri_registry_count(const struct xiri_registry *reg)
{
    return reg ? reg->count : 0;
}

enum xiri_status xiri_registry_add(struct xiri_registry *reg,
                                   const char *element_ns, const char *element,
                                   const char *attr_ns, const char *attr,
                                   enum xiri_shape shape)
{
    struct entry e;
    uint32_t he, ha;
    enum xiri_status st;
    bool star;

    if (!reg || !element || !*element || (attr && !*attr) ||
        (unsigned)shape >= XIRI_SHAPE_COUNT)
        return XIRI_EINVAL;
    star = strcmp(element, "*") == 0;
    /* The content of every element cannot be an IRI: "*" needs an
     * attribute.  A processing instruction ("?target") has pseudo-
     * attributes and no namespace. */
    if (star && !attr)
        return XIRI_EINVAL;
    if (element[0] == '?' &&
        (!element[1] || !attr || (element_ns && *element_ns) ||
         (attr_ns && *attr_ns)))
        return XIRI_EINVAL;
    element_ns = ns_norm(element_ns);
    attr_ns = attr ? ns_norm(attr_ns) : NULL;

    memset(&e, 0, sizeof(e));
    e.nhash = fnv_str(FNV_OFFSET, attr ? attr : element);
    e.lnhash = fnv_lower(FNV_OFFSET, attr ? attr : element);
    ha = attr ? pair(ns_hash(attr_ns), e.nhash) : CONTENT_HASH;
    he = pair(ns_hash(element_ns), fnv_str(FNV_OFFSET, element));
    e.hash = key_mix(he, ha);
    if (reg->nslots && probe(reg, e.hash, element_ns, element, attr_ns, attr))
        return XIRI_OK; /* the first registration keeps its shape */

    st = reserve_one(reg);
    if (st == XIRI_OK)
        st = intern(reg, element_ns, false, &e.ens);
    if (st == XIRI_OK)
        st = intern(reg, element, false, &e.elem);
    if (st == XIRI_OK)
        st = intern(reg, attr_ns, false, &e.ans);
    if (st == XIRI_OK)
        st = intern(reg, attr, false, &e.attr);
    if (st == XIRI_OK)
        st = intern(reg, element, true, &e.lelem);
    if (st == XIRI_OK)
        st = intern(reg, attr, true, &e.lattr);
    if (st != XIRI_OK)
        return st;
    e.shape = (uint8_t)shape;

    /* HTML documents have no namespaces: their elements match the XHTML
     * entries, and "*" entries match any element (registry.h). */
    if (!e.ans &&
        ((e.ens && strcmp(e.ens, XHTML_NS) == 0) || (!e.ens && star))) {
        e.lhash = html_key(fnv_str(FNV_OFFSET, e.lelem),
                           e.lattr ? fnv_str(FNV_OFFSET, e.lattr) : 0,
                           e.lattr != NULL);
        e.in_html = !hprobe(reg, e.lhash, e.lelem, e.lattr);
    }

    reg->entries[reg->count] = e;
    index_one(reg, reg->count);
    reg->count++;
    return XIRI_OK;
}

size_t registry_mark(const struct xiri_registry *reg)
{
    return reg->count;
}

void registry_rollback(struct xiri_registry *reg, size_t mark)
{
    if (mark >= reg->count)
        return;
    reg->count = mark;
    if (reg->nslots) {
        memset(reg->slots, 0, reg->nslots * sizeof(*reg->slots));
        memset(reg->hslots, 0, reg->nslots * sizeof(*reg->hslots));
    }
    reindex(reg);
}

bool registry_entry_at(const struct xiri_registry *reg, size_t i,
                       struct registry_entry *out)
{
    const struct entry *e;

    if (!reg || i >= reg->count)
        return false;
    e = &reg->entries[i];
    out->element_ns = e->ens;
    out->element = e->elem;
    out->attr_ns = e->ans;
    out->attr = e->attr;
    out->shape = (enum xiri_shape)e->shape;
    return true;
}

/* ------------------------------------------------------------------ */
/* Public: the '{NS}element@attr' form                                 */

struct spec_part {
    const char *ns; /* NULL when no '{...}' was written (or it was empty) */
    size_t ns_len;
    const char *name;
    size_t name_len;
};

/* A name may not hold the delimiters of the form or white space. */
static size_t bad_name_char(const char *s, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (strchr("{}@= \t\r\n", s[i]) || (unsigned char)s[i] < 0x20)
            return i;
    return len;
}

/* Parse '{NS}name' or 'name' from spec[*i..end) up to one of stops. */
static enum xiri_status spec_name(const char *spec, size_t *i, size_t end,
                                  const char *stops, const char *what,
                                  struct spec_part *p, struct xiri_error *err)
{
    const char *close;
    size_t start, n, bad;
    const char *colon;

    memset(p, 0, sizeof(*p));
    if (*i < end && spec[*i] == '{') {
        close = memchr(spec + *i, '}', end - *i);
        if (!close)
            return error_set(err, XIRI_ESYNTAX, *i,
                             "'%.60s': missing '}' after the namespace "
                             "opened at offset %zu",
                             spec, *i);
        if ((size_t)(close - spec) > *i + 1) {
            p->ns = spec + *i + 1;
            p->ns_len = (size_t)(close - spec) - *i - 1;
        }
        *i = (size_t)(close - spec) + 1;
    }
    start = *i;
    while (*i < end && !strchr(stops, spec[*i]))
        (*i)++;
    n = *i - start;
    bad = bad_name_char(spec + start, n);
    if (bad < n)
        return error_set(err, XIRI_ESYNTAX, start + bad,
                         "'%.60s': '%c' at offset %zu is not allowed in %s "
                         "name",
                         spec, spec[start + bad], start + bad, what);
    colon = memchr(spec + start, ':', n);
    if (colon && !p->ns && colon - (spec + start) == 3 &&
        memcmp(spec + start, "xml", 3) == 0) {
        /* Namespaces in XML 1.0 section 3: "xml" is bound by definition. */
        p->ns = XML_NS;
        p->ns_len = strlen(XML_NS);
        start += 4;
        n -= 4;
        colon = memchr(spec + start, ':', n);
    }
    if (colon)
        return error_set(err, XIRI_ESYNTAX, (size_t)(colon - spec),
                         "'%.60s': %s name with a prefix; write the "
                         "namespace instead: '{URI}local'",
                         spec, what);
    p->name = spec + start;
    p->name_len = n;
    return XIRI_OK;
}

/* s[0..n) is an XML Name without a colon (ch_is_xml_name_ascii;
 * Namespaces in XML 1.0 section 7: no target holds one). */
static bool pi_target_name(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (s[i] == ':' || !ch_is_xml_name_ascii((unsigned char)s[i], i == 0))
            return false;
    return n > 0;
}

enum xiri_status xiri_registry_add_spec(struct xiri_registry *reg,
                                        const char *spec,
                                        struct xiri_error *err)
{
    struct spec_part el, at;
    enum xiri_shape shape = XIRI_SHAPE_IRI;
    char *ens = NULL, *elem = NULL, *ans = NULL, *attr = NULL;
    size_t i = 0, end, eq, el_end;
    bool has_attr = false;
    const char *p;
    enum xiri_status st;

    if (!reg || !spec)
        return error_set(err, XIRI_EINVAL, 0, "no registry or no spec");
    end = strlen(spec);
    if (end >= XIRI_MAX_LEN)
        return error_set(err, XIRI_ELIMIT, 0, "spec too long");
    /* An optional '=SHAPE' suffix (after the namespace braces). */
    eq = end;
    p = strrchr(spec, '=');
    if (p && !strchr(p, '}')) {
        eq = (size_t)(p - spec);
        if (!registry_shape_from_name(p + 1, end - eq - 1, &shape)) {
            char names[160];

            registry_shape_list(names, sizeof(names));
            return error_set(err, XIRI_ESYNTAX, eq + 1,
                             "'%.60s': unknown shape '%.20s' (%s)", spec, p + 1,
                             names);
        }
    }
    memset(&at, 0, sizeof(at));
    st = spec_name(spec, &i, eq, "@", "an element", &el, err);
    if (st != XIRI_OK)
        return st;
    el_end = i;
    if (i < eq && spec[i] == '@') {
        has_attr = true;
        i++;
        st = spec_name(spec, &i, eq, "", "an attribute", &at, err);
        if (st != XIRI_OK)
            return st;
        if (at.name_len == 0)
            return error_set(err, XIRI_ESYNTAX, i,
                             "'%.60s': empty attribute name after '@'", spec);
        if (at.name_len == 1 && at.name[0] == '*')
            return error_set(err, XIRI_ESYNTAX, i - 1,
                             "'%.60s': the attribute must be named, not "
                             "'*'",
                             spec);
    }
    if (el.name_len == 0) {
        if (!has_attr)
            return error_set(err, XIRI_ESYNTAX, i,
                             "'%.60s': empty element name", spec);
        if (el.ns)
            return error_set(err, XIRI_ESYNTAX, el_end,
                             "'%.60s': element name missing after '}' "
                             "(write '{NS}*@attr' for any element of NS)",
                             spec);
    } else if (el.name[0] == '?' &&
               (!has_attr || el.ns || at.ns || el.name_len == 1)) {
        return error_set(err, XIRI_ESYNTAX, 0,
                         "'%.60s': a processing instruction is written "
                         "'?target@pseudo-attribute', with no namespace",
                         spec);
    } else if (el.name[0] == '?' &&
               (!pi_target_name(el.name + 1, el.name_len - 1) ||
                (el.name_len == 4 &&
                 strncasecmp(el.name + 1, "xml", 3) == 0))) {
        /* XML 1.0 2.6: PITarget is a Name other than "xml" in any case
         * (the XML declaration is no processing instruction) */
        return error_set(err, XIRI_ESYNTAX, 1,
                         "'%.60s': no processing instruction has the target "
                         "'%.*s'",
                         spec, (int)(el.name_len - 1), el.name + 1);
    } else if (!has_attr && el.name_len == 1 && el.name[0] == '*') {
        return error_set(err, XIRI_ESYNTAX, 0,
                         "'%.60s': '*' needs an attribute ('*@attr'): the "
                         "content of every element is not an IRI",
                         spec);
    }

    st = XIRI_ENOMEM;
    if (el.ns && !(ens = mem_strndup(el.ns, el.ns_len)))
        goto out;
    if (!(elem = el.name_len ? mem_strndup(el.name, el.name_len)
                             : mem_strndup("*", 1)))
        goto out;
    if (at.ns && !(ans = mem_strndup(at.ns, at.ns_len)))
        goto out;
    if (has_attr && !(attr = mem_strndup(at.name, at.name_len)))
        goto out;
    st = xiri_registry_add(reg, ens, elem, ans, attr, shape);
    if (st != XIRI_OK)
        error_set(err, st, 0, "'%.60s': %s", spec, xiri_strerror(st));
out:
    if (st == XIRI_ENOMEM)
        error_set(err, st, 0, "%s", xiri_strerror(st));
    mem_free(ens);
    mem_free(elem);
    mem_free(ans);
    mem_free(attr);
    return st;
}

/* ------------------------------------------------------------------ */
/* Lookups (registry.h)                                                */

bool registry_find_attr(const struct xiri_registry *reg, const char *element_ns,
                        const char *element, const char *attr_ns,
                        const char *attr, bool html, enum xiri_shape *shape)
{
    const struct entry *e = NULL;
    uint32_t hn, ha, hens;

    if (!reg || !reg->count || !element || !attr)
        return false;
    attr_ns = ns_norm(attr_ns);
    if (html && !attr_ns) {
        hn = fnv_lower(FNV_OFFSET, attr);
        if (!filter_has(reg->hfilter, hn))
            return false;
        e = hprobe(reg, html_key(fnv_lower(FNV_OFFSET, element), hn, true),
                   element, attr);
        if (!e && reg->hwild)
            e = hprobe(reg, html_key(fnv_str(FNV_OFFSET, "*"), hn, true), "*",
                       attr);
    } else {
        hn = fnv_str(FNV_OFFSET, attr);
        if (!filter_has(reg->filter, hn))
            return false;
        ha = pair(ns_hash(attr_ns), hn);
        element_ns = ns_norm(element_ns);
        hens = ns_hash(element_ns);
        e = probe(reg, key_mix(pair(hens, fnv_str(FNV_OFFSET, element)), ha),
                  element_ns, element, attr_ns, attr);
        if (!e && reg->wild_ns && element_ns)
            e = probe(reg, key_mix(pair(hens, fnv_str(FNV_OFFSET, "*")), ha),
                      element_ns, "*", attr_ns, attr);
        if (!e && reg->wild_any)
            e = probe(reg,
                      key_mix(pair(NO_NS_HASH, fnv_str(FNV_OFFSET, "*")), ha),
                      NULL, "*", attr_ns, attr);
    }
    if (!e)
        return false;
    if (shape)
        *shape = (enum xiri_shape)e->shape;
    return true;
}

bool registry_find_pi(const struct xiri_registry *reg, const char *target,
                      const char *attr, enum xiri_shape *shape)
{
    const struct entry *e;
    size_t i;

    if (!reg || !reg->count || !target || target[0] != '?')
        return false;
    if (!attr) {
        /* asked once a processing instruction: a walk over the entries */
        for (i = 0; i < reg->count; i++)
            if (reg->entries[i].elem[0] == '?' &&
                strcmp(reg->entries[i].elem, target) == 0)
                return true;
        return false;
    }
    e = probe(reg,
              key_mix(pair(NO_NS_HASH, fnv_str(FNV_OFFSET, target)),
                      pair(NO_NS_HASH, fnv_str(FNV_OFFSET, attr))),
              NULL, target, NULL, attr);
    if (!e)
        return false;
    if (shape)
        *shape = (enum xiri_shape)e->shape;
    return true;
}

bool registry_find_content(const struct xiri_registry *reg,
                           const char *element_ns, const char *element,
                           bool html, enum xiri_shape *shape)
{
    const struct entry *e;
    uint32_t hn;

    if (!reg || !reg->count || !element)
        return false;
    if (html) {
        hn = fnv_lower(FNV_OFFSET, element);
        if (!filter_has(reg->hcfilter, hn))
            return false;
        e = hprobe(reg, html_key(hn, 0, false), element, NULL);
    } else {
        hn = fnv_str(FNV_OFFSET, element);
        if (!filter_has(reg->cfilter, hn))
            return false;
        element_ns = ns_norm(element_ns);
        e = probe(reg, key_mix(pair(ns_hash(element_ns), hn), CONTENT_HASH),
                  element_ns, element, NULL, NULL);
    }
    if (!e)
        return false;
    if (shape)
        *shape = (enum xiri_shape)e->shape;
    return true;
}

/* to_iri.c - converting a URI to an IRI, RFC 3987 section 3.2: decode the
 * escapes that stand for characters an IRI may hold at that position and
 * that show what they are, and keep every other escape; a component only
 * where it is then well-formed for bidi (section 4.2), a DNS name's host
 * only where section 3.1 maps it back. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "idn.h"
#include "parse.h"
#include "pct.h"
#include "scheme.h"
#include "to_iri.h"
#include "to_uri.h"
#include "unicode.h"

struct to_iri {
    struct xiri_ctx *ctx; /* the caller's, else own (made when needed) */
    struct xiri_ctx *own;
    const char *s;
    const struct ref *r; /* s parsed */
    const struct span *query;
    bool in_host;        /* converting a DNS name's host (convert_dns_host) */
    bool keep_hosts;     /* TO_IRI_KEEP_HOSTS */
    bool host_kept;      /* one did not map back: the value is kept whole */
    enum xiri_status st; /* the first failure of the keep callback */
};

/* The context for IDNA and the spoof checker: the caller's, or one of
 * our own, made on first use; NULL (t->st set) when memory ran out. */
static struct xiri_ctx *ctx_of(struct to_iri *t)
{
    if (!t->ctx && t->st == XIRI_OK) {
        t->st = xiri_ctx_new(&t->own);
        t->ctx = t->own;
    }
    return t->ctx;
}

/* Would cp, unescaped, pass for delimiters (uni_passes_for_delimiter:
 * U+2215 DIVISION SLASH, U+FF06 FULLWIDTH AMPERSAND, U+2024 ONE DOT
 * LEADER; in a host a letter too, U+30CE KATAKANA LETTER NO: DNS takes
 * it, and "bank.exampleノlogin..." reads as a path)?  True also when that
 * cannot be told. */
static bool lookalike(struct to_iri *t, uint32_t cp)
{
    struct xiri_ctx *ctx;
    bool yes = true;
    enum xiri_status st;

    if (!t->in_host && !uni_is_punct_or_symbol(cp))
        return false;
    ctx = ctx_of(t);
    if (!ctx)
        return true;
    st = uni_passes_for_delimiter(ctx, cp, t->in_host, &yes);
    if (st == XIRI_ENOMEM && t->st == XIRI_OK)
        t->st = st;
    return st != XIRI_OK || yes;
}

/* Would a combining mark, or a character that NFC may join to the one
 * before it, join something of the syntax: nothing (the start), an ASCII
 * character other than a letter or digit ('=' and U+0338 are U+2260 in
 * NFC), or the last hex digit of an escape (an 'É' would break it)?  A
 * mark after a letter stays a mark on that letter ("e%CC%81", a file
 * name in NFD). */
static bool joins_syntax(const struct buf *o)
{
    unsigned char last;

    if (o->len == 0)
        return true;
    last = (unsigned char)o->data[o->len - 1];
    if (last >= 0x80)
        return false;
    if (!ch_is(last, CH_ALPHA | CH_DIGIT))
        return true;
    return o->len >= 3 && o->data[o->len - 3] == '%' &&
           ch_is_pct(o->data, o->len, o->len - 3);
}

/* pct_normalize's keep (RFC 3987 3.2 step 4 leaves to the converter the
 * escapes it keeps, section 6.1): a character an IRI allows stays escaped
 * when, unescaped, it
 * - would not be seen (cp_hides_in_iri: white space past ASCII, the
 *   default-ignorable characters; section 6.1), or is not assigned (no
 *   font shows it, and its direction, for section 4.2, is a guess);
 * - is ASCII in NFC (U+037E GREEK QUESTION MARK is ';', U+1FEF GREEK
 *   VARIA '`': section 5.3.2.2 compares IRIs in NFC);
 * - would join something of the syntax before it (joins_syntax): a
 *   combining mark (an enclosing one, U+20E3, draws a keycap round a '#')
 *   or a character without an NFC boundary before it;
 * - would pass for a delimiter (sections 7.5 and 8: the host
 *   "bank.example∕login.evil.example" is no bank's). */
static bool keep_escaped(void *user, uint32_t cp, const struct buf *o)
{
    struct to_iri *t = user;

    if (cp_hides_in_iri(cp) || uni_nfc_ascii(cp) || !uni_is_assigned(cp))
        return true;
    if ((uni_is_mark(cp) || !uni_nfc_boundary_before(cp)) && joins_syntax(o))
        return true;
    return lookalike(t, cp);
}

/* Convert s[from..to), one component or a run of them, into o: RFC 3987
 * 3.2 steps 2 to 4, shared with the normalizer (pct.c), and a character
 * no IRI holds escaped (PCT_RAW).  %2E stays escaped so that no new "."
 * or ".." segment appears (%2E%2E is not a dot segment in RFC 3986 5.2.4,
 * ".." is). */
static void convert_text(struct to_iri *t, struct buf *o, size_t from,
                         size_t to)
{
    pct_normalize(o, t->s, from, to, t->query, PCT_UTF8 | PCT_RAW, keep_escaped,
                  t);
}

/* Replace what o holds from start on with s[from..to) converted with no
 * decoding but that of unreserved ASCII (pct_normalize without PCT_UTF8):
 * the value, component or host as written, still a URI. */
static void convert_kept(struct to_iri *t, struct buf *o, size_t start,
                         size_t from, size_t to)
{
    o->len = start;
    pct_normalize(o, t->s, from, to, t->query, PCT_RAW, NULL, NULL);
}

/* The part of t->s holding position i whose components have a direction
 * (uni_bidi_parts), with the delimiters between its components, and *end
 * where it ends (at most to); NULL, and *end where the next such part
 * starts, between them (the scheme, the syntax, a port, an IP
 * literal). */
static const char *bidi_part(const struct to_iri *t, size_t i, size_t to,
                             size_t *end)
{
    size_t k, next = to;

    for (k = 0; k < UNI_BIDI_PARTS; k++) {
        const struct span *p = &t->r->part[uni_bidi_parts[k].part];

        if (!p->set || p->len == 0 ||
            (uni_bidi_parts[k].part == XIRI_PART_HOST && t->s[p->off] == '['))
            continue;
        if (p->off <= i && i < p->off + p->len) {
            *end = p->off + p->len < to ? p->off + p->len : to;
            return uni_bidi_parts[k].delims;
        }
        if (p->off > i && p->off < next)
            next = p->off;
    }
    *end = next;
    return NULL;
}

/* Is every component of s[0..n) (between the delimiters) well-formed
 * for bidi (RFC 3987 4.2, rules 1 and 2)? */
static bool bidi_ok(const char *s, size_t n, const char *delims)
{
    size_t i = 0, j;
    struct uni_bidi_scan b;

    for (;;) {
        for (j = i; j < n && !memchr(delims, s[j], strlen(delims)); j++)
            ;
        uni_bidi_scan(s + i, j - i, &b);
        if (!uni_bidi_well_formed(&b))
            return false;
        if (j >= n)
            return true;
        i = j + 1;
    }
}

/* Convert s[from..to) component by component (bidi_part): a component
 * that decoded is not well-formed for bidi (RFC 3987 4.2: right-to-left
 * characters mixed with left-to-right ones, or not at both ends; section
 * 8: such an IRI may display in another order, "http://ex/א/1" as if
 * "1/א") keeps its escapes, only unreserved ASCII decoded. */
static void convert_value(struct to_iri *t, struct buf *o, size_t from,
                          size_t to)
{
    size_t i = from;

    while (i < to && o->status == XIRI_OK) {
        size_t end, j, start = o->len;
        const char *delims = bidi_part(t, i, to, &end);

        if (!delims) {
            convert_text(t, o, i, end);
            i = end;
            continue;
        }
        for (j = i; j < end && !memchr(delims, t->s[j], strlen(delims)); j++)
            ;
        convert_text(t, o, i, j);
        if (o->status == XIRI_OK &&
            !bidi_ok(o->data + start, o->len - start, ""))
            convert_kept(t, o, start, i, j);
        if (j < end) { /* the delimiter */
            convert_text(t, o, j, j + 1);
            j++;
        }
        i = j;
    }
}

/* Does every character of the label s[0..n) show as itself in an IRI's
 * host (an ireg-name character, not hidden, no look-alike)? */
static bool label_shows(struct to_iri *t, const char *s, size_t n)
{
    size_t i, k;
    uint32_t cp;

    for (i = 0; i < n; i += k) {
        k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k == 0 || (cp >= 0x80 && (!pct_iri_allowed(cp, false) ||
                                      cp_hides_in_iri(cp) || lookalike(t, cp))))
            return false;
    }
    return true;
}

/* --idn=unicode: append the host h[0..n) (converted text) with each xn--
 * label as IDNA ToUnicode gives it, when the whole name converts without
 * error and the label shows as itself; every other label as it is, case
 * and all. */
static enum xiri_status unicode_labels(struct to_iri *t, struct buf *o,
                                       const char *h, size_t n)
{
    struct buf u;
    struct idn *idn;
    uint32_t errors = 0;
    enum xiri_status st;
    size_t i = 0, j = 0, hl, ul, labels_h = 1, labels_u = 1;
    struct xiri_ctx *ctx = ctx_of(t);

    for (i = 0; i < n; i++)
        labels_h += h[i] == '.';
    if (!ch_has_ace_label(h, 0, n) || !ctx) {
        buf_append(o, h, n); /* no xn-- label */
        return t->st;
    }
    buf_init(&u, XIRI_MAX_LEN);
    st = idn_for_ctx(ctx, &idn);
    if (st == XIRI_OK)
        st = idn_to_unicode(idn, h, n, &u, &errors);
    for (i = 0; st == XIRI_OK && i < u.len; i++)
        labels_u += u.data[i] == '.';
    if (st != XIRI_OK || errors || u.status != XIRI_OK ||
        labels_u != labels_h) {
        buf_append(o, h, n);
        buf_free(&u);
        return st;
    }
    for (i = j = 0; i <= n; i = i + hl + 1, j = j + ul + 1) {
        for (hl = 0; i + hl < n && h[i + hl] != '.'; hl++)
            ;
        for (ul = 0; j + ul < u.len && u.data[j + ul] != '.'; ul++)
            ;
        if (i > 0)
            buf_putc(o, '.');
        if (ch_is_ace_label(h, i, i + hl) && label_shows(t, u.data + j, ul))
            buf_append(o, u.data + j, ul);
        else
            buf_append(o, h + i, hl);
    }
    buf_free(&u);
    return t->st;
}

/* Append the host s[off..off+len) of a DNS name (an http, https, ftp, ws
 * or wss URI's, or a mailto address's domain): converted as text (and
 * its xn-- labels by ToUnicode with --idn=unicode); t->host_kept when
 * section 3.1 with IDNA does not map the result back (to_uri_host_maps:
 * "r%C3%A9sum%C3%A9-.example", "résumé-.example" breaks IDNA's hyphen
 * rule). */
static enum xiri_status convert_dns_host(struct to_iri *t, struct buf *o,
                                         size_t off, size_t len,
                                         enum xiri_idn idn)
{
    enum xiri_status st = XIRI_OK;
    size_t start = o->len;
    bool ok = true;

    t->in_host = true;
    if (idn == XIRI_IDN_UNICODE) {
        /* (the text first, then its labels) */
        struct buf h;

        buf_init(&h, XIRI_MAX_LEN);
        convert_text(t, &h, off, off + len);
        st = h.status != XIRI_OK
                 ? h.status
                 : unicode_labels(t, o, h.data ? h.data : "", h.len);
        buf_free(&h);
    } else {
        convert_text(t, o, off, off + len);
    }
    t->in_host = false;
    /* each label as a component of RFC 3987 4.2, as check.c reads it
     * (IDNA's bidi rule, RFC 5893 2, lets a right-to-left label end with
     * a digit or a mark, "א1"): a host one of whose labels is not
     * well-formed keeps its escapes and xn-- labels */
    if (st == XIRI_OK && o->status == XIRI_OK &&
        !bidi_ok(o->data + start, o->len - start, "."))
        convert_kept(t, o, start, off, off + len);
    /* (an all-ASCII host needs no IDNA, nor a context) */
    if (st == XIRI_OK && o->status == XIRI_OK &&
        to_uri_needs_idna(o->data + start, o->len - start) && ctx_of(t))
        st = to_uri_host_maps(t->ctx, o->data + start, o->len - start, &ok);
    if (st == XIRI_OK && !ok)
        t->host_kept = true;
    return st != XIRI_OK ? st : t->st;
}

/* mailto (RFC 6068 2): the domain of each comma-separated addr-spec is
 * a DNS name (as to_uri.c maps it). */
static enum xiri_status convert_mailto_path(struct to_iri *t, struct buf *o,
                                            size_t off, size_t len,
                                            enum xiri_idn idn)
{
    size_t i = off, end = off + len;
    enum xiri_status st = XIRI_OK;

    while (i < end && st == XIRI_OK) {
        size_t at, addr_end = scheme_mailto_address(t->s, i, end, &at);

        if (at == SIZE_MAX) {
            convert_text(t, o, i, addr_end);
        } else {
            convert_text(t, o, i, at + 1);
            if (t->keep_hosts)
                buf_append(o, t->s + at + 1, addr_end - at - 1);
            else
                st = convert_dns_host(t, o, at + 1, addr_end - at - 1, idn);
        }
        if (addr_end < end)
            buf_putc(o, ',');
        i = addr_end + 1;
    }
    return st;
}

enum xiri_status to_iri_append(struct xiri_ctx *ctx, const char *s, size_t len,
                               enum xiri_idn idn, unsigned flags, struct buf *o,
                               struct xiri_error *err)
{
    bool dns = flags & TO_IRI_DNS;
    struct ref r;
    struct to_iri t;
    enum xiri_status st;
    const struct span *h, *scheme, *path;
    size_t start = o->len;

    st = ref_parse(s, len, XIRI_PROFILE_LEIRI, &r, NULL, err);
    if (st != XIRI_OK)
        return st;
    h = &r.part[XIRI_PART_HOST];
    scheme = &r.part[XIRI_PART_SCHEME];
    path = &r.part[XIRI_PART_PATH];
    t.ctx = ctx;
    t.own = NULL;
    t.s = s;
    t.r = &r;
    t.query = &r.part[XIRI_PART_QUERY];
    t.in_host = t.host_kept = false;
    t.keep_hosts = flags & TO_IRI_KEEP_HOSTS;
    t.st = XIRI_OK;
    if (scheme->set)
        dns = scheme_is_dns(s + scheme->off, scheme->len);
    buf_reserve(o, len);
    if (h->set && t.keep_hosts) {
        convert_value(&t, o, 0, h->off);
        buf_append(o, s + h->off, h->len);
        convert_value(&t, o, h->off + h->len, len);
    } else if (h->set && dns) {
        convert_value(&t, o, 0, h->off);
        st = convert_dns_host(&t, o, h->off, h->len, idn);
        convert_value(&t, o, h->off + h->len, len);
    } else if (scheme->set && !h->set &&
               scheme_is(s + scheme->off, scheme->len, "mailto")) {
        size_t at;

        convert_value(&t, o, 0, path->off);
        at = o->len;
        st = convert_mailto_path(&t, o, path->off, path->len, idn);
        /* (the path's components as for bidi_part: "א@ex.org" mixes) */
        if (st == XIRI_OK && o->status == XIRI_OK &&
            !bidi_ok(o->data + at, o->len - at,
                     uni_bidi_parts[UNI_BIDI_PATH].delims))
            convert_kept(&t, o, at, path->off, path->off + path->len);
        convert_value(&t, o, path->off + path->len, len);
    } else {
        convert_value(&t, o, 0, len);
    }
    if (st == XIRI_OK && t.host_kept) {
        /* a host the default to-uri cannot map (it leaves the whole value
         * as it is): nothing decoded, so that the value stays a URI and
         * a rewrite to URIs gives it back */
        convert_kept(&t, o, start, 0, len);
    }
    if (st == XIRI_OK)
        st = t.st != XIRI_OK ? t.st : o->status;
    xiri_ctx_free(t.own);
    if (st != XIRI_OK)
        return error_set(err, st, 0, "%s", xiri_strerror(st));
    return XIRI_OK;
}

enum xiri_status xiri_to_iri(struct xiri_ctx *ctx, const char *s, size_t len,
                             enum xiri_idn idn, char **out, size_t *out_len,
                             struct xiri_error *err)
{
    struct buf o;
    enum xiri_status st;

    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if ((!s && len) || (idn == XIRI_IDN_UNICODE && !ctx))
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    buf_init(&o, XIRI_MAX_LEN);
    st = to_iri_append(ctx, s ? s : "", len, idn, 0, &o, err);
    if (st != XIRI_OK) {
        buf_free(&o);
        return st;
    }
    return buf_take(&o, out, out_len);
}

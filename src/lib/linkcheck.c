/* linkcheck.c - xiri_check_link(): the engine's checks on one link found in
 * a document, plus the checks that need the document (its base, its
 * encoding): no-base, query-encoding, replacement-char, c1-control. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "codes.h"
#include "htmlauth.h"
#include "htmltrim.h"
#include "htmlurl.h"
#include "linkcheck.h"
#include "mojibake.h"
#include "parse.h"
#include "registry.h"
#include "scheme.h"
#include "unicode.h"
#include "walk.h"

#include <stdarg.h>
#include <stdio.h>

/* Longest form of a query quoted in a message (bytes). */
#define LC_FORM_MAX 160

struct lc {
    struct xiri_ctx *ctx; /* keeps uni_encode_query's converters */
    const struct xiri_link *link;
    const char *encoding; /* the document's label, or NULL */
    const struct xiri_walker *w; /* NULL: none (lc_query: rendered) */
    xiri_diag_fn *fn;
    void *user;
    int worst;
    bool stop; /* the callback asked to stop */
};

/* Deliver one finding to the caller. */
static void lc_deliver(struct lc *lc, const struct xiri_diag *d)
{
    if (lc->stop)
        return;
    if ((int)d->severity > lc->worst)
        lc->worst = (int)d->severity;
    if (lc->fn && lc->fn(lc->user, d) != 0)
        lc->stop = true;
}

static void lc_report(struct lc *lc, enum code_id id, enum xiri_part part,
                      size_t off, size_t len, uint32_t cp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* xiri_check's findings pass through here on their way to the caller. */
static int lc_forward(void *user, const struct xiri_diag *d)
{
    struct lc *lc = user;

    lc_deliver(lc, d);
    return lc->stop;
}

static void lc_report(struct lc *lc, enum code_id id, enum xiri_part part,
                      size_t off, size_t len, uint32_t cp, const char *fmt, ...)
{
    struct xiri_diag d;
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    codes_diag(&d, id, part, off, len, cp, msg);
    lc_deliver(lc, &d);
}

/* ------------------------------------------------------------------ */
/* no-base                                                             */

/* RFC 3986 5.1: a relative reference needs a base URI.  A same-document
 * reference (empty, or a fragment alone) does not: RFC 3986 4.4 defines
 * its target as the current document whatever the base. */
static void lc_no_base(struct lc *lc, const struct ref *r)
{
    const struct xiri_link *l = lc->link;

    /* (a link of shape IRI, most of them, is no identifier: asked
     * first, without the call) */
    if (l->shape != XIRI_SHAPE_IRI && xiri_link_is_identifier(l) &&
        l->shape != XIRI_SHAPE_RESOLVED_IDENTIFIER) {
        /* compared as a string, never resolved (shapes.c): a base does
         * not help a relative one (a usemap, XIRI_SHAPE_HASH_NAME, never
         * comes here: lc_run) */
        if (!r->part[XIRI_PART_SCHEME].set)
            lc_report(lc, CODE_RELATIVE_IDENTIFIER, XIRI_PART_COUNT, 0,
                      l->value_len, 0,
                      "this identifier (an Atom id, an RSS guid, a namespace "
                      "name) is a relative reference: identifiers are "
                      "compared as strings, never resolved; write the "
                      "absolute IRI");
        return;
    }
    if (l->base && l->profile == XIRI_PROFILE_HTML &&
        !r->part[XIRI_PART_SCHEME].set &&
        html_url_opaque_base(l->value, l->value_len, l->base))
        lc_report(lc, CODE_OPAQUE_BASE, XIRI_PART_COUNT, 0, l->value_len, 0,
                  "browsers cannot resolve this relative reference: its "
                  "base \"%s\" has an opaque path, against which only a "
                  "fragment can be (WHATWG URL); fix the base or write the "
                  "link absolute",
                  l->base);
    if (l->base || r->part[XIRI_PART_SCHEME].set)
        return;
    if (!r->part[XIRI_PART_AUTHORITY].set && r->part[XIRI_PART_PATH].len == 0 &&
        !r->part[XIRI_PART_QUERY].set)
        return;
    lc_report(lc, CODE_NO_BASE, XIRI_PART_COUNT, 0, l->value_len, 0,
              "this relative reference has no base IRI to be resolved "
              "against: neither the document nor its location gives one, so "
              "its target is unknown");
}

/* HTML: a URL without the host browsers need (html_url_host_missing_diag,
 * on the value as browsers read it).  plain: r is
 * plain_split's, and the value holds nothing html_url_prepare changes;
 * r NULL: the value is not split yet. */
static enum xiri_status lc_host_missing(struct lc *lc, const struct ref *r,
                                        bool plain)
{
    const struct xiri_link *l = lc->link;
    const char *v = l->value ? l->value : "";
    size_t n = l->value_len;
    struct xiri_diag d;
    enum xiri_status st;
    bool missing;

    if (l->profile != XIRI_PROFILE_HTML)
        return XIRI_OK;
    if (r && r->part[XIRI_PART_HOST].set && r->part[XIRI_PART_HOST].len > 0 &&
        (plain || !html_url_needs_prepare(v, n)))
        return XIRI_OK; /* most links have a host ("http://\t/" has none) */
    if (r && !r->part[XIRI_PART_SCHEME].set &&
        !r->part[XIRI_PART_AUTHORITY].set &&
        (plain || !html_url_needs_prepare(v, n)))
        return XIRI_OK; /* a relative reference without authority */
    st = html_url_host_missing_diag(v, n, l->base, &d, &missing);
    if (st == XIRI_OK && missing)
        lc_deliver(lc, &d);
    return st;
}

/* ------------------------------------------------------------------ */
/* invalid-hash-name: an HTML usemap (XIRI_SHAPE_HASH_NAME)            */

/* HTML LS 2.3, References, "rules for parsing a hash-name reference": a
 * value without '#' finds nothing; else what follows the first '#' is
 * compared, as written, with the name (or id) of each <map>, whose name
 * is not empty and holds no ASCII whitespace (HTML LS, the map element).
 * A valid one is '#' and such a name.  No URL: the engine's checks do not
 * apply ("#caf%C3%A9" is the name "caf%C3%A9"). */
static void lc_hash_name(struct lc *lc)
{
    const struct xiri_link *l = lc->link;
    const char *v = l->value ? l->value : "";
    const char *hash = memchr(v, '#', l->value_len);
    /* the attribute's name ("usemap"; another, given the shape by a
     * user's schema) */
    const char *what = l->attribute ? l->attribute : "value";
    size_t n = l->value_len, h, i;
    struct xiri_diag d;
    char msg[256];

    if (!hash) {
        lc_report(lc, CODE_INVALID_HASH_NAME, XIRI_PART_COUNT, 0, n, 0,
                  "this %.40s holds no '#', so browsers find no map (a "
                  "hash-name reference, not a URL); write '#' and the name "
                  "of the <map>",
                  what);
        return;
    }
    h = (size_t)(hash - v);
    if (h > 0) {
        /* browsers find the map all the same: a warning */
        snprintf(msg, sizeof(msg),
                 "browsers ignore the %zu byte%s before the '#' of this "
                 "%.40s, which HTML does not allow there; remove %s",
                 h, h == 1 ? "" : "s", what, h == 1 ? "it" : "them");
        codes_diag(&d, CODE_INVALID_HASH_NAME, XIRI_PART_COUNT, 0, h, 0, msg);
        d.severity = XIRI_SEV_WARNING;
        lc_deliver(lc, &d);
        if (lc->stop)
            return;
    }
    if (h + 1 == n) {
        lc_report(lc, CODE_INVALID_HASH_NAME, XIRI_PART_COUNT, h, 1, '#',
                  "nothing follows the '#' of this %.40s, and no map has an "
                  "empty name; write the name of the <map> after it",
                  what);
        return;
    }
    for (i = h + 1; i < n; i++)
        if (ch_is_ascii_space((unsigned char)v[i])) {
            lc_report(lc, CODE_INVALID_HASH_NAME, XIRI_PART_COUNT, i, 1,
                      (unsigned char)v[i],
                      "white space (U+%04X) in the map name of this %.40s: "
                      "no <map>'s name holds any, and browsers compare the "
                      "name as written; remove it",
                      (unsigned)(unsigned char)v[i], what);
            return;
        }
}

/* ------------------------------------------------------------------ */
/* the authority as browsers read it (htmlauth.h)                      */

/* Whether a plain link split as r (plain_split: no '\') may have a host
 * browsers read where RFC 3986 reads none: a scheme and no authority
 * ("https:h/p"), or an empty authority before a path ("///h/p"). */
static bool lc_plain_may_hide_host(const struct ref *r)
{
    return r->part[XIRI_PART_AUTHORITY].set
               ? r->part[XIRI_PART_AUTHORITY].len == 0 &&
                     r->part[XIRI_PART_PATH].len > 0
               : r->part[XIRI_PART_SCHEME].set;
}

/* ------------------------------------------------------------------ */
/* replacement-char                                                    */

/* U+FFFD, UTF-8 EF BF BD: each run of them is one finding. */
static void lc_replacement(struct lc *lc)
{
    const char *v = lc->link->value;
    size_t n = lc->link->value_len, i = 0, start;
    unsigned count;
    const char *enc = lc->encoding ? lc->encoding : "the document's encoding";

    while (i + 3 <= n && !lc->stop) {
        const char *p = memchr(v + i, 0xEF, n - i);
        if (!p)
            break;
        i = (size_t)(p - v);
        if (i + 3 > n || memcmp(v + i, "\xEF\xBF\xBD", 3) != 0) {
            i++;
            continue;
        }
        start = i;
        count = 0;
        while (i + 3 <= n && memcmp(v + i, "\xEF\xBF\xBD", 3) == 0) {
            i += 3;
            count++;
        }
        /* WHATWG Encoding 4.1: a decoder in "replacement" error mode
         * emits U+FFFD for each invalid sequence */
        lc_report(lc, CODE_REPLACEMENT_CHAR, XIRI_PART_COUNT, start, i - start,
                  0xFFFD,
                  "U+FFFD REPLACEMENT CHARACTER%s: bytes that are not valid "
                  "%s were replaced when the document was decoded, or the "
                  "document holds U+FFFD itself; either way the link no "
                  "longer says what its author wrote",
                  count > 1 ? " (several in a row)" : "", enc);
    }
}

/* ------------------------------------------------------------------ */
/* c1-control                                                          */

/* WHATWG Encoding, index-windows-1252 (pointers 0-31 = bytes 0x80-0x9F),
 * with the Unicode names of the characters; 0 where windows-1252 has
 * nothing (the index maps those bytes to the C1 controls themselves). */
static const struct {
    uint16_t cp;
    const char *name;
} lc_cp1252[32] = {
    {0x20AC, "EURO SIGN"},
    {0, NULL},
    {0x201A, "SINGLE LOW-9 QUOTATION MARK"},
    {0x0192, "LATIN SMALL LETTER F WITH HOOK"},
    {0x201E, "DOUBLE LOW-9 QUOTATION MARK"},
    {0x2026, "HORIZONTAL ELLIPSIS"},
    {0x2020, "DAGGER"},
    {0x2021, "DOUBLE DAGGER"},
    {0x02C6, "MODIFIER LETTER CIRCUMFLEX ACCENT"},
    {0x2030, "PER MILLE SIGN"},
    {0x0160, "LATIN CAPITAL LETTER S WITH CARON"},
    {0x2039, "SINGLE LEFT-POINTING ANGLE QUOTATION MARK"},
    {0x0152, "LATIN CAPITAL LIGATURE OE"},
    {0, NULL},
    {0x017D, "LATIN CAPITAL LETTER Z WITH CARON"},
    {0, NULL},
    {0, NULL},
    {0x2018, "LEFT SINGLE QUOTATION MARK"},
    {0x2019, "RIGHT SINGLE QUOTATION MARK"},
    {0x201C, "LEFT DOUBLE QUOTATION MARK"},
    {0x201D, "RIGHT DOUBLE QUOTATION MARK"},
    {0x2022, "BULLET"},
    {0x2013, "EN DASH"},
    {0x2014, "EM DASH"},
    {0x02DC, "SMALL TILDE"},
    {0x2122, "TRADE MARK SIGN"},
    {0x0161, "LATIN SMALL LETTER S WITH CARON"},
    {0x203A, "SINGLE RIGHT-POINTING ANGLE QUOTATION MARK"},
    {0x0153, "LATIN SMALL LIGATURE OE"},
    {0, NULL},
    {0x017E, "LATIN SMALL LETTER Z WITH CARON"},
    {0x0178, "LATIN CAPITAL LETTER Y WITH DIAERESIS"},
};

uint32_t linkcheck_cp1252(unsigned char byte, const char **name)
{
    if (byte < 0x80 || byte > 0x9F) {
        if (name)
            *name = NULL;
        return 0;
    }
    if (name)
        *name = lc_cp1252[byte - 0x80].name;
    return lc_cp1252[byte - 0x80].cp;
}

/* U+0080-U+009F (UTF-8 C2 80 - C2 9F) in a document ICU decoded as
 * ISO-8859-1: each came from the byte of the same value. */
static void lc_c1(struct lc *lc)
{
    const char *v = lc->link->value;
    size_t n = lc->link->value_len, i;
    const char *p;

    if (!lc->encoding || n < 2)
        return;
    /* the first C1 control, before asking ICU about the encoding (the
     * walker checks every link) */
    for (p = v; (p = memchr(p, 0xC2, n - (size_t)(p - v))) != NULL; p++)
        if ((size_t)(p - v) + 1 < n && (unsigned char)p[1] >= 0x80 &&
            (unsigned char)p[1] <= 0x9F)
            break;
    if (!p || !uni_encoding_is_latin1(lc->encoding))
        return;
    for (i = (size_t)(p - v); i + 2 <= n && !lc->stop; i++) {
        unsigned char b = (unsigned char)v[i + 1];
        const char *name;
        uint32_t w;
        char u[5];

        if ((unsigned char)v[i] != 0xC2 || b < 0x80 || b > 0x9F)
            continue;
        w = linkcheck_cp1252(b, &name);
        if (w) {
            u[utf8_encode(w, u)] = '\0';
            /* WHATWG Encoding 4.2: browsers decode every ISO-8859-1
             * label as windows-1252 */
            lc_report(lc, CODE_C1_CONTROL, XIRI_PART_COUNT, i, 2, b,
                      "U+%04X is a C1 control character, from the byte "
                      "0x%02X of this %s document; that byte almost "
                      "certainly meant windows-1252 '%s' (U+%04X %s): the "
                      "document is probably windows-1252, not ISO-8859-1",
                      b, b, lc->encoding, u, (unsigned)w, name);
        } else {
            lc_report(lc, CODE_C1_CONTROL, XIRI_PART_COUNT, i, 2, b,
                      "U+%04X is a C1 control character, from the byte "
                      "0x%02X of this %s document; windows-1252, which "
                      "such documents usually are, leaves 0x%02X undefined "
                      "too, so the byte is probably not text at all",
                      b, b, lc->encoding, b);
        }
        i++;
    }
}

/* ------------------------------------------------------------------ */
/* mojibake, double-pct (mojibake.c finds them)                        */

static enum xiri_status lc_mojibake(struct lc *lc)
{
    const char *v = lc->link->value;
    size_t n = lc->link->value_len, at = 0, count = 0;
    struct moji_scan s;
    struct moji_hit h;
    struct buf rep, all;
    enum xiri_status st;
    int shown;
    const char *more;

    moji_scan_init(&s, v, n);
    if (!v || lc->stop || !moji_scan_next(&s, 0, &h, NULL))
        return XIRI_OK;
    buf_init(&rep, n + 1);
    buf_init(&all, n + 1);
    moji_repair(v, n, &all);
    /* the repaired value shown whole up to 400 bytes, else cut at a
     * character boundary and marked so */
    shown = (int)moji_cut(all.data ? all.data : "", all.len, 400);
    more = (size_t)shown < all.len ? "\xE2\x80\xA6" : ""; /* U+2026 */
    while (!lc->stop && all.status == XIRI_OK && rep.status == XIRI_OK &&
           count < MOJI_REPORT_MAX && moji_scan_next(&s, at, &h, &rep)) {
        if (h.kind == MOJI_DOUBLE)
            lc_report(lc, CODE_DOUBLE_PCT, XIRI_PART_COUNT, h.off, h.len, 0,
                      "'%.*s' is '%.*s' percent-encoded twice; repaired: "
                      "%.*s%s",
                      (int)h.len, v + h.off, (int)rep.len, rep.data, shown,
                      all.data, more);
        else if (h.kind == MOJI_PCT)
            lc_report(lc, CODE_MOJIBAKE, XIRI_PART_COUNT, h.off, h.len, 0,
                      "'%.*s' escapes characters that are the UTF-8 of "
                      "'%.*s' read as windows-1252; repaired: %.*s%s",
                      (int)h.len, v + h.off, (int)rep.len, rep.data, shown,
                      all.data, more);
        else
            lc_report(lc, CODE_MOJIBAKE, XIRI_PART_COUNT, h.off, h.len, 0,
                      "'%.*s' is the UTF-8 of '%.*s' read as windows-1252; "
                      "repaired: %.*s%s",
                      (int)h.len, v + h.off, (int)rep.len, rep.data, shown,
                      all.data, more);
        rep.len = 0;
        at = h.off + h.len;
        count++;
    }
    st = all.status != XIRI_OK ? all.status : rep.status;
    buf_free(&rep);
    buf_free(&all);
    return st;
}

/* ------------------------------------------------------------------ */
/* query-encoding                                                      */

/* "a" for at most LC_FORM_MAX bytes of b, then "..." */
static void lc_form(char *out, size_t size, const struct buf *b)
{
    if (b->len <= LC_FORM_MAX)
        snprintf(out, size, "?%.*s", (int)b->len, b->data);
    else
        snprintf(out, size, "?%.*s...", LC_FORM_MAX, b->data);
}

/* The same encoding name, ignoring ASCII case and the whitespace around
 * the label (WHATWG Encoding 4.2 "get an encoding"). */
static bool lc_same_label(const char *name, const char *label)
{
    size_t n = strlen(name), i;

    while (*label == ' ' || *label == '\t' || *label == '\n' ||
           *label == '\f' || *label == '\r')
        label++;
    for (i = 0; i < n; i++) {
        char a = name[i], b = label[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (char)(b - 'A' + 'a');
        if (a != b)
            return false;
    }
    for (; label[i]; i++)
        if (label[i] != ' ' && label[i] != '\t' && label[i] != '\n' &&
            label[i] != '\f' && label[i] != '\r')
            return false;
    return true;
}


bool linkcheck_query_in_document_encoding(const struct xiri_link *link,
                                          bool rendered)
{
    /* a url() of CSS: CSS Values and Units 4, "URL processing model",
     * calls the URL parser without an encoding, so the query is UTF-8's
     * in any document (CSSWG resolution on csswg-drafts issue 9301, 2023;
     * Gecko and WebKit do so) */
    if (link->shape == XIRI_SHAPE_CSS)
        return false;
    if (link->profile == XIRI_PROFILE_HTML)
        return true;
    /* the style sheet browsers load for any XML document they show */
    if (link->element && strcmp(link->element, "?xml-stylesheet") == 0)
        return true;
    /* xml:base is no URL browsers load (nor read, today) */
    if (link->attribute_ns && strcmp(link->attribute_ns, XML_NS) == 0)
        return false;
    return rendered && link->element_ns &&
           (strcmp(link->element_ns, XHTML_NS) == 0 ||
            strcmp(link->element_ns, SVG_NS) == 0);
}

static enum xiri_status lc_query(struct lc *lc, const struct ref *r)
{
    const struct xiri_link *l = lc->link;
    const struct span *q = &r->part[XIRI_PART_QUERY];
    const struct span *sc = &r->part[XIRI_PART_SCHEME];
    const char *qs = l->value + (q->set ? q->off : 0), *scheme, *qenc;
    struct ref br;
    struct buf doc, utf8;
    enum xiri_status st, st2;
    size_t i, scheme_len, lacking = 0;
    uint32_t cp = 0;
    char shown[160], refs[96], a[LC_FORM_MAX + 8], b[LC_FORM_MAX + 8];

    /* WHATWG URL 4.4: the document's encoding is the encoding override
     * of the URLs browsers load (linkcheck_query_in_document_encoding);
     * XML processors and RFC 3987 use UTF-8 */
    if (!lc->encoding || !q->set ||
        !linkcheck_query_in_document_encoding(l, lc->w ? walk_rendered(lc->w)
                                                       : true))
        return XIRI_OK;
    for (i = 0; i < q->len && (unsigned char)qs[i] < 0x80; i++)
        ;
    if (i == q->len)
        return XIRI_OK; /* ASCII is the same in every encoding */
    if (!utf8_decode((const unsigned char *)qs + i, q->len - i, &cp))
        return XIRI_OK; /* not UTF-8: xiri_check reported it */
    qenc = uni_query_encoding(lc->encoding);
    if (!qenc || strcmp(qenc, "UTF-8") == 0)
        return XIRI_OK; /* UTF-8, UTF-16 (WHATWG Encoding 4.3) ... */
    /* The scheme of the resolved reference: the reference's own, else
     * the base's (RFC 3986 5.2.2: T.scheme = Base.scheme) */
    if (sc->set) {
        scheme = l->value + sc->off;
        scheme_len = sc->len;
    } else if (l->base) {
        ref_split(l->base, strlen(l->base), &br);
        if (!br.part[XIRI_PART_SCHEME].set)
            return XIRI_OK; /* a base that is not absolute */
        scheme = l->base + br.part[XIRI_PART_SCHEME].off;
        scheme_len = br.part[XIRI_PART_SCHEME].len;
    } else {
        return XIRI_OK; /* no-base says it */
    }
    if (!scheme_query_in_document_encoding(scheme, scheme_len))
        return XIRI_OK;

    buf_init(&doc, XIRI_MAX_LEN);
    buf_init(&utf8, XIRI_MAX_LEN);
    /* the special-query percent-encode set: every scheme here is
     * special */
    st = uni_encode_query(lc->ctx, lc->encoding, qs, q->len, true, &doc,
                          &lacking);
    st2 = uni_encode_query(lc->ctx, "UTF-8", qs, q->len, true, &utf8, NULL);
    if (st == XIRI_OK)
        st = st2;
    if (st == XIRI_OK &&
        (doc.len != utf8.len || memcmp(doc.data, utf8.data, doc.len) != 0)) {
        if (lc_same_label(qenc, lc->encoding))
            snprintf(shown, sizeof(shown), "%s", lc->encoding);
        else
            snprintf(shown, sizeof(shown), "%s, which browsers read as %s",
                     lc->encoding, qenc);
        if (lacking)
            snprintf(refs, sizeof(refs),
                     " (%zu character%s it lacks written as %s)", lacking,
                     lacking > 1 ? "s" : "",
                     lacking > 1 ? "HTML character references"
                                 : "an HTML character reference");
        else
            refs[0] = '\0';
        lc_form(a, sizeof(a), &doc);
        lc_form(b, sizeof(b), &utf8);
        lc_report(lc, CODE_QUERY_ENCODING, XIRI_PART_QUERY, q->off, q->len, cp,
                  "browsers send this query in the document's encoding, %s, "
                  "as %s%s; RFC 3987 3.1 maps it to UTF-8: %s",
                  shown, a, refs, b);
    }
    buf_free(&doc);
    buf_free(&utf8);
    /* an unknown encoding or text that is not UTF-8 is not a failure of
     * the check: the walker and xiri_check report those */
    if (st == XIRI_EENCODING || st == XIRI_ESYNTAX)
        st = XIRI_OK;
    return st;
}

/* ------------------------------------------------------------------ */

/* The bytes a plain link may hold anywhere: what a path, a query and a
 * fragment all allow (RFC 3986 3.3-3.5: pchar, '/', and '?' which only
 * a query or a fragment can hold once split), that is chars_ascii[c] &
 * (CH_PCHAR | CH_SLASH | CH_QMARK), as a table of every byte value: 0
 * for those, but LC_PLAIN_COLON, LC_PLAIN_QMARK, LC_PLAIN_AT and
 * LC_PLAIN_UPPER for ':', '?', '@' and 'A'-'Z', and LC_PLAIN_NOT for
 * every other byte (the linkcheck suite compares it with chars_ascii);
 * '#' is counted apart.  Or-ed over a value, it says at once whether the
 * value is plain and which of those characters it holds anywhere, so
 * that plain_split need not look for one the value has none of. */
#define N LC_PLAIN_NOT
#define C LC_PLAIN_COLON
#define Q LC_PLAIN_QMARK
#define U LC_PLAIN_UPPER
#define A LC_PLAIN_AT
const unsigned char linkcheck_plain_class[256] = {
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0x00 */
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0x10 */
    N, 0, N, N, 0, N, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20: ' ' '"' '#' '%' */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, C, 0, N, 0, N, Q, /* 0x30: '<' '>' */
    A, U, U, U, U, U, U, U, U, U, U, U, U, U, U, U, /* 0x40: '@' */
    U, U, U, U, U, U, U, U, U, U, U, N, N, N, N, 0, /* 0x50: '[' '\' ']' '^' */
    N, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x60: '`' */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, N, N, N, 0, N, /* 0x70: '{' '|' '}' DEL */
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0x80-0xFF */
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0x90 */
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0xA0 */
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0xB0 */
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0xC0 */
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0xD0 */
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0xE0 */
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, /* 0xF0 */
};
#undef N
#undef C
#undef Q
#undef U
#undef A

/* The classes of the eight bytes at u, or-ed. */
static inline unsigned plain_8(const unsigned char *u)
{
    const unsigned char *t = linkcheck_plain_class;

    return (unsigned)(t[u[0]] | t[u[1]] | t[u[2]] | t[u[3]] | t[u[4]] |
                      t[u[5]] | t[u[6]] | t[u[7]]);
}

/* The first half of linkcheck_plain, which needs no split: only bytes a
 * plain link may hold, and one '#' at most (its index in *hash, n when
 * there is none).  With *latin true, the UTF-8 of the Latin letters
 * U+00C0-U+0131 (C3 80-BF, C4 80-B1) and of the assigned characters of
 * linkcheck_nfkc_starter is taken too; *latin then says whether there
 * was any.  *classes receives the linkcheck_plain_class bits of its
 * plain bytes, or-ed (which of ':', '?' and upper case it holds). */
static inline bool plain_bytes_at(const char *s, size_t n, size_t *hash,
                                  bool *latin, unsigned *classes)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, k, end, hashes = 0;
    unsigned m, seen = 0;
    bool take = *latin;

    *hash = n;
    *latin = false;
    *classes = 0;
    if (n > XIRI_MAX_LEN)
        return false; /* xiri_check refuses it */
    while (i < n) {
        /* eight bytes a step while they are all plain; the last bytes as
         * the last eight (some looked at again), so that the loop's exit
         * does not depend on the length */
        if (n - i >= 8) {
            m = plain_8(u + i);
            if (!(m & LC_PLAIN_NOT)) {
                seen |= m;
                i += 8;
                continue;
            }
            end = i + 8;
        } else if (n >= 8 && !((m = plain_8(u + n - 8)) & LC_PLAIN_NOT)) {
            seen |= m;
            break;
        } else {
            end = n;
        }
        /* a byte that is not plain in u[i..end) (a letter's second
         * byte may lie past end) */
        for (k = i; k < end; k++) {
            m = linkcheck_plain_class[u[k]];
            if (!(m & LC_PLAIN_NOT)) {
                seen |= m;
                continue;
            }
            if (take && (u[k] == 0xC3 || u[k] == 0xC4) && k + 1 < n &&
                u[k + 1] >= 0x80 && u[k + 1] <= (u[k] == 0xC3 ? 0xBF : 0xB1)) {
                *latin = true;
                k++;
                continue;
            }
            if (take && u[k] >= 0x80) {
                uint32_t cp;
                size_t len = utf8_decode(u + k, n - k, &cp);

                if (len == 0 || !linkcheck_nfkc_starter(cp) ||
                    !uni_is_assigned(cp))
                    return false;
                *latin = true;
                k += len - 1;
                continue;
            }
            /* a second '#' is in the fragment, which does not allow it */
            if (u[k] != '#' || ++hashes > 1)
                return false;
            *hash = k;
        }
        i = k;
    }
    *classes = seen;
    return true;
}

static bool plain_bytes(const char *s, size_t n)
{
    size_t hash;
    bool latin = false;
    unsigned classes;

    return plain_bytes_at(s, n, &hash, &latin, &classes);
}

/* Whether the host s[a..e) is left to xiri_check for the html profile's
 * IPv4 rules (invalid-ipv4, WHATWG URL 3.5): its last label, a final
 * empty one aside, starts with an ASCII digit (as every decimal, octal
 * or 0x number does, so "ends in a number" may hold), unless the host is
 * four decimal numbers of 0-255 without leading zeros, which every
 * profile accepts (RFC 3986 3.2.2 IPv4address). */
static bool plain_numeric_host(const char *s, size_t a, size_t e)
{
    size_t end = e, labels = 0, i, k;
    unsigned v;

    if (e > a && s[e - 1] == '.')
        e--;
    while (e > a && s[e - 1] != '.')
        e--;
    if (e == end || s[e] < '0' || s[e] > '9')
        return false;
    for (i = a; i <= end && labels < 5; i = k + 1, labels++) {
        for (k = i, v = 0; k < end && s[k] >= '0' && s[k] <= '9' && v <= 255;
             k++)
            v = v * 10 + (unsigned)(s[k] - '0');
        if (k == i || (k < end && s[k] != '.') || v > 255 ||
            (s[i] == '0' && k - i > 1))
            return true;
    }
    return labels != 4;
}

/* The second half: the components of the split r of s. */
static bool plain_parts(const char *s, const struct ref *r)
{
    const struct span *sc = &r->part[XIRI_PART_SCHEME];
    const struct span *h = &r->part[XIRI_PART_HOST];
    const struct span *p = &r->part[XIRI_PART_PATH];
    size_t i;

    /* RFC 3987 5.3.2.1: upper-scheme */
    for (i = sc->off; sc->set && i < sc->off + sc->len; i++)
        if (s[i] >= 'A' && s[i] <= 'Z')
            return false;
    if (r->part[XIRI_PART_AUTHORITY].set) {
        /* userinfo, port (empty-port, default-port) and IP literals are
         * left to xiri_check */
        if (r->part[XIRI_PART_USERINFO].set || r->part[XIRI_PART_PORT].set)
            return false;
        /* RFC 3986 3.2.2 reg-name: unreserved and sub-delims; lower case
         * (upper-host) */
        for (i = h->off; h->set && i < h->off + h->len; i++)
            if (!ch_is((unsigned char)s[i], CH_UNRESERVED | CH_SUBDELIM) ||
                (s[i] >= 'A' && s[i] <= 'Z'))
                return false;
        /* a host that may end in a number is left to xiri_check
         * (invalid-ipv4, WHATWG URL 3.5), and so is one with an ACE
         * label (fake-a-label, confusable-host) */
        if (h->set && (plain_numeric_host(s, h->off, h->off + h->len) ||
                       ch_has_ace_label(s, h->off, h->off + h->len)))
            return false;
    } else if (!sc->set) {
        /* RFC 3986 4.2: colon-in-first-segment */
        for (i = p->off; i < p->off + p->len && s[i] != '/'; i++)
            if (s[i] == ':')
                return false;
    }
    if (sc->set) {
        /* RFC 3987 5.3.2.4: dot-segment in an absolute IRI */
        size_t a = p->off, e = p->off + p->len, j;
        while (a <= e) {
            for (j = a; j < e && s[j] != '/'; j++)
                ;
            if (j - a <= 2 && j > a && s[a] == '.' && s[j - 1] == '.')
                return false;
            a = j + 1;
        }
    }
    return true;
}

bool linkcheck_plain(const char *s, size_t n, const struct ref *r)
{
    return plain_bytes(s, n) && plain_parts(s, r);
}

static void plain_span(struct span *sp, size_t off, size_t len)
{
    sp->off = (uint32_t)off;
    sp->len = (uint32_t)len;
    sp->set = true;
}

/* ref_split and linkcheck_plain in one pass, for a value whose bytes are
 * plain: ref_split's components (RFC 3986 appendix B) are found by the
 * same rules, and plain_parts' tests are made on the way.  A plain
 * authority holds no '@' and no ':' (no userinfo, no port: RFC 3986
 * 3.2), and no '[' (not a plain byte), so it is its host. */
/* What plain_split found. */
enum plain_kind {
    PLAIN_NOT,   /* says nothing: xiri_check must look */
    PLAIN_ASCII, /* linkcheck_plain */
    PLAIN_LATIN  /* plain but for letters (Latin U+00C0-U+0131 and
                    linkcheck_nfkc_starter's) in the path, query or
                    fragment */
};

/* linkcheck_plain_split, also taking, when latin, the Latin letters
 * U+00C0-U+0131 and the assigned characters of linkcheck_nfkc_starter
 * (Greek, Cyrillic, kana, CJK ideographs) outside the scheme and the
 * authority: ucschar, which RFC 3987 2.2 allows as iunreserved in ipath,
 * iquery and ifragment (under every profile but URI, whose caller does
 * not ask), assigned, none right-to-left, neither bidi controls nor C1
 * controls, NFC and NFKC starters (UCD DerivedNormalizationProps.txt), so
 * that xiri_check finds in such a value only what it finds in the same
 * value with ASCII letters in their place: nothing, as the same tests
 * show.  A letter in the authority is left to xiri_check (IDNA,
 * UTS #39). */
static enum plain_kind plain_split(const char *s, size_t n, struct ref *r,
                                   bool latin)
{
    static const struct ref empty;
    size_t i = 0, j, a, hash, qmark, e;
    const char *q;
    unsigned classes; /* which of ':', '?' and upper case s holds */

    if (!plain_bytes_at(s, n, &hash, &latin, &classes))
        return PLAIN_NOT;
    *r = empty;
    /* RFC 3986 3.1 scheme, lower case (RFC 3987 5.3.2.1 upper-scheme):
     * none without a ':' */
    if ((classes & LC_PLAIN_COLON) && n > 0 &&
        ch_is((unsigned char)s[0], CH_ALPHA)) {
        bool upper = false;
        for (j = 0; j < n && ch_is((unsigned char)s[j], CH_SCHEME); j++)
            upper |= (unsigned char)(s[j] - 'A') < 26;
        if (j < n && s[j] == ':') {
            if (upper)
                return PLAIN_NOT;
            plain_span(&r->part[XIRI_PART_SCHEME], 0, j);
            i = j + 1;
        }
    }
    q = (classes & LC_PLAIN_QMARK) && i < hash ? memchr(s + i, '?', hash - i)
                                               : NULL;
    qmark = q ? (size_t)(q - s) : hash;
    if (qmark - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        /* the authority up to the first '/': a lower-case reg-name
         * (RFC 3986 3.2.2; upper-host) */
        for (e = i + 2; e < qmark && s[e] != '/'; e++) {
            /* ':' (a port), '@' (userinfo), upper case, and the bytes of
             * a letter (LC_PLAIN_NOT: plain_bytes_at took no other) */
            if (linkcheck_plain_class[(unsigned char)s[e]] &
                (LC_PLAIN_COLON | LC_PLAIN_AT | LC_PLAIN_UPPER | LC_PLAIN_NOT))
                return PLAIN_NOT;
            /* an ACE label ("xn--") is left to xiri_check (fake-a-label,
             * confusable-host); looked for at each label's start */
            if (s[e] == 'x' && (e == i + 2 || s[e - 1] == '.') &&
                ch_is_ace_label(s, e, qmark))
                return PLAIN_NOT;
        }
        /* a host that may end in a number is left to xiri_check
         * (invalid-ipv4) */
        if (plain_numeric_host(s, i + 2, e))
            return PLAIN_NOT;
        plain_span(&r->part[XIRI_PART_AUTHORITY], i + 2, e - i - 2);
        plain_span(&r->part[XIRI_PART_HOST], i + 2, e - i - 2);
        i = e;
    } else if (!r->part[XIRI_PART_SCHEME].set && (classes & LC_PLAIN_COLON)) {
        /* RFC 3986 4.2: colon-in-first-segment */
        for (j = i; j < qmark && s[j] != '/'; j++)
            if (s[j] == ':')
                return PLAIN_NOT;
    }
    plain_span(&r->part[XIRI_PART_PATH], i, qmark - i);
    if (r->part[XIRI_PART_SCHEME].set) {
        /* RFC 3987 5.3.2.4: dot-segment in an absolute IRI, a segment
         * "." or "..": each '.' of the path, when it starts a segment */
        for (a = i; a < qmark && (q = memchr(s + a, '.', qmark - a)) != NULL;
             a = j + 1) {
            j = (size_t)(q - s);
            if (j > i && s[j - 1] != '/')
                continue;
            if (j + 1 == qmark || s[j + 1] == '/' ||
                (s[j + 1] == '.' && (j + 2 == qmark || s[j + 2] == '/')))
                return PLAIN_NOT;
        }
    }
    if (qmark < hash)
        plain_span(&r->part[XIRI_PART_QUERY], qmark + 1, hash - qmark - 1);
    if (hash < n)
        plain_span(&r->part[XIRI_PART_FRAGMENT], hash + 1, n - hash - 1);
    return latin ? PLAIN_LATIN : PLAIN_ASCII;
}

bool linkcheck_plain_split(const char *s, size_t n, struct ref *r)
{
    return plain_split(s, n, r, false) == PLAIN_ASCII;
}

enum xiri_status linkcheck_run(struct xiri_ctx *ctx, const char *encoding,
                               const struct xiri_link *link, xiri_diag_fn *fn,
                               void *user, int *worst)
{
    return linkcheck_run_path(ctx, encoding, link, fn, user, worst, true);
}

/* linkcheck_run_path, with the document's encoding taken from walker w
 * when w is not NULL; only a link that is not plain needs it, so a plain
 * one does not ask the walker. */
static enum xiri_status lc_run(struct xiri_ctx *ctx,
                               const struct xiri_walker *w,
                               const char *encoding,
                               const struct xiri_link *link, xiri_diag_fn *fn,
                               void *user, int *worst, bool fast)
{
    struct lc lc;
    struct html_auth auth; /* HTML: html_auth_find, when it is asked */
    struct ref r;
    enum xiri_status st;
    enum plain_kind kind = PLAIN_NOT;
    bool browsers = false; /* html_auth_find found the authority */
    bool html = link && link->profile == XIRI_PROFILE_HTML && link->value;

    if (worst)
        *worst = -1;
    if (!ctx || !link || (!link->value && link->value_len))
        return XIRI_EINVAL;
    memset(&lc, 0, sizeof(lc));
    lc.ctx = ctx;
    lc.link = link;
    lc.encoding = encoding;
    lc.fn = fn;
    lc.user = user;
    lc.worst = -1;
    if (link->shape == XIRI_SHAPE_HASH_NAME &&
        (unsigned)link->profile < XIRI_PROFILE_COUNT &&
        link->value_len <= XIRI_MAX_LEN) {
        /* an HTML usemap, no URL: its own rule, and what the document's
         * bytes did to it */
        if (w)
            lc.encoding = xiri_walker_encoding(w, NULL);
        lc_hash_name(&lc);
        if (!lc.stop)
            lc_replacement(&lc);
        if (!lc.stop)
            lc_c1(&lc);
        if (worst)
            *worst = lc.worst;
        return XIRI_OK;
    }
    /* linkcheck_plain, its bytes first: a value they rule out (non-ASCII
     * other than Latin letters, '%') is not split here, check_run splits
     * it */
    if (fast && (unsigned)link->profile < XIRI_PROFILE_COUNT)
        kind = plain_split(link->value ? link->value : "", link->value_len, &r,
                           link->profile != XIRI_PROFILE_URI);
    if (kind == PLAIN_ASCII) {
        /* xiri_check would find nothing; printable ASCII holds no
         * U+FFFD, no C1 control, and its query is the same in every
         * encoding (lc_query) */
        lc_no_base(&lc, &r);
        /* (lc_host_missing looks at HTML links only; plain: it
         * allocates nothing) */
        if (link->profile == XIRI_PROFILE_HTML)
            (void)lc_host_missing(&lc, &r, true);
        st = XIRI_OK;
        if (html && lc_plain_may_hide_host(&r) && !lc.stop) {
            html_auth_init(&auth);
            st = html_auth_find(&auth, link->value, link->value_len, link->base,
                                &browsers);
            if (st == XIRI_OK && browsers)
                st = html_auth_check(&auth, ctx, lc_forward, &lc);
            html_auth_free(&auth);
        }
        if (worst)
            *worst = lc.worst;
        return st;
    }
    /* host-missing first, at offset 0, as xiri_check gives it (and as
     * for the plain links above); a value that plain_split did not split
     * is looked at whole */
    st = lc_host_missing(&lc, kind == PLAIN_LATIN ? &r : NULL, false);
    if (st != XIRI_OK || lc.stop) {
        if (worst)
            *worst = lc.worst;
        return st;
    }
    if (html) {
        html_auth_init(&auth);
        st = html_auth_find(&auth, link->value, link->value_len, link->base,
                            &browsers);
        if (st != XIRI_OK) {
            html_auth_free(&auth);
            return st;
        }
    }
    if (w)
        lc.encoding = xiri_walker_encoding(w, NULL);
    lc.w = w;
    /* xiri_check, which splits the value too; it would find nothing in
     * a plain value with Latin letters (plain_split), whose non-ASCII
     * characters the checks below still look at */
    if (kind == PLAIN_LATIN)
        st = browsers ? html_auth_check(&auth, ctx, lc_forward, &lc) : XIRI_OK;
    else if (browsers)
        st = html_auth_run(&auth, ctx, lc_forward, &lc, &r);
    else
        st = check_run(ctx, link->value, link->value_len, link->profile,
                       link->base, lc_forward, &lc, NULL, &r);
    if (st == XIRI_OK && !lc.stop) {
        /* xiri_check accepted the arguments: value_len is within
         * XIRI_MAX_LEN and the profile is known */
        lc_no_base(&lc, &r);
    }
    if (st == XIRI_OK && !lc.stop) {
        lc_replacement(&lc);
        lc_c1(&lc);
        st = lc_mojibake(&lc);
        if (st == XIRI_OK && !lc.stop)
            st = lc_query(&lc, &r);
    }
    if (html)
        html_auth_free(&auth);
    if (worst)
        *worst = lc.worst;
    return st;
}

/* lc_run for an HTML link that starts or ends with C0 controls or
 * spaces, which browsers remove first (the walker's come without them):
 * the controls reported, and lc_run on what is left, its findings placed
 * back in the value (htmltrim.c).  Out of line: the walker's links never
 * come here (lc_run_link). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static enum xiri_status
lc_trimmed(struct xiri_ctx *ctx, const struct xiri_walker *w,
           const char *encoding, const struct xiri_link *link, xiri_diag_fn *fn,
           void *user, int *worst, bool fast)
{
    struct html_trim t;
    struct xiri_link left = *link;
    enum xiri_status st = XIRI_OK;

    if (html_trim_begin(&t, link->value, link->value_len, fn, user)) {
        left.value += t.lead;
        left.value_len = t.len;
        st = lc_run(ctx, w, encoding, &left, html_trim_forward, &t, NULL, fast);
    }
    return html_trim_end(&t, link->value, link->value_len, st, worst);
}

/* lc_run, or lc_trimmed for an HTML link with a C0 control or space at
 * either end. */
static inline enum xiri_status
lc_run_link(struct xiri_ctx *ctx, const struct xiri_walker *w,
            const char *encoding, const struct xiri_link *link,
            xiri_diag_fn *fn, void *user, int *worst, bool fast)
{
    if (ctx && link && link->profile == XIRI_PROFILE_HTML && link->value &&
        html_trim_needed(link->value, link->value_len) &&
        link->shape != XIRI_SHAPE_HASH_NAME) /* no URL: nothing removed */
        return lc_trimmed(ctx, w, encoding, link, fn, user, worst, fast);
    return lc_run(ctx, w, encoding, link, fn, user, worst, fast);
}

enum xiri_status linkcheck_run_path(struct xiri_ctx *ctx, const char *encoding,
                                    const struct xiri_link *link,
                                    xiri_diag_fn *fn, void *user, int *worst,
                                    bool fast)
{
    return lc_run_link(ctx, NULL, encoding, link, fn, user, worst, fast);
}

enum xiri_status xiri_check_link(struct xiri_ctx *ctx,
                                 const struct xiri_walker *w,
                                 const struct xiri_link *link, xiri_diag_fn *fn,
                                 void *user, int *worst)
{
    return lc_run_link(ctx, w, NULL, link, fn, user, worst, true);
}

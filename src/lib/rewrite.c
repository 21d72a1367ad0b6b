/* rewrite.c - the document again with only its link values changed: the
 * original bytes are copied through, and each link whose value maps to
 * something else (RFC 3987 3.1 to URI, 3.2 to IRI, optionally resolved
 * per RFC 3986 5.2) has exactly its value's bytes replaced, escaped for
 * its quote and encoded in the document's encoding. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "codes.h"
#include "htmlref.h"
#include "htmlurl.h"
#include "input.h"
#include "linkcheck.h"
#include "mem.h"
#include "mojibake.h"
#include "parse.h"
#include "resolve.h"
#include "scheme.h"
#include "to_iri.h"
#include "to_uri.h"
#include "unicode.h"
#include "walk.h"

#include <stdio.h>

/* --resolve: a base parsed once (resolve.h); b.s points into text, its
 * copy, when kept */
struct rw_base {
    struct buf text;
    struct resolve_base b;
    bool kept;
    bool plain; /* linkcheck_plain(base) */
};

struct xiri_rewriter {
    struct xiri_ctx *ctx;
    struct xiri_walker *walker;
    struct xiri_rewrite_options opts;
    xiri_write_fn *write_fn;
    xiri_rewrite_fn *on_event;
    xiri_doc_diag_fn *on_diag;
    void *user;
    enum xiri_status status;
    struct xiri_error error;

    /* the original bytes not written yet: pend holds the document from
     * byte offset pend_start on; everything before emitted is written */
    struct buf pend;
    size_t pend_start;
    size_t emitted;
    /* HTML: the output's first bytes (as far as the prescan reads), and
     * the encoding the prescan finds in the original (prescan_changed) */
    struct buf head;
    bool head_full;  /* head holds all head_cap asks for (keep_head) */
    struct buf cand; /* scratch: the head with a new value (output_with) */
    char prescan[64];
    bool prescan_known;
    bool prescan_held; /* prescan_changed left a value: the rest too */
    bool guess_held; /* sniff_changed left a value: the rest too */
    bool non_ascii_seen; /* a byte fed so far is not ASCII */
    bool late_meta;      /* the walker said encoding-late */
    size_t fed; /* bytes fed so far */

    struct buf value;  /* scratch: the new value */
    struct buf coded;  /* scratch: it escaped and encoded */
    struct buf tmp;    /* scratch */
    struct buf strip;  /* scratch: a value without tabs and newlines */
    struct buf rfc;    /* scratch: an HTML value to resolve, as browsers
                          read it (html_url_rfc_form) */
    bool stripped;     /* new_value wrote the link's value, as browsers
                          read it, into strip */
    struct buf fix;    /* scratch: the value repaired (opts.repair) */
    /* new_value: value is a plain link's bytes (linkcheck_plain), which
     * hold no '"', '<', '>', tab, LF or CR */
    bool value_plain;
    /* --resolve: the last two bases (a chapter's xml:base and the
     * document's around it), bases[base_last] the later one */
    struct rw_base bases[2];
    unsigned base_last;
    struct buf resolved; /* scratch: the value resolved */
    /* new_value failed on another string than the value (resolved,
     * repaired, as browsers read it): which, for the message (on_link) */
    const char *other;
    size_t other_len;
    const char *other_what;
    char message[512];
};

void xiri_rewrite_options_init(struct xiri_rewrite_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof(*o));
    o->to = XIRI_REWRITE_URI;
    o->idn = XIRI_REWRITE_IDN_PUNYCODE;
}

const struct xiri_walker *xiri_rewriter_walker(const struct xiri_rewriter *rw)
{
    return rw ? rw->walker : NULL;
}

enum xiri_status xiri_rewriter_position(struct xiri_rewriter *rw,
                                        const struct xiri_link *link,
                                        size_t off, unsigned long *line,
                                        unsigned long *column, size_t *offset)
{
    if (!rw)
        return XIRI_EINVAL;
    return xiri_walker_position(rw->walker, link, off, line, column, offset);
}

static void stop(struct xiri_rewriter *rw, enum xiri_status st,
                 const char *what)
{
    if (rw->status == XIRI_OK)
        rw->status = error_set(&rw->error, st, rw->emitted, "%s", what);
}

/* The output's first bytes, as far as prescan_changed and sniff_changed look:
 * the prescan's INPUT_SNIFF_BYTES, or the head an encoding was guessed
 * from. */
static size_t head_cap(const struct xiri_rewriter *rw)
{
    size_t len;
    bool whole;

    if (!walk_guessed_head(rw->walker, &len, &whole))
        return INPUT_SNIFF_BYTES;
    if (whole)
        return SIZE_MAX; /* the guess was made on all of it */
    return len > INPUT_SNIFF_BYTES ? len : INPUT_SNIFF_BYTES;
}

static void keep_head(struct xiri_rewriter *rw, const char *s, size_t n)
{
    size_t cap;

    if (rw->head_full)
        return;
    cap = head_cap(rw);
    if (rw->head.len < cap)
        buf_append(&rw->head, s,
                   n < cap - rw->head.len ? n : cap - rw->head.len);
    /* head_cap does not change once the walker has read the document's
     * head and chosen its encoding, which it has before anything is
     * written (emit_original writes what it settled, on_link what it
     * found): a full head is not asked again for every write */
    rw->head_full = rw->head.len >= cap;
}

/* emit_original: the written bytes pend drops at a time, at least */
#define RW_PEND_DROP ((size_t)1 << 20)

/* Write original bytes [rw->emitted, upto) and forget them. */
static void emit_original(struct xiri_rewriter *rw, size_t upto)
{
    size_t from = rw->emitted - rw->pend_start;
    size_t n = upto - rw->emitted, keep;

    if (upto <= rw->emitted || rw->status != XIRI_OK)
        return;
    keep_head(rw, rw->pend.data + from, n);
    if (rw->write_fn(rw->user, rw->pend.data + from, n) != 0) {
        stop(rw, XIRI_EIO, "cannot write the output");
        return;
    }
    rw->emitted = upto;
    /* drop what is written once it is a good part of the buffer and at
     * least RW_PEND_DROP bytes: the bytes kept (those the walker has not
     * settled, about a chunk fed, and with parse_ahead the jobs the
     * parser thread was given after them) are moved once for that many written,
     * not once a chunk */
    keep = rw->pend.len - (upto - rw->pend_start);
    if (upto - rw->pend_start >= RW_PEND_DROP && keep < rw->pend.len / 2) {
        memmove(rw->pend.data, rw->pend.data + (upto - rw->pend_start), keep);
        rw->pend.len = keep;
        rw->pend_start = upto;
    }
}

/* The original character just before (after: false) byte offset at, as
 * an ASCII code, or -1 when it is not ASCII or not held: the document is
 * in an ASCII-compatible encoding, or UTF-16 (big-endian: be). */
static int ascii_beside(const struct xiri_rewriter *rw, size_t at, bool before,
                        bool utf16, bool be)
{
    size_t w = utf16 ? 2 : 1, i;
    const unsigned char *d = (const unsigned char *)rw->pend.data;
    unsigned c;

    if (before ? at < rw->pend_start + w : at + w > rw->pend_start + rw->pend.len)
        return -1;
    i = (before ? at - w : at) - rw->pend_start;
    if (!utf16)
        return d[i] < 0x80 ? d[i] : -1;
    c = be ? (unsigned)d[i] << 8 | d[i + 1] : (unsigned)d[i + 1] << 8 | d[i];
    return c < 0x80 ? (int)c : -1;
}

/* Is enc a UTF-16 encoding (ascii_beside reads two bytes a character
 * then), and *be: big-endian (UTF-16 without a byte order is, after its
 * BOM was read, as the walker names it)? */
static bool utf16_order(const char *enc, bool *be)
{
    bool utf16 =
        enc && (strcmp(enc, "UTF-16LE") == 0 || strcmp(enc, "UTF-16BE") == 0 ||
                strcmp(enc, "UTF-16") == 0);

    *be = utf16 && strcmp(enc, "UTF-16LE") != 0;
    return utf16;
}

/* HTML: does the link's span hold its whole unquoted attribute value, so
 * that quotes may be put around it?  An unquoted value runs from after
 * '=' (and white space) to white space or '>' (WHATWG HTML 13.2.5.35,
 * 38); a span that a character reference or control character the URL
 * leaves out starts or ends inside it (href=&Tab;a) is not all of it,
 * and quotes around it would be read as part of the value. */
static bool whole_unquoted(const struct xiri_rewriter *rw,
                           const struct xiri_link *l, const char *enc)
{
    bool be, utf16 = utf16_order(enc, &be);
    int b = ascii_beside(rw, l->offset, true, utf16, be);
    int a = ascii_beside(rw, l->offset + l->raw_length, false, utf16, be);

    return (b == '=' || b == ' ' || b == '\t' || b == '\n' || b == '\f' ||
            b == '\r') &&
           (a == ' ' || a == '\t' || a == '\n' || a == '\f' || a == '\r' ||
            a == '>');
}

/* HTML: would the new value v (UTF-8, n > 0) be read into a numeric
 * character reference that ends, without its ';', where the link's span
 * begins ("&#x2" before it: a control browsers strip, which the span
 * leaves out)?  The tokenizer reads every digit after "&#" and every hex
 * digit after "&#x" into the reference (WHATWG HTML 13.2.5.75-78), so a
 * new value beginning with one would change both. */
static bool extends_open_ref(const struct xiri_rewriter *rw,
                             const struct xiri_link *l, const char *enc,
                             const char *v, size_t n)
{
    bool be, utf16 = utf16_order(enc, &be), dec = true;
    size_t w = utf16 ? 2 : 1, p = l->offset, digits = 0;
    int c;

    if (n == 0 || ch_hexval((unsigned char)v[0]) < 0)
        return false;
    while (p >= w && (c = ascii_beside(rw, p, true, utf16, be)) >= 0 &&
           ch_hexval((unsigned char)c) >= 0) {
        dec = dec && c >= '0' && c <= '9';
        digits++;
        p -= w;
    }
    if (digits == 0 || p < 2 * w)
        return false;
    c = ascii_beside(rw, p, true, utf16, be);
    if ((c == 'x' || c == 'X') && p >= 3 * w &&
        ascii_beside(rw, p - w, true, utf16, be) == '#' &&
        ascii_beside(rw, p - 2 * w, true, utf16, be) == '&')
        return true; /* any hex digit goes on with it */
    return c == '#' && dec && ascii_beside(rw, p - w, true, utf16, be) == '&' &&
           v[0] >= '0' && v[0] <= '9';
}

/* HTML: the same for a named character reference the span follows
 * without its ';' ("&quot" of a legacy page, read as '"': WHATWG HTML
 * 13.2.5.73): a new value beginning with a letter or a digit would be read
 * into its name (a longer one, or none: then, in an attribute value, the
 * reference stands for itself, "a '=' or an ASCII alphanumeric" after
 * it), and with ';' or '=' too.  Found by fuzz_rewrite: in
 * style="url(&quot/a)" the URL after "&quot" became "http://..." and was
 * read next time as part of "&quothttp://...". */
static bool extends_named_ref(const struct xiri_rewriter *rw,
                              const struct xiri_link *l, const char *enc,
                              const char *v, size_t n)
{
    bool be, utf16 = utf16_order(enc, &be);
    size_t w = utf16 ? 2 : 1, p = l->offset, k = 0, i, got;
    char ref[40], out[8];
    int c;

    if (n == 0 || !(ch_is((unsigned char)v[0], CH_ALPHA | CH_DIGIT) ||
                    v[0] == ';' || v[0] == '='))
        return false;
    /* the name, read backwards (the longest is 31 characters) */
    while (k < sizeof(ref) - 2 && p >= w &&
           (c = ascii_beside(rw, p, true, utf16, be)) >= 0 &&
           ch_is((unsigned char)c, CH_ALPHA | CH_DIGIT)) {
        ref[sizeof(ref) - 1 - k++] = (char)c;
        p -= w;
    }
    if (k == 0 || ascii_beside(rw, p, true, utf16, be) != '&')
        return false;
    ref[sizeof(ref) - 1 - k] = '&';
    /* a reference of all of "&name", up to the span (htmlref.h: nothing
     * taken to follow it) */
    i = sizeof(ref) - 1 - k;
    return htmlref_decode(ref + i, k + 1, true, out, &got) == k + 1;
}

/* enc starts with "UTF-", "utf-", "UTF8" or "utf8" (asked for every
 * link: no strncmp) */
static bool is_utf(const char *enc)
{
    if (!enc)
        return false;
    if (enc[0] == 'U')
        return enc[1] == 'T' && enc[2] == 'F' &&
               (enc[3] == '-' || enc[3] == '8');
    return enc[0] == 'u' && enc[1] == 't' && enc[2] == 'f' &&
           (enc[3] == '-' || enc[3] == '8');
}

/* enc is "UTF-8" or "utf-8" (asked for every value written: no
 * strcmp) */
static bool is_utf8_name(const char *enc)
{
    return is_utf(enc) && enc[3] == '-' && enc[4] == '8' && enc[5] == '\0';
}

/* Is the query of v one browsers encode in the document's encoding: is
 * the scheme of v, or of its base when v is relative (RFC 3986 5.2.2: a
 * relative reference takes the base's scheme), special and not ws or wss
 * (WHATWG URL 4.4, query state)? */
static bool special_for_query(const char *v, size_t n, const char *base)
{
    size_t i = scheme_prefix_len(v, n);
    const char *s = v;

    if (i == 0 && base) {
        s = base;
        i = scheme_prefix_len(base, strlen(base));
    }
    return i > 0 && scheme_query_in_document_encoding(s, i);
}

/* The query of a URI: [*q, *q + *qn) after its '?', or false. */
static bool find_query(const char *s, size_t n, size_t *q, size_t *qn)
{
    const char *hash = memchr(s, '#', n);
    size_t end = hash ? (size_t)(hash - s) : n;
    const char *qm = memchr(s, '?', end);

    if (!qm)
        return false;
    *q = (size_t)(qm - s) + 1;
    *qn = end - *q;
    return true;
}

/* WHATWG URL 4.4 query state: in a document whose encoding is not UTF-8,
 * browsers encode the query of a special URL in that encoding.  Replace
 * the query of the UTF-8 URI uri (made from the IRI iri) by the
 * document-encoding form of the IRI's query.  Returns true when the two
 * forms differ. */
static bool query_in_document_encoding(struct xiri_rewriter *rw,
                                       const char *enc, const char *iri,
                                       size_t iri_len, struct buf *uri)
{
    size_t iq, iqn, uq, uqn, unmappable = 0, i;
    struct buf *q = &rw->tmp;
    bool differs;

    if (!find_query(iri, iri_len, &iq, &iqn) ||
        !find_query(uri->data, uri->len, &uq, &uqn))
        return false;
    for (i = iq; i < iq + iqn && (unsigned char)iri[i] < 0x80; i++)
        ;
    if (i == iq + iqn)
        return false; /* an ASCII query is the same in every encoding */
    q->len = 0;
    q->status = XIRI_OK;
    if (uni_encode_query(rw->ctx, enc, iri + iq, iqn, true, q, &unmappable) !=
        XIRI_OK)
        return false;
    /* the WHATWG query set leaves some ASCII that URIs forbid (^ { } |
     * \ ` [ ], the last two also second bytes in Shift_JIS): escape it
     * too, so that the result is an RFC 3986 URI */
    for (i = 0; i < q->len; i++)
        if (ch_is((unsigned char)q->data[i], CH_LEIRI) || q->data[i] == '[' ||
            q->data[i] == ']') {
            char hex[3];
            hex[0] = '%';
            hex[1] = "0123456789ABCDEF"[(unsigned char)q->data[i] >> 4];
            hex[2] = "0123456789ABCDEF"[(unsigned char)q->data[i] & 15];
            if (!buf_reserve(q, 2))
                return false;
            memmove(q->data + i + 3, q->data + i + 1, q->len - i - 1);
            memcpy(q->data + i, hex, 3);
            q->len += 2;
            i += 2;
        }
    differs = q->len != uqn ||
              (uqn > 0 && memcmp(q->data, uri->data + uq, uqn) != 0);
    if (differs && !rw->opts.query_utf8) {
        /* splice: uri = uri[0..uq) + q + uri[uq + uqn..) */
        size_t tail = uri->len - uq - uqn;
        if (!buf_reserve(uri, q->len))
            return differs;
        memmove(uri->data + uq + q->len, uri->data + uq + uqn, tail);
        if (q->len > 0)
            memcpy(uri->data + uq, q->data, q->len);
        uri->len = uq + q->len + tail;
    }
    return differs;
}

/* In HTML whose encoding is not UTF-8, the escapes in the query of a
 * special URL are bytes of the document's encoding (what browsers send):
 * decoding them as UTF-8 (RFC 3987 3.2) would change the request, so the
 * query stays as it was written, unless the caller says its queries are
 * UTF-8 (query_utf8). */
static void keep_query(const char *orig, size_t n,
                       struct buf *mapped)
{
    size_t oq, oqn, mq, mqn, tail;

    if (!find_query(orig, n, &oq, &oqn) ||
        !find_query(mapped->data, mapped->len, &mq, &mqn) ||
        !buf_reserve(mapped, oqn))
        return;
    tail = mapped->len - mq - mqn;
    memmove(mapped->data + mq + oqn, mapped->data + mq + mqn, tail);
    if (oqn > 0)
        memcpy(mapped->data + mq, orig + oq, oqn);
    mapped->len = mq + oqn + tail;
}

/* Is kb the parsed base[0..len) under profile? */
static bool same_base(const struct rw_base *kb, const char *base, size_t len,
                      enum xiri_profile profile)
{
    return kb->kept && kb->b.profile == profile && kb->b.len == len &&
           (len == 0 || memcmp(kb->b.s, base, len) == 0);
}

/* The base of a link, parsed: one of the last two when it is the same
 * string under the same profile (the links of a document share a few
 * bases; xhtml-20's chapters each have an xml:base, and the document's
 * comes back after each), else base[0..len) parsed now in place of the
 * older one and kept for the next links. */
static const struct rw_base *link_base(struct xiri_rewriter *rw,
                                       const char *base, size_t len,
                                       enum xiri_profile profile)
{
    unsigned other = 1 - rw->base_last;
    struct rw_base *kb;

    if (same_base(&rw->bases[rw->base_last], base, len, profile))
        return &rw->bases[rw->base_last];
    rw->base_last = other;
    kb = &rw->bases[other];
    if (same_base(kb, base, len, profile))
        return kb;
    kb->text.len = 0;
    kb->text.status = XIRI_OK;
    buf_append(&kb->text, base, len);
    /* without memory for the copy, the link's own string serves once */
    kb->kept = kb->text.status == XIRI_OK;
    resolve_base_init(&kb->b, kb->kept && len ? kb->text.data : base, len,
                      profile);
    kb->plain =
        kb->b.status == XIRI_OK && linkcheck_plain(kb->b.s, len, &kb->b.r);
    return kb;
}

/* A network-path reference ("//" authority, RFC 3986 4.2) takes its
 * base's scheme (5.2.2): is that scheme one whose hosts are DNS names, so
 * that the host is mapped by IDNA like an absolute URI's? */
static bool network_path_of_dns(const char *v, size_t n, const char *base)
{
    size_t i;

    if (n < 2 || v[0] != '/' || v[1] != '/' || !base)
        return false;
    i = scheme_prefix_len(base, strlen(base));
    return i > 0 && scheme_is_dns(base, i);
}

/* HTML: is v[0..n) a URL that browsers do not read as RFC 3986 5.2
 * resolves it, so that --resolve leaves it as written?
 * - a scheme that is not special and a path that does not start with
 *   "/" (javascript:..., data:..., mailto:...): an opaque path, taken as
 *   written (WHATWG URL "opaque path state": no dot segments removed),
 *   where 5.2.2 would remove them ("data:text/plain,a/../b" would become
 *   "data:text/b");
 * - a special scheme without "//" after it that html_url_rfc_form did
 *   not rewrite (a file URL, or no host after the slashes): a path to
 *   RFC 3986, other to a browser (WHATWG URL "file state", or a URL it
 *   rejects). */
static bool html_not_rfc_resolved(const char *v, size_t n)
{
    size_t i = scheme_prefix_len(v, n);

    if (i == 0)
        return false;
    if (html_url_special(v, n, NULL))
        return n - i < 3 || v[i + 1] != '/' || v[i + 2] != '/';
    return html_url_opaque_path(v, n);
}

/* What prescan_changed and sniff_changed say of the values after one
 * they left. */
#define HELD_MESSAGE                                                         \
    "an earlier value in the page's first bytes was left so that browsers "  \
    "read the page in the same encoding, and so is this one, so that a "     \
    "second rewrite does the same; left as it is"

/* The output's first bytes as they would be with out[0..n) written for
 * link l: the output so far (head), the original up to l, out, and the
 * original after l up to stream position end, into rw->cand.  False when
 * out of memory. */
static bool output_with(struct xiri_rewriter *rw, const struct xiri_link *l,
                        const char *out, size_t n, size_t end)
{
    const char *orig = rw->pend.data; /* from stream position pend_start */
    size_t p0 = rw->pend_start, k = l->offset + l->raw_length;

    if (end > p0 + rw->pend.len)
        end = p0 + rw->pend.len;
    rw->cand.len = 0;
    rw->cand.status = XIRI_OK;
    buf_append(&rw->cand, rw->head.data ? rw->head.data : "", rw->head.len);
    buf_append(&rw->cand, orig + (rw->emitted - p0), l->offset - rw->emitted);
    buf_append(&rw->cand, out, n);
    if (end > k)
        buf_append(&rw->cand, orig + (k - p0), end - k);
    return rw->cand.status == XIRI_OK;
}

/* HTML: why link l is to be left, or NULL: would the prescan (WHATWG HTML
 * 13.2.3.2), which finds a page's encoding in its first bytes, find
 * another one with out[0..n) written for it?  It reads tags more simply
 * than the tokenizer (a title's text as tags, say), so that a <meta> may
 * stand inside a value for the tokenizer, or a quote of a value end a
 * quoted one for the prescan: escaping such a value could take a
 * declaration away or make one, and browsers would decode the whole page
 * otherwise.  Once a value is left, so is every later one in the
 * prescan's reach: rewritten, it could let a second rewrite take the
 * first (idempotence; fuzz_rewrite). */
static const char *prescan_changed(struct xiri_rewriter *rw,
                                   const struct xiri_link *l, const char *out,
                                   size_t n)
{
    char now[64];

    /* where the value is in the output (a second rewrite reads that) */
    if (rw->head.len + (l->offset - rw->emitted) >= INPUT_SNIFF_BYTES ||
        rw->pend_start != 0 || !walk_html_prescan(rw->walker))
        return NULL; /* out of its reach */
    if (rw->prescan_held)
        return HELD_MESSAGE;
    if (!rw->prescan_known) {
        input_prescan((const unsigned char *)rw->pend.data, rw->pend.len,
                      rw->prescan, sizeof(rw->prescan));
        rw->prescan_known = true;
    }
    if (!output_with(rw, l, out, n,
                     l->offset + l->raw_length + INPUT_SNIFF_BYTES))
        return "out of memory; left as it is";
    input_prescan((const unsigned char *)rw->cand.data, rw->cand.len, now,
                  sizeof(now));
    if (strcmp(now, rw->prescan) == 0)
        return NULL;
    rw->prescan_held = true;
    return "the new value would change the encoding browsers find in the "
           "page's first bytes (their prescan, WHATWG HTML 13.2.3.2, reads a "
           "<meta> there that this value holds or hides), and so how they "
           "read all of it; left as it is";
}

static bool has_non_ascii(const char *s, size_t n)
{
    size_t i;

    for (i = ascii_blocks(s, 0, n); i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return true;
    return false;
}

/* HTML whose encoding was guessed from its first bytes (UTF-8 when they
 * are valid UTF-8, else windows-1252: WHATWG HTML 13.2.3.1 and input.c):
 * why link l is to be left, or NULL: would another guess be made with
 * out[0..n) written for it?  A value whose bytes are the only ones that
 * are not UTF-8 can become ASCII, and the page valid UTF-8: what is left
 * of it would be read in another encoding (found by fuzz_rewrite: not
 * idempotent).  A head left all ASCII is the same text in both.  Once a
 * value is left, so is every later one with non-ASCII bytes in the head:
 * rewritten, it could make the first one ASCII-safe on a second pass
 * (rewrite is idempotent).  enc: the document's encoding. */
static const char *sniff_changed(struct xiri_rewriter *rw,
                                 const struct xiri_link *l, const char *out,
                                 size_t n, const char *enc)
{
    size_t len;
    bool whole;
    struct sniff s;

    if (!walk_guessed_head(rw->walker, &len, &whole) ||
        (!whole && rw->head.len + (l->offset - rw->emitted) >= len) ||
        rw->head.len >= head_cap(rw) || !enc)
        return NULL; /* out of its reach in the output (keep_head: the head
                        is whole before) */
    if (!has_non_ascii(rw->pend.data + (l->offset - rw->pend_start),
                       l->raw_length) &&
        !has_non_ascii(out, n))
        return NULL; /* ASCII for ASCII: the guess stands */
    if (rw->guess_held)
        return HELD_MESSAGE;
    if (!output_with(rw, l, out, n, len))
        return "out of memory; left as it is";
    input_sniff((const unsigned char *)rw->cand.data, rw->cand.len, whole,
                XIRI_DOC_HTML, NULL, NULL, &s);
    /* a head of ASCII alone reads the same either way (and the walker
     * reads on to decide) */
    if (s.undecided || strcmp(s.encoding, enc) == 0)
        return NULL;
    rw->guess_held = true;
    return "the page declares no encoding, and with the new value its first "
           "bytes would be guessed to be in another one, in which the rest "
           "of it reads otherwise; left as it is: declare the encoding "
           "(<meta charset>) or give --encoding";
}

/* HTML: would browsers reject the link (html_url_rejected)?  A new
 * spelling could make such a link work, which rewrite must not do.  When
 * that cannot be told (out of memory), the rewriter stops. */
static bool html_rejected(struct xiri_rewriter *rw, const struct xiri_link *l,
                          const char *v, size_t n)
{
    bool rejected = false;
    enum xiri_status st;

    if (rw->stripped) {
        /* as browsers read it (new_value) */
        v = rw->strip.data ? rw->strip.data : "";
        n = rw->strip.len;
    }
    st = html_url_rejected(rw->ctx, v, n, l->base, &rejected);
    if (st != XIRI_OK) {
        stop(rw, st, xiri_strerror(st));
        return true; /* left as it is */
    }
    return rejected;
}

/* What the string a step of new_value works on is to the link's value,
 * so that an error's offset in it can be placed in the document. */
enum rw_source {
    RW_SRC_VALUE,    /* the value itself */
    RW_SRC_STRIPPED, /* the value without ASCII tabs and newlines, '\'
                        read as '/', "C|" as "C:" (html_url_prepare:
                        same length per byte kept) */
    RW_SRC_OTHER     /* repaired or resolved: not mapped back */
};

/* The offset in l->value of byte off of a string of kind src made from
 * it, or SIZE_MAX when not known. */
static size_t value_offset(const struct xiri_link *l, enum rw_source src,
                           size_t off)
{
    if (src == RW_SRC_VALUE)
        return off <= l->value_len ? off : SIZE_MAX;
    if (src != RW_SRC_STRIPPED)
        return SIZE_MAX;
    return html_url_raw_offset(l->value, l->value_len, off);
}

/* value_offset of a stripped string, for codes_rebase_bytes. */
static size_t stripped_offset(const void *l, size_t off)
{
    return value_offset(l, RW_SRC_STRIPPED, off);
}

/* Where new_value's error err, about the string v[0..n) of kind src,
 * lies in the link's value: *at, or SIZE_MAX when it lies in another
 * string, which is kept for the message (rw->other: what it is). */
static void placed(struct xiri_rewriter *rw, const struct xiri_link *l,
                   enum rw_source src, const char *v, size_t n,
                   const char *what, struct xiri_error *err, size_t *at)
{
    *at = value_offset(l, src, err->offset);
    if (*at != SIZE_MAX && src == RW_SRC_STRIPPED) {
        /* its "byte N" too, as the tabs and newlines stand in the value */
        char msg[sizeof(err->message) + 32];
        size_t len;

        codes_rebase_bytes(err->message, stripped_offset, l, msg, sizeof(msg));
        len = strlen(msg);
        if (len >= sizeof(err->message))
            len = sizeof(err->message) - 1; /* (a few digits more) */
        memcpy(err->message, msg, len);
        err->message[len] = '\0';
    }
    if (*at == SIZE_MAX && src == RW_SRC_OTHER && err->offset != SIZE_MAX) {
        rw->other = v ? v : "";
        rw->other_len = n;
        rw->other_what = what;
    }
}

/* Compute the new value of a link into rw->value (enc: the document's
 * encoding, xiri_walker_encoding).  Returns XIRI_OK (the
 * value may be unchanged) or why it cannot be mapped, with *at the
 * offset in l->value of the character err is about (SIZE_MAX when it is
 * about none, or one of another string). */
static enum xiri_status new_value(struct xiri_rewriter *rw,
                                  const struct xiri_link *l, const char *enc,
                                  int *qdiff, struct xiri_error *err,
                                  size_t *at)
{
    const char *v = l->value;
    size_t n = l->value_len;
    enum xiri_status st = XIRI_OK;
    enum xiri_idn idn;
    unsigned flags = XIRI_MAP_ESCAPE_LEIRI;
    struct ref r;
    bool plain = false; /* v is known to be linkcheck_plain */
    bool leiri = false; /* v is known to be a valid LEIRI */
    bool legacy;        /* HTML in an encoding that is not UTF-8 */
    enum rw_source src = RW_SRC_VALUE; /* what v is */
    const char *what = NULL;           /* what v is, when src is RW_SRC_OTHER */
    /* v is linkcheck_plain, its split in r */
    bool v_plain = false;

    *qdiff = 0;
    *at = SIZE_MAX;
    rw->other = NULL;
    err->offset = SIZE_MAX;
    err->message[0] = '\0';
    rw->stripped = false;
    /* HTML to URIs: the value's plain test (asked below anyway) first, as
     * a plain value holds none of the bytes html_url_needs_prepare looks
     * for */
    if (l->profile == XIRI_PROFILE_HTML && rw->opts.to == XIRI_REWRITE_URI)
        v_plain = linkcheck_plain_split(v, n, &r);
    if (l->profile == XIRI_PROFILE_HTML &&
        (v_plain || !html_url_needs_prepare(v, n))) {
        /* nothing a browser reads otherwise */
    } else if (l->profile == XIRI_PROFILE_HTML) {
        /* WHATWG URL "basic URL parser": browsers remove every ASCII tab
         * or newline from the input, read '\' as '/' in the path of an
         * http(s), ftp, ws(s) or file URL and a drive letter "C|" of a
         * file URL as "C:": the URI is what they read, so that the link
         * requests what it requested (htmlurl.c) */
        rw->strip.len = 0;
        rw->strip.status = XIRI_OK;
        html_url_prepare(v, n, l->base, &rw->strip);
        if (rw->strip.status != XIRI_OK)
            return rw->strip.status;
        v = rw->strip.data ? rw->strip.data : "";
        n = rw->strip.len;
        src = RW_SRC_STRIPPED;
        rw->stripped = true;
    }
    /* --repair: the value its author meant (mojibake.h) */
    if (rw->opts.repair) {
        rw->fix.len = 0;
        rw->fix.status = XIRI_OK;
        if (moji_repair(v, n, &rw->fix) > 0) {
            if (rw->fix.status != XIRI_OK)
                return rw->fix.status;
            v = rw->fix.data;
            n = rw->fix.len;
            src = RW_SRC_OTHER;
            what = "repaired";
            v_plain = false;
        }
    }
    /* HTML: "http:foo" is "foo" to a browser against an http base, and
     * "https:h/p" or "http:///h/p" has the host h (htmlurl.h): resolved
     * so; and "C|/x" against a file base is "/C:/x", which it is written
     * as even when not resolved ("C%7C/x" is another path to browsers) */
    if (l->base && l->profile == XIRI_PROFILE_HTML &&
        (rw->opts.resolve || html_url_drive_relative(v, n, l->base))) {
        rw->rfc.len = 0;
        rw->rfc.status = XIRI_OK;
        if (html_url_rfc_form(v, n, l->base, &rw->rfc)) {
            if (rw->rfc.status != XIRI_OK)
                return rw->rfc.status;
            v = rw->rfc.data;
            n = rw->rfc.len;
            src = RW_SRC_OTHER;
            what = "as browsers read it";
            v_plain = false;
        }
    }
    /* (a CSS url() that is only a fragment is local, whatever the base:
     * CSS Values and Units 4, "Fragment URLs"; resolved, it would point
     * at the document by its address, which is not the same) */
    if (rw->opts.resolve && l->base &&
        !(l->profile == XIRI_PROFILE_HTML && html_not_rfc_resolved(v, n)) &&
        !(l->shape == XIRI_SHAPE_CSS && n > 0 && v[0] == '#')) {
        const struct rw_base *kb =
            link_base(rw, l->base, strlen(l->base), l->profile);
        const struct resolve_base *b = &kb->b;
        bool ref_plain;

        /* r is used below only when the reference is plain */
        ref_plain = v_plain || linkcheck_plain_split(v, n, &r);
        rw->resolved.len = 0;
        rw->resolved.status = XIRI_OK;
        if (b->status == XIRI_OK && ref_plain && r.part[XIRI_PART_SCHEME].set) {
            /* RFC 3986 5.2.2: a reference with a scheme is its own
             * target, its path without dot segments, and a plain one has
             * none (test_linkcheck.c checks that xiri_resolve agrees) */
            plain = true;
        } else {
            if (b->status == XIRI_OK && ref_plain) {
                /* a plain reference is valid under every profile, and
                 * ref_parse splits it as ref_split did: no need to scan
                 * it again (test_resolve.c checks both) */
                resolve_parsed(b, v, n, &r, &rw->resolved);
                /* The target of a plain relative reference against a
                 * plain base is plain when it has an authority: its bytes
                 * are theirs, with one '#' at most (R's); scheme and
                 * host are theirs, lower case; no userinfo or port; and
                 * remove_dot_segments on a path that starts with "/"
                 * leaves no dot segment (RFC 3986 5.2.4: 2B and 2C catch
                 * every "/." and "/.."), while an empty R.path keeps the
                 * base's, which has none.  Without an authority the "/."
                 * guard may write one.  test_resolve.c checks this on
                 * the conformance vectors. */
                plain = kb->plain && (b->r.part[XIRI_PART_AUTHORITY].set ||
                                      r.part[XIRI_PART_AUTHORITY].set);
                st = rw->resolved.status;
            } else {
                st = resolve_ref(b, v, n, &rw->resolved, err);
            }
            if (st != XIRI_OK) {
                if (rw->resolved.status != XIRI_OK)
                    error_set(err, st, 0, "%s", xiri_strerror(st));
                else if (b->status == XIRI_OK) /* else the base's */
                    placed(rw, l, src, v, n, what, err, at);
                return st;
            }
            v = rw->resolved.data;
            n = rw->resolved.len;
            src = RW_SRC_OTHER;
            what = "resolved";
            v_plain = false;
            /* RFC 3986 5.2.2 builds the target from whole components of
             * the base and the reference, each into a component of the
             * same kind (the merged path from two paths, cut at a "/"),
             * and 5.2.4 only removes whole segments; the target has a
             * scheme, so the first-segment colon rule does not apply.
             * Both were valid under the link's profile, so the target is
             * too, and a LEIRI allows all that a URI, an IRI or a LEIRI
             * does, but not all that HTML allows.  test_resolve.c checks
             * this on the conformance vectors. */
            leiri = l->profile != XIRI_PROFILE_HTML;
        }
    }
    if (rw->opts.to == XIRI_REWRITE_IRI) {
        idn = rw->opts.idn == XIRI_REWRITE_IDN_UNICODE ? XIRI_IDN_UNICODE
                                                       : XIRI_IDN_PERCENT;
    } else {
        if (rw->opts.idn == XIRI_REWRITE_IDN_PUNYCODE) {
            idn = XIRI_IDN_PUNYCODE;
            if (!network_path_of_dns(v, n, l->base))
                flags |= XIRI_MAP_DNS_ONLY;
        } else {
            idn = XIRI_IDN_PERCENT;
        }
        /* RFC 3987 3.1 maps only what is not printable ASCII, and a
         * plain link is printable ASCII with a lower-case ASCII host:
         * its URI is itself (test_linkcheck.c checks this on the
         * conformance data) */
        if (!plain && leiri) {
            /* a resolved target not known to be plain is split for
             * to_uri_append without asking linkcheck_plain first: those
             * of xhtml-20 hold non-ASCII characters, and to-uri of one
             * that is plain is the same bytes anyway (above) */
            ref_split(v, n, &r);
        } else if (!plain) {
            plain = v_plain || linkcheck_plain_split(v, n, &r);
        }
    }
    rw->value.len = 0;
    rw->value.status = XIRI_OK;
    rw->value_plain = false;
    if (rw->opts.to == XIRI_REWRITE_IRI) {
        /* a network-path reference takes its base's scheme */
        st = to_iri_append(
            rw->ctx, v ? v : "", n, idn,
            (v && network_path_of_dns(v, n, l->base) ? TO_IRI_DNS : 0) |
                (rw->opts.idn == XIRI_REWRITE_IDN_KEEP ? TO_IRI_KEEP_HOSTS : 0),
            &rw->value, err);
        if (st != XIRI_OK)
            rw->value.len = 0;
    } else if (plain) {
        buf_append(&rw->value, v, n); /* plain: the same */
        rw->value_plain = true;
    } else {
        /* the URI straight into rw->value; a valid LEIRI is not parsed
         * again (its components are ref_split's) */
        if (rw->opts.idn == XIRI_REWRITE_IDN_KEEP)
            flags |= TO_URI_KEEP_HOSTS;
        st = to_uri_append(rw->ctx, v ? v : "", n, leiri ? &r : NULL, idn,
                           flags, &rw->value, err);
        if (st != XIRI_OK)
            rw->value.len = 0;
    }
    /* (an empty value, v NULL, has no query) */
    legacy = v && enc && !is_utf(enc) &&
             linkcheck_query_in_document_encoding(l, walk_rendered(rw->walker));
    if (st == XIRI_OK && rw->opts.to == XIRI_REWRITE_URI && legacy &&
        special_for_query(v, n, l->base)) {
        *qdiff = query_in_document_encoding(rw, enc, v, n, &rw->value);
        rw->value_plain = false; /* its query may be spliced */
    }
    if (st == XIRI_OK && rw->opts.to == XIRI_REWRITE_IRI &&
        !rw->opts.query_utf8 && legacy && special_for_query(v, n, l->base))
        keep_query(v, n, &rw->value);
    if (st == XIRI_OK && rw->value.status != XIRI_OK)
        st = rw->value.status;
    else if (st != XIRI_OK && st != XIRI_ENOMEM)
        placed(rw, l, src, v, n, what, err, at);
    return st;
}

/* Characters an unquoted HTML attribute value cannot hold (HTML
 * "attribute value (unquoted) state"), and NUL. */
static const unsigned char rw_unquotable[256] = {
    ['\0'] = 1, [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\f'] = 1,
    ['"'] = 1,  ['\''] = 1, ['='] = 1,  ['<'] = 1,  ['>'] = 1,  ['`'] = 1,
};

static bool unquotable(const char *s, size_t n)
{
    size_t i;

    if (n == 0)
        return false;
    for (i = 0; i < n; i++)
        if (rw_unquotable[(unsigned char)s[i]])
            return false;
    return true;
}

/* The characters escape_value may have to write as references. */
static const unsigned char rw_markup[256] = {
    ['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1, ['\''] = 1,
    ['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
};

/* The first character of s[from..n) that rw_markup names, or n. */
static size_t next_markup(const char *s, size_t from, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t k = from;

    /* four bytes a step while none is markup */
    while (n - k >= 4 && !(rw_markup[u[k]] | rw_markup[u[k + 1]] |
                           rw_markup[u[k + 2]] | rw_markup[u[k + 3]]))
        k += 4;
    while (k < n && !rw_markup[u[k]])
        k++;
    return k;
}

/* Does rw->value (out[0..n)) hold a character escape_value writes as a
 * reference or otherwise changes?  Of those a plain value can hold only
 * '&' and '\'' (linkcheck.c's class table), which memchr finds
 * faster than the table walk. */
static bool needs_markup(const struct xiri_rewriter *rw, const char *out,
                         size_t n)
{
    if (!rw->value_plain)
        return next_markup(out, 0, n) < n;
    return n > 0 && (memchr(out, '&', n) || memchr(out, '\'', n));
}

/* Escape the value for where it stands (XML 1.0 2.4 and 3.1; HTML
 * attribute value states), into rw->tmp. */
static void escape_value(struct xiri_rewriter *rw, const struct xiri_link *l,
                         bool add_quotes)
{
    struct buf *o = &rw->tmp;
    char quote = add_quotes ? '"' : l->quote;
    const char *v = rw->value.data;
    size_t n = v ? rw->value.len : 0, i;

    o->len = 0;
    o->status = XIRI_OK;
    if (add_quotes)
        buf_putc(o, '"');
    for (i = 0; i < n; i++) {
        char c;
        /* the run of characters that need no reference, at once */
        size_t k = next_markup(v, i, n);

        c = k < n ? v[k] : 0;
        if (k > i)
            buf_append(o, v + i, k - i);
        if (k == n)
            break;
        i = k;
        if (c == '&')
            buf_puts(o, "&amp;");
        else if (c == '<')
            buf_puts(o, "&lt;");
        else if (c == '>' &&
                 (!l->attribute || (l->element && l->element[0] == '?')))
            /* "]]>" may not appear in content, nor "?>" in a processing
             * instruction's pseudo-attribute */
            buf_puts(o, "&gt;");
        else if (c == '"' && quote == '"')
            buf_puts(o, "&quot;");
        else if (c == '\'' && quote == '\'')
            buf_puts(o, "&#39;");
        else if (c == '\r' || (l->attribute && (c == '\t' || c == '\n')))
            /* XML 1.0 2.11 and 3.3.3: a CR as written is read as a line
             * end, and a tab or line end in an attribute value as a
             * space; a reference keeps the character */
            buf_puts(o, c == '\t' ? "&#9;" : c == '\n' ? "&#10;" : "&#13;");
        else
            buf_putc(o, c);
    }
    if (add_quotes)
        buf_putc(o, '"');
}

/* Whether rw->value can stand in a CDATA section of the document: it does
 * not hold "]]>", which would end the section (XML 1.0 2.7), and the
 * document's encoding has every character of it (no reference can be
 * written there). */
static bool cdata_writable(struct xiri_rewriter *rw)
{
    const char *v = rw->value.data ? rw->value.data : "";
    size_t n = rw->value.len, i;
    const char *enc = xiri_walker_encoding(rw->walker, NULL);

    for (i = 0; i + 2 < n; i++)
        if (v[i] == ']' && v[i + 1] == ']' && v[i + 2] == '>')
            return false;
    if (!enc || is_utf(enc))
        return true;
    for (i = 0; i < n && (unsigned char)v[i] < 0x80; i++)
        ;
    return i == n || uni_encodable(enc, v, n);
}

/* U+FFFD in UTF-8 */
static bool holds_replacement(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i + 2 < n; i++) {
        const char *p = memchr(s + i, 0xEF, n - 2 - i);
        if (!p)
            return false;
        i = (size_t)(p - s);
        if (s[i + 1] == '\xBF' && s[i + 2] == '\xBD')
            return true;
    }
    return false;
}

/* Lazy positions: the link's line and column for an event that has a
 * message (a value left, an identifier kept, a query browsers send
 * otherwise) and no place yet (line 0: the walker was given
 * lazy_positions, lines count from 1); the others keep 0, as their link
 * does. */
static void event_place(struct xiri_rewriter *rw, struct xiri_rewrite_event *ev)
{
    size_t pos;

    if (ev->line == 0 && (ev->status != XIRI_OK || ev->identifier_kept ||
                          ev->query_differs || ev->message))
        xiri_walker_position(rw->walker, ev->link, 0, &ev->line, &ev->column,
                             &pos);
}

/* Give ev, placed, to the caller; non-zero when the rewrite stops (a
 * callback asked it, or it had failed). */
static int deliver(struct xiri_rewriter *rw, struct xiri_rewrite_event *ev)
{
    event_place(rw, ev);
    if (rw->on_event && rw->on_event(rw->user, ev) != 0)
        stop(rw, XIRI_ECANCELED, "stopped by a callback");
    return rw->status != XIRI_OK;
}

/* !unquotable(rw->value), worked out once per link: *memo is -1 until
 * then (on_link asks it in up to four tests of an unquoted value) */
static bool needs_quotes(const struct xiri_rewriter *rw, int *memo)
{
    if (*memo < 0)
        *memo = !unquotable(rw->value.data, rw->value.len);
    return *memo;
}

/* Could v[0..n), written as it is, end or break the url() of CSS that it
 * replaces, whose URL is quoted with quote (0: unquoted)?  In a string,
 * its quote, a backslash or a line end (CSS Syntax Level 3, 4.3.5); in
 * an unquoted URL, white space, a quote mark, a parenthesis, a backslash
 * or a control character (4.3.6).  xiri writes no CSS escapes. */
static bool css_unsafe(const char *v, size_t n, char quote)
{
    size_t i;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (quote ? c == (unsigned char)quote || c == '\\' || c == '\n' ||
                        c == '\r' || c == '\f'
                  : c <= 0x20 || c == 0x7F || c == '"' || c == '\'' ||
                        c == '(' || c == ')' || c == '\\')
            return true;
    }
    return false;
}

static int on_link(void *user, const struct xiri_link *l)
{
    struct xiri_rewriter *rw = user;
    struct xiri_rewrite_event ev;
    struct xiri_error err;
    enum xiri_status st;
    int qdiff = 0;
    const char *enc;
    bool html = l->profile == XIRI_PROFILE_HTML;
    size_t at, pos;
    unsigned long line, column;
    int quotes = -1; /* needs_quotes */

    memset(&ev, 0, sizeof(ev));
    ev.link = l;
    ev.line = l->line;
    ev.column = l->column;
    if (l->shape == XIRI_SHAPE_HASH_NAME) {
        /* an HTML usemap is no URL but '#' and a <map>'s name, compared
         * as written (HTML LS 2.3, References: "#caf%C3%A9" finds no
         * <map name="café">): never re-spelt, not even with
         * opts.identifiers, never resolved, nothing to say */
        return deliver(rw, &ev);
    }
    if (holds_replacement(l->value, l->value_len)) {
        /* never lose data: the original bytes are not known any more */
        ev.status = XIRI_EUNICODE;
        ev.message = "the value holds U+FFFD (bytes invalid in the "
                     "document's encoding, or a real U+FFFD): left as it is";
        return deliver(rw, &ev);
    }
    /* the document's encoding, asked once for the link's steps */
    enc = xiri_walker_encoding(rw->walker, NULL);
    st = new_value(rw, l, enc, &qdiff, &err, &at);
    ev.status = st;
    ev.query_differs = qdiff;
    if (st == XIRI_ENOMEM) {
        stop(rw, st, "out of memory");
        return 1;
    }
    if (st != XIRI_OK) {
        ev.message = err.message;
        if (rw->other) {
            /* its "byte N" is of that string, not of the value */
            snprintf(rw->message, sizeof(rw->message),
                     "%s (in \"%.*s%s\", the link %s)", err.message,
                     (int)(rw->other_len > 200 ? 200 : rw->other_len),
                     rw->other, rw->other_len > 200 ? "..." : "",
                     rw->other_what);
            ev.message = rw->message;
        }
        /* the place of the character the message is about, as check
         * gives it (the walker counts the text as written) */
        if (at != SIZE_MAX && xiri_walker_position(rw->walker, l, at, &line,
                                                   &column, &pos) == XIRI_OK) {
            ev.line = line;
            ev.column = column;
        }
    } else if (rw->value.len == l->value_len &&
               (l->value_len == 0 ||
                memcmp(rw->value.data, l->value, l->value_len) == 0)) {
        /* needs no change: not touched at all */
    } else if (l->profile == XIRI_PROFILE_HTML &&
               html_rejected(rw, l, l->value, l->value_len)) {
        ev.status = XIRI_EINVAL;
        ev.message = "browsers reject this URL (its host or port, WHATWG URL: "
                     "see xiri check --profile=html), and another spelling "
                     "could make it work; left as it is";
    } else if (l->profile == XIRI_PROFILE_HTML && rw->opts.resolve &&
               html_url_opaque_base(l->value, l->value_len, l->base)) {
        ev.status = XIRI_EINVAL;
        ev.message = "browsers cannot resolve this relative reference against "
                     "its base, whose path is opaque (a mailto:, urn: or "
                     "similar <base href>; WHATWG URL: only a fragment can "
                     "be): resolved, it would work; left as it is";
    } else if (!rw->opts.identifiers && xiri_link_is_identifier(l)) {
        /* compared as a string (shapes.c): another spelling, even an
         * equivalent URI, would name something else */
        ev.identifier_kept = 1;
        ev.message = "an identifier (an Atom id, an RSS guid, a namespace "
                     "name, an RDF node) is compared as a string: another "
                     "spelling, even the equivalent URI, names something "
                     "else; left as it is";
    } else if (l->shape == XIRI_SHAPE_CSS &&
               css_unsafe(rw->value.data, rw->value.len, l->item_quote)) {
        ev.status = XIRI_EINVAL;
        ev.message = l->item_quote
                         ? "the new value holds the quote mark of its CSS "
                           "string, a backslash or a line end, which would "
                           "end or break the CSS string it stands in (CSS "
                           "Syntax Level 3, 4.3.5); left as it is"
                         : "the new value holds white space, a quote mark, a "
                           "parenthesis or a backslash, which would end or "
                           "break the unquoted CSS url() it stands in (CSS "
                           "Syntax Level 3, 4.3.6); left as it is: quote "
                           "the URL, url(\"...\")";
    } else if (l->empty_tag) {
        /* (only --resolve changes an empty value) */
        ev.status = XIRI_EINVAL;
        ev.message = "the element is written as an empty-element tag "
                     "(<e/>), which holds no place for a value; left as it "
                     "is: write it as <e></e> to have it rewritten";
    } else if (l->offset < rw->emitted) {
        ev.status = XIRI_EINVAL;
        ev.message = "the value overlaps text already written; left as it is";
    } else if (l->raw_length == 0 && (l->value_len > 0 || l->has_markup)) {
        ev.status = XIRI_EINVAL;
        ev.message = "the value's place in the document is not known (a "
                     "default from the DTD's ATTLIST, a value the DTD's type "
                     "normalizes, a list item that starts or ends inside "
                     "an entity reference, or an element in an entity's "
                     "replacement text); left as it is";
    } else if (l->has_markup) {
        /* never lose data: the comment, processing instruction or CDATA
         * section inside the span would go with it */
        ev.status = XIRI_EINVAL;
        ev.message = "the value is written with a comment, a processing "
                     "instruction or a CDATA section among its characters, "
                     "which a new value would remove; left as it is";
    } else if (l->in_cdata && !cdata_writable(rw)) {
        ev.status = XIRI_EINVAL;
        ev.message = "the value stands in a CDATA section (or the raw text "
                     "of an HTML style or script element), where a character "
                     "the document's encoding lacks cannot be written as a "
                     "reference; left as it is";
    } else if (html && l->attribute && l->quote == 0 &&
               needs_quotes(rw, &quotes) &&
               (memchr(l->value, '"', l->value_len) ||
                memchr(l->value, '\'', l->value_len))) {
        /* a quote in an unquoted value is broken markup (WHATWG HTML
         * 13.2.5.38): quotes put around it could pair with one before */
        ev.status = XIRI_EINVAL;
        ev.message = "an unquoted value holding a quote character would "
                     "need quotes, which could change how the tag is read; "
                     "left as it is: quote the attribute";
    } else if (html && l->attribute && l->quote == 0 &&
               l->shape != XIRI_SHAPE_IRI &&
               l->shape != XIRI_SHAPE_IDENTIFIER &&
               l->shape != XIRI_SHAPE_RESOLVED_IDENTIFIER &&
               needs_quotes(rw, &quotes)) {
        /* quotes can only go around a whole unquoted value, and this is
         * one item of a list */
        ev.status = XIRI_EINVAL;
        ev.message = "one item of an unquoted list value would need quotes; "
                     "left as it is: quote the attribute";
    } else if (html && l->attribute && l->quote == 0 && l->raw_length == 0) {
        /* an attribute without a value (<a href>), or with an empty
         * unquoted one: the new value would be written after its name
         * (--resolve makes the empty string the base) */
        ev.status = XIRI_EINVAL;
        ev.message = "the attribute has no value (the empty string: the "
                     "document's own address); left as it is: give it one";
    } else if (html && l->attribute && l->quote == 0 &&
               needs_quotes(rw, &quotes) && !whole_unquoted(rw, l, enc)) {
        /* quotes around a part of the value would be read inside it */
        ev.status = XIRI_EINVAL;
        ev.message = "the unquoted value would need quotes, but the link is "
                     "only a part of it (a reference or control character "
                     "before or after it); left as it is: quote the "
                     "attribute";
    } else if (html && !l->in_cdata && rw->value.data &&
               (extends_open_ref(rw, l, enc, rw->value.data, rw->value.len) ||
                (l->attribute && extends_named_ref(rw, l, enc, rw->value.data,
                                                   rw->value.len)))) {
        /* (in text, a named reference without ';' is read whatever
         * follows it, the longest name first, and none of those shorter
         * than another stands for a character that comes before a URL:
         * attributes only) */
        ev.status = XIRI_EINVAL;
        ev.message = "the value follows a character reference without its "
                     "';', which the new value's first character would be "
                     "read into; left as it is: end the reference with ';' "
                     "(or remove it, if it stands for a control)";
    } else {
        bool add_quotes =
            html && l->attribute && l->quote == 0 && needs_quotes(rw, &quotes);
        /* what is written: the value itself when it needs no reference
         * and no quotes, else its escaped form; in the document's
         * encoding when that is not UTF-8 */
        const char *out = rw->value.data ? rw->value.data : "";
        size_t out_len = rw->value.len;

        /* inside a CDATA section every character stands for itself (XML
         * 1.0 2.7): the value is written as it is */
        if (!l->in_cdata && (add_quotes || needs_markup(rw, out, out_len))) {
            escape_value(rw, l, add_quotes);
            if (rw->tmp.status != XIRI_OK) {
                stop(rw, rw->tmp.status, "out of memory");
                return 1;
            }
            out = rw->tmp.data;
            out_len = rw->tmp.len;
        }
        if (enc && !is_utf8_name(enc)) {
            rw->coded.len = 0;
            rw->coded.status = XIRI_OK;
            st = uni_encode_text(enc, out, out_len, &rw->coded);
            if (st == XIRI_OK)
                st = rw->coded.status;
            if (st != XIRI_OK) {
                stop(rw, st,
                     "cannot encode a value in the document's encoding");
                return 1;
            }
            out = rw->coded.data;
            out_len = rw->coded.len;
        }
        const char *held = prescan_changed(rw, l, out, out_len);

        if (!held)
            held = sniff_changed(rw, l, out, out_len, enc);
        if (held) {
            ev.status = XIRI_EINVAL;
            ev.message = held;
        } else {
            emit_original(rw, l->offset);
            keep_head(rw, out, out_len);
            if (rw->status == XIRI_OK &&
                rw->write_fn(rw->user, out, out_len) != 0)
                stop(rw, XIRI_EIO, "cannot write the output");
            rw->emitted = l->offset + l->raw_length;
            ev.new_value = rw->value.data;
            ev.new_len = rw->value.len;
            ev.written = out_len;
        }
    }
    return deliver(rw, &ev);
}

/* After encoding-late: a byte that is not ASCII, anywhere in the page,
 * may read otherwise in the encoding browsers read it again in. */
static bool late_meta_stop(struct xiri_rewriter *rw)
{
    if (!rw->late_meta || !rw->non_ascii_seen || rw->status != XIRI_OK)
        return false;
    stop(rw, XIRI_EENCODING,
         "the page declares its encoding too late to be read in it "
         "(encoding-late); give --encoding");
    return true;
}

/* The walker's findings go to the caller's callback with the caller's
 * user pointer (the walker's user pointer is the rewriter). */
static int forward_diag(void *user, const struct xiri_doc_diag *d)
{
    struct xiri_rewriter *rw = user;
    int r = rw->on_diag ? rw->on_diag(rw->user, d) : 0;

    if (d->code && strcmp(d->code, "encoding-late") == 0) {
        /* browsers read the page in another encoding than the one its
         * values were decoded in: rewriting them would change what they
         * request, unless the page is ASCII, which reads the same in both
         * (checked on every byte fed: late_meta) */
        rw->late_meta = true;
        if (late_meta_stop(rw))
            return 1;
    }
    if (d->code && strcmp(d->code, "encoding-replacement") == 0) {
        int guessed = 0;

        (void)xiri_walker_encoding(rw->walker, &guessed);
        if (guessed) {
            /* its values were decoded in a guess, which may not be what
             * the author wrote them in */
            stop(rw, XIRI_EENCODING,
                 "the page declares an encoding browsers do not read "
                 "(encoding-replacement); transcode it, or give --encoding");
            return 1;
        }
    }
    return r;
}

enum xiri_status xiri_rewriter_new(struct xiri_ctx *ctx,
                                   const struct xiri_registry *reg,
                                   const struct xiri_walk_options *walk_opts,
                                   const struct xiri_rewrite_options *opts,
                                   xiri_write_fn *write_fn,
                                   xiri_rewrite_fn *on_event,
                                   xiri_doc_diag_fn *on_diag, void *user,
                                   struct xiri_rewriter **out)
{
    struct xiri_rewriter *rw;
    enum xiri_status st;

    if (!out)
        return XIRI_EINVAL;
    *out = NULL;
    if (!ctx || !reg || !write_fn)
        return XIRI_EINVAL;
    rw = mem_alloc(sizeof(*rw));
    if (!rw)
        return XIRI_ENOMEM;
    memset(rw, 0, sizeof(*rw));
    rw->ctx = ctx;
    if (opts)
        rw->opts = *opts;
    else
        xiri_rewrite_options_init(&rw->opts);
    rw->write_fn = write_fn;
    rw->on_event = on_event;
    rw->on_diag = on_diag;
    rw->user = user;
    buf_init(&rw->pend, XIRI_MAX_LEN);
    buf_init(&rw->head, XIRI_MAX_LEN);
    buf_init(&rw->cand, XIRI_MAX_LEN);
    buf_init(&rw->value, XIRI_MAX_LEN);
    buf_init(&rw->coded, XIRI_MAX_LEN);
    buf_init(&rw->tmp, XIRI_MAX_LEN);
    buf_init(&rw->strip, XIRI_MAX_LEN);
    buf_init(&rw->rfc, XIRI_MAX_LEN);
    buf_init(&rw->fix, XIRI_MAX_LEN);
    buf_init(&rw->bases[0].text, XIRI_MAX_LEN);
    buf_init(&rw->bases[1].text, XIRI_MAX_LEN);
    buf_init(&rw->resolved, XIRI_MAX_LEN);
    /* with lazy_positions, an event's line and column are counted only
     * when it has something to say (event_place); with parse_ahead, the
     * links of a feed's last text come during the next feed, and what is
     * written after a feed stops where the walker has settled
     * (walk_settled), before them */
    st = xiri_walker_new(ctx, reg, walk_opts, on_link, forward_diag, rw,
                         &rw->walker);
    if (st != XIRI_OK) {
        xiri_rewriter_free(rw);
        return st;
    }
    *out = rw;
    return XIRI_OK;
}

/* The walker's status st (and its error) as the rewriter's, unless the
 * rewriter failed first: a failure of its own, set first, is the one
 * told; false when either failed. */
static bool walker_ok(struct xiri_rewriter *rw, enum xiri_status st,
                      const struct xiri_error *werr)
{
    if (st != XIRI_OK && rw->status == XIRI_OK) {
        rw->status = st;
        rw->error = *werr;
    }
    return rw->status == XIRI_OK;
}

/* A document with a NUL is not rewritten: true when it stopped so. */
static bool nul_stop(struct xiri_rewriter *rw)
{
    if (walk_nul_count(rw->walker) == 0)
        return false;
    stop(rw, XIRI_EDOC,
         "the document holds NUL characters, which XML and HTML do not "
         "allow and the parser cuts values at; it is not rewritten");
    return true;
}

/* With parse_ahead a feed may return before the links of its last text
 * are reported (xiri_walker_feed); the rewriter's decisions on what was
 * fed (a NUL, a byte not ASCII after encoding-late) are made with them
 * all reported first (walk_catch_up), so that the same links come before
 * them as without parse_ahead, however far the parser thread got. */
enum xiri_status xiri_rewriter_feed(struct xiri_rewriter *rw,
                                    const void *data, size_t len,
                                    struct xiri_error *err)
{
    struct xiri_error werr;
    enum xiri_status st;

    if (!rw || (!data && len))
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (rw->status != XIRI_OK)
        goto fail;
    buf_append(&rw->pend, data, len);
    if (rw->pend.status != XIRI_OK) {
        stop(rw, rw->pend.status, xiri_strerror(rw->pend.status));
        goto fail;
    }
    if (!rw->non_ascii_seen && has_non_ascii((const char *)data, len)) {
        /* (the findings before see a page ASCII so far: late_meta_stop) */
        st = walk_catch_up(rw->walker, &werr);
        if (!walker_ok(rw, st, &werr))
            goto fail;
        rw->non_ascii_seen = true;
    }
    rw->fed += len;
    st = xiri_walker_feed(rw->walker, data, len, &werr);
    if (!walker_ok(rw, st, &werr))
        goto fail;
    if (walk_nul_count(rw->walker) > 0 ||
        (rw->late_meta && rw->non_ascii_seen)) {
        /* the rewrite stops below (an encoding-late with the page ASCII
         * then was reported before this feed's bytes: above) */
        st = walk_catch_up(rw->walker, &werr);
        if (!walker_ok(rw, st, &werr))
            goto fail;
    }
    if (nul_stop(rw) || late_meta_stop(rw))
        goto fail;
    /* nothing before the settled point will change any more */
    emit_original(rw, walk_settled(rw->walker));
    if (rw->status != XIRI_OK)
        goto fail;
    return XIRI_OK;
fail:
    if (err)
        *err = rw->error;
    return rw->status;
}

enum xiri_status xiri_rewriter_finish(struct xiri_rewriter *rw,
                                      struct xiri_error *err)
{
    struct xiri_error werr;
    enum xiri_status st;

    if (!rw)
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (rw->status == XIRI_OK) {
        st = xiri_walker_finish(rw->walker, &werr);
        if (walker_ok(rw, st, &werr))
            (void)nul_stop(rw);
    }
    if (rw->status == XIRI_OK)
        emit_original(rw, rw->fed);
    if (rw->status != XIRI_OK && err)
        *err = rw->error;
    return rw->status;
}

void xiri_rewriter_free(struct xiri_rewriter *rw)
{
    if (!rw)
        return;
    xiri_walker_free(rw->walker);
    buf_free(&rw->pend);
    buf_free(&rw->value);
    buf_free(&rw->coded);
    buf_free(&rw->tmp);
    buf_free(&rw->strip);
    buf_free(&rw->rfc);
    buf_free(&rw->fix);
    buf_free(&rw->head);
    buf_free(&rw->cand);
    buf_free(&rw->bases[0].text);
    buf_free(&rw->bases[1].text);
    buf_free(&rw->resolved);
    mem_free(rw);
}

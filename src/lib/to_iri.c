/* to_iri.c - converting a URI to an IRI, RFC 3987 section 3.2: decode the
 * escapes that stand for characters an IRI may hold at that position, and
 * keep every other escape. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "idn.h"
#include "parse.h"

static unsigned char pct_octet(const char *s, size_t i)
{
    return (unsigned char)(ch_hexval((unsigned char)s[i + 1]) * 16 +
                           ch_hexval((unsigned char)s[i + 2]));
}

/* The number of octets a UTF-8 sequence with this lead octet has, 0 when
 * it cannot lead one (RFC 3629 4). */
static size_t utf8_seq_len(unsigned char lead)
{
    if (lead >= 0xC2 && lead <= 0xDF)
        return 2;
    if (lead >= 0xE0 && lead <= 0xEF)
        return 3;
    if (lead >= 0xF0 && lead <= 0xF4)
        return 4;
    return 0;
}

/* Section 3.2 steps 3 and 4: may this character appear unescaped here? */
static bool decodable(uint32_t cp, bool query)
{
    if (cp_is_bidi_format(cp))
        return false; /* RFC 3987 4.1: never raw in an IRI */
    return cp_is_ucschar(cp) || (query && cp_is_iprivate(cp));
}

/* Convert s[from..to), one component or a run of them. */
static void convert_text(struct buf *o, const char *s, size_t from, size_t to,
                         const struct span *query)
{
    size_t i = from, run = from;

    while (i < to) {
        unsigned char octets[4], b;
        size_t n, k;
        uint32_t cp;
        bool q;

        if (!ch_is_pct(s, to, i)) {
            i++;
            continue;
        }
        buf_append(o, s + run, i - run);
        b = pct_octet(s, i);
        q = query->set && i >= query->off && i < query->off + query->len;
        /* Step 2: never decode %, reserved characters, or ASCII that URIs
         * do not allow; unreserved ASCII is decoded (RFC 3986 2.3), except
         * '.', so that no new "." or ".." segment appears (%2E%2E is not
         * a dot segment in RFC 3986 5.2.4, ".." is). */
        if (b < 0x80) {
            if (ch_is(b, CH_UNRESERVED) && b != '.')
                buf_putc(o, (char)b);
            else
                buf_put_pct(o, b);
            i += 3;
            run = i;
            continue;
        }
        /* Step 3: only strictly valid UTF-8 sequences, all escaped. */
        n = utf8_seq_len(b);
        octets[0] = b;
        for (k = 1; k < n; k++) {
            if (!ch_is_pct(s, to, i + 3 * k))
                break;
            octets[k] = pct_octet(s, i + 3 * k);
        }
        if (n > 0 && k == n && utf8_decode(octets, n, &cp) == n &&
            decodable(cp, q)) {
            buf_append(o, (const char *)octets, n);
            i += 3 * n;
        } else {
            buf_put_pct(o, b); /* keep it, with upper-case hex */
            i += 3;
        }
        run = i;
    }
    buf_append(o, s + run, to - run);
}

/* An xn-- label anywhere in the host (case-insensitive, RFC 5890 2.3.2.1). */
static bool has_ace_label(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i + 4 <= n; i++)
        if ((i == 0 || s[i - 1] == '.') && (s[i] == 'x' || s[i] == 'X') &&
            (s[i + 1] == 'n' || s[i + 1] == 'N') && s[i + 2] == '-' &&
            s[i + 3] == '-')
            return true;
    return false;
}

/* ToUnicode of the host when it is error-free and gives only characters
 * an ireg-name may hold; otherwise the host is converted like any text. */
static enum xiri_status convert_host(struct xiri_ctx *ctx, struct buf *o,
                                     const char *s, const struct span *h,
                                     const struct span *query)
{
    struct idn *idn;
    enum xiri_status st;
    uint32_t errors = 0, cp;
    size_t start = o->len, i;

    if (!has_ace_label(s + h->off, h->len)) {
        convert_text(o, s, h->off, h->off + h->len, query);
        return o->status;
    }
    st = idn_for_ctx(ctx, &idn);
    if (st == XIRI_OK)
        st = idn_to_unicode(idn, s + h->off, h->len, o, &errors);
    if (st != XIRI_OK)
        return st;
    for (i = start; errors == 0 && i < o->len;) {
        size_t n = utf8_decode((const unsigned char *)o->data + i,
                               o->len - i, &cp);
        if (n == 0 || (cp >= 0x80 && !decodable(cp, false)))
            errors = 1;
        i += n ? n : 1;
    }
    if (errors) {
        o->len = start;
        convert_text(o, s, h->off, h->off + h->len, query);
    }
    return o->status;
}

enum xiri_status xiri_to_iri(struct xiri_ctx *ctx, const char *s, size_t len,
                             enum xiri_idn idn, char **out, size_t *out_len,
                             struct xiri_error *err)
{
    struct ref r;
    struct buf o;
    enum xiri_status st;
    const struct span *h, *q;

    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if ((!s && len) || (idn == XIRI_IDN_UNICODE && !ctx))
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (!s)
        s = "";
    st = ref_parse(s, len, XIRI_PROFILE_LEIRI, &r, NULL, err);
    if (st != XIRI_OK)
        return st;
    h = &r.part[XIRI_PART_HOST];
    q = &r.part[XIRI_PART_QUERY];
    buf_init(&o, XIRI_MAX_LEN);
    buf_reserve(&o, len);
    if (idn == XIRI_IDN_UNICODE && h->set) {
        convert_text(&o, s, 0, h->off, q);
        st = convert_host(ctx, &o, s, h, q);
        convert_text(&o, s, h->off + h->len, len, q);
    } else {
        convert_text(&o, s, 0, len, q);
    }
    if (st == XIRI_OK)
        st = o.status;
    if (st != XIRI_OK) {
        buf_free(&o);
        return error_set(err, st, 0, "%s", xiri_strerror(st));
    }
    return buf_take(&o, out, out_len);
}

/* to_iri.c - converting a URI to an IRI, RFC 3987 section 3.2: decode the
 * escapes that stand for characters an IRI may hold at that position, and
 * keep every other escape. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "idn.h"
#include "parse.h"
#include "pct.h"

/* Convert s[from..to), one component or a run of them: RFC 3987 3.2
 * steps 2 to 4, shared with the normalizer (pct.c).  Without PCT_DOT,
 * %2E stays escaped so that no new "." or ".." segment appears (%2E%2E is
 * not a dot segment in RFC 3986 5.2.4, ".." is). */
static void convert_text(struct buf *o, const char *s, size_t from, size_t to,
                         const struct span *query)
{
    pct_normalize(o, s, from, to, query, PCT_UTF8 | PCT_SEEN);
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
        if (n == 0 || (cp >= 0x80 && !pct_iri_allowed(cp, false)))
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

/* to_uri.c - mapping an IRI to a URI, RFC 3987 section 3.1: every
 * character outside US-ASCII becomes the %HH escapes of its UTF-8 octets;
 * hosts optionally go through IDNA ToASCII instead. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "idn.h"
#include "parse.h"
#include "scheme.h"
#include "to_uri.h"

struct mapping {
    struct xiri_ctx *ctx;
    const char *s;
    struct ref ref;
    unsigned flags;
    struct buf *out;
    struct xiri_error *err;
};

static bool in_query(const struct mapping *m, size_t i)
{
    const struct span *q = &m->ref.part[XIRI_PART_QUERY];
    return q->set && i >= q->off && i < q->off + q->len;
}

/* RFC 3987 3.1 step 2 on s[from..to): keep what URIs allow, escape the
 * rest.  Characters only a LEIRI allows (and iprivate outside the query,
 * which RFC 3987 forbids there) are escaped only when the caller asked. */
static enum xiri_status map_text(struct mapping *m, size_t from, size_t to)
{
    const unsigned char *s = (const unsigned char *)m->s;
    bool escape_leiri = (m->flags & XIRI_MAP_ESCAPE_LEIRI) != 0;
    size_t i = from, run = from;

    while (i < to) {
        unsigned char c;
        uint32_t cp;
        size_t n, k;

        /* what URIs allow is kept: four bytes a step while all are */
        while (to - i >= 4 && (s[i] | s[i + 1] | s[i + 2] | s[i + 3]) < 0x80 &&
               !((chars_ascii[s[i]] | chars_ascii[s[i + 1]] |
                  chars_ascii[s[i + 2]] | chars_ascii[s[i + 3]]) &
                 CH_LEIRI))
            i += 4;
        if (i == to)
            break;
        c = s[i];
        if (c < 0x80 && !ch_is(c, CH_LEIRI)) {
            i++;
            continue;
        }
        buf_append(m->out, m->s + run, i - run);
        if (c < 0x80) {
            cp = c;
            n = 1;
        } else {
            n = utf8_decode(s + i, to - i, &cp); /* valid: parsed before */
        }
        if (!escape_leiri && cp_is_leiri_extra(cp) &&
            !(cp_is_iprivate(cp) && in_query(m, i)))
            return error_set(m->err, XIRI_EFORBIDDEN, i,
                             "U+%04X at byte %zu is not allowed in an IRI; "
                             "escape it (--escape-leiri) or remove it",
                             (unsigned)cp, i);
        for (k = 0; k < n; k++)
            buf_put_pct(m->out, s[i + k]);
        i += n;
        run = i;
    }
    buf_append(m->out, m->s + run, to - run);
    return m->out->status;
}

bool to_uri_needs_idna(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if ((unsigned char)s[i] >= 0x80)
            return true;
        if (ch_is_pct(s, n, i) && ch_hexval((unsigned char)s[i + 1]) >= 8)
            return true;
    }
    return false;
}

/* The host s[0..n) with its escapes decoded into name; false when that
 * is not UTF-8 (or memory ran out: name's status says). */
static bool decode_host(const char *s, size_t n, struct buf *name)
{
    size_t i;
    uint32_t cp;

    for (i = 0; i < n; i++) {
        if (ch_is_pct(s, n, i)) {
            buf_putc(name, (char)(ch_hexval((unsigned char)s[i + 1]) * 16 +
                                  ch_hexval((unsigned char)s[i + 2])));
            i += 2;
        } else {
            buf_putc(name, s[i]);
        }
    }
    for (i = 0; name->status == XIRI_OK && i < name->len;) {
        size_t k = utf8_decode((const unsigned char *)name->data + i,
                               name->len - i, &cp);
        if (k == 0)
            return false;
        i += k;
    }
    return true;
}

enum xiri_status to_uri_host_maps(struct xiri_ctx *ctx, const char *s, size_t n,
                                  bool *ok)
{
    struct buf name, ascii;
    struct idn *idn;
    enum xiri_status st;
    uint32_t errors = 0;
    bool utf8;

    *ok = true;
    if (!to_uri_needs_idna(s, n) || (n > 0 && s[0] == '['))
        return XIRI_OK;
    buf_init(&name, XIRI_MAX_LEN);
    buf_init(&ascii, XIRI_MAX_LEN);
    utf8 = decode_host(s, n, &name);
    st = name.status;
    if (st == XIRI_OK && utf8)
        st = idn_for_ctx(ctx, &idn);
    if (st == XIRI_OK && utf8)
        st = idn_to_ascii(idn, name.data ? name.data : "", name.len, &ascii,
                          &errors);
    *ok = utf8 && errors == 0;
    buf_free(&name);
    buf_free(&ascii);
    return st;
}

/* RFC 3987 3.1 step 2, host alternative: ToASCII (UTS #46) of the
 * ireg-name, after decoding its escapes (RFC 3987 3.1 says percent-encoded
 * UTF-8 in a host stands for those characters). */
static enum xiri_status map_host(struct mapping *m, size_t off, size_t len)
{
    struct buf name;
    struct idn *idn;
    enum xiri_status st;
    uint32_t errors = 0;

    if (!to_uri_needs_idna(m->s + off, len) || (len > 0 && m->s[off] == '['))
        return map_text(m, off, off + len);
    buf_init(&name, XIRI_MAX_LEN);
    if (!decode_host(m->s + off, len, &name))
        st = name.status != XIRI_OK
                 ? name.status
                 : error_set(m->err, XIRI_EIDNA, off,
                             "the host at byte %zu is not UTF-8 once its "
                             "escapes are decoded; IDNA cannot convert it",
                             off);
    else
        st = name.status;
    if (st == XIRI_OK)
        st = idn_for_ctx(m->ctx, &idn);
    if (st == XIRI_OK) {
        size_t start = m->out->len;
        st = idn_to_ascii(idn, name.data ? name.data : "", name.len, m->out,
                          &errors);
        if (st == XIRI_OK && errors) {
            char why[120];
            idn_describe_errors(errors, why, sizeof(why));
            m->out->len = start;
            st = error_set(m->err, XIRI_EIDNA, off,
                           "IDNA ToASCII rejects the host at byte %zu: %s "
                           "(UTS #46 section 4)",
                           off, why);
        }
    }
    buf_free(&name);
    return st;
}

/* mailto (RFC 6068 2): addr-spec = local-part "@" domain; the domain
 * of each comma-separated address is a DNS name. */
static enum xiri_status map_mailto_path(struct mapping *m, size_t off,
                                        size_t len)
{
    size_t i = off, end = off + len;

    while (i < end) {
        size_t at, addr_end = scheme_mailto_address(m->s, i, end, &at);
        enum xiri_status st;

        if (at == SIZE_MAX) {
            st = map_text(m, i, addr_end);
        } else {
            st = map_text(m, i, at + 1);
            if (st == XIRI_OK && (m->flags & TO_URI_KEEP_HOSTS))
                buf_append(m->out, m->s + at + 1, addr_end - at - 1);
            else if (st == XIRI_OK)
                st = map_host(m, at + 1, addr_end - at - 1);
        }
        if (st != XIRI_OK)
            return st;
        if (addr_end < end)
            buf_putc(m->out, ',');
        i = addr_end + 1;
    }
    return m->out->status;
}

enum xiri_status to_uri_append(struct xiri_ctx *ctx, const char *s, size_t len,
                               const struct ref *split, enum xiri_idn idn,
                               unsigned flags, struct buf *out,
                               struct xiri_error *err)
{
    struct mapping m;
    enum xiri_status st;
    const struct span *host, *scheme, *path;
    bool dns, punycode;

    /* Parse as a LEIRI: the mapping is defined on the characters, the
     * profile only decides which ones are errors (checked in map_text).
     * A caller that knows s is a valid LEIRI gives its split. */
    if (split) {
        m.ref = *split;
    } else {
        st = ref_parse(s, len, XIRI_PROFILE_LEIRI, &m.ref, NULL, err);
        if (st != XIRI_OK)
            return st;
    }
    m.ctx = ctx;
    m.s = s;
    m.flags = flags;
    m.err = err;
    m.out = out;
    buf_reserve(out, len + len / 2);

    host = &m.ref.part[XIRI_PART_HOST];
    scheme = &m.ref.part[XIRI_PART_SCHEME];
    path = &m.ref.part[XIRI_PART_PATH];
    dns = scheme->set && scheme_is_dns(s + scheme->off, scheme->len);
    punycode = idn != XIRI_IDN_PERCENT &&
               (dns || !(flags & XIRI_MAP_DNS_ONLY));
    if ((flags & TO_URI_KEEP_HOSTS) && host->set) {
        st = map_text(&m, 0, host->off);
        buf_append(out, s + host->off, host->len);
        if (st == XIRI_OK)
            st = map_text(&m, host->off + host->len, len);
    } else if (punycode && host->set) {
        st = map_text(&m, 0, host->off);
        if (st == XIRI_OK)
            st = map_host(&m, host->off, host->len);
        if (st == XIRI_OK)
            st = map_text(&m, host->off + host->len, len);
    } else if ((idn != XIRI_IDN_PERCENT || (flags & TO_URI_KEEP_HOSTS)) &&
               scheme->set &&
               scheme_is(s + scheme->off, scheme->len, "mailto")) {
        st = map_text(&m, 0, path->off);
        if (st == XIRI_OK)
            st = map_mailto_path(&m, path->off, path->len);
        if (st == XIRI_OK)
            st = map_text(&m, path->off + path->len, len);
    } else {
        st = map_text(&m, 0, len);
    }
    if (st == XIRI_ENOMEM || st == XIRI_ELIMIT)
        error_set(err, st, 0, "%s", xiri_strerror(st));
    return st;
}

enum xiri_status xiri_to_uri(struct xiri_ctx *ctx, const char *s, size_t len,
                             enum xiri_idn idn, unsigned flags, char **out,
                             size_t *out_len, struct xiri_error *err)
{
    struct buf o;
    enum xiri_status st;

    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if ((!s && len) || (idn != XIRI_IDN_PERCENT && !ctx))
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    buf_init(&o, XIRI_MAX_LEN);
    /* Only the public XIRI_MAP_* bits: the internal ones (to_uri.h) are
     * not the caller's to set. */
    flags &= XIRI_MAP_ESCAPE_LEIRI | XIRI_MAP_DNS_ONLY;
    st = to_uri_append(ctx, s ? s : "", len, NULL, idn, flags, &o, err);
    if (st != XIRI_OK) {
        buf_free(&o);
        return st;
    }
    return buf_take(&o, out, out_len);
}

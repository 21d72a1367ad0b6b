/* normalize.c - the comparison ladder of RFC 3986 section 6 and RFC 3987
 * section 5.3: syntax-based and scheme-based normalization of one
 * reference, and the comparison of two references at a chosen rung. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "parse.h"
#include "pct.h"
#include "resolve.h"
#include "scheme.h"
#include "unicode.h"

/* What the normalizer decides, in the order of RFC 3986 6.2.2 (case,
 * percent-encoding, path segments) then 6.2.3 (scheme-based):
 *
 * - Scheme: ASCII lower case (RFC 3986 6.2.2.1, RFC 3987 5.3.2.1).
 * - Escapes: upper-case hex everywhere (6.2.2.1); escapes of unreserved
 *   characters, '.' included, are decoded (6.2.2.2); in the IRI form (the
 *   default) so are escaped UTF-8 sequences of characters an IRI allows at
 *   that position, by the rules of the URI-to-IRI mapping (RFC 3987 3.2,
 *   5.3.2.3; pct.c).  The URI form (XIRI_NORM_URI_FORM, implied by the uri
 *   profile, whose references RFC 3986 6.2.2.2 normalizes) keeps escaped
 *   UTF-8 and escapes raw non-ASCII characters as RFC 3987 3.1 does.
 * - A '%' that starts no escape (only the html profile lets one through)
 *   is a literal '%': it becomes "%25" in both forms (RFC 3986 2.4), so
 *   that decoding next to it cannot form a new escape ("%4%41").
 * - Host: ASCII letters to lower case (RFC 3986 3.2.2 and 6.2.2.1: the
 *   host is case-insensitive), after decoding, in reg-names and IP
 *   literals alike (IPv6 hex digits too; nothing else of RFC 5952 is
 *   applied).  Non-ASCII letters keep their case: their equivalence is
 *   IDNA's business (RFC 3987 5.3.3), not syntax.  RFC 3987 5.3.2.1 words
 *   this as "US-ASCII only host"; lower-casing the ASCII letters of any
 *   host keeps the IRI form consistent with the URI form, whose host is
 *   all ASCII and case-insensitive under RFC 3986.
 * - Port: an empty port and its ':' are removed at every rung but the
 *   simple one, for every scheme (RFC 3986 3.2.3: "URI producers and
 *   normalizers should omit the port component and its ':' delimiter if
 *   port is empty").
 * - Dot segments (RFC 3986 6.2.2.3): a reference with a scheme or an
 *   authority, or an absolute-path reference, gets remove_dot_segments
 *   (5.2.4), exactly what resolution does to its path (5.2.2), so its
 *   target is unchanged.  A relative-path reference is not given to
 *   remove_dot_segments, which would drop its leading ".." and change its
 *   target (RFC 3986 6.2.2.3: dot segments "are intended only for use
 *   within relative references"); instead "." segments and "seg/.." pairs
 *   are removed and leading ".." kept, which gives the same target against
 *   every base with an absolute path (5.2.3 merges, then 5.2.4 removes).
 *   A result that would be empty is written "./" (an empty reference
 *   would mean the base itself, RFC 3986 4.4), one that would start with
 *   "/" or have a ':' in its first segment gets a "./" prefix (RFC 3986
 *   4.2).  A path without an authority that starts with "//" is written
 *   "/.//" (the guard of ref_recompose()).
 * - Scheme-based (XIRI_RUNG_SCHEME, RFC 3986 6.2.3, RFC 3987 5.3.3) for
 *   http, https, ws, wss, ftp and file only: a port equal to the scheme's
 *   default (leading zeros ignored, the port is a decimal number, RFC 3986
 *   3.2.3) is removed and other ports lose their leading zeros; an empty
 *   path with an authority becomes "/"; file://localhost/ becomes
 *   file:/// (RFC 8089 2: "localhost" is interpreted "exactly as if no
 *   authority was present").  And, RFC 3986 6.2.3's own example, the
 *   domains of a mailto address list are lower-cased (RFC 6068 2).
 * - NFC only with XIRI_NORM_NFC (RFC 3987 5.3.2.2), per component, after
 *   decoding and before the case and dot-segment steps (NFC can turn
 *   U+212A KELVIN SIGN into 'K').  The few characters NFC maps to ASCII
 *   that an IRI does not allow (U+1FEF to '`') are escaped.
 */

struct norm {
    struct xiri_ctx *ctx;
    const char *s; /* the input */
    struct ref in; /* its components */
    enum xiri_profile profile;
    enum xiri_rung rung;
    bool nfc, uri_form;
    enum xiri_status st; /* first failure outside the buffers */
    struct buf w;        /* the normalized components, one after another */
    struct ref out;      /* their spans in w */
};

static void to_lower_ascii(char *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (p[i] >= 'A' && p[i] <= 'Z')
            p[i] = (char)(p[i] - 'A' + 'a');
}

/* The schemes whose scheme-based normalization xiri knows. */
static bool scheme_known(const char *s, size_t n)
{
    return scheme_default_port(s, n) != NULL || scheme_is(s, n, "file");
}

/* Escape what a URI cannot hold (RFC 3987 3.1 step 2): non-ASCII octets,
 * the ASCII that only LEIRIs allow, and what the html profile lets
 * through (a '%' that starts no escape, '[' ']' outside the host, '#' in
 * the fragment). */
static void put_uri_form(struct buf *o, const char *t, size_t n,
                         enum xiri_part part)
{
    size_t i = 0, run = 0;

    while (i < n) {
        unsigned char c = (unsigned char)t[i];

        if (ch_is_pct(t, n, i)) {
            i += 3;
            continue;
        }
        if (c < 0x80 && !ch_is(c, CH_LEIRI) && c != '%' && c != '#' &&
            ((c != '[' && c != ']') || part == XIRI_PART_HOST)) {
            i++;
            continue;
        }
        buf_append(o, t + run, i - run);
        buf_put_pct(o, c);
        run = ++i;
    }
    buf_append(o, t + run, n - run);
}

/* After NFC: escape the ASCII characters an IRI does not allow that NFC
 * produced (only the profiles that allow them raw keep them). */
static void put_after_nfc(struct norm *n, struct buf *o, const char *t,
                          size_t len)
{
    size_t i;

    if (n->profile == XIRI_PROFILE_LEIRI || n->profile == XIRI_PROFILE_HTML) {
        buf_append(o, t, len);
        return;
    }
    for (i = 0; i < len; i++) {
        if (ch_is((unsigned char)t[i], CH_LEIRI))
            buf_put_pct(o, (unsigned char)t[i]);
        else
            buf_putc(o, t[i]);
    }
}

/* Append the normalized text of one component of the input to o: escapes
 * (RFC 3986 6.2.2.1, 6.2.2.2; RFC 3987 5.3.2.3), NFC when asked
 * (RFC 3987 5.3.2.2), URI form when asked (RFC 3987 3.1). */
static void norm_text(struct norm *n, enum xiri_part part, struct buf *o)
{
    const struct span *sp = &n->in.part[part];
    const struct span *q = &n->in.part[XIRI_PART_QUERY];
    unsigned pflags = PCT_DOT | PCT_STRAY | (n->uri_form ? 0 : PCT_UTF8);
    struct buf t;

    if (!n->nfc && !n->uri_form) {
        pct_normalize(o, n->s, sp->off, sp->off + sp->len, q, pflags, NULL,
                      NULL);
        return;
    }
    buf_init(&t, XIRI_MAX_LEN);
    pct_normalize(&t, n->s, sp->off, sp->off + sp->len, q, pflags, NULL, NULL);
    if (n->nfc && t.status == XIRI_OK && t.len > 0) {
        struct buf v;
        enum xiri_status st;

        buf_init(&v, XIRI_MAX_LEN);
        st = uni_normalize(n->ctx, UNI_NFC, t.data, t.len, &v);
        if (st != XIRI_OK && n->st == XIRI_OK)
            n->st = st;
        t.len = 0;
        put_after_nfc(n, &t, v.data ? v.data : "", v.len);
        if (v.status != XIRI_OK)
            t.status = v.status;
        buf_free(&v);
    }
    if (t.status != XIRI_OK)
        o->status = t.status;
    else if (n->uri_form)
        put_uri_form(o, t.data ? t.data : "", t.len, part);
    else
        buf_append(o, t.data ? t.data : "", t.len);
    buf_free(&t);
}

/* RFC 3986 6.2.2.1 for a host in w->data[from..to): ASCII letters to
 * lower case, except the hex digits of the escapes left, which are upper
 * case. */
static void host_lower(struct buf *w, size_t from, size_t to)
{
    size_t i;

    if (w->status != XIRI_OK)
        return;
    for (i = from; i < to; i++) {
        if (ch_is_pct(w->data, to, i))
            i += 2;
        else
            to_lower_ascii(w->data + i, 1);
    }
}

/* RFC 3986 6.2.3: "mailto:Joe@Example.COM" is equivalent to
 * "mailto:Joe@example.com".  The path is a list of addr-spec separated by
 * ',' (RFC 6068 2), each "local-part@domain", and the domain is a host
 * name: case-insensitive. */
static void mailto_lower(struct buf *w, const struct span *path)
{
    size_t i = path->off, end = path->off + path->len;

    if (w->status != XIRI_OK)
        return;
    while (i < end) {
        size_t addr_end = i, at = SIZE_MAX, j;

        while (addr_end < end && w->data[addr_end] != ',')
            addr_end++;
        for (j = i; j < addr_end; j++)
            if (w->data[j] == '@')
                at = j;
        if (at != SIZE_MAX)
            host_lower(w, at + 1, addr_end);
        i = addr_end + 1;
    }
}

/* The port, without its ':'.  RFC 3986 3.2.3: an empty port is omitted;
 * at the scheme rung a known scheme's default port is omitted too and
 * leading zeros go (the port is a decimal number). */
static void norm_port(struct norm *n, const char *scheme, size_t scheme_len)
{
    const struct span *p = &n->in.part[XIRI_PART_PORT];
    const char *digits = n->s + p->off, *def;
    size_t len = p->len;

    if (!p->set || len == 0)
        return;
    if (n->rung == XIRI_RUNG_SCHEME && scheme &&
        (def = scheme_default_port(scheme, scheme_len)) != NULL) {
        while (len > 1 && digits[0] == '0') {
            digits++;
            len--;
        }
        if (len == strlen(def) && memcmp(digits, def, len) == 0)
            return; /* RFC 3986 6.2.3 */
    }
    buf_putc(&n->w, ':');
    buf_append(&n->w, digits, len);
}

/* Pop the last segment of a relative path being built in o above floor:
 * each segment is stored followed by '/'. */
static void rel_pop(struct buf *o, size_t floor)
{
    size_t i = o->len - 1; /* the '/' ending the last segment */

    while (i > floor && o->data[i - 1] != '/')
        i--;
    o->len = i;
}

/* Dot segments of a relative-path reference p[0..n), n > 0 (see the
 * comment at the top): leading ".." are kept, "." segments and "seg/.."
 * pairs go.  The segments are built in o as "seg/" each; the text is
 * that minus its last '/', unless the path ends in a directory. */
static void rel_reduce(struct buf *o, const char *p, size_t n)
{
    size_t floor = o->len, i = 0, normal = 0, start;
    bool dir = false, colon;

    while (i <= n && o->status == XIRI_OK) {
        size_t j = i;
        bool last;

        while (j < n && p[j] != '/')
            j++;
        last = j == n;
        dir = false;
        if (j - i == 1 && p[i] == '.') {
            dir = last; /* "." names the directory it is in */
        } else if (j - i == 2 && p[i] == '.' && p[i + 1] == '.') {
            if (normal > 0) {
                rel_pop(o, floor); /* "seg/.." */
                normal--;
                dir = last;
            } else {
                buf_append(o, "../", 3); /* it climbs the base's path */
            }
        } else {
            buf_append(o, p + i, j - i);
            buf_putc(o, '/');
            normal++;
        }
        i = j + 1;
    }
    if (o->status != XIRI_OK)
        return;
    if (!dir && o->len > floor)
        o->len--; /* drop the '/' after the last segment */
    /* RFC 3986 4.2: a first segment with ':' would read as a scheme, and
     * a path starting with "/" would be an absolute-path (or, "//", a
     * network-path) reference; an empty one would be the base itself. */
    start = floor;
    colon = false;
    for (i = start; i < o->len && o->data[i] != '/'; i++)
        if (o->data[i] == ':')
            colon = true;
    if (o->len == floor || o->data[floor] == '/' || colon) {
        if (buf_reserve(o, 2)) {
            memmove(o->data + floor + 2, o->data + floor, o->len - floor);
            memcpy(o->data + floor, "./", 2);
            o->len += 2;
        }
    }
}

/* The path (RFC 3986 6.2.2.3, 6.2.3). */
static void norm_path(struct norm *n, bool known)
{
    const struct span *ps = &n->in.part[XIRI_PART_PATH];
    struct buf t;
    size_t start = n->w.len;

    buf_init(&t, XIRI_MAX_LEN);
    if (ps->len > 0)
        norm_text(n, XIRI_PART_PATH, &t);
    if (t.status != XIRI_OK) {
        n->w.status = t.status;
    } else if (t.len == 0) {
        /* RFC 3986 6.2.3: "http://example.com" is "http://example.com/" */
        if (n->rung == XIRI_RUNG_SCHEME && known &&
            n->in.part[XIRI_PART_AUTHORITY].set)
            buf_putc(&n->w, '/');
    } else if (n->in.part[XIRI_PART_SCHEME].set ||
               n->in.part[XIRI_PART_AUTHORITY].set || t.data[0] == '/') {
        path_remove_dots(&n->w, t.data, t.len);
    } else {
        rel_reduce(&n->w, t.data, t.len);
    }
    buf_free(&t);
    n->out.part[XIRI_PART_PATH].off = start;
    n->out.part[XIRI_PART_PATH].len = n->w.len - start;
    n->out.part[XIRI_PART_PATH].set = true;
}

static void put_part(struct norm *n, enum xiri_part part)
{
    struct span *o = &n->out.part[part];

    if (!n->in.part[part].set)
        return;
    o->off = n->w.len;
    norm_text(n, part, &n->w);
    o->len = n->w.len - o->off;
    o->set = true;
}

/* Build every normalized component in n->w, then recompose (RFC 3986
 * 5.3, with the "/." guard) into o. */
static void normalize_ref(struct norm *n, struct buf *o)
{
    const struct span *sc = &n->in.part[XIRI_PART_SCHEME];
    struct span *osc = &n->out.part[XIRI_PART_SCHEME];
    const char *scheme = sc->set ? n->s + sc->off : NULL;
    bool known = scheme && scheme_known(scheme, sc->len);

    if (sc->set) {
        /* RFC 3986 6.2.2.1: the scheme is case-insensitive */
        osc->off = n->w.len;
        osc->len = sc->len;
        osc->set = true;
        buf_append(&n->w, scheme, sc->len);
        if (n->w.status == XIRI_OK)
            to_lower_ascii(n->w.data + osc->off, sc->len);
    }
    if (n->in.part[XIRI_PART_AUTHORITY].set) {
        struct span *a = &n->out.part[XIRI_PART_AUTHORITY];
        size_t host;

        a->off = n->w.len;
        a->set = true;
        if (n->in.part[XIRI_PART_USERINFO].set) {
            norm_text(n, XIRI_PART_USERINFO, &n->w);
            buf_putc(&n->w, '@');
        }
        host = n->w.len;
        norm_text(n, XIRI_PART_HOST, &n->w);
        host_lower(&n->w, host, n->w.len);
        norm_port(n, scheme, sc->len);
        a->len = n->w.len - a->off;
        /* RFC 8089 2: "localhost" is the same as no authority */
        if (n->rung == XIRI_RUNG_SCHEME && scheme &&
            scheme_is(scheme, sc->len, "file") && n->w.status == XIRI_OK &&
            a->len == 9 && memcmp(n->w.data + a->off, "localhost", 9) == 0)
            a->len = 0;
    }
    norm_path(n, known);
    if (n->rung == XIRI_RUNG_SCHEME && scheme &&
        scheme_is(scheme, sc->len, "mailto"))
        mailto_lower(&n->w, &n->out.part[XIRI_PART_PATH]);
    put_part(n, XIRI_PART_QUERY);
    put_part(n, XIRI_PART_FRAGMENT);
    if (n->w.status != XIRI_OK)
        o->status = n->w.status;
    else
        ref_recompose(o, n->w.data, &n->out);
}

enum xiri_status xiri_normalize(struct xiri_ctx *ctx, const char *s, size_t len,
                                enum xiri_profile profile, enum xiri_rung rung,
                                unsigned flags, char **out, size_t *out_len,
                                struct xiri_error *err)
{
    struct norm n;
    struct buf o;
    enum xiri_status st;

    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if ((!s && len) || (unsigned)profile >= XIRI_PROFILE_COUNT ||
        (unsigned)rung > XIRI_RUNG_SCHEME ||
        (flags & ~(XIRI_NORM_NFC | XIRI_NORM_URI_FORM)) != 0)
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (!s)
        s = "";
    memset(&n, 0, sizeof(n));
    st = ref_parse(s, len, profile, &n.in, NULL, err);
    if (st != XIRI_OK)
        return st;
    buf_init(&o, XIRI_MAX_LEN);
    buf_reserve(&o, len + 8);
    if (rung == XIRI_RUNG_SIMPLE) {
        /* RFC 3986 6.2.1, RFC 3987 5.3.1: the string as it is */
        buf_append(&o, s, len);
        return buf_take(&o, out, out_len);
    }
    n.ctx = ctx;
    n.s = s;
    n.profile = profile;
    n.rung = rung;
    n.nfc = (flags & XIRI_NORM_NFC) != 0;
    n.uri_form = (flags & XIRI_NORM_URI_FORM) || profile == XIRI_PROFILE_URI;
    n.st = XIRI_OK;
    buf_init(&n.w, XIRI_MAX_LEN);
    buf_reserve(&n.w, len + 8); /* never NULL below, even for "" */
    normalize_ref(&n, &o);
    buf_free(&n.w);
    st = n.st != XIRI_OK ? n.st : o.status;
    if (st != XIRI_OK) {
        buf_free(&o);
        return error_set(err, st, 0, "%s", xiri_strerror(st));
    }
    return buf_take(&o, out, out_len);
}

/* Normalize one of the two references of xiri_compare(), naming it in
 * the error message. */
static enum xiri_status compare_one(struct xiri_ctx *ctx, const char *s,
                                    size_t len, enum xiri_profile profile,
                                    enum xiri_rung rung, unsigned flags,
                                    const char *which, char **out,
                                    size_t *out_len, struct xiri_error *err)
{
    enum xiri_status st;

    st = xiri_normalize(ctx, s, len, profile, rung, flags, out, out_len, err);
    if (st != XIRI_OK && err) {
        char msg[sizeof(err->message)];
        memcpy(msg, err->message, sizeof(msg));
        error_set(err, st, err->offset, "%s reference: %s", which, msg);
    }
    return st;
}

enum xiri_status xiri_compare(struct xiri_ctx *ctx, const char *a, size_t a_len,
                              const char *b, size_t b_len,
                              enum xiri_profile profile, enum xiri_rung rung,
                              unsigned flags, int *equal,
                              struct xiri_error *err)
{
    char *na = NULL, *nb = NULL;
    size_t la = 0, lb = 0;
    enum xiri_status st;

    if (!equal)
        return error_set(err, XIRI_EINVAL, 0, "equal is NULL");
    *equal = 0;
    /* RFC 3986 6.1, RFC 3987 5.3: normalize both to the rung, then
     * compare character by character (here octet by octet of UTF-8) */
    st = compare_one(ctx, a, a_len, profile, rung, flags, "first", &na, &la,
                     err);
    if (st == XIRI_OK)
        st = compare_one(ctx, b, b_len, profile, rung, flags, "second", &nb,
                         &lb, err);
    if (st == XIRI_OK)
        *equal = la == lb && (la == 0 || memcmp(na, nb, la) == 0);
    xiri_str_free(na);
    xiri_str_free(nb);
    return st;
}

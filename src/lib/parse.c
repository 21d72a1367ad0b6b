/* parse.c - split an IRI reference into its components (RFC 3986 appendix
 * B) and validate each against the grammar of RFC 3987 section 2.2, or of
 * RFC 3986, LEIRI or browsers' HTML, as the profile says. */
#include "common.h"
#include "chars.h"
#include "parse.h"
#include "scheme.h"

#include <stdio.h>

/* The first s[i] == c in [from, to), or to. */
static size_t find_byte(const char *s, size_t from, size_t to, char c)
{
    const char *p = from < to ? memchr(s + from, c, to - from) : NULL;

    return p ? (size_t)(p - s) : to;
}

static void span_set(struct span *sp, size_t off, size_t len)
{
    sp->off = (uint32_t)off;
    sp->len = (uint32_t)len;
    sp->set = true;
}

/* iauthority = [ iuserinfo "@" ] ihost [ ":" port ]  (RFC 3987 2.2)
 * iuserinfo and ihost cannot hold '@', so an authority with two is
 * invalid whichever ends the userinfo: the last does, as browsers read it
 * (WHATWG URL 4.4 authority state: an earlier '@' is the userinfo's, sent
 * as %40), so that the host is the one they connect to.  ihost only holds
 * ':' inside an IP-literal, so the first ':' after the host (or after its
 * ']') starts the port. */
static void split_authority(const char *s, size_t a, size_t e, struct ref *r)
{
    size_t h = a, at = e, i, c;

    for (i = find_byte(s, a, e, '@'); i < e; i = find_byte(s, i + 1, e, '@'))
        at = i;
    if (at < e) {
        span_set(&r->part[XIRI_PART_USERINFO], a, at - a);
        h = at + 1;
    }
    if (h < e && s[h] == '[') {
        size_t rb = find_byte(s, h, e, ']');
        c = rb < e ? find_byte(s, rb, e, ':') : e;
    } else {
        c = find_byte(s, h, e, ':');
    }
    span_set(&r->part[XIRI_PART_HOST], h, c - h);
    if (c < e)
        span_set(&r->part[XIRI_PART_PORT], c + 1, e - c - 1);
}

/* RFC 3986 appendix B:
 *   ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
 * with the scheme restricted to ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
 * (RFC 3986 3.1): anything else before a ':' is part of a relative path. */
void ref_split(const char *s, size_t len, struct ref *r)
{
    static const struct ref empty;
    size_t i = 0, e, hash, qmark;

    *r = empty;
    if (len > 0 && ch_is((unsigned char)s[0], CH_ALPHA)) {
        size_t j = 1;
        while (j < len && ch_is((unsigned char)s[j], CH_SCHEME))
            j++;
        if (j < len && s[j] == ':') {
            span_set(&r->part[XIRI_PART_SCHEME], 0, j);
            i = j + 1;
        }
    }
    /* the first '#' starts the fragment, the first '?' before it the
     * query, and the authority ends at the first '/' before that */
    hash = find_byte(s, i, len, '#');
    qmark = find_byte(s, i, hash, '?');
    if (len - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        e = find_byte(s, i + 2, qmark, '/');
        span_set(&r->part[XIRI_PART_AUTHORITY], i + 2, e - i - 2);
        split_authority(s, i + 2, e, r);
        i = e;
    }
    span_set(&r->part[XIRI_PART_PATH], i, qmark - i);
    if (qmark < hash)
        span_set(&r->part[XIRI_PART_QUERY], qmark + 1, hash - qmark - 1);
    if (hash < len)
        span_set(&r->part[XIRI_PART_FRAGMENT], hash + 1, len - hash - 1);
}

/* dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT
 *           / "25" %x30-35
 * IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet */
bool ipv4_is_valid(const char *s, size_t len)
{
    size_t i = 0;
    int part;

    for (part = 0; part < 4; part++) {
        size_t start = i;
        unsigned v = 0;

        if (part > 0) {
            if (i >= len || s[i] != '.')
                return false;
            start = ++i;
        }
        while (i < len && ch_is((unsigned char)s[i], CH_DIGIT) &&
               i - start < 3)
            v = v * 10 + (unsigned)(s[i++] - '0');
        if (i == start || v > 255 || (i - start > 1 && s[start] == '0'))
            return false;
    }
    return i == len;
}

/* IPv6address (RFC 3986 3.2.2): eight h16 groups separated by ':', the
 * last two possibly an IPv4address, with at most one "::" standing for
 * one or more zero groups.  h16 = 1*4HEXDIG. */
bool ipv6_is_valid(const char *s, size_t len)
{
    size_t i = 0;
    int groups = 0;
    bool elided = false;

    if (len >= 2 && s[0] == ':' && s[1] == ':') {
        elided = true;
        i = 2;
        if (i == len)
            return true;
    } else if (len > 0 && s[0] == ':') {
        return false;
    }
    for (;;) {
        size_t start = i;

        while (i < len && ch_is((unsigned char)s[i], CH_HEX) && i - start < 4)
            i++;
        if (i < len && s[i] == '.') {
            /* ls32 as an IPv4address: must end the address */
            if (!ipv4_is_valid(s + start, len - start))
                return false;
            groups += 2;
            break;
        }
        if (i == start)
            return false;
        groups++;
        if (i == len)
            break;
        if (s[i] != ':')
            return false;
        i++;
        if (i < len && s[i] == ':') {
            if (elided)
                return false;
            elided = true;
            i++;
            if (i == len)
                break;
        } else if (i == len) {
            return false; /* a single trailing ':' */
        }
    }
    return elided ? groups <= 7 : groups == 8;
}

/* IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) */
bool ipvfuture_is_valid(const char *s, size_t len)
{
    size_t i = 1;

    if (len < 4 || (s[0] != 'v' && s[0] != 'V'))
        return false;
    while (i < len && ch_is((unsigned char)s[i], CH_HEX))
        i++;
    if (i == 1 || i >= len || s[i] != '.')
        return false;
    if (++i == len)
        return false;
    for (; i < len; i++)
        if (!ch_is((unsigned char)s[i], CH_UNRESERVED | CH_SUBDELIM) &&
            s[i] != ':')
            return false;
    return true;
}

void describe_cp(char *out, size_t size, uint32_t cp)
{
    if (cp >= 0x21 && cp < 0x7F && cp != '\'')
        snprintf(out, size, "'%c' (U+%04X)", (char)cp, (unsigned)cp);
    else
        snprintf(out, size, "U+%04X", (unsigned)cp);
}

/* State of one validating scan. */
struct scan {
    const char *s;
    size_t len;
    enum xiri_profile profile;
    const struct scan_sink *sink;
    struct xiri_error *err;
    enum xiri_status status; /* first error */
};

static const char *const part_words[XIRI_PART_COUNT] = {
    "scheme", "authority", "userinfo", "host", "port",
    "path", "query", "fragment",
};

/* Record a finding.  Returns true when the scan must stop (an error and
 * no sink to report to). */
static bool found(struct scan *sc, enum scan_kind kind, enum xiri_part part,
                  size_t off, size_t len, uint32_t cp)
{
    char what[32];

    if (sc->sink)
        sc->sink->fn(sc->sink->user, kind, part, off, len, cp);
    if (!scan_is_error(kind) || sc->status != XIRI_OK)
        return sc->status != XIRI_OK && !sc->sink;
    describe_cp(what, sizeof(what), cp);
    switch (kind) {
    case SCAN_ERR_PCT:
        sc->status = error_set(sc->err, XIRI_ESYNTAX, off,
                               "'%%' at byte %zu is not followed by two hex "
                               "digits; write a literal '%%' as %%25",
                               off);
        break;
    case SCAN_ERR_UTF8:
        sc->status = error_set(sc->err, XIRI_ESYNTAX, off,
                               "byte 0x%02X at byte %zu is not UTF-8",
                               (unsigned)(unsigned char)sc->s[off], off);
        break;
    case SCAN_ERR_PRIVATE:
        sc->status = error_set(sc->err, XIRI_ESYNTAX, off,
                               "private-use character %s at byte %zu is "
                               "only allowed in the query (RFC 3987 2.2)",
                               what, off);
        break;
    case SCAN_ERR_NONASCII:
        sc->status = error_set(sc->err, XIRI_ESYNTAX, off,
                               "non-ASCII character %s at byte %zu is not "
                               "allowed in a URI; map it with to-uri",
                               what, off);
        break;
    case SCAN_ERR_COLON:
        sc->status = error_set(sc->err, XIRI_ESYNTAX, off,
                               "':' at byte %zu in the first segment of a "
                               "relative path reads as a scheme; write "
                               "\"./\" before it (RFC 3986 4.2)",
                               off);
        break;
    case SCAN_ERR_HOST:
        sc->status = error_set(sc->err, XIRI_ESYNTAX, off,
                               "the IP literal at byte %zu is neither "
                               "IPv6 nor IPvFuture (RFC 3986 3.2.2)",
                               off);
        break;
    case SCAN_ERR_PORT:
        sc->status = error_set(sc->err, XIRI_ESYNTAX, off,
                               "the port holds %s at byte %zu; a port is "
                               "digits only (RFC 3986 3.2.3)",
                               what, off);
        break;
    default:
        sc->status = error_set(sc->err, XIRI_ESYNTAX, off,
                               "character %s at byte %zu is not allowed in "
                               "the %s; percent-encode it",
                               what, off, part_words[part]);
        break;
    }
    return !sc->sink;
}

/* ASCII characters each component allows, as chars.h classes (RFC 3987
 * 2.2; '%' is handled apart):
 *   iuserinfo = *( iunreserved / pct-encoded / sub-delims / ":" )
 *   ireg-name = *( iunreserved / pct-encoded / sub-delims )
 *   ipath-*   = segments of ipchar separated by "/"
 *   iquery    = *( ipchar / iprivate / "/" / "?" )
 *   ifragment = *( ipchar / "/" / "?" )
 *   ipchar    = iunreserved / pct-encoded / sub-delims / ":" / "@" */
static const uint16_t part_class[XIRI_PART_COUNT] = {
    [XIRI_PART_USERINFO] = CH_UNRESERVED | CH_SUBDELIM | CH_COLON,
    [XIRI_PART_HOST] = CH_UNRESERVED | CH_SUBDELIM,
    [XIRI_PART_PATH] = CH_PCHAR | CH_SLASH,
    [XIRI_PART_QUERY] = CH_PCHAR | CH_SLASH | CH_QMARK,
    [XIRI_PART_FRAGMENT] = CH_PCHAR | CH_SLASH | CH_QMARK,
};

/* Validate the characters of one component in s[from..to). */
static bool scan_chars(struct scan *sc, enum xiri_part part, size_t from,
                       size_t to)
{
    const unsigned char *s = (const unsigned char *)sc->s;
    bool html = sc->profile == XIRI_PROFILE_HTML;
    bool leiri = html || sc->profile == XIRI_PROFILE_LEIRI;
    uint16_t allowed = part_class[part];
    size_t i = from;

    while (i < to) {
        unsigned char c = s[i];
        uint32_t cp;
        size_t n;

        if (c < 0x80) {
            if (chars_ascii[c] & allowed) {
                i++;
                continue;
            }
            if (c == '%') {
                if (ch_is_pct(sc->s, to, i)) {
                    i += 3;
                    continue;
                }
                if (found(sc, html ? SCAN_WARN_HTML : SCAN_ERR_PCT, part, i,
                          1, c))
                    return false;
            } else if (ch_is(c, CH_LEIRI)) {
                if (found(sc, leiri ? SCAN_WARN_LEIRI : SCAN_ERR_CHAR, part,
                          i, 1, c))
                    return false;
            } else if (html && part != XIRI_PART_HOST &&
                       (c == '[' || c == ']' ||
                        (c == '#' && part == XIRI_PART_FRAGMENT) ||
                        (c == '@' && part == XIRI_PART_USERINFO))) {
                if (found(sc, SCAN_WARN_HTML, part, i, 1, c))
                    return false;
            } else if (found(sc, SCAN_ERR_CHAR, part, i, 1, c)) {
                return false;
            }
            i++;
            continue;
        }
        n = utf8_decode(s + i, to - i, &cp);
        if (n == 0) {
            if (found(sc, SCAN_ERR_UTF8, part, i, 1, 0))
                return false;
            i++;
            continue;
        }
        if (sc->profile == XIRI_PROFILE_URI) {
            if (found(sc, SCAN_ERR_NONASCII, part, i, n, cp))
                return false;
        } else if (cp_is_ucschar(cp)) {
            /* iunreserved: allowed everywhere */
        } else if (cp_is_iprivate(cp) && part == XIRI_PART_QUERY) {
            /* iprivate: allowed in the query only */
        } else if (leiri && cp_is_leiri_extra(cp)) {
            if (found(sc, SCAN_WARN_LEIRI, part, i, n, cp))
                return false;
        } else if (html && (cp == 0xFFFE || cp == 0xFFFF)) {
            /* outside LEIRI's ranges; browsers percent-encode them
             * (WHATWG URL, the percent-encode sets take every non-ASCII
             * code point) */
            if (found(sc, SCAN_WARN_HTML, part, i, n, cp))
                return false;
        } else if (cp_is_iprivate(cp)) {
            if (found(sc, SCAN_ERR_PRIVATE, part, i, n, cp))
                return false;
        } else if (found(sc, SCAN_ERR_CHAR, part, i, n, cp)) {
            return false;
        }
        i += n;
    }
    return true;
}

/* ihost = IP-literal / IPv4address / ireg-name
 * IP-literal = "[" ( IPv6address / IPvFuture ) "]"; browsers take an
 * IPv6 address only (WHATWG URL 3.5 host parser: "[" starts the IPv6
 * parser), so IPvFuture is no host under the html profile. */
static bool scan_host(struct scan *sc, const struct span *h)
{
    const char *s = sc->s + h->off;

    if (h->len > 0 && s[0] == '[') {
        if (h->len < 2 || s[h->len - 1] != ']' ||
            !(ipv6_is_valid(s + 1, h->len - 2) ||
              (sc->profile != XIRI_PROFILE_HTML &&
               ipvfuture_is_valid(s + 1, h->len - 2))))
            return !found(sc, SCAN_ERR_HOST, XIRI_PART_HOST, h->off, h->len,
                          '[');
        return true;
    }
    return scan_chars(sc, XIRI_PART_HOST, h->off, h->off + h->len);
}

/* port = *DIGIT; what follows an IP literal's ']' must be ":" port. */
static bool scan_port(struct scan *sc, const struct ref *r)
{
    const struct span *h = &r->part[XIRI_PART_HOST];
    const struct span *p = &r->part[XIRI_PART_PORT];
    const struct span *a = &r->part[XIRI_PART_AUTHORITY];
    size_t end = p->set ? p->off - 1 : a->off + a->len;
    size_t i;

    /* bytes between the host's ']' and the port's ':' (split_authority
     * puts them in neither) */
    if (h->off + h->len < end)
        if (found(sc, SCAN_ERR_HOST, XIRI_PART_HOST, h->off + h->len,
                  end - h->off - h->len, (unsigned char)sc->s[h->off + h->len]))
            return false;
    if (!p->set)
        return true;
    for (i = p->off; i < p->off + p->len; i++) {
        unsigned char c = (unsigned char)sc->s[i];
        if (sc->profile == XIRI_PROFILE_HTML &&
            (c == '\t' || c == '\n' || c == '\r')) {
            /* WHATWG URL 4.4: the basic URL parser removes every ASCII
             * tab or newline before it reads the port */
            if (found(sc, SCAN_WARN_LEIRI, XIRI_PART_PORT, i, 1, c))
                return false;
            continue;
        }
        if (!ch_is(c, CH_DIGIT)) {
            uint32_t cp = c;
            size_t n = c < 0x80 ? 1 : utf8_decode((const unsigned char *)sc->s + i,
                                                  p->off + p->len - i, &cp);
            if (found(sc, SCAN_ERR_PORT, XIRI_PART_PORT, i, n ? n : 1, cp))
                return false;
            if (n > 1)
                i += n - 1;
        }
    }
    return true;
}

enum xiri_status ref_parse(const char *s, size_t len,
                           enum xiri_profile profile, struct ref *r,
                           const struct scan_sink *sink,
                           struct xiri_error *err)
{
    struct scan sc;
    const struct span *path;
    size_t colon = SIZE_MAX;

    if (len > XIRI_MAX_LEN)
        return error_set(err, XIRI_ELIMIT, 0, "reference longer than %zu bytes",
                         XIRI_MAX_LEN);
    sc.s = s;
    sc.len = len;
    sc.profile = profile;
    sc.sink = sink;
    sc.err = err;
    sc.status = XIRI_OK;
    ref_split(s, len, r);
    path = &r->part[XIRI_PART_PATH];

    /* ipath-noscheme = isegment-nz-nc *( "/" isegment ): in a relative
     * reference without authority, the first segment holds no ':'.  The
     * path is then the first component, and it is scanned in two parts
     * around that ':' so that findings come in offset order. */
    if (!r->part[XIRI_PART_SCHEME].set && !r->part[XIRI_PART_AUTHORITY].set) {
        size_t i;
        for (i = path->off; i < path->off + path->len && s[i] != '/'; i++)
            if (s[i] == ':') {
                colon = i;
                break;
            }
    }
    if (colon != SIZE_MAX) {
        bool html = sc.profile == XIRI_PROFILE_HTML;

        if (!scan_chars(&sc, XIRI_PART_PATH, path->off, colon) ||
            /* WHATWG URL 4.4: what precedes it is no scheme (the
             * scheme state would have taken one), so browsers read a
             * relative path; but a scheme with a tab or a newline in it
             * is theirs (they remove those first), which the control
             * character's finding is about */
            (!(html && scheme_whatwg(s + path->off, colon + 1 - path->off, NULL,
                                     0) > 0) &&
             found(&sc, html ? SCAN_WARN_HTML : SCAN_ERR_COLON, XIRI_PART_PATH,
                   colon, 1, ':')) ||
            !scan_chars(&sc, XIRI_PART_PATH, colon + 1, path->off + path->len))
            return sc.status;
    }
    if (r->part[XIRI_PART_USERINFO].set &&
        !scan_chars(&sc, XIRI_PART_USERINFO, r->part[XIRI_PART_USERINFO].off,
                    r->part[XIRI_PART_USERINFO].off +
                        r->part[XIRI_PART_USERINFO].len))
        return sc.status;
    if (r->part[XIRI_PART_HOST].set &&
        (!scan_host(&sc, &r->part[XIRI_PART_HOST]) || !scan_port(&sc, r)))
        return sc.status;
    if (colon == SIZE_MAX &&
        !scan_chars(&sc, XIRI_PART_PATH, path->off, path->off + path->len))
        return sc.status;
    if (r->part[XIRI_PART_QUERY].set &&
        !scan_chars(&sc, XIRI_PART_QUERY, r->part[XIRI_PART_QUERY].off,
                    r->part[XIRI_PART_QUERY].off +
                        r->part[XIRI_PART_QUERY].len))
        return sc.status;
    if (r->part[XIRI_PART_FRAGMENT].set &&
        !scan_chars(&sc, XIRI_PART_FRAGMENT, r->part[XIRI_PART_FRAGMENT].off,
                    r->part[XIRI_PART_FRAGMENT].off +
                        r->part[XIRI_PART_FRAGMENT].len))
        return sc.status;
    return sc.status;
}

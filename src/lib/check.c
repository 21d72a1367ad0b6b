/* check.c - xiri_check(): every finding about one reference (grammar,
 * characters, escapes, bidi, normalization, hosts, non-canonical
 * spellings), each with a stable code from the catalogue in codes.c. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "codes.h"
#include "ctx.h"
#include "htmlauth.h"
#include "htmltrim.h"
#include "htmlurl.h"
#include "idn.h"
#include "linkcheck.h"
#include "parse.h"
#include "scheme.h"
#include "unicode.h"

#include <stdarg.h>
#include <stdio.h>

/* UIDNA_ERROR_BIDI in ICU's uidna.h (stable since ICU 4.6); ICU's headers
 * stay in idn.c, the unit tests catch a change of value. */
#define CHECK_IDNA_ERROR_BIDI 0x800u

/* Longest excerpt of decoded text a message quotes. */
#define CHECK_QUOTE_MAX 48

/* The most a scratch buffer keeps in the context between two checks. */
#define CHECK_SCRATCH_KEEP 4096

struct check {
    struct xiri_ctx *ctx;
    const char *s;
    size_t len;
    struct ref r;
    xiri_diag_fn *fn;
    void *user;
    int worst;
    bool stop;           /* the callback asked to stop */
    enum xiri_status st; /* the first failure */
    bool nonascii;       /* raw bytes >= 0x80 */
    bool bad_utf8;       /* raw bytes that are not UTF-8 */
    bool pct;            /* a '%' */
    bool starters;       /* every non-ASCII character is a starter that
                            NFC and NFKC keep (linkcheck_nfkc_starter) */
    bool may_rtl;        /* utf8_may_be_rtl of the value */
    bool odd_chars;      /* a bidi formatting character, one that is
                            unassigned, or a punctuation mark or symbol
                            (a look-alike of a delimiter?): check_chars
                            looks at them */
    bool own_tmp;        /* tmp and tmp2 are the context's */
    struct buf tmp;      /* scratch, reused */
    struct buf tmp2;
    enum xiri_profile profile;
    const char *base; /* the base a link is checked against, or NULL */
};

static bool check_done(const struct check *ck)
{
    return ck->stop || ck->st != XIRI_OK;
}

static void check_fail(struct check *ck, enum xiri_status st)
{
    if (ck->st == XIRI_OK)
        ck->st = st;
}

/* Deliver one finding; section NULL means the catalogue's. */
static void check_report(struct check *ck, enum code_id id,
                         enum xiri_severity sev, const char *section,
                         enum xiri_part part, size_t off, size_t len,
                         uint32_t cp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 9, 10)))
#endif
    ;

static void check_report(struct check *ck, enum code_id id,
                         enum xiri_severity sev, const char *section,
                         enum xiri_part part, size_t off, size_t len,
                         uint32_t cp, const char *fmt, ...)
{
    struct xiri_diag d;
    char msg[512];
    va_list ap;

    if (check_done(ck))
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    codes_diag(&d, id, part, off, len, cp, msg);
    d.severity = sev; /* the code's, or another the profile gives it */
    if (section)
        d.section = section;
    if ((int)sev > ck->worst)
        ck->worst = (int)sev;
    if (ck->fn && ck->fn(ck->user, &d) != 0)
        ck->stop = true;
}

/* ------------------------------------------------------------------ */
/* Helpers for messages and positions                                  */

static const char *check_part_word(enum xiri_part part)
{
    return part < XIRI_PART_COUNT ? xiri_part_name(part) : "reference";
}

/* The component holding byte off (the most specific one). */
static enum xiri_part check_part_at(const struct check *ck, size_t off)
{
    static const enum xiri_part order[] = {
        XIRI_PART_SCHEME,   XIRI_PART_USERINFO,  XIRI_PART_HOST,
        XIRI_PART_PORT,     XIRI_PART_PATH,      XIRI_PART_QUERY,
        XIRI_PART_FRAGMENT, XIRI_PART_AUTHORITY,
    };
    size_t i;

    for (i = 0; i < ARRAY_LEN(order); i++) {
        const struct span *sp = &ck->r.part[order[i]];
        if (sp->set && off >= sp->off && off < sp->off + sp->len)
            return order[i];
    }
    return XIRI_PART_COUNT;
}

/* Safe to show as a glyph in a message: ASCII graphic characters and
 * left-to-right letters (no controls, marks, format or RTL characters
 * that would disturb the message's own display). */
static bool check_showable(uint32_t cp)
{
    if (cp < 0x80)
        return cp > 0x20 && cp < 0x7F;
    return cp >= 0xA0 && !cp_is_bidi_format(cp) && !cp_is_iprivate(cp) &&
           uni_is_assigned(cp) && uni_direction(cp) == UNI_DIR_LTR;
}

/* "'a' (U+0061)" for ASCII and left-to-right letters, shown as
 * themselves; "U+05D0" for anything else. */
static void check_describe(char *out, size_t size, uint32_t cp)
{
    char u[5];
    size_t n;

    if (cp == ' ') {
        snprintf(out, size, "space (U+0020)");
        return;
    }
    if (cp == '\'' || !check_showable(cp)) {
        snprintf(out, size, "U+%04X", (unsigned)cp);
        return;
    }
    n = utf8_encode(cp, u);
    u[n] = '\0';
    snprintf(out, size, "'%s' (U+%04X)", u, (unsigned)cp);
}

/* "U+0065 U+0301" for the characters of UTF-8 s[0..n), at most 8. */
static void check_list_cps(char *out, size_t size, const char *s, size_t n)
{
    size_t i = 0, used = 0;
    int count = 0;

    out[0] = '\0';
    while (i < n && used < size) {
        uint32_t cp;
        size_t k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        int w;

        if (k == 0) {
            cp = (unsigned char)s[i];
            k = 1;
        }
        if (++count > 8) {
            snprintf(out + used, size - used, " ...");
            return;
        }
        w = snprintf(out + used, size - used, "%sU+%04X", used ? " " : "",
                     (unsigned)cp);
        if (w < 0)
            return;
        used += (size_t)w;
        i += k;
    }
}

/* The UTF-8 of cp written as %HH escapes: "%C3%A9". */
static void check_pct_form(char *out, size_t size, uint32_t cp)
{
    char u[4];
    size_t n = utf8_encode(cp, u), i, used = 0;

    out[0] = '\0';
    for (i = 0; i < n && used + 4 <= size; i++, used += 3)
        snprintf(out + used, size - used, "%%%02X",
                 (unsigned)(unsigned char)u[i]);
}

/* Quote UTF-8 s[0..n) for a message when every character is showable;
 * otherwise list the code points. */
static void check_quote(char *out, size_t size, const char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        uint32_t cp;
        size_t k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k == 0 || !check_showable(cp) || cp == '"')
            break;
        i += k;
    }
    if (i == n && n <= CHECK_QUOTE_MAX)
        snprintf(out, size, "\"%.*s\"", (int)n, s);
    else
        check_list_cps(out, size, s, n);
}

static unsigned char check_pct_octet(const char *s, size_t i)
{
    return (unsigned char)(ch_hexval((unsigned char)s[i + 1]) * 16 +
                           ch_hexval((unsigned char)s[i + 2]));
}

/* ------------------------------------------------------------------ */
/* Grammar: the findings of ref_parse (RFC 3986 3, RFC 3987 2.2)       */

/* The scheme the reference is read with: its own, or, for a
 * network-path reference ("//h/p", RFC 3986 4.2) checked as a link
 * against a base, the base's (5.2.2: T.scheme = Base.scheme), which
 * decides how browsers read its host.  NULL when none; *n its length. */
static const char *check_scheme_of(const struct check *ck, size_t *n)
{
    const struct span *sc = &ck->r.part[XIRI_PART_SCHEME];

    if (sc->set) {
        *n = sc->len;
        return ck->s + sc->off;
    }
    *n = 0;
    if (!ck->r.part[XIRI_PART_AUTHORITY].set || !ck->base)
        return NULL;
    *n = scheme_prefix_len(ck->base, strlen(ck->base));
    return *n > 0 ? ck->base : NULL;
}

/* Whether the reference is read with the scheme lower (check_scheme_of). */
static bool check_scheme_is(const struct check *ck, const char *lower)
{
    size_t n;
    const char *sc = check_scheme_of(ck, &n);

    return sc && scheme_is(sc, n, lower);
}

/* The reference's scheme is special in WHATWG URL terms (http, https, ftp,
 * ws, wss, file): its host is a domain. */
static bool check_special(const struct check *ck)
{
    size_t n;
    const char *sc = check_scheme_of(ck, &n);

    return sc && scheme_is_special(sc, n);
}

/* HTML: the host of a file URL is a drive letter written "C|", which
 * browsers read as the path's "C:" (WHATWG URL file host state: a
 * Windows drive letter there starts the path). */
static bool check_drive_host(const struct check *ck)
{
    const struct span *h = &ck->r.part[XIRI_PART_HOST];
    char c = h->len == 2 ? ck->s[h->off] : 0;

    return ck->profile == XIRI_PROFILE_HTML && check_scheme_is(ck, "file") &&
           ch_is((unsigned char)c, CH_ALPHA) && ck->s[h->off + 1] == '|';
}

static void check_scan(void *user, enum scan_kind kind, enum xiri_part part,
                       size_t off, size_t len, uint32_t cp)
{
    struct check *ck = user;
    enum xiri_severity sev =
        scan_is_error(kind) ? XIRI_SEV_ERROR : XIRI_SEV_WARNING;
    const char *where = check_part_word(part);
    char what[48], pct[20];

    check_describe(what, sizeof(what), cp);
    check_pct_form(pct, sizeof(pct), cp);
    switch (kind) {
    case SCAN_ERR_CHAR:
    case SCAN_WARN_LEIRI:
        if (cp == '\\' && ck->profile == XIRI_PROFILE_HTML &&
            off < html_url_path_end(ck->s, ck->len) &&
            html_url_special(ck->s, ck->len, ck->base)) {
            /* WHATWG URL 4.4: in a special URL (its own scheme, or its
             * base's), browsers read '\' as '/' before the query (a
             * validation error, the same URL); percent-encoding it, as a
             * LEIRI character, would change what the link requests */
            check_report(ck, CODE_HTML_ONLY, XIRI_SEV_WARNING, NULL, part, off,
                         len, cp,
                         "'\\' (U+005C) at byte %zu: browsers read it as '/' "
                         "in this URL (WHATWG URL), other software does not; "
                         "write '/'",
                         off);
            break;
        }
        if (cp == '|' && part == XIRI_PART_HOST && check_drive_host(ck)) {
            check_report(ck, CODE_HTML_ONLY, XIRI_SEV_WARNING, NULL, part, off,
                         len, cp,
                         "'|' at byte %zu: browsers read \"%c|\" where the "
                         "host of a file URL stands as the drive letter "
                         "\"%c:\" of its path (WHATWG URL file host state), "
                         "other software does not; write \"file:///%c:\"",
                         off, ck->s[off - 1], ck->s[off - 1], ck->s[off - 1]);
            break;
        }
        if (ck->profile == XIRI_PROFILE_HTML && part == XIRI_PART_HOST &&
            (cp == 0 || cp == ' ' || cp == '<' || cp == '>' || cp == '^' ||
             cp == '|' || (cp == '\\' && !check_special(ck)) ||
             (((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
               cp == 0x7F) &&
              check_special(ck)))) {
            /* WHATWG URL 3.5, host parsing: a forbidden host code point
             * fails every host ('\\' too, which ends the host of a
             * special URL instead), a control character a domain (the
             * host of a special URL), and percent-encoding does not help
             * (a domain is percent-decoded first); a tab or newline the
             * basic URL parser removed before.  The parts are split
             * before they are scanned (ref_parse): the scheme is known. */
            check_report(ck, CODE_INVALID_CHAR, XIRI_SEV_ERROR, NULL, part,
                         off, len, cp,
                         "%s at byte %zu in the host: browsers reject the URL "
                         "(WHATWG URL host parser), written so or "
                         "percent-encoded; correct the host name",
                         what, off);
            break;
        }
        /* Refine by what the character is (RFC 3987 2.2 excludes all of
         * these from ucschar; LEIRI accepts them). */
        if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
            check_report(ck, CODE_CONTROL_CHAR, sev, NULL, part, off, len, cp,
                         "control character %s at byte %zu in the %s%s; "
                         "remove it or percent-encode it as %s",
                         what, off, where,
                         kind == SCAN_WARN_LEIRI
                             ? " (a LEIRI accepts it, an IRI does not)"
                             : "",
                         pct);
        } else if (cp >= 0x80 && uni_is_noncharacter(cp)) {
            check_report(ck, CODE_NONCHARACTER, sev, NULL, part, off, len, cp,
                         "noncharacter %s at byte %zu in the %s is not "
                         "for interchange; remove it or percent-encode it "
                         "as %s",
                         what, off, where, pct);
        } else if (cp_is_iprivate(cp)) {
            check_report(ck, CODE_PRIVATE_USE, sev, NULL, part, off, len, cp,
                         "private-use character %s at byte %zu in the %s; "
                         "RFC 3987 allows private use only in the query "
                         "(a LEIRI accepts it): percent-encode it as %s",
                         what, off, where, pct);
        } else if (kind == SCAN_WARN_LEIRI) {
            check_report(ck, CODE_LEIRI_CHAR, sev, NULL, part, off, len, cp,
                         "%s at byte %zu in the %s is allowed in a LEIRI "
                         "but not in an IRI or URI; percent-encode it as %s",
                         what, off, where, pct);
        } else {
            check_report(
                ck, CODE_INVALID_CHAR, sev, NULL, part, off, len, cp,
                "%s at byte %zu is not allowed in the %s%s; "
                "percent-encode it as %s",
                what, off, where,
                cp_is_leiri_extra(cp) ? " (only a LEIRI accepts it)" : "", pct);
        }
        break;
    case SCAN_ERR_PCT:
        check_report(ck, CODE_INVALID_PCT, sev, NULL, part, off, len, cp,
                     "'%%' at byte %zu in the %s is not followed by two "
                     "hexadecimal digits; write a literal '%%' as %%25",
                     off, where);
        break;
    case SCAN_ERR_UTF8:
        check_report(ck, CODE_INVALID_UTF8, sev, NULL, part, off, len, 0,
                     "byte 0x%02X at byte %zu in the %s is not part of a "
                     "UTF-8 sequence; transcode the text to UTF-8, or "
                     "percent-encode the byte as %%%02X",
                     (unsigned)(unsigned char)ck->s[off], off, where,
                     (unsigned)(unsigned char)ck->s[off]);
        break;
    case SCAN_ERR_PRIVATE:
        check_report(ck, CODE_PRIVATE_USE, sev, NULL, part, off, len, cp,
                     "private-use character %s at byte %zu in the %s; "
                     "RFC 3987 allows private use only in the query: "
                     "percent-encode it as %s",
                     what, off, where, pct);
        break;
    case SCAN_ERR_NONASCII:
        check_report(ck, CODE_NON_ASCII_IN_URI, sev, NULL, part, off, len, cp,
                     "non-ASCII character %s at byte %zu in the %s is not "
                     "allowed in a URI; map the IRI to a URI (RFC 3987 "
                     "3.1), which writes it %s",
                     what, off, where, pct);
        break;
    case SCAN_ERR_COLON:
        check_report(ck, CODE_COLON_IN_FIRST_SEGMENT, sev, NULL, part, off, len,
                     cp,
                     "':' at byte %zu in the first segment of a relative "
                     "path would be read as the end of a scheme; write "
                     "\"./\" before the path or %%3A for the colon",
                     off);
        break;
    case SCAN_ERR_HOST:
        if (ck->s[off] == '[' && ck->profile == XIRI_PROFILE_HTML &&
            len > 2 && ipvfuture_is_valid(ck->s + off + 1, len - 2))
            check_report(ck, CODE_INVALID_IP_LITERAL, sev, NULL, part, off, len,
                         0,
                         "the IP literal at byte %zu is IPvFuture, which "
                         "browsers reject (they take IPv6 addresses only); "
                         "correct the address",
                         off);
        else if (ck->s[off] == '[')
            check_report(ck, CODE_INVALID_IP_LITERAL, sev, NULL, part, off, len,
                         0,
                         "the IP literal at byte %zu is neither an IPv6 "
                         "address nor IPvFuture; correct the address",
                         off);
        else
            check_report(ck, CODE_INVALID_IP_LITERAL, sev, NULL, part, off, len,
                         cp,
                         "%s at byte %zu follows the IP literal's ']'; "
                         "only ':' and a port may follow it",
                         what, off);
        break;
    case SCAN_ERR_PORT:
        check_report(ck, CODE_INVALID_PORT, sev, NULL, part, off, len, cp,
                     "the port holds %s at byte %zu; a port is decimal "
                     "digits only",
                     what, off);
        break;
    case SCAN_WARN_HTML:
        if (cp == ':')
            check_report(ck, CODE_HTML_ONLY, sev, NULL, part, off, len, cp,
                         "':' at byte %zu in the first segment of a "
                         "relative path: browsers read a path (what comes "
                         "before is no scheme), RFC 3986 does not; write "
                         "\"./\" before the path",
                         off);
        else if (cp == '%' && part == XIRI_PART_HOST && check_special(ck))
            /* WHATWG URL 3.5, host parsing: a domain is percent-decoded,
             * which keeps such a '%', a forbidden domain code point (an
             * opaque host, not special, may hold it) */
            check_report(ck, CODE_INVALID_CHAR, XIRI_SEV_ERROR, NULL, part, off,
                         len, cp,
                         "'%%' at byte %zu in the host is not followed by "
                         "two hexadecimal digits, and no host may hold a "
                         "'%%': browsers reject the URL (WHATWG URL host "
                         "parser); correct the host name",
                         off);
        else if (cp >= 0x80 && uni_is_noncharacter(cp))
            /* U+FFFE, U+FFFF: a LEIRI has no place for them */
            check_report(ck, CODE_NONCHARACTER, sev, NULL, part, off, len, cp,
                         "noncharacter %s at byte %zu in the %s is not "
                         "for interchange; browsers accept it, RFC 3987 "
                         "does not: remove it or percent-encode it as %s",
                         what, off, where, pct);
        else if (cp == '%')
            check_report(ck, CODE_HTML_ONLY, sev, NULL, part, off, len, cp,
                         "'%%' at byte %zu in the %s is not followed by two "
                         "hexadecimal digits; browsers keep it, RFC 3987 "
                         "does not: write %%25",
                         off, where);
        else
            check_report(ck, CODE_HTML_ONLY, sev, NULL, part, off, len, cp,
                         "%s at byte %zu in the %s is accepted by browsers "
                         "but not by RFC 3987; percent-encode it as %s",
                         what, off, where, pct);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* Scheme, host case, port, dot segments: notes (RFC 3987 5.3)         */

static void check_scheme(struct check *ck)
{
    const struct span *sc = &ck->r.part[XIRI_PART_SCHEME];
    size_t i;

    if (!sc->set)
        return;
    /* RFC 3987 5.3.2.1: the scheme is case-insensitive, lower case is
     * its normal form. */
    for (i = sc->off; i < sc->off + sc->len; i++)
        if (ck->s[i] >= 'A' && ck->s[i] <= 'Z') {
            check_report(ck, CODE_UPPER_SCHEME, XIRI_SEV_NOTE, NULL,
                         XIRI_PART_SCHEME, i, 1, (unsigned char)ck->s[i],
                         "the scheme has upper-case letters ('%c' at byte "
                         "%zu); write it in lower case",
                         ck->s[i], i);
            return;
        }
}

static void check_host_case(struct check *ck)
{
    const struct span *h = &ck->r.part[XIRI_PART_HOST];
    size_t i;

    /* RFC 3987 5.3.2.1 (RFC 3986 6.2.2.1): an ASCII host normalizes to
     * lower case; the hex digits of escapes are lower-hex's business. */
    for (i = h->off; i < h->off + h->len; i++) {
        if (ch_is_pct(ck->s, h->off + h->len, i)) {
            i += 2;
            continue;
        }
        if (ck->s[i] >= 'A' && ck->s[i] <= 'Z') {
            check_report(ck, CODE_UPPER_HOST, XIRI_SEV_NOTE, NULL,
                         XIRI_PART_HOST, i, 1, (unsigned char)ck->s[i],
                         "the host has upper-case letters ('%c' at byte "
                         "%zu); write it in lower case",
                         ck->s[i], i);
            return;
        }
    }
}

/* HTML: WHATWG URL 4.4, port state: "If port is greater than 2^16 - 1,
 * port-out-of-range validation error, return failure" (in every URL with
 * a host, special or not; leading zeros do not count). */
static void check_html_port(struct check *ck)
{
    const struct span *p = &ck->r.part[XIRI_PART_PORT];
    size_t i;
    unsigned long v = 0;

    /* WHATWG URL 4.4, file host state: the host of a file URL runs up to
     * '/', so a port is read as part of it, and ':' is a forbidden host
     * code point (an empty port, as in "file://C:/", makes a drive letter
     * of the host instead) */
    if (check_scheme_is(ck, "file")) {
        /* (the ':' and the port: a character of the port that is not a
         * digit is an invalid-port of its own) */
        check_report(ck, CODE_INVALID_PORT, XIRI_SEV_ERROR, "WHATWG URL 4.4",
                     XIRI_PART_PORT, p->off - 1, p->len + 1, ':',
                     "a file URL has no port, and browsers reject one with "
                     "a port (the ':' at byte %zu and the port after it; "
                     "WHATWG URL file host state); remove them",
                     (size_t)p->off - 1);
        return;
    }
    for (i = p->off; i < p->off + p->len; i++) {
        if (ck->s[i] == '\t' || ck->s[i] == '\n' || ck->s[i] == '\r')
            continue; /* the basic URL parser removed them */
        /* a character other than a digit fails the port first
         * (port-invalid: invalid-port already), whatever the digits
         * before it */
        if (!ch_is((unsigned char)ck->s[i], CH_DIGIT))
            return;
        if (v <= 65535) /* (no further: no overflow) */
            v = v * 10 + (unsigned long)(ck->s[i] - '0');
    }
    if (v > 65535)
        check_report(ck, CODE_INVALID_PORT, XIRI_SEV_ERROR, "WHATWG URL 4.4",
                     XIRI_PART_PORT, p->off, p->len, 0,
                     "the port \"%.*s%s\" at byte %zu is over 65535: "
                     "browsers reject the URL (WHATWG URL port state); "
                     "correct the port",
                     p->len > 24 ? 24 : (int)p->len, ck->s + p->off,
                     p->len > 24 ? "..." : "", (size_t)p->off);
}

/* HTML: WHATWG URL 4.4, file host state: a file URL's host runs up to
 * '/', so '@' (userinfo) and ':' (a port, even an empty one) are in it,
 * both forbidden host code points: browsers reject the URL, but for a
 * drive letter "C:" where the host stands, which starts the path.  True
 * when it said either of the empty port. */
static bool check_html_file_colon(struct check *ck)
{
    const struct span *h = &ck->r.part[XIRI_PART_HOST];
    const struct span *p = &ck->r.part[XIRI_PART_PORT];
    char c = h->len == 1 ? ck->s[h->off] : 0;

    if (ck->profile != XIRI_PROFILE_HTML || !check_scheme_is(ck, "file"))
        return false;
    if (!ck->r.part[XIRI_PART_USERINFO].set &&
        ch_is((unsigned char)c, CH_ALPHA)) {
        check_report(ck, CODE_HTML_ONLY, XIRI_SEV_WARNING, NULL, XIRI_PART_HOST,
                     h->off, 2, ':',
                     "browsers read \"%c:\" at byte %zu, where the host of a "
                     "file URL stands, as the drive letter of its path "
                     "(WHATWG URL file host state), other software as the "
                     "host %c; write \"file:///%c:\"",
                     c, (size_t)h->off, c, c);
        return true;
    }
    check_report(ck, CODE_INVALID_PORT, XIRI_SEV_ERROR, "WHATWG URL 4.4",
                 XIRI_PART_PORT, p->off - 1, 1, ':',
                 "a file URL has no port, and browsers reject its host with "
                 "the ':' at byte %zu (WHATWG URL file host state); remove it",
                 (size_t)p->off - 1);
    return true;
}

static void check_port(struct check *ck)
{
    const struct span *p = &ck->r.part[XIRI_PART_PORT];
    const struct span *sc = &ck->r.part[XIRI_PART_SCHEME];
    const char *def;
    size_t i, start;

    if (!p->set)
        return;
    if (p->len == 0 && check_html_file_colon(ck))
        return;
    /* RFC 3987 5.3.3, RFC 3986 3.2.3: omit an empty or default port
     * together with its ':'. */
    if (p->len == 0) {
        check_report(ck, CODE_EMPTY_PORT, XIRI_SEV_NOTE, NULL, XIRI_PART_PORT,
                     p->off - 1, 1, ':',
                     "the ':' at byte %zu has an empty port, which means "
                     "the default; remove the ':'",
                     (size_t)p->off - 1);
        return;
    }
    if (ck->profile == XIRI_PROFILE_HTML)
        check_html_port(ck);
    if (!sc->set)
        return;
    def = scheme_default_port(ck->s + sc->off, sc->len);
    if (!def)
        return;
    for (i = p->off; i < p->off + p->len; i++)
        if (!ch_is((unsigned char)ck->s[i], CH_DIGIT))
            return; /* invalid-port already */
    for (start = p->off; start + 1 < p->off + p->len && ck->s[start] == '0';
         start++)
        ;
    if (strlen(def) == p->off + p->len - start &&
        memcmp(def, ck->s + start, strlen(def)) == 0)
        check_report(ck, CODE_DEFAULT_PORT, XIRI_SEV_NOTE, NULL, XIRI_PART_PORT,
                     p->off - 1, p->len + 1, ':',
                     "\":%.*s\" at byte %zu gives the default port of "
                     "the %.*s scheme; leave it out",
                     (int)p->len, ck->s + p->off, (size_t)p->off - 1, (int)sc->len,
                     ck->s + sc->off);
}

/* Whether the path has segments to the WHATWG URL parser: not when it
 * is opaque ("mailto:%2e": a scheme that is not special, and no '/' after
 * its ':'). */
static bool path_has_segments(const struct check *ck)
{
    const struct span *p = &ck->r.part[XIRI_PART_PATH];
    const struct span *sc = &ck->r.part[XIRI_PART_SCHEME];

    /* (a special URL's path is never opaque: "file:x/%2e%2e") */
    return p->set && (!sc->set || ck->r.part[XIRI_PART_AUTHORITY].set ||
                      (p->len > 0 && ck->s[p->off] == '/') ||
                      scheme_is_special(ck->s + sc->off, sc->len));
}

/* The segment of the path around byte i: [*a, *b). */
static void path_segment_at(const struct check *ck, size_t i, size_t *a,
                            size_t *b)
{
    const struct span *p = &ck->r.part[XIRI_PART_PATH];

    for (*a = i; *a > p->off && ck->s[*a - 1] != '/'; (*a)--)
        ;
    for (*b = i; *b < p->off + p->len && ck->s[*b] != '/'; (*b)++)
        ;
}

/* Whether the '%' at byte i of the path starts an escaped dot of
 * ch_escaped_dot_segment (reported as such, not as needless-escape). */
static bool in_escaped_dot_segment(const struct check *ck, size_t i)
{
    const struct span *p = &ck->r.part[XIRI_PART_PATH];
    size_t a, b;

    if (!path_has_segments(ck) || i < p->off || i >= p->off + p->len ||
        !ch_is_pct_dot(ck->s, p->off + p->len, i))
        return false;
    path_segment_at(ck, i, &a, &b);
    return ch_escaped_dot_segment(ck->s, a, b);
}

/* Escaped dot segments (ch_escaped_dot_segment): where such a link leads
 * depends on who reads it, as a path traversal that slips past a check of
 * literal ".." does. */
static void check_escaped_dots(struct check *ck)
{
    const struct span *p = &ck->r.part[XIRI_PART_PATH];
    size_t i = p->off, end = p->off + p->len, a, b;
    int dots;

    while (i < end) {
        const char *q = memchr(ck->s + i, '%', end - i);

        if (!q)
            break;
        i = (size_t)(q - ck->s);
        path_segment_at(ck, i, &a, &b);
        dots = ch_escaped_dot_segment(ck->s, a, b);
        if (dots > 0)
            check_report(ck, CODE_ESCAPED_DOT_SEGMENT, XIRI_SEV_WARNING, NULL,
                         XIRI_PART_PATH, a, b - a, '.',
                         "the path segment \"%.*s\" at byte %zu is \"%s\" to "
                         "browsers but a name to RFC 3986 resolution; write "
                         "\"%s\" if that is meant",
                         (int)(b - a), ck->s + a, a, dots == 2 ? ".." : ".",
                         dots == 2 ? ".." : ".");
        i = b;
    }
}

static void check_dots(struct check *ck)
{
    const struct span *p = &ck->r.part[XIRI_PART_PATH];
    size_t i = p->off, end = p->off + p->len;

    if (ck->pct && path_has_segments(ck))
        check_escaped_dots(ck);

    /* RFC 3987 5.3.2.4: "." and ".." belong in relative references; in
     * an absolute IRI they are left to software that may or may not
     * remove them (RFC 3986 5.2.4). */
    if (!ck->r.part[XIRI_PART_SCHEME].set)
        return;
    while (i <= end) {
        size_t j = i;
        while (j < end && ck->s[j] != '/')
            j++;
        if ((j - i == 1 && ck->s[i] == '.') ||
            (j - i == 2 && ck->s[i] == '.' && ck->s[i + 1] == '.'))
            check_report(ck, CODE_DOT_SEGMENT, XIRI_SEV_NOTE, NULL,
                         XIRI_PART_PATH, i, j - i, '.',
                         "the path has a \"%.*s\" segment at byte %zu; "
                         "remove dot segments from absolute IRIs",
                         (int)(j - i), ck->s + i, i);
        i = j + 1;
    }
}

/* ------------------------------------------------------------------ */
/* Percent-encodings (RFC 3986 2.1, 2.3; RFC 3987 3.2, 8)              */

/* Length of the sequence an old-style UTF-8 lead octet announces (2-6),
 * or 0. */
static size_t check_lead_len(unsigned char b)
{
    if (b >= 0xC0 && b <= 0xDF)
        return 2;
    if (b >= 0xE0 && b <= 0xEF)
        return 3;
    if (b >= 0xF0 && b <= 0xF7)
        return 4;
    if (b >= 0xF8 && b <= 0xFB)
        return 5;
    if (b >= 0xFC && b <= 0xFD)
        return 6;
    return 0;
}

/* An overlong form at o[0..k): a lead octet with n-1 continuation octets
 * whose value fits in fewer octets (RFC 3629 3 forbids it; RFC 3987 8).
 * Returns n and the value, or 0. */
static size_t check_overlong_at(const unsigned char *o, size_t k,
                                uint32_t *value)
{
    static const uint32_t min_value[7] = {0,       0,        0x80,     0x800,
                                          0x10000, 0x200000, 0x4000000};
    size_t n = check_lead_len(o[0]), i;
    uint32_t v;

    if (n == 0 || n > k)
        return 0;
    v = o[0] & (0x7Fu >> n);
    for (i = 1; i < n; i++) {
        if ((o[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (o[i] & 0x3F);
    }
    if (v >= min_value[n])
        return 0;
    *value = v;
    return n;
}

static const char *check_bidi_name(uint32_t cp)
{
    switch (cp) {
    case 0x061C:
        return "ARABIC LETTER MARK";
    case 0x200E:
        return "LEFT-TO-RIGHT MARK";
    case 0x200F:
        return "RIGHT-TO-LEFT MARK";
    case 0x202A:
        return "LEFT-TO-RIGHT EMBEDDING";
    case 0x202B:
        return "RIGHT-TO-LEFT EMBEDDING";
    case 0x202C:
        return "POP DIRECTIONAL FORMATTING";
    case 0x202D:
        return "LEFT-TO-RIGHT OVERRIDE";
    case 0x202E:
        return "RIGHT-TO-LEFT OVERRIDE";
    case 0x2066:
        return "LEFT-TO-RIGHT ISOLATE";
    case 0x2067:
        return "RIGHT-TO-LEFT ISOLATE";
    case 0x2068:
        return "FIRST STRONG ISOLATE";
    case 0x2069:
        return "POP DIRECTIONAL ISOLATE";
    default:
        return NULL;
    }
}

/* The seven characters of RFC 3987 4.1, and those Unicode added later for
 * the same purpose (isolates in 6.3, ALM in 6.3): warnings. */
static bool check_is_bidi_control(uint32_t cp)
{
    return check_bidi_name(cp) != NULL;
}

/* An escaped character that decodes to a bidi formatting character. */
static void check_escaped_bidi(struct check *ck, size_t off, size_t n,
                               uint32_t cp)
{
    check_report(ck, CODE_BIDI_FORMAT_CHAR, XIRI_SEV_WARNING, NULL,
                 check_part_at(ck, off), off, 3 * n, cp,
                 "%.*s at byte %zu encodes U+%04X %s, a bidi formatting "
                 "character an IRI must not contain raw (RFC 3987 4.1); "
                 "escaped it is legal but can still reorder displayed "
                 "text: make sure it is intended",
                 (int)(3 * n), ck->s + off, off, (unsigned)cp,
                 check_bidi_name(cp));
}

/* RFC 3987 3.2 and 8: decode the octets of one run of consecutive
 * escapes s[off..off+3k) and report overlong forms, escaped bidi
 * formatting characters, and (once for the run) octets that are not
 * UTF-8, naming the legacy encoding that decodes the run. */
static void check_pct_run(struct check *ck, size_t off, size_t k)
{
    const unsigned char *o;
    size_t j = 0;
    bool bad = false;
    uint32_t surrogate = 0, pair = 0;

    ck->tmp.len = 0;
    for (j = 0; j < k; j++)
        buf_putc(&ck->tmp, (char)check_pct_octet(ck->s, off + 3 * j));
    if (ck->tmp.status != XIRI_OK) {
        check_fail(ck, ck->tmp.status);
        return;
    }
    o = (const unsigned char *)ck->tmp.data;
    j = 0;
    while (j < k && !check_done(ck)) {
        uint32_t cp;
        size_t n;

        if (o[j] < 0x80) {
            j++;
            continue;
        }
        n = utf8_decode(o + j, k - j, &cp);
        if (n > 0) {
            if (check_is_bidi_control(cp))
                check_escaped_bidi(ck, off + 3 * j, n, cp);
            j += n;
            continue;
        }
        n = check_overlong_at(o + j, k - j, &cp);
        if (n > 0) {
            char what[48];
            check_describe(what, sizeof(what), cp);
            check_report(ck, CODE_PCT_OVERLONG, XIRI_SEV_ERROR, NULL,
                         check_part_at(ck, off + 3 * j), off + 3 * j, 3 * n, cp,
                         "%.*s at byte %zu is an overlong UTF-8 form of %s; "
                         "lenient decoders turn it into that character "
                         "and can be fooled by it (RFC 3987 8): reject the "
                         "reference or write the character's shortest form",
                         (int)(3 * n), ck->s + off + 3 * j, off + 3 * j, what);
            j += n;
            continue;
        }
        if (j + 2 < k && o[j] == 0xED && o[j + 1] >= 0xA0 && o[j + 1] <= 0xBF &&
            (o[j + 2] & 0xC0) == 0x80) {
            /* a surrogate code point in UTF-8 form (CESU-8, WTF-8):
             * RFC 3629 3 forbids it */
            uint32_t u =
                0xD000u | ((o[j + 1] & 0x3Fu) << 6) | (o[j + 2] & 0x3Fu);
            if (!surrogate)
                surrogate = u;
            else if (!pair && surrogate < 0xDC00 && u >= 0xDC00 &&
                     j == 3) /* only a pair at the run's start */
                pair = 0x10000u + ((surrogate - 0xD800u) << 10) + (u - 0xDC00u);
            j += 3;
            continue;
        }
        bad = true;
        j++;
    }
    if (check_done(ck))
        return;
    if (surrogate && !bad) {
        char right[20] = "";
        if (pair)
            check_pct_form(right, sizeof(right), pair);
        check_report(ck, CODE_PCT_NOT_UTF8, XIRI_SEV_WARNING, NULL,
                     check_part_at(ck, off), off, 3 * k, surrogate,
                     "the escapes at byte %zu encode the surrogate U+%04X, "
                     "which UTF-8 forbids (the encoder worked on UTF-16 "
                     "code units, CESU-8 style); encode the character "
                     "itself as UTF-8%s%s",
                     off, (unsigned)surrogate, pair ? ": " : "", right);
        return;
    }
    if (!bad)
        return;
    {
        const char *enc;
        char quote[160], utf8[160];
        size_t i, used = 0;
        struct buf *dec = &ck->tmp2;

        dec->len = 0;
        enc = uni_guess_legacy(o, k, dec);
        if (dec->status != XIRI_OK) {
            check_fail(ck, dec->status);
            return;
        }
        if (!enc) {
            check_report(ck, CODE_PCT_NOT_UTF8, XIRI_SEV_WARNING, NULL,
                         check_part_at(ck, off), off, 3 * k, 0,
                         "the escapes at byte %zu are not UTF-8, and no "
                         "legacy encoding xiri knows decodes them; an IRI "
                         "can only show UTF-8 escapes as characters (RFC "
                         "3987 3.2)",
                         off);
            return;
        }
        check_quote(quote, sizeof(quote), dec->data, dec->len);
        utf8[0] = '\0';
        for (i = 0; i < dec->len && used + 4 < sizeof(utf8); i++) {
            unsigned char b = (unsigned char)dec->data[i];
            if (ch_is(b, CH_UNRESERVED))
                utf8[used++] = (char)b;
            else
                used += (size_t)snprintf(utf8 + used, sizeof(utf8) - used,
                                         "%%%02X", (unsigned)b);
            utf8[used] = '\0';
        }
        if (i < dec->len)
            snprintf(utf8 + used, sizeof(utf8) - used, "...");
        check_report(ck, CODE_PCT_NOT_UTF8, XIRI_SEV_WARNING, NULL,
                     check_part_at(ck, off), off, 3 * k, 0,
                     "the escapes at byte %zu are not UTF-8 (decodes as "
                     "%s: %s); in UTF-8 that text is %s",
                     off, enc, quote, utf8);
    }
}

static void check_escapes(struct check *ck)
{
    const struct span *port = &ck->r.part[XIRI_PART_PORT];
    size_t i = 0;

    while (i < ck->len && !check_done(ck)) {
        size_t start, k = 0, lower_at = 0, lower_end = 0;
        bool high = false, lower = false;

        if (!ch_is_pct(ck->s, ck->len, i) ||
            (port->set && i >= port->off && i < port->off + port->len)) {
            i++;
            continue;
        }
        start = i;
        for (; ch_is_pct(ck->s, ck->len, i); i += 3, k++) {
            unsigned char b = check_pct_octet(ck->s, i);
            /* RFC 3986 2.1: upper-case hex is the normal form. */
            if ((ck->s[i + 1] >= 'a' && ck->s[i + 1] <= 'f') ||
                (ck->s[i + 2] >= 'a' && ck->s[i + 2] <= 'f')) {
                if (!lower)
                    lower_at = i;
                lower = true;
                lower_end = i + 3;
            }
            if (b >= 0x80)
                high = true;
            else if (ch_is(b, CH_UNRESERVED) &&
                     !(b == '.' && in_escaped_dot_segment(ck, i)))
                /* RFC 3986 2.3: never needs encoding (a dot of an
                 * escaped dot segment is check_escaped_dots') */
                check_report(ck, CODE_NEEDLESS_ESCAPE, XIRI_SEV_NOTE, NULL,
                             check_part_at(ck, i), i, 3, b,
                             "%.3s at byte %zu encodes '%c', which needs "
                             "no escaping; write '%c'",
                             ck->s + i, i, (char)b, (char)b);
        }
        if (lower)
            check_report(ck, CODE_LOWER_HEX, XIRI_SEV_NOTE, NULL,
                         check_part_at(ck, lower_at), lower_at,
                         lower_end - lower_at, 0,
                         "percent-encoding with lower-case hex digits at "
                         "byte %zu; write the digits in upper case",
                         lower_at);
        if (high)
            check_pct_run(ck, start, k);
    }
}

/* ------------------------------------------------------------------ */
/* Raw characters: bidi formatting, unassigned (RFC 3987 4.1, 6.1)     */

/* RFC 3987 7.5 and 8: a character that looks like a delimiter (UTS #39
 * confusables) makes a reader split the IRI where it is not split
 * ("http://ex.org/a∕..∕b" holds no "/..", "http://bank.example∕x.evil/"
 * is a host of evil, not of bank.example); a compatibility character is
 * nfkc-variant's.  True when reported. */
static bool check_lookalike(struct check *ck, size_t i, size_t n, uint32_t cp)
{
    /* the delimiters that split each part (RFC 3986 3): a look-alike of
     * another one splits nothing there (a ':' in a path, a ratio sign in
     * "16:9", is plain text) */
    static const char *const splits[XIRI_PART_COUNT + 1] = {
        [XIRI_PART_USERINFO] = "/:?#@",
        [XIRI_PART_HOST] = "/:?#@.",
        [XIRI_PART_PATH] = "/?#",
        [XIRI_PART_QUERY] = "#&=",
    };
    enum xiri_part part = check_part_at(ck, i);
    char ascii, what[48], pct[20];
    bool nfkc;

    /* an IRI with a scheme but no authority (mailto:, data:, urn:...)
     * holds text more than a hierarchy a reader splits */
    if (ck->r.part[XIRI_PART_SCHEME].set &&
        !ck->r.part[XIRI_PART_AUTHORITY].set)
        return false;
    if (!splits[part] || !uni_delimiter_lookalike(ck->ctx, cp, &ascii) ||
        !strchr(splits[part], ascii))
        return false;
    if (uni_is_normalized(ck->ctx, UNI_NFKC, ck->s + i, n, &nfkc) != XIRI_OK ||
        !nfkc)
        return false;
    check_describe(what, sizeof(what), cp);
    check_pct_form(pct, sizeof(pct), cp);
    if (part == XIRI_PART_HOST)
        check_report(ck, CODE_DELIMITER_LOOKALIKE, XIRI_SEV_WARNING, NULL,
                     XIRI_PART_HOST, i, n, cp,
                     "%s at byte %zu in the host looks like '%c' but is part "
                     "of the host name: the host is not the one a reader "
                     "sees; write '%c' if one is meant",
                     what, i, ascii, ascii);
    else
        check_report(ck, CODE_DELIMITER_LOOKALIKE, XIRI_SEV_WARNING, NULL, part,
                     i, n, cp,
                     "%s at byte %zu in the %s looks like '%c' but is no "
                     "delimiter: a "
                     "reader splits the IRI where it is not split; write '%c' "
                     "if one is meant, else percent-encode it as %s",
                     what, i, check_part_word(part), ascii, ascii, pct);
    return true;
}

static void check_chars(struct check *ck)
{
    const unsigned char *s = (const unsigned char *)ck->s;
    size_t i = 0;

    while (i < ck->len && !check_done(ck)) {
        uint32_t cp;
        size_t n;

        if (s[i] < 0x80) {
            i++;
            continue;
        }
        n = utf8_decode(s + i, ck->len - i, &cp);
        if (n == 0) {
            i++;
            continue;
        }
        if (check_is_bidi_control(cp)) {
            /* RFC 3987 4.1: IRIs MUST NOT contain the seven; the
             * isolates and ALM came later and get a warning. */
            bool rfc = cp_is_bidi_format(cp);
            check_report(ck, CODE_BIDI_FORMAT_CHAR,
                         rfc ? XIRI_SEV_ERROR : XIRI_SEV_WARNING, NULL,
                         check_part_at(ck, i), i, n, cp,
                         "bidi formatting character U+%04X %s at byte %zu "
                         "%s; remove it (to display an IRI, put the marks "
                         "around it, never inside)",
                         (unsigned)cp, check_bidi_name(cp), i,
                         rfc ? "must not appear in an IRI"
                             : "reorders how the IRI is displayed (added "
                               "to Unicode after RFC 3987, same risk)");
        } else if (check_lookalike(ck, i, n, cp)) {
            /* reported */
        } else if (!uni_is_assigned(cp) && !uni_is_noncharacter(cp)) {
            char pct[20];
            check_pct_form(pct, sizeof(pct), cp);
            check_report(ck, CODE_UNASSIGNED, XIRI_SEV_WARNING, NULL,
                         check_part_at(ck, i), i, n, cp,
                         "U+%04X at byte %zu is not assigned in this "
                         "Unicode version, so its properties are unknown; "
                         "avoid it or percent-encode it as %s",
                         (unsigned)cp, i, pct);
        }
        i += n;
    }
}

/* ------------------------------------------------------------------ */
/* Normalization: NFC (RFC 3987 5.3.2.2) and NFKC (7.5)                */

/* One character of s[i..]: NFKC changes it but NFC does not. */
static void check_nfkc_char(struct check *ck, size_t i, size_t n, uint32_t cp)
{
    enum xiri_status st;
    bool nfc, nfkc;
    char what[48], form[160];

    st = uni_is_normalized(ck->ctx, UNI_NFKC, ck->s + i, n, &nfkc);
    if (st == XIRI_OK && !nfkc)
        st = uni_is_normalized(ck->ctx, UNI_NFC, ck->s + i, n, &nfc);
    if (st != XIRI_OK) {
        check_fail(ck, st);
        return;
    }
    if (nfkc || !nfc)
        return; /* fine, or not-nfc's business */
    ck->tmp2.len = 0;
    st = uni_normalize(ck->ctx, UNI_NFKC, ck->s + i, n, &ck->tmp2);
    if (st != XIRI_OK) {
        check_fail(ck, st);
        return;
    }
    check_describe(what, sizeof(what), cp);
    check_quote(form, sizeof(form), ck->tmp2.data, ck->tmp2.len);
    if (ck->tmp2.len == 0)
        snprintf(form, sizeof(form), "nothing");
    check_report(ck, CODE_NFKC_VARIANT, XIRI_SEV_WARNING, NULL,
                 check_part_at(ck, i), i, n, cp,
                 "%s at byte %zu is a compatibility character: NFKC makes "
                 "it %s; use that instead",
                 what, i, form);
}

/* The chunk s[a..e): an optional ASCII character at a, then the
 * non-ASCII run s[run..e).  NFC and NFKC have a boundary before every
 * ASCII character (no composition has an ASCII second character), so
 * chunks can be checked one by one. */
static void check_norm_chunk(struct check *ck, size_t a, size_t run, size_t e)
{
    enum xiri_status st;
    bool yes;
    size_t at, i;
    uint32_t cp = 0;

    st = uni_is_normalized(ck->ctx, UNI_NFKC, ck->s + a, e - a, &yes);
    if (st != XIRI_OK || yes) {
        if (st != XIRI_OK)
            check_fail(ck, st);
        return;
    }
    utf8_decode((const unsigned char *)ck->s + run, e - run, &cp);
    st = uni_is_normalized(ck->ctx, UNI_NFC, ck->s + a, e - a, &yes);
    if (st == XIRI_OK && !yes) {
        char from[160], to[160];
        bool alone = true;

        /* blame the run itself when it is not NFC on its own, else its
         * combination with the character before it */
        at = a;
        if (a < run) {
            st = uni_is_normalized(ck->ctx, UNI_NFC, ck->s + run, e - run,
                                   &alone);
            if (st == XIRI_OK && !alone)
                at = run;
        }
        ck->tmp2.len = 0;
        if (st == XIRI_OK)
            st = uni_normalize(ck->ctx, UNI_NFC, ck->s + at, e - at, &ck->tmp2);
        if (st != XIRI_OK) {
            check_fail(ck, st);
            return;
        }
        check_list_cps(from, sizeof(from), ck->s + at, e - at);
        check_list_cps(to, sizeof(to), ck->tmp2.data, ck->tmp2.len);
        check_report(ck, CODE_NOT_NFC, XIRI_SEV_WARNING, NULL,
                     check_part_at(ck, at), at, e - at, cp,
                     "the text at byte %zu (%s) is not in NFC; write it "
                     "as %s",
                     at, from, to);
    } else if (st != XIRI_OK) {
        check_fail(ck, st);
        return;
    }
    for (i = run; i < e && !check_done(ck);) {
        size_t n = utf8_decode((const unsigned char *)ck->s + i, e - i, &cp);
        check_nfkc_char(ck, i, n, cp);
        i += n;
    }
}

static void check_norm(struct check *ck)
{
    const unsigned char *s = (const unsigned char *)ck->s;
    size_t i = 0;

    if (!ck->bad_utf8) {
        bool yes;
        /* NFKC implies NFC: one call clears the common case */
        enum xiri_status st =
            uni_is_normalized(ck->ctx, UNI_NFKC, ck->s, ck->len, &yes);
        if (st != XIRI_OK || yes) {
            if (st != XIRI_OK)
                check_fail(ck, st);
            return;
        }
    }
    while (i < ck->len && !check_done(ck)) {
        size_t run, e;
        uint32_t cp;

        if (s[i] < 0x80 || utf8_decode(s + i, ck->len - i, &cp) == 0) {
            i++;
            continue;
        }
        run = i;
        e = i;
        while (e < ck->len && s[e] >= 0x80) {
            size_t n = utf8_decode(s + e, ck->len - e, &cp);
            if (n == 0)
                break;
            e += n;
        }
        check_norm_chunk(ck, run > 0 && s[run - 1] < 0x80 ? run - 1 : run, run,
                         e);
        i = e;
    }
}

/* ------------------------------------------------------------------ */
/* Bidi structure (RFC 3987 4.2)                                       */

/* One component s[a..e), read as displayed: escapes are their ASCII
 * characters, so only raw right-to-left characters count (4.2: a
 * component that cannot follow the rules is percent-encoded whole). */
static void check_bidi_component(struct check *ck, enum xiri_part part,
                                 size_t a, size_t e)
{
    struct uni_bidi_scan b;

    uni_bidi_scan(ck->s + a, e - a, &b);
    if (!b.rtl)
        return;
    if (b.ltr) {
        char l[48];
        check_describe(l, sizeof(l), b.ltr_cp);
        /* 4.2 rule 1 */
        check_report(ck, CODE_BIDI_MIXED, XIRI_SEV_WARNING, NULL, part, a,
                     e - a, b.ltr_cp,
                     "the %s component at byte %zu mixes right-to-left "
                     "and left-to-right characters (U+%04X at byte %zu, %s "
                     "at byte %zu); keep it in one direction or "
                     "percent-encode all of it",
                     check_part_word(part), a, (unsigned)b.rtl_cp, a + b.rtl_at,
                     l, a + b.ltr_at);
    }
    if (b.first != UNI_DIR_RTL || b.last != UNI_DIR_RTL) {
        /* 4.2 rule 2 */
        bool start = b.first != UNI_DIR_RTL;
        char w[48];
        check_describe(w, sizeof(w), start ? b.first_cp : b.last_cp);
        check_report(ck, CODE_BIDI_ENDS, XIRI_SEV_WARNING, NULL, part, a, e - a,
                     start ? b.first_cp : b.last_cp,
                     "the %s component at byte %zu has right-to-left "
                     "characters but %s with %s at byte %zu; start and end "
                     "it with right-to-left characters",
                     check_part_word(part), a, start ? "starts" : "ends", w,
                     a + (start ? 0 : b.last_at));
    }
}

/* Split s[a..e) at any of the delimiters and check each piece. */
static void check_bidi_split(struct check *ck, enum xiri_part part, size_t a,
                             size_t e, const char *delims)
{
    size_t i = a;

    while (i <= e && !check_done(ck)) {
        size_t j = i;
        while (j < e && (ck->s[j] == '\0' || !strchr(delims, ck->s[j])))
            j++;
        if (j > i)
            check_bidi_component(ck, part, i, j);
        i = j + 1;
    }
}

static void check_bidi(struct check *ck)
{
    size_t k;

    /* RFC 3987 4.2 constrains only components with right-to-left
     * characters */
    if (!ck->may_rtl)
        return;
    for (k = 0; k < UNI_BIDI_PARTS; k++) {
        const struct span *p = &ck->r.part[uni_bidi_parts[k].part];

        if (p->set && !(uni_bidi_parts[k].part == XIRI_PART_HOST &&
                        p->len > 0 && ck->s[p->off] == '['))
            check_bidi_split(ck, uni_bidi_parts[k].part, p->off,
                             p->off + p->len, uni_bidi_parts[k].delims);
    }
}

/* ------------------------------------------------------------------ */
/* Hosts: IDNA (UTS #46, RFC 5893) and confusables (UTS #39)           */

/* Decode s[a..e) (escapes to octets) into out; false when the result is
 * not UTF-8 (pct-not-utf8 or invalid-utf8 says why). */
static bool check_decode(struct check *ck, size_t a, size_t e, struct buf *out)
{
    size_t i;

    out->len = 0;
    for (i = a; i < e;) {
        if (ch_is_pct(ck->s, e, i)) {
            buf_putc(out, (char)check_pct_octet(ck->s, i));
            i += 3;
        } else {
            buf_putc(out, ck->s[i++]);
        }
    }
    if (out->status != XIRI_OK) {
        check_fail(ck, out->status);
        return false;
    }
    for (i = 0; i < out->len;) {
        uint32_t cp;
        size_t n = utf8_decode((const unsigned char *)out->data + i,
                               out->len - i, &cp);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

/* Whether the bytes of s[a..e) as written (escapes not decoded) are
 * UTF-8. */
static bool check_utf8_raw(const struct check *ck, size_t a, size_t e)
{
    size_t i = a;

    while (i < e) {
        uint32_t cp;
        size_t n = utf8_decode((const unsigned char *)ck->s + i, e - i, &cp);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

/* Non-ASCII, raw or escaped, in s[a..e). */
static bool check_has_nonascii(const struct check *ck, size_t a, size_t e)
{
    size_t i;

    for (i = a; i < e; i++) {
        if ((unsigned char)ck->s[i] >= 0x80)
            return true;
        if (ch_is_pct(ck->s, e, i) && check_pct_octet(ck->s, i) >= 0x80)
            return true;
    }
    return false;
}

static void check_idna(struct check *ck, struct idn *idn, bool dns)
{
    const struct span *h = &ck->r.part[XIRI_PART_HOST];
    enum xiri_severity sev = dns ? XIRI_SEV_ERROR : XIRI_SEV_WARNING;
    enum xiri_status st;
    uint32_t errors = 0;
    bool lenient = false; /* browsers take what DNS would not */

    if (!check_decode(ck, h->off, h->off + h->len, &ck->tmp))
        return;
    ck->tmp2.len = 0;
    st = idn_to_ascii(idn, ck->tmp.data, ck->tmp.len, &ck->tmp2, &errors);
    if (st == XIRI_OK && errors && dns && ck->profile == XIRI_PROFILE_HTML) {
        /* WHATWG URL 3.5, domain to ASCII: browsers turn off the hyphen,
         * STD3 and length checks; what only those reject is a warning */
        bool reject = true;
        st = idn_browsers_reject(ck->ctx, ck->tmp.data, ck->tmp.len, &reject);
        lenient = !reject;
        if (lenient)
            sev = XIRI_SEV_WARNING;
    }
    if (st != XIRI_OK) {
        check_fail(ck, st);
        return;
    }
    /* UTS #46 4.1 step 8 (CheckBidi): RFC 5893 section 2 */
    if (errors & CHECK_IDNA_ERROR_BIDI)
        check_report(
            ck, CODE_IDNA_BIDI, sev, NULL, XIRI_PART_HOST, h->off, h->len, 0,
            "the host at byte %zu breaks the IDNA bidi rule (RFC "
            "5893 2): with right-to-left labels, every label must "
            "keep to one direction and start with a letter; %s",
            (size_t)h->off,
            dns ? "it cannot be resolved" : "it cannot be used as a DNS name");
    errors &= ~CHECK_IDNA_ERROR_BIDI;
    if (errors) {
        char why[256];
        idn_describe_errors(errors, why, sizeof(why));
        check_report(
            ck, CODE_IDNA_ERROR, sev, NULL, XIRI_PART_HOST, h->off, h->len, 0,
            "IDNA (UTS #46) rejects the host at byte %zu: %s; %s",
            (size_t)h->off, why,
            lenient ? "browsers accept it (WHATWG URL leaves out these "
                      "checks), DNS does not: correct the name"
            : dns   ? "it cannot be resolved: correct the name"
                    : "it cannot be used as a DNS name");
    }
}

/* Where the host label that starts at s[i] ends (before e): at a '.', or
 * at a "%2E" or "%2e", which is a '.' once the host is percent-decoded
 * (WHATWG URL 3.5 host parsing; RFC 3986 3.2.2); *sep is the
 * separator's length. */
static size_t check_label_end(const struct check *ck, size_t i, size_t e,
                              size_t *sep)
{
    for (*sep = 1; i < e; i++) {
        if (ck->s[i] == '.')
            return i;
        if (ch_is_pct_dot(ck->s, e, i)) {
            *sep = 3;
            return i;
        }
    }
    return e;
}

/* Whether the host label s[a..e) is an ACE label (ch_is_ace_label) once
 * its escapes are decoded: a host is percent-decoded before IDNA (WHATWG
 * URL 3.5 host parsing; RFC 3986 3.2.2), so "%78n--" is "xn--". */
static bool check_ace_at(const struct check *ck, size_t a, size_t e)
{
    char d[4];
    size_t i = a, k = 0;

    while (k < 4 && i < e) {
        if (ck->s[i] == '%' && ch_is_pct(ck->s, e, i)) {
            d[k++] = (char)check_pct_octet(ck->s, i);
            i += 3;
        } else {
            d[k++] = ck->s[i++];
        }
    }
    return k == 4 && ch_is_ace_label(d, 0, 4);
}

/* Whether the host s[a..e) has a label check_ace_at takes. */
static bool check_has_ace(const struct check *ck, size_t a, size_t e)
{
    size_t i, j, sep;

    for (i = a; i <= e; i = j + sep) {
        j = check_label_end(ck, i, e, &sep);
        if (check_ace_at(ck, i, j))
            return true;
    }
    return false;
}

/* An ASCII host's ACE labels ("xn--", RFC 5890 2.3.1): each must be an
 * A-label, valid Punycode of a label IDNA allows (2.3.2.1), as ToUnicode
 * (UTS #46 4.3) finds it.  One that is not is a fake A-label, which no
 * registry gives out and IDNA2008 lookups refuse.  Browsers differ: the
 * URL Standard's tests keep it as written (WPT toascii.json: "xn--a"),
 * Node 20's URL rejects it; a warning under every profile. */
static void check_ace_labels(struct check *ck, struct idn *idn)
{
    const struct span *h = &ck->r.part[XIRI_PART_HOST];
    size_t i, j, sep, end = h->off + h->len;

    for (i = h->off; i <= end && !check_done(ck); i = j + sep) {
        enum xiri_status st;
        uint32_t errors = 0;
        char why[256];

        j = check_label_end(ck, i, end, &sep);
        if (!check_ace_at(ck, i, j) || !check_decode(ck, i, j, &ck->tmp))
            continue;
        ck->tmp2.len = 0;
        st = idn_to_unicode(idn, ck->tmp.data, ck->tmp.len, &ck->tmp2,
                            &errors);
        if (st != XIRI_OK) {
            check_fail(ck, st);
            return;
        }
        if (!errors)
            continue;
        idn_describe_errors(errors, why, sizeof(why));
        check_report(ck, CODE_FAKE_A_LABEL, XIRI_SEV_WARNING, NULL,
                     XIRI_PART_HOST, i, j - i, 0,
                     "the host label at byte %zu starts with \"xn--\" but is "
                     "no A-label (%s): no registry gives such a name out and "
                     "IDNA2008 lookups refuse it (RFC 5890 2.3.1); browsers "
                     "may keep it or reject it: check the name",
                     i, why);
    }
}

static void check_confusable_label(struct check *ck, struct idn *idn, size_t a,
                                   size_t e)
{
    enum xiri_status st;
    uint32_t errors = 0;
    unsigned flags = 0;
    size_t i;
    bool ascii = true;
    const char *why = NULL, *section = NULL, *marks = "";

    if (!check_decode(ck, a, e, &ck->tmp))
        return;
    /* UTS #39 checks the label as IDNA maps it (case, width, NFC): a
     * full-width U+FF21 is just "a" once mapped */
    ck->tmp2.len = 0;
    st = idn_to_unicode(idn, ck->tmp.data, ck->tmp.len, &ck->tmp2, &errors);
    if (st != XIRI_OK) {
        check_fail(ck, st);
        return;
    }
    if (errors)
        return; /* idna-error says it */
    for (i = 0; i < ck->tmp2.len; i++)
        if ((unsigned char)ck->tmp2.data[i] >= 0x80)
            ascii = false;
    if (ascii)
        return;
    st = uni_spoof_label(ck->ctx, ck->tmp2.data, ck->tmp2.len, &flags);
    if (st != XIRI_OK) {
        check_fail(ck, st);
        return;
    }
    /* one finding for the label, with every reason UTS #39 gives */
    if (flags & UNI_SPOOF_MIXED_SCRIPT) {
        why = "mixes scripts that are not used together (UTS #39 \"highly "
              "restrictive\" fails), so it can imitate another name";
        section = "UTS #39 5.2";
    } else if (flags & UNI_SPOOF_WHOLE_SCRIPT) {
        why = "is made of look-alikes of ASCII letters (its UTS #39 "
              "skeleton is ASCII), so it can pass for an ASCII name";
        section = "UTS #39 4";
    }
    if ((flags & UNI_SPOOF_INVISIBLE) && !why) {
        why = "has invisible or stacked combining marks";
        section = "UTS #39 5.4";
    } else if (flags & UNI_SPOOF_INVISIBLE) {
        marks = ", and it has invisible or stacked combining marks";
    }
    if (why)
        check_report(ck, CODE_CONFUSABLE_HOST, XIRI_SEV_WARNING, section,
                     XIRI_PART_HOST, a, e - a, 0,
                     "the host label at byte %zu %s%s; check it is the name "
                     "intended",
                     a, why, marks);
}

/* HTML: WHATWG URL 4.4, file host state: a file URL has no userinfo;
 * its host runs up to '/', '@' and all, a forbidden host code point. */
static void check_html_file_userinfo(struct check *ck)
{
    const struct span *u = &ck->r.part[XIRI_PART_USERINFO];

    if (ck->profile == XIRI_PROFILE_HTML && u->set &&
        check_scheme_is(ck, "file"))
        check_report(ck, CODE_INVALID_CHAR, XIRI_SEV_ERROR, NULL,
                     XIRI_PART_HOST, u->off + u->len, 1, '@',
                     "'@' (U+0040) at byte %zu: a file URL has no userinfo, "
                     "and browsers reject its host with the '@' (WHATWG URL "
                     "file host state); remove the userinfo",
                     (size_t)(u->off + u->len));
}

/* HTML: the host of a special URL (http, https, ftp, ws, wss, file) is
 * percent-decoded before it is checked (WHATWG URL 3.5, host parsing):
 * an escape of a forbidden domain code point (a C0 control, space, # % /
 * : < > ? @ [ \ ] ^ | or DEL) makes the URL fail, which no spelling of
 * it helps. */
static void check_html_host(struct check *ck)
{
    const struct span *h = &ck->r.part[XIRI_PART_HOST];
    size_t i;

    if (ck->profile != XIRI_PROFILE_HTML || !h->set || !check_special(ck))
        return;
    for (i = h->off; i + 2 < h->off + h->len && !check_done(ck); i++) {
        unsigned char b;

        if (!ch_is_pct(ck->s, h->off + h->len, i))
            continue;
        b = check_pct_octet(ck->s, i);
        if (ch_is_forbidden_domain(b))
            check_report(ck, CODE_INVALID_CHAR, XIRI_SEV_ERROR, NULL,
                         XIRI_PART_HOST, i, 3, b,
                         "%%%02X at byte %zu in the host stands for a "
                         "character no host may hold: browsers reject the URL "
                         "(WHATWG URL host parser); correct the host name",
                         (unsigned)b, i);
        i += 2;
    }
    /* the decoded octets are read as UTF-8, a bad sequence as U+FFFD,
     * which IDNA disallows ("%80"); raw bytes that are not UTF-8 are
     * invalid-utf8 already */
    if (!check_done(ck) && check_has_nonascii(ck, h->off, h->off + h->len) &&
        check_utf8_raw(ck, h->off, h->off + h->len) &&
        !check_decode(ck, h->off, h->off + h->len, &ck->tmp) && !check_done(ck))
        check_report(ck, CODE_INVALID_CHAR, XIRI_SEV_ERROR, NULL,
                     XIRI_PART_HOST, h->off, h->len, 0,
                     "the escapes in the host at byte %zu are not UTF-8: "
                     "browsers read U+FFFD, which no host may hold, and "
                     "reject the URL (WHATWG URL host parser); correct the "
                     "host name",
                     (size_t)h->off);
}

/* WHATWG URL 3.5, "IPv4 number parser": the value of one label of d[a..e)
 * (0x or 0X: hexadecimal; a leading 0: octal; else decimal; empty after
 * "0x": 0), capped at 2^32 (every larger value fails alike).  False when
 * the label is empty or holds a digit outside its radix. */
static bool check_ipv4_number(const char *d, size_t a, size_t e, uint64_t *out)
{
    unsigned radix = 10;
    uint64_t v = 0;
    size_t i;

    if (a == e)
        return false;
    if (e - a >= 2 && d[a] == '0' && (d[a + 1] == 'x' || d[a + 1] == 'X')) {
        radix = 16;
        a += 2;
    } else if (e - a >= 2 && d[a] == '0') {
        radix = 8;
        a += 1;
    }
    for (i = a; i < e; i++) {
        unsigned char c = (unsigned char)d[i];
        unsigned k;

        if (c >= '0' && c <= '9')
            k = c - '0';
        else if (radix == 16 && ch_is(c, CH_HEX))
            k = (unsigned)ch_hexval(c);
        else
            return false;
        if (k >= radix)
            return false;
        v = v * radix + k;
        if (v > UINT64_C(0xFFFFFFFF))
            v = UINT64_C(0x100000000);
    }
    *out = v;
    return true;
}

/* HTML: the host of a special URL, as the host parser has it after
 * percent-decoding and domain to ASCII (WHATWG URL 3.5), in d[0..n).
 * "Ends in a number checker": the last label (a last empty one dropped,
 * unless it is the only one) is all ASCII digits or parses as an IPv4
 * number; then "IPv4 parser": at most four labels, each a number, each
 * but the last at most 255, the last below 256^(5 - labels).  Findings
 * are placed at the label when direct (d is the host as written), else
 * at the host. */
static void check_ipv4_labels(struct check *ck, const char *d, size_t n,
                              bool direct)
{
    const struct span *h = &ck->r.part[XIRI_PART_HOST];
    size_t starts[5], ends[5], count = 0, a, e, i, last_a, k;
    uint64_t v = 0;
    int why;
    char text[160], label[CHECK_QUOTE_MAX + 4];

    /* the last label, without one trailing empty label (n > 0, so a
     * trailing '.' always leaves one label before it) */
    e = n;
    if (e > 0 && d[e - 1] == '.')
        e--;
    for (last_a = e; last_a > 0 && d[last_a - 1] != '.'; last_a--)
        ;
    for (i = last_a; i < e && d[i] >= '0' && d[i] <= '9'; i++)
        ;
    if (last_a == e || (i < e && !check_ipv4_number(d, last_a, e, &v)))
        return; /* not a number: a domain */
    /* the labels, up to five (five is one too many) */
    for (a = 0; a <= e && count < 5; a = i + 1) {
        for (i = a; i < e && d[i] != '.'; i++)
            ;
        starts[count] = a;
        ends[count++] = i;
    }
    /* the first label at fault, and why: 1 a fifth label, 2 empty, 3 not
     * a number, 4 over 255 before the last, 5 the last too large */
    for (i = 0, why = 0; i < count && !why; i++) {
        if (i == 4)
            why = 1;
        else if (starts[i] == ends[i])
            why = 2;
        else if (!check_ipv4_number(d, starts[i], ends[i], &v))
            why = 3;
        else if (i + 1 < count && v > 255)
            why = 4;
        else if (i + 1 == count && (v >> (8 * (4 - i))) != 0)
            why = 5; /* the last number fills the 4 - i bytes left */
    }
    if (!why)
        return;
    i--;
    k = ends[i] - starts[i];
    a = direct ? h->off + starts[i] : h->off;
    snprintf(label, sizeof(label), "\"%.*s%s\"",
             (int)(k > CHECK_QUOTE_MAX ? CHECK_QUOTE_MAX : k), d + starts[i],
             k > CHECK_QUOTE_MAX ? "..." : "");
    if (why == 1)
        snprintf(text, sizeof(text),
                 "its fifth label %s at byte %zu is one too many", label, a);
    else if (why == 2)
        snprintf(text, sizeof(text), "it has an empty label at byte %zu", a);
    else if (why == 3)
        snprintf(text, sizeof(text),
                 "its label %s at byte %zu is not a number (decimal, octal "
                 "after a 0, hexadecimal after 0x)",
                 label, a);
    else if (why == 4)
        snprintf(text, sizeof(text), "its label %s at byte %zu is over 255",
                 label, a);
    else
        snprintf(text, sizeof(text),
                 "its last label %s at byte %zu is over %llu", label, a,
                 (unsigned long long)((UINT64_C(1) << (8 * (4 - i))) - 1));
    check_report(ck, CODE_INVALID_IPV4, XIRI_SEV_ERROR, NULL, XIRI_PART_HOST, a,
                 direct ? k : h->len, 0,
                 "the host ends in a number, so browsers read it as an IPv4 "
                 "address (WHATWG URL IPv4 parser), and %s: they reject the "
                 "URL; correct the address",
                 text);
}

static bool check_may_end_in_number(const char *s, size_t n)
{
    size_t e = n;

    if (e > 0 && s[e - 1] == '.')
        e--;
    for (; e > 0 && ch_is((unsigned char)s[e - 1], CH_ALPHA | CH_DIGIT); e--) {
        char c = (char)(s[e - 1] | 0x20);

        if (c > '9' && !(c >= 'a' && c <= 'f') && c != 'x')
            return false;
    }
    return true;
}

static void check_html_ipv4(struct check *ck)
{
    const struct span *h = &ck->r.part[XIRI_PART_HOST];
    const char *d = ck->s + h->off;
    size_t n = h->len, i;
    bool direct = true;

    if (ck->profile != XIRI_PROFILE_HTML || !h->set || h->len == 0 ||
        ck->s[h->off] == '[' || !check_special(ck) ||
        !check_may_end_in_number(d, n))
        return;
    /* WHATWG URL 3.5, host parser steps 4-7: percent-decode, UTF-8
     * decode, domain to ASCII (UTS #46: full-width digits and dots map
     * to ASCII) */
    if (memchr(d, '%', n) || check_has_nonascii(ck, h->off, h->off + n)) {
        direct = false;
        if (!check_decode(ck, h->off, h->off + n, &ck->tmp))
            return; /* not UTF-8: invalid-utf8 or pct-not-utf8 */
        d = ck->tmp.data ? ck->tmp.data : "";
        n = ck->tmp.len;
        for (i = 0; i < n && (unsigned char)d[i] < 0x80; i++)
            ;
        if (i < n) {
            struct idn *idn;
            uint32_t errors = 0;
            enum xiri_status st = idn_for_ctx(ck->ctx, &idn);

            ck->tmp2.len = 0;
            if (st == XIRI_OK)
                st = idn_to_ascii(idn, d, n, &ck->tmp2, &errors);
            if (st == XIRI_OK)
                st = ck->tmp2.status;
            if (st != XIRI_OK) {
                check_fail(ck, st);
                return;
            }
            if (errors) {
                /* the checks browsers leave out (an empty label, a
                 * hyphen) are idna-error warnings: the domain they get
                 * may still end in a number ("\xC3\xA9..1" is
                 * "xn--9ca..1", "\xEF\xBC\x8E" + "2" is ".2") */
                bool reject;

                ck->tmp2.len = 0;
                st = idn_browsers_ascii(ck->ctx, d, n, &ck->tmp2, &reject);
                if (st != XIRI_OK) {
                    check_fail(ck, st);
                    return;
                }
                if (reject)
                    return; /* idna-error says it, an error */
            }
            d = ck->tmp2.data ? ck->tmp2.data : "";
            n = ck->tmp2.len;
        }
    }
    check_ipv4_labels(ck, d, n, direct);
}

static void check_host(struct check *ck)
{
    const struct span *h = &ck->r.part[XIRI_PART_HOST];
    size_t scheme_len;
    const char *scheme = check_scheme_of(ck, &scheme_len);
    struct idn *idn;
    enum xiri_status st;
    size_t i, end;
    bool ascii;

    if (!h->set || h->len == 0)
        return;
    check_host_case(ck);
    /* An IP literal or an ASCII reg-name is not an IDN, but for an ASCII
     * reg-name's ACE labels (check_ace_labels) */
    if (ck->s[h->off] == '[')
        return;
    ascii = !check_has_nonascii(ck, h->off, h->off + h->len);
    if (ascii && !check_has_ace(ck, h->off, h->off + h->len))
        return;
    if (!check_utf8_raw(ck, h->off, h->off + h->len))
        return; /* not UTF-8: invalid-utf8 says so */
    st = idn_for_ctx(ck->ctx, &idn);
    if (st != XIRI_OK) {
        check_fail(ck, st);
        return;
    }
    /* RFC 3987 3.1 and 5.3.3: a non-ASCII reg-name goes through IDNA for
     * DNS-based schemes; for others it may be any registered name.
     * Browsers map the host of every special URL, file too, so (WHATWG
     * URL 3.5, domain to ASCII). */
    if (ascii)
        check_ace_labels(ck, idn);
    else
        check_idna(ck, idn,
                   (scheme && scheme_is_dns(scheme, scheme_len)) ||
                       (ck->profile == XIRI_PROFILE_HTML && check_special(ck)));
    end = h->off + h->len;
    for (i = h->off; i <= end && !check_done(ck);) {
        size_t sep, j = check_label_end(ck, i, end, &sep);
        /* an A-label is checked as the Unicode it stands for */
        if (j > i &&
            (check_has_nonascii(ck, i, j) || check_ace_at(ck, i, j)))
            check_confusable_label(ck, idn, i, j);
        i = j + sep;
    }
}

/* ------------------------------------------------------------------ */

/* The one pass over the value's bytes that the later checks rely on:
 * '%', non-ASCII characters, whether they are all UTF-8, all starters
 * that NFC and NFKC keep (the Latin letters U+00C0-U+0131, C3 80-BF and
 * C4 80-B1, as uni_is_normalized's fast path, and linkcheck_nfkc_starter's
 * characters), any that may be right-to-left (the byte filter of
 * utf8_may_be_rtl: every byte from 0xD6 up is the first byte of a
 * character here), and any that check_chars looks at (a bidi formatting
 * character, RFC 3987 4.1; an unassigned one, 6.1; a punctuation mark or
 * symbol, which may look like a delimiter, 7.5). */
static void check_scan_bytes(struct check *ck)
{
    const unsigned char *s = (const unsigned char *)ck->s;
    size_t i = 0, n = ck->len;

    ck->pct = memchr(s, '%', n) != NULL;
    ck->starters = true;
    while (i < n) {
        unsigned char c;
        uint32_t cp;
        size_t k;

        /* ASCII, eight bytes at a time */
        i = ascii_blocks((const char *)s, i, n);
        if (i >= n)
            break;
        c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        ck->nonascii = true;
        /* U+00C0-U+00FF and U+0100-U+0131: assigned (letters, and the
         * signs U+00D7 and U+00F7), neither right-to-left nor bidi
         * controls, NFC and NFKC starters with quick-check Yes (as
         * uni_is_normalized's fast path) */
        if (i + 1 < n && (c == 0xC3 || c == 0xC4) && s[i + 1] >= 0x80 &&
            s[i + 1] <= (c == 0xC3 ? 0xBF : 0xB1)) {
            i += 2;
            continue;
        }
        if (c >= 0xD6 &&
            (c <= 0xE0 || c == 0xEF || c == 0xF0 ||
             (c == 0xE2 && i + 2 < n && s[i + 1] == 0x80 && s[i + 2] == 0x8F)))
            ck->may_rtl = true;
        k = utf8_decode(s + i, n - i, &cp);
        if (k == 0) {
            ck->bad_utf8 = true;
            ck->starters = false;
            i++;
            continue;
        }
        if (check_is_bidi_control(cp) ||
            (!uni_is_assigned(cp) && !uni_is_noncharacter(cp)))
            ck->odd_chars = true;
        /* (the starters' punctuation, U+3001-3011, belongs to the CJK
         * scripts: never a delimiter-lookalike, so ICU is not asked) */
        if (!linkcheck_nfkc_starter(cp)) {
            ck->starters = false;
            if (uni_is_punct_or_symbol(cp))
                ck->odd_chars = true;
        }
        i += k;
    }
}

enum xiri_status check_run(struct xiri_ctx *ctx, const char *s, size_t len,
                           enum xiri_profile profile, const char *base,
                           xiri_diag_fn *fn, void *user, int *worst,
                           struct ref *split)
{
    struct check ck;
    struct scan_sink sink;

    if (worst)
        *worst = -1;
    if (!ctx || (!s && len) || (unsigned)profile >= XIRI_PROFILE_COUNT)
        return XIRI_EINVAL;
    if (len > XIRI_MAX_LEN)
        return XIRI_ELIMIT;
    if (!s)
        s = "";
    memset(&ck, 0, sizeof(ck));
    ck.ctx = ctx;
    ck.s = s;
    ck.len = len;
    ck.profile = profile;
    ck.base = base;
    ck.fn = fn;
    ck.user = user;
    ck.worst = -1;
    if (!ctx->check_busy) {
        /* the context's scratch, with what it allocated before */
        ctx->check_busy = true;
        ck.own_tmp = true;
        ck.tmp = ctx->check_tmp;
        ck.tmp2 = ctx->check_tmp2;
        ck.tmp.len = ck.tmp2.len = 0;
        ck.tmp.status = ck.tmp2.status = XIRI_OK;
    } else {
        buf_init(&ck.tmp, XIRI_MAX_LEN);
        buf_init(&ck.tmp2, XIRI_MAX_LEN);
    }
    sink.fn = check_scan;
    sink.user = &ck;

    /* Grammar first: it also splits the components for the rest.  A
     * pure-ASCII reference whose escapes are ASCII too neither allocates
     * nor calls ICU (the document pass checks every link). */
    (void)ref_parse(s, len, profile, &ck.r, &sink, NULL);
    check_scan_bytes(&ck);
    if (!check_done(&ck))
        check_scheme(&ck);
    if (!check_done(&ck))
        check_host(&ck);
    if (!check_done(&ck))
        check_html_file_userinfo(&ck);
    if (ck.pct && !check_done(&ck))
        check_html_host(&ck);
    if (!check_done(&ck))
        check_html_ipv4(&ck);
    if (!check_done(&ck))
        check_port(&ck);
    if (ck.pct && !check_done(&ck))
        check_escapes(&ck);
    /* check_chars reports only odd characters, check_norm nothing in a
     * string of starters that every form keeps */
    if (ck.odd_chars && !check_done(&ck))
        check_chars(&ck);
    if (ck.nonascii && !ck.starters && !check_done(&ck))
        check_norm(&ck);
    if (ck.nonascii && !check_done(&ck))
        check_bidi(&ck);
    if (!check_done(&ck))
        check_dots(&ck);

    if (ck.own_tmp) {
        /* kept for the next check, unless a long value made it large */
        if (ck.tmp.cap > CHECK_SCRATCH_KEEP)
            buf_free(&ck.tmp);
        if (ck.tmp2.cap > CHECK_SCRATCH_KEEP)
            buf_free(&ck.tmp2);
        ctx->check_tmp = ck.tmp;
        ctx->check_tmp2 = ck.tmp2;
        ctx->check_busy = false;
    } else {
        buf_free(&ck.tmp);
        buf_free(&ck.tmp2);
    }
    if (worst)
        *worst = ck.worst;
    if (split)
        *split = ck.r;
    return ck.st;
}

enum xiri_status xiri_check(struct xiri_ctx *ctx, const char *s, size_t len,
                            enum xiri_profile profile, xiri_diag_fn *fn,
                            void *user, int *worst)
{
    /* html: the C0 controls and spaces browsers remove around a URL
     * taken off, and the host they connect to is the one judged */
    if (profile == XIRI_PROFILE_HTML)
        return html_trim_check(ctx, s, len, fn, user, worst);
    return check_run(ctx, s, len, profile, NULL, fn, user, worst, NULL);
}

/* zld.c - HISTORICAL: the "zero-level domain" host encoding of Duerst's
 * 1997/98 draft "Internationalization of Domain Names" (seed 004), kept as
 * a codec for the record.  Never used by default: IDNA (RFC 5890, UTS #46
 * in idn.c) replaced it, and nothing in DNS serves ".i" names. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "pct.h"

/* Seed 004 section 3.2: each code point is written as its 4-bit groups,
 * leading 0000 groups dropped except the last two (so ASCII and Latin-1
 * take two letters); the first group uses the "initial" letters G-V, the
 * others the "subsequent" ones 0-9 A-F, so that the character boundaries
 * show and the result is a valid DNS label (no leading digit, no '-'). */
#define ZLD_MIN_GROUPS 2
#define ZLD_MAX_GROUPS 8 /* UCS-4, 31 bits */
#define ZLD_SUFFIX ".i"  /* section 2: "we are using 'i' for shortness" */
/* Section 3.4: "DNS allows for a maximum of 63 positions in each part,
 * and for 255 positions for the overall domain name including dots". */
#define ZLD_MAX_LABEL 63
#define ZLD_MAX_NAME 255

static const char zld_hex[] = "0123456789ABCDEF";

/* The characters a label may hold: those of an RFC 3987 2.2 ireg-name
 * (iunreserved / sub-delims) except '.', which separates labels, and the
 * bidi formatting characters RFC 3987 4.1 forbids.  Section 4.2 of the
 * draft leaves the repertoire open but says controls "should clearly be
 * excluded"; the IRI grammar is the precise form of that. */
static bool zld_allowed(uint32_t cp)
{
    if (cp < 0x80)
        return cp != '.' &&
               ch_is((unsigned char)cp, CH_UNRESERVED | CH_SUBDELIM);
    return cp_is_ucschar(cp) && !cp_is_bidi_format(cp);
}

/* Append the letters for one code point (section 3.2). */
static void zld_put_cp(struct buf *o, uint32_t cp)
{
    int groups = ZLD_MIN_GROUPS, g;

    while (groups < ZLD_MAX_GROUPS && (cp >> (4 * groups)) != 0)
        groups++;
    for (g = groups - 1; g >= 0; g--) {
        unsigned nib = (cp >> (4 * g)) & 0xF;
        buf_putc(o, g == groups - 1 ? (char)('G' + nib) : zld_hex[nib]);
    }
}

/* Read one character of the host at s[i]: raw UTF-8, or UTF-8 written as
 * %HH escapes (seed 004 section 4.4: URLs carry the host that way, and
 * "the software part dealing with domain names will carry out the
 * conversion to the .i form").  Returns the bytes used, 0 on error. */
static size_t zld_read_cp(const char *s, size_t len, size_t i, uint32_t *cp)
{
    unsigned char oct[4];
    size_t n, k;

    if (s[i] != '%')
        return utf8_decode((const unsigned char *)s + i, len - i, cp);
    if (!ch_is_pct(s, len, i))
        return 0;
    oct[0] = pct_octet(s, i);
    n = oct[0] < 0x80 ? 1 : oct[0] >= 0xF0 ? 4 : oct[0] >= 0xE0 ? 3 : 2;
    for (k = 1; k < n; k++) {
        if (!ch_is_pct(s, len, i + 3 * k))
            return 0;
        oct[k] = pct_octet(s, i + 3 * k);
    }
    return utf8_decode(oct, n, cp) == n ? 3 * n : 0;
}

enum xiri_status xiri_zld_encode(const char *s, size_t len, char **out,
                                 size_t *out_len, struct xiri_error *err)
{
    struct buf o;
    size_t i = 0, label_in = 0, label_out = 0;
    enum xiri_status st = XIRI_OK;

    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if (!s && len)
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (len == 0)
        return error_set(err, XIRI_ESYNTAX, 0, "the host name is empty");
    if (len > XIRI_MAX_LEN)
        return error_set(err, XIRI_ELIMIT, 0, "the input is too long");
    buf_init(&o, XIRI_MAX_LEN);
    buf_reserve(&o, 4 * len + sizeof(ZLD_SUFFIX));
    while (st == XIRI_OK) {
        uint32_t cp = '.';
        size_t n = 0;

        if (i < len) {
            n = zld_read_cp(s, len, i, &cp);
            if (n == 0) {
                st = error_set(err, XIRI_ESYNTAX, i,
                               "the bytes at %zu are neither UTF-8 nor "
                               "escaped UTF-8",
                               i);
                break;
            }
        }
        if (cp != '.') {
            if (!zld_allowed(cp)) {
                st = error_set(err, XIRI_ESYNTAX, i,
                               "U+%04X at byte %zu cannot be part of a host "
                               "name (RFC 3987 2.2 ireg-name)",
                               (unsigned)cp, i);
                break;
            }
            zld_put_cp(&o, cp);
            i += n;
            continue;
        }
        /* Section 3.1: "the structure of domain names, and therefore the
         * 'dot', have to be conserved.  Encoding is done for individual
         * labels." */
        if (i == label_in) {
            st = error_set(err, XIRI_ESYNTAX, i,
                           "empty label at byte %zu; every label needs at "
                           "least one character",
                           i);
        } else if (o.len - label_out > ZLD_MAX_LABEL) {
            st = error_set(err, XIRI_ELIMIT, label_in,
                           "the label at byte %zu encodes to %zu letters, "
                           "over the %d that DNS allows (seed 004 3.4)",
                           label_in, o.len - label_out, ZLD_MAX_LABEL);
        } else if (i == len) {
            break;
        } else {
            buf_putc(&o, '.');
            i += n;
            label_in = i;
            label_out = o.len;
        }
    }
    if (st == XIRI_OK) {
        buf_puts(&o, ZLD_SUFFIX);
        if (o.status == XIRI_OK && o.len > ZLD_MAX_NAME)
            st = error_set(err, XIRI_ELIMIT, 0,
                           "the encoded name has %zu characters, over the "
                           "%d that DNS allows (seed 004 3.4)",
                           o.len, ZLD_MAX_NAME);
    }
    if (st == XIRI_OK && o.status != XIRI_OK)
        st = error_set(err, o.status, 0, "%s", xiri_strerror(o.status));
    if (st != XIRI_OK) {
        buf_free(&o);
        return st;
    }
    return buf_take(&o, out, out_len);
}

/* The value of an initial letter (G-V, either case: DNS names are
 * case-insensitive, RFC 4343), or -1. */
static int zld_initial(char c)
{
    if (c >= 'G' && c <= 'V')
        return c - 'G';
    if (c >= 'g' && c <= 'v')
        return c - 'g';
    return -1;
}

/* Decode one label s[from..to) into o; XIRI_OK or XIRI_ESYNTAX. */
static enum xiri_status zld_decode_label(struct buf *o, const char *s,
                                         size_t from, size_t to,
                                         struct xiri_error *err)
{
    size_t i = from;

    if (to - from > ZLD_MAX_LABEL)
        return error_set(err, XIRI_ESYNTAX, from,
                         "the label at byte %zu is longer than %d letters "
                         "(RFC 1035 2.3.4)",
                         from, ZLD_MAX_LABEL);
    while (i < to) {
        size_t start = i;
        int first = zld_initial(s[i]), groups = 1, v;
        uint32_t cp;
        char enc[4];

        if (first < 0)
            return error_set(err, XIRI_ESYNTAX, i,
                             "the character at byte %zu is not an initial "
                             "letter (G-V) where a character starts (seed "
                             "004 3.2)",
                             i);
        cp = (uint32_t)first;
        for (i++; i < to && (v = ch_hexval((unsigned char)s[i])) >= 0; i++) {
            if (++groups > ZLD_MAX_GROUPS)
                return error_set(err, XIRI_ESYNTAX, start,
                                 "the character at byte %zu has more than "
                                 "%d groups",
                                 start, ZLD_MAX_GROUPS);
            cp = cp << 4 | (uint32_t)v;
        }
        if (groups < ZLD_MIN_GROUPS)
            return error_set(err, XIRI_ESYNTAX, start,
                             "the character at byte %zu has one group; "
                             "every character has at least two (seed 004 "
                             "3.2)",
                             start);
        if (groups > ZLD_MIN_GROUPS && first == 0)
            return error_set(err, XIRI_ESYNTAX, start,
                             "the character at byte %zu starts with a 0000 "
                             "group the encoding drops (seed 004 3.2)",
                             start);
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || !zld_allowed(cp))
            return error_set(err, XIRI_ESYNTAX, start,
                             "the character at byte %zu decodes to U+%04lX, "
                             "which cannot be part of a host name (RFC 3987 "
                             "2.2 ireg-name)",
                             start, (unsigned long)cp);
        buf_append(o, enc, utf8_encode(cp, enc));
    }
    return XIRI_OK;
}

enum xiri_status xiri_zld_decode(const char *s, size_t len, char **out,
                                 size_t *out_len, struct xiri_error *err)
{
    struct buf o;
    size_t body, i, label;
    enum xiri_status st = XIRI_OK;

    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if (!s && len)
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (len > ZLD_MAX_NAME)
        return error_set(err, XIRI_ESYNTAX, ZLD_MAX_NAME,
                         "the name is longer than %d characters "
                         "(seed 004 3.4)",
                         ZLD_MAX_NAME);
    /* Section 2: the encoded names live under the ".i" zero-level
     * domain; at least one label comes before it. */
    if (len < 3 || s[len - 2] != '.' ||
        (s[len - 1] != 'i' && s[len - 1] != 'I'))
        return error_set(err, XIRI_ESYNTAX, len < 2 ? 0 : len - 2,
                         "the name does not end in a label followed by "
                         "\".i\", the zero-level domain of seed 004");
    body = len - 2;
    buf_init(&o, XIRI_MAX_LEN);
    buf_reserve(&o, len);
    for (i = label = 0; i <= body && st == XIRI_OK; i++) {
        if (i < body && s[i] != '.')
            continue;
        if (i == label) {
            st = error_set(err, XIRI_ESYNTAX, i, "empty label at byte %zu", i);
            break;
        }
        if (label > 0)
            buf_putc(&o, '.');
        st = zld_decode_label(&o, s, label, i, err);
        label = i + 1;
    }
    if (st == XIRI_OK && o.status != XIRI_OK)
        st = error_set(err, o.status, 0, "%s", xiri_strerror(o.status));
    if (st != XIRI_OK) {
        buf_free(&o);
        return st;
    }
    return buf_take(&o, out, out_len);
}

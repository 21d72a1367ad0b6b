/* chars.h - character classes of RFC 3986 section 2 and RFC 3987 section
 * 2.2, and strict UTF-8 decoding (RFC 3629). */
#ifndef XIRI_CHARS_H
#define XIRI_CHARS_H

#include "common.h"

/* Classes of US-ASCII bytes, as bits in chars_ascii[]. */
enum {
    CH_ALPHA = 1 << 0,
    CH_DIGIT = 1 << 1,
    CH_HEX = 1 << 2,
    CH_UNRESERVED = 1 << 3, /* ALPHA DIGIT - . _ ~ (RFC 3986 2.3) */
    CH_SUBDELIM = 1 << 4,   /* ! $ & ' ( ) * + , ; = (RFC 3986 2.2) */
    CH_GENDELIM = 1 << 5,   /* : / ? # [ ] @ (RFC 3986 2.2) */
    CH_SCHEME = 1 << 6,     /* ALPHA DIGIT + - . (RFC 3986 3.1) */
    CH_LEIRI = 1 << 7,      /* not allowed in URIs, allowed in LEIRIs:
                               controls, space, < > " { } | \ ^ ` DEL */
    CH_PCHAR = 1 << 8,      /* unreserved sub-delims : @ (RFC 3986 3.3),
                               '%' excluded */
    CH_COLON = 1 << 9,      /* ':' */
    CH_SLASH = 1 << 10,     /* '/' */
    CH_QMARK = 1 << 11      /* '?' */
};

extern const uint16_t chars_ascii[128];

static inline bool ch_is(unsigned char c, unsigned cls)
{
    return c < 128 && (chars_ascii[c] & cls) != 0;
}

static inline int ch_hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* True when s[i..] starts with '%' HEXDIG HEXDIG. */
static inline bool ch_is_pct(const char *s, size_t len, size_t i)
{
    return i + 2 < len && s[i] == '%' &&
           ch_is((unsigned char)s[i + 1], CH_HEX) &&
           ch_is((unsigned char)s[i + 2], CH_HEX);
}

/* Whether the label s[a..e) is an ACE label: "xn--" in any case before
 * the rest (RFC 5890 2.3.1), an A-label when the rest is valid Punycode
 * of a label IDNA allows. */
static inline bool ch_is_ace_label(const char *s, size_t a, size_t e)
{
    return e - a >= 4 && (s[a] | 0x20) == 'x' && (s[a + 1] | 0x20) == 'n' &&
           s[a + 2] == '-' && s[a + 3] == '-';
}

/* Whether the host s[a..e) has an ACE label (ch_is_ace_label). */
static inline bool ch_has_ace_label(const char *s, size_t a, size_t e)
{
    size_t i;

    for (i = a; i + 4 <= e; i++)
        if ((i == a || s[i - 1] == '.') && ch_is_ace_label(s, i, e))
            return true;
    return false;
}

/* XML 1.0 2.3 NameStartChar (first) or NameChar, exactly for ASCII; any
 * byte of a non-ASCII character is taken (for names that need only end
 * where they end: pseudo-attributes, processing instruction targets). */
static inline bool ch_is_xml_name_ascii(unsigned char c, bool first)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
        c == ':' || c >= 0x80)
        return true;
    return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.');
}

/* Infra "ASCII whitespace" (WHATWG HTML's space characters): tab, LF,
 * FF, CR and space. */
static inline bool ch_is_ascii_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* WHATWG URL 3.5: a forbidden domain code point (ASCII): a C0 control,
 * space, # % / : < > ? @ [ \ ] ^ | or DEL, which no domain may hold. */
static inline bool ch_is_forbidden_domain(unsigned char c)
{
    return c <= 0x20 || c == 0x7F ||
           (c < 0x80 && strchr("#%/:<>?@[\\]^|", c) != NULL);
}

/* Whether s[i..n) starts with "%2E" or "%2e", a '.' percent-encoded. */
static inline bool ch_is_pct_dot(const char *s, size_t n, size_t i)
{
    return n - i >= 3 && s[i] == '%' && s[i + 1] == '2' &&
           (s[i + 2] | 0x20) == 'e';
}

/* Whether the path segment s[a..b) is "." or ".." with at least one of
 * its dots written "%2E" or "%2e": a dot segment to the WHATWG URL parser
 * ("single-dot" and "double-dot URL path segment", path state) and to RFC
 * 3986 normalizers that decode unreserved characters first (6.2.2.2), but
 * a name to RFC 3986 resolution, which removes literal dots only (5.2.4).
 * Returns the number of dots (1 or 2), or 0 when it is no such segment. */
static inline int ch_escaped_dot_segment(const char *s, size_t a, size_t b)
{
    int dots = 0, escaped = 0;

    while (a < b && dots < 3) {
        if (s[a] == '.') {
            a++;
        } else if (ch_is_pct_dot(s, b, a)) {
            a += 3;
            escaped++;
        } else {
            return 0;
        }
        dots++;
    }
    return a == b && dots <= 2 && escaped > 0 ? dots : 0;
}

/* Decode one strictly valid UTF-8 sequence at s[0..len): no overlong
 * forms, no surrogates, nothing above U+10FFFF.  Returns its length (1-4)
 * and the code point in *cp, or 0 when the bytes are not valid UTF-8. */
size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);

/* Encode cp (<= U+10FFFF, not a surrogate) into out; returns 1-4. */
size_t utf8_encode(uint32_t cp, char out[4]);

/* False when the UTF-8 bytes s[0..n) cannot hold a character of bidi class
 * R or AL (a cheap filter before the RFC 3987 4.2 checks; true may still
 * mean there is none). */
bool utf8_may_be_rtl(const unsigned char *s, size_t n);

/* The index after the 8-byte blocks of ASCII in s[i..n) from i: where a
 * byte of 0x80 or more may be (a fast skip; the last bytes, fewer than
 * eight, are not looked at). */
static inline size_t ascii_blocks(const char *s, size_t i, size_t n)
{
    while (n - i >= 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        if (x & UINT64_C(0x8080808080808080))
            break;
        i += 8;
    }
    return i;
}

/* RFC 3987 2.2 ucschar. */
bool cp_is_ucschar(uint32_t cp);
/* RFC 3987 2.2 iprivate. */
bool cp_is_iprivate(uint32_t cp);
/* LEIRI (W3C Note 2008, section 7): the characters it allows on top of
 * RFC 3987: %x0-1F, space, < > " { } | \ ^ `, and %x7F-D7FF / %xE000-FFFD
 * / %x10000-10FFFF outside ucschar. */
bool cp_is_leiri_extra(uint32_t cp);
/* RFC 3987 4.1: LRM, RLM, LRE, RLE, PDF, LRO, RLO must not appear. */
bool cp_is_bidi_format(uint32_t cp);
/* RFC 3987 3.2 step 4 and 6.1 (b): a character that a URI-to-IRI mapping
 * should not decode because it would not be seen: white space (look-alikes
 * of "space", 6.1 b) and the default-ignorable characters (Unicode
 * White_Space, Default_Ignorable_Code_Point). */
bool cp_hides_in_iri(uint32_t cp);

#endif

/* chars.c - character classes (RFC 3986 section 2, RFC 3987 section 2.2,
 * LEIRI) and strict UTF-8 decoding (RFC 3629 section 4). */
#include "common.h"
#include "chars.h"

#define A (CH_ALPHA | CH_UNRESERVED | CH_SCHEME | CH_PCHAR)
#define AH (A | CH_HEX)
#define D (CH_DIGIT | CH_HEX | CH_UNRESERVED | CH_SCHEME | CH_PCHAR)
#define U (CH_UNRESERVED | CH_PCHAR)
#define S (CH_SUBDELIM | CH_PCHAR)
#define G CH_GENDELIM
#define L CH_LEIRI

const uint16_t chars_ascii[128] = {
    /* 0x00-0x1F: controls */
    L, L, L, L, L, L, L, L, L, L, L, L, L, L, L, L,
    L, L, L, L, L, L, L, L, L, L, L, L, L, L, L, L,
    /* space ! " # $ % & ' ( ) * + , - . / */
    L, S, L, G, S, 0, S, S, S, S, S, S | CH_SCHEME, S,
    U | CH_SCHEME, U | CH_SCHEME, G | CH_SLASH,
    /* 0-9 */
    D, D, D, D, D, D, D, D, D, D,
    /* : ; < = > ? @ */
    G | CH_PCHAR | CH_COLON, S, L, S, L, G | CH_QMARK, G | CH_PCHAR,
    /* A-Z */
    AH, AH, AH, AH, AH, AH, A, A, A, A, A, A, A,
    A, A, A, A, A, A, A, A, A, A, A, A, A,
    /* [ \ ] ^ _ ` */
    G, L, G, L, U, L,
    /* a-z */
    AH, AH, AH, AH, AH, AH, A, A, A, A, A, A, A,
    A, A, A, A, A, A, A, A, A, A, A, A, A,
    /* { | } ~ DEL */
    L, L, L, U, L,
};

size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    uint32_t c;
    size_t n, i;

    if (len == 0)
        return 0;
    c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    /* RFC 3629 section 4: the lead byte gives the length and the range of
     * the second byte, which excludes overlong forms, surrogates and
     * values above U+10FFFF. */
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        c &= 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        c &= 0x07;
    } else {
        return 0;
    }
    if (len < n)
        return 0;
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10FFFF ||
        (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

size_t utf8_encode(uint32_t cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* RFC 3987 2.2:
 *   ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
 *           / %x10000-1FFFD / %x20000-2FFFD / ... / %xD0000-DFFFD
 *           / %xE1000-EFFFD */
bool cp_is_ucschar(uint32_t cp)
{
    if (cp < 0xA0)
        return false;
    if (cp <= 0xD7FF)
        return true;
    if (cp < 0xF900)
        return false;
    if (cp <= 0xFDCF)
        return true;
    if (cp < 0xFDF0)
        return false;
    if (cp <= 0xFFEF)
        return true;
    if (cp < 0x10000 || cp > 0xEFFFD)
        return false;
    if ((cp & 0xFFFF) > 0xFFFD) /* the plane's last two code points */
        return false;
    if (cp >= 0xE0000 && cp < 0xE1000)
        return false;
    return true;
}

/* RFC 3987 2.2: iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD */
bool cp_is_iprivate(uint32_t cp)
{
    return (cp >= 0xE000 && cp <= 0xF8FF) ||
           (cp >= 0xF0000 && cp <= 0xFFFFD) ||
           (cp >= 0x100000 && cp <= 0x10FFFD);
}

/* LEIRI: ucschar is extended to %xA0-D7FF / %xE000-FFFD / %x10000-10FFFF,
 * plus %x0-1F, %x7F-9F (via %x7F-D7FF), space and the unwise ASCII. */
bool cp_is_leiri_extra(uint32_t cp)
{
    if (cp < 0x80)
        return ch_is((unsigned char)cp, CH_LEIRI);
    if (cp_is_ucschar(cp))
        return false;
    return cp <= 0xD7FF || (cp >= 0xE000 && cp <= 0xFFFD) ||
           (cp >= 0x10000 && cp <= 0x10FFFF);
}

bool cp_is_bidi_format(uint32_t cp)
{
    return cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E);
}

bool cp_hides_in_iri(uint32_t cp)
{
    /* the White_Space and Default_Ignorable_Code_Point characters past
     * ASCII in Unicode 15.0 (PropList.txt, DerivedCoreProperties.txt;
     * tests/unit/test_chars.c compares them with ICU's) */
    static const uint32_t ranges[][2] = {
        {0x0085, 0x0085},   {0x00A0, 0x00A0},   {0x00AD, 0x00AD},
        {0x034F, 0x034F},   {0x061C, 0x061C},   {0x115F, 0x1160},
        {0x1680, 0x1680},   {0x17B4, 0x17B5},   {0x180B, 0x180F},
        {0x2000, 0x200F},   {0x2028, 0x202F},   {0x205F, 0x206F},
        {0x3000, 0x3000},   {0x3164, 0x3164},   {0xFE00, 0xFE0F},
        {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},   {0xFFF0, 0xFFF8},
        {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF}};
    size_t k;

    if (cp < 0x85)
        return false; /* ASCII is never decoded so */
    for (k = 0; k < ARRAY_LEN(ranges) && cp >= ranges[k][0]; k++)
        if (cp <= ranges[k][1])
            return true;
    return false;
}

/* Characters of bidi class R or AL (UCD DerivedBidiClass.txt, including
 * the unassigned code points that default to R or AL) all lie in
 * U+0590-U+08FF (UTF-8 lead bytes D6-DF and E0), U+200F (E2 80 8F),
 * U+FB1D-U+FEFC (lead EF) and U+10800-U+1EFFF (lead F0).  The filter looks
 * only at those bytes: a wider net than needed, never a narrower one
 * (tests/unit/test_chars.c checks every code point against ICU). */
bool utf8_may_be_rtl(const unsigned char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (s[i] < 0xD6)
            continue; /* ASCII, and lead bytes up to U+057F */
        if (s[i] <= 0xE0 || s[i] == 0xEF || s[i] == 0xF0 ||
            (s[i] == 0xE2 && i + 2 < n && s[i + 1] == 0x80 && s[i + 2] == 0x8F))
            return true;
    }
    return false;
}

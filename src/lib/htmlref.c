/* htmlref.c - character references in HTML as browsers read them (see
 * htmlref.h): named references from the WHATWG list (htmlref_names.inc,
 * longest match first), numeric ones with the tokenizer's replacements. */
#include "common.h"
#include "chars.h"
#include "htmlref.h"

static const struct {
    const char *name;  /* with its ';' where it has one */
    const char *value; /* UTF-8 */
} htmlref_names[] = {
#include "htmlref_names.inc"
};

/* The longest name in the list that s[0..n) starts with (names are ASCII
 * alphanumerics, and a ';' at the end), or -1: each length from the
 * longest down, by binary search (the list is sorted bytewise). */
static long htmlref_longest(const char *s, size_t n)
{
    size_t len;

    for (len = n; len > 0; len--) {
        size_t lo = 0, hi = ARRAY_LEN(htmlref_names);

        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            const char *nm = htmlref_names[mid].name;
            /* nm against the string s[0..len): a longer nm sorts after */
            int c = strncmp(nm, s, len);

            if (c == 0 && nm[len] != '\0')
                c = 1;
            if (c == 0)
                return (long)mid;
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    return -1;
}

static bool is_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

/* WHATWG HTML 13.2.5.80, numeric character reference end state: what
 * 0x80-0x9F stand for (windows-1252), 0 where the code point stays. */
static const uint16_t c1_table[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
    0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

static size_t htmlref_numeric(const char *s, size_t n, char out[8],
                              size_t *out_len)
{
    size_t i = 2, start;
    bool hex = false;
    uint32_t cp = 0;

    if (i < n && (s[i] == 'x' || s[i] == 'X')) {
        hex = true;
        i++;
    }
    start = i;
    for (; i < n; i++) {
        int d;

        if (s[i] >= '0' && s[i] <= '9')
            d = s[i] - '0';
        else if (hex && s[i] >= 'a' && s[i] <= 'f')
            d = s[i] - 'a' + 10;
        else if (hex && s[i] >= 'A' && s[i] <= 'F')
            d = s[i] - 'A' + 10;
        else
            break;
        /* past U+10FFFF it only matters that it is (13.2.5.80) */
        cp = cp > 0x10FFFF ? cp : cp * (hex ? 16 : 10) + (uint32_t)d;
    }
    if (i == start)
        return 0; /* "&#" or "&#x" without digits: as written */
    if (i < n && s[i] == ';')
        i++; /* a missing ';' is a parse error only */
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        cp = 0xFFFD;
    else if (cp >= 0x80 && cp <= 0x9F && c1_table[cp - 0x80])
        cp = c1_table[cp - 0x80];
    *out_len = utf8_encode(cp, out);
    return i;
}

size_t htmlref_decode(const char *s, size_t n, bool attribute, char out[8],
                      size_t *out_len)
{
    size_t k;
    long at;

    *out_len = 0;
    if (n < 2 || s[0] != '&')
        return 0;
    if (s[1] == '#')
        return htmlref_numeric(s, n, out, out_len);
    if (n >= 5 && memcmp(s, "&amp;", 5) == 0) {
        /* by far the most common in links: without the search */
        out[0] = '&';
        *out_len = 1;
        return 5;
    }
    /* 13.2.5.73: the longest name matching the text (names are at most
     * 32 bytes with their ';') */
    for (k = 1; k < n && k <= 32 && is_alnum(s[k]); k++)
        ;
    if (k < n && k <= 32 && s[k] == ';')
        k++;
    at = htmlref_longest(s + 1, k - 1);
    if (at < 0)
        return 0;
    k = strlen(htmlref_names[at].name);
    if (attribute && htmlref_names[at].name[k - 1] != ';' && k + 1 < n &&
        (s[k + 1] == '=' || is_alnum(s[k + 1])))
        return 0; /* "for historical reasons": as written */
    *out_len = strlen(htmlref_names[at].value);
    memcpy(out, htmlref_names[at].value, *out_len);
    return k + 1;
}

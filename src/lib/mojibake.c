/* mojibake.c - finding and undoing UTF-8 read as windows-1252 (as text and
 * percent-encoded) and double percent-encoding in link values; see
 * mojibake.h.  The tests build their inputs by encoding known strings as
 * UTF-8 and decoding them as windows-1252 with python3
 * (tests/unit/test_mojibake.c).
 *
 * Precision comes from UTF-8's structure (RFC 3629 3): a run of non-ASCII
 * characters is taken for mojibake only when every one of them is a
 * windows-1252 character and their bytes, put back together, form valid
 * UTF-8 (lead bytes each followed by the right number of continuation
 * bytes, no overlong form, no surrogate).  Real Latin-1 text almost never
 * does: "é" (E9) would need two continuation bytes after it. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "linkcheck.h"
#include "mojibake.h"

int moji_cp1252_byte(uint32_t cp)
{
    unsigned b;

    /* WHATWG Encoding, index-windows-1252: bytes 0x00-0x7F and 0xA0-0xFF
     * are the code points of the same value */
    if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF))
        return (int)cp;
    /* the five undefined bytes map to the C1 controls of the same value;
     * ISO-8859-1 decoders give C1 controls for all of 0x80-0x9F */
    if (cp >= 0x80 && cp <= 0x9F)
        return (int)cp;
    for (b = 0x80; b <= 0x9F; b++)
        if (linkcheck_cp1252((unsigned char)b, NULL) == cp)
            return (int)b;
    return -1;
}

/* A strict UTF-8 checker fed one byte at a time (RFC 3629 3: no
 * overlong form, no surrogate, nothing above U+10FFFF): each sequence is
 * collected to its length and decoded whole. */
struct u8check {
    unsigned char seq[4];
    size_t have, need;
    bool bad, wide;
};

static void u8_feed(struct u8check *c, unsigned char b)
{
    uint32_t cp;

    if (c->bad)
        return;
    if (c->have == 0) {
        c->need = b < 0x80    ? 1
                  : b >= 0xF0 ? 4
                  : b >= 0xE0 ? 3
                  : b >= 0xC0 ? 2
                              : 0;
        if (c->need == 0) {
            c->bad = true; /* a continuation byte with no lead */
            return;
        }
    }
    c->seq[c->have++] = b;
    if (c->have < c->need)
        return;
    if (utf8_decode(c->seq, c->need, &cp) != c->need)
        c->bad = true;
    if (c->need > 1)
        c->wide = true;
    c->have = 0;
}

/* Everything fed was valid UTF-8 with a character beyond ASCII. */
static bool u8_ok(const struct u8check *c)
{
    return !c->bad && c->have == 0 && c->wide;
}

/* The non-ASCII characters s[0..n) (UTF-8): are they the windows-1252
 * reading of UTF-8 bytes?  Then append those bytes to rep (as %HH when
 * pct), when rep is not NULL. */
static bool unread_1252(const char *s, size_t n, struct buf *rep, bool pct)
{
    struct u8check c;
    size_t i, k;
    uint32_t cp;
    int b;

    memset(&c, 0, sizeof(c));
    for (i = 0; i < n; i += k) {
        k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k == 0 || (b = moji_cp1252_byte(cp)) < 0x80)
            return false;
        u8_feed(&c, (unsigned char)b);
    }
    if (!u8_ok(&c))
        return false;
    for (i = 0; rep && i < n; i += k) {
        k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        b = moji_cp1252_byte(cp);
        if (pct)
            buf_put_pct(rep, (unsigned char)b);
        else
            buf_putc(rep, (char)b);
    }
    return true;
}

/* End of the run of non-ASCII bytes starting at s[i]. */
static size_t non_ascii_end(const char *s, size_t n, size_t i)
{
    while (i < n && (unsigned char)s[i] >= 0x80)
        i++;
    return i;
}

/* Raw text: the first run of non-ASCII characters in v[from..n) that is
 * UTF-8 read as windows-1252. */
static bool next_text(const char *v, size_t n, size_t from,
                      struct moji_hit *hit, struct buf *rep)
{
    size_t i = from, end;

    while (i < n) {
        if ((unsigned char)v[i] < 0x80) {
            i++;
            continue;
        }
        end = non_ascii_end(v, n, i);
        if (unread_1252(v + i, end - i, rep, false)) {
            hit->kind = MOJI_TEXT;
            hit->off = i;
            hit->len = end - i;
            return true;
        }
        i = end;
    }
    return false;
}

static unsigned char hex_octet(const char *s)
{
    unsigned v = 0, k;

    for (k = 1; k <= 2; k++) {
        char c = s[k];
        v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return (unsigned char)v;
}

/* Percent-encoded: in the run of escapes v[i..*run_end), the first
 * sub-run of escaped non-ASCII octets whose UTF-8 characters are UTF-8
 * read as windows-1252 ("%C3%83%C2%A9" is "Ã©", from "é").  The octets
 * are read from the escapes as needed (no copy, no length limit). */
static bool pct_run(const char *v, size_t n, size_t i, size_t *run_end,
                    struct moji_hit *hit, struct buf *rep)
{
    struct u8check all, c;
    size_t j, m, a, b, k, q;
    unsigned char seq[4];
    uint32_t cp;
    int w;

    memset(&all, 0, sizeof(all));
    for (j = i; ch_is_pct(v, n, j); j += 3)
        u8_feed(&all, hex_octet(v + j));
    *run_end = j;
    m = (j - i) / 3;
    /* escapes of a legacy encoding are not text read wrongly */
    if (!u8_ok(&all))
        return false;
    for (a = 0; a < m; a = b) {
        if (hex_octet(v + i + 3 * a) < 0x80) {
            b = a + 1;
            continue;
        }
        for (b = a; b < m && hex_octet(v + i + 3 * b) >= 0x80; b++)
            ;
        /* the characters of octets a..b (valid UTF-8, checked above),
         * each back to its windows-1252 byte */
        memset(&c, 0, sizeof(c));
        for (k = a; k < b && !c.bad; k += q) {
            for (q = 0; q < 4 && k + q < b; q++)
                seq[q] = hex_octet(v + i + 3 * (k + q));
            q = utf8_decode(seq, q, &cp);
            if (q == 0 || (w = moji_cp1252_byte(cp)) < 0x80) {
                c.bad = true;
                break;
            }
            u8_feed(&c, (unsigned char)w);
        }
        if (!u8_ok(&c))
            continue;
        hit->kind = MOJI_PCT;
        hit->off = i + 3 * a;
        hit->len = 3 * (b - a);
        for (k = a; rep && k < b; k += q) {
            for (q = 0; q < 4 && k + q < b; q++)
                seq[q] = hex_octet(v + i + 3 * (k + q));
            q = utf8_decode(seq, q, &cp);
            buf_put_pct(rep, (unsigned char)moji_cp1252_byte(cp));
        }
        return true;
    }
    return false;
}

static bool is_param_delim(char c)
{
    return c == '?' || c == '&' || c == ';' || c == '=' || c == '#';
}

/* Is the escape at v[i] inside a query or fragment parameter that holds
 * an escaped URL or query (an escaped ':', '/', '?', '=' or '&', escaped
 * once or more)?  Then
 * "%25" there is usually right: a URL with escapes, escaped once more to
 * travel as a parameter (the WHATWG URL Standard's
 * application/x-www-form-urlencoded serializer does exactly that). */
static bool in_nested_url(const char *v, size_t n, size_t i)
{
    size_t q, a, b, k;

    for (q = 0; q < i && v[q] != '?' && v[q] != '#'; q++)
        ;
    if (q >= i)
        return false; /* not in the query or fragment */
    for (a = i; a > q && !is_param_delim(v[a - 1]); a--)
        ;
    for (b = i; b < n && !is_param_delim(v[b]); b++)
        ;
    for (k = a; k + 2 < b; k++) {
        size_t j = k + 1;
        char h, l;
        if (v[k] != '%')
            continue;
        /* "%25" repeated: the same character escaped several times */
        while (j + 3 < b && v[j] == '2' && v[j + 1] == '5' &&
               ch_is((unsigned char)v[j + 2], CH_HEX) &&
               ch_is((unsigned char)v[j + 3], CH_HEX))
            j += 2;
        if (j + 1 >= b)
            break;
        h = v[j];
        l = (char)(v[j + 1] | 0x20);
        if ((h == '3' && (l == 'a' || l == 'f' || l == 'd')) ||
            (h == '2' && (l == '6' || l == 'f')))
            return true; /* %3A ':', %3F '?', %3D '=', %26 '&', %2F '/' */
    }
    return false;
}

/* "%25" followed by two hexadecimal digits: decoding once gives an escape
 * (RFC 3986 2.4: "%" is itself written "%25", so this is an escape that
 * was escaped again). */
static bool double_at(const char *v, size_t n, size_t i)
{
    return i + 4 < n && v[i] == '%' && v[i + 1] == '2' && v[i + 2] == '5' &&
           ch_is((unsigned char)v[i + 3], CH_HEX) &&
           ch_is((unsigned char)v[i + 4], CH_HEX);
}

/* The first "%25HH" at or after from that is not in a nested URL. */
static bool next_double(const char *v, size_t n, size_t from,
                        struct moji_hit *hit)
{
    const char *p;
    size_t i = from;

    while (i < n && (p = memchr(v + i, '%', n - i)) != NULL) {
        i = (size_t)(p - v);
        if (double_at(v, n, i) && !in_nested_url(v, n, i)) {
            hit->kind = MOJI_DOUBLE;
            hit->off = i;
            hit->len = 5;
            return true;
        }
        i++;
    }
    return false;
}

/* The first escaped mojibake at or after from. */
static bool next_pct(const char *v, size_t n, size_t from, struct moji_hit *hit,
                     struct buf *rep)
{
    const char *p;
    size_t i = from, end;

    while (i < n && (p = memchr(v + i, '%', n - i)) != NULL) {
        i = (size_t)(p - v);
        if (!ch_is_pct(v, n, i)) {
            i++;
            continue;
        }
        if (pct_run(v, n, i, &end, hit, rep))
            return true;
        i = end;
    }
    return false;
}

bool moji_next(const char *v, size_t n, size_t from, struct moji_hit *hit,
               struct buf *rep)
{
    struct moji_hit t, d, e, *best = NULL;

    if (!v || from >= n)
        return false;
    /* the three kinds never overlap (a text hit is non-ASCII bytes, an
     * escaped one escapes of non-ASCII bytes, a double one "%25" and two
     * ASCII digits): the earliest one wins */
    if (next_text(v, n, from, &t, NULL))
        best = &t;
    if (next_pct(v, n, from, &e, NULL) && (!best || e.off < best->off))
        best = &e;
    if (next_double(v, n, from, &d) && (!best || d.off < best->off))
        best = &d;
    if (!best)
        return false;
    *hit = *best;
    if (rep) {
        if (hit->kind == MOJI_DOUBLE) {
            buf_putc(rep, '%');
            buf_append(rep, v + hit->off + 3, 2);
        } else if (hit->kind == MOJI_PCT) {
            next_pct(v, n, hit->off, &e, rep);
        } else {
            next_text(v, n, hit->off, &t, rep);
        }
    }
    return true;
}

size_t moji_repair(const char *v, size_t n, struct buf *out)
{
    struct moji_hit h;
    struct buf rep;
    size_t at = 0, count = 0;

    buf_init(&rep, n + 1);
    while (moji_next(v, n, at, &h, &rep)) {
        buf_append(out, v + at, h.off - at);
        buf_append(out, rep.data, rep.len);
        rep.len = 0;
        at = h.off + h.len;
        count++;
    }
    buf_append(out, v + at, n - at);
    if (rep.status != XIRI_OK && out->status == XIRI_OK)
        out->status = rep.status;
    buf_free(&rep);
    return count;
}

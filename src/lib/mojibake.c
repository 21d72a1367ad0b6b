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
    /* the other 27 bytes of 0x80-0x9F map to code points from U+0152 (OE)
     * to U+2122 (TRADE MARK SIGN): outside that range (CJK, most
     * scripts) there is nothing to look for */
    if (cp < 0x152 || cp > 0x2122)
        return -1;
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

/* End of the run of non-ASCII bytes starting at v[i]. */
static size_t non_ascii_end(struct moji_scan *s, size_t i)
{
    while (i < s->n && (unsigned char)s->v[i] >= 0x80) {
        i++;
        s->steps++;
    }
    return i;
}

/* Raw text: the first run of non-ASCII characters in v[from..n) that is
 * UTF-8 read as windows-1252. */
static bool next_text(struct moji_scan *s, size_t from, struct moji_hit *hit)
{
    size_t i = from, end;

    while (i < s->n) {
        s->steps++;
        if ((unsigned char)s->v[i] < 0x80) {
            i++;
            continue;
        }
        end = non_ascii_end(s, i);
        if (unread_1252(s->v + i, end - i, NULL, false)) {
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

/* The escapes v[i..i+3m), m octets of valid UTF-8 (checked by the
 * caller): are their characters UTF-8 bytes read as windows-1252?  Then
 * append those bytes as %HH to rep when not NULL. */
static bool unread_pct(struct moji_scan *s, size_t i, size_t m,
                       struct buf *rep)
{
    struct u8check c;
    unsigned char seq[4];
    size_t k, q;
    uint32_t cp;
    int w;

    memset(&c, 0, sizeof(c));
    for (k = 0; k < m; k += q) {
        for (q = 0; q < 4 && k + q < m; q++)
            seq[q] = hex_octet(s->v + i + 3 * (k + q));
        s->steps += q;
        q = utf8_decode(seq, q, &cp);
        if (q == 0 || (w = moji_cp1252_byte(cp)) < 0x80)
            return false;
        u8_feed(&c, (unsigned char)w);
        if (rep)
            buf_put_pct(rep, (unsigned char)w);
    }
    return u8_ok(&c);
}

/* Escaped: the first escaped mojibake at or after from: in a run of
 * escapes whose octets are UTF-8 (escapes of a legacy encoding are not
 * text read wrongly), a sub-run of escaped non-ASCII octets whose
 * characters are UTF-8 read as windows-1252 ("%C3%83%C2%A9" is "Ã©",
 * from "é").  The octets are read from the escapes as needed (no copy,
 * no length limit); the run last looked at is remembered, so that a run
 * with many sub-runs is checked once. */
static bool next_pct(struct moji_scan *s, size_t from, struct moji_hit *hit)
{
    const char *v = s->v, *p;
    size_t n = s->n, i = from, a, b, j;
    struct u8check all;

    while (i < n) {
        if (i < s->run_i || i >= s->run_end || (i - s->run_i) % 3 != 0) {
            /* the next run of escapes */
            for (;;) {
                p = memchr(v + i, '%', n - i);
                if (!p) {
                    s->steps += n - i;
                    return false;
                }
                s->steps += (size_t)(p - (v + i)) + 1;
                i = (size_t)(p - v);
                if (ch_is_pct(v, n, i))
                    break;
                if (++i >= n)
                    return false;
            }
            memset(&all, 0, sizeof(all));
            for (j = i; ch_is_pct(v, n, j); j += 3) {
                u8_feed(&all, hex_octet(v + j));
                s->steps += 3;
            }
            s->run_i = i;
            s->run_end = j;
            s->run_ok = u8_ok(&all);
        }
        if (!s->run_ok) {
            i = s->run_end;
            continue;
        }
        for (a = i; a < s->run_end; a = b) {
            s->steps++;
            if (hex_octet(v + a) < 0x80) {
                b = a + 3;
                continue;
            }
            for (b = a; b < s->run_end && hex_octet(v + b) >= 0x80; b += 3)
                s->steps++;
            if (unread_pct(s, a, (b - a) / 3, NULL)) {
                hit->kind = MOJI_PCT;
                hit->off = a;
                hit->len = b - a;
                return true;
            }
        }
        i = s->run_end;
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
 * application/x-www-form-urlencoded serializer does exactly that).  Each
 * parameter is looked at once: the answer is kept for the next escape. */
static bool in_nested_url(struct moji_scan *s, size_t i)
{
    const char *v = s->v;
    size_t n = s->n, q = s->query, a, b, k;

    if (q == SIZE_MAX) {
        for (q = 0; q < n && v[q] != '?' && v[q] != '#'; q++)
            s->steps++;
        s->query = q;
    }
    if (q >= i)
        return false; /* not in the query or fragment */
    if (i >= s->par_a && i < s->par_b)
        return s->par_nested;
    for (a = i; a > q && !is_param_delim(v[a - 1]); a--)
        s->steps++;
    for (b = i; b < n && !is_param_delim(v[b]); b++)
        s->steps++;
    s->par_a = a;
    s->par_b = b;
    s->par_nested = false;
    for (k = a; k + 2 < b; k++) {
        size_t j = k + 1;
        char h, l;
        s->steps++;
        if (v[k] != '%')
            continue;
        /* "%25" repeated: the same character escaped several times */
        while (j + 3 < b && v[j] == '2' && v[j + 1] == '5' &&
               ch_is((unsigned char)v[j + 2], CH_HEX) &&
               ch_is((unsigned char)v[j + 3], CH_HEX)) {
            j += 2;
            s->steps++;
        }
        if (j + 1 >= b)
            break;
        h = v[j];
        l = (char)(v[j + 1] | 0x20);
        if ((h == '3' && (l == 'a' || l == 'f' || l == 'd')) ||
            (h == '2' && (l == '6' || l == 'f'))) {
            /* %3A ':', %3F '?', %3D '=', %26 '&', %2F '/' */
            s->par_nested = true;
            break;
        }
    }
    return s->par_nested;
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
static bool next_double(struct moji_scan *s, size_t from,
                        struct moji_hit *hit)
{
    const char *v = s->v, *p;
    size_t n = s->n, i = from;

    while (i < n) {
        p = memchr(v + i, '%', n - i);
        s->steps += p ? (size_t)(p - (v + i)) + 1 : n - i;
        if (!p)
            break;
        i = (size_t)(p - v);
        if (double_at(v, n, i) && !in_nested_url(s, i)) {
            hit->kind = MOJI_DOUBLE;
            hit->off = i;
            hit->len = 5;
            return true;
        }
        i++;
    }
    return false;
}

/* Could v[0..n) hold a text span?  Its first character stands for a
 * lead byte (below), its second for a continuation byte 80-BF, which
 * windows-1252 reads as U+00A0-U+00BF, as one of U+0152-U+2122 (for
 * 80-9F) or, undefined, as U+0080-U+009F itself: characters whose UTF-8
 * starts with C2, C5, C6, CB or E2.  So some "C3 xx" is followed by one
 * of those bytes. */
static bool may_hold_text_span(const char *v, size_t n)
{
    const unsigned char *u = (const unsigned char *)v, *p;
    size_t i = 0;

    while (i + 2 < n && (p = memchr(u + i, 0xC3, n - 2 - i)) != NULL) {
        unsigned char c;
        i = (size_t)(p - u);
        c = u[i + 2];
        if (c == 0xC2 || c == 0xC5 || c == 0xC6 || c == 0xCB || c == 0xE2)
            return true;
        i++;
    }
    return false;
}

void moji_scan_init(struct moji_scan *s, const char *v, size_t n)
{
    memset(s, 0, sizeof(*s));
    s->v = v;
    s->n = v ? n : 0;
    s->query = SIZE_MAX;
    /* Every span starts with '%' (escaped and double kinds) or with byte
     * C3: a text span is a run whose windows-1252 bytes are UTF-8, so its
     * first character stands for a lead byte C2-F4, that is U+00C2 to
     * U+00F4 (windows-1252 maps A0-FF to the same code points), whose
     * UTF-8 is C3 82 to C3 B4, and a second character must follow
     * (may_hold_text_span).  Most values (plain ASCII, other scripts,
     * accented letters standing alone) have neither: a memchr or two and
     * done. */
    s->clear = !s->n || (!memchr(v, '%', s->n) && !may_hold_text_span(v, s->n));
}

bool moji_scan_next(struct moji_scan *s, size_t from, struct moji_hit *hit,
                    struct buf *rep)
{
    struct moji_hit *best = NULL;
    size_t k;

    if (!s->v || s->clear || from >= s->n)
        return false;
    /* the three kinds never overlap (a text hit is non-ASCII bytes, an
     * escaped one escapes of non-ASCII bytes, a double one "%25" and two
     * ASCII digits): the earliest one wins.  Each kind's next span is
     * kept until from passes it, so each kind scans the value once. */
    for (k = 0; k < 3; k++) {
        if (s->have[k] && s->cand[k].off < from)
            s->have[k] = false;
        if (!s->have[k]) {
            if (s->pos[k] < from)
                s->pos[k] = from;
            if (s->pos[k] < s->n) {
                s->have[k] = k == 0   ? next_text(s, s->pos[k], &s->cand[k])
                             : k == 1 ? next_pct(s, s->pos[k], &s->cand[k])
                                      : next_double(s, s->pos[k], &s->cand[k]);
                s->pos[k] = s->have[k] ? s->cand[k].off : s->n;
            }
        }
        if (s->have[k] && (!best || s->cand[k].off < best->off))
            best = &s->cand[k];
    }
    if (!best)
        return false;
    *hit = *best;
    if (rep) {
        if (hit->kind == MOJI_DOUBLE) {
            buf_putc(rep, '%');
            buf_append(rep, s->v + hit->off + 3, 2);
        } else if (hit->kind == MOJI_PCT) {
            unread_pct(s, hit->off, hit->len / 3, rep);
        } else {
            unread_1252(s->v + hit->off, hit->len, rep, false);
        }
    }
    return true;
}

bool moji_next(const char *v, size_t n, size_t from, struct moji_hit *hit,
               struct buf *rep)
{
    struct moji_scan s;

    moji_scan_init(&s, v, n);
    return moji_scan_next(&s, from, hit, rep);
}

size_t moji_repair(const char *v, size_t n, struct buf *out)
{
    struct moji_scan s;
    struct moji_hit h;
    size_t at = 0, count = 0;

    moji_scan_init(&s, v, n);
    while (moji_scan_next(&s, at, &h, NULL)) {
        buf_append(out, v + at, h.off - at);
        if (h.kind == MOJI_DOUBLE) {
            buf_putc(out, '%');
            buf_append(out, v + h.off + 3, 2);
        } else if (h.kind == MOJI_PCT) {
            unread_pct(&s, h.off, h.len / 3, out);
        } else {
            unread_1252(v + h.off, h.len, out, false);
        }
        at = h.off + h.len;
        count++;
    }
    if (v)
        buf_append(out, v + at, n - at);
    return count;
}

size_t moji_cut(const char *s, size_t n, size_t max)
{
    if (n <= max)
        return n;
    /* RFC 3629 3: continuation bytes are 10xxxxxx; back off them */
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    return max;
}

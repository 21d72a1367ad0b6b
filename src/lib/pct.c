/* pct.c - normalizing percent-encodings (see pct.h): the decoding rules of
 * RFC 3986 6.2.2.2 and RFC 3987 3.2, in one place. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "pct.h"

unsigned char pct_octet(const char *s, size_t i)
{
    return (unsigned char)(ch_hexval((unsigned char)s[i + 1]) * 16 +
                           ch_hexval((unsigned char)s[i + 2]));
}

/* The number of octets a UTF-8 sequence with this lead octet has, 0 when
 * it cannot lead one (RFC 3629 4). */
static size_t utf8_seq_len(unsigned char lead)
{
    if (lead >= 0xC2 && lead <= 0xDF)
        return 2;
    if (lead >= 0xE0 && lead <= 0xEF)
        return 3;
    if (lead >= 0xF0 && lead <= 0xF4)
        return 4;
    return 0;
}

bool pct_iri_allowed(uint32_t cp, bool query)
{
    if (cp_is_bidi_format(cp))
        return false; /* RFC 3987 4.1: never raw in an IRI */
    return cp_is_ucschar(cp) || (query && cp_is_iprivate(cp));
}

/* Is offset i of s in the query (span query)? */
static bool in_query(const struct span *query, size_t i)
{
    return query && query->set && i >= query->off &&
           i < query->off + query->len;
}

void pct_normalize(struct buf *o, const char *s, size_t from, size_t to,
                   const struct span *query, unsigned flags, pct_keep_fn *keep,
                   void *user)
{
    size_t i = from, run = from;

    while (i < to) {
        unsigned char octets[4], b;
        size_t n, k;
        uint32_t cp;
        bool q;

        if (!ch_is_pct(s, to, i)) {
            if (s[i] == '%' && (flags & PCT_STRAY)) {
                buf_append(o, s + run, i - run);
                buf_put_pct(o, '%');
                run = i + 1;
            } else if ((unsigned char)s[i] >= 0x80 && (flags & PCT_RAW) &&
                       (n = utf8_decode((const unsigned char *)s + i, to - i,
                                        &cp)) > 0) {
                /* RFC 3987 3.2 gives an IRI: a character no IRI holds
                 * here is escaped as 3.1 would (RFC 3987 4.1: never a
                 * bidi formatting character) */
                if (!pct_iri_allowed(cp, in_query(query, i))) {
                    buf_append(o, s + run, i - run);
                    for (k = 0; k < n; k++)
                        buf_put_pct(o, (unsigned char)s[i + k]);
                    run = i + n;
                }
                i += n;
                continue;
            }
            i++;
            continue;
        }
        buf_append(o, s + run, i - run);
        b = pct_octet(s, i);
        /* RFC 3987 3.2 step 2, RFC 3986 2.3 and 6.2.2.2: never decode %,
         * reserved characters, or ASCII that URIs do not allow; decode
         * unreserved ASCII ('.' only when asked). */
        if (b < 0x80) {
            if (ch_is(b, CH_UNRESERVED) && (b != '.' || (flags & PCT_DOT)))
                buf_putc(o, (char)b);
            else
                buf_put_pct(o, b);
            i += 3;
            run = i;
            continue;
        }
        if (!(flags & PCT_UTF8)) {
            buf_put_pct(o, b); /* RFC 3986 6.2.2.1: upper-case hex */
            i += 3;
            run = i;
            continue;
        }
        /* RFC 3987 3.2 step 3: only strictly valid UTF-8 sequences, all
         * escaped; step 4: only characters allowed at this position. */
        q = in_query(query, i);
        n = utf8_seq_len(b);
        octets[0] = b;
        for (k = 1; k < n; k++) {
            if (!ch_is_pct(s, to, i + 3 * k))
                break;
            octets[k] = pct_octet(s, i + 3 * k);
        }
        if (n > 0 && k == n && utf8_decode(octets, n, &cp) == n &&
            pct_iri_allowed(cp, q) && !(keep && keep(user, cp, o))) {
            buf_append(o, (const char *)octets, n);
            i += 3 * n;
        } else {
            buf_put_pct(o, b); /* keep it, with upper-case hex */
            i += 3;
        }
        run = i;
    }
    buf_append(o, s + run, to - run);
}

/* mojibake.h - finding and undoing two damages done to link values by the
 * software that handled them before the document: UTF-8 read as
 * windows-1252 (or ISO-8859-1), as text ("Ã©") or percent-encoded
 * ("%C3%83%C2%A9"), and percent-encoding applied twice ("%2520").  Pure
 * functions on UTF-8 strings (mojibake.c). */
#ifndef XIRI_MOJIBAKE_H
#define XIRI_MOJIBAKE_H

#include "buf.h"
#include "common.h"

enum moji_kind {
    MOJI_TEXT = 1, /* characters that are UTF-8 bytes read as windows-1252 */
    MOJI_PCT,      /* the same, percent-encoded */
    MOJI_DOUBLE    /* "%25" + two hex digits: an escape escaped again */
};

struct moji_hit {
    enum moji_kind kind;
    size_t off, len; /* the damaged span v[off..off+len) */
};

/* A scan of one value v[0..n) from its start to its end: it keeps the
 * next candidate span of each kind and the enclosing query parameter
 * between calls, so that finding every span of a value is one linear
 * pass (moji_scan_next with from never decreasing). */
struct moji_scan {
    const char *v;
    size_t n;
    struct moji_hit cand[3]; /* the next span of each kind, when have */
    size_t pos[3];           /* each kind searched up to here */
    bool have[3];
    size_t run_i, run_end;   /* the run of escapes last looked at */
    bool run_ok;             /* is its whole run UTF-8 (RFC 3629 3) */
    size_t query;            /* the first '?' or '#' (n when none) */
    size_t par_a, par_b;     /* the query parameter last looked at */
    bool par_nested;         /* does it hold an escaped URL */
    size_t steps;            /* bytes looked at, for the tests */
    bool clear;              /* no '%' and no byte C3: nothing to find */
};

void moji_scan_init(struct moji_scan *s, const char *v, size_t n);

/* moji_next on the scan's value; from must not decrease between calls. */
bool moji_scan_next(struct moji_scan *s, size_t from, struct moji_hit *hit,
                    struct buf *rep);

/* The first damaged span of v[0..n) at or after from, with what repairs
 * it appended to rep (when not NULL): the UTF-8 text, its %HH escapes, or
 * the single escape.  False when there is none (rep untouched).  Spans
 * never overlap: call again with from = off + len for the next. */
bool moji_next(const char *v, size_t n, size_t from, struct moji_hit *hit,
               struct buf *rep);

/* v[0..n) with every span moji_next finds replaced by its repair, into
 * out; returns the number of spans (0: out holds v unchanged). */
size_t moji_repair(const char *v, size_t n, struct buf *out);

/* At most this many spans of one value are reported (the repair still
 * applies to all of them). */
#define MOJI_REPORT_MAX 20

/* The length of s[0..n) cut to at most max bytes at a UTF-8 character
 * boundary (never inside a sequence). */
size_t moji_cut(const char *s, size_t n, size_t max);

/* The windows-1252 byte that decodes to cp (WHATWG Encoding,
 * index-windows-1252, with U+0080-U+009F standing for themselves as the
 * index does for the five bytes it leaves undefined, and as ISO-8859-1
 * decoders do for all); -1 when no byte does. */
int moji_cp1252_byte(uint32_t cp);

#endif

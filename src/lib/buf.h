/* buf.h - a growable byte buffer with a sticky error: after the first
 * failure (out of memory, over the limit) every append is a no-op, and the
 * caller checks buf.status once at the end. */
#ifndef XIRI_BUF_H
#define XIRI_BUF_H

#include "common.h"

struct buf {
    char *data;
    size_t len;
    size_t cap;
    size_t max;                /* longest content allowed */
    enum xiri_status status;   /* XIRI_OK until something fails */
};

void buf_init(struct buf *b, size_t max);
void buf_free(struct buf *b);
/* Make room for n more bytes; false (and status set) on failure. */
bool buf_reserve(struct buf *b, size_t n);
/* buf_append's whole work (any n, any state of b). */
void buf_append_grow(struct buf *b, const char *p, size_t n);

/* Append p[0..n).  The usual case, room enough already (buf_reserve's
 * test: the content and its NUL fit in cap, within max), is done here
 * without a call; any other goes to buf_append_grow. */
static inline void buf_append(struct buf *b, const char *p, size_t n)
{
    /* (p tested too: the clang analyzer cannot tell it is not NULL
     * where callers derive it from a pointer they test elsewhere) */
    if (n > 0 && p && b->status == XIRI_OK && n < b->cap - b->len &&
        n <= b->max - b->len) {
        memcpy(b->data + b->len, p, n);
        b->len += n;
        return;
    }
    buf_append_grow(b, p, n);
}
void buf_putc(struct buf *b, char c);
void buf_puts(struct buf *b, const char *s);
/* Append "%HH" with upper-case hex (RFC 3986 2.1). */
void buf_put_pct(struct buf *b, unsigned char octet);
/* Hand the NUL-terminated content to the caller (*out, *len may be NULL
 * for len) and reset b; returns b's status and frees on failure. */
enum xiri_status buf_take(struct buf *b, char **out, size_t *len);

#endif

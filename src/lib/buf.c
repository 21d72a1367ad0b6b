/* buf.c - growable byte buffer with a sticky error (see buf.h). */
#include "common.h"
#include "buf.h"
#include "mem.h"

void buf_init(struct buf *b, size_t max)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max < XIRI_MAX_LEN ? max : XIRI_MAX_LEN;
    b->status = XIRI_OK;
}

void buf_free(struct buf *b)
{
    if (b->data) /* most scratch buffers never got one: no call */
        mem_free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

bool buf_reserve(struct buf *b, size_t n)
{
    size_t want, cap;
    char *p;

    if (b->status != XIRI_OK)
        return false;
    if (n > b->max - b->len) {
        b->status = XIRI_ELIMIT;
        return false;
    }
    want = b->len + n + 1; /* room for the terminating NUL */
    if (want <= b->cap)
        return true;
    cap = b->cap ? b->cap : 64;
    while (cap < want)
        cap *= 2;
    p = mem_realloc(b->data, cap);
    if (!p) {
        b->status = XIRI_ENOMEM;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void buf_append_grow(struct buf *b, const char *p, size_t n)
{
    if (n == 0 || !buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void buf_putc(struct buf *b, char c)
{
    if (!buf_reserve(b, 1))
        return;
    b->data[b->len++] = c;
}

void buf_puts(struct buf *b, const char *s)
{
    buf_append(b, s, strlen(s));
}

void buf_put_pct(struct buf *b, unsigned char octet)
{
    static const char hex[] = "0123456789ABCDEF";

    if (!buf_reserve(b, 3))
        return;
    b->data[b->len++] = '%';
    b->data[b->len++] = hex[octet >> 4];
    b->data[b->len++] = hex[octet & 0xF];
}

enum xiri_status buf_take(struct buf *b, char **out, size_t *len)
{
    enum xiri_status st;

    buf_reserve(b, 0); /* make sure there is a buffer for the NUL */
    st = b->status;
    if (st != XIRI_OK) {
        buf_free(b);
        *out = NULL;
        if (len)
            *len = 0;
        return st;
    }
    b->data[b->len] = '\0';
    *out = b->data;
    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    return XIRI_OK;
}

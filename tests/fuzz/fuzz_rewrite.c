/* fuzz_rewrite.c - libFuzzer target for the rewriter.  The first byte
 * chooses the document type, the direction and --resolve; the rest is the
 * document.
 * Properties: the output equals the input outside the value spans the
 * rewriter reported as changed (fidelity, issue 4), rewriting the
 * output again changes nothing (idempotence), and the parser thread
 * (parse_thread) gives the same bytes and spans. */
#include "fuzz.h"
#include "xiri.h"

#include <string.h>

#define XHTML "http://www.w3.org/1999/xhtml"

struct out {
    unsigned char *data;
    size_t len, cap;
    size_t spans[64][3]; /* offset, raw length, bytes written */
    size_t nspans;
    int overflow;
};

static int on_write(void *user, const void *d, size_t n)
{
    struct out *o = user;

    if (o->len + n > o->cap) {
        o->cap = (o->len + n) * 2 + 64;
        o->data = realloc(o->data, o->cap);
        FUZZ_ASSERT(o->data != NULL);
    }
    memcpy(o->data + o->len, d, n);
    o->len += n;
    return 0;
}

static int on_event(void *user, const struct xiri_rewrite_event *ev)
{
    struct out *o = user;

    if (!ev->new_value)
        return 0;
    if (o->nspans == 64) {
        o->overflow = 1;
        return 0;
    }
    o->spans[o->nspans][0] = ev->link->offset;
    o->spans[o->nspans][1] = ev->link->raw_length;
    o->spans[o->nspans][2] = ev->written;
    o->nspans++;
    return 0;
}

static enum xiri_status rewrite(struct xiri_ctx *ctx, struct xiri_registry *reg,
                                enum xiri_doc_type type,
                                enum xiri_rewrite_to to, int resolve,
                                int thread, const uint8_t *doc, size_t n,
                                struct out *o)
{
    struct xiri_walk_options wo;
    struct xiri_rewrite_options ro;
    struct xiri_rewriter *rw = NULL;
    enum xiri_status st;
    size_t i;

    xiri_walk_options_init(&wo);
    wo.type = type;
    wo.base = "http://base.example/d/";
    wo.max_value = 4096;
    wo.parse_thread = thread;
    xiri_rewrite_options_init(&ro);
    ro.to = to;
    ro.resolve = resolve;
    memset(o, 0, sizeof(*o));
    st = xiri_rewriter_new(ctx, reg, &wo, &ro, on_write, on_event, NULL, o,
                           &rw);
    for (i = 0; st == XIRI_OK && i < n; i += 97)
        st = xiri_rewriter_feed(rw, doc + i, n - i < 97 ? n - i : 97, NULL);
    if (st == XIRI_OK)
        st = xiri_rewriter_finish(rw, NULL);
    xiri_rewriter_free(rw);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct xiri_ctx *ctx;
    static struct xiri_registry *reg;
    struct out a, b, c;
    enum xiri_doc_type type;
    enum xiri_rewrite_to to;
    int resolve;
    size_t k, in = 0, out = 0;
    const uint8_t *doc;

    if (size == 0)
        return 0;
    if (!ctx) {
        if (xiri_ctx_new(&ctx) != XIRI_OK || xiri_registry_new(&reg) != XIRI_OK)
            abort();
        xiri_registry_add(reg, XHTML, "a", NULL, "href", XIRI_SHAPE_IRI);
        xiri_registry_add(reg, XHTML, "img", NULL, "srcset",
                          XIRI_SHAPE_SRCSET);
        xiri_registry_add(reg, XHTML, "a", NULL, "ping", XIRI_SHAPE_LIST);
        xiri_registry_add(reg, XHTML, "img", NULL, "usemap",
                          XIRI_SHAPE_HASH_NAME);
        xiri_registry_add(reg, NULL, "*", NULL, "href", XIRI_SHAPE_IRI);
        xiri_registry_add(reg, NULL, "id", NULL, NULL, XIRI_SHAPE_IRI);
        xiri_registry_add(reg, NULL, "?xml-stylesheet", NULL, "href",
                          XIRI_SHAPE_IRI);
        xiri_registry_add(reg, XHTML, "*", NULL, "style", XIRI_SHAPE_CSS);
        xiri_registry_add(reg, XHTML, "style", NULL, NULL, XIRI_SHAPE_CSS);
        xiri_registry_add(reg, NULL, "*", "http://www.w3.org/XML/1998/namespace",
                          "base", XIRI_SHAPE_IRI);
    }
    type = (enum xiri_doc_type)(data[0] % 3);
    to = (data[0] >> 2) & 1 ? XIRI_REWRITE_IRI : XIRI_REWRITE_URI;
    resolve = (data[0] >> 3) & 1;
    doc = data + 1;
    if (rewrite(ctx, reg, type, to, resolve, 0, doc, size - 1, &a) != XIRI_OK ||
        a.overflow) {
        free(a.data);
        return 0;
    }
    /* fidelity: identical outside the changed spans */
    for (k = 0; k < a.nspans; k++) {
        size_t off = a.spans[k][0], raw = a.spans[k][1], wr = a.spans[k][2];
        FUZZ_ASSERT(off >= in && off + raw <= size - 1);
        FUZZ_ASSERT(out + (off - in) + wr <= a.len);
        FUZZ_ASSERT(off == in || memcmp(doc + in, a.data + out, off - in) == 0);
        out += off - in + wr;
        in = off + raw;
    }
    FUZZ_ASSERT(a.len - out == size - 1 - in);
    FUZZ_ASSERT(a.len == out || memcmp(doc + in, a.data + out, a.len - out) == 0);
    /* the parser thread: the same bytes */
    FUZZ_ASSERT(rewrite(ctx, reg, type, to, resolve, 1, doc, size - 1, &c) ==
                XIRI_OK);
    FUZZ_ASSERT(c.len == a.len && c.nspans == a.nspans &&
                (a.len == 0 || memcmp(a.data, c.data, a.len) == 0));
    FUZZ_ASSERT(memcmp(a.spans, c.spans,
                       sizeof(a.spans[0]) * (a.nspans < 64 ? a.nspans : 64)) ==
                0);
    free(c.data);
    /* idempotence: a second pass changes nothing */
    if (rewrite(ctx, reg, type, to, resolve, 0, a.data, a.len, &b) == XIRI_OK) {
        FUZZ_ASSERT(b.len == a.len &&
                    (a.len == 0 || memcmp(a.data, b.data, a.len) == 0));
    }
    free(a.data);
    free(b.data);
    return 0;
}

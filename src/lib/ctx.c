/* ctx.c - creating and freeing a context (see ctx.h). */
#include "common.h"
#include "ctx.h"
#include "idn.h"
#include "mem.h"
#include "unicode.h"

enum xiri_status xiri_ctx_new(struct xiri_ctx **out)
{
    struct xiri_ctx *ctx;

    if (!out)
        return XIRI_EINVAL;
    ctx = mem_alloc(sizeof(*ctx));
    *out = ctx;
    if (!ctx)
        return XIRI_ENOMEM;
    ctx->idn = NULL;
    ctx->idn_whatwg = NULL;
    ctx->uni = NULL;
    buf_init(&ctx->check_tmp, XIRI_MAX_LEN);
    buf_init(&ctx->check_tmp2, XIRI_MAX_LEN);
    ctx->check_busy = false;
    return XIRI_OK;
}

void xiri_ctx_free(struct xiri_ctx *ctx)
{
    if (!ctx)
        return;
    idn_close(ctx->idn);
    idn_close(ctx->idn_whatwg);
    uni_close(ctx->uni);
    buf_free(&ctx->check_tmp);
    buf_free(&ctx->check_tmp2);
    mem_free(ctx);
}

/* display.c - placeholder until the display form lands. */
#include "common.h"

enum xiri_status xiri_display(struct xiri_ctx *ctx, const char *s, size_t len,
                              enum xiri_display mode, char **out,
                              size_t *out_len, struct xiri_error *err)
{
    (void)ctx, (void)s, (void)len, (void)mode, (void)out_len;
    *out = NULL;
    return error_set(err, XIRI_EINVAL, 0, "not implemented yet");
}

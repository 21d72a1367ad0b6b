/* normalize.c - placeholder until normalization lands. */
#include "common.h"

enum xiri_status xiri_normalize(struct xiri_ctx *ctx, const char *s,
                                size_t len, enum xiri_profile profile,
                                enum xiri_rung rung, unsigned flags,
                                char **out, size_t *out_len,
                                struct xiri_error *err)
{
    (void)ctx, (void)s, (void)len, (void)profile, (void)rung, (void)flags;
    (void)out_len;
    *out = NULL;
    return error_set(err, XIRI_EINVAL, 0, "not implemented yet");
}

enum xiri_status xiri_compare(struct xiri_ctx *ctx, const char *a,
                              size_t a_len, const char *b, size_t b_len,
                              enum xiri_profile profile, enum xiri_rung rung,
                              unsigned flags, int *equal,
                              struct xiri_error *err)
{
    (void)ctx, (void)a, (void)a_len, (void)b, (void)b_len, (void)profile;
    (void)rung, (void)flags, (void)equal;
    return error_set(err, XIRI_EINVAL, 0, "not implemented yet");
}

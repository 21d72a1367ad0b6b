/* linkcheck.c - placeholder until the document-level checks land. */
#include "common.h"

enum xiri_status xiri_check_link(struct xiri_ctx *ctx,
                                 const struct xiri_walker *w,
                                 const struct xiri_link *link,
                                 xiri_diag_fn *fn, void *user, int *worst)
{
    (void)w;
    return xiri_check(ctx, link->value, link->value_len, link->profile, fn,
                      user, worst);
}

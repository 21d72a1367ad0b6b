/* ctx.h - the context: the Unicode services a thread uses, opened on first
 * use and closed with the context. */
#ifndef XIRI_CTX_H
#define XIRI_CTX_H

#include "common.h"

struct idn;     /* idn.c: the UTS #46 object */
struct uni;     /* unicode.c: normalizers, spoof checker */

struct xiri_ctx {
    struct idn *idn;
    struct uni *uni;
};

#endif

/* ctx.h - the context: the Unicode services a thread uses, opened on first
 * use and closed with the context. */
#ifndef XIRI_CTX_H
#define XIRI_CTX_H

#include "common.h"
#include "buf.h"

struct idn;     /* idn.c: the UTS #46 object */
struct uni;     /* unicode.c: normalizers, spoof checker */

struct xiri_ctx {
    struct idn *idn;
    struct idn *idn_whatwg; /* without the STD3 rules (idn_browsers_reject) */
    struct uni *uni;
    /* check.c: check_run's two scratch buffers, kept from one check to
     * the next (the document pass checks every link); check_busy while
     * a check holds them, so that a check made from inside its own
     * callback on the same context uses buffers of its own */
    struct buf check_tmp, check_tmp2;
    bool check_busy;
};

#endif

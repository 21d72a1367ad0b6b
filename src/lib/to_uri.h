/* to_uri.h - the mapping of RFC 3987 3.1 (xiri_to_uri) into a caller's
 * buffer, for the rewriter. */
#ifndef XIRI_TO_URI_H
#define XIRI_TO_URI_H

#include "buf.h"
#include "parse.h"

/* xiri_to_uri(ctx, s, len, idn, flags, ...) with the URI appended to out
 * (after an error, out may hold a part of it).  split, when not NULL,
 * is what ref_parse gives for s under XIRI_PROFILE_LEIRI, which the
 * caller knows accepts s: it is not parsed again.  s is not NULL; ctx
 * is not NULL unless idn is XIRI_IDN_PERCENT. */
enum xiri_status to_uri_append(struct xiri_ctx *ctx, const char *s, size_t len,
                               const struct ref *split, enum xiri_idn idn,
                               unsigned flags, struct buf *out,
                               struct xiri_error *err);

#endif

/* to_iri.h - the mapping of RFC 3987 3.2 (xiri_to_iri) into a caller's
 * buffer, for the rewriter. */
#ifndef XIRI_TO_IRI_H
#define XIRI_TO_IRI_H

#include "buf.h"

/* xiri_to_iri(ctx, s, len, idn, ...) with the IRI appended to o.  dns:
 * whether the host of a reference without a scheme (a network-path
 * reference, "//host/...") is a DNS name (its base's scheme is http,
 * https, ftp, ws or wss); a scheme, when s has one, decides.  s is not
 * NULL; ctx may be NULL unless idn is XIRI_IDN_UNICODE. */
enum xiri_status to_iri_append(struct xiri_ctx *ctx, const char *s,
                               size_t len, enum xiri_idn idn, bool dns,
                               struct buf *o, struct xiri_error *err);

#endif

/* to_iri.h - the mapping of RFC 3987 3.2 (xiri_to_iri) into a caller's
 * buffer, for the rewriter. */
#ifndef XIRI_TO_IRI_H
#define XIRI_TO_IRI_H

#include "buf.h"

/* to_iri_append's flags: TO_IRI_DNS, the host of a reference without a
 * scheme (a network-path reference, "//host/...") is a DNS name (its
 * base's scheme is http, https, ftp, ws or wss; a scheme, when s has
 * one, decides); TO_IRI_KEEP_HOSTS, hosts and the domains of mailto
 * addresses are written as they are (rewrite --idn=keep). */
#define TO_IRI_DNS 0x1u
#define TO_IRI_KEEP_HOSTS 0x2u

/* xiri_to_iri(ctx, s, len, idn, ...) with the IRI appended to o.  s is
 * not NULL; ctx may be NULL unless idn is XIRI_IDN_UNICODE. */
enum xiri_status to_iri_append(struct xiri_ctx *ctx, const char *s, size_t len,
                               enum xiri_idn idn, unsigned flags, struct buf *o,
                               struct xiri_error *err);

#endif

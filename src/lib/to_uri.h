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
/* to_uri_append's flag past the XIRI_MAP_* ones: hosts and the domains
 * of mailto addresses are written as they are (rewrite --idn=keep). */
#define TO_URI_KEEP_HOSTS 0x100u

enum xiri_status to_uri_append(struct xiri_ctx *ctx, const char *s, size_t len,
                               const struct ref *split, enum xiri_idn idn,
                               unsigned flags, struct buf *out,
                               struct xiri_error *err);

/* True when the name s[0..n) holds a character outside ASCII, raw or
 * escaped: only those are IDNs (an all-ASCII host stays as it is). */
bool to_uri_needs_idna(const char *s, size_t n);

/* Whether the host s[0..n) of a DNS name maps to a URI as section 3.1
 * with IDNA maps it (its escapes decoded, UTF-8, ToASCII without error;
 * a host that holds no character past ASCII, raw or escaped, or an IP
 * literal, is taken as it is): into *ok.  For the URI-to-IRI mapping,
 * which decodes a host only where the way back exists. */
enum xiri_status to_uri_host_maps(struct xiri_ctx *ctx, const char *s, size_t n,
                                  bool *ok);

#endif

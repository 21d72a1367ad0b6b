/* linkcheck.h - the checks of xiri_check_link with the document's encoding
 * given by name, so that they work (and are tested) without a walker. */
#ifndef XIRI_LINKCHECK_H
#define XIRI_LINKCHECK_H

#include "common.h"

/* xiri_check on link->value under link->profile, every finding forwarded,
 * then the document-level checks: no-base, replacement-char, and when
 * encoding (the document's encoding label, as the walker reports it) is
 * not NULL, c1-control and query-encoding.  Same contract as
 * xiri_check_link. */
enum xiri_status linkcheck_run(struct xiri_ctx *ctx, const char *encoding,
                               const struct xiri_link *link, xiri_diag_fn *fn,
                               void *user, int *worst);

/* The windows-1252 character of a byte 0x80-0x9F (WHATWG Encoding,
 * index-windows-1252) and its Unicode name; 0 (and *name NULL) for the
 * five bytes windows-1252 leaves undefined and for any other byte. */
uint32_t linkcheck_cp1252(unsigned char byte, const char **name);

#endif

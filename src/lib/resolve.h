/* resolve.h - RFC 3986 section 5.2 reference resolution, shared with the
 * normalizer. */
#ifndef XIRI_RESOLVE_H
#define XIRI_RESOLVE_H

#include "buf.h"
#include "parse.h"

/* RFC 3986 5.2.4 remove_dot_segments: append the result for path p[0..n)
 * to out. */
void path_remove_dots(struct buf *out, const char *p, size_t n);

/* Append the RFC 3986 5.3 recomposition of r (components of s) to out,
 * writing a path that starts with "//" without an authority as "/.//". */
void ref_recompose(struct buf *out, const char *s, const struct ref *r);

#endif

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

/* A base parsed once, to resolve many references against it (the links
 * of a document share a few bases).  s is borrowed, not copied: it must
 * outlive the struct.  status and err are what xiri_resolve returns and
 * sets for any reference against this base when it is refused (it does
 * not parse, or it is not absolute: RFC 3986 5.1). */
struct resolve_base {
    const char *s;
    size_t len;
    enum xiri_profile profile;
    struct ref r;
    enum xiri_status status;
    struct xiri_error err;
    /* when status is XIRI_OK: the length of its "scheme:" or
     * "scheme://authority" at the start, and the base's part of a merged
     * path (RFC 3986 5.2.3: "/" for an empty path with an authority,
     * else the path up to and including its last "/"), and whether that
     * part has a dot segment */
    size_t head;
    const char *dir;
    size_t dir_len;
    bool dir_dots;
};

/* Parse s[0..len) (NULL with len 0 is the empty string) as a base under
 * profile. */
void resolve_base_init(struct resolve_base *b, const char *s, size_t len,
                       enum xiri_profile profile);

/* Exactly xiri_resolve(b->s, b->len, ref, ref_len, b->profile, ...) but
 * with the base parsed once and the result appended to out (whose
 * status says whether that failed); err as xiri_resolve sets it. */
enum xiri_status resolve_ref(const struct resolve_base *b, const char *ref,
                             size_t ref_len, struct buf *out,
                             struct xiri_error *err);

/* The resolution itself (RFC 3986 5.2.2-5.2.4 and 5.3) of r, the
 * components of ref[0..ref_len), against b, appended to out.  b->status
 * must be XIRI_OK, and r what ref_parse under b->profile gives for ref
 * with XIRI_OK; no check is made here. */
void resolve_parsed(const struct resolve_base *b, const char *ref,
                    size_t ref_len, const struct ref *r, struct buf *out);

#endif

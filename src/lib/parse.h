/* parse.h - splitting and validating IRI references (RFC 3986 section 3
 * and appendix B, RFC 3987 section 2.2). */
#ifndef XIRI_PARSE_H
#define XIRI_PARSE_H

#include "common.h"

/* A component's byte span in the string it was parsed from.  32 bits are
 * enough (inputs are at most XIRI_MAX_LEN) and halve the size of a ref. */
struct span {
    uint32_t off;
    uint32_t len;
    bool set; /* absent and empty differ (RFC 3986 5.2.1) */
};

/* The components of one reference; PATH is always set. */
struct ref {
    struct span part[XIRI_PART_COUNT];
};

/* What the validating scan finds, error or not depending on the profile. */
enum scan_kind {
    SCAN_ERR_CHAR,      /* a character not allowed at this position */
    SCAN_ERR_PCT,       /* '%' not followed by two hex digits */
    SCAN_ERR_UTF8,      /* bytes that are not UTF-8 */
    SCAN_ERR_PRIVATE,   /* iprivate outside the query (RFC 3987 2.2) */
    SCAN_ERR_NONASCII,  /* a non-ASCII character in a URI */
    SCAN_ERR_COLON,     /* ':' in the first segment of a relative path */
    SCAN_ERR_HOST,      /* an IP literal that is not IPv6 or IPvFuture */
    SCAN_ERR_PORT,      /* a port that is not digits */
    SCAN_WARN_LEIRI,    /* allowed in a LEIRI, not in an IRI */
    SCAN_WARN_HTML      /* allowed by browsers, not in an IRI or LEIRI */
};

static inline bool scan_is_error(enum scan_kind k)
{
    return k < SCAN_WARN_LEIRI;
}

/* Receives every finding of the scan when given to ref_parse(). */
struct scan_sink {
    void (*fn)(void *user, enum scan_kind kind, enum xiri_part part,
               size_t off, size_t len, uint32_t cp);
    void *user;
};

/* Split s into components by RFC 3986 appendix B (plus the authority's
 * userinfo, host and port).  Never fails; validates nothing. */
void ref_split(const char *s, size_t len, struct ref *r);

/* Split and validate s under the profile.  Without a sink, stops at the
 * first error and returns XIRI_ESYNTAX with err filled in.  With a sink,
 * reports every finding to it, goes on to the end and returns the status
 * of the first error. */
enum xiri_status ref_parse(const char *s, size_t len,
                           enum xiri_profile profile, struct ref *r,
                           const struct scan_sink *sink,
                           struct xiri_error *err);

/* RFC 3986 3.2.2 host forms, without brackets. */
bool ipv6_is_valid(const char *s, size_t len);
bool ipv4_is_valid(const char *s, size_t len);
bool ipvfuture_is_valid(const char *s, size_t len);

/* A NUL-free description of a code point for messages: "' ' (U+0020)". */
void describe_cp(char *out, size_t size, uint32_t cp);

#endif

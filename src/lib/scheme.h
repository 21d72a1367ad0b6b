/* scheme.h - what xiri knows about particular schemes. */
#ifndef XIRI_SCHEME_H
#define XIRI_SCHEME_H

#include "common.h"

/* The length of the scheme of v[0..n) (RFC 3986 3.1: ALPHA *( ALPHA /
 * DIGIT / "+" / "-" / "." ) and ':'), or 0 when it has none: a relative
 * reference. */
size_t scheme_prefix_len(const char *v, size_t n);
/* WHATWG URL 4.4, scheme start and scheme states: the scheme of v[0..n)
 * as browsers read it, tabs and newlines skipped (the parser removes them
 * first): an ASCII alpha, then ASCII alphanumerics, '+', '-' or '.', up
 * to ':'.  Its length without them, its first letters copied to out
 * (NUL-ended when it fits in size; size 0: nothing copied); 0 when there
 * is no scheme (a relative reference). */
size_t scheme_whatwg(const char *v, size_t n, char *out, size_t size);
/* Case-insensitive comparison of s[0..n) with a lower-case name. */
bool scheme_is(const char *s, size_t n, const char *lower);
/* Schemes whose hosts are DNS names that legacy resolvers only take in
 * ToASCII form: http, https, ftp, ws, wss. */
bool scheme_is_dns(const char *s, size_t n);
/* mailto (RFC 6068 2): the address that starts at s[i] in a path that
 * ends at end (addresses are comma-separated): its end, and in *at the
 * '@' before its domain, a DNS name (SIZE_MAX: none). */
size_t scheme_mailto_address(const char *s, size_t i, size_t end, size_t *at);
/* WHATWG URL 4.2's special schemes: those, and file. */
bool scheme_is_special(const char *s, size_t n);
/* Schemes whose query browsers encode in the document's encoding: WHATWG
 * URL 4.4 query state, where the encoding becomes UTF-8 when the URL is
 * not special or its scheme is ws or wss. */
bool scheme_query_in_document_encoding(const char *s, size_t n);
/* The default port of http, https, ws, wss, ftp (RFC 3986 6.2.3), or
 * NULL. */
const char *scheme_default_port(const char *s, size_t n);

#endif

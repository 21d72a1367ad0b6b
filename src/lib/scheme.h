/* scheme.h - what xiri knows about particular schemes. */
#ifndef XIRI_SCHEME_H
#define XIRI_SCHEME_H

#include "common.h"

/* Case-insensitive comparison of s[0..n) with a lower-case name. */
bool scheme_is(const char *s, size_t n, const char *lower);
/* Schemes whose hosts are DNS names that legacy resolvers only take in
 * ToASCII form: http, https, ftp, ws, wss. */
bool scheme_is_dns(const char *s, size_t n);
/* WHATWG URL 4.2's special schemes: those, and file. */
bool scheme_is_special(const char *s, size_t n);
/* The default port of http, https, ws, wss, ftp (RFC 3986 6.2.3), or
 * NULL. */
const char *scheme_default_port(const char *s, size_t n);

#endif

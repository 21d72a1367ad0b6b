/* htmlurl.h - the string a browser parses as a URL from an HTML attribute
 * value (WHATWG URL, basic URL parser): what rewrite maps, links
 * resolves and check judges for HTML documents. */
#ifndef XIRI_HTMLURL_H
#define XIRI_HTMLURL_H

#include "buf.h"
#include "common.h"

/* Whether the WHATWG URL parser reads v[0..n) as a special URL: its
 * scheme (tabs and newlines skipped, as the parser removes them) or,
 * without one, base's is ftp, file, http, https, ws or wss.  False for a
 * relative reference without a base. */
bool html_url_special(const char *v, size_t n, const char *base);
/* Where the query or fragment of v[0..n) starts ('?' or '#'), or n. */
size_t html_url_path_end(const char *v, size_t n);
/* Append to out what a browser parses: v without ASCII tabs and
 * newlines, and, when special, each '\' before the query or fragment as
 * '/', and a file URL's drive letter "C|" as "C:" (the same length). */
void html_url_prepare(const char *v, size_t n, const char *base,
                      struct buf *out);
/* WHATWG URL 4.4: *v[0..*n) without its leading and trailing C0 controls
 * and spaces, which browsers remove first. */
void html_url_trim(const char **v, size_t *n);
/* The offset in v[0..n) of byte k of v without its tabs and newlines
 * (as html_url_prepare removes them), n for the end, SIZE_MAX past it. */
size_t html_url_raw_offset(const char *v, size_t n, size_t k);
/* Whether html_url_prepare would change v[0..n): a tab or newline, a '\\'
 * or a '|' (of a drive letter "C|"). */
bool html_url_needs_prepare(const char *v, size_t n);
/* Whether browsers may read v[0..n) against base otherwise than RFC 3986
 * does, so that xiri_html_url gives another string: what
 * html_url_needs_prepare looks for; a dot segment written "%2e"; a file
 * URL's states; a scheme not followed by exactly two slashes ("http:foo",
 * "http:///h"), or three slashes or more at its start.  Most links have
 * none of these, and are read as written. */
bool html_url_reading_differs(const char *v, size_t n, const char *base);
/* WHATWG URL 4.4, scheme state: a special URL whose scheme is not
 * followed by "//" ("http:foo"; not file, whose states differ) is read
 * relative to base when base has the same scheme ("special relative or
 * authority state": "http:foo" is "foo"), else with an authority after
 * any slashes ("special authority slashes" and "ignore slashes" states:
 * "https:/h/p" is "https://h/p"), where RFC 3986 5.2.2 reads the rest as
 * a path (5.4.2 names the first reading "for backward compatibility");
 * and three slashes or more before a special URL's authority are two
 * ("http:///h/p" and, against an http base, "///h/p" are
 * "http://h/p"), where RFC 3986 reads an empty authority; and a
 * reference that starts with a drive letter "C|" against a file base is
 * "/C:" and the rest (file state; html_url_drive_relative); and a
 * path segment "%2e" or "%2e%2e" (any case, or one dot of two so written)
 * is a dot segment, which RFC 3986 5.2.4 keeps (path state); and a file
 * URL keeps its drive letter: ".." never removes it, a drive where the
 * host stands ("//C:") is the path's, a path reference against a file
 * base with a drive letter keeps that drive ("/z" against "file:///C:/w/"
 * is "file:///C:/z"), "file:" and the rest against a file base is the rest
 * alone, "file:x" or "file:/x" has an empty host, and so has a file URL
 * whose host is "localhost" (file states).  For
 * such a v[0..n) (as html_url_prepare gives it), append to out the reference
 * whose RFC 3986 resolution against base gives what browsers read, and
 * return true; else false, and nothing appended. */
bool html_url_rfc_form(const char *v, size_t n, const char *base,
                       struct buf *out);
/* Whether v[0..n) is a relative reference that starts with a drive letter
 * written "C|" (then '/', '?', '#' or the end) and base a file URL: a
 * browser reads "/C:" there, RFC 3986 a path segment "C|". */
bool html_url_drive_relative(const char *v, size_t n, const char *base);
/* Whether the URL v[0..n) has an opaque path (WHATWG URL 4.4, opaque path
 * state): a scheme that is not special and no '/' after its ':'
 * ("mailto:x", "data:,a/../b", "urn:a:b"), a path browsers keep as written
 * and against which they resolve a fragment only. */
bool html_url_opaque_path(const char *v, size_t n);

/* Whether v[0..n) is a relative reference other than a fragment (the
 * empty one too) and base
 * (NULL: none) has an opaque path (a scheme that is not special and no
 * '/' after its ':', as "mailto:x" or "urn:a:b"): browsers fail to parse
 * it (WHATWG URL 4.4, no scheme state: against a base with an opaque path
 * only a fragment can be), where RFC 3986 5.2 resolves it ("c" against
 * "mailto:x" is "mailto:c"). */
bool html_url_opaque_base(const char *v, size_t n, const char *base);

/* Whether the URL v[0..n) (as html_url_prepare gives it) against base
 * (NULL: none) has no host while special and not file (WHATWG URL 4.4,
 * host state: host-missing, and browsers reject it): "http://",
 * "http:///?q", "http://user@/", and, against an http base, "//",
 * "https:" or "https:/". */
bool html_url_host_missing(const char *v, size_t n, const char *base);

/* html_url_host_missing on a value as written (html_url_prepare first,
 * when it needs it): when browsers find no host in it, *d (whose message
 * is static) is the host-missing finding, spanning the value, and *found
 * is true.  XIRI_OK, or XIRI_ENOMEM (not known). */
enum xiri_status html_url_host_missing_diag(const char *v, size_t n,
                                            const char *base,
                                            struct xiri_diag *d, bool *found);

/* WHATWG URL 4.4, special authority slashes and ignore slashes states:
 * whether browsers read a host in v[0..n) against base (NULL: none)
 * where RFC 3986 reads none, or an empty one: a special URL other than
 * file whose scheme is followed by other than "//" ("https:h/p",
 * "http:/h/p" against a base of another scheme, "http:///h/p", "http:\\h"),
 * or, against a special base, a reference that starts with three slashes
 * or more, or with two of which one is '\' ("///h/p"); a file URL, or a
 * reference against a file base, with two slashes of which one is '\'
 * ("file:\\h/p", "/\h/p": file slash state); not when no host follows
 * them (html_url_host_missing).  The scheme and its ':' end at
 * *slashes_at, where the slashes start (0 without a scheme); the host
 * starts at *host_at, after them. */
bool html_url_hidden_host(const char *v, size_t n, const char *base,
                          size_t *slashes_at, size_t *host_at);

/* Append to out v[0..n) with the slashes v[slashes_at..host_at) before
 * its host written "//", and, in a special URL (against base), each '\'
 * before the query or fragment as '/': the reference whose RFC 3986
 * split has the authority browsers read (html_url_hidden_host; htmlauth.c
 * also for a '\' that ends it). */
void html_url_host_form(const char *v, size_t n, const char *base,
                        size_t slashes_at, size_t host_at, struct buf *out);

/* Whether browsers reject the URL v[0..n) (as html_url_prepare gives
 * it) against base (NULL: none): its authority fails WHATWG URL's host
 * parsing (a forbidden host code point, written or percent-encoded; an
 * IPv4 address out of range; a bad IP literal) or its port is bad, as
 * xiri_check reports under the html profile, or it has no host while
 * special and not file ("http://", "//" against an http base:
 * host-missing): *rejected says.  XIRI_OK, or why the check could not
 * be made (XIRI_ENOMEM). */
enum xiri_status html_url_rejected(struct xiri_ctx *ctx, const char *v,
                                   size_t n, const char *base, bool *rejected);

#endif

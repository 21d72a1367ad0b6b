/* pct.h - normalizing percent-encodings (RFC 3986 2.1, 2.3 and 6.2.2.2,
 * RFC 3987 3.2): which escapes are decoded and how the others are written.
 * Shared by the URI-to-IRI mapping and the normalizer. */
#ifndef XIRI_PCT_H
#define XIRI_PCT_H

#include "buf.h"
#include "parse.h"

/* The octet written by the escape at s[i] ('%' HEXDIG HEXDIG). */
unsigned char pct_octet(const char *s, size_t i);

/* RFC 3987 3.2 steps 3 and 4: may the character appear unescaped in an
 * IRI, in the query when query is true?  ucschar, iprivate in the query
 * only, never a bidi formatting character (RFC 3987 4.1). */
bool pct_iri_allowed(uint32_t cp, bool query);

/* Flags for pct_normalize():
 * PCT_DOT   also decode %2E: RFC 3986 6.2.2.2 decodes every unreserved
 *           character, but the URI-to-IRI mapping keeps %2E so that no
 *           new dot segment appears;
 * PCT_UTF8  decode escaped UTF-8 that forms characters an IRI allows at
 *           that position (RFC 3987 3.2), unless keep says otherwise;
 * PCT_STRAY write a '%' that starts no escape (the html profile lets one
 *           through) as "%25" (RFC 3986 2.4), so that no decoding next to
 *           it can form a new escape;
 * PCT_RAW   escape, as UTF-8, a character written unescaped that an IRI
 *           does not allow at its position (pct_iri_allowed: a bidi
 *           formatting character, a noncharacter, private use outside the
 *           query...), so that a URI-to-IRI mapping gives an IRI. */
#define PCT_DOT 0x1u
#define PCT_UTF8 0x2u
#define PCT_STRAY 0x4u
#define PCT_RAW 0x8u

/* With PCT_UTF8: whether to keep escaped cp, a character an IRI allows
 * at its position, given the output so far (o): a URI-to-IRI mapping
 * keeps those that would not be seen or would pass for others (RFC 3987
 * 3.2 step 4 and 6.1); a normalizer keeps none (keep NULL: two spellings
 * of one IRI compare equal). */
typedef bool pct_keep_fn(void *user, uint32_t cp, const struct buf *o);

/* Append s[from..to) to o: escapes of unreserved ASCII characters are
 * decoded (RFC 3986 2.3; '.' only with PCT_DOT), with PCT_UTF8 so are
 * strictly valid UTF-8 sequences for pct_iri_allowed() characters that
 * keep does not keep; every other escape is kept with upper-case hex
 * (RFC 3986 2.1).  query is the query's span in s (iprivate is allowed
 * there only).  Everything that is not an escape is copied as it is
 * (but see PCT_STRAY and PCT_RAW). */
void pct_normalize(struct buf *o, const char *s, size_t from, size_t to,
                   const struct span *query, unsigned flags, pct_keep_fn *keep,
                   void *user);

#endif

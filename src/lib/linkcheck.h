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

/* linkcheck_run with the fast path for plain links (linkcheck_plain) on
 * or off: the findings are the same either way (test_linkcheck.c runs
 * both over the conformance data). */
enum xiri_status linkcheck_run_path(struct xiri_ctx *ctx, const char *encoding,
                                    const struct xiri_link *link,
                                    xiri_diag_fn *fn, void *user, int *worst,
                                    bool fast);

/* Whether browsers send the query of link's URL in the document's
 * encoding (WHATWG URL 4.4 query state, through HTML's "encoding-parse a
 * URL", which every HTML element uses, in any Document): a link of an
 * HTML document; the href of an xml-stylesheet processing instruction,
 * which browsers load for any XML document they show (Firefox and
 * Chromium complete it with the document's encoding); or an attribute
 * (not xml:base) or content of an element in the XHTML or SVG namespace
 * of an XML document browsers render (rendered: walk_rendered; its SVG
 * links they complete the same way).  XHTML in an Atom feed's content,
 * like the feed's own links, is read by feed readers and XSLT processors
 * with RFC 3987's UTF-8; so is a url() of CSS (XIRI_SHAPE_CSS), in any
 * document.  The scheme and the encoding are the caller's to ask. */
bool linkcheck_query_in_document_encoding(const struct xiri_link *link,
                                          bool rendered);

struct ref;

/* True when xiri_check finds nothing at all in s[0..n) under any profile,
 * known from a single look at the bytes and r (ref_split of s): printable
 * ASCII that every component it falls in allows (RFC 3986 3, RFC 3987
 * 2.2), one '#' at most, no '%', a lower-case scheme and host, no
 * userinfo, port or IP literal, no ':' in the first segment of a
 * relative path, no dot segment in an absolute one.  False says nothing:
 * xiri_check must look. */
bool linkcheck_plain(const char *s, size_t n, const struct ref *r);

/* linkcheck_plain(s, n, r) with r = ref_split(s, n) in one pass: true
 * when s is plain, r then holding ref_split's components; false leaves r
 * unspecified (and says nothing: xiri_check must look). */
bool linkcheck_plain_split(const char *s, size_t n, struct ref *r);

/* For each byte: LC_PLAIN_NOT when a plain link may not hold it in every
 * component (see linkcheck.c), else 0 or the class of ':', '?', '@' or
 * an upper-case letter. */
enum {
    LC_PLAIN_NOT = 1,
    LC_PLAIN_COLON = 2,
    LC_PLAIN_QMARK = 4,
    LC_PLAIN_UPPER = 8,
    LC_PLAIN_AT = 16
};
extern const unsigned char linkcheck_plain_class[256];

/* check.c: xiri_check, also giving the components of s as ref_split
 * splits them in *split (when not NULL and the result is XIRI_OK); a
 * network-path reference ("//h/p") is read with the scheme of base (NULL:
 * none), which decides what its host may hold. */
enum xiri_status check_run(struct xiri_ctx *ctx, const char *s, size_t len,
                           enum xiri_profile profile, const char *base,
                           xiri_diag_fn *fn, void *user, int *worst,
                           struct ref *split);

/* Characters of the scripts most IRIs use in their paths that are
 * starters (canonical combining class 0) with quick-check Yes in NFC and
 * NFKC (UCD DerivedNormalizationProps.txt): they never combine with the
 * character before them and no form changes them, so a string of them
 * and ASCII is in every form (UAX #15 9).  Greek U+0386-U+03CE (but for
 * U+0387, which NFC maps to U+00B7, and the unassigned U+038B, U+038D,
 * U+03A2), Cyrillic U+0410-U+044F, the CJK punctuation U+3001-U+3002 and
 * the brackets U+3008-U+3011, hiragana U+3041-U+3096, katakana
 * U+30A1-U+30FA and U+30FC, CJK unified ideographs U+4E00-U+9FFF (the
 * check suite compares each with ICU).  All are ucschar (RFC 3987 2.2),
 * none right-to-left.  (Static inline: check.c and linkcheck.c use it.) */
static inline bool linkcheck_nfkc_starter(uint32_t cp)
{
    if (cp < 0x3001)
        return (cp >= 0x0386 && cp <= 0x03CE && cp != 0x0387 && cp != 0x038B &&
                cp != 0x038D && cp != 0x03A2) ||
               (cp >= 0x0410 && cp <= 0x044F);
    return cp <= 0x3002 || (cp >= 0x3008 && cp <= 0x3011) ||
           (cp >= 0x3041 && cp <= 0x3096) || (cp >= 0x30A1 && cp <= 0x30FA) ||
           cp == 0x30FC || (cp >= 0x4E00 && cp <= 0x9FFF);
}

/* The windows-1252 character of a byte 0x80-0x9F (WHATWG Encoding,
 * index-windows-1252) and its Unicode name; 0 (and *name NULL) for the
 * five bytes windows-1252 leaves undefined and for any other byte. */
uint32_t linkcheck_cp1252(unsigned char byte, const char **name);

#endif

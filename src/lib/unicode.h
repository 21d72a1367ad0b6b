/* unicode.h - the Unicode facts and transforms xiri needs from ICU:
 * normalization forms, bidi classes, general categories, confusable
 * detection, legacy-encoding decoding and the encoding of URL queries in
 * legacy documents.  Only unicode.c includes ICU's headers for these. */
#ifndef XIRI_UNICODE_H
#define XIRI_UNICODE_H

#include "buf.h"
#include "ctx.h"

struct uni;
void uni_close(struct uni *u);

enum uni_form { UNI_NFC, UNI_NFKC };

/* Append the normalization form of UTF-8 s[0..n) to out (s must be valid
 * UTF-8).  XIRI_OK, XIRI_ENOMEM, XIRI_ELIMIT or XIRI_EUNICODE. */
enum xiri_status uni_normalize(struct xiri_ctx *ctx, enum uni_form form,
                               const char *s, size_t n, struct buf *out);
/* *yes = true when s is already in that form. */
enum xiri_status uni_is_normalized(struct xiri_ctx *ctx, enum uni_form form,
                                   const char *s, size_t n, bool *yes);

/* Direction of a character for RFC 3987 section 4.2. */
enum uni_dir {
    UNI_DIR_LTR,   /* bidi class L */
    UNI_DIR_RTL,   /* bidi classes R and AL */
    UNI_DIR_OTHER  /* digits, punctuation, marks, ... */
};
enum uni_dir uni_direction(uint32_t cp);

/* One component for bidi purposes (RFC 3987 4.2) read as displayed: an
 * escape is its ASCII characters (a hex letter is left-to-right), an
 * ASCII letter left-to-right, other ASCII and bytes that are not UTF-8
 * neither.  Offsets count from the component's start. */
struct uni_bidi_scan {
    bool rtl, ltr;         /* it has a character of that direction */
    size_t rtl_at, ltr_at; /* the first of each */
    uint32_t rtl_cp, ltr_cp;
    enum uni_dir first, last; /* of its first and last characters */
    uint32_t first_cp, last_cp;
    size_t last_at;
};
void uni_bidi_scan(const char *s, size_t n, struct uni_bidi_scan *out);
/* 4.2 rules 1 and 2: no right-to-left character, or no left-to-right one
 * and right-to-left at both ends. */
bool uni_bidi_well_formed(const struct uni_bidi_scan *b);

/* RFC 3987 4.2: the parts whose components have a direction, with the
 * delimiters between a part's components ("" for one): iuserinfo, each
 * ireg-name label (not an IP literal), each isegment and file extension
 * (4.4 example 4, "KL.html"), each name and value of the query, and
 * ifragment.  check.c reports on them, to_iri.c keeps their escapes. */
struct uni_bidi_part {
    enum xiri_part part;
    const char *delims;
};
#define UNI_BIDI_PARTS 5
#define UNI_BIDI_PATH 2 /* the path's entry */
extern const struct uni_bidi_part uni_bidi_parts[UNI_BIDI_PARTS];

/* General category facts. */
bool uni_is_assigned(uint32_t cp);
bool uni_is_noncharacter(uint32_t cp); /* U+FDD0-FDEF, U+xxFFFE/F */
bool uni_is_control(uint32_t cp);      /* Cc */

/* Confusable-host checks (UTS #39) on one UTF-8 label.  *flags gets
 * UNI_SPOOF_* bits. */
#define UNI_SPOOF_MIXED_SCRIPT 0x1u /* scripts mixed beyond "highly
                                       restrictive" (UTS #39 5.2) */
#define UNI_SPOOF_WHOLE_SCRIPT 0x2u /* not ASCII, but its skeleton is:
                                       looks like an ASCII label (4) */
#define UNI_SPOOF_INVISIBLE 0x4u    /* invisible or stacked marks (5.4) */
enum xiri_status uni_spoof_label(struct xiri_ctx *ctx, const char *s,
                                 size_t n, unsigned *flags);

/* Whether NFC never joins cp to the character before it (ICU's
 * unorm2_hasBoundaryBefore): false for a combining mark, a conjoining
 * jamo vowel...; true when ICU cannot tell. */
bool uni_nfc_boundary_before(uint32_t cp);

/* Whether NFC makes cp ASCII (U+1FEF GREEK VARIA is '`', U+037E GREEK
 * QUESTION MARK ';', U+212A KELVIN SIGN 'K'). */
bool uni_nfc_ascii(uint32_t cp);

/* General category M (a combining mark: nonspacing, spacing or
 * enclosing). */
bool uni_is_mark(uint32_t cp);

/* For a URI-to-IRI mapping (RFC 3987 7.5, 8): whether cp, a punctuation
 * mark or symbol (or, any_category, any character: in a host), would pass
 * for delimiters: its NFKC form or its UTS #39 skeleton, whatever its
 * script, holds one of / : ? # @ & = % (U+2215 DIVISION SLASH, U+1735
 * PHILIPPINE SINGLE PUNCTUATION, U+FF06 FULLWIDTH AMPERSAND, U+2047
 * DOUBLE QUESTION MARK, U+2100 ACCOUNT OF; in a host U+30CE KATAKANA
 * LETTER NO) or is "." or ".." (U+2024 ONE DOT LEADER, U+2025 TWO DOT
 * LEADER); into *yes.  Fails only when ICU's spoof checker cannot be
 * had. */
enum xiri_status uni_passes_for_delimiter(struct xiri_ctx *ctx, uint32_t cp,
                                          bool any_category, bool *yes);

/* General category P (punctuation) or S (symbol). */
bool uni_is_punct_or_symbol(uint32_t cp);
/* Whether cp, a punctuation mark or symbol, looks like one of the ASCII
 * delimiters / : ? # @ . & = % (its UTS #39 skeleton), which goes to
 * *ascii.  False also when ICU cannot tell. */
bool uni_delimiter_lookalike(struct xiri_ctx *ctx, uint32_t cp, char *ascii);

/* Try legacy encodings on bytes that are not UTF-8 (Shift_JIS, EUC-JP,
 * EUC-KR, GBK, Big5, windows-1252, in that order: the strict
 * multi-byte ones first, the single-byte fallback last).  On success returns the encoding's name
 * and appends the decoded text as UTF-8 to out; NULL when none decodes
 * every byte to a non-control character. */
const char *uni_guess_legacy(const unsigned char *bytes, size_t n,
                             struct buf *out);

/* The encoding browsers encode a URL's query with in a document whose
 * encoding has this label: the WHATWG Encoding Standard's name for the
 * labels it lists (4.2: "ISO-8859-1" and "ascii" are windows-1252,
 * "EUC-KR" is windows-949...), "UTF-8" for UTF-16 and the replacement
 * encoding (WHATWG Encoding 4.3 "get an output encoding") and for every
 * other Unicode encoding ICU knows; any other label ICU knows is returned
 * as it is.  NULL when ICU does not know the label. */
const char *uni_query_encoding(const char *label);

/* Append to out the query s[0..n) (UTF-8, without its '?') as browsers
 * write it for a document in the encoding with this label (WHATWG URL 4.4
 * query state, 1.3 "percent-encode after encoding"; browsers use the
 * document's encoding for special schemes other than ws and wss, UTF-8
 * otherwise): ASCII tab and newlines dropped, each character encoded in
 * that encoding, each resulting byte that is a C0 control, space, '"',
 * '#', '<', '>' or above '~' (and '\'' when special: the special-query
 * percent-encode set) written %HH, existing %HH kept; a character the
 * encoding cannot express becomes "%26%23" NNN "%3B", its HTML decimal
 * character reference escaped (*unmappable, when not NULL, receives how
 * many).  With "UTF-8" that is RFC 3987 3.1 for the non-ASCII characters.
 * XIRI_EENCODING when ICU does not know the label, XIRI_ESYNTAX when s is
 * not UTF-8, XIRI_ENOMEM, XIRI_EUNICODE.  With a ctx the converters stay
 * open in it for the next query in the same encoding (closed by
 * xiri_ctx_free); with NULL they are opened and closed for this one. */
enum xiri_status uni_encode_query(struct xiri_ctx *ctx, const char *label,
                                  const char *s, size_t n, bool special,
                                  struct buf *out, size_t *unmappable);

/* True when ICU decodes this label as ISO-8859-1 itself (bytes 0x80-0x9F
 * become the C1 controls U+0080-U+009F), as libxml2 and XML do. */
bool uni_encoding_is_latin1(const char *label);

/* Append UTF-8 text s[0..n) encoded in the encoding with this label,
 * characters it cannot express written as XML hexadecimal character
 * references "&#xHHHH;" (RFC 3987 section 6.3 / seed 003: a document
 * carries what its encoding lacks as numeric references).  No byte order
 * mark is written.  XIRI_EENCODING for an unknown label. */
enum xiri_status uni_encode_text(const char *label, const char *s, size_t n,
                                 struct buf *out);

/* Whether the encoding named label has every character of s[0..n)
 * (UTF-8); false too when label is unknown. */
bool uni_encodable(const char *label, const char *s, size_t n);

#endif

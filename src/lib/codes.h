/* codes.h - the catalogue of check codes (codes.c): one stable identifier,
 * default severity, spec section and explanation per kind of finding. */
#ifndef XIRI_CODES_H
#define XIRI_CODES_H

#include "common.h"

/* Index of each code in the catalogue; the order is the catalogue's
 * (xiri_code_at), never a promise to callers: they see only the names. */
enum code_id {
    /* grammar (ref_parse findings) */
    CODE_INVALID_CHAR,
    CODE_INVALID_PCT,
    CODE_INVALID_UTF8,
    CODE_NON_ASCII_IN_URI,
    CODE_COLON_IN_FIRST_SEGMENT,
    CODE_INVALID_IP_LITERAL,
    CODE_INVALID_IPV4,
    CODE_INVALID_PORT,
    CODE_PRIVATE_USE,
    CODE_CONTROL_CHAR,
    CODE_NONCHARACTER,
    CODE_LEIRI_CHAR,
    CODE_HTML_ONLY,
    /* characters and escapes */
    CODE_BIDI_FORMAT_CHAR,
    CODE_BIDI_MIXED,
    CODE_BIDI_ENDS,
    CODE_NOT_NFC,
    CODE_NFKC_VARIANT,
    CODE_DELIMITER_LOOKALIKE,
    CODE_UNASSIGNED,
    CODE_PCT_NOT_UTF8,
    CODE_PCT_OVERLONG,
    /* hosts */
    CODE_IDNA_ERROR,
    CODE_IDNA_BIDI,
    CODE_FAKE_A_LABEL,
    CODE_CONFUSABLE_HOST,
    CODE_HOST_SLASHES,
    CODE_HOST_MISSING, /* xiri_check (no base), and xiri_check_link against
                          its base (linkcheck.c) */
    CODE_CONTROL_AROUND_URL, /* xiri_check, and the walker (walk.c) */
    /* non-canonical spellings */
    CODE_UPPER_SCHEME,
    CODE_UPPER_HOST,
    CODE_LOWER_HEX,
    CODE_NEEDLESS_ESCAPE,
    CODE_DEFAULT_PORT,
    CODE_EMPTY_PORT,
    CODE_DOT_SEGMENT,
    CODE_ESCAPED_DOT_SEGMENT,
    /* document-level: only xiri_check_link produces them (linkcheck.c) */
    CODE_NO_BASE,
    CODE_OPAQUE_BASE,
    CODE_RELATIVE_IDENTIFIER,
    CODE_INVALID_HASH_NAME,
    CODE_QUERY_ENCODING,
    CODE_REPLACEMENT_CHAR,
    CODE_C1_CONTROL,
    CODE_MOJIBAKE,
    CODE_DOUBLE_PCT,
    /* about the document, not one IRI: only the walker reports them
     * (walk.c, xiri_doc_diag) */
    CODE_INVALID_BYTE,
    CODE_ENCODING_GUESS,
    CODE_ENCODING_CONFLICT,
    CODE_ENCODING_LATE,
    CODE_ENCODING_REPLACEMENT,
    CODE_EOF_IN_TAG,
    CODE_XML_ERROR,
    CODE_EXTERNAL_ENTITY,
    CODE_UNKNOWN_ENTITY,
    CODE_VALUE_TOO_LONG,
    CODE_BASE_NOT_ABSOLUTE,
    CODE_BASE_INVALID,
    CODE_BASE_AFTER_LINKS,
    CODE_UNPAIRED_NAMESPACE,
    CODE_SRCSET_DROPPED,
    CODE_SRCSET_INVALID,
    CODE_PI_SYNTAX,
    CODE_KML_TEMPLATE,
    CODE_CSS_ESCAPE,
    CODE_CSS_BAD_URL,
    /* about what xiri rewrite did: only the rewriter reports them
     * (rewrite.c, struct xiri_rewrite_event) */
    CODE_IDENTIFIER_KEPT,
    CODE_COUNT
};

/* The codes xiri_check never produces, only xiri_check_link: the range
 * [CODE_LINK_FIRST, CODE_LINK_LAST].  The check suite expects every other
 * code from check-cases.tsv; the linkcheck suite covers these. */
#define CODE_LINK_FIRST CODE_NO_BASE
#define CODE_LINK_LAST CODE_DOUBLE_PCT

/* The codes of the document walker's own diagnostics: [CODE_DOC_FIRST,
 * CODE_DOC_LAST] (it reports control-around-url too, which xiri_check
 * does as well); tests/cli/explain-codes.sh checks that every code walk.c
 * can report is in the catalogue with the walker's severity. */
#define CODE_DOC_FIRST CODE_INVALID_BYTE
#define CODE_DOC_LAST CODE_CSS_BAD_URL

/* The codes of the rewriter's notes: [CODE_REWRITE_FIRST,
 * CODE_REWRITE_LAST]. */
#define CODE_REWRITE_FIRST CODE_IDENTIFIER_KEPT
#define CODE_REWRITE_LAST CODE_IDENTIFIER_KEPT

/* The catalogue entry of a code; never NULL for id < CODE_COUNT. */
const struct xiri_code_info *codes_get(enum code_id id);
/* Copy the message msg to out[0..size), each "at byte N" in it (an offset
 * in the string it is about, as the messages write one) written as "at
 * byte " and map(user, N), unless that is SIZE_MAX or it stands inside
 * '"' (quoted from the value): for findings on another string than the
 * one the caller reports on. */
void codes_rebase_bytes(const char *msg, size_t (*map)(const void *, size_t),
                        const void *user, char *out, size_t size);
/* A finding of code id with its default severity and section, the rest
 * as given. */
void codes_diag(struct xiri_diag *d, enum code_id id, enum xiri_part part,
                size_t off, size_t len, uint32_t cp, const char *message);

#endif

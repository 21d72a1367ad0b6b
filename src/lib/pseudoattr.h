/* pseudoattr.h - the pseudo-attributes of a processing instruction's data
 * (Associating Style Sheets with XML documents 1.0, Second Edition,
 * section 2: xml-stylesheet; ISO/IEC 19757-11 reuses them for xml-model),
 * read from the data as written, with their places. */
#ifndef XIRI_PSEUDOATTR_H
#define XIRI_PSEUDOATTR_H

#include "buf.h"
#include "common.h"

/* One pseudo-attribute: byte offsets into the data as written. */
struct pseudo_attr {
    size_t name, name_len;
    size_t value, value_len; /* inside the quotes */
    char quote;              /* '"' or '\'' */
};

/* The next pseudo-attribute of d[0..n) from *cursor on (0 to begin):
 * 1 with *out set and *cursor after it, 0 at the end of the data, -1 when
 * the data does not match the grammar: *cursor is then where it stops
 * matching and *why says how (a phrase: "a value is not quoted").  A name
 * that an earlier pseudo-attribute has is an error too (not in the
 * Recommendation's grammar, but XML 1.0 3.1's for a start tag, which
 * Chromium applies: it reads the data as a start tag's attributes);
 * seen[0..nseen) are the pseudo-attributes read before, in order. */
int pseudo_attr_next(const char *d, size_t n, size_t *cursor,
                     const struct pseudo_attr *seen, size_t nseen,
                     struct pseudo_attr *out, const char **why);

/* A value as written (raw[0..n), which pseudo_attr_next accepted) as it
 * reads, appended to out: character references and the five predefined
 * entity references replaced, and each white space character as written
 * (tab, LF, CR LF, a lone CR) read as a space, as in an XML attribute
 * value of type CDATA (XML 1.0 2.11 and 3.3.3; the Recommendation reads
 * references "as in a normal XML attribute value", and Chromium reads the
 * data as a start tag's attributes); a reference keeps its character. */
void pseudo_attr_decode(const char *raw, size_t n, struct buf *out);

#endif

/* tagscan.h - finding a start tag and its attributes in the document text,
 * since libxml2 reports where a start tag ends but not where anything in
 * it is (XML 1.0 3.1 STag/Attribute; HTML "attribute name/value" states). */
#ifndef XIRI_TAGSCAN_H
#define XIRI_TAGSCAN_H

#include "common.h"

/* The '<' that opens the start tag whose '>' is text[end], searching no
 * further back than text[floor] (where the previous markup ended); quoted
 * values are skipped as wholes.  Returns its index or SIZE_MAX. */
size_t tag_find_start(const char *text, size_t floor, size_t end);

/* The "</" that opens the end tag whose '>' is text[end], or SIZE_MAX. */
size_t tag_find_end_start(const char *text, size_t end);

/* One attribute as written in a start tag. */
struct tag_attr {
    size_t name, name_len;   /* indexes into the text */
    size_t value, value_len; /* without the quotes; value_len 0 and
                                value == name + name_len when no value */
    char quote;              /* '"', '\'' or 0 when unquoted */
};

/* The next attribute of the tag text[*cursor..end) (start *cursor at the
 * tag's '<').  Returns false when there are no more. */
bool tag_next_attr(const char *text, size_t end, size_t *cursor,
                   struct tag_attr *a);

#endif

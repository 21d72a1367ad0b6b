/* shapes.h - splitting an attribute value into the IRIs it holds, by its
 * shape (xiri.h enum xiri_shape): one IRI, a whitespace-separated list,
 * an HTML srcset, an HTML meta refresh, the url()s of CSS. */
#ifndef XIRI_SHAPES_H
#define XIRI_SHAPES_H

#include "common.h"

/* Called once per IRI item: [start, start + len) is a byte range of the
 * value given to shape_split, index counts items from 0.  Return non-zero
 * to stop. */
typedef int shape_item_fn(void *user, size_t start, size_t len,
                          unsigned index);

/* Split value v[0..n) (decoded, UTF-8) into its items:
 *  XIRI_SHAPE_IRI, XIRI_SHAPE_IDENTIFIER, XIRI_SHAPE_RESOLVED_IDENTIFIER:
 *  one item, the value without
 *    leading and trailing XML whitespace (XSD anyURI whiteSpace=collapse;
 *    HTML strips ASCII whitespace from URLs); an empty or blank value is
 *    one empty item (an empty reference is a same-document reference).
 *  XIRI_SHAPE_LIST, XIRI_SHAPE_PAIRS: every run of non-whitespace (XSD
 *    1.0 part 2 3.3.1.3 list lexical space; HTML "split on ASCII
 *    whitespace").
 *  XIRI_SHAPE_SRCSET: the URL of each image candidate, per the HTML
 *    standard's "parse a srcset attribute" (descriptors left out).
 *  XIRI_SHAPE_REFRESH: the URL of the HTML "shared declarative refresh
 *    steps", none when the content has no URL.
 *  XIRI_SHAPE_HASH_NAME: the whole value, nothing stripped (HTML usemap).
 *  XIRI_SHAPE_CSS: the URL of each url() and image-set() string without
 *    escapes that browsers read (cssurl.h), ASCII white space trimmed;
 *    empty ones are none.
 * Returns the number of items reported (or the index of the item that
 * stopped it, plus one). */
unsigned shape_split(enum xiri_shape shape, const char *v, size_t n,
                     shape_item_fn *fn, void *user);

/* XIRI_SHAPE_CSS read as declarations or a value (sheet false: an
 * attribute, as shape_split reads it) or as a style sheet (sheet true: a
 * style element's content, where the string of an @import is a URL too;
 * cssurl.h). */
unsigned shape_split_css(const char *v, size_t n, bool sheet, shape_item_fn *fn,
                         void *user);

#endif

/* registry.h - the set of IRI-valued attributes and elements, as the
 * walker looks it up for every attribute of every element (so lookups are
 * hash-table fast). */
#ifndef XIRI_REGISTRY_H
#define XIRI_REGISTRY_H

#include "common.h"

/* The XHTML namespace: HTML documents match its entries by local name,
 * ignoring ASCII case. */
#define XHTML_NS "http://www.w3.org/1999/xhtml"

/* Is attribute {attr_ns}attr of element {element_ns}element registered?
 * NULL namespaces mean "no namespace".  Entries for element "*" match any
 * element.  html: the document is HTML (element_ns and attr_ns are NULL):
 * match XHTML-namespace elements and no-namespace attributes by local
 * name, ignoring ASCII case.  On a match, *shape is set. */
bool registry_find_attr(const struct xiri_registry *reg,
                        const char *element_ns, const char *element,
                        const char *attr_ns, const char *attr, bool html,
                        enum xiri_shape *shape);

/* Is the content of element {element_ns}element registered? */
bool registry_find_content(const struct xiri_registry *reg,
                           const char *element_ns, const char *element,
                           bool html, enum xiri_shape *shape);

#endif

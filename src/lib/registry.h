/* registry.h - the set of IRI-valued attributes and elements, as the
 * walker looks it up for every attribute of every element (so lookups are
 * hash-table fast). */
#ifndef XIRI_REGISTRY_H
#define XIRI_REGISTRY_H

#include "common.h"

/* The XHTML namespace: HTML documents match its entries by local name,
 * ignoring ASCII case. */
#define XHTML_NS "http://www.w3.org/1999/xhtml"
/* Namespaces in XML 1.0 (Third Edition) section 3: the prefix "xml" is
 * bound to this namespace by definition. */
#define XML_NS "http://www.w3.org/XML/1998/namespace"
#define SVG_NS "http://www.w3.org/2000/svg"
#define MATHML_NS "http://www.w3.org/1998/Math/MathML"
#define XLINK_NS "http://www.w3.org/1999/xlink"
/* XSD Part 1 2.6: xsi:nil, xsi:type, xsi:schemaLocation... */
#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"
/* XML Schema's own namespace: its built-in types (xs:anyURI) */
#define XSD_NS "http://www.w3.org/2001/XMLSchema"

/* Is attribute {attr_ns}attr of element {element_ns}element registered?
 * NULL namespaces (and "") mean "no namespace".  Entries for element "*"
 * with no element namespace match any element; entries '{NS}*' match any
 * element of namespace NS; an entry naming the element wins over both.
 * html: the document is HTML (element_ns and attr_ns are NULL): match
 * XHTML-namespace entries (named elements and '{XHTML}*') and the
 * any-element "*" entries, all with no-namespace attributes, by local
 * name, ignoring ASCII case.  On a match, *shape is set.  Never
 * allocates; safe to call from several threads on a registry that is no
 * longer being added to. */
bool registry_find_attr(const struct xiri_registry *reg, const char *element_ns,
                        const char *element, const char *attr_ns,
                        const char *attr, bool html, enum xiri_shape *shape);

/* Is pseudo-attribute attr of the processing instructions of target
 * registered (target is "?" and the target's name: the entries
 * '?target@attr')?  attr NULL: is any pseudo-attribute of target
 * registered?  No wildcard entry ('*@attr') matches a processing
 * instruction. */
bool registry_find_pi(const struct xiri_registry *reg, const char *target,
                      const char *attr, enum xiri_shape *shape);

/* Is the content of element {element_ns}element registered? */
bool registry_find_content(const struct xiri_registry *reg,
                           const char *element_ns, const char *element,
                           bool html, enum xiri_shape *shape);

/* A shape's name (xiri_shape_name: "iri", "list"...) s[0..len) to the
 * shape. */
bool registry_shape_from_name(const char *s, size_t len, enum xiri_shape *out);

/* The names of every shape, ", " between them, into out (for messages;
 * cut to size). */
void registry_shape_list(char *out, size_t size);

/* One entry, for tests and listings: strings borrowed from the registry;
 * attr NULL means the element's content. */
struct registry_entry {
    const char *element_ns;
    const char *element;
    const char *attr_ns;
    const char *attr;
    enum xiri_shape shape;
};

/* The i-th entry in the order they were added; false past the end. */
bool registry_entry_at(const struct xiri_registry *reg, size_t i,
                       struct registry_entry *out);

/* Hand message to the notice callback, if one is set
 * (xiri_registry_set_notice). */
void registry_notice(const struct xiri_registry *reg, const char *message);

/* Loading a schema is all or nothing: registry_mark() before, and
 * registry_rollback() to that mark on failure removes every entry added
 * since (without allocating). */
size_t registry_mark(const struct xiri_registry *reg);
void registry_rollback(struct xiri_registry *reg, size_t mark);

#endif

/* xiri.h - the public API of libxiri: parse, check, resolve and map IRIs
 * (RFC 3987) and URIs (RFC 3986) held as UTF-8 strings.
 *
 * This is the only installed header.  Conventions:
 *  - Inputs are (const char *s, size_t len): UTF-8, no NUL terminator needed.
 *  - Every function that can fail returns an enum xiri_status (XIRI_OK == 0)
 *    and, when the caller passes a non-NULL struct xiri_error, fills it with
 *    the byte offset and a short message.
 *  - Strings returned through char **out belong to the caller, are
 *    NUL-terminated, and are released with xiri_str_free().
 *  - Pointers returned by accessors are borrowed from their object and stay
 *    valid until that object is freed.
 *  - Nothing here prints, exits or aborts.  There is no hidden global state:
 *    a struct xiri_ctx is used by one thread at a time; use one per thread.
 */
#ifndef XIRI_H
#define XIRI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(XIRI_BUILDING) && defined(__GNUC__)
#define XIRI_API __attribute__((visibility("default")))
#else
#define XIRI_API
#endif

#define XIRI_VERSION_MAJOR 0
#define XIRI_VERSION_MINOR 1
#define XIRI_VERSION_PATCH 0
#define XIRI_VERSION_STRING "0.1.0"
/* 0xMMmmpp, comparable with < and > */
#define XIRI_VERSION_NUM 0x000100

/* The version of the library actually linked, e.g. "0.1.0". */
XIRI_API const char *xiri_version(void);

/* ------------------------------------------------------------------ */
/* Status and errors                                                   */

enum xiri_status {
    XIRI_OK = 0,
    XIRI_ENOMEM = 1,     /* an allocation failed */
    XIRI_EINVAL = 2,     /* bad argument (NULL where not allowed, ...) */
    XIRI_ESYNTAX = 3,    /* not an IRI reference under the chosen profile */
    XIRI_ENOTABS = 4,    /* a base that must be absolute is not */
    XIRI_EIDNA = 5,      /* a host rejected by IDNA (UTS #46) */
    XIRI_EFORBIDDEN = 6, /* a character the mapping was told not to escape */
    XIRI_ELIMIT = 7,     /* input or output over a configured limit */
    XIRI_EUNICODE = 8,   /* the Unicode library (ICU) failed */
    XIRI_EDOC = 9,       /* the document is not well-formed (fatal) */
    XIRI_EENCODING = 10, /* unknown or unsupported character encoding */
    XIRI_EIO = 11,       /* a file could not be read or written */
    XIRI_ECANCELED = 12, /* a callback asked to stop */
    XIRI_STATUS_COUNT    /* not a status */
};

/* A static, never NULL, English description of a status. */
XIRI_API const char *xiri_strerror(enum xiri_status st);

/* Optional detail of a failure; pass NULL when not wanted. */
struct xiri_error {
    enum xiri_status status;
    size_t offset;     /* byte offset in the input the error refers to */
    char message[256]; /* short English text, always NUL-terminated; one
                          that does not fit ends in "..." */
};

/* Release a string returned by the library.  NULL is allowed. */
XIRI_API void xiri_str_free(char *s);

/* ------------------------------------------------------------------ */
/* Profiles: which strings count as references                         */

enum xiri_profile {
    /* RFC 3987 section 2.2 IRI-reference, exactly. */
    XIRI_PROFILE_RFC3987 = 0,
    /* RFC 3986 URI-reference: ASCII only. */
    XIRI_PROFILE_URI = 1,
    /* W3C LEIRI (XML system identifiers, XML Base, XLink, XSD 1.1):
     * RFC 3987 plus space, < > " { } | \ ^ `, controls and the other
     * non-surrogate code points; the extras are reported as warnings. */
    XIRI_PROFILE_LEIRI = 2,
    /* What browsers accept in HTML attributes: LEIRI plus a '%' not
     * followed by two hex digits, '[' ']' outside the host, '#' in the
     * fragment, U+FFFE and U+FFFF; differences from RFC 3987 are reported
     * as warnings. */
    XIRI_PROFILE_HTML = 3,
    XIRI_PROFILE_COUNT
};

/* "rfc3987", "uri", "leiri", "html"; XIRI_OK or XIRI_EINVAL. */
XIRI_API enum xiri_status xiri_profile_from_name(const char *name,
                                                 enum xiri_profile *out);
XIRI_API const char *xiri_profile_name(enum xiri_profile p);

/* ------------------------------------------------------------------ */
/* Parsed references (RFC 3986 section 3, RFC 3987 section 2.2)        */

struct xiri; /* one parsed IRI reference; opaque */

enum xiri_part {
    XIRI_PART_SCHEME = 0,
    XIRI_PART_AUTHORITY, /* userinfo@host:port, without the "//" */
    XIRI_PART_USERINFO,
    XIRI_PART_HOST, /* as written, IP literals keep their brackets */
    XIRI_PART_PORT,
    XIRI_PART_PATH, /* always present, possibly empty */
    XIRI_PART_QUERY,
    XIRI_PART_FRAGMENT,
    XIRI_PART_COUNT
};

/* Parse s[0..len) as an IRI reference under the profile.  On success *out
 * holds a new object (free with xiri_free); on failure *out is NULL and err
 * (if not NULL) gives the offset of the first offending byte. */
XIRI_API enum xiri_status xiri_parse(const char *s, size_t len,
                                     enum xiri_profile profile,
                                     struct xiri **out,
                                     struct xiri_error *err);
XIRI_API void xiri_free(struct xiri *iri);

/* The whole reference (a NUL-terminated copy of the input). */
XIRI_API const char *xiri_text(const struct xiri *iri, size_t *len);

/* A component: a borrowed pointer into xiri_text(), NOT NUL-terminated,
 * with its length in *len; NULL when the component is absent (RFC 3986
 * distinguishes absent from empty: "a:?" has an empty query, "a:" none).
 * *offset (may be NULL) receives the byte offset in the text. */
XIRI_API const char *xiri_part(const struct xiri *iri, enum xiri_part part,
                               size_t *len, size_t *offset);

/* 1 when the reference has a scheme (RFC 3986 section 4.3), else 0. */
XIRI_API int xiri_is_absolute(const struct xiri *iri);

/* "scheme", "authority", ... */
XIRI_API const char *xiri_part_name(enum xiri_part part);

/* Convenience: 1 when s is a valid reference under the profile. */
XIRI_API int xiri_is_valid(const char *s, size_t len,
                           enum xiri_profile profile);

/* ------------------------------------------------------------------ */
/* Resolution (RFC 3986 section 5.2, strict; IRIs per RFC 3987 6.5)    */

/* Resolve ref against base and recompose (section 5.3).  base must be an
 * absolute IRI (else XIRI_ENOTABS; its fragment is ignored); both are
 * parsed under the profile (XIRI_ESYNTAX with err->offset; err->message
 * says which of the two).  One documented guard: when the result has no
 * authority and its path starts with "//", the path is written "/.//..."
 * so that it does not re-parse as an authority (as WHATWG and uriparser
 * do; RFC 3986 leaves this case undefined). */
XIRI_API enum xiri_status xiri_resolve(const char *base, size_t base_len,
                                       const char *ref, size_t ref_len,
                                       enum xiri_profile profile, char **out,
                                       size_t *out_len,
                                       struct xiri_error *err);

/* ------------------------------------------------------------------ */
/* Context: options and the ICU objects for Unicode work               */

struct xiri_ctx; /* opaque; one per thread */

XIRI_API enum xiri_status xiri_ctx_new(struct xiri_ctx **out);
XIRI_API void xiri_ctx_free(struct xiri_ctx *ctx);

/* ------------------------------------------------------------------ */
/* Mapping IRI <-> URI (RFC 3987 sections 3.1 and 3.2)                  */

enum xiri_idn {
    /* to-uri: host non-ASCII as %HH of UTF-8 (RFC 3987 3.1 step 2).
     * to-iri: host escapes decoded like the rest. */
    XIRI_IDN_PERCENT = 0,
    /* to-uri: a reg-name with non-ASCII or %HH becomes IDNA ToASCII
     * (UTS #46 non-transitional, CheckBidi, CheckJoiners, STD3 rules);
     * failures are XIRI_EIDNA.  to-iri: xn-- labels are kept. */
    XIRI_IDN_PUNYCODE = 1,
    /* to-iri only: xn-- labels become Unicode (ToUnicode) when that is
     * error-free; in to-uri it behaves as XIRI_IDN_PUNYCODE. */
    XIRI_IDN_UNICODE = 2
};

/* Flags for xiri_to_uri(). */
#define XIRI_MAP_ESCAPE_LEIRI 0x1u /* escape space < > " { } | \ ^ ` and
                                      controls instead of failing on them */
#define XIRI_MAP_DNS_ONLY 0x2u     /* apply XIRI_IDN_PUNYCODE only to
                                      http, https, ftp, ws, wss hosts and
                                      mailto domains; others get %HH */

/* The string a browser parses as a URL from an HTML attribute value
 * (WHATWG URL Standard, basic URL parser): leading and trailing C0
 * controls and spaces removed, every ASCII tab, LF and CR removed, and,
 * in a special URL (its scheme, or without one base's, is
 * ftp, file, http, https, ws or wss), each '\' before the query or the
 * fragment read as '/', and, in a file URL, a Windows drive letter "C|"
 * where the host or the path's first segment stands read as "C:".  A
 * special URL other than file whose scheme is not followed by exactly
 * "//" is given as browsers read it against base: "http:foo" is "foo"
 * (relative) against an http base, "https:h/p" is "https://h/p" against
 * another, and "http:///h/p" or, against an http base, "///h/p" has the
 * host h.  A path segment "%2e" or "%2e%2e" (any case; ".%2e", "%2e.")
 * is a dot segment to browsers, and is given as "." or "..".  A file URL
 * keeps its drive letter as browsers keep it: ".." never removes it
 * ("file:///C:/.." is "file:///C:/"), a path reference against a file base
 * with a drive letter keeps that drive ("/z" against "file:///C:/w/" is
 * "/C:/z"), "//C:" has the drive in its path, "file:x" against a file base
 * is "x", and against another "file:///x"; and its host "localhost" is
 * the empty host ("file://localhost/x" is "file:///x").  The string is
 * then one whose RFC 3986 resolution against base gives what browsers
 * get.  base may be NULL (a relative reference is then not special).
 * *out is NUL-terminated; free it with xiri_str_free. */
XIRI_API enum xiri_status xiri_html_url(const char *value, size_t len,
                                        const char *base, char **out,
                                        size_t *out_len);

/* IRI to URI (RFC 3987 section 3.1): each character outside US-ASCII
 * becomes its UTF-8 octets written %HH with upper-case hex; everything
 * else, existing escapes included, is kept, so the mapping is the
 * identity on URIs and idempotent.  The characters that LEIRI adds make
 * it fail with XIRI_EFORBIDDEN (err->offset) unless
 * XIRI_MAP_ESCAPE_LEIRI.  Input that is not UTF-8 is XIRI_ESYNTAX.
 * ctx may be NULL unless idn is XIRI_IDN_PUNYCODE/UNICODE. */
XIRI_API enum xiri_status xiri_to_uri(struct xiri_ctx *ctx, const char *s,
                                      size_t len, enum xiri_idn idn,
                                      unsigned flags, char **out,
                                      size_t *out_len,
                                      struct xiri_error *err);

/* URI to IRI (RFC 3987 section 3.2): decode %HH sequences that form
 * strictly valid UTF-8 for characters allowed at their position
 * (ucschar; iprivate in the query only); never %25, reserved or ASCII
 * characters, bidi formatting characters (U+200E, U+200F, U+202A-202E)
 * or anything else; the kept escapes get upper-case hex.  Raw non-ASCII
 * input is kept.  ctx may be NULL unless idn is XIRI_IDN_UNICODE.
 * to_uri(to_iri(u)) is equivalent to u for every URI u. */
XIRI_API enum xiri_status xiri_to_iri(struct xiri_ctx *ctx, const char *s,
                                      size_t len, enum xiri_idn idn,
                                      char **out, size_t *out_len,
                                      struct xiri_error *err);

/* ------------------------------------------------------------------ */
/* Normalization and comparison (RFC 3986 section 6, RFC 3987 5.3)     */

enum xiri_rung {
    XIRI_RUNG_SIMPLE = 0, /* 5.3.1 simple string comparison */
    XIRI_RUNG_SYNTAX = 1, /* 5.3.2 case, %HH, unreserved/ucschar escapes,
                             dot segments */
    XIRI_RUNG_SCHEME = 2  /* 5.3.3 plus default ports and empty paths
                             for http, https, ws, wss, ftp, file */
};

#define XIRI_NORM_NFC 0x1u      /* also apply NFC (5.3.2.2); off by default */
#define XIRI_NORM_URI_FORM 0x2u /* result as a URI: decode only unreserved
                                   escapes, keep UTF-8 escapes */

/* Normalize a reference (parsed under the profile) to the rung. */
XIRI_API enum xiri_status xiri_normalize(struct xiri_ctx *ctx,
                                         const char *s, size_t len,
                                         enum xiri_profile profile,
                                         enum xiri_rung rung,
                                         unsigned flags, char **out,
                                         size_t *out_len,
                                         struct xiri_error *err);

/* *equal = 1 when a and b are equivalent at the rung, else 0. */
XIRI_API enum xiri_status xiri_compare(struct xiri_ctx *ctx, const char *a,
                                       size_t a_len, const char *b,
                                       size_t b_len,
                                       enum xiri_profile profile,
                                       enum xiri_rung rung, unsigned flags,
                                       int *equal, struct xiri_error *err);

/* ------------------------------------------------------------------ */
/* Checks                                                              */

enum xiri_severity {
    XIRI_SEV_NOTE = 0,
    XIRI_SEV_WARNING = 1,
    XIRI_SEV_ERROR = 2
};

/* "note", "warning", "error" */
XIRI_API const char *xiri_severity_name(enum xiri_severity sev);

/* One finding.  All pointers are valid only during the callback. */
struct xiri_diag {
    const char *code;            /* stable identifier, e.g. "not-nfc" */
    enum xiri_severity severity;
    size_t offset;               /* byte offset of the offending part */
    size_t length;               /* its length in bytes (may be 0) */
    uint32_t codepoint;          /* the offending character, or 0 */
    enum xiri_part part;         /* component, XIRI_PART_COUNT if none */
    const char *section;         /* spec reference, e.g. "RFC 3987 4.1" */
    const char *message;         /* English sentence: what and why */
};

/* Return 0 to continue, non-zero to stop the check (XIRI_OK is still
 * returned by xiri_check). */
typedef int xiri_diag_fn(void *user, const struct xiri_diag *diag);

/* Run every check on one reference under the profile and deliver each
 * finding, in offset order within each kind, to fn.  Grammar errors do
 * not stop the other checks.  Returns XIRI_OK unless something failed
 * (XIRI_ENOMEM, XIRI_EUNICODE); findings are not failures.  *worst (may
 * be NULL) receives the highest severity seen, or -1 when none.  Under
 * XIRI_PROFILE_HTML the C0 controls and spaces browsers remove around a
 * URL are taken off first (the first control on each side reported as a
 * control-around-url warning), and the authority is judged where browsers read
 * it (WHATWG URL: after any number of slashes, or none, after an http(s), ftp
 * or ws(s) scheme, after two of which one is '\' after file:, up to a '\', tabs
 * and newlines removed first), its findings placed in s as written; the
 * findings of such a value come in offset order (all kinds together; a value
 * with thousands, in three runs: before that authority, in it, after it).
 * Also under it: a URL without the host browsers need (a special scheme
 * other than file with none, "http://", "https:"; userinfo or a port and
 * no host in any scheme, "sc://@/"; WHATWG URL, authority and host
 * states), which browsers reject, is a host-missing error, before the
 * URL's other findings (without a base, only what fails whatever the base
 * is judged: "//" is not; xiri_check_link judges against its base). */
XIRI_API enum xiri_status xiri_check(struct xiri_ctx *ctx, const char *s,
                                     size_t len, enum xiri_profile profile,
                                     xiri_diag_fn *fn, void *user,
                                     int *worst);

/* The catalogue of codes, for "xiri explain". */
struct xiri_code_info {
    const char *code;
    enum xiri_severity severity; /* default severity */
    const char *section;         /* spec reference */
    const char *summary;         /* one line */
    const char *explanation;     /* a paragraph: what, why, what to do */
};

/* Look up a code; NULL when unknown. */
XIRI_API const struct xiri_code_info *xiri_code_lookup(const char *code);
/* The i-th catalogue entry, NULL past the end. */
XIRI_API const struct xiri_code_info *xiri_code_at(size_t i);

/* ------------------------------------------------------------------ */
/* Bidi display form (RFC 3987 section 4.1); for display only          */

enum xiri_display {
    XIRI_DISPLAY_LRE = 0,       /* LRE ... PDF around the whole IRI (4.1) */
    XIRI_DISPLAY_LRM_COMPONENT, /* LRM before and after each component
                                   holding right-to-left text (seed 001
                                   section 4.2) */
    XIRI_DISPLAY_LRM_RESERVED   /* LRM before and after each reserved
                                   character (seed 000 section 2.4) */
};

XIRI_API enum xiri_status xiri_display(struct xiri_ctx *ctx, const char *s,
                                       size_t len, enum xiri_display mode,
                                       char **out, size_t *out_len,
                                       struct xiri_error *err);

/* ------------------------------------------------------------------ */
/* Historical: the "zero-level domain" host encoding of Duerst's 1997    */
/* draft (seed 004).  Never used by default; IDNA replaced it.         */

/* Encode a UTF-8 host name: each label becomes one letter per 4-bit
 * group of its code points, and the name gets the ".i" suffix. */
XIRI_API enum xiri_status xiri_zld_encode(const char *s, size_t len,
                                          char **out, size_t *out_len,
                                          struct xiri_error *err);
/* The inverse; XIRI_ESYNTAX when s is not such an encoding. */
XIRI_API enum xiri_status xiri_zld_decode(const char *s, size_t len,
                                          char **out, size_t *out_len,
                                          struct xiri_error *err);

/* ------------------------------------------------------------------ */
/* The document pass: which attributes hold IRIs                       */

/* How a value holds its IRIs. */
enum xiri_shape {
    XIRI_SHAPE_IRI = 0,    /* the whole value is one IRI reference */
    XIRI_SHAPE_LIST,       /* IRIs separated by XML whitespace (xs:list of
                              xs:anyURI, HTML ping and archive, the pairs of
                              xsi:schemaLocation) */
    XIRI_SHAPE_SRCSET,     /* HTML srcset: comma-separated image candidates,
                              each an IRI and an optional descriptor */
    XIRI_SHAPE_REFRESH,    /* HTML <meta http-equiv=refresh content="N;
                              url=...">: the IRI after "url=" */
    XIRI_SHAPE_IDENTIFIER, /* one IRI that names rather than locates and
                              is compared as a string, character by
                              character (Atom id, RFC 4287 4.2.6; RSS
                              guid; a namespace name, Namespaces in XML
                              1.0 section 2.3): changing its characters,
                              even to an equivalent URI, makes it name
                              something else */
    XIRI_SHAPE_PAIRS,      /* a list read as pairs (xsi:schemaLocation, XSD
                              1.0 Part 1 2.6.3): items 0, 2, 4... are
                              namespace names (identifiers), items 1, 3,
                              5... the locations of their schemas */
    XIRI_SHAPE_RESOLVED_IDENTIFIER, /* an identifier that may be relative:
                           resolved against its base, then compared as a
                           string (RDF/XML's rdf:about, rdf:resource and
                           rdf:datatype, RDF 1.1 Concepts 3.2) */
    XIRI_SHAPE_HASH_NAME,    /* HTML usemap: a hash-name reference ("#name";
                                HTML LS, common microsyntaxes, "rules for
                                parsing a hash-name reference"): the text
                                after its first '#' is compared as a string
                                with a <map>'s name, "#caf%C3%A9" finds no
                                <map name="café">.  The whole value is the
                                item (nothing trimmed); an identifier that the
                                rewriter never changes, whatever its options
                                (xiri_link_resolve still gives RFC 3986's
                                reading, as for any identifier) */
    XIRI_SHAPE_KML_TEMPLATE, /* a KML href (OGC KML 2.2, 12.9.3.1): one IRI,
                                unless it holds the tokens of a
                                PhotoOverlay's image pyramid, $[level],
                                $[x] or $[y], which the viewer replaces:
                                such a template is no IRI, and the walker
                                reports it (kml-template, a note) instead
                                of a link; one that is not comes to
                                on_link as XIRI_SHAPE_IRI */
    XIRI_SHAPE_CSS,          /* CSS declarations or a CSS value (a style
                                attribute; an SVG presentation attribute,
                                fill="url(#g)"): the URL of each url() and
                                each string of an image-set(), found
                                as CSS Syntax Level 3 tokenizes the text
                                (not in comments or other strings).  A
                                url() written with a CSS escape ('\') or
                                that browsers drop (a "bad URL": white
                                space or a quote inside an unquoted one) is
                                reported by the walker (css-escape, a note;
                                css-bad-url, an error) instead of a link;
                                an empty one is none.  Element content of
                                this shape (a style element) is a style
                                sheet, whose @import strings are URLs too,
                                where browsers read the @import */
    XIRI_SHAPE_COUNT
};

/* "iri", "list", "srcset", "refresh", "identifier", "pairs",
 * "resolved-identifier", "hash-name", "kml-template", "css" */
XIRI_API const char *xiri_shape_name(enum xiri_shape shape);

struct xiri_registry; /* a set of IRI-valued attributes and elements */

XIRI_API enum xiri_status xiri_registry_new(struct xiri_registry **out);
XIRI_API void xiri_registry_free(struct xiri_registry *reg);

/* Register one attribute or element with simple content.
 *  element_ns: namespace IRI of the element, NULL for none.
 *  element:    local name, or "*" for any element (global attributes such
 *              as xml:base and xlink:href; "*" needs an attr), or "?" and
 *              a processing instruction's target (its pseudo-attribute
 *              attr, in the prolog; no namespaces, attr needed).
 *  attr_ns:    namespace IRI of the attribute, NULL for none (the usual
 *              case for attributes declared inside an element).
 *  attr:       local name, or NULL to mean the element's own content.
 * For HTML documents (which have no namespaces) the walker matches the
 * entries of the XHTML namespace by local name, ignoring ASCII case.
 * Registering the same entry twice keeps the first shape. */
XIRI_API enum xiri_status xiri_registry_add(struct xiri_registry *reg,
                                            const char *element_ns,
                                            const char *element,
                                            const char *attr_ns,
                                            const char *attr,
                                            enum xiri_shape shape);

/* Register from the command-line form '{NS}element@attr' ('{NS}' and
 * 'element' optional: '@href' is the no-namespace attribute href on any
 * element; '{NS}*@attr' on any element of NS; 'element' alone or
 * '{NS}element' is element content; '@{NS}attr' is a namespaced attribute
 * on any element; the prefix 'xml:' stands for the XML namespace;
 * '?target@name' is pseudo-attribute name of the processing instructions
 * of target in the prolog, reported as links of element "?target"; no
 * target "xml" or that is no Name).  An optional suffix '=SHAPE'
 * (xiri_shape_name's names: "iri", "list", "srcset"...) sets the shape,
 * "iri" by default; an entry registered before (by a preset, say) keeps
 * its shape.  XIRI_ESYNTAX with err (offset in spec). */
XIRI_API enum xiri_status xiri_registry_add_spec(struct xiri_registry *reg,
                                                 const char *spec,
                                                 struct xiri_error *err);

/* Learn every attribute and element whose type is xs:anyURI, a
 * restriction of it, a list of it or a union holding it, from an XML
 * Schema file and the local files it includes or imports (never from the
 * network: remote schemaLocations are skipped).  An annotation
 * <xiri:shape xmlns:xiri="urn:xiri:schema">srcset</xiri:shape> in the
 * xs:appinfo of a type or declaration gives its shape.  XIRI_EIO when a
 * file cannot be read, XIRI_EDOC when one is not well-formed or not a
 * schema, XIRI_ELIMIT past 64 nested includes or 256 files, with err
 * giving "FILE:LINE: reason".  On failure the registry is unchanged. */
XIRI_API enum xiri_status xiri_registry_load_schema(struct xiri_registry *reg,
                                                    const char *path,
                                                    struct xiri_error *err);

/* What xiri_registry_load_schema tells of a schema it could load but not
 * wholly: an xs:include, xs:redefine, xs:override or xs:import whose
 * schemaLocation is remote (http:, a file: URI of another host...), not
 * read since xiri never uses the network, so that what it declares is
 * unknown (imports of the XML and XLink namespaces, which the presets
 * xml and xlink cover, are not told).  message is "FILE:LINE: what and
 * what to do", valid during the call. */
typedef void xiri_registry_notice_fn(void *user, const char *message);

/* Set (fn NULL: clear) the notice callback of reg's schema loads. */
XIRI_API void xiri_registry_set_notice(struct xiri_registry *reg,
                                       xiri_registry_notice_fn *fn, void *user);

/* Load a preset by name (xiri_preset_at lists them: "html", "xhtml",
 * "xlink", ..., "pi"; or "all") from the
 * schema directory: each file from the first of $XIRI_SCHEMA_DIR (if
 * set) and the installed $(datadir)/xiri/schemas that holds it (the xiri
 * tool run from its build tree sets $XIRI_SCHEMA_DIR to the source
 * tree's schemas/).  XIRI_EINVAL for an unknown name. */
XIRI_API enum xiri_status xiri_registry_load_preset(struct xiri_registry *reg,
                                                    const char *name,
                                                    struct xiri_error *err);

/* The i-th preset's name and one-line description; NULL past the end
 * ("all" is not listed). */
XIRI_API const char *xiri_preset_at(size_t i, const char **description);

/* The number of entries registered. */
XIRI_API size_t xiri_registry_count(const struct xiri_registry *reg);

/* ------------------------------------------------------------------ */
/* The document pass: walking a document                               */

enum xiri_doc_type {
    XIRI_DOC_AUTO = 0, /* sniff the content (and the name) */
    XIRI_DOC_XML,
    XIRI_DOC_HTML
};

struct xiri_walk_options {
    enum xiri_doc_type type;
    const char *name;     /* file name for sniffing, or NULL */
    const char *base;     /* the document's base IRI (absolute), or NULL */
    const char *encoding; /* overrides every declaration, or NULL */
    size_t max_value;     /* longest value reported (bytes of UTF-8);
                             0 means the default, 1 MiB */
    /* Limits against hostile documents, each 0 for its default (xiri(1),
     * LIMITS); past one the walk stops with XIRI_ELIMIT. */
    size_t max_markup;              /* bytes of one construct held at once
                                       (a start tag, a comment, a run of
                                       text in HTML): 16 MiB */
    unsigned long max_depth;        /* element nesting: 512 */
    unsigned long max_attributes;   /* attributes written in one start
                                       tag: 1000 */
    unsigned long max_namespaces;   /* namespace declarations in scope:
                                       1000 */
    unsigned long max_default_attributes; /* attributes with a default
                                       value the DTD declares for one
                                       element: 100 */
    size_t max_entity_expansion;    /* bytes of entity replacement text
                                       read in one document (by libxml2
                                       at each reference, and by the
                                       walker in values): 64 MiB */
    int lazy_positions; /* non-zero: each link's line and column are left
                           0 (the place costs a count of the text up to
                           it), and xiri_walker_position gives the place
                           of any byte of the value on demand during the
                           callback; its offset and raw_length are set as
                           usual.  For a consumer that needs the place of
                           few links.  0 (the default): every link has
                           its line and column.  Under xiri_rewriter_new
                           an event's line and column are then set only
                           when it says something, and
                           xiri_rewriter_position gives the others. */
    int parse_thread;   /* non-zero: libxml2 parses the document (XML
                           once its root element has begun, HTML from
                           the start) on a thread of its own, the
                           walker's own work staying on the calling
                           thread: two CPUs share the work.  The links,
                           findings and results are the same, in the
                           same order, each reported before the
                           xiri_walker_feed (or _finish) whose text holds
                           it returns, on the calling thread.  The thread
                           lives as long as the walker.  0 (the
                           default): no thread. */
    int parse_ahead;    /* non-zero, with parse_thread: a feed may return
                           while the thread still parses the text it was
                           given, so that it parses on while the caller
                           reads the next bytes; the links and findings
                           of that text come during the next
                           xiri_walker_feed or _finish (the same, in the
                           same order, on the calling thread).  For a
                           caller that reads nothing of the walker
                           between two feeds; under xiri_rewriter_new,
                           what a feed writes stops before those links.
                           0 (the default): every feed returns with its
                           text's links reported. */
};

/* Fill opts with the defaults. */
XIRI_API void xiri_walk_options_init(struct xiri_walk_options *opts);

/* One IRI found in a document.  Valid only during the callback. */
struct xiri_link {
    const char *value;         /* as the document means it: references
                                  decoded, UTF-8; not NUL-terminated */
    size_t value_len;
    unsigned long line;        /* of the value's first character */
    unsigned long column;      /* counting characters from 1 */
    size_t offset;             /* byte offset of that character in the
                                  original document */
    size_t raw_length;         /* bytes the value takes there as written */
    const char *element;       /* local name */
    const char *element_ns;    /* namespace IRI, NULL for none */
    const char *attribute;     /* qualified name as written; NULL when the
                                  link is the element's content */
    const char *attribute_ns;  /* namespace IRI, NULL for none */
    const char *base;          /* the base IRI in force, NULL for none */
    enum xiri_shape shape;
    unsigned item;             /* index within a list-shaped value */
    enum xiri_profile profile; /* LEIRI in XML, HTML in HTML */
    char quote;                /* the attribute value's quote: '"' or
                                  '\'', or 0 when unquoted (HTML) or for
                                  element content */
    int in_cdata;              /* element content written as one CDATA
                                  section (XML 1.0 2.7): the span is the
                                  section's inside, whose characters stand
                                  for themselves (no references) */
    int has_markup;            /* the span holds markup that is not part
                                  of the value (a comment, a processing
                                  instruction, a CDATA section in element
                                  content), or the value has no span of
                                  its own (element content in an entity's
                                  replacement text, placed after the
                                  reference): it cannot be replaced whole */
    char item_quote;           /* XIRI_SHAPE_CSS: the quote of the string
                                  the URL is written in ('"' or
                                  '\''), 0 for an unquoted URL; 0 for
                                  every other shape */
    unsigned findings;         /* XIRI_LINK_* bits: what the walker found
                                  about this item itself (each also comes
                                  to xiri_doc_diag_fn as a finding); 0 in
                                  a link the caller made */
    int empty_tag;             /* element content written as an
                                  empty-element tag, <e/> (XML 1.0 3.1:
                                  the same as <e></e>): the value is
                                  empty, offset is the '/' of its "/>",
                                  raw_length 0, and no other value can be
                                  written in its place */
};

/* xiri_link.findings: the walker's findings about one item, which
 * xiri_check_link does not make (it sees the item alone).
 * XIRI_LINK_CONTROL_AROUND, control-around-url: a C0 control before or
 * after the URL; XIRI_LINK_SRCSET_DROPPED, srcset-dropped: browsers drop
 * the candidate (its descriptors); XIRI_LINK_SRCSET_INVALID,
 * srcset-invalid: browsers use it, HTML does not allow it;
 * XIRI_LINK_UNPAIRED, unpaired-namespace: the last item of a
 * XIRI_SHAPE_PAIRS value, with no location after it. */
#define XIRI_LINK_CONTROL_AROUND 0x1u
#define XIRI_LINK_SRCSET_DROPPED 0x2u
#define XIRI_LINK_SRCSET_INVALID 0x4u
#define XIRI_LINK_UNPAIRED 0x8u

/* Non-zero when the link is an identifier: a XIRI_SHAPE_IDENTIFIER,
 * XIRI_SHAPE_RESOLVED_IDENTIFIER or XIRI_SHAPE_HASH_NAME value, or a
 * namespace name of a XIRI_SHAPE_PAIRS value (an even item). */
XIRI_API int xiri_link_is_identifier(const struct xiri_link *link);

/* A finding about the document rather than one IRI: parse errors, bytes
 * invalid in the encoding, the encoding guessed, a base that is not
 * absolute, and findings about a whole attribute value (srcset
 * descriptors, an odd xsi:schemaLocation, a control around a URL).
 * Codes are stable like those of xiri_check. */
struct xiri_doc_diag {
    const char *code;
    enum xiri_severity severity;
    unsigned long line, column;
    size_t offset;
    const char *message;
    const char *value; /* the value it is about (decoded, UTF-8, not
                          NUL-terminated), or NULL for the document */
    size_t value_len;
    const char *element;   /* the value's element (local name) and */
    const char *attribute; /* attribute (as written), or NULL */
};

/* Return 0 to go on, non-zero to stop the walk (XIRI_ECANCELED). */
typedef int xiri_link_fn(void *user, const struct xiri_link *link);
typedef int xiri_doc_diag_fn(void *user, const struct xiri_doc_diag *diag);

struct xiri_walker; /* one document being walked; opaque */

/* Start walking one document.  ctx and reg are borrowed and must outlive
 * the walker; opts may be NULL for the defaults (strings are copied). */
XIRI_API enum xiri_status xiri_walker_new(struct xiri_ctx *ctx,
                                          const struct xiri_registry *reg,
                                          const struct xiri_walk_options *opts,
                                          xiri_link_fn *on_link,
                                          xiri_doc_diag_fn *on_diag,
                                          void *user,
                                          struct xiri_walker **out);

/* Feed the next bytes of the document, in any chunk sizes.  Links are
 * reported as soon as their element is complete (with parse_ahead, some
 * during the next feed or the finish).  XIRI_EDOC when the
 * document is not well-formed (err gives line, column and reason; the
 * walker is then finished), XIRI_ECANCELED when a callback stopped it. */
XIRI_API enum xiri_status xiri_walker_feed(struct xiri_walker *w,
                                           const void *data, size_t len,
                                           struct xiri_error *err);
/* Signal the end of the document. */
XIRI_API enum xiri_status xiri_walker_finish(struct xiri_walker *w,
                                             struct xiri_error *err);
XIRI_API void xiri_walker_free(struct xiri_walker *w);

/* What the walker learnt about the document (valid until freed): the
 * type, and the encoding it decoded with and whether that was a guess. */
XIRI_API enum xiri_doc_type xiri_walker_type(const struct xiri_walker *w);
XIRI_API const char *xiri_walker_encoding(const struct xiri_walker *w,
                                          int *guessed);

/* The encoding browsers write a URL's query in, in a document decoded
 * with the encoding named label (xiri_walker_encoding): the WHATWG
 * Encoding Standard's name ("windows-1252" for "ISO-8859-1" and
 * "US-ASCII"), "UTF-8" for UTF-16 and every other Unicode encoding; any
 * other label ICU knows as it is; NULL for a label it does not know. */
XIRI_API const char *xiri_query_encoding(const char *label);

/* Where byte off of link->value (0 to value_len) is in the document: its
 * line, column (counting characters from 1) and byte offset, as the link
 * gives them for its first byte; the text as written is counted, so a
 * character written as a reference ("&#233;") spans its six columns and
 * the place is that of its '&'.  Only while on_link is given link (or
 * a copy of it; so also inside xiri_check_link's callback): XIRI_EINVAL
 * for another link.
 * When the text of the value cannot be matched to the value (the link's
 * raw_length is 0), the line and column count the value's characters
 * from its start, and the offset stays the value's. */
XIRI_API enum xiri_status xiri_walker_position(struct xiri_walker *w,
                                               const struct xiri_link *link,
                                               size_t off,
                                               unsigned long *line,
                                               unsigned long *column,
                                               size_t *offset);

/* Run xiri_check on one link (under link->profile) plus the checks that
 * need the document: a relative reference with no base; in a document
 * whose encoding is not UTF-8, a query of a special-scheme URL whose
 * UTF-8 form differs from what browsers send (WHATWG URL: a link of HTML,
 * of an XHTML or SVG element of a document whose root element is XHTML's
 * or SVG's, or an xml-stylesheet href; with w NULL, any XHTML or SVG
 * element's); a U+FFFD that
 * stands for bytes invalid in the document's encoding.  A link of shape
 * XIRI_SHAPE_HASH_NAME (an HTML usemap) is no URL: instead of xiri_check,
 * its own rule (invalid-hash-name), and the checks of the document's
 * bytes.  Offsets in the diagnostics are relative to link->value. */
XIRI_API enum xiri_status xiri_check_link(struct xiri_ctx *ctx,
                                          const struct xiri_walker *w,
                                          const struct xiri_link *link,
                                          xiri_diag_fn *fn, void *user,
                                          int *worst);

/* The absolute IRI link points to, as the readers of its document
 * resolve it: RFC 3986 section 5.2 (RFC 3987 6.5) against link->base; a
 * reference with a scheme is its own target, its dot segments removed.
 * Under the html profile, what browsers get (WHATWG URL, basic URL
 * parser; xiri_html_url): leading and trailing C0 controls and spaces,
 * tabs and newlines removed, '\' read as '/', "%2e" segments as dot
 * segments, a file URL's drive letter kept, and an opaque path
 * ("data:,a/../b", "mailto:x") kept as written.  XIRI_ENOTABS for a
 * relative link without a base; XIRI_ESYNTAX when the value (or the base)
 * is not a reference under the profile, and, under the html profile, when
 * browsers fail to parse it (a relative reference against a base with an
 * opaque path; no host where one is needed, or userinfo or a port without
 * one; a host they cannot parse, by their IDNA too; a bad port),
 * err->message saying which.  *out is
 * NUL-terminated; free it with xiri_str_free. */
XIRI_API enum xiri_status xiri_link_resolve(struct xiri_ctx *ctx,
                                            const struct xiri_link *link,
                                            char **out, size_t *out_len,
                                            struct xiri_error *err);

/* ------------------------------------------------------------------ */
/* The rewriter: the document again, with only its link values changed  */

enum xiri_rewrite_to {
    XIRI_REWRITE_URI = 0, /* RFC 3987 3.1: escaped URIs, for legacy
                             consumers */
    XIRI_REWRITE_IRI = 1  /* RFC 3987 3.2: readable IRIs where safe */
};

enum xiri_rewrite_idn {
    XIRI_REWRITE_IDN_PUNYCODE = 0, /* to URI: ToASCII for the hosts of DNS
                                      schemes (http, https, ftp, ws, wss,
                                      mailto domains), %HH elsewhere; to
                                      IRI: xn-- labels kept */
    XIRI_REWRITE_IDN_PERCENT,      /* to URI: hosts as %HH like the rest */
    XIRI_REWRITE_IDN_KEEP,         /* hosts left exactly as written */
    XIRI_REWRITE_IDN_UNICODE       /* to IRI: xn-- labels as Unicode */
};

struct xiri_rewrite_options {
    enum xiri_rewrite_to to;
    enum xiri_rewrite_idn idn;
    int resolve;    /* also make every reference absolute against its base */
    int query_utf8; /* in HTML whose encoding is not UTF-8 (and the
                       links of XML that browsers send so: see
                       xiri_check_link), the query of
                       http, https, ftp and file URLs: to URI, write it as
                       RFC 3987's UTF-8 instead of in the document's
                       encoding (what browsers send, the default); to IRI,
                       decode its escapes as UTF-8 instead of keeping them
                       (they are the document's encoding by default) */
    int repair;     /* first undo the damage the mojibake and double-pct
                       findings report: UTF-8 read as windows-1252 (as text
                       or escaped) back to UTF-8, an escape escaped twice
                       back to one escape */
    int identifiers; /* also rewrite identifiers (xiri_link_is_identifier):
                        by default they are left exactly as written, and
                        one that would have changed is told by a note;
                        never an HTML usemap (XIRI_SHAPE_HASH_NAME),
                        which no other spelling keeps working */
};

XIRI_API void xiri_rewrite_options_init(struct xiri_rewrite_options *o);

/* What happened to one link, delivered after its new value (if any) was
 * written.  Valid only during the callback. */
struct xiri_rewrite_event {
    const struct xiri_link *link;
    const char *new_value;  /* the value written (UTF-8, before escaping
                               for the document); NULL when the value was
                               left as it was */
    size_t new_len;
    enum xiri_status status; /* XIRI_OK, or why the value could not be
                                mapped (it is then left as it was) */
    const char *message;    /* the reason, or a note; NULL when none */
    int query_differs;      /* the document-encoding and UTF-8 forms of
                               the query differ (see query_utf8) */
    size_t written;         /* bytes written in place of the link's
                               link->raw_length original bytes (0 when
                               unchanged) */
    int identifier_kept;    /* an identifier that would have changed was
                               left as it was (opts.identifiers is 0);
                               status is XIRI_OK and message says why */
    unsigned long line;     /* where the message points: the character it
                               is about when it is about one of the value
                               (as xiri_walker_position places it), else
                               the link's line and column; 0 under
                               lazy_positions for an event that says
                               nothing (xiri_rewriter_position) */
    unsigned long column;
};

typedef int xiri_rewrite_fn(void *user, const struct xiri_rewrite_event *ev);
/* Write output bytes; return 0, or non-zero to stop (XIRI_EIO). */
typedef int xiri_write_fn(void *user, const void *data, size_t len);

struct xiri_rewriter; /* opaque */

/* Rewrite one document: every byte outside the changed link values is
 * written as it came, in the document's encoding; a changed value keeps
 * its quote and is escaped for it (&amp; &lt; &quot; &#39;), and
 * characters the encoding lacks become numeric character references.
 * Output goes to write_fn as the document is fed (memory does not grow
 * with its size); when feed or finish fails, what was written is
 * incomplete and must be thrown away.  A value holding U+FFFD (bytes the
 * encoding did not define) is never rewritten, and a document holding
 * NUL characters is not rewritten at all (XIRI_EDOC).  On_event and
 * on_diag may be NULL. */
XIRI_API enum xiri_status xiri_rewriter_new(
    struct xiri_ctx *ctx, const struct xiri_registry *reg,
    const struct xiri_walk_options *walk_opts,
    const struct xiri_rewrite_options *opts, xiri_write_fn *write_fn,
    xiri_rewrite_fn *on_event, xiri_doc_diag_fn *on_diag, void *user,
    struct xiri_rewriter **out);
XIRI_API enum xiri_status xiri_rewriter_feed(struct xiri_rewriter *rw,
                                             const void *data, size_t len,
                                             struct xiri_error *err);
XIRI_API enum xiri_status xiri_rewriter_finish(struct xiri_rewriter *rw,
                                               struct xiri_error *err);
XIRI_API void xiri_rewriter_free(struct xiri_rewriter *rw);
/* The walker underneath (for xiri_walker_encoding, xiri_check_link). */
XIRI_API const struct xiri_walker *
xiri_rewriter_walker(const struct xiri_rewriter *rw);
/* xiri_walker_position on the walker underneath, for the link of the
 * event on_event is given: with walk_opts->lazy_positions, the place of a
 * link whose event has no line. */
XIRI_API enum xiri_status
xiri_rewriter_position(struct xiri_rewriter *rw, const struct xiri_link *link,
                       size_t off, unsigned long *line, unsigned long *column,
                       size_t *offset);

#ifdef __cplusplus
}
#endif
#endif /* XIRI_H */

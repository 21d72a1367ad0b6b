/* shapes.c - splitting an attribute value into the IRIs it holds: one IRI,
 * a whitespace-separated list, an HTML srcset, an HTML meta refresh (see
 * shapes.h for the contract of each shape); which of them are identifiers
 * rather than locations. */
#include "common.h"
#include "shapes.h"
#include "chars.h"
#include "cssurl.h"

/* XML 1.0 section 2.3 S: space, tab, CR, LF (the whitespace XSD's
 * whiteSpace facet and list types work with). */
static bool shape_is_xml_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* HTML Living Standard (Infra) "ASCII whitespace"; the srcset and
 * refresh algorithms use it. */
static bool shape_is_ascii_space(char c)
{
    return ch_is_ascii_space((unsigned char)c);
}

static size_t shape_skip_ascii_space(const char *v, size_t n, size_t i)
{
    while (i < n && shape_is_ascii_space(v[i]))
        i++;
    return i;
}

/* One item: returns true when the callback asked to stop. */
static bool shape_emit(shape_item_fn *fn, void *user, size_t start, size_t len,
                       unsigned *count)
{
    return fn(user, start, len, (*count)++) != 0;
}

/* XIRI_SHAPE_IRI: XSD 1.0 part 2 section 3.2.17 (anyURI has whiteSpace
 * "collapse", 4.3.6), and the HTML Living Standard's "parse a URL" after
 * "strip leading and trailing ASCII whitespace": the value without its
 * leading and trailing XML whitespace, always one item (an empty
 * reference is a same-document reference, RFC 3986 4.4). */
static unsigned shape_iri(const char *v, size_t n, shape_item_fn *fn,
                          void *user)
{
    size_t start = 0, end = n;
    unsigned count = 0;

    while (start < end && shape_is_xml_space(v[start]))
        start++;
    while (end > start && shape_is_xml_space(v[end - 1]))
        end--;
    shape_emit(fn, user, start, end - start, &count);
    return count;
}

/* XIRI_SHAPE_LIST: XSD 1.0 part 2 section 3.3.1.3 (the lexical space of a
 * list is its items separated by whitespace, whiteSpace "collapse"), and
 * HTML "split a string on ASCII whitespace" for ping and archive: every
 * run of non-whitespace is an item; a blank value has none. */
static unsigned shape_list(const char *v, size_t n, shape_item_fn *fn,
                           void *user)
{
    size_t i = 0, start;
    unsigned count = 0;

    for (;;) {
        while (i < n && shape_is_xml_space(v[i]))
            i++;
        if (i == n)
            break;
        start = i;
        while (i < n && !shape_is_xml_space(v[i]))
            i++;
        if (shape_emit(fn, user, start, i - start, &count))
            break;
    }
    return count;
}

/* The descriptor tokenizer of "parse a srcset attribute" (HTML Living
 * Standard, images section), from v[i]: states "in descriptor", "in
 * parens" and "after descriptor" only differ in where a descriptor ends,
 * and descriptors are not reported, so what remains is: '(' outside
 * parentheses opens them, ')' inside closes them, a ',' outside them ends
 * the candidate (and is consumed), end of input ends everything.  Returns
 * the position after the candidate. */
static size_t shape_srcset_skip_descriptors(const char *v, size_t n, size_t i)
{
    bool parens = false;

    for (; i < n; i++) {
        char c = v[i];

        if (parens) {
            if (c == ')') /* "in parens" state: ')' */
                parens = false;
        } else if (c == '(') { /* "in descriptor" state: '(' */
            parens = true;
        } else if (c == ',') { /* "in descriptor": ',' ends it */
            return i + 1;
        }
        /* whitespace only separates descriptors ("after descriptor"
         * reconsumes anything else "in descriptor") */
    }
    return n;
}

/* XIRI_SHAPE_SRCSET: HTML Living Standard, "parse a srcset attribute".
 * Every image candidate's URL is an item.  The descriptor parser that
 * follows the tokenizer in the standard may drop a candidate whose
 * descriptors are invalid ("1x 2x", "foo"); its URL is still reported
 * here: the author wrote it, and it is a link to check. */
static unsigned shape_srcset(const char *v, size_t n, shape_item_fn *fn,
                             void *user)
{
    size_t i = 0, start, end;
    unsigned count = 0;

    for (;;) {
        /* step "splitting loop": collect ASCII whitespace and commas */
        while (i < n && (shape_is_ascii_space(v[i]) || v[i] == ','))
            i++;
        if (i == n)
            break; /* past the end: return the candidates */
        /* collect a sequence of code points that are not ASCII
         * whitespace: the URL */
        start = i;
        while (i < n && !shape_is_ascii_space(v[i]))
            i++;
        end = i;
        if (v[end - 1] == ',') {
            /* the URL ends with ',': remove all trailing commas; no
             * descriptors are parsed for this candidate */
            while (end > start && v[end - 1] == ',')
                end--;
        } else {
            /* descriptor tokenizer: skip ASCII whitespace, then the
             * descriptors up to a ',' outside parentheses */
            i = shape_skip_ascii_space(v, n, i);
            i = shape_srcset_skip_descriptors(v, n, i);
        }
        /* start is neither whitespace nor ',', so end > start */
        if (shape_emit(fn, user, start, end - start, &count))
            break;
    }
    return count;
}

static bool shape_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* XIRI_SHAPE_REFRESH: HTML Living Standard, "shared declarative refresh
 * steps" (used by <meta http-equiv="refresh"> and the Refresh header):
 * the urlString of steps 11.1-11.10, or no item when the steps return
 * before there is one.  The URL parser strips leading and trailing C0
 * controls and space (WHATWG URL 4.4, basic URL parser step 1); here the
 * item leaves out the trailing ASCII whitespace. */
static unsigned shape_refresh(const char *v, size_t n, shape_item_fn *fn,
                              void *user)
{
    size_t i, start, end;
    unsigned count = 0;
    char quote = 0;

    /* 3: skip ASCII whitespace */
    i = shape_skip_ascii_space(v, n, 0);
    /* 5-7: timeString, a sequence of ASCII digits; when empty, the next
     * code point must be '.' */
    start = i;
    while (i < n && shape_is_digit(v[i]))
        i++;
    if (i == start && (i == n || v[i] != '.'))
        return 0;
    /* 8: collect (and ignore) ASCII digits and '.' */
    while (i < n && (shape_is_digit(v[i]) || v[i] == '.'))
        i++;
    /* 10: a separator: 10.1 it must be ';', ',' or ASCII whitespace;
     * 10.2 skip whitespace; 10.3 one ';' or ','; 10.4 skip whitespace */
    if (i < n) {
        if (v[i] != ';' && v[i] != ',' && !shape_is_ascii_space(v[i]))
            return 0;
        i = shape_skip_ascii_space(v, n, i);
        if (i < n && (v[i] == ';' || v[i] == ','))
            i++;
        i = shape_skip_ascii_space(v, n, i);
    }
    /* 11: no URL when position is past the end */
    if (i == n)
        return 0;
    start = i; /* 11.1: urlString is the remainder from here */
    /* 11.2-11.4: "url", case-insensitively; a mismatch jumps to "parse"
     * with the urlString of 11.1 */
    if (v[i] != 'U' && v[i] != 'u')
        goto skip_quotes;
    i++;
    if (i == n || (v[i] != 'R' && v[i] != 'r'))
        goto parse;
    i++;
    if (i == n || (v[i] != 'L' && v[i] != 'l'))
        goto parse;
    i++;
    i = shape_skip_ascii_space(v, n, i); /* 11.5 */
    if (i == n || v[i] != '=')
        goto parse; /* 11.6 */
    i++;
    i = shape_skip_ascii_space(v, n, i); /* 11.7 */
skip_quotes:
    /* 11.8: an optional quote */
    if (i < n && (v[i] == '\'' || v[i] == '"'))
        quote = v[i++];
    /* 11.9: urlString is the rest */
    start = i;
parse:
    end = n;
    /* 11.10: a quote ends the URL at its match, if there is one */
    if (quote) {
        const char *q = memchr(v + start, quote, n - start);
        if (q)
            end = (size_t)(q - v);
    }
    while (end > start && shape_is_ascii_space(v[end - 1]))
        end--;
    /* 11.11 parses urlString even when it is empty (the document's own
     * URL): an empty item */
    shape_emit(fn, user, start, end - start, &count);
    return count;
}

/* XIRI_SHAPE_HASH_NAME: HTML LS, "rules for parsing a hash-name
 * reference" take the value as it is, nothing stripped ("#m " names the
 * map "m "): one item, the whole value, n bytes. */
static unsigned shape_whole(size_t n, shape_item_fn *fn, void *user)
{
    unsigned count = 0;

    shape_emit(fn, user, 0, n, &count);
    return count;
}

/* XIRI_SHAPE_CSS: the URL of each url() (cssurl.h) written without an
 * escape and not bad, without the ASCII white space around it (the URL
 * parser strips it: WHATWG URL, basic URL parser, and HTML's attributes
 * do); an empty one is none (CSS Values and Units 4, 4.5.1.1: "url()"
 * and url("") refer to no resource).  sheet: a style sheet, where an
 * @import's string is a URL too. */
unsigned shape_split_css(const char *v, size_t n, bool sheet, shape_item_fn *fn,
                         void *user)
{
    size_t start, end;
    struct css_scan scan;
    struct css_url u;
    unsigned count = 0;

    css_scan_init(&scan, sheet);
    while (css_url_next(v, n, &scan, &u)) {
        if (u.kind != CSS_URL_OK)
            continue;
        start = shape_skip_ascii_space(v, u.start + u.len, u.start);
        for (end = u.start + u.len;
             end > start && shape_is_ascii_space(v[end - 1]); end--)
            ;
        if (end > start && shape_emit(fn, user, start, end - start, &count))
            break;
    }
    return count;
}

unsigned shape_split(enum xiri_shape shape, const char *v, size_t n,
                     shape_item_fn *fn, void *user)
{
    if (!v) {
        v = "";
        n = 0;
    }
    switch (shape) {
    case XIRI_SHAPE_LIST:
    case XIRI_SHAPE_PAIRS: /* a list whose items are read in pairs */
        return shape_list(v, n, fn, user);
    case XIRI_SHAPE_SRCSET:
        return shape_srcset(v, n, fn, user);
    case XIRI_SHAPE_REFRESH:
        return shape_refresh(v, n, fn, user);
    case XIRI_SHAPE_HASH_NAME:
        return shape_whole(n, fn, user);
    case XIRI_SHAPE_CSS:
        return shape_split_css(v, n, false, fn, user);
    case XIRI_SHAPE_IRI:
    case XIRI_SHAPE_IDENTIFIER:
    case XIRI_SHAPE_RESOLVED_IDENTIFIER:
    case XIRI_SHAPE_KML_TEMPLATE: /* (a template never gets here: walk.c) */
    default:
        return shape_iri(v, n, fn, user);
    }
}

/* Identifiers are compared as strings: an Atom id character by character
 * (RFC 4287 4.2.6.1), a namespace name likewise (Namespaces in XML 1.0
 * section 2.3), so are the first of each pair of xsi:schemaLocation (XSD
 * 1.0 Part 1 2.6.3: "the first member of each pair is a namespace
 * name"), an RDF IRI once resolved (RDF 1.1 Concepts 3.2: two IRIs are
 * the same node only when equal as strings), and an HTML usemap's name
 * (HTML LS, "rules for parsing a hash-name reference"). */
int xiri_link_is_identifier(const struct xiri_link *link)
{
    if (!link)
        return 0;
    return link->shape == XIRI_SHAPE_IDENTIFIER ||
           link->shape == XIRI_SHAPE_RESOLVED_IDENTIFIER ||
           link->shape == XIRI_SHAPE_HASH_NAME ||
           (link->shape == XIRI_SHAPE_PAIRS && link->item % 2 == 0);
}

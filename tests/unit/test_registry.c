/* test_registry.c - the registry of IRI-valued attributes and elements:
 * the '{NS}element@attr' form, lookups (exact, '{NS}*', '*', HTML by
 * local name in any case), the XSD reader against the schemas in
 * tests/data/xsd (each with the exact set of entries it must register,
 * derived by hand from the schema), its errors and limits, the presets,
 * and allocation failure. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/globals.h>
#include <libxml/xmlerror.h>

#include "common.h"
#include "mem.h"
#include "registry.h"

#include "helpers.h"
#include "suites.h"

#define XML_NS "http://www.w3.org/XML/1998/namespace"
#define XLINK_NS "http://www.w3.org/1999/xlink"
#define SVG_NS "http://www.w3.org/2000/svg"
#define ATOM_NS "http://www.w3.org/2005/Atom"
#define ATOM03_NS "http://purl.org/atom/ns#"
#define USERLAND_NS "http://backend.userland.com/rss2"
#define RSS090_NS "http://my.netscape.com/rdf/simple/0.9/"
#define WFW_NS "http://wellformedweb.org/CommentAPI/"
#define MRSS_NS "http://search.yahoo.com/mrss/"
#define MRSS0_NS "http://search.yahoo.com/mrss"
#define ITUNES_NS "http://www.itunes.com/dtds/podcast-1.0.dtd"
#define OPF_NS "http://www.idpf.org/2007/opf"
#define KML_NS "http://www.opengis.net/kml/2.2"
#define KML21_NS "http://earth.google.com/kml/2.1"
#define GPX_NS "http://www.topografix.com/GPX/1/1"
#define GPX10_NS "http://www.topografix.com/GPX/1/0"
#define RSS1_NS "http://purl.org/rss/1.0/"
#define RDF_NS "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"
#define XS_NS "http://www.w3.org/2001/XMLSchema"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* One entry as text: "{ens}elem@{ans}attr=shape", or "{ens}elem=shape"
 * for content. */
static void entry_text(const struct registry_entry *e, char *out, size_t n)
{
    if (e->attr)
        snprintf(out, n, "{%s}%s@{%s}%s=%s", e->element_ns ? e->element_ns : "",
                 e->element, e->attr_ns ? e->attr_ns : "", e->attr,
                 xiri_shape_name(e->shape));
    else
        snprintf(out, n, "{%s}%s=%s", e->element_ns ? e->element_ns : "",
                 e->element, xiri_shape_name(e->shape));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The registry holds exactly the entries of want (any order). */
static void check_entries(const char *what, const struct xiri_registry *reg,
                          const char *const *want, size_t nwant)
{
    size_t n = xiri_registry_count(reg), i, j;
    char **got, **exp;
    struct registry_entry e;
    char buf[512];
    int bad = 0;

    got = calloc(n + 1, sizeof(*got));
    exp = calloc(nwant + 1, sizeof(*exp));
    if (!got || !exp) {
        free(got);
        free(exp);
        CU_FAIL("calloc");
        return;
    }
    for (i = 0; i < n; i++) {
        if (!registry_entry_at(reg, i, &e)) {
            TEST_FAIL("%s: entry %zu missing", what, i);
            break;
        }
        entry_text(&e, buf, sizeof(buf));
        got[i] = strdup(buf);
    }
    for (i = 0; i < nwant; i++)
        exp[i] = strdup(want[i]);
    qsort(got, n, sizeof(*got), cmp_str);
    qsort(exp, nwant, sizeof(*exp), cmp_str);
    /* A merge of the two sorted lists names every difference. */
    for (i = j = 0; i < n || j < nwant;) {
        int c = i == n ? 1 : j == nwant ? -1 : strcmp(got[i], exp[j]);
        if (c == 0) {
            i++;
            j++;
        } else if (c < 0) {
            TEST_FAIL("%s: unexpected entry %s", what, got[i++]);
            bad++;
        } else {
            TEST_FAIL("%s: missing entry %s", what, exp[j++]);
            bad++;
        }
    }
    if (!bad)
        CU_PASS("entries");
    for (i = 0; i < n; i++)
        free(got[i]);
    for (i = 0; i < nwant; i++)
        free(exp[i]);
    free(got);
    free(exp);
}

/* Load a schema from tests/data/xsd into a new registry and compare. */
static void check_schema(const char *file, const char *const *want,
                         size_t nwant)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    char path[64];
    enum xiri_status st;

    snprintf(path, sizeof(path), "xsd/%s", file);
    memset(&err, 0, sizeof(err));
    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("registry_new");
        return;
    }
    st = xiri_registry_load_schema(reg, test_data_path(path), &err);
    if (st != XIRI_OK)
        TEST_FAIL("%s: %s: %s", file, xiri_strerror(st), err.message);
    else
        check_entries(file, reg, want, nwant);
    xiri_registry_free(reg);
}

/* Expect a failure of status want whose message holds each of the
 * NULL-terminated fragments. */
static void check_error(const char *what, enum xiri_status st,
                        const struct xiri_error *err, enum xiri_status want,
                        const char *const *frags)
{
    if (st != want) {
        TEST_FAIL("%s: %s (%s), want %s", what, xiri_strerror(st), err->message,
                  xiri_strerror(want));
        return;
    }
    for (; *frags; frags++)
        if (!strstr(err->message, *frags))
            TEST_FAIL("%s: message \"%s\" lacks \"%s\"", what, err->message,
                      *frags);
    CU_PASS("error");
}

static int find_attr(const struct xiri_registry *reg, const char *ens,
                     const char *el, const char *ans, const char *at, bool html)
{
    enum xiri_shape s = XIRI_SHAPE_COUNT;

    if (!registry_find_attr(reg, ens, el, ans, at, html, &s))
        return -1;
    return (int)s;
}

static int find_content(const struct xiri_registry *reg, const char *ens,
                        const char *el, bool html)
{
    enum xiri_shape s = XIRI_SHAPE_COUNT;

    if (!registry_find_content(reg, ens, el, html, &s))
        return -1;
    return (int)s;
}

/* ------------------------------------------------------------------ */
/* Shapes, add, add_spec                                               */

static void test_shape_names(void)
{
    static const char *const names[] = {"iri",
                                        "list",
                                        "srcset",
                                        "refresh",
                                        "identifier",
                                        "pairs",
                                        "resolved-identifier",
                                        "hash-name",
                                        "kml-template",
                                        "css"};
    enum xiri_shape s;
    size_t i;

    CU_ASSERT_EQUAL(XIRI_SHAPE_COUNT, 10);
    for (i = 0; i < 10; i++) {
        TEST_STR_EQ("shape name", xiri_shape_name((enum xiri_shape)i),
                    names[i]);
        CU_ASSERT(registry_shape_from_name(names[i], strlen(names[i]), &s));
        CU_ASSERT_EQUAL(s, (enum xiri_shape)i);
    }
    TEST_STR_EQ("bad shape", xiri_shape_name(XIRI_SHAPE_COUNT), "unknown");
    CU_ASSERT(!registry_shape_from_name("IRI", 3, &s));
    CU_ASSERT(!registry_shape_from_name("iris", 4, &s));
    CU_ASSERT(!registry_shape_from_name("ir", 2, &s));
}

static void test_add(void)
{
    struct xiri_registry *reg = NULL;

    CU_ASSERT_EQUAL(xiri_registry_new(NULL), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_count(NULL), 0);
    xiri_registry_free(NULL);
    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 0);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "a", NULL, "href", false), -1);
    CU_ASSERT_EQUAL(find_content(reg, NULL, "a", false), -1);
    /* Bad arguments. */
    CU_ASSERT_EQUAL(xiri_registry_add(NULL, NULL, "a", NULL, "b", 0),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_add(reg, NULL, NULL, NULL, "b", 0),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_add(reg, NULL, "", NULL, "b", 0),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_add(reg, NULL, "a", NULL, "", 0),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(
        xiri_registry_add(reg, NULL, "a", NULL, "b", XIRI_SHAPE_COUNT),
        XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_add(reg, NULL, "*", NULL, NULL, 0),
                    XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 0);

    /* The first registration keeps its shape. */
    CU_ASSERT_EQUAL(
        xiri_registry_add(reg, "urn:e", "e", NULL, "a", XIRI_SHAPE_LIST),
        XIRI_OK);
    CU_ASSERT_EQUAL(
        xiri_registry_add(reg, "urn:e", "e", NULL, "a", XIRI_SHAPE_IRI),
        XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 1);
    CU_ASSERT_EQUAL(find_attr(reg, "urn:e", "e", NULL, "a", false),
                    XIRI_SHAPE_LIST);
    /* "" is no namespace, on both sides. */
    CU_ASSERT_EQUAL(xiri_registry_add(reg, "", "f", "", "b", XIRI_SHAPE_IRI),
                    XIRI_OK);
    CU_ASSERT_EQUAL(
        xiri_registry_add(reg, NULL, "f", NULL, "b", XIRI_SHAPE_LIST), XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 2);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "f", NULL, "b", false),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, "", "f", "", "b", false), XIRI_SHAPE_IRI);
    /* Attribute, content and namespaces are all part of the key. */
    CU_ASSERT_EQUAL(find_content(reg, NULL, "f", false), -1);
    CU_ASSERT_EQUAL(find_attr(reg, "urn:e", "f", NULL, "b", false), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "f", "urn:e", "b", false), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "F", NULL, "b", false), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "f", NULL, "B", false), -1);
    CU_ASSERT_EQUAL(
        xiri_registry_add(reg, NULL, "f", NULL, NULL, XIRI_SHAPE_IRI), XIRI_OK);
    CU_ASSERT_EQUAL(find_content(reg, NULL, "f", false), XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_content(reg, "", "f", false), XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_content(reg, "urn:e", "f", false), -1);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 3);
    /* Lookups with missing names. */
    CU_ASSERT(!registry_find_attr(reg, NULL, NULL, NULL, "b", false, NULL));
    CU_ASSERT(!registry_find_attr(reg, NULL, "f", NULL, NULL, false, NULL));
    CU_ASSERT(registry_find_attr(reg, NULL, "f", NULL, "b", false, NULL));
    CU_ASSERT(!registry_find_content(NULL, NULL, "f", false, NULL));
    xiri_registry_free(reg);
}

struct spec_case {
    const char *spec;
    /* On success: the one entry registered. */
    const char *entry;
    /* On failure: status, offset and a fragment of the message. */
    enum xiri_status st;
    size_t offset;
    const char *frag;
};

static const struct spec_case spec_cases[] = {
    {"{urn:x}el@attr", "{urn:x}el@{}attr=iri", XIRI_OK, 0, NULL},
    {"el@attr", "{}el@{}attr=iri", XIRI_OK, 0, NULL},
    {"@href", "{}*@{}href=iri", XIRI_OK, 0, NULL},
    {"@{urn:x}a", "{}*@{urn:x}a=iri", XIRI_OK, 0, NULL},
    {"{urn:x}el", "{urn:x}el=iri", XIRI_OK, 0, NULL},
    {"el", "{}el=iri", XIRI_OK, 0, NULL},
    {"{}el@a", "{}el@{}a=iri", XIRI_OK, 0, NULL},
    {"{urn:x}*@a", "{urn:x}*@{}a=iri", XIRI_OK, 0, NULL},
    {"{urn:x}e@{urn:y}a", "{urn:x}e@{urn:y}a=iri", XIRI_OK, 0, NULL},
    /* Namespaces in XML 1.0 section 3: the "xml" prefix is bound. */
    {"@xml:base", "{}*@{" XML_NS "}base=iri", XIRI_OK, 0, NULL},
    {"xml:e", "{" XML_NS "}e=iri", XIRI_OK, 0, NULL},
    /* The '=SHAPE' suffix. */
    {"img@data-srcset=srcset", "{}img@{}data-srcset=srcset", XIRI_OK, 0, NULL},
    {"a@ping=list", "{}a@{}ping=list", XIRI_OK, 0, NULL},
    {"meta@content=refresh", "{}meta@{}content=refresh", XIRI_OK, 0, NULL},
    {"{urn:a}entry=identifier", "{urn:a}entry=identifier", XIRI_OK, 0, NULL},
    {"@{urn:x}where=pairs", "{}*@{urn:x}where=pairs", XIRI_OK, 0, NULL},
    {"e=iri", "{}e=iri", XIRI_OK, 0, NULL},
    {"{urn:a=b}e@x", "{urn:a=b}e@{}x=iri", XIRI_OK, 0, NULL},
    {"{urn:a=b}e@x=list", "{urn:a=b}e@{}x=list", XIRI_OK, 0, NULL},
    /* Non-ASCII names are names. */
    {"\xC3\xA9l@h\xC3\xA9", "{}\xC3\xA9l@{}h\xC3\xA9=iri", XIRI_OK, 0, NULL},
    /* Errors. */
    {"{urn:x", NULL, XIRI_ESYNTAX, 0, "missing '}'"},
    {"el@{urn:x", NULL, XIRI_ESYNTAX, 3, "missing '}'"},
    {"", NULL, XIRI_ESYNTAX, 0, "empty element name"},
    {"{urn:x}", NULL, XIRI_ESYNTAX, 7, "empty element name"},
    {"el@", NULL, XIRI_ESYNTAX, 3, "empty attribute name"},
    {"el@{urn:x}", NULL, XIRI_ESYNTAX, 10, "empty attribute name"},
    {"{urn:x}@a", NULL, XIRI_ESYNTAX, 7, "element name missing"},
    {"*", NULL, XIRI_ESYNTAX, 0, "'*' needs an attribute"},
    {"el@*", NULL, XIRI_ESYNTAX, 3, "must be named"},
    {"x:el@a", NULL, XIRI_ESYNTAX, 1, "prefix"},
    {"el@xlink:href", NULL, XIRI_ESYNTAX, 8, "prefix"},
    {"el@a b", NULL, XIRI_ESYNTAX, 4, "' ' at offset 4"},
    {"e}l@a", NULL, XIRI_ESYNTAX, 1, "'}' at offset 1"},
    {"el@a=bogus", NULL, XIRI_ESYNTAX, 5, "unknown shape 'bogus'"},
    {"el@a=", NULL, XIRI_ESYNTAX, 5, "unknown shape"},
    /* the names offered are every shape's (the list was written by hand
     * and lacked the last one added) */
    {"el@a=HASH-NAME", NULL, XIRI_ESYNTAX, 5,
     "(iri, list, srcset, refresh, identifier, pairs, resolved-identifier, "
     "hash-name, kml-template, css)"},
    {"e@l@a", NULL, XIRI_ESYNTAX, 3, "'@' at offset 3"},
    /* A processing instruction's pseudo-attribute: '?target@name', no
     * namespace on either, and a name (its content is no link). */
    {"?xml-stylesheet@href", "{}?xml-stylesheet@{}href=iri", XIRI_OK, 0, NULL},
    {"?xml-stylesheet", NULL, XIRI_ESYNTAX, 0, "'?target@pseudo-attribute'"},
    {"?@href", NULL, XIRI_ESYNTAX, 0, "'?target@pseudo-attribute'"},
    {"{urn:x}?pi@href", NULL, XIRI_ESYNTAX, 0, "with no namespace"},
    {"?pi@{urn:x}href", NULL, XIRI_ESYNTAX, 0, "with no namespace"},
    /* XML 1.0 2.6: no target "xml" (any case), and '*' is no Name */
    {"?*@href", NULL, XIRI_ESYNTAX, 1,
     "no processing instruction has the "
     "target '*'"},
    {"?XmL@version", NULL, XIRI_ESYNTAX, 1, "target 'XmL'"},
    {"?1t@h", NULL, XIRI_ESYNTAX, 1, "target '1t'"},
    {"?x*@h", NULL, XIRI_ESYNTAX, 1, "target 'x*'"},
    {"?a.b-c_9\xC3\xA9@h", "{}?a.b-c_9\xC3\xA9@{}h=iri", XIRI_OK, 0, NULL},
    {"?xml-model@href", "{}?xml-model@{}href=iri", XIRI_OK, 0, NULL},
    {"e\tl", NULL, XIRI_ESYNTAX, 1, "at offset 1"},
};

static void test_add_spec(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    struct registry_entry e;
    enum xiri_status st;
    char buf[256];
    size_t i;

    for (i = 0; i < ARRAY_LEN(spec_cases); i++) {
        const struct spec_case *c = &spec_cases[i];

        if (xiri_registry_new(&reg) != XIRI_OK) {
            CU_FAIL("new");
            return;
        }
        memset(&err, 0, sizeof(err));
        st = xiri_registry_add_spec(reg, c->spec, &err);
        if (c->entry) {
            if (st != XIRI_OK)
                TEST_FAIL("'%s': %s (%s)", c->spec, xiri_strerror(st),
                          err.message);
            else if (xiri_registry_count(reg) != 1 ||
                     !registry_entry_at(reg, 0, &e))
                TEST_FAIL("'%s': %zu entries", c->spec,
                          xiri_registry_count(reg));
            else {
                entry_text(&e, buf, sizeof(buf));
                TEST_STR_EQ(c->spec, buf, c->entry);
            }
        } else {
            if (st != c->st || err.status != c->st || err.offset != c->offset ||
                !strstr(err.message, c->frag))
                TEST_FAIL("'%s': %s at %zu (%s), want %s at %zu (...%s...)",
                          c->spec, xiri_strerror(st), err.offset, err.message,
                          xiri_strerror(c->st), c->offset, c->frag);
            else
                CU_PASS("spec error");
            CU_ASSERT_EQUAL(xiri_registry_count(reg), 0);
        }
        xiri_registry_free(reg);
        reg = NULL;
    }
    CU_ASSERT_EQUAL(xiri_registry_add_spec(NULL, "a", NULL), XIRI_EINVAL);
    if (xiri_registry_new(&reg) == XIRI_OK) {
        CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, NULL, NULL), XIRI_EINVAL);
        CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "{", NULL), XIRI_ESYNTAX);
        xiri_registry_free(reg);
    }
}

/* ------------------------------------------------------------------ */
/* Lookups                                                             */

static void test_wildcards(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;

    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "@xml:base", &err), XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "@data-href=list", &err),
                    XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "{urn:x}*@a", &err), XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "@{urn:q}r", &err), XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "{urn:e}e@{urn:q}r=list", &err),
                    XIRI_OK);
    CU_ASSERT_EQUAL(
        xiri_registry_add_spec(reg, "{urn:x}special@a=srcset", &err), XIRI_OK);

    /* "*" with no namespace: any element, any namespace. */
    CU_ASSERT_EQUAL(find_attr(reg, "urn:any", "foo", XML_NS, "base", false),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "foo", XML_NS, "base", false),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "foo", NULL, "base", false), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "div", NULL, "data-href", false),
                    XIRI_SHAPE_LIST);
    CU_ASSERT_EQUAL(find_attr(reg, "urn:y", "y", NULL, "data-href", false),
                    XIRI_SHAPE_LIST);
    CU_ASSERT_EQUAL(find_attr(reg, "urn:y", "y", "urn:y", "data-href", false),
                    -1);
    /* '{NS}*': any element of NS. */
    CU_ASSERT_EQUAL(find_attr(reg, "urn:x", "any", NULL, "a", false),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, "urn:y", "any", NULL, "a", false), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "any", NULL, "a", false), -1);
    /* An entry naming the element wins over the wildcards. */
    CU_ASSERT_EQUAL(find_attr(reg, "urn:x", "special", NULL, "a", false),
                    XIRI_SHAPE_SRCSET);
    CU_ASSERT_EQUAL(find_attr(reg, "urn:e", "e", "urn:q", "r", false),
                    XIRI_SHAPE_LIST);
    CU_ASSERT_EQUAL(find_attr(reg, "urn:e", "f", "urn:q", "r", false),
                    XIRI_SHAPE_IRI);
    /* HTML: "*" entries match, attributes in any case; namespaced
     * attributes (xml:base) do not exist in HTML. */
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "DIV", NULL, "Data-HREF", true),
                    XIRI_SHAPE_LIST);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "div", NULL, "xml:base", true), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "div", NULL, "a", true), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "special", NULL, "a", true), -1);
    xiri_registry_free(reg);
}

/* registry_find_pi: the entries '?target@name' only, never a wildcard;
 * with no name, whether the target has any. */
static void test_pi(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    enum xiri_shape shape = XIRI_SHAPE_COUNT;

    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    CU_ASSERT_FALSE(registry_find_pi(reg, "?xml-stylesheet", NULL, NULL));
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "@href", &err), XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "xml-stylesheet@type", &err),
                    XIRI_OK);
    CU_ASSERT_FALSE(registry_find_pi(reg, "?xml-stylesheet", NULL, NULL));
    CU_ASSERT_FALSE(registry_find_pi(reg, "?xml-stylesheet", "href", NULL));
    CU_ASSERT_EQUAL(
        xiri_registry_add_spec(reg, "?xml-model@schematypens=identifier", &err),
        XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "?xml-stylesheet@href", &err),
                    XIRI_OK);
    CU_ASSERT_TRUE(registry_find_pi(reg, "?xml-stylesheet", NULL, NULL));
    CU_ASSERT_TRUE(registry_find_pi(reg, "?xml-model", NULL, NULL));
    CU_ASSERT_FALSE(registry_find_pi(reg, "?xml-modelx", NULL, NULL));
    CU_ASSERT_FALSE(registry_find_pi(reg, "xml-model", NULL, NULL));
    CU_ASSERT_TRUE(registry_find_pi(reg, "?xml-stylesheet", "href", &shape));
    CU_ASSERT_EQUAL(shape, XIRI_SHAPE_IRI);
    CU_ASSERT_TRUE(registry_find_pi(reg, "?xml-model", "schematypens", &shape));
    CU_ASSERT_EQUAL(shape, XIRI_SHAPE_IDENTIFIER);
    CU_ASSERT_FALSE(registry_find_pi(reg, "?xml-stylesheet", "type", NULL));
    CU_ASSERT_FALSE(registry_find_pi(reg, "?xml-model", "href", NULL));
    CU_ASSERT_FALSE(registry_find_pi(reg, "?xml-stylesheet", "HREF", NULL));
    /* the library's own form: no content, no namespace */
    CU_ASSERT_EQUAL(
        xiri_registry_add(reg, NULL, "?pi", NULL, NULL, XIRI_SHAPE_IRI),
        XIRI_EINVAL);
    CU_ASSERT_EQUAL(
        xiri_registry_add(reg, "urn:x", "?pi", NULL, "a", XIRI_SHAPE_IRI),
        XIRI_EINVAL);
    CU_ASSERT_EQUAL(
        xiri_registry_add(reg, NULL, "?", NULL, "a", XIRI_SHAPE_IRI),
        XIRI_EINVAL);
    xiri_registry_free(reg);
}

static void test_html(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    enum xiri_status st;

    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    memset(&err, 0, sizeof(err));
    st = xiri_registry_load_preset(reg, "html", &err);
    if (st != XIRI_OK) {
        TEST_FAIL("html: %s", err.message);
        xiri_registry_free(reg);
        return;
    }
    /* HTML documents: local names in any ASCII case. */
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "A", NULL, "HREF", true),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "a", NULL, "href", true),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "Img", NULL, "SrcSet", true),
                    XIRI_SHAPE_SRCSET);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "AREA", NULL, "ping", true),
                    XIRI_SHAPE_LIST);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "meta", NULL, "Content", true),
                    XIRI_SHAPE_REFRESH);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "VIDEO", NULL, "poster", true),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "a", NULL, "src", true), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "div", NULL, "href", true), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "a", NULL, "hre", true), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "a", NULL, "hrefs", true), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "ab", NULL, "href", true), -1);
    /* Non-ASCII letters are not folded (ASCII case only). */
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "a", NULL,
                              "hr\xC3\xA9"
                              "f",
                              true),
                    -1);
    /* XML documents: XHTML by namespace, exact case. */
    CU_ASSERT_EQUAL(find_attr(reg, XHTML_NS, "a", NULL, "href", false),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, XHTML_NS, "A", NULL, "href", false), -1);
    CU_ASSERT_EQUAL(find_attr(reg, XHTML_NS, "a", NULL, "HREF", false), -1);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "a", NULL, "href", false), -1);
    CU_ASSERT_EQUAL(find_attr(reg, XHTML_NS, "a", XHTML_NS, "href", false), -1);
    /* A later entry differing only in case is a new XML entry, but HTML
     * lookups keep the first. */
    CU_ASSERT_EQUAL(
        xiri_registry_add(reg, XHTML_NS, "A", NULL, "HREF", XIRI_SHAPE_LIST),
        XIRI_OK);
    CU_ASSERT_EQUAL(find_attr(reg, XHTML_NS, "A", NULL, "HREF", false),
                    XIRI_SHAPE_LIST);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "A", NULL, "HREF", true),
                    XIRI_SHAPE_IRI);
    /* Element content in HTML, and '{XHTML}*'. */
    CU_ASSERT_EQUAL(
        xiri_registry_add_spec(reg, "{" XHTML_NS "}myEl=list", &err), XIRI_OK);
    CU_ASSERT_EQUAL(find_content(reg, NULL, "MYEL", true), XIRI_SHAPE_LIST);
    CU_ASSERT_EQUAL(find_content(reg, XHTML_NS, "myEl", false),
                    XIRI_SHAPE_LIST);
    CU_ASSERT_EQUAL(find_content(reg, XHTML_NS, "myel", false), -1);
    CU_ASSERT_EQUAL(find_content(reg, NULL, "a", true), -1);
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "{" XHTML_NS "}*@itemid", &err),
                    XIRI_OK);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "SPAN", NULL, "ItemId", true),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, XHTML_NS, "span", NULL, "itemid", false),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, SVG_NS, "span", NULL, "itemid", false), -1);
    /* Other namespaces never match HTML elements. */
    CU_ASSERT_EQUAL(xiri_registry_add_spec(reg, "{urn:o}div@x", &err), XIRI_OK);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "div", NULL, "x", true), -1);
    xiri_registry_free(reg);
}

/* Growth, rehashing and rollback with many entries. */
static void test_many(void)
{
    struct xiri_registry *reg = NULL;
    char el[32], at[32];
    size_t i, mark;
    int bad = 0;

    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    for (i = 0; i < 5000; i++) {
        snprintf(el, sizeof(el), "E%zu", i % 700);
        snprintf(at, sizeof(at), "a%zu", i);
        if (xiri_registry_add(reg, i % 2 ? XHTML_NS : "urn:n", el, NULL, at,
                              (enum xiri_shape)(i % 4)) != XIRI_OK)
            bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 5000);
    mark = registry_mark(reg);
    for (i = 0; i < 300; i++) {
        snprintf(at, sizeof(at), "late%zu", i);
        if (xiri_registry_add(reg, NULL, "*", NULL, at, XIRI_SHAPE_IRI) !=
            XIRI_OK)
            bad++;
    }
    CU_ASSERT_EQUAL(find_attr(reg, "urn:n", "E0", NULL, "late7", false),
                    XIRI_SHAPE_IRI);
    registry_rollback(reg, mark);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 5000);
    CU_ASSERT_EQUAL(find_attr(reg, "urn:n", "E0", NULL, "late7", false), -1);
    for (i = 0; i < 5000; i++) {
        snprintf(el, sizeof(el), "E%zu", i % 700);
        snprintf(at, sizeof(at), "a%zu", i);
        if (find_attr(reg, i % 2 ? XHTML_NS : "urn:n", el, NULL, at, false) !=
            (int)(i % 4))
            bad++;
        if (find_attr(reg, i % 2 ? "urn:n" : XHTML_NS, el, NULL, at, false) !=
            -1)
            bad++;
        /* The HTML index holds the odd ones, in lower case. */
        snprintf(el, sizeof(el), "e%zu", i % 700);
        if (find_attr(reg, NULL, el, NULL, at, true) !=
            (i % 2 ? (int)(i % 4) : -1))
            bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    xiri_registry_free(reg);
}

/* ------------------------------------------------------------------ */
/* The XSD reader: exact entries                                       */

#define D "urn:t:derive"
static const char *const derive_entries[] = {
    /* a global attribute of a namespace: every element */
    "{}*@{" D "}glob=iri",
    /* restriction chains, used before defined; anonymous types */
    "{" D "}early=iri",
    "{" D "}inline=iri",
    "{" D "}anon=iri",
    "{" D "}spaced=iri",
    /* lists, unions: up to the first member that holds every string
     * (either: Text, a plain string, before anyURI: never an IRI;
     * textfirst: a token; inlinelast: memberTypes before the anonymous
     * members), an IRI member makes an IRI (patternfirst: the digits
     * are read as a reference), else the first member with a shape
     * (listfirst: a list of anyURI holds every string) */
    "{" D "}uris=list",
    "{" D "}ilist=list",
    "{" D "}iunion=iri",
    "{" D "}lunion=list",
    "{" D "}listfirst=list",
    "{" D "}patternfirst=iri",
    /* the annotation on an element, a type, attributes */
    "{" D "}annotated=list",
    "{" D "}pic@{}srcset=srcset",
    "{" D "}pic@{}src=iri",
    "{" D "}pic@{}refresh=refresh",
    /* simple content: extension and restriction keep the value and the
     * attributes */
    "{" D "}ut=iri",
    "{" D "}ut@{}rel=list",
    "{" D "}ut2=iri",
    "{" D "}ut2@{}rel=list",
    "{" D "}twa@{}href=iri",
    /* complex content, nested attribute groups, prohibition */
    "{" D "}linky@{}href=iri",
    "{" D "}linky@{}cite=iri",
    "{" D "}linky@{}about=iri",
    "{" D "}linky@{}resource=iri",
    "{" D "}more@{}icon=iri",
    "{" D "}more@{}href=iri",
    "{" D "}more@{}cite=iri",
    "{" D "}more@{}about=iri",
    "{" D "}more@{}resource=iri",
    "{" D "}less@{}href=iri",
    "{" D "}less@{}about=iri",
    /* alt, a union whose first member is anyURI: less's restriction
     * declares it again as the other member, replacing it (Part 1
     * 3.4.2) */
    "{" D "}linky@{}alt=iri",
    "{" D "}more@{}alt=iri",
    "{" D "}head@{}alt=iri",
    "{" D "}member@{}alt=iri",
    /* substitution group head and member */
    "{" D "}head@{}href=iri",
    "{" D "}head@{}cite=iri",
    "{" D "}head@{}about=iri",
    "{" D "}head@{}resource=iri",
    "{" D "}member@{}href=iri",
    "{" D "}member@{}cite=iri",
    "{" D "}member@{}about=iri",
    "{" D "}member@{}resource=iri",
    /* unqualified local elements, in a type and in a model group */
    "{}loc=iri",
    "{}inner@{}href=iri",
    "{}gloc=iri",
};
#undef D

static void test_xsd_derive(void)
{
    check_schema("derive.xsd", derive_entries, ARRAY_LEN(derive_entries));
}

static void test_xsd_forms(void)
{
    static const char *const forms[] = {
        "{urn:t:forms}q=iri",
        "{}u=iri",
        "{urn:t:forms}root@{}a=iri",
        "{urn:t:forms}root@{urn:t:forms}qa=iri",
    };
    static const char *const forms2[] = {
        "{}l=iri",
        "{urn:t:forms2}lq=iri",
        "{urn:t:forms2}top@{urn:t:forms2}a=iri",
        "{urn:t:forms2}top@{}ua=iri",
    };

    check_schema("forms.xsd", forms, ARRAY_LEN(forms));
    check_schema("forms2.xsd", forms2, ARRAY_LEN(forms2));
}

static void test_xsd_include_import(void)
{
    static const char *const main_entries[] = {
        /* chameleon.xsd's global attribute, now in urn:t:main */
        "{}*@{urn:t:main}cglobal=iri",
        /* other/other.xsd's */
        "{}*@{urn:t:other}oglobal=iri",
        /* a: chameleon type; b: imported type; og: imported attribute
         * group; c: a type of a namespace never loaded (none) */
        "{urn:t:main}doc@{}a=iri",
        "{urn:t:main}doc@{}b=iri",
        "{urn:t:main}doc@{}og=iri",
        /* incl%2Dpct.xsd */
        "{urn:t:main}pct=iri",
        "{urn:t:main}cham=iri",
        "{urn:t:other}oelem=iri",
        /* leaf.xsd, once in each namespace */
        "{urn:t:other}leaf=iri",
        "{urn:t:main}leaf=iri",
    };
    static const char *const cycle_entries[] = {
        "{urn:t:cycle}c1=iri",
        "{urn:t:cycle}c2=iri",
    };
    static const char *const redef_entries[] = {
        "{urn:t:redef}thing@{}href=iri",
        "{urn:t:redef}grouped@{}src=iri",
        "{urn:t:redef}ref=iri",
    };
    static const char *const entity_entries[] = {
        "{urn:t:entities}ok=iri",
        "{urn:t:entities}box@{}href=iri",
    };
    static const char *const cham_entries[] = {
        "{}core=iri",
        "{urn:t:wrap}core=iri",
    };

    check_schema("main.xsd", main_entries, ARRAY_LEN(main_entries));
    check_schema("cycle.xsd", cycle_entries, ARRAY_LEN(cycle_entries));
    check_schema("cycle2.xsd", cycle_entries, ARRAY_LEN(cycle_entries));
    check_schema("redef.xsd", redef_entries, ARRAY_LEN(redef_entries));
    check_schema("entities.xsd", entity_entries, ARRAY_LEN(entity_entries));
    /* cham-core.xsd loaded without a namespace, then included into
     * urn:t:wrap: both (the second was taken for a repeat of the first) */
    check_schema("cham-first.xsd", cham_entries, ARRAY_LEN(cham_entries));
}

/* The notice callback of xiri_registry_set_notice: the messages. */
struct notices {
    char text[8][400];
    size_t n;
};

static void collect_notice(void *user, const char *message)
{
    struct notices *ns = user;

    if (ns->n < 8)
        snprintf(ns->text[ns->n], sizeof(ns->text[0]), "%s", message);
    ns->n++;
}

/* Each remote schemaLocation of main.xsd is told, once (main.xsd includes
 * itself), with its line (libxml2's line of an element is that of its
 * start tag's end: the imports of two lines give their second); the
 * imports of the XML and XLink namespaces are not. */
static void test_xsd_remote_notices(void)
{
    static const char *const want[] = {
        "main.xsd:12: xs:import of 'http://example.invalid/remote.xsd' not "
        "read (xiri reads local files only",
        "main.xsd:14: xs:import of 'https://example.invalid/remote2.xsd'",
        "main.xsd:16: xs:import of '//example.invalid/remote3.xsd'",
        "main.xsd:17: xs:include of 'ftp://example.invalid/remote4.xsd'",
        "main.xsd:18: xs:include of 'file://example.invalid/remote5.xsd'",
        "main.xsd:19: xs:import of 'urn:x-remote:6'",
    };
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    struct notices ns;
    size_t i;

    memset(&ns, 0, sizeof(ns));
    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    xiri_registry_set_notice(reg, collect_notice, &ns);
    CU_ASSERT_EQUAL(
        xiri_registry_load_schema(reg, test_data_path("xsd/main.xsd"), &err),
        XIRI_OK);
    CU_ASSERT_EQUAL(ns.n, ARRAY_LEN(want));
    for (i = 0; i < ARRAY_LEN(want) && i < ns.n; i++)
        if (!strstr(ns.text[i], want[i]))
            TEST_FAIL("notice %zu: '%s', want '...%s...'", i, ns.text[i],
                      want[i]);
    /* cleared: no more notices */
    xiri_registry_set_notice(reg, NULL, NULL);
    xiri_registry_free(reg);
    reg = NULL;
    CU_ASSERT_EQUAL(xiri_registry_new(&reg), XIRI_OK);
    CU_ASSERT_EQUAL(
        xiri_registry_load_schema(reg, test_data_path("xsd/main.xsd"), &err),
        XIRI_OK);
    CU_ASSERT_EQUAL(ns.n, ARRAY_LEN(want));
    xiri_registry_set_notice(NULL, collect_notice, &ns);
    xiri_registry_free(reg);
}

/* Loading twice adds nothing; loading into a filled registry adds. */
static void test_xsd_reload(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;

    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    CU_ASSERT_EQUAL(
        xiri_registry_load_schema(reg, test_data_path("xsd/forms.xsd"), &err),
        XIRI_OK);
    CU_ASSERT_EQUAL(
        xiri_registry_load_schema(reg, test_data_path("xsd/forms.xsd"), &err),
        XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 4);
    CU_ASSERT_EQUAL(
        xiri_registry_load_schema(reg, test_data_path("xsd/forms2.xsd"), &err),
        XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 8);
    /* forms.xsd's {}u and forms2.xsd's {}l are both local elements with
     * no namespace. */
    CU_ASSERT_EQUAL(find_content(reg, NULL, "u", false), XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_content(reg, NULL, "l", false), XIRI_SHAPE_IRI);
    xiri_registry_free(reg);
}

/* ------------------------------------------------------------------ */
/* The XSD reader: errors                                              */

struct error_case {
    const char *file;
    enum xiri_status st;
    const char *frags[4];
};

static const struct error_case error_cases[] = {
    {"broken.xsd",
     XIRI_EDOC,
     {"broken.xsd:6: ", "Opening and ending tag mismatch", NULL}},
    {"notschema.xsd",
     XIRI_EDOC,
     {"notschema.xsd:3: ", "not an XML Schema", NULL}},
    {"missing-include.xsd",
     XIRI_EIO,
     {"missing-include.xsd:5: ", "does-not-exist.xsd",
      "No such file or directory", NULL}},
    {"noloc-include.xsd",
     XIRI_EDOC,
     {"noloc-include.xsd:5: ", "xs:include without schemaLocation", NULL}},
    {"badprefix.xsd",
     XIRI_EDOC,
     {"badprefix.xsd:7: ", "prefix 'nope'", "not declared", NULL}},
    {"circular.xsd", XIRI_EDOC, {"circular.xsd:", "circular definition", NULL}},
    {"circular-group.xsd",
     XIRI_EDOC,
     {"circular-group.xsd:8: ", "circular reference to the attribute group 'A'",
      NULL}},
    {"circular-derivation.xsd",
     XIRI_EDOC,
     {"circular-derivation.xsd:10: ", "circular derivation of the type 'A'",
      NULL}},
    {"badshape.xsd",
     XIRI_EDOC,
     {"badshape.xsd:8: ", "unknown xiri:shape 'bogus'",
      "(iri, list, srcset, refresh, identifier, pairs, resolved-identifier, "
      "hash-name, kml-template, css)"}},
    {"laughs.xsd", XIRI_EDOC, {"laughs.xsd:", "entity", NULL}},
    {"does-not-exist.xsd",
     XIRI_EIO,
     {"does-not-exist.xsd: ", "No such file or directory", NULL}},
    {"", XIRI_EIO, {"xsd/: ", "Is a directory", NULL}},
};

static void test_xsd_errors(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    char path[64];
    size_t i, before;
    enum xiri_status st;

    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    /* A failed load leaves the registry as it was. */
    st = xiri_registry_load_schema(reg, test_data_path("xsd/forms.xsd"), &err);
    CU_ASSERT_EQUAL(st, XIRI_OK);
    before = xiri_registry_count(reg);
    for (i = 0; i < ARRAY_LEN(error_cases); i++) {
        snprintf(path, sizeof(path), "xsd/%s", error_cases[i].file);
        memset(&err, 0, sizeof(err));
        st = xiri_registry_load_schema(reg, test_data_path(path), &err);
        check_error(error_cases[i].file, st, &err, error_cases[i].st,
                    error_cases[i].frags);
        CU_ASSERT_EQUAL(err.status, error_cases[i].st);
        CU_ASSERT_EQUAL(xiri_registry_count(reg), before);
    }
    /* badprefix.xsd's "fine" came before the error: rolled back. */
    CU_ASSERT_EQUAL(find_content(reg, NULL, "fine", false), -1);
    CU_ASSERT_EQUAL(find_content(reg, NULL, "a", false), -1);
    CU_ASSERT_EQUAL(xiri_registry_load_schema(NULL, "x", &err), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_load_schema(reg, NULL, &err), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_load_schema(reg, "", NULL), XIRI_EINVAL);
    CU_ASSERT_EQUAL(
        xiri_registry_load_schema(reg, test_data_path("xsd/broken.xsd"), NULL),
        XIRI_EDOC);
    xiri_registry_free(reg);
}

/* The caller's libxml2 error handlers are never called, and are back in
 * place after a load. */
static int handler_calls;

static void counting_handler(void *data, xmlErrorPtr e)
{
    (void)data;
    (void)e;
    handler_calls++;
}

static void test_xsd_handlers(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    xmlStructuredErrorFunc old = xmlStructuredError;
    void *old_ctx = xmlStructuredErrorContext;
    int marker;

    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    handler_calls = 0;
    xmlSetStructuredErrorFunc(&marker, counting_handler);
    CU_ASSERT_EQUAL(
        xiri_registry_load_schema(reg, test_data_path("xsd/broken.xsd"), &err),
        XIRI_EDOC);
    CU_ASSERT_EQUAL(
        xiri_registry_load_schema(reg, test_data_path("xsd/laughs.xsd"), &err),
        XIRI_EDOC);
    CU_ASSERT_EQUAL(handler_calls, 0);
    CU_ASSERT(xmlStructuredError == counting_handler);
    CU_ASSERT(xmlStructuredErrorContext == &marker);
    xmlSetStructuredErrorFunc(old_ctx, old);
    xiri_registry_free(reg);
}

/* Limits: include depth and number of files, in generated schemas. */
static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok;

    if (!f)
        return -1;
    ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[512];

    if (!d)
        return;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
            snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
            unlink(path);
        }
    closedir(d);
    rmdir(dir);
}

#define SCHEMA_OPEN                                           \
    "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' " \
    "targetNamespace='urn:t:gen'>\n"

static void test_xsd_limits(void)
{
    char dir[] = "/tmp/xiri-xsd-XXXXXX";
    char path[512], text[512];
    char *big;
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    size_t i, used;
    enum xiri_status st;
    int bad = 0;

    if (!mkdtemp(dir)) {
        CU_FAIL("mkdtemp");
        return;
    }
    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        remove_dir(dir);
        return;
    }
    /* A chain of 66 files: the 66th is 65 includes deep. */
    for (i = 0; i < 66; i++) {
        snprintf(path, sizeof(path), "%s/c%zu.xsd", dir, i);
        snprintf(text, sizeof(text),
                 SCHEMA_OPEN "<xs:include schemaLocation='c%zu.xsd'/>\n"
                             "<xs:element name='e%zu' type='xs:anyURI'/>\n"
                             "</xs:schema>\n",
                 i + 1, i);
        if (i == 65)
            snprintf(text, sizeof(text), SCHEMA_OPEN "</xs:schema>\n");
        bad += write_file(path, text) != 0;
    }
    CU_ASSERT_EQUAL(bad, 0);
    snprintf(path, sizeof(path), "%s/c1.xsd", dir);
    st = xiri_registry_load_schema(reg, path, &err); /* 64 deep: fine */
    CU_ASSERT_EQUAL(st, XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 64);
    snprintf(path, sizeof(path), "%s/c0.xsd", dir);
    st = xiri_registry_load_schema(reg, path, &err);
    CU_ASSERT_EQUAL(st, XIRI_ELIMIT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "deeper than 64"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "c64.xsd:2: "));
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 64);

    /* One file including 300 others. */
    big = malloc(300 * 48 + 256);
    if (!big) {
        CU_FAIL("malloc");
        xiri_registry_free(reg);
        remove_dir(dir);
        return;
    }
    used = (size_t)snprintf(big, 256, SCHEMA_OPEN);
    for (i = 0; i < 300; i++) {
        used += (size_t)snprintf(
            big + used, 48, "<xs:include schemaLocation='f%zu.xsd'/>\n", i);
        snprintf(path, sizeof(path), "%s/f%zu.xsd", dir, i);
        bad += write_file(path, SCHEMA_OPEN "</xs:schema>\n") != 0;
    }
    snprintf(big + used, 256, "</xs:schema>\n");
    snprintf(path, sizeof(path), "%s/fan.xsd", dir);
    bad += write_file(path, big) != 0;
    free(big);
    CU_ASSERT_EQUAL(bad, 0);
    st = xiri_registry_load_schema(reg, path, &err);
    CU_ASSERT_EQUAL(st, XIRI_ELIMIT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "more than 256 schema files"));
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 64);
    xiri_registry_free(reg);

    /* Absolute locations: file: URIs (RFC 8089) and a plain path. */
    reg = NULL;
    snprintf(text, sizeof(text),
             SCHEMA_OPEN
             "<xs:include schemaLocation='file://localhost%s/i1.xsd'/>\n"
             "<xs:include schemaLocation='file:%s/i2.xsd'/>\n"
             "<xs:include schemaLocation='FILE:///%s/i3.xsd'/>\n"
             "<xs:include schemaLocation='%s/i4.xsd'/>\n"
             "</xs:schema>\n",
             dir, dir, dir + 1, dir);
    snprintf(path, sizeof(path), "%s/abs.xsd", dir);
    bad += write_file(path, text) != 0;
    for (i = 1; i <= 4; i++) {
        snprintf(path, sizeof(path), "%s/i%zu.xsd", dir, i);
        snprintf(text, sizeof(text),
                 SCHEMA_OPEN "<xs:element name='i%zu' type='xs:anyURI'/>"
                             "</xs:schema>\n",
                 i);
        bad += write_file(path, text) != 0;
    }
    CU_ASSERT_EQUAL(bad, 0);
    snprintf(path, sizeof(path), "%s/abs.xsd", dir);
    if (xiri_registry_new(&reg) == XIRI_OK) {
        memset(&err, 0, sizeof(err));
        st = xiri_registry_load_schema(reg, path, &err);
        if (st != XIRI_OK)
            TEST_FAIL("abs.xsd: %s", err.message);
        CU_ASSERT_EQUAL(xiri_registry_count(reg), 4);
        for (i = 1; i <= 4; i++) {
            snprintf(text, sizeof(text), "i%zu", i);
            CU_ASSERT_EQUAL(find_content(reg, "urn:t:gen", text, false),
                            XIRI_SHAPE_IRI);
        }
        xiri_registry_free(reg);
    }
    remove_dir(dir);
}

/* Attribute groups that refer to two groups each, 40 levels deep: every
 * group is walked once per element, not once per path (2^40 walks, which
 * never ended before); both attributes at the bottom are found. */
static void test_xsd_group_diamond(void)
{
    char dir[] = "/tmp/xiri-xsd-XXXXXX";
    char path[512];
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    size_t n = 40, i, used, cap = (n + 2) * 400 + 512;
    char *text = malloc(cap);
    enum xiri_status st;

    if (!text || !mkdtemp(dir)) {
        CU_FAIL("mkdtemp");
        free(text);
        return;
    }
    used = (size_t)snprintf(text, cap,
                            SCHEMA_OPEN "<xs:element name='e'><xs:complexType>"
                                        "<xs:attributeGroup ref='t:A0' "
                                        "xmlns:t='urn:t:gen'/>"
                                        "</xs:complexType></xs:element>\n");
    for (i = 0; i < n; i++)
        used += (size_t)snprintf(
            text + used, cap - used,
            "<xs:attributeGroup name='A%zu' xmlns:t='urn:t:gen'>"
            "<xs:attributeGroup ref='t:A%zu'/><xs:attributeGroup ref='t:B%zu'/>"
            "</xs:attributeGroup>\n"
            "<xs:attributeGroup name='B%zu' xmlns:t='urn:t:gen'>"
            "<xs:attributeGroup ref='t:A%zu'/><xs:attributeGroup ref='t:B%zu'/>"
            "</xs:attributeGroup>\n",
            i, i + 1, i + 1, i, i + 1, i + 1);
    snprintf(text + used, cap - used,
             "<xs:attributeGroup name='A%zu'>"
             "<xs:attribute name='u' type='xs:anyURI'/></xs:attributeGroup>\n"
             "<xs:attributeGroup name='B%zu'>"
             "<xs:attribute name='v' type='xs:anyURI'/></xs:attributeGroup>\n"
             "</xs:schema>\n",
             n, n);
    snprintf(path, sizeof(path), "%s/diamond.xsd", dir);
    CU_ASSERT_EQUAL(write_file(path, text), 0);
    free(text);
    if (xiri_registry_new(&reg) == XIRI_OK) {
        memset(&err, 0, sizeof(err));
        st = xiri_registry_load_schema(reg, path, &err);
        if (st != XIRI_OK)
            TEST_FAIL("diamond.xsd: %s", err.message);
        CU_ASSERT_EQUAL(xiri_registry_count(reg), 2);
        CU_ASSERT_EQUAL(find_attr(reg, "urn:t:gen", "e", NULL, "u", false),
                        XIRI_SHAPE_IRI);
        CU_ASSERT_EQUAL(find_attr(reg, "urn:t:gen", "e", NULL, "v", false),
                        XIRI_SHAPE_IRI);
        xiri_registry_free(reg);
    }
    remove_dir(dir);
}

/* ------------------------------------------------------------------ */
/* Presets                                                             */

static const char *const preset_names[] = {
    "html",   "xhtml",   "xlink",    "xml",  "svg", "atom", "rss", "rss1",
    "rdf",    "sitemap", "xinclude", "xslt", "xsd", "xsi",  "wfw", "mrss",
    "itunes", "opml",    "opf",      "kml",  "gpx", "xbel", "pi",  "css",
};

static void test_preset_list(void)
{
    const char *desc = "x";
    size_t i;

    for (i = 0; i < ARRAY_LEN(preset_names); i++) {
        TEST_STR_EQ("preset", xiri_preset_at(i, &desc), preset_names[i]);
        CU_ASSERT(desc && *desc);
        TEST_STR_EQ("no description", xiri_preset_at(i, NULL), preset_names[i]);
    }
    CU_ASSERT_PTR_NULL(xiri_preset_at(i, &desc));
    CU_ASSERT_PTR_NULL(desc);
    CU_ASSERT_PTR_NULL(xiri_preset_at((size_t)-1, NULL));
}

struct spot {
    const char *ens, *el, *ans, *at; /* at NULL: content */
    int shape;
};

/* Entries per preset: counted by hand from each schema's declarations. */
static const size_t preset_counts[] = {
    45, 45, 3, 1,  18, 12, 16, 8,  6, 1, 1, 4,
    9,  2,  3, 26, 2,  5,  6,  20, 3, 1, 3, 14,
};

static const struct spot preset_spots[][4] = {
    /* html: HTML 4.01 %URI, HTML5 lists and srcset, the refresh shape */
    {{XHTML_NS, "a", NULL, "href", XIRI_SHAPE_IRI},
     {XHTML_NS, "object", NULL, "archive", XIRI_SHAPE_LIST},
     {XHTML_NS, "source", NULL, "srcset", XIRI_SHAPE_SRCSET},
     {XHTML_NS, "meta", NULL, "content", XIRI_SHAPE_REFRESH}},
    /* xhtml */
    {{XHTML_NS, "blockquote", NULL, "cite", XIRI_SHAPE_IRI},
     {XHTML_NS, "head", NULL, "profile", XIRI_SHAPE_LIST},
     {XHTML_NS, "img", NULL, "usemap", XIRI_SHAPE_HASH_NAME},
     {XHTML_NS, "img", NULL, "alt", -1}},
    /* xlink */
    {{"urn:any", "x", XLINK_NS, "href", XIRI_SHAPE_IRI},
     {NULL, "x", XLINK_NS, "role", XIRI_SHAPE_IRI},
     {NULL, "x", XLINK_NS, "arcrole", XIRI_SHAPE_IRI},
     {NULL, "x", XLINK_NS, "title", -1}},
    /* xml */
    {{"urn:any", "x", XML_NS, "base", XIRI_SHAPE_IRI},
     {NULL, "x", XML_NS, "lang", -1},
     {NULL, "x", NULL, "base", -1},
     {NULL, "x", XML_NS, "id", -1}},
    /* svg: SVG 2 href, SVG 1.1 xlink:href through the import */
    {{SVG_NS, "use", NULL, "href", XIRI_SHAPE_IRI},
     {SVG_NS, "use", XLINK_NS, "href", XIRI_SHAPE_IRI},
     {SVG_NS, "a", NULL, "ping", XIRI_SHAPE_LIST},
     {SVG_NS, "rect", NULL, "href", -1}},
    /* atom: RFC 4287 (8), Atom 0.3 (4: link@href, url, generator@url,
     * id) */
    {{ATOM_NS, "link", NULL, "href", XIRI_SHAPE_IRI},
     {ATOM_NS, "id", NULL, NULL, XIRI_SHAPE_IDENTIFIER},
     {ATOM03_NS, "id", NULL, NULL, XIRI_SHAPE_IDENTIFIER},
     {ATOM03_NS, "generator", NULL, "url", XIRI_SHAPE_IRI}},
    /* rss: no namespace (7), the same in UserLand's RSS 2.0 namespace
     * (7, a chameleon include), RSS 0.90 (2: link, url) */
    {{NULL, "guid", NULL, NULL, XIRI_SHAPE_IDENTIFIER},
     {USERLAND_NS, "enclosure", NULL, "url", XIRI_SHAPE_IRI},
     {RSS090_NS, "url", NULL, NULL, XIRI_SHAPE_IRI},
     {RSS090_NS, "title", NULL, NULL, -1}},
    /* rss1: rss1.xsd's link and url (2), rdf.xsd through the import (5),
     * xml.xsd (1); the rdf: attributes that image, textinput and the
     * admin.xsd elements refer to are rdf.xsd's global ones, registered
     * once for every element, identifiers (RDF 1.1 Concepts 3.2) */
    {{RSS1_NS, "link", NULL, NULL, XIRI_SHAPE_IRI},
     {RSS1_NS, "textinput", RDF_NS, "resource", XIRI_SHAPE_RESOLVED_IDENTIFIER},
     {"http://webns.net/mvcb/", "generatorAgent", RDF_NS, "resource",
      XIRI_SHAPE_RESOLVED_IDENTIFIER},
     {RSS1_NS, "title", NULL, NULL, -1}},
    /* rdf: about, resource, datatype on any element, the unqualified
     * about of rdf:Description and resource of rdf:li (5), identifiers
     * (RDF 1.1 Concepts 3.2: equal only as strings), xml:base (1);
     * rdf:ID and rdf:nodeID are names */
    {{"urn:any", "x", RDF_NS, "about", XIRI_SHAPE_RESOLVED_IDENTIFIER},
     {RDF_NS, "li", NULL, "resource", XIRI_SHAPE_RESOLVED_IDENTIFIER},
     {NULL, "x", RDF_NS, "ID", -1},
     {NULL, "x", RDF_NS, "nodeID", -1}},
    /* sitemap */
    {{"http://www.sitemaps.org/schemas/sitemap/0.9", "loc", NULL, NULL,
      XIRI_SHAPE_IRI},
     {"http://www.sitemaps.org/schemas/sitemap/0.9", "lastmod", NULL, NULL, -1},
     {NULL, "loc", NULL, NULL, -1},
     {"http://www.sitemaps.org/schemas/sitemap/0.9", "url", NULL, NULL, -1}},
    /* xinclude */
    {{"http://www.w3.org/2001/XInclude", "include", NULL, "href",
      XIRI_SHAPE_IRI},
     {"http://www.w3.org/2001/XInclude", "include", NULL, "parse", -1},
     {"http://www.w3.org/2001/XInclude", "include", NULL, "xpointer", -1},
     {NULL, "include", NULL, "href", -1}},
    /* xslt */
    {{"http://www.w3.org/1999/XSL/Transform", "import", NULL, "href",
      XIRI_SHAPE_IRI},
     {"http://www.w3.org/1999/XSL/Transform", "include", NULL, "href",
      XIRI_SHAPE_IRI},
     {"http://www.w3.org/1999/XSL/Transform", "import-schema", NULL,
      "schema-location", XIRI_SHAPE_IRI},
     {"http://www.w3.org/1999/XSL/Transform", "result-document", NULL, "href",
      -1}},
    /* xsd */
    {{XS_NS, "import", NULL, "schemaLocation", XIRI_SHAPE_IRI},
     {XS_NS, "import", NULL, "namespace", XIRI_SHAPE_IDENTIFIER},
     {XS_NS, "include", NULL, "schemaLocation", XIRI_SHAPE_IRI},
     {XS_NS, "schema", NULL, "targetNamespace", XIRI_SHAPE_IDENTIFIER}},
    /* xsi: namespace name and location pairs */
    {{"urn:any", "x", XSI_NS, "schemaLocation", XIRI_SHAPE_PAIRS},
     {NULL, "x", XSI_NS, "noNamespaceSchemaLocation", XIRI_SHAPE_IRI},
     {NULL, "x", XSI_NS, "type", -1},
     {NULL, "x", NULL, "schemaLocation", -1}},
    /* wfw: the CommentAPI, and WordPress's commentRSS */
    {{WFW_NS, "commentRss", NULL, NULL, XIRI_SHAPE_IRI},
     {WFW_NS, "commentRSS", NULL, NULL, XIRI_SHAPE_IRI},
     {WFW_NS, "comment", NULL, NULL, XIRI_SHAPE_IRI},
     {WFW_NS, "commentrss", NULL, NULL, -1}},
    /* mrss: 13 in each of the two namespace names (mrss-core.xsd) */
    {{MRSS_NS, "content", NULL, "url", XIRI_SHAPE_IRI},
     {MRSS0_NS, "backLink", NULL, NULL, XIRI_SHAPE_IRI},
     {MRSS_NS, "category", NULL, "scheme", XIRI_SHAPE_IRI},
     {NULL, "content", NULL, "url", -1}},
    /* itunes */
    {{ITUNES_NS, "image", NULL, "href", XIRI_SHAPE_IRI},
     {ITUNES_NS, "new-feed-url", NULL, NULL, XIRI_SHAPE_IRI},
     {ITUNES_NS, "title", NULL, NULL, -1},
     {NULL, "image", NULL, "href", -1}},
    /* opml: no namespace */
    {{NULL, "outline", NULL, "xmlUrl", XIRI_SHAPE_IRI},
     {NULL, "outline", NULL, "htmlUrl", XIRI_SHAPE_IRI},
     {NULL, "ownerId", NULL, NULL, XIRI_SHAPE_IRI},
     {NULL, "outline", NULL, "text", -1}},
    /* opf: item, reference, site, link @href; refines of meta and link */
    {{OPF_NS, "item", NULL, "href", XIRI_SHAPE_IRI},
     {OPF_NS, "meta", NULL, "refines", XIRI_SHAPE_IRI},
     {OPF_NS, "item", NULL, "properties", -1},
     {NULL, "item", NULL, "href", -1}},
    /* kml: five in each of four namespaces (kml-core.xsd); href is a
     * string in the OGC schema, a kml-template by xiri's annotation */
    {{KML_NS, "href", NULL, NULL, XIRI_SHAPE_KML_TEMPLATE},
     {KML21_NS, "styleUrl", NULL, NULL, XIRI_SHAPE_IRI},
     {KML_NS, "SchemaData", NULL, "schemaUrl", XIRI_SHAPE_IRI},
     {NULL, "href", NULL, NULL, -1}},
    /* gpx: 1.1 link@href and license, 1.0 url */
    {{GPX_NS, "link", NULL, "href", XIRI_SHAPE_IRI},
     {GPX_NS, "license", NULL, NULL, XIRI_SHAPE_IRI},
     {GPX10_NS, "url", NULL, NULL, XIRI_SHAPE_IRI},
     {GPX_NS, "url", NULL, NULL, -1}},
    /* xbel: no namespace */
    {{NULL, "bookmark", NULL, "href", XIRI_SHAPE_IRI},
     {NULL, "alias", NULL, "ref", -1},
     {"urn:any", "bookmark", NULL, "href", -1},
     {NULL, "folder", NULL, "href", -1}},
    /* pi: pseudo-attributes of processing instructions, written
     * '?target@name'; xml-model's schematypens names a schema language */
    {{NULL, "?xml-stylesheet", NULL, "href", XIRI_SHAPE_IRI},
     {NULL, "?xml-model", NULL, "schematypens", XIRI_SHAPE_IDENTIFIER},
     {NULL, "?xml-stylesheet", NULL, "type", -1},
     {NULL, "xml-stylesheet", NULL, "href", -1}},
    /* css: style on every XHTML, SVG and MathML element, SVG's
     * presentation attributes (not on XHTML elements), the content of
     * the style element */
    {{"http://www.w3.org/1998/Math/MathML", "mi", NULL, "style",
      XIRI_SHAPE_CSS},
     {SVG_NS, "rect", NULL, "fill", XIRI_SHAPE_CSS},
     {XHTML_NS, "div", NULL, "fill", -1},
     {SVG_NS, "style", NULL, NULL, XIRI_SHAPE_CSS}},
};

static void test_presets(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    enum xiri_status st;
    size_t i, j;
    int got;

    CU_ASSERT_EQUAL(ARRAY_LEN(preset_counts), ARRAY_LEN(preset_names));
    CU_ASSERT_EQUAL(ARRAY_LEN(preset_spots), ARRAY_LEN(preset_names));
    for (i = 0; i < ARRAY_LEN(preset_names); i++) {
        if (xiri_registry_new(&reg) != XIRI_OK) {
            CU_FAIL("new");
            return;
        }
        memset(&err, 0, sizeof(err));
        st = xiri_registry_load_preset(reg, preset_names[i], &err);
        if (st != XIRI_OK)
            TEST_FAIL("preset %s: %s", preset_names[i], err.message);
        if (xiri_registry_count(reg) != preset_counts[i])
            TEST_FAIL("preset %s: %zu entries, want %zu", preset_names[i],
                      xiri_registry_count(reg), preset_counts[i]);
        for (j = 0; j < 4; j++) {
            const struct spot *s = &preset_spots[i][j];
            got = s->at ? find_attr(reg, s->ens, s->el, s->ans, s->at, false)
                        : find_content(reg, s->ens, s->el, false);
            if (got != s->shape)
                TEST_FAIL("preset %s: %s@%s: %d, want %d", preset_names[i],
                          s->el, s->at ? s->at : "(content)", got, s->shape);
        }
        xiri_registry_free(reg);
        reg = NULL;
    }
    CU_PASS("presets");
}

static void test_preset_all(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    const char *frags[] = {"unknown preset 'nope'", "html", "xsi", "all", NULL};

    if (xiri_registry_new(&reg) != XIRI_OK) {
        CU_FAIL("new");
        return;
    }
    memset(&err, 0, sizeof(err));
    CU_ASSERT_EQUAL(xiri_registry_load_preset(reg, "all", &err), XIRI_OK);
    /* The sum of the presets, less xhtml (html.xsd again), svg's copy
     * of the three XLink attributes, rss1's copy of xml:base and all of
     * rdf (rss1 imports it): 45+3+1+15+12+16+7+1+1+4+9+2+3+26+2+5, less
     * opml's docs, which rss.xsd declares too (an element without a
     * namespace, any parent), and opf, kml, gpx, xbel, pi, css:
     * 6+20+3+1+3+14. */
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 198);
    CU_ASSERT_EQUAL(xiri_registry_load_preset(reg, "svg", &err), XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 198);
    CU_ASSERT_EQUAL(find_attr(reg, ATOM_NS, "link", XML_NS, "base", false),
                    XIRI_SHAPE_IRI);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "IMG", NULL, "SRC", true),
                    XIRI_SHAPE_IRI);
    /* css's '{XHTML}*@style' matches every element of an HTML document,
     * in any case; its SVG entries none there (no namespaces) */
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "Td", NULL, "STYLE", true),
                    XIRI_SHAPE_CSS);
    CU_ASSERT_EQUAL(find_attr(reg, NULL, "rect", NULL, "fill", true), -1);
    memset(&err, 0, sizeof(err));
    check_error("unknown preset", xiri_registry_load_preset(reg, "nope", &err),
                &err, XIRI_EINVAL, frags);
    CU_ASSERT_EQUAL(xiri_registry_load_preset(reg, "HTML", &err), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_load_preset(reg, NULL, &err), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_load_preset(NULL, "html", &err), XIRI_EINVAL);
    CU_ASSERT_EQUAL(xiri_registry_count(reg), 198);
    xiri_registry_free(reg);
}

/* $XIRI_SCHEMA_DIR comes first; a directory without the file falls back
 * to the installed and source directories. */
static void test_preset_dirs(void)
{
    char dir[] = "/tmp/xiri-presets-XXXXXX";
    char path[512];
    char *saved = NULL;
    const char *old = getenv("XIRI_SCHEMA_DIR");
    struct xiri_registry *reg = NULL;
    struct xiri_error err;

    if (!mkdtemp(dir)) {
        CU_FAIL("mkdtemp");
        return;
    }
    if (old)
        saved = strdup(old);
    snprintf(path, sizeof(path), "%s/xml.xsd", dir);
    CU_ASSERT_EQUAL(write_file(path,
                               SCHEMA_OPEN "<xs:element name='marker' "
                                           "type='xs:anyURI'/></xs:schema>\n"),
                    0);
    setenv("XIRI_SCHEMA_DIR", dir, 1);
    if (xiri_registry_new(&reg) == XIRI_OK) {
        CU_ASSERT_EQUAL(xiri_registry_load_preset(reg, "xml", &err), XIRI_OK);
        CU_ASSERT_EQUAL(find_content(reg, "urn:t:gen", "marker", false),
                        XIRI_SHAPE_IRI);
        CU_ASSERT_EQUAL(find_attr(reg, NULL, "x", XML_NS, "base", false), -1);
        /* xlink.xsd is not in dir, and the library never falls back to
         * the source tree: a clear error naming the file (unless xiri is
         * installed under the configured prefix on this machine) */
        if (access(TEST_INSTALLED_SCHEMA_DIR "/xlink.xsd", F_OK) != 0) {
            CU_ASSERT_EQUAL(xiri_registry_load_preset(reg, "xlink", &err),
                            XIRI_EIO);
            CU_ASSERT_PTR_NOT_NULL(
                strstr(err.message, "xlink.xsd is in none"));
            CU_ASSERT_EQUAL(
                find_attr(reg, NULL, "x", XLINK_NS, "href", false), -1);
        }
        xiri_registry_free(reg);
    }
    if (saved)
        setenv("XIRI_SCHEMA_DIR", saved, 1);
    else
        unsetenv("XIRI_SCHEMA_DIR");
    free(saved);
    remove_dir(dir);
}

/* ------------------------------------------------------------------ */
/* Allocation failure                                                  */

static enum xiri_status oom_op(void)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    enum xiri_status st;
    size_t before;

    memset(&err, 0, sizeof(err));
    st = xiri_registry_new(&reg);
    if (st != XIRI_OK)
        return st;
    st = xiri_registry_add_spec(reg, "{urn:x}e@{urn:y}a=list", &err);
    if (st == XIRI_OK)
        st = xiri_registry_add_spec(reg, "@xml:base", &err);
    if (st == XIRI_OK) {
        before = xiri_registry_count(reg);
        st = xiri_registry_load_schema(reg, test_data_path("xsd/derive.xsd"),
                                       &err);
        if (st != XIRI_OK && xiri_registry_count(reg) != before)
            TEST_FAIL("derive.xsd: %zu entries after failure, want %zu",
                      xiri_registry_count(reg), before);
    }
    if (st == XIRI_OK)
        st = xiri_registry_load_schema(reg, test_data_path("xsd/main.xsd"),
                                       &err);
    if (st == XIRI_OK)
        st = xiri_registry_load_schema(reg, test_data_path("xsd/entities.xsd"),
                                       &err);
    if (st == XIRI_OK) {
        before = xiri_registry_count(reg);
        st = xiri_registry_load_preset(reg, "all", &err);
        if (st != XIRI_OK && xiri_registry_count(reg) != before)
            TEST_FAIL("all: %zu entries after failure, want %zu",
                      xiri_registry_count(reg), before);
    }
    if (st == XIRI_OK) {
        /* add_spec's xml:base is also xml.xsd's */
        if (xiri_registry_count(reg) != 2 + 46 + 10 + 2 + 198 - 1)
            TEST_FAIL("oom: %zu entries", xiri_registry_count(reg));
        if (find_attr(reg, NULL, "A", NULL, "Href", true) != XIRI_SHAPE_IRI)
            TEST_FAIL("oom: html lookup");
    } else if (st == XIRI_ENOMEM && err.status == XIRI_ENOMEM &&
               !strstr(err.message, "out of memory")) {
        TEST_FAIL("oom: message '%s'", err.message);
    }
    xiri_registry_free(reg);
    return st;
}

static void test_oom(void)
{
    unsigned long n;
    enum xiri_status st = XIRI_ENOMEM;
    int bad = 0;

    for (n = 0; n < 100000; n++) {
        mem_fail_after(n);
        st = oom_op();
        mem_fail_reset();
        if (st == XIRI_OK)
            break;
        if (st != XIRI_ENOMEM) {
            /* (and stop: a load that fails for another reason fails at
             * every n, and the 100,000 loads of every preset would take
             * hours under the sanitizers) */
            TEST_FAIL("allocation %lu failing: %s", n, xiri_strerror(st));
            bad++;
            break;
        }
    }
    CU_ASSERT_EQUAL(st, XIRI_OK);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(n > 100);
}

int suite_registry_register(void)
{
    CU_pSuite s = CU_add_suite("registry", NULL, NULL);

    if (!s || !CU_add_test(s, "shape_names", test_shape_names) ||
        !CU_add_test(s, "add", test_add) ||
        !CU_add_test(s, "add_spec", test_add_spec) ||
        !CU_add_test(s, "wildcards", test_wildcards) ||
        !CU_add_test(s, "processing instructions", test_pi) ||
        !CU_add_test(s, "html", test_html) ||
        !CU_add_test(s, "many", test_many) ||
        !CU_add_test(s, "xsd_derive", test_xsd_derive) ||
        !CU_add_test(s, "xsd_forms", test_xsd_forms) ||
        !CU_add_test(s, "xsd_include_import", test_xsd_include_import) ||
        !CU_add_test(s, "xsd_remote_notices", test_xsd_remote_notices) ||
        !CU_add_test(s, "xsd_reload", test_xsd_reload) ||
        !CU_add_test(s, "xsd_errors", test_xsd_errors) ||
        !CU_add_test(s, "xsd_handlers", test_xsd_handlers) ||
        !CU_add_test(s, "xsd_limits", test_xsd_limits) ||
        !CU_add_test(s, "xsd_group_diamond", test_xsd_group_diamond) ||
        !CU_add_test(s, "preset_list", test_preset_list) ||
        !CU_add_test(s, "presets", test_presets) ||
        !CU_add_test(s, "preset_all", test_preset_all) ||
        !CU_add_test(s, "preset_dirs", test_preset_dirs) ||
        !CU_add_test(s, "oom", test_oom))
        return -1;
    return 0;
}

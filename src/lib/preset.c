/* preset.c - the presets: named sets of xiri's own schemas (schemas/),
 * found in $XIRI_SCHEMA_DIR or the installed schema directory, whichever
 * first holds the file. */
#include "common.h"
#include "mem.h"
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#define PRESET_MAX_FILES 14

struct preset {
    const char *name;
    const char *description;
    /* NULL-padded; one beginning with '?' or '{' is no file but an entry
     * no schema can declare, in the --attr form: a pseudo-attribute of a
     * processing instruction ('?target@name'), an attribute of every
     * element of a namespace ('{NS}*@name=shape') */
    const char *files[PRESET_MAX_FILES];
};

static const struct preset presets[] = {
    {"html",
     "HTML 4.01 and HTML5 URL attributes (in HTML documents by local name, "
     "any case)",
     {"html.xsd", NULL}},
    {"xhtml", "the same attributes in the XHTML namespace", {"html.xsd", NULL}},
    {"xlink",
     "XLink 1.1: xlink:href, xlink:role, xlink:arcrole on any element",
     {"xlink.xsd", NULL}},
    {"xml", "XML Base: xml:base on any element", {"xml.xsd", NULL}},
    {"svg",
     "SVG 2 href and ping (SVG 1.1 xlink:href through XLink)",
     {"svg.xsd", NULL}},
    {"atom",
     "Atom (RFC 4287): link@href, content@src, icon, logo, uri, id...; "
     "Atom 0.3: link@href, url, generator@url, id",
     {"atom.xsd", "atom03.xsd", NULL}},
    {"rss",
     "RSS 0.91-2.0 (no namespace, or UserLand's RSS 2.0 one): link, "
     "comments, docs, url, enclosure@url, source@url, guid unless "
     "isPermaLink=\"false\"; RSS 0.90: link, url",
     {"rss.xsd", "rss2-userland.xsd", "rss090.xsd"}},
    {"rss1",
     "RSS 1.0: link, url, rdf:about, rdf:resource, the Admin module, "
     "xml:base",
     {"rss1.xsd", "xml.xsd"}},
    {"rdf",
     "RDF/XML: rdf:about, rdf:resource, rdf:datatype on any element, "
     "xml:base",
     {"rdf.xsd", "xml.xsd"}},
    {"sitemap", "Sitemaps 0.9: loc", {"sitemap.xsd", NULL}},
    {"xinclude", "XInclude 1.0: xi:include@href", {"xinclude.xsd", NULL}},
    {"xslt",
     "XSLT: xsl:import@href, xsl:include@href, xsl:import-schema",
     {"xslt.xsd", NULL}},
    {"xsd",
     "XML Schema: schemaLocation, namespace, targetNamespace, source",
     {"xsd.xsd", NULL}},
    {"xsi",
     "XML Schema instances: xsi:schemaLocation (pairs), "
     "xsi:noNamespaceSchemaLocation",
     {"xsi.xsd", NULL}},
    {"wfw",
     "Well-Formed Web CommentAPI (in feeds): wfw:comment, wfw:commentRss "
     "(and WordPress's wfw:commentRSS)",
     {"wfw.xsd", NULL}},
    {"mrss",
     "Media RSS 1.5.1 (http://search.yahoo.com/mrss/, and without the "
     "slash): content, thumbnail, player, embed, copyright @url; license, "
     "subTitle, peerLink @href; price@info; backLink; scheme of category, "
     "rating, credit",
     {"mrss.xsd", "mrss-noslash.xsd", NULL}},
    {"itunes",
     "Apple Podcasts (the itunes namespace): itunes:image@href, "
     "itunes:new-feed-url",
     {"itunes.xsd", NULL}},
    {"opml",
     "OPML 2.0 (no namespace): outline@xmlUrl, @htmlUrl, @url; head's "
     "docs, ownerId",
     {"opml.xsd", NULL}},
    {"opf",
     "EPUB package documents (OPF 2.0.1, EPUB 3): item@href, "
     "reference@href, site@href, link@href, refines of meta and link",
     {"opf.xsd", NULL}},
    {"kml",
     "KML 2.2 (OGC, and Google's 2.0-2.2 namespaces): href, styleUrl, "
     "targetHref, sourceHref, SchemaData@schemaUrl",
     {"kml.xsd", NULL}},
    {"gpx", "GPX 1.1: link@href, license; GPX 1.0: url", {"gpx.xsd", NULL}},
    {"xbel",
     "XBEL 1.0 bookmarks (no namespace): bookmark@href",
     {"xbel.xsd", NULL}},
    {"pi",
     "processing instructions in the prolog: xml-stylesheet's href (W3C "
     "Associating Style Sheets), xml-model's href and schematypens "
     "(ISO/IEC 19757-11)",
     {"?xml-stylesheet@href", "?xml-model@href",
      "?xml-model@schematypens=identifier"}},
    {"css",
     "the url()s of CSS (and image-set() strings): HTML's and SVG's style "
     "elements (and their @import strings); the style attribute of any HTML, "
     "SVG or MathML "
     "element; "
     "SVG's fill, stroke, clip-path, mask, filter, marker-start, "
     "marker-mid, marker-end, cursor",
     /* HTML LS "The style attribute" (global); SVG 1.1 6.4 (style) and
      * the FuncIRI of the properties' presentation attributes (SVG 1.1
      * 11.2 fill and stroke, 11.6.2 markers, 14.3.5 clip-path, 14.4
      * mask, 15.7.2 filter, 16.8.1 cursor); MathML Core 2.1.3 (style,
      * a global attribute of every MathML element); HTML LS "The style
      * element", SVG 2 6.3 (the style element's content) */
     {"{" XHTML_NS "}style=css", "{" SVG_NS "}style=css",
      "{" XHTML_NS "}*@style=css", "{" SVG_NS "}*@style=css",
      "{" MATHML_NS "}*@style=css", "{" SVG_NS "}*@fill=css",
      "{" SVG_NS "}*@stroke=css", "{" SVG_NS "}*@clip-path=css",
      "{" SVG_NS "}*@mask=css", "{" SVG_NS "}*@filter=css",
      "{" SVG_NS "}*@marker-start=css", "{" SVG_NS "}*@marker-mid=css",
      "{" SVG_NS "}*@marker-end=css", "{" SVG_NS "}*@cursor=css"}},
};

const char *xiri_preset_at(size_t i, const char **description)
{
    if (i >= ARRAY_LEN(presets)) {
        if (description)
            *description = NULL;
        return NULL;
    }
    if (description)
        *description = presets[i].description;
    return presets[i].name;
}

/* The directories searched, in order; entries may be NULL.  Never the
 * source tree: an uninstalled xiri sets $XIRI_SCHEMA_DIR for that. */
static void schema_dirs(const char *dirs[2])
{
    const char *env = getenv("XIRI_SCHEMA_DIR");

    dirs[0] = env && *env ? env : NULL;
#ifdef XIRI_SCHEMA_DIR
    dirs[1] = XIRI_SCHEMA_DIR;
#else
    dirs[1] = NULL;
#endif
}

/* Load one schema file of a preset from the first directory holding it. */
static enum xiri_status load_file(struct xiri_registry *reg, const char *preset,
                                  const char *file, struct xiri_error *err)
{
    const char *dirs[2];
    struct stat sb;
    char *path;
    size_t i, dl, fl = strlen(file);
    enum xiri_status st;

    schema_dirs(dirs);
    for (i = 0; i < 2; i++) {
        if (!dirs[i])
            continue;
        dl = strlen(dirs[i]);
        path = mem_alloc(dl + 1 + fl + 1);
        if (!path)
            return error_set(err, XIRI_ENOMEM, 0, "out of memory");
        memcpy(path, dirs[i], dl);
        path[dl] = '/';
        memcpy(path + dl + 1, file, fl + 1);
        if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
            st = xiri_registry_load_schema(reg, path, err);
            mem_free(path);
            return st;
        }
        mem_free(path);
    }
    return error_set(err, XIRI_EIO, 0,
                     "preset '%s': %s is in none of the schema directories "
                     "($XIRI_SCHEMA_DIR, %.60s)",
                     preset, file, dirs[1] ? dirs[1] : "none installed");
}

static enum xiri_status load_one(struct xiri_registry *reg,
                                 const struct preset *p, const char **done,
                                 size_t *ndone, struct xiri_error *err)
{
    size_t f, k;
    enum xiri_status st;

    for (f = 0; f < PRESET_MAX_FILES && p->files[f]; f++) {
        for (k = 0; k < *ndone; k++)
            if (strcmp(done[k], p->files[f]) == 0)
                break;
        if (k < *ndone)
            continue; /* html and xhtml share their file */
        st = p->files[f][0] == '?' || p->files[f][0] == '{'
                 ? xiri_registry_add_spec(reg, p->files[f], err)
                 : load_file(reg, p->name, p->files[f], err);
        if (st != XIRI_OK)
            return st;
        done[(*ndone)++] = p->files[f];
    }
    return XIRI_OK;
}

enum xiri_status xiri_registry_load_preset(struct xiri_registry *reg,
                                           const char *name,
                                           struct xiri_error *err)
{
    const char *done[ARRAY_LEN(presets) * PRESET_MAX_FILES];
    size_t ndone = 0, i, mark;
    char list[160];
    size_t used = 0;
    enum xiri_status st = XIRI_OK;

    if (!reg || !name)
        return error_set(err, XIRI_EINVAL, 0, "no registry or no name");
    mark = registry_mark(reg);
    if (strcmp(name, "all") == 0) {
        for (i = 0; i < ARRAY_LEN(presets) && st == XIRI_OK; i++)
            st = load_one(reg, &presets[i], done, &ndone, err);
        if (st != XIRI_OK)
            registry_rollback(reg, mark);
        return st;
    }
    for (i = 0; i < ARRAY_LEN(presets); i++)
        if (strcmp(name, presets[i].name) == 0) {
            st = load_one(reg, &presets[i], done, &ndone, err);
            if (st != XIRI_OK)
                registry_rollback(reg, mark);
            return st;
        }
    list[0] = '\0';
    for (i = 0; i < ARRAY_LEN(presets) && used < sizeof(list); i++)
        used += (size_t)snprintf(list + used, sizeof(list) - used, "%s, ",
                                 presets[i].name);
    return error_set(err, XIRI_EINVAL, 0, "unknown preset '%.20s' (%sall)",
                     name, list);
}

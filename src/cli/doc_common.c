/* doc_common.c - what the document commands (check, links, rewrite) share:
 * keyword option values, the registry from --presets, --schema and --attr,
 * the default file: base of a path, and the check of --base. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int doc_parse_keyword(const char *usage, const char *opt,
                      const struct doc_keyword *kw, const char *value, int *out)
{
    size_t i;

    for (i = 0; kw[i].name; i++)
        if (strcmp(kw[i].name, value) == 0) {
            *out = kw[i].value;
            return 0;
        }
    msg_text(CLI_PROG ": unknown value ");
    msg_quoted(value, strlen(value));
    fprintf(stderr, " for --%s; use ", opt);
    for (i = 0; kw[i].name; i++) {
        if (i > 0)
            fputs(kw[i + 1].name ? ", " : " or ", stderr);
        fputs(kw[i].name, stderr);
    }
    fprintf(stderr, "; see '%s --help'\n", usage);
    return CLI_EXIT_USAGE;
}

/* ------------------------------------------------------------ registry */

void doc_presets_list(void)
{
    const char *name, *desc;
    size_t i, width = 4; /* "none" */

    for (i = 0; (name = xiri_preset_at(i, &desc)) != NULL; i++)
        if (strlen(name) > width)
            width = strlen(name);
    for (i = 0; (name = xiri_preset_at(i, &desc)) != NULL && out_ok(); i++)
        out_printf("%-*s  %s\n", (int)width, name, desc ? desc : "");
    out_printf("%-*s  %s\n", (int)width, "none",
               "no preset: only --schema and --attr");
}

/* Load the presets of the comma-separated list. */
static int registry_presets(const char *usage, struct xiri_registry *reg,
                            const char *list)
{
    const char *p = list;
    char name[64];
    struct xiri_error e;
    enum xiri_status st;

    if (strcmp(list, "none") == 0 || list[0] == '\0')
        return 0;
    while (*p) {
        size_t n = strcspn(p, ",");

        if (n == 0 || n >= sizeof(name)) {
            msg_text(CLI_PROG ": bad preset list ");
            msg_quoted(list, strlen(list));
            fprintf(stderr,
                    "; give names separated by commas, such as "
                    "--presets=html,xlink; see '%s --presets=list'\n",
                    usage);
            return CLI_EXIT_USAGE;
        }
        memcpy(name, p, n);
        name[n] = '\0';
        e.message[0] = '\0';
        st = xiri_registry_load_preset(reg, name, &e);
        if (st == XIRI_EINVAL) {
            msg_text(CLI_PROG ": unknown preset ");
            msg_quoted(name, n);
            fprintf(stderr, "; see '%s --presets=list'\n", usage);
            return CLI_EXIT_USAGE;
        }
        if (st == XIRI_ENOMEM) {
            msg_error("out of memory");
            return CLI_EXIT_USAGE;
        }
        if (st != XIRI_OK) {
            /* the installed schemas are missing or broken */
            char where[96], text[sizeof(e.message) + 100];

            snprintf(where, sizeof(where), "cannot load the preset '%s'", name);
            snprintf(text, sizeof(text),
                     "%s; is xiri installed completely (or XIRI_SCHEMA_DIR "
                     "set right)?",
                     e.message[0] ? e.message : xiri_strerror(st));
            msg_about(where, text);
            return CLI_EXIT_USAGE;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

int doc_registry_setup(const char *usage, const char *presets,
                       const char *const *schemas, size_t nschemas,
                       const char *const *attrs, size_t nattrs,
                       struct xiri_registry **out)
{
    struct xiri_registry *reg = NULL;
    struct xiri_error e;
    enum xiri_status st;
    size_t i;
    int ret;

    st = xiri_registry_new(&reg);
    *out = reg; /* the caller frees it, also on failure */
    if (st != XIRI_OK) {
        msg_error("out of memory");
        return CLI_EXIT_USAGE;
    }
    ret = registry_presets(usage, reg, presets);
    if (ret)
        return ret;
    for (i = 0; i < nschemas; i++) {
        e.message[0] = '\0';
        st = xiri_registry_load_schema(reg, schemas[i], &e);
        if (st == XIRI_ENOMEM) {
            msg_error("out of memory");
            return CLI_EXIT_USAGE;
        }
        if (st != XIRI_OK) {
            /* the library's message names the file */
            msg_about("--schema", e.message[0] ? e.message : xiri_strerror(st));
            return CLI_EXIT_USAGE;
        }
    }
    for (i = 0; i < nattrs; i++) {
        e.message[0] = '\0';
        st = xiri_registry_add_spec(reg, attrs[i], &e);
        if (st == XIRI_ENOMEM) {
            msg_error("out of memory");
            return CLI_EXIT_USAGE;
        }
        if (st != XIRI_OK) {
            size_t n = strlen(attrs[i]) + sizeof(e.message) + 200;
            char *text = malloc(n);

            if (!text) {
                msg_error("out of memory");
                return CLI_EXIT_USAGE;
            }
            /* the library's message quotes the spec */
            snprintf(text, n,
                     "%s; write '{NS}element@attr', '@attr', '@{NS}attr' or "
                     "'{NS}element'; see '%s --help'",
                     e.message[0] ? e.message : xiri_strerror(st), usage);
            msg_about("--attr", text);
            free(text);
            return CLI_EXIT_USAGE;
        }
    }
    if (xiri_registry_count(reg) == 0)
        return usage_error(usage, "no attribute to look for: give --presets, "
                                  "--schema or --attr");
    return 0;
}

/* ---------------------------------------------------------- file URIs */

/* RFC 3986 3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@";
 * every other byte of a path is written %HH (2.1, upper-case hex). */
static bool is_pchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || strchr("-._~!$&'()*+,;=:@", c) != NULL;
}

/* Append path[0..n) to out (room for 3 bytes per byte) percent-encoded,
 * keeping '/'; colon_too: also escape ':' (the first segment of a
 * relative reference must not have one, RFC 3986 4.2). */
size_t doc_pct_path(char *out, const char *path, size_t n, bool colon_too)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t i, o = 0;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];

        if (c != '\0' &&
            (c == '/' || (is_pchar(c) && !(colon_too && c == ':'))))
            out[o++] = (char)c;
        else {
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 0xF];
        }
    }
    return o;
}

/* The current directory, malloc'd; NULL on failure (errno set). */
static char *current_dir(void)
{
    size_t size = 256;

    for (;;) {
        char *buf = malloc(size);

        if (!buf)
            return NULL;
        if (getcwd(buf, size))
            return buf;
        free(buf);
        if (errno != ERANGE || size > ((size_t)1 << 24))
            return NULL;
        size *= 2;
    }
}

/* The file: URI of a path (RFC 8089 2: "file://" with an empty authority
 * and the absolute path; RFC 3986 2.1 and 3.3 for the escapes): a relative
 * path is taken from the current directory, and "." and ".." segments
 * and repeated slashes are removed, as the shell would name the file.
 * NULL (errno set) when the current directory is unknown or memory
 * runs out. */
char *doc_file_uri(const char *path)
{
    char *cwd = NULL, *abs, *norm, *uri;
    const char *p;
    size_t n = 0, len;

    if (path[0] != '/') {
        cwd = current_dir();
        if (!cwd)
            return NULL;
    }
    len = (cwd ? strlen(cwd) + 1 : 0) + strlen(path);
    abs = malloc(len + 1);
    norm = malloc(len + 2);
    if (!abs || !norm) {
        free(abs);
        free(norm);
        free(cwd);
        errno = ENOMEM;
        return NULL;
    }
    abs[0] = '\0';
    if (cwd) {
        memcpy(abs, cwd, strlen(cwd));
        abs[strlen(cwd)] = '/';
        memcpy(abs + strlen(cwd) + 1, path, strlen(path) + 1);
    } else {
        memcpy(abs, path, strlen(path) + 1);
    }
    free(cwd);
    for (p = abs; *p;) {
        const char *seg;
        size_t seg_len;

        while (*p == '/')
            p++;
        seg = p;
        while (*p && *p != '/')
            p++;
        seg_len = (size_t)(p - seg);
        if (seg_len == 0 || (seg_len == 1 && seg[0] == '.'))
            continue;
        if (seg_len == 2 && seg[0] == '.' && seg[1] == '.') {
            while (n > 0 && norm[n - 1] != '/')
                n--;
            if (n > 0)
                n--;
            continue;
        }
        norm[n++] = '/';
        memcpy(norm + n, seg, seg_len);
        n += seg_len;
    }
    if (n == 0)
        norm[n++] = '/';
    free(abs);
    uri = malloc(7 + 3 * n + 1);
    if (!uri) {
        free(norm);
        errno = ENOMEM;
        return NULL;
    }
    memcpy(uri, "file://", 7);
    len = 7 + doc_pct_path(uri + 7, norm, n, false);
    uri[len] = '\0';
    free(norm);
    return uri;
}

/* ---------------------------------------------------------------- base */

/* Check --base: an absolute IRI (RFC 3986 4.3) in UTF-8. */
int doc_check_base(const char *usage, const char *base)
{
    struct xiri *iri = NULL;
    size_t n = strlen(base);
    int ok;

    if (utf8_valid_prefix(base, n) != n)
        return usage_error(usage, "the --base IRI is not UTF-8");
    if (xiri_parse(base, n, XIRI_PROFILE_LEIRI, &iri, NULL) != XIRI_OK)
        return usage_error(usage,
                           "the --base IRI is not an IRI; give an absolute "
                           "one, such as https://example.org/page.html");
    ok = xiri_is_absolute(iri);
    xiri_free(iri);
    if (!ok)
        return usage_error(usage,
                           "the --base IRI has no scheme; give an absolute "
                           "one, such as https://example.org/page.html");
    return 0;
}

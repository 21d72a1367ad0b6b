/* doc_common.c - what the document commands (check, links, rewrite) share:
 * the registry from --presets, --schema and --attr, the default file: base
 * of a path, the check of --base, and the files to process (operands,
 * directories with -r, --files-from). */
#define _XOPEN_SOURCE 700 /* lstat, strdup, fnmatch, opendir */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A schema loaded but not wholly (a remote xs:include or xs:import):
 * a warning on stderr, which does not change the exit status. */
static void schema_notice(void *user, const char *message)
{
    (void)user;
    msg_about("warning: --schema", message);
}

/* Whether schemas[i] was given before (loading it again would add
 * nothing, and tell its notices again). */
static bool schema_given_before(const char *const *schemas, size_t i)
{
    size_t k;

    for (k = 0; k < i; k++)
        if (strcmp(schemas[k], schemas[i]) == 0)
            return true;
    return false;
}

int doc_registry_setup(const char *usage, const char *presets,
                       const char *const *schemas, size_t nschemas,
                       const char *const *attrs, size_t nattrs, bool quiet,
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
    if (!quiet)
        xiri_registry_set_notice(reg, schema_notice, NULL);
    ret = registry_presets(usage, reg, presets);
    if (ret)
        return ret;
    for (i = 0; i < nschemas; i++) {
        if (schema_given_before(schemas, i))
            continue;
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
                     "%s; write '{NS}element@attr', '@attr', '@{NS}attr', "
                     "'{NS}element' or '?target@name'; see '%s --help'",
                     e.message[0] ? e.message : xiri_strerror(st), usage);
            msg_about("--attr", text);
            free(text);
            return CLI_EXIT_USAGE;
        }
    }
    if (xiri_registry_count(reg) == 0 && nschemas > 0)
        return usage_error(usage, "no attribute to look for: the schemas "
                                  "given (--schema) declare no attribute or "
                                  "element of type xs:anyURI (or a list or "
                                  "union of it); give --presets or --attr "
                                  "too");
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

/* ---------------------------------------------------------- file lists */

/* The names -r takes when no --include is given: the extensions the
 * walker knows a document type by (input.c, sniff_type), any case. */
static const char *const default_ext[] = {
    "html", "htm",  "shtml", "xml", "xhtml", "xht", "svg",  "atom", "rss",
    "rdf",  "xsd",  "xsl",   "xslt", "opf",  "kml", "gpx",  "xbel", "owl",
};

static bool ext_is_default(const char *name)
{
    const char *dot = strrchr(name, '.');
    size_t i, k;

    if (!dot || dot == name)
        return false;
    for (i = 0; i < sizeof(default_ext) / sizeof(default_ext[0]); i++) {
        const char *e = default_ext[i];

        for (k = 0; e[k] && dot[1 + k] &&
                    (dot[1 + k] == e[k] || dot[1 + k] == e[k] - 'a' + 'A');
             k++)
            ;
        if (!e[k] && !dot[1 + k])
            return true;
    }
    return false;
}

static bool matches_any(const char *name, const char *const *globs, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (fnmatch(globs[i], name, 0) == 0)
            return true;
    return false;
}

/* Whether a file found under a directory is taken (by its name, without
 * the directory). */
static bool file_taken(const struct doc_inputs *in, const char *name)
{
    if (matches_any(name, in->excludes, in->nexcludes))
        return false;
    return in->nincludes ? matches_any(name, in->includes, in->nincludes)
                         : ext_is_default(name);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

struct each {
    const char *usage;
    const struct doc_inputs *in;
    doc_file_fn *fn;
    doc_stop_fn *stop;
    void *user;
    int status;
};

static void each_error(struct each *e, const char *path, const char *what,
                       int err)
{
    size_t n = strlen(what) + 200;
    char *text = malloc(n);

    if (text) {
        snprintf(text, n, "%s: %s", what, strerror(err));
        msg_about(path, text);
        free(text);
    } else {
        msg_error("out of memory");
    }
    e->status = CLI_EXIT_USAGE;
}

/* Every file taken under the directory dir, in byte order of the names,
 * depth first.  Symbolic links to directories are not followed (no
 * loops); links to files are taken like files. */
static void each_in_dir(struct each *e, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char **names = NULL;
    size_t n = 0, cap = 0, i, dlen = strlen(dir);

    if (!d) {
        each_error(e, dir, "cannot read the directory", errno);
        return;
    }
    errno = 0;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (n == cap) {
            size_t c = cap ? 2 * cap : 64;
            char **p = realloc(names, c * sizeof(*p));

            if (!p)
                break;
            names = p;
            cap = c;
        }
        names[n] = strdup(de->d_name);
        if (!names[n])
            break;
        n++;
        errno = 0;
    }
    if (de != NULL || errno != 0) {
        each_error(e, dir,
                   de ? "cannot list the directory"
                      : "cannot read the directory",
                   de ? ENOMEM : errno);
        de = NULL;
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof(*names), cmp_names);
    for (i = 0; i < n; i++) {
        size_t len = dlen + 1 + strlen(names[i]) + 1;
        char *path = malloc(len);
        struct stat st;

        if (!path) {
            each_error(e, dir, "cannot list the directory", ENOMEM);
            break;
        }
        snprintf(path, len, "%s%s%s", dir,
                 dlen && dir[dlen - 1] == '/' ? "" : "/", names[i]);
        if (e->stop(e->user)) {
            free(path);
            break;
        }
        if (lstat(path, &st) != 0) {
            each_error(e, path, "cannot read", errno);
        } else if (S_ISDIR(st.st_mode)) {
            if (!matches_any(names[i], e->in->excludes, e->in->nexcludes))
                each_in_dir(e, path);
        } else if ((S_ISREG(st.st_mode) ||
                    (S_ISLNK(st.st_mode) && stat(path, &st) == 0 &&
                     S_ISREG(st.st_mode))) &&
                   file_taken(e->in, names[i])) {
            e->fn(e->user, path);
        }
        free(path);
    }
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* One name given (an operand or a line of --files-from). */
static void each_name(struct each *e, const char *name)
{
    struct stat st;

    if (e->in->recursive && strcmp(name, "-") != 0 && stat(name, &st) == 0 &&
        S_ISDIR(st.st_mode))
        each_in_dir(e, name);
    else
        e->fn(e->user, name);
}

/* The names of --files-from, each ended by '\n' (or NUL with -0); an
 * empty name is skipped. */
static void each_listed(struct each *e)
{
    const char *path = e->in->files_from;
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    int sep = e->in->null_sep ? '\0' : '\n';
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int c;

    if (!fp) {
        each_error(e, path, "cannot open the list of files", errno);
        return;
    }
    for (;;) {
        c = getc(fp);
        if (c == EOF || c == sep) {
            if (len > 0 && !e->stop(e->user)) {
                buf[len] = '\0';
                /* a name in a list is a file name: "-" too */
                each_name(e, strcmp(buf, "-") == 0 ? "./-" : buf);
            }
            len = 0;
            if (c == EOF || e->stop(e->user))
                break;
            continue;
        }
        if (len + 1 >= cap) {
            size_t nc = cap ? 2 * cap : 256;
            char *p = realloc(buf, nc);

            if (!p) {
                each_error(e, path, "cannot read the list of files", ENOMEM);
                break;
            }
            buf = p;
            cap = nc;
        }
        buf[len++] = (char)c;
    }
    if (ferror(fp))
        each_error(e, path, "cannot read the list of files", errno);
    free(buf);
    if (!is_stdin)
        fclose(fp);
}

int doc_inputs_each(const char *usage, const struct doc_inputs *in,
                    const char *const *ops, size_t nops, doc_file_fn *fn,
                    doc_stop_fn *stop, void *user)
{
    struct each e = {usage, in, fn, stop, user, 0};
    size_t i;

    for (i = 0; i < nops && !stop(user); i++)
        each_name(&e, ops[i]);
    if (in->files_from && !stop(user))
        each_listed(&e);
    return e.status;
}

int doc_inputs_check(const char *usage, const struct doc_inputs *in,
                     const char *const *ops, size_t nops)
{
    size_t i;

    if (in->null_sep && !in->files_from)
        return usage_error(usage, "option '-0' needs --files-from");
    if ((in->nincludes || in->nexcludes) && !in->recursive)
        return usage_error(usage, "options '--include' and '--exclude' need "
                                  "-r");
    if (nops == 0 && !in->files_from)
        return usage_error(usage,
                           "no FILE given; use '-' for the standard input");
    if (in->files_from && strcmp(in->files_from, "-") == 0)
        for (i = 0; i < nops; i++)
            if (strcmp(ops[i], "-") == 0)
                return usage_error(usage, "the standard input cannot be both "
                                          "a FILE and --files-from");
    return 0;
}

bool doc_is_inputs_opt(const struct opt_def *d)
{
    return d->id >= OPT_RECURSIVE && d->id <= OPT_NULL;
}

void doc_inputs_opt(struct doc_inputs *in, const struct opt_def *d,
                    const char *value)
{
    switch (d->id) {
    case OPT_RECURSIVE:
        in->recursive = true;
        break;
    case OPT_INCLUDE:
        in->includes[in->nincludes++] = value;
        break;
    case OPT_EXCLUDE:
        in->excludes[in->nexcludes++] = value;
        break;
    case OPT_FILES_FROM:
        in->files_from = value;
        break;
    case OPT_NULL:
        in->null_sep = true;
        break;
    default:
        break;
    }
}

/* cmd_doc.c - "xiri check" and "xiri links": walk XML and HTML documents,
 * read in fixed-size chunks, and report the problems of the IRIs they
 * hold (text, JSON or SARIF) or list them with base, resolved IRI and URI
 * (TSV or JSON).  What "rewrite" shares with them is in doc_common.c. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum doc_cmd { DC_CHECK, DC_LINKS };

enum doc_fmt { F_TEXT, F_JSON, F_SARIF, F_TSV };

/* SARIF 2.1.0 (OASIS Standard incorporating Approved Errata 01), 3.13.3:
 * the JSON schema, named by its own "id". */
#define SARIF_SCHEMA                                                      \
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/" \
    "sarif-schema-2.1.0.json"

/* ---------------------------------------------------------------- help */

#define DOC_OPTIONS_HELP                                                       \
    "  --xml, --html         parse the documents as XML or as HTML\n"          \
    "                        (default: from the content and the file name)\n"  \
    "  --encoding=NAME       the documents' encoding, overriding byte order\n" \
    "                        marks and declarations (any name ICU knows)\n"    \
    "  --base=IRI            the base IRI of the documents (default: each\n"   \
    "                        file's absolute path as a file: URI; none for\n"  \
    "                        the standard input)\n"                            \
    "  --presets=LIST        the built-in sets of IRI attributes to use,\n"    \
    "                        comma-separated (default: all); 'none' for\n"     \
    "                        none; --presets=list lists them\n"                \
    "  --schema=FILE.xsd     also the attributes and elements this XML\n"      \
    "                        Schema declares as xs:anyURI or derived from\n"   \
    "                        it (repeatable)\n"                                \
    "  --attr=SPEC           also this attribute: '{NS}element@attr',\n"       \
    "                        'element@attr', '@attr' (any element),\n"         \
    "                        '@{NS}attr', '{NS}element' for an element's\n"    \
    "                        content, or '?target@name' for a processing\n"    \
    "                        instruction's; '=SHAPE' after it when\n"          \
    "                        the value is not one IRI (list, srcset...:\n"     \
    "                        xiri(1)) (repeatable)\n"                          \
    "  --profile=NAME        the rules the IRIs must follow: rfc3987, uri,\n"  \
    "                        leiri or html (default: leiri in XML, html in\n"  \
    "                        HTML); xml is leiri, ascii is uri (what\n"        \
    "                        legacy consumers accept; the output of\n"         \
    "                        'rewrite --to=uri' passes it); xiri(1),\n"        \
    "                        PROFILES\n" OPT_LIMITS_HELP("checked")

static const char check_help[] =
    "Usage: xiri check [OPTIONS] FILE...\n"
    "\n"
    "Check the IRIs in XML and HTML documents.  Every attribute and element\n"
    "that holds IRIs (as the presets and schemas say) is decoded as the\n"
    "document means it, split into its IRIs (lists, srcset, meta refresh)\n"
    "and checked as 'xiri iri check' does, with the checks that need the\n"
    "document: a relative reference with no base, the query of a page not\n"
    "in UTF-8, bytes the document's encoding does not define.  FILE '-' is\n"
    "the standard input.  Each finding is printed as\n"
    "    FILE:LINE:COL: SEVERITY: MESSAGE [CODE]\n"
    "followed by the value with a caret under the offending part; LINE and\n"
    "COL (characters, from 1) are its place in the document.  Findings\n"
    "about the document itself have no caret.  'xiri explain CODE' tells\n"
    "more about a code.\n"
    "\n"
    "Options:\n" DOC_OPTIONS_HELP DOC_INPUTS_HELP JOBS_HELP PARSE_THREAD_HELP
    "  --min-severity=LEVEL  print only findings of LEVEL or above: note\n"
    "                        (default), warning or error\n" CODE_FILTER_HELP
    "  --format=FORMAT       text (default); json: one object per finding\n"
    "                        with the keys file, line, column, offset (the\n"
    "                        byte offset of the value in the file),\n"
    "                        value_offset (of the finding in the value),\n"
    "                        element, attribute, value, severity, code,\n"
    "                        message; sarif: one SARIF 2.1.0 log, for\n"
    "                        code-scanning tools\n"
    "  --baseline=FILE       report only the findings FILE does not record\n"
    "                        (by file, code and value; a line given twice\n"
    "                        absorbs two); the exit status counts only\n"
    "                        those reported\n"
    "  --write-baseline=FILE record the findings in FILE (sorted, replaced\n"
    "                        atomically); they are still printed but no\n"
    "                        longer count in the exit status; with\n"
    "                        --baseline, only those it absorbed (the\n"
    "                        baseline only shrinks)\n"
    "  -q, --quiet           print nothing; only the exit status tells\n"
    "  -h, --help            print this help\n"
    "\n"
    "Exit status: 0 no finding of severity error (--fail-on: of LEVEL or\n"
    "above); 1 such a finding; 2 a file that could not be read or parsed\n"
    "(the other files are still checked), or a usage or output error.\n";

static const char links_help[] =
    "Usage: xiri links [OPTIONS] FILE...\n"
    "\n"
    "List the IRIs in XML and HTML documents, one record per IRI: where it\n"
    "is, its value as the document means it (references decoded), the\n"
    "base in force, the value resolved against it (RFC 3986 5.2), that\n"
    "mapped to a URI (RFC 3987 3.1, with the host names of DNS schemes in\n"
    "punycode), and the codes 'xiri check' reports for it.  FILE '-' is\n"
    "the standard input.\n"
    "\n"
    "Options:\n" DOC_OPTIONS_HELP DOC_INPUTS_HELP JOBS_HELP PARSE_THREAD_HELP
    "  --format=FORMAT       tsv (default): a header line, then one line per\n"
    "                        IRI with the fields file, line, column, offset,\n"
    "                        element, attribute, value, base, resolved, uri\n"
    "                        and codes (comma-separated) between TABs; TAB,\n"
    "                        LF, CR and \\ written \\t \\n \\r \\\\; an\n"
    "                        absent field is empty; json: one object per IRI\n"
    "                        with those keys and raw_length (the bytes the\n"
    "                        value takes in the file from offset; null for\n"
    "                        a value with no span of its own: the empty\n"
    "                        value of an empty-element tag, <e/>, content\n"
    "                        in an entity's replacement text), null when\n"
    "                        absent, codes an array\n"
    "  -q, --quiet           do not print the documents' notes and warnings\n"
    "                        on the standard error, nor the summary line\n"
    "  -h, --help            print this help\n"
    "\n"
    "Exit status: 0 every file was read; 2 a file that could not be read or\n"
    "parsed (the other files are still listed), or a usage or output\n"
    "error.\n";

/* ------------------------------------------------------------- options */

enum opt_id {
    O_HELP,
    O_XML,
    O_HTML,
    O_ENCODING,
    O_BASE,
    O_PRESETS,
    O_SCHEMA,
    O_ATTR,
    O_PROFILE,
    O_MIN_SEVERITY,
    O_FORMAT,
    O_QUIET,
    O_BASELINE,
    O_WRITE_BASELINE,
    O_FAIL_ON,
    O_IGNORE
};

static const struct opt_keyword kw_profile[] = {
    {"rfc3987", XIRI_PROFILE_RFC3987},
    {"uri", XIRI_PROFILE_URI},
    {"leiri", XIRI_PROFILE_LEIRI},
    {"html", XIRI_PROFILE_HTML},
    /* the presets of xiri(1), PROFILES: xml is the LEIRI of XML Base and
     * XML Schema 1.1 anyURI, ascii what legacy consumers accept */
    {"xml", XIRI_PROFILE_LEIRI},
    {"ascii", XIRI_PROFILE_URI},
    {NULL, 0},
};
static const struct opt_keyword kw_severity[] = {
    {"note", XIRI_SEV_NOTE},
    {"warning", XIRI_SEV_WARNING},
    {"error", XIRI_SEV_ERROR},
    {NULL, 0},
};
static const struct opt_keyword kw_format_check[] = {
    {"text", F_TEXT},
    {"json", F_JSON},
    {"sarif", F_SARIF},
    {NULL, 0},
};
static const struct opt_keyword kw_format_links[] = {
    {"tsv", F_TSV},
    {"json", F_JSON},
    {NULL, 0},
};

#define FOR_CHECK 0x1u
#define FOR_LINKS 0x2u
#define FOR_BOTH (FOR_CHECK | FOR_LINKS)

static const struct opt_def opt_defs[] = {
    {"help", O_HELP, OPT_FLAG, NULL, FOR_BOTH},
    {"xml", O_XML, OPT_FLAG, NULL, FOR_BOTH},
    {"html", O_HTML, OPT_FLAG, NULL, FOR_BOTH},
    {"encoding", O_ENCODING, OPT_VALUE, NULL, FOR_BOTH},
    {"base", O_BASE, OPT_VALUE, NULL, FOR_BOTH},
    {"presets", O_PRESETS, OPT_VALUE, NULL, FOR_BOTH},
    {"schema", O_SCHEMA, OPT_VALUE, NULL, FOR_BOTH},
    {"attr", O_ATTR, OPT_VALUE, NULL, FOR_BOTH},
    {"profile", O_PROFILE, OPT_VALUE, kw_profile, FOR_BOTH},
    {"min-severity", O_MIN_SEVERITY, OPT_VALUE, kw_severity, FOR_CHECK},
    {"format", O_FORMAT, OPT_VALUE, kw_format_check, FOR_CHECK},
    {"format", O_FORMAT, OPT_VALUE, kw_format_links, FOR_LINKS},
    {"quiet", O_QUIET, OPT_FLAG, NULL, FOR_BOTH},
    {"baseline", O_BASELINE, OPT_VALUE, NULL, FOR_CHECK},
    {"write-baseline", O_WRITE_BASELINE, OPT_VALUE, NULL, FOR_CHECK},
    {"fail-on", O_FAIL_ON, OPT_VALUE, kw_severity, FOR_CHECK},
    {"ignore", O_IGNORE, OPT_VALUE, NULL, FOR_CHECK},
    OPT_LIMIT_DEFS(FOR_BOTH),
    OPT_INPUT_DEFS(FOR_BOTH),
    OPT_JOBS_DEF(FOR_BOTH),
    OPT_PARSE_THREAD_DEF(FOR_BOTH),
};

struct doc_opts {
    enum xiri_doc_type type;
    const char *encoding;
    const char *base;
    const char *presets;
    const char **schemas; /* in the order given */
    size_t nschemas;
    const char **attrs;
    size_t nattrs;
    bool profile_set;
    enum xiri_profile profile;
    enum xiri_severity min_severity;
    enum xiri_severity fail_on;  /* --fail-on: exit 1 from this severity */
    struct code_filter ignore;   /* --ignore */
    enum doc_fmt fmt;
    bool quiet;
    struct xiri_walk_options limits; /* only the max_ fields are used */
    struct doc_inputs inputs;        /* -r, --files-from ... */
    const char *baseline;            /* --baseline FILE */
    const char *write_baseline;      /* --write-baseline FILE */
    const char *jobs;                /* -j N (NULL: the CPUs) */
    enum parse_thread parse_thread_when; /* --parse-thread */
    bool parse_thread;                   /* and what it decided */
};

/* The state of one run of a command. */
struct doc_run {
    enum doc_cmd cmd;
    const char *usage; /* "xiri check", for "see '... --help'" */
    struct doc_opts o;
    struct xiri_ctx *ctx;
    struct xiri_registry *reg;
    char *chunk;            /* CLI_READ_SIZE bytes */
    struct cli_state state; /* the worst exit status so far, stop */
    size_t seq;      /* the number of the file being walked */
    size_t nseen;    /* files walked, without -j */
    /* links: the distinct codes of the current link, each NUL-ended */
    char *codes;
    size_t codes_len, codes_cap;
    /* SARIF: the files that could not be read or parsed, for
     * toolExecutionNotifications, in the order of the files (seq) and
     * then of their messages (ord; -j: merged by pool_end) */
    struct sarif_failure {
        size_t seq, ord;
        char *uri; /* NULL for the standard input */
        char *text;
    } *failures;
    size_t nfailures, failures_cap;
    /* check: --baseline read (NULL: none), --write-baseline recorded */
    struct baseline *bl, *bl_out;
    struct run_summary sum; /* for the line ending the run */
    /* -j: the pool and its workers' states; in a worker, main is the
     * run it copies */
    struct jobs *pool;
    struct doc_run *workers, *main;
    size_t nworkers;
    _Atomic bool pool_stop; /* a worker ran out of memory */
};

/* One document being walked. */
struct doc_file {
    struct doc_run *r;
    const char *name;  /* as given; "-" is the standard input */
    const char *shown; /* in text: the name, or "<stdin>" */
    char *uri;         /* SARIF artifact URI, NULL for the standard input */
    struct xiri_walker *w;
};

/* A finding to print: about one IRI (link != NULL) or the document. */
struct finding {
    unsigned long line, column;
    unsigned long end_line, end_column; /* SARIF: after the span (0: not
                                           known) */
    size_t offset;       /* byte offset in the file */
    size_t value_offset; /* and in the value (links only) */
    size_t length;       /* bytes of the value it is about */
    const struct xiri_link *link;
    const char *value; /* without a link: the value a finding about the */
    size_t value_len;  /* document is about, or NULL; its element and */
    const char *element, *attribute; /* attribute */
    enum xiri_severity severity;
    const char *code;
    const char *message;
};

/* Apply one option; returns 0, CLI_EXIT_USAGE, or -1 for --help. */
static int apply_opt(struct doc_run *r, struct argscan *as, const char *arg,
                     int kind, const char *name, size_t name_len,
                     const char *value)
{
    const struct opt_table table = {
        r->usage, opt_defs, sizeof(opt_defs) / sizeof(opt_defs[0]),
        r->cmd == DC_CHECK ? FOR_CHECK : FOR_LINKS};
    const struct opt_def *d;
    int v = 0, st;

    if (kind == 2) {
        if (strcmp(name, "h") == 0)
            return -1;
        if (strcmp(name, "q") == 0) {
            r->o.quiet = true;
            return 0;
        }
        if (strcmp(name, "r") == 0) {
            r->o.inputs.recursive = true;
            return 0;
        }
        if (strcmp(name, "0") == 0) {
            r->o.inputs.null_sep = true;
            return 0;
        }
        if (name[0] == 'j') {
            /* -j N or -jN */
            r->o.jobs = name[1] ? name + 1 : argscan_take(as);
            if (!r->o.jobs)
                return usage_error(r->usage, "option '-j' needs a number");
            return 0;
        }
        return opt_unknown(r->usage, arg, strlen(arg));
    }
    st = opt_long(&table, as, arg, name, name_len, &value, &d, &v);
    if (st)
        return st;
    if (opt_is_limit(d))
        return opt_limit(r->usage, d, value, &r->o.limits);
    if (doc_is_inputs_opt(d)) {
        doc_inputs_opt(&r->o.inputs, d, value);
        return 0;
    }
    if (d->id == OPT_JOBS) {
        r->o.jobs = value;
        return 0;
    }
    if (d->id == OPT_PARSE_THREAD) {
        r->o.parse_thread_when = (enum parse_thread)v;
        return 0;
    }
    switch (d->id) {
    case O_HELP:
        return -1;
    case O_XML:
    case O_HTML:
        if (r->o.type != XIRI_DOC_AUTO &&
            r->o.type != (d->id == O_XML ? XIRI_DOC_XML : XIRI_DOC_HTML))
            return usage_error(r->usage,
                               "options '--xml' and '--html' exclude each "
                               "other");
        r->o.type = d->id == O_XML ? XIRI_DOC_XML : XIRI_DOC_HTML;
        break;
    case O_ENCODING:
        r->o.encoding = value;
        break;
    case O_BASE:
        r->o.base = value;
        break;
    case O_PRESETS:
        r->o.presets = value;
        break;
    case O_SCHEMA:
        r->o.schemas[r->o.nschemas++] = value;
        break;
    case O_ATTR:
        r->o.attrs[r->o.nattrs++] = value;
        break;
    case O_PROFILE:
        r->o.profile_set = true;
        r->o.profile = (enum xiri_profile)v;
        break;
    case O_MIN_SEVERITY:
        r->o.min_severity = (enum xiri_severity)v;
        break;
    case O_FORMAT:
        r->o.fmt = (enum doc_fmt)v;
        break;
    case O_QUIET:
        r->o.quiet = true;
        break;
    case O_BASELINE:
        r->o.baseline = value;
        break;
    case O_WRITE_BASELINE:
        if (strcmp(value, "-") == 0)
            return usage_error(r->usage,
                               "'--write-baseline -': the findings go to "
                               "standard output; give the baseline a file "
                               "name");
        r->o.write_baseline = value;
        break;
    case O_FAIL_ON:
        r->o.fail_on = (enum xiri_severity)v;
        break;
    case O_IGNORE:
        return code_filter_add(&r->o.ignore, value);
    }
    return 0;
}

/* ------------------------------------------------------- artifact URIs */

/* SARIF 3.4.3: an artifact's uri is a URI reference: the file: URI of an
 * absolute path, the escaped path of a relative one. */
static char *artifact_uri(const char *path)
{
    size_t n = strlen(path), len;
    char *uri;

    if (path[0] == '/')
        return doc_file_uri(path);
    uri = malloc(3 * n + 1);
    if (!uri)
        return NULL;
    len = doc_pct_path(uri, path, n, true);
    uri[len] = '\0';
    return uri;
}

/* ------------------------------------------------------------- output */

static void json_str(const char *s)
{
    if (s)
        out_json_string(s, strlen(s));
    else
        out_puts("null");
}

/* A string literal, written without strlen (once per link and key). */
#define OUT_LIT(s) out_write((s), sizeof(s) - 1)

/* A piece of a record built in memory and written at once: a link's
 * numbers are written by hand (printf costs about 500 instructions a
 * number, for every link) and with the text around them in one write. */
struct rec {
    char b[256];
    size_t n;
};

static void rec_str(struct rec *r, const char *s)
{
    size_t n = strlen(s);

    if (n > sizeof(r->b) - r->n)
        n = sizeof(r->b) - r->n;
    memcpy(r->b + r->n, s, n);
    r->n += n;
}

/* v in decimal, as "%lu" and "%zu" write it */
static void rec_num(struct rec *r, unsigned long long v)
{
    char d[24];
    size_t k = sizeof(d);

    do {
        d[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    if (sizeof(d) - k <= sizeof(r->b) - r->n) {
        memcpy(r->b + r->n, d + k, sizeof(d) - k);
        r->n += sizeof(d) - k;
    }
}

static void rec_write(const struct rec *r)
{
    out_write(r->b, r->n);
}

/* A TSV field (the IANA text/tab-separated-values type forbids TAB and
 * line ends in fields): TAB, LF, CR and backslash escaped. */
static void tsv_field(const char *s, size_t n)
{
    size_t i, run = 0;

    for (i = 0; i < n; i++) {
        const char *esc;

        switch (s[i]) {
        case '\t':
            esc = "\\t";
            break;
        case '\n':
            esc = "\\n";
            break;
        case '\r':
            esc = "\\r";
            break;
        case '\\':
            esc = "\\\\";
            break;
        default:
            continue;
        }
        out_write(s + run, i - run);
        out_puts(esc);
        run = i + 1;
    }
    out_write(s + run, n - run);
}

static void tsv_str(const char *s)
{
    if (s)
        tsv_field(s, strlen(s));
}

/* SARIF 3.27.10: level is "error", "warning" or "note". */
static const char *sarif_level(enum xiri_severity sev)
{
    return sev == XIRI_SEV_ERROR     ? "error"
           : sev == XIRI_SEV_WARNING ? "warning"
                                     : "note";
}

/* The index of a code in the catalogue (the SARIF rules), or -1. */
static long rule_index(const char *code)
{
    const struct xiri_code_info *c;
    size_t i;

    for (i = 0; code && (c = xiri_code_at(i)) != NULL; i++)
        if (strcmp(c->code, code) == 0)
            return (long)i;
    return -1;
}

static void print_text(const struct doc_file *f, const struct finding *fd)
{
    struct rec rc = {.n = 0};

    out_visible(f->shown, strlen(f->shown));
    if (fd->line > 0) {
        rec_str(&rc, ":");
        rec_num(&rc, fd->line);
        rec_str(&rc, ":");
        rec_num(&rc, fd->column);
    }
    rec_str(&rc, ": ");
    rec_write(&rc);
    out_puts(xiri_severity_name(fd->severity));
    out_puts(": ");
    out_visible(fd->message, strlen(fd->message));
    if (fd->code[0]) {
        out_puts(" [");
        out_puts(fd->code);
        out_putc(']');
    }
    out_putc('\n');
    if (fd->link)
        out_excerpt(fd->link->value, fd->link->value_len, fd->value_offset,
                    fd->length);
}

static void print_json(const struct doc_file *f, const struct finding *fd)
{
    const struct xiri_link *l = fd->link;
    struct rec rc = {.n = 0};

    out_puts("{\"file\":");
    json_str(f->name);
    if (fd->line > 0) {
        rec_str(&rc, ",\"line\":");
        rec_num(&rc, fd->line);
        rec_str(&rc, ",\"column\":");
        rec_num(&rc, fd->column);
        rec_str(&rc, ",\"offset\":");
        rec_num(&rc, fd->offset);
    } else { /* a finding about the whole document */
        rec_str(&rc, ",\"line\":null,\"column\":null,\"offset\":null");
    }
    rec_str(&rc, ",\"value_offset\":");
    if (l)
        rec_num(&rc, fd->value_offset);
    else
        rec_str(&rc, "null");
    rec_str(&rc, ",\"element\":");
    rec_write(&rc);
    json_str(l ? l->element : fd->element);
    out_puts(",\"attribute\":");
    json_str(l ? l->attribute : fd->attribute);
    out_puts(",\"value\":");
    if (l)
        out_json_string(l->value, l->value_len);
    else if (fd->value)
        out_json_string(fd->value, fd->value_len);
    else
        out_puts("null");
    out_puts(",\"severity\":");
    json_str(xiri_severity_name(fd->severity));
    out_puts(",\"code\":");
    json_str(fd->code);
    out_puts(",\"message\":");
    json_str(fd->message);
    out_puts("}\n");
}

/* SARIF 3.27: one result, on one line. */
static void print_sarif(struct doc_file *f, const struct finding *fd)
{
    long idx = rule_index(fd->code);

    out_item(",\n");
    out_puts("        {\"ruleId\":");
    json_str(fd->code);
    if (idx >= 0)
        out_printf(",\"ruleIndex\":%ld", idx);
    out_printf(",\"level\":\"%s\",\"message\":{\"text\":",
               sarif_level(fd->severity));
    json_str(fd->message);
    out_puts("},\"locations\":[{\"physicalLocation\":{"
             "\"artifactLocation\":");
    if (f->uri) {
        out_puts("{\"uri\":");
        json_str(f->uri);
        out_putc('}');
    } else {
        out_puts("{\"description\":{\"text\":\"standard input\"}}");
    }
    /* 3.30.5, 3.30.6: lines and columns count from 1; 3.30.7-3.30.9:
     * the end is the character after the region */
    if (fd->line > 0) {
        out_printf(",\"region\":{\"startLine\":%lu", fd->line);
        if (fd->column > 0)
            out_printf(",\"startColumn\":%lu", fd->column);
        if (fd->column > 0 && fd->end_line > 0)
            out_printf(",\"endLine\":%lu,\"endColumn\":%lu", fd->end_line,
                       fd->end_column);
        out_putc('}');
    }
    out_puts("}}]");
    if (fd->link) {
        out_puts(",\"properties\":{\"element\":");
        json_str(fd->link->element);
        out_puts(",\"attribute\":");
        json_str(fd->link->attribute);
        out_puts(",\"value\":");
        out_json_string(fd->link->value, fd->link->value_len);
        out_putc('}');
    }
    out_putc('}');
}

static void print_finding(struct doc_file *f, const struct finding *fd)
{
    struct doc_run *r = f->r;

    if (r->o.quiet || fd->severity < r->o.min_severity)
        return;
    summary_count(&r->sum, fd->severity);
    switch (r->o.fmt) {
    case F_JSON:
        print_json(f, fd);
        break;
    case F_SARIF:
        print_sarif(f, fd);
        break;
    default:
        print_text(f, fd);
        break;
    }
}

/* "xiri: FILE:LINE:COL: SEVERITY: MESSAGE [CODE]" on stderr. */
static void msg_finding(const struct doc_file *f, const struct finding *fd)
{
    const char *sev = xiri_severity_name(fd->severity);
    size_t wn = strlen(f->shown) + 48;
    size_t tn = strlen(sev) + strlen(fd->message) + strlen(fd->code) + 8;
    char *where = malloc(wn), *text = malloc(tn);

    if (!where || !text) {
        free(where);
        free(text);
        cli_out_of_memory(&f->r->state);
        return;
    }
    if (fd->line > 0)
        snprintf(where, wn, "%s:%lu:%lu", f->shown, fd->line, fd->column);
    else
        snprintf(where, wn, "%s", f->shown);
    snprintf(text, tn, "%s: %s%s%s%s", sev, fd->message,
             fd->code[0] ? " [" : "", fd->code, fd->code[0] ? "]" : "");
    msg_about(where, text);
    free(where);
    free(text);
}

/* SARIF 3.13 (sarifLog), 3.14 (run), 3.18-3.19 (tool, driver), 3.49
 * (reportingDescriptor: the rules, one per code of the catalogue). */
static void sarif_begin(void)
{
    const struct xiri_code_info *c;
    char help[200];
    size_t i;

    out_puts("{\n  \"$schema\": \"" SARIF_SCHEMA "\",\n"
             "  \"version\": \"2.1.0\",\n"
             "  \"runs\": [\n"
             "    {\n"
             "      \"tool\": {\n"
             "        \"driver\": {\n"
             "          \"name\": \"xiri\",\n"
             "          \"version\": \"" XIRI_VERSION_STRING "\",\n"
             "          \"rules\": [\n");
    for (i = 0; (c = xiri_code_at(i)) != NULL; i++) {
        if (i > 0)
            out_puts(",\n");
        out_puts("            {\"id\":");
        json_str(c->code);
        out_puts(",\"shortDescription\":{\"text\":");
        json_str(c->summary ? c->summary : c->code);
        out_puts("},\"fullDescription\":{\"text\":");
        json_str(c->explanation && c->explanation[0] ? c->explanation
                                                     : c->summary);
        out_puts("},\"help\":{\"text\":");
        snprintf(help, sizeof(help), "%s%s%sRun 'xiri explain %s' for more.",
                 c->section && c->section[0] ? "See " : "",
                 c->section ? c->section : "",
                 c->section && c->section[0] ? ". " : "", c->code);
        json_str(help);
        out_printf("},\"defaultConfiguration\":{\"level\":\"%s\"}}",
                   sarif_level(c->severity));
    }
    out_puts("\n          ]\n"
             "        }\n"
             "      },\n"
             "      \"columnKind\": \"unicodeCodePoints\",\n"
             "      \"results\": [\n");
}

/* SARIF 3.20 (invocation): whether every file was processed, and, as
 * toolExecutionNotifications (3.20.21, 3.58), the files that were not. */
static void sarif_end(const struct doc_run *r)
{
    size_t i;

    out_puts(out_items_reset() ? "\n" : "");
    out_printf("      ],\n"
               "      \"invocations\": [\n"
               "        {\"executionSuccessful\": %s",
               r->state.status >= CLI_EXIT_USAGE ? "false" : "true");
    if (r->nfailures > 0) {
        out_puts(", \"toolExecutionNotifications\": [");
        for (i = 0; i < r->nfailures; i++) {
            out_puts(i ? ",\n          " : "\n          ");
            out_puts("{\"level\":\"error\",\"message\":{\"text\":");
            json_str(r->failures[i].text);
            out_putc('}');
            if (r->failures[i].uri) {
                out_puts(",\"locations\":[{\"physicalLocation\":{"
                         "\"artifactLocation\":{\"uri\":");
                json_str(r->failures[i].uri);
                out_puts("}}}]");
            }
            out_putc('}');
        }
        out_puts("]");
    }
    out_puts("}\n"
             "      ]\n"
             "    }\n"
             "  ]\n"
             "}\n");
}

/* ------------------------------------------------------------- check */

struct check_state {
    struct doc_file *f;
    const struct xiri_link *link;
    int worst; /* the worst severity that counts, or -1 */
};

/* --baseline and --write-baseline (xiri(1), BASELINE FILES): whether to
 * report a finding, and in *counts whether it counts in the exit status.
 * A finding --baseline absorbs is neither; with --write-baseline it is
 * recorded (with --baseline too, only when absorbed) and not counted. */
static bool baseline_keep(struct doc_file *f, const struct finding *fd,
                          bool *counts)
{
    struct doc_run *r = f->r;
    const char *v = fd->link ? fd->link->value : fd->value;
    size_t vn = fd->link ? fd->link->value_len : fd->value_len;
    int got = 0;

    *counts = true;
    if (r->bl) {
        got = baseline_take(r->bl, f->name, fd->code, v, vn);
        if (got < 0) {
            cli_out_of_memory(&r->state);
            return false;
        }
        r->sum.absorbed += (size_t)got;
    }
    if (r->bl_out && (!r->bl || got > 0)) {
        if (baseline_add(r->bl_out, f->name, fd->code, v, vn) != 0) {
            cli_out_of_memory(&r->state);
            return false;
        }
        *counts = false;
    }
    return got == 0;
}

/* The link's line and column: check walks with lazy positions (the
 * link gives 0), so they are asked of the walker, for the few links
 * that have a finding. */
static void link_place(struct doc_file *f, const struct xiri_link *l,
                       unsigned long *line, unsigned long *column)
{
    size_t off;

    *line = l->line;
    *column = l->column;
    if (*line == 0 &&
        xiri_walker_position(f->w, l, 0, line, column, &off) != XIRI_OK)
        *line = *column = 0;
}

static int check_finding(void *user, const struct xiri_diag *d)
{
    struct check_state *cs = user;
    const struct xiri_link *l = cs->link;
    struct finding fd;
    size_t where;

    if (cs->f->r->o.ignore.n &&
        code_filter_has(&cs->f->r->o.ignore, d->code ? d->code : ""))
        return 0;
    memset(&fd, 0, sizeof(fd));
    /* the place of the character the finding is about, counting the
     * document's text as written (references, line ends) */
    if (xiri_walker_position(cs->f->w, l, d->offset, &fd.line, &fd.column,
                             &where) != XIRI_OK)
        link_place(cs->f, l, &fd.line, &fd.column);
    else if (cs->f->r->o.fmt == F_SARIF && d->length > 0 && !l->has_markup &&
             (xiri_walker_position(cs->f->w, l, d->offset + d->length,
                                   &fd.end_line, &fd.end_column,
                                   &where) != XIRI_OK ||
              fd.end_line < fd.line ||
              (fd.end_line == fd.line && fd.end_column <= fd.column)))
        fd.end_line = fd.end_column = 0; /* no span to show */
    fd.offset = l->offset;
    fd.value_offset = d->offset;
    fd.length = d->length;
    fd.link = l;
    fd.severity = d->severity;
    fd.code = d->code ? d->code : "";
    fd.message = d->message ? d->message : "";
    if (cs->f->r->bl || cs->f->r->bl_out) {
        bool counts;

        if (!baseline_keep(cs->f, &fd, &counts))
            return cs->f->r->state.stop;
        if (counts && (int)fd.severity > cs->worst)
            cs->worst = (int)fd.severity;
    } else if ((int)fd.severity > cs->worst) {
        cs->worst = (int)fd.severity;
    }
    print_finding(cs->f, &fd);
    return !out_ok();
}

static void check_link(struct doc_file *f, const struct xiri_link *l)
{
    struct doc_run *r = f->r;
    struct check_state cs = {f, l, -1};
    enum xiri_status st;
    int worst = -1;

    st = xiri_check_link(r->ctx, f->w, l, check_finding, &cs, &worst);
    if (st == XIRI_ENOMEM) {
        cli_out_of_memory(&r->state);
        return;
    }
    if (st != XIRI_OK) {
        struct finding fd;

        memset(&fd, 0, sizeof(fd));
        link_place(f, l, &fd.line, &fd.column);
        fd.severity = XIRI_SEV_ERROR;
        fd.code = "";
        fd.message = xiri_strerror(st);
        msg_finding(f, &fd);
        cli_set_status(&r->state, CLI_EXIT_USAGE);
        return;
    }
    /* what counts: without --ignore or a baseline, every finding */
    if (r->bl || r->bl_out || r->o.ignore.n)
        worst = cs.worst;
    if (worst >= (int)r->o.fail_on)
        cli_set_status(&r->state, CLI_EXIT_FAIL);
}

/* ------------------------------------------------------------- links */

/* Add code to the current link's codes (r->codes), each code once, in
 * the order of its first finding; non-zero when memory ran out. */
static int add_code(struct doc_run *r, const char *code)
{
    size_t i = 0, n = strlen(code);

    /* each code once, in the order of its first finding */
    while (i < r->codes_len) {
        if (strcmp(r->codes + i, code) == 0)
            return 0;
        i += strlen(r->codes + i) + 1;
    }
    if (r->codes_len + n + 1 > r->codes_cap) {
        size_t cap = r->codes_cap ? 2 * r->codes_cap : 256;
        char *p;

        while (cap < r->codes_len + n + 1)
            cap *= 2;
        p = realloc(r->codes, cap);
        if (!p) {
            cli_out_of_memory(&r->state);
            return 1;
        }
        r->codes = p;
        r->codes_cap = cap;
    }
    memcpy(r->codes + r->codes_len, code, n + 1);
    r->codes_len += n + 1;
    return 0;
}

static int collect_code(void *user, const struct xiri_diag *d)
{
    return add_code(user, d->code ? d->code : "");
}

/* The codes of the walker's findings about the link itself
 * (xiri_link.findings), which it reports after those of the checks. */
static void add_walker_codes(struct doc_run *r, const struct xiri_link *l)
{
    static const struct {
        unsigned bit;
        const char *code;
    } walker_codes[] = {
        {XIRI_LINK_CONTROL_AROUND, "control-around-url"},
        {XIRI_LINK_SRCSET_DROPPED, "srcset-dropped"},
        {XIRI_LINK_SRCSET_INVALID, "srcset-invalid"},
        {XIRI_LINK_UNPAIRED, "unpaired-namespace"},
    };
    size_t i;

    for (i = 0; i < sizeof(walker_codes) / sizeof(walker_codes[0]); i++)
        if ((l->findings & walker_codes[i].bit) &&
            add_code(r, walker_codes[i].code) != 0)
            return;
}

/* The IRI the link points to, as the readers of its document resolve
 * it (xiri_link_resolve: RFC 3986 5.2, or, in HTML, what browsers get);
 * NULL when it has none: a relative link without a base, or one browsers
 * fail to parse. */
static char *link_resolve(struct doc_run *r, const struct xiri_link *l)
{
    char *out = NULL;
    enum xiri_status st = xiri_link_resolve(r->ctx, l, &out, NULL, NULL);

    if (st == XIRI_ENOMEM)
        cli_out_of_memory(&r->state);
    return st == XIRI_OK ? out : NULL;
}

static void links_record(struct doc_file *f, const struct xiri_link *l)
{
    struct doc_run *r = f->r;
    enum xiri_status st;
    char *resolved, *uri = NULL;
    size_t len, i;
    struct rec rc; /* never full: four numbers and short names */

    r->codes_len = 0;
    st = xiri_check_link(r->ctx, f->w, l, collect_code, r, NULL);
    if (st == XIRI_ENOMEM)
        cli_out_of_memory(&r->state);
    if (!r->state.stop)
        add_walker_codes(r, l);
    if (r->state.stop)
        return;
    resolved = link_resolve(r, l);
    /* RFC 3987 3.1, with IDNA for the hosts of DNS-based schemes and the
     * characters only LEIRIs allow escaped */
    if (resolved) {
        st = xiri_to_uri(r->ctx, resolved, strlen(resolved), XIRI_IDN_PUNYCODE,
                         XIRI_MAP_DNS_ONLY | XIRI_MAP_ESCAPE_LEIRI, &uri, &len,
                         NULL);
        if (st == XIRI_ENOMEM)
            cli_out_of_memory(&r->state);
        if (st != XIRI_OK)
            uri = NULL;
    }
    if (r->state.stop) {
        xiri_str_free(resolved);
        xiri_str_free(uri);
        return;
    }
    if (r->o.fmt == F_JSON) {
        OUT_LIT("{\"file\":");
        json_str(f->name);
        rc.n = 0;
        rec_str(&rc, ",\"line\":");
        rec_num(&rc, l->line);
        rec_str(&rc, ",\"column\":");
        rec_num(&rc, l->column);
        rec_str(&rc, ",\"offset\":");
        rec_num(&rc, l->offset);
        rec_str(&rc, ",\"raw_length\":");
        if (l->empty_tag || (l->has_markup && l->raw_length == 0))
            rec_str(&rc, "null"); /* no span to replace: <e/>, or content
                                     in an entity's replacement text */
        else
            rec_num(&rc, l->raw_length);
        rec_str(&rc, ",\"element\":");
        rec_write(&rc);
        json_str(l->element);
        OUT_LIT(",\"attribute\":");
        json_str(l->attribute);
        OUT_LIT(",\"value\":");
        out_json_string(l->value, l->value_len);
        OUT_LIT(",\"base\":");
        json_str(l->base);
        OUT_LIT(",\"resolved\":");
        json_str(resolved);
        OUT_LIT(",\"uri\":");
        json_str(uri);
        OUT_LIT(",\"codes\":[");
        for (i = 0; i < r->codes_len; i += strlen(r->codes + i) + 1) {
            if (i > 0)
                out_putc(',');
            json_str(r->codes + i);
        }
        OUT_LIT("]}\n");
    } else {
        tsv_str(f->name);
        rc.n = 0;
        rec_str(&rc, "\t");
        rec_num(&rc, l->line);
        rec_str(&rc, "\t");
        rec_num(&rc, l->column);
        rec_str(&rc, "\t");
        rec_num(&rc, l->offset);
        rec_str(&rc, "\t");
        rec_write(&rc);
        tsv_str(l->element);
        out_putc('\t');
        tsv_str(l->attribute);
        out_putc('\t');
        tsv_field(l->value, l->value_len);
        out_putc('\t');
        tsv_str(l->base);
        out_putc('\t');
        tsv_str(resolved);
        out_putc('\t');
        tsv_str(uri);
        out_putc('\t');
        for (i = 0; i < r->codes_len; i += strlen(r->codes + i) + 1) {
            if (i > 0)
                out_putc(',');
            tsv_str(r->codes + i);
        }
        out_putc('\n');
    }
    xiri_str_free(resolved);
    xiri_str_free(uri);
}

/* ------------------------------------------------------------- walking */

static int on_link(void *user, const struct xiri_link *link)
{
    struct doc_file *f = user;
    struct doc_run *r = f->r;
    struct xiri_link l;

    /* a copy only when --profile changes it */
    if (r->o.profile_set) {
        l = *link;
        l.profile = r->o.profile;
        link = &l;
    }
    r->sum.links++;
    if (r->cmd == DC_CHECK)
        check_link(f, link);
    else
        links_record(f, link);
    if (!out_ok())
        r->state.stop = true;
    return r->state.stop;
}

static int on_diag(void *user, const struct xiri_doc_diag *d)
{
    struct doc_file *f = user;
    struct doc_run *r = f->r;
    struct finding fd;

    memset(&fd, 0, sizeof(fd));
    fd.line = d->line;
    fd.column = d->column;
    fd.offset = d->offset;
    fd.value = d->value;
    fd.value_len = d->value_len;
    fd.element = d->element;
    fd.attribute = d->attribute;
    fd.severity = d->severity;
    fd.code = d->code ? d->code : "";
    fd.message = d->message ? d->message : "";
    if (r->cmd == DC_CHECK) {
        bool counts = true;

        if (r->o.ignore.n && code_filter_has(&r->o.ignore, fd.code))
            return r->state.stop;
        if ((r->bl || r->bl_out) && !baseline_keep(f, &fd, &counts))
            return r->state.stop;
        if (d->severity >= r->o.fail_on && counts)
            cli_set_status(&r->state, CLI_EXIT_FAIL);
        print_finding(f, &fd);
    } else if (!r->o.quiet || d->severity >= XIRI_SEV_ERROR) {
        /* links: stdout holds the records, the findings go to stderr */
        summary_count(&r->sum, fd.severity);
        msg_finding(f, &fd);
    }
    if (!out_ok())
        r->state.stop = true;
    return r->state.stop;
}

/* SARIF: remember a file that failed, for sarif_end. */
static void sarif_failure(struct doc_run *r, const char *uri, const char *text)
{
    char *u = NULL, *t;

    if (r->o.fmt != F_SARIF || r->o.quiet)
        return;
    if (r->nfailures == r->failures_cap) {
        size_t cap = r->failures_cap ? 2 * r->failures_cap : 16;
        struct sarif_failure *p = realloc(r->failures, cap * sizeof(*p));

        if (!p) {
            cli_out_of_memory(&r->state);
            return;
        }
        r->failures = p;
        r->failures_cap = cap;
    }
    t = malloc(strlen(text) + 1);
    if (uri)
        u = malloc(strlen(uri) + 1);
    if (!t || (uri && !u)) {
        free(t);
        free(u);
        cli_out_of_memory(&r->state);
        return;
    }
    memcpy(t, text, strlen(text) + 1);
    if (u)
        memcpy(u, uri, strlen(uri) + 1);
    r->failures[r->nfailures].seq = r->seq;
    r->failures[r->nfailures].ord = r->nfailures;
    r->failures[r->nfailures].uri = u;
    r->failures[r->nfailures].text = t;
    r->nfailures++;
}

/* A file that could not be read or parsed: the message says where and
 * what to do; the other files are still processed. */
static void file_failed(struct doc_file *f, enum xiri_status st,
                        const struct xiri_error *e, const char *what)
{
    struct doc_run *r = f->r;
    const char *m = e && e->message[0] ? e->message : xiri_strerror(st);
    size_t n = strlen(f->shown) + strlen(m) + 200;
    char *text;

    if (st == XIRI_ENOMEM) {
        cli_out_of_memory(&r->state);
        return;
    }
    cli_set_status(&r->state, CLI_EXIT_USAGE);
    text = malloc(n);
    if (!text) {
        cli_out_of_memory(&r->state);
        return;
    }
    switch (st) {
    case XIRI_EDOC:
        /* the walker's message starts "LINE:COL: ": FILE:LINE:COL: ... */
        snprintf(text, n,
                 "%s%s%s; the rest of the file is not %s (fix the document, "
                 "or give --html if it is HTML)",
                 f->shown, m[0] >= '0' && m[0] <= '9' ? ":" : ": ", m,
                 r->cmd == DC_CHECK ? "checked" : "listed");
        break;
    case XIRI_ELIMIT:
        /* a document over a limit (xiri(1), LIMITS): the message names
         * the option that raises it */
        snprintf(text, n, "%s%s%s; the rest of the file is not %s", f->shown,
                 m[0] >= '0' && m[0] <= '9' ? ":" : ": ", m,
                 r->cmd == DC_CHECK ? "checked" : "listed");
        break;
    case XIRI_EENCODING:
        snprintf(text, n, "%s: %s", f->shown,
                 e && e->message[0]
                     ? e->message
                     : "unknown encoding; give one ICU knows with "
                       "--encoding=NAME");
        break;
    default:
        snprintf(text, n, "%s: %s%s%s", f->shown, what ? what : "",
                 what ? ": " : "", m);
        break;
    }
    msg_error("%s", text);
    sarif_failure(r, f->uri, text);
    free(text);
}

/* A file that could not be opened as a document: said on stderr and,
 * in SARIF, as a failure of the run. */
static void open_failed(struct doc_run *r, const char *name, const char *text)
{
    char *uri = r->o.fmt == F_SARIF ? artifact_uri(name) : NULL;

    msg_about(name, text);
    cli_set_status(&r->state, CLI_EXIT_USAGE);
    sarif_failure(r, uri, text);
    free(uri);
}

static void walk_file(struct doc_run *r, const char *name)
{
    struct doc_file f;
    struct xiri_walk_options wo;
    struct xiri_error e;
    enum xiri_status st;
    char *base = NULL;
    FILE *fp;
    bool is_stdin = strcmp(name, "-") == 0;
    size_t n;

    memset(&f, 0, sizeof(f));
    f.r = r;
    f.name = name;
    f.shown = is_stdin ? "<stdin>" : name;
    if (is_stdin) {
        fp = stdin;
    } else {
        struct stat sb;
        char text[300];

        errno = 0;
        fp = fopen(name, "rb");
        if (!fp) {
            snprintf(text, sizeof(text), "cannot open: %s",
                     strerror(errno ? errno : EIO));
            open_failed(r, name, text);
            return;
        }
        /* (with -r a directory never gets here: doc_inputs_each) */
        if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
            open_failed(r, name, MSG_DIRECTORY);
            fclose(fp);
            return;
        }
    }
    if (r->o.fmt == F_SARIF && !is_stdin) {
        f.uri = artifact_uri(name);
        if (!f.uri) {
            cli_out_of_memory(&r->state);
            goto done;
        }
    }
    xiri_walk_options_init(&wo);
    opt_limits_apply(&r->o.limits, &wo);
    wo.type = r->o.type;
    /* check needs the place of a link only for its findings */
    wo.lazy_positions = r->cmd == DC_CHECK;
    wo.parse_thread = r->o.parse_thread;
    wo.parse_ahead = 1; /* (nothing of the walker is read between feeds) */
    wo.name = is_stdin ? NULL : name;
    wo.encoding = r->o.encoding;
    wo.base = r->o.base;
    if (!wo.base && !is_stdin) {
        base = doc_file_uri(name);
        if (!base && errno == ENOMEM) {
            cli_out_of_memory(&r->state);
            goto done;
        }
        if (!base)
            msg_about(name, "cannot find the current directory; relative "
                            "references are not resolved (give --base)");
        wo.base = base;
    }
    e.message[0] = '\0';
    st = xiri_walker_new(r->ctx, r->reg, &wo, on_link, on_diag, &f, &f.w);
    if (st != XIRI_OK) {
        file_failed(&f, st, &e, NULL);
        goto done;
    }
    for (;;) {
        errno = 0;
        n = fread(r->chunk, 1, CLI_READ_SIZE, fp);
        if (n > 0) {
            e.message[0] = '\0';
            st = xiri_walker_feed(f.w, r->chunk, n, &e);
            if (st != XIRI_OK)
                break;
        }
        if (n < CLI_READ_SIZE) {
            if (ferror(fp)) {
                char text[300];

                snprintf(text, sizeof(text), "error reading: %s",
                         strerror(errno ? errno : EIO));
                msg_about(f.shown, text);
                cli_set_status(&r->state, CLI_EXIT_USAGE);
                sarif_failure(r, f.uri, text);
                goto done;
            }
            e.message[0] = '\0';
            st = xiri_walker_finish(f.w, &e);
            break;
        }
    }
    if (st == XIRI_ECANCELED || r->state.stop)
        goto done;
    if (st != XIRI_OK)
        file_failed(&f, st, &e, NULL);
done:
    xiri_walker_free(f.w);
    free(f.uri);
    free(base);
    if (!is_stdin)
        fclose(fp);
    else
        clearerr(stdin);
}

/* ------------------------------------------------------------- command */

/* doc_inputs_each's callbacks */
static void each_file(void *user, const char *path)
{
    struct doc_run *r = user;
    int before;

    if (r->pool) {
        jobs_submit(r->pool, path); /* job_file in a thread */
        return;
    }
    progress_found();
    progress_clear();
    r->seq = r->nseen++;
    before = summary_file_begin(&r->sum, &r->state);
    walk_file(user, path);
    summary_file_end(&r->sum, &r->state, before);
    progress_done(path);
}

static bool each_stop(void *user)
{
    struct doc_run *r = user;

    return r->state.stop || !out_ok() || r->pool_stop;
}

/* -j: one file, in a worker with its own state (a copy of the run's
 * options and registry, with its own context, buffers, counts and
 * status), or in the main thread for the standard input. */
static void job_file(void *user, const char *path, size_t seq)
{
    struct doc_run *w = user;
    int before = summary_file_begin(&w->sum, &w->state);

    w->seq = seq;
    walk_file(w, path);
    summary_file_end(&w->sum, &w->state, before);
    if (w->state.stop && w->main)
        w->main->pool_stop = true;
}

/* The threads of -j n (n > 1): 0, or -1 when they could not start (the
 * run then goes on in the main thread). */
static int pool_start(struct doc_run *r, unsigned n)
{
    struct xiri_walk_options wo;
    struct xiri_walker *w = NULL;
    void **users;
    unsigned i;

    /* libxml2 wants xmlInitParser() once in the main thread before the
     * others use it (libxiri(3), THREAD SAFETY): a walker does it */
    xiri_walk_options_init(&wo);
    if (xiri_walker_new(r->ctx, r->reg, &wo, on_link, on_diag, NULL, &w) ==
        XIRI_OK)
        xiri_walker_free(w);
    r->workers = calloc(n, sizeof(*r->workers));
    users = calloc(n, sizeof(*users));
    if (!r->workers || !users) {
        free(users);
        return -1;
    }
    for (i = 0; i < n; i++) {
        struct doc_run *c = &r->workers[i];

        memcpy(c, r, sizeof(*c));
        c->main = r;
        c->ctx = NULL;
        c->codes = NULL;
        c->codes_len = c->codes_cap = 0;
        c->workers = NULL;
        c->nworkers = 0;
        c->failures = NULL;
        c->nfailures = c->failures_cap = 0;
        memset(&c->state, 0, sizeof(c->state));
        memset(&c->sum, 0, sizeof(c->sum));
        c->chunk = malloc(CLI_READ_SIZE);
        r->nworkers++;
        if (!c->chunk || xiri_ctx_new(&c->ctx) != XIRI_OK) {
            free(users);
            return -1;
        }
        users[i] = c;
    }
    r->pool = jobs_start(n, job_file, users, r);
    free(users);
    return r->pool ? 0 : -1;
}

/* SARIF: the failures in the order of the files, then of each file's
 * messages. */
static int failure_cmp(const void *a, const void *b)
{
    const struct sarif_failure *x = a, *y = b;

    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* Move a worker's failures to the run's (each is freed once, with the
 * run's). */
static void failures_take(struct doc_run *r, struct doc_run *c)
{
    size_t need = r->nfailures + c->nfailures;

    if (c->nfailures == 0)
        return;
    if (need > r->failures_cap) {
        struct sarif_failure *p = realloc(r->failures, need * sizeof(*p));

        if (!p) {
            size_t i;

            for (i = 0; i < c->nfailures; i++) {
                free(c->failures[i].uri);
                free(c->failures[i].text);
            }
            c->nfailures = 0;
            cli_out_of_memory(&r->state);
            return;
        }
        r->failures = p;
        r->failures_cap = need;
    }
    memcpy(r->failures + r->nfailures, c->failures,
           c->nfailures * sizeof(*c->failures));
    r->nfailures = need;
    c->nfailures = 0;
}

/* Join the threads and add up what they did. */
static void pool_end(struct doc_run *r)
{
    size_t i;

    if (r->pool)
        jobs_finish(r->pool);
    r->pool = NULL;
    for (i = 0; i < r->nworkers; i++) {
        struct doc_run *c = &r->workers[i];

        cli_set_status(&r->state, c->state.status);
        if (c->state.stop)
            r->state.stop = true;
        summary_add(&r->sum, &c->sum);
        failures_take(r, c);
        xiri_ctx_free(c->ctx);
        free(c->chunk);
        free(c->codes);
        free(c->failures);
    }
    if (r->nfailures > 1)
        qsort(r->failures, r->nfailures, sizeof(*r->failures), failure_cmp);
    free(r->workers);
    r->workers = NULL;
    r->nworkers = 0;
}

static int run_doc(struct doc_run *r, const char *help, int argc, char **argv)
{
    struct argscan as;
    const char *arg, *name, *value;
    const char **files;
    size_t name_len, nfiles = 0;
    int kind, st;
    unsigned nthreads;
    bool list_presets = false;

    files = calloc((size_t)argc + 1, sizeof(*files));
    r->o.schemas = calloc((size_t)argc + 1, sizeof(*r->o.schemas));
    r->o.attrs = calloc((size_t)argc + 1, sizeof(*r->o.attrs));
    r->o.ignore.lists = calloc((size_t)argc + 1, sizeof(const char *));
    r->o.inputs.includes = calloc((size_t)argc + 1, sizeof(const char *));
    r->o.inputs.excludes = calloc((size_t)argc + 1, sizeof(const char *));
    if (!files || !r->o.schemas || !r->o.attrs || !r->o.ignore.lists ||
        !r->o.inputs.includes ||
        !r->o.inputs.excludes) {
        free(files);
        cli_out_of_memory(&r->state);
        return r->state.status;
    }
    argscan_init(&as, argc, argv);
    while (argscan_next(&as, &kind, &arg, &name, &name_len, &value)) {
        if (kind == 0) {
            files[nfiles++] = arg;
            continue;
        }
        st = apply_opt(r, &as, arg, kind, name, name_len, value);
        if (st < 0) {
            out_puts(help);
            free(files);
            return CLI_EXIT_OK;
        }
        if (st > 0) {
            free(files);
            return st;
        }
    }
    if (strcmp(r->o.presets, "list") == 0)
        list_presets = true;
    if (list_presets) {
        doc_presets_list();
        free(files);
        return CLI_EXIT_OK;
    }
    if ((st = doc_inputs_check(r->usage, &r->o.inputs, files, nfiles)) != 0) {
        free(files);
        return st;
    }
    if (r->o.base && (st = doc_check_base(r->usage, r->o.base)) != 0) {
        free(files);
        return st;
    }
    if (r->o.baseline && (st = baseline_read(r->o.baseline, &r->bl)) != 0) {
        free(files);
        return st;
    }
    if (r->o.write_baseline && !(r->bl_out = baseline_new())) {
        free(files);
        cli_out_of_memory(&r->state);
        return r->state.status;
    }
    if (xiri_ctx_new(&r->ctx) != XIRI_OK) {
        free(files);
        msg_error("cannot set up: %s", xiri_strerror(XIRI_ENOMEM));
        return CLI_EXIT_USAGE;
    }
    st = doc_registry_setup(r->usage, r->o.presets, r->o.schemas, r->o.nschemas,
                            r->o.attrs, r->o.nattrs, r->o.quiet, &r->reg);
    if (st) {
        free(files);
        return st;
    }
    r->chunk = malloc(CLI_READ_SIZE);
    if (!r->chunk) {
        free(files);
        cli_out_of_memory(&r->state);
        return r->state.status;
    }
    if (r->o.fmt == F_SARIF && !r->o.quiet)
        sarif_begin();
    if (r->o.fmt == F_TSV)
        out_puts("file\tline\tcolumn\toffset\telement\tattribute\tvalue\t"
                 "base\tresolved\turi\tcodes\n");
    nthreads = jobs_parse(r->usage, r->o.jobs, &st);
    if (st) {
        free(files);
        return st;
    }
    r->o.parse_thread = parse_thread_wanted(
        r->o.parse_thread_when, files, nfiles, r->o.inputs.files_from != NULL);
    if (nthreads > 1 && pool_start(r, nthreads) != 0)
        pool_end(r);
    progress_start(r->o.quiet);
    cli_set_status(&r->state,
                   doc_inputs_each(r->usage, &r->o.inputs, files, nfiles,
                                   each_file, each_stop, r));
    pool_end(r);
    progress_end();
    if (r->o.fmt == F_SARIF && !r->o.quiet && !r->state.stop)
        sarif_end(r);
    /* not after out of memory: the findings recorded may be partial */
    if (r->bl_out && !r->state.stop)
        cli_set_status(&r->state,
                       baseline_write(r->bl_out, r->o.write_baseline));
    if (summary_wanted(&r->sum, r->o.quiet) && !r->state.stop)
        summary_print(r->usage, &r->sum);
    free(files);
    return r->state.status;
}

int cmd_doc(int argc, char **argv)
{
    struct doc_run r;
    size_t i;
    int status;

    memset(&r, 0, sizeof(r));
    if (strcmp(argv[0], "check") == 0) {
        r.cmd = DC_CHECK;
        r.usage = "xiri check";
        r.o.fmt = F_TEXT;
    } else {
        r.cmd = DC_LINKS;
        r.usage = "xiri links";
        r.o.fmt = F_TSV;
    }
    r.o.type = XIRI_DOC_AUTO;
    r.o.presets = "all";
    r.o.min_severity = XIRI_SEV_NOTE;
    r.o.fail_on = XIRI_SEV_ERROR;
    status =
        run_doc(&r, r.cmd == DC_CHECK ? check_help : links_help, argc, argv);
    if (r.state.status > status)
        status = r.state.status;
    xiri_registry_free(r.reg);
    xiri_ctx_free(r.ctx);
    free(r.chunk);
    free(r.codes);
    for (i = 0; i < r.nfailures; i++) {
        free(r.failures[i].uri);
        free(r.failures[i].text);
    }
    free(r.failures);
    baseline_free(r.bl);
    baseline_free(r.bl_out);
    free(r.o.schemas);
    free(r.o.attrs);
    free(r.o.ignore.lists);
    free(r.o.inputs.includes);
    free(r.o.inputs.excludes);
    return status;
}

/* cmd_rewrite.c - "xiri rewrite": XML and HTML documents again with only
 * their link values changed (RFC 3987 3.1 to URIs, 3.2 to IRIs), written to
 * the standard output, a file or in place without ever losing data, or a
 * unified diff of what would change. */
#define _XOPEN_SOURCE 700 /* realpath, fchown */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/xattr.h>
#endif

/* Bytes read and written at a time: memory does not grow with the
 * document's size. */
#define RW_CHUNK 65536

/* Lines of context around each change in --diff (as "diff -u"). */
#define DIFF_CONTEXT 3

static const char rewrite_help[] =
    "Usage: xiri rewrite [OPTIONS] FILE...\n"
    "\n"
    "Rewrite the IRIs of XML and HTML documents and change nothing else:\n"
    "every byte outside the link values that change is copied as it is\n"
    "(declarations, comments, references, quoting, line ends, the\n"
    "encoding).  A changed value keeps its quote and is escaped for it;\n"
    "characters the document's encoding lacks become character references.\n"
    "By default each document is written to the standard output, only once\n"
    "all of it was rewritten; FILE '-' is the standard input.\n"
    "\n"
    "Options:\n"
    "  --to=FORM             uri (default): each value as a URI (RFC 3987\n"
    "                        3.1), for consumers that take only ASCII;\n"
    "                        iri: each value as an IRI (RFC 3987 3.2), for\n"
    "                        readability, where that is safe\n"
    "  --idn=MODE            host names: punycode (default; --to=uri: IDNA\n"
    "                        for http, https, ftp, ws, wss and mailto, %HH\n"
    "                        elsewhere; --to=iri: xn-- labels kept),\n"
    "                        percent (%HH like the rest), keep (as\n"
    "                        written), unicode (--to=iri: xn-- labels\n"
    "                        decoded)\n"
    "  --resolve             also make every reference absolute against its\n"
    "                        base (RFC 3986 5.2)\n"
    "  --query-encoding=ENC  in HTML (XHTML, SVG) not in UTF-8, the query of\n"
    "                        http, https, ftp and file URLs: document (the\n"
    "                        default: in the document's encoding, as\n"
    "                        browsers send it) or utf-8 (as RFC 3987 says);\n"
    "                        each value where the two differ is reported\n"
    "  --strict              a value that cannot be mapped is an error: the\n"
    "                        file is not written and the exit status is 1\n"
    "  --repair              first repair what 'xiri check' reports as\n"
    "                        mojibake (UTF-8 read as windows-1252) and\n"
    "                        double-pct (an escape escaped twice)\n"
    "  --identifiers=MODE    identifiers compared as strings (Atom id, RSS\n"
    "                        guid, namespace names, the namespace halves of\n"
    "                        xsi:schemaLocation): keep (default: left as\n"
    "                        written, with a note when one would change)\n"
    "                        or rewrite (like the links)\n"
    "  -o OUT, --output=OUT  write the (one) document to OUT ('-': the\n"
    "                        standard output); a symbolic link stays one\n"
    "  -i[SUFFIX], --in-place[=SUFFIX]\n"
    "                        rewrite each FILE in place, keeping a copy of\n"
    "                        the original as FILE+SUFFIX when SUFFIX is given\n"
    "  --diff                print a unified diff of what would change and\n"
    "                        write nothing\n"
    "  --xml, --html         parse the documents as XML or as HTML\n"
    "                        (default: from the content and the file name)\n"
    "  --encoding=NAME       the documents' encoding, overriding byte order\n"
    "                        marks and declarations (any name ICU knows)\n"
    "  --base=IRI            the base IRI of the documents (default: each\n"
    "                        file's absolute path as a file: URI; none for\n"
    "                        the standard input)\n"
    "  --presets=LIST        the built-in sets of IRI attributes to use,\n"
    "                        comma-separated (default: all); 'none' for\n"
    "                        none; --presets=list lists them\n"
    "  --schema=FILE.xsd     also the attributes and elements this XML\n"
    "                        Schema declares as xs:anyURI (repeatable)\n"
    "  --attr=SPEC           also this attribute or element, as for\n"
    "                        'xiri check' (repeatable)\n"
    /* clang-format off */
    OPT_LIMITS_HELP("rewritten")
    DOC_INPUTS_HELP
    JOBS_HELP PARSE_THREAD_HELP
    /* clang-format on */
    "  -q, --quiet           do not print notes and warnings (errors still\n"
    "                        are), nor the summary line\n"
    "  -h, --help            print this help\n"
    "\n"
    "Each value that could not be mapped (it is left as it is), and each\n"
    "query whose two encodings differ, is reported on the standard error as\n"
    "    xiri: FILE:LINE:COL: warning: MESSAGE\n"
    "A file that cannot be read or parsed, or written, is left as it is\n"
    "and nothing of it is written.\n"
    "\n"
    "Exit status: 0 every file was rewritten (changed or not); 1 --strict\n"
    "and a value could not be mapped; 2 a usage error, or a file that could\n"
    "not be read, parsed or written (the other files are still processed).\n";

#define USAGE "xiri rewrite"

/* ------------------------------------------------------------- options */

enum rw_dest { D_STDOUT, D_FILE, D_IN_PLACE, D_DIFF };

enum opt_id {
    O_HELP,
    O_XML,
    O_HTML,
    O_ENCODING,
    O_BASE,
    O_PRESETS,
    O_SCHEMA,
    O_ATTR,
    O_TO,
    O_IDN,
    O_RESOLVE,
    O_QUERY_ENCODING,
    O_STRICT,
    O_REPAIR,
    O_IDENTIFIERS,
    O_OUTPUT,
    O_IN_PLACE,
    O_DIFF,
    O_QUIET
};

static const struct opt_keyword kw_to[] = {
    {"uri", XIRI_REWRITE_URI},
    {"iri", XIRI_REWRITE_IRI},
    {NULL, 0},
};
static const struct opt_keyword kw_idn[] = {
    {"punycode", XIRI_REWRITE_IDN_PUNYCODE},
    {"percent", XIRI_REWRITE_IDN_PERCENT},
    {"keep", XIRI_REWRITE_IDN_KEEP},
    {"unicode", XIRI_REWRITE_IDN_UNICODE},
    {NULL, 0},
};
static const struct opt_keyword kw_query[] = {
    {"document", 0},
    {"utf-8", 1},
    {NULL, 0},
};
static const struct opt_keyword kw_identifiers[] = {
    {"keep", 0},
    {"rewrite", 1},
    {NULL, 0},
};

static const struct opt_def opt_defs[] = {
    {"help", O_HELP, OPT_FLAG, NULL, 0},
    {"xml", O_XML, OPT_FLAG, NULL, 0},
    {"html", O_HTML, OPT_FLAG, NULL, 0},
    {"encoding", O_ENCODING, OPT_VALUE, NULL, 0},
    {"base", O_BASE, OPT_VALUE, NULL, 0},
    {"presets", O_PRESETS, OPT_VALUE, NULL, 0},
    {"schema", O_SCHEMA, OPT_VALUE, NULL, 0},
    {"attr", O_ATTR, OPT_VALUE, NULL, 0},
    {"to", O_TO, OPT_VALUE, kw_to, 0},
    {"idn", O_IDN, OPT_VALUE, kw_idn, 0},
    {"resolve", O_RESOLVE, OPT_FLAG, NULL, 0},
    {"query-encoding", O_QUERY_ENCODING, OPT_VALUE, kw_query, 0},
    {"strict", O_STRICT, OPT_FLAG, NULL, 0},
    {"repair", O_REPAIR, OPT_FLAG, NULL, 0},
    {"identifiers", O_IDENTIFIERS, OPT_VALUE, kw_identifiers, 0},
    {"output", O_OUTPUT, OPT_VALUE, NULL, 0},
    {"in-place", O_IN_PLACE, OPT_OPTIONAL, NULL, 0},
    {"diff", O_DIFF, OPT_FLAG, NULL, 0},
    {"quiet", O_QUIET, OPT_FLAG, NULL, 0},
    OPT_LIMIT_DEFS(0),
    OPT_INPUT_DEFS(0),
    OPT_JOBS_DEF(0),
    OPT_PARSE_THREAD_DEF(0),
};

struct rw_opts {
    enum xiri_doc_type type;
    const char *encoding;
    const char *base;
    const char *presets;
    const char **schemas;
    size_t nschemas;
    const char **attrs;
    size_t nattrs;
    struct xiri_rewrite_options ro;
    bool idn_set;
    bool strict;
    bool quiet;
    enum rw_dest dest;
    bool dest_set;
    const char *output; /* -o */
    const char *suffix; /* -i: the backup suffix, NULL for none */
    const char *jobs;   /* -j N (NULL: the CPUs) */
    enum parse_thread parse_thread_when; /* --parse-thread */
    bool parse_thread;                   /* and what it decided */
    struct xiri_walk_options limits; /* only the max_ fields are used */
    struct doc_inputs inputs;        /* -r, --files-from ... */
};

/* One changed value, for --diff: its bytes in the original and in the
 * output. */
struct span {
    uint64_t orig_off, orig_len;
    uint64_t new_off, new_len;
};

/* Buffered output to a file descriptor that remembers its first error. */
struct sink {
    int fd;
    char *buf;
    size_t len;
    uint64_t total; /* bytes accepted so far */
    int err;        /* errno of the first failure, or 0 */
};

struct rw_run {
    struct rw_opts o;
    struct xiri_ctx *ctx;
    struct xiri_registry *reg;
    char *chunk;  /* CLI_READ_SIZE bytes */
    char *chunk2; /* RW_CHUNK bytes, for copies and diffs */
    struct cli_state state; /* the worst exit status so far; stop: out
                             * of memory or stdout failed */
    struct run_summary sum; /* for the line ending the run */
    /* -j N: the pool, and each worker's own run (a copy of this one with
     * its own context, buffers, counts and status) */
    struct jobs *pool;
    struct rw_run *workers, *main;
    size_t nworkers;
    unsigned slot;          /* of sig_tmp: 0 main, i worker i */
    _Atomic bool pool_stop; /* a worker ran out of memory */
};

/* One document. */
struct rw_file {
    struct rw_run *r;
    const char *name;  /* as given; "-" is the standard input */
    const char *shown; /* in messages: the name, or "<stdin>" */
    int in;            /* the input */
    struct stat st;    /* of the input */
    struct sink out;   /* the temporary output */
    char *tmp_path;    /* its name, NULL when already unlinked */
    struct sink copy;  /* --diff of the standard input: its bytes */
    struct xiri_rewriter *rw;
    size_t changed, unmapped;
    struct span *spans; /* --diff */
    size_t nspans, spans_cap;
    uint64_t last_orig_end, last_new_end; /* of the last span */
};

static int set_dest(struct rw_opts *o, enum rw_dest d)
{
    static const char *const names[] = {"", "-o", "-i", "--diff"};

    if (o->dest_set && o->dest != d)
        return usage_error(USAGE, "options '%s' and '%s' exclude each other",
                           names[o->dest], names[d]);
    o->dest_set = true;
    o->dest = d;
    return 0;
}

/* Apply one option; returns 0, CLI_EXIT_USAGE, or -1 for --help. */
static int apply_opt(struct rw_run *r, struct argscan *as, const char *arg,
                     int kind, const char *name, size_t name_len,
                     const char *value)
{
    const struct opt_table table = {
        USAGE, opt_defs, sizeof(opt_defs) / sizeof(opt_defs[0]), 1};
    const struct opt_def *d;
    int v = 0, st = 0;

    if (kind == 2) {
        /* short options: -h, -q, -o OUT (or -oOUT), -i[SUFFIX] */
        switch (name[0]) {
        case 'h':
        case 'q':
            if (name[1])
                return opt_unknown(USAGE, arg, strlen(arg));
            if (name[0] == 'h')
                return -1;
            r->o.quiet = true;
            return 0;
        case 'o':
            value = name[1] ? name + 1 : argscan_take(as);
            if (!value)
                return usage_error(USAGE, "option '-o' needs a value");
            r->o.output = value;
            return set_dest(&r->o, D_FILE);
        case 'i':
            r->o.suffix = name[1] ? name + 1 : NULL;
            return set_dest(&r->o, D_IN_PLACE);
        case 'j':
            r->o.jobs = name[1] ? name + 1 : argscan_take(as);
            if (!r->o.jobs)
                return usage_error(USAGE, "option '-j' needs a number");
            jobs_parse(USAGE, r->o.jobs, &st);
            return st;
        case 'r':
        case '0':
            if (name[1])
                return opt_unknown(USAGE, arg, strlen(arg));
            if (name[0] == 'r')
                r->o.inputs.recursive = true;
            else
                r->o.inputs.null_sep = true;
            return 0;
        default:
            return opt_unknown(USAGE, arg, strlen(arg));
        }
    }
    st = opt_long(&table, as, arg, name, name_len, &value, &d, &v);
    if (st)
        return st;
    if (opt_is_limit(d))
        return opt_limit(USAGE, d, value, &r->o.limits);
    if (doc_is_inputs_opt(d)) {
        doc_inputs_opt(&r->o.inputs, d, value);
        return 0;
    }
    if (d->id == OPT_JOBS) {
        r->o.jobs = value;
        jobs_parse(USAGE, value, &st);
        return st;
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
            return usage_error(USAGE, "options '--xml' and '--html' exclude "
                                      "each other");
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
    case O_TO:
        r->o.ro.to = (enum xiri_rewrite_to)v;
        break;
    case O_IDN:
        r->o.ro.idn = (enum xiri_rewrite_idn)v;
        r->o.idn_set = true;
        break;
    case O_RESOLVE:
        r->o.ro.resolve = 1;
        break;
    case O_QUERY_ENCODING:
        r->o.ro.query_utf8 = v;
        break;
    case O_STRICT:
        r->o.strict = true;
        break;
    case O_REPAIR:
        r->o.ro.repair = 1;
        break;
    case O_IDENTIFIERS:
        r->o.ro.identifiers = v;
        break;
    case O_OUTPUT:
        r->o.output = value;
        st = set_dest(&r->o, D_FILE);
        break;
    case O_IN_PLACE:
        r->o.suffix = value && value[0] ? value : NULL;
        st = set_dest(&r->o, D_IN_PLACE);
        break;
    case O_DIFF:
        st = set_dest(&r->o, D_DIFF);
        break;
    case O_QUIET:
        r->o.quiet = true;
        break;
    }
    return st;
}

/* ------------------------------------------------------------- signals */

/* The temporary files a signal must not leave behind: the new document
 * and the new backup, next to the file rewritten in place; two slots per
 * thread (slot 0 the main thread's, i worker i's of -j).  The handler may
 * run in any thread: it takes each name by swapping SIG_TAKEN in (an
 * atomic exchange, lock-free on the platforms xiri runs on, so usable in
 * a handler, C11 7.14.1.1), and a thread that finds its slot taken stops
 * there, the process being about to die, so that no name is freed while
 * the handler reads it.  A file is created and registered with the
 * signals blocked in its thread and sig_creating counted up: a handler
 * (in another thread) first says it is dying, then waits for those
 * under way, so that no file it does not see is left (tmp_create). */
#define SIG_THREADS 257 /* the main thread and up to 256 workers */
static _Atomic(char *) sig_tmp[SIG_THREADS][2];
static char sig_taken_mark;
#define SIG_TAKEN (&sig_taken_mark)
static pthread_once_t sig_once = PTHREAD_ONCE_INIT;
static atomic_int sig_creating;
static atomic_bool sig_dying;

static const int caught_signals[] = {SIGHUP, SIGINT, SIGTERM};

/* Remove the temporary files and die of the signal, as without us. */
static void on_signal(int sig)
{
    size_t i, k;

    atomic_store(&sig_dying, true);
    while (atomic_load(&sig_creating) > 0)
        ; /* a few system calls in another thread (tmp_create) */
    for (i = 0; i < SIG_THREADS; i++)
        for (k = 0; k < 2; k++) {
            char *p = atomic_exchange(&sig_tmp[i][k], SIG_TAKEN);

            if (p && p != SIG_TAKEN)
                unlink(p);
        }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void signals_block(sigset_t *old)
{
    sigset_t set;
    size_t i;

    sigemptyset(&set);
    for (i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++)
        sigaddset(&set, caught_signals[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static void signals_restore(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void signals_install_once(void)
{
    struct sigaction sa, old;
    size_t i;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++)
        sigaddset(&sa.sa_mask, caught_signals[i]);
    for (i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++) {
        /* a signal ignored (nohup) stays ignored */
        if (sigaction(caught_signals[i], NULL, &old) == 0 &&
            old.sa_handler == SIG_IGN)
            continue;
        sigaction(caught_signals[i], &sa, NULL);
    }
}

static void signals_install(void)
{
    pthread_once(&sig_once, signals_install_once);
}

/* Slot k of thread `slot` now names path (NULL: none). */
static void sig_tmp_set(unsigned slot, int k, char *path)
{
    sigset_t old;
    char *prev;

    signals_block(&old);
    prev = atomic_exchange(&sig_tmp[slot][k], path);
    signals_restore(&old);
    if (prev == SIG_TAKEN) {
        /* a handler is removing the files and ending the process */
        if (path)
            unlink(path);
        for (;;)
            pause();
    }
}

/* ---------------------------------------------------------------- I/O */

/* read(2) without EINTR; -1 with errno on failure. */
static ssize_t read_some(int fd, char *buf, size_t n)
{
    ssize_t k;

    do
        k = read(fd, buf, n);
    while (k < 0 && errno == EINTR);
    return k;
}

/* Write all of buf; 0, or -1 with errno. */
static int write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, buf, n);

        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0) {
            errno = EIO;
            return -1;
        }
        buf += k;
        n -= (size_t)k;
    }
    return 0;
}

static void sink_flush(struct sink *s)
{
    if (s->err == 0 && s->len > 0 && write_all(s->fd, s->buf, s->len) != 0)
        s->err = errno ? errno : EIO;
    s->len = 0;
}

static void sink_put(struct sink *s, const void *data, size_t n)
{
    const char *p = data;

    s->total += n;
    if (s->err)
        return;
    while (n > 0) {
        size_t room = RW_CHUNK - s->len, k = n < room ? n : room;

        memcpy(s->buf + s->len, p, k);
        s->len += k;
        p += k;
        n -= k;
        if (s->len == RW_CHUNK) {
            sink_flush(s);
            if (s->err)
                return;
        }
    }
}

/* The rewriter's xiri_write_fn: into the temporary file. */
static int write_out(void *user, const void *data, size_t n)
{
    struct rw_file *f = user;

    sink_put(&f->out, data, n);
    return f->out.err != 0;
}

/* Copy all of fd (from its start) to the checked standard output. */
static int copy_to_stdout(struct rw_run *r, int fd)
{
    ssize_t k;

    if (lseek(fd, 0, SEEK_SET) != 0)
        return -1;
    while ((k = read_some(fd, r->chunk2, RW_CHUNK)) > 0) {
        out_write(r->chunk2, (size_t)k);
        if (!out_ok())
            return 0; /* reported by out_finish */
    }
    return k < 0 ? -1 : 0;
}

/* Copy all of from (from its start) to to; 0, or -1 with errno and *what
 * saying whether reading or writing failed. */
static int copy_fd(struct rw_run *r, int from, int to, bool *writing)
{
    ssize_t k;

    *writing = false;
    if (lseek(from, 0, SEEK_SET) != 0)
        return -1;
    while ((k = read_some(from, r->chunk2, RW_CHUNK)) > 0) {
        *writing = true;
        if (write_all(to, r->chunk2, (size_t)k) != 0)
            return -1;
        *writing = false;
    }
    return k < 0 ? -1 : 0;
}

/* "xiri: WHERE: TEXT" with strerror. */
static void msg_errno(const char *where, const char *what, int err,
                      const char *after)
{
    size_t n = strlen(what) + strlen(after) + 200;
    char *text = malloc(n);

    if (!text) {
        msg_error("out of memory");
        return;
    }
    snprintf(text, n, "%s: %s%s", what, strerror(err ? err : EIO), after);
    msg_about(where, text);
    free(text);
}

/* A new temporary file next to path: "DIR/.NAME.xiri-XXXXXX" (mkstemp,
 * mode 0600).  Returns its descriptor and *tmp, or -1 with errno. */
static int tmp_next_to(const char *path, char **tmp)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = io_dir_of(path), *t;
    size_t n;
    int fd, saved;

    *tmp = NULL;
    if (!dir) {
        errno = ENOMEM;
        return -1;
    }
    if (strlen(base) > 200)
        base = ""; /* keep the name short enough for any file system */
    n = strlen(dir) + strlen(base) + 32;
    t = malloc(n);
    if (!t) {
        free(dir);
        errno = ENOMEM;
        return -1;
    }
    snprintf(t, n, "%s/.%s%sxiri-XXXXXX", dir, base, base[0] ? "." : "");
    free(dir);
    fd = mkstemp(t);
    if (fd < 0) {
        saved = errno;
        free(t);
        errno = saved;
        return -1;
    }
    *tmp = t;
    return fd;
}

/* tmp_next_to, registered as slot k of thread `slot` for the signal
 * handler (no moment when the file exists unregistered). */
static int tmp_create(unsigned slot, int k, const char *path, char **tmp)
{
    sigset_t old;
    int fd, err;

    signals_block(&old);
    atomic_fetch_add(&sig_creating, 1);
    if (atomic_load(&sig_dying)) {
        atomic_fetch_sub(&sig_creating, 1);
        for (;;)
            pause(); /* a handler is ending the process */
    }
    fd = tmp_next_to(path, tmp);
    err = errno;
    if (fd >= 0)
        atomic_store(&sig_tmp[slot][k], *tmp);
    atomic_fetch_sub(&sig_creating, 1);
    signals_restore(&old);
    errno = err;
    return fd;
}

/* ------------------------------------------------------------- events */

/* A message about link l at line:column of the document (the link's own
 * place, or that of the character the message is about). */
static void report_at(struct rw_file *f, unsigned long line,
                      unsigned long column, enum xiri_severity sev,
                      const char *text)
{
    size_t n = strlen(f->shown) + 48;
    char *where = malloc(n), *full;

    if (sev < XIRI_SEV_ERROR && f->r->o.quiet) {
        free(where);
        return;
    }
    summary_count(&f->r->sum, sev);
    full = malloc(strlen(text) + 16);
    if (!where || !full) {
        free(where);
        free(full);
        cli_out_of_memory(&f->r->state);
        return;
    }
    snprintf(where, n, "%s:%lu:%lu", f->shown, line, column);
    snprintf(full, strlen(text) + 16, "%s: %s", xiri_severity_name(sev),
             text);
    msg_about(where, full);
    free(where);
    free(full);
}

static void report_as(struct rw_file *f, const struct xiri_link *l,
                      enum xiri_severity sev, const char *text)
{
    unsigned long line = l->line, column = l->column;
    size_t off;

    /* lazy positions: counted for the few links with a message */
    if (line == 0)
        xiri_rewriter_position(f->rw, l, 0, &line, &column, &off);
    report_at(f, line, column, sev, text);
}

static void report(struct rw_file *f, const struct xiri_link *l, bool error,
                   const char *text)
{
    report_as(f, l, error ? XIRI_SEV_ERROR : XIRI_SEV_WARNING, text);
}

/* True for a reference without a scheme (RFC 3986 4.2). */
static bool is_relative(const char *v, size_t n)
{
    struct xiri *iri = NULL;
    bool rel;

    if (xiri_parse(v, n, XIRI_PROFILE_LEIRI, &iri, NULL) != XIRI_OK)
        return false;
    rel = !xiri_is_absolute(iri);
    xiri_free(iri);
    return rel;
}

static int on_event(void *user, const struct xiri_rewrite_event *ev)
{
    struct rw_file *f = user;
    struct rw_run *r = f->r;
    const struct xiri_link *l = ev->link;
    const char *enc;
    char text[512];

    r->sum.links++;
    if (ev->new_value) {
        r->sum.changed++;
        f->changed++;
        if (r->o.dest == D_DIFF) {
            struct span *s;

            if (f->nspans == f->spans_cap) {
                size_t cap = f->spans_cap ? 2 * f->spans_cap : 64;
                struct span *p = realloc(f->spans, cap * sizeof(*p));

                if (!p) {
                    cli_out_of_memory(&r->state);
                    return 1;
                }
                f->spans = p;
                f->spans_cap = cap;
            }
            /* the bytes between two changes are copied as they are, and
             * the rewriter has just written the new value: it ends where
             * the output is now */
            s = &f->spans[f->nspans++];
            s->orig_off = l->offset;
            s->orig_len = l->raw_length;
            s->new_off = f->last_new_end + (l->offset - f->last_orig_end);
            s->new_len = f->out.total - s->new_off;
            f->last_orig_end = l->offset + l->raw_length;
            f->last_new_end = f->out.total;
        }
    }
    if (ev->status != XIRI_OK) {
        f->unmapped++;
        const char *m = ev->message && ev->message[0]
                            ? ev->message
                            : xiri_strerror(ev->status);

        /* with --strict the file is not written at all */
        snprintf(text, sizeof(text), "%s%s", m,
                 r->o.strict || strstr(m, "left as it is")
                     ? ""
                     : "; the value is left as it is");
        /* at the character the message is about, as check places it */
        report_at(f, ev->line, ev->column,
                  r->o.strict ? XIRI_SEV_ERROR : XIRI_SEV_WARNING, text);
    }
    if (ev->identifier_kept) {
        snprintf(text, sizeof(text),
                 "%s (give --identifiers=rewrite to rewrite it) "
                 "[identifier-kept]",
                 ev->message);
        report_as(f, l, XIRI_SEV_NOTE, text);
    } else if (r->o.ro.resolve && !l->base && ev->status == XIRI_OK &&
               l->shape != XIRI_SHAPE_HASH_NAME && /* never resolved */
               is_relative(l->value, l->value_len))
        report(f, l, false,
               "no base to resolve the reference against; it stays "
               "relative (give --base)");
    if (ev->query_differs) {
        /* the encoding the bytes are in: windows-1252 for a page that
         * says ISO-8859-1 (WHATWG Encoding) */
        enc = xiri_query_encoding(
            xiri_walker_encoding(xiri_rewriter_walker(f->rw), NULL));
        if (!enc)
            enc = "the document's encoding";
        if (r->o.ro.query_utf8)
            snprintf(text, sizeof(text),
                     "query written in UTF-8 (RFC 3987 3.1), but browsers "
                     "send it in %s from this page: the link now requests "
                     "something else [query-encoding]",
                     enc);
        else
            snprintf(text, sizeof(text),
                     "query written in %s, as browsers send it from this "
                     "page; in UTF-8 (RFC 3987 3.1, --query-encoding=utf-8) "
                     "it would request something else [query-encoding]",
                     enc);
        report(f, l, false, text);
    }
    return r->state.stop;
}

static int on_diag(void *user, const struct xiri_doc_diag *d)
{
    struct rw_file *f = user;
    const char *sev = xiri_severity_name(d->severity);
    const char *m = d->message ? d->message : "";
    const char *code = d->code ? d->code : "";
    size_t wn = strlen(f->shown) + 48;
    size_t tn = strlen(sev) + strlen(m) + strlen(code) + 8;
    char *where, *text;

    if (f->r->o.quiet && d->severity < XIRI_SEV_ERROR)
        return 0;
    summary_count(&f->r->sum, d->severity);
    where = malloc(wn);
    text = malloc(tn);
    if (!where || !text) {
        free(where);
        free(text);
        cli_out_of_memory(&f->r->state);
        return 1;
    }
    if (d->line > 0)
        snprintf(where, wn, "%s:%lu:%lu", f->shown, d->line, d->column);
    else
        snprintf(where, wn, "%s", f->shown);
    snprintf(text, tn, "%s: %s%s%s%s", sev, m, code[0] ? " [" : "", code,
             code[0] ? "]" : "");
    msg_about(where, text);
    free(where);
    free(text);
    return f->r->state.stop;
}

/* ---------------------------------------------------------------- diff */

/* A buffered reader of a file descriptor, one byte at a time. */
struct reader {
    int fd;
    char *buf;
    size_t len, pos;
    int err; /* errno of a read error */
    bool eof;
};

static void reader_init(struct reader *rd, int fd, char *buf)
{
    rd->fd = fd;
    rd->buf = buf;
    rd->len = rd->pos = 0;
    rd->err = 0;
    rd->eof = false;
}

/* The next byte, or -1 at the end or on an error. */
static int reader_get(struct reader *rd)
{
    if (rd->pos == rd->len) {
        ssize_t k;

        if (rd->eof || rd->err)
            return -1;
        k = read_some(rd->fd, rd->buf, RW_CHUNK);
        if (k < 0) {
            rd->err = errno ? errno : EIO;
            return -1;
        }
        if (k == 0) {
            rd->eof = true;
            return -1;
        }
        rd->len = (size_t)k;
        rd->pos = 0;
    }
    return (unsigned char)rd->buf[rd->pos++];
}

/* One changed block of lines: orig lines [o, o + on), new lines
 * [n, n + nn), counted from 1. */
struct block {
    uint64_t o, on, n, nn;
};

struct diff {
    struct rw_file *f;
    struct reader a, b; /* the original and the rewritten document */
    uint64_t la, lb;    /* the line each reader is in, from 1 */
    bool a_bol, b_bol;  /* whether at the start of a line */
    struct block *blocks;
    size_t nblocks, cap;
    uint64_t sync_a, sync_b; /* the lines at the last common line start */
    bool pending;            /* a change since then */
    bool mismatch;           /* bytes outside the changes differ */
    bool nomem;
};

static void diff_block_end(struct diff *d, uint64_t end_a, uint64_t end_b)
{
    struct block *bl;

    if (!d->pending)
        return;
    d->pending = false;
    bl = d->nblocks ? &d->blocks[d->nblocks - 1] : NULL;
    if (bl && bl->o + bl->on == d->sync_a) {
        /* right after the last one: one change, its old lines then its
         * new lines, as diff -u shows it */
        bl->on = end_a - bl->o;
        bl->nn = end_b - bl->n;
        return;
    }
    if (d->nblocks == d->cap || !d->blocks) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        struct block *p = realloc(d->blocks, cap * sizeof(*p));

        if (!p) {
            d->nomem = true;
            return;
        }
        d->blocks = p;
        d->cap = cap;
    }
    bl = &d->blocks[d->nblocks++];
    bl->o = d->sync_a;
    bl->on = end_a - d->sync_a;
    bl->n = d->sync_b;
    bl->nn = end_b - d->sync_b;
}

/* Pass 1 over the common bytes up to the original's offset upto (or the
 * end): they must be equal in both; each line end there is a line start
 * common to both files, which ends a changed block. */
static void diff_common(struct diff *d, uint64_t from, uint64_t upto,
                        bool to_end)
{
    uint64_t i;

    for (i = from; to_end || i < upto; i++) {
        int ca = reader_get(&d->a), cb = reader_get(&d->b);

        if (ca != cb) {
            d->mismatch = true;
            return;
        }
        if (ca < 0)
            return;
        d->a_bol = d->b_bol = ca == '\n';
        if (ca == '\n') {
            d->la++;
            d->lb++;
            diff_block_end(d, d->la, d->lb);
            d->sync_a = d->la;
            d->sync_b = d->lb;
        }
    }
}

/* Pass 1 over one side of a change: count its line ends. */
static bool diff_changed(struct reader *rd, uint64_t len, uint64_t *line,
                         bool *bol)
{
    uint64_t i;

    for (i = 0; i < len; i++) {
        int c = reader_get(rd);

        if (c < 0)
            return false;
        *bol = c == '\n';
        if (c == '\n')
            ++*line;
    }
    return true;
}

/* Pass 2: copy the current line of rd after prefix, or skip it; a last
 * line without a line end gets diff's marker. */
static void diff_line(struct reader *rd, char prefix, bool print)
{
    int c;
    char run[256];
    size_t n = 0;

    if (print)
        out_putc(prefix);
    while ((c = reader_get(rd)) >= 0) {
        if (print) {
            run[n++] = (char)c;
            if (n == sizeof(run)) {
                out_write(run, n);
                n = 0;
            }
        }
        if (c == '\n')
            break;
    }
    if (print) {
        out_write(run, n);
        if (c != '\n')
            out_puts("\n\\ No newline at end of file\n");
    }
}

/* "start,count" of a hunk side as diff -u writes it: ",1" left out, and
 * an empty side numbered by the line before it. */
static void diff_range(uint64_t start, uint64_t count)
{
    if (count == 1)
        out_printf("%llu", (unsigned long long)start);
    else
        out_printf("%llu,%llu", (unsigned long long)(count ? start : start - 1),
                   (unsigned long long)count);
}

/* Print the hunks: changed blocks closer than 2 * DIFF_CONTEXT common
 * lines share one, as with "diff -u". */
static void diff_print(struct diff *d, uint64_t total_a, uint64_t total_b)
{
    size_t i = 0, j, k;

    reader_init(&d->a, d->a.fd, d->a.buf);
    reader_init(&d->b, d->b.fd, d->b.buf);
    d->la = d->lb = 1;
    while (i < d->nblocks && out_ok()) {
        const struct block *first = &d->blocks[i], *last;
        uint64_t ctx_a, ctx_b, end_a, end_b, lead;

        for (j = i; j + 1 < d->nblocks; j++) {
            const struct block *x = &d->blocks[j], *y = &d->blocks[j + 1];
            if (y->o - (x->o + x->on) > 2 * DIFF_CONTEXT)
                break;
        }
        last = &d->blocks[j];
        lead = first->o - 1 < DIFF_CONTEXT ? first->o - 1 : DIFF_CONTEXT;
        ctx_a = first->o - lead;
        ctx_b = first->n - lead;
        end_a = last->o + last->on + DIFF_CONTEXT;
        if (end_a > total_a + 1)
            end_a = total_a + 1;
        end_b = end_a - (last->o + last->on) + (last->n + last->nn);
        if (end_b > total_b + 1)
            end_b = total_b + 1;
        out_puts("@@ -");
        diff_range(ctx_a, end_a - ctx_a);
        out_puts(" +");
        diff_range(ctx_b, end_b - ctx_b);
        out_puts(" @@\n");
        /* skip to the hunk */
        while (d->la < ctx_a) {
            diff_line(&d->a, 0, false);
            d->la++;
        }
        while (d->lb < ctx_b) {
            diff_line(&d->b, 0, false);
            d->lb++;
        }
        for (k = i; k <= j; k++) {
            const struct block *bl = &d->blocks[k];

            while (d->la < bl->o) { /* context */
                diff_line(&d->a, ' ', true);
                diff_line(&d->b, 0, false);
                d->la++;
                d->lb++;
            }
            while (d->la < bl->o + bl->on) {
                diff_line(&d->a, '-', true);
                d->la++;
            }
            while (d->lb < bl->n + bl->nn) {
                diff_line(&d->b, '+', true);
                d->lb++;
            }
        }
        while (d->la < end_a) {
            diff_line(&d->a, ' ', true);
            diff_line(&d->b, 0, false);
            d->la++;
            d->lb++;
        }
        i = j + 1;
    }
}

/* Whether GNU diff quotes a file name holding byte c in its headers
 * (diffutils 3.8, in any locale): white space and other controls, '"',
 * '\\' and every byte from 0x80. */
static bool diff_quotes(unsigned char c)
{
    return c <= ' ' || c == '"' || c == '\\' || c >= 0x80;
}

/* PREFIX NAME as a header of the diff: as it is, or, when it holds a
 * byte diff_quotes, in double quotes with C's escapes (\t, \n, \", \\,
 * \ooo), as GNU diff writes it and patch(1) reads it. */
static void diff_label(const char *prefix, const char *name)
{
    const char *p;
    bool quote = false;

    for (p = name; *p && !quote; p++)
        quote = diff_quotes((unsigned char)*p);
    if (!quote) {
        out_puts(prefix);
        out_puts(name);
        return;
    }
    out_putc('"');
    out_puts(prefix);
    for (p = name; *p; p++) {
        unsigned char c = (unsigned char)*p;
        const char *esc = strchr("\a\b\t\n\v\f\r", c);

        if (c && esc) {
            out_putc('\\');
            out_putc("abtnvfr"[esc - "\a\b\t\n\v\f\r"]);
        } else if (c == '"' || c == '\\') {
            out_putc('\\');
            out_putc((char)c);
        } else if (c < ' ' || c >= 0x80) {
            out_printf("\\%03o", c);
        } else {
            out_putc((char)c);
        }
    }
    out_putc('"');
}

/* Print the unified diff of the original (orig) and the rewritten
 * document (the temporary file), from the changed spans.  The bytes
 * outside them are compared on the way: they must be equal.  Returns
 * false after a message. */
static bool diff_file(struct rw_file *f, int orig)
{
    struct rw_run *r = f->r;
    struct diff d;
    uint64_t pos = 0, total_a, total_b;
    size_t i;
    bool ok = true;

    memset(&d, 0, sizeof(d));
    d.f = f;
    if (lseek(orig, 0, SEEK_SET) != 0 || lseek(f->out.fd, 0, SEEK_SET) != 0) {
        msg_errno(f->shown, "cannot read the document again", errno, "");
        return false;
    }
    reader_init(&d.a, orig, r->chunk);
    reader_init(&d.b, f->out.fd, r->chunk2);
    d.la = d.lb = d.sync_a = d.sync_b = 1;
    d.a_bol = d.b_bol = true;
    for (i = 0; i < f->nspans && !d.mismatch && !d.nomem; i++) {
        const struct span *s = &f->spans[i];

        if (s->orig_off < pos) {
            d.mismatch = true;
            break;
        }
        diff_common(&d, pos, s->orig_off, false);
        if (d.mismatch)
            break;
        d.pending = true;
        if (!diff_changed(&d.a, s->orig_len, &d.la, &d.a_bol) ||
            !diff_changed(&d.b, s->new_len, &d.lb, &d.b_bol)) {
            d.mismatch = true;
            break;
        }
        /* both sides end a line: a line start common to both */
        if (d.a_bol && d.b_bol) {
            diff_block_end(&d, d.la, d.lb);
            d.sync_a = d.la;
            d.sync_b = d.lb;
        }
        pos = s->orig_off + s->orig_len;
    }
    if (!d.mismatch && !d.nomem)
        diff_common(&d, pos, 0, true);
    /* the lines of each file: a last line without a line end counts */
    total_a = d.la - (d.a_bol ? 1 : 0);
    total_b = d.lb - (d.b_bol ? 1 : 0);
    diff_block_end(&d, total_a + 1, total_b + 1);
    if (d.a.err || d.b.err) {
        msg_errno(f->shown, "cannot read the document again",
                  d.a.err ? d.a.err : d.b.err, "");
        ok = false;
    } else if (d.nomem) {
        cli_out_of_memory(&r->state);
        ok = false;
    } else if (d.mismatch) {
        msg_about(f->shown, "error: internal error: the output differs "
                            "outside the changed values; please report it");
        ok = false;
    } else if (d.nblocks > 0) {
        if (lseek(orig, 0, SEEK_SET) != 0 ||
            lseek(f->out.fd, 0, SEEK_SET) != 0) {
            msg_errno(f->shown, "cannot read the document again", errno, "");
            ok = false;
        } else {
            out_puts("--- ");
            diff_label("a/", f->name);
            out_puts("\n+++ ");
            diff_label("b/", f->name);
            out_puts("\n");
            diff_print(&d, total_a, total_b);
            if (d.a.err || d.b.err) {
                msg_errno(f->shown, "cannot read the document again",
                          d.a.err ? d.a.err : d.b.err, "");
                ok = false;
            }
        }
    }
    free(d.blocks);
    return ok;
}

/* ------------------------------------------------------------- publish */

/* The extended attributes (xattr(7)) of the original, open as from,
 * its POSIX ACL (system.posix_acl_access) among them, copied to the file
 * open as to that replaces it, as "cp --preserve=xattr" does.  One that
 * cannot be copied (a security label the user may not set, a file system
 * without them) is named in a warning, once (for the rewritten file, not
 * its backup); the file is rewritten all the same. */
static void keep_xattrs(struct rw_file *f, int from, int to)
{
#ifdef __linux__
    ssize_t n = flistxattr(from, NULL, 0), len;
    char *names = NULL, *name, *val = NULL, *grown, text[400];
    size_t cap = 0;
    bool warn = to == f->out.fd && !f->r->o.quiet;

    if (n == 0 || (n < 0 && (errno == ENOTSUP || errno == ENOSYS)))
        return; /* none, or a file system without them */
    if (n > 0 && (names = malloc((size_t)n)) != NULL)
        n = flistxattr(from, names, (size_t)n);
    if (n < 0 || (n > 0 && !names)) {
        if (warn) {
            summary_count(&f->r->sum, XIRI_SEV_WARNING);
            snprintf(text, sizeof(text),
                     "warning: cannot read the extended attributes, which "
                     "are not kept: %s",
                     strerror(n < 0 ? errno : ENOMEM));
            msg_about(f->shown, text);
        }
        free(names);
        return;
    }
    for (name = names; name < names + n; name += strlen(name) + 1) {
        len = fgetxattr(from, name, NULL, 0);
        if (len > 0 && (size_t)len > cap) {
            grown = realloc(val, (size_t)len);
            if (grown) {
                val = grown;
                cap = (size_t)len;
            } else {
                len = -1;
                errno = ENOMEM;
            }
        }
        if (len >= 0)
            len = fgetxattr(from, name, val, (size_t)len);
        if (len >= 0 && fsetxattr(to, name, val, (size_t)len, 0) == 0)
            continue;
        if (!warn)
            continue;
        summary_count(&f->r->sum, XIRI_SEV_WARNING);
        snprintf(text, sizeof(text),
                 "warning: the extended attribute '%.200s' is not kept: %s",
                 name, strerror(errno));
        msg_about(f->shown, text);
    }
    free(val);
    free(names);
#else
    (void)f;
    (void)from;
    (void)to;
#endif
}

/* Give the temporary file the original's owner (when allowed), mode and
 * extended attributes (f: the rewrite of the original open as f->in,
 * with like its stat; NULL: a new file), and flush it to the disk; 0, or
 * -1 with errno and *what. */
static int tmp_finish(struct rw_file *f, int fd, const struct stat *like,
                      mode_t mode, const char **what)
{
    /* the owner first: fchown may clear the set-user-ID bits */
    if (like && fchown(fd, like->st_uid, like->st_gid) != 0)
        (void)!fchown(fd, (uid_t)-1, like->st_gid); /* the group at least */
    if (fchmod(fd, mode) != 0) {
        *what = "cannot set the permissions of the temporary file";
        return -1;
    }
    if (like)
        keep_xattrs(f, f->in, fd);
    if (fsync(fd) != 0) {
        *what = "cannot flush the temporary file to the disk";
        return -1;
    }
    return 0;
}

/* Flush the directory holding path, so that a rename survives a crash
 * (best effort). */
static void sync_dir(const char *path)
{
    char *dir = io_dir_of(path);
    int fd;

    if (!dir)
        return;
    fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

/* Make a copy of the original (still open as f->in) named backup, through
 * a temporary file next to it.  Returns 0 or -1 after a message. */
static int make_backup(struct rw_file *f, const char *target, char **bak_tmp)
{
    const char *what = NULL;
    bool writing;
    int fd, err;

    fd = tmp_create(f->r->slot, 1, target, bak_tmp);
    if (fd < 0) {
        msg_errno(f->shown, "cannot create a temporary file for the backup",
                  errno, "; the file is left as it is");
        return -1;
    }
    if (copy_fd(f->r, f->in, fd, &writing) != 0)
        what = writing ? "cannot write the backup" : "cannot read the file";
    else
        (void)tmp_finish(f, fd, &f->st, f->st.st_mode & 07777, &what);
    err = errno;
    if (close(fd) != 0 && !what) {
        err = errno;
        what = "cannot write the backup";
    }
    if (what) {
        msg_errno(f->shown, what, err, "; the file is left as it is");
        return -1;
    }
    return 0;
}

/* Whether the file at path is still the one that was opened and read
 * (st, taken before reading): the same device and inode (not replaced,
 * say by mv), size and modification and change times (not written in
 * place meanwhile). */
static bool same_file(const char *path, const struct stat *st)
{
    struct stat now;

    if (stat(path, &now) != 0)
        return false;
    return now.st_dev == st->st_dev && now.st_ino == st->st_ino &&
           now.st_size == st->st_size &&
           now.st_mtim.tv_sec == st->st_mtim.tv_sec &&
           now.st_mtim.tv_nsec == st->st_mtim.tv_nsec &&
           now.st_ctim.tv_sec == st->st_ctim.tv_sec &&
           now.st_ctim.tv_nsec == st->st_ctim.tv_nsec;
}

/* For tests only (tests/cli/cases/rewrite-in-place-changed): with
 * $XIRI_TEST_PUBLISH_WAIT naming a FIFO, wait before publishing until a
 * writer has opened it and closed it again, so that a test can change
 * things at that very moment. */
static void test_publish_wait(struct rw_run *r)
{
    const char *p = getenv("XIRI_TEST_PUBLISH_WAIT");
    int fd;

    if (!p || !p[0])
        return;
    fd = open(p, O_RDONLY);
    if (fd < 0)
        return;
    while (read_some(fd, r->chunk2, RW_CHUNK) > 0)
        ;
    close(fd);
}

/* Move an older backup aside (to a new name next to it, *aside), so that
 * it can come back if the file cannot be replaced; *aside stays NULL
 * when there is none.  0, or -1 with errno. */
static int backup_aside(const char *backup, char **aside)
{
    int fd = tmp_next_to(backup, aside);

    if (fd < 0)
        return -1;
    close(fd);
    if (rename(backup, *aside) == 0)
        return 0;
    {
        int err = errno;

        unlink(*aside);
        free(*aside);
        *aside = NULL;
        if (err == ENOENT)
            return 0; /* no older backup */
        errno = err;
        return -1;
    }
}

/* Replace target by the temporary file f->tmp_path (and make the
 * backup): the original stays whole until one rename replaces it.  In
 * place (like: the original's stat), a file that changed meanwhile is
 * left alone, and a failed rename leaves the older backup as it was. */
static void publish_rename(struct rw_file *f, const char *target,
                           const struct stat *like, mode_t mode)
{
    struct rw_run *r = f->r;
    const char *what = NULL;
    char *backup = NULL, *bak_tmp = NULL, *aside = NULL;
    sigset_t old;
    int err = 0;
    bool failed = false, bak_placed = false;

    sink_flush(&f->out);
    if (f->out.err) {
        err = f->out.err;
        what = "cannot write the temporary file";
    } else if (tmp_finish(f, f->out.fd, like, mode, &what) != 0) {
        err = errno;
    }
    if (close(f->out.fd) != 0 && !what) {
        err = errno;
        what = "cannot write the temporary file";
    }
    f->out.fd = -1;
    if (what) {
        msg_errno(f->shown, what, err,
                  r->o.dest == D_IN_PLACE ? "; the file is left as it is"
                                          : "; nothing written");
        failed = true;
    }
    if (!failed && r->o.dest == D_IN_PLACE && r->o.suffix) {
        size_t n = strlen(target) + strlen(r->o.suffix) + 1;

        backup = malloc(n);
        if (!backup) {
            cli_out_of_memory(&r->state);
            failed = true;
        } else {
            snprintf(backup, n, "%s%s", target, r->o.suffix);
            if (make_backup(f, target, &bak_tmp) != 0)
                failed = true;
        }
    }
    if (!failed) {
        test_publish_wait(r);
        /* no signal between the renames and forgetting the names */
        signals_block(&old);
        if (like && !same_file(target, like)) {
            /* another writer's work is not to be lost, nor mixed with
             * ours */
            what = "";
        } else if (bak_tmp && backup_aside(backup, &aside) != 0) {
            err = errno;
            what = "cannot move the older backup aside";
        } else if (bak_tmp && rename(bak_tmp, backup) != 0) {
            err = errno;
            what = "cannot rename the backup into place";
        } else {
            bak_placed = bak_tmp != NULL;
            if (rename(f->tmp_path, target) != 0) {
                err = errno;
                what = "cannot rename the temporary file over the file";
            } else {
                sig_tmp_set(r->slot, 0, NULL);
                sig_tmp_set(r->slot, 1, NULL);
                free(f->tmp_path);
                f->tmp_path = NULL;
                free(bak_tmp);
                bak_tmp = NULL;
                if (aside) {
                    unlink(aside); /* replaced by the new backup */
                    free(aside);
                    aside = NULL;
                }
            }
        }
        /* undo: the file was not replaced, so its backup is the older
         * one again, or none */
        if (what && aside && rename(aside, backup) == 0) {
            free(aside);
            aside = NULL;
        } else if (what && !aside && bak_placed) {
            unlink(backup);
        }
        signals_restore(&old);
        if (what && !what[0]) {
            msg_about(f->shown, "changed while it was being rewritten; the "
                                "file is left as it is");
            failed = true;
        } else if (what) {
            msg_errno(f->shown, what, err,
                      r->o.dest == D_IN_PLACE ? "; the file is left as it is"
                                              : "; nothing written");
            failed = true;
        } else {
            sync_dir(target);
        }
        if (aside) {
            /* could not be put back: say where it is */
            size_t n = strlen(aside) + 64;
            char *text = malloc(n);

            if (text) {
                snprintf(text, n, "the older backup is kept as '%s'", aside);
                msg_about(backup, text);
                free(text);
            }
            free(aside);
        }
    }
    if (bak_tmp) {
        unlink(bak_tmp);
        sig_tmp_set(r->slot, 1, NULL);
        free(bak_tmp);
    }
    free(backup);
    if (failed)
        cli_set_status(&r->state, CLI_EXIT_USAGE);
}

/* -o OUT that is not a regular file (a device, a pipe, a link to no
 * file): opened and written; or fd >= 0, a descriptor OUT names
 * (/dev/fd/N, /dev/stderr): written as it is, at its offset. */
static void publish_copy(struct rw_file *f, const char *path, int fd)
{
    struct rw_run *r = f->r;
    bool writing, opened = fd < 0;

    if (opened)
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        msg_errno(path, "cannot open", errno, "");
        cli_set_status(&r->state, CLI_EXIT_USAGE);
        return;
    }
    if (copy_fd(r, f->out.fd, fd, &writing) != 0) {
        msg_errno(path, writing ? "cannot write" : "cannot read the output",
                  errno, "");
        cli_set_status(&r->state, CLI_EXIT_USAGE);
    }
    if (opened && close(fd) != 0) {
        msg_errno(path, "cannot write", errno, "");
        cli_set_status(&r->state, CLI_EXIT_USAGE);
    }
}

/* ------------------------------------------------------------- a file */

/* A file that could not be read, parsed or rewritten. */
static void file_failed(struct rw_file *f, enum xiri_status st,
                        const struct xiri_error *e)
{
    struct rw_run *r = f->r;
    const char *m = e && e->message[0] ? e->message : xiri_strerror(st);
    const char *after = r->o.dest == D_IN_PLACE ? "; the file is left as it is"
                                                : "; nothing written";
    size_t n = strlen(f->shown) + strlen(m) + 200;
    char *text;

    if (st == XIRI_ENOMEM) {
        cli_out_of_memory(&r->state);
        return;
    }
    cli_set_status(&r->state, CLI_EXIT_USAGE);
    if (st == XIRI_EIO && f->out.err) {
        msg_errno(f->shown, "cannot write the temporary file", f->out.err,
                  after);
        return;
    }
    text = malloc(n);
    if (!text) {
        cli_out_of_memory(&r->state);
        return;
    }
    if (st == XIRI_EDOC || st == XIRI_ELIMIT)
        /* the walker's message starts "LINE:COL: "; an XML parse error
         * may be an HTML page read as XML; a limit's message names the
         * option that raises it (xiri(1), LIMITS) */
        snprintf(text, n, "%s%s%s%s%s", f->shown,
                 m[0] >= '0' && m[0] <= '9' ? ":" : ": ", m, after,
                 st == XIRI_EDOC && f->rw &&
                         xiri_walker_type(xiri_rewriter_walker(f->rw)) ==
                             XIRI_DOC_XML
                     ? " (fix the document, or give --html if it is HTML)"
                     : "");
    else
        snprintf(text, n, "%s: %s%s", f->shown, m, after);
    msg_error("%s", text);
    free(text);
}

/* Feed the whole input to the rewriter; false after a message. */
static bool rewrite_input(struct rw_file *f)
{
    struct rw_run *r = f->r;
    struct xiri_error e;
    enum xiri_status st = XIRI_OK;
    ssize_t k;

    for (;;) {
        k = read_some(f->in, r->chunk, CLI_READ_SIZE);
        if (k < 0) {
            msg_errno(f->shown, "error reading", errno,
                      r->o.dest == D_IN_PLACE ? "; the file is left as it is"
                                              : "; nothing written");
            cli_set_status(&r->state, CLI_EXIT_USAGE);
            return false;
        }
        if (k == 0)
            break;
        if (f->copy.fd >= 0) {
            sink_put(&f->copy, r->chunk, (size_t)k);
            if (f->copy.err) {
                msg_errno(f->shown, "cannot keep a copy of the input",
                          f->copy.err, "");
                cli_set_status(&r->state, CLI_EXIT_USAGE);
                return false;
            }
        }
        e.message[0] = '\0';
        st = xiri_rewriter_feed(f->rw, r->chunk, (size_t)k, &e);
        if (st != XIRI_OK)
            break;
    }
    if (st == XIRI_OK) {
        e.message[0] = '\0';
        st = xiri_rewriter_finish(f->rw, &e);
    }
    if (r->state.stop)
        return false;
    if (st != XIRI_OK) {
        file_failed(f, st, &e);
        return false;
    }
    sink_flush(&f->out);
    if (f->out.err) {
        file_failed(f, XIRI_EIO, &e);
        return false;
    }
    if (f->copy.fd >= 0) {
        sink_flush(&f->copy);
        if (f->copy.err) {
            msg_errno(f->shown, "cannot keep a copy of the input", f->copy.err,
                      "");
            cli_set_status(&r->state, CLI_EXIT_USAGE);
            return false;
        }
    }
    return true;
}

static void rewrite_file(struct rw_run *r, const char *name)
{
    struct rw_file f;
    struct xiri_walk_options wo;
    struct io_out oo;
    enum xiri_status st;
    char *base = NULL, *target = NULL;
    const char *out_path = NULL;
    bool is_stdin = strcmp(name, "-") == 0, out_regular = false;
    int out_fd = -1; /* -o to a descriptor (the standard output...) */
    mode_t mode = 0;
    /* read once: the analyzer cannot tell that the callbacks, which get
     * f (and so r), never change it */
    const enum rw_dest dest = r->o.dest;

    memset(&f, 0, sizeof(f));
    memset(&oo, 0, sizeof(oo));
    f.r = r;
    f.name = name;
    f.shown = is_stdin ? "<stdin>" : name;
    f.out.fd = f.copy.fd = -1;
    /* in place, a FIFO is refused below, not waited for in open */
    f.in = is_stdin ? STDIN_FILENO
                    : open(name, dest == D_IN_PLACE ? O_RDONLY | O_NONBLOCK
                                                    : O_RDONLY);
    if (f.in < 0 || fstat(f.in, &f.st) != 0) {
        msg_errno(name, "cannot open", errno, "");
        cli_set_status(&r->state, CLI_EXIT_USAGE);
        goto done;
    }
    if (dest == D_IN_PLACE && S_ISREG(f.st.st_mode)) {
        int fl = fcntl(f.in, F_GETFL);

        if (fl >= 0)
            (void)fcntl(f.in, F_SETFL, fl & ~O_NONBLOCK);
    }
    if (S_ISDIR(f.st.st_mode)) {
        msg_about(name, MSG_DIRECTORY);
        cli_set_status(&r->state, CLI_EXIT_USAGE);
        goto done;
    }

    /* where the output goes first */
    if (dest == D_IN_PLACE) {
        if (!S_ISREG(f.st.st_mode)) {
            msg_about(name, "not a regular file; it cannot be rewritten in "
                            "place");
            cli_set_status(&r->state, CLI_EXIT_USAGE);
            goto done;
        }
        /* the file a symbolic link names is the one rewritten */
        target = realpath(name, NULL);
        if (!target) {
            msg_errno(name, "cannot find the file", errno,
                      "; the file is left as it is");
            cli_set_status(&r->state, CLI_EXIT_USAGE);
            goto done;
        }
        out_path = target;
        mode = f.st.st_mode & 07777;
    } else if (dest == D_FILE && strcmp(r->o.output, "-") == 0) {
        out_fd = STDOUT_FILENO; /* xiri(1): OUT '-' is the standard output */
    } else if (dest == D_FILE) {
        /* a symbolic link is never replaced: the file it names is, or
         * /dev/stdout and the like are written directly (xiri(1)) */
        int err = io_out_target(r->o.output, &oo);

        if (err) {
            msg_errno(r->o.output, "cannot write", err, "");
            cli_set_status(&r->state, CLI_EXIT_USAGE);
            goto done;
        }
        target = oo.path;
        out_path = target;
        if (oo.kind == IO_OUT_FD) {
            out_fd = oo.fd;
        } else if (oo.kind == IO_OUT_REPLACE) {
            mode_t mask = umask(0);

            umask(mask);
            out_regular = true;
            mode = oo.exists ? (mode_t)oo.mode : 0666 & ~mask;
        }
    }
    if (dest == D_IN_PLACE || (dest == D_FILE && out_regular)) {
        signals_install();
        f.out.fd = tmp_create(r->slot, 0, out_path, &f.tmp_path);
        if (f.out.fd < 0 && dest == D_FILE && oo.via_link &&
            (errno == EACCES || errno == EPERM)) {
            /* the file a link names, in a directory we may not write:
             * written directly */
            out_regular = false;
        } else if (f.out.fd < 0) {
            int err = errno;
            char *dir = io_dir_of(out_path);
            size_t n = (dir ? strlen(dir) : 0) + 64;
            char *what = malloc(n);

            if (what)
                snprintf(what, n, "cannot create a temporary file in '%s'",
                         dir ? dir : ".");
            msg_errno(f.shown, what ? what : "cannot create a temporary file",
                      err,
                      dest == D_IN_PLACE ? "; the file is left as it is"
                                              : "; nothing written");
            free(what);
            free(dir);
            cli_set_status(&r->state, CLI_EXIT_USAGE);
            goto done;
        }
    }
    if (f.out.fd < 0) {
        f.out.fd = io_tmp_anonymous("xiri-rewrite");
        if (f.out.fd < 0) {
            msg_errno(f.shown, "cannot create a temporary file in $TMPDIR",
                      errno, "; nothing written");
            cli_set_status(&r->state, CLI_EXIT_USAGE);
            goto done;
        }
    }
    f.out.buf = malloc(RW_CHUNK);
    if (!f.out.buf) {
        cli_out_of_memory(&r->state);
        goto done;
    }
    if (dest == D_DIFF && !S_ISREG(f.st.st_mode)) {
        /* the diff reads the original again: keep a copy */
        f.copy.fd = io_tmp_anonymous("xiri-rewrite");
        f.copy.buf = malloc(RW_CHUNK);
        if (f.copy.fd < 0 || !f.copy.buf) {
            msg_errno(f.shown, "cannot create a temporary file in $TMPDIR",
                      f.copy.fd < 0 ? errno : ENOMEM, "");
            cli_set_status(&r->state, CLI_EXIT_USAGE);
            goto done;
        }
    }

    xiri_walk_options_init(&wo);
    wo.lazy_positions = 1; /* only messages need them */
    wo.parse_thread = r->o.parse_thread;
    wo.parse_ahead = 1; /* (nothing of the rewriter is read between feeds) */
    wo.type = r->o.type;
    wo.name = is_stdin ? NULL : name;
    wo.encoding = r->o.encoding;
    wo.base = r->o.base;
    opt_limits_apply(&r->o.limits, &wo);
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
    st = xiri_rewriter_new(r->ctx, r->reg, &wo, &r->o.ro, write_out, on_event,
                           on_diag, &f, &f.rw);
    if (st != XIRI_OK) {
        file_failed(&f, st, NULL);
        goto done;
    }
    if (!rewrite_input(&f))
        goto done;

    if (r->o.strict && f.unmapped > 0) {
        char text[200];

        snprintf(text, sizeof(text),
                 "error: %zu value%s could not be mapped (--strict)%s",
                 f.unmapped, f.unmapped == 1 ? "" : "s",
                 dest == D_DIFF       ? ""
                 : dest == D_IN_PLACE ? "; the file is left as it is"
                                           : "; nothing written");
        msg_about(f.shown, text);
        cli_set_status(&r->state, CLI_EXIT_FAIL);
        if (dest != D_DIFF) {
            r->sum.changed -= f.changed; /* none of them was written */
            goto done;
        }
    }
    switch (dest) {
    case D_STDOUT:
        if (copy_to_stdout(r, f.out.fd) != 0) {
            msg_errno(f.shown, "cannot read the temporary file", errno, "");
            cli_set_status(&r->state, CLI_EXIT_USAGE);
        }
        if (!out_ok())
            r->state.stop = true;
        break;
    case D_DIFF:
        if (!diff_file(&f, f.copy.fd >= 0 ? f.copy.fd : f.in))
            cli_set_status(&r->state, CLI_EXIT_USAGE);
        if (!out_ok())
            r->state.stop = true;
        break;
    case D_FILE:
        if (out_regular) {
            publish_rename(&f, out_path, NULL, mode);
        } else if (out_fd == STDOUT_FILENO) {
            if (copy_to_stdout(r, f.out.fd) != 0) {
                msg_errno(f.shown, "cannot read the temporary file", errno, "");
                cli_set_status(&r->state, CLI_EXIT_USAGE);
            }
            if (!out_ok())
                r->state.stop = true;
        } else {
            publish_copy(&f, r->o.output, out_fd);
        }
        break;
    case D_IN_PLACE:
        if (f.changed > 0)
            publish_rename(&f, out_path, &f.st, mode);
        break;
    }
done:
    if (f.tmp_path) {
        unlink(f.tmp_path);
        sig_tmp_set(r->slot, 0, NULL);
        free(f.tmp_path);
    }
    if (f.out.fd >= 0)
        close(f.out.fd);
    if (f.copy.fd >= 0)
        close(f.copy.fd);
    if (f.in >= 0 && !is_stdin)
        close(f.in);
    xiri_rewriter_free(f.rw);
    free(f.out.buf);
    free(f.copy.buf);
    free(f.spans);
    free(base);
    free(target);
}

/* ------------------------------------------------------------- command */

/* doc_inputs_each's callbacks */
static void each_file(void *user, const char *path)
{
    struct rw_run *r = user;
    int before;

    if (r->pool) {
        jobs_submit(r->pool, path); /* job_file in a thread */
        return;
    }
    progress_found();
    progress_clear();
    before = summary_file_begin(&r->sum, &r->state);
    rewrite_file(user, path);
    summary_file_end(&r->sum, &r->state, before);
    progress_done(path);
}

static bool each_stop(void *user)
{
    struct rw_run *r = user;

    return r->state.stop || !out_ok() || r->pool_stop;
}

/* -j: one file, in a worker with its own run, or in the main thread for
 * the standard input. */
static void job_file(void *user, const char *path, size_t seq)
{
    struct rw_run *w = user;
    int before = summary_file_begin(&w->sum, &w->state);

    (void)seq; /* its messages have no list to be ordered in */
    rewrite_file(w, path);
    summary_file_end(&w->sum, &w->state, before);
    if (w->state.stop && w->main)
        w->main->pool_stop = true;
}

/* The threads of -j n (n > 1): 0, or -1 when they could not start (the
 * run then goes on in the main thread). */
static int pool_start(struct rw_run *r, unsigned n)
{
    struct xiri_walk_options wo;
    struct xiri_walker *w = NULL;
    void **users;
    unsigned i;

    /* libxml2 wants xmlInitParser() once in the main thread before the
     * others use it (libxiri(3), THREAD SAFETY): a walker does it */
    xiri_walk_options_init(&wo);
    if (xiri_walker_new(r->ctx, r->reg, &wo, NULL, NULL, NULL, &w) ==
        XIRI_OK)
        xiri_walker_free(w);
    /* installed here, before the threads: a worker's temporary file is
     * never there without its handler */
    if (r->o.dest == D_IN_PLACE)
        signals_install();
    r->workers = calloc(n, sizeof(*r->workers));
    users = calloc(n, sizeof(*users));
    if (!r->workers || !users) {
        free(users);
        return -1;
    }
    for (i = 0; i < n; i++) {
        struct rw_run *c = &r->workers[i];

        memcpy(c, r, sizeof(*c));
        c->main = r;
        c->slot = i + 1;
        c->ctx = NULL;
        c->workers = NULL;
        c->nworkers = 0;
        c->pool = NULL;
        memset(&c->state, 0, sizeof(c->state));
        memset(&c->sum, 0, sizeof(c->sum));
        c->sum.rewrite = true;
        c->chunk = malloc(CLI_READ_SIZE);
        c->chunk2 = malloc(RW_CHUNK);
        r->nworkers++;
        if (!c->chunk || !c->chunk2 || xiri_ctx_new(&c->ctx) != XIRI_OK) {
            free(users);
            return -1;
        }
        users[i] = c;
    }
    r->pool = jobs_start(n, job_file, users, r);
    free(users);
    return r->pool ? 0 : -1;
}

/* Join the threads and add up what they did. */
static void pool_end(struct rw_run *r)
{
    size_t i;

    if (r->pool)
        jobs_finish(r->pool);
    r->pool = NULL;
    for (i = 0; i < r->nworkers; i++) {
        struct rw_run *c = &r->workers[i];

        cli_set_status(&r->state, c->state.status);
        if (c->state.stop)
            r->state.stop = true;
        summary_add(&r->sum, &c->sum);
        xiri_ctx_free(c->ctx);
        free(c->chunk);
        free(c->chunk2);
    }
    free(r->workers);
    r->workers = NULL;
    r->nworkers = 0;
}

static int run_rewrite(struct rw_run *r, int argc, char **argv)
{
    struct argscan as;
    const char *arg, *name, *value;
    const char **files;
    size_t name_len, nfiles = 0, i;
    int kind, st;
    unsigned nthreads;

    files = calloc((size_t)argc + 1, sizeof(*files));
    r->o.schemas = calloc((size_t)argc + 1, sizeof(*r->o.schemas));
    r->o.attrs = calloc((size_t)argc + 1, sizeof(*r->o.attrs));
    r->o.inputs.includes = calloc((size_t)argc + 1, sizeof(const char *));
    r->o.inputs.excludes = calloc((size_t)argc + 1, sizeof(const char *));
    if (!files || !r->o.schemas || !r->o.attrs || !r->o.inputs.includes ||
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
            out_puts(rewrite_help);
            free(files);
            return CLI_EXIT_OK;
        }
        if (st > 0) {
            free(files);
            return st;
        }
    }
    if (strcmp(r->o.presets, "list") == 0) {
        doc_presets_list();
        free(files);
        return CLI_EXIT_OK;
    }
    st = doc_inputs_check(USAGE, &r->o.inputs, files, nfiles);
    if (st == 0 && r->o.idn_set && r->o.ro.idn == XIRI_REWRITE_IDN_UNICODE &&
             r->o.ro.to != XIRI_REWRITE_IRI)
        st = usage_error(USAGE, "'--idn=unicode' needs '--to=iri'");
    else if (st == 0 && r->o.dest == D_FILE &&
             (r->o.inputs.recursive || r->o.inputs.files_from))
        st = usage_error(USAGE,
                         "'-o' cannot be used with '%s'; use '-i' to "
                         "rewrite several files in place",
                         r->o.inputs.recursive ? "-r" : "--files-from");
    else if (st == 0 && r->o.dest == D_FILE && nfiles > 1)
        st = usage_error(USAGE, "'-o' takes one FILE; use '-i' to rewrite "
                                "several files in place");
    else if (st == 0 && r->o.dest == D_FILE && r->o.output[0] == '\0')
        st = usage_error(USAGE, "'-o' needs a file name");
    else if (st == 0 && r->o.base)
        st = doc_check_base(USAGE, r->o.base);
    for (i = 0; st == 0 && r->o.dest == D_IN_PLACE && i < nfiles; i++)
        if (strcmp(files[i], "-") == 0)
            st = usage_error(USAGE, "the standard input cannot be rewritten "
                                    "in place");
    if (st) {
        free(files);
        return st;
    }
    if (xiri_ctx_new(&r->ctx) != XIRI_OK) {
        free(files);
        msg_error("cannot set up: %s", xiri_strerror(XIRI_ENOMEM));
        return CLI_EXIT_USAGE;
    }
    st = doc_registry_setup(USAGE, r->o.presets, r->o.schemas, r->o.nschemas,
                            r->o.attrs, r->o.nattrs, r->o.quiet, &r->reg);
    if (st) {
        free(files);
        return st;
    }
    r->chunk = malloc(CLI_READ_SIZE);
    r->chunk2 = malloc(RW_CHUNK);
    if (!r->chunk || !r->chunk2) {
        free(files);
        cli_out_of_memory(&r->state);
        return r->state.status;
    }
    nthreads = jobs_parse(USAGE, r->o.jobs, &st);
    r->o.parse_thread = parse_thread_wanted(
        r->o.parse_thread_when, files, nfiles, r->o.inputs.files_from != NULL);
    /* -o writes one file: nothing to share */
    if (nthreads > 1 && r->o.dest != D_FILE && pool_start(r, nthreads) != 0)
        pool_end(r);
    progress_start(r->o.quiet);
    cli_set_status(&r->state,
                   doc_inputs_each(USAGE, &r->o.inputs, files, nfiles,
                                   each_file, each_stop, r));
    pool_end(r);
    progress_end();
    if (summary_wanted(&r->sum, r->o.quiet) && !r->state.stop)
        summary_print(USAGE, &r->sum);
    free(files);
    return r->state.status;
}

int cmd_rewrite(int argc, char **argv)
{
    struct rw_run r;
    int status;

    memset(&r, 0, sizeof(r));
    r.o.type = XIRI_DOC_AUTO;
    r.o.presets = "all";
    r.o.dest = D_STDOUT;
    r.sum.rewrite = true;
    xiri_rewrite_options_init(&r.o.ro);
    status = run_rewrite(&r, argc, argv);
    if (r.state.status > status)
        status = r.state.status;
    xiri_registry_free(r.reg);
    xiri_ctx_free(r.ctx);
    free(r.chunk);
    free(r.chunk2);
    free(r.o.schemas);
    free(r.o.attrs);
    free(r.o.inputs.includes);
    free(r.o.inputs.excludes);
    return status;
}

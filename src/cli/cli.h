/* cli.h - what the files of the xiri tool share: the commands, checked
 * output on stdout, messages on stderr, input lines and UTF-8 helpers.
 * The tool uses only the public header xiri.h. */
#ifndef XIRI_CLI_H
#define XIRI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "xiri.h"

/* Exit statuses (documented in xiri(1), EXIT STATUS). */
#define CLI_EXIT_OK 0
/* a finding of severity error, a failed input, or a difference found by
 * compare */
#define CLI_EXIT_FAIL 1
/* a usage, input, output or out-of-memory error */
#define CLI_EXIT_USAGE 2

#define CLI_PROG "xiri"

/* Bytes of a document that check, links and rewrite read and feed at a
 * time: memory does not grow with the document's size.  With the parser
 * thread the walker returns from a feed while the thread parses on
 * (parse_ahead): about 0.5 ms of its work is queued (three jobs), which
 * outlasts reading 128 KiB but not 1 MiB (bench/README.md, twenty-third
 * session). */
#define CLI_READ_SIZE ((size_t)128 * 1024)

/* The commands; each returns an exit status.  argv[0] is the command's
 * own name ("iri", "explain", "check", "links"). */
int cmd_iri(int argc, char **argv);
int cmd_explain(int argc, char **argv);
/* "check" and "links": the document commands (cmd_doc.c) */
int cmd_doc(int argc, char **argv);
/* "rewrite" (cmd_rewrite.c) */
int cmd_rewrite(int argc, char **argv);

/* Run from the build tree (not installed): read schemas from the source
 * tree unless $XIRI_SCHEMA_DIR says otherwise (uninstalled.c). */
void cli_use_source_schemas(void);

/* ---- io.c: output on stdout, checked for write errors ---- */

/* Write to stdout.  After the first failure nothing more is written and
 * out_ok() turns false. */
void out_write(const char *s, size_t n);
void out_puts(const char *s);
void out_putc(char c);
void out_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
bool out_ok(void);
/* Before an item of a list (a SARIF result): write sep unless this is
 * the first item since out_items_reset().  Under -j the choice is made
 * when the item reaches stdout, in the output's order, so a list spread
 * over files processed by several threads is written as -j 1 writes it. */
void out_item(const char *sep);
/* Start a new list; whether the one before had an item. */
bool out_items_reset(void);
/* Hand what was written so far to the system (before a line on stderr
 * that must follow it); whether the output is still fine. */
bool out_sync(void);
/* Flush and close stdout; on a write error print a message and return
 * CLI_EXIT_USAGE, else return status unchanged. */
int out_finish(int status);

/* s[0..n) as a JSON string literal (RFC 8259 7): quotes, backslashes and
 * control characters escaped, other characters kept as UTF-8; bytes that
 * are not UTF-8 become U+FFFD. */
void out_json_string(const char *s, size_t n);

/* text wrapped at width columns; every line but the first is indented
 * by indent spaces (the caller has written the first line's start, which
 * is first_col columns wide).  '\n' in text starts a new paragraph. */
/* s[0..n) with the characters that could disturb a terminal (controls,
 * bidi formatting, invisible ones) written <U+XXXX>, stray bytes \xHH. */
void out_visible(const char *s, size_t n);

void out_wrapped(const char *text, size_t first_col, size_t indent,
                 size_t width);

/* Two lines: an excerpt of s[0..n) around the part s[off..off+len)
 * (at most 40 characters on each side, "..." where cut), indented by 4
 * spaces, then a caret under that part ('^', and '~' under the rest of
 * it).  Invisible and bidi characters are shown as <U+XXXX> and stray
 * bytes as \xHH, so that the columns are right and nothing reorders the
 * line. */
void out_excerpt(const char *s, size_t n, size_t off, size_t len);

/* ---- io.c: capture of a thread's output, for -j (jobs.c) ---- */

/* An anonymous temporary file in $TMPDIR (else /tmp), open for reading
 * and writing: one without a name (O_TMPFILE) where the file system
 * allows, else PREFIX-XXXXXX made by mkstemp and unlinked at once.  -1
 * with errno on failure. */
int io_tmp_anonymous(const char *prefix);

/* ---- io.c: where -o OUT and --write-baseline=FILE go ---- */

/* The directory part of path ("." when there is none), malloc'd. */
char *io_dir_of(const char *path);

enum io_out_kind {
    IO_OUT_REPLACE, /* a regular file (or none yet): a temporary file in
                     * its directory is renamed over path */
    IO_OUT_DIRECT,  /* not a regular file (a device, a pipe), a file of
                     * /dev or /proc, or a link to no file: opened and
                     * written */
    IO_OUT_FD       /* /dev/stdout, /dev/fd/N, /proc/self/fd/N: written
                     * to the open descriptor fd */
};

struct io_out {
    enum io_out_kind kind;
    char *path;    /* malloc'd: what to replace or open (the file a
                    * symbolic link names, never the link) */
    int fd;        /* IO_OUT_FD */
    bool via_link; /* path was reached through symbolic links */
    bool exists;   /* IO_OUT_REPLACE: the file exists (mode is its) */
    unsigned mode; /* its permissions */
};

/* Where OUT goes: a symbolic link is followed (lstat, readlink) and
 * never replaced.  0 and *o (o->path to free), or an errno. */
int io_out_target(const char *path, struct io_out *o);

/* What out_* and msg_* wrote while capturing: segments of stdout (1)
 * and stderr (2) in the order written, each a stream byte, a size_t
 * length and the bytes.  At most `limit` bytes are held in memory; the
 * rest goes to a spill file (io_tmp_anonymous),
 * so memory does not grow with a document's output.  When every entry
 * before it is written, the thread owning the capture is given its turn
 * (`turn`): at its next write it writes what it holds and goes on
 * writing directly. */
struct io_capture {
    char *buf;  /* the latest segments, after those in the spill file */
    size_t len, cap, limit;
    size_t seg;    /* offset in buf of the current segment */
    bool seg_open; /* a write to the same stream extends it */
    int stream;    /* of the current segment */
    int fd;        /* the spill file, or -1 */
    uint64_t spilled;  /* bytes in it (the stream's first bytes) */
    const char *name;  /* whose output this is, for messages ("" none) */
    _Atomic(bool) turn; /* everything before it is written (set once) */
    bool lost;          /* output lost: reported when replayed */
    /* Wait until turn is set (a worker whose capture cannot grow); NULL:
     * it cannot wait (the main thread's), and output is lost then. */
    void (*wait_turn)(void *user);
    void *wait_user;
};

/* Set up an empty capture (limit: bytes held in memory, at least 64). */
void io_capture_init(struct io_capture *c, const char *name, size_t limit,
                     void (*wait_turn)(void *), void *wait_user);
/* From now on this thread's out_* and msg_* go into c (not written);
 * out_ok() still reports a failure of the real stdout. */
void io_capture_begin(struct io_capture *c);
void io_capture_end(void);
/* Its turn: the owner may write directly from its next write on (the
 * caller has written everything before it, and writes nothing until the
 * owner is done with c). */
void io_capture_give_turn(struct io_capture *c);
/* Whether c holds nothing to write. */
bool io_capture_empty(const struct io_capture *c);
/* Write what c holds to stdout and stderr, in order, by the thread that
 * owns the output; a loss (the spill file could not be read, or memory
 * and the spill file both failed) is reported naming c's file, and the
 * exit status becomes 2 (out_finish). */
void io_capture_replay(struct io_capture *c);
void io_capture_free(struct io_capture *c);

/* check, links and rewrite, given a directory without -r */
#define MSG_DIRECTORY                                                          \
    "is a directory; give -r to process the documents under it"

/* ---- jobs.c: -j, files processed by a pool of threads ---- */

/* Processes one file: worker is the user pointer of the thread running
 * it (captured), or main_user for the standard input ("-"), which the
 * main thread reads itself, uncaptured; seq is the file's number,
 * counting the paths given to jobs_submit from 0 (their order in the
 * output). */
typedef void jobs_file_fn(void *user, const char *path, size_t seq);

struct jobs;

/* n threads (n >= 2), thread i passing users[i] to fn.  NULL when out
 * of memory or a thread cannot start. */
struct jobs *jobs_start(unsigned n, jobs_file_fn *fn, void *const *users,
                        void *main_user);
/* Queue path; output of the files done before it in the queue is
 * written meanwhile.  Messages the main thread writes between two calls
 * keep their place among the files' output. */
void jobs_submit(struct jobs *j, const char *path);
/* Wait for every file and write the rest; join and free. */
void jobs_finish(struct jobs *j);
/* --jobs, a row of the opt_def tables of check, links and rewrite (-j
 * is a short option each command handles). */
enum { OPT_JOBS = 1300 };
#define OPT_JOBS_DEF(cmds) {"jobs", OPT_JOBS, OPT_VALUE, NULL, (cmds)}
#define JOBS_HELP                                                              \
    "  -j N, --jobs=N        process N files at a time, in threads (default:\n"\
    "                        the number of CPUs); the output is the same as\n" \
    "                        with -j 1\n"
/* -j N, --jobs=N: the number of threads, or 0 and a usage error message
 * (*status CLI_EXIT_USAGE).  NULL or "": the number of online CPUs. */
unsigned jobs_parse(const char *usage, const char *value, int *status);
/* --parse-thread=WHEN (check, links, rewrite): libxml2 on a thread of
 * its own (struct xiri_walk_options.parse_thread). */
enum { OPT_PARSE_THREAD = 1301 };
#define OPT_PARSE_THREAD_DEF(cmds)                                           \
    {                                                                        \
        "parse-thread", OPT_PARSE_THREAD, OPT_VALUE, kw_parse_thread, (cmds) \
    }
#define PARSE_THREAD_HELP                                                     \
    "  --parse-thread=WHEN   parse the document on a second CPU while the\n"  \
    "                        links are checked on the first: auto (the\n"     \
    "                        default: when one file is named and there are\n" \
    "                        two CPUs), always or never; the output is the\n" \
    "                        same either way\n"
enum parse_thread {
    PARSE_THREAD_AUTO,
    PARSE_THREAD_ALWAYS,
    PARSE_THREAD_NEVER
};
/* Whether a run of the files named (nfiles of them; a directory or a
 * --files-from list stands for many: many) uses it. */
bool parse_thread_wanted(enum parse_thread when, const char *const *files,
                         size_t nfiles, bool many);

/* ---- progress.c: the progress bar on a terminal ---- */

/* Start one (quiet: never); shown only when stderr is a terminal, after
 * the run has lasted a second ($XIRI_PROGRESS_DELAY_MS). */
void progress_start(bool quiet);
/* A file has been found (total) / is done (bytes: its size). */
void progress_found(void);
void progress_done(const char *path);
/* Erase the line before other output on stderr (redrawn after the next
 * file). */
void progress_clear(void);
/* The last state, and a new line, when shown. */
void progress_end(void);

/* ---- io.c: messages on stderr ---- */

/* "xiri: " + message + newline. */
void msg_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Write s[0..n) to stderr in single quotes with control characters,
 * bidi formatting characters and bytes that are not UTF-8 made visible
 * (\n, \xHH, <U+202E>), so that a message can never reorder or corrupt
 * the terminal. */
void msg_quoted(const char *s, size_t n);
void msg_text(const char *s);
/* "xiri: WHERE: TEXT" + newline, with the characters of TEXT that could
 * disturb a terminal made visible (<U+202E>, \xHH). */
void msg_about(const char *where, const char *text);
/* A usage error: "xiri: WHAT; see 'HELP --help'" and CLI_EXIT_USAGE.
 * what is printed as is; help is e.g. "xiri iri check". */
int usage_error(const char *help, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- io.c: UTF-8 ---- */

/* Decode one strictly valid UTF-8 sequence (RFC 3629 4: no overlong
 * forms, no surrogates, nothing above U+10FFFF) at s[0..n); return its
 * length, or 0 when s does not start with one. */
size_t utf8_next(const char *s, size_t n, uint32_t *cp);
/* The length of the longest valid UTF-8 prefix of s[0..n): n when all
 * of s is UTF-8. */
size_t utf8_valid_prefix(const char *s, size_t n);

/* True for characters that must not reach a terminal raw: C0 and C1
 * controls, DEL, bidi formatting characters, invisible and space-like
 * characters other than U+0020. */
bool cp_is_hidden(uint32_t cp);
/* Columns a visible character takes on a terminal: 0 for combining
 * marks, 2 for East Asian wide and full-width forms, else 1. */
size_t cp_columns(uint32_t cp);

/* ---- io.c: input lines ---- */

struct lines {
    FILE *fp;
    char *buf;
    size_t cap;
    size_t no; /* number of the last line read, from 1 */
};

void lines_init(struct lines *l, FILE *fp);
/* Read the next line into *s (NUL-terminated, owned by l) without its
 * "\n" or "\r\n"; a last line without a newline counts.  Returns 1 for a
 * line, 0 at the end, -1 on a read error (errno set). */
int lines_next(struct lines *l, char **s, size_t *len);
void lines_free(struct lines *l);

/* ---- option parsing, shared by the commands ---- */

/* One step over argv: returns the next argument in *arg; when it is an
 * option "--name" or "--name=value" (before "--"), *name points at the
 * name without dashes (*name_len long) and *value at the text after '='
 * or NULL.  Returns false at the end. */
struct argscan {
    int argc;
    char **argv;
    int i;
    bool operands_only; /* after "--" */
};

void argscan_init(struct argscan *a, int argc, char **argv);
/* kind: 0 operand, 1 long option, 2 short option "-x" */
bool argscan_next(struct argscan *a, int *kind, const char **arg,
                  const char **name, size_t *name_len, const char **value);
/* The argument after the current option (for "--name VALUE"); NULL when
 * there is none. */
const char *argscan_take(struct argscan *a);

/* ---- options.c: the outcome of a run, and the option tables ---- */

/* The outcome of a run of a command so far. */
struct cli_state {
    int status; /* the worst exit status so far */
    bool stop;  /* out of memory or output failed: stop everything */
};

/* Raise s->status to status (never lower it). */
void cli_set_status(struct cli_state *s, int status);
/* "xiri: out of memory" (once), exit status CLI_EXIT_USAGE, and stop. */
void cli_out_of_memory(struct cli_state *s);

/* A keyword value of an option: name and what it stands for; a table
 * ends with a NULL name. */
struct opt_keyword {
    const char *name;
    int value;
};
/* --parse-thread's keywords (jobs.c; opt_long reads the value) */
extern const struct opt_keyword kw_parse_thread[];

/* Look value up in kw: 0 with *out set, or a usage error naming the
 * option and the keywords (CLI_EXIT_USAGE). */
int opt_parse_keyword(const char *usage, const char *opt,
                      const struct opt_keyword *kw, const char *value,
                      int *out);

enum opt_arg {
    OPT_FLAG,    /* "--name" only */
    OPT_VALUE,   /* "--name=VALUE" or "--name VALUE" */
    OPT_OPTIONAL /* "--name" or "--name=VALUE" */
};

/* One long option of a command.  A name may have several rows for
 * different commands (--format takes other keywords in check and in
 * links). */
struct opt_def {
    const char *name; /* without the dashes */
    int id;           /* the command's own number for it */
    enum opt_arg arg;
    const struct opt_keyword *values; /* the keywords it takes; NULL: any */
    unsigned cmds; /* the commands (bits of opt_table.cmd) that take it;
                    * 0: all */
};

struct opt_table {
    const char *usage; /* "xiri check": "see 'xiri check --help'" */
    const struct opt_def *defs;
    size_t n;
    unsigned cmd; /* the bit of the command being run */
};

/* "xiri: unknown option 'ARG'" (len bytes of arg) "; see 'USAGE --help'"
 * and CLI_EXIT_USAGE. */
int opt_unknown(const char *usage, const char *arg, size_t len);

/* Look up the long option argscan_next gave (arg, name, name_len and
 * *value, the text after '=' or NULL) in t: 0 with *def set, *value the
 * option's value (taken from the next argument when it needs one and
 * had no '='; NULL for a flag, or an optional value not given) and *kw
 * the keyword's value; or, after a message (unknown option, option of
 * another command, value given to a flag, value missing, unknown
 * keyword), CLI_EXIT_USAGE. */
int opt_long(const struct opt_table *t, struct argscan *as, const char *arg,
             const char *name, size_t name_len, const char **value,
             const struct opt_def **def, int *kw);

/* The limits of the document walker (xiri(1), LIMITS): options of check,
 * links and rewrite, with the same names, ids and meaning in each. */
enum {
    OPT_MAX_VALUE = 1000,
    OPT_MAX_MARKUP,
    OPT_MAX_DEPTH,
    OPT_MAX_ATTRIBUTES,
    OPT_MAX_NAMESPACES,
    OPT_MAX_DEFAULT_ATTRIBUTES,
    OPT_MAX_ENTITY_EXPANSION
};

/* Their rows in an opt_def table, for the commands cmds. */
#define OPT_LIMIT_DEFS(cmds)                                              \
    {"max-value", OPT_MAX_VALUE, OPT_VALUE, NULL, (cmds)},                \
    {"max-markup", OPT_MAX_MARKUP, OPT_VALUE, NULL, (cmds)},              \
    {"max-depth", OPT_MAX_DEPTH, OPT_VALUE, NULL, (cmds)},                \
    {"max-attributes", OPT_MAX_ATTRIBUTES, OPT_VALUE, NULL, (cmds)},      \
    {"max-namespaces", OPT_MAX_NAMESPACES, OPT_VALUE, NULL, (cmds)},      \
    {"max-default-attributes", OPT_MAX_DEFAULT_ATTRIBUTES, OPT_VALUE,     \
     NULL, (cmds)},                                                       \
    {"max-entity-expansion", OPT_MAX_ENTITY_EXPANSION, OPT_VALUE, NULL,   \
     (cmds)}

/* Their lines in --help; what: "checked", "rewritten". */
#define OPT_LIMITS_HELP(what)                                                  \
    "  --max-value=BYTES     longest value " what " (default 1M); sizes\n"     \
    "                        take a K, M or G suffix\n"                         \
    "  --max-markup=BYTES    longest construct held at once: a start tag,\n"  \
    "                        a comment, a run of text in HTML (default 16M)\n"\
    "  --max-depth=N         deepest element nesting (default 512)\n"         \
    "  --max-attributes=N    most attributes on one start tag (default\n"     \
    "                        1000)\n"                                           \
    "  --max-namespaces=N    most namespace declarations in scope (default\n" \
    "                        1000)\n"                                           \
    "  --max-default-attributes=N  most attributes with a default value a\n"  \
    "                        DTD declares for one element (default 100)\n"    \
    "  --max-entity-expansion=BYTES  most bytes of entity replacement text\n"\
    "                        read in one document (default 64M); past a\n"   \
    "                        limit a file fails (xiri(1), LIMITS)\n"

/* True for the rows of OPT_LIMIT_DEFS. */
bool opt_is_limit(const struct opt_def *d);
/* Set the field of limits that d names from value: 0, or a usage error
 * (not a positive number, too big) and CLI_EXIT_USAGE. */
int opt_limit(const char *usage, const struct opt_def *d, const char *value,
              struct xiri_walk_options *limits);
/* The limits that were given (non-zero fields of limits) into wo. */
void opt_limits_apply(const struct xiri_walk_options *limits,
                      struct xiri_walk_options *wo);

/* ---- doc_common.c: shared by check, links and rewrite ---- */

/* Print the presets with their descriptions (--presets=list). */
void doc_presets_list(void);
/* Make *out from the comma-separated presets, the schemas and the
 * --attr specs; 0, or an exit status after a message.  *out is set even
 * on failure (free it with xiri_registry_free).  quiet: no warning of a
 * remote schema not read (--quiet). */
int doc_registry_setup(const char *usage, const char *presets,
                       const char *const *schemas, size_t nschemas,
                       const char *const *attrs, size_t nattrs, bool quiet,
                       struct xiri_registry **out);
/* path[0..n) into out (room for 3 bytes per byte), each byte but '/' and
 * the pchars of RFC 3986 3.3 written %HH; colon_too escapes ':' too. */
size_t doc_pct_path(char *out, const char *path, size_t n, bool colon_too);
/* The file: URI (RFC 8089) of a path, malloc'd; NULL with errno set. */
char *doc_file_uri(const char *path);
/* 0 when base is an absolute IRI in UTF-8, else a usage error. */
int doc_check_base(const char *usage, const char *base);

/* Which files to process besides the operands (-r, --include,
 * --exclude, --files-from, -0). */
struct doc_inputs {
    bool recursive;          /* -r: a directory stands for files under it */
    bool null_sep;           /* -0: --files-from names end with NUL */
    const char **includes;   /* --include globs (default: document
                              * extensions) */
    size_t nincludes;
    const char **excludes;   /* --exclude globs, of files and directories */
    size_t nexcludes;
    const char *files_from;  /* --files-from FILE, "-" the standard input */
};

/* Their options, rows of an opt_def table like OPT_LIMIT_DEFS (-r and -0
 * are short options each command handles). */
enum {
    OPT_RECURSIVE = 1100,
    OPT_INCLUDE,
    OPT_EXCLUDE,
    OPT_FILES_FROM,
    OPT_NULL
};
#define OPT_INPUT_DEFS(cmds)                                              \
    {"recursive", OPT_RECURSIVE, OPT_FLAG, NULL, (cmds)},                 \
    {"include", OPT_INCLUDE, OPT_VALUE, NULL, (cmds)},                    \
    {"exclude", OPT_EXCLUDE, OPT_VALUE, NULL, (cmds)},                    \
    {"files-from", OPT_FILES_FROM, OPT_VALUE, NULL, (cmds)},              \
    {"null", OPT_NULL, OPT_FLAG, NULL, (cmds)}

/* Their lines in --help. */
#define DOC_INPUTS_HELP                                                        \
    "  -r, --recursive       a FILE that is a directory stands for the\n"     \
    "                        documents under it, in the byte order of their\n"\
    "                        names, depth first (symbolic links to\n"         \
    "                        directories are not followed)\n"                 \
    "  --include=GLOB        with -r, take the files whose name matches GLOB\n"\
    "                        (repeatable; default: the extensions of XML and\n"\
    "                        HTML documents, such as .html, .xhtml, .xml,\n"  \
    "                        .svg, .atom, .rss)\n"                             \
    "  --exclude=GLOB        with -r, skip the files and directories whose\n"  \
    "                        name matches GLOB (repeatable)\n"                 \
    "  --files-from=LIST     also process the files named in LIST, one per\n" \
    "                        line ('-': the standard input)\n"                \
    "  -0, --null            the names in LIST end with NUL, not newline\n"

/* Apply the option d of OPT_INPUT_DEFS (the globs are kept in the arrays
 * in, sized by the caller for every argument). */
void doc_inputs_opt(struct doc_inputs *in, const struct opt_def *d,
                    const char *value);
/* True for the rows of OPT_INPUT_DEFS. */
bool doc_is_inputs_opt(const struct opt_def *d);

typedef void doc_file_fn(void *user, const char *path);
typedef bool doc_stop_fn(void *user);

/* 0, or a usage error: -0 without --files-from, --include or --exclude
 * without -r, no file at all, stdin given twice. */
int doc_inputs_check(const char *usage, const struct doc_inputs *in,
                     const char *const *ops, size_t nops);
/* Call fn for each file to process, in order: the operands as given,
 * each directory among them (with -r) replaced by the files under it
 * that --include takes and --exclude does not, by their names' byte
 * order, depth first; then the names of --files-from, the same way.
 * Stops early when stop(user).  Returns 0, or CLI_EXIT_USAGE when a
 * directory or the list could not be read (said on stderr; the rest is
 * still processed). */
int doc_inputs_each(const char *usage, const struct doc_inputs *in,
                    const char *const *ops, size_t nops, doc_file_fn *fn,
                    doc_stop_fn *stop, void *user);

/* ---- baseline.c: check --baseline and --write-baseline ---- */

/* Accepted findings, keyed by file, code and value (xiri(1), BASELINE
 * FILES). */
struct baseline;

/* Read the baseline file path: 0 with *out set, or CLI_EXIT_USAGE after
 * a message (cannot open, not a baseline, FILE:LINE: malformed line). */
int baseline_read(const char *path, struct baseline **out);
/* An empty baseline, to record findings in; NULL when out of memory. */
struct baseline *baseline_new(void);
/* Record one finding (value NULL: none); 0, or -1 when out of memory. */
int baseline_add(struct baseline *b, const char *file, const char *code,
                 const char *value, size_t value_len);
/* 1 when b holds the finding with a count left (which it takes), 0 when
 * not, -1 when out of memory. */
int baseline_take(struct baseline *b, const char *file, const char *code,
                  const char *value, size_t value_len);
/* Write b, sorted, to path atomically (a temporary file renamed over
 * it): 0, or CLI_EXIT_USAGE after a message. */
int baseline_write(struct baseline *b, const char *path);
void baseline_free(struct baseline *b);

/* ---- summary.c: the line ending a run of check, links or rewrite ---- */

struct run_summary {
    size_t files;    /* files processed (tried) */
    size_t links;    /* IRIs seen */
    size_t errors;   /* findings reported, by severity */
    size_t warnings;
    size_t changed;  /* rewrite: values changed (in files written) */
    size_t changed_before; /* changed when the current file began */
    size_t absorbed; /* check: findings --baseline absorbed */
    bool rewrite;    /* print changed */
};

/* Add what a worker of -j counted to the run's summary. */
void summary_add(struct run_summary *to, const struct run_summary *from);
/* Count a finding of severity sev. */
void summary_count(struct run_summary *s, enum xiri_severity sev);
/* "USAGE: N files, N links[, N changed], N errors, N warnings[, N
 * findings in the baseline]" on stderr (usage: "xiri check"). */
void summary_print(const char *usage, const struct run_summary *s);
/* Around one file's work: count the file, and count it as one error
 * when it failed (st's status became CLI_EXIT_USAGE); st's status is the
 * worst of both at the end.  before: what summary_file_begin returned. */
int summary_file_begin(struct run_summary *s, struct cli_state *st);
void summary_file_end(struct run_summary *s, struct cli_state *st,
                      int before);
/* Whether to print it: always, except with --quiet. */
bool summary_wanted(const struct run_summary *s, bool quiet);

/* ---- codefilter.c: --ignore, and unknown codes ---- */

/* The help of --fail-on and --ignore, which both checks take. */
#define CODE_FILTER_HELP                                                    \
    "  --fail-on=LEVEL       exit with status 1 on a finding of LEVEL or\n" \
    "                        above: error (default), warning or note\n"     \
    "                        (whatever --min-severity prints)\n"            \
    "  --ignore=CODES        leave out the findings of these codes,\n"      \
    "                        comma-separated (repeatable): not printed,\n"  \
    "                        not counted ('xiri explain' lists the codes)\n"

/* The --ignore values given, each a comma-separated list of codes. */
struct code_filter {
    const char **lists; /* room for one per argument */
    size_t n;
};

/* Take an --ignore value: 0, or CLI_EXIT_USAGE with a message naming
 * the first item that is not a code of the catalogue (xiri explain). */
int code_filter_add(struct code_filter *f, const char *value);
/* Whether code is among the codes to leave out. */
bool code_filter_has(const struct code_filter *f, const char *code);
/* "xiri: WHAT unknown code 'CODE' (did you mean ...?); run 'xiri
 * explain' to list all codes" on stderr; the suggestions are the codes
 * that contain code[0..n). */
void msg_unknown_code(const char *what, const char *code, size_t n);

#endif

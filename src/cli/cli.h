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

/* The commands; each returns an exit status.  argv[0] is the command's
 * own name ("iri", "explain", "check", "links"). */
int cmd_iri(int argc, char **argv);
int cmd_explain(int argc, char **argv);
/* "check" and "links": the document commands (cmd_doc.c) */
int cmd_doc(int argc, char **argv);
/* "rewrite" (cmd_rewrite.c) */
int cmd_rewrite(int argc, char **argv);

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

/* ---- doc_common.c: shared by check, links and rewrite ---- */

/* A keyword value of an option: name and what it stands for; a table
 * ends with a NULL name. */
struct doc_keyword {
    const char *name;
    int value;
};

/* Look value up in kw: 0 with *out set, or a usage error naming the
 * option and the keywords (CLI_EXIT_USAGE). */
int doc_parse_keyword(const char *usage, const char *opt,
                      const struct doc_keyword *kw, const char *value,
                      int *out);
/* Print the presets with their descriptions (--presets=list). */
void doc_presets_list(void);
/* Make *out from the comma-separated presets, the schemas and the
 * --attr specs; 0, or an exit status after a message.  *out is set even
 * on failure (free it with xiri_registry_free). */
int doc_registry_setup(const char *usage, const char *presets,
                       const char *const *schemas, size_t nschemas,
                       const char *const *attrs, size_t nattrs,
                       struct xiri_registry **out);
/* path[0..n) into out (room for 3 bytes per byte), each byte but '/' and
 * the pchars of RFC 3986 3.3 written %HH; colon_too escapes ':' too. */
size_t doc_pct_path(char *out, const char *path, size_t n, bool colon_too);
/* The file: URI (RFC 8089) of a path, malloc'd; NULL with errno set. */
char *doc_file_uri(const char *path);
/* 0 when base is an absolute IRI in UTF-8, else a usage error. */
int doc_check_base(const char *usage, const char *base);

#endif

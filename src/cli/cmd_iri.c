/* cmd_iri.c - "xiri iri check|resolve|to-uri|to-iri|normalize|compare|
 * display": options, operands or standard-input lines, one result per
 * input, text or JSON output. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum iri_cmd {
    IC_CHECK,
    IC_RESOLVE,
    IC_TO_URI,
    IC_TO_IRI,
    IC_NORMALIZE,
    IC_COMPARE,
    IC_DISPLAY,
    IC_COUNT
};

#define BIT(c) (1u << (c))
#define ALL_CMDS (BIT(IC_COUNT) - 1u)

/* ---------------------------------------------------------------- help */

static const char iri_help_text[] =
    "Usage: xiri iri COMMAND [OPTIONS] [OPERANDS]\n"
    "\n"
    "Commands:\n"
    "  check      report the problems in IRI references\n"
    "  resolve    resolve references against a base (RFC 3986 5.2)\n"
    "  to-uri     map IRIs to URIs (RFC 3987 3.1)\n"
    "  to-iri     map URIs to IRIs (RFC 3987 3.2)\n"
    "  normalize  normalize references (RFC 3986 6, RFC 3987 5.3)\n"
    "  compare    tell whether two references are equivalent\n"
    "  display    wrap IRIs for display (RFC 3987 4.1)\n"
    "\n"
    "Each command works on its operands or, when there are none, on each\n"
    "line of the standard input (a trailing CR is removed; a line that is\n"
    "not UTF-8 fails).  It prints one line per input, in order; an input\n"
    "that fails prints an empty line, and a message naming the argument\n"
    "or line goes to standard error.  'check' prints findings instead.\n"
    "Put '--' before an operand that starts with '-'.\n"
    "\n"
    "Run 'xiri iri COMMAND --help' for the options of a command.\n";

static const char help_check[] =
    "Usage: xiri iri check [OPTIONS] [IRI...]\n"
    "\n"
    "Report the problems in each IRI reference: grammar errors under the\n"
    "profile, bidi and normalization problems, characters that are not\n"
    "what they seem, escapes that are not UTF-8, IDNA failures, and notes\n"
    "on spellings that are not canonical.  With no IRI, check each line of\n"
    "the standard input.  Each finding is printed as\n"
    "    WHERE:OFFSET: SEVERITY: MESSAGE [CODE]\n"
    "followed by the reference with a caret under the offending part.\n"
    "WHERE is '<arg N>' for the N-th operand or '<stdin>:N' for line N;\n"
    "OFFSET is a byte offset counted from 0.  A reference without findings\n"
    "prints nothing.  'xiri explain CODE' tells more about a code.\n"
    "\n"
    "Options:\n"
    "  --profile=NAME        rfc3987 (default), uri, leiri or html; xml is\n"
    "                        leiri, ascii is uri (xiri(1), PROFILES)\n"
    "  --min-severity=LEVEL  print only findings of LEVEL or above: note\n"
    "                        (default), warning or error\n" CODE_FILTER_HELP
    "  --format=FORMAT       text (default) or json: one object per finding\n"
    "                        with the keys input, offset, length, severity,\n"
    "                        code, part, codepoint, section, message\n"
    "  -h, --help            print this help\n"
    "\n"
    "Exit status: 0 no finding of severity error (--fail-on: of LEVEL or\n"
    "above); 1 such a finding, or an input that is not UTF-8; 2 a usage,\n"
    "input or output error.\n";

static const char help_resolve[] =
    "Usage: xiri iri resolve [OPTIONS] BASE REF...\n"
    "       xiri iri resolve [OPTIONS] BASE < REFS\n"
    "       xiri iri resolve [OPTIONS] < BASE-TAB-REF-LINES\n"
    "\n"
    "Resolve each reference REF against the absolute IRI BASE (RFC 3986\n"
    "5.2, strict; RFC 3987 6.5) and print the result, one line per REF.\n"
    "With BASE alone, read one REF per line of the standard input; with\n"
    "no operands, read lines of the form BASE<TAB>REF.  When the result\n"
    "would have no authority and a path starting with \"//\", the path is\n"
    "written \"/.//\" so that it reads back the same.\n"
    "\n"
    "Options:\n"
    "  --profile=NAME   rfc3987 (default), uri, leiri or html: the syntax\n"
    "                   BASE and REF must follow; xml is leiri, ascii is\n"
    "                   uri (xiri(1), PROFILES)\n"
    "  --format=FORMAT  text (default) or json: one object per line,\n"
    "                   {\"base\":..., \"input\":..., \"output\":...} or\n"
    "                   {\"base\":..., \"input\":..., \"error\":...}\n"
    "  -h, --help       print this help\n"
    "\n"
    "Exit status: 0 every reference resolved; 1 one failed; 2 a usage,\n"
    "input or output error.\n";

static const char help_to_uri[] =
    "Usage: xiri iri to-uri [OPTIONS] [IRI...]\n"
    "\n"
    "Map each IRI to a URI (RFC 3987 3.1): every character outside\n"
    "US-ASCII becomes the %HH escapes of its UTF-8 octets, in upper-case\n"
    "hex; everything else, existing escapes included, is kept, so a URI\n"
    "maps to itself.  With no IRI, map each line of the standard input.\n"
    "\n"
    "Options:\n"
    "  --idn=MODE       how to map a host name with non-ASCII characters:\n"
    "                   percent (default): %HH like the rest, the basic\n"
    "                   mapping of RFC 3987 3.1; punycode: IDNA ToASCII\n"
    "                   (UTS #46, non-transitional, with the Bidi, Joiner\n"
    "                   and STD3 rules) of every such reg-name, and of the\n"
    "                   domains of mailto addresses; a host IDNA rejects\n"
    "                   makes the input fail; unicode: same as punycode\n"
    "  --escape-leiri   escape space, < > \" { } | \\ ^ ` and control\n"
    "                   characters (allowed in LEIRIs, e.g. XML system\n"
    "                   identifiers) instead of failing on them\n"
    "  --format=FORMAT  text (default) or json: one object per line,\n"
    "                   {\"input\":..., \"output\":...} or\n"
    "                   {\"input\":..., \"error\":...}\n"
    "  -h, --help       print this help\n"
    "\n"
    "Exit status: 0 every input mapped; 1 one failed; 2 a usage, input or\n"
    "output error.\n";

static const char help_to_iri[] =
    "Usage: xiri iri to-iri [OPTIONS] [URI...]\n"
    "\n"
    "Map each URI to an IRI (RFC 3987 3.2): decode the %HH escapes that\n"
    "form UTF-8 for characters an IRI allows at their place; keep %25,\n"
    "%2E, escapes of reserved and ASCII characters that URIs forbid,\n"
    "escapes that are not strictly UTF-8 (such as Latin-1 %E9 or overlong\n"
    "%C0%AF), and escapes of characters that would not be seen (bidi\n"
    "formatting, white space, default-ignorable, unassigned), would pass\n"
    "for a delimiter (U+2215 for '/'), are ASCII in NFC, or would join the\n"
    "syntax before them (a combining mark after '='); a component with\n"
    "right-to-left characters only when it is then well-formed for bidi\n"
    "(RFC 3987 4.2); the host of an http(s), ftp or ws(s) URI and a mailto\n"
    "domain only when IDNA takes them back (else nothing of the value).\n"
    "Kept escapes get upper-case hex.  With no URI, map each line of the\n"
    "standard input.\n"
    "\n"
    "Options:\n"
    "  --idn=MODE       percent (default) or punycode: keep xn-- labels;\n"
    "                   unicode: turn the xn-- labels of those hosts into\n"
    "                   Unicode (IDNA ToUnicode) when that is error-free\n"
    "  --format=FORMAT  text (default) or json: one object per line,\n"
    "                   {\"input\":..., \"output\":...} or\n"
    "                   {\"input\":..., \"error\":...}\n"
    "  -h, --help       print this help\n"
    "\n"
    "Exit status: 0 every input mapped; 1 one failed; 2 a usage, input or\n"
    "output error.\n";

static const char help_normalize[] =
    "Usage: xiri iri normalize [OPTIONS] [IRI...]\n"
    "\n"
    "Normalize each reference to a rung of the comparison ladder of\n"
    "RFC 3987 5.3 (RFC 3986 6.2) and print it.  With no IRI, normalize\n"
    "each line of the standard input.\n"
    "\n"
    "Options:\n"
    "  --profile=NAME   rfc3987 (default), uri, leiri or html; xml is\n"
    "                   leiri, ascii is uri (xiri(1), PROFILES)\n"
    "  --rung=RUNG      simple: the text as it is (5.3.1); syntax (default):\n"
    "                   lower-case scheme and host, upper-case %HH, decode\n"
    "                   the escapes of unreserved characters and of UTF-8\n"
    "                   for ucschar, remove dot segments (5.3.2); scheme:\n"
    "                   syntax, and drop default ports and write an empty\n"
    "                   path as \"/\" for http, https, ws, wss, ftp and file\n"
    "                   (5.3.3)\n"
    "  --nfc            also normalize the text to NFC (5.3.2.2); without\n"
    "                   it, text that is not NFC is kept ('xiri iri check'\n"
    "                   reports it)\n"
    "  --format=FORMAT  text (default) or json: one object per line,\n"
    "                   {\"input\":..., \"output\":...} or\n"
    "                   {\"input\":..., \"error\":...}\n"
    "  -h, --help       print this help\n"
    "\n"
    "Exit status: 0 every input normalized; 1 one failed; 2 a usage,\n"
    "input or output error.\n";

static const char help_compare[] =
    "Usage: xiri iri compare [OPTIONS] A B\n"
    "       xiri iri compare [OPTIONS] < A-TAB-B-LINES\n"
    "\n"
    "Print 'equal' when the references A and B are equivalent at the rung\n"
    "(RFC 3987 5.3), else 'different'.  With no operands, compare the two\n"
    "references of each line of the standard input, written A<TAB>B.\n"
    "\n"
    "Options:\n"
    "  --profile=NAME   rfc3987 (default), uri, leiri or html; xml is\n"
    "                   leiri, ascii is uri (xiri(1), PROFILES)\n"
    "  --rung=RUNG      simple, syntax (default) or scheme; see\n"
    "                   'xiri iri normalize --help'\n"
    "  --nfc            also compare the NFC forms (5.3.2.2)\n"
    "  --format=FORMAT  text (default) or json: one object per line,\n"
    "                   {\"a\":..., \"b\":..., \"output\":\"equal\"} or\n"
    "                   {\"a\":..., \"b\":..., \"error\":...}\n"
    "  -h, --help       print this help\n"
    "\n"
    "Exit status: 0 every pair equal; 1 a pair different or a line that\n"
    "failed; 2 a usage, input or output error.\n";

static const char help_display[] =
    "Usage: xiri iri display [OPTIONS] [IRI...]\n"
    "\n"
    "Print each IRI wrapped for display in a left-to-right context\n"
    "(RFC 3987 4.1), so that right-to-left text in it does not reorder its\n"
    "components.  The output holds invisible bidi formatting characters:\n"
    "show it to people, never store, compare or resolve it.  With no IRI,\n"
    "wrap each line of the standard input.\n"
    "\n"
    "Options:\n"
    "  --mode=MODE      lre (default): LRE before and PDF after the IRI\n"
    "                   (RFC 3987 4.1); lrm-component: LRM before and after\n"
    "                   each component holding right-to-left text;\n"
    "                   lrm-reserved: LRE ... PDF, and LRM before and\n"
    "                   after each reserved character\n"
    "  --format=FORMAT  text (default) or json: one object per line,\n"
    "                   {\"input\":..., \"output\":...} or\n"
    "                   {\"input\":..., \"error\":...}\n"
    "  -h, --help       print this help\n"
    "\n"
    "Exit status: 0 every input wrapped; 1 one failed; 2 a usage, input or\n"
    "output error.\n";

struct cmd_def {
    const char *name;
    enum iri_cmd id;
    const char *help;
    const char *usage; /* "xiri iri NAME", for "see '... --help'" */
};

static const struct cmd_def cmds[IC_COUNT] = {
    {"check", IC_CHECK, help_check, "xiri iri check"},
    {"resolve", IC_RESOLVE, help_resolve, "xiri iri resolve"},
    {"to-uri", IC_TO_URI, help_to_uri, "xiri iri to-uri"},
    {"to-iri", IC_TO_IRI, help_to_iri, "xiri iri to-iri"},
    {"normalize", IC_NORMALIZE, help_normalize, "xiri iri normalize"},
    {"compare", IC_COMPARE, help_compare, "xiri iri compare"},
    {"display", IC_DISPLAY, help_display, "xiri iri display"},
};

/* ------------------------------------------------------------- options */

enum opt_id {
    O_HELP,
    O_PROFILE,
    O_FORMAT,
    O_IDN,
    O_ESCAPE_LEIRI,
    O_RUNG,
    O_NFC,
    O_MODE,
    O_MIN_SEVERITY,
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
static const struct opt_keyword kw_format[] = {
    {"text", 0},
    {"json", 1},
    {NULL, 0},
};
static const struct opt_keyword kw_idn[] = {
    {"percent", XIRI_IDN_PERCENT},
    {"punycode", XIRI_IDN_PUNYCODE},
    {"unicode", XIRI_IDN_UNICODE},
    {NULL, 0},
};
static const struct opt_keyword kw_rung[] = {
    {"simple", XIRI_RUNG_SIMPLE},
    {"syntax", XIRI_RUNG_SYNTAX},
    {"scheme", XIRI_RUNG_SCHEME},
    {NULL, 0},
};
static const struct opt_keyword kw_mode[] = {
    {"lre", XIRI_DISPLAY_LRE},
    {"lrm-component", XIRI_DISPLAY_LRM_COMPONENT},
    {"lrm-reserved", XIRI_DISPLAY_LRM_RESERVED},
    {NULL, 0},
};
static const struct opt_keyword kw_severity[] = {
    {"note", XIRI_SEV_NOTE},
    {"warning", XIRI_SEV_WARNING},
    {"error", XIRI_SEV_ERROR},
    {NULL, 0},
};

static const struct opt_def opt_defs[] = {
    {"help", O_HELP, OPT_FLAG, NULL, ALL_CMDS},
    {"profile", O_PROFILE, OPT_VALUE, kw_profile,
     BIT(IC_CHECK) | BIT(IC_RESOLVE) | BIT(IC_NORMALIZE) | BIT(IC_COMPARE)},
    {"format", O_FORMAT, OPT_VALUE, kw_format, ALL_CMDS},
    {"idn", O_IDN, OPT_VALUE, kw_idn, BIT(IC_TO_URI) | BIT(IC_TO_IRI)},
    {"escape-leiri", O_ESCAPE_LEIRI, OPT_FLAG, NULL, BIT(IC_TO_URI)},
    {"rung", O_RUNG, OPT_VALUE, kw_rung, BIT(IC_NORMALIZE) | BIT(IC_COMPARE)},
    {"nfc", O_NFC, OPT_FLAG, NULL, BIT(IC_NORMALIZE) | BIT(IC_COMPARE)},
    {"mode", O_MODE, OPT_VALUE, kw_mode, BIT(IC_DISPLAY)},
    {"min-severity", O_MIN_SEVERITY, OPT_VALUE, kw_severity, BIT(IC_CHECK)},
    {"fail-on", O_FAIL_ON, OPT_VALUE, kw_severity, BIT(IC_CHECK)},
    {"ignore", O_IGNORE, OPT_VALUE, NULL, BIT(IC_CHECK)},
};

struct opts {
    enum xiri_profile profile;
    bool json;
    enum xiri_idn idn;
    unsigned map_flags;
    enum xiri_rung rung;
    unsigned norm_flags;
    enum xiri_display mode;
    enum xiri_severity min_severity;
    enum xiri_severity fail_on; /* --fail-on: exit 1 from this severity */
    struct code_filter ignore;  /* --ignore */
};

/* The state of one run of a command. */
struct run {
    const struct cmd_def *cmd;
    struct opts o;
    struct xiri_ctx *ctx;
    const char *base; /* resolve BASE given alone: the base of each line */
    struct cli_state state; /* worst exit status; stop: a fatal error */
};

/* One input: an operand, or a line of the standard input. */
struct item {
    bool line;      /* from the standard input */
    size_t no;      /* its line number, or operand number (from 1) */
    bool utf8;      /* all of it is UTF-8 */
    const char *in; /* the reference (REF for resolve, A for compare) */
    size_t in_len;
    const char *other; /* BASE for resolve, B for compare, else NULL */
    size_t other_len;
};

static void opts_default(struct opts *o)
{
    o->profile = XIRI_PROFILE_RFC3987;
    o->json = false;
    /* to-uri: the basic mapping of RFC 3987 3.1 step 2, %HH for every
     * non-ASCII character, hosts included; IDNA only when asked. */
    o->idn = XIRI_IDN_PERCENT;
    o->map_flags = 0;
    o->rung = XIRI_RUNG_SYNTAX;
    o->norm_flags = 0;
    o->mode = XIRI_DISPLAY_LRE;
    o->min_severity = XIRI_SEV_NOTE;
    o->fail_on = XIRI_SEV_ERROR;
}

/* Apply one option; returns 0, CLI_EXIT_USAGE, or -1 for --help. */
static int apply_opt(struct run *r, struct argscan *as, const char *arg,
                     int kind, const char *name, size_t name_len,
                     const char *value)
{
    const struct opt_table table = {r->cmd->usage, opt_defs,
                                     sizeof(opt_defs) / sizeof(opt_defs[0]),
                                     BIT(r->cmd->id)};
    const struct opt_def *d;
    int v = 0, st;

    if (kind == 2) {
        if (strcmp(name, "h") == 0)
            return -1;
        return opt_unknown(r->cmd->usage, arg, strlen(arg));
    }
    st = opt_long(&table, as, arg, name, name_len, &value, &d, &v);
    if (st)
        return st;
    switch (d->id) {
    case O_HELP:
        return -1;
    case O_PROFILE:
        r->o.profile = (enum xiri_profile)v;
        break;
    case O_FORMAT:
        r->o.json = v != 0;
        break;
    case O_IDN:
        r->o.idn = (enum xiri_idn)v;
        break;
    case O_ESCAPE_LEIRI:
        r->o.map_flags |= XIRI_MAP_ESCAPE_LEIRI;
        break;
    case O_RUNG:
        r->o.rung = (enum xiri_rung)v;
        break;
    case O_NFC:
        r->o.norm_flags |= XIRI_NORM_NFC;
        break;
    case O_MODE:
        r->o.mode = (enum xiri_display)v;
        break;
    case O_MIN_SEVERITY:
        r->o.min_severity = (enum xiri_severity)v;
        break;
    case O_FAIL_ON:
        r->o.fail_on = (enum xiri_severity)v;
        break;
    case O_IGNORE:
        return code_filter_add(&r->o.ignore, value);
    }
    return 0;
}

/* ------------------------------------------------------------- output */

/* "line 3" or "argument 2", for messages on stderr. */
static void item_where(const struct item *it, char *buf, size_t size)
{
    snprintf(buf, size, "%s %zu", it->line ? "line" : "argument", it->no);
}

/* "KEY":"text", or "KEY":null for text that is not UTF-8 (it cannot be
 * a JSON string), then a comma. */
static void json_member(const char *key, const struct item *it, const char *s,
                        size_t n)
{
    out_printf("\"%s\":", key);
    if (it->utf8 && s)
        out_json_string(s, n);
    else
        out_puts("null");
    out_putc(',');
}

/* The start of a JSON record: "{" and the members naming the input. */
static void json_inputs(const struct run *r, const struct item *it)
{
    out_putc('{');
    if (r->cmd->id == IC_COMPARE) {
        json_member("a", it, it->in, it->in_len);
        json_member("b", it, it->other, it->other_len);
        return;
    }
    if (r->cmd->id == IC_RESOLVE)
        json_member("base", it, it->other, it->other_len);
    json_member("input", it, it->in, it->in_len);
}

/* An input failed: an empty output line (or a JSON error record) and a
 * message on stderr naming the input. */
static void item_failed(struct run *r, const struct item *it,
                        const char *message)
{
    char where[64];

    item_where(it, where, sizeof(where));
    if (r->cmd->id != IC_CHECK) {
        if (r->o.json) {
            json_inputs(r, it);
            out_puts("\"error\":");
            out_json_string(message, strlen(message));
            out_puts("}\n");
        } else {
            out_putc('\n');
        }
    }
    msg_about(where, message);
    cli_set_status(&r->state, CLI_EXIT_FAIL);
}

/* A library call failed.  Out of memory stops the run. */
static void item_lib_failed(struct run *r, const struct item *it,
                            enum xiri_status st, const struct xiri_error *e)
{
    if (st == XIRI_ENOMEM) {
        cli_out_of_memory(&r->state);
        return;
    }
    item_failed(r, it, e->message[0] ? e->message : xiri_strerror(st));
}

static void item_output(struct run *r, const struct item *it, const char *s,
                        size_t n)
{
    if (r->o.json) {
        json_inputs(r, it);
        out_puts("\"output\":");
        out_json_string(s, n);
        out_puts("}\n");
    } else {
        out_write(s, n);
        out_putc('\n');
    }
}

/* ------------------------------------------------------------- check */

struct check_state {
    struct run *r;
    const struct item *it;
    int worst; /* the worst severity that counts (not --ignore'd), or -1 */
};

static int check_finding(void *user, const struct xiri_diag *d)
{
    struct check_state *cs = user;
    const struct item *it = cs->it;
    struct run *r = cs->r;
    const char *sev = xiri_severity_name(d->severity);
    const char *code = d->code ? d->code : "";
    const char *msg = d->message ? d->message : "";

    if (r->o.ignore.n && code_filter_has(&r->o.ignore, code))
        return 0;
    if ((int)d->severity > cs->worst)
        cs->worst = (int)d->severity;
    if (d->severity < r->o.min_severity)
        return !out_ok();
    if (r->o.json) {
        bool has_cp =
            d->codepoint != 0 || (d->length > 0 && d->offset < it->in_len &&
                                  it->in[d->offset] == '\0');

        out_puts("{\"input\":");
        out_json_string(it->in, it->in_len);
        out_printf(",\"offset\":%zu,\"length\":%zu,\"severity\":", d->offset,
                   d->length);
        out_json_string(sev, strlen(sev));
        out_puts(",\"code\":");
        out_json_string(code, strlen(code));
        out_puts(",\"part\":");
        if (d->part < XIRI_PART_COUNT)
            out_json_string(xiri_part_name(d->part),
                            strlen(xiri_part_name(d->part)));
        else
            out_puts("null");
        out_puts(",\"codepoint\":");
        if (has_cp)
            out_printf("%lu", (unsigned long)d->codepoint);
        else
            out_puts("null");
        out_puts(",\"section\":");
        if (d->section)
            out_json_string(d->section, strlen(d->section));
        else
            out_puts("null");
        out_puts(",\"message\":");
        out_json_string(msg, strlen(msg));
        out_puts("}\n");
    } else {
        if (it->line)
            out_printf("<stdin>:%zu:", it->no);
        else
            out_printf("<arg %zu>:", it->no);
        out_printf("%zu: %s: ", d->offset, sev);
        out_visible(msg, strlen(msg));
        if (code[0])
            out_printf(" [%s]", code);
        out_putc('\n');
        out_excerpt(it->in, it->in_len, d->offset, d->length);
    }
    return !out_ok();
}

static void run_check(struct run *r, const struct item *it)
{
    struct check_state cs = {r, it, -1};
    enum xiri_status st;
    int worst = -1;
    struct xiri_error e;

    st = xiri_check(r->ctx, it->in, it->in_len, r->o.profile, check_finding,
                    &cs, &worst);
    if (st != XIRI_OK) {
        e.message[0] = '\0';
        snprintf(e.message, sizeof(e.message), "%s", xiri_strerror(st));
        item_lib_failed(r, it, st, &e);
        return;
    }
    if (r->o.ignore.n)
        worst = cs.worst;
    if (worst >= (int)r->o.fail_on)
        cli_set_status(&r->state, CLI_EXIT_FAIL);
}

/* ------------------------------------------------------------- items */

static void run_item(struct run *r, struct item *it)
{
    struct xiri_error e;
    enum xiri_status st;
    char *out = NULL;
    size_t out_len = 0;
    int equal = 0;

    e.message[0] = '\0';
    switch (r->cmd->id) {
    case IC_CHECK:
        run_check(r, it);
        return;
    case IC_RESOLVE:
        st = xiri_resolve(it->other, it->other_len, it->in, it->in_len,
                          r->o.profile, &out, &out_len, &e);
        break;
    case IC_TO_URI:
        st = xiri_to_uri(r->ctx, it->in, it->in_len, r->o.idn, r->o.map_flags,
                         &out, &out_len, &e);
        break;
    case IC_TO_IRI:
        st = xiri_to_iri(r->ctx, it->in, it->in_len, r->o.idn, &out, &out_len,
                         &e);
        break;
    case IC_NORMALIZE:
        st = xiri_normalize(r->ctx, it->in, it->in_len, r->o.profile, r->o.rung,
                            r->o.norm_flags, &out, &out_len, &e);
        break;
    case IC_COMPARE:
        st = xiri_compare(r->ctx, it->in, it->in_len, it->other, it->other_len,
                          r->o.profile, r->o.rung, r->o.norm_flags, &equal, &e);
        if (st == XIRI_OK) {
            item_output(r, it, equal ? "equal" : "different", equal ? 5 : 9);
            if (!equal)
                cli_set_status(&r->state, CLI_EXIT_FAIL);
        }
        break;
    case IC_DISPLAY:
        st = xiri_display(r->ctx, it->in, it->in_len, r->o.mode, &out, &out_len,
                          &e);
        break;
    default:
        st = XIRI_EINVAL;
        break;
    }
    if (st != XIRI_OK)
        item_lib_failed(r, it, st, &e);
    else if (r->cmd->id != IC_COMPARE) /* compare has printed its answer */
        item_output(r, it, out ? out : "", out ? out_len : 0);
    xiri_str_free(out);
}

/* Check that an input is UTF-8 before the library sees it. */
static bool item_utf8(struct run *r, struct item *it, const char *s, size_t n)
{
    size_t bad = utf8_valid_prefix(s, n);
    char msg[200];

    it->utf8 = bad == n;
    if (it->utf8)
        return true;
    snprintf(msg, sizeof(msg),
             "byte 0x%02X at byte %zu is not UTF-8; an IRI is Unicode "
             "text: convert the input to UTF-8 (e.g. with iconv)",
             (unsigned)(unsigned char)s[bad], bad);
    item_failed(r, it, msg);
    return false;
}

/* A line of the standard input.  For resolve without BASE and for
 * compare, the line is split at its first TAB. */
static void run_line(struct run *r, size_t no, char *s, size_t n)
{
    struct item it = {true, no, true, s, n, NULL, 0};
    bool pair =
        r->cmd->id == IC_COMPARE || (r->cmd->id == IC_RESOLVE && !r->base);
    char *tab;

    if (!item_utf8(r, &it, s, n))
        return;
    if (r->cmd->id == IC_RESOLVE && r->base) {
        it.other = r->base;
        it.other_len = strlen(r->base);
    }
    if (pair) {
        tab = memchr(s, '\t', n);
        if (!tab) {
            it.in = NULL;
            item_failed(r, &it,
                        r->cmd->id == IC_COMPARE
                            ? "no TAB: a line holds two references, "
                              "A<TAB>B"
                            : "no TAB: a line holds a base and a reference, "
                              "BASE<TAB>REF (or give BASE as an operand)");
            return;
        }
        if (r->cmd->id == IC_RESOLVE) {
            it.other = s;
            it.other_len = (size_t)(tab - s);
            it.in = tab + 1;
            it.in_len = n - it.other_len - 1;
        } else {
            it.in = s;
            it.in_len = (size_t)(tab - s);
            it.other = tab + 1;
            it.other_len = n - it.in_len - 1;
        }
    }
    run_item(r, &it);
}

static void run_stdin(struct run *r)
{
    struct lines l;
    char *s;
    size_t n;
    int got = 0;

    lines_init(&l, stdin);
    while (!r->state.stop && (got = lines_next(&l, &s, &n)) > 0) {
        run_line(r, l.no, s, n);
        if (!out_ok())
            r->state.stop = true;
    }
    if (!r->state.stop && got < 0) {
        msg_error("error reading the standard input: %s", strerror(errno));
        cli_set_status(&r->state, CLI_EXIT_USAGE);
    }
    lines_free(&l);
}

static void run_operands(struct run *r, const char **ops, size_t nops)
{
    size_t i = 0;
    struct item it;

    if (r->cmd->id == IC_RESOLVE) {
        /* BASE REF...: the base is operand 1; each REF is named by its
         * own operand number. */
        i = 1;
    }
    if (r->cmd->id == IC_COMPARE) {
        if (nops != 2)
            return; /* run_command lets only 0 or 2 through */
        it = (struct item){false,          1,      true,          ops[0],
                           strlen(ops[0]), ops[1], strlen(ops[1])};
        if (!item_utf8(r, &it, ops[0], it.in_len))
            return;
        it.no = 2;
        if (!item_utf8(r, &it, ops[1], it.other_len))
            return;
        it.no = 1;
        run_item(r, &it);
        return;
    }
    for (; i < nops && !r->state.stop && out_ok(); i++) {
        it = (struct item){false, i + 1, true, ops[i], strlen(ops[i]), NULL, 0};
        if (r->cmd->id == IC_RESOLVE) {
            it.other = ops[0];
            it.other_len = strlen(ops[0]);
        }
        if (item_utf8(r, &it, it.in, it.in_len))
            run_item(r, &it);
    }
}

/* ------------------------------------------------------------- command */

static int run_command(const struct cmd_def *cmd, int argc, char **argv)
{
    struct run r;
    struct argscan as;
    const char *arg, *name, *value;
    size_t name_len, nops = 0;
    int kind, st;
    const char **ops;
    enum xiri_status xs;

    memset(&r, 0, sizeof(r));
    r.cmd = cmd;
    opts_default(&r.o);
    /* the operands, then --ignore's values (one allocation, freed as
     * ops) */
    ops = calloc(2 * ((size_t)argc + 1), sizeof(*ops));
    if (!ops) {
        msg_error("out of memory");
        return CLI_EXIT_USAGE;
    }
    r.o.ignore.lists = ops + argc + 1;
    argscan_init(&as, argc, argv);
    while (argscan_next(&as, &kind, &arg, &name, &name_len, &value)) {
        if (kind == 0) {
            ops[nops++] = arg;
            continue;
        }
        st = apply_opt(&r, &as, arg, kind, name, name_len, value);
        if (st < 0) {
            out_puts(cmd->help);
            free(ops);
            return CLI_EXIT_OK;
        }
        if (st > 0) {
            free(ops);
            return st;
        }
    }
    if (cmd->id == IC_COMPARE && nops != 0 && nops != 2) {
        free(ops);
        return usage_error(cmd->usage,
                           "'compare' takes two references, A and B, or "
                           "none to read A<TAB>B lines; %zu given",
                           nops);
    }
    xs = xiri_ctx_new(&r.ctx);
    if (xs != XIRI_OK) {
        free(ops);
        msg_error("cannot set up: %s", xiri_strerror(xs));
        return CLI_EXIT_USAGE;
    }
    if (cmd->id == IC_RESOLVE && nops > 0 &&
        utf8_valid_prefix(ops[0], strlen(ops[0])) != strlen(ops[0])) {
        /* A base that is not UTF-8 would fail every reference: a usage
         * error, said once. */
        msg_error("argument 1: the base is not UTF-8; an IRI is Unicode "
                  "text: convert it to UTF-8 (e.g. with iconv)");
        cli_set_status(&r.state, CLI_EXIT_USAGE);
    } else if (nops == 0) {
        run_stdin(&r);
    } else if (cmd->id == IC_RESOLVE && nops == 1) {
        r.base = ops[0];
        run_stdin(&r);
    } else {
        run_operands(&r, ops, nops);
    }
    xiri_ctx_free(r.ctx);
    free(ops);
    return r.state.status;
}

int cmd_iri(int argc, char **argv)
{
    const char *sub;
    size_t i;

    if (argc < 2) {
        msg_error("no iri command given; see 'xiri iri --help'");
        return CLI_EXIT_USAGE;
    }
    sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        out_puts(iri_help_text);
        return CLI_EXIT_OK;
    }
    for (i = 0; i < IC_COUNT; i++)
        if (strcmp(sub, cmds[i].name) == 0)
            return run_command(&cmds[i], argc - 1, argv + 1);
    msg_text(CLI_PROG ": ");
    msg_text(sub[0] == '-' ? "unknown option " : "unknown iri command ");
    msg_quoted(sub, strlen(sub));
    msg_text("; see 'xiri iri --help'\n");
    return CLI_EXIT_USAGE;
}

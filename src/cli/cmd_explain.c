/* cmd_explain.c - "xiri explain [CODE...]": the catalogue of the codes
 * that "xiri check" and "xiri iri check" report (xiri_code_lookup,
 * xiri_code_at). */
#include "cli.h"

#include <string.h>

#define EXPLAIN_WIDTH 78
#define EXPLAIN_INDENT 10 /* strlen("severity: ") */

static const char explain_help[] =
    "Usage: xiri explain [CODE...]\n"
    "\n"
    "Describe the codes that 'xiri check' and 'xiri iri check' print in\n"
    "brackets: severity, the section of the standard the rule comes from, a\n"
    "summary, and what to do about it.  With no CODE, list every code with\n"
    "its severity and summary.\n"
    "\n"
    "Options:\n"
    "  -h, --help  print this help\n"
    "\n"
    "Exit status: 0 success; 2 an unknown code, a usage or output error.\n";

static void explain_field(const char *key, const char *value)
{
    out_printf("%-*s", EXPLAIN_INDENT, key);
    out_wrapped(value && value[0] ? value : "-", EXPLAIN_INDENT, EXPLAIN_INDENT,
                EXPLAIN_WIDTH);
}

static void explain_entry(const struct xiri_code_info *c)
{
    explain_field("code:", c->code);
    explain_field("severity:", xiri_severity_name(c->severity));
    explain_field("section:", c->section);
    explain_field("summary:", c->summary);
    if (c->explanation && c->explanation[0]) {
        out_putc('\n');
        out_wrapped(c->explanation, 0, 0, EXPLAIN_WIDTH);
    }
}

static void explain_list(void)
{
    const struct xiri_code_info *c;
    size_t i, width = 0;

    for (i = 0; (c = xiri_code_at(i)) != NULL; i++)
        if (strlen(c->code) > width)
            width = strlen(c->code);
    for (i = 0; (c = xiri_code_at(i)) != NULL && out_ok(); i++)
        out_printf("%-*s  %-7s  %s\n", (int)width, c->code,
                   xiri_severity_name(c->severity),
                   c->summary ? c->summary : "");
}

int cmd_explain(int argc, char **argv)
{
    struct argscan as;
    const char *arg, *name, *value;
    size_t name_len, ncodes = 0;
    int kind, status = CLI_EXIT_OK;

    /* First the options, so that a bad one prints nothing else. */
    argscan_init(&as, argc, argv);
    while (argscan_next(&as, &kind, &arg, &name, &name_len, &value)) {
        if (kind == 0) {
            ncodes++;
            continue;
        }
        if ((kind == 2 && strcmp(name, "h") == 0) ||
            (kind == 1 && strcmp(name, "help") == 0)) {
            out_puts(explain_help);
            return CLI_EXIT_OK;
        }
        msg_text(CLI_PROG ": unknown option ");
        msg_quoted(arg, strlen(arg));
        msg_text("; see 'xiri explain --help'\n");
        return CLI_EXIT_USAGE;
    }
    if (ncodes == 0) {
        explain_list();
        return status;
    }
    ncodes = 0;
    argscan_init(&as, argc, argv);
    while (argscan_next(&as, &kind, &arg, &name, &name_len, &value)) {
        const struct xiri_code_info *c;

        if (kind != 0)
            continue;
        c = xiri_code_lookup(arg);
        if (!c) {
            msg_unknown_code("", arg, strlen(arg));
            status = CLI_EXIT_USAGE;
            continue;
        }
        if (ncodes++ > 0)
            out_putc('\n');
        explain_entry(c);
    }
    return status;
}

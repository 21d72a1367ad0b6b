/* main.c - the entry point of the xiri tool: global options and the
 * dispatch to the "iri", "check", "links", "rewrite" and "explain"
 * commands. */
#include "cli.h"

#include <signal.h>
#include <string.h>

static void main_help(void)
{
    out_puts(
        "Usage: xiri COMMAND [OPTIONS] [OPERANDS]\n"
        "       xiri --help | --version\n"
        "\n"
        "Check, resolve and map IRIs (RFC 3987) and URIs (RFC 3986), alone\n"
        "or in XML and HTML documents.\n"
        "\n"
        "Commands:\n"
        "  check FILE...   report the problems of the IRIs in documents\n"
        "  links FILE...   list the IRIs in documents, resolved and mapped\n"
        "  rewrite FILE... rewrite the IRIs of documents as URIs or IRIs,\n"
        "                  changing nothing else\n"
        "  iri check       report the problems in IRI references\n"
        "  iri resolve     resolve references against a base (RFC 3986 5.2)\n"
        "  iri to-uri      map IRIs to URIs (RFC 3987 3.1)\n"
        "  iri to-iri      map URIs to IRIs (RFC 3987 3.2)\n"
        "  iri normalize   normalize references (RFC 3987 5.3)\n"
        "  iri compare     tell whether two references are equivalent\n"
        "  iri display     wrap IRIs for display (RFC 3987 4.1)\n"
        "  explain [CODE]  describe a finding of 'check' or 'iri check'\n"
        "\n"
        "Each 'iri' command works on its operands or, when there are none,\n"
        "on each line of the standard input.  Run 'xiri COMMAND --help' or\n"
        "'xiri iri COMMAND --help' for a command's options, 'man xiri' for\n"
        "the details.\n"
        "\n"
        "Exit status: 0 success; 1 a finding of severity error, an input\n"
        "that failed, or a difference; 2 a usage, input or output error, or\n"
        "a document that could not be read or parsed.\n");
}

static void main_version(void)
{
    out_printf("xiri %s (libxiri %s)\n", XIRI_VERSION_STRING, xiri_version());
}

int main(int argc, char **argv)
{
    const char *cmd;
    int status;

    /* A closed pipe is a write error reported with exit status 2, not a
     * silent death by SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    /* Likewise a file over the size limit (ulimit -f): write fails with
     * EFBIG, which is reported (or, for a -j spill file, handled by
     * waiting for the file's turn), instead of a death by SIGXFSZ that
     * would cut the output short without a word. */
    signal(SIGXFSZ, SIG_IGN);
    cli_use_source_schemas();

    if (argc < 2) {
        msg_error("no command given; see 'xiri --help'");
        return out_finish(CLI_EXIT_USAGE);
    }
    cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        main_help();
        status = CLI_EXIT_OK;
    } else if (strcmp(cmd, "--version") == 0) {
        main_version();
        status = CLI_EXIT_OK;
    } else if (strcmp(cmd, "iri") == 0) {
        status = cmd_iri(argc - 1, argv + 1);
    } else if (strcmp(cmd, "explain") == 0) {
        status = cmd_explain(argc - 1, argv + 1);
    } else if (strcmp(cmd, "check") == 0 || strcmp(cmd, "links") == 0) {
        status = cmd_doc(argc - 1, argv + 1);
    } else if (strcmp(cmd, "rewrite") == 0) {
        status = cmd_rewrite(argc - 1, argv + 1);
    } else if (cmd[0] == '-') {
        msg_text(CLI_PROG ": unknown option ");
        msg_quoted(cmd, strlen(cmd));
        msg_text("; see 'xiri --help'\n");
        status = CLI_EXIT_USAGE;
    } else {
        msg_text(CLI_PROG ": unknown command ");
        msg_quoted(cmd, strlen(cmd));
        msg_text("; see 'xiri --help'\n");
        status = CLI_EXIT_USAGE;
    }
    return out_finish(status);
}

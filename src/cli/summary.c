/* summary.c - the one line "check", "links" and "rewrite" end a run with
 * on stderr (xiri(1), SUMMARY): how many files and links were seen, the
 * findings of severity error and warning, and for rewrite the values
 * changed. */
#include "cli.h"

#include <string.h>

bool summary_wanted(const struct run_summary *s, bool quiet)
{
    (void)s;
    return !quiet;
}

void summary_count(struct run_summary *s, enum xiri_severity sev)
{
    if (sev >= XIRI_SEV_ERROR)
        s->errors++;
    else if (sev == XIRI_SEV_WARNING)
        s->warnings++;
}

void summary_add(struct run_summary *to, const struct run_summary *from)
{
    to->files += from->files;
    to->links += from->links;
    to->errors += from->errors;
    to->warnings += from->warnings;
    to->changed += from->changed;
    to->absorbed += from->absorbed;
}

int summary_file_begin(struct run_summary *s, struct cli_state *st)
{
    int before = st->status;

    s->files++;
    s->changed_before = s->changed;
    st->status = CLI_EXIT_OK;
    return before;
}

void summary_file_end(struct run_summary *s, struct cli_state *st,
                      int before)
{
    /* a file that could not be read, parsed or written (exit status 2)
     * is one error, even though no finding says so */
    if (st->status >= CLI_EXIT_USAGE && !st->stop) {
        s->errors++;
        /* rewrite: nothing of it was written (xiri(1), rewrite) */
        s->changed = s->changed_before;
    }
    cli_set_status(st, before);
}

/* ", N THING" or ", N THINGs" */
static void summary_item(bool first, size_t n, const char *one,
                         const char *many)
{
    fprintf(stderr, "%s%zu %s", first ? "" : ", ", n, n == 1 ? one : many);
}

void summary_print(const char *usage, const struct run_summary *s)
{
    /* after the output: not when it failed (a full disk, a closed
     * pipe), which the run reports on exit with exit status 2 */
    if (!out_sync())
        return;
    fprintf(stderr, "%s: ", usage);
    summary_item(true, s->files, "file", "files");
    summary_item(false, s->links, "link", "links");
    if (s->rewrite)
        summary_item(false, s->changed, "changed", "changed");
    summary_item(false, s->errors, "error", "errors");
    summary_item(false, s->warnings, "warning", "warnings");
    if (s->absorbed > 0)
        summary_item(false, s->absorbed, "finding in the baseline",
                     "findings in the baseline");
    fputc('\n', stderr);
}

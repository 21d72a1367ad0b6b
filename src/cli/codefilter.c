/* codefilter.c - the finding codes a check leaves out (--ignore), and the
 * message for a code xiri does not know (--ignore, xiri explain). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void msg_unknown_code(const char *what, const char *code, size_t n)
{
    const struct xiri_code_info *c;
    char typed[64];
    size_t i, shown = 0;

    msg_text(CLI_PROG ": ");
    msg_text(what);
    msg_text("unknown code ");
    msg_quoted(code, n);
    /* the codes that contain what was typed, if it is short enough to be
     * a piece of one */
    if (n > 0 && n < sizeof(typed)) {
        memcpy(typed, code, n);
        typed[n] = '\0';
        for (i = 0; (c = xiri_code_at(i)) != NULL; i++) {
            if (!strstr(c->code, typed))
                continue;
            msg_text(shown == 0 ? " (did you mean " : ", ");
            fprintf(stderr, "'%s'", c->code);
            if (++shown == 5)
                break;
        }
    }
    if (shown)
        msg_text("?)");
    msg_text("; run 'xiri explain' to list all codes\n");
}

/* The code of s[0..n), or NULL when xiri has none of that name. */
static const struct xiri_code_info *code_of(const char *s, size_t n)
{
    const struct xiri_code_info *c;
    size_t i;

    for (i = 0; (c = xiri_code_at(i)) != NULL; i++)
        if (strlen(c->code) == n && memcmp(c->code, s, n) == 0)
            return c;
    return NULL;
}

int code_filter_add(struct code_filter *f, const char *value)
{
    const char *p = value, *end;
    size_t n;

    for (;;) {
        end = strchr(p, ',');
        n = end ? (size_t)(end - p) : strlen(p);
        if (!code_of(p, n)) {
            msg_unknown_code("option '--ignore': ", p, n);
            return CLI_EXIT_USAGE;
        }
        if (!end)
            break;
        p = end + 1;
    }
    f->lists[f->n++] = value;
    return 0;
}

bool code_filter_has(const struct code_filter *f, const char *code)
{
    size_t i, n = strlen(code);

    for (i = 0; i < f->n; i++) {
        const char *p = f->lists[i], *end;

        for (;;) {
            end = strchr(p, ',');
            if ((end ? (size_t)(end - p) : strlen(p)) == n &&
                memcmp(p, code, n) == 0)
                return true;
            if (!end)
                break;
            p = end + 1;
        }
    }
    return false;
}

/* htmltrim.h - the C0 controls and spaces around an HTML URL, which
 * browsers remove before they read it (WHATWG URL 4.4, basic URL parser:
 * "remove any leading and trailing C0 control or space from input"): the
 * controls among them reported, and the html profile's checks run on
 * what is left, their findings placed back in the value (htmltrim.c).
 * The walker's links come trimmed; xiri_check and xiri_check_link trim
 * the strings they are given. */
#ifndef XIRI_HTMLTRIM_H
#define XIRI_HTMLTRIM_H

#include "common.h"

struct html_trim {
    size_t lead, len; /* what is left: value[lead .. lead + len) */
    xiri_diag_fn *fn; /* where findings go */
    void *user;
    int worst; /* the highest severity passed to fn, or -1 */
    bool stop; /* fn asked to stop */
};

/* Whether v[0..n) starts or ends with a C0 control or space; if so, t is
 * set up to pass findings to fn. */
bool html_trim_find(const char *v, size_t n, xiri_diag_fn *fn, void *user,
                    struct html_trim *t);

/* Report the first C0 control of v[from..to) (one side of what browsers
 * remove) to t's fn as a control-around-url warning; not the ASCII white space
 * (tab, newline, form feed, carriage return, space) that HTML allows
 * around a URL ("valid URL potentially surrounded by spaces"). */
void html_trim_report(struct html_trim *t, const char *v, size_t from,
                      size_t to);

/* A xiri_diag_fn for the checks of what is left (user: the html_trim):
 * each finding, its offset and its "at byte N" moved by lead, passed to
 * t's fn. */
int html_trim_forward(void *user, const struct xiri_diag *d);

/* xiri_check under the html profile: the controls around s reported,
 * html_auth_check_value on what is left. */
enum xiri_status html_trim_check(struct xiri_ctx *ctx, const char *s,
                                 size_t len, xiri_diag_fn *fn, void *user,
                                 int *worst);

#endif

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

/* Whether v[0..n) starts or ends with a C0 control or space. */
static inline bool html_trim_needed(const char *v, size_t n)
{
    return n > 0 &&
           ((unsigned char)v[0] <= 0x20 || (unsigned char)v[n - 1] <= 0x20);
}

/* Set t up for v[0..n) (html_trim_needed) to pass findings to fn, and
 * report the first C0 control before the URL as a control-around-url
 * warning (not the ASCII white space that HTML allows around a URL:
 * "valid URL potentially surrounded by spaces").  False when fn asked to
 * stop; else the caller checks v[t->lead .. t->lead + t->len) with
 * html_trim_forward and t, then calls html_trim_end. */
bool html_trim_begin(struct html_trim *t, const char *v, size_t n,
                     xiri_diag_fn *fn, void *user);

/* A xiri_diag_fn for the checks of what is left (user: the html_trim):
 * each finding, its offset and its "at byte N" moved by lead, passed to
 * t's fn. */
int html_trim_forward(void *user, const struct xiri_diag *d);

/* After those checks returned st: the first C0 control after the URL
 * reported as html_trim_begin reports the one before (when st is
 * XIRI_OK), and *worst (may be NULL) set to the highest severity passed
 * on.  Returns st. */
enum xiri_status html_trim_end(struct html_trim *t, const char *v, size_t n,
                               enum xiri_status st, int *worst);

/* xiri_check under the html profile: the controls around s reported,
 * html_auth_check_value on what is left. */
enum xiri_status html_trim_check(struct xiri_ctx *ctx, const char *s,
                                 size_t len, xiri_diag_fn *fn, void *user,
                                 int *worst);

#endif

/* htmltrim.c - the C0 controls and spaces browsers remove around an HTML
 * URL (WHATWG URL 4.4, basic URL parser, step 1), reported where they
 * are controls, and the checks run on what is left. */
#include "common.h"
#include "htmltrim.h"
#include "chars.h"
#include "codes.h"
#include "htmlauth.h"
#include "htmlurl.h"

#include <stdio.h>

static void pass_on(struct html_trim *t, const struct xiri_diag *d)
{
    if ((int)d->severity > t->worst)
        t->worst = (int)d->severity;
    if (!t->stop && t->fn && t->fn(t->user, d) != 0)
        t->stop = true;
}

/* Report the first C0 control of v[from..to), one side of what browsers
 * remove, that is not ASCII white space. */
static void report_side(struct html_trim *t, const char *v, size_t from,
                        size_t to)
{
    size_t k;

    for (k = from; k < to && !t->stop; k++) {
        unsigned char c = (unsigned char)v[k];
        struct xiri_diag d;
        char msg[256];

        /* HTML 2.4.5: a valid URL potentially surrounded by spaces (ASCII
         * white space); the other C0 controls make it no valid one */
        if (ch_is_ascii_space(c))
            continue;
        snprintf(msg, sizeof(msg),
                 "control character U+%04X at byte %zu, %s the URL: browsers "
                 "remove it (WHATWG URL: invalid-URL-unit), other software "
                 "does not, and HTML allows only spaces there; remove it",
                 c, k, k < t->lead ? "before" : "after");
        codes_diag(&d, CODE_CONTROL_AROUND_URL, XIRI_PART_COUNT, k, 1, c, msg);
        pass_on(t, &d);
        break; /* the first of the side, as the walker says it */
    }
}

bool html_trim_begin(struct html_trim *t, const char *v, size_t n,
                     xiri_diag_fn *fn, void *user)
{
    const char *in = v;
    size_t m = n;

    html_url_trim(&in, &m);
    t->lead = (size_t)(in - v);
    t->len = m;
    t->fn = fn;
    t->user = user;
    t->worst = -1;
    t->stop = false;
    report_side(t, v, 0, t->lead);
    return !t->stop;
}

enum xiri_status html_trim_end(struct html_trim *t, const char *v, size_t n,
                               enum xiri_status st, int *worst)
{
    if (st == XIRI_OK)
        report_side(t, v, t->lead + t->len, n);
    if (worst)
        *worst = t->worst;
    return st;
}

/* The offset in the value of byte o of what is left. */
static size_t lead_offset(const void *user, size_t o)
{
    return o + ((const struct html_trim *)user)->lead;
}

int html_trim_forward(void *user, const struct xiri_diag *d)
{
    struct html_trim *t = user;
    struct xiri_diag moved = *d;
    char msg[1024];

    moved.offset += t->lead;
    if (t->lead > 0) {
        codes_rebase_bytes(d->message, lead_offset, t, msg, sizeof(msg));
        moved.message = msg;
    }
    pass_on(t, &moved);
    return t->stop;
}

enum xiri_status html_trim_check(struct xiri_ctx *ctx, const char *s,
                                 size_t len, xiri_diag_fn *fn, void *user,
                                 int *worst)
{
    struct html_trim t;
    enum xiri_status st = XIRI_OK;

    /* (html_auth_check_value says what is wrong with the arguments) */
    if (!ctx || !s || len > XIRI_MAX_LEN || !html_trim_needed(s, len))
        return html_auth_check_value(ctx, s, len, fn, user, worst);
    if (html_trim_begin(&t, s, len, fn, user))
        st = html_auth_check_value(ctx, s + t.lead, t.len, html_trim_forward,
                                   &t, NULL);
    return html_trim_end(&t, s, len, st, worst);
}

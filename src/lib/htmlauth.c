/* htmlauth.c - the authority of an HTML attribute value as browsers read
 * it (WHATWG URL 4.4, basic URL parser), where RFC 3986 reads it
 * otherwise, and the html profile's checks run on it: the host a browser
 * connects to is the one judged. */
#include "common.h"
#include "htmlauth.h"
#include "codes.h"
#include "htmlurl.h"
#include "linkcheck.h"
#include "scheme.h"

#include <stdio.h>
#include <stdlib.h>

void html_auth_init(struct html_auth *a)
{
    /* the rest is html_auth_find's to set (the check asks it of most
     * links of HTML documents) */
    a->stop = false;
    a->drop_from = a->drop_to = 0;
    buf_init(&a->prep, XIRI_MAX_LEN);
}

void html_auth_free(struct html_auth *a)
{
    buf_free(&a->prep);
}

/* Where the authority that starts at v[a] ends: RFC 3986 3.2 (and WHATWG
 * URL 4.4, authority state, for a URL that is not special) at '/', '?'
 * or '#'; in a special URL ('\' too) also at '\'. */
static size_t authority_end(const char *v, size_t m, size_t a, bool backslash)
{
    while (a < m && v[a] != '/' && v[a] != '?' && v[a] != '#' &&
           !(v[a] == '\\' && backslash))
        a++;
    return a;
}

/* Where the authority of v[0..m) as browsers read it (v as
 * html_url_prepare gives it when prepared, else the value itself)
 * differs from RFC 3986's (html_auth_find): the slashes start at *i, the
 * authority at *a, ending at *e. */
static bool browsers_authority(const char *v, size_t m, const char *base,
                               bool prepared, size_t *i, size_t *a, size_t *e,
                               bool *hidden)
{
    size_t k;
    bool special;

    *hidden = html_url_hidden_host(v, m, base, i, a);
    if (!*hidden) {
        /* most values hold no '\' */
        if (!prepared && !memchr(v, '\\', m))
            return false;
        k = scheme_prefix_len(v, m);
        *i = k > 0 ? k + 1 : 0;
        if (m - *i < 2 || v[*i] != '/' || v[*i + 1] != '/')
            return false;
        *a = *i + 2;
        k = authority_end(v, m, *a, false);
        if (!prepared && (!memchr(v + *a, '\\', k - *a) ||
                          !html_url_special(v, m, base)))
            return false;
    }
    special = memchr(v + *a, '\\', m - *a) && html_url_special(v, m, base);
    *e = authority_end(v, m, *a, special);
    return true;
}

/* The offset in the value of byte k of a->read (the value without its
 * tabs and newlines, when prepared), or the value's length past its end.
 * A cursor, the last byte mapped, keeps ascending calls linear: a value
 * with many findings would otherwise be counted from its start for each. */
static size_t value_offset(struct html_auth *a, size_t k)
{
    size_t i, r;

    if (!a->prepared)
        return k;
    if (k < a->cursor_read)
        a->cursor_read = a->cursor_value = 0;
    r = a->cursor_read;
    for (i = a->cursor_value; i < a->value_len; i++) {
        char c = a->value[i];

        if (c == '\t' || c == '\n' || c == '\r')
            continue;
        if (r == k) {
            a->cursor_read = r;
            a->cursor_value = i;
            return i;
        }
        r++;
    }
    return a->value_len;
}

enum xiri_status html_auth_find(struct html_auth *a, const char *v, size_t n,
                                const char *base, bool *found)
{
    size_t m = n, i, h, e, k, ra, re;
    bool hidden;

    *found = false;
    a->value = v;
    a->value_len = n;
    a->base = base;
    a->read = v;
    a->drop_from = a->drop_to = 0;
    a->cursor_read = a->cursor_value = 0;
    a->prepared = memchr(v, '\t', n) || memchr(v, '\n', n) ||
                  memchr(v, '\r', n);
    if (a->prepared) {
        a->prep.len = 0;
        html_url_prepare(v, n, base, &a->prep);
        if (a->prep.status != XIRI_OK)
            return a->prep.status;
        a->read = a->prep.data ? a->prep.data : "";
        m = a->prep.len;
    }
    if (!browsers_authority(a->read, m, base, a->prepared, &i, &h, &e,
                            &hidden))
        return XIRI_OK;
    a->read_len = m;
    a->hidden = hidden;
    a->slashes_at = i;
    a->host_at = h;
    a->host_end = e;
    /* RFC 3986 3.2: the value's authority, after "//" */
    k = scheme_prefix_len(v, n);
    k = k > 0 ? k + 1 : 0;
    ra = re = SIZE_MAX;
    if (n - k >= 2 && v[k] == '/' && v[k + 1] == '/') {
        ra = k + 2;
        re = authority_end(v, n, ra, false);
    }
    a->rfc_authority = ra == SIZE_MAX ? 0 : ra == re ? 1 : 2;
    a->drop_from = value_offset(a, i);
    a->host_in_value = value_offset(a, h);
    a->drop_to = value_offset(a, e);
    if (ra != SIZE_MAX && ra < a->drop_from)
        a->drop_from = ra;
    if (ra != SIZE_MAX && re > a->drop_to)
        a->drop_to = re;
    *found = true;
    return XIRI_OK;
}

/* The offset in the value of byte o of the string html_auth_check
 * checks: a->read with "//" before its host, which stands for the
 * slashes. */
static size_t form_offset(struct html_auth *a, size_t o)
{
    size_t from = a->slashes_at + 2;

    if (o >= from)
        o = o - from + a->host_at;
    else if (o > a->slashes_at)
        o = a->slashes_at;
    return value_offset(a, o);
}

/* form_offset for codes_rebase_bytes (which hands a back as const: its
 * cursor moves, the rest does not). */
static size_t form_offset_of(const void *a, size_t o)
{
    return form_offset((struct html_auth *)(uintptr_t)a, o);
}

/* Where a finding goes: the caller's callback, and, for the passes over
 * the value, which of its findings pass. */
struct pass {
    struct html_auth *a;
    xiri_diag_fn *fn;
    void *user;
    int which; /* value_forward: 0 before the authority, 1 after, 2 both */
};

static int deliver(struct html_auth *a, xiri_diag_fn *fn, void *user,
                   const struct xiri_diag *d)
{
    if (!a->stop && fn && fn(user, d) != 0)
        a->stop = true;
    return a->stop;
}

/* check_run's findings on the value as browsers read its authority:
 * those inside it, placed back in the value. */
static int form_forward(void *user, const struct xiri_diag *d)
{
    struct pass *p = user;
    struct html_auth *a = p->a;
    struct xiri_diag moved = *d;
    size_t end;
    char msg[1024];

    moved.offset = form_offset(a, d->offset);
    if (moved.offset < a->drop_from || moved.offset >= a->drop_to)
        return a->stop;
    /* (its last byte's place, and one past it: not a tab after it) */
    end = d->length > 0 ? form_offset(a, d->offset + d->length - 1) + 1
                        : moved.offset;
    moved.length =
        end > a->drop_to ? a->drop_to - moved.offset : end - moved.offset;
    codes_rebase_bytes(d->message, form_offset_of, a, msg, sizeof(msg));
    moved.message = msg;
    return deliver(a, p->fn, p->user, &moved);
}

/* Whether d is about a byte of the value that browsers read the same
 * whatever the authority, so that only the value's pass reports it: a
 * tab or newline, which they remove (control-char; the form has none), or
 * a '\' they read as '/' (html-only: in a special URL only, where the form
 * has '/' instead; in another the form keeps it and reports it).  Not an
 * escape of one ("%09", "%5C"), not a port or host holding one. */
static bool about_byte_read_so(const struct html_auth *a,
                               const struct xiri_diag *d)
{
    char c;

    if (d->length != 1 || d->offset >= a->value_len)
        return false;
    c = a->value[d->offset];
    if (c == '\t' || c == '\n' || c == '\r')
        return d->codepoint == (unsigned char)c &&
               d->code == codes_get(CODE_CONTROL_CHAR)->code;
    return c == '\\' && d->codepoint == '\\' &&
           d->code == codes_get(CODE_HTML_ONLY)->code;
}

/* check_run's findings on the value: before the authority and those
 * about_byte_read_so before its host (which 0), after it and those
 * about_byte_read_so from the host on (which 1), or both (which 2). */
static int value_forward(void *user, const struct xiri_diag *d)
{
    struct pass *p = user;
    const struct html_auth *a = p->a;
    bool read_so = d->offset < a->drop_to && about_byte_read_so(a, d);
    /* before the authority, or a '\', tab or newline before its host */
    bool early =
        d->offset < a->drop_from || (read_so && d->offset < a->host_in_value);
    bool late = d->offset >= a->drop_to || (read_so && !early);

    if (p->which == 0 ? !early : p->which == 1 ? !late : !early && !late)
        return a->stop;
    return deliver(p->a, p->fn, p->user, d);
}

/* The findings of html_auth_run's two passes, held until both are done,
 * to be delivered in offset order: each with the place of its message in
 * text, and its rank among them (which keeps findings at one offset in
 * the order they came). */
struct held_diag {
    struct xiri_diag d;
    size_t message;
    size_t rank;
};

/* What is held at most (findings and messages): a value with more
 * findings (thousands) gets them in three runs instead. */
#define HELD_MAX ((size_t)1 << 20)

struct held {
    struct buf list; /* struct held_diag[] */
    struct buf text; /* the messages, each ending in NUL */
};

/* XIRI_OK, or what failed holding: XIRI_ENOMEM, or XIRI_ELIMIT past
 * HELD_MAX. */
static enum xiri_status held_status(const struct held *h)
{
    return h->list.status != XIRI_OK ? h->list.status : h->text.status;
}

/* Hold d; non-zero (stop the pass) once over HELD_MAX. */
static int hold(void *user, const struct xiri_diag *d)
{
    struct held *h = user;
    struct held_diag e;

    e.d = *d;
    e.message = h->text.len;
    e.rank = h->list.len / sizeof(e);
    buf_append(&h->text, d->message, strlen(d->message) + 1);
    buf_append(&h->list, (const char *)&e, sizeof(e));
    return held_status(h) != XIRI_OK;
}

static int held_order(const void *x, const void *y)
{
    const struct held_diag *a = x, *b = y;

    if (a->d.offset != b->d.offset)
        return a->d.offset < b->d.offset ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* The findings inside the authority as browsers read it, in check_run's
 * order. */
static enum xiri_status form_pass(struct html_auth *a, struct xiri_ctx *ctx,
                                  xiri_diag_fn *fn, void *user)
{
    const char *v = a->read;
    size_t m = a->read_len, i = a->slashes_at, h = a->host_at, at;
    struct pass p = {a, fn, user, 0};
    enum xiri_status st;
    struct buf form;

    /* WHATWG URL: special-scheme-missing-following-solidus; two slashes
     * of which one is '\' are reported one by one (html-only) */
    if (a->hidden && h - i != 2) {
        struct xiri_diag d;
        char msg[512];

        at = value_offset(a, i);
        snprintf(msg, sizeof(msg),
                 "browsers read \"%.*s\" as the authority of this URL (its "
                 "host), after %s (WHATWG URL: special-scheme-missing-"
                 "following-solidus); RFC 3986 reads %s, and other software "
                 "goes elsewhere: write \"//\" before the host",
                 (int)(a->host_end - h), v + h,
                 h == i       ? "no slash"
                 : h - i == 1 ? "one slash"
                              : "more than two slashes",
                 a->rfc_authority == 0   ? "a path there and no host"
                 : a->rfc_authority == 1 ? "an empty host and a path there"
                                         : "another authority");
        codes_diag(&d, CODE_HOST_SLASHES, XIRI_PART_COUNT, at,
                   value_offset(a, h) - at, 0, msg);
        deliver(a, fn, user, &d);
    }
    if (a->stop)
        return XIRI_OK;
    /* the value as browsers read it */
    buf_init(&form, XIRI_MAX_LEN);
    html_url_host_form(v, m, a->base, i, h, &form);
    st = form.status;
    if (st == XIRI_OK)
        st = check_run(ctx, form.data, form.len, XIRI_PROFILE_HTML, a->base,
                       form_forward, &p, NULL, NULL);
    buf_free(&form);
    return st;
}

/* A tab or newline in the authority that no finding of the value's pass
 * is about (one inside an IP literal is part of its invalid-ip-literal,
 * which the form, without it, does not give): control-char, as for the
 * others; and likewise a '\' there in a special URL, which browsers read
 * as '/' (in a port, "http://a:8\0", it is part of RFC 3986's
 * invalid-port, and the form has '/'): html-only, as check_scan says it
 * elsewhere.  h is in offset order; what is added is put in it. */
static void held_unread_bytes(const struct html_auth *a, struct held *h)
{
    size_t k, j = 0, n = h->list.len / sizeof(struct held_diag);
    const char *control = codes_get(CODE_CONTROL_CHAR)->code;
    int special = -1; /* not asked yet */

    for (k = a->drop_from; k < a->drop_to; k++) {
        unsigned char c = (unsigned char)a->value[k];
        const struct held_diag *e;
        bool said = false;
        struct xiri_diag d;
        char msg[256];

        if (c != '\t' && c != '\n' && c != '\r' && c != '\\')
            continue;
        for (; j < n; j++) {
            e = (const struct held_diag *)(const void *)h->list.data + j;
            if (e->d.offset > k)
                break;
            said |= e->d.offset == k &&
                    (c == '\\' ? e->d.codepoint == '\\' : e->d.code == control);
        }
        if (said)
            continue;
        if (c == '\\') {
            if (special < 0)
                special = html_url_special(a->read, a->read_len, a->base);
            if (!special)
                continue; /* the form keeps it, and says it */
            /* WHATWG URL 4.4: invalid-reverse-solidus */
            snprintf(msg, sizeof(msg),
                     "'\\' (U+005C) at byte %zu: browsers read it as '/' "
                     "in this URL, which ends its authority there (WHATWG "
                     "URL), other software does not; write '/'",
                     k);
            codes_diag(&d, CODE_HTML_ONLY, XIRI_PART_AUTHORITY, k, 1, c, msg);
        } else {
            /* WHATWG URL 4.4, basic URL parser: invalid-URL-unit */
            snprintf(msg, sizeof(msg),
                     "control character U+%04X at byte %zu in the "
                     "authority, which browsers remove before they read "
                     "the URL (WHATWG URL: invalid-URL-unit) and other "
                     "software does not; remove it",
                     c, k);
            codes_diag(&d, CODE_CONTROL_CHAR, XIRI_PART_AUTHORITY, k, 1, c,
                       msg);
        }
        d.severity = XIRI_SEV_WARNING;
        d.section = "WHATWG URL 4.4";
        (void)hold(h, &d);
    }
}

/* The value's pass (when value) and the form's into h. */
static enum xiri_status held_run(struct html_auth *a, struct xiri_ctx *ctx,
                                 bool value, struct ref *split, struct held *h)
{
    struct pass p = {a, hold, h, 2};
    enum xiri_status st = XIRI_OK;

    if (value)
        st = check_run(ctx, a->value, a->value_len, XIRI_PROFILE_HTML, a->base,
                       value_forward, &p, NULL, split);
    if (st == XIRI_OK && !a->stop)
        st = form_pass(a, ctx, hold, h);
    return st == XIRI_OK ? held_status(h) : st;
}

/* html_auth_run, or html_auth_check when not value. */
static enum xiri_status auth_passes(struct html_auth *a, struct xiri_ctx *ctx,
                                    bool value, xiri_diag_fn *fn, void *user,
                                    struct ref *split)
{
    struct held h;
    struct pass p = {a, fn, user, 0};
    enum xiri_status st;
    size_t i, n;
    bool over;

    /* The findings of the two passes (the value is checked twice, but few
     * values have such an authority) put in offset order: xiri_check
     * promises it within each kind, and a tab in the host comes from the
     * first, a control character before it from the second. */
    buf_init(&h.list, HELD_MAX);
    buf_init(&h.text, HELD_MAX);
    st = held_run(a, ctx, value, split, &h);
    n = h.list.len / sizeof(struct held_diag);
    if (st == XIRI_OK && n > 1)
        qsort(h.list.data, n, sizeof(struct held_diag), held_order);
    if (st == XIRI_OK && value) {
        held_unread_bytes(a, &h);
        st = held_status(&h);
        if (h.list.len / sizeof(struct held_diag) > n) {
            n = h.list.len / sizeof(struct held_diag);
            qsort(h.list.data, n, sizeof(struct held_diag), held_order);
        }
    }
    for (i = 0; st == XIRI_OK && i < n && !a->stop; i++) {
        struct held_diag *e = (struct held_diag *)(void *)h.list.data + i;

        e->d.message = h.text.data + e->message;
        deliver(a, fn, user, &e->d);
    }
    over = held_status(&h) == XIRI_ELIMIT;
    buf_free(&h.list);
    buf_free(&h.text);
    if (!over)
        return st;
    /* too many to hold: three runs, before the authority, in it, after
     * it, each in check_run's order, a tab, a newline or a '\' from the
     * host on with the third */
    a->stop = false;
    st = XIRI_OK;
    if (value)
        st = check_run(ctx, a->value, a->value_len, XIRI_PROFILE_HTML, a->base,
                       value_forward, &p, NULL, split);
    if (st == XIRI_OK && !a->stop)
        st = form_pass(a, ctx, fn, user);
    p.which = 1;
    if (value && st == XIRI_OK && !a->stop)
        st = check_run(ctx, a->value, a->value_len, XIRI_PROFILE_HTML, a->base,
                       value_forward, &p, NULL, NULL);
    return st;
}

enum xiri_status html_auth_run(struct html_auth *a, struct xiri_ctx *ctx,
                               xiri_diag_fn *fn, void *user, struct ref *split)
{
    return auth_passes(a, ctx, true, fn, user, split);
}

enum xiri_status html_auth_check(struct html_auth *a, struct xiri_ctx *ctx,
                                 xiri_diag_fn *fn, void *user)
{
    return auth_passes(a, ctx, false, fn, user, NULL);
}

/* The worst severity of what passes to the caller, and whether it asked
 * to stop. */
struct worst {
    xiri_diag_fn *fn;
    void *user;
    int worst;
    bool stop;
};

static int track_worst(void *user, const struct xiri_diag *d)
{
    struct worst *w = user;

    if ((int)d->severity > w->worst)
        w->worst = (int)d->severity;
    if (w->fn && w->fn(w->user, d) != 0)
        w->stop = true;
    return w->stop;
}

enum xiri_status html_auth_check_value(struct xiri_ctx *ctx, const char *s,
                                       size_t len, xiri_diag_fn *fn, void *user,
                                       int *worst)
{
    struct html_auth a;
    struct worst w = {fn, user, -1, false};
    struct xiri_diag d;
    enum xiri_status st;
    bool found = false, missing = false;

    if (worst)
        *worst = -1;
    if (!ctx || !s || len > XIRI_MAX_LEN) /* check_run says what is wrong */
        return check_run(ctx, s, len, XIRI_PROFILE_HTML, NULL, fn, user, worst,
                         NULL);
    /* WHATWG URL 4.4, authority and host states: browsers reject a URL
     * without the host they need ("http://", "https:", "sc://@/"); with no
     * base, only what fails whatever the base is found.  First, at the
     * value's start: the findings stay in offset order (xiri.h). */
    st = html_url_host_missing_diag(s, len, NULL, &d, &missing);
    if (st != XIRI_OK)
        return st;
    if (missing && track_worst(&w, &d)) {
        if (worst)
            *worst = w.worst;
        return XIRI_OK;
    }
    html_auth_init(&a);
    st = html_auth_find(&a, s, len, NULL, &found);
    if (st == XIRI_OK && !found)
        st = check_run(ctx, s, len, XIRI_PROFILE_HTML, NULL, track_worst, &w,
                       NULL, NULL);
    else if (st == XIRI_OK)
        st = html_auth_run(&a, ctx, track_worst, &w, NULL);
    html_auth_free(&a);
    if (worst)
        *worst = w.worst;
    return st;
}

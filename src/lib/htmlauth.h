/* htmlauth.h - the authority of an HTML attribute value as browsers read
 * it, where RFC 3986 reads it otherwise (WHATWG URL 4.4), and the checks
 * of the html profile run on it (htmlauth.c): xiri_check and
 * xiri_check_link judge the host browsers connect to, not the one of RFC
 * 3986's split. */
#ifndef XIRI_HTMLAUTH_H
#define XIRI_HTMLAUTH_H

#include "buf.h"
#include "common.h"
#include "parse.h"

struct html_auth {
    const char *value; /* the value checked, value[0..value_len) */
    size_t value_len;
    const char *base; /* its base, or NULL */
    /* the value as browsers read it: itself, or, when it holds tabs or
     * newlines (prepared), it as html_url_prepare gives it, in prep */
    const char *read;
    size_t read_len;
    bool prepared;
    struct buf prep;
    /* in read: the slashes from slashes_at on, then the authority
     * read[host_at..host_end) */
    size_t slashes_at, host_at, host_end;
    bool hidden;       /* after other than "//" (html_url_hidden_host) */
    int rfc_authority; /* RFC 3986's at that place: 0 none, 1 empty, 2
                          another */
    /* in the value: what either reading takes for the authority, whose
     * findings come from read, not from the value */
    size_t drop_from, drop_to;
    size_t host_in_value; /* where the host starts in the value */
    /* value_offset's cursor: byte cursor_read of read is
     * value[cursor_value] */
    size_t cursor_read, cursor_value;
    bool stop; /* a callback asked to stop */
};

void html_auth_init(struct html_auth *a);
void html_auth_free(struct html_auth *a);

/* Whether browsers read the authority of v[0..n) against base (NULL:
 * none) otherwise than RFC 3986: a host after other than "//" where RFC
 * 3986 reads a path or an empty host ("https:h/p", "///h/p" against an
 * http base: html_url_hidden_host); in a special URL, a '\' in what RFC
 * 3986 reads as the authority, which ends the browsers' one there
 * ("http://h\@x/" has the host h); any authority of a value with tabs or
 * newlines, which browsers remove first.  *found says; where goes to a.
 * XIRI_OK, or XIRI_ENOMEM. */
enum xiri_status html_auth_find(struct html_auth *a, const char *v, size_t n,
                                const char *base, bool *found);

/* The checks of the html profile on the value html_auth_find found, with
 * its authority as browsers read it: check_run's findings on the value
 * outside that authority (and those about a tab, a newline or a '\' in
 * it, which browsers read so whatever the authority), and those on the
 * value as browsers read it inside it, placed back in the value, with
 * host-slashes where the host follows other than "//"; delivered to fn
 * in offset order (at one offset, in the order they came), or, when they
 * do not fit in the 1 MiB held for them, in three runs (before the
 * authority, in it, after it: each in check_run's order, a tab, a newline
 * or a '\' before the host with the first, from the host on with the
 * third).  A tab, newline or '\' in the authority that only a larger
 * finding of RFC 3986's reading covers ("http://[::1\t]/",
 * "http://a:8\\0") is said on its own (control-char, html-only), but not
 * in three runs.  split (may be NULL) receives the value's RFC 3986
 * split. */
enum xiri_status html_auth_run(struct html_auth *a, struct xiri_ctx *ctx,
                               xiri_diag_fn *fn, void *user, struct ref *split);

/* Only the findings inside the authority (html_auth_run's second part),
 * delivered as html_auth_run delivers them: for a value check_run would
 * find nothing in. */
enum xiri_status html_auth_check(struct html_auth *a, struct xiri_ctx *ctx,
                                 xiri_diag_fn *fn, void *user);

/* check_run under the html profile with the authority as browsers read
 * it (html_auth_find, html_auth_run): what xiri_check does for it. */
enum xiri_status html_auth_check_value(struct xiri_ctx *ctx, const char *s,
                                       size_t len, xiri_diag_fn *fn, void *user,
                                       int *worst);

#endif

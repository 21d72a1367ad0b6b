/* linkresolve.c - xiri_link_resolve: the absolute IRI a link of a
 * document points to, as the readers of its document resolve it: RFC
 * 3986 section 5 (RFC 3987 6.5) for XML, and, for HTML, what browsers
 * get (WHATWG URL, basic URL parser), which htmlurl.c turns into the
 * reference whose RFC 3986 resolution gives it. */
#include "common.h"

#include "htmlurl.h"
#include "scheme.h"

/* HTML: whether browsers fail to parse the link v[0..n) (as
 * xiri_html_url gives it) against base, and so never follow it: a
 * relative reference against a base with an opaque path (opaque-base), a
 * URL without a host where it needs one (host-missing), a host they cannot
 * parse or a bad port (invalid-char in the host, idna-error and idna-bidi
 * where browsers' IDNA fails, invalid-ipv4, invalid-ip-literal,
 * invalid-port: html_url_rejected).  XIRI_ESYNTAX when they do, err saying
 * which; XIRI_OK when they do not; else why it could not be told. */
static enum xiri_status browsers_fail(struct xiri_ctx *ctx, const char *v,
                                      size_t n, const char *base,
                                      struct xiri_error *err)
{
    enum xiri_status st;
    bool rejected;

    if (html_url_opaque_base(v, n, base))
        return error_set(err, XIRI_ESYNTAX, 0,
                         "browsers cannot resolve a relative reference "
                         "against a base with an opaque path (WHATWG URL)");
    st = html_url_rejected(ctx, v, n, base, &rejected);
    if (st != XIRI_OK)
        return error_set(err, st, 0, "%s", xiri_strerror(st));
    if (rejected)
        return error_set(err, XIRI_ESYNTAX, 0,
                         "browsers reject this URL: its host or port, or no "
                         "host (WHATWG URL)");
    return XIRI_OK;
}

enum xiri_status xiri_link_resolve(struct xiri_ctx *ctx,
                                   const struct xiri_link *link, char **out,
                                   size_t *out_len, struct xiri_error *err)
{
    enum xiri_status st;
    const char *v, *base;
    char *read = NULL, *res = NULL;
    size_t n, len = 0;
    bool html;

    if (out)
        *out = NULL;
    if (out_len)
        *out_len = 0;
    if (!ctx || !link || !out || (!link->value && link->value_len))
        return error_set(err, XIRI_EINVAL, 0, "%s", xiri_strerror(XIRI_EINVAL));
    v = link->value ? link->value : "";
    n = link->value_len;
    base = link->base;
    html = link->profile == XIRI_PROFILE_HTML;
    if (html) {
        html_url_trim(&v, &n); /* (the walker's links come trimmed) */
        /* the reference whose RFC 3986 resolution gives what browsers
         * read (xiri_html_url), judged as browsers read it */
        if (html_url_reading_differs(v, n, base)) {
            st = xiri_html_url(v, n, base, &read, &n);
            if (st != XIRI_OK)
                return error_set(err, st, 0, "%s", xiri_strerror(st));
            v = read;
        }
    }
    if (!base && scheme_prefix_len(v, n) == 0) {
        xiri_str_free(read);
        return error_set(err, XIRI_ENOTABS, 0,
                         "a relative reference, and no base to resolve it "
                         "against");
    }
    if (html && (st = browsers_fail(ctx, v, n, base, err)) != XIRI_OK) {
        xiri_str_free(read);
        return st;
    }
    /* RFC 3986 5.2.2: a reference with a scheme is its own target, with
     * its dot segments removed, which resolving it against itself gives;
     * a relative one without a base has none (XIRI_ENOTABS) */
    if (base)
        st = xiri_resolve(base, strlen(base), v, n, link->profile, &res, &len,
                          err);
    else
        st = xiri_resolve(v, n, v, n, link->profile, &res, &len, err);
    if (st == XIRI_OK && html && html_url_opaque_path(v, n)) {
        /* WHATWG URL 4.4, opaque path state: browsers keep such a path
         * as written ("data:text/plain,a/../b"), where 5.2.4 removes its
         * dot segments; valid, as the resolution said */
        xiri_str_free(res);
        res = NULL;
        st = xiri_html_url(v, n, NULL, &res, &len);
        if (st != XIRI_OK)
            error_set(err, st, 0, "%s", xiri_strerror(st));
    }
    xiri_str_free(read);
    if (st != XIRI_OK) {
        xiri_str_free(res);
        return st;
    }
    *out = res;
    if (out_len)
        *out_len = len;
    return XIRI_OK;
}

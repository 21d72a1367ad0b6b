/* example.c - the example program of libxiri(3): parse an IRI, resolve a
 * reference, map an IRI to a URI and check a LEIRI, printing each result.
 * tests/install/run.sh builds it against the installed header and library
 * with "pkg-config --cflags --libs libxiri" and compares its output with
 * the results derived by hand there.  doc/libxiri.3 shows this file. */
#include <stdio.h>
#include <string.h>

#include <xiri.h>

/* Called once per finding of xiri_check(); the diag is valid only here. */
static int print_diag(void *user, const struct xiri_diag *d)
{
    (void)user;
    printf("check: %s %s at byte %zu\n", xiri_severity_name(d->severity),
           d->code, d->offset);
    return 0; /* go on */
}

int main(void)
{
    const char *iri = "http://r\xC3\xA9sum\xC3\xA9.example.org/D\xC3\xBCrst";
    const char *leiri = "http://example.org/a b";
    struct xiri_ctx *ctx = NULL;
    struct xiri *parsed = NULL;
    struct xiri_error err;
    enum xiri_status st;
    const char *host;
    char *out = NULL;
    size_t len;
    int worst;

    /* Parsing: the components are borrowed from the object. */
    st = xiri_parse(iri, strlen(iri), XIRI_PROFILE_RFC3987, &parsed, &err);
    if (st != XIRI_OK) {
        fprintf(stderr, "parse: %s\n", err.message);
        return 1;
    }
    host = xiri_part(parsed, XIRI_PART_HOST, &len, NULL);
    printf("host: %.*s\n", (int)len, host);
    xiri_free(parsed);

    /* A failure: the status and the offset of the first bad byte. */
    st = xiri_parse("a b", 3, XIRI_PROFILE_RFC3987, &parsed, &err);
    printf("parse \"a b\": %s at byte %zu\n", xiri_strerror(st), err.offset);

    /* Resolution (RFC 3986 5.4.1): the result belongs to the caller. */
    st = xiri_resolve("http://a/b/c/d;p?q", 18, "../g", 4,
                      XIRI_PROFILE_RFC3987, &out, &len, &err);
    if (st != XIRI_OK) {
        fprintf(stderr, "resolve: %s\n", err.message);
        return 1;
    }
    printf("resolved: %s\n", out);
    xiri_str_free(out);

    /* IDNA needs a context: one per thread. */
    if (xiri_ctx_new(&ctx) != XIRI_OK)
        return 1;
    st = xiri_to_uri(ctx, iri, strlen(iri), XIRI_IDN_PUNYCODE, 0, &out, &len,
                     &err);
    if (st != XIRI_OK) {
        fprintf(stderr, "to-uri: %s\n", err.message);
        xiri_ctx_free(ctx);
        return 1;
    }
    printf("uri: %s\n", out);
    xiri_str_free(out);

    /* Findings are not failures: they go to the callback. */
    st = xiri_check(ctx, leiri, strlen(leiri), XIRI_PROFILE_LEIRI, print_diag,
                    NULL, &worst);
    printf("worst: %s\n", worst < 0 ? "none"
                          : xiri_severity_name((enum xiri_severity)worst));
    xiri_ctx_free(ctx);
    printf("version: %s\n", xiri_version());
    return st == XIRI_OK ? 0 : 1;
}

/* fuzz_resolve.c - libFuzzer target: resolve the part after the first
 * newline against the part before it.  A resolved result must itself be a
 * valid absolute reference.  Resolving it again against the same base
 * takes it as it is except for its dot segments (RFC 3986 5.2.2: a
 * reference with a scheme only goes through remove_dot_segments, which
 * the result of an empty-path reference has not been through), so a second
 * round must change nothing more: remove_dot_segments, with the "/.//"
 * guard, is idempotent.  And the same part as an HTML attribute value
 * (xiri_html_url): what browsers parse is NUL-terminated, read so again
 * it stays the same, and its resolution, when there is one, is a valid
 * absolute reference under the html profile.  As a link of an HTML
 * document (xiri_link_resolve), a resolution browsers would make is a
 * valid absolute reference, which a second round takes as browsers read
 * it and a third leaves the same; and one they fail on is one
 * xiri_check_link reports an error on, at places inside the value. */
#include "fuzz.h"
#include "xiri.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void html_round(const char *base, const char *v, size_t n)
{
    char *url = NULL, *again = NULL, *out = NULL;
    size_t len, again_len, out_len;
    struct xiri *iri = NULL;
    enum xiri_status st = xiri_html_url(v, n, base, &url, &len);

    if (st != XIRI_OK) {
        FUZZ_ASSERT(st == XIRI_ELIMIT && url == NULL);
        return;
    }
    FUZZ_ASSERT(url[len] == '\0');
    FUZZ_ASSERT(xiri_html_url(url, len, base, &again, &again_len) == XIRI_OK);
    FUZZ_ASSERT(again_len == len && memcmp(again, url, len) == 0);
    if (xiri_resolve(base, strlen(base), url, len, XIRI_PROFILE_HTML, &out,
                     &out_len, NULL) == XIRI_OK) {
        FUZZ_ASSERT(xiri_parse(out, out_len, XIRI_PROFILE_HTML, &iri, NULL) ==
                    XIRI_OK);
        FUZZ_ASSERT(xiri_is_absolute(iri));
        xiri_free(iri);
    }
    xiri_str_free(out);
    xiri_str_free(again);
    xiri_str_free(url);
}

/* Each finding of xiri_check_link lies inside the value. */
static int in_value(void *user, const struct xiri_diag *d)
{
    const size_t *n = user;

    FUZZ_ASSERT(d->offset <= *n);
    FUZZ_ASSERT(d->length <= *n - d->offset);
    return 0;
}

/* The link l, which xiri_link_resolve gave st: where browsers fail on it
 * (XIRI_ESYNTAX), xiri_check_link reports an error.  (Not the other way:
 * a bidi formatting character is an error of RFC 3987 that browsers
 * accept.)  Only for a value without C0 controls or spaces at its ends,
 * which xiri_link_resolve strips and the walker's links never have, and
 * against an absolute base. */
static void check_round(struct xiri_ctx *ctx, const struct xiri_link *l,
                        enum xiri_status st)
{
    int worst = -1;
    size_t n = l->value_len;
    struct xiri *b = NULL;
    bool absolute;

    if (l->value_len == 0 || (unsigned char)l->value[0] <= 0x20 ||
        (unsigned char)l->value[l->value_len - 1] <= 0x20)
        return;
    /* a base as the walker gives them: an absolute IRI */
    if (xiri_parse(l->base, strlen(l->base), XIRI_PROFILE_HTML, &b, NULL) !=
        XIRI_OK)
        return;
    absolute = xiri_is_absolute(b);
    xiri_free(b);
    if (!absolute)
        return;
    FUZZ_ASSERT(xiri_check_link(ctx, NULL, l, in_value, &n, &worst) == XIRI_OK);
    if (st == XIRI_ESYNTAX)
        FUZZ_ASSERT(worst == XIRI_SEV_ERROR);
}

static void link_round(struct xiri_ctx *ctx, const char *base, const char *v,
                       size_t n)
{
    struct xiri_link l;
    char *out = NULL, *again = NULL, *third = NULL;
    size_t len, again_len, third_len;
    struct xiri *iri = NULL;
    enum xiri_status st;

    memset(&l, 0, sizeof(l));
    l.value = v;
    l.value_len = n;
    l.base = base;
    l.profile = XIRI_PROFILE_HTML;
    l.element = "a";
    l.attribute = "href";
    st = xiri_link_resolve(ctx, &l, &out, &len, NULL);
    check_round(ctx, &l, st);
    if (st != XIRI_OK) {
        FUZZ_ASSERT(out == NULL);
        return;
    }
    FUZZ_ASSERT(out[len] == '\0');
    FUZZ_ASSERT(xiri_parse(out, len, XIRI_PROFILE_HTML, &iri, NULL) == XIRI_OK);
    FUZZ_ASSERT(xiri_is_absolute(iri));
    xiri_free(iri);
    /* read again as an attribute, a result that ends in a C0 control or
     * a space would lose it (browsers write it escaped, %1B) */
    if (len > 0 && (unsigned char)out[len - 1] <= 0x20) {
        xiri_str_free(out);
        return;
    }
    /* the rounds below need a base browsers accept as it is (the
     * walker's bases are such): an empty reference gives the base */
    l.value = base;
    l.value_len = strlen(base);
    l.base = NULL;
    if (xiri_link_resolve(ctx, &l, &again, &again_len, NULL) != XIRI_OK ||
        again_len != l.value_len || memcmp(again, base, again_len) != 0) {
        xiri_str_free(again);
        xiri_str_free(out);
        return;
    }
    xiri_str_free(again);
    again = NULL;
    l.base = base;
    /* the result of an empty reference is the base's path, which has not
     * been through remove_dot_segments (RFC 3986 5.2.2): a second round
     * may remove them, a third changes nothing */
    l.value = out;
    l.value_len = len;
    FUZZ_ASSERT(xiri_link_resolve(ctx, &l, &again, &again_len, NULL) ==
                XIRI_OK);
    l.value = again;
    l.value_len = again_len;
    FUZZ_ASSERT(xiri_link_resolve(ctx, &l, &third, &third_len, NULL) ==
                XIRI_OK);
    FUZZ_ASSERT(third_len == again_len &&
                memcmp(third, again, again_len) == 0);
    xiri_str_free(third);
    xiri_str_free(again);
    xiri_str_free(out);
}

static struct xiri_ctx *ctx; /* kept for the whole run */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data, *nl;
    char *out = NULL, *again = NULL, *third = NULL;
    size_t blen, out_len, again_len, third_len;
    struct xiri_error err;
    struct xiri *iri = NULL;

    nl = memchr(s, '\n', size);
    if (!nl)
        return 0;
    blen = (size_t)(nl - s);
    if (!memchr(s, '\0', blen)) {
        char *base = malloc(blen + 1);

        FUZZ_ASSERT(base != NULL);
        memcpy(base, s, blen);
        base[blen] = '\0';
        html_round(base, nl + 1, size - blen - 1);
        if (ctx || xiri_ctx_new(&ctx) == XIRI_OK)
            link_round(ctx, base, nl + 1, size - blen - 1);
        free(base);
    }
    if (xiri_resolve(s, blen, nl + 1, size - blen - 1, XIRI_PROFILE_LEIRI,
                     &out, &out_len, &err) != XIRI_OK) {
        FUZZ_ASSERT(out == NULL);
        return 0;
    }
    FUZZ_ASSERT(out[out_len] == '\0'); /* LEIRI allows NUL inside */
    FUZZ_ASSERT(xiri_parse(out, out_len, XIRI_PROFILE_LEIRI, &iri, &err) ==
                XIRI_OK);
    FUZZ_ASSERT(xiri_is_absolute(iri));
    xiri_free(iri);
    FUZZ_ASSERT(xiri_resolve(s, blen, out, out_len, XIRI_PROFILE_LEIRI,
                             &again, &again_len, &err) == XIRI_OK);
    FUZZ_ASSERT(xiri_resolve(s, blen, again, again_len, XIRI_PROFILE_LEIRI,
                             &third, &third_len, &err) == XIRI_OK);
    FUZZ_ASSERT(third_len == again_len &&
                memcmp(third, again, again_len) == 0);
    xiri_str_free(third);
    xiri_str_free(again);
    xiri_str_free(out);
    return 0;
}

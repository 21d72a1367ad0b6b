/* fuzz_parse.c - libFuzzer target: parse and check one reference under
 * the profile chosen by the first byte; the parser's answer must agree
 * with xiri_is_valid and the components must tile the text, and each
 * finding of xiri_check must lie inside it (under the html profile they
 * are placed back from the reference as browsers read it), none reported
 * twice. */
#include "fuzz.h"
#include "xiri.h"

#include <string.h>

/* The first findings of one check, to tell a finding reported twice. */
#define SEEN_MAX 64

struct count {
    size_t n, len;
    struct {
        const char *code;
        size_t offset, length;
        uint32_t codepoint;
    } seen[SEEN_MAX];
};

static int count_diag(void *user, const struct xiri_diag *d)
{
    struct count *c = user;
    size_t i;

    FUZZ_ASSERT(d->code && d->message && d->section);
    FUZZ_ASSERT(d->offset <= c->len && d->length <= c->len - d->offset);
    for (i = 0; i < c->n && i < SEEN_MAX; i++)
        FUZZ_ASSERT(!(strcmp(c->seen[i].code, d->code) == 0 &&
                      c->seen[i].offset == d->offset &&
                      c->seen[i].length == d->length &&
                      c->seen[i].codepoint == d->codepoint));
    if (c->n < SEEN_MAX) {
        c->seen[c->n].code = d->code;
        c->seen[c->n].offset = d->offset;
        c->seen[c->n].length = d->length;
        c->seen[c->n].codepoint = d->codepoint;
    }
    c->n++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct xiri_ctx *ctx;
    enum xiri_profile profile;
    struct xiri *iri = NULL;
    struct xiri_error err;
    const char *s;
    size_t len;
    static struct count c;
    int worst;

    if (size == 0)
        return 0;
    if (!ctx && xiri_ctx_new(&ctx) != XIRI_OK)
        abort();
    profile = (enum xiri_profile)(data[0] % XIRI_PROFILE_COUNT);
    s = (const char *)data + 1;
    len = size - 1;
    if (xiri_parse(s, len, profile, &iri, &err) == XIRI_OK) {
        const char *text = xiri_text(iri, NULL), *p;
        size_t plen, off;
        int i;

        FUZZ_ASSERT(xiri_is_valid(s, len, profile));
        FUZZ_ASSERT(memcmp(text, s, len) == 0);
        for (i = 0; i < XIRI_PART_COUNT; i++) {
            p = xiri_part(iri, (enum xiri_part)i, &plen, &off);
            if (p)
                FUZZ_ASSERT(off + plen <= len && p == text + off);
        }
        FUZZ_ASSERT(xiri_part(iri, XIRI_PART_PATH, &plen, &off) != NULL);
        xiri_free(iri);
    } else {
        FUZZ_ASSERT(iri == NULL);
        FUZZ_ASSERT(!xiri_is_valid(s, len, profile));
        FUZZ_ASSERT(err.offset <= len);
    }
    c.n = 0;
    c.len = len;
    FUZZ_ASSERT(xiri_check(ctx, s, len, profile, count_diag, &c, &worst) ==
                XIRI_OK);
    FUZZ_ASSERT((c.n == 0) == (worst == -1));
    return 0;
}

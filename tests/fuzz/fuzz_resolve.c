/* fuzz_resolve.c - libFuzzer target: resolve the part after the first
 * newline against the part before it.  A resolved result must itself be a
 * valid absolute reference.  Resolving it again against the same base
 * takes it as it is except for its dot segments (RFC 3986 5.2.2: a
 * reference with a scheme only goes through remove_dot_segments, which
 * the result of an empty-path reference has not been through), so a second
 * round must change nothing more: remove_dot_segments, with the "/.//"
 * guard, is idempotent. */
#include "fuzz.h"
#include "xiri.h"

#include <string.h>

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

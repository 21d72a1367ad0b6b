/* fuzz_map.c - libFuzzer target for the IRI <-> URI mappings (RFC 3987
 * sections 3.1 and 3.2), asserting their properties: to-uri gives a valid
 * URI and is idempotent; for a URI u, to-uri(to-iri(u)) is equivalent to
 * u (same string once hex digits are upper-cased and escapes of unreserved
 * characters other than '.' are decoded, checked by a small oracle here,
 * independent of the library's own normalizer). */
#include "fuzz.h"
#include "xiri.h"

#include <string.h>

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int unreserved(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '~';
}

/* The oracle's canonical form, written into out (at least len + 1). */
static size_t canon(const char *s, size_t len, char *out)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t i = 0, o = 0;

    while (i < len) {
        if (s[i] == '%' && i + 2 < len && hexval(s[i + 1]) >= 0 &&
            hexval(s[i + 2]) >= 0) {
            int v = hexval(s[i + 1]) * 16 + hexval(s[i + 2]);
            if (unreserved(v)) {
                out[o++] = (char)v;
            } else {
                out[o++] = '%';
                out[o++] = hex[v >> 4];
                out[o++] = hex[v & 15];
            }
            i += 3;
        } else {
            out[o++] = s[i++];
        }
    }
    out[o] = '\0';
    return o;
}

static void check_equivalent(const char *a, size_t alen, const char *b,
                             size_t blen)
{
    char *ca = malloc(alen + 1), *cb = malloc(blen + 1);
    size_t la, lb;

    FUZZ_ASSERT(ca && cb);
    la = canon(a, alen, ca);
    lb = canon(b, blen, cb);
    FUZZ_ASSERT(la == lb && memcmp(ca, cb, la) == 0);
    free(ca);
    free(cb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    char *uri = NULL, *twice = NULL, *iri = NULL, *back = NULL;
    size_t uri_len, twice_len, iri_len, back_len;

    if (xiri_to_uri(NULL, s, size, XIRI_IDN_PERCENT, XIRI_MAP_ESCAPE_LEIRI,
                    &uri, &uri_len, NULL) == XIRI_OK) {
        FUZZ_ASSERT(xiri_is_valid(uri, uri_len, XIRI_PROFILE_URI));
        FUZZ_ASSERT(xiri_to_uri(NULL, uri, uri_len, XIRI_IDN_PERCENT, 0,
                                &twice, &twice_len, NULL) == XIRI_OK);
        FUZZ_ASSERT(twice_len == uri_len && memcmp(twice, uri, uri_len) == 0);
        xiri_str_free(twice);
        xiri_str_free(uri);
    }
    if (xiri_is_valid(s, size, XIRI_PROFILE_URI)) {
        FUZZ_ASSERT(xiri_to_iri(NULL, s, size, XIRI_IDN_PERCENT, &iri,
                                &iri_len, NULL) == XIRI_OK);
        FUZZ_ASSERT(xiri_is_valid(iri, iri_len, XIRI_PROFILE_RFC3987));
        FUZZ_ASSERT(xiri_to_uri(NULL, iri, iri_len, XIRI_IDN_PERCENT, 0,
                                &back, &back_len, NULL) == XIRI_OK);
        check_equivalent(s, size, back, back_len);
        xiri_str_free(back);
        xiri_str_free(iri);
    }
    return 0;
}

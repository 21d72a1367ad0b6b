/* zld.c - placeholder until the codec lands. */
#include "common.h"

enum xiri_status xiri_zld_encode(const char *s, size_t len, char **out,
                                 size_t *out_len, struct xiri_error *err)
{
    (void)s, (void)len, (void)out_len;
    *out = NULL;
    return error_set(err, XIRI_EINVAL, 0, "not implemented yet");
}

enum xiri_status xiri_zld_decode(const char *s, size_t len, char **out,
                                 size_t *out_len, struct xiri_error *err)
{
    (void)s, (void)len, (void)out_len;
    *out = NULL;
    return error_set(err, XIRI_EINVAL, 0, "not implemented yet");
}

/* codes.c - placeholder until the catalogue lands. */
#include "common.h"

const struct xiri_code_info *xiri_code_lookup(const char *code)
{
    (void)code;
    return NULL;
}

const struct xiri_code_info *xiri_code_at(size_t i)
{
    (void)i;
    return NULL;
}

/* iri.c - the public parsed-reference object: one copy of the text and the
 * byte spans of its components (RFC 3986 section 3). */
#include "common.h"
#include "mem.h"
#include "parse.h"

struct xiri {
    char *text;
    size_t len;
    struct ref ref;
};

enum xiri_status xiri_parse(const char *s, size_t len,
                            enum xiri_profile profile, struct xiri **out,
                            struct xiri_error *err)
{
    struct xiri *iri;
    struct ref ref;
    enum xiri_status st;

    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if ((!s && len) || (unsigned)profile >= XIRI_PROFILE_COUNT)
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    st = ref_parse(s ? s : "", len, profile, &ref, NULL, err);
    if (st != XIRI_OK)
        return st;
    iri = mem_alloc(sizeof(*iri));
    if (!iri)
        return error_set(err, XIRI_ENOMEM, 0, "out of memory");
    iri->text = mem_strndup(s ? s : "", len);
    if (!iri->text) {
        mem_free(iri);
        return error_set(err, XIRI_ENOMEM, 0, "out of memory");
    }
    iri->len = len;
    iri->ref = ref;
    *out = iri;
    return XIRI_OK;
}

void xiri_free(struct xiri *iri)
{
    if (!iri)
        return;
    mem_free(iri->text);
    mem_free(iri);
}

const char *xiri_text(const struct xiri *iri, size_t *len)
{
    if (!iri)
        return NULL;
    if (len)
        *len = iri->len;
    return iri->text;
}

const char *xiri_part(const struct xiri *iri, enum xiri_part part,
                      size_t *len, size_t *offset)
{
    const struct span *sp;

    if (!iri || (unsigned)part >= XIRI_PART_COUNT)
        return NULL;
    sp = &iri->ref.part[part];
    if (!sp->set)
        return NULL;
    if (len)
        *len = sp->len;
    if (offset)
        *offset = sp->off;
    return iri->text + sp->off;
}

int xiri_is_absolute(const struct xiri *iri)
{
    return iri && iri->ref.part[XIRI_PART_SCHEME].set;
}

const char *xiri_part_name(enum xiri_part part)
{
    static const char *const names[XIRI_PART_COUNT] = {
        "scheme", "authority", "userinfo", "host",
        "port", "path", "query", "fragment",
    };

    if ((unsigned)part >= XIRI_PART_COUNT)
        return "none";
    return names[part];
}

int xiri_is_valid(const char *s, size_t len, enum xiri_profile profile)
{
    struct ref ref;

    if ((!s && len) || (unsigned)profile >= XIRI_PROFILE_COUNT)
        return 0;
    return ref_parse(s ? s : "", len, profile, &ref, NULL, NULL) == XIRI_OK;
}

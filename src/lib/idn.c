/* idn.c - UTS #46 processing (IDNA) with ICU's uidna API. */
#include "common.h"
#include "idn.h"
#include "mem.h"

#include <stdio.h>
#include <unicode/uidna.h>

struct idn {
    UIDNA *uidna;
};

enum xiri_status idn_open(unsigned options, struct idn **out)
{
    UErrorCode ec = U_ZERO_ERROR;
    uint32_t opts = UIDNA_NONTRANSITIONAL_TO_ASCII |
                    UIDNA_NONTRANSITIONAL_TO_UNICODE | UIDNA_CHECK_BIDI |
                    UIDNA_CHECK_CONTEXTJ;
    struct idn *idn;

    *out = NULL;
    if (!(options & IDN_NO_STD3))
        opts |= UIDNA_USE_STD3_RULES;
    idn = mem_alloc(sizeof(*idn));
    if (!idn)
        return XIRI_ENOMEM;
    idn->uidna = uidna_openUTS46(opts, &ec);
    if (U_FAILURE(ec)) {
        mem_free(idn);
        return ec == U_MEMORY_ALLOCATION_ERROR ? XIRI_ENOMEM : XIRI_EUNICODE;
    }
    *out = idn;
    return XIRI_OK;
}

void idn_close(struct idn *idn)
{
    if (!idn)
        return;
    uidna_close(idn->uidna);
    mem_free(idn);
}

enum xiri_status idn_for_ctx(struct xiri_ctx *ctx, struct idn **out)
{
    enum xiri_status st = XIRI_OK;

    if (!ctx)
        return XIRI_EINVAL;
    if (!ctx->idn)
        st = idn_open(IDN_DEFAULT_OPTIONS, &ctx->idn);
    *out = ctx->idn;
    return st;
}

typedef int32_t convert_fn(const UIDNA *, const char *, int32_t, char *,
                           int32_t, UIDNAInfo *, UErrorCode *);

static enum xiri_status convert(struct idn *idn, convert_fn *fn,
                                const char *s, size_t n, struct buf *out,
                                uint32_t *errors)
{
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode ec = U_ZERO_ERROR;
    int32_t need;
    size_t room;

    if (n > INT32_MAX / 4)
        return XIRI_ELIMIT;
    /* UTS #46 output rarely exceeds 4 times the input; retry once with
     * the size ICU asks for. */
    room = n * 4 + 16;
    if (!buf_reserve(out, room))
        return out->status;
    need = fn(idn->uidna, s, (int32_t)n, out->data + out->len, (int32_t)room,
              &info, &ec);
    if (ec == U_BUFFER_OVERFLOW_ERROR) {
        ec = U_ZERO_ERROR;
        room = (size_t)need;
        if (!buf_reserve(out, room))
            return out->status;
        info = (UIDNAInfo)UIDNA_INFO_INITIALIZER;
        need = fn(idn->uidna, s, (int32_t)n, out->data + out->len,
                  (int32_t)room, &info, &ec);
    }
    if (U_FAILURE(ec))
        return ec == U_MEMORY_ALLOCATION_ERROR ? XIRI_ENOMEM : XIRI_EUNICODE;
    out->len += (size_t)need;
    *errors = info.errors;
    return XIRI_OK;
}

enum xiri_status idn_to_ascii(struct idn *idn, const char *s, size_t n,
                              struct buf *out, uint32_t *errors)
{
    return convert(idn, uidna_nameToASCII_UTF8, s, n, out, errors);
}

enum xiri_status idn_to_unicode(struct idn *idn, const char *s, size_t n,
                                struct buf *out, uint32_t *errors)
{
    return convert(idn, uidna_nameToUnicodeUTF8, s, n, out, errors);
}

void idn_describe_errors(uint32_t errors, char *out, size_t size)
{
    /* The UTS #46 section 4 steps behind each ICU bit. */
    static const struct {
        uint32_t bit;
        const char *words;
    } names[] = {
        {UIDNA_ERROR_EMPTY_LABEL, "empty label"},
        {UIDNA_ERROR_LABEL_TOO_LONG, "label longer than 63 bytes"},
        {UIDNA_ERROR_DOMAIN_NAME_TOO_LONG, "name longer than 253 bytes"},
        {UIDNA_ERROR_LEADING_HYPHEN, "label starts with '-'"},
        {UIDNA_ERROR_TRAILING_HYPHEN, "label ends with '-'"},
        {UIDNA_ERROR_HYPHEN_3_4, "'--' in the third and fourth positions"},
        {UIDNA_ERROR_LEADING_COMBINING_MARK,
         "label starts with a combining mark"},
        {UIDNA_ERROR_DISALLOWED, "disallowed character"},
        {UIDNA_ERROR_PUNYCODE, "invalid punycode"},
        {UIDNA_ERROR_LABEL_HAS_DOT, "label contains a dot"},
        {UIDNA_ERROR_INVALID_ACE_LABEL, "invalid xn-- label"},
        {UIDNA_ERROR_BIDI, "violates the bidi rule (RFC 5893)"},
        {UIDNA_ERROR_CONTEXTJ, "misplaced zero-width joiner or non-joiner"},
        {UIDNA_ERROR_CONTEXTO_PUNCTUATION, "misplaced contextual punctuation"},
        {UIDNA_ERROR_CONTEXTO_DIGITS, "mixed Arabic-Indic digit sets"},
    };
    size_t i, used = 0;

    if (size == 0)
        return;
    out[0] = '\0';
    for (i = 0; i < ARRAY_LEN(names); i++) {
        int w;
        if (!(errors & names[i].bit))
            continue;
        w = snprintf(out + used, size - used, "%s%s", used ? ", " : "",
                     names[i].words);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
    }
}

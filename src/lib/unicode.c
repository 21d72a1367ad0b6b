/* unicode.c - ICU-backed Unicode services (see unicode.h): normalization
 * (UAX #15), bidi classes (UAX #9), general categories, UTS #39 spoof
 * checks and legacy converters. */
#include "common.h"
#include "chars.h"
#include "mem.h"
#include "unicode.h"

#include <unicode/uchar.h>
#include <unicode/ucnv.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

struct uni {
    USpoofChecker *spoof;
};

void uni_close(struct uni *u)
{
    if (!u)
        return;
    if (u->spoof)
        uspoof_close(u->spoof);
    mem_free(u);
}

static enum xiri_status icu_status(UErrorCode ec)
{
    if (ec == U_MEMORY_ALLOCATION_ERROR)
        return XIRI_ENOMEM;
    return U_FAILURE(ec) ? XIRI_EUNICODE : XIRI_OK;
}

static enum xiri_status uni_for_ctx(struct xiri_ctx *ctx, struct uni **out)
{
    if (!ctx)
        return XIRI_EINVAL;
    if (!ctx->uni) {
        ctx->uni = mem_alloc(sizeof(*ctx->uni));
        if (!ctx->uni)
            return XIRI_ENOMEM;
        ctx->uni->spoof = NULL;
    }
    *out = ctx->uni;
    return XIRI_OK;
}

/* UTF-8 to a fresh UTF-16 buffer (mem_free it). */
static enum xiri_status to_utf16(const char *s, size_t n, UChar **out,
                                 int32_t *out_len)
{
    UErrorCode ec = U_ZERO_ERROR;
    int32_t need;
    UChar *u;

    *out = NULL;
    if (n > INT32_MAX / 2)
        return XIRI_ELIMIT;
    u = mem_alloc((n + 1) * sizeof(UChar));
    if (!u)
        return XIRI_ENOMEM;
    u_strFromUTF8(u, (int32_t)n + 1, &need, s, (int32_t)n, &ec);
    if (U_FAILURE(ec)) {
        mem_free(u);
        return icu_status(ec);
    }
    *out = u;
    *out_len = need;
    return XIRI_OK;
}

static const UNormalizer2 *normalizer(enum uni_form form, UErrorCode *ec)
{
    return form == UNI_NFC ? unorm2_getNFCInstance(ec)
                           : unorm2_getNFKCInstance(ec);
}

enum xiri_status uni_is_normalized(struct xiri_ctx *ctx, enum uni_form form,
                                   const char *s, size_t n, bool *yes)
{
    UErrorCode ec = U_ZERO_ERROR;
    const UNormalizer2 *norm = normalizer(form, &ec);
    enum xiri_status st;
    UChar *u;
    int32_t ulen;
    size_t i;

    (void)ctx;
    if (U_FAILURE(ec))
        return icu_status(ec);
    for (i = 0; i < n && (unsigned char)s[i] < 0x80; i++)
        ;
    if (i == n) { /* ASCII is in every normalization form */
        *yes = true;
        return XIRI_OK;
    }
    st = to_utf16(s, n, &u, &ulen);
    if (st != XIRI_OK)
        return st;
    *yes = unorm2_isNormalized(norm, u, ulen, &ec) != 0;
    mem_free(u);
    return icu_status(ec);
}

enum xiri_status uni_normalize(struct xiri_ctx *ctx, enum uni_form form,
                               const char *s, size_t n, struct buf *out)
{
    UErrorCode ec = U_ZERO_ERROR;
    const UNormalizer2 *norm = normalizer(form, &ec);
    enum xiri_status st;
    UChar *u = NULL, *v = NULL;
    int32_t ulen, vlen, cap, need;

    (void)ctx;
    if (U_FAILURE(ec))
        return icu_status(ec);
    st = to_utf16(s, n, &u, &ulen);
    if (st != XIRI_OK)
        return st;
    /* NFKC can expand a character up to 18 times (U+FDFA) */
    cap = ulen < INT32_MAX / 18 ? ulen * 18 + 1 : 0;
    v = cap ? mem_alloc((size_t)cap * sizeof(UChar)) : NULL;
    if (!v) {
        mem_free(u);
        return cap ? XIRI_ENOMEM : XIRI_ELIMIT;
    }
    vlen = unorm2_normalize(norm, u, ulen, v, cap, &ec);
    if (U_SUCCESS(ec)) {
        u_strToUTF8(NULL, 0, &need, v, vlen, &ec);
        if (ec == U_BUFFER_OVERFLOW_ERROR)
            ec = U_ZERO_ERROR;
        if (U_SUCCESS(ec) && buf_reserve(out, (size_t)need)) {
            u_strToUTF8(out->data + out->len, need + 1, NULL, v, vlen, &ec);
            if (U_SUCCESS(ec))
                out->len += (size_t)need;
        }
    }
    mem_free(u);
    mem_free(v);
    if (out->status != XIRI_OK)
        return out->status;
    return icu_status(ec);
}

enum uni_dir uni_direction(uint32_t cp)
{
    switch (u_charDirection((UChar32)cp)) {
    case U_LEFT_TO_RIGHT:
        return UNI_DIR_LTR;
    case U_RIGHT_TO_LEFT:
    case U_RIGHT_TO_LEFT_ARABIC:
        return UNI_DIR_RTL;
    default:
        return UNI_DIR_OTHER;
    }
}

bool uni_is_assigned(uint32_t cp)
{
    return u_charType((UChar32)cp) != U_UNASSIGNED;
}

bool uni_is_noncharacter(uint32_t cp)
{
    return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

bool uni_is_control(uint32_t cp)
{
    return u_charType((UChar32)cp) == U_CONTROL_CHAR;
}

/* UTS #39 section 4: a label that is not ASCII but whose skeleton is (as
 * Cyrillic U+0430 U+0440 U+0435 has the skeleton "ape") looks like an
 * ASCII label: set UNI_SPOOF_WHOLE_SCRIPT. */
static enum xiri_status spoof_ascii_skeleton(const USpoofChecker *sc,
                                             const char *s, size_t n,
                                             unsigned *flags)
{
    UErrorCode ec = U_ZERO_ERROR;
    char small[256], *sk = small;
    int32_t need, i;
    size_t k;

    for (k = 0; k < n && (unsigned char)s[k] < 0x80; k++)
        ;
    if (k == n)
        return XIRI_OK; /* ASCII imitates nothing outside ASCII */
    need = uspoof_getSkeletonUTF8(sc, 0, s, (int32_t)n, small,
                                  (int32_t)sizeof(small), &ec);
    if (ec == U_BUFFER_OVERFLOW_ERROR) {
        ec = U_ZERO_ERROR;
        sk = mem_alloc((size_t)need + 1);
        if (!sk)
            return XIRI_ENOMEM;
        need = uspoof_getSkeletonUTF8(sc, 0, s, (int32_t)n, sk, need + 1, &ec);
    }
    if (U_SUCCESS(ec)) {
        for (i = 0; i < need && (unsigned char)sk[i] < 0x80; i++)
            ;
        if (i == need)
            *flags |= UNI_SPOOF_WHOLE_SCRIPT;
    }
    if (sk != small)
        mem_free(sk);
    return icu_status(ec);
}

enum xiri_status uni_spoof_label(struct xiri_ctx *ctx, const char *s,
                                 size_t n, unsigned *flags)
{
    UErrorCode ec = U_ZERO_ERROR;
    struct uni *u;
    enum xiri_status st;
    int32_t res;

    *flags = 0;
    st = uni_for_ctx(ctx, &u);
    if (st != XIRI_OK)
        return st;
    if (!u->spoof) {
        u->spoof = uspoof_open(&ec);
        if (U_FAILURE(ec)) {
            u->spoof = NULL;
            return icu_status(ec);
        }
        /* UTS #39 section 5: the checks meaningful for one host label.
         * Since ICU 58 the single-string check no longer reports mixed- or
         * whole-script confusables (those bits only come from the
         * two-string uspoof_areConfusable): mixed scripts are found by
         * the restriction level (5.2, "highly restrictive"), whole-script
         * confusables by the skeleton below (section 4). */
        uspoof_setChecks(u->spoof, USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE,
                         &ec);
        uspoof_setRestrictionLevel(u->spoof, USPOOF_HIGHLY_RESTRICTIVE);
        if (U_FAILURE(ec))
            return icu_status(ec);
    }
    if (n > INT32_MAX / 4)
        return XIRI_ELIMIT;
    res = uspoof_checkUTF8(u->spoof, s, (int32_t)n, NULL, &ec);
    if (U_FAILURE(ec))
        return icu_status(ec);
    if (res & USPOOF_RESTRICTION_LEVEL)
        *flags |= UNI_SPOOF_MIXED_SCRIPT;
    if (res & USPOOF_INVISIBLE)
        *flags |= UNI_SPOOF_INVISIBLE;
    if (!(*flags & UNI_SPOOF_MIXED_SCRIPT))
        return spoof_ascii_skeleton(u->spoof, s, n, flags);
    return XIRI_OK;
}

/* Decode bytes with one converter, stopping at the first invalid or
 * unmappable byte; false when that happens or a control comes out. */
static bool decode_strict(const char *name, const unsigned char *bytes,
                          size_t n, struct buf *out)
{
    UErrorCode ec = U_ZERO_ERROR;
    UConverter *cv = ucnv_open(name, &ec);
    const char *src = (const char *)bytes, *end = src + n;
    UChar32 c;
    char tmp[4];
    size_t start = out->len;
    bool ok = true;

    if (U_FAILURE(ec))
        return false;
    ucnv_setToUCallBack(cv, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL, &ec);
    while (ok && src < end && U_SUCCESS(ec)) {
        c = ucnv_getNextUChar(cv, &src, end, &ec);
        if (U_FAILURE(ec) || c < 0x20 || (c >= 0x7F && c < 0xA0) ||
            c == 0xFFFD)
            ok = false;
        else
            buf_append(out, tmp, utf8_encode((uint32_t)c, tmp));
    }
    ucnv_close(cv);
    if (!ok || U_FAILURE(ec))
        out->len = start;
    return ok && U_SUCCESS(ec);
}

const char *uni_guess_legacy(const unsigned char *bytes, size_t n,
                             struct buf *out)
{
    static const char *const encodings[] = {
        "Shift_JIS", "EUC-JP", "EUC-KR", "GBK", "Big5", "windows-1252",
    };
    size_t i;

    for (i = 0; i < ARRAY_LEN(encodings); i++)
        if (decode_strict(encodings[i], bytes, n, out))
            return encodings[i];
    return NULL;
}

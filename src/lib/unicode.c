/* unicode.c - ICU-backed Unicode services (see unicode.h): normalization
 * (UAX #15), bidi classes (UAX #9), general categories, UTS #39 spoof
 * checks and legacy converters. */
#include "common.h"
#include "chars.h"
#include "mem.h"
#include "unicode.h"

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

/* uni_spoof_label's answers for the last labels, remembered: a document
 * names the same few internationalized hosts in link after link, and
 * ICU's UTS #39 checks of a label (uspoof_checkUTF8, the skeleton) cost
 * thousands of instructions.  The answer depends on nothing but the
 * label's bytes (the checks and the restriction level are set once), so a
 * remembered one is the one ICU would give.  Bounded: UNI_MEMO_SLOTS
 * labels of fewer than UNI_MEMO_MAX bytes, reused oldest first; a longer
 * label, or one whose check failed, is checked every time.  Like the rest
 * of struct uni it belongs to one context, which one thread uses at a
 * time (xiri.h). */
#define UNI_MEMO_SLOTS 16
#define UNI_MEMO_MAX 80

struct uni_memo {
    unsigned char key_len[UNI_MEMO_SLOTS]; /* length + 1, 0: empty */
    unsigned char flags[UNI_MEMO_SLOTS];
    unsigned next; /* the slot to fill next */
    char key[UNI_MEMO_SLOTS][UNI_MEMO_MAX];
};

struct uni {
    USpoofChecker *spoof;
    struct uni_memo spoof_memo;
    /* uni_encode_query's converters (the encoder and the probe), kept
     * open for the next query in the same encoding: opening one costs
     * far more than a query.  qname: their ICU name (mem_alloc'd), NULL
     * when none is open. */
    char *qname;
    UConverter *qcv, *qprobe;
};

static void uni_query_drop(struct uni *u)
{
    if (u->qcv)
        ucnv_close(u->qcv);
    if (u->qprobe)
        ucnv_close(u->qprobe);
    mem_free(u->qname);
    u->qname = NULL;
    u->qcv = u->qprobe = NULL;
}

void uni_close(struct uni *u)
{
    if (!u)
        return;
    if (u->spoof)
        uspoof_close(u->spoof);
    uni_query_drop(u);
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
        /* no checker, no converters, an empty memo */
        memset(ctx->uni, 0, sizeof(*ctx->uni));
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
    UChar *u, small[128];
    int32_t ulen;
    size_t i;

    (void)ctx;
    if (U_FAILURE(ec))
        return icu_status(ec);
    /* ASCII, U+00C0-U+00FF (C3 80-BF) and U+0100-U+0131 (C4 80-B1) are
     * starters with quick-check Yes in NFC and NFKC (UCD
     * DerivedNormalizationProps.txt; checked against ICU 72): a string of
     * them is in every form, without a conversion to UTF-16 */
    for (i = 0; i < n; i++) {
        unsigned char c;
        i = ascii_blocks(s, i, n); /* ASCII, eight bytes at a time */
        if (i == n)
            break;
        c = (unsigned char)s[i];
        if (c < 0x80)
            continue;
        if (i + 1 < n && (c == 0xC3 || c == 0xC4) &&
            (unsigned char)s[i + 1] >= 0x80 &&
            (unsigned char)s[i + 1] <= (c == 0xC3 ? 0xBF : 0xB1)) {
            i++;
            continue;
        }
        break;
    }
    if (i >= n) {
        *yes = true;
        return XIRI_OK;
    }
    if (n < ARRAY_LEN(small)) {
        /* n UTF-8 bytes are at most n UTF-16 units: no allocation */
        u_strFromUTF8(small, (int32_t)ARRAY_LEN(small), &ulen, s, (int32_t)n,
                      &ec);
        if (U_FAILURE(ec))
            return icu_status(ec);
        *yes = unorm2_isNormalized(norm, small, ulen, &ec) != 0;
        return icu_status(ec);
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

void uni_bidi_scan(const char *str, size_t n, struct uni_bidi_scan *out)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;

    memset(out, 0, sizeof(*out));
    out->first = out->last = UNI_DIR_OTHER;
    while (i < n) {
        uint32_t cp = s[i];
        size_t k = 1;
        enum uni_dir d;

        if (s[i] < 0x80) {
            d = ch_is(s[i], CH_ALPHA) ? UNI_DIR_LTR : UNI_DIR_OTHER;
        } else if ((k = utf8_decode(s + i, n - i, &cp)) == 0) {
            k = 1;
            cp = 0;
            d = UNI_DIR_OTHER;
        } else {
            d = uni_direction(cp);
        }
        if (i == 0) {
            out->first = d;
            out->first_cp = cp;
        }
        out->last = d;
        out->last_cp = cp;
        out->last_at = i;
        if (d == UNI_DIR_RTL && !out->rtl) {
            out->rtl = true;
            out->rtl_at = i;
            out->rtl_cp = cp;
        } else if (d == UNI_DIR_LTR && !out->ltr) {
            out->ltr = true;
            out->ltr_at = i;
            out->ltr_cp = cp;
        }
        i += k;
    }
}

const struct uni_bidi_part uni_bidi_parts[UNI_BIDI_PARTS] = {
    {XIRI_PART_USERINFO, ""},
    {XIRI_PART_HOST, "."},
    {XIRI_PART_PATH, "/."},
    {XIRI_PART_QUERY, "&;="},
    {XIRI_PART_FRAGMENT, ""}};

bool uni_bidi_well_formed(const struct uni_bidi_scan *b)
{
    return !b->rtl ||
           (!b->ltr && b->first == UNI_DIR_RTL && b->last == UNI_DIR_RTL);
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

/* The memo's flags for label s[0..n) in *flags, or false. */
static bool spoof_memo_find(const struct uni_memo *m, const char *s, size_t n,
                            unsigned *flags)
{
    int i;

    if (n >= UNI_MEMO_MAX)
        return false;
    for (i = 0; i < UNI_MEMO_SLOTS; i++)
        if (m->key_len[i] == n + 1 &&
            (n == 0 || memcmp(m->key[i], s, n) == 0)) {
            *flags = m->flags[i];
            return true;
        }
    return false;
}

static void spoof_memo_put(struct uni_memo *m, const char *s, size_t n,
                           unsigned flags)
{
    unsigned i = m->next;

    if (n >= UNI_MEMO_MAX)
        return;
    m->next = (i + 1) % UNI_MEMO_SLOTS;
    m->key_len[i] = (unsigned char)(n + 1);
    m->flags[i] = (unsigned char)flags;
    if (n > 0) /* s may be NULL then */
        memcpy(m->key[i], s, n);
}

/* The context's UTS #39 checker, opened and set up on first use. */
static enum xiri_status spoof_checker(struct uni *u)
{
    UErrorCode ec = U_ZERO_ERROR;

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
    return XIRI_OK;
}

/* RFC 3987 7.5 and 8: characters that look like the delimiters a reader
 * splits an IRI at.  Which ones: a punctuation mark or symbol (general
 * category P or S) of no script in particular (Script_Extensions Common
 * or Inherited: a script's own letters and punctuation, as Katakana
 * U+30CE or the Armenian full stop U+0589, are text in that script) whose
 * UTS #39 skeleton (section 4, the confusables data) is that delimiter
 * alone. */
bool uni_is_punct_or_symbol(uint32_t cp)
{
    return cp <= 0x10FFFF &&
           (U_GET_GC_MASK((UChar32)cp) & (U_GC_P_MASK | U_GC_S_MASK)) != 0;
}

bool uni_nfc_boundary_before(uint32_t cp)
{
    UErrorCode ec = U_ZERO_ERROR;
    const UNormalizer2 *nfc = unorm2_getNFCInstance(&ec);

    return U_FAILURE(ec) || cp > 0x10FFFF ||
           unorm2_hasBoundaryBefore(nfc, (UChar32)cp) != 0;
}

/* u[0..m) into out, NUL-ended, when it is one to three ASCII characters
 * (no NUL); false otherwise. */
static bool ascii_text(const UChar *u, int32_t m, char out[4])
{
    int32_t k;

    if (m < 1 || m > 3)
        return false;
    for (k = 0; k < m; k++) {
        if (u[k] == 0 || u[k] >= 0x80)
            return false;
        out[k] = (char)u[k];
    }
    out[m] = '\0';
    return true;
}

/* The NFC (or, compat, NFKC) form of cp into out, NUL-ended, when it is
 * one to three ASCII characters; false otherwise. */
static bool norm_ascii(uint32_t cp, bool compat, char out[4])
{
    UErrorCode ec = U_ZERO_ERROR;
    const UNormalizer2 *norm =
        compat ? unorm2_getNFKCInstance(&ec) : unorm2_getNFCInstance(&ec);
    UChar in[2], res[8];
    int32_t n = 0, m;

    if (U_FAILURE(ec) || cp < 0x80 || cp > 0x10FFFF)
        return false;
    U16_APPEND_UNSAFE(in, n, (UChar32)cp);
    m = unorm2_normalize(norm, in, n, res, 8, &ec);
    return U_SUCCESS(ec) && ascii_text(res, m, out);
}

/* Is s one of the delimiters / : ? # @ . & = % alone? */
static bool is_delimiter_text(const char *s)
{
    return s[0] && !s[1] && strchr("/:?#@.&=%", s[0]);
}

/* Would text s (one to three ASCII characters a character stands for)
 * pass for delimiters in an IRI: it holds one of / : ? # @ & = % ("??",
 * "a/c"), or it is "." or ".." (a dot segment; "..." is none)? */
static bool passes_for_delimiters(const char *s)
{
    return strpbrk(s, "/:?#@&=%") != NULL || strcmp(s, ".") == 0 ||
           strcmp(s, "..") == 0;
}

/* The UTS #39 skeleton of cp (section 4, the confusables data) as ASCII
 * into out, when it is one to three ASCII characters. */
static bool skeleton_ascii(struct uni *u, uint32_t cp, char out[4])
{
    UErrorCode ec = U_ZERO_ERROR;
    UChar in[2], res[8];
    int32_t n = 0, m;

    U16_APPEND_UNSAFE(in, n, (UChar32)cp);
    m = uspoof_getSkeleton(u->spoof, 0, in, n, res, 8, &ec);
    return U_SUCCESS(ec) && ascii_text(res, m, out);
}

bool uni_nfc_ascii(uint32_t cp)
{
    char a[4];

    return norm_ascii(cp, false, a);
}

bool uni_is_mark(uint32_t cp)
{
    return cp <= 0x10FFFF && (U_GET_GC_MASK((UChar32)cp) & U_GC_M_MASK) != 0;
}

enum xiri_status uni_passes_for_delimiter(struct xiri_ctx *ctx, uint32_t cp,
                                          bool any_category, bool *yes)
{
    struct uni *u;
    enum xiri_status st;
    char a[4];

    *yes = false;
    if (cp < 0x80 || (!any_category && !uni_is_punct_or_symbol(cp)))
        return XIRI_OK;
    if (norm_ascii(cp, true, a) && passes_for_delimiters(a)) {
        *yes = true;
        return XIRI_OK;
    }
    st = uni_for_ctx(ctx, &u);
    if (st == XIRI_OK)
        st = spoof_checker(u);
    if (st == XIRI_OK)
        *yes = skeleton_ascii(u, cp, a) && passes_for_delimiters(a);
    return st;
}

bool uni_delimiter_lookalike(struct xiri_ctx *ctx, uint32_t cp, char *ascii)
{
    UErrorCode ec = U_ZERO_ERROR;
    struct uni *u;
    char a[4];
    UScriptCode scripts[8];
    int32_t k, ns;

    if (cp < 0x80 || !uni_is_punct_or_symbol(cp))
        return false;
    /* Script_Extensions: a mark of Common script used by some scripts
     * only (the Mongolian full stop, the Katakana-Hiragana double hyphen)
     * is their punctuation */
    ns = uscript_getScriptExtensions((UChar32)cp, scripts, 8, &ec);
    if (U_FAILURE(ec))
        return false;
    for (k = 0; k < ns; k++)
        if (scripts[k] != USCRIPT_COMMON && scripts[k] != USCRIPT_INHERITED)
            return false;
    if (uni_for_ctx(ctx, &u) != XIRI_OK || spoof_checker(u) != XIRI_OK)
        return false;
    if (!skeleton_ascii(u, cp, a) || !is_delimiter_text(a))
        return false;
    *ascii = a[0];
    return true;
}

enum xiri_status uni_spoof_label(struct xiri_ctx *ctx, const char *s, size_t n,
                                 unsigned *flags)
{
    UErrorCode ec = U_ZERO_ERROR;
    struct uni *u;
    enum xiri_status st;
    int32_t res;

    *flags = 0;
    st = uni_for_ctx(ctx, &u);
    if (st != XIRI_OK)
        return st;
    st = spoof_checker(u);
    if (st != XIRI_OK)
        return st;
    if (n > INT32_MAX / 4)
        return XIRI_ELIMIT;
    if (spoof_memo_find(&u->spoof_memo, s, n, flags))
        return XIRI_OK;
    res = uspoof_checkUTF8(u->spoof, s, (int32_t)n, NULL, &ec);
    if (U_FAILURE(ec))
        return icu_status(ec);
    if (res & USPOOF_RESTRICTION_LEVEL)
        *flags |= UNI_SPOOF_MIXED_SCRIPT;
    if (res & USPOOF_INVISIBLE)
        *flags |= UNI_SPOOF_INVISIBLE;
    if (!(*flags & UNI_SPOOF_MIXED_SCRIPT)) {
        st = spoof_ascii_skeleton(u->spoof, s, n, flags);
        if (st != XIRI_OK)
            return st;
    }
    spoof_memo_put(&u->spoof_memo, s, n, *flags);
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

/* ------------------------------------------------------------------ */
/* URL queries in legacy documents (WHATWG URL, WHATWG Encoding)        */

/* The encodings whose WHATWG behaviour needs a name or a rule of its own;
 * UNI_Q_OTHER: any other label, given to ICU as it is. */
enum uni_qenc {
    UNI_Q_UTF8,
    UNI_Q_1252,
    UNI_Q_1254,
    UNI_Q_874,
    UNI_Q_8859_8,
    UNI_Q_KOI8U,
    UNI_Q_MACCYR,
    UNI_Q_GBK,
    UNI_Q_GB18030,
    UNI_Q_BIG5,
    UNI_Q_EUCJP,
    UNI_Q_2022JP,
    UNI_Q_SJIS,
    UNI_Q_EUCKR,
    UNI_Q_OTHER
};

/* The WHATWG name, and the ICU converter closest to the WHATWG encoder
 * (EUC-KR is windows-949, Big5 encodes without the HKSCS extension). */
static const struct {
    const char *name;
    const char *icu;
} uni_qencs[] = {
    [UNI_Q_UTF8] = {"UTF-8", "UTF-8"},
    [UNI_Q_1252] = {"windows-1252", "windows-1252"},
    [UNI_Q_1254] = {"windows-1254", "windows-1254"},
    [UNI_Q_874] = {"windows-874", "windows-874"},
    [UNI_Q_8859_8] = {"ISO-8859-8-I", "ISO-8859-8"},
    [UNI_Q_KOI8U] = {"KOI8-U", "KOI8-U"},
    [UNI_Q_MACCYR] = {"x-mac-cyrillic", "x-mac-cyrillic"},
    [UNI_Q_GBK] = {"GBK", "GBK"},
    [UNI_Q_GB18030] = {"gb18030", "gb18030"},
    [UNI_Q_BIG5] = {"Big5", "windows-950"},
    [UNI_Q_EUCJP] = {"EUC-JP", "EUC-JP"},
    [UNI_Q_2022JP] = {"ISO-2022-JP", "ISO-2022-JP"},
    [UNI_Q_SJIS] = {"Shift_JIS", "windows-31j"},
    [UNI_Q_EUCKR] = {"EUC-KR", "windows-949"},
};

/* WHATWG Encoding 4.2 "Names and labels": the labels whose meaning for a
 * browser differs from ICU's reading of the same name, or that ICU does
 * not know.  UTF-16BE, UTF-16LE and the replacement encoding are listed
 * as UTF-8: their output encoding (4.3) is UTF-8. */
static const struct {
    const char *label;
    unsigned char enc;
} uni_qlabels[] = {
    {"unicode-1-1-utf-8", UNI_Q_UTF8},
    {"unicode11utf8", UNI_Q_UTF8},
    {"unicode20utf8", UNI_Q_UTF8},
    {"utf-8", UNI_Q_UTF8},
    {"utf8", UNI_Q_UTF8},
    {"x-unicode20utf8", UNI_Q_UTF8},
    {"unicodefffe", UNI_Q_UTF8}, /* UTF-16BE */
    {"utf-16be", UNI_Q_UTF8},
    {"csunicode", UNI_Q_UTF8}, /* UTF-16LE */
    {"iso-10646-ucs-2", UNI_Q_UTF8},
    {"ucs-2", UNI_Q_UTF8},
    {"unicode", UNI_Q_UTF8},
    {"unicodefeff", UNI_Q_UTF8},
    {"utf-16", UNI_Q_UTF8},
    {"utf-16le", UNI_Q_UTF8},
    {"csiso2022kr", UNI_Q_UTF8}, /* replacement */
    {"hz-gb-2312", UNI_Q_UTF8},
    {"iso-2022-cn", UNI_Q_UTF8},
    {"iso-2022-cn-ext", UNI_Q_UTF8},
    {"iso-2022-kr", UNI_Q_UTF8},
    {"replacement", UNI_Q_UTF8},
    {"ansi_x3.4-1968", UNI_Q_1252},
    {"ascii", UNI_Q_1252},
    {"cp1252", UNI_Q_1252},
    {"cp819", UNI_Q_1252},
    {"csisolatin1", UNI_Q_1252},
    {"ibm819", UNI_Q_1252},
    {"iso-8859-1", UNI_Q_1252},
    {"iso-ir-100", UNI_Q_1252},
    {"iso8859-1", UNI_Q_1252},
    {"iso88591", UNI_Q_1252},
    {"iso_8859-1", UNI_Q_1252},
    {"iso_8859-1:1987", UNI_Q_1252},
    {"l1", UNI_Q_1252},
    {"latin1", UNI_Q_1252},
    {"us-ascii", UNI_Q_1252},
    {"windows-1252", UNI_Q_1252},
    {"x-cp1252", UNI_Q_1252},
    {"cp1254", UNI_Q_1254},
    {"csisolatin5", UNI_Q_1254},
    {"iso-8859-9", UNI_Q_1254},
    {"iso-ir-148", UNI_Q_1254},
    {"iso8859-9", UNI_Q_1254},
    {"iso88599", UNI_Q_1254},
    {"iso_8859-9", UNI_Q_1254},
    {"iso_8859-9:1989", UNI_Q_1254},
    {"l5", UNI_Q_1254},
    {"latin5", UNI_Q_1254},
    {"windows-1254", UNI_Q_1254},
    {"x-cp1254", UNI_Q_1254},
    {"dos-874", UNI_Q_874},
    {"iso-8859-11", UNI_Q_874},
    {"iso8859-11", UNI_Q_874},
    {"iso885911", UNI_Q_874},
    {"tis-620", UNI_Q_874},
    {"windows-874", UNI_Q_874},
    {"csiso88598i", UNI_Q_8859_8},
    {"iso-8859-8-i", UNI_Q_8859_8},
    {"logical", UNI_Q_8859_8},
    {"koi8-ru", UNI_Q_KOI8U},
    {"koi8-u", UNI_Q_KOI8U},
    {"x-mac-cyrillic", UNI_Q_MACCYR},
    {"x-mac-ukrainian", UNI_Q_MACCYR},
    {"chinese", UNI_Q_GBK},
    {"csgb2312", UNI_Q_GBK},
    {"csiso58gb231280", UNI_Q_GBK},
    {"gb2312", UNI_Q_GBK},
    {"gb_2312", UNI_Q_GBK},
    {"gb_2312-80", UNI_Q_GBK},
    {"gbk", UNI_Q_GBK},
    {"iso-ir-58", UNI_Q_GBK},
    {"x-gbk", UNI_Q_GBK},
    {"gb18030", UNI_Q_GB18030},
    {"big5", UNI_Q_BIG5},
    {"big5-hkscs", UNI_Q_BIG5},
    {"cn-big5", UNI_Q_BIG5},
    {"csbig5", UNI_Q_BIG5},
    {"x-x-big5", UNI_Q_BIG5},
    {"cseucpkdfmtjapanese", UNI_Q_EUCJP},
    {"euc-jp", UNI_Q_EUCJP},
    {"x-euc-jp", UNI_Q_EUCJP},
    {"csiso2022jp", UNI_Q_2022JP},
    {"iso-2022-jp", UNI_Q_2022JP},
    {"csshiftjis", UNI_Q_SJIS},
    {"ms932", UNI_Q_SJIS},
    {"ms_kanji", UNI_Q_SJIS},
    {"shift-jis", UNI_Q_SJIS},
    {"shift_jis", UNI_Q_SJIS},
    {"sjis", UNI_Q_SJIS},
    {"windows-31j", UNI_Q_SJIS},
    {"x-sjis", UNI_Q_SJIS},
    {"cseuckr", UNI_Q_EUCKR},
    {"csksc56011987", UNI_Q_EUCKR},
    {"euc-kr", UNI_Q_EUCKR},
    {"iso-ir-149", UNI_Q_EUCKR},
    {"korean", UNI_Q_EUCKR},
    {"ks_c_5601-1987", UNI_Q_EUCKR},
    {"ks_c_5601-1989", UNI_Q_EUCKR},
    {"ksc5601", UNI_Q_EUCKR},
    {"ksc_5601", UNI_Q_EUCKR},
    {"windows-949", UNI_Q_EUCKR},
};

/* WHATWG Encoding 4.2 "get an encoding": strip leading and trailing ASCII
 * whitespace, then match a label ASCII case-insensitively. */
static enum uni_qenc uni_qenc_of_label(const char *label)
{
    size_t b = 0, e = strlen(label), i, k;

    while (b < e && ch_is_ascii_space((unsigned char)label[b]))
        b++;
    while (e > b && ch_is_ascii_space((unsigned char)label[e - 1]))
        e--;
    for (i = 0; i < ARRAY_LEN(uni_qlabels); i++) {
        const char *l = uni_qlabels[i].label;
        for (k = 0; b + k < e && l[k]; k++) {
            char c = label[b + k];
            if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            if (c != l[k])
                break;
        }
        if (b + k == e && !l[k])
            return (enum uni_qenc)uni_qlabels[i].enc;
    }
    return UNI_Q_OTHER;
}

static bool uni_type_is_unicode(UConverterType t)
{
    switch (t) {
    case UCNV_UTF8:
    case UCNV_UTF16_BigEndian:
    case UCNV_UTF16_LittleEndian:
    case UCNV_UTF32_BigEndian:
    case UCNV_UTF32_LittleEndian:
    case UCNV_UTF7:
    case UCNV_SCSU:
    case UCNV_BOCU1:
    case UCNV_UTF16:
    case UCNV_UTF32:
    case UCNV_CESU8:
    case UCNV_IMAP_MAILBOX:
        return true;
    default:
        return false;
    }
}

/* Resolve a label: the WHATWG encoding, or UNI_Q_OTHER with an ICU
 * converter type; false when ICU does not know the label. */
static bool uni_qenc_resolve(const char *label, enum uni_qenc *out)
{
    UErrorCode ec = U_ZERO_ERROR;
    UConverter *cv;
    enum uni_qenc q = uni_qenc_of_label(label);

    if (q == UNI_Q_OTHER) {
        cv = ucnv_open(label, &ec);
        if (U_FAILURE(ec))
            return false;
        if (uni_type_is_unicode(ucnv_getType(cv)))
            q = UNI_Q_UTF8;
        ucnv_close(cv);
    }
    *out = q;
    return true;
}

const char *uni_query_encoding(const char *label)
{
    enum uni_qenc q;

    if (!label || !uni_qenc_resolve(label, &q))
        return NULL;
    return q == UNI_Q_OTHER ? label : uni_qencs[q].name;
}

const char *xiri_query_encoding(const char *label)
{
    return uni_query_encoding(label);
}

bool uni_encoding_is_latin1(const char *label)
{
    UErrorCode ec = U_ZERO_ERROR;
    UConverter *cv;
    bool yes;

    if (!label)
        return false;
    cv = ucnv_open(label, &ec);
    if (U_FAILURE(ec))
        return false;
    yes = ucnv_getType(cv) == UCNV_LATIN_1;
    ucnv_close(cv);
    return yes;
}

/* WHATWG URL 1.3: the query percent-encode set (C0 controls, everything
 * above '~', space " # < >) and, for special schemes, the special-query
 * percent-encode set (plus '), applied to one byte of the encoder's
 * output as its isomorphic code point. */
static void uni_put_query_byte(struct buf *out, unsigned char b, bool special)
{
    if (b < 0x20 || b > 0x7E || b == ' ' || b == '"' || b == '#' || b == '<' ||
        b == '>' || (special && b == '\''))
        buf_put_pct(out, b);
    else
        buf_putc(out, (char)b);
}

/* WHATWG URL 1.3 "percent-encode after encoding" step 5.4: an unmappable
 * code point becomes "%26%23", its decimal value, "%3B". */
static void uni_put_query_charref(struct buf *out, uint32_t cp)
{
    char num[16];
    size_t k = sizeof(num);

    do {
        num[--k] = (char)('0' + cp % 10);
        cp /= 10;
    } while (cp);
    buf_puts(out, "%26%23");
    buf_append(out, num + k, sizeof(num) - k);
    buf_puts(out, "%3B");
}

/* Run the converter on src[0..n) (n may be 0 to flush), appending the
 * bytes it writes.  Returns the ICU error code. */
/* ICU from-Unicode callback: stop at a character the encoding lacks.
 * ICU's own UCNV_FROM_U_CALLBACK_STOP lets the default-ignorable ones
 * (U+00AD, U+200B-U+200F, U+2060...) through as nothing, which would drop
 * them from a value without a trace. */
static void stop_unmappable(const void *context,
                            UConverterFromUnicodeArgs *args,
                            const UChar *units, int32_t length, UChar32 cp,
                            UConverterCallbackReason reason, UErrorCode *err)
{
    (void)context, (void)args, (void)units, (void)length, (void)cp;
    (void)reason, (void)err; /* *err stays the failure */
}

static UErrorCode uni_query_convert(UConverter *cv, const UChar *src, int32_t n,
                                    bool flush, struct buf *out, bool special,
                                    char *first)
{
    UErrorCode ec = U_ZERO_ERROR;
    /* zeroed: ICU writes bytes[0..t) through &t, which the static
     * analyzer cannot follow */
    char bytes[64] = {0}, *t = bytes;
    static const UChar nothing = 0;
    const UChar *s;
    char *p;

    if (!src)
        src = &nothing; /* n is 0: no pointer arithmetic on NULL */
    s = src;
    ucnv_fromUnicode(cv, &t, bytes + sizeof(bytes), &s, src + n, NULL,
                     flush ? 1 : 0, &ec);
    if (first)
        *first = t > bytes ? bytes[0] : 0;
    if (U_FAILURE(ec) || !out)
        return ec;
    for (p = bytes; p < t; p++)
        uni_put_query_byte(out, (unsigned char)*p, special);
    return ec;
}

/* Encode code point cp (already mapped) as the WHATWG encoder would:
 * true when it was encodable (and appended). */
static bool uni_query_encode_cp(enum uni_qenc q, UConverter *cv,
                                UConverter *probe, uint32_t cp, bool special,
                                struct buf *out, enum xiri_status *st)
{
    UChar u[2];
    int32_t n = 0;
    UErrorCode ec;
    char first;

    U16_APPEND_UNSAFE(u, n, (UChar32)cp);
    /* Is cp encodable on its own?  A separate converter, so that the
     * state of the stateful ones (ISO-2022-JP) is not disturbed. */
    ucnv_resetFromUnicode(probe);
    ec = uni_query_convert(probe, u, n, true, NULL, special, &first);
    if (ec == U_INVALID_CHAR_FOUND || ec == U_ILLEGAL_CHAR_FOUND)
        return false;
    if (U_FAILURE(ec)) {
        *st = icu_status(ec);
        return true;
    }
    /* WHATWG Encoding 12.1.2: the EUC-JP encoder only uses index jis0208
     * (and half-width katakana); JIS X 0212 (ICU's 0x8F prefix) is not
     * encodable. */
    if (q == UNI_Q_EUCJP && (unsigned char)first == 0x8F)
        return false;
    ec = uni_query_convert(cv, u, n, false, out, special, NULL);
    if (U_FAILURE(ec))
        *st = icu_status(ec);
    return true;
}

static UConverter *uni_query_open(const char *name, enum xiri_status *st)
{
    UErrorCode ec = U_ZERO_ERROR;
    UConverter *cv = ucnv_open(name, &ec);

    if (U_FAILURE(ec)) {
        *st = ec == U_MEMORY_ALLOCATION_ERROR ? XIRI_ENOMEM : XIRI_EENCODING;
        return NULL;
    }
    ucnv_setFromUCallBack(cv, stop_unmappable, NULL, NULL, NULL, &ec);
    ucnv_setFallback(cv, 0); /* round-trip mappings only, as the WHATWG
                                indexes */
    if (U_FAILURE(ec)) {
        ucnv_close(cv);
        *st = icu_status(ec);
        return NULL;
    }
    return cv;
}

/* The encoder and the probe for ICU converter name icu: ctx's, opened
 * the first time and reset (ucnv_reset: the state a stateful encoder
 * such as ISO-2022-JP was left in by a query that stopped early) when
 * kept, *owned false; without ctx, fresh ones that the caller closes,
 * *owned true.  XIRI_OK, XIRI_ENOMEM or XIRI_EENCODING. */
static enum xiri_status uni_query_converters(struct xiri_ctx *ctx,
                                             const char *icu, UConverter **cv,
                                             UConverter **probe, bool *owned)
{
    enum xiri_status st = XIRI_OK;
    struct uni *u;
    size_t len;

    *cv = *probe = NULL;
    *owned = !ctx;
    if (ctx) {
        st = uni_for_ctx(ctx, &u);
        if (st != XIRI_OK)
            return st;
        if (u->qname && strcmp(u->qname, icu) == 0) {
            ucnv_reset(u->qcv);
            ucnv_reset(u->qprobe);
            *cv = u->qcv;
            *probe = u->qprobe;
            return XIRI_OK;
        }
        uni_query_drop(u);
        len = strlen(icu) + 1;
        u->qname = mem_alloc(len);
        if (!u->qname)
            return XIRI_ENOMEM;
        memcpy(u->qname, icu, len);
    }
    *cv = uni_query_open(icu, &st);
    if (*cv)
        *probe = uni_query_open(icu, &st);
    if (!*probe) {
        if (*cv)
            ucnv_close(*cv);
        *cv = NULL;
        if (ctx)
            uni_query_drop(ctx->uni);
        return st;
    }
    if (ctx) {
        ctx->uni->qcv = *cv;
        ctx->uni->qprobe = *probe;
    }
    return XIRI_OK;
}

enum xiri_status uni_encode_query(struct xiri_ctx *ctx, const char *label,
                                  const char *s, size_t n, bool special,
                                  struct buf *out, size_t *unmappable)
{
    enum xiri_status st = XIRI_OK;
    enum uni_qenc q;
    bool owned = false;
    UConverter *cv = NULL, *probe = NULL;
    size_t i = 0, k;
    uint32_t cp;

    if (unmappable)
        *unmappable = 0;
    if (!label || !uni_qenc_resolve(label, &q))
        return XIRI_EENCODING;
    if (q != UNI_Q_UTF8) {
        st = uni_query_converters(ctx,
                                  q == UNI_Q_OTHER ? label : uni_qencs[q].icu,
                                  &cv, &probe, &owned);
        if (st != XIRI_OK)
            return st;
    }
    while (i < n && st == XIRI_OK && out->status == XIRI_OK) {
        k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k == 0) {
            st = XIRI_ESYNTAX;
            break;
        }
        i += k;
        /* WHATWG URL 4.4 basic URL parser: remove all ASCII tab or
         * newline from the input */
        if (cp == '\t' || cp == '\n' || cp == '\r')
            continue;
        if (q == UNI_Q_UTF8) {
            /* UTF-8 encodes everything: RFC 3987 3.1 step 2 too */
            for (k = i - k; k < i; k++)
                uni_put_query_byte(out, (unsigned char)s[k], special);
            continue;
        }
        /* WHATWG Encoding 12.1.2 (EUC-JP), 12.2.2 (ISO-2022-JP), 12.3.2
         * (Shift_JIS): U+2212 MINUS SIGN is encoded as U+FF0D */
        if (cp == 0x2212 &&
            (q == UNI_Q_EUCJP || q == UNI_Q_2022JP || q == UNI_Q_SJIS))
            cp = 0xFF0D;
        /* 12.1.2, 12.3.2: U+00A5 is 0x5C and U+203E is 0x7E */
        if ((q == UNI_Q_EUCJP || q == UNI_Q_SJIS) &&
            (cp == 0xA5 || cp == 0x203E)) {
            uni_put_query_byte(out, cp == 0xA5 ? 0x5C : 0x7E, special);
            continue;
        }
        if (q == UNI_Q_2022JP && (cp == 0x0E || cp == 0x0F || cp == 0x1B)) {
            /* 12.2.2: U+000E, U+000F and U+001B are errors with U+FFFD
             * (they would switch the decoder's state) */
            cp = 0xFFFD;
        } else if ((q == UNI_Q_GB18030 || q == UNI_Q_GBK) && cp == 0xE5E5) {
            /* 10.2.2: the gb18030 encoder (GBK's too) fails on U+E5E5,
             * which ICU maps to 0xA3A0 */
        } else if (uni_query_encode_cp(q, cv, probe, cp, special, out, &st)) {
            continue;
        }
        /* The error: the encoder returns to its initial state first
         * (ISO-2022-JP writes ESC ( B), then the character reference. */
        if (U_FAILURE(uni_query_convert(cv, NULL, 0, true, out, special, NULL)))
            st = XIRI_EUNICODE;
        ucnv_resetFromUnicode(cv);
        uni_put_query_charref(out, cp);
        if (unmappable)
            (*unmappable)++;
    }
    if (cv && st == XIRI_OK &&
        U_FAILURE(uni_query_convert(cv, NULL, 0, true, out, special, NULL)))
        st = XIRI_EUNICODE;
    if (owned) {
        ucnv_close(cv);
        ucnv_close(probe);
    }
    if (st == XIRI_OK)
        st = out->status;
    return st;
}

/* ICU from-Unicode callback: a character the encoding lacks becomes the
 * XML character reference &#xHHHH; (upper-case hexadecimal, as ICU's
 * UCNV_ESCAPE_XML_HEX writes it), written through the converter.  ICU's
 * own escape callback drops the default-ignorable characters instead
 * (U+00AD, U+200B-U+200F, U+2060...), which would change a value. */
static void escape_unmappable(const void *context,
                              UConverterFromUnicodeArgs *args,
                              const UChar *units, int32_t length,
                              UChar32 cp, UConverterCallbackReason reason,
                              UErrorCode *err)
{
    static const char hex[] = "0123456789ABCDEF";
    UChar ref[16];
    const UChar *src = ref;
    int32_t k = 0, shift;

    (void)context, (void)units, (void)length;
    if (reason > UCNV_IRREGULAR)
        return; /* reset, close, clone: nothing to write */
    ref[k++] = '&';
    ref[k++] = '#';
    ref[k++] = 'x';
    for (shift = 20; shift > 0 && ((uint32_t)cp >> shift) == 0; shift -= 4)
        ;
    for (; shift >= 0; shift -= 4)
        ref[k++] = (UChar)hex[((uint32_t)cp >> shift) & 0xF];
    ref[k++] = ';';
    *err = U_ZERO_ERROR;
    ucnv_cbFromUWriteUChars(args, &src, ref + k, 0, err);
}

enum xiri_status uni_encode_text(const char *label, const char *s, size_t n,
                                 struct buf *out)
{
    UErrorCode ec = U_ZERO_ERROR;
    UConverter *cv;
    UChar *u = NULL;
    int32_t ulen, need;
    enum xiri_status st;

    cv = ucnv_open(label, &ec);
    if (U_FAILURE(ec))
        return ec == U_MEMORY_ALLOCATION_ERROR ? XIRI_ENOMEM : XIRI_EENCODING;
    ucnv_setFromUCallBack(cv, escape_unmappable, NULL, NULL, NULL, &ec);
    st = to_utf16(s, n, &u, &ulen);
    if (st == XIRI_OK && U_SUCCESS(ec)) {
        need = ucnv_fromUChars(cv, NULL, 0, u, ulen, &ec);
        if (ec == U_BUFFER_OVERFLOW_ERROR)
            ec = U_ZERO_ERROR;
        if (U_SUCCESS(ec) && buf_reserve(out, (size_t)need)) {
            ucnv_resetFromUnicode(cv);
            ucnv_fromUChars(cv, out->data + out->len, need + 1, u, ulen, &ec);
            if (ec == U_STRING_NOT_TERMINATED_WARNING)
                ec = U_ZERO_ERROR;
            if (U_SUCCESS(ec))
                out->len += (size_t)need;
        }
        st = out->status != XIRI_OK ? out->status : icu_status(ec);
    }
    mem_free(u);
    ucnv_close(cv);
    return st;
}

bool uni_encodable(const char *label, const char *s, size_t n)
{
    UErrorCode ec = U_ZERO_ERROR;
    UConverter *cv;
    UChar *u = NULL;
    int32_t ulen;
    char sink[256];
    const UChar *src;
    char *dst;
    bool ok;

    cv = ucnv_open(label, &ec);
    if (U_FAILURE(ec))
        return false;
    /* stop at the first character the encoding lacks */
    ucnv_setFromUCallBack(cv, stop_unmappable, NULL, NULL, NULL, &ec);
    ok = U_SUCCESS(ec) && to_utf16(s, n, &u, &ulen) == XIRI_OK;
    src = u;
    while (ok) {
        ec = U_ZERO_ERROR;
        dst = sink;
        ucnv_fromUnicode(cv, &dst, sink + sizeof(sink), &src, u + ulen, NULL,
                         true, &ec);
        if (ec != U_BUFFER_OVERFLOW_ERROR) {
            ok = U_SUCCESS(ec);
            break;
        }
    }
    mem_free(u);
    ucnv_close(cv);
    return ok;
}

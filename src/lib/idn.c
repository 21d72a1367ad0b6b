/* idn.c - UTS #46 processing (IDNA) with ICU's uidna API. */
#include "common.h"
#include "chars.h"
#include "idn.h"
#include "mem.h"

#include <stdio.h>
#include <unicode/uidna.h>

/* The last conversions each way, remembered: a document names the same
 * few hosts in link after link (every link to one site), and ICU's UTS #46
 * processing of a name costs thousands of instructions, against a
 * comparison of its bytes here.  The answer depends on nothing but the
 * input bytes and the options, which are fixed when the object is opened,
 * so a remembered answer is the one ICU would give.  Bounded: IDN_MEMO_SLOTS
 * names of at most IDN_MEMO_MAX bytes (and answers as long), reused oldest
 * first; a longer name, or one ICU failed on, is converted every time.
 * The memo belongs to the object, that is to one context, which one
 * thread uses at a time (xiri.h). */
#define IDN_MEMO_SLOTS 16
#define IDN_MEMO_MAX 80

struct idn_memo {
    /* per slot: the name's length + 1 (0: empty), looked at first */
    unsigned char key_len[IDN_MEMO_SLOTS];
    unsigned next; /* the slot to fill next */
    struct {
        uint32_t errors;
        unsigned char out_len;
        char key[IDN_MEMO_MAX];
        char out[IDN_MEMO_MAX];
    } slot[IDN_MEMO_SLOTS];
};

struct idn {
    UIDNA *uidna;
    struct idn_memo to_ascii, to_unicode;
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
    memset(idn, 0, sizeof(*idn));
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

enum xiri_status idn_browsers_reject(struct xiri_ctx *ctx, const char *s,
                                     size_t n, bool *reject)
{
    struct buf out;
    enum xiri_status st;

    buf_init(&out, XIRI_MAX_LEN);
    st = idn_browsers_ascii(ctx, s, n, &out, reject);
    buf_free(&out);
    return st;
}

enum xiri_status idn_browsers_ascii(struct xiri_ctx *ctx, const char *s,
                                    size_t n, struct buf *out, bool *reject)
{
    /* the checks WHATWG URL turns off, which ICU always makes */
    const uint32_t lenient =
        UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG |
        UIDNA_ERROR_DOMAIN_NAME_TOO_LONG | UIDNA_ERROR_LEADING_HYPHEN |
        UIDNA_ERROR_TRAILING_HYPHEN | UIDNA_ERROR_HYPHEN_3_4;
    enum xiri_status st = XIRI_OK;
    uint32_t errors = 0;
    size_t from = out->len, i;

    *reject = false;
    if (!ctx)
        return XIRI_EINVAL;
    if (!ctx->idn_whatwg)
        st = idn_open(IDN_NO_STD3, &ctx->idn_whatwg);
    if (st != XIRI_OK)
        return st;
    st = idn_to_ascii(ctx->idn_whatwg, s, n, out, &errors);
    if (st == XIRI_OK)
        st = out->status;
    if (st != XIRI_OK)
        return st;
    *reject = (errors & ~lenient) != 0 || out->len == from;
    /* then a forbidden domain code point fails it: without the STD3 rules
     * a space or a '%' may come out of the mapping (U+3000, U+FF05) */
    for (i = from; i < out->len && !*reject; i++)
        *reject = ch_is_forbidden_domain((unsigned char)out->data[i]);
    return XIRI_OK;
}

typedef int32_t convert_fn(const UIDNA *, const char *, int32_t, char *,
                           int32_t, UIDNAInfo *, UErrorCode *);

/* The memo's slot for s[0..n), or -1. */
static int memo_find(const struct idn_memo *m, const char *s, size_t n)
{
    int i;

    if (n >= IDN_MEMO_MAX)
        return -1;
    for (i = 0; i < IDN_MEMO_SLOTS; i++)
        if (m->key_len[i] == n + 1 &&
            (n == 0 || memcmp(m->slot[i].key, s, n) == 0))
            return i;
    return -1;
}

/* Remember that s[0..n) converts to out[0..len) with these errors. */
static void memo_put(struct idn_memo *m, const char *s, size_t n,
                     const char *out, size_t len, uint32_t errors)
{
    unsigned i = m->next;

    if (n >= IDN_MEMO_MAX || len > IDN_MEMO_MAX)
        return;
    m->next = (i + 1) % IDN_MEMO_SLOTS;
    m->key_len[i] = (unsigned char)(n + 1);
    if (n > 0) /* s may be NULL then */
        memcpy(m->slot[i].key, s, n);
    if (len > 0)
        memcpy(m->slot[i].out, out, len);
    m->slot[i].out_len = (unsigned char)len;
    m->slot[i].errors = errors;
}

static enum xiri_status convert(struct idn *idn, convert_fn *fn,
                                struct idn_memo *memo, const char *s, size_t n,
                                struct buf *out, uint32_t *errors)
{
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode ec = U_ZERO_ERROR;
    int32_t need;
    size_t room;
    int hit;

    if (n > INT32_MAX / 4)
        return XIRI_ELIMIT;
    /* UTS #46 output rarely exceeds 4 times the input; retry once with
     * the size ICU asks for. */
    room = n * 4 + 16;
    if (!buf_reserve(out, room))
        return out->status;
    hit = memo_find(memo, s, n);
    if (hit >= 0) {
        /* the same room asked for as below, so that a full buffer fails
         * alike */
        need = memo->slot[hit].out_len;
        if ((size_t)need > room && !buf_reserve(out, (size_t)need))
            return out->status;
        memcpy(out->data + out->len, memo->slot[hit].out, (size_t)need);
        out->len += (size_t)need;
        *errors = memo->slot[hit].errors;
        return XIRI_OK;
    }
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
    memo_put(memo, s, n, out->data + out->len, (size_t)need, info.errors);
    out->len += (size_t)need;
    *errors = info.errors;
    return XIRI_OK;
}

enum xiri_status idn_to_ascii(struct idn *idn, const char *s, size_t n,
                              struct buf *out, uint32_t *errors)
{
    return convert(idn, uidna_nameToASCII_UTF8, &idn->to_ascii, s, n, out,
                   errors);
}

enum xiri_status idn_to_unicode(struct idn *idn, const char *s, size_t n,
                                struct buf *out, uint32_t *errors)
{
    return convert(idn, uidna_nameToUnicodeUTF8, &idn->to_unicode, s, n, out,
                   errors);
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

/* display.c - the bidi display form of an IRI (RFC 3987 section 4.1) and
 * the two variants of the drafts it grew from (seed 001 section 4.2, seed
 * 000 section 2.4).  The result is for display only, never stored. */
#include "common.h"
#include "buf.h"
#include "chars.h"
#include "unicode.h"

/* The bidi formatting characters the display forms add, in UTF-8. */
#define LRM "\xE2\x80\x8E" /* U+200E LEFT-TO-RIGHT MARK */
#define LRE "\xE2\x80\xAA" /* U+202A LEFT-TO-RIGHT EMBEDDING */
#define PDF "\xE2\x80\xAC" /* U+202C POP DIRECTIONAL FORMATTING */

/* RFC 3986 2.2 reserved = gen-delims / sub-delims. */
static bool is_reserved(uint32_t cp)
{
    return cp < 0x80 && ch_is((unsigned char)cp, CH_GENDELIM | CH_SUBDELIM);
}

/* What delimits components for XIRI_DISPLAY_LRM_COMPONENT: the reserved
 * characters (seed 000 section 2.4: "parts of an URI that are delimited
 * by reserved characters") and '.', which seed 001 section 4.1 counts
 * among the structural characters ("'@', '.', ':', '/'") as it separates
 * host labels. */
static bool is_delimiter(uint32_t cp)
{
    return cp == '.' || is_reserved(cp);
}

/* Check that s is UTF-8 without bidi formatting characters (RFC 3987
 * 4.1: they must not appear in an IRI, and a display form around them
 * would not show the IRI's logical order). */
static enum xiri_status display_validate(const char *s, size_t len,
                                         struct xiri_error *err)
{
    size_t i = 0;

    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode((const unsigned char *)s + i, len - i, &cp);

        if (n == 0)
            return error_set(err, XIRI_ESYNTAX, i,
                             "the bytes at %zu are not UTF-8; an IRI is "
                             "text (RFC 3987 2)",
                             i);
        if (cp_is_bidi_format(cp))
            return error_set(err, XIRI_ESYNTAX, i,
                             "U+%04X at byte %zu is a bidi formatting "
                             "character, which must not appear in an IRI "
                             "(RFC 3987 4.1); remove it",
                             (unsigned)cp, i);
        i += n;
    }
    return XIRI_OK;
}

/* Seed 001 section 4.2: "Each component with right-to-left characters is
 * preceded and followed by an &lrm;.  This left-to-right mark provides a
 * left-to-right context to intervening syntactic characters."  (Its LRE
 * ... PDF around the whole is only for a right-to-left context, which
 * the caller knows and xiri does not.) */
static void display_components(struct buf *o, const char *s, size_t len)
{
    size_t i = 0;

    while (i < len) {
        size_t start = i;
        bool rtl = false;
        uint32_t cp;
        size_t n = utf8_decode((const unsigned char *)s + i, len - i, &cp);

        if (is_delimiter(cp)) {
            buf_append(o, s + i, n);
            i += n;
            continue;
        }
        while (i < len) {
            n = utf8_decode((const unsigned char *)s + i, len - i, &cp);
            if (is_delimiter(cp))
                break;
            if (uni_direction(cp) == UNI_DIR_RTL)
                rtl = true;
            i += n;
        }
        if (rtl)
            buf_puts(o, LRM);
        buf_append(o, s + start, i - start);
        if (rtl)
            buf_puts(o, LRM);
    }
}

/* Seed 000 section 2.4: "preceding the IURI with an LRE (left to right
 * embedding) character, following it with a PDF (pop directional
 * formatting) character, and preceding and following each reserved
 * character by an LRM (left to right mark) character". */
static void display_reserved(struct buf *o, const char *s, size_t len)
{
    size_t i, run = 0;

    buf_puts(o, LRE);
    for (i = 0; i < len; i++) {
        if (!is_reserved((unsigned char)s[i]))
            continue; /* non-ASCII bytes are never reserved */
        buf_append(o, s + run, i - run);
        buf_puts(o, LRM);
        buf_putc(o, s[i]);
        buf_puts(o, LRM);
        run = i + 1;
    }
    buf_append(o, s + run, len - run);
    buf_puts(o, PDF);
}

enum xiri_status xiri_display(struct xiri_ctx *ctx, const char *s, size_t len,
                              enum xiri_display mode, char **out,
                              size_t *out_len, struct xiri_error *err)
{
    struct buf o;
    enum xiri_status st;

    (void)ctx; /* bidi classes need no per-thread object */
    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if ((!s && len) || (unsigned)mode > XIRI_DISPLAY_LRM_RESERVED)
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (!s)
        s = "";
    if (len > XIRI_MAX_LEN)
        return error_set(err, XIRI_ELIMIT, 0, "the input is too long");
    st = display_validate(s, len, err);
    if (st != XIRI_OK)
        return st;
    buf_init(&o, XIRI_MAX_LEN);
    buf_reserve(&o, len + len / 4 + 8);
    switch (mode) {
    case XIRI_DISPLAY_LRE:
        /* RFC 3987 4.1: an LRE ... PDF pair around the whole IRI makes
         * its components display left to right in any context */
        buf_puts(&o, LRE);
        buf_append(&o, s, len);
        buf_puts(&o, PDF);
        break;
    case XIRI_DISPLAY_LRM_COMPONENT:
        display_components(&o, s, len);
        break;
    case XIRI_DISPLAY_LRM_RESERVED:
        display_reserved(&o, s, len);
        break;
    }
    if (o.status != XIRI_OK) {
        st = o.status;
        buf_free(&o);
        return error_set(err, st, 0, "%s", xiri_strerror(st));
    }
    return buf_take(&o, out, out_len);
}

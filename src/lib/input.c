/* input.c - sniffing, decoding and position mapping of a document's bytes
 * (see input.h).  Sniffing follows XML 1.0 appendix F and the WHATWG HTML
 * "prescan a byte stream to determine its encoding"; decoding uses ICU
 * converters, except for UTF-8, which is validated here (RFC 3629). */
#include "common.h"
#include "chars.h"
#include "input.h"
#include "mem.h"

#include <stdio.h>
#include <unicode/ucnv.h>
#include <unicode/ustring.h>

/* Eight bytes at a time: a byte of 0x01 in each lane, the high bits. */
#define INPUT_ONES UINT64_C(0x0101010101010101)
#define INPUT_HIGH UINT64_C(0x8080808080808080)
/* the same for four UTF-16 units: a unit beyond ASCII, a unit 0 */
#define UNITS_HIGH UINT64_C(0xFF80FF80FF80FF80)
#define UNITS_ONES UINT64_C(0x0001000100010001)
#define UNITS_TOP UINT64_C(0x8000800080008000)

/* ---------------------------------------------------------------- sniffing */

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool starts_nocase(const unsigned char *s, size_t n, const char *lit)
{
    size_t i, k = strlen(lit);

    if (n < k)
        return false;
    for (i = 0; i < k; i++)
        if (lower(s[i]) != lit[i])
            return false;
    return true;
}

/* An encoding label s[0..n) into out: without leading and trailing ASCII
 * white space (WHATWG Encoding 4.2, "get an encoding"), and nothing else
 * taken out: a quote or space inside makes it no label ("utf8\"" is none,
 * where the old reading took "utf8"); a byte that is no printable ASCII
 * becomes '?', which no label holds either. */
static void copy_name(char *out, size_t size, const unsigned char *s,
                      size_t n)
{
    size_t k = 0;

    while (n > 0 && ch_is_ascii_space(s[0])) {
        s++;
        n--;
    }
    while (n > 0 && ch_is_ascii_space(s[n - 1]))
        n--;
    for (; k < n && k + 1 < size; k++)
        out[k] = s[k] >= 0x20 && s[k] < 0x7F ? (char)s[k] : '?';
    out[k] = '\0';
}

/* XML 1.0 4.3.3 and appendix F: EncodingDecl in the XML declaration. */
static bool xml_decl_encoding(const unsigned char *s, size_t n, char *out,
                              size_t size)
{
    size_t i, end;

    if (n < 6 || memcmp(s, "<?xml", 5) != 0 || !ch_is_ascii_space(s[5]))
        return false;
    for (end = 5; end + 1 < n && !(s[end] == '?' && s[end + 1] == '>'); end++)
        ;
    for (i = 5; i + 8 <= end; i++) {
        size_t j, q;
        if (memcmp(s + i, "encoding", 8) != 0 || !ch_is_ascii_space(s[i - 1]))
            continue;
        j = i + 8;
        while (j < end && ch_is_ascii_space(s[j]))
            j++;
        if (j >= end || s[j] != '=')
            return false;
        j++;
        while (j < end && ch_is_ascii_space(s[j]))
            j++;
        if (j >= end || (s[j] != '"' && s[j] != '\''))
            return false;
        for (q = j + 1; q < end && s[q] != s[j]; q++)
            ;
        copy_name(out, size, s + j + 1, q - j - 1);
        return out[0] != '\0';
    }
    return false;
}

/* WHATWG HTML "get an attribute" (the prescan): the attribute of a tag at
 * s[*i] on (after its name), its name and value; false at the tag's '>'
 * (*i then past it) or at the end.  The name's first byte is taken
 * whatever it is; a quoted value may hold '>'. */
static bool prescan_attr(const unsigned char *s, size_t n, size_t *ip,
                         const unsigned char **name, size_t *nlen,
                         const unsigned char **val, size_t *vlen)
{
    size_t i = *ip, ns;

    while (i < n && (ch_is_ascii_space(s[i]) || s[i] == '/'))
        i++;
    if (i >= n || s[i] == '>') {
        *ip = i < n ? i + 1 : n;
        return false;
    }
    ns = i++;
    while (i < n && !ch_is_ascii_space(s[i]) && s[i] != '/' && s[i] != '>' &&
           s[i] != '=')
        i++;
    *name = s + ns;
    *nlen = i - ns;
    while (i < n && ch_is_ascii_space(s[i]))
        i++;
    *val = s + i;
    *vlen = 0;
    if (i < n && s[i] == '=') {
        size_t vs;

        i++;
        while (i < n && ch_is_ascii_space(s[i]))
            i++;
        if (i < n && (s[i] == '"' || s[i] == '\'')) {
            unsigned char q = s[i++];

            for (vs = i; i < n && s[i] != q; i++)
                ;
            *vlen = i - vs;
            if (i < n)
                i++;
        } else {
            for (vs = i; i < n && !ch_is_ascii_space(s[i]) && s[i] != '>'; i++)
                ;
            *vlen = i - vs;
        }
        *val = s + vs;
    }
    *ip = i;
    return true;
}

/* The value of attribute "name" of the tag whose attributes are s[0..n),
 * for the <meta> prescan.  Returns false when absent. */
static bool tag_attr(const unsigned char *s, size_t n, const char *name,
                     const unsigned char **val, size_t *vlen)
{
    size_t i = 0, k = strlen(name), nlen;
    const unsigned char *nm;

    while (prescan_attr(s, n, &i, &nm, &nlen, val, vlen))
        if (nlen == k && starts_nocase(nm, k, name))
            return true;
    return false;
}

/* WHATWG HTML "extracting a character encoding from a meta element":
 * the text after "charset", optional spaces, '=' and an optional quote. */
static bool charset_from_content(const unsigned char *s, size_t n, char *out,
                                 size_t size)
{
    size_t i, j, e;

    for (i = 0; i + 7 <= n; i++) {
        if (!starts_nocase(s + i, n - i, "charset"))
            continue;
        j = i + 7;
        while (j < n && ch_is_ascii_space(s[j]))
            j++;
        if (j >= n || s[j] != '=')
            continue;
        j++;
        while (j < n && ch_is_ascii_space(s[j]))
            j++;
        if (j < n && (s[j] == '"' || s[j] == '\'')) {
            unsigned char q = s[j++];
            for (e = j; e < n && s[e] != q; e++)
                ;
            if (e == n)
                return false; /* an unmatched quote: nothing */
        } else {
            for (e = j; e < n && !ch_is_ascii_space(s[e]) && s[e] != ';'; e++)
                ;
        }
        copy_name(out, size, s + j, e - j);
        return out[0] != '\0';
    }
    return false;
}

/* The end of the tag whose attributes start at s[i] (just after its
 * name): past the '>', its attributes read by prescan_attr; n when it
 * does not end. */
static size_t tag_end(const unsigned char *s, size_t n, size_t i)
{
    const unsigned char *nm, *v;
    size_t nlen, vlen;

    while (prescan_attr(s, n, &i, &nm, &nlen, &v, &vlen))
        ;
    return i;
}

static bool html_label(char *enc, size_t size);

/* A label found by the prescan: mapped into out as browsers map it
 * (true), or one of the replacement encoding (copied to replaced: the
 * prescan ends, with no encoding xiri can read), or none browsers know
 * (the prescan goes on). */
static bool prescan_label(char *out, size_t size, char *replaced,
                          size_t rsize, bool *stop)
{
    char label[64];

    if (!out[0])
        return false;
    snprintf(label, sizeof(label), "%s", out);
    if (!html_label(out, size)) {
        out[0] = '\0';
        return false;
    }
    *stop = true;
    if (strcmp(out, "replacement") != 0)
        return true;
    snprintf(replaced, rsize, "%s", label);
    out[0] = '\0';
    return false;
}

/* WHATWG HTML "prescan a byte stream to determine its encoding", for the
 * <meta charset> and <meta http-equiv=Content-Type content> forms; the
 * attributes of other tags are skipped as the prescan skips them.  A
 * label browsers do not know is passed over, as the prescan does ("if
 * charset is failure"); out receives the first they know, mapped
 * (html_label), and replaced a replacement label that ends the prescan
 * first. */
static bool meta_charset(const unsigned char *s, size_t n, char *out,
                         size_t size, char *replaced, size_t rsize)
{
    size_t i = 0;
    bool stop = false;

    while (i < n) {
        const unsigned char *v;
        size_t vlen, end;

        if (starts_nocase(s + i, n - i, "<!--")) {
            for (i += 4; i + 3 <= n && memcmp(s + i, "-->", 3) != 0; i++)
                ;
            i += 3;
            continue;
        }
        if (!starts_nocase(s + i, n - i, "<meta") || i + 5 >= n ||
            !(ch_is_ascii_space(s[i + 5]) || s[i + 5] == '/')) {
            size_t k = i + 1;

            if (s[i] != '<') {
                i++;
                continue;
            }
            if (k < n && s[k] == '/')
                k++;
            if (k < n && ((s[k] | 0x20) >= 'a' && (s[k] | 0x20) <= 'z')) {
                /* another tag: its name, then its attributes skipped,
                 * so that none of their values is read as a tag */
                while (k < n && !ch_is_ascii_space(s[k]) && s[k] != '>')
                    k++;
                i = tag_end(s, n, k);
            } else if (k < n && (s[k] == '!' || s[k] == '/' || s[k] == '?')) {
                while (k < n && s[k] != '>') /* "<!", "</", "<?": to '>' */
                    k++;
                i = k + 1;
            } else {
                i++;
            }
            continue;
        }
        end = tag_end(s, n, i + 5); /* tag_attr stops at its '>' too */
        if (tag_attr(s + i + 5, end - i - 5, "charset", &v, &vlen)) {
            copy_name(out, size, v, vlen);
            if (prescan_label(out, size, replaced, rsize, &stop) || stop)
                return out[0] != '\0';
        } else if (tag_attr(s + i + 5, end - i - 5, "http-equiv", &v,
                            &vlen) &&
                   vlen == 12 && starts_nocase(v, vlen, "content-type") &&
                   tag_attr(s + i + 5, end - i - 5, "content", &v, &vlen) &&
                   charset_from_content(v, vlen, out, size)) {
            if (prescan_label(out, size, replaced, rsize, &stop) || stop)
                return out[0] != '\0';
        }
        i = end;
    }
    return false;
}

/* The labels an HTML <meta> charset may give, as browsers read them (WHATWG
 * Encoding 4.2, "Names and labels", with the HTML prescan's rules: a
 * UTF-16 label means UTF-8, x-user-defined windows-1252), each with the
 * ICU converter xiri decodes it with (GBK by the gb18030 decoder, EUC-KR
 * as windows-949...).  Generated: tools/gen-encoding-labels.py. */
static const struct {
    const char *label, *encoding;
} html_labels[] = {
#include "htmllabels.inc"
};

/* Replace the label enc (trimmed of white space; ASCII case-insensitive)
 * by its encoding: "replacement" for the labels of WHATWG Encoding 4.2's
 * replacement encoding, whose decoder turns a whole page into one U+FFFD
 * (they named encodings that served cross-site scripting: ISO-2022-KR,
 * HZ...); false when it is no label of the list, which browsers ignore
 * ("get an encoding" fails). */
static bool html_label(char *enc, size_t size)
{
    size_t lo = 0, hi = ARRAY_LEN(html_labels), n = strlen(enc), i;
    char low[64];

    if (n >= sizeof(low))
        return false;
    for (i = 0; i <= n; i++)
        low[i] = (char)lower((unsigned char)enc[i]);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(html_labels[mid].label, low);

        if (c == 0) {
            snprintf(enc, size, "%s", html_labels[mid].encoding);
            return true;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

void input_prescan(const unsigned char *s, size_t n, char *out, size_t size)
{
    char replaced[64] = "";

    if (!meta_charset(s, n < INPUT_SNIFF_BYTES ? n : INPUT_SNIFF_BYTES, out,
                      size, replaced, sizeof(replaced)))
        snprintf(out, size, "%s", replaced[0] ? "replacement" : "");
}

bool input_meta_encoding(const char *charset, const char *http_equiv,
                         const char *content, char *out, size_t size)
{
    out[0] = '\0';
    if (charset)
        copy_name(out, size, (const unsigned char *)charset, strlen(charset));
    else if (http_equiv && content && strlen(http_equiv) == 12 &&
             starts_nocase((const unsigned char *)http_equiv, 12,
                           "content-type"))
        charset_from_content((const unsigned char *)content, strlen(content),
                             out, size);
    /* (the replacement encoding is none xiri can read: ignored too) */
    return out[0] && html_label(out, size) &&
           strcmp(out, "replacement") != 0;
}

int input_same_encoding(const char *a, const char *b)
{
    UErrorCode ea = U_ZERO_ERROR, eb = U_ZERO_ERROR;
    UConverter *ca = ucnv_open(a, &ea), *cb = ucnv_open(b, &eb);
    int same = -1;

    /* one converter under two names (ICU's aliases: "utf8", "UTF-8") */
    if (U_SUCCESS(ea) && ca)
        same = U_SUCCESS(eb) && cb &&
               strcmp(ucnv_getName(ca, &ea), ucnv_getName(cb, &eb)) == 0;
    if (ca)
        ucnv_close(ca);
    if (cb)
        ucnv_close(cb);
    return same;
}

/* Does the head look like valid UTF-8 holding some non-ASCII?  A sequence
 * cut by the end of the head counts as valid. */
static bool looks_utf8(const unsigned char *s, size_t n, bool whole,
                       bool *non_ascii)
{
    size_t i = 0;
    uint32_t cp;

    *non_ascii = false;
    while (i < n) {
        size_t k;
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        *non_ascii = true;
        k = utf8_decode(s + i, n - i, &cp);
        if (k == 0) {
            /* a lead byte and only continuation bytes up to the end of a
             * head that the document goes on after */
            size_t j;

            if (whole || !(n - i < 4 && s[i] >= 0xC2 && s[i] <= 0xF4))
                return false;
            for (j = i + 1; j < n; j++)
                if ((s[j] & 0xC0) != 0x80)
                    return false;
            return true;
        }
        i += k;
    }
    return true;
}

static const char *extension(const char *name)
{
    const char *dot = name ? strrchr(name, '.') : NULL;
    const char *slash = name ? strrchr(name, '/') : NULL;

    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

static enum xiri_doc_type sniff_type(const unsigned char *s, size_t n,
                                     const char *name)
{
    static const char *const html_ext[] = {"html", "htm", "shtml"};
    static const char *const xml_ext[] = {
        "xml", "xhtml", "xht", "svg", "atom", "rss", "rdf", "xsd",
        "xsl", "xslt", "opf", "kml", "gpx", "xbel", "owl",
    };
    const char *ext = extension(name);
    size_t i;

    while (n > 0 && ch_is_ascii_space(*s))
        s++, n--;
    if (n >= 5 && memcmp(s, "<?xml", 5) == 0)
        return XIRI_DOC_XML;
    for (i = 0; i < ARRAY_LEN(html_ext); i++)
        if (starts_nocase((const unsigned char *)ext, strlen(ext) + 1,
                          html_ext[i]) &&
            strlen(ext) == strlen(html_ext[i]))
            return XIRI_DOC_HTML;
    for (i = 0; i < ARRAY_LEN(xml_ext); i++)
        if (starts_nocase((const unsigned char *)ext, strlen(ext) + 1,
                          xml_ext[i]) &&
            strlen(ext) == strlen(xml_ext[i]))
            return XIRI_DOC_XML;
    for (i = 0; i + 5 <= n; i++)
        if (s[i] == '<' && (starts_nocase(s + i, n - i, "<!doctype html") ||
                            starts_nocase(s + i, n - i, "<html")))
            return XIRI_DOC_HTML;
    return XIRI_DOC_XML;
}

static bool name_is(const char *name, const char *lit)
{
    size_t n = strlen(name);

    return n == strlen(lit) &&
           starts_nocase((const unsigned char *)name, n, lit);
}

/* The encoding an --encoding option means.  "UTF-16" and "UTF-32" name no
 * byte order: the document's byte order mark gives it, and without one the
 * text is big-endian (RFC 2781 4.3; Unicode 15.0 3.10 D98, D101).  The
 * order is made explicit so that the converter neither takes the mark for
 * its own decision (which it skips) nor writes a mark of its own before
 * every value the rewriter encodes.  A name of an ordered one in another
 * spelling ("utf-16le", "UTF16LE": ICU compares names by their letters
 * and digits) is given its canonical one, which the rewriter knows
 * (rewrite.c utf16_order: it reads characters two bytes at a time). */
static const char *generic_unicode_order(const char *encoding,
                                         const unsigned char *s,
                                         size_t bom_len)
{
    static const char *const ordered[] = {"UTF-16LE", "UTF-16BE", "UTF-32LE",
                                          "UTF-32BE"};
    static const char *const fam16[] = {"utf-16", "utf16", "ucs-2",
                                        "iso-10646-ucs-2", "unicode"};
    static const char *const fam32[] = {"utf-32", "utf32", "ucs-4",
                                        "iso-10646-ucs-4"};
    bool little = bom_len > 0 && s[0] == 0xFF;
    size_t f;

    for (f = 0; f < ARRAY_LEN(fam16); f++)
        if (name_is(encoding, fam16[f]))
            return bom_len == 2 && little ? "UTF-16LE" : "UTF-16BE";
    for (f = 0; f < ARRAY_LEN(fam32); f++)
        if (name_is(encoding, fam32[f]))
            return bom_len == 4 && little ? "UTF-32LE" : "UTF-32BE";
    for (f = 0; f < ARRAY_LEN(ordered); f++)
        if (ucnv_compareNames(encoding, ordered[f]) == 0)
            return ordered[f];
    return encoding;
}

void input_sniff(const unsigned char *s, size_t n, bool whole,
                 enum xiri_doc_type type, const char *name,
                 const char *encoding, struct sniff *out)
{
    char declared[64] = "";
    bool non_ascii;

    memset(out, 0, sizeof(*out));
    /* Byte order marks (XML 1.0 F.1, WHATWG Encoding "decode") */
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
        snprintf(out->encoding, sizeof(out->encoding), "UTF-8");
        out->bom_len = 3;
    } else if (n >= 4 && s[0] == 0xFF && s[1] == 0xFE && s[2] == 0 &&
               s[3] == 0) {
        snprintf(out->encoding, sizeof(out->encoding), "UTF-32LE");
        out->bom_len = 4;
    } else if (n >= 4 && s[0] == 0 && s[1] == 0 && s[2] == 0xFE &&
               s[3] == 0xFF) {
        snprintf(out->encoding, sizeof(out->encoding), "UTF-32BE");
        out->bom_len = 4;
    } else if (n >= 2 && s[0] == 0xFF && s[1] == 0xFE) {
        snprintf(out->encoding, sizeof(out->encoding), "UTF-16LE");
        out->bom_len = 2;
    } else if (n >= 2 && s[0] == 0xFE && s[1] == 0xFF) {
        snprintf(out->encoding, sizeof(out->encoding), "UTF-16BE");
        out->bom_len = 2;
    }
    if (type == XIRI_DOC_AUTO)
        type = out->bom_len > 3 || (out->bom_len == 2)
                   ? sniff_type(s, 0, name) /* the name, or XML */
                   : sniff_type(s + out->bom_len, n - out->bom_len, name);
    out->type = type;

    if (out->bom_len == 0 || out->bom_len == 3) {
        const unsigned char *t = s + out->bom_len;
        size_t tn = n - out->bom_len;
        if (type == XIRI_DOC_XML)
            xml_decl_encoding(t, tn, declared, sizeof(declared));
        else
            meta_charset(t, tn < INPUT_SNIFF_BYTES ? tn : INPUT_SNIFF_BYTES,
                         declared, sizeof(declared), out->replaced,
                         sizeof(out->replaced));
    } else if (type == XIRI_DOC_XML) {
        /* XML 1.0 4.3.3, F.1: the declaration after a UTF-16 or UTF-32
         * mark is in that encoding; read its ASCII to compare */
        unsigned char ascii[256];
        size_t unit = out->bom_len == 2 ? 2 : 4, i, k = 0;
        bool be = s[0] == 0 || s[0] == 0xFE;
        for (i = out->bom_len; i + unit <= n && k < sizeof(ascii); i += unit) {
            size_t j, lo = be ? i + unit - 1 : i;
            bool ok = s[lo] > 0 && s[lo] < 0x80;
            for (j = i; j < i + unit && ok; j++)
                ok = j == lo || s[j] == 0;
            if (!ok)
                break;
            ascii[k++] = s[lo];
        }
        xml_decl_encoding(ascii, k, declared, sizeof(declared));
    }
    if (encoding && *encoding) {
        snprintf(out->encoding, sizeof(out->encoding), "%s",
                 generic_unicode_order(encoding, s, out->bom_len));
        out->source = "option";
        return;
    }
    if (out->bom_len) {
        static const char *const fam16[] = {"utf-16", "ucs-2",
                                            "iso-10646-ucs-2", "unicode"};
        static const char *const fam32[] = {"utf-32", "ucs-4",
                                            "iso-10646-ucs-4"};
        const unsigned char *d = (const unsigned char *)declared;
        size_t dn = strlen(declared), f;
        bool same = out->bom_len == 3 && (starts_nocase(d, dn, "utf-8") ||
                                          starts_nocase(d, dn, "utf8"));
        for (f = 0; out->bom_len == 2 && f < ARRAY_LEN(fam16); f++)
            same = same || starts_nocase(d, dn, fam16[f]);
        for (f = 0; out->bom_len == 4 && f < ARRAY_LEN(fam32); f++)
            same = same || starts_nocase(d, dn, fam32[f]);
        out->source = "BOM";
        /* a declaration naming another encoding family contradicts it */
        if (declared[0] && !same) {
            out->conflict = true;
            snprintf(out->declared, sizeof(out->declared), "%s", declared);
        }
        return;
    }
    if (declared[0]) {
        snprintf(out->encoding, sizeof(out->encoding), "%s", declared);
        out->source = type == XIRI_DOC_XML ? "XML declaration" : "meta";
        return;
    }
    if (type == XIRI_DOC_XML) {
        /* XML 1.0 F.1: UTF-16 without BOM shows in "<?" */
        if (n >= 4 && s[0] == '<' && s[1] == 0 && s[2] == '?' && s[3] == 0)
            snprintf(out->encoding, sizeof(out->encoding), "UTF-16LE");
        else if (n >= 4 && s[0] == 0 && s[1] == '<' && s[2] == 0 &&
                 s[3] == '?')
            snprintf(out->encoding, sizeof(out->encoding), "UTF-16BE");
        else
            snprintf(out->encoding, sizeof(out->encoding), "UTF-8");
        out->source = "default";
        return;
    }
    /* HTML without a declaration: valid UTF-8 with multi-byte sequences is
     * UTF-8, anything else windows-1252 (the WHATWG default for most
     * locales); either way a guess. */
    out->guessed = true;
    out->source = "UTF-8 sniffing";
    if (looks_utf8(s, n, whole, &non_ascii) && non_ascii)
        snprintf(out->encoding, sizeof(out->encoding), "UTF-8");
    else
        snprintf(out->encoding, sizeof(out->encoding), "windows-1252");
    /* ASCII is the same in both: the choice can wait for a byte that
     * tells them apart */
    out->undecided = !non_ascii;
}

/* ---------------------------------------------------------------- decoding */

/* The high bit of each byte of the eight bytes x that is not ASCII, and
 * of the first NUL, if any (zero: all are 01-7F).  A byte 01-7F minus
 * one is 00-7E and borrows nothing, so neither has the high bit; a byte
 * 80-FF has it, and so has the first 00 once one is taken from it (no
 * byte before it borrowed); the bytes after one that fails may be
 * marked or not. */
static inline uint64_t not_ascii8(uint64_t x)
{
    return ((x - INPUT_ONES) | x) & INPUT_HIGH;
}

/* The end of the run of ASCII bytes but NUL from s[i] on, up to n:
 * thirty-two bytes a step (most of the text is in runs of hundreds of
 * bytes), then eight, while none has the high bit or is zero, then
 * one. */
static size_t ascii_run_end(const unsigned char *s, size_t i, size_t n)
{
    while (n - i >= 32) {
        uint64_t a, b, c, d;
        memcpy(&a, s + i, 8);
        memcpy(&b, s + i + 8, 8);
        memcpy(&c, s + i + 16, 8);
        memcpy(&d, s + i + 24, 8);
        if (not_ascii8(a) | not_ascii8(b) | not_ascii8(c) | not_ascii8(d))
            break;
        i += 32;
    }
    while (n - i >= 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        if (not_ascii8(x))
            break;
        i += 8;
    }
    while (i < n && s[i] - 1u < 0x7F)
        i++;
    return i;
}

/* Where the original offset of a UTF-8 position changes (UTF-8 fast path):
 * from pos on, orig = pos + adj (adj may be negative, kept as two's
 * complement in size_t arithmetic). */
struct breakpoint {
    size_t pos;
    size_t adj;
};

struct input {
    UConverter *cnv; /* NULL: UTF-8, validated here */
    /* what each ASCII unit cnv gives is written as: itself, but for the
     * units cnv gives for the bytes 1A, 1C and 7F when they are not
     * themselves (probe_controls) */
    unsigned char ascii[128];
    /* a single-byte encoding: what cnv makes of each byte, as UTF-8
     * (sb_len 0: not a character), read here without ICU (sbcs) */
    bool sbcs;
    bool sb_ascii; /* the bytes 01-7F are themselves */
    unsigned char sb_len[256];
    char sb_utf8[256][4];
    input_bad_fn *bad;
    void *user;
    size_t skip;     /* BOM bytes still to skip */
    size_t orig_pos; /* original bytes taken so far */

    /* the window: UTF-8 text from stream position start on */
    struct buf text;
    size_t start;
    bool eager; /* input_discard_eagerly */
    /* ICU path: the original offset of every byte of the window */
    size_t *orig;
    size_t orig_cap;
    /* UTF-8 path: breakpoints of the offset map, oldest first */
    struct breakpoint *bp;
    size_t nbp, bp_cap;
    /* text positions of continuation bytes written over with an ASCII
     * byte (input_mark_masked), ascending: not counted as columns */
    size_t *mask;
    size_t nmask, mask_cap;
    size_t adj; /* current adjustment */
    unsigned char pend[4]; /* a sequence cut by the end of a chunk */
    size_t npend;
    /* ICU path: a high surrogate that ended ICU's output buffer, waiting
     * for its low half from the next call, and its original offset */
    bool held;
    UChar held_hi;
    size_t held_off;
    /* ICU path: the original offset where the character ICU keeps pending
     * at the end of a call began (its units come out of the next call
     * with no offset of their own) */
    size_t pending_orig;
    size_t nuls; /* U+0000 characters seen */
    bool nul_fffd; /* HTML: read them as U+FFFD */
    bool gb_euro;  /* HTML gb18030: a byte 0x80 is U+20AC */

    /* line/column: a checkpoint at the window start, and a cursor */
    size_t ck_pos, cur_pos;
    /* the stream position just after the last CR of the text so far (0:
     * none), so that counting lines after it need not look for one */
    size_t cr_end;
    /* the cursor's next LF (cursor_lines): no LF in [lf_from, lf_at), and
     * lf_at is one when lf_found (else the end of the window when it was
     * searched) */
    size_t lf_from, lf_at;
    bool lf_found;
    unsigned long ck_line, ck_col, cur_line, cur_col;
    bool ck_cr, cur_cr;
};

/* ICU's IBM converters (Shift_JIS is its ibm-943, IBM866 its ibm-866)
 * exchange the control bytes 1A, 1C and 7F, as IBM PC code pages do;
 * WHATWG Encoding decodes every byte below 0x80 of these encodings as the
 * same code point (Shift_JIS decoder step 4, single-byte decoder), and so
 * do browsers: a DEL in a URL is %7F to them.  Ask the converter, before
 * it reads the document, what it makes of the three, to undo that as the
 * text is written (ascii). */
static void probe_controls(struct input *in)
{
    static const char bytes[3] = {0x1A, 0x1C, 0x7F};
    UErrorCode ec = U_ZERO_ERROR;
    UChar u[8];
    int32_t n, k;

    for (k = 0; k < 128; k++)
        in->ascii[k] = (unsigned char)k;
    n = ucnv_toUChars(in->cnv, u, ARRAY_LEN(u), bytes, 3, &ec);
    /* (the first of the three wins, should two give the same unit) */
    for (k = 2; U_SUCCESS(ec) && n == 3 && k >= 0; k--)
        if (u[k] < 0x80)
            in->ascii[u[k]] = (unsigned char)bytes[k];
    ucnv_resetToUnicode(in->cnv); /* as new for the document */
}

/* A single-byte encoding (ICU's SBCS, Latin-1 and US-ASCII converters,
 * which read each byte alone and keep no state): what the converter makes
 * of every byte, controls undone (probe_controls), so that convert_sbcs
 * reads the document as convert_icu would, a table lookup a byte. */
static void probe_single_bytes(struct input *in)
{
    UConverterType type = ucnv_getType(in->cnv);
    unsigned b;

    if ((type != UCNV_SBCS && type != UCNV_LATIN_1 &&
         type != UCNV_US_ASCII) ||
        ucnv_getMaxCharSize(in->cnv) != 1)
        return;
    in->sb_ascii = true;
    for (b = 0; b < 256; b++) {
        UErrorCode ec = U_ZERO_ERROR;
        const char byte = (char)b;
        UChar u[4];
        int32_t n = ucnv_toUChars(in->cnv, u, ARRAY_LEN(u), &byte, 1, &ec);
        uint32_t cp;

        in->sb_len[b] = 0;
        if (U_SUCCESS(ec) && n == 1 && (u[0] < 0xD800 || u[0] > 0xDFFF)) {
            cp = u[0] < 0x80 ? in->ascii[u[0]] : u[0];
        } else if (U_SUCCESS(ec) && n == 2 && u[0] >= 0xD800 &&
                   u[0] <= 0xDBFF && u[1] >= 0xDC00 && u[1] <= 0xDFFF) {
            cp = 0x10000 + ((uint32_t)(u[0] - 0xD800) << 10) +
                 (uint32_t)(u[1] - 0xDC00);
        } else if (U_SUCCESS(ec)) {
            ucnv_resetToUnicode(in->cnv);
            return; /* not one character: left to convert_icu */
        } else {
            continue; /* not valid: U+FFFD and a report */
        }
        in->sb_len[b] = (unsigned char)utf8_encode(cp, in->sb_utf8[b]);
        if (b >= 0x01 && b <= 0x7F &&
            (in->sb_len[b] != 1 || (unsigned char)in->sb_utf8[b][0] != b))
            in->sb_ascii = false;
    }
    ucnv_resetToUnicode(in->cnv);
    in->sbcs = true;
}

enum xiri_status input_new(const char *encoding, size_t bom_len,
                           input_bad_fn *bad, void *user, struct input **out)
{
    struct input *in;
    UErrorCode ec = U_ZERO_ERROR;

    *out = NULL;
    in = mem_alloc(sizeof(*in));
    if (!in)
        return XIRI_ENOMEM;
    memset(in, 0, sizeof(*in));
    in->bad = bad;
    in->user = user;
    in->skip = bom_len;
    in->ck_line = in->cur_line = 1;
    in->ck_col = in->cur_col = 1;
    buf_init(&in->text, XIRI_MAX_LEN);
    if (!starts_nocase((const unsigned char *)encoding, strlen(encoding) + 1,
                       "utf-8") &&
        !starts_nocase((const unsigned char *)encoding, strlen(encoding) + 1,
                       "utf8")) {
        in->cnv = ucnv_open(encoding, &ec);
        if (U_FAILURE(ec) || !in->cnv) {
            mem_free(in);
            return ec == U_MEMORY_ALLOCATION_ERROR ? XIRI_ENOMEM
                                                   : XIRI_EENCODING;
        }
        ucnv_setToUCallBack(in->cnv, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL,
                            &ec);
        probe_controls(in);
        probe_single_bytes(in);
    }
    *out = in;
    return XIRI_OK;
}

void input_free(struct input *in)
{
    if (!in)
        return;
    if (in->cnv)
        ucnv_close(in->cnv);
    buf_free(&in->text);
    mem_free(in->orig);
    mem_free(in->bp);
    mem_free(in->mask);
    mem_free(in);
}

static const char replacement[3] = {'\xEF', '\xBF', '\xBD'}; /* U+FFFD */

/* UTF-8 path: record that from the current end of the text on, the
 * original offset is text position + adj. */
static bool add_breakpoint(struct input *in, size_t adj)
{
    size_t pos = in->start + in->text.len;

    if (in->nbp > 0 && in->bp[in->nbp - 1].pos == pos) {
        in->bp[in->nbp - 1].adj = adj;
    } else {
        if (!mem_reserve(&in->bp, &in->bp_cap, in->nbp + 1, sizeof(*in->bp)))
            return false;
        in->bp[in->nbp].pos = pos;
        in->bp[in->nbp].adj = adj;
        in->nbp++;
    }
    in->adj = adj;
    return true;
}

/* One byte that is not UTF-8 at original offset orig: U+FFFD instead. */
static bool utf8_bad(struct input *in, const unsigned char *b, size_t n,
                     size_t orig)
{
    size_t pos = in->start + in->text.len;

    /* the replacement starts at orig; what follows it is n bytes further
     * on in the original but 3 in the text */
    if (!add_breakpoint(in, orig - pos))
        return false;
    buf_append(&in->text, replacement, 3);
    if (!add_breakpoint(in, orig + n - (pos + 3)))
        return false;
    if (in->bad)
        in->bad(in->user, pos, orig, b, n);
    return in->text.status == XIRI_OK;
}

/* The length of the UTF-8 sequence a lead byte starts, 0 if none. */
static size_t lead_len(unsigned char c)
{
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return 2;
    if (c >= 0xE0 && c <= 0xEF)
        return 3;
    if (c >= 0xF0 && c <= 0xF4)
        return 4;
    return 0;
}

static enum xiri_status convert_utf8(struct input *in,
                                     const unsigned char *s, size_t n,
                                     bool flush)
{
    size_t i = 0, run = 0, base = in->orig_pos;
    uint32_t cp;

    /* finish a sequence cut by the previous chunk: pend holds a lead
     * byte and continuation bytes (RFC 3629 3), the bytes just before
     * s[i]; it takes the continuation bytes that follow.  When they do
     * not make a character its first byte is bad (one U+FFFD, as where
     * the sequence is not cut) and the bytes after it are read again,
     * from pend: those of the previous chunk are no longer in s. */
    while (in->npend > 0) {
        size_t want = lead_len(in->pend[0]);

        if (want > 1 && in->npend < want) {
            if (i == n)
                break; /* still cut: wait for the next chunk */
            if ((s[i] & 0xC0) == 0x80) {
                in->pend[in->npend++] = s[i++];
                continue;
            }
        } else if (want > 1 &&
                   utf8_decode(in->pend, in->npend, &cp) == in->npend) {
            buf_append(&in->text, (const char *)in->pend, in->npend);
            in->npend = 0;
            break;
        }
        if (!utf8_bad(in, in->pend, 1, base + i - in->npend))
            return XIRI_ENOMEM;
        in->npend--;
        memmove(in->pend, in->pend + 1, in->npend);
    }
    run = i; /* bytes taken into pend are not text yet */
    while (i < n) {
        size_t k;
        if ((unsigned char)(s[i] - 1u) < 0x7F) { /* ASCII but NUL */
            i = ascii_run_end(s, i + 1, n);
            continue;
        }
        if (s[i] == 0) {
            if (in->nul_fffd) {
                buf_append(&in->text, (const char *)s + run, i - run);
                in->nuls++;
                if (!utf8_bad(in, s + i, 1, base + i))
                    return XIRI_ENOMEM;
                run = ++i;
            } else {
                i++;
            }
            continue;
        }
        /* RFC 3629 4: a lead byte C2-DF and a byte 80-BF are a
         * character (U+0080-U+07FF: Latin, Greek, Cyrillic...), without
         * the call */
        if (s[i] >= 0xC2 && s[i] <= 0xDF && n - i >= 2 &&
            (s[i + 1] & 0xC0) == 0x80) {
            i += 2;
            continue;
        }
        k = utf8_decode(s + i, n - i, &cp);
        if (k > 0) {
            i += k;
            continue;
        }
        buf_append(&in->text, (const char *)s + run, i - run);
        if (!flush && n - i < 4 && lead_len(s[i]) > n - i) {
            size_t j;
            for (j = i + 1; j < n && (s[j] & 0xC0) == 0x80; j++)
                ;
            if (j == n) { /* cut by the chunk's end: wait for the rest */
                memcpy(in->pend, s + i, n - i);
                in->npend = n - i;
                run = i = n;
                break;
            }
        }
        if (!utf8_bad(in, s + i, 1, base + i))
            return XIRI_ENOMEM;
        run = ++i;
    }
    buf_append(&in->text, (const char *)s + run, i - run);
    if (flush && in->npend > 0) {
        size_t j;
        for (j = 0; j < in->npend; j++)
            if (!utf8_bad(in, in->pend + j, 1, base + n - in->npend + j))
                return XIRI_ENOMEM;
        in->npend = 0;
    }
    return in->text.status;
}

/* Room for need more bytes of text and of the offset map (ICU path). */
static enum xiri_status reserve_text(struct input *in, size_t need)
{
    if (!buf_reserve(&in->text, need))
        return in->text.status;
    if (in->text.len + need > in->orig_cap) {
        size_t cap = in->orig_cap ? in->orig_cap : 1024;
        size_t *p;
        while (cap < in->text.len + need)
            cap *= 2;
        p = mem_realloc(in->orig, cap * sizeof(*p));
        if (!p)
            return XIRI_ENOMEM;
        in->orig = p;
        in->orig_cap = cap;
    }
    return XIRI_OK;
}

/* ICU path: append UTF-16 units as UTF-8 with the original offset of
 * every byte. */
static enum xiri_status append_utf16(struct input *in, const UChar *u,
                                     size_t n, const int32_t *offs,
                                     size_t base)
{
    /* 3 bytes a unit at most, 4 more for a held surrogate's character */
    size_t i = 0, last = base, len;
    unsigned char *t;
    size_t *o;
    enum xiri_status st = reserve_text(in, 3 * n + 4);

    if (st != XIRI_OK)
        return st;
    len = in->text.len;
    t = (unsigned char *)in->text.data;
    o = in->orig;
    if (in->held) {
        /* the pair straddled two calls: join it, or the high half was
         * alone after all (a lone surrogate cannot be UTF-8) */
        uint32_t cp = 0xFFFD;
        size_t w, j;

        in->held = false;
        if (n > 0 && u[0] >= 0xDC00 && u[0] <= 0xDFFF) {
            cp = 0x10000 + ((uint32_t)(in->held_hi - 0xD800) << 10) +
                 (uint32_t)(u[0] - 0xDC00);
            i = 1;
        }
        w = utf8_encode(cp, (char *)t + len);
        for (j = 0; j < w; j++)
            o[len + j] = in->held_off;
        len += w;
    }
    while (i < n) {
        uint32_t cp;
        size_t k = 1, w, j;

        /* a run of ASCII (but NUL), each unit with its own offset: one
         * byte each (most of the text of a legacy page: its markup), four
         * a step while they come from consecutive bytes */
        if (u[i] - 1u < 0x7F && offs[i] >= 0) {
            t[len] = in->ascii[u[i]];
            o[len++] = base + (size_t)offs[i];
            i++;
            while (n - i >= 4) {
                uint64_t x;
                int32_t b = offs[i - 1];
                memcpy(&x, u + i, 8);
                if ((x & UNITS_HIGH) || ((x - UNITS_ONES) & ~x & UNITS_TOP) ||
                    offs[i] != b + 1 || offs[i + 1] != b + 2 ||
                    offs[i + 2] != b + 3 || offs[i + 3] != b + 4)
                    break;
                t[len] = in->ascii[u[i]];
                t[len + 1] = in->ascii[u[i + 1]];
                t[len + 2] = in->ascii[u[i + 2]];
                t[len + 3] = in->ascii[u[i + 3]];
                o[len] = base + (size_t)b + 1;
                o[len + 1] = base + (size_t)b + 2;
                o[len + 2] = base + (size_t)b + 3;
                o[len + 3] = base + (size_t)b + 4;
                len += 4;
                i += 4;
            }
            while (i < n && u[i] - 1u < 0x7F && offs[i] >= 0) {
                t[len] = in->ascii[u[i]];
                o[len++] = base + (size_t)offs[i];
                i++;
            }
            last = o[len - 1];
            continue;
        }
        cp = u[i];
        if (offs[i] >= 0)
            last = base + (size_t)offs[i];
        else if (offs[i] == -2)
            last = in->pending_orig;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 == n) {
            /* ICU's buffer may end between the halves of a pair: keep
             * this half for the next call (convert_icu ends it) */
            in->held = true;
            in->held_hi = (UChar)cp;
            in->held_off = last;
            break;
        }
        if (cp - 1u < 0x7F) { /* ASCII but NUL: one byte */
            t[len] = in->ascii[cp];
            o[len++] = last;
            i++;
            continue;
        }
        if (cp >= 0x80 && (cp < 0xD800 || cp > 0xDFFF)) {
            /* one unit of the BMP beyond ASCII: two or three bytes
             * (RFC 3629 3), written here rather than by utf8_encode */
            if (cp < 0x800) {
                t[len] = (unsigned char)(0xC0 | (cp >> 6));
                t[len + 1] = (unsigned char)(0x80 | (cp & 0x3F));
                o[len] = o[len + 1] = last;
                len += 2;
            } else {
                t[len] = (unsigned char)(0xE0 | (cp >> 12));
                t[len + 1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
                t[len + 2] = (unsigned char)(0x80 | (cp & 0x3F));
                o[len] = o[len + 1] = o[len + 2] = last;
                len += 3;
            }
            i++;
            continue;
        }
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n && u[i + 1] >= 0xDC00 &&
            u[i + 1] <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (u[i + 1] - 0xDC00);
            k = 2;
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD; /* a lone surrogate cannot be UTF-8 */
        }
        if (cp == 0 && in->nul_fffd) {
            static const unsigned char nul[1] = {0};
            cp = 0xFFFD;
            in->nuls++;
            if (in->bad)
                in->bad(in->user, in->start + len, last, nul, 1);
        }
        w = utf8_encode(cp, (char *)t + len);
        for (j = 0; j < w; j++)
            o[len + j] = last;
        len += w;
        i += k;
    }
    in->text.len = len;
    in->text.data[len] = '\0';
    return XIRI_OK;
}

static enum xiri_status convert_icu(struct input *in, const char *s,
                                    size_t n, bool flush)
{
    UChar u[4096];
    int32_t offs[4096];
    const char *src = s, *end = s + n;
    size_t base = in->orig_pos;

#ifdef __clang_analyzer__
    /* ICU writes u[0..t) through &t, which scan-build cannot follow */
    memset(u, 0, sizeof(u));
#endif
    for (;;) {
        UErrorCode ec = U_ZERO_ERROR;
        UChar *t = u;
        enum xiri_status st;
        const char *chunk = src;

        ucnv_toUnicode(in->cnv, &t, u + ARRAY_LEN(u), &src, end, offs, flush,
                       &ec);
        /* offsets are relative to this call's source start; units of a
         * character begun before it have none */
        if (t > u && offs[0] < 0 && chunk == s && in->pending_orig < base)
            offs[0] = -2; /* marker: begun in the previous chunk */
        st = append_utf16(in, u, (size_t)(t - u), offs,
                          base + (size_t)(chunk - s));
        if (st != XIRI_OK)
            return st;
        if (ec == U_BUFFER_OVERFLOW_ERROR)
            continue;
        if (ec == U_ILLEGAL_CHAR_FOUND || ec == U_INVALID_CHAR_FOUND ||
            ec == U_TRUNCATED_CHAR_FOUND) {
            /* the STOP callback leaves src just after the bad bytes */
            char bytes[32];
            int8_t len = sizeof(bytes);
            UErrorCode ec2 = U_ZERO_ERROR;
            size_t orig;
            int32_t rel;

            ucnv_getInvalidChars(in->cnv, bytes, &len, &ec2);
            if (U_FAILURE(ec2))
                len = 1;
            orig = base + (size_t)(src - s) - (size_t)len;
            if (orig < base) /* the bad bytes began in an earlier chunk */
                orig = base;
            rel = (int32_t)(orig - base);
            if (in->gb_euro && len == 1 && bytes[0] == '\x80') {
                /* WHATWG Encoding 10.2.1, gb18030 decoder: "If byte is
                 * 0x80, return code point U+20AC" */
                st = append_utf16(in, (const UChar[]){0x20AC}, 1, &rel, base);
                if (st != XIRI_OK)
                    return st;
                ucnv_resetToUnicode(in->cnv);
                if (src < end || flush)
                    continue;
                break;
            }
            st = append_utf16(in, (const UChar[]){0xFFFD}, 1, &rel, base);
            if (st != XIRI_OK)
                return st;
            if (in->bad)
                in->bad(in->user, in->start + in->text.len - 3, orig,
                        (const unsigned char *)bytes, (size_t)len);
            ucnv_resetToUnicode(in->cnv);
            if (src < end || flush)
                continue;
            break;
        }
        if (U_FAILURE(ec))
            return ec == U_MEMORY_ALLOCATION_ERROR ? XIRI_ENOMEM
                                                   : XIRI_EUNICODE;
        break;
    }
    if (flush && in->held) /* the document ended after a high half */
        return append_utf16(in, NULL, 0, NULL, base);
    {
        /* bytes of a character cut by the end of this chunk */
        UErrorCode ec = U_ZERO_ERROR;
        int32_t pend = ucnv_toUCountPending(in->cnv, &ec);
        in->pending_orig = U_SUCCESS(ec) && pend > 0 && (size_t)pend <= n
                               ? base + n - (size_t)pend
                               : base + n;
    }
    return XIRI_OK;
}

/* Single-byte path (probe_single_bytes): the text and the offset map
 * convert_icu would give, from the table, without ICU's UTF-16 between;
 * a run of ASCII is copied as it is. */
static enum xiri_status convert_sbcs(struct input *in, const unsigned char *s,
                                     size_t n)
{
    size_t i = 0, base = in->orig_pos;

    while (i < n) {
        /* a piece at a time, as ICU's buffer: 4 bytes a byte at most */
        size_t e = n - i < 4096 ? n : i + 4096, len, *o, k;
        unsigned char *t;
        enum xiri_status st = reserve_text(in, 4 * (e - i) + 4);

        if (st != XIRI_OK)
            return st;
        len = in->text.len;
        t = (unsigned char *)in->text.data;
        o = in->orig;
        while (i < e) {
            unsigned char c = s[i];
            size_t j = i + 1;

            if (c - 1u < 0x7F && in->sb_ascii) {
                /* ASCII but NUL, as it is */
                j = ascii_run_end(s, j, e);
                memcpy(t + len, s + i, j - i);
                for (k = 0; k < j - i; k++)
                    o[len + k] = base + i + k;
                len += j - i;
                i = j;
                continue;
            }
            if (in->sb_len[c] == 0 || (c == 0 && in->nul_fffd)) {
                /* not valid (or NUL in HTML): U+FFFD, reported */
                memcpy(t + len, replacement, 3);
                o[len] = o[len + 1] = o[len + 2] = base + i;
                len += 3;
                if (c == 0)
                    in->nuls++;
                if (in->bad)
                    in->bad(in->user, in->start + len - 3, base + i, s + i, 1);
                i++;
                continue;
            }
            memcpy(t + len, in->sb_utf8[c], 4);
            for (k = 0; k < in->sb_len[c]; k++)
                o[len + k] = base + i;
            len += in->sb_len[c];
            i++;
        }
        in->text.len = len;
        in->text.data[len] = '\0';
    }
    in->pending_orig = base + n;
    return XIRI_OK;
}

enum xiri_status input_convert(struct input *in, const char *data, size_t n,
                               bool flush, size_t *fresh)
{
    enum xiri_status st;
    size_t skip = in->skip < n ? in->skip : n;

    *fresh = in->start + in->text.len;
    in->skip -= skip;
    in->orig_pos += skip;
    data += skip;
    n -= skip;
    /* UTF-8 path: after a skipped BOM the text is that much behind */
    if (skip > 0 && !in->cnv &&
        !add_breakpoint(in, in->orig_pos - (in->start + in->text.len)))
        return XIRI_ENOMEM;
    if (in->sbcs)
        st = convert_sbcs(in, (const unsigned char *)data, n);
    else if (in->cnv)
        st = convert_icu(in, data, n, flush);
    else
        st = convert_utf8(in, (const unsigned char *)data, n, flush);
    in->orig_pos += n;
    if (in->text.data && *fresh - in->start < in->text.len) {
        const char *t = in->text.data + (*fresh - in->start);
        const char *end = in->text.data + in->text.len;
        const char *cr = NULL, *q = t;

        while (st == XIRI_OK && t < end &&
               (t = memchr(t, '\0', (size_t)(end - t))) != NULL) {
            in->nuls++;
            t++;
        }
        /* (whatever the status: the text that came is counted) */
        while (q < end && (q = memchr(q, '\r', (size_t)(end - q))) != NULL)
            cr = q++;
        if (cr)
            in->cr_end = in->start + (size_t)(cr - in->text.data) + 1;
    }
    return st;
}

size_t input_nul_count(const struct input *in)
{
    return in->nuls;
}

void input_read_as_html(struct input *in)
{
    UErrorCode ec = U_ZERO_ERROR;
    const char *name = in->cnv ? ucnv_getName(in->cnv, &ec) : NULL;

    in->nul_fffd = true;
    if (name && U_SUCCESS(ec) && strcmp(name, "windows-936-2000") == 0) {
        /* WHATWG Encoding 10.1.1: "The gbk decoder is the gb18030
         * decoder" (four-byte sequences too); ICU's GBK is windows-936 */
        UConverter *gb = ucnv_open("gb18030", &ec);
        if (U_SUCCESS(ec)) {
            ucnv_setToUCallBack(gb, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL,
                                &ec);
            ucnv_close(in->cnv);
            in->cnv = gb;
            in->sbcs = false;
            name = "gb18030";
        }
    }
    in->gb_euro = name && U_SUCCESS(ec) && strcmp(name, "gb18030") == 0;
}

const char *input_window(const struct input *in, size_t *start, size_t *end)
{
    *start = in->start;
    *end = in->start + in->text.len;
    return in->text.data ? in->text.data : "";
}

size_t input_orig_offset(struct input *in, size_t pos)
{
    size_t i;

    if (pos < in->start)
        pos = in->start; /* before the window: its first position */

    if (in->cnv) {
        if (pos - in->start < in->text.len)
            return in->orig[pos - in->start];
        return in->orig_pos; /* the end of the text */
    }
    /* the last breakpoint at or before pos (usually one of the last) */
    for (i = in->nbp; i > 0; i--)
        if (in->bp[i - 1].pos <= pos)
            return pos + in->bp[i - 1].adj;
    return pos; /* before any breakpoint the text is the original */
}

bool input_mark_masked(struct input *in, size_t pos)
{
    if (!mem_reserve(&in->mask, &in->mask_cap, in->nmask + 1,
                     sizeof(*in->mask)))
        return false;
    in->mask[in->nmask++] = pos;
    return true;
}

/* The index of the first masked position at or after pos (the list is
 * ascending). */
static size_t masked_from(const struct input *in, size_t pos)
{
    size_t lo = 0, hi = in->nmask;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (in->mask[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many of the bytes at text positions [a, b) input_mark_masked
 * named: as many columns too many for count_chars. */
static size_t masked_between(const struct input *in, size_t a, size_t b)
{
    return b > a ? masked_from(in, b) - masked_from(in, a) : 0;
}

/* Move a line/column cursor forward over text[from..to); the index where
 * its last line began in it (from when no line ended in it). */
static size_t count_lines_slow(const char *text, size_t from, size_t to,
                               unsigned long *line, unsigned long *col,
                               bool *cr)
{
    size_t i, last = from;

    for (i = from; i < to; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            if (!*cr)
                (*line)++;
            *col = 1;
            *cr = false;
            last = i + 1;
        } else if (c == '\r') {
            (*line)++;
            *col = 1;
            *cr = true;
            last = i + 1;
        } else {
            if ((c & 0xC0) != 0x80)
                (*col)++;
            *cr = false;
        }
    }
    return last;
}

/* The continuation bytes (10xxxxxx) of the eight bytes in x, as a 0x80
 * bit in each. */
static uint64_t cont_bytes(uint64_t x)
{
    return x & ~(x << 1) & INPUT_HIGH;
}

/* Characters in s[0..n): every byte but UTF-8 continuation bytes
 * (10xxxxxx), eight bytes at a time. */
static size_t count_chars(const char *s, size_t n)
{
    size_t c = 0, i = 0;
    uint64_t x;

    for (; n - i >= 8; i += 8) {
        memcpy(&x, s + i, 8);
        if (!(x & INPUT_HIGH)) {
            c += 8;
            continue;
        }
        c += 8 - (size_t)(((cont_bytes(x) >> 7) * INPUT_ONES) >> 56);
    }
    if (i == n)
        return c;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) &&             \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n >= 8) {
        /* the rest as the last eight bytes, less the ones counted: the
         * last n - i bytes are the high ones of a little-endian load (no
         * loop whose exit depends on the length) */
        uint64_t keep = ~UINT64_C(0) << (8 * (8 - (n - i)));
        memcpy(&x, s + n - 8, 8);
        return c + (n - i) -
               (size_t)((((cont_bytes(x) & keep) >> 7) * INPUT_ONES) >> 56);
    }
#endif
    for (; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* Move a line/column cursor forward over text[from..to) of in's window.
 * Without a CR, only the LFs are looked for (memchr) and only the last
 * line's characters counted; after the last CR of the text (cr_end) there
 * is none to look for. */
static void count_lines(const struct input *in, size_t from, size_t to,
                        unsigned long *line, unsigned long *col, bool *cr)
{
    const char *text = in->text.data;
    const char *s, *e, *p, *last = NULL;

    if (from >= to || !text)
        return;
    s = text + from;
    e = text + to;
    if (in->cr_end > in->start + from && memchr(s, '\r', (size_t)(e - s))) {
        size_t last_line = count_lines_slow(text, from, to, line, col, cr);
        if (in->nmask)
            *col -= masked_between(in, in->start + last_line, in->start + to);
        return;
    }
    if (*cr && *s == '\n') { /* the LF of a CR LF cut before */
        *col = 1;
        last = ++s;
    }
    *cr = false;
    for (p = s; p < e && (p = memchr(p, '\n', (size_t)(e - p))) != NULL;
         last = ++p)
        (*line)++;
    if (last) {
        *col = 1;
        s = last;
    }
    *col += count_chars(s, (size_t)(e - s));
    if (in->nmask)
        *col -= masked_between(in, in->start + (size_t)(s - text),
                               in->start + to);
}

/* Move the cursor forward to stream position pos when no CR follows it:
 * each LF is found by one memchr that reaches on to the end of the window,
 * and the next one is kept for the positions that follow (a document
 * with several links a line asks again before the LF). */
static void cursor_lines(struct input *in, size_t pos)
{
    const char *text = in->text.data;
    size_t from = in->cur_pos;
    bool newline = false;

    for (;;) {
        if (from < in->lf_from || from > in->lf_at) {
            in->lf_from = in->lf_at = from;
            in->lf_found = false;
        }
        if (!in->lf_found && in->lf_at < pos) {
            size_t end = in->start + in->text.len;
            const char *q =
                memchr(text + (in->lf_at - in->start), '\n', end - in->lf_at);
            in->lf_found = q != NULL;
            in->lf_at = q ? in->start + (size_t)(q - text) : end;
        }
        if (!in->lf_found || in->lf_at >= pos)
            break;
        in->cur_line++;
        from = in->lf_at + 1;
        newline = true;
    }
    if (newline)
        in->cur_col = 1;
    in->cur_col += count_chars(text + (from - in->start), pos - from);
    if (in->nmask)
        in->cur_col -= masked_between(in, from, pos);
}

bool input_cr_from(const struct input *in, size_t pos)
{
    return in->cr_end > pos;
}

void input_line_col(struct input *in, size_t pos, unsigned long *line,
                    unsigned long *column)
{
    if (pos < in->ck_pos)
        pos = in->ck_pos; /* before the window: its first position */
    if (pos < in->cur_pos) {
        in->cur_pos = in->ck_pos;
        in->cur_line = in->ck_line;
        in->cur_col = in->ck_col;
        in->cur_cr = in->ck_cr;
    }
    if (pos > in->start + in->text.len)
        pos = in->start + in->text.len;
    if (pos > in->cur_pos && !in->cur_cr && in->cr_end <= in->cur_pos &&
        in->text.data)
        cursor_lines(in, pos);
    else
        count_lines(in, in->cur_pos - in->start, pos - in->start, &in->cur_line,
                    &in->cur_col, &in->cur_cr);
    in->cur_pos = pos;
    *line = in->cur_line;
    *column = in->cur_col;
}

void input_discard_eagerly(struct input *in)
{
    in->eager = true;
}

void input_discard(struct input *in, size_t pos)
{
    size_t drop, i, keep;

    if (pos <= in->start)
        return;
    if (pos > in->start + in->text.len)
        pos = in->start + in->text.len;
    drop = pos - in->start;
    /* only worth a move when a good part of the window goes */
    if (drop < 65536 && drop * 2 < in->text.len && !in->eager)
        return;
    if (in->cur_pos <= pos) {
        /* the cursor has counted the text up to it: go on from there
         * rather than count it all again from the checkpoint */
        count_lines(in, in->cur_pos - in->start, drop, &in->cur_line,
                    &in->cur_col, &in->cur_cr);
        in->cur_pos = pos;
        in->ck_line = in->cur_line;
        in->ck_col = in->cur_col;
        in->ck_cr = in->cur_cr;
    } else {
        count_lines(in, in->ck_pos - in->start, drop, &in->ck_line, &in->ck_col,
                    &in->ck_cr);
    }
    in->ck_pos = pos;
    memmove(in->text.data, in->text.data + drop, in->text.len - drop);
    in->text.len -= drop;
    if (in->cnv)
        memmove(in->orig, in->orig + drop, in->text.len * sizeof(*in->orig));
    /* the cursors are past the masked bytes before pos */
    for (keep = 0; keep < in->nmask && in->mask[keep] < pos; keep++)
        ;
    if (keep > 0) {
        memmove(in->mask, in->mask + keep,
                (in->nmask - keep) * sizeof(*in->mask));
        in->nmask -= keep;
    }
    /* keep the last breakpoint at or before pos, and all after it */
    for (keep = 0, i = 0; i < in->nbp; i++)
        if (in->bp[i].pos <= pos)
            keep = i;
    if (in->nbp > 0 && keep > 0) {
        memmove(in->bp, in->bp + keep, (in->nbp - keep) * sizeof(*in->bp));
        in->nbp -= keep;
    }
    in->start = pos;
}

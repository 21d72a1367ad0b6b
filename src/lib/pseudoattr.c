/* pseudoattr.c - pseudo-attributes in a processing instruction's data
 * (see pseudoattr.h).  The grammar is that of Associating Style Sheets
 * with XML documents 1.0 (Second Edition), section 2:
 *
 *   StyleSheetPI   ::= '<?xml-stylesheet' (S PseudoAtt)* S? '?>'
 *   PseudoAtt      ::= Name S? '=' S? PseudoAttValue
 *   PseudoAttValue ::= ('"' ([^"<&] | CharRef | PredefEntityRef)* '"'
 *                      | "'" ([^'<&] | CharRef | PredefEntityRef)* "'")
 *   PredefEntityRef ::= '&amp;' | '&lt;' | '&gt;' | '&quot;' | '&apos;'
 *
 * read on the data libxml2 hands after the target and its white space, so
 * the first pseudo-attribute needs none before it. */
#include "common.h"
#include "chars.h"
#include "pseudoattr.h"

/* XML 1.0 production S */
static bool pa_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* XML 1.0 production Char */
static bool pa_legal_char(unsigned long cp)
{
    return cp == 0x9 || cp == 0xA || cp == 0xD ||
           (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
           (cp >= 0x10000 && cp <= 0x10FFFF);
}

static const struct {
    const char *name;
    char c;
} predefined[] = {
    {"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''},
};

/* The reference at s[0..n) (s[0] is '&'): its length, and the character
 * (code point) in *cp; 0 when it is no CharRef of a legal character and
 * no PredefEntityRef. */
static size_t pa_reference(const char *s, size_t n, unsigned long *cp)
{
    size_t i, k;

    if (n >= 2 && s[1] == '#') {
        bool hex = n >= 3 && s[2] == 'x';
        unsigned long v = 0;

        for (i = hex ? 3 : 2; i < n && s[i] != ';'; i++) {
            int d = hex ? ch_hexval((unsigned char)s[i])
                        : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
            if (d < 0)
                return 0;
            v = v * (hex ? 16 : 10) + (unsigned long)d;
            if (v > 0x10FFFF)
                return 0;
        }
        if (i >= n || i == (hex ? 3u : 2u) || !pa_legal_char(v))
            return 0;
        *cp = v;
        return i + 1;
    }
    for (k = 0; k < ARRAY_LEN(predefined); k++) {
        size_t len = strlen(predefined[k].name);
        if (n - 1 >= len && memcmp(s + 1, predefined[k].name, len) == 0) {
            *cp = (unsigned char)predefined[k].c;
            return len + 1;
        }
    }
    return 0;
}

int pseudo_attr_next(const char *d, size_t n, size_t *cursor,
                     const struct pseudo_attr *seen, size_t nseen,
                     struct pseudo_attr *out, const char **why)
{
    size_t i = *cursor, k;
    bool blank = i == 0;
    unsigned long cp;
    char q;

    while (i < n && pa_blank(d[i])) {
        i++;
        blank = true;
    }
    if (i == n) {
        *cursor = i;
        return 0;
    }
#define PA_FAIL(at, text) \
    do {                  \
        *cursor = (at);   \
        *why = (text);    \
        return -1;        \
    } while (0)
    if (!blank)
        PA_FAIL(i, "pseudo-attributes must be separated by white space "
                   "(Associating Style Sheets, section 2)");
    if (!ch_is_xml_name_ascii((unsigned char)d[i], true))
        PA_FAIL(i, "a pseudo-attribute name is expected here "
                   "(Associating Style Sheets, section 2)");
    out->name = i;
    while (i < n && ch_is_xml_name_ascii((unsigned char)d[i], false))
        i++;
    out->name_len = i - out->name;
    while (i < n && pa_blank(d[i]))
        i++;
    if (i == n || d[i] != '=')
        PA_FAIL(i, "'=' and a quoted value must follow a pseudo-attribute "
                   "name (Associating Style Sheets, section 2)");
    i++;
    while (i < n && pa_blank(d[i]))
        i++;
    if (i == n || (d[i] != '"' && d[i] != '\''))
        PA_FAIL(i, "a pseudo-attribute value must be quoted (Associating "
                   "Style Sheets, section 2)");
    q = d[i++];
    out->quote = q;
    out->value = i;
    while (i < n && d[i] != q) {
        if (d[i] == '<')
            PA_FAIL(i, "'<' may not stand in a pseudo-attribute value "
                       "(Associating Style Sheets, section 2; write &lt;)");
        if (d[i] == '&') {
            size_t len = pa_reference(d + i, n - i, &cp);
            if (len == 0)
                PA_FAIL(i, "'&' may only begin a character reference or "
                           "&amp; &lt; &gt; &quot; &apos; (Associating Style "
                           "Sheets, section 2; write &amp;)");
            i += len;
        } else {
            i++;
        }
    }
    if (i == n)
        PA_FAIL(out->value - 1, "a pseudo-attribute value is not closed "
                                "(Associating Style Sheets, section 2)");
    out->value_len = i - out->value;
    for (k = 0; k < nseen; k++)
        if (seen[k].name_len == out->name_len &&
            memcmp(d + seen[k].name, d + out->name, out->name_len) == 0)
            PA_FAIL(out->name, "this pseudo-attribute was given before "
                               "(XML 1.0 3.1 for a tag's attributes, which "
                               "Chromium applies)");
#undef PA_FAIL
    *cursor = i + 1;
    return 1;
}

void pseudo_attr_decode(const char *raw, size_t n, struct buf *out)
{
    size_t i = 0, run = 0;

    while (i < n) {
        char c = raw[i];
        if (c == '&' || c == '\r' || c == '\n' || c == '\t') {
            unsigned long cp = ' ';
            size_t len = 1;
            char tmp[4];

            buf_append(out, raw + run, i - run);
            if (c == '\r')
                len = i + 1 < n && raw[i + 1] == '\n' ? 2 : 1;
            else if (c == '&' &&
                     (len = pa_reference(raw + i, n - i, &cp)) == 0) {
                len = 1; /* pseudo_attr_next accepts no such value */
                cp = '&';
            }
            buf_append(out, tmp, utf8_encode((uint32_t)cp, tmp));
            i += len;
            run = i;
        } else {
            i++;
        }
    }
    buf_append(out, raw + run, n - run);
}

/* tagscan.c - locating start tags and their attributes in the text (see
 * tagscan.h).  The syntax is XML 1.0 section 3.1 (STag, Attribute, Eq,
 * AttValue) widened to HTML's unquoted values and valueless attributes. */
#include "common.h"
#include "chars.h"
#include "tagscan.h"

#include <libxml/chvalid.h>

/* Whitespace as libxml2 reads it in tags, for XML and HTML alike
 * (IS_BLANK_CH: XML 1.0 production S); HTML's form feed is not in it, and
 * a tag must be read as the parser read it. */
static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t tag_find_start(const char *text, size_t floor, size_t end)
{
    size_t i = end;

    while (i > floor) {
        char c = text[--i];
        if (c == '"' || c == '\'') {
            /* a quoted value never holds its own quote: skip to the
             * opening one */
            while (i > floor && text[i - 1] != c)
                i--;
            if (i == floor)
                return SIZE_MAX;
            i--;
        } else if (c == '<') {
            return i;
        }
    }
    return SIZE_MAX;
}

size_t tag_find_start_html(const char *text, size_t floor, size_t end,
                           const char *name)
{
    size_t n = strlen(name), i;

    for (i = floor; i + 1 + n <= end; i++) {
        struct tag_attr a;
        size_t cursor = i, k;
        char after;

        if (text[i] != '<')
            continue;
        for (k = 0; k < n; k++) {
            char c = text[i + 1 + k];
            if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            if (c != name[k])
                break;
        }
        after = i + 1 + n < end ? text[i + 1 + n] : '>';
        if (k < n || !(is_ws(after) || after == '/' || after == '>'))
            continue;
        while (tag_next_attr(text, end + 1, &cursor, &a))
            ;
        /* end is the '>', or the '/' of "/>" */
        if (cursor == end || (text[end] == '/' && cursor == end + 1))
            return i;
    }
    return SIZE_MAX;
}

size_t tag_find_end_start(const char *text, size_t end)
{
    size_t i = end;

    while (i > 0) {
        i--;
        if (text[i] == '<')
            return text[i + 1] == '/' ? i : SIZE_MAX;
    }
    return SIZE_MAX;
}

bool tag_next_attr(const char *text, size_t end, size_t *cursor,
                   struct tag_attr *a)
{
    size_t i = *cursor;

    if (i < end && text[i] == '<') {
        /* skip the element name */
        i++;
        while (i < end && !is_ws(text[i]) && text[i] != '/' &&
               text[i] != '>')
            i++;
    }
    for (;;) {
        while (i < end && (is_ws(text[i]) || text[i] == '/'))
            i++;
        if (i >= end || text[i] == '>') {
            *cursor = i;
            return false;
        }
        a->name = i;
        /* HTML attribute name state: up to whitespace, '/', '>' or '=';
         * a leading '=' belongs to the name */
        i++;
        while (i < end && !is_ws(text[i]) && text[i] != '/' &&
               text[i] != '>' && text[i] != '=')
            i++;
        a->name_len = i - a->name;
        while (i < end && is_ws(text[i]))
            i++;
        a->quote = 0;
        a->value = a->name + a->name_len;
        a->value_len = 0;
        if (i < end && text[i] == '=') {
            i++;
            while (i < end && is_ws(text[i]))
                i++;
            if (i < end && (text[i] == '"' || text[i] == '\'')) {
                a->quote = text[i++];
                a->value = i;
                while (i < end && text[i] != a->quote)
                    i++;
                a->value_len = i - a->value;
                if (i < end)
                    i++;
            } else {
                a->value = i;
                while (i < end && !is_ws(text[i]) && text[i] != '>')
                    i++;
                a->value_len = i - a->value;
            }
        }
        *cursor = i;
        return true;
    }
}

/* ---------------------------------------------------------------- guard */

/* What the guard is reading.  The HTML rules are those of libxml2 2.9's
 * HTML parser (HTMLparser.c), checked against it by test_walk.c; the XML
 * rules are XML 1.0 section 2 (libxml2 stops at the first error, so a
 * document that breaks them never gets further). */
enum {
    G_TEXT,       /* character data */
    G_LT,         /* after '<' */
    G_ETAG0,      /* after "</" */
    G_ETAG,       /* XML: in an end tag */
    G_BANG,       /* after "<!" */
    G_BANG_DASH,  /* after "<!-" */
    G_COMMENT,    /* in a comment: k dashes (3: HTML "--!") seen */
    G_CDATA_KW,   /* XML: after "<![", k characters of "CDATA[" */
    G_CDATA,      /* XML: in a CDATA section, k ']' seen */
    G_PI0,        /* HTML: after "<?" */
    G_PI,         /* in a processing instruction (XML: k '?' seen) */
    G_XDECL,      /* XML: in "<!DOCTYPE ...", outside the subset */
    G_XLIT,       /* XML: in a literal of it */
    G_XSUB,       /* XML: in the internal subset */
    G_XSUB_LIT,   /* XML: in a literal of the subset */
    G_XSUB_LT,    /* XML: after '<' in the subset */
    G_XSUB_BANG,  /* XML: after "<!" in the subset */
    G_XSUB_DASH,  /* XML: after "<!-" in the subset */
    G_XSUB_COMM,  /* XML: in a comment of the subset */
    G_XSUB_PI,    /* XML: in a processing instruction of the subset */
    G_XSUB_END,   /* XML: after the subset's ']' */
    G_HDT_KW,     /* HTML: after "<!D", k characters of "DOCTYPE" */
    G_HDT,        /* HTML: in a DOCTYPE (sub: which part) */
    G_TNAME,      /* in a start tag's name */
    G_TAG,        /* in a start tag, between attributes */
    G_SLASH,      /* in a start tag, after '/' */
    G_ANAME,      /* in an attribute name */
    G_AFTER,      /* after an attribute name */
    G_EQ,         /* after '=' */
    G_QVAL,       /* in a quoted value */
    G_UVAL,       /* in an unquoted value (HTML) */
    G_ETNAME,     /* HTML: in an end tag's name (then its attributes,
                     etag set, as browsers read them) */
    G_RAW,        /* HTML: in the content of script or style */
    G_RAW_LT,     /* HTML: after '<' in it */
    G_RAW_LTS,    /* HTML: after "</" in it */
    G_TEXT_ELEM,  /* HTML: in the content of an element that browsers
                     read as text and libxml2 as markup (text_end) */
    G_BOGUS_COMM, /* HTML: in what browsers read as a bogus comment and
                     libxml2 as text */
    G_COMMENT0,   /* HTML: just after "<!--" */
    G_COMMENT1    /* HTML: just after "<!---" */
};

/* HTML DOCTYPE: htmlParseDocTypeDecl and htmlParseExternalID. */
enum {
    D_B1,    /* blanks before the name */
    D_NAME0, /* the name's first character */
    D_NAME,  /* the name */
    D_B2,    /* blanks after it */
    D_KW,    /* "SYSTEM" or "PUBLIC", k characters matched, quote: which */
    D_B3S,   /* blanks after SYSTEM */
    D_B3P,   /* blanks after PUBLIC */
    D_LIT_S, /* a system literal */
    D_LIT_P, /* a public literal */
    D_B4,    /* blanks after the public literal */
    D_B5,    /* blanks before '>' */
    D_REST   /* anything up to '>' */
};

/* IS_BLANK_CH of libxml2, and XML 1.0 S. */
static bool g_blank(unsigned char c)
{
    return c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D;
}

static bool g_letter(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* htmlParseHTMLName: the characters of element and attribute names. */
static bool g_html_name_start(unsigned char c)
{
    return g_letter(c) || c == '_' || c == ':' || c == '.';
}

static bool g_html_name_char(unsigned char c)
{
    return g_letter(c) || (c >= '0' && c <= '9') || c == ':' || c == '-' ||
           c == '_' || c == '.';
}

static unsigned char g_upper(unsigned char c)
{
    return c >= 'a' && c <= 'z' ? (unsigned char)(c - 'a' + 'A') : c;
}

/* htmlParseName (DOCTYPE names, processing instruction targets): the
 * character at s[0..n) is a name start (first) or a name character,
 * after XML 1.0 (fourth edition) appendix B.  *len receives its length;
 * -1 when it is cut by the end of s. */
static int g_name_char(const unsigned char *s, size_t n, bool first,
                       size_t *len)
{
    uint32_t cp;
    size_t want;

    *len = 1;
    if (s[0] < 0x80) {
        if (g_letter(s[0]) || s[0] == '_' || s[0] == ':')
            return 1;
        return !first &&
               ((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '.');
    }
    want = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : 2;
    if (n < want)
        return -1;
    *len = utf8_decode(s, want, &cp);
    if (*len == 0) {
        *len = 1;
        return 0;
    }
    if (xmlIsBaseChar(cp) || xmlIsIdeographic(cp))
        return 1;
    return !first &&
           (xmlIsDigit(cp) || xmlIsCombining(cp) || xmlIsExtender(cp));
}

/* The elements of text: name, and whether libxml2 reads them raw. */
#define TEXT_ELEMENTS(X) \
    X("script", true)    \
    X("style", true)     \
    X("title", false)    \
    X("textarea", false) \
    X("xmp", false)      \
    X("plaintext", false)
#define TEXT_ELEMENT_ENTRY(name, raw) {name, sizeof(name) - 1, raw},
#define TEXT_ELEMENT_LEN_BIT(name, raw) | (1u << (sizeof(name) - 1))
/* bit n set: some element of text has a name of n letters */
#define TEXT_ELEMENT_LENGTHS (0u TEXT_ELEMENTS(TEXT_ELEMENT_LEN_BIT))

const struct tag_text_element *tag_html_text_element(const char *name,
                                                     size_t n)
{
    static const struct tag_text_element elements[] = {
        TEXT_ELEMENTS(TEXT_ELEMENT_ENTRY)};
    size_t e, i;

    /* by length first: asked of every start tag */
    if (n >= 32 || !((TEXT_ELEMENT_LENGTHS >> n) & 1u))
        return NULL;
    for (e = 0; e < ARRAY_LEN(elements); e++) {
        if (elements[e].len != n || (name[0] | 0x20) != elements[e].name[0])
            continue;
        for (i = 1; i < n && (name[i] >= 'A' && name[i] <= 'Z'
                                  ? name[i] - 'A' + 'a'
                                  : name[i]) == elements[e].name[i];
             i++)
            ;
        if (i == n)
            return &elements[e];
    }
    return NULL;
}

#define TEXT_ELEMENT_INITIAL(name, raw) || c == (name)[0]

const struct tag_text_element *tag_html_text_element_z(const char *name)
{
    char c = (char)(name[0] | 0x20);

    /* by the first letter first (asked of every start tag, and most
     * elements are none of them), without measuring the name */
    if (!(false TEXT_ELEMENTS(TEXT_ELEMENT_INITIAL)))
        return NULL;
    return tag_html_text_element(name, strlen(name));
}

/* HTML, in a tag: the character at text[i], a form feed written over
 * with a space.  A browser reads the form feed as white space in a tag
 * (WHATWG HTML 13.2.5.8, 32-38), libxml2 does not: without this a value
 * or an attribute after it would be read otherwise. */
static unsigned char g_tag_char(const struct tag_guard *g, char *text,
                                size_t i)
{
    if (g->html && text[i] == '\f')
        text[i] = ' ';
    return (unsigned char)text[i];
}

/* HTML: the character c, which a tag or attribute name of libxml2 cannot
 * hold (g_html_name_char), where a browser's name goes on (anything but
 * white space, '/', '>', and '=' after an attribute name: 13.2.5.8, 33):
 * written over with '-' at text[i], so that libxml2 reads one name too,
 * another than the one it would have cut there ("<a<b href>" is no a
 * element, "href#" no href).  False when the name ends at c.  A UTF-8
 * continuation byte written over makes one character more of the text:
 * g->masked is told its stream position (base + i), so that columns are
 * counted as the document has them. */
static bool g_name_goes_on(const struct tag_guard *g, char *text,
                           size_t base, size_t i, unsigned char c,
                           bool attribute)
{
    if (g_blank(c) || c == '/' || c == '>' || (attribute && c == '=') ||
        c == '\f')
        return false;
    text[i] = '-';
    if ((c & 0xC0) == 0x80 && g->masked)
        g->masked(g->masked_user, base + i);
    return true;
}

/* HTML: an attribute name, or an end tag's name, from text[p - base] on
 * (g->nlen characters of it read before): where it ends (or end), odd
 * characters written over (g_name_goes_on).  libxml2 cuts names at 100
 * characters (htmlParseHTMLName) and reads the rest of an attribute's as
 * another attribute's name, where a browser reads one name (WHATWG HTML
 * 13.2.5.33): in <a x...x href=y> with 100 x before the "href", y would
 * be a link for libxml2 and is no link to a browser.  The rest is
 * written over with '_', a name no vocabulary has.  An end tag's name
 * stops at 100 (libxml2 then skips to the '>'). */
static size_t g_html_name(struct tag_guard *g, char *text, size_t base,
                          size_t p, size_t end, bool attribute)
{
    while (p < end && (attribute || g->nlen < 100)) {
        unsigned char c = (unsigned char)text[p - base];
        if (!g_html_name_char(c) &&
            !g_name_goes_on(g, text, base, p - base, c, attribute))
            break;
        if (g->nlen >= 100)
            text[p - base] = '_'; /* (nlen stays at 100) */
        else
            g->nlen++;
        p++;
    }
    return p;
}

enum { FAST_NO, FAST_OK, FAST_LIMIT };

/* g_fast gives up: the attributes it recorded go */
#define G_FAST_FAIL(r)                                                 \
    do {                                                               \
        if (log)                                                       \
            log->nattrs = a0;                                          \
        return (r);                                                    \
    } while (0)

/* The four characters at n spell "html", in any case. */
static bool g_spells_html(const unsigned char *n)
{
    return (n[0] | 0x20) == 'h' && (n[1] | 0x20) == 't' &&
           (n[2] | 0x20) == 'm' && (n[3] | 0x20) == 'l';
}

/* HTML: an end tag that libxml2 2.9 must not read: its push parser reads
 * no element after its stack of open elements empties (at </html>, or
 * at an end tag before the first element: it goes to its epilog, and at
 * the next start tag to the end of the document), where a browser reads
 * on (WHATWG HTML 13.2.6.4.22-23, "after after body" reads a start tag
 * "in body"; 13.2.6.4.1-2 ignore an end tag before the html element).
 * The end tag at s (its '<'), its name from s + 2 on, the text up to end
 * in the window (the state machine writes over its '<'). */
static bool g_html_end_unread(const struct tag_guard *g, const char *text,
                              size_t base, size_t s, size_t end)
{
    const char *n = text + (s + 2 - base);

    if (!g->seen_start)
        return true;
    return end >= s + 7 && g_spells_html((const unsigned char *)n) &&
           (g_blank((unsigned char)n[4]) || n[4] == '/' || n[4] == '>');
}

/* Such an end tag, from its '<' at s to p (after its '>'), is text to
 * libxml2: each '<' in it is written over with '&', its first and those
 * in its values (a browser drops the whole tag, 13.2.5.8 on; libxml2
 * would read a tag at them). */
static void g_html_end_as_text(char *text, size_t base, size_t s, size_t p)
{
    char *c = text + (s - base), *e = text + (p - base);

    while ((c = memchr(c, '<', (size_t)(e - c))) != NULL)
        *c++ = '&';
}

/* The common case, read in one go: an end tag, or a start tag of plain
 * syntax (no bogus attribute, no name of 100 characters, not script or
 * style), wholly in the text.  *out receives the position after it.
 * FAST_NO: leave it to the state machine, which reads the same.  A start
 * tag read whole goes into g->log with its attributes. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int g_fast_as(const struct tag_guard *g, bool html,
                            const unsigned char *t, size_t base, size_t p,
                            size_t end, unsigned long max_attrs, size_t *out)
{
    size_t i = p + 1, n0, a0 = 0;
    unsigned long attrs = 0;
    const unsigned char *q;
    unsigned char c;
    struct tag_log *log = g->log;
    struct tag_attr *ra = NULL;
    bool room = log != NULL, named_html;

    if (i + 1 >= end)
        return FAST_NO;
    c = t[i - base];
    if (c == '/') {
        if (html && !g_html_name_start(t[i + 1 - base]))
            return FAST_NO;
        q = memchr(t + (i - base), '>', end - i);
        if (!q)
            return FAST_NO;
        if (html && g_html_end_unread(g, (const char *)t, base, p,
                                      base + (size_t)(q - t) + 1))
            return FAST_NO; /* written over (the state machine) */
        if (html) {
            /* a name that goes on past libxml2's, or a quote (a value
             * may hold the '>'): the state machine reads it */
            const unsigned char *k = t + (i + 1 - base);
            while (k < q && g_html_name_char(*k))
                k++;
            if (k < q && !g_blank(*k) && *k != '/')
                return FAST_NO;
            for (; k < q; k++)
                if (*k == '"' || *k == '\'')
                    return FAST_NO;
        }
        *out = base + (size_t)(q - t) + 1;
        return FAST_OK;
    }
    if (!g_letter(c))
        return FAST_NO;
    a0 = log ? log->nattrs : 0;
    for (n0 = i; i < end; i++) {
        c = t[i - base];
        if (html ? !g_html_name_char(c) : g_blank(c) || c == '/' || c == '>')
            break;
    }
    if (html && (i - n0 >= 100 ||
                 tag_html_text_element((const char *)t + (n0 - base), i - n0)))
        return FAST_NO; /* long, or an element of text */
    named_html = html && i - n0 == 4 && g_spells_html(t + (n0 - base));
    for (;;) {
        while (i < end && g_blank(t[i - base]))
            i++;
        if (i >= end)
            G_FAST_FAIL(FAST_NO);
        c = t[i - base];
        if (c == '>' || (c == '/' && i + 1 < end && t[i + 1 - base] == '>')) {
            if (c == '/' && named_html)
                G_FAST_FAIL(FAST_NO); /* <html/>: seen_start */
            *out = c == '>' ? i + 1 : i + 2;
            if (log && (!room || log->ntags == TAG_LOG_ROOM))
                log->nattrs = a0; /* they did not fit, or the tag */
            if (log && log->ntags < TAG_LOG_ROOM) {
                struct tag_rec *r = &log->tags[log->ntags++];
                r->lt = p;
                r->gt = *out - 1;
                r->first = (uint32_t)a0;
                r->n = room ? (uint32_t)(log->nattrs - a0) : TAG_REC_UNREAD;
            }
            return FAST_OK;
        }
        if (c == '/')
            G_FAST_FAIL(FAST_NO);
        if (html && !g_html_name_start(c))
            G_FAST_FAIL(FAST_NO);
        if (++attrs > max_attrs)
            G_FAST_FAIL(FAST_LIMIT);
        ra = NULL;
        if (room && log->nattrs < TAG_LOG_KEEP * TAG_LOG_ATTRS) {
            ra = &log->attrs[log->nattrs++];
            ra->name = i;
            ra->quote = 0;
            ra->value_len = 0;
        } else {
            room = false;
        }
        for (n0 = i; i < end; i++) {
            c = t[i - base];
            if (html ? !g_html_name_char(c)
                     : g_blank(c) || c == '=' || c == '>' || c == '/')
                break;
        }
        if (html && i - n0 >= 100)
            G_FAST_FAIL(FAST_NO);
        if (ra) {
            ra->name_len = i - n0;
            ra->value = i; /* no value: just after the name */
        }
        while (i < end && g_blank(t[i - base]))
            i++;
        if (i >= end)
            G_FAST_FAIL(FAST_NO);
        if (t[i - base] != '=')
            continue; /* no value */
        i++;
        while (i < end && g_blank(t[i - base]))
            i++;
        if (i >= end)
            G_FAST_FAIL(FAST_NO);
        c = t[i - base];
        if (c == '"' || c == '\'') {
            q = memchr(t + (i + 1 - base), c, end - i - 1);
            if (!q)
                G_FAST_FAIL(FAST_NO);
            if (ra) {
                ra->quote = (char)c;
                ra->value = i + 1;
                ra->value_len = base + (size_t)(q - t) - i - 1;
            }
            i = base + (size_t)(q - t) + 1;
        } else if (html) {
            n0 = i;
            while (i < end && !g_blank(c = t[i - base]) && c != '>') {
                if (c == '\f')
                    G_FAST_FAIL(FAST_NO); /* g_tag_char */
                i++;
            }
            if (ra) {
                ra->value = n0;
                ra->value_len = i - n0;
            }
        } else {
            G_FAST_FAIL(FAST_NO);
        }
    }
}

/* A start tag the state machine read, whose '>' is at gt: its place goes
 * into the log, its attributes do not (TAG_REC_UNREAD: the walker reads
 * them from the '<').  Without it the walker had to search the text for
 * the tag's '<', and could take one inside an earlier tag's quoted value
 * for it ('<a f="<a href="&><a href="x"">'). */
static void g_log_place(const struct tag_guard *g, size_t gt)
{
    struct tag_log *log = g->log;

    if (log && log->ntags < TAG_LOG_ROOM) {
        struct tag_rec *r = &log->tags[log->ntags++];
        r->lt = g->start;
        r->gt = gt;
        r->first = (uint32_t)log->nattrs;
        r->n = TAG_REC_UNREAD;
    }
}

/* g_fast_as compiled twice, so that neither copy tests the kind of
 * document at every byte. */
static int g_fast(const struct tag_guard *g, const unsigned char *t,
                  size_t base, size_t p, size_t end, unsigned long max_attrs,
                  size_t *out)
{
    return g->html ? g_fast_as(g, true, t, base, p, end, max_attrs, out)
                   : g_fast_as(g, false, t, base, p, end, max_attrs, out);
}

#undef G_FAST_FAIL

/* ---------------------------------------------------------------- log */

void tag_log_trim(struct tag_log *l, size_t pos)
{
    size_t k = 0, i;

    while (k < l->ntags && l->tags[k].gt < pos)
        k++;
    if (k == 0)
        return;
    if (k == l->ntags) {
        l->ntags = l->rd = l->given = l->nattrs = 0;
        return;
    }
    {
        size_t a = l->tags[k].first;
        memmove(l->attrs, l->attrs + a, (l->nattrs - a) * sizeof(*l->attrs));
        l->nattrs -= a;
        memmove(l->tags, l->tags + k, (l->ntags - k) * sizeof(*l->tags));
        l->ntags -= k;
        for (i = 0; i < l->ntags; i++)
            l->tags[i].first -= a;
        l->rd = l->rd > k ? l->rd - k : 0;
        l->given = l->given > k ? l->given - k : 0;
    }
}

void tag_log_give(struct tag_log *l, size_t pos)
{
    while (l->given < l->ntags && l->tags[l->given].gt < pos)
        l->given++;
}

const struct tag_rec *tag_log_find(struct tag_log *l, size_t gt,
                                   const char *text, size_t base)
{
    const struct tag_rec *r;

    while (l->rd < l->ntags && l->tags[l->rd].gt < gt)
        l->rd++;
    if (l->rd == l->ntags)
        return NULL;
    r = &l->tags[l->rd];
    if (r->gt == gt ||
        (r->gt == gt + 1 && gt >= base && text[gt - base] == '/'))
        return r;
    return NULL;
}


void tag_guard_init(struct tag_guard *g, bool html, size_t pos)
{
    memset(g, 0, sizeof(*g));
    g->html = html;
    g->state = G_TEXT;
    g->pos = g->safe = g->start = pos;
}

void tag_guard_resume(struct tag_guard *g, int raw, const char *text_end)
{
    if (raw == 2 && text_end) {
        g->state = G_TEXT_ELEM;
        g->text_end = text_end;
    } else if (raw == 1) {
        g->state = G_RAW;
    } else if (raw == 0) {
        g->state = G_TEXT;
    }
}

/* The end of a construct at p (just after it): go on in state next. */
#define G_DONE(next)                                                   \
    do {                                                               \
        g->state = (next);                                             \
        g->run = p;                                                    \
        if (p - g->start > max_len) {                                  \
            g->pos = p;                                                \
            return TAG_GUARD_LONG;                                     \
        }                                                              \
        if (g->one) {                                                  \
            g->pos = g->safe = p;                                      \
            return TAG_GUARD_SYNC;                                     \
        }                                                              \
    } while (0)

/* '<' was text after all (HTML): a new run of text starts at p. */
#define G_TEXT_AGAIN()                                                 \
    do {                                                               \
        g->state = G_TEXT;                                             \
        g->run = p;                                                    \
    } while (0)

/* Text to libxml2 that starts a bogus comment for a browser (HTML): the
 * text up to the next '>' is not markup. */
#define G_BOGUS_AGAIN()                                                \
    do {                                                               \
        g->state = G_BOGUS_COMM;                                       \
        g->run = p;                                                    \
    } while (0)

enum tag_guard_result tag_guard_scan(struct tag_guard *g, char *text,
                                     size_t base, size_t end,
                                     unsigned long max_attrs, size_t max_len)
{
    const unsigned char *t = (const unsigned char *)text;
    size_t p = g->pos;
    bool raw;
    const struct tag_text_element *te;

    while (p < end) {
        unsigned char c = t[p - base];
        const unsigned char *q;

        switch (g->state) {
        case G_TEXT:
        case G_RAW:
            /* (a loop of its own: the tags the fast path reads one after
             * another, with the text between, do not go round the state
             * machine) */
            for (;;) {
                /* a full log would leave the tags after unlogged: stop here,
                 * in text, for the walker to let libxml2 read the tags logged
                 * (once at a place: if libxml2 took none, read on unlogged) */
                if (g->state == G_TEXT && g->log &&
                    (tag_log_ahead(g->log) || g->log->ntags == TAG_LOG_ROOM) &&
                    g->full_at != p + 1) {
                    g->full_at = p + 1;
                    g->pos = g->safe = p;
                    return TAG_GUARD_FULL;
                }
                q = memchr(t + (p - base), '<', end - p);
                if (!q) {
                    p = g->safe = end;
                    break;
                }
                p = base + (size_t)(q - t);
                g->safe = g->start = p;
                if (g->html && g->state == G_TEXT && p - g->run > max_len) {
                    g->start = g->run; /* libxml2 holds a run of text */
                    g->pos = p;
                    return TAG_GUARD_LONG;
                }
                if (g->state == G_TEXT && !g->one) {
                    size_t after;
                    int r = g_fast(g, t, base, p, end, max_attrs, &after);
                    if (r == FAST_OK && after - p <= max_len) {
                        if (t[p + 1 - base] != '/')
                            g->seen_start = true;
                        g->run = p = after;
                        if (p < end)
                            continue; /* the text after it */
                        break;
                    }
                    if (r == FAST_LIMIT) {
                        g->pos = p;
                        return TAG_GUARD_LIMIT;
                    }
                }
                p++;
                g->state = g->state == G_TEXT ? G_LT : G_RAW_LT;
                break;
            }
            break;
        case G_LT:
            if (c == '/') {
                g->state = G_ETAG0;
                p++;
            } else if (c == '!') {
                g->state = G_BANG;
                p++;
            } else if (c == '?') {
                g->state = g->html ? G_PI0 : G_PI;
                g->k = 0;
                p++;
            } else if (g->html ? g_letter(c) : !g_blank(c)) {
                /* XML 1.0 3.1 STag; HTML: '<' and an ASCII letter */
                g->attrs = 0;
                g->nlen = 0;
                g->name_len = 0;
                g->self_close = false;
                g->state = G_TNAME;
            } else {
                G_TEXT_AGAIN(); /* HTML: the '<' is text */
            }
            break;
        case G_TNAME:
            if (!g->html) {
                while (p < end && !g_blank(c = t[p - base]) && c != '/' &&
                       c != '>')
                    p++;
            } else {
                while (p < end && g->nlen < 100 &&
                       (g_html_name_char(c = t[p - base]) ||
                        g_name_goes_on(g, text, base, p - base, c, false))) {
                    c = t[p - base];
                    if (g->name_len < sizeof(g->name) - 1)
                        g->name[g->name_len++] =
                            (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
                    else
                        g->name_len = sizeof(g->name);
                    g->nlen++;
                    p++;
                }
            }
            if (p < end)
                g->state = G_TAG;
            break;
        case G_TAG:
            while (g_blank(c = g_tag_char(g, text, p - base)) && ++p < end)
                ;
            if (p == end) {
                break;
            } else if (c == '>' && g->etag) {
                /* HTML: the end of an end tag, whose attributes a browser
                 * reads and drops (13.2.5.8 on), after libxml2's name */
                p++;
                g->etag = false;
                if (g->html && g_html_end_unread(g, text, base, g->start, p))
                    g_html_end_as_text(text, base, g->start, p);
                if (g->raw_end) {
                    g->raw_end = false;
                    G_DONE(G_TEXT); /* a guess: SYNC asks libxml2 */
                    g->pos = g->safe = p;
                    return TAG_GUARD_SYNC;
                }
                G_DONE(G_TEXT);
            } else if (c == '>') {
                g_log_place(g, p);
                p++;
                /* libxml2 2.9 closes <html/> at its "/>" (a browser
                 * reads <html>): its stack of open elements is empty
                 * again, as before the first element */
                if (!(g->self_close && g->name_len == 4 &&
                      memcmp(g->name, "html", 4) == 0))
                    g->seen_start = true;
                te = g->html && g->name_len < sizeof(g->name)
                         ? tag_html_text_element(g->name, g->name_len)
                         : NULL;
                raw = te && te->libxml2_raw;
                if (te) {
                    /* script and style: libxml2 reads their content as raw
                     * text, unless "/>" or an end tag before closes them;
                     * the others are text to a browser, markup to libxml2.
                     * The walker says which (SYNC). */
                    G_DONE(raw && !g->self_close ? G_RAW : G_TEXT);
                    g->pos = g->safe = p;
                    return TAG_GUARD_SYNC;
                }
                G_DONE(G_TEXT);
            } else if (c == '/') {
                g->state = G_SLASH;
                p++;
            } else {
                /* HTML 13.2.5.32, before attribute name state: any other
                 * character ('=' too) starts an attribute's name, where
                 * htmlParseStartTag skips to a blank or '>' (through a
                 * quoted value that follows): it is written over with '_',
                 * which starts libxml2's names, and what follows is read
                 * as a name (g_name_goes_on); a UTF-8 continuation byte
                 * so written over is one character more (masked) */
                if (g->html && !g_html_name_start(c)) {
                    text[p - base] = '_';
                    if ((c & 0xC0) == 0x80 && g->masked)
                        g->masked(g->masked_user, p);
                }
                if (!g->etag && ++g->attrs > max_attrs) {
                    g->pos = p;
                    return TAG_GUARD_LIMIT;
                }
                g->nlen = 0;
                g->state = G_ANAME;
            }
            break;
        case G_SLASH:
            if (c == '>') {
                g->self_close = true;
            } else if (g->html) {
                /* 13.2.5.40, self-closing start tag state: a '/' before
                 * anything but '>' is read as white space (an attribute
                 * may follow: "<a/href=x>"); libxml2 would skip what
                 * follows as bogus */
                text[p - 1 - base] = ' ';
            }
            g->state = G_TAG;
            break;
        case G_ANAME:
            if (!g->html) {
                while (p < end && !g_blank(c = t[p - base]) && c != '=' &&
                       c != '>' && c != '/')
                    p++;
            } else {
                p = g_html_name(g, text, base, p, end, true);
            }
            if (p < end)
                g->state = G_AFTER;
            break;
        case G_AFTER:
            while (g_blank(c = g_tag_char(g, text, p - base)) && ++p < end)
                ;
            if (p == end) {
                break;
            } else if (c == '=') {
                g->state = G_EQ;
                p++;
            } else {
                g->state = G_TAG; /* no value */
            }
            break;
        case G_EQ:
            while (g_blank(c = g_tag_char(g, text, p - base)) && ++p < end)
                ;
            if (p == end) {
                break;
            } else if (c == '"' || c == '\'') {
                g->quote = c;
                g->state = G_QVAL;
                p++;
            } else {
                g->state = G_UVAL;
            }
            break;
        case G_QVAL:
            q = memchr(t + (p - base), g->quote, end - p);
            if (g->etag) {
                /* htmlParseEndTag skips to the first '>', which a quoted
                 * value holds as a character for a browser */
                size_t e = q ? base + (size_t)(q - t) : end, k;
                for (k = p; k < e; k++)
                    if (text[k - base] == '>')
                        text[k - base] = ' ';
            }
            if (!q) {
                p = end;
                break;
            }
            p = base + (size_t)(q - t) + 1;
            g->state = G_TAG;
            break;
        case G_UVAL:
            if (g_blank(c = g_tag_char(g, text, p - base)) || c == '>')
                g->state = G_TAG;
            else
                p++;
            break;
        case G_ETAG0:
            /* HTML: "</" and no name is dropped (htmlParseEndTag); to a
             * browser it starts a bogus comment unless a '>' follows
             * (WHATWG HTML 13.2.5.7) */
            if (g->html && g_html_name_start(c)) {
                g->state = G_ETNAME;
                g->etag = true;
                g->nlen = 0;
            } else if (!g->html) {
                g->state = G_ETAG;
            } else {
                /* libxml2 drops the "</", and before the first element
                 * reads no element after it (g_html_end_unread) */
                if (!g->seen_start)
                    text[g->start - base] = '&';
                if (c == '>')
                    G_TEXT_AGAIN();
                else
                    G_BOGUS_AGAIN();
            }
            break;
        case G_ETNAME:
            /* 13.2.5.8, tag name state: the name goes on to white space,
             * '/' or '>' ("</desc<>" is no desc end tag); libxml2's
             * stops at other characters too, and closes desc */
            p = g_html_name(g, text, base, p, end, false);
            if (p < end)
                g->state = G_TAG;
            break;
        case G_ETAG:
            /* XML: an end tag ends at its '>' (HTML: G_ETNAME) */
            q = memchr(t + (p - base), '>', end - p);
            if (!q) {
                p = end;
                break;
            }
            p = base + (size_t)(q - t) + 1;
            G_DONE(G_TEXT);
            break;
        case G_BANG:
            if (c == '-') {
                g->state = G_BANG_DASH;
                p++;
            } else if (g->html && (c == 'D' || c == 'd')) {
                g->state = G_HDT_KW;
                g->k = 1;
                p++;
            } else if (!g->html && c == '[') {
                g->state = G_CDATA_KW;
                g->k = 0;
                p++;
            } else if (g->html) {
                /* HTML: "<!" and anything else is text to libxml2, a
                 * bogus comment to a browser (13.2.5.42) */
                G_BOGUS_AGAIN();
            } else {
                g->state = G_XDECL;
            }
            break;
        case G_BANG_DASH:
            if (c == '-') {
                g->state = g->html ? G_COMMENT0 : G_COMMENT;
                g->k = 0;
                p++;
            } else if (g->html) {
                G_BOGUS_AGAIN(); /* 13.2.5.42 */
            } else {
                g->state = G_XDECL;
            }
            break;
        case G_COMMENT:
        case G_XSUB_COMM:
            /* ends at "-->" (HTML also "--!>") after the opening "<!--":
             * libxml2 2.9 reads "<!-->" as the start of a comment */
            if (g->k == 0) {
                q = memchr(t + (p - base), '-', end - p);
                if (!q) {
                    p = end;
                    break;
                }
                p = base + (size_t)(q - t);
                c = '-';
            }
            p++;
            if (c == '-') {
                g->k = g->k == 1 || g->k == 2 ? 2 : 1;
            } else if (c == '>' && g->k >= 2) {
                if (g->state == G_XSUB_COMM)
                    g->state = G_XSUB;
                else
                    G_DONE(G_TEXT);
            } else if (c == '!' && g->html && g->k == 2) {
                g->k = 3;
            } else {
                g->k = 0;
            }
            break;
        case G_CDATA_KW:
            if (c == (unsigned char)"CDATA["[g->k]) {
                p++;
                if (++g->k == 6) {
                    g->state = G_CDATA;
                    g->k = 0;
                }
            } else {
                g->state = G_XDECL;
            }
            break;
        case G_CDATA:
            if (g->k == 0) {
                q = memchr(t + (p - base), ']', end - p);
                if (!q) {
                    p = end;
                    break;
                }
                p = base + (size_t)(q - t);
                c = ']';
            }
            p++;
            if (c == ']')
                g->k = 2 - (g->k == 0);
            else if (c == '>' && g->k == 2)
                G_DONE(G_TEXT);
            else
                g->k = 0;
            break;
        case G_PI0: {
            /* htmlParsePI: without a target only "<?" is read */
            size_t len;
            int r = g_name_char(t + (p - base), end - p, true, &len);
            if (r < 0) {
                g->pos = p;
                return TAG_GUARD_MORE;
            }
            if (r)
                g->state = G_PI;
            else
                G_BOGUS_AGAIN(); /* 13.2.5.6: a bogus comment */
            break;
        }
        case G_PI:
        case G_XSUB_PI:
            if (g->html) {
                q = memchr(t + (p - base), '>', end - p);
                if (!q) {
                    p = end;
                    break;
                }
                p = base + (size_t)(q - t) + 1;
                G_DONE(G_TEXT);
                break;
            }
            if (g->k == 0) {
                q = memchr(t + (p - base), '?', end - p);
                if (!q) {
                    p = end;
                    break;
                }
                p = base + (size_t)(q - t);
                c = '?';
            }
            p++;
            if (c == '?') {
                g->k = 1;
            } else if (c == '>' && g->k == 1) {
                if (g->state == G_XSUB_PI)
                    g->state = G_XSUB;
                else
                    G_DONE(G_TEXT);
            } else {
                g->k = 0;
            }
            break;
        case G_XDECL:
            p++;
            if (c == '"' || c == '\'') {
                g->quote = c;
                g->state = G_XLIT;
            } else if (c == '[') {
                g->state = G_XSUB;
            } else if (c == '>') {
                G_DONE(G_TEXT);
            }
            break;
        case G_XLIT:
        case G_XSUB_LIT:
            q = memchr(t + (p - base), g->quote, end - p);
            if (!q) {
                p = end;
                break;
            }
            p = base + (size_t)(q - t) + 1;
            g->state = g->state == G_XLIT ? G_XDECL : G_XSUB;
            break;
        case G_XSUB:
            p++;
            if (c == '"' || c == '\'') {
                g->quote = c;
                g->state = G_XSUB_LIT;
            } else if (c == '<') {
                g->state = G_XSUB_LT;
            } else if (c == ']') {
                g->state = G_XSUB_END;
            }
            break;
        case G_XSUB_LT:
            if (c == '!') {
                g->state = G_XSUB_BANG;
                p++;
            } else if (c == '?') {
                g->state = G_XSUB_PI;
                g->k = 0;
                p++;
            } else {
                g->state = G_XSUB;
            }
            break;
        case G_XSUB_BANG:
        case G_XSUB_DASH:
            if (c == '-') {
                g->state = g->state == G_XSUB_BANG ? G_XSUB_DASH : G_XSUB_COMM;
                g->k = 0;
                p++;
            } else {
                g->state = G_XSUB;
            }
            break;
        case G_XSUB_END:
            if (g_blank(c)) {
                p++;
            } else if (c == '>') {
                p++;
                G_DONE(G_TEXT);
            } else {
                g->state = G_XSUB;
            }
            break;
        case G_HDT_KW:
            if (g_upper(c) == (unsigned char)"DOCTYPE"[g->k]) {
                p++;
                if (++g->k == 7) {
                    g->state = G_HDT;
                    g->sub = D_B1;
                }
            } else {
                G_BOGUS_AGAIN(); /* 13.2.5.42 */
            }
            break;
        case G_HDT:
            switch (g->sub) {
            case D_B1:
            case D_B2:
            case D_B3S:
            case D_B3P:
            case D_B4:
            case D_B5:
                if (g_blank(c)) {
                    p++;
                    break;
                }
                switch (g->sub) {
                case D_B1:
                    g->sub = D_NAME0;
                    break;
                case D_B2:
                    g->sub = D_KW;
                    g->k = 0;
                    g->quote = 3; /* SYSTEM or PUBLIC may follow */
                    break;
                case D_B5:
                    if (c == '>') {
                        p++;
                        G_DONE(G_TEXT);
                    } else {
                        g->sub = D_REST; /* skipped up to '>' */
                    }
                    break;
                default: /* a literal may follow */
                    if (c == '"' || c == '\'') {
                        g->quote = c;
                        g->sub = g->sub == D_B3P ? D_LIT_P : D_LIT_S;
                        p++;
                    } else {
                        g->sub = g->sub == D_B3P ? D_B4 : D_B5;
                    }
                    break;
                }
                break;
            case D_NAME0:
            case D_NAME: {
                size_t len;
                int r = g_name_char(t + (p - base), end - p,
                                    g->sub == D_NAME0, &len);
                if (r < 0) {
                    g->pos = p;
                    return TAG_GUARD_MORE;
                }
                if (r) {
                    p += len;
                    g->sub = D_NAME;
                } else {
                    g->sub = D_B2;
                }
                break;
            }
            case D_KW:
                if ((g->quote & 1) &&
                    g_upper(c) != (unsigned char)"SYSTEM"[g->k])
                    g->quote &= (unsigned char)~1u;
                if ((g->quote & 2) &&
                    g_upper(c) != (unsigned char)"PUBLIC"[g->k])
                    g->quote &= (unsigned char)~2u;
                if (!g->quote) {
                    g->sub = D_REST; /* no external ID: skip to '>' */
                } else {
                    p++;
                    if (++g->k == 6)
                        g->sub = g->quote & 1 ? D_B3S : D_B3P;
                }
                break;
            case D_LIT_S:
            case D_LIT_P:
                q = memchr(t + (p - base), g->quote, end - p);
                if (!q) {
                    p = end;
                    break;
                }
                p = base + (size_t)(q - t) + 1;
                g->sub = g->sub == D_LIT_P ? D_B4 : D_B5;
                break;
            default: /* D_REST */
                q = memchr(t + (p - base), '>', end - p);
                if (!q) {
                    p = end;
                    break;
                }
                p = base + (size_t)(q - t) + 1;
                G_DONE(G_TEXT);
                break;
            }
            break;
        case G_RAW_LT:
            if (c == '/') {
                g->state = G_RAW_LTS;
                p++;
            } else {
                g->state = G_RAW;
            }
            break;
        case G_RAW_LTS:
            /* libxml2 holds raw text up to a "</"; htmlParseScript ends
             * it at "</" and an ASCII letter */
            if (p - 2 - g->run > max_len) {
                g->start = g->run;
                g->pos = p;
                return TAG_GUARD_LONG;
            }
            g->run = p - 2;
            if (g_letter(c)) {
                /* WHATWG HTML 13.2.5.17-19 (script data, RAWTEXT end tag
                 * name states): only the element's own end tag ends it;
                 * libxml2 2.9 ends it at any ("</td" in a string of the
                 * script), and its end tag then runs to a '>' that may be
                 * past the real one: such a '<' is written over with '&'
                 * (see G_TEXT_ELEM) */
                size_t n = g->name_len < sizeof(g->name) ? g->name_len : 0, k;
                unsigned char after;

                if (end - p < n + 1) {
                    g->pos = p; /* too near the end to tell: later */
                    return TAG_GUARD_MORE;
                }
                for (k = 0; k < n; k++)
                    if ((t[p - base + k] | 0x20) != (unsigned char)g->name[k])
                        break;
                after = t[p - base + n];
                if (k == n && n > 0 &&
                    (g_blank(after) || after == '\f' || after == '/' ||
                     after == '>')) {
                    g->raw_end = true;
                    g->state = G_ETNAME;
                    g->etag = true;
                    g->nlen = 0;
                    break;
                }
                text[p - 2 - base] = '&';
                g->run = p - 1;
            }
            g->state = G_RAW;
            break;
        case G_BOGUS_COMM:
            /* WHATWG HTML 13.2.5.41: a bogus comment ends at the first
             * '>'; each '<' before it, which libxml2 would read as a tag,
             * is written over with '&' (see G_TEXT_ELEM) */
            while (p < end && (c = t[p - base]) != '>') {
                if (c == '<') {
                    text[p - base] = '&';
                    g->run = p + 1;
                }
                p++;
            }
            if (p - g->run > max_len) {
                g->start = g->run; /* libxml2 holds a run of text */
                g->pos = p;
                return TAG_GUARD_LONG;
            }
            g->safe = p;
            if (p < end)
                g->state = G_TEXT; /* the '>' is text too */
            break;
        case G_COMMENT0:
        case G_COMMENT1:
            /* 13.2.5.43-44: "<!-->" and "<!--->" are whole (empty)
             * comments to a browser, and libxml2 2.9 would read on to the
             * next "-->": its '<' is written over, and the comment is text
             * to libxml2 */
            if (c == '>') {
                text[g->start - base] = '&';
                p++;
                g->state = G_TEXT;
                g->run = g->start;
            } else if (c == '-' && g->state == G_COMMENT0) {
                g->state = G_COMMENT1;
                p++;
            } else {
                g->k = g->state == G_COMMENT1;
                g->state = G_COMMENT;
            }
            break;
        case G_TEXT_ELEM: {
            /* WHATWG HTML 13.2.5.2-3 (RCDATA, RAWTEXT) and 13.2.5.5
             * (PLAINTEXT): the content ends at the element's own end tag
             * ("</", its name in any case, then a space, '/' or '>';
             * 13.2.5.9-11), which a '<' anywhere else cannot start.  Each
             * other '<' is written over with '&' for libxml2, which reads
             * it as text then (a '&' starting no reference is a '&'); the
             * walker does not read this text, and a rewrite copies the
             * original bytes. */
            size_t n = strlen(g->text_end), k;

            q = memchr(t + (p - base), '<', end - p);
            if (!q) {
                p = g->safe = end;
                break;
            }
            p = base + (size_t)(q - t);
            if (p - g->run > max_len) {
                g->start = g->run; /* libxml2 holds a run of text */
                g->pos = p;
                return TAG_GUARD_LONG;
            }
            g->safe = p;
            if (strcmp(g->text_end, "plaintext") != 0) {
                if (end - p < n + 3) {
                    g->pos = p; /* too near the end to tell: later */
                    return TAG_GUARD_MORE;
                }
                for (k = 0; k < n && q[1] == '/'; k++)
                    if ((q[2 + k] | 0x20) != (unsigned char)g->text_end[k])
                        break;
                if (q[1] == '/' && k == n &&
                    (g_blank(q[2 + n]) || q[2 + n] == '\f' ||
                     q[2 + n] == '/' || q[2 + n] == '>')) {
                    g->state = G_TEXT; /* the end tag, read as usual */
                    g->run = p;
                    break;
                }
            }
            text[p - base] = '&';
            g->run = ++p;
            break;
        }
        default:
            break;
        }
    }
    g->pos = p;
    /* what is still open must not be longer than the limit already */
    if (g->state == G_TEXT || g->state == G_RAW ||
        g->state == G_TEXT_ELEM) {
        if (g->html && end - g->run > max_len) {
            g->start = g->run;
            return TAG_GUARD_LONG;
        }
    } else if (end - g->start > max_len) {
        return TAG_GUARD_LONG;
    }
    return TAG_GUARD_MORE;
}

bool tag_guard_in_tag(const struct tag_guard *g)
{
    switch (g->state) {
    case G_TNAME:
    case G_TAG:
    case G_SLASH:
    case G_ANAME:
    case G_AFTER:
    case G_EQ:
    case G_QVAL:
    case G_UVAL:
    case G_ETNAME:
        /* an end tag of script or style cut at its name is text to a
         * browser (13.2.5.19, "anything else": EOF is no blank) */
        return g->html && !(g->raw_end && g->state == G_ETNAME);
    default:
        return false;
    }
}

size_t tag_guard_construct_end(const char *text, size_t n, bool html)
{
    struct tag_guard g;

    if (n < 2 || text[0] != '<')
        return SIZE_MAX;
    tag_guard_init(&g, html, 1);
    g.state = G_LT;
    g.start = 0;
    g.one = true;
    g.seen_start = true; /* (an end tag libxml2 may not read has no '<') */
    /* it reads one construct, whose text the guard has read (and written
     * over where it does: tagscan.h) before libxml2 was given it, so what
     * it writes is already there */
    if (tag_guard_scan(&g, (char *)(uintptr_t)text, 0, n, (unsigned long)-1,
                       SIZE_MAX) ==
        TAG_GUARD_SYNC)
        return g.pos;
    return SIZE_MAX;
}

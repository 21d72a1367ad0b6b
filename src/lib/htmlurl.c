/* htmlurl.c - HTML attribute values as browsers read them as URLs (WHATWG
 * URL Standard, "basic URL parser"), and xiri_html_url(). */
#include "common.h"
#include "htmlurl.h"
#include "scheme.h"

static bool is_tab_or_newline(char c)
{
    return c == '\t' || c == '\n' || c == '\r';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* WHATWG URL 4.4, scheme start and scheme states: an ASCII alpha, then
 * ASCII alphanumerics, '+', '-' or '.', up to ':' (tabs and newlines,
 * which the parser removed before, skipped).  The scheme's length, its
 * first letters copied to out (NUL-ended when it fits in size); 0 when
 * there is no scheme (a relative reference). */
static size_t scheme_of(const char *v, size_t n, char *out, size_t size)
{
    size_t i, k = 0;

    for (i = 0; i < n; i++) {
        char c = v[i];

        if (is_tab_or_newline(c))
            continue;
        if (c == ':')
            break;
        if (!is_alpha(c) &&
            !(k > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' ||
                        c == '.')))
            return 0;
        if (k + 1 < size)
            out[k] = c;
        k++;
    }
    if (i == n)
        return 0;
    if (k < size)
        out[k] = '\0';
    return k;
}

bool html_url_special(const char *v, size_t n, const char *base)
{
    char s[8];
    size_t k = scheme_of(v, n, s, sizeof(s));

    if (k > 0)
        return k < sizeof(s) && scheme_is_special(s, k);
    /* a relative reference takes the base's scheme (RFC 3986 5.2.2; the
     * WHATWG parser's relative state) */
    if (!base)
        return false;
    k = scheme_of(base, strlen(base), s, sizeof(s));
    return k > 0 && k < sizeof(s) && scheme_is_special(s, k);
}

size_t html_url_path_end(const char *v, size_t n)
{
    size_t i;

    for (i = 0; i < n && v[i] != '?' && v[i] != '#'; i++)
        ;
    return i;
}

void html_url_prepare(const char *v, size_t n, const char *base,
                      struct buf *out)
{
    /* WHATWG URL 4.4: "Remove all ASCII tab or newline from input"; for
     * special URLs, '\' is read as '/' in the scheme's slashes, the
     * authority and the path (a validation error, but the same URL) */
    bool special = memchr(v, '\\', n) && html_url_special(v, n, base);
    size_t end = special ? html_url_path_end(v, n) : 0, i;

    for (i = 0; i < n; i++)
        if (!is_tab_or_newline(v[i]))
            buf_putc(out, v[i] == '\\' && i < end ? '/' : v[i]);
}

enum xiri_status xiri_html_url(const char *value, size_t len, const char *base,
                               char **out, size_t *out_len)
{
    struct buf b;

    if (out)
        *out = NULL;
    if (out_len)
        *out_len = 0;
    if (!out || (!value && len))
        return XIRI_EINVAL;
    if (len > XIRI_MAX_LEN)
        return XIRI_ELIMIT;
    if (!value)
        value = "";
    /* WHATWG URL 4.4: "Remove any leading and trailing C0 control or
     * space from input" (the walker's links come without them) */
    while (len > 0 && (unsigned char)value[0] <= 0x20)
        value++, len--;
    while (len > 0 && (unsigned char)value[len - 1] <= 0x20)
        len--;
    buf_init(&b, XIRI_MAX_LEN);
    html_url_prepare(value, len, base, &b);
    return buf_take(&b, out, out_len);
}

/* scheme.c - scheme facts: DNS-based hosts and default ports (RFC 3986
 * section 6.2.3; RFC 9110 4.2 for http/https, RFC 6455 3 for ws/wss,
 * RFC 1738 3.2 for ftp). */
#include "common.h"
#include "chars.h"
#include "scheme.h"

size_t scheme_prefix_len(const char *v, size_t n)
{
    size_t i;

    if (n == 0 || !ch_is((unsigned char)v[0], CH_ALPHA))
        return 0;
    for (i = 1; i < n && ch_is((unsigned char)v[i], CH_SCHEME); i++)
        ;
    return i < n && v[i] == ':' ? i : 0;
}

size_t scheme_whatwg(const char *v, size_t n, char *out, size_t size)
{
    size_t i, k = 0;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];

        if (c == '\t' || c == '\n' || c == '\r')
            continue;
        if (c == ':')
            break;
        if (!ch_is(c, k == 0 ? CH_ALPHA : CH_SCHEME))
            return 0;
        if (k + 1 < size)
            out[k] = (char)c;
        k++;
    }
    if (i == n)
        return 0;
    if (k < size)
        out[k] = '\0';
    return k;
}

bool scheme_is(const char *s, size_t n, const char *lower)
{
    size_t i;

    if (strlen(lower) != n)
        return false;
    for (i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != lower[i])
            return false;
    }
    return true;
}

bool scheme_is_dns(const char *s, size_t n)
{
    return scheme_is(s, n, "http") || scheme_is(s, n, "https") ||
           scheme_is(s, n, "ftp") || scheme_is(s, n, "ws") ||
           scheme_is(s, n, "wss");
}

size_t scheme_mailto_address(const char *s, size_t i, size_t end, size_t *at)
{
    size_t j;

    *at = SIZE_MAX;
    for (j = i; j < end && s[j] != ','; j++)
        if (s[j] == '@')
            *at = j;
    return j;
}

bool scheme_is_special(const char *s, size_t n)
{
    return scheme_is_dns(s, n) || scheme_is(s, n, "file");
}

bool scheme_query_in_document_encoding(const char *s, size_t n)
{
    return scheme_is_special(s, n) && !scheme_is(s, n, "ws") &&
           !scheme_is(s, n, "wss");
}

const char *scheme_default_port(const char *s, size_t n)
{
    static const struct {
        const char *scheme, *port;
    } ports[] = {
        {"http", "80"}, {"https", "443"}, {"ws", "80"},
        {"wss", "443"}, {"ftp", "21"},
    };
    size_t i;

    for (i = 0; i < ARRAY_LEN(ports); i++)
        if (scheme_is(s, n, ports[i].scheme))
            return ports[i].port;
    return NULL;
}

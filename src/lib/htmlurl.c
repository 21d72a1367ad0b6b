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

/* The scheme v[0..n) is read with: its own, or without one base's (RFC
 * 3986 5.2.2; the WHATWG parser's relative state), its first letters
 * copied to out as scheme_of copies them; its length, 0 when none. */
static size_t effective_scheme(const char *v, size_t n, const char *base,
                               char *out, size_t size)
{
    size_t k = scheme_of(v, n, out, size);

    if (k == 0 && base)
        k = scheme_of(base, strlen(base), out, size);
    return k;
}

/* Whether that scheme is special and not file: such a URL must have a
 * host (WHATWG URL 4.4, host state: host-missing), which any number of
 * slashes may stand before ("ignore slashes"). */
static bool special_not_file(const char *v, size_t n, const char *base)
{
    char sc[8];
    size_t k = effective_scheme(v, n, base, sc, sizeof(sc));

    return k > 0 && k < sizeof(sc) && scheme_is_special(sc, k) &&
           !scheme_is(sc, k, "file");
}

bool html_url_special(const char *v, size_t n, const char *base)
{
    char sc[8];
    size_t k = effective_scheme(v, n, base, sc, sizeof(sc));

    return k > 0 && k < sizeof(sc) && scheme_is_special(sc, k);
}

size_t html_url_path_end(const char *v, size_t n)
{
    size_t i;

    for (i = 0; i < n && v[i] != '?' && v[i] != '#'; i++)
        ;
    return i;
}

/* WHATWG URL 4.4, file host state and path state: in a file URL, a
 * Windows drive letter written with '|' ("C|", RFC 8089 E.2.2) where the
 * host or the first segment of the path stands (after "file:" and up to
 * three slashes, or, in a reference against a file base, after one to
 * three; after a host, its path's first segment) is read as "C:"; written
 * over in place, so that the length stays.  A reference "C|/x" with no
 * slash before it, which a browser reads as "/C:/x", is html_url_rfc_form's
 * (a longer string). */
/* Whether s[i..n) starts with a drive letter written with '|' that is a
 * whole segment ("C|", then '/', '?', '#' or the end). */
static bool drive_letter_at(const char *s, size_t n, size_t i)
{
    return n - i >= 2 && is_alpha(s[i]) && s[i + 1] == '|' &&
           (n - i == 2 || s[i + 2] == '/' || s[i + 2] == '?' ||
            s[i + 2] == '#');
}

static void drive_letter_colon(char *s, size_t n, const char *base)
{
    char sc[8];
    size_t k = scheme_of(s, n, sc, sizeof(sc)), slashes = 0;
    size_t i = k > 0 ? k + 1 : 0; /* (no tab or newline: ':' is at k) */

    if (effective_scheme(s, n, base, sc, sizeof(sc)) != 4 ||
        !scheme_is(sc, 4, "file"))
        return;
    while (i < n && s[i] == '/' && slashes < 4)
        i++, slashes++;
    if (slashes > 3 || (k == 0 && slashes == 0))
        return;
    if (slashes == 2 && !drive_letter_at(s, n, i)) {
        /* a host: the path's first segment after it */
        while (i < n && s[i] != '/' && s[i] != '?' && s[i] != '#')
            i++;
        if (i == n || s[i] != '/')
            return;
        i++;
    }
    if (drive_letter_at(s, n, i))
        s[i + 1] = ':';
}

void html_url_prepare(const char *v, size_t n, const char *base,
                      struct buf *out)
{
    /* WHATWG URL 4.4: "Remove all ASCII tab or newline from input"; for
     * special URLs, '\' is read as '/' in the scheme's slashes, the
     * authority and the path (a validation error, but the same URL) */
    bool special = memchr(v, '\\', n) && html_url_special(v, n, base);
    size_t end = special ? html_url_path_end(v, n) : 0, i, from = out->len;

    for (i = 0; i < n; i++)
        if (!is_tab_or_newline(v[i]))
            buf_putc(out, v[i] == '\\' && i < end ? '/' : v[i]);
    if (out->status == XIRI_OK && memchr(v, '|', n))
        drive_letter_colon(out->data + from, out->len - from, base);
}

/* The authority after a run of slashes from v[i] on ("ignore slashes"
 * state: browsers skip them all), as "//" and the rest: false when no
 * host follows (browsers reject the URL; it is left as it is). */
static bool authority_after_slashes(const char *v, size_t n, size_t i,
                                    struct buf *out)
{
    while (i < n && v[i] == '/')
        i++;
    if (i == n || v[i] == '?' || v[i] == '#')
        return false;
    buf_append(out, "//", 2);
    buf_append(out, v + i, n - i);
    return true;
}

bool html_url_drive_relative(const char *v, size_t n, const char *base)
{
    /* (a drive letter "C|" is no scheme: '|' cannot stand in one) */
    return drive_letter_at(v, n, 0) && base && scheme_is(base, 4, "file") &&
           base[4] == ':';
}

bool html_url_rfc_form(const char *v, size_t n, const char *base,
                       struct buf *out)
{
    char sc[8];
    size_t k, i, j, from = out->len;
    bool same;

    /* most values have no scheme and do not start with "///" */
    if ((n < 3 || v[0] != '/' || v[1] != '/' || v[2] != '/') &&
        !memchr(v, ':', n) && !html_url_drive_relative(v, n, base))
        return false;
    k = scheme_of(v, n, sc, sizeof(sc));
    if (k == 0 && html_url_drive_relative(v, n, base)) {
        /* "C|/x" against a file base is "/C:/x" (file state: it starts
         * with a drive letter) */
        buf_append(out, "/", 1);
        buf_putc(out, v[0]);
        buf_putc(out, ':');
        buf_append(out, v + 2, n - 2);
        return true;
    }
    if (k == 0) {
        /* a relative reference against a special base (not file): three
         * slashes or more are a network-path reference ("relative slash
         * state", then "ignore slashes") */
        if (n < 3 || v[0] != '/' || v[1] != '/' || v[2] != '/' ||
            !special_not_file(v, 0, base))
            return false;
        return authority_after_slashes(v, n, 0, out);
    }
    if (k >= sizeof(sc) || !scheme_is_special(v, k) || scheme_is(v, k, "file"))
        return false;
    i = k + 1; /* (v holds no tab or newline: ':' is at k) */
    if (n - i >= 2 && v[i] == '/' && v[i + 1] == '/') {
        /* "scheme://": read alike, but for more slashes */
        if (n - i < 3 || v[i + 2] != '/')
            return false;
    } else {
        /* the same scheme as base's: base starts with it and ':' */
        for (j = 0, same = base != NULL; same && j < k; j++)
            same = (v[j] | 0x20) == (base[j] | 0x20);
        same = same && base[k] == ':';
        if (same) {
            /* "special relative or authority state": the rest is a
             * relative reference, with "./" before a first segment that
             * holds ':' so that it is no scheme (RFC 3986 4.2) */
            for (j = i; j < n && v[j] != '/' && v[j] != '?' && v[j] != '#' &&
                        v[j] != ':';
                 j++)
                ;
            if (j < n && v[j] == ':')
                buf_append(out, "./", 2);
            buf_append(out, v + i, n - i);
            return true;
        }
    }
    /* "special authority slashes" and "ignore slashes" states */
    buf_append(out, v, k + 1);
    if (!authority_after_slashes(v, n, i, out)) {
        out->len = from;
        return false;
    }
    return true;
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
    if (b.status == XIRI_OK && b.len > 0) {
        struct buf r;

        buf_init(&r, XIRI_MAX_LEN);
        if (html_url_rfc_form(b.data, b.len, base, &r)) {
            buf_free(&b);
            return buf_take(&r, out, out_len);
        }
        buf_free(&r);
    }
    return buf_take(&b, out, out_len);
}

/* A finding that says browsers reject the URL (xiri_check, html
 * profile): a host they cannot parse (a forbidden host code point, an
 * IPv4 address out of range, a bad IP literal) or a bad port. */
static int rejected_by_browsers(void *user, const struct xiri_diag *d)
{
    bool *rejected = user;

    if (d->severity == XIRI_SEV_ERROR &&
        ((strcmp(d->code, "invalid-char") == 0 && d->part == XIRI_PART_HOST) ||
         strcmp(d->code, "invalid-ipv4") == 0 ||
         strcmp(d->code, "invalid-port") == 0 ||
         strcmp(d->code, "invalid-ip-literal") == 0)) {
        *rejected = true;
        return 1;
    }
    return 0;
}

/* Whether the authority v[a..e) has no host once its userinfo and port
 * are gone. */
static bool host_empty(const char *v, size_t a, size_t e)
{
    size_t h = a, i;

    for (i = a; i < e; i++)
        if (v[i] == '@')
            h = i + 1; /* the last '@' ends the userinfo */
    for (i = h; i < e && v[i] != ':'; i++)
        if (v[i] == '[')
            return false; /* an IP literal */
    return i == h;
}

bool html_url_rejected(struct xiri_ctx *ctx, const char *v, size_t n,
                       const char *base)
{
    size_t i = 0, a, start, label = 0;
    bool suspect = false, rejected = false, special, scheme, slashes;

    while (i < n && v[i] != ':' && v[i] != '/' && v[i] != '?' && v[i] != '#')
        i++;
    scheme = i > 0 && i < n && v[i] == ':';
    if (scheme)
        i++;
    slashes = n - i >= 2 && v[i] == '/' && v[i + 1] == '/';
    if (!scheme && !slashes)
        return false; /* a relative reference without authority */
    special = special_not_file(v, n, base);
    if (special && scheme && !slashes) {
        /* a special scheme without "//" (html_url_rfc_form): relative
         * against a base of the same scheme, else its host follows any
         * slashes, and there must be one ("https:" against an http
         * base: host-missing) */
        size_t k;
        for (k = 0; base && k < i && (v[k] | 0x20) == (base[k] | 0x20); k++)
            ;
        if (k == i)
            return false;
        for (a = i; a < n && v[a] == '/'; a++)
            ;
        return a == n || v[a] == '?' || v[a] == '#';
    }
    if (!slashes)
        return false; /* no authority */
    a = i + 2;
    while (special && a < n && v[a] == '/')
        a++; /* "ignore slashes" (html_url_rfc_form) */
    start = a;
    /* the check runs only on an authority with a byte that may make it
     * fail: not an ASCII letter, digit, '.' or '-', or a last label that
     * starts with a digit (maybe an IPv4 address) */
    for (; a < n && v[a] != '/' && v[a] != '?' && v[a] != '#'; a++) {
        unsigned char c = (unsigned char)v[a];
        if (c == '.')
            label = a + 1;
        else if (!(c >= 0x80 || is_alpha((char)c) || (c >= '0' && c <= '9') ||
                   c == '-'))
            suspect = true;
    }
    if (special && host_empty(v, start, a))
        return true; /* host-missing */
    if (label == 0)
        label = start;
    if (!suspect && label < a && v[label] >= '0' && v[label] <= '9')
        suspect = true;
    if (suspect && xiri_check(ctx, v, n, XIRI_PROFILE_HTML,
                              rejected_by_browsers, &rejected,
                              NULL) != XIRI_OK)
        return false;
    return rejected;
}

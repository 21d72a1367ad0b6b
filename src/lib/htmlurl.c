/* htmlurl.c - HTML attribute values as browsers read them as URLs (WHATWG
 * URL Standard, "basic URL parser"), and xiri_html_url(). */
#include "common.h"
#include "htmlurl.h"
#include "chars.h"
#include "codes.h"
#include "linkcheck.h"
#include "resolve.h"
#include "scheme.h"

static bool is_tab_or_newline(char c)
{
    return c == '\t' || c == '\n' || c == '\r';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The scheme v[0..n) is read with: its own, or without one base's (RFC
 * 3986 5.2.2; the WHATWG parser's relative state), its first letters
 * copied to out as scheme_whatwg copies them; its length, 0 when none. */
static size_t effective_scheme(const char *v, size_t n, const char *base,
                               char *out, size_t size)
{
    size_t k = scheme_whatwg(v, n, out, size);

    if (k == 0 && base)
        k = scheme_whatwg(base, strlen(base), out, size);
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

/* Whether s[i..n) starts with a Windows drive letter (WHATWG URL 4.3: an
 * ASCII alpha, then ':' or '|'), alone or before '/', '?' or '#'. */
static bool starts_with_drive(const char *s, size_t n, size_t i)
{
    return n - i >= 2 && is_alpha(s[i]) &&
           (s[i + 1] == ':' || s[i + 1] == '|') &&
           (n - i == 2 || s[i + 2] == '/' || s[i + 2] == '?' ||
            s[i + 2] == '#');
}

/* Whether s[i..n) starts with a drive letter written with '|' that is a
 * whole segment ("C|", then '/', '?', '#' or the end). */
static bool drive_letter_at(const char *s, size_t n, size_t i)
{
    return starts_with_drive(s, n, i) && s[i + 1] == '|';
}

/* Whether s (NUL-terminated, NULL for none) is a file URL: its scheme is
 * "file", in any case. */
static bool is_file_url(const char *s)
{
    return s && (s[0] | 0x20) == 'f' && scheme_is(s, 4, "file") && s[4] == ':';
}

/* WHATWG URL 4.4, file host state and path state: in a file URL, a
 * Windows drive letter written with '|' ("C|", RFC 8089 E.2.2) where the
 * host or the first segment of the path stands (after "file:" and up to
 * three slashes, or, in a reference against a file base, after one to
 * three; after a host, its path's first segment) is read as "C:"; written
 * over in place, so that the length stays.  A reference "C|/x" with no
 * slash before it, which a browser reads as "/C:/x", is html_url_rfc_form's
 * (a longer string). */
static void drive_letter_colon(char *s, size_t n, const char *base)
{
    char sc[8];
    size_t k = scheme_whatwg(s, n, sc, sizeof(sc)), slashes = 0;
    size_t i = k > 0 ? k + 1 : 0; /* (no tab or newline: ':' is at k) */

    if (effective_scheme(s, n, base, sc, sizeof(sc)) != 4 ||
        !scheme_is(sc, 4, "file"))
        return;
    while (i < n && s[i] == '/' && slashes < 4)
        i++, slashes++;
    if (slashes > 3 || (k == 0 && slashes == 0))
        return;
    if (slashes == 2 && !starts_with_drive(s, n, i)) {
        /* a host (not a drive letter, "C:" or "C|", which the file host
         * state takes for the path's first segment): the path's first
         * segment after it */
        while (i < n && s[i] != '/' && s[i] != '?' && s[i] != '#')
            i++;
        if (i == n || s[i] != '/')
            return;
        i++;
    }
    if (drive_letter_at(s, n, i))
        s[i + 1] = ':';
}

void html_url_trim(const char **v, size_t *n)
{
    /* WHATWG URL 4.4: "remove any leading and trailing C0 control or
     * space from input" */
    while (*n > 0 && (unsigned char)(*v)[0] <= 0x20)
        (*v)++, (*n)--;
    while (*n > 0 && (unsigned char)(*v)[*n - 1] <= 0x20)
        (*n)--;
}

size_t html_url_raw_offset(const char *v, size_t n, size_t k)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (is_tab_or_newline(v[i]))
            continue;
        if (k-- == 0)
            return i;
    }
    return k == 0 ? n : SIZE_MAX;
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
    return drive_letter_at(v, n, 0) && is_file_url(base);
}

/* Whether the relative path reference v[0..n), written alone, needs "./"
 * before it: its first segment holds ':', which would make it a scheme
 * (RFC 3986 4.2), or it starts with a control or a space, which a value
 * read again would lose (WHATWG URL 4.4 strips them at its ends). */
static bool relative_needs_dot(const char *v, size_t n)
{
    size_t j;

    if (n > 0 && (unsigned char)v[0] <= 0x20)
        return true;
    for (j = 0; j < n && v[j] != '/' && v[j] != '?' && v[j] != '#'; j++)
        if (v[j] == ':')
            return true;
    return false;
}

/* Whether base starts with the scheme v[0..k) and ':' (ASCII case
 * ignored): a special URL without "//" is then relative to it (WHATWG
 * URL 4.4, "special relative or authority state"). */
static bool same_scheme_as_base(const char *v, size_t k, const char *base)
{
    size_t j;

    for (j = 0; base && j < k && (v[j] | 0x20) == (base[j] | 0x20); j++)
        ;
    return base && j == k && base[k] == ':';
}

/* html_url_rfc_form for a scheme read otherwise, odd slashes and a
 * relative drive letter. */
static bool rfc_form_scheme(const char *v, size_t n, const char *base,
                            struct buf *out)
{
    char sc[8];
    size_t k, i, from = out->len;

    /* most values have no scheme and do not start with "///" */
    if ((n < 3 || v[0] != '/' || v[1] != '/' || v[2] != '/') &&
        !memchr(v, ':', n) && !html_url_drive_relative(v, n, base))
        return false;
    k = scheme_whatwg(v, n, sc, sizeof(sc));
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
        if (same_scheme_as_base(v, k, base)) {
            /* "special relative or authority state": the rest is a
             * relative reference */
            if (relative_needs_dot(v + i, n - i))
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

/* Where the path of v[0..n) starts, or SIZE_MAX when it has no segments
 * to the WHATWG URL parser (an opaque path: a scheme that is not special,
 * then no '/'; "file:x" has the path "x"). */
static size_t path_start(const char *v, size_t n)
{
    char sc[8];
    size_t k = scheme_whatwg(v, n, sc, sizeof(sc)), i = k > 0 ? k + 1 : 0;

    if (n - i >= 2 && v[i] == '/' && v[i + 1] == '/') {
        for (i += 2; i < n && v[i] != '/' && v[i] != '?' && v[i] != '#'; i++)
            ;
        return i;
    }
    return html_url_opaque_path(v, n) ? SIZE_MAX : i;
}

bool html_url_opaque_path(const char *v, size_t n)
{
    size_t k = scheme_prefix_len(v, n);

    return k > 0 && !scheme_is_special(v, k) && (k + 1 == n || v[k + 1] != '/');
}

static bool dots_decoded(const char *v, size_t n, size_t a, struct buf *out);

/* WHATWG URL 4.4, path state: a segment "%2e", ".%2e", "%2e." or "%2e%2e"
 * (any case) is a dot segment, which RFC 3986 5.2.4 does not remove
 * (ch_escaped_dot_segment): v[0..n) with such segments of its path written
 * "." and "..", appended to out; false, and nothing appended, when it has
 * none. */
static bool rfc_form_dots(const char *v, size_t n, struct buf *out)
{
    size_t a;

    if (!memchr(v, '%', n) || (a = path_start(v, n)) == SIZE_MAX)
        return false;
    return dots_decoded(v, n, a, out);
}

/* rfc_form_dots for a path that starts at v[a]. */
static bool dots_decoded(const char *v, size_t n, size_t a, struct buf *out)
{
    size_t e, b;
    bool found = false;

    e = a + html_url_path_end(v + a, n - a);
    for (b = a; b <= e; a = ++b) {
        int dots;

        while (b < e && v[b] != '/')
            b++;
        dots = ch_escaped_dot_segment(v, a, b);
        if (dots > 0 && !found) {
            buf_append(out, v, a);
            found = true;
        }
        if (dots > 0)
            buf_append(out, "..", (size_t)dots);
        else if (found)
            buf_append(out, v + a, b - a);
        if (found && b < n)
            buf_putc(out, v[b]);
    }
    if (found && e < n)
        buf_append(out, v + e + 1, n - e - 1);
    return found;
}

/* Whether base is a file URL whose path starts with a drive letter
 * ("file:///C:/w/"): *drive is where its letter is. */
static bool base_drive(const char *base, size_t *drive)
{
    size_t i = 5;

    if (!is_file_url(base))
        return false;
    /* (read up to the drive only: base is NUL-terminated) */
    if (base[i] == '/' && base[i + 1] == '/')
        for (i += 2;
             base[i] && base[i] != '/' && base[i] != '?' && base[i] != '#'; i++)
            ;
    if (base[i] != '/' || !is_alpha(base[i + 1]) || base[i + 2] != ':' ||
        (base[i + 3] && base[i + 3] != '/' && base[i + 3] != '?' &&
         base[i + 3] != '#'))
        return false;
    *drive = i + 1;
    return true;
}

/* Whether s[a..e) holds "..". */
static bool has_dot_dot(const char *s, size_t a, size_t e)
{
    for (; a + 1 < e; a++)
        if (s[a] == '.' && s[a + 1] == '.')
            return true;
    return false;
}

/* Append "/", the drive letter drive[0] and ':', the path p[0..len)
 * with its dot segments removed (RFC 3986 5.2.4, under the drive), and
 * the rest tail[0..tail_len) (query, fragment). */
static void put_under_drive(struct buf *out, const char *drive, const char *p,
                            size_t len, const char *tail, size_t tail_len)
{
    buf_putc(out, '/');
    buf_putc(out, drive[0]);
    buf_putc(out, ':');
    path_remove_dots(out, p, len);
    buf_append(out, tail, tail_len);
}

/* WHATWG URL 4.4, file states: a file URL's drive letter is never taken
 * away: ".." stops at it ("shorten a path"; RFC 3986 5.2.4 removes it:
 * "file:///C:/.." is "file:///C:/" to browsers, "file:///" to RFC 3986),
 * a drive where the host stands is the path's ("//d:" against a file base
 * is "file:///d:", file host state), and a path reference against a file
 * base whose path starts with a drive letter keeps that drive ("/z"
 * against "file:///C:/w/" is "file:///C:/z", file slash state; "../../z"
 * against it "file:///C:/z").  For such a value v[0..n), the reference
 * that RFC 3986 resolves against base to the same, appended to out (its
 * path under the drive, dot segments removed); false, nothing appended,
 * otherwise. */
static bool rfc_form_file(const char *v, size_t n, const char *base,
                          struct buf *out)
{
    char sc[8];
    size_t k, i = 0, d, e, h, dir, j;
    bool file_base = is_file_url(base);
    bool stripped = false;
    struct buf merged, plain, *merged_path = &merged;

    if (!file_base && (n < 5 || (v[0] | 0x20) != 'f'))
        return false; /* most links */
    if (file_base && (n < 5 || (v[0] | 0x20) != 'f') &&
        (n < 2 || v[0] != '/' ||
         (v[1] != '/' && !starts_with_drive(v, n, 1))) &&
        !base_drive(base, &d))
        return false; /* most links against a file base without a drive:
                         not "file:", "//" or "/C:" */
    k = scheme_whatwg(v, n, sc, sizeof(sc));
    if (k > 0 && !scheme_is(v, k, "file"))
        return false;
    e = html_url_path_end(v, n);
    if (k > 0 && file_base) {
        /* against a file base, "file:" and the rest is read as the rest
         * alone: the scheme state and the no scheme state both go on in
         * the file state ("file:x" is "x", "file:/x" is "/x") */
        v += k + 1, n -= k + 1, e -= k + 1, k = 0;
        stripped = true;
    } else if (k > 0) {
        i = k + 1;
    } else if (!file_base) {
        return false;
    }
    if (k == 0 && starts_with_drive(v, e, 0)) {
        /* a drive letter first ("file:C:/x"): the file state starts the
         * path with it */
        put_under_drive(out, v, v + 2, e - 2, v + e, n - e);
        return true;
    }
    if (e - i >= 2 && v[i] == '/' && v[i + 1] == '/') {
        for (h = i + 2; h < e && v[h] != '/'; h++)
            ;
        if (h - i - 2 == 2 && starts_with_drive(v, e, i + 2)) {
            /* the drive where the host stands: an empty host */
            buf_append(out, v, i + 2);
            put_under_drive(out, v + i + 2, v + h, e - h, v + e, n - e);
            return true;
        }
        if (h - i - 2 == 9 && scheme_is(v + i + 2, 9, "localhost")) {
            /* file host state: the host "localhost" is the empty host
             * (RFC 8089 2: the same file; ASCII case ignored, the spelled
             * out name only) */
            struct buf local;

            buf_init(&local, XIRI_MAX_LEN);
            buf_append(&local, v, i + 2);
            buf_append(&local, v + h, n - h);
            if (local.status != XIRI_OK ||
                !rfc_form_file(local.data, local.len, base, out))
                buf_append(out, local.data ? local.data : "", local.len);
            if (local.status != XIRI_OK)
                out->status = local.status;
            buf_free(&local);
            return true;
        }
        i = h; /* the path after the host */
    } else if (k > 0) {
        /* "file:x" or "file:/x" without a file base: an empty host, then
         * the path (file state, file slash state, path state) */
        struct buf full;
        bool done;

        buf_init(&full, XIRI_MAX_LEN);
        buf_append(&full, v, k + 1);
        buf_append(&full, i < e && v[i] == '/' ? "//" : "///",
                   i < e && v[i] == '/' ? 2 : 3);
        buf_append(&full, v + i, n - i);
        done = full.status == XIRI_OK &&
               rfc_form_file(full.data, full.len, base, out);
        if (!done)
            buf_append(out, full.data ? full.data : "", full.len);
        if (full.status != XIRI_OK)
            out->status = full.status;
        buf_free(&full);
        return true;
    }
    if (i < e && v[i] == '/' && starts_with_drive(v, e, i + 1)) {
        /* its own drive: only ".." could take it away */
        if (!has_dot_dot(v, i + 3, e))
            goto as_is;
        buf_append(out, v, i);
        put_under_drive(out, v + i + 1, v + i + 3, e - i - 3, v + e, n - e);
        return true;
    }
    if (k > 0 || i > 0 || e == 0 || !base_drive(base, &d))
        goto as_is; /* an absolute URL or no drive to keep */
    if (v[0] == '/') {
        put_under_drive(out, base + d, v, e, v + e, n - e);
        return true;
    }
    if (!has_dot_dot(v, 0, e) && base[d + 2] == '/')
        goto as_is; /* RFC 3986's merge keeps the drive (but "x" against
                       "file:///C:" is "file:///x" to it) */
    /* RFC 3986 5.2.3 under the drive: base's path after it up to its last
     * '/', then v's path */
    for (dir = j = d + 2; base[j] && base[j] != '?' && base[j] != '#'; j++)
        if (base[j] == '/')
            dir = j + 1;
    buf_init(&merged, XIRI_MAX_LEN);
    if (dir == d + 2)
        buf_putc(&merged, '/');
    for (j = d + 2; j < dir; j++) /* as browsers read a file URL (a
                                      parsed base has no tab or '\') */
        if (!is_tab_or_newline(base[j]))
            buf_putc(&merged, base[j] == '\\' ? '/' : base[j]);
    buf_append(&merged, v, e);
    /* (a parsed base has no "%2e" segment either) */
    buf_init(&plain, XIRI_MAX_LEN);
    if (merged.status == XIRI_OK && memchr(merged.data, '%', merged.len) &&
        dots_decoded(merged.data, merged.len, 0, &plain))
        merged_path = &plain;
    if (merged_path->status == XIRI_OK)
        put_under_drive(out, base + d, merged_path->data, merged_path->len,
                        v + e, n - e);
    else
        out->status = merged_path->status;
    buf_free(&merged);
    buf_free(&plain);
    return true;
as_is:
    if (stripped && n > 0 && v[0] != '/' && relative_needs_dot(v, n))
        buf_append(out, "./", 2);
    if (stripped)
        buf_append(out, v, n);
    return stripped;
}

bool html_url_rfc_form(const char *v, size_t n, const char *base,
                       struct buf *out)
{
    struct buf a, b;
    bool changed = false, drive;

    buf_init(&a, XIRI_MAX_LEN);
    buf_init(&b, XIRI_MAX_LEN);
    if (rfc_form_scheme(v, n, base, &a)) {
        v = a.data ? a.data : "";
        n = a.len;
        changed = true;
    }
    if (rfc_form_dots(v, n, &b)) {
        v = b.data ? b.data : "";
        n = b.len;
        changed = true;
    }
    drive = rfc_form_file(v, n, base, out);
    if (!drive && changed)
        buf_append(out, v, n);
    if (a.status != XIRI_OK || b.status != XIRI_OK)
        out->status = a.status != XIRI_OK ? a.status : b.status;
    buf_free(&a);
    buf_free(&b);
    return changed || drive;
}

bool html_url_needs_prepare(const char *v, size_t n)
{
    return memchr(v, '\t', n) || memchr(v, '\n', n) || memchr(v, '\r', n) ||
           memchr(v, '\\', n) || memchr(v, '|', n);
}

/* Whether v[0..n) has a path segment "%2e" or "%2e%2e" (any case, or one
 * dot of two so written): a '%' that starts a "%2e" (ch_is_pct_dot). */
static bool has_escaped_dot(const char *v, size_t n)
{
    const char *p = v, *end = v + n;

    while ((p = memchr(p, '%', (size_t)(end - p))) != NULL) {
        if (ch_is_pct_dot(v, n, (size_t)(p - v)))
            return true;
        p++;
    }
    return false;
}

/* Whether a file URL's states (WHATWG URL 4.4, file state and on) may
 * read v[0..n) against base otherwise than RFC 3986 does: v is a file
 * URL ("file:x", "file://h/C:/.."), or base is one and v starts with "//"
 * ("//C:") or a drive ("/C:/.."), or base has a drive letter (a ':' after
 * its "file:", which ".." and "/z" keep). */
static bool file_states_differ(const char *v, size_t n, const char *base)
{
    if (n >= 5 && v[4] == ':' && scheme_is(v, 4, "file"))
        return true;
    return is_file_url(base) &&
           ((n >= 2 && v[0] == '/' && v[1] == '/') ||
            (n >= 3 && v[0] == '/' && (v[2] == ':' || v[2] == '|')) ||
            strchr(base + 5, ':'));
}

bool html_url_reading_differs(const char *v, size_t n, const char *base)
{
    size_t i = 0;

    if (html_url_needs_prepare(v, n) || has_escaped_dot(v, n) ||
        file_states_differ(v, n, base))
        return true;
    if (n >= 3 && v[0] == '/' && v[1] == '/' && v[2] == '/')
        return true;
    while (i < n && v[i] != ':' && v[i] != '/' && v[i] != '?' && v[i] != '#')
        i++;
    return i > 0 && i < n && v[i] == ':' &&
           (n - i < 3 || v[i + 1] != '/' || v[i + 2] != '/' ||
            (n - i > 3 && v[i + 3] == '/'));
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
    html_url_trim(&value, &len); /* (the walker's links come trimmed) */
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

bool html_url_opaque_base(const char *v, size_t n, const char *base)
{
    size_t i;

    for (i = 0; i < n && (unsigned char)v[i] <= 0x20; i++)
        ; /* browsers remove C0 controls and spaces there first */
    if (!base || (i < n && v[i] == '#'))
        return false;
    /* most bases ("http://", "https://") are soon known not to be */
    for (i = 0; i < 6 && base[i] && base[i] != ':'; i++)
        ;
    if (base[i] == ':' && base[i + 1] == '/')
        return false;
    /* (a scheme with a tab or newline in it is one: browsers remove them) */
    return scheme_whatwg(v, n, NULL, 0) == 0 &&
           html_url_opaque_path(base, strlen(base));
}

/* A finding that says browsers reject the URL (xiri_check, html
 * profile, where these are errors only when they do): a host they cannot
 * parse (a forbidden host code point; a domain WHATWG's domain to ASCII
 * rejects: idna-error, idna-bidi; an IPv4 address out of range; a bad IP
 * literal) or a bad port.  (An xn-- label that is no A-label is left: ICU
 * and the browsers of the day disagree on some, fake-a-label says so.) */
static int rejected_by_browsers(void *user, const struct xiri_diag *d)
{
    bool *rejected = user;

    /* (the catalogue's strings: check_run's codes point into it) */
    if (d->severity == XIRI_SEV_ERROR &&
        (((d->code == codes_get(CODE_INVALID_CHAR)->code ||
           d->code == codes_get(CODE_IDNA_ERROR)->code ||
           d->code == codes_get(CODE_IDNA_BIDI)->code) &&
          d->part == XIRI_PART_HOST) ||
         d->code == codes_get(CODE_INVALID_IPV4)->code ||
         d->code == codes_get(CODE_INVALID_PORT)->code ||
         d->code == codes_get(CODE_INVALID_IP_LITERAL)->code)) {
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

/* WHATWG URL 4.4, authority and host states: whether the authority
 * v[a..e) of a URL that is not special has userinfo or a port and no
 * host ("sc://@/", "sc://:12/"): it fails. */
static bool opaque_host_missing(const char *v, size_t a, size_t e)
{
    return host_empty(v, a, e) &&
           (memchr(v + a, '@', e - a) || memchr(v + a, ':', e - a));
}

bool html_url_host_missing(const char *v, size_t n, const char *base)
{
    char sc[8];
    size_t k = scheme_whatwg(v, n, sc, sizeof(sc)), i = k > 0 ? k + 1 : 0, a, j;

    if (k == 0 && (n < 2 || v[0] != '/' || v[1] != '/'))
        return false; /* a relative reference without authority */
    if (!special_not_file(v, n, base)) {
        if (html_url_special(v, n, base) || n - i < 2 || v[i] != '/' ||
            v[i + 1] != '/')
            return false; /* file, or no authority */
        for (j = i + 2; j < n && v[j] != '/' && v[j] != '?' && v[j] != '#'; j++)
            ;
        return opaque_host_missing(v, i + 2, j);
    }
    if (k > 0 && (n - i < 2 || v[i] != '/' || v[i + 1] != '/')) {
        /* a special scheme without "//" (html_url_rfc_form): relative
         * against a base of the same scheme, else its host follows any
         * slashes ("https:" against an http base has none) */
        if (same_scheme_as_base(v, k, base))
            return false;
    }
    for (a = i; a < n && v[a] == '/'; a++)
        ; /* "ignore slashes" */
    for (j = a; j < n && v[j] != '/' && v[j] != '?' && v[j] != '#'; j++)
        ;
    return host_empty(v, a, j);
}

enum xiri_status html_url_host_missing_diag(const char *v, size_t n,
                                            const char *base,
                                            struct xiri_diag *d, bool *found)
{
    struct buf prep;

    *found = false;
    if (!html_url_needs_prepare(v, n)) {
        *found = html_url_host_missing(v, n, base);
    } else {
        buf_init(&prep, XIRI_MAX_LEN);
        html_url_prepare(v, n, base, &prep);
        if (prep.status != XIRI_OK) {
            enum xiri_status st = prep.status;

            buf_free(&prep);
            return st;
        }
        *found =
            html_url_host_missing(prep.data ? prep.data : "", prep.len, base);
        buf_free(&prep);
    }
    if (*found)
        codes_diag(d, CODE_HOST_MISSING, XIRI_PART_COUNT, 0, n, 0,
                   "this URL has no host, and browsers reject it (WHATWG "
                   "URL: host-missing); write the host or a relative "
                   "reference");
    return XIRI_OK;
}

/* Whether c is '/' or '\', which a special URL's slashes take alike. */
static bool is_slash(char c)
{
    return c == '/' || c == '\\';
}

bool html_url_hidden_host(const char *v, size_t n, const char *base,
                          size_t *slashes_at, size_t *host_at)
{
    size_t k = 0, i = 0, s, e;
    char sc[8];

    if (n == 0)
        return false;
    if (!is_slash(v[0])) {
        k = scheme_prefix_len(v, n);
        if (k == 0)
            return false; /* a path reference: no authority at all */
        i = k + 1;
        /* most absolute URLs: "//" and a host, as RFC 3986 reads them */
        if (n - i >= 3 && v[i] == '/' && v[i + 1] == '/' && !is_slash(v[i + 2]))
            return false;
    }
    for (s = i; s < n && is_slash(v[s]); s++)
        ;
    if (s == n || v[s] == '?' || v[s] == '#')
        return false; /* no host at all (html_url_host_missing) */
    if (s - i == 2 && v[i] == '/' && v[i + 1] == '/')
        return false; /* "//h": RFC 3986's authority too */
    /* WHATWG URL 4.4: without a scheme, or with its base's (special
     * relative or authority state), two slashes start an authority, one
     * a path; with another, the special authority slashes state takes
     * any number of them, none too */
    if ((k == 0 || same_scheme_as_base(v, k, base)) && s - i < 2)
        return false;
    e = effective_scheme(v, n, base, sc, sizeof(sc));
    if (e == 0 || e >= sizeof(sc) || !scheme_is_special(sc, e))
        return false;
    /* file slash and file host states: a file URL's host follows two
     * slashes exactly, either of which may be '\'; after more its host
     * is empty, after fewer it has none */
    if (scheme_is(sc, e, "file") && s - i != 2)
        return false;
    *slashes_at = i;
    *host_at = s;
    return true;
}

void html_url_host_form(const char *v, size_t n, const char *base,
                        size_t slashes_at, size_t host_at, struct buf *out)
{
    size_t end = html_url_special(v, n, base) ? html_url_path_end(v, n) : 0;
    size_t j;

    buf_append(out, v, slashes_at);
    buf_append(out, "//", 2);
    for (j = host_at; j < n; j++)
        buf_putc(out, v[j] == '\\' && j < end ? '/' : v[j]);
}

enum xiri_status html_url_rejected(struct xiri_ctx *ctx, const char *v,
                                   size_t n, const char *base, bool *rejected)
{
    char sc[8];
    size_t k, i, a, start, label, last = SIZE_MAX, slashes, host;
    bool suspect = false;
    enum xiri_status st;

    *rejected = false;
    /* most values: a path reference, with no ':' (so no scheme: k would
     * be 0) and no slash first, has no authority that could fail; the
     * tests below find the same */
    if (n == 0 || (!is_slash(v[0]) && !memchr(v, ':', n)))
        return XIRI_OK;
    k = scheme_whatwg(v, n, sc, sizeof(sc));
    i = k > 0 ? k + 1 : 0;
    if (html_url_hidden_host(v, n, base, &slashes, &host)) {
        /* a host browsers find after other than "//" ("///h",
         * "https:h" against an http base): judged with "//" before it;
         * check_run reads a network-path reference's host with the
         * base's scheme ("//h" against an http base: a domain) */
        struct buf b;

        buf_init(&b, XIRI_MAX_LEN);
        html_url_host_form(v, n, base, slashes, host, &b);
        st = b.status != XIRI_OK
                 ? b.status
                 : html_url_rejected(ctx, b.data, b.len, base, rejected);
        buf_free(&b);
        return st;
    }
    if (n - i < 2 || v[i] != '/' || v[i + 1] != '/') {
        /* no authority: a relative reference without one is fine, and
         * so is "http:p" against an http base; "https:" against one has
         * no host */
        *rejected = k > 0 && html_url_host_missing(v, n, base);
        return XIRI_OK;
    }
    start = label = a = i + 2;
    /* the check runs only on an authority with a byte that may make it
     * fail: not an ASCII letter, digit, '.' or '-' (IDNA may reject a
     * non-ASCII one), or a last label that starts with a digit (maybe an
     * IPv4 address; WHATWG URL 3.5, "ends in a number checker": after a
     * trailing '.', the label before it) */
    for (; a < n && v[a] != '/' && v[a] != '?' && v[a] != '#'; a++) {
        unsigned char c = (unsigned char)v[a];
        if (c == '.') {
            last = label;
            label = a + 1;
        } else if (!(is_alpha((char)c) || (c >= '0' && c <= '9') || c == '-')) {
            suspect = true;
        }
    }
    /* an empty host, or userinfo or a port ('@' and ':' are suspect)
     * with none, is host-missing; most hosts are plain names */
    if ((a == start || suspect) && html_url_host_missing(v, n, base)) {
        *rejected = true;
        return XIRI_OK;
    }
    if (label == a && last != SIZE_MAX)
        label = last;
    if (!suspect && label < a && v[label] >= '0' && v[label] <= '9')
        suspect = true;
    if (!suspect)
        return XIRI_OK;
    return check_run(ctx, v, n, XIRI_PROFILE_HTML, base, rejected_by_browsers,
                     rejected, NULL, NULL);
}

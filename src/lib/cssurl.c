/* cssurl.c - the url()s of a CSS value (cssurl.h), found as CSS Syntax
 * Module Level 3 (W3C Candidate Recommendation Draft, 24 December 2021)
 * section 4, "Tokenization", finds them.  Only what decides where a url()
 * starts and ends is followed: comments (4.3.2), strings (4.3.5), names
 * (4.3.11) with their escapes (4.3.7, 4.3.8), url tokens (4.3.6) and their
 * remnants (4.3.14); every other token is read a character at a time,
 * which moves no url(). */
#include "common.h"
#include "cssurl.h"
#include "chars.h"

/* 4.2 "newline" (3.3 preprocessing makes CR, CR LF and FF newlines) */
static bool css_newline(unsigned char c)
{
    return c == '\n' || c == '\r' || c == '\f';
}

/* 4.2 "whitespace" */
static bool css_space(unsigned char c)
{
    return css_newline(c) || c == ' ' || c == '\t';
}

/* 4.2 "ident code point": a letter, a digit, '_', '-', or a non-ASCII
 * code point (each byte of one in UTF-8).  Digits and '-' cannot start
 * an ident, but a name run that starts with them is a number, a
 * dimension or an ident other than "url" all the same. */
static bool css_name_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '-' || c >= 0x80;
}

/* 4.2 "non-printable code point"; U+0000 is none, since 3.3 makes it
 * U+FFFD. */
static bool css_non_printable(unsigned char c)
{
    return (c >= 0x01 && c <= 0x08) || c == 0x0B || (c >= 0x0E && c <= 0x1F) ||
           c == 0x7F;
}

/* 4.3.8: a '\' at i starts a valid escape unless a newline follows it
 * (at the end of the text it does: 4.3.7 reads U+FFFD). */
static bool css_valid_escape(const char *v, size_t n, size_t i)
{
    return v[i] == '\\' &&
           (i + 1 >= n || !css_newline((unsigned char)v[i + 1]));
}

/* 4.3.7 "consume an escaped code point", the '\' at i: the index after
 * the escape; its code point in *cp (exact when ASCII; a code point
 * written as UTF-8 gives its first byte, which is no ASCII letter). */
static size_t css_escape_end(const char *v, size_t n, size_t i,
                             unsigned long *cp)
{
    size_t k = i + 1;
    unsigned long x = 0;
    int d = 0, h;

    if (k >= n) {
        *cp = 0xFFFD;
        return k;
    }
    if (ch_hexval((unsigned char)v[k]) < 0) {
        *cp = (unsigned char)v[k];
        return k + 1;
    }
    /* up to six hex digits, then one white space (CR LF counts as one) */
    while (k < n && d < 6 && (h = ch_hexval((unsigned char)v[k])) >= 0) {
        x = x * 16 + (unsigned long)h;
        k++;
        d++;
    }
    if (k < n && css_space((unsigned char)v[k]))
        k += v[k] == '\r' && k + 1 < n && v[k + 1] == '\n' ? 2 : 1;
    *cp = x;
    return k;
}

/* 4.3.11 "consume an ident sequence" from i: the index after it; *same
 * when its code points are word's (lower case ASCII) in any ASCII case
 * (4.3.4 compares "url" so). */
static size_t css_name_end(const char *v, size_t n, size_t i, const char *word,
                           bool *same)
{
    size_t count = 0, wl = strlen(word);
    bool eq = true;
    unsigned long cp;

    while (i < n) {
        unsigned char c = (unsigned char)v[i];

        if (css_name_char(c)) {
            cp = c;
            i++;
        } else if (css_valid_escape(v, n, i)) {
            i = css_escape_end(v, n, i, &cp);
        } else {
            break;
        }
        if (cp >= 'A' && cp <= 'Z')
            cp += 'a' - 'A';
        if (count < wl && cp != (unsigned char)word[count])
            eq = false;
        count++;
    }
    *same = eq && count == wl;
    return i;
}

/* 4.3.2: the comment whose "/" is at i: the index after its end. */
static size_t css_comment_end(const char *v, size_t n, size_t i)
{
    for (i += 2; i + 1 < n; i++)
        if (v[i] == '*' && v[i + 1] == '/')
            return i + 2;
    return n; /* 4.3.2: a comment the text ends is one all the same */
}

/* 4.3.5 "consume a string token": the string whose opening quote is at
 * i.  Fills u (kind, the text between the quotes); returns the index
 * after the closing quote, at the end of the text, or at the newline
 * that makes it a bad string (4.3.5 reconsumes it). */
static size_t css_string(const char *v, size_t n, size_t i, struct css_url *u)
{
    char q = v[i];
    size_t j = i + 1;
    unsigned long cp;

    u->quote = q;
    u->start = u->at = j;
    u->kind = CSS_URL_OK;
    while (j < n && v[j] != q) {
        unsigned char c = (unsigned char)v[j];

        if (css_newline(c)) {
            u->kind = CSS_URL_BAD;
            u->at = j;
            u->len = j - u->start;
            return j;
        }
        if (c == '\\') {
            if (u->kind == CSS_URL_OK) {
                u->kind = CSS_URL_ESCAPED;
                u->at = j;
            }
            if (j + 1 < n && css_newline((unsigned char)v[j + 1]))
                /* an escaped newline continues the string: no character */
                j += v[j + 1] == '\r' && j + 2 < n && v[j + 2] == '\n' ? 3 : 2;
            else
                j = css_escape_end(v, n, j, &cp);
            continue;
        }
        j++;
    }
    u->len = (j < n ? j : n) - u->start;
    return j < n ? j + 1 : n; /* the end of the text ends it too */
}

/* 4.3.14 "consume the remnants of a bad url" from i: the index after the
 * ')' that ends it, or the end. */
static size_t css_bad_url_end(const char *v, size_t n, size_t i)
{
    unsigned long cp;

    while (i < n) {
        if (v[i] == ')')
            return i + 1;
        i = css_valid_escape(v, n, i) ? css_escape_end(v, n, i, &cp) : i + 1;
    }
    return n;
}

/* 4.3.6 "consume a url token", its first character at i (after "url("
 * and white space): fills u, returns the index after it. */
static size_t css_url_token(const char *v, size_t n, size_t i,
                            struct css_url *u)
{
    size_t j = i, k;
    unsigned long cp;

    u->quote = 0;
    u->start = i;
    u->kind = CSS_URL_OK;
    u->at = i;
    while (j < n) {
        unsigned char c = (unsigned char)v[j];

        if (c == ')') {
            u->len = j - i;
            return j + 1;
        }
        if (css_space(c)) {
            for (k = j; k < n && css_space((unsigned char)v[k]); k++)
                ;
            if (k >= n || v[k] == ')') {
                u->len = j - i;
                return k < n ? k + 1 : n;
            }
            u->kind = CSS_URL_BAD;
            u->at = j;
            u->len = j - i;
            return css_bad_url_end(v, n, k);
        }
        if (c == '"' || c == '\'' || c == '(' || css_non_printable(c) ||
            (c == '\\' && !css_valid_escape(v, n, j))) {
            u->kind = CSS_URL_BAD;
            u->at = j;
            u->len = j - i;
            return css_bad_url_end(v, n, j);
        }
        if (c == '\\') {
            if (u->kind == CSS_URL_OK) {
                u->kind = CSS_URL_ESCAPED;
                u->at = j;
            }
            j = css_escape_end(v, n, j, &cp);
            continue;
        }
        j++;
    }
    u->len = n - i; /* the end of the text ends it (a parse error only) */
    return n;
}

/* White space and comments from i: the index after them. */
static size_t css_skip_space(const char *v, size_t n, size_t i)
{
    for (;;) {
        while (i < n && css_space((unsigned char)v[i]))
            i++;
        if (i + 1 < n && v[i] == '/' && v[i + 1] == '*')
            i = css_comment_end(v, n, i);
        else
            return i;
    }
}

/* 4.3.4 "consume an ident-like token" after "url(" (i just after the
 * '('): white space, then a quote makes it a function whose argument is
 * a string, anything else a url token; u gets it, and the index after it
 * is returned. */
static size_t css_url_after_paren(const char *v, size_t n, size_t i,
                                  struct css_url *u)
{
    while (i < n && css_space((unsigned char)v[i]))
        i++;
    return i < n && (v[i] == '"' || v[i] == '\'') ? css_string(v, n, i, u)
                                                  : css_url_token(v, n, i, u);
}

/* The prelude of an at-rule from i, passed over up to its ';' or '{'
 * (not consumed: the '{' opens its block) or the end: strings, url
 * tokens and comments whole, so that none of them counts. */
static size_t css_prelude_end(const char *v, size_t n, size_t i)
{
    struct css_url skip;
    bool same;

    while (i < n && v[i] != ';' && v[i] != '{') {
        unsigned char c = (unsigned char)v[i];

        if (c == '/' && i + 1 < n && v[i + 1] == '*') {
            i = css_comment_end(v, n, i);
        } else if (c == '"' || c == '\'') {
            i = css_string(v, n, i, &skip);
        } else if (css_name_char(c) || css_valid_escape(v, n, i)) {
            i = css_name_end(v, n, i, "url", &same);
            if (same && i < n && v[i] == '(')
                i = css_url_after_paren(v, n, i + 1, &skip);
        } else {
            i++;
        }
    }
    return i;
}

void css_scan_init(struct css_scan *s, bool sheet)
{
    s->pos = 0;
    s->depth = 0;
    s->sheet = sheet;
    s->rules_seen = false;
    s->set_parens = 0;
}

/* Does the name run v[i..end) (before a '(') name image-set() or its
 * older alias -webkit-image-set() (CSS Images Module Level 4: both are
 * read by browsers), in any ASCII case? */
static bool css_image_set_name(const char *v, size_t n, size_t i)
{
    bool same;

    css_name_end(v, n, i, "image-set", &same);
    if (!same)
        css_name_end(v, n, i, "-webkit-image-set", &same);
    return same;
}

bool css_url_next(const char *v, size_t n, struct css_scan *s,
                  struct css_url *u)
{
    size_t i = s->pos, k;
    struct css_url skip;
    bool same;

    u->source = CSS_IN_URL;
    while (i < n) {
        unsigned char c = (unsigned char)v[i];

        if (c == '/' && i + 1 < n && v[i + 1] == '*') {
            i = css_comment_end(v, n, i);
        } else if ((c == '"' || c == '\'') && s->set_parens == 1) {
            /* CSS Images Module Level 4, "the image-set() notation": a
             * <string> option is a URL */
            i = css_string(v, n, i, u);
            u->source = CSS_IN_IMAGE_SET;
            if (u->kind == CSS_URL_BAD)
                s->set_parens = 0; /* browsers drop the declaration: what
                                      follows in it is no URL */
            s->pos = i;
            return true;
        } else if (c == '"' || c == '\'') {
            i = css_string(v, n, i, &skip); /* a string: no url() */
        } else if ((c == '(' || c == ')') && s->set_parens > 0) {
            /* the parentheses of the image-set() and of the functions
             * and blocks inside it (type(), gradients) */
            s->set_parens += c == '(' ? 1 : -1;
            i++;
        } else if (c == '<' && i + 3 < n && memcmp(v + i + 1, "!--", 3) == 0) {
            i += 4; /* 4.3.1: a <CDO-token>, no name of which "url" is part */
        } else if (c == '{' || c == '}') {
            /* blocks: a sheet's rules, outside them its @imports */
            if (c == '{' && s->depth++ == 0)
                s->rules_seen = true;
            else if (c == '}' && s->depth > 0)
                s->depth--;
            i++;
        } else if (c == '#') {
            /* 4.3.1: a hash: its name is no function */
            i = css_name_end(v, n, i + 1, "url", &same);
        } else if (c == '@') {
            /* an at-keyword: its name is no function either */
            k = i + 1;
            i = css_name_end(v, n, k, "import", &same);
            if (!s->sheet)
                continue;
            if (same && s->depth == 0 && !s->rules_seen) {
                /* CSS Cascading and Inheritance 4, 2.1: a string or a
                 * url() names the style sheet */
                i = css_skip_space(v, n, i);
                if (i < n && (v[i] == '"' || v[i] == '\'')) {
                    i = css_string(v, n, i, u);
                    u->source = CSS_IN_IMPORT;
                    s->pos = i;
                    return true;
                }
                continue; /* a url() is found as any other */
            }
            if (same) {
                /* an @import after other rules or in a block: browsers
                 * ignore it, and what it names */
                i = css_prelude_end(v, n, i);
                continue;
            }
            css_name_end(v, n, k, "namespace", &same);
            if (same) {
                /* a namespace name, compared, never loaded */
                i = css_prelude_end(v, n, i);
                if (s->depth == 0)
                    s->rules_seen = true;
                continue;
            }
            if (s->depth == 0) {
                /* (@charset and an @layer statement may come before an
                 * @import, CSS Cascading and Inheritance 4, 2.1; an
                 * @layer block is a rule, which its '{' tells) */
                bool charset, layer;

                css_name_end(v, n, k, "charset", &charset);
                css_name_end(v, n, k, "layer", &layer);
                if (!charset && !layer)
                    s->rules_seen = true;
            }
        } else if (css_name_char(c) || css_valid_escape(v, n, i)) {
            k = i;
            i = css_name_end(v, n, i, "url", &same);
            if (i >= n || v[i] != '(')
                continue;
            if (!same) {
                /* a function: an image-set() (not one inside another:
                 * there it is no <image>, and its strings no URLs) */
                if (s->set_parens == 0 && css_image_set_name(v, n, k)) {
                    s->set_parens = 1;
                    i++;
                }
                continue;
            }
            i = css_url_after_paren(v, n, i + 1, u);
            if (s->set_parens > 0 && u->kind == CSS_URL_BAD)
                s->set_parens = 0; /* as for a bad string, above */
            else if (s->set_parens > 0 && u->quote)
                s->set_parens++; /* url("a"): a function (4.3.4), whose ')'
                                    is yet to come; it closes no set */
            s->pos = i;
            return true;
        } else {
            i++;
        }
    }
    s->pos = n;
    return false;
}

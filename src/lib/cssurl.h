/* cssurl.h - the url()s of a CSS value (the declarations of a style
 * attribute, an SVG presentation attribute such as fill="url(#g)"), found
 * as CSS Syntax Module Level 3 section 4 tokenizes the text. */
#ifndef XIRI_CSSURL_H
#define XIRI_CSSURL_H

#include "common.h"

enum css_url_kind {
    CSS_URL_OK,      /* the URL is v[start .. start + len) as written */
    CSS_URL_ESCAPED, /* it holds a CSS escape ('\', 4.3.7): its characters
                        are not the bytes written; at: the first '\' */
    CSS_URL_BAD      /* a <bad-url-token> (4.3.6: white space inside an
                        unquoted URL, a quote, '(', a control character)
                        or a string a line end cuts (4.3.5): browsers drop
                        the declaration; at: the character that made it
                        bad */
};

/* What holds a URL. */
enum css_url_source {
    CSS_IN_URL,       /* a url() */
    CSS_IN_IMPORT,    /* the string of an @import */
    CSS_IN_IMAGE_SET, /* a string argument of an image-set() */
};

/* One url(): an unquoted <url-token> (quote 0) or the string argument of
 * a url( function (quote '"' or '\''); or a string that is a URL. */
struct css_url {
    size_t start, len; /* the URL, without white space or quotes around */
    size_t at;         /* see enum css_url_kind; start for CSS_URL_OK */
    char quote;
    enum css_url_source source;
    enum css_url_kind kind;
};

/* Where the tokenizer is: css_scan_init before the first css_url_next. */
struct css_scan {
    size_t pos;      /* the next character to read */
    unsigned depth;  /* of {} blocks */
    bool sheet;      /* a style sheet, not declarations or a value */
    bool rules_seen; /* a style sheet: a rule other than @charset, @import
                        and an @layer statement was read */
    unsigned set_parens; /* inside an image-set(): its parentheses open
                            (1: its own), else 0 */
};

void css_scan_init(struct css_scan *s, bool sheet);

/* The next url() of v[0..n) (decoded, UTF-8) from where s is (the caller
 * leaves s alone between calls); false when there is none.  Comments,
 * strings, and the names of hash, at-keyword and dimension tokens are
 * passed over, so "url(" in them starts nothing; the name "url" may be
 * written with escapes ("\75 rl("), as the tokenizer decodes them.  In a
 * style sheet (s->sheet: a style element's content) the string after
 * "@import" names a style sheet as a url() does (CSS Cascading and
 * Inheritance 4, 2.1) and comes as one too, but only where browsers read
 * an @import, before any other rule and outside blocks; the prelude of
 * an @import read nowhere, and that of an @namespace (a namespace name,
 * CSS Namespaces 3, 2), give nothing.  Everywhere, a string that is an
 * argument of an image-set() (or -webkit-image-set()) is a URL as a
 * url() is (CSS Images Module Level 4, "the image-set() notation"); one
 * inside a function within it, type("image/avif"), is not. */
bool css_url_next(const char *v, size_t n, struct css_scan *s,
                  struct css_url *u);

#endif

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

/* One url(): an unquoted <url-token> (quote 0) or the string argument of
 * a url( function (quote '"' or '\''). */
struct css_url {
    size_t start, len; /* the URL, without white space or quotes around */
    size_t at;         /* see enum css_url_kind; start for CSS_URL_OK */
    char quote;
    enum css_url_kind kind;
};

/* The next url() of v[0..n) (decoded, UTF-8) at or after *pos, which the
 * caller starts at 0 and leaves alone between calls (it is the
 * tokenizer's place); false when there is none.  Comments, strings, and
 * the names of hash, at-keyword and dimension tokens are passed over, so
 * "url(" in them starts nothing; the name "url" may be written with
 * escapes ("\75 rl("), as the tokenizer decodes them.  sheet: v is a
 * style sheet (a style element's content), where the string after
 * "@import" names a style sheet as a url() does (CSS Cascading and
 * Inheritance 4, 2.1), and comes as one too. */
bool css_url_next(const char *v, size_t n, bool sheet, size_t *pos,
                  struct css_url *u);

#endif

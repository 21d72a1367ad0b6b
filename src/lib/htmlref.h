/* htmlref.h - character references in HTML as browsers read them (WHATWG
 * HTML 13.2.5.72-13.2.5.80, the tokenizer's character reference states),
 * for attribute values and text. */
#ifndef XIRI_HTMLREF_H
#define XIRI_HTMLREF_H

#include "common.h"

/* The reference at s[0] == '&' in s[0..n) (n > 0): how many bytes it takes
 * (0 when it is no reference: the '&' stands for itself), its value in
 * UTF-8 written to out (at most 8 bytes) and its length to *out_len.
 * attribute: in an attribute value, where a named reference without ';'
 * followed by '=' or an ASCII alphanumeric is no reference (13.2.5.73);
 * the text after s[n - 1] is taken to be neither. */
size_t htmlref_decode(const char *s, size_t n, bool attribute, char out[8],
                      size_t *out_len);

#endif

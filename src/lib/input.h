/* input.h - the document's bytes on their way to the parser: choosing the
 * document type and encoding from the first bytes, decoding to UTF-8 (the
 * only encoding libxml2 is given), and mapping positions in that UTF-8
 * back to byte offsets, lines and columns of the original document. */
#ifndef XIRI_INPUT_H
#define XIRI_INPUT_H

#include "buf.h"

/* How many first bytes the sniffer looks at (WHATWG HTML "prescan a byte
 * stream to determine its encoding" looks at 1024). */
#define INPUT_SNIFF_BYTES 1024

struct sniff {
    enum xiri_doc_type type;
    char encoding[64];  /* a name ICU knows */
    const char *source; /* why: "option", "BOM", "XML declaration",
                           "meta", "UTF-8 sniffing", "default" */
    bool guessed;       /* no declaration said so */
    bool undecided;     /* HTML guessed from a head of ASCII only, which
                           cannot tell UTF-8 from windows-1252: a longer
                           head may (the walker reads on) */
    size_t bom_len;     /* bytes of byte order mark to skip */
    bool conflict;      /* a declaration contradicted the BOM */
    char declared[64];  /* that declaration, when conflict */
    char replaced[64];  /* HTML: the label of the replacement encoding a
                           <meta> gave (browsers show one U+FFFD for the
                           page); the encoding is sniffed then */
};

/* The encoding an HTML <meta> element declares (its charset attribute, or
 * the charset of the content of http-equiv="Content-Type"; NULL for an
 * attribute it does not have), its label mapped as browsers map it (WHATWG
 * Encoding 4.2), into out; false when it declares none. */
bool input_meta_encoding(const char *charset, const char *http_equiv,
                         const char *content, char *out, size_t size);

/* The HTML prescan (WHATWG HTML 13.2.3.2) of the first INPUT_SNIFF_BYTES
 * of s[0..n) (no byte order mark): into out the encoding its <meta>
 * gives, as xiri names it (input_sniff), "replacement" for a label of
 * the replacement encoding, or "" when none. */
void input_prescan(const unsigned char *s, size_t n, char *out, size_t size);

/* 1 when the encodings named a and b are the same (names and aliases as
 * ICU knows them), 0 when not, -1 when a names none. */
int input_same_encoding(const char *a, const char *b);

/* Decide the type and the encoding from the first n bytes (whole: they
 * are all of the document). */
void input_sniff(const unsigned char *head, size_t n, bool whole,
                 enum xiri_doc_type type, const char *name,
                 const char *encoding, struct sniff *out);

struct input;

/* Bytes the encoding does not define, reported by input_convert: they
 * became the U+FFFD at text position pos. */
typedef void input_bad_fn(void *user, size_t pos, size_t orig_offset,
                          const unsigned char *bytes, size_t n);

/* Open a decoder for the encoding; bom_len bytes at the start of the
 * input are skipped.  XIRI_EENCODING when ICU does not know the name. */
enum xiri_status input_new(const char *encoding, size_t bom_len,
                           input_bad_fn *bad, void *user,
                           struct input **out);
void input_free(struct input *in);



/* Decode the next n original bytes (flush: they are the last) and append
 * their UTF-8 to the text window.  *fresh receives the position (in the
 * UTF-8 stream) where the new text starts. */
enum xiri_status input_convert(struct input *in, const char *data, size_t n,
                               bool flush, size_t *fresh);

/* The UTF-8 text in the window: positions [*start, *end) of the whole
 * stream; the returned pointer is the byte at *start. */
const char *input_window(const struct input *in, size_t *start, size_t *end);

/* The original byte offset of the character at UTF-8 position pos (which
 * must be in the window, or its end). */
size_t input_orig_offset(struct input *in, size_t pos);

/* Line (from 1) and column (characters, from 1) of UTF-8 position pos.
 * Lines end at LF, CR LF or CR (XML 1.0 2.11). */
void input_line_col(struct input *in, size_t pos, unsigned long *line,
                    unsigned long *column);

/* Whether the text may hold a CR at stream position pos or after it
 * (false: it holds none, so a caller need not look). */
bool input_cr_from(const struct input *in, size_t pos);

/* How many U+0000 characters the text has had so far (XML and HTML do
 * not allow them; libxml2 cuts values at them). */
size_t input_nul_count(const struct input *in);

/* HTML: read the text as browsers do: every NUL character as U+FFFD,
 * reported like an invalid byte (WHATWG HTML 13.2.5 "unexpected-null-
 * character"; libxml2 would cut a value at it; they are still counted);
 * and in gb18030 (the labels gbk, gb2312 and gb18030 all mean its
 * decoder) a byte 0x80 as U+20AC, which ICU's gb18030 rejects. */
void input_read_as_html(struct input *in);

/* The byte at text position pos (a UTF-8 continuation byte) was written
 * over with an ASCII byte (the HTML guard, tagscan.h), which count_chars
 * would count as a character: columns leave it out.  Positions come in
 * ascending order.  False when out of memory. */
bool input_mark_masked(struct input *in, size_t pos);

/* The text before pos is no longer needed. */
void input_discard(struct input *in, size_t pos);
/* From now on the text is let go at every input_discard, not only when a
 * good part of the window goes (tests: the window no bigger than the
 * walker keeps it). */
void input_discard_eagerly(struct input *in);

#endif

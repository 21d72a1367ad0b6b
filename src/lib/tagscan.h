/* tagscan.h - finding a start tag and its attributes in the document text,
 * since libxml2 reports where a start tag ends but not where anything in
 * it is (XML 1.0 3.1 STag/Attribute; HTML "attribute name/value" states). */
#ifndef XIRI_TAGSCAN_H
#define XIRI_TAGSCAN_H

#include "common.h"

/* The '<' that opens the start tag whose '>' is text[end], searching no
 * further back than text[floor] (where the previous markup ended); quoted
 * values are skipped as wholes.  Returns its index or SIZE_MAX. */
size_t tag_find_start(const char *text, size_t floor, size_t end);

/* HTML: the '<' of the start tag of element name (ASCII case ignored)
 * whose '>' is text[end]: the first "<name" after text[floor] whose
 * attributes, read forward as tag_next_attr reads them, end exactly at
 * end.  Quotes can stand anywhere in broken HTML (in unquoted values, in
 * attribute names), so reading backward is not reliable there.  Returns
 * its index or SIZE_MAX. */
size_t tag_find_start_html(const char *text, size_t floor, size_t end,
                           const char *name);

/* The "</" that opens the end tag whose '>' is text[end], or SIZE_MAX. */
size_t tag_find_end_start(const char *text, size_t end);

/* HTML: the elements whose content a browser reads as text, tags and
 * all: title and textarea (WHATWG HTML 13.2.6.4.7, RCDATA), script, style
 * and xmp (raw text) and plaintext (13.2.5.1).  libxml2 2.9 reads script
 * and style so too (libxml2_raw), the others as elements.  The element
 * named name[0..n) (ASCII case ignored) or NULL when it is none of them. */
struct tag_text_element {
    const char *name; /* lower case */
    size_t len;
    bool libxml2_raw;
};
const struct tag_text_element *tag_html_text_element(const char *name,
                                                     size_t n);

/* The same for the NUL-terminated name. */
const struct tag_text_element *tag_html_text_element_z(const char *name);

/* One attribute as written in a start tag. */
struct tag_attr {
    size_t name, name_len;   /* indexes into the text */
    size_t value, value_len; /* without the quotes; value_len 0 and
                                value == name + name_len when no value */
    char quote;              /* '"', '\'' or 0 when unquoted */
};

/* The next attribute of the tag text[*cursor..end) (start *cursor at the
 * tag's '<').  Returns false when there are no more. */
bool tag_next_attr(const char *text, size_t end, size_t *cursor,
                   struct tag_attr *a);

/* The markup guard.  libxml2 (2.9) checks the attributes of a start tag
 * for duplicates pairwise, in quadratic time: a tag with a million
 * attributes would take hours.  The guard reads the text before libxml2
 * is given it, following libxml2's own tokenizing (its HTML parser's
 * quirks included), and stops at a start tag with too many attributes
 * before libxml2 sees its end.  It also tells where the text may be cut
 * between two calls of the parser: libxml2's HTML push parser reads some
 * constructs differently when one is cut (a comment opened by "<!-->",
 * a start tag whose quotes do not pair), so it is only ever cut in text. */
enum tag_guard_result {
    TAG_GUARD_MORE,  /* all the text was read */
    TAG_GUARD_LIMIT, /* the start tag at start has more than the limit */
    TAG_GUARD_LONG,  /* the construct (or HTML run of text) at start is
                        longer than the limit */
    TAG_GUARD_SYNC,  /* HTML: stopped after a tag that decides whether
                        what follows is text (script, style, title,
                        textarea, xmp, plaintext); call tag_guard_resume */
    TAG_GUARD_FULL   /* stopped in text (at pos, = safe) since the log is
                        full: when tag_log_ahead, give libxml2 the text up
                        to safe; trim the log, and scan again */
};

/* The start tags the guard read: those read whole by its fast path with
 * their attributes exactly as tag_next_attr reads them (positions in the
 * stream), so that the walker need not scan a tag again to find where
 * its '<' and its attribute values are; the others with their place only
 * (TAG_REC_UNREAD).  A tag that does not fit is not in it: the walker
 * searches the text for it then, after the last tag logged. */
#ifndef TAG_LOG_TAGS /* the fuzzing build makes them small (configure.ac) */
#define TAG_LOG_TAGS 2048
#endif
#ifndef TAG_LOG_ATTRS
#define TAG_LOG_ATTRS 4096
#endif
/* TAG_LOG_TAGS is how many tags the guard reads ahead of what libxml2 was
 * given (then TAG_GUARD_FULL); the log holds TAG_LOG_KEEP times as many,
 * for the tags given but not replayed yet (with the parser thread, up to
 * its three jobs and the records not replayed): so that the guard stops
 * at the same places with the thread and without (the same steps). */
#define TAG_LOG_KEEP 4
#define TAG_LOG_ROOM (TAG_LOG_KEEP * TAG_LOG_TAGS)

/* 24 bytes: first and n are below TAG_LOG_KEEP * TAG_LOG_ATTRS (or n
 * TAG_REC_UNREAD),
 * so 32 bits hold them
 * (the guard writes a record for each tag of the chunk it reads ahead,
 * and the walker reads it back after libxml2 has parsed that chunk). */
struct tag_rec {
    size_t lt, gt;  /* the '<' and the '>' */
    uint32_t first; /* its attributes: attrs[first .. first + n) */
    uint32_t n;     /* or TAG_REC_UNREAD: only the place is known */
};

#define TAG_REC_UNREAD UINT32_MAX

struct tag_log {
    size_t ntags, rd; /* tags[rd .. ntags) may still be asked for */
    size_t given;     /* tags[0 .. given) libxml2 was given */
    size_t nattrs;
    struct tag_rec tags[TAG_LOG_ROOM];
    struct tag_attr attrs[TAG_LOG_KEEP * TAG_LOG_ATTRS]; /* positions in the
                                                            stream */
};

/* Forget the tags whose '>' is before stream position pos (at most the
 * position libxml2 was given the text up to). */
void tag_log_trim(struct tag_log *l, size_t pos);

/* libxml2 was given the text up to stream position pos. */
void tag_log_give(struct tag_log *l, size_t pos);

/* The log holds TAG_LOG_TAGS tags libxml2 was not given (and the guard
 * stops in text), rather than only no room for more. */
static inline bool tag_log_ahead(const struct tag_log *l)
{
    return l->ntags - l->given >= TAG_LOG_TAGS;
}

/* The tag whose '>' is at gt, or whose "/>" starts at gt (where libxml2
 * reports a start tag), or NULL; tags before it are forgotten. */
const struct tag_rec *tag_log_find(struct tag_log *l, size_t gt,
                                   const char *text, size_t base);

struct tag_guard {
    struct tag_log *log;    /* NULL: record nothing */
    /* HTML: called with the stream position of each UTF-8 continuation
     * byte written over with '-' or '_' (now a character of its own);
     * NULL: not told */
    void (*masked)(void *user, size_t pos);
    void *masked_user;
    bool html;
    unsigned char state;
    unsigned char quote;    /* of the literal or value being read */
    unsigned char k;        /* characters of a keyword or end matched */
    unsigned char sub;      /* HTML DOCTYPE: the part being read */
    unsigned char nlen;     /* HTML names: libxml2 cuts them at 100 */
    bool raw_end;           /* the end tag being read ends raw text */
    bool etag;              /* HTML: G_TAG and on read an end tag */
    bool self_close;        /* the start tag ends with "/>" */
    bool seen_start;        /* HTML: a start tag was read (not <html/>) */
    bool one;               /* stop after one construct */
    unsigned char name_len; /* of name; sizeof(name): longer */
    char name[10];          /* HTML start tag name, lower case */
    const char *text_end;   /* G_TEXT_ELEM: the name of its end tag */
    unsigned long attrs;    /* attributes of the current start tag */
    size_t start;           /* position of the current construct's '<' */
    size_t run;             /* HTML: start of the current run of text (up
                               to a '<'; in raw text, up to "</"), which
                               libxml2 holds until it ends */
    size_t pos;             /* the text is read up to here */
    size_t safe;            /* libxml2 may be given the text up to here */
    size_t full_at;         /* where it last stopped with TAG_GUARD_FULL
                               (+1; 0: never) */
};

/* Start reading at stream position pos, in text. */
void tag_guard_init(struct tag_guard *g, bool html, size_t pos);

/* Read text[g->pos - base .. end - base) (positions in the stream; text
 * points to position base) as far as it goes; max_attrs is the most
 * attributes a start tag may have, max_len the most bytes of a construct
 * (or of an HTML run of text).  HTML: it writes over bytes that libxml2
 * would read otherwise than browsers, in the walker's own copy of the
 * text (never over text given to libxml2 already): in the content of an
 * element that is text (tag_guard_resume with raw 2), of script and
 * style, and in bogus comments, each '<' that does not start the end is
 * written over with '&', so that libxml2 reads text there, and each '<'
 * of an end tag before the first start tag or of "</html" (libxml2 2.9
 * would read no element after it); in tags, '_'
 * over a character that starts an attribute name libxml2 would skip, '-'
 * over one that a browser's name goes on through, ' ' over a form feed
 * and over a '/' not before '>', and ' ' over a '>' in a quoted value of
 * an end tag. */
enum tag_guard_result tag_guard_scan(struct tag_guard *g, char *text,
                                     size_t base, size_t end,
                                     unsigned long max_attrs, size_t max_len);

/* After TAG_GUARD_SYNC: raw is 1 when libxml2's current element is
 * script or style (it reads their content as raw text itself), 2 when
 * the element is one whose content browsers read as text and libxml2
 * would read as markup (its end tag is "</" text_end, a static string of
 * lower-case letters; "plaintext" has none), 0 for any other, -1 when
 * libxml2 has not read that far (the guard keeps its guess). */
void tag_guard_resume(struct tag_guard *g, int raw, const char *text_end);

/* HTML: whether the text read ends inside a start or end tag (at
 * g->start): at the end of the document a browser drops such a tag
 * (WHATWG HTML 13.2.5.32 on, "eof-in-tag"), libxml2 would not. */
bool tag_guard_in_tag(const struct tag_guard *g);

/* The end of the markup construct (start tag, DOCTYPE, comment...) whose
 * '<' is text[0], as libxml2 reads it: the index just after it, or
 * SIZE_MAX when it does not end in text[0..n) or text[0] starts none.
 * The text must be text tag_guard_scan has read (HTML: the '_', '-' and
 * ' ' it writes in a tag are written again, changing nothing). */
size_t tag_guard_construct_end(const char *text, size_t n, bool html);

#endif

/* walk.h - internals of the document walker shared with its tests. */
#ifndef XIRI_WALK_H
#define XIRI_WALK_H

#include "common.h"

/* Default and hard limits (xiri.h struct xiri_walk_options; each is
 * documented in doc/xiri.1, LIMITS). */
#define WALK_DEFAULT_MAX_VALUE ((size_t)1 << 20)
/* Text held at once for one construct; never more than the window. */
#define WALK_DEFAULT_MAX_MARKUP ((size_t)16 << 20)
#define WALK_MAX_MARKUP ((size_t)1 << 30)
/* Blink's HTML parser stops nesting at 512 too
 * (HTMLConstructionSite::kMaximumHTMLParserDOMTreeDepth). */
#define WALK_DEFAULT_MAX_DEPTH 512UL
#define WALK_DEFAULT_MAX_ATTRIBUTES 1000UL
#define WALK_DEFAULT_MAX_NAMESPACES 1000UL
#define WALK_DEFAULT_MAX_DEFAULT_ATTRIBUTES 100UL
/* Bytes of entity replacement text read per document (each reference
 * counts the length of its entity, at least 1). */
#define WALK_DEFAULT_MAX_ENTITY_EXPANSION ((size_t)64 << 20)
/* How many bytes of an HTML document without a declaration are looked at
 * to tell UTF-8 from windows-1252. */
#define WALK_SNIFF_MAX ((size_t)1 << 16)
/* The longest head read for an HTML document that declares no encoding
 * and is ASCII so far (walk.c head_ready). */
#define WALK_SNIFF_ASCII ((size_t)1 << 20)

/* The original byte offset before which the walker will report no more
 * links: every link starting before it has been reported.  0 until the
 * document's encoding is known. */
size_t walk_settled(const struct xiri_walker *w);

/* HTML whose encoding was guessed (input_sniff: no declaration): the
 * length of the head it was guessed from, and whether that was all of
 * the document; false otherwise. */
bool walk_guessed_head(const struct xiri_walker *w, size_t *len,
                       bool *whole);

/* Whether the document is one browsers render as a page (HTML, or XML
 * whose root element is in the XHTML or SVG namespace), so that they
 * complete its elements' URLs with its encoding (linkcheck.h); false
 * before the root element. */
bool walk_rendered(const struct xiri_walker *w);

/* Whether browsers run the HTML prescan (WHATWG HTML 13.2.3.2) on the
 * document's first bytes to find its encoding: HTML without a byte order
 * mark (once the walker knows). */
bool walk_html_prescan(const struct xiri_walker *w);

/* For the tests: how many start tags over the attribute limit libxml2
 * read before the walker stopped it (the guard should leave none). */
unsigned long walk_backstops(const struct xiri_walker *w);

/* How many U+0000 characters the document has had so far. */
size_t walk_nul_count(const struct xiri_walker *w);

/* With parse_ahead (xiri_walk_options): report now every link and
 * finding of the text fed so far, as a feed without it does before it
 * returns (the rewriter, before it decides on what was fed: the same
 * links come before its decision however far the parser thread got);
 * the walk's status, and its error in err. */
enum xiri_status walk_catch_up(struct xiri_walker *w, struct xiri_error *err);

/* How many times libxml2 has been given text so far (tests: the steps
 * are the same with the parser thread and without). */
size_t walk_parse_count(const struct xiri_walker *w);

/* XML after the root's start tag, HTML from the start: libxml2 on a
 * thread of its own (WALK_PIPE_THREAD; WALK_PIPE_INLINE: its records
 * made and replayed on the caller's thread, the same order of work
 * without a thread, for tests; WALK_PIPE_LAG: the same, with a record or
 * two to a batch and one batch replayed after each step, the replay as
 * far behind as a slow thread leaves it, and stopped between any two
 * records); step, when not 0, instead of WALK_STEP (tests cut the text
 * finer than a feed can: the first 64 KiB are read at once).  Before the
 * first feed. */
enum walk_pipe {
    WALK_PIPE_OFF,
    WALK_PIPE_THREAD,
    WALK_PIPE_INLINE,
    WALK_PIPE_LAG
};
void walk_set_pipe(struct xiri_walker *w, enum walk_pipe mode, size_t step);
/* The text the guard reads and libxml2 is given at once, at most (a
 * feed is decoded and read a step at a time); with the parser thread, a
 * job's. */
#define WALK_STEP ((size_t)16 << 10)

#endif

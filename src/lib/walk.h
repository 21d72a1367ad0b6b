/* walk.h - internals of the document walker shared with its tests. */
#ifndef XIRI_WALK_H
#define XIRI_WALK_H

#include "common.h"

/* Default and hard limits (xiri.h struct xiri_walk_options). */
#define WALK_DEFAULT_MAX_VALUE ((size_t)1 << 20)
/* How many bytes of an HTML document without a declaration are looked at
 * to tell UTF-8 from windows-1252. */
#define WALK_SNIFF_MAX ((size_t)1 << 16)
/* Chunks handed to libxml2. */
#define WALK_CHUNK ((size_t)1 << 16)
/* Entity references expanded inside one value, nested or not. */
#define WALK_MAX_ENTITY_EXPANSIONS 64

/* The original byte offset before which the walker will report no more
 * links: every link starting before it has been reported.  0 until the
 * document's encoding is known. */
size_t walk_settled(const struct xiri_walker *w);

/* How many U+0000 characters the document has had so far. */
size_t walk_nul_count(const struct xiri_walker *w);

#endif

/* srcset.h - the descriptors of an HTML srcset (or imagesrcset) value,
 * read as browsers read them, and what is wrong with them. */
#ifndef XIRI_SRCSET_H
#define XIRI_SRCSET_H

#include "common.h"

/* What is wrong with a candidate: SRCSET_DROPPED, browsers' "parse a
 * srcset attribute" drops it (its descriptors are not valid); or
 * SRCSET_INVALID, they use it but HTML does not allow it (a density or
 * width another candidate has, widths mixed with densities, 0x). */
enum srcset_problem_kind { SRCSET_DROPPED, SRCSET_INVALID };

/* One problem: at is the byte offset in the value of the candidate's URL;
 * message says what and what to do. */
typedef int srcset_problem_fn(void *user, enum srcset_problem_kind kind,
                              size_t at, const char *message);

/* Read v[0..n) (decoded, UTF-8) per HTML Living Standard "parse a srcset
 * attribute" and the srcset attribute's requirements ("Attributes common
 * to source, img, and link elements"), calling fn for each problem in
 * the order of the candidates (at ascending) until it returns non-zero.
 * Returns the number of problems reported. */
unsigned srcset_check(const char *v, size_t n, srcset_problem_fn *fn,
                      void *user);

#endif

/* common.h - first include of every library file: configuration, the public
 * header with export visibility, and the internal helpers every module uses. */
#ifndef XIRI_COMMON_H
#define XIRI_COMMON_H

#include "config.h"
#define XIRI_BUILDING 1
#include "xiri.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Longest input any function accepts and longest string it builds: far
 * beyond real references, small enough that length arithmetic cannot
 * overflow.  XIRI_ELIMIT past it. */
#define XIRI_MAX_LEN ((size_t)1 << 30)

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Fill err (may be NULL) and return st. */
enum xiri_status error_set(struct xiri_error *err, enum xiri_status st,
                           size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif

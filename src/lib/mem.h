/* mem.h - every allocation of the library goes through these, so that a
 * test can make the Nth one fail and check the out-of-memory paths. */
#ifndef XIRI_MEM_H
#define XIRI_MEM_H

#include <stddef.h>

void *mem_alloc(size_t n);
void *mem_realloc(void *p, size_t n);
void mem_free(void *p);
/* A NUL-terminated copy of s[0..n). */
char *mem_strndup(const char *s, size_t n);

/* Test hook: after n more successful allocations, every allocation fails
 * until mem_fail_reset().  Per thread.  n == 0 fails the next one. */
void mem_fail_after(unsigned long n);
void mem_fail_reset(void);
/* How many allocations failed since the last mem_fail_after(). */
unsigned long mem_failures(void);

#endif

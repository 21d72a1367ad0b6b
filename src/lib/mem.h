/* mem.h - every allocation of the library goes through these, so that a
 * test can make the Nth one fail and check the out-of-memory paths. */
#ifndef XIRI_MEM_H
#define XIRI_MEM_H

#include <stdbool.h>
#include <stddef.h>

void *mem_alloc(size_t n);
void *mem_realloc(void *p, size_t n);
void mem_free(void *p);
/* A NUL-terminated copy of s[0..n). */
char *mem_strndup(const char *s, size_t n);

/* Make the array *array_ptr points to (of *cap elements of size bytes)
 * hold at least need elements: its room doubled, from 16, as often as it
 * takes.  False when out of memory (the array and *cap then as they
 * were). */
bool mem_reserve(void *array_ptr, size_t *cap, size_t need, size_t size);

/* Test hook: after n more successful allocations, every allocation fails
 * until mem_fail_reset().  Per thread.  n == 0 fails the next one. */
void mem_fail_after(unsigned long n);
void mem_fail_reset(void);
/* How many allocations failed since the last mem_fail_after(). */
unsigned long mem_failures(void);

#endif

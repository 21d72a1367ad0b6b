/* mem.c - the allocation indirection (see mem.h). */
#include "common.h"
#include "mem.h"

#include <stdlib.h>

/* Per-thread so that tests in one thread never disturb another. */
static _Thread_local bool fail_armed;
static _Thread_local unsigned long fail_countdown;
static _Thread_local unsigned long fail_count;

static bool should_fail(void)
{
    if (!fail_armed)
        return false;
    if (fail_countdown > 0) {
        fail_countdown--;
        return false;
    }
    fail_count++;
    return true;
}

void *mem_alloc(size_t n)
{
    if (should_fail())
        return NULL;
    return malloc(n ? n : 1);
}

void *mem_realloc(void *p, size_t n)
{
    if (should_fail())
        return NULL;
    return realloc(p, n ? n : 1);
}

void mem_free(void *p)
{
    free(p);
}

bool mem_reserve(void *array_ptr, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap : 16;
    void *a;

    if (need <= *cap)
        return true;
    while (n < need) {
        if (n > SIZE_MAX / 2 / size)
            return false;
        n *= 2;
    }
    /* (the pointer read and written as bytes: it may point to any type) */
    memcpy(&a, array_ptr, sizeof(a));
    a = mem_realloc(a, n * size);
    if (!a)
        return false;
    memcpy(array_ptr, &a, sizeof(a));
    *cap = n;
    return true;
}

char *mem_strndup(const char *s, size_t n)
{
    char *p;

    if (n >= XIRI_MAX_LEN)
        return NULL;
    p = mem_alloc(n + 1);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void mem_fail_after(unsigned long n)
{
    fail_armed = true;
    fail_countdown = n;
    fail_count = 0;
}

void mem_fail_reset(void)
{
    fail_armed = false;
    fail_countdown = 0;
}

unsigned long mem_failures(void)
{
    return fail_count;
}

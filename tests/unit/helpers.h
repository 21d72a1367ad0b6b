/* helpers.h - shared test helpers: data files, string assertions. */
#ifndef XIRI_TEST_HELPERS_H
#define XIRI_TEST_HELPERS_H

#include <CUnit/CUnit.h>
#include <stddef.h>
#include <stdint.h>

/* Absolute path of a file in tests/data (a static buffer). */
const char *test_data_path(const char *name);

/* Read a TSV data file: calls fn for every line that is neither empty nor
 * starts with '#', with the fields split at TAB (at most 16).  Fields
 * keep C escapes as written; use test_unescape() to decode them.
 * Returns the number of lines passed to fn, or -1 when the file cannot
 * be read (a CUnit failure is recorded then). */
typedef void tsv_fn(void *user, char **fields, int nfields, int lineno);
int test_read_tsv(const char *name, tsv_fn *fn, void *user);

struct xiri_link;

/* Fill *l as the walker reports the value v[0..n) of an <a href> (shape
 * XIRI_SHAPE_IRI) with the given base and profile (an enum xiri_profile),
 * for xiri_check_link. */
void test_href_link(struct xiri_link *l, const char *v, size_t n,
                    const char *base, int profile);

/* Read the sample document samples/name into data[0..cap - 1), NUL-ended;
 * returns its length, or SIZE_MAX when it cannot be read (a CUnit
 * failure is recorded then). */
size_t test_read_sample(const char *name, char *data, size_t cap);

/* Decode \t \n \r \\ \xHH \uXXXX \UXXXXXXXX (as UTF-8) and "\e" meaning
 * the empty string, in place; returns the new length. */
size_t test_unescape(char *s);

/* Write code point cp (<= U+10FFFF) as UTF-8 into o (4 bytes of room);
 * returns the length.  The tests' own encoder, independent of the
 * library's. */
size_t test_put_utf8(char *o, uint32_t cp);

/* Record a failure with a formatted message (CUnit takes only literals). */
void test_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#define TEST_FAIL(...) test_fail(__FILE__, __LINE__, __VA_ARGS__)

/* Compare a result string with the expected one; on mismatch record a
 * failure naming the case. Returns 1 when equal. */
int test_str_eq(const char *file, int line, const char *what,
                const char *got, const char *want);
#define TEST_STR_EQ(what, got, want)                                          \
    test_str_eq(__FILE__, __LINE__, (what), (got), (want))

#endif

/* helpers.c - shared test helpers (see helpers.h). */
#include "helpers.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xiri.h"

const char *test_data_path(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
    return path;
}

size_t test_put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t test_unescape(char *s)
{
    char *r = s, *w = s;

    if (strcmp(s, "\\e") == 0) {
        *s = '\0';
        return 0;
    }
    while (*r) {
        if (*r != '\\' || !r[1]) {
            *w++ = *r++;
            continue;
        }
        r++;
        switch (*r) {
        case 't': *w++ = '\t'; r++; break;
        case 'n': *w++ = '\n'; r++; break;
        case 'r': *w++ = '\r'; r++; break;
        case '\\': *w++ = '\\'; r++; break;
        case 'x': {
            char hex[3] = {r[1], r[2], 0};
            *w++ = (char)strtoul(hex, NULL, 16);
            r += 3;
            break;
        }
        case 'u':
        case 'U': {
            int n = *r == 'u' ? 4 : 8;
            char hex[9];
            memcpy(hex, r + 1, (size_t)n);
            hex[n] = 0;
            w += test_put_utf8(w, (uint32_t)strtoul(hex, NULL, 16));
            r += 1 + n;
            break;
        }
        default:
            *w++ = '\\';
            break;
        }
    }
    *w = '\0';
    return (size_t)(w - s);
}

void test_href_link(struct xiri_link *l, const char *v, size_t n,
                    const char *base, int profile)
{
    memset(l, 0, sizeof(*l));
    l->value = v;
    l->value_len = n;
    l->base = base;
    l->profile = (enum xiri_profile)profile;
    l->element = "a";
    l->attribute = "href";
    l->shape = XIRI_SHAPE_IRI;
}

size_t test_read_sample(const char *name, char *data, size_t cap)
{
    char path[4200];
    FILE *f;
    size_t n;

    snprintf(path, sizeof(path), "%s/../../samples/%s", TEST_DATA_DIR, name);
    f = fopen(path, "rb");
    if (!f) {
        TEST_FAIL("cannot read %s", path);
        return SIZE_MAX;
    }
    n = fread(data, 1, cap - 1, f);
    fclose(f);
    data[n] = '\0';
    return n;
}

int test_read_tsv(const char *name, tsv_fn *fn, void *user)
{
    FILE *f = fopen(test_data_path(name), "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0, count = 0;

    if (!f) {
        TEST_FAIL("cannot open test data %s", test_data_path(name));
        return -1;
    }
    while ((got = getline(&line, &cap, f)) >= 0) {
        char *fields[16];
        int n = 0;
        char *p = line;

        lineno++;
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        fields[n++] = p;
        while ((p = strchr(p, '\t')) && n < 16) {
            *p++ = '\0';
            fields[n++] = p;
        }
        fn(user, fields, n, lineno);
        count++;
    }
    free(line);
    fclose(f);
    return count;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* CU_assertImplementation keeps a pointer to the condition text, so
     * the message must outlive this call: keep a copy. */
    CU_assertImplementation(CU_FALSE, (unsigned)line, strdup(msg), file, "",
                            CU_FALSE);
}

int test_str_eq(const char *file, int line, const char *what,
                const char *got, const char *want)
{
    if (got && want && strcmp(got, want) == 0) {
        CU_assertImplementation(CU_TRUE, (unsigned)line, "equal", file, "",
                                CU_FALSE);
        return 1;
    }
    test_fail(file, line, "%s: got \"%s\", want \"%s\"", what,
              got ? got : "(null)", want ? want : "(null)");
    return 0;
}

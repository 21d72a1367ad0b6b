/* test_idn.c - the UTS #46 wrapper (idn.h) against the Unicode conformance
 * file IdnaTestV2.txt (Unicode 16.0.0, tests/data/idn-IdnaTestV2-16.0.0.txt,
 * verbatim from servo/rust-url idna/tests/IdnaTestV2-Unicode16.txt at commit
 * 25137be1fc1d35cc8ea7d43fc0a02166b023a483; Unicode License V3), with the
 * lines ICU 72 answers differently listed in idn-icu72-differences.tsv.
 *
 * Why Unicode 16 and not 17: the machine's ICU 72 implements Unicode 15.0;
 * the 16.0.0 file is final release data and is one version closer, so fewer
 * lines differ for reasons that are only "this character is newer than
 * ICU".  Every difference that remains is listed with its reason.
 *
 * Set XIRI_IDNA_DUMP=1 to print every line that does not match, in the
 * format of the differences file (the reasons must then be written by
 * hand). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "buf.h"
#include "idn.h"
#include "unicode.h"

#include <unicode/uidna.h>
#include <unicode/uversion.h>

#include "helpers.h"
#include "suites.h"

#define IDNA_FILE "idn-IdnaTestV2-16.0.0.txt"
#define DIFF_FILE "idn-icu72-differences.tsv"

static struct idn *idn;

static int idn_init(void)
{
    return idn_open(IDN_DEFAULT_OPTIONS, &idn) == XIRI_OK ? 0 : -1;
}

static int idn_cleanup(void)
{
    idn_close(idn);
    idn = NULL;
    return 0;
}

/* ---------------------------------------------------------------- file */

/* Trim a column, decode "" and \uXXXX / \x{XXXX} (file header) in place.
 * Returns 0 when the column holds a surrogate code point: UTF-8 cannot
 * carry it, and the header says to skip such lines. */
static int column(char **pf)
{
    char *f = *pf, *e, *r, *w;

    while (*f == ' ' || *f == '\t')
        f++;
    e = f + strlen(f);
    while (e > f && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    *pf = f;
    if (strcmp(f, "\"\"") == 0) {
        f[0] = '\0';
        return 1;
    }
    for (r = w = f; *r;) {
        uint32_t cp;
        char *end;

        if (r[0] == '\\' && r[1] == 'u') {
            char hex[5];
            memcpy(hex, r + 2, 4);
            hex[4] = '\0';
            cp = (uint32_t)strtoul(hex, NULL, 16);
            r += 6;
        } else if (r[0] == '\\' && r[1] == 'x' && r[2] == '{') {
            cp = (uint32_t)strtoul(r + 3, &end, 16);
            r = *end == '}' ? end + 1 : end;
        } else {
            *w++ = *r++;
            continue;
        }
        if (cp >= 0xD800 && cp <= 0xDFFF)
            return 0;
        w += test_put_utf8(w, cp);
    }
    *w = '\0';
    return 1;
}

/* A status column: "[]" or "[P1, V6]": 1 when a code other than the
 * ignored ones is present.  We run with
 * every flag UTS #46 has on (non-transitional, CheckHyphens - ICU cannot
 * turn it off -, CheckBidi, CheckJoiners, UseSTD3ASCIIRules) and ICU checks
 * the DNS lengths in ToASCII, so no code is ignored. */
static int status_has_errors(const char *f)
{
    const char *p;

    for (p = f; *p; p++)
        if ((*p >= 'A' && *p <= 'Z'))
            return 1;
    return 0;
}

/* Compare ICU's answer with the expected string; U+FFFD in the actual
 * value stands for any one code point (file header, CONFORMANCE). */
static int same_string(const char *got, size_t glen, const char *want)
{
    size_t i = 0, j = 0, wlen = strlen(want);

    while (i < glen && j < wlen) {
        if (glen - i >= 3 && memcmp(got + i, "\xef\xbf\xbd", 3) == 0) {
            i += 3;
            j++; /* skip one UTF-8 sequence of want */
            while (j < wlen && ((unsigned char)want[j] & 0xC0) == 0x80)
                j++;
            continue;
        }
        if (got[i] != want[j])
            return 0;
        i++;
        j++;
    }
    return i == glen && j == wlen;
}

enum { OP_UNICODE = 0, OP_ASCII = 1 };
static const char *const op_names[] = {"toUnicode", "toAsciiN"};

/* What went wrong for one operation on one line: 0 = nothing. */
enum { BAD_STATUS = 1, BAD_STRING = 2 };
static const char *const bad_names[] = {"ok", "status", "string",
                                        "status+string"};

/* The differences file, indexed by line. */
struct diff {
    int line;
    int bad[2]; /* per operation, BAD_* bits, 0 when not listed */
    char source[512];
};

struct diffs {
    struct diff *d;
    size_t n, cap;
};

static int bad_of(const char *name)
{
    int i;

    for (i = 0; i < 4; i++)
        if (strcmp(name, bad_names[i]) == 0)
            return i;
    return -1;
}

static void diff_row(void *user, char **f, int n, int lineno)
{
    struct diffs *ds = user;
    struct diff *d;
    int op, bad;

    if (n < 5) {
        TEST_FAIL(DIFF_FILE ":%d: %d fields", lineno, n);
        return;
    }
    op = strcmp(f[2], "toUnicode") == 0  ? OP_UNICODE
         : strcmp(f[2], "toAsciiN") == 0 ? OP_ASCII
                                         : -1;
    bad = bad_of(f[3]);
    if (op < 0 || bad <= 0 || f[4][0] == '\0') {
        TEST_FAIL(DIFF_FILE ":%d: bad operation, kind or reason", lineno);
        return;
    }
    if (ds->n && ds->d[ds->n - 1].line == (int)strtol(f[0], NULL, 10)) {
        d = &ds->d[ds->n - 1];
    } else {
        if (ds->n == ds->cap) {
            size_t cap = ds->cap ? ds->cap * 2 : 256;
            struct diff *p = realloc(ds->d, cap * sizeof(*p));
            if (!p)
                return;
            ds->d = p;
            ds->cap = cap;
        }
        d = &ds->d[ds->n++];
        memset(d, 0, sizeof(*d));
        d->line = (int)strtol(f[0], NULL, 10);
        test_unescape(f[1]); /* the file's \uXXXX escapes */
        snprintf(d->source, sizeof(d->source), "%s", f[1]);
        if (ds->n > 1 && d->line <= ds->d[ds->n - 2].line)
            TEST_FAIL(DIFF_FILE ":%d: lines not in increasing order", lineno);
    }
    d->bad[op] = bad;
}

static const struct diff *find_diff(const struct diffs *ds, int line)
{
    size_t lo = 0, hi = ds->n;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ds->d[mid].line == line)
            return &ds->d[mid];
        if (ds->d[mid].line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

struct tally {
    int lines, skipped, checked, listed_ok, unlisted_bad, listed_bad;
};

/* Run one operation; returns the BAD_* bits. */
static int run_op(int op, const char *src, const char *want, int want_err,
                  char *got_out, size_t got_size)
{
    struct buf b;
    uint32_t errors = 0;
    enum xiri_status st;
    int bad = 0;

    buf_init(&b, 1 << 16);
    st = op == OP_UNICODE ? idn_to_unicode(idn, src, strlen(src), &b, &errors)
                          : idn_to_ascii(idn, src, strlen(src), &b, &errors);
    if (st != XIRI_OK) {
        snprintf(got_out, got_size, "(status %d)", st);
        buf_free(&b);
        return BAD_STATUS | BAD_STRING;
    }
    if ((errors != 0) != (want_err != 0))
        bad |= BAD_STATUS;
    /* the strings are compared when the conversion succeeds: with errors
     * UTS #46 section 4 only requires that the failure be recorded, and
     * ICU marks a failed label by appending U+FFFD to it as written */
    if (!want_err && !same_string(b.data ? b.data : "", b.len, want))
        bad |= BAD_STRING;
    snprintf(got_out, got_size, "%.*s [errors 0x%X]", (int)b.len,
             b.data ? b.data : "", (unsigned)errors);
    buf_free(&b);
    return bad;
}

static void test_idna_v2(void)
{
    FILE *f = fopen(test_data_path(IDNA_FILE), "r");
    struct diffs ds = {NULL, 0, 0};
    struct tally t;
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0, strict = U_ICU_VERSION_MAJOR_NUM == 72;
    int dump = getenv("XIRI_IDNA_DUMP") != NULL;
    size_t i;

    memset(&t, 0, sizeof(t));
    if (!f) {
        TEST_FAIL("cannot open %s", test_data_path(IDNA_FILE));
        return;
    }
    if (test_read_tsv(DIFF_FILE, diff_row, &ds) < 0) {
        fclose(f);
        return;
    }
    if (dump)
        printf("\n"); /* after CUnit's "Test: ..." */
    while ((got = getline(&line, &cap, f)) >= 0) {
        char *col[7], *p, *hash;
        const struct diff *d;
        int n = 0, ok = 1, op;
        int blank[7];
        const char *want[2];
        int want_err[2];

        lineno++;
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = '\0';
        hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        for (p = line; *p == ' '; p++)
            ;
        if (*p == '\0')
            continue;
        t.lines++;
        col[n++] = line;
        for (p = line; n < 7 && (p = strchr(p, ';')) != NULL;) {
            *p++ = '\0';
            col[n++] = p;
        }
        if (n != 7) {
            TEST_FAIL(IDNA_FILE ":%d: %d columns", lineno, n);
            continue;
        }
        for (i = 0; i < 7; i++) {
            blank[i] = col[i][strspn(col[i], " \t")] == '\0';
            ok &= column(&col[i]);
        }
        if (!ok) {
            t.skipped++; /* holds a surrogate: not expressible in UTF-8 */
            continue;
        }
        /* the defaults of the file header: blank toUnicode = source,
         * blank status = [], blank toAsciiN = toUnicode, blank
         * toAsciiNStatus = toUnicodeStatus ("" is the empty string) */
        want[OP_UNICODE] = blank[1] ? col[0] : col[1];
        want_err[OP_UNICODE] = status_has_errors(col[2]) > 0;
        want[OP_ASCII] = blank[3] ? want[OP_UNICODE] : col[3];
        want_err[OP_ASCII] =
            blank[4] ? want_err[OP_UNICODE] : status_has_errors(col[4]) > 0;

        t.checked++;
        d = find_diff(&ds, lineno);
        if (d && strcmp(d->source, col[0]) != 0)
            TEST_FAIL(DIFF_FILE ": line %d is \"%s\" in the file, not \"%s\"",
                      lineno, col[0], d->source);
        for (op = 0; op < 2; op++) {
            char gotbuf[512];
            int bad = run_op(op, col[0], want[op], want_err[op], gotbuf,
                             sizeof(gotbuf));
            int listed = d ? d->bad[op] : 0;

            if (dump && bad)
                printf("%d\t%s\t%s\t%s\t%s\t# want \"%s\" %s, got %s\n", lineno,
                       col[0], op_names[op], bad_names[bad], "?", want[op],
                       want_err[op] ? "errors" : "no errors", gotbuf);
            if (bad == listed)
                continue;
            if (!listed) {
                t.unlisted_bad++;
                TEST_FAIL(IDNA_FILE ":%d: %s(%s): %s differs, not listed "
                                    "in " DIFF_FILE " (want \"%s\" %s, got %s)",
                          lineno, op_names[op], col[0], bad_names[bad],
                          want[op], want_err[op] ? "with errors" : "", gotbuf);
            } else if (strict) {
                if (!bad)
                    t.listed_ok++;
                else
                    t.listed_bad++;
                TEST_FAIL(IDNA_FILE
                          ":%d: %s(%s): listed as \"%s\" in " DIFF_FILE
                          " but is \"%s\" with ICU %s: update the "
                          "list",
                          lineno, op_names[op], col[0], bad_names[listed],
                          bad_names[bad], U_ICU_VERSION);
            }
        }
    }
    free(line);
    fclose(f);
    free(ds.d);
    CU_ASSERT_EQUAL(t.lines, 6389);
    CU_ASSERT_EQUAL(t.skipped, 2);
    CU_ASSERT_EQUAL(t.unlisted_bad, 0);
    CU_ASSERT_EQUAL(t.listed_ok, 0);
}

/* The wrapper itself: results are appended, errors described. */
static void test_wrapper(void)
{
    struct buf b;
    uint32_t errors = 1;
    char why[200];
    struct idn *no_std3 = NULL;

    buf_init(&b, 1 << 16);
    buf_append(&b, "x=", 2);
    CU_ASSERT_EQUAL(idn_to_ascii(idn, "B\xc3\xbc\x63her.de", 10, &b, &errors),
                    XIRI_OK);
    CU_ASSERT_EQUAL(errors, 0);
    buf_putc(&b, '\0');
    TEST_STR_EQ("appended", b.data, "x=xn--bcher-kva.de");
    b.len = 0;
    CU_ASSERT_EQUAL(idn_to_unicode(idn, "xn--bcher-kva.de", 16, &b, &errors),
                    XIRI_OK);
    CU_ASSERT_EQUAL(errors, 0);
    buf_putc(&b, '\0');
    TEST_STR_EQ("to unicode", b.data, "b\xc3\xbc\x63her.de");
    b.len = 0;
    /* STD3 rules on by default: '_' is an error; off with IDN_NO_STD3 */
    CU_ASSERT_EQUAL(idn_to_ascii(idn, "a_b", 3, &b, &errors), XIRI_OK);
    CU_ASSERT_NOT_EQUAL(errors, 0);
    CU_ASSERT_EQUAL(idn_open(IDN_NO_STD3, &no_std3), XIRI_OK);
    if (no_std3) {
        b.len = 0;
        CU_ASSERT_EQUAL(idn_to_ascii(no_std3, "a_b", 3, &b, &errors), XIRI_OK);
        CU_ASSERT_EQUAL(errors, 0);
        idn_close(no_std3);
    }
    idn_close(NULL);
    /* a long input: the output buffer grows */
    {
        char big[400];
        size_t i;
        for (i = 0; i + 4 < sizeof(big); i += 4)
            memcpy(big + i, "\xc3\xa9\x61.", 4);
        b.len = 0;
        CU_ASSERT_EQUAL(idn_to_ascii(idn, big, i, &b, &errors), XIRI_OK);
        CU_ASSERT_TRUE(b.len > i);
    }
    buf_free(&b);

    idn_describe_errors(UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_BIDI, why,
                        sizeof(why));
    TEST_STR_EQ("describe", why,
                "label starts with '-', violates the bidi rule (RFC 5893)");
    idn_describe_errors(0, why, sizeof(why));
    TEST_STR_EQ("describe none", why, "");
    idn_describe_errors(0xFFFFFFFFu, why, 16);
    CU_ASSERT_TRUE(strlen(why) < 16);
}

/* ---------------------------------------------------------------- memo */

/* The names the memo tests convert: valid ones, ones with errors, the
 * empty name, one longer than the memo keeps, and (memo_name) more
 * distinct ones than the memo has slots. */
static const char *const memo_names[] = {
    "b\xc3\xbc\x63her.de",
    "caf\xc3\xa9.example.fr",
    "\xd0\xbf\xd1\x80\xd0\xb8\xd0\xbc\xd0\xb5\xd1\x80.\xd1\x80\xd1\x84",
    "\xe4\xbe\x8b\xe3\x81\x88.\xe3\x83\x86\xe3\x82\xb9\xe3\x83\x88",
    "xn--bcher-kva.de",
    "B\xc3\x9c\x43HER.DE",
    "a_b",
    "-ab.de",
    "xn--a.de",
    "",
    "\xd9\x85\xd8\xab\xd8\xa7\xd9\x84.1com",
};

static void memo_name(size_t k, char *out, size_t size)
{
    size_t i, n = ARRAY_LEN(memo_names);

    if (k < n) {
        snprintf(out, size, "%s", memo_names[k]);
    } else if (k == n) {
        /* 100 x U+00E9: longer than the memo keeps */
        for (i = 0; i < 100 && 2 * i + 2 < size; i++)
            memcpy(out + 2 * i, "\xc3\xa9", 2);
        out[2 * i] = '\0';
    } else {
        snprintf(out, size, "n%02zu\xc3\xa9.example", k - n);
    }
}

#define MEMO_NAMES (ARRAY_LEN(memo_names) + 1 + 40)

/* One conversion by an object whose memo has seen nothing. */
static enum xiri_status fresh_convert(int op, const char *s, size_t n,
                                      struct buf *out, uint32_t *errors)
{
    struct idn *fresh = NULL;
    enum xiri_status st = idn_open(IDN_DEFAULT_OPTIONS, &fresh);

    if (st != XIRI_OK)
        return st;
    st = op == OP_UNICODE ? idn_to_unicode(fresh, s, n, out, errors)
                          : idn_to_ascii(fresh, s, n, out, errors);
    idn_close(fresh);
    return st;
}

/* The memo of the last conversions (idn.c) answers as ICU does: every
 * name, asked for again and again in an order that makes the memo forget
 * and remember, gets the answer and the errors of a fresh object, appended
 * after what the buffer held. */
static void test_memo_same_answers(void)
{
    struct idn *m = NULL;
    struct buf got, want;
    char name[256];
    size_t round, k, i;
    int op;

    CU_ASSERT_EQUAL_FATAL(idn_open(IDN_DEFAULT_OPTIONS, &m), XIRI_OK);
    buf_init(&got, 1 << 16);
    buf_init(&want, 1 << 16);
    for (round = 0; round < 4; round++) {
        for (i = 0; i < MEMO_NAMES; i++) {
            /* rounds 0 and 1 in order, then strides 7 and 3: names come
             * back after 1 to MEMO_NAMES others */
            k = round < 2 ? i : (i * (round == 2 ? 7 : 3)) % MEMO_NAMES;
            memo_name(k, name, sizeof(name));
            for (op = 0; op < 2; op++) {
                uint32_t e1 = 0xDEAD, e2 = 0xBEEF;
                enum xiri_status s1, s2;

                got.len = want.len = 0;
                buf_append(&got, "x=", 2);
                buf_append(&want, "x=", 2);
                s1 = op == OP_UNICODE
                         ? idn_to_unicode(m, name, strlen(name), &got, &e1)
                         : idn_to_ascii(m, name, strlen(name), &got, &e1);
                s2 = fresh_convert(op, name, strlen(name), &want, &e2);
                if (s1 != s2 || e1 != e2 || got.len != want.len ||
                    memcmp(got.data, want.data, got.len) != 0)
                    TEST_FAIL("%s(%s), round %zu: status %d errors 0x%X "
                              "\"%.*s\", want %d 0x%X \"%.*s\"",
                              op_names[op], name, round, s1, (unsigned)e1,
                              (int)got.len, got.data, s2, (unsigned)e2,
                              (int)want.len, want.data);
            }
        }
    }
    /* the same bytes through the other direction are not the same
     * question: to-ASCII of a name the memo has to-Unicode for */
    {
        uint32_t errors = 0;
        got.len = 0;
        CU_ASSERT_EQUAL(
            idn_to_unicode(m, "xn--bcher-kva.de", 16, &got, &errors), XIRI_OK);
        got.len = 0;
        CU_ASSERT_EQUAL(idn_to_ascii(m, "xn--bcher-kva.de", 16, &got, &errors),
                        XIRI_OK);
    }
    buf_putc(&got, '\0');
    TEST_STR_EQ("to-ASCII after to-Unicode", got.data, "xn--bcher-kva.de");
    buf_free(&got);
    buf_free(&want);
    idn_close(m);
}

/* A remembered answer fails as the conversion would on a buffer without
 * room: the memo asks the buffer for the same room first. */
static void test_memo_full_buffer(void)
{
    struct idn *m = NULL;
    struct buf small, big;
    uint32_t errors = 0;
    const char *name = "b\xc3\xbc\x63her.de";

    CU_ASSERT_EQUAL_FATAL(idn_open(IDN_DEFAULT_OPTIONS, &m), XIRI_OK);
    buf_init(&big, 1 << 16);
    buf_init(&small, 20);
    /* remembered, then asked for again with a buffer too small for the
     * room a conversion asks (4 bytes a byte and 16) */
    CU_ASSERT_EQUAL(idn_to_ascii(m, name, strlen(name), &big, &errors),
                    XIRI_OK);
    CU_ASSERT_EQUAL(idn_to_ascii(m, name, strlen(name), &small, &errors),
                    XIRI_ELIMIT);
    CU_ASSERT_EQUAL(small.len, 0);
    buf_free(&big);
    buf_free(&small);
    idn_close(m);
}

/* The memo of UTS #39 answers (unicode.c): a context checking labels again
 * and again flags each as a fresh context does, beyond the memo's size,
 * and the answers are the expected ones. */
static void test_spoof_memo(void)
{
    static const struct {
        const char *label;
        unsigned flags;
    } known[] = {
        {"b\xc3\xbc\x63her", 0},
        /* Latin p, Cyrillic U+0430, Latin ypal: mixed scripts (5.2) */
        {"p\xd0\xb0ypal", UNI_SPOOF_MIXED_SCRIPT},
        /* Cyrillic U+0430 U+0440 U+0435: its skeleton is "ape" (4) */
        {"\xd0\xb0\xd1\x80\xd0\xb5", UNI_SPOOF_WHOLE_SCRIPT},
        /* a with U+0301 twice: stacked marks (5.4) */
        {"a\xcc\x81\xcc\x81", UNI_SPOOF_INVISIBLE},
    };
    struct xiri_ctx *ctx = NULL;
    char label[64];
    size_t round, i, n = ARRAY_LEN(known) + 40;

    CU_ASSERT_EQUAL_FATAL(xiri_ctx_new(&ctx), XIRI_OK);
    for (round = 0; round < 3; round++) {
        for (i = 0; i < n; i++) {
            size_t k = round == 2 ? (i * 7) % n : i;
            struct xiri_ctx *fresh = NULL;
            unsigned got = 0xFF, want = 0xEE;
            enum xiri_status s1, s2;

            if (k < ARRAY_LEN(known))
                snprintf(label, sizeof(label), "%s", known[k].label);
            else /* a Greek alpha among Latin letters: mixed */
                snprintf(label, sizeof(label), "l%02zu\xce\xb1%s",
                         k - ARRAY_LEN(known), k % 2 ? "" : "x");
            s1 = uni_spoof_label(ctx, label, strlen(label), &got);
            CU_ASSERT_EQUAL_FATAL(xiri_ctx_new(&fresh), XIRI_OK);
            s2 = uni_spoof_label(fresh, label, strlen(label), &want);
            xiri_ctx_free(fresh);
            if (s1 != s2 || got != want)
                TEST_FAIL("uni_spoof_label(%s), round %zu: %d 0x%X, want %d "
                          "0x%X",
                          label, round, s1, got, s2, want);
            if (k < ARRAY_LEN(known) && got != known[k].flags)
                TEST_FAIL("uni_spoof_label(%s): 0x%X, want 0x%X", label, got,
                          known[k].flags);
        }
    }
    xiri_ctx_free(ctx);
}

int suite_idn_register(void)
{
    CU_pSuite s = CU_add_suite("idn", idn_init, idn_cleanup);

    if (!s || !CU_add_test(s, "IdnaTestV2", test_idna_v2) ||
        !CU_add_test(s, "wrapper", test_wrapper) ||
        !CU_add_test(s, "memo_same_answers", test_memo_same_answers) ||
        !CU_add_test(s, "memo_full_buffer", test_memo_full_buffer) ||
        !CU_add_test(s, "spoof_memo", test_spoof_memo))
        return -1;
    return 0;
}

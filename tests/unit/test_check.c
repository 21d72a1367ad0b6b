/* test_check.c - the check suite: xiri_check() against findings derived by
 * hand from the specs (tests/data/check-cases.tsv, check-messages.tsv),
 * the code catalogue, the API contract and the out-of-memory paths. */
#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chars.h"
#include "codes.h"
#include "helpers.h"
#include "linkcheck.h"
#include "mem.h"
#include "suites.h"
#include "xiri.h"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>

#define MAX_FINDINGS 64
#define MAX_CODES 128

struct finding {
    char code[32];
    size_t offset, length;
    uint32_t codepoint;
    enum xiri_part part;
    enum xiri_severity severity;
    char section[32];
    char message[512];
};

struct run {
    const char *s;
    size_t len;
    struct finding f[MAX_FINDINGS];
    size_t n;
    int calls;
    int stop_after; /* return non-zero after this many calls; 0: never */
    bool bad_diag;  /* a diag broke the contract (reported once) */
};

static struct xiri_ctx *ctx;

static int suite_init(void)
{
    return xiri_ctx_new(&ctx) == XIRI_OK ? 0 : -1;
}

static int suite_clean(void)
{
    xiri_ctx_free(ctx);
    ctx = NULL;
    return 0;
}

/* Record a finding and check the fields every diag must have. */
static int collect(void *user, const struct xiri_diag *d)
{
    struct run *r = user;
    const struct xiri_code_info *info =
        d->code ? xiri_code_lookup(d->code) : NULL;

    r->calls++;
    if (!info || !d->section || !d->section[0] || !d->message ||
        !d->message[0] || d->offset > r->len ||
        d->length > r->len - d->offset || (unsigned)d->severity > 2 ||
        (unsigned)d->part > XIRI_PART_COUNT) {
        if (!r->bad_diag)
            TEST_FAIL("diag breaks the contract for \"%.*s\": code %s at "
                      "%zu+%zu",
                      (int)r->len, r->s, d->code ? d->code : "(null)",
                      d->offset, d->length);
        r->bad_diag = true;
    }
    if (r->n < MAX_FINDINGS && d->code) {
        struct finding *f = &r->f[r->n++];
        snprintf(f->code, sizeof(f->code), "%s", d->code);
        f->offset = d->offset;
        f->length = d->length;
        f->codepoint = d->codepoint;
        f->part = d->part;
        f->severity = d->severity;
        snprintf(f->section, sizeof(f->section), "%s",
                 d->section ? d->section : "");
        snprintf(f->message, sizeof(f->message), "%s", d->message);
    }
    return r->stop_after && r->calls >= r->stop_after;
}

static enum xiri_status run_check(struct run *r, const char *s, size_t len,
                                  enum xiri_profile p, int *worst)
{
    memset(r, 0, sizeof(*r));
    r->s = s;
    r->len = len;
    return xiri_check(ctx, s, len, p, collect, r, worst);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "code@offset" strings, sorted, joined by spaces into out. */
static void render(char **items, size_t n, char *out, size_t size)
{
    size_t i, used = 0;

    qsort(items, n, sizeof(*items), cmp_str);
    out[0] = '\0';
    for (i = 0; i < n && used < size; i++) {
        int w =
            snprintf(out + used, size - used, "%s%s", i ? " " : "", items[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (n == 0)
        snprintf(out, size, "-");
}

static int severity_from_name(const char *name)
{
    if (strcmp(name, "none") == 0)
        return -1;
    if (strcmp(name, "note") == 0)
        return XIRI_SEV_NOTE;
    if (strcmp(name, "warning") == 0)
        return XIRI_SEV_WARNING;
    if (strcmp(name, "error") == 0)
        return XIRI_SEV_ERROR;
    return -2;
}

/* ------------------------------------------------------------------ */

struct cases {
    int lines, passed;
    bool seen[MAX_CODES]; /* catalogue index: produced by a passing line */
};

static void case_line(void *user, char **fields, int nfields, int lineno)
{
    struct cases *c = user;
    enum xiri_profile profile;
    struct run r;
    char *want_items[MAX_FINDINGS], *got_items[MAX_FINDINGS];
    char got_buf[MAX_FINDINGS][48], want[2048], got[2048], *tok, *save;
    size_t len, nw = 0, i;
    int worst = -3, want_worst;
    enum xiri_status st;

    c->lines++;
    if (nfields < 5 || xiri_profile_from_name(fields[0], &profile) != XIRI_OK ||
        (want_worst = severity_from_name(fields[3])) == -2) {
        TEST_FAIL("check-cases.tsv:%d: malformed line", lineno);
        return;
    }
    len = test_unescape(fields[1]);
    if (strcmp(fields[2], "-") != 0)
        for (tok = strtok_r(fields[2], " ", &save); tok && nw < MAX_FINDINGS;
             tok = strtok_r(NULL, " ", &save))
            want_items[nw++] = tok;
    render(want_items, nw, want, sizeof(want));

    st = run_check(&r, fields[1], len, profile, &worst);
    if (st != XIRI_OK) {
        TEST_FAIL("check-cases.tsv:%d: xiri_check returned %s", lineno,
                  xiri_strerror(st));
        return;
    }
    for (i = 0; i < r.n; i++) {
        snprintf(got_buf[i], sizeof(got_buf[i]), "%s@%zu", r.f[i].code,
                 r.f[i].offset);
        got_items[i] = got_buf[i];
    }
    render(got_items, r.n, got, sizeof(got));
    if (strcmp(want, got) != 0 || worst != want_worst) {
        TEST_FAIL("check-cases.tsv:%d (%s, %s): got [%s] worst %d, want "
                  "[%s] worst %d (%s)",
                  lineno, fields[0], fields[4], got, worst, want, want_worst,
                  fields[4]);
        return;
    }
    CU_PASS("case");
    c->passed++;
    for (i = 0; i < r.n; i++) {
        size_t k;
        for (k = 0; xiri_code_at(k); k++)
            if (k < MAX_CODES &&
                strcmp(xiri_code_at(k)->code, r.f[i].code) == 0)
                c->seen[k] = true;
    }
}

static void test_cases(void)
{
    struct cases c;
    size_t k;
    int n;

    memset(&c, 0, sizeof(c));
    n = test_read_tsv("check-cases.tsv", case_line, &c);
    CU_ASSERT(n > 100);
    /* the html profile's IPv4 and port rules (WHATWG URL) */
    CU_ASSERT(test_read_tsv("check-cases-whatwg.tsv", case_line, &c) > 20);
    CU_ASSERT_EQUAL(c.passed, c.lines);
    /* Every code in the catalogue is produced by at least one case (none
     * is reserved), except the document-level codes: xiri_check never
     * produces those, the linkcheck suite covers them (and
     * tests/cli/explain-codes.sh the walker's, tests/cli/rewrite.sh the
     * rewriter's). */
    for (k = 0; xiri_code_at(k); k++) {
        bool link_only = (k >= CODE_LINK_FIRST && k <= CODE_LINK_LAST) ||
                         (k >= CODE_DOC_FIRST && k <= CODE_DOC_LAST) ||
                         (k >= CODE_REWRITE_FIRST && k <= CODE_REWRITE_LAST);
        if (k >= MAX_CODES || c.seen[k] != !link_only)
            TEST_FAIL("code %s is %s by a line of check-cases.tsv or "
                      "check-cases-whatwg.tsv",
                      xiri_code_at(k)->code,
                      link_only ? "produced" : "not produced");
    }
}

/* ------------------------------------------------------------------ */

struct wpt {
    int fail, ok, passed;
};

/* One line of check-html-wpt.tsv: the input as a browser prepares it
 * (xiri_html_url), checked under the html profile. */
static void wpt_line(void *user, char **fields, int nfields, int lineno)
{
    struct wpt *w = user;
    const char *code;
    char *url = NULL;
    size_t len, url_len = 0, i;
    bool fail, found = false;
    struct run r;

    if (nfields < 4 ||
        (strcmp(fields[1], "fail") != 0 && strcmp(fields[1], "ok") != 0)) {
        TEST_FAIL("check-html-wpt.tsv:%d: malformed line", lineno);
        return;
    }
    fail = strcmp(fields[1], "fail") == 0;
    code = strcmp(fields[2], "ipv4") == 0 ? "invalid-ipv4" : "invalid-port";
    len = test_unescape(fields[0]);
    if (xiri_html_url(fields[0], len, NULL, &url, &url_len) != XIRI_OK ||
        run_check(&r, url, url_len, XIRI_PROFILE_HTML, NULL) != XIRI_OK) {
        TEST_FAIL("check-html-wpt.tsv:%d: xiri_check failed", lineno);
        xiri_str_free(url);
        return;
    }
    for (i = 0; i < r.n; i++)
        if (strcmp(r.f[i].code, code) == 0 && r.f[i].severity == XIRI_SEV_ERROR)
            found = true;
    if (found == fail) {
        CU_PASS("wpt");
        w->passed++;
    } else {
        TEST_FAIL("check-html-wpt.tsv:%d: \"%s\": wpt says %s, xiri %s %s",
                  lineno, url, fail ? "failure" : "success",
                  found ? "reports" : "does not report", code);
    }
    if (fail)
        w->fail++;
    else
        w->ok++;
    xiri_str_free(url);
}

static void test_wpt(void)
{
    struct wpt w;

    memset(&w, 0, sizeof(w));
    CU_ASSERT(test_read_tsv("check-html-wpt.tsv", wpt_line, &w) > 0);
    CU_ASSERT_EQUAL(w.passed, w.fail + w.ok);
    /* the selection holds 63 failures and 77 successes */
    CU_ASSERT(w.fail >= 60);
    CU_ASSERT(w.ok >= 70);
}

/* ------------------------------------------------------------------ */

static void message_line(void *user, char **fields, int nfields, int lineno)
{
    int *count = user;
    enum xiri_profile profile;
    struct run r;
    size_t len, i;
    char *end;
    unsigned long off;
    bool found = false;

    (*count)++;
    if (nfields < 6 || xiri_profile_from_name(fields[0], &profile) != XIRI_OK) {
        TEST_FAIL("check-messages.tsv:%d: malformed line", lineno);
        return;
    }
    len = test_unescape(fields[1]);
    test_unescape(fields[4]);
    off = strtoul(fields[3], &end, 10);
    if (run_check(&r, fields[1], len, profile, NULL) != XIRI_OK) {
        TEST_FAIL("check-messages.tsv:%d: xiri_check failed", lineno);
        return;
    }
    for (i = 0; i < r.n; i++) {
        if (strcmp(r.f[i].code, fields[2]) != 0 || r.f[i].offset != off)
            continue;
        found = true;
        if (strstr(r.f[i].message, fields[4])) {
            CU_PASS("message");
        } else {
            TEST_FAIL("check-messages.tsv:%d: the %s message \"%s\" lacks "
                      "\"%s\" (%s)",
                      lineno, fields[2], r.f[i].message, fields[4], fields[5]);
        }
    }
    if (!found)
        TEST_FAIL("check-messages.tsv:%d: no %s at %lu", lineno, fields[2],
                  off);
}

static void test_messages(void)
{
    int count = 0;

    CU_ASSERT(test_read_tsv("check-messages.tsv", message_line, &count) > 0);
    CU_ASSERT(count >= 20);
}

/* ------------------------------------------------------------------ */

static bool is_slug(const char *s)
{
    size_t i;

    if (!s[0] || s[0] == '-')
        return false;
    for (i = 0; s[i]; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '-'))
            return false;
    return s[i - 1] != '-';
}

static void test_catalogue(void)
{
    const struct xiri_code_info *c, *d;
    size_t i, k;

    CU_ASSERT_PTR_NULL(xiri_code_lookup("no-such-code"));
    CU_ASSERT_PTR_NULL(xiri_code_lookup(""));
    CU_ASSERT_PTR_NULL(xiri_code_lookup(NULL));
    CU_ASSERT_PTR_NULL(xiri_code_lookup("NOT-NFC")); /* codes are exact */
    CU_ASSERT_PTR_NOT_NULL(xiri_code_at(0));
    for (i = 0; (c = xiri_code_at(i)) != NULL; i++) {
        if (!c->code || !is_slug(c->code)) {
            TEST_FAIL("entry %zu: code is not a lower-case slug", i);
            continue;
        }
        if (!c->section || !c->section[0] || !c->summary || !c->summary[0] ||
            strchr(c->summary, '\n') || !c->explanation ||
            strlen(c->explanation) < 80 || (unsigned)c->severity > 2)
            TEST_FAIL("%s: empty or malformed field", c->code);
        /* every section names a specification (or, for a limit of
         * xiri's own, the man page section that documents it) */
        if (c->section && strncmp(c->section, "RFC ", 4) != 0 &&
            strncmp(c->section, "UTS #", 5) != 0 &&
            strncmp(c->section, "W3C ", 4) != 0 &&
            strncmp(c->section, "OGC ", 4) != 0 &&
            strncmp(c->section, "xiri(1) ", 8) != 0 &&
            strncmp(c->section, "WHATWG ", 7) != 0)
            TEST_FAIL("%s: section \"%s\" names no specification", c->code,
                      c->section);
        CU_ASSERT_PTR_EQUAL(xiri_code_lookup(c->code), c);
        for (k = 0; k < i; k++) {
            d = xiri_code_at(k);
            if (strcmp(c->code, d->code) == 0)
                TEST_FAIL("duplicate code %s (entries %zu and %zu)", c->code, k,
                          i);
        }
    }
    CU_ASSERT(i >= 25);
    CU_ASSERT(i < MAX_CODES);
    CU_ASSERT_PTR_NULL(xiri_code_at(i));
    CU_ASSERT_PTR_NULL(xiri_code_at((size_t)-1));
    /* default severities the issue fixes: bidi formatting characters
     * and overlong escapes are errors, bidi structure a warning, the
     * spellings notes */
    CU_ASSERT_EQUAL(xiri_code_lookup("bidi-format-char")->severity,
                    XIRI_SEV_ERROR);
    CU_ASSERT_EQUAL(xiri_code_lookup("pct-overlong")->severity, XIRI_SEV_ERROR);
    CU_ASSERT_EQUAL(xiri_code_lookup("bidi-mixed")->severity, XIRI_SEV_WARNING);
    CU_ASSERT_EQUAL(xiri_code_lookup("bidi-ends")->severity, XIRI_SEV_WARNING);
    CU_ASSERT_EQUAL(xiri_code_lookup("upper-scheme")->severity, XIRI_SEV_NOTE);
    CU_ASSERT_EQUAL(xiri_code_lookup("dot-segment")->severity, XIRI_SEV_NOTE);
    CU_ASSERT_STRING_EQUAL(xiri_code_lookup("pct-overlong")->section,
                           "RFC 3987 8");
    CU_ASSERT_STRING_EQUAL(xiri_code_lookup("bidi-format-char")->section,
                           "RFC 3987 4.1");
}

/* ------------------------------------------------------------------ */

static void test_api(void)
{
    struct run r;
    int worst = 7;
    size_t i;
    static const char sev_order[] =
        "HTTP://www.EXAMPLE.com:80/a/./b/../c?x=%7e%7e#%c3%a9";

    /* a context is required */
    CU_ASSERT_EQUAL(
        xiri_check(NULL, "a", 1, XIRI_PROFILE_RFC3987, NULL, NULL, &worst),
        XIRI_EINVAL);
    CU_ASSERT_EQUAL(worst, -1);
    CU_ASSERT_EQUAL(
        xiri_check(ctx, NULL, 3, XIRI_PROFILE_RFC3987, NULL, NULL, NULL),
        XIRI_EINVAL);
    CU_ASSERT_EQUAL(
        xiri_check(ctx, "a", 1, XIRI_PROFILE_COUNT, NULL, NULL, NULL),
        XIRI_EINVAL);
    /* NULL with length 0 is the empty reference */
    worst = 7;
    CU_ASSERT_EQUAL(
        xiri_check(ctx, NULL, 0, XIRI_PROFILE_RFC3987, collect, &r, &worst),
        XIRI_OK);
    CU_ASSERT_EQUAL(worst, -1);
    /* no callback: only the worst severity */
    CU_ASSERT_EQUAL(xiri_check(ctx, "http://a/b c", 12, XIRI_PROFILE_RFC3987,
                               NULL, NULL, &worst),
                    XIRI_OK);
    CU_ASSERT_EQUAL(worst, XIRI_SEV_ERROR);
    /* the length is honoured: the space lies past it */
    CU_ASSERT_EQUAL(
        run_check(&r, "http://a/b c", 10, XIRI_PROFILE_RFC3987, &worst),
        XIRI_OK);
    CU_ASSERT_EQUAL(r.n, 0);
    CU_ASSERT_EQUAL(worst, -1);

    /* stop early: the callback's non-zero return ends the check */
    memset(&r, 0, sizeof(r));
    r.s = sev_order;
    r.len = strlen(sev_order);
    r.stop_after = 1;
    CU_ASSERT_EQUAL(
        xiri_check(ctx, r.s, r.len, XIRI_PROFILE_RFC3987, collect, &r, &worst),
        XIRI_OK);
    CU_ASSERT_EQUAL(r.calls, 1);
    CU_ASSERT_EQUAL(worst, XIRI_SEV_NOTE);
    r.calls = 0;
    r.n = 0;
    r.stop_after = 3;
    CU_ASSERT_EQUAL(
        xiri_check(ctx, r.s, r.len, XIRI_PROFILE_RFC3987, collect, &r, &worst),
        XIRI_OK);
    CU_ASSERT_EQUAL(r.calls, 3);

    /* offset order within each kind */
    CU_ASSERT_EQUAL(run_check(&r, sev_order, strlen(sev_order),
                              XIRI_PROFILE_RFC3987, &worst),
                    XIRI_OK);
    CU_ASSERT(r.n >= 8);
    for (i = 0; i < r.n; i++) {
        size_t k;
        for (k = i + 1; k < r.n; k++)
            if (strcmp(r.f[i].code, r.f[k].code) == 0 &&
                r.f[k].offset < r.f[i].offset)
                TEST_FAIL("%s at %zu delivered after %zu", r.f[k].code,
                          r.f[k].offset, r.f[i].offset);
    }
}

/* The fields of single findings, worked out by hand. */
struct diag_case {
    const char *input;
    enum xiri_profile profile;
    const char *code;
    enum xiri_severity severity;
    size_t offset, length;
    uint32_t codepoint;
    enum xiri_part part;
    const char *section;
};

static const struct diag_case diag_cases[] = {
    {"HTTP://a/", XIRI_PROFILE_RFC3987, "upper-scheme", XIRI_SEV_NOTE, 0, 1,
     'H', XIRI_PART_SCHEME, "RFC 3987 5.3.2.1"},
    {"http://a/\\xE2\\x80\\xAE", XIRI_PROFILE_RFC3987, "bidi-format-char",
     XIRI_SEV_ERROR, 9, 3, 0x202E, XIRI_PART_PATH, "RFC 3987 4.1"},
    {"http://a/?%E2%80%AE", XIRI_PROFILE_RFC3987, "bidi-format-char",
     XIRI_SEV_WARNING, 10, 9, 0x202E, XIRI_PART_QUERY, "RFC 3987 4.1"},
    {"http://a/%C0%AF", XIRI_PROFILE_RFC3987, "pct-overlong", XIRI_SEV_ERROR, 9,
     6, 0x2F, XIRI_PART_PATH, "RFC 3987 8"},
    {"http://a/%E9", XIRI_PROFILE_RFC3987, "pct-not-utf8", XIRI_SEV_WARNING, 9,
     3, 0, XIRI_PART_PATH, "RFC 3987 3.2"},
    {"http://a:80/", XIRI_PROFILE_RFC3987, "default-port", XIRI_SEV_NOTE, 8, 3,
     ':', XIRI_PART_PORT, "RFC 3987 5.3.3"},
    {"http://a/b c", XIRI_PROFILE_LEIRI, "leiri-char", XIRI_SEV_WARNING, 10, 1,
     ' ', XIRI_PART_PATH, "W3C LEIRI Note"},
    {"http://a/\\xEF\\xAC\\x81", XIRI_PROFILE_RFC3987, "nfkc-variant",
     XIRI_SEV_WARNING, 9, 3, 0xFB01, XIRI_PART_PATH, "RFC 3987 7.5"},
    {"http://p\\xD0\\xB0ypal.com/", XIRI_PROFILE_RFC3987, "confusable-host",
     XIRI_SEV_WARNING, 7, 7, 0, XIRI_PART_HOST, "UTS #39 5.2"},
    {"http://\\xD0\\xB0\\xD1\\x80\\xD0\\xB5.com/", XIRI_PROFILE_RFC3987,
     "confusable-host", XIRI_SEV_WARNING, 7, 6, 0, XIRI_PART_HOST, "UTS #39 4"},
    {"http://ex_\\xC3\\xA4mple.com/", XIRI_PROFILE_RFC3987, "idna-error",
     XIRI_SEV_ERROR, 7, 13, 0, XIRI_PART_HOST, "UTS #46 4"},
    {"http://a/\\xD7\\x90b", XIRI_PROFILE_RFC3987, "bidi-mixed",
     XIRI_SEV_WARNING, 9, 3, 'b', XIRI_PART_PATH, "RFC 3987 4.2"},
};

static void test_diag_fields(void)
{
    size_t i, k;

    for (i = 0; i < sizeof(diag_cases) / sizeof(diag_cases[0]); i++) {
        const struct diag_case *c = &diag_cases[i];
        const struct finding *f = NULL;
        char in[128];
        struct run r;
        size_t len;

        snprintf(in, sizeof(in), "%s", c->input);
        len = test_unescape(in);
        CU_ASSERT_EQUAL(run_check(&r, in, len, c->profile, NULL), XIRI_OK);
        for (k = 0; k < r.n && !f; k++)
            if (strcmp(r.f[k].code, c->code) == 0)
                f = &r.f[k];
        if (!f) {
            TEST_FAIL("%s: no %s", c->input, c->code);
            continue;
        }
        if (f->severity != c->severity || f->offset != c->offset ||
            f->length != c->length || f->codepoint != c->codepoint ||
            f->part != c->part || strcmp(f->section, c->section) != 0) {
            TEST_FAIL("%s: %s got severity %d at %zu+%zu U+%04X part %d "
                      "section \"%s\"; want %d at %zu+%zu U+%04X part %d "
                      "section \"%s\"",
                      c->input, c->code, (int)f->severity, f->offset, f->length,
                      (unsigned)f->codepoint, (int)f->part, f->section,
                      (int)c->severity, c->offset, c->length,
                      (unsigned)c->codepoint, (int)c->part, c->section);
        } else {
            CU_PASS("diag fields");
        }
    }
}

/* A pure-ASCII reference (escapes of ASCII included) takes the fast path:
 * no allocation at all, so no ICU work either. */
static void test_ascii_fast_path(void)
{
    static const char *const inputs[] = {
        "http://www.example.com/a/b?c=d#e",
        "HTTP://www.EXAMPLE.com:80/a/./b/../c?x=%7e#%41",
        "http://a/b c<d>",
        "1a:b/%zz",
        "http://[::1]:443/",
    };
    size_t i;

    for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
        struct run r;
        enum xiri_status st;

        mem_fail_after(0);
        st = run_check(&r, inputs[i], strlen(inputs[i]), XIRI_PROFILE_RFC3987,
                       NULL);
        if (st != XIRI_OK || mem_failures() != 0)
            TEST_FAIL("%s: status %d, %lu allocations attempted", inputs[i],
                      (int)st, mem_failures());
        mem_fail_reset();
    }
}

/* Every allocation failure surfaces as XIRI_ENOMEM, nothing leaks (the
 * sanitizer build checks), and the context stays usable. */
static void test_oom(void)
{
    static const char *const inputs[] = {
        "http://www.example.org/re\\u0301sume\\u0301/\\uFB01/%93%FA%96%7B",
        "http://p\\u0430ypal.\\u05D0b.com/\\u202E/%C0%AF%E9?\\u05D0x",
        "http://%D0%B0%D1%80%D0%B5.com/%ED%A0%BD%ED%B8%80",
    };
    size_t i;

    for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
        char in[256];
        size_t len;
        unsigned long n;

        snprintf(in, sizeof(in), "%s", inputs[i]);
        len = test_unescape(in);
        for (n = 0; n < 1000; n++) {
            struct xiri_ctx *c = NULL;
            struct run r;
            enum xiri_status st;
            unsigned long failed;

            if (xiri_ctx_new(&c) != XIRI_OK)
                break;
            mem_fail_after(n);
            memset(&r, 0, sizeof(r));
            r.s = in;
            r.len = len;
            st =
                xiri_check(c, in, len, XIRI_PROFILE_RFC3987, collect, &r, NULL);
            failed = mem_failures();
            mem_fail_reset();
            xiri_ctx_free(c);
            if (failed == 0) {
                CU_ASSERT_EQUAL(st, XIRI_OK);
                break;
            }
            if (st != XIRI_ENOMEM) {
                TEST_FAIL("input %zu, allocation %lu failed: status %d", i, n,
                          (int)st);
                break;
            }
        }
        CU_ASSERT(n >= 3 && n < 1000); /* it did allocate, and finished */
    }
}

/* ------------------------------------------------------------------ */
/* The context's scratch buffers (check.c keeps them between checks)  */

/* The findings of r as one string: code, offset, length, message. */
static void findings_text(const struct run *r, enum xiri_status st, int worst,
                          char *out, size_t size)
{
    size_t i, used;

    used = (size_t)snprintf(out, size, "status %d worst %d", (int)st, worst);
    for (i = 0; i < r->n && used < size; i++) {
        int w =
            snprintf(out + used, size - used, "\n%s@%zu+%zu %s", r->f[i].code,
                     r->f[i].offset, r->f[i].length, r->f[i].message);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* xiri_check of s on context c, as text. */
static void check_on(struct xiri_ctx *c, const char *s, size_t len,
                     enum xiri_profile p, char *out, size_t size)
{
    struct run r;
    int worst = -3;
    enum xiri_status st;

    memset(&r, 0, sizeof(r));
    r.s = s;
    r.len = len;
    st = xiri_check(c, s, len, p, collect, &r, &worst);
    findings_text(&r, st, worst, out, size);
}

/* Values that use the scratch (hosts through IDNA and UTS #39, NFKC and
 * NFC messages, escapes decoded), with a long one that makes it grow
 * past what the context keeps. */
static size_t scratch_values(char values[][6000], size_t *lens)
{
    static const char *const inputs[] = {
        "http://p\\u0430ypal.\\u05D0b.com/\\u202E/%C0%AF%E9?\\u05D0x",
        "http://www.example.org/re\\u0301sume\\u0301/\\uFB01/%93%FA%96%7B",
        "http://%D0%B0%D1%80%D0%B5.com/%ED%A0%BD%ED%B8%80",
        "http://m\\u00FCnchen.example/gr\\u00F6\\u00DFe?q=cr\\u00E8me#\\u00E9",
        "http://\\uFF11\\uFF12\\uFF17.0.0.1/\\u0130\\u0131",
        "//\\u0627\\u0644.\\u0645\\u062B\\u0627\\u0644/x",
        "\\u00C0\\u0131\\u0132/\\u2126",
    };
    size_t n = 0, i, k;

    for (i = 0; i < ARRAY_LEN(inputs); i++, n++) {
        snprintf(values[n], sizeof(values[n]), "%s", inputs[i]);
        lens[n] = test_unescape(values[n]);
    }
    /* a host of 2,100 U+00E9 (4,200 bytes, decoded into the scratch):
     * over the 4 KiB the context keeps */
    memcpy(values[n], "http://", 7);
    for (k = 7, i = 0; i < 2100; i++, k += 2)
        memcpy(values[n] + k, "\xC3\xA9", 2);
    memcpy(values[n] + k, ".example/\xEF\xAC\x81", 12);
    k += 12;
    lens[n++] = k;
    return n;
}

/* One context checking values in turn (forwards, then backwards) finds
 * what a fresh context finds for each, under every profile. */
static void test_scratch_reused(void)
{
    static char values[8][6000];
    size_t lens[8], n = scratch_values(values, lens), i, round;
    static char want[16384], got[16384];
    int p;

    for (p = 0; p < XIRI_PROFILE_COUNT; p++)
        for (round = 0; round < 2 * n; round++) {
            struct xiri_ctx *fresh = NULL;

            i = round < n ? round : 2 * n - 1 - round;
            if (xiri_ctx_new(&fresh) != XIRI_OK) {
                TEST_FAIL("no context");
                return;
            }
            check_on(fresh, values[i], lens[i], (enum xiri_profile)p, want,
                     sizeof(want));
            xiri_ctx_free(fresh);
            check_on(ctx, values[i], lens[i], (enum xiri_profile)p, got,
                     sizeof(got));
            TEST_STR_EQ("same context", got, want);
        }
}

/* A check made from inside another's callback on the same context finds
 * what it finds alone, and the outer check is not disturbed. */
struct nested {
    struct run r;
    const char *inner;
    size_t inner_len;
    char inner_got[16384];
    bool done;
};

static int nested_collect(void *user, const struct xiri_diag *d)
{
    struct nested *nd = user;

    if (!nd->done) {
        nd->done = true;
        check_on(ctx, nd->inner, nd->inner_len, XIRI_PROFILE_RFC3987,
                 nd->inner_got, sizeof(nd->inner_got));
    }
    return collect(&nd->r, d);
}

static void test_scratch_nested(void)
{
    static char values[8][6000];
    size_t lens[8], n = scratch_values(values, lens), i;
    static char want_outer[16384], want_inner[16384], got[16384];
    static struct nested nd;

    for (i = 0; i < n; i++) {
        size_t k = (i + 1) % n;
        int worst = -3;
        enum xiri_status st;

        check_on(ctx, values[i], lens[i], XIRI_PROFILE_RFC3987, want_outer,
                 sizeof(want_outer));
        check_on(ctx, values[k], lens[k], XIRI_PROFILE_RFC3987, want_inner,
                 sizeof(want_inner));
        memset(&nd, 0, sizeof(nd));
        nd.r.s = values[i];
        nd.r.len = lens[i];
        nd.inner = values[k];
        nd.inner_len = lens[k];
        st = xiri_check(ctx, values[i], lens[i], XIRI_PROFILE_RFC3987,
                        nested_collect, &nd, &worst);
        findings_text(&nd.r, st, worst, got, sizeof(got));
        TEST_STR_EQ("outer", got, want_outer);
        if (nd.done)
            TEST_STR_EQ("inner", nd.inner_got, want_inner);
    }
}

/* A failed allocation while the context's scratch grows surfaces as
 * XIRI_ENOMEM, and the next check on that context finds what a fresh
 * one finds. */
static void test_scratch_oom(void)
{
    static char values[8][6000];
    size_t lens[8], n = scratch_values(values, lens), i;
    static char want[16384], got[16384];

    for (i = 0; i < n; i++) {
        unsigned long k;

        for (k = 0; k < 1000; k++) {
            struct xiri_ctx *c = NULL, *fresh = NULL;
            struct run r;
            enum xiri_status st;
            unsigned long failed;

            if (xiri_ctx_new(&c) != XIRI_OK ||
                xiri_ctx_new(&fresh) != XIRI_OK) {
                xiri_ctx_free(c);
                TEST_FAIL("no context");
                return;
            }
            /* the scratch allocated once, then a failure on the next */
            check_on(c, values[(i + 1) % n], lens[(i + 1) % n],
                     XIRI_PROFILE_RFC3987, got, sizeof(got));
            mem_fail_after(k);
            memset(&r, 0, sizeof(r));
            r.s = values[i];
            r.len = lens[i];
            st = xiri_check(c, values[i], lens[i], XIRI_PROFILE_RFC3987,
                            collect, &r, NULL);
            failed = mem_failures();
            mem_fail_reset();
            if (failed && st != XIRI_ENOMEM)
                TEST_FAIL("value %zu, allocation %lu failed: status %d", i, k,
                          (int)st);
            check_on(fresh, values[i], lens[i], XIRI_PROFILE_RFC3987, want,
                     sizeof(want));
            check_on(c, values[i], lens[i], XIRI_PROFILE_RFC3987, got,
                     sizeof(got));
            TEST_STR_EQ("after a failure", got, want);
            xiri_ctx_free(c);
            xiri_ctx_free(fresh);
            if (!failed)
                break;
        }
        CU_ASSERT(k < 1000);
    }
}

/* ------------------------------------------------------------------ */
/* xiri_check_link under a walker with lazy_positions                  */

/* Each finding with the place xiri_walker_position gives for it, asked
 * in xiri_check_link's callback, and the link's own place (its line
 * and column, or with lazy positions the place of its byte 0). */
struct lazy_check {
    struct xiri_ctx *ctx;
    struct xiri_walker *w;
    const struct xiri_link *link;
    bool lazy;
    char text[1 << 16];
    size_t used;
    unsigned findings;
};

/* "LINE:COLUMN+OFFSET CODE", indented under its link when indent */
static void lazy_add(struct lazy_check *lc, bool indent, unsigned long a,
                     unsigned long b, size_t c, const char *code)
{
    int w;

    if (lc->used >= sizeof(lc->text))
        return;
    w = snprintf(lc->text + lc->used, sizeof(lc->text) - lc->used,
                 "%s%lu:%lu+%zu %s\n", indent ? "  " : "", a, b, c, code);
    if (w > 0)
        lc->used += (size_t)w;
}

static int lazy_finding(void *user, const struct xiri_diag *d)
{
    struct lazy_check *lc = user;
    unsigned long line = 0, col = 0;
    size_t off = 0;

    if (xiri_walker_position(lc->w, lc->link, d->offset, &line, &col, &off) !=
        XIRI_OK)
        lazy_add(lc, true, 0, 0, 0, "failed");
    lazy_add(lc, true, line, col, off, d->code);
    lc->findings++;
    return 0;
}

static int lazy_link(void *user, const struct xiri_link *l)
{
    struct lazy_check *lc = user;
    struct xiri_link copy = *l;
    unsigned long line = l->line, col = l->column;
    size_t off = l->offset;

    lc->link = &copy;
    if (lc->lazy) {
        if (l->line || l->column)
            lazy_add(lc, false, l->line, l->column, 0,
                     "lazy link with a place");
        if (xiri_walker_position(lc->w, &copy, 0, &line, &col, &off) != XIRI_OK)
            lazy_add(lc, false, 0, 0, 0, "failed");
        off = l->offset;
    }
    lazy_add(lc, false, line, col, off, "link");
    if (xiri_check_link(lc->ctx, lc->w, &copy, lazy_finding, lc, NULL) !=
        XIRI_OK)
        lazy_add(lc, false, 0, 0, 0, "check failed");
    return 0;
}

static void lazy_check_walk(struct xiri_ctx *c, const struct xiri_registry *reg,
                            const char *doc, size_t n, size_t chunk,
                            struct lazy_check *lc)
{
    struct xiri_walk_options o;
    struct xiri_error err;
    enum xiri_status st;
    size_t i;

    xiri_walk_options_init(&o);
    o.lazy_positions = lc->lazy;
    lc->ctx = c;
    st = xiri_walker_new(c, reg, &o, lazy_link, NULL, lc, &lc->w);
    for (i = 0; st == XIRI_OK && i < n; i += chunk)
        st = xiri_walker_feed(lc->w, doc + i, n - i < chunk ? n - i : chunk,
                              &err);
    if (st == XIRI_OK)
        st = xiri_walker_finish(lc->w, &err);
    if (st != XIRI_OK)
        lazy_add(lc, false, (unsigned long)st, 0, 0, "status");
    xiri_walker_free(lc->w);
}

/* The places of the findings (and of the links) are the same with lazy
 * positions, over the samples with findings and a document that has
 * findings after references and line ends. */
static void test_lazy_positions(void)
{
    static const char *const samples[] = {
        "links.xhtml",    "windows-1252.html", "html4-base.html",
        "shift_jis.html", "feed.rss",          "latin1.xml",
    };
    static const char doc[] =
        "<html><body>\r\n<a href=\"HTTP://Ex&amp;ample.com:80/a/./b\">x</a>"
        "\n<a href='&#x202E;x\r\ny%zz'>y</a>\r<img src=\" caf&eacute; \">"
        "<a href=\"\xC3\xA9\xCC\x81?\xEF\xAC\x81#%e9\"></a></body></html>\n";
    static char data[1 << 20];
    static struct lazy_check eager, lazy;
    static const size_t chunks[] = {1, 13, 65536};
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    size_t i, k;

    xiri_registry_new(&reg);
    if (xiri_registry_load_preset(reg, "all", &err) != XIRI_OK) {
        TEST_FAIL("preset all: %s", err.message);
        xiri_registry_free(reg);
        return;
    }
    for (i = 0; i <= ARRAY_LEN(samples); i++) {
        const char *d = doc;
        size_t n = sizeof(doc) - 1;
        char what[128];

        if (i < ARRAY_LEN(samples)) {
            n = test_read_sample(samples[i], data, sizeof(data));
            if (n == SIZE_MAX)
                continue;
            d = data;
        }
        for (k = 0; k < ARRAY_LEN(chunks); k++) {
            memset(&eager, 0, sizeof(eager));
            memset(&lazy, 0, sizeof(lazy));
            lazy.lazy = true;
            lazy_check_walk(ctx, reg, d, n, chunks[k], &eager);
            lazy_check_walk(ctx, reg, d, n, chunks[k], &lazy);
            snprintf(what, sizeof(what), "%s by %zu",
                     i < ARRAY_LEN(samples) ? samples[i] : "doc", chunks[k]);
            TEST_STR_EQ(what, lazy.text, eager.text);
            if (i == ARRAY_LEN(samples) && eager.findings < 5)
                TEST_FAIL("%s: %u findings", what, eager.findings);
        }
    }
    xiri_registry_free(reg);
}

/* ------------------------------------------------------------------ */
/* xiri_check_link's plain path with Latin letters (linkcheck.c)       */

struct lc_text {
    char text[8192];
    size_t used;
};

static int lc_collect(void *user, const struct xiri_diag *d)
{
    struct lc_text *t = user;
    int w;

    if (t->used >= sizeof(t->text))
        return 0;
    w = snprintf(t->text + t->used, sizeof(t->text) - t->used,
                 "%s@%zu+%zu %d U+%04X %d %s: %s\n", d->code, d->offset,
                 d->length, (int)d->severity, (unsigned)d->codepoint,
                 (int)d->part, d->section, d->message);
    if (w > 0)
        t->used += (size_t)w;
    return 0;
}

/* Random values of plain bytes, letters the plain path takes (Latin
 * U+00C0-U+0131, Greek, Cyrillic, kana, CJK) and their neighbours
 * (U+0132, U+00BF, U+0387, U+0483, U+3099, U+30FF, full-width and Hangul
 * letters, mojibake, C1 and bidi controls, Hebrew, broken UTF-8,
 * escapes) after prefixes that make schemes, authorities and relative
 * paths: the path that skips xiri_check for a plain value with such
 * letters gives every finding, status and worst severity the full checks
 * give, under every profile, with and without a base, in several
 * document encodings.  (Throwaway
 * runs of the same comparison over 1,400,000 values found no
 * difference.) */
static void test_latin_fast_path(void)
{
    static const char *const prefixes[] = {
        "http://", "https://a.b/", "//", "HTTP://", "./",
        "",        "mailto:",      "a:", "file://", "http://1.2.3.4/",
        "ws://x/", "http://0x1/",  "/",  "?",       "#",
        "x/",
    };
    /* 14 plain atoms, 10 letters (Latin, Greek, Cyrillic, kana, CJK),
     * then the rest, one string (each atom ended by a space) */
    static const char atom_text[] =
        "a b . / : ? # - _ ~ A 0 .. = "
        "\xC3\xA9 \xC4\xB1 \xC3\x80 \xC3\xBF \xC4\x80 \xC4\xB0 "
        "\xCE\xB1 \xD0\x96 \xE3\x81\x82 \xE6\x9D\xB1 "
        "\xCE\x87 \xEF\xBC\xA1 \xE3\x82\x99 \xE3\x83\xBF \xEA\xB0\x80 \xD2\x83 "
        "\xE3\x80\x8C \xCE\x90 "
        "% %41 %C3%A9 @ [ ] \\ \t \xC4\xB2 \xC2\xBF \xC3\x83\xC2\xA9 \xD7\x90 "
        "\xEF\xAC\x81 \xC3 \xC3\xC0 \xC2\x85 \xEF\xBF\xBD \xE2\x80\xAE \xC4 "
        "xn-- ";
    const char *atoms[64];
    size_t atom_len[64], natoms = 0;
    static const char *const bases[] = {NULL, "http://h.example/d/"};
    static const char *const encs[] = {NULL, "windows-1252", "UTF-8",
                                       "Shift_JIS"};
    static struct lc_text fast, full;
    unsigned long state = 20240601UL, latin = 0;
    size_t it;
    const char *a;

    for (a = atom_text; *a && natoms < ARRAY_LEN(atoms); natoms++) {
        atoms[natoms] = a;
        atom_len[natoms] = (size_t)(strchr(a, ' ') - a);
        a += atom_len[natoms] + 1;
    }
    for (it = 0; it < 3000; it++) {
        char v[512];
        size_t n, k, count, b, e, i, x;
        const char *t;
        int p;
        bool nonascii = false;

        state = state * 6364136223846793005UL + 1442695040888963407UL;
        t = prefixes[(state >> 33) % ARRAY_LEN(prefixes)];
        n = strlen(t);
        memcpy(v, t, n);
        count = (state >> 20) % 20;
        for (k = 0; k < count; k++) {
            unsigned r;

            state = state * 6364136223846793005UL + 1442695040888963407UL;
            r = (unsigned)((state >> 33) % 100);
            if (r < 40)
                x = (size_t)(state >> 40) % 14;
            else if (r < 75)
                x = 14 + (size_t)(state >> 40) % 10;
            else
                x = (size_t)(state >> 40) % natoms;
            memcpy(v + n, atoms[x], atom_len[x]);
            n += atom_len[x];
        }
        for (i = 0; i < n; i++)
            nonascii |= (unsigned char)v[i] >= 0x80;
        for (p = 0; p < XIRI_PROFILE_COUNT; p++)
            for (b = 0; b < ARRAY_LEN(bases); b++)
                for (e = 0; e < ARRAY_LEN(encs); e++) {
                    struct xiri_link l;
                    int w1 = -5, w2 = -5;
                    enum xiri_status s1, s2;

                    test_href_link(&l, v, n, bases[b], p);
                    fast.used = full.used = 0;
                    fast.text[0] = full.text[0] = '\0';
                    s1 = linkcheck_run_path(ctx, encs[e], &l, lc_collect, &fast,
                                            &w1, true);
                    s2 = linkcheck_run_path(ctx, encs[e], &l, lc_collect, &full,
                                            &w2, false);
                    if (s1 != s2 || w1 != w2) {
                        TEST_FAIL("\"%.*s\" (profile %d): status %d/%d, "
                                  "worst %d/%d",
                                  (int)n, v, p, (int)s1, (int)s2, w1, w2);
                        return;
                    }
                    TEST_STR_EQ("the Latin path", fast.text, full.text);
                    if (strcmp(fast.text, full.text) != 0)
                        return;
                    latin += nonascii && fast.used == 0;
                }
    }
    CU_ASSERT(latin > 1000); /* many values took the Latin path */
}

/* linkcheck_nfkc_starter and the Latin letters U+00C0-U+0131 (check.c
 * check_scan_bytes, linkcheck.c plain_bytes_at): every character of the
 * BMP they take is a starter with quick-check Yes in NFC and NFKC, and
 * not right-to-left, in the ICU xiri runs with (so a string of them and
 * ASCII is in both forms, UAX #15 9), and xiri_check finds nothing in
 * each. */
static void test_nfkc_starters(void)
{
    size_t bad = 0, count = 0;
    uint32_t cp;

    for (cp = 0x80; cp < 0x10000; cp++) {
        char v[8] = "a/";
        struct run r;
        size_t n;
        bool latin = cp >= 0xC0 && cp <= 0x131;

        if (!latin && !linkcheck_nfkc_starter(cp))
            continue;
        count++;
        if (u_getCombiningClass((UChar32)cp) != 0 ||
            u_getIntPropertyValue((UChar32)cp, UCHAR_NFC_QUICK_CHECK) !=
                UNORM_YES ||
            u_getIntPropertyValue((UChar32)cp, UCHAR_NFKC_QUICK_CHECK) !=
                UNORM_YES ||
            u_charDirection((UChar32)cp) == U_RIGHT_TO_LEFT ||
            u_charDirection((UChar32)cp) == U_RIGHT_TO_LEFT_ARABIC ||
            cp >= 0xD800) {
            if (bad++ < 5)
                TEST_FAIL("U+%04X is not a starter NFC and NFKC keep, or "
                          "is right-to-left",
                          (unsigned)cp);
            continue;
        }
        if (!u_isdefined((UChar32)cp))
            continue; /* unassigned: check_chars says so */
        n = 2 + utf8_encode(cp, v + 2);
        if (run_check(&r, v, n, XIRI_PROFILE_RFC3987, NULL) != XIRI_OK ||
            r.n != 0) {
            if (bad++ < 5)
                TEST_FAIL("U+%04X: %zu findings (%s)", (unsigned)cp, r.n,
                          r.n ? r.f[0].code : "-");
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(count > 20000);
}

int suite_check_register(void)
{
    CU_pSuite s = CU_add_suite("check", suite_init, suite_clean);

    if (!s || !CU_add_test(s, "cases", test_cases) ||
        !CU_add_test(s, "wpt_ipv4_port", test_wpt) ||
        !CU_add_test(s, "messages", test_messages) ||
        !CU_add_test(s, "catalogue", test_catalogue) ||
        !CU_add_test(s, "api", test_api) ||
        !CU_add_test(s, "diag_fields", test_diag_fields) ||
        !CU_add_test(s, "ascii_fast_path", test_ascii_fast_path) ||
        !CU_add_test(s, "oom", test_oom) ||
        !CU_add_test(s, "scratch_reused", test_scratch_reused) ||
        !CU_add_test(s, "scratch_nested", test_scratch_nested) ||
        !CU_add_test(s, "scratch_oom", test_scratch_oom) ||
        !CU_add_test(s, "lazy_positions", test_lazy_positions) ||
        !CU_add_test(s, "latin_fast_path", test_latin_fast_path) ||
        !CU_add_test(s, "nfkc_starters", test_nfkc_starters))
        return -1;
    return 0;
}

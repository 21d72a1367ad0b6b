/* test_check.c - the check suite: xiri_check() against findings derived by
 * hand from the specs (tests/data/check-cases.tsv, check-messages.tsv),
 * the code catalogue, the API contract and the out-of-memory paths. */
#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "helpers.h"
#include "mem.h"
#include "suites.h"
#include "xiri.h"

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
        !CU_add_test(s, "oom", test_oom))
        return -1;
    return 0;
}

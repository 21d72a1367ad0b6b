/* test_threads.c - libxiri(3)'s thread-safety promise: one context per
 * thread and no hidden global state.  The conformance vectors (parse,
 * resolve, to-uri, to-iri, check, normalize) and a walk, check and rewrite
 * of every sample document are first run in this thread; then
 * THREADS_N threads, each with its own context, run all of them again
 * THREADS_ROUNDS times, each thread starting at a different job so that
 * different work overlaps, and every answer must be byte for byte the
 * single-threaded one.  The registry of presets is filled once and only
 * read by the walkers, as libxiri(3) allows; each thread also loads the
 * same presets into a registry of its own, at the same time as the
 * others, and must count as many entries.
 *
 * The single-threaded answers of resolve and the mappings are anchored to
 * their data files (RFC 3986 5.4, RFC 3987 3.1/3.2 and the other sources
 * their headers cite), so a run where every thread is wrong in the same
 * way still fails.  Races that do not change answers are for the
 * sanitizers: HACKING.md says how to run this suite under helgrind and
 * ThreadSanitizer.  The first run here also initialises libxml2
 * (xmlInitParser, through the first walker) before any thread starts, as
 * libxiri(3) asks of programs. */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "suites.h"
#include "xiri.h"

#define THREADS_N 4
#define THREADS_ROUNDS 2

enum job_kind {
    JOB_PARSE,
    JOB_RESOLVE,
    JOB_TO_URI,
    JOB_TO_IRI,
    JOB_CHECK,
    JOB_NORMALIZE,
    JOB_WALK,
    JOB_REWRITE
};

struct job {
    enum job_kind kind;
    int arg;          /* profile or IDN mode */
    char *a, *b;      /* input (and base); for documents, name and bytes */
    size_t alen, blen;
    char *want;       /* from the data file, or NULL */
    char *answer;     /* the single-threaded answer */
};

struct jobs {
    struct job *v;
    size_t n, cap;
};

/* A growable string (test code: plain malloc, abort on failure). */
struct sb {
    char *s;
    size_t len, cap;
};

static void sb_add(struct sb *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        char *p;

        while (cap < b->len + n + 1)
            cap *= 2;
        p = realloc(b->s, cap);
        if (!p)
            abort();
        b->s = p;
        b->cap = cap;
    }
    if (n)
        memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void sb_str(struct sb *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

static void sb_num(struct sb *b, unsigned long long n)
{
    char t[32];

    snprintf(t, sizeof(t), "%llu", n);
    sb_str(b, t);
}

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);

    if (!p)
        abort();
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static struct job *job_add(struct jobs *js, enum job_kind kind, int arg)
{
    struct job *j;

    if (js->n == js->cap) {
        size_t cap = js->cap ? js->cap * 2 : 256;
        struct job *v = realloc(js->v, cap * sizeof(*v));

        if (!v)
            abort();
        js->v = v;
        js->cap = cap;
    }
    j = &js->v[js->n++];
    memset(j, 0, sizeof(*j));
    j->kind = kind;
    j->arg = arg;
    return j;
}

/* ------------------------------------------------------------------ */
/* Loading the vectors                                                 */

static int is_absent(const char *f)
{
    return strcmp(f, "\\N") == 0;
}

/* parse-components.tsv: n, reference, components (only the input used). */
static void load_parse(void *user, char **f, int nf, int lineno)
{
    struct job *j;

    (void)lineno;
    if (nf < 2)
        return;
    j = job_add(user, JOB_PARSE, XIRI_PROFILE_RFC3987);
    j->alen = test_unescape(f[1]);
    j->a = dup_n(f[1], j->alen);
}

/* resolve-rfc3986.tsv: section, base, ref, expected. */
static void load_resolve(void *user, char **f, int nf, int lineno)
{
    struct job *j;
    size_t n;

    (void)lineno;
    if (nf < 4)
        return;
    j = job_add(user, JOB_RESOLVE, XIRI_PROFILE_RFC3987);
    j->blen = test_unescape(f[1]);
    j->b = dup_n(f[1], j->blen);
    j->alen = test_unescape(f[2]);
    j->a = dup_n(f[2], j->alen);
    n = test_unescape(f[3]);
    j->want = dup_n(f[3], n);
}

/* map-rfc3987.tsv: direction, idn mode, input, expected, ... */
static void load_map(void *user, char **f, int nf, int lineno)
{
    struct job *j;
    enum xiri_idn idn;
    size_t n;

    (void)lineno;
    if (nf < 4)
        return;
    if (strcmp(f[1], "percent") == 0)
        idn = XIRI_IDN_PERCENT;
    else if (strcmp(f[1], "punycode") == 0)
        idn = XIRI_IDN_PUNYCODE;
    else
        idn = XIRI_IDN_UNICODE;
    j = job_add(user, strcmp(f[0], "to_uri") == 0 ? JOB_TO_URI : JOB_TO_IRI,
                (int)idn);
    j->alen = test_unescape(f[2]);
    j->a = dup_n(f[2], j->alen);
    if (!is_absent(f[3]) && f[3][0] != '!') {
        n = test_unescape(f[3]);
        j->want = dup_n(f[3], n);
    }
}

/* check-cases.tsv: profile, input, findings, worst, rule.  Each input is
 * also normalized (scheme rung, NFC), which needs ICU through the ctx. */
static void load_check(void *user, char **f, int nf, int lineno)
{
    struct job *j;
    enum xiri_profile p;
    size_t n;

    (void)lineno;
    if (nf < 2 || xiri_profile_from_name(f[0], &p) != XIRI_OK)
        return;
    n = test_unescape(f[1]);
    j = job_add(user, JOB_CHECK, (int)p);
    j->a = dup_n(f[1], n);
    j->alen = n;
    j = job_add(user, JOB_NORMALIZE, (int)p);
    j->a = dup_n(f[1], n);
    j->alen = n;
}

static int read_file(const char *path, char **out, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    struct sb b = {0};
    char buf[4096];
    size_t n;

    if (!fp)
        return -1;
    while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
        sb_add(&b, buf, n);
    fclose(fp);
    if (!b.s)
        sb_add(&b, "", 0);
    *out = b.s;
    *len = b.len;
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every document of samples/: walked and checked, and rewritten. */
static size_t load_samples(struct jobs *js, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char *names[64];
    size_t n = 0, i;

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL && n < 64) {
        const char *dot = strrchr(e->d_name, '.');

        if (e->d_name[0] == '.' || !dot || strcmp(dot, ".md") == 0)
            continue;
        names[n++] = dup_n(e->d_name, strlen(e->d_name));
    }
    closedir(d);
    qsort(names, n, sizeof(names[0]), cmp_names);
    for (i = 0; i < n; i++) {
        char path[8192];
        char *data;
        size_t len;

        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        if (read_file(path, &data, &len) == 0) {
            struct job *j = job_add(js, JOB_WALK, 0);

            j->a = dup_n(names[i], strlen(names[i]));
            j->b = data;
            j->blen = len;
            j = job_add(js, JOB_REWRITE, 0);
            j->a = dup_n(names[i], strlen(names[i]));
            j->b = dup_n(data, len);
            j->blen = len;
        }
        free(names[i]);
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Running one job: its answer as one string                           */

static void add_status(struct sb *b, enum xiri_status st,
                       const struct xiri_error *err)
{
    sb_str(b, "E");
    sb_num(b, (unsigned)st);
    sb_str(b, "@");
    sb_num(b, err->offset);
}

static void add_result(struct sb *b, enum xiri_status st, char *out,
                       size_t len, const struct xiri_error *err)
{
    if (st == XIRI_OK)
        sb_add(b, out, len);
    else
        add_status(b, st, err);
    xiri_str_free(out);
}

static int on_diag(void *user, const struct xiri_diag *d)
{
    struct sb *b = user;

    sb_str(b, d->code);
    sb_str(b, "@");
    sb_num(b, d->offset);
    sb_str(b, "+");
    sb_num(b, d->length);
    sb_str(b, ":");
    sb_str(b, d->message);
    sb_str(b, ";");
    return 0;
}

struct walk_state {
    struct xiri_ctx *ctx;
    struct xiri_walker *w;
    const struct xiri_walker *cw;
    struct sb *b;
};

static int on_link(void *user, const struct xiri_link *l)
{
    struct walk_state *s = user;
    int worst;

    sb_num(s->b, l->line);
    sb_str(s->b, ":");
    sb_num(s->b, l->column);
    sb_str(s->b, ":");
    sb_num(s->b, l->offset);
    sb_str(s->b, "+");
    sb_num(s->b, l->raw_length);
    sb_str(s->b, " ");
    sb_str(s->b, l->element);
    sb_str(s->b, "@");
    sb_str(s->b, l->attribute ? l->attribute : "-");
    sb_str(s->b, " ");
    sb_add(s->b, l->value, l->value_len);
    sb_str(s->b, " base=");
    sb_str(s->b, l->base ? l->base : "-");
    sb_str(s->b, " [");
    if (xiri_check_link(s->ctx, s->cw, l, on_diag, s->b, &worst) != XIRI_OK)
        sb_str(s->b, "check failed");
    sb_str(s->b, "]\n");
    return 0;
}

static int on_doc_diag(void *user, const struct xiri_doc_diag *d)
{
    struct walk_state *s = user;

    sb_str(s->b, "doc ");
    sb_str(s->b, d->code);
    sb_str(s->b, "@");
    sb_num(s->b, d->line);
    sb_str(s->b, ":");
    sb_num(s->b, d->column);
    sb_str(s->b, "\n");
    return 0;
}

static int on_write(void *user, const void *data, size_t len)
{
    sb_add(user, data, len);
    return 0;
}

static int on_event(void *user, const struct xiri_rewrite_event *ev)
{
    struct walk_state *s = user;

    sb_str(s->b, "\nevent ");
    sb_num(s->b, ev->link->offset);
    sb_str(s->b, " ");
    sb_num(s->b, (unsigned)ev->status);
    sb_str(s->b, " ");
    sb_num(s->b, ev->written);
    return 0;
}

/* Feed a document in 1000-byte chunks (the walker takes any). */
static void walk_doc(struct xiri_ctx *ctx, const struct xiri_registry *reg,
                     const struct job *j, struct sb *b)
{
    struct xiri_walk_options o;
    struct walk_state s = {ctx, NULL, NULL, b};
    struct xiri_error err;
    enum xiri_status st;
    size_t at;

    xiri_walk_options_init(&o);
    o.name = j->a;
    o.base = "http://example.org/site/";
    st = xiri_walker_new(ctx, reg, &o, on_link, on_doc_diag, &s, &s.w);
    if (st != XIRI_OK) {
        sb_str(b, "walker_new failed");
        return;
    }
    s.cw = s.w;
    for (at = 0; st == XIRI_OK && at < j->blen; at += 1000)
        st = xiri_walker_feed(s.w, j->b + at,
                              j->blen - at < 1000 ? j->blen - at : 1000, &err);
    if (st == XIRI_OK)
        st = xiri_walker_finish(s.w, &err);
    if (st != XIRI_OK)
        add_status(b, st, &err);
    {
        const char *enc = xiri_walker_encoding(s.w, NULL);

        sb_str(b, enc ? enc : "-");
    }
    xiri_walker_free(s.w);
}

static int rewrite_write(void *user, const void *data, size_t len)
{
    struct walk_state *s = user;

    return on_write(s->b, data, len);
}

static void rewrite_doc(struct xiri_ctx *ctx, const struct xiri_registry *reg,
                        const struct job *j, struct sb *b)
{
    struct xiri_walk_options wo;
    struct xiri_rewrite_options ro;
    struct xiri_rewriter *rw = NULL;
    struct walk_state s = {ctx, NULL, NULL, b};
    struct xiri_error err;
    enum xiri_status st;
    size_t at;

    xiri_walk_options_init(&wo);
    wo.name = j->a;
    wo.base = "http://example.org/site/";
    xiri_rewrite_options_init(&ro);
    ro.resolve = 1;
    st = xiri_rewriter_new(ctx, reg, &wo, &ro, rewrite_write, on_event, NULL, &s,
                           &rw);
    if (st != XIRI_OK) {
        sb_str(b, "rewriter_new failed");
        return;
    }
    /* the output and the events go to one string, only compared */
    for (at = 0; st == XIRI_OK && at < j->blen; at += 777)
        st = xiri_rewriter_feed(rw, j->b + at,
                                j->blen - at < 777 ? j->blen - at : 777, &err);
    if (st == XIRI_OK)
        st = xiri_rewriter_finish(rw, &err);
    if (st != XIRI_OK)
        add_status(b, st, &err);
    xiri_rewriter_free(rw);
}

static char *run_job(struct xiri_ctx *ctx, const struct xiri_registry *reg,
                     const struct job *j)
{
    struct sb b = {0};
    struct xiri_error err;
    enum xiri_status st;
    char *out = NULL;
    size_t len = 0;
    int worst = -1, equal;

    memset(&err, 0, sizeof(err));
    switch (j->kind) {
    case JOB_PARSE: {
        struct xiri *iri = NULL;
        int p;

        st = xiri_parse(j->a, j->alen, (enum xiri_profile)j->arg, &iri, &err);
        if (st != XIRI_OK) {
            add_status(&b, st, &err);
            break;
        }
        for (p = 0; p < XIRI_PART_COUNT; p++) {
            size_t off;
            const char *s = xiri_part(iri, (enum xiri_part)p, &len, &off);

            if (s) {
                sb_num(&b, off);
                sb_str(&b, "=");
                sb_add(&b, s, len);
            } else {
                sb_str(&b, "-");
            }
            sb_str(&b, "|");
        }
        xiri_free(iri);
        break;
    }
    case JOB_RESOLVE:
        st = xiri_resolve(j->b, j->blen, j->a, j->alen,
                          (enum xiri_profile)j->arg, &out, &len, &err);
        add_result(&b, st, out, len, &err);
        break;
    case JOB_TO_URI:
        st = xiri_to_uri(ctx, j->a, j->alen, (enum xiri_idn)j->arg, 0, &out,
                         &len, &err);
        add_result(&b, st, out, len, &err);
        break;
    case JOB_TO_IRI:
        st = xiri_to_iri(ctx, j->a, j->alen, (enum xiri_idn)j->arg, &out, &len,
                         &err);
        add_result(&b, st, out, len, &err);
        break;
    case JOB_CHECK:
        st = xiri_check(ctx, j->a, j->alen, (enum xiri_profile)j->arg, on_diag,
                        &b, &worst);
        sb_str(&b, "worst=");
        sb_num(&b, (unsigned)(worst + 1));
        if (st != XIRI_OK)
            add_status(&b, st, &err);
        break;
    case JOB_NORMALIZE:
        st = xiri_normalize(ctx, j->a, j->alen, (enum xiri_profile)j->arg,
                            XIRI_RUNG_SCHEME, XIRI_NORM_NFC, &out, &len, &err);
        add_result(&b, st, out, len, &err);
        st = xiri_compare(ctx, j->a, j->alen, j->a, j->alen,
                          (enum xiri_profile)j->arg, XIRI_RUNG_SYNTAX, 0,
                          &equal, &err);
        sb_str(&b, st == XIRI_OK ? (equal ? " equal" : " different") : " E");
        break;
    case JOB_WALK:
        walk_doc(ctx, reg, j, &b);
        break;
    case JOB_REWRITE:
        rewrite_doc(ctx, reg, j, &b);
        break;
    }
    if (!b.s)
        sb_add(&b, "", 0);
    return b.s;
}

/* ------------------------------------------------------------------ */
/* The threads                                                         */

struct worker {
    pthread_t tid;
    unsigned index;
    const struct jobs *js;
    const struct xiri_registry *reg;
    const char *schema; /* samples/custom.xsd */
    unsigned long runs, mismatches;
    int own_registry_differs; /* its own registry, loaded here */
    size_t first_bad; /* index of the first mismatch */
    int ctx_failed;
};

static void *worker_main(void *arg)
{
    struct worker *wk = arg;
    struct xiri_ctx *ctx = NULL;
    size_t n = wk->js->n, i, start;
    unsigned r;
    struct xiri_registry *own = NULL;
    struct xiri_error err;

    /* Loading schemas in several threads at once (each its own
     * registry) gives what the main thread loaded. */
    if (xiri_registry_new(&own) != XIRI_OK ||
        xiri_registry_load_preset(own, "all", &err) != XIRI_OK ||
        xiri_registry_load_schema(own, wk->schema, &err) != XIRI_OK ||
        xiri_registry_count(own) != xiri_registry_count(wk->reg))
        wk->own_registry_differs = 1;
    xiri_registry_free(own);
    if (xiri_ctx_new(&ctx) != XIRI_OK) {
        wk->ctx_failed = 1;
        return NULL;
    }
    start = n * wk->index / THREADS_N;
    for (r = 0; r < THREADS_ROUNDS; r++)
        for (i = 0; i < n; i++) {
            const struct job *j = &wk->js->v[(start + i) % n];
            char *got = run_job(ctx, wk->reg, j);

            wk->runs++;
            if (strcmp(got, j->answer) != 0 && wk->mismatches++ == 0)
                wk->first_bad = (size_t)(j - wk->js->v);
            free(got);
        }
    xiri_ctx_free(ctx);
    return NULL;
}

static const char *kind_name(enum job_kind k)
{
    static const char *const names[] = {"parse", "resolve", "to-uri",
                                        "to-iri", "check", "normalize",
                                        "walk", "rewrite"};
    return names[k];
}

static void test_threads_same_answers(void)
{
    struct jobs js = {0};
    struct xiri_registry *reg = NULL;
    struct xiri_ctx *ctx = NULL;
    struct worker wk[THREADS_N];
    struct xiri_error err;
    char samples[4096], schema[4200];
    size_t i, anchored = 0, ndocs;
    unsigned t;

    CU_ASSERT_FATAL(test_read_tsv("parse-components.tsv", load_parse, &js) > 0);
    CU_ASSERT_FATAL(test_read_tsv("resolve-rfc3986.tsv", load_resolve, &js) > 0);
    CU_ASSERT_FATAL(test_read_tsv("map-rfc3987.tsv", load_map, &js) > 0);
    CU_ASSERT_FATAL(test_read_tsv("check-cases.tsv", load_check, &js) > 0);
    snprintf(samples, sizeof(samples), "%s/../../samples", TEST_DATA_DIR);
    ndocs = load_samples(&js, samples);
    CU_ASSERT(ndocs >= 10);

    /* The registry: filled here, then only read by every thread. */
    CU_ASSERT_FATAL(xiri_registry_new(&reg) == XIRI_OK);
    CU_ASSERT_EQUAL(xiri_registry_load_preset(reg, "all", &err), XIRI_OK);
    snprintf(schema, sizeof(schema), "%s/custom.xsd", samples);
    CU_ASSERT_EQUAL(xiri_registry_load_schema(reg, schema, &err), XIRI_OK);

    /* The single-threaded answers, anchored where the file says. */
    CU_ASSERT_FATAL(xiri_ctx_new(&ctx) == XIRI_OK);
    for (i = 0; i < js.n; i++) {
        struct job *j = &js.v[i];

        j->answer = run_job(ctx, reg, j);
        if (j->want) {
            anchored++;
            TEST_STR_EQ(j->a, j->answer, j->want);
        }
    }
    xiri_ctx_free(ctx);
    CU_ASSERT(anchored >= 50);

    for (t = 0; t < THREADS_N; t++) {
        memset(&wk[t], 0, sizeof(wk[t]));
        wk[t].index = t;
        wk[t].js = &js;
        wk[t].reg = reg;
        wk[t].schema = schema;
        CU_ASSERT_FATAL(pthread_create(&wk[t].tid, NULL, worker_main, &wk[t]) == 0);
    }
    for (t = 0; t < THREADS_N; t++) {
        CU_ASSERT(pthread_join(wk[t].tid, NULL) == 0);
        CU_ASSERT(!wk[t].ctx_failed);
        CU_ASSERT(!wk[t].own_registry_differs);
        CU_ASSERT_EQUAL(wk[t].runs, (unsigned long)js.n * THREADS_ROUNDS);
        if (wk[t].mismatches) {
            const struct job *j = &js.v[wk[t].first_bad];

            TEST_FAIL("thread %u: %lu answers differ from the single-threaded "
                      "run; first: %s of '%s'",
                      t, wk[t].mismatches, kind_name(j->kind), j->a);
        }
    }

    for (i = 0; i < js.n; i++) {
        free(js.v[i].a);
        free(js.v[i].b);
        free(js.v[i].want);
        free(js.v[i].answer);
    }
    free(js.v);
    xiri_registry_free(reg);
}

int suite_threads_register(void)
{
    CU_pSuite s = CU_add_suite("threads", NULL, NULL);

    if (!s)
        return -1;
    if (!CU_add_test(s, "test_threads_same_answers",
                     test_threads_same_answers))
        return -1;
    return 0;
}

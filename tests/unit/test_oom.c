/* test_oom.c - allocation failure: every operation is run with its Nth
 * allocation failing, for N = 0, 1, 2, ... until it succeeds; each run
 * must end cleanly with XIRI_ENOMEM (or succeed when that allocation was
 * not needed), never crash, and leak nothing (ASan's leak checker and
 * valgrind watch that in the sanitizer and valgrind runs). */
#include <CUnit/CUnit.h>
#include <string.h>

#include "common.h"
#include "helpers.h"
#include "mem.h"
#include "suites.h"
#include "walk.h"

/* One operation under test: returns its status and frees its results. */
typedef enum xiri_status op_fn(struct xiri_ctx *ctx);

static const char iri_text[] =
    "http://r\xC3\xA9sum\xC3\xA9.example.org/%E2%80%AE/\xE6\x97\xA5/./a/../b"
    "?q=\xEE\x80\x80&x=%c3%a9#fr\xC3\xA4g";

static enum xiri_status op_parse(struct xiri_ctx *ctx)
{
    struct xiri *iri = NULL;
    enum xiri_status st;

    (void)ctx;
    st = xiri_parse(iri_text, strlen(iri_text), XIRI_PROFILE_RFC3987, &iri,
                    NULL);
    xiri_free(iri);
    return st;
}

static enum xiri_status op_resolve(struct xiri_ctx *ctx)
{
    static const char ref[] = "../g/./\xC3\xA9?y#s";
    char *out = NULL;
    enum xiri_status st;

    (void)ctx;
    st = xiri_resolve(iri_text, strlen(iri_text), ref, strlen(ref),
                      XIRI_PROFILE_RFC3987, &out, NULL, NULL);
    xiri_str_free(out);
    return st;
}

static enum xiri_status op_to_uri(struct xiri_ctx *ctx)
{
    char *out = NULL;
    enum xiri_status st;

    st = xiri_to_uri(ctx, iri_text, strlen(iri_text), XIRI_IDN_PUNYCODE, 0,
                     &out, NULL, NULL);
    xiri_str_free(out);
    return st;
}

static enum xiri_status op_to_iri(struct xiri_ctx *ctx)
{
    static const char uri[] =
        "http://xn--99zt52a.example.org/%e2%80%ae/D%C3%BCrst?q=%EE%80%80";
    char *out = NULL;
    enum xiri_status st;

    st = xiri_to_iri(ctx, uri, strlen(uri), XIRI_IDN_UNICODE, &out, NULL,
                     NULL);
    xiri_str_free(out);
    return st;
}

/* Without a context: to-iri makes its own for the look-alike (U+2215)
 * and the host's IDNA check. */
static enum xiri_status op_to_iri_own_ctx(struct xiri_ctx *ctx)
{
    static const char uri[] = "http://r%C3%A9sum%C3%A9.example/a%E2%88%95b";
    char *out = NULL;
    enum xiri_status st;

    (void)ctx;
    st =
        xiri_to_iri(NULL, uri, strlen(uri), XIRI_IDN_PERCENT, &out, NULL, NULL);
    xiri_str_free(out);
    return st;
}

static int ignore_diag(void *user, const struct xiri_diag *d)
{
    (void)user, (void)d;
    return 0;
}

static enum xiri_status op_check(struct xiri_ctx *ctx)
{
    static const char text[] =
        "HTTP://\xD0\xB0pple.com:80/\xEF\xBC\xA1/%E9/%C0%AF/\xD7\x90" "a?"
        "\xE2\x80\x8F#x y";
    int worst;

    return xiri_check(ctx, text, strlen(text), XIRI_PROFILE_LEIRI,
                      ignore_diag, NULL, &worst);
}

static enum xiri_status op_normalize(struct xiri_ctx *ctx)
{
    static const char text[] = "HTTP://Example.COM:80/a/./b/../%7e%c3%a9";
    char *out = NULL;
    enum xiri_status st;

    st = xiri_normalize(ctx, text, strlen(text), XIRI_PROFILE_RFC3987,
                        XIRI_RUNG_SCHEME, XIRI_NORM_NFC, &out, NULL, NULL);
    xiri_str_free(out);
    return st;
}

static enum xiri_status op_display(struct xiri_ctx *ctx)
{
    static const char text[] = "http://\xD7\x90\xD7\x91.example/\xD7\x92?x=1";
    char *out = NULL;
    enum xiri_status st;

    st = xiri_display(ctx, text, strlen(text), XIRI_DISPLAY_LRM_COMPONENT,
                      &out, NULL, NULL);
    xiri_str_free(out);
    return st;
}

static enum xiri_status op_zld(struct xiri_ctx *ctx)
{
    static const char host[] = "\xE6\x97\xA5\xE6\x9C\xAC.example";
    char *enc = NULL, *dec = NULL;
    enum xiri_status st;

    (void)ctx;
    st = xiri_zld_encode(host, strlen(host), &enc, NULL, NULL);
    if (st == XIRI_OK)
        st = xiri_zld_decode(enc, strlen(enc), &dec, NULL, NULL);
    xiri_str_free(enc);
    xiri_str_free(dec);
    return st;
}

static int count_link(void *user, const struct xiri_link *l)
{
    (void)l;
    (*(int *)user)++;
    return 0;
}

/* Walk doc with reg (freed here; st: how making it went) in the parser
 * thread's mode given (a job every 8 bytes): XIRI_EINVAL when the walk
 * succeeds with other than want links (not out of memory, yet wrong). */
static enum xiri_status walk_count(struct xiri_ctx *ctx,
                                   struct xiri_registry *reg,
                                   enum xiri_status st, const char *doc,
                                   size_t n, enum walk_pipe mode, int want)
{
    struct xiri_walker *w = NULL;
    int links = 0;

    if (st == XIRI_OK)
        st = xiri_walker_new(ctx, reg, NULL, count_link, NULL, &links, &w);
    if (st == XIRI_OK && mode != WALK_PIPE_OFF)
        walk_set_pipe(w, mode, 8);
    if (st == XIRI_OK)
        st = xiri_walker_feed(w, doc, n, NULL);
    if (st == XIRI_OK)
        st = xiri_walker_finish(w, NULL);
    xiri_walker_free(w);
    xiri_registry_free(reg);
    if (st == XIRI_OK && links != want)
        return XIRI_EINVAL;
    return st;
}

/* A small document walk: XML with xml:base, references and content. */
static enum xiri_status op_walk(struct xiri_ctx *ctx)
{
    static const char doc[] =
        "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e \"ent\">]>"
        "<r xml:base=\"http://ex.org/a/\"><a href=\"b&amp;c&e;\"/>"
        "<a href=\"caf\xC3\xA9 x\"/><id> urn:x:&e; </id></r>";
    struct xiri_registry *reg = NULL;
    enum xiri_status st;

    st = xiri_registry_new(&reg);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, NULL, "a", NULL, "href", XIRI_SHAPE_IRI);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, NULL, "id", NULL, NULL, XIRI_SHAPE_IRI);
    return walk_count(ctx, reg, st, doc, sizeof(doc) - 1, WALK_PIPE_OFF, 3);
}

/* The same with the parser thread's records (walk.h), made and replayed
 * on this thread or made on the parser thread (whose own allocations are
 * not failed: mem_fail_after is per thread). */
static enum xiri_status op_walk_pipe(struct xiri_ctx *ctx, enum walk_pipe mode)
{
    static const char doc[] =
        "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e \"ent\">"
        "<!ENTITY m \"<id>urn:m</id>\">]>"
        "<r xml:base=\"http://ex.org/a/\"><a href=\"b&amp;c&e;\"/>"
        "<a href=\"caf\xC3\xA9 x\"/><id> urn:x:&e; </id>&m;<q>&e;</q>"
        "<a href=\"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\"/></r>";
    struct xiri_registry *reg = NULL;
    enum xiri_status st;

    st = xiri_registry_new(&reg);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, NULL, "a", NULL, "href", XIRI_SHAPE_IRI);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, NULL, "id", NULL, NULL, XIRI_SHAPE_IRI);
    return walk_count(ctx, reg, st, doc, sizeof(doc) - 1, mode, 5);
}

static enum xiri_status op_walk_replayed(struct xiri_ctx *ctx)
{
    return op_walk_pipe(ctx, WALK_PIPE_INLINE);
}

static enum xiri_status op_walk_thread(struct xiri_ctx *ctx)
{
    return op_walk_pipe(ctx, WALK_PIPE_THREAD);
}

/* (a batch for each record or two, the text let go at once) */
static enum xiri_status op_walk_late(struct xiri_ctx *ctx)
{
    return op_walk_pipe(ctx, WALK_PIPE_LAG);
}

#define XHTML_NS "http://www.w3.org/1999/xhtml"

/* HTML through the records, made and replayed on this thread (mode
 * WALK_PIPE_INLINE, or WALK_PIPE_LAG): start tags with and without
 * attributes (one without a value), and the text elements where the
 * walker waits for the records before it reads on (TAG_GUARD_SYNC). */
static enum xiri_status op_walk_html_pipe(struct xiri_ctx *ctx,
                                          enum walk_pipe mode)
{
    static const char doc[] =
        "<!DOCTYPE html><title>t <a href=\"no\"></title><p><a href=\"caf"
        "\xC3\xA9 x\" ping=\"a b\">x</a><script>a = \"</p>\";</script>"
        "<img src=i.png ismap><style>p { background: url(u.png) }</style>";
    struct xiri_registry *reg = NULL;
    enum xiri_status st;

    st = xiri_registry_new(&reg);
    if (st == XIRI_OK)
        st =
            xiri_registry_add(reg, XHTML_NS, "a", NULL, "href", XIRI_SHAPE_IRI);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, XHTML_NS, "a", NULL, "ping",
                               XIRI_SHAPE_LIST);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, XHTML_NS, "img", NULL, "src",
                               XIRI_SHAPE_IRI);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, XHTML_NS, "style", NULL, NULL,
                               XIRI_SHAPE_CSS);
    return walk_count(ctx, reg, st, doc, sizeof(doc) - 1, mode, 5);
}

static enum xiri_status op_walk_html_replayed(struct xiri_ctx *ctx)
{
    return op_walk_html_pipe(ctx, WALK_PIPE_INLINE);
}

static enum xiri_status op_walk_html_late(struct xiri_ctx *ctx)
{
    return op_walk_html_pipe(ctx, WALK_PIPE_LAG);
}

static int sink(void *user, const void *d, size_t n)
{
    (void)user, (void)d, (void)n;
    return 0;
}

/* A rewrite of a small HTML document to URIs. */
static enum xiri_status op_rewrite(struct xiri_ctx *ctx)
{
    static const char doc[] =
        "<!DOCTYPE html><meta charset=utf-8><a href=\"caf\xC3\xA9?q=\xC3\xA9\" "
        "ping=\"x \xC3\xA9\">x</a><img srcset=\"\xC3\xA9.png 1x, b.png 2x\">";
    struct xiri_registry *reg = NULL;
    struct xiri_rewriter *rw = NULL;
    enum xiri_status st;

    st = xiri_registry_new(&reg);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, "http://www.w3.org/1999/xhtml", "a", NULL,
                               "href", XIRI_SHAPE_IRI);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, "http://www.w3.org/1999/xhtml", "a", NULL,
                               "ping", XIRI_SHAPE_LIST);
    if (st == XIRI_OK)
        st = xiri_registry_add(reg, "http://www.w3.org/1999/xhtml", "img",
                               NULL, "srcset", XIRI_SHAPE_SRCSET);
    if (st == XIRI_OK)
        st = xiri_rewriter_new(ctx, reg, NULL, NULL, sink, NULL, NULL, NULL,
                               &rw);
    if (st == XIRI_OK)
        st = xiri_rewriter_feed(rw, doc, sizeof(doc) - 1, NULL);
    if (st == XIRI_OK)
        st = xiri_rewriter_finish(rw, NULL);
    xiri_rewriter_free(rw);
    xiri_registry_free(reg);
    return st;
}

/* Fail allocation N for N = 0, 1, ... until the operation succeeds. */
static void torture(const char *name, op_fn *op, bool fresh_ctx)
{
    unsigned long n;
    struct xiri_ctx *shared = NULL;

    CU_ASSERT_EQUAL_FATAL(xiri_ctx_new(&shared), XIRI_OK);
    for (n = 0; n < 10000; n++) {
        struct xiri_ctx *ctx = NULL;
        enum xiri_status st;

        if (fresh_ctx) {
            /* the context's own allocations are part of the operation */
            mem_fail_after(n);
            st = xiri_ctx_new(&ctx);
            if (st == XIRI_OK)
                st = op(ctx);
        } else {
            mem_fail_after(n);
            st = op(shared);
        }
        mem_fail_reset();
        xiri_ctx_free(ctx);
        if (st == XIRI_OK) {
            /* every operation here allocates, so N = 0 must have failed */
            if (n == 0)
                TEST_FAIL("%s: succeeded with no allocation at all", name);
            else
                CU_PASS("succeeded once allocations were available");
            break;
        }
        if (st != XIRI_ENOMEM) {
            TEST_FAIL("%s: allocation %lu failing gave '%s', want '%s'", name,
                      n, xiri_strerror(st), xiri_strerror(XIRI_ENOMEM));
            break;
        }
    }
    if (n == 10000)
        TEST_FAIL("%s: still failing after 10000 allocations", name);
    xiri_ctx_free(shared);
}

static void test_oom_parse(void)
{
    torture("parse", op_parse, false);
}

static void test_oom_resolve(void)
{
    torture("resolve", op_resolve, false);
}

static void test_oom_to_uri_punycode(void)
{
    torture("to-uri", op_to_uri, true);
}

static void test_oom_to_iri_unicode(void)
{
    torture("to-iri", op_to_iri, true);
}

static void test_oom_to_iri_own_ctx(void)
{
    torture("to-iri without a context", op_to_iri_own_ctx, false);
}

static void test_oom_check(void)
{
    torture("check", op_check, true);
}

static void test_oom_normalize(void)
{
    torture("normalize", op_normalize, true);
}

static void test_oom_walk(void)
{
    torture("walk", op_walk, true);
}

static void test_oom_walk_replayed(void)
{
    torture("walk, records replayed", op_walk_replayed, true);
}

static void test_oom_walk_thread(void)
{
    torture("walk, parser thread", op_walk_thread, true);
}

static void test_oom_walk_html_replayed(void)
{
    torture("walk, HTML records replayed", op_walk_html_replayed, true);
}

static void test_oom_walk_late(void)
{
    torture("walk, records replayed late", op_walk_late, true);
    torture("walk, HTML records replayed late", op_walk_html_late, true);
}

static void test_oom_rewrite(void)
{
    torture("rewrite", op_rewrite, true);
}

static void test_oom_display(void)
{
    torture("display", op_display, true);
}

static void test_oom_zld(void)
{
    torture("zld", op_zld, false);
}

/* The hook itself: the Nth allocation fails, the others do not. */
static void test_oom_hook_counts(void)
{
    void *a, *b, *c;

    mem_fail_after(2);
    a = mem_alloc(8);
    b = mem_alloc(8);
    c = mem_alloc(8);
    mem_fail_reset();
    CU_ASSERT_PTR_NOT_NULL(a);
    CU_ASSERT_PTR_NOT_NULL(b);
    CU_ASSERT_PTR_NULL(c);
    CU_ASSERT_EQUAL(mem_failures(), 1);
    mem_free(a);
    mem_free(b);
}

/* mem_reserve: the room doubled from 16 until it holds what is asked;
 * nothing changed when it cannot grow (out of memory, or a size that
 * does not fit in size_t). */
static void test_oom_reserve(void)
{
    int *a = NULL, *kept;
    size_t cap = 0;

    CU_ASSERT(mem_reserve(&a, &cap, 1, sizeof(*a)));
    CU_ASSERT_EQUAL(cap, 16);
    CU_ASSERT(mem_reserve(&a, &cap, 16, sizeof(*a)));
    CU_ASSERT_EQUAL(cap, 16);
    a[15] = 7;
    CU_ASSERT(mem_reserve(&a, &cap, 100, sizeof(*a)));
    CU_ASSERT_EQUAL(cap, 128);
    CU_ASSERT_EQUAL(a[15], 7);
    kept = a;
    mem_fail_after(0);
    CU_ASSERT(!mem_reserve(&a, &cap, 129, sizeof(*a)));
    mem_fail_reset();
    CU_ASSERT(a == kept && cap == 128);
    CU_ASSERT(!mem_reserve(&a, &cap, SIZE_MAX / 2, sizeof(*a)));
    CU_ASSERT(a == kept && cap == 128 && a[15] == 7);
    mem_free(a);
}

int suite_oom_register(void)
{
    CU_pSuite s = CU_add_suite("oom", NULL, NULL);

    if (!s)
        return -1;
    CU_ADD_TEST(s, test_oom_hook_counts);
    CU_ADD_TEST(s, test_oom_reserve);
    CU_ADD_TEST(s, test_oom_parse);
    CU_ADD_TEST(s, test_oom_resolve);
    CU_ADD_TEST(s, test_oom_to_uri_punycode);
    CU_ADD_TEST(s, test_oom_to_iri_unicode);
    CU_ADD_TEST(s, test_oom_to_iri_own_ctx);
    CU_ADD_TEST(s, test_oom_check);
    CU_ADD_TEST(s, test_oom_normalize);
    CU_ADD_TEST(s, test_oom_display);
    CU_ADD_TEST(s, test_oom_walk);
    CU_ADD_TEST(s, test_oom_walk_replayed);
    CU_ADD_TEST(s, test_oom_walk_thread);
    CU_ADD_TEST(s, test_oom_walk_html_replayed);
    CU_ADD_TEST(s, test_oom_walk_late);
    CU_ADD_TEST(s, test_oom_rewrite);
    CU_ADD_TEST(s, test_oom_zld);
    return 0;
}

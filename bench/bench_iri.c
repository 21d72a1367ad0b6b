/* bench_iri.c - the engine benchmark ("make bench"): generates base/reference
 * pairs, times xiri's resolve+serialize and to-uri, and uriparser's resolve
 * on the ASCII form of the same pairs, after checking both agree. */
#include <xiri.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef BENCH_HAVE_URIPARSER
#include <arpa/inet.h>
#include <sys/socket.h>
#include <uriparser/Uri.h>
#endif

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(a) ((a)[rng_below((unsigned)ARRAY_LEN(a))])

/* ------------------------------------------------------------------ */
/* Deterministic pseudo-random numbers: splitmix64                    */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static unsigned rng_below(unsigned n)
{
    return (unsigned)(rng_next() % n);
}

static bool rng_chance(unsigned percent)
{
    return rng_below(100) < percent;
}

/* ------------------------------------------------------------------ */
/* Storage: every string lives in one arena, addressed by offset       */

struct str {
    size_t off;
    size_t len;
};

static struct {
    char *data;
    size_t len, cap;
} arena;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p) {
        fprintf(stderr, "bench_iri: out of memory\n");
        exit(2);
    }
    return p;
}

static struct str arena_add(const char *s, size_t n)
{
    struct str r;

    if (arena.len + n + 1 > arena.cap) {
        size_t cap = arena.cap ? arena.cap : ((size_t)1 << 24);
        char *p;
        while (cap < arena.len + n + 1)
            cap *= 2;
        p = realloc(arena.data, cap);
        if (!p) {
            fprintf(stderr, "bench_iri: out of memory\n");
            exit(2);
        }
        arena.data = p;
        arena.cap = cap;
    }
    memcpy(arena.data + arena.len, s, n);
    arena.data[arena.len + n] = '\0';
    r.off = arena.len;
    r.len = n;
    arena.len += n + 1;
    return r;
}

static const char *S(struct str s)
{
    return arena.data + s.off;
}

/* One benchmark item. */
struct pair {
    struct str base, ref;     /* the IRIs as generated */
    struct str abase, aref;   /* their URI (ASCII) forms, by xiri_to_uri */
    struct str result;        /* xiri_resolve(base, ref), an IRI */
};

static struct pair *pairs;
static size_t npairs;

/* ------------------------------------------------------------------ */
/* The generator                                                       */

/* A small string builder; the pools below keep every string short. */
struct sb {
    char buf[1024];
    size_t len;
};

static void sb_add(struct sb *b, const char *s)
{
    size_t n = strlen(s);

    if (b->len + n < sizeof(b->buf)) {
        memcpy(b->buf + b->len, s, n);
        b->len += n;
    }
}

/* The pools.  Non-ASCII text is written as the octal escapes of its UTF-8
 * bytes (octal, unlike \x, cannot swallow a following letter), with the
 * text itself in the comment. */
static const char *const ascii_hosts[] = {
    "example.com",     "www.example.org", "www.w3.org",
    "en.wikipedia.org", "api.github.com", "cdn.example.net",
    "localhost",       "static.example.co.uk", "intranet",
    "docs.python.org",
};

/* Internationalized host names, all valid under UTS #46 with the options
 * of XIRI_IDN_PUNYCODE (non-transitional, CheckBidi, CheckJoiners, STD3). */
static const char *const idn_hosts[] = {
    "b\303\274cher.example",                    /* bücher.example */
    "m\303\274nchen.de",                        /* münchen.de */
    "\344\276\213\343\201\210.\343\203\206\343\202\271\343\203\210",
                                                /* 例え.テスト */
    "\320\277\321\200\320\270\320\274\320\265\321\200.\321\200\321\204",
                                                /* пример.рф */
    ("\317\200\316\261\317\201\316\254\316\264\316\265\316\271\316\263\316"
     "\274\316\261.\316\264\316\277\316\272\316\271\316\274\316\256"),
                                                /* παράδειγμα.δοκιμή */
    "\344\270\255\346\226\207.\344\270\255\345\233\275", /* 中文.中国 */
    "\355\225\234\352\265\255.kr",              /* 한국.kr */
    "stra\303\237e.de",                         /* straße.de */
    "\346\227\245\346\234\254\350\252\236.jp",  /* 日本語.jp */
    "caf\303\251.fr",                           /* café.fr */
    ("\331\205\330\253\330\247\331\204.\330\245\330\256\330\252\330\250"
     "\330\247\330\261"),
                                                /* مثال.إختبار */
    "www.k\303\270benhavn.dk",                  /* www.københavn.dk */
};

static const char *const ports[] = {":8080", ":443", ":3000", ":80"};

static const char *const ascii_segs[] = {
    "docs", "index.html", "a", "b", "c", "img", "style.css", "api", "v1",
    "v2", "users", "42", "2024", "search", "static", "js", "app.min.js",
    "~alice", "%7Ebob", "a%20b", "report.pdf", "page;type=a", "x-y_z",
    "data.json", "wiki", "Main_Page", "en", "blog", "feed.xml", "g",
};

static const char *const nonascii_segs[] = {
    "caf\303\251",                              /* café */
    "na\303\257ve",                             /* naïve */
    "\346\227\245\346\234\254\350\252\236",     /* 日本語 */
    "\316\225\316\273\316\273\316\267\316\275\316\271\316\272\316\254",
                                                /* Ελληνικά */
    "\321\200\321\203\321\201\321\201\320\272\320\270\320\271", /* русский */
    "\303\274ber",                              /* über */
    "r\303\251sum\303\251.pdf",                 /* résumé.pdf */
    "\355\225\234\352\265\255\354\226\264",     /* 한국어 */
    "\327\242\327\221\327\250\327\231\327\252", /* עברית */
    "Stra\303\237e",                            /* Straße */
    "\303\261and\303\272",                      /* ñandú */
    "\360\237\230\200",                         /* U+1F600 */
    "Dvo\305\231\303\241k",                     /* Dvořák */
    "ti\341\272\277ng-vi\341\273\207t",         /* tiếng-việt */
    "\340\244\271\340\244\277\340\244\250\340\245\215\340\244\246\340\245\200",
                                                /* हिन्दी */
    "\346\226\207\346\241\243.html",            /* 文档.html */
};

static const char *const ascii_queries[] = {
    "q=test", "page=2&sort=asc", "id=12345", "lang=en&x=1",
    "utm_source=feed&utm_medium=rss", "a=%C3%A9", "v=1.2.3", "",
};

static const char *const nonascii_queries[] = {
    "q=\346\227\245\346\234\254",               /* q=日本 */
    "name=Jos\303\251",                         /* name=José */
    "q=\316\225\316\273\316\273\316\254\316\264\316\261", /* q=Ελλάδα */
    "city=M\303\274nchen&page=3",               /* city=München&page=3 */
    "s=\320\277\321\200\320\270\320\262\320\265\321\202", /* s=привет */
    "tag=\360\237\231\202",                     /* tag=U+1F642 */
};

static const char *const ascii_frags[] = {
    "top", "sec-2", "section-3.1", "L10-L20", "", "fn:1",
};

static const char *const nonascii_frags[] = {
    "\303\234berblick",                         /* Überblick */
    "\347\253\240",                             /* 章 */
    "\320\262\320\262\320\265\320\264\320\265\320\275\320\270\320\265",
                                                /* введение */
};

/* Shares, in percent, of the non-ASCII choices. */
#define P_IDN_HOST 15
#define P_NONASCII_SEG 12
#define P_NONASCII_QUERY 30
#define P_NONASCII_FRAG 30

static void gen_host(struct sb *b)
{
    unsigned k;

    if (rng_chance(2))
        sb_add(b, "user@");
    k = rng_below(100);
    if (k < P_IDN_HOST)
        sb_add(b, PICK(idn_hosts));
    else if (k < P_IDN_HOST + 2)
        sb_add(b, "192.0.2.17");
    else if (k < P_IDN_HOST + 3)
        sb_add(b, "[2001:db8::7]");
    else
        sb_add(b, PICK(ascii_hosts));
    if (rng_chance(8))
        sb_add(b, PICK(ports));
}

static void gen_seg(struct sb *b)
{
    if (rng_chance(P_NONASCII_SEG))
        sb_add(b, PICK(nonascii_segs));
    else
        sb_add(b, PICK(ascii_segs));
}

/* n segments joined by "/" (a relative path when it starts the string) */
static void gen_segs(struct sb *b, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        if (i > 0)
            sb_add(b, "/");
        gen_seg(b);
    }
}

static void gen_query(struct sb *b)
{
    sb_add(b, "?");
    if (rng_chance(P_NONASCII_QUERY))
        sb_add(b, PICK(nonascii_queries));
    else
        sb_add(b, PICK(ascii_queries));
}

static void gen_frag(struct sb *b)
{
    sb_add(b, "#");
    if (rng_chance(P_NONASCII_FRAG))
        sb_add(b, PICK(nonascii_frags));
    else
        sb_add(b, PICK(ascii_frags));
}

/* An absolute IRI: mostly http(s) with a path of 0-5 segments, some
 * file:///, ftp, and 2% rootless (tag:, urn:) for the RFC 3986 5.2.4
 * corner uriparser treats differently. */
static void gen_absolute(struct sb *b, unsigned frag_percent)
{
    unsigned k = rng_below(100), n;

    if (k < 2) {
        sb_add(b, k == 0 ? "tag:example.org,2024:" : "urn:example:");
        gen_segs(b, 1 + rng_below(3));
    } else {
        if (k < 7) {
            sb_add(b, "file://");
            if (rng_chance(20))
                sb_add(b, "localhost");
        } else {
            sb_add(b, k < 45 ? "http://" : k < 97 ? "https://" : "ftp://");
            gen_host(b);
        }
        n = rng_below(6);
        if (n == 0 && (k < 7 || rng_chance(50)))
            n = 1;
        while (n-- > 0) {
            sb_add(b, "/");
            gen_seg(b);
        }
        if (rng_chance(15))
            sb_add(b, "/");
    }
    if (rng_chance(20))
        gen_query(b);
    if (rng_chance(frag_percent))
        gen_frag(b);
}

/* A reference: the forms of RFC 3986 section 5.4 and absolute ones, in
 * shares (per mille) meant to look like the links of real documents. */
static void gen_reference(struct sb *b)
{
    static const char *const dots[] = {".", "..", "./", "../", "../.."};
    unsigned k = rng_below(1000), i;

    if (k < 220) {                      /* g, g/h, g/h/i */
        gen_segs(b, 1 + rng_below(3));
        if (rng_chance(10))
            gen_query(b);
        if (rng_chance(10))
            gen_frag(b);
    } else if (k < 270) {               /* ./g */
        sb_add(b, "./");
        gen_segs(b, 1 + rng_below(2));
    } else if (k < 390) {               /* ../g, ../../g, ../../../g */
        for (i = 1 + rng_below(3); i > 0; i--)
            sb_add(b, "../");
        gen_segs(b, 1 + rng_below(2));
    } else if (k < 540) {               /* /g/h */
        for (i = 1 + rng_below(4); i > 0; i--) {
            sb_add(b, "/");
            gen_seg(b);
        }
        if (rng_chance(15))
            gen_query(b);
    } else if (k < 580) {               /* //host/g */
        sb_add(b, "//");
        gen_host(b);
        sb_add(b, "/");
        gen_segs(b, 1 + rng_below(2));
    } else if (k < 630) {               /* ?y */
        gen_query(b);
    } else if (k < 710) {               /* #s */
        gen_frag(b);
    } else if (k < 720) {               /* the empty reference */
    } else if (k < 740) {               /* . .. ./ ../ ../.. */
        sb_add(b, PICK(dots));
    } else if (k < 800) {               /* g?y#s */
        gen_seg(b);
        gen_query(b);
        gen_frag(b);
    } else if (k < 950) {               /* absolute */
        gen_absolute(b, 10);
    } else {                            /* g/./h/../i and the like */
        gen_seg(b);
        sb_add(b, rng_chance(50) ? "/./" : "/../");
        gen_seg(b);
        sb_add(b, rng_chance(50) ? "/../" : "/./");
        gen_seg(b);
        if (rng_chance(30))
            sb_add(b, "/..");
    }
}

static bool has_nonascii(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return true;
    return false;
}

/* Statistics of the generated data, for the report. */
static struct {
    size_t nonascii_pairs, idn_results, rootless_bases, absolute_refs;
    size_t base_bytes, ref_bytes, result_bytes, abase_bytes, aref_bytes;
} stats;

static void die(const char *what, size_t i, const char *detail)
{
    fprintf(stderr, "bench_iri: %s failed on pair %zu: %s\n", what, i,
            detail);
    exit(1);
}

static void map_to_uri(const char *s, size_t n, struct str *out, size_t i)
{
    char *o;
    size_t olen;
    struct xiri_error err;

    if (xiri_to_uri(NULL, s, n, XIRI_IDN_PERCENT, 0, &o, &olen, &err) !=
        XIRI_OK)
        die("xiri_to_uri", i, err.message);
    *out = arena_add(o, olen);
    xiri_str_free(o);
}

/* Generate the pairs, their ASCII forms and xiri's results, all outside
 * the timed region.  Every IRI must be valid: a pair xiri rejects means
 * the generator is wrong, and the run stops. */
static void generate(size_t n, uint64_t seed)
{
    size_t i;

    rng_state = seed;
    pairs = xmalloc(n * sizeof(*pairs));
    npairs = n;
    for (i = 0; i < n; i++) {
        struct sb b, r;
        struct pair *p = &pairs[i];
        struct xiri_error err;
        struct xiri *iri;
        char *o;
        size_t olen, hlen = 0;
        const char *host;

        b.len = r.len = 0;
        gen_absolute(&b, 3);
        gen_reference(&r);
        p->base = arena_add(b.buf, b.len);
        p->ref = arena_add(r.buf, r.len);
        if (xiri_resolve(b.buf, b.len, r.buf, r.len, XIRI_PROFILE_RFC3987,
                         &o, &olen, &err) != XIRI_OK) {
            fprintf(stderr, "base <%.*s> ref <%.*s>\n", (int)b.len, b.buf,
                    (int)r.len, r.buf);
            die("xiri_resolve", i, err.message);
        }
        p->result = arena_add(o, olen);
        xiri_str_free(o);
        map_to_uri(S(p->base), p->base.len, &p->abase, i);
        map_to_uri(S(p->ref), p->ref.len, &p->aref, i);

        if (has_nonascii(S(p->base), p->base.len) ||
            has_nonascii(S(p->ref), p->ref.len))
            stats.nonascii_pairs++;
        if (xiri_parse(S(p->result), p->result.len, XIRI_PROFILE_RFC3987,
                       &iri, &err) != XIRI_OK)
            die("xiri_parse of the result", i, err.message);
        host = xiri_part(iri, XIRI_PART_HOST, &hlen, NULL);
        if (host && has_nonascii(host, hlen))
            stats.idn_results++;
        xiri_free(iri);
        if (S(p->base)[strcspn(S(p->base), ":") + 1] != '/')
            stats.rootless_bases++;
        if (S(p->ref)[strcspn(S(p->ref), ":/?#")] == ':')
            stats.absolute_refs++; /* a scheme: RFC 3986 4.3 */
        stats.base_bytes += p->base.len;
        stats.ref_bytes += p->ref.len;
        stats.result_bytes += p->result.len;
        stats.abase_bytes += p->abase.len;
        stats.aref_bytes += p->aref.len;
    }
}

/* Write the pairs as TSV (base, reference, their ASCII forms, xiri's
 * result) so that they can be looked at or fed to "xiri iri resolve". */
static void dump(const char *path)
{
    FILE *f = fopen(path, "w");
    size_t i;

    if (!f) {
        perror(path);
        exit(2);
    }
    fprintf(f, "# base\treference\tbase (URI)\treference (URI)\t"
               "xiri_resolve result\n");
    for (i = 0; i < npairs; i++)
        fprintf(f, "%s\t%s\t%s\t%s\t%s\n", S(pairs[i].base), S(pairs[i].ref),
                S(pairs[i].abase), S(pairs[i].aref), S(pairs[i].result));
    if (fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

/* ------------------------------------------------------------------ */
/* The timed operations.  Each runs over pairs [from, to), returns a    */
/* checksum (so nothing is optimized away) and counts failures.         */

static struct xiri_ctx *ctx;

static size_t run_xiri_resolve(size_t from, size_t to, size_t *errors,
                               bool ascii)
{
    size_t i, sum = 0;
    enum xiri_profile prof = ascii ? XIRI_PROFILE_URI : XIRI_PROFILE_RFC3987;

    for (i = from; i < to; i++) {
        const struct pair *p = &pairs[i];
        struct str b = ascii ? p->abase : p->base;
        struct str r = ascii ? p->aref : p->ref;
        char *o;
        size_t olen;

        if (xiri_resolve(S(b), b.len, S(r), r.len, prof, &o, &olen, NULL) !=
            XIRI_OK) {
            (*errors)++;
            continue;
        }
        sum += olen;
        xiri_str_free(o);
    }
    return sum;
}

static size_t run_resolve_iri(size_t from, size_t to, size_t *errors)
{
    return run_xiri_resolve(from, to, errors, false);
}

static size_t run_resolve_ascii(size_t from, size_t to, size_t *errors)
{
    return run_xiri_resolve(from, to, errors, true);
}

static size_t run_to_uri(size_t from, size_t to, size_t *errors, bool puny)
{
    size_t i, sum = 0;

    for (i = from; i < to; i++) {
        const struct pair *p = &pairs[i];
        char *o;
        size_t olen;
        enum xiri_status st;

        if (puny)
            st = xiri_to_uri(ctx, S(p->result), p->result.len,
                             XIRI_IDN_PUNYCODE, XIRI_MAP_DNS_ONLY, &o, &olen,
                             NULL);
        else
            st = xiri_to_uri(NULL, S(p->result), p->result.len,
                             XIRI_IDN_PERCENT, 0, &o, &olen, NULL);
        if (st != XIRI_OK) {
            (*errors)++;
            continue;
        }
        sum += olen;
        xiri_str_free(o);
    }
    return sum;
}

static size_t run_to_uri_pct(size_t from, size_t to, size_t *errors)
{
    return run_to_uri(from, to, errors, false);
}

static size_t run_to_uri_puny(size_t from, size_t to, size_t *errors)
{
    return run_to_uri(from, to, errors, true);
}

static size_t run_xiri_parse(size_t from, size_t to, size_t *errors)
{
    size_t i, sum = 0;

    for (i = from; i < to; i++) {
        const struct pair *p = &pairs[i];
        struct xiri *b, *r;

        if (xiri_parse(S(p->abase), p->abase.len, XIRI_PROFILE_URI, &b,
                       NULL) != XIRI_OK) {
            (*errors)++;
            continue;
        }
        if (xiri_parse(S(p->aref), p->aref.len, XIRI_PROFILE_URI, &r,
                       NULL) != XIRI_OK) {
            (*errors)++;
            xiri_free(b);
            continue;
        }
        sum += (size_t)xiri_is_absolute(b) + (size_t)xiri_is_absolute(r);
        xiri_free(r);
        xiri_free(b);
    }
    return sum;
}

#ifdef BENCH_HAVE_URIPARSER
/* uriparser doing the same work as xiri_resolve: parse both (with their
 * lengths, as xiri gets them), resolve strictly, serialize into a new
 * buffer the caller frees, and free everything. */
static char *uri_resolve(const char *b, size_t blen, const char *r,
                         size_t rlen, size_t *olen)
{
    UriUriA ub, ur, ut;
    const char *errpos;
    char *o = NULL;
    int chars = 0;

    if (uriParseSingleUriExA(&ub, b, b + blen, &errpos) != URI_SUCCESS)
        return NULL;
    if (uriParseSingleUriExA(&ur, r, r + rlen, &errpos) != URI_SUCCESS) {
        uriFreeUriMembersA(&ub);
        return NULL;
    }
    if (uriAddBaseUriExA(&ut, &ur, &ub, URI_RESOLVE_STRICTLY) ==
        URI_SUCCESS) {
        if (uriToStringCharsRequiredA(&ut, &chars) == URI_SUCCESS) {
            o = malloc((size_t)chars + 1);
            if (o && uriToStringA(o, &ut, chars + 1, NULL) != URI_SUCCESS) {
                free(o);
                o = NULL;
            }
        }
        uriFreeUriMembersA(&ut);
    }
    uriFreeUriMembersA(&ur);
    uriFreeUriMembersA(&ub);
    if (o)
        *olen = (size_t)chars;
    return o;
}

static size_t run_uriparser_resolve(size_t from, size_t to, size_t *errors)
{
    size_t i, sum = 0;

    for (i = from; i < to; i++) {
        const struct pair *p = &pairs[i];
        size_t olen;
        char *o = uri_resolve(S(p->abase), p->abase.len, S(p->aref),
                              p->aref.len, &olen);

        if (!o) {
            (*errors)++;
            continue;
        }
        sum += olen;
        free(o);
    }
    return sum;
}

static size_t run_uriparser_parse(size_t from, size_t to, size_t *errors)
{
    size_t i, sum = 0;

    for (i = from; i < to; i++) {
        const struct pair *p = &pairs[i];
        UriUriA ub, ur;
        const char *errpos;

        if (uriParseSingleUriExA(&ub, S(p->abase), S(p->abase) + p->abase.len,
                                 &errpos) != URI_SUCCESS) {
            (*errors)++;
            continue;
        }
        if (uriParseSingleUriExA(&ur, S(p->aref), S(p->aref) + p->aref.len,
                                 &errpos) != URI_SUCCESS) {
            (*errors)++;
            uriFreeUriMembersA(&ub);
            continue;
        }
        sum += (size_t)(ub.scheme.first != NULL) +
               (size_t)(ur.scheme.first != NULL);
        uriFreeUriMembersA(&ur);
        uriFreeUriMembersA(&ub);
    }
    return sum;
}

/* The known difference: for a base with a rootless path (RFC 3986 3.3
 * path-rootless, e.g. "urn:example:a") and a reference whose dot segments
 * climb out of it, RFC 3986 5.2.4 step 2C leaves a "/" ("foo:a/b" +
 * "../c" = "foo:/c"); uriparser drops it ("foo:c").  See
 * shared/conformance/SOURCES.md section 2.2.  True when ours, with the
 * "/" after the scheme removed, is uriparser's answer. */
static bool known_rootless(const char *base, const char *ours,
                           const char *theirs)
{
    const char *colon = strchr(ours, ':'), *bcolon = strchr(base, ':');
    size_t k;

    if (!bcolon || bcolon[1] == '/' || !colon || colon[1] != '/' ||
        colon[2] == '/')
        return false;
    k = (size_t)(colon - ours) + 1;
    return strncmp(ours, theirs, k) == 0 && strcmp(colon + 2, theirs + k) == 0;
}

/* The other known difference: uriparser keeps an IPv6 literal as 16
 * bytes and writes it back in full ("[2001:db8::7]" becomes
 * "[2001:0db8:0000:0000:0000:0000:0000:0007]"), where RFC 3986 5.3
 * recomposes the authority as it was written.  True when the two strings
 * differ only in the spelling of one and the same IPv6 address. */
static bool known_ipv6(const char *ours, const char *theirs)
{
    const char *ob = strchr(ours, '['), *tb = strchr(theirs, '[');
    const char *oe, *te;
    char o6[64], t6[64];
    unsigned char ob6[16], tb6[16];

    if (!ob || !tb || ob - ours != tb - theirs ||
        strncmp(ours, theirs, (size_t)(ob - ours)) != 0)
        return false;
    oe = strchr(ob, ']');
    te = strchr(tb, ']');
    if (!oe || !te || (size_t)(oe - ob) >= sizeof(o6) ||
        (size_t)(te - tb) >= sizeof(t6) || strcmp(oe, te) != 0)
        return false;
    memcpy(o6, ob + 1, (size_t)(oe - ob - 1));
    o6[oe - ob - 1] = '\0';
    memcpy(t6, tb + 1, (size_t)(te - tb - 1));
    t6[te - tb - 1] = '\0';
    return inet_pton(AF_INET6, o6, ob6) == 1 &&
           inet_pton(AF_INET6, t6, tb6) == 1 && memcmp(ob6, tb6, 16) == 0;
}

/* Compare xiri and uriparser on every ASCII pair. */
static void check_against_uriparser(size_t *same, size_t *known,
                                    size_t *known_v6, size_t *unexplained,
                                    size_t *failed)
{
    size_t i, shown = 0;

    for (i = 0; i < npairs; i++) {
        const struct pair *p = &pairs[i];
        char *ours, *theirs;
        size_t olen, tlen;
        struct xiri_error err;

        if (xiri_resolve(S(p->abase), p->abase.len, S(p->aref), p->aref.len,
                         XIRI_PROFILE_URI, &ours, &olen, &err) != XIRI_OK)
            die("xiri_resolve (URI form)", i, err.message);
        theirs = uri_resolve(S(p->abase), p->abase.len, S(p->aref),
                             p->aref.len, &tlen);
        if (!theirs) {
            if (++*failed <= 5)
                printf("  uriparser failed: <%s> + <%s>\n", S(p->abase),
                       S(p->aref));
        } else if (olen == tlen && memcmp(ours, theirs, olen) == 0) {
            (*same)++;
        } else if (known_ipv6(ours, theirs)) {
            if (++*known_v6 <= 1)
                printf("  known difference (IPv6 literal written in full): "
                       "<%s> + <%s>: xiri <%s>, uriparser <%s>\n",
                       S(p->abase), S(p->aref), ours, theirs);
        } else if (known_rootless(S(p->abase), ours, theirs)) {
            if (++*known <= 2)
                printf("  known difference (rootless base, RFC 3986 5.2.4 "
                       "2C): <%s> + <%s>: xiri <%s>, uriparser <%s>\n",
                       S(p->abase), S(p->aref), ours, theirs);
        } else {
            (*unexplained)++;
            if (shown++ < 10)
                printf("  MISMATCH: <%s> + <%s>: xiri <%s>, uriparser "
                       "<%s>\n",
                       S(p->abase), S(p->aref), ours, theirs);
        }
        xiri_str_free(ours);
        free(theirs);
    }
}
#endif

/* The IRI and URI paths must agree: to_uri(resolve(b, r)) ==
 * resolve(to_uri(b), to_uri(r)), since the mapping only touches
 * characters the resolution never looks at (RFC 3987 6.5). */
static size_t check_iri_vs_uri(void)
{
    size_t i, bad = 0;

    for (i = 0; i < npairs; i++) {
        const struct pair *p = &pairs[i];
        char *a, *b;
        size_t alen, blen;
        struct xiri_error err;

        if (xiri_to_uri(NULL, S(p->result), p->result.len, XIRI_IDN_PERCENT,
                        0, &a, &alen, &err) != XIRI_OK)
            die("xiri_to_uri of the result", i, err.message);
        if (xiri_resolve(S(p->abase), p->abase.len, S(p->aref), p->aref.len,
                         XIRI_PROFILE_URI, &b, &blen, &err) != XIRI_OK)
            die("xiri_resolve (URI form)", i, err.message);
        if (alen != blen || memcmp(a, b, alen) != 0) {
            if (bad++ < 5)
                printf("  IRI/URI MISMATCH: <%s> + <%s>: to_uri(resolve) "
                       "<%s>, resolve(to_uri) <%s>\n",
                       S(p->base), S(p->ref), a, b);
        }
        xiri_str_free(a);
        xiri_str_free(b);
    }
    return bad;
}

/* Every result must map with IDNA ToASCII: the hosts are chosen valid. */
static size_t check_punycode(void)
{
    size_t i, bad = 0;

    for (i = 0; i < npairs; i++) {
        const struct pair *p = &pairs[i];
        char *o;
        struct xiri_error err;

        if (xiri_to_uri(ctx, S(p->result), p->result.len, XIRI_IDN_PUNYCODE,
                        XIRI_MAP_DNS_ONLY, &o, NULL, &err) != XIRI_OK) {
            if (bad++ < 5)
                printf("  to-uri punycode failed: <%s>: %s\n", S(p->result),
                       err.message);
            continue;
        }
        xiri_str_free(o);
    }
    return bad;
}

/* ------------------------------------------------------------------ */
/* Timing                                                               */

typedef size_t bench_fn(size_t from, size_t to, size_t *errors);

struct bench {
    const char *key;    /* for -k */
    const char *op;     /* what is measured */
    const char *impl;
    bench_fn *fn;
    double *ns;         /* ns per operation, one per repetition */
    size_t errors;      /* over all repetitions */
    bool on;
};

static struct bench benches[] = {
    {"iri", "resolve+serialize, IRI pairs (rfc3987)", "xiri",
     run_resolve_iri, NULL, 0, true},
    {"ascii", "resolve+serialize, ASCII pairs (uri)", "xiri",
     run_resolve_ascii, NULL, 0, true},
#ifdef BENCH_HAVE_URIPARSER
    {"uriparser", "resolve+serialize, ASCII pairs (strict)", "uriparser",
     run_uriparser_resolve, NULL, 0, true},
#endif
    {"touri", "to-uri %HH (IDN_PERCENT), results", "xiri",
     run_to_uri_pct, NULL, 0, true},
    {"puny", "to-uri punycode (DNS_ONLY, ctx), results", "xiri",
     run_to_uri_puny, NULL, 0, true},
    {"parse", "parse base+ref, ASCII (reference)", "xiri", run_xiri_parse,
     NULL, 0, true},
#ifdef BENCH_HAVE_URIPARSER
    {"uparse", "parse base+ref, ASCII (reference)", "uriparser",
     run_uriparser_parse, NULL, 0, true},
#endif
};

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double median(const double *v, unsigned n)
{
    double *c = xmalloc(n * sizeof(*c)), m;

    memcpy(c, v, n * sizeof(*c));
    qsort(c, n, sizeof(*c), cmp_double);
    m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return m;
}

static double minimum(const double *v, unsigned n)
{
    double m = v[0];
    unsigned i;

    for (i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

static struct bench *find_bench(const char *key)
{
    size_t i;

    for (i = 0; i < ARRAY_LEN(benches); i++)
        if (strcmp(benches[i].key, key) == 0)
            return &benches[i];
    return NULL;
}

static void usage(FILE *f)
{
    size_t i;

    fprintf(f,
            "usage: bench_iri [-n PAIRS] [-r REPS] [-s SEED] [-k KEYS] "
            "[-d FILE]\n"
            "  -n PAIRS  pairs to generate (default 1000000)\n"
            "  -r REPS   timed repetitions of each operation (default 5)\n"
            "  -s SEED   generator seed (default 20240601)\n"
            "  -k KEYS   comma-separated operations to time (default all):");
    for (i = 0; i < ARRAY_LEN(benches); i++)
        fprintf(f, " %s", benches[i].key);
    fprintf(f, "\n  -d FILE   also write the pairs as TSV to FILE\n");
}

static void select_benches(char *keys)
{
    char *k;
    size_t i;

    for (i = 0; i < ARRAY_LEN(benches); i++)
        benches[i].on = false;
    for (k = strtok(keys, ","); k; k = strtok(NULL, ",")) {
        struct bench *b = find_bench(k);
        if (!b) {
            fprintf(stderr, "bench_iri: unknown operation '%s'\n", k);
            usage(stderr);
            exit(2);
        }
        b->on = true;
    }
}

static double pct(size_t part, size_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

int main(int argc, char **argv)
{
    size_t n = 1000000, i, bad;
    unsigned reps = 5, r;
    uint64_t seed = 20240601;
    const char *dump_path = NULL;
    double t0;
    volatile size_t sink = 0;
    struct bench *ref_uri, *ref_iri, *ref_ascii;
    int a;

    for (a = 1; a < argc; a += 2) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (!v || argv[a][0] != '-' || argv[a][2] != '\0') {
            usage(stderr);
            return 2;
        }
        switch (argv[a][1]) {
        case 'n': n = strtoul(v, NULL, 10); break;
        case 'r': reps = (unsigned)strtoul(v, NULL, 10); break;
        case 's': seed = strtoull(v, NULL, 0); break;
        case 'k': select_benches(argv[a + 1]); break;
        case 'd': dump_path = v; break;
        default: usage(stderr); return 2;
        }
    }
    if (n == 0 || reps == 0) {
        usage(stderr);
        return 2;
    }

    printf("xiri %s engine benchmark: %zu pairs, seed %llu, %u repetitions"
           "\n", xiri_version(), n, (unsigned long long)seed, reps);
#ifndef BENCH_HAVE_URIPARSER
    printf("uriparser: NOT AVAILABLE (configure did not find liburiparser; "
           "install liburiparser-dev and re-run configure); timing xiri "
           "alone\n");
#else
    printf("uriparser: %s\n", URI_VER_ANSI);
#endif
    t0 = now_ns();
    generate(n, seed);
    printf("generated in %.1f s: %.1f%% of pairs hold non-ASCII, %.1f%% of "
           "results have an IDN host,\n  %.1f%% absolute references, "
           "%.1f%% rootless bases; mean bytes: base %.1f, ref %.1f, result "
           "%.1f\n  (URI forms: base %.1f, ref %.1f)\n",
           (now_ns() - t0) / 1e9, pct(stats.nonascii_pairs, n),
           pct(stats.idn_results, n), pct(stats.absolute_refs, n),
           pct(stats.rootless_bases, n), (double)stats.base_bytes / (double)n,
           (double)stats.ref_bytes / (double)n,
           (double)stats.result_bytes / (double)n,
           (double)stats.abase_bytes / (double)n,
           (double)stats.aref_bytes / (double)n);
    if (dump_path)
        dump(dump_path);

    /* Sanity: the two implementations must do the same work. */
    bad = check_iri_vs_uri();
    printf("check: to_uri(resolve(b, r)) == resolve(to_uri(b), to_uri(r)) "
           "on %zu of %zu pairs\n", n - bad, n);
#ifdef BENCH_HAVE_URIPARSER
    {
        size_t same = 0, known = 0, known_v6 = 0, unexplained = 0;
        size_t failed = 0;
        check_against_uriparser(&same, &known, &known_v6, &unexplained,
                                &failed);
        printf("check: xiri == uriparser on %zu of %zu ASCII pairs; known "
               "differences: %zu rootless\n  base, %zu IPv6 spelling; %zu "
               "unexplained, %zu uriparser failures\n",
               same, n, known, known_v6, unexplained, failed);
        bad += unexplained + failed;
    }
#endif
    if (xiri_ctx_new(&ctx) != XIRI_OK) {
        fprintf(stderr, "bench_iri: xiri_ctx_new failed\n");
        return 1;
    }
    i = check_punycode();
    printf("check: to-uri punycode succeeds on %zu of %zu results\n", n - i,
           n);
    bad += i;
    if (bad)
        printf("WARNING: the implementations disagree; the timings below "
               "compare different work\n");

    /* Warm up (ICU data, caches, the allocator) outside the timing. */
    for (i = 0; i < ARRAY_LEN(benches); i++) {
        size_t e = 0;
        benches[i].ns = xmalloc(reps * sizeof(double));
        if (benches[i].on)
            sink += benches[i].fn(0, n < 20000 ? n : 20000, &e);
    }
    /* Repetitions go round-robin over the operations so that a slow
     * phase of the machine hits all of them alike. */
    for (r = 0; r < reps; r++) {
        for (i = 0; i < ARRAY_LEN(benches); i++) {
            struct bench *b = &benches[i];
            double t;
            if (!b->on)
                continue;
            t = now_ns();
            sink += b->fn(0, n, &b->errors);
            b->ns[r] = (now_ns() - t) / (double)n;
        }
    }

    ref_uri = find_bench("uriparser");
    ref_iri = find_bench("iri");
    ref_ascii = find_bench("ascii");
    printf("\n%-42s %-10s %9s %9s %11s\n", "operation (ns per op)", "impl",
           "median", "min", ref_uri && ref_uri->on ? "uriparser/" : "");
    if (ref_uri && ref_uri->on)
        printf("%-42s %-10s %9s %9s %11s\n", "", "", "", "", "xiri (med)");
    for (i = 0; i < ARRAY_LEN(benches); i++) {
        struct bench *b = &benches[i];
        double med;
        if (!b->on)
            continue;
        med = median(b->ns, reps);
        printf("%-42s %-10s %9.1f %9.1f", b->op, b->impl, med,
               minimum(b->ns, reps));
        if (ref_uri && ref_uri->on && (b == ref_iri || b == ref_ascii) &&
            b->on)
            printf(" %10.2fx", median(ref_uri->ns, reps) / med);
        if (b->errors)
            printf("  (%zu failures)", b->errors / reps);
        printf("\n");
    }
    printf("(checksum %zu)\n", (size_t)sink);
    xiri_ctx_free(ctx);
    for (i = 0; i < ARRAY_LEN(benches); i++)
        free(benches[i].ns);
    free(pairs);
    free(arena.data);
    return bad ? 1 : 0;
}

/* test_props.c - property tests over generated references (a seeded PRNG,
 * so every run sees the same inputs): to_uri is idempotent and gives RFC
 * 3986 URIs, to_uri(to_iri(u)) is equivalent to u, to_iri gives IRIs,
 * resolving an absolute reference without dot segments gives it back, and
 * resolution results are stable.  Equivalence is decided by a test-local
 * oracle that shares no code with the library. */
#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xiri.h"

#include "helpers.h"
#include "suites.h"

#define ROUNDS 3000
#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static struct xiri_ctx *ctx;

static int props_init(void)
{
    return xiri_ctx_new(&ctx) == XIRI_OK ? 0 : -1;
}

static int props_cleanup(void)
{
    xiri_ctx_free(ctx);
    ctx = NULL;
    return 0;
}

/* ---------------------------------------------------------------- PRNG */

static uint64_t rng;

/* splitmix64 (Steele, Lea, Flood 2014) */
static uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned pick(unsigned n)
{
    return (unsigned)(rnd() % n);
}

static int chance(unsigned percent)
{
    return pick(100) < percent;
}

/* ---------------------------------------------------------------- text */

struct sb {
    char d[4096];
    size_t n;
};

static void sb_putc(struct sb *b, char c)
{
    if (b->n + 1 < sizeof(b->d))
        b->d[b->n++] = c;
    b->d[b->n] = '\0';
}

static void sb_puts(struct sb *b, const char *s)
{
    while (*s)
        sb_putc(b, *s++);
}

static void sb_hex(struct sb *b, unsigned char octet, int lower)
{
    const char *digits = lower ? "0123456789abcdef" : "0123456789ABCDEF";

    sb_putc(b, '%');
    sb_putc(b, digits[octet >> 4]);
    sb_putc(b, digits[octet & 15]);
}

/* UTF-8 written by hand here, independent of the library. */
static size_t enc(uint32_t cp, unsigned char o[4])
{
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

static void sb_cp(struct sb *b, uint32_t cp)
{
    unsigned char o[4];
    size_t i, n = enc(cp, o);

    for (i = 0; i < n; i++)
        sb_putc(b, (char)o[i]);
}

static void sb_cp_pct(struct sb *b, uint32_t cp, int lower)
{
    unsigned char o[4];
    size_t i, n = enc(cp, o);

    for (i = 0; i < n; i++)
        sb_hex(b, o[i], lower);
}

/* ---------------------------------------------------------------- pools */

struct range {
    uint32_t lo, hi;
};

/* ucschar samples (RFC 3987 2.2) from several scripts and planes */
static const struct range ucs_pool[] = {
    {0xA0, 0xFF},       {0x100, 0x17F},     {0x370, 0x3FF},
    {0x400, 0x4FF},     {0x5D0, 0x5EA},     {0x620, 0x64A},
    {0x900, 0x97F},     {0x3041, 0x3096},   {0x4E00, 0x9FFF},
    {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFF01, 0xFF5E},
    {0x10000, 0x1007F}, {0x1F300, 0x1F64F}, {0x20000, 0x2A6DF},
    {0xE1000, 0xE10FF}, {0x200C, 0x200F},   {0x202A, 0x202E},
};

/* iprivate (RFC 3987 2.2) */
static const struct range priv_pool[] = {
    {0xE000, 0xF8FF},
    {0xF0000, 0xF00FF},
    {0x10FF00, 0x10FFFD},
};

/* code points that are neither ucschar nor iprivate but are UTF-8 */
static const struct range other_pool[] = {
    {0x80, 0x9F},       {0xFDD0, 0xFDEF},   {0xFFF0, 0xFFFF},
    {0x1FFFE, 0x1FFFF}, {0xE0000, 0xE007F}, {0x10FFFE, 0x10FFFF},
};

static uint32_t from(const struct range *r, size_t n)
{
    const struct range *x = &r[pick((unsigned)n)];

    return x->lo + pick(x->hi - x->lo + 1);
}

static const char alnum[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
static const char subdelims[] = "!$&'()*+,;=";

/* A percent-escape of anything: ASCII, UTF-8 of all kinds, garbage. */
static void gen_escape(struct sb *b)
{
    int lower = chance(30);
    unsigned k = pick(12);

    switch (k) {
    case 0:
    case 1:
        sb_hex(b, (unsigned char)pick(0x80), lower); /* any ASCII */
        break;
    case 2:
    case 3:
        sb_cp_pct(b, from(ucs_pool, LEN(ucs_pool)), lower);
        break;
    case 4:
        sb_cp_pct(b, from(priv_pool, LEN(priv_pool)), lower);
        break;
    case 5:
        sb_cp_pct(b, from(other_pool, LEN(other_pool)), lower);
        break;
    case 6:
        sb_hex(b, (unsigned char)(0x80 + pick(0x80)), lower); /* lone */
        break;
    case 7: /* overlong forms */
        if (chance(50)) {
            sb_hex(b, (unsigned char)(0xC0 + pick(2)), lower);
            sb_hex(b, (unsigned char)(0x80 + pick(0x40)), lower);
        } else {
            sb_hex(b, 0xE0, lower);
            sb_hex(b, (unsigned char)(0x80 + pick(0x20)), lower);
            sb_hex(b, (unsigned char)(0x80 + pick(0x40)), lower);
        }
        break;
    case 8: /* surrogates */
        sb_hex(b, 0xED, lower);
        sb_hex(b, (unsigned char)(0xA0 + pick(0x20)), lower);
        sb_hex(b, (unsigned char)(0x80 + pick(0x40)), lower);
        break;
    case 9: /* above U+10FFFF */
        sb_hex(b, (unsigned char)(0xF4 + pick(4)), lower);
        sb_hex(b, (unsigned char)(0x90 + pick(0x30)), lower);
        sb_hex(b, 0x80, lower);
        sb_hex(b, 0x80, lower);
        break;
    case 10: /* truncated: a lead byte and fewer continuations */
        sb_hex(b, (unsigned char)(0xE0 + pick(0x10)), lower);
        if (chance(50))
            sb_hex(b, (unsigned char)(0xA0 + pick(0x20)), lower);
        break;
    default:
        sb_puts(b, chance(50) ? "%25" : "%2E");
        break;
    }
}

enum comp { C_USER, C_REG, C_SEG, C_QUERY, C_FRAG };

struct gen {
    int iri;   /* raw non-ASCII allowed */
    int leiri; /* LEIRI-only characters allowed */
};

/* One character (or escape) of a component. */
static void gen_char(struct sb *b, enum comp c, const struct gen *g,
                     int no_colon)
{
    unsigned k = pick(100);

    if (k < 45) {
        sb_putc(b, alnum[pick(sizeof(alnum) - 1)]);
    } else if (k < 52) {
        sb_putc(b, "-._~"[pick(4)]);
    } else if (k < 60) {
        sb_putc(b, subdelims[pick(sizeof(subdelims) - 1)]);
    } else if (k < 65) {
        if (c == C_REG)
            sb_putc(b, 'x');
        else if (c == C_USER || no_colon)
            sb_putc(b, c == C_USER ? ':' : '@');
        else if (c == C_QUERY || c == C_FRAG)
            sb_putc(b, ":@/?"[pick(4)]);
        else
            sb_putc(b, ":@"[pick(2)]);
    } else if (k < 80) {
        gen_escape(b);
    } else if (k < 95 && g->iri) {
        if (c == C_QUERY && chance(20))
            sb_cp(b, from(priv_pool, LEN(priv_pool)));
        else
            sb_cp(b, from(ucs_pool, LEN(ucs_pool)));
    } else if (g->leiri) {
        static const char extra[] = " <>\"{}|\\^`\t\x01\x7f";
        switch (pick(4)) {
        case 0:
            sb_cp(b, 0x85); /* C1 control */
            break;
        case 1:
            sb_cp(b, from(priv_pool, LEN(priv_pool))); /* anywhere */
            break;
        default:
            sb_putc(b, extra[pick(sizeof(extra) - 1)]);
            break;
        }
    } else {
        sb_putc(b, alnum[pick(sizeof(alnum) - 1)]);
    }
}

static void gen_run(struct sb *b, enum comp c, const struct gen *g,
                    unsigned max, int no_colon)
{
    unsigned i, n = pick(max + 1);

    for (i = 0; i < n; i++)
        gen_char(b, c, g, no_colon);
}

/* A segment that is never "." or ".." (with nz: never empty). */
static void gen_segment(struct sb *b, const struct gen *g, int nz, int no_colon,
                        int allow_dots)
{
    for (;;) {
        size_t start = b->n;
        const char *s;

        if (allow_dots && chance(15)) {
            sb_puts(b, chance(50) ? "." : "..");
            return;
        }
        gen_run(b, C_SEG, g, 6, no_colon);
        if (nz && b->n == start)
            sb_putc(b, alnum[pick(26)]);
        s = b->d + start;
        if (strcmp(s, ".") != 0 && strcmp(s, "..") != 0)
            return;
        b->n = start; /* try again */
        b->d[b->n] = '\0';
    }
}

static const char *const schemes[] = {
    "http", "https", "HTTP",   "ftp", "ws",      "wss",
    "file", "urn",   "mailto", "foo", "x-y.z+w", "a1",
};

/* Labels and their ToASCII forms (checked with Python's RFC 3492
 * punycode codec). */
static const char *const idn_labels[][2] = {
    {"\xd0\xbf\xd1\x80\xd0\xb8\xd0\xbc\xd0\xb5\xd1\x80", "xn--e1afmkfd"},
    {"b\xc3\xbc\x63her", "xn--bcher-kva"},
    {"\xe7\xb4\x8d\xe8\xb1\x86", "xn--99zt52a"},
    {"\xc3\xa9", "xn--9ca"},
    {"m\xc3\xbcnchen", "xn--mnchen-3ya"},
    {"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "xn--wgv71a119e"},
    {"\xed\x95\x9c\xea\xb5\xad", "xn--3e0b707e"},
    {"\xd9\x85\xd8\xab\xd8\xa7\xd9\x84", "xn--mgbh0fb"},
};

static void gen_ascii_label(struct sb *b)
{
    unsigned i, n = 1 + pick(8);

    static const char ldh[] = "abcdefghijklmnopqrstuvwxyz0123456789";

    sb_putc(b, ldh[pick(26)]); /* a letter first (RFC 5893 B1) */
    for (i = 1; i < n; i++)
        sb_putc(b, i + 1 < n && chance(10) ? '-' : ldh[pick(36)]);
}

/* A host: reg-name (ASCII, ACE, raw IDN, escaped), IPv4, IP literal. */
static void gen_host(struct sb *b, const struct gen *g, int ace_only)
{
    unsigned k = ace_only ? 0 : pick(10), i, n;

    switch (k) {
    case 0:
    case 1:
    case 2:
    case 3:
        n = 1 + pick(3);
        for (i = 0; i < n; i++) {
            if (i)
                sb_putc(b, '.');
            if (chance(35))
                sb_puts(b, idn_labels[pick(LEN(idn_labels))]
                                     [g->iri && !ace_only ? 0 : 1]);
            else
                gen_ascii_label(b);
        }
        break;
    case 4:
        for (i = 0; i < 4; i++) {
            char num[8];
            snprintf(num, sizeof(num), "%s%u", i ? "." : "", pick(256));
            sb_puts(b, num);
        }
        break;
    case 5:
        sb_puts(b,
                (const char *[]){
                    "[::1]", "[2001:db8::7]", "[v1.x:y]", "[::ffff:192.0.2.1]",
                    "[FEDC:BA98:7654:3210:FEDC:BA98:7654:3210]"}[pick(5)]);
        break;
    case 6:
        break; /* empty */
    default:
        gen_run(b, C_REG, g, 8, 0);
        break;
    }
}

/* An absolute reference (scheme ":" hier-part [?query] [#fragment]).
 * allow_dots lets "." and ".." segments in. */
static void gen_absolute(struct sb *b, const struct gen *g, int allow_dots,
                         int fragment)
{
    unsigned i, n;

    b->n = 0;
    b->d[0] = '\0';
    sb_puts(b, schemes[pick(LEN(schemes))]);
    sb_putc(b, ':');
    if (chance(65)) {
        sb_puts(b, "//");
        if (chance(20)) {
            gen_run(b, C_USER, g, 5, 0);
            sb_putc(b, '@');
        }
        gen_host(b, g, 0);
        if (chance(20)) {
            char port[8];
            snprintf(port, sizeof(port), ":%u", chance(20) ? 0 : pick(65536));
            sb_puts(b, chance(10) ? ":" : port);
        }
        n = pick(5); /* path-abempty */
        for (i = 0; i < n; i++) {
            sb_putc(b, '/');
            gen_segment(b, g, 0, 0, allow_dots);
        }
    } else if (chance(50)) {
        sb_putc(b, '/'); /* path-absolute: no "//" at the start */
        if (chance(80)) {
            gen_segment(b, g, 1, 0, allow_dots);
            n = pick(4);
            for (i = 0; i < n; i++) {
                sb_putc(b, '/');
                gen_segment(b, g, 0, 0, allow_dots);
            }
        }
    } else if (chance(85)) {
        gen_segment(b, g, 1, 0, allow_dots); /* path-rootless */
        n = pick(4);
        for (i = 0; i < n; i++) {
            sb_putc(b, '/');
            gen_segment(b, g, 0, 0, allow_dots);
        }
    }
    if (chance(40)) {
        sb_putc(b, '?');
        gen_run(b, C_QUERY, g, 10, 0);
    }
    if (fragment && chance(30)) {
        sb_putc(b, '#');
        gen_run(b, C_FRAG, g, 8, 0);
    }
}

/* A relative reference with dot segments (RFC 3986 4.2). */
static void gen_relative(struct sb *b, const struct gen *g)
{
    unsigned i, n, k = pick(5);

    b->n = 0;
    b->d[0] = '\0';
    switch (k) {
    case 0: /* network-path */
        sb_puts(b, "//");
        gen_host(b, g, 0);
        /* fall through */
    case 1: /* absolute-path; after "//" host, path-abempty */
        n = pick(4);
        for (i = 0; i < n; i++) {
            sb_putc(b, '/');
            /* "/" segment-nz first: "//" would start an authority */
            gen_segment(b, g, k == 1 && i == 0, 0, 1);
        }
        if (k == 1 && n == 0)
            sb_putc(b, '/');
        break;
    case 2: /* relative-path, no ':' in the first segment */
    case 3:
        gen_segment(b, g, 1, 1, 1);
        n = pick(4);
        for (i = 0; i < n; i++) {
            sb_putc(b, '/');
            gen_segment(b, g, 0, 0, 1);
        }
        break;
    default:
        break; /* empty path */
    }
    if (chance(30)) {
        sb_putc(b, '?');
        gen_run(b, C_QUERY, g, 6, 0);
    }
    if (chance(30)) {
        sb_putc(b, '#');
        gen_run(b, C_FRAG, g, 6, 0);
    }
}

/* ---------------------------------------------------------------- oracle */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Equivalence of URIs for the round trip (RFC 3986 6.2.2.1 and 6.2.2.2):
 * upper-case the hex of every escape, decode the escapes of unreserved
 * ASCII except '.', compare. */
static void oracle(const char *s, struct sb *out)
{
    out->n = 0;
    out->d[0] = '\0';
    while (*s) {
        int h, l;
        if (s[0] == '%' && (h = hexval(s[1])) >= 0 && (l = hexval(s[2])) >= 0) {
            int v = h * 16 + l;
            int unreserved = (v >= 'A' && v <= 'Z') || (v >= 'a' && v <= 'z') ||
                             (v >= '0' && v <= '9') || v == '-' || v == '_' ||
                             v == '~';
            if (unreserved)
                sb_putc(out, (char)v);
            else
                sb_hex(out, (unsigned char)v, 0);
            s += 3;
        } else {
            sb_putc(out, *s++);
        }
    }
}

static void test_oracle(void)
{
    struct sb o;

    oracle("a%2e%2E%41%7e%7E%2f%c3%A9%25%5F", &o);
    TEST_STR_EQ("oracle", o.d, "a%2E%2EA~~%2F%C3%A9%25_");
    oracle("%G1%4", &o);
    TEST_STR_EQ("oracle bad", o.d, "%G1%4");
}

/* ---------------------------------------------------------------- props */

static int is_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return 0;
    return 1;
}

/* Every generated reference is one: checks the generators (and the
 * parser on a wide input space); parts recompose to the text. */
static void test_generated_valid(void)
{
    struct sb b, r;
    struct gen uri = {0, 0}, iri = {1, 0}, leiri = {1, 1};
    int i, bad = 0;

    rng = 1;
    for (i = 0; i < ROUNDS; i++) {
        struct xiri *x = NULL;
        const char *p;
        size_t len;

        gen_absolute(&b, &uri, 1, 1);
        if (!xiri_is_valid(b.d, b.n, XIRI_PROFILE_URI) && bad++ < 5)
            TEST_FAIL("generated URI %s is not valid", b.d);
        gen_absolute(&b, &iri, 1, 1);
        if (xiri_parse(b.d, b.n, XIRI_PROFILE_RFC3987, &x, NULL) != XIRI_OK) {
            if (bad++ < 5)
                TEST_FAIL("generated IRI %s is not valid", b.d);
            continue;
        }
        /* RFC 3986 5.3 recomposition of the parts is the text */
        r.n = 0;
        r.d[0] = '\0';
        if ((p = xiri_part(x, XIRI_PART_SCHEME, &len, NULL)) != NULL)
            r.n += (size_t)snprintf(r.d + r.n, sizeof(r.d) - r.n,
                                    "%.*s:", (int)len, p);
        if ((p = xiri_part(x, XIRI_PART_AUTHORITY, &len, NULL)) != NULL)
            r.n += (size_t)snprintf(r.d + r.n, sizeof(r.d) - r.n, "//%.*s",
                                    (int)len, p);
        p = xiri_part(x, XIRI_PART_PATH, &len, NULL);
        r.n += (size_t)snprintf(r.d + r.n, sizeof(r.d) - r.n, "%.*s", (int)len,
                                p ? p : "");
        if ((p = xiri_part(x, XIRI_PART_QUERY, &len, NULL)) != NULL)
            r.n += (size_t)snprintf(r.d + r.n, sizeof(r.d) - r.n, "?%.*s",
                                    (int)len, p);
        if ((p = xiri_part(x, XIRI_PART_FRAGMENT, &len, NULL)) != NULL)
            r.n += (size_t)snprintf(r.d + r.n, sizeof(r.d) - r.n, "#%.*s",
                                    (int)len, p);
        if (strcmp(r.d, b.d) != 0 && bad++ < 5)
            TEST_FAIL("parts of %s recompose to %s", b.d, r.d);
        xiri_free(x);
        gen_relative(&b, &iri);
        if (!xiri_is_valid(b.d, b.n, XIRI_PROFILE_RFC3987) && bad++ < 5)
            TEST_FAIL("generated relative %s is not valid", b.d);
        gen_absolute(&b, &leiri, 1, 1);
        if (!xiri_is_valid(b.d, b.n, XIRI_PROFILE_LEIRI) && bad++ < 5)
            TEST_FAIL("generated LEIRI %s is not valid", b.d);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* to_uri is idempotent and its output is an RFC 3986 URI; on URIs it is
 * the identity (RFC 3987 3.1). */
static void test_to_uri(void)
{
    static const struct {
        struct gen g;
        enum xiri_idn idn;
        unsigned flags;
    } modes[] = {
        {{0, 0}, XIRI_IDN_PERCENT, 0},
        {{0, 0}, XIRI_IDN_PUNYCODE, 0},
        {{1, 0}, XIRI_IDN_PERCENT, 0},
        {{1, 0}, XIRI_IDN_PUNYCODE, 0},
        {{1, 0}, XIRI_IDN_PUNYCODE, XIRI_MAP_DNS_ONLY},
        {{1, 1}, XIRI_IDN_PERCENT, XIRI_MAP_ESCAPE_LEIRI},
        {{1, 1}, XIRI_IDN_PUNYCODE, XIRI_MAP_ESCAPE_LEIRI},
    };
    struct sb b;
    size_t m;
    int i, bad = 0;

    rng = 2;
    for (m = 0; m < LEN(modes); m++) {
        int ok = 0;
        for (i = 0; i < ROUNDS; i++) {
            char *u1 = NULL, *u2 = NULL;
            size_t n1 = 0;
            enum xiri_status st;

            gen_absolute(&b, &modes[m].g, 1, 1);
            st = xiri_to_uri(ctx, b.d, b.n, modes[m].idn, modes[m].flags, &u1,
                             &n1, NULL);
            if (st != XIRI_OK) {
                /* only IDNA may refuse: hosts are not all valid names */
                if (st != XIRI_EIDNA && bad++ < 5)
                    TEST_FAIL("to_uri(%s) mode %zu: status %d", b.d, m, st);
                continue;
            }
            ok++;
            if (!xiri_is_valid(u1, n1, XIRI_PROFILE_URI) && bad++ < 5)
                TEST_FAIL("to_uri(%s) = %s is not a URI", b.d, u1);
            if (!is_ascii(u1) && bad++ < 5)
                TEST_FAIL("to_uri(%s) = %s is not ASCII", b.d, u1);
            if (!modes[m].g.iri && modes[m].idn == XIRI_IDN_PERCENT &&
                strcmp(u1, b.d) != 0 && bad++ < 5)
                TEST_FAIL("to_uri(%s) = %s: not the identity on a URI", b.d,
                          u1);
            if (xiri_to_uri(ctx, u1, n1, modes[m].idn, modes[m].flags, &u2,
                            NULL, NULL) != XIRI_OK ||
                strcmp(u1, u2) != 0) {
                if (bad++ < 5)
                    TEST_FAIL("to_uri not idempotent: %s -> %s -> %s", b.d, u1,
                              u2 ? u2 : "(error)");
            }
            xiri_str_free(u1);
            xiri_str_free(u2);
        }
        /* most generated hosts are valid names */
        if (ok < ROUNDS * 3 / 4)
            TEST_FAIL("mode %zu: only %d of %d mapped", m, ok, ROUNDS);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* to_uri(to_iri(u)) is equivalent to u (RFC 3987 3.2); to_iri gives an
 * IRI and is idempotent. */
static void test_round_trip(void)
{
    struct sb b, o1, o2;
    struct gen uri = {0, 0};
    int i, bad = 0;

    rng = 3;
    for (i = 0; i < ROUNDS * 2; i++) {
        char *iri = NULL, *again = NULL, *back = NULL;
        size_t ilen = 0;

        gen_absolute(&b, &uri, 1, 1);
        if (i % 4 == 3)
            gen_relative(&b, &uri);
        if (xiri_to_iri(ctx, b.d, b.n, XIRI_IDN_PERCENT, &iri, &ilen, NULL) !=
            XIRI_OK) {
            if (bad++ < 5)
                TEST_FAIL("to_iri(%s) fails", b.d);
            continue;
        }
        if (!xiri_is_valid(iri, ilen, XIRI_PROFILE_RFC3987) && bad++ < 5)
            TEST_FAIL("to_iri(%s) = %s is not an IRI", b.d, iri);
        if (xiri_to_iri(ctx, iri, ilen, XIRI_IDN_PERCENT, &again, NULL, NULL) !=
                XIRI_OK ||
            strcmp(again, iri) != 0) {
            if (bad++ < 5)
                TEST_FAIL("to_iri not idempotent: %s -> %s -> %s", b.d, iri,
                          again ? again : "(error)");
        }
        if (xiri_to_uri(ctx, iri, ilen, XIRI_IDN_PERCENT, 0, &back, NULL,
                        NULL) != XIRI_OK) {
            if (bad++ < 5)
                TEST_FAIL("to_uri(to_iri(%s)) = to_uri(%s) fails", b.d, iri);
        } else {
            oracle(b.d, &o1);
            oracle(back, &o2);
            if (strcmp(o1.d, o2.d) != 0 && bad++ < 5)
                TEST_FAIL("round trip: %s -> %s -> %s", b.d, iri, back);
        }
        xiri_str_free(iri);
        xiri_str_free(again);
        xiri_str_free(back);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* The same with hosts in ACE form: ToUnicode there, ToASCII back.  Only
 * for a scheme whose hosts are DNS names (RFC 3987 3.2: converting them
 * takes knowledge of the scheme): foo's stay as they are. */
static void test_round_trip_idn(void)
{
    struct sb b, o1, o2;
    struct gen uri = {0, 0};
    int i, bad = 0, changed = 0, dns = 0;

    rng = 4;
    for (i = 0; i < ROUNDS; i++) {
        char *iri = NULL, *back = NULL;
        size_t ilen = 0;
        bool http = chance(50);

        b.n = 0;
        b.d[0] = '\0';
        sb_puts(&b, http ? "http://" : "foo://");
        dns += http;
        gen_host(&b, &uri, 1);
        sb_putc(&b, '/');
        gen_segment(&b, &uri, 0, 0, 0);
        if (xiri_to_iri(ctx, b.d, b.n, XIRI_IDN_UNICODE, &iri, &ilen, NULL) !=
                XIRI_OK ||
            xiri_to_uri(ctx, iri, ilen, XIRI_IDN_PUNYCODE, 0, &back, NULL,
                        NULL) != XIRI_OK) {
            if (bad++ < 5)
                TEST_FAIL("IDN round trip of %s fails", b.d);
        } else {
            oracle(b.d, &o1);
            oracle(back, &o2);
            if (strcmp(o1.d, o2.d) != 0 && bad++ < 5)
                TEST_FAIL("IDN round trip: %s -> %s -> %s", b.d, iri, back);
            /* the host: up to the '/' after the scheme's "//" (its
             * characters are ASCII or escapes before, no '/') */
            size_t off = http ? 7 : 6, hl = strcspn(iri + off, "/");
            bool host_changed = hl != strcspn(b.d + off, "/") ||
                                memcmp(iri + off, b.d + off, hl) != 0;

            if (host_changed && !http && bad++ < 5)
                TEST_FAIL("to_iri converted a foo host: %s -> %s", b.d, iri);
            if (host_changed)
                changed++;
        }
        xiri_str_free(iri);
        xiri_str_free(back);
    }
    CU_ASSERT_EQUAL(bad, 0);
    /* the ACE labels of http hosts did become Unicode in most cases */
    CU_ASSERT_TRUE(changed > dns / 2);
}

/* RFC 3986 5.2.2: a reference with a scheme and no dot segments resolves
 * to itself against any base (its fragment included). */
static void test_resolve_absolute(void)
{
    static const enum xiri_profile profs[] = {XIRI_PROFILE_RFC3987,
                                              XIRI_PROFILE_LEIRI};
    struct sb base, ref;
    struct gen iri = {1, 0};
    int i, bad = 0;

    rng = 5;
    for (i = 0; i < ROUNDS; i++) {
        char *out = NULL;
        enum xiri_profile prof = profs[i % 2];

        gen_absolute(&base, &iri, 1, 1);
        gen_absolute(&ref, &iri, 0, 1);
        if (xiri_resolve(base.d, base.n, ref.d, ref.n, prof, &out, NULL,
                         NULL) != XIRI_OK) {
            if (bad++ < 5)
                TEST_FAIL("resolve(%s, %s) fails", base.d, ref.d);
            continue;
        }
        if (strcmp(out, ref.d) != 0 && bad++ < 5)
            TEST_FAIL("resolve(%s, %s) = %s", base.d, ref.d, out);
        xiri_str_free(out);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* Any base and relative reference: the result is an absolute IRI.  When
 * the reference has a path, or the base path has no dot segment, the
 * result has none either (an empty reference path keeps the base path as
 * it is, RFC 3986 5.2.2), so resolving it again, against any base,
 * changes nothing (5.2.4; the "/." guard of xiri.h included). */
static void test_resolve_stable(void)
{
    struct sb base, ref, other;
    struct gen iri = {1, 0};
    int i, bad = 0, checked_skip = 0;

    rng = 6;
    for (i = 0; i < ROUNDS; i++) {
        char *t = NULL, *t2 = NULL;
        size_t tlen = 0, plen = 0;
        struct xiri *x = NULL;
        int base_dots = i % 2;

        gen_absolute(&base, &iri, base_dots, i % 3 == 0);
        gen_relative(&ref, &iri);
        gen_absolute(&other, &iri, 1, 0);
        if (xiri_resolve(base.d, base.n, ref.d, ref.n, XIRI_PROFILE_RFC3987, &t,
                         &tlen, NULL) != XIRI_OK) {
            if (bad++ < 5)
                TEST_FAIL("resolve(%s, %s) fails", base.d, ref.d);
            continue;
        }
        if (xiri_parse(t, tlen, XIRI_PROFILE_RFC3987, &x, NULL) != XIRI_OK ||
            !xiri_is_absolute(x)) {
            if (bad++ < 5)
                TEST_FAIL("resolve(%s, %s) = %s: not an absolute IRI", base.d,
                          ref.d, t);
        }
        xiri_free(x);
        x = NULL;
        if (xiri_parse(ref.d, ref.n, XIRI_PROFILE_RFC3987, &x, NULL) == XIRI_OK)
            xiri_part(x, XIRI_PART_PATH, &plen, NULL);
        xiri_free(x);
        if (base_dots && plen == 0) {
            checked_skip++;
        } else if (xiri_resolve(other.d, other.n, t, tlen, XIRI_PROFILE_RFC3987,
                                &t2, NULL, NULL) != XIRI_OK ||
                   strcmp(t, t2) != 0) {
            if (bad++ < 5)
                TEST_FAIL("resolve(%s, %s) = %s, again against %s: %s", base.d,
                          ref.d, t, other.d, t2 ? t2 : "(error)");
        }
        xiri_str_free(t);
        xiri_str_free(t2);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_TRUE(checked_skip < ROUNDS / 4);
}

int suite_props_register(void)
{
    CU_pSuite s = CU_add_suite("props", props_init, props_cleanup);

    if (!s || !CU_add_test(s, "oracle", test_oracle) ||
        !CU_add_test(s, "generated_valid", test_generated_valid) ||
        !CU_add_test(s, "to_uri", test_to_uri) ||
        !CU_add_test(s, "round_trip", test_round_trip) ||
        !CU_add_test(s, "round_trip_idn", test_round_trip_idn) ||
        !CU_add_test(s, "resolve_absolute", test_resolve_absolute) ||
        !CU_add_test(s, "resolve_stable", test_resolve_stable))
        return -1;
    return 0;
}

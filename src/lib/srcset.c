/* srcset.c - the descriptors of an HTML srcset value (see srcset.h).
 * HTML Living Standard, "parse a srcset attribute" (the algorithm
 * browsers run, in the images section) and the requirements on the
 * attribute ("Attributes common to source, img, and link elements"):
 * each image candidate is a URL, then optionally one descriptor, a width
 * ("300w", a valid non-negative integer greater than zero) or a pixel
 * density ("1.5x", a valid floating-point number greater than zero);
 * no two candidates of an element with the same width or density (a
 * candidate without descriptor is 1x); a width on every candidate when
 * one has a width. */
#include "common.h"
#include "chars.h"
#include "mojibake.h"
#include "srcset.h"

#include <stdarg.h>
#include <stdio.h>

/* How many candidates are remembered to find a repeated width or
 * density: past it, the later ones are not compared (a bound on the work
 * for a hostile value; real srcsets hold a handful). */
#define SRCSET_SEEN_MAX 64

/* Longest piece of a value quoted in a message (bytes). */
#define SRCSET_QUOTE_MAX 60

enum desc_kind { D_NONE, D_WIDTH, D_DENSITY };

/* One candidate as the descriptor parser leaves it. */
struct cand {
    size_t url, url_len; /* in the value */
    bool error;          /* browsers drop it */
    char why[200];       /* why, when error */
    bool has_w, has_x, has_h;
    double w, x;
    size_t desc, desc_len;     /* the width or density descriptor */
    size_t h_desc, h_desc_len; /* the height descriptor */
};

/* What a candidate has, for messages. */
static const char *has_what(const struct cand *c)
{
    return c->has_w ? "a width" : c->has_x ? "a density" : "no descriptor";
}

struct seen {
    enum desc_kind kind;
    double value;
    size_t url, url_len;
};

struct srcset_state {
    const char *v;
    size_t n;
    srcset_problem_fn *fn;
    void *user;
    unsigned count;
    bool stop;
    struct seen seen[SRCSET_SEEN_MAX];
    size_t nseen;
    bool have_first, first_w, mixed_told;
    size_t first_url, first_url_len;
    const char *first_has; /* has_what of the first candidate */
};

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* s[0..n) for a message: at most SRCSET_QUOTE_MAX bytes, cut before a
 * UTF-8 character rather than inside it, "..." when cut. */
static int quote_len(const char *s, size_t n, const char **ell)
{
    *ell = n > SRCSET_QUOTE_MAX ? "..." : "";
    return (int)moji_cut(s, n, SRCSET_QUOTE_MAX);
}

/* HTML LS "rules for parsing non-negative integers" on a valid one (one
 * or more ASCII digits): its value (a double: only compared). */
static bool valid_integer(const char *s, size_t n, double *out)
{
    double v = 0;
    size_t i;

    if (n == 0)
        return false;
    for (i = 0; i < n; i++) {
        if (!is_digit(s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

/* HTML LS "valid floating-point number": optionally '-', digits and/or
 * '.' followed by digits, optionally 'e' or 'E', a sign, digits.  Its
 * value by the rules for parsing floating-point number values (precise
 * enough to compare densities as authors write them). */
static bool valid_float(const char *s, size_t n, double *out)
{
    size_t i = 0, int_digits = 0, frac_digits = 0, exp_digits = 0;
    double v = 0, scale = 1;
    bool neg = false, exp_neg = false;
    long e = 0;

    if (i < n && s[i] == '-') {
        neg = true;
        i++;
    }
    for (; i < n && is_digit(s[i]); i++, int_digits++)
        v = v * 10 + (s[i] - '0');
    if (i < n && s[i] == '.') {
        for (i++; i < n && is_digit(s[i]); i++, frac_digits++) {
            scale /= 10;
            v += (s[i] - '0') * scale;
        }
        if (frac_digits == 0)
            return false;
    }
    if (int_digits == 0 && frac_digits == 0)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            exp_neg = s[i++] == '-';
        for (; i < n && is_digit(s[i]); i++, exp_digits++)
            if (e < 1000)
                e = e * 10 + (s[i] - '0');
        if (exp_digits == 0)
            return false;
    }
    if (i != n)
        return false;
    for (; e > 0; e--)
        v = exp_neg ? v / 10 : v * 10;
    *out = neg ? -v : v;
    return true;
}

/* Browsers drop candidate c: why is kept (the first reason only), the
 * descriptor d[0..dn) quoted between before and after. */
static void drop(struct cand *c, const char *before, const char *d, size_t dn,
                 const char *after)
{
    const char *ell;
    int qn;

    if (c->error)
        return;
    c->error = true;
    qn = quote_len(d, dn, &ell);
    snprintf(c->why, sizeof(c->why), "%s\"%.*s%s\"%s", before, qn, d, ell,
             after);
}

/* The descriptor parser's step for one descriptor v[d..d+dn). */
static void descriptor(struct srcset_state *st, struct cand *c, size_t d,
                       size_t dn)
{
    const char *s = st->v + d;
    char last = s[dn - 1];
    double val;

    if (last == 'w' && valid_integer(s, dn - 1, &val)) {
        if (c->has_w || c->has_x)
            drop(c, "a second descriptor, ", s, dn,
                 " (give one: a width or a density)");
        else if (val == 0)
            drop(c, "the width ", s, dn, " is zero");
        else {
            c->has_w = true;
            c->w = val;
            c->desc = d;
            c->desc_len = dn;
        }
    } else if (last == 'x' && valid_float(s, dn - 1, &val)) {
        if (c->has_w || c->has_x || c->has_h)
            drop(c, "a second descriptor, ", s, dn,
                 " (give one: a width or a density)");
        else if (val < 0)
            drop(c, "the density ", s, dn, " is negative");
        else {
            c->has_x = true;
            c->x = val;
            c->desc = d;
            c->desc_len = dn;
        }
    } else if (last == 'h' && valid_integer(s, dn - 1, &val)) {
        if (c->has_h || c->has_x)
            drop(c, "a second descriptor, ", s, dn,
                 " (give one: a width or a density)");
        else if (val == 0)
            drop(c, "the height ", s, dn, " is zero");
        else {
            c->has_h = true;
            c->h_desc = d;
            c->h_desc_len = dn;
        }
    } else {
        drop(c, "", s, dn,
             " is not a descriptor (a width such as 300w or a density "
             "such as 2x; a space that belongs to the URL is written "
             "%20)");
    }
}

static void report(struct srcset_state *st, enum srcset_problem_kind kind,
                   const struct cand *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* "srcset candidate "URL": " and the rest. */
static void report(struct srcset_state *st, enum srcset_problem_kind kind,
                   const struct cand *c, const char *fmt, ...)
{
    char msg[512];
    const char *ell;
    int qn = quote_len(st->v + c->url, c->url_len, &ell), k;
    va_list ap;

    if (st->stop)
        return;
    k = snprintf(msg, sizeof(msg), "srcset candidate \"%.*s%s\": ", qn,
                 st->v + c->url, ell);
    if (k < 0 || (size_t)k >= sizeof(msg))
        k = 0;
    va_start(ap, fmt);
    vsnprintf(msg + k, sizeof(msg) - (size_t)k, fmt, ap);
    va_end(ap);
    st->count++;
    if (st->fn(st->user, kind, c->url, msg) != 0)
        st->stop = true;
}

/* The requirements between candidates: no repeated width or density,
 * widths on all or none. */
static void compare(struct srcset_state *st, const struct cand *c)
{
    enum desc_kind kind = c->has_w ? D_WIDTH : D_DENSITY;
    double value = c->has_w ? c->w : c->has_x ? c->x : 1;
    const char *ell;
    size_t i;

    if (!st->have_first) {
        st->have_first = true;
        st->first_w = c->has_w;
        st->first_url = c->url;
        st->first_url_len = c->url_len;
        st->first_has = has_what(c);
    } else if (c->has_w != st->first_w && !st->mixed_told) {
        int qn = quote_len(st->v + st->first_url, st->first_url_len, &ell);

        st->mixed_told = true;
        report(st, SRCSET_INVALID, c,
               "it has %s, the first candidate (\"%.*s%s\") %s: when one "
               "candidate has a width, every candidate must have one (and "
               "the element a sizes attribute)",
               has_what(c), qn, st->v + st->first_url, ell, st->first_has);
        return;
    }
    for (i = 0; i < st->nseen; i++) {
        const struct seen *s = &st->seen[i];

        if (s->kind != kind || s->value != value)
            continue;
        {
            int qn = quote_len(st->v + s->url, s->url_len, &ell);
            const char *dell;
            int dn = quote_len(st->v + c->desc, c->desc_len, &dell);

            if (c->desc_len == 0) /* no descriptor: 1x */
                report(st, SRCSET_INVALID, c,
                       "the candidate \"%.*s%s\" before it has the same "
                       "density, 1x, which a candidate without descriptor "
                       "has: browsers keep the first and never use this "
                       "one; give each candidate its own",
                       qn, st->v + s->url, ell);
            else
                report(st, SRCSET_INVALID, c,
                       "the candidate \"%.*s%s\" before it has the same "
                       "%s as this one's \"%.*s%s\": browsers keep the first "
                       "and never use this one; give each candidate its own",
                       qn, st->v + s->url, ell,
                       kind == D_WIDTH ? "width" : "density", dn,
                       st->v + c->desc, dell);
        }
        return;
    }
    if (st->nseen < SRCSET_SEEN_MAX) {
        st->seen[st->nseen].kind = kind;
        st->seen[st->nseen].value = value;
        st->seen[st->nseen].url = c->url;
        st->seen[st->nseen].url_len = c->url_len;
        st->nseen++;
    }
}

/* The descriptor tokenizer of "parse a srcset attribute" from v[i] (just
 * after the URL): each descriptor to descriptor(); returns the position
 * after the candidate. */
static size_t tokenize(struct srcset_state *st, struct cand *c, size_t i)
{
    enum { IN_DESC, IN_PARENS, AFTER } state = IN_DESC;
    const char *v = st->v;
    size_t n = st->n, cur = SIZE_MAX;

    while (i < n && ch_is_ascii_space((unsigned char)v[i]))
        i++;
    for (;; i++) {
        char ch = i < n ? v[i] : '\0';
        bool eof = i >= n;

        switch (state) {
        case IN_DESC:
            if (eof || ch == ',' || ch_is_ascii_space((unsigned char)ch)) {
                if (cur != SIZE_MAX)
                    descriptor(st, c, cur, i - cur);
                cur = SIZE_MAX;
                if (eof)
                    return n;
                if (ch == ',')
                    return i + 1;
                state = AFTER;
            } else {
                if (cur == SIZE_MAX)
                    cur = i;
                if (ch == '(')
                    state = IN_PARENS;
            }
            break;
        case IN_PARENS:
            if (eof) {
                descriptor(st, c, cur, n - cur);
                return n;
            }
            if (ch == ')')
                state = IN_DESC;
            break;
        case AFTER:
            if (eof)
                return n;
            if (!ch_is_ascii_space((unsigned char)ch)) {
                state = IN_DESC;
                i--; /* reconsume */
            }
            break;
        }
    }
}

unsigned srcset_check(const char *v, size_t n, srcset_problem_fn *fn,
                      void *user)
{
    struct srcset_state st;
    size_t i = 0;

    memset(&st, 0, sizeof(st));
    st.v = v;
    st.n = n;
    st.fn = fn;
    st.user = user;
    while (!st.stop) {
        struct cand c;

        /* splitting loop: collect ASCII whitespace and commas */
        while (i < n && (ch_is_ascii_space((unsigned char)v[i]) || v[i] == ','))
            i++;
        if (i >= n)
            break;
        memset(&c, 0, sizeof(c));
        c.url = i;
        while (i < n && !ch_is_ascii_space((unsigned char)v[i]))
            i++;
        c.url_len = i - c.url;
        if (v[i - 1] == ',') {
            /* a URL ending with commas: they are removed and the
             * candidate has no descriptors */
            while (c.url_len > 0 && v[c.url + c.url_len - 1] == ',')
                c.url_len--;
        } else {
            i = tokenize(&st, &c, i);
        }
        if (c.has_h && !c.has_w && !c.error) {
            const char *ell;
            int qn = quote_len(v + c.h_desc, c.h_desc_len, &ell);

            c.error = true;
            snprintf(c.why, sizeof(c.why),
                     "a height (\"%.*s%s\") without a width", qn, v + c.h_desc,
                     ell);
        }
        if (c.error) {
            report(&st, SRCSET_DROPPED, &c, "browsers drop it: %s", c.why);
            continue;
        }
        if (c.has_x && c.x == 0)
            report(&st, SRCSET_INVALID, &c,
                   "the density is zero: HTML requires one greater than "
                   "zero");
        else if (c.has_h)
            report(&st, SRCSET_INVALID, &c,
                   "a height descriptor (\"%.*s\") is not allowed: "
                   "browsers read it for future use and ignore it; remove "
                   "it",
                   (int)(c.h_desc_len > SRCSET_QUOTE_MAX ? SRCSET_QUOTE_MAX
                                                         : c.h_desc_len),
                   v + c.h_desc);
        compare(&st, &c);
    }
    return st.count;
}

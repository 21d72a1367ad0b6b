/* resolve.c - resolving a reference against a base: RFC 3986 section 5.2
 * (strict), applied unchanged to IRIs (RFC 3987 section 6.5), and the
 * recomposition of section 5.3. */
#include "common.h"
#include "buf.h"
#include "mem.h"
#include "parse.h"
#include "resolve.h"

/* Remove the last segment and its preceding "/" (if any) from out
 * (RFC 3986 5.2.4 step 2C). */
static void pop_segment(struct buf *out, size_t floor)
{
    size_t i = out->len;

    while (i > floor && out->data[i - 1] != '/')
        i--;
    if (i > floor)
        i--; /* the '/' before the segment */
    out->len = i;
}

/* True when p[0..n) has a "." or ".." segment, i.e. remove_dot_segments
 * would change it. */
static bool has_dot_segment(const char *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (p[i] != '.' || (i > 0 && p[i - 1] != '/'))
            continue;
        if (i + 1 == n || p[i + 1] == '/')
            return true;
        if (p[i + 1] == '.' && (i + 2 == n || p[i + 2] == '/'))
            return true;
    }
    return false;
}

void path_remove_dots(struct buf *out, const char *p, size_t n)
{
    size_t i = 0, floor = out->len;

    if (!has_dot_segment(p, n)) {
        buf_append(out, p, n);
        return;
    }
    /* 2. While the input buffer is not empty, loop: */
    while (i < n && out->status == XIRI_OK) {
        size_t rest = n - i;
        const char *q = p + i;

        if (rest >= 3 && memcmp(q, "../", 3) == 0) {
            i += 3; /* 2A */
        } else if (rest >= 2 && memcmp(q, "./", 2) == 0) {
            i += 2; /* 2A */
        } else if (rest >= 3 && memcmp(q, "/./", 3) == 0) {
            i += 2; /* 2B: "/./" becomes "/" */
        } else if (rest == 2 && memcmp(q, "/.", 2) == 0) {
            buf_putc(out, '/'); /* 2B: "/." becomes "/", then 2E */
            i = n;
        } else if (rest >= 4 && memcmp(q, "/../", 4) == 0) {
            i += 3; /* 2C: "/../" becomes "/" and the last segment goes */
            pop_segment(out, floor);
        } else if (rest == 3 && memcmp(q, "/..", 3) == 0) {
            pop_segment(out, floor); /* 2C, then 2E moves the "/" */
            buf_putc(out, '/');
            i = n;
        } else if ((rest == 1 && q[0] == '.') ||
                   (rest == 2 && q[0] == '.' && q[1] == '.')) {
            i = n; /* 2D */
        } else {
            /* 2E: move the first segment, with its initial "/" if any */
            size_t j = i + 1;
            while (j < n && p[j] != '/')
                j++;
            buf_append(out, q, j - i);
            i = j;
        }
    }
}

static void put_span(struct buf *out, const char *s, const struct span *sp)
{
    buf_append(out, s + sp->off, sp->len);
}

void ref_recompose(struct buf *out, const char *s, const struct ref *r)
{
    const struct span *p = &r->part[XIRI_PART_PATH];

    if (r->part[XIRI_PART_SCHEME].set) {
        put_span(out, s, &r->part[XIRI_PART_SCHEME]);
        buf_putc(out, ':');
    }
    if (r->part[XIRI_PART_AUTHORITY].set) {
        buf_append(out, "//", 2);
        put_span(out, s, &r->part[XIRI_PART_AUTHORITY]);
    } else if (p->len >= 2 && s[p->off] == '/' && s[p->off + 1] == '/') {
        buf_append(out, "/.", 2); /* the guard documented in xiri.h */
    }
    put_span(out, s, p);
    if (r->part[XIRI_PART_QUERY].set) {
        buf_putc(out, '?');
        put_span(out, s, &r->part[XIRI_PART_QUERY]);
    }
    if (r->part[XIRI_PART_FRAGMENT].set) {
        buf_putc(out, '#');
        put_span(out, s, &r->part[XIRI_PART_FRAGMENT]);
    }
}

/* The result is written straight into one buffer in 5.3 order; the path
 * is the only component that needs computing. */
static void put_path_and_rest(struct buf *out, size_t path_start,
                              const char *qs, const struct span *query,
                              const char *fs, const struct span *frag)
{
    /* RFC 3986 5.3 needs no "/." guard when there is an authority; without
     * one, a path starting "//" would re-parse as an authority. */
    if (out->status == XIRI_OK && out->len - path_start >= 2 &&
        out->data[path_start] == '/' && out->data[path_start + 1] == '/') {
        if (buf_reserve(out, 2)) {
            memmove(out->data + path_start + 2, out->data + path_start,
                    out->len - path_start);
            memcpy(out->data + path_start, "/.", 2);
            out->len += 2;
        }
    }
    if (query->set) {
        buf_putc(out, '?');
        put_span(out, qs, query);
    }
    if (frag->set) {
        buf_putc(out, '#');
        put_span(out, fs, frag);
    }
}

enum xiri_status xiri_resolve(const char *base, size_t base_len,
                              const char *ref, size_t ref_len,
                              enum xiri_profile profile, char **out,
                              size_t *out_len, struct xiri_error *err)
{
    struct ref b, r;
    struct buf o;
    enum xiri_status st;
    size_t path_start;

    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if ((!base && base_len) || (!ref && ref_len) ||
        (unsigned)profile >= XIRI_PROFILE_COUNT)
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    if (!base)
        base = "";
    if (!ref)
        ref = "";
    st = ref_parse(base, base_len, profile, &b, NULL, err);
    if (st != XIRI_OK) {
        if (err) {
            char msg[sizeof(err->message)];
            memcpy(msg, err->message, sizeof(msg));
            error_set(err, st, err->offset, "base: %s", msg);
        }
        return st;
    }
    if (!b.part[XIRI_PART_SCHEME].set)
        return error_set(err, XIRI_ENOTABS, 0,
                         "the base has no scheme; a base must be an "
                         "absolute IRI (RFC 3986 5.1)");
    st = ref_parse(ref, ref_len, profile, &r, NULL, err);
    if (st != XIRI_OK)
        return st;

    buf_init(&o, XIRI_MAX_LEN);
    buf_reserve(&o, base_len + ref_len + 8);
    /* RFC 3986 5.2.2, strict: a reference with a scheme is absolute */
    if (r.part[XIRI_PART_SCHEME].set) {
        put_span(&o, ref, &r.part[XIRI_PART_SCHEME]);
        buf_putc(&o, ':');
        if (r.part[XIRI_PART_AUTHORITY].set) {
            buf_append(&o, "//", 2);
            put_span(&o, ref, &r.part[XIRI_PART_AUTHORITY]);
        }
        path_start = o.len;
        path_remove_dots(&o, ref + r.part[XIRI_PART_PATH].off,
                         r.part[XIRI_PART_PATH].len);
        if (r.part[XIRI_PART_AUTHORITY].set)
            path_start = o.len; /* no guard needed */
        put_path_and_rest(&o, path_start, ref, &r.part[XIRI_PART_QUERY], ref,
                          &r.part[XIRI_PART_FRAGMENT]);
        return buf_take(&o, out, out_len);
    }
    /* T.scheme = Base.scheme */
    put_span(&o, base, &b.part[XIRI_PART_SCHEME]);
    buf_putc(&o, ':');
    if (r.part[XIRI_PART_AUTHORITY].set) {
        /* T.authority = R.authority; T.path = remove_dot_segments(R.path);
         * T.query = R.query */
        buf_append(&o, "//", 2);
        put_span(&o, ref, &r.part[XIRI_PART_AUTHORITY]);
        path_remove_dots(&o, ref + r.part[XIRI_PART_PATH].off,
                         r.part[XIRI_PART_PATH].len);
        put_path_and_rest(&o, o.len, ref, &r.part[XIRI_PART_QUERY], ref,
                          &r.part[XIRI_PART_FRAGMENT]);
        return buf_take(&o, out, out_len);
    }
    /* T.authority = Base.authority */
    if (b.part[XIRI_PART_AUTHORITY].set) {
        buf_append(&o, "//", 2);
        put_span(&o, base, &b.part[XIRI_PART_AUTHORITY]);
    }
    path_start = b.part[XIRI_PART_AUTHORITY].set ? SIZE_MAX : o.len;
    if (r.part[XIRI_PART_PATH].len == 0) {
        /* T.path = Base.path; T.query = R.query if defined, else
         * Base.query */
        put_span(&o, base, &b.part[XIRI_PART_PATH]);
        if (path_start == SIZE_MAX)
            path_start = o.len;
        if (r.part[XIRI_PART_QUERY].set)
            put_path_and_rest(&o, path_start, ref, &r.part[XIRI_PART_QUERY],
                              ref, &r.part[XIRI_PART_FRAGMENT]);
        else
            put_path_and_rest(&o, path_start, base, &b.part[XIRI_PART_QUERY],
                              ref, &r.part[XIRI_PART_FRAGMENT]);
        return buf_take(&o, out, out_len);
    }
    if (ref[r.part[XIRI_PART_PATH].off] == '/') {
        /* T.path = remove_dot_segments(R.path) */
        size_t mark = o.len;
        path_remove_dots(&o, ref + r.part[XIRI_PART_PATH].off,
                         r.part[XIRI_PART_PATH].len);
        if (path_start != SIZE_MAX)
            path_start = mark;
    } else {
        /* T.path = merge(Base.path, R.path) (5.2.3), then
         * remove_dot_segments; the merge is done in a scratch buffer */
        const struct span *bp = &b.part[XIRI_PART_PATH];
        const struct span *rp = &r.part[XIRI_PART_PATH];
        struct buf m;
        size_t keep = bp->len, mark = o.len;

        buf_init(&m, XIRI_MAX_LEN);
        if (b.part[XIRI_PART_AUTHORITY].set && bp->len == 0) {
            buf_putc(&m, '/');
        } else {
            while (keep > 0 && base[bp->off + keep - 1] != '/')
                keep--;
            buf_append(&m, base + bp->off, keep);
        }
        buf_append(&m, ref + rp->off, rp->len);
        if (m.status != XIRI_OK)
            o.status = m.status;
        else
            path_remove_dots(&o, m.data, m.len);
        buf_free(&m);
        if (path_start != SIZE_MAX)
            path_start = mark;
    }
    if (path_start == SIZE_MAX)
        path_start = o.len;
    put_path_and_rest(&o, path_start, ref, &r.part[XIRI_PART_QUERY], ref,
                      &r.part[XIRI_PART_FRAGMENT]);
    return buf_take(&o, out, out_len);
}

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
    const char *q = p, *end = p + n;

    while ((q = memchr(q, '.', (size_t)(end - q))) != NULL) {
        if (q == p || q[-1] == '/') {
            if (q + 1 == end || q[1] == '/')
                return true;
            if (q[1] == '.' && (q + 2 == end || q[2] == '/'))
                return true;
        }
        if (++q == end)
            break;
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

/* No "/." guard: the result has an authority (see put_path_and_rest). */
#define NO_GUARD SIZE_MAX

/* The result is written straight into one buffer in 5.3 order; the path
 * is the only component that needs computing.  Once the path is in out
 * from path_start on, guard it and append the query and fragment. */
static void put_path_and_rest(struct buf *out, size_t path_start,
                              const char *qs, const struct span *query,
                              const char *fs, const struct span *frag)
{
    /* RFC 3986 5.3 needs no "/." guard when there is an authority; without
     * one, a path starting "//" would re-parse as an authority. */
    if (path_start != NO_GUARD && out->status == XIRI_OK &&
        out->len - path_start >= 2 &&
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

/* remove_dot_segments(dir + rel) (RFC 3986 5.2.3 and 5.2.4) appended to
 * out.  dir is empty or ends with "/", so the segments of the two parts
 * stay apart and a part without dot segments can be copied as it is. */
static void merge_remove_dots(struct buf *out, const char *dir, size_t dlen,
                              const char *rel, size_t rlen)
{
    char stack[1024];
    struct buf m;

    if (!has_dot_segment(dir, dlen) && !has_dot_segment(rel, rlen)) {
        buf_append(out, dir, dlen);
        buf_append(out, rel, rlen);
        return;
    }
    if (dlen + rlen <= sizeof(stack)) {
        memcpy(stack, dir, dlen);
        memcpy(stack + dlen, rel, rlen);
        path_remove_dots(out, stack, dlen + rlen);
        return;
    }
    buf_init(&m, XIRI_MAX_LEN);
    buf_append(&m, dir, dlen);
    buf_append(&m, rel, rlen);
    if (m.status != XIRI_OK)
        out->status = m.status;
    else
        path_remove_dots(out, m.data, m.len);
    buf_free(&m);
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
    /* RFC 3986 5.2.2, strict: a reference with a scheme is absolute:
     * T.scheme = R.scheme, T.authority = R.authority,
     * T.path = remove_dot_segments(R.path), T.query = R.query */
    if (r.part[XIRI_PART_SCHEME].set) {
        put_span(&o, ref, &r.part[XIRI_PART_SCHEME]);
        buf_putc(&o, ':');
        if (r.part[XIRI_PART_AUTHORITY].set) {
            buf_append(&o, "//", 2);
            put_span(&o, ref, &r.part[XIRI_PART_AUTHORITY]);
        }
        path_start = r.part[XIRI_PART_AUTHORITY].set ? NO_GUARD : o.len;
        path_remove_dots(&o, ref + r.part[XIRI_PART_PATH].off,
                         r.part[XIRI_PART_PATH].len);
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
        put_path_and_rest(&o, NO_GUARD, ref, &r.part[XIRI_PART_QUERY], ref,
                          &r.part[XIRI_PART_FRAGMENT]);
        return buf_take(&o, out, out_len);
    }
    /* T.authority = Base.authority */
    if (b.part[XIRI_PART_AUTHORITY].set) {
        buf_append(&o, "//", 2);
        put_span(&o, base, &b.part[XIRI_PART_AUTHORITY]);
    }
    path_start = b.part[XIRI_PART_AUTHORITY].set ? NO_GUARD : o.len;
    if (r.part[XIRI_PART_PATH].len == 0) {
        /* T.path = Base.path; T.query = R.query if defined, else
         * Base.query */
        bool own_query = r.part[XIRI_PART_QUERY].set;

        put_span(&o, base, &b.part[XIRI_PART_PATH]);
        put_path_and_rest(&o, path_start, own_query ? ref : base,
                          &(own_query ? &r : &b)->part[XIRI_PART_QUERY], ref,
                          &r.part[XIRI_PART_FRAGMENT]);
        return buf_take(&o, out, out_len);
    }
    if (ref[r.part[XIRI_PART_PATH].off] == '/') {
        /* T.path = remove_dot_segments(R.path) */
        path_remove_dots(&o, ref + r.part[XIRI_PART_PATH].off,
                         r.part[XIRI_PART_PATH].len);
    } else {
        /* T.path = remove_dot_segments(merge(Base.path, R.path)) */
        const struct span *bp = &b.part[XIRI_PART_PATH];
        const struct span *rp = &r.part[XIRI_PART_PATH];
        size_t keep = bp->len;

        if (b.part[XIRI_PART_AUTHORITY].set && bp->len == 0) {
            /* 5.2.3: "/" followed by the reference's path */
            merge_remove_dots(&o, "/", 1, ref + rp->off, rp->len);
        } else {
            /* 5.2.3: the base path up to and including its last "/" */
            while (keep > 0 && base[bp->off + keep - 1] != '/')
                keep--;
            merge_remove_dots(&o, base + bp->off, keep, ref + rp->off,
                              rp->len);
        }
    }
    /* T.query = R.query; T.fragment = R.fragment */
    put_path_and_rest(&o, path_start, ref, &r.part[XIRI_PART_QUERY], ref,
                      &r.part[XIRI_PART_FRAGMENT]);
    return buf_take(&o, out, out_len);
}

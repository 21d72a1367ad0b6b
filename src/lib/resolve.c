/* resolve.c - resolving a reference against a base: RFC 3986 section 5.2
 * (strict), applied unchanged to IRIs (RFC 3987 section 6.5), and the
 * recomposition of section 5.3.  The base can be parsed once for many
 * references (struct resolve_base): xiri_resolve is that with one. */
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

/* A component with the dlen bytes of its delimiter, which ref_split
 * leaves just before its span: "//" authority, "?" query, "#" fragment. */
static void put_delimited(struct buf *out, const char *s, const struct span *sp,
                          size_t dlen)
{
    buf_append(out, s + sp->off - dlen, sp->len + dlen);
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
    if (query->set)
        put_delimited(out, qs, query, 1);
    if (frag->set)
        put_delimited(out, fs, frag, 1);
}

/* remove_dot_segments(dir + rel) (RFC 3986 5.2.3 and 5.2.4) appended to
 * out.  dir is empty or ends with "/", so the segments of the two parts
 * stay apart and a part without dot segments can be copied as it is;
 * dir_dots says whether dir has one. */
static void merge_remove_dots(struct buf *out, const char *dir, size_t dlen,
                              bool dir_dots, const char *rel, size_t rlen)
{
    char stack[1024];
    struct buf m;

    if (!dir_dots && !has_dot_segment(rel, rlen)) {
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

void resolve_base_init(struct resolve_base *b, const char *s, size_t len,
                       enum xiri_profile profile)
{
    b->s = s ? s : "";
    b->len = len;
    b->profile = profile;
    memset(&b->err, 0, sizeof(b->err));
    b->status = ref_parse(b->s, len, profile, &b->r, NULL, &b->err);
    if (b->status != XIRI_OK) {
        char msg[sizeof(b->err.message)];
        memcpy(msg, b->err.message, sizeof(msg));
        error_set(&b->err, b->status, b->err.offset, "base: %s", msg);
    } else if (!b->r.part[XIRI_PART_SCHEME].set) {
        b->status = error_set(&b->err, XIRI_ENOTABS, 0,
                              "the base has no scheme; a base must be an "
                              "absolute IRI (RFC 3986 5.1)");
    } else {
        const struct span *a = &b->r.part[XIRI_PART_AUTHORITY];
        const struct span *p = &b->r.part[XIRI_PART_PATH];

        /* "scheme:", or "scheme://authority": they stand together at the
         * start of the base */
        b->head = a->set ? a->off + a->len
                         : b->r.part[XIRI_PART_SCHEME].len + (size_t)1;
        if (a->set && p->len == 0) {
            /* 5.2.3: "/" followed by the reference's path */
            b->dir = "/";
            b->dir_len = 1;
        } else {
            /* 5.2.3: the base path up to and including its last "/" */
            b->dir = b->s + p->off;
            b->dir_len = p->len;
            while (b->dir_len > 0 && b->dir[b->dir_len - 1] != '/')
                b->dir_len--;
        }
        b->dir_dots = has_dot_segment(b->dir, b->dir_len);
    }
}

/* RFC 3986 5.2.2, strict, with the target written straight into out in
 * 5.3 order.  b is a base that resolve_base_init accepted, r the
 * components of ref[0..ref_len) as ref_parse gives them. */
void resolve_parsed(const struct resolve_base *b, const char *ref,
                    size_t ref_len, const struct ref *r, struct buf *out)
{
    const char *base = b->s;
    const struct ref *bb = &b->r;
    size_t path_start;

    buf_reserve(out, b->len + ref_len + 8);
    /* a reference with a scheme is absolute:
     * T.scheme = R.scheme, T.authority = R.authority,
     * T.path = remove_dot_segments(R.path), T.query = R.query */
    if (r->part[XIRI_PART_SCHEME].set) {
        buf_append(out, ref, r->part[XIRI_PART_SCHEME].len + (size_t)1);
        if (r->part[XIRI_PART_AUTHORITY].set)
            put_delimited(out, ref, &r->part[XIRI_PART_AUTHORITY], 2);
        path_start = r->part[XIRI_PART_AUTHORITY].set ? NO_GUARD : out->len;
        path_remove_dots(out, ref + r->part[XIRI_PART_PATH].off,
                         r->part[XIRI_PART_PATH].len);
        put_path_and_rest(out, path_start, ref, &r->part[XIRI_PART_QUERY], ref,
                          &r->part[XIRI_PART_FRAGMENT]);
        return;
    }
    if (r->part[XIRI_PART_AUTHORITY].set) {
        /* T.scheme = Base.scheme; T.authority = R.authority;
         * T.path = remove_dot_segments(R.path); T.query = R.query */
        buf_append(out, base, bb->part[XIRI_PART_SCHEME].len + (size_t)1);
        put_delimited(out, ref, &r->part[XIRI_PART_AUTHORITY], 2);
        path_remove_dots(out, ref + r->part[XIRI_PART_PATH].off,
                         r->part[XIRI_PART_PATH].len);
        put_path_and_rest(out, NO_GUARD, ref, &r->part[XIRI_PART_QUERY], ref,
                          &r->part[XIRI_PART_FRAGMENT]);
        return;
    }
    /* T.scheme = Base.scheme; T.authority = Base.authority */
    buf_append(out, base, b->head);
    path_start = bb->part[XIRI_PART_AUTHORITY].set ? NO_GUARD : out->len;
    if (r->part[XIRI_PART_PATH].len == 0) {
        /* T.path = Base.path; T.query = R.query if defined, else
         * Base.query */
        bool own_query = r->part[XIRI_PART_QUERY].set;

        put_span(out, base, &bb->part[XIRI_PART_PATH]);
        put_path_and_rest(out, path_start, own_query ? ref : base,
                          &(own_query ? r : bb)->part[XIRI_PART_QUERY], ref,
                          &r->part[XIRI_PART_FRAGMENT]);
        return;
    }
    if (ref[r->part[XIRI_PART_PATH].off] == '/') {
        /* T.path = remove_dot_segments(R.path) */
        path_remove_dots(out, ref + r->part[XIRI_PART_PATH].off,
                         r->part[XIRI_PART_PATH].len);
    } else {
        /* T.path = remove_dot_segments(merge(Base.path, R.path)), the
         * base's part of the merge (5.2.3) found once */
        const struct span *rp = &r->part[XIRI_PART_PATH];

        merge_remove_dots(out, b->dir, b->dir_len, b->dir_dots, ref + rp->off,
                          rp->len);
    }
    /* T.query = R.query; T.fragment = R.fragment */
    put_path_and_rest(out, path_start, ref, &r->part[XIRI_PART_QUERY], ref,
                      &r->part[XIRI_PART_FRAGMENT]);
}

enum xiri_status resolve_ref(const struct resolve_base *b, const char *ref,
                             size_t ref_len, struct buf *out,
                             struct xiri_error *err)
{
    struct ref r;
    enum xiri_status st;

    /* the base is checked first, whatever the reference (RFC 3986 5.1:
     * a base must be absolute) */
    if (b->status != XIRI_OK) {
        if (err)
            *err = b->err;
        return b->status;
    }
    st = ref_parse(ref ? ref : "", ref_len, b->profile, &r, NULL, err);
    if (st != XIRI_OK)
        return st;
    resolve_parsed(b, ref ? ref : "", ref_len, &r, out);
    return out->status;
}

enum xiri_status xiri_resolve(const char *base, size_t base_len,
                              const char *ref, size_t ref_len,
                              enum xiri_profile profile, char **out,
                              size_t *out_len, struct xiri_error *err)
{
    struct resolve_base b;
    struct buf o;
    enum xiri_status st;

    if (!out)
        return error_set(err, XIRI_EINVAL, 0, "out is NULL");
    *out = NULL;
    if ((!base && base_len) || (!ref && ref_len) ||
        (unsigned)profile >= XIRI_PROFILE_COUNT)
        return error_set(err, XIRI_EINVAL, 0, "invalid argument");
    resolve_base_init(&b, base, base_len, profile);
    buf_init(&o, XIRI_MAX_LEN);
    st = resolve_ref(&b, ref, ref_len, &o, err);
    if (st != XIRI_OK && o.status == XIRI_OK) {
        buf_free(&o); /* the base or the reference is refused */
        return st;
    }
    return buf_take(&o, out, out_len); /* also says when o failed */
}

/* io.c - the xiri tool's plumbing: stdout checked for write errors,
 * messages on stderr, JSON strings, word wrapping, excerpts with a caret,
 * input lines, strict UTF-8 and argument scanning. */
/* O_TMPFILE (Linux 3.11, open(2)) is a GNU extension */
#define _GNU_SOURCE 1
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ------------------------------------------------------------ stdout */

/* a write to stdout failed; atomic: the workers of -j read it (jobs.c) */
static atomic_bool out_failed;
static int out_errno;   /* its errno */
/* Output gathered here and handed to stdio in large pieces: a record of
 * `xiri links` is some twenty small writes, and each fwrite call costs
 * more than the bytes it copies.  Not used on a terminal (-1 unknown). */
static char out_buf[1 << 16];
static size_t out_len;
static int out_tty = -1;

static void out_fail(void)
{
    if (!out_failed) {
        out_failed = true;
        out_errno = errno;
    }
}

static void out_drain(void)
{
    size_t n = out_len;

    out_len = 0;
    if (out_failed || n == 0)
        return;
    errno = 0;
    if (fwrite(out_buf, 1, n, stdout) != n || ferror(stdout))
        out_fail();
}

/* -j: this thread's output is captured, not written (jobs.c) */
static _Thread_local struct io_capture *io_cap;

/* output was lost (io_capture_replay): the exit status is 2 */
static atomic_bool io_lost;
/* the spill file could not be used: said once, by the thread that
 * could not use it, once it is done with its file */
static atomic_flag spill_warned = ATOMIC_FLAG_INIT;
static _Thread_local const char *warn_name;
static _Thread_local int warn_err;

/* out_item: an item of a list was written to stdout (by the thread
 * that owns the output, one at a time: jobs.c hands it over under its
 * mutex or with the turn's release and acquire) */
static bool out_item_seen;

/* a segment's header: the stream byte (1 stdout, 2 stderr, 3 an item's
 * separator, decided when written: out_item) and the length */
#define CAP_HDR (1 + sizeof(size_t))

void io_capture_init(struct io_capture *c, const char *name, size_t limit,
                     void (*wait_turn)(void *), void *wait_user)
{
    memset(c, 0, sizeof(*c));
    c->fd = -1;
    c->limit = limit < 64 ? 64 : limit;
    c->name = name ? name : "";
    atomic_init(&c->turn, false);
    c->wait_turn = wait_turn;
    c->wait_user = wait_user;
}

void io_capture_begin(struct io_capture *c)
{
    io_cap = c;
}

void io_capture_end(void)
{
    io_cap = NULL;
    if (warn_name) {
        const char *dir = getenv("TMPDIR");

        msg_error("cannot keep the output of '%s' in a temporary file in "
                  "'%s' (%s); it waited for the files before it",
                  warn_name, dir && dir[0] ? dir : "/tmp", strerror(warn_err));
        warn_name = NULL;
    }
}

void io_capture_give_turn(struct io_capture *c)
{
    atomic_store_explicit(&c->turn, true, memory_order_release);
}

bool io_capture_empty(const struct io_capture *c)
{
    return c->len == 0 && c->spilled == 0 && !c->lost;
}

/* write(2) all of buf at the end of the spill file; the bytes written
 * count even when a later part fails.  0, or an errno. */
static int spill_write(struct io_capture *c, const char *buf, size_t n,
                       size_t *written)
{
    *written = 0;
    while (n > 0) {
        ssize_t k = write(c->fd, buf, n);

        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 && errno ? errno : EIO;
        c->spilled += (uint64_t)k;
        *written += (size_t)k;
        buf += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Move the memory held to the spill file (created the first time, in
 * $TMPDIR, and unlinked at once); 0, or an errno (the bytes not written
 * are still held). */
int io_tmp_anonymous(const char *prefix)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    int fd = -1;

    if (!dir || !dir[0])
        dir = "/tmp";
#ifdef O_TMPFILE
    /* a file without a name (Linux 3.11): nothing can be left behind,
     * whenever xiri stops */
    fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd < 0) {
        /* the file system cannot: a named one, unlinked at once */
        if ((size_t)snprintf(path, sizeof(path), "%s/%s-XXXXXX", dir,
                             prefix) >= sizeof(path)) {
            errno = ENAMETOOLONG;
            return -1;
        }
        fd = mkstemp(path);
        if (fd >= 0) {
            int saved = errno;

            unlink(path);
            errno = saved;
        }
    }
    return fd;
}

/* ------------------------------------------------- where OUT goes */

char *io_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n;
    char *d;

    if (!slash)
        return strdup(".");
    n = slash == path ? 1 : (size_t)(slash - path);
    d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/* The malloc'd path "dir/name" (name alone when it is absolute). */
static char *path_join(const char *dir, const char *name, size_t name_len)
{
    size_t dn = name_len && name[0] == '/' ? 0 : strlen(dir);
    char *p = malloc(dn + name_len + 2);

    if (!p)
        return NULL;
    if (dn) {
        memcpy(p, dir, dn);
        p[dn++] = '/';
    }
    memcpy(p + dn, name, name_len);
    p[dn + name_len] = '\0';
    return p;
}

/* Whether path is root or under it (both absolute, without "." or ".."
 * components: realpath's). */
static bool path_under(const char *path, const char *root)
{
    size_t n = strlen(root);

    return strncmp(path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* N when dir/name is /proc/PID/fd/N of this process (what /dev/stdout,
 * /dev/fd/N and /proc/self/fd/N lead to), else -1. */
static int proc_fd_number(const char *dir, const char *name)
{
    char own[64];
    long v = 0;
    const char *p;

    snprintf(own, sizeof(own), "/proc/%ld/fd", (long)getpid());
    if (strcmp(dir, own) != 0 && strcmp(dir, "/proc/self/fd") != 0)
        return -1;
    if (!name[0] || strlen(name) > 9)
        return -1;
    for (p = name; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    return (int)v;
}

int io_out_target(const char *path, struct io_out *o)
{
    char *cur, *dir = NULL, *rdir = NULL, *link = NULL;
    const char *slash, *base;
    struct stat st;
    unsigned hops;
    int err = 0;

    memset(o, 0, sizeof(*o));
    o->fd = -1;
    cur = strdup(path);
    if (!cur)
        return ENOMEM;
    for (hops = 0;; hops++) {
        if (hops > 40) {
            err = ELOOP;
            break;
        }
        if (lstat(cur, &st) != 0) {
            err = errno;
            if (err == ENOENT) {
                /* a new file: made by a rename like a regular one; a
                 * link to no file: written through (open creates the
                 * file it names) */
                err = 0;
                o->kind = hops == 0 ? IO_OUT_REPLACE : IO_OUT_DIRECT;
                o->via_link = hops > 0;
            }
            break;
        }
        if (!S_ISLNK(st.st_mode)) {
            o->via_link = hops > 0;
            o->kind = S_ISREG(st.st_mode) ? IO_OUT_REPLACE : IO_OUT_DIRECT;
            if (o->kind == IO_OUT_REPLACE) {
                o->exists = true;
                o->mode = st.st_mode & 07777;
            }
            if (o->kind == IO_OUT_REPLACE && hops > 0) {
                /* the file the links name, in its own directory; but
                 * never a file of /dev or /proc, which a rename must
                 * not replace: written directly */
                char *real = realpath(cur, NULL);
                char *rd = real ? io_dir_of(real) : NULL;

                if (!real || !rd) {
                    err = real ? ENOMEM : errno;
                    free(real);
                    break;
                }
                if (path_under(rd, "/dev") || path_under(rd, "/proc")) {
                    o->kind = IO_OUT_DIRECT;
                    free(real);
                } else {
                    free(cur);
                    cur = real;
                }
                free(rd);
            }
            break;
        }
        /* a symbolic link is never replaced: where does it lead? */
        free(dir);
        free(rdir);
        dir = io_dir_of(cur);
        rdir = dir ? realpath(dir, NULL) : NULL;
        if (!rdir) {
            err = dir ? errno : ENOMEM;
            break;
        }
        slash = strrchr(cur, '/');
        base = slash ? slash + 1 : cur;
        o->fd = proc_fd_number(rdir, base);
        if (o->fd >= 0) {
            /* /dev/stdout and the like: the descriptor itself, so that
             * a file opened for appending is appended to */
            o->kind = IO_OUT_FD;
            o->via_link = true;
            break;
        }
        if (path_under(rdir, "/proc")) {
            /* another of /proc's links names a file without being one
             * (another process's descriptor): written through as it is */
            o->kind = IO_OUT_DIRECT;
            o->via_link = true;
            break;
        }
        {
            /* st_size is the link's length (0 on some file systems) */
            size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
            ssize_t k;

            free(link);
            link = malloc(cap);
            k = link ? readlink(cur, link, cap) : -1;
            if (k < 0 || (size_t)k >= cap) {
                err = !link ? ENOMEM : k < 0 ? errno : ENAMETOOLONG;
                break;
            }
            free(cur);
            cur = path_join(rdir, link, (size_t)k);
            if (!cur) {
                err = ENOMEM;
                break;
            }
        }
    }
    free(dir);
    free(rdir);
    free(link);
    if (err) {
        free(cur);
        return err;
    }
    o->path = cur;
    return 0;
}

static int cap_spill(struct io_capture *c)
{
    size_t written;
    int err;

    c->seg_open = false; /* the next write starts a segment */
    if (c->fd < 0) {
        c->fd = io_tmp_anonymous("xiri-out");
        if (c->fd < 0)
            return errno ? errno : EIO;
    }
    err = spill_write(c, c->buf, c->len, &written);
    memmove(c->buf, c->buf + written, c->len - written);
    c->len -= written;
    return err;
}

/* The capture cannot take more: say so once, then wait for c's turn
 * and write directly (true), or, when c cannot wait, lose the rest
 * (false; reported when replayed). */
static void cap_switch(struct io_capture *c);

static bool cap_give_up(struct io_capture *c, int err)
{
    if (!c->wait_turn) {
        c->lost = true;
        return false;
    }
    c->wait_turn(c->wait_user);
    cap_switch(c);
    /* said at the end of the file's output (io_capture_end), not in the
     * middle of a line */
    if (!atomic_flag_test_and_set(&spill_warned)) {
        warn_name = c->name;
        warn_err = err;
    }
    return true;
}

/* Append s[0..n) of stream (1 stdout, 2 stderr) to this thread's
 * capture.  Returns how many bytes it took: fewer than n when the
 * thread has switched to writing directly, which the caller then does
 * with the rest. */
static size_t cap_take(int stream, const char *s, size_t n)
{
    struct io_capture *c = io_cap;
    size_t done = 0;

    if (out_failed)
        return n; /* not written: -j 1 would have stopped before it */
    if (atomic_load_explicit(&c->turn, memory_order_acquire)) {
        cap_switch(c);
        return 0;
    }
    while (done < n && !c->lost) {
        /* (separators are segments of their own) */
        bool extend = c->seg_open && c->stream == stream && stream != 3;
        size_t piece = n - done, need, seglen;
        int err;

        if (!extend && piece > c->limit - CAP_HDR)
            piece = c->limit - CAP_HDR;
        else if (extend && piece > c->limit)
            piece = c->limit;
        need = piece + (extend ? 0 : CAP_HDR);
        if (c->len + need > c->limit) {
            if (c->len > 0) {
                err = cap_spill(c);
                if (err) {
                    if (cap_give_up(c, err))
                        return done;
                    break;
                }
            }
            continue; /* again: a new segment now */
        }
        if (c->len + need > c->cap) {
            size_t nc = c->cap ? 2 * c->cap : 4096;
            char *p;

            while (nc < c->len + need)
                nc *= 2;
            if (nc > c->limit)
                nc = c->limit;
            p = realloc(c->buf, nc);
            if (!p) {
                if (cap_give_up(c, ENOMEM))
                    return done;
                break;
            }
            c->buf = p;
            c->cap = nc;
        }
        if (!extend) {
            c->seg = c->len;
            c->seg_open = true;
            c->stream = stream;
            c->buf[c->len++] = (char)stream;
            seglen = 0;
            memcpy(c->buf + c->len, &seglen, sizeof(seglen));
            c->len += sizeof(seglen);
        }
        memcpy(c->buf + c->len, s + done, piece);
        c->len += piece;
        memcpy(&seglen, c->buf + c->seg + 1, sizeof(seglen));
        seglen += piece;
        memcpy(c->buf + c->seg + 1, &seglen, sizeof(seglen));
        done += piece;
    }
    return n; /* taken, or lost */
}

static void out_flush(void);

/* Reads the captured stream: the spill file, then the memory. */
struct cap_reader {
    struct io_capture *c;
    uint64_t pos;
    int err; /* reading the spill file failed */
    char tmp[8192];
};

/* Up to max bytes at the reader's position, in *p (not consumed); 0 at
 * the end or after a read error. */
static size_t rd_peek(struct cap_reader *r, size_t max, const char **p)
{
    struct io_capture *c = r->c;

    if (r->pos < c->spilled) {
        uint64_t left = c->spilled - r->pos;
        size_t k = max < sizeof(r->tmp) ? max : sizeof(r->tmp);
        ssize_t got;

        if (k > left)
            k = (size_t)left;
        do
            got = pread(c->fd, r->tmp, k, (off_t)r->pos);
        while (got < 0 && errno == EINTR);
        if (got <= 0) {
            r->err = got < 0 && errno ? errno : EIO;
            return 0;
        }
        *p = r->tmp;
        return (size_t)got;
    }
    if (r->pos - c->spilled >= c->len)
        return 0;
    {
        size_t off = (size_t)(r->pos - c->spilled), k = c->len - off;

        *p = c->buf + off;
        return k < max ? k : max;
    }
}

/* Write what c holds (this thread owning the output; not capturing). */
static void cap_write_all(struct io_capture *c)
{
    struct cap_reader rd;
    char hdr[CAP_HDR];
    const char *p;
    size_t got, k, n;
    char last = 0;
    bool skip;

    rd.c = c;
    rd.pos = 0;
    rd.err = 0;
    for (;;) {
        for (got = 0; got < CAP_HDR; got += k) {
            k = rd_peek(&rd, CAP_HDR - got, &p);
            if (k == 0)
                break;
            memcpy(hdr + got, p, k);
            rd.pos += k;
        }
        if (got < CAP_HDR)
            break; /* the end (or an error) */
        memcpy(&n, hdr + 1, sizeof(n));
        /* after a failed stdout, what -j 1 would have written: up to the
         * end of the current message (on_link, on_diag stop there) */
        if (out_failed && hdr[0] != last)
            break;
        last = hdr[0];
        if (hdr[0] == 2)
            out_flush(); /* as msg_error does */
        /* an item's separator: written after the list's first item */
        skip = hdr[0] == 3 && !out_item_seen;
        if (hdr[0] == 3)
            out_item_seen = true;
        while (n > 0 && (k = rd_peek(&rd, n, &p)) > 0) {
            if (hdr[0] == 3) {
                if (!skip)
                    out_write(p, k);
            } else if (hdr[0] == 1)
                out_write(p, k);
            else
                fwrite(p, 1, k, stderr);
            rd.pos += k;
            n -= k;
        }
        if (n > 0)
            break; /* a read error */
    }
    if (rd.err) {
        msg_error("output of '%s' lost: cannot read it back from its "
                  "temporary file (%s)",
                  c->name, strerror(rd.err));
        atomic_store(&io_lost, true);
    }
    if (c->lost) {
        if (c->name[0])
            msg_error("output of '%s' lost: out of memory and no temporary "
                      "file",
                      c->name);
        else
            msg_error("messages lost: out of memory and no temporary file");
        atomic_store(&io_lost, true);
    }
}

/* Release the memory and the spill file of c (empty afterwards). */
static void cap_release(struct io_capture *c)
{
    free(c->buf);
    c->buf = NULL;
    c->len = c->cap = 0;
    c->seg_open = false;
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->spilled = 0;
    c->lost = false;
}

/* This thread's turn: write what it captured, then write directly. */
static void cap_switch(struct io_capture *c)
{
    io_cap = NULL;
    progress_clear(); /* the main thread drew it, then gave the turn */
    cap_write_all(c);
    cap_release(c);
    out_flush(); /* the write that switched may be a message on stderr */
}

void io_capture_replay(struct io_capture *c)
{
    cap_write_all(c);
}

void io_capture_free(struct io_capture *c)
{
    cap_release(c);
}

/* A piece of a message on stderr (or in the capture). */
static void err_write(const char *s, size_t n)
{
    size_t k = io_cap ? cap_take(2, s, n) : 0;

    if (k < n)
        fwrite(s + k, 1, n - k, stderr);
}

static void err_puts(const char *s)
{
    err_write(s, strlen(s));
}

static void err_vprintf(const char *fmt, va_list ap)
{
    char small[256], *big;
    va_list ap2;
    int n;

    va_copy(ap2, ap);
    n = vsnprintf(small, sizeof(small), fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if ((size_t)n < sizeof(small)) {
        err_write(small, (size_t)n);
        return;
    }
    big = malloc((size_t)n + 1);
    if (!big) {
        if (io_cap && !cap_give_up(io_cap, ENOMEM))
            return;
        vfprintf(stderr, fmt, ap); /* not capturing (any more) */
        return;
    }
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    err_write(big, (size_t)n);
    free(big);
}

static void err_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void err_printf(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    err_vprintf(fmt, ap);
    va_end(ap);
}

void out_write(const char *s, size_t n)
{
    if (out_failed || n == 0)
        return;
    if (io_cap) {
        size_t k = cap_take(1, s, n);

        if (k == n)
            return;
        s += k; /* this thread's turn came: the rest directly */
        n -= k;
    }
    if (out_tty < 0)
        out_tty = isatty(fileno(stdout));
    /* a block as large as out_buf (copy_to_stdout's) gains nothing from
     * it: written directly after what is buffered, not copied first */
    if (!out_tty && n < sizeof(out_buf)) {
        if (n > sizeof(out_buf) - out_len)
            out_drain();
        memcpy(out_buf + out_len, s, n);
        out_len += n;
        return;
    }
    out_drain();
    errno = 0;
    if (fwrite(s, 1, n, stdout) != n || ferror(stdout))
        out_fail();
}

void out_item(const char *sep)
{
    size_t n = strlen(sep);

    if (out_failed)
        return;
    if (io_cap && cap_take(3, sep, n) == n)
        return;
    /* this thread owns the output: everything before is written */
    if (out_item_seen)
        out_write(sep, n);
    out_item_seen = true;
}

bool out_items_reset(void)
{
    bool seen = out_item_seen;

    out_item_seen = false;
    return seen;
}

/* Room for n bytes at the end of out_buf when output goes there (not
 * failed, not captured for -j, not a terminal): the place, which the
 * caller fills and then adds n to out_len; NULL: use out_write. */
static char *out_room(size_t n)
{
    if (out_failed || io_cap || n > sizeof(out_buf))
        return NULL;
    if (out_tty < 0)
        out_tty = isatty(fileno(stdout));
    if (out_tty)
        return NULL;
    if (n > sizeof(out_buf) - out_len) {
        out_drain();
        if (out_failed)
            return NULL;
    }
    return out_buf + out_len;
}

void out_puts(const char *s)
{
    out_write(s, strlen(s));
}

void out_putc(char c)
{
    out_write(&c, 1);
}

void out_printf(const char *fmt, ...)
{
    char small[256];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        out_fail();
        return;
    }
    if ((size_t)n < sizeof(small)) {
        out_write(small, (size_t)n);
        return;
    }
    if (out_failed)
        return;
    if (io_cap) {
        char *big = malloc((size_t)n + 1);

        if (big) {
            va_start(ap, fmt);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            va_end(ap);
            out_write(big, (size_t)n);
            free(big);
            return;
        }
        if (!cap_give_up(io_cap, ENOMEM))
            return;
        /* this thread's turn: directly */
    }
    out_drain();
    va_start(ap, fmt);
    errno = 0;
    if (vfprintf(stdout, fmt, ap) < 0 || ferror(stdout))
        out_fail();
    va_end(ap);
}

/* Flush stdout, recording a failure. */
static void out_flush(void)
{
    if (io_cap)
        return; /* a worker of -j: nothing of its own to flush */
    out_drain();
    errno = 0;
    if (!out_failed && fflush(stdout) != 0)
        out_fail();
}

/* Every write to stdout (out_drain, out_write, out_printf, out_flush)
 * checks ferror(stdout) right after it and records a failure in
 * out_failed, so the flag alone says it: no stdio lock taken per call
 * (on_link asks after every link), and the workers of -j read it
 * without touching stdout. */
bool out_ok(void)
{
    return !atomic_load_explicit(&out_failed, memory_order_relaxed);
}

bool out_sync(void)
{
    out_flush();
    return out_ok();
}

int out_finish(int status)
{
    out_flush();
    if (!out_failed && ferror(stdout))
        out_fail();
    errno = 0;
    if (fclose(stdout) != 0)
        out_fail();
    if (atomic_load(&io_lost) && status < CLI_EXIT_USAGE)
        status = CLI_EXIT_USAGE; /* output of a file lost (-j) */
    if (!out_failed)
        return status;
    if (out_errno)
        msg_error("error writing to standard output: %s", strerror(out_errno));
    else
        msg_error("error writing to standard output");
    return CLI_EXIT_USAGE;
}

/* RFC 8259 section 7: '"', '\\' and U+0000-001F must be escaped; the
 * rest may stay as UTF-8.  DEL and U+2028/2029 are escaped too, so that
 * the output is also safe as JavaScript.  1: a byte kept as it is
 * (printable ASCII but '"' and '\\'); 0: one to look at (controls, '"',
 * '\\', DEL, and the bytes of UTF-8 sequences, kept when they form a
 * character other than U+2028/2029). */
static const unsigned char json_plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 10 */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 20: '"' */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 30 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 40 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 50: '\\' */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 60 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, /* 70: DEL */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 80 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 90 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* A0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* B0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* C0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* D0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* E0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* F0 */
};

/* Whether one of the 8 bytes of w is not json_plain: above 0x7F, below
 * 0x20, '"', '\\' or DEL.  Each test is the "has a zero byte" one, (x -
 * 0x01..) & ~x & 0x80.., whose yes/no answer is exact (its false marks
 * only follow a true one); for "below 0x20" x - 0x20.. is used. */
static bool json_word_mixed(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\'),
             d = w ^ (ones * 0x7F);

    return ((w | ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) |
             ((b - ones) & ~b) | ((d - ones) & ~d)) &
            high) != 0;
}

/* How many bytes at the start of s[0..n) a JSON string keeps as they
 * are (json_plain, and UTF-8 characters other than U+2028/2029): plain
 * ASCII 8 bytes at a time, the rest byte by byte. */
static size_t json_kept(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, k, end;
    uint32_t cp;
    uint64_t w;

    while (i < n) {
        end = n;
        if (n - i >= 8) {
            memcpy(&w, u + i, 8);
            if (!json_word_mixed(w)) {
                i += 8;
                continue;
            }
            end = i + 8;
        }
        while (i < end) {
            if (json_plain[u[i]]) {
                i++;
                continue;
            }
            if (u[i] < 0x80)
                return i;
            k = utf8_next(s + i, n - i, &cp);
            if (k == 0 || cp == 0x2028 || cp == 0x2029)
                return i;
            i += k;
        }
    }
    return i;
}

/* Write the one character at s[0..n) (n > 0) that json_kept stopped at,
 * escaped; returns how many bytes it took. */
static size_t json_escape_one(const char *s, size_t n)
{
    unsigned char c = (unsigned char)s[0];
    const char *esc = NULL;
    char hex[8];
    uint32_t cp;
    size_t k;

    switch (c) {
    case '"':
        esc = "\\\"";
        break;
    case '\\':
        esc = "\\\\";
        break;
    case '\b':
        esc = "\\b";
        break;
    case '\f':
        esc = "\\f";
        break;
    case '\n':
        esc = "\\n";
        break;
    case '\r':
        esc = "\\r";
        break;
    case '\t':
        esc = "\\t";
        break;
    default:
        break;
    }
    if (esc) {
        out_puts(esc);
        return 1;
    }
    if (c < 0x80) { /* the other controls and DEL */
        snprintf(hex, sizeof(hex), "\\u%04x", (unsigned)c);
        out_puts(hex);
        return 1;
    }
    k = utf8_next(s, n, &cp);
    if (k > 0) { /* U+2028 or U+2029 */
        snprintf(hex, sizeof(hex), "\\u%04x", (unsigned)cp);
        out_puts(hex);
        return k;
    }
    out_puts("\xEF\xBF\xBD"); /* U+FFFD for a stray byte */
    return 1;
}

void out_json_string(const char *s, size_t n)
{
    size_t i = json_kept(s, n), k;
    char *p;

    /* the common case, nothing to escape: one copy, quotes included */
    if (i == n && (p = out_room(n + 2)) != NULL) {
        p[0] = '"';
        memcpy(p + 1, s, n);
        p[n + 1] = '"';
        out_len += n + 2;
        return;
    }
    out_putc('"');
    for (;;) {
        out_write(s, i);
        s += i;
        n -= i;
        if (n == 0)
            break;
        k = json_escape_one(s, n);
        s += k;
        n -= k;
        i = json_kept(s, n);
    }
    out_putc('"');
}

/* Columns of s[0..n) when printed. */
static size_t text_columns(const char *s, size_t n)
{
    size_t i = 0, cols = 0;

    while (i < n) {
        uint32_t cp;
        size_t k = utf8_next(s + i, n - i, &cp);
        cols += k ? cp_columns(cp) : 1;
        i += k ? k : 1;
    }
    return cols;
}

void out_wrapped(const char *text, size_t first_col, size_t indent,
                 size_t width)
{
    size_t col = first_col, i = 0;
    bool line_empty = true;

    while (text[i]) {
        size_t start, len, cols;

        if (text[i] == '\n') {
            out_putc('\n');
            i++;
            col = 0;
            line_empty = true;
            if (text[i] && text[i] != '\n') {
                out_printf("%*s", (int)indent, "");
                col = indent;
            }
            continue;
        }
        if (text[i] == ' ') {
            i++;
            continue;
        }
        start = i;
        while (text[i] && text[i] != ' ' && text[i] != '\n')
            i++;
        len = i - start;
        cols = text_columns(text + start, len);
        if (!line_empty && col + 1 + cols > width) {
            out_putc('\n');
            out_printf("%*s", (int)indent, "");
            col = indent;
            line_empty = true;
        }
        if (line_empty && col == 0 && indent > 0) {
            out_printf("%*s", (int)indent, "");
            col = indent;
        }
        if (!line_empty) {
            out_putc(' ');
            col++;
        }
        out_write(text + start, len);
        col += cols;
        line_empty = false;
    }
    out_putc('\n');
}

/* ------------------------------------------------------------ excerpts */

/* How many characters of context an excerpt shows on each side. */
#define CONTEXT_CHARS 40

static size_t excerpt_char(const char *s, size_t n, size_t i, bool print)
{
    uint32_t cp;
    size_t k = utf8_next(s + i, n - i, &cp);
    char tmp[16];

    if (k == 0) {
        snprintf(tmp, sizeof(tmp), "\\x%02X", (unsigned)(unsigned char)s[i]);
        if (print)
            out_puts(tmp);
        return strlen(tmp);
    }
    if (cp_is_hidden(cp)) {
        snprintf(tmp, sizeof(tmp), "<U+%04X>", (unsigned)cp);
        if (print)
            out_puts(tmp);
        return strlen(tmp);
    }
    if (print)
        out_write(s + i, k);
    return cp_columns(cp);
}

static size_t excerpt_step(const char *s, size_t n, size_t i)
{
    uint32_t cp;
    size_t k = utf8_next(s + i, n - i, &cp);
    return i + (k ? k : 1);
}

void out_excerpt(const char *s, size_t n, size_t off, size_t len)
{
    size_t start, end, i, count, col = 0, span_cols = 0;

    if (off > n)
        off = n;
    if (len > n - off)
        len = n - off;
    start = off;
    /* back up at most CONTEXT_CHARS characters */
    for (count = 0; start > 0 && count < CONTEXT_CHARS; count++) {
        start--;
        while (start > 0 && ((unsigned char)s[start] & 0xC0) == 0x80)
            start--;
    }
    /* the part itself, cut after 2 * CONTEXT_CHARS characters, then up
     * to CONTEXT_CHARS more */
    end = off;
    for (count = 0; end < off + len && count < 2 * CONTEXT_CHARS; count++)
        end = excerpt_step(s, n, end);
    for (count = 0; end >= off + len && end < n && count < CONTEXT_CHARS;
         count++)
        end = excerpt_step(s, n, end);

    out_puts("    ");
    if (start > 0) {
        out_puts("...");
        col += 3;
    }
    for (i = start; i < end; i = excerpt_step(s, n, i)) {
        size_t w = excerpt_char(s, n, i, true);
        if (i < off)
            col += w;
        else if (i < off + len)
            span_cols += w;
    }
    if (end < n)
        out_puts("...");
    out_puts("\n    ");
    out_printf("%*s^", (int)col, "");
    for (i = 1; i < span_cols; i++)
        out_putc('~');
    out_putc('\n');
}

/* ------------------------------------------------------------ stderr */

void msg_text(const char *s)
{
    err_puts(s);
}

void msg_error(const char *fmt, ...)
{
    va_list ap;

    out_flush(); /* keep stdout and stderr in order on a terminal */
    err_puts(CLI_PROG ": ");
    va_start(ap, fmt);
    err_vprintf(fmt, ap);
    va_end(ap);
    err_puts("\n");
}

void msg_quoted(const char *s, size_t n)
{
    size_t i = 0;

    err_puts("'");
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t k = utf8_next(s + i, n - i, &cp);

        if (k == 0) {
            err_printf("\\x%02X", (unsigned)c);
            i++;
        } else if (cp == '\n') {
            err_puts("\\n");
            i++;
        } else if (cp == '\t') {
            err_puts("\\t");
            i++;
        } else if (cp < 0x80 && cp_is_hidden(cp)) {
            err_printf("\\x%02X", (unsigned)c);
            i++;
        } else if (cp_is_hidden(cp)) {
            err_printf("<U+%04X>", (unsigned)cp);
            i += k;
        } else {
            err_write(s + i, k);
            i += k;
        }
    }
    err_puts("'");
}

/* s[0..n) with hidden characters as <U+XXXX> and stray bytes as \xHH;
 * to stderr when fp is not NULL, else to the checked stdout. */
static void put_visible_text(FILE *fp, const char *s, size_t n)
{
    size_t i = 0, run = 0;

    while (i < n) {
        uint32_t cp;
        size_t k = utf8_next(s + i, n - i, &cp);
        char tmp[16];

        if (k > 0 && !cp_is_hidden(cp)) {
            i += k;
            continue;
        }
        if (k == 0)
            snprintf(tmp, sizeof(tmp), "\\x%02X",
                     (unsigned)(unsigned char)s[i]);
        else
            snprintf(tmp, sizeof(tmp), "<U+%04X>", (unsigned)cp);
        if (fp) {
            (void)fp;
            err_write(s + run, i - run);
            err_puts(tmp);
        } else {
            out_write(s + run, i - run);
            out_puts(tmp);
        }
        i += k ? k : 1;
        run = i;
    }
    if (fp)
        err_write(s + run, i - run);
    else
        out_write(s + run, i - run);
}

void out_visible(const char *s, size_t n)
{
    put_visible_text(NULL, s, n);
}

void msg_about(const char *where, const char *text)
{
    out_flush();
    err_printf(CLI_PROG ": %s: ", where);
    put_visible_text(stderr, text, strlen(text));
    err_puts("\n");
}

int usage_error(const char *help, const char *fmt, ...)
{
    va_list ap;

    out_flush();
    fputs(CLI_PROG ": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "; see '%s --help'\n", help);
    return CLI_EXIT_USAGE;
}

/* ------------------------------------------------------------ UTF-8 */

/* RFC 3629 section 4, the syntax of UTF-8 byte sequences:
 *   UTF8-2 = %xC2-DF UTF8-tail
 *   UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
 *            %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
 *   UTF8-4 = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
 *            %xF4 %x80-8F 2( UTF8-tail ) */
size_t utf8_next(const char *str, size_t n, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    unsigned char lo = 0x80, hi = 0xBF;
    size_t len, i;
    uint32_t v;

    if (n == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        len = 2;
        v = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        len = 3;
        v = s[0] & 0x0Fu;
        if (s[0] == 0xE0)
            lo = 0xA0; /* no overlong forms */
        else if (s[0] == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        len = 4;
        v = s[0] & 0x07u;
        if (s[0] == 0xF0)
            lo = 0x90; /* no overlong forms */
        else if (s[0] == 0xF4)
            hi = 0x8F; /* nothing above U+10FFFF */
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (i = 1; i < len; i++) {
        unsigned char b = s[i];
        if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF))
            return 0;
        v = (v << 6) | (b & 0x3Fu);
    }
    *cp = v;
    return len;
}

size_t utf8_valid_prefix(const char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        uint32_t cp;
        size_t k;

        if ((unsigned char)s[i] < 0x80) {
            i++;
            continue;
        }
        k = utf8_next(s + i, n - i, &cp);
        if (k == 0)
            return i;
        i += k;
    }
    return n;
}

bool cp_is_hidden(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0xA0 || cp == 0xAD ||
           cp == 0x061C ||                   /* ALM */
           cp == 0x1680 || cp == 0x180E ||   /* spaces */
           (cp >= 0x2000 && cp <= 0x200F) || /* spaces, ZW*, LRM, RLM */
           (cp >= 0x2028 && cp <= 0x202F) || /* LS, PS, LRE..RLO, NNBSP */
           (cp >= 0x205F && cp <= 0x206F) || /* MMSP, WJ, LRI..PDI */
           cp == 0x3000 || cp == 0xFEFF ||   /* ideographic space, BOM */
           (cp >= 0xFFF9 && cp <= 0xFFFB) || /* annotation controls */
           (cp >= 0xE0000 && cp <= 0xE007F); /* tags */
}

/* A rough terminal width: good enough to put a caret under a character
 * in a one-line excerpt; East Asian Wide and Fullwidth blocks (UAX #11)
 * take two columns, combining marks none. */
size_t cp_columns(uint32_t cp)
{
    if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x0483 && cp <= 0x0489) ||
        (cp >= 0x0591 && cp <= 0x05BD) || (cp >= 0x05BF && cp <= 0x05C7) ||
        (cp >= 0x0610 && cp <= 0x061A) || (cp >= 0x064B && cp <= 0x065F) ||
        cp == 0x0670 || (cp >= 0x06D6 && cp <= 0x06ED) ||
        (cp >= 0x0900 && cp <= 0x0903) || (cp >= 0x093A && cp <= 0x094F) ||
        (cp >= 0x1AB0 && cp <= 0x1AFF) || (cp >= 0x1DC0 && cp <= 0x1DFF) ||
        (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0x3099 && cp <= 0x309A) ||
        (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xFE20 && cp <= 0xFE2F) ||
        (cp >= 0xE0100 && cp <= 0xE01EF))
        return 0;
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
        (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
        (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
        (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
        (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2;
    return 1;
}

/* ------------------------------------------------------------ lines */

void lines_init(struct lines *l, FILE *fp)
{
    l->fp = fp;
    l->buf = NULL;
    l->cap = 0;
    l->no = 0;
}

int lines_next(struct lines *l, char **s, size_t *len)
{
    ssize_t n;

    errno = 0;
    n = getline(&l->buf, &l->cap, l->fp);
    if (n < 0) {
        if (ferror(l->fp) || !feof(l->fp)) {
            if (errno == 0)
                errno = EIO;
            return -1;
        }
        return 0;
    }
    l->no++;
    if (n > 0 && l->buf[n - 1] == '\n')
        n--;
    if (n > 0 && l->buf[n - 1] == '\r')
        n--;
    l->buf[n] = '\0';
    *s = l->buf;
    *len = (size_t)n;
    return 1;
}

void lines_free(struct lines *l)
{
    free(l->buf);
    l->buf = NULL;
    l->cap = 0;
}

/* ------------------------------------------------------------ argv */

void argscan_init(struct argscan *a, int argc, char **argv)
{
    a->argc = argc;
    a->argv = argv;
    a->i = 1;
    a->operands_only = false;
}

bool argscan_next(struct argscan *a, int *kind, const char **arg,
                  const char **name, size_t *name_len, const char **value)
{
    const char *s, *eq;

    for (;;) {
        if (a->i >= a->argc)
            return false;
        s = a->argv[a->i++];
        if (!a->operands_only && strcmp(s, "--") == 0) {
            a->operands_only = true;
            continue;
        }
        break;
    }
    *arg = s;
    *name = NULL;
    *name_len = 0;
    *value = NULL;
    if (a->operands_only || s[0] != '-' || s[1] == '\0') {
        *kind = 0;
        return true;
    }
    if (s[1] != '-') {
        *kind = 2;
        *name = s + 1;
        *name_len = strlen(s + 1);
        return true;
    }
    *kind = 1;
    *name = s + 2;
    eq = strchr(s + 2, '=');
    if (eq) {
        *name_len = (size_t)(eq - (s + 2));
        *value = eq + 1;
    } else {
        *name_len = strlen(s + 2);
    }
    return true;
}

const char *argscan_take(struct argscan *a)
{
    if (a->i >= a->argc)
        return NULL;
    return a->argv[a->i++];
}

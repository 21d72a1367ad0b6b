/* baseline.c - "xiri check --baseline FILE" and "--write-baseline FILE":
 * a file of accepted findings, keyed by file, code and value (not by line,
 * so that editing a document does not invalidate its entries), so that a
 * team can adopt xiri on a large tree and only ever see new findings.
 *
 * The format (xiri(1), BASELINE FILES): a first line "# xiri baseline 1",
 * then one line per finding, FILE TAB CODE TAB VALUE, sorted in byte order;
 * in each field TAB, LF, CR and backslash are written \t \n \r \\ and the
 * other bytes below 0x20 and 0x7F as \xHH.  Empty lines and lines starting
 * with '#' are comments.  A line given N times absorbs N findings. */
#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define BASELINE_MAGIC "# xiri baseline 1"

struct bl_entry {
    char *key;    /* the escaped line, "FILE\tCODE\tVALUE" */
    size_t count; /* findings it still absorbs (reading) or records */
};

struct baseline {
    /* -j: the workers take and add findings; each call holds it */
    pthread_mutex_t mu;
    struct bl_entry *e;
    size_t n, cap;
    bool sorted; /* e is sorted by key and each key is there once */
};

/* ------------------------------------------------------------ keys */

static bool bl_must_escape(unsigned char c)
{
    return c < 0x20 || c == 0x7F || c == '\\';
}

/* The escaped form of s[0..n) appended to out at *len (room for 4 bytes
 * per byte). */
static void bl_escape(char *out, size_t *len, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t i, k = *len;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (!bl_must_escape(c)) {
            out[k++] = (char)c;
            continue;
        }
        out[k++] = '\\';
        if (c == '\t')
            out[k++] = 't';
        else if (c == '\n')
            out[k++] = 'n';
        else if (c == '\r')
            out[k++] = 'r';
        else if (c == '\\')
            out[k++] = '\\';
        else {
            out[k++] = 'x';
            out[k++] = hex[c >> 4];
            out[k++] = hex[c & 15];
        }
    }
    *len = k;
}

/* The key of a finding, malloc'd; NULL when out of memory. */
static char *bl_key(const char *file, const char *code, const char *value,
                    size_t value_len)
{
    size_t fn = strlen(file), cn = strlen(code), len = 0;
    char *key;

    if (fn + cn > (SIZE_MAX - 3) / 4 ||
        value_len > (SIZE_MAX - 3) / 4 - fn - cn)
        return NULL;
    key = malloc(4 * (fn + cn + value_len) + 3);
    if (!key)
        return NULL;
    bl_escape(key, &len, file, fn);
    key[len++] = '\t';
    bl_escape(key, &len, code, cn);
    key[len++] = '\t';
    bl_escape(key, &len, value, value_len);
    key[len] = '\0';
    return key;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* A line of the file in canonical form (the escapes as bl_escape writes
 * them, \xhh in upper case), malloc'd in *key; or NULL with *why set. */
static char *bl_parse_line(const char *s, size_t n, const char **why)
{
    char *key = malloc(4 * n + 1);
    size_t i, len = 0, tabs = 0;

    *why = NULL;
    if (!key) {
        *why = "out of memory";
        return NULL;
    }
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int hi, lo;
        char b;

        if (c == '\t') {
            key[len++] = '\t';
            tabs++;
            continue;
        }
        if (c != '\\') {
            if (bl_must_escape(c)) {
                *why = "a control character that should be escaped as \\xHH";
                goto bad;
            }
            key[len++] = (char)c;
            continue;
        }
        if (++i == n) {
            *why = "a backslash at the end of the line";
            goto bad;
        }
        switch (s[i]) {
        case 't':
            b = '\t';
            break;
        case 'n':
            b = '\n';
            break;
        case 'r':
            b = '\r';
            break;
        case '\\':
            b = '\\';
            break;
        case 'x':
            if (i + 2 >= n || (hi = hexval(s[i + 1])) < 0 ||
                (lo = hexval(s[i + 2])) < 0) {
                *why = "'\\x' not followed by two hexadecimal digits";
                goto bad;
            }
            i += 2;
            b = (char)(hi * 16 + lo);
            break;
        default:
            *why = "an unknown escape (only \\t \\n \\r \\\\ and \\xHH are "
                   "known)";
            goto bad;
        }
        bl_escape(key, &len, &b, 1);
    }
    if (tabs != 2) {
        *why = tabs < 2 ? "fewer than 3 fields separated by TABs (FILE, "
                          "CODE, VALUE)"
                        : "more than 3 fields separated by TABs (FILE, "
                          "CODE, VALUE; a TAB in a value is written \\t)";
        goto bad;
    }
    key[len] = '\0';
    return key;
bad:
    free(key);
    return NULL;
}

/* ------------------------------------------------------------ the set */

static int bl_cmp(const void *a, const void *b)
{
    return strcmp(((const struct bl_entry *)a)->key,
                  ((const struct bl_entry *)b)->key);
}

struct baseline *baseline_new(void)
{
    struct baseline *b = calloc(1, sizeof(*b));

    if (b)
        pthread_mutex_init(&b->mu, NULL);
    return b;
}

void baseline_free(struct baseline *b)
{
    size_t i;

    if (!b)
        return;
    for (i = 0; i < b->n; i++)
        free(b->e[i].key);
    free(b->e);
    pthread_mutex_destroy(&b->mu);
    free(b);
}

/* Append key (taken over) with count 1; -1 when out of memory (key is
 * freed). */
static int bl_push(struct baseline *b, char *key)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        struct bl_entry *p = realloc(b->e, cap * sizeof(*p));

        if (!p) {
            free(key);
            return -1;
        }
        b->e = p;
        b->cap = cap;
    }
    b->e[b->n].key = key;
    b->e[b->n].count = 1;
    b->n++;
    b->sorted = false;
    return 0;
}

/* Sort and fold equal keys into counts. */
static void bl_fold(struct baseline *b)
{
    size_t i, k = 0;

    if (b->sorted)
        return;
    if (b->n > 1)
        qsort(b->e, b->n, sizeof(*b->e), bl_cmp);
    for (i = 0; i < b->n; i++) {
        if (k > 0 && strcmp(b->e[k - 1].key, b->e[i].key) == 0) {
            b->e[k - 1].count += b->e[i].count;
            free(b->e[i].key);
            continue;
        }
        b->e[k++] = b->e[i];
    }
    b->n = k;
    b->sorted = true;
}

int baseline_add(struct baseline *b, const char *file, const char *code,
                 const char *value, size_t value_len)
{
    char *key = bl_key(file, code, value ? value : "", value ? value_len : 0);
    int st;

    if (!key)
        return -1;
    pthread_mutex_lock(&b->mu);
    st = bl_push(b, key);
    pthread_mutex_unlock(&b->mu);
    return st;
}

int baseline_take(struct baseline *b, const char *file, const char *code,
                  const char *value, size_t value_len)
{
    struct bl_entry probe, *hit;
    char *key = bl_key(file, code, value ? value : "", value ? value_len : 0);

    int got = 0;

    if (!key)
        return -1;
    pthread_mutex_lock(&b->mu);
    bl_fold(b);
    probe.key = key;
    probe.count = 0;
    hit = b->n ? bsearch(&probe, b->e, b->n, sizeof(*b->e), bl_cmp) : NULL;
    if (hit && hit->count > 0) {
        hit->count--;
        got = 1;
    }
    pthread_mutex_unlock(&b->mu);
    free(key);
    return got;
}

/* ------------------------------------------------------------ the file */

int baseline_read(const char *path, struct baseline **out)
{
    struct baseline *b;
    struct lines l;
    FILE *fp;
    char *s;
    size_t len;
    int got;

    *out = NULL;
    errno = 0;
    fp = fopen(path, "rb");
    if (!fp) {
        msg_error("%s: cannot open the baseline: %s (make one with 'xiri "
                  "check --write-baseline %s FILE...')",
                  path, strerror(errno ? errno : EIO), path);
        return CLI_EXIT_USAGE;
    }
    b = baseline_new();
    if (!b) {
        fclose(fp);
        msg_error("out of memory");
        return CLI_EXIT_USAGE;
    }
    lines_init(&l, fp);
    while ((got = lines_next(&l, &s, &len)) > 0) {
        const char *why;
        char *key;

        if (l.no == 1) {
            if (len != strlen(BASELINE_MAGIC) ||
                memcmp(s, BASELINE_MAGIC, len) != 0) {
                msg_error("%s:1: not a xiri baseline: the first line is not "
                          "'" BASELINE_MAGIC "' (give the file "
                          "--write-baseline wrote)",
                          path);
                goto fail;
            }
            continue;
        }
        if (len == 0 || s[0] == '#')
            continue;
        key = bl_parse_line(s, len, &why);
        if (!key) {
            msg_error("%s:%zu: malformed baseline line: %s; fix the line or "
                      "write the baseline again with --write-baseline",
                      path, l.no, why);
            goto fail;
        }
        if (bl_push(b, key) != 0) {
            msg_error("out of memory");
            goto fail;
        }
    }
    if (got < 0) {
        msg_error("%s: error reading the baseline: %s", path,
                  strerror(errno ? errno : EIO));
        goto fail;
    }
    if (l.no == 0) {
        msg_error("%s: the baseline is empty: not even its first line "
                  "'" BASELINE_MAGIC "' (give the file --write-baseline wrote)",
                  path);
        goto fail;
    }
    lines_free(&l);
    fclose(fp);
    bl_fold(b);
    *out = b;
    return 0;
fail:
    lines_free(&l);
    fclose(fp);
    baseline_free(b);
    return CLI_EXIT_USAGE;
}

static const char bl_header[] = BASELINE_MAGIC
    "\n"
    "# Findings of 'xiri check' accepted for now: FILE, CODE and VALUE\n"
    "# separated by TABs, one line per finding, sorted; see xiri(1),\n"
    "# BASELINE FILES.  Update: xiri check --baseline F --write-baseline "
    "F\n";

/* The baseline's lines into fp. */
static void bl_put(const struct baseline *b, FILE *fp)
{
    size_t i, k;

    fputs(bl_header, fp);
    for (i = 0; i < b->n; i++)
        for (k = 0; k < b->e[i].count; k++) {
            fputs(b->e[i].key, fp);
            fputc('\n', fp);
        }
}

/* FILE that is not a regular file (a device, a pipe, /dev/stdout):
 * written directly, through a descriptor it names (fd >= 0) or opened. */
static int bl_write_direct(struct baseline *b, const char *path, int fd)
{
    size_t i, k;
    FILE *fp;
    int err = 0;

    if (fd == STDOUT_FILENO) {
        /* after the findings, in the same stream */
        out_puts(bl_header);
        for (i = 0; i < b->n; i++)
            for (k = 0; k < b->e[i].count; k++) {
                out_puts(b->e[i].key);
                out_putc('\n');
            }
        return 0; /* a write error is out_finish's */
    }
    errno = 0;
    if (fd >= 0) {
        int d = dup(fd);

        fp = d >= 0 ? fdopen(d, "ab") : NULL;
        if (!fp && d >= 0)
            close(d);
    } else {
        fp = fopen(path, "wb");
    }
    if (!fp) {
        err = errno;
        msg_error("%s: cannot write the baseline: %s", path,
                  strerror(err ? err : EIO));
        return CLI_EXIT_USAGE;
    }
    bl_put(b, fp);
    errno = 0;
    if (fflush(fp) != 0 || ferror(fp))
        err = errno ? errno : EIO;
    errno = 0;
    if (fclose(fp) != 0 && !err)
        err = errno ? errno : EIO;
    if (err) {
        msg_error("%s: cannot write the baseline: write error: %s", path,
                  strerror(err));
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Write to a temporary file next to path, then rename it over path, so
 * that a reader sees the old baseline or the new one, never a part.  A
 * symbolic link stays a link: the file it names is replaced (io.c,
 * io_out_target); a FILE that is not a regular file is written
 * directly. */
int baseline_write(struct baseline *b, const char *path)
{
    struct io_out oo;
    const char *slash;
    size_t dn;
    char *tmp;
    const char *what = NULL;
    FILE *fp = NULL;
    int fd, err = 0;

    bl_fold(b);
    err = io_out_target(path, &oo);
    if (err) {
        msg_error("%s: cannot write the baseline: %s", path, strerror(err));
        return CLI_EXIT_USAGE;
    }
    if (oo.kind != IO_OUT_REPLACE) {
        int st = bl_write_direct(b, path, oo.kind == IO_OUT_FD ? oo.fd : -1);

        free(oo.path);
        return st;
    }
    slash = strrchr(oo.path, '/');
    dn = slash ? (size_t)(slash - oo.path) + 1 : 0;
    tmp = malloc(dn + 32);
    if (!tmp) {
        free(oo.path);
        msg_error("out of memory");
        return CLI_EXIT_USAGE;
    }
    memcpy(tmp, oo.path, dn);
    memcpy(tmp + dn, ".xiri-baseline-XXXXXX", sizeof(".xiri-baseline-XXXXXX"));
    errno = 0;
    fd = mkstemp(tmp);
    if (fd < 0) {
        err = errno;
        msg_error("%s: cannot write the baseline: cannot create a temporary "
                  "file in its directory: %s (the old file, if any, is "
                  "unchanged)",
                  path, strerror(err ? err : EIO));
        free(tmp);
        free(oo.path);
        return CLI_EXIT_USAGE;
    }
    /* mkstemp makes it 0600: give it the mode of the file it replaces,
     * or what a new file gets (0666 less the umask) */
    {
        mode_t mode, mask = umask(0);

        umask(mask);
        mode = oo.exists ? (mode_t)oo.mode : 0666 & ~mask;
        if (fchmod(fd, mode) != 0) {
            err = errno;
            close(fd);
            what = "cannot set the temporary file's mode";
            goto fail;
        }
    }
    fp = fdopen(fd, "wb");
    if (!fp) {
        err = errno;
        close(fd);
        what = "cannot open the temporary file";
        goto fail;
    }
    bl_put(b, fp);
    errno = 0;
    if (fflush(fp) != 0 || ferror(fp) || fsync(fileno(fp)) != 0) {
        err = errno;
        fclose(fp);
        what = "write error";
        goto fail;
    }
    errno = 0;
    if (fclose(fp) != 0) {
        err = errno;
        what = "write error";
        goto fail;
    }
    errno = 0;
    if (rename(tmp, oo.path) != 0) {
        err = errno;
        what = "cannot rename the temporary file into place";
        goto fail;
    }
    free(tmp);
    free(oo.path);
    return 0;
fail:
    msg_error("%s: cannot write the baseline: %s: %s (the old file, if any, "
              "is unchanged)",
              path, what, strerror(err ? err : EIO));
    unlink(tmp);
    free(tmp);
    free(oo.path);
    return CLI_EXIT_USAGE;
}

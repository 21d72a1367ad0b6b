/* jobs.c - -j N: the files of check, links and rewrite processed by a
 * pool of threads, with the output the same, byte for byte, as with -j 1.
 *
 * The queue holds the files in the order of the output, with "gaps"
 * between them for what the main thread writes meanwhile (messages about
 * the inputs).  The file at the head of the queue, every entry before it
 * written, is given its turn: its worker writes directly, so that a big
 * document's output streams.  The files after it are captured (io.c,
 * struct io_capture: stdout and stderr in the order written), in memory
 * up to a limit and beyond it in an unlinked temporary file, and written
 * by the main thread once the entries before them are; if their worker
 * is still running then, it is given the turn instead: it writes what it
 * captured and goes on directly.  While a worker has the turn, the main
 * thread writes nothing (its messages go into a gap, and it draws the
 * progress bar only right after writing an entry), so that stdout and
 * stderr have one writer at a time. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Files queued ahead of the output, per thread. */
#define JOBS_AHEAD 4

/* Bytes of a file's output held in memory before the rest goes to a
 * temporary file; $XIRI_TEST_CAPTURE_LIMIT (for tests, HACKING.md) sets
 * another value. */
#define JOBS_CAPTURE_LIMIT ((size_t)1 << 20)

/* One entry of the queue, in the order of the output: a file, or a gap
 * holding what the main thread wrote between two files. */
struct job {
    struct job *next;
    struct jobs *j;
    char *path;   /* NULL for a gap */
    size_t seq;   /* the file's number (jobs_file_fn) */
    bool started; /* taken by a worker */
    bool done;    /* its output is complete */
    bool turn;    /* given its turn (cap.turn set) */
    bool has_id;  /* dev and ino are the file's (stat worked) */
    dev_t dev;
    ino_t ino;
    struct io_capture cap;
};

struct jobs {
    pthread_mutex_t mu;
    pthread_cond_t work; /* a file was queued, or the end */
    pthread_cond_t done; /* a file is done */
    pthread_cond_t turn; /* a file was given its turn */
    struct job *head, *tail; /* the queue, head next to be written */
    struct job *gap;         /* the gap the main thread writes into */
    size_t inflight;         /* files queued, not yet written */
    size_t ahead;            /* the most files in flight */
    size_t limit;            /* of each capture's memory */
    size_t submitted;        /* files given to jobs_submit */
    bool closing;
    jobs_file_fn *fn;
    void *main_user;
    unsigned n;
    pthread_t *threads;
    struct worker {
        struct jobs *j;
        void *user;
    } *workers;
};

unsigned jobs_parse(const char *usage, const char *value, int *status)
{
    char *end;
    long v;

    *status = 0;
    if (!value || !*value) {
        v = sysconf(_SC_NPROCESSORS_ONLN);
        return v < 1 ? 1 : v > 256 ? 256 : (unsigned)v;
    }
    errno = 0;
    v = strtol(value, &end, 10);
    if (*end || errno || v < 1 || v > 256) {
        *status = usage_error(usage,
                              "invalid value '%s' for -j; use a number of "
                              "threads from 1 to 256",
                              value);
        return 0;
    }
    return (unsigned)v;
}

const struct opt_keyword kw_parse_thread[] = {
    {"auto", PARSE_THREAD_AUTO},
    {"always", PARSE_THREAD_ALWAYS},
    {"never", PARSE_THREAD_NEVER},
    {NULL, 0},
};

/* auto: the second CPU is the parser's only when no other file can have
 * it (-j gives each CPU a file of its own when there are several). */
bool parse_thread_wanted(enum parse_thread when, const char *const *files,
                         size_t nfiles, bool many)
{
    struct stat st;

    if (when != PARSE_THREAD_AUTO)
        return when == PARSE_THREAD_ALWAYS;
    if (many || nfiles != 1 || sysconf(_SC_NPROCESSORS_ONLN) < 2)
        return false;
    return strcmp(files[0], "-") == 0 ||
           (stat(files[0], &st) == 0 && !S_ISDIR(st.st_mode));
}

/* Whether a and b are one file: the same device and inode (a.html and
 * ./a.html, two links to it), or the same name when stat failed. */
static bool job_same_file(const struct job *a, const struct job *b)
{
    if (a->has_id && b->has_id)
        return a->dev == b->dev && a->ino == b->ino;
    return strcmp(a->path, b->path) == 0;
}

/* Whether jb may start (the mutex held): not while an entry before it
 * names the same file and is not done.  A file given twice (say by "-r
 * site site/blog", or as a.html and ./a.html) is then processed twice in
 * turn, as with -j 1: the second run of an in-place rewrite reads what
 * the first wrote, and a --baseline entry absorbs the finding of the
 * first. */
static bool job_may_start(const struct jobs *j, const struct job *jb)
{
    const struct job *e;

    for (e = j->head; e != jb; e = e->next)
        if (e->path && !e->done && job_same_file(e, jb))
            return false;
    return true;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct jobs *j = w->j;
    struct job *jb;

    pthread_mutex_lock(&j->mu);
    for (;;) {
        for (jb = j->head; jb; jb = jb->next)
            if (jb->path && !jb->started && job_may_start(j, jb))
                break;
        if (!jb) {
            if (j->closing)
                break;
            pthread_cond_wait(&j->work, &j->mu);
            continue;
        }
        jb->started = true;
        pthread_mutex_unlock(&j->mu);
        io_capture_begin(&jb->cap);
        j->fn(w->user, jb->path, jb->seq);
        io_capture_end();
        pthread_mutex_lock(&j->mu);
        jb->done = true;
        pthread_cond_broadcast(&j->done);
        /* a file waiting for this one (job_may_start) may go now */
        pthread_cond_broadcast(&j->work);
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

/* Write and free the entries at the head that are done (the mutex held;
 * released while writing), then give the file at the head its turn. */
static void jobs_emit(struct jobs *j)
{
    while (j->head && j->head->done) {
        struct job *jb = j->head;

        j->head = jb->next;
        if (!j->head)
            j->tail = NULL;
        if (jb->path)
            j->inflight--;
        pthread_mutex_unlock(&j->mu);
        if (out_ok()) {
            /* (stdout failed: -j 1 would have stopped before this) */
            if (!io_capture_empty(&jb->cap))
                progress_clear();
            io_capture_replay(&jb->cap);
        }
        if (jb->path)
            progress_done(jb->path);
        io_capture_free(&jb->cap);
        free(jb->path);
        free(jb);
        pthread_mutex_lock(&j->mu);
    }
    /* (an open gap at the head is the main thread's own) */
    if (j->head && j->head->path && !j->head->turn) {
        j->head->turn = true;
        io_capture_give_turn(&j->head->cap);
        pthread_cond_broadcast(&j->turn);
    }
}

/* Write everything queued (the mutex held): the main thread may then
 * write directly. */
static void jobs_drain(struct jobs *j)
{
    while (j->head) {
        jobs_emit(j);
        if (j->head)
            pthread_cond_wait(&j->done, &j->mu);
    }
}

/* A worker's capture cannot grow (no memory, no temporary file): wait
 * for its turn, then it writes directly. */
static void job_wait_turn(void *user)
{
    struct job *jb = user;
    struct jobs *j = jb->j;

    pthread_mutex_lock(&j->mu);
    while (!jb->turn)
        pthread_cond_wait(&j->turn, &j->mu);
    pthread_mutex_unlock(&j->mu);
}

static void jobs_append(struct jobs *j, struct job *jb)
{
    if (j->tail)
        j->tail->next = jb;
    else
        j->head = jb;
    j->tail = jb;
}

/* Close the main thread's gap (mutex held). */
static void gap_close(struct jobs *j)
{
    if (j->gap) {
        io_capture_end();
        j->gap->done = true;
        j->gap = NULL;
    }
}

/* Open a new gap for what the main thread writes next (mutex held). */
static void gap_open(struct jobs *j)
{
    struct job *g = calloc(1, sizeof(*g));

    if (!g) {
        /* the main thread's messages are then written at once, in order */
        jobs_drain(j);
        return;
    }
    g->j = j;
    io_capture_init(&g->cap, NULL, j->limit, NULL, NULL);
    jobs_append(j, g);
    j->gap = g;
    io_capture_begin(&g->cap);
}

struct jobs *jobs_start(unsigned n, jobs_file_fn *fn, void *const *users,
                        void *main_user)
{
    struct jobs *j = calloc(1, sizeof(*j));
    const char *env = getenv("XIRI_TEST_CAPTURE_LIMIT");
    unsigned i;

    if (!j)
        return NULL;
    j->threads = calloc(n, sizeof(*j->threads));
    j->workers = calloc(n, sizeof(*j->workers));
    if (!j->threads || !j->workers) {
        free(j->threads);
        free(j->workers);
        free(j);
        return NULL;
    }
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->work, NULL);
    pthread_cond_init(&j->done, NULL);
    pthread_cond_init(&j->turn, NULL);
    j->fn = fn;
    j->main_user = main_user;
    j->ahead = (size_t)n * JOBS_AHEAD;
    j->limit = env && *env ? (size_t)strtoul(env, NULL, 10)
                           : JOBS_CAPTURE_LIMIT;
    for (i = 0; i < n; i++) {
        j->workers[i].j = j;
        j->workers[i].user = users[i];
        if (pthread_create(&j->threads[i], NULL, worker_main,
                           &j->workers[i]) != 0)
            break;
        j->n++;
    }
    if (j->n == 0) {
        jobs_finish(j);
        return NULL;
    }
    pthread_mutex_lock(&j->mu);
    gap_open(j);
    pthread_mutex_unlock(&j->mu);
    return j;
}

/* Process path in the main thread, once everything before it is written
 * (mutex held; released meanwhile). */
static void jobs_here(struct jobs *j, const char *path, size_t seq)
{
    jobs_drain(j);
    pthread_mutex_unlock(&j->mu);
    j->fn(j->main_user, path, seq);
    progress_done(path);
    pthread_mutex_lock(&j->mu);
    gap_open(j);
}

void jobs_submit(struct jobs *j, const char *path)
{
    struct job *jb;
    struct stat sb;
    size_t seq;
    /* outside the lock: the workers need not wait for it */
    bool has_id = strcmp(path, "-") != 0 && stat(path, &sb) == 0;

    progress_found();
    pthread_mutex_lock(&j->mu);
    gap_close(j);
    seq = j->submitted++;
    if (strcmp(path, "-") == 0) {
        /* the standard input is read by the main thread */
        jobs_here(j, path, seq);
        pthread_mutex_unlock(&j->mu);
        return;
    }
    jb = calloc(1, sizeof(*jb));
    if (jb) {
        jb->j = j;
        jb->seq = seq;
        jb->path = strdup(path);
        if (has_id) {
            jb->has_id = true;
            jb->dev = sb.st_dev;
            jb->ino = sb.st_ino;
        }
        io_capture_init(&jb->cap, jb->path, j->limit, job_wait_turn, jb);
    }
    if (!jb || !jb->path) {
        /* no room to queue it: process it here */
        free(jb);
        jobs_here(j, path, seq);
        pthread_mutex_unlock(&j->mu);
        return;
    }
    jobs_append(j, jb);
    j->inflight++;
    pthread_cond_signal(&j->work);
    jobs_emit(j);
    while (j->inflight >= j->ahead) {
        pthread_cond_wait(&j->done, &j->mu);
        jobs_emit(j);
    }
    gap_open(j);
    pthread_mutex_unlock(&j->mu);
}

void jobs_finish(struct jobs *j)
{
    unsigned i;

    pthread_mutex_lock(&j->mu);
    gap_close(j);
    jobs_drain(j);
    j->closing = true;
    pthread_cond_broadcast(&j->work);
    pthread_mutex_unlock(&j->mu);
    for (i = 0; i < j->n; i++)
        pthread_join(j->threads[i], NULL);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->work);
    pthread_cond_destroy(&j->done);
    pthread_cond_destroy(&j->turn);
    free(j->threads);
    free(j->workers);
    free(j);
}

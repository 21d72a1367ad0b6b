/* pipe.c - the parser thread and the two queues between it and the
 * caller's thread (pipe.h): jobs (text to parse) one way, batches of
 * records the other.
 *
 * Both queues are rings guarded by one mutex.  A job's text is a copy
 * in one of PIPE_JOBS buffers W keeps for the next jobs (the parser
 * thread frees one grown past PIPE_BATCH once parsed).  Batches are
 * nslots buffers of at least PIPE_BATCH bytes used in turn: the parser
 * writes into slot pub % nslots, W reads slots con .. pub - 1; the
 * parser may start a slot only while pub - con < nslots, so a record
 * never moves and never is overwritten before W has read it.  A job's
 * last batch is published before the job counts as done, so W, finding
 * no batch and every job done, knows that nothing more will come. */
#include "pipe.h"
#include "mem.h"

#include <pthread.h>
#include <stdatomic.h>

#define PIPE_JOBS 3
#define PIPE_SLOTS 6
#define PIPE_BATCH (64 * 1024)
/* the text of the jobs not parsed yet, at most (but one job, whatever its
 * size: a start tag may be 16 MiB), so that big tags are not held three
 * times over */
#define PIPE_INFLIGHT ((size_t)1 << 20)

struct batch {
    char *data;
    size_t len, cap;
};

struct job {
    char *data; /* the copy (threaded), or the caller's text */
    size_t len, end;
    bool final;
};

/* The fields each thread writes often are kept apart from the fields
 * the other reads (a cache line written by one core and read by the
 * other goes back and forth between them). */
#define PIPE_LINE 64

struct pipe {
    struct pipe_head h; /* first (pipe.h): the parser thread's */
    char pad_h[PIPE_LINE];
    /* set by pipe_new */
    pipe_parse_fn *fn;
    void *user;
    bool threaded;
    size_t batch; /* PIPE_BATCH, or less (pipe_set_batch) */
    pthread_t thread;
    char pad0[PIPE_LINE];
    /* the parser thread's: the batch it writes (its len is h.at's
     * place in it, set when it is published) */
    struct batch *cur;
    char pad1[PIPE_LINE];
    /* under mu */
    pthread_mutex_t mu;
    pthread_cond_t to_parser, to_walker;
    struct job jobs[PIPE_JOBS];
    size_t jobs_given, jobs_done; /* jobs[i % PIPE_JOBS] */
    size_t inflight;              /* their text's bytes not parsed yet */
    struct batch *slots;
    size_t nslots;
    size_t pub, con; /* batches published and read back */
    bool quit;
    char pad2[PIPE_LINE];
    /* W's: the copies of the jobs' text, kept for the next jobs */
    char *copy[PIPE_JOBS];
    size_t copy_cap[PIPE_JOBS];
    char pad3[PIPE_LINE];
};

static void lock(struct pipe *p)
{
    if (p->threaded)
        pthread_mutex_lock(&p->mu);
}

static void unlock(struct pipe *p)
{
    if (p->threaded)
        pthread_mutex_unlock(&p->mu);
}

/* Parser thread: the bytes recorded in the batch it writes. */
static size_t cursor_len(const struct pipe *p)
{
    return p->h.at ? (size_t)(p->h.at - p->cur->data) : 0;
}

/* Parser thread: write into batch b from its start. */
static void cursor_to(struct pipe *p, struct batch *b)
{
    p->cur = b;
    b->len = 0;
    p->h.at = b->data;
    p->h.end = b->data ? b->data + b->cap : NULL;
}

/* Parser thread: make the batch written so far readable by W, and wait
 * until the next slot is free.  Without a thread there is no waiting:
 * the slots grow instead (pub never passes nslots: pipe_job starts from
 * slot 0 again once W has read them all). */
static bool publish(struct pipe *p)
{
    size_t len = cursor_len(p); /* (before the slots may move) */
    bool ok = true;

    lock(p);
    if (!p->threaded && p->pub + 1 == p->nslots) {
        /* (grown before the batch counts: on failure it is not read) */
        struct batch *s =
            mem_realloc(p->slots, 2 * p->nslots * sizeof(*p->slots));
        if (!s) {
            unlock(p);
            return false;
        }
        memset(s + p->nslots, 0, p->nslots * sizeof(*s));
        p->slots = s;
        p->nslots *= 2;
    }
    p->slots[p->pub % p->nslots].len = len;
    p->pub++;
    if (p->threaded) {
        pthread_cond_signal(&p->to_walker);
        while (p->pub - p->con >= p->nslots && !p->quit)
            pthread_cond_wait(&p->to_parser, &p->mu);
        ok = !p->quit;
    }
    if (ok)
        cursor_to(p, &p->slots[p->pub % p->nslots]);
    unlock(p);
    return ok;
}

/* (pipe_record when the batch has no room for n bytes, or no buffer) */
void *pipe_record_next(struct pipe *p, size_t n)
{
    struct batch *b = p->cur;
    size_t len = cursor_len(p);

    if (len > 0 && n > b->cap - len) {
        if (!publish(p)) {
            atomic_store(&p->h.failed, true);
            return NULL;
        }
        b = p->cur;
        len = 0;
    }
    if (n > b->cap - len) {
        /* an empty slot, too small for this record (or never used, or
         * freed by pipe_batch_done) */
        size_t cap = n > p->batch ? n : p->batch;
        char *d = mem_alloc(cap);
        if (!d) {
            atomic_store(&p->h.failed, true);
            return NULL;
        }
        mem_free(b->data);
        b->data = d;
        b->cap = cap; /* (len is 0 here) */
    }
    p->h.at = b->data + len + n;
    p->h.end = b->data + b->cap;
    return b->data + len;
}

/* Parse one job (either thread) and publish what it recorded. */
static void run_job(struct pipe *p, const struct job *j)
{
    if (!pipe_stopped(p)) {
        p->fn(p->user, j->data, j->len, j->final, j->end);
        if (cursor_len(p) > 0 && !publish(p))
            atomic_store(&p->h.failed, true);
    }
}

static void *parser_main(void *arg)
{
    struct pipe *p = arg;

    pthread_mutex_lock(&p->mu);
    for (;;) {
        struct job j;

        while (p->jobs_done == p->jobs_given && !p->quit)
            pthread_cond_wait(&p->to_parser, &p->mu);
        if (p->quit)
            break;
        j = p->jobs[p->jobs_done % PIPE_JOBS];
        pthread_mutex_unlock(&p->mu);
        run_job(p, &j);
        pthread_mutex_lock(&p->mu);
        if (j.len > PIPE_BATCH) {
            /* a big tag's copy is not kept (W makes the next) */
            size_t i = p->jobs_done % PIPE_JOBS;
            mem_free(p->copy[i]);
            p->copy[i] = NULL;
            p->copy_cap[i] = 0;
        }
        p->jobs_done++;
        p->inflight -= j.len;
        pthread_cond_signal(&p->to_walker);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

enum xiri_status pipe_new(pipe_parse_fn *fn, void *user, bool threaded,
                          struct pipe **out)
{
    struct pipe *p = mem_alloc(sizeof(*p));

    *out = NULL;
    if (!p)
        return XIRI_ENOMEM;
    memset(p, 0, sizeof(*p));
    p->fn = fn;
    p->user = user;
    p->nslots = PIPE_SLOTS;
    p->batch = PIPE_BATCH;
    p->slots = mem_alloc(p->nslots * sizeof(*p->slots));
    if (!p->slots) {
        mem_free(p);
        return XIRI_ENOMEM;
    }
    memset(p->slots, 0, p->nslots * sizeof(*p->slots));
    cursor_to(p, &p->slots[0]);
    atomic_init(&p->h.stop, false);
    atomic_init(&p->h.failed, false);
    if (threaded) {
        if (pthread_mutex_init(&p->mu, NULL) != 0)
            goto no_thread;
        if (pthread_cond_init(&p->to_parser, NULL) != 0) {
            pthread_mutex_destroy(&p->mu);
            goto no_thread;
        }
        if (pthread_cond_init(&p->to_walker, NULL) != 0) {
            pthread_cond_destroy(&p->to_parser);
            pthread_mutex_destroy(&p->mu);
            goto no_thread;
        }
        p->threaded = true;
        if (pthread_create(&p->thread, NULL, parser_main, p) != 0) {
            p->threaded = false;
            pthread_cond_destroy(&p->to_walker);
            pthread_cond_destroy(&p->to_parser);
            pthread_mutex_destroy(&p->mu);
            goto no_thread;
        }
    }
    *out = p;
    return XIRI_OK;
no_thread:
    mem_free(p->slots);
    mem_free(p);
    return XIRI_EINVAL;
}

void pipe_free(struct pipe *p)
{
    size_t i;

    if (!p)
        return;
    if (p->threaded) {
        atomic_store(&p->h.stop, true);
        pthread_mutex_lock(&p->mu);
        p->quit = true;
        pthread_cond_broadcast(&p->to_parser);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->thread, NULL);
        for (i = 0; i < PIPE_JOBS; i++)
            mem_free(p->copy[i]);
        pthread_cond_destroy(&p->to_walker);
        pthread_cond_destroy(&p->to_parser);
        pthread_mutex_destroy(&p->mu);
    }
    for (i = 0; i < p->nslots; i++)
        mem_free(p->slots[i].data);
    mem_free(p->slots);
    mem_free(p);
}

enum xiri_status pipe_job(struct pipe *p, const char *data, size_t len,
                          bool final, size_t end)
{
    struct job j = {.data = NULL, .len = len, .end = end, .final = final};
    size_t i;

    if (!p->threaded) {
        /* when every batch before has been read, from slot 0 again
         * (else after them: publish grows the slots) */
        if (p->con == p->pub) {
            p->pub = p->con = 0;
            cursor_to(p, &p->slots[0]);
        }
        j.data = (char *)(uintptr_t)data;
        run_job(p, &j);
        p->jobs_given++;
        p->jobs_done++;
        return XIRI_OK;
    }
    pthread_mutex_lock(&p->mu);
    while (p->jobs_given - p->jobs_done >= PIPE_JOBS)
        pthread_cond_wait(&p->to_walker, &p->mu);
    pthread_mutex_unlock(&p->mu);
    /* the place is free: the parser is done with the job it held (and
     * freed a copy bigger than PIPE_BATCH) */
    i = p->jobs_given % PIPE_JOBS;
    if (len > p->copy_cap[i]) {
        size_t cap = len > PIPE_BATCH ? len : PIPE_BATCH;
        char *d = mem_alloc(cap);
        if (!d)
            return XIRI_ENOMEM;
        mem_free(p->copy[i]);
        p->copy[i] = d;
        p->copy_cap[i] = cap;
    }
    if (len)
        memcpy(p->copy[i], data, len);
    j.data = p->copy[i];
    pthread_mutex_lock(&p->mu);
    p->jobs[i] = j;
    p->jobs_given++;
    p->inflight += len;
    pthread_cond_signal(&p->to_parser);
    pthread_mutex_unlock(&p->mu);
    return XIRI_OK;
}

bool pipe_job_room(struct pipe *p, size_t len)
{
    bool room;

    lock(p);
    room = p->jobs_given == p->jobs_done ||
           (p->jobs_given - p->jobs_done < PIPE_JOBS &&
            p->inflight + len <= PIPE_INFLIGHT);
    unlock(p);
    return room;
}

const char *pipe_batch(struct pipe *p, bool wait, size_t *len)
{
    const struct batch *b;

    lock(p);
    while (p->con == p->pub) {
        if (!wait || p->jobs_done == p->jobs_given || !p->threaded) {
            unlock(p);
            *len = 0;
            return NULL;
        }
        pthread_cond_wait(&p->to_walker, &p->mu);
    }
    b = &p->slots[p->con % p->nslots];
    unlock(p);
    *len = b->len;
    return b->data;
}

void pipe_batch_done(struct pipe *p)
{
    struct batch *b;

    lock(p);
    b = &p->slots[p->con % p->nslots];
    if (b->cap > PIPE_BATCH) {
        /* grown for a big record: not kept (W still owns the slot) */
        mem_free(b->data);
        b->data = NULL;
        b->cap = b->len = 0;
    }
    p->con++;
    if (p->threaded)
        pthread_cond_signal(&p->to_parser);
    unlock(p);
}

void pipe_set_batch(struct pipe *p, size_t bytes)
{
    p->batch = bytes < PIPE_BATCH ? bytes : PIPE_BATCH;
}

void pipe_stop(struct pipe *p)
{
    atomic_store(&p->h.stop, true);
}

bool pipe_failed(struct pipe *p)
{
    return atomic_load(&p->h.failed);
}

/* pipe.h - a parser thread: the caller's thread (W) hands it copies of
 * text to parse (jobs), in order; it parses each, writing records of
 * what the parser reported into batches, which W reads back in order.
 * W's work on one part of the text (reading the records, checking and
 * reporting links) overlaps the parser's on the next.  What a record
 * holds is the caller's business; this file only carries the bytes.
 *
 * Without a thread (pipe_new's threaded false) each job is parsed at
 * once on W, in pipe_job: the same records in the same order, for tests
 * and for machines with one CPU.
 *
 * The parser thread stops when told (pipe_stop) or when it runs out of
 * memory (pipe_failed); it never calls back into W. */
#ifndef XIRI_PIPE_H
#define XIRI_PIPE_H

#include "common.h"

#include <stdatomic.h>

struct pipe;

/* The first member of struct pipe: what the parser thread reads and
 * writes at every record, in reach of the inline functions below. */
struct pipe_head {
    char *at, *end;           /* its place in the batch it writes */
    atomic_bool stop, failed; /* written once */
};

/* Run on the parser thread for each job: parse data[0..len) (final: the
 * text ends there), record with pipe_record; end is the caller's tag of
 * the job (pipe_job's). */
typedef void pipe_parse_fn(void *user, const char *data, size_t len, bool final,
                           size_t end);

/* A pipe with its thread started (threaded), or none (see above).
 * XIRI_ENOMEM, or XIRI_EINVAL when the thread cannot be started (the
 * caller goes on without one). */
enum xiri_status pipe_new(pipe_parse_fn *fn, void *user, bool threaded,
                          struct pipe **out);
/* Stop the thread (at the parser's next pipe_stopped test), wait for it
 * and free everything. */
void pipe_free(struct pipe *p);

/* Batches of about bytes (at most the default) from the next one on:
 * tests make them as small as they go, a record or two each. */
void pipe_set_batch(struct pipe *p, size_t bytes);

/* W: parse a copy of data[0..len) after the jobs before it; end is given
 * back to fn.  Call it only when pipe_job_room says there is room for len
 * more bytes (at most PIPE_JOBS jobs and 1 MiB of their text, or none),
 * reading batches until there is: the parser may be waiting for W to
 * read one, and while both waited neither would go on.  XIRI_ENOMEM when
 * the copy cannot be made. */
bool pipe_job_room(struct pipe *p, size_t len);
enum xiri_status pipe_job(struct pipe *p, const char *data, size_t len,
                          bool final, size_t end);

/* Parser thread (in fn): room for a record of n bytes (a multiple of 8,
 * aligned to 8) in the batch being written; it does not move until W has
 * read the batch.  NULL when out of memory (pipe_failed is then true:
 * record nothing more).  (Inline while the batch has room: it is asked
 * for at every start and end tag.) */
void *pipe_record_next(struct pipe *p, size_t n);
static inline void *pipe_record(struct pipe *p, size_t n)
{
    struct pipe_head *h = (struct pipe_head *)(void *)p;
    char *r = h->at;

    if (r && n <= (size_t)(h->end - r)) {
        h->at = r + n;
        return r;
    }
    return pipe_record_next(p, n);
}

/* W: the next batch of records, *len bytes, or NULL when there is none
 * yet (wait false) or none will come from the jobs given so far (wait
 * true: waits for the parser otherwise).  Hand it back with
 * pipe_batch_done before asking for the next. */
const char *pipe_batch(struct pipe *p, bool wait, size_t *len);
void pipe_batch_done(struct pipe *p);

/* W: tell the parser to stop; the parser (in fn's callbacks): whether it
 * was told, or whether recording failed. */
void pipe_stop(struct pipe *p);
static inline bool pipe_stopped(struct pipe *p)
{
    struct pipe_head *h = (struct pipe_head *)(void *)p;

    return atomic_load_explicit(&h->stop, memory_order_relaxed) ||
           atomic_load_explicit(&h->failed, memory_order_relaxed);
}
/* W: whether the parser thread ran out of memory. */
bool pipe_failed(struct pipe *p);

#endif

/* progress.c - the progress bar of check, links and rewrite (xiri(1),
 * PROGRESS): on a terminal only, after the run has lasted a second, one
 * line on stderr redrawn at most ten times a second:
 *   xiri: [#####.....] 12/40 files, 1.2 MB, 3.4 MB/s, ETA 0:05
 * The total is the number of files found so far (with -r or
 * --files-from the list is read as the run goes).  Only the thread that
 * owns the output calls these functions: the main thread, or, for
 * progress_clear, a worker of -j given its turn to write (jobs.c), the
 * main thread then writing nothing. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct {
    bool on;     /* stderr is a terminal and not --quiet */
    bool shown;  /* the line has been drawn */
    double start, last;
    double delay; /* seconds before the first drawing */
    size_t found, done;
    double bytes;
} pg;

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(bool quiet)
{
    const char *d = getenv("XIRI_PROGRESS_DELAY_MS");

    pg.on = !quiet && isatty(STDERR_FILENO);
    pg.shown = false;
    pg.found = pg.done = 0;
    pg.bytes = 0;
    pg.start = now();
    pg.last = -1.0; /* never drawn */
    pg.delay = d && *d ? strtod(d, NULL) / 1000.0 : 1.0;
}

/* "1.2 MB" */
static void human(char *out, size_t n, double v)
{
    const char *units[] = {"B", "kB", "MB", "GB", "TB"};
    size_t u = 0;

    while (v >= 1000.0 && u < 4) {
        v /= 1000.0;
        u++;
    }
    snprintf(out, n, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
}

static void draw(double t)
{
    char bar[11], size[32], rate[32], eta[32];
    double el = t - pg.start, bps = el > 0 ? pg.bytes / el : 0;
    size_t i, fill = pg.found ? 10 * pg.done / pg.found : 0;

    for (i = 0; i < 10; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[10] = '\0';
    human(size, sizeof(size), pg.bytes);
    human(rate, sizeof(rate), bps);
    if (pg.done > 0 && pg.found >= pg.done) {
        double left = el / (double)pg.done * (double)(pg.found - pg.done);
        unsigned long s = (unsigned long)(left + 0.5);

        snprintf(eta, sizeof(eta), "%lu:%02lu", s / 60, s % 60);
    } else {
        snprintf(eta, sizeof(eta), "?");
    }
    fflush(stdout);
    /* \r and erase to the end of the line (ECMA-48 8.3.41 EL) */
    fprintf(stderr, "\r" CLI_PROG ": [%s] %zu/%zu files, %s, %s/s, ETA %s\033[K",
            bar, pg.done, pg.found, size, rate, eta);
    fflush(stderr);
    pg.shown = true;
    pg.last = t;
}

void progress_clear(void)
{
    if (pg.on && pg.shown) {
        fputs("\r\033[K", stderr);
        pg.last = -1.0; /* redrawn after the next file */
    }
}

void progress_found(void)
{
    pg.found++;
}

void progress_done(const char *path)
{
    struct stat st;
    double t;

    if (!pg.on)
        return;
    pg.done++;
    if (path[0] != '-' || path[1] != '\0')
        if (stat(path, &st) == 0)
            pg.bytes += (double)st.st_size;
    t = now();
    if (t - pg.start >= pg.delay && t - pg.last >= 0.1)
        draw(t);
}

void progress_end(void)
{
    if (!pg.on || !pg.shown)
        return;
    draw(now());
    fputc('\n', stderr);
    pg.on = false;
}

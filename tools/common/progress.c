/* progress: the clock, the progress bar, waiting for worker threads (see
 * progress.h). */
#include <time.h>

#include "common/cli.h"

double cli_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_wait_workers(int (*finished)(void *ud), void (*progress)(void *ud), void *ud)
{
    double shown = -1;
    while (!finished(ud)) {
        double now = cli_now_s();
        if (progress && (shown < 0 || now - shown >= 0.2)) {
            progress(ud);
            shown = now;
        }
        struct timespec nap = {0, 2000000}; /* 2 ms */
        nanosleep(&nap, NULL);
    }
}

static int threads_exited(void *ud)
{
    const cli_workers *w = ud;
    return atomic_load(w->exited) >= w->threads;
}

static void threads_progress(void *ud)
{
    const cli_workers *w = ud;
    cli_progress(atomic_load(w->done), w->total, cli_now_s() - w->start, w->show_rate, 0);
}

void cli_wait_threads(const cli_workers *w, int progress)
{
    cli_wait_workers(threads_exited, progress ? threads_progress : NULL, (void *)w);
}

void cli_progress(long done, long total, double elapsed, int show_rate, int final)
{
    double rate = elapsed > 0 ? done / elapsed : 0;
    int width = 30, filled = total ? (int)(width * done / total) : width;
    char speed[48] = "";
    if (show_rate)
        snprintf(speed, sizeof speed, " %.0f games/s,", rate);
    fprintf(stderr, "\r[%.*s%*s] %ld/%ld games,%s ETA %.0fs   ", filled, "##############################",
            width - filled, "", done, total, speed, rate > 0 ? (total - done) / rate : 0.0);
    if (final)
        fprintf(stderr, "\n");
}

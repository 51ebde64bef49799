/* progress: timings, the progress bar on stderr, and waiting for a run's
 * worker threads. */
#ifndef FOH_PROGRESS_H
#define FOH_PROGRESS_H

#include <stdatomic.h>

/* Seconds on the monotonic clock (immune to clock changes): for timings. */
double cli_now_s(void);
/* A progress bar on stderr ("\r[###   ] DONE/TOTAL games, R games/s, ETA
 * Ns"; the rate left out without SHOW_RATE, where games differ in cost),
 * ELAPSED seconds since the start; FINAL ends the line. Callers show it only
 * on a terminal. */
void cli_progress(long done, long total, double elapsed, int show_rate, int final);
/* Wait for worker threads: until FINISHED(UD) is true, calling
 * PROGRESS(UD) (may be NULL) at once and then every 200 ms. The condition
 * is looked at every few milliseconds, so a run ends when its workers do,
 * not at the next progress tick. */
void cli_wait_workers(int (*finished)(void *ud), void (*progress)(void *ud), void *ud);
/* A run's worker threads as cli_wait_threads waits for them: each adds 1
 * to *EXITED when it returns, and counts its games in *DONE (of TOTAL,
 * since START on cli_now_s; SHOW_RATE as cli_progress). */
typedef struct {
    atomic_int *exited;
    int threads;
    atomic_long *done;
    long total;
    double start;
    int show_rate;
} cli_workers;
/* cli_wait_workers until all of W's threads have exited, with its
 * progress bar when PROGRESS (callers: on a terminal). */
void cli_wait_threads(const cli_workers *w, int progress);

#endif

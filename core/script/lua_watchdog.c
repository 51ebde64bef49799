/* lua_watchdog: the last line of defence behind the wall-clock limit (see
 * lua_internal.h).
 *
 * The time limit is checked by the count hook and by library calls, so it
 * is seen between Lua instructions. A few single steps cannot be
 * interrupted at all: a table resize whose integer keys were crafted to
 * collide in Lua's hash does quadratic work inside one instruction, and
 * compiling does too. A thread per engine watches the deadline of the call
 * in progress; once it is long past (by twice the limit, at least 5 s: the
 * count hook itself may be a thousand slow instructions late), the program
 * stops with a message naming the card, rather than hang. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "lua_internal.h"

#define WATCH_EVERY_NS 100000000 /* how often the deadline is looked at */
#define MIN_GRACE_NS 5000000000LL

struct foh_watchdog {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;                 /* under mu */
    _Atomic int64_t deadline; /* when to stop the program; 0: nothing running */
    _Atomic int card;         /* the card whose hook runs (-1: a variant hook or loading) */
    const foh_cardset *cs;
    int64_t limit_ns;
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t grace(const struct foh_watchdog *w)
{
    return 2 * w->limit_ns > MIN_GRACE_NS ? 2 * w->limit_ns : MIN_GRACE_NS;
}

static void *watch(void *arg)
{
    struct foh_watchdog *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WATCH_EVERY_NS;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&w->cv, &w->mu, &until);
        int64_t d = atomic_load(&w->deadline);
        if (!w->stop && d && now_ns() > d) {
            int card = atomic_load(&w->card);
            /* Nothing else can stop the step in progress: say so and end
             * the program (exit status 1, as for any script error). */
            fprintf(stderr,
                    "foh: %s%s%s ran %lld ms past its time limit (%lld ms per action) inside one Lua step that "
                    "cannot be interrupted (a table or chunk crafted to be slow): stopping the program\n",
                    card >= 0 ? "card '" : "a script", card >= 0 ? w->cs->card[card].id : "", card >= 0 ? "'" : "",
                    (long long)grace(w) / 1000000,
                    (long long)w->limit_ns / 1000000);
            fflush(stderr);
            _exit(1);
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int foh_lua_watchdog_start(foh_engine *e)
{
    if (e->time_limit_ns <= 0)
        return 1; /* no time limit: nothing to watch */
    struct foh_watchdog *w = calloc(1, sizeof *w);
    if (!w)
        return 0;
    w->cs = e->cs;
    w->limit_ns = e->time_limit_ns;
    atomic_init(&w->deadline, 0);
    atomic_init(&w->card, -1);
    if (pthread_mutex_init(&w->mu, NULL) != 0) {
        free(w);
        return 0;
    }
    if (pthread_cond_init(&w->cv, NULL) != 0) {
        pthread_mutex_destroy(&w->mu);
        free(w);
        return 0;
    }
    if (pthread_create(&w->thread, NULL, watch, w) != 0) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        return 0;
    }
    e->watchdog = w;
    return 1;
}

void foh_lua_watchdog_stop(foh_engine *e)
{
    struct foh_watchdog *w = e->watchdog;
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->stop = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
    e->watchdog = NULL;
}

void foh_lua_watchdog_arm(foh_engine *e, int card)
{
    struct foh_watchdog *w = e->watchdog;
    if (!w)
        return;
    atomic_store(&w->card, card);
    atomic_store(&w->deadline, e->deadline_ns ? e->deadline_ns + grace(w) : 0);
}

void foh_lua_watchdog_disarm(foh_engine *e)
{
    if (e->watchdog)
        atomic_store(&e->watchdog->deadline, 0);
}

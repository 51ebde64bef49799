/* lua_watchdog: the last line of defence behind the wall-clock limit (see
 * sandbox.h).
 *
 * The time limit is checked by the count hook and by library calls, so it
 * is seen between Lua instructions. A few single steps cannot be
 * interrupted at all: a table resize whose integer keys were crafted to
 * collide in Lua's hash does quadratic work inside one instruction, and
 * compiling does too. A thread per sandbox watches the deadline of the call
 * in progress; once it is long past (by twice the limit, at least 5 s: the
 * count hook itself may be a thousand slow instructions late), the program
 * stops with a message naming the script (the owner's words, through the
 * port), rather than hang. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sandbox.h"

#define WATCH_EVERY_NS 100000000 /* how often the deadline is looked at */
#define MIN_GRACE_NS 5000000000LL

struct foh_watchdog {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;                 /* under mu */
    _Atomic int64_t deadline; /* when to stop the program; 0: nothing running */
    _Atomic int call;         /* what runs (foh_sandbox.call_id; -1: nothing named) */
    const foh_sandbox_port *port; /* the owner's words for it */
    const void *owner;
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
            int call = atomic_load(&w->call);
            char who[256] = "a script";
            if (call >= 0 && w->port && w->port->describe_call)
                w->port->describe_call(w->owner, call, who, sizeof who);
            /* Nothing else can stop the step in progress: say so and end
             * the program (exit status 1, as for any script error). */
            fprintf(stderr,
                    "foh: %s ran %lld ms past its time limit (%lld ms per action) inside one Lua step that "
                    "cannot be interrupted (a table or chunk crafted to be slow): stopping the program\n",
                    who, (long long)grace(w) / 1000000,
                    (long long)w->limit_ns / 1000000);
            fflush(stderr);
            _exit(1);
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int foh_lua_watchdog_start(foh_sandbox *sb)
{
    if (sb->time_limit_ns <= 0)
        return 1; /* no time limit: nothing to watch */
    struct foh_watchdog *w = calloc(1, sizeof *w);
    if (!w)
        return 0;
    w->port = sb->port;
    w->owner = sb->owner;
    w->limit_ns = sb->time_limit_ns;
    atomic_init(&w->deadline, 0);
    atomic_init(&w->call, -1);
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
    sb->watchdog = w;
    return 1;
}

void foh_lua_watchdog_stop(foh_sandbox *sb)
{
    struct foh_watchdog *w = sb->watchdog;
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
    sb->watchdog = NULL;
}

void foh_lua_watchdog_arm(foh_sandbox *sb, int id)
{
    struct foh_watchdog *w = sb->watchdog;
    if (!w)
        return;
    atomic_store(&w->call, id);
    atomic_store(&w->deadline, sb->deadline_ns ? sb->deadline_ns + grace(w) : 0);
}

void foh_lua_watchdog_disarm(foh_sandbox *sb)
{
    if (sb->watchdog)
        atomic_store(&sb->watchdog->deadline, 0);
}

/* any_games: see any_games.h. Workers take games from a shared counter in
 * order; each stores its game's outcome at the game's index. */
#include "any/any_games.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "foh/bot.h"
#include "foh/match.h"

typedef struct {
    const any_run *run;
    any_results *res;
    atomic_long *next, *done;
    /* Games handed out this or later are not played: lowered to the first
     * failing game found so far, so that every game before it is still
     * played and the run names the first failing game. */
    atomic_long *stop_at;
    atomic_int *exited;
    long failed_at; /* the failing game, -1: none, -2: no engine */
    char error[1200];
} any_worker;

/* Lower *STOP_AT to K unless it is lower already. */
static void stop_before(atomic_long *stop_at, long k)
{
    long was = atomic_load(stop_at);
    while (k < was && !atomic_compare_exchange_weak(stop_at, &was, k))
        ;
}

/* G's score lines as the run expects them (those of SIDE's card set):
 * stored for game J; FOH_ERR_DATA when they differ. */
static foh_status keep_lines(any_results *res, int side, long j, foh_game *g, foh_error *err)
{
    foh_score_line lines[ANY_LINES];
    for (int p = 0; p < res->players; p++) {
        int n = foh_game_score_lines(g, p, lines, ANY_LINES, err);
        if (n < 0)
            return err->code;
        int same = n == res->nlines[side];
        for (int i = 0; same && i < n; i++)
            same = strcmp(lines[i].label, res->label[side][i]) == 0;
        if (!same)
            return foh_error_set(err, FOH_ERR_DATA,
                                 "player %d's score lines at the end are not those of a game just set up (%d "
                                 "lines, the first '%s'): the report matches them by place",
                                 p + 1, res->nlines[side], res->nlines[side] ? res->label[side][0] : "");
        for (int i = 0; i < n; i++)
            res->line[((size_t)j * res->players + p) * (size_t)res->stride + i] = lines[i].value;
    }
    return FOH_OK;
}

/* Play game J on ENG[its side]; its outcome into W's results. */
static foh_status play_one(any_worker *w, foh_engine *const *eng, long j, foh_error *err)
{
    const any_run *run = w->run;
    any_results *res = w->res;
    any_job job;
    memset(&job, 0, sizeof job);
    run->job(run->ctx, j, &job);
    foh_options opt = {.players = run->players, .seed = job.seed};
    foh_game *g = foh_game_new(eng[job.side], &opt, err);
    if (!g)
        return err->code;
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    foh_status s = FOH_OK;
    for (int p = 0; p < run->players && s == FOH_OK; p++)
        if (!(seats[p] = foh_bot_from_spec(job.spec[p], cli_seat_seed(job.bots, p), err)))
            s = err->code;
    if (s == FOH_OK)
        s = foh_match_play(g, seats, NULL, 0, NULL, err);
    if (s == FOH_OK)
        s = foh_game_results(g, &res->result[(size_t)j * run->players], err);
    if (s == FOH_OK)
        s = keep_lines(res, job.side, j, g, err);
    if (s == FOH_OK) {
        res->turns[j] = foh_game_turn(g);
        res->limit[j] = foh_game_turn(g) >= foh_game_turn_limit(g);
    }
    for (int p = 0; p < run->players; p++)
        foh_player_free(seats[p]);
    foh_game_free(g);
    return s;
}

static void *work(void *arg)
{
    any_worker *w = arg;
    const any_run *run = w->run;
    foh_error err;
    foh_engine *eng[2] = {NULL, NULL};
    for (int k = 0; k < 2 && w->failed_at == -1; k++)
        if (run->cs[k] && !(eng[k] = foh_engine_new_limited(run->cs[k], run->limits, &err))) {
            snprintf(w->error, sizeof w->error, "%s", err.msg);
            w->failed_at = -2;
            stop_before(w->stop_at, -1);
        }
    for (long j; w->failed_at == -1 && (j = atomic_fetch_add(w->next, 1)) < run->jobs &&
                 j < atomic_load(w->stop_at);) {
        if (play_one(w, eng, j, &err) != FOH_OK) {
            snprintf(w->error, sizeof w->error, "%s", err.msg);
            w->failed_at = j;
            stop_before(w->stop_at, j);
            break;
        }
        atomic_fetch_add(w->done, 1);
    }
    for (int k = 0; k < 2; k++)
        foh_engine_free(eng[k]);
    atomic_fetch_add(w->exited, 1);
    return NULL;
}

/* The score lines of a game of CS just set up, as the run expects them at
 * the end of every game of that card set. */
static int probe_lines(const any_run *run, int side, any_results *res)
{
    foh_error err;
    any_job job;
    memset(&job, 0, sizeof job);
    run->job(run->ctx, 0, &job);
    foh_engine *eng = foh_engine_new_limited(run->cs[side], run->limits, &err);
    foh_options opt = {.players = run->players, .seed = job.seed};
    foh_game *g = eng ? foh_game_new(eng, &opt, &err) : NULL;
    foh_score_line lines[ANY_LINES];
    int n = g ? foh_game_score_lines(g, 0, lines, ANY_LINES, &err) : -1;
    for (int i = 0; i < n; i++)
        snprintf(res->label[side][i], sizeof res->label[side][i], "%s", lines[i].label);
    res->nlines[side] = n > 0 ? n : 0;
    if (n < 0) {
        snprintf(res->error, sizeof res->error, "%s", err.msg);
        res->probe_side = side;
        res->usage = err.code == FOH_ERR_USAGE;
    }
    foh_game_free(g);
    foh_engine_free(eng);
    return n >= 0;
}

/* Start RUN's workers W (with the counters they share), wait for them and
 * keep the first failure in RES; 1 if every game was played. */
static int run_workers(const any_run *run, any_results *res, any_worker *w, pthread_t *tid)
{
    atomic_long next = 0, done = 0, stop_at = LONG_MAX;
    atomic_int exited = 0;
    int started = 0, ok = 1;
    for (int t = 0; t < run->threads; t++) {
        w[t] = (any_worker){.run = run, .res = res, .next = &next, .done = &done, .stop_at = &stop_at,
                            .exited = &exited, .failed_at = -1};
        if (pthread_create(&tid[t], NULL, work, &w[t]) != 0) {
            snprintf(res->error, sizeof res->error, "cannot start a thread");
            stop_before(&stop_at, -1);
            ok = 0;
            break;
        }
        started++;
    }
    double start = cli_now_s();
    int tty = isatty(2);
    cli_workers ws = {.exited = &exited, .threads = started, .done = &done, .total = run->jobs, .start = start,
                      .show_rate = 1};
    cli_wait_threads(&ws, tty);
    const any_worker *first = NULL;
    for (int t = 0; t < started; t++) {
        pthread_join(tid[t], NULL);
        if (w[t].failed_at != -1 && (!first || (unsigned long)w[t].failed_at < (unsigned long)first->failed_at))
            first = &w[t]; /* -2 (no engine) as unsigned: after every game, yet a failure */
    }
    if (first) {
        res->failed_job = first->failed_at >= 0 ? first->failed_at : -1;
        snprintf(res->error, sizeof res->error, "%s", first->error);
        ok = 0;
    }
    if (ok && tty)
        cli_progress(run->jobs, run->jobs, cli_now_s() - start, 1, 1);
    return ok;
}

int any_games_play(const any_run *run, any_results *res)
{
    memset(res, 0, sizeof *res);
    res->players = run->players;
    res->failed_job = -1;
    res->probe_side = -1;
    size_t n = (size_t)run->jobs, np = n * (size_t)run->players;
    res->result = calloc(np ? np : 1, sizeof *res->result);
    res->turns = calloc(n ? n : 1, sizeof *res->turns);
    res->limit = calloc(n ? n : 1, sizeof *res->limit);
    any_worker *w = calloc((size_t)run->threads, sizeof *w);
    pthread_t *tid = calloc((size_t)run->threads, sizeof *tid);
    int ok = res->result && res->turns && res->limit && w && tid;
    if (!ok)
        snprintf(res->error, sizeof res->error, "out of memory (%ld games)", run->jobs);
    for (int k = 0; ok && k < 2; k++)
        ok = !run->cs[k] || probe_lines(run, k, res);
    res->stride = res->nlines[0] > res->nlines[1] ? res->nlines[0] : res->nlines[1];
    res->stride = res->stride > 0 ? res->stride : 1;
    if (ok && !(res->line = calloc(np ? np * (size_t)res->stride : 1, sizeof *res->line))) {
        snprintf(res->error, sizeof res->error, "out of memory (%ld games)", run->jobs);
        ok = 0;
    }
    if (ok)
        ok = run_workers(run, res, w, tid);
    free(w);
    free(tid);
    return ok;
}

void any_results_free(any_results *res)
{
    free(res->result);
    free(res->line);
    free(res->turns);
    free(res->limit);
    res->result = res->line = NULL;
    res->turns = NULL;
    res->limit = NULL;
}

int any_specs_valid(const char *const *specs, int n, char *why, size_t len)
{
    for (int i = 0; i < n; i++) {
        foh_error err;
        if (cli_seat_is_human(specs[i])) {
            snprintf(why, len, "'%s': a human seat plays with foh play", specs[i]);
            return 0;
        }
        foh_player *p = foh_bot_from_spec(specs[i], 1, &err);
        if (!p) {
            snprintf(why, len, "%s", err.msg);
            return 0;
        }
        foh_player_free(p);
    }
    return 1;
}

/* The continued fraction of the incomplete beta function (modified Lentz;
 * Numerical Recipes 6.4). */
static double beta_fraction(double a, double b, double x)
{
    const double tiny = 1e-300;
    double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap;
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m, aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        d = 1 / (fabs(d) < tiny ? tiny : d);
        c = 1 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        d = 1 / (fabs(d) < tiny ? tiny : d);
        c = 1 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15)
            break;
    }
    return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
    return x < (a + 1) / (a + b + 2) ? front * beta_fraction(a, b, x) / a
                                     : 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double any_t_p(double t, long df)
{
    double d = (double)df;
    return beta_inc(d / 2, 0.5, d / (d + t * t));
}

double any_t95(long df)
{
    /* The t where the two-sided p-value is 5%, by bisection: the intervals
     * and the p-values agree. */
    double lo = 1.959, hi = 13;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (any_t_p(mid, df) > 0.05)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

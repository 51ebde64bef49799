/* tune_evaluate: see tune_evaluate.h. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"
#include "tune/tune.h"
#include "tune/tune_evaluate.h"
#include "tune/tune_paired.h"

/* Games [FROM, TO) of candidate C, played by one worker thread into ST. */
typedef struct {
    candidate *c;
    long from, to;
    sim_stats *st;
    sim_game_hook hook; /* keeps each game in c->rec (reserved before the tasks start) */
    int status;
    char err[1000];
} task;

/* The tasks of one evaluation; each thread takes the next until none is left. */
typedef struct {
    const tuner *T;
    task *tasks;
    int ntasks;
    atomic_int next;
    atomic_long done;
} pool;

static void *pool_work(void *arg)
{
    pool *p = arg;
    for (;;) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= p->ntasks)
            break;
        task *t = &p->tasks[i];
        /* Its sums made here, not all at once: sim_stats has room for the
         * largest card set, and a stage may have hundreds of tasks. */
        if (!(t->st = calloc(1, sizeof *t->st))) {
            t->status = CLI_DATA;
            snprintf(t->err, sizeof t->err, "out of memory");
        } else {
            t->status = sim_play_range(&p->T->o, t->c->cs, t->from, t->to, t->st, &t->hook, t->err, sizeof t->err);
        }
        atomic_fetch_add(&p->done, t->to - t->from);
    }
    return NULL;
}

long tune_impact_min_games(long n)
{
    return n / 50 > 10 ? n / 50 : 10;
}

void tune_update_loss(const tuner *T, candidate *c)
{
    tune_metrics_of(c->st, c->cs, T->o.players, &T->tg, &c->m);
    if (T->tg.impact_band >= 0) {
        /* The impact band from the games kept: the largest |impact| and its variance. */
        double *z = malloc((size_t)c->games * sizeof *z);
        if (z && tune_figure_values(&c->rec, c->games, TF_IMPACT_BAND, -1, tune_impact_min_games(c->games), z,
                                    &c->m.impact_card))
            tune_mean_var(z, c->games, &c->m.impact.v, &c->m.impact.var);
        else
            c->m.impact_card = -1; /* not determined (too few games): no miss counted */
        free(z);
    }
    for (int k = 0; k < T->tg.ncard; k++) {
        int card = T->tg.card[k].card;
        c->m.card_known[k] = 0;
        if (T->tg.card[k].figure == TUNE_CARD_OWNERS) {
            c->m.card[k] = tune_owner_rate(c->st, card);
            c->m.card_known[k] = c->st->owned_n[card] > 0;
            continue;
        }
        double *z = malloc((size_t)(c->games > 0 ? c->games : 1) * sizeof *z);
        if (z && tune_figure_values(&c->rec, c->games, TF_IMPACT, card, 0, z, NULL)) {
            tune_mean_var(z, c->games, &c->m.card[k].v, &c->m.card[k].var);
            c->m.card_known[k] = 1;
        }
        free(z);
    }
    c->loss = tune_miss(&c->m, &T->tg, &c->loss_var) + T->change_cost * c->n;
}

/* What a stage waits for on a terminal: its games, and a progress line. */
typedef struct {
    pool *p;
    int n;
    long total;
} pool_watch;

static int pool_finished(void *ud)
{
    const pool_watch *pw = ud;
    return atomic_load(&pw->p->done) >= pw->total;
}

static void show_pool(void *ud)
{
    const pool_watch *pw = ud;
    const tuner *T = pw->p->T;
    long done = atomic_load(&pw->p->done);
    fprintf(stderr, "\rtune: %s: %d candidate%s, %ld/%ld games, %ld of the budget's %ld played, %.0fs   ", T->stage,
            pw->n, pw->n == 1 ? "" : "s", done, pw->total, T->spent + done, T->budget, cli_now_s() - T->started);
}

int tune_evaluate(tuner *T, candidate **c, int n, long games)
{
    /* Tasks of at most 50 games, so that the threads share the work evenly. */
    int ntasks = 0;
    for (int k = 0; k < n; k++)
        if (games > c[k]->games)
            ntasks += (int)((games - c[k]->games + 49) / 50);
    if (!ntasks)
        return CLI_OK;
    task *tasks = calloc((size_t)ntasks, sizeof *tasks);
    pthread_t *tid = calloc((size_t)T->o.threads, sizeof *tid);
    if (!tasks || !tid) {
        free(tasks);
        free(tid);
        cli_error("tune", "out of memory");
        return CLI_DATA;
    }
    int m = 0;
    long total = 0;
    /* Room for every game first: the tasks write their games' slots from several threads. */
    for (int k = 0; k < n; k++)
        if (!tune_games_reserve(&c[k]->rec, games)) {
            free(tasks);
            free(tid);
            cli_error("tune", "out of memory keeping the games of %d candidates", n);
            return CLI_DATA;
        }
    for (int k = 0; k < n; k++)
        for (long g = c[k]->games; g < games; g += 50) {
            tasks[m] = (task){.c = c[k], .from = g, .to = g + 50 < games ? g + 50 : games, .st = NULL,
                              .hook = {.fn = tune_games_keep, .ud = &c[k]->rec, .impact = c[k]->rec.impact}};
            total += tasks[m].to - tasks[m].from;
            m++;
        }
    pool p = {.T = T, .tasks = tasks, .ntasks = ntasks};
    int nthreads = 0;
    for (int t = 0; t < T->o.threads; t++)
        if (pthread_create(&tid[t], NULL, pool_work, &p) == 0)
            nthreads++;
    if (!nthreads)
        pool_work(&p);
    pool_watch pw = {.p = &p, .n = n, .total = total};
    if (T->tty && nthreads) {
        cli_wait_workers(pool_finished, show_pool, &pw);
        show_pool(&pw); /* all played */
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(tid[t], NULL);
    /* A candidate whose games stop on an error is out of the search (its
     * numbers break a script); the others' sums are integer sums: they do
     * not depend on which thread played what. */
    for (int k = 0; k < ntasks; k++)
        if (tasks[k].status != CLI_OK && !tasks[k].c->failed) {
            tasks[k].c->failed = 1;
            snprintf(tasks[k].c->why, sizeof tasks[k].c->why, "%s",
                     tasks[k].err[0] ? tasks[k].err : "a game could not be played");
        }
    for (int k = 0; k < ntasks; k++) {
        if (!tasks[k].c->failed)
            sim_stats_merge(tasks[k].c->st, tasks[k].st, foh_cardset_card_count(tasks[k].c->cs));
        free(tasks[k].st);
    }
    for (int k = 0; k < n; k++)
        if (games > c[k]->games) {
            c[k]->games = games;
            if (c[k]->failed)
                c[k]->loss = INFINITY;
            else
                tune_update_loss(T, c[k]);
        }
    T->spent += total;
    int status = CLI_OK;
    free(tasks);
    free(tid);
    return status;
}

void tune_clear_progress(const tuner *T)
{
    if (T->tty)
        fprintf(stderr, "\r%*s\r", 110, "");
}

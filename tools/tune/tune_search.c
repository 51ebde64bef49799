/* tune_search: see tune_search.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tune/tune.h"
#include "tune/tune_candidates.h"
#include "tune/tune_evaluate.h"
#include "tune/tune_report.h"
#include "tune/tune_search.h"

int tune_by_loss(const void *a, const void *b)
{
    const candidate *x = *(candidate *const *)a, *y = *(candidate *const *)b;
    if (x->loss != y->loss)
        return x->loss < y->loss ? -1 : 1;
    /* Ties: fewer changes, then the order they were made in (stable and deterministic). */
    if (x->n != y->n)
        return x->n - y->n;
    return x->id - y->id;
}

typedef struct {
    int t;
    double relevance;
    int value;
} arm_order;

static int by_relevance(const void *a, const void *b)
{
    const arm_order *x = a, *y = b;
    if (x->relevance != y->relevance)
        return x->relevance > y->relevance ? -1 : 1;
    if (x->t != y->t)
        return x->t - y->t;
    return x->value - y->value;
}

/* How strongly the base run points at tunable T: its card's owners' (and,
 * for a starting card, starters') win rate away from the mean, and with an
 * impact target its impact's distance from 0 (BASE_IMPACT, points, or
 * NULL), the largest; for a rule number, the seat and length misses. */
static double relevance_of(const tuner *T, const tunable *t, const candidate *base, const double *base_impact)
{
    const sim_stats *s = base->st;
    if (t->card < 0) {
        double v = 0;
        v += T->tg.seat_spread >= 0 && base->m.seat.v > T->tg.seat_spread ? base->m.seat.v - T->tg.seat_spread : 0;
        if (T->tg.length_lo >= 0)
            v += base->m.length.v > T->tg.length_hi ? base->m.length.v - T->tg.length_hi
                 : base->m.length.v < T->tg.length_lo ? T->tg.length_lo - base->m.length.v
                                                      : 0;
        return v + 0.5;
    }
    double mean_owned = 0, mean_start = 0;
    int n_owned = 0, n_start = 0;
    for (int c = 0; c < foh_cardset_card_count(base->cs); c++) {
        if (s->owned_n[c] >= T->tg.min_owned && s->owned_n[c] > 0) {
            mean_owned += tune_owner_rate(s, c).v;
            n_owned++;
        }
        if (s->start_games[c]) {
            mean_start += tune_start_rate(s, c).v;
            n_start++;
        }
    }
    double r = 0;
    if (base_impact && !isnan(base_impact[t->card]))
        r = fabs(base_impact[t->card]);
    if (n_owned && s->owned_n[t->card] >= T->tg.min_owned && s->owned_n[t->card] > 0)
    {
        double d = fabs(tune_owner_rate(s, t->card).v - mean_owned / n_owned);
        r = d > r ? d : r;
    }
    if (n_start && s->start_games[t->card]) {
        double d = fabs(tune_start_rate(s, t->card).v - mean_start / n_start);
        r = d > r ? d : r;
    }
    /* A card a per-card target names: its numbers are screened first. */
    for (int k = 0; k < T->tg.ncard; k++)
        if (T->tg.card[k].card == t->card)
            r += 1000;
    return r;
}

/* Every single change stage 1 screened (the candidates of one change made
 * from FIRST on), with the loss it had at the games it reached, best
 * first: what the search saw, not only what it kept (issue 31). */
static void print_screened(const tuner *T, const candidates *cand, int first)
{
    int n = 0;
    candidate **list = malloc((size_t)(cand->n > first ? cand->n - first : 1) * sizeof *list);
    if (!list)
        return;
    for (int i = first; i < cand->n; i++)
        if (cand->item[i]->n == 1 && cand->item[i]->games > 0)
            list[n++] = cand->item[i];
    qsort(list, (size_t)n, sizeof *list, tune_by_loss);
    printf("screened: %d single change%s, best first (loss [95%% CI] at the games each reached; 'out': dropped "
           "by the halving)\n", n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        char lab[300];
        double h = TUNE_Z95 * sqrt(list[i]->loss_var);
        tune_change_label(T, &list[i]->ch[0], lab, sizeof lab);
        if (list[i]->failed)
            printf("  %-60s breaks a game: left out\n", lab);
        else
            printf("  %-60s loss %6.2f [%6.2f, %6.2f] at %5ld games%s\n", lab, list[i]->loss,
                   list[i]->loss - h > 0 ? list[i]->loss - h : 0.0, list[i]->loss + h, list[i]->games,
                   list[i]->alive ? "" : "  out");
    }
    free(list);
}

long tune_halving_cost(int k, int rounds, long n0, long G)
{
    long cost = 0, before = 0;
    for (int r = 0; r < rounds && k > 0; r++) {
        long games = r == rounds - 1 ? G : n0 << r;
        cost += (long)k * (games - before);
        before = games;
        k = (k + 1) / 2;
    }
    return cost;
}

int tune_screening_size(const tuner *T, int narms, long left, int *rounds, long *n0)
{
    long G = T->o.games;
    *rounds = 4;
    *n0 = G >> (*rounds - 1);
    while (*n0 < 8 && *rounds > 1) {
        --*rounds;
        *n0 = G >> (*rounds - 1);
    }
    int k = 0;
    while (k < narms && tune_halving_cost(k + 1, *rounds, *n0, G) <= left * 7 / 10)
        k++;
    return k;
}

int tune_shard_share(int k, int i, int n)
{
    return k >= i ? (k - i) / n + 1 : 0;
}

int tune_stage1(tuner *T, candidates *cand, candidate *base, candidate ***alivep, int *nalivep)
{
    long G = T->o.games;
    int st;
    *alivep = NULL;
    *nalivep = 0;
    arm_order *arms = calloc((size_t)T->nvalues_total, sizeof *arms);
    int narms = 0;
    if (!arms)
        return CLI_DATA;
    double base_impact[FOH_MAX_CARDS];
    int have_impact = tune_wants_impact(&T->tg) && tune_card_impacts(&base->rec, base->games, base_impact);
    for (int t = 0; t < T->ntun; t++) {
        T->tun[t].relevance = relevance_of(T, &T->tun[t], base, have_impact ? base_impact : NULL);
        for (int v = T->tun[t].lo; v <= T->tun[t].hi; v++)
            if (v != T->tun[t].base)
                arms[narms++] = (arm_order){t, T->tun[t].relevance, v};
    }
    qsort(arms, (size_t)narms, sizeof *arms, by_relevance);
    int rounds;
    long n0;
    int k = tune_screening_size(T, narms, T->budget - T->spent, &rounds, &n0);
    if (k < 1) {
        free(arms);
        cli_error("tune", "--budget %ld is too small for one candidate of %ld games", T->budget, n0);
        return CLI_USAGE;
    }
    printf("stage 1: %d of %d single changes screened (most relevant first: their card's win rates in the "
           "base run), %d rounds of %ld..%ld games\n",
           k, narms, rounds, n0, G);
    /* A shard's share: the arms i, i+n, ... (0-based: shard - 1 + j n). */
    int mine = tune_shard_share(k, T->o.shard, T->o.shards);
    if (T->o.save_shard && !mine)
        printf("shard %d of %d: screens none of them (only %d are screened: fewer shards would do)\n", T->o.shard,
               T->o.shards, k);
    else if (T->o.save_shard && mine == 1)
        printf("shard %d of %d: screens 1 of them (number %d of the relevance order)\n", T->o.shard, T->o.shards,
               T->o.shard);
    else if (T->o.save_shard)
        printf("shard %d of %d: screens %d of them (numbers %d, %d, ... of the relevance order), the early "
               "stopping within this share\n",
               T->o.shard, T->o.shards, mine, T->o.shard, T->o.shard + T->o.shards);
    candidate **alive = calloc((size_t)(mine ? mine : 1), sizeof *alive);
    int nalive = 0, first_screened = cand->n;
    if (!alive) {
        free(arms);
        return CLI_DATA;
    }
    for (int i = T->o.shard - 1; i < k; i += T->o.shards) {
        candidate *c = tune_new_candidate(T, cand, NULL, (change){arms[i].t, arms[i].value});
        if (!c) {
            free(alive);
            free(arms);
            return CLI_DATA;
        }
        alive[nalive++] = c;
    }
    free(arms);
    char stage[64];
    for (int r = 0; r < rounds && nalive > 0; r++) {
        snprintf(stage, sizeof stage, "stage 1, round %d/%d", r + 1, rounds);
        T->stage = stage;
        /* The last round at G, whatever the rounding of n0. */
        long games = r == rounds - 1 ? G : n0 << r;
        long cost = 0;
        for (int i = 0; i < nalive; i++)
            if (games > alive[i]->games)
                cost += games - alive[i]->games;
        if (T->spent + cost > T->budget) {
            tune_clear_progress(T);
            printf("  the budget ran out before round %d: %d candidate%s did not reach %ld games; raise --budget or "
                   "screen fewer changes (--tunable)\n",
                   r + 1, nalive, nalive == 1 ? "" : "s", games);
            break;
        }
        if ((st = tune_evaluate(T, alive, nalive, games)) != CLI_OK) {
            free(alive);
            return st;
        }
        qsort(alive, (size_t)nalive, sizeof *alive, tune_by_loss);
        int nfailed = 0;
        for (int i = 0; i < nalive; i++)
            if (alive[i]->failed && alive[i]->games == games) {
                nfailed++;
                if (r == 0 && nfailed <= 3) {
                    tune_clear_progress(T);
                    printf("  left out: %s = %d breaks a game: %s\n", T->tun[alive[i]->ch[0].t].path,
                           alive[i]->ch[0].value, alive[i]->why);
                }
            }
        if (r == 0 && nfailed > 3)
            printf("  left out: %d more that break a game\n", nfailed - 3);
        if (r == rounds - 1) {
            tune_clear_progress(T);
            printf("  round %d: %d candidates at %ld games, best %s loss %.2f\n", r + 1, nalive, games,
                   T->tun[alive[0]->ch[0].t].path, alive[0]->loss);
            break;
        }
        /* Early stopping: drop what is clearly worse than the best, then keep the better half. */
        candidate *b = alive[0];
        int keep = 0;
        for (int i = 0; i < nalive; i++) {
            double gap = TUNE_Z95 * (sqrt(alive[i]->loss_var) + sqrt(b->loss_var));
            if (i == 0 || (alive[i]->loss - gap <= b->loss && keep < (nalive + 1) / 2))
                alive[keep++] = alive[i];
            else {
                alive[i]->alive = 0;
                tune_drop_candidate(alive[i]);
            }
        }
        tune_clear_progress(T);
        printf("  round %d: %d candidates at %ld games, best %s loss %.2f; %d go on\n", r + 1, nalive, games,
               T->tun[b->ch[0].t].path, b->loss, keep);
        nalive = keep;
    }
    tune_clear_progress(T);
    print_screened(T, cand, first_screened);
    *alivep = alive;
    *nalivep = nalive;
    return CLI_OK;
}

int tune_stage2(tuner *T, candidates *cand, candidate *base, candidate **alive, int nalive, candidate **bestp)
{
    long G = T->o.games;
    int st;
    candidate *best = base;
    /* The singles that beat the base at G games, best first. */
    int nsingle = 0;
    for (int i = 0; i < nalive; i++)
        if (alive[i]->games == G && alive[i]->loss < base->loss)
            alive[nsingle++] = alive[i];
    printf("stage 1 done: %d single change%s beat the base at %ld games\n", nsingle, nsingle == 1 ? "" : "s", G);
    for (int i = 0; i < nsingle && i < 5; i++) {
        char lab[300];
        tune_change_label(T, &alive[i]->ch[0], lab, sizeof lab);
        printf("  %d. %s: loss %.2f\n", i + 1, lab, alive[i]->loss);
    }
    if (nsingle > 0)
        best = alive[0];
    /* Stage 2: add the next best single changes (of other numbers) while the loss falls. */
    T->stage = "stage 2";
    while (best->n < T->max_changes && best->loss - T->change_cost * best->n > 0 &&
           T->budget - T->spent >= G) {
        /* First each change of the best pushed one step further the same
         * way (at most one range beyond its first one), then the next best
         * single changes of other numbers. */
        candidate *tries[TUNE_MAX_CHANGES + 4];
        int ntries = 0;
        for (int j = 0; j < best->n && T->budget - T->spent >= (long)(ntries + 1) * G; j++) {
            const tunable *t = &T->tun[best->ch[j].t];
            int v = best->ch[j].value, step = v > t->base ? 1 : -1;
            int ext_lo = t->lo - (t->base - t->lo), ext_hi = t->hi + (t->hi - t->base);
            if (v + step < t->floor || v + step < ext_lo || v + step > ext_hi)
                continue;
            candidate *c = tune_new_candidate(T, cand, best, (change){-1, 0});
            if (!c) {
                return CLI_DATA;
            }
            c->ch[j].value = v + step;
            /* Load it again with the changed value. */
            foh_cardset_free(c->cs);
            free(c->st);
            c->cs = NULL;
            c->st = NULL;
            if (!tune_load_candidate(T, c)) {
                return CLI_DATA;
            }
            tries[ntries++] = c;
        }
        for (int i = 0, added = 0; i < nsingle && added < 4 && T->budget - T->spent >= (long)(ntries + 1) * G;
             i++) {
            int used = 0;
            for (int j = 0; j < best->n; j++)
                used |= best->ch[j].t == alive[i]->ch[0].t;
            if (used)
                continue;
            candidate *c = tune_new_candidate(T, cand, best, alive[i]->ch[0]);
            if (!c) {
                return CLI_DATA;
            }
            tries[ntries++] = c;
            added++;
        }
        if (!ntries)
            break;
        if ((st = tune_evaluate(T, tries, ntries, G)) != CLI_OK) {
            return st;
        }
        qsort(tries, (size_t)ntries, sizeof *tries, tune_by_loss);
        tune_clear_progress(T);
        char lab[300];
        int which = tries[0]->n - 1;
        for (int j = 0; j < best->n && j < tries[0]->n; j++)
            if (tries[0]->ch[j].value != best->ch[j].value)
                which = j;
        tune_change_label(T, &tries[0]->ch[which], lab, sizeof lab);
        printf("stage 2: %d change%s, best next: %s: loss %.2f (was %.2f)%s\n", best->n, best->n == 1 ? "" : "s",
               lab, tries[0]->loss, best->loss, tries[0]->loss < best->loss ? "" : ": stop");
        if (tries[0]->loss >= best->loss)
            break;
        best = tries[0];
    }
    *bestp = best;
    return CLI_OK;
}

/* tune_games: see tune_games.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tune/tune_games.h"
#include "tune/tune_paired.h"

int tune_games_reserve(tune_games *gs, long n)
{
    if (n <= gs->n)
        return 1;
    if (n > gs->cap) {
        long cap = gs->cap ? gs->cap : 64;
        while (cap < n)
            cap *= 2;
        tune_game *grown = realloc(gs->g, (size_t)cap * sizeof *grown);
        if (!grown)
            return 0;
        gs->g = grown;
        gs->cap = cap;
    }
    memset(gs->g + gs->n, 0, (size_t)(n - gs->n) * sizeof *gs->g);
    gs->n = n;
    return 1;
}

void tune_games_free(tune_games *gs)
{
    for (long i = 0; i < gs->n; i++)
        free(gs->g[i].gain);
    free(gs->g);
    gs->g = NULL;
    gs->n = gs->cap = 0;
}

int tune_games_keep(void *ud, long i, const struct game_result_s *r, const struct impact_game_s *ig, char *err,
                    size_t len)
{
    tune_games *gs = ud;
    if (i < 0 || i >= gs->n) {
        snprintf(err, len, "foh tune kept no room for game %ld (internal error)", i + 1);
        return 0;
    }
    tune_game *t = &gs->g[i];
    int nwin = 0;
    for (int p = 0; p < gs->players; p++)
        nwin += r->score[p].winner;
    for (int p = 0; p < gs->players; p++) {
        t->win[p] = (unsigned char)(r->score[p].winner && nwin ? WIN_UNITS / nwin : 0);
        t->start[p] = (short)r->start_card[p];
    }
    for (int c = 0; c < gs->ncards; c++)
        t->owner[c] = (signed char)r->owner[c];
    t->turns = r->turns;
    if (gs->impact) {
        if (!ig || !impact_game_gains(ig, r->score, &t->gain, &t->ngain)) {
            snprintf(err, len, "out of memory keeping the game's gains for the impact target");
            return 0;
        }
    }
    t->played = 1;
    return 1;
}

void tune_games_sums(const tune_games *gs, long n, sim_stats *s)
{
    memset(s, 0, sizeof *s);
    for (long g = 0; g < n && g < gs->n; g++) {
        const tune_game *t = &gs->g[g];
        s->games++;
        s->turns_sum += t->turns;
        s->turns_sq += (long)t->turns * t->turns;
        for (int p = 0; p < gs->players; p++) {
            s->win_units[p] += t->win[p];
            s->total_player_games++;
            s->total_win_units += t->win[p];
            if (t->start[p] >= 0 && t->start[p] < gs->ncards) {
                s->start_games[t->start[p]]++;
                s->start_win_units[t->start[p]] += t->win[p];
            }
        }
        for (int c = 0; c < gs->ncards; c++)
            if (t->owner[c] >= 0 && t->owner[c] < gs->players) {
                s->owned_n[c]++;
                s->owned_win_units[c] += t->win[t->owner[c]];
            }
    }
}

int tune_games_equal(const tune_games *a, const tune_games *b, long n, long *first)
{
    if (a->players != b->players || a->ncards != b->ncards || n > a->n || n > b->n) {
        *first = 0;
        return 0;
    }
    for (long g = 0; g < n; g++) {
        const tune_game *x = &a->g[g], *y = &b->g[g];
        int same = x->turns == y->turns && !memcmp(x->win, y->win, (size_t)a->players * sizeof x->win[0]) &&
                   !memcmp(x->start, y->start, (size_t)a->players * sizeof x->start[0]) &&
                   !memcmp(x->owner, y->owner, (size_t)a->ncards * sizeof x->owner[0]);
        if (same && a->impact && b->impact) {
            same = x->ngain == y->ngain;
            for (int i = 0; same && i < x->ngain; i++)
                same = x->gain[i].card == y->gain[i].card && !memcmp(x->gain[i].z, y->gain[i].z, sizeof x->gain[i].z);
        }
        if (!same) {
            *first = g;
            return 0;
        }
    }
    return 1;
}

/* The seat spread: the extreme seats' per-game win difference. */
static int seat_spread(const tune_games *gs, long n, double *z)
{
    long sum[FOH_MAX_PLAYERS] = {0};
    int hi = 0, lo = 0;
    for (long g = 0; g < n; g++)
        for (int p = 0; p < gs->players; p++)
            sum[p] += gs->g[g].win[p];
    for (int p = 1; p < gs->players; p++) {
        if (sum[p] > sum[hi])
            hi = p;
        if (sum[p] < sum[lo])
            lo = p;
    }
    for (long g = 0; g < n; g++)
        z[g] = 100.0 * (gs->g[g].win[hi] - gs->g[g].win[lo]) / WIN_UNITS;
    return gs->players >= 2;
}

/* Card C's per-game win units U (of a whole win) and tries W: as a starting
 * card (STARTERS) or owned at the end. */
static void card_rows(const tune_games *gs, long n, int c, int starters, double *u, double *w)
{
    for (long g = 0; g < n; g++) {
        const tune_game *t = &gs->g[g];
        u[g] = w[g] = 0;
        if (starters) {
            for (int p = 0; p < gs->players; p++)
                if (t->start[p] == c) {
                    u[g] += (double)t->win[p] / WIN_UNITS;
                    w[g]++;
                }
        } else if (t->owner[c] >= 0 && t->owner[c] < gs->players) {
            u[g] = (double)t->win[t->owner[c]] / WIN_UNITS;
            w[g] = 1;
        }
    }
}

/* Per-card sums over games [0, N): win units and tries (starters or owners),
 * and the games with a try. */
static void card_totals(const tune_games *gs, long n, int starters, long *units, long *tries)
{
    memset(units, 0, (size_t)gs->ncards * sizeof *units);
    memset(tries, 0, (size_t)gs->ncards * sizeof *tries);
    for (long g = 0; g < n; g++) {
        const tune_game *t = &gs->g[g];
        if (starters) {
            for (int p = 0; p < gs->players; p++)
                if (t->start[p] >= 0 && t->start[p] < gs->ncards) {
                    units[t->start[p]] += t->win[p];
                    tries[t->start[p]]++;
                }
        } else
            for (int c = 0; c < gs->ncards; c++)
                if (t->owner[c] >= 0 && t->owner[c] < gs->players) {
                    units[c] += t->win[t->owner[c]];
                    tries[c]++;
                }
    }
}

/* The ratio values of card C's rate (starters' or owners') into Z. */
static int card_rate(const tune_games *gs, long n, int c, int starters, double *z, double *u, double *w)
{
    card_rows(gs, n, c, starters, u, w);
    return tune_ratio_values(u, w, n, 100, z);
}

/* The starting-card spread, or the owners' band. */
static int card_spread(const tune_games *gs, long n, int band, long min_games, double *z, int *which, double *u,
                       double *w, double *tmp)
{
    long units[FOH_MAX_CARDS], tries[FOH_MAX_CARDS];
    card_totals(gs, n, !band, units, tries);
    int hi = -1, lo = -1, m = 0;
    double rate[FOH_MAX_CARDS], mean = 0;
    for (int c = 0; c < gs->ncards; c++) {
        if (!tries[c] || (band && tries[c] < min_games))
            continue;
        rate[c] = (double)units[c] / tries[c];
        mean += rate[c];
        m++;
        if (hi < 0 || rate[c] > rate[hi])
            hi = c;
        if (lo < 0 || rate[c] < rate[lo])
            lo = c;
    }
    if (m < (band ? 1 : 2))
        return 0;
    if (!band) {
        card_rate(gs, n, hi, 1, z, u, w);
        card_rate(gs, n, lo, 1, tmp, u, w);
        tune_combine(z, z, 1, tmp, -1, n);
        return 1;
    }
    /* The band: the card furthest from the mean of the cards' rates, its
     * rate minus that mean (each rate's values, the mean's their mean). */
    mean /= m;
    int far = hi;
    if (mean - rate[lo] > rate[hi] - mean)
        far = lo;
    double s = rate[far] >= mean ? 1 : -1;
    if (which)
        *which = far;
    memset(z, 0, (size_t)n * sizeof *z);
    for (int c = 0; c < gs->ncards; c++) {
        if (!tries[c] || tries[c] < min_games)
            continue;
        card_rate(gs, n, c, 0, tmp, u, w);
        tune_combine(z, z, 1, tmp, (c == far ? s : 0) - s / m, n);
    }
    return 1;
}

/* Each card's impact residuals: R[c*n + g] the summed (win - predicted win)
 * of its gains in game g (win units), C[c*n + g] the number of them. */
static int impact_residuals(const tune_games *gs, long n, double *res, double *cnt)
{
    int k = impact_features(gs->players), overflow = 0;
    long(*all)[IMPACT_D] = calloc(IMPACT_D, sizeof *all);
    double b[IMPACT_MAX_K];
    if (!all)
        return 0;
    for (long g = 0; g < n; g++)
        for (int i = 0; i < gs->g[g].ngain; i++)
            impact_add_outer(all, gs->g[g].gain[i].z, k + 2, &overflow);
    int ok = !overflow && impact_fit(k, (const long(*)[IMPACT_D])all, 1, b);
    free(all);
    if (!ok)
        return 0;
    memset(res, 0, (size_t)gs->ncards * (size_t)n * sizeof *res);
    memset(cnt, 0, (size_t)gs->ncards * (size_t)n * sizeof *cnt);
    for (long g = 0; g < n; g++)
        for (int i = 0; i < gs->g[g].ngain; i++) {
            const impact_gain *x = &gs->g[g].gain[i];
            double pred = 0;
            for (int j = 0; j < k; j++)
                pred += b[j] * (double)x->z[j];
            if (x->card < 0 || x->card >= gs->ncards)
                continue;
            res[(size_t)x->card * (size_t)n + (size_t)g] += (double)x->z[k + 1] - pred;
            cnt[(size_t)x->card * (size_t)n + (size_t)g] += 1;
        }
    return 1;
}

/* A card's impact (CARD >= 0), or the impact band (CARD < 0: the card
 * furthest from 0, *WHICH, its values times the sign of its impact). */
static int impact_values(const tune_games *gs, long n, int card, long min_games, double *z, int *which)
{
    int band = card < 0;
    if (!gs->impact)
        return 0;
    size_t cells = (size_t)gs->ncards * (size_t)n;
    double *res = malloc(cells * sizeof *res), *cnt = malloc(cells * sizeof *cnt);
    int ok = res && cnt && impact_residuals(gs, n, res, cnt);
    if (ok && card < 0) {
        /* The card furthest from 0 among those gained in MIN_GAMES games or more. */
        double best = -1;
        for (int c = 0; c < gs->ncards; c++) {
            double sr = 0, sn = 0;
            long games = 0;
            for (long g = 0; g < n; g++) {
                sr += res[(size_t)c * (size_t)n + (size_t)g];
                sn += cnt[(size_t)c * (size_t)n + (size_t)g];
                games += cnt[(size_t)c * (size_t)n + (size_t)g] > 0;
            }
            if (games && games >= min_games && fabs(sr / sn) > best) {
                best = fabs(sr / sn);
                card = c;
            }
        }
        ok = card >= 0;
    }
    if (ok && card >= gs->ncards)
        ok = 0;
    if (ok)
        ok = tune_ratio_values(res + (size_t)card * (size_t)n, cnt + (size_t)card * (size_t)n, n,
                               100.0 / WIN_UNITS, z);
    if (ok && band) {
        double m, v;
        tune_mean_var(z, n, &m, &v);
        if (which)
            *which = card;
        if (m < 0)
            tune_combine(z, z, -1, NULL, 0, n);
    }
    free(res);
    free(cnt);
    return ok;
}

int tune_card_impacts(const tune_games *gs, long n, double *impact)
{
    if (!gs->impact || n <= 0 || n > gs->n)
        return 0;
    size_t cells = (size_t)gs->ncards * (size_t)n;
    double *res = malloc(cells * sizeof *res), *cnt = malloc(cells * sizeof *cnt);
    int ok = res && cnt && impact_residuals(gs, n, res, cnt);
    for (int c = 0; ok && c < gs->ncards; c++) {
        double sr = 0, sn = 0;
        for (long g = 0; g < n; g++) {
            sr += res[(size_t)c * (size_t)n + (size_t)g];
            sn += cnt[(size_t)c * (size_t)n + (size_t)g];
        }
        impact[c] = sn > 0 ? 100.0 / WIN_UNITS * sr / sn : NAN;
    }
    free(res);
    free(cnt);
    return ok;
}

int tune_figure_values(const tune_games *gs, long n, tune_figure f, int card, long min_games, double *z, int *which)
{
    if (which)
        *which = -1;
    if (n <= 0 || n > gs->n)
        return 0;
    if (f == TF_LENGTH) {
        for (long g = 0; g < n; g++)
            z[g] = gs->g[g].turns;
        return 1;
    }
    if (f == TF_SEAT_SPREAD)
        return seat_spread(gs, n, z);
    if (f == TF_IMPACT)
        return card >= 0 && impact_values(gs, n, card, min_games, z, NULL);
    if (f == TF_IMPACT_BAND)
        return impact_values(gs, n, -1, min_games, z, which);
    double *u = malloc((size_t)n * sizeof *u), *w = malloc((size_t)n * sizeof *w),
           *tmp = malloc((size_t)n * sizeof *tmp);
    int ok = 0;
    if (u && w && tmp) {
        if (f == TF_OWNERS || f == TF_STARTERS)
            ok = card >= 0 && card < gs->ncards && card_rate(gs, n, card, f == TF_STARTERS, z, u, w);
        else
            ok = card_spread(gs, n, f == TF_OWNER_BAND, min_games, z, which, u, w, tmp);
    }
    free(u);
    free(w);
    free(tmp);
    return ok;
}

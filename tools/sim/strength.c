/* strength: a round robin of bot kinds with Bradley-Terry ratings (see
 * strength.h). Each game's comparisons are kept at the game's index, and
 * the ratings are computed from them in game order afterwards: the report
 * does not depend on the number of threads. */
#include "sim/strength.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/provenance.h"
#include "sim/sim_stats.h"

#define MAX_KINDS 12
#define BOOTSTRAP 500

/* One game of pair (a, b): comparisons won by kind a (ties count 1/2),
 * comparisons made, and the summed score margin of a's seats over b's. */
typedef struct {
    double won;
    int pairs;
    long margin;
} result;

typedef struct {
    const cli_options *o;
    const foh_cardset *cs;
    char (*kind)[64];
    int nkinds, npairs;
    int (*pair)[2];
    result *res; /* [pair * games + game] */
    atomic_long *next, *done;
    atomic_int *failed;
    char error[1100];
} job;

/* Seat P of game G of pair (A, B): the kinds alternate, B first in odd games. */
static int seat_kind(const int *ab, long g, int p)
{
    return ab[(p + (int)(g & 1)) % 2];
}

static int play(job *j, foh_engine *eng, long k)
{
    long games = j->o->games, g = k % games;
    const int *ab = j->pair[k / games];
    uint64_t seed = foh_seed_for(j->o->seed, (uint64_t)k);
    foh_error err;
    foh_options opt = {.players = j->o->players, .seed = seed};
    foh_game *game = foh_game_new(eng, &opt, &err);
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    int ok = game != NULL, n = j->o->players;
    for (int p = 0; ok && p < n; p++)
        ok = (seats[p] = foh_bot_from_spec(j->kind[seat_kind(ab, g, p)], cli_seat_seed(seed, p), &err)) != NULL;
    foh_score sc[FOH_MAX_PLAYERS];
    ok = ok && foh_match_play(game, seats, NULL, 0, NULL, &err) == FOH_OK &&
         foh_game_score(game, sc, NULL, &err) == FOH_OK;
    if (ok) {
        result *r = &j->res[k];
        memset(r, 0, sizeof *r);
        for (int p = 0; p < n; p++)
            for (int q = 0; q < n; q++) {
                if (seat_kind(ab, g, p) != ab[0] || seat_kind(ab, g, q) != ab[1])
                    continue;
                double x = sc[p].total + 0.5 * (sc[p].winner != 0), y = sc[q].total + 0.5 * (sc[q].winner != 0);
                r->won += x > y ? 1 : x == y ? 0.5 : 0;
                r->pairs++;
                r->margin += sc[p].total - sc[q].total;
            }
    } else if (!atomic_exchange(j->failed, 1))
        snprintf(j->error, sizeof j->error, "game %ld of %s against %s (seed %llu): %s", g + 1, j->kind[ab[0]],
                 j->kind[ab[1]], (unsigned long long)seed, game ? err.msg : "cannot start");
    cli_free_seats(seats, n);
    foh_game_free(game);
    return ok;
}

static void *work(void *arg)
{
    job *j = arg;
    foh_error err;
    foh_engine *eng = foh_engine_new_limited(j->cs, &j->o->limits, &err);
    if (!eng) {
        if (!atomic_exchange(j->failed, 1))
            snprintf(j->error, sizeof j->error, "%s", err.msg);
        return NULL;
    }
    long total = (long)j->npairs * j->o->games;
    for (long k; !atomic_load(j->failed) && (k = atomic_fetch_add(j->next, 1)) < total;) {
        play(j, eng, k);
        atomic_fetch_add(j->done, 1);
    }
    foh_engine_free(eng);
    return NULL;
}

/* Bradley-Terry strengths PI of NK kinds from WINS[i][j] (comparisons i
 * won against j) and N[i][j] (made), by the minorization-maximization
 * iteration (Hunter 2004), normalized to a geometric mean of 1. A kind
 * that won none or lost none has no finite rating: its strength is
 * clamped to a tiny or huge value (the interval then says so). */
static void bt_fit(int nk, double wins[MAX_KINDS][MAX_KINDS], double n[MAX_KINDS][MAX_KINDS], double *pi)
{
    for (int i = 0; i < nk; i++)
        pi[i] = 1;
    for (int it = 0; it < 2000; it++) {
        double change = 0, next[MAX_KINDS];
        for (int i = 0; i < nk; i++) {
            double w = 0, d = 0;
            for (int j = 0; j < nk; j++)
                if (j != i && n[i][j] > 0) {
                    w += wins[i][j];
                    d += n[i][j] / (pi[i] + pi[j]);
                }
            next[i] = d > 0 ? (w > 0 ? w / d : 1e-6 * pi[i]) : pi[i];
        }
        double lg = 0;
        for (int i = 0; i < nk; i++)
            lg += log(next[i] > 1e-300 ? next[i] : 1e-300);
        double gm = exp(lg / nk);
        for (int i = 0; i < nk; i++) {
            double v = next[i] / gm;
            v = v < 1e-9 ? 1e-9 : v > 1e9 ? 1e9 : v;
            change += fabs(log(v) - log(pi[i]));
            pi[i] = v;
        }
        if (change < 1e-10)
            break;
    }
}

/* The tallies of games [0, G) of every pair, each game of pair p drawn as
 * PICK[p][g] (the bootstrap) or itself (PICK NULL). */
static void tally(const job *j, const long *pick, double wins[MAX_KINDS][MAX_KINDS], double n[MAX_KINDS][MAX_KINDS])
{
    long games = j->o->games;
    memset(wins, 0, sizeof(double) * MAX_KINDS * MAX_KINDS);
    memset(n, 0, sizeof(double) * MAX_KINDS * MAX_KINDS);
    for (int p = 0; p < j->npairs; p++) {
        int a = j->pair[p][0], b = j->pair[p][1];
        for (long g = 0; g < games; g++) {
            const result *r = &j->res[(long)p * games + (pick ? pick[(long)p * games + g] : g)];
            wins[a][b] += r->won;
            wins[b][a] += r->pairs - r->won;
            n[a][b] += r->pairs;
            n[b][a] += r->pairs;
        }
    }
}

/* Elo-scale ratings (400 log10 of the strength), the first kind at 0. */
static void ratings(int nk, const double *pi, double *elo)
{
    for (int i = 0; i < nk; i++)
        elo[i] = 400 * log10(pi[i] / pi[0]);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Print the report of J's games and fill ROOT (JSON). */
static void report(const job *j, json_t *root)
{
    int nk = j->nkinds;
    long games = j->o->games;
    double wins[MAX_KINDS][MAX_KINDS], n[MAX_KINDS][MAX_KINDS];
    double pi[MAX_KINDS], elo[MAX_KINDS];
    printf("strength: a round robin of %d bot kinds, %ld games per pair, %d players (the two kinds alternate in "
           "the seats, the other first in every other game; in each game every seat of one kind is compared with "
           "every seat of the other by final score)\n", nk, games, j->o->players);
    printf("%-22s %-22s %24s %22s\n", "A", "B", "A's share [95% CI]", "A's margin (VP) [95%]");
    json_t *pairs = json_array(), *kinds = json_array();
    for (int p = 0; p < j->npairs; p++) {
        double won = 0, cmp = 0, m = 0, m2 = 0;
        for (long g = 0; g < games; g++) {
            const result *r = &j->res[(long)p * games + g];
            won += r->won;
            cmp += r->pairs;
            double x = r->pairs ? (double)r->margin / r->pairs : 0;
            m += x;
            m2 += x * x;
        }
        /* Games are the units (comparisons within a game are not independent). */
        double share = cmp ? won / cmp : 0, sh2 = 0;
        for (long g = 0; g < games; g++) {
            const result *r = &j->res[(long)p * games + g];
            double x = r->pairs ? r->won / r->pairs : 0;
            sh2 += (x - share) * (x - share);
        }
        double se = games > 1 ? sqrt(sh2 / (games - 1) / games) : 0, mean = m / games;
        double mse = games > 1 ? sqrt((m2 - games * mean * mean) / (games - 1) / games) : 0;
        double lo = share - 1.96 * se, hi = share + 1.96 * se;
        lo = lo < 0 ? 0 : lo;
        hi = hi > 1 ? 1 : hi;
        const char *a = j->kind[j->pair[p][0]], *b = j->kind[j->pair[p][1]];
        printf("%-22s %-22s %7.1f%% [%5.1f, %5.1f] %+8.2f [%+6.2f, %+6.2f]\n", a, b, 100 * share, 100 * lo, 100 * hi,
               mean, mean - 1.96 * mse, mean + 1.96 * mse);
        json_array_append_new(pairs, json_pack("{s:s,s:s,s:I,s:{s:f,s:f,s:f},s:{s:f,s:f,s:f}}", "a", a, "b", b,
                                               "games", (json_int_t)games, "a_share", "value", share, "low", lo,
                                               "high", hi, "a_margin_vp", "value", mean, "low", mean - 1.96 * mse,
                                               "high", mean + 1.96 * mse));
    }
    tally(j, NULL, wins, n);
    bt_fit(nk, wins, n, pi);
    ratings(nk, pi, elo);
    /* The bootstrap: each pair's games drawn again with replacement. */
    long cells = (long)j->npairs * games;
    long *pick = malloc((size_t)cells * sizeof *pick);
    double *boot = malloc((size_t)BOOTSTRAP * nk * sizeof *boot);
    uint64_t state = j->o->seed ^ 0x5bd1e995u;
    for (int bsi = 0; pick && boot && bsi < BOOTSTRAP; bsi++) {
        for (long c = 0; c < cells; c++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            pick[c] = (long)((state >> 33) % (uint64_t)games);
        }
        double bp[MAX_KINDS], be[MAX_KINDS];
        tally(j, pick, wins, n);
        bt_fit(nk, wins, n, bp);
        ratings(nk, bp, be);
        for (int i = 0; i < nk; i++)
            boot[(long)i * BOOTSTRAP + bsi] = be[i];
    }
    printf("\nratings: Bradley-Terry on the Elo scale (400 points: 10 to 1 odds), %s at 0; 95%% bootstrap interval "
           "over the games (%d draws)\n", j->kind[0], BOOTSTRAP);
    for (int i = 0; i < nk; i++) {
        double lo = NAN, hi = NAN;
        if (pick && boot) {
            qsort(boot + (long)i * BOOTSTRAP, BOOTSTRAP, sizeof *boot, by_double);
            lo = boot[(long)i * BOOTSTRAP + BOOTSTRAP / 40];
            hi = boot[(long)i * BOOTSTRAP + BOOTSTRAP - 1 - BOOTSTRAP / 40];
        }
        printf("  %-22s %+7.0f [%+7.0f, %+7.0f]\n", j->kind[i], elo[i], lo, hi);
        json_array_append_new(kinds, json_pack("{s:s,s:f,s:o,s:o}", "kind", j->kind[i], "elo", elo[i], "low",
                                               isnan(lo) ? json_null() : json_real(lo), "high",
                                               isnan(hi) ? json_null() : json_real(hi)));
    }
    if (!pick || !boot)
        printf("  (no intervals: out of memory)\n");
    free(pick);
    free(boot);
    json_object_set_new(root, "pairs", pairs);
    json_object_set_new(root, "ratings", kinds);
}

int strength_run(const cli_options *o, const foh_cardset *cs)
{
    char (*kind)[64] = calloc(MAX_KINDS, sizeof *kind);
    int nk = 0;
    const char *s = o->seats;
    while (kind && *s) {
        size_t len = strcspn(s, ",");
        if (nk == MAX_KINDS || len == 0 || len >= sizeof kind[0]) {
            cli_error("bench", "--strength: --seats names the bot kinds, 2 to %d specs of at most 63 characters "
                               "separated by commas", MAX_KINDS);
            free(kind);
            return CLI_USAGE;
        }
        memcpy(kind[nk], s, len);
        kind[nk][len] = '\0';
        foh_error err;
        foh_player *probe = foh_bot_from_spec(kind[nk], 1, &err);
        if (!probe) {
            cli_error("bench", "--strength: %s", err.msg);
            free(kind);
            return CLI_USAGE;
        }
        foh_player_free(probe);
        for (int i = 0; i < nk; i++)
            if (!strcmp(kind[i], kind[nk])) {
                cli_error("bench", "--strength: '%s' is named twice in --seats", kind[nk]);
                free(kind);
                return CLI_USAGE;
            }
        nk++;
        s += len + (s[len] == ',');
    }
    if (kind && o->games < 10) {
        cli_error("bench", "--strength: --games %ld: at least 10 games per pair (the intervals are over the games)",
                  o->games);
        free(kind);
        return CLI_USAGE;
    }
    if (!kind || nk < 2) {
        cli_error("bench", kind ? "--strength needs at least 2 bot kinds in --seats (e.g. random,greedy,ismcts:16)"
                                : "out of memory");
        free(kind);
        return kind ? CLI_USAGE : CLI_DATA;
    }
    int npairs = nk * (nk - 1) / 2, (*pair)[2] = calloc((size_t)npairs, sizeof *pair);
    result *res = calloc((size_t)npairs * (size_t)o->games, sizeof *res);
    pthread_t *tid = calloc((size_t)o->threads, sizeof *tid);
    if (!pair || !res || !tid) {
        cli_error("bench", "out of memory");
        free(kind);
        free(pair);
        free(res);
        free(tid);
        return CLI_DATA;
    }
    for (int a = 0, p = 0; a < nk; a++)
        for (int b = a + 1; b < nk; b++, p++)
            pair[p][0] = a, pair[p][1] = b;
    provenance_print(stdout, o, cs);
    atomic_long next = 0, done = 0;
    atomic_int failed = 0;
    job j = {o, cs, kind, nk, npairs, pair, res, &next, &done, &failed, ""};
    int started = 0;
    for (; started < o->threads; started++)
        if (pthread_create(&tid[started], NULL, work, &j) != 0)
            break;
    if (!started)
        work(&j);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    int status = CLI_OK;
    if (atomic_load(&failed)) {
        cli_error("bench", "--strength: %s", j.error);
        status = CLI_DATA;
    } else {
        json_t *root = json_pack("{s:s,s:o*,s:I,s:i,s:I}", "format", "foh-strength/1", "provenance",
                                 provenance_json(o, cs), "games_per_pair", (json_int_t)o->games, "players",
                                 o->players, "seed", (json_int_t)o->seed);
        report(&j, root);
        if (o->json && !cli_write_json(root, o->json, JSON_INDENT(2) | JSON_REAL_PRECISION(6))) {
            cli_error("bench", "cannot write %s: %s", o->json, strerror(errno));
            status = CLI_DATA;
        }
        json_decref(root);
    }
    free(kind);
    free(pair);
    free(res);
    free(tid);
    return status;
}

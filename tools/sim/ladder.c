/* foh sim --skill-ladder (see ladder.h, docs/skill.md).
 *
 * Rungs: random vs random and greedy vs random (the floor), then ISMCTS
 * at 2b against ISMCTS at b for b = B, 2B, 4B, ... Each rung plays the
 * same G deals (deal i: seed foh_seed_for(S, i)), each deal N times, the
 * strong bot in seat s = 0..N-1 in turn; the bots of play s of a deal are
 * seeded from the deal's seed, s and their seat (the same on every rung). Workers take games
 * from a shared counter and store each game's result at its own index;
 * the report is computed from the results in game order afterwards, so it
 * does not depend on the number of threads. */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/origin.h"
#include "common/provenance.h"
#include "sim/ladder.h"
#include "sim/sim.h"
#include "sim/sim_stats.h"

#define Z95 1.96
#define FLOOR_RUNGS 2
#define BOOTSTRAP 2000
#define DEFAULT_DEALS 50

typedef struct {
    char strong[64], weak[64]; /* bot specs */
    int ismcts;                /* a rung of the budget ladder (not the floor) */
    long budget;               /* ISMCTS: the weak bots' iterations */
} rung;

/* One game's outcome. */
typedef struct {
    double win[FOH_MAX_PLAYERS]; /* 1, 1/k for a k-way shared win, 0 */
    int score[FOH_MAX_PLAYERS];
    int turns, stalled;
} outcome;

typedef struct {
    const cli_options *o;
    const foh_cardset *cs;
    const rung *rungs;
    int nrungs;
    long deals, total;
    outcome *out;
    atomic_long *next, *done;
    /* Jobs handed out this or later are not played: lowered to the first
     * failing job found so far, so that every job before it is still played
     * and the run reports the first failing job, as one thread would. */
    atomic_long *stop_at;
    atomic_int *exited;
    int failed;
    long failed_at; /* when FAILED: the failing job's turn (k), or -1 (no engine) */
    char error[1100];
} worker;

/* Game J of the run: rung, deal and strong seat. Games are numbered rung
 * by rung, deal by deal, seat by seat. */
static void job_of(const worker *w, long j, int *r, long *deal, int *strong)
{
    int n = w->o->players;
    *strong = (int)(j % n);
    *deal = j / n % w->deals;
    *r = (int)(j / n / w->deals);
}

static int play_job(worker *w, foh_engine *eng, long j)
{
    int r, strong;
    long deal;
    job_of(w, j, &r, &deal, &strong);
    const rung *rg = &w->rungs[r];
    int n = w->o->players;
    uint64_t seed = foh_seed_for(w->o->seed, (uint64_t)deal);
    /* The bots' seeds differ from one play of the deal to the next (else
     * random vs random would replay one game N times). */
    uint64_t bots = foh_seed_for(seed, (uint64_t)strong);
    foh_error err;
    foh_options opt = {.players = n, .seed = seed};
    foh_game *g = foh_game_new(eng, &opt, &err);
    if (!g) {
        snprintf(w->error, sizeof w->error, "%s", err.msg);
        return 0;
    }
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    int ok = 1;
    for (int p = 0; p < n && ok; p++)
        ok = (seats[p] = foh_bot_from_spec(p == strong ? rg->strong : rg->weak, cli_seat_seed(bots, p), &err)) !=
             NULL;
    if (ok)
        ok = foh_match_play(g, seats, NULL, 0, NULL, &err) == FOH_OK;
    foh_score sc[FOH_MAX_PLAYERS];
    if (ok)
        ok = foh_game_score(g, sc, NULL, &err) == FOH_OK;
    if (ok) {
        outcome *oc = &w->out[j];
        int winners = 0;
        for (int p = 0; p < n; p++)
            winners += sc[p].winner != 0;
        for (int p = 0; p < n; p++) {
            oc->win[p] = sc[p].winner && winners ? 1.0 / winners : 0;
            oc->score[p] = sc[p].total;
        }
        oc->turns = foh_game_turn(g);
        oc->stalled = foh_game_is_stalled(g);
    } else {
        snprintf(w->error, sizeof w->error, "%s vs %s, deal %ld (seed %llu), strong seat P%d: %s", rg->strong,
                 rg->weak, deal + 1, (unsigned long long)seed, strong + 1, err.msg);
    }
    for (int p = 0; p < n; p++)
        foh_player_free(seats[p]);
    foh_game_free(g);
    return ok;
}

/* Lower *STOP_AT to K unless it is lower already. */
static void stop_before(atomic_long *stop_at, long k)
{
    long was = atomic_load(stop_at);
    while (k < was && !atomic_compare_exchange_weak(stop_at, &was, k))
        ;
}

static void *work(void *arg)
{
    worker *w = arg;
    foh_error err;
    foh_engine *eng = foh_engine_new_limited(w->cs, &w->o->limits, &err);
    if (!eng) {
        snprintf(w->error, sizeof w->error, "%s", err.msg);
        w->failed = 1;
        w->failed_at = -1;
        stop_before(w->stop_at, -1);
    }
    /* The most expensive games (the last rungs) first: the threads then end
     * together. */
    for (long k; eng && (k = atomic_fetch_add(w->next, 1)) < w->total && k < atomic_load(w->stop_at);) {
        if (!play_job(w, eng, w->total - 1 - k)) {
            w->failed = 1;
            w->failed_at = k;
            stop_before(w->stop_at, k);
            break;
        }
        atomic_fetch_add(w->done, 1);
    }
    foh_engine_free(eng);
    atomic_fetch_add(w->exited, 1);
    return NULL;
}

/* The regularized upper incomplete gamma function Q(a, x) (Numerical
 * Recipes: series below a+1, continued fraction above): the chi-square
 * test's p-value is Q(df/2, x/2). */
static double gamma_q(double a, double x)
{
    if (x <= 0)
        return 1;
    double lg = lgamma(a);
    if (x < a + 1) {
        double ap = a, sum = 1 / a, del = sum;
        for (int i = 0; i < 500 && fabs(del) > fabs(sum) * 1e-15; i++) {
            ap += 1;
            del *= x / ap;
            sum += del;
        }
        return 1 - sum * exp(-x + a * log(x) - lg);
    }
    double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
    for (int i = 1; i < 500; i++) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        d = fabs(d) < 1e-300 ? 1e-300 : d;
        c = b + an / c;
        c = fabs(c) < 1e-300 ? 1e-300 : c;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15)
            break;
    }
    return exp(-x + a * log(x) - lg) * h;
}

/* splitmix64: the bootstrap's resampling, seeded from the run's seed. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The intraclass correlation ICC(1) of a one-way analysis of variance with
 * the deals as groups, K plays of each, pooled over the N seats (each
 * seat's mean removed): per deal d (the PICK[d]-th of the G deals) and
 * seat p, SUM[d*N+p] and SQ[d*N+p] are the sum and the sum of squares of
 * the seat's outcome over the K plays. DF_SEATS: the seats' degrees of
 * freedom (N, or N-1 when the outcomes of a play sum to a constant, as the
 * shares of a win do). */
static double icc(const double *sum, const double *sq, const long *pick, long g, int n, long k, double df_seats)
{
    double ssb = 0, ssw = 0;
    for (int p = 0; p < n; p++) {
        double grand = 0;
        for (long i = 0; i < g; i++)
            grand += sum[pick[i] * n + p];
        grand /= (double)g * k;
        for (long i = 0; i < g; i++) {
            double s = sum[pick[i] * n + p], m = s / k;
            ssb += k * (m - grand) * (m - grand);
            ssw += sq[pick[i] * n + p] - s * s / k;
        }
    }
    double msb = ssb / (df_seats * (g - 1)), msw = ssw / (df_seats * g * (k - 1));
    double den = msb + (k - 1) * msw;
    return den > 0 ? (msb - msw) / den : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ICC with a 95% percentile bootstrap interval (the deals resampled). */
/* A share of variance V with its interval [LO, HI]: a share is 0 or more,
 * but the intraclass correlation that estimates it can fall below 0 when
 * the deal explains nothing; such an estimate or bound is shown as 0 (as
 * variance components are), the raw estimate said beside it. */
static void print_share(const char *what, double v, double lo, double hi)
{
    printf("    %s %5.3f [%.3f, %.3f]", what, v > 0 ? v : 0.0, lo > 0 ? lo : 0.0, hi > 0 ? hi : 0.0);
    if (v < 0)
        printf(" (the estimate, %.3f, is below 0: no share detectable)", v);
    printf("\n");
}

static void icc_interval(const double *sum, const double *sq, long g, int n, long k, double df_seats, uint64_t seed,
                         double *value, double *lo, double *hi)
{
    long *pick = malloc((size_t)g * sizeof *pick);
    double *boot = malloc(BOOTSTRAP * sizeof *boot);
    *value = *lo = *hi = 0;
    if (!pick || !boot) {
        free(pick);
        free(boot);
        return;
    }
    for (long i = 0; i < g; i++)
        pick[i] = i;
    *value = icc(sum, sq, pick, g, n, k, df_seats);
    uint64_t s = seed;
    for (int b = 0; b < BOOTSTRAP; b++) {
        for (long i = 0; i < g; i++)
            pick[i] = (long)(next_random(&s) % (uint64_t)g);
        boot[b] = icc(sum, sq, pick, g, n, k, df_seats);
    }
    qsort(boot, BOOTSTRAP, sizeof *boot, cmp_double);
    *lo = boot[(int)(0.025 * BOOTSTRAP)];
    *hi = boot[(int)(0.975 * BOOTSTRAP) - 1];
    free(pick);
    free(boot);
}

/* The report, from the outcomes OUT of every game, on stdout. */
static void report(const cli_options *o, const foh_cardset *cs, const rung *rungs, int nrungs, long deals,
                   const outcome *out)
{
    int n = o->players;
    long per_rung = deals * n;
    double fair = 1.0 / n;
    printf("skill ladder: %d players, seed %llu, %ld deals per rung, each played %d times (the strong bot in each "
           "seat in turn), ",
           n, (unsigned long long)o->seed, deals, n);
    origin_print_cards(stdout, o);
    for (int i = 0; i < foh_cardset_variant_count(cs); i++)
        printf("%s%s", i ? ", " : ", variants: ", foh_cardset_variant_name(cs, i));
    printf("\n");
    provenance_print(stdout, o, cs);
    printf("fair share 1/%d = %.1f%%; a rung's gain is significant when its 95%% Wilson interval lies above it\n\n",
           n, 100 * fair);
    printf("%-26s %6s %9s %22s %4s %24s %8s %8s\n", "strong vs the others", "games", "wins", "win rate [95% CI]", "",
           "score margin [95% CI]", "turns", "stalled");
    int depth = 0, climbing = 1, nladder = 0;
    long first_flat = -1;
    for (int r = 0; r < nrungs; r++) {
        double wins = 0, msum = 0, msq = 0, turns = 0;
        long stalled = 0;
        for (long j = r * per_rung; j < (r + 1) * per_rung; j++) {
            int s = (int)(j % n);
            double others = 0;
            for (int p = 0; p < n; p++)
                others += p == s ? 0 : out[j].score[p];
            /* The strong bot's score minus the mean of the others'. */
            double m = out[j].score[s] - others / (n - 1);
            wins += out[j].win[s];
            msum += m;
            msq += m * m;
            turns += out[j].turns;
            stalled += out[j].stalled;
        }
        double p = wins / per_rung, lo, hi;
        sim_wilson(p, (double)per_rung, &lo, &hi);
        double mm = msum / per_rung, var = per_rung > 1 ? (msq - per_rung * mm * mm) / (per_rung - 1) : 0;
        double mh = var > 0 ? Z95 * sqrt(var / per_rung) : 0;
        const char *mark = lo > fair ? "+" : hi < fair ? "-" : "=";
        char label[160], ci[64], mci[64];
        snprintf(label, sizeof label, "%s vs %s", rungs[r].strong, rungs[r].weak);
        snprintf(ci, sizeof ci, "%.1f%% [%.1f-%.1f%%]", 100 * p, 100 * lo, 100 * hi);
        snprintf(mci, sizeof mci, "%+.2f VP [%+.2f, %+.2f]", mm, mm - mh, mm + mh);
        printf("%-26s %6ld %9.2f %22s %4s %24s %8.1f %8ld\n", label, per_rung, wins, ci, mark, mci,
               turns / per_rung, stalled);
        if (rungs[r].ismcts) {
            nladder++;
            if (climbing && lo > fair)
                depth++;
            else if (climbing) {
                climbing = 0;
                first_flat = rungs[r].budget;
            }
        }
    }
    printf("(+: significantly above the fair share; -: below; =: not distinguishable; score margin: the strong bot's\n"
           "final VP minus the mean of the others')\n");
    if (nladder) {
        printf("\nskill depth: %d of %d doublings give a significant gain", depth, nladder);
        if (first_flat >= 0)
            printf(" (the first that does not: %ld -> %ld iterations)\n", first_flat, 2 * first_flat);
        else
            printf(" (every one measured: there may be more above %ld iterations)\n",
                   rungs[nrungs - 1].budget * 2);
    }

    /* Luck: over the budget ladder's games (every deal played K times:
     * every rung, every strong seat), or the floor's if there is none. */
    int from = nladder ? FLOOR_RUNGS : 0, to = nrungs;
    long k = (long)(to - from) * n, games = deals * k;
    printf("\nluck, over the %ld games of the %s (%ld deals, each played %ld times):\n", games,
           nladder ? "ISMCTS rungs" : "floor rungs", deals, k);
    double seat_win[FOH_MAX_PLAYERS] = {0};
    double *wsum = calloc((size_t)deals * n, sizeof *wsum), *wsq = calloc((size_t)deals * n, sizeof *wsq);
    double *ssum = calloc((size_t)deals * n, sizeof *ssum), *ssq = calloc((size_t)deals * n, sizeof *ssq);
    if (!wsum || !wsq || !ssum || !ssq) {
        printf("  (out of memory)\n");
        free(wsum);
        free(wsq);
        free(ssum);
        free(ssq);
        return;
    }
    for (int r = from; r < to; r++)
        for (long d = 0; d < deals; d++)
            for (int s = 0; s < n; s++) {
                const outcome *oc = &out[(r * deals + d) * n + s];
                for (int p = 0; p < n; p++) {
                    seat_win[p] += oc->win[p];
                    wsum[d * n + p] += oc->win[p];
                    wsq[d * n + p] += oc->win[p] * oc->win[p];
                    ssum[d * n + p] += oc->score[p];
                    ssq[d * n + p] += (double)oc->score[p] * oc->score[p];
                }
            }
    printf("  seat: win rate per seat (each seat held the strong bot equally often)\n");
    double chi2 = 0;
    for (int p = 0; p < n; p++) {
        double rate = seat_win[p] / games, lo, hi;
        sim_wilson(rate, (double)games, &lo, &hi);
        printf("    P%d %5.1f%% [%.1f-%.1f%%]\n", p + 1, 100 * rate, 100 * lo, 100 * hi);
        double e = (double)games / n;
        chi2 += (seat_win[p] - e) * (seat_win[p] - e) / e;
    }
    printf("    chi-square against equal shares: %.2f, %d degrees of freedom, p = %.3f%s\n", chi2, n - 1,
           gamma_q((n - 1) / 2.0, chi2 / 2), n < 2 ? "" : gamma_q((n - 1) / 2.0, chi2 / 2) < 0.05 ? " (seat matters)"
                                                                                                   : "");
    if (deals >= 2 && k >= 2) {
        double v, lo, hi;
        icc_interval(wsum, wsq, deals, n, k, n - 1, o->seed, &v, &lo, &hi);
        printf("  deal: share of the variance explained by the deal (intraclass correlation across the plays of\n"
               "  each deal; 95%% bootstrap interval over the deals)\n");
        print_share("which seat wins:   ", v, lo, hi);
        icc_interval(ssum, ssq, deals, n, k, n, o->seed + 1, &v, &lo, &hi);
        print_share("each seat's score: ", v, lo, hi);
    } else {
        printf("  deal: needs at least 2 deals\n");
    }
    free(wsum);
    free(wsq);
    free(ssum);
    free(ssq);
}

/* The ladder's bot and first budget from O's --seats and --ladder-from. */
static int ladder_budget(const cli_options *o, long *from)
{
    const char *s = o->seats;
    *from = o->ladder_from;
    if (!strcmp(s, "ismcts"))
        return 1;
    if (!strncmp(s, "ismcts:", 7)) {
        char *end;
        long b = strtol(s + 7, &end, 10);
        if (*end == '\0' && b > 0) {
            if (!(o->given >> OPT_LADDER_FROM & 1))
                *from = b;
            return 1;
        }
    }
    cli_error("sim", "--skill-ladder climbs ismcts or ismcts:ITERATIONS (a budget in iterations, for reproducible "
                     "rungs), not '%s'", s);
    return 0;
}

int ladder_main(const cli_options *o)
{
    static const cli_option_id refused[] = {OPT_SHARD, OPT_SAVE_SHARD, OPT_JSON, OPT_HTML, OPT_GAMES_CSV, OPT_TRACE,
                                            OPT_ON_ERROR, OPT_IMPACT, OPT_FATE, OPT_WITHOUT, OPT_ABLATION};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (o->given >> refused[i] & 1) {
            cli_error("sim", "--skill-ladder prints its own report: --shard, --save-shard, --json, --html, "
                             "--games-csv, --trace, --on-error, --impact, --fate, --without and --ablation do not apply");
            return CLI_USAGE;
        }
    if (o->players < 2) {
        cli_error("sim", "--skill-ladder needs at least 2 players");
        return CLI_USAGE;
    }
    long from;
    if (!(o->given >> OPT_SEATS & 1)) {
        from = o->ladder_from;
    } else if (!ladder_budget(o, &from))
        return CLI_USAGE;
    long deals = o->given >> OPT_GAMES & 1 ? o->games : DEFAULT_DEALS;
    int nrungs = FLOOR_RUNGS + o->ladder_rungs;
    if (from << (o->ladder_rungs) > 100000000L) {
        cli_error("sim", "--ladder-from %ld with %d rungs goes beyond 100,000,000 iterations", from, o->ladder_rungs);
        return CLI_USAGE;
    }
    rung *rungs = calloc((size_t)nrungs, sizeof *rungs);
    if (!rungs)
        return CLI_DATA;
    snprintf(rungs[0].strong, sizeof rungs[0].strong, "random");
    snprintf(rungs[0].weak, sizeof rungs[0].weak, "random");
    snprintf(rungs[1].strong, sizeof rungs[1].strong, "greedy");
    snprintf(rungs[1].weak, sizeof rungs[1].weak, "random");
    for (int i = 0; i < o->ladder_rungs; i++) {
        rung *r = &rungs[FLOOR_RUNGS + i];
        r->ismcts = 1;
        r->budget = from << i;
        snprintf(r->strong, sizeof r->strong, "ismcts:%ld", 2 * r->budget);
        snprintf(r->weak, sizeof r->weak, "ismcts:%ld", r->budget);
    }

    foh_cardset *cs;
    foh_engine *eng;
    if (!cli_load(o, &cs, &eng)) {
        free(rungs);
        return CLI_DATA;
    }
    foh_engine_free(eng); /* each worker makes its own */
    if (!sim_players_allowed("sim", cs, o->players)) {
        foh_cardset_free(cs);
        free(rungs);
        return CLI_USAGE;
    }
    long total = (long)nrungs * deals * o->players;
    outcome *out = calloc((size_t)total, sizeof *out);
    worker *w = calloc((size_t)o->threads, sizeof *w);
    pthread_t *tid = calloc((size_t)o->threads, sizeof *tid);
    atomic_long next = 0, done = 0, stop_at = LONG_MAX;
    atomic_int exited = 0;
    int status = out && w && tid ? CLI_OK : CLI_DATA, started = 0;
    if (status != CLI_OK)
        cli_error("sim", "out of memory");
    for (int t = 0; status == CLI_OK && t < o->threads; t++) {
        w[t] = (worker){.o = o, .cs = cs, .rungs = rungs, .nrungs = nrungs, .deals = deals, .total = total,
                        .out = out, .next = &next, .done = &done, .stop_at = &stop_at, .exited = &exited};
        if (pthread_create(&tid[t], NULL, work, &w[t]) != 0) {
            cli_error("sim", "cannot start a thread");
            stop_before(&stop_at, -1);
            status = CLI_DATA;
            break;
        }
        started++;
    }
    double start = cli_now_s();
    int tty = isatty(2);
    /* Games differ in cost by rung: no rate. */
    cli_workers ws = {.exited = &exited, .threads = started, .done = &done, .total = total, .start = start};
    cli_wait_threads(&ws, tty);
    /* The failure that comes first (as one thread would have met it). */
    const worker *first_failed = NULL;
    for (int t = 0; t < started; t++) {
        pthread_join(tid[t], NULL);
        if (w[t].failed && (!first_failed || w[t].failed_at < first_failed->failed_at))
            first_failed = &w[t];
    }
    if (first_failed) {
        cli_error("sim", "%s", first_failed->error);
        status = CLI_DATA;
    }
    if (status == CLI_OK) {
        if (tty)
            cli_progress(total, total, cli_now_s() - start, 0, 1);
        report(o, cs, rungs, nrungs, deals, out);
        fflush(stdout);
        fprintf(stderr, "%.1f s in all (%d thread%s)\n", cli_now_s() - start, o->threads, o->threads == 1 ? "" : "s");
    }
    free(out);
    free(w);
    free(tid);
    free(rungs);
    foh_cardset_free(cs);
    return status;
}

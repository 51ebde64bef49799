/* any_games: many bot games of card sets of any ruleset on worker threads,
 * through the ruleset interface alone, for foh compare and the skill ladder
 * of another ruleset (any_compare.c, any_ladder.c). Each game's outcome is
 * stored at its own index and the reports read them in game order, so a
 * report does not depend on the number of threads; a failing run names its
 * lowest-numbered failing game, as one thread would. */
#ifndef FOH_ANY_GAMES_H
#define FOH_ANY_GAMES_H

#include <stddef.h>
#include <stdint.h>

#include "foh/foh.h"
#include "foh/ruleset.h"

/* Score lines kept per player (foh_game_score_lines); more are refused. */
#define ANY_LINES 16

/* One game to play: on card set SIDE (0 or 1), seeded SEED, the bot of seat
 * p from spec SPEC[p] seeded cli_seat_seed(BOTS, p). */
typedef struct {
    int side;
    uint64_t seed, bots;
    const char *spec[FOH_MAX_PLAYERS];
} any_job;

/* Fill JOB with game J of a run (CTX: the caller's). */
typedef void (*any_job_fn)(const void *ctx, long j, any_job *job);

/* A run: JOBS games of PLAYERS players on THREADS threads. */
typedef struct {
    const foh_cardset *cs[2]; /* the card sets the jobs name (cs[1] may be NULL) */
    const foh_script_limits *limits;
    int players, threads;
    long jobs;
    any_job_fn job;
    const void *ctx;
} any_run;

/* What the games gave: for game J, each player's result (1, 1/k of a
 * shared win, 0), each score line at the end, its turns and whether it
 * stopped at the ruleset's turn limit. The score lines of a card set are
 * those of a game just set up (labels, in order); a game that ends with
 * others fails the run. */
typedef struct {
    int players;
    int nlines[2];
    char label[2][ANY_LINES][FOH_SCORE_LABEL];
    double *result;        /* [J * players + p] */
    int stride;            /* the most lines of the two card sets (at least 1) */
    double *line;          /* [(J * players + p) * stride + i] */
    int *turns;            /* [J] */
    unsigned char *limit;  /* [J]: 1 if it ended at the turn limit */
    long failed_job;       /* the first failing game, or -1 */
    int probe_side;        /* or the card set whose first game could not be set up, or -1 */
    int usage;             /* the failure is the caller's (FOH_ERR_USAGE: e.g. a player count refused) */
    char error[1200];      /* why it failed */
} any_results;

/* Play RUN's games; 1 with RES filled, or 0 with RES->error set (and
 * RES->failed_job, or -1 for a failure before any game). RES is freed
 * with any_results_free in either case. Shows a progress bar on a
 * terminal's stderr. */
int any_games_play(const any_run *run, any_results *res);
void any_results_free(any_results *res);

/* Whether every spec of SPECS (N of them) names a bot (foh_bot_from_spec);
 * else 0 with the reason in WHY. */
int any_specs_valid(const char *const *specs, int n, char *why, size_t len);

/* Student's t with DF degrees of freedom (DF >= 1): the two-sided p-value
 * of T, and the quantile of 97.5% (the half-width of a 95% interval of a
 * mean of DF + 1 values is this times its standard error). */
double any_t_p(double t, long df);
double any_t95(long df);

#endif

/* tune_games: what foh tune keeps of each game a candidate plays (the
 * winner, the starting cards, the owners at the end, the length and, when
 * an impact target asks for it, the gains), so that two candidates played
 * on the same seeds can be compared game by game (tune_paired.h), and each
 * balance figure written as per-game values (docs/tune.md). */
#ifndef FOH_TUNE_GAMES_H
#define FOH_TUNE_GAMES_H

#include <stddef.h>

#include "foh/foh.h"
#include "sim/impact.h"
#include "sim/sim_stats.h"

/* One game, as kept. */
typedef struct {
    int played;                        /* 1 once kept */
    int turns;                         /* turns played */
    unsigned char win[FOH_MAX_PLAYERS]; /* win units by seat (WIN_UNITS: a whole win) */
    short start[FOH_MAX_PLAYERS];      /* the starting card dealt, -1 */
    signed char owner[FOH_MAX_CARDS];  /* each card's owner at the end, -1 */
    impact_gain *gain;                 /* with impact: the gains, in order (malloc'd) */
    int ngain;
} tune_game;

/* The games [0, n) of one candidate, game i of the run's seed at index i. */
typedef struct {
    tune_game *g;
    long n, cap;
    int players, ncards;
    int impact; /* the gains are kept (an impact target) */
} tune_games;

/* The figures (each in points, except the length in turns). The per-card
 * ones take a card; the spreads and bands find their extreme cards. */
typedef enum {
    TF_SEAT_SPREAD,  /* highest seat win rate - lowest */
    TF_START_SPREAD, /* highest starting card's starters' win rate - lowest */
    TF_OWNER_BAND,   /* furthest card's owners' win rate from the mean of all cards' */
    TF_IMPACT_BAND,  /* largest |impact on the win| of a card (their mean over gains is 0) */
    TF_LENGTH,       /* mean game length, turns */
    TF_OWNERS,       /* owners' win rate of a card */
    TF_STARTERS,     /* starters' win rate of a card */
    TF_IMPACT        /* a card's impact on the win, points (tools/sim/impact.c's estimate) */
} tune_figure;

/* Make room for games [0, N) (new ones zeroed, not played); 0 if out of memory. */
int tune_games_reserve(tune_games *gs, long n);
void tune_games_free(tune_games *gs);
/* A sim_game_hook's function (UD: a tune_games reserved for game I). */
int tune_games_keep(void *ud, long i, const struct game_result_s *r, const struct impact_game_s *ig, char *err,
                    size_t len);

/* Into S (zeroed first), the sums of games [0, N) of GS that foh tune's
 * losses read (tune_metrics_of): games, win_units, total_player_games,
 * total_win_units, turns_sum, turns_sq, start_games, start_win_units,
 * owned_n and owned_win_units; every other field 0. They equal the sums
 * sim_stats_add gives for the same games (a shard's records are checked
 * against the sums it wrote, tools/tune/tune_shard.c). */
void tune_games_sums(const tune_games *gs, long n, sim_stats *s);

/* Whether games [0, N) of A and B are the same games (turns, wins,
 * starting cards, owners and, when both kept them, gains); else 0 with
 * *FIRST the first that differs. */
int tune_games_equal(const tune_games *a, const tune_games *b, long n, long *first);

/* The per-game values Z[0, N) of figure F (card CARD for the per-card
 * ones) over games [0, N) of GS, N <= GS->n: their mean is the figure. For
 * the bands, cards owned (gained) in fewer than MIN_GAMES games are left
 * out; *WHICH (may be NULL) gets the extreme card (-1). 0 if the figure is
 * not defined on these games (a card never owned, dealt or gained; the
 * impact regression undetermined) or memory ran out. */
int tune_figure_values(const tune_games *gs, long n, tune_figure f, int card, long min_games, double *z, int *which);

/* Each card's impact on the win (points) over games [0, N) of GS, into
 * IMPACT[0, card count); NAN for a card never gained. 0 if the gains were
 * not kept or do not determine the regression, or memory ran out. */
int tune_card_impacts(const tune_games *gs, long n, double *impact);

#endif

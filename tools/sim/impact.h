/* impact: per-card impact estimates for `foh sim --impact` (docs/impact.md).
 *
 * At the start of every turn each player's position is recorded (the
 * features below); when the game ends, each recorded position gets the
 * player's final outcome (final score margin over the best opponent, and
 * the win share). A linear regression of the outcome on the position,
 * fitted on every player-turn, predicts what a player in a position can
 * expect; a card's impact is the mean amount by which the players who
 * gained it beat that prediction (from their position at the start of the
 * turn they gained it), with a 95% interval clustered by game.
 *
 * Every sum is an integer, so the table is the same whatever the number of
 * threads and the order the games are added in; a sum that would overflow
 * is refused (impact_print says so) rather than wrapped. */
#ifndef FOH_IMPACT_H
#define FOH_IMPACT_H

#include <jansson.h>
#include <stdio.h>

#include "common/cli.h"
#include "foh/foh.h"

/* Features: 1, margin, turn, margin*turn, turn^2, cards, tokens in hand,
 * acting, tokens invested, invested*turn, cards left in the deck, then one
 * indicator per seat order after the first player. */
#define IMPACT_BASE_FEATURES 11
#define IMPACT_MAX_K (IMPACT_BASE_FEATURES + FOH_MAX_PLAYERS - 1)
/* A row: the features, then the two outcomes (margin, win units). */
#define IMPACT_D (IMPACT_MAX_K + 2)
/* The length of a row in files (the `impact` of foh sim's shards, the
 * gains of foh tune's): that of 6 players for fewer (IMPACT_D before games
 * of more players), so that a file of such a run is as it was; entries
 * past a run's features and outcomes are 0. */
#define IMPACT_FILE_D(players) (IMPACT_BASE_FEATURES + ((players) > 6 ? (players) : 6) + 1)

typedef struct impact_stats_s {
    int k;          /* features in use (depends on the player count); 0 until the first game */
    int overflow;   /* a sum would have overflowed: the table is refused */
    long games, rows;
    long all[IMPACT_D][IMPACT_D];        /* sum over player-turns of z z' */
    long gain_all[IMPACT_D][IMPACT_D];   /* sum over gains (of any card) of z z' */
    long card_games[FOH_MAX_CARDS];      /* games in which the card was gained */
    long card_sum[FOH_MAX_CARDS][IMPACT_D];
    long card_sq[FOH_MAX_CARDS][IMPACT_D][IMPACT_D]; /* per game, per card: the gains' summed z, squared */
    long owned_n[FOH_MAX_CARDS], owned_win[FOH_MAX_CARDS]; /* owners at the end (the old figure) */
    long player_games, win_units;
} impact_stats;

/* One game being watched. */
typedef struct impact_game_s impact_game;

/* Start watching a game of PLAYERS players of CS; NULL if out of memory. */
impact_game *impact_game_new(const foh_cardset *cs, int players);
void impact_game_free(impact_game *ig);
/* The observer to pass to the match loop (its ud is IG). */
foh_observer impact_observer(impact_game *ig);
/* The game G is over, scored SCORE: add its rows into S. */
void impact_game_finish(impact_game *ig, foh_game *g, const foh_score *score, impact_stats *s);

void impact_merge(impact_stats *into, const impact_stats *from);

/* One gain of a finished game: the card and its row z (the gainer's
 * position's features at the start of the turn, then the final margin in
 * VP and the win in WIN_UNITS), as impact_game_finish sums it. */
typedef struct {
    int card;
    long z[IMPACT_D];
} impact_gain;

/* Features in use with PLAYERS players. */
int impact_features(int players);
/* The gains of the finished game IG (scored SCORE), in the order made:
 * *OUT (malloc'd; NULL when there is none) and *N. 0 if out of memory or
 * positions were lost while watching (then *OUT is NULL). For foh tune,
 * which keeps each game's gains to pair two card sets game by game. */
int impact_game_gains(const impact_game *ig, const foh_score *score, impact_gain **out, int *n);
/* M += Z Z' over Z's first D entries; *OVERFLOW set if a sum would overflow. */
void impact_add_outer(long m[IMPACT_D][IMPACT_D], const long *z, int d, int *overflow);
/* The regression of outcome O (0: margin, 1: win units) on the K features,
 * fitted on the rows summed in M: coefficients B[0, K). 0 if the rows do
 * not determine it. The same fit as the table's. */
int impact_fit(int k, const long m[IMPACT_D][IMPACT_D], int o, double *b);

/* The sums of S, of a run of PLAYERS players, as the `impact` object of a
 * shard file (impact_shard.c; docs/scaling.md): {k, overflow, games, rows,
 * ..., card_sq: [...]}, each field a flat array of integers, with rows of
 * IMPACT_FILE_D(PLAYERS) entries and CARDS cards (the shard's
 * sim_shard_layout); NULL if out of memory. */
json_t *impact_stats_to_json(const impact_stats *s, int cards, int players);
/* Read J, written by impact_stats_to_json for a run of PLAYERS players
 * with CARDS cards' rows, into S (cleared first). 0 with WHY set if a
 * field is missing, of the wrong size or not a whole number. */
int impact_stats_from_json(const json_t *j, int players, int cards, impact_stats *s, char *why, size_t len);

/* Add ISUMS, the `impact` of shard PATH (or NULL: it has none), the
 * INDEX-th shard given (0 the first, FIRST), of GAMES games of PLAYERS
 * players with CARDS cards' rows, into *TOTAL (made on the first shard
 * when it has them): all the shards must have them or none, the games they
 * count must be the shard's, and they must be sums impact_stats_from_json
 * accepts. 0 after saying why as foh merge; warns, naming PATH, when the
 * sums overflowed (the merged run then has no impact table). */
int impact_add_shard(const char *path, const char *first, int index, json_t *isums, long games, int players,
                     int cards, impact_stats **total);

/* The per-card table (sorted by impact on the win rate), or why there is none. */
void impact_print(FILE *out, const impact_stats *s, const foh_cardset *cs);
/* The same for the JSON report (`impact` of foh sim --json; docs/impact.md):
 * {gains, player_turns, games, r2_margin, r2_win, base_win_rate, cards:
 * [{card, name, gains, games, owners_win_rate, gainers_win_rate,
 * impact_on_win_points {value, low, high}, impact_on_margin_vp {...},
 * vs_turn_win_points}]}, or {not_computed: why}. NULL if out of memory. */
json_t *impact_json(const impact_stats *s, const foh_cardset *cs);

/* foh sim --without: BASE (O's card set) loaded again without the cards
 * O->without, through a temporary variant; NULL after saying why not (*STATUS
 * then CLI_USAGE for an unknown card, else CLI_DATA). */
foh_cardset *sim_load_without(const cli_options *o, const foh_cardset *base, int *status);

/* foh sim --ablation: O's games on CS, then once more without each card of
 * CS in turn; prints the table of changes. A CLI status. */
int sim_ablation(const cli_options *o, const foh_cardset *cs);

#endif

/* Playing whole games: the loop that asks each seat's player for a decision
 * and applies it. Used by `foh play`, `foh sim` and the tests. */
#ifndef FOH_MATCH_H
#define FOH_MATCH_H

#include <stdint.h>

#include "foh/bot.h"
#include "foh/game.h"

/* Called after every applied decision (may be NULL). */
typedef void (*foh_match_observer)(void *ud, foh_game *g, const foh_action *applied, int player);

/* Play G to the end: SEATS[p] decides for player p. Stops with an error
 * when a player picks an index out of range, a script fails, or more than
 * MAX_DECISIONS decisions were needed (a guard against games that cannot
 * end). *DECISIONS (may be NULL) receives the number of decisions taken. */
foh_status foh_match_play(foh_game *g, foh_player *const *seats, long max_decisions, foh_match_observer observe,
                          void *ud, long *decisions, foh_error *err);

/* The legal actions of G into *BUF, grown as needed (*CAP is its capacity;
 * start with *BUF NULL and *CAP 0, free(*BUF) when done). Returns their
 * number, or -1 if out of memory. */
int foh_match_legal(foh_game *g, foh_action **buf, int *cap);

/* Seed of game number INDEX of a run seeded with SEED (deterministic). */
uint64_t foh_seed_for(uint64_t seed, uint64_t index);

#endif

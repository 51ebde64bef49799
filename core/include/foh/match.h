/* Playing games: the one loop that asks each seat's player for a decision,
 * checks it, applies it and tells the observers. `foh play`, `foh replay`,
 * `foh sim`, the scenario runner and the tests all play through it. */
#ifndef FOH_MATCH_H
#define FOH_MATCH_H

#include "foh/api.h"

#include <stdint.h>

#include "foh/bot.h"
#include "foh/game.h"

/* One decision of a match. */
typedef struct {
    foh_action action; /* what the player chose */
    int player;        /* who chose it (0-based) */
    int nlegal;        /* among how many legal actions */
    double seconds;    /* wall-clock time the player took to choose (0 when not timed) */
    int timed;         /* 0: the player's decisions are not timed (foh_player.instant) */
} foh_decision;

/* An observer of a match (log, save file, timing, trace, statistics).
 * Any callback may be NULL; a callback's error stops the match. */
typedef struct {
    /* D was chosen and is not applied yet: G is the position it was chosen
     * in (for observers that need what was there before). */
    foh_status (*before)(void *ud, foh_game *g, const foh_decision *d, foh_error *err);
    /* D was applied: G is the position after it. */
    foh_status (*after)(void *ud, foh_game *g, const foh_decision *d, foh_error *err);
    void *ud;
    /* A turn is about to begin: G is at the turn's first decision (no
     * choice pending, no bonus action under way) and its player is not
     * asked yet. The one point of the loop where G may be changed: `foh
     * play --watch` moves it onto a reloaded card set here
     * (foh_game_rebind); the legal actions are listed after it. */
    foh_status (*turn)(void *ud, foh_game *g, foh_error *err);
} foh_observer;

/* A match in progress: a game, its seats and observers (all owned by the
 * caller), and the loop's scratch. */
typedef struct {
    foh_game *game;
    foh_player *const *seats; /* seats[p] decides for player p */
    const foh_observer *observers;
    int nobservers;
    long steps;      /* decisions applied so far */
    foh_action *legal; /* scratch, grown as needed */
    int cap;
} foh_match;

/* Start a match of G (at any point of the game). Free with foh_match_free. */
FOH_API void foh_match_init(foh_match *m, foh_game *g, foh_player *const *seats, const foh_observer *observers,
                     int nobservers);
FOH_API void foh_match_free(foh_match *m);

/* One decision: at a turn's first decision the observers' turn callbacks
 * run, then the player to act picks one of the legal actions, the
 * observers see it, it is applied and the observers see the result.
 * Returns FOH_OK, or the error of the legal-action listing, of the player
 * (a bot's look-ahead met a script error; a human quit), of its pick (an
 * index out of range is an error, never a default), of the engine (the game
 * is then exactly as before the decision) or of an observer. The errors of
 * the player, its pick and the engine name the player ("P2 (greedy): ...");
 * those of the listing and the observers are theirs as they are.
 * FOH_ERR_USAGE if the game is over. */
FOH_API foh_status foh_match_step(foh_match *m, foh_error *err);

/* Steps until the game is over, or MAX_STEPS decisions were applied by this
 * call (0: no such stop). A game always ends (the turn limit, engine ruling
 * E1, as the game's card set has it now: a reload may change it); a game
 * that would not is an engine error. */
FOH_API foh_status foh_match_run(foh_match *m, long max_steps, foh_error *err);

/* Play G to the end with SEATS and OBSERVERS; *STEPS (may be NULL)
 * receives the number of decisions applied. */
FOH_API foh_status foh_match_play(foh_game *g, foh_player *const *seats, const foh_observer *observers, int nobservers,
                          long *steps, foh_error *err);

/* The legal actions of G into *BUF, grown as needed (*CAP is its capacity;
 * start with *BUF NULL and *CAP 0, free(*BUF) when done). Returns their
 * number; -1 with ERR set on a script error or when out of memory. */
FOH_API int foh_match_legal(foh_game *g, foh_action **buf, int *cap, foh_error *err);

/* Index of action A among the N actions LEGAL, or -1: matched by kind and
 * what the kind takes (a card for Invest, Snipe, Activate; tokens for
 * Invest; the option of a choice). */
FOH_API int foh_match_find(const foh_action *legal, int n, const foh_action *a);

/* Seed of game number INDEX of a run seeded with SEED (deterministic). */
FOH_API uint64_t foh_seed_for(uint64_t seed, uint64_t index);

#endif

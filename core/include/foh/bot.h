/* Players: one decision interface for every kind of player (bot or human).
 * A player is asked at each decision point where it is to act, including
 * choices inside card effects, and answers with one of the legal actions. */
#ifndef FOH_BOT_H
#define FOH_BOT_H

#include "foh/api.h"

#include <stddef.h>
#include <stdint.h>

#include "foh/game.h"

/* One action a bot weighed at its last decision (foh_player.explain). */
typedef struct {
    int index;    /* into the legal actions its decide was given */
    double value; /* greedy: the position value after it (VP and tokens, minus
                   * the best opponent's); ISMCTS: mean reward, 0..1 */
    long visits;  /* ISMCTS: simulations through it; 0 for greedy */
} foh_alternative;

typedef struct foh_player foh_player;
struct foh_player {
    const char *name;
    /* Pick one of the N legal actions LEGAL (N >= 1) for game G: return its
     * index, 0..N-1. WHY (may be NULL) receives a short reason for the
     * choice. Returns -1 with ERR set when the player cannot decide: a card
     * script's error or limit met while looking ahead (FOH_ERR_SCRIPT, naming
     * the action tried and the card, file and line: a bot never quietly
     * avoids a failing branch), or out of memory. */
    int (*decide)(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                  foh_error *err);
    void (*free)(foh_player *self);
    /* The actions the last decide weighed, best first (the one it chose
     * first), at most MAX into OUT; returns how many (-1: nothing to say
     * this time). NULL for players that weigh nothing (random, human). For
     * `foh play --explain` and hints. */
    int (*explain)(foh_player *self, foh_alternative *out, int max);
    /* 1: decide takes well under a microsecond and looks nothing ahead (the
     * random bot): the match loop does not time its decisions, as reading
     * the clock twice would cost more than the decision. */
    int instant;
    /* Optional (NULL for most players): decide from the legal actions with
     * the Invest amounts grouped (foh_game_legal_grouped: M entries GROUPED
     * standing for N >= 1 legal actions), returning the index 0..N-1 of the
     * pick in the full listing, exactly as decide would have from it. The
     * match loop calls it instead of decide when it is set. For players
     * that pick without weighing each action (the random bot), for whom
     * listing every amount would be most of a decision's cost. */
    int (*decide_grouped)(foh_player *self, foh_game *g, const foh_action *grouped, int m, int n, foh_error *err);
};

/* A bot that picks an action kind uniformly among the legal kinds, then an
 * action of that kind uniformly. Its own random stream is seeded by SEED,
 * so its play is reproducible. NULL if out of memory. */
FOH_API foh_player *foh_bot_random_new(uint64_t seed);

/* A bot that tries every legal action (Invest: 1-4, 6, 8 tokens or all)
 * on a copy of the game whose hidden deck order is re-sampled, answers its
 * own follow-up choices the same way, and takes the action leaving the best
 * position: its VP if the game ended now, its tokens and investment (minus
 * snipe risk), minus the best opponent's. Reproducible for a SEED. */
FOH_API foh_player *foh_bot_greedy_new(uint64_t seed);

#define FOH_ISMCTS_DEFAULT_ITERATIONS 30

/* An Information Set Monte Carlo Tree Search bot that models every other
 * player as the greedy bot: each iteration samples the hidden deck order,
 * picks one of the greedy bot's 6 best moves by UCB1, then plays the
 * greedy moves of every player (its own included, choices inside effects
 * too; kept in the tree, so each visit goes one round deeper) and scores
 * the position for itself with the greedy bot's evaluation. It plays the
 * move with the best mean. An iteration costs a few greedy decisions.
 * Budget per decision: ITERATIONS (0: FOH_ISMCTS_DEFAULT_ITERATIONS;
 * reproducible), or MS milliseconds when MS > 0 (depends on the machine). */
FOH_API foh_player *foh_bot_ismcts_new(uint64_t seed, long iterations, double ms);

/* The opponent model of an ISMCTS bot: what it expects the other players
 * to play below the root of its search. GREEDY: the greedy bot (the
 * default: strong against greedy opponents, whom it then models exactly);
 * RANDOM: the random bot (a search that assumes nothing of its opponents'
 * skill: measured against greedy bots, it plays opponents it does not
 * model). Its own moves below the root are the greedy bot's either way. */
enum { FOH_ISMCTS_MODEL_GREEDY, FOH_ISMCTS_MODEL_RANDOM };
/* foh_bot_ismcts_new with the opponent model MODEL (FOH_ISMCTS_MODEL_*). */
FOH_API foh_player *foh_bot_ismcts_new_model(uint64_t seed, long iterations, double ms, int model);

/* The largest ISMCTS budget a seat spec may ask for, per decision: an
 * iteration costs some 70 microseconds, so 100,000 take seconds. */
#define FOH_ISMCTS_MAX_ITERATIONS 100000
#define FOH_ISMCTS_MAX_MS 60000

/* What a seat spec asks for (foh_bot_spec_parse). */
enum { FOH_BOT_KIND_RANDOM, FOH_BOT_KIND_GREEDY, FOH_BOT_KIND_ISMCTS };
typedef struct {
    int kind;        /* FOH_BOT_KIND_* */
    long iterations; /* ISMCTS: iterations per decision, or 0 */
    long ms;         /* ISMCTS: milliseconds per decision, or 0 (both 0: the default budget) */
    int model;       /* ISMCTS: FOH_ISMCTS_MODEL_* */
} foh_bot_spec;

/* SPEC read into *OUT: the one reading of a seat spec, by
 * foh_bot_from_spec and by whoever checks a budget before making a bot
 * (foh serve). The grammar is foh_bot_from_spec's; a budget is a plain
 * decimal count, digits alone ("2000", "50ms"; not "2e3", "0x7d0",
 * " 20", "+20" or "20.5"), 1 or more and at most the limits below.
 * FOH_ERR_USAGE with ERR naming the spec otherwise (*OUT then unset). */
FOH_API foh_status foh_bot_spec_parse(const char *spec, foh_bot_spec *out, foh_error *err);

/* A player from a seat spec: "random", "greedy", "ismcts" (default budget),
 * "ismcts:2000" (iterations per decision, at most FOH_ISMCTS_MAX_ITERATIONS)
 * or "ismcts:50ms" (milliseconds, at most FOH_ISMCTS_MAX_MS), each
 * optionally followed by the opponent model ":greedy" (the default) or
 * ":random" ("ismcts:200:random", "ismcts:random"). NULL with ERR set
 * (FOH_ERR_USAGE) for a bad spec or a budget over the limits. */
FOH_API foh_player *foh_bot_from_spec(const char *spec, uint64_t seed, foh_error *err);

/* Free any player (NULL allowed). */
FOH_API void foh_player_free(foh_player *p);

#endif

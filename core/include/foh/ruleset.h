/* The ruleset interface: what every game played on the platform implements.
 *
 * The platform (the match loop, the bots, the tools) plays any game through
 * this one method table, in the spirit of OpenSpiel's State (current
 * player, legal actions, apply, clone, returns, observation, resampling
 * from one player's view) and SQLite's versioned method tables: a ruleset
 * fills in a `foh_ruleset` with `version = FOH_RULESET_VERSION`, and the
 * registry (core/play/registry.c, the one platform file that names
 * rulesets) lists it under the name a card set's game.yaml gives in its
 * `ruleset:` key. docs/ruleset.md shows how to write one, following the toy
 * game of tests/toy/.
 *
 * Ownership: a card set (foh_cardset) is immutable once loaded and may be
 * shared by threads; an engine (foh_engine) belongs to one thread and runs
 * the card set's scripts; a game (foh_game) is a plain value of the
 * ruleset's own size, copied with memcpy (game_copy), that never points
 * into Lua. Each of the three begins with a `foh_object_head` naming its
 * ruleset, so the platform's functions (foh/game.h) find the methods.
 *
 * Errors: every method that can fail returns a foh_status and fills the
 * caller's foh_error (foh/error.h) with a message naming the file, line and
 * card when one is at fault; an action is applied all or nothing.
 *
 * Determinism: the same card set, options, seed and actions give the same
 * game, bit for bit: all chance comes from the game's own generator. */
#ifndef FOH_RULESET_H
#define FOH_RULESET_H

#include "foh/api.h"

#include <stddef.h>
#include <stdint.h>

#include "foh/cardset.h"
#include "foh/error.h"
#include "foh/game.h"

/* The interface's version: a ruleset built against another is refused. */
#define FOH_RULESET_VERSION 1

typedef struct foh_ruleset foh_ruleset;
struct foh_yaml_node; /* foh/yaml.h */

/* The first member of every ruleset's card set, engine and game. */
typedef struct {
    const foh_ruleset *ruleset;
} foh_object_head;

/* What the platform asks of a card set to load (foh_cardset_load_sets and
 * foh_cardset_check of foh/cardset.h document the fields). */
typedef struct {
    const char *const *dirs;     /* the card set's folder, then expansions overlaid on it */
    int ndirs;
    const char *const *variants; /* variant folders, applied in order */
    int nvariants;
    const char *const *search;   /* folders where `extend: NAME` is looked up */
    int nsearch;
    foh_problem_fn report;       /* non-NULL: foh check's mode, every problem told to it */
    void *report_ctx;
} foh_load_request;

/* A number of a card set that foh tune may change: its path as a
 * variant's `set:` names it, its value and the range tune keeps to. */
#define FOH_TUNABLE_PATH 112
typedef struct {
    char path[FOH_TUNABLE_PATH];
    int value, lo, hi;
} foh_tunable;

/* One line of a player's score breakdown: e.g. {"VP", 12}. */
#define FOH_SCORE_LABEL 48
typedef struct {
    char label[FOH_SCORE_LABEL];
    double value;
} foh_score_line;

struct foh_ruleset {
    int version;           /* FOH_RULESET_VERSION */
    const char *name;      /* as game.yaml's `ruleset:` names it, e.g. "flow-of-history" */
    const char *title;     /* for people, e.g. "The Flow of History" */
    int max_players;       /* the most players any card set of it may allow (<= FOH_MAX_PLAYERS) */

    /* ---- card sets and engines ---- */
    /* Load the card set of REQ (its game.yaml names this ruleset). NULL
     * with ERR set (file:line:column and the card) on error. */
    foh_cardset *(*cardset_load)(const foh_load_request *req, foh_error *err);
    void (*cardset_free)(foh_cardset *cs);
    /* An engine for CS with the script LIMITS (NULL: the defaults; a
     * ruleset without scripts ignores them). NULL with ERR set on a script
     * error while loading. */
    foh_engine *(*engine_new)(const foh_cardset *cs, const foh_script_limits *limits, foh_error *err);
    void (*engine_free)(foh_engine *eng);

    /* ---- a game ---- */
    /* Set up a new game (players and seed in OPT). NULL with ERR set. */
    foh_game *(*game_new)(foh_engine *eng, const foh_options *opt, foh_error *err);
    foh_game *(*game_clone)(const foh_game *g);
    /* Overwrite DST with SRC (same engine); DST keeps its own log sink. */
    void (*game_copy)(foh_game *dst, const foh_game *src);
    void (*game_free)(foh_game *g);
    int (*players)(const foh_game *g);
    /* Whose decision it is (0-based): a turn's player, or whoever answers
     * a pending choice. */
    int (*to_act)(const foh_game *g);
    int (*is_over)(const foh_game *g);
    /* Turns completed (for seeds of look-ahead and the loop's bound). */
    int (*turn)(const foh_game *g);
    /* The most turns a game may last: the match loop's bound, so that no
     * game runs for ever. */
    int (*turn_limit)(const foh_game *g);
    /* The most decisions one turn can take (The Flow of History: two
     * actions, each with up to 256 choices inside): with turn_limit, the
     * match loop's proof that a game ends. */
    long decisions_per_turn;
    /* 1 while a turn is under way past its first decision (a bonus
     * action); the match loop's turn observers run only at a turn's
     * start, when there is no choice pending and this is 0. */
    int (*mid_turn)(const foh_game *g);

    /* ---- decisions ---- */
    /* The legal actions now, as foh_game_legal_actions documents. */
    int (*legal_actions)(foh_game *g, foh_action *out, int max, foh_error *err);
    /* Optional (NULL: none): the same with runs of amounts grouped, as
     * foh_game_legal_grouped documents; an entry of kind AMOUNT_KIND with
     * `tokens` T stands for the T actions of amounts 1..T. */
    int (*legal_grouped)(foh_game *g, foh_action *out, int max, int *nlegal, foh_error *err);
    int amount_kind;       /* the kind whose amounts legal_grouped groups, or -1 */
    foh_status (*check)(foh_game *g, const foh_action *a, foh_error *err);
    /* Apply A for the player to act, all or nothing. */
    foh_status (*apply)(foh_game *g, const foh_action *a, foh_error *err);
    /* The choice a card's effect waits on, or NULL. */
    const foh_choice *(*choice)(const foh_game *g);
    /* A's name for logs, humans and saves, e.g. "invest 2 in Warriors". */
    void (*describe_action)(const foh_game *g, const foh_action *a, char *buf, size_t len);

    /* ---- results and views ---- */
    /* Per-player results once the game is over (or as the game stands):
     * OUT[p] is 1 for a sole winner, 1/k each for k tied winners, 0
     * otherwise. */
    foh_status (*results)(foh_game *g, double *out, foh_error *err);
    /* PLAYER's score as the game stands, broken down into at most MAX
     * lines into OUT, the first being what the ruleset ranks by (The Flow
     * of History: VP; the toy: Victory Tokens), then its parts and
     * tie-breaks; returns how many, or -1 with ERR set. */
    int (*score_lines)(foh_game *g, int player, foh_score_line *out, int max, foh_error *err);
    /* Replace what player VIEWER cannot see (hidden cards and their order,
     * the generator's state) by a sample drawn from SEED consistent with
     * everything VIEWER sees, so bots search copies without cheating. */
    void (*determinize)(foh_game *g, int viewer, uint64_t seed);
    /* What PLAYER sees of G, as text for a person or a client (one fact a
     * line: public zones, PLAYER's private ones, counts of the others');
     * PLAYER -1 is a spectator, who sees the public zones alone,
     * into BUF (LEN bytes, NUL-terminated, cut at LEN); returns the length
     * the whole text needs, as snprintf does. */
    int (*observe)(const foh_game *g, int player, char *buf, size_t len);
    /* Send G's log lines to FN (NULL: none). */
    void (*set_log)(foh_game *g, foh_log_fn fn, void *ud);
    /* A digest of the whole position (equal games, equal digests). */
    uint64_t (*digest)(const foh_game *g);

    /* ---- the ruleset's own evaluation, for the greedy and ISMCTS bots ---- */
    /* Work done once per decision of PLAYER on G (SCRATCH: a game of the
     * same engine to overwrite): into *CONTEXT, a number evaluate reads. */
    foh_status (*eval_begin)(foh_game *g, int player, foh_game *scratch, double *context, foh_error *err);
    /* A heuristic value of G for PLAYER (higher is better; at game over,
     * the difference to the best opponent plus a win bonus). */
    foh_status (*evaluate)(foh_game *g, int player, double context, foh_game *scratch, double *value,
                           foh_error *err);
    /* Optional (NULL: every action): whether a look-ahead bot weighs A at
     * all (The Flow of History skips unusual Invest amounts). */
    int (*worth_weighing)(const foh_game *g, const foh_action *a);
    /* What evaluate's number measures, for a bot's reasons. */
    const char *evaluation;
    /* A difference of evaluate's values that ISMCTS maps to a 73% reward
     * (its reward is the logistic of value / value_scale). */
    double value_scale;

    /* ---- scenarios (optional: NULL, and foh scenario has no set-up and
     * no --coverage for the ruleset) ---- */
    /* Put G, just set up, in the position SETUP describes: a scenario's
     * `setup:` map in the ruleset's own terms (The civilization draft:
     * hands, cards in play, piles, VT, the age; docs/scenarios.md). Then
     * the scenario's actions are applied. FOH_ERR_DATA with ERR at the
     * file:line of the first bad entry (nothing half-applied matters: the
     * game is thrown away). */
    foh_status (*scenario_setup)(foh_game *g, const struct foh_yaml_node *setup, foh_error *err);
    /* The cards of CS (count, and each one's id), for --coverage. */
    int (*card_count)(const foh_cardset *cs);
    const char *(*card_id)(const foh_cardset *cs, int card);
    /* 1 if CARD has done its part in G so far (played, used, scored):
     * what `foh scenario --coverage` counts over every scenario. */
    int (*exercised)(const foh_game *g, int card);

    /* ---- the report of foh sim (optional: NULL, and it has no card
     * tables) ---- */
    /* The card that action A, about to be taken in G, puts to use for its
     * player (played, added to a conflict), or -1: what the per-card
     * statistics count. */
    int (*played_card)(const foh_game *g, const foh_action *a);
    /* Card CARD's kind for people ("wonder", "troop"): the report's
     * second table groups cards by it. */
    const char *(*card_kind)(const foh_cardset *cs, int card);

    /* ---- foh tune (optional: NULL, and it has nothing to change) ---- */
    /* The numbers of CS a designer balances, at most MAX into OUT (a
     * variant's `set:` paths, their values and ranges); returns how many
     * there are in all (may exceed MAX). */
    int (*tunables)(const foh_cardset *cs, foh_tunable *out, int max);

    /* ---- foh play --watch (optional: NULL, and it is refused) ---- */
    /* The files CS was read from: source I's path and the hash
     * (foh_file_hash) of its bytes as read, or NULL past the last. */
    const char *(*source)(const foh_cardset *cs, int i, uint64_t *hash);
    /* Move G onto ENG, an engine of the same card set read again (edited
     * numbers, text or effects), between turns. Refused, G unchanged,
     * with a message naming what differs (FOH_ERR_DATA) when the position
     * cannot carry over: cards added, removed, moved or retyped. */
    foh_status (*rebind)(foh_game *g, foh_engine *eng, foh_error *err);

    /* ---- a table for people, `foh serve` (optional: NULL, and a client
     * shows a card's name alone, and no legend) ---- */
    /* Card CARD (0, 1, ...) of CS for a player: its name as observe's text
     * writes it into NAME (NAMELEN bytes), and what the card is, shows and
     * does, one paragraph, into TEXT (TEXTLEN bytes); both cut to fit.
     * Returns 1, or 0 past the last card (NAME and TEXT then empty). */
    int (*describe_card)(const foh_cardset *cs, int card, char *name, size_t namelen, char *text, size_t textlen);
    /* What the symbols and short words of observe's text mean, one
     * "SYMBOL: meaning" a line, into BUF (LEN bytes, cut to fit); returns
     * the length the whole text needs, as snprintf does. */
    int (*legend)(const foh_cardset *cs, char *buf, size_t len);
};

/* PLAYER's score broken down (the ruleset's score_lines): at most MAX
 * lines into OUT, the first what the ruleset ranks by; returns how many, or
 * -1 with ERR set (FOH_ERR_SCRIPT: scoring ran a failing script). Works at
 * any time: a ruleset that scores during the game (the toy's rounds, the
 * second game's ages) shows what was scored so far. */
FOH_API int foh_game_score_lines(foh_game *g, int player, foh_score_line *out, int max, foh_error *err);

/* The ruleset registered under NAME, or NULL. */
FOH_API const foh_ruleset *foh_ruleset_find(const char *name);
/* The registered rulesets, 0..foh_ruleset_count()-1, in the registry's
 * order (the first is the default for a game.yaml naming none). */
FOH_API int foh_ruleset_count(void);
FOH_API const foh_ruleset *foh_ruleset_at(int i);
/* The ruleset the card set in folder DIR is played by, into *OUT: the one
 * its game.yaml names (`ruleset: NAME`), or the default (the registry's
 * first) when it names none or cannot be read (loading it then says why).
 * FOH_ERR_DATA naming the file and line for a name no ruleset has. */
FOH_API foh_status foh_ruleset_of_dir(const char *dir, const foh_ruleset **out, foh_error *err);
/* The ruleset of a card set, engine or game. */
FOH_API const foh_ruleset *foh_cardset_ruleset(const foh_cardset *cs);
FOH_API const foh_ruleset *foh_game_ruleset(const foh_game *g);

#endif

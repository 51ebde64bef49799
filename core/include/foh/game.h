/* The game: create, list legal actions, apply, read, copy, score.
 *
 * A foh_game is a plain C value (no pointers into Lua): foh_game_copy is a
 * memcpy, and the same card set, options, seed and actions always give the
 * same game, bit for bit. Choices inside a card effect (which opponent,
 * which stack, which card) are decision points exactly like turn actions:
 * foh_game_legal_actions lists them and foh_game_apply takes them.
 *
 * Players are numbered 0..players-1 in C (1..players in Lua scripts). */
#ifndef FOH_GAME_H
#define FOH_GAME_H

#include "foh/api.h"

#include <stddef.h>
#include <stdint.h>

#include "foh/cardset.h"
#include "foh/error.h"

/* An engine runs card scripts: it owns one sandboxed Lua state. Create one
 * per thread; any number of games of the same card set may use it. */
typedef struct foh_engine foh_engine;

/* Limits on card and variant scripts, which are untrusted. Over a limit the
 * effect stops with an error naming the card, the script's file and line,
 * and the limit; the action is rejected and the game left as it was. */
typedef struct {
    long instructions;   /* Lua VM instructions per effect call (counted per 1,000); library
                          * calls and allocations count the work they do as instructions */
    size_t memory_bytes; /* bytes the engine's Lua state may hold in all */
    long time_ms;        /* wall-clock milliseconds per action: the last line of defence */
    int lua_only;        /* 1: call every effect's Lua functions, never the C fast paths of the
                          * helpers (core/rulesets/flow/lua/native.c); the same games, slower: for checking them */
} foh_script_limits;
#define FOH_DEFAULT_SCRIPT_INSTRUCTIONS 20000000L
#define FOH_DEFAULT_SCRIPT_MEMORY ((size_t)64 << 20)
#define FOH_DEFAULT_SCRIPT_TIME_MS 5000L

/* Create an engine for CS (which must outlive it), with the default script
 * limits. NULL on error (ERR set). */
FOH_API foh_engine *foh_engine_new(const foh_cardset *cs, foh_error *err);
/* The same with LIMITS (NULL: the defaults; a field <= 0: its default).
 * Loading the scripts counts against the limits too. */
FOH_API foh_engine *foh_engine_new_limited(const foh_cardset *cs, const foh_script_limits *limits, foh_error *err);
FOH_API void foh_engine_free(foh_engine *eng);
FOH_API const foh_cardset *foh_engine_cardset(const foh_engine *eng);

/* 1 if CARD's rule took effect on this engine since it was made or since
 * foh_engine_exercised_clear, else 0: its effect ran (on_gain, activate,
 * a counting Permanent effect, end_game; a remembered result of one
 * counts), its constant Permanent icons were counted, it ended the game,
 * or (for a card with no effect) its stripe was counted. For coverage
 * reports (a set, not a count: noting it is on the hot path of every icon
 * count). */
FOH_API int foh_engine_exercised(const foh_engine *eng, int card);
FOH_API void foh_engine_exercised_clear(foh_engine *eng);

/* Calls into Lua this engine made so far (card effects, counting effects,
 * variant hooks and reactions, nested calls included). For benchmarks. */
FOH_API long foh_engine_lua_calls(const foh_engine *eng);

typedef struct foh_game foh_game;

/* Options of a new game. */
typedef struct {
    int players;   /* within the card set's min..max players */
    uint64_t seed; /* seeds the game's only random number generator */
    /* 1: the caller replaces the position at once (foh/position.h, as the
     * scenario runner does): the scripts of the set-up (variant set-up
     * hooks, the first turn's start) are not run on the one dealt. */
    int position_only;
} foh_options;

/* Set up a new game (rulebook "Game Setup"): Market, Civilization deck,
 * starting cards, tokens, random first player. NULL on error (ERR set:
 * FOH_ERR_USAGE for a bad player count, FOH_ERR_SCRIPT for a script error). */
FOH_API foh_game *foh_game_new(foh_engine *eng, const foh_options *opt, foh_error *err);

/* An independent copy (the log sink is not copied). NULL if out of memory. */
FOH_API foh_game *foh_game_clone(const foh_game *g);

/* Replace what player VIEWER (0-based) cannot see by a sample drawn from
 * SEED, consistent with everything VIEWER sees (The Flow of History: the
 * order of the unseen cards of each age in the Civilization deck and the
 * state of the random generator, hidden from every player alike). Bots
 * search determinized copies so they never use hidden information. */
FOH_API void foh_game_determinize(foh_game *g, int viewer, uint64_t seed);

/* Overwrite DST with SRC (a memcpy; DST keeps its own log sink). */
FOH_API void foh_game_copy(foh_game *dst, const foh_game *src);

FOH_API void foh_game_free(foh_game *g);

/* ---- Actions and decision points ---- */

typedef enum {
    FOH_ACT_INVEST,   /* card: Market card; tokens: >= 1 (rulebook "Invest") */
    FOH_ACT_COMPLETE, /* no argument (rulebook "Complete") */
    FOH_ACT_SNIPE,    /* card: a Market card an opponent invested in ("Snipe") */
    FOH_ACT_ACTIVATE, /* card: a visible Turn Action card of yours ("Activate") */
    FOH_ACT_HARVEST,  /* no argument ("Harvest") */
    FOH_ACT_CHOOSE,   /* option: index into the pending choice's options */
    FOH_ACT_PASS,     /* decline a bonus action a variant granted */
    FOH_ACT_CUSTOM    /* option: a turn action the card set or a variant declares (`actions:`) */
} foh_action_kind;
/* The platform's view of actions: a ruleset's kinds are 0 to
 * FOH_MAX_ACTION_KINDS - 1, FOH_ACT_CHOOSE being every ruleset's answer to
 * a choice (foh_game_choice); the other kinds above are The Flow of
 * History's. */
#define FOH_MAX_ACTION_KINDS 16

/* Investor values of Market cards: -1 none, 0..players-1 a player, and
 * FOH_NEUTRAL_INVESTOR + k the k-th neutral marker, which no player owns
 * (past every player number). */
#define FOH_NEUTRAL_INVESTOR FOH_MAX_PLAYERS
#define FOH_NEUTRAL_MARKERS 2 /* neutral markers a card set may have */

typedef struct {
    foh_action_kind kind;
    int card;   /* card index, or -1 */
    int tokens; /* an amount: The Flow of History's Invest tokens; 0 otherwise */
    int option; /* Choose only (an option index), or a declared action; -1 otherwise */
} foh_action;

/* An action as one stable integer, for clients that keep actions as
 * numbers (saves, a browser, a learned policy): the same action of the same
 * card set always has the same id, whatever the position. Bits 0-3 the
 * kind, 4-15 the card + 1 (0: none), 16-23 the option + 1 (0: none), 24-55
 * the amount. FOH_ERR_USAGE (and *ID untouched) for a field out of those
 * ranges. foh_action_from_id is its inverse (-1 for an id no action has). */
FOH_API foh_status foh_action_id(const foh_action *a, int64_t *id);
FOH_API int foh_action_from_id(int64_t id, foh_action *out);

/* The name of action kind KIND ("invest", "complete", "snipe", "activate",
 * "harvest", "choose", "pass", "action"), or NULL for a bad kind; and back:
 * the kind named NAME, or -1 (save files, scenarios). A declared action
 * (FOH_ACT_CUSTOM) is named by foh_cardset_action_name(option). */
FOH_API const char *foh_action_kind_name(int kind);
FOH_API int foh_action_kind_find(const char *name);

/* A choice offers at most FOH_MAX_OPTIONS options, each shown by a label of
 * at most FOH_OPTION_LABEL - 1 bytes (card names are held to that length at
 * load, and a script's longer label is refused), with a prompt of at most
 * FOH_PROMPT - 1 bytes: limits refused with a message, never truncated. */
#define FOH_MAX_OPTIONS 24
#define FOH_OPTION_LABEL 64
#define FOH_PROMPT 80

/* A choice inside a card effect, waiting for an answer. */
typedef struct {
    int player;        /* who chooses (0-based) */
    int card;          /* the card whose effect asks */
    char prompt[FOH_PROMPT];
    int n;             /* number of options (>= 2) */
    char label[FOH_MAX_OPTIONS][FOH_OPTION_LABEL];
} foh_choice;

/* Legal actions at the current decision point, written to OUT (up to MAX;
 * the room past the last may be used as scratch). Returns how many there
 * are in all (may exceed MAX), 0 once the game is over, -1 with ERR set:
 * FOH_ERR_SCRIPT if a card's script failed while deciding whether its Turn
 * Action can be activated, FOH_ERR_DATA if they would be more than an int
 * counts (a player holding hundreds of millions of tokens: one Invest per
 * amount). Inside an effect these are FOH_ACT_CHOOSE, one per option. */
FOH_API int foh_game_legal_actions(foh_game *g, foh_action *out, int max, foh_error *err);

/* The legal actions of foh_game_legal_actions, in the same order, with each
 * Market card's Invest amounts grouped: one entry (FOH_ACT_INVEST, card C,
 * tokens T) stands at its place for the T actions investing 1, 2, ..., T
 * tokens in C. Writes up to MAX entries into OUT (the room past the last
 * may be used as scratch) and returns how many there are (may exceed MAX);
 * *NLEGAL (may be NULL) receives the number of legal actions they stand
 * for. 0 once the game is over, -1 with ERR set as for
 * foh_game_legal_actions. For players that pick without weighing each
 * action (the random bot, foh_player.decide_grouped), for whom listing the
 * amounts one by one would be most of a decision's cost. */
FOH_API int foh_game_legal_grouped(foh_game *g, foh_action *out, int max, int *nlegal, foh_error *err);

/* Into OUT, legal action I (0-based, in foh_game_legal_actions' order) of
 * the N entries GROUPED of foh_game_legal_grouped. Returns 0, or -1 (OUT
 * untouched) when I is negative or not below the count they stand for. */
FOH_API int foh_legal_ungroup(const foh_action *grouped, int n, int i, foh_action *out);

/* Into OUT, legal action I of the N entries GROUPED of
 * foh_game_legal_grouped, as foh_legal_ungroup, for G's ruleset (whose
 * amount kind, foh_game_amount_kind, is the one grouped; -1: none). */
FOH_API int foh_game_ungroup(const foh_game *g, const foh_action *grouped, int n, int i, foh_action *out);
FOH_API int foh_game_amount_kind(const foh_game *g);

/* Per-player results (OUT has room for foh_game_players(g)): 1 for a sole
 * winner, 1/k for each of k tied winners, 0 otherwise; as the game stands
 * if it is not over. FOH_ERR_SCRIPT when scoring runs a failing script. */
FOH_API foh_status foh_game_results(foh_game *g, double *out, foh_error *err);

/* What PLAYER (0-based; -1: a spectator, the public view) sees of G, as
 * text, one fact a line (foh/ruleset.h: observe): into BUF (LEN bytes,
 * NUL-terminated, cut at LEN); returns the length the whole text needs (0
 * and an empty text for a player the game does not have). For clients of
 * any ruleset. */
FOH_API int foh_game_observe(const foh_game *g, int player, char *buf, size_t len);

/* The ruleset's own evaluation, for look-ahead bots (foh/ruleset.h:
 * eval_begin, evaluate, worth_weighing): once per decision of PLAYER, a
 * CONTEXT number; then a value of a position for PLAYER (higher is
 * better). SCRATCH is a game of the same engine the call may overwrite.
 * A script error met while evaluating is returned, never avoided. */
FOH_API foh_status foh_game_eval_begin(foh_game *g, int player, foh_game *scratch, double *context, foh_error *err);
FOH_API foh_status foh_game_evaluate(foh_game *g, int player, double context, foh_game *scratch, double *value,
                                     foh_error *err);
/* 0 if a look-ahead bot need not weigh action A at all (The Flow of
 * History: unusual Invest amounts), else 1. */
FOH_API int foh_game_worth_weighing(const foh_game *g, const foh_action *a);

/* Whether action A is legal now, without applying it: FOH_OK, or
 * FOH_ERR_ILLEGAL with a message naming the rule broken (FOH_ERR_SCRIPT if a
 * card's script failed while checking). */
FOH_API foh_status foh_game_check(foh_game *g, const foh_action *a, foh_error *err);

/* Apply action A for the player to act. An illegal action, or one whose
 * effect script fails, returns FOH_ERR_ILLEGAL / FOH_ERR_SCRIPT with a
 * message naming the rule or card, and leaves the game exactly as it was.
 * When a card effect asks a question the game stops at that decision point
 * (foh_game_choice is then non-NULL) until a FOH_ACT_CHOOSE is applied. */
FOH_API foh_status foh_game_apply(foh_game *g, const foh_action *a, foh_error *err);

/* The pending choice inside an effect, or NULL at a turn-action point. */
FOH_API const foh_choice *foh_game_choice(const foh_game *g);

/* Who decides now (0-based); -1 once the game is over. */
FOH_API int foh_game_to_act(const foh_game *g);

/* Readable text for action A at the current decision point (e.g.
 * "Invest 3 tokens in Monastery"). */
FOH_API void foh_game_describe_action(const foh_game *g, const foh_action *a, char *buf, size_t len);

/* ---- Reading the state ---- */

typedef enum {
    FOH_ZONE_DECK,    /* in the Civilization deck */
    FOH_ZONE_MARKET,
    FOH_ZONE_NATION,  /* in a player's Nation */
    FOH_ZONE_REMOVED, /* discarded / removed from the game */
    FOH_ZONE_BOX      /* never used this game (age S cards not dealt) */
} foh_zone;

FOH_API const foh_cardset *foh_game_cardset(const foh_game *g);
FOH_API int foh_game_players(const foh_game *g);
FOH_API int foh_game_current_player(const foh_game *g);
FOH_API int foh_game_first_player(const foh_game *g);
FOH_API int foh_game_turn(const foh_game *g);            /* turns completed so far */
FOH_API int foh_game_is_over(const foh_game *g);
/* Whether the game ended by reaching the turn limit (game.yaml
 * rules.turn_limit, engine ruling E1 in RULINGS.md) rather than by the
 * rules: it is scored as usual, and reports count it as stalled. */
FOH_API int foh_game_is_stalled(const foh_game *g);
FOH_API int foh_game_turn_limit(const foh_game *g);
FOH_API int foh_game_tokens(const foh_game *g, int player);
FOH_API int foh_game_supply(const foh_game *g);
FOH_API int foh_game_reserve(const foh_game *g);
/* Tokens added because the Reserve was empty (default ruling 9). */
FOH_API int foh_game_substituted(const foh_game *g);
/* Current Age: highest age value among Market cards and all owned cards. */
FOH_API int foh_game_current_age(const foh_game *g);
FOH_API int foh_game_deck_size(const foh_game *g);
/* Card at position I of the deck, 0 = top; -1 if out of range. */
FOH_API int foh_game_deck_card(const foh_game *g, int i);
FOH_API int foh_game_market_size(const foh_game *g);
FOH_API int foh_game_market_card(const foh_game *g, int slot);
/* Investor of a Market card (-1 none) and the tokens under it. */
FOH_API int foh_game_investor(const foh_game *g, int card);
FOH_API int foh_game_invested_tokens(const foh_game *g, int card);
/* The card neutral marker K (0-based) is invested in, or -1. */
FOH_API int foh_game_neutral_investment(const foh_game *g, int k);
/* Whether the player to act is taking a bonus action a variant granted
 * (legal: the granted kinds and FOH_ACT_PASS). */
FOH_API int foh_game_in_bonus(const foh_game *g);
/* The card PLAYER has invested in, or -1. */
FOH_API int foh_game_investment(const foh_game *g, int player);
FOH_API foh_zone foh_game_card_zone(const foh_game *g, int card, int *owner);
/* Cards of TYPE in PLAYER's Nation, bottom first; returns the count. */
FOH_API int foh_game_nation_cards(const foh_game *g, int player, int type, int *out, int max);
/* 1 if the card's effect is active: top of its stack, the Leader, a Wonder. */
FOH_API int foh_game_card_visible(const foh_game *g, int card);
/* Icons of every kind in PLAYER's Nation (ICONS[i] for icon kind i):
 * stripes plus Permanent effects (default ruling 6). FOH_ERR_SCRIPT if a
 * counting effect fails, FOH_ERR_USAGE for a bad player. */
FOH_API foh_status foh_game_icon_counts(foh_game *g, int player, int icons[FOH_MAX_ICONS], foh_error *err);
/* Military strength of PLAYER as an attacker and as a defender, by the
 * card set's rules (rulebook "Attack Effects"); errors as above. */
FOH_API foh_status foh_game_strengths(foh_game *g, int player, int *attack, int *defence, foh_error *err);
/* Shorthands: one icon kind; one strength (DEFENDING 0: attacker). Both
 * give -1 when the count fails (use the functions above to learn why). */
FOH_API int foh_game_icons(foh_game *g, int player, int icon);
FOH_API int foh_game_strength(foh_game *g, int player, int defending);
/* Placements into Nations so far this game (a count that only grows), and
 * the placement number of CARD (-1 if it is in no Nation): the cards placed
 * since a moment are those whose number is at least the count then. */
FOH_API long foh_game_placements(const foh_game *g);
FOH_API long foh_game_card_placement(const foh_game *g, int card);
/* The cards placed into Nations since the count was SINCE (placement number
 * at least SINCE) that are in a Nation now, in card order, into OUT (room
 * for MAX; FOH_MAX_CARDS is always enough): how many there are, which may
 * be more than MAX. The same as asking foh_game_card_placement of every
 * card, without the scan of every card. */
FOH_API int foh_game_placed_since(const foh_game *g, long since, int *out, int max);
/* Whether card's Instant/Attack effect has fired this game. */
FOH_API int foh_game_effect_fired(const foh_game *g, int card);

/* ---- Scoring (rulebook "End of Game", default rulings 7 and 8) ---- */

/* Every card's End Game effect and the variants' scoring hooks (one entry). */
#define FOH_MAX_END_EFFECTS (FOH_MAX_CARDS + 1)

typedef struct {
    int culture_icons;    /* icons worth full VP each (Culture), obsolete effects off */
    int culture_vp;       /* their VP (1 each in the base game) */
    int other_icons;      /* all other icons, end-game grants included */
    int other_vp;         /* other_icons / 2 (rules.other_icons_per_vp), rounded down */
    int total;            /* culture_vp + other_vp + sum of end[].full_vp */
    int cards;            /* cards in the Nation (tie-break 1) */
    int tokens;           /* resource tokens (tie-break 2) */
    int winner;           /* 1 if this player wins (ties may share) */
    int n_end;            /* end-game effects applied */
    /* Last: only the first n_end entries are written (a score is filled
     * and copied up to them, not for every card a card set may have). */
    struct {
        int card;         /* the card; -1 for a variant's scoring hook */
        int full_vp;      /* VP from icons worth full VP (Culture) */
        int other_icons;  /* other icons granted (counted in other_icons) */
    } end[FOH_MAX_END_EFFECTS];
} foh_score;
/* The bytes of score S that hold something: its fields and its n_end
 * entries. */
#define FOH_SCORE_USED(s) (offsetof(foh_score, end) + (size_t)(s)->n_end * sizeof((s)->end[0]))

/* How the winner was decided. */
typedef enum { FOH_TIE_NONE, FOH_TIE_CARDS, FOH_TIE_TOKENS, FOH_TIE_SHARED } foh_tiebreak;

/* Score PLAYER alone into OUT (winner left 0): the same numbers as that
 * player's entry of foh_game_score, at the cost of one player. For bots
 * weighing a change to one Nation. FOH_ERR_USAGE for a bad player. */
FOH_API foh_status foh_game_score_player(foh_game *g, int player, foh_score *out, foh_error *err);
/* Score every player (works at any time; final once the game is over).
 * OUT has room for foh_game_players(g) entries. */
FOH_API foh_status foh_game_score(foh_game *g, foh_score *out, foh_tiebreak *tiebreak, foh_error *err);

/* ---- Log ---- */

/* Receives one line of the turn-by-turn log at a time. Lines are emitted
 * only for actions that are fully applied. */
typedef void (*foh_log_fn)(void *ud, const char *line);
FOH_API void foh_game_set_log(foh_game *g, foh_log_fn fn, void *ud);

/* ---- Edited card files ---- */

/* Move G onto engine ENG, whose card set is a new load of G's with edited
 * files (`foh play --watch`): the game goes on under ENG's definitions
 * (effects, params, stripes, text, rule numbers) from its next action. The
 * position is kept: its cards are indices, so ENG's card set must have the
 * same card ids in the same order; what the position derives from card
 * data (the Nations' index: each pile's top card by card type, the cards in
 * Nations per age) is rebuilt from the new cards, so a card's age or type
 * may change. Refused, G unchanged, with a message naming what differs:
 * FOH_ERR_USAGE if G is inside an action (a choice is pending);
 * FOH_ERR_DATA if a card was added, removed or moved, if game.yaml's icons,
 * ages, card types or timings changed (their names, in order), if G's
 * player count is no longer allowed, or if the position breaks an
 * invariant under the new card set (foh_game_check_invariants: e.g. two
 * cards of a type made `single`, another Market size or number of tokens
 * in the box). FOH_ERR_MEMORY if out of memory. G keeps its log sink; the
 * old engine may be freed once no game uses it (bots copy the game they
 * are asked about into their scratch games before every use). */
FOH_API foh_status foh_game_rebind(foh_game *g, foh_engine *eng, foh_error *err);

/* ---- Checking ---- */

/* Check the invariants: every card in exactly one place, Market and deck
 * consistent with each card's zone, investments consistent, at most one card
 * in each single-card pile, tokens conserved (players + under Market cards +
 * Supply + Reserve = tokens in the box + substituted). FOH_OK or an error
 * describing the first broken invariant. */
FOH_API foh_status foh_game_check_invariants(const foh_game *g, foh_error *err);

#endif

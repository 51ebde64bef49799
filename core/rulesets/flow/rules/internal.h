/* Internal structures of the engine, shared by the modules of core/.
 * Nothing here is public: users go through core/include/foh/. */
#ifndef FOH_INTERNAL_H
#define FOH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "foh/cardset.h"
#include "foh/game.h"
#include "foh/yaml.h"
#include "foh/ruleset.h"
#include "flow.h"
#include "sandbox.h"

#define FOH_MAX_AGES 10
#define FOH_MAX_TIMINGS 12
#define FOH_MAX_SCRIPTS 16
#define FOH_MAX_SOURCES 96 /* files of a card set with its variants and scripts */
#define FOH_MAX_MARKET 12
#define FOH_MAX_ANSWERS 1024 /* choices inside one action (refused beyond, naming the card and the limit):
                              * a 100-round exchange of two players is some 200 */
/* On-gain effects waiting to run: each card's fires once per game, so the
 * queue never holds more than every card. */
#define FOH_MAX_QUEUE FOH_MAX_CARDS
#define FOH_MAX_BOX_TOKENS 100000 /* setup.tokens_in_box and setup.supply at most */
#define FOH_DEFAULT_TURN_LIMIT 1000
#define FOH_NAME 48  /* ids and names of icons, types, ages, timings, variants: at most 47 bytes */
#define FOH_PATH 1024 /* file paths (longer ones are refused at load) */
#define FOH_MAX_NEUTRAL FOH_NEUTRAL_MARKERS /* neutral investors (markers no player owns) */
#define FOH_MAX_HOOKS 32
#define FOH_MAX_VARIANTS 8
#define FOH_MAX_ICON_COUNT 1000 /* icons of one kind in an icon table a script returns */

/* The action kind of the set-up hooks running like an action (so that
 * their choices are decision points); never applied by a player. */
#define FOH_ACT_SETUP_RUN ((foh_action_kind)(FOH_ACT_CUSTOM + 1))
#define FOH_MAX_ACTIONS 8 /* declared turn actions (`actions:`) */

/* A share of a pile of tokens (rules.harvest.share, rules.snipe.share):
 * num/den of it, rounded down, up or to the nearest (halves up). */
typedef enum { FOH_ROUND_DOWN, FOH_ROUND_UP, FOH_ROUND_NEAREST } foh_rounding;
typedef struct {
    int num, den;
    foh_rounding round;
} foh_share;
/* The share SH of N tokens (N >= 0). */
int foh_share_of(foh_share sh, int n);
/* SH for the log: "half the Supply", "1/3 of the Supply, rounded up". */
void foh_share_text(foh_share sh, char *buf, size_t len);
#define FOH_TOP_UP_AGE (-1)

/* Named points of the turn where variant hooks run. */
typedef enum {
    FOH_HOOK_SETUP,           /* after set-up, before the first turn */
    FOH_HOOK_BEFORE_ACTION,   /* before a turn action: (player, kind) */
    FOH_HOOK_AFTER_ACTION,    /* after it and its effects: (player, kind) */
    FOH_HOOK_CLEANUP_START,   /* cleanup, before replenishing */
    FOH_HOOK_AFTER_REPLENISH, /* after the first replenish */
    FOH_HOOK_AFTER_AGE_CHECK, /* after the age check and its replenish */
    FOH_HOOK_CLEANUP_END,     /* after the end check */
    FOH_HOOK_TURN_START,      /* a turn begins, before its legal actions are listed: (player) */
    FOH_HOOK_SCORING,         /* final scoring: (player) -> icon table */
    FOH_HOOK_COUNT
} foh_hook_point;

extern const char *const foh_hook_names[FOH_HOOK_COUNT];
/* A variant's reaction to an event (`on:` in variant.yaml) is kept as a hook
 * at this point, with its event. */
#define FOH_HOOK_REACTION FOH_HOOK_COUNT

/* The game's events (scripts/API.md, "Events"): cards whose effect is
 * active and variants react to them. The engine fires these; game.yaml's
 * `events` declares more, fired by scripts (game.fire). */
typedef enum {
    FOH_EV_TURN_START, /* {player}: a turn begins, before its legal actions are listed */
    FOH_EV_CLEANUP,    /* {player}: the Cleanup phase begins */
    FOH_EV_TURN_END,   /* {player}: after Cleanup, before the next player */
    FOH_EV_INVEST,     /* {player, card, tokens} */
    FOH_EV_COMPLETE,   /* {player, card, tokens, bonus} */
    FOH_EV_SNIPE,      /* {player, card, investor | neutral, price, trade, share} */
    FOH_EV_HARVEST,    /* {player, tokens, took} */
    FOH_EV_GAIN,       /* {player, card, how = complete | snipe | effect} */
    FOH_EV_LEAVE,      /* {player, card, how = discarded | replaced} */
    FOH_EV_COVERED,    /* {player, card, by} */
    FOH_EV_REVEALED,   /* {player, card} */
    FOH_EV_AGE,        /* {from, to}: the Current Age changed */
    /* Asked, read-only, whenever an action's price and legality are needed
     * (listing, checking, taking it); reactions change the table: */
    FOH_EV_SNIPE_COST,    /* {player, card, investor | neutral, price, allowed} */
    FOH_EV_INVEST_COST,   /* {player, card, fee, allowed} */
    FOH_EV_COMPLETE_COST, /* {player, card, fee, allowed} */
    FOH_EV_BUILTIN
} foh_event;
#define FOH_MAX_EVENTS 35 /* the engine's 15 and 20 declared (bit masks of 64) */
#define FOH_EV_FIELDS 8 /* fields of a cost event's table, its name included */
#define FOH_MAX_EVENT_DEPTH 8 /* reactions firing events inside reactions (refused beyond) */
extern const char *const foh_event_names[FOH_EV_BUILTIN];
/* Whether a card or variant reacts to EVENT (cs->event_mask): firing the
 * others does nothing, so the engine skips even building their fields. */
#define FOH_EVENT_WANTED(cs, event) ((cs)->event_mask >> (event) & 1)

/* How cards of a type are placed in a Nation (rulebook "Card Stacking"). */
typedef enum {
    FOH_PLACE_STACK,  /* newest on top, only the top effect active */
    FOH_PLACE_SINGLE, /* one at a time: a new one removes the old (Leader) */
    FOH_PLACE_SIDE,   /* side by side, all effects active (Wonder) */
    FOH_PLACE_NONE    /* never placed in a Nation (The Future) */
} foh_placement;
/* Their names in game.yaml (`placement:`), in enum order. */
extern const char *const foh_placement_names[4];

/* When an effect timing makes the engine call the card's script. */
typedef enum {
    FOH_FIRE_NEVER,
    FOH_FIRE_ON_GAIN,     /* once, when first gained (Instant, Attack, Attack All) */
    FOH_FIRE_PERMANENT,   /* while visible: provides icons */
    FOH_FIRE_TURN_ACTION, /* as the Activate action */
    FOH_FIRE_END_GAME     /* at final scoring */
} foh_fire;
/* Their names in game.yaml (`fires:`), in enum order. */
extern const char *const foh_fire_names[5];

/* Named numbers of a card or variant (`params:` in YAML), read by its
 * scripts as the table `params` (docs/card-format.md). Values are kept as
 * text and given to Lua as a boolean, integer, number or string. */
#define FOH_MAX_PARAMS 16
#define FOH_PARAM_VALUE 64
typedef struct {
    int n;
    struct {
        char name[FOH_NAME];
        char value[FOH_PARAM_VALUE];
    } p[FOH_MAX_PARAMS];
} foh_params;

/* Read map M (`params:` of OWNER, "card 'x'" or "variant 'y'") into OUT;
 * 0 with ERR set (file:line) for a value that is not a single value, a name
 * or a value too long, or more than FOH_MAX_PARAMS. */
int foh_params_read(const foh_yaml_node *m, const char *owner, foh_params *out, foh_error *err);

typedef struct {
    char id[FOH_NAME];
    char name[FOH_OPTION_LABEL]; /* at most 63 bytes: a choice shows it whole */
    int age;      /* index into cs->age */
    int type;     /* index into cs->type */
    int timing;   /* index into cs->timing */
    int obsolete;
    int ends_game; /* entering the Market or being gained ends the game */
    int8_t stripe[FOH_MAX_ICONS];
    char stripe_source[FOH_NAME];
    char *text, *edition_note; /* card text; how another edition differs ("same") */
    char file[FOH_PATH];
    int line;
    char *effect_src;  /* Lua chunk returning the effect table (may be NULL) */
    char effect_file[FOH_PATH]; /* where the chunk is (a variant may override it) */
    int effect_line;   /* line of the chunk's first line in effect_file */
    /* Filled when the scripts are checked at load time: */
    int16_t provides[FOH_MAX_ICONS]; /* constant Permanent icons (0..FOH_MAX_ICON_COUNT each) */
    int counting;      /* Permanent effect is a function of the Nation */
    uint32_t reads;    /* icon kinds a counting effect reads (bit mask) */
    uint32_t gives;    /* icon kinds a counting effect provides (bit mask) */
    uint64_t reacts;   /* events its effect table's `on` reacts to (bit mask) */
    int market_size;   /* its effect table's `market_size`: Market cards added while it is active */
} foh_card_def;

struct foh_cardset {
    foh_object_head head; /* this ruleset (foh/ruleset.h) */
    char dir[FOH_PATH];
    int nicons;
    char icon[FOH_MAX_ICONS][FOH_NAME];
    char icon_symbol[FOH_MAX_ICONS][16]; /* icon_symbols (UTF-8), "" for none */
    int ntypes;
    struct {
        char name[FOH_NAME];
        foh_placement place;
        int bonus_icon; /* investor bonus icon, -1 for none */
        int colour;     /* index of its terminal colour (game_yaml.c), -1 for none */
    } type[FOH_MAX_TYPES];
    int nages;
    struct {
        char name[FOH_NAME];
        int value;
    } age[FOH_MAX_AGES];
    int ntimings;
    struct {
        char name[FOH_NAME];
        foh_fire fire;
    } timing[FOH_MAX_TIMINGS];
    int min_players, max_players;
    int market_size[FOH_MAX_PLAYERS + 1];
    int starting_tokens, tokens_in_box, supply_start;
    int market_age;      /* every card of this age starts in the Market */
    int starting_age;    /* one random card of this age per player */
    int ndeck_bottom;    /* cards at the bottom of the deck, bottom first */
    int deck_bottom[8];
    int ndeck_ages;      /* ages shuffled onto the deck, bottom first */
    int deck_ages[FOH_MAX_AGES];
    /* Rule numbers (game.yaml `rules`, docs/card-format.md), rulebook values
     * by default. */
    int harvest_icon;    /* Harvest: each icon moves harvest_per_icon tokens Reserve -> Supply (-1: none) */
    int harvest_per_icon;
    foh_share harvest_share; /* then the harvester takes this share of the Supply */
    char harvest_share_text[48]; /* ... as the log says it (foh_share_text) */
    int harvest_top_up;  /* then tops up to: FOH_TOP_UP_AGE (the Current Age), or a number of tokens */
    int snipe_icon;      /* Snipe, Trade step: the investor takes snipe_per_icon per icon (-1: none) */
    int snipe_per_icon;
    foh_share snipe_share; /* then this share of the Supply */
    char snipe_share_text[48];
    int bonus_per_icon;  /* investor bonus: tokens per icon of the card type's bonus icon */
    int bonus_from_reserve; /* taken from the Reserve instead of the Supply */
    int ntie_break;      /* criteria after VP, in order (FOH_TIE_CARDS, FOH_TIE_TOKENS) */
    int tie_break[2];
    uint32_t attacker_icons, defender_icons; /* military strength (bit masks) */
    uint32_t full_vp_icons; /* icons worth 1 VP each at scoring; others half */
    int age_check_gap;   /* Market cards this many ages below the Current Age go */
    int age_check_repeat; /* repeat the age check until nothing is discarded */
    int turn_limit;       /* the game ends, stalled, after this many turns (engine ruling E1) */
    int vp_per_full_icon, other_icons_per_vp; /* scoring: 1 VP per Culture, 1 per 2 others */
    int starting_cards;  /* starting cards dealt per player (1) */
    int neutral_investors; /* investor markers no player owns (0) */
    char players_note[256]; /* said when a player count is refused */
    uint32_t players_allowed; /* bit p: p players allowed (min..max unless a variant says) */
    /* Variants applied, in order, and their hooks. */
    int nvariants;
    char variant[FOH_MAX_VARIANTS][FOH_NAME];
    foh_params variant_params[FOH_MAX_VARIANTS]; /* each variant's `params` (its hooks' `params`) */
    int nevents;         /* the engine's events, then game.yaml's `events` */
    char event[FOH_MAX_EVENTS][FOH_NAME];
    uint64_t event_mask; /* events some card or variant reacts to: the others cost nothing */
    int market_mods;     /* cards whose effect changes the Market size while active (market_size) */
    int market_mods_up;  /* the most those cards can add together */
    int nhooks;
    struct {
        foh_hook_point point; /* or FOH_HOOK_REACTION */
        int event;            /* a reaction's event */
        char event_name[FOH_NAME];
        char *src;
        char file[FOH_PATH];
        int line;
        int variant;
    } hook[FOH_MAX_HOOKS];
    /* Declared turn actions (`actions:` of game.yaml, then of each variant). */
    int nactions;
    struct {
        char name[FOH_NAME];
        char label[FOH_OPTION_LABEL];
        char *can_src, *run_src; /* Lua returning function(player): may it be taken; take it */
        char file[FOH_PATH];
        int can_line, run_line;
        int variant;             /* the variant declaring it (its params), -1: game.yaml */
    } action[FOH_MAX_ACTIONS];
    int nscripts;
    struct {
        char path[FOH_PATH];
        char *src;
    } script[FOH_MAX_SCRIPTS];
    int ncards;
    foh_card_def card[FOH_MAX_CARDS];
    /* Each card's named numbers (its chunk's `params`); beside the cards,
     * not in them, so that the hot loops over cards stay compact. */
    foh_params card_params[FOH_MAX_CARDS];
    /* Every file read, for save files' identity check. */
    int nsources;
    struct {
        char label[FOH_PATH + 16]; /* "game.yaml", "script effects.lua", "variant NAME" */
        uint64_t hash;             /* FNV-1a of the file's bytes */
        char path[FOH_PATH + 64];  /* the file as the loader opened it (foh_cardset_source_path) */
    } source[FOH_MAX_SOURCES];
};

#define FOH_OWNED_WORDS ((FOH_MAX_CARDS + 63) / 64)
#define FOH_BITS_KINDS 4 /* card bit sets of a player in foh_state */
/* The words of a card bit set that the card set's cards use: the loops
 * over bit sets and the copies of positions stop there. */
static inline int foh_card_words(const foh_cardset *cs) { return (cs->ncards + 63) >> 6; }

/* Where one card is. Its position in the deck and Market is kept by the
 * ordered arrays of foh_state; in a Nation by seq (higher = placed later). */
typedef struct {
    uint8_t zone;  /* foh_zone */
    uint8_t owner; /* player, when zone is FOH_ZONE_NATION */
    uint8_t fired; /* Instant/Attack effect already used */
    int8_t investor;  /* Market card: investing player, FOH_NEUTRAL_INVESTOR + k, or -1 */
    int32_t invested; /* Market card: tokens under it */
    uint32_t seq;     /* placement order in a Nation */
} foh_card_loc;

/* A Nation's index that is not a card bit set, kept up to date by
 * foh_nation_place and foh_nation_remove (the only writers of a Nation) so
 * that no rule scans every card; foh_game_check_invariants checks it
 * against loc. Kept in foh_state's room of words (may_alias). */
typedef struct __attribute__((may_alias)) {
    /* Each Nation's counts outside final scoring, kept by the same writers
     * and checked the same way, so that counting icons scans no card: */
    int32_t base_icons[FOH_MAX_ICONS]; /* stripes and constant Permanent icons on */
    int16_t top[FOH_MAX_TYPES];        /* newest card of each pile, -1 for none */
} foh_nation_row;
#define FOH_ROW_WORDS ((sizeof(foh_nation_row) + 7) / 8)
_Static_assert(sizeof(foh_nation_row) % 8 == 0, "a player's row is whole words");

/* A card index in foh_state's room of words (may_alias): the deck. */
typedef uint16_t __attribute__((may_alias)) foh_card16;
#define FOH_DECK_WORDS ((FOH_MAX_CARDS + 3) / 4)
/* The deck's words for NCARDS cards. */
#define FOH_DECK_USED(ncards) (((size_t)(ncards) + 3) / 4)

/* The whole position: a flat value, copied with memcpy. Card indices are
 * 16 bits (FOH_MAX_CARDS fits). It has room for the largest card set and
 * player count, but what a game uses is one run of bytes, copied as such
 * (copy_state in game.c; nothing outside it is read): the deck of its
 * card set's cards, its players' rows and card bit sets, at the end of the
 * room; the fixed fields; the places of the card set's cards. */
#define FOH_ROOM_WORDS (FOH_DECK_WORDS + FOH_MAX_PLAYERS * (FOH_ROW_WORDS + FOH_BITS_KINDS * FOH_OWNED_WORDS))
typedef struct {
    /* The deck (FOH_DECK: room for the card set's cards), the players'
     * rows (foh_nation_row), then their card bit sets (bit c: card c),
     * FOH_BITS_KINDS a player, of `words` words each, player after player,
     * ending where the room ends: FOH_DECK, FOH_ROW, FOH_OWNED and the
     * others below. */
    uint64_t room[FOH_ROOM_WORDS];
    uint8_t players, current, first_player;
    uint8_t over;      /* the game has ended */
    uint8_t ending;    /* The Future appeared: ends after this turn */
    uint8_t stalled;   /* ended by the turn limit (rules.turn_limit) */
    uint8_t words;     /* words of each card bit set: foh_card_words of the card set */
    /* The deck, the players' rows and bit sets begin at room[deck_from],
     * [rows_from] and [bits_from]. */
    uint16_t deck_from, rows_from, bits_from;
    uint32_t turn;     /* turns completed (at most the turn limit) */
    uint32_t next_seq; /* placements so far (a few per turn) */
    int32_t tokens[FOH_MAX_PLAYERS];
    int32_t supply, reserve, substituted;
    int16_t investment[FOH_MAX_PLAYERS]; /* card a player invested in, or -1 */
    int16_t neutral[FOH_MAX_NEUTRAL];    /* card a neutral marker invested in, or -1 */
    uint8_t bonus_mask;  /* action kinds a granted bonus action may be (bits) */
    uint8_t in_bonus;    /* the action in progress is a bonus action */
    int8_t market_delta; /* change scripts made to the Market size (game.change_market_size) */
    uint16_t ndeck, nmarket;
    uint16_t market[FOH_MAX_MARKET];
    uint16_t nation_age[FOH_MAX_AGES]; /* cards in all Nations, per age (index): the Nations' index */
    uint64_t rng[4];
    /* Last, so that a copy can stop at the card set's last card (the
     * others stay in the box): */
    foh_card_loc loc[FOH_MAX_CARDS];
} foh_state;

/* The deck of position ST (foh_card16 *): FOH_DECK(st)[ndeck - 1] is the
 * top card. */
#define FOH_DECK(st) ((foh_card16 *)((st)->room + (st)->deck_from))
/* Player P's row in position ST (foh_nation_row *): FOH_TOP(st, p)[type],
 * FOH_BASE_ICONS(st, p)[icon]. */
#define FOH_ROW(st, p) ((foh_nation_row *)((st)->room + (st)->rows_from) + (p))
#define FOH_TOP(st, p) (FOH_ROW(st, p)->top)
#define FOH_BASE_ICONS(st, p) (FOH_ROW(st, p)->base_icons)
/* Player P's card bit sets in position ST (uint64_t *, const for a const
 * ST; `words` words each): the cards in their Nation (also an index of the
 * Nations); the cards whose rule a count exercises (no effect, or a
 * constant Permanent effect on); the counting Permanent effects on; the
 * Turn Action effects on (Activate). */
#define FOH_BITS(st, p, kind) ((st)->room + (st)->bits_from + ((size_t)(p) * FOH_BITS_KINDS + (kind)) * (st)->words)
#define FOH_OWNED(st, p) FOH_BITS(st, p, 0)
#define FOH_PLAIN(st, p) FOH_BITS(st, p, 1)
#define FOH_COUNTING_ON(st, p) FOH_BITS(st, p, 2)
#define FOH_ACTIONS_ON(st, p) FOH_BITS(st, p, 3)

struct foh_game {
    foh_object_head head; /* this ruleset (foh/ruleset.h) */
    foh_engine *eng;
    foh_state st;       /* the position now */
    foh_state base;     /* the position before the action in progress (read only while one is) */
    /* An action in progress that paused at a choice inside an effect: */
    uint8_t pending;
    foh_action action;
    uint16_t nanswers;  /* answers[0..nanswers) hold its answers; 0 when nothing is pending */
    foh_choice choice;
    /* Answers consumed so far by the current run. */
    uint16_t used_answers;
    uint8_t scoring;    /* icon counts are for final scoring: obsolete off */
    uint8_t turn_starting; /* the turn_start hooks and reactions are running (no action to follow yet) */
    uint8_t in_cleanup;    /* the Cleanup phase is running (the turn's action is over) */
    /* game.random during the action in progress: the calls so far (from its
     * start: an action re-run with its answers makes them again); when a
     * bot's sample replaced the unknown future (determinize.c) while the
     * action was paused, the generator becomes random_fork after the
     * random_fork_at calls made before the pause, which the re-run repeats
     * as they were. */
    uint64_t random_calls, random_fork_at;
    uint8_t random_fork_on;
    uint64_t random_fork[4];
    foh_log_fn log;
    void *log_ud;
    /* Gained cards whose on-gain effects still have to run, in order (a
     * copy copies queue[0..nqueue): flow_game_copy). */
    uint16_t nqueue;
    uint16_t queue[FOH_MAX_QUEUE][2]; /* card, player */
    /* The answers given so far to the action in progress, option indices
     * (< FOH_MAX_OPTIONS, one byte each). Last, and only nanswers of them
     * meaningful: a copy copies answers[0..nanswers) (flow_game_copy), so
     * a game with no choice pending (nearly every copy a bot makes) copies
     * none of this room, and one inside an exchange the answers it holds.
     * Nothing reads past nanswers (the digest, position.c, mixes
     * answers[0..nanswers)). */
    uint8_t answers[FOH_MAX_ANSWERS];
};

/* Read the list `actions:` (of game.yaml, or of variant VARIANT, -1 for
 * game.yaml) into CS's declared actions. 0 with ERR set (file:line). */
int foh_actions_read(const foh_yaml_node *list, int variant, foh_cardset *cs, foh_error *err);

/* "name, name, ..." of the card set's icons into BUF (for messages). */
void foh_cardset_icon_list(const foh_cardset *cs, char *buf, size_t len);

/* An empty position for PLAYERS players of CS's cards: every card in the
 * box, nobody invested, no tokens anywhere (the caller fills them). */
void foh_state_reset(foh_state *st, int players, const foh_cardset *cs);

struct lua_State;

/* What a computation kept by the memo has read so far (memo.h). */
typedef struct {
    uint32_t nations; /* bit p: player p's Nation */
    int other;        /* anything a memo key does not hold */
    uint64_t exercised[FOH_OWNED_WORDS]; /* cards whose rule took effect (foh_engine.exercised) */
} foh_memo_reads;

#define FOH_LUA_LISTS 4       /* kinds of card list the game API returns (lua_api.c) */
#define FOH_LUA_FIELDS 16     /* effect fields game.active_with remembers */
#define FOH_LUA_FIELD_NAME 48 /* bytes of a remembered field's name, with its terminating 0 */

/* The helpers of scripts/effects.lua the engine runs in C (native.c). */
typedef enum {
    FOH_NATIVE_NONE,
    FOH_NATIVE_PROVIDE_PER_ICON, /* Permanent: give = per * base icons of `what` */
    FOH_NATIVE_PROVIDE_PER_CARD, /* Permanent: give = per * cards of type `what` */
    FOH_NATIVE_END_PER_CARD,     /* End Game: give = per * cards of type `what` */
    FOH_NATIVE_END_PER_ICON,     /* End Game: give = per * (icons of `what` // every) */
    FOH_NATIVE_END_PER_SET,      /* End Game: give = per * fewest cards of the types */
    FOH_NATIVE_END_ICONS,        /* End Game: the icons */
    FOH_NATIVE_TOKENS_PER_ICON,  /* Instant: per * icons of `what` tokens */
    FOH_NATIVE_TOKENS_PER_CARD,  /* Instant: per * cards of type `what` tokens */
    FOH_NATIVE_GAIN_TOP,         /* Instant: the top card of the Civilization deck */
    FOH_NATIVE_GAIN_FROM_MARKET, /* Instant: a chosen non-invested Market card of the types */
    FOH_NATIVE_TURN_ACTION_GAIN, /* Turn Action: cost per, discard the top of type `what`, gain a card */
    FOH_NATIVE_ATTACK,           /* Attack: one weaker opponent, chosen, is hit */
    FOH_NATIVE_ATTACK_ALL,       /* Attack All: every weaker opponent is hit */
} foh_native_op;

/* The hits of the attack helpers. */
typedef enum {
    FOH_HIT_TAKE_TOKENS,      /* per tokens from the target */
    FOH_HIT_DISCARD_TOP_OF,   /* the attacker chooses one of the target's tops of the types */
    FOH_HIT_DISCARD_TOP_EACH, /* the target's top of each of the types */
    FOH_HIT_DISCARD_ONE_OF,   /* the attacker chooses one of the target's cards of type `what` */
} foh_native_hit;

#define FOH_NATIVE_FIELDS 8 /* effect field names the native attacks read, per engine */

/* A card effect's native description, read once at load. */
typedef struct {
    foh_native_op op;
    int per, every;      /* multiplier (TURN_ACTION_GAIN: the cost), divisor */
    int8_t give, what;   /* the icon given; the icon or type read (-1: none) */
    int8_t from_reserve; /* tokens from the Reserve, not the Supply */
    int8_t has_cost;     /* TURN_ACTION_GAIN: a cost to pay */
    int8_t remove_self;  /* TURN_ACTION_GAIN: the card leaves the game first */
    int8_t from_deck;    /* TURN_ACTION_GAIN: the top card of the deck, not a Market card */
    uint32_t market;     /* GAIN_FROM_MARKET, TURN_ACTION_GAIN: Market card types to choose from */
    int8_t ntypes;
    int8_t types[FOH_MAX_TYPES];
    int16_t icons[FOH_MAX_ICONS];
    /* Attacks: the hit; the engine's native fields (foh_engine.native_field)
     * the helpers read: own attacks suppressed, on_attack, immune; the
     * events fired before the comparison and after a hit. */
    int8_t hit, suppress, on_attack, immune, before, after;
} foh_native;

/* One per thread: the sandboxed Lua state and the context of the call in
 * progress. Games never point into it except through g->eng. */
typedef struct flow_effects flow_effects;
struct foh_engine {
    foh_object_head head; /* this ruleset (foh/ruleset.h) */
    const foh_cardset *cs;
    const flow_effects *fx; /* the card effects and hooks (effects.h), set by who makes the engine */
    /* The sandboxed Lua state, its limits (instructions per effect call,
     * wall-clock time per action: a span, flow_game_apply) and the meter of
     * the call in progress; call_id is the card whose script the next call
     * runs (-1: none), for the watchdog (core/script/sandbox.h). */
    foh_sandbox sb;
    int event_depth;              /* reactions in progress, nested (FOH_MAX_EVENT_DEPTH) */
    int react_card, react_hook;   /* the innermost reaction running (a card, or a variant's hook; -1: none) */
    int query_check;              /* a cost event is being asked (its check is the engine's) */
    char forbidder[FOH_NAME + 16]; /* the last cost event asked: who set allowed = false first ("" none) */
    foh_error nested_error;       /* a nested reaction's error on its way to the outermost call */
    foh_game *g;                  /* the game a script is acting on */
    int need_choice;              /* a script asked a question with no answer yet */
    int counting;                 /* evaluating counting Permanent effects */
    int effect_ref[FOH_MAX_CARDS];       /* registry refs of the effect tables (the engine calls them) */
    int effect_proxy_ref[FOH_MAX_CARDS]; /* their read-only proxies (what game.effect returns) */
    foh_native native[FOH_MAX_CARDS];    /* their native descriptions (native.c) */
    int lua_only;                        /* foh_script_limits.lua_only: the descriptions are not used */
    uint64_t native_counting[FOH_OWNED_WORDS]; /* the counting Permanent effects run in C (none if lua_only) */
    uint64_t type_cards[FOH_MAX_TYPES][FOH_OWNED_WORDS]; /* the card set's cards of each type */
    uint8_t age_value[FOH_MAX_CARDS];    /* each card's age's value (the Current Age, the age check) */
    uint8_t age_by_value[FOH_MAX_AGES];  /* the ages, highest value first (the Nations' Current Age) */
    /* The effect fields the native attacks read (their names from the
     * descriptions) and the cards whose effect table has each true. */
    int nnative_fields;
    struct {
        char name[FOH_LUA_FIELD_NAME];
        uint64_t cards[FOH_OWNED_WORDS];
    } native_field[FOH_NATIVE_FIELDS];
    int words;                           /* foh_card_words of the card set */
    int hook_ref[FOH_MAX_HOOKS];         /* registry refs of the variant hook functions */
    uint32_t hook_points;                /* bit P: some variant hook runs at hook point P */
    /* Made once per engine, so that the API pushes them instead of
     * building them per call: */
    int ids_ref;                         /* the table card id -> card index */
    int names_ref;                       /* a table anchoring the type and icon names below */
    /* The Lua strings of the type and icon names: Lua interns short
     * strings, so a name a script passes is usually one of these very
     * pointers (compared before the bytes). */
    const char *type_name[FOH_MAX_TYPES], *icon_name[FOH_MAX_ICONS];
    int card_id_ref[FOH_MAX_CARDS];      /* each card's id string */
    int card_info_ref[FOH_MAX_CARDS];    /* each card's game.card() table (read-only) */
    /* The Lua strings (anchored in names_ref) of game.strength's roles
     * ("attacker", "defender") and of the card set's event names. */
    const char *role_name[2], *event_name[FOH_MAX_EVENTS];
    int empty_list_ref[FOH_LUA_LISTS];   /* the one empty read-only list of each kind the API returns */
    /* game.active_with's cache: for each effect field asked so far (the
     * first FOH_LUA_FIELDS, names up to FOH_LUA_FIELD_NAME - 1 bytes; any
     * other is looked up card by card), the cards whose effect table has
     * it true. Effect tables are frozen: the answer never changes. */
    int nfields;
    struct {
        size_t len;
        char name[FOH_LUA_FIELD_NAME];
        uint64_t cards[FOH_OWNED_WORDS];
    } field[FOH_LUA_FIELDS];
    int action_can_ref[FOH_MAX_ACTIONS], action_run_ref[FOH_MAX_ACTIONS]; /* declared actions' functions */
    uint64_t exercised[FOH_OWNED_WORDS]; /* bit c: card c's rule took effect (foh_engine_exercised) */
    /* Icon counts of the game being scored, which cannot change while it
     * is (End Game effects and scoring hooks are read-only): counted once
     * per player, not again for every End Game effect that reads them. */
    const foh_game *icons_game;          /* NULL outside scoring */
    uint32_t icons_have;                 /* bit p: icons_of[p] is counted */
    int icons_of[FOH_MAX_PLAYERS][FOH_MAX_ICONS];
    foh_memo_reads icons_reads[FOH_MAX_PLAYERS]; /* what counting icons_of[p] read (memo.h) */
    /* Remembered icon counts and scores of Nations (memo.h): */
    struct foh_memo *memo; /* made at first use */
    int memo_off;          /* out of memory once: not used again */
    int memo_depth;        /* kept computations in progress, nested */
    foh_memo_reads memo_reads; /* what the innermost one has read so far */
    /* Log lines of the run in progress, emitted only if it completes;
     * grown as needed (an action may log many lines). */
    char *logbuf;
    size_t loglen, logcap;
    int log_lost; /* lines that found no memory (said when flushed) */
};

#endif

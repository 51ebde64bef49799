/* civ: the rules of the civilization card game draft
 * (../shared/rules/civ-card-game-draft.txt), the platform's second ruleset.
 * This header is the ruleset's private one: the card set, the engine and
 * the game as plain values, and the functions of its rules files:
 *
 *   cardset.c    game.yaml, the card files and variants -> civ_set
 *   setup.c      a new game: ages, piles, Victory cards, the first deal
 *   legal.c      the legal actions of each phase (the draft's limits)
 *   turn.c       apply: Fate, Action, conflicts, Destiny, End, ages' ends
 *   state.c      attributes, zones and the changes effects make (VT, destroy)
 *   scoring.c    end of age scoring (the Victory cards), results
 *   view.c       names of actions, what a seat sees, score lines, digest
 *   determinize.c  hidden cards resampled from one seat's view
 *   scenario.c   a scenario's set-up: hands, cards in play, piles, VT
 *   eval.c       the greedy and ISMCTS bots' evaluation (docs/civ-draft.md)
 *
 * Rulings where the draft is silent are cards/civ-draft/RULINGS.md; each
 * is a field of civ_rules that a variant may change. */
#ifndef CIV_H
#define CIV_H

#include <stddef.h>
#include <stdint.h>

#include "effects.h"
#include "foh/ruleset.h"

#define CIV_MAX_CARDS FOH_MAX_CARDS /* a card set's cards, every deck together */
#define CIV_AGES 4                  /* Ancient, Medieval, Revolution, Modern */
#define CIV_PILES 3                 /* the current deck is kept as three piles */
#define CIV_MAX_PILE (CIV_MAX_CARDS / CIV_PILES + 1)
#define CIV_MAX_FACE_UP 32          /* Victory cards face up at once (the draft: 7) */
#define CIV_MAX_PARAMS 4            /* an Event's numbers (`params`) */
#define CIV_NAME 48

typedef enum {
    CIV_POLITICAL, CIV_RELIGIOUS, CIV_SCIENCE, CIV_ART, CIV_EXPLORER, /* the Leaders */
    CIV_TROOP, CIV_CONFLICT, CIV_ADVANCE, CIV_WONDER, CIV_EVENT, CIV_GOVERNMENT, CIV_VICTORY, CIV_NTYPES
} civ_type;
#define CIV_IS_LEADER(t) ((t) <= CIV_EXPLORER)

typedef enum { CIV_VITALITY, CIV_RESOURCES, CIV_STABILITY, CIV_MILITARY, CIV_CULTURE, CIV_NATTRS } civ_attr;

/* What an Event's player picks: nothing, a card in play of a kind, or
 * another player. */
typedef enum { CIV_TARGET_NONE, CIV_TARGET_WONDER, CIV_TARGET_TROOP, CIV_TARGET_LEADER, CIV_TARGET_GOVERNMENT,
               CIV_TARGET_PLAYER, CIV_NTARGETS } civ_target;

/* What a Victory card measures: an attribute (0..4), or a count. */
typedef enum { CIV_M_WONDERS = CIV_NATTRS, CIV_M_ADVANCES, CIV_M_LEADERS, CIV_M_AGGRESSIONS, CIV_M_CURRENT_WONDERS,
               CIV_M_CURRENT_GOVERNMENTS, CIV_NMEASURES } civ_measure;
typedef enum { CIV_RANK_HIGHEST, CIV_RANK_LOWEST, CIV_RANK_NONE } civ_rank;

extern const char *const civ_type_names[CIV_NTYPES];
extern const char *const civ_attr_names[CIV_NATTRS];
extern const char *const civ_target_names[CIV_NTARGETS];
extern const char *const civ_measure_names[CIV_NMEASURES];
extern const char *const civ_rank_names[3];

typedef struct {
    char id[CIV_NAME];     /* unique in the set: "cavalry_ancient" */
    char name[CIV_NAME];   /* as printed: "Cavalry" */
    char label[2 * CIV_NAME + 4]; /* for people: the name, with its age when the name is used twice */
    int age;               /* 0..3; -1 for a Victory card */
    civ_type type;
    int adds[CIV_NATTRS];  /* attribute modifiers while in play (V R S M C) */
    int bonus;             /* Military Bonus (MB): a Troop or Conflict added in a conflict */
    int prestige;          /* a Conflict's Prestige Value (PV) */
    int boon, join;        /* card indices, or -1 */
    civ_target target;     /* an Event's target */
    civ_measure measure;   /* a Victory card's */
    civ_rank rank;
    int gain;              /* a Victory card: 1 gain X, 0 lose X */
    int nparams;
    char param_name[CIV_MAX_PARAMS][24];
    int param[CIV_MAX_PARAMS];
    const char *file;      /* the card's file (civ_set.files) and line */
    int line;
    char *effect;          /* an Event's Lua chunk (malloc'd), or NULL */
    int effect_line;
} civ_card;

/* The numbers and rulings of a card set (game.yaml `rules:`; variants
 * change them by path, `rules.NAME`). */
typedef struct {
    int starting_vt;        /* "Each player starts with 10 VT." */
    int age_x[CIV_AGES];    /* X = 3, 6, 9, 12 */
    int base_draws, vitality_per_draw;      /* draw 1, +1 per 3 Vitality */
    int base_plays, resources_per_play;     /* play 1, +1 per 4 Resources */
    int base_hand, stability_per_hand;      /* hand limit 3, +1 per 2 Stability */
    int boon_vt;            /* B: gain 3 VT */
    int face_up_victory;    /* 7 Victory cards */
    int peek_cards;         /* a discarded Leader shows the next 7 cards of a pile */
    int face_up_piles;      /* 2 of the 3 piles face up */
    int starting_cards;     /* one random Ancient card each */
    /* Rulings (cards/civ-draft/RULINGS.md): */
    int vt_floor;           /* 1: VT never below 0 (a loss takes what there is); 0: may go negative */
    int ties_score;         /* 1: every tied player scores a Victory card; 0: none does */
    int boon_same_turn;     /* 0: a Boon pays when its pair is in play together; 1: both played this turn */
    int reinforce_lower_only; /* 0: both sides alternate until both pass; 1: only the lower total adds */
    int score_first;        /* 1: score an age before its discards; 0: the draft's order (discards first) */
    int keep_ages;          /* ages of cards that stay in play past an age's end (1: the one ending) */
    int final_discards;     /* 1: the last age's end discards as every age's does; 0: only its Aggression cards */
    int random_first;       /* 0: P1 goes first; 1: a random player */
    int explorer_limit;     /* Explorer Leaders in play at once (0: no limit) */
    int event_needs_target; /* 1: an Event with a target cannot be played without one */
} civ_rules;

/* The bot's weights (game.yaml `bot:`, docs/civ-draft.md "The greedy bot"). */
typedef struct {
    double culture_turns;   /* a point of Culture, per turn left for its player in the age */
    double attr[CIV_NATTRS];/* a point of each attribute, as such */
    double hand;            /* a card in hand */
    double standing;        /* share of a face-up Victory card's X a player now holds */
    double conflict;        /* share of the Prestige a conflict's leader now holds */
    double win;             /* the bonus of a won game */
} civ_weights;

struct foh_cardset_civ {
    foh_object_head head;
    int min_players, max_players;
    civ_rules rules;
    civ_weights bot;
    char age_name[CIV_AGES][CIV_NAME];
    int ncards;
    civ_card *card;         /* ncards */
    int nfiles;
    struct foh_yaml_node **trees; /* the card files read: the cards' `file` names live in them */
    char *helpers;          /* the helpers' Lua text (game.yaml `scripts:`), or NULL */
    int nsources;           /* the files read (game.yaml, card files, helpers, variants) */
    char **source_path;
    uint64_t *source_hash;  /* foh_file_hash of each as read: foh play --watch */
    char helpers_path[1024];
};
typedef struct foh_cardset_civ civ_set;

/* The engine: the set and the port to card effects (its Lua binding
 * allocates a larger struct beginning with this one). */
typedef struct civ_engine {
    foh_object_head head;
    const civ_set *set;
    const civ_effects *fx;
} civ_engine;

/* Where a card is. */
typedef enum { CIV_Z_BOX, CIV_Z_AGE_DECK, CIV_Z_PILE, CIV_Z_HAND, CIV_Z_PLAY, CIV_Z_AGGRESSION, CIV_Z_DISCARD,
               CIV_Z_VICTORY_DECK, CIV_Z_VICTORY_UP } civ_zone;

typedef enum { CIV_PHASE_FATE, CIV_PHASE_ACTION, CIV_PHASE_CONFLICT, CIV_PHASE_DISCARD, CIV_PHASE_OVER } civ_phase;

/* The actions (foh_action.kind). */
#define CIV_DRAW ((foh_action_kind)0)      /* option: the pile */
#define CIV_PLAY ((foh_action_kind)1)      /* card; option: a target player or defender; tokens: 1 + a card (a
                                            * Wonder's discard, an Event's target card), 0 none */
#define CIV_PEEK ((foh_action_kind)2)      /* card: a Leader from the hand; option: the pile */
#define CIV_END ((foh_action_kind)3)       /* end the Action phase */
#define CIV_REINFORCE ((foh_action_kind)4) /* card: a Troop or Conflict from the hand, in a conflict */
#define CIV_HOLD ((foh_action_kind)5)      /* pass in a conflict */
#define CIV_DISCARD ((foh_action_kind)6)   /* card: over the hand limit in the End phase */

/* A game: a plain value, copied with memcpy; the position starts at rng. */
typedef struct civ_game {
    foh_object_head head;
    const civ_engine *eng;
    const civ_set *set;
    foh_log_fn log;
    void *log_ud;
    uint64_t rng;
    int players, current, turn, age, over;
    civ_phase phase;
    int draws_left, plays_left, plays_made, drew_last; /* this turn; drew_last: the age's deck ran out */
    int announced;                                     /* the turn's first log line is written */
    int vt[FOH_MAX_PLAYERS];
    int conflicts_won[FOH_MAX_PLAYERS];  /* in the whole game (a statistic: the Aggression cards go each age) */
    /* A conflict in progress (CIV_PHASE_CONFLICT). */
    int attacker, defender, aggression, total[2], side, passes;
    int npile[CIV_PILES];
    short pile[CIV_PILES][CIV_MAX_PILE]; /* the top is pile[j][npile[j] - 1] */
    unsigned char where[CIV_MAX_CARDS];   /* civ_zone */
    unsigned char owner[CIV_MAX_CARDS];   /* hand, play or Aggression: the player */
    unsigned char seen[CIV_MAX_CARDS];    /* bit p: player p knows where the card is */
    unsigned char fresh[CIV_MAX_CARDS];   /* played this turn (a Boon's same_turn ruling) */
    unsigned char used[CIV_MAX_CARDS / 8]; /* bit c: card c was played, used or scored (scenario coverage) */
    /* Counts kept by civ_move (civ_recount after a direct change of where
     * cards are): the rules read them many times a decision. */
    int attr[FOH_MAX_PLAYERS][CIV_NATTRS];      /* the attributes: adds of the cards in play */
    short in_play[FOH_MAX_PLAYERS][CIV_NTYPES]; /* cards in play by type */
    short hand_n[FOH_MAX_PLAYERS];              /* cards in hand */
    short hand_leaders[FOH_MAX_PLAYERS];        /* Leaders in hand (who may peek) */
} civ_game;

#define CIV_USE(g, c) ((g)->used[(c) >> 3] |= (unsigned char)(1u << ((c) & 7)))


/* ---- cardset.c ---- */
/* Load the card set REQ names (game.yaml, the card files, variants);
 * NULL with ERR at file:line naming the card. */
civ_set *civ_set_load(const foh_load_request *req, foh_error *err);
void civ_set_free(civ_set *cs);
/* Move G onto engine ENG of a card set read again (the same cards in the
 * same order and types); FOH_ERR_DATA naming what differs. */
foh_status civ_rebind(civ_game *g, const civ_engine *eng, foh_error *err);
/* The index of the card with id ID, or -1. */
int civ_card_index(const civ_set *cs, const char *id);

/* ---- setup.c ---- */
civ_game *civ_game_new(const civ_engine *eng, const foh_options *opt, foh_error *err);
uint64_t civ_rng_next(uint64_t *s);
void civ_shuffle(short *a, int n, uint64_t *rng);
/* Deal age G->age's deck into the piles (the age's cards, shuffled). */
void civ_deal_age(civ_game *g);
/* Turn up the face-up Victory cards from the Victory deck. */
void civ_turn_up_victory(civ_game *g);
/* Everyone sees the top card of each face-up pile. */
void civ_reveal_tops(civ_game *g);

/* ---- state.c ---- */
void civ_say(civ_game *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int civ_attribute(const civ_game *g, int p, civ_attr a);
int civ_count_in_play(const civ_game *g, int p, civ_type t);
int civ_hand_size(const civ_game *g, int p);
int civ_hand_limit(const civ_game *g, int p);
int civ_deck_left(const civ_game *g);
int civ_military(const civ_game *g, int p);
/* Count again what civ_game keeps counted, after cards were placed
 * without civ_move (set-up, dealing an age, a scenario). */
void civ_recount(civ_game *g);
/* Move card C to zone Z (owner P for hand, play, Aggression), taking it
 * out of a pile if it is in one. */
void civ_move(civ_game *g, int c, civ_zone z, int p);
/* VT changes made by rules and effects (the floor ruling applies). Return
 * what actually changed hands. */
int civ_gain(civ_game *g, int p, int n);
int civ_lose(civ_game *g, int p, int n);
int civ_steal(civ_game *g, int from, int to, int n);
/* Discard card C from play (Destroy); 0 if it is not in play. */
int civ_destroy(civ_game *g, int c);
void civ_discard_hand(civ_game *g, int p);

/* ---- legal.c ---- */
int civ_legal(civ_game *g, foh_action *out, int max);
int civ_is_legal(civ_game *g, const foh_action *a);
/* Whether P may put card C into play now (its type's limits and Joins). */
int civ_may_place(const civ_game *g, int p, int c);
/* How many ways the turn's player has to play a card now (0: the Action
 * phase ends by itself). */
int civ_playable(const civ_game *g);

/* ---- turn.c ---- */
foh_status civ_apply(civ_game *g, const foh_action *a, foh_error *err);
void civ_start_turn(civ_game *g);
/* Move on while nothing is left to decide (phases that end by themselves). */
void civ_advance(civ_game *g);

/* ---- scoring.c ---- */
void civ_score_age(civ_game *g);
int civ_measure_of(const civ_game *g, int p, civ_measure m);
/* The players Victory card V names as the game stands (bit p), after the
 * tie ruling. */
unsigned civ_victory_players(const civ_game *g, int v);
void civ_results(const civ_game *g, double *out);

/* ---- view.c ---- */
void civ_describe(const civ_game *g, const foh_action *a, char *buf, size_t len);
int civ_observe(const civ_game *g, int player, char *buf, size_t len);
int civ_score_lines(const civ_game *g, int player, foh_score_line *out, int max);
/* Card CARD of CS for a player: its label into NAME, its type, age,
 * modifiers, Military Bonus, Prestige, Boon and Join into BUF (foh serve);
 * 0 past the last card. */
int civ_describe_card(const civ_set *cs, int card, char *name, size_t namelen, char *buf, size_t len);
/* What observe's words mean, one "WORD: meaning" a line (snprintf's rules). */
int civ_legend(char *buf, size_t len);
uint64_t civ_digest(const civ_game *g);

/* ---- determinize.c ---- */
void civ_determinize(civ_game *g, int viewer, uint64_t seed);

/* ---- scenario.c ---- */
/* A scenario's `setup:` (docs/scenarios.md, "The civilization draft"). */
foh_status civ_scenario_setup(civ_game *g, const struct foh_yaml_node *setup, foh_error *err);

/* ---- eval.c ---- */
double civ_evaluate(const civ_game *g, int player);

#endif

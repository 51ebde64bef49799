/* A card set: the game's vocabulary (game.yaml) and its cards (YAML + Lua).
 * Loaded once, immutable afterwards, so one card set can be shared by every
 * engine of every thread. */
#ifndef FOH_CARDSET_H
#define FOH_CARDSET_H

#include "foh/api.h"

#include <stddef.h>
#include <stdint.h>

#include "foh/error.h"

#define FOH_MAX_CARDS 1024 /* cards in one card set */
#define FOH_MAX_ICONS 12   /* icon kinds */
#define FOH_MAX_TYPES 12   /* card types */
#define FOH_MAX_PLAYERS 8  /* players in one game, where a card set allows them */
#define FOH_MAX_TURN_LIMIT 1000000 /* rules.turn_limit at most: no game has more turns */
/* Tokens in play (box + substituted); a move that would pass it is refused,
 * so no token count can overflow. */
#define FOH_MAX_TOKENS 1000000000

typedef struct foh_cardset foh_cardset;

/* Load the card set in folder DIR: DIR/game.yaml (vocabulary, set-up numbers,
 * helper scripts) and every other .yaml file in DIR (cards, by file name).
 * Every card's Lua effect is compiled and checked against its timing.
 * Returns NULL on error with ERR set to FOH_ERR_DATA and "file:line: card: reason". */
FOH_API foh_cardset *foh_cardset_load(const char *dir, foh_error *err);

/* Load the card set in DIR with the variants in the folders VARIANTS
 * (NVARIANTS of them, applied in order; see docs/variants.md). Two variants
 * changing the same parameter or card field are refused, naming both. */
FOH_API foh_cardset *foh_cardset_load_variants(const char *dir, const char *const *variants, int nvariants, foh_error *err);

/* The general form: the card set folders DIRS (NDIRS of them; each further
 * one extends those before it, as if its game.yaml said `extend`), then the
 * VARIANTS. A folder's game.yaml may `extend` other card sets, by path
 * (relative to it) or by name, looked up as SEARCH[i]/NAME (NSEARCH folders,
 * in order): see docs/card-format.md, "Expansions". */
FOH_API foh_cardset *foh_cardset_load_sets(const char *const *dirs, int ndirs, const char *const *variants,
                                           int nvariants, const char *const *search, int nsearch, foh_error *err);

/* How foh_cardset_check tells of each problem it finds: WARNING is 0 for an
 * error (the card set is refused) and 1 for a warning; PROBLEM's message
 * starts with "file:line:column: " where the problem has a place, and names
 * the card ("card 'ID': ") where it concerns one. */
typedef void (*foh_problem_fn)(void *ctx, int warning, const foh_error *problem);

/* foh_cardset_load_sets in checking mode (foh check): every problem the
 * loader can find is passed to REPORT (with CTX) as it is found, not just
 * the first: after an error loading goes on with the next field of the
 * card, the next card, card file, variant, script and effect (a game.yaml
 * whose vocabulary - icons, ages, card types, timings - cannot be read
 * stops it: every card would be wrong). Beyond the loader's errors it
 * reports literal names in scripts that name no card, event or param
 * (`game.card('x')`, `game.fire('x')`, `params.x`: errors) and card params
 * no effect reads (warnings): see core/rulesets/flow/rules/check.c. Returns the card set if
 * no error was found (warnings allowed), else NULL with ERR holding the
 * last error. */
FOH_API foh_cardset *foh_cardset_check(const char *const *dirs, int ndirs, const char *const *variants, int nvariants,
                                       const char *const *search, int nsearch, foh_problem_fn report, void *ctx,
                                       foh_error *err);

FOH_API void foh_cardset_free(foh_cardset *cs);

/* Name and one-line description of the variant in folder VARIANT_DIR. */
FOH_API foh_status foh_variant_describe(const char *variant_dir, char *name, size_t name_len, char *desc, size_t desc_len,
                                foh_error *err);

/* Variants applied to the card set, in order (names from their YAML). */
FOH_API int foh_cardset_variant_count(const foh_cardset *cs);
FOH_API const char *foh_cardset_variant_name(const foh_cardset *cs, int i);

/* The files the card set was read from, for the identity check of save
 * files: their labels ("game.yaml", a card file's name, "script NAME.lua",
 * "variant NAME") in load order and FNV-1a 64 hashes of their bytes.
 * foh_cardset_source returns NULL for a bad index. */
FOH_API int foh_cardset_source_count(const foh_cardset *cs);
FOH_API const char *foh_cardset_source(const foh_cardset *cs, int i, uint64_t *hash);
/* Source I's file as the loader opened it: the folder as given (relative
 * to the working directory, unless given absolute) joined with the file's
 * name, e.g. "cards/base/3-age-I.yaml", "scripts/effects.lua",
 * "variants/two-player-banker/variant.yaml". NULL for a bad index. For
 * `foh play --watch`, which reads them again between turns. */
FOH_API const char *foh_cardset_source_path(const foh_cardset *cs, int i);
/* One hash over every source's label and hash: equal card sets (with the
 * same variants) have equal hashes. */
FOH_API uint64_t foh_cardset_hash(const foh_cardset *cs);

/* Whether a game of PLAYERS players is allowed; if not, NOTE (may be NULL)
 * gets the card set's hint (e.g. which variant plays with 2). */
FOH_API int foh_cardset_allows_players(const foh_cardset *cs, int players, const char **note);
/* For a refused game of PLAYERS players: the counts CS allows, as "3, 4,
 * 5" ("" if none), into COUNTS (LEN bytes, cut to fit), and the hint to
 * add: the card set's note (game.yaml players.note) when PLAYERS is fewer
 * than the smallest allowed count, "" otherwise (no hint for too many).
 * One wording for foh_game_new and the commands that check first. */
FOH_API const char *foh_cardset_players_hint(const foh_cardset *cs, int players, char *counts, size_t len);

/* Number of cards (indices 0..n-1, in load order). */
FOH_API int foh_cardset_card_count(const foh_cardset *cs);

/* Index of the card with id ID, or -1. */
FOH_API int foh_cardset_find(const foh_cardset *cs, const char *id);

/* Public view of one card's data. Strings belong to the card set. */
typedef struct {
    const char *id, *name;
    const char *age;        /* age name: "S", "A", "I".."V" */
    int age_value;          /* its value: S and A are 0, I..V are 1..5 */
    const char *type;       /* card type name */
    const char *timing;     /* effect timing name */
    const char *fires;      /* when the engine runs it: "never", "on_gain" (Instant, Attack), "permanent",
                             * "turn_action", "end_game" */
    int type_index;         /* the type as an index (foh_cardset_type_name) */
    int obsolete;           /* 1 if the effect is off at final scoring */
    int stripe[FOH_MAX_ICONS]; /* production stripe: icons per icon kind */
    const char *stripe_source; /* provenance of the stripe ("reconstructed") */
    const char *text;          /* card text, English 2nd edition */
    const char *edition_note;   /* how another printed edition differs, or "same" */
    const char *file;          /* YAML file and line of the card's entry */
    int line;
    int has_effect;            /* 1 if the card has an effect script (run by its timing, or reactions) */
    const char *effect_file;   /* where the effect script is (a variant may override it) */
    int effect_line;
} foh_card_info;

/* Fill OUT with card CARD's data; FOH_ERR_USAGE for a bad index. */
FOH_API foh_status foh_cardset_card(const foh_cardset *cs, int card, foh_card_info *out);

/* Card CARD's params (`params:` in its YAML, after variants): how many
 * (-1 for a bad index), and the I-th's name and value as written ("2",
 * "true", text). FOH_ERR_USAGE for a bad index. For `foh tune`, which
 * lists the whole-number ones as tunables. */
FOH_API int foh_cardset_card_param_count(const foh_cardset *cs, int card);
FOH_API foh_status foh_cardset_card_param(const foh_cardset *cs, int card, int i, const char **name,
                                          const char **value);

/* Icon kinds, in game.yaml order. */
FOH_API int foh_cardset_icon_count(const foh_cardset *cs);
FOH_API const char *foh_cardset_icon_name(const foh_cardset *cs, int icon);
/* Index of the icon named NAME, or -1. */
FOH_API int foh_cardset_icon_find(const foh_cardset *cs, const char *name);

/* Card types, in game.yaml order. */
FOH_API int foh_cardset_type_count(const foh_cardset *cs);
FOH_API const char *foh_cardset_type_name(const foh_cardset *cs, int type);
/* Index of the card type named NAME, or -1. */
FOH_API int foh_cardset_type_find(const foh_cardset *cs, const char *name);

/* How cards of TYPE are shown and placed (game.yaml card_types):
 * its placement ("stack", "single", "side_by_side", "none"; rulebook "Card
 * Stacking"), its investor bonus icon (-1: none; rulebook "Complete") and
 * its terminal colour ("red", ... or NULL: none given). */
FOH_API const char *foh_cardset_type_placement(const foh_cardset *cs, int type);
FOH_API int foh_cardset_type_bonus_icon(const foh_cardset *cs, int type);
FOH_API const char *foh_cardset_type_colour(const foh_cardset *cs, int type);
/* The symbol game.yaml's icon_symbols gives ICON (UTF-8), or NULL. */
FOH_API const char *foh_cardset_icon_symbol(const foh_cardset *cs, int icon);

/* Turn actions the card set and its variants declare (`actions:` in
 * game.yaml or variant.yaml; docs/card-format.md), played as FOH_ACT_CUSTOM
 * with option I: their count, name ("trade"), label ("Trade: pay 2 tokens
 * ...") and the index of the one named NAME (-1 if none). */
FOH_API int foh_cardset_action_count(const foh_cardset *cs);
FOH_API const char *foh_cardset_action_name(const foh_cardset *cs, int i);
FOH_API const char *foh_cardset_action_label(const foh_cardset *cs, int i);
FOH_API int foh_cardset_action_find(const foh_cardset *cs, const char *name);

/* Player counts the card set's rules allow. */
FOH_API int foh_cardset_min_players(const foh_cardset *cs);
FOH_API int foh_cardset_max_players(const foh_cardset *cs);

/* Other (non-Culture) icons per VP at final scoring (2 in the base game;
 * rulebook "End of Game"): bots value icons before the rounding. */
FOH_API int foh_cardset_other_icons_per_vp(const foh_cardset *cs);

/* The scoring rules (rulebook 2nd ed. "End of Game"; game.yaml
 * rules.full_vp_icons, vp_per_full_icon, other_icons_per_vp, tie_break). */
typedef struct {
    uint32_t full_vp_icons;  /* bit i: icon i is worth full VP (Culture) */
    int vp_per_full_icon;    /* VP per such icon (1) */
    int other_icons_per_vp;  /* other icons per VP, rounded down (2) */
    int ntie_break;          /* criteria after VP, in order: FOH_TIE_CARDS, FOH_TIE_TOKENS (game.h) */
    int tie_break[2];
} foh_scoring_rules;
FOH_API void foh_cardset_scoring_rules(const foh_cardset *cs, foh_scoring_rules *out);

/* Resource tokens in the box (72 in the base game). */
FOH_API int foh_cardset_tokens_in_box(const foh_cardset *cs);

#endif

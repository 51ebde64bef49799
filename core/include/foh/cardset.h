/* A card set: the game's vocabulary (game.yaml) and its cards (YAML + Lua).
 * Loaded once, immutable afterwards, so one card set can be shared by every
 * engine of every thread. */
#ifndef FOH_CARDSET_H
#define FOH_CARDSET_H

#include "foh/error.h"

#define FOH_MAX_CARDS 128  /* cards in one card set */
#define FOH_MAX_ICONS 12   /* icon kinds */
#define FOH_MAX_TYPES 12   /* card types */
#define FOH_MAX_PLAYERS 6

typedef struct foh_cardset foh_cardset;

/* Load the card set in folder DIR: DIR/game.yaml (vocabulary, set-up numbers,
 * helper scripts) and every other .yaml file in DIR (cards, by file name).
 * Every card's Lua effect is compiled and checked against its timing.
 * Returns NULL on error with ERR set to FOH_ERR_DATA and "file:line: card: reason". */
foh_cardset *foh_cardset_load(const char *dir, foh_error *err);

void foh_cardset_free(foh_cardset *cs);

/* Number of cards (indices 0..n-1, in load order). */
int foh_cardset_card_count(const foh_cardset *cs);

/* Index of the card with id ID, or -1. */
int foh_cardset_find(const foh_cardset *cs, const char *id);

/* Public view of one card's data. Strings belong to the card set. */
typedef struct {
    const char *id, *name;
    const char *age;        /* age name: "S", "A", "I".."V" */
    int age_value;          /* its value: S and A are 0, I..V are 1..5 */
    const char *type;       /* card type name */
    const char *timing;     /* effect timing name */
    int obsolete;           /* 1 if the effect is off at final scoring */
    int stripe[FOH_MAX_ICONS]; /* production stripe: icons per icon kind */
    const char *stripe_source; /* provenance of the stripe ("reconstructed") */
    const char *text;          /* card text, English 2nd edition */
    const char *korean_edition; /* "same" or the Korean edition's text */
    const char *file;          /* YAML file and line of the card's entry */
    int line;
} foh_card_info;

/* Fill OUT with card CARD's data; FOH_ERR_USAGE for a bad index. */
foh_status foh_cardset_card(const foh_cardset *cs, int card, foh_card_info *out);

/* Icon kinds, in game.yaml order. */
int foh_cardset_icon_count(const foh_cardset *cs);
const char *foh_cardset_icon_name(const foh_cardset *cs, int icon);
/* Index of the icon named NAME, or -1. */
int foh_cardset_icon_find(const foh_cardset *cs, const char *name);

/* Card types, in game.yaml order. */
int foh_cardset_type_count(const foh_cardset *cs);
const char *foh_cardset_type_name(const foh_cardset *cs, int type);

/* Player counts the card set's rules allow. */
int foh_cardset_min_players(const foh_cardset *cs);
int foh_cardset_max_players(const foh_cardset *cs);

/* Resource tokens in the box (72 in the base game). */
int foh_cardset_tokens_in_box(const foh_cardset *cs);

#endif

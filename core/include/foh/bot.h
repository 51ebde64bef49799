/* Players: one decision interface for every kind of player (bot or human).
 * A player is asked at each decision point where it is to act, including
 * choices inside card effects, and answers with one of the legal actions. */
#ifndef FOH_BOT_H
#define FOH_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "foh/game.h"

typedef struct foh_player foh_player;
struct foh_player {
    const char *name;
    /* Pick one of the N legal actions LEGAL (N >= 1) for game G; return its
     * index. WHY (may be NULL) receives a short reason for the choice. */
    int (*decide)(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen);
    void (*free)(foh_player *self);
};

/* A bot that picks an action kind uniformly among the legal kinds, then an
 * action of that kind uniformly. Its own random stream is seeded by SEED,
 * so its play is reproducible. NULL if out of memory. */
foh_player *foh_bot_random_new(uint64_t seed);

/* Free any player (NULL allowed). */
void foh_player_free(foh_player *p);

#endif

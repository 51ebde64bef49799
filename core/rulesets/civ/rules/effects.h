/* effects: the port through which the rules run a card's effect (an
 * Event's Lua chunk) without knowing Lua. The Lua binding (../lua/)
 * implements it; ruleset.c puts it in the engine. The effect changes the
 * game only through state.c's functions (civ_gain, civ_destroy, ...). */
#ifndef CIV_EFFECTS_H
#define CIV_EFFECTS_H

#include "foh/error.h"

struct civ_engine;
struct civ_game;

typedef struct civ_effects {
    /* Run Event card CARD's effect for player ME (0-based) on G, with the
     * target the player picked (TARGET_CARD or TARGET_PLAYER, -1 when
     * none). FOH_OK, or FOH_ERR_SCRIPT with ERR naming the card, file and
     * line (the caller restores G: an action is all or nothing). */
    foh_status (*event)(const struct civ_engine *eng, struct civ_game *g, int card, int me, int target_card,
                        int target_player, foh_error *err);
} civ_effects;

#endif

/* bot_eval: a heuristic value of a position for one player, shared by the
 * greedy bot and ISMCTS's leaf evaluation. Internal to core/. */
#ifndef FOH_BOT_EVAL_H
#define FOH_BOT_EVAL_H

#include "foh/game.h"

/* Breakdown of a value, for bots that explain their moves. */
typedef struct {
    double score;      /* VP if the game ended now */
    double tokens;     /* value of tokens held */
    double investment; /* value of the card invested in, net of snipe risk */
    double military;   /* minus the attacks my defence cannot stop */
    double opponents;  /* minus the best opponent's value */
    double total;
} foh_eval;

/* Value of G for PLAYER (0-based) into *OUT (SCRATCH: as for
 * foh_eval_card): own VP + token and investment
 * value, minus the strongest opponent's. At game over: VP difference to the
 * best opponent, plus a bonus for winning. A script error met while scoring
 * or counting icons is returned (never hidden: it would bend the bot). */
foh_status foh_eval_position(foh_game *g, int player, double alternative, foh_game *scratch, foh_eval *out,
                             foh_error *err);

/* The value for PLAYER of the best non-invested Market card of G, each
 * tried in the Nation (VP gained plus the value of a card, 0 if none):
 * the ALTERNATIVE of foh_eval_position, which weighs a held investment
 * against it. Computed once per decision: trying every card costs a score
 * each. */
foh_status foh_eval_alternative(foh_game *g, int player, foh_game *scratch, double *best, foh_error *err);

/* VP PLAYER would gain by having Market card CARD in their Nation now,
 * against NOW (the player's score now, foh_game_score_player); 0 in the
 * middle of an effect. The card is tried on SCRATCH, a game of the same
 * engine overwritten here (the callers own one: no allocation per call). */
foh_status foh_eval_card(foh_game *g, int player, int card, const foh_score *now, foh_game *scratch, double *out,
                         foh_error *err);

#endif

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

/* Value of G for PLAYER (0-based): own VP + token and investment value,
 * minus the strongest opponent's. At game over: VP difference to the best
 * opponent, plus a bonus for winning. */
foh_eval foh_eval_position(foh_game *g, int player);

/* Values of every player at once (OUT has foh_game_players(g) entries):
 * the same terms as foh_eval_position, with investments estimated from the
 * card's stripe instead of trying the card (fast enough for search leaves). */
void foh_eval_players(foh_game *g, double *out);

/* VP PLAYER would gain by having Market card CARD in their Nation now. */
double foh_eval_card(foh_game *g, int player, int card);

#endif

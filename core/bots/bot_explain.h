/* bot_explain: the alternatives a bot weighed at its last decision, kept
 * for foh_player.explain. Internal to core/. */
#ifndef FOH_BOT_EXPLAIN_H
#define FOH_BOT_EXPLAIN_H

#include "foh/bot.h"

typedef struct {
    foh_alternative *items;
    int n, cap;
} foh_weighed;

/* Forget the last decision's alternatives. */
void foh_weighed_clear(foh_weighed *w);
/* Note that the action at INDEX was weighed at VALUE (VISITS simulations);
 * 0 if out of memory. */
int foh_weighed_add(foh_weighed *w, int index, double value, long visits);
/* The best MAX alternatives into OUT, CHOSEN (an index) first, then by
 * visits, then by value, then by index (a stable order); returns how many. */
int foh_weighed_top(const foh_weighed *w, int chosen, foh_alternative *out, int max);
void foh_weighed_free(foh_weighed *w);

#endif

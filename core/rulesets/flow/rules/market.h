/* market: the Civilization deck and the Market (rulebook "Game Setup",
 * "Cleanup Phase"). */
#ifndef FOH_MARKET_H
#define FOH_MARKET_H

#include "internal.h"

/* Take the top card of the deck out of it; -1 if the deck is empty. */
int foh_deck_draw(foh_game *g);
/* Add CARD at the end of the Market (a card that ends the game starts the
 * end of the game). */
void foh_market_add(foh_game *g, int card);
/* Take CARD out of the Market, clearing its investment record. */
void foh_market_take(foh_game *g, int card);
/* Fill the Market up to its size from the deck. */
void foh_market_replenish(foh_game *g);
/* Age Check (default ruling 1): discard every non-invested Market card
 * whose age is at least age_check_gap below the Current Age, once, then
 * replenish. */
void foh_market_age_check(foh_game *g);
/* Current Age (default ruling 2): highest age value among Market cards and
 * every card in a Nation, covered cards included. */
int foh_market_current_age(const foh_game *g);
/* Market size for the game's player count. */
int foh_market_capacity(const foh_game *g);

#endif

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
/* The Market size now: setup.market_size for the game's player count, plus
 * what scripts changed (game.change_market_size), plus the `market_size`
 * of every card whose effect is active (scripts/API.md); never below 0.
 * The Cleanup phase refills the Market up to it; a Market holding more
 * keeps its cards. */
static inline int foh_market_capacity(const foh_game *g);
/* What the active cards' market_size add to it (the slow part). */
int foh_market_capacity_of_cards(const foh_game *g);
static inline int foh_market_capacity(const foh_game *g)
{
    const foh_cardset *cs = g->eng->cs;
    int n = cs->market_size[g->st.players] + g->st.market_delta;
    if (cs->market_mods) /* only card sets with such cards pay for the scan */
        n += foh_market_capacity_of_cards(g);
    /* Above FOH_MAX_MARKET cannot happen: the loader and
     * game.change_market_size refuse what could reach it. */
    return n < 0 ? 0 : n;
}
/* Take CARD's investment off it (a Market card): its investor's marker (a
 * player's or a neutral one) comes back; returns the tokens that were under
 * it, now in nobody's hands (the caller puts them somewhere). */
int foh_market_release(foh_game *g, int card);

#endif

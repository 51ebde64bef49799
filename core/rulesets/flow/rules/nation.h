/* nation: the cards in front of each player (rulebook "Card Stacking"). */
#ifndef FOH_NATION_H
#define FOH_NATION_H

#include "internal.h"

/* The first card of PLAYER's Nation at index FROM or above, -1 for none:
 * for (c = foh_nation_next(st, p, 0); c >= 0; c = foh_nation_next(st, p, c + 1))
 * visits the Nation in card order. */
static inline int foh_nation_next(const foh_state *st, int player, int from)
{
    for (int w = from >> 6; w < st->words; w++) {
        uint64_t bits = FOH_OWNED(st, player)[w];
        if (w == from >> 6)
            bits &= ~0ull << (from & 63);
        if (bits)
            return w * 64 + __builtin_ctzll(bits);
    }
    return -1;
}
/* Top (newest) card of PLAYER's pile of TYPE, or -1. */
static inline int foh_nation_top(const foh_game *g, int player, int type) { return FOH_TOP(&g->st, player)[type]; }
/* Whether a card's effect is active: in a Nation and on top of its pile,
 * or of a side-by-side type. */
static inline int foh_nation_visible(const foh_game *g, int card)
{
    const foh_card_loc *l = &g->st.loc[card];
    if (l->zone != FOH_ZONE_NATION)
        return 0;
    const foh_cardset *cs = g->eng->cs;
    int type = cs->card[card].type;
    return cs->type[type].place == FOH_PLACE_SIDE || FOH_TOP(&g->st, l->owner)[type] == card;
}
/* Cards of TYPE (covered included) in PLAYER's Nation. */
int foh_nation_count(const foh_game *g, int player, int type);
/* All cards in PLAYER's Nation (tie-break 1). */
int foh_nation_total(const foh_game *g, int player);
/* Put CARD into PLAYER's Nation by its type's placement rule; a Leader
 * (single placement) removes the previous one from the game. */
void foh_nation_place(foh_game *g, int player, int card);
/* The Nations' index of G's position (foh_state.top, nation_age and the
 * kept counts) made again from where the cards are, after the card set
 * changed under the game (foh_game_rebind); owned depends on places only. */
void foh_nation_reindex(foh_game *g);
/* Remove a card from wherever it is to the removed-from-game pile. */
void foh_nation_remove(foh_game *g, int card);
/* Gain CARD (already taken out of the Market or deck) HOW ("complete",
 * "snipe", "effect"): place it, queue its on-gain effect the first time it
 * is gained, and fire the events (covered or leave, then gain); a card that
 * ends the game is set aside instead (default ruling 8). A reaction's
 * status is returned (FOH_NEED_CHOICE, FOH_ERR_SCRIPT). */
foh_status foh_nation_gain(foh_game *g, int player, int card, const char *how, foh_error *err);
/* Discard CARD from its Nation (removed from the game) and fire leave
 * (how = discarded), then revealed for the card it uncovers: game.discard
 * (scripts/API.md) and the native helpers' discards. Only a card in a
 * Nation may be discarded: FOH_ERR_ILLEGAL (nothing done), "X is not in a
 * Nation" naming the card's id (CARD -1, none: "nil"), without the API
 * name, which each caller words. Else the reactions' status
 * (FOH_NEED_CHOICE, FOH_ERR_SCRIPT). */
foh_status foh_nation_discard(foh_game *g, int card, foh_error *err);
/* Icons of PLAYER: stripes, constant Permanent effects, then counting
 * Permanent effects, which see only the first two (default ruling 6).
 * With g->scoring set, obsolete effects are off. */
foh_status foh_nation_icons(foh_game *g, int player, int icons[FOH_MAX_ICONS], foh_error *err);
/* The strength of PLAYER (rulebook "Attack Effects", default ruling 5): the
 * sum of the icons game.yaml's rules count for an attacker (ATTACKER 1)
 * or a defender (0), into *OUT. Errors as foh_nation_icons. */
foh_status foh_nation_strength(foh_game *g, int player, int attacker, int *out, foh_error *err);
/* PLAYER gains the top card of the Civilization deck (*CARD; -1 when the
 * deck is empty: logged, nothing gained), revealed in the log. Returns
 * foh_nation_gain's status. */
foh_status foh_nation_gain_top(foh_game *g, int player, int *card, foh_error *err);
/* Stripes plus constant Permanent effects only. */
void foh_nation_base_icons(const foh_game *g, int player, int icons[FOH_MAX_ICONS]);
/* Sum of the icon kinds in MASK. */
int foh_nation_sum(const foh_cardset *cs, const int icons[FOH_MAX_ICONS], uint32_t mask);

#endif

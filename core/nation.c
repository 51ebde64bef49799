/* nation: placement, visibility and icon counting. See nation.h. */
#include <string.h>

#include "log.h"
#include "lua_bridge.h"
#include "nation.h"

static const foh_cardset *cs_of(const foh_game *g) { return g->eng->cs; }

int foh_nation_top(const foh_game *g, int player, int type)
{
    const foh_cardset *cs = cs_of(g);
    int top = -1;
    for (int c = 0; c < cs->ncards; c++) {
        const foh_card_loc *l = &g->st.loc[c];
        if (l->zone == FOH_ZONE_NATION && l->owner == player && cs->card[c].type == type &&
            (top < 0 || l->seq > g->st.loc[top].seq))
            top = c;
    }
    return top;
}

int foh_nation_visible(const foh_game *g, int card)
{
    const foh_card_loc *l = &g->st.loc[card];
    if (l->zone != FOH_ZONE_NATION)
        return 0;
    int type = cs_of(g)->card[card].type;
    return cs_of(g)->type[type].place == FOH_PLACE_SIDE || foh_nation_top(g, l->owner, type) == card;
}

int foh_nation_count(const foh_game *g, int player, int type)
{
    const foh_cardset *cs = cs_of(g);
    int n = 0;
    for (int c = 0; c < cs->ncards; c++)
        n += g->st.loc[c].zone == FOH_ZONE_NATION && g->st.loc[c].owner == player && cs->card[c].type == type;
    return n;
}

int foh_nation_total(const foh_game *g, int player)
{
    int n = 0;
    for (int c = 0; c < cs_of(g)->ncards; c++)
        n += g->st.loc[c].zone == FOH_ZONE_NATION && g->st.loc[c].owner == player;
    return n;
}

void foh_nation_remove(foh_game *g, int card)
{
    g->st.loc[card].zone = FOH_ZONE_REMOVED;
    g->st.loc[card].investor = -1;
    g->st.loc[card].invested = 0;
}

void foh_nation_place(foh_game *g, int player, int card)
{
    const foh_cardset *cs = cs_of(g);
    int type = cs->card[card].type;
    if (cs->type[type].place == FOH_PLACE_SINGLE) {
        int old = foh_nation_top(g, player, type);
        if (old >= 0) {
            foh_nation_remove(g, old);
            foh_log(g, "  P%d's %s leaves the game (replaced by %s)", player + 1, foh_card_name(g, old),
                    foh_card_name(g, card));
        }
    }
    foh_card_loc *l = &g->st.loc[card];
    l->zone = FOH_ZONE_NATION;
    l->owner = (uint8_t)player;
    l->seq = g->st.next_seq++;
    l->investor = -1;
    l->invested = 0;
}

foh_status foh_nation_gain(foh_game *g, int player, int card, const char *how, foh_error *err)
{
    const foh_cardset *cs = cs_of(g);
    const foh_card_def *d = &cs->card[card];
    if (d->ends_game || cs->type[d->type].place == FOH_PLACE_NONE) {
        foh_nation_remove(g, card);
        if (d->ends_game) {
            g->st.ending = 1;
            g->eng->exercised[card]++;
            foh_log(g, "  P%d gains %s: the game ends after this turn", player + 1, d->name);
        }
        return FOH_OK;
    }
    /* The card it covers (a stack) or replaces (a Leader), for the events. */
    foh_placement place = cs->type[d->type].place;
    int under = -1;
    if ((place == FOH_PLACE_STACK && (cs->event_mask >> FOH_EV_COVERED & 1)) ||
        (place == FOH_PLACE_SINGLE && (cs->event_mask >> FOH_EV_LEAVE & 1)))
        under = foh_nation_top(g, player, d->type);
    foh_nation_place(g, player, card);
    foh_log(g, "  P%d gains %s (%s)", player + 1, d->name, cs->type[d->type].name);
    if (cs->timing[d->timing].fire == FOH_FIRE_ON_GAIN && !g->st.loc[card].fired && g->nqueue < FOH_MAX_QUEUE) {
        g->st.loc[card].fired = 1;
        g->queue[g->nqueue][0] = (uint8_t)card;
        g->queue[g->nqueue][1] = (uint8_t)player;
        g->nqueue++;
    }
    foh_status s = FOH_OK;
    if (under >= 0 && place == FOH_PLACE_STACK) {
        foh_event_field f[] = {{"player", FOH_EVF_PLAYER, player, NULL},
                               {"card", FOH_EVF_CARD, under, NULL},
                               {"by", FOH_EVF_CARD, card, NULL}};
        s = foh_lua_event(g, FOH_EV_COVERED, f, 3, err);
    } else if (under >= 0) {
        foh_event_field f[] = {{"player", FOH_EVF_PLAYER, player, NULL},
                               {"card", FOH_EVF_CARD, under, NULL},
                               {"how", FOH_EVF_TEXT, 0, "replaced"}};
        s = foh_lua_event(g, FOH_EV_LEAVE, f, 3, err);
    }
    if (s == FOH_OK) {
        foh_event_field f[] = {{"player", FOH_EVF_PLAYER, player, NULL},
                               {"card", FOH_EVF_CARD, card, NULL},
                               {"how", FOH_EVF_TEXT, 0, how}};
        s = foh_lua_event(g, FOH_EV_GAIN, f, 3, err);
    }
    return s;
}

foh_status foh_nation_discard(foh_game *g, int card, foh_error *err)
{
    const foh_cardset *cs = cs_of(g);
    int owner = g->st.loc[card].owner, type = cs->card[card].type;
    int was_top = cs->type[type].place == FOH_PLACE_STACK && (cs->event_mask >> FOH_EV_REVEALED & 1) &&
                  foh_nation_top(g, owner, type) == card;
    foh_nation_remove(g, card);
    foh_log(g, "  P%d's %s is removed from the game", owner + 1, foh_card_name(g, card));
    foh_event_field f[] = {{"player", FOH_EVF_PLAYER, owner, NULL},
                           {"card", FOH_EVF_CARD, card, NULL},
                           {"how", FOH_EVF_TEXT, 0, "discarded"}};
    foh_status s = foh_lua_event(g, FOH_EV_LEAVE, f, 3, err);
    int revealed = was_top ? foh_nation_top(g, owner, type) : -1;
    if (s == FOH_OK && revealed >= 0) {
        foh_event_field r[] = {{"player", FOH_EVF_PLAYER, owner, NULL}, {"card", FOH_EVF_CARD, revealed, NULL}};
        s = foh_lua_event(g, FOH_EV_REVEALED, r, 2, err);
    }
    return s;
}

/* The top card of each of PLAYER's piles, in one pass (-1: empty pile). */
static void tops_of(const foh_game *g, int player, int tops[FOH_MAX_TYPES])
{
    const foh_cardset *cs = cs_of(g);
    for (int t = 0; t < FOH_MAX_TYPES; t++)
        tops[t] = -1;
    for (int c = 0; c < cs->ncards; c++) {
        const foh_card_loc *l = &g->st.loc[c];
        int t = cs->card[c].type;
        if (l->zone == FOH_ZONE_NATION && l->owner == player && (tops[t] < 0 || l->seq > g->st.loc[tops[t]].seq))
            tops[t] = c;
    }
}

/* Whether CARD (in the Nation whose pile tops are TOPS) has an active
 * Permanent effect now. */
static int permanent_on(const foh_game *g, int card, const int tops[FOH_MAX_TYPES])
{
    const foh_cardset *cs = cs_of(g);
    const foh_card_def *d = &cs->card[card];
    return cs->timing[d->timing].fire == FOH_FIRE_PERMANENT && !(g->scoring && d->obsolete) &&
           (cs->type[d->type].place == FOH_PLACE_SIDE || tops[d->type] == card);
}

static void base_icons(const foh_game *g, int player, const int tops[FOH_MAX_TYPES], int icons[FOH_MAX_ICONS])
{
    const foh_cardset *cs = cs_of(g);
    memset(icons, 0, sizeof(int) * FOH_MAX_ICONS);
    for (int c = 0; c < cs->ncards; c++) {
        if (g->st.loc[c].zone != FOH_ZONE_NATION || g->st.loc[c].owner != player)
            continue;
        for (int i = 0; i < cs->nicons; i++)
            icons[i] += cs->card[c].stripe[i];
        foh_fire fire = cs->timing[cs->card[c].timing].fire;
        if (fire == FOH_FIRE_NEVER)
            g->eng->exercised[c]++; /* a card without effect: its stripe is its rule */
        if (permanent_on(g, c, tops)) {
            for (int i = 0; i < cs->nicons; i++)
                icons[i] += cs->card[c].provides[i];
            if (!cs->card[c].counting)
                g->eng->exercised[c]++;
        }
    }
}

void foh_nation_base_icons(const foh_game *g, int player, int icons[FOH_MAX_ICONS])
{
    int tops[FOH_MAX_TYPES];
    tops_of(g, player, tops);
    base_icons(g, player, tops, icons);
}

foh_status foh_nation_icons(foh_game *g, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    const foh_cardset *cs = cs_of(g);
    int tops[FOH_MAX_TYPES];
    tops_of(g, player, tops);
    base_icons(g, player, tops, icons);
    for (int c = 0; c < cs->ncards; c++) {
        if (!cs->card[c].counting || g->st.loc[c].zone != FOH_ZONE_NATION || g->st.loc[c].owner != player ||
            !permanent_on(g, c, tops))
            continue;
        foh_status s = foh_lua_provides(g, c, player, icons, err);
        if (s != FOH_OK)
            return s;
    }
    return FOH_OK;
}

int foh_nation_sum(const foh_cardset *cs, const int icons[FOH_MAX_ICONS], uint32_t mask)
{
    int n = 0;
    for (int i = 0; i < cs->nicons; i++)
        if (mask & (1u << i))
            n += icons[i];
    return n;
}

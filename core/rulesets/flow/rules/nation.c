/* nation: placement, visibility and icon counting. See nation.h. */
#include <string.h>

#include "log.h"
#include "effects.h"
#include "market.h"
#include "memo.h"
#include "nation.h"

static const foh_cardset *cs_of(const foh_game *g) { return g->eng->cs; }

int foh_nation_count(const foh_game *g, int player, int type)
{
    const uint64_t *of_type = g->eng->type_cards[type];
    int n = 0;
    for (int w = 0; w < g->st.words; w++)
        n += __builtin_popcountll(FOH_OWNED(&g->st, player)[w] & of_type[w]);
    return n;
}

int foh_nation_total(const foh_game *g, int player)
{
    int n = 0;
    for (int w = 0; w < g->st.words; w++)
        n += __builtin_popcountll(FOH_OWNED(&g->st, player)[w]);
    return n;
}

/* The newest card of PLAYER's pile of TYPE by a scan of the Nation (after
 * its top card left). */
static int find_top(const foh_game *g, int player, int type)
{
    const foh_cardset *cs = cs_of(g);
    int top = -1;
    for (int c = foh_nation_next(&g->st, player, 0); c >= 0; c = foh_nation_next(&g->st, player, c + 1))
        if (cs->card[c].type == type && (top < 0 || g->st.loc[c].seq > g->st.loc[top].seq))
            top = c;
    return top;
}

/* Set (SIGN 1) or clear (-1) CARD's bit in the card bit set BITS. */
static void card_bit(uint64_t *bits, int card, int sign)
{
    if (sign > 0)
        bits[card >> 6] |= 1ull << (card & 63);
    else
        bits[card >> 6] &= ~(1ull << (card & 63));
}

/* Add (SIGN 1) or take away (-1) CARD's effect, on in PLAYER's Nation, to
 * or from the Nation's kept counts: a Permanent effect's icons and rule
 * (FOH_BASE_ICONS, FOH_PLAIN, FOH_COUNTING_ON), a Turn Action (FOH_ACTIONS_ON). */
static void effect_on(foh_state *st, const foh_cardset *cs, int player, int card, int sign)
{
    const foh_card_def *d = &cs->card[card];
    foh_fire fire = cs->timing[d->timing].fire;
    uint64_t *bits;
    if (fire == FOH_FIRE_TURN_ACTION) {
        bits = FOH_ACTIONS_ON(st, player);
    } else if (fire == FOH_FIRE_PERMANENT) {
        for (int i = 0; i < cs->nicons; i++)
            FOH_BASE_ICONS(st, player)[i] += sign * d->provides[i];
        bits = d->counting ? FOH_COUNTING_ON(st, player) : FOH_PLAIN(st, player);
    } else {
        return;
    }
    card_bit(bits, card, sign);
}

/* Add or take away CARD's stripe (and, for a card without effect, its
 * rule) to or from PLAYER's kept counts. */
static void stripe_in(foh_state *st, const foh_cardset *cs, int player, int card, int sign)
{
    const foh_card_def *d = &cs->card[card];
    for (int i = 0; i < cs->nicons; i++)
        FOH_BASE_ICONS(st, player)[i] += sign * d->stripe[i];
    if (cs->timing[d->timing].fire == FOH_FIRE_NEVER)
        card_bit(FOH_PLAIN(st, player), card, sign);
}

void foh_nation_remove(foh_game *g, int card)
{
    foh_state *st = &g->st;
    foh_card_loc *l = &st->loc[card];
    if (l->zone == FOH_ZONE_NATION) {
        const foh_cardset *cs = cs_of(g);
        const foh_card_def *d = &cs->card[card];
        int q = l->owner, side = cs->type[d->type].place == FOH_PLACE_SIDE, was_top = FOH_TOP(st, q)[d->type] == card;
        if (side || was_top)
            effect_on(st, cs, q, card, -1);
        stripe_in(st, cs, q, card, -1);
        card_bit(FOH_OWNED(st, q), card, -1);
        st->nation_age[d->age]--;
        if (was_top) {
            int top = find_top(g, q, d->type);
            FOH_TOP(st, q)[d->type] = (int16_t)top;
            if (!side && top >= 0) /* uncovered: its effect is on */
                effect_on(st, cs, q, top, 1);
        }
    }
    l->zone = FOH_ZONE_REMOVED;
    l->investor = -1;
    l->invested = 0;
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
    foh_state *st = &g->st;
    foh_card_loc *l = &st->loc[card];
    if (l->zone == FOH_ZONE_NATION) /* moved from a Nation: out of its index first */
        foh_nation_remove(g, card);
    int covered = FOH_TOP(st, player)[type];
    if (cs->type[type].place != FOH_PLACE_SIDE && covered >= 0) /* covered: its effect is off */
        effect_on(st, cs, player, covered, -1);
    l->zone = FOH_ZONE_NATION;
    l->owner = (uint8_t)player;
    l->seq = st->next_seq++;
    l->investor = -1;
    l->invested = 0;
    card_bit(FOH_OWNED(st, player), card, 1);
    st->nation_age[cs->card[card].age]++;
    FOH_TOP(st, player)[type] = (int16_t)card; /* the newest card of its pile */
    stripe_in(st, cs, player, card, 1);
    effect_on(st, cs, player, card, 1); /* on top of its pile, or side by side */
}

void foh_nation_reindex(foh_game *g)
{
    const foh_cardset *cs = cs_of(g);
    foh_state *st = &g->st;
    memset(st->nation_age, 0, sizeof st->nation_age);
    for (int p = 0; p < st->players; p++) {
        size_t bytes = (size_t)st->words * sizeof st->room[0];
        memset(FOH_TOP(st, p), -1, sizeof FOH_TOP(st, p));
        memset(FOH_BASE_ICONS(st, p), 0, sizeof FOH_BASE_ICONS(st, p));
        memset(FOH_PLAIN(st, p), 0, bytes);
        memset(FOH_COUNTING_ON(st, p), 0, bytes);
        memset(FOH_ACTIONS_ON(st, p), 0, bytes);
    }
    for (int c = 0; c < cs->ncards; c++) {
        const foh_card_loc *l = &st->loc[c];
        if (l->zone != FOH_ZONE_NATION)
            continue;
        const foh_card_def *d = &cs->card[c];
        int16_t *top = &FOH_TOP(st, l->owner)[d->type];
        st->nation_age[d->age]++;
        if (*top < 0 || l->seq > st->loc[*top].seq)
            *top = (int16_t)c;
    }
    for (int c = 0; c < cs->ncards; c++) {
        const foh_card_loc *l = &st->loc[c];
        if (l->zone != FOH_ZONE_NATION)
            continue;
        int type = cs->card[c].type;
        stripe_in(st, cs, l->owner, c, 1);
        if (cs->type[type].place == FOH_PLACE_SIDE || FOH_TOP(st, l->owner)[type] == c)
            effect_on(st, cs, l->owner, c, 1);
    }
}

foh_status foh_nation_gain(foh_game *g, int player, int card, const char *how, foh_error *err)
{
    const foh_cardset *cs = cs_of(g);
    const foh_card_def *d = &cs->card[card];
    if (d->ends_game || cs->type[d->type].place == FOH_PLACE_NONE) {
        foh_nation_remove(g, card);
        if (d->ends_game) {
            g->st.ending = 1;
            foh_memo_exercise(g->eng, card);
            foh_log(g, "  P%d gains %s: the game ends after this turn", player + 1, d->name);
        }
        return FOH_OK;
    }
    /* The card it covers (a stack) or replaces (a Leader), for the events. */
    foh_placement place = cs->type[d->type].place;
    int under = -1;
    if ((place == FOH_PLACE_STACK && FOH_EVENT_WANTED(cs, FOH_EV_COVERED)) ||
        (place == FOH_PLACE_SINGLE && FOH_EVENT_WANTED(cs, FOH_EV_LEAVE)))
        under = foh_nation_top(g, player, d->type);
    foh_nation_place(g, player, card);
    foh_log(g, "  P%d gains %s (%s)", player + 1, d->name, cs->type[d->type].name);
    if (cs->timing[d->timing].fire == FOH_FIRE_ON_GAIN && !g->st.loc[card].fired && g->nqueue < FOH_MAX_QUEUE) {
        g->st.loc[card].fired = 1;
        g->queue[g->nqueue][0] = (uint16_t)card;
        g->queue[g->nqueue][1] = (uint16_t)player;
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
    if (s == FOH_OK && FOH_EVENT_WANTED(cs, FOH_EV_GAIN)) {
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
    if (card < 0 || g->st.loc[card].zone != FOH_ZONE_NATION)
        return foh_error_set(err, FOH_ERR_ILLEGAL, "%s is not in a Nation", card < 0 ? "nil" : cs->card[card].id);
    int owner = g->st.loc[card].owner, type = cs->card[card].type;
    int was_top = cs->type[type].place == FOH_PLACE_STACK && FOH_EVENT_WANTED(cs, FOH_EV_REVEALED) &&
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

/* Whether CARD (in PLAYER's Nation) has an active Permanent effect now. */
static int permanent_on(const foh_game *g, int player, int card)
{
    const foh_cardset *cs = cs_of(g);
    const foh_card_def *d = &cs->card[card];
    return cs->timing[d->timing].fire == FOH_FIRE_PERMANENT && !(g->scoring && d->obsolete) &&
           (cs->type[d->type].place == FOH_PLACE_SIDE || FOH_TOP(&g->st, player)[d->type] == card);
}

void foh_nation_base_icons(const foh_game *g, int player, int icons[FOH_MAX_ICONS])
{
    const foh_cardset *cs = cs_of(g);
    if (!g->scoring) { /* the kept counts */
        /* kinds past nicons are kept at 0 */
        memcpy(icons, FOH_BASE_ICONS(&g->st, player), sizeof(int) * FOH_MAX_ICONS);
        foh_memo_exercise_all(g->eng, FOH_PLAIN(&g->st, player));
        return;
    }
    /* Final scoring turns obsolete effects off: every card is counted. */
    memset(icons, 0, sizeof(int) * FOH_MAX_ICONS);
    for (int c = foh_nation_next(&g->st, player, 0); c >= 0; c = foh_nation_next(&g->st, player, c + 1)) {
        const foh_card_def *d = &cs->card[c];
        for (int i = 0; i < cs->nicons; i++)
            icons[i] += d->stripe[i];
        foh_fire fire = cs->timing[d->timing].fire;
        if (fire == FOH_FIRE_NEVER)
            foh_memo_exercise(g->eng, c); /* a card without effect: its stripe is its rule */
        if (permanent_on(g, player, c)) {
            for (int i = 0; i < cs->nicons; i++)
                icons[i] += d->provides[i];
            if (!d->counting)
                foh_memo_exercise(g->eng, c);
        }
    }
}

/* PLAYER's icons counted: stripes and constant effects, then the counting
 * effects on (their reads noted for the memo, as every count's). */
static foh_status count_icons(foh_game *g, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    const foh_cardset *cs = cs_of(g);
    foh_memo_note(g->eng, 1u << player);
    foh_nation_base_icons(g, player, icons);
    foh_status s = FOH_OK;
    if (!g->scoring) { /* the counting effects on, as kept (counting_on), in card order */
        for (int w = 0; w < g->st.words; w++)
            for (uint64_t bits = FOH_COUNTING_ON(&g->st, player)[w]; bits && s == FOH_OK; bits &= bits - 1)
                s = foh_lua_provides(g, w * 64 + __builtin_ctzll(bits), player, icons, err);
        return s;
    }
    /* Final scoring: obsolete effects off (permanent_on). */
    for (int c = foh_nation_next(&g->st, player, 0); c >= 0 && s == FOH_OK; c = foh_nation_next(&g->st, player, c + 1))
        if (cs->card[c].counting && permanent_on(g, player, c))
            s = foh_lua_provides(g, c, player, icons, err);
    return s;
}

foh_status foh_nation_strength(foh_game *g, int player, int attacker, int *out, foh_error *err)
{
    int icons[FOH_MAX_ICONS];
    foh_status s = foh_nation_icons(g, player, icons, err);
    if (s == FOH_OK)
        *out = foh_nation_sum(cs_of(g), icons, attacker ? cs_of(g)->attacker_icons : cs_of(g)->defender_icons);
    return s;
}

foh_status foh_nation_gain_top(foh_game *g, int player, int *card, foh_error *err)
{
    int c = *card = foh_deck_draw(g);
    if (c < 0) {
        foh_log(g, "  the Civilization deck is empty: P%d gains nothing", player + 1);
        return FOH_OK;
    }
    foh_log(g, "  P%d reveals %s from the top of the Civilization deck", player + 1, foh_card_name(g, c));
    return foh_nation_gain(g, player, c, "effect", err);
}

foh_status foh_nation_icons(foh_game *g, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    foh_engine *e = g->eng;
    int cached = e->icons_game == g;
    if (cached && (e->icons_have >> player & 1)) {
        memcpy(icons, e->icons_of[player], sizeof(int) * FOH_MAX_ICONS);
        foh_memo_note_reads(e, &e->icons_reads[player]);
        return FOH_OK;
    }
    const uint64_t *on = FOH_COUNTING_ON(&g->st, player);
    uint64_t counting = 0, lua = 0;
    for (int w = 0; w < g->st.words; w++) {
        counting |= on[w];
        lua |= on[w] & ~e->native_counting[w];
    }
    if (!cached && !g->scoring && !counting) {
        /* No counting effect on: the kept counts are the answer, as the
         * memo would give it (their reads noted, their cards exercised). */
        foh_memo_note(e, 1u << player);
        foh_nation_base_icons(g, player, icons);
        return FOH_OK;
    }
    if (!cached && !lua) {
        /* Every counting effect on runs in C (native.c) and reads this
         * Nation alone: counted directly, for less than a memo lookup, with
         * the same reads noted and cards exercised as the memo's. */
        return count_icons(g, player, icons, err);
    }
    foh_memo_reads outer, mine;
    if (!foh_memo_find(g, FOH_MEMO_ICONS, player, icons, sizeof(int) * FOH_MAX_ICONS, &mine)) {
        foh_memo_begin(e, &outer);
        foh_status s = count_icons(g, player, icons, err);
        foh_memo_end(e, &outer, &mine);
        if (s != FOH_OK)
            return s;
        foh_memo_keep(g, FOH_MEMO_ICONS, player, &mine, icons, sizeof(int) * FOH_MAX_ICONS,
                      sizeof(int) * FOH_MAX_ICONS);
    }
    if (cached && e->icons_game == g) {
        memcpy(e->icons_of[player], icons, sizeof(int) * FOH_MAX_ICONS);
        e->icons_reads[player] = mine;
        e->icons_have |= 1u << player;
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

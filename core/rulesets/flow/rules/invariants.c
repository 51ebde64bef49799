/* invariants: consistency checks run after every action in tests. */
#include "internal.h"

#define BROKEN(...) return foh_error_set(err, FOH_ERR_DATA, "invariant: " __VA_ARGS__)

/* See foh/game.h. Long because: it is a list of independent checks, one
 * after the other, each a few lines; split, it would only be cut at
 * arbitrary points. */
foh_status foh_game_check_invariants(const foh_game *g, foh_error *err)
{
    const foh_cardset *cs = g->eng->cs;
    const foh_state *st = &g->st;
    int seen[FOH_MAX_CARDS] = {0};

    if (st->words != foh_card_words(cs) || st->bits_from != FOH_ROOM_WORDS - st->players * FOH_BITS_KINDS * st->words ||
        st->rows_from != st->bits_from - st->players * FOH_ROW_WORDS ||
        st->deck_from != st->rows_from - FOH_DECK_USED(cs->ncards))
        BROKEN("the deck, the players' rows and card bit sets from words %d, %d and %d (%d words each), the card "
               "set's %d cards %d", st->deck_from, st->rows_from, st->bits_from, st->words, cs->ncards,
               foh_card_words(cs));
    if (st->ndeck > cs->ncards || st->nmarket > FOH_MAX_MARKET)
        BROKEN("deck of %d or Market of %d cards is out of range", st->ndeck, st->nmarket);
    for (int i = 0; i < st->ndeck; i++) {
        int c = FOH_DECK(st)[i];
        if (c >= cs->ncards || seen[c]++ || st->loc[c].zone != FOH_ZONE_DECK)
            BROKEN("deck position %d holds card %d, which is elsewhere or twice", i, c);
    }
    for (int i = 0; i < st->nmarket; i++) {
        int c = st->market[i];
        if (c >= cs->ncards || seen[c]++ || st->loc[c].zone != FOH_ZONE_MARKET)
            BROKEN("Market slot %d holds card %d, which is elsewhere or twice", i, c);
    }
    /* Not "as many cards as the Market size": scripts may add a card to the
     * Market (game.deal_to_market), change its size, or take a card after
     * the Cleanup phase refilled it (a turn_start reaction), so the rules
     * allow any count; these checks hold for every card set (issue 30). */

    int singles[FOH_MAX_PLAYERS][FOH_MAX_TYPES] = {{0}};
    for (int c = 0; c < cs->ncards; c++) {
        const foh_card_loc *l = &st->loc[c];
        switch (l->zone) {
        case FOH_ZONE_DECK:
        case FOH_ZONE_MARKET:
            if (!seen[c])
                BROKEN("%s is marked in the deck or Market but is not there", cs->card[c].id);
            break;
        case FOH_ZONE_NATION: {
            int t = cs->card[c].type;
            if (l->owner >= st->players)
                BROKEN("%s belongs to player %d of %d", cs->card[c].id, l->owner + 1, st->players);
            if (cs->type[t].place == FOH_PLACE_NONE)
                BROKEN("%s is in a Nation but its type is never placed", cs->card[c].id);
            if (cs->type[t].place == FOH_PLACE_SINGLE && ++singles[l->owner][t] > 1)
                BROKEN("P%d has more than one %s", l->owner + 1, cs->type[t].name);
            for (int d = 0; d < c; d++)
                if (st->loc[d].zone == FOH_ZONE_NATION && st->loc[d].seq == l->seq)
                    BROKEN("%s and %s share a stacking position", cs->card[d].id, cs->card[c].id);
            break;
        }
        case FOH_ZONE_REMOVED:
        case FOH_ZONE_BOX:
            break;
        default:
            BROKEN("%s is in no known place (zone %d)", cs->card[c].id, l->zone);
        }
        if (l->zone != FOH_ZONE_MARKET && (l->investor != -1 || l->invested != 0))
            BROKEN("%s is out of the Market but still carries an investment", cs->card[c].id);
        int neutral = l->investor >= FOH_NEUTRAL_INVESTOR;
        if (l->zone == FOH_ZONE_MARKET && !neutral && (l->investor >= 0) != (l->invested > 0))
            BROKEN("%s: investor %d with %d tokens under it", cs->card[c].id, l->investor + 1, l->invested);
        if (l->zone == FOH_ZONE_MARKET && neutral &&
            (l->investor - FOH_NEUTRAL_INVESTOR >= cs->neutral_investors || l->invested < 0 ||
             st->neutral[l->investor - FOH_NEUTRAL_INVESTOR] != c))
            BROKEN("%s's neutral investor %d does not record the investment", cs->card[c].id,
                   l->investor - FOH_NEUTRAL_INVESTOR + 1);
        if (l->zone == FOH_ZONE_MARKET && !neutral && l->investor >= 0 &&
            (l->investor >= st->players || st->investment[l->investor] != c))
            BROKEN("%s's investor P%d does not record the investment", cs->card[c].id, l->investor + 1);
    }

    /* The Nations' index (foh_state.owned, top, nation_age) against loc. */
    int ages[FOH_MAX_AGES] = {0};
    for (int c = 0; c < cs->ncards; c++) {
        const foh_card_loc *l = &st->loc[c];
        int in = l->zone == FOH_ZONE_NATION;
        for (int p = 0; p < st->players; p++) /* the bit sets of the game's players only (foh_state) */
            if ((int)(FOH_OWNED(st, p)[c >> 6] >> (c & 63) & 1) != (in && l->owner == p))
                BROKEN("the Nations' index has %s %s P%d's Nation", cs->card[c].id,
                       in && l->owner == p ? "out of" : "in", p + 1);
        ages[cs->card[c].age] += in;
    }
    for (int a = 0; a < FOH_MAX_AGES; a++)
        if (ages[a] != st->nation_age[a])
            BROKEN("the Nations' index counts %d cards of age %d, there are %d", st->nation_age[a], a, ages[a]);
    for (int p = 0; p < st->players; p++) /* the rows of the game's players only (foh_state) */
        for (int t = 0; t < FOH_MAX_TYPES; t++) {
            int top = -1;
            for (int c = 0; c < cs->ncards; c++)
                if (st->loc[c].zone == FOH_ZONE_NATION && st->loc[c].owner == p && cs->card[c].type == t &&
                    (top < 0 || st->loc[c].seq > st->loc[top].seq))
                    top = c;
            if (top != FOH_TOP(st, p)[t])
                BROKEN("the Nations' index has card %d on top of P%d's pile %d, not card %d", FOH_TOP(st, p)[t], p + 1,
                       t, top);
        }

    /* The Nations' kept counts (FOH_BASE_ICONS, FOH_PLAIN, FOH_COUNTING_ON,
     * FOH_ACTIONS_ON) against a count of every card: stripes, then the
     * effects on (side by side, or on top of their pile). */
    for (int p = 0; p < st->players; p++) {
        int icons[FOH_MAX_ICONS] = {0};
        uint64_t plain[FOH_OWNED_WORDS] = {0}, counting[FOH_OWNED_WORDS] = {0}, actions[FOH_OWNED_WORDS] = {0};
        for (int c = 0; c < cs->ncards; c++) {
            if (st->loc[c].zone != FOH_ZONE_NATION || st->loc[c].owner != p)
                continue;
            const foh_card_def *d = &cs->card[c];
            foh_fire fire = cs->timing[d->timing].fire;
            for (int i = 0; i < cs->nicons; i++)
                icons[i] += d->stripe[i];
            if (fire == FOH_FIRE_NEVER)
                plain[c >> 6] |= 1ull << (c & 63);
            int on = cs->type[d->type].place == FOH_PLACE_SIDE || FOH_TOP(st, p)[d->type] == c;
            if (fire == FOH_FIRE_PERMANENT && on) {
                for (int i = 0; i < cs->nicons; i++)
                    icons[i] += d->provides[i];
                (d->counting ? counting : plain)[c >> 6] |= 1ull << (c & 63);
            }
            if (fire == FOH_FIRE_TURN_ACTION && on)
                actions[c >> 6] |= 1ull << (c & 63);
        }
        for (int i = 0; i < FOH_MAX_ICONS; i++)
            if (icons[i] != FOH_BASE_ICONS(st, p)[i])
                BROKEN("P%d's kept count of icon %d is %d, the cards give %d", p + 1, i, FOH_BASE_ICONS(st, p)[i],
                       icons[i]);
        for (int w = 0; w < st->words; w++)
            if (plain[w] != FOH_PLAIN(st, p)[w] || counting[w] != FOH_COUNTING_ON(st, p)[w] ||
                actions[w] != FOH_ACTIONS_ON(st, p)[w])
                BROKEN("P%d's kept Permanent effects, Turn Actions and cards without effect are not the Nation's", p + 1);
    }

    long total = st->supply + st->reserve;
    if (st->supply < 0 || st->reserve < 0 || st->substituted < 0)
        BROKEN("negative Supply %d, Reserve %d or substituted %d", st->supply, st->reserve, st->substituted);
    for (int p = 0; p < st->players; p++) {
        if (st->tokens[p] < 0)
            BROKEN("P%d has %d tokens", p + 1, st->tokens[p]);
        total += st->tokens[p];
        int c = st->investment[p];
        if (c >= 0 && (c >= cs->ncards || st->loc[c].zone != FOH_ZONE_MARKET || st->loc[c].investor != p))
            BROKEN("P%d's investment in card %d is not in the Market under their marker", p + 1, c);
    }
    for (int k = 0; k < FOH_MAX_NEUTRAL; k++) {
        int c = st->neutral[k];
        if (c >= 0 && (k >= cs->neutral_investors || c >= cs->ncards || st->loc[c].zone != FOH_ZONE_MARKET ||
                       st->loc[c].investor != FOH_NEUTRAL_INVESTOR + k))
            BROKEN("neutral investor %d's card %d is not in the Market under its marker", k + 1, c);
    }
    for (int i = 0; i < st->nmarket; i++)
        total += st->loc[st->market[i]].invested;
    if (total != (long)cs->tokens_in_box + st->substituted)
        BROKEN("%ld tokens in play, expected %d in the box + %d substituted", total, cs->tokens_in_box,
               st->substituted);
    return FOH_OK;
}

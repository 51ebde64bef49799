/* market: the Civilization deck and the Market. See market.h. */
#include "log.h"
#include "market.h"
#include "memo.h"
#include "nation.h"

int foh_deck_draw(foh_game *g)
{
    if (g->st.ndeck == 0)
        return -1;
    int card = FOH_DECK(&g->st)[--g->st.ndeck];
    g->st.loc[card].zone = FOH_ZONE_REMOVED; /* in transit: the caller places it */
    return card;
}

int foh_market_capacity_of_cards(const foh_game *g)
{
    const foh_cardset *cs = g->eng->cs;
    int n = 0;
    for (int c = 0; c < cs->ncards; c++)
        if (cs->card[c].market_size && foh_nation_visible(g, c))
            n += cs->card[c].market_size;
    return n;
}

int foh_market_release(foh_game *g, int card)
{
    foh_state *st = &g->st;
    foh_card_loc *l = &st->loc[card];
    int under = l->invested;
    if (l->investor >= FOH_NEUTRAL_INVESTOR)
        st->neutral[l->investor - FOH_NEUTRAL_INVESTOR] = -1;
    else if (l->investor >= 0)
        st->investment[l->investor] = -1;
    l->investor = -1;
    l->invested = 0;
    return under;
}

void foh_market_add(foh_game *g, int card)
{
    foh_state *st = &g->st;
    st->market[st->nmarket++] = (uint16_t)card;
    st->loc[card].zone = FOH_ZONE_MARKET;
    st->loc[card].investor = -1;
    st->loc[card].invested = 0;
    foh_log(g, "  %s enters the Market", foh_card_name(g, card));
    if (g->eng->cs->card[card].ends_game) {
        st->ending = 1;
        foh_memo_exercise(g->eng, card);
        foh_log(g, "  %s is in the Market: the game ends after this turn", foh_card_name(g, card));
    }
}

void foh_market_take(foh_game *g, int card)
{
    foh_state *st = &g->st;
    int j = 0;
    for (int i = 0; i < st->nmarket; i++)
        if (st->market[i] != card)
            st->market[j++] = st->market[i];
    st->nmarket = (uint16_t)j;
    st->loc[card].investor = -1;
    st->loc[card].invested = 0;
    st->loc[card].zone = FOH_ZONE_REMOVED; /* in transit: the caller places it */
}

void foh_market_replenish(foh_game *g)
{
    while (g->st.nmarket < foh_market_capacity(g) && g->st.nmarket < FOH_MAX_MARKET) {
        int card = foh_deck_draw(g);
        if (card < 0)
            return;
        foh_market_add(g, card);
    }
}

/* The highest age value among the cards in all Nations (0 for none): the
 * first age, highest value first, that a Nation holds a card of. */
static int nations_age(const foh_game *g)
{
    const foh_engine *e = g->eng;
    for (int i = 0; i < e->cs->nages; i++) {
        int a = e->age_by_value[i];
        if (g->st.nation_age[a])
            return e->cs->age[a].value > 0 ? e->cs->age[a].value : 0;
    }
    return 0;
}

int foh_market_current_age(const foh_game *g)
{
    int age = nations_age(g);
    for (int i = 0; i < g->st.nmarket; i++) {
        int v = g->eng->age_value[g->st.market[i]];
        if (v > age)
            age = v;
    }
    return age;
}

void foh_market_age_check(foh_game *g)
{
    const foh_cardset *cs = g->eng->cs;
    int discarded;
    do {
        /* The Market's cards and their ages, read once: the Current Age
         * from them, then the discards, in Market order. */
        int n = g->st.nmarket, age = nations_age(g), card[FOH_MAX_MARKET], value[FOH_MAX_MARKET];
        for (int i = 0; i < n; i++) {
            card[i] = g->st.market[i];
            value[i] = g->eng->age_value[card[i]];
            if (value[i] > age)
                age = value[i];
        }
        int limit = age - cs->age_check_gap;
        _Static_assert(FOH_MAX_MARKET <= 32, "a bit per Market card");
        unsigned due = 0; /* bit i: market card i is discarded (rarely any: no branch per card) */
        for (int i = 0; i < n; i++)
            due |= (unsigned)((value[i] <= limit) & (g->st.loc[card[i]].investor < 0)) << i;
        discarded = due != 0;
        for (int i = 0; due; i++, due >>= 1)
            if (due & 1) {
                foh_market_take(g, card[i]);
                foh_log(g, "  Age check: %s is discarded from the Market", foh_card_name(g, card[i]));
            }
        foh_market_replenish(g);
    } while (discarded && cs->age_check_repeat); /* a house rule repeats it */
}

/* actions: the five turn actions, their legality and their token flow
 * (rulebook "Phase I: Action Phase"). */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "log.h"
#include "effects.h"
#include "market.h"
#include "nation.h"
#include "tokens.h"

static const foh_cardset *cs_of(const foh_game *g) { return g->eng->cs; }

static int in_market(const foh_game *g, int card)
{
    return card >= 0 && card < cs_of(g)->ncards && g->st.loc[card].zone == FOH_ZONE_MARKET;
}

/* ---- Prices (scripts/API.md "Events": snipe_cost, invest_cost,
 * complete_cost). Each is the printed rule's price, which the cost events'
 * reactions, asked read-only, may change or forbid for this player; the
 * listing, the check and the action itself ask the same question of the
 * same position, so bots, humans and scenarios see the price paid. ---- */

/* The cost events asked (out of line: most card sets have no reaction to
 * them, and the inline callers below stay small on the hot path). */
static foh_status ask_snipe_cost(foh_game *g, int p, int card, int *price, int *allowed, foh_error *err)
    __attribute__((noinline, cold));
static foh_status ask_snipe_cost(foh_game *g, int p, int card, int *price, int *allowed, foh_error *err)
{
    int q = g->st.loc[card].investor;
    foh_event_field f[] = {{"player", FOH_EVF_PLAYER, p, NULL},
                           {"card", FOH_EVF_CARD, card, NULL},
                           {"price", FOH_EVF_INT, *price, NULL},
                           {"allowed", FOH_EVF_BOOL, 1, NULL},
                           /* a neutral marker's number, 1-based like a player's (and as fixed) */
                           q >= FOH_NEUTRAL_INVESTOR
                               ? (foh_event_field){"neutral", FOH_EVF_PLAYER, q - FOH_NEUTRAL_INVESTOR, NULL}
                               : (foh_event_field){"investor", FOH_EVF_PLAYER, q, NULL}};
    foh_status s = foh_lua_query(g, FOH_EV_SNIPE_COST, f, 5, err);
    *price = f[2].value;
    *allowed = f[3].value;
    return s;
}

static foh_status ask_fee(foh_game *g, int event, int p, int card, int *fee, int *allowed, foh_error *err)
    __attribute__((noinline, cold));
static foh_status ask_fee(foh_game *g, int event, int p, int card, int *fee, int *allowed, foh_error *err)
{
    foh_event_field f[] = {{"player", FOH_EVF_PLAYER, p, NULL},
                           {"card", FOH_EVF_CARD, card, NULL},
                           {"fee", FOH_EVF_INT, 0, NULL},
                           {"allowed", FOH_EVF_BOOL, 1, NULL}};
    foh_status s = foh_lua_query(g, event, f, 4, err);
    *fee = f[2].value;
    *allowed = f[3].value;
    return s;
}

/* What P pays the investor of Market card CARD to Snipe it (*PRICE; the
 * rulebook: as many tokens as are under it) and whether P may (*ALLOWED). */
static inline foh_status snipe_price(foh_game *g, int p, int card, int *price, int *allowed, foh_error *err)
{
    *price = g->st.loc[card].invested;
    *allowed = 1;
    return FOH_EVENT_WANTED(cs_of(g), FOH_EV_SNIPE_COST) ? ask_snipe_cost(g, p, card, price, allowed, err) : FOH_OK;
}

/* The tokens P pays to the Supply besides those placed, to Invest in CARD
 * (EVENT FOH_EV_INVEST_COST) or to Complete their investment CARD
 * (FOH_EV_COMPLETE_COST): *FEE, 0 by the rulebook; whether P may
 * (*ALLOWED). */
static inline foh_status fee_of(foh_game *g, int event, int p, int card, int *fee, int *allowed, foh_error *err)
{
    *fee = 0;
    *allowed = 1;
    return FOH_EVENT_WANTED(cs_of(g), event) ? ask_fee(g, event, p, card, fee, allowed, err) : FOH_OK;
}

/* Who forbade the action the cost event just asked about, for messages. */
static const char *forbidder(const foh_game *g) { return g->eng->forbidder[0] ? g->eng->forbidder : "a reaction"; }

foh_status foh_action_check(foh_game *g, const foh_action *a, foh_error *err)
{
    const foh_state *st = &g->st;
    int p = st->current;
    if (st->over)
        return foh_error_set(err, FOH_ERR_ILLEGAL, "the game is over");
    if (a->kind == FOH_ACT_PASS)
        return st->bonus_mask ? FOH_OK
                              : foh_error_set(err, FOH_ERR_ILLEGAL, "Pass: there is no bonus action to decline");
    if (st->bonus_mask && !(st->bonus_mask >> a->kind & 1))
        return foh_error_set(err, FOH_ERR_ILLEGAL, "P%d's bonus action may only be %s%s (or pass)", p + 1,
                             st->bonus_mask >> FOH_ACT_INVEST & 1 ? "Invest " : "",
                             st->bonus_mask >> FOH_ACT_SNIPE & 1 ? "Snipe " : "");
    switch (a->kind) {
    case FOH_ACT_INVEST: {
        if (st->investment[p] >= 0)
            return foh_error_set(err, FOH_ERR_ILLEGAL,
                                 "Invest: P%d has already invested in %s (one investment at a time)", p + 1,
                                 foh_card_name(g, st->investment[p]));
        if (st->tokens[p] < 1)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Invest: P%d has no resource tokens", p + 1);
        if (!in_market(g, a->card))
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Invest: %s is not in the Market",
                                 foh_card_name(g, a->card));
        if (st->loc[a->card].investor >= 0)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Invest: %s already has an investor",
                                 foh_card_name(g, a->card));
        int fee, allowed;
        foh_status s = fee_of(g, FOH_EV_INVEST_COST, p, a->card, &fee, &allowed, err);
        if (s != FOH_OK)
            return s;
        if (!allowed)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Invest: P%d may not invest in %s now (%s forbids it: its "
                                 "invest_cost reaction)", p + 1, foh_card_name(g, a->card), forbidder(g));
        if (fee && st->tokens[p] - fee < 1)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Invest: %s costs a fee of %d token%s besides those placed; "
                                 "P%d has %d", foh_card_name(g, a->card), fee, fee == 1 ? "" : "s", p + 1,
                                 st->tokens[p]);
        if (a->tokens < 1 || a->tokens > st->tokens[p] - fee)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Invest: must place 1 to %d tokens (P%d has %d%s), not %d",
                                 st->tokens[p] - fee, p + 1, st->tokens[p], fee ? ", less the fee" : "", a->tokens);
        return FOH_OK;
    }
    case FOH_ACT_COMPLETE: {
        if (st->investment[p] < 0)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Complete: P%d has not invested in a Market card", p + 1);
        int fee, allowed;
        foh_status s = fee_of(g, FOH_EV_COMPLETE_COST, p, st->investment[p], &fee, &allowed, err);
        if (s != FOH_OK)
            return s;
        if (!allowed)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Complete: P%d may not complete %s now (%s forbids it: its "
                                 "complete_cost reaction)", p + 1, foh_card_name(g, st->investment[p]), forbidder(g));
        if (st->tokens[p] < fee)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Complete: %s costs a fee of %d token%s; P%d has %d",
                                 foh_card_name(g, st->investment[p]), fee, fee == 1 ? "" : "s", p + 1, st->tokens[p]);
        return FOH_OK;
    }
    case FOH_ACT_SNIPE: {
        if (!in_market(g, a->card) || st->loc[a->card].investor < 0)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Snipe: %s is not a Market card with an investor",
                                 foh_card_name(g, a->card));
        int q = st->loc[a->card].investor;
        if (q == p)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Snipe: P%d cannot snipe their own investment", p + 1);
        int price, allowed;
        foh_status s = snipe_price(g, p, a->card, &price, &allowed, err);
        if (s != FOH_OK)
            return s;
        if (!allowed)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Snipe: P%d may not snipe %s now (%s forbids it: its "
                                 "snipe_cost reaction)", p + 1, foh_card_name(g, a->card), forbidder(g));
        if (st->tokens[p] < price)
            return foh_error_set(err, FOH_ERR_ILLEGAL,
                                 "Snipe: %s needs %d tokens to pay the investor; P%d has %d",
                                 foh_card_name(g, a->card), price, p + 1, st->tokens[p]);
        return FOH_OK;
    }
    case FOH_ACT_ACTIVATE: {
        const foh_cardset *cs = cs_of(g);
        if (a->card < 0 || a->card >= cs->ncards || st->loc[a->card].zone != FOH_ZONE_NATION ||
            st->loc[a->card].owner != p)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Activate: %s is not in P%d's Nation",
                                 foh_card_name(g, a->card), p + 1);
        if (cs->timing[cs->card[a->card].timing].fire != FOH_FIRE_TURN_ACTION)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Activate: %s has no Turn Action effect",
                                 foh_card_name(g, a->card));
        if (!foh_nation_visible(g, a->card))
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Activate: %s is covered (only the top card's effect is active)",
                                 foh_card_name(g, a->card));
        int ok = 0;
        foh_status s = foh_lua_can_activate(g, a->card, p, &ok, err);
        if (s != FOH_OK)
            return s;
        if (!ok)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Activate: the cost of %s cannot be paid now",
                                 foh_card_name(g, a->card));
        return FOH_OK;
    }
    case FOH_ACT_HARVEST:
        return FOH_OK;
    case FOH_ACT_CUSTOM: {
        const foh_cardset *cs = cs_of(g);
        if (a->option < 0 || a->option >= cs->nactions)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "no declared action %d (the card set declares %d)", a->option,
                                 cs->nactions);
        int ok = 0;
        foh_status s = foh_lua_action_can(g, a->option, p, &ok, err);
        if (s != FOH_OK)
            return s;
        if (!ok)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "%s: P%d may not take this action now (its 'can' says no)",
                                 cs->action[a->option].label, p + 1);
        return FOH_OK;
    }
    case FOH_ACT_CHOOSE:
        return foh_error_set(err, FOH_ERR_ILLEGAL, "Choose: no choice is pending");
    default:
        break;
    }
    return foh_error_set(err, FOH_ERR_ILLEGAL, "unknown action kind %d", (int)a->kind);
}

/* The listing of foh_action_list (GROUPED 0) and foh_action_list_grouped
 * (GROUPED 1: each Market card's Invest amounts in one entry). */
static inline __attribute__((always_inline)) int list(foh_game *g, foh_action *out, int max, int grouped,
                                                      int *nlegal, foh_error *err)
{
    const foh_state *st = &g->st;
    const foh_cardset *cs = cs_of(g);
    int p = st->current, n = 0, extra = 0; /* EXTRA: the actions of the groups past their first */
    /* During a granted bonus action only its kinds, and Pass, are legal. */
    unsigned allowed = st->bonus_mask ? st->bonus_mask : ~0u;
#define PUSH(...)                                                                                                     \
    do {                                                                                                              \
        foh_action push_ = (foh_action){__VA_ARGS__};                                                                 \
        if (allowed >> push_.kind & 1) {                                                                              \
            if (n < max)                                                                                              \
                out[n] = push_;                                                                                       \
            n++;                                                                                                      \
        }                                                                                                             \
    } while (0)
    /* The count is an int: Invest's amounts on every Market card, with room
     * for every other action (at most a few hundred), must fit in one. */
    enum { OTHERS = 2 * FOH_MAX_MARKET + FOH_MAX_CARDS + FOH_MAX_ACTIONS + 3 };
    int may_invest = st->investment[p] < 0 && st->tokens[p] > 0 && (allowed >> FOH_ACT_INVEST & 1);
    if (may_invest && (long long)st->tokens[p] * st->nmarket > INT_MAX - OTHERS) {
        int free = 0; /* the cards one may invest in: no investor yet */
        for (int i = 0; i < st->nmarket; i++)
            free += st->loc[st->market[i]].investor < 0;
        if ((long long)st->tokens[p] * free > INT_MAX - OTHERS) {
            foh_error_set(err, FOH_ERR_DATA,
                          "P%d has %d tokens: one Invest action per amount on each of the %d Market cards without "
                          "an investor would be more legal actions than the engine counts (%d)",
                          p + 1, st->tokens[p], free, INT_MAX - OTHERS);
            return -1;
        }
    }
    if (may_invest && FOH_EVENT_WANTED(cs, FOH_EV_INVEST_COST)) {
        /* Priced by invest_cost reactions: each card's amounts are 1 to the
         * tokens its fee leaves (none if forbidden). */
        for (int i = 0; i < st->nmarket; i++) {
            int c = st->market[i], fee, ok;
            if (st->loc[c].investor >= 0)
                continue;
            if (fee_of(g, FOH_EV_INVEST_COST, p, c, &fee, &ok, err) != FOH_OK)
                return -1;
            int amounts = ok ? st->tokens[p] - fee : 0;
            if (amounts < 1)
                continue;
            if (grouped) {
                if (n < max)
                    out[n] = (foh_action){.kind = FOH_ACT_INVEST, .card = c, .tokens = amounts, .option = -1};
                n++;
                extra += amounts - 1;
                continue;
            }
            int fit = n >= max ? 0 : amounts < max - n ? amounts : max - n;
            for (int t = 0; t < fit; t++)
                out[n + t] = (foh_action){.kind = FOH_ACT_INVEST, .card = c, .tokens = t + 1, .option = -1};
            n += amounts;
        }
    } else if (grouped && may_invest) {
        /* One entry per Market card without investor, for the amounts 1 to
         * TOKENS: written whatever the card, kept (N advanced) if it has
         * none, which a random Market makes unpredictable to branch on. */
        int tokens = st->tokens[p], groups = 0;
        for (int i = 0; i < st->nmarket; i++) {
            int c = st->market[i], free = st->loc[c].investor < 0;
            if (n < max)
                out[n] = (foh_action){.kind = FOH_ACT_INVEST, .card = c, .tokens = tokens, .option = -1};
            n += free;
            groups += free;
        }
        extra = groups * (tokens - 1);
    } else if (may_invest)
        for (int i = 0; i < st->nmarket; i++) {
            int c = st->market[i], tokens = st->tokens[p];
            if (st->loc[c].investor >= 0)
                continue;
            /* Every amount, 1 to all the player's tokens, as many as fit. */
            int fit = n >= max ? 0 : tokens < max - n ? tokens : max - n;
            /* One 16-byte store per amount (the listing's longest run). */
            typedef int four_ints __attribute__((vector_size(16)));
            _Static_assert(sizeof(foh_action) == sizeof(four_ints) && offsetof(foh_action, tokens) == 2 * sizeof(int),
                           "foh_action is kind, card, tokens, option");
            four_ints a = {FOH_ACT_INVEST, c, 1, -1}, step = {0, 0, 1, 0};
            for (int t = 0; t < fit; t++, a += step)
                memcpy(out + n + t, &a, sizeof a);
            n += tokens;
        }
    if (st->investment[p] >= 0) {
        int fee = 0, ok = 1;
        if (FOH_EVENT_WANTED(cs, FOH_EV_COMPLETE_COST) && (allowed >> FOH_ACT_COMPLETE & 1) &&
            fee_of(g, FOH_EV_COMPLETE_COST, p, st->investment[p], &fee, &ok, err) != FOH_OK)
            return -1;
        if (ok && st->tokens[p] >= fee)
            PUSH(.kind = FOH_ACT_COMPLETE, .card = st->investment[p], .tokens = 0, .option = -1);
    }
    if ((allowed >> FOH_ACT_SNIPE & 1) && FOH_EVENT_WANTED(cs, FOH_EV_SNIPE_COST))
        for (int i = 0; i < st->nmarket; i++) { /* priced by snipe_cost reactions */
            int c = st->market[i], q = st->loc[c].investor, price, ok;
            if (q < 0 || q == p)
                continue;
            if (snipe_price(g, p, c, &price, &ok, err) != FOH_OK)
                return -1;
            if (ok && st->tokens[p] >= price) {
                if (n < max)
                    out[n] = (foh_action){.kind = FOH_ACT_SNIPE, .card = c, .tokens = 0, .option = -1};
                n++;
            }
        }
    else if (allowed >> FOH_ACT_SNIPE & 1)
        for (int i = 0; i < st->nmarket; i++) { /* written, kept if it may be sniped (as above) */
            int c = st->market[i], q = st->loc[c].investor;
            if (n < max)
                out[n] = (foh_action){.kind = FOH_ACT_SNIPE, .card = c, .tokens = 0, .option = -1};
            n += q >= 0 && q != p && st->tokens[p] >= st->loc[c].invested;
        }
    for (int w = 0; w < st->words; w++) /* the Nation's Turn Actions on, in card order */
        for (uint64_t bits = FOH_ACTIONS_ON(st, p)[w]; bits; bits &= bits - 1) {
            int c = w * 64 + __builtin_ctzll(bits), ok = 0;
            if (foh_lua_can_activate(g, c, p, &ok, err) != FOH_OK)
                return -1;
            if (ok)
                PUSH(.kind = FOH_ACT_ACTIVATE, .card = c, .tokens = 0, .option = -1);
        }
    PUSH(.kind = FOH_ACT_HARVEST, .card = -1, .tokens = 0, .option = -1);
    for (int i = 0; i < cs->nactions; i++) {
        int ok = 0;
        if (!(allowed >> FOH_ACT_CUSTOM & 1))
            break;
        if (foh_lua_action_can(g, i, p, &ok, err) != FOH_OK)
            return -1;
        if (ok)
            PUSH(.kind = FOH_ACT_CUSTOM, .card = -1, .tokens = 0, .option = i);
    }
    if (st->bonus_mask) {
        allowed = ~0u;
        PUSH(.kind = FOH_ACT_PASS, .card = -1, .tokens = 0, .option = -1);
    }
#undef PUSH
    if (grouped)
        *nlegal = n + extra;
    return n;
}

int foh_action_list(foh_game *g, foh_action *out, int max, foh_error *err)
{
    return list(g, out, max, 0, NULL, err);
}

int foh_action_list_grouped(foh_game *g, foh_action *out, int max, int *nlegal, foh_error *err)
{
    return list(g, out, max, 1, nlegal, err);
}

static foh_status complete(foh_game *g, int p, foh_error *err)
{
    foh_state *st = &g->st;
    const foh_cardset *cs = cs_of(g);
    int card = st->investment[p], fee, allowed;
    foh_status s = fee_of(g, FOH_EV_COMPLETE_COST, p, card, &fee, &allowed, err);
    if (s != FOH_OK)
        return s;
    if (!allowed || st->tokens[p] < fee) /* a before_action hook changed the position since the check */
        return foh_error_set(err, FOH_ERR_ILLEGAL, "Complete: P%d can no longer complete %s (fee %d, %d tokens)",
                             p + 1, foh_card_name(g, card), fee, st->tokens[p]);
    if (fee) {
        foh_tokens_to_supply(st, p, fee);
        foh_log(g, "P%d pays a fee of %d token%s to the Supply to complete %s", p + 1, fee, fee == 1 ? "" : "s",
                foh_card_name(g, card));
    }
    int under = st->loc[card].invested;
    st->supply += under;
    st->loc[card].invested = 0;
    st->investment[p] = -1;
    int bonus = 0, icon = cs->type[cs->card[card].type].bonus_icon;
    if (icon >= 0) {
        int icons[FOH_MAX_ICONS];
        s = foh_nation_icons(g, p, icons, err);
        if (s != FOH_OK)
            return s;
        /* rules.investor_bonus: tokens per icon, from the Supply (or Reserve). */
        bonus = icons[icon] * cs->bonus_per_icon;
        if (!cs->bonus_from_reserve)
            bonus = foh_tokens_from_supply(st, p, bonus);
        else if ((s = foh_tokens_from_reserve(st, p, bonus, err)) != FOH_OK)
            return s;
    }
    foh_log(g, "P%d completes %s: %d tokens to the Supply, investor bonus %d (%s) from the %s", p + 1,
            foh_card_name(g, card), under, bonus, icon >= 0 ? cs->icon[icon] : "none",
            cs->bonus_from_reserve ? "Reserve" : "Supply");
    foh_market_take(g, card);
    s = foh_nation_gain(g, p, card, "complete", err);
    if (s != FOH_OK)
        return s;
    if (!FOH_EVENT_WANTED(cs, FOH_EV_COMPLETE))
        return FOH_OK;
    foh_event_field f[] = {{"player", FOH_EVF_PLAYER, p, NULL},
                           {"card", FOH_EVF_CARD, card, NULL},
                           {"tokens", FOH_EVF_INT, under, NULL},
                           {"bonus", FOH_EVF_INT, bonus, NULL}};
    return foh_lua_event(g, FOH_EV_COMPLETE, f, 4, err);
}

static foh_status snipe(foh_game *g, int p, int card, foh_error *err)
{
    foh_state *st = &g->st;
    const foh_cardset *cs = cs_of(g);
    int q = st->loc[card].investor, under = st->loc[card].invested, price, allowed;
    foh_status s = snipe_price(g, p, card, &price, &allowed, err);
    if (s != FOH_OK)
        return s;
    if (!allowed || st->tokens[p] < price) /* a before_action hook changed the position since the check */
        return foh_error_set(err, FOH_ERR_ILLEGAL, "Snipe: P%d can no longer snipe %s (price %d, %d tokens)", p + 1,
                             foh_card_name(g, card), price, st->tokens[p]);
    if (q >= FOH_NEUTRAL_INVESTOR) {
        /* A neutral marker has no Nation: the price and
         * the tokens under the card go to the Supply, with no compensation. */
        foh_tokens_to_supply(st, p, price);
        st->supply += under;
        st->neutral[q - FOH_NEUTRAL_INVESTOR] = -1;
        foh_log(g, "P%d snipes %s from neutral investor %d: pays %d tokens to the Supply, %d more go there", p + 1,
                foh_card_name(g, card), q - FOH_NEUTRAL_INVESTOR + 1, price, under);
        foh_market_take(g, card);
        s = foh_nation_gain(g, p, card, "snipe", err);
        if (s != FOH_OK || !FOH_EVENT_WANTED(cs, FOH_EV_SNIPE))
            return s;
        foh_event_field f[] = {{"player", FOH_EVF_PLAYER, p, NULL},
                               {"card", FOH_EVF_CARD, card, NULL},
                               {"neutral", FOH_EVF_INT, q - FOH_NEUTRAL_INVESTOR + 1, NULL},
                               {"price", FOH_EVF_INT, price, NULL}};
        return foh_lua_event(g, FOH_EV_SNIPE, f, 4, err);
    }
    foh_tokens_transfer(st, p, q, price);
    st->supply += under;
    st->loc[card].invested = 0;
    st->investment[q] = -1;
    int icons[FOH_MAX_ICONS];
    s = foh_nation_icons(g, q, icons, err);
    if (s != FOH_OK)
        return s;
    /* rules.snipe: the Trade step, then a share of the Supply. */
    int first = cs->snipe_icon >= 0 ? foh_tokens_from_supply(st, q, icons[cs->snipe_icon] * cs->snipe_per_icon) : 0;
    int half = foh_tokens_from_supply(st, q, foh_share_of(cs->snipe_share, st->supply));
    foh_log(g, "P%d snipes %s from P%d: pays %d tokens, %d to the Supply; P%d takes %d (%s) then %d (%s)",
            p + 1, foh_card_name(g, card), q + 1, price, under, q + 1, first,
            cs->snipe_icon >= 0 ? cs->icon[cs->snipe_icon] : "no Trade step", half, cs->snipe_share_text);
    foh_market_take(g, card);
    if ((s = foh_nation_gain(g, p, card, "snipe", err)) != FOH_OK || !FOH_EVENT_WANTED(cs, FOH_EV_SNIPE))
        return s;
    foh_event_field f[] = {{"player", FOH_EVF_PLAYER, p, NULL}, {"card", FOH_EVF_CARD, card, NULL},
                           {"investor", FOH_EVF_PLAYER, q, NULL}, {"price", FOH_EVF_INT, price, NULL},
                           {"trade", FOH_EVF_INT, first, NULL},   {"share", FOH_EVF_INT, half, NULL}};
    return foh_lua_event(g, FOH_EV_SNIPE, f, 6, err);
}

static foh_status harvest(foh_game *g, int p, foh_error *err)
{
    foh_state *st = &g->st;
    const foh_cardset *cs = cs_of(g);
    int icons[FOH_MAX_ICONS];
    foh_status s = foh_nation_icons(g, p, icons, err);
    if (s != FOH_OK)
        return s;
    /* rules.harvest: icons move tokens Reserve -> Supply, the harvester
     * takes a share of the Supply, then tops up. */
    int n_icons = cs->harvest_icon >= 0 ? icons[cs->harvest_icon] : 0, h = n_icons * cs->harvest_per_icon;
    if ((s = foh_tokens_from_reserve(st, -1, h, err)) != FOH_OK)
        return s;
    int half = foh_tokens_from_supply(st, p, foh_share_of(cs->harvest_share, st->supply));
    int age = cs->harvest_top_up == FOH_TOP_UP_AGE ? foh_market_current_age(g) : cs->harvest_top_up;
    int from_supply = 0, from_reserve = 0;
    if (st->tokens[p] < age) {
        from_supply = foh_tokens_from_supply(st, p, age - st->tokens[p]);
        from_reserve = age - st->tokens[p];
        if ((s = foh_tokens_from_reserve(st, p, from_reserve, err)) != FOH_OK)
            return s;
    }
    foh_log(g, "P%d harvests: %d token%s from the Reserve to the Supply (%d %s icon%s), takes %d (%s)",
            p + 1, h, h == 1 ? "" : "s", n_icons, cs->harvest_icon >= 0 ? cs->icon[cs->harvest_icon] : "Harvest",
            n_icons == 1 ? "" : "s", half, cs->harvest_share_text);
    if ((from_supply || from_reserve) && cs->harvest_top_up == FOH_TOP_UP_AGE)
        foh_log(g, "  tops up to the Current Age %d: %d from the Supply, %d from the Reserve", age, from_supply,
                from_reserve);
    else if (from_supply || from_reserve)
        foh_log(g, "  tops up to %d tokens: %d from the Supply, %d from the Reserve", age, from_supply, from_reserve);
    if (!FOH_EVENT_WANTED(cs, FOH_EV_HARVEST))
        return FOH_OK;
    foh_event_field f[] = {{"player", FOH_EVF_PLAYER, p, NULL},
                           {"tokens", FOH_EVF_INT, h, NULL},
                           {"took", FOH_EVF_INT, half, NULL},
                           {"top_up", FOH_EVF_INT, from_supply + from_reserve, NULL}};
    return foh_lua_event(g, FOH_EV_HARVEST, f, 4, err);
}

__attribute__((always_inline)) inline foh_status foh_action_perform(foh_game *g, const foh_action *a, foh_error *err)
{
    foh_state *st = &g->st;
    int p = st->current;
    switch (a->kind) {
    case FOH_ACT_INVEST: {
        int fee, allowed;
        foh_status s = fee_of(g, FOH_EV_INVEST_COST, p, a->card, &fee, &allowed, err);
        if (s != FOH_OK)
            return s;
        if (!allowed || st->tokens[p] - fee < a->tokens) /* a before_action hook changed the position */
            return foh_error_set(err, FOH_ERR_ILLEGAL, "Invest: P%d can no longer invest %d tokens in %s (fee %d, "
                                 "%d tokens)", p + 1, a->tokens, foh_card_name(g, a->card), fee, st->tokens[p]);
        if (fee) {
            foh_tokens_to_supply(st, p, fee);
            foh_log(g, "P%d pays a fee of %d token%s to the Supply to invest in %s", p + 1, fee, fee == 1 ? "" : "s",
                    foh_card_name(g, a->card));
        }
        st->tokens[p] -= a->tokens;
        st->loc[a->card].investor = (int8_t)p;
        st->loc[a->card].invested = a->tokens;
        st->investment[p] = (int16_t)a->card;
        foh_log(g, "P%d invests %d tokens in %s", p + 1, a->tokens, foh_card_name(g, a->card));
        if (FOH_EVENT_WANTED(cs_of(g), FOH_EV_INVEST)) {
            foh_event_field f[] = {{"player", FOH_EVF_PLAYER, p, NULL},
                                   {"card", FOH_EVF_CARD, a->card, NULL},
                                   {"tokens", FOH_EVF_INT, a->tokens, NULL},
                                   {"fee", FOH_EVF_INT, fee, NULL}};
            return foh_lua_event(g, FOH_EV_INVEST, f, 4, err);
        }
        return FOH_OK;
    }
    case FOH_ACT_COMPLETE:
        return complete(g, p, err);
    case FOH_ACT_SNIPE:
        return snipe(g, p, a->card, err);
    case FOH_ACT_ACTIVATE:
        foh_log(g, "P%d activates %s", p + 1, foh_card_name(g, a->card));
        return foh_lua_activate(g, a->card, p, err);
    case FOH_ACT_HARVEST:
        return harvest(g, p, err);
    case FOH_ACT_CUSTOM:
        foh_log(g, "P%d takes the action %s", p + 1, cs_of(g)->action[a->option].label);
        return foh_lua_action_run(g, a->option, p, err);
    default:
        break;
    }
    return foh_error_set(err, FOH_ERR_ILLEGAL, "not a turn action");
}

void foh_action_describe(const foh_game *g, const foh_action *a, char *buf, size_t len)
{
    switch (a->kind) {
    case FOH_ACT_INVEST:
        snprintf(buf, len, "Invest %d token%s in %s", a->tokens, a->tokens == 1 ? "" : "s",
                 foh_card_name(g, a->card));
        return;
    case FOH_ACT_COMPLETE:
        snprintf(buf, len, "Complete %s", foh_card_name(g, g->st.investment[g->st.current]));
        return;
    case FOH_ACT_SNIPE:
        snprintf(buf, len, "Snipe %s", foh_card_name(g, a->card));
        return;
    case FOH_ACT_ACTIVATE:
        snprintf(buf, len, "Activate %s", foh_card_name(g, a->card));
        return;
    case FOH_ACT_HARVEST:
        snprintf(buf, len, "Harvest");
        return;
    case FOH_ACT_CHOOSE:
        if (g->pending && a->option >= 0 && a->option < g->choice.n)
            snprintf(buf, len, "Choose %s", g->choice.label[a->option]);
        else
            snprintf(buf, len, "Choose option %d", a->option);
        return;
    case FOH_ACT_PASS:
        snprintf(buf, len, "Pass (no bonus action)");
        return;
    case FOH_ACT_CUSTOM:
        snprintf(buf, len, "%s", a->option >= 0 && a->option < cs_of(g)->nactions ? cs_of(g)->action[a->option].label
                                                                                      : "?");
        return;
    default:
        break;
    }
    snprintf(buf, len, "?");
}

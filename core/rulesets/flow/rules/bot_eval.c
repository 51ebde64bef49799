/* bot_eval: see bot_eval.h. The weights are a rule of thumb checked by
 * simulation (docs/bots.md):
 * - VP are counted before rounding (an odd "other" icon is half a VP): a
 *   card that adds one icon is worth taking even when the rounded score
 *   does not move, or the bots would leave such cards in the Market for
 *   ever and the game would stall;
 * - a card in the Nation is worth a little on its own (the first
 *   tie-break, and what it may do later);
 * - a token buys about a third of a VP early and nothing at the end, and a
 *   pile of more than 15 buys little more; tokens coming back from a
 *   sniped investment are valued on top of those held (a rich player's
 *   tokens are worth little, wherever they are);
 * - an investment is worth part of its card if kept, but when an opponent
 *   can afford to snipe it, the card may go to that opponent (a cheap
 *   investment is an offer to the next player, not a bargain);
 * - a defence short of the opponents' attacks costs. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "bot_eval.h"
#include "foh/position.h"

#define TOKEN_VALUE 0.35          /* VP per token held, early in the game */
#define TOKENS_USEFUL 15          /* tokens beyond this are worth little */
#define EXTRA_TOKEN_VALUE 0.05
#define CARD_VALUE 0.25           /* a card in the Nation, beyond its VP */
#define INVESTMENT_SHARE 0.6      /* share of its card's value a kept investment is worth */
#define BETTER_CARD 0.5           /* share of a better Market card's value an investment forgoes */
#define LOST_CARD 0.5             /* share of the next player's bargain that counts against me */
#define FADE_DECK 40.0            /* token value fades over the last 40 deck cards */
#define STALL_TURNS 200           /* and over the turns beyond 200 (base-set games last about 110-150) */
#define STALLED_CARD 12.0         /* beyond them, a card gains up to 12 times its value */
#define THREAT 0.5                /* VP per point of defence short of the threat */
#define THREAT_MARGIN 2.0         /* one more attack card's strength */
#define THREAT_CAP 6.0
#define WIN_BONUS 20.0

/* How far G is into a game that has stopped moving: 0 up to STALL_TURNS
 * turns, rising to 1 over as many more. */
static double lateness(const foh_game *g)
{
    double late = (flow_game_turn(g) - STALL_TURNS) / (double)STALL_TURNS;
    return late < 0 ? 0 : late > 1 ? 1 : late;
}

/* What a card in a Nation is worth beyond its VP. In a game that has
 * stopped moving (every player harvesting while the cards they could take
 * would lower their score), taking any card becomes worth it: only gained
 * cards move the deck towards the end of the game. */
static double card_value(const foh_game *g) { return CARD_VALUE * (1 + STALLED_CARD * lateness(g)); }

/* VP of score S before rounding "other" icons down (K per VP). */
static double smooth(const foh_score *s, int k)
{
    return s->total - s->other_vp + (double)s->other_icons / k;
}

foh_status foh_eval_card(foh_game *g, int player, int card, const foh_score *now, foh_game *scratch, double *out,
                         foh_error *err)
{
    foh_score after;
    int k = foh_cardset_other_icons_per_vp(foh_game_cardset(g));
    *out = 0;
    if (flow_game_choice(g))
        return FOH_OK; /* no position to edit in the middle of an effect */
    flow_game_copy(scratch, g);
    foh_status s = FOH_OK;
    if (foh_position_put(scratch, card, FOH_ZONE_NATION, player, NULL) == FOH_OK &&
        (s = foh_game_score_player(scratch, player, &after, err)) == FOH_OK)
        *out = smooth(&after, k) - smooth(now, k);
    return s;
}

/* Military strength of every player, as attacker and as defender: each a
 * full icon count, so computed once per evaluation. */
typedef struct {
    int attack[FOH_MAX_PLAYERS], defence[FOH_MAX_PLAYERS];
} strengths;

static foh_status strengths_of(foh_game *g, strengths *m, foh_error *err)
{
    for (int p = 0; p < flow_game_players(g); p++) {
        foh_status s = foh_game_strengths(g, p, &m->attack[p], &m->defence[p], err);
        if (s != FOH_OK)
            return s;
    }
    return FOH_OK;
}

/* Value of holding N tokens (before the fade). */
static double tokens_value(int n)
{
    return TOKEN_VALUE * (n < TOKENS_USEFUL ? n : TOKENS_USEFUL) +
           EXTRA_TOKEN_VALUE * (n > TOKENS_USEFUL ? n - TOKENS_USEFUL : 0);
}

/* The best value a non-invested Market card has for PLAYER: each tried in
 * the Nation on SCRATCH, against NOW (the player's score now). */
static foh_status best_market_card(foh_game *g, int player, const foh_score *now, foh_game *scratch, double *best,
                                   foh_error *err)
{
    *best = 0;
    for (int i = 0; i < foh_game_market_size(g); i++) {
        int c = foh_game_market_card(g, i);
        if (foh_game_investor(g, c) >= 0)
            continue;
        double w;
        foh_status s = foh_eval_card(g, player, c, now, scratch, &w, err);
        if (s != FOH_OK)
            return s;
        if (w + card_value(g) > *best)
            *best = w + card_value(g);
    }
    return FOH_OK;
}

foh_status foh_eval_alternative(foh_game *g, int player, foh_game *scratch, double *best, foh_error *err)
{
    foh_score now; /* unread in the middle of an effect (foh_eval_card) */
    memset(&now, 0, offsetof(foh_score, end));
    foh_status s = flow_game_choice(g) ? FOH_OK : foh_game_score_player(g, player, &now, err);
    return s != FOH_OK ? s : best_market_card(g, player, &now, scratch, best, err);
}

/* Value of one player's holdings, without the opponent term, into *V.
 * ALTERNATIVE: the best Market card's value for P (foh_eval_alternative);
 * a held investment is tried in the Nation on SCRATCH. */
static foh_status holdings(foh_game *g, int p, const foh_score *sc, const strengths *m, foh_game *scratch,
                           double alternative, foh_eval *e, double *v, foh_error *err)
{
    int n = flow_game_players(g), k = foh_cardset_other_icons_per_vp(foh_game_cardset(g));
    /* Tokens only break ties at the end: their value fades with the deck,
     * and in a game that has stopped moving (nobody spends, so nothing
     * is bought), with the turns beyond the usual length: tokens only ever
     * score through the cards they buy. */
    double left = foh_game_deck_size(g) / FADE_DECK;
    double fade = left > 1 ? 1 : left < 0.1 ? 0.1 : left;
    double late = lateness(g), cv = card_value(g);
    fade *= late > 0.9 ? 0.1 : 1 - late;
    e->score = smooth(&sc[p], k) + cv * sc[p].cards;
    int have = foh_game_tokens(g, p);
    e->tokens = fade * tokens_value(have);
    e->investment = 0;
    int card = foh_game_investment(g, p);
    if (card >= 0) {
        int t = foh_game_invested_tokens(g, card), threats = 0;
        for (int q = 0; q < n; q++)
            threats += q != p && foh_game_tokens(g, q) >= t;
        double risk = n > 1 ? (double)threats / (n - 1) : 0;
        double card_vp;
        foh_status s = foh_eval_card(g, p, card, &sc[p], scratch, &card_vp, err);
        if (s != FOH_OK)
            return s;
        double worth = card_vp + cv, back = fade * (tokens_value(have + t) - tokens_value(have));
        /* Kept: part of the card; sniped: the tokens come back. A card
         * that became worth nothing (a new Leader would replace a better
         * one) is worth what completing it gives: held, it would take the
         * one investment a player may have, and a Market place, for ever. */
        e->investment = worth > 0 ? (1 - 0.5 * risk) * INVESTMENT_SHARE * worth + risk * back : worth;
        /* It also keeps the player from investing in a better card of the
         * Market: holding a poor investment costs part of the difference
         * (or a player would hold it for ever, waiting). */
        if (alternative > worth)
            e->investment -= BETTER_CARD * (alternative - worth);
        /* The next player to act takes a bargain at once: a card worth more
         * to them than the T tokens it costs (an investment of 1 token is
         * an offer to the next player, not a way to buy cheap). */
        int next = foh_game_current_player(g);
        double bargain = worth - TOKEN_VALUE * t; /* at the price tokens have early on */
        if (next != p && foh_game_tokens(g, next) >= t && bargain > 0)
            e->investment -= LOST_CARD * bargain;
    }
    /* Military threat: what opponents' attacks (with one more attack card)
     * could take, while my defence is short of them. */
    int threat = 0;
    for (int q = 0; q < n; q++)
        if (q != p && m->attack[q] > threat)
            threat = m->attack[q];
    double shortfall = threat + THREAT_MARGIN - m->defence[p];
    if (shortfall > THREAT_CAP)
        shortfall = THREAT_CAP;
    e->military = shortfall > 0 ? -THREAT * shortfall : 0;
    *v = e->score + e->tokens + e->investment + e->military;
    return FOH_OK;
}

foh_status foh_eval_position(foh_game *g, int player, double alternative, foh_game *scratch, foh_eval *out,
                             foh_error *err)
{
    foh_eval e = {0};
    foh_score sc[FOH_MAX_PLAYERS];
    *out = e;
    foh_status s = foh_game_score(g, sc, NULL, err);
    if (s != FOH_OK)
        return s;
    int n = flow_game_players(g), k = foh_cardset_other_icons_per_vp(foh_game_cardset(g));
    if (flow_game_is_over(g)) {
        int best = -1000;
        for (int q = 0; q < n; q++)
            if (q != player && sc[q].total > best)
                best = sc[q].total;
        e.score = sc[player].total;
        e.opponents = -best;
        e.total = sc[player].total - best + (sc[player].winner ? WIN_BONUS : 0);
        *out = e;
        return FOH_OK;
    }
    strengths m;
    double mine, best = -1e9;
    if ((s = strengths_of(g, &m, err)) != FOH_OK || (s = holdings(g, player, sc, &m, scratch, alternative, &e, &mine, err)) != FOH_OK)
        return s;
    for (int q = 0; q < n; q++) {
        if (q == player)
            continue;
        /* Opponents' investments are not valued: cheaper, and symmetric enough. */
        double v = smooth(&sc[q], k) + card_value(g) * sc[q].cards + tokens_value(foh_game_tokens(g, q));
        if (v > best)
            best = v;
    }
    e.opponents = n > 1 ? -best : 0;
    e.total = mine + e.opponents;
    *out = e;
    return FOH_OK;
}

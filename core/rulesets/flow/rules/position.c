/* position: exact set-ups for tests and scenarios (see foh/position.h). */
#include <string.h>

#include "foh/position.h"
#include "internal.h"
#include "market.h"
#include "nation.h"
#include "rng.h"

static foh_status editable(const foh_game *g, foh_error *err)
{
    if (g->pending)
        return foh_error_set(err, FOH_ERR_USAGE, "the game is inside an action; finish it first");
    return FOH_OK;
}

/* Whether DELTA more tokens can be put in play: the Reserve pays, then
 * substitution, up to the engine's limit on tokens in play. */
static foh_status can_balance(const foh_state *st, long long delta, foh_error *err)
{
    long long substituted = st->substituted + (delta > st->reserve ? delta - st->reserve : 0);
    if (substituted > FOH_MAX_TOKENS - FOH_MAX_BOX_TOKENS)
        return foh_error_set(err, FOH_ERR_USAGE, "more than %d tokens in play (the engine's limit)", FOH_MAX_TOKENS);
    return FOH_OK;
}

/* Add DELTA tokens to a holder, balancing with the Reserve (checked with
 * can_balance first). */
static void balance(foh_state *st, int delta)
{
    st->reserve -= delta;
    if (st->reserve < 0) {
        st->substituted += -st->reserve;
        st->reserve = 0;
    }
}

foh_status foh_position_clear(foh_game *g, int current, foh_error *err)
{
    g->pending = 0; /* an unanswered set-up choice is abandoned with the position */
    g->nanswers = 0;
    if (current < 0 || current >= g->st.players)
        return foh_error_set(err, FOH_ERR_USAGE, "no player %d", current + 1);
    foh_state *st = &g->st;
    uint64_t rng[4];
    memcpy(rng, st->rng, sizeof rng);
    foh_state_reset(st, st->players, g->eng->cs);
    st->current = st->first_player = (uint8_t)current;
    memcpy(st->rng, rng, sizeof rng);
    st->reserve = g->eng->cs->tokens_in_box;
    return FOH_OK;
}

/* Take CARD out of wherever it is, returning tokens under it. */
static void lift(foh_game *g, int card)
{
    foh_state *st = &g->st;
    switch (st->loc[card].zone) {
    case FOH_ZONE_MARKET:
        if (st->loc[card].investor >= FOH_NEUTRAL_INVESTOR)
            st->neutral[st->loc[card].investor - FOH_NEUTRAL_INVESTOR] = -1;
        else if (st->loc[card].investor >= 0)
            st->investment[st->loc[card].investor] = -1;
        balance(st, -st->loc[card].invested);
        foh_market_take(g, card);
        break;
    case FOH_ZONE_DECK: {
        int j = 0;
        for (int i = 0; i < st->ndeck; i++)
            if (FOH_DECK(st)[i] != card)
                FOH_DECK(st)[j++] = FOH_DECK(st)[i];
        st->ndeck = (uint16_t)j;
        break;
    }
    case FOH_ZONE_NATION:
        foh_nation_remove(g, card); /* out of the Nation's index */
        break;
    default:
        break;
    }
    st->loc[card].zone = FOH_ZONE_BOX;
}

foh_status foh_position_put(foh_game *g, int card, foh_zone zone, int player, foh_error *err)
{
    const foh_cardset *cs = g->eng->cs;
    if (editable(g, err) != FOH_OK)
        return FOH_ERR_USAGE;
    if (card < 0 || card >= cs->ncards)
        return foh_error_set(err, FOH_ERR_USAGE, "no card %d", card);
    if (zone == FOH_ZONE_NATION && (player < 0 || player >= g->st.players))
        return foh_error_set(err, FOH_ERR_USAGE, "no player %d", player + 1);
    if (zone == FOH_ZONE_NATION && cs->type[cs->card[card].type].place == FOH_PLACE_NONE)
        return foh_error_set(err, FOH_ERR_USAGE, "%s is never placed in a Nation", cs->card[card].id);
    if (zone == FOH_ZONE_MARKET && g->st.nmarket >= FOH_MAX_MARKET)
        return foh_error_set(err, FOH_ERR_USAGE, "the Market is full");
    lift(g, card);
    foh_state *st = &g->st;
    switch (zone) {
    case FOH_ZONE_DECK:
        FOH_DECK(st)[st->ndeck++] = (uint16_t)card;
        st->loc[card].zone = FOH_ZONE_DECK;
        break;
    case FOH_ZONE_MARKET:
        st->market[st->nmarket++] = (uint16_t)card;
        st->loc[card].zone = FOH_ZONE_MARKET;
        break;
    case FOH_ZONE_NATION:
        foh_nation_place(g, player, card);
        break;
    case FOH_ZONE_REMOVED:
    case FOH_ZONE_BOX:
        st->loc[card].zone = (uint8_t)zone;
        break;
    default:
        return foh_error_set(err, FOH_ERR_USAGE, "unknown zone %d", (int)zone);
    }
    return FOH_OK;
}

foh_status foh_position_set_tokens(foh_game *g, int player, int tokens, foh_error *err)
{
    if (editable(g, err) != FOH_OK)
        return FOH_ERR_USAGE;
    if (tokens < 0 || player < -1 || player >= g->st.players)
        return foh_error_set(err, FOH_ERR_USAGE, "bad player %d or token count %d", player + 1, tokens);
    int32_t *slot = player < 0 ? &g->st.supply : &g->st.tokens[player];
    if (can_balance(&g->st, (long long)tokens - *slot, err) != FOH_OK)
        return FOH_ERR_USAGE;
    balance(&g->st, tokens - *slot);
    *slot = tokens;
    return FOH_OK;
}

foh_status foh_position_invest(foh_game *g, int player, int card, int tokens, foh_error *err)
{
    foh_state *st = &g->st;
    int k = player - FOH_NEUTRAL_INVESTOR; /* a neutral marker when >= 0 */
    if (editable(g, err) != FOH_OK)
        return FOH_ERR_USAGE;
    const foh_cardset *cs = g->eng->cs;
    if (card < 0 || card >= cs->ncards)
        return foh_error_set(err, FOH_ERR_USAGE, "no card %d", card);
    const char *id = cs->card[card].id;
    if (st->loc[card].zone != FOH_ZONE_MARKET)
        return foh_error_set(err, FOH_ERR_USAGE, "cannot invest in %s: it is not in the Market", id);
    if (st->loc[card].investor >= 0)
        return foh_error_set(err, FOH_ERR_USAGE, "cannot invest in %s: it already has an investor", id);
    if (k >= 0 && (k >= cs->neutral_investors || st->neutral[k] >= 0 || tokens < 0))
        return foh_error_set(err, FOH_ERR_USAGE,
                             "neutral investor %d cannot invest %d tokens in %s (no such investor, already "
                             "invested, or a negative count)",
                             k + 1, tokens, id);
    if (k < 0 && (player < 0 || player >= st->players))
        return foh_error_set(err, FOH_ERR_USAGE, "cannot invest in %s: no player %d", id, player + 1);
    if (k < 0 && st->investment[player] >= 0)
        return foh_error_set(err, FOH_ERR_USAGE, "P%d cannot invest in %s: they already invest in %s", player + 1, id,
                             cs->card[st->investment[player]].id);
    if (k < 0 && tokens < 1)
        return foh_error_set(err, FOH_ERR_USAGE, "P%d cannot invest %d tokens in %s: at least 1", player + 1, tokens,
                             id);
    if (can_balance(st, tokens, err) != FOH_OK)
        return FOH_ERR_USAGE;
    st->loc[card].investor = (int8_t)player;
    st->loc[card].invested = tokens;
    if (k >= 0)
        st->neutral[k] = (int16_t)card;
    else
        st->investment[player] = (int16_t)card;
    balance(st, tokens);
    return FOH_OK;
}

foh_status foh_position_deal_rest(foh_game *g, uint64_t seed, foh_error *err)
{
    const foh_cardset *cs = g->eng->cs;
    foh_state *st = &g->st;
    if (editable(g, err) != FOH_OK)
        return FOH_ERR_USAGE;
    /* The cards already in the deck stay on top, in their order. */
    uint16_t top[FOH_MAX_CARDS];
    int ntop = st->ndeck;
    memcpy(top, FOH_DECK(st), (size_t)ntop * sizeof top[0]);
    st->ndeck = 0;
    for (int i = 0; i < cs->ndeck_bottom; i++) {
        int c = cs->deck_bottom[i];
        if (st->loc[c].zone == FOH_ZONE_BOX)
            FOH_DECK(st)[st->ndeck++] = (uint16_t)c;
    }
    uint64_t rng[4];
    foh_rng_seed(rng, seed);
    for (int a = 0; a < cs->ndeck_ages; a++) {
        uint16_t pool[FOH_MAX_CARDS];
        int n = 0;
        for (int c = 0; c < cs->ncards; c++)
            if (cs->card[c].age == cs->deck_ages[a] && st->loc[c].zone == FOH_ZONE_BOX) {
                int bottom = 0;
                for (int i = 0; i < cs->ndeck_bottom; i++)
                    bottom |= cs->deck_bottom[i] == c;
                if (!bottom)
                    pool[n++] = (uint16_t)c;
            }
        for (int i = n - 1; i > 0; i--) {
            int j = (int)foh_rng_below(rng, (uint32_t)i + 1);
            uint16_t t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
        }
        for (int i = 0; i < n; i++)
            FOH_DECK(st)[st->ndeck++] = pool[i];
    }
    for (int i = 0; i < st->ndeck; i++)
        st->loc[FOH_DECK(st)[i]].zone = FOH_ZONE_DECK;
    memcpy(FOH_DECK(st) + st->ndeck, top, (size_t)ntop * sizeof top[0]);
    st->ndeck = (uint16_t)(st->ndeck + ntop);
    return FOH_OK;
}

foh_status foh_position_set_fired(foh_game *g, int card, int fired, foh_error *err)
{
    if (card < 0 || card >= g->eng->cs->ncards)
        return foh_error_set(err, FOH_ERR_USAGE, "no card %d", card);
    g->st.loc[card].fired = fired != 0;
    return FOH_OK;
}

foh_status foh_position_set_current(foh_game *g, int player, foh_error *err)
{
    if (player < 0 || player >= g->st.players)
        return foh_error_set(err, FOH_ERR_USAGE, "no player %d", player + 1);
    g->st.current = (uint8_t)player;
    return FOH_OK;
}

/* FNV-1a over explicit fields (never over padding). */
static void mix(uint64_t *h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        *h ^= (v >> (8 * i)) & 0xff;
        *h *= 0x100000001b3ULL;
    }
}

/* Digests are those of the engine of 6 players at most, whose investor
 * numbers were these: a player's, neutral marker k's 6 + k (then
 * FOH_NEUTRAL_INVESTOR), none's 0xff; a player of a game of more is
 * 0x10 + their number, apart from all. */
#define DIGEST_PLAYERS 6
static uint64_t digest_investor(int investor)
{
    if (investor < 0)
        return 0xff;
    if (investor >= FOH_NEUTRAL_INVESTOR)
        return (uint64_t)(DIGEST_PLAYERS + investor - FOH_NEUTRAL_INVESTOR);
    return (uint64_t)(investor < DIGEST_PLAYERS ? investor : 0x10 + investor);
}

static void mix_state(uint64_t *h, const foh_state *st, int ncards)
{
    mix(h, st->players);
    mix(h, st->current);
    mix(h, st->first_player);
    mix(h, st->over);
    mix(h, st->ending);
    mix(h, st->stalled);
    mix(h, st->turn);
    mix(h, st->next_seq);
    for (int p = 0; p < DIGEST_PLAYERS || p < st->players; p++) {
        mix(h, (uint64_t)st->tokens[p]);
        mix(h, (uint64_t)st->investment[p]);
    }
    for (int k = 0; k < FOH_MAX_NEUTRAL; k++)
        mix(h, (uint64_t)st->neutral[k]);
    mix(h, st->bonus_mask);
    mix(h, st->in_bonus);
    if (st->market_delta) /* mixed only when a script changed it: other positions keep their digests */
        mix(h, (uint64_t)(256 + st->market_delta));
    mix(h, (uint64_t)st->supply);
    mix(h, (uint64_t)st->reserve);
    mix(h, (uint64_t)st->substituted);
    mix(h, st->ndeck);
    for (int i = 0; i < st->ndeck; i++)
        mix(h, FOH_DECK(st)[i]);
    mix(h, st->nmarket);
    for (int i = 0; i < st->nmarket; i++)
        mix(h, st->market[i]);
    for (int c = 0; c < ncards; c++) {
        const foh_card_loc *l = &st->loc[c];
        mix(h, l->zone | (uint64_t)l->owner << 8 | (uint64_t)l->fired << 16 | digest_investor(l->investor) << 24 |
                    (uint64_t)(uint32_t)l->invested << 32);
        mix(h, l->seq);
    }
    for (int i = 0; i < 4; i++)
        mix(h, st->rng[i]);
}

uint64_t flow_game_digest(const foh_game *g)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    int n = g->eng->cs->ncards;
    mix_state(&h, &g->st, n);
    mix(&h, g->pending);
    if (g->pending) {
        mix_state(&h, &g->base, n);
        mix(&h, (uint64_t)g->action.kind);
        mix(&h, (uint64_t)g->action.card);
        mix(&h, (uint64_t)g->action.tokens);
        mix(&h, g->nanswers);
        for (int i = 0; i < g->nanswers; i++)
            mix(&h, g->answers[i]);
        if (g->random_fork_on) { /* a bot's sample of the chance after the pause (determinize.c) */
            mix(&h, g->random_fork_at);
            for (int i = 0; i < 4; i++)
                mix(&h, g->random_fork[i]);
        }
    }
    return h;
}

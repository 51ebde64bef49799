/* ruleset: The Flow of History's method table (foh/ruleset.h), through
 * which the platform plays it: the one file that joins the rules (rules/)
 * and their Lua binding (lua/), which implements the rules' port to card
 * effects (rules/effects.h). The methods are the rules' own functions
 * (rules/flow.h); the few written here adapt a rule-specific answer to the
 * interface's shape: per-player results from the final scoring (rulebook
 * "End of Game"), the bots' evaluation (bot_eval.c), which Invest amounts a
 * look-ahead bot weighs, and what a seat sees. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bot_eval.h"
#include "internal.h"
#include "lua_bridge.h"

/* Per-player results: 1 for the sole winner, 1/k for each of k players who
 * share the win after the tie-breaks (cards, then tokens). */
static foh_status flow_results(foh_game *g, double *out, foh_error *err)
{
    int n = flow_game_players(g);
    foh_score *sc = calloc((size_t)n, sizeof *sc);
    if (!sc)
        return foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
    foh_status s = foh_game_score(g, sc, NULL, err);
    if (s == FOH_OK) {
        int winners = 0;
        for (int p = 0; p < n; p++)
            winners += sc[p].winner != 0;
        for (int p = 0; p < n; p++)
            out[p] = sc[p].winner && winners ? 1.0 / winners : 0.0;
    }
    free(sc);
    return s;
}

static int line(foh_score_line *out, int max, int n, const char *label, double value)
{
    if (n < max) {
        snprintf(out[n].label, sizeof out[n].label, "%s", label);
        out[n].value = value;
    }
    return n + 1;
}

/* VP (rulebook "End of Game": icons worth full VP, the other icons
 * halved, End Game effects), then the tie-breaks: cards, then tokens. */
static int flow_score_lines(foh_game *g, int player, foh_score_line *out, int max, foh_error *err)
{
    foh_score *sc = malloc(sizeof *sc);
    if (!sc) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return -1;
    }
    int n = -1;
    if (foh_game_score_player(g, player, sc, err) == FOH_OK) {
        int end = 0;
        for (int i = 0; i < sc->n_end; i++)
            end += sc->end[i].full_vp;
        n = line(out, max, 0, "VP", sc->total);
        n = line(out, max, n, "VP from icons worth full VP", sc->culture_vp);
        n = line(out, max, n, "VP from the other icons", sc->other_vp);
        n = line(out, max, n, "VP from End Game effects", end);
        n = line(out, max, n, "cards in the Nation", sc->cards);
        n = line(out, max, n, "resource tokens", sc->tokens);
    }
    free(sc);
    return n < max ? n : max;
}

/* The best Market card's value for PLAYER (foh_eval_alternative), which
 * the position's value weighs a held investment against; none at game
 * over. */
static foh_status flow_eval_begin(foh_game *g, int player, foh_game *scratch, double *context, foh_error *err)
{
    *context = 0;
    if (flow_game_is_over(g))
        return FOH_OK;
    return foh_eval_alternative(g, player, scratch, context, err);
}

static foh_status flow_evaluate(foh_game *g, int player, double context, foh_game *scratch, double *value,
                                foh_error *err)
{
    foh_eval e;
    foh_status s = foh_eval_position(g, player, context, scratch, &e, err);
    if (s == FOH_OK)
        *value = e.total;
    return s;
}

/* Invest amounts worth trying: small bids, and all in. */
static int flow_worth_weighing(const foh_game *g, const foh_action *a)
{
    if (a->kind != FOH_ACT_INVEST)
        return 1;
    int have = foh_game_tokens(g, flow_game_to_act(g));
    return a->tokens <= 4 || a->tokens == 6 || a->tokens == 8 || a->tokens == have;
}

extern const foh_ruleset foh_ruleset_flow; /* the method table below, which the registry lists */

/* Appends to a text being built (snprintf's rules: *AT counts what the
 * whole text needs, BUF holds what fits). */
static void put(char *buf, size_t len, int *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, int *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t used = (size_t)*at < len ? (size_t)*at : len;
    int n = vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at += n;
}

static const char *card_name(const foh_game *g, int card)
{
    foh_card_info info;
    return foh_cardset_card(foh_game_cardset(g), card, &info) == FOH_OK ? info.name : "?";
}

/* Everything of The Flow of History is public but the deck's order (rulebook
 * "Components"): the Current Age, the Market with its investments, the
 * Supply and Reserve, and each Nation's cards and tokens. */
static int flow_observe(const foh_game *g, int player, char *buf, size_t len)
{
    int at = 0, n = flow_game_players(g);
    if (len > 0)
        buf[0] = '\0';
    put(buf, len, &at, "you: P%d\nturn: %d\nto act: P%d\ndeck: %d cards\nsupply: %d\nreserve: %d\n", player + 1,
        flow_game_turn(g) + 1, flow_game_to_act(g) + 1, foh_game_deck_size(g), foh_game_supply(g),
        foh_game_reserve(g));
    put(buf, len, &at, "market:");
    for (int i = 0; i < foh_game_market_size(g); i++) {
        int c = foh_game_market_card(g, i), who = foh_game_investor(g, c);
        put(buf, len, &at, "%s %s", i ? "," : "", card_name(g, c));
        if (who >= 0 && who < n)
            put(buf, len, &at, " (P%d, %d tokens)", who + 1, foh_game_invested_tokens(g, c));
    }
    put(buf, len, &at, "\n");
    int cards[FOH_MAX_CARDS];
    for (int p = 0; p < n; p++) {
        put(buf, len, &at, "P%d: %d tokens; nation:", p + 1, foh_game_tokens(g, p));
        for (int t = 0, any = 0; t < foh_cardset_type_count(foh_game_cardset(g)); t++) {
            int k = foh_game_nation_cards(g, p, t, cards, FOH_MAX_CARDS);
            for (int i = 0; i < k; i++, any = 1)
                put(buf, len, &at, "%s %s", any ? "," : "", card_name(g, cards[i]));
        }
        put(buf, len, &at, "\n");
    }
    return at;
}

/* The card set, its scripts checked by the Lua binding; it is this
 * ruleset's (its engines and games copy the head). */
static foh_cardset *flow_load(const foh_load_request *r, foh_error *err)
{
    foh_cardset *cs = flow_cardset_check(r->dirs, r->ndirs, r->variants, r->nvariants, r->search, r->nsearch,
                                         r->report, r->report_ctx, &flow_lua_effects, err);
    if (cs)
        cs->head.ruleset = &foh_ruleset_flow;
    return cs;
}

static void flow_determinize_for(foh_game *g, int viewer, uint64_t seed)
{
    (void)viewer; /* the deck's order is hidden from every player alike */
    flow_game_determinize(g, seed);
}

const foh_ruleset foh_ruleset_flow = {
    .version = FOH_RULESET_VERSION,
    .name = FLOW_RULESET_NAME,
    .title = "The Flow of History",
    .max_players = FOH_MAX_PLAYERS,
    .cardset_load = flow_load,
    .cardset_free = flow_cardset_free,
    .engine_new = flow_engine_new_limited,
    .engine_free = flow_engine_free,
    .game_new = flow_game_new,
    .game_clone = flow_game_clone,
    .game_copy = flow_game_copy,
    .game_free = flow_game_free,
    .players = flow_game_players,
    .to_act = flow_game_to_act,
    .is_over = flow_game_is_over,
    .turn = flow_game_turn,
    .turn_limit = flow_game_turn_limit,
    .decisions_per_turn = 2 * (FOH_MAX_ANSWERS + 1), /* an action and a granted bonus action, each with its answers */
    .mid_turn = flow_game_in_bonus,
    .legal_actions = flow_game_legal_actions,
    .legal_grouped = flow_game_legal_grouped,
    .amount_kind = FOH_ACT_INVEST,
    .check = flow_game_check,
    .apply = flow_game_apply,
    .choice = flow_game_choice,
    .describe_action = flow_game_describe_action,
    .results = flow_results,
    .score_lines = flow_score_lines,
    .determinize = flow_determinize_for,
    .observe = flow_observe,
    .set_log = flow_game_set_log,
    .digest = flow_game_digest,
    .eval_begin = flow_eval_begin,
    .evaluate = flow_evaluate,
    .worth_weighing = flow_worth_weighing,
    .evaluation = "VP and tokens, minus the best opponent",
    .value_scale = 6, /* a VP difference worth a 73% reward to ISMCTS */
};

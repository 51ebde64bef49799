/* ruleset: The Flow of History's method table (foh/ruleset.h), through
 * which the platform plays it. The methods are the ruleset's own functions
 * (flow.h); the few written here adapt a rule-specific answer to the
 * interface's shape: per-player results from the final scoring (rulebook
 * "End of Game"), the bots' evaluation (bot_eval.c) and which Invest
 * amounts a look-ahead bot weighs. */
#include <stdlib.h>

#include "bot_eval.h"
#include "internal.h"

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

static foh_cardset *flow_load(const foh_load_request *r, foh_error *err)
{
    return flow_cardset_check(r->dirs, r->ndirs, r->variants, r->nvariants, r->search, r->nsearch, r->report,
                              r->report_ctx, err);
}

static void flow_determinize_for(foh_game *g, int viewer, uint64_t seed)
{
    (void)viewer; /* the deck's order is hidden from every player alike */
    flow_game_determinize(g, seed);
}

const foh_ruleset foh_ruleset_flow = {
    .version = FOH_RULESET_VERSION,
    .name = "flow-of-history",
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
    .decisions_per_turn = 2 * (FOH_MAX_ANSWERS + 1), /* an action and a granted bonus action */
    .mid_turn = flow_game_in_bonus,
    .legal_actions = flow_game_legal_actions,
    .legal_grouped = flow_game_legal_grouped,
    .amount_kind = FOH_ACT_INVEST,
    .check = flow_game_check,
    .apply = flow_game_apply,
    .choice = flow_game_choice,
    .describe_action = flow_game_describe_action,
    .results = flow_results,
    .determinize = flow_determinize_for,
    .set_log = flow_game_set_log,
    .digest = flow_game_digest,
    .eval_begin = flow_eval_begin,
    .evaluate = flow_evaluate,
    .worth_weighing = flow_worth_weighing,
    .evaluation = "VP and tokens, minus the best opponent",
    .value_scale = 6, /* a VP difference worth a 73% reward to ISMCTS */
};

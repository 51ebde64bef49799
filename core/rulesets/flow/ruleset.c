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
#include <string.h>

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
    int n = vsnprintf(used < len ? buf + used : NULL, used < len ? len - used : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at += n;
}

static const char *card_name(const foh_game *g, int card)
{
    foh_card_info info;
    return foh_cardset_card(foh_game_cardset(g), card, &info) == FOH_OK ? info.name : "?";
}

/* An icon as observe's text shows it: its symbol and name ("⚔ Military"). */
static const char *flow_icon_label(const foh_cardset *cs, int icon)
{
    const char *sym = foh_cardset_icon_symbol(cs, icon);
    return sym && *sym ? sym : foh_cardset_icon_name(cs, icon);
}

/* "Current Age: II" and the deck's cards by age ("deck by age: II 3, III
 * 12"): the age names are the cards' own (rulebook "Current Age"). */
static void flow_age_lines(const foh_game *g, char *buf, size_t len, int *at)
{
    const foh_cardset *cs = foh_game_cardset(g);
    int ncards = foh_cardset_card_count(cs), age = foh_game_current_age(g);
    const char *names[8] = {0};
    int counts[8] = {0};
    foh_card_info info;
    for (int c = 0; c < ncards; c++)
        if (foh_cardset_card(cs, c, &info) == FOH_OK && info.age_value >= 0 && info.age_value < 8 &&
            !names[info.age_value])
            names[info.age_value] = info.age;
    put(buf, len, at, "Current Age: %s\n", age >= 0 && age < 8 && names[age] ? names[age] : "?");
    for (int i = 0; i < foh_game_deck_size(g); i++)
        if (foh_cardset_card(cs, foh_game_deck_card(g, i), &info) == FOH_OK && info.age_value >= 0 &&
            info.age_value < 8)
            counts[info.age_value]++;
    put(buf, len, at, "deck by age:");
    int any = 0;
    for (int a = 0; a < 8; a++)
        if (counts[a])
            put(buf, len, at, "%s %s %d", any++ ? "," : "", names[a] ? names[a] : "?", counts[a]);
    put(buf, len, at, any ? "\n" : " empty\n");
}

/* Everything of The Flow of History is public but the deck's order (rulebook
 * "Components"): the Current Age, the Market with its investments, the
 * Supply and Reserve, and each Nation's stacks, icons, strengths, tokens and
 * VP. PLAYER -1 is a spectator (the same view: nothing is private). The
 * first lines keep their old form; the rest follows them. */
static int flow_observe(const foh_game *g, int player, char *buf, size_t len)
{
    int at = 0, n = flow_game_players(g);
    const foh_cardset *cs = foh_game_cardset(g);
    if (len > 0)
        buf[0] = '\0';
    if (player >= 0)
        put(buf, len, &at, "you: P%d\n", player + 1);
    else
        put(buf, len, &at, "you: spectator\n");
    put(buf, len, &at, "turn: %d\n", flow_game_turn(g) + 1);
    if (flow_game_to_act(g) >= 0)
        put(buf, len, &at, "to act: P%d\n", flow_game_to_act(g) + 1);
    else
        put(buf, len, &at, "to act: nobody, the game is over\n");
    put(buf, len, &at, "deck: %d cards\nsupply: %d\nreserve: %d\n", foh_game_deck_size(g), foh_game_supply(g),
        foh_game_reserve(g));
    put(buf, len, &at, "market:");
    for (int i = 0; i < foh_game_market_size(g); i++) {
        int c = foh_game_market_card(g, i), who = foh_game_investor(g, c);
        put(buf, len, &at, "%s %s", i ? "," : "", card_name(g, c));
        if (who >= 0 && who < n)
            put(buf, len, &at, " (P%d, %d tokens)", who + 1, foh_game_invested_tokens(g, c));
        else if (who >= n)
            put(buf, len, &at, " (the Banker, %d tokens)", foh_game_invested_tokens(g, c));
    }
    put(buf, len, &at, "\n");
    int cards[FOH_MAX_CARDS];
    for (int p = 0; p < n; p++) {
        put(buf, len, &at, "P%d: %d tokens; nation:", p + 1, foh_game_tokens(g, p));
        for (int t = 0, any = 0; t < foh_cardset_type_count(cs); t++) {
            int k = foh_game_nation_cards(g, p, t, cards, FOH_MAX_CARDS);
            for (int i = 0; i < k; i++, any = 1)
                put(buf, len, &at, "%s %s", any ? "," : "", card_name(g, cards[i]));
        }
        put(buf, len, &at, "\n");
    }
    /* The rest of the table at a glance. Counting icons may run Permanent
     * effects, so a copy of the game counts them. */
    flow_age_lines(g, buf, len, &at);
    foh_game *c = foh_game_clone(g);
    for (int p = 0; c && p < n; p++) {
        put(buf, len, &at, "P%d stacks:", p + 1);
        for (int t = 0, any = 0; t < foh_cardset_type_count(cs); t++) {
            int k = foh_game_nation_cards(g, p, t, cards, FOH_MAX_CARDS);
            if (!k)
                continue;
            put(buf, len, &at, "%s %s: %s", any++ ? ";" : "", foh_cardset_type_name(cs, t), card_name(g, cards[k - 1]));
            if (k > 1)
                put(buf, len, &at, " (covers %d)", k - 1);
        }
        int icons[FOH_MAX_ICONS] = {0}, attack = 0, defence = 0;
        foh_score sc;
        foh_error err;
        put(buf, len, &at, "\nP%d icons:", p + 1);
        if (foh_game_icon_counts(c, p, icons, &err) == FOH_OK)
            for (int i = 0; i < foh_cardset_icon_count(cs); i++)
                if (icons[i])
                    put(buf, len, &at, " %s %d", flow_icon_label(cs, i), icons[i]);
        if (foh_game_strengths(c, p, &attack, &defence, &err) == FOH_OK)
            put(buf, len, &at, "; attack %d, defence %d", attack, defence);
        if (foh_game_score_player(c, p, &sc, &err) == FOH_OK)
            put(buf, len, &at, "; %d VP", sc.total);
        put(buf, len, &at, "\n");
    }
    foh_game_free(c);
    return at;
}

/* A card for a player (foh serve's card text on hover): "Warriors: Military,
 * Age A. Stripe: ⚔ Military 1 (reconstructed). <the card's text>". */
static int flow_describe_card(const foh_cardset *cs, int card, char *name, size_t namelen, char *text,
                               size_t textlen)
{
    foh_card_info info;
    int at = 0;
    if (textlen)
        text[0] = '\0';
    if (namelen)
        name[0] = '\0';
    if (card < 0 || card >= foh_cardset_card_count(cs) || foh_cardset_card(cs, card, &info) != FOH_OK)
        return 0;
    snprintf(name, namelen, "%s", info.name);
    put(text, textlen, &at, "%s, Age %s. Stripe:", info.type, info.age);
    int any = 0;
    for (int i = 0; i < foh_cardset_icon_count(cs); i++)
        for (int k = 0; k < info.stripe[i]; k++, any = 1)
            put(text, textlen, &at, " %s", flow_icon_label(cs, i));
    if (!any)
        put(text, textlen, &at, " none");
    /* The card table marks stripes read off no printed card (issue 32). */
    if (info.stripe_source && strstr(info.stripe_source, "reconstructed"))
        put(text, textlen, &at, " (reconstructed, not printed)");
    put(text, textlen, &at, ". %s", info.text ? info.text : "");
    return 1;
}

/* The icons' symbols and the words of flow_observe's lines. */
static int flow_legend(const foh_cardset *cs, char *buf, size_t len)
{
    int at = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < foh_cardset_icon_count(cs); i++)
        put(buf, len, &at, "%s: %s icon\n", flow_icon_label(cs, i), foh_cardset_icon_name(cs, i));
    put(buf, len, &at, "attack, defence: military strength (rulebook \"Attack Effects\")\n"
                       "covers N: the top card of a stack lies on N others, whose effects are off\n"
                       "(P1, 3 tokens): P1 invested 3 tokens in the Market card\n"
                       "VP: victory points if the game ended now\n");
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
    .describe_card = flow_describe_card,
    .legend = flow_legend,
};

/* ruleset: the civilization card game draft's method table (foh/ruleset.h),
 * joining its rules (rules/) and their Lua binding (lua/, which implements
 * the rules' port to card effects). The registry lists it as "civ-draft". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "civ.h"
#include "civ_lua.h"

extern const foh_ruleset foh_ruleset_civ; /* below: the registry lists it */

static foh_cardset *load(const foh_load_request *req, foh_error *err)
{
    civ_set *cs = civ_set_load(req, err);
    if (!cs)
        return NULL;
    cs->head.ruleset = &foh_ruleset_civ;
    civ_engine *e = civ_lua_engine_new(cs, NULL, err); /* the scripts compile, or the set is refused */
    if (!e) {
        if (req->report)
            req->report(req->report_ctx, 0, err);
        civ_set_free(cs);
        return NULL;
    }
    civ_lua_engine_free(e);
    return (foh_cardset *)cs;
}

static void set_free(foh_cardset *cs) { civ_set_free((civ_set *)cs); }

static foh_engine *engine_new(const foh_cardset *cs, const foh_script_limits *limits, foh_error *err)
{
    return (foh_engine *)civ_lua_engine_new((const civ_set *)cs, limits, err);
}

static void engine_free(foh_engine *e) { civ_lua_engine_free((civ_engine *)e); }

static foh_game *game_new(foh_engine *eng, const foh_options *opt, foh_error *err)
{
    return (foh_game *)civ_game_new((const civ_engine *)eng, opt, err);
}

static foh_game *game_clone(const foh_game *g)
{
    civ_game *c = malloc(sizeof *c);
    if (c) {
        memcpy(c, g, sizeof *c);
        c->log = NULL;
        c->log_ud = NULL;
    }
    return (foh_game *)c;
}

static void game_copy(foh_game *dst, const foh_game *src)
{
    civ_game *d = (civ_game *)dst;
    foh_log_fn log = d->log;
    void *ud = d->log_ud;
    memcpy(d, src, sizeof *d);
    d->log = log;
    d->log_ud = ud;
}

static void game_free(foh_game *g) { free(g); }

#define G ((const civ_game *)g)
static int players(const foh_game *g) { return G->players; }
static int to_act(const foh_game *g)
{
    return G->phase == CIV_PHASE_CONFLICT ? (G->side == 0 ? G->attacker : G->defender) : G->current;
}
static int is_over(const foh_game *g) { return G->over; }
static int turn(const foh_game *g) { return G->turn; }
/* Every turn draws a card (base_draws is at least 1) until an age's deck
 * runs out, so a game lasts at most one turn per card, plus the ages. */
static int turn_limit(const foh_game *g) { return G->set->ncards + 2 * CIV_AGES + 1; }
/* Past the turn's first action (its first log line is written then). */
static int mid_turn(const foh_game *g) { return G->announced; }
static const foh_choice *choice(const foh_game *g) { return (void)g, NULL; }

static int legal(foh_game *g, foh_action *out, int max, foh_error *err)
{
    (void)err;
    return civ_legal((civ_game *)g, out, max);
}

static foh_status check(foh_game *g, const foh_action *a, foh_error *err)
{
    if (G->over)
        return foh_error_set(err, FOH_ERR_ILLEGAL, "the game is over");
    if (civ_is_legal((civ_game *)g, a))
        return FOH_OK;
    char what[200];
    civ_describe(G, a, what, sizeof what);
    return foh_error_set(err, FOH_ERR_ILLEGAL, "P%d cannot %s now", to_act(g) + 1, what);
}

static foh_status apply(foh_game *g, const foh_action *a, foh_error *err) { return civ_apply((civ_game *)g, a, err); }

static void describe(const foh_game *g, const foh_action *a, char *buf, size_t len) { civ_describe(G, a, buf, len); }

static foh_status results(foh_game *g, double *out, foh_error *err)
{
    (void)err;
    civ_results(G, out);
    return FOH_OK;
}

static int score_lines(foh_game *g, int player, foh_score_line *out, int max, foh_error *err)
{
    (void)err;
    return civ_score_lines(G, player, out, max);
}

static void determinize(foh_game *g, int viewer, uint64_t seed) { civ_determinize((civ_game *)g, viewer, seed); }
static int observe(const foh_game *g, int player, char *buf, size_t len) { return civ_observe(G, player, buf, len); }

static void set_log(foh_game *g, foh_log_fn fn, void *ud)
{
    ((civ_game *)g)->log = fn;
    ((civ_game *)g)->log_ud = ud;
}

static uint64_t digest(const foh_game *g) { return civ_digest(G); }

static int describe_card(const foh_cardset *cs, int card, char *name, size_t namelen, char *text, size_t textlen)
{
    return civ_describe_card((const civ_set *)cs, card, name, namelen, text, textlen);
}
static int legend(const foh_cardset *cs, char *buf, size_t len)
{
    (void)cs;
    return civ_legend(buf, len);
}

static foh_status eval_begin(foh_game *g, int player, foh_game *scratch, double *context, foh_error *err)
{
    (void)g, (void)player, (void)scratch, (void)err;
    *context = 0;
    return FOH_OK;
}

static foh_status evaluate(foh_game *g, int player, double context, foh_game *scratch, double *value, foh_error *err)
{
    (void)context, (void)scratch, (void)err;
    *value = civ_evaluate(G, player);
    return FOH_OK;
}

static foh_status scenario_setup(foh_game *g, const struct foh_yaml_node *setup, foh_error *err)
{
    return civ_scenario_setup((civ_game *)g, setup, err);
}

static int card_count(const foh_cardset *cs) { return ((const civ_set *)cs)->ncards; }
static const char *card_id(const foh_cardset *cs, int c) { return ((const civ_set *)cs)->card[c].id; }
static int exercised(const foh_game *g, int c) { return G->used[c >> 3] >> (c & 7) & 1; }

/* A card played or added to a conflict (not one drawn, discarded or used to peek). */
static int played_card(const foh_game *g, const foh_action *a)
{
    (void)g;
    return a->kind == CIV_PLAY || a->kind == CIV_REINFORCE ? a->card : -1;
}

static const char *card_kind(const foh_cardset *cs, int c)
{
    return civ_type_names[((const civ_set *)cs)->card[c].type];
}

static void tunable(foh_tunable *out, int max, int *n, int value, int lo, int hi, const char *fmt, const char *a)
{
    if (*n < max) {
        snprintf(out[*n].path, sizeof out[*n].path, fmt, a);
        out[*n].value = value;
        out[*n].lo = lo;
        out[*n].hi = hi;
    }
    (*n)++;
}

/* What a designer of the draft balances: each Conflict's Prestige Value and
 * Military Bonus, the X of each age, the attributes' thresholds, the
 * starting VT, the Boon's VT and the hand limit. */
static int tunables(const foh_cardset *fcs, foh_tunable *out, int max)
{
    const civ_set *cs = (const civ_set *)fcs;
    const civ_rules *r = &cs->rules;
    int n = 0;
    char age[4];
    for (int a = 0; a < CIV_AGES; a++) {
        snprintf(age, sizeof age, "%d", a + 1);
        tunable(out, max, &n, r->age_x[a], 0, 3 * r->age_x[a] + 3, "rules.age_x.%s", age);
    }
    tunable(out, max, &n, r->starting_vt, 0, 3 * r->starting_vt + 10, "rules.%s", "starting_vt");
    tunable(out, max, &n, r->vitality_per_draw, 1, 2 * r->vitality_per_draw + 2, "rules.%s", "vitality_per_draw");
    tunable(out, max, &n, r->resources_per_play, 1, 2 * r->resources_per_play + 2, "rules.%s", "resources_per_play");
    tunable(out, max, &n, r->stability_per_hand, 1, 2 * r->stability_per_hand + 2, "rules.%s", "stability_per_hand");
    tunable(out, max, &n, r->base_hand, 1, 2 * r->base_hand + 2, "rules.%s", "base_hand");
    tunable(out, max, &n, r->boon_vt, 0, 3 * r->boon_vt + 3, "rules.%s", "boon_vt");
    char path[CIV_NAME + 16];
    for (int c = 0; c < cs->ncards; c++)
        if (cs->card[c].type == CIV_CONFLICT) {
            snprintf(path, sizeof path, "cards.%s.", cs->card[c].id);
            tunable(out, max, &n, cs->card[c].prestige, 0, 2 * cs->card[c].prestige + 5, "%sprestige", path);
            tunable(out, max, &n, cs->card[c].bonus, 0, 2 * cs->card[c].bonus + 5, "%sbonus", path);
        }
    return n;
}

static const char *source(const foh_cardset *fcs, int i, uint64_t *hash)
{
    const civ_set *cs = (const civ_set *)fcs;
    if (i < 0 || i >= cs->nsources)
        return NULL;
    *hash = cs->source_hash[i];
    return cs->source_path[i];
}

static foh_status rebind(foh_game *g, foh_engine *eng, foh_error *err)
{
    return civ_rebind((civ_game *)g, (const civ_engine *)eng, err);
}

const foh_ruleset foh_ruleset_civ = {
    .version = FOH_RULESET_VERSION,
    .name = "civ-draft",
    .title = "The civilization card game draft",
    .max_players = FOH_MAX_PLAYERS,
    .cardset_load = load,
    .cardset_free = set_free,
    .engine_new = engine_new,
    .engine_free = engine_free,
    .game_new = game_new,
    .game_clone = game_clone,
    .game_copy = game_copy,
    .game_free = game_free,
    .players = players,
    .to_act = to_act,
    .is_over = is_over,
    .turn = turn,
    .turn_limit = turn_limit,
    /* Draws, plays, peeks, reinforcements and discards each take a card:
     * no turn holds more decisions than cards, plus the End and holds. */
    .decisions_per_turn = 3L * CIV_MAX_CARDS + 16,
    .mid_turn = mid_turn,
    .legal_actions = legal,
    .amount_kind = -1,
    .check = check,
    .apply = apply,
    .choice = choice,
    .describe_action = describe,
    .results = results,
    .score_lines = score_lines,
    .determinize = determinize,
    .observe = observe,
    .describe_card = describe_card,
    .legend = legend,
    .set_log = set_log,
    .digest = digest,
    .eval_begin = eval_begin,
    .evaluate = evaluate,
    .evaluation = "Victory Tokens and what the position promises (Culture still to pay, attributes, hand, "
                  "Victory cards held, a conflict's stake), minus the best opponent's",
    .value_scale = 6,
    .scenario_setup = scenario_setup,
    .card_count = card_count,
    .card_id = card_id,
    .exercised = exercised,
    .played_card = played_card,
    .card_kind = card_kind,
    .tunables = tunables,
    .source = source,
    .rebind = rebind,
};

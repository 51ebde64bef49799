/* bot_greedy: tries each sensible action on a determinized copy of the
 * game, answers its own follow-up choices the same way, and keeps the one
 * whose position bot_eval values most (see foh/bot.h). */
#include <stdio.h>
#include <stdlib.h>

#include "bot_explain.h"
#include "foh/bot.h"
#include "foh/ruleset.h"
#include "rng.h"

/* Games a decision works on, made at the first decision and overwritten
 * (foh_game_copy) after: the determinized position, one per look-ahead
 * depth, and the evaluation's. */
enum { SCRATCH_DET, SCRATCH_DEPTH0, SCRATCH_DEPTH1, SCRATCH_EVAL, NSCRATCH };

typedef struct {
    foh_player base;
    uint64_t seed;
    foh_weighed weighed; /* the last decision's actions and values */
    int chosen;
    foh_game *scratch[NSCRATCH];
} greedy_bot;

/* What a greedy decision evaluates with. */
typedef struct {
    int player;
    double alternative; /* the ruleset's context of the decision (foh_game_eval_begin) */
    foh_game **scratch; /* the bot's */
} context;

static foh_status value_after(foh_game *g, const foh_action *a, const context *cx, int depth, double *v,
                              foh_error *err);

/* The error of trying action A of G in a look-ahead: what was tried, then
 * the engine's message (the card, its file and line). */
static foh_status tried(foh_game *g, const foh_action *a, foh_status s, foh_error *err)
{
    if (err && s != FOH_ERR_MEMORY) {
        char what[128], msg[sizeof err->msg];
        foh_game_describe_action(g, a, what, sizeof what);
        snprintf(msg, sizeof msg, "%s", err->msg);
        foh_error_set(err, s, "greedy bot looking ahead at '%s': %s", what, msg);
    }
    return s;
}

/* The rank of option I of choice CH among options of equal value: a player
 * ("P3", the engine's label for one) by seat from the chooser's left, the
 * next player clockwise first, so that ties (an attack that hurts any
 * target alike) do not always fall on the lowest-numbered seat; any other
 * option by its index. */
static int tie_rank(const foh_game *g, const foh_choice *ch, int i)
{
    int n = foh_game_players(g), seat;
    char end;
    if (sscanf(ch->label[i], "P%d%c", &seat, &end) == 1 && seat >= 1 && seat <= n)
        return (seat - 1 - ch->player + n) % n;
    return i;
}

/* Answer the pending choices of PLAYER greedily (others: first option), at
 * most 8 in a row: deeper, the position is valued as it stands. */
static foh_status resolve(foh_game *g, const context *cx, int depth, foh_error *err)
{
    int player = cx->player;
    for (int guard = 0; guard < 8 && foh_game_choice(g) && !foh_game_is_over(g); guard++) {
        const foh_choice *ch = foh_game_choice(g);
        int best = 0, rank = 0;
        if (ch->player == player && depth > 0) {
            double top = -1e18;
            for (int i = 0; i < ch->n; i++) {
                foh_action a = {.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = i};
                double v;
                foh_status s = value_after(g, &a, cx, depth - 1, &v, err);
                if (s != FOH_OK)
                    return s;
                if (v > top + 1e-9 || (v > top - 1e-9 && tie_rank(g, ch, i) < rank)) {
                    top = v;
                    best = i;
                    rank = tie_rank(g, ch, i);
                }
            }
        }
        foh_action a = {.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = best};
        foh_status s = foh_game_apply(g, &a, err);
        if (s != FOH_OK)
            return tried(g, &a, s, err);
    }
    return FOH_OK;
}

/* Value *V for the player of applying legal action A to a copy of G. */
static foh_status value_after(foh_game *g, const foh_action *a, const context *cx, int depth, double *v,
                              foh_error *err)
{
    foh_game *c = cx->scratch[SCRATCH_DEPTH0 + depth]; /* depth 1 looks at depth 0 inside */
    foh_game_copy(c, g);
    foh_status s = foh_game_apply(c, a, err);
    if (s != FOH_OK)
        s = tried(g, a, s, err);
    else if ((s = resolve(c, cx, depth, err)) == FOH_OK)
        s = foh_game_evaluate(c, cx->player, cx->alternative, cx->scratch[SCRATCH_EVAL], v, err);
    return s;
}

static int greedy_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                         foh_error *err)
{
    greedy_bot *b = (greedy_bot *)self;
    int p = foh_game_to_act(g);
    for (int k = 0; k < NSCRATCH; k++)
        if (!b->scratch[k] && !(b->scratch[k] = foh_game_clone(g))) {
            foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
            return -1;
        }
    foh_game *det = b->scratch[SCRATCH_DET];
    foh_game_copy(det, g);
    /* The sample of the hidden deck depends on the seed and public facts of
     * the position only: the bot decides the same at the same position,
     * whatever it decided before (a resumed game plays on as without the
     * stop). */
    const foh_choice *ch = foh_game_choice(g);
    uint64_t where = ((uint64_t)foh_game_turn(g) << 20) ^ ((uint64_t)p << 12) ^ ((uint64_t)n << 2) ^
                     (uint64_t)(ch ? 1 + ch->n : 0) << 40;
    foh_game_determinize(det, p, foh_rng_mix(b->seed, where));
    context cx = {.player = p, .alternative = 0, .scratch = b->scratch};
    if (foh_game_eval_begin(det, p, b->scratch[SCRATCH_EVAL], &cx.alternative, err) != FOH_OK)
        return -1;
    int pick = 0, rank = 0;
    double best = -1e18;
    foh_weighed_clear(&b->weighed);
    for (int i = 0; i < n; i++) {
        if (!foh_game_worth_weighing(g, &legal[i]))
            continue;
        double v;
        if (value_after(det, &legal[i], &cx, 1, &v, err) != FOH_OK)
            return -1;
        if (!foh_weighed_add(&b->weighed, i, v, 0)) {
            foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
            return -1;
        }
        int r = ch && legal[i].kind == FOH_ACT_CHOOSE ? tie_rank(g, ch, legal[i].option) : i;
        if (v > best + 1e-9 || (v > best - 1e-9 && r < rank)) {
            best = v;
            pick = i;
            rank = r;
        }
    }
    if (why) {
        char what[128];
        foh_game_describe_action(g, &legal[pick], what, sizeof what);
        snprintf(why, whylen, "%s: the best position value for me, %.1f (%s)", what, best,
                 foh_game_ruleset(g)->evaluation);
    }
    b->chosen = pick;
    return pick;
}

static int greedy_explain(foh_player *self, foh_alternative *out, int max)
{
    greedy_bot *b = (greedy_bot *)self;
    return foh_weighed_top(&b->weighed, b->chosen, out, max);
}

static void greedy_free(foh_player *self)
{
    greedy_bot *b = (greedy_bot *)self;
    foh_weighed_free(&b->weighed);
    for (int k = 0; k < NSCRATCH; k++)
        foh_game_free(b->scratch[k]);
    free(b);
}

foh_player *foh_bot_greedy_new(uint64_t seed)
{
    greedy_bot *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->base.name = "greedy";
    b->base.decide = greedy_decide;
    b->base.free = greedy_free;
    b->base.explain = greedy_explain;
    b->seed = seed;
    return &b->base;
}

/* bot_ismcts: Information Set Monte Carlo Tree Search (single observer,
 * Cowling, Powley and Whitehouse 2012) with an opponent model. The
 * opponents it meets are greedy bots, so it models every player after the
 * root's move as the greedy bot: searching their ~30 legal moves each as
 * if they were random spent the budget on replies nobody plays, and left
 * the tree one ply deep.
 *
 * The root's children are the greedy bot's ROOT_MOVES best moves. Each
 * iteration samples the hidden deck order (foh_game_determinize), picks a
 * root move by UCB1 (availability counts), then follows the tree: below
 * the root every node, mine or an opponent's, a turn action or a choice
 * inside an effect, has the greedy bot's move for that player as its
 * child, asked once when the node is first reached and kept (asked again
 * only in a sample where no kept move is legal). The iteration stops at
 * the first new node where it is my turn again (so each visit of a root
 * move plays one more round of greedy replies) or after MAX_DEPTH moves,
 * and values the position there for me by the greedy bot's own
 * evaluation (the ruleset's, foh_game_evaluate), mapped to [0, 1]. The move played is
 * the root move with the best mean reward. The budget is iterations
 * (reproducible) or milliseconds per decision; an iteration that adds a
 * round costs a few greedy decisions, so budgets are small (30 by
 * default); iterations past MAX_DEPTH only sample more deck orders. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot_explain.h"
#include "foh/bot.h"
#include "foh/match.h"
#include "foh/ruleset.h"
#include "rng.h"

#define UCB_C 0.7
#define MAX_DEPTH 24   /* moves per iteration before evaluating */
/* The root's moves searched: the greedy bot's ROOT_MOVES best (move
 * ordering and pruning: the budget goes to the moves worth comparing, not
 * to every Invest amount of every card). */
#define ROOT_MOVES 6

typedef struct {
    foh_action move; /* the move into this node */
    int actor;       /* who made it */
    int first_child, next_sibling;
    double reward;   /* summed rewards for the searching player */
    int visits, avail;
} node;

typedef struct {
    foh_player base;
    uint64_t rng[4];
    long iterations;
    double ms;
    node *nodes;
    int nnodes, cap;
    foh_action *legal;
    int legal_cap;
    foh_weighed weighed; /* the root's moves at the last decision */
    int chosen;
    foh_game *scratch;   /* the iterations' game, made at the first decision */
    foh_game *eval;      /* the evaluation's scratch game */
    foh_player *greedy;  /* ranks the root's moves and my own below it */
    foh_player *model;   /* the opponents' moves below the root: the greedy bot itself, or a random bot */
    int me;              /* the searching player */
} ismcts_bot;

static int same_move(const foh_action *a, const foh_action *b)
{
    return a->kind == b->kind && a->card == b->card && a->tokens == b->tokens && a->option == b->option;
}

static int add_node(ismcts_bot *b, const foh_action *move, int actor)
{
    if (b->nnodes == b->cap) {
        int cap = b->cap ? b->cap * 2 : 1024;
        node *grown = realloc(b->nodes, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        b->nodes = grown;
        b->cap = cap;
    }
    node *n = &b->nodes[b->nnodes];
    memset(n, 0, sizeof *n);
    if (move)
        n->move = *move;
    n->actor = actor;
    n->first_child = n->next_sibling = -1;
    return b->nnodes++;
}

/* The error of applying MOVE to G in the search: what was tried, then the
 * engine's message (the card, its file and line). */
static int failed(foh_game *g, const foh_action *move, foh_status s, foh_error *err)
{
    if (err && s != FOH_ERR_MEMORY) {
        char what[128], msg[sizeof err->msg];
        foh_game_describe_action(g, move, what, sizeof what);
        snprintf(msg, sizeof msg, "%s", err->msg);
        foh_error_set(err, s, "ismcts bot looking ahead at '%s': %s", what, msg);
    }
    return -1;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Append to node CUR the best K (at most ROOT_MOVES) moves of LEGAL (N of them) for the player
 * to act in G, as the greedy bot ranks them, skipping moves CUR already
 * has; -1 with ERR set on an error. */
static int add_candidates(ismcts_bot *b, int cur, foh_game *g, const foh_action *legal, int n, int k,
                          foh_error *err)
{
    foh_alternative best[ROOT_MOVES];
    int idx[ROOT_MOVES], m = 0;
    if (k > ROOT_MOVES)
        k = ROOT_MOVES;
    int actor = foh_game_to_act(g), tail = -1;
    if (n <= k) {
        for (int i = 0; i < n; i++)
            idx[m++] = i;
    } else if (cur != 0 && actor != b->me && b->model != b->greedy) {
        /* An opponent below the root, modelled by another bot: its move. */
        int i = b->model->decide(b->model, g, legal, n, NULL, 0, err);
        if (i < 0 || i >= n)
            return -1;
        idx[m++] = i;
    } else {
        if (b->greedy->decide(b->greedy, g, legal, n, NULL, 0, err) < 0)
            return -1;
        m = b->greedy->explain(b->greedy, best, k);
        for (int i = 0; i < m; i++)
            idx[i] = best[i].index;
    }
    for (int c = b->nodes[cur].first_child; c >= 0; c = b->nodes[c].next_sibling)
        tail = c;
    for (int i = 0; i < m; i++) {
        int dup = 0;
        for (int c = b->nodes[cur].first_child; c >= 0 && !dup; c = b->nodes[c].next_sibling)
            dup = same_move(&b->nodes[c].move, &legal[idx[i]]);
        if (dup)
            continue;
        int x = add_node(b, &legal[idx[i]], actor);
        if (x < 0) {
            foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
            return -1;
        }
        if (tail < 0)
            b->nodes[cur].first_child = x;
        else
            b->nodes[tail].next_sibling = x;
        tail = x;
    }
    return 0;
}

/* The child of CUR to follow among those legal now (LEGAL, N), counting
 * their availability; -1 if none is legal. At the root: an unvisited one
 * first (in the greedy bot's order), then by UCB1. Below it: the first
 * legal one, the greedy move. */
static int select_child(ismcts_bot *b, int cur, const foh_action *legal, int n)
{
    int next = -1;
    double best = -1;
    for (int c = b->nodes[cur].first_child; c >= 0; c = b->nodes[c].next_sibling) {
        int legal_here = 0;
        for (int i = 0; i < n && !legal_here; i++)
            legal_here = same_move(&b->nodes[c].move, &legal[i]);
        if (!legal_here)
            continue;
        node *x = &b->nodes[c];
        x->avail++;
        if (cur != 0)
            return c;
        double u = x->visits == 0 ? 1e9 : x->reward / x->visits + UCB_C * sqrt(log((double)x->avail) / x->visits);
        if (u > best) {
            best = u;
            next = c;
        }
    }
    return next;
}

/* The reward in [0, 1] of G for player ME: the greedy bot's evaluation. */
static int reward(ismcts_bot *b, foh_game *g, int me, double *r, foh_error *err)
{
    double context = 0, value;
    if (foh_game_eval_begin(g, me, b->eval, &context, err) != FOH_OK ||
        foh_game_evaluate(g, me, context, b->eval, &value, err) != FOH_OK)
        return -1;
    *r = 1.0 / (1.0 + exp(-value / foh_game_ruleset(g)->value_scale));
    return 0;
}

/* One iteration from the root on a fresh determinization of ROOT; -1 with
 * ERR set on a script error or when out of memory. */
static int iterate(ismcts_bot *b, const foh_game *root, foh_game *g, foh_error *err)
{
    foh_game_copy(g, root);
    foh_game_determinize(g, b->me, foh_rng_next(b->rng));
    int path[MAX_DEPTH + 2], depth = 0, cur = 0;
    path[depth++] = 0;
    while (!foh_game_is_over(g) && depth <= MAX_DEPTH) {
        /* A new node at my turn is the leaf: opponents' replies are played
         * through (they are part of what my move leads to). */
        if (foh_game_to_act(g) == b->me && cur != 0 && b->nodes[cur].visits == 0 && !foh_game_choice(g))
            break;
        int n = foh_match_legal(g, &b->legal, &b->legal_cap, err);
        if (n < 0)
            return -1;
        if (n == 0) {
            foh_error_set(err, FOH_ERR_ILLEGAL, "ismcts bot: no legal action in a game that is not over");
            return -1;
        }
        int next = select_child(b, cur, b->legal, n);
        if (next < 0) { /* new node, or none of its moves legal in this sample */
            if (add_candidates(b, cur, g, b->legal, n, 1, err) < 0)
                return -1;
            next = select_child(b, cur, b->legal, n);
        }
        if (next < 0) {
            foh_error_set(err, FOH_ERR_ILLEGAL, "ismcts bot: no searched move is legal here");
            return -1;
        }
        foh_action move = b->nodes[next].move;
        foh_status s = foh_game_apply(g, &move, err);
        if (s != FOH_OK)
            return failed(g, &move, s, err);
        path[depth++] = cur = next;
    }
    double r;
    if (reward(b, g, b->me, &r, err) < 0)
        return -1;
    for (int i = 0; i < depth; i++) {
        node *x = &b->nodes[path[i]];
        x->visits++;
        x->reward += r;
    }
    return 0;
}

static int ismcts_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                         foh_error *err)
{
    ismcts_bot *b = (ismcts_bot *)self;
    foh_weighed_clear(&b->weighed);
    b->chosen = 0;
    if (n == 1)
        return 0;
    b->nnodes = 0;
    if (add_node(b, NULL, -1) < 0 || (!b->scratch && !(b->scratch = foh_game_clone(g))) ||
        (!b->eval && !(b->eval = foh_game_clone(g)))) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return -1;
    }
    foh_game *scratch = b->scratch;
    b->me = foh_game_to_act(g);
    /* The greedy bot's best moves are the root's. */
    if (add_candidates(b, 0, g, legal, n, ROOT_MOVES, err) < 0)
        return -1;
    double start = now_ms();
    long done = 0;
    for (;;) {
        if (b->ms > 0 ? now_ms() - start >= b->ms : done >= b->iterations)
            break;
        if (iterate(b, g, scratch, err) != 0)
            return -1;
        done++;
    }
    /* The root move with the best mean reward: with a few visits per move,
     * the means say more than UCB's visit counts. If none was visited (a
     * budget in ms too short), the greedy bot's best. */
    int pick = -1, most = 0;
    double value = 0;
    for (int c = b->nodes[0].first_child; c >= 0; c = b->nodes[c].next_sibling)
        for (int i = 0; i < n; i++) {
            const node *x = &b->nodes[c];
            if (!same_move(&x->move, &legal[i]))
                continue;
            if (pick < 0 && x->visits == 0)
                pick = i;
            if (x->visits == 0)
                continue;
            if (!foh_weighed_add(&b->weighed, i, x->reward / x->visits, x->visits)) {
                foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
                return -1;
            }
            if (most == 0 || x->reward / x->visits > value) {
                most = x->visits;
                pick = i;
                value = x->reward / x->visits;
            }
        }
    if (pick < 0)
        pick = 0;
    b->chosen = pick;
    if (why) {
        char what[128];
        foh_game_describe_action(g, &legal[pick], what, sizeof what);
        snprintf(why, whylen, "%s: %d of %ld simulations, expected reward %.2f", what, most, done, value);
    }
    return pick;
}

static void ismcts_free(foh_player *self)
{
    ismcts_bot *b = (ismcts_bot *)self;
    free(b->nodes);
    free(b->legal);
    foh_weighed_free(&b->weighed);
    foh_game_free(b->scratch);
    foh_game_free(b->eval);
    if (b->model != b->greedy)
        foh_player_free(b->model);
    foh_player_free(b->greedy);
    free(b);
}

static int ismcts_explain(foh_player *self, foh_alternative *out, int max)
{
    ismcts_bot *b = (ismcts_bot *)self;
    return foh_weighed_top(&b->weighed, b->chosen, out, max);
}

foh_player *foh_bot_ismcts_new(uint64_t seed, long iterations, double ms)
{
    return foh_bot_ismcts_new_model(seed, iterations, ms, FOH_ISMCTS_MODEL_GREEDY);
}

foh_player *foh_bot_ismcts_new_model(uint64_t seed, long iterations, double ms, int model)
{
    ismcts_bot *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->base.name = "ismcts";
    b->base.decide = ismcts_decide;
    b->base.free = ismcts_free;
    b->base.explain = ismcts_explain;
    b->iterations = iterations > 0 ? iterations : FOH_ISMCTS_DEFAULT_ITERATIONS;
    b->ms = ms;
    foh_rng_seed(b->rng, seed);
    if (!(b->greedy = foh_bot_greedy_new(foh_rng_mix(seed, 0x6772656564)))) {
        free(b);
        return NULL;
    }
    b->model = model == FOH_ISMCTS_MODEL_RANDOM ? foh_bot_random_new(foh_rng_mix(seed, 0x72616e646f6d)) : b->greedy;
    if (!b->model) {
        foh_player_free(b->greedy);
        free(b);
        return NULL;
    }
    return &b->base;
}

/* bot_ismcts: Information Set Monte Carlo Tree Search (single observer,
 * Cowling, Powley and Whitehouse 2012). Each iteration samples the hidden
 * deck order (foh_game_determinize), walks the tree choosing among the
 * moves legal in that sample by UCB with availability counts, adds one
 * node, and scores the position reached with the heuristic evaluation for
 * every player; each node keeps the value for the player who moved into it
 * (max-n). Choices inside effects are moves like any other. At the root,
 * only the greedy bot's best few moves are searched. The budget is
 * iterations (reproducible) or milliseconds per decision. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot_eval.h"
#include "bot_explain.h"
#include "foh/bot.h"
#include "foh/match.h"
#include "rng.h"

#define UCB_C 0.7
#define MAX_DEPTH 24   /* moves per iteration before evaluating */
#define REWARD_SCALE 6 /* VP difference that is worth a 73% reward */
/* The root's moves searched: the greedy bot's ROOT_MOVES best (move
 * ordering and pruning: the budget goes to the moves worth comparing, not
 * to every Invest amount of every card). */
#define ROOT_MOVES 4
#define MY_MOVES 4  /* my moves searched deeper in the tree */
#define OPP_MOVES 1 /* an opponent's: its greedy move */

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
    foh_player *greedy;  /* ranks the moves of every node, and models the opponents */
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

/* Append to node CUR the best K moves of LEGAL (N of them) for the player
 * to act in G, as the greedy bot ranks them, skipping moves CUR already
 * has; -1 with ERR set on an error. */
static int add_candidates(ismcts_bot *b, int cur, foh_game *g, const foh_action *legal, int n, int k,
                          foh_error *err)
{
    foh_alternative best[ROOT_MOVES > MY_MOVES ? ROOT_MOVES : MY_MOVES];
    int idx[sizeof best / sizeof best[0]], m = 0;
    if (k > (int)(sizeof best / sizeof best[0]))
        k = (int)(sizeof best / sizeof best[0]);
    if (n <= k) {
        for (int i = 0; i < n; i++)
            idx[m++] = i;
    } else {
        if (b->greedy->decide(b->greedy, g, legal, n, NULL, 0, err) < 0)
            return -1;
        m = b->greedy->explain(b->greedy, best, k);
        for (int i = 0; i < m; i++)
            idx[i] = best[i].index;
    }
    int actor = foh_game_to_act(g), tail = -1;
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
 * their availability; -1 if none is legal. Mine: an unvisited one first
 * (in the greedy bot's order), then by UCB1. An opponent's: the first
 * legal one, its greedy move (the opponents are modelled as greedy). */
static int select_child(ismcts_bot *b, int cur, int mine, const foh_action *legal, int n)
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
        if (!mine)
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
    double alternative = 0;
    foh_eval e;
    if ((!foh_game_is_over(g) && foh_eval_alternative(g, me, b->eval, &alternative, err) != FOH_OK) ||
        foh_eval_position(g, me, alternative, b->eval, &e, err) != FOH_OK)
        return -1;
    *r = 1.0 / (1.0 + exp(-e.total / REWARD_SCALE));
    return 0;
}

/* One iteration from the root on a fresh determinization of ROOT; -1 with
 * ERR set on a script error or when out of memory. */
static int iterate(ismcts_bot *b, const foh_game *root, foh_game *g, foh_error *err)
{
    foh_game_copy(g, root);
    foh_game_determinize(g, foh_rng_next(b->rng));
    int path[MAX_DEPTH + 2], depth = 0, cur = 0;
    path[depth++] = 0;
    while (!foh_game_is_over(g) && depth <= MAX_DEPTH) {
        int actor = foh_game_to_act(g), mine = actor == b->me;
        /* A new node at my turn is the leaf: opponents' replies are played
         * through (they are part of what my move leads to). */
        if (mine && cur != 0 && b->nodes[cur].visits == 0 && !foh_game_choice(g))
            break;
        int n = foh_match_legal(g, &b->legal, &b->legal_cap, err);
        if (n < 0)
            return -1;
        if (n == 0) {
            foh_error_set(err, FOH_ERR_ILLEGAL, "ismcts bot: no legal action in a game that is not over");
            return -1;
        }
        int next = select_child(b, cur, mine, b->legal, n);
        if (next < 0) { /* new node, or none of its moves legal in this sample */
            if (add_candidates(b, cur, g, b->legal, n, mine ? MY_MOVES : OPP_MOVES, err) < 0)
                return -1;
            next = select_child(b, cur, mine, b->legal, n);
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
    /* The most visited legal move of the root. */
    int pick = 0, most = -1;
    double value = 0;
    for (int c = b->nodes[0].first_child; c >= 0; c = b->nodes[c].next_sibling)
        for (int i = 0; i < n; i++) {
            if (!same_move(&b->nodes[c].move, &legal[i]))
                continue;
            if (!foh_weighed_add(&b->weighed, i, b->nodes[c].reward / b->nodes[c].visits, b->nodes[c].visits)) {
                foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
                return -1;
            }
            if (b->nodes[c].visits > most) {
                most = b->nodes[c].visits;
                pick = i;
                value = b->nodes[c].reward / b->nodes[c].visits;
            }
        }
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
    return &b->base;
}

/* toy: a small game written as a ruleset of the platform (foh/ruleset.h),
 * to show how one is written (docs/ruleset.md) and to prove the platform
 * plays a game it does not know. Its rules:
 *
 * - The deck holds the cards of cards.yaml (each a `value`), shuffled; each
 *   player is dealt `hand_size` cards, which only they see.
 * - On a turn the player to act plays one card of their hand (adding its
 *   value to their points and to the round's) and draws the top card of
 *   the deck, if any; with an empty hand they pass.
 * - A round ends when every player has had a turn: the players with the
 *   most points that round each gain a Victory Token (a scoring event in
 *   the middle of the game).
 * - After `rounds` rounds, or when every hand is empty, the most Victory
 *   Tokens win; ties are broken by points, then shared. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foh/ruleset.h"
#include "foh/yaml.h"

#define TOY_MAX_CARDS 1024
#define TOY_MAX_HAND 4
#define TOY_PLAY ((foh_action_kind)0) /* a card from the hand: `card` */
#define TOY_PASS ((foh_action_kind)1)

struct foh_cardset_toy {
    foh_object_head head;
    int ncards, min_players, max_players, hand_size, rounds;
    int value[TOY_MAX_CARDS];
    char name[TOY_MAX_CARDS][32];
};
typedef struct foh_cardset_toy toy_set;
typedef struct {
    foh_object_head head;
    const toy_set *set;
} toy_engine;
typedef struct {
    foh_object_head head;
    const toy_set *set;
    foh_log_fn log;
    void *log_ud;
    uint64_t rng;
    int players, to_act, turn, round, over, ndeck;
    short deck[TOY_MAX_CARDS];            /* the top card is deck[ndeck - 1] */
    short hand[FOH_MAX_PLAYERS][TOY_MAX_HAND]; /* -1: no card */
    int points[FOH_MAX_PLAYERS], round_points[FOH_MAX_PLAYERS], tokens[FOH_MAX_PLAYERS];
} toy_game;

extern const foh_ruleset foh_ruleset_toy;

static uint64_t next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void shuffle(short *a, int n, uint64_t *rng)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(next(rng) % (uint64_t)(i + 1));
        short t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static void say(toy_game *g, const char *line)
{
    if (g->log)
        g->log(g->log_ud, line);
}

/* An integer field of map M, LO..HI; 0 with ERR set (file:line) if not. */
static int number(const foh_yaml_node *m, const char *key, int lo, int hi, int *out, foh_error *err)
{
    const foh_yaml_node *v = foh_yaml_get(m, key);
    char *end = NULL;
    long x = v && v->kind == FOH_YAML_SCALAR ? strtol(v->text, &end, 10) : 0;
    if (!v || !end || *end || end == v->text || x < lo || x > hi)
        return foh_error_at(err, FOH_ERR_DATA, v ? v->file : m->file, v ? v->line : m->line, v ? v->column : 1,
                            "'%s' must be a whole number from %d to %d", key, lo, hi) == FOH_OK;
    *out = (int)x;
    return 1;
}

/* 0 with ERR set (file:line) if map M has a key not in ALLOWED: a typo is
 * told, never ignored. */
static int known_keys(const foh_yaml_node *m, const char *const *allowed, foh_error *err)
{
    int bad = foh_yaml_unknown_key(m, allowed);
    if (bad < 0)
        return 1;
    char list[256] = "";
    for (int i = 0; allowed[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", allowed[i]);
    return foh_error_at(err, FOH_ERR_DATA, m->file, m->key_lines[bad], m->key_columns[bad],
                        "unknown field '%s' (fields: %s)", m->keys[bad], list) == FOH_OK;
}

static foh_cardset *toy_load(const foh_load_request *req, foh_error *err)
{
    static const char *const game_keys[] = {"ruleset", "min_players", "max_players", "hand_size", "rounds", NULL};
    static const char *const card_keys[] = {"name", "value", NULL};
    char path[4200], yerr[512];
    toy_set *cs = calloc(1, sizeof *cs);
    foh_yaml_node *game = NULL, *cards = NULL;
    int ok = cs != NULL;
    if (!ok)
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
    if (ok && (req->ndirs != 1 || req->nvariants != 0))
        ok = foh_error_set(err, FOH_ERR_USAGE, "the toy game has no expansions or variants") == FOH_OK;
    if (ok) {
        snprintf(path, sizeof path, "%s/game.yaml", req->dirs[0]);
        if (!(game = foh_yaml_load(path, yerr, sizeof yerr)) || game->kind != FOH_YAML_MAP)
            ok = foh_error_at(err, FOH_ERR_DATA, path, 1, 1, "%s", game ? "game.yaml must be a map" : yerr) == FOH_OK;
    }
    ok = ok && known_keys(game, game_keys, err) &&
         number(game, "min_players", 2, FOH_MAX_PLAYERS, &cs->min_players, err) &&
         number(game, "max_players", cs->min_players, FOH_MAX_PLAYERS, &cs->max_players, err) &&
         number(game, "hand_size", 1, TOY_MAX_HAND, &cs->hand_size, err) &&
         number(game, "rounds", 1, 1000, &cs->rounds, err);
    if (ok) {
        snprintf(path, sizeof path, "%s/cards.yaml", req->dirs[0]);
        if (!(cards = foh_yaml_load(path, yerr, sizeof yerr)) || cards->kind != FOH_YAML_SEQ ||
            cards->n > TOY_MAX_CARDS)
            ok = foh_error_at(err, FOH_ERR_DATA, path, 1, 1, "%s",
                              cards ? "cards.yaml must list at most 1024 cards" : yerr) == FOH_OK;
    }
    for (size_t i = 0; ok && i < cards->n; i++) {
        const foh_yaml_node *c = cards->items[i], *name = foh_yaml_get(c, "name");
        if (c->kind != FOH_YAML_MAP || !name || name->kind != FOH_YAML_SCALAR || strlen(name->text) >= 32)
            ok = foh_error_at(err, FOH_ERR_DATA, path, c->line, c->column, "a card needs a name (under 32 bytes)") ==
                 FOH_OK;
        else if ((ok = known_keys(c, card_keys, err) && number(c, "value", 0, 100, &cs->value[i], err)))
            snprintf(cs->name[cs->ncards++], 32, "%s", name->text);
    }
    if (ok && cs->ncards < cs->max_players * cs->hand_size)
        ok = foh_error_at(err, FOH_ERR_DATA, path, 1, 1, "too few cards to deal %d players %d each", cs->max_players,
                          cs->hand_size) == FOH_OK;
    foh_yaml_free(game);
    foh_yaml_free(cards);
    if (req->report && !ok)
        req->report(req->report_ctx, 0, err);
    if (!ok) {
        free(cs);
        return NULL;
    }
    cs->head.ruleset = &foh_ruleset_toy;
    return (foh_cardset *)cs;
}

static void toy_set_free(foh_cardset *cs) { free(cs); }

static foh_engine *toy_engine_new(const foh_cardset *cs, const foh_script_limits *limits, foh_error *err)
{
    (void)limits; /* no scripts */
    toy_engine *e = calloc(1, sizeof *e);
    if (!e) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return NULL;
    }
    e->head.ruleset = &foh_ruleset_toy;
    e->set = (const toy_set *)cs;
    return (foh_engine *)e;
}

static void toy_engine_free(foh_engine *e) { free(e); }

static foh_game *toy_new(foh_engine *eng, const foh_options *opt, foh_error *err)
{
    const toy_set *cs = ((toy_engine *)eng)->set;
    if (opt->players < cs->min_players || opt->players > cs->max_players) {
        foh_error_set(err, FOH_ERR_USAGE, "the toy game is played with %d to %d players, not %d", cs->min_players,
                      cs->max_players, opt->players);
        return NULL;
    }
    toy_game *g = calloc(1, sizeof *g);
    if (!g) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return NULL;
    }
    g->head.ruleset = &foh_ruleset_toy;
    g->set = cs;
    g->rng = opt->seed;
    g->players = opt->players;
    for (int i = 0; i < cs->ncards; i++)
        g->deck[g->ndeck++] = (short)i;
    shuffle(g->deck, g->ndeck, &g->rng);
    for (int p = 0; p < FOH_MAX_PLAYERS; p++)
        for (int k = 0; k < TOY_MAX_HAND; k++)
            g->hand[p][k] = p < g->players && k < cs->hand_size ? g->deck[--g->ndeck] : -1;
    return (foh_game *)g;
}

static foh_game *toy_clone(const foh_game *g)
{
    toy_game *c = malloc(sizeof *c);
    if (c) {
        memcpy(c, g, sizeof *c);
        c->log = NULL;
    }
    return (foh_game *)c;
}

static void toy_copy(foh_game *dst, const foh_game *src)
{
    toy_game *d = (toy_game *)dst;
    foh_log_fn log = d->log;
    void *ud = d->log_ud;
    memcpy(d, src, sizeof *d);
    d->log = log;
    d->log_ud = ud;
}

static void toy_free(foh_game *g) { free(g); }
#define G ((const toy_game *)g)
static int toy_players(const foh_game *g) { return G->players; }
static int toy_to_act(const foh_game *g) { return G->to_act; }
static int toy_is_over(const foh_game *g) { return G->over; }
static int toy_turn(const foh_game *g) { return G->turn; }
static int toy_turn_limit(const foh_game *g) { return G->set->rounds * G->players; }
static int toy_mid_turn(const foh_game *g) { return (void)g, 0; }
static const foh_choice *toy_choice(const foh_game *g) { return (void)g, NULL; }

static int toy_legal(foh_game *g, foh_action *out, int max, foh_error *err)
{
    (void)err;
    int n = 0;
    if (G->over)
        return 0;
    for (int k = 0; k < TOY_MAX_HAND; k++)
        if (G->hand[G->to_act][k] >= 0 && n++ < max)
            out[n - 1] = (foh_action){.kind = TOY_PLAY, .card = G->hand[G->to_act][k], .tokens = 0, .option = -1};
    if (n == 0 && max > 0)
        out[n++] = (foh_action){.kind = TOY_PASS, .card = -1, .tokens = 0, .option = -1};
    return n;
}

static foh_status toy_check(foh_game *g, const foh_action *a, foh_error *err)
{
    foh_action legal[TOY_MAX_HAND + 1];
    int n = toy_legal(g, legal, TOY_MAX_HAND + 1, err);
    for (int i = 0; i < n; i++)
        if (legal[i].kind == a->kind && legal[i].card == a->card)
            return FOH_OK;
    return foh_error_set(err, FOH_ERR_ILLEGAL, G->over ? "the game is over" : "P%d cannot do that now", G->to_act + 1);
}

static void toy_describe(const foh_game *g, const foh_action *a, char *buf, size_t len)
{
    if (a->kind == TOY_PLAY && a->card >= 0 && a->card < G->set->ncards)
        snprintf(buf, len, "play %s (%d)", G->set->name[a->card], G->set->value[a->card]);
    else
        snprintf(buf, len, a->kind == TOY_PASS ? "pass" : "(not an action)");
}

/* The end of a round: its scoring event. */
static void end_round(toy_game *g)
{
    int best = 0;
    char line[128];
    for (int p = 0; p < g->players; p++)
        best = g->round_points[p] > best ? g->round_points[p] : best;
    for (int p = 0; p < g->players; p++) {
        if (best > 0 && g->round_points[p] == best) {
            g->tokens[p]++;
            snprintf(line, sizeof line, "round %d: P%d scores a Victory Token (%d points)", g->round + 1, p + 1, best);
            say(g, line);
        }
        g->round_points[p] = 0;
    }
    int cards = 0;
    for (int p = 0; p < g->players; p++)
        for (int k = 0; k < TOY_MAX_HAND; k++)
            cards += g->hand[p][k] >= 0;
    g->over = ++g->round >= g->set->rounds || cards == 0;
}

static foh_status toy_apply(foh_game *gg, const foh_action *a, foh_error *err)
{
    toy_game *g = (toy_game *)gg;
    foh_status s = toy_check(gg, a, err);
    if (s != FOH_OK)
        return s;
    char line[128], what[64];
    toy_describe(gg, a, what, sizeof what);
    snprintf(line, sizeof line, "P%d: %s", g->to_act + 1, what);
    say(g, line);
    for (int k = 0; a->kind == TOY_PLAY && k < TOY_MAX_HAND; k++)
        if (g->hand[g->to_act][k] == a->card) {
            g->points[g->to_act] += g->set->value[a->card];
            g->round_points[g->to_act] += g->set->value[a->card];
            g->hand[g->to_act][k] = g->ndeck > 0 ? g->deck[--g->ndeck] : -1;
        }
    g->turn++;
    if (++g->to_act == g->players) {
        g->to_act = 0;
        end_round(g);
    }
    return FOH_OK;
}

/* Winners: most Victory Tokens, then most points; 1/k each for k tied. */
static foh_status toy_results(foh_game *g, double *out, foh_error *err)
{
    (void)err;
    int best = -1, winners = 0;
    for (int p = 0; p < G->players; p++)
        best = G->tokens[p] * 100000 + G->points[p] > best ? G->tokens[p] * 100000 + G->points[p] : best;
    for (int p = 0; p < G->players; p++)
        winners += G->tokens[p] * 100000 + G->points[p] == best;
    for (int p = 0; p < G->players; p++)
        out[p] = G->tokens[p] * 100000 + G->points[p] == best ? 1.0 / winners : 0;
    return FOH_OK;
}

/* Victory Tokens (what wins), then points (the tie-break). */
static int toy_score_lines(foh_game *g, int player, foh_score_line *out, int max, foh_error *err)
{
    (void)err;
    const char *label[2] = {"Victory Tokens", "points"};
    double value[2] = {G->tokens[player], G->points[player]};
    int n = max < 2 ? max : 2;
    for (int i = 0; i < n; i++) {
        snprintf(out[i].label, sizeof out[i].label, "%s", label[i]);
        out[i].value = value[i];
    }
    return n;
}

/* What VIEWER cannot see: the deck and the other players' hands. They are
 * dealt again from one shuffled pool, each hand keeping its size. */
static void toy_determinize(foh_game *gg, int viewer, uint64_t seed)
{
    toy_game *g = (toy_game *)gg;
    short pool[TOY_MAX_CARDS];
    int n = 0;
    for (int i = 0; i < g->ndeck; i++)
        pool[n++] = g->deck[i];
    for (int p = 0; p < g->players; p++)
        for (int k = 0; p != viewer && k < TOY_MAX_HAND; k++)
            if (g->hand[p][k] >= 0)
                pool[n++] = g->hand[p][k];
    g->rng = seed;
    shuffle(pool, n, &g->rng);
    for (int i = 0; i < g->ndeck; i++)
        g->deck[i] = pool[--n];
    for (int p = 0; p < g->players; p++)
        for (int k = 0; p != viewer && k < TOY_MAX_HAND; k++)
            if (g->hand[p][k] >= 0)
                g->hand[p][k] = pool[--n];
}

/* The viewer's hand, the others' hand sizes, every score, the deck's size. */
static int toy_observe(const foh_game *g, int player, char *buf, size_t len)
{
    char text[4096];
    char you[16] = "spectator"; /* player -1: the public view, no hand */
    if (player >= 0)
        snprintf(you, sizeof you, "P%d", player + 1);
    int at = snprintf(text, sizeof text, "you: %s\nround: %d of %d\ndeck: %d cards\nhand:", you, G->round + 1,
                      G->set->rounds, G->ndeck);
    for (int k = 0; player >= 0 && k < TOY_MAX_HAND; k++)
        if (G->hand[player][k] >= 0 && at < (int)sizeof text)
            at += snprintf(text + at, sizeof text - (size_t)at, " %s (%d)", G->set->name[G->hand[player][k]],
                           G->set->value[G->hand[player][k]]);
    for (int p = 0; p < G->players && at < (int)sizeof text; p++) {
        int cards = 0;
        for (int k = 0; k < TOY_MAX_HAND; k++)
            cards += G->hand[p][k] >= 0;
        at += snprintf(text + at, sizeof text - (size_t)at, "\nP%d: %d Victory Tokens, %d points, %d cards in hand", p + 1,
                       G->tokens[p], G->points[p], cards);
    }
    return snprintf(buf, len, "%s\n", text);
}

static void toy_set_log(foh_game *g, foh_log_fn fn, void *ud)
{
    ((toy_game *)g)->log = fn;
    ((toy_game *)g)->log_ud = ud;
}

static uint64_t toy_digest(const foh_game *g)
{
    const unsigned char *b = (const unsigned char *)&G->rng;
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the position, from rng on */
    for (size_t i = 0; i < sizeof(toy_game) - offsetof(toy_game, rng); i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static foh_status toy_eval_begin(foh_game *g, int player, foh_game *scratch, double *context, foh_error *err)
{
    (void)g, (void)player, (void)scratch, (void)err;
    *context = 0;
    return FOH_OK;
}

/* Victory Tokens (ten points each) and points, less the best opponent's. */
static foh_status toy_evaluate(foh_game *g, int player, double context, foh_game *scratch, double *value,
                               foh_error *err)
{
    (void)context, (void)scratch, (void)err;
    double best = -1e9;
    for (int p = 0; p < G->players; p++)
        if (p != player && 10.0 * G->tokens[p] + G->points[p] > best)
            best = 10.0 * G->tokens[p] + G->points[p];
    *value = 10.0 * G->tokens[player] + G->points[player] - best;
    return FOH_OK;
}

const foh_ruleset foh_ruleset_toy = {
    .version = FOH_RULESET_VERSION, .name = "toy", .title = "Toy (the platform's example ruleset)",
    .max_players = FOH_MAX_PLAYERS, .cardset_load = toy_load, .cardset_free = toy_set_free,
    .engine_new = toy_engine_new, .engine_free = toy_engine_free, .game_new = toy_new, .game_clone = toy_clone,
    .game_copy = toy_copy, .game_free = toy_free, .players = toy_players, .to_act = toy_to_act,
    .is_over = toy_is_over, .turn = toy_turn, .turn_limit = toy_turn_limit, .decisions_per_turn = 1,
    .mid_turn = toy_mid_turn, .legal_actions = toy_legal, .amount_kind = -1, .check = toy_check,
    .apply = toy_apply, .choice = toy_choice, .describe_action = toy_describe, .results = toy_results,
    .score_lines = toy_score_lines,
    .determinize = toy_determinize, .observe = toy_observe, .set_log = toy_set_log, .digest = toy_digest, .eval_begin = toy_eval_begin,
    .evaluate = toy_evaluate, .evaluation = "Victory Tokens and points, minus the best opponent's",
    .value_scale = 10,
};

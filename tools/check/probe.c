/* probe: every card's effect run on purpose in built positions (see
 * probe.h). Through the public API only: the positions are made with
 * foh/position.h, the effects run by the actions that run them in play. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <foh/position.h>

#include "check/probe.h"

enum {
    TURNS = 3,            /* random-game positions per player count: set up, early, late */
    STOCKED = 3,          /* positions where each Nation holds 1, 2, 3 cards of each type */
    MAX_POSITIONS = 2 * TURNS + STOCKED,
    ACTIONS_PER_RUN = 16, /* turn actions tried from one position (every kind, a few amounts) */
    NODES_PER_RUN = 64,   /* choice options tried after one action (depth first) */
};

typedef struct {
    const foh_cardset *cs;
    foh_engine *eng;
    void (*report)(void *, const char *, const char *);
    void *ctx;
    foh_game *pos[MAX_POSITIONS];
    char what[MAX_POSITIONS][96]; /* how each position was made, for messages */
    int npos;
    foh_action *buf;              /* legal actions (grown as needed) */
    int cap;
    char **told;                  /* the errors told (the engine's messages): each once */
    int ntold, told_cap;
    long actions, options;
    uint64_t rng;
} prober;

static uint32_t next_random(prober *p)
{
    p->rng ^= p->rng << 13;
    p->rng ^= p->rng >> 7;
    p->rng ^= p->rng << 17;
    return (uint32_t)(p->rng >> 32);
}

/* The legal actions of G into P's buffer (foh_match_legal); -1 on an
 * error (in ERR). */
static int legal(prober *p, foh_game *g, foh_error *err) { return foh_match_legal(g, &p->buf, &p->cap, err); }

/* Tell ERR, met while probing CARD (-1: making a position) in position
 * POS after STEP, once (the first place it was met); its file:line first,
 * as editors want. */
static void tell(prober *p, int card, int pos, const char *step, const foh_error *err)
{
    (void)card; /* the message names the card whose script failed, which may be another */
    for (int i = 0; i < p->ntold; i++)
        if (!strcmp(p->told[i], err->msg))
            return;
    if (p->ntold == p->told_cap) {
        int cap = p->told_cap ? 2 * p->told_cap : 16;
        char **grown = realloc(p->told, (size_t)cap * sizeof *grown);
        if (grown) {
            p->told = grown;
            p->told_cap = cap;
        }
    }
    if (p->ntold < p->told_cap && (p->told[p->ntold] = strdup(err->msg)) != NULL)
        p->ntold++;
    const char *at = strstr(err->msg, ".yaml:");
    if (!at)
        at = strstr(err->msg, ".lua:");
    const char *start = at, *end = at ? strstr(at, ": ") : NULL;
    while (start && start > err->msg && start[-1] != ' ')
        start--;
    char msg[sizeof err->msg + 400], core[sizeof err->msg];
    if (start && end) {
        snprintf(core, sizeof core, "%.*s%s", (int)(start - err->msg), err->msg, end + 2);
        snprintf(msg, sizeof msg, "%.*s: effect probe (%s, %s): %s", (int)(end - start), start,
                 pos >= 0 ? p->what[pos] : "making a position", step, core);
    } else {
        snprintf(core, sizeof core, "%s", err->msg);
        snprintf(msg, sizeof msg, "effect probe (%s, %s): %s", pos >= 0 ? p->what[pos] : "making a position", step,
                 err->msg);
    }
    p->report(p->ctx, msg, core);
}

/* After an action on G: every option of the pending choice, depth first,
 * each in a copy, within *BUDGET nodes. An error is told for CARD. */
static void explore(prober *p, foh_game *g, int card, int pos, const char *step, int *budget)
{
    if (!foh_game_choice(g) || *budget <= 0)
        return;
    foh_error err;
    int n = legal(p, g, &err);
    if (n < 0) {
        tell(p, card, pos, step, &err);
        return;
    }
    foh_action *opts = malloc((size_t)(n ? n : 1) * sizeof *opts);
    if (!opts)
        return;
    memcpy(opts, p->buf, (size_t)n * sizeof *opts);
    for (int i = 0; i < n && *budget > 0; i++) {
        foh_game *c = foh_game_clone(g);
        if (!c)
            break;
        --*budget;
        p->options++;
        char desc[160], path[300];
        foh_game_describe_action(g, &opts[i], desc, sizeof desc);
        snprintf(path, sizeof path, "%s, then %s", step, desc);
        if (foh_game_apply(c, &opts[i], &err) != FOH_OK) {
            if (err.code != FOH_ERR_ILLEGAL)
                tell(p, card, pos, path, &err);
        } else {
            explore(p, c, card, pos, path, budget);
        }
        foh_game_free(c);
    }
    free(opts);
}

/* Apply A to a copy of G and explore the choices it asks. */
static void try_action(prober *p, const foh_game *g, const foh_action *a, int card, int pos, const char *step)
{
    foh_game *c = foh_game_clone(g);
    if (!c)
        return;
    foh_error err;
    p->actions++;
    if (foh_game_apply(c, a, &err) != FOH_OK) {
        if (err.code != FOH_ERR_ILLEGAL)
            tell(p, card, pos, step, &err);
    } else {
        int budget = NODES_PER_RUN;
        explore(p, c, card, pos, step, &budget);
    }
    foh_game_free(c);
}

/* ---- The positions ---- */

/* A game of PLAYERS played by random choices until TURN turns are done
 * (or the last position before its end). NULL if it cannot be made. */
static foh_game *played_to(prober *p, int players, uint64_t seed, int turn)
{
    foh_options opt = {.players = players, .seed = seed};
    foh_error err;
    foh_game *g = foh_game_new(p->eng, &opt, &err);
    if (!g) {
        tell(p, -1, -1, "setting up a game", &err);
        return NULL;
    }
    for (int steps = 0; foh_game_turn(g) < turn && steps < 100000; steps++) {
        int n = legal(p, g, &err);
        if (n <= 0)
            break;
        foh_game *before = foh_game_clone(g);
        if (!before)
            break;
        foh_action a = p->buf[next_random(p) % (uint32_t)n];
        if (foh_game_apply(g, &a, &err) != FOH_OK || foh_game_is_over(g)) {
            if (!foh_game_is_over(g) && err.code != FOH_ERR_ILLEGAL)
                tell(p, -1, -1, "a random game", &err);
            foh_game_free(g); /* the position before it */
            return before;
        }
        foh_game_free(before);
    }
    return g;
}

/* A fresh game of PLAYERS where every Nation holds K cards of each card
 * type (fewer where the set has too few; one Leader), taken from the deck
 * in card order, and every player 5 + K tokens. */
static foh_game *stocked(prober *p, int players, uint64_t seed, int k)
{
    foh_options opt = {.players = players, .seed = seed};
    foh_error err;
    foh_game *g = foh_game_new(p->eng, &opt, &err);
    if (!g)
        return NULL;
    if (foh_game_choice(g)) { /* a set-up choice: answer it first */
        int n = legal(p, g, &err);
        if (n <= 0 || foh_game_apply(g, &p->buf[0], &err) != FOH_OK) {
            foh_game_free(g);
            return NULL;
        }
    }
    int ncards = foh_cardset_card_count(p->cs);
    for (int t = 0; t < foh_cardset_type_count(p->cs); t++) {
        const char *place = foh_cardset_type_placement(p->cs, t);
        if (!strcmp(place, "none"))
            continue;
        int want = !strcmp(place, "single") ? 1 : k;
        for (int pl = 0; pl < players; pl++)
            for (int got = 0, c = 0; got < want && c < ncards; c++) {
                foh_card_info ci;
                if (foh_cardset_card(p->cs, c, &ci) != FOH_OK || ci.type_index != t ||
                    foh_game_card_zone(g, c, NULL) != FOH_ZONE_DECK)
                    continue;
                if (foh_position_put(g, c, FOH_ZONE_NATION, pl, &err) != FOH_OK ||
                    foh_position_set_fired(g, c, 1, &err) != FOH_OK)
                    break;
                got++;
            }
    }
    for (int pl = 0; pl < players; pl++)
        foh_position_set_tokens(g, pl, 5 + k, &err);
    return g;
}

static void make_positions(prober *p, uint64_t seed)
{
    int counts[2], n = 0, lo = foh_cardset_min_players(p->cs), hi = foh_cardset_max_players(p->cs);
    for (int c = lo; c <= hi && n < 1; c++)
        if (foh_cardset_allows_players(p->cs, c, NULL))
            counts[n++] = c;
    for (int c = hi; c >= lo && n < 2; c--)
        if (foh_cardset_allows_players(p->cs, c, NULL) && c != counts[0])
            counts[n++] = c;
    static const int turns[TURNS] = {0, 30, 90};
    for (int i = 0; i < n; i++)
        for (int t = 0; t < TURNS; t++) {
            foh_game *g = played_to(p, counts[i], seed + 7919u * (uint64_t)(i * TURNS + t), turns[t]);
            if (!g)
                continue;
            snprintf(p->what[p->npos], sizeof p->what[0], "%d players, a random game after %d turns", counts[i],
                     foh_game_turn(g));
            p->pos[p->npos++] = g;
        }
    for (int k = 1; n > 0 && k <= STOCKED; k++) {
        foh_game *g = stocked(p, counts[0], seed + 104729u * (uint64_t)k, k);
        if (!g)
            continue;
        snprintf(p->what[p->npos], sizeof p->what[0], "%d players, %d card%s of each type in every Nation",
                 counts[0], k, k == 1 ? "" : "s");
        p->pos[p->npos++] = g;
    }
}

/* ---- The probes of one card ---- */

/* CARD gained by the player to act, by Complete (its on-gain effect). */
static void probe_gain(prober *p, int card, int pos)
{
    foh_game *g = foh_game_clone(p->pos[pos]);
    if (!g)
        return;
    foh_error err;
    int me = foh_game_to_act(g), ok = me >= 0 && !foh_game_choice(g);
    int mine = ok ? foh_game_investment(g, me) : -1;
    if (ok && mine >= 0)
        ok = foh_position_put(g, mine, FOH_ZONE_BOX, -1, &err) == FOH_OK;
    if (ok && foh_game_market_size(g) >= 12) /* room for the card (FOH_MAX_MARKET) */
        ok = foh_position_put(g, foh_game_market_card(g, 0), FOH_ZONE_BOX, -1, &err) == FOH_OK;
    ok = ok && foh_position_put(g, card, FOH_ZONE_BOX, -1, &err) == FOH_OK &&
         foh_position_put(g, card, FOH_ZONE_MARKET, -1, &err) == FOH_OK &&
         foh_position_set_fired(g, card, 0, &err) == FOH_OK && foh_position_invest(g, me, card, 1, &err) == FOH_OK;
    if (ok) {
        foh_action a = {.kind = FOH_ACT_COMPLETE, .card = card, .tokens = 0, .option = -1};
        char step[200];
        snprintf(step, sizeof step, "P%d completes it", me + 1);
        try_action(p, g, &a, card, pos, step);
    }
    foh_game_free(g);
}

/* CARD in a Nation: final scoring (End Game, counting Permanent effects),
 * then every kind of turn action taken, by its owner (OPPONENT 0) or by
 * the next player (1): Turn Actions, reactions. */
static void probe_in_play(prober *p, int card, int pos, int opponent)
{
    foh_game *g = foh_game_clone(p->pos[pos]);
    if (!g)
        return;
    foh_error err;
    int to_act = foh_game_to_act(g), n = foh_game_players(g);
    int owner = opponent ? (to_act + n - 1) % n : to_act;
    if (to_act < 0 || foh_game_choice(g) || foh_position_put(g, card, FOH_ZONE_NATION, owner, &err) != FOH_OK ||
        foh_position_set_fired(g, card, 1, &err) != FOH_OK ||
        foh_position_set_tokens(g, owner, 12, &err) != FOH_OK) {
        foh_game_free(g);
        return;
    }
    foh_score sc[FOH_MAX_PLAYERS];
    foh_tiebreak tb;
    foh_game *s = foh_game_clone(g);
    if (s && foh_game_score(s, sc, &tb, &err) != FOH_OK)
        tell(p, card, pos, "scoring the game", &err);
    foh_game_free(s);
    int nl = legal(p, g, &err);
    if (nl < 0)
        tell(p, card, pos, "listing the legal actions", &err);
    /* Every action but Invest, and Invest of 1 and of all tokens in each card. */
    foh_action pick[ACTIONS_PER_RUN];
    int np = 0;
    for (int i = 0; i < nl && np < ACTIONS_PER_RUN; i++) {
        const foh_action *a = &p->buf[i];
        int last = i + 1 >= nl || p->buf[i + 1].kind != FOH_ACT_INVEST || p->buf[i + 1].card != a->card;
        if (a->kind != FOH_ACT_INVEST || a->tokens == 1 || last)
            pick[np++] = *a;
    }
    for (int i = 0; i < np; i++) {
        char desc[160], step[260];
        foh_game_describe_action(g, &pick[i], desc, sizeof desc);
        snprintf(step, sizeof step, "in P%d's Nation, P%d: %s", owner + 1, to_act + 1, desc);
        try_action(p, g, &pick[i], card, pos, step);
    }
    foh_game_free(g);
}

int probe_cards(const foh_cardset *cs, const foh_script_limits *limits, uint64_t seed,
                void (*report)(void *ctx, const char *msg, const char *core), void *ctx, probe_stats *out)
{
    memset(out, 0, sizeof *out);
    foh_error err;
    prober p = {.cs = cs, .report = report, .ctx = ctx, .rng = seed * 2654435761u + 88172645463325252ull};
    int ncards = foh_cardset_card_count(cs);
    p.eng = foh_engine_new_limited(cs, limits, &err);
    if (!p.eng) {
        report(ctx, err.msg, err.msg);
        return 0;
    }
    make_positions(&p, seed);
    foh_engine_exercised_clear(p.eng);
    size_t mlen = 0;
    for (int c = 0; c < ncards; c++) {
        foh_card_info ci;
        if (foh_cardset_card(cs, c, &ci) != FOH_OK || !ci.has_effect)
            continue;
        out->effects++;
        for (int k = 0; k < p.npos; k++) {
            if (!strcmp(ci.fires, "on_gain"))
                probe_gain(&p, c, k);
            if (strcmp(foh_cardset_type_placement(cs, ci.type_index), "none")) {
                probe_in_play(&p, c, k, 0);
                probe_in_play(&p, c, k, 1);
            }
        }
        if (foh_engine_exercised(p.eng, c)) {
            out->ran++;
            continue;
        }
        size_t n = strlen(ci.id) + 3;
        char *grown = realloc(out->missed, mlen + n);
        if (grown) {
            out->missed = grown;
            snprintf(grown + mlen, n, "%s%s", mlen ? ", " : "", ci.id);
            mlen += strlen(grown + mlen);
        }
    }
    out->positions = p.npos;
    out->actions = p.actions;
    out->options = p.options;
    for (int k = 0; k < p.npos; k++)
        foh_game_free(p.pos[k]);
    free(p.buf);
    for (int i = 0; i < p.ntold; i++)
        free(p.told[i]);
    free(p.told);
    foh_engine_free(p.eng);
    return 1;
}

/* match: the one game loop (see foh/match.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "foh/match.h"
#include "foh/ruleset.h"
#include "rng.h"

/* Room for the legal actions of most positions, so that a new buffer is
 * not listed into twice (the first time only to learn the count). */
#define LEGAL_START 256

/* *BUF with room for WANT actions; -1 with ERR set when out of memory. */
static int grow(foh_action **buf, int *cap, int want, foh_error *err)
{
    foh_action *room = realloc(*buf, (size_t)want * sizeof *room);
    if (!room) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return -1;
    }
    *buf = room;
    *cap = want;
    return 0;
}

/* The legal actions of G into *BUF, grown as needed: in full, or GROUPED
 * (foh_game_legal_grouped). Returns the entries listed; *NLEGAL receives
 * the number of legal actions. */
static int legal_into(foh_game *g, foh_action **buf, int *cap, int grouped, int *nlegal, foh_error *err)
{
    if (*cap < LEGAL_START && grow(buf, cap, LEGAL_START, err) < 0)
        return -1;
    for (;;) { /* twice at most: the second time, all fit */
        int n = grouped ? foh_game_legal_grouped(g, *buf, *cap, nlegal, err)
                        : foh_game_legal_actions(g, *buf, *cap, err);
        if (!grouped)
            *nlegal = n;
        if (n <= *cap)
            return n;
        if (grow(buf, cap, n > INT_MAX / 2 ? n : 2 * n, err) < 0)
            return -1;
    }
}

int foh_match_legal(foh_game *g, foh_action **buf, int *cap, foh_error *err)
{
    int n;
    return legal_into(g, buf, cap, 0, &n, err);
}

int foh_match_find(const foh_action *legal, int n, const foh_action *a)
{
    for (int i = 0; i < n; i++) {
        const foh_action *l = &legal[i];
        if (l->kind != a->kind)
            continue;
        int same = a->kind == FOH_ACT_CHOOSE || a->kind == FOH_ACT_CUSTOM          ? l->option == a->option
                   : a->kind == FOH_ACT_INVEST                                     ? l->card == a->card && l->tokens == a->tokens
                   : a->kind == FOH_ACT_SNIPE || a->kind == FOH_ACT_ACTIVATE       ? l->card == a->card
                                                                                   : 1;
        if (same)
            return i;
    }
    return -1;
}

void foh_match_init(foh_match *m, foh_game *g, foh_player *const *seats, const foh_observer *observers,
                     int nobservers)
{
    memset(m, 0, sizeof *m);
    m->game = g;
    m->seats = seats;
    m->observers = observers;
    m->nobservers = nobservers;
}

void foh_match_free(foh_match *m)
{
    free(m->legal);
    m->legal = NULL;
    m->cap = 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ERR's message prefixed with "P2 (greedy): ". */
static foh_status on_behalf(foh_status s, int who, const foh_player *p, foh_error *err)
{
    if (err) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        foh_error_set(err, s, "P%d (%s): %s", who + 1, p->name, msg);
    }
    return s;
}

foh_status foh_match_step(foh_match *m, foh_error *err)
{
    foh_game *g = m->game;
    if (foh_game_is_over(g))
        return foh_error_set(err, FOH_ERR_USAGE, "the game is over");
    foh_status s;
    if (!foh_game_choice(g) && !foh_game_in_bonus(g))
        for (int i = 0; i < m->nobservers; i++)
            if (m->observers[i].turn && (s = m->observers[i].turn(m->observers[i].ud, g, err)) != FOH_OK)
                return s;
    int who = foh_game_to_act(g);
    foh_player *p = m->seats[who];
    /* A player that picks without weighing each action gets the Invest
     * amounts grouped (foh_player.decide_grouped). */
    int grouped = p->decide_grouped != NULL, n, entries = legal_into(g, &m->legal, &m->cap, grouped, &n, err);
    if (entries < 0)
        return err ? err->code : FOH_ERR_SCRIPT;
    if (n == 0)
        return foh_error_set(err, FOH_ERR_ILLEGAL, "no legal action for P%d", who + 1);
    double t0 = p->instant ? 0 : now_s();
    int pick = grouped ? p->decide_grouped(p, g, m->legal, entries, n, err)
                       : p->decide(p, g, m->legal, n, NULL, 0, err);
    double seconds = p->instant ? 0 : now_s() - t0;
    if (pick < 0)
        return on_behalf(err ? err->code : FOH_ERR_SCRIPT, who, p, err);
    if (pick >= n)
        return foh_error_set(err, FOH_ERR_USAGE, "P%d (%s) picked action %d of %d legal actions (0 to %d)", who + 1,
                             p->name, pick, n, n - 1);
    foh_decision d = {.player = who, .nlegal = n, .seconds = seconds, .timed = !p->instant};
    if (!grouped)
        d.action = m->legal[pick];
    else
        foh_game_ungroup(g, m->legal, entries, pick, &d.action); /* PICK < N: found */
    for (int i = 0; i < m->nobservers; i++)
        if (m->observers[i].before && (s = m->observers[i].before(m->observers[i].ud, g, &d, err)) != FOH_OK)
            return s;
    if ((s = foh_game_apply(g, &d.action, err)) != FOH_OK) {
        /* The game is as before the action: it can still be described. */
        if (err) {
            char what[160], msg[sizeof err->msg];
            foh_game_describe_action(g, &d.action, what, sizeof what);
            snprintf(msg, sizeof msg, "%s", err->msg);
            foh_error_set(err, s, "P%d (%s) playing '%s': %s", who + 1, p->name, what, msg);
        }
        return s;
    }
    m->steps++;
    for (int i = 0; i < m->nobservers; i++)
        if (m->observers[i].after && (s = m->observers[i].after(m->observers[i].ud, g, &d, err)) != FOH_OK)
            return s;
    return FOH_OK;
}

foh_status foh_match_run(foh_match *m, long max_steps, foh_error *err)
{
    /* Turns end the game (the ruleset's turn limit; The Flow of History's
     * engine ruling E1), and a turn takes at most the ruleset's
     * decisions_per_turn. More decisions than that would be an engine bug. */
    int limit = -1;
    long bound = 0;
    for (long done = 0; !foh_game_is_over(m->game) && (max_steps <= 0 || done < max_steps); done++) {
        if (foh_game_turn_limit(m->game) != limit) { /* at the start, and after a reload changed it */
            limit = foh_game_turn_limit(m->game);
            long turns = limit - foh_game_turn(m->game) + 1;
            bound = m->steps + ((turns > 0 ? turns : 0) + 1) * foh_game_ruleset(m->game)->decisions_per_turn;
        }
        if (m->steps > bound)
            return foh_error_set(err, FOH_ERR_ILLEGAL,
                                 "the game did not end within %ld decisions despite its turn limit (an engine error)",
                                 bound);
        foh_status s = foh_match_step(m, err);
        if (s != FOH_OK)
            return s;
    }
    return FOH_OK;
}

foh_status foh_match_play(foh_game *g, foh_player *const *seats, const foh_observer *observers, int nobservers,
                          long *steps, foh_error *err)
{
    foh_match m;
    foh_match_init(&m, g, seats, observers, nobservers);
    foh_status s = foh_match_run(&m, 0, err);
    if (steps)
        *steps = m.steps;
    foh_match_free(&m);
    return s;
}

uint64_t foh_seed_for(uint64_t seed, uint64_t index) { return foh_rng_mix(seed, index); }

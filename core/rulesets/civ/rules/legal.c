/* legal: the decisions open in each phase, as the draft limits them.
 * Fate (lines 111-116): draw from any pile that is not empty. Action
 * (lines 118-140): play a card within the turn's plays, a Government only
 * as the one card of the turn (lines 43-46), one Political and one
 * Religious Leader unless a Join allows two (lines 31-39), a Wonder with
 * another card discarded (lines 56-58), a Conflict with a Troop in play
 * (line 127), an Event at its target. A Leader discarded from the hand
 * looks at a pile (lines 484-485). In a conflict the side to act adds a
 * Troop or Conflict card or holds; over the hand limit, a discard. */
#include <stdlib.h>

#include "civ.h"

static int joined(const civ_set *cs, int a, int b) { return cs->card[a].join == b || cs->card[b].join == a; }

int civ_may_place(const civ_game *g, int p, int c)
{
    const civ_set *cs = g->set;
    civ_type t = cs->card[c].type;
    if (t == CIV_RELIGIOUS) /* "You cannot play a second one", unless joined */
        for (int k = 0; k < cs->ncards; k++)
            if (g->where[k] == CIV_Z_PLAY && g->owner[k] == p && cs->card[k].type == CIV_RELIGIOUS && !joined(cs, k, c))
                return 0;
    if (t == CIV_EXPLORER && cs->rules.explorer_limit > 0 && civ_count_in_play(g, p, CIV_EXPLORER) >= cs->rules.explorer_limit)
        return 0;
    if (t == CIV_GOVERNMENT && g->plays_made > 0) /* "the one and only card you play during the turn" */
        return 0;
    if (t == CIV_CONFLICT && civ_count_in_play(g, p, CIV_TROOP) == 0) /* "at least 1 Troop in play" */
        return 0;
    return t != CIV_VICTORY;
}

static int target_matches(const civ_set *cs, int k, civ_target t)
{
    civ_type ty = cs->card[k].type;
    switch (t) {
    case CIV_TARGET_WONDER: return ty == CIV_WONDER;
    case CIV_TARGET_TROOP: return ty == CIV_TROOP;
    case CIV_TARGET_LEADER: return CIV_IS_LEADER(ty);
    case CIV_TARGET_GOVERNMENT: return ty == CIV_GOVERNMENT;
    default: return 0;
    }
}

static void add(foh_action *out, int max, int *n, foh_action_kind kind, int card, int option, int extra)
{
    if (*n < max)
        out[*n] = (foh_action){.kind = kind, .card = card, .tokens = extra, .option = option};
    (*n)++;
}

/* The ways to play card C of player P's hand. */
static void plays_of(const civ_game *g, int p, int c, foh_action *out, int max, int *n)
{
    const civ_set *cs = g->set;
    const civ_card *d = &cs->card[c];
    if (!civ_may_place(g, p, c))
        return;
    switch (d->type) {
    case CIV_WONDER: /* "you must first discard 1 other card from your hand" */
        for (int k = 0; k < cs->ncards; k++)
            if (k != c && g->where[k] == CIV_Z_HAND && g->owner[k] == p)
                add(out, max, n, CIV_PLAY, c, -1, k + 1);
        return;
    case CIV_CONFLICT: /* "Pick a target player to be the defender." */
        for (int q = 0; q < g->players; q++)
            if (q != p)
                add(out, max, n, CIV_PLAY, c, q, 0);
        return;
    case CIV_EVENT: {
        int targets = 0;
        if (d->target == CIV_TARGET_PLAYER)
            for (int q = 0; q < g->players; q++)
                if (q != p)
                    add(out, max, n, CIV_PLAY, c, q, 0), targets++;
        if (d->target != CIV_TARGET_NONE && d->target != CIV_TARGET_PLAYER)
            for (int k = 0; k < cs->ncards; k++)
                if (g->where[k] == CIV_Z_PLAY && target_matches(cs, k, d->target))
                    add(out, max, n, CIV_PLAY, c, -1, k + 1), targets++;
        if (d->target == CIV_TARGET_NONE || (targets == 0 && !cs->rules.event_needs_target))
            add(out, max, n, CIV_PLAY, c, -1, 0);
        return;
    }
    default:
        add(out, max, n, CIV_PLAY, c, -1, 0);
    }
}

static void peeks(const civ_game *g, int p, foh_action *out, int max, int *n)
{
    if (g->set->rules.peek_cards <= 0 || g->hand_leaders[p] == 0)
        return;
    for (int c = 0; c < g->set->ncards; c++)
        if (g->where[c] == CIV_Z_HAND && g->owner[c] == p && CIV_IS_LEADER(g->set->card[c].type))
            for (int j = 0; j < CIV_PILES; j++)
                if (g->npile[j] > 0)
                    add(out, max, n, CIV_PEEK, c, j, 0);
}

/* The playable ways (no END, no peeks) of the turn's player: 0 ends the
 * Action phase at once. */
int civ_playable(const civ_game *g)
{
    foh_action none[1];
    int n = 0;
    for (int c = 0; g->hand_n[g->current] > 0 && c < g->set->ncards; c++)
        if (g->where[c] == CIV_Z_HAND && g->owner[c] == g->current)
            plays_of(g, g->current, c, none, 0, &n);
    return n;
}

int civ_legal(civ_game *g, foh_action *out, int max)
{
    const civ_set *cs = g->set;
    int n = 0, p = g->current;
    switch (g->phase) {
    case CIV_PHASE_FATE:
        for (int j = 0; j < CIV_PILES; j++)
            if (g->npile[j] > 0)
                add(out, max, &n, CIV_DRAW, -1, j, 0);
        peeks(g, p, out, max, &n);
        break;
    case CIV_PHASE_ACTION:
        for (int c = 0; g->plays_left > 0 && c < cs->ncards; c++)
            if (g->where[c] == CIV_Z_HAND && g->owner[c] == p)
                plays_of(g, p, c, out, max, &n);
        peeks(g, p, out, max, &n);
        add(out, max, &n, CIV_END, -1, -1, 0);
        break;
    case CIV_PHASE_CONFLICT: {
        int q = g->side == 0 ? g->attacker : g->defender;
        for (int c = 0; c < cs->ncards; c++)
            if (g->where[c] == CIV_Z_HAND && g->owner[c] == q &&
                (cs->card[c].type == CIV_TROOP || cs->card[c].type == CIV_CONFLICT))
                add(out, max, &n, CIV_REINFORCE, c, -1, 0);
        add(out, max, &n, CIV_HOLD, -1, -1, 0);
        break;
    }
    case CIV_PHASE_DISCARD:
        for (int c = 0; c < cs->ncards; c++)
            if (g->where[c] == CIV_Z_HAND && g->owner[c] == p)
                add(out, max, &n, CIV_DISCARD, c, -1, 0);
        break;
    case CIV_PHASE_OVER:
        break;
    }
    return n;
}

int civ_is_legal(civ_game *g, const foh_action *a)
{
    foh_action legal[1];
    int n = civ_legal(g, legal, 0), ok = 0;
    foh_action *all = n > 0 ? malloc(sizeof *all * (size_t)n) : NULL;
    if (!all)
        return 0;
    civ_legal(g, all, n);
    for (int i = 0; i < n && !ok; i++)
        ok = all[i].kind == a->kind && all[i].card == a->card && all[i].option == a->option &&
             all[i].tokens == a->tokens;
    free(all);
    return ok;
}

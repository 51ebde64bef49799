/* scoring: End of Age Scoring (draft lines 161-186): each face-up Victory
 * card pays or costs X VT (3, 6, 9, 12 by age) to the player or players it
 * names; and the game's results (lines 4-6: most VT wins). Rulings: a
 * "highest" needs a level above 0; tied players all score (ties_score) or
 * none does. */
#include "civ.h"

int civ_measure_of(const civ_game *g, int p, civ_measure m)
{
    const civ_set *cs = g->set;
    if ((int)m < CIV_NATTRS)
        return civ_attribute(g, p, (civ_attr)m);
    int n = 0;
    for (int c = 0; c < cs->ncards; c++) {
        const civ_card *d = &cs->card[c];
        if (m == CIV_M_AGGRESSIONS) {
            n += g->where[c] == CIV_Z_AGGRESSION && g->owner[c] == p;
            continue;
        }
        if (g->where[c] != CIV_Z_PLAY || g->owner[c] != p)
            continue;
        n += (m == CIV_M_WONDERS && d->type == CIV_WONDER) || (m == CIV_M_ADVANCES && d->type == CIV_ADVANCE) ||
             (m == CIV_M_LEADERS && CIV_IS_LEADER(d->type)) ||
             (m == CIV_M_CURRENT_WONDERS && d->type == CIV_WONDER && d->age == g->age) ||
             (m == CIV_M_CURRENT_GOVERNMENTS && d->type == CIV_GOVERNMENT && d->age == g->age);
    }
    return n;
}

/* Which players card V names now, as bits: for the bots' standing as well
 * as for scoring. */
unsigned civ_victory_players(const civ_game *g, int v)
{
    const civ_card *d = &g->set->card[v];
    int level[FOH_MAX_PLAYERS], best = 0;
    for (int p = 0; p < g->players; p++) {
        level[p] = civ_measure_of(g, p, d->measure);
        if (p == 0 || (d->rank == CIV_RANK_HIGHEST ? level[p] > best : level[p] < best))
            best = level[p];
    }
    unsigned who = 0;
    int n = 0;
    for (int p = 0; p < g->players; p++)
        if (d->rank == CIV_RANK_NONE ? level[p] == 0 : level[p] == best && (d->rank != CIV_RANK_HIGHEST || best > 0))
            who |= 1u << p, n++;
    if (n > 1 && d->rank != CIV_RANK_NONE && !g->set->rules.ties_score)
        return 0;
    return who;
}

/* Every face-up card is scored on the position as it stands, and each
 * player's gains and losses are added up before they are applied
 * (ruling 25): the order of the cards does not matter, even where the VT
 * floor cuts a loss. */
void civ_score_age(civ_game *g)
{
    const civ_set *cs = g->set;
    int x = cs->rules.age_x[g->age], net[FOH_MAX_PLAYERS] = {0}, named[FOH_MAX_PLAYERS] = {0};
    for (int v = 0; v < cs->ncards; v++) {
        if (g->where[v] != CIV_Z_VICTORY_UP)
            continue;
        unsigned who = civ_victory_players(g, v);
        CIV_USE(g, v);
        for (int p = 0; p < g->players; p++)
            if (who >> p & 1) {
                net[p] += cs->card[v].gain ? x : -x;
                named[p] = 1;
                civ_say(g, "  %s: P%d %s %d VT", cs->card[v].label, p + 1, cs->card[v].gain ? "gains" : "loses", x);
            }
        if (!who)
            civ_say(g, "  %s: nobody", cs->card[v].label);
    }
    for (int p = 0; p < g->players; p++)
        if (named[p]) {
            int moved = net[p] >= 0 ? civ_gain(g, p, net[p]) : -civ_lose(g, p, -net[p]);
            civ_say(g, "  End of Age Scoring: P%d %+d VT (%d VT)", p + 1, moved, g->vt[p]);
        }
}

/* Most VT wins; tied players share the win (the draft names no tie-break). */
void civ_results(const civ_game *g, double *out)
{
    int best = g->vt[0], n = 0;
    for (int p = 1; p < g->players; p++)
        best = g->vt[p] > best ? g->vt[p] : best;
    for (int p = 0; p < g->players; p++)
        n += g->vt[p] == best;
    for (int p = 0; p < g->players; p++)
        out[p] = g->vt[p] == best ? 1.0 / n : 0;
}

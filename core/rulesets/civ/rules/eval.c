/* eval: the greedy and ISMCTS bots' evaluation of a position for one
 * player (docs/civ-draft.md, "The bots' evaluation", gives each term; the
 * weights are game.yaml's `bot:`, so a card set or variant may retune
 * them). A player's worth is
 *   VT
 *   + culture_turns x Culture x the turns they will still have this age
 *     (each turn pays Culture in VT at Destiny)
 *   + each attribute's weight x its level (draws, plays, hand size,
 *     strength in conflicts, Culture beyond this age)
 *   + hand x the cards held, up to the hand limit
 *   + standing x X of each face-up Victory card the player would score now
 *     (shared between tied players; negative for a loss)
 *   + conflict x the Prestige at stake in a conflict, for the side ahead
 * and the value is the player's worth minus the best opponent's; at the
 * end of the game, the VT difference plus `win` for a win (shared). */
#include "civ.h"

static double worth(const civ_game *g, int p)
{
    const civ_set *cs = g->set;
    const civ_weights *w = &cs->bot;
    int attr[CIV_NATTRS];
    for (int a = 0; a < CIV_NATTRS; a++)
        attr[a] = civ_attribute(g, p, (civ_attr)a);
    double turns = civ_deck_left(g) / (1.5 * g->players);
    double v = g->vt[p] + w->culture_turns * attr[CIV_CULTURE] * turns;
    for (int a = 0; a < CIV_NATTRS; a++)
        v += w->attr[a] * attr[a];
    int hand = civ_hand_size(g, p), limit = civ_hand_limit(g, p);
    v += w->hand * (hand < limit ? hand : limit);
    if (!g->over) {
        int x = cs->rules.age_x[g->age];
        for (int c = 0; c < cs->ncards; c++) {
            if (g->where[c] != CIV_Z_VICTORY_UP)
                continue;
            unsigned who = civ_victory_players(g, c);
            if (!(who >> p & 1))
                continue;
            int n = __builtin_popcount(who);
            v += w->standing * (cs->card[c].gain ? x : -x) / n;
        }
    }
    if (g->phase == CIV_PHASE_CONFLICT && (p == g->attacker || p == g->defender) && g->total[0] != g->total[1]) {
        int lead = g->total[0] > g->total[1] ? g->attacker : g->defender;
        double stake = w->conflict * cs->card[g->aggression].prestige;
        v += p == lead ? stake : -stake;
    }
    return v;
}

double civ_evaluate(const civ_game *g, int player)
{
    if (g->over) {
        double r[FOH_MAX_PLAYERS], best = -1e18;
        civ_results(g, r);
        for (int q = 0; q < g->players; q++)
            if (q != player && g->vt[q] > best)
                best = g->vt[q];
        return g->vt[player] - best + g->set->bot.win * r[player];
    }
    double mine = worth(g, player), best = -1e18;
    for (int q = 0; q < g->players; q++)
        if (q != player) {
            double o = worth(g, q);
            best = o > best ? o : best;
        }
    return mine - best;
}

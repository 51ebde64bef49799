/* state: what the rules and card effects read and change of a game: the
 * attributes (draft lines 72-92), counts of cards in play, hand limits,
 * moving cards between zones, Victory Tokens (with the floor ruling) and
 * the Destroy of Events ("Destroy = Discard Target Card in Play"). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "civ.h"

void civ_say(civ_game *g, const char *fmt, ...)
{
    if (!g->log)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    g->log(g->log_ud, line);
}

int civ_attribute(const civ_game *g, int p, civ_attr a) { return g->attr[p][a]; }

int civ_military(const civ_game *g, int p) { return civ_attribute(g, p, CIV_MILITARY); }

int civ_count_in_play(const civ_game *g, int p, civ_type t) { return g->in_play[p][t]; }

int civ_hand_size(const civ_game *g, int p) { return g->hand_n[p]; }

/* Card C enters (SIGN 1) or leaves (-1) the counts of its zone. */
static void count(civ_game *g, int c, int sign)
{
    const civ_card *d = &g->set->card[c];
    int p = g->owner[c];
    if (g->where[c] == CIV_Z_HAND) {
        g->hand_n[p] = (short)(g->hand_n[p] + sign);
        if (CIV_IS_LEADER(d->type))
            g->hand_leaders[p] = (short)(g->hand_leaders[p] + sign);
    }
    if (g->where[c] != CIV_Z_PLAY)
        return;
    for (int a = 0; a < CIV_NATTRS; a++)
        g->attr[p][a] += sign * d->adds[a];
    g->in_play[p][d->type] = (short)(g->in_play[p][d->type] + sign);
}

void civ_recount(civ_game *g)
{
    memset(g->attr, 0, sizeof g->attr);
    memset(g->in_play, 0, sizeof g->in_play);
    memset(g->hand_n, 0, sizeof g->hand_n);
    memset(g->hand_leaders, 0, sizeof g->hand_leaders);
    for (int c = 0; c < g->set->ncards; c++)
        count(g, c, 1);
}

/* "Max hand size is 3 cards", +1 for every 2 levels of Stability. */
int civ_hand_limit(const civ_game *g, int p)
{
    int s = civ_attribute(g, p, CIV_STABILITY);
    return g->set->rules.base_hand + (s > 0 ? s / g->set->rules.stability_per_hand : 0);
}

int civ_deck_left(const civ_game *g) { return g->npile[0] + g->npile[1] + g->npile[2]; }

void civ_move(civ_game *g, int c, civ_zone z, int p)
{
    count(g, c, -1);
    if (g->where[c] == CIV_Z_PILE)
        for (int j = 0; j < CIV_PILES; j++)
            for (int i = 0; i < g->npile[j]; i++)
                if (g->pile[j][i] == c) {
                    for (int k = i + 1; k < g->npile[j]; k++)
                        g->pile[j][k - 1] = g->pile[j][k];
                    g->npile[j]--;
                    break;
                }
    g->where[c] = (unsigned char)z;
    g->owner[c] = (unsigned char)(p < 0 ? 0 : p);
    g->fresh[c] = 0;
    count(g, c, 1);
    if (z != CIV_Z_HAND && z != CIV_Z_PILE && z != CIV_Z_AGE_DECK && z != CIV_Z_VICTORY_DECK)
        g->seen[c] = 0xFF; /* in play, kept or discarded: public */
}

int civ_gain(civ_game *g, int p, int n)
{
    if (n <= 0)
        return n < 0 ? -civ_lose(g, p, -n) : 0;
    g->vt[p] = g->vt[p] > 1000000 - n ? 1000000 : g->vt[p] + n; /* a bound, far above any game's */
    return n;
}

int civ_lose(civ_game *g, int p, int n)
{
    if (n <= 0)
        return n < 0 ? -civ_gain(g, p, -n) : 0;
    if (g->set->rules.vt_floor && n > g->vt[p]) /* ruling: no VT below 0; a loss takes what there is */
        n = g->vt[p] > 0 ? g->vt[p] : 0;
    g->vt[p] = g->vt[p] < -1000000 + n ? -1000000 : g->vt[p] - n;
    return n;
}

int civ_steal(civ_game *g, int from, int to, int n)
{
    int taken = civ_lose(g, from, n);
    civ_gain(g, to, taken);
    return taken;
}

int civ_destroy(civ_game *g, int c)
{
    if (c < 0 || c >= g->set->ncards || g->where[c] != CIV_Z_PLAY)
        return 0;
    civ_say(g, "  %s of P%d is destroyed", g->set->card[c].label, g->owner[c] + 1);
    civ_move(g, c, CIV_Z_DISCARD, -1);
    return 1;
}

void civ_discard_hand(civ_game *g, int p)
{
    int n = 0;
    for (int c = 0; c < g->set->ncards; c++)
        if (g->where[c] == CIV_Z_HAND && g->owner[c] == p) {
            civ_move(g, c, CIV_Z_DISCARD, -1);
            n++;
        }
    if (n)
        civ_say(g, "  P%d discards their hand (%d card%s)", p + 1, n, n == 1 ? "" : "s");
}

foh_status civ_rebind(civ_game *g, const civ_engine *eng, foh_error *err)
{
    const civ_set *old = g->set, *cs = eng->set;
    if (cs->ncards != old->ncards)
        return foh_error_set(err, FOH_ERR_DATA, "the card set now has %d cards, not %d: cards cannot be added or "
                                                "removed during a game", cs->ncards, old->ncards);
    for (int c = 0; c < cs->ncards; c++)
        if (strcmp(cs->card[c].id, old->card[c].id) || cs->card[c].type != old->card[c].type ||
            cs->card[c].age != old->card[c].age)
            return foh_error_at(err, FOH_ERR_DATA, cs->card[c].file, cs->card[c].line, 0,
                                "card '%s': a card's id, type, age or place in the files cannot change during a game "
                                "(it was '%s')", cs->card[c].id, old->card[c].id);
    if (g->players < cs->min_players || g->players > cs->max_players)
        return foh_error_set(err, FOH_ERR_DATA, "the card set is now played by %d to %d players, not %d",
                             cs->min_players, cs->max_players, g->players);
    g->head = eng->head;
    g->eng = eng;
    g->set = cs;
    civ_recount(g); /* the cards' numbers may have changed */
    return FOH_OK;
}

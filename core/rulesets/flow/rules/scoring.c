/* scoring: final scoring and tie-breaks (rulebook "End of Game"; default
 * rulings 7 and 8). */
#include <stddef.h>
#include <string.h>

#include "effects.h"
#include "memo.h"
#include "nation.h"

static void add_end(foh_score *s, const foh_cardset *cs, int card, const int gained[FOH_MAX_ICONS])
{
    if (s->n_end >= FOH_MAX_END_EFFECTS)
        return;
    s->end[s->n_end].card = card;
    s->end[s->n_end].full_vp = foh_nation_sum(cs, gained, cs->full_vp_icons) * cs->vp_per_full_icon;
    s->end[s->n_end].other_icons = foh_nation_sum(cs, gained, ~cs->full_vp_icons);
    s->other_icons += s->end[s->n_end].other_icons;
    s->total += s->end[s->n_end].full_vp;
    s->n_end++;
}

/* The score of player P, tokens aside (see score_player). */
static foh_status score_nation(foh_game *g, int p, foh_score *s, foh_error *err)
{
    const foh_cardset *cs = g->eng->cs;
    int icons[FOH_MAX_ICONS];
    memset(s, 0, offsetof(foh_score, end)); /* the entries are written up to n_end */
    /* 1. obsolete effects are off (g->scoring); 2-3. icons. */
    foh_status st = foh_nation_icons(g, p, icons, err);
    if (st != FOH_OK)
        return st;
    s->culture_icons = foh_nation_sum(cs, icons, cs->full_vp_icons);
    s->other_icons = foh_nation_sum(cs, icons, ~cs->full_vp_icons);
    /* 4. End Game effects, all reading the same snapshot of the Nation. */
    for (int c = foh_nation_next(&g->st, p, 0); c >= 0; c = foh_nation_next(&g->st, p, c + 1)) {
        if (cs->timing[cs->card[c].timing].fire != FOH_FIRE_END_GAME || !foh_nation_visible(g, c) ||
            cs->card[c].obsolete)
            continue;
        int gained[FOH_MAX_ICONS];
        if ((st = foh_lua_end_game(g, c, p, gained, err)) != FOH_OK)
            return st;
        add_end(s, cs, c, gained);
    }
    /* A variant's scoring hooks count like End Game effects. */
    int gained[FOH_MAX_ICONS];
    int any = 0;
    if ((st = foh_lua_scoring_hooks(g, p, gained, &any, err)) != FOH_OK)
        return st;
    if (any)
        add_end(s, cs, -1, gained);
    s->culture_vp = s->culture_icons * cs->vp_per_full_icon;
    s->other_vp = s->other_icons / cs->other_icons_per_vp;
    s->total += s->culture_vp + s->other_vp;
    s->cards = foh_nation_total(g, p);
    return FOH_OK;
}

/* The bytes of a score the memo keeps: its fields and up to 32 end-game
 * entries (a score with more is computed each time), not room for every
 * card of the largest card set. */
#define SCORE_KEPT (offsetof(foh_score, end) + 32 * sizeof(((foh_score *)0)->end[0]))

/* The score of player P: remembered (memo.h) when the Nations its End Game
 * effects read have not changed. */
static foh_status score_player(foh_game *g, int p, foh_score *s, foh_error *err)
{
    foh_engine *e = g->eng;
    if (!foh_memo_find(g, FOH_MEMO_SCORE, p, s, SCORE_KEPT, NULL)) {
        foh_memo_reads outer, mine;
        foh_memo_begin(e, &outer);
        foh_memo_note(e, 1u << p);
        foh_status st = score_nation(g, p, s, err);
        foh_memo_end(e, &outer, &mine);
        if (st != FOH_OK)
            return st;
        if (FOH_SCORE_USED(s) <= SCORE_KEPT)
            foh_memo_keep(g, FOH_MEMO_SCORE, p, &mine, s, SCORE_KEPT, FOH_SCORE_USED(s));
    }
    s->tokens = g->st.tokens[p];
    return FOH_OK;
}

/* Scoring G: obsolete effects off, and icon counts kept (see foh_engine). */
static void scoring_begin(foh_game *g)
{
    g->scoring = 1;
    g->eng->icons_game = g;
    g->eng->icons_have = 0;
}

static void scoring_end(foh_game *g)
{
    g->scoring = 0;
    g->eng->icons_game = NULL;
}

foh_status foh_game_score_player(foh_game *g, int player, foh_score *out, foh_error *err)
{
    if (player < 0 || player >= g->st.players)
        return foh_error_set(err, FOH_ERR_USAGE, "no player %d", player + 1);
    scoring_begin(g);
    foh_status st = score_player(g, player, out, err);
    scoring_end(g);
    return st;
}

foh_status foh_game_score(foh_game *g, foh_score *out, foh_tiebreak *tiebreak, foh_error *err)
{
    int n = g->st.players;
    foh_status st = FOH_OK;
    scoring_begin(g);
    for (int p = 0; p < n && st == FOH_OK; p++)
        st = score_player(g, p, &out[p], err);
    scoring_end(g);
    if (st != FOH_OK)
        return st;
    /* Most VP; ties: rules.tie_break (most cards in the Nation, then most tokens), then shared. */
    int best = -1;
    for (int p = 0; p < n; p++)
        if (out[p].total > best)
            best = out[p].total;
    int alive[FOH_MAX_PLAYERS], nalive = 0;
    for (int p = 0; p < n; p++)
        if (out[p].total == best)
            alive[nalive++] = p;
    /* rules.tie_break: the criteria after VP, in order; then shared. */
    foh_tiebreak tb = FOH_TIE_NONE;
    const foh_cardset *cs = g->eng->cs;
    for (int round = 0; round < cs->ntie_break && nalive > 1; round++) {
        int by_cards = cs->tie_break[round] == FOH_TIE_CARDS, top = -1, k = 0;
        for (int i = 0; i < nalive; i++) {
            int v = by_cards ? out[alive[i]].cards : out[alive[i]].tokens;
            if (v > top)
                top = v;
        }
        for (int i = 0; i < nalive; i++)
            if ((by_cards ? out[alive[i]].cards : out[alive[i]].tokens) == top)
                alive[k++] = alive[i];
        tb = k > 1 ? FOH_TIE_SHARED : (foh_tiebreak)cs->tie_break[round];
        nalive = k;
    }
    if (nalive > 1)
        tb = FOH_TIE_SHARED;
    for (int i = 0; i < nalive; i++)
        out[alive[i]].winner = 1;
    if (tiebreak)
        *tiebreak = tb;
    return FOH_OK;
}

/* turn: applying a decision and everything that follows by itself: the
 * four phases (draft lines 104-159: Fate, Action, Destiny, End), a conflict
 * and its rounds of reinforcement (lines 126-140), Boons (line 204), the
 * end of an age (lines 147-166) and of the game (lines 5-6). An action is
 * all or nothing: a failing effect leaves the game as it was. */
#include <string.h>

#include "civ.h"

static void end_turn(civ_game *g);

static const char *label(const civ_game *g, int c) { return g->set->card[c].label; }

/* Fate: "Draw 1 card ... For every 3 levels of Vitality ... 1 extra". */
void civ_start_turn(civ_game *g)
{
    const civ_rules *r = &g->set->rules;
    int v = civ_attribute(g, g->current, CIV_VITALITY);
    g->phase = CIV_PHASE_FATE;
    g->draws_left = r->base_draws + (v > 0 ? v / r->vitality_per_draw : 0);
    g->plays_made = 0;
    g->announced = 0; /* the turn's first line waits for its first action: a new game's log sink comes later */
    memset(g->fresh, 0, sizeof g->fresh);
}

static void announce(civ_game *g)
{
    if (g->announced)
        return;
    g->announced = 1;
    civ_say(g, "Turn %d (%s age): P%d to play, %d VT", g->turn + 1, g->set->age_name[g->age], g->current + 1,
            g->vt[g->current]);
}

/* The End phase and the turn's end; Destiny first: "For every level of
 * Culture you have you gain 1 Victory Token." */
static void finish_actions(civ_game *g)
{
    int c = civ_attribute(g, g->current, CIV_CULTURE);
    if (c > 0) {
        civ_gain(g, g->current, c);
        civ_say(g, "  Destiny: P%d gains %d VT for Culture (%d VT)", g->current + 1, c, g->vt[g->current]);
    }
    if (civ_hand_size(g, g->current) > civ_hand_limit(g, g->current))
        g->phase = CIV_PHASE_DISCARD;
    else
        end_turn(g);
}

/* Whether the turn's player may still discard a Leader to look at a pile
 * (ruling 19: in the Fate or the Action phase): the Action phase then
 * waits for its end to be chosen. */
static int may_peek(const civ_game *g)
{
    return g->set->rules.peek_cards > 0 && g->hand_leaders[g->current] > 0 && civ_deck_left(g) > 0;
}

/* Move on while nothing is left to decide. */
void civ_advance(civ_game *g)
{
    for (;;) {
        if (g->phase == CIV_PHASE_FATE && (g->draws_left <= 0 || civ_deck_left(g) == 0)) {
            int r = civ_attribute(g, g->current, CIV_RESOURCES);
            g->phase = CIV_PHASE_ACTION;
            g->plays_left = g->set->rules.base_plays + (r > 0 ? r / g->set->rules.resources_per_play : 0);
            continue;
        }
        if (g->phase == CIV_PHASE_ACTION && (g->plays_left <= 0 || civ_playable(g) == 0) && !may_peek(g)) {
            finish_actions(g);
            continue;
        }
        return;
    }
}

/* ---- the end of an age ---- */

static void discard_age(civ_game *g)
{
    const civ_set *cs = g->set;
    for (int p = 0; p < g->players; p++)
        civ_discard_hand(g, p); /* "Players discard their hands." */
    for (int c = 0; c < cs->ncards; c++) {
        if (g->where[c] != CIV_Z_PLAY)
            continue;
        /* "All current Leaders in play are discarded." ... "Cards older
         * then that are discarded." (ruling keep_ages: the ages kept) */
        if (CIV_IS_LEADER(cs->card[c].type) || cs->card[c].age <= g->age - cs->rules.keep_ages) {
            civ_say(g, "  %s of P%d is discarded", label(g, c), g->owner[c] + 1);
            civ_move(g, c, CIV_Z_DISCARD, -1);
        }
    }
}

static void end_age(civ_game *g)
{
    do {
        civ_say(g, "End of the %s age", g->set->age_name[g->age]);
        /* "Do this at the end of each Age": the Modern age's end discards
         * as the others' do, so the final table is the position the
         * procedure leaves (ruling 27; final_discards 0: only the
         * Aggression cards go, the rest stays in the final table). */
        int discards = g->age + 1 < CIV_AGES || g->set->rules.final_discards;
        if (g->set->rules.score_first)
            civ_score_age(g);
        if (discards)
            discard_age(g);
        if (!g->set->rules.score_first)
            civ_score_age(g);
        for (int c = 0; c < g->set->ncards; c++) /* "After scoring discard Aggression cards." */
            if (g->where[c] == CIV_Z_AGGRESSION)
                civ_move(g, c, CIV_Z_DISCARD, -1);
        if (++g->age == CIV_AGES) {
            g->over = 1;
            g->phase = CIV_PHASE_OVER;
            memset(g->npile, 0, sizeof g->npile);
            civ_say(g, "The game is over");
            return;
        }
        civ_turn_up_victory(g);
        civ_deal_age(g);
    } while (civ_deck_left(g) == 0); /* an age without cards ends at once */
}

static void end_turn(civ_game *g)
{
    if (g->drew_last || civ_deck_left(g) == 0)
        end_age(g);
    g->turn++;
    if (g->over)
        return;
    g->current = (g->current + 1) % g->players;
    civ_start_turn(g);
}

/* ---- a conflict ---- */

static int side_player(const civ_game *g, int side) { return side == 0 ? g->attacker : g->defender; }

static int has_reinforcement(const civ_game *g, int p)
{
    for (int c = 0; c < g->set->ncards; c++)
        if (g->where[c] == CIV_Z_HAND && g->owner[c] == p &&
            (g->set->card[c].type == CIV_TROOP || g->set->card[c].type == CIV_CONFLICT))
            return 1;
    return 0;
}

static void resolve_conflict(civ_game *g)
{
    const civ_card *x = &g->set->card[g->aggression];
    civ_say(g, "  %s: P%d %d against P%d %d", x->label, g->attacker + 1, g->total[0], g->defender + 1, g->total[1]);
    if (g->total[0] == g->total[1]) { /* "If tied, neither player wins; discard the Aggression card." */
        civ_say(g, "  a tie: %s is discarded", x->label);
        civ_move(g, g->aggression, CIV_Z_DISCARD, -1);
    } else {
        int w = g->total[0] > g->total[1] ? g->attacker : g->defender, l = w == g->attacker ? g->defender : g->attacker;
        int taken = civ_steal(g, l, w, x->prestige);
        civ_say(g, "  P%d wins and takes %d VT from P%d, keeping %s (%d VT against %d)", w + 1, taken, l + 1, x->label,
                g->vt[w], g->vt[l]);
        civ_move(g, g->aggression, CIV_Z_AGGRESSION, w);
        g->conflicts_won[w]++;
    }
    g->aggression = -1;
    g->phase = CIV_PHASE_ACTION;
}

/* Who adds next, and whether the conflict is over: "The player with the
 * lower Total may discard ... The other player may do likewise. This
 * continues until both players pass." A side without a Troop or Conflict
 * card in hand passes by itself. */
static void conflict_advance(civ_game *g)
{
    int lower_only = g->set->rules.reinforce_lower_only;
    for (;;) {
        if (g->passes >= (lower_only ? 1 : 2)) {
            resolve_conflict(g);
            return;
        }
        if (has_reinforcement(g, side_player(g, g->side)))
            return;
        g->passes++;
        g->side = 1 - g->side;
    }
}

static void start_conflict(civ_game *g, int c, int defender)
{
    const civ_card *x = &g->set->card[c];
    civ_move(g, c, CIV_Z_BOX, -1);
    g->seen[c] = 0xFF;
    g->aggression = c;
    g->attacker = g->current;
    g->defender = defender;
    g->total[0] = civ_military(g, g->attacker) + x->bonus;
    g->total[1] = civ_military(g, defender);
    g->side = g->total[0] < g->total[1] ? 0 : 1; /* the lower total first; a tie: the defender (ruling) */
    g->passes = 0;
    g->phase = CIV_PHASE_CONFLICT;
    civ_say(g, "  P%d starts %s against P%d (prestige %d): %d against %d", g->attacker + 1, x->label, defender + 1,
            x->prestige, g->total[0], g->total[1]);
    conflict_advance(g);
}

static void conflict_step(civ_game *g, const foh_action *a)
{
    int p = side_player(g, g->side);
    if (a->kind == CIV_REINFORCE) {
        CIV_USE(g, a->card);
        g->total[g->side] += g->set->card[a->card].bonus;
        civ_move(g, a->card, CIV_Z_DISCARD, -1);
        civ_say(g, "  P%d adds %s (+%d): %d against %d", p + 1, label(g, a->card), g->set->card[a->card].bonus,
                g->total[0], g->total[1]);
        g->passes = 0;
    } else {
        civ_say(g, "  P%d holds", p + 1);
        g->passes++;
    }
    if (g->set->rules.reinforce_lower_only)
        g->side = g->total[0] < g->total[1] ? 0 : 1;
    else
        g->side = 1 - g->side;
    conflict_advance(g);
}

/* ---- playing a card ---- */

/* "B = Boon: Gain 3 VT if you also play the indicated card": paid when
 * the pair is in play together, the second of them just played (ruling;
 * boon_same_turn: both played this turn). */
static void boons(civ_game *g, int p, int c)
{
    const civ_set *cs = g->set;
    for (int k = 0; k < cs->ncards; k++) {
        if (k == c || g->where[k] != CIV_Z_PLAY || g->owner[k] != p || (cs->rules.boon_same_turn && !g->fresh[k]))
            continue;
        if (cs->card[c].boon == k || cs->card[k].boon == c) {
            civ_gain(g, p, cs->rules.boon_vt);
            civ_say(g, "  Boon: %s with %s, P%d gains %d VT", label(g, c), label(g, k), p + 1, cs->rules.boon_vt);
        }
    }
}

/* Put card C into play for P, with the limits of its kind: a second
 * Political Leader or Government discards the first (unless joined). */
static void place(civ_game *g, int p, int c)
{
    const civ_set *cs = g->set;
    civ_type t = cs->card[c].type;
    if (t == CIV_POLITICAL || t == CIV_GOVERNMENT || t == CIV_RELIGIOUS)
        for (int k = 0; k < cs->ncards; k++)
            if (g->where[k] == CIV_Z_PLAY && g->owner[k] == p && cs->card[k].type == t && cs->card[k].join != c &&
                cs->card[c].join != k) {
                civ_say(g, "  %s replaces %s", label(g, c), label(g, k));
                civ_move(g, k, CIV_Z_DISCARD, -1);
            }
    civ_move(g, c, CIV_Z_PLAY, p);
    g->fresh[c] = 1;
    boons(g, p, c);
}

static foh_status play(civ_game *g, const foh_action *a, foh_error *err)
{
    const civ_card *d = &g->set->card[a->card];
    int p = g->current;
    g->plays_left--;
    g->plays_made++;
    CIV_USE(g, a->card);
    if (a->tokens > 0)
        CIV_USE(g, a->tokens - 1);
    switch (d->type) {
    case CIV_CONFLICT:
        start_conflict(g, a->card, a->option);
        return FOH_OK;
    case CIV_EVENT: {
        civ_move(g, a->card, CIV_Z_DISCARD, -1); /* "take effect and are then discarded" */
        return g->eng->fx->event(g->eng, g, a->card, p, a->tokens - 1, a->option, err);
    }
    case CIV_WONDER:
        civ_move(g, a->tokens - 1, CIV_Z_DISCARD, -1);
        break;
    case CIV_GOVERNMENT: /* "it must be the one and only card you play during the turn" */
        g->plays_left = 0;
        break;
    default:
        break;
    }
    place(g, p, a->card);
    return FOH_OK;
}

static void peek(civ_game *g, const foh_action *a)
{
    int j = a->option, p = g->current, n = g->set->rules.peek_cards;
    civ_move(g, a->card, CIV_Z_DISCARD, -1);
    CIV_USE(g, a->card);
    for (int i = 0; i < n && i < g->npile[j]; i++)
        g->seen[g->pile[j][g->npile[j] - 1 - i]] |= (unsigned char)(1u << p);
    civ_say(g, "  P%d discards %s to look at the next %d cards of pile %d", p + 1, label(g, a->card),
            n < g->npile[j] ? n : g->npile[j], j + 1);
}

static void draw(civ_game *g, int j)
{
    int c = g->pile[j][g->npile[j] - 1], p = g->current;
    int face_up = j < g->set->rules.face_up_piles;
    civ_move(g, c, CIV_Z_HAND, p);
    g->seen[c] |= (unsigned char)(face_up ? 0xFF : 1u << p);
    g->draws_left--;
    if (face_up)
        civ_say(g, "  P%d draws %s from pile %d", p + 1, label(g, c), j + 1);
    else
        civ_say(g, "  P%d draws from pile %d (face down)", p + 1, j + 1);
    if (civ_deck_left(g) == 0) {
        g->drew_last = 1; /* "At the end of the turn in which the last card is drawn ... the current age ends." */
        civ_say(g, "  the %s deck is used up: the age ends with this turn", g->set->age_name[g->age]);
    }
    civ_reveal_tops(g);
}

static void describe_for_log(civ_game *g, const foh_action *a)
{
    char what[200];
    civ_describe(g, a, what, sizeof what);
    int who = g->phase == CIV_PHASE_CONFLICT ? side_player(g, g->side) : g->current;
    if (a->kind == CIV_PLAY || a->kind == CIV_END || a->kind == CIV_DISCARD)
        civ_say(g, "  P%d: %s", who + 1, what);
}

foh_status civ_apply(civ_game *g, const foh_action *a, foh_error *err)
{
    if (g->over)
        return foh_error_set(err, FOH_ERR_ILLEGAL, "the game is over");
    if (!civ_is_legal(g, a)) {
        char what[200];
        civ_describe(g, a, what, sizeof what);
        return foh_error_set(err, FOH_ERR_ILLEGAL, "P%d cannot %s now", (g->phase == CIV_PHASE_CONFLICT ? side_player(g, g->side) : g->current) + 1, what);
    }
    civ_game before;
    memcpy(&before, g, sizeof before);
    announce(g);
    describe_for_log(g, a);
    foh_status s = FOH_OK;
    if (a->kind == CIV_DRAW)
        draw(g, a->option);
    else if (a->kind == CIV_PEEK)
        peek(g, a);
    else if (a->kind == CIV_PLAY)
        s = play(g, a, err);
    else if (a->kind == CIV_END)
        finish_actions(g);
    else if (a->kind == CIV_REINFORCE || a->kind == CIV_HOLD)
        conflict_step(g, a);
    else if (a->kind == CIV_DISCARD) {
        civ_move(g, a->card, CIV_Z_DISCARD, -1);
        if (civ_hand_size(g, g->current) <= civ_hand_limit(g, g->current))
            end_turn(g);
    }
    if (s != FOH_OK) {
        foh_log_fn log = g->log;
        void *ud = g->log_ud;
        memcpy(g, &before, sizeof *g);
        g->log = log;
        g->log_ud = ud;
        return s;
    }
    civ_advance(g);
    return FOH_OK;
}

/* view: the actions' names (for logs, humans, saves and scenarios), what
 * one seat sees (its own hand; the others' hand sizes and the cards they
 * drew face up; the piles' face-up tops and what a Leader showed it), the
 * score lines and the digest. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "civ.h"

static int valid_card(const civ_game *g, int c) { return c >= 0 && c < g->set->ncards; }

void civ_describe(const civ_game *g, const foh_action *a, char *buf, size_t len)
{
    const civ_set *cs = g->set;
    const char *name = valid_card(g, a->card) ? cs->card[a->card].label : NULL;
    int extra = a->tokens - 1;
    if (a->kind == CIV_DRAW && a->option >= 0 && a->option < CIV_PILES)
        snprintf(buf, len, "draw from pile %d", a->option + 1);
    else if (a->kind == CIV_PLAY && name && cs->card[a->card].type == CIV_WONDER && valid_card(g, extra))
        snprintf(buf, len, "play %s, discarding %s", name, cs->card[extra].label);
    else if (a->kind == CIV_PLAY && name && valid_card(g, extra))
        snprintf(buf, len, "play %s on %s of P%d", name, cs->card[extra].label, g->owner[extra] + 1);
    else if (a->kind == CIV_PLAY && name && cs->card[a->card].type == CIV_CONFLICT && a->option >= 0)
        snprintf(buf, len, "play %s against P%d", name, a->option + 1);
    else if (a->kind == CIV_PLAY && name && a->option >= 0)
        snprintf(buf, len, "play %s on P%d", name, a->option + 1);
    else if (a->kind == CIV_PLAY && name)
        snprintf(buf, len, "play %s", name);
    else if (a->kind == CIV_PEEK && name && a->option >= 0 && a->option < CIV_PILES)
        snprintf(buf, len, "discard %s to look at pile %d", name, a->option + 1);
    else if (a->kind == CIV_END)
        snprintf(buf, len, "end the Action phase");
    else if (a->kind == CIV_REINFORCE && name)
        snprintf(buf, len, "add %s to the conflict", name);
    else if (a->kind == CIV_HOLD)
        snprintf(buf, len, "hold");
    else if (a->kind == CIV_DISCARD && name)
        snprintf(buf, len, "discard %s", name);
    else
        snprintf(buf, len, "(not an action)");
}

typedef struct {
    char *buf;
    size_t len, at; /* at: the length the whole text needs */
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->at < t->len ? t->buf + t->at : NULL, t->at < t->len ? t->len - t->at : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->at += (size_t)n;
}

static const char *const phase_names[] = {"Fate", "Action", "Conflict", "End (discard)", "over"};

/* Whether VIEWER knows card C: a player what it has seen; a spectator (-1)
 * what every player has seen (a card drawn face up, shown, played). */
static int knows(const civ_game *g, int c, int viewer)
{
    unsigned all = (1u << g->players) - 1;
    return viewer >= 0 ? g->seen[c] >> viewer & 1 : (g->seen[c] & all) == all;
}

/* The cards of zone Z owned by P that VIEWER knows (ANY: every one, the
 * zone being public), as ", "-separated labels. */
static int list(const civ_game *g, text *t, civ_zone z, int p, int viewer, int any)
{
    int n = 0;
    for (int c = 0; c < g->set->ncards; c++)
        if (g->where[c] == z && (z == CIV_Z_VICTORY_UP || g->owner[c] == p) && (any || knows(g, c, viewer)))
            put(t, "%s%s", n++ ? ", " : "", g->set->card[c].label);
    return n;
}

static void observe_piles(const civ_game *g, text *t, int player)
{
    for (int j = 0; j < CIV_PILES; j++) {
        int up = j < g->set->rules.face_up_piles;
        put(t, "pile %d (%s): %d cards", j + 1, up ? "face up" : "face down", g->npile[j]);
        int known = 0;
        for (int i = g->npile[j] - 1; i >= 0 && knows(g, g->pile[j][i], player); i--)
            put(t, "%s%s", known++ ? ", " : (up && i == g->npile[j] - 1 ? "; top " : "; you know next "),
                g->set->card[g->pile[j][i]].label);
        put(t, "\n");
    }
}

int civ_observe(const civ_game *g, int player, char *buf, size_t len)
{
    const civ_set *cs = g->set;
    text t = {buf, len, 0};
    if (len)
        buf[0] = 0;
    if (player >= 0)
        put(&t, "you: P%d\n", player + 1);
    else
        put(&t, "you: spectator\n");
    if (g->over)
        put(&t, "the game is over\n");
    else
        put(&t, "age: %s (X = %d), turn %d: P%d to play, %s phase\n", cs->age_name[g->age], cs->rules.age_x[g->age],
            g->turn + 1, g->current + 1, phase_names[g->phase]);
    if (g->phase == CIV_PHASE_FATE)
        put(&t, "draws left: %d\n", g->draws_left);
    if (g->phase == CIV_PHASE_ACTION)
        put(&t, "plays left: %d\n", g->plays_left);
    if (g->phase == CIV_PHASE_CONFLICT)
        put(&t, "conflict: %s, P%d (%d) against P%d (%d), P%d to add or hold\n", cs->card[g->aggression].label,
            g->attacker + 1, g->total[0], g->defender + 1, g->total[1], (g->side ? g->defender : g->attacker) + 1);
    observe_piles(g, &t, player);
    put(&t, "Victory cards: ");
    list(g, &t, CIV_Z_VICTORY_UP, 0, -1, 1);
    put(&t, "\n");
    for (int p = 0; p < g->players; p++) {
        put(&t, "P%d: %d VT; Vitality %d, Resources %d, Stability %d, Military %d, Culture %d; hand %d of %d", p + 1,
            g->vt[p], civ_attribute(g, p, CIV_VITALITY), civ_attribute(g, p, CIV_RESOURCES),
            civ_attribute(g, p, CIV_STABILITY), civ_attribute(g, p, CIV_MILITARY), civ_attribute(g, p, CIV_CULTURE),
            civ_hand_size(g, p), civ_hand_limit(g, p));
        put(&t, p == player ? "\n  hand: " : "\n  known in hand: ");
        if (!list(g, &t, CIV_Z_HAND, p, player, 0))
            put(&t, "-");
        put(&t, "\n  in play: ");
        if (!list(g, &t, CIV_Z_PLAY, p, -1, 1))
            put(&t, "-");
        put(&t, "\n  Aggression cards: ");
        if (!list(g, &t, CIV_Z_AGGRESSION, p, -1, 1))
            put(&t, "-");
        put(&t, "\n");
    }
    return (int)t.at;
}

int civ_score_lines(const civ_game *g, int player, foh_score_line *out, int max)
{
    int n = 0;
    const char *labels[] = {"Victory Tokens", "Vitality", "Resources", "Stability", "Military", "Culture",
                            "Aggression cards", "Conflicts won"};
    double values[8] = {g->vt[player]};
    for (int a = 0; a < CIV_NATTRS; a++)
        values[1 + a] = civ_attribute(g, player, (civ_attr)a);
    values[6] = civ_measure_of(g, player, CIV_M_AGGRESSIONS);
    values[7] = g->conflicts_won[player];
    for (; n < max && n < 8; n++) {
        snprintf(out[n].label, sizeof out[n].label, "%s", labels[n]);
        out[n].value = values[n];
    }
    return n;
}

uint64_t civ_digest(const civ_game *g)
{
    const unsigned char *b = (const unsigned char *)&g->rng;
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the position, from rng on */
    for (size_t i = 0; i < sizeof(civ_game) - offsetof(civ_game, rng); i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

int civ_describe_card(const civ_set *cs, int card, char *name, size_t namelen, char *buf, size_t len)
{
    text t = {buf, len, 0};
    if (len)
        buf[0] = 0;
    if (namelen)
        name[0] = 0;
    if (card < 0 || card >= cs->ncards)
        return 0;
    const civ_card *c = &cs->card[card];
    snprintf(name, namelen, "%s", c->label);
    if (c->type == CIV_VICTORY) {
        put(&t, "Victory card: the %s %s %s X VT at each age's end", civ_rank_names[c->rank],
            civ_measure_names[c->measure], c->gain ? "gains" : "loses");
        return 1;
    }
    put(&t, "%s%s, %s age.", civ_type_names[c->type], CIV_IS_LEADER(c->type) ? " Leader" : "",
        c->age >= 0 && c->age < CIV_AGES ? cs->age_name[c->age] : "?");
    for (int a = 0, any = 0; a < CIV_NATTRS; a++)
        if (c->adds[a])
            put(&t, "%s %s %+d", any++ ? "," : "", civ_attr_names[a], c->adds[a]);
    if (c->bonus)
        put(&t, " Military Bonus %d.", c->bonus);
    if (c->prestige)
        put(&t, " Prestige Value %d.", c->prestige);
    if (c->boon >= 0)
        put(&t, " Boon: %s.", cs->card[c->boon].label);
    if (c->join >= 0)
        put(&t, " Join: %s.", cs->card[c->join].label);
    if (c->target != CIV_TARGET_NONE)
        put(&t, " Targets a %s.", civ_target_names[c->target]);
    return 1;
}

int civ_legend(char *buf, size_t len)
{
    return snprintf(buf, len, "VT: Victory Tokens, the score\n"
                              "Vitality: +1 draw per 3\nResources: +1 play per 4\nStability: +1 hand limit per 2\n"
                              "Military: strength in a Conflict\nCulture: Destiny VT\n"
                              "Military Bonus: what a Troop adds in a Conflict\n"
                              "Prestige Value: what winning a Conflict is worth\n"
                              "Boon: VT when both cards are in play\nJoin: a card that joins another\n"
                              "known in hand: cards of another hand you have seen\n"
                              "face down pile: its cards are hidden until drawn\n");
}

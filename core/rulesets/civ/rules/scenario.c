/* scenario: the position a scenario starts from (its `setup:` map), so that
 * a scenario pins one rule of the draft in a few actions:
 *
 *   setup:
 *     age: Medieval            # the age being played (its deck dealt afresh)
 *     current: 2               # whose turn it is
 *     phase: action            # fate (the default) or action
 *     vt: {1: 4, 2: 10}
 *     hands: {1: [caesar, warriors]}      # each listed hand replaced
 *     in_play: {1: [great_wall], 2: [archers]}
 *     aggressions: {2: [attack]}
 *     pile_sizes: {1: 0, 2: 0, 3: 1}      # each pile cut to its top N cards (the rest discarded,
 *                                         # as if drawn earlier in the age): an age near its end
 *     piles: {1: [music, pottery]}        # put on top of the pile, the last on top
 *     victory: [military_high, culture_low] # the face-up Victory cards
 *
 * Cards are named by id and moved from wherever they were; `pile_sizes`
 * applies before `piles`. The turn's
 * draws and plays are counted again from the attributes set up. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "civ.h"
#include "foh/yaml.h"

static foh_status bad(foh_error *err, const foh_yaml_node *at, const char *what, const char *word)
{
    return foh_error_at(err, FOH_ERR_DATA, at->file, at->line, at->column, "setup: %s%s%s%s", what, word ? " '" : "",
                        word ? word : "", word ? "'" : "");
}

/* Key I of map M as 1..N (a player may be written P1), 0-based; -1 if not. */
static int key_index(const foh_yaml_node *m, size_t i, int n)
{
    const char *k = m->keys[i];
    if (k[0] == 'P' || k[0] == 'p')
        k++;
    return strlen(k) == 1 && k[0] >= '1' && k[0] - '1' < n ? k[0] - '1' : -1;
}

static int player_key(const civ_game *g, const foh_yaml_node *m, size_t i) { return key_index(m, i, g->players); }

static foh_status number(const foh_yaml_node *v, int lo, int hi, int *out, foh_error *err)
{
    char *end = NULL;
    long x = v && v->kind == FOH_YAML_SCALAR ? strtol(v->text, &end, 10) : 0;
    if (!end || *end || end == v->text || x < lo || x > hi)
        return bad(err, v, "a whole number is expected here, not", v->kind == FOH_YAML_SCALAR ? v->text : "a list");
    *out = (int)x;
    return FOH_OK;
}

/* Each card of list V moved to zone Z of player P (pile J for piles). */
static foh_status cards(civ_game *g, const foh_yaml_node *v, civ_zone z, int p, foh_error *err)
{
    if (v->kind != FOH_YAML_SEQ)
        return bad(err, v, "a list of card ids is expected here", NULL);
    for (size_t i = 0; i < v->n; i++) {
        const foh_yaml_node *id = v->items[i];
        int c = id->kind == FOH_YAML_SCALAR ? civ_card_index(g->set, id->text) : -1;
        if (c < 0)
            return bad(err, id, "no card has the id", id->kind == FOH_YAML_SCALAR ? id->text : "(a list)");
        if ((g->set->card[c].type == CIV_VICTORY) != (z == CIV_Z_VICTORY_UP))
            return bad(err, id, "a Victory card goes only in 'victory', and only Victory cards do:", id->text);
        /* g->fresh marks the cards the set-up placed (civ_start_turn clears it
         * after): one card in two places would silently take the last. */
        if (g->fresh[c])
            return bad(err, id, "the set-up names this card twice (there is one of each):", id->text);
        if (z == CIV_Z_PILE) {
            civ_move(g, c, CIV_Z_BOX, -1);
            if (g->npile[p] >= CIV_MAX_PILE)
                return bad(err, id, "the pile is full", NULL);
            g->pile[p][g->npile[p]++] = (short)c;
            g->where[c] = CIV_Z_PILE;
            g->seen[c] = 0;
        } else {
            civ_move(g, c, z, p);
            g->seen[c] = z == CIV_Z_HAND ? (unsigned char)(1u << p) : 0xFF;
        }
        g->fresh[c] = 1;
    }
    return FOH_OK;
}

/* A map of players (1: ..., P2: ...) to card lists, into zone Z. */
static foh_status per_player(civ_game *g, const foh_yaml_node *m, civ_zone z, foh_error *err)
{
    if (m->kind != FOH_YAML_MAP)
        return bad(err, m, "a map of players (1, 2, ...) is expected here", NULL);
    for (size_t i = 0; i < m->n; i++) {
        int p = player_key(g, m, i);
        if (p < 0)
            return foh_error_at(err, FOH_ERR_DATA, m->file, m->key_lines[i], m->key_columns[i],
                                "setup: '%s' is not a player of this game (1 to %d)", m->keys[i], g->players);
        if (z == CIV_Z_HAND)
            for (int c = 0; c < g->set->ncards; c++)
                if (g->where[c] == CIV_Z_HAND && g->owner[c] == p)
                    civ_move(g, c, CIV_Z_DISCARD, -1);
        foh_status s = cards(g, m->items[i], z, p, err);
        if (s != FOH_OK)
            return s;
    }
    return FOH_OK;
}

/* `pile_sizes`: each pile listed keeps only its top N cards; the others
 * are discarded, as if drawn and gone earlier in the age. */
static foh_status cut_piles(civ_game *g, const foh_yaml_node *v, foh_error *err)
{
    if (v->kind != FOH_YAML_MAP)
        return bad(err, v, "'pile_sizes' maps 1, 2 or 3 to a number of cards", NULL);
    for (size_t i = 0; i < v->n; i++) {
        int j = key_index(v, i, CIV_PILES), keep;
        if (j < 0)
            return bad(err, v, "'pile_sizes' maps 1, 2 or 3 to a number of cards, not", v->keys[i]);
        foh_status s = number(v->items[i], 0, CIV_MAX_PILE, &keep, err);
        if (s != FOH_OK)
            return s;
        while (g->npile[j] > keep)
            civ_move(g, g->pile[j][0], CIV_Z_DISCARD, -1); /* from the bottom: the top N stay */
    }
    return FOH_OK;
}

static foh_status set_age(civ_game *g, const foh_yaml_node *v, foh_error *err)
{
    for (int a = 0; a < CIV_AGES; a++)
        if (v->kind == FOH_YAML_SCALAR && !strcasecmp(v->text, g->set->age_name[a])) {
            for (int c = 0; c < g->set->ncards; c++) /* the piles go back; the new age's deck is dealt */
                if (g->where[c] == CIV_Z_PILE)
                    g->where[c] = CIV_Z_AGE_DECK;
            g->age = a;
            civ_deal_age(g);
            return FOH_OK;
        }
    return bad(err, v, "no age is called", v->kind == FOH_YAML_SCALAR ? v->text : "(a list)");
}

foh_status civ_scenario_setup(civ_game *g, const foh_yaml_node *setup, foh_error *err)
{
    static const char *const keys[] = {"age", "current", "phase", "vt", "hands", "in_play", "aggressions",
                                       "pile_sizes", "piles", "victory", NULL};
    if (setup->kind != FOH_YAML_MAP)
        return bad(err, setup, "'setup' is a map", NULL);
    int k = foh_yaml_unknown_key(setup, keys);
    if (k >= 0)
        return foh_error_at(err, FOH_ERR_DATA, setup->file, setup->key_lines[k], setup->key_columns[k],
                            "setup: unknown field '%s' (age, current, phase, vt, hands, in_play, aggressions, "
                            "pile_sizes, piles, victory)", setup->keys[k]);
    const foh_yaml_node *v;
    foh_status s = FOH_OK;
    if ((v = foh_yaml_get(setup, "age")))
        s = set_age(g, v, err);
    if (s == FOH_OK && (v = foh_yaml_get(setup, "current"))) {
        int p;
        if ((s = number(v, 1, g->players, &p, err)) == FOH_OK)
            g->current = p - 1;
    }
    for (size_t i = 0; s == FOH_OK && (v = foh_yaml_get(setup, "vt")) && i < v->n; i++) {
        int p = player_key(g, v, i);
        s = p < 0 || v->kind != FOH_YAML_MAP ? bad(err, v, "'vt' maps players (1, 2, ...) to numbers", NULL)
                                             : number(v->items[i], -1000, 1000000, &g->vt[p], err);
    }
    if (s == FOH_OK && (v = foh_yaml_get(setup, "hands")))
        s = per_player(g, v, CIV_Z_HAND, err);
    if (s == FOH_OK && (v = foh_yaml_get(setup, "in_play")))
        s = per_player(g, v, CIV_Z_PLAY, err);
    if (s == FOH_OK && (v = foh_yaml_get(setup, "aggressions")))
        s = per_player(g, v, CIV_Z_AGGRESSION, err);
    if (s == FOH_OK && (v = foh_yaml_get(setup, "victory"))) {
        for (int c = 0; c < g->set->ncards; c++)
            if (g->where[c] == CIV_Z_VICTORY_UP)
                g->where[c] = CIV_Z_VICTORY_DECK;
        s = cards(g, v, CIV_Z_VICTORY_UP, 0, err);
    }
    if (s == FOH_OK && (v = foh_yaml_get(setup, "pile_sizes")))
        s = cut_piles(g, v, err);
    for (size_t i = 0; s == FOH_OK && (v = foh_yaml_get(setup, "piles")) && i < v->n; i++) {
        int j = key_index(v, i, CIV_PILES);
        s = v->kind != FOH_YAML_MAP || j < 0 || j >= CIV_PILES ? bad(err, v, "'piles' maps 1, 2 or 3 to cards", NULL)
                                                                : cards(g, v->items[i], CIV_Z_PILE, j, err);
    }
    if (s != FOH_OK)
        return s;
    civ_recount(g);
    civ_reveal_tops(g);
    civ_start_turn(g); /* draws and plays from the attributes set up */
    if ((v = foh_yaml_get(setup, "phase"))) {
        if (v->kind != FOH_YAML_SCALAR || (strcmp(v->text, "fate") && strcmp(v->text, "action")))
            return bad(err, v, "'phase' is fate or action, not", v->kind == FOH_YAML_SCALAR ? v->text : "a list");
        if (!strcmp(v->text, "action"))
            g->draws_left = 0;
    }
    civ_advance(g);
    return FOH_OK;
}

/* cardset: a card set of the civilization draft from its folder: game.yaml
 * (players, ages, rules, the bot's weights, helper scripts), every other
 * .yaml file a deck (`age:` and `cards:`), expansions' card files added,
 * then variants' `set:` paths applied. Every mistake is refused at its
 * file:line naming the card; a field no card has is an error, never
 * ignored. */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "civ.h"
#include "foh/file.h"
#include "foh/yaml.h"

#define CIV_MAX_FILES 64
#define CIV_SCRIPT_BYTES (1u << 20)

const char *const civ_type_names[CIV_NTYPES] = {"political", "religious", "science", "art", "explorer", "troop",
                                                "conflict", "advance", "wonder", "event", "government", "victory"};
const char *const civ_attr_names[CIV_NATTRS] = {"vitality", "resources", "stability", "military", "culture"};
const char *const civ_target_names[CIV_NTARGETS] = {"none", "wonder", "troop", "leader", "government", "player"};
const char *const civ_measure_names[CIV_NMEASURES] = {"vitality", "resources", "stability", "military", "culture",
                                                      "wonders", "advances", "leaders", "aggressions",
                                                      "current_wonders", "current_governments"};
const char *const civ_rank_names[3] = {"highest", "lowest", "none"};

/* A whole number in LO..HI (true/false for 1/0) at node V; 0 with ERR set
 * at V's file:line, WHAT naming the field. */
static int number(const foh_yaml_node *v, const char *what, long lo, long hi, int *out, foh_error *err)
{
    char *end = NULL;
    long x = 0;
    if (v && v->kind == FOH_YAML_SCALAR && (!strcmp(v->text, "true") || !strcmp(v->text, "false")))
        x = !strcmp(v->text, "true"), end = "";
    else if (v && v->kind == FOH_YAML_SCALAR)
        x = strtol(v->text, &end, 10);
    if (!v || !end || *end || (end == v->text && *v->text) || !*v->text || x < lo || x > hi) {
        foh_error_at(err, FOH_ERR_DATA, v ? v->file : NULL, v ? v->line : 0, v ? v->column : 0,
                     "'%s' must be a whole number from %ld to %ld%s%s%s", what, lo, hi,
                     v && v->kind == FOH_YAML_SCALAR ? ", not '" : "", v && v->kind == FOH_YAML_SCALAR ? v->text : "",
                     v && v->kind == FOH_YAML_SCALAR ? "'" : "");
        return 0;
    }
    *out = (int)x;
    return 1;
}

static int real(const foh_yaml_node *v, const char *what, double *out, foh_error *err)
{
    char *end = NULL;
    double x = v && v->kind == FOH_YAML_SCALAR ? strtod(v->text, &end) : 0;
    if (!v || !end || *end || end == v->text || x < -1000 || x > 1000) {
        foh_error_at(err, FOH_ERR_DATA, v ? v->file : NULL, v ? v->line : 0, v ? v->column : 0,
                     "'%s' must be a number from -1000 to 1000", what);
        return 0;
    }
    *out = x;
    return 1;
}

/* 0 with ERR set if map M has a key not in ALLOWED (a typo is told). */
static int known_keys(const foh_yaml_node *m, const char *const *allowed, const char *who, foh_error *err)
{
    int bad = foh_yaml_unknown_key(m, allowed);
    if (bad < 0)
        return 1;
    int n = 0;
    while (allowed[n])
        n++;
    char hint[400];
    foh_error_hint(hint, sizeof hint, m->keys[bad], "fields", allowed, n);
    foh_error_at(err, FOH_ERR_DATA, m->file, m->key_lines[bad], m->key_columns[bad], "%s: unknown field '%s'%s", who,
                 m->keys[bad], hint);
    return 0;
}

/* The index of WORD in NAMES[0..N), or -1 with ERR set at V. */
static int word(const foh_yaml_node *v, const char *what, const char *const *names, int n, foh_error *err)
{
    for (int i = 0; v && v->kind == FOH_YAML_SCALAR && i < n; i++)
        if (!strcmp(v->text, names[i]))
            return i;
    char hint[400];
    foh_error_hint(hint, sizeof hint, v && v->text ? v->text : "", what, names, n);
    foh_error_at(err, FOH_ERR_DATA, v ? v->file : NULL, v ? v->line : 0, v ? v->column : 0, "unknown %s '%s'%s", what,
                 v && v->text ? v->text : "(not a single value)", hint);
    return -1;
}

/* ---- the rules' numbers, by name: game.yaml `rules:` and variants ---- */

typedef struct {
    const char *name;
    size_t offset;
    int lo, hi;
} rule_field;

#define R(f, lo, hi) {#f, offsetof(civ_rules, f), lo, hi}
static const rule_field rule_fields[] = {
    R(starting_vt, 0, 1000), R(base_draws, 1, 20), R(vitality_per_draw, 1, 100), R(base_plays, 0, 20),
    R(resources_per_play, 1, 100), R(base_hand, 0, 50), R(stability_per_hand, 1, 100), R(boon_vt, 0, 100),
    R(face_up_victory, 0, CIV_MAX_FACE_UP), R(peek_cards, 0, 100), R(face_up_piles, 0, CIV_PILES),
    R(starting_cards, 0, 10), R(vt_floor, 0, 1), R(ties_score, 0, 1), R(boon_same_turn, 0, 1),
    R(reinforce_lower_only, 0, 1), R(score_first, 0, 1), R(keep_ages, 0, CIV_AGES), R(random_first, 0, 1),
    R(explorer_limit, 0, 100), R(event_needs_target, 0, 1), R(final_discards, 0, 1),
};
#undef R
#define NRULES (int)(sizeof rule_fields / sizeof rule_fields[0])

static const char *const weight_names[] = {"culture_turns", "vitality", "resources", "stability", "military",
                                           "culture", "hand", "standing", "conflict", "win", NULL};

static double *weight_of(civ_weights *w, int i)
{
    double *all[] = {&w->culture_turns, &w->attr[0], &w->attr[1], &w->attr[2], &w->attr[3], &w->attr[4],
                     &w->hand, &w->standing, &w->conflict, &w->win};
    return all[i];
}

/* Set rules field NAME (or age_x.N) from V; an unknown NAME is told at
 * LINE:COLUMN (its key's). */
static int set_rule(civ_rules *r, const char *name, const foh_yaml_node *v, int line, int column, foh_error *err)
{
    if (!strcmp(name, "age_x") && v && v->kind == FOH_YAML_SEQ) {
        if (v->n != CIV_AGES)
            return foh_error_at(err, FOH_ERR_DATA, v->file, v->line, v->column, "'age_x' lists one X for each of the 4 ages") == FOH_OK;
        for (int a = 0; a < CIV_AGES; a++)
            if (!number(v->items[a], "age_x", 0, 1000, &r->age_x[a], err))
                return 0;
        return 1;
    }
    if (!strncmp(name, "age_x.", 6) && name[6] >= '1' && name[6] <= '4' && !name[7])
        return number(v, name, 0, 1000, &r->age_x[name[6] - '1'], err);
    for (int i = 0; i < NRULES; i++)
        if (!strcmp(name, rule_fields[i].name))
            return number(v, name, rule_fields[i].lo, rule_fields[i].hi, (int *)((char *)r + rule_fields[i].offset), err);
    const char *names[NRULES + 1];
    for (int i = 0; i < NRULES; i++)
        names[i] = rule_fields[i].name;
    names[NRULES] = "age_x";
    char hint[600];
    foh_error_hint(hint, sizeof hint, name, "rules", names, NRULES + 1);
    return foh_error_at(err, FOH_ERR_DATA, v ? v->file : NULL, line, column, "unknown rule '%s'%s", name, hint) == FOH_OK;
}

static int set_weight(civ_weights *w, const char *name, const foh_yaml_node *v, int line, int column, foh_error *err)
{
    for (int i = 0; weight_names[i]; i++)
        if (!strcmp(name, weight_names[i]))
            return real(v, name, weight_of(w, i), err);
    char hint[400];
    foh_error_hint(hint, sizeof hint, name, "bot weights", weight_names, 10);
    return foh_error_at(err, FOH_ERR_DATA, v ? v->file : NULL, line, column, "unknown bot weight '%s'%s", name, hint) ==
           FOH_OK;
}

static void defaults(civ_set *cs)
{
    civ_rules *r = &cs->rules;
    *r = (civ_rules){.starting_vt = 10, .age_x = {3, 6, 9, 12}, .base_draws = 1, .vitality_per_draw = 3,
                     .base_plays = 1, .resources_per_play = 4, .base_hand = 3, .stability_per_hand = 2,
                     .boon_vt = 3, .face_up_victory = 7, .peek_cards = 7, .face_up_piles = 2, .starting_cards = 1,
                     .vt_floor = 1, .ties_score = 1, .boon_same_turn = 0, .reinforce_lower_only = 0,
                     .score_first = 1, .keep_ages = 1, .random_first = 0, .explorer_limit = 0,
                     .event_needs_target = 1, .final_discards = 1};
    cs->bot = (civ_weights){.culture_turns = 1.0, .attr = {0.6, 0.6, 0.4, 0.5, 0.5}, .hand = 0.8,
                            .standing = 0.5, .conflict = 0.9, .win = 20};
    cs->min_players = 2;
    cs->max_players = 6;
}

/* Remember file PATH and the hash of its bytes now (foh play --watch). */
static int note_source(civ_set *cs, const char *path, foh_error *err)
{
    char *bytes = NULL;
    size_t len = 0;
    if (foh_file_read(path, FOH_YAML_MAX_BYTES, "card files", &bytes, &len, err) != FOH_OK)
        return 0;
    char **paths = realloc(cs->source_path, sizeof *paths * (size_t)(cs->nsources + 1));
    uint64_t *hashes = paths ? realloc(cs->source_hash, sizeof *hashes * (size_t)(cs->nsources + 1)) : NULL;
    if (paths)
        cs->source_path = paths;
    if (hashes)
        cs->source_hash = hashes;
    char *copy = hashes ? strdup(path) : NULL;
    if (!copy) {
        free(bytes);
        return foh_error_set(err, FOH_ERR_MEMORY, "out of memory") == FOH_OK;
    }
    cs->source_path[cs->nsources] = copy;
    cs->source_hash[cs->nsources++] = foh_file_hash(bytes, len);
    free(bytes);
    return 1;
}

/* ---- game.yaml ---- */

static int read_game(civ_set *cs, const char *dir, int base, foh_error *err)
{
    static const char *const keys[] = {"ruleset", "name", "players", "ages", "scripts", "rules", "bot", NULL};
    static const char *const expansion_keys[] = {"ruleset", "name", NULL};
    char path[1100], yerr[600];
    snprintf(path, sizeof path, "%s/game.yaml", dir);
    foh_yaml_node *g = foh_yaml_load(path, yerr, sizeof yerr);
    if (!g)
        return foh_error_set(err, FOH_ERR_DATA, "%s", yerr) == FOH_OK;
    if (!note_source(cs, path, err)) {
        foh_yaml_free(g);
        return 0;
    }
    int ok = g->kind == FOH_YAML_MAP ||
             foh_error_at(err, FOH_ERR_DATA, path, g->line, g->column, "game.yaml must be a map") == FOH_OK;
    ok = ok && known_keys(g, base ? keys : expansion_keys, base ? "game.yaml" : "an expansion's game.yaml", err);
    const foh_yaml_node *v;
    if (ok && base && (v = foh_yaml_get(g, "players"))) {
        static const char *const pk[] = {"min", "max", "note", NULL};
        ok = known_keys(v, pk, "players", err) &&
             number(foh_yaml_get(v, "min"), "players.min", 2, FOH_MAX_PLAYERS, &cs->min_players, err) &&
             number(foh_yaml_get(v, "max"), "players.max", cs->min_players, FOH_MAX_PLAYERS, &cs->max_players, err);
    }
    if (ok && base && (v = foh_yaml_get(g, "ages"))) {
        if (v->kind != FOH_YAML_SEQ || v->n != CIV_AGES)
            ok = foh_error_at(err, FOH_ERR_DATA, path, v->line, v->column, "'ages' lists the 4 ages' names") == FOH_OK;
        for (size_t a = 0; ok && a < CIV_AGES; a++)
            if (v->items[a]->kind != FOH_YAML_SCALAR || strlen(v->items[a]->text) >= CIV_NAME)
                ok = foh_error_at(err, FOH_ERR_DATA, path, v->items[a]->line, v->items[a]->column,
                                  "an age's name is a word under %d bytes", CIV_NAME) == FOH_OK;
            else
                snprintf(cs->age_name[a], CIV_NAME, "%s", v->items[a]->text);
    }
    for (size_t i = 0; ok && base && (v = foh_yaml_get(g, "rules")) && i < v->n; i++)
        ok = v->kind == FOH_YAML_MAP ? set_rule(&cs->rules, v->keys[i], v->items[i], v->key_lines[i], v->key_columns[i], err)
                                     : foh_error_at(err, FOH_ERR_DATA, path, v->line, v->column, "'rules' is a map") == FOH_OK;
    for (size_t i = 0; ok && base && (v = foh_yaml_get(g, "bot")) && i < v->n; i++)
        ok = v->kind == FOH_YAML_MAP ? set_weight(&cs->bot, v->keys[i], v->items[i], v->key_lines[i], v->key_columns[i], err)
                                     : foh_error_at(err, FOH_ERR_DATA, path, v->line, v->column, "'bot' is a map") == FOH_OK;
    if (ok && base && (v = foh_yaml_get(g, "scripts"))) {
        if (v->kind != FOH_YAML_SEQ || v->n != 1 || v->items[0]->kind != FOH_YAML_SCALAR)
            ok = foh_error_at(err, FOH_ERR_DATA, path, v->line, v->column, "'scripts' lists one helper file") == FOH_OK;
        else {
            size_t len;
            snprintf(cs->helpers_path, sizeof cs->helpers_path, "%s/%s", dir, v->items[0]->text);
            ok = !strchr(v->items[0]->text, '/') ||
                 foh_error_at(err, FOH_ERR_DATA, path, v->line, v->column, "a helper file lies in the card set's folder") == FOH_OK;
            ok = ok && foh_file_read(cs->helpers_path, CIV_SCRIPT_BYTES, "scripts", &cs->helpers, &len, err) == FOH_OK &&
                 note_source(cs, cs->helpers_path, err);
        }
    }
    foh_yaml_free(g);
    return ok;
}

/* ---- the card files ---- */

/* foh check's mode (a load request with `report`): each problem of a card
 * is told and the card skipped, so that one run names them all; the load
 * fails at the end. Otherwise the first problem stops the load. */
typedef struct {
    const foh_load_request *req;
    int reported;
} problems;

/* ERR, just set, is told in checking mode: 1 to go on, 0 to stop. */
static int go_on(problems *pb, foh_error *err)
{
    if (!pb->req->report || err->code == FOH_ERR_MEMORY)
        return 0;
    pb->req->report(pb->req->report_ctx, 0, err);
    pb->reported++;
    return 1;
}

/* Name card ID in ERR's message when the message does not already
 * ("FILE:LINE:COL: card 'id': ..."). */
static void name_card(foh_error *err, const char *id)
{
    char card[CIV_NAME + 16], rest[sizeof err->msg];
    snprintf(card, sizeof card, "card '%s'", id);
    if (!*id || strstr(err->msg, card))
        return;
    const char *at = strstr(err->msg, ": "), *colon = at;
    /* after "file:line:col: " when the message starts with a position */
    size_t pre = at && err->msg[0] != ' ' && strchr(err->msg, ':') < at + 1 ? (size_t)(colon - err->msg) + 2 : 0;
    snprintf(rest, sizeof rest, "%s", err->msg + pre);
    snprintf(err->msg + pre, sizeof err->msg - pre, "%s: %s", card, rest);
}

static int read_params(civ_card *c, const foh_yaml_node *v, foh_error *err)
{
    if (v->kind != FOH_YAML_MAP || v->n > CIV_MAX_PARAMS)
        return foh_error_at(err, FOH_ERR_DATA, v->file, v->line, v->column, "card '%s': 'params' is a map of at most %d numbers",
                            c->id, CIV_MAX_PARAMS) == FOH_OK;
    for (size_t i = 0; i < v->n; i++) {
        if (strlen(v->keys[i]) >= sizeof c->param_name[0])
            return foh_error_at(err, FOH_ERR_DATA, v->file, v->key_lines[i], v->key_columns[i], "card '%s': param name too long",
                                c->id) == FOH_OK;
        snprintf(c->param_name[i], sizeof c->param_name[i], "%s", v->keys[i]);
        if (!number(v->items[i], v->keys[i], -1000, 1000, &c->param[i], err))
            return 0;
    }
    c->nparams = (int)v->n;
    return 1;
}

static int read_adds(civ_card *c, const foh_yaml_node *v, foh_error *err)
{
    if (v->kind != FOH_YAML_MAP)
        return foh_error_at(err, FOH_ERR_DATA, v->file, v->line, v->column, "card '%s': 'adds' is a map of attributes",
                            c->id) == FOH_OK;
    for (size_t i = 0; i < v->n; i++) {
        int a = -1;
        for (int k = 0; k < CIV_NATTRS; k++)
            if (!strcmp(v->keys[i], civ_attr_names[k]))
                a = k;
        if (a < 0) {
            char hint[300];
            foh_error_hint(hint, sizeof hint, v->keys[i], "attributes", civ_attr_names, CIV_NATTRS);
            return foh_error_at(err, FOH_ERR_DATA, v->file, v->key_lines[i], v->key_columns[i],
                                "card '%s': unknown attribute '%s'%s", c->id, v->keys[i], hint) == FOH_OK;
        }
        if (!number(v->items[i], v->keys[i], -100, 100, &c->adds[a], err))
            return 0;
    }
    return 1;
}

/* Card map M of age AGE (-1: Victory) into C; its boon and join stay
 * names (in BOON, JOIN nodes) until every card is read. */
static int read_card(civ_card *c, const foh_yaml_node *m, int age, foh_error *err)
{
    static const char *const keys[] = {"id", "name", "type", "adds", "bonus", "prestige", "boon", "join", "target",
                                       "params", "effect", "measure", "rank", "outcome", "draft", "text", NULL};
    const foh_yaml_node *id = foh_yaml_get(m, "id"), *v;
    if (m->kind != FOH_YAML_MAP || !id || id->kind != FOH_YAML_SCALAR || !*id->text || strlen(id->text) >= CIV_NAME)
        return foh_error_at(err, FOH_ERR_DATA, m->file, m->line, m->column, "a card is a map with an 'id' (under %d bytes)",
                            CIV_NAME) == FOH_OK;
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id->text);
    c->boon = c->join = -1;
    c->age = age;
    c->file = m->file;
    c->line = m->line;
    char who[80];
    snprintf(who, sizeof who, "card '%s'", c->id);
    if (!known_keys(m, keys, who, err))
        return 0;
    v = foh_yaml_get(m, "name");
    snprintf(c->name, sizeof c->name, "%s", v && v->kind == FOH_YAML_SCALAR ? v->text : c->id);
    int t = word(foh_yaml_get(m, "type"), "card type", civ_type_names, CIV_NTYPES, err);
    if (t < 0)
        return 0;
    c->type = (civ_type)t;
    if ((t == CIV_VICTORY) != (age < 0))
        return foh_error_at(err, FOH_ERR_DATA, m->file, m->line, m->column,
                            "%s: Victory cards go in the file of `age: victory`, and only they", who) == FOH_OK;
    if ((v = foh_yaml_get(m, "adds")) && !read_adds(c, v, err))
        return 0;
    if ((v = foh_yaml_get(m, "bonus")) && !number(v, "bonus", 0, 1000, &c->bonus, err))
        return 0;
    if ((v = foh_yaml_get(m, "prestige")) && !number(v, "prestige", 0, 1000, &c->prestige, err))
        return 0;
    if ((v = foh_yaml_get(m, "params")) && !read_params(c, v, err))
        return 0;
    if ((v = foh_yaml_get(m, "target")) && (t = word(v, "target", civ_target_names, CIV_NTARGETS, err)) < 0)
        return 0;
    c->target = v ? (civ_target)t : CIV_TARGET_NONE;
    if ((v = foh_yaml_get(m, "effect"))) {
        if (v->kind != FOH_YAML_SCALAR || !(c->effect = strdup(v->text)))
            return foh_error_at(err, FOH_ERR_DATA, m->file, v->line, v->column, "%s: 'effect' is Lua text", who) == FOH_OK;
        c->effect_line = v->line + (v->block_scalar ? 1 : 0);
    }
    if ((c->type == CIV_EVENT) != (c->effect != NULL))
        return foh_error_at(err, FOH_ERR_DATA, m->file, m->line, m->column, "%s: %s", who,
                            c->effect ? "only an Event has an 'effect'" : "an Event needs an 'effect' (Lua)") == FOH_OK;
    if ((c->target != CIV_TARGET_NONE) && c->type != CIV_EVENT)
        return foh_error_at(err, FOH_ERR_DATA, m->file, m->line, m->column, "%s: only an Event has a 'target'", who) == FOH_OK;
    if (c->type == CIV_VICTORY) {
        if ((t = word(foh_yaml_get(m, "measure"), "measure", civ_measure_names, CIV_NMEASURES, err)) < 0)
            return 0;
        c->measure = (civ_measure)t;
        if ((t = word(foh_yaml_get(m, "rank"), "rank", civ_rank_names, 3, err)) < 0)
            return 0;
        c->rank = (civ_rank)t;
        static const char *const outcomes[2] = {"lose", "gain"};
        if ((c->gain = word(foh_yaml_get(m, "outcome"), "outcome", outcomes, 2, err)) < 0)
            return 0;
    } else if (foh_yaml_get(m, "measure") || foh_yaml_get(m, "rank") || foh_yaml_get(m, "outcome"))
        return foh_error_at(err, FOH_ERR_DATA, m->file, m->line, m->column,
                            "%s: only a Victory card has 'measure', 'rank' and 'outcome'", who) == FOH_OK;
    return 1;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The .yaml files of DIR but game.yaml, sorted, into NAMES (N of them). */
static int list_files(const char *dir, char names[CIV_MAX_FILES][256], int *n, foh_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return foh_error_set(err, FOH_ERR_DATA, "%s: cannot open the card set's folder", dir) == FOH_OK;
    struct dirent *e;
    *n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || len >= 256 || strcmp(e->d_name + len - 5, ".yaml") || !strcmp(e->d_name, "game.yaml"))
            continue;
        if (*n == CIV_MAX_FILES) {
            closedir(d);
            return foh_error_set(err, FOH_ERR_DATA, "%s: more than %d card files (the limit of a card set's folder)", dir,
                                 CIV_MAX_FILES) == FOH_OK;
        }
        snprintf(names[(*n)++], 256, "%s", e->d_name);
    }
    closedir(d);
    char *sorted[CIV_MAX_FILES];
    char copy[CIV_MAX_FILES][256];
    for (int i = 0; i < *n; i++)
        sorted[i] = strcpy(copy[i], names[i]);
    qsort(sorted, (size_t)*n, sizeof sorted[0], by_name);
    for (int i = 0; i < *n; i++)
        snprintf(names[i], 256, "%s", sorted[i]);
    return 1;
}

/* Card links by id: boon and join, resolved once every card is read. */
typedef struct {
    const foh_yaml_node *boon, *join;
} links;

static int read_file(civ_set *cs, const char *path, links **lk, size_t *cap, size_t *values, problems *pb,
                     foh_error *err)
{
    char yerr[600];
    foh_yaml_node *f = foh_yaml_load_within(path, values, yerr, sizeof yerr);
    if (!f)
        return foh_error_set(err, FOH_ERR_DATA, "%s", yerr) == FOH_OK;
    if (!note_source(cs, path, err)) {
        foh_yaml_free(f);
        return 0;
    }
    foh_yaml_node **trees = realloc(cs->trees, sizeof *trees * (size_t)(cs->nfiles + 1));
    if (!trees) {
        foh_yaml_free(f);
        return foh_error_set(err, FOH_ERR_MEMORY, "out of memory") == FOH_OK;
    }
    cs->trees = trees;
    cs->trees[cs->nfiles++] = f; /* kept: the cards' file names and the links' nodes live in it */
    static const char *const keys[] = {"age", "cards", NULL};
    if (f->kind != FOH_YAML_MAP)
        return foh_error_at(err, FOH_ERR_DATA, path, 1, 1, "a card file is a map of 'age' and 'cards'") == FOH_OK;
    if (!known_keys(f, keys, "card file", err))
        return 0;
    const foh_yaml_node *age = foh_yaml_get(f, "age"), *cards = foh_yaml_get(f, "cards");
    int a = -1;
    for (int k = 0; age && age->kind == FOH_YAML_SCALAR && k < CIV_AGES; k++)
        if (!strcasecmp(age->text, cs->age_name[k]))
            a = k;
    if (a < 0 && !(age && age->kind == FOH_YAML_SCALAR && !strcmp(age->text, "victory"))) {
        const char *names[CIV_AGES + 1] = {cs->age_name[0], cs->age_name[1], cs->age_name[2], cs->age_name[3], "victory"};
        char hint[400];
        foh_error_hint(hint, sizeof hint, age && age->text ? age->text : "", "ages", names, CIV_AGES + 1);
        return foh_error_at(err, FOH_ERR_DATA, path, age ? age->line : 1, age ? age->column : 1, "unknown age '%s'%s",
                            age && age->text ? age->text : "", hint) == FOH_OK;
    }
    if (!cards || cards->kind != FOH_YAML_SEQ)
        return foh_error_at(err, FOH_ERR_DATA, path, 1, 1, "'cards' lists the file's cards") == FOH_OK;
    for (size_t i = 0; i < cards->n; i++) {
        if (cs->ncards == CIV_MAX_CARDS)
            return foh_error_at(err, FOH_ERR_DATA, path, cards->items[i]->line, 1,
                                "more than %d cards in the card set (the engine's limit)", CIV_MAX_CARDS) == FOH_OK;
        if ((size_t)cs->ncards == *cap) {
            size_t ncap = *cap ? *cap * 2 : 64;
            civ_card *c = realloc(cs->card, sizeof *c * ncap);
            links *l = c ? realloc(*lk, sizeof *l * ncap) : NULL;
            if (c)
                cs->card = c;
            if (!l)
                return foh_error_set(err, FOH_ERR_MEMORY, "out of memory") == FOH_OK;
            *lk = l;
            *cap = ncap;
        }
        civ_card *c = &cs->card[cs->ncards];
        int read = read_card(c, cards->items[i], a, err);
        if (!read)
            name_card(err, c->id);
        if (read && civ_card_index(cs, c->id) >= 0) {
            foh_error_at(err, FOH_ERR_DATA, c->file, c->line, 0, "card '%s': the id is used twice (also %s:%d)", c->id,
                         cs->card[civ_card_index(cs, c->id)].file, cs->card[civ_card_index(cs, c->id)].line);
            read = 0;
        }
        if (!read) {
            free(c->effect);
            c->effect = NULL;
            if (!go_on(pb, err))
                return 0;
            continue; /* checking: the card is left out, the next one read */
        }
        (*lk)[cs->ncards] = (links){foh_yaml_get(cards->items[i], "boon"), foh_yaml_get(cards->items[i], "join")};
        cs->ncards++;
    }
    return 1;
}

int civ_card_index(const civ_set *cs, const char *id)
{
    for (int i = 0; i < cs->ncards; i++)
        if (!strcmp(cs->card[i].id, id))
            return i;
    return -1;
}

static int resolve(civ_set *cs, const foh_yaml_node *v, int c, const char *what, int *out, foh_error *err)
{
    if (!v)
        return 1;
    int k = v->kind == FOH_YAML_SCALAR ? civ_card_index(cs, v->text) : -1;
    if (k < 0 || k == c) {
        const char *ids[CIV_MAX_CARDS], *near;
        for (int i = 0; i < cs->ncards; i++)
            ids[i] = cs->card[i].id;
        near = v->kind == FOH_YAML_SCALAR ? foh_error_suggest(v->text, ids, cs->ncards) : NULL;
        return foh_error_at(err, FOH_ERR_DATA, v->file, v->line, v->column,
                            "card '%s': %s '%s' is no other card of the set%s%s%s", cs->card[c].id, what,
                            v->kind == FOH_YAML_SCALAR ? v->text : "", near ? " (did you mean '" : "", near ? near : "",
                            near ? "'?)" : "") == FOH_OK;
    }
    *out = k;
    return 1;
}

/* Labels: the name, with the age when two cards share it. */
static void label_cards(civ_set *cs)
{
    for (int i = 0; i < cs->ncards; i++) {
        civ_card *c = &cs->card[i];
        int twice = 0;
        for (int j = 0; j < cs->ncards; j++)
            twice |= j != i && !strcmp(cs->card[j].name, c->name);
        if (twice)
            snprintf(c->label, sizeof c->label, "%s (%s)", c->name, c->age >= 0 ? cs->age_name[c->age] : "Victory");
        else
            snprintf(c->label, sizeof c->label, "%s", c->name);
    }
}

/* ---- variants: `set:` paths ---- */

static int set_card_field(civ_set *cs, const char *path, const foh_yaml_node *v, foh_error *err)
{
    char id[CIV_NAME + 1];
    const char *dot = strchr(path, '.');
    if (!dot || (size_t)(dot - path) >= sizeof id)
        return foh_error_at(err, FOH_ERR_DATA, v->file, v->line, v->column, "'cards.%s': a path is cards.ID.FIELD", path) == FOH_OK;
    memcpy(id, path, (size_t)(dot - path));
    id[dot - path] = 0;
    int k = civ_card_index(cs, id);
    if (k < 0) {
        const char *ids[CIV_MAX_CARDS], *near;
        for (int i = 0; i < cs->ncards; i++)
            ids[i] = cs->card[i].id;
        near = foh_error_suggest(id, ids, cs->ncards);
        return foh_error_at(err, FOH_ERR_DATA, v->file, v->line, v->column, "unknown card '%s'%s%s%s", id,
                            near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "") == FOH_OK;
    }
    civ_card *c = &cs->card[k];
    const char *f = dot + 1;
    if (!strcmp(f, "prestige"))
        return number(v, path, 0, 1000, &c->prestige, err);
    if (!strcmp(f, "bonus"))
        return number(v, path, 0, 1000, &c->bonus, err);
    for (int a = 0; a < CIV_NATTRS; a++)
        if (!strncmp(f, "adds.", 5) && !strcmp(f + 5, civ_attr_names[a]))
            return number(v, path, -100, 100, &c->adds[a], err);
    for (int i = 0; i < c->nparams; i++)
        if (!strncmp(f, "params.", 7) && !strcmp(f + 7, c->param_name[i]))
            return number(v, path, -1000, 1000, &c->param[i], err);
    return foh_error_at(err, FOH_ERR_DATA, v->file, v->line, v->column,
                        "card '%s' has no number '%s' (prestige, bonus, adds.ATTRIBUTE, params.NAME)", id, f) == FOH_OK;
}

static int apply_variant(civ_set *cs, const char *dir, problems *pb, foh_error *err)
{
    static const char *const keys[] = {"name", "description", "ruleset", "set", NULL};
    char path[1100], yerr[600];
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    foh_yaml_node *f = foh_yaml_load(path, yerr, sizeof yerr);
    if (!f)
        return foh_error_set(err, FOH_ERR_DATA, "%s", yerr) == FOH_OK;
    if (!note_source(cs, path, err)) {
        foh_yaml_free(f);
        return 0;
    }
    const foh_yaml_node *set = foh_yaml_get(f, "set");
    int ok = f->kind == FOH_YAML_MAP && known_keys(f, keys, "variant.yaml", err);
    if (ok && (!set || set->kind != FOH_YAML_MAP))
        ok = foh_error_at(err, FOH_ERR_DATA, path, 1, 1, "a variant's 'set' maps paths (rules.NAME, cards.ID.FIELD) to values") ==
             FOH_OK;
    for (size_t i = 0; ok && i < set->n; i++) {
        const char *k = set->keys[i];
        if (!strncmp(k, "rules.", 6))
            ok = set_rule(&cs->rules, k + 6, set->items[i], set->key_lines[i], set->key_columns[i], err);
        else if (!strncmp(k, "bot.", 4))
            ok = set_weight(&cs->bot, k + 4, set->items[i], set->key_lines[i], set->key_columns[i], err);
        else if (!strncmp(k, "cards.", 6))
            ok = set_card_field(cs, k + 6, set->items[i], err);
        else if (!strcmp(k, "players.min") || !strcmp(k, "players.max"))
            ok = number(set->items[i], k, 2, FOH_MAX_PLAYERS, k[8] == 'i' ? &cs->min_players : &cs->max_players, err);
        else
            ok = foh_error_at(err, FOH_ERR_DATA, path, set->key_lines[i], set->key_columns[i],
                              "unknown path '%s' (rules.NAME, bot.NAME, cards.ID.FIELD, players.min, players.max)", k) ==
                 FOH_OK;
        if (!ok)
            ok = go_on(pb, err); /* checking: every entry's problem told */
    }
    if (ok && cs->min_players > cs->max_players)
        ok = foh_error_at(err, FOH_ERR_DATA, path, 1, 1, "players.min is above players.max") == FOH_OK;
    foh_yaml_free(f);
    return ok;
}

static int read_dir(civ_set *cs, const char *dir, links **lk, size_t *cap, size_t *values, problems *pb,
                    foh_error *err)
{
    char names[CIV_MAX_FILES][256], path[1400];
    int n;
    if (!list_files(dir, names, &n, err))
        return 0;
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (!read_file(cs, path, lk, cap, values, pb, err))
            return 0;
    }
    return 1;
}

civ_set *civ_set_load(const foh_load_request *req, foh_error *err)
{
    civ_set *cs = calloc(1, sizeof *cs);
    links *lk = NULL;
    size_t cap = 0, values = FOH_YAML_MAX_NODES;
    if (!cs) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return NULL;
    }
    defaults(cs);
    static const char *const ages[CIV_AGES] = {"Ancient", "Medieval", "Revolution", "Modern"};
    for (int a = 0; a < CIV_AGES; a++)
        snprintf(cs->age_name[a], CIV_NAME, "%s", ages[a]);
    int ok = 1;
    problems pb = {req, 0};
    for (int d = 0; ok && d < req->ndirs; d++)
        ok = read_game(cs, req->dirs[d], d == 0, err) && read_dir(cs, req->dirs[d], &lk, &cap, &values, &pb, err);
    for (int c = 0; ok && c < cs->ncards; c++)
        for (int link = 0; ok && link < 2; link++)
            if (!resolve(cs, link ? lk[c].join : lk[c].boon, c, link ? "join" : "boon",
                         link ? &cs->card[c].join : &cs->card[c].boon, err))
                ok = go_on(&pb, err);
    for (int v = 0; ok && v < req->nvariants; v++)
        ok = apply_variant(cs, req->variants[v], &pb, err);
    if (ok && pb.reported) { /* every problem told: the load fails */
        foh_error_set(err, FOH_ERR_DATA, "%d problem%s in the card set", pb.reported, pb.reported == 1 ? "" : "s");
        free(lk);
        civ_set_free(cs);
        return NULL;
    }
    int victory = 0;
    for (int c = 0; ok && c < cs->ncards; c++)
        victory += cs->card[c].type == CIV_VICTORY;
    if (ok && victory < cs->rules.face_up_victory)
        ok = foh_error_set(err, FOH_ERR_DATA, "%s: %d Victory cards, fewer than the %d turned up each age", req->dirs[0],
                           victory, cs->rules.face_up_victory) == FOH_OK;
    free(lk);
    if (!ok) {
        if (req->report)
            req->report(req->report_ctx, 0, err);
        civ_set_free(cs);
        return NULL;
    }
    label_cards(cs);
    return cs;
}

void civ_set_free(civ_set *cs)
{
    if (!cs)
        return;
    for (int c = 0; c < cs->ncards; c++)
        free(cs->card[c].effect);
    for (int f = 0; f < cs->nfiles; f++)
        foh_yaml_free(cs->trees[f]);
    free(cs->trees);
    for (int i = 0; i < cs->nsources; i++)
        free(cs->source_path[i]);
    free(cs->source_path);
    free(cs->source_hash);
    free(cs->card);
    free(cs->helpers);
    free(cs);
}

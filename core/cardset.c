/* Card set loading: game.yaml (the vocabulary) and the card files.
 * Every name (icon, type, age, timing, card) comes from the data. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lua_bridge.h"
#include "variant.h"
#include "foh/yaml.h"

typedef struct {
    foh_cardset *cs;
    const char *file;
    foh_error *err;
    const char *card; /* card id being read, for messages */
} loader;

/* Report a data error at FILE:LINE (naming the card being read, if any). */
static int bad_at(loader *ld, const char *file, int line, const char *fmt, const char *a, const char *b)
{
    char what[400];
    snprintf(what, sizeof what, fmt, a ? a : "", b ? b : "");
    if (ld->card)
        foh_error_set(ld->err, FOH_ERR_DATA, "%s:%d: card '%s': %s", file, line, ld->card, what);
    else
        foh_error_set(ld->err, FOH_ERR_DATA, "%s:%d: %s", file, line, what);
    return 0;
}

static int bad(loader *ld, int line, const char *fmt, const char *a, const char *b)
{
    return bad_at(ld, ld->file, line, fmt, a, b);
}

/* A data error at node N, in the file N was read from. */
static int bad_node(loader *ld, const foh_yaml_node *n, const char *fmt, const char *a, const char *b)
{
    return bad_at(ld, n->file, n->line, fmt, a, b);
}

/* Reject keys of map M that are not in ALLOWED (NULL-terminated). */
static int only_keys(loader *ld, const foh_yaml_node *m, const char *const *allowed)
{
    for (size_t i = 0; i < m->n; i++) {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            ok |= strcmp(*a, m->keys[i]) == 0;
        if (!ok)
            return bad_at(ld, m->file, m->key_lines[i], "unknown field '%s'", m->keys[i], NULL);
    }
    return 1;
}

static const char *scalar(loader *ld, const foh_yaml_node *m, const char *key, int required)
{
    const foh_yaml_node *v = foh_yaml_get(m, key);
    if (!v) {
        if (required)
            bad_node(ld, m, "missing field '%s'", key, NULL);
        return NULL;
    }
    if (v->kind != FOH_YAML_SCALAR) {
        bad_node(ld, v, "field '%s' must be a single value", key, NULL);
        return NULL;
    }
    return v->text;
}

static int copy_name(loader *ld, char *dst, size_t len, const char *src, int line)
{
    if (strlen(src) >= len)
        return bad(ld, line, "name '%s' is too long (at most 47 characters)", src, NULL);
    strcpy(dst, src);
    return 1;
}

static int parse_int(loader *ld, const foh_yaml_node *v, int lo, int hi, int *out)
{
    char *end;
    if (!v || v->kind != FOH_YAML_SCALAR)
        return v ? bad_node(ld, v, "expected a whole number", NULL, NULL) : bad(ld, 0, "missing a whole number", NULL, NULL);
    long x = strtol(v->text, &end, 10);
    if (*v->text == '\0' || *end != '\0' || x < lo || x > hi) {
        char range[64];
        snprintf(range, sizeof range, "%d..%d", lo, hi);
        return bad_node(ld, v, "'%s' is not a whole number in %s", v->text, range);
    }
    *out = (int)x;
    return 1;
}

static int parse_bool(loader *ld, const foh_yaml_node *v, int *out)
{
    if (!v) {
        *out = 0;
        return 1;
    }
    if (v->kind == FOH_YAML_SCALAR && (!strcmp(v->text, "true") || !strcmp(v->text, "yes"))) {
        *out = 1;
        return 1;
    }
    if (v->kind == FOH_YAML_SCALAR && (!strcmp(v->text, "false") || !strcmp(v->text, "no"))) {
        *out = 0;
        return 1;
    }
    return bad_node(ld, v, "expected true or false", NULL, NULL);
}

static int find_named(const char *names, size_t stride, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names + (size_t)i * stride, name) == 0)
            return i;
    return -1;
}

static int icon_index(loader *ld, const foh_yaml_node *v)
{
    if (!v || v->kind != FOH_YAML_SCALAR)
        return (v ? bad_node(ld, v, "expected an icon name", NULL, NULL) : bad(ld, 0, "missing an icon name", NULL, NULL)) - 1;
    int i = foh_cardset_icon_find(ld->cs, v->text);
    if (i < 0)
        bad_node(ld, v, "unknown icon '%s'", v->text, NULL);
    return i;
}

static int age_index(loader *ld, const foh_yaml_node *v)
{
    if (!v || v->kind != FOH_YAML_SCALAR)
        return (v ? bad_node(ld, v, "expected an age name", NULL, NULL) : bad(ld, 0, "missing an age name", NULL, NULL)) - 1;
    for (int i = 0; i < ld->cs->nages; i++)
        if (strcmp(ld->cs->age[i].name, v->text) == 0)
            return i;
    return bad_node(ld, v, "unknown age '%s'", v->text, NULL) - 1;
}

/* A list of icon names as a bit mask. */
static int icon_mask(loader *ld, const foh_yaml_node *v, uint32_t *mask)
{
    *mask = 0;
    if (!v || v->kind != FOH_YAML_SEQ)
        return v ? bad_node(ld, v, "expected a list of icon names", NULL, NULL) : bad(ld, 0, "missing a list of icon names", NULL, NULL);
    for (size_t i = 0; i < v->n; i++) {
        int ic = icon_index(ld, v->items[i]);
        if (ic < 0)
            return 0;
        *mask |= 1u << ic;
    }
    return 1;
}

/* Fold "dir/../" out of a relative path so messages name files plainly. */
static void normalize_path(char *path)
{
    char *seg[64];
    int n = 0;
    int absolute = path[0] == '/';
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", path);
    for (char *save = NULL, *t = strtok_r(copy, "/", &save); t && n < 64; t = strtok_r(NULL, "/", &save)) {
        if (!strcmp(t, "."))
            continue;
        if (!strcmp(t, "..") && n > 0 && strcmp(seg[n - 1], ".."))
            n--;
        else
            seg[n++] = t;
    }
    char out[1024] = "";
    size_t len = 0;
    if (absolute)
        out[len++] = '/';
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%s", i ? "/" : "", seg[i]);
    snprintf(path, strlen(path) + 1, "%s", n || absolute ? out : ".");
}

/* FNV-1a 64 (an identity check for save files, not security): H updated
 * with BYTES. */
#define FNV_START 0xcbf29ce484222325ULL
static uint64_t fnv1a_more(uint64_t h, const char *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)bytes[i]) * 0x100000001b3ULL;
    return h;
}

static uint64_t fnv1a(const char *bytes, size_t n) { return fnv1a_more(FNV_START, bytes, n); }

/* Remember a source of the card set: LABEL and the hash of its bytes. */
static void add_source(foh_cardset *cs, const char *label, uint64_t hash)
{
    if (cs->nsources >= FOH_MAX_SOURCES)
        return;
    snprintf(cs->source[cs->nsources].label, sizeof cs->source[0].label, "%s", label);
    cs->source[cs->nsources++].hash = hash;
}

/* Remember file PATH (already read successfully) as LABEL with its hash. */
static void record_source(foh_cardset *cs, const char *label, const char *path)
{
    FILE *f = fopen(path, "rb");
    uint64_t h = FNV_START;
    char buf[8192];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
        h = fnv1a_more(h, buf, n);
    if (f)
        fclose(f);
    add_source(cs, label, h);
}

/* Read the Lua file named by node S, relative to folder DIR, into the
 * card set's scripts (loaded into the sandbox in order). */
static int load_script(loader *ld, const char *dir, const foh_yaml_node *s)
{
    foh_cardset *cs = ld->cs;
    if (s->kind != FOH_YAML_SCALAR)
        return bad_node(ld, s, "a script is a file path", NULL, NULL);
    if (cs->nscripts >= FOH_MAX_SCRIPTS)
        return bad_node(ld, s, "at most 16 scripts in all", NULL, NULL);
    char path[sizeof cs->script[0].path];
    /* Relative paths are relative to the folder of the YAML file naming them. */
    if (snprintf(path, sizeof path, "%s%s%s", s->text[0] == '/' ? "" : dir, s->text[0] == '/' ? "" : "/",
                 s->text) >= (int)sizeof path)
        return bad_node(ld, s, "script path '%s' is too long", s->text, NULL);
    normalize_path(path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return bad_node(ld, s, "cannot open script '%s'", path, NULL);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *src = len >= 0 && len < (1 << 22) ? malloc((size_t)len + 1) : NULL;
    if (!src || fread(src, 1, (size_t)len, f) != (size_t)len) {
        free(src);
        fclose(f);
        return bad_node(ld, s, "cannot read script '%s'", path, NULL);
    }
    fclose(f);
    src[len] = '\0';
    snprintf(cs->script[cs->nscripts].path, sizeof cs->script[0].path, "%s", path);
    cs->script[cs->nscripts++].src = src;
    char label[sizeof cs->source[0].label];
    const char *base = strrchr(path, '/');
    snprintf(label, sizeof label, "script %.56s", base ? base + 1 : path);
    add_source(cs, label, fnv1a(src, (size_t)len));
    return 1;
}

static int read_vocabulary(loader *ld, const foh_yaml_node *root)
{
    foh_cardset *cs = ld->cs;
    static const char *const top[] = {"name", "players", "icons", "ages", "card_types", "timings",
                                      "setup", "rules", "scripts", NULL};
    if (root->kind != FOH_YAML_MAP)
        return bad_node(ld, root, "game.yaml must be a map", NULL, NULL);
    if (!only_keys(ld, root, top))
        return 0;

    const foh_yaml_node *players = foh_yaml_get(root, "players");
    static const char *const player_keys[] = {"min", "max", "note", NULL};
    if (!players || players->kind != FOH_YAML_MAP)
        return bad_node(ld, root, "missing map 'players' {min, max, note}", NULL, NULL);
    if (!only_keys(ld, players, player_keys) ||
        !parse_int(ld, foh_yaml_get(players, "min"), 1, FOH_MAX_PLAYERS, &cs->min_players) ||
        !parse_int(ld, foh_yaml_get(players, "max"), cs->min_players, FOH_MAX_PLAYERS, &cs->max_players))
        return 0;
    const char *note = scalar(ld, players, "note", 0);
    snprintf(cs->players_note, sizeof cs->players_note, "%s", note ? note : "");

    const foh_yaml_node *icons = foh_yaml_get(root, "icons");
    if (!icons || icons->kind != FOH_YAML_SEQ || icons->n == 0 || icons->n > FOH_MAX_ICONS)
        return bad_node(ld, icons ? icons : root, "'icons' must list 1 to 12 icon names", NULL, NULL);
    for (size_t i = 0; i < icons->n; i++) {
        const foh_yaml_node *v = icons->items[i];
        if (v->kind != FOH_YAML_SCALAR || !copy_name(ld, cs->icon[i], FOH_NAME, v->text, v->line))
            return bad_node(ld, v, "bad icon name", NULL, NULL);
        if (find_named(cs->icon[0], FOH_NAME, (int)i, v->text) >= 0)
            return bad_node(ld, v, "icon '%s' listed twice", v->text, NULL);
        cs->nicons = (int)i + 1;
    }

    const foh_yaml_node *ages = foh_yaml_get(root, "ages");
    if (!ages || ages->kind != FOH_YAML_SEQ || ages->n == 0 || ages->n > FOH_MAX_AGES)
        return bad_node(ld, ages ? ages : root, "'ages' must list 1 to 10 ages", NULL, NULL);
    for (size_t i = 0; i < ages->n; i++) {
        const foh_yaml_node *a = ages->items[i];
        static const char *const keys[] = {"name", "value", NULL};
        if (a->kind != FOH_YAML_MAP || !only_keys(ld, a, keys))
            return bad_node(ld, a, "an age is {name, value}", NULL, NULL);
        const char *name = scalar(ld, a, "name", 1);
        if (!name || !copy_name(ld, cs->age[i].name, FOH_NAME, name, a->line) ||
            !parse_int(ld, foh_yaml_get(a, "value"), 0, 99, &cs->age[i].value))
            return 0;
        cs->nages = (int)i + 1;
    }

    const foh_yaml_node *types = foh_yaml_get(root, "card_types");
    if (!types || types->kind != FOH_YAML_SEQ || types->n == 0 || types->n > FOH_MAX_TYPES)
        return bad_node(ld, types ? types : root, "'card_types' must list 1 to 12 types", NULL, NULL);
    for (size_t i = 0; i < types->n; i++) {
        const foh_yaml_node *t = types->items[i];
        static const char *const keys[] = {"name", "placement", "investor_bonus", NULL};
        if (t->kind != FOH_YAML_MAP || !only_keys(ld, t, keys))
            return bad_node(ld, t, "a card type is {name, placement, investor_bonus}", NULL, NULL);
        const char *name = scalar(ld, t, "name", 1);
        const char *place = scalar(ld, t, "placement", 1);
        if (!name || !place || !copy_name(ld, cs->type[i].name, FOH_NAME, name, t->line))
            return 0;
        static const char *const places[] = {"stack", "single", "side_by_side", "none"};
        int p = -1;
        for (int k = 0; k < 4; k++)
            if (!strcmp(place, places[k]))
                p = k;
        if (p < 0)
            return bad_node(ld, t, "placement '%s' is not stack, single, side_by_side or none", place, NULL);
        cs->type[i].place = (foh_placement)p;
        cs->type[i].bonus_icon = -1;
        if (foh_yaml_get(t, "investor_bonus") && (cs->type[i].bonus_icon = icon_index(ld, foh_yaml_get(t, "investor_bonus"))) < 0)
            return 0;
        cs->ntypes = (int)i + 1;
    }

    const foh_yaml_node *timings = foh_yaml_get(root, "timings");
    if (!timings || timings->kind != FOH_YAML_SEQ || timings->n == 0 || timings->n > FOH_MAX_TIMINGS)
        return bad_node(ld, timings ? timings : root, "'timings' must list 1 to 12 timings", NULL, NULL);
    for (size_t i = 0; i < timings->n; i++) {
        const foh_yaml_node *t = timings->items[i];
        static const char *const keys[] = {"name", "fires", NULL};
        if (t->kind != FOH_YAML_MAP || !only_keys(ld, t, keys))
            return bad_node(ld, t, "a timing is {name, fires}", NULL, NULL);
        const char *name = scalar(ld, t, "name", 1);
        const char *fires = scalar(ld, t, "fires", 1);
        if (!name || !fires || !copy_name(ld, cs->timing[i].name, FOH_NAME, name, t->line))
            return 0;
        static const char *const kinds[] = {"never", "on_gain", "permanent", "turn_action", "end_game"};
        int f = -1;
        for (int k = 0; k < 5; k++)
            if (!strcmp(fires, kinds[k]))
                f = k;
        if (f < 0)
            return bad_node(ld, t, "fires '%s' is not never, on_gain, permanent, turn_action or end_game", fires, NULL);
        cs->timing[i].fire = (foh_fire)f;
        cs->ntimings = (int)i + 1;
    }

    const foh_yaml_node *setup = foh_yaml_get(root, "setup");
    static const char *const setup_keys[] = {"market_size", "market_age", "starting_card_age", "starting_tokens",
                                             "tokens_in_box", "supply", "deck_bottom", "deck_ages",
                                             "starting_cards_per_player", "neutral_investors", NULL};
    if (!setup || setup->kind != FOH_YAML_MAP)
        return bad_node(ld, root, "missing map 'setup'", NULL, NULL);
    if (!only_keys(ld, setup, setup_keys))
        return 0;
    const foh_yaml_node *ms = foh_yaml_get(setup, "market_size");
    if (!ms || ms->kind != FOH_YAML_MAP)
        return bad_node(ld, setup, "setup.market_size must map player counts to Market sizes", NULL, NULL);
    for (size_t i = 0; i < ms->n; i++) {
        int p = atoi(ms->keys[i]);
        if (p < 1 || p > FOH_MAX_PLAYERS)
            return bad_at(ld, ms->file, ms->key_lines[i], "setup.market_size: '%s' is not a player count", ms->keys[i],
                          NULL);
        if (!parse_int(ld, ms->items[i], 1, FOH_MAX_MARKET, &cs->market_size[p]))
            return 0;
    }
    if ((cs->market_age = age_index(ld, foh_yaml_get(setup, "market_age"))) < 0 ||
        (cs->starting_age = age_index(ld, foh_yaml_get(setup, "starting_card_age"))) < 0 ||
        !parse_int(ld, foh_yaml_get(setup, "starting_tokens"), 0, 1000, &cs->starting_tokens) ||
        !parse_int(ld, foh_yaml_get(setup, "tokens_in_box"), 0, FOH_MAX_BOX_TOKENS, &cs->tokens_in_box) ||
        !parse_int(ld, foh_yaml_get(setup, "supply"), 0, FOH_MAX_BOX_TOKENS, &cs->supply_start))
        return 0;
    cs->starting_cards = 1;
    if (foh_yaml_get(setup, "starting_cards_per_player") &&
        !parse_int(ld, foh_yaml_get(setup, "starting_cards_per_player"), 0, 8, &cs->starting_cards))
        return 0;
    if (foh_yaml_get(setup, "neutral_investors") &&
        !parse_int(ld, foh_yaml_get(setup, "neutral_investors"), 0, FOH_MAX_NEUTRAL, &cs->neutral_investors))
        return 0;
    const foh_yaml_node *da = foh_yaml_get(setup, "deck_ages");
    if (!da || da->kind != FOH_YAML_SEQ || da->n > FOH_MAX_AGES)
        return bad_node(ld, setup, "setup.deck_ages must list ages, bottom of the deck first", NULL, NULL);
    for (size_t i = 0; i < da->n; i++)
        if ((cs->deck_ages[cs->ndeck_ages++] = age_index(ld, da->items[i])) < 0)
            return 0;

    const foh_yaml_node *rules = foh_yaml_get(root, "rules");
    static const char *const rule_keys[] = {"harvest_icon", "snipe_compensation_icon", "attacker_strength",
                                            "defender_strength", "full_vp_icons", "age_check_gap",
                                            "age_check_repeat", "vp_per_full_icon", "other_icons_per_vp",
                                            "turn_limit", NULL};
    if (!rules || rules->kind != FOH_YAML_MAP)
        return bad_node(ld, root, "missing map 'rules'", NULL, NULL);
    if (!only_keys(ld, rules, rule_keys))
        return 0;
    if ((cs->harvest_icon = icon_index(ld, foh_yaml_get(rules, "harvest_icon"))) < 0 ||
        (cs->snipe_icon = icon_index(ld, foh_yaml_get(rules, "snipe_compensation_icon"))) < 0 ||
        !icon_mask(ld, foh_yaml_get(rules, "attacker_strength"), &cs->attacker_icons) ||
        !icon_mask(ld, foh_yaml_get(rules, "defender_strength"), &cs->defender_icons) ||
        !icon_mask(ld, foh_yaml_get(rules, "full_vp_icons"), &cs->full_vp_icons) ||
        !parse_int(ld, foh_yaml_get(rules, "age_check_gap"), 1, 99, &cs->age_check_gap))
        return 0;
    cs->vp_per_full_icon = 1;
    cs->other_icons_per_vp = 2;
    if (!parse_bool(ld, foh_yaml_get(rules, "age_check_repeat"), &cs->age_check_repeat) ||
        (foh_yaml_get(rules, "vp_per_full_icon") &&
         !parse_int(ld, foh_yaml_get(rules, "vp_per_full_icon"), 0, 100, &cs->vp_per_full_icon)) ||
        (foh_yaml_get(rules, "other_icons_per_vp") &&
         !parse_int(ld, foh_yaml_get(rules, "other_icons_per_vp"), 1, 100, &cs->other_icons_per_vp)))
        return 0;
    /* Engine ruling E1 (RULINGS.md): the rulebook has no turn limit, but a
     * game must end. */
    cs->turn_limit = FOH_DEFAULT_TURN_LIMIT;
    if (foh_yaml_get(rules, "turn_limit") &&
        !parse_int(ld, foh_yaml_get(rules, "turn_limit"), 1, FOH_MAX_TURN_LIMIT, &cs->turn_limit))
        return 0;

    const foh_yaml_node *scripts = foh_yaml_get(root, "scripts");
    if (scripts && scripts->kind != FOH_YAML_SEQ)
        return bad_node(ld, scripts, "'scripts' must list Lua files", NULL, NULL);
    for (size_t i = 0; scripts && i < scripts->n; i++)
        if (!load_script(ld, cs->dir, scripts->items[i]))
            return 0;
    return 1;
}

/* Resolve setup.deck_bottom once the cards are known. */
static int read_deck_bottom(loader *ld, const foh_yaml_node *root)
{
    const foh_yaml_node *db = foh_yaml_get(foh_yaml_get(root, "setup"), "deck_bottom");
    if (!db)
        return 1;
    if (db->kind != FOH_YAML_SEQ || db->n > 8)
        return bad_node(ld, db, "setup.deck_bottom must list at most 8 card ids, bottom first", NULL, NULL);
    for (size_t i = 0; i < db->n; i++) {
        const foh_yaml_node *v = db->items[i];
        int c = v->kind == FOH_YAML_SCALAR ? foh_cardset_find(ld->cs, v->text) : -1;
        if (c < 0)
            return bad_node(ld, v, "setup.deck_bottom: unknown card '%s'", v->kind == FOH_YAML_SCALAR ? v->text : "?", NULL);
        ld->cs->deck_bottom[ld->cs->ndeck_bottom++] = c;
    }
    return 1;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int read_card(loader *ld, const foh_yaml_node *m)
{
    foh_cardset *cs = ld->cs;
    static const char *const keys[] = {"id", "name", "age", "type", "timing", "obsolete", "ends_game", "stripe",
                                       "stripe_source", "text", "edition_note", "effect", NULL};
    ld->card = NULL;
    ld->file = m->file; /* a variant may add a card from its own file */
    if (m->kind != FOH_YAML_MAP)
        return bad_node(ld, m, "each card is a map of fields", NULL, NULL);
    const char *id = scalar(ld, m, "id", 1);
    if (!id)
        return 0;
    if (foh_cardset_find(cs, id) >= 0)
        return bad_node(ld, m, "card id '%s' defined twice", id, NULL);
    if (cs->ncards >= FOH_MAX_CARDS)
        return bad_node(ld, m, "more than 128 cards", NULL, NULL);
    foh_card_def *c = &cs->card[cs->ncards];
    memset(c, 0, sizeof *c);
    if (!copy_name(ld, c->id, sizeof c->id, id, m->line))
        return 0;
    cs->ncards++; /* from here on foh_cardset_free frees what the card holds */
    ld->card = c->id;
    if (!only_keys(ld, m, keys))
        return 0;
    snprintf(c->file, sizeof c->file, "%s", m->file);
    c->line = m->line;

    const char *name = scalar(ld, m, "name", 1), *type = scalar(ld, m, "type", 1);
    const char *timing = scalar(ld, m, "timing", 1), *text = scalar(ld, m, "text", 1);
    if (!name || !type || !timing || !text || !copy_name(ld, c->name, sizeof c->name, name, m->line))
        return 0;
    if ((c->age = age_index(ld, foh_yaml_get(m, "age"))) < 0)
        return 0;
    if ((c->type = find_named(cs->type[0].name, sizeof cs->type[0], cs->ntypes, type)) < 0)
        return bad_node(ld, foh_yaml_get(m, "type"), "unknown card type '%s'", type, NULL);
    if ((c->timing = find_named(cs->timing[0].name, sizeof cs->timing[0], cs->ntimings, timing)) < 0)
        return bad_node(ld, foh_yaml_get(m, "timing"), "unknown effect timing '%s'", timing, NULL);
    if (!parse_bool(ld, foh_yaml_get(m, "obsolete"), &c->obsolete) ||
        !parse_bool(ld, foh_yaml_get(m, "ends_game"), &c->ends_game))
        return 0;

    const foh_yaml_node *stripe = foh_yaml_get(m, "stripe");
    if (!stripe || stripe->kind != FOH_YAML_MAP)
        return bad_node(ld, stripe ? stripe : m, "'stripe' must map icon names to counts ({} for none)", NULL, NULL);
    for (size_t i = 0; i < stripe->n; i++) {
        int ic = foh_cardset_icon_find(cs, stripe->keys[i]);
        int count;
        if (ic < 0)
            return bad_at(ld, stripe->file, stripe->key_lines[i], "unknown icon '%s' in stripe", stripe->keys[i], NULL);
        if (!parse_int(ld, stripe->items[i], 0, 99, &count))
            return 0;
        c->stripe[ic] = (int8_t)count;
    }
    const char *src = scalar(ld, m, "stripe_source", 0);
    if (!copy_name(ld, c->stripe_source, sizeof c->stripe_source, src ? src : "printed", m->line))
        return 0;
    const char *ko = scalar(ld, m, "edition_note", 0);
    c->text = dup_text(text);
    c->edition_note = dup_text(ko ? ko : "same");

    const foh_yaml_node *eff = foh_yaml_get(m, "effect");
    foh_fire fire = cs->timing[c->timing].fire;
    if (eff) {
        if (eff->kind != FOH_YAML_SCALAR)
            return bad_node(ld, eff, "'effect' must be Lua source text", NULL, NULL);
        c->effect_src = dup_text(eff->text);
        c->effect_line = eff->line + eff->block_scalar;
        snprintf(c->effect_file, sizeof c->effect_file, "%s", eff->file);
    } else if (fire != FOH_FIRE_NEVER) {
        return bad_node(ld, m, "timing '%s' needs an 'effect' (Lua)", timing, NULL);
    }
    if (!c->text || !c->edition_note || (eff && !c->effect_src))
        return bad_node(ld, m, "out of memory", NULL, NULL);
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Card files: every *.yaml in DIR but game.yaml, sorted by name. */
static int list_card_files(const char *dir, char ***out, int *n, foh_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return foh_error_set(err, FOH_ERR_DATA, "%s: cannot open card set folder", dir), 0;
    struct dirent *e;
    *n = 0;
    *out = NULL;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") || !strcmp(e->d_name, "game.yaml"))
            continue;
        char **grown = realloc(*out, (size_t)(*n + 1) * sizeof **out);
        if (!grown)
            break;
        *out = grown;
        (*out)[(*n)++] = dup_text(e->d_name);
    }
    closedir(d);
    qsort(*out, (size_t)*n, sizeof **out, cmp_str);
    return 1;
}

foh_cardset *foh_cardset_load(const char *dir, foh_error *err) { return foh_cardset_load_variants(dir, NULL, 0, err); }

foh_cardset *foh_cardset_load_variants(const char *dir, const char *const *variants, int nvariants, foh_error *err)
{
    foh_cardset *cs = calloc(1, sizeof *cs);
    foh_variant_cards *cards = calloc(1, sizeof *cards);
    foh_variant_claims *claims = calloc(1, sizeof *claims);
    foh_yaml_node *docs[64] = {0}, *vdocs[FOH_MAX_VARIANTS] = {0}, *game = NULL;
    int ndocs = 0, ok = cs && cards && claims;
    if (!ok)
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
    if (ok && nvariants > FOH_MAX_VARIANTS)
        ok = foh_error_set(err, FOH_ERR_USAGE, "at most %d variants", FOH_MAX_VARIANTS) == FOH_OK;
    char path[768], yerr[600];
    if (ok) {
        snprintf(cs->dir, sizeof cs->dir, "%s", dir);
        snprintf(path, sizeof path, "%s/game.yaml", dir);
        game = foh_yaml_load(path, yerr, sizeof yerr);
        if (!game)
            ok = foh_error_set(err, FOH_ERR_DATA, "%s", yerr) == FOH_OK;
        else
            record_source(cs, "game.yaml", path);
    }
    loader ld = {.cs = cs, .file = path, .err = err};

    /* The card files' entries, in file-name order. */
    char **files = NULL;
    int nfiles = 0;
    ok = ok && list_card_files(dir, &files, &nfiles, err);
    for (int i = 0; ok && i < nfiles; i++) {
        char cpath[768];
        snprintf(cpath, sizeof cpath, "%s/%s", dir, files[i]);
        foh_yaml_node *doc = ndocs < 64 ? foh_yaml_load(cpath, yerr, sizeof yerr) : NULL;
        if (!doc) {
            ok = foh_error_set(err, FOH_ERR_DATA, "%s", ndocs < 64 ? yerr : "more than 64 card files") == FOH_OK;
            break;
        }
        docs[ndocs++] = doc;
        record_source(cs, files[i], cpath);
        if (doc->kind != FOH_YAML_SEQ) {
            loader cl = {.cs = cs, .file = cpath, .err = err};
            ok = bad(&cl, doc->line, "a card file is a list of cards", NULL, NULL);
        }
        for (size_t k = 0; ok && k < doc->n; k++) {
            if (cards->n >= FOH_MAX_CARDS) {
                loader cl = {.cs = cs, .file = cpath, .err = err};
                ok = bad_node(&cl, doc->items[k], "more than 128 cards", NULL, NULL);
                break;
            }
            cards->node[cards->n++] = doc->items[k];
        }
    }
    for (int i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);

    /* Variants overlay game.yaml and the card entries, in order. */
    for (int v = 0; ok && v < nvariants; v++) {
        snprintf(path, sizeof path, "%s/variant.yaml", variants[v]);
        vdocs[v] = foh_yaml_load(path, yerr, sizeof yerr);
        if (!vdocs[v])
            ok = foh_error_set(err, FOH_ERR_DATA, "%s", yerr) == FOH_OK;
        else
            ok = foh_variant_apply(vdocs[v], cs, game, cards, claims, err);
        if (ok) {
            char label[sizeof cs->source[0].label];
            snprintf(label, sizeof label, "variant %s", cs->variant[cs->nvariants - 1]);
            record_source(cs, label, path);
        }
    }

    snprintf(path, sizeof path, "%s/game.yaml", dir);
    ok = ok && read_vocabulary(&ld, game);
    if (ok) {
        cs->players_allowed = 0;
        for (int p = cs->min_players; p <= cs->max_players; p++)
            cs->players_allowed |= 1u << p;
        if (claims->players_set)
            cs->players_allowed = claims->players_mask;
        for (int p = 1; ok && p <= FOH_MAX_PLAYERS; p++)
            if ((cs->players_allowed >> p & 1) && !cs->market_size[p]) {
                char key[8];
                snprintf(key, sizeof key, "%d", p);
                ok = bad_node(&ld, foh_yaml_get(foh_yaml_get(game, "setup"), "market_size"),
                              "setup.market_size has no entry for %s players", key, NULL);
            }
    }
    for (int v = 0; ok && v < nvariants; v++) {
        const foh_yaml_node *scripts = foh_yaml_get(vdocs[v], "scripts");
        char vdir[768];
        snprintf(vdir, sizeof vdir, "%s", variants[v]);
        if (scripts && scripts->kind != FOH_YAML_SEQ)
            ok = bad_node(&ld, scripts, "'scripts' must list Lua files", NULL, NULL);
        for (size_t i = 0; ok && scripts && i < scripts->n; i++)
            ok = load_script(&ld, vdir, scripts->items[i]);
    }
    for (size_t k = 0; ok && k < cards->n; k++)
        ok = read_card(&ld, cards->node[k]);
    ld.card = NULL;
    ld.file = game ? game->file : path;
    if (ok && cs->ncards == 0)
        ok = bad(&ld, 1, "the card set has no cards", NULL, NULL);
    ok = ok && read_deck_bottom(&ld, game);
    /* Base trees first: they may hold nodes whose file name a variant owns. */
    for (int i = 0; i < ndocs; i++)
        foh_yaml_free(docs[i]);
    foh_yaml_free(game);
    for (int v = 0; v < nvariants; v++)
        foh_yaml_free(vdocs[v]);
    free(cards);
    free(claims);
    ok = ok && foh_lua_check_cardset(cs, err) == FOH_OK;
    if (!ok) {
        foh_cardset_free(cs);
        return NULL;
    }
    return cs;
}

void foh_cardset_free(foh_cardset *cs)
{
    if (!cs)
        return;
    for (int i = 0; i < cs->ncards; i++) {
        free(cs->card[i].text);
        free(cs->card[i].edition_note);
        free(cs->card[i].effect_src);
    }
    for (int i = 0; i < cs->nscripts; i++)
        free(cs->script[i].src);
    for (int i = 0; i < cs->nhooks; i++)
        free(cs->hook[i].src);
    free(cs);
}

int foh_cardset_card_count(const foh_cardset *cs) { return cs->ncards; }

int foh_cardset_find(const foh_cardset *cs, const char *id)
{
    for (int i = 0; i < cs->ncards; i++)
        if (strcmp(cs->card[i].id, id) == 0)
            return i;
    return -1;
}

foh_status foh_cardset_card(const foh_cardset *cs, int card, foh_card_info *out)
{
    if (card < 0 || card >= cs->ncards)
        return foh_error_set(NULL, FOH_ERR_USAGE, "no card %d", card);
    const foh_card_def *c = &cs->card[card];
    out->id = c->id;
    out->name = c->name;
    out->age = cs->age[c->age].name;
    out->age_value = cs->age[c->age].value;
    out->type = cs->type[c->type].name;
    out->timing = cs->timing[c->timing].name;
    out->obsolete = c->obsolete;
    for (int i = 0; i < FOH_MAX_ICONS; i++)
        out->stripe[i] = c->stripe[i];
    out->stripe_source = c->stripe_source;
    out->text = c->text;
    out->edition_note = c->edition_note;
    out->file = c->file;
    out->line = c->line;
    return FOH_OK;
}

int foh_cardset_icon_count(const foh_cardset *cs) { return cs->nicons; }
const char *foh_cardset_icon_name(const foh_cardset *cs, int icon)
{
    return icon >= 0 && icon < cs->nicons ? cs->icon[icon] : "?";
}
int foh_cardset_icon_find(const foh_cardset *cs, const char *name)
{
    return find_named(cs->icon[0], FOH_NAME, cs->nicons, name);
}
void foh_cardset_icon_list(const foh_cardset *cs, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < cs->nicons && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", cs->icon[i]);
}

int foh_cardset_type_count(const foh_cardset *cs) { return cs->ntypes; }
const char *foh_cardset_type_name(const foh_cardset *cs, int type)
{
    return type >= 0 && type < cs->ntypes ? cs->type[type].name : "?";
}
int foh_cardset_min_players(const foh_cardset *cs) { return cs->min_players; }
int foh_cardset_max_players(const foh_cardset *cs) { return cs->max_players; }
int foh_cardset_tokens_in_box(const foh_cardset *cs) { return cs->tokens_in_box; }
int foh_cardset_variant_count(const foh_cardset *cs) { return cs->nvariants; }
int foh_cardset_source_count(const foh_cardset *cs) { return cs->nsources; }

const char *foh_cardset_source(const foh_cardset *cs, int i, uint64_t *hash)
{
    if (i < 0 || i >= cs->nsources)
        return NULL;
    if (hash)
        *hash = cs->source[i].hash;
    return cs->source[i].label;
}

uint64_t foh_cardset_hash(const foh_cardset *cs)
{
    uint64_t h = FNV_START;
    for (int i = 0; i < cs->nsources; i++) {
        h = (h ^ fnv1a(cs->source[i].label, strlen(cs->source[i].label))) * 0x100000001b3ULL;
        h = (h ^ cs->source[i].hash) * 0x100000001b3ULL;
    }
    return h;
}

const char *foh_cardset_variant_name(const foh_cardset *cs, int i)
{
    return i >= 0 && i < cs->nvariants ? cs->variant[i] : "?";
}
int foh_cardset_allows_players(const foh_cardset *cs, int players, const char **note)
{
    if (note)
        *note = cs->players_note;
    return players >= 1 && players <= FOH_MAX_PLAYERS && (cs->players_allowed >> players & 1);
}

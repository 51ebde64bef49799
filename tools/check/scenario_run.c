/* scenario_run: run scenario files (see scenario_run.h, docs/scenarios.md).
 * A scenario sets up a position with the position API, plays its steps
 * through the match loop exactly as a real game does (a scripted seat
 * picks each step's action among the legal ones), and compares what it
 * expects with what the public read functions say. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/scenario_run.h"
#include "common/cli.h"
#include "foh/yaml.h"

/* Card sets kept loaded while one file's scenarios run. */
#define SCENARIO_CARD_SETS 8

typedef struct {
    const char *file;
    const scenario_options *opt;
    scenario_stats *stats;
    foh_cardset *cs;
    foh_engine *eng;
    /* The card sets loaded for this file, most recent first (CS is the
     * first): a file whose scenarios alternate between sets loads each
     * once. A set that failed to load keeps its message (CS NULL). */
    struct loaded {
        char *key, *failure;
        foh_cardset *cs;
        foh_engine *eng;
    } loaded[SCENARIO_CARD_SETS];
    int nloaded;
    foh_game *g;
    const char *name;
    int failed;     /* a step or an expectation failed */
    int bad;        /* the scenario is malformed (ERR says why) */
    foh_error err;
    char where[200]; /* the step being run, for the report */
    char *report;   /* the failure's lines, grown as needed */
    size_t len, cap;
} runner;

/* ---- Messages ---- */

/* The scenario itself is wrong at FILE:LINE:COLUMN: stop it (the next one runs). */
static int malformed_at(runner *r, const char *file, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int malformed_at(runner *r, const char *file, int line, int column, const char *fmt, ...)
{
    if (r->bad)
        return 0;
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    foh_error_at(&r->err, FOH_ERR_DATA, file, line, column, "%s", msg);
    r->bad = 1;
    return 0;
}
#define malformed(r, n, ...) malformed_at((r), (n)->file, (n)->line, (n)->column, __VA_ARGS__)
#define malformed_key(r, m, i, ...) malformed_at((r), (m)->file, (m)->key_lines[i], (m)->key_columns[i], __VA_ARGS__)

/* Add a line to the report, grown as needed (out of memory, the line is
 * dropped; the scenario still fails). */
static void report(runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(runner *r, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t need = r->len + (size_t)(n < 0 ? 0 : n) + 2;
    if (need > r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 4096;
        while (cap < need)
            cap *= 2;
        char *grown = realloc(r->report, cap);
        if (!grown)
            return;
        r->report = grown;
        r->cap = cap;
    }
    r->len += (size_t)snprintf(r->report + r->len, r->cap - r->len, "%s\n", line);
}

/* A failed expectation: add a line to the report, under the step. */
static void mismatch(runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mismatch(runner *r, const char *fmt, ...)
{
    if (!r->failed && r->where[0])
        report(r, "    %s:", r->where);
    r->failed = 1;
    char msg[1800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* The report is printed line by line: a line break inside a message
     * (a script's label, a card's text) must not start a line of its own. */
    for (char *c = msg; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    report(r, "      %s", msg);
}

/* ---- Reading values ---- */

static int want_kind(runner *r, const foh_yaml_node *v, foh_yaml_kind kind, const char *what)
{
    static const char *const names[] = {"a single value", "a map", "a list"};
    if (v->kind != kind)
        return malformed(r, v, "%s must be %s, not %s", what, names[kind], foh_yaml_kind_name(v));
    return 1;
}

/* Reject keys of map M (WHAT, for messages) that are not in ALLOWED. */
static int only_keys(runner *r, const foh_yaml_node *m, const char *const *allowed, const char *what)
{
    if (!want_kind(r, m, FOH_YAML_MAP, what))
        return 0;
    int i = foh_yaml_unknown_key(m, allowed), n = 0;
    if (i < 0)
        return 1;
    while (allowed[n])
        n++;
    char hint[800];
    foh_error_hint(hint, sizeof hint, m->keys[i], "fields", allowed, n);
    return malformed_key(r, m, i, "unknown field '%s' in %s%s", m->keys[i], what, hint);
}

static const char *text_of(runner *r, const foh_yaml_node *v, const char *what)
{
    return want_kind(r, v, FOH_YAML_SCALAR, what) ? v->text : NULL;
}

static int int_of(runner *r, const foh_yaml_node *v, const char *what, int *out)
{
    const char *t = text_of(r, v, what);
    if (!t)
        return 0;
    char *end;
    long x = strtol(t, &end, 10);
    if (!*t || *end)
        return malformed(r, v, "%s: '%s' is not a whole number", what, t);
    if (x < -1000000 || x > 1000000)
        return malformed(r, v, "%s: %s is out of range (-1000000 to 1000000)", what, t);
    *out = (int)x;
    return 1;
}

static int bool_of(runner *r, const foh_yaml_node *v, const char *what, int *out)
{
    const char *t = text_of(r, v, what);
    if (!t)
        return 0;
    if (strcmp(t, "true") && strcmp(t, "false"))
        return malformed(r, v, "%s: expected true or false, not '%s'", what, t);
    *out = t[0] == 't';
    return 1;
}

/* The card whose id is TEXT (at V, or at key I of map M), or -1. */
static int card_named(runner *r, const char *text, const char *file, int line, int column)
{
    int c = foh_cardset_find(r->cs, text);
    if (c >= 0)
        return c;
    int n = foh_cardset_card_count(r->cs);
    const char **ids = malloc((size_t)n * sizeof *ids);
    const char *close = NULL;
    if (ids) {
        for (int i = 0; i < n; i++) {
            foh_card_info ci;
            foh_cardset_card(r->cs, i, &ci);
            ids[i] = ci.id;
        }
        close = foh_error_suggest(text, ids, n);
    }
    malformed_at(r, file, line, column, "unknown card id '%s'%s%s%s", text, close ? " (did you mean '" : "",
                 close ? close : "", close ? "'?)" : "");
    free(ids);
    return -1;
}

static int card_of(runner *r, const foh_yaml_node *v)
{
    const char *t = text_of(r, v, "a card");
    return t ? card_named(r, t, v->file, v->line, v->column) : -1;
}

static int card_key(runner *r, const foh_yaml_node *m, size_t i)
{
    return card_named(r, m->keys[i], m->file, m->key_lines[i], m->key_columns[i]);
}

/* A player number 1..players ("2" or "P2") in TEXT; the 0-based index or -1. */
static int player_named(runner *r, const char *text, const char *file, int line, int column)
{
    /* "P2" or "2": digits only (strtol alone would take " 2" and "P+1"). */
    const char *digits = text[0] == 'P' ? text + 1 : text;
    char *end;
    long p = digits[0] >= '0' && digits[0] <= '9' ? strtol(digits, &end, 10) : 0;
    if (!*text || p == 0 || *end || p < 1 || p > foh_game_players(r->g))
        return malformed_at(r, file, line, column, "'%s' is not a player (1 to %d)", text, foh_game_players(r->g)) -
               1;
    return (int)p - 1;
}

static int player_of(runner *r, const foh_yaml_node *v)
{
    const char *t = text_of(r, v, "a player");
    return t ? player_named(r, t, v->file, v->line, v->column) : -1;
}

static int player_key(runner *r, const foh_yaml_node *m, size_t i)
{
    return player_named(r, m->keys[i], m->file, m->key_lines[i], m->key_columns[i]);
}

static const char *card_id(runner *r, int c)
{
    foh_card_info ci;
    return foh_cardset_card(r->cs, c, &ci) == FOH_OK ? ci.id : "(none)";
}

/* A card type or icon name (key I of map M): its index, or -1. */
static int vocabulary_key(runner *r, const foh_yaml_node *m, size_t i, int icons)
{
    int n = icons ? foh_cardset_icon_count(r->cs) : foh_cardset_type_count(r->cs);
    int k = icons ? foh_cardset_icon_find(r->cs, m->keys[i]) : foh_cardset_type_find(r->cs, m->keys[i]);
    if (k >= 0)
        return k;
    const char *names[FOH_MAX_ICONS > FOH_MAX_TYPES ? FOH_MAX_ICONS : FOH_MAX_TYPES];
    for (int j = 0; j < n; j++)
        names[j] = icons ? foh_cardset_icon_name(r->cs, j) : foh_cardset_type_name(r->cs, j);
    char hint[600];
    foh_error_hint(hint, sizeof hint, m->keys[i], icons ? "icons" : "card types", names, n);
    return malformed_key(r, m, i, "unknown %s '%s'%s", icons ? "icon" : "card type", m->keys[i], hint) - 1;
}

/* ---- Card set ---- */

/* The coverage entry of card C of the loaded set (added when missing);
 * NULL when out of memory. */
static scenario_card *coverage_entry(runner *r, int c)
{
    scenario_stats *st = r->stats;
    foh_card_info ci;
    if (foh_cardset_card(r->cs, c, &ci) != FOH_OK)
        return NULL;
    /* The folder of the card's file, canonical so that one folder reached
     * by two paths ("merchants", "scenarios/..") counts once. */
    char dir[4096], canon[PATH_MAX];
    const char *slash = ci.file ? strrchr(ci.file, '/') : NULL;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - ci.file) : 1, slash ? ci.file : ".");
    const char *origin = realpath(dir, canon) ? canon : dir;
    for (int k = 0; k < st->ncards; k++)
        if (!strcmp(st->cards[k].id, ci.id) && !strcmp(st->cards[k].origin, origin))
            return &st->cards[k];
    if (st->ncards == st->cap) {
        int cap = st->cap ? st->cap * 2 : 128;
        scenario_card *grown = realloc(st->cards, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        st->cards = grown;
        st->cap = cap;
    }
    scenario_card *e = &st->cards[st->ncards];
    e->id = strdup(ci.id);
    e->origin = strdup(origin);
    e->covered = 0;
    if (!e->id || !e->origin) {
        free(e->id);
        free(e->origin);
        return NULL;
    }
    st->ncards++;
    return e;
}

/* Count every card of the freshly loaded set (coverage's denominator). */
static int note_cards(runner *r)
{
    for (int c = 0; c < foh_cardset_card_count(r->cs); c++)
        if (!coverage_entry(r, c))
            return 0;
    return 1;
}

/* Forget the loaded card sets of R. */
static void drop_cardsets(runner *r)
{
    for (int i = 0; i < r->nloaded; i++) {
        foh_engine_free(r->loaded[i].eng);
        foh_cardset_free(r->loaded[i].cs);
        free(r->loaded[i].key);
        free(r->loaded[i].failure);
    }
    r->nloaded = 0;
    r->cs = NULL;
    r->eng = NULL;
}

/* Load (or keep) the card set PATH with the variant folders VARIANTS. */
static int use_cardset(runner *r, const char *path, const char *const *variants, int nvariants,
                       const foh_yaml_node *at)
{
    size_t need = strlen(path) + 1;
    for (int i = 0; i < nvariants; i++)
        need += strlen(variants[i]) + 1;
    char *key = malloc(need);
    if (!key)
        return malformed(r, at, "out of memory");
    size_t k = (size_t)snprintf(key, need, "%s", path);
    for (int i = 0; i < nvariants; i++)
        k += (size_t)snprintf(key + k, need - k, "|%s", variants[i]);
    int hit = -1;
    for (int i = 0; i < r->nloaded && hit < 0; i++)
        if (!strcmp(r->loaded[i].key, key))
            hit = i;
    if (hit < 0) {
        /* Load it in the last place (its set forgotten when all are taken). */
        if (r->nloaded == SCENARIO_CARD_SETS) {
            struct loaded *old = &r->loaded[--r->nloaded];
            foh_engine_free(old->eng);
            foh_cardset_free(old->cs);
            free(old->key);
            free(old->failure);
        }
        struct loaded *l = &r->loaded[r->nloaded];
        memset(l, 0, sizeof *l);
        l->key = key;
        key = NULL;
        foh_error e;
        const char *search[CLI_MAX_SEARCH];
        int nsearch = 0;
        if (r->opt->cli)
            nsearch = cli_search_path(r->opt->cli, "cards", search, CLI_MAX_SEARCH);
        l->cs = foh_cardset_load_sets(&path, 1, variants, nvariants, search, nsearch, &e);
        if (l->cs && !cli_ruleset_supported(l->cs, &e)) {
            foh_cardset_free(l->cs);
            l->cs = NULL;
        }
        if (l->cs)
            l->eng = foh_engine_new(l->cs, &e);
        if (!l->cs || !l->eng) {
            foh_cardset_free(l->cs);
            l->cs = NULL;
            size_t len = strlen(e.msg) + 1;
            if ((l->failure = malloc(len)))
                memcpy(l->failure, e.msg, len);
        }
        hit = r->nloaded++;
        r->cs = l->cs;
        if (l->cs && !note_cards(r)) {
            r->cs = NULL;
            return malformed(r, at, "out of memory");
        }
    }
    free(key);
    struct loaded chosen = r->loaded[hit]; /* to the front: the most recent */
    memmove(&r->loaded[1], &r->loaded[0], (size_t)hit * sizeof chosen);
    r->loaded[0] = chosen;
    r->cs = chosen.cs;
    r->eng = chosen.eng;
    if (!r->cs)
        return malformed(r, at, "card set '%s': %s", path, chosen.failure ? chosen.failure : "out of memory");
    return 1;
}

/* An investor: a player (1, P1) or a neutral marker (N1). */
static int investor_of(runner *r, const foh_yaml_node *v)
{
    const char *t = text_of(r, v, "an investor");
    if (!t)
        return -1;
    if (t[0] == 'N') {
        char *end;
        long k = strtol(t + 1, &end, 10);
        if (*end || k < 1 || k > FOH_NEUTRAL_MARKERS)
            return malformed(r, v, "'%s' is not a neutral investor (N1 to N%d)", t, FOH_NEUTRAL_MARKERS) - 1;
        return FOH_NEUTRAL_INVESTOR + (int)k - 1;
    }
    return player_of(r, v);
}

/* ---- Set-up ---- */

static int put(runner *r, int card, foh_zone zone, int player, const foh_yaml_node *at)
{
    foh_error e;
    int owner;
    if (foh_game_card_zone(r->g, card, &owner) != FOH_ZONE_BOX)
        return malformed(r, at, "card '%s' is placed twice in the set-up", card_id(r, card));
    if (foh_position_put(r->g, card, zone, player, &e) != FOH_OK)
        return malformed(r, at, "%s", e.msg);
    return 1;
}

static int setup_nations(runner *r, const foh_yaml_node *nations)
{
    static const char *const keys[] = {"cards", "tokens", NULL};
    if (!want_kind(r, nations, FOH_YAML_MAP, "nations (each player number to {cards, tokens})"))
        return 0;
    for (size_t i = 0; i < nations->n; i++) {
        int p = player_key(r, nations, i);
        const foh_yaml_node *n = nations->items[i];
        if (p < 0 || !only_keys(r, n, keys, "a nation"))
            return 0;
        const foh_yaml_node *cards = foh_yaml_get(n, "cards");
        if (cards && !want_kind(r, cards, FOH_YAML_SEQ, "cards (card ids, each pile bottom first)"))
            return 0;
        for (size_t k = 0; cards && k < cards->n; k++) {
            int c = card_of(r, cards->items[k]);
            if (c < 0 || !put(r, c, FOH_ZONE_NATION, p, cards->items[k]))
                return 0;
            foh_position_set_fired(r->g, c, 1, NULL); /* gained earlier: Instant already used */
        }
        int tokens = 0;
        foh_error e;
        if (foh_yaml_get(n, "tokens") && !int_of(r, foh_yaml_get(n, "tokens"), "tokens", &tokens))
            return 0;
        if (foh_position_set_tokens(r->g, p, tokens, &e) != FOH_OK)
            return malformed(r, n, "%s", e.msg);
    }
    return 1;
}

static int setup_market(runner *r, const foh_yaml_node *market)
{
    static const char *const keys[] = {"card", "investor", "tokens", NULL};
    if (!want_kind(r, market, FOH_YAML_SEQ, "market (card ids or {card, investor, tokens})"))
        return 0;
    for (size_t i = 0; i < market->n; i++) {
        const foh_yaml_node *m = market->items[i], *cn = m;
        if (m->kind == FOH_YAML_MAP) {
            if (!only_keys(r, m, keys, "a Market card"))
                return 0;
            if (!(cn = foh_yaml_get(m, "card")))
                return malformed(r, m, "a Market card needs 'card'");
        }
        int c = card_of(r, cn);
        if (c < 0 || !put(r, c, FOH_ZONE_MARKET, -1, m))
            return 0;
        if (m->kind == FOH_YAML_MAP && foh_yaml_get(m, "investor")) {
            int tokens = 0, p = investor_of(r, foh_yaml_get(m, "investor"));
            if (p < 0)
                return 0;
            if (!foh_yaml_get(m, "tokens"))
                return malformed(r, m, "an investment needs investor and tokens");
            if (!int_of(r, foh_yaml_get(m, "tokens"), "tokens", &tokens))
                return 0;
            foh_error e;
            if (foh_position_invest(r->g, p, c, tokens, &e) != FOH_OK)
                return malformed(r, m, "%s", e.msg);
        }
    }
    return 1;
}

/* A list of card ids under KEY of S (absent: none), placed in ZONE or
 * (FIRED >= 0) marked fired/not fired. */
static int card_list(runner *r, const foh_yaml_node *s, const char *key, foh_zone zone, int fired)
{
    const foh_yaml_node *list = foh_yaml_get(s, key);
    if (!list)
        return 1;
    char what[64];
    snprintf(what, sizeof what, "%s (a list of card ids)", key);
    if (!want_kind(r, list, FOH_YAML_SEQ, what))
        return 0;
    for (size_t i = 0; i < list->n; i++) {
        int c = card_of(r, list->items[i]);
        if (c < 0)
            return 0;
        if (fired >= 0)
            foh_position_set_fired(r->g, c, fired, NULL);
        else if (!put(r, c, zone, -1, list->items[i]))
            return 0;
    }
    return 1;
}

static int setup_deck(runner *r, const foh_yaml_node *s, int seed)
{
    const foh_yaml_node *deck = foh_yaml_get(s, "deck");
    int rest = 0, cards[FOH_MAX_CARDS], n = 0;
    if (deck && !want_kind(r, deck, FOH_YAML_SEQ, "deck (card ids, top card first)"))
        return 0;
    if (foh_yaml_get(s, "deck_rest") && !bool_of(r, foh_yaml_get(s, "deck_rest"), "deck_rest", &rest))
        return 0;
    for (size_t i = 0; deck && i < deck->n; i++) {
        int c = card_of(r, deck->items[i]);
        if (c < 0)
            return 0;
        for (int k = 0; k < n; k++)
            if (cards[k] == c)
                return malformed(r, deck->items[i], "card '%s' is placed twice in the set-up", card_id(r, c));
        if (foh_game_card_zone(r->g, c, NULL) != FOH_ZONE_BOX)
            return malformed(r, deck->items[i], "card '%s' is placed twice in the set-up", card_id(r, c));
        cards[n++] = c;
    }
    /* Top card first in the file: the last one goes on the deck first. */
    for (int k = n - 1; k >= 0; k--)
        foh_position_put(r->g, cards[k], FOH_ZONE_DECK, -1, NULL);
    foh_error e;
    if (rest && foh_position_deal_rest(r->g, (uint64_t)seed, &e) != FOH_OK)
        return malformed(r, foh_yaml_get(s, "deck_rest"), "%s", e.msg);
    return 1;
}

/* The folder a scenario names (NAME under AT) for KIND "cards" or
 * "variants": a name is looked up along the search path (the project's
 * folder, $FOH_MODS, --mods), then beside this file; a path is relative to
 * this file (FILE_DIR) unless absolute. The folder must hold FILE. */
static int find_folder(runner *r, const foh_yaml_node *at, const char *name, const char *kind, const char *file,
                       const char *file_dir, char *out, size_t len)
{
    int is_path = strchr(name, '/') || name[0] == '.';
    if (!is_path && cli_find(r->opt->cli, kind, name, file, out, len))
        return 1;
    char path[2048];
    if ((size_t)snprintf(path, sizeof path, "%s%s%s", name[0] == '/' ? "" : file_dir, name[0] == '/' ? "" : "/",
                         name) >= sizeof path || strlen(path) >= len)
        return malformed(r, at, "the path '%s' is too long", name);
    /* A path (it has a '/'): cli_find only checks that it holds FILE. */
    if (cli_find(r->opt->cli, kind, path, file, out, len))
        return 1;
    if (is_path)
        return malformed(r, at, "%s has no %s", out, file);
    if (!strcmp(kind, "cards"))
        return malformed(r, at, "unknown card set '%s': not in the project's cards/ folder, $FOH_MODS or --mods, "
                         "nor beside this file", name);
    return malformed(r, at, "unknown variant '%s': not in the project's variants/ folder, $FOH_MODS or --mods, nor "
                     "beside this file ('foh variants' lists them)", name);
}

static int setup(runner *r, const foh_yaml_node *s, const char *file_dir)
{
    static const char *const keys[] = {"name", "source", "ruling", "cards", "variants", "start", "players",
                                       "seed", "current", "nations", "market", "supply", "reserve", "deck",
                                       "deck_rest", "removed", "not_fired", "steps", NULL};
    if (!only_keys(r, s, keys, "a scenario"))
        return 0;
    const foh_yaml_node *name = foh_yaml_get(s, "name");
    if (!name)
        return malformed(r, s, "a scenario needs a name");
    if (!(r->name = text_of(r, name, "name")))
        return 0;
    for (const char *const *k = (const char *const[]){"source", "ruling", NULL}; *k; k++)
        if (foh_yaml_get(s, *k) && !text_of(r, foh_yaml_get(s, *k), *k))
            return 0;
    char path[2048];
    const foh_yaml_node *cards = foh_yaml_get(s, "cards");
    if (cards) {
        const char *t = text_of(r, cards, "cards (a card set folder)");
        if (!t || !find_folder(r, cards, t, "cards", "game.yaml", file_dir, path, sizeof path))
            return 0;
    } else {
        snprintf(path, sizeof path, "%s", r->opt->cards);
    }
    /* Variants: those given to every scenario, then the scenario's own. */
    const foh_yaml_node *variants = foh_yaml_get(s, "variants");
    if (variants && !want_kind(r, variants, FOH_YAML_SEQ, "variants (a list of variant names)"))
        return 0;
    int nv = r->opt->nvariants + (variants ? (int)variants->n : 0);
    if (nv > CLI_MAX_VARIANTS)
        return malformed(r, variants, "more than %d variants", CLI_MAX_VARIANTS);
    char vdirs[CLI_MAX_VARIANTS][2048];
    const char *vlist[CLI_MAX_VARIANTS];
    nv = 0;
    for (int i = 0; i < r->opt->nvariants; i++)
        snprintf(vdirs[nv++], sizeof vdirs[0], "%s", r->opt->variant[i]);
    for (size_t i = 0; variants && i < variants->n; i++) {
        const char *t = text_of(r, variants->items[i], "a variant (a name or a folder)");
        if (!t || !find_folder(r, variants->items[i], t, "variants", "variant.yaml", file_dir, vdirs[nv++],
                               sizeof vdirs[0]))
            return 0;
    }
    for (int i = 0; i < nv; i++)
        vlist[i] = vdirs[i];
    if (!use_cardset(r, path, vlist, nv, cards ? cards : s))
        return 0;

    int players = 0, seed = 1, current = 1;
    if (!foh_yaml_get(s, "players"))
        return malformed(r, s, "a scenario needs 'players'");
    if (!int_of(r, foh_yaml_get(s, "players"), "players", &players) ||
        (foh_yaml_get(s, "seed") && !int_of(r, foh_yaml_get(s, "seed"), "seed", &seed)) ||
        (foh_yaml_get(s, "current") && !int_of(r, foh_yaml_get(s, "current"), "current", &current)))
        return 0;
    /* start: setup keeps the real set-up of the seed (and its choices). */
    const foh_yaml_node *start = foh_yaml_get(s, "start");
    const char *st = start ? text_of(r, start, "start") : "position";
    if (!st)
        return 0;
    if (strcmp(st, "setup") && strcmp(st, "position"))
        return malformed(r, start, "start: 'setup' (the game's own set-up) or 'position' (the default)");
    /* A position replaces the dealt one: the set-up's scripts do not run
     * on it (a turn_start hook failing for the dealt first player would
     * refuse a scenario that never plays that turn). */
    foh_options opt = {.players = players, .seed = (uint64_t)seed, .position_only = strcmp(st, "setup") != 0};
    foh_error e;
    r->g = foh_game_new(r->eng, &opt, &e);
    if (!r->g)
        return malformed(r, foh_yaml_get(s, "players"), "%s", e.msg);
    if (!strcmp(st, "setup")) {
        static const char *const placed[] = {"current", "nations", "market", "supply", "reserve", "deck",
                                             "deck_rest", "removed", "not_fired", NULL};
        for (const char *const *k = placed; *k; k++)
            if (foh_yaml_get(s, *k))
                return malformed(r, foh_yaml_get(s, *k), "'%s' cannot be used with start: setup", *k);
        return 1;
    }
    if (foh_position_clear(r->g, current - 1, &e) != FOH_OK)
        return malformed(r, foh_yaml_get(s, "current") ? foh_yaml_get(s, "current") : s, "current: %s", e.msg);
    if (!card_list(r, s, "removed", FOH_ZONE_REMOVED, -1) ||
        (foh_yaml_get(s, "nations") && !setup_nations(r, foh_yaml_get(s, "nations"))) ||
        (foh_yaml_get(s, "market") && !setup_market(r, foh_yaml_get(s, "market"))) || !setup_deck(r, s, seed) ||
        !card_list(r, s, "not_fired", FOH_ZONE_BOX, 0))
        return 0;
    int supply = 0;
    if (foh_yaml_get(s, "supply") && !int_of(r, foh_yaml_get(s, "supply"), "supply", &supply))
        return 0;
    if (foh_position_set_tokens(r->g, -1, supply, &e) != FOH_OK)
        return malformed(r, foh_yaml_get(s, "supply") ? foh_yaml_get(s, "supply") : s, "supply: %s", e.msg);
    const foh_yaml_node *reserve = foh_yaml_get(s, "reserve");
    if (reserve) {
        int want;
        if (!int_of(r, reserve, "reserve", &want))
            return 0;
        if (want != foh_game_reserve(r->g))
            return malformed(r, reserve,
                             "the set-up leaves %d tokens in the Reserve (the box holds %d), not %d; leave 'reserve' "
                             "out to have it computed",
                             foh_game_reserve(r->g), foh_cardset_tokens_in_box(r->cs), want);
    }
    return 1;
}

/* ---- Expectations ---- */

static void expect_int(runner *r, const char *what, int want, int got)
{
    if (want != got)
        mismatch(r, "%s: expected %d, got %d", what, want, got);
}

/* "a, b, c" of the card ids in CARDS. */
static void list_ids(runner *r, const int *cards, int n, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", card_id(r, cards[i]));
    if (n == 0)
        snprintf(buf, len, "(none)");
}

/* Compare the card list WANT (ids) with GOT, in order or as a set. */
static int expect_cards(runner *r, const char *what, const foh_yaml_node *want, const int *got, int ngot, int ordered)
{
    char label[128];
    snprintf(label, sizeof label, "%s (a list of card ids)", what);
    if (!want_kind(r, want, FOH_YAML_SEQ, label))
        return 0;
    int w[FOH_MAX_CARDS], nw = 0;
    if (want->n > FOH_MAX_CARDS)
        return malformed(r, want, "%s: more than %d cards", what, FOH_MAX_CARDS);
    for (size_t i = 0; i < want->n; i++)
        if ((w[nw++] = card_of(r, want->items[i])) < 0)
            return 0;
    int same = nw == ngot;
    for (int i = 0; same && i < nw; i++) {
        if (ordered) {
            same = w[i] == got[i];
        } else {
            int found = 0;
            for (int k = 0; k < ngot; k++)
                found |= got[k] == w[i];
            same = found;
        }
    }
    if (!same) {
        char a[4096], b[4096];
        list_ids(r, w, nw, a, sizeof a);
        list_ids(r, got, ngot, b, sizeof b);
        mismatch(r, "%s: expected [%s], got [%s]", what, a, b);
    }
    return 1;
}

static int nation_of(runner *r, int p, int type, int *out)
{
    int n = 0;
    for (int t = 0; t < foh_cardset_type_count(r->cs); t++)
        if (type < 0 || t == type)
            n += foh_game_nation_cards(r->g, p, t, out + n, FOH_MAX_CARDS - n);
    return n;
}

static int expect_scores(runner *r, const foh_yaml_node *m)
{
    static const char *const keys[] = {"total", "culture", "other_icons", "other_vp", "cards", "tokens", "end",
                                       "winner", NULL};
    if (!want_kind(r, m, FOH_YAML_MAP, "scores (each player to {total, culture, ...})"))
        return 0;
    foh_score sc[FOH_MAX_PLAYERS];
    foh_error e;
    if (foh_game_score(r->g, sc, NULL, &e) != FOH_OK) {
        mismatch(r, "scoring failed: %s", e.msg);
        return 1;
    }
    for (size_t i = 0; i < m->n; i++) {
        int p = player_key(r, m, i);
        const foh_yaml_node *s = m->items[i];
        if (p < 0 || !only_keys(r, s, keys, "a score"))
            return 0;
        for (size_t k = 0; k < s->n; k++) {
            const char *key = s->keys[k];
            char what[96];
            snprintf(what, sizeof what, "P%d %s", p + 1, key);
            if (!strcmp(key, "end")) {
                const foh_yaml_node *ends = s->items[k];
                if (!want_kind(r, ends, FOH_YAML_MAP, "end (card ids to VP)"))
                    return 0;
                for (size_t j = 0; j < ends->n; j++) {
                    int c = card_key(r, ends, j), want = 0, got = -1;
                    if (c < 0 || !int_of(r, ends->items[j], "VP", &want))
                        return 0;
                    for (int x = 0; x < sc[p].n_end; x++)
                        if (sc[p].end[x].card == c)
                            got = sc[p].end[x].full_vp;
                    snprintf(what, sizeof what, "P%d end-game VP of %s", p + 1, ends->keys[j]);
                    expect_int(r, what, want, got);
                }
                continue;
            }
            int want = 0;
            if (!strcmp(key, "winner") ? !bool_of(r, s->items[k], key, &want) : !int_of(r, s->items[k], key, &want))
                return 0;
            int got = !strcmp(key, "total")         ? sc[p].total
                      : !strcmp(key, "culture")     ? sc[p].culture_icons
                      : !strcmp(key, "other_icons") ? sc[p].other_icons
                      : !strcmp(key, "other_vp")    ? sc[p].other_vp
                      : !strcmp(key, "cards")       ? sc[p].cards
                      : !strcmp(key, "tokens")      ? sc[p].tokens
                                                    : sc[p].winner;
            expect_int(r, what, want, got);
        }
    }
    return 1;
}

static const char *zone_name(foh_zone z)
{
    static const char *const names[] = {"deck", "market", "nation", "removed", "box"};
    return z <= FOH_ZONE_BOX ? names[z] : "?";
}

/* Per-player map of icon (or role) -> count. */
static int expect_player_counts(runner *r, const foh_yaml_node *m, int strength)
{
    if (!want_kind(r, m, FOH_YAML_MAP, strength ? "strength (players to {attacker, defender})"
                                                : "icons (players to {icon: count})"))
        return 0;
    for (size_t i = 0; i < m->n; i++) {
        int p = player_key(r, m, i);
        const foh_yaml_node *c = m->items[i];
        if (p < 0 || !want_kind(r, c, FOH_YAML_MAP, "a player's counts ({name: count})"))
            return 0;
        int icons[FOH_MAX_ICONS], attack = 0, defence = 0;
        foh_error e;
        if (foh_game_icon_counts(r->g, p, icons, &e) != FOH_OK ||
            foh_game_strengths(r->g, p, &attack, &defence, &e) != FOH_OK) {
            mismatch(r, "counting P%d's icons failed: %s", p + 1, e.msg);
            continue;
        }
        for (size_t k = 0; k < c->n; k++) {
            int want = 0, got;
            if (!int_of(r, c->items[k], c->keys[k], &want))
                return 0;
            char what[96];
            snprintf(what, sizeof what, "P%d %s%s", p + 1, c->keys[k], strength ? " strength" : " icons");
            if (strength) {
                if (strcmp(c->keys[k], "attacker") && strcmp(c->keys[k], "defender"))
                    return malformed_key(r, c, k, "strength is 'attacker' or 'defender', not '%s'", c->keys[k]);
                got = strcmp(c->keys[k], "attacker") ? defence : attack;
            } else {
                int ic = vocabulary_key(r, c, k, 1);
                if (ic < 0)
                    return 0;
                got = icons[ic];
            }
            expect_int(r, what, want, got);
        }
    }
    return 1;
}

/* "P2", "N1" or "none". */
static void investor_name(int who, char *buf, size_t len)
{
    if (who < 0)
        snprintf(buf, len, "none");
    else if (who >= FOH_NEUTRAL_INVESTOR)
        snprintf(buf, len, "N%d", who - FOH_NEUTRAL_INVESTOR + 1);
    else
        snprintf(buf, len, "P%d", who + 1);
}

static int expect_choice(runner *r, const foh_yaml_node *v)
{
    const foh_choice *ch = foh_game_choice(r->g);
    if (v->kind == FOH_YAML_SCALAR) {
        if (strcmp(v->text, "none"))
            return malformed(r, v, "choice: 'none' or {player, options}");
        if (ch)
            mismatch(r, "choice: expected none, but P%d must choose (%s)", ch->player + 1, ch->prompt);
        return 1;
    }
    static const char *const ckeys[] = {"player", "options", NULL};
    if (!only_keys(r, v, ckeys, "choice"))
        return 0;
    const foh_yaml_node *pl = foh_yaml_get(v, "player"), *opts = foh_yaml_get(v, "options");
    int p = pl ? player_of(r, pl) : 0;
    if (p < 0 || (opts && !want_kind(r, opts, FOH_YAML_SEQ, "options (card ids or labels)")))
        return 0;
    char want_s[4096] = "", got_s[4096] = "";
    size_t a = 0, b = 0;
    for (size_t k = 0; opts && k < opts->n && a < sizeof want_s; k++) {
        const char *t = text_of(r, opts->items[k], "an option");
        if (!t)
            return 0;
        int c = foh_cardset_find(r->cs, t);
        foh_card_info ci;
        const char *label = c >= 0 && foh_cardset_card(r->cs, c, &ci) == FOH_OK ? ci.name : t;
        a += (size_t)snprintf(want_s + a, sizeof want_s - a, "%s%s", k ? ", " : "", label);
    }
    if (!ch) {
        mismatch(r, "choice: expected a pending choice, there is none");
        return 1;
    }
    if (pl && p != ch->player)
        mismatch(r, "choice: expected P%d to choose, got P%d", p + 1, ch->player + 1);
    for (int k = 0; k < ch->n && b < sizeof got_s; k++)
        b += (size_t)snprintf(got_s + b, sizeof got_s - b, "%s%s", k ? ", " : "", ch->label[k]);
    if (opts && strcmp(want_s, got_s))
        mismatch(r, "choice options: expected [%s], got [%s]", want_s, got_s);
    return 1;
}

/* An expected count (supply, reserve, substituted, age, deck_size, turn). */
static int expect_number(runner *r, const char *key, const foh_yaml_node *v)
{
    foh_game *g = r->g;
    int want = 0;
    if (!int_of(r, v, key, &want))
        return 0;
    int got = !strcmp(key, "supply")        ? foh_game_supply(g)
              : !strcmp(key, "reserve")     ? foh_game_reserve(g)
              : !strcmp(key, "substituted") ? foh_game_substituted(g)
              : !strcmp(key, "age")         ? foh_game_current_age(g)
              : !strcmp(key, "turn")        ? foh_game_turn(g)
                                            : foh_game_deck_size(g);
    expect_int(r, !strcmp(key, "age") ? "Current Age" : key, want, got);
    return 1;
}

/* The expected current player or player to act (current, to_act): a player or none. */
static int expect_player(runner *r, const char *key, const foh_yaml_node *v)
{
    foh_game *g = r->g;
    const char *t = text_of(r, v, key);
    int p = !t ? -2 : !strcmp(t, "none") ? -1 : player_of(r, v);
    if (p == -2 || (p < 0 && strcmp(t, "none")))
        return 0;
    int got = !strcmp(key, "current") ? foh_game_current_player(g) : foh_game_to_act(g);
    char want_s[16] = "none", got_s[16] = "none";
    if (p >= 0)
        snprintf(want_s, sizeof want_s, "P%d", p + 1);
    if (got >= 0)
        snprintf(got_s, sizeof got_s, "P%d", got + 1);
    if (p != got)
        mismatch(r, "%s: expected %s, got %s", key, want_s, got_s);
    return 1;
}

/* An expected yes or no (game_over, bonus, stalled). */
static int expect_flag(runner *r, const char *key, const foh_yaml_node *v)
{
    foh_game *g = r->g;
    int want = 0;
    if (!bool_of(r, v, key, &want))
        return 0;
    int got = key[0] == 'g' ? foh_game_is_over(g) : key[0] == 'b' ? foh_game_in_bonus(g)
                                                                   : foh_game_is_stalled(g);
    if (want != got)
        mismatch(r, "%s: expected %s, got %s",
                 key[0] == 'g' ? "game over" : key[0] == 'b' ? "bonus action pending" : "stalled",
                 want ? "yes" : "no", want ? "no" : "yes");
    return 1;
}

/* Each player's expected tokens (tokens: players to counts). */
static int expect_tokens(runner *r, const foh_yaml_node *v)
{
    foh_game *g = r->g;
    int want = 0;
    if (!want_kind(r, v, FOH_YAML_MAP, "tokens (players to token counts)"))
        return 0;
    for (size_t k = 0; k < v->n; k++) {
        int p = player_key(r, v, k);
        if (p < 0 || !int_of(r, v->items[k], "tokens", &want))
            return 0;
        char what[32];
        snprintf(what, sizeof what, "P%d tokens", p + 1);
        expect_int(r, what, want, foh_game_tokens(g, p));
    }
    return 1;
}

/* The tokens invested in cards (invested) or their investors (investor). */
static int expect_investments(runner *r, const char *key, const foh_yaml_node *v)
{
    foh_game *g = r->g;
    int want = 0;
    if (!want_kind(r, v, FOH_YAML_MAP, !strcmp(key, "invested") ? "invested (card ids to tokens)"
                                                                  : "investor (card ids to investors)"))
        return 0;
    for (size_t k = 0; k < v->n; k++) {
        int c = card_key(r, v, k);
        if (c < 0)
            return 0;
        char what[96];
        snprintf(what, sizeof what, "%s %s", key, v->keys[k]);
        if (!strcmp(key, "invested")) {
            if (!int_of(r, v->items[k], key, &want))
                return 0;
            expect_int(r, what, want, foh_game_invested_tokens(g, c));
            continue;
        }
        const foh_yaml_node *pv = v->items[k];
        const char *t = text_of(r, pv, key);
        int p = !t ? -2 : !strcmp(t, "none") ? -1 : investor_of(r, pv);
        if (p == -2 || (p < 0 && strcmp(t, "none")))
            return 0;
        int got = foh_game_investor(g, c);
        if (p != got) {
            char a[16], b[16];
            investor_name(p, a, sizeof a);
            investor_name(got, b, sizeof b);
            mismatch(r, "%s: expected %s, got %s", what, a, b);
        }
    }
    return 1;
}

/* The cards of each player's Nation, in any order (nation). */
static int expect_nations(runner *r, const foh_yaml_node *v)
{
    if (!want_kind(r, v, FOH_YAML_MAP, "nation (players to card lists)"))
        return 0;
    for (size_t k = 0; k < v->n; k++) {
        int p = player_key(r, v, k), got[FOH_MAX_CARDS];
        if (p < 0)
            return 0;
        char what[48];
        snprintf(what, sizeof what, "P%d's Nation", p + 1);
        if (!expect_cards(r, what, v->items[k], got, nation_of(r, p, -1, got), 0))
            return 0;
    }
    return 1;
}

/* Each player's piles by card type, bottom first (stacks). */
static int expect_stacks(runner *r, const foh_yaml_node *v)
{
    if (!want_kind(r, v, FOH_YAML_MAP, "stacks (players to {type: [cards bottom first]})"))
        return 0;
    for (size_t k = 0; k < v->n; k++) {
        int p = player_key(r, v, k);
        const foh_yaml_node *types = v->items[k];
        if (p < 0 || !want_kind(r, types, FOH_YAML_MAP, "a player's piles (card types to card lists)"))
            return 0;
        for (size_t t = 0; t < types->n; t++) {
            int type = vocabulary_key(r, types, t, 0), got[FOH_MAX_CARDS];
            if (type < 0)
                return 0;
            char what[96];
            snprintf(what, sizeof what, "P%d's %s pile", p + 1, types->keys[t]);
            if (!expect_cards(r, what, types->items[t], got, nation_of(r, p, type, got), 1))
                return 0;
        }
    }
    return 1;
}

/* The zone of each card named (zone). */
static int expect_zones(runner *r, const foh_yaml_node *v)
{
    foh_game *g = r->g;
    if (!want_kind(r, v, FOH_YAML_MAP, "zone (card ids to deck, market, nation, removed or box)"))
        return 0;
    for (size_t k = 0; k < v->n; k++) {
        int c = card_key(r, v, k);
        const char *t = c < 0 ? NULL : text_of(r, v->items[k], "a zone");
        if (!t)
            return 0;
        const char *got = zone_name(foh_game_card_zone(g, c, NULL));
        int known = 0;
        for (foh_zone z = 0; z <= FOH_ZONE_BOX; z++)
            known |= !strcmp(t, zone_name(z));
        if (!known)
            return malformed(r, v->items[k], "zone of %s: '%s' is not a zone (deck, market, nation, removed or "
                                             "box)",
                             v->keys[k], t);
        if (strcmp(got, t))
            mismatch(r, "zone of %s: expected %s, got %s", v->keys[k], t, got);
    }
    return 1;
}

/* Cards removed from the game (removed) or whose effect fired (fired). */
static int expect_listed(runner *r, const char *key, const foh_yaml_node *v)
{
    foh_game *g = r->g;
    char what[64];
    snprintf(what, sizeof what, "%s (a list of card ids)", key);
    if (!want_kind(r, v, FOH_YAML_SEQ, what))
        return 0;
    for (size_t k = 0; k < v->n; k++) {
        int c = card_of(r, v->items[k]);
        if (c < 0)
            return 0;
        int ok = !strcmp(key, "fired") ? foh_game_effect_fired(g, c)
                                       : foh_game_card_zone(g, c, NULL) == FOH_ZONE_REMOVED;
        if (!ok)
            mismatch(r, "%s: expected %s, which is not", key, card_id(r, c));
    }
    return 1;
}

/* legal / illegal: actions as the game describes them ("Snipe Temple",
 * "Invest 2 tokens in Castle") that the legal-action listing, which bots
 * and players choose from, must hold / must not hold. */
static int expect_legal(runner *r, const char *key, const foh_yaml_node *v)
{
    if (!want_kind(r, v, FOH_YAML_SEQ, "a list of actions as the game describes them ('Snipe Temple')"))
        return 0;
    foh_error err;
    foh_action *all = NULL;
    int cap = 0, n = foh_match_legal(r->g, &all, &cap, &err);
    if (n < 0) {
        free(all);
        mismatch(r, "%s: the legal actions could not be listed: %s", key, err.msg);
        return 1;
    }
    int want = !strcmp(key, "legal");
    for (size_t k = 0; k < v->n; k++) {
        const char *t = text_of(r, v->items[k], "an action");
        if (!t) {
            free(all);
            return 0;
        }
        int found = 0;
        for (int i = 0; i < n && !found; i++) {
            char d[160];
            foh_game_describe_action(r->g, &all[i], d, sizeof d);
            found = !strcmp(d, t);
        }
        if (found != want) {
            char list[1200] = "";
            int shown = 0;
            for (; shown < n && strlen(list) < sizeof list - 200; shown++) {
                char d[160];
                foh_game_describe_action(r->g, &all[shown], d, sizeof d);
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", shown ? "; " : "", d);
            }
            mismatch(r, "%s: '%s' is %s among the %d legal actions (%s%s)", key, t, found ? "listed" : "not", n, list,
                     shown < n ? "; ..." : "");
        }
    }
    free(all);
    return 1;
}

/* Compare the game with the step's expectations X (docs/scenarios.md): a
 * difference is a failure of the step; 0 after saying what is malformed. */
static int check_expectations(runner *r, const foh_yaml_node *x)
{
    static const char *const keys[] = {"tokens", "supply", "reserve", "substituted", "invested", "investor",
                                       "market", "deck", "deck_size", "nation", "stacks", "zone", "removed",
                                       "icons", "strength", "age", "current", "to_act", "game_over", "choice",
                                       "scores", "fired", "turn", "bonus", "stalled", "legal", "illegal", NULL};
    if (!only_keys(r, x, keys, "expect"))
        return 0;
    foh_game *g = r->g;
    for (size_t i = 0; i < x->n; i++) {
        const char *key = x->keys[i];
        const foh_yaml_node *v = x->items[i];
        if (!strcmp(key, "supply") || !strcmp(key, "reserve") || !strcmp(key, "substituted") ||
            !strcmp(key, "age") || !strcmp(key, "deck_size") || !strcmp(key, "turn")) {
            if (!expect_number(r, key, v))
                return 0;
        } else if (!strcmp(key, "current") || !strcmp(key, "to_act")) {
            if (!expect_player(r, key, v))
                return 0;
        } else if (!strcmp(key, "game_over") || !strcmp(key, "bonus") || !strcmp(key, "stalled")) {
            if (!expect_flag(r, key, v))
                return 0;
        } else if (!strcmp(key, "tokens")) {
            if (!expect_tokens(r, v))
                return 0;
        } else if (!strcmp(key, "invested") || !strcmp(key, "investor")) {
            if (!expect_investments(r, key, v))
                return 0;
        } else if (!strcmp(key, "market")) {
            int got[FOH_MAX_CARDS], n = foh_game_market_size(g);
            for (int k = 0; k < n; k++)
                got[k] = foh_game_market_card(g, k);
            if (!expect_cards(r, "Market", v, got, n, 1))
                return 0;
        } else if (!strcmp(key, "deck")) {
            /* The top cards, top first; the rest of the deck is not compared. */
            if (!want_kind(r, v, FOH_YAML_SEQ, "deck (card ids, top first)"))
                return 0;
            int got[FOH_MAX_CARDS], n = (int)v->n < foh_game_deck_size(g) ? (int)v->n : foh_game_deck_size(g);
            for (int k = 0; k < n; k++)
                got[k] = foh_game_deck_card(g, k);
            if (!expect_cards(r, "top of the deck", v, got, n, 1))
                return 0;
        } else if (!strcmp(key, "nation")) {
            if (!expect_nations(r, v))
                return 0;
        } else if (!strcmp(key, "stacks")) {
            if (!expect_stacks(r, v))
                return 0;
        } else if (!strcmp(key, "zone")) {
            if (!expect_zones(r, v))
                return 0;
        } else if (!strcmp(key, "removed") || !strcmp(key, "fired")) {
            if (!expect_listed(r, key, v))
                return 0;
        } else if (!strcmp(key, "icons") || !strcmp(key, "strength")) {
            if (!expect_player_counts(r, v, !strcmp(key, "strength")))
                return 0;
        } else if (!strcmp(key, "choice")) {
            if (!expect_choice(r, v))
                return 0;
        } else if (!strcmp(key, "legal") || !strcmp(key, "illegal")) {
            if (!expect_legal(r, key, v))
                return 0;
        } else if (!strcmp(key, "scores")) {
            if (!expect_scores(r, v))
                return 0;
        }
    }
    return 1;
}

/* ---- Steps ---- */

/* The seat that plays a step: it picks the step's action among the legal
 * ones, as any player does; an action that is not legal is refused with
 * the engine's reason. */
typedef struct {
    foh_player base;
    foh_action want;
} scripted;

static int scripted_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                           foh_error *err)
{
    scripted *s = (scripted *)self;
    (void)why;
    (void)whylen;
    int i = foh_match_find(legal, n, &s->want);
    if (i >= 0)
        return i;
    if (foh_game_check(g, &s->want, err) == FOH_OK)
        foh_error_set(err, FOH_ERR_ILLEGAL, "not among the legal actions");
    return -1;
}

/* Apply action A through the match loop; a refusal is reported. */
static void play(runner *r, const foh_action *a, const char *what)
{
    scripted s = {.base = {.name = "scenario", .decide = scripted_decide, .free = NULL}, .want = *a};
    foh_player *seats[FOH_MAX_PLAYERS];
    for (int p = 0; p < FOH_MAX_PLAYERS; p++)
        seats[p] = &s.base;
    foh_match m;
    foh_match_init(&m, r->g, seats, NULL, 0);
    foh_error e;
    if (foh_match_step(&m, &e) != FOH_OK) {
        /* The seat's own name adds nothing here. */
        const char *msg = strncmp(e.msg, "P", 1) || !strstr(e.msg, "(scenario): ") ? e.msg
                                                                                    : strstr(e.msg, "): ") + 3;
        mismatch(r, "%s refused: %s", what, msg);
    }
    foh_match_free(&m);
}

/* The option of the pending choice that ANSWER names: a card id (its
 * name), a player ("P2" or 2) or the option's label itself. */
static int option_for(runner *r, const foh_yaml_node *answer)
{
    const foh_choice *ch = foh_game_choice(r->g);
    char label[FOH_OPTION_LABEL + 8];
    const char *t = answer->text;
    int c = foh_cardset_find(r->cs, t);
    foh_card_info ci;
    if (c >= 0 && foh_cardset_card(r->cs, c, &ci) == FOH_OK)
        snprintf(label, sizeof label, "%s", ci.name);
    else if (isdigit((unsigned char)t[0]))
        snprintf(label, sizeof label, "P%.6s", t);
    else
        snprintf(label, sizeof label, "%.*s", FOH_OPTION_LABEL, t);
    for (int i = 0; i < ch->n; i++)
        if (!strcmp(ch->label[i], label))
            return i;
    char opts[4096] = "";
    size_t k = 0;
    for (int i = 0; i < ch->n && k < sizeof opts; i++)
        k += (size_t)snprintf(opts + k, sizeof opts - k, "%s%s", i ? ", " : "", ch->label[i]);
    mismatch(r, "choice of P%d (%s): no option '%s'; the options are [%s]", ch->player + 1, ch->prompt, label, opts);
    return -1;
}

static const char *const ACTIONS[] = {"invest", "complete", "snipe", "activate", "harvest", "choose", "check",
                                      "pass",   "action",   NULL};

/* The turn action of a step with action VERB and argument ARG (NULL: none)
 * into *ACT, *HAVE set to 1 (left as it is for none: choose, check); 0
 * after saying what is malformed. */
static int step_action(runner *r, const foh_yaml_node *step, const char *verb, const foh_yaml_node *arg,
                       foh_action *act, int *have)
{
    if (!strcmp(verb, "invest")) {
        static const char *const ikeys[] = {"card", "tokens", NULL};
        int tokens = 0, c;
        if (!arg)
            return malformed(r, step, "invest: {card, tokens}");
        if (!only_keys(r, arg, ikeys, "invest"))
            return 0;
        if (!foh_yaml_get(arg, "card") || !foh_yaml_get(arg, "tokens"))
            return malformed(r, arg, "invest: {card, tokens}");
        if ((c = card_of(r, foh_yaml_get(arg, "card"))) < 0 || !int_of(r, foh_yaml_get(arg, "tokens"), "tokens", &tokens))
            return 0;
        *act = (foh_action){.kind = FOH_ACT_INVEST, .card = c, .tokens = tokens, .option = -1};
        *have = 1;
    } else if (!strcmp(verb, "snipe") || !strcmp(verb, "activate")) {
        if (!arg)
            return malformed(r, step, "%s: a card id", verb);
        int c = card_of(r, arg);
        if (c < 0)
            return 0;
        *act = (foh_action){.kind = verb[0] == 's' ? FOH_ACT_SNIPE : FOH_ACT_ACTIVATE, .card = c, .tokens = 0,
                            .option = -1};
        *have = 1;
    } else if (!strcmp(verb, "complete") || !strcmp(verb, "harvest") || !strcmp(verb, "pass")) {
        if (arg && !(arg->kind == FOH_YAML_SCALAR && !arg->text[0]))
            return malformed(r, arg, "%s takes no argument", verb);
        *act = (foh_action){.kind = verb[0] == 'c' ? FOH_ACT_COMPLETE : verb[0] == 'h' ? FOH_ACT_HARVEST : FOH_ACT_PASS,
                            .card = -1, .tokens = 0, .option = -1};
        *have = 1;
    } else if (!strcmp(verb, "action")) {
        /* A declared turn action, by its name (game.yaml or variant `actions`). */
        const foh_cardset *cs = foh_game_cardset(r->g);
        const char *name = arg ? text_of(r, arg, "action (a declared action's name)") : NULL;
        if (!name)
            return arg ? 0 : malformed(r, step, "action: the name of a declared action");
        int i = foh_cardset_action_find(cs, name);
        if (i < 0) {
            const char *names[16];
            int n = 0;
            for (; n < foh_cardset_action_count(cs) && n < 16; n++)
                names[n] = foh_cardset_action_name(cs, n);
            char hint[400];
            foh_error_hint(hint, sizeof hint, name, "actions", names, n);
            return malformed(r, arg, "unknown action '%s'%s", name, n ? hint : " (the card set declares none)");
        }
        *act = (foh_action){.kind = FOH_ACT_CUSTOM, .card = -1, .tokens = 0, .option = i};
        *have = 1;
    } else if (!strcmp(verb, "check") && arg && !(arg->kind == FOH_YAML_SCALAR && !arg->text[0])) {
        return malformed(r, arg, "check takes no argument (its expectations go under 'expect')");
    }
    return 1;
}

/* Apply ACT, which must fail: refused by the rules with a message holding
 * TEXT (SCRIPT 0: the step's 'error'), or stopped by a card script's error
 * holding it (SCRIPT 1: 'script_error'); either way the game must stay as
 * it was. */
static void apply_failing(runner *r, const foh_action *act, const char *text, int script)
{
    if (!script) {
        /* A refusal: the engine must say why and change nothing. */
        foh_error e = {0};
        uint64_t before = foh_game_digest(r->g);
        foh_status s = foh_game_apply(r->g, act, &e);
        if (s == FOH_OK)
            mismatch(r, "expected the action to be refused (\"%s\"), but it was applied", text);
        else if (s == FOH_ERR_SCRIPT || s == FOH_ERR_MEMORY)
            mismatch(r, "expected the action to be refused (\"%s\"), but a script failed: %s", text, e.msg);
        else if (!strstr(e.msg, text))
            mismatch(r, "expected a refusal mentioning \"%s\", got \"%s\"", text, e.msg);
        else if (foh_game_digest(r->g) != before)
            mismatch(r, "the refused action changed the game");
        return;
    }
    /* A card script that must fail: the engine names it, leaves the
     * game exactly as it was, and the scenario goes on. */
    foh_error e = {0};
    uint64_t before = foh_game_digest(r->g);
    foh_status s = foh_game_apply(r->g, act, &e);
    if (s == FOH_OK)
        mismatch(r, "expected a script to fail (\"%s\"), but the action was applied", text);
    else if (s != FOH_ERR_SCRIPT && s != FOH_ERR_MEMORY)
        mismatch(r, "expected a script to fail (\"%s\"), but the rules refused the action: %s", text, e.msg);
    else if (!strstr(e.msg, text))
        mismatch(r, "expected a script's error mentioning \"%s\", got \"%s\"", text, e.msg);
    else if (foh_game_digest(r->g) != before)
        mismatch(r, "the failed action changed the game");
}

/* The answers of a choose step (ARG: one answer or a list), each applied
 * in turn to the pending choice; 0 after saying what is malformed. */
static int answer_choices(runner *r, const foh_yaml_node *step, const foh_yaml_node *arg)
{
    if (!arg || (arg->kind == FOH_YAML_SCALAR && !arg->text[0]) || (arg->kind == FOH_YAML_SEQ && !arg->n))
        return malformed(r, step, "choose: an answer or a list of answers");
    if (arg->kind == FOH_YAML_MAP)
        return malformed(r, arg, "choose: an answer or a list of answers, not a map");
    size_t n = arg->kind == FOH_YAML_SEQ ? arg->n : 1;
    for (size_t i = 0; i < n && !r->failed; i++) {
        const foh_yaml_node *answer = arg->kind == FOH_YAML_SEQ ? arg->items[i] : arg;
        if (!text_of(r, answer, "an answer (a card id, a player or an option label)"))
            return 0;
        if (!foh_game_choice(r->g)) {
            mismatch(r, "answer '%s': no choice is pending", answer->text);
            break;
        }
        int opt = option_for(r, answer);
        if (opt < 0)
            break;
        foh_action a = {.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = opt};
        char what[FOH_OPTION_LABEL + 32];
        snprintf(what, sizeof what, "answer '%s'", answer->text);
        play(r, &a, what);
    }
    return 1;
}

static int run_step(runner *r, const foh_yaml_node *step, int number)
{
    static const char *const keys[] = {"invest", "complete", "snipe", "activate", "harvest", "choose",
                                       "check",  "pass",     "action", "expect",  "error",   "script_error",
                                       "note",   NULL};
    const foh_yaml_node *as_map = step, *arg = NULL;
    const char *verb = NULL;
    if (step->kind == FOH_YAML_SCALAR) {
        verb = step->text;
        as_map = NULL;
    } else {
        if (!only_keys(r, step, keys, "a step"))
            return 0;
        for (size_t i = 0; i < step->n; i++)
            for (const char *const *a = ACTIONS; *a; a++)
                if (!strcmp(step->keys[i], *a)) {
                    if (verb)
                        return malformed_key(r, step, i, "a step has one action, not '%s' and '%s'", verb,
                                             step->keys[i]);
                    verb = step->keys[i];
                    arg = step->items[i];
                }
    }
    int known = 0;
    for (const char *const *a = ACTIONS; verb && *a; a++)
        known |= !strcmp(verb, *a);
    if (!known)
        return malformed(r, step,
                         "a step needs one action: invest, complete, snipe, activate, harvest, pass, action, choose "
                         "or check");
    if (as_map && foh_yaml_get(as_map, "note") && !text_of(r, foh_yaml_get(as_map, "note"), "note"))
        return 0;
    snprintf(r->where, sizeof r->where, "step %d (line %d: %s%s%.100s)", number, step->line, verb,
             arg && arg->kind == FOH_YAML_SCALAR && arg->text[0] ? " " : "",
             arg && arg->kind == FOH_YAML_SCALAR ? arg->text : "");

    const foh_yaml_node *error = as_map ? foh_yaml_get(as_map, "error") : NULL;
    const char *error_text = error ? text_of(r, error, "error (text of the refusal)") : NULL;
    if (error_text && !error_text[0])
        return malformed(r, error, "error: the words the refusal must contain (empty matches every message)");
    if (error && !error_text)
        return 0;
    const foh_yaml_node *serror = as_map ? foh_yaml_get(as_map, "script_error") : NULL;
    const char *serror_text = serror ? text_of(r, serror, "script_error (text of the script's error)") : NULL;
    if (serror_text && !serror_text[0])
        return malformed(r, serror, "script_error: the words the script's error must contain (empty matches every "
                                    "message)");
    if (serror && !serror_text)
        return 0;
    if (error && serror)
        return malformed(r, serror, "a step expects a refusal ('error') or a script's failure ('script_error'), "
                                    "not both");
    foh_action act;
    int have = 0;
    if (!step_action(r, step, verb, arg, &act, &have))
        return 0;
    if (error && (!have || !strcmp(verb, "choose")))
        return malformed(r, error, "'error' goes with a turn action that must be refused");
    if (serror && !have && !(!strcmp(verb, "choose") && arg && arg->kind == FOH_YAML_SCALAR && arg->text[0]))
        return malformed(r, serror, "'script_error' goes with a turn action or one answer to a choice");
    if (serror && !have) {
        /* One answer whose effect must fail: applied as the turn actions below. */
        if (!foh_game_choice(r->g)) {
            mismatch(r, "answer '%s': no choice is pending", arg->text);
            return 1;
        }
        int opt = option_for(r, arg);
        if (opt < 0)
            return 1;
        act = (foh_action){.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = opt};
        have = 1;
    }

    if (have && (error || serror)) {
        apply_failing(r, &act, error ? error_text : serror_text, !error);
    } else if (have) {
        play(r, &act, verb);
    } else if (!strcmp(verb, "choose")) {
        if (!answer_choices(r, step, arg))
            return 0;
    }
    /* After anything was applied the engine's invariants must hold (a
     * set-up itself may be a mid-turn position, e.g. a short Market). */
    if (!r->failed && strcmp(verb, "check") != 0) {
        foh_error inv;
        if (foh_game_check_invariants(r->g, &inv) != FOH_OK)
            mismatch(r, "%s", inv.msg);
    }
    const foh_yaml_node *expect = as_map ? foh_yaml_get(as_map, "expect") : NULL;
    if (expect && !r->failed && !check_expectations(r, expect))
        return 0;
    return 1;
}

/* ---- Running ---- */

static void note_coverage(runner *r)
{
    for (int c = 0; c < foh_cardset_card_count(r->cs); c++) {
        if (!foh_engine_exercised(r->eng, c))
            continue;
        scenario_card *e = coverage_entry(r, c);
        if (e)
            e->covered = 1;
    }
}

/* A malformed scenario or file: on stderr, or to foh check. */
static void tell_malformed(const scenario_options *opt, const char *msg)
{
    if (opt->problem)
        opt->problem(opt->problem_ctx, msg);
    else
        cli_error("scenario", "%s", msg);
}

static void run_scenario(runner *r, const foh_yaml_node *s, const char *dir)
{
    r->failed = r->bad = 0;
    r->len = 0;
    r->where[0] = '\0';
    r->name = "?";
    r->g = NULL;
    int ok = setup(r, s, dir);
    if (ok)
        foh_engine_exercised_clear(r->eng); /* what this scenario exercises */
    const foh_yaml_node *steps = ok ? foh_yaml_get(s, "steps") : NULL;
    if (ok && !steps)
        ok = malformed(r, s, "a scenario needs a list of steps");
    if (ok)
        ok = want_kind(r, steps, FOH_YAML_SEQ, "steps");
    for (size_t i = 0; ok && i < steps->n && !r->failed; i++)
        ok = run_step(r, steps->items[i], (int)i + 1);
    if (!ok) {
        r->stats->malformed++;
        tell_malformed(r->opt, r->err.msg);
    } else if (r->failed && r->opt->problem) {
        r->stats->scenarios++;
        r->stats->failed++;
        /* One message: the scenario, its step and first difference. */
        char line[2400], none[1] = "", *step = r->report ? r->report : none, *diff = step + strcspn(step, "\n");
        int more = -1;
        for (const char *c = diff; *c; c++)
            more += *c == '\n';
        if (*diff)
            *diff++ = '\0';
        diff[strcspn(diff, "\n")] = '\0';
        snprintf(line, sizeof line, "%s:%d: scenario '%s' failed: %s %s%s", r->file, s->line, r->name,
                 step + strspn(step, " "), diff + strspn(diff, " "), more > 0 ? " (and more: foh scenario shows all)" : "");
        r->opt->problem(r->opt->problem_ctx, line);
    } else if (r->failed) {
        r->stats->scenarios++;
        r->stats->failed++;
        char line[1400];
        snprintf(line, sizeof line, "FAIL %s:%d: %s", r->file, s->line, r->name);
        cli_line(stdout, line);
        for (char *p = r->report, *nl; p && p < r->report + r->len; p = nl + 1) {
            nl = strchr(p, '\n');
            *nl = '\0';
            cli_line(stdout, p);
        }
    } else {
        r->stats->scenarios++;
        char line[1400];
        snprintf(line, sizeof line, "PASS %s: %s", r->file, r->name);
        if (!r->opt->problem)
            cli_line(stdout, line);
        note_coverage(r);
    }
    foh_game_free(r->g);
    r->g = NULL;
}

void scenario_run_file(const char *path, const scenario_options *opt, scenario_stats *stats)
{
    char yerr[1000];
    foh_yaml_node *doc = foh_yaml_load(path, yerr, sizeof yerr);
    if (!doc) {
        stats->malformed++;
        tell_malformed(opt, yerr);
        return;
    }
    runner r = {.file = path, .opt = opt, .stats = stats};
    char dir[2048];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    const foh_yaml_node *list = doc->kind == FOH_YAML_MAP ? foh_yaml_get(doc, "scenarios") : NULL;
    if (doc->kind != FOH_YAML_MAP)
        malformed(&r, doc, "a scenario file is a map (one scenario, or 'scenarios:' with a list), not %s",
                  foh_yaml_kind_name(doc));
    else if (list && (list->kind != FOH_YAML_SEQ || doc->n != 1))
        malformed(&r, doc, "'scenarios' must be a list and the file's only key");
    if (r.bad) {
        stats->malformed++;
        tell_malformed(opt, r.err.msg);
    } else if (list) {
        for (size_t i = 0; i < list->n; i++)
            run_scenario(&r, list->items[i], dir);
    } else {
        run_scenario(&r, doc, dir);
    }
    drop_cardsets(&r);
    free(r.report);
    foh_yaml_free(doc);
}

int scenario_run_path(const char *command, const char *path, const scenario_options *opt, scenario_stats *stats)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        cli_error(command, "%s: no such file or folder", path);
        return 0;
    }
    if (!S_ISDIR(sb.st_mode)) {
        scenario_run_file(path, opt, stats);
        return 1;
    }
    char **names;
    int n = cli_list_dir(path, ".yaml", &names);
    if (n < 0) {
        cli_error(command, "%s: cannot read the folder", path);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *file = malloc(len);
        if (!file) {
            cli_error(command, "out of memory");
            cli_free_list(names, n);
            return 0;
        }
        snprintf(file, len, "%s/%s", path, names[i]);
        scenario_run_file(file, opt, stats);
        free(file);
    }
    cli_free_list(names, n);
    return 1;
}

void scenario_stats_free(scenario_stats *stats)
{
    for (int i = 0; i < stats->ncards; i++) {
        free(stats->cards[i].id);
        free(stats->cards[i].origin);
    }
    free(stats->cards);
    stats->cards = NULL;
    stats->ncards = stats->cap = 0;
}

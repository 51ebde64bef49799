/* scenario: run scenario files (see foh/scenario.h, docs/scenarios.md).
 * A scenario sets up a position with the position API, applies its steps
 * with foh_game_apply exactly as a real game does, and compares what it
 * expects with what the public read functions say. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foh/foh.h"
#include "internal.h"
#include "rng.h"
#include "foh/yaml.h"

typedef struct {
    const char *file;
    const foh_scenario_options *opt;
    foh_error *err;
    foh_scenario_print print;
    void *ud;
    foh_scenario_stats *stats;
    foh_cardset *cs;
    foh_engine *eng;
    char cs_path[1024];
    foh_game *g;
    const char *name;
    int line;        /* line of the scenario */
    int failed;      /* this scenario has failed */
    char where[160]; /* the step being run, for the report */
    char report[16384];
    size_t len;
} runner;

/* ---- Messages ---- */

/* The file itself is wrong: stop reading it. */
static int malformed(runner *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int malformed(runner *r, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    foh_error_set(r->err, FOH_ERR_DATA, "%s:%d: %s", r->file, line, msg);
    return 0;
}

/* A failed expectation: add a line to the report. */
static void mismatch(runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mismatch(runner *r, const char *fmt, ...)
{
    if (!r->failed && r->where[0] && r->len < sizeof r->report)
        r->len += (size_t)snprintf(r->report + r->len, sizeof r->report - r->len, "    %s:\n", r->where);
    r->failed = 1;
    if (r->len >= sizeof r->report)
        return;
    r->len += (size_t)snprintf(r->report + r->len, sizeof r->report - r->len, "      ");
    va_list ap;
    va_start(ap, fmt);
    if (r->len < sizeof r->report)
        r->len += (size_t)vsnprintf(r->report + r->len, sizeof r->report - r->len, fmt, ap);
    va_end(ap);
    if (r->len < sizeof r->report - 1)
        r->report[r->len++] = '\n';
    r->report[r->len < sizeof r->report ? r->len : sizeof r->report - 1] = '\0';
}

/* ---- Reading values ---- */

static int only_keys(runner *r, const foh_yaml_node *m, const char *const *allowed, const char *what)
{
    if (!m || m->kind != FOH_YAML_MAP)
        return malformed(r, m ? m->line : r->line, "%s must be a map", what);
    for (size_t i = 0; i < m->n; i++) {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            ok |= !strcmp(*a, m->keys[i]);
        if (!ok)
            return malformed(r, m->key_lines[i], "unknown field '%s' in %s", m->keys[i], what);
    }
    return 1;
}

static int int_of(runner *r, const foh_yaml_node *v, int *out)
{
    char *end;
    if (!v || v->kind != FOH_YAML_SCALAR)
        return malformed(r, v ? v->line : r->line, "expected a whole number");
    long x = strtol(v->text, &end, 10);
    if (!*v->text || *end || x < -1000000 || x > 1000000)
        return malformed(r, v->line, "'%s' is not a whole number", v->text);
    *out = (int)x;
    return 1;
}

static int bool_of(runner *r, const foh_yaml_node *v, int *out)
{
    if (v && v->kind == FOH_YAML_SCALAR && (!strcmp(v->text, "true") || !strcmp(v->text, "false"))) {
        *out = v->text[0] == 't';
        return 1;
    }
    return malformed(r, v ? v->line : r->line, "expected true or false");
}

static int card_of(runner *r, const foh_yaml_node *v)
{
    if (!v || v->kind != FOH_YAML_SCALAR)
        return malformed(r, v ? v->line : r->line, "expected a card id") - 1;
    int c = foh_cardset_find(r->cs, v->text);
    if (c < 0)
        return malformed(r, v->line, "unknown card id '%s'", v->text) - 1;
    return c;
}

/* A player number 1..players in TEXT; returns the 0-based index or -1. */
static int player_of(runner *r, const char *text, int line)
{
    char *end;
    long p = strtol(text[0] == 'P' ? text + 1 : text, &end, 10);
    if (*end || p < 1 || p > foh_game_players(r->g))
        return malformed(r, line, "'%s' is not a player (1 to %d)", text, foh_game_players(r->g)) - 1;
    return (int)p - 1;
}

static const char *card_id(runner *r, int c)
{
    foh_card_info ci;
    return foh_cardset_card(r->cs, c, &ci) == FOH_OK ? ci.id : "(none)";
}

static int icon_of(runner *r, const char *name, int line)
{
    int i = foh_cardset_icon_find(r->cs, name);
    if (i < 0)
        malformed(r, line, "unknown icon '%s'", name);
    return i;
}

static int type_of(runner *r, const char *name, int line)
{
    for (int t = 0; t < foh_cardset_type_count(r->cs); t++)
        if (!strcmp(foh_cardset_type_name(r->cs, t), name))
            return t;
    return malformed(r, line, "unknown card type '%s'", name) - 1;
}

/* ---- Card set ---- */

/* Load (or keep) the card set PATH with the variant folders VARIANTS. */
static int use_cardset(runner *r, const char *path, const char *const *variants, int nvariants, int line)
{
    char key[sizeof r->cs_path];
    size_t k = (size_t)snprintf(key, sizeof key, "%s", path);
    for (int i = 0; i < nvariants && k < sizeof key; i++)
        k += (size_t)snprintf(key + k, sizeof key - k, "|%s", variants[i]);
    if (r->cs && !strcmp(r->cs_path, key))
        return 1;
    foh_engine_free(r->eng);
    foh_cardset_free(r->cs);
    r->eng = NULL;
    r->cs = NULL;
    r->cs_path[0] = '\0';
    foh_error e;
    r->cs = foh_cardset_load_variants(path, variants, nvariants, &e);
    if (!r->cs)
        return malformed(r, line, "card set '%s': %s", path, e.msg);
    r->eng = foh_engine_new(r->cs, &e);
    if (!r->eng)
        return malformed(r, line, "card set '%s': %s", path, e.msg);
    snprintf(r->cs_path, sizeof r->cs_path, "%s", key);
    return 1;
}

/* An investor: a player (1, P1) or a neutral marker (N1). */
static int investor_of(runner *r, const foh_yaml_node *v)
{
    if (v && v->kind == FOH_YAML_SCALAR && v->text[0] == 'N') {
        int k = atoi(v->text + 1);
        if (k < 1 || k > FOH_MAX_NEUTRAL)
            return malformed(r, v->line, "'%s' is not a neutral investor (N1, N2)", v->text) - 1;
        return FOH_NEUTRAL_INVESTOR + k - 1;
    }
    if (!v || v->kind != FOH_YAML_SCALAR)
        return malformed(r, v ? v->line : r->line, "expected a player or a neutral investor") - 1;
    return player_of(r, v->text, v->line);
}

/* ---- Set-up ---- */

static int put(runner *r, int card, foh_zone zone, int player, int line)
{
    foh_error e;
    int owner;
    if (foh_game_card_zone(r->g, card, &owner) != FOH_ZONE_BOX)
        return malformed(r, line, "card '%s' is placed twice in the set-up", card_id(r, card));
    if (foh_position_put(r->g, card, zone, player, &e) != FOH_OK)
        return malformed(r, line, "%s", e.msg);
    return 1;
}

static int setup_nations(runner *r, const foh_yaml_node *nations)
{
    static const char *const keys[] = {"cards", "tokens", NULL};
    if (nations->kind != FOH_YAML_MAP)
        return malformed(r, nations->line, "nations: map each player number to {cards, tokens}");
    for (size_t i = 0; i < nations->n; i++) {
        int p = player_of(r, nations->keys[i], nations->key_lines[i]);
        const foh_yaml_node *n = nations->items[i];
        if (p < 0 || !only_keys(r, n, keys, "a nation"))
            return 0;
        const foh_yaml_node *cards = foh_yaml_get(n, "cards");
        if (cards && cards->kind != FOH_YAML_SEQ)
            return malformed(r, cards->line, "cards: a list of card ids, each pile bottom first");
        for (size_t k = 0; cards && k < cards->n; k++) {
            int c = card_of(r, cards->items[k]);
            if (c < 0 || !put(r, c, FOH_ZONE_NATION, p, cards->items[k]->line))
                return 0;
            foh_position_set_fired(r->g, c, 1, NULL); /* gained earlier: Instant already used */
        }
        int tokens = 0;
        if (foh_yaml_get(n, "tokens") && !int_of(r, foh_yaml_get(n, "tokens"), &tokens))
            return 0;
        if (foh_position_set_tokens(r->g, p, tokens, r->err) != FOH_OK)
            return malformed(r, n->line, "%s", r->err->msg);
    }
    return 1;
}

static int setup_market(runner *r, const foh_yaml_node *market)
{
    static const char *const keys[] = {"card", "investor", "tokens", NULL};
    if (market->kind != FOH_YAML_SEQ)
        return malformed(r, market->line, "market: a list of card ids or {card, investor, tokens}");
    for (size_t i = 0; i < market->n; i++) {
        const foh_yaml_node *m = market->items[i];
        const foh_yaml_node *cn = m->kind == FOH_YAML_MAP ? foh_yaml_get(m, "card") : m;
        if (m->kind == FOH_YAML_MAP && !only_keys(r, m, keys, "a Market card"))
            return 0;
        int c = card_of(r, cn);
        if (c < 0 || !put(r, c, FOH_ZONE_MARKET, -1, m->line))
            return 0;
        if (m->kind == FOH_YAML_MAP && foh_yaml_get(m, "investor")) {
            const foh_yaml_node *inv = foh_yaml_get(m, "investor");
            int tokens = 0;
            int p = investor_of(r, inv);
            if (p < 0 || !int_of(r, foh_yaml_get(m, "tokens"), &tokens))
                return p < 0 ? 0 : malformed(r, m->line, "an investment needs investor and tokens");
            foh_error e;
            if (foh_position_invest(r->g, p, c, tokens, &e) != FOH_OK)
                return malformed(r, m->line, "%s", e.msg);
        }
    }
    return 1;
}

/* deck_rest: every card not placed yet, built like the real deck (bottom
 * cards, then each deck age shuffled), under the listed top cards. */
static void fill_deck_rest(runner *r, uint64_t seed)
{
    const foh_cardset *cs = r->cs;
    uint64_t rng[4];
    foh_rng_seed(rng, seed);
    for (int i = 0; i < cs->ndeck_bottom; i++)
        if (foh_game_card_zone(r->g, cs->deck_bottom[i], NULL) == FOH_ZONE_BOX)
            foh_position_put(r->g, cs->deck_bottom[i], FOH_ZONE_DECK, -1, NULL);
    for (int a = 0; a < cs->ndeck_ages; a++) {
        int pool[FOH_MAX_CARDS], n = 0;
        for (int c = 0; c < cs->ncards; c++)
            if (cs->card[c].age == cs->deck_ages[a] && foh_game_card_zone(r->g, c, NULL) == FOH_ZONE_BOX)
                pool[n++] = c;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)foh_rng_below(rng, (uint32_t)i + 1), t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
        }
        for (int i = 0; i < n; i++)
            foh_position_put(r->g, pool[i], FOH_ZONE_DECK, -1, NULL);
    }
}

static int setup(runner *r, const foh_yaml_node *s, const char *file_dir, const char *default_cards)
{
    static const char *const keys[] = {"name", "source", "ruling", "cards", "variants", "start", "players", "seed",
                                       "current",
                                       "nations", "market", "supply", "reserve", "deck", "deck_rest",
                                       "removed", "not_fired", "steps", NULL};
    if (!only_keys(r, s, keys, "a scenario"))
        return 0;
    const foh_yaml_node *name = foh_yaml_get(s, "name");
    if (!name || name->kind != FOH_YAML_SCALAR)
        return malformed(r, s->line, "a scenario needs a name");
    r->name = name->text;
    char path[1024];
    const foh_yaml_node *cards = foh_yaml_get(s, "cards");
    if (cards && cards->kind == FOH_YAML_SCALAR)
        snprintf(path, sizeof path, "%s%s%s", cards->text[0] == '/' ? "" : file_dir,
                 cards->text[0] == '/' ? "" : "/", cards->text);
    else
        snprintf(path, sizeof path, "%s", default_cards);
    /* Variants: those given to every scenario, then the scenario's own. */
    char vdirs[16][1024];
    const char *vlist[16];
    int nv = 0;
    for (int i = 0; i < r->opt->nvariants && nv < 16; i++, nv++)
        snprintf(vdirs[nv], sizeof vdirs[0], "%s", r->opt->variant[i]);
    const foh_yaml_node *variants = foh_yaml_get(s, "variants");
    if (variants && variants->kind != FOH_YAML_SEQ)
        return malformed(r, variants->line, "variants: a list of variant names");
    for (size_t i = 0; variants && i < variants->n && nv < 16; i++, nv++) {
        const foh_yaml_node *v = variants->items[i];
        if (v->kind != FOH_YAML_SCALAR)
            return malformed(r, v->line, "a variant is a name or a folder");
        if (strchr(v->text, '/'))
            snprintf(vdirs[nv], sizeof vdirs[0], "%s/%s", file_dir, v->text);
        else
            snprintf(vdirs[nv], sizeof vdirs[0], "%s/%s", r->opt->variants_root ? r->opt->variants_root : "variants",
                     v->text);
    }
    for (int i = 0; i < nv; i++)
        vlist[i] = vdirs[i];
    if (!use_cardset(r, path, vlist, nv, cards ? cards->line : s->line))
        return 0;

    int players = 0, seed = 1, current = 1;
    if (!int_of(r, foh_yaml_get(s, "players"), &players) ||
        (foh_yaml_get(s, "seed") && !int_of(r, foh_yaml_get(s, "seed"), &seed)) ||
        (foh_yaml_get(s, "current") && !int_of(r, foh_yaml_get(s, "current"), &current)))
        return 0;
    foh_options opt = {.players = players, .seed = (uint64_t)seed};
    foh_error e;
    r->g = foh_game_new(r->eng, &opt, &e);
    if (!r->g)
        return malformed(r, s->line, "%s", e.msg);
    /* start: setup keeps the real set-up of the seed (and its choices). */
    const foh_yaml_node *start = foh_yaml_get(s, "start");
    if (start && (start->kind != FOH_YAML_SCALAR || (strcmp(start->text, "setup") && strcmp(start->text, "position"))))
        return malformed(r, start->line, "start: 'setup' (the game's own set-up) or 'position' (the default)");
    if (start && !strcmp(start->text, "setup")) {
        static const char *const placed[] = {"current", "nations", "market", "supply", "reserve", "deck",
                                             "deck_rest", "removed", "not_fired", NULL};
        for (const char *const *k = placed; *k; k++)
            if (foh_yaml_get(s, *k))
                return malformed(r, foh_yaml_get(s, *k)->line, "'%s' cannot be used with start: setup", *k);
        return 1;
    }
    if (foh_position_clear(r->g, current - 1, &e) != FOH_OK)
        return malformed(r, s->line, "current: %s", e.msg);

    const foh_yaml_node *removed = foh_yaml_get(s, "removed");
    for (size_t i = 0; removed && i < removed->n; i++) {
        int c = card_of(r, removed->items[i]);
        if (c < 0 || !put(r, c, FOH_ZONE_REMOVED, -1, removed->items[i]->line))
            return 0;
    }
    if (foh_yaml_get(s, "nations") && !setup_nations(r, foh_yaml_get(s, "nations")))
        return 0;
    if (foh_yaml_get(s, "market") && !setup_market(r, foh_yaml_get(s, "market")))
        return 0;
    const foh_yaml_node *deck = foh_yaml_get(s, "deck");
    if (deck && deck->kind != FOH_YAML_SEQ)
        return malformed(r, deck->line, "deck: a list of card ids, top card first");
    int rest = 0;
    if (foh_yaml_get(s, "deck_rest") && !bool_of(r, foh_yaml_get(s, "deck_rest"), &rest))
        return 0;
    int deck_cards[FOH_MAX_CARDS], ndeck = 0;
    for (size_t i = 0; deck && i < deck->n && ndeck < FOH_MAX_CARDS; i++) {
        int c = card_of(r, deck->items[i]);
        if (c < 0)
            return 0;
        for (int k = 0; k < ndeck; k++)
            if (deck_cards[k] == c)
                return malformed(r, deck->items[i]->line, "card '%s' is placed twice in the set-up", card_id(r, c));
        if (foh_game_card_zone(r->g, c, NULL) != FOH_ZONE_BOX)
            return malformed(r, deck->items[i]->line, "card '%s' is placed twice in the set-up", card_id(r, c));
        deck_cards[ndeck++] = c;
    }
    if (rest) {
        /* Keep the listed top cards out of the shuffled rest. */
        for (int k = 0; k < ndeck; k++)
            foh_position_put(r->g, deck_cards[k], FOH_ZONE_REMOVED, -1, NULL);
        fill_deck_rest(r, (uint64_t)seed);
        for (int k = 0; k < ndeck; k++)
            foh_position_put(r->g, deck_cards[k], FOH_ZONE_BOX, -1, NULL);
    }
    for (int k = ndeck - 1; k >= 0; k--)
        foh_position_put(r->g, deck_cards[k], FOH_ZONE_DECK, -1, NULL);

    const foh_yaml_node *nf = foh_yaml_get(s, "not_fired");
    for (size_t i = 0; nf && i < nf->n; i++) {
        int c = card_of(r, nf->items[i]);
        if (c < 0)
            return 0;
        foh_position_set_fired(r->g, c, 0, NULL);
    }
    int supply = 0;
    if (foh_yaml_get(s, "supply") && !int_of(r, foh_yaml_get(s, "supply"), &supply))
        return 0;
    if (foh_position_set_tokens(r->g, -1, supply, &e) != FOH_OK)
        return malformed(r, s->line, "supply: %s", e.msg);
    if (foh_yaml_get(s, "reserve")) {
        int reserve;
        if (!int_of(r, foh_yaml_get(s, "reserve"), &reserve))
            return 0;
        if (reserve != foh_game_reserve(r->g))
            return malformed(r, foh_yaml_get(s, "reserve")->line,
                             "the set-up leaves %d tokens in the Reserve (the box holds %d), not %d; "
                             "leave 'reserve' out to have it computed",
                             foh_game_reserve(r->g), foh_cardset_tokens_in_box(r->cs), reserve);
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
    if (want->kind != FOH_YAML_SEQ)
        return malformed(r, want->line, "%s: expected a list of card ids", what);
    int w[FOH_MAX_CARDS], nw = 0;
    for (size_t i = 0; i < want->n && nw < FOH_MAX_CARDS; i++)
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
        char a[1024], b[1024];
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
    foh_score sc[FOH_MAX_PLAYERS];
    foh_error e;
    if (foh_game_score(r->g, sc, NULL, &e) != FOH_OK) {
        mismatch(r, "scoring failed: %s", e.msg);
        return 1;
    }
    if (m->kind != FOH_YAML_MAP)
        return malformed(r, m->line, "scores: map each player to {total, culture, ...}");
    for (size_t i = 0; i < m->n; i++) {
        int p = player_of(r, m->keys[i], m->key_lines[i]);
        const foh_yaml_node *s = m->items[i];
        if (p < 0 || !only_keys(r, s, keys, "a score"))
            return 0;
        for (size_t k = 0; k < s->n; k++) {
            const char *key = s->keys[k];
            char what[96];
            snprintf(what, sizeof what, "P%d %s", p + 1, key);
            if (!strcmp(key, "end")) {
                const foh_yaml_node *ends = s->items[k];
                if (ends->kind != FOH_YAML_MAP)
                    return malformed(r, ends->line, "end: map card ids to VP");
                for (size_t j = 0; j < ends->n; j++) {
                    int c = foh_cardset_find(r->cs, ends->keys[j]), want = 0, got = -1;
                    if (c < 0)
                        return malformed(r, ends->key_lines[j], "unknown card id '%s'", ends->keys[j]);
                    if (!int_of(r, ends->items[j], &want))
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
            if (!strcmp(key, "winner")) {
                if (!bool_of(r, s->items[k], &want))
                    return 0;
            } else if (!int_of(r, s->items[k], &want)) {
                return 0;
            }
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
    if (m->kind != FOH_YAML_MAP)
        return malformed(r, m->line, "map each player to {name: count}");
    for (size_t i = 0; i < m->n; i++) {
        int p = player_of(r, m->keys[i], m->key_lines[i]);
        const foh_yaml_node *c = m->items[i];
        if (p < 0)
            return 0;
        if (c->kind != FOH_YAML_MAP)
            return malformed(r, c->line, "map names to counts");
        for (size_t k = 0; k < c->n; k++) {
            int want = 0, got;
            if (!int_of(r, c->items[k], &want))
                return 0;
            char what[96];
            snprintf(what, sizeof what, "P%d %s%s", p + 1, c->keys[k], strength ? " strength" : " icons");
            if (strength) {
                int roles[2] = {0, 0};
                const foh_cardset *cs = r->cs;
                int icons[FOH_MAX_ICONS];
                for (int ic = 0; ic < cs->nicons; ic++)
                    icons[ic] = foh_game_icons(r->g, p, ic);
                for (int ic = 0; ic < cs->nicons; ic++) {
                    roles[0] += (cs->attacker_icons >> ic & 1) * icons[ic];
                    roles[1] += (cs->defender_icons >> ic & 1) * icons[ic];
                }
                if (strcmp(c->keys[k], "attacker") && strcmp(c->keys[k], "defender"))
                    return malformed(r, c->key_lines[k], "strength is 'attacker' or 'defender'");
                got = roles[strcmp(c->keys[k], "attacker") != 0];
            } else {
                int ic = icon_of(r, c->keys[k], c->key_lines[k]);
                if (ic < 0)
                    return 0;
                got = foh_game_icons(r->g, p, ic);
            }
            expect_int(r, what, want, got);
        }
    }
    return 1;
}

static int check_expectations(runner *r, const foh_yaml_node *x)
{
    static const char *const keys[] = {"tokens", "supply", "reserve", "substituted", "invested", "investor",
                                       "market", "deck", "deck_size", "nation", "stacks", "zone", "removed",
                                       "icons", "strength", "age", "current", "to_act", "game_over", "choice",
                                       "scores", "fired", "turn", "bonus", NULL};
    if (!only_keys(r, x, keys, "expect"))
        return 0;
    foh_game *g = r->g;
    for (size_t i = 0; i < x->n; i++) {
        const char *key = x->keys[i];
        const foh_yaml_node *v = x->items[i];
        int want = 0;
        if (!strcmp(key, "supply") || !strcmp(key, "reserve") || !strcmp(key, "substituted") ||
            !strcmp(key, "age") || !strcmp(key, "deck_size") || !strcmp(key, "turn")) {
            if (!int_of(r, v, &want))
                return 0;
            int got = !strcmp(key, "supply")        ? foh_game_supply(g)
                      : !strcmp(key, "reserve")     ? foh_game_reserve(g)
                      : !strcmp(key, "substituted") ? foh_game_substituted(g)
                      : !strcmp(key, "age")         ? foh_game_current_age(g)
                      : !strcmp(key, "turn")        ? foh_game_turn(g)
                                                    : foh_game_deck_size(g);
            expect_int(r, !strcmp(key, "age") ? "Current Age" : key, want, got);
        } else if (!strcmp(key, "current") || !strcmp(key, "to_act")) {
            int p = v->kind == FOH_YAML_SCALAR && !strcmp(v->text, "none") ? -1 : player_of(r, v->text, v->line);
            if (p < 0 && strcmp(v->text, "none"))
                return 0;
            int got = !strcmp(key, "current") ? foh_game_current_player(g) : foh_game_to_act(g);
            if (p != got)
                mismatch(r, "%s: expected P%d, got P%d", key, p + 1, got + 1);
        } else if (!strcmp(key, "game_over") || !strcmp(key, "bonus")) {
            if (!bool_of(r, v, &want))
                return 0;
            int got = key[0] == 'g' ? foh_game_is_over(g) : foh_game_in_bonus(g);
            if (want != got)
                mismatch(r, "%s: expected %s, got %s", key[0] == 'g' ? "game over" : "bonus action pending",
                         want ? "yes" : "no", want ? "no" : "yes");
        } else if (!strcmp(key, "tokens")) {
            if (v->kind != FOH_YAML_MAP)
                return malformed(r, v->line, "tokens: map players to token counts");
            for (size_t k = 0; k < v->n; k++) {
                int p = player_of(r, v->keys[k], v->key_lines[k]);
                if (p < 0 || !int_of(r, v->items[k], &want))
                    return 0;
                char what[32];
                snprintf(what, sizeof what, "P%d tokens", p + 1);
                expect_int(r, what, want, foh_game_tokens(g, p));
            }
        } else if (!strcmp(key, "invested") || !strcmp(key, "investor")) {
            if (v->kind != FOH_YAML_MAP)
                return malformed(r, v->line, "%s: map card ids to values", key);
            for (size_t k = 0; k < v->n; k++) {
                int c = foh_cardset_find(r->cs, v->keys[k]);
                if (c < 0)
                    return malformed(r, v->key_lines[k], "unknown card id '%s'", v->keys[k]);
                char what[96];
                snprintf(what, sizeof what, "%s %s", key, v->keys[k]);
                if (!strcmp(key, "invested")) {
                    if (!int_of(r, v->items[k], &want))
                        return 0;
                    expect_int(r, what, want, foh_game_invested_tokens(g, c));
                } else {
                    const foh_yaml_node *pv = v->items[k];
                    int p = pv->kind == FOH_YAML_SCALAR && !strcmp(pv->text, "none") ? -1 : investor_of(r, pv);
                    if (p < 0 && strcmp(pv->text, "none"))
                        return 0;
                    int got = foh_game_investor(g, c);
                    if (p != got) {
                        char a[16], b[16];
                        snprintf(a, sizeof a, p < 0 ? "none" : p >= FOH_NEUTRAL_INVESTOR ? "N%d" : "P%d",
                                 p >= FOH_NEUTRAL_INVESTOR ? p - FOH_NEUTRAL_INVESTOR + 1 : p + 1);
                        snprintf(b, sizeof b, got < 0 ? "none" : got >= FOH_NEUTRAL_INVESTOR ? "N%d" : "P%d",
                                 got >= FOH_NEUTRAL_INVESTOR ? got - FOH_NEUTRAL_INVESTOR + 1 : got + 1);
                        mismatch(r, "%s: expected %s, got %s", what, a, b);
                    }
                }
            }
        } else if (!strcmp(key, "market")) {
            int got[FOH_MAX_CARDS], n = foh_game_market_size(g);
            for (int k = 0; k < n; k++)
                got[k] = foh_game_market_card(g, k);
            if (!expect_cards(r, "Market", v, got, n, 1))
                return 0;
        } else if (!strcmp(key, "deck")) {
            /* The top cards, top first; the rest of the deck is not compared. */
            int got[FOH_MAX_CARDS], n = (int)v->n < foh_game_deck_size(g) ? (int)v->n : foh_game_deck_size(g);
            for (int k = 0; k < n; k++)
                got[k] = foh_game_deck_card(g, k);
            if (!expect_cards(r, "top of the deck", v, got, n, 1))
                return 0;
        } else if (!strcmp(key, "nation")) {
            if (v->kind != FOH_YAML_MAP)
                return malformed(r, v->line, "nation: map players to card lists");
            for (size_t k = 0; k < v->n; k++) {
                int p = player_of(r, v->keys[k], v->key_lines[k]), got[FOH_MAX_CARDS];
                if (p < 0)
                    return 0;
                char what[48];
                snprintf(what, sizeof what, "P%d's Nation", p + 1);
                if (!expect_cards(r, what, v->items[k], got, nation_of(r, p, -1, got), 0))
                    return 0;
            }
        } else if (!strcmp(key, "stacks")) {
            if (v->kind != FOH_YAML_MAP)
                return malformed(r, v->line, "stacks: map players to {type: [cards bottom first]}");
            for (size_t k = 0; k < v->n; k++) {
                int p = player_of(r, v->keys[k], v->key_lines[k]);
                const foh_yaml_node *types = v->items[k];
                if (p < 0 || types->kind != FOH_YAML_MAP)
                    return p < 0 ? 0 : malformed(r, types->line, "map card types to card lists");
                for (size_t t = 0; t < types->n; t++) {
                    int type = type_of(r, types->keys[t], types->key_lines[t]), got[FOH_MAX_CARDS];
                    if (type < 0)
                        return 0;
                    char what[96];
                    snprintf(what, sizeof what, "P%d's %s pile", p + 1, types->keys[t]);
                    if (!expect_cards(r, what, types->items[t], got, nation_of(r, p, type, got), 1))
                        return 0;
                }
            }
        } else if (!strcmp(key, "zone")) {
            if (v->kind != FOH_YAML_MAP)
                return malformed(r, v->line, "zone: map card ids to deck, market, nation, removed or box");
            for (size_t k = 0; k < v->n; k++) {
                int c = foh_cardset_find(r->cs, v->keys[k]);
                if (c < 0 || v->items[k]->kind != FOH_YAML_SCALAR)
                    return malformed(r, v->key_lines[k], "unknown card id '%s'", v->keys[k]);
                const char *got = zone_name(foh_game_card_zone(g, c, NULL));
                if (strcmp(got, v->items[k]->text))
                    mismatch(r, "zone of %s: expected %s, got %s", v->keys[k], v->items[k]->text, got);
            }
        } else if (!strcmp(key, "removed") || !strcmp(key, "fired")) {
            if (v->kind != FOH_YAML_SEQ)
                return malformed(r, v->line, "%s: a list of card ids", key);
            for (size_t k = 0; k < v->n; k++) {
                int c = card_of(r, v->items[k]);
                if (c < 0)
                    return 0;
                int ok = !strcmp(key, "fired") ? foh_game_effect_fired(g, c)
                                               : foh_game_card_zone(g, c, NULL) == FOH_ZONE_REMOVED;
                if (!ok)
                    mismatch(r, "%s: expected %s, which is not", key, card_id(r, c));
            }
        } else if (!strcmp(key, "icons") || !strcmp(key, "strength")) {
            if (!expect_player_counts(r, v, !strcmp(key, "strength")))
                return 0;
        } else if (!strcmp(key, "choice")) {
            const foh_choice *ch = foh_game_choice(g);
            if (v->kind == FOH_YAML_SCALAR && !strcmp(v->text, "none")) {
                if (ch)
                    mismatch(r, "choice: expected none, but P%d must choose (%s)", ch->player + 1, ch->prompt);
                continue;
            }
            static const char *const ckeys[] = {"player", "options", NULL};
            if (!only_keys(r, v, ckeys, "choice"))
                return 0;
            if (!ch) {
                mismatch(r, "choice: expected a pending choice, there is none");
                continue;
            }
            const foh_yaml_node *pl = foh_yaml_get(v, "player"), *opts = foh_yaml_get(v, "options");
            if (pl) {
                int p = player_of(r, pl->text, pl->line);
                if (p < 0)
                    return 0;
                if (p != ch->player)
                    mismatch(r, "choice: expected P%d to choose, got P%d", p + 1, ch->player + 1);
            }
            if (opts) {
                char want_s[1024] = "", got_s[1024] = "";
                size_t a = 0, b = 0;
                for (size_t k = 0; k < opts->n && a < sizeof want_s; k++) {
                    int c = foh_cardset_find(r->cs, opts->items[k]->text);
                    foh_card_info ci;
                    const char *label = c >= 0 && foh_cardset_card(r->cs, c, &ci) == FOH_OK ? ci.name
                                                                                           : opts->items[k]->text;
                    a += (size_t)snprintf(want_s + a, sizeof want_s - a, "%s%s", k ? ", " : "", label);
                }
                for (int k = 0; k < ch->n && b < sizeof got_s; k++)
                    b += (size_t)snprintf(got_s + b, sizeof got_s - b, "%s%s", k ? ", " : "", ch->label[k]);
                if (strcmp(want_s, got_s))
                    mismatch(r, "choice options: expected [%s], got [%s]", want_s, got_s);
            }
        } else if (!strcmp(key, "scores")) {
            if (!expect_scores(r, v))
                return 0;
        }
    }
    return 1;
}

/* ---- Steps ---- */

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
        snprintf(label, sizeof label, "%.*s", FOH_OPTION_LABEL - 1, ci.name);
    else if (isdigit((unsigned char)t[0]))
        snprintf(label, sizeof label, "P%.6s", t);
    else
        snprintf(label, sizeof label, "%.*s", FOH_OPTION_LABEL - 1, t);
    for (int i = 0; i < ch->n; i++)
        if (!strcmp(ch->label[i], label))
            return i;
    char opts[1024] = "";
    size_t k = 0;
    for (int i = 0; i < ch->n && k < sizeof opts; i++)
        k += (size_t)snprintf(opts + k, sizeof opts - k, "%s%s", i ? ", " : "", ch->label[i]);
    mismatch(r, "choice of P%d (%s): no option '%s'; the options are [%s]", ch->player + 1, ch->prompt, label, opts);
    return -1;
}

static const char *const ACTIONS[] = {"invest", "complete", "snipe",  "activate", "harvest",
                                      "choose", "check",    "pass", NULL};

static int run_step(runner *r, const foh_yaml_node *step, int number)
{
    static const char *const keys[] = {"invest", "complete", "snipe", "activate", "harvest", "choose",
                                       "check",  "pass",     "expect", "error",   "note",    NULL};
    const foh_yaml_node *as_map = step;
    const char *verb = NULL;
    const foh_yaml_node *arg = NULL;
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
                        return malformed(r, step->key_lines[i], "a step has one action, not '%s' and '%s'", verb,
                                         step->keys[i]);
                    verb = step->keys[i];
                    arg = step->items[i];
                }
    }
    int known = 0;
    for (const char *const *a = ACTIONS; verb && *a; a++)
        known |= !strcmp(verb, *a);
    if (!known)
        return malformed(r, step->line, "a step needs one action: invest, complete, snipe, activate, harvest, "
                                        "pass, choose or check");
    snprintf(r->where, sizeof r->where, "step %d (line %d: %s%s%s)", number, step->line, verb,
             arg && arg->kind == FOH_YAML_SCALAR && arg->text[0] ? " " : "",
             arg && arg->kind == FOH_YAML_SCALAR ? arg->text : "");

    const foh_yaml_node *error = as_map ? foh_yaml_get(as_map, "error") : NULL;
    foh_action acts[FOH_MAX_ANSWERS];
    int nacts = 0;
    if (!strcmp(verb, "invest")) {
        static const char *const ikeys[] = {"card", "tokens", NULL};
        int tokens = 0, c;
        if (!arg || !only_keys(r, arg, ikeys, "invest") || (c = card_of(r, foh_yaml_get(arg, "card"))) < 0 ||
            !int_of(r, foh_yaml_get(arg, "tokens"), &tokens))
            return arg ? 0 : malformed(r, step->line, "invest: {card, tokens}");
        acts[nacts++] = (foh_action){.kind = FOH_ACT_INVEST, .card = c, .tokens = tokens, .option = -1};
    } else if (!strcmp(verb, "snipe") || !strcmp(verb, "activate")) {
        int c = card_of(r, arg);
        if (c < 0)
            return 0;
        acts[nacts++] = (foh_action){.kind = verb[0] == 's' ? FOH_ACT_SNIPE : FOH_ACT_ACTIVATE, .card = c,
                                     .tokens = 0, .option = -1};
    } else if (!strcmp(verb, "complete") || !strcmp(verb, "harvest") || !strcmp(verb, "pass")) {
        acts[nacts++] = (foh_action){.kind = verb[0] == 'c'   ? FOH_ACT_COMPLETE
                                             : verb[0] == 'h' ? FOH_ACT_HARVEST
                                                              : FOH_ACT_PASS,
                                     .card = -1, .tokens = 0, .option = -1};
    }

    foh_error e = {0};
    if (nacts) {
        uint64_t before = foh_game_digest(r->g);
        foh_status s = foh_game_apply(r->g, &acts[0], &e);
        if (error) {
            if (s == FOH_OK)
                mismatch(r, "expected the action to be refused (\"%s\"), but it was applied", error->text);
            else if (!strstr(e.msg, error->text))
                mismatch(r, "expected a refusal mentioning \"%s\", got \"%s\"", error->text, e.msg);
            else if (foh_game_digest(r->g) != before)
                mismatch(r, "the refused action changed the game");
        } else if (s != FOH_OK) {
            mismatch(r, "refused: %s", e.msg);
        }
    } else if (!strcmp(verb, "choose")) {
        const foh_yaml_node *answers[FOH_MAX_ANSWERS];
        int n = 0;
        if (arg && arg->kind == FOH_YAML_SEQ)
            for (size_t i = 0; i < arg->n && n < FOH_MAX_ANSWERS; i++)
                answers[n++] = arg->items[i];
        else if (arg && arg->kind == FOH_YAML_SCALAR)
            answers[n++] = arg;
        if (n == 0)
            return malformed(r, step->line, "choose: an answer or a list of answers");
        for (int i = 0; i < n && !r->failed; i++) {
            if (answers[i]->kind != FOH_YAML_SCALAR)
                return malformed(r, answers[i]->line, "an answer is a card id, a player or an option label");
            if (!foh_game_choice(r->g)) {
                mismatch(r, "answer '%s': no choice is pending", answers[i]->text);
                break;
            }
            int opt = option_for(r, answers[i]);
            if (opt < 0)
                break;
            foh_action a = {.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = opt};
            if (foh_game_apply(r->g, &a, &e) != FOH_OK)
                mismatch(r, "answer '%s' refused: %s", answers[i]->text, e.msg);
        }
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

static void note_coverage(runner *r, const long *before)
{
    foh_scenario_stats *st = r->stats;
    for (int c = 0; c < foh_cardset_card_count(r->cs); c++) {
        if (foh_engine_exercised(r->eng, c) <= before[c])
            continue;
        const char *id = card_id(r, c);
        int seen = 0;
        for (int k = 0; k < st->ncovered && !seen; k++)
            seen = !strcmp(st->covered[k], id);
        if (!seen && st->ncovered < FOH_SCENARIO_MAX_COVERED)
            snprintf(st->covered[st->ncovered++], sizeof st->covered[0], "%s", id);
    }
}

static int run_scenario(runner *r, const foh_yaml_node *s, const char *dir, const char *default_cards)
{
    r->failed = 0;
    r->len = 0;
    r->report[0] = '\0';
    r->where[0] = '\0';
    r->line = s->line;
    r->name = "?";
    r->g = NULL;
    int ok = setup(r, s, dir, default_cards);
    long before[FOH_MAX_CARDS] = {0};
    for (int c = 0; ok && c < foh_cardset_card_count(r->cs); c++)
        before[c] = foh_engine_exercised(r->eng, c);
    const foh_yaml_node *steps = ok ? foh_yaml_get(s, "steps") : NULL;
    if (ok && (!steps || steps->kind != FOH_YAML_SEQ))
        ok = malformed(r, s->line, "a scenario needs a list of steps");
    for (size_t i = 0; ok && i < steps->n && !r->failed; i++)
        ok = run_step(r, steps->items[i], (int)i + 1);
    if (ok) {
        char line[1400];
        r->stats->scenarios++;
        if (r->failed) {
            r->stats->failed++;
            snprintf(line, sizeof line, "FAIL %s:%d: %s", r->file, s->line, r->name);
            r->print(r->ud, line);
            for (char *p = r->report, *nl; *p; p = nl + 1) {
                nl = strchr(p, '\n');
                if (!nl)
                    break;
                *nl = '\0';
                r->print(r->ud, p);
            }
        } else {
            snprintf(line, sizeof line, "PASS %s: %s", r->file, r->name);
            r->print(r->ud, line);
            note_coverage(r, before);
        }
    }
    foh_game_free(r->g);
    r->g = NULL;
    return ok;
}

foh_status foh_scenario_run_file(const char *path, const foh_scenario_options *opt, foh_scenario_print print,
                                 void *ud, foh_scenario_stats *stats, foh_error *err)
{
    const char *default_cards = opt->cards;
    char yerr[600];
    foh_yaml_node *doc = foh_yaml_load(path, yerr, sizeof yerr);
    if (!doc)
        return foh_error_set(err, FOH_ERR_DATA, "%s", yerr);
    runner r = {.file = path, .opt = opt, .err = err, .print = print, .ud = ud, .stats = stats};
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    int ok = 1;
    const foh_yaml_node *list = doc->kind == FOH_YAML_MAP ? foh_yaml_get(doc, "scenarios") : NULL;
    if (doc->kind != FOH_YAML_MAP)
        ok = malformed(&r, doc->line, "a scenario file is a map (one scenario, or 'scenarios:' with a list)");
    else if (list) {
        if (list->kind != FOH_YAML_SEQ || doc->n != 1)
            ok = malformed(&r, doc->line, "'scenarios' must be a list and the file's only key");
        for (size_t i = 0; ok && i < list->n; i++)
            ok = run_scenario(&r, list->items[i], dir, default_cards);
    } else {
        ok = run_scenario(&r, doc, dir, default_cards);
    }
    foh_engine_free(r.eng);
    foh_cardset_free(r.cs);
    foh_yaml_free(doc);
    return ok ? FOH_OK : FOH_ERR_DATA;
}

/* game_yaml: game.yaml, the game's vocabulary (icons, ages, card types,
 * timings), set-up numbers and rule numbers (docs/card-format.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "loader.h"

/* The fields of each section (a variant may add a missing one). */
static const char *const TYPE_KEYS[] = {"name", "placement", "investor_bonus", "colour", NULL};
const char *const foh_placement_names[4] = {"stack", "single", "side_by_side", "none"};
const char *const foh_fire_names[5] = {"never", "on_gain", "permanent", "turn_action", "end_game"};

/* Terminal colours a card type may be shown in (foh play). */
static const char *const COLOURS[] = {"red", "green", "yellow", "blue", "magenta", "cyan", "white", "grey"};
static const char *const HARVEST_KEYS[] = {"icon", "tokens_per_icon", "share", "rounding", "top_up", NULL};
static const char *const SNIPE_KEYS[] = {"trade_icon", "tokens_per_icon", "share", "rounding", NULL};
static const char *const BONUS_KEYS[] = {"tokens_per_icon", "from", NULL};
static const char *const SETUP_KEYS[] = {
        "market_size", "market_age",  "starting_card_age", "starting_tokens",           "tokens_in_box",
        "supply",      "deck_bottom", "deck_ages",         "starting_cards_per_player", "neutral_investors",
        NULL};
static const char *const RULES_KEYS[] = {
        "harvest",       "snipe",         "investor_bonus",   "attacker_strength",       "defender_strength",
        "full_vp_icons", "age_check_gap", "age_check_repeat", "vp_per_full_icon",        "other_icons_per_vp",
        "tie_break",     "turn_limit",    "harvest_icon",     "snipe_compensation_icon", NULL};

const char *const *foh_game_yaml_fields(const char *section)
{
    if (!strcmp(section, "setup"))
        return SETUP_KEYS;
    if (!strcmp(section, "rules"))
        return RULES_KEYS;
    if (!strcmp(section, "rules.harvest"))
        return HARVEST_KEYS;
    if (!strcmp(section, "rules.snipe"))
        return SNIPE_KEYS;
    if (!strcmp(section, "rules.investor_bonus"))
        return BONUS_KEYS;
    if (!strncmp(section, "card_types.", 11) && !strchr(section + 11, '.'))
        return TYPE_KEYS;
    return NULL;
}

/* The built-in events' names, as scripts fire and react to them
 * (scripts/API.md, "Events"). */
const char *const foh_event_names[FOH_EV_BUILTIN] = {
    "turn_start", "cleanup", "turn_end", "invest", "complete", "snipe",
    "harvest",    "gain",    "leave",    "covered", "revealed", "age",
    "snipe_cost", "invest_cost", "complete_cost",
};

/* ---- game.yaml ---- */

/* A list of named entries (icons, ages, card types, timings): 1 to MAX
 * items under KEY of ROOT. */
static const foh_yaml_node *entries(foh_loader *ld, const foh_yaml_node *root, const char *key, int max)
{
    const foh_yaml_node *v = foh_load_field(ld, root, key, 1);
    if (v && (v->kind != FOH_YAML_SEQ || v->n == 0 || v->n > (size_t)max)) {
        foh_load_bad_node(ld, v, "'%s' must list 1 to %d entries (the engine's limit)", key, max);
        return NULL;
    }
    return v;
}

static int read_players(foh_loader *ld, const foh_yaml_node *root)
{
    foh_cardset *cs = ld->cs;
    const foh_yaml_node *players = foh_load_field(ld, root, "players", 1);
    static const char *const keys[] = {"min", "max", "note", NULL};
    if (!players)
        return 0;
    if (players->kind != FOH_YAML_MAP)
        return foh_load_bad_node(ld, players, "'players' must be a map {min, max, note}");
    if (!foh_load_only_keys(ld, players, keys) ||
        !foh_load_int_field(ld, players, "min", 1, FOH_MAX_PLAYERS, &cs->min_players, 1) ||
        !foh_load_int_field(ld, players, "max", cs->min_players, FOH_MAX_PLAYERS, &cs->max_players, 1))
        return 0;
    const foh_yaml_node *note = foh_yaml_get(players, "note");
    const char *text = note ? foh_load_scalar(ld, note, "note") : "";
    if (!text)
        return 0;
    if (strlen(text) >= sizeof cs->players_note || !foh_load_printable(text, 0))
        return foh_load_bad_node(ld, note, "'note' must be one printable line of at most %zu bytes",
                                 sizeof cs->players_note - 1);
    snprintf(cs->players_note, sizeof cs->players_note, "%s", text);
    return 1;
}

static int read_names(foh_loader *ld, const foh_yaml_node *root)
{
    foh_cardset *cs = ld->cs;
    const foh_yaml_node *icons = entries(ld, root, "icons", FOH_MAX_ICONS);
    if (!icons)
        return 0;
    for (size_t i = 0; i < icons->n; i++) {
        const foh_yaml_node *v = icons->items[i];
        if (!foh_load_name_value(ld, v, "icons", cs->icon[i], FOH_NAME))
            return 0;
        if (foh_load_find_named(cs->icon[0], FOH_NAME, (int)i, cs->icon[i]) >= 0)
            return foh_load_bad_node(ld, v, "icon '%s' is listed twice", v->text);
        cs->nicons = (int)i + 1;
    }

    const foh_yaml_node *ages = entries(ld, root, "ages", FOH_MAX_AGES);
    if (!ages)
        return 0;
    for (size_t i = 0; i < ages->n; i++) {
        const foh_yaml_node *a = ages->items[i];
        static const char *const keys[] = {"name", "value", NULL};
        if (a->kind != FOH_YAML_MAP)
            return foh_load_bad_node(ld, a, "an age is a map {name, value}, not %s", foh_yaml_kind_name(a));
        const foh_yaml_node *name = foh_load_field(ld, a, "name", 1);
        if (!foh_load_only_keys(ld, a, keys) || !name ||
            !foh_load_name_value(ld, name, "name", cs->age[i].name, FOH_NAME) ||
            !foh_load_int_field(ld, a, "value", 0, 99, &cs->age[i].value, 1))
            return 0;
        if (foh_load_find_named(cs->age[0].name, sizeof cs->age[0], (int)i, cs->age[i].name) >= 0)
            return foh_load_bad_node(ld, name, "age '%s' is listed twice", name->text);
        cs->nages = (int)i + 1;
    }

    const foh_yaml_node *types = entries(ld, root, "card_types", FOH_MAX_TYPES);
    if (!types)
        return 0;
    for (size_t i = 0; i < types->n; i++) {
        const foh_yaml_node *t = types->items[i];
        if (t->kind != FOH_YAML_MAP)
            return foh_load_bad_node(ld, t, "a card type is a map {name, placement, investor_bonus}, not %s",
                                     foh_yaml_kind_name(t));
        const foh_yaml_node *name = foh_load_field(ld, t, "name", 1), *place = foh_load_field(ld, t, "placement", 1);
        if (!foh_load_only_keys(ld, t, TYPE_KEYS) || !name || !place ||
            !foh_load_name_value(ld, name, "name", cs->type[i].name, FOH_NAME))
            return 0;
        if (foh_load_find_named(cs->type[0].name, sizeof cs->type[0], (int)i, cs->type[i].name) >= 0)
            return foh_load_bad_node(ld, name, "card type '%s' is listed twice", name->text);
        int p = foh_load_named_value(ld, place, "placement", "placements", foh_placement_names, 4);
        if (p < 0)
            return 0;
        cs->type[i].place = (foh_placement)p;
        cs->type[i].bonus_icon = -1;
        if (foh_yaml_get(t, "investor_bonus") &&
            (cs->type[i].bonus_icon = foh_load_icon_value(ld, foh_yaml_get(t, "investor_bonus"), "investor_bonus")) < 0)
            return 0;
        cs->type[i].colour = -1;
        if (foh_yaml_get(t, "colour") &&
            (cs->type[i].colour = foh_load_named_value(ld, foh_yaml_get(t, "colour"), "colour", "colours", COLOURS,
                                                       (int)(sizeof COLOURS / sizeof COLOURS[0]))) < 0)
            return 0;
        cs->ntypes = (int)i + 1;
    }

    const foh_yaml_node *timings = entries(ld, root, "timings", FOH_MAX_TIMINGS);
    if (!timings)
        return 0;
    for (size_t i = 0; i < timings->n; i++) {
        const foh_yaml_node *t = timings->items[i];
        static const char *const keys[] = {"name", "fires", NULL};
        if (t->kind != FOH_YAML_MAP)
            return foh_load_bad_node(ld, t, "a timing is a map {name, fires}, not %s", foh_yaml_kind_name(t));
        const foh_yaml_node *name = foh_load_field(ld, t, "name", 1), *fires = foh_load_field(ld, t, "fires", 1);
        if (!foh_load_only_keys(ld, t, keys) || !name || !fires ||
            !foh_load_name_value(ld, name, "name", cs->timing[i].name, FOH_NAME))
            return 0;
        if (foh_load_find_named(cs->timing[0].name, sizeof cs->timing[0], (int)i, cs->timing[i].name) >= 0)
            return foh_load_bad_node(ld, name, "timing '%s' is listed twice", name->text);
        int f = foh_load_named_value(ld, fires, "fires", "kinds", foh_fire_names, 5);
        if (f < 0)
            return 0;
        cs->timing[i].fire = (foh_fire)f;
        cs->ntimings = (int)i + 1;
    }
    return 1;
}

static int read_setup(foh_loader *ld, const foh_yaml_node *root)
{
    foh_cardset *cs = ld->cs;
    const foh_yaml_node *setup = foh_load_field(ld, root, "setup", 1);
    if (!setup)
        return 0;
    if (setup->kind != FOH_YAML_MAP)
        return foh_load_bad_node(ld, setup, "'setup' must be a map");
    if (!foh_load_only_keys(ld, setup, SETUP_KEYS))
        return 0;
    const foh_yaml_node *ms = foh_load_field(ld, setup, "market_size", 1);
    if (!ms)
        return 0;
    if (ms->kind != FOH_YAML_MAP)
        return foh_load_bad_node(ld, ms, "setup.market_size must map player counts to Market sizes");
    for (size_t i = 0; i < ms->n; i++) {
        char *end;
        long p = strtol(ms->keys[i], &end, 10);
        if (*end || p < 1 || p > FOH_MAX_PLAYERS)
            return foh_load_bad_key(ld, ms, i, "setup.market_size: '%s' is not a player count (1 to %d)", ms->keys[i],
                                    FOH_MAX_PLAYERS);
        if (!foh_load_int_value(ld, ms->items[i], "market_size", 1, FOH_MAX_MARKET, &cs->market_size[p]))
            return 0;
    }
    if ((cs->market_age = foh_load_age_field(ld, setup, "market_age")) < 0 ||
        (cs->starting_age = foh_load_age_field(ld, setup, "starting_card_age")) < 0 ||
        !foh_load_int_field(ld, setup, "starting_tokens", 0, 1000, &cs->starting_tokens, 1) ||
        !foh_load_int_field(ld, setup, "tokens_in_box", 0, FOH_MAX_BOX_TOKENS, &cs->tokens_in_box, 1) ||
        !foh_load_int_field(ld, setup, "supply", 0, FOH_MAX_BOX_TOKENS, &cs->supply_start, 1))
        return 0;
    cs->starting_cards = 1;
    if (!foh_load_int_field(ld, setup, "starting_cards_per_player", 0, 8, &cs->starting_cards, 0) ||
        !foh_load_int_field(ld, setup, "neutral_investors", 0, FOH_MAX_NEUTRAL, &cs->neutral_investors, 0))
        return 0;
    const foh_yaml_node *da = foh_load_field(ld, setup, "deck_ages", 1);
    if (!da)
        return 0;
    if (da->kind != FOH_YAML_SEQ || da->n > FOH_MAX_AGES)
        return foh_load_bad_node(ld, da, "setup.deck_ages must list at most %d ages, bottom of the deck first",
                                 FOH_MAX_AGES);
    for (size_t i = 0; i < da->n; i++)
        if ((cs->deck_ages[cs->ndeck_ages++] = foh_load_age_value(ld, da->items[i], "deck_ages")) < 0)
            return 0;
    return 1;
}

int foh_share_of(foh_share sh, int n)
{
    long long x = (long long)n * sh.num;
    long long q = sh.round == FOH_ROUND_DOWN ? x / sh.den
                  : sh.round == FOH_ROUND_UP ? (x + sh.den - 1) / sh.den
                                             : (2 * x + sh.den) / (2 * sh.den);
    return (int)q;
}

void foh_share_text(foh_share sh, char *buf, size_t len)
{
    static const char *const rounds[] = {"", ", rounded up", ", rounded to the nearest"};
    if (sh.num * 2 == sh.den)
        snprintf(buf, len, "half the Supply%s", rounds[sh.round]);
    else if (sh.num == sh.den)
        snprintf(buf, len, "all the Supply");
    else
        snprintf(buf, len, "%d/%d of the Supply%s", sh.num, sh.den, rounds[sh.round]);
}

/* A share "N/D" (0 <= N <= D <= 1000), "0" or "1" in field KEY of M, with
 * its rounding in M's field "rounding" (down, up, nearest). */
static int share_field(foh_loader *ld, const foh_yaml_node *m, const char *key, foh_share *out)
{
    const foh_yaml_node *v = foh_load_field(ld, m, key, 0);
    if (v) {
        const char *text = foh_load_scalar(ld, v, key);
        if (!text)
            return 0;
        char *end;
        long num = strtol(text, &end, 10), den = 1;
        if (end != text && *end == '/')
            den = strtol(end + 1, &end, 10);
        if (end == text || *end || num < 0 || den < 1 || num > den || den > 1000)
            return foh_load_bad_node(ld, v, "'%s': '%s' is not a share of the tokens such as 1/2, 1/3, 0 or 1", key,
                                     text);
        out->num = (int)num;
        out->den = (int)den;
    }
    const foh_yaml_node *r = foh_yaml_get(m, "rounding");
    if (r) {
        static const char *const rounds[] = {"down", "up", "nearest"};
        int k = foh_load_named_value(ld, r, "rounding", "roundings", rounds, 3);
        if (k < 0)
            return 0;
        out->round = (foh_rounding)k;
    }
    return 1;
}

/* Field KEY of M: an icon, or "none" (-1); absent: *OUT unchanged. */
static int icon_or_none(foh_loader *ld, const foh_yaml_node *m, const char *key, int *out)
{
    const foh_yaml_node *v = foh_yaml_get(m, key);
    if (!v)
        return 1;
    if (v->kind == FOH_YAML_SCALAR && !strcmp(v->text, "none")) {
        *out = -1;
        return 1;
    }
    return (*out = foh_load_icon_value(ld, v, key)) >= 0;
}

/* The map in field KEY of RULES (absent: an empty section). */
static int section(foh_loader *ld, const foh_yaml_node *rules, const char *key, const char *const *keys,
                   const foh_yaml_node **out)
{
    *out = foh_yaml_get(rules, key);
    if (!*out)
        return 1;
    if ((*out)->kind != FOH_YAML_MAP)
        return foh_load_bad_node(ld, *out, "rules.%s must be a map", key);
    return foh_load_only_keys(ld, *out, keys);
}

/* rules.harvest: rulebook "Harvest". */
static int read_harvest(foh_loader *ld, const foh_yaml_node *rules)
{
    foh_cardset *cs = ld->cs;
    const foh_yaml_node *h;
    if (!section(ld, rules, "harvest", HARVEST_KEYS, &h))
        return 0;
    if (!icon_or_none(ld, h, "icon", &cs->harvest_icon) ||
        !foh_load_int_field(ld, h, "tokens_per_icon", 0, 1000, &cs->harvest_per_icon, 0) ||
        !share_field(ld, h, "share", &cs->harvest_share))
        return 0;
    const foh_yaml_node *t = foh_yaml_get(h, "top_up");
    if (t && t->kind == FOH_YAML_SCALAR && !strcmp(t->text, "current_age"))
        cs->harvest_top_up = FOH_TOP_UP_AGE;
    else if (t && t->kind == FOH_YAML_SCALAR && !strcmp(t->text, "none"))
        cs->harvest_top_up = 0;
    else if (t && !foh_load_int_value(ld, t, "top_up (current_age, none or a number of tokens)", 0, 1000,
                                      &cs->harvest_top_up))
        return 0;
    return 1;
}

/* rules.snipe: rulebook "Snipe" (the investor's Trade step, then a share). */
static int read_snipe(foh_loader *ld, const foh_yaml_node *rules)
{
    foh_cardset *cs = ld->cs;
    const foh_yaml_node *s;
    return section(ld, rules, "snipe", SNIPE_KEYS, &s) && icon_or_none(ld, s, "trade_icon", &cs->snipe_icon) &&
           foh_load_int_field(ld, s, "tokens_per_icon", 0, 1000, &cs->snipe_per_icon, 0) &&
           share_field(ld, s, "share", &cs->snipe_share);
}

/* rules.investor_bonus: rulebook "Complete" (the icon is the card type's). */
static int read_bonus(foh_loader *ld, const foh_yaml_node *rules)
{
    foh_cardset *cs = ld->cs;
    static const char *const froms[] = {"supply", "reserve"};
    const foh_yaml_node *b;
    if (!section(ld, rules, "investor_bonus", BONUS_KEYS, &b) ||
        !foh_load_int_field(ld, b, "tokens_per_icon", 0, 1000, &cs->bonus_per_icon, 0))
        return 0;
    const foh_yaml_node *f = foh_yaml_get(b, "from");
    return !f || (cs->bonus_from_reserve = foh_load_named_value(ld, f, "from", "piles", froms, 2)) >= 0;
}

/* rules.tie_break: the criteria after VP, in order (rulebook "End of Game"). */
static int read_tie_break(foh_loader *ld, const foh_yaml_node *rules)
{
    foh_cardset *cs = ld->cs;
    const foh_yaml_node *t = foh_yaml_get(rules, "tie_break");
    if (!t)
        return 1;
    static const char *const names[] = {"cards", "tokens"};
    if (t->kind != FOH_YAML_SEQ || t->n > 2)
        return foh_load_bad_node(ld, t,
                                 "rules.tie_break lists up to 2 criteria among "
                                 "cards, tokens (in order)");
    cs->ntie_break = 0;
    for (size_t i = 0; i < t->n; i++) {
        int k = foh_load_named_value(ld, t->items[i], "tie_break", "criteria", names, 2);
        if (k < 0)
            return 0;
        int criterion = k == 0 ? FOH_TIE_CARDS : FOH_TIE_TOKENS;
        if (i == 1 && criterion == cs->tie_break[0])
            return foh_load_bad_node(ld, t->items[i], "rules.tie_break: '%s' is listed twice", names[k]);
        cs->tie_break[cs->ntie_break++] = criterion;
    }
    return 1;
}

/* The rulebook's values, then game.yaml's `rules` (docs/card-format.md). */
static int read_rules(foh_loader *ld, const foh_yaml_node *root)
{
    foh_cardset *cs = ld->cs;
    const foh_yaml_node *rules = foh_load_field(ld, root, "rules", 1);
    if (!rules)
        return 0;
    if (rules->kind != FOH_YAML_MAP)
        return foh_load_bad_node(ld, rules, "'rules' must be a map");
    if (!foh_load_only_keys(ld, rules, RULES_KEYS))
        return 0;
    cs->harvest_icon = foh_cardset_icon_find(cs, "harvest");
    cs->harvest_per_icon = 1;
    cs->harvest_share = (foh_share){1, 2, FOH_ROUND_DOWN};
    cs->harvest_top_up = FOH_TOP_UP_AGE;
    cs->snipe_icon = foh_cardset_icon_find(cs, "trade");
    cs->snipe_per_icon = 1;
    cs->snipe_share = (foh_share){1, 2, FOH_ROUND_DOWN};
    cs->bonus_per_icon = 1;
    cs->bonus_from_reserve = 0;
    cs->ntie_break = 2;
    cs->tie_break[0] = FOH_TIE_CARDS;
    cs->tie_break[1] = FOH_TIE_TOKENS;
    cs->vp_per_full_icon = 1;
    cs->other_icons_per_vp = 2;
    cs->age_check_gap = 2;
    /* Engine ruling E1 (RULINGS.md): the rulebook has no turn limit, but a
     * game must end. */
    cs->turn_limit = FOH_DEFAULT_TURN_LIMIT;
    /* The names of earlier versions (rules.harvest_icon,
     * rules.snipe_compensation_icon) still work. */
    const foh_yaml_node *old = foh_yaml_get(rules, "harvest_icon"), *h = foh_yaml_get(rules, "harvest");
    if (old && foh_yaml_get(h, "icon"))
        return foh_load_bad_node(ld, old,
                                 "rules.harvest_icon and rules.harvest.icon both say the Harvest icon: "
                                 "keep rules.harvest.icon");
    old = foh_yaml_get(rules, "snipe_compensation_icon");
    if (old && foh_yaml_get(foh_yaml_get(rules, "snipe"), "trade_icon"))
        return foh_load_bad_node(ld, old,
                                 "rules.snipe_compensation_icon and rules.snipe.trade_icon both say the "
                                 "Trade step's icon: keep rules.snipe.trade_icon");
    if (!icon_or_none(ld, rules, "harvest_icon", &cs->harvest_icon) ||
        !icon_or_none(ld, rules, "snipe_compensation_icon", &cs->snipe_icon))
        return 0;
    int a = foh_cardset_icon_find(cs, "attack"), d = foh_cardset_icon_find(cs, "defense");
    int c = foh_cardset_icon_find(cs, "culture");
    cs->attacker_icons = a >= 0 ? 1u << a : 0;
    cs->defender_icons = cs->attacker_icons | (d >= 0 ? 1u << d : 0);
    cs->full_vp_icons = c >= 0 ? 1u << c : 0;
    int ok = read_harvest(ld, rules) && read_snipe(ld, rules) && read_bonus(ld, rules) && read_tie_break(ld, rules) &&
           (!foh_yaml_get(rules, "attacker_strength") ||
            foh_load_icon_mask(ld, rules, "attacker_strength", &cs->attacker_icons)) &&
           (!foh_yaml_get(rules, "defender_strength") ||
            foh_load_icon_mask(ld, rules, "defender_strength", &cs->defender_icons)) &&
           (!foh_yaml_get(rules, "full_vp_icons") ||
            foh_load_icon_mask(ld, rules, "full_vp_icons", &cs->full_vp_icons)) &&
           foh_load_int_field(ld, rules, "age_check_gap", 1, 99, &cs->age_check_gap, 0) &&
           foh_load_bool_field(ld, rules, "age_check_repeat", &cs->age_check_repeat) &&
           foh_load_int_field(ld, rules, "vp_per_full_icon", 0, 100, &cs->vp_per_full_icon, 0) &&
           foh_load_int_field(ld, rules, "other_icons_per_vp", 1, 100, &cs->other_icons_per_vp, 0) &&
           foh_load_int_field(ld, rules, "turn_limit", 1, FOH_MAX_TURN_LIMIT, &cs->turn_limit, 0);
    /* Written once for the log, not at every Harvest and Snipe. */
    foh_share_text(cs->harvest_share, cs->harvest_share_text, sizeof cs->harvest_share_text);
    foh_share_text(cs->snipe_share, cs->snipe_share_text, sizeof cs->snipe_share_text);
    return ok;
}

/* The engine's events, then `events`: the ones scripts fire (game.fire). */
static int read_events(foh_loader *ld, const foh_yaml_node *root)
{
    foh_cardset *cs = ld->cs;
    for (int i = 0; i < FOH_EV_BUILTIN; i++)
        snprintf(cs->event[i], sizeof cs->event[i], "%s", foh_event_names[i]);
    cs->nevents = FOH_EV_BUILTIN;
    const foh_yaml_node *ev = foh_yaml_get(root, "events");
    if (!ev)
        return 1;
    if (ev->kind != FOH_YAML_SEQ || ev->n > (size_t)(FOH_MAX_EVENTS - FOH_EV_BUILTIN))
        return foh_load_bad_node(ld, ev, "'events' lists at most %d event names (the engine's limit)",
                                 FOH_MAX_EVENTS - FOH_EV_BUILTIN);
    for (size_t i = 0; i < ev->n; i++) {
        char *name = cs->event[cs->nevents];
        if (!foh_load_name_value(ld, ev->items[i], "events", name, FOH_NAME))
            return 0;
        if (foh_load_find_named(cs->event[0], FOH_NAME, cs->nevents, name) >= 0)
            return foh_load_bad_node(ld, ev->items[i], "event '%s' is %s", name,
                                     foh_load_find_named(cs->event[0], FOH_NAME, FOH_EV_BUILTIN, name) >= 0
                                         ? "one of the engine's events: it need not be declared"
                                         : "listed twice");
        cs->nevents++;
    }
    return 1;
}

static char *copy_text(const char *t)
{
    char *d = malloc(strlen(t) + 1);
    if (d)
        strcpy(d, t);
    return d;
}

int foh_actions_read(const foh_yaml_node *list, int variant, foh_cardset *cs, foh_error *err)
{
    static const char *const keys[] = {"name", "label", "can", "run"};
    if (list->kind != FOH_YAML_SEQ)
        return foh_error_at(err, FOH_ERR_DATA, list->file, list->line, list->column,
                            "'actions' lists turn actions {name, label, can, run}") == FOH_OK;
    for (size_t i = 0; i < list->n; i++) {
        const foh_yaml_node *a = list->items[i];
        if (a->kind != FOH_YAML_MAP)
            return foh_error_at(err, FOH_ERR_DATA, a->file, a->line, a->column,
                                "an action is a map {name, label, can, run}, not %s", foh_yaml_kind_name(a)) == FOH_OK;
        for (size_t k = 0; k < a->n; k++) {
            int ok = 0;
            for (size_t j = 0; j < 4; j++)
                ok |= !strcmp(keys[j], a->keys[k]);
            if (!ok) {
                char hint[300];
                foh_error_hint(hint, sizeof hint, a->keys[k], "fields", keys, 4);
                return foh_error_at(err, FOH_ERR_DATA, a->file, a->key_lines[k], a->key_columns[k],
                                    "unknown field '%s' in an action%s", a->keys[k], hint) == FOH_OK;
            }
        }
        const foh_yaml_node *name = foh_yaml_get(a, "name"), *label = foh_yaml_get(a, "label");
        const foh_yaml_node *can = foh_yaml_get(a, "can"), *run = foh_yaml_get(a, "run");
        if (!name || !run || name->kind != FOH_YAML_SCALAR || run->kind != FOH_YAML_SCALAR ||
            (label && label->kind != FOH_YAML_SCALAR) || (can && can->kind != FOH_YAML_SCALAR))
            return foh_error_at(err, FOH_ERR_DATA, a->file, a->line, a->column,
                                "an action needs a name and 'run' (Lua returning function(player)); 'label' is "
                                "text, 'can' Lua returning function(player) -> boolean") == FOH_OK;
        size_t len = strspn(name->text, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (!name->text[0] || name->text[len] || len >= FOH_NAME)
            return foh_error_at(err, FOH_ERR_DATA, name->file, name->line, name->column,
                                "an action's name is lower-case letters, digits and _ (at most %d bytes): '%s'",
                                FOH_NAME - 1, name->text) == FOH_OK;
        if (foh_action_kind_find(name->text) >= 0 || foh_cardset_action_find(cs, name->text) >= 0)
            return foh_error_at(err, FOH_ERR_DATA, name->file, name->line, name->column,
                                "action '%s' exists already", name->text) == FOH_OK;
        const char *text = label ? label->text : name->text;
        if (strlen(text) >= FOH_OPTION_LABEL || !foh_load_printable(text, 0))
            return foh_error_at(err, FOH_ERR_DATA, a->file, a->line, a->column,
                                "an action's label is one printable line of at most %d bytes",
                                FOH_OPTION_LABEL - 1) == FOH_OK;
        if (cs->nactions >= FOH_MAX_ACTIONS)
            return foh_error_at(err, FOH_ERR_DATA, a->file, a->line, a->column,
                                "more than %d declared actions (the engine's limit)", FOH_MAX_ACTIONS) == FOH_OK;
        if (strlen(a->file) >= FOH_PATH)
            return foh_error_at(err, FOH_ERR_DATA, a->file, a->line, a->column, "the file's path is too long") ==
                   FOH_OK;
        int n = cs->nactions++;
        snprintf(cs->action[n].name, FOH_NAME, "%s", name->text);
        snprintf(cs->action[n].label, FOH_OPTION_LABEL, "%s", text);
        snprintf(cs->action[n].file, FOH_PATH, "%s", a->file);
        cs->action[n].variant = variant;
        cs->action[n].run_src = copy_text(run->text);
        cs->action[n].run_line = run->line + run->block_scalar;
        cs->action[n].can_src = can ? copy_text(can->text) : NULL;
        cs->action[n].can_line = can ? can->line + can->block_scalar : 0;
        if (!cs->action[n].run_src || (can && !cs->action[n].can_src))
            return foh_error_set(err, FOH_ERR_MEMORY, "out of memory") == FOH_OK;
    }
    return 1;
}

/* icon_symbols: {icon: "symbol"}, how a terminal that shows UTF-8 draws
 * each icon (foh play); icons without one are shown by name. */
static int read_icon_symbols(foh_loader *ld, const foh_yaml_node *root)
{
    foh_cardset *cs = ld->cs;
    const foh_yaml_node *m = foh_yaml_get(root, "icon_symbols");
    if (!m)
        return 1;
    if (m->kind != FOH_YAML_MAP)
        return foh_load_bad_node(ld, m, "icon_symbols is a map {icon: symbol}, not %s", foh_yaml_kind_name(m));
    for (size_t i = 0; i < m->n; i++) {
        int icon = foh_cardset_icon_find(cs, m->keys[i]);
        const foh_yaml_node *v = m->items[i];
        if (icon < 0)
            return foh_load_bad_node(ld, v, "icon_symbols: '%s' is not an icon of game.yaml's icons", m->keys[i]);
        if (v->kind != FOH_YAML_SCALAR || !v->text[0] || strlen(v->text) >= sizeof cs->icon_symbol[0] ||
            strchr(v->text, '\033') || strchr(v->text, '\n'))
            return foh_load_bad_node(ld, v, "icon_symbols: the symbol of '%s' must be 1 to %zu bytes of text",
                                     m->keys[i], sizeof cs->icon_symbol[0] - 1);
        snprintf(cs->icon_symbol[icon], sizeof cs->icon_symbol[0], "%s", v->text);
    }
    return 1;
}

int foh_game_yaml_read(foh_loader *ld, const foh_yaml_node *root)
{
    static const char *const top[] = {"name",    "players", "icons",   "ages",   "card_types",   "timings",
                                      "setup",   "rules",   "scripts", "events", "actions", "icon_symbols", "ruleset",
                                      NULL};
    if (root->kind != FOH_YAML_MAP)
        return foh_load_bad_node(ld, root, "game.yaml must be a map, not %s", foh_yaml_kind_name(root));
    /* The platform chose this ruleset by the first folder's `ruleset:`
     * (core/play/ruleset.c); a folder it extends or that extends it must
     * not name another. */
    const foh_yaml_node *rs = foh_yaml_get(root, "ruleset");
    if (rs && (rs->kind != FOH_YAML_SCALAR || strcmp(rs->text, FLOW_RULESET_NAME) != 0) &&
        !foh_load_bad_node(ld, rs, "ruleset: this card set is The Flow of History's ('%s'); a set it extends or "
                                   "that extends it cannot name another",
                           FLOW_RULESET_NAME) &&
        !foh_load_go_on(ld, ld->reported))
        return 0;
    /* Checking mode reads every section before it gives up (the vocabulary
     * first: the others name icons), so that all of game.yaml's problems
     * are told at once. The cards are read after problems that cannot
     * change what they mean (an unknown key, `players`, `icon_symbols`),
     * not after one in the vocabulary, events, set-up, rules or actions:
     * those would make good cards look wrong. */
    int serious = 0;
    if (!foh_load_only_keys(ld, root, top) && !foh_load_go_on(ld, ld->reported))
        return 0;
    if (!read_players(ld, root) && !foh_load_go_on(ld, ld->reported))
        return 0;
    if (!read_names(ld, root))
        return 0;
    int (*const sections[])(foh_loader *, const foh_yaml_node *) = {read_events, read_setup, read_rules,
                                                                     read_icon_symbols};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        int at = ld->reported;
        if (!sections[i](ld, root)) {
            if (!foh_load_go_on(ld, at))
                return 0;
            serious |= sections[i] != read_icon_symbols;
        }
    }
    const foh_yaml_node *actions = foh_yaml_get(root, "actions");
    int at = ld->reported;
    if (actions && !foh_actions_read(actions, -1, ld->cs, ld->err)) {
        if (!foh_load_go_on(ld, at))
            return 0;
        serious = 1;
    }
    const foh_yaml_node *scripts = foh_yaml_get(root, "scripts");
    if (scripts && scripts->kind != FOH_YAML_SEQ)
        return foh_load_bad_node(ld, scripts, "'scripts' must list Lua files, not be %s", foh_yaml_kind_name(scripts));
    return !serious;
}

const char *foh_cardset_type_colour(const foh_cardset *cs, int type)
{
    if (type < 0 || type >= cs->ntypes || cs->type[type].colour < 0)
        return NULL;
    return COLOURS[cs->type[type].colour];
}

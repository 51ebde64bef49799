/* native: the C fast paths of the shipped effect helpers (see native.h).
 *
 * A helper of scripts/effects.lua that builds a common effect (Permanent
 * icons per icon or per card, End Game icons, tokens per icon, the top
 * card of the deck, a Turn Action's cost check) also describes it in its
 * table's `native` field: { helper name, its arguments... }. The engine
 * reads that description once, when the card set is loaded, and then does
 * the same work in C instead of calling the Lua function: no Lua call, no
 * table per call. The Lua functions stay in the table, and they are the
 * reference: with foh_script_limits.lua_only the engine calls them
 * instead, and the tests check that every game comes out the same both
 * ways (tests/native.cmake). The C core still knows no card, icon or type:
 * their names come from the description. */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "lua_internal.h"
#include "market.h"
#include "memo.h"
#include "native.h"
#include "nation.h"
#include "tokens.h"

/* Per-call multipliers past this would overflow nothing in Lua (it
 * wraps) but are no card's: refused at load rather than computed wrong. */
#define NATIVE_PER_MAX 1000000

static const struct {
    const char *name;
    foh_native_op op;
    foh_fire fire; /* the timing's hook the description stands for */
} HELPERS[] = {
    {"provide_per_icon", FOH_NATIVE_PROVIDE_PER_ICON, FOH_FIRE_PERMANENT},
    {"provide_per_card", FOH_NATIVE_PROVIDE_PER_CARD, FOH_FIRE_PERMANENT},
    {"end_game_per_card", FOH_NATIVE_END_PER_CARD, FOH_FIRE_END_GAME},
    {"end_game_per_icon", FOH_NATIVE_END_PER_ICON, FOH_FIRE_END_GAME},
    {"end_game_per_set", FOH_NATIVE_END_PER_SET, FOH_FIRE_END_GAME},
    {"end_game_icons", FOH_NATIVE_END_ICONS, FOH_FIRE_END_GAME},
    {"tokens_per_icon", FOH_NATIVE_TOKENS_PER_ICON, FOH_FIRE_ON_GAIN},
    {"tokens_per_card", FOH_NATIVE_TOKENS_PER_CARD, FOH_FIRE_ON_GAIN},
    {"gain_top_of_deck", FOH_NATIVE_GAIN_TOP, FOH_FIRE_ON_GAIN},
    {"turn_action_gain", FOH_NATIVE_CAN_ACTIVATE, FOH_FIRE_TURN_ACTION},
};

static int find_name(const char *s, const char *names, size_t stride, int n)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(names + (size_t)k * stride, s))
            return k;
    return -1;
}

/* "argument I: 'S' is not a WHAT of the card set" with a hint of NAMES. */
static void not_a(lua_State *L, int i, const char *what, const char *names, size_t stride, int n, char *why,
                  size_t len)
{
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    const char *list[FOH_MAX_ICONS > FOH_MAX_TYPES ? FOH_MAX_ICONS : FOH_MAX_TYPES];
    char hint[300] = "";
    for (int k = 0; k < n; k++)
        list[k] = names + (size_t)k * stride;
    if (s)
        foh_error_hint(hint, sizeof hint, s, what, list, n);
    snprintf(why, len, "argument %d: %s%s%s is not %s of the card set%s", i - 1, s ? "'" : "a ",
             s ? s : luaL_typename(L, -1), s ? "'" : "", what[0] == 'i' ? "an icon" : "a card type", hint);
}

/* Entry I of the description at index T (a list): an icon name. */
static int icon_at(lua_State *L, int t, int i, const foh_cardset *cs, int *out, char *why, size_t len)
{
    lua_rawgeti(L, t, i);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    *out = s ? find_name(s, cs->icon[0], sizeof cs->icon[0], cs->nicons) : -1;
    if (*out < 0)
        not_a(L, i, "icons", cs->icon[0], sizeof cs->icon[0], cs->nicons, why, len);
    lua_pop(L, 1);
    return *out >= 0;
}

static int type_name(lua_State *L, int idx, const foh_cardset *cs, int *out)
{
    const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
    *out = s ? find_name(s, cs->type[0].name, sizeof cs->type[0], cs->ntypes) : -1;
    return *out >= 0;
}

/* Entry I: a card type name. */
static int type_at(lua_State *L, int t, int i, const foh_cardset *cs, int *out, char *why, size_t len)
{
    lua_rawgeti(L, t, i);
    int ok = type_name(L, -1, cs, out);
    if (!ok)
        not_a(L, i, "card types", cs->type[0].name, sizeof cs->type[0], cs->ntypes, why, len);
    lua_pop(L, 1);
    return ok;
}

/* Entry I: a whole number from LO to HI. Not one is no error here: the
 * card's Lua function runs instead and meets the number as it always did
 * (a tuned or edited param may be anything; a load must not refuse what a
 * game would only stumble on when the effect runs). */
static int int_at(lua_State *L, int t, int i, long lo, long hi, int *out)
{
    lua_rawgeti(L, t, i);
    int ok = lua_isinteger(L, -1) && lua_tointeger(L, -1) >= lo && lua_tointeger(L, -1) <= hi;
    if (ok)
        *out = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return ok;
}

/* The description's arguments for OP into N: 1, or 0 with WHY on a bad
 * name, or -1 when a number is one the C path does not take (int_at). */
static int read_args(lua_State *L, int t, const foh_cardset *cs, foh_native *n, char *why, size_t len)
{
    switch (n->op) {
    case FOH_NATIVE_PROVIDE_PER_ICON:
    case FOH_NATIVE_END_PER_ICON:
    case FOH_NATIVE_TOKENS_PER_ICON:
    case FOH_NATIVE_PROVIDE_PER_CARD:
    case FOH_NATIVE_END_PER_CARD:
    case FOH_NATIVE_TOKENS_PER_CARD: {
        int tokens = n->op == FOH_NATIVE_TOKENS_PER_ICON || n->op == FOH_NATIVE_TOKENS_PER_CARD;
        int per_icon = n->op == FOH_NATIVE_PROVIDE_PER_ICON || n->op == FOH_NATIVE_END_PER_ICON ||
                       n->op == FOH_NATIVE_TOKENS_PER_ICON;
        int give = 0, what = 0;
        if (tokens) {
            /* As the helper: 'supply', and anything else the Reserve. */
            lua_rawgeti(L, t, 2);
            n->from_reserve = !(lua_type(L, -1) == LUA_TSTRING && !strcmp(lua_tostring(L, -1), "supply"));
            lua_pop(L, 1);
        } else if (!icon_at(L, t, 2, cs, &give, why, len)) {
            return 0;
        }
        if (!int_at(L, t, 3, -NATIVE_PER_MAX, NATIVE_PER_MAX, &n->per))
            return -1;
        if (per_icon ? !icon_at(L, t, 4, cs, &what, why, len) : !type_at(L, t, 4, cs, &what, why, len))
            return 0;
        n->give = (int8_t)give;
        n->what = (int8_t)what;
        if (n->op == FOH_NATIVE_END_PER_ICON && !int_at(L, t, 5, 1, NATIVE_PER_MAX, &n->every))
            return -1;
        return 1;
    }
    case FOH_NATIVE_END_PER_SET: {
        int give = 0;
        if (!icon_at(L, t, 2, cs, &give, why, len))
            return 0;
        if (!int_at(L, t, 3, -NATIVE_PER_MAX, NATIVE_PER_MAX, &n->per))
            return -1;
        n->give = (int8_t)give;
        lua_rawgeti(L, t, 4);
        foh_lua_push_real(L, -1);
        if (!lua_istable(L, -1)) {
            lua_pop(L, 2);
            snprintf(why, len, "argument 3: a list of card types is needed");
            return 0;
        }
        lua_Integer k, m = (lua_Integer)lua_rawlen(L, -1);
        n->ntypes = 0;
        for (k = 1; k <= m && k <= FOH_MAX_TYPES; k++) {
            int ty;
            lua_rawgeti(L, -1, k);
            int ok = type_name(L, -1, cs, &ty);
            lua_pop(L, 1);
            if (!ok)
                break;
            n->types[n->ntypes++] = (int8_t)ty;
        }
        lua_pop(L, 2);
        if (k <= m) {
            snprintf(why, len, "argument 3: entry %d is not a card type of the card set (at most %d entries)", (int)k,
                     FOH_MAX_TYPES);
            return 0;
        }
        return 1;
    }
    case FOH_NATIVE_END_ICONS: {
        /* A bad table is the function's error when it runs (int_at). */
        lua_rawgeti(L, t, 2);
        int icons[FOH_MAX_ICONS] = {0};
        int ok = foh_lua_read_icons(L, -1, cs, icons, why, len);
        lua_pop(L, 1);
        for (int i = 0; i < FOH_MAX_ICONS; i++)
            n->icons[i] = (int16_t)icons[i];
        return ok ? 1 : -1;
    }
    case FOH_NATIVE_CAN_ACTIVATE: {
        lua_rawgeti(L, t, 2);
        foh_lua_push_real(L, -1);
        if (!lua_istable(L, -1)) {
            lua_pop(L, 2);
            snprintf(why, len, "argument 1: the options table is needed");
            return 0;
        }
        int o = lua_gettop(L), ok = 1;
        n->what = -1;
        /* As the helper reads them: nil and false are "none". */
        lua_getfield(L, o, "cost");
        n->has_cost = (int8_t)lua_toboolean(L, -1);
        if (n->has_cost && !(lua_isinteger(L, -1) && lua_tointeger(L, -1) >= -NATIVE_PER_MAX &&
                             lua_tointeger(L, -1) <= NATIVE_PER_MAX))
            ok = -1; /* as int_at */
        else if (n->has_cost)
            n->per = (int)lua_tointeger(L, -1);
        lua_getfield(L, o, "discard_top");
        if (ok == 1 && lua_toboolean(L, -1)) {
            int ty;
            ok = type_name(L, -1, cs, &ty);
            n->what = (int8_t)ty;
            if (!ok)
                snprintf(why, len, "discard_top: not a card type of the card set");
        }
        lua_pop(L, 4);
        return ok;
    }
    default: /* FOH_NATIVE_GAIN_TOP: no arguments */
        return 1;
    }
}

int foh_native_read(lua_State *L, const foh_cardset *cs, const foh_card_def *d, foh_native *n, char *why, size_t len)
{
    memset(n, 0, sizeof *n);
    lua_getfield(L, -1, "native");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return 1;
    }
    foh_lua_push_real(L, -1);
    int t = lua_gettop(L);
    const char *name = lua_istable(L, t) && lua_rawgeti(L, t, 1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    int h = -1;
    for (int i = 0; name && i < (int)(sizeof HELPERS / sizeof HELPERS[0]); i++)
        if (!strcmp(name, HELPERS[i].name))
            h = i;
    int ok = h >= 0;
    if (!ok)
        snprintf(why, len, "native: %s%s%s is not a helper the engine runs natively (the field is for the helpers "
                 "of scripts/effects.lua)",
                 name ? "'" : "", name ? name : "the first entry", name ? "'" : "");
    else if (cs->timing[d->timing].fire != HELPERS[h].fire)
        ok = 0, snprintf(why, len, "native: '%s' is not an effect of this card's timing '%s'", name,
                         cs->timing[d->timing].name);
    if (ok) {
        n->op = HELPERS[h].op;
        char sub[300];
        int r = read_args(L, t, cs, n, sub, sizeof sub);
        if (r <= 0)
            memset(n, 0, sizeof *n); /* -1: the Lua function runs */
        if (r == 0) {
            ok = 0;
            snprintf(why, len, "native '%s': %s", name, sub);
        }
    }
    lua_settop(L, t - 2);
    if (!ok)
        memset(n, 0, sizeof *n);
    return ok;
}

/* Whole-number ICONS of one kind a script's table would hold: the same
 * check and message as foh_lua_read_icons. */
static foh_status icon_count(foh_game *g, int card, int icon, long long v, int *out, foh_error *err)
{
    const foh_cardset *cs = g->eng->cs;
    const foh_card_def *d = &cs->card[card];
    if (v < 0 || v > FOH_MAX_ICON_COUNT)
        return foh_error_set(err, FOH_ERR_SCRIPT, "card '%s' (%s:%d): icon '%s': the count must be a whole number from "
                                                  "0 to %d",
                             d->id, d->effect_file, d->effect_line, cs->icon[icon], FOH_MAX_ICON_COUNT);
    *out = (int)v;
    return FOH_OK;
}

/* The icons of PLAYER's kind ICON an effect reads (game.icons): counting
 * effects see stripes and constant effects only (default ruling 6). */
static foh_status icons_of(foh_game *g, int player, int icon, int counting, int *out, foh_error *err)
{
    int icons[FOH_MAX_ICONS];
    foh_memo_note(g->eng, 1u << player);
    if (counting > 0) {
        foh_nation_base_icons(g, player, icons);
    } else {
        foh_status s = foh_nation_icons(g, player, icons, err);
        if (s != FOH_OK)
            return s;
    }
    *out = icons[icon];
    return FOH_OK;
}

static int count_of(foh_game *g, int player, int type)
{
    foh_memo_note(g->eng, 1u << player);
    return foh_nation_count(g, player, type);
}

foh_status foh_native_provides(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    const foh_native *n = &g->eng->native[card];
    int k = 0, v = 0;
    if (n->op == FOH_NATIVE_PROVIDE_PER_ICON) {
        foh_status s = icons_of(g, player, n->what, 1, &k, err);
        if (s != FOH_OK)
            return s;
    } else {
        k = count_of(g, player, n->what);
    }
    foh_status s = icon_count(g, card, n->give, (long long)n->per * k, &v, err);
    if (s == FOH_OK)
        icons[n->give] += v;
    return s;
}

foh_status foh_native_end_game(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    const foh_native *n = &g->eng->native[card];
    memset(icons, 0, sizeof(int) * FOH_MAX_ICONS);
    long long v = 0;
    int k;
    foh_status s;
    switch (n->op) {
    case FOH_NATIVE_END_PER_CARD:
        v = (long long)n->per * count_of(g, player, n->what);
        break;
    case FOH_NATIVE_END_PER_ICON:
        if ((s = icons_of(g, player, n->what, -1, &k, err)) != FOH_OK)
            return s;
        v = (long long)n->per * (k / n->every); /* k >= 0, every >= 1: Lua's // */
        break;
    case FOH_NATIVE_END_PER_SET: {
        int sets = -1;
        for (int i = 0; i < n->ntypes; i++) {
            int c = count_of(g, player, n->types[i]);
            if (sets < 0 || c < sets)
                sets = c;
        }
        v = (long long)n->per * (sets < 0 ? 0 : sets);
        break;
    }
    default: /* FOH_NATIVE_END_ICONS */
        for (int i = 0; i < FOH_MAX_ICONS; i++)
            icons[i] = n->icons[i];
        return FOH_OK;
    }
    return icon_count(g, card, n->give, v, &icons[n->give], err);
}

foh_status foh_native_on_gain(foh_game *g, int card, int player, foh_error *err)
{
    const foh_native *n = &g->eng->native[card];
    const foh_card_def *d = &g->eng->cs->card[card];
    foh_memo_note_other(g->eng);
    if (n->op == FOH_NATIVE_GAIN_TOP) {
        int c = foh_deck_draw(g);
        if (c < 0) {
            foh_log(g, "  the Civilization deck is empty: P%d gains nothing", player + 1);
            return FOH_OK;
        }
        foh_log(g, "  P%d reveals %s from the top of the Civilization deck", player + 1, foh_card_name(g, c));
        return foh_nation_gain(g, player, c, "effect", err);
    }
    int k;
    if (n->op == FOH_NATIVE_TOKENS_PER_ICON) {
        foh_status s = icons_of(g, player, n->what, 0, &k, err);
        if (s != FOH_OK)
            return s;
    } else {
        k = count_of(g, player, n->what);
    }
    long long t = (long long)n->per * k;
    if (t < 0 || t > 100000)
        return foh_error_set(err, FOH_ERR_SCRIPT,
                             "card '%s' (%s:%d): token count %lld is out of range (0 to 100000 tokens per call)", d->id,
                             d->effect_file, d->effect_line, t);
    if (!n->from_reserve) {
        int moved = foh_tokens_from_supply(&g->st, player, (int)t);
        foh_log(g, "  P%d takes %d token%s from the Supply", player + 1, moved, moved == 1 ? "" : "s");
        return FOH_OK;
    }
    foh_error why;
    if (foh_tokens_from_reserve(&g->st, player, (int)t, &why) != FOH_OK)
        return foh_error_set(err, FOH_ERR_SCRIPT, "card '%s' (%s:%d): game.take_from_reserve: %s", d->id,
                             d->effect_file, d->effect_line, why.msg);
    foh_log(g, "  P%d takes %d token%s from the Reserve", player + 1, (int)t, t == 1 ? "" : "s");
    return FOH_OK;
}

int foh_native_can_activate(foh_game *g, int card, int player)
{
    const foh_native *n = &g->eng->native[card];
    if (n->has_cost) {
        foh_memo_note_other(g->eng); /* game.tokens */
        if (g->st.tokens[player] < n->per)
            return 0;
    }
    if (n->what >= 0) {
        foh_memo_note(g->eng, 1u << player);
        return foh_nation_top(g, player, n->what) >= 0;
    }
    return 1;
}

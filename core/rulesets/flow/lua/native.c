/* native: the C fast paths of the shipped effect helpers (see native.h).
 *
 * The helpers of scripts/effects.lua that build the common effects
 * (Permanent icons per icon or per card, End Game icons, tokens per icon
 * or card, the top card of the deck, a Market card chosen, a Turn Action's
 * gain, Attack and Attack All with their hits) also describe them in the
 * table's `native` field: { helper name, its arguments... }. The engine
 * reads that description once, when the card set is loaded, and then does
 * the same work in C instead of calling the Lua function: no Lua call, no
 * table per call. The Lua functions stay in the table, and they are the
 * reference: with foh_script_limits.lua_only the engine calls them
 * instead; ctest native_same checks that games come out the same both
 * ways, and foh check plays each of its games both ways. The C core still
 * knows no card, icon, type, event or effect field: their names come from
 * the description. */
#include <lauxlib.h>
#include <lua.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "choice.h"
#include "log.h"
#include "lua_internal.h"
#include "market.h"
#include "memo.h"
#include "native.h"
#include "nation.h"
#include "tokens.h"
#include "foh/game.h"

/* Multipliers and divisors the C path takes (int_at): past them a product
 * could overflow C's int where Lua's wraps; no card needs them. */
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
    {"gain_from_market", FOH_NATIVE_GAIN_FROM_MARKET, FOH_FIRE_ON_GAIN},
    {"turn_action_gain", FOH_NATIVE_TURN_ACTION_GAIN, FOH_FIRE_TURN_ACTION},
    {"attack", FOH_NATIVE_ATTACK, FOH_FIRE_ON_GAIN},
    {"attack_all", FOH_NATIVE_ATTACK_ALL, FOH_FIRE_ON_GAIN},
};

static const char *const HITS[] = {"take_tokens", "discard_top_of", "discard_top_each", "discard_one_of"};

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

/* The list of card types at stack index IDX into N's types (1; 0 with WHY
 * for a name that is no type; -1 as int_at); ARG numbers it in messages. */
static int types_list(lua_State *L, int idx, int arg, const foh_cardset *cs, foh_native *n, char *why, size_t len)
{
    foh_lua_push_real(L, idx);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        snprintf(why, len, "argument %d: a list of card types is needed", arg);
        return 0;
    }
    lua_Integer m = (lua_Integer)lua_rawlen(L, -1);
    n->ntypes = 0;
    if (m > FOH_MAX_TYPES) { /* types repeated: the Lua function runs (int_at) */
        lua_pop(L, 1);
        return -1;
    }
    for (lua_Integer k = 1; k <= m; k++) {
        int ty;
        lua_rawgeti(L, -1, k);
        int ok = type_name(L, -1, cs, &ty);
        if (!ok) {
            char what[200];
            not_a(L, arg + 1, "card types", cs->type[0].name, sizeof cs->type[0], cs->ntypes, what, sizeof what);
            lua_pop(L, 2);
            /* "argument N: 'x' is not..." -> "argument N, entry K: 'x' is not..." */
            const char *rest = strchr(what, ':');
            snprintf(why, len, "argument %d, entry %d%s", arg, (int)k, rest ? rest : what);
            return 0;
        }
        lua_pop(L, 1);
        n->types[n->ntypes++] = (int8_t)ty;
    }
    lua_pop(L, 1);
    return 1;
}

/* Entry I of T: a list of card types, into N's types. */
static int types_at(lua_State *L, int t, int i, const foh_cardset *cs, foh_native *n, char *why, size_t len)
{
    lua_rawgeti(L, t, i);
    int ok = types_list(L, lua_gettop(L), i - 1, cs, n, why, len);
    lua_pop(L, 1);
    return ok;
}

/* The Market types of a gain, game.market(types), from the value at stack
 * index IDX (nil: every type) into N's market. */
static int market_types(lua_State *L, int idx, int arg, const foh_cardset *cs, foh_native *n, char *why, size_t len)
{
    n->market = ~0u;
    if (lua_isnil(L, idx))
        return 1;
    int ok = types_list(L, idx, arg, cs, n, why, len);
    n->market = 0;
    for (int k = 0; k < n->ntypes; k++)
        n->market |= 1u << n->types[k];
    n->ntypes = 0;
    return ok;
}

/* The engine's native field named by the string on top of L's stack (kept
 * there): its index, or -1 when there is no room left. */
static int field_slot(foh_engine *e, const char *name)
{
    for (int k = 0; k < e->nnative_fields; k++)
        if (!strcmp(e->native_field[k].name, name))
            return k;
    if (e->nnative_fields == FOH_NATIVE_FIELDS || strlen(name) >= FOH_LUA_FIELD_NAME)
        return -1;
    int k = e->nnative_fields++;
    snprintf(e->native_field[k].name, sizeof e->native_field[k].name, "%s", name);
    memset(e->native_field[k].cards, 0, sizeof e->native_field[k].cards); /* foh_native_finish */
    return k;
}

/* attack(hit, hit_native) / attack_all: { 'attack', {hit name, hit
 * argument}, {suppress =, on_attack =, immune =, before =, after =} }. */
static int attack_args(lua_State *L, int t, foh_engine *e, foh_native *n, char *why, size_t len)
{
    const foh_cardset *cs = e->cs;
    lua_rawgeti(L, t, 2);
    foh_lua_push_real(L, -1);
    int h = lua_gettop(L), ok = 1;
    const char *hit = lua_istable(L, h) && lua_rawgeti(L, h, 1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    n->hit = -1;
    for (int i = 0; hit && i < (int)(sizeof HITS / sizeof HITS[0]); i++)
        if (!strcmp(hit, HITS[i]))
            n->hit = (int8_t)i;
    if (n->hit < 0) {
        snprintf(why, len, "argument 1: %s%s%s is not a hit of scripts/effects.lua (%s, %s, %s, %s)", hit ? "'" : "",
                 hit ? hit : "not a hit's description", hit ? "'" : "", HITS[0], HITS[1], HITS[2], HITS[3]);
        ok = 0;
    } else if (n->hit == FOH_HIT_TAKE_TOKENS) {
        ok = int_at(L, h, 2, 0, 100000, &n->per) ? 1 : -1; /* game.give's range */
    } else if (n->hit == FOH_HIT_DISCARD_ONE_OF) {
        int ty = 0;
        ok = type_at(L, h, 2, cs, &ty, why, len);
        n->what = (int8_t)ty;
    } else {
        ok = types_at(L, h, 2, cs, n, why, len);
    }
    lua_settop(L, h - 2);
    if (ok != 1)
        return ok;
    lua_rawgeti(L, t, 3);
    foh_lua_push_real(L, -1);
    int m = lua_gettop(L);
    static const char *const KEYS[] = {"suppress", "on_attack", "immune", "before", "after"};
    int8_t *slot[] = {&n->suppress, &n->on_attack, &n->immune, &n->before, &n->after};
    for (int k = 0; k < 5 && ok == 1; k++) {
        const char *name = lua_istable(L, m) && lua_getfield(L, m, KEYS[k]) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (!name) {
            snprintf(why, len, "argument 2: the names table needs a string '%s'", KEYS[k]);
            ok = 0;
        } else if (k < 3) {
            int f = field_slot(e, name);
            ok = f < 0 ? -1 : 1; /* no room: the Lua function runs */
            *slot[k] = (int8_t)f;
        } else {
            /* An event the card set does not declare: the Lua function
             * runs, and game.reacts says so when the attack happens. */
            int ev = find_name(name, cs->event[0], sizeof cs->event[0], cs->nevents);
            ok = ev < 0 ? -1 : 1;
            *slot[k] = (int8_t)ev;
        }
        lua_settop(L, m);
    }
    lua_settop(L, m - 2);
    return ok;
}

/* The description's arguments for OP into N: 1, or 0 with WHY on a bad
 * name, or -1 when a number is one the C path does not take (int_at). */
static int read_args(lua_State *L, int t, foh_engine *e, foh_native *n, char *why, size_t len)
{
    const foh_cardset *cs = e->cs;
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
            lua_rawgeti(L, t, 2);
            const char *src = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
            int supply = !strcmp(src, "supply"), reserve = !strcmp(src, "reserve");
            lua_pop(L, 1);
            if (!supply && !reserve) {
                snprintf(why, len, "argument 1: the source of tokens must be 'supply' or 'reserve'%s%s%s",
                         src[0] ? ", not '" : "", src, src[0] ? "'" : "");
                return 0;
            }
            n->from_reserve = (int8_t)reserve;
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
        return types_at(L, t, 4, cs, n, why, len);
    }
    case FOH_NATIVE_ATTACK:
    case FOH_NATIVE_ATTACK_ALL:
        return attack_args(L, t, e, n, why, len);
    case FOH_NATIVE_END_ICONS: {
        /* An unknown icon is a load error; a bad count is the function's
         * error when it runs (int_at). */
        lua_rawgeti(L, t, 2);
        foh_lua_push_real(L, -1);
        if (lua_istable(L, -1)) {
            lua_pushnil(L);
            while (lua_next(L, -2)) {
                lua_pop(L, 1);
                const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
                if (!k || find_name(k, cs->icon[0], sizeof cs->icon[0], cs->nicons) < 0) {
                    lua_pushvalue(L, -1); /* not_a reads the top */
                    not_a(L, 2, "icons", cs->icon[0], sizeof cs->icon[0], cs->nicons, why, len);
                    lua_pop(L, 4);
                    return 0;
                }
            }
        }
        lua_pop(L, 1);
        int icons[FOH_MAX_ICONS] = {0};
        int ok = foh_lua_read_icons(L, -1, cs, icons, why, len);
        lua_pop(L, 1);
        for (int i = 0; i < FOH_MAX_ICONS; i++)
            n->icons[i] = (int16_t)icons[i];
        return ok ? 1 : -1;
    }
    case FOH_NATIVE_GAIN_FROM_MARKET: {
        lua_rawgeti(L, t, 2);
        int ok = market_types(L, lua_gettop(L), 1, cs, n, why, len);
        lua_pop(L, 1);
        return ok;
    }
    case FOH_NATIVE_TURN_ACTION_GAIN: {
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
        if (n->has_cost && !(lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0 && lua_tointeger(L, -1) <= 100000))
            ok = -1; /* as int_at: game.pay_to_supply's range */
        else if (n->has_cost)
            n->per = (int)lua_tointeger(L, -1);
        lua_getfield(L, o, "discard_top");
        if (ok == 1 && lua_toboolean(L, -1)) {
            int ty;
            ok = type_name(L, -1, cs, &ty);
            n->what = (int8_t)ty;
            if (!ok) {
                char what[200];
                not_a(L, 2, "card types", cs->type[0].name, sizeof cs->type[0], cs->ntypes, what, sizeof what);
                const char *rest = strchr(what, ':');
                snprintf(why, len, "argument 1, discard_top%s", rest ? rest : what);
            }
        }
        lua_getfield(L, o, "remove_self");
        n->remove_self = (int8_t)lua_toboolean(L, -1);
        lua_getfield(L, o, "from_deck");
        n->from_deck = (int8_t)lua_toboolean(L, -1);
        lua_settop(L, o);
        if (ok == 1) {
            lua_getfield(L, o, "types");
            ok = market_types(L, lua_gettop(L), 1, cs, n, why, len);
        }
        lua_settop(L, o - 2);
        return ok;
    }
    default: /* FOH_NATIVE_GAIN_TOP: no arguments */
        return 1;
    }
}

/* Whether the effect table at index EFF still has the hook functions its
 * description at index T was made with (with_native of scripts/effects.lua
 * puts them beside the description): a card that changed one after the
 * helper built the table has its own function run, not the helper's C. */
static int same_hooks(lua_State *L, int eff, int t, foh_fire fire)
{
    static const char *const hooks[][2] = {
        [FOH_FIRE_ON_GAIN] = {"on_gain", NULL},
        [FOH_FIRE_PERMANENT] = {"provides", NULL},
        [FOH_FIRE_TURN_ACTION] = {"activate", "can_activate"},
        [FOH_FIRE_END_GAME] = {"end_game", NULL},
    };
    int same = 1;
    for (int k = 0; k < 2 && same && hooks[fire][k]; k++) {
        lua_getfield(L, eff, hooks[fire][k]);
        lua_getfield(L, t, hooks[fire][k]);
        same = lua_type(L, -1) == LUA_TFUNCTION && lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
    }
    return same;
}

int foh_native_read(foh_engine *e, const foh_card_def *d, foh_native *n, char *why, size_t len)
{
    lua_State *L = e->sb.L;
    const foh_cardset *cs = e->cs;
    int eff = lua_gettop(L);
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
    if (!ok && !lua_istable(L, t))
        snprintf(why, len, "native: a table {helper name, arguments...} is needed, not a %s (the field is for the "
                 "helpers of scripts/effects.lua)",
                 luaL_typename(L, t));
    else if (!ok)
        snprintf(why, len, "native: %s%s%s is not a helper the engine runs natively (the field is for the helpers "
                 "of scripts/effects.lua)",
                 name ? "'" : "", name ? name : "its first entry", name ? "'" : "");
    else if (cs->timing[d->timing].fire != HELPERS[h].fire)
        ok = 0, snprintf(why, len, "native: '%s' is not an effect of this card's timing '%s'", name,
                         cs->timing[d->timing].name);
    if (ok) {
        n->op = HELPERS[h].op;
        char sub[300];
        int r = read_args(L, t, e, n, sub, sizeof sub);
        if (r == 1 && !same_hooks(L, eff, t, HELPERS[h].fire))
            r = -1;
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

/* A core's error (foh_tokens_take_from_reserve, foh_nation_discard,
 * foh_choice_ask: their message in ERR) as the C path words it: a
 * FOH_ERR_SCRIPT "card 'ID' (FILE:LINE): CALL: message", CALL the API
 * function the helper calls there. ERR may be NULL (no message wanted). */
static foh_status card_error(const foh_game *g, int card, const char *call, foh_error *err)
{
    if (!err)
        return FOH_ERR_SCRIPT;
    const foh_card_def *d = &g->eng->cs->card[card];
    char why[sizeof err->msg];
    memcpy(why, err->msg, sizeof why); /* ERR is rewritten from it */
    return foh_error_set(err, FOH_ERR_SCRIPT, "card '%s' (%s:%d): %s: %s", d->id, d->effect_file, d->effect_line, call,
                         why);
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

/* game.gain_top(p): the top card of the Civilization deck, revealed. */
static foh_status gain_top(foh_game *g, int player, foh_error *err)
{
    int card;
    return foh_nation_gain_top(g, player, &card, err);
}

static foh_status choose(foh_game *g, int card, int player, const int *opt, int n, int players, const char *prompt,
                         int *pick, foh_error *err);

/* The helpers' choose_and_gain: the player chooses one non-invested Market
 * card of the types (game.market) and gains it (FAQ Q1: none, nothing). */
static foh_status choose_and_gain(foh_game *g, int card, int player, uint32_t types, foh_error *err)
{
    const foh_cardset *cs = g->eng->cs;
    int list[FOH_MAX_MARKET], n = 0, pick;
    for (int i = 0; i < g->st.nmarket; i++) {
        int c = g->st.market[i];
        if (g->st.loc[c].investor < 0 && (types & (1u << cs->card[c].type)))
            list[n++] = c;
    }
    foh_status s = choose(g, card, player, list, n, 0, "card to gain", &pick, err);
    if (s != FOH_OK)
        return s;
    if (pick < 0) {
        foh_log(g, "  no card to gain");
        return FOH_OK;
    }
    foh_market_take(g, list[pick]);
    return foh_nation_gain(g, player, list[pick], "effect", err);
}

foh_status foh_native_on_gain(foh_game *g, int card, int player, foh_error *err)
{
    const foh_native *n = &g->eng->native[card];
    const foh_card_def *d = &g->eng->cs->card[card];
    foh_memo_note_other(g->eng);
    if (n->op == FOH_NATIVE_GAIN_TOP)
        return gain_top(g, player, err);
    if (n->op == FOH_NATIVE_GAIN_FROM_MARKET)
        return choose_and_gain(g, card, player, n->market, err);
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
        foh_tokens_take_from_supply(g, player, (int)t);
        return FOH_OK;
    }
    if (foh_tokens_take_from_reserve(g, player, (int)t, err) != FOH_OK)
        return card_error(g, card, "game.take_from_reserve", err);
    return FOH_OK;
}

/* game.discard(c) (scripts/API.md): a card in a Nation leaves the game. */
static foh_status discard(foh_game *g, int card, int c, foh_error *err)
{
    foh_status s = foh_nation_discard(g, c, err);
    return s == FOH_ERR_ILLEGAL ? card_error(g, card, "game.discard", err) : s; /* the card, not a reaction */
}

foh_status foh_native_activate(foh_game *g, int card, int player, foh_error *err)
{
    const foh_native *n = &g->eng->native[card];
    foh_status s = FOH_OK;
    foh_memo_note_other(g->eng);
    if (n->has_cost)
        foh_tokens_pay_to_supply(g, player, n->per);
    if (n->remove_self && (s = discard(g, card, card, err)) != FOH_OK)
        return s;
    /* can_activate checked that the pile has a top card. */
    if (n->what >= 0 && (s = discard(g, card, foh_nation_top(g, player, n->what), err)) != FOH_OK)
        return s;
    return n->from_deck ? gain_top(g, player, err) : choose_and_gain(g, card, player, n->market, err);
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

void foh_native_finish(foh_engine *e)
{
    lua_State *L = e->sb.L;
    memset(e->native_counting, 0, sizeof e->native_counting);
    for (int c = 0; c < e->cs->ncards && !e->lua_only; c++)
        if (e->native[c].op == FOH_NATIVE_PROVIDE_PER_ICON || e->native[c].op == FOH_NATIVE_PROVIDE_PER_CARD)
            e->native_counting[c / 64] |= 1ull << (c % 64);
    for (int k = 0; k < e->nnative_fields; k++)
        for (int c = 0; c < e->cs->ncards; c++) {
            if (e->effect_proxy_ref[c] == LUA_NOREF)
                continue;
            /* As game.has_active reads it: through the read-only proxy. */
            int top = lua_gettop(L);
            lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_proxy_ref[c]);
            int has = lua_istable(L, -1) && lua_getfield(L, -1, e->native_field[k].name) != LUA_TNIL &&
                      lua_toboolean(L, -1);
            lua_settop(L, top);
            if (has)
                e->native_field[k].cards[c / 64] |= 1ull << (c % 64);
        }
}

/* ---- Attacks (the attack helpers of scripts/effects.lua) ---- */

/* game.has_active(p, field): an active card of P with a true FIELD. */
static int has_active(const foh_game *g, int p, int field)
{
    const uint64_t *cards = g->eng->native_field[field].cards;
    for (int w = 0; w < g->st.words; w++)
        for (uint64_t bits = FOH_OWNED(&g->st, p)[w] & cards[w]; bits; bits &= bits - 1)
            if (foh_nation_visible(g, w * 64 + __builtin_ctzll(bits)))
                return 1;
    return 0;
}

int foh_native_attack_runs(const foh_game *g, int card)
{
    const foh_native *n = &g->eng->native[card];
    const foh_cardset *cs = g->eng->cs;
    /* The events' tables are the Lua helper's to make. */
    return !FOH_EVENT_WANTED(cs, n->before) && !FOH_EVENT_WANTED(cs, n->after);
}

/* The label of option O (a player, 0-based, when PLAYERS, else a card) into
 * OUT (FOH_OPTION_LABEL bytes), as game.choose labels it: "P2", or the
 * card's name (held to that length at load). Made for every choice asked,
 * so copied rather than formatted. */
static void option_label(const foh_game *g, int o, int players, char *out)
{
    if (players) {
        _Static_assert(FOH_MAX_PLAYERS <= 9, "a player's label is P and one digit");
        out[0] = 'P';
        out[1] = (char)('1' + o);
        out[2] = '\0';
        return;
    }
    const char *name = g->eng->cs->card[o].name;
    size_t n = strnlen(name, FOH_OPTION_LABEL - 1);
    memcpy(out, name, n);
    out[n] = '\0';
}

/* The options of a choice asked in C: OPT, players (0-based) when
 * PLAYERS, else cards. */
typedef struct {
    const foh_game *g;
    const int *opt;
    int players;
} native_options;

/* foh_choice_ask's label of option I of a native_options CTX: nothing to
 * check, so nothing done without OUT. */
static void native_label(void *ctx, int i, char *out)
{
    const native_options *o = ctx;
    if (out)
        option_label(o->g, o->opt[i], o->players, out);
}

/* game.choose(player, options, prompt) of N options OPT (players, 0-based,
 * when PLAYERS, else cards): *PICK the index chosen, -1 for none; or
 * FOH_NEED_CHOICE with the game's choice set (the run stops to ask). */
static foh_status choose(foh_game *g, int card, int player, const int *opt, int n, int players, const char *prompt,
                         int *pick, foh_error *err)
{
    _Static_assert(sizeof "opponent to attack" <= FOH_PROMPT, "the helpers' prompts fit");
    native_options o = {g, opt, players};
    foh_status s = foh_choice_ask(g, player, n, prompt, native_label, &o, pick, err);
    return s == FOH_OK || s == FOH_NEED_CHOICE ? s : card_error(g, card, "game.choose", err);
}

/* game.strength(p, role), its Nation's read noted as the API notes it. */
static foh_status strength(foh_game *g, int p, int attacker, int *out, foh_error *err)
{
    foh_memo_note(g->eng, 1u << p);
    return foh_nation_strength(g, p, attacker, out, err);
}

/* Append printf-style text to the log line LINE (LEN bytes, at *AT). */
static void line_add(char *line, size_t len, size_t *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void line_add(char *line, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = *at < len ? vsnprintf(line + *at, len - *at, fmt, ap) : 0;
    va_end(ap);
    *at += k > 0 ? (size_t)k : 0;
}

/* The opponents P's attack affects, in seat order, into TARGETS: strictly
 * weaker (attacker: attack strength; defender: its strength), not immune
 * (default ruling 5); logged as the helper's weaker_opponents logs them. */
static foh_status weaker(foh_game *g, int card, int p, const foh_native *n, int *targets, int *nt, foh_error *err)
{
    const foh_cardset *cs = g->eng->cs;
    int mine, defence;
    char line[1024];
    size_t at = 0;
    foh_status s = strength(g, p, 1, &mine, err);
    *nt = 0;
    for (int q = 0; q < g->st.players && s == FOH_OK; q++) {
        if (q == p || (s = strength(g, q, 0, &defence, err)) != FOH_OK)
            continue;
        const char *note = "";
        if (has_active(g, q, n->immune)) {
            note = " (immune)";
        } else if (defence < mine) {
            targets[(*nt)++] = q;
            note = " (weaker)";
        }
        if (g->log)
            line_add(line, sizeof line, &at, "%sP%d %d%s", at ? ", " : "", q + 1, defence, note);
    }
    if (s == FOH_OK && g->log)
        foh_log(g, "  %s: P%d attacks with strength %d; defenders: %s", cs->card[card].name, p + 1, mine, line);
    return s;
}

/* HIT(p, q) of the description N. */
static foh_status hit(foh_game *g, int card, int p, int q, const foh_native *n, foh_error *err)
{
    int list[FOH_MAX_CARDS], k = 0, pick;
    foh_status s = FOH_OK;
    switch ((foh_native_hit)n->hit) {
    case FOH_HIT_TAKE_TOKENS:
        foh_tokens_give(g, q, p, n->per);
        return FOH_OK;
    case FOH_HIT_DISCARD_TOP_EACH:
        for (int i = 0; i < n->ntypes && s == FOH_OK; i++) {
            int top = foh_nation_top(g, q, n->types[i]);
            if (top >= 0)
                s = discard(g, card, top, err);
        }
        return s;
    case FOH_HIT_DISCARD_TOP_OF:
        for (int i = 0; i < n->ntypes; i++)
            if (foh_nation_top(g, q, n->types[i]) >= 0)
                list[k++] = foh_nation_top(g, q, n->types[i]);
        break;
    case FOH_HIT_DISCARD_ONE_OF:
        k = foh_game_nation_cards(g, q, n->what, list, FOH_MAX_CARDS);
        break;
    }
    if ((s = choose(g, card, p, list, k, 0, "card to discard", &pick, err)) != FOH_OK || pick < 0)
        return s;
    return discard(g, card, list[pick], err);
}

foh_status foh_native_attack(foh_game *g, int card, int player, foh_error *err)
{
    const foh_native *n = &g->eng->native[card];
    const foh_cardset *cs = g->eng->cs;
    foh_memo_note_other(g->eng);
    if (has_active(g, player, n->suppress)) {
        foh_log(g, "  %s: P%d does not activate attacks", cs->card[card].name, player + 1);
        return FOH_OK;
    }
    /* Each time the owner activates an attack: the on_attack functions of
     * the owner's active cards, in card order (the helpers' begin_attack),
     * listed before any runs, as game.active_with lists them). */
    const uint64_t *on = g->eng->native_field[n->on_attack].cards;
    int hooks[FOH_MAX_CARDS], nh = 0;
    for (int w = 0; w < g->st.words; w++)
        for (uint64_t bits = FOH_OWNED(&g->st, player)[w] & on[w]; bits; bits &= bits - 1)
            if (foh_nation_visible(g, w * 64 + __builtin_ctzll(bits)))
                hooks[nh++] = w * 64 + __builtin_ctzll(bits);
    foh_status s = FOH_OK;
    for (int i = 0; i < nh && s == FOH_OK; i++)
        s = foh_lua_effect_call(g, hooks[i], player, g->eng->native_field[n->on_attack].name, err);
    if (s != FOH_OK)
        return s;
    int targets[FOH_MAX_PLAYERS], nt, pick;
    s = weaker(g, card, player, n, targets, &nt, err);
    if (s != FOH_OK)
        return s;
    if (n->op == FOH_NATIVE_ATTACK) {
        if ((s = choose(g, card, player, targets, nt, 1, "opponent to attack", &pick, err)) != FOH_OK)
            return s;
        if (pick < 0) {
            foh_log(g, "  no opponent is weaker");
            return FOH_OK;
        }
        return hit(g, card, player, targets[pick], n, err);
    }
    if (nt == 0)
        foh_log(g, "  no opponent is weaker");
    for (int i = 0; i < nt && s == FOH_OK; i++)
        s = hit(g, card, player, targets[i], n, err);
    return s;
}

/* civ_lua: the civilization draft's binding to Lua, the one file of the
 * ruleset that includes <lua.h>. It implements the rules' port to card
 * effects (../rules/effects.h): each Event's `effect` is a Lua chunk run
 * in the platform's sandbox (core/script: bounded library, instruction,
 * memory and time limits, read-only helpers) as
 *     local me, target, params = ...   -- then the card's text
 * with the `game` API below, and the card set's helper script
 * (cards/civ-draft/effects.lua) loaded first. The game is changed only
 * through the rules' own functions (civ_gain, civ_destroy, ...), while the
 * effect runs; Lua never holds game state. */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "civ.h"
#include "civ_lua.h"
#include "sandbox.h"

typedef struct {
    civ_engine base; /* first: the rules see a civ_engine */
    foh_sandbox sb;
    civ_game *cur;   /* the game an effect is changing, or NULL */
    int *effect_ref; /* per card: the compiled chunk, or LUA_NOREF */
    int *params_ref; /* per card: its read-only params table */
} civ_lua_engine;

static civ_lua_engine *engine_of(lua_State *L) { return foh_lua_sandbox_of(L)->owner; }

/* The game an effect is running on; an error outside one. */
static civ_game *game_of(lua_State *L)
{
    civ_game *g = engine_of(L)->cur;
    if (!g)
        luaL_error(L, "the game API can only be used while an effect runs");
    return g;
}

/* Argument I as a player of G (1-based in Lua), 0-based. */
static int player_arg(lua_State *L, civ_game *g, int i)
{
    lua_Integer p = luaL_checkinteger(L, i);
    if (p < 1 || p > g->players)
        luaL_error(L, "bad player %d (players are 1 to %d)", (int)p, g->players);
    return (int)p - 1;
}

static int amount_arg(lua_State *L, int i)
{
    lua_Integer n = luaL_checkinteger(L, i);
    if (n < 0 || n > 1000000)
        luaL_error(L, "bad amount %I of VT (0 to 1000000)", (LUAI_UACINT)n);
    return (int)n;
}

/** game.players() -> the number of players. */
static int api_players(lua_State *L)
{
    lua_pushinteger(L, game_of(L)->players);
    return 1;
}

/** game.vt(p) -> player p's Victory Tokens. */
static int api_vt(lua_State *L)
{
    civ_game *g = game_of(L);
    lua_pushinteger(L, g->vt[player_arg(L, g, 1)]);
    return 1;
}

/** game.gain(p, n): player p gains n VT from the supply (draft: "Gain 5 VT"). */
static int api_gain(lua_State *L)
{
    civ_game *g = game_of(L);
    int p = player_arg(L, g, 1), n = amount_arg(L, 2);
    civ_gain(g, p, n);
    civ_say(g, "  P%d gains %d VT (%d VT)", p + 1, n, g->vt[p]);
    return 0;
}

/** game.lose(p, n) -> VT lost: player p loses n VT to the supply (no lower
 * than 0 under the vt_floor ruling). */
static int api_lose(lua_State *L)
{
    civ_game *g = game_of(L);
    int p = player_arg(L, g, 1), n = civ_lose(g, p, amount_arg(L, 2));
    civ_say(g, "  P%d loses %d VT (%d VT)", p + 1, n, g->vt[p]);
    lua_pushinteger(L, n);
    return 1;
}

/** game.steal(from, to, n) -> VT taken: up to n VT move from one player to another. */
static int api_steal(lua_State *L)
{
    civ_game *g = game_of(L);
    int from = player_arg(L, g, 1), to = player_arg(L, g, 2), n = amount_arg(L, 3);
    int taken = from == to ? 0 : civ_steal(g, from, to, n);
    civ_say(g, "  P%d takes %d VT from P%d", to + 1, taken, from + 1);
    lua_pushinteger(L, taken);
    return 1;
}

static int card_arg(lua_State *L, civ_game *g, int i)
{
    const char *id = luaL_checkstring(L, i);
    int c = civ_card_index(g->set, id);
    if (c < 0)
        luaL_error(L, "unknown card id '%s'", id);
    return c;
}

/** game.destroy(card_id) -> true if the card was in play and is now
 * discarded ("Destroy = Discard Target Card in Play"). */
static int api_destroy(lua_State *L)
{
    civ_game *g = game_of(L);
    lua_pushboolean(L, civ_destroy(g, card_arg(L, g, 1)));
    return 1;
}

static int type_arg(lua_State *L, int i)
{
    const char *t = luaL_checkstring(L, i);
    for (int k = 0; k < CIV_NTYPES; k++)
        if (!strcmp(t, civ_type_names[k]))
            return k;
    if (!strcmp(t, "leader"))
        return -1;
    return luaL_error(L, "unknown card type '%s' (political, religious, science, art, explorer, leader, troop, "
                         "conflict, advance, wonder, event, government)", t);
}

static int of_type(const civ_card *d, int t) { return t < 0 ? CIV_IS_LEADER(d->type) : (int)d->type == t; }

/** game.destroy_all(type) -> count: every card of that type in play, of
 * every player, is discarded ("Destroy All Troops in Play"); type "leader"
 * means every kind of Leader. */
static int api_destroy_all(lua_State *L)
{
    civ_game *g = game_of(L);
    int t = type_arg(L, 1), n = 0;
    for (int c = 0; c < g->set->ncards; c++)
        if (g->where[c] == CIV_Z_PLAY && of_type(&g->set->card[c], t))
            n += civ_destroy(g, c);
    lua_pushinteger(L, n);
    return 1;
}

/** game.count(p, type) -> how many cards of that type player p has in play. */
static int api_count(lua_State *L)
{
    civ_game *g = game_of(L);
    int p = player_arg(L, g, 1), t = type_arg(L, 2), n = 0;
    for (int c = 0; c < g->set->ncards; c++)
        n += g->where[c] == CIV_Z_PLAY && g->owner[c] == p && of_type(&g->set->card[c], t);
    lua_pushinteger(L, n);
    return 1;
}

/** game.attribute(p, name) -> player p's level of vitality, resources,
 * stability, military or culture. */
static int api_attribute(lua_State *L)
{
    civ_game *g = game_of(L);
    int p = player_arg(L, g, 1);
    const char *a = luaL_checkstring(L, 2);
    for (int k = 0; k < CIV_NATTRS; k++)
        if (!strcmp(a, civ_attr_names[k])) {
            lua_pushinteger(L, civ_attribute(g, p, (civ_attr)k));
            return 1;
        }
    return luaL_error(L, "unknown attribute '%s' (vitality, resources, stability, military, culture)", a);
}

/** game.discard_hand(p): player p discards their whole hand ("Dark Ages"). */
static int api_discard_hand(lua_State *L)
{
    civ_game *g = game_of(L);
    civ_discard_hand(g, player_arg(L, g, 1));
    return 0;
}

static const luaL_Reg game_api[] = {
    {"players", api_players}, {"vt", api_vt}, {"gain", api_gain}, {"lose", api_lose}, {"steal", api_steal},
    {"destroy", api_destroy}, {"destroy_all", api_destroy_all}, {"count", api_count},
    {"attribute", api_attribute}, {"discard_hand", api_discard_hand}, {NULL, NULL}};

static void push_api(lua_State *L) { luaL_newlib(L, game_api); }

static void describe_call(const void *owner, int card, char *buf, size_t len)
{
    const civ_lua_engine *e = owner;
    snprintf(buf, len, "card '%s'", e->base.set->card[card].id);
}

static const foh_sandbox_port port = {"game", push_api, describe_call};

/* ERR := MSG (a Lua message, "FILE:LINE: reason" when a script line is
 * known) about card D, worded "FILE:LINE: card 'id': reason" so that
 * editors jump to the line. */
static foh_status card_error(foh_error *err, foh_status code, const civ_card *d, const char *msg)
{
    /* Lua names the chunk by its file, shortened at the front when long:
     * the line follows the file's base name. */
    const char *base = strrchr(d->file, '/') ? strrchr(d->file, '/') + 1 : d->file;
    const char *at = strstr(msg, base), *rest = msg;
    int line = d->effect_line;
    if (at && at[strlen(base)] == ':') {
        char *end;
        long l = strtol(at + strlen(base) + 1, &end, 10);
        if (end > at + strlen(base) + 1 && *end == ':') {
            line = (int)l;
            rest = end + 1 + (end[1] == ' ');
        }
    }
    return foh_error_at(err, code, d->file, line, 0, "card '%s': %s", d->id, rest);
}

/* ---- loading ---- */

typedef struct {
    civ_lua_engine *e;
    foh_error *err;
    foh_status status;
} load_job;

static foh_status compile_effect(civ_lua_engine *e, int c, foh_error *err)
{
    lua_State *L = e->sb.L;
    const civ_card *d = &e->base.set->card[c];
    size_t len = strlen(d->effect) + 64;
    char *src = malloc(len);
    if (!src)
        return foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
    snprintf(src, len, "local me, target, params = ... %s", d->effect); /* one line: the lines stay the file's */
    int ok = foh_lua_load_chunk(L, src, d->file, d->effect_line);
    free(src);
    if (!ok) {
        card_error(err, FOH_ERR_DATA, d, lua_tostring(L, -1));
        lua_pop(L, 1);
        return FOH_ERR_DATA;
    }
    e->effect_ref[c] = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, d->nparams);
    for (int i = 0; i < d->nparams; i++) {
        lua_pushinteger(L, d->param[i]);
        lua_setfield(L, -2, d->param_name[i]);
    }
    foh_lua_readonly(L, -1, "params");
    e->params_ref[c] = luaL_ref(L, LUA_REGISTRYINDEX);
    return FOH_OK;
}

static foh_status load_scripts(civ_lua_engine *e, foh_error *err)
{
    lua_State *L = e->sb.L;
    const civ_set *cs = e->base.set;
    if (cs->helpers) {
        if (!foh_lua_load_chunk(L, cs->helpers, cs->helpers_path, 1)) {
            foh_error_set(err, FOH_ERR_DATA, "%s", lua_tostring(L, -1));
            lua_pop(L, 1);
            return FOH_ERR_DATA;
        }
        int st = foh_lua_protected_call(&e->sb, 0, 0, 1);
        if (st != LUA_OK) {
            foh_error_set(err, FOH_ERR_DATA, "script %s: %s", cs->helpers_path, foh_lua_error_text(&e->sb, st));
            lua_pop(L, 1);
            return FOH_ERR_DATA;
        }
    }
    foh_lua_seal_globals(&e->sb);
    if (foh_lua_freeze_helpers(&e->sb, err) != FOH_OK)
        return FOH_ERR_DATA;
    for (int c = 0; c < cs->ncards; c++)
        if (cs->card[c].effect && compile_effect(e, c, err) != FOH_OK)
            return FOH_ERR_DATA;
    return FOH_OK;
}

static int load_protected(lua_State *L)
{
    load_job *j = lua_touserdata(L, 1);
    lua_pop(L, 1);
    j->status = load_scripts(j->e, j->err);
    return 0;
}

/* ---- the port: an Event's effect ---- */

static foh_status run_event(const civ_engine *base, civ_game *g, int card, int me, int target_card, int target_player,
                            foh_error *err)
{
    civ_lua_engine *e = (civ_lua_engine *)base;
    lua_State *L = e->sb.L;
    const civ_card *d = &base->set->card[card];
    if (e->effect_ref[card] == LUA_NOREF)
        return FOH_OK;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_ref[card]);
    lua_pushinteger(L, me + 1);
    if (target_card >= 0)
        lua_pushstring(L, base->set->card[target_card].id);
    else if (target_player >= 0)
        lua_pushinteger(L, target_player + 1);
    else
        lua_pushnil(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->params_ref[card]);
    e->cur = g;
    e->sb.call_id = card;
    int st = foh_lua_protected_call(&e->sb, 3, 0, 1);
    e->cur = NULL;
    e->sb.call_id = -1;
    if (st == LUA_OK)
        return FOH_OK;
    card_error(err, FOH_ERR_SCRIPT, d, foh_lua_error_text(&e->sb, st));
    lua_pop(L, 1);
    return FOH_ERR_SCRIPT;
}

static const civ_effects lua_effects = {run_event};

void civ_lua_engine_free(civ_engine *base)
{
    civ_lua_engine *e = (civ_lua_engine *)base;
    if (!e)
        return;
    foh_lua_sandbox_close(&e->sb);
    free(e->effect_ref);
    free(e->params_ref);
    free(e);
}

civ_engine *civ_lua_engine_new(const civ_set *cs, const foh_script_limits *limits, foh_error *err)
{
    civ_lua_engine *e = calloc(1, sizeof *e);
    int n = cs->ncards > 0 ? cs->ncards : 1;
    if (!e || !(e->effect_ref = malloc(sizeof(int) * (size_t)n)) || !(e->params_ref = malloc(sizeof(int) * (size_t)n))) {
        if (e)
            free(e->effect_ref);
        free(e);
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return NULL;
    }
    for (int c = 0; c < n; c++)
        e->effect_ref[c] = e->params_ref[c] = LUA_NOREF;
    e->base.head.ruleset = cs->head.ruleset;
    e->base.set = cs;
    e->base.fx = &lua_effects;
    e->sb.port = &port;
    e->sb.owner = e;
    e->sb.mem_limit = limits && limits->memory_bytes > 0 ? limits->memory_bytes : FOH_DEFAULT_SCRIPT_MEMORY;
    e->sb.instr_limit = limits && limits->instructions > 0 ? limits->instructions : FOH_DEFAULT_SCRIPT_INSTRUCTIONS;
    e->sb.time_limit_ns = (int64_t)(limits && limits->time_ms > 0 ? limits->time_ms : FOH_DEFAULT_SCRIPT_TIME_MS) * 1000000;
    e->sb.call_id = -1;
    foh_status s = FOH_OK;
    if (!foh_lua_watchdog_start(&e->sb))
        s = foh_error_set(err, FOH_ERR_MEMORY, "cannot start the thread that watches the scripts' time limit");
    else if (!foh_lua_sandbox_open(&e->sb))
        s = foh_error_set(err, FOH_ERR_MEMORY, "cannot build the Lua sandbox (out of memory)");
    else
        s = foh_lua_freeze_selftest(&e->sb, err);
    if (s == FOH_OK) {
        load_job j = {e, err, FOH_OK};
        lua_pushcfunction(e->sb.L, load_protected);
        lua_pushlightuserdata(e->sb.L, &j);
        e->sb.protected_depth++;
        int st = lua_pcall(e->sb.L, 1, 0, 0);
        e->sb.protected_depth--;
        s = j.status;
        if (st != LUA_OK) {
            s = foh_error_set(err, FOH_ERR_DATA, "loading the scripts: %s", foh_lua_error_text(&e->sb, st));
            lua_pop(e->sb.L, 1);
        }
    }
    if (s != FOH_OK) {
        civ_lua_engine_free(&e->base);
        return NULL;
    }
    return &e->base;
}

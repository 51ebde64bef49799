/* lua_bridge: the only module that talks to Lua. See lua_bridge.h; the
 * `game` API offered to scripts is documented in scripts/API.md.
 *
 * Scripts are untrusted: they run in a sandbox environment (no io, os,
 * debug, package, load, dofile; math.random replaced by the game's RNG;
 * pairs in sorted key order so results never depend on string hashing),
 * with a VM instruction budget per call and a memory cap per Lua state.
 * Scripts never hold game state: every read and write goes through `game`. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "lua_bridge.h"
#include "market.h"
#include "nation.h"
#include "rng.h"
#include "tokens.h"

#define HOOK_EVERY 1000

/* Registry slots of the engine's Lua state. */
static const char ENV_KEY[] = "foh.env";
static const char IDS_KEY[] = "foh.ids";
static const char FREEZE_KEY[] = "foh.freeze";
/* Raised (as a light userdata) when a choice has no answer yet. */
static const char NEED_CHOICE_TAG = 0;

/* ---- Allocation and limits ---- */

/* "file:line" of the innermost running Lua function (reads the call stack
 * only: safe inside the allocator). */
static void script_where(lua_State *L, char *buf, size_t len)
{
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++)
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            snprintf(buf, len, "%s:%d", ar.short_src, ar.currentline);
            return;
        }
}

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    foh_engine *e = ud;
    if (!ptr)
        osize = 0;
    if (nsize == 0) {
        free(ptr);
        e->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize && e->mem_used + (nsize - osize) > e->mem_limit) {
        /* Remember which script line asked, for the error message: the
         * error Lua raises for it carries no position. */
        if (e->L && !e->mem_where[0])
            script_where(e->L, e->mem_where, sizeof e->mem_where);
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p)
        e->mem_used += nsize - osize;
    return p;
}

static foh_engine *engine_of(lua_State *L)
{
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    foh_engine *e = engine_of(L);
    e->instr_left -= HOOK_EVERY;
    if (e->instr_left < 0) {
        /* Level 0 is the interrupted function: luaL_error would not name it. */
        char where[256] = "";
        script_where(L, where, sizeof where);
        luaL_error(L, "%s%sinstruction limit exceeded (%I Lua VM instructions per effect call)", where,
                   where[0] ? ": " : "", (lua_Integer)e->instr_limit);
    }
}

/* ---- Argument helpers ---- */

static foh_game *game_of(lua_State *L)
{
    foh_engine *e = engine_of(L);
    if (!e->g)
        luaL_error(L, "the game API can only be used inside an effect");
    return e->g;
}

static void writable(lua_State *L)
{
    if (engine_of(L)->counting != 0)
        luaL_error(L, "this hook may only read the game, not change it");
}

static int player_arg(lua_State *L, int i)
{
    foh_game *g = game_of(L);
    lua_Integer p = luaL_checkinteger(L, i);
    if (p < 1 || p > g->st.players)
        luaL_error(L, "bad player %d (players are 1 to %d)", (int)p, g->st.players);
    return (int)p - 1;
}

static int card_arg(lua_State *L, int i)
{
    const char *id = luaL_checkstring(L, i);
    lua_getfield(L, LUA_REGISTRYINDEX, IDS_KEY);
    lua_getfield(L, -1, id);
    int ok = lua_isinteger(L, -1);
    int c = ok ? (int)lua_tointeger(L, -1) : -1;
    lua_pop(L, 2);
    if (!ok)
        luaL_error(L, "unknown card id '%s'", id);
    return c;
}

static int named_arg(lua_State *L, int i, const char *names, size_t stride, int n, const char *what)
{
    const char *s = luaL_checkstring(L, i);
    for (int k = 0; k < n; k++)
        if (strcmp(names + (size_t)k * stride, s) == 0)
            return k;
    return luaL_error(L, "unknown %s '%s'", what, s);
}

static int type_arg(lua_State *L, int i)
{
    const foh_cardset *cs = engine_of(L)->cs;
    return named_arg(L, i, cs->type[0].name, sizeof cs->type[0], cs->ntypes, "card type");
}

static int icon_arg(lua_State *L, int i)
{
    const foh_cardset *cs = engine_of(L)->cs;
    return named_arg(L, i, cs->icon[0], FOH_NAME, cs->nicons, "icon");
}

static int count_arg(lua_State *L, int i)
{
    lua_Integer n = luaL_checkinteger(L, i);
    if (n < 0 || n > 100000)
        luaL_error(L, "bad token count %d", (int)n);
    return (int)n;
}

static void push_card(lua_State *L, int card) { lua_pushstring(L, engine_of(L)->cs->card[card].id); }

/* A set of card types from an optional list argument (all if absent). */
static uint32_t types_arg(lua_State *L, int i)
{
    if (lua_isnoneornil(L, i))
        return ~0u;
    luaL_checktype(L, i, LUA_TTABLE);
    uint32_t mask = 0;
    lua_Integer n = luaL_len(L, i);
    for (lua_Integer k = 1; k <= n; k++) {
        lua_geti(L, i, k);
        mask |= 1u << type_arg(L, lua_gettop(L));
        lua_pop(L, 1);
    }
    return mask;
}

/* ---- The `game` API (see scripts/API.md) ---- */

static int api_players(lua_State *L)
{
    lua_pushinteger(L, game_of(L)->st.players);
    return 1;
}

static int api_current(lua_State *L)
{
    lua_pushinteger(L, game_of(L)->st.current + 1);
    return 1;
}

static int api_age(lua_State *L)
{
    lua_pushinteger(L, foh_market_current_age(game_of(L)));
    return 1;
}

static int api_card(lua_State *L)
{
    const foh_cardset *cs = engine_of(L)->cs;
    const foh_card_def *d = &cs->card[card_arg(L, 1)];
    lua_createtable(L, 0, 7);
    lua_pushstring(L, d->id);
    lua_setfield(L, -2, "id");
    lua_pushstring(L, d->name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, cs->age[d->age].name);
    lua_setfield(L, -2, "age");
    lua_pushinteger(L, cs->age[d->age].value);
    lua_setfield(L, -2, "age_value");
    lua_pushstring(L, cs->type[d->type].name);
    lua_setfield(L, -2, "type");
    lua_pushstring(L, cs->timing[d->timing].name);
    lua_setfield(L, -2, "timing");
    lua_pushboolean(L, d->obsolete);
    lua_setfield(L, -2, "obsolete");
    return 1;
}

static int api_icons(lua_State *L)
{
    foh_game *g = game_of(L);
    foh_engine *e = engine_of(L);
    int p = player_arg(L, 1), icon = icon_arg(L, 2);
    int icons[FOH_MAX_ICONS];
    if (e->counting > 0) {
        /* Counting effects see stripes and constant effects only (ruling 6). */
        foh_nation_base_icons(g, p, icons);
    } else {
        foh_error err;
        if (foh_nation_icons(g, p, icons, &err) != FOH_OK)
            return luaL_error(L, "%s", err.msg);
    }
    lua_pushinteger(L, icons[icon]);
    return 1;
}

static int api_strength(lua_State *L)
{
    foh_game *g = game_of(L);
    const foh_cardset *cs = engine_of(L)->cs;
    int p = player_arg(L, 1);
    static const char *const roles[] = {"attacker", "defender", NULL};
    int role = luaL_checkoption(L, 2, NULL, roles);
    int icons[FOH_MAX_ICONS];
    foh_error err;
    if (foh_nation_icons(g, p, icons, &err) != FOH_OK)
        return luaL_error(L, "%s", err.msg);
    lua_pushinteger(L, foh_nation_sum(cs, icons, role == 0 ? cs->attacker_icons : cs->defender_icons));
    return 1;
}

static int api_count(lua_State *L)
{
    foh_game *g = game_of(L);
    int p = player_arg(L, 1);
    lua_pushinteger(L, foh_nation_count(g, p, type_arg(L, 2)));
    return 1;
}

static int api_top(lua_State *L)
{
    foh_game *g = game_of(L);
    int p = player_arg(L, 1);
    int c = foh_nation_top(g, p, type_arg(L, 2));
    if (c < 0)
        lua_pushnil(L);
    else
        push_card(L, c);
    return 1;
}

static int api_nation(lua_State *L)
{
    foh_game *g = game_of(L);
    const foh_cardset *cs = engine_of(L)->cs;
    int p = player_arg(L, 1);
    uint32_t types = lua_isnoneornil(L, 2) ? ~0u : 1u << type_arg(L, 2);
    int n = 0;
    lua_newtable(L);
    for (int t = 0; t < cs->ntypes; t++) {
        if (!(types & (1u << t)))
            continue;
        int cards[FOH_MAX_CARDS];
        int k = foh_game_nation_cards(g, p, t, cards, FOH_MAX_CARDS);
        for (int i = 0; i < k; i++) {
            push_card(L, cards[i]);
            lua_rawseti(L, -2, ++n);
        }
    }
    return 1;
}

static int api_active(lua_State *L)
{
    foh_game *g = game_of(L);
    const foh_cardset *cs = engine_of(L)->cs;
    int p = player_arg(L, 1), n = 0;
    lua_newtable(L);
    for (int c = 0; c < cs->ncards; c++)
        if (g->st.loc[c].zone == FOH_ZONE_NATION && g->st.loc[c].owner == p && foh_nation_visible(g, c)) {
            push_card(L, c);
            lua_rawseti(L, -2, ++n);
        }
    return 1;
}

static int api_owner(lua_State *L)
{
    foh_game *g = game_of(L);
    int c = card_arg(L, 1);
    if (g->st.loc[c].zone == FOH_ZONE_NATION)
        lua_pushinteger(L, g->st.loc[c].owner + 1);
    else
        lua_pushnil(L);
    return 1;
}

static int api_tokens(lua_State *L)
{
    foh_game *g = game_of(L);
    lua_pushinteger(L, g->st.tokens[player_arg(L, 1)]);
    return 1;
}

static int api_supply(lua_State *L)
{
    lua_pushinteger(L, game_of(L)->st.supply);
    return 1;
}

static int api_reserve(lua_State *L)
{
    lua_pushinteger(L, game_of(L)->st.reserve);
    return 1;
}

static int api_take_from_supply(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1), n = count_arg(L, 2);
    int moved = foh_tokens_from_supply(&g->st, p, n);
    foh_log(g, "  P%d takes %d token%s from the Supply", p + 1, moved, moved == 1 ? "" : "s");
    lua_pushinteger(L, moved);
    return 1;
}

static int api_take_from_reserve(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1), n = count_arg(L, 2);
    foh_tokens_from_reserve(&g->st, p, n);
    foh_log(g, "  P%d takes %d token%s from the Reserve", p + 1, n, n == 1 ? "" : "s");
    lua_pushinteger(L, n);
    return 1;
}

static int api_pay_to_supply(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1), n = count_arg(L, 2);
    int moved = foh_tokens_to_supply(&g->st, p, n);
    foh_log(g, "  P%d pays %d token%s to the Supply", p + 1, moved, moved == 1 ? "" : "s");
    lua_pushinteger(L, moved);
    return 1;
}

static int api_give(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int from = player_arg(L, 1), to = player_arg(L, 2), n = count_arg(L, 3);
    int moved = foh_tokens_transfer(&g->st, from, to, n);
    foh_log(g, "  P%d gives %d token%s to P%d", from + 1, moved, moved == 1 ? "" : "s", to + 1);
    lua_pushinteger(L, moved);
    return 1;
}

static int api_market(lua_State *L)
{
    foh_game *g = game_of(L);
    const foh_cardset *cs = engine_of(L)->cs;
    uint32_t types = types_arg(L, 1);
    int n = 0;
    lua_newtable(L);
    for (int i = 0; i < g->st.nmarket; i++) {
        int c = g->st.market[i];
        if (g->st.loc[c].investor < 0 && (types & (1u << cs->card[c].type))) {
            push_card(L, c);
            lua_rawseti(L, -2, ++n);
        }
    }
    return 1;
}

static int api_gain(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1), c = card_arg(L, 2);
    if (g->st.loc[c].zone != FOH_ZONE_MARKET || g->st.loc[c].investor >= 0)
        return luaL_error(L, "game.gain: %s is not a non-invested Market card", engine_of(L)->cs->card[c].id);
    foh_market_take(g, c);
    foh_nation_gain(g, p, c);
    return 0;
}

static int api_gain_top(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1);
    int c = foh_deck_draw(g);
    if (c < 0) {
        foh_log(g, "  the Civilization deck is empty: P%d gains nothing", p + 1);
        lua_pushnil(L);
        return 1;
    }
    foh_log(g, "  P%d reveals %s from the top of the Civilization deck", p + 1, foh_card_name(g, c));
    foh_nation_gain(g, p, c);
    push_card(L, c);
    return 1;
}

static int api_discard(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int c = card_arg(L, 1);
    if (g->st.loc[c].zone != FOH_ZONE_NATION)
        return luaL_error(L, "game.discard: %s is not in a Nation", engine_of(L)->cs->card[c].id);
    int owner = g->st.loc[c].owner;
    foh_nation_remove(g, c);
    foh_log(g, "  P%d's %s is removed from the game", owner + 1, foh_card_name(g, c));
    return 0;
}

/* Readable label of the option at the top of the stack: a card's name, a
 * player "P2", or the string itself. */
static void option_label(lua_State *L, char label[FOH_OPTION_LABEL])
{
    foh_engine *e = engine_of(L);
    if (lua_type(L, -1) == LUA_TSTRING) {
        lua_getfield(L, LUA_REGISTRYINDEX, IDS_KEY);
        lua_pushvalue(L, -2);
        lua_rawget(L, -2);
        int is_card = lua_isinteger(L, -1);
        snprintf(label, FOH_OPTION_LABEL, "%.*s", FOH_OPTION_LABEL - 1,
                 is_card ? e->cs->card[lua_tointeger(L, -1)].name : lua_tostring(L, -3));
        lua_pop(L, 2);
    } else if (lua_isinteger(L, -1)) {
        snprintf(label, FOH_OPTION_LABEL, "P%d", (int)lua_tointeger(L, -1));
    } else {
        luaL_error(L, "game.choose: options must be card ids, strings or player numbers");
    }
}

/* game.choose(player, options, prompt): a decision point. Answers come
 * from the game's recorded answers; with none left the run stops here and
 * the game waits for this player's FOH_ACT_CHOOSE. */
static int api_choose(lua_State *L)
{
    foh_game *g = game_of(L);
    foh_engine *e = engine_of(L);
    writable(L);
    int p = player_arg(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    const char *prompt = luaL_optstring(L, 3, "choose");
    lua_Integer n = luaL_len(L, 2);
    if (n == 0) {
        lua_pushnil(L);
        return 1;
    }
    if (n == 1) {
        lua_geti(L, 2, 1);
        return 1;
    }
    if (n > FOH_MAX_OPTIONS)
        return luaL_error(L, "game.choose: %d options, at most %d", (int)n, FOH_MAX_OPTIONS);
    if (g->used_answers < g->nanswers) {
        int a = g->answers[g->used_answers++];
        if (a >= n)
            return luaL_error(L, "game.choose: recorded answer %d is out of range", a);
        lua_geti(L, 2, a + 1);
        char label[FOH_OPTION_LABEL];
        option_label(L, label);
        foh_log(g, "  P%d chooses %s (%s)", p + 1, label, prompt);
        return 1;
    }
    foh_choice *ch = &g->choice;
    ch->player = p;
    snprintf(ch->prompt, sizeof ch->prompt, "%s", prompt);
    ch->n = (int)n;
    for (int i = 0; i < n; i++) {
        lua_geti(L, 2, i + 1);
        option_label(L, ch->label[i]);
        lua_pop(L, 1);
    }
    e->need_choice = 1;
    lua_pushlightuserdata(L, (void *)&NEED_CHOICE_TAG);
    return lua_error(L);
}

static int api_log(lua_State *L)
{
    foh_log(game_of(L), "  %s", luaL_checkstring(L, 1));
    return 0;
}

static int api_effect(lua_State *L)
{
    int c = card_arg(L, 1);
    foh_engine *e = engine_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_ref[c]);
    return 1;
}

static int api_random(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    lua_Integer n = luaL_checkinteger(L, 1);
    if (n < 1 || n > 1000000)
        return luaL_error(L, "game.random: bad range 1..%d", (int)n);
    lua_pushinteger(L, (lua_Integer)foh_rng_below(g->st.rng, (uint32_t)n) + 1);
    return 1;
}

static int neutral_arg(lua_State *L, int i)
{
    lua_Integer k = luaL_checkinteger(L, i);
    if (k < 1 || k > engine_of(L)->cs->neutral_investors)
        luaL_error(L, "bad neutral investor %d (the game has %d)", (int)k, engine_of(L)->cs->neutral_investors);
    return (int)k - 1;
}

static int api_neutral_card(lua_State *L)
{
    foh_game *g = game_of(L);
    int c = g->st.neutral[neutral_arg(L, 1)];
    if (c < 0)
        lua_pushnil(L);
    else
        push_card(L, c);
    return 1;
}

static int api_neutral_invest(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int k = neutral_arg(L, 1), c = card_arg(L, 2);
    int from_supply = count_arg(L, 3), from_reserve = count_arg(L, 4);
    if (g->st.neutral[k] >= 0)
        return luaL_error(L, "game.neutral_invest: neutral investor %d is already invested", k + 1);
    if (g->st.loc[c].zone != FOH_ZONE_MARKET || g->st.loc[c].investor >= 0)
        return luaL_error(L, "game.neutral_invest: %s is not a non-invested Market card", engine_of(L)->cs->card[c].id);
    if (from_supply > g->st.supply)
        return luaL_error(L, "game.neutral_invest: the Supply holds %d tokens, not %d", g->st.supply, from_supply);
    g->st.supply -= from_supply;
    foh_tokens_from_reserve(&g->st, -1, from_reserve); /* through the Supply, so substitution is counted */
    g->st.supply -= from_reserve;
    g->st.loc[c].investor = (int8_t)(FOH_NEUTRAL_INVESTOR + k);
    g->st.loc[c].invested = (int16_t)(from_supply + from_reserve);
    g->st.neutral[k] = (int8_t)c;
    foh_log(g, "  neutral investor %d invests %d tokens in %s (%d from the Supply, %d from the Reserve)", k + 1,
            from_supply + from_reserve, foh_card_name(g, c), from_supply, from_reserve);
    return 0;
}

static int api_market_discard(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int c = card_arg(L, 1);
    foh_card_loc *l = &g->st.loc[c];
    if (l->zone != FOH_ZONE_MARKET)
        return luaL_error(L, "game.market_discard: %s is not in the Market", engine_of(L)->cs->card[c].id);
    int under = l->invested;
    if (l->investor >= FOH_NEUTRAL_INVESTOR)
        g->st.neutral[l->investor - FOH_NEUTRAL_INVESTOR] = -1;
    else if (l->investor >= 0)
        g->st.investment[l->investor] = -1;
    g->st.supply += under;
    foh_market_take(g, c);
    foh_nation_remove(g, c);
    foh_log(g, "  %s is discarded from the Market; %d tokens under it go to the Supply", foh_card_name(g, c), under);
    return 0;
}

static int api_grant_action(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    if (p != g->st.current)
        return luaL_error(L, "game.grant_action: only the player whose turn it is may get a bonus action");
    if (g->st.in_bonus)
        return luaL_error(L, "game.grant_action: a bonus action cannot grant another");
    static const char *const kinds[] = {"invest", "complete", "snipe", "activate", "harvest", NULL};
    unsigned mask = 0;
    lua_Integer n = luaL_len(L, 2);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 2, i);
        mask |= 1u << luaL_checkoption(L, -1, NULL, kinds);
        lua_pop(L, 1);
    }
    if (!mask)
        return luaL_error(L, "game.grant_action: no action kind given");
    g->st.bonus_mask = (uint8_t)mask;
    foh_log(g, "  P%d may take a bonus action", p + 1);
    return 0;
}

static int api_to_box(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int c = card_arg(L, 1);
    if (g->st.loc[c].zone != FOH_ZONE_NATION)
        return luaL_error(L, "game.to_box: %s is not in a Nation", engine_of(L)->cs->card[c].id);
    foh_nation_remove(g, c);
    g->st.loc[c].zone = FOH_ZONE_BOX;
    foh_log(g, "  %s returns to the box", foh_card_name(g, c));
    return 0;
}

static const luaL_Reg game_api[] = {
    {"players", api_players},
    {"current", api_current},
    {"age", api_age},
    {"card", api_card},
    {"icons", api_icons},
    {"strength", api_strength},
    {"count", api_count},
    {"top", api_top},
    {"nation", api_nation},
    {"active", api_active},
    {"owner", api_owner},
    {"tokens", api_tokens},
    {"supply", api_supply},
    {"reserve", api_reserve},
    {"take_from_supply", api_take_from_supply},
    {"take_from_reserve", api_take_from_reserve},
    {"pay_to_supply", api_pay_to_supply},
    {"give", api_give},
    {"market", api_market},
    {"gain", api_gain},
    {"gain_top", api_gain_top},
    {"discard", api_discard},
    {"choose", api_choose},
    {"log", api_log},
    {"effect", api_effect},
    {"random", api_random},
    {"neutral_card", api_neutral_card},
    {"neutral_invest", api_neutral_invest},
    {"market_discard", api_market_discard},
    {"grant_action", api_grant_action},
    {"to_box", api_to_box},
    {NULL, NULL},
};

/* ---- The sandbox ---- */

/* The Lua half of the sandbox, run once with the real globals:
 * - pairs in a fixed key order: Lua seeds string hashing per state, so
 *   plain pairs would make results differ from run to run;
 * - readonly(t): a proxy through which scripts read but cannot change a
 *   shared table (the `game` API, string, table, math, the helpers' tables);
 * - freeze(env): from now on a script can neither replace a global nor
 *   create one (card scripts share one state: a global set by one card
 *   could change another card's effect). */
static const char SANDBOX_LUA[] =
    "local next, sort, type, error, setmetatable, rawset, tostring ="
    "  next, table.sort, type, error, setmetatable, rawset, tostring\n"
    "local real_of = setmetatable({}, { __mode = 'k' })\n"
    "local function before(a, b)\n"
    "  local ta, tb = type(a), type(b)\n"
    "  if ta ~= tb then return ta < tb end\n"
    "  if ta == 'number' or ta == 'string' then return a < b end\n"
    "  error('pairs: keys must be numbers or strings', 3)\n"
    "end\n"
    "local function pairs(t)\n"
    "  t = real_of[t] or t\n"
    "  local keys = {}\n"
    "  for k in next, t do keys[#keys + 1] = k end\n"
    "  sort(keys, before)\n"
    "  local i = 0\n"
    "  return function()\n"
    "    i = i + 1\n"
    "    local k = keys[i]\n"
    "    if k ~= nil then return k, t[k] end\n"
    "  end, t, nil\n"
    "end\n"
    "local function readonly(t, name)\n"
    "  local p = setmetatable({}, {\n"
    "    __index = t, __len = function() return #t end, __metatable = false,\n"
    "    __newindex = function(_, k)\n"
    "      error('cannot change ' .. name .. '.' .. tostring(k) .. ': engine tables are read-only', 2)\n"
    "    end })\n"
    "  real_of[p] = t\n"
    "  return p\n"
    "end\n"
    "local function freeze(env)\n"
    "  local base = {}\n"
    "  for k, v in next, env do\n"
    "    base[k] = type(v) == 'table' and not real_of[v] and readonly(v, k) or v\n"
    "  end\n"
    "  for k in next, base do rawset(env, k, nil) end\n"
    "  setmetatable(env, { __index = base, __metatable = false,\n"
    "    __newindex = function(_, k)\n"
    "      if base[k] ~= nil then\n"
    "        error('cannot replace the global ' .. tostring(k) .. ' of the engine or its helpers', 2)\n"
    "      end\n"
    "      error('cannot create the global ' .. tostring(k) .. ' (card and variant scripts use locals)', 2)\n"
    "    end })\n"
    "end\n"
    "return pairs, readonly, freeze\n";

/* load(text [, chunkname]) for scripts: text only (a binary chunk could
 * break the VM), always in the sandbox's environment. Returns the function,
 * or nil and the message, as Lua's load. */
static int sandbox_load(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, "=(load)");
    if (!lua_isnoneornil(L, 3) && strcmp(luaL_checkstring(L, 3), "t") != 0)
        return luaL_error(L, "load: scripts may load text chunks only (mode 't')");
    if (!lua_isnoneornil(L, 4))
        return luaL_error(L, "load: chunks always run in the sandbox's environment");
    if (luaL_loadbufferx(L, text, len, name, "t") != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    lua_getfield(L, LUA_REGISTRYINDEX, ENV_KEY);
    lua_setupvalue(L, -2, 1);
    return 1;
}

/* Copy the fields of the library table at the top of the stack, except
 * those in SKIP, into a new table left at the top (the library is popped). */
static void copy_library(lua_State *L, const char *const *skip)
{
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3)) {
        int keep = lua_type(L, -2) == LUA_TSTRING;
        for (const char *const *s = skip; keep && *s; s++)
            keep = strcmp(lua_tostring(L, -2), *s) != 0;
        if (keep) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, -4);
        } else {
            lua_pop(L, 1);
        }
    }
    lua_remove(L, -2);
}

static int build_sandbox(lua_State *L)
{
    luaL_openlibs(L);
    lua_newtable(L); /* env */
    static const char *const base[] = {"assert", "error", "ipairs", "select", "tonumber", "tostring",
                                       "type", "rawequal", "rawlen", "rawget", NULL};
    for (const char *const *b = base; *b; b++) {
        lua_getglobal(L, *b);
        lua_setfield(L, -2, *b);
    }
    static const char *const none[] = {NULL};
    static const char *const no_dump[] = {"dump", NULL};
    static const char *const no_random[] = {"random", "randomseed", NULL};
    static const struct {
        const char *name;
        const char *const *skip;
    } libs[] = {{"string", no_dump}, {"table", none}, {"math", no_random}, {"utf8", none}};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        lua_getglobal(L, libs[i].name);
        copy_library(L, libs[i].skip);
        lua_setfield(L, -2, libs[i].name);
    }
    lua_pushcfunction(L, sandbox_load);
    lua_setfield(L, -2, "load");
    if (luaL_loadbufferx(L, SANDBOX_LUA, sizeof SANDBOX_LUA - 1, "=sandbox", "t") != LUA_OK ||
        lua_pcall(L, 0, 3, 0) != LUA_OK)
        return 0;
    lua_setfield(L, LUA_REGISTRYINDEX, FREEZE_KEY);
    lua_pop(L, 1); /* readonly: freeze uses it */
    lua_setfield(L, -2, "pairs");
    luaL_newlib(L, game_api);
    lua_setfield(L, -2, "game");
    lua_setfield(L, LUA_REGISTRYINDEX, ENV_KEY);
    /* Strings' methods ("s"):rep(...) come from the real string table: no
     * string.dump there either. */
    lua_getglobal(L, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);

    /* The real globals are not reachable from the sandbox: drop them. */
    lua_pushglobaltable(L);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, -4);
    }
    lua_pop(L, 1);
    return 1;
}

/* Load Lua text SRC as chunk NAME whose first line is line FIRST_LINE of its
 * file (padding with newlines keeps error lines true to the file), with
 * the sandbox as its _ENV. Leaves the function on the stack. */
static int load_chunk(lua_State *L, const char *src, const char *name, int first_line)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i < first_line; i++)
        luaL_addchar(&b, '\n');
    luaL_addstring(&b, src);
    luaL_pushresult(&b);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    /* Lua shortens chunk names to 60 characters in messages: name files
     * relative to the working directory when they are under it. */
    char cwd[512], chunkname[600];
    size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
    if (n > 1 && !strncmp(name, cwd, n) && name[n] == '/')
        name += n + 1;
    snprintf(chunkname, sizeof chunkname, "@%s", name);
    int st = luaL_loadbufferx(L, text, len, chunkname, "t");
    lua_remove(L, -2);
    if (st != LUA_OK)
        return 0;
    lua_getfield(L, LUA_REGISTRYINDEX, ENV_KEY);
    lua_setupvalue(L, -2, 1);
    return 1;
}

/* Error objects that are not strings carry no position: give them the
 * script line that raised them (the engine's own choice tag passes). */
static int message_handler(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TSTRING || lua_islightuserdata(L, 1))
        return 1;
    char where[256] = "";
    script_where(L, where, sizeof where);
    lua_pushfstring(L, "%s%serror object is not a string (a %s)", where, where[0] ? ": " : "", luaL_typename(L, 1));
    return 1;
}

/* pcall with the instruction budget reset for the outermost call. */
static int protected_call(foh_engine *e, int nargs, int nres, int outermost)
{
    if (outermost) {
        e->instr_left = e->instr_limit;
        e->mem_where[0] = 0;
    }
    lua_State *L = e->L;
    int base = lua_gettop(L) - nargs; /* the function's slot */
    lua_pushcfunction(L, message_handler);
    lua_insert(L, base);
    int st = lua_pcall(L, nargs, nres, base);
    lua_remove(L, base);
    return st;
}

/* The message of a failed call (formatted into E's buffer). */
static const char *error_text(foh_engine *e, int status)
{
    if (status == LUA_ERRMEM) {
        snprintf(e->errbuf, sizeof e->errbuf, "%s%smemory limit exceeded (%zu bytes for all scripts of the Lua state)",
                 e->mem_where, e->mem_where[0] ? ": " : "", e->mem_limit);
        return e->errbuf;
    }
    const char *m = lua_tostring(e->L, -1);
    return m ? m : "error object is not a string";
}

/* ---- Engine ---- */

static void engine_close(foh_engine *e)
{
    if (e->L)
        lua_close(e->L);
    e->L = NULL;
}

/* Helpers, then every card's effect table; with CHECK, also fill the card
 * definitions' derived fields. */
static foh_status load_scripts(foh_engine *e, foh_cardset *check, foh_error *err);

static foh_status engine_open(foh_engine *e, const foh_cardset *cs, const foh_script_limits *limits, foh_cardset *check,
                              foh_error *err)
{
    e->cs = cs;
    e->mem_limit = limits && limits->memory_bytes > 0 ? limits->memory_bytes : FOH_DEFAULT_SCRIPT_MEMORY;
    e->instr_limit = limits && limits->instructions > 0 ? limits->instructions : FOH_DEFAULT_SCRIPT_INSTRUCTIONS;
    for (int c = 0; c < FOH_MAX_CARDS; c++)
        e->effect_ref[c] = LUA_NOREF;
    for (int h = 0; h < FOH_MAX_HOOKS; h++)
        e->hook_ref[h] = LUA_NOREF;
    e->L = lua_newstate(limited_alloc, e);
    if (!e->L)
        return foh_error_set(err, FOH_ERR_MEMORY, "cannot create a Lua state");
    lua_sethook(e->L, count_hook, LUA_MASKCOUNT, HOOK_EVERY);
    if (!build_sandbox(e->L))
        return foh_error_set(err, FOH_ERR_SCRIPT, "cannot build the Lua sandbox");
    lua_newtable(e->L);
    for (int c = 0; c < cs->ncards; c++) {
        lua_pushinteger(e->L, c);
        lua_setfield(e->L, -2, cs->card[c].id);
    }
    lua_setfield(e->L, LUA_REGISTRYINDEX, IDS_KEY);
    return load_scripts(e, check, err);
}

foh_engine *foh_engine_new(const foh_cardset *cs, foh_error *err) { return foh_engine_new_limited(cs, NULL, err); }

foh_engine *foh_engine_new_limited(const foh_cardset *cs, const foh_script_limits *limits, foh_error *err)
{
    foh_engine *e = calloc(1, sizeof *e);
    if (!e) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return NULL;
    }
    if (engine_open(e, cs, limits, NULL, err) != FOH_OK) {
        foh_engine_free(e);
        return NULL;
    }
    return e;
}

void foh_engine_free(foh_engine *e)
{
    if (!e)
        return;
    engine_close(e);
    free(e);
}

const foh_cardset *foh_engine_cardset(const foh_engine *e) { return e->cs; }

long foh_engine_exercised(const foh_engine *e, int card)
{
    return card >= 0 && card < e->cs->ncards ? e->exercised[card] : 0;
}

/* ---- Load-time checks of the effect tables ---- */

static int card_fail(foh_error *err, const foh_card_def *d, int line, const char *what)
{
    foh_error_set(err, FOH_ERR_DATA, "%s:%d: card '%s': %s", line == d->line ? d->file : d->effect_file, line,
                  d->id, what);
    return 0;
}

/* Icon list field NAME of the table at the top of the stack, as a mask. */
static int icon_list(lua_State *L, const foh_cardset *cs, const foh_card_def *d, const char *name, uint32_t *mask,
                     foh_error *err)
{
    *mask = 0;
    lua_getfield(L, -1, name);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        char msg[160];
        snprintf(msg, sizeof msg, "a counting Permanent effect needs '%s', a list of icon names", name);
        return card_fail(err, d, d->effect_line, msg);
    }
    lua_Integer n = luaL_len(L, -1);
    for (lua_Integer k = 1; k <= n; k++) {
        lua_geti(L, -1, k);
        const char *s = lua_tostring(L, -1);
        int ic = s ? foh_cardset_icon_find(cs, s) : -1;
        lua_pop(L, 1);
        if (ic < 0) {
            lua_pop(L, 1);
            char msg[160];
            snprintf(msg, sizeof msg, "'%s' names an unknown icon '%s'", name, s ? s : "?");
            return card_fail(err, d, d->effect_line, msg);
        }
        *mask |= 1u << ic;
    }
    lua_pop(L, 1);
    return 1;
}

/* Read an icon table {icon = count} at stack index IDX into ICONS (added). */
static int read_icons(lua_State *L, int idx, const foh_cardset *cs, int icons[FOH_MAX_ICONS], char *why,
                      size_t whylen)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) {
        snprintf(why, whylen, "expected a table of icons, got %s", luaL_typename(L, idx));
        return 0;
    }
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        int ic = k ? foh_cardset_icon_find(cs, k) : -1;
        if (ic < 0 || !lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0 || lua_tointeger(L, -1) > 1000) {
            snprintf(why, whylen, "bad icon entry '%s' (icons are %s..., counts 0..1000)", k ? k : "?", cs->icon[0]);
            lua_pop(L, 2);
            return 0;
        }
        icons[ic] += (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    return 1;
}

static int check_table(foh_engine *e, foh_cardset *cs, int c, foh_error *err)
{
    lua_State *L = e->L;
    foh_card_def *d = &cs->card[c];
    foh_fire fire = cs->timing[d->timing].fire;
    static const char *const need[] = {NULL, "on_gain", "provides", "activate", "end_game"};
    if (fire == FOH_FIRE_NEVER)
        return 1;
    lua_getfield(L, -1, need[fire]);
    int t = lua_type(L, -1);
    char msg[300];
    if (fire == FOH_FIRE_PERMANENT) {
        if (t == LUA_TTABLE) {
            int icons[FOH_MAX_ICONS] = {0};
            char why[200];
            if (!read_icons(L, -1, cs, icons, why, sizeof why)) {
                lua_pop(L, 1);
                snprintf(msg, sizeof msg, "provides: %s", why);
                return card_fail(err, d, d->effect_line, msg);
            }
            for (int i = 0; i < FOH_MAX_ICONS; i++)
                d->provides[i] = (int8_t)icons[i];
            lua_pop(L, 1);
            return 1;
        }
        lua_pop(L, 1);
        if (t != LUA_TFUNCTION)
            return card_fail(err, d, d->effect_line,
                             "a Permanent effect needs 'provides': an icon table or a function(player, card)");
        d->counting = 1;
        return icon_list(L, cs, d, "reads", &d->reads, err) && icon_list(L, cs, d, "gives", &d->gives, err);
    }
    lua_pop(L, 1);
    if (t != LUA_TFUNCTION) {
        snprintf(msg, sizeof msg, "timing '%s' needs a function '%s' in the effect table", cs->timing[d->timing].name,
                 need[fire]);
        return card_fail(err, d, d->effect_line, msg);
    }
    return 1;
}

/* Default ruling 6: counting effects must not depend on each other in a
 * cycle (A gives what B reads and B gives what A reads, or longer). */
static int check_cycles(const foh_cardset *cs, foh_error *err)
{
    int state[FOH_MAX_CARDS] = {0}, stack[FOH_MAX_CARDS], next[FOH_MAX_CARDS];
    for (int s = 0; s < cs->ncards; s++) {
        if (!cs->card[s].counting || state[s])
            continue;
        int top = 0;
        stack[top] = s;
        next[top] = 0;
        state[s] = 1;
        while (top >= 0) {
            int u = stack[top], v = next[top]++;
            if (v >= cs->ncards) {
                state[u] = 2;
                top--;
                continue;
            }
            if (!cs->card[v].counting || !(cs->card[u].gives & cs->card[v].reads))
                continue;
            if (state[v] == 1) {
                const foh_card_def *d = &cs->card[v];
                char msg[200];
                snprintf(msg, sizeof msg, "counting effects depend on each other in a cycle (through '%s')",
                         cs->card[u].id);
                return card_fail(err, d, d->line, msg);
            }
            if (state[v] == 0) {
                state[v] = 1;
                stack[++top] = v;
                next[top] = 0;
            }
        }
    }
    return 1;
}

static foh_status load_scripts(foh_engine *e, foh_cardset *check, foh_error *err)
{
    lua_State *L = e->L;
    const foh_cardset *cs = e->cs;
    for (int i = 0; i < cs->nscripts; i++) {
        if (!load_chunk(L, cs->script[i].src, cs->script[i].path, 1))
            return foh_error_set(err, FOH_ERR_DATA, "%s", lua_tostring(L, -1));
        int st = protected_call(e, 0, 0, 1);
        if (st != LUA_OK)
            return foh_error_set(err, FOH_ERR_DATA, "%s", error_text(e, st));
    }
    /* The helpers are in: from here on no script may set a global. */
    lua_getfield(L, LUA_REGISTRYINDEX, FREEZE_KEY);
    lua_getfield(L, LUA_REGISTRYINDEX, ENV_KEY);
    if (protected_call(e, 1, 0, 1) != LUA_OK)
        return foh_error_set(err, FOH_ERR_SCRIPT, "cannot protect the sandbox's globals: %s", lua_tostring(L, -1));
    for (int c = 0; c < cs->ncards; c++) {
        const foh_card_def *d = &cs->card[c];
        if (!d->effect_src)
            continue;
        if (!load_chunk(L, d->effect_src, d->effect_file, d->effect_line))
            return foh_error_set(err, FOH_ERR_DATA, "card '%s': %s", d->id, lua_tostring(L, -1));
        int st = protected_call(e, 0, 1, 1);
        if (st != LUA_OK)
            return foh_error_set(err, FOH_ERR_DATA, "card '%s': %s", d->id, error_text(e, st));
        if (!lua_istable(L, -1)) {
            lua_pop(L, 1);
            return foh_error_set(err, FOH_ERR_DATA, "%s:%d: card '%s': the effect must return a table of hooks",
                                 d->effect_file, d->effect_line, d->id);
        }
        if (check && !check_table(e, check, c, err))
            return FOH_ERR_DATA;
        e->effect_ref[c] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (check && !check_cycles(check, err))
        return FOH_ERR_DATA;
    for (int h = 0; h < cs->nhooks; h++) {
        const char *variant = cs->variant[cs->hook[h].variant], *name = foh_hook_names[cs->hook[h].point];
        if (!load_chunk(L, cs->hook[h].src, cs->hook[h].file, cs->hook[h].line))
            return foh_error_set(err, FOH_ERR_DATA, "variant '%s' hook '%s': %s", variant, name, lua_tostring(L, -1));
        int st = protected_call(e, 0, 1, 1);
        if (st != LUA_OK)
            return foh_error_set(err, FOH_ERR_DATA, "variant '%s' hook '%s': %s", variant, name, error_text(e, st));
        if (!lua_isfunction(L, -1)) {
            lua_pop(L, 1);
            return foh_error_set(err, FOH_ERR_DATA, "%s:%d: variant '%s' hook '%s' must return a function",
                                 cs->hook[h].file, cs->hook[h].line, variant, name);
        }
        e->hook_ref[h] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return FOH_OK;
}

foh_status foh_lua_check_cardset(foh_cardset *cs, foh_error *err)
{
    foh_engine e;
    memset(&e, 0, sizeof e);
    foh_status s = engine_open(&e, cs, NULL, cs, err);
    engine_close(&e);
    return s;
}

/* ---- Calling hooks ---- */

/* Who a failing call was, for its error message: CARD's HOOK, or variant
 * hook number VHOOK when CARD is -1. Formatted only when there is an error:
 * calls run on the bots' hot path. */
static void caller_name(const foh_engine *e, int card, const char *hook, int vhook, char *buf, size_t len)
{
    const foh_cardset *cs = e->cs;
    if (card >= 0)
        snprintf(buf, len, "card '%s' (%s)", cs->card[card].id, hook);
    else if (vhook >= 0 && vhook < cs->nhooks)
        snprintf(buf, len, "variant '%s' hook '%s'", cs->variant[cs->hook[vhook].variant],
                 foh_hook_names[cs->hook[vhook].point]);
    else
        snprintf(buf, len, "a script");
}

/* Call the function and NARGS arguments on the stack (above TOP) with the
 * sandbox's limits; CARD/HOOK/VHOOK name it in errors (see caller_name).
 * See call_hook for COUNTING. */
static foh_status call_pushed(foh_game *g, int top, int nargs, int nres, int counting, int card, const char *hook,
                              int vhook, foh_error *err)
{
    foh_engine *e = g->eng;
    lua_State *L = e->L;
    foh_game *prev_g = e->g;
    int prev_counting = e->counting, outermost = prev_g == NULL;
    e->g = g;
    e->counting = counting;
    if (outermost) {
        e->need_choice = 0;
        if (counting == 0)
            g->choice.card = card;
    }
    int st = protected_call(e, nargs, nres, outermost);
    e->g = prev_g;
    e->counting = prev_counting;
    if (st == LUA_OK)
        return FOH_OK;
    char who[160];
    caller_name(e, card, hook, vhook, who, sizeof who);
    if (e->need_choice && lua_touserdata(L, -1) == (void *)&NEED_CHOICE_TAG) {
        lua_settop(L, top);
        if (!outermost)
            return foh_error_set(err, FOH_ERR_SCRIPT, "%s: a choice inside a nested hook", who);
        return FOH_NEED_CHOICE;
    }
    foh_error_set(err, FOH_ERR_SCRIPT, "%s: %s", who, error_text(e, st));
    lua_settop(L, top);
    return FOH_ERR_SCRIPT;
}

int foh_lua_has_hooks(const foh_engine *e, foh_hook_point point)
{
    for (int h = 0; h < e->cs->nhooks; h++)
        if (e->cs->hook[h].point == point)
            return 1;
    return 0;
}

/* Call every hook at POINT; with ICONS, sum their returned icon tables. */
static foh_status run_hooks(foh_game *g, foh_hook_point point, int player, const char *kind, int icons[FOH_MAX_ICONS],
                            int *any, foh_error *err)
{
    foh_engine *e = g->eng;
    const foh_cardset *cs = e->cs;
    lua_State *L = e->L;
    for (int h = 0; h < cs->nhooks; h++) {
        if (cs->hook[h].point != point)
            continue;
        int top = lua_gettop(L);
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->hook_ref[h]);
        lua_pushinteger(L, player + 1);
        if (kind)
            lua_pushstring(L, kind);
        else
            lua_pushnil(L);
        foh_status s = call_pushed(g, top, 2, icons ? 1 : 0, icons ? -1 : 0, -1, NULL, h, err);
        if (s != FOH_OK)
            return s;
        if (icons) {
            char why[200];
            int ok = read_icons(L, -1, cs, icons, why, sizeof why);
            lua_settop(L, top);
            if (!ok) {
                char who[160];
                caller_name(e, -1, NULL, h, who, sizeof who);
                return foh_error_set(err, FOH_ERR_SCRIPT, "%s (%s:%d): %s", who, cs->hook[h].file, cs->hook[h].line,
                                     why);
            }
            *any = 1;
        }
    }
    return FOH_OK;
}

foh_status foh_lua_hooks(foh_game *g, foh_hook_point point, int player, const char *kind, foh_error *err)
{
    return run_hooks(g, point, player, kind, NULL, NULL, err);
}

foh_status foh_lua_scoring_hooks(foh_game *g, int player, int icons[FOH_MAX_ICONS], int *any, foh_error *err)
{
    memset(icons, 0, sizeof(int) * FOH_MAX_ICONS);
    *any = 0;
    return run_hooks(g, FOH_HOOK_SCORING, player, NULL, icons, any, err);
}

/* Call HOOK of CARD's effect table as hook(player, card_id) with NRES
 * results left on the stack on success. COUNTING: 1 counting Permanent
 * effect (reads base icons), -1 read-only hook, 0 an effect that acts. */
static foh_status call_hook(foh_game *g, int card, int player, const char *hook, int nres, int counting,
                            foh_error *err)
{
    foh_engine *e = g->eng;
    lua_State *L = e->L;
    const foh_card_def *d = &e->cs->card[card];
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_ref[card]);
    if (!lua_istable(L, -1) || lua_getfield(L, -1, hook) != LUA_TFUNCTION) {
        lua_settop(L, top);
        return foh_error_set(err, FOH_ERR_SCRIPT, "card '%s' (%s:%d): its effect has no '%s' function", d->id,
                             d->file, d->line, hook);
    }
    lua_remove(L, -2);
    lua_pushinteger(L, player + 1);
    lua_pushstring(L, d->id);
    foh_status s = call_pushed(g, top, 2, nres, counting, card, hook, -1, err);
    if (strcmp(hook, "can_activate") != 0 && s != FOH_ERR_SCRIPT) /* asking about a cost is not using the effect */
        e->exercised[card]++;
    return s;
}

foh_status foh_lua_on_gain(foh_game *g, int card, int player, foh_error *err)
{
    return call_hook(g, card, player, "on_gain", 0, 0, err);
}

foh_status foh_lua_activate(foh_game *g, int card, int player, foh_error *err)
{
    return call_hook(g, card, player, "activate", 0, 0, err);
}

foh_status foh_lua_can_activate(foh_game *g, int card, int player, int *ok, foh_error *err)
{
    foh_engine *e = g->eng;
    lua_State *L = e->L;
    *ok = 1;
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_ref[card]);
    int has = lua_istable(L, -1) && lua_getfield(L, -1, "can_activate") == LUA_TFUNCTION;
    lua_settop(L, top);
    if (!has)
        return FOH_OK;
    foh_status s = call_hook(g, card, player, "can_activate", 1, -1, err);
    if (s != FOH_OK)
        return s;
    *ok = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return FOH_OK;
}

static foh_status icon_result(foh_game *g, int card, int icons[FOH_MAX_ICONS], foh_error *err)
{
    lua_State *L = g->eng->L;
    const foh_card_def *d = &g->eng->cs->card[card];
    char why[200];
    int ok = read_icons(L, -1, g->eng->cs, icons, why, sizeof why);
    lua_pop(L, 1);
    if (!ok)
        return foh_error_set(err, FOH_ERR_SCRIPT, "card '%s' (%s:%d): %s", d->id, d->effect_file, d->effect_line, why);
    return FOH_OK;
}

foh_status foh_lua_provides(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    foh_status s = call_hook(g, card, player, "provides", 1, 1, err);
    return s == FOH_OK ? icon_result(g, card, icons, err) : s;
}

foh_status foh_lua_end_game(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    memset(icons, 0, sizeof(int) * FOH_MAX_ICONS);
    foh_status s = call_hook(g, card, player, "end_game", 1, -1, err);
    return s == FOH_OK ? icon_result(g, card, icons, err) : s;
}

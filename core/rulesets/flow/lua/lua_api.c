/* lua_api: the `game` API offered to card and variant scripts (documented
 * in scripts/API.md). Every read and write of the game by a script goes
 * through these functions. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choice.h"
#include "log.h"
#include "lua_internal.h"
#include "memo.h"
#include "market.h"
#include "nation.h"
#include "rng.h"
#include "tokens.h"

/* ---- Argument helpers ---- */

/* The game a script acts on, for an API function that reads nothing but
 * the Nations it notes itself (foh_memo_note) and the number of players. */
static foh_game *game_reading(lua_State *L)
{
    foh_engine *e = foh_lua_engine_of(L);
    if (!e->g)
        luaL_error(L, "the game API can only be used inside an effect");
    return e->g;
}

/* The game a script acts on, for any other function: what it reads or
 * changes is noted as outside a memo key (memo.h), so the result of a
 * computation that calls it is never reused. */
static foh_game *game_of(lua_State *L)
{
    foh_game *g = game_reading(L);
    foh_memo_note_other(g->eng);
    return g;
}

/* PLAYER's Nation is read (memo.h). */
static void reads_nation(lua_State *L, int player) { foh_memo_note(foh_lua_engine_of(L), 1u << player); }

static void writable(lua_State *L)
{
    if (foh_lua_engine_of(L)->counting != 0)
        luaL_error(L, "this hook may only read the game, not change it");
}

static int player_arg(lua_State *L, int i)
{
    foh_game *g = game_reading(L);
    lua_Integer p = luaL_checkinteger(L, i);
    if (p < 1 || p > g->st.players)
        luaL_error(L, "bad player %d (players are 1 to %d)", (int)p, g->st.players);
    return (int)p - 1;
}

static int card_arg(lua_State *L, int i)
{
    const char *id = luaL_checkstring(L, i);
    lua_rawgeti(L, LUA_REGISTRYINDEX, foh_lua_engine_of(L)->ids_ref);
    lua_pushvalue(L, i);
    lua_rawget(L, -2);
    int ok = lua_isinteger(L, -1);
    int c = ok ? (int)lua_tointeger(L, -1) : -1;
    lua_pop(L, 2);
    if (!ok)
        luaL_error(L, "unknown card id '%s'", id);
    return c;
}

/* The index of name S among the N names LUA_NAMES (the engine's Lua
 * strings of them) and NAMES (their bytes, STRIDE apart), or -1. */
static int name_index(const char *s, const char *const *lua_names, const char *names, size_t stride, int n)
{
    for (int k = 0; k < n; k++)
        if (lua_names[k] == s) /* the same interned Lua string */
            return k;
    for (int k = 0; k < n; k++)
        if (strcmp(names + (size_t)k * stride, s) == 0)
            return k;
    return -1;
}

static int type_arg(lua_State *L, int i)
{
    const foh_engine *e = foh_lua_engine_of(L);
    const char *s = luaL_checkstring(L, i);
    int k = name_index(s, e->type_name, e->cs->type[0].name, sizeof e->cs->type[0], e->cs->ntypes);
    return k >= 0 ? k : luaL_error(L, "unknown card type '%s'", s);
}

static int icon_index(const foh_engine *e, const char *s)
{
    return name_index(s, e->icon_name, e->cs->icon[0], FOH_NAME, e->cs->nicons);
}

static int icon_arg(lua_State *L, int i)
{
    const char *s = luaL_checkstring(L, i);
    int k = icon_index(foh_lua_engine_of(L), s);
    return k >= 0 ? k : luaL_error(L, "unknown icon '%s'", s);
}

/* Reading a list of N entries given by a script is work it is charged. */
static void charge_list(lua_State *L, lua_Integer n)
{
    if (n > 0)
        foh_lua_charge(L, (long)n);
}

static int count_arg(lua_State *L, int i)
{
    lua_Integer n = luaL_checkinteger(L, i);
    if (n < 0 || n > 100000)
        luaL_error(L, "bad argument #%d: token count %I is out of range (0 to 100000 tokens per call)", i, n);
    return (int)n;
}

static void push_card(lua_State *L, int card) { lua_rawgeti(L, LUA_REGISTRYINDEX, foh_lua_engine_of(L)->card_id_ref[card]); }

/* The kinds of card list the API returns, and their names in messages (a
 * refused write: "cannot change game.market()[1]"). */
enum { LIST_NATION, LIST_ACTIVE, LIST_ACTIVE_WITH, LIST_MARKET };
static const char *const list_name[FOH_LUA_LISTS] = {"game.nation()", "game.active()", "game.active_with()",
                                                     "game.market()"};

/* A set of card types from an optional list argument (all if absent). */
static uint32_t types_arg(lua_State *L, int i)
{
    if (lua_isnoneornil(L, i))
        return ~0u;
    luaL_checktype(L, i, LUA_TTABLE);
    uint32_t mask = 0;
    foh_lua_push_real(L, i); /* a helper's list is read-only: read the list behind it */
    int t = lua_gettop(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    charge_list(L, n);
    for (lua_Integer k = 1; k <= n; k++) {
        lua_rawgeti(L, t, k);
        mask |= 1u << type_arg(L, t + 1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return mask;
}

/* A status of the engine met inside an API call (a reaction's) raised in
 * Lua: a question goes up to the outermost call, which pauses the action;
 * an error stops the script with the reaction's message. */
static int raise_status(lua_State *L, foh_status s, const foh_error *err)
{
    if (s == FOH_OK)
        return 0;
    if (s == FOH_NEED_CHOICE) {
        foh_lua_engine_of(L)->need_choice = 1;
        lua_pushlightuserdata(L, (void *)&foh_lua_need_choice_tag);
        return lua_error(L);
    }
    /* The message names the reaction already: it goes up as it is. */
    foh_engine *e = foh_lua_engine_of(L);
    e->nested_error = *err;
    lua_pushlightuserdata(L, (void *)&foh_lua_nested_error_tag);
    return lua_error(L);
}

/* ---- The `game` API (see scripts/API.md) ---- */

static int api_players(lua_State *L)
{
    lua_pushinteger(L, game_reading(L)->st.players);
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
    lua_rawgeti(L, LUA_REGISTRYINDEX, foh_lua_engine_of(L)->card_info_ref[card_arg(L, 1)]);
    return 1;
}

/* The read-only table game.card(id) returns for card C: made once, at
 * load (its fields never change). */
static int card_info(lua_State *L)
{
    foh_engine *e = lua_touserdata(L, 1);
    const foh_cardset *cs = e->cs;
    for (int c = 0; c < cs->ncards; c++) {
        const foh_card_def *d = &cs->card[c];
        lua_pushstring(L, d->id);
        e->card_id_ref[c] = luaL_ref(L, LUA_REGISTRYINDEX);
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
        foh_lua_readonly(L, -1, "game.card()");
        e->card_info_ref[c] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    for (int k = 0; k < FOH_LUA_LISTS; k++) {
        lua_createtable(L, 0, 0);
        foh_lua_readonly_list(L, -1, list_name[k]);
        e->empty_list_ref[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}

int foh_lua_card_tables(foh_engine *e)
{
    lua_State *L = e->sb.L;
    lua_pushcfunction(L, card_info);
    lua_pushlightuserdata(L, e);
    e->sb.protected_depth++; /* out of memory is an error here, not an abort */
    int st = lua_pcall(L, 1, 0, 0);
    e->sb.protected_depth--;
    if (st != LUA_OK)
        lua_pop(L, 1);
    return st == LUA_OK;
}

static int api_icons(lua_State *L)
{
    foh_game *g = game_reading(L);
    foh_engine *e = foh_lua_engine_of(L);
    int p = player_arg(L, 1), icon = icon_arg(L, 2);
    reads_nation(L, p);
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
    foh_game *g = game_reading(L);
    int p = player_arg(L, 1);
    reads_nation(L, p);
    static const char *const roles[] = {"attacker", "defender", NULL};
    const char *s = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    /* The engine's own strings of the roles first (as name_index). */
    int role = s == foh_lua_engine_of(L)->role_name[0] ? 0
               : s == foh_lua_engine_of(L)->role_name[1] ? 1
                                                          : luaL_checkoption(L, 2, NULL, roles);
    int strength;
    foh_error err;
    if (foh_nation_strength(g, p, role == 0, &strength, &err) != FOH_OK)
        return luaL_error(L, "%s", err.msg);
    lua_pushinteger(L, strength);
    return 1;
}

static int api_count(lua_State *L)
{
    foh_game *g = game_reading(L);
    int p = player_arg(L, 1);
    reads_nation(L, p);
    lua_pushinteger(L, foh_nation_count(g, p, type_arg(L, 2)));
    return 1;
}

static int api_top(lua_State *L)
{
    foh_game *g = game_reading(L);
    int p = player_arg(L, 1);
    reads_nation(L, p);
    int c = foh_nation_top(g, p, type_arg(L, 2));
    if (c < 0)
        lua_pushnil(L);
    else
        push_card(L, c);
    return 1;
}

/* Push the N cards LIST as the read-only list of ids that API function
 * KIND (list_name) returns. An empty one is the kind's one empty list,
 * made with the engine: read-only, it can be shared. */
static void push_card_list(lua_State *L, const int *list, int n, int kind)
{
    if (n == 0) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, foh_lua_engine_of(L)->empty_list_ref[kind]);
        return;
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_card(L, list[i]);
        lua_rawseti(L, -2, i + 1);
    }
    foh_lua_readonly_list(L, -1, list_name[kind]);
}

static int api_nation(lua_State *L)
{
    foh_game *g = game_reading(L);
    const foh_cardset *cs = foh_lua_engine_of(L)->cs;
    int p = player_arg(L, 1);
    reads_nation(L, p);
    uint32_t types = lua_isnoneornil(L, 2) ? ~0u : 1u << type_arg(L, 2);
    int n = 0, list[FOH_MAX_CARDS]; /* a card is in one pile: never more than every card */
    for (int t = 0; t < cs->ntypes; t++)
        if (types & (1u << t))
            n += foh_game_nation_cards(g, p, t, list + n, FOH_MAX_CARDS - n);
    push_card_list(L, list, n, LIST_NATION);
    return 1;
}

static int api_active(lua_State *L)
{
    foh_game *g = game_reading(L);
    int p = player_arg(L, 1), n = 0, list[FOH_MAX_CARDS];
    reads_nation(L, p);
    for (int c = foh_nation_next(&g->st, p, 0); c >= 0; c = foh_nation_next(&g->st, p, c + 1))
        if (foh_nation_visible(g, c))
            list[n++] = c;
    push_card_list(L, list, n, LIST_ACTIVE);
    return 1;
}

/* Whether card C's effect table has a true field: the key at stack index
 * 2 (read through the read-only proxy, as game.effect(id)[field] would). */
static int has_field(lua_State *L, const foh_engine *e, int c)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_proxy_ref[c]);
    int has = 0;
    if (lua_istable(L, -1)) {
        lua_pushvalue(L, 2);
        has = lua_gettable(L, -2) != LUA_TNIL && lua_toboolean(L, -1);
    }
    lua_settop(L, 2);
    return has;
}

/* The cards (bit set, FOH_OWNED_WORDS words) whose effect table has a true
 * FIELD (LEN bytes; the string at stack index 2), from E's cache; NULL if
 * it cannot be cached (the cache is full or the name too long). The effect
 * tables are frozen, and their proxies read nothing but them: the answer,
 * worked out once, never changes. Working it out makes no Lua value. */
static const uint64_t *field_cards(lua_State *L, foh_engine *e, const char *field, size_t len)
{
    for (int k = 0; k < e->nfields; k++)
        if (e->field[k].len == len && memcmp(e->field[k].name, field, len) == 0)
            return e->field[k].cards;
    if (e->nfields == FOH_LUA_FIELDS || len >= FOH_LUA_FIELD_NAME)
        return NULL;
    uint64_t cards[FOH_OWNED_WORDS] = {0};
    for (int c = 0; c < e->cs->ncards; c++)
        if (has_field(L, e, c))
            cards[c / 64] |= 1ull << (c % 64);
    /* Only now: an error raised above leaves no half-made entry. */
    int k = e->nfields++;
    e->field[k].len = len;
    memcpy(e->field[k].name, field, len);
    e->field[k].name[len] = '\0';
    memcpy(e->field[k].cards, cards, sizeof cards);
    return e->field[k].cards;
}

/* The active cards of P whose effect table has a true field (the string at
 * stack index 2; CARDS its field_cards, NULL when not cached), in card
 * order, into LIST (FOH_MAX_CARDS); with LIST NULL, only whether there is
 * one (0 or 1). Returns how many. */
static int find_active_with(lua_State *L, foh_game *g, foh_engine *e, int p, const uint64_t *cards, int *list)
{
    int n = 0;
    for (int w = 0; w < g->st.words; w++)
        for (uint64_t bits = FOH_OWNED(&g->st, p)[w] & (cards ? cards[w] : ~0ull); bits; bits &= bits - 1) {
            int c = w * 64 + __builtin_ctzll(bits); /* P's cards in card order */
            if ((cards || has_field(L, e, c)) && foh_nation_visible(g, c)) {
                if (!list)
                    return 1;
                list[n++] = c;
            }
        }
    return n;
}

/* game.active_with(p, field) and game.has_active(p, field): P and the
 * field's cards (field_cards), the field left at stack index 2. */
static const uint64_t *active_args(lua_State *L, foh_engine *e, int *p)
{
    *p = player_arg(L, 1);
    size_t len;
    const char *field = luaL_checklstring(L, 2, &len);
    lua_settop(L, 2);
    reads_nation(L, *p); /* and the effect tables, which never change */
    return field_cards(L, e, field, len);
}

/* game.active_with(p, field): the active cards of P whose effect table has
 * a true FIELD, in card order. One call where a script would walk
 * game.active(p) and read game.effect(id)[field] for each card: the attack
 * helpers ask it per opponent on every attack (docs/performance.md). Which
 * cards have the field is known once per field (field_cards). */
static int api_active_with(lua_State *L)
{
    foh_game *g = game_reading(L);
    foh_engine *e = foh_lua_engine_of(L);
    int p, list[FOH_MAX_CARDS];
    const uint64_t *cards = active_args(L, e, &p);
    push_card_list(L, list, find_active_with(L, g, e, p, cards, list), LIST_ACTIVE_WITH);
    return 1;
}

/* game.has_active(p, field): whether game.active_with(p, field) would list
 * any card, without making the list (the attack helpers ask it per
 * opponent on every attack). */
static int api_has_active(lua_State *L)
{
    foh_game *g = game_reading(L);
    foh_engine *e = foh_lua_engine_of(L);
    int p;
    const uint64_t *cards = active_args(L, e, &p);
    lua_pushboolean(L, find_active_with(L, g, e, p, cards, NULL));
    return 1;
}

static int api_owner(lua_State *L)
{
    foh_game *g = game_reading(L);
    int c = card_arg(L, 1);
    foh_memo_note(g->eng, (1u << g->st.players) - 1); /* whose Nation it is in, if any */
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
    lua_pushinteger(L, foh_tokens_take_from_supply(g, p, n));
    return 1;
}

static int api_take_from_reserve(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1), n = count_arg(L, 2);
    foh_error err;
    if (foh_tokens_take_from_reserve(g, p, n, &err) != FOH_OK)
        return luaL_error(L, "game.take_from_reserve: %s", err.msg);
    lua_pushinteger(L, n);
    return 1;
}

static int api_pay_to_supply(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1), n = count_arg(L, 2);
    lua_pushinteger(L, foh_tokens_pay_to_supply(g, p, n));
    return 1;
}

static int api_give(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int from = player_arg(L, 1), to = player_arg(L, 2), n = count_arg(L, 3);
    lua_pushinteger(L, foh_tokens_give(g, from, to, n));
    return 1;
}

static int api_market(lua_State *L)
{
    foh_game *g = game_of(L);
    const foh_cardset *cs = foh_lua_engine_of(L)->cs;
    uint32_t types = types_arg(L, 1);
    int n = 0, list[FOH_MAX_MARKET];
    for (int i = 0; i < g->st.nmarket; i++) {
        int c = g->st.market[i];
        if (g->st.loc[c].investor < 0 && (types & (1u << cs->card[c].type)))
            list[n++] = c;
    }
    push_card_list(L, list, n, LIST_MARKET);
    return 1;
}

static int api_gain(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1), c = card_arg(L, 2);
    if (g->st.loc[c].zone != FOH_ZONE_MARKET || g->st.loc[c].investor >= 0)
        return luaL_error(L, "game.gain: %s is not a non-invested Market card", foh_lua_engine_of(L)->cs->card[c].id);
    foh_market_take(g, c);
    foh_error err;
    return raise_status(L, foh_nation_gain(g, p, c, "effect", &err), &err);
}

static int api_gain_top(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int p = player_arg(L, 1), c;
    foh_error err;
    raise_status(L, foh_nation_gain_top(g, p, &c, &err), &err);
    if (c < 0)
        lua_pushnil(L);
    else
        push_card(L, c);
    return 1;
}

static int api_discard(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int c = card_arg(L, 1);
    foh_error err;
    foh_status s = foh_nation_discard(g, c, &err);
    if (s == FOH_ERR_ILLEGAL) /* the card, not a reaction */
        return luaL_error(L, "game.discard: %s", err.msg);
    return raise_status(L, s, &err);
}

/* Whether TEXT is UTF-8 without control characters (C0, DEL, C1): labels
 * and prompts go to terminals and into JSON saves and traces. */
static int printable_text(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        unsigned c = *p;
        int more = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
        if (more < 0 || c < 0x20 || c == 0x7F || c == 0xC0 || c == 0xC1 || c > 0xF4)
            return 0;
        unsigned cp = more ? c & (0x3F >> more) : c;
        for (int i = 1; i <= more; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (p[i] & 0x3F);
        }
        static const unsigned least[] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[more] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x80 && cp <= 0x9F))
            return 0;
        p += more + 1;
    }
    return 1;
}

/* Readable label of the option at the top of the stack: a card's name, a
 * player "P2", or the string itself. The option is checked the same with
 * LABEL NULL (the label is not needed: nothing is written). */
static void option_label(lua_State *L, char *label)
{
    foh_engine *e = foh_lua_engine_of(L);
    if (lua_type(L, -1) == LUA_TSTRING) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->ids_ref);
        lua_pushvalue(L, -2);
        lua_rawget(L, -2);
        int is_card = lua_isinteger(L, -1);
        const char *text = is_card ? e->cs->card[lua_tointeger(L, -1)].name : lua_tostring(L, -3);
        size_t len = strlen(text);
        if (len >= FOH_OPTION_LABEL)
            luaL_error(L, "game.choose: the option '%s' is longer than %d bytes (the engine's limit for a label)",
                       text, FOH_OPTION_LABEL - 1);
        if (!printable_text(text))
            luaL_error(L, "game.choose: an option holds a control character or is not UTF-8 text (labels are shown "
                          "on terminals and saved as JSON)");
        if (label)
            memcpy(label, text, len + 1);
        lua_pop(L, 2);
    } else if (lua_isinteger(L, -1)) {
        if (label)
            snprintf(label, FOH_OPTION_LABEL, "P%d", (int)lua_tointeger(L, -1));
    } else {
        luaL_error(L, "game.choose: options must be card ids, strings or player numbers");
    }
}

/* The options list of a game.choose call: at stack index 2, with TOP
 * values on the stack when the call began. */
typedef struct {
    lua_State *L;
    int top;
} choose_list;

/* foh_choice_ask's label of option I of a choose_list CTX (option_label:
 * may raise the option's error). The option stays on the stack just above
 * the call's values, so that the last one labelled, the recorded answer,
 * is what game.choose returns, read once. */
static void choose_label(void *ctx, int i, char *out)
{
    const choose_list *list = ctx;
    lua_settop(list->L, list->top);
    lua_geti(list->L, 2, i + 1);
    option_label(list->L, out);
}

/* game.choose(player, options, prompt): a decision point. Answers come
 * from the game's recorded answers; with none left the run stops here and
 * the game waits for this player's FOH_ACT_CHOOSE. */
static int api_choose(lua_State *L)
{
    foh_game *g = game_of(L);
    foh_engine *e = foh_lua_engine_of(L);
    if (e->counting != 0) /* a read-only hook: asked while actions are listed or icons counted, not during one */
        return luaL_error(L, "game.choose: this hook may only read the game and ask no question (it runs while "
                             "legal actions are listed or icons counted, not as part of an action)");
    int p = player_arg(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    const char *prompt = luaL_optstring(L, 3, "choose");
    if (strlen(prompt) >= FOH_PROMPT)
        return luaL_error(L, "game.choose: the prompt is longer than %d bytes (the engine's limit)", FOH_PROMPT - 1);
    if (!printable_text(prompt))
        return luaL_error(L, "game.choose: the prompt holds a control character or is not UTF-8 text (prompts are "
                             "shown on terminals and saved as JSON)");
    lua_Integer n = luaL_len(L, 2);
    choose_list list = {L, lua_gettop(L)};
    int pick;
    foh_error err;
    foh_status s = foh_choice_ask(g, p, n, prompt, choose_label, &list, &pick, &err);
    if (s == FOH_NEED_CHOICE) {
        e->need_choice = 1;
        lua_pushlightuserdata(L, (void *)&foh_lua_need_choice_tag);
        return lua_error(L);
    }
    if (s != FOH_OK)
        return luaL_error(L, "game.choose: %s", err.msg);
    if (pick < 0)
        lua_pushnil(L);
    else if (n == 1)
        lua_geti(L, 2, 1);
    /* else the recorded answer is on top, left by choose_label */
    return 1;
}

/* game.log(text) or game.log(format, value...): one line of the game's
 * log. With values, each %s of FORMAT is the next value written as Lua's
 * tostring writes a number or string; a list (a table) as its entries
 * separated by ", ", an entry that is itself a list being {format,
 * value...} formatted the same way; %% is a %. The line is checked,
 * measured and charged the same with or without a log, and written only
 * when the game keeps one (foh sim keeps none: a script passes the
 * format and values, not a line it made). Its copy (escaped, up to 4 bytes
 * a byte) is work and memory outside Lua: charged, and bounded. */
#define LOG_LINE_MAX 1000
#define LOG_ACTION_MAX (1 << 20)
#define LOG_DEPTH 8 /* lists nested in a logged value */

/* The line game.log is making: written into BUF (LOG_LINE_MAX bytes) only
 * when the log is kept (else NULL); LEN counts every byte, even past
 * LOG_LINE_MAX (the line is then refused). */
typedef struct {
    char *buf;
    size_t len;
} log_line;

static void log_put(log_line *t, const char *s, size_t n)
{
    if (t->buf && n <= LOG_LINE_MAX && t->len <= LOG_LINE_MAX - n)
        memcpy(t->buf + t->len, s, n);
    t->len += n;
}

/* The number at stack index I as Lua writes it (lobject.c, tostringbuff):
 * an integer in decimal, a float with LUA_NUMBER_FMT and ".0" if it would
 * read as an integer. Counting an integer's digits needs no formatting. */
static void log_number(lua_State *L, int i, log_line *t)
{
    char num[64];
    size_t n;
    if (lua_isinteger(L, i)) {
        lua_Integer v = lua_tointeger(L, i);
        if (!t->buf) {
            lua_Unsigned u = v < 0 ? 0u - (lua_Unsigned)v : (lua_Unsigned)v;
            n = v < 0; /* the sign */
            do {
                n++;
                u /= 10;
            } while (u > 0);
            t->len += n;
            return;
        }
        n = (size_t)snprintf(num, sizeof num, LUA_INTEGER_FMT, (LUAI_UACINT)v);
    } else {
        n = (size_t)lua_number2str(num, sizeof num - 2, (LUAI_UACNUMBER)lua_tonumber(L, i));
        if (num[strspn(num, "-0123456789")] == '\0') {
            num[n++] = '.';
            num[n++] = '0';
        }
    }
    log_put(t, num, n);
}

static void log_format(lua_State *L, const char *fmt, size_t flen, int first, int nargs, log_line *t, int depth);

/* The number of %s in FORMAT (FLEN bytes), a bad % raising the error. */
static int log_slots(lua_State *L, const char *fmt, size_t flen)
{
    int slots = 0;
    for (const char *c = memchr(fmt, '%', flen); c; c = memchr(c, '%', flen - (size_t)(c - fmt))) {
        size_t k = (size_t)(c - fmt);
        char d = k + 1 < flen ? fmt[k + 1] : '\0';
        if (d == 's')
            slots++;
        else if (d != '%')
            luaL_error(L, "game.log: the format '%s' holds a %% that is not %%s or %%%%", fmt);
        c += 2;
        if (c >= fmt + flen)
            break;
    }
    return slots;
}

/* The value at stack index I: a string, a number, or a table {format,
 * value...}: FORMAT once per group of as many values as it has %s, the
 * groups separated by ", ". */
static void log_value(lua_State *L, int i, log_line *t, int depth)
{
    int type = lua_type(L, i);
    if (type == LUA_TSTRING) {
        size_t n;
        const char *s = lua_tolstring(L, i, &n);
        log_put(t, s, n);
        return;
    }
    if (type == LUA_TNUMBER) {
        log_number(L, i, t);
        return;
    }
    if (type != LUA_TTABLE)
        luaL_error(L, "game.log: a %s cannot be logged (strings, numbers and {format, value...} tables only)",
                   luaL_typename(L, i));
    if (depth >= LOG_DEPTH)
        luaL_error(L, "game.log: {format, value...} tables nested more than %d deep", LOG_DEPTH);
    lua_Integer n = luaL_len(L, i);
    charge_list(L, n);
    int top = lua_gettop(L);
    if (lua_geti(L, i, 1) != LUA_TSTRING)
        luaL_error(L, "game.log: a table must be {format, value...}, not start with a %s", luaL_typename(L, -1));
    size_t flen;
    const char *fmt = lua_tolstring(L, top + 1, &flen);
    int slots = log_slots(L, fmt, flen);
    lua_Integer values = n - 1;
    if (values < 0 || (slots == 0 ? values != 0 : values % slots != 0))
        luaL_error(L, "game.log: {format, value...} with %I values, not a multiple of the format's %d %%s ('%s')",
                   values < 0 ? (lua_Integer)0 : values, slots, fmt);
    luaL_checkstack(L, slots + 4, "game.log");
    if (slots == 0)
        log_format(L, fmt, flen, top + 2, 0, t, depth + 1); /* the format alone, once */
    for (lua_Integer k = 2; slots > 0 && k <= n; k += slots) {
        if (k > 2)
            log_put(t, ", ", 2);
        for (int a = 0; a < slots; a++)
            lua_geti(L, i, k + a);
        log_format(L, fmt, flen, top + 2, slots, t, depth + 1);
        lua_settop(L, top + 1);
    }
    lua_settop(L, top);
}

/* FORMAT (FLEN bytes) with the NARGS values from stack index FIRST. */
static void log_format(lua_State *L, const char *fmt, size_t flen, int first, int nargs, log_line *t, int depth)
{
    int used = 0;
    size_t run = 0; /* start of the text not yet written */
    for (const char *c = memchr(fmt, '%', flen); c; c = run < flen ? memchr(fmt + run, '%', flen - run) : NULL) {
        size_t k = (size_t)(c - fmt);
        log_put(t, fmt + run, k - run);
        char d = k + 1 < flen ? fmt[k + 1] : '\0';
        if (d == '%') {
            log_put(t, "%", 1);
        } else if (d == 's') {
            if (used == nargs)
                luaL_error(L, "game.log: the format '%s' asks for more than the %d values given", fmt, nargs);
            log_value(L, first + used++, t, depth);
        } else {
            luaL_error(L, "game.log: the format '%s' holds a %% that is not %%s or %%%%", fmt);
        }
        run = k + 2;
    }
    log_put(t, fmt + run, flen - run);
    if (used < nargs)
        luaL_error(L, "game.log: the format '%s' takes %d values, not %d", fmt, used, nargs);
}

static int api_log(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    foh_engine *e = foh_lua_engine_of(L);
    if (e->query_check) /* asked while actions are listed, again and again: not part of what happens */
        return luaL_error(L, "game.log: a cost reaction (snipe_cost, invest_cost, complete_cost) is asked whenever "
                             "the legal actions are listed, not when something happens: it may not write the log");
    int nargs = lua_gettop(L) - 1;
    char line[LOG_LINE_MAX + 1];
    log_line t = {.buf = e->g && e->g->log ? line : NULL, .len = len};
    if (nargs > 0) {
        t.len = 0;
        log_format(L, text, len, 2, nargs, &t, 0);
    }
    if (t.len > LOG_LINE_MAX)
        return luaL_error(L, "game.log: the text is %I bytes, longer than %d (the engine's limit for a log line)",
                          (lua_Integer)t.len, LOG_LINE_MAX);
    if (e->loglen + 4 * t.len > LOG_ACTION_MAX)
        return luaL_error(L, "game.log: one action may log at most %d bytes (the engine's limit)", LOG_ACTION_MAX);
    foh_lua_charge(L, 1 + (long)(4 * t.len / FOH_LUA_BYTES_PER_UNIT));
    foh_game *g = game_of(L);
    if (nargs > 0 && t.buf) {
        line[t.len] = '\0';
        text = line;
    }
    foh_log(g, "  %s", text);
    return 0;
}

/* game.effect(id): the card's effect table, read-only (a card must not
 * change another card's effect), or nil. */
static int api_effect(lua_State *L)
{
    int c = card_arg(L, 1);
    foh_engine *e = foh_lua_engine_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_proxy_ref[c]);
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
    if (++g->random_calls == g->random_fork_at && g->random_fork_on) /* a bot's sample from here on */
        memcpy(g->st.rng, g->random_fork, sizeof g->st.rng);
    return 1;
}

static int neutral_arg(lua_State *L, int i)
{
    lua_Integer k = luaL_checkinteger(L, i);
    if (k < 1 || k > foh_lua_engine_of(L)->cs->neutral_investors)
        luaL_error(L, "bad neutral investor %d (the game has %d)", (int)k, foh_lua_engine_of(L)->cs->neutral_investors);
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
        return luaL_error(L, "game.neutral_invest: %s is not a non-invested Market card", foh_lua_engine_of(L)->cs->card[c].id);
    if (from_supply > g->st.supply)
        return luaL_error(L, "game.neutral_invest: the Supply holds %d tokens, not %d", g->st.supply, from_supply);
    g->st.supply -= from_supply;
    foh_error err;
    if (foh_tokens_from_reserve(&g->st, -1, from_reserve, &err) != FOH_OK) /* through the Supply: substitution counts */
        return luaL_error(L, "game.neutral_invest: %s", err.msg);
    g->st.supply -= from_reserve;
    g->st.loc[c].investor = (int8_t)(FOH_NEUTRAL_INVESTOR + k);
    g->st.loc[c].invested = from_supply + from_reserve;
    g->st.neutral[k] = (int16_t)c;
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
        return luaL_error(L, "game.market_discard: %s is not in the Market", foh_lua_engine_of(L)->cs->card[c].id);
    int under = foh_market_release(g, c);
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
    if (g->turn_starting)
        return luaL_error(L, "game.grant_action: not at the start of a turn: the bonus action follows an action, "
                             "and the turn's own action has not been taken yet");
    if (g->in_cleanup)
        return luaL_error(L, "game.grant_action: not in the Cleanup phase: the turn's action is over (grant it "
                             "during the action, or in a before_action or after_action hook)");
    static const char *const kinds[] = {"invest", "complete", "snipe", "activate", "harvest", NULL};
    unsigned mask = 0;
    lua_Integer n = luaL_len(L, 2);
    charge_list(L, n);
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
        return luaL_error(L, "game.to_box: %s is not in a Nation", foh_lua_engine_of(L)->cs->card[c].id);
    foh_nation_remove(g, c);
    g->st.loc[c].zone = FOH_ZONE_BOX;
    foh_log(g, "  %s returns to the box", foh_card_name(g, c));
    return 0;
}

/* game.fire(event, fields [, check]): fire an event game.yaml declares
 * (`events`) with the table FIELDS; every reaction sees, and may change,
 * the table, which is returned (scripts/API.md, "Events"). CHECK(fields),
 * if given, runs after each reaction, so that a reaction that breaks the
 * table is the one named in the error. */
static int by_text(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The check every reaction of a fired event passes: it sets no field the
 * event's table did not have when fired (a misspelt `ev.defense` would
 * otherwise be ignored, issue 30), then the firer's own check. Upvalues:
 * the set of the fields' names, the firer's check or nil. Its error is
 * reported as the reaction's, naming its card and script line. */
static int check_fields(lua_State *L)
{
    const char *bad = NULL;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        int known = 0;
        if (lua_type(L, -1) == LUA_TSTRING) {
            lua_pushvalue(L, -1);
            known = lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL;
            lua_pop(L, 1);
        }
        /* the first in byte order: the same message whatever the table's order */
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(not a name)";
        if (!known && (!bad || strcmp(k, bad) < 0))
            bad = k;
    }
    if (bad) {
        const char *names[32];
        int n = 0;
        lua_pushnil(L);
        while (lua_next(L, lua_upvalueindex(1)) && n < 32) {
            lua_pop(L, 1);
            names[n++] = lua_tostring(L, -1);
        }
        qsort(names, (size_t)n, sizeof names[0], by_text);
        char list[600] = "";
        for (int i = 0; i < n; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
        const char *meant = foh_error_suggest(bad, names, n);
        if (meant)
            return luaL_error(L, "sets the field '%s', which this event does not have (did you mean '%s'? its "
                                 "fields: %s)", bad, meant, list);
        return luaL_error(L, "sets the field '%s', which this event does not have (its fields: %s)", bad, list);
    }
    if (!lua_isnil(L, lua_upvalueindex(2))) {
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_pushvalue(L, 1);
        lua_call(L, 1, 0);
    }
    return 0;
}

static int api_fire(lua_State *L)
{
    foh_game *g = game_of(L);
    foh_engine *e = foh_lua_engine_of(L);
    writable(L);
    const foh_cardset *cs = e->cs;
    const char *name = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    int check = !lua_isnoneornil(L, 3);
    if (check)
        luaL_checktype(L, 3, LUA_TFUNCTION);
    int ev = name_index(name, e->event_name, cs->event[0], sizeof cs->event[0], cs->nevents);
    if (ev < 0)
        return luaL_error(L, "game.fire: unknown event '%s' (declare it in game.yaml's events)", name);
    if (ev < FOH_EV_BUILTIN)
        return luaL_error(L, "game.fire: '%s' is one of the engine's events: only the engine fires it", name);
    lua_settop(L, 3);
    lua_pushvalue(L, 1);
    lua_setfield(L, 2, "name");
    if (FOH_EVENT_WANTED(cs, ev)) {
        lua_newtable(L); /* 4: the fields' names */
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_pushboolean(L, 1);
            lua_rawset(L, 4);
        }
        lua_pushvalue(L, 3); /* the firer's check, or nil */
        lua_pushcclosure(L, check_fields, 2);
        foh_error err;
        raise_status(L, foh_lua_dispatch(g, ev, 2, 4, &err), &err);
    }
    lua_settop(L, 2);
    return 1;
}

/* game.reacts(event): whether anything of the card set (a variant's
 * reaction or a card's `on` field) reacts to EVENT (the engine's or a
 * declared one), wherever it is: when nothing does, game.fire would return
 * its table unchanged, so a script may skip making it. A fact of the card
 * set, not of the game: nothing is read (memo.h). */
static int api_reacts(lua_State *L)
{
    foh_engine *e = foh_lua_engine_of(L);
    game_reading(L);
    const foh_cardset *cs = e->cs;
    const char *name = luaL_checkstring(L, 1);
    int ev = name_index(name, e->event_name, cs->event[0], sizeof cs->event[0], cs->nevents);
    if (ev < 0)
        return luaL_error(L, "game.reacts: unknown event '%s' (declare it in game.yaml's events)", name);
    lua_pushboolean(L, FOH_EVENT_WANTED(cs, ev));
    return 1;
}

/* Push the investment on Market card C: {card, tokens, investor | neutral}. */
static void push_investment(lua_State *L, const foh_game *g, int c)
{
    int q = g->st.loc[c].investor;
    lua_createtable(L, 0, 3);
    push_card(L, c);
    lua_setfield(L, -2, "card");
    lua_pushinteger(L, g->st.loc[c].invested);
    lua_setfield(L, -2, "tokens");
    lua_pushinteger(L, q >= FOH_NEUTRAL_INVESTOR ? q - FOH_NEUTRAL_INVESTOR + 1 : q + 1);
    lua_setfield(L, -2, q >= FOH_NEUTRAL_INVESTOR ? "neutral" : "investor");
}

/* game.investments(): every Market card with an investor, in Market order,
 * as {card, tokens, investor (a player) | neutral (a neutral marker)}. */
static int api_investments(lua_State *L)
{
    foh_game *g = game_of(L);
    int n = 0;
    lua_newtable(L);
    for (int i = 0; i < g->st.nmarket; i++) {
        int c = g->st.market[i];
        if (g->st.loc[c].investor < 0)
            continue;
        push_investment(L, g, c);
        foh_lua_readonly(L, -1, "an investment");
        lua_rawseti(L, -2, ++n);
    }
    foh_lua_readonly(L, -1, "game.investments()");
    return 1;
}

/* game.investment(player): the player's investment {card, tokens,
 * investor}, or nil. */
static int api_investment(lua_State *L)
{
    foh_game *g = game_of(L);
    int p = player_arg(L, 1), c = g->st.investment[p];
    if (c < 0) {
        lua_pushnil(L);
        return 1;
    }
    push_investment(L, g, c);
    foh_lua_readonly(L, -1, "game.investment()");
    return 1;
}

/* game.move_investment(from, to): the investment on Market card FROM (its
 * marker, a player's or a neutral one, and the tokens under it) moves to
 * TO, a Market card without investor (issue 30: "move your investment to
 * another Market card"). */
static int api_move_investment(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int from = card_arg(L, 1), to = card_arg(L, 2);
    const foh_cardset *cs = foh_lua_engine_of(L)->cs;
    foh_card_loc *a = &g->st.loc[from], *b = &g->st.loc[to];
    if (a->zone != FOH_ZONE_MARKET || a->investor < 0)
        return luaL_error(L, "game.move_investment: %s is not a Market card with an investor", cs->card[from].id);
    if (b->zone != FOH_ZONE_MARKET || b->investor >= 0)
        return luaL_error(L, "game.move_investment: %s is not a non-invested Market card", cs->card[to].id);
    int q = a->investor;
    b->investor = a->investor;
    b->invested = a->invested;
    a->investor = -1;
    a->invested = 0;
    if (q >= FOH_NEUTRAL_INVESTOR)
        g->st.neutral[q - FOH_NEUTRAL_INVESTOR] = (int16_t)to;
    else
        g->st.investment[q] = (int16_t)to;
    if (q >= FOH_NEUTRAL_INVESTOR)
        foh_log(g, "  neutral investor %d's investment (%d tokens) moves from %s to %s", q - FOH_NEUTRAL_INVESTOR + 1,
                b->invested, foh_card_name(g, from), foh_card_name(g, to));
    else
        foh_log(g, "  P%d's investment (%d tokens) moves from %s to %s", q + 1, b->invested, foh_card_name(g, from),
                foh_card_name(g, to));
    return 0;
}

/* game.withdraw_investment(card, to): the investment on Market card CARD
 * is taken off: its marker comes back to its investor and the tokens under
 * it go TO: "supply", "reserve" or a player (1..players). Returns the
 * tokens moved. */
static int api_withdraw_investment(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    int c = card_arg(L, 1);
    const foh_cardset *cs = foh_lua_engine_of(L)->cs;
    if (g->st.loc[c].zone != FOH_ZONE_MARKET || g->st.loc[c].investor < 0)
        return luaL_error(L, "game.withdraw_investment: %s is not a Market card with an investor", cs->card[c].id);
    int to = -3; /* -1 the Supply, -2 the Reserve, else a player */
    if (lua_type(L, 2) == LUA_TSTRING && !strcmp(lua_tostring(L, 2), "supply"))
        to = -1;
    else if (lua_type(L, 2) == LUA_TSTRING && !strcmp(lua_tostring(L, 2), "reserve"))
        to = -2;
    else if (lua_isinteger(L, 2))
        to = player_arg(L, 2);
    else
        return luaL_error(L, "game.withdraw_investment: where the tokens go must be 'supply', 'reserve' or a "
                             "player (1 to %d)", g->st.players);
    int under = foh_market_release(g, c);
    if (to == -1)
        g->st.supply += under;
    else if (to == -2)
        g->st.reserve += under;
    else
        g->st.tokens[to] += under;
    char where[32];
    if (to >= 0)
        snprintf(where, sizeof where, "P%d", to + 1);
    else
        snprintf(where, sizeof where, "the %s", to == -1 ? "Supply" : "Reserve");
    foh_log(g, "  the investment on %s is withdrawn: its %d tokens go to %s", foh_card_name(g, c), under, where);
    lua_pushinteger(L, under);
    return 1;
}

/* game.market_size(): the cards the Cleanup phase fills the Market to now
 * (setup.market_size, what scripts changed, the active cards' market_size). */
static int api_market_size(lua_State *L)
{
    lua_pushinteger(L, foh_market_capacity(game_of(L)));
    return 1;
}

/* game.change_market_size(n): the Market size changes by N cards (may be
 * negative) for the rest of the game. The rule's number may not go below 0
 * nor leave less room than the cards' market_size could take. */
static int api_change_market_size(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    const foh_cardset *cs = foh_lua_engine_of(L)->cs;
    lua_Integer d = luaL_checkinteger(L, 1);
    lua_Integer now = cs->market_size[g->st.players] + g->st.market_delta;
    if (d < -FOH_MAX_MARKET || d > FOH_MAX_MARKET || now + d < 0 || now + d + cs->market_mods_up > FOH_MAX_MARKET)
        return luaL_error(L, "game.change_market_size: the Market size would be %I%s; it may be 0 to %d "
                             "(the engine's limit of %d cards%s)", now + d, cs->market_mods_up ? " before the cards' market_size" : "",
                          FOH_MAX_MARKET - cs->market_mods_up, FOH_MAX_MARKET,
                          cs->market_mods_up ? ", less what the cards' market_size could add" : "");
    g->st.market_delta = (int8_t)(g->st.market_delta + d);
    foh_log(g, "  the Market size is now %d cards", foh_market_capacity(g));
    return 0;
}

/* game.deal_to_market(): the top card of the Civilization deck enters the
 * Market (beyond its size; The Future ends the game as when it is dealt).
 * Returns its id, or nil if the deck is empty. */
static int api_deal_to_market(lua_State *L)
{
    foh_game *g = game_of(L);
    writable(L);
    if (g->st.nmarket >= FOH_MAX_MARKET)
        return luaL_error(L, "game.deal_to_market: the Market holds %d cards, the engine's limit", FOH_MAX_MARKET);
    int c = foh_deck_draw(g);
    if (c < 0) {
        lua_pushnil(L);
        return 1;
    }
    foh_market_add(g, c);
    push_card(L, c);
    return 1;
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
    {"active_with", api_active_with},
    {"has_active", api_has_active},
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
    {"fire", api_fire},
    {"reacts", api_reacts},
    {"investments", api_investments},
    {"investment", api_investment},
    {"move_investment", api_move_investment},
    {"withdraw_investment", api_withdraw_investment},
    {"market_size", api_market_size},
    {"change_market_size", api_change_market_size},
    {"deal_to_market", api_deal_to_market},
    {NULL, NULL},
};

void foh_lua_push_api(lua_State *L) { luaL_newlib(L, game_api); }

int foh_lua_read_icons(lua_State *L, int idx, const foh_cardset *cs, int icons[FOH_MAX_ICONS], char *why,
                       size_t whylen)
{
    if (!lua_istable(L, idx)) {
        snprintf(why, whylen, "expected a table of icons, got %s", luaL_typename(L, idx));
        return 0;
    }
    foh_lua_push_real(L, idx); /* a helper's constant table is read-only */
    int t = lua_gettop(L);
    /* One pass; the message names the same bad entry in every run: an
     * unknown key by the first in byte order (lua_next's order follows the
     * string hashes of the process), else a bad count by the vocabulary's
     * order. */
    char unknown[64] = "";
    int bad_key = 0, bad_count = cs->nicons, sum[FOH_MAX_ICONS] = {0};
    lua_pushnil(L);
    while (lua_next(L, t)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        int ic = lua_type(L, -2) == LUA_TSTRING ? icon_index(foh_lua_engine_of(L), k) : -1;
        if (ic < 0 && (!bad_key || strcmp(k, unknown) < 0)) {
            snprintf(unknown, sizeof unknown, "%s", k);
            bad_key = 1;
        } else if (ic >= 0 && (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0 ||
                               lua_tointeger(L, -1) > FOH_MAX_ICON_COUNT)) {
            bad_count = ic < bad_count ? ic : bad_count;
        } else if (ic >= 0) {
            sum[ic] = (int)lua_tointeger(L, -1);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, t - 1);
    if (bad_key) {
        const char *names[FOH_MAX_ICONS];
        char hint[500];
        for (int i = 0; i < cs->nicons; i++)
            names[i] = cs->icon[i];
        foh_error_hint(hint, sizeof hint, unknown, "icons", names, cs->nicons);
        snprintf(why, whylen, "unknown icon '%s' in an icon table%s", unknown, hint);
        return 0;
    }
    if (bad_count < cs->nicons) {
        snprintf(why, whylen, "icon '%s': the count must be a whole number from 0 to %d", cs->icon[bad_count],
                 FOH_MAX_ICON_COUNT);
        return 0;
    }
    for (int ic = 0; ic < cs->nicons; ic++)
        icons[ic] += sum[ic];
    return 1;
}

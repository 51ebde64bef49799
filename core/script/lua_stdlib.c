/* lua_stdlib: the standard library as scripts see it (see sandbox.h).
 *
 * Lua's count hook only counts VM instructions: time spent inside a C
 * library function is invisible to it, so `string.rep('', 1e12)` or
 * `table.move({}, 1, 1e12, 2)` would run for hours on one instruction. Every
 * library function offered to scripts is therefore bounded: it charges the
 * work it does (foh_lua_charge, one unit ~ one instruction; bytes at
 * FOH_LUA_BYTES_PER_UNIT a unit) before doing it when the arguments tell
 * (rep, move), after it from the size of its results otherwise, and
 * pattern matching charges each step (lua_pattern.c). Functions that could
 * reveal a memory address (tostring of a table, string.format's %p) never
 * do: the same seed must give the same game in every process. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <string.h>

#include "sandbox.h"

/* Library calls that call back into Lua (gsub, sort) may nest this deep:
 * deeper, the C stack itself would overflow, with no line to report. */
#define MAX_LIB_DEPTH 50

/* The longest text load() compiles (64 KiB, as a card's effect). */
#define LOAD_MAX_BYTES (64 << 10)

/* The library function a wrapper stands for (its upvalue 1), run in the
 * wrapper's own frame: the standard functions use no upvalues of their own. */
static int original(lua_State *L) { return lua_tocfunction(L, lua_upvalueindex(1))(L); }

static long bytes(size_t n) { return (long)(n / FOH_LUA_BYTES_PER_UNIT); }

/* Run the original, then charge one unit per result and the bytes of the
 * string results. */
static int charge_results(lua_State *L, int nres)
{
    long units = nres;
    for (int i = lua_gettop(L) - nres + 1; i <= lua_gettop(L); i++)
        if (lua_type(L, i) == LUA_TSTRING)
            units += bytes(lua_rawlen(L, i));
    foh_lua_charge(L, units);
    return nres;
}

static int by_results(lua_State *L) { return charge_results(L, original(L)); }

/* The length of string argument 1, charged before the work (per byte at
 * DIVISOR bytes a unit). */
static int by_length(lua_State *L, long divisor)
{
    size_t len = 0;
    if (lua_type(L, 1) == LUA_TSTRING)
        lua_tolstring(L, 1, &len);
    foh_lua_charge(L, 1 + (long)(len / (size_t)divisor));
    return original(L);
}

static int by_bytes(lua_State *L) { return by_length(L, FOH_LUA_BYTES_PER_UNIT); }
/* Functions that decode characters one by one. */
static int by_chars(lua_State *L) { return by_length(L, 8); }

/* string.pack and unpack: their work follows the format (argument 1),
 * charged first, then what they return. */
static int by_format(lua_State *L)
{
    size_t len = 0;
    if (lua_type(L, 1) == LUA_TSTRING)
        lua_tolstring(L, 1, &len);
    foh_lua_charge(L, 1 + (long)(len / 8));
    return charge_results(L, original(L));
}

static int by_arguments(lua_State *L)
{
    foh_lua_charge(L, lua_gettop(L));
    return original(L);
}

/* A count of N items, charged before they are made; a count that would not
 * even fit is refused the same way. */
static void charge_count(lua_State *L, lua_Number n)
{
    foh_lua_charge(L, n <= 0 ? 0 : n >= 1e15 ? 1000000000000000L : (long)n);
}

static int str_rep(lua_State *L)
{
    size_t l, lsep = 0;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0)
        return original(L);
    foh_lua_memory_limit(L, (double)n * (double)(l + lsep));
    /* rep('', 1e12) builds nothing but loops 1e12 times: count the copies. */
    charge_count(L, (lua_Number)n * (1.0 + (double)(l + lsep) / FOH_LUA_BYTES_PER_UNIT));
    return original(L);
}

static int tab_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    if (e >= f)
        charge_count(L, (lua_Number)e - (lua_Number)f + 1);
    return original(L);
}

/* The original, counted as one more library call that may call back into
 * Lua (an error unwinds past the decrement: the count restarts with each
 * outermost call). */
static int nested(lua_State *L)
{
    foh_sandbox *sb = foh_lua_sandbox_of(L);
    if (++sb->lib_depth > MAX_LIB_DEPTH)
        return luaL_error(L, "library calls nested more than %d deep (a function given to gsub calling them "
                             "again)",
                          MAX_LIB_DEPTH);
    int nres = original(L);
    sb->lib_depth--;
    return nres;
}

/* insert and remove shift the elements after the position. */
static int tab_shift(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    charge_count(L, (lua_Number)luaL_len(L, 1) + 1);
    return original(L);
}

/* table.concat(t, sep, i, j): i and j follow the separator. */
static int tab_concat(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    lua_Integer j = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
    if (j >= i)
        charge_count(L, (lua_Number)j - (lua_Number)i + 1);
    return charge_results(L, original(L));
}

/* table.unpack(t, i, j). */
static int tab_unpack(lua_State *L)
{
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer j = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
    if (j >= i)
        charge_count(L, (lua_Number)j - (lua_Number)i + 1);
    return original(L);
}

/* The iterator of utf8.codes (upvalue 1: Lua's): called by hand with a
 * position in a run of continuation bytes, it skips the whole run in one
 * call. Count the run before it does. */
static int codes_step(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_optinteger(L, 2, 0);
    size_t i = n > 0 ? (size_t)n : 0, from = i;
    while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80)
        i++;
    foh_lua_charge(L, 1 + (long)((i - from) / 8));
    return original(L);
}

/* utf8.codes(s [, lax]): Lua's result, with its iterator counted. */
static int utf8_codes(lua_State *L)
{
    int nres = original(L);
    if (nres >= 1 && lua_tocfunction(L, -nres)) {
        lua_pushvalue(L, -nres);
        lua_pushcclosure(L, codes_step, 1);
        lua_replace(L, -nres - 1);
    }
    return nres;
}

void foh_lua_tostring(lua_State *L, int idx)
{
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
    case LUA_TSTRING:
    case LUA_TBOOLEAN:
    case LUA_TNIL:
        luaL_tolstring(L, idx, NULL); /* no metamethod: none of these has one */
        break;
    default: /* "table: 0x55d0..." would differ from process to process */
        lua_pushstring(L, luaL_typename(L, idx));
    }
}

static int base_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    foh_lua_tostring(L, 1);
    return 1;
}

/* string.format without %p, and %s of a table shows "table", not where it is. */
static int str_format(lua_State *L)
{
    size_t len;
    const char *fmt = luaL_checklstring(L, 1, &len), *end = fmt + len;
    int arg = 1;
    for (const char *p = fmt; p < end; p++) {
        if (*p != '%')
            continue;
        if (++p < end && *p == '%')
            continue;
        while (p < end && strchr("-+ #0123456789.", *p))
            p++;
        if (p >= end)
            break; /* the original reports the malformed format */
        arg++;
        if (*p == 'p')
            return luaL_error(L, "string.format: '%%p' is not available to scripts (it shows a memory address)");
        if (*p == 's' && arg <= lua_gettop(L) && !lua_isstring(L, arg) && !lua_isnoneornil(L, arg) &&
            lua_type(L, arg) != LUA_TBOOLEAN) {
            foh_lua_tostring(L, arg);
            lua_replace(L, arg);
        }
    }
    foh_lua_charge(L, 1 + bytes(len));
    return charge_results(L, original(L));
}

/* rawget and rawlen of a read-only table see the table behind it. */
static int base_rawget(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    foh_lua_push_real(L, 1);
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    return 1;
}

static int base_rawlen(lua_State *L)
{
    int t = lua_type(L, 1);
    luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
    foh_lua_push_real(L, 1);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
}

/* load(text [, chunkname [, mode [, env]]]) for scripts: text only (a binary
 * chunk could break the VM), always in the sandbox's environment. Returns
 * the function, or nil and the message, as Lua's load. */
static int base_load(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, "=(load)");
    if (!strncmp(name, "=sandbox", 8)) /* messages and checks treat that chunk as the engine's */
        return luaL_error(L, "load: the chunk name '%s' is the engine's own", name);
    if (!lua_isnoneornil(L, 3) && strcmp(luaL_checkstring(L, 3), "t") != 0)
        return luaL_error(L, "load: scripts may load text chunks only (mode 't')");
    if (!lua_isnoneornil(L, 4))
        return luaL_error(L, "load: chunks always run in the sandbox's environment");
    /* Compiling is one step the count hook cannot interrupt, and crafted
     * constants can make it quadratic: chunks are kept small. */
    if (len > LOAD_MAX_BYTES)
        return luaL_error(L, "load: the text is %I bytes, more than %d (the engine's limit for a chunk)",
                          (lua_Integer)len, LOAD_MAX_BYTES);
    foh_lua_charge(L, 1 + (long)(len / 8)); /* compiling costs about a unit per 8 bytes */
    if (luaL_loadbufferx(L, text, len, name, "t") != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_ENV_KEY);
    lua_setupvalue(L, -2, 1);
    return 1;
}

typedef struct {
    const char *name;
    lua_CFunction wrap; /* NULL: offered as it is (constant time) */
} entry;

/* Replace the functions of the library table at the top of the stack that
 * LIST names by their wrappers; every other function of it is dropped, so
 * that nothing unbounded is offered by accident. */
static void bound_library(lua_State *L, const entry *list, size_t n)
{
    int lib = lua_gettop(L);
    lua_newtable(L);
    for (size_t i = 0; i < n; i++) {
        lua_getfield(L, lib, list[i].name);
        if (list[i].wrap && lua_tocfunction(L, -1))
            lua_pushcclosure(L, list[i].wrap, 1);
        lua_setfield(L, -2, list[i].name);
    }
    /* Keep the library's own table (strings' methods use it), emptied. */
    lua_pushnil(L);
    while (lua_next(L, lib)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, lib);
    }
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, lib);
    }
    lua_pop(L, 1);
}

/* Scripts get a copy of the library table at the top of the stack, set as
 * global NAME in the table at GLOBALS (made read-only with the others); the
 * library's own table stays behind strings' methods ("x"):rep(). */
static void publish(lua_State *L, int globals, const char *name)
{
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
    lua_setfield(L, globals, name);
    lua_pop(L, 1);
}

void foh_lua_open_stdlib(lua_State *L)
{
    int globals = lua_gettop(L);
    luaL_openlibs(L);

    static const entry string_lib[] = {
        {"byte", by_results},   {"char", by_arguments}, {"format", str_format}, {"len", NULL},
        {"lower", by_bytes},    {"upper", by_bytes},     {"reverse", by_bytes},  {"rep", str_rep},
        {"sub", by_results},    {"pack", by_format},     {"packsize", by_chars},  {"unpack", by_format},
        {"find", NULL},         {"match", NULL},         {"gmatch", NULL},       {"gsub", NULL},
    };
    static const entry table_lib[] = {
        {"concat", tab_concat}, {"insert", tab_shift}, {"remove", tab_shift}, {"move", tab_move},
        {"pack", by_arguments}, {"unpack", tab_unpack},
        {"sort", NULL}, /* replaced by core/script/sandbox.lua's merge sort */
    };
    static const entry utf8_lib[] = {
        {"char", by_arguments}, {"charpattern", NULL}, {"codes", utf8_codes},
        {"codepoint", by_results}, {"len", by_chars}, {"offset", by_chars},
    };
    static const struct {
        const char *name;
        const entry *list;
        size_t n;
    } libs[] = {
        {"string", string_lib, sizeof string_lib / sizeof string_lib[0]},
        {"table", table_lib, sizeof table_lib / sizeof table_lib[0]},
        {"utf8", utf8_lib, sizeof utf8_lib / sizeof utf8_lib[0]},
    };
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        lua_getglobal(L, libs[i].name);
        bound_library(L, libs[i].list, libs[i].n);
        if (!strcmp(libs[i].name, "string")) {
            foh_lua_pattern_install(L, -1);
            lua_getfield(L, -1, "gsub");
            lua_pushcclosure(L, nested, 1);
            lua_setfield(L, -2, "gsub");
        }
        publish(L, globals, libs[i].name);
    }

    /* math: every function takes constant time; random is the game's
     * (game.random), seeded with the game. */
    lua_getglobal(L, "math");
    lua_pushnil(L);
    lua_setfield(L, -2, "random");
    lua_pushnil(L);
    lua_setfield(L, -2, "randomseed");
    publish(L, globals, "math");

    /* Base functions: constant time, or wrapped. No next (its order depends
     * on string hashing), no print, no getmetatable/setmetatable, rawset,
     * pcall, collectgarbage, dofile, require, coroutines. */
    static const entry base_lib[] = {
        {"assert", NULL}, {"error", NULL},   {"ipairs", NULL},   {"select", NULL},  {"type", NULL},
        {"rawequal", NULL}, {"tonumber", by_bytes},
    };
    for (size_t i = 0; i < sizeof base_lib / sizeof base_lib[0]; i++) {
        lua_getglobal(L, base_lib[i].name);
        if (base_lib[i].wrap)
            lua_pushcclosure(L, base_lib[i].wrap, 1);
        lua_setfield(L, globals, base_lib[i].name);
    }
    static const luaL_Reg replaced[] = {
        {"tostring", base_tostring}, {"rawget", base_rawget}, {"rawlen", base_rawlen}, {"load", base_load},
        {NULL, NULL},
    };
    lua_pushvalue(L, globals);
    luaL_setfuncs(L, replaced, 0);
    lua_pop(L, 1);
}

/* lua_freeze: read-only tables, and no state kept between calls (see
 * sandbox.h).
 *
 * A game must be the same whatever ran before it on the same engine, and a
 * bot's look-ahead must not change the game it looks at: scripts may keep
 * nothing from one call to the next. Once loading ends, the only places a
 * value can outlive a call are the tables and functions the scripts left
 * (effect tables, helpers, hooks) and the variables their functions
 * captured. So every such table becomes a read-only proxy (an empty table
 * whose metatable reads the real one and refuses writes), and every such
 * function whose code writes to a captured variable is refused at load
 * (lua_upvalues.c reads its bytecode). A table made during a call can then
 * be stored nowhere that outlives the call. */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "sandbox.h"
#include "lua_upvalues.h"

#define MAX_DEPTH 200 /* nesting of the tables and functions a freeze walks */

/* __newindex of a proxy: every write is refused, naming the table. */
static int proxy_newindex(lua_State *L)
{
    char key[80];
    if (lua_type(L, 2) == LUA_TSTRING)
        snprintf(key, sizeof key, ".%.70s", lua_tostring(L, 2));
    else if (lua_isinteger(L, 2))
        snprintf(key, sizeof key, "[%lld]", (long long)lua_tointeger(L, 2));
    else
        snprintf(key, sizeof key, "[%s key]", luaL_typename(L, 2));
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "foh_name");
    return luaL_error(L, "cannot change %s%s: tables shared by scripts are read-only (scripts keep no state between "
                         "calls)",
                      lua_tostring(L, -1), key);
}

/* __len of a proxy: the length of the table behind it. */
static int proxy_len(lua_State *L)
{
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "__index");
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
}

/* Push a proxy's metatable: writes refused naming NAME, the metatable
 * hidden; its __index and __len are the caller's. */
static void push_proxy_metatable(lua_State *L, const char *name)
{
    lua_createtable(L, 0, 5);
    lua_pushcfunction(L, proxy_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "foh_name");
}

void foh_lua_readonly(lua_State *L, int idx, const char *name)
{
    idx = lua_absindex(L, idx);
    lua_createtable(L, 0, 0);
    push_proxy_metatable(L, name);
    lua_pushvalue(L, idx);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, proxy_len);
    lua_setfield(L, -2, "__len");
    lua_setmetatable(L, -2);
    /* real_of[proxy] = table: pairs, rawget and the engine see through. */
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_REAL_KEY);
    lua_pushvalue(L, -2);
    lua_pushvalue(L, idx);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    lua_replace(L, idx);
}

/* __index and __len of the lists the API returns (upvalue 1: real_of). */
static int list_index(lua_State *L)
{
    lua_pushvalue(L, 1);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TTABLE)
        return 0;
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    return 1;
}

static int list_len(lua_State *L)
{
    lua_pushvalue(L, 1);
    lua_rawget(L, lua_upvalueindex(1));
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
}

void foh_lua_readonly_list(lua_State *L, int idx, const char *name)
{
    idx = lua_absindex(L, idx);
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_REAL_KEY);
    int real_of = lua_gettop(L);
    lua_createtable(L, 0, 0);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, name) != LUA_TTABLE) {
        lua_pop(L, 1);
        push_proxy_metatable(L, name);
        lua_pushvalue(L, real_of);
        lua_pushcclosure(L, list_index, 1);
        lua_setfield(L, -2, "__index");
        lua_pushvalue(L, real_of);
        lua_pushcclosure(L, list_len, 1);
        lua_setfield(L, -2, "__len");
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, name);
    }
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_pushvalue(L, idx);
    lua_rawset(L, real_of);
    lua_replace(L, idx);
    lua_pop(L, 1);
}

void foh_lua_push_real(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    /* A proxy has a metatable; a table a script made has none (scripts
     * cannot set one): no lookup for it. */
    if (lua_type(L, idx) == LUA_TTABLE && lua_getmetatable(L, idx)) {
        lua_pop(L, 1);
        lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_REAL_KEY);
        lua_pushvalue(L, idx);
        if (lua_rawget(L, -2) == LUA_TTABLE) {
            lua_remove(L, -2);
            return;
        }
        lua_pop(L, 2);
    }
    lua_pushvalue(L, idx);
}

/* One freeze: the sandbox, what is frozen (for messages) and the table of
 * functions already checked during it. */
typedef struct {
    foh_sandbox *sb;
    const char *who;
    foh_error *err;
    int seen; /* stack index of {function = true} */
} walk;

static int freeze_value(walk *w, const char *name, int depth);

static int refuse(walk *w, const char *what)
{
    foh_error_set(w->err, FOH_ERR_DATA, "%s: %s", w->who, what);
    return 0;
}

/* Freeze the fields of table T (absolute index), named NAME. */
static int freeze_fields(walk *w, int t, const char *name, int depth)
{
    lua_State *L = w->sb->L;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        char field[160];
        if (lua_type(L, -2) == LUA_TSTRING)
            snprintf(field, sizeof field, "%s.%.60s", name, lua_tostring(L, -2));
        else
            snprintf(field, sizeof field, "%s[%lld]", name, (long long)lua_tointeger(L, -2));
        if (!freeze_value(w, field, depth + 1))
            return 0;
        /* Changing the value of an existing field is allowed during next. */
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, t);
        /* A table or function used as a key is frozen too (not replaced). */
        if (lua_type(L, -1) == LUA_TTABLE || lua_type(L, -1) == LUA_TFUNCTION) {
            lua_pushvalue(L, -1);
            if (!freeze_value(w, name, depth + 1))
                return 0;
            lua_pop(L, 1);
        }
    }
    return 1;
}

/* Check Lua function F (absolute index) and freeze what it captured. */
static int freeze_function(walk *w, int f, int depth)
{
    lua_State *L = w->sb->L;
    lua_Debug ar;
    lua_pushvalue(L, f);
    lua_getinfo(L, ">S", &ar);
    if (!strcmp(ar.source, "=sandbox")) {
        /* The sandbox's own Lua: pairs and sort keep nothing, but an
         * iterator pairs returned while loading would hand out the next key
         * at each later call. */
        lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_OWN_KEY);
        lua_pushvalue(L, f);
        int own = lua_rawget(L, -2) != LUA_TNIL;
        lua_pop(L, 2);
        return own || refuse(w, "keeps an iterator made by pairs while loading (it would carry its position "
                                "between calls): call pairs inside the function");
    }
    lua_pushvalue(L, f);
    if (lua_rawget(L, w->seen) != LUA_TNIL) {
        lua_pop(L, 1);
        return 1;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, f);
    lua_pushboolean(L, 1);
    lua_rawset(L, w->seen);

    foh_lua_upwrite up;
    char why[200], msg[600];
    lua_pushvalue(L, f);
    int found = foh_lua_find_upvalue_write(L, &up, why, sizeof why);
    lua_pop(L, 1);
    /* Reading the code is work: many closures of a huge function would
     * otherwise take minutes, outside every limit. */
    foh_lua_charge(L, 1 + (long)(up.bytes / FOH_LUA_BYTES_PER_UNIT));
    if (found < 0) {
        snprintf(msg, sizeof msg, "cannot check a function for state kept between calls: %s", why);
        return refuse(w, msg);
    }
    if (found > 0) {
        foh_error_set(w->err, FOH_ERR_DATA,
                      "%s:%d: %s: writes to '%s', a variable that outlives the call (scripts keep no state between "
                      "calls: declare it local inside the function)",
                      up.source, up.line, w->who, up.name);
        return 0;
    }
    for (int n = 1;; n++) {
        const char *uname = lua_getupvalue(L, f, n);
        if (!uname)
            break;
        int t = lua_type(L, -1);
        char label[80];
        snprintf(label, sizeof label, "%.60s", uname[0] ? uname : "?");
        if ((t == LUA_TTABLE || t == LUA_TFUNCTION) && !freeze_value(w, label, depth + 1))
            return 0;
        if (t == LUA_TTABLE)
            lua_setupvalue(L, f, n); /* the proxy, for every closure sharing the variable */
        else
            lua_pop(L, 1);
    }
    return 1;
}

/* A C function at V: the library's functions keep nothing, but the
 * iterator string.gmatch returns holds its position in a userdata. */
static int check_c_function(walk *w, int v)
{
    lua_State *L = w->sb->L;
    for (int n = 1; lua_getupvalue(L, v, n); n++) {
        int t = lua_type(L, -1);
        lua_pop(L, 1);
        if (t == LUA_TUSERDATA)
            return refuse(w, "keeps an iterator made by string.gmatch while loading (it would carry its position "
                             "between calls): call string.gmatch inside the function");
    }
    return 1;
}

/* Freeze the value at the top of the stack, replacing it by its frozen
 * version (a proxy for a table). */
static int freeze_value(walk *w, const char *name, int depth)
{
    lua_State *L = w->sb->L;
    int v = lua_gettop(L);
    if (depth > MAX_DEPTH) {
        char msg[120];
        snprintf(msg, sizeof msg, "tables and functions nested more than %d levels deep", MAX_DEPTH);
        return refuse(w, msg);
    }
    if (!lua_checkstack(L, 8))
        return refuse(w, "out of memory");
    foh_lua_charge(L, 1);
    if (lua_type(L, v) == LUA_TFUNCTION)
        return lua_iscfunction(L, v) ? check_c_function(w, v) : freeze_function(w, v, depth);
    if (lua_type(L, v) != LUA_TTABLE)
        return 1;
    /* Already a proxy, already frozen, or the globals (frozen their way). */
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_REAL_KEY);
    lua_pushvalue(L, v);
    int is_proxy = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 2);
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_ENV_KEY);
    int is_env = lua_rawequal(L, -1, v);
    lua_pop(L, 1);
    if (is_proxy || is_env)
        return 1;
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_PROXY_KEY);
    lua_pushvalue(L, v);
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_replace(L, v);
        lua_pop(L, 1);
        return 1;
    }
    lua_pop(L, 2);
    /* Fields first (a cycle meets the proxy below only once it exists:
     * record it before walking). */
    lua_pushvalue(L, v);
    foh_lua_readonly(L, -1, name);
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_PROXY_KEY);
    lua_pushvalue(L, v);
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    if (!freeze_fields(w, v, name, depth))
        return 0;
    lua_replace(L, v);
    return 1;
}

foh_status foh_lua_freeze(foh_sandbox *sb, const char *who, const char *name, foh_error *err)
{
    lua_State *L = sb->L;
    /* Freezing runs under the limits of a call (load_protected catches
     * them): its work grows with what the script left. */
    foh_lua_limits_start(sb);
    int top = lua_gettop(L);
    lua_newtable(L);
    lua_insert(L, top); /* below the value */
    walk w = {.sb = sb, .who = who, .err = err, .seen = top};
    int ok = freeze_value(&w, name, 0);
    foh_lua_watchdog_disarm(sb);
    if (!ok) {
        lua_settop(L, top - 1);
        lua_pushnil(L);
        return FOH_ERR_DATA;
    }
    lua_remove(L, top);
    return FOH_OK;
}

foh_status foh_lua_freeze_selftest(foh_sandbox *sb, foh_error *err)
{
    char why[200];
    sb->instr_left = sb->instr_limit; /* the snippets run with the sandbox's hook */
    if (foh_lua_upvalues_selftest(sb->L, why, sizeof why) != 0)
        return foh_error_set(err, FOH_ERR_SCRIPT,
                             "this Lua build's bytecode cannot be checked for scripts that keep state: %s", why);
    return FOH_OK;
}

foh_status foh_lua_freeze_helpers(foh_sandbox *sb, foh_error *err)
{
    lua_State *L = sb->L;
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_ENV_KEY);
    lua_getmetatable(L, -1);
    lua_getfield(L, -1, "__index");
    int globals = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, globals)) {
        char who[120];
        const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        snprintf(who, sizeof who, "helper '%.80s'", name);
        if (foh_lua_freeze(sb, who, name, err) != FOH_OK) {
            lua_settop(L, globals - 3);
            return FOH_ERR_DATA;
        }
        lua_pushvalue(L, -2); /* the key, then the frozen value: replaced in place */
        lua_insert(L, -2);
        lua_rawset(L, globals);
    }
    lua_settop(L, globals - 3);
    return FOH_OK;
}

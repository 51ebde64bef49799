/* lua_pattern.h: Lua 5.4.4's string pattern matching (string.find,
 * string.match, string.gmatch, string.gsub) with its work charged to the
 * running script's budget, so that a backtracking pattern cannot hang the
 * host inside one C call. */
#ifndef FOH_LUA_PATTERN_H
#define FOH_LUA_PATTERN_H

#include <lua.h>

/* Charge UNITS of work (1 unit ~ one Lua VM instruction) to the running
 * script's budget. Raises a Lua error and does not return when the budget
 * is exhausted. Defined by lua_meter.c, below this module (tests stub it);
 * not part of it. */
void foh_lua_charge(lua_State *L, long units);

/* Replace the fields find, match, gmatch and gsub of the table at stack
 * index IDX with the bounded versions. */
void foh_lua_pattern_install(lua_State *L, int idx);

#endif

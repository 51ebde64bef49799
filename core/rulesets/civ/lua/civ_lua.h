/* civ_lua: the civilization draft's Lua binding (civ_lua.c). */
#ifndef CIV_LUA_H
#define CIV_LUA_H

#include "civ.h"

/* An engine for CS whose Events' effects run in a sandbox with LIMITS
 * (NULL: the defaults): the helper script and every effect compiled now.
 * NULL with ERR naming the file, line and card on a script error. */
civ_engine *civ_lua_engine_new(const civ_set *cs, const foh_script_limits *limits, foh_error *err);
void civ_lua_engine_free(civ_engine *e);

#endif

/* lua_internal: what the files of The Flow of History's Lua binding share
 * (lua_bridge.h is that binding as the rest of the ruleset sees it). The
 * binding is the owner of the platform's script layer (core/script/
 * sandbox.h: the sandboxed state, its limits, freezing), one job per file:
 *   lua_api.c      the `game` API (scripts/API.md)
 *   lua_hooks.c    calls into card effects and variant hooks
 *   native.c       the C fast paths of the effect helpers
 *   lua_engine.c   engine lifetime, loading the scripts, load-time checks,
 *                  and the sandbox's port (the API, the card a call runs)
 * Internal to the ruleset. */
#ifndef FOH_FLOW_LUA_INTERNAL_H
#define FOH_FLOW_LUA_INTERNAL_H

#include <lua.h>
#include <stddef.h>

#include "lua_bridge.h"
#include "sandbox.h"

/* The engine whose sandbox's state L is (foh_engine.sb.owner). */
static inline foh_engine *foh_lua_engine_of(lua_State *L) { return foh_lua_sandbox_of(L)->owner; }

/* Raised (as a light userdata to this byte) when a choice has no answer yet. */
extern const char foh_lua_need_choice_tag;
/* Raised (as a light userdata) when a reaction nested inside a script call
 * failed: its message, already naming the reaction, file and line, waits in
 * the engine's nested_error and reaches the outermost call unwrapped. */
extern const char foh_lua_nested_error_tag;

/* ---- lua_api.c ---- */

/* Push the `game` API table. */
void foh_lua_push_api(lua_State *L);
/* Make each card's id string and game.card() table once (E's card_id_ref,
 * card_info_ref); 0 if out of memory. */
int foh_lua_card_tables(foh_engine *e);
/* Read an icon table {icon = count} (or its read-only proxy) at stack index
 * IDX, adding into ICONS; 0 with WHY set if it is not one. */
int foh_lua_read_icons(lua_State *L, int idx, const foh_cardset *cs, int icons[FOH_MAX_ICONS], char *why,
                       size_t whylen);

#endif

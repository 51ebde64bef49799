/* lua_internal: what the lua_*.c files of core/ share. Together they are the
 * engine's only door to Lua (lua_bridge.h is that door as the rest of core/
 * sees it), one job per file:
 *   lua_sandbox.c  the sandboxed state: allocator, limits, globals, loading
 *                  chunks, protected calls and their error messages
 *   lua_stdlib.c   the standard library offered to scripts, every function
 *                  bounded (with lua_pattern.c for string patterns)
 *   lua_freeze.c   read-only tables, and the refusal of scripts that keep
 *                  state between calls (with lua_upvalues.c)
 *   lua_api.c      the `game` API (scripts/API.md)
 *   lua_hooks.c    calls into card effects and variant hooks
 *   lua_engine.c   engine lifetime, loading the scripts, load-time checks
 * Internal to core/. */
#ifndef FOH_LUA_INTERNAL_H
#define FOH_LUA_INTERNAL_H

#include <lua.h>
#include <stddef.h>

#include "lua_bridge.h"

/* Registry slots of the engine's Lua state. */
#define FOH_LUA_ENV_KEY "foh.env"         /* the sandbox's global table (_ENV of every chunk) */
#define FOH_LUA_REAL_KEY "foh.real_of"    /* read-only proxy -> the table behind it */
#define FOH_LUA_PROXY_KEY "foh.proxy_of"  /* frozen table -> its read-only proxy */
#define FOH_LUA_OWN_KEY "foh.own"         /* {function = true}: pairs and table.sort of core/script/sandbox.lua */

/* Work units charged per byte moved by a library call: one unit is about
 * one Lua VM instruction, and copying 64 bytes costs about as much. */
#define FOH_LUA_BYTES_PER_UNIT 64

/* Raised (as a light userdata to this byte) when a choice has no answer yet. */
extern const char foh_lua_need_choice_tag;
/* Raised (as a light userdata) when a reaction nested inside a script call
 * failed: its message, already naming the reaction, file and line, waits in
 * the engine's nested_error and reaches the outermost call unwrapped. */
extern const char foh_lua_nested_error_tag;

/* ---- lua_sandbox.c ---- */

/* The engine whose state L is (the allocator's user data). */
foh_engine *foh_lua_engine_of(lua_State *L);
/* "file:line" of the innermost running script function (engine code and C
 * functions are skipped), or "" (reads the call stack only: safe inside the
 * allocator). */
void foh_lua_script_where(lua_State *L, char *buf, size_t len);
/* foh_lua_charge (declared in lua_pattern.h): charge UNITS of work (1 unit
 * ~ one Lua VM instruction) to the running call's instruction budget;
 * raises the instruction limit error, naming the script line, when the
 * budget is exhausted. Library functions call it for work the count hook
 * cannot see. */
/* Free the blocks the engine's Lua allocator keeps for reuse (after the
 * Lua state is closed: it frees its blocks into them). */
void foh_lua_pool_free(foh_engine *e);
/* Raise the memory limit error if BYTES more would not fit under the cap
 * (for a library call that knows its result's size before making it). */
void foh_lua_memory_limit(lua_State *L, double bytes);
/* A new sandboxed state for E: allocator with E's memory cap, count hook,
 * the bounded libraries and the `game` API as read-only globals. Helper
 * scripts may then define new globals until foh_lua_seal_globals. 0 if it
 * cannot be built. */
int foh_lua_sandbox_open(foh_engine *e);
/* From now on no script may create a global (replacing one never could). */
void foh_lua_seal_globals(foh_engine *e);
/* Load Lua text SRC as chunk NAME whose first line is line FIRST_LINE of
 * its file, with the sandbox as its _ENV; leaves the function on the stack,
 * or the error message and returns 0. */
int foh_lua_load_chunk(lua_State *L, const char *src, const char *name, int first_line);
/* The watchdog thread of an engine (lua_watchdog.c): started with the
 * engine (0 if it cannot be), stopped with it. Arming it with the deadline
 * of the call in progress (CARD's script, or -1) makes the program stop
 * with a message if one Lua step runs far past that deadline; disarm it
 * when the call returns. */
int foh_lua_watchdog_start(foh_engine *e);
void foh_lua_watchdog_stop(foh_engine *e);
void foh_lua_watchdog_arm(foh_engine *e, int card);
void foh_lua_watchdog_disarm(foh_engine *e);

/* Start the limits of a new call (or of freezing what a script left): the
 * instruction budget, the count hook's count, and outside an action the
 * wall-clock deadline. */
void foh_lua_limits_start(foh_engine *e);
/* lua_pcall with the sandbox's message handler. OUTERMOST starts a new
 * call (foh_lua_limits_start). Returns Lua's status. */
int foh_lua_protected_call(foh_engine *e, int nargs, int nres, int outermost);
/* The message of a failed call (may be formatted into E's buffer). */
const char *foh_lua_error_text(foh_engine *e, int status);

/* ---- lua_stdlib.c ---- */

/* Open the standard libraries in L and replace every function scripts may
 * use by a bounded one (each call charges the work it does); then build in
 * the table at the top of the stack the sandbox's globals: the allowed base
 * functions, string, table, math and utf8 (copies, made read-only later). */
void foh_lua_open_stdlib(lua_State *L);
/* tostring as scripts see it: never an address (pushes the result). */
void foh_lua_tostring(lua_State *L, int idx);

/* ---- lua_pattern.c: see lua_pattern.h ---- */
#include "lua_pattern.h"

/* ---- lua_freeze.c ---- */

/* Replace the table at stack index IDX by a read-only proxy named NAME
 * (for messages: "cannot change NAME.key"); the table itself is not
 * walked. Used for tables the API hands to scripts. */
void foh_lua_readonly(lua_State *L, int idx, const char *name);
/* The table behind the read-only proxy at IDX, or the value itself: pushed. */
void foh_lua_push_real(lua_State *L, int idx);
/* The same as foh_lua_readonly for a list made by an API call: its proxy
 * shares one metatable per NAME (a string literal: its address is the
 * key), so a call makes one table, not three. */
void foh_lua_readonly_list(lua_State *L, int idx, const char *name);
/* Make the value at the top of the stack read-only at every depth: every
 * table reachable from it (through fields and upvalues of functions) is
 * replaced by a read-only proxy, and every function is checked for writes
 * to variables that outlive a call (refused). WHO names the value in
 * errors ("card 'temple'", "helper 'attack'"), NAME in the message of a
 * refused write ("game.effect('temple')"). The value is replaced by its
 * frozen version. FOH_OK or FOH_ERR_DATA with "file:line: WHO: ..." in ERR.
 * The work (values walked, bytes of code read) is charged as a call's;
 * run it inside a protected call: the instruction or time limit, or the
 * memory cap, raises a Lua error. */
foh_status foh_lua_freeze(foh_engine *e, const char *who, const char *name, foh_error *err);
/* Check that this Lua build's bytecode is understood by the upvalue-write
 * analysis (lua_upvalues.c); FOH_ERR_SCRIPT if not. */
foh_status foh_lua_freeze_selftest(foh_engine *e, foh_error *err);

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

/* sandbox: the script layer of the platform, its only door to Lua (see
 * docs/architecture.md). A foh_sandbox is one sandboxed Lua state and its
 * limits. The scripts it runs come from strangers: they see only a bounded
 * standard library and the API of the sandbox's owner, all read-only, and
 * every call is limited three ways: Lua VM instructions (a count hook, to
 * which library calls and allocations charge the work the hook cannot see),
 * bytes held by the state, and wall-clock time.
 *
 * The layer knows no game. Its owner, the layer above (a ruleset's Lua
 * binding), embeds a foh_sandbox and gives it a port (foh_sandbox_port):
 * the API table scripts see and the words that name a running script; from
 * a lua_State it finds itself again as foh_lua_sandbox_of(L)->owner.
 *
 * One job per file, each using only files listed above it (ctest layers
 * checks that they depend on each other in no cycle):
 *   lua_watchdog.c  a thread per sandbox that stops the program when one
 *                   Lua step runs far past the deadline
 *   lua_upvalues.c  writes to variables that outlive a call, found in a
 *                   function's bytecode (lua_upvalues.h)
 *   lua_meter.c     the budget of a call: instructions charged, the memory
 *                   cap, the deadline, the count hook, their messages
 *   lua_pattern.c   string patterns with every step charged (lua_pattern.h)
 *   lua_freeze.c    read-only tables, and the refusal of scripts that keep
 *                   state between calls
 *   lua_stdlib.c    the standard library offered to scripts, every
 *                   function bounded
 *   lua_sandbox.c   the state: allocator, globals, loading chunks,
 *                   protected calls and their error messages
 * Internal to libfoh. */
#ifndef FOH_SANDBOX_H
#define FOH_SANDBOX_H

#include <lua.h>
#include <stddef.h>
#include <stdint.h>

#include "foh/error.h"
#include "lua_pattern.h"

/* Registry slots of a sandbox's Lua state. */
#define FOH_LUA_ENV_KEY "foh.env"         /* the sandbox's global table (_ENV of every chunk) */
#define FOH_LUA_REAL_KEY "foh.real_of"    /* read-only proxy -> the table behind it */
#define FOH_LUA_PROXY_KEY "foh.proxy_of"  /* frozen table -> its read-only proxy */
#define FOH_LUA_OWN_KEY "foh.own"         /* {function = true}: pairs and table.sort of core/script/sandbox.lua */

/* Work units charged per byte moved by a library call: one unit is about
 * one Lua VM instruction, and copying 64 bytes costs about as much. */
#define FOH_LUA_BYTES_PER_UNIT 64

#define FOH_LUA_POOL_STEP 16        /* the Lua allocator's block sizes: multiples of this ... */
#define FOH_LUA_POOL_MAX 256        /* ... up to this many bytes (larger blocks: malloc) */
#define FOH_LUA_POOL_KEEP (1 << 20) /* free blocks kept, in bytes over all classes (more: free()) */

/* The port: what the sandbox needs from its owner, the layer above. */
typedef struct {
    /* The owner's API, pushed by PUSH_API once while the state is built
     * (foh_lua_sandbox_open; the owner is then foh_lua_sandbox_of(L)->owner)
     * and offered to scripts, read-only, as the global API_NAME. */
    const char *api_name;
    void (*push_api)(lua_State *L);
    /* What call ID runs (foh_sandbox.call_id, >= 0), written into BUF (LEN
     * bytes) for the message with which the watchdog stops the program,
     * e.g. "card 'temple'". Runs on the watchdog's thread, just before the
     * program ends: it may read only what stays the same while the sandbox
     * lives. NULL (or a call_id < 0): "a script". */
    void (*describe_call)(const void *owner, int id, char *buf, size_t len);
} foh_sandbox_port;

/* One sandboxed Lua state, its limits and the meter of the call in
 * progress. The owner zeroes it, sets the port, the owner and the limits,
 * then starts the watchdog and opens the state. */
typedef struct foh_sandbox {
    lua_State *L;
    const foh_sandbox_port *port;
    void *owner;                  /* the layer above's object (a ruleset's engine) */
    size_t mem_used, mem_limit;   /* bytes held by the Lua state, its cap */
    /* Free blocks of the Lua allocator, by size class (FOH_LUA_POOL_STEP
     * bytes each step): Lua makes and frees many small objects a call. */
    void *pool[FOH_LUA_POOL_MAX / FOH_LUA_POOL_STEP];
    size_t pool_bytes;            /* held in those lists; at most FOH_LUA_POOL_KEEP */
    long instr_limit, instr_left; /* VM instructions (and library work) per call */
    int64_t time_limit_ns;        /* wall-clock time per call, or per span of calls (foh_lua_span_begin) */
    int64_t deadline_ns;          /* of the span or call in progress; 0: none */
    int in_span;                  /* inside a span: the deadline is the span's, from its first Lua call */
    int hook_every;               /* VM instructions between count-hook calls (fewer for code slow in CPU time) */
    long vm_done;                 /* VM instructions the count hook has seen since the call began */
    int64_t last_hook_ns;         /* when the count hook last ran */
    int64_t cpu_mark_ns;          /* the thread's CPU time then, if read (after a slow interval); 0: not */
    int lib_depth;                /* library calls nested through callbacks (gsub, sort) */
    int protected_depth;          /* protected calls in progress: the memory cap applies only there
                                   * (outside one, a failed allocation would abort the process) */
    long charged;                 /* library work charged since the clock was last read */
    int limits_due;               /* the next Lua call starts the limits, outermost or not */
    int call_id;                  /* what the next call runs, in the owner's numbering (-1: nothing
                                   * named), for the watchdog (foh_sandbox_port.describe_call) */
    struct foh_watchdog *watchdog; /* stops the program if one Lua step runs long past the deadline */
    int sealed;                   /* helpers loaded: no script may create a global */
    long calls;                   /* protected calls into Lua */
    char mem_where[256];          /* script line whose allocation hit the memory cap */
    char errbuf[400];             /* a formatted error message */
} foh_sandbox;

/* The sandbox whose state L is (the allocator's user data). */
static inline foh_sandbox *foh_lua_sandbox_of(lua_State *L)
{
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

/* ---- lua_watchdog.c ---- */

/* The watchdog thread of a sandbox: started before the state is opened (0
 * if it cannot be), stopped when it closes. Arming it with the deadline of
 * the call in progress (running call ID, foh_sandbox.call_id) makes the
 * program stop with a message if one Lua step runs far past that deadline;
 * disarm it when the call returns. */
int foh_lua_watchdog_start(foh_sandbox *sb);
void foh_lua_watchdog_stop(foh_sandbox *sb);
void foh_lua_watchdog_arm(foh_sandbox *sb, int id);
void foh_lua_watchdog_disarm(foh_sandbox *sb);

/* ---- lua_upvalues.c: see lua_upvalues.h ---- */

/* ---- lua_meter.c ---- */

/* "file:line" of the innermost running script function (engine code and C
 * functions are skipped), or "" (reads the call stack only: safe inside the
 * allocator). */
void foh_lua_script_where(lua_State *L, char *buf, size_t len);
/* foh_lua_charge (declared in lua_pattern.h): charge UNITS of work (1 unit
 * ~ one Lua VM instruction) to the running call's instruction budget;
 * raises the instruction limit error, naming the script line, when the
 * budget is exhausted. Library functions call it for work the count hook
 * cannot see. */
/* Raise the memory limit error if BYTES more would not fit under the cap
 * (for a library call that knows its result's size before making it). */
void foh_lua_memory_limit(lua_State *L, double bytes);
/* Set the count hook of SB's state, counting from zero. */
void foh_lua_count_hook_set(foh_sandbox *sb);
/* Start the limits of a new call (or of freezing what a script left): the
 * instruction budget, the count hook's count, and outside a span the
 * wall-clock deadline; arms the watchdog. */
void foh_lua_limits_start(foh_sandbox *sb);
/* A span of calls (an action of a game) starts and ends: every call in it
 * shares one wall-clock deadline, running from its first call. */
void foh_lua_span_begin(foh_sandbox *sb);
void foh_lua_span_end(foh_sandbox *sb);

/* ---- lua_pattern.c: see lua_pattern.h ---- */

/* ---- lua_freeze.c ---- */

/* Replace the table at stack index IDX by a read-only proxy named NAME
 * (for messages: "cannot change NAME.key"); the table itself is not
 * walked. Used for tables an API hands to scripts. */
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
foh_status foh_lua_freeze(foh_sandbox *sb, const char *who, const char *name, foh_error *err);
/* Freeze every global the owner's helper scripts created (after
 * foh_lua_seal_globals), each as foh_lua_freeze does, named "helper
 * 'NAME'" in errors. Run it inside a protected call. */
foh_status foh_lua_freeze_helpers(foh_sandbox *sb, foh_error *err);
/* Check that this Lua build's bytecode is understood by the upvalue-write
 * analysis (lua_upvalues.c); FOH_ERR_SCRIPT if not. */
foh_status foh_lua_freeze_selftest(foh_sandbox *sb, foh_error *err);

/* ---- lua_stdlib.c ---- */

/* Open the standard libraries in L and replace every function scripts may
 * use by a bounded one (each call charges the work it does); then build in
 * the table at the top of the stack the sandbox's globals: the allowed base
 * functions, string, table, math and utf8 (copies, made read-only later). */
void foh_lua_open_stdlib(lua_State *L);
/* tostring as scripts see it: never an address (pushes the result). */
void foh_lua_tostring(lua_State *L, int idx);

/* ---- lua_sandbox.c ---- */

/* A new sandboxed state for SB (port, owner and limits set): allocator with
 * SB's memory cap, count hook, the bounded libraries and the owner's API as
 * read-only globals. Helper scripts may then define new globals until
 * foh_lua_seal_globals. 0 if it cannot be built. */
int foh_lua_sandbox_open(foh_sandbox *sb);
/* Stop the watchdog, close the state, free the allocator's kept blocks. */
void foh_lua_sandbox_close(foh_sandbox *sb);
/* From now on no script may create a global (replacing one never could). */
void foh_lua_seal_globals(foh_sandbox *sb);
/* Load Lua text SRC as chunk NAME whose first line is line FIRST_LINE of
 * its file, with the sandbox as its _ENV; leaves the function on the stack,
 * or the error message and returns 0. */
int foh_lua_load_chunk(lua_State *L, const char *src, const char *name, int first_line);
/* lua_pcall with the sandbox's message handler. OUTERMOST (or a pending
 * limits_due) starts a new call (foh_lua_limits_start). Every error names
 * the script line it comes from; a light userdata raised as the error (an
 * owner's tag) passes unchanged. Returns Lua's status. */
int foh_lua_protected_call(foh_sandbox *sb, int nargs, int nres, int outermost);
/* The message of a failed call (may be formatted into SB's buffer). */
const char *foh_lua_error_text(foh_sandbox *sb, int status);

#endif

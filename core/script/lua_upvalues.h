/* lua_upvalues: finding, in a Lua 5.4 function's bytecode, the writes to
 * variables that outlive a call.
 *
 * Card scripts must keep no state between calls (games are replayed bit for
 * bit and copied by bots). Tables are frozen after loading, but a closure can
 * still keep state in an upvalue; this finds the OP_SETUPVAL instructions that
 * can reach such a cell, so the engine can refuse the script at load. */
#ifndef FOH_LUA_UPVALUES_H
#define FOH_LUA_UPVALUES_H

#include <lua.h>
#include <stddef.h>

/* A write to a variable that outlives the call. */
typedef struct {
    char source[256]; /* chunk name of the writing function as lua_Debug.short_src would show it */
    int line;         /* line of the writing instruction (from the debug info); -1 if the
                       * function has no line info (loaded from a stripped binary chunk) */
    char name[64];    /* the variable's name (upvalue name in the debug info), "?" if unknown */
    size_t bytes;     /* size of the function's dump read (the work done, whatever the answer) */
} foh_lua_upwrite;

/* The Lua function at the top of L's stack (left there) exists when loading
 * has ended, so its upvalues outlive every call. Returns 1 and fills *W for
 * the first write (in prototype order, then pc order) that reaches one of its
 * own upvalues; 0 if there is none; -1 with ERR set if the function cannot be
 * analysed (a C function, or a binary chunk format other than Lua 5.4's).
 *
 * "Prototype order" is the order of the dump: the function's own code first,
 * then each nested function (depth first, in the order they appear in the
 * source). A write to a local of the function, or to a local of a nested
 * function, is fine: such a cell is created by a call and dies with it. */
int foh_lua_find_upvalue_write(lua_State *L, foh_lua_upwrite *w, char *err, size_t errlen);

/* Whether this Lua build's bytecode is understood: a few known snippets give
 * the known answers. 0, or -1 with ERR set; the stack is left as it was.
 * The engine calls it at start-up and refuses untrusted scripts on -1. */
int foh_lua_upvalues_selftest(lua_State *L, char *err, size_t errlen);

#ifdef FOH_LUA_UPVALUES_TESTING
/* Test builds only: the analysis of a binary chunk already in memory (what
 * lua_dump wrote), so tests can feed it truncated or garbled buffers.
 * Returns 1/0/-1 as foh_lua_find_upvalue_write; ST (may be NULL) receives
 * counts from the parse, so tests can check what the chunk exercised. */
typedef struct {
    int protos;       /* function prototypes read */
    int instructions; /* instructions, over all prototypes */
    int abslineinfo;  /* absolute line entries, over all prototypes */
    int setupvals;    /* OP_SETUPVAL instructions, over all prototypes */
} foh_lua_upvalues_stats;

int foh_lua_upvalues_parse(const void *chunk, size_t len, foh_lua_upwrite *w, foh_lua_upvalues_stats *st,
                           char *err, size_t errlen);
#endif

#endif

/* lua_upvalues: finding, in a function's bytecode, the writes to variables
 * that outlive a call (see lua_freeze.c). Internal to core/. */
#ifndef FOH_LUA_UPVALUES_H
#define FOH_LUA_UPVALUES_H

#include <lua.h>
#include <stddef.h>

/* A write to a variable that outlives the call. */
typedef struct {
    char source[256]; /* the chunk, as messages show it ("cards.yaml") */
    int line;         /* line of the writing instruction */
    char name[64];    /* the variable's name, "?" if unknown */
} foh_lua_upwrite;

/* The Lua function at the top of L's stack (left there) exists when loading
 * has ended, so its upvalues outlive every call. Returns 1 and fills *W for
 * the first write (prototype order, then instruction order) that reaches
 * one of its own upvalues, by its own code or through the upvalues of a
 * function nested in it; 0 if there is none (writes to locals of a call,
 * and of functions nested in it, are fine); -1 with ERR set if the
 * function cannot be read (a C function, or a bytecode format other than
 * Lua 5.4's). */
int foh_lua_find_upvalue_write(lua_State *L, foh_lua_upwrite *w, char *err, size_t errlen);

/* Whether this Lua build's bytecode is read right: known snippets give the
 * known answers. 0, or -1 with ERR set. */
int foh_lua_upvalues_selftest(lua_State *L, char *err, size_t errlen);

#endif

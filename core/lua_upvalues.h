/* TEMP stub until the real module lands. */
#ifndef FOH_LUA_UPVALUES_H
#define FOH_LUA_UPVALUES_H
#include <lua.h>
#include <stddef.h>
typedef struct {
    char source[256];
    int line;
    char name[64];
} foh_lua_upwrite;
int foh_lua_find_upvalue_write(lua_State *L, foh_lua_upwrite *w, char *err, size_t errlen);
int foh_lua_upvalues_selftest(lua_State *L, char *err, size_t errlen);
#endif

#include "lua_upvalues.h"
int foh_lua_find_upvalue_write(lua_State *L, foh_lua_upwrite *w, char *err, size_t errlen)
{
    (void)L; (void)w; (void)err; (void)errlen;
    return 0;
}
int foh_lua_upvalues_selftest(lua_State *L, char *err, size_t errlen)
{
    (void)L; (void)err; (void)errlen;
    return 0;
}

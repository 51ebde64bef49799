#include "lua_internal.h"
void foh_lua_pattern_install(lua_State *L, int idx) { (void)L; (void)idx; }

/* test_pattern.c: the bounded string.find/match/gmatch/gsub of lua_pattern.c
 * against Lua 5.4's own (the library linked, liblua5.4), and their charges.
 *
 *   make test        (also: make asan; VERBOSE=1 ./test_pattern prints
 *                    every case's result and units)
 *
 * 1. A stub foh_lua_charge sums the units and raises "budget exhausted"
 *    past a limit the test sets.
 * 2. Every case of CASES (and of the generated class cases, and of a
 *    seeded random fuzz) runs through both versions; all results (every
 *    returned value, every value of every gmatch step, the message of an
 *    error) must be identical.
 * 3. The pathological backtracking pattern stops with "budget exhausted"
 *    in under a second; a plain search is charged; typical calls are cheap.
 */
#undef NDEBUG /* the checks are asserts */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lua_pattern.h"

/* ---- the budget stub ---- */

static long g_units;      /* units charged since the last reset */
static long g_calls;      /* calls of foh_lua_charge since the last reset */
static long g_limit = LONG_MAX;
static long g_max_batch;  /* largest single charge since the last reset */

void foh_lua_charge(lua_State *L, long units)
{
    assert(units > 0);
    g_calls++;
    if (units > g_max_batch)
        g_max_batch = units;
    g_units += units;
    if (g_units > g_limit)
        luaL_error(L, "budget exhausted");
}

static void reset_budget(long limit)
{
    g_units = 0;
    g_calls = 0;
    g_max_batch = 0;
    g_limit = limit;
}

/* CPU seconds of this thread: how long a bounded match took, the same on
 * a loaded machine (where wall-clock time is not). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the harness, in Lua ---- */

static const char *const HARNESS =
    "ALL = {} for i = 0, 255 do ALL[#ALL + 1] = string.char(i) end ALL = table.concat(ALL)\n"
    "local function ser(t, n)\n"
    "  local out = {}\n"
    "  for i = 1, n do\n"
    "    local v = t[i]\n"
    "    local ty = type(v)\n"
    "    if ty == 'string' then out[i] = string.format('%q', v)\n"
    "    elseif ty == 'number' then out[i] = math.type(v) .. ':' .. string.format('%.17g', v)\n"
    "    elseif ty == 'function' or ty == 'table' or ty == 'userdata' then out[i] = ty\n"
    "    else out[i] = tostring(v) end\n"
    "  end\n"
    "  return n .. '[' .. table.concat(out, ',') .. ']'\n"
    "end\n"
    /* run(F, name, argsf): F called with argsf()'s values; gmatch is
     * iterated to its end. Returns one string: every result, or the error. */
    "function DEEP(n)\n"
    "  if n == 0 then return 'y' end\n"
    "  return (CUR('x', 'x', function() return DEEP(n - 1) end))\n"
    "end\n"
    "function run(F, name, argsf)\n"
    "  CUR = F\n"
    "  local ok, r = pcall(function()\n"
    "    if name == 'gmatch' then\n"
    "      local it = F(argsf())\n"
    "      local out = {}\n"
    "      for k = 1, 100000 do\n"
    "        local t = table.pack(it())\n"
    "        out[#out + 1] = ser(t, t.n)\n"
    "        if t[1] == nil then break end\n"
    "      end\n"
    "      return table.concat(out, ' | ')\n"
    "    else\n"
    "      local t = table.pack(F(argsf()))\n"
    "      return ser(t, t.n)\n"
    "    end\n"
    "  end)\n"
    "  if ok then return 'ok ' .. r end\n"
    "  return 'error ' .. tostring(r)\n"
    "end\n";

/* A seeded random fuzz over patterns (valid and malformed), subjects,
 * init values, plain flags and replacements; compare(name, argsf) is the
 * C function that runs both versions and counts. */
static const char *const FUZZ =
    "local N = ...\n"
    "math.randomseed(20240611)\n"
    "local R = math.random\n"
    "local atoms = {'a','b','c','.','%a','%d','%s','%w','%A','%p','%x','%u','%l',\n"
    "  '[abc]','[^a-c]','[%d_]','[a-]','[]a]','[^%s]','%b()','%bab','%f[%w]','%f[%W]','%f[%z]',\n"
    "  '(', ')', '()', '%1', '%2', '%0', '%', '[', ']', '[a', '%b', '%f', '%fa', '$', '^', ' ', 'x', '1', '%.', '%%',\n"
    "  '(a)', '(.)', '(%w+)', '\\0', '%z'}\n"
    "local quants = {'', '', '', '*', '+', '-', '?'}\n"
    "local function pattern()\n"
    "  local t = {}\n"
    "  if R(4) == 1 then t[#t + 1] = '^' end\n"
    "  local nq = 0\n"
    "  for i = 1, R(0, 6) do\n"
    "    t[#t + 1] = atoms[R(#atoms)]\n"
    "    local q = quants[R(#quants)]\n"
    "    if q ~= '' then nq = nq + 1 end\n"
    "    if nq <= 3 then t[#t + 1] = q end\n"
    "  end\n"
    "  if R(5) == 1 then t[#t + 1] = '$' end\n"
    "  return table.concat(t)\n"
    "end\n"
    "local chars = 'aabbcc  x(1)_2.%$^ab()AB\\0'\n"
    "local function subject()\n"
    "  local t = {}\n"
    "  for i = 1, R(0, 16) do local k = R(#chars) t[i] = chars:sub(k, k) end\n"
    "  return table.concat(t)\n"
    "end\n"
    "local function init()\n"
    "  local k = R(8)\n"
    "  if k == 1 then return -R(20) elseif k == 2 then return R(0, 20) elseif k == 3 then return 0 end\n"
    "  return nil\n"
    "end\n"
    "local repls = {'-', '%0', '<%1>', '%%', '%2%1', '%', '%x', '', 'ab%0cd',\n"
    "  function(...) return select('#', ...) .. table.concat({...}, '|') end,\n"
    "  function(a) if a == 'a' then return nil end return a end,\n"
    "  function(a) if a == 'b' then return false end return 7 end,\n"
    "  {a = 'A', b = false, [1] = 'one', [3] = 3}, 12, 1.5}\n"
    "for i = 1, N do\n"
    "  local s, p = subject(), pattern()\n"
    "  local k = R(4)\n"
    "  if k == 1 then\n"
    "    local a = table.pack(s, p, init(), R(3) == 1 or nil)\n"
    "    compare('find', function() return table.unpack(a, 1, a.n) end)\n"
    "  elseif k == 2 then\n"
    "    local a = table.pack(s, p, init())\n"
    "    compare('match', function() return table.unpack(a, 1, a.n) end)\n"
    "  elseif k == 3 then\n"
    "    local a = table.pack(s, p, init())\n"
    "    compare('gmatch', function() return table.unpack(a, 1, a.n) end)\n"
    "  else\n"
    "    local a = table.pack(s, p, repls[R(#repls)], R(3) == 1 and R(-1, 3) or nil)\n"
    "    compare('gsub', function() return table.unpack(a, 1, a.n) end)\n"
    "  end\n"
    "end\n";

/* ---- the cases: function name and a Lua expression list for its
 * arguments (evaluated afresh for each version) ---- */

typedef struct {
    const char *fn;
    const char *args;
} Case;

static const Case CASES[] = {
    /* find: plain, init, anchors */
    {"find", "'hello world', 'o w'"},
    {"find", "'hello world', 'o', 6"},
    {"find", "'hello world', 'l', -3"},
    {"find", "'hello world', 'l', -100"},
    {"find", "'hello world', 'l', 100"},
    {"find", "'hello world', 'l', math.mininteger"},
    {"find", "'hello world', 'l', math.maxinteger"},
    {"find", "'hello world', 'xyz'"},
    {"find", "'hello world', ''"},
    {"find", "'hello world', '', 12"},
    {"find", "'hello world', '', 13"},
    {"find", "'hello world', '', 0"},
    {"find", "'hello world', '', -1"},
    {"find", "'', ''"},
    {"find", "'', 'a'"},
    {"find", "'', 'a*'"},
    {"find", "'', '^$'"},
    {"find", "'hello', 'l+'"},
    {"find", "'a.b.c', '.', 1, true"},
    {"find", "'a.b.c', '.', 3, 1"},
    {"find", "'a.b.c', '.', 1, false"},
    {"find", "'a.b.c', '.', 1, nil"},
    {"find", "'a.b.c', '%.'"},
    {"find", "'a+b', '+', 1, true"},
    {"find", "'a+b', 'a+b'"},
    {"find", "'a+b', 'a%+b'"},
    {"find", "'a(b', '(', 1, true"},
    {"find", "'a[b', '[', 1, true"},
    {"find", "'hello', '^h'"},
    {"find", "'hello', '^e'"},
    {"find", "'hello', '^l', 3"},
    {"find", "'hello', 'o$'"},
    {"find", "'hello', 'l$'"},
    {"find", "'hello$', '$'"},
    {"find", "'hello$', '%$'"},
    {"find", "'a$b', 'a$b'"},
    {"find", "'a^b', 'a^b'"},
    {"find", "'a^b', '^^'"},
    {"find", "'^b', '^^'"},
    {"find", "'hello', '()ll()'"},
    {"find", "'hello', '(h)(e)(l)(l)(o)'"},
    {"find", "'abcabc', '(abc)%1'"},
    {"find", "'abcabd', '(ab.)%1'"},
    {"find", "'hello', '(l)%1'"},
    {"find", "'x = 10', '(%w+)%s*=%s*(%w+)'"},
    {"find", "'f(a(b)c)d', '%b()'"},
    {"find", "'f(a(b c)d', '%b()'"},
    {"find", "'THE (quick) fox', '%f[%a]%a+'"},
    {"find", "'THE (quick) fox', '%f[%a]%a+', 5"},
    {"find", "'hello', '%f[%z]'"},
    {"find", "'hello', '%f[%Z]'"},
    {"find", "'hello', '[%a'"},
    {"find", "'hello', '%'"},
    {"find", "'hello', 'l%'"},
    {"find", "'hello', '('"},
    {"find", "'hello', ')'"},
    {"find", "'hello', '%1'"},
    {"find", "'hello', '%b'"},
    {"find", "'hello', '%bx'"},
    {"find", "'hello', '%f'"},
    {"find", "'hello', '%fa'"},
    {"find", "'hello', '[]'"},
    {"find", "'hello]', '[]]'"},
    {"find", "'hello', '[^]'"},
    {"find", "'hello^]', '[^]]'"},
    {"find", "'a-b', '[a-]'"},
    {"find", "'-b', '[-a]'"},
    {"find", "'h', '[%]'"},
    {"find", "'a]b', '[%]]'"},
    {"find", "'abc', 'b*'"},
    {"find", "nil, 'a'"},
    {"find", "'abc', nil"},
    {"find", "'abc'"},
    {"find", ""},
    {"find", "'abc', 'a', 'x'"},
    {"find", "'abc', {}"},
    {"find", "12345, 3"},
    {"find", "12345, '%d+'"},
    {"find", "1.5, '%.'"},
    {"find", "'abc', 'b', 2.0"},
    {"find", "'abc', 'b', 2.5"},
    {"find", "'abc', 'b', '2'"},
    {"find", "('a'):rep(300), ('a?'):rep(300)"},
    {"find", "'aaa', ('(a)'):rep(33)"},
    {"find", "'aaa', ('(a*)'):rep(32)"},
    {"find", "'abc\\0def', '\\0'"},
    {"find", "'abc\\0def', '%z'"},
    {"find", "'abc\\0def', 'c%zd'"},
    {"find", "'abc\\0def', '[\\0]'"},
    {"find", "'abc\\0def', 'c\\0d', 1, true"},
    {"find", "'abc\\0def', 'c\\0d'"},
    {"find", "'abc\\0d*f', 'c\\0d*'"},
    {"find", "'abc\\0d*f', 'c\\0d*', 1, true"},
    {"find", "'abc', 'a\\0'"},
    {"find", "'hello', '.-'"},
    {"find", "'hello', '.-l'"},
    {"find", "'hello', 'l-o'"},
    {"find", "'hello', 'x?h'"},
    {"find", "'hello', 'he?l+o'"},
    {"find", "'hello', '[^aeiou]+'"},
    {"find", "'hello', '[a-f]'"},
    {"find", "'hello', '[f-a]'"},
    {"find", "'hello-z', '[%a-z]+'"},
    {"find", "'h\\195\\169llo', '[\\128-\\255]+'"},
    {"find", "'key = value # comment', '^(%w+)%s*=%s*([^#]-)%s*#'"},
    {"find", "('a'):rep(1000) .. 'b', ('a'):rep(100) .. 'b', 1, true"},
    {"find", "('ab'):rep(100), ('ab'):rep(10) .. 'c'"},
    /* match */
    {"match", "'hello world', '(%w+) (%w+)'"},
    {"match", "'hello', '()'"},
    {"match", "'hello', '()', 3"},
    {"match", "'hello', '()', 10"},
    {"match", "'hello', '()', -2"},
    {"match", "'hello', '.*', -2"},
    {"match", "' trim ', '^%s*(.-)%s*$'"},
    {"match", "'2024-01-15', '(%d+)-(%d+)-(%d+)'"},
    {"match", "'abc', 'a(b)c'"},
    {"match", "'abc', 'x'"},
    {"match", "'abc', '((a)(b))'"},
    {"match", "'abc', '(a)()(b)()'"},
    {"match", "'[[x]]', '%[%[(.-)%]%]'"},
    {"match", "'a,b,,c', '([^,]*)'"},
    {"match", "'heel', '(h)(.)%2'"},
    {"match", "'hello', '%2(h)'"},
    {"match", "'hello', '(h%1)'"},
    {"match", "'hello', '%0'"},
    {"match", "'hello', '(h)%9'"},
    {"match", "'  x', '^%s*$'"},
    {"match", "'x', 'x', 2"},
    {"match", "'x', '', 2"},
    {"match", "'x', '', 3"},
    {"match", "'aaa', 'a-$'"},
    {"match", "'aaa', '^(a-)(a*)$'"},
    {"match", "'((a))', '%b()'"},
    {"match", "'((a)', '%b()'"},
    {"match", "'x(a)', '%b)('"},
    {"match", "'abba', '%bab'"},
    {"match", "'a((b)c)d', '%b()()'"},
    {"match", "'\"quoted\" text', '%b\"\"'"},
    {"match", "'THE (quick) fox', '%f[%l]%l+'"},
    {"match", "'hello', '%f[^%z]'"},
    {"match", "'hello world', '%f[%w]%w+%f[%W]'"},
    {"match", "'abc', '('"},
    {"match", "'abc', '(()'"},
    {"match", "'abc', '(a'"},
    {"match", "'abc', 'a)'"},
    {"match", "'abc', '[a-'"},
    {"match", "'abc', '[a-%'"},
    {"match", "'abc', '%g+'"},
    {"match", "'  \\t\\n', '%s+'"},
    {"match", "'0x1F', '0x(%x+)'"},
    {"match", "'a.b', '^(.-)%.(.*)$'"},
    {"match", "'path/to/file.txt', '([^/]+)$'"},
    {"match", "'path/to/file.txt', '^(.*)/'"},
    {"match", "'aaab', '^(a+)(a)b'"},
    {"match", "'aaab', '^(a-)(a+)b'"},
    {"match", "'ab', '^(a?)(a?)b'"},
    {"match", "'abab', '^(ab)%1$'"},
    {"match", "'abab', '^(ab)()%1$'"},
    {"match", "'hello', '()(l+)()'"},
    {"match", "'hello'"},
    {"match", "'hello', 'l', {}"},
    /* gmatch */
    {"gmatch", "'hello world from lua', '%a+'"},
    {"gmatch", "'k1=v1, k2=v2', '(%w+)=(%w+)'"},
    {"gmatch", "'abc', ''"},
    {"gmatch", "'abc', '()'"},
    {"gmatch", "'abc', '.-'"},
    {"gmatch", "'abc', 'x*'"},
    {"gmatch", "'hello world', '%a+', 7"},
    {"gmatch", "'hello world', '%a+', 8"},
    {"gmatch", "'hello world', '%a+', -5"},
    {"gmatch", "'hello world', '%a+', -100"},
    {"gmatch", "'hello world', '%a+', 100"},
    {"gmatch", "'hello world', '%a+', 12"},
    {"gmatch", "'hello world', '', 12"},
    {"gmatch", "'hello world', '', 13"},
    {"gmatch", "'hello world', '%a+', 0"},
    {"gmatch", "'hello world', '()', -1"},
    {"gmatch", "'aaa', 'a*'"},
    {"gmatch", "'a,b,,c', '([^,]*)'"},
    {"gmatch", "'x^ay^a', '^a'"},
    {"gmatch", "'x', '%'"},
    {"gmatch", "'x', '[a'"},
    {"gmatch", "'abc', '('"},
    {"gmatch", "'abc', '%1'"},
    {"gmatch", "nil, 'a'"},
    {"gmatch", "'abc', '.', 'x'"},
    {"gmatch", "'abc', '.', 1.5"},
    {"gmatch", "'f(a)(b(c))', '%b()'"},
    {"gmatch", "'THE (quick) fox', '%f[%a]%a+'"},
    {"gmatch", "'a1b22c333', '%d+'"},
    {"gmatch", "'a1b22c333', '(%a)(%d*)'"},
    {"gmatch", "'one two  three', '%S+'"},
    {"gmatch", "'a\\0b\\0c', '[^%z]+'"},
    {"gmatch", "'abcabc', '(a)(b)()'"},
    {"gmatch", "('ab'):rep(50), 'a()'"},
    /* gsub */
    {"gsub", "'hello world', 'o', '0'"},
    {"gsub", "'hello world', 'o', '0', 1"},
    {"gsub", "'hello world', 'o', '0', 0"},
    {"gsub", "'hello world', 'o', '0', -1"},
    {"gsub", "'hello world', 'o', '0', 1.0"},
    {"gsub", "'hello world', 'o', '0', 1.5"},
    {"gsub", "'hello world', 'o', '0', math.maxinteger"},
    {"gsub", "'hello world', 'o', '0', math.mininteger"},
    {"gsub", "'hello world', '(%w+)', '<%1>'"},
    {"gsub", "'hello world', '%w+', '<%0>'"},
    {"gsub", "'hello world', '%w+', '<%1>'"},
    {"gsub", "'hello world', '%w+', '%%'"},
    {"gsub", "'hello world', '%w+', '%'"},
    {"gsub", "'hello world', '%w+', 'a%'"},
    {"gsub", "'hello world', '%w+', '%x'"},
    {"gsub", "'hello world', '%w+', '%2'"},
    {"gsub", "'hello world', '(%w+)', '%2'"},
    {"gsub", "'hello world', '()', '%1'"},
    {"gsub", "'hello world', '(o)()', '%2%1'"},
    {"gsub", "'hello', '', '-'"},
    {"gsub", "'abc', '', '-', 2"},
    {"gsub", "'abc', '.-', '-'"},
    {"gsub", "'abc', 'x*', '-'"},
    {"gsub", "'abc', '^', '>'"},
    {"gsub", "'abc', '^a', ''"},
    {"gsub", "'abc', '^x', ''"},
    {"gsub", "'aaa', '^a', 'b'"},
    {"gsub", "'abc', '$', '!'"},
    {"gsub", "'', '', 'x'"},
    {"gsub", "'', 'a', 'x'"},
    {"gsub", "'', '^$', 'x'"},
    {"gsub", "'hello world', '%w+', {hello = 'HI'}"},
    {"gsub", "'hello world', '%w+', {hello = 1}"},
    {"gsub", "'hello world', '%w+', {hello = 1.5}"},
    {"gsub", "'hello world', '%w+', {hello = false}"},
    {"gsub", "'hello world', '%w+', {hello = {}}"},
    {"gsub", "'hello world', '(%w+) (%w+)', {hello = 'x'}"},
    {"gsub", "'hello world', '()%w+', {[1] = 'X', [7] = 'Y'}"},
    {"gsub", "'hello world', '%w+', setmetatable({}, {__index = function(t, k) return k:upper() end})"},
    {"gsub", "'hello world', '%w+', function(w) return w:upper() end"},
    {"gsub", "'hello world', '%w+', function(w) return nil end"},
    {"gsub", "'hello world', '%w+', function(w) return false end"},
    {"gsub", "'hello world', '%w+', function(w) return #w end"},
    {"gsub", "'hello world', '%w+', function(w) return true end"},
    {"gsub", "'hello world', '%w+', function(w) return {} end"},
    {"gsub", "'hello world', '%w+', function(w) end"},
    {"gsub", "'hello world', '(%w)(%w*)', function(a, b) return b .. a end"},
    {"gsub", "'hello world', '()(%w+)()', function(a, w, b) return a .. w .. b end"},
    {"gsub", "'hello world', '%w+', function() error('boom') end"},
    {"gsub", "'hello world', '%w+', function(w) return (w:gsub('.', '%0%0')) end"},
    {"gsub", "'hello world', '%w+'"},
    {"gsub", "'hello world', '%w+', true"},
    {"gsub", "'hello world', '%w+', nil"},
    {"gsub", "'hello world', '%w+', 42"},
    {"gsub", "'hello world', '%w+', 4.5"},
    {"gsub", "'hello world', '%w+', 'x', 'y'"},
    {"gsub", "'abc', '%w', '%0%0'"},
    {"gsub", "'abc', '(a)(b)(c)', '%3%2%1'"},
    {"gsub", "'abc', '(a', 'x'"},
    {"gsub", "'abc', '(a', '%1'"},
    {"gsub", "'abc', '(a', function(x) return x end"},
    {"gsub", "'abc', '(a', {}"},
    {"gsub", "'x', '%', 'y'"},
    {"gsub", "'x', '[', 'y'"},
    {"gsub", "'a b c', ' ', '', 2"},
    {"gsub", "('x'):rep(1000), 'x', 'yy'"},
    {"gsub", "('x'):rep(1000), 'x', ('y'):rep(100)"},
    {"gsub", "'abc', '%f[%w]', '|'"},
    {"gsub", "'hello world', '%f[%w]%w+', {hello = 'H'}"},
    {"gsub", "'abc', 'b', '%%1'"},
    {"gsub", "'abc', 'b', '%0%%'"},
    {"gsub", "'abc', 'b', 'x\\0y'"},
    {"gsub", "'a\\0b', '%z', '0'"},
    {"gsub", "'hello', 'l+', '%0'"},
    {"gsub", "'  trim  ', '^%s*(.-)%s*$', '%1'"},
    {"gsub", "'abc', '.', {a = 1, b = true}"},
    {"gsub", "12345, '%d', '%0 '"},
    {"gsub", "'a,b;c', '[,;]', {[','] = '<comma>'}"},
    {"gsub", "'f(a(b)c)d', '%b()', '[]'"},
    {"gsub", "'THE (quick) fox', '%f[%a]', '^'"},
    {"gsub", "'THE (quick) fox', '%f[%A]', '$'"},
    {"gsub", "('a'):rep(300), ('a?'):rep(300), 'x'"},
    {"gsub", "'hello', '(l)(l)', '%2%1%0'"},
    {"gsub", "'hello', '((l)(l))', '%3%2%1'"},
    /* gsub nested through its replacement function (CUR is the gsub under
     * test): Lua's own C-stack limit applies to both */
    {"gsub", "'x', 'x', function() return DEEP(10) end"},
    {"gsub", "'x', 'x', function() return DEEP(100) end"},
    {"gsub", "'x', 'x', function() return DEEP(300) end"},
};

/* Classes and sets checked over all 256 byte values. */
static const char *const CLASSES[] = {
    "%a", "%c", "%d", "%g", "%l", "%p", "%s", "%u", "%w", "%x", "%z",
    "%A", "%C", "%D", "%G", "%L", "%P", "%S", "%U", "%W", "%X", "%Z",
    "[a-f]", "[^a-f]", "[%d%a]", "[^%w%s]", "[\\0-\\31]", "[%]%-]", "[a-]", ".",
};

/* ---- running both versions ---- */

static lua_State *L;
static int ncompared, nmismatched, nerrors, nfound;
static long max_case_units;

/* Runs run(tbl[name], name, argsf) with argsf at stack index ARGSF;
 * returns a malloc'd copy of the result. */
static char *run_one(const char *tbl, const char *name, int argsf)
{
    lua_getglobal(L, "run");
    lua_getglobal(L, tbl);
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
    lua_pushstring(L, name);
    lua_pushvalue(L, argsf);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        fprintf(stderr, "harness error: %s\n", lua_tostring(L, -1));
        abort();
    }
    size_t len;
    const char *r = lua_tolstring(L, -1, &len);
    char *copy = malloc(len + 1);
    assert(copy);
    memcpy(copy, r, len + 1);
    lua_pop(L, 1);
    return copy;
}

/* Compare one case: the arguments function is at stack index ARGSF. */
static void compare_at(const char *name, int argsf, const char *label)
{
    char *want = run_one("orig", name, argsf);
    reset_budget(LONG_MAX);
    char *got = run_one("bounded", name, argsf);
    if (g_units > max_case_units)
        max_case_units = g_units;
    ncompared++;
    if (strncmp(want, "error ", 6) == 0)
        nerrors++;
    else if (strncmp(want, "ok 1[nil]", 9) != 0 && strncmp(want, "ok 1[nil] |", 11) != 0)
        nfound++;
    if (getenv("VERBOSE"))
        printf("%s(%s)\n  -> %s  [%ld units]\n", name, label, got, g_units);
    if (strcmp(want, got) != 0) {
        nmismatched++;
        fprintf(stderr, "MISMATCH %s(%s)\n  stock:   %s\n  bounded: %s\n", name, label, want, got);
    }
    free(want);
    free(got);
}

static void compare_case(const char *name, const char *args)
{
    char chunk[4096];
    snprintf(chunk, sizeof chunk, "return %s", args);
    if (luaL_loadstring(L, chunk) != LUA_OK) {
        fprintf(stderr, "bad case %s(%s): %s\n", name, args, lua_tostring(L, -1));
        abort();
    }
    compare_at(name, lua_gettop(L), args);
    lua_pop(L, 1);
}

/* compare(name, argsf), for the fuzz written in Lua. */
static int l_compare(lua_State *Ls)
{
    assert(Ls == L);
    const char *name = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_getglobal(L, "DESCRIBE");
    lua_pushvalue(L, 2);
    lua_call(L, 1, 1);
    compare_at(name, 2, lua_tostring(L, -1));
    lua_pop(L, 1);
    return 0;
}

static void dostring(const char *code)
{
    if (luaL_dostring(L, code) != LUA_OK) {
        fprintf(stderr, "error: %s\n", lua_tostring(L, -1));
        abort();
    }
}

/* Call bounded NAME with the arguments of the Lua expression list ARGS
 * under budget LIMIT; returns the error message (static) or NULL, and
 * leaves the units in g_units. */
static const char *charged_call(const char *args, long limit)
{
    static char msg[256];
    char chunk[4096];
    snprintf(chunk, sizeof chunk, "return (function() local r = table.pack(%s) end)()", args);
    int rc = luaL_loadstring(L, chunk);
    assert(rc == LUA_OK);
    reset_budget(limit);
    rc = lua_pcall(L, 0, 0, 0);
    g_limit = LONG_MAX;
    if (rc == LUA_OK)
        return NULL;
    snprintf(msg, sizeof msg, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return msg;
}

/* Whether ERR is the stub's error (luaL_error prefixes the position of the
 * Lua code that called the library function). */
static int is_budget(const char *err)
{
    static const char tail[] = "budget exhausted";
    size_t n = err ? strlen(err) : 0;
    return n >= sizeof tail - 1 && strcmp(err + n - (sizeof tail - 1), tail) == 0;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    L = luaL_newstate();
    assert(L);
    luaL_openlibs(L);
    dostring(HARNESS);
    dostring("DESCRIBE = function(f) local t = table.pack(f()) local o = {}\n"
             "  for i = 1, t.n do o[i] = type(t[i]) == 'string' and string.format('%q', t[i]) or tostring(t[i]) end\n"
             "  return table.concat(o, ', ') end");
    dostring("orig = {find = string.find, match = string.match, gmatch = string.gmatch, gsub = string.gsub}");

    /* Install with a negative index, on the real string table. */
    lua_getglobal(L, "string");
    lua_pushnil(L); /* so that the table is not at the top */
    foh_lua_pattern_install(L, -2);
    lua_pop(L, 2);
    dostring("bounded = {find = string.find, match = string.match, gmatch = string.gmatch, gsub = string.gsub}\n"
             "for k, f in pairs(bounded) do assert(f ~= orig[k], k) end\n"
             "assert(('x'):find('x') == 1)");
    /* And with an absolute index, on another table. */
    lua_newtable(L);
    foh_lua_pattern_install(L, lua_gettop(L));
    lua_getfield(L, -1, "gsub");
    assert(lua_tocfunction(L, -1) != NULL);
    lua_pop(L, 2);
    assert(lua_gettop(L) == 0);

    /* 1. Charges are passed in batches. */
    reset_budget(LONG_MAX);
    dostring("string.find(('a'):rep(3000), '.-b')");
    printf("batching: %ld units in %ld calls, largest %ld\n", g_units, g_calls, g_max_batch);
    assert(g_units > 3000 * 3000 / 2);
    assert(g_calls <= g_units / 1024 + 1);

    /* 2. The comparisons. */
    size_t ncases = sizeof CASES / sizeof CASES[0];
    for (size_t i = 0; i < ncases; i++)
        compare_case(CASES[i].fn, CASES[i].args);
    int nlisted = ncompared;
    for (size_t i = 0; i < sizeof CLASSES / sizeof CLASSES[0]; i++) {
        char args[256];
        const char *c = CLASSES[i];
        snprintf(args, sizeof args, "ALL, '%s+'", c);
        compare_case("find", args);
        snprintf(args, sizeof args, "ALL, '(%s+)', 100", c);
        compare_case("match", args);
        snprintf(args, sizeof args, "ALL, '%s'", c);
        compare_case("gmatch", args);
        snprintf(args, sizeof args, "ALL, '%s', '.'", c);
        compare_case("gsub", args);
        snprintf(args, sizeof args, "ALL, '%s-%s+()', -100", c, c);
        compare_case("find", args);
    }
    int nclass = ncompared - nlisted;
    printf("listed cases: %d, class cases: %d, mismatches so far: %d\n", nlisted, nclass, nmismatched);

    lua_pushcfunction(L, l_compare);
    lua_setglobal(L, "compare");
    if (luaL_loadstring(L, FUZZ) != LUA_OK) {
        fprintf(stderr, "%s\n", lua_tostring(L, -1));
        abort();
    }
    int nfuzz = 20000;
    lua_pushinteger(L, nfuzz);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        fprintf(stderr, "fuzz: %s\n", lua_tostring(L, -1));
        abort();
    }
    printf("fuzz cases: %d\ncompared: %d in all (%d errors, %d with a match, the rest none), mismatches: %d "
           "(largest charge for one case: %ld units)\n",
           ncompared - nlisted - nclass, ncompared, nerrors, nfound, nmismatched, max_case_units);
    assert(nlisted >= 150);
    assert(nmismatched == 0);

    /* 3a. The pathological backtracking: stopped within seconds of CPU
     * time (0.04 s here, 0.2 s under ASan; unbounded, it would take about
     * 2^30 steps, minutes). */
    {
        double t0 = now();
        const char *err =
            charged_call("string.find(('a'):rep(30) .. 'b', ('a*'):rep(30) .. 'c')", 10000000);
        double dt = now() - t0;
        printf("pathological find: %s after %ld units, %.3f s of CPU time\n", err ? err : "(no error)", g_units, dt);
        assert(is_budget(err));
        assert(dt < 5.0);
        /* The same through match, gmatch, gsub. */
        err = charged_call("string.match(('a'):rep(30) .. 'b', ('a*'):rep(30) .. 'c')", 10000000);
        assert(is_budget(err));
        err = charged_call("string.gsub(('a'):rep(30) .. 'b', ('a*'):rep(30) .. 'c', 'x')", 10000000);
        assert(is_budget(err));
        err = charged_call("string.gmatch(('a'):rep(30) .. 'b', ('a*'):rep(30) .. 'c')()", 10000000);
        assert(is_budget(err));
        /* %b and '-' loops are charged too. */
        err = charged_call("string.find(('('):rep(100000), '%b()')", 1000000);
        assert(is_budget(err));
        err = charged_call("string.find(('('):rep(1000), '%b()')", LONG_MAX);
        printf("%%b over 1,000 '(' (500,500 steps): %ld units\n", g_units);
        assert(err == NULL && g_units > 500500);
        err = charged_call("string.find(('a'):rep(3000), '.-b')", 100000);
        assert(is_budget(err));
        /* A long bracket class is charged by its length. */
        err = charged_call("string.find(('x'):rep(100000), '[' .. ('a'):rep(10000) .. ']')", 10000000);
        printf("class of 10,002 bytes over 100,000 bytes: %s, %ld units\n", err ? err : "ok", g_units);
        assert(is_budget(err));
        /* A back reference is charged by its length. */
        err = charged_call("string.find(('a'):rep(20000), '^(a*)%1b')", LONG_MAX);
        printf("back references comparing 50,005,000 bytes: %ld units\n", g_units);
        assert(err == NULL && g_units >= 50005000 / 64 - 10000);
    }
    /* After a budget error inside a gmatch iterator, the iterator goes on as
     * Lua's would (its recursion depth is not left short). */
    {
        /* The error comes from inside '.-' at depth 151. */
        dostring("local p = ('a?'):rep(150) .. '.-c'\n"
                 "local s = ('a'):rep(150) .. ('x'):rep(3000) .. 'c'\n"
                 "IT1 = orig.gmatch(s, p)\n"
                 "IT2 = string.gmatch(s, p)");
        const char *err = charged_call("IT2()", 100);
        assert(is_budget(err));
        dostring("local a, b = IT1(), IT2() assert(a == b and #a == 3151, tostring(b))");
        printf("gmatch iterator after a budget error: same result as Lua's\n");
    }

    /* 3b. Plain search with a long needle in a long haystack. */
    {
        dostring("HAY = ('a'):rep(100000) NEEDLE = ('a'):rep(1000) .. 'b'");
        const char *err = charged_call("string.find(HAY, NEEDLE, 1, true)", LONG_MAX);
        long expect = (100000 - 1000) * (1001 / 64 + 1);
        printf("plain find, 1,001-byte needle in 100,000 bytes: %ld units (candidates x (1001/64 + 1) = %ld)\n",
               g_units, expect);
        assert(err == NULL && g_units >= expect && g_units < expect + expect / 10);
        err = charged_call("string.find(HAY, NEEDLE)", LONG_MAX);
        printf("same, no plain flag (no specials): %ld units\n", g_units);
        assert(err == NULL && g_units >= expect);
        err = charged_call("string.find(HAY, NEEDLE, 1, true)", 100000);
        assert(is_budget(err));
        /* memchr's skipped bytes: 64 a unit. */
        err = charged_call("string.find(('x'):rep(640000), 'y', 1, true)", LONG_MAX);
        printf("plain find of an absent byte in 640,000 bytes: %ld units\n", g_units);
        assert(err == NULL && g_units == 10000);
        /* gsub: the result it builds. */
        err = charged_call("string.gsub(('x'):rep(1000), 'x', ('y'):rep(640))", LONG_MAX);
        printf("gsub building 640,000 bytes: %ld units\n", g_units);
        assert(err == NULL && g_units >= 10000);
        err = charged_call("string.gsub(('x'):rep(1000), 'x', ('y'):rep(640))", 5000);
        assert(is_budget(err));
    }

    /* 3c. Typical calls. */
    {
        static const char *const typical[] = {
            "string.find('hello world', 'wor')",
            "string.find('hello world', 'wor', 1, true)",
            "string.find('hello world', 'l+')",
            "string.match('key = value', '^(%w+)%s*=%s*(%w+)$')",
            "string.match('  some text  ', '^%s*(.-)%s*$')",
            "string.match('2024-06-11', '(%d+)-(%d+)-(%d+)')",
            "string.gsub('hello world', 'o', '0')",
            "string.gsub('The quick brown fox jumps over the lazy dog', '%w+', string.upper)",
            "(function() for w in string.gmatch('one two three four five', '%a+') do end end)()",
            "string.find(('x'):rep(1000) .. 'needle', 'needle', 1, true)",
            "string.match(('x'):rep(1000) .. 'id=42', 'id=(%d+)')",
        };
        printf("typical calls (units charged):\n");
        for (size_t i = 0; i < sizeof typical / sizeof typical[0]; i++) {
            const char *err = charged_call(typical[i], LONG_MAX);
            assert(err == NULL);
            printf("  %6ld  %s\n", g_units, typical[i]);
            if (i < 9)
                assert(g_units < 200);
        }
    }

    lua_close(L);
    printf("all tests passed\n");
    return 0;
}

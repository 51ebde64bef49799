/* Tests for lua_upvalues.c. Build with -DFOH_LUA_UPVALUES_TESTING (exposes
 * foh_lua_upvalues_parse, the analysis of a chunk already in memory) and
 * link -llua5.4. Every case is counted and named on stdout. */
#undef NDEBUG
#include <assert.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_upvalues.h"

#ifndef FOH_LUA_UPVALUES_TESTING
#error "build with -DFOH_LUA_UPVALUES_TESTING"
#endif

static lua_State *L;
static int ncases;

static void start_case(const char *what)
{
    ncases++;
    printf("case %2d: %s\n", ncases, what);
    fflush(stdout);
}

/* ---- helpers over real Lua ---- */

/* Loads CODE as chunk NAME and runs it; returns how many results it left. */
static int run(const char *code, const char *name)
{
    int base = lua_gettop(L);
    if (luaL_loadbufferx(L, code, strlen(code), name, "t") != LUA_OK || lua_pcall(L, 0, LUA_MULTRET, 0) != LUA_OK) {
        fprintf(stderr, "Lua error: %s\n", lua_tostring(L, -1));
        assert(0);
    }
    return lua_gettop(L) - base;
}

/* Analyses the value at IDX and checks the answer; for a write, also that
 * the source is what lua_getinfo shows and that the function stays on top. */
static void expect_at(int idx, int want, int line, const char *name)
{
    foh_lua_upwrite w;
    char err[256] = "";
    int top, got;
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, idx);
    top = lua_gettop(L);
    got = foh_lua_find_upvalue_write(L, &w, err, sizeof err);
    assert(lua_gettop(L) == top && lua_rawequal(L, -1, idx)); /* left there */
    if (got != want || (got == 1 && (w.line != line || strcmp(w.name, name) != 0))) {
        fprintf(stderr, "expected %d %d '%s', got %d", want, line, name ? name : "", got);
        if (got == 1)
            fprintf(stderr, " %s:%d '%s'", w.source, w.line, w.name);
        fprintf(stderr, " %s\n", err);
        assert(0);
    }
    if (got == 1) {
        lua_Debug ar;
        lua_pushvalue(L, -1);
        lua_getinfo(L, ">S", &ar);
        if (strcmp(w.source, ar.short_src) != 0) {
            fprintf(stderr, "source '%s', lua_getinfo says '%s'\n", w.source, ar.short_src);
            assert(0);
        }
    }
    if (got < 0)
        assert(err[0] != '\0');
    lua_pop(L, 1);
}

/* CODE's results, each a function, all give the same answer. */
static void run_check(const char *chunkname, const char *code, int want, int line, const char *name)
{
    int i, n, base = lua_gettop(L);
    n = run(code, chunkname);
    assert(n >= 1);
    for (i = 1; i <= n; i++)
        expect_at(base + i, want, line, name);
    lua_settop(L, base);
}

static void check_named(const char *what, const char *chunkname, const char *code, int want, int line,
                        const char *name)
{
    start_case(what);
    run_check(chunkname, code, want, line, name);
}

static void check(const char *what, const char *code, int want, int line, const char *name)
{
    check_named(what, "=test", code, want, line, name);
}

typedef struct {
    unsigned char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *s, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        assert(b->p);
    }
    if (n)
        memcpy(b->p + b->n, s, n);
    b->n += n;
}

static int writer(lua_State *l, const void *p, size_t sz, void *ud)
{
    (void)l;
    put(ud, p, sz);
    return 0;
}

/* lua_dump of the function on top (strip = 0). */
static buf dump_top(void)
{
    buf b = {NULL, 0, 0};
    assert(lua_dump(L, writer, &b, 0) == 0);
    return b;
}

static int parse(const buf *b, foh_lua_upwrite *w, foh_lua_upvalues_stats *st)
{
    char err[256] = "";
    int r = foh_lua_upvalues_parse(b->p, b->n, w, st, err, sizeof err);
    if (r < 0)
        assert(err[0]);
    return r;
}

/* ---- a builder of hand-made binary chunks (ldump.c's format) ---- */

static void put_byte(buf *b, unsigned x)
{
    unsigned char c = (unsigned char)x;
    put(b, &c, 1);
}

static void put_size(buf *b, size_t x) /* MSB-first 7-bit groups, last byte | 0x80 */
{
    unsigned char t[16];
    int n = 0;
    do {
        t[15 - n++] = x & 0x7f;
        x >>= 7;
    } while (x);
    t[15] |= 0x80;
    put(b, t + 16 - n, (size_t)n);
}

static void put_str(buf *b, const char *s)
{
    if (!s)
        put_size(b, 0);
    else {
        put_size(b, strlen(s) + 1);
        put(b, s, strlen(s));
    }
}

static void put_header(buf *b, unsigned main_nup)
{
    lua_Integer i = 0x5678;
    lua_Number x = 370.5;
    put(b, "\x1bLua\x54\x00\x19\x93\r\n\x1a\n", 12);
    put_byte(b, 4);
    put_byte(b, sizeof(lua_Integer));
    put_byte(b, sizeof(lua_Number));
    put(b, &i, sizeof i);
    put(b, &x, sizeof x);
    put_byte(b, main_nup);
}

typedef struct hproto {
    const char *source;
    int linedefined;
    const uint32_t *code;
    int ncode;
    const unsigned char *upv; /* (instack, idx) pairs */
    int nup;
    const struct hproto *kids;
    int nkids;
    const signed char *lineinfo;
    int nline;
    const int *abs; /* (pc, line) pairs */
    int nabs;
    const char *const *names;
    int nnames;
    int bad_const; /* add a constant with an unknown type tag */
} hproto;

static void put_proto(buf *b, const hproto *f)
{
    int i;
    put_str(b, f->source);
    put_size(b, (size_t)f->linedefined);
    put_size(b, (size_t)f->linedefined);
    put_byte(b, 0);
    put_byte(b, 0);
    put_byte(b, 4);
    put_size(b, (size_t)f->ncode);
    put(b, f->code, (size_t)f->ncode * 4);
    /* constants: one of each kind, exercising the parser */
    put_size(b, 7 + (f->bad_const ? 1 : 0));
    put_byte(b, 0);
    put_byte(b, 1);
    put_byte(b, 17);
    put_byte(b, 3);
    {
        lua_Integer k = 42;
        lua_Number x = 2.5;
        put(b, &k, sizeof k);
        put_byte(b, 19);
        put(b, &x, sizeof x);
    }
    put_byte(b, 4);
    put_str(b, "short");
    put_byte(b, 20);
    put_str(b, "a long string constant, longer than forty characters at least");
    if (f->bad_const)
        put_byte(b, 5); /* a table tag: never a constant */
    put_size(b, (size_t)f->nup);
    for (i = 0; i < f->nup; i++) {
        put_byte(b, f->upv[2 * i]);
        put_byte(b, f->upv[2 * i + 1]);
        put_byte(b, 0);
    }
    put_size(b, (size_t)f->nkids);
    for (i = 0; i < f->nkids; i++)
        put_proto(b, &f->kids[i]);
    put_size(b, (size_t)f->nline);
    put(b, f->lineinfo, (size_t)f->nline);
    put_size(b, (size_t)f->nabs);
    for (i = 0; i < f->nabs; i++) {
        put_size(b, (size_t)f->abs[2 * i]);
        put_size(b, (size_t)f->abs[2 * i + 1]);
    }
    put_size(b, 1); /* one local variable */
    put_str(b, "x");
    put_size(b, 0);
    put_size(b, (size_t)f->ncode);
    put_size(b, (size_t)f->nnames);
    for (i = 0; i < f->nnames; i++)
        put_str(b, f->names[i]);
}

static buf build(unsigned main_nup, const hproto *f)
{
    buf b = {NULL, 0, 0};
    put_header(&b, main_nup);
    put_proto(&b, f);
    return b;
}

/* Instructions (lopcodes.h of 5.4.4: op in bits 0..6, A 7..14, B 16..23). */
#define INS(op, a, b) ((uint32_t)(op) | (uint32_t)(a) << 7 | (uint32_t)(b) << 16)
#define OP_MOVE 0
#define OP_LOADNIL 8
#define OP_SETUPVAL 10
#define OP_RETURN0 71

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void) /* xorshift64*: a fixed sequence, so failures repeat */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545F4914F6CDD1Du) >> 32);
}

/* ---- cases ---- */

static void cases_semantics(void)
{
    check("counter in an upvalue (the brief's example)",
          "local count = 0\n"
          "local hooks = { on_gain = function(p)\n"
          "  count = count + 1\n"
          "  game.take_from_supply(p, count)\n"
          "end }\n"
          "return hooks.on_gain\n",
          1, 3, "count");
    check("pure function", "return function(a, b)\n  local s = a + b\n  s = s * 2\n  return s, math.max(a, b)\nend\n", 0,
          0, NULL);
    check("a local of the call written by a nested function (the brief's bump)",
          "return function(p)\n"
          "  local n = 0\n"
          "  local function bump() n = n + 1 end\n"
          "  bump()\n"
          "  return n\n"
          "end\n",
          0, 0, NULL);
    check("nested function writes the outer upvalue 1 level up",
          "local total = 0\n"
          "return function()\n"
          "  local function add(x)\n"
          "    total = total + x\n"
          "  end\n"
          "  add(1)\n"
          "end\n",
          1, 4, "total");
    check("nested function writes the outer upvalue 2 levels up",
          "local total = 0\n"
          "return function()\n"
          "  return function()\n"
          "    return function()\n"
          "      total = 1\n"
          "    end\n"
          "  end\n"
          "end\n",
          1, 5, "total");
    check("nested function writes the outer upvalue 3 levels up",
          "local a, total = 1, 0\n"
          "return function()\n"
          "  local x = a\n"
          "  return function()\n"
          "    return function()\n"
          "      return function(y)\n"
          "\n"
          "        total = y + x\n"
          "      end\n"
          "    end\n"
          "  end\n"
          "end\n",
          1, 8, "total");
    check("a local of the call written 2 levels down",
          "return function()\n"
          "  local n = 0\n"
          "  local function a() local function b() n = n + 1 end b() end\n"
          "  a()\n"
          "  return n\n"
          "end\n",
          0, 0, NULL);
    check("a local of a nested function written by its own nested function",
          "local k = 3\n"
          "return function()\n"
          "  local function f()\n"
          "    local m = k\n"
          "    return function() return function() m = m + 1 end end\n"
          "  end\n"
          "  return f()\n"
          "end\n",
          0, 0, NULL);
    check("a local shadowing the upvalue's name",
          "local n = 0\n"
          "return function()\n"
          "  local n = 5\n"
          "  return function() n = n + 1 end\n"
          "end\n",
          0, 0, NULL);
    check("one nested function writes a local (fine), a later one the upvalue",
          "local seen = false\n"
          "return function()\n"
          "  local c = 0\n"
          "  local function inc() c = c + 1 end\n"
          "  local function mark() seen = true end\n"
          "  inc() mark()\n"
          "end\n",
          1, 5, "seen");
    check("helper make() as a function: each call makes a fresh n",
          "return function() local n = 0 return function() n = n + 1 return n end end\n", 0, 0, NULL);
    check("a closure made by make() at load time and kept",
          "local function make()\n"
          "  local n = 0\n"
          "  return function() n = n + 1 return n end\n"
          "end\n"
          "return make(), make()\n",
          1, 3, "n");
    check("closures capturing numeric for loop variables, kept",
          "local fs = {}\n"
          "for i = 1, 3 do\n"
          "  fs[i] = function() i = i + 1 return i end\n"
          "end\n"
          "return fs[1], fs[2], fs[3]\n",
          1, 3, "i");
    check("closures capturing generic for loop variables, kept",
          "local fs = {}\n"
          "for k, v in ipairs({10, 20}) do\n"
          "  fs[k] = function()\n"
          "    v = v * 2\n"
          "  end\n"
          "end\n"
          "return fs[1], fs[2]\n",
          1, 4, "v");
    check("closures capturing loop variables inside the call (fine)",
          "return function(t)\n"
          "  local sum = 0\n"
          "  for i = 1, #t do\n"
          "    local function twice() i = i * 2 return i end\n"
          "    sum = sum + twice()\n"
          "  end\n"
          "  for k, v in pairs(t) do local g = function() v = 0; k = nil end g() end\n"
          "  local j = 0\n"
          "  while j < 3 do local x = j; (function() x = x + 1 end)(); j = j + 1 end\n"
          "  return sum\n"
          "end\n",
          0, 0, NULL);
    check("_ENV = {} inside a hook", "return function(p)\n  local t = {}\n  _ENV = t\nend\n", 1, 3, "_ENV");
    check("local _ENV inside the call, then a global assignment (fine)",
          "return function()\n  local _ENV = {}\n  x = 1\n  _ENV = nil\nend\n", 0, 0, NULL);
    check("global assignment (a table write, not an upvalue write)", "return function()\n  x = 1\nend\n", 0, 0,
          NULL);
    check("upvalues only read",
          "local count, f = 5, math.floor\nreturn function(p) return f(count / 2) + count end\n", 0, 0, NULL);
    check("recursive local function (reads itself)",
          "local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end\nreturn fact\n", 0, 0,
          NULL);
    check("a function assigning the variable holding itself",
          "local f\nf = function()\n  f = nil\nend\nreturn f\n", 1, 3, "f");
    check("method writing a field of self (a table write)",
          "local M = {}\nfunction M:m(v)\n  self.x = v\nend\nreturn M.m\n", 0, 0, NULL);
    check("vararg function writing an upvalue",
          "local last\nreturn function(...)\n  local n = select('#', ...)\n  last = n\nend\n", 1, 4, "last");
    check("a write in dead code is still refused (the analysis is static)",
          "local c = 0\nreturn function()\n  if false then\n    c = 1\n  end\nend\n", 1, 4, "c");
    check("multiple writes in one function: the first by pc",
          "local a, b = 0, 0\n"
          "return function()\n"
          "  local x = a\n"
          "  b = 1\n"
          "  a = 2\n"
          "  b = 3\n"
          "end\n",
          1, 4, "b");
    check("multiple writes: the function's own code before a nested function's (prototype order)",
          "local a, b = 0, 0\n"
          "return function()\n"
          "  local function g() a = 1 end\n"
          "  g()\n"
          "  b = 2\n"
          "end\n",
          1, 5, "b");
    check("multiple writes in nested functions: the first nested function's",
          "local a, b = 0, 0\n"
          "return function()\n"
          "  local function g() local function h() b = 1 end h() end\n"
          "  local function k() a = 1 end\n"
          "  g() k()\n"
          "end\n",
          1, 3, "b");

    {
        int base = lua_gettop(L);
        start_case("main chunk itself: its locals die with its call; writing its _ENV is refused");
        assert(luaL_loadstring(L, "local c = 0\nlocal function f() c = c + 1 end\nf()\nreturn c\n") == LUA_OK);
        expect_at(-1, 0, 0, NULL);
        assert(luaL_loadstring(L, "local x = 1\n_ENV = nil\n") == LUA_OK);
        expect_at(-1, 1, 2, "_ENV");
        lua_settop(L, base);
    }
    {
        int base = lua_gettop(L);
        char err[128] = "";
        foh_lua_upwrite w;
        start_case("C functions and non-functions (-1)");
        lua_getglobal(L, "print");
        expect_at(-1, -1, 0, NULL);
        run("return coroutine.wrap(function() end)", "=wrap");
        expect_at(-1, -1, 0, NULL);
        lua_newtable(L);
        expect_at(-1, -1, 0, NULL);
        lua_settop(L, base);
        {
            lua_State *empty = luaL_newstate();
            assert(foh_lua_find_upvalue_write(empty, &w, err, sizeof err) == -1 && err[0]);
            lua_close(empty);
        }
    }
    {
        int base = lua_gettop(L);
        start_case("a function from a stripped binary chunk: line -1, name '?'");
        run("local c = 0\nreturn function() c = c + 1 end\n", "=strip");
        {
            buf b = {NULL, 0, 0};
            assert(lua_dump(L, writer, &b, 1) == 0);
            assert(luaL_loadbufferx(L, (const char *)b.p, b.n, "=stripped", "b") == LUA_OK);
            free(b.p);
        }
        expect_at(-1, 1, -1, "?");
        lua_settop(L, base);
    }
    {
        static char code[1 << 16];
        int i, n = 0, level;
        start_case("40 levels of nesting, the deepest writes the outer upvalue");
        n += snprintf(code + n, sizeof code - (size_t)n, "local deep = 0\nreturn function()\n");
        for (level = 0; level < 40; level++)
            n += snprintf(code + n, sizeof code - (size_t)n, "return function()\n");
        n += snprintf(code + n, sizeof code - (size_t)n, "deep = deep + 1\n");
        for (i = 0; i <= 40; i++)
            n += snprintf(code + n, sizeof code - (size_t)n, "end\n");
        run(code, "=deep");
        expect_at(-1, 1, 43, "deep");
        lua_pop(L, 1);
    }
}

static void cases_names(void)
{
    static const char code[] = "local c = 0\nreturn function()\n  c = 1\nend\n";
    char name[300];
    int base = lua_gettop(L);
    start_case("source names as short_src shows them (@file, =literal, [string], long and short)");
    memset(name, 0, sizeof name);
    strcpy(name, "@");
    memset(name + 1, 'f', 120);
    memcpy(name + 110, "/end.lua", 8);
    run_check(name, code, 1, 3, "c");
    name[0] = '=';
    run_check(name, code, 1, 3, "c");
    run_check("@cards/base/x.lua", code, 1, 3, "c");
    run_check("=12345678901234567890123456789012345678901234567890123456789", code,
                1, 3, "c");
    run_check("", code, 1, 3, "c");
    run_check("short", code, 1, 3, "c");
    run_check("12345678901234567890123456789012345678901234", code,
                1, 3, "c");
    run_check("123456789012345678901234567890123456789012345", code, 1, 3, "c");
    /* luaL_loadstring: the source itself is the name, cut at its newline */
    assert(luaL_loadstring(L, code) == LUA_OK && lua_pcall(L, 0, 1, 0) == LUA_OK);
    expect_at(-1, 1, 3, "c");
    lua_settop(L, base);
}

/* A function of more than 255 instructions with line gaps: Lua stores an
 * absolute line every 128 instructions and for every jump of 128+ lines. */
static void cases_lines(void)
{
    static char code[1 << 20];
    int n = 0, i, line, wline = 0, base = lua_gettop(L);
    foh_lua_upvalues_stats st;
    foh_lua_upwrite w;
    buf b;

    start_case("more than 255 instructions, line gaps of 128+ (abslineinfo)");
    n += snprintf(code + n, sizeof code - (size_t)n, "local u = 0\nreturn function()\n  local x = 0\n");
    line = 4;
    for (i = 0; i < 400; i++) {
        int gap = (i % 37 == 0) ? 150 + i : (i % 5 == 0 ? 2 : 0);
        for (; gap > 0; gap--, line++)
            n += snprintf(code + n, sizeof code - (size_t)n, "\n");
        n += snprintf(code + n, sizeof code - (size_t)n, "  x = x + %d\n", i);
        line++;
    }
    for (i = 0; i < 300; i++, line++)
        n += snprintf(code + n, sizeof code - (size_t)n, "\n");
    wline = line;
    n += snprintf(code + n, sizeof code - (size_t)n, "  u = x\nend\n");
    run(code, "=big");
    expect_at(-1, 1, wline, "u");
    b = dump_top();
    assert(parse(&b, &w, &st) == 1 && w.line == wline);
    assert(st.instructions > 255 && st.abslineinfo >= 10 && st.setupvals == 1 && st.protos == 1);
    printf("         (%d instructions, %d absolute line entries, write at line %d)\n", st.instructions,
           st.abslineinfo, wline);
    free(b.p);
    lua_settop(L, base);

    start_case("a long function spanning 20000 lines, the write near its end");
    n = snprintf(code, sizeof code, "local u = 0\nreturn function(t)\n  local x = 0\n");
    for (line = 4; line < 20000; line++)
        n += snprintf(code + n, sizeof code - (size_t)n, line % 3 ? "\n" : "  x = x + t[%d]\n", line);
    n += snprintf(code + n, sizeof code - (size_t)n, "  u = x\n  return x\nend\n");
    run(code, "@long.lua");
    expect_at(-1, 1, 20000, "u");
    b = dump_top();
    assert(parse(&b, &w, &st) == 1 && w.line == 20000 && !strcmp(w.source, "long.lua"));
    assert(st.abslineinfo > 0);
    free(b.p);
    lua_settop(L, base);

    start_case("constants of every kind, more than 255 of them, a 300-item constructor (EXTRAARG)");
    n = snprintf(code, sizeof code, "local u\nreturn function(t)\n");
    for (i = 0; i < 300; i++)
        n += snprintf(code + n, sizeof code - (size_t)n, "  t.k%d = %d.5\n", i, i);
    n += snprintf(code + n, sizeof code - (size_t)n,
                  "  t.a = nil; t.b = true; t.c = false; t.d = 7; t.e = 'a long string, more than forty bytes long "
                  ".......'\n  u = t\n  t.list = {");
    for (i = 0; i < 300; i++)
        n += snprintf(code + n, sizeof code - (size_t)n, "%d, ", i);
    n += snprintf(code + n, sizeof code - (size_t)n, "}\nend\n");
    run(code, "=consts");
    expect_at(-1, 1, 304, "u");
    lua_settop(L, base);
}

/* Lines from a hand-made chunk, compared with Lua's own luaG_getfuncline
 * (seen through a count hook) at every pc. */
#define HAND_N 700
static int hook_lines[HAND_N + 10], hook_n;

static void count_hook(lua_State *l, lua_Debug *ar)
{
    lua_getinfo(l, "l", ar);
    if (hook_n < HAND_N + 10)
        hook_lines[hook_n++] = ar->currentline;
}

static void cases_hand_lines(void)
{
    static uint32_t code[HAND_N];
    static signed char lineinfo[HAND_N];
    static int lines[HAND_N], abs_[2 * HAND_N];
    static const unsigned char upv[2] = {1, 0};
    static const char *const names[1] = {"u"};
    int nabs = 0, pc, prev, iwthabs = 0, base = lua_gettop(L), s;
    hproto f;
    buf b;

    start_case("hand-made chunk: line of a write at every pc equals Lua's own line (count hook)");
    /* lines as a random walk with jumps; line info exactly as lcode.c savelineinfo stores it */
    prev = 10; /* linedefined */
    for (pc = 0; pc < HAND_N; pc++) {
        uint32_t r = rnd() % 100;
        int line = prev + (r < 60 ? (int)(rnd() % 3) : r < 80 ? -(int)(rnd() % 20) : (int)(rnd() % 400));
        int dif;
        if (line < 1)
            line = 1 + (int)(rnd() % 5);
        lines[pc] = line;
        dif = line - prev;
        if (dif >= 128 || dif <= -128 || iwthabs++ >= 128) {
            abs_[2 * nabs] = pc;
            abs_[2 * nabs + 1] = line;
            nabs++;
            dif = -128;
            iwthabs = 1;
        }
        lineinfo[pc] = (signed char)dif;
        prev = line;
    }
    memset(&f, 0, sizeof f);
    f.source = "=hand";
    f.linedefined = 10;
    f.code = code;
    f.ncode = HAND_N;
    f.upv = upv;
    f.nup = 1;
    f.lineinfo = lineinfo;
    f.nline = HAND_N;
    f.abs = abs_;
    f.nabs = nabs;
    f.names = names;
    f.nnames = 1;
    code[0] = INS(OP_LOADNIL, 0, 0);
    for (pc = 1; pc < HAND_N - 1; pc++)
        code[pc] = INS(OP_MOVE, 1, 0);
    code[HAND_N - 1] = INS(OP_RETURN0, 0, 0);
    code[HAND_N / 2] = INS(OP_SETUPVAL, 0, 0);

    /* Lua's lines: run it with a hook on every instruction */
    b = build(1, &f);
    assert(luaL_loadbufferx(L, (const char *)b.p, b.n, "=hand", "b") == LUA_OK);
    free(b.p);
    hook_n = 0;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    assert(lua_pcall(L, 0, 0, 0) == LUA_OK);
    lua_sethook(L, NULL, 0, 0);
    assert(hook_n == HAND_N);
    for (pc = 0; pc < HAND_N; pc++)
        assert(hook_lines[pc] == lines[pc]);
    assert(nabs > 5);

    /* ours, with the write moved to each pc in turn */
    for (s = 1; s < HAND_N - 1; s++) {
        foh_lua_upwrite w;
        foh_lua_upvalues_stats st;
        for (pc = 1; pc < HAND_N - 1; pc++)
            code[pc] = INS(OP_MOVE, 1, 0);
        code[s] = INS(OP_SETUPVAL, 0, 0);
        b = build(1, &f);
        assert(parse(&b, &w, &st) == 1);
        assert(w.line == lines[s] && !strcmp(w.name, "u") && !strcmp(w.source, "hand"));
        assert(st.abslineinfo == nabs);
        free(b.p);
    }
    printf("         (%d instructions, %d absolute line entries)\n", HAND_N, nabs);
    lua_settop(L, base);
}

/* Hand-made chunks the parser must refuse (or accept) exactly. */
static void cases_hand_malformed(void)
{
    static const uint32_t code_w[2] = {INS(OP_SETUPVAL, 0, 0), INS(OP_RETURN0, 0, 0)};
    static const uint32_t code_bad_b[2] = {INS(OP_SETUPVAL, 0, 1), INS(OP_RETURN0, 0, 0)};
    static const signed char li2[2] = {1, 0};
    static const unsigned char root_upv[2] = {1, 0}, kid_upv_ok[2] = {0, 0}, kid_upv_bad[2] = {0, 1};
    static const char *const names1[1] = {"u"}, *const names2[2] = {"u", "v"};
    foh_lua_upwrite w;
    hproto root, kid;
    buf b;

    start_case("hand-made chunks: malformed structure refused (-1), well formed ones read");
    memset(&kid, 0, sizeof kid);
    kid.code = code_w;
    kid.ncode = 2;
    kid.upv = kid_upv_ok;
    kid.nup = 1;
    kid.lineinfo = li2;
    kid.nline = 2;
    kid.names = names1;
    kid.nnames = 1;
    kid.linedefined = 5;
    memset(&root, 0, sizeof root);
    root.source = "@root.lua";
    root.code = code_w + 1;
    root.ncode = 1;
    root.upv = root_upv;
    root.nup = 1;
    root.kids = &kid;
    root.nkids = 1;
    root.lineinfo = li2;
    root.nline = 1;
    root.names = names1;
    root.nnames = 1;

    b = build(1, &root); /* well formed: the kid writes the root's upvalue through idx 0 */
    assert(parse(&b, &w, NULL) == 1 && w.line == 6 && !strcmp(w.name, "u") && !strcmp(w.source, "root.lua"));
    free(b.p);
    kid.upv = root_upv; /* instack: a local of the root's call */
    b = build(1, &root);
    assert(parse(&b, &w, NULL) == 0);
    free(b.p);
    kid.upv = kid_upv_bad; /* idx 1 of a root with one upvalue */
    b = build(1, &root);
    assert(parse(&b, &w, NULL) == -1);
    free(b.p);
    kid.upv = kid_upv_ok;
    kid.code = code_bad_b; /* SETUPVAL B = 1 of one upvalue */
    b = build(1, &root);
    assert(parse(&b, &w, NULL) == -1);
    free(b.p);
    kid.code = code_w;
    kid.names = names2; /* two names for one upvalue */
    kid.nnames = 2;
    b = build(1, &root);
    assert(parse(&b, &w, NULL) == -1);
    free(b.p);
    kid.nnames = 0; /* no names: "?" */
    b = build(1, &root);
    assert(parse(&b, &w, NULL) == 1 && !strcmp(w.name, "?"));
    free(b.p);
    kid.nnames = 1;
    kid.names = names1;
    kid.nline = 1; /* line info for 1 of 2 instructions */
    b = build(1, &root);
    assert(parse(&b, &w, NULL) == -1);
    free(b.p);
    kid.nline = 0; /* no line info at all: line -1 */
    b = build(1, &root);
    assert(parse(&b, &w, NULL) == 1 && w.line == -1);
    free(b.p);
    kid.nline = 2;
    kid.bad_const = 1;
    b = build(1, &root);
    assert(parse(&b, &w, NULL) == -1);
    free(b.p);
    kid.bad_const = 0;
    b = build(2, &root); /* header announces 2 upvalues, the function has 1 */
    assert(parse(&b, &w, NULL) == -1);
    free(b.p);

    { /* a varint that overflows an int, then one that overflows size_t */
        unsigned char *p;
        size_t at;
        int i;
        b = build(1, &root);
        at = 4 + 1 + 1 + 6 + 3 + sizeof(lua_Integer) + sizeof(lua_Number) + 1; /* header, nup byte: source size */
        assert(b.n > at && b.p[at - 1] == 1);
        p = malloc(b.n + 20);
        memcpy(p, b.p, at);
        for (i = 0; i < 19; i++)
            p[at + (size_t)i] = 0x7f;
        p[at + 19] = 0xff;
        assert(foh_lua_upvalues_parse(p, at + 20, &w, NULL, NULL, 0) == -1);
        p[at] = 0x80; /* no source, then a linedefined above INT_MAX */
        memcpy(p + at + 1, "\x7f\x7f\x7f\x7f\xff", 5);
        assert(foh_lua_upvalues_parse(p, at + 6, &w, NULL, NULL, 0) == -1);
        p[at + 1] = 0x07; /* 2^31 - 1 is fine: then it is only truncated */
        assert(foh_lua_upvalues_parse(p, at + 6, &w, NULL, NULL, 0) == -1);
        free(p);
        free(b.p);
    }
    { /* nesting: 250 deep is read, 100000 deep is refused without exhausting the C stack */
        static const int depths[2] = {250, 100000};
        int d, i;
        for (d = 0; d < 2; d++) {
            buf c = {NULL, 0, 0};
            char err[200];
            put_header(&c, 0);
            for (i = 0; i < depths[d]; i++) {
                put_str(&c, i ? NULL : "=nest");
                put(&c, "\x80\x80\x00\x00\x02\x80\x80\x80\x81", 9); /* lines, 3 bytes, 0 code, 0 k, 0 up, 1 kid */
            }
            c.p[c.n - 1] = 0x80; /* the innermost has no kid */
            for (i = 0; i < depths[d]; i++)
                put(&c, "\x80\x80\x80\x80", 4); /* empty debug info */
            assert(foh_lua_upvalues_parse(c.p, c.n, &w, NULL, err, sizeof err) == (d ? -1 : 0));
            free(c.p);
        }
    }
}

/* A real dump with nested functions, constants and line gaps. */
static const char rich[] =
    "local total, seen = 0, {}\n"
    "local name = 'a long string constant, longer than forty characters, in a dump'\n"
    "local hooks = {}\n"
    "function hooks.on_gain(p, ...)\n"
    "  local n, f = 0, 1.5\n"
    "  local function bump(k) n = n + k; return function() return n, f, true, false, nil end end\n"
    "  for i = 1, 3 do bump(i) end\n"
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
    "  seen[p] = name .. tostring(n)\n"
    "  local g = function() total = total + n end\n"
    "  g()\n"
    "  return 12345678901, 0x7fffffff, -1\n"
    "end\n"
    "return hooks.on_gain\n";

static void cases_corrupt(void)
{
    foh_lua_upwrite w, w0;
    foh_lua_upvalues_stats st;
    int base = lua_gettop(L), r0, it;
    size_t cut, i, hdr = 4 + 1 + 1 + 6 + 3 + sizeof(lua_Integer) + sizeof(lua_Number);
    unsigned char *p;
    buf b;

    int wline = 1;
    const char *c;
    for (c = rich; c < strstr(rich, "total = total"); c++)
        wline += *c == '\n';
    run(rich, "=rich");
    expect_at(-1, 1, wline, "total");
    b = dump_top();
    r0 = parse(&b, &w0, &st);
    assert(r0 == 1 && w0.line == wline && st.protos == 4 && st.abslineinfo >= 1);

    start_case("every truncation of a real dump is refused (-1)");
    for (cut = 0; cut < b.n; cut++) {
        p = malloc(cut ? cut : 1); /* exact size: ASan sees any read past it */
        memcpy(p, b.p, cut);
        assert(foh_lua_upvalues_parse(p, cut, &w, NULL, NULL, 0) == -1);
        free(p);
    }
    printf("         (%zu prefixes)\n", b.n);

    start_case("bytes after the chunk, and every header byte changed, are refused (-1)");
    p = malloc(b.n + 1);
    memcpy(p, b.p, b.n);
    p[b.n] = 0;
    assert(foh_lua_upvalues_parse(p, b.n + 1, &w, NULL, NULL, 0) == -1);
    for (i = 0; i <= hdr; i++) { /* the header, then the main upvalue count */
        memcpy(p, b.p, b.n);
        p[i] ^= 0x01;
        assert(foh_lua_upvalues_parse(p, b.n, &w, NULL, NULL, 0) == -1);
        p[i] ^= 0x41;
        assert(foh_lua_upvalues_parse(p, b.n, &w, NULL, NULL, 0) == -1);
    }
    free(p);
    assert(foh_lua_upvalues_parse(NULL, 0, &w, NULL, NULL, 0) == -1);

    start_case("garbled dumps (random bytes changed, cut) read safely");
    {
        int counts[3] = {0, 0, 0};
        for (it = 0; it < 40000; it++) {
            size_t len = b.n, k, nmut = 1 + rnd() % 4;
            int r;
            if (rnd() % 8 == 0)
                len = hdr + 2 + rnd() % (b.n - hdr - 2);
            p = malloc(len);
            memcpy(p, b.p, len);
            for (k = 0; k < nmut; k++) {
                size_t at = hdr + 1 + rnd() % (len - hdr - 1);
                uint32_t how = rnd() % 4;
                p[at] = how == 0 ? (unsigned char)rnd() : how == 1 ? p[at] ^ (unsigned char)(1u << rnd() % 8)
                        : how == 2 ? 0xff
                                   : 0x80;
            }
            r = foh_lua_upvalues_parse(p, len, &w, NULL, NULL, 0);
            assert(r >= -1 && r <= 1);
            if (r == 1)
                assert(memchr(w.source, 0, sizeof w.source) && memchr(w.name, 0, sizeof w.name));
            counts[r + 1]++;
            free(p);
        }
        printf("         (40000 garbled: %d refused, %d clean, %d writes)\n", counts[0], counts[1], counts[2]);
        assert(counts[0] > 0 && counts[2] > 0);
    }
    free(b.p);
    lua_settop(L, base);
}

int main(void)
{
    char err[256] = "";
    L = luaL_newstate();
    assert(L);
    luaL_openlibs(L);

    start_case("self-test passes on this Lua build");
    assert(foh_lua_upvalues_selftest(L, err, sizeof err) == 0);
    assert(lua_gettop(L) == 0);

    cases_semantics();
    cases_names();
    cases_lines();
    cases_hand_lines();
    cases_hand_malformed();
    cases_corrupt();

    assert(lua_gettop(L) == 0);
    lua_close(L);
    printf("all %d cases passed\n", ncases);
    return 0;
}

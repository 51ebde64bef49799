/* lua_upvalues: see lua_upvalues.h.
 *
 * The public C API cannot show a function's instructions, but lua_dump
 * writes them: this reads Lua 5.4's binary chunk format (ldump.c of Lua
 * 5.4.4) and looks for OP_SETUPVAL, whose target is followed through the
 * upvalue descriptors of the nested functions up to the dumped function.
 * Every length is checked against the dump: a malformed one is an error,
 * never a read out of bounds. A self-test (run by every engine) checks the
 * format and the opcode number on snippets with known answers. */
#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_upvalues.h"

#define OP_SETUPVAL 10     /* lopcodes.h of Lua 5.4: UpValue[B] := R[A] */
#define ABSLINEINFO (-0x80) /* ldebug.h: an absolute line follows in abslineinfo */

/* Constant type tags of Lua 5.4 (lobject.h: type | variant << 4). */
enum { TAG_NIL = 0, TAG_FALSE = 1, TAG_TRUE = 17, TAG_INT = 3, TAG_FLT = 19, TAG_SHRSTR = 4, TAG_LNGSTR = 20 };

typedef struct {
    int parent;          /* index of the enclosing prototype, -1 for the dumped one */
    int linedefined;
    int ncode;
    const unsigned char *code; /* ncode 4-byte instructions, native order */
    int nup;
    const unsigned char *up;   /* nup (instack, idx, kind) triples */
    int nline;
    const signed char *lineinfo;
    int nabs;
    int *abs;                  /* nabs (pc, line) pairs */
    int nupnames;
    const char *upname[256];   /* upvalue names (not NUL-terminated) */
    size_t upnamelen[256];
} proto;

typedef struct {
    const unsigned char *p, *end;
    proto *protos;
    int n, cap;
    const char *bad; /* why the dump could not be read */
} reader;

static int fail(reader *r, const char *why)
{
    if (!r->bad)
        r->bad = why;
    return 0;
}

static int need(reader *r, size_t n) { return (size_t)(r->end - r->p) >= n || fail(r, "truncated"); }

static int byte(reader *r, int *out)
{
    if (!need(r, 1))
        return 0;
    *out = *r->p++;
    return 1;
}

/* A size: MSB-first groups of 7 bits, the last byte marked with 0x80. */
static int size(reader *r, size_t *out)
{
    size_t x = 0;
    int b;
    do {
        if (!byte(r, &b))
            return 0;
        if (x > ((size_t)1 << 40))
            return fail(r, "a size too large");
        x = (x << 7) | (size_t)(b & 0x7f);
    } while (!(b & 0x80));
    *out = x;
    return 1;
}

static int count(reader *r, int *out)
{
    size_t x;
    if (!size(r, &x))
        return 0;
    if (x > (size_t)(r->end - r->p) + 1 || x > 0x7fffffff)
        return fail(r, "a count beyond the dump");
    *out = (int)x;
    return 1;
}

/* A value that is not a count of what follows (a line, a pc). */
static int number(reader *r, int *out)
{
    size_t x;
    if (!size(r, &x))
        return 0;
    if (x > 0x7fffffff)
        return fail(r, "a number too large");
    *out = (int)x;
    return 1;
}

/* A string: its length + 1 (0: none), then its bytes. */
static int string(reader *r, const char **s, size_t *len)
{
    size_t n;
    if (!size(r, &n))
        return 0;
    *s = NULL;
    *len = 0;
    if (n == 0)
        return 1;
    if (!need(r, n - 1))
        return 0;
    *s = (const char *)r->p;
    *len = n - 1;
    r->p += n - 1;
    return 1;
}

static int skip(reader *r, size_t n)
{
    if (!need(r, n))
        return 0;
    r->p += n;
    return 1;
}

/* One function and, depth first, the functions nested in it. */
static int function(reader *r, int parent, int depth)
{
    if (depth > 200)
        return fail(r, "functions nested too deep");
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 16;
        proto *grown = realloc(r->protos, (size_t)cap * sizeof *grown);
        if (!grown)
            return fail(r, "out of memory");
        r->protos = grown;
        r->cap = cap;
    }
    int me = r->n++;
    proto *f = &r->protos[me];
    memset(f, 0, sizeof *f);
    f->parent = parent;
    const char *src;
    size_t len, x;
    int b, k;
    if (!string(r, &src, &len) || !number(r, &f->linedefined) || !size(r, &x) || !skip(r, 3) ||
        !count(r, &f->ncode) || !need(r, (size_t)f->ncode * 4))
        return 0;
    f->code = r->p;
    r->p += (size_t)f->ncode * 4;
    if (!count(r, &k))
        return 0;
    for (int i = 0; i < k; i++) {
        if (!byte(r, &b))
            return 0;
        if (b == TAG_FLT || b == TAG_INT) {
            if (!skip(r, 8))
                return 0;
        } else if (b == TAG_SHRSTR || b == TAG_LNGSTR) {
            if (!string(r, &src, &len))
                return 0;
        } else if (b != TAG_NIL && b != TAG_FALSE && b != TAG_TRUE) {
            return fail(r, "an unknown constant type");
        }
    }
    if (!count(r, &f->nup) || f->nup > 255 || !need(r, (size_t)f->nup * 3))
        return fail(r, "bad upvalue descriptors");
    f->up = r->p;
    r->p += (size_t)f->nup * 3;
    int nested;
    if (!count(r, &nested))
        return 0;
    for (int i = 0; i < nested; i++)
        if (!function(r, me, depth + 1))
            return 0;
    f = &r->protos[me]; /* the array may have moved */
    if (!count(r, &f->nline) || (f->nline && f->nline != f->ncode) || !need(r, (size_t)f->nline))
        return fail(r, "bad line information");
    f->lineinfo = (const signed char *)r->p;
    r->p += f->nline;
    if (!count(r, &f->nabs))
        return 0;
    f->abs = f->nabs ? malloc((size_t)f->nabs * 2 * sizeof *f->abs) : NULL;
    if (f->nabs && !f->abs)
        return fail(r, "out of memory");
    for (int i = 0; i < 2 * f->nabs; i++)
        if (!number(r, &f->abs[i]))
            return 0;
    int nloc;
    if (!count(r, &nloc))
        return 0;
    for (int i = 0; i < nloc; i++)
        if (!string(r, &src, &len) || !size(r, &x) || !size(r, &x))
            return 0;
    if (!count(r, &f->nupnames) || f->nupnames > 255)
        return fail(r, "bad upvalue names");
    for (int i = 0; i < f->nupnames; i++)
        if (!string(r, &f->upname[i], &f->upnamelen[i]))
            return 0;
    return 1;
}

/* The line of instruction PC of F, as luaG_getfuncline computes it. */
static int line_of(const proto *f, int pc)
{
    if (!f->nline)
        return -1;
    int basepc = -1, line = f->linedefined;
    for (int i = 0; i < f->nabs; i++)
        if (f->abs[2 * i] <= pc) {
            basepc = f->abs[2 * i];
            line = f->abs[2 * i + 1];
        }
    while (basepc++ < pc)
        if (f->lineinfo[basepc] != ABSLINEINFO)
            line += f->lineinfo[basepc];
    return line;
}

typedef struct {
    char *text;
    size_t len, cap;
} dump_buffer;

static int writer(lua_State *L, const void *p, size_t sz, void *ud)
{
    (void)L;
    dump_buffer *b = ud;
    if (b->len + sz > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + sz)
            cap *= 2;
        char *grown = realloc(b->text, cap);
        if (!grown)
            return 1;
        b->text = grown;
        b->cap = cap;
    }
    memcpy(b->text + b->len, p, sz);
    b->len += sz;
    return 0;
}

/* Check the header of the dump at R (the chunk format of this Lua). */
static int header(reader *r)
{
    static const unsigned char sig[] = {0x1b, 'L', 'u', 'a', 0x54, 0, 0x19, 0x93, '\r', '\n', 0x1a, '\n', 4, 8, 8};
    if (!need(r, sizeof sig + 16 + 1) || memcmp(r->p, sig, sizeof sig))
        return fail(r, "not a Lua 5.4 binary chunk with 4-byte instructions and 8-byte numbers");
    r->p += sizeof sig;
    lua_Integer i;
    lua_Number n;
    memcpy(&i, r->p, 8);
    memcpy(&n, r->p + 8, 8);
    if (i != 0x5678 || n != 370.5)
        return fail(r, "the chunk's number formats are not this machine's");
    r->p += 17; /* the two test numbers and the main function's upvalue count */
    return 1;
}

/* Analyse the dump TEXT of LEN bytes. */
static int analyse(const char *text, size_t len, foh_lua_upwrite *w, char *err, size_t errlen)
{
    reader r = {.p = (const unsigned char *)text, .end = (const unsigned char *)text + len};
    int found = header(&r) && function(&r, -1, 0);
    if (found && r.p != r.end)
        found = fail(&r, "bytes after the function");
    if (r.bad) {
        snprintf(err, errlen, "its bytecode could not be read: %s", r.bad);
        found = -1;
    } else {
        found = 0;
        for (int q = 0; q < r.n && !found; q++) {
            const proto *f = &r.protos[q];
            for (int pc = 0; pc < f->ncode && !found; pc++) {
                uint32_t ins;
                memcpy(&ins, f->code + 4 * (size_t)pc, 4);
                if ((ins & 0x7f) != OP_SETUPVAL)
                    continue;
                /* Follow the written upvalue out: a local of an enclosing
                 * call is fine; reaching the dumped function's own upvalue
                 * is state kept between calls. */
                int cur = q, idx = (int)(ins >> 16 & 0xff), ok = 1, local = 0;
                while (ok && cur != 0 && !local) {
                    const proto *c = &r.protos[cur];
                    if (idx >= c->nup) {
                        ok = 0;
                        break;
                    }
                    local = c->up[3 * idx] != 0;
                    idx = c->up[3 * idx + 1];
                    cur = c->parent;
                }
                if (!ok) {
                    snprintf(err, errlen, "its bytecode could not be read: an upvalue index out of range");
                    found = -1;
                    break;
                }
                if (local)
                    continue;
                int u = (int)(ins >> 16 & 0xff);
                snprintf(w->name, sizeof w->name, "%.*s", u < f->nupnames ? (int)f->upnamelen[u] : 1,
                         u < f->nupnames && f->upname[u] ? f->upname[u] : "?");
                w->line = line_of(f, pc);
                found = 1;
            }
        }
    }
    for (int q = 0; q < r.n; q++)
        free(r.protos[q].abs);
    free(r.protos);
    return found;
}

int foh_lua_find_upvalue_write(lua_State *L, foh_lua_upwrite *w, char *err, size_t errlen)
{
    if (!lua_isfunction(L, -1) || lua_iscfunction(L, -1)) {
        snprintf(err, errlen, "not a Lua function");
        return -1;
    }
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    snprintf(w->source, sizeof w->source, "%s", ar.short_src);
    dump_buffer b = {0};
    int found = -1;
    if (lua_dump(L, writer, &b, 0) != 0)
        snprintf(err, errlen, "it cannot be dumped (out of memory)");
    else
        found = analyse(b.text, b.len, w, err, errlen);
    free(b.text);
    return found;
}

int foh_lua_upvalues_selftest(lua_State *L, char *err, size_t errlen)
{
    static const struct {
        const char *code;
        int found;
        const char *name;
        int line;
    } cases[] = {
        {"local n = 0\nreturn function()\n  n = n + 1\nend", 1, "n", 3},
        {"return function(a)\n  local b = a\n  b = b + 1\n  return b\nend", 0, "", 0},
        {"local t = 0\nreturn function()\n  local function f()\n    t = 1\n  end\n  f()\nend", 1, "t", 4},
        {"return function()\n  local n = 0\n  local function f()\n    n = n + 1\n  end\n  f()\nend", 0, "", 0},
    };
    int top = lua_gettop(L);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        foh_lua_upwrite w;
        char why[160];
        if (luaL_loadstring(L, cases[i].code) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
            lua_settop(L, top);
            snprintf(err, errlen, "the self-test's snippet %d does not run", (int)i + 1);
            return -1;
        }
        int found = foh_lua_find_upvalue_write(L, &w, why, sizeof why);
        lua_settop(L, top);
        if (found != cases[i].found || (found && (strcmp(w.name, cases[i].name) || w.line != cases[i].line))) {
            snprintf(err, errlen, "snippet %d: expected %d, got %d%s%s", (int)i + 1, cases[i].found, found,
                     found < 0 ? ": " : "", found < 0 ? why : "");
            return -1;
        }
    }
    return 0;
}

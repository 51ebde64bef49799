/* lua_upvalues: see lua_upvalues.h.
 *
 * The public C API cannot show a function's instructions, but lua_dump
 * writes them. This reads Lua 5.4's binary chunk format (ldump.c/lundump.c
 * of Lua 5.4.4) and looks for OP_SETUPVAL. Its target, upvalue B, is followed
 * through the upvalue descriptors (instack, idx) of the enclosing functions:
 * "idx of the parent's upvalues" leads further up, "instack" stops at a local
 * of a call (made per call: fine); reaching the dumped function itself means
 * a cell that outlives every call.
 *
 * Every length is checked against the dump before use: a malformed or
 * truncated chunk is an error (-1), never a read out of bounds. The format
 * and the opcode number are facts of one Lua version, so a self-test checks
 * them on snippets with known answers. */
#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_upvalues.h"

#if LUA_VERSION_NUM != 504
#error "lua_upvalues reads Lua 5.4 bytecode"
#endif

/* From Lua 5.4.4's sources (file named on each line). */
#define OP_SETUPVAL 10                  /* lopcodes.h: 11th in enum OpCode, "A B  UpValue[B] := R[A]" */
#define OPCODE(i) ((i) & 0x7Fu)         /* lopcodes.h: POS_OP 0, SIZE_OP 7 */
#define ARG_B(i) (((i) >> 16) & 0xFFu)  /* lopcodes.h: POS_B = POS_k + 1 = 7 + 8 + 1, SIZE_B 8 */
#define LUAC_VERSION 0x54               /* lundump.h: major * 16 + minor */
#define LUAC_FORMAT 0                   /* lundump.h: the official format */
#define LUAC_DATA "\x19\x93\r\n\x1a\n"  /* lundump.h: catches text-mode conversions */
#define LUAC_INT 0x5678                 /* lundump.h: checks lua_Integer's size and byte order */
#define LUAC_NUM 370.5                  /* lundump.h: checks lua_Number's format */
#define INSTRUCTION_SIZE 4              /* llimits.h: Instruction is l_uint32 */
/* lobject.h: constant type tags, basic type | variant << 4 */
enum { TAG_NIL = 0, TAG_FALSE = 1, TAG_TRUE = 1 | 1 << 4, TAG_INT = 3, TAG_FLT = 3 | 1 << 4, TAG_SHRSTR = 4,
       TAG_LNGSTR = 4 | 1 << 4 };

/* Nesting of functions; Lua's parser stops far below (LUAI_MAXCCALLS 200). Bounds our recursion. */
#define MAX_DEPTH 256

typedef struct {
    const unsigned char *start, *p, *end;
    const char *bad;   /* why the chunk cannot be read (the first reason) */
    size_t bad_at;     /* offset where it was found */
    unsigned main_nup; /* upvalue count announced before the main function */
    int found;         /* the first write is located (its prototype fills w) */
    foh_lua_upwrite w;
    unsigned long protos, instructions, abslineinfo, setupvals; /* for tests */
} reader;

/* What a nested function needs from the one enclosing it. */
typedef struct {
    const char *src; /* source name (not NUL-terminated), inherited when the dump omits it */
    size_t srclen;
    int has_src;
    const unsigned char *reach; /* per upvalue: 1 if it is (a chain to) a cell of the dumped function */
    int nup;
} frame;

static int fail(reader *r, const char *why)
{
    if (!r->bad) {
        r->bad = why;
        r->bad_at = (size_t)(r->p - r->start);
    }
    return 0;
}

static int need(reader *r, size_t n) { return (size_t)(r->end - r->p) >= n ? 1 : fail(r, "truncated chunk"); }

static int get_byte(reader *r, unsigned *out)
{
    if (!need(r, 1))
        return 0;
    *out = *r->p++;
    return 1;
}

static int skip(reader *r, size_t n)
{
    if (!need(r, n))
        return 0;
    r->p += n;
    return 1;
}

/* lundump.c loadUnsigned: 7-bit groups, most significant first, the last
 * byte marked with 0x80; refused once it would exceed LIMIT. */
static int get_unsigned(reader *r, size_t limit, size_t *out)
{
    size_t x = 0;
    unsigned b;
    limit >>= 7;
    do {
        if (!get_byte(r, &b))
            return 0;
        if (x >= limit)
            return fail(r, "integer overflow");
        x = (x << 7) | (b & 0x7f);
    } while (!(b & 0x80));
    *out = x;
    return 1;
}

static int get_int(reader *r, int *out) /* lundump.c loadInt: 0..INT_MAX */
{
    size_t x;
    if (!get_unsigned(r, INT_MAX, &x))
        return 0;
    *out = (int)x;
    return 1;
}

/* lundump.c loadStringN: size + 1, then the bytes; size 0 is no string. */
static int get_string(reader *r, const char **s, size_t *len, int *present)
{
    size_t n;
    if (!get_unsigned(r, SIZE_MAX, &n))
        return 0;
    *present = n != 0;
    *len = n ? n - 1 : 0;
    *s = (const char *)r->p;
    return skip(r, *len);
}

/* A count of N records of at least RECSIZE bytes each must fit in what is
 * left: bounds allocations and loops by the chunk's size. */
static int count(reader *r, int *n, size_t recsize)
{
    if (!get_int(r, n))
        return 0;
    return (size_t)*n <= (size_t)(r->end - r->p) / recsize ? 1 : fail(r, "truncated chunk");
}

static int read_header(reader *r) /* ldump.c dumpHeader */
{
    static const unsigned char sizes[3] = {INSTRUCTION_SIZE, sizeof(lua_Integer), sizeof(lua_Number)};
    lua_Integer i;
    lua_Number n;
    unsigned b;
    if (!need(r, 4) || memcmp(r->p, LUA_SIGNATURE, 4) != 0)
        return fail(r, "not a binary chunk");
    r->p += 4;
    if (!get_byte(r, &b) || b != LUAC_VERSION)
        return fail(r, "not Lua 5.4 bytecode");
    if (!get_byte(r, &b) || b != LUAC_FORMAT)
        return fail(r, "not the official bytecode format");
    if (!need(r, 6) || memcmp(r->p, LUAC_DATA, 6) != 0)
        return fail(r, "corrupted header");
    r->p += 6;
    if (!need(r, 3) || memcmp(r->p, sizes, 3) != 0)
        return fail(r, "instruction or number sizes differ");
    r->p += 3;
    if (!need(r, sizeof i + sizeof n))
        return 0;
    memcpy(&i, r->p, sizeof i);
    r->p += sizeof i;
    if (i != LUAC_INT)
        return fail(r, "integer format differs");
    memcpy(&n, r->p, sizeof n);
    r->p += sizeof n;
    if (n != (lua_Number)LUAC_NUM)
        return fail(r, "float format differs");
    return get_byte(r, &r->main_nup); /* the main closure's upvalue count */
}

/* lobject.c luaO_chunkid: the short_src lua_getinfo shows for a source of
 * SRCLEN bytes (not NUL-terminated here, unlike Lua's). */
static void chunkid(char *out, size_t outsize, const char *src, size_t srclen, int present)
{
    char buf[LUA_IDSIZE];
    size_t room = LUA_IDSIZE;
    if (!present) { /* ldebug.c funcinfo: no source is "=?" */
        src = "=?";
        srclen = 2;
    }
    if (srclen > 0 && (src[0] == '=' || src[0] == '@')) {
        if (srclen <= room) { /* Lua copies the '\0' after the source too */
            memcpy(buf, src + 1, srclen - 1);
            buf[srclen - 1] = '\0';
        } else if (src[0] == '=') { /* truncate it */
            memcpy(buf, src + 1, room - 1);
            buf[room - 1] = '\0';
        } else { /* file name: "..." and its end */
            memcpy(buf, "...", 3);
            memcpy(buf + 3, src + srclen - (room - 4), room - 4);
            buf[room - 1] = '\0';
        }
    } else { /* [string "source"], stopping at a newline */
        const char *nul = memchr(src, '\0', srclen);
        const char *nl = memchr(src, '\n', nul ? (size_t)(nul - src) : srclen); /* Lua's strchr */
        size_t n = 9;
        room -= 9 + 3 + 2 + 1; /* prefix, "...", suffix, '\0' */
        memcpy(buf, "[string \"", 9);
        if (srclen < room && !nl) {
            memcpy(buf + n, src, srclen);
            n += srclen;
        } else {
            if (nl)
                srclen = (size_t)(nl - src);
            if (srclen > room)
                srclen = room;
            memcpy(buf + n, src, srclen);
            memcpy(buf + n + srclen, "...", 3);
            n += srclen + 3;
        }
        memcpy(buf + n, "\"]", 3);
    }
    snprintf(out, outsize, "%s", buf);
}

/* One function (ldump.c dumpFunction), then its nested ones. PARENT is NULL
 * for the dumped function, whose every upvalue is a cell outliving calls.
 * Long because: it reads the sections of a dumped function in the one order
 * ldump.c writes them (source, lines, code, constants, upvalues, nested
 * functions, debug information), each depending on the ones before; split,
 * the order would be spread over functions sharing most of their state. */
static int read_function(reader *r, const frame *parent, int depth)
{
    frame me;
    unsigned char *reach = NULL;
    const unsigned char *code, *lineinfo;
    int linedefined, lastline, ncode, n, nline, i;
    int mine = 0, wpc = 0, basepc = -1, advancing = 1;
    unsigned wb = 0;
    long long line;
    int ok = 0;

    if (depth > MAX_DEPTH)
        return fail(r, "functions nested too deeply");
    r->protos++;
    if (!get_string(r, &me.src, &me.srclen, &me.has_src))
        return 0;
    if (!me.has_src && parent) { /* same source as the parent: omitted */
        me.src = parent->src;
        me.srclen = parent->srclen;
        me.has_src = parent->has_src;
    }
    if (!get_int(r, &linedefined) || !get_int(r, &lastline) || !skip(r, 3)) /* numparams, is_vararg, maxstack */
        return 0;

    /* code: kept in place, scanned once the upvalue descriptors are known */
    if (!count(r, &ncode, INSTRUCTION_SIZE))
        return 0;
    code = r->p;
    r->p += (size_t)ncode * INSTRUCTION_SIZE;
    r->instructions += (unsigned long)ncode;

    if (!get_int(r, &n)) /* constants: skipped, but each must be well formed */
        return 0;
    for (i = 0; i < n; i++) {
        const char *s;
        size_t len;
        unsigned tag;
        int present;
        if (!get_byte(r, &tag))
            return 0;
        if (tag == TAG_NIL || tag == TAG_FALSE || tag == TAG_TRUE)
            continue;
        if (!(tag == TAG_INT ? skip(r, sizeof(lua_Integer))
              : tag == TAG_FLT ? skip(r, sizeof(lua_Number))
              : tag == TAG_SHRSTR || tag == TAG_LNGSTR ? get_string(r, &s, &len, &present)
                                                       : fail(r, "unknown constant type")))
            return 0;
    }

    /* upvalues (instack, idx, kind): which of them lead to the dumped function's cells */
    if (!count(r, &me.nup, 3))
        return 0;
    if (!parent && (unsigned)me.nup != r->main_nup)
        return fail(r, "upvalue count differs from the header's");
    reach = malloc(me.nup ? (size_t)me.nup : 1);
    if (!reach)
        return fail(r, "out of memory");
    for (i = 0; i < me.nup; i++, r->p += 3) {
        unsigned instack = r->p[0], idx = r->p[1];
        if (!parent)
            reach[i] = 1; /* the dumped function's own: outlives every call */
        else if (instack) /* lvm.c pushclosure: a local of the enclosing call, made per call */
            reach[i] = 0;
        else if (idx < (unsigned)parent->nup) /* the enclosing function's upvalue: follow it */
            reach[i] = parent->reach[idx];
        else {
            fail(r, "upvalue index out of range");
            goto done;
        }
    }

    for (i = 0; i < ncode; i++) {
        uint32_t ins;
        memcpy(&ins, code + (size_t)i * INSTRUCTION_SIZE, sizeof ins); /* native order, as dumped */
        if (OPCODE(ins) != OP_SETUPVAL)
            continue;
        r->setupvals++;
        if (ARG_B(ins) >= (unsigned)me.nup) {
            fail(r, "OP_SETUPVAL to a missing upvalue");
            goto done;
        }
        if (reach[ARG_B(ins)] && !r->found) { /* prototypes come in dump order: the first one wins */
            r->found = mine = 1;
            wpc = i;
            wb = ARG_B(ins);
        }
    }

    if (!get_int(r, &n)) /* nested functions */
        goto done;
    me.reach = reach;
    for (i = 0; i < n; i++)
        if (!read_function(r, &me, depth + 1))
            goto done;

    /* debug info (ldump.c dumpDebug); lineinfo has one entry per instruction, or none */
    if (!count(r, &nline, 1))
        goto done;
    if (nline != 0 && nline != ncode) {
        fail(r, "line info does not match the code");
        goto done;
    }
    lineinfo = r->p;
    r->p += nline;
    if (!get_int(r, &n))
        goto done;
    line = linedefined;
    for (i = 0; i < n; i++) { /* ldebug.c getbaseline: the last absolute entry at or before the pc */
        int apc, aline;
        if (!get_int(r, &apc) || !get_int(r, &aline))
            goto done;
        if (mine && advancing && apc <= wpc) {
            basepc = apc;
            line = aline;
        } else
            advancing = 0;
    }
    r->abslineinfo += (unsigned long)n;
    if (!get_int(r, &n)) /* local variables: name, startpc, endpc */
        goto done;
    for (i = 0; i < n; i++) {
        const char *s;
        size_t len;
        int present, pc;
        if (!get_string(r, &s, &len, &present) || !get_int(r, &pc) || !get_int(r, &pc))
            goto done;
    }
    if (!get_int(r, &n)) /* upvalue names */
        goto done;
    if (n > me.nup) {
        fail(r, "more upvalue names than upvalues");
        goto done;
    }
    if (mine)
        strcpy(r->w.name, "?");
    for (i = 0; i < n; i++) {
        const char *s;
        size_t len;
        int present;
        if (!get_string(r, &s, &len, &present))
            goto done;
        if (mine && (unsigned)i == wb && present && len > 0)
            snprintf(r->w.name, sizeof r->w.name, "%.*s", (int)(len < 63 ? len : 63), s);
    }

    if (mine) {
        if (nline == 0) /* ldebug.c luaG_getfuncline: no line info */
            r->w.line = -1;
        else {
            while (basepc++ < wpc) /* relative steps after the base (signed bytes) */
                line += (int)(lineinfo[basepc] ^ 0x80u) - 0x80;
            if (line < INT_MIN || line > INT_MAX) {
                fail(r, "line out of range");
                goto done;
            }
            r->w.line = (int)line;
        }
        chunkid(r->w.source, sizeof r->w.source, me.src, me.srclen, me.has_src);
    }
    ok = 1;
done:
    free(reach);
    return ok;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

typedef struct {
    unsigned long protos, instructions, abslineinfo, setupvals;
} stats;

static int analyse(const void *chunk, size_t len, foh_lua_upwrite *w, stats *st, char *err, size_t errlen)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.start = r.p = chunk ? (const unsigned char *)chunk : (const unsigned char *)"";
    r.end = r.p + (chunk ? len : 0);
    if (!read_header(&r) || !read_function(&r, NULL, 0) || (r.p != r.end && !fail(&r, "bytes after the chunk"))) {
        set_err(err, errlen, "unreadable Lua 5.4 binary chunk: %s (at byte %zu of %zu)", r.bad ? r.bad : "?",
                r.bad_at, len);
        return -1;
    }
    if (st) {
        st->protos = r.protos;
        st->instructions = r.instructions;
        st->abslineinfo = r.abslineinfo;
        st->setupvals = r.setupvals;
    }
    if (!r.found)
        return 0;
    *w = r.w;
    return 1;
}

typedef struct {
    unsigned char *p;
    size_t n, cap;
} dumpbuf;

static int dump_writer(lua_State *L, const void *p, size_t sz, void *ud)
{
    dumpbuf *b = ud;
    (void)L;
    if (sz > b->cap - b->n) {
        size_t cap = b->cap ? b->cap : 4096;
        unsigned char *q;
        while (sz > cap - b->n) {
            if (cap > SIZE_MAX / 2)
                return 1;
            cap *= 2;
        }
        if (!(q = realloc(b->p, cap)))
            return 1;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, sz);
    b->n += sz;
    return 0;
}

int foh_lua_find_upvalue_write(lua_State *L, foh_lua_upwrite *w, char *err, size_t errlen)
{
    dumpbuf b = {NULL, 0, 0};
    int res;
    w->bytes = 0;
    if (lua_gettop(L) < 1 || lua_type(L, -1) != LUA_TFUNCTION) {
        set_err(err, errlen, "not a function");
        return -1;
    }
    if (lua_iscfunction(L, -1)) {
        set_err(err, errlen, "a C function (its code cannot be read)");
        return -1;
    }
    if (lua_dump(L, dump_writer, &b, 0) != 0) { /* strip = 0: keep lines and names */
        free(b.p);
        set_err(err, errlen, "lua_dump failed (out of memory?)");
        return -1;
    }
    res = analyse(b.p, b.n, w, NULL, err, errlen);
    w->bytes = b.n;
    free(b.p);
    return res;
}

#ifdef FOH_LUA_UPVALUES_TESTING
int foh_lua_upvalues_parse(const void *chunk, size_t len, foh_lua_upwrite *w, foh_lua_upvalues_stats *st,
                           char *err, size_t errlen)
{
    stats s = {0, 0, 0, 0};
    int res = analyse(chunk, len, w, &s, err, errlen);
    if (st) {
        st->protos = (int)s.protos;
        st->instructions = (int)s.instructions;
        st->abslineinfo = (int)s.abslineinfo;
        st->setupvals = (int)s.setupvals;
    }
    return res;
}
#endif

/* Self-test: snippets whose answers are known. A wrong opcode number or
 * format reading would turn the expected 1s into 0s (or errors). */
static int selftest_cfunction(lua_State *L)
{
    (void)L;
    return 0;
}

int foh_lua_upvalues_selftest(lua_State *L, char *err, size_t errlen)
{
    static const struct {
        const char *code; /* returns the function to analyse */
        int want, line;
        const char *name;
    } cases[] = {
        {"local c = 0\nreturn function()\n  c = c + 1\n  return c\nend\n", 1, 3, "c"},
        {"return function(a, b)\n  local n = a + b\n  n = n * 2\n  return n\nend\n", 0, 0, NULL},
        {"return function()\n  local n = 0\n  local function bump() n = n + 1 end\n  bump()\n  return n\nend\n", 0, 0,
         NULL},
        {"local n = 0\nreturn function()\n  return function()\n    return function()\n      n = n + 1\n"
         "    end\n  end\nend\n",
         1, 5, "n"},
        {"return function()\n  _ENV = nil\nend\n", 1, 2, "_ENV"},
        {"return function()\n  local n = 0\n  return function() n = n + 1 return n end\nend\n", 0, 0, NULL},
        {"local function make()\n  local n = 0\n  return function() n = n + 1 return n end\nend\nreturn make()\n", 1, 3,
         "n"},
    };
    static const char chunkname[] = "=upvalues selftest";
    int top = lua_gettop(L), res = 0;
    size_t i;
    foh_lua_upwrite w;
    char why[200];

    for (i = 0; i < sizeof cases / sizeof cases[0] && res == 0; i++) {
        int got;
        if (luaL_loadbufferx(L, cases[i].code, strlen(cases[i].code), chunkname, "t") != LUA_OK ||
            lua_pcall(L, 0, 1, 0) != LUA_OK) {
            set_err(err, errlen, "snippet %zu: %s", i + 1, lua_isstring(L, -1) ? lua_tostring(L, -1) : "error");
            res = -1;
        } else if ((got = foh_lua_find_upvalue_write(L, &w, why, sizeof why)) != cases[i].want) {
            set_err(err, errlen, "snippet %zu: expected %d, got %d%s%s", i + 1, cases[i].want, got,
                    got < 0 ? ": " : "", got < 0 ? why : "");
            res = -1;
        } else if (got == 1 && (w.line != cases[i].line || strcmp(w.name, cases[i].name) != 0 ||
                                strcmp(w.source, chunkname + 1) != 0)) {
            set_err(err, errlen, "snippet %zu: expected %s:%d '%s', got %s:%d '%s'", i + 1, chunkname + 1,
                    cases[i].line, cases[i].name, w.source, w.line, w.name);
            res = -1;
        }
        lua_settop(L, top);
    }
    if (res == 0) {
        lua_pushcfunction(L, selftest_cfunction);
        if (foh_lua_find_upvalue_write(L, &w, why, sizeof why) != -1) {
            set_err(err, errlen, "a C function was not refused");
            res = -1;
        }
        lua_settop(L, top);
    }
    return res;
}

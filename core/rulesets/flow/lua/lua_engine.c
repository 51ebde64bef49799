/* lua_engine: an engine's lifetime, and loading a card set's scripts into
 * its sandbox with the load-time checks of each effect table (see
 * lua_internal.h and lua_bridge.h).
 *
 * Loading order: helper scripts (game.yaml's, then each variant's), which
 * may define new globals but never replace one; then the globals are
 * sealed and every helper frozen (read-only, no state); then each card's
 * effect chunk and each variant hook, each frozen in turn. */
#include <ctype.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "lua_internal.h"
#include "native.h"
#include "memo.h"

static void engine_close(foh_engine *e)
{
    foh_lua_sandbox_close(&e->sb);
    free(e->logbuf);
    e->logbuf = NULL;
    foh_memo_free(e);
}

/* ---- Load-time checks of the effect tables ---- */

static int card_fail(foh_error *err, const foh_card_def *d, int line, const char *what)
{
    foh_error_set(err, FOH_ERR_DATA, "%s:%d: card '%s': %s", line == d->line ? d->file : d->effect_file, line,
                  d->id, what);
    return 0;
}

/* Icon list field NAME of the table at the top of the stack, as a mask. */
static int icon_list(lua_State *L, const foh_cardset *cs, const foh_card_def *d, const char *name, uint32_t *mask,
                     foh_error *err)
{
    *mask = 0;
    char msg[600], names[400];
    foh_cardset_icon_list(cs, names, sizeof names);
    lua_getfield(L, -1, name);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        snprintf(msg, sizeof msg, "a counting Permanent effect needs '%s', a list of icon names (icons: %s)", name,
                 names);
        return card_fail(err, d, d->effect_line, msg);
    }
    lua_Integer n = luaL_len(L, -1);
    for (lua_Integer k = 1; k <= n; k++) {
        lua_geti(L, -1, k);
        const char *s = lua_tostring(L, -1);
        int ic = s ? foh_cardset_icon_find(cs, s) : -1;
        if (ic < 0) {
            snprintf(msg, sizeof msg, "'%s' names an unknown icon '%s' (icons: %s)", name, s ? s : "?", names);
            lua_pop(L, 2);
            return card_fail(err, d, d->effect_line, msg);
        }
        lua_pop(L, 1);
        *mask |= 1u << ic;
    }
    lua_pop(L, 1);
    return 1;
}

/* The effect table's `on` (at the top of the stack): event names to
 * functions; sets the card's `reacts` and the card set's event_mask. */
static int check_reactions(lua_State *L, foh_cardset *cs, foh_card_def *d, foh_error *err)
{
    char msg[700], names[500] = "";
    for (int i = 0; i < cs->nevents; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", cs->event[i]);
    if (lua_getfield(L, -1, "on") == LUA_TNIL) {
        lua_pop(L, 1);
        return 1;
    }
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        snprintf(msg, sizeof msg, "'on' must map event names to functions (events: %s)", names);
        return card_fail(err, d, d->effect_line, msg);
    }
    int known = 0;
    for (int i = 0; i < cs->nevents; i++) {
        int t = lua_getfield(L, -1, cs->event[i]);
        lua_pop(L, 1);
        if (t == LUA_TNIL)
            continue;
        known++;
        if (t != LUA_TFUNCTION) {
            lua_pop(L, 1);
            snprintf(msg, sizeof msg, "on.%s must be a function(player, card, event)", cs->event[i]);
            return card_fail(err, d, d->effect_line, msg);
        }
        d->reacts |= 1ull << i;
    }
    /* Any other key is an unknown event: name the first in byte order, so
     * that the message does not depend on the table's layout. */
    int keys = 0;
    const char *unknown = NULL;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        keys++;
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(not a name)";
        int found = 0;
        for (int i = 0; i < cs->nevents && !found; i++)
            found = !strcmp(k, cs->event[i]);
        if (!found && (!unknown || strcmp(k, unknown) < 0))
            unknown = k; /* the key stays on the table, which is on the stack */
    }
    if (keys != known) {
        const char *list[FOH_MAX_EVENTS];
        char hint[600];
        for (int i = 0; i < cs->nevents; i++)
            list[i] = cs->event[i];
        foh_error_hint(hint, sizeof hint, unknown ? unknown : "?", "events", list, cs->nevents);
        snprintf(msg, sizeof msg, "on: unknown event '%.60s'%s", unknown ? unknown : "?", hint);
        lua_pop(L, 1);
        return card_fail(err, d, d->effect_line, msg);
    }
    lua_pop(L, 1);
    cs->event_mask |= d->reacts;
    return 1;
}

static int check_table(foh_engine *e, foh_cardset *cs, int c, foh_error *err)
{
    lua_State *L = e->sb.L;
    foh_card_def *d = &cs->card[c];
    foh_fire fire = cs->timing[d->timing].fire;
    static const char *const need[] = {NULL, "on_gain", "provides", "activate", "end_game"};
    if (!check_reactions(L, cs, d, err))
        return 0;
    /* `market_size`: cards the Market holds more (or fewer) while the
     * effect is active (foh_market_capacity). */
    d->market_size = 0;
    int mt = lua_getfield(L, -1, "market_size");
    if (mt != LUA_TNIL) {
        int isnum = lua_isinteger(L, -1);
        lua_Integer v = isnum ? lua_tointeger(L, -1) : 0;
        lua_pop(L, 1);
        if (!isnum || v < -FOH_MAX_MARKET || v > FOH_MAX_MARKET || v == 0) {
            char msg[200];
            snprintf(msg, sizeof msg, "market_size must be a whole number of cards, -%d to %d and not 0 (cards the "
                     "Market holds more while the effect is active)", FOH_MAX_MARKET, FOH_MAX_MARKET);
            return card_fail(err, d, d->effect_line, msg);
        }
        d->market_size = (int)v;
        cs->market_mods++;
        if (v > 0)
            cs->market_mods_up += (int)v;
    } else
        lua_pop(L, 1);
    if (fire == FOH_FIRE_NEVER)
        return 1;
    lua_getfield(L, -1, need[fire]);
    int t = lua_type(L, -1);
    char msg[600];
    if (fire == FOH_FIRE_PERMANENT) {
        if (t == LUA_TTABLE) {
            int icons[FOH_MAX_ICONS] = {0};
            char why[500];
            if (!foh_lua_read_icons(L, -1, cs, icons, why, sizeof why)) {
                lua_pop(L, 1);
                snprintf(msg, sizeof msg, "provides: %s", why);
                return card_fail(err, d, d->effect_line, msg);
            }
            for (int i = 0; i < FOH_MAX_ICONS; i++)
                d->provides[i] = (int16_t)icons[i];
            lua_pop(L, 1);
            return 1;
        }
        lua_pop(L, 1);
        if (t != LUA_TFUNCTION)
            return card_fail(err, d, d->effect_line,
                             "a Permanent effect needs 'provides': an icon table or a function(player, card)");
        d->counting = 1;
        return icon_list(L, cs, d, "reads", &d->reads, err) && icon_list(L, cs, d, "gives", &d->gives, err);
    }
    lua_pop(L, 1);
    if (t != LUA_TFUNCTION) {
        snprintf(msg, sizeof msg, "timing '%s' needs a function '%s' in the effect table", cs->timing[d->timing].name,
                 need[fire]);
        return card_fail(err, d, d->effect_line, msg);
    }
    return 1;
}

/* Default ruling 6: counting effects must not depend on each other in a
 * cycle (A gives what B reads and B gives what A reads, or longer). */
static int check_cycles(const foh_cardset *cs, foh_error *err)
{
    int state[FOH_MAX_CARDS] = {0}, stack[FOH_MAX_CARDS], next[FOH_MAX_CARDS];
    for (int s = 0; s < cs->ncards; s++) {
        if (!cs->card[s].counting || state[s])
            continue;
        int top = 0;
        stack[top] = s;
        next[top] = 0;
        state[s] = 1;
        while (top >= 0) {
            int u = stack[top], v = next[top]++;
            if (v >= cs->ncards) {
                state[u] = 2;
                top--;
                continue;
            }
            if (!cs->card[v].counting || !(cs->card[u].gives & cs->card[v].reads))
                continue;
            if (state[v] == 1) {
                const foh_card_def *d = &cs->card[v];
                char msg[200];
                snprintf(msg, sizeof msg, "counting effects depend on each other in a cycle (through '%s')",
                         cs->card[u].id);
                return card_fail(err, d, d->line, msg);
            }
            if (state[v] == 0) {
                state[v] = 1;
                stack[++top] = v;
                next[top] = 0;
            }
        }
    }
    return 1;
}

/* ---- Loading ---- */

/* What load_scripts is loading, for a message about a memory or work
 * limit met between its protected calls. */
enum { WHO_LEN = 160 };

/* Freeze every helper the scripts defined (the values of the sandbox's
 * global table). */
static foh_status freeze_helpers(foh_engine *e, char *who, foh_error *err)
{
    lua_State *L = e->sb.L;
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_ENV_KEY);
    lua_getmetatable(L, -1);
    lua_getfield(L, -1, "__index");
    int globals = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, globals)) {
        const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        snprintf(who, WHO_LEN, "helper '%.80s'", name);
        if (foh_lua_freeze(&e->sb, who, name, err) != FOH_OK) {
            lua_settop(L, globals - 3);
            return FOH_ERR_DATA;
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, globals);
    }
    lua_settop(L, globals - 3);
    return FOH_OK;
}

/* Push PARAMS as a read-only table: "true"/"false" as booleans, numbers as
 * integers or floats, anything else as a string. */
static void push_params(lua_State *L, const foh_params *params)
{
    lua_createtable(L, 0, params->n);
    for (int i = 0; i < params->n; i++) {
        const char *v = params->p[i].value;
        if (!strcmp(v, "true") || !strcmp(v, "false"))
            lua_pushboolean(L, v[0] == 't');
        else if (!lua_stringtonumber(L, v))
            lua_pushstring(L, v);
        lua_setfield(L, -2, params->p[i].name);
    }
    foh_lua_readonly(L, -1, "params");
}

/* Run the chunk loaded at the top of the stack at load time with PARAMS as
 * its argument (the chunk's `params`), leaving NRES results; the message
 * names WHO. */
static foh_status run_chunk(foh_engine *e, const foh_params *params, int nres, const char *who, foh_error *err)
{
    int nargs = 0;
    if (params) {
        push_params(e->sb.L, params);
        nargs = 1;
    }
    int st = foh_lua_protected_call(&e->sb, nargs, nres, 1);
    if (st == LUA_OK)
        return FOH_OK;
    foh_error_set(err, FOH_ERR_DATA, "%s: %s", who, foh_lua_error_text(&e->sb, st));
    lua_pop(e->sb.L, 1);
    return FOH_ERR_DATA;
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The string keys of the table at IDX, sorted (the table's order varies
 * between runs), into a new array *OUT (strings anchored by the table, which
 * must stay on the stack); their count, or -1 if out of memory. */
static int sorted_keys(lua_State *L, int idx, const char ***out)
{
    int n = 0, all = 0;
    idx = lua_absindex(L, idx);
    for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1))
        all++;
    const char **names = malloc(sizeof *names * (size_t)(all > 0 ? all : 1));
    if (!names)
        return -1;
    for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1))
        if (lua_type(L, -2) == LUA_TSTRING)
            names[n++] = lua_tostring(L, -2);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    *out = names;
    return n;
}

/* Checking (LD): every `game.NAME` of card C's effect text names a
 * function of the game API; a misspelt one is an error at its line with
 * "did you mean", found whether or not a game reaches the branch it is in
 * (issue 30). Text after `--` on a line is a comment and skipped. */
static void check_api_names(foh_engine *e, foh_loader *ld, const foh_card_def *d)
{
    lua_State *L = e->sb.L;
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_ENV_KEY);
    lua_getfield(L, -1, "game");
    foh_lua_push_real(L, -1);
    int api = lua_gettop(L);
    const char **names = NULL;
    int n = sorted_keys(L, api, &names);
    if (n < 0) {
        foh_error w;
        foh_error_set(&w, FOH_ERR_MEMORY, "card '%s': out of memory checking its game API calls", d->id);
        foh_load_report(ld, 0, &w);
        lua_settop(L, api - 3);
        return;
    }
    const char *src = d->effect_src;
    int line = d->effect_line, comment = 0;
    for (const char *p = src; *p; p++) {
        if (*p == '\n') {
            line++;
            comment = 0;
            continue;
        }
        if (p[0] == '-' && p[1] == '-')
            comment = 1;
        if (comment || strncmp(p, "game.", 5) || (p > src && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
            continue;
        char name[64];
        size_t k = 0;
        for (const char *q = p + 5; (isalnum((unsigned char)*q) || *q == '_') && k + 1 < sizeof name; q++)
            name[k++] = *q;
        name[k] = '\0';
        int known = 0;
        for (int i = 0; i < n && !known; i++)
            known = !strcmp(names[i], name);
        if (known || !k)
            continue;
        char hint[1200];
        foh_error_hint(hint, sizeof hint, name, "functions", names, n);
        foh_error w;
        foh_error_at(&w, FOH_ERR_DATA, d->effect_file, line, 0, "card '%s': game.%s is not a function of the game API%s",
                     d->id, name, hint);
        foh_load_report(ld, 0, &w);
    }
    free(names);
    lua_settop(L, api - 3);
}

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Whether WORD (LEN bytes) is in the list of NAMES. */
static int in_words(const char *word, size_t len, char (*names)[64], int n)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && !strncmp(names[i], word, len))
            return 1;
    return 0;
}

/* Checking (LD): a function called by name in card C's effect text (`f(`,
 * `f{`, `f'`) that is neither a global of the scripts (a helper of the
 * scripts' Lua files, a Lua library function) nor declared in the text (local,
 * function, parameter, for) but is close to a global's name is an error at
 * its line with "did you mean" (a misspelt helper, issue 30), found whether
 * or not a game reaches it. A look at the text, not a parse: strings and
 * comments are skipped; a name with no global near it is left to the games
 * and the effect probes. */
static void check_global_calls(foh_engine *e, foh_loader *ld, const foh_card_def *d)
{
    static const char *const KEYWORDS[] = {"and", "break", "do", "else", "elseif", "end", "false", "for",
                                           "function", "goto", "if", "in", "local", "nil", "not", "or",
                                           "repeat", "return", "then", "true", "until", "while"};
    lua_State *L = e->sb.L;
    int top = lua_gettop(L);
    /* The scripts' _ENV is empty and reads through its metatable's
     * __index: the globals (libraries, the API, the helpers). */
    lua_getfield(L, LUA_REGISTRYINDEX, FOH_LUA_ENV_KEY);
    if (!lua_getmetatable(L, -1) || lua_getfield(L, -1, "__index") != LUA_TTABLE) {
        lua_settop(L, top);
        return;
    }
    const char **globals = NULL;
    int n = sorted_keys(L, -1, &globals), nd = 0, dcap = 0;
    const char *src = d->effect_src;
    size_t len = strlen(src);
    char *t = n < 0 ? NULL : malloc(len + 1);
    char(*declared)[64] = NULL; /* grown as the text declares names */
    if (!t) {
        foh_error w;
        foh_error_set(&w, FOH_ERR_MEMORY, "card '%s': out of memory checking the functions it calls", d->id);
        foh_load_report(ld, 0, &w);
        free(globals);
        lua_settop(L, top);
        return;
    }
    /* The text without strings and comments (each byte of them a space, so
     * that lines keep their numbers). */
    for (size_t i = 0; i < len;) {
        if (src[i] == '-' && src[i + 1] == '-') {
            while (i < len && src[i] != '\n')
                t[i++] = ' ';
        } else if (src[i] == '\'' || src[i] == '"' || (src[i] == '[' && src[i + 1] == '[')) {
            int long_string = src[i] == '[';
            char q = src[i];
            t[i++] = ' ';
            if (long_string)
                t[i++] = ' ';
            while (i < len && (long_string ? !(src[i] == ']' && src[i + 1] == ']') : src[i] != q)) {
                if (!long_string && src[i] == '\\' && i + 1 < len)
                    t[i++] = ' ';
                t[i] = src[i] == '\n' ? '\n' : ' ';
                i++;
            }
            for (int k = long_string ? 2 : 1; k > 0 && i < len; k--)
                t[i++] = ' ';
        } else {
            t[i] = src[i];
            i++;
        }
    }
    t[len] = '\0';
    /* The names the text declares: after local, function, for, and in a
     * function's parameters. */
    for (size_t i = 0; i < len; i++) {
        if (!word_char(t[i]) || (i > 0 && word_char(t[i - 1])))
            continue;
        size_t w = i;
        while (w < len && word_char(t[w]))
            w++;
        int decl = (w - i == 5 && !strncmp(t + i, "local", 5)) || (w - i == 8 && !strncmp(t + i, "function", 8)) ||
                   (w - i == 3 && !strncmp(t + i, "for", 3));
        if (!decl)
            continue;
        /* The names up to the first character that is neither a name, a
         * comma, a space nor an opening parenthesis (a function's own name
         * and its parameters, a local list, a for list). */
        for (size_t k = w; k < len; k++) {
            if (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == ',' || t[k] == '(' || t[k] == '.' || t[k] == ':')
                continue;
            if (!word_char(t[k]))
                break;
            size_t b = k;
            while (k < len && word_char(t[k]))
                k++;
            if (nd == dcap) {
                int cap = dcap ? 2 * dcap : 64;
                char(*grown)[64] = realloc(declared, sizeof *grown * (size_t)cap);
                if (!grown) { /* a declared name not kept could be told as misspelt: stop, saying why */
                    foh_error oom;
                    foh_error_set(&oom, FOH_ERR_MEMORY, "card '%s': out of memory checking the functions it calls",
                                  d->id);
                    foh_load_report(ld, 0, &oom);
                    free(declared);
                    free(t);
                    free(globals);
                    lua_settop(L, top);
                    return;
                }
                declared = grown;
                dcap = cap;
            }
            /* a name of 64 bytes or more is never looked up (calls that long are skipped below) */
            snprintf(declared[nd++], sizeof declared[0], "%.*s", (int)(k - b < 63 ? k - b : 63), t + b);
            k--;
        }
    }
    int line = d->effect_line;
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '\n')
            line++;
        if (!word_char(t[i]) || isdigit((unsigned char)t[i]) || (i > 0 && (word_char(t[i - 1]) || t[i - 1] == '.' || t[i - 1] == ':')))
            continue;
        size_t w = i;
        while (w < len && word_char(t[w]))
            w++;
        size_t k = w;
        while (k < len && (t[k] == ' ' || t[k] == '\t'))
            k++;
        int call = k < len && (t[k] == '(' || t[k] == '{' || src[k] == '\'' || src[k] == '"');
        char name[64];
        if (!call || w - i >= sizeof name) {
            i = w - 1;
            continue;
        }
        memcpy(name, t + i, w - i);
        name[w - i] = '\0';
        int skip = in_words(name, w - i, declared, nd);
        for (size_t kw = 0; !skip && kw < sizeof KEYWORDS / sizeof KEYWORDS[0]; kw++)
            skip = !strcmp(name, KEYWORDS[kw]);
        for (int g = 0; !skip && g < n; g++)
            skip = !strcmp(globals[g], name);
        const char *meant = skip ? NULL : foh_error_suggest(name, globals, n);
        if (meant) {
            foh_error f;
            foh_error_at(&f, FOH_ERR_DATA, d->effect_file, line, 0,
                         "card '%s': %s is not a function of the scripts (a helper of their Lua files or a Lua "
                         "library function) nor declared in the effect (did you mean '%s'?)",
                         d->id, name, meant);
            foh_load_report(ld, 0, &f);
        }
        i = w - 1;
    }
    free(t);
    free(globals);
    free(declared);
    lua_settop(L, top);
}

/* Card C's effect chunk: compiled, run with the card's params, its table
 * checked (with CHECK) and kept, read-only for scripts. */
static foh_status load_effect(foh_engine *e, foh_cardset *check, foh_loader *ld, int c, char *who, char *where,
                              foh_error *err)
{
    lua_State *L = e->sb.L;
    const foh_cardset *cs = e->cs;
    const foh_card_def *d = &cs->card[c];
    snprintf(who, WHO_LEN, "card '%s'", d->id);
    e->sb.call_id = c;
    snprintf(where, WHO_LEN, "%.140s:%d", d->effect_file, d->effect_line);
    if (!foh_lua_load_chunk(L, d->effect_src, d->effect_file, d->effect_line))
        return foh_error_set(err, FOH_ERR_DATA, "%s: %s", who, lua_tostring(L, -1));
    if (ld)
        check_api_names(e, ld, d), check_global_calls(e, ld, d);
    if (run_chunk(e, &cs->card_params[c], 1, who, err) != FOH_OK)
        return FOH_ERR_DATA;
    if (!lua_istable(L, -1))
        return foh_error_set(err, FOH_ERR_DATA, "%s:%d: %s: the effect must return a table of hooks", d->effect_file,
                             d->effect_line, who);
    if (check && !check_table(e, check, c, err))
        return FOH_ERR_DATA;
    if (ld && cs->timing[d->timing].fire == FOH_FIRE_NEVER) {
        /* Checking: an effect whose timing never fires and that reacts to
         * no event never runs - most likely a timing left out. */
        lua_getfield(L, -1, "on");
        int reacts = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (!reacts) {
            foh_error w;
            foh_error_at(&w, FOH_ERR_DATA, d->file, d->line, 0,
                         "%s: the effect never runs: timing '%s' never fires and the effect table has no 'on' "
                         "reactions (a timing left out?)",
                         who, cs->timing[d->timing].name);
            foh_load_report(ld, 1, &w);
        }
    }
    char why[500];
    if (!foh_native_read(e, d, &e->native[c], why, sizeof why))
        return foh_error_set(err, FOH_ERR_DATA, "%s:%d: %s: %s", d->effect_file, d->effect_line, who, why);
    /* The engine calls the table itself; scripts see it read-only. */
    lua_pushvalue(L, -1);
    e->effect_ref[c] = luaL_ref(L, LUA_REGISTRYINDEX);
    char name[FOH_NAME + 20];
    snprintf(name, sizeof name, "game.effect('%s')", d->id);
    if (foh_lua_freeze(&e->sb, who, name, err) != FOH_OK)
        return FOH_ERR_DATA;
    e->effect_proxy_ref[c] = luaL_ref(L, LUA_REGISTRYINDEX);
    return FOH_OK;
}

/* Variant hook H's chunk: compiled, run with the variant's params, kept. */
static foh_status load_hook(foh_engine *e, int h, char *who, char *where, foh_error *err)
{
    lua_State *L = e->sb.L;
    const foh_cardset *cs = e->cs;
    if (cs->hook[h].point == FOH_HOOK_REACTION)
        snprintf(who, WHO_LEN, "variant '%s' reaction to '%s'", cs->variant[cs->hook[h].variant],
                 cs->hook[h].event_name);
    else
        snprintf(who, WHO_LEN, "variant '%s' hook '%s'", cs->variant[cs->hook[h].variant],
                 foh_hook_names[cs->hook[h].point]);
    snprintf(where, WHO_LEN, "%.140s:%d", cs->hook[h].file, cs->hook[h].line);
    if (!foh_lua_load_chunk(L, cs->hook[h].src, cs->hook[h].file, cs->hook[h].line))
        return foh_error_set(err, FOH_ERR_DATA, "%s: %s", who, lua_tostring(L, -1));
    if (run_chunk(e, &cs->variant_params[cs->hook[h].variant], 1, who, err) != FOH_OK)
        return FOH_ERR_DATA;
    if (!lua_isfunction(L, -1))
        return foh_error_set(err, FOH_ERR_DATA, "%s:%d: %s must return a function", cs->hook[h].file,
                             cs->hook[h].line, who);
    if (foh_lua_freeze(&e->sb, who, "hook", err) != FOH_OK)
        return FOH_ERR_DATA;
    e->hook_ref[h] = luaL_ref(L, LUA_REGISTRYINDEX);
    return FOH_OK;
}

/* Declared action A's `can` (PART 0) or `run` (PART 1) chunk. */
static foh_status load_action(foh_engine *e, int a, int part, char *who, char *where, foh_error *err)
{
    static const foh_params none;
    lua_State *L = e->sb.L;
    const foh_cardset *cs = e->cs;
    const foh_params *params = cs->action[a].variant >= 0 ? &cs->variant_params[cs->action[a].variant] : &none;
    const char *src = part ? cs->action[a].run_src : cs->action[a].can_src;
    int line = part ? cs->action[a].run_line : cs->action[a].can_line;
    int *ref = part ? &e->action_run_ref[a] : &e->action_can_ref[a];
    *ref = LUA_NOREF;
    if (!src)
        return FOH_OK;
    snprintf(who, WHO_LEN, "action '%s' (%s)", cs->action[a].name, part ? "run" : "can");
    snprintf(where, WHO_LEN, "%.140s:%d", cs->action[a].file, line);
    if (!foh_lua_load_chunk(L, src, cs->action[a].file, line))
        return foh_error_set(err, FOH_ERR_DATA, "%s: %s", who, lua_tostring(L, -1));
    if (run_chunk(e, params, 1, who, err) != FOH_OK)
        return FOH_ERR_DATA;
    if (!lua_isfunction(L, -1))
        return foh_error_set(err, FOH_ERR_DATA, "%s:%d: %s must return a function(player)", cs->action[a].file, line,
                             who);
    if (foh_lua_freeze(&e->sb, who, "action", err) != FOH_OK)
        return FOH_ERR_DATA;
    *ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return FOH_OK;
}

/* After a chunk failed to load: in checking mode (LD), report it and go on
 * with the next (the stack back at TOP); else stop. */
static int go_on(lua_State *L, foh_loader *ld, int before, int top)
{
    lua_settop(L, top);
    return ld && foh_load_go_on(ld, before);
}

/* Helpers, then every card's effect table and variant hook; with CHECK,
 * also fill the card definitions' derived fields. WHO and WHERE (WHO_LEN
 * bytes each) name the step in progress and its file:line. In checking
 * mode (LD) a failed effect, hook or action is reported and the next one
 * loaded; a failed helper script stops (the effects need the helpers). */
static foh_status load_scripts(foh_engine *e, foh_cardset *check, foh_loader *ld, char *who, char *where,
                               foh_error *err)
{
    lua_State *L = e->sb.L;
    const foh_cardset *cs = e->cs;
    for (int i = 0; i < cs->nscripts; i++) {
        if (!foh_lua_load_chunk(L, cs->script[i].src, cs->script[i].path, 1))
            return foh_error_set(err, FOH_ERR_DATA, "%s", lua_tostring(L, -1));
        snprintf(who, WHO_LEN, "script %.140s", cs->script[i].path);
        snprintf(where, WHO_LEN, "%.140s:1", cs->script[i].path);
        if (run_chunk(e, NULL, 0, who, err) != FOH_OK)
            return FOH_ERR_DATA;
    }
    /* The helpers are in: from here on no script may create a global, and
     * what the helpers hold is read-only. */
    foh_lua_seal_globals(&e->sb);
    where[0] = '\0';
    if (freeze_helpers(e, who, err) != FOH_OK)
        return FOH_ERR_DATA;
    int failed = 0;
    if (check)
        check->market_mods = check->market_mods_up = 0; /* counted again by check_table */
    for (int c = 0; c < cs->ncards; c++) {
        int before = ld ? ld->reported : 0, top = lua_gettop(L);
        if (cs->card[c].effect_src && load_effect(e, check, ld, c, who, where, err) != FOH_OK) {
            if (!go_on(L, ld, before, top))
                return FOH_ERR_DATA;
            failed = 1;
        }
    }
    e->sb.call_id = -1;
    foh_native_finish(e);
    if (check && check->market_mods_up) /* the Market has room for FOH_MAX_MARKET cards: refused beyond */
        for (int p = 1; p <= FOH_MAX_PLAYERS; p++)
            if ((check->players_allowed >> p & 1) && check->market_size[p] + check->market_mods_up > FOH_MAX_MARKET) {
                /* Named at the first such card, listing them all. */
                char cards[600] = "";
                const foh_card_def *at = NULL;
                for (int c = 0; c < check->ncards; c++)
                    if (check->card[c].market_size > 0) {
                        at = at ? at : &check->card[c];
                        snprintf(cards + strlen(cards), sizeof cards - strlen(cards), "%s%s +%d",
                                 cards[0] ? ", " : "", check->card[c].id, check->card[c].market_size);
                    }
                foh_error_at(err, FOH_ERR_DATA, at ? at->effect_file : check->dir, at ? at->effect_line : 0, 0,
                             "with %d players the Market holds %d cards, and the cards whose effect has market_size "
                             "could add %d (%s): more than the engine's limit of %d",
                             p, check->market_size[p], check->market_mods_up, cards, FOH_MAX_MARKET);
                if (!go_on(L, ld, ld ? ld->reported : 0, lua_gettop(L)))
                    return FOH_ERR_DATA;
                break;
            }
    /* Cycles are looked for once every counting effect is known. */
    if (!failed && check && !check_cycles(check, err) && !go_on(L, ld, ld ? ld->reported : 0, lua_gettop(L)))
        return FOH_ERR_DATA;
    for (int h = 0; h < cs->nhooks; h++) {
        int before = ld ? ld->reported : 0, top = lua_gettop(L);
        if (load_hook(e, h, who, where, err) != FOH_OK && !go_on(L, ld, before, top))
            return FOH_ERR_DATA;
    }
    for (int a = 0; a < cs->nactions; a++)
        for (int part = 0; part < 2; part++) {
            int before = ld ? ld->reported : 0, top = lua_gettop(L);
            if (load_action(e, a, part, who, where, err) != FOH_OK && !go_on(L, ld, before, top))
                return FOH_ERR_DATA;
        }
    return ld && ld->reported ? FOH_ERR_DATA : FOH_OK;
}

typedef struct {
    foh_engine *e;
    foh_cardset *check;
    foh_loader *ld;
    foh_error *err;
    foh_status status;
    char who[WHO_LEN], where[WHO_LEN];
} load_job;

static int load_scripts_protected(lua_State *L)
{
    load_job *j = lua_touserdata(L, 1);
    lua_pop(L, 1);
    j->status = load_scripts(j->e, j->check, j->ld, j->who, j->where, j->err);
    return 0;
}

/* load_scripts inside a protected call: what loading does between the
 * scripts' own calls (freezing what they left, checking their effect
 * tables) allocates, and charges its work, under the same limits, and
 * meeting one is an error naming the card rather than an abort. */
static foh_status load_protected(foh_engine *e, foh_cardset *check, foh_loader *ld, foh_error *err)
{
    lua_State *L = e->sb.L;
    load_job j = {.e = e, .check = check, .ld = ld, .err = err, .status = FOH_OK, .who = "the scripts"};
    lua_pushcfunction(L, load_scripts_protected);
    lua_pushlightuserdata(L, &j);
    e->sb.protected_depth++;
    int st = lua_pcall(L, 1, 0, 0);
    e->sb.protected_depth--;
    if (st == LUA_OK)
        return j.status;
    foh_error_set(err, FOH_ERR_DATA, "%s%s%s: %s (loading what its script left)", j.where, j.where[0] ? ": " : "", j.who,
                  foh_lua_error_text(&e->sb, st));
    lua_pop(L, 1);
    return FOH_ERR_DATA;
}

/* The sandbox's port (core/script/sandbox.h): the `game` API, and the card
 * a call runs named in the watchdog's last message. */
static void describe_call(const void *owner, int card, char *buf, size_t len)
{
    const foh_engine *e = owner;
    snprintf(buf, len, "card '%s'", e->cs->card[card].id);
}

static const foh_sandbox_port sandbox_port = {"game", foh_lua_push_api, describe_call};

static foh_status engine_open(foh_engine *e, const foh_cardset *cs, const foh_script_limits *limits, foh_cardset *check,
                              foh_loader *ld, foh_error *err)
{
    e->cs = cs;
    e->words = foh_card_words(cs);
    e->fx = &flow_lua_effects;
    e->sb.port = &sandbox_port;
    e->sb.owner = e;
    e->sb.mem_limit = limits && limits->memory_bytes > 0 ? limits->memory_bytes : FOH_DEFAULT_SCRIPT_MEMORY;
    e->sb.instr_limit = limits && limits->instructions > 0 ? limits->instructions : FOH_DEFAULT_SCRIPT_INSTRUCTIONS;
    e->sb.time_limit_ns = (int64_t)(limits && limits->time_ms > 0 ? limits->time_ms : FOH_DEFAULT_SCRIPT_TIME_MS) * 1000000;
    e->lua_only = limits && limits->lua_only;
    memset(e->type_cards, 0, sizeof e->type_cards);
    for (int c = 0; c < cs->ncards; c++) {
        e->type_cards[cs->card[c].type][c / 64] |= 1ull << (c % 64);
        e->age_value[c] = (uint8_t)cs->age[cs->card[c].age].value; /* 0..99 (game_yaml.c) */
    }
    for (int a = 0; a < cs->nages; a++) { /* insertion sort: a handful of ages */
        int j = a;
        for (; j > 0 && cs->age[e->age_by_value[j - 1]].value < cs->age[a].value; j--)
            e->age_by_value[j] = e->age_by_value[j - 1];
        e->age_by_value[j] = (uint8_t)a;
    }
    for (int c = 0; c < FOH_MAX_CARDS; c++)
        e->effect_ref[c] = e->effect_proxy_ref[c] = e->card_id_ref[c] = e->card_info_ref[c] = LUA_NOREF;
    e->ids_ref = e->names_ref = LUA_NOREF;
    for (int k = 0; k < FOH_LUA_LISTS; k++)
        e->empty_list_ref[k] = LUA_NOREF;
    e->nfields = 0;
    for (int h = 0; h < FOH_MAX_HOOKS; h++)
        e->hook_ref[h] = LUA_NOREF;
    e->hook_points = 0;
    for (int h = 0; h < cs->nhooks; h++)
        e->hook_points |= 1u << cs->hook[h].point;
    e->sb.call_id = -1;
    e->react_card = e->react_hook = -1;
    if (!foh_lua_watchdog_start(&e->sb))
        return foh_error_set(err, FOH_ERR_MEMORY, "cannot start the thread that watches the scripts' time limit");
    if (!foh_lua_sandbox_open(&e->sb))
        return foh_error_set(err, FOH_ERR_MEMORY, "cannot build the Lua sandbox (out of memory)");
    foh_status s = foh_lua_freeze_selftest(&e->sb, err);
    if (s != FOH_OK)
        return s;
    lua_State *L = e->sb.L;
    lua_newtable(L);
    for (int c = 0; c < cs->ncards; c++) {
        lua_pushinteger(L, c);
        lua_setfield(L, -2, cs->card[c].id);
    }
    e->ids_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    for (int t = 0; t < cs->ntypes; t++) {
        lua_pushstring(L, cs->type[t].name);
        e->type_name[t] = lua_tostring(L, -1);
        lua_rawseti(L, -2, t + 1);
    }
    for (int i = 0; i < cs->nicons; i++) {
        lua_pushstring(L, cs->icon[i]);
        e->icon_name[i] = lua_tostring(L, -1);
        lua_rawseti(L, -2, FOH_MAX_TYPES + i + 1);
    }
    static const char *const roles[2] = {"attacker", "defender"};
    for (int r = 0; r < 2; r++) {
        lua_pushstring(L, roles[r]);
        e->role_name[r] = lua_tostring(L, -1);
        lua_rawseti(L, -2, FOH_MAX_TYPES + FOH_MAX_ICONS + r + 1);
    }
    for (int v = 0; v < cs->nevents; v++) {
        lua_pushstring(L, cs->event[v]);
        e->event_name[v] = lua_tostring(L, -1);
        lua_rawseti(L, -2, FOH_MAX_TYPES + FOH_MAX_ICONS + 2 + v + 1);
    }
    e->names_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    if (!foh_lua_card_tables(e))
        return foh_error_set(err, FOH_ERR_MEMORY, "cannot build the card tables of the Lua sandbox (out of memory)");
    return load_protected(e, check, ld, err);
}

foh_status flow_lua_check_cardset(foh_cardset *cs, foh_loader *ld, foh_error *err)
{
    foh_engine e;
    memset(&e, 0, sizeof e);
    foh_status s = engine_open(&e, cs, NULL, cs, ld, err);
    engine_close(&e);
    return s;
}

foh_engine *flow_engine_new_limited(const foh_cardset *cs, const foh_script_limits *limits, foh_error *err)
{
    foh_engine *e = calloc(1, sizeof *e);
    if (!e) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return NULL;
    }
    if (engine_open(e, cs, limits, NULL, NULL, err) != FOH_OK) {
        flow_engine_free(e);
        return NULL;
    }
    e->head = cs->head; /* the card set's ruleset */
    return e;
}

void flow_engine_free(foh_engine *e)
{
    if (!e)
        return;
    engine_close(e);
    free(e);
}

const foh_cardset *foh_engine_cardset(const foh_engine *e) { return e->cs; }

long foh_engine_lua_calls(const foh_engine *e) { return e->sb.calls; }

int foh_engine_exercised(const foh_engine *e, int card)
{
    return card >= 0 && card < e->cs->ncards ? (int)(e->exercised[card >> 6] >> (card & 63) & 1) : 0;
}

void foh_engine_exercised_clear(foh_engine *e) { memset(e->exercised, 0, sizeof e->exercised); }

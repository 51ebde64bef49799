/* The Lua type stubs (scripts/types/foh.lua) against the engine, both ways:
 *
 * - every function of the `game` table the sandbox hands to scripts (read
 *   at run time by a variant hook: pairs(game)) has a `function game.NAME(`
 *   stub, and every stub names a registered function;
 * - the variant hook points, the events (the engine's and the base set's)
 *   and the `fires` kinds the engine knows (listed by the engine's own
 *   messages for an unknown name) are the fields of `foh.variant.hooks`,
 *   `foh.reactions` and `foh.variant.reactions` (each event with its class
 *   `foh.event.NAME`) and the values of the alias `foh.fires`;
 * - the function the engine requires of each `fires` kind is a field of
 *   `foh.effect` and of `foh.effect.KIND`;
 * - every global function of scripts/effects.lua is annotated (a
 *   `---@param` or `---@return` right above it) and is a function in the
 *   sandbox;
 * - every basic function scripts/types/sandbox.lua declares is one in the
 *   sandbox (the engine offers no list of its globals to compare back).
 *
 * Each mismatch is printed, naming the file to change; any fails the test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#define STUBS FOH_TEST_SCRIPTS "/types/foh.lua"
#define HELPERS FOH_TEST_SCRIPTS "/effects.lua"
#define BASICS FOH_TEST_SCRIPTS "/types/sandbox.lua"

enum { MAX_NAMES = 128, NAME_LEN = 64 };

typedef struct {
    int n;
    char name[MAX_NAMES][NAME_LEN];
} names;

static void add_name(names *s, const char *name, size_t len)
{
    if (len == 0 || len >= NAME_LEN)
        fail_msg("bad name '%.*s' (1 to %d bytes)", (int)len, name, NAME_LEN - 1);
    if (s->n >= MAX_NAMES)
        fail_msg("more than %d names", MAX_NAMES);
    memcpy(s->name[s->n], name, len);
    s->name[s->n][len] = '\0';
    s->n++;
}

static int has_name(const names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->name[i], name))
            return 1;
    return 0;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    assert_non_null(text);
    size_t got = fread(text, 1, (size_t)len, f);
    fclose(f);
    text[got] = '\0';
    return text;
}

static size_t ident_len(const char *p)
{
    size_t n = 0;
    while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= '0' && p[n] <= '9') ||
           p[n] == '_')
        n++;
    return n;
}

/* The start of the line after P (or the end of the text). */
static const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : p + strlen(p);
}

/* Lines of TEXT starting with PREFIX followed by a name and '(': the names. */
static void function_names(const char *text, const char *prefix, names *out)
{
    size_t plen = strlen(prefix);
    for (const char *p = text; *p; p = next_line(p))
        if (!strncmp(p, prefix, plen)) {
            size_t n = ident_len(p + plen);
            if (p[plen + n] == '(')
                add_name(out, p + plen, n);
        }
}

/* The line "---@class CLASS" (alone, or followed by ':' or a space), or NULL. */
static const char *class_line(const char *text, const char *cls)
{
    char head[128];
    int hl = snprintf(head, sizeof head, "---@class %s", cls);
    for (const char *p = text; *p; p = next_line(p))
        if (!strncmp(p, head, (size_t)hl) && strchr(":\n ", p[hl]))
            return p;
    return NULL;
}

/* The fields of class CLASS: its "---@field NAME" lines (a trailing '?'
 * dropped), up to the first line that is not an annotation. */
static int class_fields(const char *text, const char *cls, names *out)
{
    const char *p = class_line(text, cls);
    if (!p)
        return 0;
    for (p = next_line(p); !strncmp(p, "---", 3); p = next_line(p))
        if (!strncmp(p, "---@field ", 10))
            add_name(out, p + 10, ident_len(p + 10));
    return 1;
}

/* The string values of "---@alias ALIAS "a"|"b"|...". */
static int alias_values(const char *text, const char *alias, names *out)
{
    char head[128];
    int hl = snprintf(head, sizeof head, "---@alias %s ", alias);
    for (const char *p = text; *p; p = next_line(p)) {
        if (strncmp(p, head, (size_t)hl))
            continue;
        for (const char *q = p + hl; *q == '"';) {
            const char *end = strchr(q + 1, '"');
            assert_non_null(end);
            add_name(out, q + 1, (size_t)(end - q - 1));
            q = end + 1;
            if (*q == '|')
                q++;
        }
        return 1;
    }
    return 0;
}

/* The names after "WHAT: " up to ')' in an engine message ("... (did you
 * mean 'x'? hooks: setup, before_action)"). */
static void listed_names(const char *msg, const char *what, names *out)
{
    char head[64];
    snprintf(head, sizeof head, "%s: ", what);
    const char *p = strstr(msg, head);
    const char *end = p ? strchr(p, ')') : NULL;
    if (!p || !end)
        fail_msg("the engine's message does not list its %s: %s", what, msg);
    for (p += strlen(head); p < end;) {
        size_t n = ident_len(p);
        add_name(out, p, n);
        p += n;
        if (!strncmp(p, ", ", 2))
            p += 2;
        else if (p != end)
            fail_msg("cannot read the %s listed in: %s", what, msg);
    }
}

/* Compare what the engine has (ENGINE, from FROM) with what the stubs say
 * (STUBS, in WHERE); print each difference. Returns how many there are. */
static int compare(const char *what, const names *engine, const char *from, const names *stubs, const char *where)
{
    int bad = 0;
    for (int i = 0; i < engine->n; i++)
        if (!has_name(stubs, engine->name[i])) {
            printf("lua_stubs: %s '%s' is in the engine (%s) but not in %s\n", what, engine->name[i], from, where);
            bad++;
        }
    for (int i = 0; i < stubs->n; i++)
        if (!has_name(engine, stubs->name[i])) {
            printf("lua_stubs: %s '%s' is in %s but not in the engine (%s)\n", what, stubs->name[i], where, from);
            bad++;
        }
    printf("lua_stubs: %d %s in the engine, %d in %s, %d differences\n", engine->n, what, stubs->n, where, bad);
    return bad;
}

/* Load the base card set with a variant whose variant.yaml is YAML. */
static foh_cardset *with_variant(const char *tag, const char *yaml, foh_error *err)
{
    char dir[256], path[300];
    snprintf(dir, sizeof dir, "/tmp/foh-test-%d-stubs-%s", (int)getpid(), tag);
    snprintf(path, sizeof path, "mkdir -p %s", dir);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "name: stubs-%s\ndescription: probes the engine for tests/test_lua_stubs.c\n%s", tag, yaml);
    fclose(f);
    const char *v[] = {dir};
    foh_cardset *cs = foh_cardset_load_variants(FOH_TEST_CARDS, v, 1, err);
    unlink(path);
    rmdir(dir);
    return cs;
}

/* The message of a variant the engine must refuse. */
static void refused(const char *tag, const char *yaml, foh_error *err)
{
    foh_cardset *cs = with_variant(tag, yaml, err);
    if (cs) {
        foh_cardset_free(cs);
        fail_msg("the probe variant '%s' loaded: the engine was expected to refuse it", tag);
    }
}

typedef struct {
    char text[32768];
    size_t len;
} log_text;

static void collect(void *ud, const char *line)
{
    log_text *log = ud;
    int n = snprintf(log->text + log->len, sizeof log->text - log->len, "%s\n", line);
    if (n < 0 || (size_t)n >= sizeof log->text - log->len)
        fail_msg("the probe's log is longer than %zu bytes", sizeof log->text);
    log->len += (size_t)n;
}

/* The log of a turn of a game on the base set with a variant whose
 * before_action hook runs BODY (Lua; P is the player). */
static void probe_log(const char *body, log_text *log)
{
    char yaml[8192];
    snprintf(yaml, sizeof yaml, "hooks:\n  before_action: |\n    return function(p)\n      %s\n    end\n", body);
    foh_error err = {0};
    foh_cardset *cs = with_variant("probe", yaml, &err);
    if (!cs)
        fail_msg("the probe variant does not load: %s", err.msg);
    foh_engine *e = foh_engine_new(cs, &err);
    if (!e)
        fail_msg("engine: %s", err.msg);
    foh_options opt = {.players = 3, .seed = 1};
    foh_game *g = foh_game_new(e, &opt, &err);
    if (!g)
        fail_msg("game: %s", err.msg);
    log->len = 0;
    log->text[0] = '\0';
    foh_game_set_log(g, collect, log);
    foh_action harvest = {.kind = FOH_ACT_HARVEST, .card = -1, .tokens = 0, .option = -1};
    if (foh_game_apply(g, &harvest, &err) != FOH_OK)
        fail_msg("the probe's turn: %s", err.msg);
    foh_game_free(g);
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* The words after "  TAG " on lines of LOG, with the word that follows
 * each (its Lua type) in TYPES if not NULL. */
static void logged(const char *log, const char *tag, names *out, names *types)
{
    char head[32];
    int hl = snprintf(head, sizeof head, "  %s ", tag);
    for (const char *p = log; *p; p = next_line(p)) {
        if (strncmp(p, head, (size_t)hl))
            continue;
        size_t n = ident_len(p + hl);
        add_name(out, p + hl, n);
        if (types) {
            const char *t = p + hl + n + 1;
            add_name(types, t, ident_len(t));
        }
    }
}

/* ---- The `game` API ---- */

static void test_game_api(void **state)
{
    (void)state;
    log_text *log = malloc(sizeof *log);
    assert_non_null(log);
    probe_log("for k, v in pairs(game) do game.log('api ' .. k .. ' ' .. type(v)) end", log);
    names engine = {0}, types = {0}, stubs = {0};
    logged(log->text, "api", &engine, &types);
    free(log);
    if (engine.n < 10)
        fail_msg("the probe saw %d functions in `game`: it does not work", engine.n);
    int bad = 0;
    for (int i = 0; i < engine.n; i++)
        if (strcmp(types.name[i], "function") != 0) {
            printf("lua_stubs: game.%s is a %s, not a function\n", engine.name[i], types.name[i]);
            bad++;
        }
    char *text = read_text(STUBS);
    function_names(text, "function game.", &stubs);
    free(text);
    bad += compare("game function", &engine, "core/rulesets/flow/lua/lua_api.c", &stubs, "scripts/types/foh.lua");
    assert_int_equal(bad, 0);
}

/* ---- Variant hooks, events, fires kinds ---- */

static void test_variant_hooks(void **state)
{
    (void)state;
    foh_error err = {0};
    refused("hooks", "hooks:\n  zz_probe: 'return function() end'\n", &err);
    names engine = {0}, stubs = {0};
    listed_names(err.msg, "hooks", &engine);
    char *text = read_text(STUBS);
    if (!class_fields(text, "foh.variant.hooks", &stubs))
        fail_msg("scripts/types/foh.lua has no ---@class foh.variant.hooks");
    free(text);
    assert_int_equal(compare("variant hook", &engine, "core/rulesets/flow/rules/variant.c", &stubs, "foh.variant.hooks"), 0);
}

static void test_events(void **state)
{
    (void)state;
    foh_error err = {0};
    refused("events", "on:\n  zz_probe: 'return function(ev) end'\n", &err);
    names engine = {0}, cards = {0}, variants = {0};
    listed_names(err.msg, "events", &engine);
    char *text = read_text(STUBS);
    if (!class_fields(text, "foh.reactions", &cards) || !class_fields(text, "foh.variant.reactions", &variants))
        fail_msg("scripts/types/foh.lua lacks ---@class foh.reactions or foh.variant.reactions");
    const char *from = "core/rulesets/flow/lua/lua_hooks.c and cards/base/game.yaml";
    int bad = compare("event", &engine, from, &cards, "foh.reactions");
    bad += compare("event", &engine, from, &variants, "foh.variant.reactions");
    for (int i = 0; i < engine.n; i++) {
        char cls[NAME_LEN + 16];
        snprintf(cls, sizeof cls, "foh.event.%s", engine.name[i]);
        if (!class_line(text, cls)) {
            printf("lua_stubs: event '%s' has no ---@class %s (its fields) in scripts/types/foh.lua\n",
                   engine.name[i], cls);
            bad++;
        }
    }
    free(text);
    assert_int_equal(bad, 0);
}

/* The base set extended by a card set whose game.yaml adds a timing
 * `zz_probe` that fires KIND, and whose one card, of that timing, has the
 * effect `return {}`. */
static foh_cardset *with_probe_timing(const char *kind, foh_error *err)
{
    char dir[256], path[300];
    snprintf(dir, sizeof dir, "/tmp/foh-test-%d-stubs-timing", (int)getpid());
    snprintf(path, sizeof path, "mkdir -p %s", dir);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/game.yaml", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "name: stubs probe\nextend: [%s]\ntimings: [{name: zz_probe, fires: %s}]\n", FOH_TEST_CARDS, kind);
    fclose(f);
    snprintf(path, sizeof path, "%s/probe.yaml", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("- {id: zz_probe, name: Probe, age: I, type: knowledge, timing: zz_probe, effect: 'return {}'}\n", f);
    fclose(f);
    foh_cardset *cs = foh_cardset_load(dir, err);
    unlink(path);
    snprintf(path, sizeof path, "%s/game.yaml", dir);
    unlink(path);
    rmdir(dir);
    return cs;
}

/* The `fires` kinds, and for each the function the engine requires of a
 * card's effect table (what it says of an effect `return {}`). */
static void test_fires_and_effect_tables(void **state)
{
    (void)state;
    foh_error err = {0};
    foh_cardset *cs = with_probe_timing("zz_unknown", &err);
    if (cs)
        fail_msg("a timing that fires 'zz_unknown' loaded: the engine was expected to refuse it");
    names engine = {0}, stubs = {0}, effect = {0};
    listed_names(err.msg, "kinds", &engine);
    char *text = read_text(STUBS);
    if (!alias_values(text, "foh.fires", &stubs))
        fail_msg("scripts/types/foh.lua has no ---@alias foh.fires");
    if (!class_fields(text, "foh.effect", &effect))
        fail_msg("scripts/types/foh.lua has no ---@class foh.effect");
    int bad = compare("fires kind", &engine, "core/rulesets/flow/rules/game_yaml.c", &stubs, "foh.fires");
    int required = 0;
    for (int i = 0; i < engine.n; i++) {
        if ((cs = with_probe_timing(engine.name[i], &err))) { /* an effect `return {}` will do (never) */
            foh_cardset_free(cs);
            printf("lua_stubs: fires '%s' calls no function of the effect\n", engine.name[i]);
            continue;
        }
        const char *q = strstr(err.msg, "card 'zz_probe'") ? strstr(err.msg, "needs ") : NULL;
        q = q ? strchr(q, '\'') : NULL;
        if (!q)
            fail_msg("fires '%s': cannot read the function the engine requires in: %s", engine.name[i], err.msg);
        char field[NAME_LEN];
        snprintf(field, sizeof field, "%.*s", (int)ident_len(q + 1), q + 1);
        names kind = {0};
        char cls[NAME_LEN + 16];
        snprintf(cls, sizeof cls, "foh.effect.%s", engine.name[i]);
        if (!has_name(&effect, field)) {
            printf("lua_stubs: fires '%s' calls '%s', which is not a field of foh.effect\n", engine.name[i], field);
            bad++;
        }
        if (!class_fields(text, cls, &kind) || !has_name(&kind, field)) {
            printf("lua_stubs: fires '%s' calls '%s': scripts/types/foh.lua needs ---@class %s with that field\n",
                   engine.name[i], field, cls);
            bad++;
        }
        printf("lua_stubs: fires '%s' calls the effect's '%s'\n", engine.name[i], field);
        required++;
    }
    free(text);
    if (required == 0)
        fail_msg("no fires kind requires a function: the probe does not work");
    assert_int_equal(bad, 0);
}

/* ---- The helpers of scripts/effects.lua ---- */

static void test_helpers_annotated(void **state)
{
    (void)state;
    char *text = read_text(HELPERS);
    names helpers = {0};
    function_names(text, "function ", &helpers);
    if (helpers.n == 0)
        fail_msg("no global function in %s", HELPERS);
    int bad = 0;
    /* The annotation block right above each definition. */
    for (const char *p = text; *p; p = next_line(p)) {
        if (strncmp(p, "function ", 9))
            continue;
        int annotated = 0;
        const char *q = p;
        while (q > text) {
            const char *prev = q - 1; /* the '\n' ending the line above */
            while (prev > text && prev[-1] != '\n')
                prev--;
            if (strncmp(prev, "---", 3))
                break;
            if (!strncmp(prev, "---@param ", 10) || !strncmp(prev, "---@return ", 11))
                annotated = 1;
            q = prev;
        }
        if (!annotated) {
            printf("lua_stubs: scripts/effects.lua: helper '%.*s' has no ---@param or ---@return above it\n",
                   (int)ident_len(p + 9), p + 9);
            bad++;
        }
    }
    free(text);
    /* Each is a function in the sandbox. */
    char body[4096] = "";
    size_t len = 0;
    for (int i = 0; i < helpers.n; i++)
        len += (size_t)snprintf(body + len, sizeof body - len, "game.log('helper %s ' .. type(%s)) ",
                                helpers.name[i], helpers.name[i]);
    assert_true(len < sizeof body);
    log_text *log = malloc(sizeof *log);
    assert_non_null(log);
    probe_log(body, log);
    names seen = {0}, types = {0};
    logged(log->text, "helper", &seen, &types);
    free(log);
    assert_int_equal(seen.n, helpers.n);
    for (int i = 0; i < seen.n; i++)
        if (strcmp(types.name[i], "function") != 0) {
            printf("lua_stubs: helper '%s' is a %s in the sandbox, not a function\n", seen.name[i], types.name[i]);
            bad++;
        }
    printf("lua_stubs: %d helpers in scripts/effects.lua, %d not annotated or not functions\n", helpers.n, bad);
    assert_int_equal(bad, 0);
}

/* ---- The basic functions of scripts/types/sandbox.lua ---- */

static void test_sandbox_basics(void **state)
{
    (void)state;
    char *text = read_text(BASICS);
    names declared = {0};
    function_names(text, "function ", &declared);
    free(text);
    if (declared.n == 0)
        fail_msg("no function declared in %s", BASICS);
    char body[4096] = "";
    size_t len = 0;
    for (int i = 0; i < declared.n; i++)
        len += (size_t)snprintf(body + len, sizeof body - len, "game.log('basic %s ' .. type(%s)) ",
                                declared.name[i], declared.name[i]);
    assert_true(len < sizeof body);
    log_text *log = malloc(sizeof *log);
    assert_non_null(log);
    probe_log(body, log);
    names seen = {0}, types = {0};
    logged(log->text, "basic", &seen, &types);
    free(log);
    assert_int_equal(seen.n, declared.n);
    int bad = 0;
    for (int i = 0; i < seen.n; i++)
        if (strcmp(types.name[i], "function") != 0) {
            printf("lua_stubs: scripts/types/sandbox.lua declares '%s', a %s in the sandbox\n", seen.name[i],
                   types.name[i]);
            bad++;
        }
    printf("lua_stubs: %d basic functions in scripts/types/sandbox.lua, %d not in the sandbox\n", declared.n, bad);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_api),
        cmocka_unit_test(test_variant_hooks),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_fires_and_effect_tables),
        cmocka_unit_test(test_helpers_annotated),
        cmocka_unit_test(test_sandbox_basics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Untrusted card scripts: each hostile effect below is stopped with an
 * error naming the card, its file and line and the cause; the action is
 * rejected with the game exactly as before; the engine keeps working. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

/* One hostile card per row: its on_gain body, and what the error must say. */
static const struct {
    const char *id, *body, *says;
} HOSTILE[] = {
    {"huge_string", "local s = string.rep('x', 1e9)", "memory limit exceeded"},
    {"growing_table", "local t = {} for i = 1, 1e9 do t[i] = i end", "memory limit exceeded"},
    {"doubling_string", "local s = 'x' while true do s = s .. s end", "memory limit exceeded"},
    {"spin", "while true do end", "instruction limit exceeded (5000000"},
    {"os_execute", "os.execute('touch /tmp/foh-pwned')", "global 'os'"},
    {"io_open", "io.open('/etc/passwd')", "global 'io'"},
    {"require", "require('os')", "global 'require'"},
    {"debug_hook", "debug.sethook()", "global 'debug'"},
    {"dofile", "dofile('/etc/passwd')", "global 'dofile'"},
    {"loadfile", "loadfile('/etc/passwd')", "global 'loadfile'"},
    {"string_dump", "local b = string.dump(function() end)", "field 'dump'"},
    {"method_dump", "local b = ('x').dump(function() end)", "field 'dump'"},
    {"bytecode", "assert(load('\\27LuaT\\0\\25\\147'))", "binary chunk"},
    {"load_env", "load('return 1', 'x', 't', {})", "sandbox's environment"},
    {"load_escape", "local f = assert(load('return os, io, require')) assert(f() == nil) error('sandboxed load')",
     "sandboxed load"},
    {"replace_api", "game.tokens = function() return 99 end", "cannot change game.tokens"},
    {"replace_library", "string.rep = nil", "cannot change string.rep"},
    {"replace_helper", "provide = nil", "cannot replace the global provide"},
    {"replace_global", "pairs = nil", "cannot replace the global pairs"},
    {"new_global", "leak = 1", "cannot create the global leak"},
    {"metatables", "setmetatable(game, {})", "global 'setmetatable'"},
    {"rawset", "rawset(game, 'tokens', 1)", "global 'rawset'"},
    {"coroutine", "coroutine.wrap(function() end)", "global 'coroutine'"},
    {"random", "math.random(6)", "field 'random'"},
    {"bad_api_argument", "game.gain(p, 'no_such_card')", "unknown card id 'no_such_card'"},
    {"error_object", "game.take_from_reserve(p, 2) error({})", "error object is not a string"},
    {"recursion", "local function f(n) return 1 + f(n + 1) end f(1)", ""},
};
#define NHOSTILE (sizeof HOSTILE / sizeof HOSTILE[0])

static const char STARTS[] =
    "- id: s1\n  name: S1\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s2\n  name: S2\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s3\n  name: S3\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n";

/* The card set, and the YAML line of each hostile card's on_gain body. */
static const char *write_cards(int body_line[NHOSTILE])
{
    static char yaml[16384];
    size_t len = (size_t)snprintf(yaml, sizeof yaml, "%s", STARTS);
    int line = 22; /* STARTS is 21 lines */
    for (size_t i = 0; i < NHOSTILE; i++) {
        len += (size_t)snprintf(yaml + len, sizeof yaml - len,
                                "- id: %s\n  name: %s\n  age: I\n  type: knowledge\n  timing: instant\n"
                                "  stripe: {}\n  text: hostile\n  effect: |\n    return { on_gain = function(p)\n"
                                "      %s\n    end }\n",
                                HOSTILE[i].id, HOSTILE[i].id, HOSTILE[i].body);
        body_line[i] = line + 9;
        line += 11;
    }
    assert_true(len < sizeof yaml);
    return t_cardset_dir("sandbox", "cards.yaml", yaml, (const char *)NULL);
}

static void test_hostile_scripts_are_stopped(void **state)
{
    (void)state;
    int body_line[NHOSTILE];
    const char *dir = write_cards(body_line);
    foh_error err = {0};
    foh_cardset *cs = foh_cardset_load(dir, &err);
    if (!cs)
        fail_msg("%s", err.msg);
    /* Configurable limits: smaller than the defaults, as the messages show. */
    foh_script_limits limits = {.instructions = 5000000, .memory_bytes = (size_t)16 << 20};
    foh_engine *eng = foh_engine_new_limited(cs, &limits, &err);
    if (!eng)
        fail_msg("%s", err.msg);
    foh_options opt = {.players = 3, .seed = 5};
    foh_game *g = foh_game_new(eng, &opt, &err);
    assert_non_null(g);
    foh_game *before = foh_game_clone(g);
    for (size_t i = 0; i < NHOSTILE; i++) {
        int card = foh_cardset_find(cs, HOSTILE[i].id);
        assert_int_equal(foh_position_clear(g, 0, &err), FOH_OK);
        assert_int_equal(foh_position_put(g, card, FOH_ZONE_MARKET, -1, &err), FOH_OK);
        assert_int_equal(foh_position_set_tokens(g, 0, 5, &err), FOH_OK);
        assert_int_equal(foh_position_invest(g, 0, card, 2, &err), FOH_OK);
        foh_game_copy(before, g);
        uint64_t digest = foh_game_digest(g);
        foh_action complete = {.kind = FOH_ACT_COMPLETE, .card = -1, .tokens = 0, .option = -1};
        err.msg[0] = 0;
        foh_status s = foh_game_apply(g, &complete, &err);
        if (s != FOH_ERR_SCRIPT)
            fail_msg("%s: status %d (%s)", HOSTILE[i].id, s, err.msg);
        if (getenv("FOH_TEST_VERBOSE"))
            printf("%s\n", err.msg);
        char where[64], card_name[80];
        snprintf(where, sizeof where, "cards.yaml:%d:", body_line[i]);
        snprintf(card_name, sizeof card_name, "card '%s'", HOSTILE[i].id);
        if (!strstr(err.msg, card_name) || !strstr(err.msg, HOSTILE[i].says) ||
            (HOSTILE[i].says[0] && !strstr(err.msg, where)))
            fail_msg("%s: the message lacks %s, %s or '%s': %s", HOSTILE[i].id, card_name, where, HOSTILE[i].says,
                     err.msg);
        /* Exactly as before: the digest and the whole position. */
        assert_true(foh_game_digest(g) == digest);
        assert_true(foh_game_digest(before) == digest);
        t_invariants(g);
        assert_int_equal(foh_game_tokens(g, 0), foh_game_tokens(before, 0));
        assert_int_equal(foh_game_supply(g), foh_game_supply(before));
        assert_int_equal(foh_game_card_zone(g, card, NULL), FOH_ZONE_MARKET);
        /* The engine keeps working: the same player can still harvest. */
        foh_action h = {.kind = FOH_ACT_HARVEST, .card = -1, .tokens = 0, .option = -1};
        assert_int_equal(foh_game_apply(g, &h, &err), FOH_OK);
    }
    assert_int_equal(access("/tmp/foh-pwned", F_OK), -1);
    foh_game_free(before);
    foh_game_free(g);
    /* A whole game still plays on the same engine (and its Lua state). */
    foh_cardset *base = t_cards();
    foh_engine *good = foh_engine_new_limited(base, &limits, &err);
    assert_non_null(good);
    foh_options o4 = {.players = 4, .seed = 11};
    foh_game *game = foh_game_new(good, &o4, &err);
    assert_non_null(game);
    foh_engine_free(good);
    foh_game_free(game);
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

/* Limits apply while loading too: a card whose chunk loops is refused. */
static void test_limits_apply_at_load(void **state)
{
    (void)state;
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "%s- id: loader\n  name: Loader\n  age: A\n  type: knowledge\n  timing: instant\n  stripe: {}\n"
             "  text: x\n  effect: |\n    local t = {} for i = 1, 1e9 do t[i] = i end\n",
             STARTS);
    const char *dir = t_cardset_dir("sandbox-load", "cards.yaml", yaml, (const char *)NULL);
    foh_error err = {0};
    foh_cardset *cs = foh_cardset_load(dir, &err);
    /* Loading the card set runs the chunk once (default limits). */
    assert_null(cs);
    assert_non_null(strstr(err.msg, "card 'loader'"));
    assert_non_null(strstr(err.msg, "limit exceeded"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_scripts_are_stopped),
        cmocka_unit_test(test_limits_apply_at_load),
    };
    return cmocka_run_group_tests(tests, NULL, t_teardown);
}

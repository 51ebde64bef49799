/* Hostile cards: each finding of issue 10, reproduced and shown fixed.
 *   1 scripts keeping state between calls; addresses in tostring/%p
 *   2 a card rewriting another card's effect
 *   3 variant scripts changing the standard library or the API
 *   4 library calls escaping the instruction budget; the wall-clock limit
 *   5 silent caps (on-gain queue, end-game effects, answers, token and turn
 *     counters)
 *   6 bots swallowing script errors met in their look-ahead
 *   7 games that never end
 *   8 control characters reaching the terminal
 *   9 messages without a position or a hint
 *  10 malformed scenario files
 *  11 command-line options matched by substring
 * (test_sandbox.c keeps the 27 earlier hostile scripts.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support.h"

/* Three starting governments, so that 3-player games can be set up. */
static const char STARTS[] =
    "- id: s1\n  name: S1\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s2\n  name: S2\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s3\n  name: S3\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n";
#define STARTS_LINES 21

/* A card file: STARTS, then card ID (age A knowledge, Instant) whose
 * on_gain runs BODY; PRELUDE is Lua before the effect table. The body's
 * line in the file is *LINE. */
static const char *instant_card(char *buf, size_t len, const char *id, const char *prelude, const char *body,
                                int *line)
{
    snprintf(buf, len,
             "%s- id: %s\n  name: %s\n  age: A\n  type: knowledge\n  timing: instant\n  stripe: {}\n  text: x\n"
             "  effect: |\n    %s\n    return { on_gain = function(p)\n      %s\n    end }\n",
             STARTS, id, id, prelude, body);
    if (line)
        *line = STARTS_LINES + 11;
    return buf;
}

static foh_cardset *load(const char *tag, const char *cards, foh_error *err)
{
    const char *dir = t_cardset_dir(tag, "cards.yaml", cards, (const char *)NULL);
    return foh_cardset_load(dir, err);
}

/* A card set that must load: the test fails with the loader's message. */
static foh_cardset *loaded(const char *tag, const char *cards)
{
    foh_error err = {0};
    foh_cardset *cs = load(tag, cards, &err);
    if (!cs)
        fail_msg("%s", err.msg);
    return cs;
}

/* CPU seconds this thread has used: how long a bounded step took, the same
 * on a loaded machine (where wall-clock time is not). */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void expect_in(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' lacks '%s'", text, part);
}

/* ---- 1. State kept between calls ---- */

static void test_1_upvalue_counter_refused_at_load(void **state)
{
    (void)state;
    char yaml[4096], where[64];
    int line;
    foh_error err = {0};
    instant_card(yaml, sizeof yaml, "counter", "local count = 0",
                 "count = count + 1 game.take_from_supply(p, count)", &line);
    assert_null(load("upv", yaml, &err));
    snprintf(where, sizeof where, "cards.yaml:%d:", line);
    expect_in(err.msg, where);
    expect_in(err.msg, "card 'counter'");
    expect_in(err.msg, "writes to 'count', a variable that outlives the call");
    /* Through a nested function, and the _ENV of a hook, too. */
    instant_card(yaml, sizeof yaml, "nested", "local n = 0", "local function bump() n = n + 1 end bump()", NULL);
    assert_null(load("upv2", yaml, &err));
    expect_in(err.msg, "writes to 'n'");
    instant_card(yaml, sizeof yaml, "env", "", "_ENV = {}", NULL);
    assert_null(load("upv3", yaml, &err));
    expect_in(err.msg, "writes to '_ENV'");
    /* A local of the call may be written, by the hook or a function in it. */
    instant_card(yaml, sizeof yaml, "local_ok", "",
                 "local n = 0 local function bump() n = n + 1 end bump() game.take_from_supply(p, n)", NULL);
    foh_cardset *cs = loaded("upv4", yaml);
    foh_cardset_free(cs);
}

static void test_1_captured_table_is_read_only(void **state)
{
    (void)state;
    char yaml[4096], where[64], log[T_LOG_SIZE];
    int line;
    foh_error err = {0};
    instant_card(yaml, sizeof yaml, "hoarder", "local seen = {}", "seen[#seen + 1] = p", &line);
    foh_cardset *cs = loaded("table", yaml);
    foh_engine *e = foh_engine_new(cs, &err);
    assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "hoarder"), NULL, log, &err), FOH_ERR_SCRIPT);
    snprintf(where, sizeof where, "cards.yaml:%d:", line);
    expect_in(err.msg, "card 'hoarder'");
    expect_in(err.msg, where);
    expect_in(err.msg, "cannot change seen[1]");
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* Iterators hold their position: one made while loading and kept by an
 * effect would count the calls (pairs' iterator is the engine's own Lua,
 * gmatch's a C closure: neither is a script function the bytecode check
 * reads). */
static void test_1_iterators_made_at_load_refused(void **state)
{
    (void)state;
    static const struct {
        const char *prelude, *body, *message;
    } cases[] = {
        {"local it = pairs({1, 2, 3, 4, 5, 6})", "game.take_from_supply(p, it())", "made by pairs while loading"},
        {"local it = string.gmatch('abcdef', '.')", "local c = it() game.take_from_supply(p, 1)",
         "made by string.gmatch while loading"},
        {"local it = load('local n = 0 return function() n = n + 1 return n end', '=sandbox')()",
         "game.take_from_supply(p, it())", "is the engine's own"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char yaml[4096];
        foh_error err = {0};
        instant_card(yaml, sizeof yaml, "iter", cases[i].prelude, cases[i].body, NULL);
        foh_cardset *cs = load("iter", yaml, &err);
        if (cs)
            fail_msg("case %zu loaded", i);
        expect_in(err.msg, "card 'iter'");
        expect_in(err.msg, cases[i].message);
    }
    /* pairs itself, kept by an effect, is fine. */
    char yaml[4096];
    instant_card(yaml, sizeof yaml, "iter_ok", "local each = pairs",
                 "for k in each({a = 1}) do game.take_from_supply(p, 1) end", NULL);
    foh_cardset *cs = loaded("iter_ok", yaml);
    foh_cardset_free(cs);
}

/* Lua's own table.sort picks a pivot from the clock on unbalanced
 * partitions: ties, or an inconsistent comparator, could then come out in
 * another order in another run. The sandbox's sort is a stable merge sort. */
static void test_1_sort_is_stable(void **state)
{
    (void)state;
    char yaml[4096], log[T_LOG_SIZE];
    foh_error err = {0};
    instant_card(yaml, sizeof yaml, "sorter", "",
                 "local t = {} for i = 1, 600 do t[i] = {k = (i * 7) % 3, i = i} end "
                 "table.sort(t, function(a, b) return a.k < b.k end) "
                 "for j = 2, 600 do local a, b = t[j - 1], t[j] "
                 "if a.k > b.k or (a.k == b.k and a.i > b.i) then error('not stable at ' .. j) end end "
                 "local u = {5, 3, 9, 1} table.sort(u) table.sort(u, function(a, b) return a > b end) "
                 "game.log('sorted ' .. table.concat(u, ' '))",
                 NULL);
    foh_cardset *cs = loaded("sorter", yaml);
    foh_engine *e = foh_engine_new(cs, &err);
    if (t_complete(e, NULL, foh_cardset_find(cs, "sorter"), NULL, log, &err) != FOH_OK)
        fail_msg("%s", err.msg);
    expect_in(log, "sorted 9 5 3 1");
    foh_engine_free(e);
    foh_cardset_free(cs);
}

static void test_1_no_addresses(void **state)
{
    (void)state;
    char yaml[4096], log[T_LOG_SIZE];
    foh_error err = {0};
    instant_card(yaml, sizeof yaml, "printer", "",
                 "game.log('a ' .. tostring({}) .. ' ' .. tostring(game) .. ' ' .. tostring(print) .. ' ' .."
                 " string.format('%s %s', {}, game.card) .. ' ' .. tostring(load('return 1')))",
                 NULL);
    foh_cardset *cs = loaded("addr", yaml);
    foh_engine *e = foh_engine_new(cs, &err);
    assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "printer"), NULL, log, &err), FOH_OK);
    expect_in(log, "a table table nil table function function");
    assert_null(strstr(log, "0x"));
    foh_engine_free(e);
    foh_cardset_free(cs);
    instant_card(yaml, sizeof yaml, "pointer", "", "game.log(string.format('%p', {}))", NULL);
    cs = load("addr2", yaml, &err);
    assert_non_null(cs);
    e = foh_engine_new(cs, &err);
    assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "pointer"), NULL, log, &err), FOH_ERR_SCRIPT);
    expect_in(err.msg, "'%p' is not available to scripts");
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* Play a greedy game (seed SEED) on engine E: its log and final digest. */
static uint64_t greedy_game(foh_engine *e, uint64_t seed, char *log)
{
    foh_options opt = {.players = 4, .seed = seed};
    foh_error err;
    foh_game *g = foh_game_new(e, &opt, &err);
    assert_non_null(g);
    log[0] = '\0';
    foh_game_set_log(g, t_collect_log, log);
    foh_player *seats[4];
    for (int p = 0; p < 4; p++)
        seats[p] = foh_bot_greedy_new(seed + (uint64_t)p);
    if (foh_match_play(g, seats, NULL, 0, NULL, &err) != FOH_OK)
        fail_msg("%s", err.msg);
    uint64_t d = foh_game_digest(g);
    for (int p = 0; p < 4; p++)
        foh_player_free(seats[p]);
    foh_game_free(g);
    return d;
}

/* The same game on a fresh engine and after 1,000 other games on one
 * engine: the same digest and log (the tail of the log: 8 KiB). */
static void test_1_reused_engine_plays_like_a_fresh_one(void **state)
{
    (void)state;
    foh_error err;
    foh_cardset *cs = t_cards();
    foh_engine *fresh = foh_engine_new(cs, &err), *used = foh_engine_new(cs, &err);
    static char log1[8192], log2[8192];
    uint64_t d1 = greedy_game(fresh, 77, log1);
    for (uint64_t i = 0; i < 1000; i++) {
        foh_options opt = {.players = 3 + (int)(i % 3), .seed = 1000 + i};
        foh_game *g = foh_game_new(used, &opt, &err);
        foh_player *seats[5];
        for (int p = 0; p < opt.players; p++)
            seats[p] = foh_bot_random_new(i * 7 + (uint64_t)p);
        if (foh_match_play(g, seats, NULL, 0, NULL, &err) != FOH_OK)
            fail_msg("game %d: %s", (int)i, err.msg);
        for (int p = 0; p < opt.players; p++)
            foh_player_free(seats[p]);
        foh_game_free(g);
    }
    uint64_t d2 = greedy_game(used, 77, log2);
    assert_true(d1 == d2);
    assert_string_equal(log1, log2);
    foh_engine_free(fresh);
    foh_engine_free(used);
}

/* ---- 2. One card rewriting another's effect ---- */

static void test_2_effect_tables_are_read_only(void **state)
{
    (void)state;
    static const char *const attempts[][2] = {
        {"game.effect('victim').on_gain = function() end", "cannot change game.effect('victim').on_gain"},
        {"game.effect('victim').provides.defense = 9", "cannot change game.effect('victim').provides.defense"},
        {"local t = game.nation(p) t[1] = 'x'", "cannot change game.nation()[1]"},
        {"table.insert(game.market(), 'x')", "cannot change game.market()"},
        /* pairs reads through a read-only table, and hands back only it */
        {"local _, t = pairs(game.effect('victim')) t.on_gain = function() end",
         "cannot change game.effect('victim').on_gain"},
        {"local _, s = pairs(string) s.upper = function() return 'x' end", "cannot change string.upper"},
        {"for k, v in pairs(game.effect('victim')) do if type(v) == 'table' then v.defense = 9 end end",
         "cannot change game.effect('victim').provides.defense"},
    };
    for (size_t i = 0; i < sizeof attempts / sizeof attempts[0]; i++) {
        char yaml[8192], log[T_LOG_SIZE];
        foh_error err = {0};
        instant_card(yaml, sizeof yaml, "vandal", "", attempts[i][0], NULL);
        strcat(yaml, "- id: victim\n  name: Victim\n  age: I\n  type: military\n  timing: permanent\n  stripe: {}\n"
                     "  text: x\n  effect: return provide { defense = 2 }\n");
        foh_cardset *cs = loaded("vandal", yaml);
        foh_engine *e = foh_engine_new(cs, &err);
        assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "vandal"), NULL, log, &err), FOH_ERR_SCRIPT);
        expect_in(err.msg, "card 'vandal'");
        expect_in(err.msg, attempts[i][1]);
        foh_engine_free(e);
        foh_cardset_free(cs);
    }
}

/* ---- 3. Variant scripts ---- */

/* Load the base card set with a variant whose script is LUA. */
static foh_cardset *with_variant_script(const char *tag, const char *lua, foh_error *err)
{
    char dir[300], path[400];
    snprintf(dir, sizeof dir, "/tmp/foh-test-%d-%s", (int)getpid(), tag);
    snprintf(path, sizeof path, "mkdir -p %s", dir);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "name: %s\ndescription: a hostile helper\nscripts: [helper.lua]\n", tag);
    fclose(f);
    snprintf(path, sizeof path, "%s/helper.lua", dir);
    f = fopen(path, "w");
    fputs(lua, f);
    fclose(f);
    const char *v[] = {dir};
    return foh_cardset_load_variants(FOH_TEST_CARDS, v, 1, err);
}

static void test_3_variant_scripts_load_into_a_frozen_world(void **state)
{
    (void)state;
    static const char *const attempts[][2] = {
        {"string.upper = function(s) return s end\n", "cannot change string.upper"},
        {"local take = game.take_from_supply\ngame.take_from_supply = function(...) return take(...) end\n",
         "cannot change game.take_from_supply"},
        {"attack = function() end\n", "cannot replace the global attack"},
        {"game = {}\n", "cannot replace the global game"},
        {"local s = string\ns.rep = nil\n", "cannot change string.rep"},
    };
    for (size_t i = 0; i < sizeof attempts / sizeof attempts[0]; i++) {
        foh_error err = {0};
        foh_cardset *cs = with_variant_script("hostile-variant", attempts[i][0], &err);
        if (cs)
            fail_msg("attempt %d was accepted", (int)i);
        expect_in(err.msg, "helper.lua:");
        expect_in(err.msg, attempts[i][1]);
    }
    /* A new helper is fine. */
    foh_error err = {0};
    foh_cardset *cs = with_variant_script("kind-variant", "function double(n) return 2 * n end\n", &err);
    if (!cs)
        fail_msg("%s", err.msg);
    foh_cardset_free(cs);
}

/* ---- 4. Library calls and the wall clock ---- */

static void test_4_library_calls_are_bounded(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "local s = string.rep('', 1e12)",
        "string.find(('a'):rep(30) .. 'b', ('a*'):rep(30) .. 'c')",
        "table.move({}, 1, 1e12, 2)",
        "local t = {} for i = 1, 3e6 do t[i] = i end table.sort(t) table.sort(t) table.sort(t)",
        "local s = ('x'):rep(1e7) for i = 1, 1e5 do s:upper() end",
        "local s = ('x'):rep(1e7) for i = 1, 1e5 do local n = utf8.len(s) end",
        "local s = ('x'):rep(3e6) for i = 1, 1e5 do local t = s .. s end",
        "local s = ('ab'):rep(3e5) for i = 1, 1e4 do s:gsub('a', 'b') end",
        "local s = ('a'):rep(1e6) for i = 1, 1e4 do string.find(s, ('a'):rep(5e5) .. 'b', 1, true) end",
        "local t = {} for i = 1, 1e6 do t[i] = 'x' end for i = 1, 1e4 do table.concat(t) end",
        /* utf8.codes' iterator, called by hand inside a run of continuation bytes */
        "local s = ('\\x80'):rep(1e7) local f = utf8.codes('a') for i = 1, 1e5 do f(s, 0) end",
        /* the format of string.pack and its kin is work too */
        "local f = ('b'):rep(2e7) for i = 1, 1e6 do string.packsize(f) end",
        "local f = (' '):rep(2e6) .. 'b' for i = 1, 1e6 do string.pack(f, 1) end",
        /* the game's log is copied outside Lua: lines and actions are capped */
        "local s = ('\\1'):rep(8e6) for i = 1, 1e6 do game.log(s) end",
        "local s = ('\\1'):rep(999) for i = 1, 1e6 do game.log(s) end",
        /* compiling cannot be interrupted: chunks are small */
        "local f = load('return {' .. ('1,'):rep(40000) .. '}')",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        char yaml[4096], log[T_LOG_SIZE];
        int line;
        foh_error err = {0};
        instant_card(yaml, sizeof yaml, "busy", "", bodies[i], &line);
        foh_cardset *cs = loaded("busy", yaml);
        /* The wall clock (2 minutes) only as the last resort: each body
         * takes at most about 1 s of CPU time under ASan, which a loaded
         * machine may stretch many times. */
        foh_script_limits limits = {.instructions = 5000000, .memory_bytes = (size_t)64 << 20, .time_ms = 120000};
        foh_engine *e = foh_engine_new_limited(cs, &limits, &err);
        double t0 = cpu_seconds();
        assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "busy"), NULL, log, &err), FOH_ERR_SCRIPT);
        /* Stopped by the budget, memory or a named limit, not by the clock,
         * and in bounded work (CPU time: a loaded machine changes nothing). */
        if (cpu_seconds() - t0 > 10)
            fail_msg("%s: took %.1f s of CPU time", bodies[i], cpu_seconds() - t0);
        expect_in(err.msg, "card 'busy'");
        if (!strstr(err.msg, "instruction limit exceeded") && !strstr(err.msg, "memory limit exceeded") &&
            !strstr(err.msg, "(the engine's limit"))
            fail_msg("%s: %s", bodies[i], err.msg);
        foh_engine_free(e);
        foh_cardset_free(cs);
    }
}

/* What loading does with what a script left (freezing it, reading the code
 * of its functions) runs under the same limits: an error naming the card,
 * never an abort or minutes of work. */
static void test_4_loading_is_bounded(void **state)
{
    (void)state;
    static const struct {
        const char *prelude, *message;
    } cases[] = {
        /* 200,000 tables: their read-only proxies pass the memory cap */
        {"local t = {} for i = 1, 200000 do t[i] = {} end local keep = t", "memory limit exceeded"},
        /* 40,000 closures of a 60 KB function: 2.4 GB of code to read */
        {"local big = ('x'):rep(60000) "
         "local mk = load('return function() return #\"' .. big .. '\" end') "
         "local t = {} for i = 1, 40000 do t[i] = mk() end local keep = t",
         "instruction limit exceeded"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char yaml[4096];
        foh_error err = {0};
        instant_card(yaml, sizeof yaml, "hoard", cases[i].prelude, "game.take_from_supply(p, #keep > 0 and 1 or 0)",
                     NULL);
        double t0 = cpu_seconds();
        foh_cardset *cs = load("hoard", yaml, &err);
        if (cs)
            fail_msg("case %zu loaded", i);
        if (cpu_seconds() - t0 > 20)
            fail_msg("case %zu took %.1f s of CPU time to refuse", i, cpu_seconds() - t0);
        expect_in(err.msg, "cards.yaml:");
        expect_in(err.msg, "card 'hoard'");
        expect_in(err.msg, cases[i].message);
    }
    /* Compiling cannot be interrupted: effects and helper scripts are kept
     * small enough to compile in a moment, and refused beyond. */
    size_t big = 70 * 1024;
    char *yaml = malloc(big + 4096), *lua = malloc(300 * 1024 + 1);
    assert_non_null(yaml);
    assert_non_null(lua);
    char *pad = malloc(big + 1);
    assert_non_null(pad);
    memset(pad, '-', big);
    pad[big] = '\0';
    instant_card(yaml, big + 4096, "huge", pad, "game.take_from_supply(p, 1)", NULL);
    foh_error err = {0};
    assert_null(load("huge", yaml, &err));
    expect_in(err.msg, "card 'huge': the effect is larger than 64 KiB (the engine's limit");
    memset(lua, '-', 300 * 1024);
    lua[300 * 1024] = '\0';
    assert_null(with_variant_script("huge-helper", lua, &err));
    expect_in(err.msg, "is larger than 256 KiB (the engine's limit for scripts)");
    free(pad);
    free(lua);
    free(yaml);
}

static void test_4_wall_clock_limit_per_action(void **state)
{
    (void)state;
    char yaml[4096], log[T_LOG_SIZE], where[64];
    int line;
    foh_error err = {0};
    /* Comparing two long strings is one instruction: only the clock sees it. */
    instant_card(yaml, sizeof yaml, "slow", "",
                 "local a, b = ('x'):rep(2e7) .. 'a', ('x'):rep(2e7) .. 'b' while true do local _ = a < b end",
                 &line);
    foh_cardset *cs = load("slow", yaml, &err);
    assert_non_null(cs);
    foh_script_limits limits = {.instructions = 2000000000L, .time_ms = 300};
    foh_engine *e = foh_engine_new_limited(cs, &limits, &err);
    assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "slow"), NULL, log, &err), FOH_ERR_SCRIPT);
    snprintf(where, sizeof where, "cards.yaml:%d:", line);
    expect_in(err.msg, "card 'slow'");
    expect_in(err.msg, where);
    expect_in(err.msg, "time limit exceeded (300 ms of wall-clock time per action)");
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* ---- 5. Silent caps ---- */

/* N cards named cN (age I knowledge, Instant: take 1 token from the
 * Reserve), after STARTS and a card ID of age A whose on_gain runs BODY. */
static const char *many_instants(char *buf, size_t len, int n, const char *id, const char *body)
{
    size_t k = (size_t)snprintf(buf, len,
                                "%s- id: %s\n  name: %s\n  age: A\n  type: knowledge\n  timing: instant\n  stripe: {}\n"
                                "  text: x\n  effect: |\n    return { on_gain = function(p) %s end }\n",
                                STARTS, id, id, body);
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k,
                              "- id: c%d\n  name: C%d\n  age: I\n  type: wonder\n  timing: instant\n  stripe: {}\n"
                              "  text: x\n  effect: return { on_gain = function(p) game.take_from_reserve(p, 1) end }\n",
                              i, i);
    assert_true(k < len);
    return buf;
}

static void test_5_forty_instant_effects_all_fire(void **state)
{
    (void)state;
    static char yaml[65536];
    char log[T_LOG_SIZE];
    foh_error err = {0};
    many_instants(yaml, sizeof yaml, 45, "forty", "for i = 1, 40 do game.gain_top(p) end");
    foh_cardset *cs = loaded("forty", yaml);
    foh_engine *e = foh_engine_new(cs, &err);
    foh_options opt = {.players = 3, .seed = 5};
    foh_game *g = foh_game_new(e, &opt, &err);
    assert_int_equal(foh_position_clear(g, 0, &err), FOH_OK);
    for (int i = 0; i < 45; i++) {
        char id[16];
        snprintf(id, sizeof id, "c%d", i);
        assert_int_equal(foh_position_put(g, foh_cardset_find(cs, id), FOH_ZONE_DECK, -1, &err), FOH_OK);
    }
    int forty = foh_cardset_find(cs, "forty");
    assert_int_equal(foh_position_put(g, forty, FOH_ZONE_MARKET, -1, &err), FOH_OK);
    assert_int_equal(foh_position_set_tokens(g, 0, 5, &err), FOH_OK);
    assert_int_equal(foh_position_invest(g, 0, forty, 2, &err), FOH_OK);
    log[0] = '\0';
    foh_game_set_log(g, t_collect_log, log);
    foh_action a = {.kind = FOH_ACT_COMPLETE, .card = -1, .tokens = 0, .option = -1};
    if (foh_game_apply(g, &a, &err) != FOH_OK)
        fail_msg("%s", err.msg);
    /* 5 (the investment came from the Reserve), then 40 Instant effects of
     * 1 token each. */
    assert_int_equal(foh_game_tokens(g, 0), 5 + 40);
    foh_game_free(g);
    foh_engine_free(e);
    foh_cardset_free(cs);
}

static void test_5_every_end_game_effect_scores(void **state)
{
    (void)state;
    static char yaml[65536];
    foh_error err = {0};
    size_t k = (size_t)snprintf(yaml, sizeof yaml, "%s", STARTS);
    for (int i = 0; i < 40; i++)
        k += (size_t)snprintf(yaml + k, sizeof yaml - k,
                              "- id: w%d\n  name: W%d\n  age: I\n  type: wonder\n  timing: end_game\n  stripe: {}\n"
                              "  text: x\n  effect: return end_game_icons { culture = 1 }\n",
                              i, i);
    foh_cardset *cs = loaded("ends", yaml);
    foh_engine *e = foh_engine_new(cs, &err);
    foh_options opt = {.players = 3, .seed = 5};
    foh_game *g = foh_game_new(e, &opt, &err);
    assert_int_equal(foh_position_clear(g, 0, &err), FOH_OK);
    for (int i = 0; i < 40; i++) {
        char id[16];
        snprintf(id, sizeof id, "w%d", i);
        assert_int_equal(foh_position_put(g, foh_cardset_find(cs, id), FOH_ZONE_NATION, 0, &err), FOH_OK);
    }
    foh_score sc[3];
    assert_int_equal(foh_game_score(g, sc, NULL, &err), FOH_OK);
    assert_int_equal(sc[0].n_end, 40);
    assert_int_equal(sc[0].total, 40);
    foh_game_free(g);
    foh_engine_free(e);
    foh_cardset_free(cs);
}

static void test_5_many_answers_and_the_limit(void **state)
{
    (void)state;
    char yaml[4096], log[T_LOG_SIZE];
    foh_error err = {0};
    instant_card(yaml, sizeof yaml, "asker", "",
                 "for i = 1, 60 do if game.choose(p, {'a', 'b'}, 'pick') == 'b' then game.take_from_reserve(p, 1) end "
                 "end",
                 NULL);
    foh_cardset *cs = load("asker", yaml, &err);
    assert_non_null(cs);
    foh_engine *e = foh_engine_new(cs, &err);
    foh_game *g;
    assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "asker"), &g, log, &err), FOH_OK);
    for (int i = 0; i < 60; i++) {
        assert_non_null(foh_game_choice(g));
        foh_action a = {.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = 1};
        if (foh_game_apply(g, &a, &err) != FOH_OK)
            fail_msg("answer %d: %s", i + 1, err.msg);
    }
    assert_null(foh_game_choice(g));
    assert_int_equal(foh_game_tokens(g, 0), 5 + 60);
    foh_game_free(g);
    foh_engine_free(e);
    foh_cardset_free(cs);
    /* Beyond the engine's limit: refused, naming the card and the limit. */
    instant_card(yaml, sizeof yaml, "endless", "", "for i = 1, 2000 do game.choose(p, {'a', 'b'}) end", NULL);
    cs = load("endless", yaml, &err);
    e = foh_engine_new(cs, &err);
    assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "endless"), &g, log, &err), FOH_OK);
    foh_status s = FOH_OK;
    for (int i = 0; i < 2000 && s == FOH_OK && foh_game_choice(g); i++) {
        foh_action a = {.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = 0};
        s = foh_game_apply(g, &a, &err);
    }
    assert_int_equal(s, FOH_ERR_SCRIPT);
    expect_in(err.msg, "card 'endless'");
    expect_in(err.msg, "more than 1024 choices in one action (the engine's limit)");
    foh_game_free(g);
    foh_engine_free(e);
    foh_cardset_free(cs);
}

static void test_5_token_counts_do_not_overflow(void **state)
{
    (void)state;
    foh_error err;
    foh_game *g = t_empty_game(3, 0);
    t_market(g, "temple");
    t_tokens(g, 0, 50000);
    t_tokens(g, 1, 60000);
    t_apply(g, t_act(FOH_ACT_INVEST, "temple", 40000), FOH_OK);
    assert_int_equal(foh_game_invested_tokens(g, t_card("temple")), 40000);
    t_apply(g, t_act(FOH_ACT_SNIPE, "temple", 0), FOH_OK);
    /* P2 pays P1 40,000; the 40,000 under the card go to the Supply; P1
     * takes half of it back. */
    assert_int_equal(foh_game_tokens(g, 1), 20000);
    assert_int_equal(foh_game_tokens(g, 0), 10000 + 40000 + 20000);
    t_invariants(g);
    foh_game_free(g);
    /* A script creating tokens without end meets the engine's limit. */
    char yaml[4096], log[T_LOG_SIZE];
    instant_card(yaml, sizeof yaml, "mint", "", "for i = 1, 20000 do game.take_from_reserve(p, 100000) end", NULL);
    foh_cardset *cs = load("mint", yaml, &err);
    foh_engine *e = foh_engine_new(cs, &err);
    assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "mint"), NULL, log, &err), FOH_ERR_SCRIPT);
    expect_in(err.msg, "card 'mint'");
    expect_in(err.msg, "more than 1000000000 tokens in play (the engine's limit)");
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* A player that always harvests: the game never ends by the rules. */
static int harvester(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                     foh_error *err)
{
    (void)self, (void)g, (void)why, (void)whylen, (void)err;
    for (int i = 0; i < n; i++)
        if (legal[i].kind == FOH_ACT_HARVEST)
            return i;
    return 0;
}

static void test_5_and_7_turns_beyond_65535_and_the_turn_limit(void **state)
{
    (void)state;
    foh_error err;
    char game_yaml[8192];
    /* The base game.yaml with a turn limit of 70,000. */
    FILE *in = fopen(FOH_TEST_CARDS "/game.yaml", "r");
    size_t k = 0;
    char line[512];
    while (fgets(line, sizeof line, in)) {
        if (!strncmp(line, "scripts:", 8))
            snprintf(line, sizeof line, "scripts: [%s/effects.lua]\n", FOH_TEST_SCRIPTS);
        else if (!strncmp(line, "  deck_bottom:", 14))
            continue;
        else if (!strncmp(line, "  turn_limit:", 13))
            snprintf(line, sizeof line, "  turn_limit: 70000\n");
        k += (size_t)snprintf(game_yaml + k, sizeof game_yaml - k, "%s", line);
    }
    fclose(in);
    static char cards[16384];
    snprintf(cards, sizeof cards, "%s- id: m1\n  name: M1\n  age: A\n  type: knowledge\n  timing: none\n"
             "  stripe: {harvest: 1}\n  text: x\n", STARTS);
    const char *dir = t_cardset_dir("turns", "game.yaml", game_yaml, "cards.yaml", cards, (const char *)NULL);
    foh_cardset *cs = foh_cardset_load(dir, &err);
    if (!cs)
        fail_msg("%s", err.msg);
    foh_engine *e = foh_engine_new(cs, &err);
    foh_options opt = {.players = 3, .seed = 9};
    foh_game *g = foh_game_new(e, &opt, &err);
    foh_player p = {.name = "harvester", .decide = harvester, .free = NULL};
    foh_player *seats[3] = {&p, &p, &p};
    assert_int_equal(foh_match_play(g, seats, NULL, 0, NULL, &err), FOH_OK);
    assert_true(foh_game_is_over(g));
    assert_true(foh_game_is_stalled(g));
    assert_int_equal(foh_game_turn(g), 70000);
    foh_score sc[3];
    assert_int_equal(foh_game_score(g, sc, NULL, &err), FOH_OK);
    t_invariants(g);
    foh_game_free(g);
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* ---- 6. Bots and script errors in their look-ahead ---- */

static void test_6_bots_report_errors_met_looking_ahead(void **state)
{
    (void)state;
    /* Working Animal with a typo in one branch of its choice. */
    char dir[300], path[400];
    snprintf(dir, sizeof dir, "/tmp/foh-test-%d-typo", (int)getpid());
    snprintf(path, sizeof path, "mkdir -p %s", dir);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    FILE *f = fopen(path, "w");
    fputs("name: typo\ndescription: a typo in one branch\ncards:\n  override:\n    working_animal:\n"
          "      effect: |\n        return { on_gain = function(p)\n"
          "          if game.choose(p, {'fine', 'broken'}, 'branch') == 'broken' then undefined_helper() end\n"
          "        end }\n",
          f);
    fclose(f);
    const char *v[] = {dir};
    foh_error err;
    foh_cardset *cs = foh_cardset_load_variants(FOH_TEST_CARDS, v, 1, &err);
    if (!cs)
        fail_msg("%s", err.msg);
    foh_engine *e = foh_engine_new(cs, &err);
    static const char *const specs[] = {"greedy", "ismcts:200"};
    for (int k = 0; k < 2; k++) {
        int reported = 0;
        for (uint64_t seed = 1; seed <= 20 && !reported; seed++) {
            foh_options opt = {.players = 4, .seed = seed};
            foh_game *g = foh_game_new(e, &opt, &err);
            foh_player *seats[4];
            for (int p = 0; p < 4; p++)
                seats[p] = foh_bot_from_spec(specs[k], seed + (uint64_t)p, &err);
            foh_status s = foh_match_play(g, seats, NULL, 0, NULL, &err);
            if (s != FOH_OK) {
                reported = 1;
                assert_int_equal(s, FOH_ERR_SCRIPT);
                expect_in(err.msg, "looking ahead at '");
                expect_in(err.msg, "card 'working_animal' (on_gain)");
                expect_in(err.msg, "variant.yaml:8:");
                expect_in(err.msg, "undefined_helper");
            }
            for (int p = 0; p < 4; p++)
                foh_player_free(seats[p]);
            foh_game_free(g);
        }
        if (!reported)
            fail_msg("%s never reported the failing branch", specs[k]);
    }
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* ---- 8. Control characters ---- */

static void test_8_control_characters(void **state)
{
    (void)state;
    char yaml[4096], log[T_LOG_SIZE];
    foh_error err = {0};
    snprintf(yaml, sizeof yaml,
             "%s- id: bell\n  name: \"Bell\\a\\e[2J\"\n  age: A\n  type: knowledge\n  timing: none\n  stripe: {}\n"
             "  text: x\n",
             STARTS);
    assert_null(load("bell", yaml, &err));
    expect_in(err.msg, "cards.yaml:23:9: card 'bell': 'name' holds a control character");
    /* What a script logs is shown with its control characters escaped, on
     * one line: no fake "P9 wins" line. */
    instant_card(yaml, sizeof yaml, "liar", "", "game.log('\\27[2J\\nP9 wins')", NULL);
    foh_cardset *cs = load("liar", yaml, &err);
    assert_non_null(cs);
    foh_engine *e = foh_engine_new(cs, &err);
    assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "liar"), NULL, log, &err), FOH_OK);
    expect_in(log, "  \\x1b[2J\\x0aP9 wins\n");
    for (const char *c = log; *c; c++)
        assert_true(*c == '\n' || (unsigned char)*c >= 0x20);
    assert_null(strstr(log, "\nP9 wins"));
    foh_engine_free(e);
    foh_cardset_free(cs);
    /* Labels and prompts of a choice are shown and saved: control
     * characters and bytes that are not UTF-8 are refused, naming the line. */
    static const char *const choices[][2] = {
        {"game.choose(p, {'ok', 'a\\27[2J'})", "an option holds a control character"},
        {"game.choose(p, {'ok', 'a\\255b'})", "an option holds a control character or is not UTF-8"},
        {"game.choose(p, {'ok', 'fine'}, 'x\\nP9 wins')", "the prompt holds a control character"},
    };
    for (size_t i = 0; i < sizeof choices / sizeof choices[0]; i++) {
        int line;
        char where[64];
        instant_card(yaml, sizeof yaml, "labels", "", choices[i][0], &line);
        cs = load("labels", yaml, &err);
        assert_non_null(cs);
        e = foh_engine_new(cs, &err);
        assert_int_equal(t_complete(e, NULL, foh_cardset_find(cs, "labels"), NULL, log, &err), FOH_ERR_SCRIPT);
        snprintf(where, sizeof where, "cards.yaml:%d:", line);
        expect_in(err.msg, where);
        expect_in(err.msg, choices[i][1]);
        foh_engine_free(e);
        foh_cardset_free(cs);
    }
}

/* ---- 9. Messages ---- */

static void test_9_script_errors_name_the_card_line(void **state)
{
    (void)state;
    static const char *const bodies[][2] = {
        {"error('plain', 0)", "plain"},
        {"for k in pairs({[{}] = 1}) do end", "pairs: keys must be numbers or strings, not table"},
        {"local function f(s) return (s:gsub('.', f)) end f('abc')", "nested more than"},
        {"local t = setmetatable", "global 'setmetatable'"},
        /* a script cannot blame another file or line */
        {"error('other.yaml:1: forged', 0)", "other.yaml:1: forged"},
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        char yaml[4096], log[T_LOG_SIZE], where[80];
        int line;
        foh_error err = {0};
        instant_card(yaml, sizeof yaml, "oops", "", bodies[i][0], &line);
        foh_cardset *cs = loaded("oops", yaml);
        foh_engine *e = foh_engine_new(cs, &err);
        foh_status s = t_complete(e, NULL, foh_cardset_find(cs, "oops"), NULL, log, &err);
        if (i == 3) { /* reading an absent global is no error */
            assert_int_equal(s, FOH_OK);
        } else {
            assert_int_equal(s, FOH_ERR_SCRIPT);
            snprintf(where, sizeof where, "card 'oops' (on_gain): /tmp/foh-test-%d-oops/cards.yaml:%d: ", (int)getpid(),
                     line);
            expect_in(err.msg, where);
            expect_in(err.msg, bodies[i][1]);
            assert_null(strstr(err.msg, "sandbox:"));
        }
        foh_engine_free(e);
        foh_cardset_free(cs);
    }
}

static void test_9_data_errors_have_position_and_hint(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"  age: seven\n", "cards.yaml:27:8: card 'c': unknown age 'seven' (ages: S, A, I, II, III, IV, V)", NULL},
        {"  stirpe: {}\n", "cards.yaml:27:3: card 'c': unknown field 'stirpe' (did you mean 'stripe'?", NULL},
        {"  stripe: {atack: 1}\n", "cards.yaml:27:12: card 'c': unknown icon 'atack' in the stripe",
         "(did you mean 'attack'? icons: attack, culture, defense, harvest, industry, science, trade)"},
        {"  age: I\n  age: II\n", "cards.yaml:28:3: duplicate key 'age' (first at line 27)", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char yaml[4096];
        foh_error err = {0};
        snprintf(yaml, sizeof yaml, "%s- id: c\n  name: C\n  type: knowledge\n  timing: none\n  text: x\n%s%s%s",
                 STARTS, cases[i][0], strstr(cases[i][0], "stripe") ? "" : "  stripe: {}\n",
                 strstr(cases[i][0], "age:") ? "" : "  age: I\n");
        assert_null(load("data", yaml, &err));
        expect_in(err.msg, cases[i][1]);
        if (cases[i][2])
            expect_in(err.msg, cases[i][2]);
    }
    char yaml[4096];
    foh_error err = {0};
    snprintf(yaml, sizeof yaml, "%s- id: s2\n  name: Again\n  age: S\n  type: government\n  timing: none\n"
             "  stripe: {}\n  text: x\n", STARTS);
    assert_null(load("twice", yaml, &err));
    expect_in(err.msg, "cards.yaml:22:7: card id 's2' is defined twice (first at ");
    expect_in(err.msg, "cards.yaml:8)");
}

/* ---- 10 and 11: through the program ---- */

/* Run `foh ARGS` (stderr with stdout into OUT); its exit status. */
static int foh(const char *args, char *out, size_t len)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", FOH_TEST_PROGRAM, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* One Lua step the clock cannot interrupt: integer keys crafted to collide
 * in Lua's hash make one table resize quadratic (about a minute here). The
 * watchdog stops the program well after the deadline, naming the card,
 * instead of letting it hang. */
static void test_4_uninterruptible_step_is_stopped(void **state)
{
    (void)state;
    char yaml[4096], out[8192], args[600];
    instant_card(yaml, sizeof yaml, "crafted", "local t = {} for k = 1, 262145 do t[k * 524287] = true end",
                 "game.take_from_supply(p, 1)", NULL);
    const char *dir = t_cardset_dir("crafted", "cards.yaml", yaml, (const char *)NULL);
    snprintf(args, sizeof args, "play --cards %s --players 3", dir);
    time_t t0 = time(NULL);
    int st = foh(args, out, sizeof out);
    long took = (long)(time(NULL) - t0);
    assert_int_equal(st, 1);
    expect_in(out, "card 'crafted' ran");
    expect_in(out, "past its time limit");
    /* The watchdog runs on the wall clock (15 s after loading began, at
     * any load); the rest, starting the program and loading the base set,
     * is given a wide margin for a slow build on a loaded machine. */
    if (took > 120)
        fail_msg("stopped after %lds", took);
}

static void test_10_malformed_scenarios(void **state)
{
    (void)state;
    char dir[300], path[400], out[8192], args[600];
    snprintf(dir, sizeof dir, "/tmp/foh-test-%d-scenarios", (int)getpid());
    snprintf(path, sizeof path, "mkdir -p %s", dir);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/hostile.yaml", dir);
    FILE *f = fopen(path, "w");
    fputs("scenarios:\n"
          "  - name: a list where a player is expected\n"
          "    players: 3\n"
          "    steps:\n"
          "      - harvest:\n"
          "        expect: {current: [2]}\n"
          "  - name: a card where a list is expected\n"
          "    players: 3\n"
          "    removed: warriors\n"
          "    steps: [harvest]\n"
          "  - name: the others still run\n"
          "    players: 3\n"
          "    steps: [harvest]\n",
          f);
    fclose(f);
    snprintf(args, sizeof args, "scenario %s", path);
    assert_int_equal(foh(args, out, sizeof out), 1);
    expect_in(out, "hostile.yaml:6:27: current must be a single value, not a list");
    expect_in(out, "hostile.yaml:9:14: removed (a list of card ids) must be a list, not a single value");
    expect_in(out, "PASS");
    expect_in(out, "1 passed, 0 failed, 2 malformed");
}

static void test_11_options_are_matched_exactly(void **state)
{
    (void)state;
    char out[8192];
    assert_int_equal(foh("sim --save x --games 2", out, sizeof out), 2);
    expect_in(out, "foh sim: unknown option '--save'");
    assert_int_equal(foh("play --pl 3", out, sizeof out), 2);
    expect_in(out, "unknown option '--pl'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1_upvalue_counter_refused_at_load),
        cmocka_unit_test(test_1_captured_table_is_read_only),
        cmocka_unit_test(test_1_iterators_made_at_load_refused),
        cmocka_unit_test(test_1_sort_is_stable),
        cmocka_unit_test(test_1_no_addresses),
        cmocka_unit_test(test_1_reused_engine_plays_like_a_fresh_one),
        cmocka_unit_test(test_2_effect_tables_are_read_only),
        cmocka_unit_test(test_3_variant_scripts_load_into_a_frozen_world),
        cmocka_unit_test(test_4_library_calls_are_bounded),
        cmocka_unit_test(test_4_loading_is_bounded),
        cmocka_unit_test(test_4_wall_clock_limit_per_action),
        cmocka_unit_test(test_4_uninterruptible_step_is_stopped),
        cmocka_unit_test(test_5_forty_instant_effects_all_fire),
        cmocka_unit_test(test_5_every_end_game_effect_scores),
        cmocka_unit_test(test_5_many_answers_and_the_limit),
        cmocka_unit_test(test_5_token_counts_do_not_overflow),
        cmocka_unit_test(test_5_and_7_turns_beyond_65535_and_the_turn_limit),
        cmocka_unit_test(test_6_bots_report_errors_met_looking_ahead),
        cmocka_unit_test(test_8_control_characters),
        cmocka_unit_test(test_9_script_errors_name_the_card_line),
        cmocka_unit_test(test_9_data_errors_have_position_and_hint),
        cmocka_unit_test(test_10_malformed_scenarios),
        cmocka_unit_test(test_11_options_are_matched_exactly),
    };
    /* FOH_TEST_FILTER=test_4* runs some of them (while debugging). */
    if (getenv("FOH_TEST_FILTER"))
        cmocka_set_test_filter(getenv("FOH_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, t_teardown);
}

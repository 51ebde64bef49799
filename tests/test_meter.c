/* The meter of a sandbox's call (core/script/lua_meter.c), against the
 * module itself on a bare Lua state: a pause of the process (what the
 * scheduler does on a busy machine) must not change what a script costs or
 * which limit stops it. The pauses are made here, by a C function that
 * sleeps (wall-clock time passes, no CPU time), and slow steps by one that
 * spins for a given CPU time: every verdict below is the same on any
 * machine at any load. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "sandbox.h"

/* The meter arms the watchdog (lua_watchdog.c), which this test leaves out. */
void foh_lua_watchdog_arm(foh_sandbox *sb, int id)
{
    (void)sb;
    (void)id;
}

static void *alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

/* pause(MS): sleep MS milliseconds of wall-clock time (at least). */
static int l_pause(lua_State *L)
{
    lua_Integer ms = luaL_checkinteger(L, 1);
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000}, rest;
    while (nanosleep(&ts, &rest) != 0)
        ts = rest;
    return 0;
}

static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* burn(US): spin until US microseconds of this thread's CPU time passed. */
static int l_burn(lua_State *L)
{
    int64_t until = cpu_ns() + (int64_t)luaL_checkinteger(L, 1) * 1000;
    while (cpu_ns() < until)
        ;
    return 0;
}

/* Run SCRIPT as one call of a fresh sandbox limited to INSTRUCTIONS and
 * TIME_MS; the error it stopped with (static), or NULL if it returned. The
 * sandbox is left in *SB for its meter's fields. */
static const char *run(foh_sandbox *sb, const char *script, long instructions, int64_t time_ms)
{
    static char msg[512];
    memset(sb, 0, sizeof *sb);
    sb->instr_limit = instructions;
    sb->time_limit_ns = time_ms * 1000000;
    sb->call_id = -1;
    lua_State *L = lua_newstate(alloc, sb);
    assert_non_null(L);
    sb->L = L;
    luaL_openlibs(L);
    lua_register(L, "pause", l_pause);
    lua_register(L, "burn", l_burn);
    assert_int_equal(luaL_loadstring(L, script), LUA_OK);
    foh_lua_limits_start(sb);
    const char *err = NULL;
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        snprintf(msg, sizeof msg, "%s", lua_tostring(L, -1));
        err = msg;
    }
    lua_close(L);
    sb->L = NULL;
    return err;
}

/* Four pauses of 3 ms, each in its own count-hook interval, then a loop
 * for ever: stopped by the instruction budget, with the hook back to its
 * first interval (at 09623ba every pause made it 10 times more frequent
 * for the rest of the call: one clock read per instruction, and the
 * wall-clock limit then came first on a busy machine). */
static void test_pauses_do_not_make_a_loop_slower(void **state)
{
    (void)state;
    foh_sandbox sb;
    const char *err = run(&sb, "for k = 1, 4 do pause(3) for i = 1, 5000 do end end while true do end", 20000000,
                          600000);
    assert_non_null(err);
    assert_non_null(strstr(err, "instruction limit exceeded (20000000 Lua VM instructions"));
    assert_int_equal(sb.hook_every, 1000);
    /* Stopped where the budget ends, on a multiple of the first interval. */
    assert_true(sb.vm_done >= 20000000 && sb.vm_done % 1000 == 0);
}

/* Steps slow in CPU time still make the hook more frequent, so that the
 * deadline is seen soon after it passes: every step here burns 200 us
 * (120 ms in all; no limit is near, whatever the machine's load). */
static void test_slow_steps_are_still_seen(void **state)
{
    (void)state;
    foh_sandbox sb;
    assert_null(run(&sb, "for k = 1, 600 do burn(200) end", 2000000000L, 600000));
    assert_true(sb.hook_every < 1000);
}

/* Pauses longer than those slow steps, three an interval, but (nearly) no
 * CPU time: the interval stays. */
static void test_pauses_are_not_slow_steps(void **state)
{
    (void)state;
    foh_sandbox sb;
    const char *err = run(&sb, "while true do pause(2) for i = 1, 300 do end end", 2000000000L, 300);
    assert_non_null(err);
    assert_non_null(strstr(err, "time limit exceeded (300 ms of wall-clock time per action)"));
    assert_int_equal(sb.hook_every, 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pauses_do_not_make_a_loop_slower),
        cmocka_unit_test(test_slow_steps_are_still_seen),
        cmocka_unit_test(test_pauses_are_not_slow_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

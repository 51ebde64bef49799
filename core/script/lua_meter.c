/* lua_meter: the budget of a sandbox's call (see sandbox.h).
 *
 * A call is limited three ways: Lua VM instructions, counted by a count
 * hook, to which library calls (foh_lua_charge) and allocations charge the
 * work the hook cannot see; bytes held by the state (the cap is enforced
 * by the allocator, lua_sandbox.c; foh_lua_memory_limit refuses a result
 * known to be too big before it is made); and, as the last line of
 * defence, wall-clock time per call or per span of calls. Everything here
 * reads the sandbox's fields only: the files above charge through it. */
#include <lua.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sandbox.h"

#define HOOK_EVERY 1000 /* VM instructions between count-hook calls, at first */
#define SLOW_HOOK_NS 1000000 /* an interval slower than this, in CPU time, makes the hook 10 times more frequent */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* CPU time of the calling thread (the one running the script): a system
 * call, unlike CLOCK_MONOTONIC, so read only when the wall clock says an
 * interval was slow. -1 where there is no such clock. */
static int64_t thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void foh_lua_script_where(lua_State *L, char *buf, size_t len)
{
    lua_Debug ar;
    buf[0] = '\0';
    for (int level = 0; lua_getstack(L, level, &ar); level++)
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && strcmp(ar.source, "=sandbox") != 0) {
            snprintf(buf, len, "%s:%d", ar.short_src, ar.currentline);
            return;
        }
}

static int instruction_limit(lua_State *L, foh_sandbox *sb)
{
    /* Level 0 is the interrupted function: luaL_error would not name it. */
    char where[256];
    foh_lua_script_where(L, where, sizeof where);
    lua_pushfstring(L, "%s%sinstruction limit exceeded (%I Lua VM instructions per effect call; library calls "
                       "count the work they do)",
                    where, where[0] ? ": " : "", (lua_Integer)sb->instr_limit);
    return lua_error(L);
}

static int time_limit(lua_State *L, foh_sandbox *sb)
{
    char where[256];
    foh_lua_script_where(L, where, sizeof where);
    lua_pushfstring(L, "%s%stime limit exceeded (%I ms of wall-clock time per action)", where, where[0] ? ": " : "",
                    (lua_Integer)(sb->time_limit_ns / 1000000));
    return lua_error(L);
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    foh_sandbox *sb = foh_lua_sandbox_of(L);
    sb->instr_left -= sb->hook_every;
    sb->vm_done += sb->hook_every;
    /* The budget is looked at every HOOK_EVERY VM instructions, however
     * often the hook runs (below, more often on slow code): where a script
     * is stopped, and whether it is, must not depend on the machine's speed. */
    if (sb->instr_left < 0 && sb->vm_done % HOOK_EVERY == 0)
        instruction_limit(L, sb);
    /* The last line of defence: work that neither instructions nor
     * allocations show (comparing two huge strings is one instruction)
     * still takes time. When instructions are that slow, look at the clock
     * more often, so the deadline is seen soon after it passes. Slow is
     * judged on the thread's CPU time: on a busy machine the scheduler
     * pauses the process for milliseconds, and a pause taken for slow code
     * made a loop read the clock at every instruction, ten times its cost,
     * so that the wall-clock limit stopped it before its instruction
     * budget. The wall clock (cheap) says when to look: an interval is
     * measured from the previous hook's CPU reading, taken when that
     * interval was slow too (slow code is slow interval after interval; a
     * pause costs one reading). */
    if (sb->deadline_ns) {
        int64_t t = now_ns();
        if (t - sb->last_hook_ns > SLOW_HOOK_NS && sb->hook_every > 1) {
            int64_t cpu = thread_cpu_ns();
            /* (Without a CPU clock, every slow interval counts.) */
            if (cpu < 0 || (sb->cpu_mark_ns && cpu - sb->cpu_mark_ns > SLOW_HOOK_NS)) {
                sb->hook_every = sb->hook_every > 10 ? sb->hook_every / 10 : 1;
                lua_sethook(L, count_hook, LUA_MASKCOUNT, sb->hook_every);
            }
            sb->cpu_mark_ns = cpu > 0 ? cpu : 0;
        } else {
            sb->cpu_mark_ns = 0;
        }
        sb->last_hook_ns = t;
        sb->charged = 0;
        if (t > sb->deadline_ns)
            time_limit(L, sb);
    }
}

void foh_lua_charge(lua_State *L, long units)
{
    foh_sandbox *sb = foh_lua_sandbox_of(L);
    if (units <= 0)
        return;
    if (units > sb->instr_left) {
        sb->instr_left = -1;
        instruction_limit(L, sb);
    }
    sb->instr_left -= units;
    /* Library work can be slow per unit (and the count hook may be a
     * thousand instructions away): past as many units as between two
     * hook calls, look at the clock here too. */
    sb->charged += units;
    if (sb->deadline_ns && sb->charged >= HOOK_EVERY) {
        sb->charged = 0;
        if (now_ns() > sb->deadline_ns)
            time_limit(L, sb);
    }
}

void foh_lua_memory_limit(lua_State *L, double bytes)
{
    foh_sandbox *sb = foh_lua_sandbox_of(L);
    if (bytes + (double)sb->mem_used <= (double)sb->mem_limit)
        return;
    char where[256];
    foh_lua_script_where(L, where, sizeof where);
    lua_pushfstring(L, "%s%smemory limit exceeded (%I bytes for all scripts of the Lua state)", where,
                    where[0] ? ": " : "", (lua_Integer)sb->mem_limit);
    lua_error(L);
}

void foh_lua_count_hook_set(foh_sandbox *sb)
{
    /* Setting the hook restarts its count: every call is counted from
     * zero, whatever ran before on this sandbox. */
    sb->hook_every = HOOK_EVERY;
    sb->vm_done = 0;
    lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, sb->hook_every);
}

void foh_lua_span_begin(foh_sandbox *sb)
{
    /* The span's deadline runs from its first Lua call (limits_start):
     * most actions make none, and reading the clock is a good part of
     * their cost; the owner's own work before it takes microseconds. */
    sb->in_span = 1;
    sb->deadline_ns = 0;
}

void foh_lua_span_end(foh_sandbox *sb)
{
    sb->in_span = 0;
    sb->deadline_ns = 0;
}

void foh_lua_limits_start(foh_sandbox *sb)
{
    sb->instr_left = sb->instr_limit;
    sb->mem_where[0] = 0;
    sb->lib_depth = 0;
    int64_t now = now_ns();
    if (!sb->in_span || !sb->deadline_ns)
        sb->deadline_ns = sb->time_limit_ns > 0 ? now + sb->time_limit_ns : 0;
    sb->last_hook_ns = now;
    sb->cpu_mark_ns = 0;
    sb->charged = 0;
    foh_lua_count_hook_set(sb);
    foh_lua_watchdog_arm(sb, sb->call_id);
}

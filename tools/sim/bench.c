/* foh bench: how fast the engine and the bots are on this machine, for the
 * card set and variants given (docs/performance.md records the figures).
 * Every measurement plays through the library's public API, as `foh sim`
 * does; the long simulation is `foh sim` itself, run as a child process so
 * that its peak memory is its own. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "common/cli.h"
#include "foh/ruleset.h"
#include "sim/strength.h"

extern char **environ;

static const cli_option_id BENCH_OPTIONS[] = {OPT_PLAYERS, OPT_SEED,  OPT_GAMES, OPT_THREADS, OPT_CARDS,
                                              OPT_VARIANT, OPT_MODS,  OPT_JSON,  OPT_LONG_GAMES, OPT_QUICK, OPT_LUA_ONLY,
                                              OPT_STRENGTH, OPT_SEATS, OPT_COUNT};
static const cli_command BENCH = {
    "bench", NULL, 0,
    "Measures, for the card set and variants given: random-bot games per second on one\n"
    "thread and on T threads (--threads, default: every core), turns and Lua calls per\n"
    "game, nanoseconds per legal-action listing (in full, and with Invest's amounts\n"
    "grouped as the random bot gets them), per apply and per game copy, greedy decisions\n"
    "per second, ISMCTS iterations per second and milliseconds per decision at its\n"
    "default budget, and the peak memory (RSS) of a long `foh sim` of random bots.\n"
    "--games sets the random games (default 20000). Wall-clock figures vary with the\n"
    "machine and its load; tools/callgrind.sh counts instructions instead.\n"
    "--strength measures the bots' strength instead (docs/bots.md).\n",
    BENCH_OPTIONS, NULL};

/* Positions sampled from random games, for the per-operation timings. */
#define SAMPLES 400
#define ISMCTS_DECISIONS 20

typedef struct {
    const cli_options *o;
    const foh_cardset *cs;
    long from, to; /* game numbers */
    long turns, lua_calls, games;
    char error[sizeof(foh_error) + 64];
} random_run;

/* Play games FROM..TO of random bots on an engine of its own. */
static void *play_random(void *arg)
{
    random_run *r = arg;
    foh_error err;
    foh_engine *eng = foh_engine_new_limited(r->cs, &r->o->limits, &err);
    if (!eng) {
        snprintf(r->error, sizeof r->error, "%s", err.msg);
        return NULL;
    }
    for (long i = r->from; i < r->to && !r->error[0]; i++) {
        uint64_t seed = foh_seed_for(r->o->seed, (uint64_t)i);
        foh_options opt = {.players = r->o->players, .seed = seed};
        foh_game *g = foh_game_new(eng, &opt, &err);
        foh_player *seats[FOH_MAX_PLAYERS] = {0};
        int ok = g != NULL;
        for (int p = 0; ok && p < r->o->players; p++)
            ok = (seats[p] = foh_bot_random_new(cli_seat_seed(seed, p))) != NULL;
        if (ok && foh_match_play(g, seats, NULL, 0, NULL, &err) == FOH_OK) {
            r->turns += foh_game_turn(g);
            r->games++;
        } else {
            snprintf(r->error, sizeof r->error, "game %ld: %s", i + 1, g ? err.msg : "cannot start");
        }
        cli_free_seats(seats, r->o->players);
        foh_game_free(g);
    }
    /* Lua calls are counted by The Flow of History's engine only. */
    r->lua_calls = foh_cardset_ruleset(r->cs) == foh_ruleset_at(0) ? foh_engine_lua_calls(eng) : 0;
    foh_engine_free(eng);
    return NULL;
}

/* G random games on T threads: seconds taken, or -1 after saying why. */
static double random_games(const cli_options *o, const foh_cardset *cs, long games, int threads, random_run *sum)
{
    random_run run[256];
    pthread_t tid[256];
    memset(sum, 0, sizeof *sum);
    double start = cli_now_s();
    for (int t = 0; t < threads; t++) {
        run[t] = (random_run){.o = o, .cs = cs, .from = games * t / threads, .to = games * (t + 1) / threads};
        if (pthread_create(&tid[t], NULL, play_random, &run[t]) != 0) {
            cli_error("bench", "cannot start a thread");
            for (int k = 0; k < t; k++)
                pthread_join(tid[k], NULL);
            return -1;
        }
    }
    for (int t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    double s = cli_now_s() - start;
    for (int t = 0; t < threads; t++) {
        if (run[t].error[0]) {
            cli_error("bench", "%s", run[t].error);
            return -1;
        }
        sum->turns += run[t].turns;
        sum->lua_calls += run[t].lua_calls;
        sum->games += run[t].games;
    }
    return s;
}

/* Sample positions: every few decisions of random games (copies into OUT,
 * which the caller frees); how many (fewer if memory ran out). */
static int sample_positions(const cli_options *o, foh_engine *eng, foh_game **out, int max)
{
    int n = 0;
    foh_error err;
    for (long i = 0; n < max && i < 1000; i++) {
        uint64_t seed = foh_seed_for(o->seed + 1, (uint64_t)i);
        foh_options opt = {.players = o->players, .seed = seed};
        foh_game *g = foh_game_new(eng, &opt, &err);
        if (!g)
            return n; /* the positions so far (freed by the caller) */
        foh_player *seats[FOH_MAX_PLAYERS] = {0};
        int ok = 1;
        for (int p = 0; p < o->players; p++)
            ok &= (seats[p] = foh_bot_random_new(cli_seat_seed(seed, p))) != NULL;
        if (!ok) {
            cli_free_seats(seats, o->players);
            foh_game_free(g);
            return n;
        }
        foh_match m;
        foh_match_init(&m, g, seats, NULL, 0);
        for (long step = 0; n < max && !foh_game_is_over(g); step++) {
            if (step % 7 == 0 && !(out[n] = foh_game_clone(g)))
                break;
            n += step % 7 == 0;
            if (foh_match_step(&m, &err) != FOH_OK)
                break;
        }
        foh_match_free(&m);
        cli_free_seats(seats, o->players);
        foh_game_free(g);
    }
    return n;
}

typedef struct {
    double list_ns, grouped_ns, apply_ns, copy_ns;
} op_times;

/* Nanoseconds per legal-action listing (in full, and grouped as the random
 * bot gets it: foh_game_legal_grouped), apply and copy over the N
 * positions POS (ROUNDS passes each). */
static int time_operations(foh_game **pos, int n, int rounds, op_times *t)
{
    foh_game *tmp = foh_game_clone(pos[0]);
    foh_action legal[512];
    foh_error err;
    uint64_t pick = 12345;
    if (!tmp)
        return 0;
    double start = cli_now_s();
    long ops = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++, ops++)
            foh_game_copy(tmp, pos[i]);
    t->copy_ns = (cli_now_s() - start) * 1e9 / ops;
    start = cli_now_s();
    ops = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++, ops++)
            if (foh_game_legal_actions(pos[i], legal, 512, &err) < 0) {
                foh_game_free(tmp);
                cli_error("bench", "legal actions: %s", err.msg);
                return 0;
            }
    t->list_ns = (cli_now_s() - start) * 1e9 / ops;
    start = cli_now_s();
    ops = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++, ops++)
            if (foh_game_legal_grouped(pos[i], legal, 512, NULL, &err) < 0) {
                foh_game_free(tmp);
                cli_error("bench", "legal actions: %s", err.msg);
                return 0;
            }
    t->grouped_ns = (cli_now_s() - start) * 1e9 / ops;
    /* Copy, then apply one of the legal actions (listed beforehand). */
    foh_action chosen[SAMPLES];
    for (int i = 0; i < n && i < SAMPLES; i++) {
        int k = foh_game_legal_actions(pos[i], legal, 512, &err);
        if (k <= 0) {
            foh_game_free(tmp);
            cli_error("bench", "legal actions: %s", k < 0 ? err.msg : "none at a sampled position");
            return 0;
        }
        pick = pick * 6364136223846793005ull + 1442695040888963407ull;
        chosen[i] = legal[(pick >> 33) % (uint64_t)(k < 512 ? k : 512)];
    }
    start = cli_now_s();
    ops = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++, ops++) {
            foh_game_copy(tmp, pos[i]);
            if (foh_game_apply(tmp, &chosen[i], &err) != FOH_OK) {
                foh_game_free(tmp);
                cli_error("bench", "apply: %s", err.msg);
                return 0;
            }
        }
    t->apply_ns = (cli_now_s() - start) * 1e9 / ops - t->copy_ns;
    foh_game_free(tmp);
    return 1;
}

/* Decision time of the seats playing SPEC (seat 0 only if ONLY0). */
typedef struct {
    int only0;
    double seconds;
    long decisions;
} decision_clock;

static foh_status count_decision(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    decision_clock *c = ud;
    (void)g;
    (void)err;
    if ((!c->only0 || d->player == 0) && d->nlegal > 1) {
        c->seconds += d->seconds;
        c->decisions++;
    }
    return FOH_OK;
}

/* Play with SPECS until MAX_DECISIONS decisions were timed (GAMES games at
 * most); 0 after saying why. */
static int time_bots(const cli_options *o, foh_engine *eng, const char *specs, int only0, long games,
                     long max_decisions, decision_clock *c)
{
    foh_error err;
    cli_options so = *o;
    so.seats = specs;
    memset(c, 0, sizeof *c);
    c->only0 = only0;
    foh_observer obs = {.after = count_decision, .ud = c};
    for (long i = 0; i < games && c->decisions < max_decisions; i++) {
        uint64_t seed = foh_seed_for(o->seed + 2, (uint64_t)i);
        foh_options opt = {.players = o->players, .seed = seed};
        foh_game *g = foh_game_new(eng, &opt, &err);
        foh_player *seats[FOH_MAX_PLAYERS] = {0};
        if (!g || !cli_seats(&so, seed, seats)) {
            cli_error("bench", "%s", g ? "bad seats" : err.msg);
            foh_game_free(g);
            return 0;
        }
        foh_match m;
        foh_match_init(&m, g, seats, &obs, 1);
        foh_status s = FOH_OK;
        while (s == FOH_OK && !foh_game_is_over(g) && c->decisions < max_decisions)
            s = foh_match_step(&m, &err);
        foh_match_free(&m);
        cli_free_seats(seats, o->players);
        foh_game_free(g);
        if (s != FOH_OK) {
            cli_error("bench", "%s", err.msg);
            return 0;
        }
    }
    return 1;
}

/* Peak RSS (KiB) of `foh sim` playing GAMES random games, run as a child;
 * -1 after saying why. */
static long long_simulation(const cli_options *o, long games, int threads, double *seconds)
{
    /* foh sim, 5 options, then every --cards, --variant and --mods. */
    char *argv[2 + 2 * 5 + 2 * (1 + CLI_MAX_VARIANTS + CLI_MAX_VARIANTS + CLI_MAX_MODS) + 1];
    char players[16], seed[32], ngames[32], nthreads[16];
    int n = 0;
    snprintf(players, sizeof players, "%d", o->players);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    snprintf(ngames, sizeof ngames, "%ld", games);
    snprintf(nthreads, sizeof nthreads, "%d", threads);
    argv[n++] = "foh";
    argv[n++] = "sim";
    argv[n++] = "--players", argv[n++] = players;
    argv[n++] = "--seed", argv[n++] = seed;
    argv[n++] = "--games", argv[n++] = ngames;
    argv[n++] = "--threads", argv[n++] = nthreads;
    argv[n++] = "--seats", argv[n++] = "random";
    if (o->cards)
        argv[n++] = "--cards", argv[n++] = (char *)o->cards;
    for (int i = 0; i < o->nmore_cards; i++)
        argv[n++] = "--cards", argv[n++] = (char *)o->more_cards[i];
    for (int i = 0; i < o->nvariants; i++)
        argv[n++] = "--variant", argv[n++] = (char *)o->variant[i];
    for (int i = 0; i < o->nmods; i++)
        argv[n++] = "--mods", argv[n++] = (char *)o->mods[i];
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    double start = cli_now_s();
    int e = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0) {
        cli_error("bench", "cannot run foh sim: %s", strerror(e));
        return -1;
    }
    int status;
    struct rusage ru; /* of the children waited for: the one simulation */
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        getrusage(RUSAGE_CHILDREN, &ru) != 0) {
        cli_error("bench", "the long simulation (foh sim --games %ld) failed", games);
        return -1;
    }
    *seconds = cli_now_s() - start;
    return ru.ru_maxrss;
}

int cmd_bench(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&BENCH, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&BENCH, stdout);
        return st;
    }
    if (!(o.given >> OPT_GAMES & 1))
        o.games = o.strength ? (o.quick ? 10 : 200) : o.quick ? 200 : 20000;
    if (o.strength && !(o.given >> OPT_SEATS & 1))
        o.seats = o.quick ? "random,greedy,ismcts:2,ismcts:2:random" : "random,greedy,ismcts:8,ismcts:32,ismcts:32:random";
    if (!(o.given >> OPT_THREADS & 1)) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        o.threads = cores < 1 ? 1 : cores > 256 ? 256 : (int)cores;
    }
    if (o.quick && !(o.given >> OPT_LONG_GAMES & 1))
        o.long_games = 1000;
    foh_cardset *cs;
    foh_engine *eng;
    if (!cli_load_any(&o, &cs, &eng))
        return CLI_DATA;
    int flow = foh_cardset_ruleset(cs) == foh_ruleset_at(0); /* another ruleset: through the interface alone */
    if (o.strength) {
        foh_engine_free(eng);
        int status = CLI_USAGE;
        const char *note;
        if (!flow)
            cli_error("bench", "--strength compares final scores: The Flow of History's card sets only for now");
        else if (!foh_cardset_allows_players(cs, o.players, &note))
            cli_error("bench", "%d players are not allowed. %s", o.players, note);
        else
            status = strength_run(&o, cs);
        foh_cardset_free(cs);
        return status;
    }
    const char *note = "";
    foh_error err;
    foh_options try = {.players = o.players, .seed = o.seed};
    foh_game *trial = flow ? NULL : foh_game_new(eng, &try, &err);
    if (flow ? !foh_cardset_allows_players(cs, o.players, &note) : !trial) {
        cli_error("bench", "%d players are not allowed. %s", o.players, flow ? note : err.msg);
        foh_engine_free(eng);
        foh_cardset_free(cs);
        return CLI_USAGE;
    }
    foh_game_free(trial);
    int status = CLI_DATA;
    foh_game *pos[SAMPLES];
    int npos = 0;
    json_t *j = json_object();
    printf("foh bench: %d players, seed %llu, %d thread%s\n", o.players, (unsigned long long)o.seed, o.threads,
           o.threads == 1 ? "" : "s");

    random_run one, all;
    double s1 = random_games(&o, cs, o.games, 1, &one);
    if (s1 < 0)
        goto done;
    double turns = (double)one.turns / one.games, calls = (double)one.lua_calls / one.games;
    if (flow)
        printf("random bots: %.0f games/s on 1 thread (%ld games in %.2f s), %.1f turns and %.1f Lua calls per game\n",
               one.games / s1, one.games, s1, turns, calls);
    else
        printf("random bots: %.0f games/s on 1 thread (%ld games in %.2f s), %.1f turns per game\n", one.games / s1,
               one.games, s1, turns);
    double sa = o.threads > 1 ? random_games(&o, cs, o.games, o.threads, &all) : s1;
    if (sa < 0)
        goto done;
    printf("random bots: %.0f games/s on %d threads\n", o.games / sa, o.threads);
    json_object_set_new(j, "random_games_per_s_1_thread", json_real(one.games / s1));
    json_object_set_new(j, "random_games_per_s_all_threads", json_real(o.games / sa));
    json_object_set_new(j, "threads", json_integer(o.threads));
    json_object_set_new(j, "turns_per_game", json_real(turns));
    json_object_set_new(j, "lua_calls_per_game", json_real(calls));

    op_times t;
    if ((npos = sample_positions(&o, eng, pos, SAMPLES)) <= 0) {
        cli_error("bench", "cannot sample positions from random games (out of memory)");
        goto done;
    }
    if (!time_operations(pos, npos, o.quick ? 2 : 50, &t))
        goto done;
    printf("per operation (%d positions of random games): legal-action listing %.0f ns (grouped %.0f ns), apply %.0f "
           "ns, game copy %.0f ns\n",
           npos, t.list_ns, t.grouped_ns, t.apply_ns, t.copy_ns);
    json_object_set_new(j, "legal_listing_ns", json_real(t.list_ns));
    json_object_set_new(j, "grouped_listing_ns", json_real(t.grouped_ns));
    json_object_set_new(j, "apply_ns", json_real(t.apply_ns));
    json_object_set_new(j, "copy_ns", json_real(t.copy_ns));

    decision_clock c;
    if (!time_bots(&o, eng, "greedy", 0, o.quick ? 1 : 10, o.quick ? 50 : 2000, &c))
        goto done;
    printf("greedy: %.0f decisions/s (%.3f ms per decision, %ld decisions)\n", c.decisions / c.seconds,
           1e3 * c.seconds / c.decisions, c.decisions);
    json_object_set_new(j, "greedy_decisions_per_s", json_real(c.decisions / c.seconds));

    char specs[16 + 8 * FOH_MAX_PLAYERS] = "ismcts"; /* seat 1 against greedy bots */
    for (int p = 1; p < o.players; p++)
        strcat(specs, ",greedy");
    if (!time_bots(&o, eng, specs, 1, 10, o.quick ? 2 : ISMCTS_DECISIONS, &c))
        goto done;
    double ms = 1e3 * c.seconds / c.decisions;
    printf("ismcts (default %d iterations): %.1f ms per decision, %.0f iterations/s (%ld decisions against greedy)\n",
           FOH_ISMCTS_DEFAULT_ITERATIONS, ms, FOH_ISMCTS_DEFAULT_ITERATIONS / (ms / 1e3), c.decisions);
    json_object_set_new(j, "ismcts_ms_per_decision", json_real(ms));
    json_object_set_new(j, "ismcts_iterations_per_s", json_real(FOH_ISMCTS_DEFAULT_ITERATIONS / (ms / 1e3)));

    if (o.long_games > 0 && !flow)
        printf("long simulation: skipped (foh sim --threads is The Flow of History's only, for now)\n");
    if (o.long_games > 0 && flow) {
        double secs;
        long kib = long_simulation(&o, o.long_games, o.threads, &secs);
        if (kib < 0)
            goto done;
        printf("long simulation: foh sim of %ld random games on %d threads: peak RSS %.1f MiB (%.1f s)\n",
               o.long_games, o.threads, kib / 1024.0, secs);
        json_object_set_new(j, "long_games", json_integer(o.long_games));
        json_object_set_new(j, "long_peak_rss_mib", json_real(kib / 1024.0));
    }
    status = CLI_OK;
    if (o.json && !cli_write_json(j, o.json, JSON_INDENT(2) | JSON_SORT_KEYS)) {
        cli_error("bench", "cannot write %s: %s", o.json, strerror(errno));
        status = CLI_DATA;
    }
done:
    json_decref(j);
    for (int i = 0; i < npos; i++)
        foh_game_free(pos[i]);
    foh_engine_free(eng);
    foh_cardset_free(cs);
    return status;
}

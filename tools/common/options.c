/* options: each command's options from one table (see options.h): parsing
 * with getopt_long, --help, the search path of card sets and variants, the
 * seats, loading the card set. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "foh/ruleset.h"

/* Every option: its name, its value's name (NULL: a flag) and its help. */
static const struct {
    const char *name, *arg, *help;
} OPTIONS[OPT_COUNT] = {
    [OPT_PLAYERS] = {"players", "N", "number of players (default 4)"},
    [OPT_SEED] = {"seed", "S", "random seed (default 1): the same seed gives the same games"},
    [OPT_GAMES] = {"games", "G", "number of games (default 1000; foh check: 12 random-bot games)"},
    [OPT_SEATS] = {"seats", "SPECS",
                   "the players: random, greedy, ismcts[:ITERATIONS|:MSms], one for all seats or one per\n"
                   "seat, comma-separated (default random)"},
    [OPT_CARDS] = {"cards", "DIR", "card set folder or name (default: the base set); repeat it to add sets that\n"
                                   "extend the first (docs/card-format.md, \"Expansions\")"},
    [OPT_VARIANT] = {"variant", "V", "apply variant V (a name from 'foh variants', or a folder); repeat to combine"},
    [OPT_THREADS] = {"threads", "T", "worker threads (default 1); the report does not depend on T"},
    [OPT_SHARD] = {"shard", "i/k", "play only the i-th of k equal parts of the G games"},
    [OPT_SAVE_SHARD] = {"save-shard", "FILE",
                        "write this run's raw sums; 'foh merge' adds shards into exactly the report of the\n"
                        "whole run"},
    [OPT_JSON] = {"json", "FILE", "write the whole report as JSON (- for standard output)"},
    [OPT_HTML] = {"html", "FILE", "write the report as one self-contained HTML page with charts"},
    [OPT_GAMES_CSV] = {"games-csv", "FILE",
                       "one row per game: seed, seats, length, stalled, scores, winners, starting cards"},
    [OPT_TRACE] = {"trace", "FILE",
                   "write JSON Lines: the whole public state and the legal actions after every action\n"
                   "(docs/trace-format.md)"},
    [OPT_ON_ERROR] = {"on-error", "stop|skip",
                      "a game stopped by an error (a card script's error or limit, met in the game or in\n"
                      "a bot's look-ahead): stop the run (default; exit status 1) or leave the game out\n"
                      "of the report; either way the game, its seed, the card and the action are named.\n"
                      "A stopped run names its lowest-numbered failing game, whatever the threads, and\n"
                      "the foh play command that plays it alone"},
    [OPT_SAVE] = {"save", "FILE",
                  "write the game to FILE after every action (JSON, docs/save-format.md): an interrupted\n"
                  "game can be resumed"},
    [OPT_LOAD] = {"load", "FILE",
                  "resume the saved game: card set, variants, players, seed and seats come from FILE\n"
                  "(refused if the card set's files changed); its actions are replayed, then the\n"
                  "seats play on (--seats replaces them); --save defaults to the same FILE"},
    [OPT_STOP_AFTER] = {"stop-after", "N", "stop after N actions in all (the game stays resumable)"},
    [OPT_COVERAGE] = {"coverage", NULL,
                      "also print which cards' effects the passing scenarios exercised, and fail unless\n"
                      "all of them were"},
    [OPT_A_CARDS] = {"a-cards", "DIR", "card set of configuration A (default: the base set)"},
    [OPT_A_VARIANT] = {"a-variant", "V", "a variant of configuration A (repeatable)"},
    [OPT_B_CARDS] = {"b-cards", "DIR", "card set of configuration B (default: the base set)"},
    [OPT_B_VARIANT] = {"b-variant", "V", "a variant of configuration B (repeatable)"},
    [OPT_LUA_INSTRUCTIONS] = {"lua-instructions", "N",
                              "Lua VM instructions per effect call (default 20000000; library calls count the\n"
                              "work they do)"},
    [OPT_LUA_MEMORY] = {"lua-memory", "MIB", "memory cap of each engine's Lua state (default 64)"},
    [OPT_ACTION_TIME] = {"action-time", "MS", "wall-clock milliseconds one action's scripts may take (default 5000)"},
    [OPT_LUA_ONLY] = {"lua-only", NULL,
                      "run every card effect through its Lua functions, not the engine's C fast paths of\n"
                      "the effect helpers (the same games, slower: to check that both agree)"},
    [OPT_EXPLAIN] = {"explain", NULL,
                     "after each bot decision, log its 3 best alternatives with their values (greedy:\n"
                     "position value; ISMCTS: simulations and mean reward)"},
    [OPT_REVEAL] = {"reveal", NULL, "designer mode: also show the Civilization deck's order"},
    [OPT_WATCH] = {"watch", NULL,
                   "designer mode: between turns, reload the card set's files that changed (cards,\n"
                   "game.yaml, scripts, variants) and play on under the new definitions; a broken\n"
                   "edit is reported and the old definitions kept (docs/play.md)"},
    [OPT_MODS] = {"mods", "DIR",
                  "look up named card sets and variants in DIR too (after the project's folders and\n"
                  "$FOH_MODS, a ':'-separated list of folders); repeatable"},
    [OPT_LONG_GAMES] = {"long-games", "N",
                        "games of the long simulation whose peak memory is measured (default 100000; 0\n"
                        "leaves it out)"},
    [OPT_QUICK] = {"quick", NULL, "a few games of each measurement: checks that it runs, not how fast"},
    [OPT_SCENARIOS] = {"scenarios", "PATH",
                       "also run the scenario files in PATH (a file or a folder) and warn of every card no\n"
                       "passing scenario exercises; repeatable"},
    [OPT_IMPACT] = {"impact", NULL,
                    "also print each card's impact: how much gaining it changes the gainer's chance to\n"
                    "win and final VP margin, against what their position predicted (docs/impact.md)"},
    [OPT_STRENGTH] = {"strength", NULL,
                      "instead of the speed: a round robin of the bot kinds --seats names (default\n"
                      "random,greedy,ismcts:8,ismcts:32,ismcts:32:random), G games per pair (--games,\n"
                      "default 200), with Bradley-Terry ratings and 95% bootstrap intervals (docs/bots.md)"},
    [OPT_OUT] = {"out", "DIR", "the results folder (default: the experiment file's name without .yaml,\n"
                               "followed by -results); it must not exist or be empty"},
    [OPT_PORT] = {"port", "P", "the TCP port to listen on (default 8080; 0: any free port, printed)"},
    [OPT_HOST] = {"host", "ADDR", "the address to listen on (default 127.0.0.1: this machine alone; 0.0.0.0: every\n"
                                  "network, for players elsewhere)"},
    [OPT_TABLES] = {"tables", "DIR", "where tables are saved after every action and resumed from at start\n"
                                     "(default foh-tables)"},
    [OPT_ABANDON] = {"abandon", "S", "seconds a human seat may stay unanswered (its page closed) before a bot\n"
                                     "plays it; its player takes it back on return (default 60)"},
    [OPT_MAX_TABLES] = {"max-tables", "N", "the most open tables at once, finished ones included (default 200)"},
    [OPT_ORIGIN] = {"origin", "URL", "another site whose pages may make and play tables, as scheme://host[:port]\n"
                                     "(repeatable; the server's own address is always allowed)"},
    [OPT_CLOSE_AFTER] = {"close-after", "S", "seconds a table may go without any of its players asking before it is\n"
                                             "closed, finished or not: its save stays in DIR/closed/ (default 3600)"},
    [OPT_PARTIAL] = {"partial", NULL, "merge the shards there are when parts are missing (a warning names them;\n"
                                      "the report is of those games only)"},
    [OPT_FATE] = {"fate", NULL,
                  "also print each card's fate: the share of its gainers who have it active at the end,\n"
                  "covered or lost (and to which card), the win rate of keepers and of losers, and the\n"
                  "spread of the gainers' final margin (docs/report.md)"},
    [OPT_WITHOUT] = {"without", "CARD",
                     "play the same seeds with card id CARD taken out of the game; repeatable"},
    [OPT_ABLATION] = {"ablation", NULL,
                      "play the G games once as they are, then once without each card in turn, and\n"
                      "print how each removal changes the game (docs/impact.md)"},
    [OPT_SKILL_LADDER] = {"skill-ladder", NULL,
                          "instead of the report: the skill ladder (one seat at twice the others' budget,\n"
                          "rung by rung) and how much of the outcome seat and deal explain (docs/skill.md)"},
    [OPT_LADDER_FROM] = {"ladder-from", "B", "the skill ladder's first budget, in ISMCTS iterations (default 8)"},
    [OPT_LADDER_RUNGS] = {"ladder-rungs", "K", "the skill ladder's rungs: budgets B, 2B, ..., 2^(K-1)B (default 3)"},
    [OPT_HELP] = {"help", NULL, "print this help"},
};

int cli_search_path(const cli_options *o, const char *kind, const char **out, int max)
{
    int n = 0;
    if (n < max)
        out[n++] = !strcmp(kind, "cards") ? o->cards_root : o->data.variants;
    for (int i = 0; i < o->nenv_mods && n < max; i++)
        out[n++] = o->env_mods[i];
    for (int i = 0; i < o->nmods && n < max; i++)
        out[n++] = o->mods[i];
    return n;
}

/* $FOH_MODS (folders separated by ':') into O's env_mods; a list longer
 * than the options hold is refused, naming the limit. */
static int read_mods_env(const char *command, cli_options *o)
{
    const char *env = getenv("FOH_MODS");
    for (const char *p = env ? env : ""; *p;) {
        size_t len = strcspn(p, ":");
        if (len > 0) {
            if (o->nenv_mods >= CLI_MAX_VARIANTS || len >= sizeof o->env_mods[0]) {
                cli_error(command, "$FOH_MODS: at most %d folders of at most %zu bytes each", CLI_MAX_VARIANTS,
                          sizeof o->env_mods[0] - 1);
                return 0;
            }
            snprintf(o->env_mods[o->nenv_mods++], sizeof o->env_mods[0], "%.*s", (int)len, p);
        }
        p += len + (p[len] == ':');
    }
    return 1;
}

int cli_find(const cli_options *o, const char *kind, const char *name, const char *file, char *out, size_t len)
{
    if (strchr(name, '/')) {
        snprintf(out, len, "%s", name);
        char probe[2200];
        snprintf(probe, sizeof probe, "%s/%s", name, file);
        return access(probe, R_OK) == 0; /* never opened: a named pipe would block */
    }
    const char *dirs[CLI_MAX_SEARCH];
    int n = cli_search_path(o, kind, dirs, CLI_MAX_SEARCH);
    for (int i = 0; i < n; i++) {
        char probe[2200];
        snprintf(probe, sizeof probe, "%s/%s/%s", dirs[i], name, file);
        if (access(probe, R_OK) == 0) { /* never opened: a named pipe would block */
            snprintf(out, len, "%s/%s", dirs[i], name);
            return 1;
        }
    }
    return 0;
}

void cli_defaults(cli_options *o)
{
    memset(o, 0, sizeof *o);
    o->players = 4;
    o->seed = 1;
    o->games = 1000;
    cli_data_find(&o->data);
    o->cards = o->data.cards;
    o->seats = "random";
    o->threads = 1;
    o->long_games = 100000;
    o->ladder_from = 8;
    o->ladder_rungs = 3;
    o->shard = o->shards = 1;
    o->port = 8080;
    o->host = "127.0.0.1";
    o->tables = "foh-tables";
    o->abandon = 60;
    o->max_tables = 200;
    o->close_after = 3600;
    /* Named card sets are looked up beside the base set (cards/). */
    const char *slash = strrchr(o->data.cards, '/');
    snprintf(o->cards_root, sizeof o->cards_root, "%.*s", slash ? (int)(slash - o->data.cards) : 1,
             slash ? o->data.cards : ".");
}

/* Append " --FLAG" (FLAG may be NULL) and " WORD" (may be NULL), quoted for a
 * POSIX shell when it holds more than letters, digits and ",.:/_+=@%-",
 * to OUT (LEN bytes, N used so far); returns the new length. */
static size_t shell_word(char *out, size_t len, size_t n, const char *flag, const char *word)
{
    if (flag && n < len)
        n += (size_t)snprintf(out + n, len - n, " --%s", flag);
    if (!word)
        return n;
    int plain = word[0] != '\0';
    for (const char *p = word; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                strchr(",.:/_+=@%-", *p);
    if (n < len)
        n += (size_t)snprintf(out + n, len - n, plain ? " %s" : " '", word);
    for (const char *p = word; !plain && *p && n < len; p++)
        n += (size_t)snprintf(out + n, len - n, *p == '\'' ? "'\\''" : "%c", *p);
    if (!plain && n < len)
        n += (size_t)snprintf(out + n, len - n, "'");
    return n < len ? n : len;
}

void cli_play_command(const cli_options *o, uint64_t seed, char *out, size_t len)
{
    char num[32];
    size_t n = (size_t)snprintf(out, len, "foh play");
    snprintf(num, sizeof num, "%llu", (unsigned long long)seed);
    n = shell_word(out, len, n, "seed", num);
    snprintf(num, sizeof num, "%d", o->players);
    n = shell_word(out, len, n, "players", num);
    n = shell_word(out, len, n, "seats", o->seats);
    if (strcmp(o->cards, o->data.cards))
        n = shell_word(out, len, n, "cards", o->cards);
    for (int i = 0; i < o->nmore_cards; i++)
        n = shell_word(out, len, n, "cards", o->more_cards[i]);
    for (int i = 0; i < o->nvariants; i++)
        n = shell_word(out, len, n, "variant", o->variant[i]);
    for (int i = 0; i < o->nmods; i++)
        n = shell_word(out, len, n, "mods", o->mods[i]);
    /* The limits given (0: the default). */
    if (o->limits.instructions > 0) {
        snprintf(num, sizeof num, "%lld", (long long)o->limits.instructions);
        n = shell_word(out, len, n, "lua-instructions", num);
    }
    if (o->limits.memory_bytes > 0) {
        snprintf(num, sizeof num, "%zu", o->limits.memory_bytes >> 20);
        n = shell_word(out, len, n, "lua-memory", num);
    }
    if (o->limits.time_ms > 0) {
        snprintf(num, sizeof num, "%lld", (long long)o->limits.time_ms);
        n = shell_word(out, len, n, "action-time", num);
    }
    if (o->limits.lua_only)
        shell_word(out, len, n, "lua-only", NULL);
}

static int number(const char *command, const char *flag, const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long long v = text ? strtoll(text, &end, 10) : 0;
    if (!text || *text == '\0' || *end != '\0' || errno || v < lo || v > hi) {
        cli_error(command, "--%s needs a whole number from %ld to %ld, got '%s'", flag, lo, hi, text ? text : "");
        return 0;
    }
    *out = (long)v;
    return 1;
}

static int accepts(const cli_command *cmd, int id)
{
    for (const cli_option_id *o = cmd->options; *o != OPT_COUNT; o++)
        if ((int)*o == id)
            return 1;
    return id == OPT_HELP;
}

/* Whether every "--name" word of ARGV names one of CMD's options exactly:
 * getopt_long would take an unambiguous prefix ("--save" for
 * "--save-shard"), which hides typos. */
static int exact_names(const cli_command *cmd, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            return 1;
        if (strncmp(a, "--", 2) != 0)
            continue;
        size_t len = strcspn(a + 2, "=");
        int id = -1;
        for (int k = 0; k < OPT_COUNT && id < 0; k++)
            if (accepts(cmd, k) && strlen(OPTIONS[k].name) == len && !strncmp(OPTIONS[k].name, a + 2, len))
                id = k;
        if (id < 0) {
            cli_error(cmd->name, "unknown option '%.*s' (see foh %s --help)", (int)len + 2, a, cmd->name);
            return 0;
        }
        if (OPTIONS[id].arg && !a[2 + len])
            i++; /* its value, whatever it looks like */
    }
    return 1;
}

/* Append V to LIST of *N values, at most CLI_MAX_VARIANTS (WHAT names them
 * in the message: "variants", "--mods folders"). */
static int add_value(const char *command, const char *what, const char *v, const char **list, int *n)
{
    if (*n >= CLI_MAX_VARIANTS) {
        cli_error(command, "at most %d %s", CLI_MAX_VARIANTS, what);
        return 0;
    }
    list[(*n)++] = v;
    return 1;
}

/* Whether V is a site as --origin takes it: http:// or https://, then a
 * host (and a port) with no path; an Origin header never matches
 * anything else, so another shape would allow nobody, silently. */
static int site_shaped(const char *v)
{
    const char *host = !strncmp(v, "http://", 7) ? v + 7 : !strncmp(v, "https://", 8) ? v + 8 : NULL;
    return host && *host && !host[strcspn(host, "/?#@ ")];
}

/* foh serve's options. */
static int set_serve_option(const char *c, const char *flag, cli_option_id id, const char *v, cli_options *o)
{
    long x;
    switch (id) {
    case OPT_HOST: o->host = v; return 1;
    case OPT_TABLES: o->tables = v; return 1;
    case OPT_PORT:
        if (!number(c, flag, v, 0, 65535, &x))
            return 0;
        o->port = (int)x;
        return 1;
    case OPT_ABANDON:
        if (!number(c, flag, v, 1, 86400, &x))
            return 0;
        o->abandon = (int)x;
        return 1;
    case OPT_CLOSE_AFTER:
        if (!number(c, flag, v, 1, 31536000, &x))
            return 0;
        o->close_after = (int)x;
        return 1;
    case OPT_ORIGIN:
        if (!site_shaped(v)) {
            cli_error(c, "--origin needs a site as http://HOST[:PORT] or https://HOST[:PORT], got '%s'", v);
            return 0;
        }
        return add_value(c, "--origin sites", v, o->origins, &o->norigins);
    default:
        if (!number(c, flag, v, 1, 100000, &x))
            return 0;
        o->max_tables = (int)x;
        return 1;
    }
}

/* Store the value V of option ID in O. */
static int set_option(const cli_command *cmd, int id, const char *v, cli_options *o)
{
    const char *c = cmd->name, *flag = OPTIONS[id].name;
    long x;
    switch ((cli_option_id)id) {
    case OPT_PLAYERS:
        if (!number(c, flag, v, 1, FOH_MAX_PLAYERS, &x))
            return 0;
        o->players = (int)x;
        return 1;
    case OPT_SEED: {
        /* Any 64-bit seed, so that a game of `foh sim` can be played again. */
        char *end;
        errno = 0;
        unsigned long long u = strtoull(v, &end, 10);
        if (!*v || *end || errno || v[0] < '0' || v[0] > '9') {
            cli_error(c, "--seed needs a whole number from 0 to 18446744073709551615, got '%s'", v);
            return 0;
        }
        o->seed = (uint64_t)u;
        return 1;
    }
    case OPT_GAMES:
        if (!number(c, flag, v, 1, CLI_MAX_GAMES, &x))
            return 0;
        o->games = x;
        return 1;
    case OPT_LONG_GAMES:
        if (!number(c, flag, v, 0, 100000000L, &x))
            return 0;
        o->long_games = x;
        return 1;
    case OPT_LADDER_FROM:
        if (!number(c, flag, v, 1, 10000000L, &x))
            return 0;
        o->ladder_from = x;
        return 1;
    case OPT_LADDER_RUNGS:
        if (!number(c, flag, v, 1, 16, &x))
            return 0;
        o->ladder_rungs = (int)x;
        return 1;
    case OPT_THREADS:
        if (!number(c, flag, v, 1, 256, &x))
            return 0;
        o->threads = (int)x;
        return 1;
    case OPT_STOP_AFTER:
        if (!number(c, flag, v, 1, CLI_MAX_ACTIONS, &x))
            return 0;
        o->stop_after = x;
        return 1;
    case OPT_LUA_INSTRUCTIONS:
        if (!number(c, flag, v, CLI_MIN_LUA_INSTRUCTIONS, CLI_MAX_LUA_INSTRUCTIONS, &x))
            return 0;
        o->limits.instructions = x;
        return 1;
    case OPT_LUA_MEMORY:
        if (!number(c, flag, v, 1, CLI_MAX_LUA_MEMORY_MIB, &x))
            return 0;
        o->limits.memory_bytes = (size_t)x << 20;
        return 1;
    case OPT_ACTION_TIME:
        if (!number(c, flag, v, 1, CLI_MAX_ACTION_TIME_MS, &x))
            return 0;
        o->limits.time_ms = x;
        return 1;
    case OPT_SHARD: {
        int used = -1;
        if (sscanf(v, "%d/%d%n", &o->shard, &o->shards, &used) != 2 || used != (int)strlen(v) || o->shards < 1 ||
            o->shards > 100000 || o->shard < 1 || o->shard > o->shards) {
            cli_error(c, "--shard needs i/k with 1 <= i <= k <= 100000, got '%s'", v);
            return 0;
        }
        return 1;
    }
    case OPT_ON_ERROR:
        if (strcmp(v, "stop") && strcmp(v, "skip")) {
            cli_error(c, "--on-error takes stop or skip, got '%s'", v);
            return 0;
        }
        o->skip_errors = !strcmp(v, "skip");
        return 1;
    case OPT_VARIANT:
        /* Resolved once every option is read (--mods may come later). */
        return add_value(c, "variants", v, o->variant, &o->nvariants);
    case OPT_A_VARIANT:
    case OPT_B_VARIANT: {
        int side = id == OPT_B_VARIANT;
        return add_value(c, "variants", v, o->side_variant[side], &o->side_nvariants[side]);
    }
    case OPT_CARDS:
        if (o->given >> OPT_CARDS & 1 && o->cards_seen) {
            if (!add_value(c, "more card sets", v, o->more_cards, &o->nmore_cards))
                return 0;
        } else {
            o->cards = v;
        }
        o->cards_seen = 1;
        return 1;
    case OPT_SCENARIOS:
        return add_value(c, "--scenarios paths", v, o->scenarios, &o->nscenarios);
    case OPT_WITHOUT:
        if (o->nwithout >= CLI_MAX_VARIANTS) {
            cli_error(c, "at most %d --without cards", CLI_MAX_VARIANTS);
            return 0;
        }
        for (int i = 0; i < o->nwithout; i++)
            if (!strcmp(o->without[i], v)) {
                cli_error(c, "--without %s is given twice", v);
                return 0;
            }
        o->without[o->nwithout++] = v;
        return 1;
    case OPT_IMPACT: o->impact = 1; return 1;
    case OPT_FATE: o->fate = 1; return 1;
    case OPT_STRENGTH: o->strength = 1; return 1;
    case OPT_OUT: o->out = v; return 1;
    case OPT_HOST: case OPT_TABLES: case OPT_PORT: case OPT_ABANDON: /* foh serve's */
    case OPT_MAX_TABLES: case OPT_ORIGIN: case OPT_CLOSE_AFTER:
        return set_serve_option(c, flag, (cli_option_id)id, v, o);
    case OPT_ABLATION: o->ablation = 1; return 1;
    case OPT_PARTIAL: o->partial = 1; return 1;
    case OPT_MODS:
        return add_value(c, "--mods folders", v, o->mods, &o->nmods);
    case OPT_SEATS: o->seats = v; return 1;
    case OPT_JSON: o->json = v; return 1;
    case OPT_HTML: o->html = v; return 1;
    case OPT_GAMES_CSV: o->games_csv = v; return 1;
    case OPT_TRACE: o->trace = v; return 1;
    case OPT_SAVE: o->save = v; return 1;
    case OPT_LOAD: o->load = v; return 1;
    case OPT_SAVE_SHARD: o->save_shard = v; return 1;
    case OPT_A_CARDS: o->side_cards[0] = v; return 1;
    case OPT_B_CARDS: o->side_cards[1] = v; return 1;
    case OPT_COVERAGE: o->coverage = 1; return 1;
    case OPT_EXPLAIN: o->explain = 1; return 1;
    case OPT_REVEAL: o->reveal = 1; return 1;
    case OPT_LUA_ONLY: o->limits.lua_only = 1; return 1;
    case OPT_WATCH: o->watch = 1; return 1;
    case OPT_QUICK: o->quick = 1; return 1;
    case OPT_SKILL_LADDER: o->skill_ladder = 1; return 1;
    case OPT_HELP: o->help = 1; return 1;
    case OPT_COUNT: break;
    }
    return 0;
}

/* Variant NAME in the first card set's own folder (CARDS/variants/NAME):
 * a card set may ship its variants (cards/civ-draft/variants). */
static int own_variant(const cli_options *o, const char *name, char *out, size_t len)
{
    char set[1100], probe[2400];
    if (strchr(name, '/') || !o->cards || !cli_find(o, "cards", o->cards, "game.yaml", set, sizeof set))
        return 0;
    snprintf(probe, sizeof probe, "%s/variants/%s/variant.yaml", set, name);
    if (access(probe, R_OK) != 0) /* never opened: a named pipe would block */
        return 0;
    snprintf(out, len, "%s/variants/%s", set, name);
    return 1;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, cli_options *o)
{
    cli_defaults(o);
    o->command = cmd->name;
    o->argc = argc;
    o->argv = argv;
    if (!exact_names(cmd, argc, argv) || !read_mods_env(cmd->name, o))
        return CLI_USAGE;
    struct option longs[OPT_COUNT + 1];
    int n = 0;
    for (int k = 0; k < OPT_COUNT; k++)
        if (accepts(cmd, k))
            longs[n++] = (struct option){OPTIONS[k].name, OPTIONS[k].arg ? required_argument : no_argument, NULL, k};
    longs[n] = (struct option){NULL, 0, NULL, 0};
    /* getopt wants the program name first: the command's own word. */
    char **args = argv - 1;
    optind = 0; /* a fresh scan (glibc) */
    opterr = 0;
    for (int id; (id = getopt_long(argc + 1, args, ":h", longs, NULL)) != -1;) {
        if (id == 'h')
            id = OPT_HELP;
        if (id == ':') {
            cli_error(cmd->name, "option '%s' needs a value (see foh %s --help)", args[optind - 1], cmd->name);
            return CLI_USAGE;
        }
        if (id == '?' && optopt > 0 && optopt < 128) { /* a short option, maybe inside "-xh" */
            cli_error(cmd->name, "unknown option '-%c' (see foh %s --help)", optopt, cmd->name);
            return CLI_USAGE;
        }
        if (id == '?' || id < 0 || id >= OPT_COUNT) {
            cli_error(cmd->name, "unknown option '%s' (see foh %s --help)", args[optind - 1], cmd->name);
            return CLI_USAGE;
        }
        o->given |= (uint64_t)1 << id;
        if (!set_option(cmd, id, optarg, o))
            return CLI_USAGE;
    }
    o->args = args + optind;
    o->nargs = argc + 1 - optind;
    if (o->help)
        return CLI_OK;
    for (int i = 0; i < o->nvariants; i++)
        if (!cli_find(o, "variants", o->variant[i], "variant.yaml", o->variant_dir[i], sizeof o->variant_dir[i]) &&
            !own_variant(o, o->variant[i], o->variant_dir[i], sizeof o->variant_dir[i])) {
            cli_error(cmd->name, "unknown variant '%s' ('foh variants' lists them; --mods DIR and $FOH_MODS add "
                                 "folders to look in)", o->variant[i]);
            return CLI_USAGE;
        }
    if (o->nargs < cmd->min_args || (!cmd->args && o->nargs > 0)) {
        if (o->nargs > 0 && !cmd->args)
            cli_error(cmd->name, "unexpected argument '%s' (see foh %s --help)", o->args[0], cmd->name);
        else
            cli_error(cmd->name, "give %s (see foh %s --help)", cmd->args, cmd->name);
        return CLI_USAGE;
    }
    return CLI_OK;
}

void cli_help(const cli_command *cmd, FILE *out)
{
    fprintf(out, "usage: foh %s [options]%s%s\n\n", cmd->name, cmd->args ? " " : "", cmd->args ? cmd->args : "");
    cli_wrap(out, cmd->about, 0, 0);
    fprintf(out, "\noptions:\n");
    for (const cli_option_id *id = cmd->options;; id++) {
        int k = *id == OPT_COUNT ? OPT_HELP : (int)*id;
        char left[40];
        snprintf(left, sizeof left, "--%s%s%s", OPTIONS[k].name, OPTIONS[k].arg ? " " : "",
                 OPTIONS[k].arg ? OPTIONS[k].arg : "");
        fprintf(out, "  %-24s ", left);
        cli_wrap(out, OPTIONS[k].help, 27, 27);
        if (*id == OPT_COUNT)
            break;
    }
    if (cmd->footer) {
        putc('\n', out);
        cli_wrap(out, cmd->footer, 0, 0);
    }
}

int cli_seat_specs(const cli_options *o, char specs[FOH_MAX_PLAYERS][64])
{
    char given[FOH_MAX_PLAYERS][64];
    int n = 0;
    const char *s = o->seats;
    json_t *text = json_string(s); /* saves and shards record the seats as JSON text */
    if (!text) {
        cli_error(NULL, "--seats: not valid UTF-8 (the seats are recorded as JSON text)");
        return 0;
    }
    json_decref(text);
    while (*s) {
        size_t len = strcspn(s, ",");
        if (len == 0 || (s[len] == ',' && !s[len + 1])) {
            cli_error(NULL, "--seats: '%s' has an empty player (a comma too many)", o->seats);
            return 0;
        }
        if (n >= FOH_MAX_PLAYERS || len >= sizeof given[0]) {
            cli_error(NULL, "--seats: '%s' names more than %d players or a spec too long", o->seats, FOH_MAX_PLAYERS);
            return 0;
        }
        snprintf(given[n++], sizeof given[0], "%.*s", (int)len, s);
        s += len + (s[len] == ',');
    }
    if (n != 1 && n != o->players) {
        cli_error(NULL, "--seats names %d players for a %d-player game", n, o->players);
        return 0;
    }
    for (int p = 0; p < o->players; p++)
        memcpy(specs[p], given[n == 1 ? 0 : p], sizeof specs[p]);
    return 1;
}

int cli_seat_is_human(const char *spec) { return !strncmp(spec, "human", 5) && (!spec[5] || spec[5] == ':'); }

int cli_seats(const cli_options *o, uint64_t seed, foh_player **seats)
{
    char specs[FOH_MAX_PLAYERS][64];
    if (!cli_seat_specs(o, specs))
        return 0;
    for (int p = 0; p < o->players; p++) {
        foh_error err;
        if (cli_seat_is_human(specs[p])) {
            cli_error(NULL, "--seats: '%s': human players play in foh play only", specs[p]);
            cli_free_seats(seats, p);
            return 0;
        }
        seats[p] = foh_bot_from_spec(specs[p], cli_seat_seed(seed, p), &err);
        if (!seats[p]) {
            cli_error(NULL, "--seats: %s", err.msg);
            cli_free_seats(seats, p);
            return 0;
        }
    }
    return 1;
}

uint64_t cli_seat_seed(uint64_t seed, int player) { return foh_seed_for(seed, 1000 + (uint64_t)player); }

void cli_free_seats(foh_player **seats, int n)
{
    for (int p = 0; p < n; p++) {
        foh_player_free(seats[p]);
        seats[p] = NULL; /* a caller's cleanup frees nothing twice */
    }
}

void cli_sources_of(const cli_options *o, cli_sources *out)
{
    out->nvariants = o->nvariants;
    for (int i = 0; i < o->nvariants; i++)
        out->variants[i] = o->variant_dir[i];
    out->nsets = 0;
    for (int i = 0; i <= o->nmore_cards; i++) {
        const char *name = i ? o->more_cards[i - 1] : o->cards;
        char *dir = out->set_dir[out->nsets];
        if (!cli_find(o, "cards", name, "game.yaml", dir, sizeof out->set_dir[0]))
            snprintf(dir, sizeof out->set_dir[0], "%s", name); /* the loader names what is missing */
        out->sets[out->nsets++] = dir;
    }
    out->nsearch = cli_search_path(o, "cards", out->search, CLI_MAX_SEARCH);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int cli_each_own_variant(const cli_sources *src, void (*fn)(void *ctx, const char *dir), void *ctx)
{
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/variants", src->sets[0]);
    DIR *d = opendir(dir);
    char **names = NULL;
    int n = 0, cap = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        char probe[1600];
        snprintf(probe, sizeof probe, "%s/%s/variant.yaml", dir, e->d_name);
        if (e->d_name[0] == '.' || access(probe, R_OK) != 0)
            continue;
        if (n == cap) {
            int grown_cap = cap ? 2 * cap : 16;
            char **grown = realloc(names, (size_t)grown_cap * sizeof *grown);
            if (!grown)
                break;
            names = grown;
            cap = grown_cap;
        }
        if ((names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    if (d)
        closedir(d);
    if (n > 1) /* (qsort takes no null array, even empty) */
        qsort(names, (size_t)n, sizeof *names, by_name); /* readdir's order varies from disk to disk */
    for (int i = 0; i < n; i++) {
        char vdir[1500];
        snprintf(vdir, sizeof vdir, "%s/%s", dir, names[i]);
        fn(ctx, vdir);
        free(names[i]);
    }
    free(names);
    return n;
}

typedef struct {
    const cli_sources *src;
    foh_problem_fn report;
    void *ctx;
    int told; /* errors told for the variant being checked */
} own_check;

static void own_told(void *ctx, int warning, const foh_error *problem)
{
    own_check *oc = ctx;
    oc->told += !warning;
    oc->report(oc->ctx, warning, problem);
}

static void own_one(void *ctx, const char *vdir)
{
    own_check *oc = ctx;
    const char *variants[1] = {vdir};
    foh_error err;
    oc->told = 0;
    foh_cardset *cs = foh_cardset_check(oc->src->sets, oc->src->nsets, variants, 1, oc->src->search,
                                        oc->src->nsearch, own_told, oc, &err);
    if (!cs && !oc->told)
        oc->report(oc->ctx, 0, &err);
    foh_cardset_free(cs);
}

int cli_check_own_variants(const cli_sources *src, foh_problem_fn report, void *ctx)
{
    own_check oc = {src, report, ctx, 0};
    return cli_each_own_variant(src, own_one, &oc);
}

const char *cli_option_name(cli_option_id id) { return id >= 0 && id < OPT_COUNT ? OPTIONS[id].name : NULL; }

int cli_ruleset_supported(const foh_cardset *cs, foh_error *err)
{
    const foh_ruleset *rs = foh_cardset_ruleset(cs), *commands = foh_ruleset_at(0);
    if (rs == commands)
        return 1;
    foh_error_set(err, FOH_ERR_USAGE,
                  "this card set is played by the ruleset '%s' (%s); the foh commands play card sets of '%s' only, "
                  "for now (other rulesets play through the library: docs/ruleset.md)",
                  rs->name, rs->title, commands->name);
    return 0;
}

static int load(const cli_options *o, int any, foh_cardset **cs, foh_engine **eng)
{
    foh_error err;
    *eng = NULL;
    cli_sources src;
    cli_sources_of(o, &src);
    *cs = foh_cardset_load_sets(src.sets, src.nsets, src.variants, src.nvariants, src.search, src.nsearch, &err);
    if (*cs && !any && !cli_ruleset_supported(*cs, &err)) {
        foh_cardset_free(*cs);
        *cs = NULL;
    }
    if (!*cs) {
        if (!o->data.found && !strcmp(o->cards, o->data.cards))
            cli_data_missing(NULL, &o->data); /* not "cannot open .../game.yaml": say where foh looked */
        else
            cli_error(NULL, "%s", err.msg);
        return 0;
    }
    *eng = foh_engine_new_limited(*cs, &o->limits, &err);
    if (!*eng) {
        cli_error(NULL, "%s", err.msg);
        foh_cardset_free(*cs);
        *cs = NULL;
        return 0;
    }
    return 1;
}

int cli_load(const cli_options *o, foh_cardset **cs, foh_engine **eng) { return load(o, 0, cs, eng); }

int cli_load_any(const cli_options *o, foh_cardset **cs, foh_engine **eng) { return load(o, 1, cs, eng); }

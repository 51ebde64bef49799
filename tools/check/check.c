/* foh check: every problem of a card set, its variants and scenarios in
 * one run, the way a compiler reports them ("file:line:column: error:
 * ..."), or as JSON for editors and CI (docs/modding.md). Loading is the
 * engine's own (foh_cardset_check): what check accepts, play accepts. */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/probe.h"
#include "check/scenario_run.h"
#include "commands.h"
#include "any/any.h"
#include "common/cli.h"

#define DEFAULT_GAMES 12

static const cli_option_id CHECK_OPTIONS[] = {OPT_CARDS,  OPT_VARIANT, OPT_MODS,  OPT_SCENARIOS,
                                              OPT_GAMES,  OPT_SEED,    OPT_JSON,  OPT_LUA_INSTRUCTIONS,
                                              OPT_LUA_MEMORY, OPT_ACTION_TIME, OPT_COUNT};
static const cli_command CHECK = {
    "check", NULL, 0,
    "Loads the card sets (--cards), the variants (--variant) and their scripts as the game\n"
    "does, and reports every problem it finds, not only the first: unknown or missing\n"
    "fields, values of the wrong kind, unknown icons, card types, ages, timings, cards and\n"
    "events (with the valid names, or the one meant), duplicate card ids (both places), Lua\n"
    "syntax errors, effects that do not fit their timing, counting effects in a cycle,\n"
    "variants changing what does not exist. It warns of card params no effect reads. It\n"
    "then plays a few short games between random bots (--games, default 12, over every\n"
    "player count allowed) and scores them, to catch script errors at run time (End Game\n"
    "effects included), each also with every card\n"
    "effect run by its Lua functions (the engine runs the helpers' effects in C: both must\n"
    "give the same game). It runs every card's effect on purpose (effect probes): in\n"
    "positions built for it (random games stopped early and late for the fewest and most\n"
    "players, and Nations holding 1, 2 and 3 cards of each type), the card is gained by\n"
    "Complete, and placed in a Nation while its owner and an opponent take every kind of\n"
    "turn action, each option of each choice taken in turn; it prints how many effects\n"
    "ran and which never did. It runs the scenarios of\n"
    "--scenarios, warning of each card of the --cards folders (not of the sets they extend)\n"
    "that no passing scenario exercises.\n"
    "\n"
    "Each problem is one line, \"file:line:column: error: card 'id': what (hint)\"; with\n"
    "--json FILE ('-': standard output) the same as JSON: {errors, warnings, problems:\n"
    "[{severity, file, line, column, card, message}]}.\n",
    CHECK_OPTIONS,
    "exit status: 0 no error (warnings allowed), 1 errors found, 2 bad usage\n"};

/* One problem, split into its parts (file NULL: none is known). */
typedef struct {
    int warning;
    char *file, *card, *message;
    int line, column;
    int order; /* found n-th */
} problem;

typedef struct {
    problem *item;
    int n, cap;
    int errors, warnings;
    int out_of_memory;
} problems;

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Where "FILE:LINE[:COLUMN]: " is in MSG: at its start (the engine's
 * messages), or after a "who: " prefix as Lua words its errors ("card 'x':
 * cards.yaml:31: unexpected symbol"). Sets the parts; returns the offset
 * of the position and *END the offset of the text after it, or -1. */
static int find_position(const char *msg, int *line, int *column, size_t *file_len, size_t *end)
{
    for (size_t start = 0; msg[start];) {
        /* A candidate file name runs from START to a ':' followed by digits. */
        for (size_t i = start; msg[i] && msg[i] != ' '; i++) {
            if (msg[i] != ':' || !is_digit(msg[i + 1]) || i == start)
                continue;
            size_t k = i + 1;
            int l = 0, c = 0;
            while (is_digit(msg[k]) && l < 100000000)
                l = l * 10 + (msg[k++] - '0');
            if (msg[k] == ':' && is_digit(msg[k + 1])) {
                k++;
                while (is_digit(msg[k]) && c < 100000000)
                    c = c * 10 + (msg[k++] - '0');
            }
            if (msg[k] != ':' || msg[k + 1] != ' ')
                continue;
            /* Not at the start: only a file name the engine reads. */
            size_t flen = i - start;
            int named = (flen > 5 && !strncmp(msg + i - 5, ".yaml", 5)) || (flen > 4 && !strncmp(msg + i - 4, ".lua", 4));
            if (start > 0 && !named)
                continue;
            *line = l;
            *column = c;
            *file_len = flen;
            *end = k + 2;
            return (int)start;
        }
        /* The next word. */
        const char *sp = strchr(msg + start, ' ');
        if (!sp)
            break;
        start = (size_t)(sp - msg) + 1;
    }
    return -1;
}

/* Add MSG as a problem (the same one twice is kept once: a card's error
 * met again in another game). */
static void add(problems *ps, int warning, const char *msg)
{
    problem p = {.warning = warning};
    size_t flen = 0, end = 0;
    int at = find_position(msg, &p.line, &p.column, &flen, &end);
    if (at >= 0) {
        p.file = dup_n(msg + at, flen);
        size_t a = (size_t)at, rest = strlen(msg + end);
        p.message = malloc(a + rest + 1);
        if (p.message) {
            memcpy(p.message, msg, a);
            memcpy(p.message + a, msg + end, rest + 1);
        }
    } else {
        p.message = dup_n(msg, strlen(msg));
    }
    const char *card = strstr(p.message ? p.message : "", "card '");
    if (card) {
        const char *close = strchr(card + 6, '\'');
        if (close)
            p.card = dup_n(card + 6, (size_t)(close - card - 6));
    }
    for (int i = 0; p.message && i < ps->n; i++) {
        const problem *q = &ps->item[i];
        if (q->warning == warning && q->line == p.line && !strcmp(q->message, p.message) &&
            !strcmp(q->file ? q->file : "", p.file ? p.file : "")) {
            free(p.file), free(p.card), free(p.message);
            return;
        }
    }
    if (ps->n == ps->cap) {
        int cap = ps->cap ? ps->cap * 2 : 32;
        problem *grown = realloc(ps->item, (size_t)cap * sizeof *grown);
        if (grown) {
            ps->item = grown;
            ps->cap = cap;
        }
    }
    if (!p.message || ps->n == ps->cap) {
        ps->out_of_memory = 1;
        free(p.file), free(p.card), free(p.message);
    } else {
        p.order = ps->n;
        ps->item[ps->n++] = p;
    }
    ps->errors += !warning;
    ps->warnings += warning;
}

static void on_load_problem(void *ctx, int warning, const foh_error *e) { add(ctx, warning, e->msg); }

static void on_scenario_problem(void *ctx, const char *msg) { add(ctx, 0, msg); }
/* A probe's error, unless the random games told it already (the same
 * card or hook, and cause: CORE). */
static void on_probe_problem(void *ctx, const char *msg, const char *core)
{
    problems *ps = ctx;
    for (int i = 0; core[0] && i < ps->n; i++)
        if (ps->item[i].message && strstr(ps->item[i].message, core))
            return;
    add(ps, 0, msg);
}

static void problems_free(problems *ps)
{
    for (int i = 0; i < ps->n; i++)
        free(ps->item[i].file), free(ps->item[i].card), free(ps->item[i].message);
    free(ps->item);
}

/* An error met in the random-bot games: the engine's message without
 * the game's part (KEY), as told, and in how many more games it came. */
typedef struct {
    char key[sizeof(((foh_error *)0)->msg)];
    char msg[sizeof(((foh_error *)0)->msg) + 800]; /* with the command that replays the game */
    long more;
} seen_error;

/* Room for one more in *SEEN (*CAP entries): 0 if out of memory. */
static int grow_seen(seen_error **seen, int *cap)
{
    int n = *cap ? 2 * *cap : 8;
    seen_error *grown = realloc(*seen, (size_t)n * sizeof *grown);
    if (!grown)
        return 0;
    *seen = grown;
    *cap = n;
    return 1;
}

/* The part of a game's error that does not depend on the game: from the
 * card named on ("card 'x' (on_gain): ..."), or the whole message. */
static const char *error_core(const char *msg)
{
    const char *card = strstr(msg, "card '");
    return card ? card : msg;
}

/* A game's log, kept whole (for comparing two runs of one game). */
typedef struct {
    char *text;
    size_t len, cap;
    int lost; /* out of memory: not comparable */
} game_log;

static void log_line(void *ud, const char *line)
{
    game_log *l = ud;
    size_t n = strlen(line) + 1;
    if (l->lost)
        return;
    if (l->len + n > l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1 << 16;
        while (cap < l->len + n)
            cap *= 2;
        char *grown = realloc(l->text, cap);
        if (!grown) {
            l->lost = 1;
            return;
        }
        l->text = grown;
        l->cap = cap;
    }
    memcpy(l->text + l->len, line, n - 1);
    l->text[l->len + n - 1] = '\n';
    l->len += n;
}

/* One random-bot game on ENG with OPT, its log into LOG: FOH_OK or the
 * game's error in ERR. */
static foh_status play_one(foh_engine *eng, const foh_options *opt, game_log *log, foh_error *err)
{
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    foh_game *game = foh_game_new(eng, opt, err);
    int ok = game != NULL;
    for (int p = 0; ok && p < opt->players; p++)
        ok = (seats[p] = foh_bot_random_new(cli_seat_seed(opt->seed, p))) != NULL;
    foh_status s = game ? FOH_OK : err->code;
    if (game && !ok)
        s = foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
    if (ok) {
        log->len = 0;
        foh_game_set_log(game, log_line, log);
        s = foh_match_play(game, seats, NULL, 0, NULL, err);
    }
    /* Final scoring runs the End Game effects: their errors count too, and
     * the scores are part of what two runs of the game must agree on. */
    foh_score sc[FOH_MAX_PLAYERS];
    foh_tiebreak tb;
    if (ok && s == FOH_OK && (s = foh_game_score(game, sc, &tb, err)) == FOH_OK) {
        char line[40 * FOH_MAX_PLAYERS] = "final scores:";
        for (int p = 0; p < opt->players; p++)
            snprintf(line + strlen(line), sizeof line - strlen(line), " P%d %d VP, %d cards, %d tokens", p + 1,
                     sc[p].total, sc[p].cards, sc[p].tokens);
        log_line(log, line);
    }
    for (int p = 0; p < opt->players; p++)
        foh_player_free(seats[p]);
    foh_game_free(game);
    return s;
}

/* The card of CS whose name is the longest found in LINE (LEN bytes), or -1. */
static int card_in_line(const foh_cardset *cs, const char *line, size_t len)
{
    int best = -1;
    size_t best_len = 0;
    for (int c = 0; c < foh_cardset_card_count(cs); c++) {
        foh_card_info info;
        if (foh_cardset_card(cs, c, &info) != FOH_OK)
            continue;
        size_t n = strlen(info.name);
        for (size_t i = 0; n > best_len && n <= len && i + n <= len; i++)
            if (!memcmp(line + i, info.name, n)) {
                best = c;
                best_len = n;
                break;
            }
    }
    return best;
}

/* The same game played again with every card effect run by its Lua
 * functions (--lua-only): the effects the engine runs in C from their
 * `native` descriptions (scripts/API.md) must give the very same game. A
 * card whose `native` does not describe what its functions do shows here,
 * at the first log line where the two games part; the card named by the
 * line before (most often the card just gained, whose effect ran) is
 * blamed, and *CARD set to it (-1: none named). Returns whether they
 * parted, with the problem in MSG (MSGLEN bytes). */
static int compare_lua_only(const foh_cardset *cs, foh_engine *lua, const foh_options *opt, long g,
                            const game_log *native, game_log *other, int *card, char *msg, size_t msglen)
{
    foh_error err;
    *card = -1;
    foh_status s = play_one(lua, opt, other, &err);
    if (s != FOH_OK) {
        snprintf(msg, msglen, "random-bot game %ld (%d players, seed %llu): the game plays with the effects "
                              "the engine runs in C ('native' descriptions) but not with their Lua functions: %s",
                 g + 1, opt->players, (unsigned long long)opt->seed, err.msg);
        return 1;
    }
    if (native->lost || other->lost || (native->len == other->len && !memcmp(native->text, other->text, native->len)))
        return 0;
    size_t at = 0, line_start = 0, prev_start = 0;
    int line = 1;
    while (at < native->len && at < other->len && native->text[at] == other->text[at]) {
        if (native->text[at] == '\n') {
            line++;
            prev_start = line_start;
            line_start = at + 1;
        }
        at++;
    }
    const char *a = native->text + line_start, *b = other->text + line_start, *prev = native->text + prev_start;
    const char *a_end = memchr(a, '\n', native->len - line_start), *b_end = memchr(b, '\n', other->len - line_start);
    int alen = a_end ? (int)(a_end - a) : (int)(native->len - line_start);
    int blen = b_end ? (int)(b_end - b) : (int)(other->len - line_start);
    int plen = line > 1 ? (int)(line_start - 1 - prev_start) : 0;
    *card = plen > 0 ? card_in_line(cs, prev, (size_t)plen) : -1;
    foh_card_info info = {0};
    char where[600] = "";
    if (*card >= 0 && foh_cardset_card(cs, *card, &info) == FOH_OK)
        snprintf(where, sizeof where, "%s:%d: card '%s': ", info.file, info.line, info.id);
    snprintf(msg, msglen,
             "%sthe effects the engine runs in C ('native' descriptions) and their Lua functions give different "
             "games (random-bot game %ld, %d players, seed %llu): after '%.*s', C logs '%.*s' and Lua '%.*s' (a "
             "'native' that does not describe what the card's functions do)",
             where, g + 1, opt->players, (unsigned long long)opt->seed, plen > 200 ? 200 : plen, prev,
             alen > 200 ? 200 : alen, a, blen > 200 ? 200 : blen, b);
    return 1;
}

/* Play GAMES short games between random bots, cycling through the player
 * counts the card set allows. A script error is a problem naming the first
 * game it stopped (an error met in several games is told once, with how
 * many). Returns the games that ended without one. */
static int play_games(const cli_options *o, const foh_cardset *cs, long games, problems *ps)
{
    foh_error err;
    foh_script_limits lua_only = o->limits;
    lua_only.lua_only = 1;
    foh_engine *eng = foh_engine_new_limited(cs, &o->limits, &err), *lua = NULL;
    if (eng && !(lua = foh_engine_new_limited(cs, &lua_only, &err))) {
        foh_engine_free(eng);
        eng = NULL;
    }
    if (!eng) {
        add(ps, 0, err.msg);
        return 0;
    }
    game_log log = {0}, lua_log = {0};
    int parted = 0; /* games told to part between C and Lua (the first few are enough) */
    unsigned char blamed[FOH_MAX_CARDS] = {0}; /* a card is told once */
    int counts[FOH_MAX_PLAYERS], ncounts = 0, played = 0, nseen = 0;
    for (int p = 1; p <= FOH_MAX_PLAYERS; p++)
        if (foh_cardset_allows_players(cs, p, NULL))
            counts[ncounts++] = p;
    /* The distinct errors met, grown as they come (most runs meet none). */
    seen_error *seen = NULL;
    int cap = 0;
    long untold = 0; /* errors not kept: out of memory */
    for (long g = 0; g < games && ncounts > 0; g++) {
        foh_options opt = {.players = counts[g % ncounts], .seed = o->seed + (uint64_t)g};
        int ok = play_one(eng, &opt, &log, &err) == FOH_OK;
        played += ok;
        int card;
        char parts[1600];
        if (ok && parted < 3 && compare_lua_only(cs, lua, &opt, g, &log, &lua_log, &card, parts, sizeof parts)) {
            if (card < 0 || !blamed[card]) {
                add(ps, 0, parts);
                parted++;
            }
            if (card >= 0)
                blamed[card] = 1;
        }
        int k = 0;
        while (!ok && k < nseen && strcmp(seen[k].key, error_core(err.msg)))
            k++;
        if (!ok && k < nseen) {
            seen[k].more++;
        } else if (!ok && (nseen < cap || grow_seen(&seen, &cap))) {
            size_t flen, end;
            int line, column, at = find_position(err.msg, &line, &column, &flen, &end);
            /* The position first, where the message has one: editors jump to it. */
            if (at >= 0)
                snprintf(seen[nseen].msg, sizeof seen[0].msg, "%.*s: random-bot game %ld (%d players, seed %llu): %.*s%s",
                         (int)(end - 2 - (size_t)at), err.msg + at, g + 1, opt.players,
                         (unsigned long long)opt.seed, at, err.msg, err.msg + end);
            else
                snprintf(seen[nseen].msg, sizeof seen[0].msg, "random-bot game %ld (%d players, seed %llu): %s", g + 1,
                         opt.players, (unsigned long long)opt.seed, err.msg);
            /* The command that plays that game alone (issue 30). */
            cli_options one = *o;
            char cmd[700];
            one.players = opt.players;
            one.seats = "random";
            cli_play_command(&one, opt.seed, cmd, sizeof cmd);
            size_t used = strlen(seen[nseen].msg);
            snprintf(seen[nseen].msg + used, sizeof seen[0].msg - used, " (replay: %s)", cmd);
            snprintf(seen[nseen].key, sizeof seen[0].key, "%s", error_core(err.msg));
            seen[nseen++].more = 0;
        } else if (!ok) {
            untold++;
        }
    }
    for (int k = 0; k < nseen; k++) {
        char msg[sizeof seen[0].msg + 60];
        if (seen[k].more)
            snprintf(msg, sizeof msg, "%s (and in %ld more game%s)", seen[k].msg, seen[k].more,
                     seen[k].more == 1 ? "" : "s");
        else
            snprintf(msg, sizeof msg, "%s", seen[k].msg);
        add(ps, 0, msg);
    }
    if (untold) {
        char msg[120];
        snprintf(msg, sizeof msg, "out of memory: the errors of %ld game%s are not told", untold, untold == 1 ? "" : "s");
        add(ps, 0, msg);
    }
    free(seen);
    free(log.text);
    free(lua_log.text);
    foh_engine_free(lua);
    foh_engine_free(eng);
    return played;
}

/* Whether FILE is in one of the NSETS folders SETS. */
static int in_sets(const char *file, const char *const *sets, int nsets)
{
    for (int i = 0; i < nsets; i++) {
        size_t n = strlen(sets[i]);
        while (n > 1 && sets[i][n - 1] == '/')
            n--;
        if (!strncmp(file, sets[i], n) && file[n] == '/')
            return 1;
    }
    return 0;
}

/* Run the scenarios of --scenarios; a card of CS from the folders of
 * --cards (not those they extend: a mod's scenarios need not cover the
 * base set) that no passing scenario exercised is a warning at its entry.
 * Returns the scenarios run. */
static int run_scenarios(const cli_options *o, const foh_cardset *cs, const cli_sources *src, problems *ps)
{
    const char *cards = src->sets[0];
    scenario_options opt = {.cards = cards, .nvariants = o->nvariants, .cli = o,
                            .problem = on_scenario_problem, .problem_ctx = ps};
    for (int i = 0; i < o->nvariants; i++)
        opt.variant[i] = o->variant_dir[i];
    scenario_stats stats = {0};
    for (int i = 0; i < o->nscenarios; i++)
        if (!scenario_run_path("check", o->scenarios[i], &opt, &stats))
            add(ps, 0, "a --scenarios path cannot be read (see above)");
    for (int c = 0; cs && c < foh_cardset_card_count(cs); c++) {
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        int covered = !in_sets(ci.file, src->sets, src->nsets);
        for (int k = 0; k < stats.ncards && !covered; k++)
            covered = stats.cards[k].covered && !strcmp(stats.cards[k].id, ci.id);
        if (!covered) {
            char msg[2400];
            snprintf(msg, sizeof msg, "%s:%d: card '%s': no passing scenario exercises its effect", ci.file, ci.line,
                     ci.id);
            add(ps, 1, msg);
        }
    }
    int run = stats.scenarios + stats.malformed;
    scenario_stats_free(&stats);
    return run;
}

/* Problems by file and line (those without a place last), in the order
 * found where equal: a file's problems read top to bottom. */
static int by_place(const void *a, const void *b)
{
    const problem *p = a, *q = b;
    if (!p->file != !q->file)
        return p->file ? -1 : 1;
    int c = p->file ? strcmp(p->file, q->file) : 0;
    if (c)
        return c;
    if (p->line != q->line)
        return p->line < q->line ? -1 : 1;
    if (p->column != q->column)
        return p->column < q->column ? -1 : 1;
    return p->order < q->order ? -1 : p->order > q->order;
}

static void print_text(const problems *ps)
{
    for (int i = 0; i < ps->n; i++) {
        const problem *p = &ps->item[i];
        char line[4200];
        if (p->file && p->column > 0)
            snprintf(line, sizeof line, "%s:%d:%d: %s: %s", p->file, p->line, p->column,
                     p->warning ? "warning" : "error", p->message);
        else if (p->file)
            snprintf(line, sizeof line, "%s:%d: %s: %s", p->file, p->line, p->warning ? "warning" : "error",
                     p->message);
        else
            snprintf(line, sizeof line, "%s: %s", p->warning ? "warning" : "error", p->message);
        cli_line(stdout, line);
    }
}

/* TEXT as a JSON string: as it is when valid UTF-8, else escaped (a path
 * with other bytes would otherwise be dropped from the report). */
static json_t *text_json(const char *text)
{
    json_t *j = json_string(text);
    if (!j) {
        char safe[4096];
        j = json_string(cli_safe(text, safe, sizeof safe));
    }
    return j;
}

static int write_json(const char *path, const problems *ps, int cards, int games, int scenarios,
                      const probe_stats *probes)
{
    json_t *doc = json_object(), *list = json_array();
    if (probes) {
        json_t *pr = json_object();
        json_object_set_new(pr, "effects", json_integer(probes->effects));
        json_object_set_new(pr, "ran", json_integer(probes->ran));
        json_object_set_new(pr, "positions", json_integer(probes->positions));
        json_object_set_new(pr, "actions", json_integer(probes->actions));
        json_object_set_new(pr, "options", json_integer(probes->options));
        json_object_set_new(pr, "missed", text_json(probes->missed ? probes->missed : ""));
        json_object_set_new(doc, "probes", pr);
    }
    json_object_set_new(doc, "errors", json_integer(ps->errors));
    json_object_set_new(doc, "warnings", json_integer(ps->warnings));
    json_object_set_new(doc, "cards", json_integer(cards));
    json_object_set_new(doc, "games", json_integer(games));
    json_object_set_new(doc, "scenarios", json_integer(scenarios));
    for (int i = 0; i < ps->n; i++) {
        const problem *p = &ps->item[i];
        json_t *j = json_object();
        json_object_set_new(j, "severity", json_string(p->warning ? "warning" : "error"));
        json_object_set_new(j, "file", p->file ? text_json(p->file) : json_null());
        json_object_set_new(j, "line", p->file ? json_integer(p->line) : json_null());
        json_object_set_new(j, "column", p->file && p->column ? json_integer(p->column) : json_null());
        json_object_set_new(j, "card", p->card ? text_json(p->card) : json_null());
        json_object_set_new(j, "message", text_json(p->message));
        json_array_append_new(list, j);
    }
    json_object_set_new(doc, "problems", list);
    int ok = !strcmp(path, "-") ? json_dumpf(doc, stdout, JSON_INDENT(2)) == 0 && printf("\n") > 0
                                : cli_write_json(doc, path, JSON_INDENT(2));
    json_decref(doc);
    if (!ok)
        cli_error("check", "%s: cannot write the JSON report", path);
    return ok;
}

int cmd_check(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&CHECK, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&CHECK, stdout);
        return st;
    }
    if (any_ruleset(&o)) /* another ruleset's card set: through the interface alone */
        return any_check(&o);
    long games = o.given >> OPT_GAMES & 1 ? o.games : DEFAULT_GAMES;
    if (o.json && strcmp(o.json, "-") && !cli_can_write(o.json)) {
        cli_error("check", "%s: cannot write there", o.json);
        return CLI_USAGE;
    }
    cli_sources src;
    cli_sources_of(&o, &src);
    problems ps = {0};
    foh_error err;
    foh_cardset *cs = foh_cardset_check(src.sets, src.nsets, src.variants, src.nvariants, src.search, src.nsearch,
                                        on_load_problem, &ps, &err);
    if (cs && !cli_ruleset_supported(cs, &err)) {
        foh_cardset_free(cs);
        cs = NULL;
    }
    if (!cs && ps.errors == 0)
        add(&ps, 0, err.msg);
    /* The card set's own variants (variants/NAME), each loaded over it,
     * when no --variant is given: a variant naming what does not exist is
     * an error now, not when a designer first uses it. */
    int own = o.nvariants ? 0 : cli_check_own_variants(&src, on_load_problem, &ps);
    int played = cs ? play_games(&o, cs, games, &ps) : 0;
    probe_stats probes = {0};
    int probed = cs && probe_cards(cs, &o.limits, o.seed, on_probe_problem, &ps, &probes);
    int scenarios = o.nscenarios ? run_scenarios(&o, cs, &src, &ps) : 0;
    if (ps.out_of_memory)
        add(&ps, 0, "out of memory: some problems were not kept");
    if (ps.n > 0)
        qsort(ps.item, (size_t)ps.n, sizeof *ps.item, by_place);
    int ok = 1;
    if (o.json)
        ok = write_json(o.json, &ps, cs ? foh_cardset_card_count(cs) : 0, played, scenarios, probed ? &probes : NULL);
    if (!o.json || strcmp(o.json, "-")) {
        print_text(&ps);
        if (own)
            printf("the card set's own variants (variants/): %d checked\n", own);
        char what[200];
        if (cs)
            snprintf(what, sizeof what, "%d cards, %d variant%s; %d of %ld random-bot game%s played to the end",
                     foh_cardset_card_count(cs), o.nvariants, o.nvariants == 1 ? "" : "s", played, games,
                     games == 1 ? "" : "s");
        else
            snprintf(what, sizeof what, "the card set does not load: no game played");
        printf("foh check: %d error%s, %d warning%s (%s; %d scenario%s run)\n", ps.errors, ps.errors == 1 ? "" : "s",
               ps.warnings, ps.warnings == 1 ? "" : "s", what, scenarios, scenarios == 1 ? "" : "s");
        if (probed) {
            printf("effect probes: %d of %d card effects ran in %d built positions (%ld actions, %ld choice options "
                   "taken)\n", probes.ran, probes.effects, probes.positions, probes.actions, probes.options);
            if (probes.missed) {
                char line[4096];
                snprintf(line, sizeof line, "effects the probes did not run (their conditions never held, or they failed): %s",
                         probes.missed);
                cli_line(stdout, line);
            }
        }
    }
    free(probes.missed);
    int errors = ps.errors;
    problems_free(&ps);
    foh_cardset_free(cs);
    return !ok ? CLI_USAGE : errors ? CLI_DATA : CLI_OK;
}

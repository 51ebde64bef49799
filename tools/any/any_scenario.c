/* any_scenario: foh scenario for a card set of any ruleset, through the
 * ruleset interface alone. A scenario (docs/scenarios.md, "Other
 * rulesets") names its players and seed, may put the game in a position
 * of the ruleset's own terms (`setup:`, the ruleset's scenario_setup),
 * applies its actions by the names the log gives them, and checks what
 * must hold: whether the game is over, its winners, log lines present or
 * absent, what a seat sees, score lines, whose decision it is, and actions
 * legal or not. --coverage counts the cards each passing scenario
 * exercised (the ruleset's `exercised`). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "any/any.h"
#include "common/cli.h"
#include "foh/ruleset.h"
#include "foh/yaml.h"

#define ANY_MAX_LEGAL 4096 /* legal actions listed when matching a scenario's action by name */

static int scenario_fail(const char *file, const foh_yaml_node *at, const char *name, const char *fmt, const char *what)
{
    printf("FAIL %s (", name);
    cli_puts(stdout, file);
    printf(":%d): ", at ? at->line : 1);
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, what);
    cli_line(stdout, msg);
    return 0;
}

static int scalar_int(const foh_yaml_node *n, long lo, long hi, long *out)
{
    char *end = NULL;
    if (!n || n->kind != FOH_YAML_SCALAR)
        return 0;
    long v = strtol(n->text, &end, 10);
    if (end == n->text || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* A seat key: "1" or "P1", 1..PLAYERS. */
static int seat_of(const char *key, long players, long *seat)
{
    foh_yaml_node k = {.kind = FOH_YAML_SCALAR, .text = (char *)(key[0] == 'P' ? key + 1 : key)};
    return scalar_int(&k, 1, players, seat);
}

typedef struct {
    char *text;
    size_t len, cap;
} log_text;

static void keep_line(void *ud, const char *line)
{
    log_text *t = ud;
    size_t n = strlen(line) + 1;
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->cap ? t->cap * 2 : 4096) + n;
        char *grown = realloc(t->text, cap);
        if (!grown)
            return;
        t->text = grown;
        t->cap = cap;
    }
    memcpy(t->text + t->len, line, n - 1);
    t->len += n - 1;
    t->text[t->len++] = '\n';
    t->text[t->len] = '\0';
}

/* The legal action of G named NAME into *A; 0 if none. */
static int find_action(foh_game *g, foh_action *legal, const char *name, foh_action *a)
{
    foh_error err;
    int n = foh_game_legal_actions(g, legal, ANY_MAX_LEGAL, &err);
    char what[256];
    for (int k = 0; k < n && k < ANY_MAX_LEGAL; k++) {
        foh_game_describe_action(g, &legal[k], what, sizeof what);
        if (!strcmp(what, name)) {
            *a = legal[k];
            return 1;
        }
    }
    return 0;
}

typedef struct {
    const char *file, *title;
    foh_game *g;
    long players;
    log_text log;
    foh_action *legal;
} run;

/* Each text of V (one, or a list) must (WANT 1) or must not appear in the log. */
static int check_log(run *r, const foh_yaml_node *v, int want)
{
    size_t n = v->kind == FOH_YAML_SEQ ? v->n : 1;
    for (size_t i = 0; i < n; i++) {
        const foh_yaml_node *t = v->kind == FOH_YAML_SEQ ? v->items[i] : v;
        if (t->kind != FOH_YAML_SCALAR)
            return scenario_fail(r->file, t, r->title, "%s", "a log line is a text");
        int found = r->log.text && strstr(r->log.text, t->text);
        if (found != want)
            return scenario_fail(r->file, t, r->title, want ? "the log has no line with '%s'" : "the log has '%s'",
                                 t->text);
    }
    return 1;
}

/* Each action name of list V must (WANT 1) or must not be legal now. */
static int check_legal(run *r, const foh_yaml_node *v, int want)
{
    size_t n = v->kind == FOH_YAML_SEQ ? v->n : 1;
    for (size_t i = 0; i < n; i++) {
        const foh_yaml_node *t = v->kind == FOH_YAML_SEQ ? v->items[i] : v;
        foh_action a;
        if (t->kind != FOH_YAML_SCALAR)
            return scenario_fail(r->file, t, r->title, "%s", "an action is named by a text");
        if (find_action(r->g, r->legal, t->text, &a) != want)
            return scenario_fail(r->file, t, r->title, want ? "'%s' is not legal here" : "'%s' is legal here", t->text);
    }
    return 1;
}

static int check_observe(run *r, const foh_yaml_node *observe)
{
    for (size_t k = 0; observe->kind == FOH_YAML_MAP && k < observe->n; k++) {
        long seat;
        char seen[16384];
        const foh_yaml_node *v = observe->items[k];
        if (!seat_of(observe->keys[k], r->players, &seat))
            return scenario_fail(r->file, v, r->title, "observe: '%s' must be a player number", observe->keys[k]);
        foh_game_observe(r->g, (int)seat - 1, seen, sizeof seen);
        size_t n = v->kind == FOH_YAML_SEQ ? v->n : 1;
        for (size_t i = 0; i < n; i++) {
            const foh_yaml_node *t = v->kind == FOH_YAML_SEQ ? v->items[i] : v;
            if (t->kind != FOH_YAML_SCALAR || !strstr(seen, t->text))
                return scenario_fail(r->file, t, r->title, "what the player sees has no '%s'",
                                     t->kind == FOH_YAML_SCALAR ? t->text : "(not text)");
        }
    }
    return 1;
}

/* scores: {1: {Victory Tokens: 13, Culture: 2}}: score lines by label. */
static int check_scores(run *r, const foh_yaml_node *scores)
{
    for (size_t k = 0; scores->kind == FOH_YAML_MAP && k < scores->n; k++) {
        long seat;
        const foh_yaml_node *want = scores->items[k];
        foh_score_line lines[32];
        foh_error err;
        if (!seat_of(scores->keys[k], r->players, &seat) || want->kind != FOH_YAML_MAP)
            return scenario_fail(r->file, want, r->title, "scores: '%s' must be a player number with a map of lines",
                                 scores->keys[k]);
        int n = foh_game_score_lines(r->g, (int)seat - 1, lines, 32, &err);
        for (size_t i = 0; i < want->n; i++) {
            int line = -1;
            for (int j = 0; j < n && line < 0; j++)
                line = strcmp(lines[j].label, want->keys[i]) ? -1 : j;
            char *end = NULL;
            double v = want->items[i]->kind == FOH_YAML_SCALAR ? strtod(want->items[i]->text, &end) : 0;
            char msg[256];
            if (line < 0) {
                size_t at = (size_t)snprintf(msg, sizeof msg, "scores: no line '%s' (lines:", want->keys[i]);
                for (int j = 0; j < n && at < sizeof msg; j++)
                    at += (size_t)snprintf(msg + at, sizeof msg - at, "%s %s", j ? "," : "", lines[j].label);
                if (at < sizeof msg)
                    snprintf(msg + at, sizeof msg - at, ")");
                return scenario_fail(r->file, want->items[i], r->title, "%s", msg);
            }
            snprintf(msg, sizeof msg, "P%ld's %s is %g, not %s", seat, want->keys[i], lines[line].value,
                     want->items[i]->kind == FOH_YAML_SCALAR ? want->items[i]->text : "a number");
            if (!end || *end || v != lines[line].value)
                return scenario_fail(r->file, want->items[i], r->title, "%s", msg);
        }
    }
    return 1;
}

static int check_expect(run *r, const foh_yaml_node *expect)
{
    const foh_yaml_node *v;
    foh_error err;
    int ok = 1;
    if ((v = foh_yaml_get(expect, "over")) && (v->kind != FOH_YAML_SCALAR || (!strcmp(v->text, "true")) != foh_game_is_over(r->g)))
        ok = scenario_fail(r->file, v, r->title, "the game is %s", foh_game_is_over(r->g) ? "over" : "not over");
    if (ok && (v = foh_yaml_get(expect, "to_act"))) {
        long seat;
        char got[32];
        snprintf(got, sizeof got, "%d", foh_game_to_act(r->g) + 1);
        if (!scalar_int(v, 1, r->players, &seat) || seat != foh_game_to_act(r->g) + 1)
            ok = scenario_fail(r->file, v, r->title, "P%s is to act", got);
    }
    if (ok && (v = foh_yaml_get(expect, "winners"))) {
        double res[FOH_MAX_PLAYERS];
        char got[64] = "", want[64] = "";
        if (foh_game_results(r->g, res, &err) != FOH_OK)
            return scenario_fail(r->file, v, r->title, "%s", err.msg);
        for (int p = 0; p < r->players; p++)
            if (res[p] > 0)
                snprintf(got + strlen(got), sizeof got - strlen(got), "%s%d", got[0] ? ", " : "", p + 1);
        for (size_t k = 0; v->kind == FOH_YAML_SEQ && k < v->n; k++)
            if (v->items[k]->kind == FOH_YAML_SCALAR)
                snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", want[0] ? ", " : "", v->items[k]->text);
        if (strcmp(got, want))
            ok = scenario_fail(r->file, v, r->title, "the winners are P%s", got);
    }
    if (ok && (v = foh_yaml_get(expect, "log")))
        ok = check_log(r, v, 1);
    if (ok && (v = foh_yaml_get(expect, "no_log")))
        ok = check_log(r, v, 0);
    if (ok && (v = foh_yaml_get(expect, "legal")))
        ok = check_legal(r, v, 1);
    if (ok && (v = foh_yaml_get(expect, "illegal")))
        ok = check_legal(r, v, 0);
    if (ok && (v = foh_yaml_get(expect, "observe")))
        ok = check_observe(r, v);
    if (ok && (v = foh_yaml_get(expect, "scores")))
        ok = check_scores(r, v);
    return ok;
}

/* Set up and play scenario SC; 1 if it passes. */
static int play_scenario(run *r, foh_engine *eng, const foh_yaml_node *sc)
{
    static const char *const keys[] = {"name", "draft", "players", "seed", "setup", "actions", "expect", NULL};
    static const char *const expect_keys[] = {"over", "winners", "log", "no_log", "observe", "scores", "to_act",
                                              "legal", "illegal", NULL};
    const foh_yaml_node *actions = foh_yaml_get(sc, "actions"), *expect = foh_yaml_get(sc, "expect"),
                        *setup = foh_yaml_get(sc, "setup");
    long seed = 0;
    int bad = foh_yaml_unknown_key(sc, keys);
    if (bad >= 0)
        return scenario_fail(r->file, sc, r->title, "unknown field '%s'", sc->keys[bad]);
    if (!scalar_int(foh_yaml_get(sc, "players"), 2, FOH_MAX_PLAYERS, &r->players) ||
        !scalar_int(foh_yaml_get(sc, "seed"), 0, 0x7fffffffffffffffL, &seed))
        return scenario_fail(r->file, sc, r->title, "%s", "'players' (2 or more) and 'seed' (a number) are required");
    if (actions && actions->kind != FOH_YAML_SEQ)
        return scenario_fail(r->file, actions, r->title, "%s", "'actions' lists actions by name");
    if (!expect || expect->kind != FOH_YAML_MAP || (bad = foh_yaml_unknown_key(expect, expect_keys)) >= 0)
        return scenario_fail(r->file, expect ? expect : sc, r->title,
                             "'expect' must be a map of over, winners, log, no_log, observe, scores, to_act, legal, "
                             "illegal%s", "");
    foh_options opt = {.players = (int)r->players, .seed = (uint64_t)seed};
    foh_error err;
    if (!(r->g = foh_game_new(eng, &opt, &err)))
        return scenario_fail(r->file, sc, r->title, "%s", err.msg);
    foh_game_set_log(r->g, keep_line, &r->log);
    const foh_ruleset *rs = foh_game_ruleset(r->g);
    if (setup && !rs->scenario_setup)
        return scenario_fail(r->file, setup, r->title, "%s", "this ruleset has no scenario set-up ('setup')");
    if (setup && rs->scenario_setup(r->g, setup, &err) != FOH_OK)
        return scenario_fail(r->file, setup, r->title, "%s", err.msg);
    for (size_t i = 0; actions && i < actions->n; i++) {
        const foh_yaml_node *a = actions->items[i];
        foh_action act;
        if (a->kind != FOH_YAML_SCALAR || !find_action(r->g, r->legal, a->text, &act))
            return scenario_fail(r->file, a, r->title, "step: '%s' is not a legal action here",
                                 a->kind == FOH_YAML_SCALAR ? a->text : "(not text)");
        if (foh_game_apply(r->g, &act, &err) != FOH_OK)
            return scenario_fail(r->file, a, r->title, "%s", err.msg);
    }
    return check_expect(r, expect);
}

/* Coverage: the cards of the set, and which passing scenarios exercised. */
typedef struct {
    int n;
    unsigned char *covered;
} coverage;

static void note_coverage(coverage *cv, foh_game *g)
{
    const foh_ruleset *rs = foh_game_ruleset(g);
    for (int c = 0; rs->exercised && c < cv->n; c++)
        cv->covered[c] |= (unsigned char)rs->exercised(g, c);
}

static int report_coverage(const coverage *cv, const foh_cardset *cs)
{
    const foh_ruleset *rs = foh_cardset_ruleset(cs);
    int covered = 0, shown = 0;
    for (int c = 0; c < cv->n; c++)
        covered += cv->covered[c];
    printf("coverage: cards exercised by passing scenarios: %d of %d\n", covered, cv->n);
    for (int c = 0; c < cv->n; c++)
        if (!cv->covered[c]) {
            printf("%s", shown++ ? ", " : "  not exercised: ");
            cli_puts(stdout, rs->card_id(cs, c));
        }
    if (shown)
        printf("\n");
    return covered == cv->n;
}

static int run_file(const char *path, foh_engine *eng, coverage *cv, int quiet, int *passed, int *failed)
{
    char yerr[512];
    foh_yaml_node *doc = foh_yaml_load(path, yerr, sizeof yerr);
    const foh_yaml_node *list = doc && doc->kind == FOH_YAML_MAP ? foh_yaml_get(doc, "scenarios") : NULL;
    foh_action *legal = malloc(ANY_MAX_LEGAL * sizeof *legal);
    if (!legal || !list || list->kind != FOH_YAML_SEQ) {
        printf("FAIL ");
        cli_line(stdout, !legal ? "out of memory" : doc ? "a scenario file holds 'scenarios:', a list" : yerr);
        (*failed)++;
    }
    for (size_t k = 0; legal && list && list->kind == FOH_YAML_SEQ && k < list->n; k++) {
        const foh_yaml_node *sc = list->items[k], *name = foh_yaml_get(sc, "name");
        run r = {.file = path, .title = name && name->kind == FOH_YAML_SCALAR ? name->text : "(unnamed)", .legal = legal};
        int ok = sc->kind == FOH_YAML_MAP
                     ? play_scenario(&r, eng, sc)
                     : scenario_fail(path, sc, "(not a map)", "%s", "a scenario is a map of name, players, seed, setup, actions, expect");
        if (ok) {
            if (!quiet)
                printf("PASS %s\n", r.title);
            note_coverage(cv, r.g);
        }
        *passed += ok;
        *failed += !ok;
        free(r.log.text);
        foh_game_free(r.g);
    }
    free(legal);
    foh_yaml_free(doc);
    return 1;
}

int any_scenario(const cli_options *o)
{
    if (!any_only(o, "scenario", (uint64_t)1 << OPT_COVERAGE))
        return CLI_USAGE;
    foh_error err;
    foh_cardset *cs = any_load(o, &err);
    foh_engine *eng = cs ? foh_engine_new_limited(cs, &o->limits, &err) : NULL;
    if (!eng) {
        cli_error(NULL, "%s", err.msg);
        foh_cardset_free(cs);
        return CLI_DATA;
    }
    const foh_ruleset *rs = foh_cardset_ruleset(cs);
    coverage cv = {0, NULL};
    if (o->coverage && (!rs->card_count || !rs->card_id || !rs->exercised)) {
        cli_error("scenario", "--coverage: the ruleset '%s' does not tell which cards a game exercised", rs->name);
        foh_engine_free(eng);
        foh_cardset_free(cs);
        return CLI_USAGE;
    }
    if (rs->card_count && (cv.n = rs->card_count(cs)) > 0 && !(cv.covered = calloc((size_t)cv.n, 1)))
        cv.n = 0;
    int passed = 0, failed = 0;
    for (int i = 0; i < o->nargs; i++)
        run_file(o->args[i], eng, &cv, 0, &passed, &failed);
    printf("%d passed, %d failed\n", passed, failed);
    int covered = !o->coverage || report_coverage(&cv, cs);
    free(cv.covered);
    foh_engine_free(eng);
    foh_cardset_free(cs);
    return failed || !covered ? CLI_DATA : CLI_OK;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The scenario files PATH names: itself, or a folder's *.yaml, sorted,
 * into *OUT (malloc'd, each path too; the caller frees them). Returns how
 * many, or -1 when out of memory. */
static int scenario_files(const char *path, char ***out)
{
    DIR *d = opendir(path);
    int n = 0, cap = 0;
    char **list = NULL;
    if (!d) {
        if (!(list = malloc(sizeof *list)) || !(list[0] = strdup(path))) {
            free(list);
            return -1;
        }
        *out = list;
        return 1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name), size = strlen(path) + len + 2;
        if (len <= 5 || strcmp(e->d_name + len - 5, ".yaml"))
            continue;
        char **grown = n < cap ? list : realloc(list, sizeof *list * (size_t)(cap = cap ? 2 * cap : 16));
        char *file = grown ? malloc(size) : NULL;
        if (!file) {
            closedir(d);
            for (int k = 0; k < n; k++)
                free((grown ? grown : list)[k]);
            free(grown ? grown : list);
            return -1;
        }
        list = grown;
        snprintf(file, size, "%s/%s", path, e->d_name);
        list[n++] = file;
    }
    closedir(d);
    if (n > 0)
        qsort(list, (size_t)n, sizeof *list, by_name);
    *out = list;
    return n;
}

int any_check_scenarios(foh_engine *eng, const foh_cardset *cs, const char *const *paths, int npaths, int *run_count,
                        int *warnings)
{
    const foh_ruleset *rs = foh_cardset_ruleset(cs);
    coverage cv = {0, NULL};
    if (rs->card_count && rs->exercised && (cv.n = rs->card_count(cs)) > 0 && !(cv.covered = calloc((size_t)cv.n, 1)))
        cv.n = 0;
    int passed = 0, failed = 0;
    for (int i = 0; i < npaths; i++) {
        char **files = NULL;
        int n = scenario_files(paths[i], &files);
        if (n < 0) {
            printf("FAIL ");
            cli_puts(stdout, paths[i]);
            printf(": out of memory listing the scenario files\n");
            failed++;
        }
        for (int k = 0; k < n; k++) {
            run_file(files[k], eng, &cv, 1, &passed, &failed);
            free(files[k]);
        }
        free(files);
    }
    *run_count = passed + failed;
    int missed = 0;
    for (int c = 0; c < cv.n; c++)
        missed += !cv.covered[c];
    if (cv.n && missed) {
        (*warnings)++;
        printf("warning: %d of %d cards are exercised by no passing scenario\n", missed, cv.n);
    }
    free(cv.covered);
    return failed;
}

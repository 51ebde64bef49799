/* foh run: an experiment file (docs/experiments.md, issue 31). One YAML
 * file names the configurations (card sets and variants), the seats,
 * games, seed and players they are all played with, the figures to read
 * from each report (metrics), ranges those figures should fall in
 * (targets), and optionally a sweep of one number over values; the run
 * writes a results folder: the file itself, each configuration's report
 * (text and JSON, each with its provenance), versions.json, a summary
 * (text and CSV) and, for a sweep, sweep.csv and sweep.html, the chosen
 * figures drawn against the value. Every game is seeded as foh sim seeds
 * it, so each configuration's report is the one `foh sim` prints for the
 * same options. */
#define _GNU_SOURCE /* asprintf, mkdtemp */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "common/cli.h"
#include "common/provenance.h"
#include "foh/yaml.h"
#include "sim/sim.h"
#include "sim/sim_stats.h"

#define MAX_CONFIGS 16
#define MAX_METRICS 16
#define MAX_SWEEP 64

static const cli_option_id RUN_OPTIONS[] = {OPT_THREADS, OPT_MODS, OPT_OUT, OPT_COUNT};
static const cli_command RUN = {
    "run", "EXPERIMENT.yaml", 1,
    "Runs an experiment file: each configuration (card sets and variants) played with the\n"
    "file's players, seats, games and seed, the metrics read from each report, the targets\n"
    "checked, and a sweep of one number over its values; writes the results folder (the\n"
    "file, every report with its provenance, versions.json, summary.txt and summary.csv,\n"
    "and for a sweep sweep.csv and sweep.html). docs/experiments.md describes the file.\n",
    RUN_OPTIONS, NULL};

typedef struct {
    char name[64];
    int ncards;
    char cards[CLI_MAX_VARIANTS + 1][PATH_MAX];
    int nvariants;
    char variants[CLI_MAX_VARIANTS][PATH_MAX];
} config;

typedef struct {
    char path[200];
    int has_target;
    double lo, hi;
} metric;

typedef struct {
    const char *file;
    char dir[PATH_MAX]; /* the file's folder: relative paths start there */
    char name[64];
    int players, threads;
    long games;
    uint64_t seed;
    char seats[256];
    int nconfigs;
    config cfg[MAX_CONFIGS];
    int nmetrics;
    metric m[MAX_METRICS];
    int sweeping, sweep_cfg, nvalues;
    char sweep_path[200];
    long values[MAX_SWEEP];
    const cli_options *cmd; /* the command: its mods, threads and words */
} experiment;

static int bad(const foh_yaml_node *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(const foh_yaml_node *n, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_error("run", "%s:%d:%d: %s", n->file, n->line, n->column, msg);
    return 0;
}

/* A whole number of N in [LO, HI] into *OUT; 0 after saying why not. */
static int whole(const foh_yaml_node *n, const char *what, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = n && n->kind == FOH_YAML_SCALAR ? strtol(n->text, &end, 10) : 0;
    if (!n || n->kind != FOH_YAML_SCALAR || end == n->text || *end || errno || v < lo || v > hi)
        return bad(n, "%s must be a whole number from %ld to %ld", what, lo, hi);
    *out = v;
    return 1;
}

static int text(const foh_yaml_node *n, const char *what, char *out, size_t len)
{
    if (!n || n->kind != FOH_YAML_SCALAR || !n->text[0] || strlen(n->text) >= len)
        return bad(n, "%s must be a text of 1 to %zu characters", what, len - 1);
    snprintf(out, len, "%s", n->text);
    return 1;
}

/* A name used as a file name: letters, digits, '-' and '_'. */
static int file_name(const foh_yaml_node *n, const char *what, char *out, size_t len)
{
    if (!text(n, what, out, len))
        return 0;
    for (const char *p = out; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_'))
            return bad(n, "%s '%s' names files of the results: letters, digits, '-' and '_' only", what, out);
    return 1;
}

/* PATH as written in the file: relative to the file's folder when that
 * exists, else kept (a card set or variant name, looked up as foh sim does). */
static void resolve(const experiment *e, const char *path, char *out, size_t len)
{
    char joined[PATH_MAX * 2];
    snprintf(joined, sizeof joined, "%s/%s", e->dir, path);
    struct stat st;
    if (path[0] != '/' && stat(joined, &st) == 0)
        snprintf(out, len, "%s", joined);
    else
        snprintf(out, len, "%s", path);
}

/* A list of texts (or one text) into OUT[MAX][PATH_MAX], resolved. */
static int paths(const experiment *e, const foh_yaml_node *n, const char *what, char (*out)[PATH_MAX], int max,
                 int *count)
{
    *count = 0;
    if (!n)
        return 1;
    size_t k = n->kind == FOH_YAML_SEQ ? n->n : 1;
    if (k > (size_t)max)
        return bad(n, "%s: at most %d", what, max);
    for (size_t i = 0; i < k; i++) {
        const foh_yaml_node *x = n->kind == FOH_YAML_SEQ ? n->items[i] : n;
        char raw[PATH_MAX];
        if (!text(x, what, raw, sizeof raw))
            return 0;
        resolve(e, raw, out[(*count)++], PATH_MAX);
    }
    return 1;
}

/* "LO..HI" (either side may be left out) into *LO, *HI. */
static int range(const foh_yaml_node *n, const char *what, double *lo, double *hi)
{
    const char *t = n && n->kind == FOH_YAML_SCALAR ? n->text : NULL, *dots = t ? strstr(t, "..") : NULL;
    char a[64], *end;
    if (!dots || dots - t >= (long)sizeof a)
        return bad(n, "%s must be a range LO..HI (either bound may be left out: ..35)", what);
    snprintf(a, sizeof a, "%.*s", (int)(dots - t), t);
    *lo = a[0] ? strtod(a, &end) : -INFINITY;
    if (a[0] && (*end || !isfinite(*lo)))
        return bad(n, "%s: '%s' is not a number", what, a);
    *hi = dots[2] ? strtod(dots + 2, &end) : INFINITY;
    if (dots[2] && (*end || !isfinite(*hi)))
        return bad(n, "%s: '%s' is not a number", what, dots + 2);
    if (*lo > *hi || (!isfinite(*lo) && !isfinite(*hi)))
        return bad(n, "%s: LO must be at most HI, and one of them given", what);
    if ((isfinite(*lo) && fabs(*lo) > 1e12) || (isfinite(*hi) && fabs(*hi) > 1e12))
        return bad(n, "%s: a bound beyond 10^12", what);
    return 1;
}

static int read_configs(experiment *e, const foh_yaml_node *list)
{
    static const char *const KEYS[] = {"name", "cards", "variants", NULL};
    if (!list || list->kind != FOH_YAML_SEQ || list->n == 0 || list->n > MAX_CONFIGS)
        return bad(list, "configurations must list 1 to %d configurations, each {name, cards, variants}",
                   MAX_CONFIGS);
    for (size_t i = 0; i < list->n; i++) {
        const foh_yaml_node *c = list->items[i];
        config *k = &e->cfg[e->nconfigs];
        int u = c->kind == FOH_YAML_MAP ? foh_yaml_unknown_key(c, KEYS) : -2;
        if (u != -1)
            return u == -2 ? bad(c, "a configuration is a map {name, cards, variants}")
                           : bad(c, "unknown key '%s' in a configuration (name, cards, variants)", c->keys[u]);
        const foh_yaml_node *nn = foh_yaml_get(c, "name") ? foh_yaml_get(c, "name") : c;
        if (!file_name(nn, "name", k->name, sizeof k->name))
            return 0;
        /* The run's own files: a configuration may not be named so. */
        if (!strcmp(k->name, "summary") || !strcmp(k->name, "versions") || !strcmp(k->name, "experiment") ||
            !strncmp(k->name, "sweep", 5))
            return bad(nn, "a configuration may not be named '%s': summary, versions, experiment and sweep... name "
                           "the run's own files", k->name);
        for (int j = 0; j < e->nconfigs; j++)
            if (!strcmp(e->cfg[j].name, k->name))
                return bad(c, "two configurations are named '%s'", k->name);
        if (!paths(e, foh_yaml_get(c, "cards"), "cards", k->cards, CLI_MAX_VARIANTS + 1, &k->ncards) ||
            !paths(e, foh_yaml_get(c, "variants"), "variants", k->variants, CLI_MAX_VARIANTS, &k->nvariants))
            return 0;
        if (!k->ncards)
            snprintf(k->cards[k->ncards++], PATH_MAX, "base");
        e->nconfigs++;
    }
    return 1;
}

static int read_sweep(experiment *e, const foh_yaml_node *s)
{
    static const char *const KEYS[] = {"configuration", "path", "values", NULL};
    int u = s->kind == FOH_YAML_MAP ? foh_yaml_unknown_key(s, KEYS) : -2;
    if (u != -1)
        return u == -2 ? bad(s, "sweep is a map {configuration, path, values}")
                       : bad(s, "unknown key '%s' in sweep (configuration, path, values)", s->keys[u]);
    const foh_yaml_node *pn = foh_yaml_get(s, "path") ? foh_yaml_get(s, "path") : s;
    if (!text(pn, "sweep path", e->sweep_path, sizeof e->sweep_path))
        return 0;
    /* Written into a variant's `set:` as it stands: a dotted path only. */
    for (const char *p = e->sweep_path; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
              *p == '-' || *p == '.'))
            return bad(pn, "sweep path '%s': a variant's set: path (cards.ID.params.NAME, rules.NAME, ...): letters, "
                           "digits, '_', '-' and '.' only", e->sweep_path);
    const foh_yaml_node *c = foh_yaml_get(s, "configuration"), *v = foh_yaml_get(s, "values");
    e->sweep_cfg = 0;
    if (c) {
        e->sweep_cfg = -1;
        for (int j = 0; j < e->nconfigs; j++)
            if (c->kind == FOH_YAML_SCALAR && !strcmp(e->cfg[j].name, c->text))
                e->sweep_cfg = j;
        if (e->sweep_cfg < 0)
            return bad(c, "sweep configuration: no configuration is named so");
    }
    if (v && v->kind == FOH_YAML_SEQ) {
        if (v->n == 0 || v->n > MAX_SWEEP)
            return bad(v, "sweep values: 1 to %d whole numbers", MAX_SWEEP);
        for (size_t i = 0; i < v->n; i++)
            if (!whole(v->items[i], "a sweep value", -1000000, 1000000, &e->values[e->nvalues++]))
                return 0;
    } else {
        double lo, hi;
        if (!v)
            return bad(s, "sweep needs values");
        if (!range(v, "sweep values (a list, or LO..HI of whole numbers)", &lo, &hi))
            return 0;
        if (!isfinite(lo) || !isfinite(hi) || lo != floor(lo) || hi != floor(hi) || hi - lo + 1 > MAX_SWEEP ||
            fabs(lo) > 1000000 || fabs(hi) > 1000000)
            return bad(v, "sweep values: LO..HI of whole numbers from -1000000 to 1000000, at most %d of them",
                       MAX_SWEEP);
        for (long x = (long)lo; x <= (long)hi; x++)
            e->values[e->nvalues++] = x;
    }
    e->sweeping = 1;
    return 1;
}

/* Read the experiment file into E; 0 after saying what is wrong (file:line). */
static int read_experiment(experiment *e, const char *path)
{
    char err[600];
    foh_yaml_node *y = foh_yaml_load(path, err, sizeof err);
    if (!y) {
        cli_error("run", "%s", err);
        return 0;
    }
    static const char *const KEYS[] = {"name", "description", "players", "seats", "games", "seed",
                                       "configurations", "metrics", "targets", "sweep", NULL};
    int ok = 1, u = y->kind == FOH_YAML_MAP ? foh_yaml_unknown_key(y, KEYS) : -2;
    if (u != -1)
        ok = u == -2 ? bad(y, "an experiment is a map (name, players, seats, games, seed, configurations, metrics, "
                              "targets, sweep)")
                     : bad(y, "unknown key '%s' (name, description, players, seats, games, seed, configurations, "
                              "metrics, targets, sweep)", y->keys[u]);
    long v;
    e->players = 4, e->games = 1000, e->seed = 1;
    snprintf(e->seats, sizeof e->seats, "greedy");
    ok = ok && file_name(foh_yaml_get(y, "name") ? foh_yaml_get(y, "name") : y, "name", e->name, sizeof e->name);
    if (ok && foh_yaml_get(y, "players") && (ok = whole(foh_yaml_get(y, "players"), "players", 1, FOH_MAX_PLAYERS, &v)))
        e->players = (int)v;
    if (ok && foh_yaml_get(y, "games") && (ok = whole(foh_yaml_get(y, "games"), "games", 1, 100000000, &v)))
        e->games = v;
    if (ok && foh_yaml_get(y, "seed") && (ok = whole(foh_yaml_get(y, "seed"), "seed", 0, LONG_MAX, &v)))
        e->seed = (uint64_t)v;
    if (ok && foh_yaml_get(y, "seats"))
        ok = text(foh_yaml_get(y, "seats"), "seats", e->seats, sizeof e->seats);
    ok = ok && read_configs(e, foh_yaml_get(y, "configurations") ? foh_yaml_get(y, "configurations") : y);
    const foh_yaml_node *m = foh_yaml_get(y, "metrics"), *t = foh_yaml_get(y, "targets");
    static const char *const DEFAULT_METRICS[] = {"score", "game_length_turns", "first_player_win_rate"};
    if (ok && m && (m->kind != FOH_YAML_SEQ || m->n == 0 || m->n > MAX_METRICS))
        ok = bad(m, "metrics must list 1 to %d figures of the report (e.g. score, cards.temple.owner_win_rate)",
                 MAX_METRICS);
    for (size_t i = 0; ok && i < (m ? m->n : 3); i++)
        if (m) {
            ok = text(m->items[i], "a metric", e->m[e->nmetrics].path, sizeof e->m[0].path);
            for (int j = 0; ok && j < e->nmetrics; j++)
                if (!strcmp(e->m[j].path, e->m[e->nmetrics].path))
                    ok = bad(m->items[i], "metric '%s' listed twice", e->m[j].path);
            e->nmetrics++;
        } else
            snprintf(e->m[e->nmetrics++].path, sizeof e->m[0].path, "%s", DEFAULT_METRICS[i]);
    if (ok && t && t->kind != FOH_YAML_MAP)
        ok = bad(t, "targets is a map METRIC: LO..HI");
    for (size_t i = 0; ok && t && i < t->n; i++) {
        int k = -1;
        for (int j = 0; j < e->nmetrics; j++)
            if (!strcmp(e->m[j].path, t->keys[i]))
                k = j;
        if (k < 0 && e->nmetrics == MAX_METRICS)
            ok = bad(t->items[i], "more than %d metrics with the targets", MAX_METRICS);
        else if (k < 0) {
            k = e->nmetrics++;
            snprintf(e->m[k].path, sizeof e->m[k].path, "%s", t->keys[i]);
        }
        if (ok)
            ok = range(t->items[i], "a target", &e->m[k].lo, &e->m[k].hi) && (e->m[k].has_target = 1);
        /* The reports give rates and shares as fractions: "..35" meant 35%. */
        if (ok && (strstr(e->m[k].path, "rate") || strstr(e->m[k].path, "share")) &&
            ((isfinite(e->m[k].lo) && fabs(e->m[k].lo) > 1) || (isfinite(e->m[k].hi) && fabs(e->m[k].hi) > 1)))
            ok = bad(t->items[i], "target of %s: the reports give rates and shares as fractions from 0 to 1 (35%% is "
                                  "0.35)", e->m[k].path);
    }
    if (ok && foh_yaml_get(y, "sweep"))
        ok = read_sweep(e, foh_yaml_get(y, "sweep"));
    foh_yaml_free(y);
    return ok;
}

/* The figure at dotted PATH of REPORT: a number, or an estimate {value,
 * ci95_low, ci95_high} / {value, low, high}; in a list, the element whose
 * card, name or seat is the next word. 0 if there is none. */
static int metric_get(const json_t *report, const char *path, double *v, double *lo, double *hi)
{
    char buf[200];
    snprintf(buf, sizeof buf, "%s", path);
    const json_t *n = report;
    char *save = NULL;
    for (char *seg = strtok_r(buf, ".", &save); seg && n; seg = strtok_r(NULL, ".", &save)) {
        if (json_is_object(n)) {
            n = json_object_get(n, seg);
            continue;
        }
        const json_t *found = NULL, *x;
        size_t i;
        json_array_foreach(n, i, x) {
            static const char *const KEYS[] = {"card", "name", "seat"};
            for (int k = 0; k < 3 && !found; k++) {
                const json_t *id = json_object_get(x, KEYS[k]);
                char num[32];
                if (json_is_integer(id))
                    snprintf(num, sizeof num, "%lld", (long long)json_integer_value(id));
                if ((json_is_string(id) && !strcmp(json_string_value(id), seg)) ||
                    (json_is_integer(id) && !strcmp(num, seg)))
                    found = x;
            }
        }
        n = found;
    }
    *lo = *hi = NAN;
    if (json_is_number(n)) {
        *v = json_number_value(n);
        return 1;
    }
    const json_t *val = json_object_get(n, "value");
    if (!json_is_number(val))
        return 0;
    *v = json_number_value(val);
    const json_t *l = json_object_get(n, "ci95_low") ? json_object_get(n, "ci95_low") : json_object_get(n, "low");
    const json_t *h = json_object_get(n, "ci95_high") ? json_object_get(n, "ci95_high") : json_object_get(n, "high");
    if (json_is_number(l) && json_is_number(h)) {
        *lo = json_number_value(l);
        *hi = json_number_value(h);
    }
    return 1;
}

/* The options of configuration K (with an extra variant folder SWEEP, or
 * NULL); 0 after saying why not (a variant's path too long). */
static int options_of(const experiment *e, int k, const char *sweep, cli_options *o)
{
    const config *c = &e->cfg[k];
    *o = *e->cmd; /* the command's mods, threads and words */
    o->players = e->players;
    o->games = e->games;
    o->seed = e->seed;
    o->seats = e->seats;
    o->shard = o->shards = 1;
    o->json = o->html = o->games_csv = o->trace = o->save_shard = NULL;
    o->cards = c->cards[0];
    o->nmore_cards = c->ncards - 1;
    for (int i = 1; i < c->ncards; i++)
        o->more_cards[i - 1] = c->cards[i];
    o->nvariants = 0;
    if (c->nvariants + (sweep != NULL) > CLI_MAX_VARIANTS) {
        cli_error("run", "configuration %s: at most %d variants%s", c->name, CLI_MAX_VARIANTS,
                  sweep ? ", the sweep's included" : "");
        return 0;
    }
    for (int i = 0; i < c->nvariants + (sweep != NULL); i++) {
        const char *v = i < c->nvariants ? c->variants[i] : sweep;
        o->variant[o->nvariants] = v;
        if (!cli_find(o, "variants", v, "variant.yaml", o->variant_dir[o->nvariants],
                      sizeof o->variant_dir[o->nvariants])) {
            if (strlen(v) >= sizeof o->variant_dir[0]) {
                cli_error("run", "configuration %s: the variant path %.60s... is longer than %zu bytes", c->name, v,
                          sizeof o->variant_dir[0] - 1);
                return 0;
            }
            memcpy(o->variant_dir[o->nvariants], v, strlen(v) + 1); /* as given: loading names it */
        }
        o->nvariants++;
    }
    o->quiet_timing = 1;
    return 1;
}

/* Play configuration K (with SWEEP's variant or NULL), write its reports as
 * OUT/LABEL.txt and OUT/LABEL.json, and return its report (NULL after
 * saying why). */
static json_t *play_config(const experiment *e, int k, const char *sweep, const char *out, const char *label)
{
    cli_options o;
    if (!options_of(e, k, sweep, &o))
        return NULL;
    foh_cardset *cs;
    foh_engine *eng;
    if (!cli_load(&o, &cs, &eng))
        return NULL;
    foh_engine_free(eng);
    const char *note;
    sim_stats *st = calloc(1, sizeof *st);
    json_t *report = NULL;
    if (!foh_cardset_allows_players(cs, o.players, &note))
        cli_error("run", "configuration %s: %d players are not allowed. %s", e->cfg[k].name, o.players, note);
    else if (st && sim_run(&o, cs, st) == CLI_OK) {
        char *txt = NULL, *js = NULL;
        json_t *r = sim_stats_report(st, NULL, cs, o.players, o.seats, o.seed), *prov = provenance_json(&o, cs);
        report = r ? json_pack("{s:O,s:o*}", "format", json_object_get(r, "format"), "provenance", prov) : NULL;
        if (!r)
            json_decref(prov);
        if (report)
            json_object_update(report, r);
        json_decref(r);
        FILE *t = asprintf(&txt, "%s/%s.txt", out, label) >= 0 ? cli_create(txt) : NULL;
        if (t) {
            sim_print_header(t, st->games, &o, cs);
            sim_stats_print(t, st, NULL, cs, o.players, o.seats);
        }
        int ok = report && t && !ferror(t);
        ok = t && fclose(t) == 0 && ok;
        ok = ok && asprintf(&js, "%s/%s.json", out, label) >= 0 &&
             cli_write_json(report, js, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
        if (!ok) {
            cli_error("run", "cannot write the reports of %s in %s: %s", label, out, strerror(errno));
            json_decref(report);
            report = NULL;
        }
        free(txt);
        free(js);
    }
    free(st);
    foh_cardset_free(cs);
    return report;
}

/* One summary row: each metric of REPORT, printed and as CSV; with the
 * targets checked (*MISSED counts the missed ones). 0 if a metric is not
 * in the report. */
static int summary_row(const experiment *e, const char *label, const json_t *report, FILE *txt, FILE *csv,
                       int *missed)
{
    fprintf(txt, "%-24s", label);
    fprintf(csv, "%s", label);
    for (int i = 0; i < e->nmetrics; i++) {
        double v, lo, hi;
        if (!metric_get(report, e->m[i].path, &v, &lo, &hi)) {
            cli_error("run", "metric '%s' is not in the report of %s (a figure of foh sim --json: score, "
                             "game_length_turns, seats_report.1.win_rate, cards.temple.owner_win_rate, ...)",
                      e->m[i].path, label);
            return 0;
        }
        const char *verdict = "";
        if (e->m[i].has_target) {
            int in = v >= e->m[i].lo && v <= e->m[i].hi;
            *missed += !in;
            verdict = in ? " ok" : " MISSED";
        }
        if (isnan(lo))
            fprintf(txt, "  %s %.4g%s", e->m[i].path, v, verdict);
        else
            fprintf(txt, "  %s %.4g [%.4g, %.4g]%s", e->m[i].path, v, lo, hi, verdict);
        fprintf(csv, ",%.6g,%.6g,%.6g", v, lo, hi);
    }
    fprintf(txt, "\n");
    fprintf(csv, "\n");
    return 1;
}

static void csv_header(const experiment *e, FILE *csv, const char *first)
{
    fprintf(csv, "%s", first);
    for (int i = 0; i < e->nmetrics; i++)
        fprintf(csv, ",%s,%s_low,%s_high", e->m[i].path, e->m[i].path, e->m[i].path);
    fprintf(csv, "\n");
}

/* sweep.html: each metric drawn against the swept value, with its interval. */
static int sweep_html(const experiment *e, const char *path, double (*v)[MAX_SWEEP][3])
{
    FILE *f = cli_create(path);
    if (!f)
        return 0;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>sweep</title>\n"
               "<style>body{font-family:sans-serif;max-width:760px;margin:1em auto}svg{border:1px solid #ccc}"
               "</style></head><body>\n<h1>");
    cli_puts(f, e->name); /* checked to be letters, digits, '-' and '_' */
    fprintf(f, ": a sweep</h1>\n<p class=\"path\">the number swept: ");
    for (const char *p = e->sweep_path; *p; p++) /* the path as HTML text */
        fprintf(f, *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '&' ? "&amp;" : "%c", *p);
    fprintf(f, "</p>\n");
    for (int i = 0; i < e->nmetrics; i++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int k = 0; k < e->nvalues; k++)
            for (int j = 0; j < 3; j++)
                if (!isnan(v[i][k][j])) {
                    lo = fmin(lo, v[i][k][j]);
                    hi = fmax(hi, v[i][k][j]);
                }
        if (hi <= lo)
            hi = lo + 1;
        double x0 = (double)e->values[0], x1 = x0; /* the values as written: in any order */
        for (int k = 1; k < e->nvalues; k++) {
            x0 = fmin(x0, (double)e->values[k]);
            x1 = fmax(x1, (double)e->values[k]);
        }
        if (x1 <= x0)
            x1 = x0 + 1;
#define SX(x) (60 + 600 * ((x) - x0) / (x1 - x0))
#define SY(y) (230 - 200 * ((y) - lo) / (hi - lo))
        fprintf(f, "<h2>");
        for (const char *p = e->m[i].path; *p; p++)
            fprintf(f, *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '&' ? "&amp;" : "%c", *p);
        fprintf(f, "</h2>\n<svg class=\"sweep\" width=\"700\" height=\"260\" role=\"img\">\n");
        fprintf(f, "<text x=\"4\" y=\"34\">%.4g</text><text x=\"4\" y=\"230\">%.4g</text>\n", hi, lo);
        fprintf(f, "<polyline fill=\"none\" stroke=\"#5b8bd0\" stroke-width=\"2\" points=\"");
        for (int k = 0; k < e->nvalues; k++)
            fprintf(f, "%.1f,%.1f ", SX((double)e->values[k]), SY(v[i][k][0]));
        fprintf(f, "\"/>\n");
        for (int k = 0; k < e->nvalues; k++) {
            double x = SX((double)e->values[k]);
            if (!isnan(v[i][k][1]))
                fprintf(f, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#222\"/>\n", x, x,
                        SY(v[i][k][1]), SY(v[i][k][2]));
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#5b8bd0\"/><text x=\"%.1f\" y=\"252\" "
                       "text-anchor=\"middle\">%ld</text>\n", x, SY(v[i][k][0]), x, e->values[k]);
        }
#undef SX
#undef SY
        fprintf(f, "</svg>\n");
    }
    fprintf(f, "<p>Points: the figure at each value; bars: its 95%% interval.</p></body></html>\n");
    return fclose(f) == 0;
}

/* The sweep: configuration sweep_cfg with a variant setting sweep_path to
 * each value, every figure drawn against it; *MISSED counts the targets
 * missed. A CLI status. */
static int run_sweep(const experiment *e, const char *out, FILE *txt, int *missed)
{
    char tmp[] = "/tmp/foh-sweep-XXXXXX", *csvp = NULL, *htmlp = NULL;
    if (!mkdtemp(tmp)) {
        cli_error("run", "cannot make a temporary folder: %s", strerror(errno));
        return CLI_DATA;
    }
    double(*v)[MAX_SWEEP][3] = calloc(MAX_METRICS, sizeof *v);
    FILE *csv = v && asprintf(&csvp, "%s/sweep.csv", out) >= 0 ? cli_create(csvp) : NULL;
    int status = csv ? CLI_OK : CLI_DATA;
    if (csv)
        csv_header(e, csv, "value");
    fprintf(txt, "\nsweep of %s in configuration %s:\n", e->sweep_path, e->cfg[e->sweep_cfg].name);
    char vdir[64], file[128], label[128];
    snprintf(vdir, sizeof vdir, "%s/sweep", tmp);
    snprintf(file, sizeof file, "%s/variant.yaml", vdir);
    for (int k = 0; status == CLI_OK && k < e->nvalues; k++) {
        FILE *y = mkdir(vdir, 0777) == 0 || errno == EEXIST ? fopen(file, "w") : NULL;
        if (!y || fprintf(y, "name: \"sweep\"\ndescription: \"%s = %ld\"\nset:\n  %s: %ld\n", e->sweep_path,
                          e->values[k], e->sweep_path, e->values[k]) < 0 || fclose(y) != 0) {
            cli_error("run", "cannot write %s", file);
            status = CLI_DATA;
            break;
        }
        snprintf(label, sizeof label, "sweep-%ld", e->values[k]);
        json_t *r = play_config(e, e->sweep_cfg, vdir, out, label);
        if (!r) {
            cli_error("run", "%s: the sweep's value %ld of %s (written as a temporary variant, named above) did not "
                             "play", e->file, e->values[k], e->sweep_path);
            status = CLI_DATA;
            break;
        }
        char lab[64]; /* the row's label: the value */
        snprintf(lab, sizeof lab, "%ld", e->values[k]);
        if (!summary_row(e, lab, r, txt, csv, missed))
            status = CLI_DATA;
        for (int i = 0; status == CLI_OK && i < e->nmetrics; i++)
            metric_get(r, e->m[i].path, &v[i][k][0], &v[i][k][1], &v[i][k][2]);
        json_decref(r);
    }
    unlink(file);
    rmdir(vdir);
    rmdir(tmp);
    if (csv && fclose(csv) != 0)
        status = CLI_DATA;
    if (status == CLI_OK && (asprintf(&htmlp, "%s/sweep.html", out) < 0 || !sweep_html(e, htmlp, v))) {
        cli_error("run", "cannot write the sweep's page in %s", out);
        status = CLI_DATA;
    }
    free(csvp);
    free(htmlp);
    free(v);
    return status;
}

/* Copy the experiment file into OUT (its bytes, read through the checked reader). */
static int copy_file(const char *from, const char *out)
{
    char *data, *to = NULL;
    size_t len;
    foh_error err;
    if (foh_file_read(from, FOH_YAML_MAX_BYTES, "an experiment file", &data, &len, &err) != FOH_OK) {
        cli_error("run", "%s", err.msg);
        return 0;
    }
    FILE *f = asprintf(&to, "%s/experiment.yaml", out) >= 0 ? cli_create(to) : NULL;
    int ok = f && fwrite(data, 1, len, f) == len;
    ok = f && fclose(f) == 0 && ok;
    free(data);
    free(to);
    return ok;
}

int cmd_run(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&RUN, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&RUN, stdout);
        return st;
    }
    experiment *e = calloc(1, sizeof *e);
    if (!e) {
        cli_error("run", "out of memory");
        return CLI_DATA;
    }
    e->file = o.args[0];
    e->cmd = &o;
    const char *slash = strrchr(e->file, '/');
    snprintf(e->dir, sizeof e->dir, "%.*s", slash ? (int)(slash - e->file) : 1, slash ? e->file : ".");
    if (!read_experiment(e, e->file)) {
        free(e);
        return CLI_USAGE;
    }
    /* The seats, before any game: a bad spec is the file's mistake. */
    cli_options probe_o = o;
    probe_o.players = e->players;
    probe_o.seats = e->seats;
    foh_player *probe[FOH_MAX_PLAYERS];
    if (!cli_seats(&probe_o, 0, probe)) {
        cli_error("run", "%s: seats '%s' (see the message above)", e->file, e->seats);
        free(e);
        return CLI_USAGE;
    }
    cli_free_seats(probe, e->players);
    char *out = NULL;
    if (o.out)
        out = strdup(o.out);
    else if (asprintf(&out, "%.*s-results", (int)(strlen(e->file) - (strlen(e->file) > 5 &&
                                                                      !strcmp(e->file + strlen(e->file) - 5, ".yaml")
                                                                  ? 5 : 0)),
                      e->file) < 0)
        out = NULL;
    int status = CLI_OK;
    if (!out || (mkdir(out, 0777) != 0 && (errno != EEXIST || rmdir(out) != 0 || mkdir(out, 0777) != 0))) {
        cli_error("run", "cannot make the results folder %s: %s (it must not exist, or be empty)",
                  out ? out : "(out of memory)", strerror(errno));
        status = CLI_DATA;
    }
    char *p = NULL;
    FILE *txt = NULL, *csv = NULL;
    if (status == CLI_OK && (!copy_file(e->file, out) || asprintf(&p, "%s/summary.txt", out) < 0 ||
                             !(txt = cli_create(p)))) {
        cli_error("run", "cannot write in %s: %s", out, strerror(errno));
        status = CLI_DATA;
    }
    free(p);
    p = NULL;
    if (status == CLI_OK && (asprintf(&p, "%s/summary.csv", out) < 0 || !(csv = cli_create(p)))) {
        cli_error("run", "cannot write in %s: %s", out, strerror(errno));
        status = CLI_DATA;
    }
    free(p);
    json_t *versions = json_pack("{s:s,s:s,s:[]}", "engine", provenance_engine(), "experiment", e->name,
                                 "configurations");
    int missed = 0;
    if (status == CLI_OK) {
        fprintf(txt, "experiment %s: %ld games, %d players, seats %s, seed %llu\n", e->name, e->games, e->players,
                e->seats, (unsigned long long)e->seed);
        csv_header(e, csv, "configuration");
    }
    for (int k = 0; status == CLI_OK && k < e->nconfigs; k++) {
        json_t *r = play_config(e, k, NULL, out, e->cfg[k].name);
        if (!r || !summary_row(e, e->cfg[k].name, r, txt, csv, &missed))
            status = CLI_DATA;
        if (r && status == CLI_OK) {
            const char *h = json_string_value(json_object_get(json_object_get(r, "provenance"), "content_hash"));
            fprintf(txt, "%-24s  (content hash %s; its report: %s.json)\n", "", h ? h : "?", e->cfg[k].name);
        }
        if (r)
            json_array_append_new(json_object_get(versions, "configurations"),
                              json_pack("{s:s,s:O}", "name", e->cfg[k].name, "provenance",
                                        json_object_get(r, "provenance")));
        json_decref(r);
    }
    if (status == CLI_OK && e->sweeping)
        status = run_sweep(e, out, txt, &missed);
    if (status == CLI_OK) {
        fprintf(txt, "targets: %d missed\n", missed);
        char *vp = NULL;
        if (asprintf(&vp, "%s/versions.json", out) < 0 || !cli_write_json(versions, vp, JSON_INDENT(2))) {
            cli_error("run", "cannot write versions.json in %s", out);
            status = CLI_DATA;
        }
        free(vp);
    }
    if (txt && fclose(txt) != 0)
        status = CLI_DATA;
    if (csv && fclose(csv) != 0)
        status = CLI_DATA;
    if (status == CLI_OK) {
        printf("experiment %s: results in %s (summary.txt%s)\n", e->name, out, e->sweeping ? ", sweep.html" : "");
        char *sp = NULL;
        FILE *s = asprintf(&sp, "%s/summary.txt", out) >= 0 ? fopen(sp, "r") : NULL;
        char line[4096];
        while (s && fgets(line, sizeof line, s)) { /* the metrics' paths are the file's text: escaped */
            line[strcspn(line, "\n")] = '\0';
            cli_puts(stdout, line);
            putchar('\n');
        }
        if (s)
            fclose(s);
        free(sp);
        if (missed)
            printf("%d target%s missed\n", missed, missed == 1 ? "" : "s");
    }
    json_decref(versions);
    free(out);
    free(e);
    return status; /* a missed target is a finding, not an error: summary.txt says it */
}

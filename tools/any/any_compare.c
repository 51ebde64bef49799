/* foh compare for card sets of any ruleset (any_compare.h): configurations
 * A and B (a card folder and variants each) play the same games: game i
 * has the same seed and the same bots' seeds on both sides, as foh sim
 * plays its game i. Each figure is a mean over games of a per-game value
 * (a seat's share of the win, a score line at the end, the turns), so B -
 * A is the mean of the per-game differences, and its interval is the
 * paired one: Student's t on those differences, the luck both sides share
 * (the deal, the bots' draws while the games agree) cancelling out. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "any/any.h"
#include "any/any_compare.h"
#include "any/any_games.h"
#include "common/cli.h"
#include "foh/ruleset.h"
#include "sim/sim_stats.h"

#define FDR 0.05 /* the false-discovery rate of the Benjamini-Hochberg marks */
#define MAX_ROWS (4 + 2 * FOH_MAX_PLAYERS + 2 * ANY_LINES)

/* What a figure measures in one game. */
enum { ROW_TURNS, ROW_LIMIT, ROW_WIN, ROW_SEAT_LINE, ROW_LINE };

typedef struct {
    int kind, seat;
    int line[2]; /* the score line's place on each side, -1 if that side has none of its label */
    char name[96];
    const char *group; /* "game", "seat", "score" */
    int rate;          /* a rate, shown in % */
    int has[2];
    double a, b, alo, ahi, blo, bhi; /* each side's mean; a rate's Wilson interval */
    double diff, low, high, p;       /* B - A, its paired 95% interval, the p-value of no difference */
    int same;                        /* B = A in every game */
    int tested, differs, marked;     /* differs: the interval excludes 0; marked: past BH too */
    const char *note;
} cmp_row;

typedef struct {
    cli_options o[2]; /* each side's options */
    foh_cardset *cs[2];
    char specs[FOH_MAX_PLAYERS][64];
    long games;
} cmp_run;

/* Game i of side k is job 2i + k: the two sides of a game side by side. */
static void cmp_job(const void *ctx, long j, any_job *job)
{
    const cmp_run *c = ctx;
    job->side = (int)(j % 2);
    job->seed = job->bots = foh_seed_for(c->o[0].seed, (uint64_t)(j / 2));
    for (int p = 0; p < c->o[0].players; p++)
        job->spec[p] = c->specs[p];
}

/* Side K's options: the common ones O with that side's card set and
 * variants (a path, or a name along the search path, as compare.c looks
 * them up). 0 after saying why. */
static int side_options(const cli_options *o, int k, cli_options *side)
{
    *side = *o;
    side->nvariants = 0;
    if (o->side_cards[k])
        side->cards = o->side_cards[k];
    for (int i = 0; i < o->side_nvariants[k]; i++) {
        side->variant[i] = o->side_variant[k][i];
        if (!cli_find(o, "variants", side->variant[i], "variant.yaml", side->variant_dir[i],
                      sizeof side->variant_dir[i])) {
            cli_error("compare", "unknown variant '%s' ('foh variants' lists them; a path names a variant's folder)",
                      side->variant[i]);
            return 0;
        }
        side->nvariants++;
    }
    return 1;
}

int any_compare_applies(const cli_options *o)
{
    cli_options *side = malloc(sizeof *side);
    int any = 0;
    for (int k = 0; side && k < 2 && !any; k++) {
        *side = *o;
        if (o->side_cards[k])
            side->cards = o->side_cards[k];
        any = any_ruleset(side);
    }
    free(side);
    return any;
}

/* ROW's value in game GAME of side SIDE. */
static double row_value(const any_results *res, const cmp_row *row, int side, long game)
{
    long j = 2 * game + side;
    size_t n = (size_t)res->players, at = (size_t)j * n;
    switch (row->kind) {
    case ROW_TURNS:
        return res->turns[j];
    case ROW_LIMIT:
        return res->limit[j];
    case ROW_WIN:
        return res->result[at + (size_t)row->seat];
    case ROW_SEAT_LINE:
        return res->line[(at + (size_t)row->seat) * (size_t)res->stride + (size_t)row->line[side]];
    default: {
        double sum = 0;
        for (size_t p = 0; p < n; p++)
            sum += res->line[(at + p) * (size_t)res->stride + (size_t)row->line[side]];
        return sum / (double)n;
    }
    }
}

static cmp_row *add_row(cmp_row *rows, int *n, int kind, int seat, const char *group, int rate)
{
    cmp_row *r = &rows[(*n)++];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->seat = seat;
    r->group = group;
    r->rate = rate;
    r->has[0] = r->has[1] = 1;
    r->line[0] = r->line[1] = -1;
    return r;
}

/* The place of score line LABEL on side K, or -1. */
static int line_of(const any_results *res, int k, const char *label)
{
    for (int i = 0; i < res->nlines[k]; i++)
        if (!strcmp(res->label[k][i], label))
            return i;
    return -1;
}

/* The figures: the game's length, each seat's win rate, each score line's
 * mean over the players (A's lines, then those only B has), each seat's
 * first score line. Returns how many. */
static int make_rows(const any_results *res, cmp_row *rows)
{
    int n = 0;
    snprintf(add_row(rows, &n, ROW_TURNS, 0, "game", 0)->name, sizeof rows->name, "game length (turns)");
    snprintf(add_row(rows, &n, ROW_LIMIT, 0, "game", 1)->name, sizeof rows->name, "games at the turn limit");
    for (int p = 0; p < res->players; p++)
        snprintf(add_row(rows, &n, ROW_WIN, p, "seat", 1)->name, sizeof rows->name, "win rate P%d", p + 1);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < res->nlines[k]; i++) {
            const char *label = res->label[k][i];
            if (k == 1 && line_of(res, 0, label) >= 0)
                continue; /* listed with A's */
            cmp_row *r = add_row(rows, &n, ROW_LINE, 0, "score", 0);
            snprintf(r->name, sizeof r->name, "%s (mean of the players)", label);
            r->line[k] = i;
            r->line[!k] = line_of(res, !k, label);
        }
    const char *first = res->nlines[0] ? res->label[0][0] : res->nlines[1] ? res->label[1][0] : NULL;
    for (int p = 0; first && p < res->players; p++) {
        cmp_row *r = add_row(rows, &n, ROW_SEAT_LINE, p, "seat", 0);
        snprintf(r->name, sizeof r->name, "%s P%d", first, p + 1);
        r->line[0] = line_of(res, 0, first);
        r->line[1] = line_of(res, 1, first);
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            rows[i].has[k] = rows[i].kind != ROW_LINE && rows[i].kind != ROW_SEAT_LINE ? 1 : rows[i].line[k] >= 0;
    return n;
}

/* Each side's mean, B - A game by game with its t interval and p-value. */
static void row_test(const any_results *res, long games, cmp_row *r)
{
    double sum[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (long g = 0; r->has[k] && g < games; g++)
            sum[k] += row_value(res, r, k, g);
    r->a = sum[0] / (double)games;
    r->b = sum[1] / (double)games;
    if (r->rate) {
        sim_wilson(r->a, (double)games, &r->alo, &r->ahi);
        sim_wilson(r->b, (double)games, &r->blo, &r->bhi);
    }
    if (!r->has[0] || !r->has[1]) {
        r->note = r->has[0] ? "only in A" : "only in B";
        return;
    }
    double d = 0, ss = 0;
    int same = 1;
    for (long g = 0; g < games; g++) {
        double x = row_value(res, r, 1, g) - row_value(res, r, 0, g);
        d += x;
        same = same && x == 0;
    }
    d /= (double)games;
    for (long g = 0; g < games; g++) {
        double e = row_value(res, r, 1, g) - row_value(res, r, 0, g) - d;
        ss += e * e;
    }
    r->same = same;
    if (same) {
        r->note = "the same in every game";
        r->p = 1;
        return;
    }
    double se = sqrt(ss / (double)(games - 1) / (double)games), half = any_t95(games - 1) * se;
    r->tested = 1;
    r->diff = d;
    r->low = d - half;
    r->high = d + half;
    /* se 0 with games that differ: every game differs by d exactly. */
    r->p = se > 0 ? any_t_p(d / se, games - 1) : 0;
    r->differs = r->low > 0 || r->high < 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Benjamini-Hochberg at FDR over the tested rows: marks those whose p is
 * at most the largest p_(k) <= k FDR / m and whose interval excludes 0.
 * Returns the number tested. */
static int mark_rows(cmp_row *rows, int n)
{
    double p[MAX_ROWS], cut = -1;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].tested)
            p[m++] = rows[i].p;
    qsort(p, (size_t)m, sizeof *p, cmp_double);
    for (int k = m; k >= 1 && cut < 0; k--)
        if (p[k - 1] <= FDR * k / m)
            cut = p[k - 1];
    for (int i = 0; i < n; i++)
        rows[i].marked = rows[i].tested && rows[i].differs && rows[i].p <= cut;
    return m;
}

static void value_text(char *buf, size_t len, const cmp_row *r, int has, double v)
{
    if (!has)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, r->rate ? "%.1f%%" : "%.2f", r->rate ? 100 * v : v);
}

static void print_row(const cmp_row *r)
{
    char name[200], a[32], b[32];
    cli_safe(r->name, name, sizeof name); /* a score line's label is the ruleset's text */
    value_text(a, sizeof a, r, r->has[0], r->a);
    value_text(b, sizeof b, r, r->has[1], r->b);
    double k = r->rate ? 100 : 1;
    if (r->tested)
        printf("  %-38s %9s %9s %+9.2f  [%+7.2f, %+7.2f]  %6.4f%s\n", name, a, b, k * r->diff, k * r->low,
               k * r->high, r->p, r->marked ? " *" : "");
    else
        printf("  %-38s %9s %9s %9s  %18s  %6s  %s\n", name, a, b, "-", "", "", r->note ? r->note : "");
}

/* The rows of one section (WHICH: 1 those that differ, 0 the others
 * tested, -1 those not tested), or "none". */
static void print_section(const cmp_row *rows, int n, int which, const char *title)
{
    int any = 0;
    for (int i = 0; i < n; i++) {
        const cmp_row *r = &rows[i];
        int in = which < 0 ? !r->tested && !r->same : r->tested && r->differs == which;
        if (!in)
            continue;
        if (!any++)
            printf("\n%s:\n  %-38s %9s %9s %9s  %18s  %6s\n", title, "figure", "A", "B", "B - A", "95% interval",
                   "p");
        print_row(r);
    }
    if (!any && which >= 0)
        printf("\n%s: none\n", title);
}

/* "cards X, variants: V, W" of side O. */
static void print_side(char name, const cli_options *o)
{
    printf("%c: cards ", name);
    cli_puts(stdout, o->cards);
    for (int i = 0; i < o->nvariants; i++) {
        printf(i ? ", " : ", variants: ");
        cli_puts(stdout, o->variant[i]);
    }
    printf("\n");
}

static void print_report(const cmp_run *c, const cmp_row *rows, int n, int tested)
{
    const cli_options *o = &c->o[0];
    /* The same deal only when both sides shuffle the same cards. */
    int same_cards = !strcmp(c->o[0].cards, c->o[1].cards);
    printf("%s: %ld games on the same seeds (%s), %d players, seed %llu, seats ", foh_cardset_ruleset(c->cs[0])->title,
           c->games,
           same_cards ? "game i has the same deal and bots' seeds under A and B"
                      : "A and B deal different card sets: game i has the same seeds, not the same deal",
           o->players, (unsigned long long)o->seed);
    cli_puts(stdout, o->seats);
    printf("\n");
    print_side('A', &c->o[0]);
    print_side('B', &c->o[1]);
    printf("B - A game by game (rates in percentage points); 95%% interval: Student's t over the %ld paired "
           "differences\n",
           c->games);
    if (tested)
        printf("*: also past the Benjamini-Hochberg line at a 5%% false-discovery rate over the %d figures that "
               "differ in some game\n",
               tested);
    print_section(rows, n, 1, "differs (the 95% interval excludes 0)");
    print_section(rows, n, 0, "no difference shown (the 95% interval includes 0)");
    print_section(rows, n, -1, "not compared");
    int same = 0, differ = 0, marked = 0;
    for (int i = 0; i < n; i++) {
        same += rows[i].same;
        differ += rows[i].differs;
        marked += rows[i].marked;
    }
    if (same == n) {
        printf("\nthe same in every game: all %d figures (A and B played the same games)\n", n);
        return;
    }
    if (same) {
        char *text = calloc((size_t)n, 400), *at = text;
        for (int i = 0, k = 0; text && i < n; i++)
            if (rows[i].same) {
                at += sprintf(at, "%s", k++ ? ", " : "");
                at += cli_escape(rows[i].name, at, 390);
            }
        printf("\nthe same in every game:");
        cli_wrap(stdout, text ? text : "(out of memory)", 2, 23);
        free(text);
    }
    printf("\n%d of %d figures differ, %d past Benjamini-Hochberg (by chance alone, about 1 in 20 of the %d\n"
           "figures that differ in some game would have an interval excluding 0)\n",
           differ, n, marked, tested);
}

static json_t *side_json(const cli_options *o)
{
    json_t *variants = json_array();
    for (int i = 0; i < o->nvariants; i++)
        json_array_append_new(variants, json_string(o->variant[i]));
    return json_pack("{s:s, s:o}", "cards", o->cards, "variants", variants);
}

static json_t *row_json(const cmp_row *r)
{
    json_t *j = json_pack("{s:s, s:s, s:s}", "name", r->name, "group", r->group, "unit", r->rate ? "rate" : "mean");
    json_object_set_new(j, "a", r->has[0] ? json_real(r->a) : json_null());
    json_object_set_new(j, "b", r->has[1] ? json_real(r->b) : json_null());
    if (r->rate && r->has[0])
        json_object_set_new(j, "a_ci95", json_pack("[f, f]", r->alo, r->ahi));
    if (r->rate && r->has[1])
        json_object_set_new(j, "b_ci95", json_pack("[f, f]", r->blo, r->bhi));
    if (r->has[0] && r->has[1])
        json_object_update_new(j, json_pack("{s:f, s:f, s:f, s:f, s:b, s:b, s:b}", "diff", r->diff, "ci95_low",
                                            r->low, "ci95_high", r->high, "p", r->p, "differs", r->differs,
                                            "significant", r->marked, "same_in_every_game", r->same));
    if (r->note)
        json_object_set_new(j, "note", json_string(r->note));
    return j;
}

static int write_json(const cmp_run *c, const cmp_row *rows, int n, int tested, const char *path)
{
    const cli_options *o = &c->o[0];
    const foh_ruleset *rs = foh_cardset_ruleset(c->cs[0]);
    int differ = 0, marked = 0;
    json_t *figs = json_array();
    for (int i = 0; i < n; i++) {
        differ += rows[i].differs;
        marked += rows[i].marked;
        json_array_append_new(figs, row_json(&rows[i]));
    }
    json_t *root = json_pack("{s:s, s:s, s:s, s:I, s:i, s:I, s:s, s:o, s:o, s:s, s:f, s:i, s:i, s:i, s:o}", "format",
                             "foh-any-compare/1", "ruleset", rs->name, "title", rs->title, "games",
                             (json_int_t)c->games, "players", o->players, "seed", (json_int_t)o->seed, "seats",
                             o->seats, "a", side_json(&c->o[0]), "b", side_json(&c->o[1]), "interval",
                             "paired: Student's t over the per-game differences B - A, 95%",
                             "false_discovery_rate", FDR, "tested", tested, "differ", differ, "significant", marked,
                             "figures", figs);
    int ok = root && cli_write_json(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    if (!ok)
        cli_error("compare", "cannot write %s: %s", path, root ? strerror(errno) : "out of memory");
    json_decref(root);
    return ok;
}

/* Load both sides' card sets (one ruleset) and check the seats and the
 * output file: a CLI status. */
static int prepare(const cli_options *o, cmp_run *c)
{
    for (int k = 0; k < 2; k++)
        if (!side_options(o, k, &c->o[k]))
            return CLI_USAGE;
    for (int k = 0; k < 2; k++) {
        foh_error err;
        if (!(c->cs[k] = any_load(&c->o[k], &err))) {
            cli_error("compare", "configuration %c: %s", 'A' + k, err.msg);
            return CLI_DATA;
        }
    }
    const foh_ruleset *ra = foh_cardset_ruleset(c->cs[0]), *rb = foh_cardset_ruleset(c->cs[1]);
    if (ra != rb) {
        cli_error("compare", "A is played by the ruleset '%s' and B by '%s': compare compares two configurations of "
                             "one game", ra->name, rb->name);
        return CLI_USAGE;
    }
    char why[1100];
    const char *specs[FOH_MAX_PLAYERS];
    if (!cli_seat_specs(o, c->specs))
        return CLI_USAGE;
    for (int p = 0; p < o->players; p++)
        specs[p] = c->specs[p];
    if (!any_specs_valid(specs, o->players, why, sizeof why)) {
        cli_error("compare", "--seats: %s", why);
        return CLI_USAGE;
    }
    if (o->games < 2) {
        cli_error("compare", "--games: at least 2 games, for an interval");
        return CLI_USAGE;
    }
    if (o->json && !cli_can_write(o->json)) {
        cli_error("compare", "cannot write %s: %s", o->json, strerror(errno));
        return CLI_DATA;
    }
    return CLI_OK;
}

/* Play, then report (or say why the games failed): a CLI status. */
static int play_and_report(const cli_options *o, cmp_run *c)
{
    any_run run = {.cs = {c->cs[0], c->cs[1]}, .limits = &o->limits, .players = o->players,
                   .threads = o->threads, .jobs = 2 * c->games, .job = cmp_job, .ctx = c};
    any_results res;
    int status = CLI_OK;
    if (!any_games_play(&run, &res)) {
        if (res.probe_side >= 0)
            cli_error("compare", "configuration %c: %s", 'A' + res.probe_side, res.error);
        else if (res.failed_job >= 0)
            cli_error("compare", "configuration %c, game %ld (foh play --seed %llu): %s",
                      'A' + (int)(res.failed_job % 2), res.failed_job / 2 + 1,
                      (unsigned long long)foh_seed_for(o->seed, (uint64_t)(res.failed_job / 2)), res.error);
        else
            cli_error("compare", "%s", res.error);
        status = res.usage ? CLI_USAGE : CLI_DATA;
    } else {
        cmp_row rows[MAX_ROWS];
        int n = make_rows(&res, rows);
        for (int i = 0; i < n; i++)
            row_test(&res, c->games, &rows[i]);
        int tested = mark_rows(rows, n);
        print_report(c, rows, n, tested);
        if (o->json && !write_json(c, rows, n, tested, o->json))
            status = CLI_DATA;
    }
    any_results_free(&res);
    return status;
}

int any_compare(const cli_options *o)
{
    const uint64_t allowed = (uint64_t)1 << OPT_GAMES | (uint64_t)1 << OPT_THREADS | (uint64_t)1 << OPT_JSON |
                             (uint64_t)1 << OPT_A_CARDS | (uint64_t)1 << OPT_A_VARIANT | (uint64_t)1 << OPT_B_CARDS |
                             (uint64_t)1 << OPT_B_VARIANT;
    if (!any_only(o, "compare", allowed))
        return CLI_USAGE;
    cmp_run *c = calloc(1, sizeof *c);
    if (!c) {
        cli_error("compare", "out of memory");
        return CLI_DATA;
    }
    c->games = o->games;
    int status = prepare(o, c);
    if (status == CLI_OK)
        status = play_and_report(o, c);
    for (int k = 0; k < 2; k++)
        foh_cardset_free(c->cs[k]);
    free(c);
    if (fflush(stdout) != 0 && status == CLI_OK)
        status = CLI_DATA;
    return status;
}

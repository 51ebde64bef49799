/* foh tune: see tune.h and docs/tune.md.
 *
 * The search: (1) every tunable number and its candidate values, each a
 * single change from the base; (2) a bandit over the single changes by
 * successive halving: every arm plays the same first games (common random
 * numbers: game i has the same seed for every candidate), the arms whose
 * loss is clearly worse than the best's are dropped and the better half
 * plays twice as many games, until the full --games; (3) greedy
 * combination: the best single change, then the next best ones added one
 * at a time while the loss falls; (4) patch notes, the variant folder,
 * and the verification on fresh seeds. Every figure is an integer sum of
 * games with fixed seeds, so a run is the same whatever the threads. */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "common/cli.h"
#include "common/origin.h"
#include "sim/sim.h"
#include "tune/tune.h"
#include "tune/tune_games.h"
#include "tune/tune_paired.h"
#include "tune/tune_shard.h"

#define Z95 1.96
#define MAX_TUNABLES 1024
#define MAX_PATTERNS 16
#define MAX_CHANGES 8
#define VERIFY_SEED_OFFSET 1000000

static const cli_option_id TUNE_OPTIONS[] = {OPT_PLAYERS, OPT_GAMES, OPT_SEED, OPT_SEATS, OPT_THREADS,
                                             OPT_LUA_INSTRUCTIONS, OPT_LUA_MEMORY, OPT_ACTION_TIME, OPT_CARDS,
                                             OPT_MODS, OPT_VARIANT, OPT_SHARD, OPT_SAVE_SHARD, OPT_COUNT};
static const cli_command TUNE = {
    "tune", NULL, 0,
    "Searches the smallest set of changes to the card set's numbers (whole-number card params,\n"
    "stripe counts, some rule numbers) that meets the balance targets, prints them as ranked\n"
    "patch notes with their predicted effects [95% CI], writes them as a variant folder, and\n"
    "verifies the prediction: the base and the variant played on fresh seeds (seed S+1000000),\n"
    "counting the predicted effects whose measured value fell inside the prediction interval.\n"
    "G (--games) is the games of one full evaluation; every candidate plays the same seeds.\n"
    "Deterministic for a seed, whatever the threads (docs/tune.md).\n"
    "On a cluster: each machine runs 'foh tune ... --shard i/n --save-shard FILE' (the same\n"
    "options; it plays the base and screens its share of the single changes), then one runs\n"
    "'foh tune --merge FILE...' (stage 2, patch notes, --out, verification).\n",
    TUNE_OPTIONS, NULL};

/* TUNE as --help shows it: --games, --shard and --save-shard mean something
 * else here than in foh sim (their shared help), so TUNE_OWN_HELP has them. */
static const cli_option_id TUNE_HELP_OPTIONS[] = {OPT_PLAYERS, OPT_SEED, OPT_SEATS, OPT_THREADS,
                                                  OPT_LUA_INSTRUCTIONS, OPT_LUA_MEMORY, OPT_ACTION_TIME, OPT_CARDS,
                                                  OPT_MODS, OPT_VARIANT, OPT_COUNT};

/* tune's own options, taken out of the arguments before the common ones are parsed. */
static const char TUNE_OWN_HELP[] =
    "\ntune's own options, and what --games, --shard and --save-shard mean here:\n"
    "  --games G             games of one full evaluation: the base and every candidate that\n"
    "                        reaches the last round play the same G seeds (default 1000, at\n"
    "                        least 8)\n"
    "  --shard i/n           screen only the i-th share of the single changes (numbers i, i+n,\n"
    "                        ... of the relevance order); needs --save-shard\n"
    "  --save-shard FILE     write the shard's base and surviving single changes for\n"
    "                        'foh tune --merge' (not 'foh merge')\n"
    "  --target NAME=VALUE   a balance target; repeatable (default seat-spread=2,\n"
    "                        start-spread=3, length=100..200):\n"
    "                          seat-spread=P   seat win rates within P points (max - min)\n"
    "                          start-spread=P  starting cards' win rates within P points\n"
    "                          card-band=P     every card's owners' win rate within P points of\n"
    "                                          the mean owners' win rate\n"
    "                          impact-band=P   every card's impact on the win (foh sim --impact's\n"
    "                                          estimate) within P points of 0\n"
    "                          length=LO..HI   mean game length in turns\n"
    "  --tunable PATTERN     tune only the paths matching this glob (cards.theocracy.*,\n"
    "                        rules.*, *.stripe.*); repeatable (default: every tunable)\n"
    "  --budget N            games the search may play in all (default 20 x G)\n"
    "  --max-changes K       at most K changes (default 3, at most 8)\n"
    "  --change-cost C       loss added per change, points (default 0.25): fewer changes win\n"
    "                        ties\n"
    "  --verify-games V      games of each side of the verification (default G; 0: none)\n"
    "  --out DIR             write the variant folder DIR (variant.yaml)\n"
    "  --merge FILE...       go on from the files of 'foh tune --shard i/n --save-shard FILE'\n"
    "                        (every part of one run): the run comes from the files; only\n"
    "                        --threads, --out and --verify-games may be given with it\n"
    "With --shard i/n, --save-shard FILE is required and --out, --verify-games belong to the\n"
    "merge. The merged result differs from one run's only in which single changes reach G\n"
    "games (the halving cuts within each shard's share); it is deterministic for a given n.\n";

/* ---- targets and metrics ---- */

/* 0 with WHY if X (LO..HI for length) is no value of the target NAME (N
 * bytes long): the rules of --target, for the command line and the run
 * description of a tune shard alike. An unknown NAME: -1. */
static int target_check(const char *name, size_t n, double lo, double hi, char *why, size_t len)
{
    if (n == 6 && !strncmp(name, "length", 6)) {
        /* No game lasts longer than the largest turn limit. */
        if (!(lo >= 0 && hi >= lo && hi <= FOH_MAX_TURN_LIMIT)) {
            snprintf(why, len, "the length is a range of turns LO..HI, e.g. length=140..180 (at most %d turns)",
                     FOH_MAX_TURN_LIMIT);
            return 0;
        }
        return 1;
    }
    if (!(n == 11 && !strncmp(name, "seat-spread", n)) && !(n == 12 && !strncmp(name, "start-spread", n)) &&
        !(n == 9 && !strncmp(name, "card-band", n)) && !(n == 11 && !strncmp(name, "impact-band", n)))
        return -1;
    if (!(lo >= 0) || !isfinite(lo)) {
        snprintf(why, len, "the value is a number of points, 0 or more");
        return 0;
    }
    /* A card's impact on the win is a difference of win rates: at most 100 points. */
    if (n == 11 && !strncmp(name, "impact-band", n) && !(lo > 0 && lo <= 100)) {
        snprintf(why, len, "impact-band is a number of points above 0 and at most 100 (a card's impact on the win "
                           "cannot exceed 100 points)");
        return 0;
    }
    return 1;
}

int tune_parse_target(const char *spec, tune_targets *t)
{
    const char *eq = strchr(spec, '=');
    char *end, why[160];
    if (!eq) {
        cli_error("tune", "--target '%s': write NAME=VALUE (seat-spread=2, start-spread=3, card-band=10, "
                          "impact-band=5, length=140..180)", spec);
        return 0;
    }
    size_t n = (size_t)(eq - spec);
    const char *v = eq + 1;
    double lo = -1, hi = -1;
    if (n == 6 && !strncmp(spec, "length", 6)) {
        /* Not strtod over the whole: "140." would be read as a number. */
        const char *dots = strstr(v, "..");
        char lo_text[64];
        if (dots && dots - v < (long)sizeof lo_text) {
            snprintf(lo_text, sizeof lo_text, "%.*s", (int)(dots - v), v);
            lo = strtod(lo_text, &end);
            if (end == lo_text || *end)
                lo = -1;
            hi = strtod(dots + 2, &end);
            if (end == dots + 2 || *end)
                hi = -1;
        }
    } else {
        lo = strtod(v, &end);
        if (end == v || *end)
            lo = -1;
    }
    int ok = target_check(spec, n, lo, hi, why, sizeof why);
    if (ok < 0) {
        cli_error("tune",
                  "--target '%s': unknown target '%.*s' (seat-spread, start-spread, card-band, impact-band, length)",
                  spec, (int)n, spec);
        return 0;
    }
    if (!ok) {
        cli_error("tune", "--target '%s': %s", spec, why);
        return 0;
    }
    if (n == 6)
        t->length_lo = lo, t->length_hi = hi;
    else if (n == 12)
        t->start_spread = lo;
    else if (n == 9)
        t->card_band = lo;
    else if (spec[0] == 's')
        t->seat_spread = lo;
    else
        t->impact_band = lo;
    return 1;
}

/* A rate of UNITS win units out of N tries, in points, with its variance. */
static tune_est rate_est(long n, long units)
{
    tune_est e = {0, 0};
    if (n <= 0)
        return e;
    double p = (double)units / WIN_UNITS / n;
    e.v = 100 * p;
    /* At least the variance of one win in n: a rate of 0 or 1 is not certain. */
    double pv = p * (1 - p) > 1.0 / n ? p * (1 - p) : 1.0 / n;
    e.var = 1e4 * pv / n;
    return e;
}

tune_est tune_owner_rate(const sim_stats *s, int c)
{
    return rate_est(s->owned_n[c], s->owned_win_units[c]);
}

tune_est tune_start_rate(const sim_stats *s, int c)
{
    return rate_est(s->start_games[c], s->start_win_units[c]);
}

/* max - min of the N estimates E (points), with the variance of the two's difference. */
static tune_est spread_of(const tune_est *e, int n)
{
    tune_est r = {0, 0};
    if (n < 2)
        return r;
    int hi = 0, lo = 0;
    for (int k = 1; k < n; k++) {
        if (e[k].v > e[hi].v)
            hi = k;
        if (e[k].v < e[lo].v)
            lo = k;
    }
    r.v = e[hi].v - e[lo].v;
    r.var = e[hi].var + e[lo].var;
    return r;
}

void tune_metrics_of(const sim_stats *s, const foh_cardset *cs, int players, const tune_targets *t, tune_metrics *m)
{
    tune_est e[FOH_MAX_CARDS];
    int n = 0;
    memset(m, 0, sizeof *m);
    m->band_card = m->impact_card = -1;
    for (int p = 0; p < players; p++)
        e[n++] = rate_est(s->games, s->win_units[p]);
    m->seat = spread_of(e, n);
    n = 0;
    for (int c = 0; c < foh_cardset_card_count(cs); c++)
        if (s->start_games[c])
            e[n++] = tune_start_rate(s, c);
    m->start = spread_of(e, n);
    if (s->games > 0) {
        double mean = (double)s->turns_sum / s->games;
        double var = s->games > 1 ? ((double)s->turns_sq - s->games * mean * mean) / (s->games - 1) : 0;
        m->length.v = mean;
        m->length.var = var > 0 ? var / s->games : 0;
    }
    /* The band: cards owned often enough, against their mean owners' rate. */
    double sum = 0;
    int idx[FOH_MAX_CARDS];
    n = 0;
    for (int c = 0; c < foh_cardset_card_count(cs); c++)
        if (s->owned_n[c] >= t->min_owned && s->owned_n[c] > 0) {
            e[n] = tune_owner_rate(s, c);
            sum += e[n].v;
            idx[n++] = c;
        }
    for (int k = 0; k < n; k++) {
        double d = fabs(e[k].v - sum / n);
        if (m->band_card < 0 || d > m->band.v) {
            m->band.v = d;
            m->band.var = e[k].var;
            m->band_card = idx[k];
        }
    }
}

/* How far V misses the bound B (0 if within), adding its variance to *VAR
 * when it misses or is within two standard errors of missing. */
static double miss_above(tune_est v, double b, double *var)
{
    if (b < 0)
        return 0;
    if (v.v + 2 * sqrt(v.var) > b)
        *var += v.var;
    return v.v > b ? v.v - b : 0;
}

double tune_miss(const tune_metrics *m, const tune_targets *t, double *var)
{
    double miss = 0, v = 0;
    miss += miss_above(m->seat, t->seat_spread, &v);
    miss += miss_above(m->start, t->start_spread, &v);
    miss += miss_above(m->band, t->card_band >= 0 ? t->card_band : t->band_guard, &v);
    if (t->impact_band >= 0 && m->impact_card >= 0)
        miss += miss_above(m->impact, t->impact_band, &v);
    if (t->length_lo >= 0) {
        double sd = sqrt(m->length.var);
        if (m->length.v + 2 * sd > t->length_hi || m->length.v - 2 * sd < t->length_lo)
            v += m->length.var;
        miss += m->length.v > t->length_hi ? m->length.v - t->length_hi
                : m->length.v < t->length_lo ? t->length_lo - m->length.v
                                             : 0;
    }
    if (var)
        *var = v;
    return miss;
}

/* ---- tunables ---- */

typedef struct {
    char path[200];  /* the variant `set:` path */
    char label[200]; /* "Theocracy: params.icons", "rules.harvest.tokens_per_icon" */
    int card;        /* the card (-1: a rule number) */
    int base, lo, hi;
    int floor;        /* the least value it may take (0, or 1 for a divisor) */
    double relevance; /* how much the base run points at it: screened first */
} tunable;

typedef struct {
    int t, value;
} change;

typedef struct {
    int n;
    change ch[MAX_CHANGES];
    foh_cardset *cs;
    sim_stats *st;
    long games; /* played so far: games [0, games) */
    double loss, loss_var;
    tune_metrics m;
    int alive;
    int id; /* the order it was made in (ties of the loss) */
    int failed; /* a game stopped by an error (a script's, e.g. a division by a param set to 0) */
    char why[1000]; /* as long as a task's error: nothing cut */
    tune_games rec; /* each game played, for the paired comparisons */
} candidate;

/* Everything one run of foh tune holds (no global state). */
typedef struct {
    cli_options o;     /* the command's options; variants: those loaded as they are */
    tune_targets tg;
    const char *patterns[MAX_PATTERNS];
    int npatterns;
    long budget, spent, verify_games;
    int max_changes;
    double change_cost;
    const char *out;
    /* The user's variants made only of `set:`: merged into every candidate's variant. */
    foh_yaml_node *merged[CLI_MAX_VARIANTS];
    const char *merged_name[CLI_MAX_VARIANTS];
    int nmerged;
    tunable *tun;
    int ntun, nvalues_total;
    char tmp[1024]; /* temporary folder of the candidates' variants */
    int ncand_dirs;
    int tty;
    const char *stage;
    double started;
    origin *og;        /* where the card set comes from (the shard file's description; malloc'd) */
    int merge;         /* --merge: FILES[0, NFILES) are shard files */
    char **files;
    int nfiles;
    int out_made;       /* --out's folder was made by this run */
    unsigned own_given; /* bit k: tune's own option k was given (take_own_options' OWN) */
} tuner;

static int matches(const tuner *T, const char *path)
{
    if (!T->npatterns)
        return 1;
    for (int i = 0; i < T->npatterns; i++)
        if (fnmatch(T->patterns[i], path, 0) == 0)
            return 1;
    return 0;
}

static int whole_number(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < -1000000 || v > 1000000)
        return 0;
    *out = (int)v;
    return 1;
}

/* Whether a user variant that is loaded as it is sets PATH (then the
 * candidates may not: the loader refuses two variants setting one path). */
static int set_by_loaded_variant(const tuner *T, const char *path)
{
    for (int i = 0; i < T->o.nvariants; i++) {
        char file[1200], err[300];
        snprintf(file, sizeof file, "%s/variant.yaml", T->o.variant_dir[i]);
        foh_yaml_node *y = foh_yaml_load(file, err, sizeof err);
        const foh_yaml_node *set = y ? foh_yaml_get(y, "set") : NULL;
        int found = set && set->kind == FOH_YAML_MAP && foh_yaml_key(set, path) >= 0;
        /* A card the variant overrides is its own: its fields stay as they are. */
        const foh_yaml_node *ov = y ? foh_yaml_get(foh_yaml_get(y, "cards"), "override") : NULL;
        if (!found && ov && !strncmp(path, "cards.", 6)) {
            char id[128];
            snprintf(id, sizeof id, "%.*s", (int)strcspn(path + 6, "."), path + 6);
            found = foh_yaml_get(ov, id) != NULL;
        }
        foh_yaml_free(y);
        if (found)
            return 1;
    }
    return 0;
}

/* The value at dotted PATH in the merged variants' sets, else in game.yaml
 * tree G; 0 if neither has a whole number there. */
static int rule_value(const tuner *T, const foh_yaml_node *g, const char *path, int *out)
{
    for (int i = T->nmerged - 1; i >= 0; i--) {
        const foh_yaml_node *v = foh_yaml_get(foh_yaml_get(T->merged[i], "set"), path);
        if (v && v->kind == FOH_YAML_SCALAR)
            return whole_number(v->text, out);
    }
    char buf[200];
    snprintf(buf, sizeof buf, "%s", path);
    const foh_yaml_node *n = g;
    char *save = NULL;
    for (char *seg = strtok_r(buf, ".", &save); seg && n; seg = strtok_r(NULL, ".", &save))
        n = foh_yaml_get(n, seg);
    return n && n->kind == FOH_YAML_SCALAR && whole_number(n->text, out);
}

static int add_tunable(tuner *T, const char *path, const char *label, int card, int base, int lo, int hi, int floor)
{
    if (!matches(T, path) || set_by_loaded_variant(T, path) || lo >= hi)
        return 1;
    if (T->ntun >= MAX_TUNABLES) {
        cli_error("tune", "more than %d tunables: restrict them with --tunable", MAX_TUNABLES);
        return 0;
    }
    tunable *t = &T->tun[T->ntun++];
    snprintf(t->path, sizeof t->path, "%s", path);
    snprintf(t->label, sizeof t->label, "%s", label);
    t->card = card;
    t->base = base;
    t->lo = lo;
    t->hi = hi;
    t->floor = floor;
    T->nvalues_total += hi - lo;
    return 1;
}

/* Every tunable number of CS (the base with the user's variants). */
static int find_tunables(tuner *T, const foh_cardset *cs)
{
    char path[200], label[200];
    for (int c = 0; c < foh_cardset_card_count(cs); c++) {
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        for (int i = 0; i < foh_cardset_card_param_count(cs, c); i++) {
            const char *name, *value;
            int v;
            foh_cardset_card_param(cs, c, i, &name, &value);
            if (!whole_number(value, &v))
                continue;
            snprintf(path, sizeof path, "cards.%s.params.%s", ci.id, name);
            snprintf(label, sizeof label, "%s: params.%s", ci.name, name);
            int lo = v - 2 < 0 && v >= 0 ? 0 : v - 2;
            if (!add_tunable(T, path, label, c, v, lo, v + 2, lo < 0 ? lo : 0))
                return 0;
        }
        for (int k = 0; k < foh_cardset_icon_count(cs); k++)
            if (ci.stripe[k] > 0) {
                const char *icon = foh_cardset_icon_name(cs, k);
                snprintf(path, sizeof path, "cards.%s.stripe.%s", ci.id, icon);
                snprintf(label, sizeof label, "%s: %s icons on the stripe", ci.name, icon);
                if (!add_tunable(T, path, label, c, ci.stripe[k], ci.stripe[k] - 1, ci.stripe[k] + 1, 0))
                    return 0;
            }
    }
    /* Rule numbers: game.yaml of the first card set, as the merged variants set them. */
    static const struct {
        const char *path;
        int min, step;
    } RULES[] = {{"setup.starting_tokens", 0, 2},          {"rules.harvest.tokens_per_icon", 0, 1},
                 {"rules.snipe.tokens_per_icon", 0, 1},     {"rules.investor_bonus.tokens_per_icon", 0, 1},
                 {"rules.other_icons_per_vp", 1, 1},        {"rules.vp_per_full_icon", 1, 1}};
    cli_sources src;
    cli_sources_of(&T->o, &src);
    char file[1200], err[300];
    snprintf(file, sizeof file, "%s/game.yaml", src.sets[0]);
    foh_yaml_node *g = foh_yaml_load(file, err, sizeof err);
    for (size_t r = 0; g && r < sizeof RULES / sizeof RULES[0]; r++) {
        int v;
        if (!rule_value(T, g, RULES[r].path, &v))
            continue;
        int lo = v - RULES[r].step < RULES[r].min ? RULES[r].min : v - RULES[r].step;
        if (!add_tunable(T, RULES[r].path, RULES[r].path, -1, v, lo, v + RULES[r].step, RULES[r].min)) {
            foh_yaml_free(g);
            return 0;
        }
    }
    foh_yaml_free(g);
    return 1;
}

/* ---- candidates: a variant folder each ---- */

/* SCALAR as a double-quoted YAML string. */
static void put_scalar(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* Node N in YAML flow style. */
static void put_node(FILE *f, const foh_yaml_node *n)
{
    if (n->kind == FOH_YAML_SCALAR) {
        put_scalar(f, n->text);
        return;
    }
    fputc(n->kind == FOH_YAML_MAP ? '{' : '[', f);
    for (size_t i = 0; i < n->n; i++) {
        if (i)
            fputs(", ", f);
        if (n->kind == FOH_YAML_MAP) {
            put_scalar(f, n->keys[i]);
            fputs(": ", f);
        }
        put_node(f, n->items[i]);
    }
    fputc(n->kind == FOH_YAML_MAP ? '}' : ']', f);
}

/* Whether change set C changes PATH (then the merged variants' value is not written). */
static int changes_path(const tuner *T, const candidate *c, const char *path)
{
    for (int k = 0; k < c->n; k++)
        if (!strcmp(T->tun[c->ch[k].t].path, path))
            return 1;
    return 0;
}

/* Write the variant of candidate C to DIR/variant.yaml: the merged
 * variants' sets and C's changes, each with a comment (NOTES[k] or none). */
static int write_variant(const tuner *T, const candidate *c, const char *dir, const char *name, const char *desc,
                         char notes[][600], const char *header)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("tune", "cannot create folder %s: %s", dir, strerror(errno));
        return 0;
    }
    char file[1200];
    snprintf(file, sizeof file, "%s/variant.yaml", dir);
    FILE *f = cli_create(file);
    if (!f) {
        cli_error("tune", "cannot write %s: %s", file, strerror(errno));
        return 0;
    }
    if (header)
        fputs(header, f);
    fputs("name: ", f);
    put_scalar(f, name);
    fputs("\ndescription: ", f);
    put_scalar(f, desc);
    fputs("\nset:", f);
    int any = 0;
    for (int i = 0; i < T->nmerged; i++) {
        const foh_yaml_node *set = foh_yaml_get(T->merged[i], "set");
        for (size_t k = 0; set && set->kind == FOH_YAML_MAP && k < set->n; k++) {
            if (changes_path(T, c, set->keys[k]))
                continue;
            if (notes)
                fprintf(f, "\n  # from variant %s", T->merged_name[i]);
            fputs("\n  ", f);
            put_scalar(f, set->keys[k]);
            fputs(": ", f);
            put_node(f, set->items[k]);
            any = 1;
        }
    }
    for (int k = 0; k < c->n; k++) {
        const tunable *t = &T->tun[c->ch[k].t];
        if (notes)
            fprintf(f, "\n  # %s", notes[k]);
        fprintf(f, "\n  %s: %d", t->path, c->ch[k].value);
        any = 1;
    }
    fputs(any ? "\n" : " {}\n", f);
    if (fclose(f) != 0) {
        cli_error("tune", "cannot write %s", file);
        return 0;
    }
    return 1;
}

/* Load candidate C's card set (the base, the variants loaded as they are,
 * then C's variant folder); 0 after saying why not. */
static int load_candidate(tuner *T, candidate *c)
{
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/c%d", T->tmp, T->ncand_dirs++);
    if (!write_variant(T, c, dir, "tune-candidate", "a candidate of foh tune", NULL, NULL))
        return 0;
    cli_sources src;
    cli_sources_of(&T->o, &src);
    const char *variants[CLI_MAX_VARIANTS + 1];
    for (int i = 0; i < src.nvariants; i++)
        variants[i] = src.variants[i];
    variants[src.nvariants] = dir;
    foh_error err;
    c->cs = foh_cardset_load_sets(src.sets, src.nsets, variants, src.nvariants + 1, src.search, src.nsearch, &err);
    char file[1300];
    snprintf(file, sizeof file, "%s/variant.yaml", dir);
    remove(file);
    rmdir(dir);
    if (!c->cs) {
        cli_error("tune", "a candidate does not load: %s", err.msg);
        return 0;
    }
    c->st = calloc(1, sizeof *c->st);
    if (!c->st) {
        cli_error("tune", "out of memory");
        return 0;
    }
    c->alive = 1;
    c->rec.players = T->o.players;
    c->rec.ncards = foh_cardset_card_count(c->cs);
    c->rec.impact = T->tg.impact_band >= 0; /* the gains are kept only for an impact target */
    return 1;
}

static void drop_candidate(candidate *c)
{
    foh_cardset_free(c->cs);
    free(c->st);
    tune_games_free(&c->rec);
    c->cs = NULL;
    c->st = NULL;
}

/* ---- evaluation: games of many candidates on the worker threads ---- */

typedef struct {
    candidate *c;
    long from, to;
    sim_stats *st;
    sim_game_hook hook; /* keeps each game in c->rec (reserved before the tasks start) */
    int status;
    char err[1000];
} task;

typedef struct {
    const tuner *T;
    task *tasks;
    int ntasks;
    atomic_int next;
    atomic_long done;
} pool;

static void *pool_work(void *arg)
{
    pool *p = arg;
    for (;;) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= p->ntasks)
            break;
        task *t = &p->tasks[i];
        t->status = sim_play_range(&p->T->o, t->c->cs, t->from, t->to, t->st, &t->hook, t->err, sizeof t->err);
        atomic_fetch_add(&p->done, t->to - t->from);
    }
    return NULL;
}

/* Cards gained in fewer games than this (of N) are left out of the impact band: 2%, at least 10. */
static long impact_min_games(long n)
{
    return n / 50 > 10 ? n / 50 : 10;
}

static void update_loss(const tuner *T, candidate *c)
{
    tune_metrics_of(c->st, c->cs, T->o.players, &T->tg, &c->m);
    if (T->tg.impact_band >= 0) {
        /* The impact band from the games kept: the largest |impact| and its variance. */
        double *z = malloc((size_t)c->games * sizeof *z);
        if (z && tune_figure_values(&c->rec, c->games, TF_IMPACT_BAND, -1, impact_min_games(c->games), z,
                                    &c->m.impact_card))
            tune_mean_var(z, c->games, &c->m.impact.v, &c->m.impact.var);
        else
            c->m.impact_card = -1; /* not determined (too few games): no miss counted */
        free(z);
    }
    c->loss = tune_miss(&c->m, &T->tg, &c->loss_var) + T->change_cost * c->n;
}

/* What a stage waits for on a terminal: its games, and a progress line. */
typedef struct {
    pool *p;
    int n;
    long total;
} pool_watch;

static int pool_finished(void *ud)
{
    const pool_watch *pw = ud;
    return atomic_load(&pw->p->done) >= pw->total;
}

static void show_pool(void *ud)
{
    const pool_watch *pw = ud;
    const tuner *T = pw->p->T;
    long done = atomic_load(&pw->p->done);
    fprintf(stderr, "\rtune: %s: %d candidate%s, %ld/%ld games, %ld of the budget's %ld played, %.0fs   ", T->stage,
            pw->n, pw->n == 1 ? "" : "s", done, pw->total, T->spent + done, T->budget, cli_now_s() - T->started);
}

/* Play each of the N candidates C[k] up to GAMES games (from where it
 * stands), on T's threads; updates their losses. A CLI status. */
static int evaluate(tuner *T, candidate **c, int n, long games)
{
    /* Tasks of at most 50 games, so that the threads share the work evenly. */
    int ntasks = 0;
    for (int k = 0; k < n; k++)
        if (games > c[k]->games)
            ntasks += (int)((games - c[k]->games + 49) / 50);
    if (!ntasks)
        return CLI_OK;
    task *tasks = calloc((size_t)ntasks, sizeof *tasks);
    sim_stats *sts = calloc((size_t)ntasks, sizeof *sts);
    pthread_t *tid = calloc((size_t)T->o.threads, sizeof *tid);
    if (!tasks || !sts || !tid) {
        free(tasks);
        free(sts);
        free(tid);
        cli_error("tune", "out of memory");
        return CLI_DATA;
    }
    int m = 0;
    long total = 0;
    /* Room for every game first: the tasks write their games' slots from several threads. */
    for (int k = 0; k < n; k++)
        if (!tune_games_reserve(&c[k]->rec, games)) {
            free(tasks);
            free(sts);
            free(tid);
            cli_error("tune", "out of memory keeping the games of %d candidates", n);
            return CLI_DATA;
        }
    for (int k = 0; k < n; k++)
        for (long g = c[k]->games; g < games; g += 50) {
            tasks[m] = (task){.c = c[k], .from = g, .to = g + 50 < games ? g + 50 : games, .st = &sts[m],
                              .hook = {.fn = tune_games_keep, .ud = &c[k]->rec, .impact = c[k]->rec.impact}};
            total += tasks[m].to - tasks[m].from;
            m++;
        }
    pool p = {.T = T, .tasks = tasks, .ntasks = ntasks};
    int nthreads = 0;
    for (int t = 0; t < T->o.threads; t++)
        if (pthread_create(&tid[t], NULL, pool_work, &p) == 0)
            nthreads++;
    if (!nthreads)
        pool_work(&p);
    pool_watch pw = {.p = &p, .n = n, .total = total};
    if (T->tty && nthreads) {
        cli_wait_workers(pool_finished, show_pool, &pw);
        show_pool(&pw); /* all played */
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(tid[t], NULL);
    /* A candidate whose games stop on an error is out of the search (its
     * numbers break a script); the others' sums are integer sums: they do
     * not depend on which thread played what. */
    for (int k = 0; k < ntasks; k++)
        if (tasks[k].status != CLI_OK && !tasks[k].c->failed) {
            tasks[k].c->failed = 1;
            snprintf(tasks[k].c->why, sizeof tasks[k].c->why, "%s",
                     tasks[k].err[0] ? tasks[k].err : "a game could not be played");
        }
    for (int k = 0; k < ntasks; k++)
        if (!tasks[k].c->failed)
            sim_stats_merge(tasks[k].c->st, &sts[k]);
    for (int k = 0; k < n; k++)
        if (games > c[k]->games) {
            c[k]->games = games;
            if (c[k]->failed)
                c[k]->loss = INFINITY;
            else
                update_loss(T, c[k]);
        }
    T->spent += total;
    int status = CLI_OK;
    free(tasks);
    free(sts);
    free(tid);
    return status;
}

/* ---- the search ---- */

static int by_loss(const void *a, const void *b)
{
    const candidate *x = *(candidate *const *)a, *y = *(candidate *const *)b;
    if (x->loss != y->loss)
        return x->loss < y->loss ? -1 : 1;
    /* Ties: fewer changes, then the order they were made in (stable and deterministic). */
    if (x->n != y->n)
        return x->n - y->n;
    return x->id - y->id;
}

typedef struct {
    int t;
    double relevance;
    int value;
} arm_order;

static int by_relevance(const void *a, const void *b)
{
    const arm_order *x = a, *y = b;
    if (x->relevance != y->relevance)
        return x->relevance > y->relevance ? -1 : 1;
    if (x->t != y->t)
        return x->t - y->t;
    return x->value - y->value;
}

/* How strongly the base run points at tunable T: its card's owners' (and,
 * for a starting card, starters') win rate away from the mean, and with an
 * impact target its impact's distance from 0 (BASE_IMPACT, points, or
 * NULL), the largest; for a rule number, the seat and length misses. */
static double relevance_of(const tuner *T, const tunable *t, const candidate *base, const double *base_impact)
{
    const sim_stats *s = base->st;
    if (t->card < 0) {
        double v = 0;
        v += T->tg.seat_spread >= 0 && base->m.seat.v > T->tg.seat_spread ? base->m.seat.v - T->tg.seat_spread : 0;
        if (T->tg.length_lo >= 0)
            v += base->m.length.v > T->tg.length_hi ? base->m.length.v - T->tg.length_hi
                 : base->m.length.v < T->tg.length_lo ? T->tg.length_lo - base->m.length.v
                                                      : 0;
        return v + 0.5;
    }
    double mean_owned = 0, mean_start = 0;
    int n_owned = 0, n_start = 0;
    for (int c = 0; c < foh_cardset_card_count(base->cs); c++) {
        if (s->owned_n[c] >= T->tg.min_owned && s->owned_n[c] > 0) {
            mean_owned += tune_owner_rate(s, c).v;
            n_owned++;
        }
        if (s->start_games[c]) {
            mean_start += tune_start_rate(s, c).v;
            n_start++;
        }
    }
    double r = 0;
    if (base_impact && !isnan(base_impact[t->card]))
        r = fabs(base_impact[t->card]);
    if (n_owned && s->owned_n[t->card] >= T->tg.min_owned && s->owned_n[t->card] > 0)
    {
        double d = fabs(tune_owner_rate(s, t->card).v - mean_owned / n_owned);
        r = d > r ? d : r;
    }
    if (n_start && s->start_games[t->card]) {
        double d = fabs(tune_start_rate(s, t->card).v - mean_start / n_start);
        r = d > r ? d : r;
    }
    return r;
}

/* The label of change CH: "Theocracy: params.icons 2 -> 1". */
static void change_label(const tuner *T, const change *ch, char *out, size_t len)
{
    const tunable *t = &T->tun[ch->t];
    snprintf(out, len, "%s %d -> %d", t->label, t->base, ch->value);
}

static void print_est(FILE *f, tune_est e, const char *unit)
{
    double h = Z95 * sqrt(e.var);
    fprintf(f, "%.1f%s [%.1f, %.1f]", e.v, unit, e.v - h, e.v + h);
}

/* ---- paired effects ---- */

/* The least number of games (of N) a card must be owned in to count in a band. */
static long band_min(const tuner *T, tune_figure f, long n)
{
    return f == TF_IMPACT_BAND ? impact_min_games(n) : T->tg.min_owned;
}

/* The paired difference B - A of figure F (card CARD) over the games both
 * played (the same seeds), and the two figures *XA, *XB on those games. 0
 * if it is not defined on one side (a card never owned...) or memory ran out. */
static int paired_figure(const tuner *T, const candidate *a, const candidate *b, tune_figure f, int card,
                         tune_pair *p, double *xa, double *xb)
{
    long n = a->games < b->games ? a->games : b->games;
    if (n <= 0)
        return 0;
    double *za = malloc((size_t)n * sizeof *za), *zb = malloc((size_t)n * sizeof *zb), v;
    long min = band_min(T, f, n);
    int ok = za && zb && tune_figure_values(&a->rec, n, f, card, min, za, NULL) &&
             tune_figure_values(&b->rec, n, f, card, min, zb, NULL);
    if (ok) {
        *p = tune_paired(za, zb, n);
        tune_mean_var(za, n, xa, &v);
        tune_mean_var(zb, n, xb, &v);
    }
    free(za);
    free(zb);
    return ok;
}

/* The half-widths of the intervals shown, paired and as if unpaired. */
typedef struct {
    double paired, unpaired;
    int n;
} widths;

/* An effect shown in the patch notes. */
typedef struct {
    const char *name, *unit; /* "owners' win rate", "%" */
    tune_figure f;
    int card;
} effect;

/* The effects of a patch note: CARD's (if >= 0), then every target's figure. */
static int effects_of(const tuner *T, int card, effect *e)
{
    int n = 0;
    if (card >= 0) {
        e[n++] = (effect){"owners' win rate", "%", TF_OWNERS, card};
        e[n++] = (effect){"starters' win rate", "%", TF_STARTERS, card};
        if (T->tg.impact_band >= 0)
            e[n++] = (effect){"impact", " points", TF_IMPACT, card};
    }
    if (T->tg.seat_spread >= 0)
        e[n++] = (effect){"seat spread", " points", TF_SEAT_SPREAD, -1};
    if (T->tg.start_spread >= 0)
        e[n++] = (effect){"start spread", " points", TF_START_SPREAD, -1};
    if (T->tg.card_band >= 0 || T->tg.band_guard >= 0)
        e[n++] = (effect){"card band", " points", TF_OWNER_BAND, -1};
    if (T->tg.impact_band >= 0)
        e[n++] = (effect){"impact band", " points", TF_IMPACT_BAND, -1};
    if (T->tg.length_lo >= 0)
        e[n++] = (effect){"length", " turns", TF_LENGTH, -1};
    return n;
}

/* The predicted effects of going from A to B that a patch note shows: each
 * figure before and after, and the paired difference [95% CI]. */
static void effects_text(const tuner *T, const candidate *a, const candidate *b, int card, char *out, size_t len,
                         widths *w)
{
    size_t n = 0;
    effect e[16];
    int ne = effects_of(T, card, e);
    out[0] = 0;
#define ADD(...) (n += (size_t)snprintf(out + n, n < len ? len - n : 0, __VA_ARGS__))
    for (int i = 0; i < ne; i++) {
        tune_pair p;
        double xa, xb;
        if (!paired_figure(T, a, b, e[i].f, e[i].card, &p, &xa, &xb))
            continue;
        double h = Z95 * sqrt(p.var);
        /* "46.3% -> 42.1%", "27.2 -> 22.1 points", "impact +4.1 -> +0.8 points" */
        int pct = !strcmp(e[i].unit, "%");
        ADD(e[i].f == TF_IMPACT ? "%s %+.1f%s -> %+.1f%s (%+.1f [%+.1f, %+.1f]); "
                                : "%s %.1f%s -> %.1f%s (%+.1f [%+.1f, %+.1f]); ",
            e[i].name, xa, pct ? e[i].unit : "", xb, e[i].unit, p.diff, p.diff - h, p.diff + h);
        if (w && p.var_unpaired > 0) {
            w->paired += h;
            w->unpaired += Z95 * sqrt(p.var_unpaired);
            w->n++;
        }
    }
    ADD("loss %.2f -> %.2f", a->loss, b->loss);
#undef ADD
}

/* ---- verification ---- */

typedef struct {
    char what[160];
    tune_figure f;
    int card;
} prediction;

/* The effects to verify: every target's figure, and each changed card's
 * owners' (and starters') win rate and, with an impact target, its impact.
 * At most 5 + 3 MAX_CHANGES. */
static int predictions_of(const tuner *T, const candidate *base, const candidate *tuned, prediction *p)
{
    int n = 0;
    if (T->tg.seat_spread >= 0)
        p[n++] = (prediction){"seat spread (points)", TF_SEAT_SPREAD, -1};
    if (T->tg.start_spread >= 0)
        p[n++] = (prediction){"start spread (points)", TF_START_SPREAD, -1};
    if (T->tg.card_band >= 0)
        p[n++] = (prediction){"card band (points)", TF_OWNER_BAND, -1};
    if (T->tg.impact_band >= 0)
        p[n++] = (prediction){"impact band (points)", TF_IMPACT_BAND, -1};
    if (T->tg.length_lo >= 0)
        p[n++] = (prediction){"game length (turns)", TF_LENGTH, -1};
    for (int j = 0; j < tuned->n; j++) {
        int c = T->tun[tuned->ch[j].t].card, dup = 0;
        for (int i = 0; i < j; i++)
            dup |= T->tun[tuned->ch[i].t].card == c;
        if (c < 0 || dup)
            continue;
        foh_card_info ci;
        foh_cardset_card(base->cs, c, &ci);
        snprintf(p[n].what, sizeof p[n].what, "owners of %s win (%%)", ci.id);
        p[n].f = TF_OWNERS;
        p[n++].card = c;
        snprintf(p[n].what, sizeof p[n].what, "starters of %s win (%%)", ci.id);
        p[n].f = TF_STARTERS;
        p[n++].card = c;
        if (T->tg.impact_band >= 0) {
            snprintf(p[n].what, sizeof p[n].what, "impact of %s (points)", ci.id);
            p[n].f = TF_IMPACT;
            p[n++].card = c;
        }
    }
    return n;
}

/* ---- the command ---- */

/* Take tune's own options out of ARGV (into T), leaving the common ones. */
static int take_own_options(tuner *T, int *argc, char **argv)
{
    int k = 0, any_target = 0;
    for (int i = 0; i < *argc; i++) {
        static const char *const OWN[] = {"--target", "--tunable", "--budget", "--max-changes", "--change-cost",
                                          "--verify-games", "--out"};
        const char *arg = argv[i], *val = NULL;
        int which = -1;
        for (int j = 0; j < (int)(sizeof OWN / sizeof OWN[0]); j++) {
            size_t len = strlen(OWN[j]);
            if (!strncmp(arg, OWN[j], len) && (arg[len] == 0 || arg[len] == '=')) {
                which = j;
                val = arg[len] == '=' ? arg + len + 1 : NULL;
            }
        }
        if (!strcmp(arg, "--merge")) {
            T->merge = 1;
            continue;
        }
        if (!strcmp(arg, "--")) {
            while (i < *argc)
                argv[k++] = argv[i++];
            break;
        }
        if (which < 0) {
            argv[k++] = argv[i];
            continue;
        }
        T->own_given |= 1u << which;
        if (!val) {
            if (i + 1 >= *argc) {
                cli_error("tune", "%s needs a value (see foh tune --help)", OWN[which]);
                return 0;
            }
            val = argv[++i];
        }
        char *end;
        errno = 0;
        switch (which) {
        case 0:
            if (!any_target) {
                /* The first --target replaces the defaults. */
                T->tg.seat_spread = T->tg.start_spread = T->tg.card_band = T->tg.impact_band = T->tg.length_lo =
                    T->tg.length_hi = -1;
                any_target = 1;
            }
            if (!tune_parse_target(val, &T->tg))
                return 0;
            break;
        case 1:
            if (T->npatterns >= MAX_PATTERNS) {
                cli_error("tune", "at most %d --tunable patterns", MAX_PATTERNS);
                return 0;
            }
            T->patterns[T->npatterns++] = val;
            break;
        case 2:
        case 5: {
            long v = strtol(val, &end, 10);
            if (end == val || *end || errno || v < (which == 2 ? 1 : 0) || v > 100000000) {
                cli_error("tune", "%s '%s': a whole number of games%s", OWN[which], val,
                          which == 2 ? ", 1 or more" : ", 0 or more");
                return 0;
            }
            if (which == 2)
                T->budget = v;
            else
                T->verify_games = v;
            break;
        }
        case 3: {
            long v = strtol(val, &end, 10);
            if (end == val || *end || v < 1 || v > MAX_CHANGES) {
                cli_error("tune", "--max-changes '%s': a whole number from 1 to %d", val, MAX_CHANGES);
                return 0;
            }
            T->max_changes = (int)v;
            break;
        }
        case 4: {
            double v = strtod(val, &end);
            if (end == val || *end || !(v >= 0) || v > 1000) {
                cli_error("tune", "--change-cost '%s': a number of points, 0 or more", val);
                return 0;
            }
            T->change_cost = v;
            break;
        }
        case 6:
            T->out = val;
            break;
        }
    }
    *argc = k;
    return 1;
}

/* Split the user's variants: those made only of name, description and
 * `set:` are merged into the candidates' variant (so that the search may
 * change what they set); the others are loaded as they are. */
static int split_variants(tuner *T)
{
    int keep = 0;
    for (int i = 0; i < T->o.nvariants; i++) {
        char file[1200], err[300];
        snprintf(file, sizeof file, "%s/variant.yaml", T->o.variant_dir[i]);
        foh_yaml_node *y = foh_yaml_load(file, err, sizeof err);
        static const char *const SET_ONLY[] = {"name", "description", "set", NULL};
        if (y && y->kind == FOH_YAML_MAP && foh_yaml_unknown_key(y, SET_ONLY) < 0 &&
            foh_yaml_get(y, "set") && foh_yaml_get(y, "set")->kind == FOH_YAML_MAP) {
            T->merged[T->nmerged] = y;
            T->merged_name[T->nmerged++] = T->o.variant[i];
            continue;
        }
        foh_yaml_free(y);
        T->o.variant[keep] = T->o.variant[i];
        memmove(T->o.variant_dir[keep], T->o.variant_dir[i], sizeof T->o.variant_dir[0]);
        keep++;
    }
    T->o.nvariants = keep;
    return 1;
}

static void remove_tmp(tuner *T)
{
    if (T->tmp[0])
        rmdir(T->tmp);
}

static void clear_progress(const tuner *T)
{
    if (T->tty)
        fprintf(stderr, "\r%*s\r", 110, "");
}

/* Every candidate made, each allocated once (the search keeps pointers to
 * them), in the order made; grown as needed. */
typedef struct {
    candidate **item;
    int n, cap;
} candidates;

static int run(tuner *T, candidates *cand);
static int run_merge(tuner *T, candidates *cand);

/* TUNE with the shard files as arguments (foh tune --merge FILE...). */
static const cli_command TUNE_MERGE = {"tune", "--merge SHARD...", 1, NULL, TUNE_OPTIONS, NULL};

/* The name of the common option ID that tune takes (TUNE_OPTIONS). */
static const char *tune_option_name(cli_option_id id)
{
    static const struct {
        cli_option_id id;
        const char *name;
    } NAMES[] = {{OPT_PLAYERS, "--players"}, {OPT_GAMES, "--games"}, {OPT_SEED, "--seed"}, {OPT_SEATS, "--seats"},
                 {OPT_THREADS, "--threads"}, {OPT_LUA_INSTRUCTIONS, "--lua-instructions"},
                 {OPT_LUA_MEMORY, "--lua-memory"}, {OPT_ACTION_TIME, "--action-time"}, {OPT_CARDS, "--cards"},
                 {OPT_MODS, "--mods"}, {OPT_VARIANT, "--variant"}, {OPT_SHARD, "--shard"},
                 {OPT_SAVE_SHARD, "--save-shard"}};
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (NAMES[i].id == id)
            return NAMES[i].name;
    return "an option";
}

/* What is wrong with the options of a --shard or --merge run (into WHY,
 * returned), or NULL. */
static const char *bad_shard_usage(const tuner *T, char *why, size_t len)
{
    /* take_own_options' OWN: 5 --verify-games, 6 --out. */
    if (T->merge) {
        static const char *const OWN[] = {"--target", "--tunable", "--budget", "--max-changes", "--change-cost"};
        const char *refused = NULL;
        uint64_t common = T->o.given & ~(1ull << OPT_THREADS);
        for (int k = 0; k < OPT_COUNT && !refused; k++)
            if (common & (1ull << k))
                refused = tune_option_name((cli_option_id)k);
        for (int j = 0; j < 5 && !refused; j++)
            if (T->own_given & (1u << j))
                refused = OWN[j];
        if (!refused)
            return NULL;
        snprintf(why, len,
                 "%s is not allowed with --merge: the run comes from the shard files; give only --threads, --out "
                 "and --verify-games",
                 refused);
        return why;
    }
    if ((T->o.given & (1ull << OPT_SAVE_SHARD)) && !(T->o.given & (1ull << OPT_SHARD)))
        return "--save-shard needs --shard i/n";
    if (!(T->o.given & (1ull << OPT_SHARD)))
        return NULL;
    if (!T->o.save_shard)
        return "--shard i/n needs --save-shard FILE (the file foh tune --merge reads)";
    if (T->own_given & ((1u << 5) | (1u << 6)))
        return "--out and --verify-games go to foh tune --merge, not to a shard";
    return NULL;
}

int cmd_tune(int argc, char **argv)
{
    tuner *T = calloc(1, sizeof *T);
    candidates cand = {0};
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!T || !args) {
        free(T);
        free(args);
        cli_error("tune", "out of memory");
        return CLI_DATA;
    }
    T->tg = (tune_targets){.seat_spread = 2, .start_spread = 3, .card_band = -1, .impact_band = -1,
                           .length_lo = 100, .length_hi = 200, .band_guard = -1};
    T->max_changes = 3;
    T->change_cost = 0.25;
    T->budget = -1;
    T->verify_games = -1;
    memcpy(args, argv, (size_t)argc * sizeof *args);
    int n = argc, status = CLI_OK;
    if (!take_own_options(T, &n, args))
        status = CLI_USAGE;
    if (status == CLI_OK) {
        status = cli_parse(T->merge ? &TUNE_MERGE : &TUNE, n, args, &T->o);
        char why[200];
        const char *bad = status == CLI_OK && !T->o.help ? bad_shard_usage(T, why, sizeof why) : NULL;
        if (bad) {
            cli_error("tune", "%s", bad);
            status = CLI_USAGE;
        }
        if (status == CLI_OK && T->o.help) {
            cli_command help = TUNE;
            help.options = TUNE_HELP_OPTIONS;
            cli_help(&help, stdout);
            fputs(TUNE_OWN_HELP, stdout);
        }
    }
    if (status == CLI_OK && !T->o.help && T->merge) {
        T->files = T->o.args;
        T->nfiles = T->o.nargs;
    } else if (status == CLI_OK && !T->o.help) {
        char why[ORIGIN_PATH + 64];
        if (T->o.games < 8) {
            cli_error("tune", "--games %ld: at least 8 games per evaluation", T->o.games);
            status = CLI_USAGE;
        }
        if (T->budget < 0)
            T->budget = 20 * T->o.games;
        if (T->verify_games < 0)
            T->verify_games = T->o.games;
        if (status == CLI_OK && T->o.save_shard && !cli_can_write(T->o.save_shard)) {
            cli_error("tune", "cannot write %s: %s", T->o.save_shard, strerror(errno));
            status = CLI_DATA;
        }
        /* Where the card set comes from, before split_variants sorts the variants. */
        if (status == CLI_OK && (!(T->og = malloc(sizeof *T->og)) || !origin_of(&T->o, T->og, why, sizeof why))) {
            cli_error("tune", "%s", T->og ? why : "out of memory");
            status = CLI_DATA;
        }
    }
    if (status == CLI_OK && !T->o.help && T->out && !(T->out_made = mkdir(T->out, 0777) == 0) && errno != EEXIST) {
        cli_error("tune", "cannot create folder %s: %s", T->out, strerror(errno));
        status = CLI_DATA;
    }
    if (status == CLI_OK && !T->o.help)
        status = T->merge ? run_merge(T, &cand) : run(T, &cand);
    for (int k = 0; k < cand.n; k++) {
        drop_candidate(cand.item[k]);
        free(cand.item[k]);
    }
    free(cand.item);
    for (int i = 0; i < T->nmerged; i++)
        foh_yaml_free(T->merged[i]);
    remove_tmp(T);
    free(T->tun);
    free(T->og);
    free(T);
    free(args);
    return status;
}

static void print_targets(const tuner *T, FILE *f)
{
    fprintf(f, "targets:");
    if (T->tg.seat_spread >= 0)
        fprintf(f, " seat-spread<=%g", T->tg.seat_spread);
    if (T->tg.start_spread >= 0)
        fprintf(f, " start-spread<=%g", T->tg.start_spread);
    if (T->tg.card_band >= 0)
        fprintf(f, " card-band<=%g (cards owned in >= %d player-games)", T->tg.card_band, T->tg.min_owned);
    if (T->tg.impact_band >= 0)
        fprintf(f, " impact-band<=%g (cards gained in >= 2%% of games, at least 10)", T->tg.impact_band);
    if (T->tg.length_lo >= 0)
        fprintf(f, " length=%g..%g", T->tg.length_lo, T->tg.length_hi);
    fprintf(f, "; change cost %.2f\n", T->change_cost);
}

static void print_metrics(const tuner *T, FILE *f, const char *what, const candidate *c)
{
    const char *sep = " ";
    fprintf(f, "%s (%ld games):", what, c->games);
    if (T->tg.seat_spread >= 0) {
        fprintf(f, "%sseat spread ", sep);
        print_est(f, c->m.seat, "");
        sep = ", ";
    }
    if (T->tg.start_spread >= 0) {
        fprintf(f, "%sstart spread ", sep);
        print_est(f, c->m.start, "");
        sep = ", ";
    }
    if (T->tg.card_band >= 0 || T->tg.band_guard >= 0) {
        foh_card_info ci = {.id = "-"};
        if (c->m.band_card >= 0)
            foh_cardset_card(c->cs, c->m.band_card, &ci);
        fprintf(f, "%scard band ", sep);
        print_est(f, c->m.band, "");
        fprintf(f, " (%s)", ci.id);
        sep = ", ";
    }
    if (T->tg.impact_band >= 0) {
        foh_card_info ci = {.id = "-"};
        if (c->m.impact_card >= 0)
            foh_cardset_card(c->cs, c->m.impact_card, &ci);
        fprintf(f, "%simpact band ", sep);
        if (c->m.impact_card >= 0) {
            print_est(f, c->m.impact, "");
            fprintf(f, " (%s)", ci.id);
        } else
            fprintf(f, "- (not determined on these games)");
        sep = ", ";
    }
    if (T->tg.length_lo >= 0) {
        fprintf(f, "%slength ", sep);
        print_est(f, c->m.length, "");
    }
    fprintf(f, "; loss %.2f (miss %.2f)\n", c->loss, c->loss - T->change_cost * c->n);
}

/* A new candidate: FROM's changes (may be NULL) plus CH (CH.t < 0: none),
 * its card set loaded; NULL after saying why (out of memory, or it does not
 * load). */
static candidate *new_candidate(tuner *T, candidates *cand, const candidate *from, change ch)
{
    if (cand->n == cand->cap) {
        int cap = cand->cap ? 2 * cand->cap : 64;
        candidate **grown = realloc(cand->item, (size_t)cap * sizeof *grown);
        if (!grown) {
            cli_error("tune", "out of memory");
            return NULL;
        }
        cand->item = grown;
        cand->cap = cap;
    }
    candidate *c = calloc(1, sizeof *c);
    if (!c) {
        cli_error("tune", "out of memory");
        return NULL;
    }
    if (from) {
        c->n = from->n;
        memcpy(c->ch, from->ch, sizeof c->ch);
    }
    if (ch.t >= 0)
        c->ch[c->n++] = ch;
    c->id = cand->n;
    if (!load_candidate(T, c)) {
        drop_candidate(c);
        free(c);
        return NULL;
    }
    cand->item[cand->n++] = c;
    return c;
}

/* Load the base (an empty candidate: the card set with every user variant)
 * into *BASEP, find the tunables and print the run's header. A CLI status. */
static int prepare(tuner *T, candidates *cand, candidate **basep)
{
    T->tty = isatty(2);
    T->started = cli_now_s();
    T->tun = calloc(MAX_TUNABLES, sizeof *T->tun);
    snprintf(T->tmp, sizeof T->tmp, "%s/foh-tune-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!T->tun || !mkdtemp(T->tmp)) {
        cli_error("tune", "cannot make a temporary folder %s: %s", T->tmp, strerror(errno));
        T->tmp[0] = 0;
        return CLI_DATA;
    }
    split_variants(T);
    candidate *base = new_candidate(T, cand, NULL, (change){-1, 0});
    if (!base)
        return CLI_DATA;
    const char *note;
    if (!foh_cardset_allows_players(base->cs, T->o.players, &note)) {
        cli_error("tune", "%d players are not allowed. %s", T->o.players, note);
        return CLI_USAGE;
    }
    foh_player *probe[FOH_MAX_PLAYERS];
    if (!cli_seats(&T->o, 0, probe))
        return CLI_USAGE;
    cli_free_seats(probe, T->o.players);
    /* Cards owned in fewer than 2% of player-games are left out of the band. */
    T->tg.min_owned = (int)(T->o.games * T->o.players / 50);
    if (T->tg.min_owned < 10)
        T->tg.min_owned = 10;
    if (!find_tunables(T, base->cs))
        return CLI_USAGE;
    printf("foh tune: %d players, seats %s, seed %llu, %ld games per evaluation, budget %ld games, %d thread%s\n",
           T->o.players, T->o.seats, (unsigned long long)T->o.seed, T->o.games, T->budget, T->o.threads,
           T->o.threads == 1 ? "" : "s");
    print_targets(T, stdout);
    printf("tunables: %d numbers, %d single changes", T->ntun, T->nvalues_total);
    for (int i = 0; i < T->npatterns; i++)
        printf("%s%s", i ? ", " : " (--tunable ", T->patterns[i]);
    printf("%s\n", T->npatterns ? ")" : "");
    for (int i = 0; i < T->nmerged; i++)
        printf("variant %s (only `set:`) is merged into every candidate: its numbers are tunable too\n",
               T->merged_name[i]);
    if (!T->ntun) {
        cli_error("tune", "no tunable number%s", T->npatterns ? " matches the --tunable patterns" : "");
        return CLI_USAGE;
    }
    *basep = base;
    return CLI_OK;
}

/* The base's games are known (played here, or read from the shards): set
 * the guard and print it and the base's figures. */
static void base_ready(tuner *T, candidate *base)
{
    if (T->tg.card_band < 0) {
        /* A guard: no change may make some card's owners' win rate further
         * from the others' than the base's furthest (a card made too strong
         * would drown every other imbalance in noise). */
        T->tg.band_guard = base->m.band.v;
        update_loss(T, base);
        foh_card_info ci = {.id = "-"};
        if (base->m.band_card >= 0)
            foh_cardset_card(base->cs, base->m.band_card, &ci);
        clear_progress(T);
        printf("guard: no card's owners' win rate further than %.1f points from the mean of all cards' (the base's "
               "furthest, %s)\n", T->tg.band_guard, ci.id);
    }
    clear_progress(T);
    print_metrics(T, stdout, "base", base);
}

/* The games stage 1 plays for K arms in ROUNDS rounds of N0, 2 N0, ...
 * games, the last of G, keeping at most the better half (rounded up) after
 * each round: the most it may play (the early stopping drops more). */
static long halving_cost(int k, int rounds, long n0, long G)
{
    long cost = 0, before = 0;
    for (int r = 0; r < rounds && k > 0; r++) {
        long games = r == rounds - 1 ? G : n0 << r;
        cost += (long)k * (games - before);
        before = games;
        k = (k + 1) / 2;
    }
    return cost;
}

/* Stage 1's rounds (*ROUNDS of *N0, 2 *N0, ... games, the last of G) and
 * how many of the NARMS single changes it screens: it may spend 70% of
 * LEFT, the budget left after the base; the most arms whose halving fits
 * in it. The same on the shards and on the merge. */
static int screening_size(const tuner *T, int narms, long left, int *rounds, long *n0)
{
    long G = T->o.games;
    *rounds = 4;
    *n0 = G >> (*rounds - 1);
    while (*n0 < 8 && *rounds > 1) {
        --*rounds;
        *n0 = G >> (*rounds - 1);
    }
    int k = 0;
    while (k < narms && halving_cost(k + 1, *rounds, *n0, G) <= left * 7 / 10)
        k++;
    return k;
}

/* How many of the K screened arms shard I of N screens: i, i + n, ... (1-based). */
static int shard_share(int k, int i, int n)
{
    return k >= i ? (k - i) / n + 1 : 0;
}

/* Stage 1: the single changes by successive halving on the base BASE's
 * games [0, G); with --shard i/n only the arms i, i+n, ... of the
 * relevance order (the early stopping within that share). *ALIVEP
 * (malloc'd, NULL when empty) gets the candidates still in the search,
 * best first, and *NALIVE their number. A CLI status. */
static int stage1(tuner *T, candidates *cand, candidate *base, candidate ***alivep, int *nalivep)
{
    long G = T->o.games;
    int st;
    *alivep = NULL;
    *nalivep = 0;
    arm_order *arms = calloc((size_t)T->nvalues_total, sizeof *arms);
    int narms = 0;
    if (!arms)
        return CLI_DATA;
    double base_impact[FOH_MAX_CARDS];
    int have_impact = T->tg.impact_band >= 0 && tune_card_impacts(&base->rec, base->games, base_impact);
    for (int t = 0; t < T->ntun; t++) {
        T->tun[t].relevance = relevance_of(T, &T->tun[t], base, have_impact ? base_impact : NULL);
        for (int v = T->tun[t].lo; v <= T->tun[t].hi; v++)
            if (v != T->tun[t].base)
                arms[narms++] = (arm_order){t, T->tun[t].relevance, v};
    }
    qsort(arms, (size_t)narms, sizeof *arms, by_relevance);
    int rounds;
    long n0;
    int k = screening_size(T, narms, T->budget - T->spent, &rounds, &n0);
    if (k < 1) {
        free(arms);
        cli_error("tune", "--budget %ld is too small for one candidate of %ld games", T->budget, n0);
        return CLI_USAGE;
    }
    printf("stage 1: %d of %d single changes screened (most relevant first: their card's win rates in the "
           "base run), %d rounds of %ld..%ld games\n",
           k, narms, rounds, n0, G);
    /* A shard's share: the arms i, i+n, ... (0-based: shard - 1 + j n). */
    int mine = shard_share(k, T->o.shard, T->o.shards);
    if (T->o.save_shard && !mine)
        printf("shard %d of %d: screens none of them (only %d are screened: fewer shards would do)\n", T->o.shard,
               T->o.shards, k);
    else if (T->o.save_shard && mine == 1)
        printf("shard %d of %d: screens 1 of them (number %d of the relevance order)\n", T->o.shard, T->o.shards,
               T->o.shard);
    else if (T->o.save_shard)
        printf("shard %d of %d: screens %d of them (numbers %d, %d, ... of the relevance order), the early "
               "stopping within this share\n",
               T->o.shard, T->o.shards, mine, T->o.shard, T->o.shard + T->o.shards);
    candidate **alive = calloc((size_t)(mine ? mine : 1), sizeof *alive);
    int nalive = 0;
    if (!alive) {
        free(arms);
        return CLI_DATA;
    }
    for (int i = T->o.shard - 1; i < k; i += T->o.shards) {
        candidate *c = new_candidate(T, cand, NULL, (change){arms[i].t, arms[i].value});
        if (!c) {
            free(alive);
            free(arms);
            return CLI_DATA;
        }
        alive[nalive++] = c;
    }
    free(arms);
    char stage[64];
    for (int r = 0; r < rounds && nalive > 0; r++) {
        snprintf(stage, sizeof stage, "stage 1, round %d/%d", r + 1, rounds);
        T->stage = stage;
        /* The last round at G, whatever the rounding of n0. */
        long games = r == rounds - 1 ? G : n0 << r;
        long cost = 0;
        for (int i = 0; i < nalive; i++)
            if (games > alive[i]->games)
                cost += games - alive[i]->games;
        if (T->spent + cost > T->budget) {
            clear_progress(T);
            printf("  the budget ran out before round %d: %d candidate%s did not reach %ld games; raise --budget or "
                   "screen fewer changes (--tunable)\n",
                   r + 1, nalive, nalive == 1 ? "" : "s", games);
            break;
        }
        if ((st = evaluate(T, alive, nalive, games)) != CLI_OK) {
            free(alive);
            return st;
        }
        qsort(alive, (size_t)nalive, sizeof *alive, by_loss);
        int nfailed = 0;
        for (int i = 0; i < nalive; i++)
            if (alive[i]->failed && alive[i]->games == games) {
                nfailed++;
                if (r == 0 && nfailed <= 3) {
                    clear_progress(T);
                    printf("  left out: %s = %d breaks a game: %s\n", T->tun[alive[i]->ch[0].t].path,
                           alive[i]->ch[0].value, alive[i]->why);
                }
            }
        if (r == 0 && nfailed > 3)
            printf("  left out: %d more that break a game\n", nfailed - 3);
        if (r == rounds - 1) {
            clear_progress(T);
            printf("  round %d: %d candidates at %ld games, best %s loss %.2f\n", r + 1, nalive, games,
                   T->tun[alive[0]->ch[0].t].path, alive[0]->loss);
            break;
        }
        /* Early stopping: drop what is clearly worse than the best, then keep the better half. */
        candidate *b = alive[0];
        int keep = 0;
        for (int i = 0; i < nalive; i++) {
            double gap = Z95 * (sqrt(alive[i]->loss_var) + sqrt(b->loss_var));
            if (i == 0 || (alive[i]->loss - gap <= b->loss && keep < (nalive + 1) / 2))
                alive[keep++] = alive[i];
            else {
                alive[i]->alive = 0;
                drop_candidate(alive[i]);
            }
        }
        clear_progress(T);
        printf("  round %d: %d candidates at %ld games, best %s loss %.2f; %d go on\n", r + 1, nalive, games,
               T->tun[b->ch[0].t].path, b->loss, keep);
        nalive = keep;
    }
    clear_progress(T);
    *alivep = alive;
    *nalivep = nalive;
    return CLI_OK;
}

/* Stage 1 is done (here or on the shards): ALIVE[0, NALIVE) the single
 * changes still in the search, best first. Stage 2 (greedy combination),
 * the patch notes, the variant folder and the verification. A CLI status. */
static int finish(tuner *T, candidates *cand, candidate *base, candidate **alive, int nalive)
{
    long G = T->o.games;
    int st;
    candidate *best = base;
    if (base->loss > 0) {
        /* The singles that beat the base at G games, best first. */
        int nsingle = 0;
        for (int i = 0; i < nalive; i++)
            if (alive[i]->games == G && alive[i]->loss < base->loss)
                alive[nsingle++] = alive[i];
        printf("stage 1 done: %d single change%s beat the base at %ld games\n", nsingle, nsingle == 1 ? "" : "s", G);
        for (int i = 0; i < nsingle && i < 5; i++) {
            char lab[300];
            change_label(T, &alive[i]->ch[0], lab, sizeof lab);
            printf("  %d. %s: loss %.2f\n", i + 1, lab, alive[i]->loss);
        }
        if (nsingle > 0)
            best = alive[0];
        /* Stage 2: add the next best single changes (of other numbers) while the loss falls. */
        T->stage = "stage 2";
        while (best->n < T->max_changes && best->loss - T->change_cost * best->n > 0 &&
               T->budget - T->spent >= G) {
            /* First each change of the best pushed one step further the same
             * way (at most one range beyond its first one), then the next best
             * single changes of other numbers. */
            candidate *tries[MAX_CHANGES + 4];
            int ntries = 0;
            for (int j = 0; j < best->n && T->budget - T->spent >= (long)(ntries + 1) * G; j++) {
                const tunable *t = &T->tun[best->ch[j].t];
                int v = best->ch[j].value, step = v > t->base ? 1 : -1;
                int ext_lo = t->lo - (t->base - t->lo), ext_hi = t->hi + (t->hi - t->base);
                if (v + step < t->floor || v + step < ext_lo || v + step > ext_hi)
                    continue;
                candidate *c = new_candidate(T, cand, best, (change){-1, 0});
                if (!c) {
                    return CLI_DATA;
                }
                c->ch[j].value = v + step;
                /* Load it again with the changed value. */
                foh_cardset_free(c->cs);
                free(c->st);
                c->cs = NULL;
                c->st = NULL;
                if (!load_candidate(T, c)) {
                    return CLI_DATA;
                }
                tries[ntries++] = c;
            }
            for (int i = 0, added = 0; i < nsingle && added < 4 && T->budget - T->spent >= (long)(ntries + 1) * G;
                 i++) {
                int used = 0;
                for (int j = 0; j < best->n; j++)
                    used |= best->ch[j].t == alive[i]->ch[0].t;
                if (used)
                    continue;
                candidate *c = new_candidate(T, cand, best, alive[i]->ch[0]);
                if (!c) {
                    return CLI_DATA;
                }
                tries[ntries++] = c;
                added++;
            }
            if (!ntries)
                break;
            if ((st = evaluate(T, tries, ntries, G)) != CLI_OK) {
                return st;
            }
            qsort(tries, (size_t)ntries, sizeof *tries, by_loss);
            clear_progress(T);
            char lab[300];
            int which = tries[0]->n - 1;
            for (int j = 0; j < best->n && j < tries[0]->n; j++)
                if (tries[0]->ch[j].value != best->ch[j].value)
                    which = j;
            change_label(T, &tries[0]->ch[which], lab, sizeof lab);
            printf("stage 2: %d change%s, best next: %s: loss %.2f (was %.2f)%s\n", best->n, best->n == 1 ? "" : "s",
                   lab, tries[0]->loss, best->loss, tries[0]->loss < best->loss ? "" : ": stop");
            if (tries[0]->loss >= best->loss)
                break;
            best = tries[0];
        }
    }
    clear_progress(T);
    if (T->merge)
        printf("\nsearch: %ld games played (the base once, every shard's screening, stage 2 here), %.0f s here\n",
               T->spent, cli_now_s() - T->started);
    else
        printf("\nsearch: %ld games played in %.0f s\n", T->spent, cli_now_s() - T->started);
    print_metrics(T, stdout, "base", base);
    print_metrics(T, stdout, "tuned", best);
    double miss = best->loss - T->change_cost * best->n;
    printf("targets %s\n", miss <= 0 ? "all met (on the search's games)" : "not all met: the best found is below");

    /* Patch notes: each change in the order it was added (its marginal gain),
     * with what it did on its own against the base. */
    char(*notes)[600] = calloc(MAX_CHANGES, sizeof *notes);
    if (!notes)
        return CLI_DATA;
    printf("\npatch notes (%d change%s, ranked by how much each lowers the loss; predicted effects: base -> "
           "changed (paired difference [95%% CI], game by game on the same seeds)):\n",
           best->n, best->n == 1 ? "" : "s");
    widths wid = {0, 0, 0};
    for (int j = 0; j < best->n; j++) {
        /* Its single-change candidate, if it was evaluated at G games; else the step that added it. */
        const candidate *solo = NULL, *before = base, *after = best;
        for (int i = 0; i < cand->n; i++) {
            const candidate *c = cand->item[i];
            if (c->n == 1 && c->st && c->games == G && c->ch[0].t == best->ch[j].t && c->ch[0].value == best->ch[j].value)
                solo = c;
        }
        if (solo)
            after = solo;
        char lab[300], eff[1200];
        change_label(T, &best->ch[j], lab, sizeof lab);
        effects_text(T, before, after, T->tun[best->ch[j].t].card, eff, sizeof eff, &wid);
        printf("%d. %s: %s%s\n", j + 1, lab, solo ? "" : "(all the changes together) ", eff);
        snprintf(notes[j], sizeof notes[j], "%s", lab);
    }
    if (best->n > 1) {
        char eff[1200];
        effects_text(T, base, best, -1, eff, sizeof eff, &wid);
        printf("all %d together: %s\n", best->n, eff);
    }
    if (wid.n)
        printf("paired intervals: mean half-width %.2f against %.2f were the same games taken as independent "
               "(%d intervals)\n",
               wid.paired / wid.n, wid.unpaired / wid.n, wid.n);
    if (!best->n)
        printf("(none: %s)\n", base->loss <= 0 ? "the base meets the targets" : "no change lowered the loss");
    int status = CLI_OK;
    if (T->out && !best->n) {
        /* An empty variant would play as the base: none is written (the folder, if this run made it, goes). */
        if (T->out_made)
            rmdir(T->out);
        printf("\n--out %s: nothing written: no change to write\n", T->out);
    } else if (T->out) {
        char desc[600], name[256], header[1200];
        const char *slash = strrchr(T->out, '/');
        snprintf(name, sizeof name, "%s", slash && slash[1] ? slash + 1 : T->out);
        size_t n = (size_t)snprintf(desc, sizeof desc, "foh tune: %d change%s", best->n, best->n == 1 ? "" : "s");
        for (int j = 0; j < best->n && n < sizeof desc; j++)
            n += (size_t)snprintf(desc + n, sizeof desc - n, "%s%s", j ? "; " : ": ", notes[j]);
        snprintf(header, sizeof header,
                 "# Written by foh tune (%d players, seats %s, seed %llu, %ld games per evaluation).\n"
                 "# Play it with --variant %s%s.\n",
                 T->o.players, T->o.seats, (unsigned long long)T->o.seed, G, T->out,
                 T->nmerged ? " instead of the merged variants (it holds their numbers)" : "");
        if (write_variant(T, best, T->out, name, desc, notes, header))
            printf("\nwrote %s/variant.yaml\n", T->out);
        else
            status = CLI_DATA;
    }
    free(notes);
    if (status == CLI_OK && T->verify_games > 0 && !best->n)
        printf("verification skipped: no change to verify\n");
    /* Verification on fresh seeds. */
    if (status == CLI_OK && T->verify_games > 0 && best->n > 0) {
        prediction pred[5 + 3 * MAX_CHANGES];
        int np = predictions_of(T, base, best, pred);
        tuner V = *T;
        V.o.seed = T->o.seed + VERIFY_SEED_OFFSET;
        V.stage = "verification";
        candidate *vb = new_candidate(&V, cand, NULL, (change){-1, 0});
        candidate *vt = vb ? new_candidate(&V, cand, best, (change){-1, 0}) : NULL;
        if (!vt)
            return CLI_DATA;
        candidate *both[2] = {vb, vt};
        if ((st = evaluate(&V, both, 2, T->verify_games)) != CLI_OK)
            return st;
        if (vb->failed || vt->failed) {
            clear_progress(T);
            cli_error("tune", "verification: %s", vb->failed ? vb->why : vt->why);
            return CLI_DATA;
        }
        clear_progress(T);
        printf("\nverification: base and tuned on fresh seeds (seed %llu, %ld games each):\n",
               (unsigned long long)V.o.seed, T->verify_games);
        print_metrics(T, stdout, "base", vb);
        print_metrics(T, stdout, "tuned", vt);
        int held = 0, nv = 0;
        printf("paired differences tuned - base, game by game on the same seeds; held: the measured one within the "
               "prediction interval\n");
        printf("%-34s %23s %18s %23s\n", "effect (tuned - base)", "predicted [95% CI]", "[95% PI]",
               "measured [95% CI]");
        for (int i = 0; i < np; i++) {
            tune_pair pp, mp;
            double xa, xb;
            if (!paired_figure(T, base, best, pred[i].f, pred[i].card, &pp, &xa, &xb))
                continue;
            if (!paired_figure(T, vb, vt, pred[i].f, pred[i].card, &mp, &xa, &xb)) {
                printf("%-34s %+7.2f [%+6.2f, %+6.2f] %18s %23s\n", pred[i].what, pp.diff,
                       pp.diff - Z95 * sqrt(pp.var), pp.diff + Z95 * sqrt(pp.var), "", "not measured");
                continue;
            }
            /* A prediction interval for the new paired measurement: the
             * search's variance of the difference and the verification's. */
            double hc = Z95 * sqrt(pp.var), h = Z95 * sqrt(pp.var + mp.var), hm = Z95 * sqrt(mp.var);
            int ok = fabs(mp.diff - pp.diff) <= h;
            held += ok;
            nv++;
            printf("%-34s %+7.2f [%+6.2f, %+6.2f] [%+6.2f, %+6.2f] %+7.2f [%+6.2f, %+6.2f] %s\n", pred[i].what,
                   pp.diff, pp.diff - hc, pp.diff + hc, pp.diff - h, pp.diff + h, mp.diff, mp.diff - hm,
                   mp.diff + hm, ok ? "held" : "missed");
        }
        printf("%d of %d predictions held\n", held, nv);
        double vmiss = vt->loss - T->change_cost * vt->n;
        printf("on the fresh seeds the tuned variant %s the targets (miss %.2f; base %.2f)\n",
               vmiss <= 0 ? "meets" : "misses", vmiss, vb->loss);
        if (T->out) {
            printf("the same comparison, figure by figure: foh compare --players %d --seats %s --games %ld "
                   "--seed %llu",
                   T->o.players, T->o.seats, T->verify_games, (unsigned long long)V.o.seed);
            for (int i = 0; i < T->o.nvariants; i++)
                printf(" --a-variant %s --b-variant %s", T->o.variant[i], T->o.variant[i]);
            for (int i = 0; i < T->nmerged; i++)
                printf(" --a-variant %s", T->merged_name[i]);
            printf(" --b-variant %s\n", T->out);
        }
    }
    return status;
}

/* The run's description a shard file carries (tools/tune/tune_shard.h): every
 * option that shapes the search, so that the shards of one run agree and
 * the merge rebuilds the same tuner. NULL if out of memory. */
static json_t *run_json(const tuner *T, const candidate *base)
{
    json_t *og = json_object(), *pat = json_array();
    if (og && !origin_write(og, T->og)) {
        json_decref(og);
        og = NULL;
    }
    for (int i = 0; pat && i < T->npatterns; i++)
        json_array_append_new(pat, json_string(T->patterns[i]));
    json_t *tg = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f}", "seat_spread", T->tg.seat_spread, "start_spread",
                           T->tg.start_spread, "card_band", T->tg.card_band, "impact_band", T->tg.impact_band,
                           "length_lo", T->tg.length_lo, "length_hi", T->tg.length_hi);
    json_t *lim = json_pack("{s:I,s:I,s:I}", "instructions", (json_int_t)T->o.limits.instructions, "memory_bytes",
                            (json_int_t)T->o.limits.memory_bytes, "time_ms", (json_int_t)T->o.limits.time_ms);
    return json_pack("{s:o*,s:o*,s:i,s:s,s:I,s:I,s:i,s:b,s:o*,s:o*,s:I,s:i,s:f,s:o*,s:i,s:i}", "origin", og,
                     "sources", origin_sources(base->cs), "players",
                     T->o.players, "seats", T->o.seats, "seed", (json_int_t)T->o.seed, "games", (json_int_t)T->o.games,
                     "card_count", foh_cardset_card_count(base->cs), "impact", T->tg.impact_band >= 0, "targets", tg,
                     "tunable", pat, "budget", (json_int_t)T->budget, "max_changes", T->max_changes, "change_cost",
                     T->change_cost, "limits", lim, "tunables", T->ntun, "single_changes", T->nvalues_total);
}

/* A candidate as the shard file holds it (pointers into C: nothing copied). */
static tune_shard_cand shard_cand(const tuner *T, const candidate *c)
{
    tune_shard_cand s = {.path = c->n ? T->tun[c->ch[0].t].path : NULL,
                         .value = c->n ? c->ch[0].value : 0,
                         .rec = c->rec,
                         .st = c->st};
    return s;
}

/* --shard i/n --save-shard FILE: write the base and the survivors of this
 * shard's screening at G games. A CLI status. */
static int save_shard(tuner *T, candidate *base, candidate **alive, int nalive)
{
    long G = T->o.games;
    tune_shard_cand *surv = calloc((size_t)(nalive ? nalive : 1), sizeof *surv);
    json_t *run = run_json(T, base);
    int n = 0;
    if (!surv || !run) {
        free(surv);
        json_decref(run);
        cli_error("tune", "out of memory");
        return CLI_DATA;
    }
    for (int i = 0; i < nalive; i++)
        if (alive[i]->games == G && !alive[i]->failed)
            surv[n++] = shard_cand(T, alive[i]);
    tune_shard_cand b = shard_cand(T, base);
    int ok = tune_shard_write(T->o.save_shard, run, T->o.shard, T->o.shards, T->spent - G, &b, surv, n);
    free(surv);
    json_decref(run);
    if (!ok)
        return CLI_DATA;
    printf("\nshard %d of %d: %d single change%s reached %ld games, %ld games played (the base's %ld and the "
           "screening's %ld) in %.0f s\nwrote %s: merge the %d shard files with foh tune --merge FILE...\n",
           T->o.shard, T->o.shards, n, n == 1 ? "" : "s", G, T->spent, G, T->spent - G, cli_now_s() - T->started,
           T->o.save_shard, T->o.shards);
    return CLI_OK;
}

/* One run on this machine, or one shard of it (--shard i/n --save-shard). */
static int run(tuner *T, candidates *cand)
{
    candidate *base = NULL;
    int st = prepare(T, cand, &base);
    if (st != CLI_OK)
        return st;
    T->stage = "base";
    if ((st = evaluate(T, &base, 1, T->o.games)) != CLI_OK)
        return st;
    if (base->failed) {
        clear_progress(T);
        cli_error("tune", "the base game does not play: %s", base->why);
        return CLI_DATA;
    }
    base_ready(T, base);
    candidate **alive = NULL;
    int nalive = 0;
    if (base->loss > 0 && (st = stage1(T, cand, base, &alive, &nalive)) != CLI_OK)
        return st;
    st = T->o.save_shard ? save_shard(T, base, alive, nalive) : finish(T, cand, base, alive, nalive);
    free(alive);
    return st;
}

/* The number KEY of the run description RUN (of FILE) within [LO, HI]; 0 after saying what is wrong. */
static int run_number(json_t *run, const char *file, const char *key, double lo, double hi, double *out)
{
    json_t *v = json_object_get(run, key);
    if (!json_is_number(v) || json_number_value(v) < lo || json_number_value(v) > hi) {
        cli_error("tune", "%s: run.%s: must be a number from %g to %g", file, key, lo, hi);
        return 0;
    }
    *out = json_number_value(v);
    return 1;
}

/* Set T's options and targets to those of the run description RUN (of
 * FILE), the first shard file's. 0 after saying what is wrong. */
static int tuner_from_run(tuner *T, json_t *run, const char *file)
{
    double x;
    char why[ORIGIN_PATH + 64];
    json_t *og = json_object_get(run, "origin"), *tg = json_object_get(run, "targets");
    json_t *pat = json_object_get(run, "tunable"), *lim = json_object_get(run, "limits");
    if (!(T->og = malloc(sizeof *T->og))) {
        cli_error("tune", "out of memory");
        return 0;
    }
    if (!json_is_object(og) || !origin_read(og, T->og, why, sizeof why)) {
        cli_error("tune", "%s: run.origin: %s", file, json_is_object(og) ? why : "must be an object");
        return 0;
    }
    origin_apply(T->og, &T->o);
    if (!json_is_string(json_object_get(run, "seats")) || !json_is_integer(json_object_get(run, "seed"))) {
        cli_error("tune", "%s: run.seats and run.seed: must be a string and a whole number", file);
        return 0;
    }
    T->o.seats = json_string_value(json_object_get(run, "seats"));
    T->o.seed = (uint64_t)json_integer_value(json_object_get(run, "seed"));
    T->o.players = (int)json_integer_value(json_object_get(run, "players")); /* checked by tune_shard_read */
    T->o.games = (long)json_integer_value(json_object_get(run, "games"));
    /* The seats as --seats reads them (cli_seats: the same specs, the same caps). */
    foh_player *probe[FOH_MAX_PLAYERS];
    if (T->o.players < 1 || T->o.players > FOH_MAX_PLAYERS || !cli_seats(&T->o, 0, probe)) {
        cli_error("tune", "%s: run.seats: '%s' is refused as --seats (above)", file, T->o.seats);
        return 0;
    }
    cli_free_seats(probe, T->o.players);
    if (T->o.games < 8) {
        cli_error("tune", "%s: run.games: at least 8 games per evaluation", file);
        return 0;
    }
    static const char *const TG[] = {"seat_spread", "start_spread", "card_band", "impact_band", "length_lo",
                                     "length_hi"};
    double *tgv[] = {&T->tg.seat_spread, &T->tg.start_spread, &T->tg.card_band, &T->tg.impact_band,
                     &T->tg.length_lo, &T->tg.length_hi};
    if (!json_is_object(tg)) {
        cli_error("tune", "%s: run.targets: must be an object", file);
        return 0;
    }
    /* Each as --target reads it (target_check), -1: no such target. */
    static const char *const TG_OPT[] = {"seat-spread", "start-spread", "card-band", "impact-band", "length",
                                         "length"};
    for (size_t i = 0; i < sizeof TG / sizeof TG[0]; i++) {
        json_t *v = json_object_get(tg, TG[i]);
        if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < -1) {
            cli_error("tune", "%s: run.targets.%s: must be a number (-1: no such target)", file, TG[i]);
            return 0;
        }
        *tgv[i] = json_number_value(v);
    }
    for (size_t i = 0; i < sizeof TG / sizeof TG[0] - 1; i++) {
        int length = !strcmp(TG[i], "length_lo");
        double lo = *tgv[i], hi = length ? *tgv[i + 1] : -1;
        char twhy[160];
        if ((lo != -1 || (length && hi != -1)) && target_check(TG_OPT[i], strlen(TG_OPT[i]), lo, hi, twhy,
                                                               sizeof twhy) != 1) {
            if (length)
                cli_error("tune", "%s: run.targets.length_lo and length_hi: %g..%g, refused as --target length: %s",
                          file, lo, hi, twhy);
            else
                cli_error("tune", "%s: run.targets.%s: %g, refused as --target %s: %s", file, TG[i], lo, TG_OPT[i],
                          twhy);
            return 0;
        }
    }
    if (!json_is_array(pat) || json_array_size(pat) > MAX_PATTERNS) {
        cli_error("tune", "%s: run.tunable: must be a list of at most %d patterns", file, MAX_PATTERNS);
        return 0;
    }
    for (size_t i = 0; i < json_array_size(pat); i++) {
        if (!json_is_string(json_array_get(pat, i))) {
            cli_error("tune", "%s: run.tunable[%zu]: must be a pattern (a string)", file, i);
            return 0;
        }
        T->patterns[T->npatterns++] = json_string_value(json_array_get(pat, i));
    }
    if (!run_number(run, file, "budget", 1, 1e8, &x))
        return 0;
    T->budget = (long)x;
    if (!run_number(run, file, "max_changes", 1, MAX_CHANGES, &x))
        return 0;
    T->max_changes = (int)x;
    if (!run_number(run, file, "change_cost", 0, 1000, &T->change_cost))
        return 0;
    json_t *li = json_object_get(lim, "instructions"), *lm = json_object_get(lim, "memory_bytes"),
           *lt = json_object_get(lim, "time_ms");
    if (!json_is_integer(li) || !json_is_integer(lm) || !json_is_integer(lt) || json_integer_value(li) < 0 ||
        json_integer_value(lm) < 0 || json_integer_value(lt) < 0) {
        cli_error("tune", "%s: run.limits: must hold whole numbers instructions, memory_bytes and time_ms, 0 or "
                  "more (0: the default)", file);
        return 0;
    }
    /* 0 (the default) or within the command line's range. */
    const struct {
        const char *name, *option;
        json_int_t v, lo, hi;
    } L[] = {
        {"instructions", "--lua-instructions", json_integer_value(li), CLI_MIN_LUA_INSTRUCTIONS,
         CLI_MAX_LUA_INSTRUCTIONS},
        {"memory_bytes", "--lua-memory (MiB) x 2^20", json_integer_value(lm), (json_int_t)1 << 20,
         (json_int_t)CLI_MAX_LUA_MEMORY_MIB << 20},
        {"time_ms", "--action-time", json_integer_value(lt), 1, CLI_MAX_ACTION_TIME_MS},
    };
    for (size_t i = 0; i < sizeof L / sizeof L[0]; i++)
        if (L[i].v != 0 && (L[i].v < L[i].lo || L[i].v > L[i].hi)) {
            cli_error("tune", "%s: run.limits.%s: %lld, outside %lld..%lld as %s takes it (0: the default)", file,
                      L[i].name, (long long)L[i].v, (long long)L[i].lo, (long long)L[i].hi, L[i].option);
            return 0;
        }
    T->o.limits.instructions = (long)json_integer_value(li);
    T->o.limits.memory_bytes = (size_t)json_integer_value(lm);
    T->o.limits.time_ms = (long)json_integer_value(lt);
    return 1;
}

/* Move the games and sums of C (read from a shard file) into candidate D, played to G games. */
static void take_games(tuner *T, candidate *d, tune_shard_cand *c, long G)
{
    tune_games_free(&d->rec);
    d->rec = c->rec;
    memset(&c->rec, 0, sizeof c->rec);
    memcpy(d->st, c->st, sizeof *d->st);
    d->games = G;
    update_loss(T, d);
}

/* --merge FILE...: the shards' files describe one run (each part once, all
 * present); the base and the survivors of their screening are loaded, and
 * the search goes on with stage 2 here. A CLI status. */
/* The first field of the run description RUN that run_json does not write, or NULL. */
static const char *run_unknown_key(json_t *run)
{
    static const char *const RUN_KEYS[] = {"origin", "sources", "players", "seats", "seed", "games", "card_count",
                                           "impact", "targets", "tunable", "budget", "max_changes", "change_cost", "limits",
                                           "tunables", "single_changes"};
    const char *key;
    json_t *val;
    json_object_foreach(run, key, val)
    {
        size_t k = 0;
        while (k < sizeof RUN_KEYS / sizeof RUN_KEYS[0] && strcmp(RUN_KEYS[k], key))
            k++;
        if (k == sizeof RUN_KEYS / sizeof RUN_KEYS[0])
            return key;
    }
    return NULL;
}

static int run_merge(tuner *T, candidates *cand)
{
    int nf = T->nfiles, st = CLI_DATA;
    tune_shard *sh = calloc((size_t)nf, sizeof *sh);
    int *part = NULL; /* part[i - 1]: the file holding shard i */
    candidate **alive = NULL, *base = NULL;
    if (!sh) {
        cli_error("tune", "out of memory");
        return CLI_DATA;
    }
    for (int f = 0; f < nf; f++) {
        if (!tune_shard_read(T->files[f], &sh[f]))
            goto done;
        const char *key = run_unknown_key(sh[f].run);
        if (key) {
            cli_error("tune", "%s: run.%s: unknown field (a file of another version of foh, or edited?)",
                      T->files[f], key);
            goto done;
        }
        json_t *src = json_object_get(sh[f].run, "sources");
        char why[ORIGIN_PATH + 256];
        if (origin_sources_differ(src, src, T->files[f], T->files[f], why, sizeof why)) { /* a malformed list */
            cli_error("tune", "%s: run.%s", T->files[f], why);
            goto done;
        }
    }
    int n = sh[0].shards;
    if (!(part = malloc((size_t)n * sizeof *part))) {
        cli_error("tune", "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++)
        part[i] = -1;
    /* The run most files describe (ties: the first file's): a file that differs from it is named. */
    int major = 0, most = 0;
    for (int f = 0; f < nf; f++) {
        int same = 0;
        for (int g = 0; g < nf; g++)
            same += json_equal(sh[f].run, sh[g].run);
        if (same > most) {
            most = same;
            major = f;
        }
    }
    for (int f = 0; f < nf; f++) {
        /* The card set's files first: the message names the one that differs. */
        char why[ORIGIN_PATH + 256];
        if (origin_sources_differ(json_object_get(sh[major].run, "sources"), json_object_get(sh[f].run, "sources"),
                                  T->files[major], T->files[f], why, sizeof why)) {
            cli_error("tune", "%s: made from other contents of the card set than %s: %s", T->files[f],
                      T->files[major], why);
            goto done;
        }
        const char *key = tune_shard_run_differs(sh[f].run, sh[major].run);
        if (key) {
            cli_error("tune", "%s: another run than %s's%s: run.%s differs (or the file was edited)", T->files[f],
                      T->files[major], most > 1 ? " (and the other files')" : "", key);
            goto done;
        }
        if (sh[f].shards != n) {
            cli_error("tune", "%s: shard %d of %d, while %s is one of %d", T->files[f], sh[f].shard, sh[f].shards,
                      T->files[0], n);
            goto done;
        }
        if (part[sh[f].shard - 1] >= 0) {
            cli_error("tune", "%s: shard %d of %d, the same part as %s", T->files[f], sh[f].shard, n,
                      T->files[part[sh[f].shard - 1]]);
            goto done;
        }
        part[sh[f].shard - 1] = f;
    }
    for (int i = 0; i < n; i++)
        if (part[i] < 0) {
            cli_error("tune", "shard %d of %d is missing: its single changes would never be tried (give every "
                      "shard's file)", i + 1, n);
            goto done;
        }
    const char *first = T->files[part[0]];
    if (!tuner_from_run(T, sh[part[0]].run, first))
        goto done;
    long G = T->o.games;
    if (T->verify_games < 0)
        T->verify_games = G;
    if ((st = prepare(T, cand, &base)) != CLI_OK)
        goto done;
    st = CLI_DATA;
    json_t *run = sh[0].run, *now = origin_sources(base->cs);
    char why[ORIGIN_PATH + 256];
    if (!now || origin_sources_differ(json_object_get(run, "sources"), now, first, "the card set now", why,
                                      sizeof why)) {
        cli_error("tune", "%s: its card set has changed since the shards were made: %s", first,
                  now ? why : "out of memory");
        json_decref(now);
        goto done;
    }
    json_decref(now);
    if (foh_cardset_card_count(base->cs) != sh[0].ncards ||
        json_integer_value(json_object_get(run, "tunables")) != T->ntun ||
        json_integer_value(json_object_get(run, "single_changes")) != T->nvalues_total) {
        cli_error("tune", "%s: the shards' card set had %d cards, %lld tunables and %lld single changes; here it "
                  "has %d, %d and %d: the card data differ", first, sh[0].ncards,
                  (long long)json_integer_value(json_object_get(run, "tunables")),
                  (long long)json_integer_value(json_object_get(run, "single_changes")),
                  foh_cardset_card_count(base->cs), T->ntun, T->nvalues_total);
        goto done;
    }
    /* Every shard played the same base games; this machine plays its first ones the same. */
    for (int i = 1; i < n; i++) {
        long g;
        if (!tune_games_equal(&sh[part[0]].base.rec, &sh[part[i]].base.rec, G, &g)) {
            cli_error("tune", "%s: the base's game %ld differs from %s's: the shards did not play the same games "
                      "(another version of foh or of the card data, or an edited file?)", T->files[part[i]], g + 1, first);
            goto done;
        }
    }
    long check = G < 8 ? G : 8, g;
    candidate *probe = new_candidate(T, cand, NULL, (change){-1, 0});
    T->stage = "checking the base";
    if (!probe || (st = evaluate(T, &probe, 1, check)) != CLI_OK)
        goto done;
    st = CLI_DATA;
    T->spent = 0;
    if (probe->failed || !tune_games_equal(&probe->rec, &sh[part[0]].base.rec, check, &g)) {
        clear_progress(T);
        cli_error("tune", "the base's game %ld played here differs from the shards' (%s): another version of foh "
                  "or of the card data?%s%s", probe->failed ? 1 : g + 1, first, probe->failed ? " " : "",
                  probe->failed ? probe->why : "");
        goto done;
    }
    drop_candidate(probe);
    clear_progress(T);
    printf("merged %d shard%s (the base's games 1..%ld played again here: the same)\n", n, n == 1 ? "" : "s",
           check);
    take_games(T, base, &sh[part[0]].base, G);
    base_ready(T, base);
    /* The survivors, shard by shard in order, each a single change of this run's tunables. */
    int total = 0, nalive = 0;
    long spent = 0;
    for (int i = 0; i < n; i++)
        total += sh[part[i]].nsurv;
    if (!(alive = calloc((size_t)(total ? total : 1), sizeof *alive))) {
        cli_error("tune", "out of memory");
        goto done;
    }
    /* What each shard screened: its share of the single changes, at most all of them surviving, at least
     * round 1's games each and at most the whole halving's. */
    int rounds;
    long n0;
    int screened = screening_size(T, T->nvalues_total, T->budget - G, &rounds, &n0);
    for (int i = 0; i < n; i++) {
        tune_shard *s = &sh[part[i]];
        int mine = shard_share(screened, i + 1, n);
        long least = (long)mine * (rounds > 1 ? n0 : G), most_games = halving_cost(mine, rounds, n0, G);
        if (s->nsurv > mine || s->spent < least || s->spent > most_games) {
            cli_error("tune", "%s: %d survivor%s and %ld games spent, while shard %d of %d screens %d single "
                      "change%s (%ld to %ld games): the file may have been edited", T->files[part[i]], s->nsurv,
                      s->nsurv == 1 ? "" : "s", s->spent, i + 1, n, mine, mine == 1 ? "" : "s", least, most_games);
            goto done;
        }
    }
    for (int i = 0; i < n; i++) {
        tune_shard *s = &sh[part[i]];
        int from = nalive; /* this shard's survivors: alive[from, nalive) */
        spent += s->spent;
        for (int k = 0; k < s->nsurv; k++) {
            int t = 0;
            while (t < T->ntun && strcmp(T->tun[t].path, s->surv[k].path))
                t++;
            int v = s->surv[k].value;
            if (t == T->ntun || v < T->tun[t].lo || v > T->tun[t].hi || v == T->tun[t].base) {
                cli_error("tune", "%s: survivors[%d]: %s = %d is not a single change of this run", T->files[part[i]],
                          k, s->surv[k].path, v);
                goto done;
            }
            for (int j = 0; j < nalive; j++)
                if (alive[j]->ch[0].t == t && alive[j]->ch[0].value == v) {
                    cli_error("tune", "%s: survivors[%d]: %s = %d %s", T->files[part[i]], k, s->surv[k].path, v,
                              j >= from ? "is twice in this shard" : "was screened by another shard too");
                    goto done;
                }
            candidate *c = new_candidate(T, cand, NULL, (change){t, v});
            if (!c)
                goto done;
            take_games(T, c, &s->surv[k], G);
            alive[nalive++] = c;
        }
        printf("shard %d of %d (%s): %d single change%s at %ld games, %ld games screened\n", i + 1, n,
               T->files[part[i]], s->nsurv, s->nsurv == 1 ? "" : "s", G, s->spent);
    }
    qsort(alive, (size_t)nalive, sizeof *alive, by_loss);
    /* The budget as one run counts it: the base once, then the screening of every shard. */
    T->spent = G + spent;
    st = finish(T, cand, base, alive, nalive);
done:
    free(alive);
    free(part);
    for (int f = 0; f < nf; f++)
        tune_shard_free(&sh[f]);
    free(sh);
    return st;
}

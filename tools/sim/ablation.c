/* Card ablation for foh sim: --without CARD and --ablation (docs/impact.md).
 * A card is taken out of the game by a variant written to a temporary
 * folder (`cards: remove: [ID]`, docs/variants.md), loaded, then deleted:
 * the engine is not touched. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "sim/impact.h"
#include "sim/sim.h"
#include "sim/sim_stats.h"

#define Z95 1.96

/* Write a variant removing the N cards IDS into a new temporary folder,
 * whose path goes to DIR (LEN bytes). 0 after saying why not. */
static int write_variant(const char *const *ids, int n, char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if ((size_t)snprintf(dir, len, "%s/foh-without-XXXXXX", tmp) >= len || !mkdtemp(dir)) {
        cli_error("sim", "cannot make a temporary folder in %s for the variant removing the card(s): %s", tmp,
                  strerror(errno));
        return 0;
    }
    char path[1200], name[64];
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    if (n == 1 && strlen(ids[0]) + 8 < 48)
        snprintf(name, sizeof name, "without %s", ids[0]);
    else
        snprintf(name, sizeof name, "without %d cards", n);
    FILE *f = cli_create(path);
    if (!f) {
        cli_error("sim", "cannot write %s: %s", path, strerror(errno));
        rmdir(dir);
        return 0;
    }
    fprintf(f, "name: \"%s\"\ndescription: \"foh sim: cards taken out of the game\"\ncards:\n  remove: [", name);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", ids[i]);
    fprintf(f, "]\n");
    if (fclose(f) != 0) {
        cli_error("sim", "cannot write %s", path);
        unlink(path);
        rmdir(dir);
        return 0;
    }
    return 1;
}

static void remove_variant(const char *dir)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    unlink(path);
    rmdir(dir);
}

/* WHY (LEN bytes) from the loader's message MSG on removing the N cards
 * IDS: "LOCATION: FIELD: unknown card 'ID'" means a game file names the
 * card (game.yaml's setup.deck_bottom names The Future): say so, as such a
 * card cannot be removed; else MSG. */
static void explain(const char *msg, const char *const *ids, int n, char *why, size_t len)
{
    for (int i = 0; i < n; i++) {
        char tail[128];
        snprintf(tail, sizeof tail, ": unknown card '%s'", ids[i]);
        const char *at = strstr(msg, tail);
        if (!at || at[strlen(tail)] != '\0')
            continue;
        /* The field is the text between the last ": " before AT and AT. */
        const char *field = NULL;
        for (const char *p = msg; p < at; p++)
            if (p[0] == ':' && p[1] == ' ')
                field = p + 2;
        const char *file = msg, *slash = NULL;
        for (const char *p = msg; field && p < field; p++)
            if (*p == '/')
                slash = p + 1;
        if (slash)
            file = slash;
        if (field && field > msg + 2)
            snprintf(why, len, "the card '%s' cannot be removed: %.*s names it (%.*s; %.*s)", ids[i],
                     (int)(strcspn(file, ":")), file, (int)(at - field), field, (int)(field - 2 - msg), msg);
        else
            snprintf(why, len, "the card '%s' cannot be removed: the game files name it (%s)", ids[i], msg);
        return;
    }
    snprintf(why, len, "%s", msg);
}

/* Load O's card set with one more variant removing the N cards IDS; the
 * card set, or NULL with the reason in WHY. */
static foh_cardset *load_without(const cli_options *o, const char *const *ids, int n, char *why, size_t len)
{
    if (o->nvariants >= CLI_MAX_VARIANTS) {
        snprintf(why, len, "removing cards takes a variant, and %d are given already (the most)", o->nvariants);
        return NULL;
    }
    cli_options *o2 = malloc(sizeof *o2);
    if (!o2) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    *o2 = *o;
    char *dir = o2->variant_dir[o2->nvariants];
    if (!write_variant(ids, n, dir, sizeof o2->variant_dir[0])) {
        snprintf(why, len, "cannot write the variant removing the card(s)");
        free(o2);
        return NULL;
    }
    o2->variant[o2->nvariants++] = dir;
    cli_sources src;
    cli_sources_of(o2, &src);
    foh_error err;
    foh_cardset *cs = foh_cardset_load_sets(src.sets, src.nsets, src.variants, src.nvariants, src.search,
                                            src.nsearch, &err);
    if (!cs)
        explain(err.msg, ids, n, why, len);
    remove_variant(dir);
    free(o2);
    return cs;
}

foh_cardset *sim_load_without(const cli_options *o, const foh_cardset *base, int *status)
{
    *status = CLI_USAGE;
    for (int i = 0; i < o->nwithout; i++)
        if (foh_cardset_find(base, o->without[i]) < 0) {
            cli_error("sim", "--without: the card set has no card '%s' (card ids as in the card files)",
                      o->without[i]);
            return NULL;
        }
    *status = CLI_DATA;
    char why[1200];
    foh_cardset *cs = load_without(o, o->without, o->nwithout, why, sizeof why);
    if (!cs)
        cli_error("sim", "--without: %s", why);
    return cs;
}

/* ---- --ablation ---- */

typedef struct {
    double value, var; /* a mean and the variance of that mean */
} mean;

static mean mean_of(long n, long sum, long sq)
{
    mean m = {0, 0};
    if (n <= 0)
        return m;
    m.value = (double)sum / n;
    double v = n > 1 ? ((double)sq - n * m.value * m.value) / (n - 1) : 0;
    m.var = n > 1 && v > 0 ? v / n : 0;
    return m;
}

/* The figures compared: game length, score, winner's score, stalled share. */
#define FIGURES 4
static void figures(const sim_stats *s, mean *f)
{
    f[0] = mean_of(s->games, s->turns_sum, s->turns_sq);
    f[1] = mean_of(s->total_player_games, s->all_sum, s->all_sq);
    f[2] = mean_of(s->winner_n, s->winner_sum, s->winner_sq);
    double p = s->games ? (double)s->stalled / s->games : 0;
    f[3] = (mean){100 * p, s->games ? 1e4 * p * (1 - p) / s->games : 0};
}

/* Largest minus smallest seat win rate, in points of %. */
static double seat_spread(const sim_stats *s, int players)
{
    double lo = 1e9, hi = -1e9;
    for (int p = 0; p < players; p++) {
        double r = s->games ? 100.0 * s->win_units[p] / WIN_UNITS / s->games : 0;
        lo = r < lo ? r : lo;
        hi = r > hi ? r : hi;
    }
    return hi - lo;
}

typedef struct {
    int card;
    int ok;
    long pairs; /* games played in both runs */
    char why[700];
    double diff[FIGURES], half[FIGURES], spread, key;
} ablation_row;

/* The change of each figure without the card (B) minus with it (A), paired
 * on the N game seeds: the mean over the games played in both runs of the
 * game's difference, with a 95% interval from the differences' spread
 * (length in turns; score: the players' mean, VP; winner's score: the
 * winners' mean, VP; stalled: points of %). Summed in game order, so the
 * same for any number of threads. */
static void paired_change(const sim_outcome *a, const sim_outcome *b, long n, int players, ablation_row *r)
{
    double sum[FIGURES] = {0}, sq[FIGURES] = {0};
    long m = 0;
    for (long i = 0; i < n; i++) {
        if (!a[i].played || !b[i].played || !a[i].winners || !b[i].winners)
            continue;
        double d[FIGURES] = {
            b[i].turns - a[i].turns,
            (double)(b[i].score_sum - a[i].score_sum) / players,
            (double)b[i].winner_sum / b[i].winners - (double)a[i].winner_sum / a[i].winners,
            100.0 * (b[i].stalled - a[i].stalled),
        };
        for (int k = 0; k < FIGURES; k++) {
            sum[k] += d[k];
            sq[k] += d[k] * d[k];
        }
        m++;
    }
    r->pairs = m;
    r->key = 0;
    for (int k = 0; k < FIGURES; k++) {
        double avg = m ? sum[k] / m : 0, var = m > 1 ? (sq[k] - m * avg * avg) / (m - 1) : 0;
        double se = m > 1 && var > 0 ? sqrt(var / m) : 0;
        r->diff[k] = avg;
        r->half[k] = Z95 * se;
        double z = se > 0 ? fabs(avg) / se : 0;
        if (k < 3 && z > r->key)
            r->key = z;
    }
}

static int by_key(const void *a, const void *b)
{
    const ablation_row *x = a, *y = b;
    if (x->ok != y->ok)
        return y->ok - x->ok;
    if (x->key != y->key)
        return x->key < y->key ? 1 : -1;
    return x->card - y->card;
}

int sim_ablation(const cli_options *o, const foh_cardset *cs)
{
    int ncards = foh_cardset_card_count(cs);
    long games = o->games * o->shard / o->shards - o->games * (o->shard - 1) / o->shards;
    sim_stats *base = calloc(1, sizeof *base), *st = calloc(1, sizeof *st);
    ablation_row *rows = calloc((size_t)ncards, sizeof *rows);
    sim_outcome *with = calloc((size_t)(games > 0 ? games : 1), sizeof *with);
    sim_outcome *without_out = calloc((size_t)(games > 0 ? games : 1), sizeof *without_out);
    /* The card runs leave out the decision-time block: the first run's is
     * printed, then the time of all the runs. */
    cli_options *quiet = malloc(sizeof *quiet);
    double start = cli_now_s();
    int ok = base && st && rows && with && without_out && quiet;
    if (quiet) {
        *quiet = *o;
        quiet->quiet_timing = 1;
    }
    int status = ok ? sim_run_outcomes(o, cs, base, NULL, with) : CLI_DATA;
    if (!ok)
        cli_error("sim", "out of memory");
    mean bf[FIGURES];
    if (status == CLI_OK)
        figures(base, bf);
    for (int c = 0; status == CLI_OK && c < ncards; c++) {
        ablation_row *r = &rows[c];
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        r->card = c;
        fprintf(stderr, "ablation: %d/%d without %s\n", c + 1, ncards, ci.id);
        /* The cards of --without stay out: the baseline is played without them. */
        const char *ids[CLI_MAX_VARIANTS + 1];
        for (int i = 0; i < o->nwithout; i++)
            ids[i] = o->without[i];
        ids[o->nwithout] = ci.id;
        foh_cardset *without = load_without(o, ids, o->nwithout + 1, r->why, sizeof r->why);
        const char *note;
        if (without && !foh_cardset_allows_players(without, o->players, &note)) {
            snprintf(r->why, sizeof r->why, "%d players are not allowed without it", o->players);
            foh_cardset_free(without);
            without = NULL;
        }
        if (!without)
            continue;
        memset(st, 0, sizeof *st);
        if (sim_run_outcomes(quiet, without, st, NULL, without_out) != CLI_OK || !st->games) {
            snprintf(r->why, sizeof r->why, "its games stop with an error without it (on stderr above)");
            foh_cardset_free(without);
            continue;
        }
        foh_cardset_free(without);
        r->ok = 1;
        paired_change(with, without_out, games, o->players, r);
        r->spread = seat_spread(st, o->players) - seat_spread(base, o->players);
    }
    if (status == CLI_OK)
        fprintf(stderr, "ablation: %d runs of %ld games in %.1f s\n", 1 + ncards, games, cli_now_s() - start);
    if (status == CLI_OK) {
        sim_print_header(stdout, base->games, o, cs);
        printf("ablation: the same %ld game seeds played once more without each card (a variant removing it);\n"
               "change without the card minus with it, paired by game seed: the mean of each game's difference\n"
               "with its 95%% CI (score: the players' mean; winner's score: the winners' mean); '*' where it\n"
               "excludes 0; sorted by the largest |change|/SE of length, score and winner's score\n",
               base->games);
        if (o->nwithout) {
            printf("with every card but");
            for (int i = 0; i < o->nwithout; i++)
                printf("%s %s", i ? "," : "", o->without[i]);
            printf(" (--without):");
        } else {
            printf("with every card:");
        }
        printf(" length %.2f turns, score %.2f, winner's score %.2f, stalled %.1f%%, seat spread %.1f points\n",
               bf[0].value, bf[1].value, bf[2].value, bf[3].value, seat_spread(base, o->players));
        qsort(rows, (size_t)ncards, sizeof *rows, by_key);
        printf("%-24s %23s %23s %23s %20s %17s\n", "without", "length (turns)", "score (VP)", "winner's score",
               "stalled (pts of %)", "spread (pts of %)");
        for (int i = 0; i < ncards; i++) {
            const ablation_row *r = &rows[i];
            foh_card_info ci;
            foh_cardset_card(cs, r->card, &ci);
            printf("%-24s", ci.name);
            if (!r->ok) {
                printf(" not playable without it: %s\n", r->why);
                continue;
            }
            for (int k = 0; k < FIGURES; k++) {
                int sig = fabs(r->diff[k]) > r->half[k] && r->half[k] > 0;
                printf(k == 3 ? " %+5.1f [%+5.1f,%+5.1f]%s" : " %+5.2f [%+5.2f,%+5.2f]%s", r->diff[k],
                       r->diff[k] - r->half[k], r->diff[k] + r->half[k], sig ? "*" : " ");
            }
            printf(" %+17.1f\n", r->spread);
        }
    }
    free(base);
    free(st);
    free(rows);
    free(with);
    free(without_out);
    free(quiet);
    return status;
}

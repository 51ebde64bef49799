/* any_report: foh sim's tables for a card set of any ruleset (any_report.h).
 *
 * Cards: for each card, the player-games in which a player played it and
 * the wins of those players (a shared win counts its share). A card's
 * players' win rate is compared with that of all cards' players (the
 * rate of a (card, player) pair drawn at random), not with 1/players:
 * players who play more cards win more, whatever the cards. Each rate has
 * its 95% Wilson interval; with many cards about one in twenty intervals
 * misses by chance, so a star marks only the rows whose interval at the
 * Bonferroni level (95% for all the rows together) excludes the overall
 * rate.
 *
 * Score lines: at the end of each game, each line's mean for the winners
 * and for the others, and their difference with a 95% interval (Welch's,
 * normal approximation). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "any/any_report.h"
#include "common/cli.h"
#include "sim/sim_stats.h"

#define ANY_MAX_LINES 16
#define ANY_MIN_GAMES 30 /* player-games before a card is shown among the best and worst */

typedef struct {
    long plays;
    double games, wins; /* player-games with the card played; their players' wins */
} tally;

typedef struct {
    char label[FOH_SCORE_LABEL];
    double n[2], sum[2], sq[2]; /* [0] the others, [1] the winners */
} line_tally;

struct any_report {
    const foh_cardset *cs;
    const foh_ruleset *rs;
    int players, ncards, nkinds, nlines;
    long games;
    tally *card, *kind;         /* per card; per kind (at most one kind a card) */
    int *kind_of;
    const char **kind_name;
    unsigned char *kind_played; /* scratch of any_report_game: a player played the kind */
    unsigned char *mark; /* [card * players + player]: played in this game */
    line_tally line[ANY_MAX_LINES];
};

any_report *any_report_new(const foh_cardset *cs, int players)
{
    any_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cs = cs;
    r->rs = foh_cardset_ruleset(cs);
    r->players = players;
    r->ncards = r->rs->card_count && r->rs->played_card ? r->rs->card_count(cs) : 0;
    size_t n = r->ncards > 0 ? (size_t)r->ncards : 1;
    r->card = calloc(n, sizeof *r->card);
    r->kind_of = calloc(n, sizeof *r->kind_of);
    r->mark = calloc(n * (size_t)players, 1);
    r->kind = calloc(n, sizeof *r->kind);
    r->kind_name = calloc(n, sizeof *r->kind_name);
    r->kind_played = calloc(n, 1);
    if (!r->card || !r->kind_of || !r->mark || !r->kind || !r->kind_name || !r->kind_played) {
        any_report_free(r);
        return NULL;
    }
    for (int c = 0; c < r->ncards; c++) {
        const char *k = r->rs->card_kind ? r->rs->card_kind(cs, c) : "card";
        int i = 0;
        while (i < r->nkinds && strcmp(r->kind_name[i], k))
            i++;
        if (i == r->nkinds)
            r->kind_name[r->nkinds++] = k;
        r->kind_of[c] = i;
    }
    return r;
}

void any_report_free(any_report *r)
{
    if (!r)
        return;
    free(r->card);
    free(r->kind_of);
    free(r->mark);
    free(r->kind);
    free(r->kind_name);
    free(r->kind_played);
    free(r);
}

static foh_status note_card(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    (void)err;
    any_report *r = ud;
    int c = r->rs->played_card(g, &d->action);
    if (c >= 0 && c < r->ncards && d->player >= 0 && d->player < r->players) {
        r->mark[(size_t)c * (size_t)r->players + (size_t)d->player] = 1;
        r->card[c].plays++;
        r->kind[r->kind_of[c]].plays++;
    }
    return FOH_OK;
}

foh_observer any_report_observer(any_report *r)
{
    foh_observer o = {.before = r->ncards ? note_card : NULL, .ud = r};
    return o;
}

foh_status any_report_game(any_report *r, foh_game *g, const double *results, foh_error *err)
{
    r->games++;
    for (int p = 0; p < r->players; p++) {
        unsigned char *kinds = r->kind_played;
        memset(kinds, 0, (size_t)(r->nkinds > 0 ? r->nkinds : 1));
        for (int c = 0; c < r->ncards; c++)
            if (r->mark[(size_t)c * (size_t)r->players + (size_t)p]) {
                r->card[c].games++;
                r->card[c].wins += results[p];
                kinds[r->kind_of[c]] = 1;
            }
        for (int k = 0; k < r->nkinds; k++)
            if (kinds[k]) {
                r->kind[k].games++;
                r->kind[k].wins += results[p];
            }
        foh_score_line lines[ANY_MAX_LINES];
        int n = foh_game_score_lines(g, p, lines, ANY_MAX_LINES, err);
        if (n < 0)
            return err->code;
        for (int i = 0; i < n; i++) {
            line_tally *t = &r->line[i];
            if (i >= r->nlines) {
                snprintf(t->label, sizeof t->label, "%s", lines[i].label);
                r->nlines = i + 1;
            }
            int w = results[p] > 0;
            t->n[w]++;
            t->sum[w] += lines[i].value;
            t->sq[w] += lines[i].value * lines[i].value;
        }
    }
    memset(r->mark, 0, (size_t)(r->ncards > 0 ? r->ncards : 1) * (size_t)r->players);
    return FOH_OK;
}

/* The standard normal quantile of P in (0, 1) (Acklam's approximation,
 * relative error under 1.2e-9): the z of a Bonferroni interval. */
static double normal_quantile(double p)
{
    static const double a[] = {-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690,
                               -30.66479806614716, 2.506628277459239};
    static const double b[] = {-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
                               -13.28068155288572};
    static const double c[] = {-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
                               4.374664141464968, 2.938163982698783};
    static const double d[] = {0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416};
    if (p < 0.02425) {
        double q = sqrt(-2 * log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - 0.02425)
        return -normal_quantile(1 - p);
    double q = p - 0.5, t = q * q;
    return (((((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4]) * t + a[5]) * q /
           (((((b[0] * t + b[1]) * t + b[2]) * t + b[3]) * t + b[4]) * t + 1);
}

/* The Wilson interval of P among N at Z standard deviations. */
static void wilson_z(double p, double n, double z, double *lo, double *hi)
{
    double z2 = z * z, mid = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    *lo = mid - half < 0 ? 0 : mid - half;
    *hi = mid + half > 1 ? 1 : mid + half;
}

/* The overall rate, the rows with data, and the Bonferroni z. */
static double overall(const any_report *r, int *rows, double *z)
{
    double games = 0, wins = 0;
    *rows = 0;
    for (int c = 0; c < r->ncards; c++) {
        games += r->card[c].games;
        wins += r->card[c].wins;
        *rows += r->card[c].games > 0;
    }
    *z = normal_quantile(1 - 0.025 / (*rows > 0 ? *rows : 1));
    return games > 0 ? wins / games : 0;
}

static int starred(const tally *t, double base, double z)
{
    double lo, hi;
    wilson_z(t->wins / t->games, t->games, z, &lo, &hi);
    return base < lo || base > hi;
}

static void print_row(FILE *out, const char *name, const tally *t, double games, double base, double z)
{
    double lo, hi;
    sim_wilson(t->wins / t->games, t->games, &lo, &hi);
    fprintf(out, "  %-28.28s %6.2f %8.0f   %5.1f%% [%5.1f%%, %5.1f%%] %+6.1f%s\n", name, (double)t->plays / games,
            t->games, 100 * t->wins / t->games, 100 * lo, 100 * hi, 100 * (t->wins / t->games - base),
            starred(t, base, z) ? " *" : "");
}

typedef struct {
    const any_report *r;
    int c;
} ranked;

static int compare_ranked(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    double ra = a->r->card[a->c].wins / a->r->card[a->c].games, rb = b->r->card[b->c].wins / b->r->card[b->c].games;
    return ra < rb ? 1 : ra > rb ? -1 : a->c - b->c;
}

static void print_cards(const any_report *r, FILE *out, double base, double z)
{
    ranked *order = malloc(sizeof *order * (size_t)(r->ncards > 0 ? r->ncards : 1));
    int n = 0;
    for (int c = 0; order && c < r->ncards; c++)
        if (r->card[c].games >= ANY_MIN_GAMES)
            order[n++] = (ranked){r, c};
    if (!order || n == 0) {
        free(order);
        return;
    }
    qsort(order, (size_t)n, sizeof *order, compare_ranked);
    fprintf(out, "cards: the players who played each card (cards played in %d player-games or more; the best and "
                 "worst ten; --json has every card)\n", ANY_MIN_GAMES);
    fprintf(out, "  %-28s %6s %8s   %-25s %6s\n", "card", "/game", "players", "their win rate [95%]", "vs all");
    for (int i = 0; i < n; i++)
        if (i < 10 || i >= n - 10) {
            if (i == 10 && n > 20)
                fprintf(out, "  ...\n");
            char name[64];
            cli_escape(r->rs->card_id(r->cs, order[i].c), name, sizeof name);
            print_row(out, name, &r->card[order[i].c], (double)r->games, base, z);
        }
    free(order);
}

void any_report_print(const any_report *r, FILE *out)
{
    if (r->games == 0)
        return;
    fprintf(out, "at the end of the game: winners against the others (mean, difference [95%%])\n");
    for (int i = 0; i < r->nlines; i++) {
        const line_tally *t = &r->line[i];
        if (t->n[0] < 2 || t->n[1] < 2)
            continue;
        double m[2], v[2];
        for (int w = 0; w < 2; w++) {
            m[w] = t->sum[w] / t->n[w];
            v[w] = (t->sq[w] - t->n[w] * m[w] * m[w]) / (t->n[w] - 1);
        }
        if (v[0] <= 0 && v[1] <= 0 && m[0] == m[1])
            continue; /* the same for every player of every game: nothing to compare */
        double se = sqrt((v[0] > 0 ? v[0] : 0) / t->n[0] + (v[1] > 0 ? v[1] : 0) / t->n[1]);
        char label[64];
        cli_escape(t->label, label, sizeof label);
        fprintf(out, "  %-20.20s winners %8.2f   others %8.2f   %+8.2f [%+.2f, %+.2f]\n", label, m[1], m[0], m[1] - m[0],
                m[1] - m[0] - 1.96 * se, m[1] - m[0] + 1.96 * se);
    }
    if (r->ncards == 0)
        return;
    int rows;
    double z, base = overall(r, &rows, &z);
    fprintf(out, "all cards' players win %.1f%%: each card a player played counts once, so players who play more "
                 "cards (often the winners) weigh more, and most rows fall below it; * : outside the interval at 95%% "
                 "for all %d rows together (Bonferroni)\n", 100 * base, rows);
    fprintf(out, "kinds of card: the players who played at least one (/game: plays a game; players: player-games with "
                 "one or more; vs all: their win rate minus all cards' players', in points)\n");
    fprintf(out, "  %-28s %6s %8s   %-25s %6s\n", "kind", "/game", "players", "their win rate [95%]", "vs all");
    for (int k = 0; k < r->nkinds; k++)
        if (r->kind[k].games > 0) {
            char name[64];
            cli_escape(r->kind_name[k], name, sizeof name);
            print_row(out, name, &r->kind[k], (double)r->games, base, z);
        }
    print_cards(r, out, base, z);
}

static json_t *tally_json(const char *name, const tally *t, double games, double base, double z)
{
    double lo = 0, hi = 0;
    if (t->games > 0)
        sim_wilson(t->wins / t->games, t->games, &lo, &hi);
    return json_pack("{s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:b}", "name", name, "plays", (json_int_t)t->plays,
                     "plays_per_game", (double)t->plays / games, "player_games", t->games, "win_rate",
                     t->games > 0 ? t->wins / t->games : 0, "low", lo, "high", hi, "outside_all_rows",
                     t->games > 0 && starred(t, base, z));
}

json_t *any_report_json(const any_report *r)
{
    int rows;
    double z, base = overall(r, &rows, &z), games = r->games > 0 ? (double)r->games : 1;
    json_t *lines = json_array(), *kinds = json_array(), *cards = json_array();
    for (int i = 0; i < r->nlines; i++) {
        const line_tally *t = &r->line[i];
        json_array_append_new(lines, json_pack("{s:s, s:f, s:f}", "label", t->label, "winners",
                                               t->n[1] > 0 ? t->sum[1] / t->n[1] : 0, "others",
                                               t->n[0] > 0 ? t->sum[0] / t->n[0] : 0));
    }
    for (int k = 0; k < r->nkinds; k++)
        json_array_append_new(kinds, tally_json(r->kind_name[k], &r->kind[k], games, base, z));
    for (int c = 0; c < r->ncards; c++)
        json_array_append_new(cards, tally_json(r->rs->card_id(r->cs, c), &r->card[c], games, base, z));
    return json_pack("{s:o, s:f, s:o, s:o}", "score_lines", lines, "all_cards_win_rate", base, "kinds", kinds,
                     "cards", cards);
}

int any_report_rate(const any_report *r, const char *name, int kind, double *rate, double *games)
{
    int n = kind ? r->nkinds : r->ncards;
    for (int i = 0; i < n; i++) {
        const tally *t = kind ? &r->kind[i] : &r->card[i];
        if (strcmp(kind ? r->kind_name[i] : r->rs->card_id(r->cs, i), name))
            continue;
        *games = t->games;
        *rate = t->games > 0 ? t->wins / t->games : 0;
        return 1;
    }
    return 0;
}

int any_report_kind_spread(const any_report *r, double min, double *spread)
{
    double lo = 2, hi = -1;
    for (int k = 0; k < r->nkinds; k++)
        if (r->kind[k].games >= min && r->kind[k].games > 0) {
            double rate = r->kind[k].wins / r->kind[k].games;
            lo = rate < lo ? rate : lo;
            hi = rate > hi ? rate : hi;
        }
    *spread = hi >= lo ? hi - lo : 0;
    return hi >= lo;
}

int any_report_line_mean(const any_report *r, const char *label, double *mean)
{
    for (int i = 0; i < r->nlines; i++)
        if (!strcmp(r->line[i].label, label)) {
            double n = r->line[i].n[0] + r->line[i].n[1];
            *mean = n > 0 ? (r->line[i].sum[0] + r->line[i].sum[1]) / n : 0;
            return 1;
        }
    return 0;
}

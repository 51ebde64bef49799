/* compare_report: the A/B report of foh compare (sim_stats.h: sim_compare):
 * what differs between A and B first (compare_diff.h), the changed cards'
 * rows, fate and impact, the cards ranked by how far their figures moved,
 * then every figure with its difference, interval and verdict. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "sim/compare_diff.h"
#include "sim/fate.h"
#include "sim/sim_stats.h"

#define Z95 1.96

/* ---- A/B comparison ---- */

/* One figure compared: A and B (each may lack data), B - A with its 95%
 * interval, the two-sided p-value of "no difference" and the BH verdict. */
typedef struct {
    char name[128];
    const char *group; /* "game", "seat", "turn order", "card" */
    char card[64];     /* the card's id for card figures */
    int percent;       /* a rate (shown in %) or a mean */
    int has_a, has_b;  /* data on each side */
    const char *only;  /* "only in A" / "only in B" for a card of one side */
    double a, b, va, vb, diff, low, high, p;
    int tested, significant;
} figure;

typedef struct {
    figure *f;
    int n, cap;
} figure_list;

static figure *fig_add(figure_list *l, const char *group, const char *card, int percent, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static figure *fig_add(figure_list *l, const char *group, const char *card, int percent, const char *fmt, ...)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 128;
        figure *f = realloc(l->f, (size_t)cap * sizeof *f);
        if (!f)
            return NULL;
        l->f = f;
        l->cap = cap;
    }
    figure *f = &l->f[l->n++];
    memset(f, 0, sizeof *f);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->name, sizeof f->name, fmt, ap);
    va_end(ap);
    f->group = group;
    snprintf(f->card, sizeof f->card, "%s", card ? card : "");
    f->percent = percent;
    return f;
}

/* Mean and the variance of the mean. */
static void mean_var(long n, long sum, long sq, double *mean, double *var)
{
    *mean = n ? (double)sum / n : 0;
    double v = n > 1 ? ((double)sq - n * *mean * *mean) / (n - 1) : 0;
    *var = n > 0 && v > 0 ? v / n : 0;
}

static void rate_var(long n, long units, double *rate, double *var)
{
    *rate = n ? (double)units / WIN_UNITS / n : 0;
    *var = n ? *rate * (1 - *rate) / n : 0;
}

/* Side K (0: A, 1: B) of F from N observations (0: no data). */
static void fig_side(figure *f, int k, long n, double value, double var)
{
    if (n <= 0)
        return;
    if (k) {
        f->has_b = 1;
        f->b = value;
        f->vb = var;
    } else {
        f->has_a = 1;
        f->a = value;
        f->va = var;
    }
}

static void fig_mean(figure *f, int k, long n, long sum, long sq)
{
    double m, v;
    mean_var(n, sum, sq, &m, &v);
    if (f)
        fig_side(f, k, n, m, v);
}

static void fig_rate(figure *f, int k, long n, long units)
{
    double r, v;
    rate_var(n, units, &r, &v);
    if (f)
        fig_side(f, k, n, r, v);
}

/* Difference, interval and p-value of every figure with data on both sides. */
static void fig_test(figure_list *l)
{
    for (int i = 0; i < l->n; i++) {
        figure *f = &l->f[i];
        if (!f->has_a || !f->has_b || f->only)
            continue;
        double se = sqrt(f->va + f->vb);
        if (se <= 0) {
            /* No variation on either side (e.g. 0% and 0%): nothing to test. */
            if (!f->only)
                f->only = f->a == f->b ? "no variation" : "no variation, differs";
            continue;
        }
        f->tested = 1;
        f->diff = f->b - f->a;
        f->low = f->diff - Z95 * se;
        f->high = f->diff + Z95 * se;
        f->p = erfc(fabs(f->diff) / se / sqrt(2.0));
    }
}

/* Benjamini-Hochberg at Q over the tested figures (sim_bh), marking
 * those that survive. Returns how many; *TESTED: how many were tested. */
static int fig_bh(figure_list *l, double q, int *tested)
{
    size_t np = l->n > 0 ? (size_t)l->n : 1;
    double *p = malloc(np * sizeof *p);
    int *mark = malloc(np * sizeof *mark), marked = 0;
    *tested = 0;
    for (int i = 0; p && i < l->n; i++) {
        p[i] = l->f[i].tested ? l->f[i].p : -1;
        *tested += l->f[i].tested;
    }
    if (p && mark && sim_bh(p, l->n, q, mark) >= 0)
        for (int i = 0; i < l->n; i++)
            marked += l->f[i].significant = mark[i];
    free(p);
    free(mark);
    return marked;
}

/* Every figure of A and B (cards matched by id; those of one side only
 * listed with it). */
static void fig_collect(figure_list *l, const sim_stats *const st[2], const foh_cardset *const cs[2], int players)
{
    figure *f;
    f = fig_add(l, "game", NULL, 0, "game length (turns)");
    for (int k = 0; k < 2; k++)
        fig_mean(f, k, st[k]->games, st[k]->turns_sum, st[k]->turns_sq);
    f = fig_add(l, "game", NULL, 1, "stalled games");
    for (int k = 0; k < 2; k++)
        fig_rate(f, k, st[k]->games, st[k]->stalled * WIN_UNITS);
    f = fig_add(l, "game", NULL, 0, "score");
    for (int k = 0; k < 2; k++)
        fig_mean(f, k, st[k]->total_player_games, st[k]->all_sum, st[k]->all_sq);
    f = fig_add(l, "game", NULL, 0, "winner's score");
    for (int k = 0; k < 2; k++)
        fig_mean(f, k, st[k]->winner_n, st[k]->winner_sum, st[k]->winner_sq);
    f = fig_add(l, "game", NULL, 0, "snipes per game");
    /* No squares kept for snipes: a mean without interval is not tested. */
    for (int k = 0; f && k < 2; k++)
        if (st[k]->games) {
            (k ? &f->has_b : &f->has_a)[0] = 1;
            (k ? &f->b : &f->a)[0] = (double)st[k]->snipes / st[k]->games;
        }
    if (f)
        f->only = "not tested";
    f = fig_add(l, "turn order", NULL, 1, "first player win rate");
    for (int k = 0; k < 2; k++)
        fig_rate(f, k, st[k]->games, st[k]->first_win_units);
    for (int p = 0; p < players; p++) {
        f = fig_add(l, "seat", NULL, 1, "win rate P%d", p + 1);
        for (int k = 0; k < 2; k++)
            fig_rate(f, k, st[k]->games, st[k]->win_units[p]);
        f = fig_add(l, "seat", NULL, 0, "score P%d", p + 1);
        for (int k = 0; k < 2; k++)
            fig_mean(f, k, st[k]->games, st[k]->score_sum[p], st[k]->score_sq[p]);
    }
    for (int p = 1; p < players; p++) {
        f = fig_add(l, "turn order", NULL, 1, "win rate %s to act", sim_ordinal(p));
        for (int k = 0; k < 2; k++)
            fig_rate(f, k, st[k]->games, st[k]->order_win_units[p]);
    }
    /* Cards: those of A in A's order, then those only in B. */
    for (int side = 0; side < 2; side++)
        for (int c0 = 0; c0 < foh_cardset_card_count(cs[side]); c0++) {
            const char *id = sim_card_id(cs[side], c0);
            int idx[2];
            idx[side] = c0;
            idx[!side] = foh_cardset_find(cs[!side], id);
            if (side == 1 && idx[0] >= 0)
                continue; /* listed with A's */
            const char *only = idx[!side] >= 0 ? NULL : side ? "only in B" : "only in A";
            const char *name = sim_card_name(cs[side], c0);
            static const char *const how[] = {"completed", "sniped", "gained by an effect"};
            /* Gained in every game of both sides, and never by an effect:
             * sniped is 100% - completed, one finding, not two. */
            int complement = !only;
            for (int k = 0; complement && k < 2; k++)
                complement = st[k]->gained[idx[k]][GAIN_EFFECT] == 0 &&
                             st[k]->gained[idx[k]][GAIN_COMPLETE] + st[k]->gained[idx[k]][GAIN_SNIPE] == st[k]->games;
            for (int h = 0; h < GAIN_KINDS; h++) {
                f = fig_add(l, "card", id, 1, "%s %s (games)", name, how[h]);
                for (int k = 0; f && k < 2; k++)
                    if (idx[k] >= 0)
                        fig_rate(f, k, st[k]->games, st[k]->gained[idx[k]][h] * WIN_UNITS);
                if (f)
                    f->only = h == GAIN_SNIPE && complement ? "= 100% - completed (not tested again)" : only;
            }
            f = fig_add(l, "card", id, 0, "%s price paid", name);
            for (int k = 0; f && k < 2; k++)
                if (idx[k] >= 0)
                    fig_mean(f, k, st[k]->price_n[idx[k]], st[k]->price_sum[idx[k]], st[k]->price_sq[idx[k]]);
            if (f)
                f->only = only;
            int start = 0;
            for (int k = 0; k < 2; k++)
                start |= idx[k] >= 0 && st[k]->start_games[idx[k]] > 0;
            if (start) {
                f = fig_add(l, "card", id, 1, "%s as starting card: win rate", name);
                for (int k = 0; f && k < 2; k++)
                    if (idx[k] >= 0)
                        fig_rate(f, k, st[k]->start_games[idx[k]], st[k]->start_win_units[idx[k]]);
                if (f)
                    f->only = only;
            }
            f = fig_add(l, "card", id, 1, "%s owners win rate", name);
            for (int k = 0; f && k < 2; k++)
                if (idx[k] >= 0)
                    fig_rate(f, k, st[k]->owned_n[idx[k]], st[k]->owned_win_units[idx[k]]);
            if (f)
                f->only = only;
        }
}

static void fig_value(char *buf, size_t len, const figure *f, int has, double v)
{
    if (!has)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, f->percent ? "%.2f%%" : "%.2f", f->percent ? 100 * v : v);
}

/* Print figure F as a row of the table. */
static void fig_print(FILE *out, const figure *f)
{
    char va[32], vb[32];
    fig_value(va, sizeof va, f, f->has_a, f->a);
    fig_value(vb, sizeof vb, f, f->has_b, f->b);
    double k = f->percent ? 100 : 1;
    if (f->tested)
        fprintf(out, "%-44s %10s %10s %+9.2f [%+7.2f, %+7.2f] %8.4f%s\n", f->name, va, vb, k * f->diff, k * f->low,
                k * f->high, f->p, f->significant ? "  *" : "");
    else
        fprintf(out, "%-44s %10s %10s %9s %18s %8s%s%s\n", f->name, va, vb, "-", "-", "-", f->only ? "  " : "",
                f->only ? f->only : "");
}

static void fig_header(FILE *out)
{
    fprintf(out, "%-44s %10s %10s %9s %18s %8s\n", "figure", "A", "B", "B - A", "95% CI", "p");
}

/* How far figure F moved, in standard errors (0 if not tested). */
static double fig_z(const figure *f)
{
    double se = f->tested ? (f->high - f->low) / (2 * Z95) : 0;
    return se > 0 ? fabs(f->diff) / se : 0;
}

/* One card of the ranking: its id, the figure that moved most, how far. */
typedef struct {
    const char *card;
    const figure *top;
    double z;
    int significant; /* figures of the card that survive the correction */
} card_rank;

/* The cards ranked by their figure that moved most (|z|), largest first,
 * into *OUT (malloc'd); how many, or -1 if out of memory. Figures a
 * card set's change can move are all the card's rows; the diff is not
 * used, so that the ranking tells what the games alone say. */
static int rank_cards(const figure_list *l, card_rank **out)
{
    card_rank *r = malloc((size_t)(l->n > 0 ? l->n : 1) * sizeof *r);
    int n = 0;
    if (!r)
        return -1;
    for (int i = 0; i < l->n; i++) {
        const figure *f = &l->f[i];
        if (!f->card[0])
            continue;
        int j = 0;
        while (j < n && strcmp(r[j].card, f->card))
            j++;
        if (j == n)
            r[n++] = (card_rank){f->card, NULL, 0, 0};
        double z = fig_z(f);
        if (f->tested && (!r[j].top || z > r[j].z)) {
            r[j].top = f;
            r[j].z = z;
        }
        r[j].significant += f->significant;
    }
    for (int i = 1; i < n; i++) /* insertion sort, stable: a few hundred cards at most */
        for (int j = i; j > 0 && r[j].z > r[j - 1].z; j--) {
            card_rank t = r[j];
            r[j] = r[j - 1];
            r[j - 1] = t;
        }
    *out = r;
    return n;
}

/* Card ID's impact estimate on the win (points of %) in IMPACT (an
 * impact_json): 1 with VALUE, LOW, HIGH, else 0. */
static int impact_of(const json_t *impact, const char *id, double *value, double *low, double *high)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(impact, "cards"), i, c) {
        if (strcmp(json_string_value(json_object_get(c, "card")) ? json_string_value(json_object_get(c, "card")) : "",
                   id))
            continue;
        json_t *e = json_object_get(c, "impact_on_win_points");
        if (!json_is_number(json_object_get(e, "value")) || !json_is_number(json_object_get(e, "low")) ||
            !json_is_number(json_object_get(e, "high")))
            return 0;
        *value = json_number_value(json_object_get(e, "value"));
        *low = json_number_value(json_object_get(e, "low"));
        *high = json_number_value(json_object_get(e, "high"));
        return 1;
    }
    return 0;
}

/* The changed card ID's impact in A and in B and their difference (the two
 * runs are independent samples of games on the same seeds: the intervals
 * combine as independent), printed and returned as JSON (NULL if none). */
static json_t *impact_pair(FILE *out, const compare_focus *focus, const char *id)
{
    double v[2], lo[2], hi[2];
    int has[2];
    for (int k = 0; k < 2; k++)
        has[k] = focus->impact[k] && impact_of(focus->impact[k], id, &v[k], &lo[k], &hi[k]);
    if (!focus->impact[0] && !focus->impact[1])
        return NULL;
    if (!has[0] || !has[1]) {
        fprintf(out, "  impact on the win: %s\n", has[0] || has[1] ? "gained on one side only" : "never gained");
        return NULL;
    }
    double se = sqrt(pow((hi[0] - lo[0]) / (2 * Z95), 2) + pow((hi[1] - lo[1]) / (2 * Z95), 2));
    double d = v[1] - v[0];
    fprintf(out, "  impact on the win (points of %%, docs/impact.md): A %+.1f [%+.1f, %+.1f], B %+.1f [%+.1f, %+.1f], "
                 "B - A %+.1f [%+.1f, %+.1f]\n", v[0], lo[0], hi[0], v[1], lo[1], hi[1], d, d - Z95 * se, d + Z95 * se);
    return json_pack("{s:[f,f,f],s:[f,f,f],s:[f,f,f]}", "a", v[0], lo[0], hi[0], "b", v[1], lo[1], hi[1], "diff", d,
                     d - Z95 * se, d + Z95 * se);
}

int sim_compare(FILE *out, const char *json_path, const char *html_path, const sim_stats *a, const foh_cardset *csa,
                const sim_stats *b, const foh_cardset *csb, int players, struct json_t *meta,
                const compare_focus *focus)
{
    const sim_stats *st[2] = {a, b};
    const foh_cardset *cs[2] = {csa, csb};
    figure_list l = {NULL, 0, 0};
    fig_collect(&l, st, cs, players);
    fig_test(&l);
    int tested = 0, marked = fig_bh(&l, 0.05, &tested);
    card_rank *rank = NULL;
    int nrank = rank_cards(&l, &rank);
    json_t *changed = json_array(), *ranking = json_array();
    /* 1. What differs, from the files, and the changed cards' figures. */
    compare_diff_print(out, focus->diff);
    size_t ci;
    json_t *dc;
    json_array_foreach(json_object_get(focus->diff, "cards"), ci, dc) {
        const char *id = json_string_value(json_object_get(dc, "card"));
        int ca = foh_cardset_find(csa, id), cb = foh_cardset_find(csb, id);
        fprintf(out, "\nchanged card ");
        cli_puts(out, json_string_value(json_object_get(dc, "name")));
        int where = 0;
        for (int r = 0; r < nrank; r++)
            if (!strcmp(rank[r].card, id))
                where = r + 1;
        fprintf(out, " (ranked %d of %d by how far its figures moved, below):\n", where, nrank);
        fig_header(out);
        json_t *figs = json_array();
        for (int i = 0; i < l.n; i++)
            if (!strcmp(l.f[i].card, id) && (l.f[i].has_a || l.f[i].has_b)) {
                fig_print(out, &l.f[i]);
                json_array_append_new(figs, json_string(l.f[i].name));
            }
        json_t *fa = NULL, *fb = NULL;
        if (focus->fate[0] && focus->fate[1]) {
            fprintf(out, "  fate of its gainers (docs/report.md):\n");
            fate_print_card(out, focus->fate[0], csa, ca, "A");
            fate_print_card(out, focus->fate[1], csb, cb, "B");
            fa = fate_card_json(focus->fate[0], csa, ca);
            fb = fate_card_json(focus->fate[1], csb, cb);
        }
        json_t *imp = impact_pair(out, focus, id);
        json_array_append_new(changed, json_pack("{s:s,s:i,s:o,s:o*,s:o*,s:o*}", "card", id, "rank", where,
                                                 "figures", figs, "fate_a", fa, "fate_b", fb, "impact_on_win", imp));
    }
    /* 2. The cards ranked by what the games say, the diff not used. */
    if (nrank > 0) {
        fprintf(out, "\ncards ranked by how far their figures moved from A to B (the games alone; |z|: the largest "
                     "difference over its standard error;\n'*': figures of the card that differ after the "
                     "Benjamini-Hochberg correction; 'changed': named by the files above)\n");
        fprintf(out, "%4s %-24s %7s %3s  %-44s %9s\n", "rank", "card", "|z|", "*", "figure that moved most", "B - A");
    }
    for (int r = 0; r < nrank; r++) {
        const figure *f = rank[r].top;
        int is_changed = focus->diff && compare_diff_names(focus->diff, rank[r].card);
        if (r < 10 || is_changed) {
            int c = foh_cardset_find(csa, rank[r].card);
            const char *name = c >= 0 ? sim_card_name(csa, c) : sim_card_name(csb, foh_cardset_find(csb, rank[r].card));
            fprintf(out, "%4d %-24.24s %7.1f %3d  %-44.44s ", r + 1, name, rank[r].z, rank[r].significant,
                    f ? f->name : "(nothing tested)");
            if (f)
                fprintf(out, "%+9.2f", (f->percent ? 100 : 1) * f->diff);
            fprintf(out, "%s\n", is_changed ? "  changed" : "");
        }
        json_array_append_new(ranking, json_pack("{s:i,s:s,s:f,s:i,s:s?,s:b}", "rank", r + 1, "card", rank[r].card,
                                                 "z", rank[r].z, "figures_differing", rank[r].significant, "figure",
                                                 f ? f->name : NULL, "changed", is_changed));
    }
    int cards_marked = 0;
    for (int r = 0; r < nrank; r++)
        cards_marked += rank[r].significant > 0;
    /* 3. Every figure. */
    fprintf(out, "\nevery figure:\n");
    fig_header(out);
    for (int i = 0; i < l.n; i++)
        if (l.f[i].has_a || l.f[i].has_b) /* rows with no data on either side say nothing */
            fig_print(out, &l.f[i]);
    fprintf(out, "%d figures tested; %d differ at a false-discovery rate of 5%% (Benjamini-Hochberg); %d card%s "
                 "ha%s a figure that differs\n", tested, marked, cards_marked, cards_marked == 1 ? "" : "s",
            cards_marked == 1 ? "s" : "ve");
    int ok = 1;
    if (json_path || html_path) {
        json_t *root = json_object(), *figs = json_array();
        json_object_set_new(root, "format", json_string("foh-compare-report/2"));
        json_object_update(root, meta);
        json_object_set_new(root, "a_variant_details", sim_variants_json(csa));
        json_object_set_new(root, "b_variant_details", sim_variants_json(csb));
        json_object_set_new(root, "games", json_integer(a->games));
        json_object_set_new(root, "false_discovery_rate", json_real(0.05));
        json_object_set_new(root, "tested", json_integer(tested));
        json_object_set_new(root, "differ", json_integer(marked));
        json_object_set_new(root, "cards_differing", json_integer(cards_marked));
        json_object_set_new(root, "diff", focus->diff ? json_deep_copy(focus->diff) : json_null());
        json_object_set_new(root, "changed_cards", json_incref(changed));
        json_object_set_new(root, "card_ranking", json_incref(ranking));
        /* The distributions of each side, drawn over each other in HTML. */
        for (int k = 0; k < 2; k++) {
            json_t *score = json_array(), *len = json_array();
            for (int i = 0; i < SCORE_BINS; i++)
                json_array_append_new(score, json_integer(st[k]->hist[i]));
            for (int i = 0; i < LEN_BINS; i++)
                json_array_append_new(len, json_integer(st[k]->len_hist[i]));
            json_object_set_new(root, k ? "b_score_histogram" : "a_score_histogram", score);
            json_object_set_new(root, k ? "b_length_histogram" : "a_length_histogram",
                                json_pack("{s:i,s:o}", "bin", LEN_BIN, "counts", len));
            json_object_set_new(root, k ? "b_player_games" : "a_player_games",
                                json_integer(st[k]->total_player_games));
        }
        for (int i = 0; i < l.n; i++) {
            const figure *f = &l.f[i];
            if (!f->has_a && !f->has_b)
                continue;
            json_t *o = json_pack("{s:s,s:s,s:s}", "name", f->name, "group", f->group, "unit",
                                  f->percent ? "rate" : "mean");
            if (f->card[0])
                json_object_set_new(o, "card", json_string(f->card));
            json_object_set_new(o, "a", f->has_a ? json_real(f->a) : json_null());
            json_object_set_new(o, "b", f->has_b ? json_real(f->b) : json_null());
            if (f->tested)
                json_object_update_new(o, json_pack("{s:f,s:f,s:f,s:f,s:b}", "diff", f->diff, "ci95_low", f->low,
                                                     "ci95_high", f->high, "p", f->p, "significant",
                                                     f->significant));
            if (f->only)
                json_object_set_new(o, "note", json_string(f->only));
            json_array_append_new(figs, o);
        }
        json_object_set_new(root, "figures", figs);
        if (json_path && !cli_write_json(root, json_path, JSON_INDENT(2) | JSON_REAL_PRECISION(6))) {
            cli_error("compare", "cannot write %s: %s", json_path, strerror(errno));
            ok = 0;
        }
        if (html_path && !sim_html_write(html_path, root)) {
            cli_error("compare", "cannot write %s: %s", html_path, strerror(errno));
            ok = 0;
        }
        json_decref(root);
    }
    json_decref(changed);
    json_decref(ranking);
    free(rank);
    free(l.f);
    return ok;
}

/* fate: what became of each card after it was gained (see fate.h). */
#include "sim/fate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "sim/sim_stats.h"

#define Z95 1.96

struct fate_game_s {
    const foh_cardset *cs;
    int ncards;
    int root;          /* the card of the decision under way (-1: none) */
    long placements;   /* Nation placements before it */
    int gainer[FOH_MAX_CARDS];  /* first gainer, -1 */
    int culprit[FOH_MAX_CARDS]; /* -1: not lost; else the removing card, ncards for none */
};

fate_stats *fate_stats_new(int ncards)
{
    fate_stats *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->ncards = ncards;
    s->lost_by = calloc((size_t)ncards * (size_t)(ncards + 1) + 1, sizeof *s->lost_by);
    if (!s->lost_by) {
        free(s);
        return NULL;
    }
    return s;
}

void fate_stats_free(fate_stats *s)
{
    if (s)
        free(s->lost_by);
    free(s);
}

static void add(long *a, long v, int *overflow)
{
    if (__builtin_add_overflow(*a, v, a))
        *overflow = 1;
}

void fate_merge(fate_stats *into, const fate_stats *from)
{
    int n = into->ncards;
    into->overflow |= from->overflow;
    for (int c = 0; c < n; c++) {
        add(&into->gains[c], from->gains[c], &into->overflow);
        for (int k = 0; k < FATE_KINDS; k++) {
            add(&into->n[c][k], from->n[c][k], &into->overflow);
            add(&into->win_units[c][k], from->win_units[c][k], &into->overflow);
            add(&into->margin_sum[c][k], from->margin_sum[c][k], &into->overflow);
            add(&into->margin_sq[c][k], from->margin_sq[c][k], &into->overflow);
        }
    }
    for (size_t i = 0; i < (size_t)n * (size_t)(n + 1); i++)
        add(&into->lost_by[i], from->lost_by[i], &into->overflow);
}

fate_game *fate_game_new(const foh_cardset *cs)
{
    fate_game *fg = calloc(1, sizeof *fg);
    if (!fg)
        return NULL;
    fg->cs = cs;
    fg->ncards = foh_cardset_card_count(cs);
    fg->root = -1;
    for (int c = 0; c < FOH_MAX_CARDS; c++)
        fg->gainer[c] = fg->culprit[c] = -1;
    return fg;
}

void fate_game_free(fate_game *fg)
{
    free(fg);
}

static foh_status on_before(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    fate_game *fg = ud;
    const foh_action *a = &d->action;
    (void)err;
    fg->placements = foh_game_placements(g);
    if (a->kind == FOH_ACT_CHOOSE) /* an answer inside the action under way: same card */
        return FOH_OK;
    fg->root = a->kind == FOH_ACT_COMPLETE ? foh_game_investment(g, d->player)
               : a->kind == FOH_ACT_SNIPE || a->kind == FOH_ACT_ACTIVATE ? a->card
                                                                          : -1;
    if (fg->root < 0 || fg->root >= fg->ncards)
        fg->root = -1;
    return FOH_OK;
}

/* After each decision: the cards gained for the first time get their
 * gainer; a gained card no longer in its gainer's Nation is lost, to the
 * decision's card. */
static foh_status on_after(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    fate_game *fg = ud;
    (void)d;
    (void)err;
    for (int c = 0; c < fg->ncards; c++) {
        int owner = -1;
        foh_zone z = foh_game_card_zone(g, c, &owner);
        if (fg->gainer[c] < 0) { /* a starting card is not gained: placed before any decision */
            if (z == FOH_ZONE_NATION && foh_game_card_placement(g, c) >= fg->placements)
                fg->gainer[c] = owner;
        } else if (fg->culprit[c] < 0 && (z != FOH_ZONE_NATION || owner != fg->gainer[c]))
            fg->culprit[c] = fg->root >= 0 && fg->root != c ? fg->root : fg->ncards;
    }
    return FOH_OK;
}

foh_observer fate_observer(fate_game *fg)
{
    return (foh_observer){.before = on_before, .after = on_after, .ud = fg};
}

void fate_game_finish(fate_game *fg, foh_game *g, const foh_score *score, fate_stats *s)
{
    int players = foh_game_players(g), nwin = 0;
    for (int p = 0; p < players; p++)
        nwin += score[p].winner != 0;
    for (int c = 0; c < fg->ncards; c++) {
        int p = fg->gainer[c];
        if (p < 0 || p >= players)
            continue;
        int kind = fg->culprit[c] >= 0 ? FATE_LOST : foh_game_card_visible(g, c) ? FATE_ACTIVE : FATE_COVERED;
        int best = -1000000;
        for (int q = 0; q < players; q++)
            if (q != p && score[q].total > best)
                best = score[q].total;
        long margin = players > 1 ? score[p].total - best : 0;
        add(&s->gains[c], 1, &s->overflow);
        add(&s->n[c][kind], 1, &s->overflow);
        add(&s->win_units[c][kind], score[p].winner && nwin ? WIN_UNITS / nwin : 0, &s->overflow);
        add(&s->margin_sum[c][kind], margin, &s->overflow);
        add(&s->margin_sq[c][kind], margin * margin, &s->overflow);
        if (kind == FATE_LOST)
            add(&s->lost_by[(size_t)c * (size_t)(fg->ncards + 1) + (size_t)fg->culprit[c]], 1, &s->overflow);
    }
}

static fate_estimate share(long k, long n, long units)
{
    fate_estimate e = {0, 0, 0};
    if (n <= 0)
        return e;
    e.value = (double)k / units / n;
    sim_wilson(e.value, (double)n, &e.low, &e.high);
    e.low = e.low < 0 ? 0 : e.low > e.value ? e.value : e.low;
    e.high = e.high > 1 ? 1 : e.high < e.value ? e.value : e.high;
    return e;
}

/* The chi-square quantile of K degrees of freedom at the normal quantile Z
 * (Wilson-Hilferty), for the interval of a standard deviation. */
static double chi2_quantile(double k, double z)
{
    double h = 2.0 / (9.0 * k), t = 1 - h + z * sqrt(h);
    return k * t * t * t;
}

int fate_card_figures(const fate_stats *s, int c, fate_card *out)
{
    memset(out, 0, sizeof *out);
    if (c < 0 || c >= s->ncards || s->gains[c] <= 0)
        return 0;
    long g = s->gains[c];
    out->gains = g;
    long sum = 0, sq = 0, kept_n = 0, kept_w = 0, kept_m = 0;
    for (int k = 0; k < FATE_KINDS; k++) {
        out->n[k] = s->n[c][k];
        out->share[k] = share(s->n[c][k], g, 1);
        out->win[k] = share(s->win_units[c][k], s->n[c][k], WIN_UNITS);
        out->margin[k] = s->n[c][k] ? (double)s->margin_sum[c][k] / s->n[c][k] : 0;
        sum += s->margin_sum[c][k];
        sq += s->margin_sq[c][k];
        if (k != FATE_LOST) {
            kept_n += s->n[c][k];
            kept_w += s->win_units[c][k];
            kept_m += s->margin_sum[c][k];
        }
    }
    out->kept_win = share(kept_w, kept_n, WIN_UNITS);
    out->lost_win = out->win[FATE_LOST];
    out->kept_margin = kept_n ? (double)kept_m / kept_n : 0;
    out->lost_margin = out->margin[FATE_LOST];
    out->margin_sd = (fate_estimate){0, NAN, NAN};
    if (g >= 2) {
        double mean = (double)sum / g, var = ((double)sq - g * mean * mean) / (g - 1);
        double sd = var > 0 ? sqrt(var) : 0, k = (double)(g - 1);
        out->margin_sd.value = sd;
        /* The approximation of the quantiles holds from about 10 gains;
         * below, no interval is given rather than a wrong one. */
        if (g >= 10)
            out->margin_sd = (fate_estimate){sd, sd * sqrt(k / chi2_quantile(k, Z95)),
                                             sd * sqrt(k / chi2_quantile(k, -Z95))};
    }
    return 1;
}

int fate_culprits(const fate_stats *s, int c, int *culprit, long *count, int max)
{
    int n = 0, w = s->ncards + 1;
    for (int k = 0; k < w; k++) {
        long v = s->lost_by[(size_t)c * (size_t)w + (size_t)k];
        if (v <= 0)
            continue;
        int at;
        if (n < max)
            at = n++;
        else if (count[max - 1] < v)
            at = max - 1; /* replaces the smallest kept */
        else
            continue; /* not among the MAX largest */
        culprit[at] = k;
        count[at] = v;
        for (; at > 0 && count[at] > count[at - 1]; at--) { /* keep most first */
            int tc = culprit[at];
            long tv = count[at];
            culprit[at] = culprit[at - 1];
            count[at] = count[at - 1];
            culprit[at - 1] = tc;
            count[at - 1] = tv;
        }
    }
    return n;
}

static const char *name_of(const foh_cardset *cs, int c)
{
    foh_card_info ci;
    if (c >= foh_cardset_card_count(cs))
        return "a rule (no card: e.g. obsolete)";
    return foh_cardset_card(cs, c, &ci) == FOH_OK ? ci.name : "?";
}

static const char *id_of(const foh_cardset *cs, int c)
{
    foh_card_info ci;
    if (c >= foh_cardset_card_count(cs))
        return "";
    return foh_cardset_card(cs, c, &ci) == FOH_OK ? ci.id : "?";
}

void fate_print_card(FILE *out, const fate_stats *s, const foh_cardset *cs, int c, const char *label)
{
    fate_card f;
    fprintf(out, "  %s: ", label);
    if (s->overflow) {
        fprintf(out, "not computed (a sum would overflow 64 bits: fewer games)\n");
        return;
    }
    if (!fate_card_figures(s, c, &f)) {
        fprintf(out, "never gained\n");
        return;
    }
    fprintf(out, "gained in %ld games; at the end active %.0f%% [%.0f, %.0f], covered %.0f%% [%.0f, %.0f], "
                 "lost %.0f%% [%.0f, %.0f]\n", f.gains,
            100 * f.share[FATE_ACTIVE].value, 100 * f.share[FATE_ACTIVE].low, 100 * f.share[FATE_ACTIVE].high,
            100 * f.share[FATE_COVERED].value, 100 * f.share[FATE_COVERED].low, 100 * f.share[FATE_COVERED].high,
            100 * f.share[FATE_LOST].value, 100 * f.share[FATE_LOST].low, 100 * f.share[FATE_LOST].high);
    fprintf(out, "     keepers (active or covered) win %.1f%% [%.1f, %.1f], margin %+.1f VP; ", 100 * f.kept_win.value,
            100 * f.kept_win.low, 100 * f.kept_win.high, f.kept_margin);
    if (f.n[FATE_LOST])
        fprintf(out, "losers win %.1f%% [%.1f, %.1f], margin %+.1f VP\n", 100 * f.lost_win.value,
                100 * f.lost_win.low, 100 * f.lost_win.high, f.lost_margin);
    else
        fprintf(out, "none lost it\n");
    if (isnan(f.margin_sd.low))
        fprintf(out, "     spread of the gainers' final margin: sd %.1f VP (too few gains for an interval)",
                f.margin_sd.value);
    else
        fprintf(out, "     spread of the gainers' final margin: sd %.1f VP [%.1f, %.1f]", f.margin_sd.value,
                f.margin_sd.low, f.margin_sd.high);
    int who[4];
    long count[4];
    int n = fate_culprits(s, c, who, count, 4);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s", i ? ", " : "; lost to ");
        cli_puts(out, name_of(cs, who[i]));
        fprintf(out, " %.0f%%", 100.0 * count[i] / f.gains);
    }
    fprintf(out, "\n");
}

void fate_print(FILE *out, const fate_stats *s, const foh_cardset *cs)
{
    fprintf(out, "\nfate of each card after it was gained (docs/report.md): share of its gainers who have it active at "
                 "the end, covered, or lost it;\nthe win rate of those who kept it and of those who lost it; the spread "
                 "(sd) of the gainers' final margin over the best opponent; who removed it most\n(--json and --html give "
                 "each figure's 95%% interval)\n");
    if (s->overflow) {
        fprintf(out, "not computed: a sum would overflow 64 bits (play fewer games)\n");
        return;
    }
    fprintf(out, "%-24s %6s %8s %8s %8s %10s %10s %8s  %s\n", "card", "gains", "active", "covered", "lost", "keepers",
            "losers", "sd", "lost to (most)");
    for (int c = 0; c < s->ncards; c++) {
        fate_card f;
        if (!fate_card_figures(s, c, &f))
            continue;
        char lost[32] = "-";
        if (f.n[FATE_LOST])
            snprintf(lost, sizeof lost, "%.1f%%", 100 * f.lost_win.value);
        fprintf(out, "%-24.24s %6ld %7.1f%% %7.1f%% %7.1f%% %9.1f%% %10s %8.1f  ", name_of(cs, c), f.gains,
                100 * f.share[FATE_ACTIVE].value, 100 * f.share[FATE_COVERED].value, 100 * f.share[FATE_LOST].value,
                100 * f.kept_win.value, lost, f.margin_sd.value);
        int who[1];
        long count[1];
        if (fate_culprits(s, c, who, count, 1)) {
            cli_puts(out, name_of(cs, who[0]));
            fprintf(out, " %.0f%%", 100.0 * count[0] / f.gains);
        } else
            fprintf(out, "-");
        fprintf(out, "\n");
    }
}

/* {value, low, high}; a bound not known (NaN) is null. */
static json_t *est(fate_estimate e, double k)
{
    return json_pack("{s:f,s:o,s:o}", "value", k * e.value, "low", isnan(e.low) ? json_null() : json_real(k * e.low),
                     "high", isnan(e.high) ? json_null() : json_real(k * e.high));
}

json_t *fate_card_json(const fate_stats *s, const foh_cardset *cs, int c)
{
    fate_card f;
    if (s->overflow || !fate_card_figures(s, c, &f))
        return NULL;
    json_t *lost_to = json_array();
    int w = s->ncards + 1;
    int *who = malloc((size_t)w * sizeof *who);
    long *count = malloc((size_t)w * sizeof *count);
    int n = who && count ? fate_culprits(s, c, who, count, w) : 0;
    for (int i = 0; i < n; i++)
        json_array_append_new(lost_to, json_pack("{s:s,s:s,s:I,s:f}", "card", id_of(cs, who[i]), "name",
                                                 name_of(cs, who[i]), "games", (json_int_t)count[i], "share",
                                                 (double)count[i] / f.gains));
    free(who);
    free(count);
    return json_pack("{s:s,s:s,s:I,s:o,s:o,s:o,s:o,s:o*,s:f,s:o,s:o,s:o}", "card", id_of(cs, c), "name",
                     name_of(cs, c), "gains", (json_int_t)f.gains, "active_share", est(f.share[FATE_ACTIVE], 1),
                     "covered_share", est(f.share[FATE_COVERED], 1), "lost_share", est(f.share[FATE_LOST], 1),
                     "kept_win_rate", est(f.kept_win, 1), "lost_win_rate",
                     f.n[FATE_LOST] ? est(f.lost_win, 1) : NULL, "kept_margin_vp", f.kept_margin,
                     "lost_margin_vp", f.n[FATE_LOST] ? json_real(f.lost_margin) : json_null(), "margin_sd_vp",
                     est(f.margin_sd, 1), "lost_to", lost_to);
}

json_t *fate_json(const fate_stats *s, const foh_cardset *cs)
{
    if (s->overflow)
        return json_pack("{s:s}", "not_computed", "a sum would overflow 64 bits (play fewer games)");
    json_t *cards = json_array();
    for (int c = 0; c < s->ncards; c++) {
        json_t *j = fate_card_json(s, cs, c);
        if (j)
            json_array_append_new(cards, j);
    }
    return json_pack("{s:s,s:o}", "units", "shares and win rates as fractions (0 to 1), margins in VP", "cards", cards);
}

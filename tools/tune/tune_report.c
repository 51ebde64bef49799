/* tune_report: see tune_report.h. */
#define _GNU_SOURCE /* asprintf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/provenance.h"
#include "tune/tune.h"
#include "tune/tune_candidates.h"
#include "tune/tune_evaluate.h"
#include "tune/tune_paired.h"
#include "tune/tune_report.h"

void tune_change_label(const tuner *T, const change *ch, char *out, size_t len)
{
    const tunable *t = &T->tun[ch->t];
    int d = ch->value - t->base;
    /* A step beyond 2 is a proportion of the number: said as one. */
    if ((d > 2 || d < -2) && t->base != 0)
        snprintf(out, len, "%s %d -> %d (%+.0f%%)", t->label, t->base, ch->value, 100.0 * d / (t->base < 0 ? -t->base : t->base));
    else
        snprintf(out, len, "%s %d -> %d", t->label, t->base, ch->value);
}

/* E with its 95% interval. Every figure printed so (spreads, bands, the
 * game length) is 0 or more: the interval is cut at 0, the figure's least
 * value, rather than reaching below it (issue 31). */
static void print_est(FILE *f, tune_est e, const char *unit)
{
    double h = TUNE_Z95 * sqrt(e.var);
    fprintf(f, "%.1f%s [%.1f, %.1f]", e.v, unit, e.v - h > 0 ? e.v - h : 0.0, e.v + h);
}

/* The least number of games (of N) a card must be owned in to count in a band. */
static long band_min(const tuner *T, tune_figure f, long n)
{
    return f == TF_IMPACT_BAND ? tune_impact_min_games(n) : T->tg.min_owned;
}

int tune_paired_figure(const tuner *T, const candidate *a, const candidate *b, tune_figure f, int card,
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
        if (tune_wants_impact(&T->tg))
            e[n++] = (effect){"impact", " points", TF_IMPACT, card};
    }
    /* The cards a per-card target names, when not CARD itself (named by id). */
    for (int k = 0; k < T->tg.ncard && n < 14; k++) {
        int c = T->tg.card[k].card;
        if (c == card || c < 0)
            continue;
        e[n++] = T->tg.card[k].figure == TUNE_CARD_OWNERS ? (effect){T->tg.card[k].id, "%", TF_OWNERS, c}
                                                           : (effect){T->tg.card[k].id, " points", TF_IMPACT, c};
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
        if (!tune_paired_figure(T, a, b, e[i].f, e[i].card, &p, &xa, &xb))
            continue;
        double h = TUNE_Z95 * sqrt(p.var);
        /* "46.3% -> 42.1%", "27.2 -> 22.1 points", "impact +4.1 -> +0.8 points" */
        int pct = !strcmp(e[i].unit, "%");
        ADD(e[i].f == TF_IMPACT ? "%s %+.1f%s -> %+.1f%s (%+.1f [%+.1f, %+.1f]); "
                                : "%s %.1f%s -> %.1f%s (%+.1f [%+.1f, %+.1f]); ",
            e[i].name, xa, pct ? e[i].unit : "", xb, e[i].unit, p.diff, p.diff - h, p.diff + h);
        if (w && p.var_unpaired > 0) {
            w->paired += h;
            w->unpaired += TUNE_Z95 * sqrt(p.var_unpaired);
            w->n++;
        }
    }
    ADD("loss %.2f -> %.2f", a->loss, b->loss);
#undef ADD
}

void tune_print_targets(const tuner *T, FILE *f)
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
    for (int k = 0; k < T->tg.ncard; k++) {
        char lab[200];
        tune_card_target_label(&T->tg, k, lab, sizeof lab);
        fprintf(f, "%s%s", k || T->tg.seat_spread >= 0 || T->tg.start_spread >= 0 || T->tg.card_band >= 0 ||
                                   T->tg.impact_band >= 0 || T->tg.length_lo >= 0 ? "; " : " ", lab);
    }
    fprintf(f, "; change cost %.2f\n", T->change_cost);
}

void tune_print_metrics(const tuner *T, FILE *f, const char *what, const candidate *c)
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
    for (int k = 0; k < T->tg.ncard; k++) {
        fprintf(f, "%scard %s %s ", sep, T->tg.card[k].id,
                T->tg.card[k].figure == TUNE_CARD_OWNERS ? "owners' win rate" : "impact");
        if (!c->m.card_known[k])
            fprintf(f, "- (not determined on these games)");
        else if (T->tg.card[k].figure == TUNE_CARD_OWNERS)
            print_est(f, c->m.card[k], "%");
        else { /* signed: an impact may be below 0 */
            double h = TUNE_Z95 * sqrt(c->m.card[k].var);
            fprintf(f, "%+.1f [%+.1f, %+.1f]", c->m.card[k].v, c->m.card[k].v - h, c->m.card[k].v + h);
        }
        sep = ", ";
    }
    fprintf(f, "; loss %.2f (miss %.2f)\n", c->loss, c->loss - T->change_cost * c->n);
}

void tune_patch_notes(const tuner *T, const candidates *cand, const candidate *base, const candidate *best,
                      char (*notes)[600])
{
    long G = T->o.games;
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
        tune_change_label(T, &best->ch[j], lab, sizeof lab);
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
}

int tune_write_out(const tuner *T, const candidate *best, char (*notes)[600])
{
    long G = T->o.games;
    int status = CLI_OK;
    if (!best->n) {
        /* An empty variant would play as the base: none is written (the folder, if this run made it, goes). */
        if (T->out_made)
            rmdir(T->out);
        printf("\n--out %s: nothing written: no change to write\n", T->out);
        return CLI_OK;
    }
    char desc[600], name[256], *header = NULL;
    const char *slash = strrchr(T->out, '/');
    snprintf(name, sizeof name, "%s", slash && slash[1] ? slash + 1 : T->out);
    size_t n = (size_t)snprintf(desc, sizeof desc, "foh tune: %d change%s", best->n, best->n == 1 ? "" : "s");
    for (int j = 0; j < best->n && n < sizeof desc; j++)
        n += (size_t)snprintf(desc + n, sizeof desc - n, "%s%s", j ? "; " : ": ", notes[j]);
    /* What it was tuned on (issue 31): the card sets, their content hash
     * (with the variants loaded), the variants and the command. */
    char sets[(CLI_MAX_VARIANTS + 1) * (ORIGIN_PATH + 3)] = "", *command = provenance_command(&T->o);
    size_t k = 0;
    for (int i = 0; T->og && i < T->og->ncards && k < sizeof sets; i++)
        k += (size_t)snprintf(sets + k, sizeof sets - k, "%s%s", i ? " + " : "", T->og->cards[i]);
    if (asprintf(&header,
                 "# Written by foh tune (%d players, seats %s, seed %llu, %ld games per evaluation).\n"
                 "# Tuned on the card set %s, content hash %s (with the variants it was given).\n"
                 "# Command: %s\n"
                 "# Play it with --variant %s%s.\n",
                 T->o.players, T->o.seats, (unsigned long long)T->o.seed, G, sets,
                 T->set_hash[0] ? T->set_hash : "(not known: a run merged from shards)",
                 command ? command : "(out of memory)", T->out,
                 T->nmerged ? " instead of the merged variants (it holds their numbers)" : "") < 0)
        header = NULL;
    free(command);
    if (!header) {
        cli_error("tune", "out of memory");
        return CLI_DATA;
    }
    if (tune_write_variant(T, best, T->out, name, desc, notes, header))
        printf("\nwrote %s/variant.yaml\n", T->out);
    else
        status = CLI_DATA;
    free(header);
    return status;
}

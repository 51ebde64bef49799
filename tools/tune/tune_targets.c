/* tune_targets: see tune_targets.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "tune/tune_targets.h"

int tune_target_check(const char *name, size_t n, double lo, double hi, char *why, size_t len)
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

/* The number in TEXT (all of it), or DFLT when TEXT is empty; 0 if not a number. */
static int bound(const char *text, size_t n, double dflt, double *out)
{
    char buf[64], *end;
    if (n == 0) {
        *out = dflt;
        return 1;
    }
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, text, n);
    buf[n] = '\0';
    /* Decimal only: not "0x10", not ".5" after "..". */
    if (strspn(buf, "+-0123456789.eE") != n || buf[0] == '.' || strstr(buf, ".."))
        return 0;
    *out = strtod(buf, &end);
    return end != buf && !*end && isfinite(*out);
}

/* "card:ID:FIGURE=RANGE" into T; 0 after printing what is wrong. */
static int parse_card_target(const char *spec, tune_targets *t)
{
    /* card:ID:FIGURE or, as one quoted word, "card:ID FIGURE". */
    const char *id = spec + 5, *colon = strpbrk(id, ": "), *eq = strchr(spec, '=');
    if (!colon || !eq || colon > eq || colon == id || (size_t)(colon - id) >= sizeof t->card[0].id) {
        cli_error("tune", "--target '%s': write card:ID:owners=LO..HI or card:ID:impact=LO..HI (either bound may be "
                          "left out: card:temple:owners=..35)", spec);
        return 0;
    }
    size_t fn = (size_t)(eq - colon - 1);
    int figure = fn == 6 && !strncmp(colon + 1, "owners", 6) ? TUNE_CARD_OWNERS
                 : fn == 6 && !strncmp(colon + 1, "impact", 6) ? TUNE_CARD_IMPACT
                                                               : -1;
    if (figure < 0) {
        cli_error("tune", "--target '%s': a card's target is 'owners' (its owners' win rate, points) or 'impact' (its "
                          "impact on the win, points)", spec);
        return 0;
    }
    const char *v = eq + 1, *dots = strstr(v, "..");
    double lo, hi, limit = figure == TUNE_CARD_OWNERS ? 100 : 100;
    int ok = dots ? bound(v, (size_t)(dots - v), -INFINITY, &lo) && bound(dots + 2, strlen(dots + 2), INFINITY, &hi)
                  : bound(v, strlen(v), 0, &hi) && (lo = -INFINITY, 1);
    if (!ok || lo > hi || (isfinite(lo) && fabs(lo) > limit) || (isfinite(hi) && fabs(hi) > limit) ||
        (!isfinite(lo) && !isfinite(hi)) || (figure == TUNE_CARD_OWNERS && ((isfinite(lo) && lo < 0) ||
                                                                          (isfinite(hi) && hi < 0)))) {
        cli_error("tune", "--target '%s': the value is a range of points LO..HI (LO at most HI; owners' win rates from "
                          "0 to 100, impacts from -100 to 100), either bound left out, or one number: a ceiling",
                  spec);
        return 0;
    }
    if (t->ncard >= TUNE_MAX_CARD_TARGETS) {
        cli_error("tune", "--target '%s': at most %d per-card targets", spec, TUNE_MAX_CARD_TARGETS);
        return 0;
    }
    tune_card_target *ct = &t->card[t->ncard++];
    snprintf(ct->id, sizeof ct->id, "%.*s", (int)(colon - id), id);
    ct->card = -1;
    ct->figure = figure;
    ct->lo = lo;
    ct->hi = hi;
    return 1;
}

int tune_wants_impact(const tune_targets *t)
{
    for (int k = 0; k < t->ncard; k++)
        if (t->card[k].figure == TUNE_CARD_IMPACT)
            return 1;
    return t->impact_band >= 0;
}

int tune_resolve_card_targets(tune_targets *t, const foh_cardset *cs)
{
    for (int k = 0; k < t->ncard; k++) {
        t->card[k].card = foh_cardset_find(cs, t->card[k].id);
        if (t->card[k].card < 0) {
            char safe[256];
            cli_error("tune", "--target card:%s: no card has the id '%s' (foh cards lists them)",
                      cli_safe(t->card[k].id, safe, sizeof safe), cli_safe(t->card[k].id, safe, sizeof safe));
            return 0;
        }
    }
    return 1;
}

void tune_card_target_label(const tune_targets *t, int k, char *buf, size_t len)
{
    const tune_card_target *ct = &t->card[k];
    char lo[32] = "", hi[32] = "";
    if (isfinite(ct->lo))
        snprintf(lo, sizeof lo, "%g", ct->lo);
    if (isfinite(ct->hi))
        snprintf(hi, sizeof hi, "%g", ct->hi);
    snprintf(buf, len, "card %s: %s %s..%s points", ct->id,
             ct->figure == TUNE_CARD_OWNERS ? "owners' win rate" : "impact on the win", lo, hi);
}

int tune_parse_target(const char *spec, tune_targets *t)
{
    if (!strncmp(spec, "card:", 5))
        return parse_card_target(spec, t);
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
    int ok = tune_target_check(spec, n, lo, hi, why, sizeof why);
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
    for (int k = 0; k < t->ncard; k++) {
        if (!m->card_known[k])
            continue;
        tune_est e = m->card[k];
        double sd = sqrt(e.var), lo = t->card[k].lo, hi = t->card[k].hi;
        if (e.v + 2 * sd > hi || e.v - 2 * sd < lo)
            v += e.var;
        miss += e.v > hi ? e.v - hi : e.v < lo ? lo - e.v : 0;
    }
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

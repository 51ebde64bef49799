/* tune_targets: the balance targets of foh tune (--target, docs/tune.md
 * "Targets") and the figures of a run that they judge. */
#ifndef FOH_TUNE_TARGETS_H
#define FOH_TUNE_TARGETS_H

#include <stddef.h>

#include "foh/foh.h"
#include "sim/sim_stats.h"

/* The balance targets (docs/tune.md, "Targets"); a negative bound: not set. */
typedef struct {
    double seat_spread;         /* max - min seat win rate, points */
    double start_spread;        /* max - min starting card win rate, points */
    double card_band;           /* every card's owners' win rate within this of their mean, points */
    double impact_band;         /* every card's impact on the win within this of 0, points */
    double length_lo, length_hi; /* mean game length, turns (lo < 0: not set) */
    double band_guard;          /* without card_band: the base's band, which no candidate may widen (-1: none) */
    int min_owned;              /* cards owned in fewer player-games are left out of card_band */
} tune_targets;

/* One figure of a run with the variance of its estimate. */
typedef struct {
    double v, var;
} tune_est;

/* The figures the targets judge. */
typedef struct {
    tune_est seat, start, band, length;
    int band_card;   /* the card furthest from the band's centre, -1 */
    tune_est impact; /* with an impact-band target: the largest |impact on the win| of a card, points */
    int impact_card; /* that card, -1 */
} tune_metrics;

/* 0 with WHY if X (LO..HI for length) is no value of the target NAME (N
 * bytes long): the rules of --target, for the command line and the run
 * description of a tune shard alike. An unknown NAME: -1. */
int tune_target_check(const char *name, size_t n, double lo, double hi, char *why, size_t len);
/* Parse "NAME=VALUE" (seat-spread=2, start-spread=3, card-band=10,
 * impact-band=5, length=140..180) into T; 0 after printing what is wrong. */
int tune_parse_target(const char *spec, tune_targets *t);

/* The figures of S (games on CS). */
void tune_metrics_of(const sim_stats *s, const foh_cardset *cs, int players, const tune_targets *t, tune_metrics *m);

/* How far M misses the targets (0 when all are met), and the variance of
 * that figure from the components that miss or nearly do. */
double tune_miss(const tune_metrics *m, const tune_targets *t, double *var);

/* Owners' win rate of card C in S, points, with its variance. */
tune_est tune_owner_rate(const sim_stats *s, int c);
/* Win rate of players who started with card C, points, with its variance. */
tune_est tune_start_rate(const sim_stats *s, int c);

#endif

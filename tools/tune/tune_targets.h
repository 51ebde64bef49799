/* tune_targets: the balance targets of foh tune (--target, docs/tune.md
 * "Targets") and the figures of a run that they judge. */
#ifndef FOH_TUNE_TARGETS_H
#define FOH_TUNE_TARGETS_H

#include <stddef.h>

#include "foh/foh.h"
#include "sim/sim_stats.h"

/* A target on one card (--target card:ID:FIGURE=LO..HI, issue 31): its
 * owners' win rate (points) or its impact on the win (points) within
 * [LO, HI], either bound open (-INFINITY, INFINITY). */
#define TUNE_MAX_CARD_TARGETS 16
enum { TUNE_CARD_OWNERS, TUNE_CARD_IMPACT };
typedef struct {
    char id[64]; /* as given */
    int card;    /* its index, resolved when the card set is loaded (-1 before) */
    int figure;  /* TUNE_CARD_OWNERS or TUNE_CARD_IMPACT */
    double lo, hi;
} tune_card_target;

/* The balance targets (docs/tune.md, "Targets"); a negative bound: not set. */
typedef struct {
    double seat_spread;         /* max - min seat win rate, points */
    double start_spread;        /* max - min starting card win rate, points */
    double card_band;           /* every card's owners' win rate within this of their mean, points */
    double impact_band;         /* every card's impact on the win within this of 0, points */
    double length_lo, length_hi; /* mean game length, turns (lo < 0: not set) */
    double band_guard;          /* without card_band: the base's band, which no candidate may widen (-1: none) */
    int min_owned;              /* cards owned in fewer player-games are left out of card_band */
    int ncard;                  /* per-card targets */
    tune_card_target card[TUNE_MAX_CARD_TARGETS];
} tune_targets;

/* Whether a run of T needs each game's gains kept (an impact target). */
int tune_wants_impact(const tune_targets *t);
/* Resolve the per-card targets' ids in CS; 0 after saying which is unknown. */
int tune_resolve_card_targets(tune_targets *t, const foh_cardset *cs);
/* "card temple: impact -3..3 points" for per-card target K into BUF. */
void tune_card_target_label(const tune_targets *t, int k, char *buf, size_t len);

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
    tune_est card[TUNE_MAX_CARD_TARGETS]; /* each per-card target's figure */
    int card_known[TUNE_MAX_CARD_TARGETS]; /* 0: not determined on these games (no miss counted) */
} tune_metrics;

/* 0 with WHY if X (LO..HI for length) is no value of the target NAME (N
 * bytes long): the rules of --target, for the command line and the run
 * description of a tune shard alike. An unknown NAME: -1. */
int tune_target_check(const char *name, size_t n, double lo, double hi, char *why, size_t len);
/* Parse "NAME=VALUE" (seat-spread=2, start-spread=3, card-band=10,
 * impact-band=5, length=140..180, card:ID:owners=..35,
 * card:ID:impact=-3..3) into T; 0 after printing what is wrong. */
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

/* tune_evaluate: the games of many candidates at once, in tasks of 50
 * games shared by the worker threads, and the losses they give; the
 * progress line of a stage on a terminal. */
#ifndef FOH_TUNE_EVALUATE_H
#define FOH_TUNE_EVALUATE_H

#include "tune/tune.h"

/* Cards gained in fewer games than this (of N) are left out of the impact band: 2%, at least 10. */
long tune_impact_min_games(long n);
/* Candidate C's figures and loss from the games it has played. */
void tune_update_loss(const tuner *T, candidate *c);
/* Play each of the N candidates C[k] up to GAMES games (from where it
 * stands), on T's threads; updates their losses. A CLI status. */
int tune_evaluate(tuner *T, candidate **c, int n, long games);
/* Clear the progress line on a terminal (before a line of the report). */
void tune_clear_progress(const tuner *T);

#endif

/* tune_verify: the verification of foh tune, on fresh seeds: the effects
 * predicted for the tuned variant, each measured again game by game. */
#ifndef FOH_TUNE_VERIFY_H
#define FOH_TUNE_VERIFY_H

#include "tune/tune.h"

/* The verification on fresh seeds (the run's seed + VERIFY_SEED_OFFSET):
 * BASE and the tuned BEST played again, each predicted effect against its
 * measurement. A CLI status. */
int tune_verify(const tuner *T, candidates *cand, const candidate *base, const candidate *best);

#endif

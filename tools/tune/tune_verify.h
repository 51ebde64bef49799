/* tune_verify: the verification of foh tune, on fresh seeds: the effects
 * predicted for the tuned variant, each measured again game by game. */
#ifndef FOH_TUNE_VERIFY_H
#define FOH_TUNE_VERIFY_H

#include "tune/tune.h"

/* The verification on fresh seeds (the run's seed + VERIFY_SEED_OFFSET):
 * BASE and the tuned BEST played again, each predicted effect against its
 * measurement. A CLI status. */
int tune_verify(const tuner *T, candidates *cand, const candidate *base, const candidate *best);
/* The verification's seed: --verify-seed, else derived from the run (its
 * seed, BASE's card set contents, BEST's changes, players, seats, games), so
 * that each run verifies on games no earlier run of another set, result or
 * command played, and the same run on the same games. */
uint64_t tune_verify_seed(const tuner *T, const candidate *base, const candidate *best);

#endif

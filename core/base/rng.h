/* rng: the game's only source of chance (xoshiro256**, seeded by
 * splitmix64). Its state lives in foh_state, so copies of a game draw the
 * same numbers. Internal to core/. */
#ifndef FOH_RNG_H
#define FOH_RNG_H

#include <stdint.h>

void foh_rng_seed(uint64_t s[4], uint64_t seed);
uint64_t foh_rng_next(uint64_t s[4]);
/* Uniform integer in [0, n), n >= 1, without modulo bias. */
uint32_t foh_rng_below(uint64_t s[4], uint32_t n);
/* Mix two numbers into a seed (e.g. a run seed and a game number). */
uint64_t foh_rng_mix(uint64_t a, uint64_t b);

#endif

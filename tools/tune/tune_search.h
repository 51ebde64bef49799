/* tune_search: the search of foh tune. Stage 1 screens the single
 * changes by successive halving (most relevant first: the figures of
 * their card in the base run); stage 2 combines the best of them
 * greedily while the loss falls. */
#ifndef FOH_TUNE_SEARCH_H
#define FOH_TUNE_SEARCH_H

#include "tune/tune.h"

/* qsort order of candidates (candidate **): lowest loss first, then fewer
 * changes, then the order they were made in. */
int tune_by_loss(const void *a, const void *b);
/* The games stage 1 plays for K arms in ROUNDS rounds of N0, 2 N0, ...
 * games, the last of G, keeping at most the better half (rounded up) after
 * each round: the most it may play (the early stopping drops more). */
long tune_halving_cost(int k, int rounds, long n0, long G);
/* Stage 1's rounds (*ROUNDS of *N0, 2 *N0, ... games, the last of G) and
 * how many of the NARMS single changes it screens: it may spend 70% of
 * LEFT, the budget left after the base; the most arms whose halving fits
 * in it. The same on the shards and on the merge. */
int tune_screening_size(const tuner *T, int narms, long left, int *rounds, long *n0);
/* How many of the K screened arms shard I of N screens: i, i + n, ... (1-based). */
int tune_shard_share(int k, int i, int n);
/* Stage 1: the single changes by successive halving on the base BASE's
 * games [0, G); with --shard i/n only the arms i, i+n, ... of the
 * relevance order (the early stopping within that share). *ALIVEP
 * (malloc'd, NULL when empty) gets the candidates still in the search,
 * best first, and *NALIVE their number. A CLI status. */
int tune_stage1(tuner *T, candidates *cand, candidate *base, candidate ***alivep, int *nalivep);
/* Stage 1 is done (here or on the shards) and the base misses the targets:
 * ALIVE[0, NALIVE) the single changes still in the search, best first.
 * Prints those that beat the base, then stage 2, the greedy combination:
 * the best candidate found into *BESTP (BASE if none beats it). A CLI
 * status. */
int tune_stage2(tuner *T, candidates *cand, candidate *base, candidate **alive, int nalive, candidate **bestp);

#endif

/* tune_merge: a run of foh tune on shards (docs/tune.md, "Tune on
 * shards"): --shard i/n --save-shard FILE writes the base and the
 * survivors of that share's screening; --merge FILE... checks that the
 * files are the parts of one run and goes on with stage 2. */
#ifndef FOH_TUNE_MERGE_H
#define FOH_TUNE_MERGE_H

#include "tune/tune.h"

/* --shard i/n --save-shard FILE: write the base and the survivors of this
 * shard's screening at G games. A CLI status. */
int tune_save_shard(tuner *T, candidate *base, candidate **alive, int nalive);
/* --merge FILE...: the shards' files describe one run (each part once, all
 * present); the base and the survivors of their screening are loaded, and
 * the search goes on with stage 2 here. A CLI status. */
int tune_run_merge(tuner *T, candidates *cand);

#endif

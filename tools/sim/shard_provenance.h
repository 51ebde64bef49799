/* shard_provenance: the check of a shard's `provenance` (the object
 * provenance_json writes, tools/common/provenance.h) against the rest of
 * the shard. foh sim --save-shard, and foh compare --save-shard for each
 * side, record it; foh merge copies the first shard's into the merged
 * report as `shards_provenance`, so an edited or forged one would be
 * reported as the run's (docs/scaling.md). */
#ifndef FOH_SHARD_PROVENANCE_H
#define FOH_SHARD_PROVENANCE_H

#include <jansson.h>
#include <stddef.h>

/* What is wrong with the `provenance` of the shard object ROOT (a sim
 * shard, or a side of a compare shard), as a message naming the field,
 * into WHY (LEN bytes), or NULL if it is the one this run wrote. ROOT's
 * `sources`, `cards`, `more_cards`, `variants`, `players`, `seats` and
 * `seed` must have been checked already (sim_stats_read_shard). The rule:
 * the object holds exactly the fields provenance_json writes, of their
 * types; its `engine` is this foh's (a shard of another build played other
 * games); its `content_hash` is the one ROOT's `sources` give
 * (foh_cardset_hash's formula over each file's label and hash); its
 * `cards` are ROOT's card set folders, its `variants` the names of the
 * variants among ROOT's sources, in order; its `players`, `seats` and
 * `seed` are ROOT's; `base_set` true only without variants or more card
 * sets; `command` a list of words starting "foh". */
const char *shard_provenance_bad(json_t *root, char *why, size_t len);

#endif

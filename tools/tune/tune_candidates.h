/* tune_candidates: a candidate of foh tune, a set of changes from the base:
 * its variant folder (the merged variants' sets and its changes) and its
 * card set, loaded with the variants loaded as they are. */
#ifndef FOH_TUNE_CANDIDATES_H
#define FOH_TUNE_CANDIDATES_H

#include "tune/tune.h"

/* Write the variant of candidate C to DIR/variant.yaml: the merged
 * variants' sets and C's changes, each with a comment (NOTES[k] or none). */
int tune_write_variant(const tuner *T, const candidate *c, const char *dir, const char *name, const char *desc,
                       char notes[][600], const char *header);
/* Load candidate C's card set (the base, the variants loaded as they are,
 * then C's variant folder); 0 after saying why not. */
int tune_load_candidate(tuner *T, candidate *c);
/* Free what candidate C holds (its card set, sums and games); C itself stays. */
void tune_drop_candidate(candidate *c);
/* A new candidate: FROM's changes (may be NULL) plus CH (CH.t < 0: none),
 * its card set loaded; NULL after saying why (out of memory, or it does not
 * load). */
candidate *tune_new_candidate(tuner *T, candidates *cand, const candidate *from, change ch);

#endif

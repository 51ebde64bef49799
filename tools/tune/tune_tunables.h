/* tune_tunables: the numbers a run of foh tune may change (whole-number
 * card params, stripe counts, some rule numbers), each with its range, and
 * the user's variants sorted into those merged into every candidate and
 * those loaded as they are. */
#ifndef FOH_TUNE_TUNABLES_H
#define FOH_TUNE_TUNABLES_H

#include "tune/tune.h"

/* Every tunable number of CS (the base with the user's variants). */
int tune_find_tunables(tuner *T, const foh_cardset *cs);
/* Split the user's variants: those made only of name, description and
 * `set:` are merged into the candidates' variant (so that the search may
 * change what they set); the others are loaded as they are. */
int tune_split_variants(tuner *T);

#endif

/* scenario_run: running scenario files (docs/scenarios.md) through the
 * engine's public API: set up a position, play the steps through the match
 * loop, compare expectations. Every field's shape is checked; a malformed
 * scenario is reported with file:line:column and the others still run. */
#ifndef FOH_SCENARIO_RUN_H
#define FOH_SCENARIO_RUN_H

#include "cli.h"

/* Totals of a run over one or more files. */
typedef struct {
    int scenarios; /* scenarios run to their end (passed or failed) */
    int failed;    /* ... with a failed step or expectation */
    int malformed; /* scenarios (or files) that could not be run */
    /* Coverage: ids of the cards whose rule took effect in a passing
     * scenario (see foh_engine_exercised), each once. */
    int ncovered, cap;
    char **covered;
} scenario_stats;

/* Where scenarios find their card set and variants. */
typedef struct {
    const char *cards;         /* card set folder for scenarios that name none */
    const char *variants_root; /* folder of the variants named in scenarios */
    int nvariants;             /* variants (folders) applied to every scenario first */
    const char *variant[CLI_MAX_VARIANTS];
    const cli_options *cli;    /* the search path for named card sets and variants (--mods, $FOH_MODS); may be NULL */
} scenario_options;

/* Run every scenario of the YAML file PATH: PASS/FAIL lines (and each
 * failure's differences) on stdout, malformed scenarios on stderr as
 * "foh scenario: file:line:column: problem". Counts into STATS. */
void scenario_run_file(const char *path, const scenario_options *opt, scenario_stats *stats);

void scenario_stats_free(scenario_stats *stats);

#endif

/* scenario_run: running scenario files (docs/scenarios.md) through the
 * engine's public API: set up a position, play the steps through the match
 * loop, compare expectations. Every field's shape is checked; a malformed
 * scenario is reported with file:line:column and the others still run. */
#ifndef FOH_SCENARIO_RUN_H
#define FOH_SCENARIO_RUN_H

#include "common/cli.h"

/* One card for coverage: its id and the folder of the file defining it
 * (the card set, expansion or variant that brought it). */
typedef struct {
    char *id, *origin;
    int covered;
} scenario_card;

/* Totals of a run over one or more files. */
typedef struct {
    int scenarios; /* scenarios run to their end (passed or failed) */
    int failed;    /* ... with a failed step or expectation */
    int malformed; /* scenarios (or files) that could not be run */
    /* Coverage: every card of every card set (with its variants) a
     * scenario loaded, once per id and folder of its definition, and
     * whether its rule took effect in a passing scenario (see
     * foh_engine_exercised). */
    int ncards, cap;
    scenario_card *cards;
} scenario_stats;

/* Where scenarios find their card set and variants. */
typedef struct {
    const char *cards;         /* card set folder for scenarios that name none */
    int nvariants;             /* variants (folders) applied to every scenario first */
    const char *variant[CLI_MAX_VARIANTS];
    const cli_options *cli;    /* the search path for named card sets and variants (--mods, $FOH_MODS) */
    /* foh check: with PROBLEM set nothing is printed; each malformed or
     * failed scenario is passed to it as one message starting with
     * "file:line[:column]: ". */
    void (*problem)(void *ctx, const char *message);
    void *problem_ctx;
} scenario_options;

/* Run every scenario of the YAML file PATH: PASS/FAIL lines (and each
 * failure's differences) on stdout, malformed scenarios on stderr as
 * "foh scenario: file:line:column: problem". Counts into STATS. */
void scenario_run_file(const char *path, const scenario_options *opt, scenario_stats *stats);

/* Run the scenario file PATH, or every .yaml file of the folder PATH (by
 * name). 0 after saying (as foh COMMAND) that PATH is not there or cannot
 * be read. */
int scenario_run_path(const char *command, const char *path, const scenario_options *opt, scenario_stats *stats);

void scenario_stats_free(scenario_stats *stats);

#endif

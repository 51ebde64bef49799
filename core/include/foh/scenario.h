/* Scenario files: set up an exact position in YAML, play steps through the
 * public API (turn actions and answers to choices), and check expectations
 * after any step. The format is documented in docs/scenarios.md. */
#ifndef FOH_SCENARIO_H
#define FOH_SCENARIO_H

#include "foh/cardset.h"
#include "foh/error.h"

#define FOH_SCENARIO_MAX_COVERED 512

/* Totals of a run over one or more files. */
typedef struct {
    int scenarios; /* scenarios run */
    int failed;    /* scenarios with a failed step or expectation */
    /* Coverage: ids of the cards whose rule took effect in a passing
     * scenario (see foh_engine_exercised), each once. */
    int ncovered;
    char covered[FOH_SCENARIO_MAX_COVERED][48];
} foh_scenario_stats;

/* Where scenarios find their card set and variants. */
typedef struct {
    const char *cards;         /* card set folder for scenarios that name none */
    const char *variants_root; /* folder of the variants named in scenarios */
    int nvariants;             /* variants (folders) applied to every scenario first */
    const char *variant[8];
} foh_scenario_options;

/* Receives the report, a line at a time (PASS/FAIL lines and diffs). */
typedef void (*foh_scenario_print)(void *ud, const char *line);

/* Run every scenario of the YAML file PATH with OPT. Failures are reported
 * through PRINT and counted in STATS; the return value is FOH_OK unless the
 * file itself is malformed (FOH_ERR_DATA, ERR names file:line and the
 * problem). */
foh_status foh_scenario_run_file(const char *path, const foh_scenario_options *opt, foh_scenario_print print,
                                 void *ud, foh_scenario_stats *stats, foh_error *err);

#endif

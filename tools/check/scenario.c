/* foh scenario: run scenario files and report failures and coverage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "any/any.h"
#include "check/scenario_run.h"
#include "commands.h"
#include "common/cli.h"

static const cli_option_id SCENARIO_OPTIONS[] = {OPT_COVERAGE, OPT_CARDS, OPT_VARIANT, OPT_MODS, OPT_COUNT};
static const cli_command SCENARIO = {
    "scenario", "PATH...", 1,
    "Runs every scenario in the YAML files given (a folder means every .yaml file in it, by\n"
    "name). Prints PASS or FAIL for each scenario and, for a failure, the step and what was\n"
    "expected versus what happened. A malformed scenario is reported with its file, line\n"
    "and column, and the others still run. The format is described in docs/scenarios.md.\n"
    "--cards is the card set of scenarios that name none; --variant applies to every\n"
    "scenario (before its own variants).\n",
    SCENARIO_OPTIONS,
    "exit status: 0 all passed, 1 a scenario failed or is malformed, 2 bad usage\n"};

/* Print which cards of every card set and variant the scenarios loaded
 * were exercised by a passing scenario: a total, a line per folder the
 * cards come from (base set, expansion, variant) and the cards missed. */
static int report_coverage(const scenario_stats *stats)
{
    int covered = 0;
    for (int k = 0; k < stats->ncards; k++)
        covered += stats->cards[k].covered;
    printf("coverage: card effects exercised by passing scenarios: %d of %d\n", covered, stats->ncards);
    for (int k = 0; k < stats->ncards; k++) {
        const char *origin = stats->cards[k].origin;
        int first = 1;
        for (int j = 0; j < k && first; j++)
            first = strcmp(stats->cards[j].origin, origin) != 0;
        if (!first)
            continue;
        int n = 0, seen = 0;
        for (int j = k; j < stats->ncards; j++)
            if (!strcmp(stats->cards[j].origin, origin)) {
                n++;
                seen += stats->cards[j].covered;
            }
        printf("  ");
        cli_puts(stdout, origin); /* a folder given by the user */
        printf(": %d of %d", seen, n);
        for (int j = k, listed = 0; j < stats->ncards && seen < n; j++)
            if (!strcmp(stats->cards[j].origin, origin) && !stats->cards[j].covered)
                printf("%s %s", listed++ ? "" : "; not exercised:", stats->cards[j].id);
        printf("\n");
    }
    return covered == stats->ncards;
}

int cmd_scenario(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&SCENARIO, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&SCENARIO, stdout);
        return st;
    }
    char cards[1024];
    if (any_ruleset(&o)) /* another ruleset's card set: through the interface alone */
        return any_scenario(&o);
    if (!cli_find(&o, "cards", o.cards, "game.yaml", cards, sizeof cards))
        snprintf(cards, sizeof cards, "%s", o.cards);
    scenario_options opt = {.cards = cards, .nvariants = o.nvariants, .cli = &o};
    for (int i = 0; i < o.nvariants; i++)
        opt.variant[i] = o.variant_dir[i];
    scenario_stats stats = {0};
    int ok = 1;
    for (int i = 0; i < o.nargs; i++)
        ok &= scenario_run_path("scenario", o.args[i], &opt, &stats);
    printf("%d passed, %d failed", stats.scenarios - stats.failed, stats.failed);
    if (stats.malformed)
        printf(", %d malformed", stats.malformed);
    printf("\n");
    if (o.coverage)
        ok &= report_coverage(&stats);
    ok &= stats.failed == 0 && stats.malformed == 0;
    scenario_stats_free(&stats);
    return ok ? CLI_OK : CLI_DATA;
}

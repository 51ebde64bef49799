/* foh scenario: run scenario files and report failures and coverage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "scenario_run.h"

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

/* Run the file or every .yaml file of the folder PATH; 0 if PATH is not there. */
static int run_path(const char *path, const scenario_options *opt, scenario_stats *stats)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        cli_error("scenario", "%s: no such file or folder", path);
        return 0;
    }
    if (!S_ISDIR(sb.st_mode)) {
        scenario_run_file(path, opt, stats);
        return 1;
    }
    char **names;
    int n = cli_list_dir(path, ".yaml", &names);
    if (n < 0) {
        cli_error("scenario", "%s: cannot read the folder", path);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *file = malloc(len);
        if (!file) {
            cli_error("scenario", "out of memory");
            cli_free_list(names, n);
            return 0;
        }
        snprintf(file, len, "%s/%s", path, names[i]);
        scenario_run_file(file, opt, stats);
        free(file);
    }
    cli_free_list(names, n);
    return 1;
}

/* Print which cards of the card set CARDS the passing scenarios exercised. */
static int report_coverage(const char *cards, const scenario_stats *stats)
{
    foh_error err;
    foh_cardset *cs = foh_cardset_load(cards, &err);
    if (!cs) {
        cli_error("scenario", "%s", err.msg);
        return 0;
    }
    int n = foh_cardset_card_count(cs), covered = 0, listed = 0;
    for (int c = 0; c < n; c++) {
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        int seen = 0;
        for (int k = 0; k < stats->ncovered && !seen; k++)
            seen = !strcmp(stats->covered[k], ci.id);
        covered += seen;
    }
    printf("coverage: card effects exercised by passing scenarios: %d of %d\n", covered, n);
    for (int c = 0; c < n && covered < n; c++) {
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        int seen = 0;
        for (int k = 0; k < stats->ncovered && !seen; k++)
            seen = !strcmp(stats->covered[k], ci.id);
        if (!seen)
            printf("%s %s", listed++ ? "" : "not exercised:", ci.id);
    }
    if (listed)
        printf("\n");
    foh_cardset_free(cs);
    return covered == n;
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
    char root[1024];
    cli_variant_dir(".", root, sizeof root);
    root[strlen(root) - 2] = '\0';
    char cards[1024];
    if (!cli_find(&o, "cards", o.cards, "game.yaml", cards, sizeof cards))
        snprintf(cards, sizeof cards, "%s", o.cards);
    scenario_options opt = {.cards = cards, .variants_root = root, .nvariants = o.nvariants, .cli = &o};
    for (int i = 0; i < o.nvariants; i++)
        opt.variant[i] = o.variant_dir[i];
    scenario_stats stats = {0};
    int ok = 1;
    for (int i = 0; i < o.nargs; i++)
        ok &= run_path(o.args[i], &opt, &stats);
    printf("%d passed, %d failed", stats.scenarios - stats.failed, stats.failed);
    if (stats.malformed)
        printf(", %d malformed", stats.malformed);
    printf("\n");
    if (o.coverage)
        ok &= report_coverage(o.cards, &stats);
    ok &= stats.failed == 0 && stats.malformed == 0;
    scenario_stats_free(&stats);
    return ok ? CLI_OK : CLI_DATA;
}

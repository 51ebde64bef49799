/* foh scenario: run scenario files and report failures and coverage. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const cli_option_id SCENARIO_OPTIONS[] = {OPT_COVERAGE, OPT_CARDS, OPT_VARIANT, OPT_COUNT};
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

static void print_line(void *ud, const char *line)
{
    (void)ud;
    printf("%s\n", line);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_path(const char *path, const foh_scenario_options *opt, foh_scenario_stats *stats)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "foh scenario: %s: no such file or folder\n", path);
        return 0;
    }
    if (S_ISDIR(sb.st_mode)) {
        DIR *d = opendir(path);
        if (!d) {
            fprintf(stderr, "foh scenario: %s: cannot open folder\n", path);
            return 0;
        }
        char *names[1024];
        int n = 0;
        for (struct dirent *e; (e = readdir(d)) && n < 1024;) {
            size_t len = strlen(e->d_name);
            if (len > 5 && !strcmp(e->d_name + len - 5, ".yaml")) {
                names[n] = malloc(strlen(path) + len + 2);
                if (names[n])
                    sprintf(names[n++], "%s/%s", path, e->d_name);
            }
        }
        closedir(d);
        qsort(names, (size_t)n, sizeof names[0], cmp_str);
        int ok = 1;
        for (int i = 0; i < n; i++) {
            ok &= run_path(names[i], opt, stats);
            free(names[i]);
        }
        return ok;
    }
    foh_error err;
    if (foh_scenario_run_file(path, opt, print_line, NULL, stats, &err) != FOH_OK) {
        fprintf(stderr, "foh scenario: %s\n", err.msg);
        return 0;
    }
    return 1;
}

/* Print which cards of the card set CARDS the passing scenarios exercised. */
static int report_coverage(const char *cards, const foh_scenario_stats *stats)
{
    foh_error err;
    foh_cardset *cs = foh_cardset_load(cards, &err);
    if (!cs) {
        fprintf(stderr, "foh scenario: %s\n", err.msg);
        return 0;
    }
    int n = foh_cardset_card_count(cs), covered = 0;
    char missing[4096] = "";
    size_t len = 0;
    for (int c = 0; c < n; c++) {
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        int seen = 0;
        for (int k = 0; k < stats->ncovered && !seen; k++)
            seen = !strcmp(stats->covered[k], ci.id);
        covered += seen;
        if (!seen && len < sizeof missing)
            len += (size_t)snprintf(missing + len, sizeof missing - len, " %s", ci.id);
    }
    printf("coverage: card effects exercised by passing scenarios: %d of %d\n", covered, n);
    if (covered < n)
        printf("not exercised:%s\n", missing);
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
    foh_scenario_options opt = {.cards = o.cards, .variants_root = root, .nvariants = o.nvariants};
    for (int i = 0; i < o.nvariants; i++)
        opt.variant[i] = o.variant_dir[i];
    foh_scenario_stats *stats = calloc(1, sizeof *stats);
    if (!stats)
        return CLI_DATA;
    int ok = 1;
    for (int i = 0; i < o.nargs; i++)
        ok &= run_path(o.args[i], &opt, stats);
    printf("%d passed, %d failed\n", stats->scenarios - stats->failed, stats->failed);
    if (o.coverage)
        ok &= report_coverage(o.cards, stats);
    ok &= stats->failed == 0;
    free(stats);
    return ok ? CLI_OK : CLI_DATA;
}

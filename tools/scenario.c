/* foh scenario: run scenario files and report failures and coverage. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char HELP[] =
    "usage: foh scenario [--coverage] [--cards DIR] [--variant NAME]... PATH...\n"
    "\n"
    "Runs every scenario in the YAML files given (a folder means every .yaml\n"
    "file in it, by name). Prints PASS or FAIL for each scenario and, for a\n"
    "failure, the step and what was expected versus what happened.\n"
    "The format is described in docs/scenarios.md.\n"
    "\n"
    "  --coverage    also print which cards' effects the passing scenarios\n"
    "                exercised, and fail unless all of them were\n"
    "  --cards DIR   card set for scenarios that name none (default: base set)\n"
    "  --variant V   apply variant V to every scenario (before its own variants)\n"
    "\n"
    "exit status: 0 all passed, 1 a scenario failed or a file is malformed\n"
    "(the message names file and line), 2 bad usage\n";

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
    const char *cards = NULL;
    int coverage = 0, npaths = 0;
    cli_options defaults;
    cli_parse(0, NULL, "scenario", "", &defaults);
    cards = defaults.cards;
    char vdirs[8][1024];
    char root[1024];
    cli_variant_dir(".", root, sizeof root);
    root[strlen(root) - 2] = '\0';
    foh_scenario_options opt = {.variants_root = root};
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(HELP, stdout);
            return CLI_OK;
        } else if (!strcmp(argv[i], "--coverage")) {
            coverage = 1;
        } else if (!strcmp(argv[i], "--cards") && i + 1 < argc) {
            cards = argv[++i];
        } else if (!strcmp(argv[i], "--variant") && i + 1 < argc) {
            if (opt.nvariants >= 8) {
                fprintf(stderr, "foh scenario: at most 8 variants\n");
                return CLI_USAGE;
            }
            cli_variant_dir(argv[++i], vdirs[opt.nvariants], sizeof vdirs[0]);
            opt.variant[opt.nvariants] = vdirs[opt.nvariants];
            opt.nvariants++;
        } else if (!strncmp(argv[i], "--", 2)) {
            fprintf(stderr, "foh scenario: unknown option '%s' (see foh scenario --help)\n", argv[i]);
            return CLI_USAGE;
        } else {
            npaths++;
        }
    }
    if (npaths == 0) {
        fprintf(stderr, "foh scenario: give at least one scenario file or folder\n");
        return CLI_USAGE;
    }
    foh_scenario_stats *stats = calloc(1, sizeof *stats);
    if (!stats)
        return CLI_DATA;
    int ok = 1;
    opt.cards = cards;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--cards") || !strcmp(argv[i], "--variant"))
            i++;
        else if (strncmp(argv[i], "--", 2))
            ok &= run_path(argv[i], &opt, stats);
    }
    printf("%d passed, %d failed\n", stats->scenarios - stats->failed, stats->failed);
    if (coverage)
        ok &= report_coverage(cards, stats);
    ok &= stats->failed == 0;
    free(stats);
    return ok ? CLI_OK : CLI_DATA;
}

/* foh compare: an A/B test of two configurations on the same seeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sim_stats.h"

static const cli_option_id COMPARE_OPTIONS[] = {OPT_PLAYERS, OPT_GAMES, OPT_SEED, OPT_SEATS, OPT_THREADS,
                                                OPT_A_CARDS, OPT_A_VARIANT, OPT_B_CARDS, OPT_B_VARIANT,
                                                OPT_LUA_INSTRUCTIONS, OPT_LUA_MEMORY, OPT_ACTION_TIME, OPT_MODS,
                                                OPT_COUNT};
static const cli_command COMPARE = {
    "compare", NULL, 0,
    "Simulates configuration A and configuration B (a card folder and variants each; the\n"
    "base set without variants by default) on the same game seeds and prints, for each\n"
    "figure of the report, A, B, their difference B - A and its 95% confidence interval;\n"
    "'*' marks a difference whose interval excludes 0.\n",
    COMPARE_OPTIONS, NULL};

int cmd_compare(int argc, char **argv)
{
    cli_options common;
    int status = cli_parse(&COMPARE, argc, argv, &common);
    if (status != CLI_OK || common.help) {
        if (common.help)
            cli_help(&COMPARE, stdout);
        return status;
    }
    /* Each side: the common options, its own card set and variants. */
    cli_options o[2];
    foh_cardset *cs[2] = {NULL, NULL};
    sim_stats *st[2] = {NULL, NULL};
    for (int k = 0; status == CLI_OK && k < 2; k++) {
        o[k] = common;
        o[k].nvariants = 0;
        if (common.side_cards[k])
            o[k].cards = common.side_cards[k];
        for (int i = 0; i < common.side_nvariants[k]; i++) {
            o[k].variant[i] = common.side_variant[k][i];
            /* Like --variant: a path, or a name along the search path. */
            if (!cli_find(&common, "variants", o[k].variant[i], "variant.yaml", o[k].variant_dir[i],
                          sizeof o[k].variant_dir[i])) {
                cli_error("compare", "unknown variant '%s' ('foh variants' lists them; --mods DIR and $FOH_MODS "
                                     "add folders to look in)", o[k].variant[i]);
                status = CLI_USAGE;
                break;
            }
            o[k].nvariants++;
        }
        foh_engine *eng;
        if (status != CLI_OK)
            break;
        if (!cli_load(&o[k], &cs[k], &eng)) {
            status = CLI_DATA;
            break;
        }
        foh_engine_free(eng);
        const char *note;
        if (!foh_cardset_allows_players(cs[k], o[k].players, &note)) {
            cli_error("compare", "configuration %c: %d players are not allowed. %s", 'A' + k, o[k].players, note);
            status = CLI_USAGE;
        }
    }
    for (int k = 0; status == CLI_OK && k < 2; k++) {
        st[k] = calloc(1, sizeof *st[k]);
        status = st[k] ? sim_run(&o[k], cs[k], st[k]) : CLI_DATA;
    }
    if (status == CLI_OK) {
        for (int k = 0; k < 2; k++) {
            printf("%c: ", 'A' + k);
            sim_print_header(stdout, st[k]->games, &o[k], cs[k]);
        }
        int flagged = sim_stats_print_diff(stdout, st[0], cs[0], st[1], cs[1], o[0].players);
        printf("%d figure%s differ significantly (95%%)\n", flagged, flagged == 1 ? "" : "s");
    }
    for (int k = 0; k < 2; k++) {
        free(st[k]);
        foh_cardset_free(cs[k]);
    }
    return status;
}

/* foh compare: an A/B test of two configurations on the same seeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sim_stats.h"

static const char HELP[] =
    "usage: foh compare [--players N] [--games G] [--seed S] [--seats SPECS] [--threads T]\n"
    "                   [--a-cards DIR] [--a-variant V]... [--b-cards DIR] [--b-variant V]...\n"
    "\n"
    "Simulates configuration A and configuration B (a card folder and variants\n"
    "each; the base set without variants by default) on the same game seeds\n"
    "and prints, for each figure of the report, A, B, their difference B - A\n"
    "and its 95% confidence interval; '*' marks a difference whose interval\n"
    "excludes 0.\n";

int cmd_compare(int argc, char **argv)
{
    /* Split the arguments: common ones go to both, --a-X / --b-X to one. */
    char **side[2];
    int n[2] = {0, 0};
    side[0] = calloc((size_t)argc + 1, sizeof(char *));
    side[1] = calloc((size_t)argc + 1, sizeof(char *));
    char *flag_copy[2][64];
    int copies = 0;
    int status = side[0] && side[1] ? CLI_OK : CLI_DATA;
    for (int i = 0; status == CLI_OK && i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(HELP, stdout);
            status = -1;
            break;
        }
        int which = !strncmp(argv[i], "--a-", 4) ? 0 : !strncmp(argv[i], "--b-", 4) ? 1 : -1;
        if (which >= 0 && i + 1 < argc && copies < 64) {
            /* "--a-variant" -> "--variant" */
            flag_copy[which][copies] = malloc(strlen(argv[i]));
            if (!flag_copy[which][copies]) {
                status = CLI_DATA;
                break;
            }
            sprintf(flag_copy[which][copies], "--%s", argv[i] + 4);
            side[which][n[which]++] = flag_copy[which][copies];
            side[which][n[which]++] = argv[++i];
            flag_copy[!which][copies] = NULL;
            copies++;
        } else {
            side[0][n[0]++] = argv[i];
            side[1][n[1]++] = argv[i];
        }
    }
    cli_options o[2];
    foh_cardset *cs[2] = {NULL, NULL};
    sim_stats *st[2] = {NULL, NULL};
    for (int k = 0; status == CLI_OK && k < 2; k++) {
        foh_engine *eng;
        if (!cli_parse(n[k], side[k], "compare", "players,seed,games,cards,variant,seats,threads", &o[k]))
            status = CLI_USAGE;
        else if (!cli_load(&o[k], &cs[k], &eng))
            status = CLI_DATA;
        else {
            foh_engine_free(eng);
            const char *note;
            if (!foh_cardset_allows_players(cs[k], o[k].players, &note)) {
                fprintf(stderr, "foh compare: configuration %c: %d players are not allowed. %s\n", 'A' + k,
                        o[k].players, note);
                status = CLI_USAGE;
            }
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
    for (int c = 0; c < copies; c++)
        for (int k = 0; k < 2; k++)
            free(flag_copy[k][c]);
    free(side[0]);
    free(side[1]);
    return status < 0 ? CLI_OK : status;
}

/* foh merge: add `foh sim --shard i/k --save-shard FILE` outputs into the
 * report of the whole run (docs/scaling.md). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sim_stats.h"

static const char HELP[] =
    "usage: foh merge [--json FILE] [--html FILE] SHARD...\n"
    "\n"
    "Adds the raw sums written by 'foh sim --shard i/k --save-shard SHARD' and\n"
    "prints the report of the whole run: the same, byte for byte, as one\n"
    "'foh sim' over all the games. The shards must come from the same card set,\n"
    "variants, players, seats, seed and number of games.\n";

int cmd_merge(int argc, char **argv)
{
    const char *json = NULL, *html = NULL;
    int nfiles = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(HELP, stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (!strcmp(argv[i], "--html") && i + 1 < argc)
            html = argv[++i];
        else if (!strncmp(argv[i], "--", 2)) {
            fprintf(stderr, "foh merge: unknown option '%s'\n", argv[i]);
            return CLI_USAGE;
        } else
            nfiles++;
    }
    if (!nfiles) {
        fprintf(stderr, "foh merge: give the shard files to merge\n");
        return CLI_USAGE;
    }
    sim_stats *total = calloc(1, sizeof *total);
    json_t *meta = NULL;
    int ok = total != NULL;
    for (int i = 0; ok && i < argc; i++) {
        if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--html"))
            i++;
        else
            ok = sim_stats_load_shard(argv[i], total, (void **)&meta);
    }
    if (!ok) {
        free(total);
        json_decref(meta);
        return CLI_DATA;
    }
    cli_options o;
    cli_parse(0, NULL, "merge", "", &o);
    o.cards = json_string_value(json_object_get(meta, "cards"));
    o.players = (int)json_integer_value(json_object_get(meta, "players"));
    o.seats = json_string_value(json_object_get(meta, "seats"));
    o.seed = (uint64_t)json_integer_value(json_object_get(meta, "seed"));
    json_t *vs = json_object_get(meta, "variants");
    const char *dirs[CLI_MAX_VARIANTS];
    int nv = 0;
    for (size_t i = 0; i < json_array_size(vs) && nv < CLI_MAX_VARIANTS; i++)
        dirs[nv++] = json_string_value(json_array_get(vs, i));
    foh_error err;
    foh_cardset *cs = o.cards && o.seats ? foh_cardset_load_variants(o.cards, dirs, nv, &err) : NULL;
    int status = CLI_OK;
    if (!cs) {
        fprintf(stderr, "foh merge: %s\n", o.cards && o.seats ? err.msg : "a shard lacks its description");
        status = CLI_DATA;
    } else {
        long expected = (long)json_integer_value(json_object_get(meta, "total_games"));
        if (total->games != expected)
            fprintf(stderr, "foh merge: warning: the shards hold %ld of the run's %ld games\n", total->games,
                    expected);
        sim_print_header(stdout, total->games, &o, cs);
        sim_stats_print(stdout, total, cs, o.players, o.seats);
        if (!sim_stats_write_reports("merge", json, html, total, cs, o.players, o.seats, o.seed))
            status = CLI_DATA;
        foh_cardset_free(cs);
    }
    free(total);
    json_decref(meta);
    return status;
}

/* foh merge: add `foh sim --shard i/k --save-shard FILE` outputs into the
 * report of the whole run (docs/scaling.md); foh compare's shards go to
 * compare_merge (compare_shard.c). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/cli.h"
#include "common/provenance.h"
#include "common/origin.h"
#include "sim/compare_shard.h"
#include "sim/impact.h"
#include "sim/sim.h"
#include "sim/sim_stats.h"

static const cli_option_id MERGE_OPTIONS[] = {OPT_JSON, OPT_HTML, OPT_PARTIAL, OPT_COUNT};
static const cli_command MERGE = {
    "merge", "SHARD...", 1,
    "Adds the raw sums written by 'foh sim --shard i/k --save-shard SHARD' and prints the\n"
    "report of the whole run: the same, byte for byte, as one 'foh sim' over all the\n"
    "games. The shards must come from the same card set, variants, players, seats, seed\n"
    "and number of games. Shards saved with --impact give the run's impact table too\n"
    "(all of them must have it, or none). A missing part is an error (a lost shard would\n"
    "pass for the whole run), unless --partial is given.\n"
    "The shards of 'foh compare ... --shard i/k --save-shard SHARD' (told apart by their\n"
    "format) merge into exactly the report of that foh compare; all k parts are needed.\n",
    MERGE_OPTIONS, NULL};

/* What the merged JSON report adds to the sums: its provenance (this
 * merge, and the first shard's foh sim as `shards_provenance`) and the
 * same `impact` field as foh sim --impact --json. NULL if out of memory. */
static json_t *merge_extra(const cli_options *o, const foh_cardset *cs, json_t *meta, const impact_stats *impact)
{
    json_t *extra = json_pack("{s:o*}", "provenance", provenance_json(o, cs));
    json_t *run = json_object_get(meta, "provenance");
    if (extra && json_is_object(run))
        json_object_set_new(extra, "shards_provenance", json_deep_copy(run));
    if (extra && impact)
        json_object_set_new(extra, "impact", impact_json(impact, cs));
    return extra;
}

int cmd_merge(int argc, char **argv)
{
    cli_options opts;
    int st = cli_parse(&MERGE, argc, argv, &opts);
    if (st != CLI_OK || opts.help) {
        if (opts.help)
            cli_help(&MERGE, stdout);
        return st;
    }
    if (compare_shard_file(opts.args[0])) /* foh compare's shards: both sides, into its report */
        return compare_merge(&opts);
    const char *json = opts.json, *html = opts.html;
    sim_stats *total = calloc(1, sizeof *total);
    sim_labels labels = {0}; /* the shards' text answers by label */
    impact_stats *impact = NULL; /* --impact's sums */
    json_t *meta = NULL;
    int ok = total != NULL, shards = 0;
    int *seen = NULL; /* seen[i - 1]: 1 + the argument holding part i */
    for (int i = 0; ok && i < opts.nargs; i++) {
        int part, parts;
        json_t *isums;
        long games_before = total->games;
        sim_shard_layout layout;
        ok = sim_stats_load_shard(opts.args[i], total, &labels, (void **)&meta, opts.args[0], &part, &parts, &isums,
                                  &layout);
        long games = total->games - games_before; /* checked against the part's share of the run's games */
        if (ok)
            ok = impact_add_shard(opts.args[i], opts.args[0], i, isums, games,
                                  (int)json_integer_value(json_object_get(meta, "players")), layout.cards, &impact);
        json_decref(isums);
        if (ok && !seen) {
            shards = parts;
            ok = (seen = calloc((size_t)parts, sizeof *seen)) != NULL;
        }
        if (ok && parts != shards) {
            cli_error("merge", "%s: part %d of %d, while the first shard is one of %d parts", opts.args[i], part, parts,
                      shards);
            ok = 0;
        } else if (ok && seen[part - 1]) {
            cli_error("merge", "%s: part %d of %d, the same part as %s: its games would count twice", opts.args[i],
                      part, parts, opts.args[seen[part - 1] - 1]);
            ok = 0;
        } else if (ok) {
            seen[part - 1] = i + 1;
        }
    }
    if (!ok) {
        free(seen);
        free(impact);
        free(total);
        sim_labels_free(&labels);
        json_decref(meta);
        return CLI_DATA;
    }
    int missing = 0;
    for (int i = 0; i < shards; i++)
        if (!seen[i]) {
            cli_error("merge", "%spart %d of %d is missing%s", opts.partial ? "warning: " : "", i + 1, shards,
                      opts.partial ? "" : " (its shard was lost, or not run: --partial merges the parts there are)");
            missing++;
        }
    free(seen);
    if (missing && !opts.partial) {
        free(impact);
        free(total);
        sim_labels_free(&labels);
        json_decref(meta);
        return CLI_DATA;
    }
    /* The card set as the shards recorded it (checked by sim_stats_load_shard). */
    cli_options o;
    cli_defaults(&o);
    o.command = opts.command; /* the report's provenance: this merge, and the shards' run below */
    o.argc = opts.argc;
    o.argv = opts.argv;
    o.players = (int)json_integer_value(json_object_get(meta, "players"));
    o.seats = json_string_value(json_object_get(meta, "seats"));
    o.seed = (uint64_t)json_integer_value(json_object_get(meta, "seed"));
    origin *og = malloc(sizeof *og);
    char why[ORIGIN_PATH + 64];
    foh_cardset *cs = NULL;
    foh_engine *eng = NULL;
    int status = CLI_OK;
    if (!og || !origin_read(meta, og, why, sizeof why)) {
        cli_error("merge", "%s", og ? why : "out of memory");
        status = CLI_DATA;
    } else {
        origin_apply(og, &o);
        if (!cli_load(&o, &cs, &eng))
            status = CLI_DATA;
        foh_engine_free(eng);
    }
    /* The card set must still be the one the shards were made with: the
     * report names its cards. */
    json_t *now = status == CLI_OK ? origin_sources(cs) : NULL;
    if (status == CLI_OK && (!now || origin_sources_differ(json_object_get(meta, "sources"), now, opts.args[0],
                                                           "the card set now", why, sizeof why))) {
        cli_error("merge", "%s: its card set has changed since the shards were made: %s", opts.args[0],
                  now ? why : "out of memory");
        status = CLI_DATA;
        foh_cardset_free(cs);
    }
    json_decref(now);
    if (status == CLI_OK) {
        long expected = (long)json_integer_value(json_object_get(meta, "total_games"));
        if (total->games + total->skipped > expected) { /* each part is checked above: cannot happen */
            cli_error("merge", "the shards hold %ld of the run's %ld games", total->games + total->skipped, expected);
            status = CLI_DATA;
            foh_cardset_free(cs);
        } else if (total->games != expected)
            cli_error("merge", "warning: the shards hold %ld of the run's %ld games", total->games, expected);
    }
    if (status == CLI_OK) {
        sim_print_header(stdout, total->games, &o, cs);
        sim_stats_print(stdout, total, &labels, cs, o.players, o.seats);
        if (impact)
            impact_print(stdout, impact, cs);
        json_t *extra = json || html ? merge_extra(&o, cs, meta, impact) : NULL;
        if (!sim_stats_write_reports("merge", json, html, total, &labels, cs, o.players, o.seats, o.seed, extra))
            status = CLI_DATA;
        foh_cardset_free(cs);
    }
    free(og);
    free(impact);
    free(total);
    sim_labels_free(&labels);
    json_decref(meta);
    return status;
}

/* foh compare: an A/B test of two configurations on the same seeds. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "any/any_compare.h"
#include "commands.h"
#include "common/cli.h"
#include "common/provenance.h"
#include "sim/compare_diff.h"
#include "sim/compare_saved.h"
#include "sim/compare_shard.h"
#include "sim/fate.h"
#include "sim/impact.h"
#include "sim/sim.h"
#include "sim/sim_stats.h"

static const cli_option_id COMPARE_OPTIONS[] = {OPT_PLAYERS, OPT_GAMES, OPT_SEED, OPT_SEATS, OPT_THREADS,
                                                OPT_CARDS, OPT_A_CARDS, OPT_A_VARIANT, OPT_B_CARDS, OPT_B_VARIANT,
                                                OPT_LUA_INSTRUCTIONS, OPT_LUA_MEMORY, OPT_ACTION_TIME, OPT_MODS,
                                                OPT_JSON, OPT_HTML, OPT_IMPACT, OPT_SHARD, OPT_SAVE_SHARD,
                                                OPT_COUNT};
static const cli_command COMPARE = {
    "compare", "[A.json B.json]", 0,
    "Simulates configuration A and configuration B (a card folder and variants each; the\n"
    "base set without variants by default) on the same game seeds and prints, for each\n"
    "figure of the report, A, B, their difference B - A, its 95% confidence interval and\n"
    "p-value; '*' marks the differences that survive a Benjamini-Hochberg correction for\n"
    "the number of figures tested (false-discovery rate 5%); '-' where a side has no data.\n"
    "Cards are matched by id; a card of one side only is listed 'only in A' / 'only in B'.\n"
    "The report leads with what differs between A and B, read from their files (cards,\n"
    "params, rules, scripts, variants), and each changed card's rows, its fate (what became\n"
    "of it after it was gained, keepers against losers) and, with --impact, its impact in\n"
    "A and in B; then the cards ranked by how far their figures moved (the games alone, the\n"
    "files not used); then every figure.\n"
    "--json and --html write the same comparison as a document and as a page.\n"
    "With two files, compares two saved reports of foh sim --json instead (their games are\n"
    "independent samples: the intervals combine the reports' own; each report's provenance).\n"
    "With --shard i/k --save-shard FILE, plays that part of the games of both sides and\n"
    "keeps their sums in FILE; 'foh merge' adds the k files into exactly this report\n"
    "(docs/scaling.md).\n",
    COMPARE_OPTIONS, NULL};

int compare_report(cli_options o[2], foh_cardset *cs[2], sim_stats *st[2], fate_stats *fate[2],
                   impact_stats *impact[2], const json_t *diff, const char *json, const char *html,
                   const char *const cards[2], json_t *shards_prov[2])
{
    for (int k = 0; k < 2; k++) {
        printf("%c: ", 'A' + k);
        sim_print_header(stdout, st[k]->games, &o[k], cs[k]);
    }
    json_t *meta = json_pack("{s:i,s:I,s:s}", "players", o[0].players, "seed", (json_int_t)o[0].seed, "seats",
                             o[0].seats);
    compare_focus focus = {diff, {fate[0], fate[1]}, {NULL, NULL}};
    for (int k = 0; k < 2; k++) {
        json_t *variants = json_array();
        for (int i = 0; i < foh_cardset_variant_count(cs[k]); i++)
            json_array_append_new(variants, json_string(foh_cardset_variant_name(cs[k], i)));
        /* The shards' provenance right after the merge's: tests strip both. */
        json_object_set_new(meta, k ? "b" : "a",
                            json_pack("{s:o*,s:O*,s:s,s:o}", "provenance", provenance_json(&o[k], cs[k]),
                                      "shards_provenance", shards_prov ? shards_prov[k] : NULL, "cards", cards[k],
                                      "variants", variants));
        if (impact[k])
            focus.impact[k] = impact_json(impact[k], cs[k]);
    }
    int status = sim_compare(stdout, json, html, st[0], cs[0], st[1], cs[1], o[0].players, meta, &focus)
                     ? CLI_OK
                     : CLI_DATA;
    json_decref(meta);
    for (int k = 0; k < 2; k++)
        json_decref((json_t *)focus.impact[k]);
    return status;
}

int cmd_compare(int argc, char **argv)
{
    cli_options common;
    int status = cli_parse(&COMPARE, argc, argv, &common);
    if (status != CLI_OK || common.help) {
        if (common.help)
            cli_help(&COMPARE, stdout);
        return status;
    }
    if (common.nargs == 2) { /* two saved reports: their figures are what they are */
        if (common.given & ~((uint64_t)1 << OPT_JSON)) {
            cli_error("compare", "two saved reports are compared as they are: only --json may be given with them");
            return CLI_USAGE;
        }
        return compare_saved(common.args[0], common.args[1], common.json);
    }
    if (common.nargs != 0) {
        cli_error("compare", "give two saved reports (A.json B.json) or none (see foh compare --help)");
        return CLI_USAGE;
    }
    if (any_compare_applies(&common)) { /* another ruleset's card sets: through the interface alone */
        if ((common.given >> OPT_SHARD & 1) || common.save_shard) {
            cli_error("compare", "--shard and --save-shard are for The Flow of History's card sets only: another "
                                 "ruleset's compare plays all its games in one run");
            return CLI_USAGE;
        }
        return any_compare(&common);
    }
    /* Each side: the common options, its own card set and variants. */
    cli_options o[2];
    foh_cardset *cs[2] = {NULL, NULL};
    sim_stats *st[2] = {NULL, NULL};
    fate_stats *fate[2] = {NULL, NULL};
    impact_stats *impact[2] = {NULL, NULL};
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
    const char *outputs[] = {common.json, common.html, common.save_shard};
    for (int i = 0; status == CLI_OK && i < 3; i++)
        if (outputs[i] && !cli_can_write(outputs[i])) {
            cli_error("compare", "cannot write %s: %s", outputs[i], strerror(errno));
            status = CLI_DATA;
        }
    /* What differs, before the games: the fates are watched (a look at
     * every card after every decision) only when a card changed. */
    json_t *diff = status == CLI_OK ? compare_diff(cs[0], cs[1]) : NULL;
    int want_fate = json_array_size(json_object_get(diff, "cards")) > 0;
    for (int k = 0; status == CLI_OK && k < 2; k++) {
        st[k] = calloc(1, sizeof *st[k]);
        fate[k] = want_fate ? fate_stats_new(foh_cardset_card_count(cs[k])) : NULL;
        impact[k] = common.impact ? calloc(1, sizeof *impact[k]) : NULL;
        status = st[k] && (fate[k] || !want_fate) && (impact[k] || !common.impact)
                     ? sim_run_fate(&o[k], cs[k], st[k], NULL, impact[k], NULL, fate[k])
                     : CLI_DATA;
        if (status == CLI_DATA && (!st[k] || (want_fate && !fate[k])))
            cli_error("compare", "out of memory");
    }
    if (status == CLI_OK && o[0].save_shard && !compare_save_shard(o, cs, st, fate, impact))
        status = CLI_DATA;
    if (status == CLI_OK) {
        const char *cards[2] = {o[0].cards, o[1].cards};
        status = compare_report(o, cs, st, fate, impact, diff, common.json, common.html, cards, NULL);
    }
    json_decref(diff);
    for (int k = 0; k < 2; k++) {
        free(st[k]);
        fate_stats_free(fate[k]);
        free(impact[k]);
        foh_cardset_free(cs[k]);
    }
    return status;
}

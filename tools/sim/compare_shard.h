/* foh compare on shards (docs/scaling.md): `foh compare ... --shard i/k
 * --save-shard FILE` keeps both sides' sums, `foh merge` adds the files
 * into exactly the single run's report. */
#ifndef FOH_COMPARE_SHARD_H
#define FOH_COMPARE_SHARD_H

#include <jansson.h>

#include "common/cli.h"
#include "sim/fate.h"
#include "sim/impact.h"
#include "sim/sim_stats.h"

/* The report of foh compare (compare.c) of sides O (their options; the
 * common ones, players, seeds and seats, from O[0]) on card sets CS with
 * the sums ST, FATE (NULL each when no card changed) and IMPACT (NULL each
 * without --impact), DIFF their compare_diff; text on stdout, JSON / HTML
 * to JSON / HTML unless NULL. CARDS: each side's card set as the report's
 * JSON names it (as given on the command line); SHARDS_PROV (or NULL):
 * each side's provenance as its shards recorded it (foh merge; a new
 * reference taken each). A CLI status. */
int compare_report(cli_options o[2], foh_cardset *cs[2], sim_stats *st[2], fate_stats *fate[2],
                   impact_stats *impact[2], const json_t *diff, const char *json, const char *html,
                   const char *const cards[2], json_t *shards_prov[2]);

/* Write O[0].save_shard: format foh-compare-shard/1, each side's sim
 * shard object (sim_stats_shard_json, with its --impact sums) with the
 * card set as given (`report_cards`) and its fate sums (when a card
 * changed). 0 after saying why not. */
int compare_save_shard(cli_options o[2], foh_cardset *cs[2], sim_stats *st[2], fate_stats *fate[2],
                       impact_stats *impact[2]);

/* 1 if the file PATH is a shard of foh compare (by its format; 0 if it is
 * not, or cannot be read: foh merge then says why). */
int compare_shard_file(const char *path);

/* foh merge of the compare shards OPTS->args (OPTS->json, ->html): each
 * file checked as foh merge checks a sim shard, side by side, the two
 * sides of one part, every part once; prints the single run's report. A
 * CLI status. */
int compare_merge(const cli_options *opts);

#endif

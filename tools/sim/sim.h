/* The simulation of foh sim (sim.c), which the other commands of the sim
 * family (compare, merge, --ablation, --skill-ladder) and foh tune (tools/tune/)
 * play their games through. */
#ifndef FOH_SIM_H
#define FOH_SIM_H

#include "sim/sim_labels.h"
#include <stdio.h>

#include "common/cli.h"
#include "foh/foh.h"

struct sim_stats_s;
/* Play the simulation O describes (its shard) on CS, adding the games into
 * TOTAL (a sim_stats); writes the CSV and trace files if asked. A CLI status. */
int sim_run(const cli_options *o, const foh_cardset *cs, struct sim_stats_s *total);
/* The same, also adding each game's positions and gains into IMPACT (an
 * impact_stats, tools/sim/impact.h) unless it is NULL. */
struct impact_stats_s;
int sim_run_impact(const cli_options *o, const foh_cardset *cs, struct sim_stats_s *total,
                   struct impact_stats_s *impact);
/* What one game ended with, for comparisons paired on the game seeds
 * (foh sim --ablation). */
typedef struct {
    int played;     /* 0: skipped after an error (--on-error skip) */
    int turns;      /* game length in turns */
    int stalled;    /* ended by the turn limit */
    long score_sum; /* final VP, summed over the players */
    int winners;    /* players sharing the win */
    long winner_sum; /* their final VP, summed */
} sim_outcome;
/* sim_run_impact, also filling OUTCOMES (unless NULL; one per game of O's
 * shard, in game order) with each game's outcome. */
int sim_run_outcomes(const cli_options *o, const foh_cardset *cs, struct sim_stats_s *total,
                     struct impact_stats_s *impact, sim_outcome *outcomes);
/* sim_run_outcomes, also counting the text answers to choices by label
 * into LABELS (unless NULL): foh sim's report names them. */
int sim_run_labels(const cli_options *o, const foh_cardset *cs, struct sim_stats_s *total, sim_labels *labels,
                   struct impact_stats_s *impact, sim_outcome *outcomes);
/* sim_run_labels, also adding what became of each gained card into FATE
 * (a fate_stats of CS's card count, tools/sim/fate.h) unless it is NULL. */
struct fate_stats_s;
int sim_run_fate(const cli_options *o, const foh_cardset *cs, struct sim_stats_s *total, sim_labels *labels,
                 struct impact_stats_s *impact, sim_outcome *outcomes, struct fate_stats_s *fate);

/* Called by sim_play_range for each game it finishes, in the playing
 * thread: game I (0-based, of O's seed), its result R and, when IMPACT was
 * asked, the positions and gains watched (tools/sim/impact.h; else NULL).
 * Returns 0 to stop the range with the message it put in ERR (LEN bytes). */
struct game_result_s;
struct impact_game_s;
typedef struct {
    int (*fn)(void *ud, long i, const struct game_result_s *r, const struct impact_game_s *ig, char *err,
              size_t len);
    void *ud;
    int impact; /* watch the positions and gains of every game (costs a score per turn) */
} sim_game_hook;

/* Play games [FROM, TO) of O (game i seeded foh_seed_for(o->seed, i)) on CS
 * in the calling thread, adding them into TOTAL and, unless HOOK is NULL,
 * handing each game to HOOK; no files, no output. A CLI status; ERR gets
 * the reason when not CLI_OK. For foh tune. */
int sim_play_range(const cli_options *o, const foh_cardset *cs, long from, long to, struct sim_stats_s *total,
                   const sim_game_hook *hook, char *err, size_t len);

/* The simulation report's first line (foh sim and foh merge print the same). */
void sim_print_header(FILE *out, long games, const cli_options *o, const foh_cardset *cs);
/* 1 if CS allows PLAYERS players; else 0 after saying so as COMMAND, with
 * the counts it allows, and the card set's note (game.yaml players.note,
 * e.g. the variant that plays with 2) only for a count below the smallest. */
int sim_players_allowed(const char *command, const foh_cardset *cs, int players);

#endif

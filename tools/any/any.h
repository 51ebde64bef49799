/* any: the foh commands for a card set of any ruleset, through the ruleset
 * interface alone (any.c). */
#ifndef FOH_ANY_H
#define FOH_ANY_H

#include "common/cli.h"
#include "foh/bot.h"

/* 1 if O's (first) card set names a ruleset other than the registry's
 * default: the command then runs its any_* form. */
int any_ruleset(const cli_options *o);
/* foh play: bots only; the log, then the results. */
int any_play(const cli_options *o);
/* foh sim: each seat's wins with Wilson 95% intervals, turns per game;
 * --json writes them. */
int any_sim(const cli_options *o);
/* foh check: the loader's checking mode, then random-bot games each
 * played twice (the ruleset must be deterministic). */
int any_check(const cli_options *o);
/* foh scenario: scenarios by action names, from the ruleset's set-up
 * when it has one; --coverage (any_scenario.c, docs/scenarios.md). */
int any_scenario(const cli_options *o);

/* foh check --scenarios: run the scenario files of PATHS (files, or
 * folders of *.yaml) on ENG, printing only failures; *RUN_COUNT the
 * scenarios run, a warning counted in *WARNINGS when some card is
 * exercised by none. Returns the number that failed. */
int any_check_scenarios(foh_engine *eng, const foh_cardset *cs, const char *const *paths, int npaths, int *run_count,
                        int *warnings);

/* Shared by the any_* files: refuse (naming it) an option given to CMD
 * that is neither generic nor in ALLOWED (bits of cli_option_id); load
 * O's card set, variants and mods. */
int any_only(const cli_options *o, const char *cmd, uint64_t allowed);
foh_cardset *any_load(const cli_options *o, foh_error *err);
/* Bots for PLAYERS seats from O's --seats, seeded from SEED as foh sim
 * seeds them; 0 after saying why. any_free_seats frees them. */
int any_bot_seats(const cli_options *o, const char *cmd, int players, uint64_t seed, foh_player **seats);
void any_free_seats(foh_player **seats, int n);
/* foh tune for a card set of another ruleset (any_tune.c); ARGV as
 * cmd_tune got it. any_tune_applies: 1 if ARGV's card set is one. */
int any_tune_applies(int argc, char **argv);
int any_tune(int argc, char **argv);

#endif

/* any: the foh commands for a card set of any ruleset, through the ruleset
 * interface alone (any.c). */
#ifndef FOH_ANY_H
#define FOH_ANY_H

#include "common/cli.h"
#include "foh/bot.h"
#include "play/terminal.h"

/* 1 if O's (first) card set names a ruleset other than the registry's
 * default: the command then runs its any_* form. */
int any_ruleset(const cli_options *o);
/* foh play: bots and human seats; the log, then the scores and the
 * result; --save after every action, --load, --stop-after, --trace
 * (any_play.c). */
int any_play(const cli_options *o);
/* foh replay FILE (o->load): a saved game's log again, then its scores;
 * --trace (any_play.c). */
int any_replay(const cli_options *o);
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

/* The human seats' input (any_human.c), shared by the human seats of a
 * game, and the session's save. */
typedef struct {
    term *t;
    int ended;  /* the input ended (or reading it failed) */
    int failed; /* reading it failed (term_failure): the command fails */
    int quit;   /* a human typed quit */
    /* The session's save: the game as it stands to PATH (0 with ERR), or
     * NULL (nothing can be saved). */
    int (*save)(void *ud, const char *path, char *err, size_t len);
    void *save_ud;
    const char *save_path; /* --save (or --load's file), or NULL */
    char line[TERM_MAX_LINE + 1];
} any_input;

/* A human seat reading IN. NULL if out of memory. */
foh_player *any_human_new(any_input *in);
/* TEXT's lines, each escaped (a ruleset's and its cards' text is not
 * trusted), after INDENT. */
void any_print_lines(const char *text, const char *indent);

/* Seats for PLAYERS from O's --seats (one spec for all, or one per seat):
 * bots seeded from SEED, and "human" when IN is given (foh play). 0 with
 * the problem said (CMD names the command). */
int any_seats(const cli_options *o, const char *cmd, int players, uint64_t seed, any_input *in, foh_player **seats);
void any_free_seats(foh_player **seats, int n);
/* Seat P's spec of SEATS (one spec for all seats, or one per seat; NULL:
 * "random") into OUT. */
void any_seat_spec(const char *seats, int p, char *out, size_t len);
/* A log sink (foh_log_fn) printing each line escaped. */
void any_log_line(void *ud, const char *line);
/* Each player's score lines ("P1: 3 Victory Tokens, 35 points"); 0 with
 * the problem said when scoring fails. */
int any_print_scores(foh_game *g, int players);
/* "Result: P1 wins" / "Result: P1 and P3 share the win". */
void any_print_results(const double *r, int n);

/* Shared by the any_* files: refuse (naming it) an option given to CMD
 * that is neither generic nor in ALLOWED (bits of cli_option_id); load
 * O's card set, variants and mods. */
int any_only(const cli_options *o, const char *cmd, uint64_t allowed);
foh_cardset *any_load(const cli_options *o, foh_error *err);
/* Bots for PLAYERS seats from O's --seats, seeded from SEED as foh sim
 * seeds them; 0 after saying why. any_free_seats frees them. */
int any_bot_seats(const cli_options *o, const char *cmd, int players, uint64_t seed, foh_player **seats);
/* foh tune for a card set of another ruleset (any_tune.c); ARGV as
 * cmd_tune got it. any_tune_applies: 1 if ARGV's card set is one. */
int any_tune_applies(int argc, char **argv);
int any_tune(int argc, char **argv);

#endif

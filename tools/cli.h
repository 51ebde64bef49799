/* Shared pieces of the foh command-line program. */
#ifndef FOH_CLI_H
#define FOH_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "foh/foh.h"

/* Exit statuses: 0 success, 1 bad card data or script error, 2 bad usage. */
enum { CLI_OK = 0, CLI_DATA = 1, CLI_USAGE = 2 };

#define CLI_MAX_VARIANTS 8

typedef struct {
    int players;
    uint64_t seed;
    long games;
    const char *cards;
    int nvariants;
    const char *variant[CLI_MAX_VARIANTS];   /* as given: a name or a folder */
    char variant_dir[CLI_MAX_VARIANTS][1024]; /* resolved folders */
    const char *seats; /* comma-separated seat specs, e.g. "greedy,random" */
    int threads;       /* worker threads (sim) */
    const char *json, *html, *games_csv; /* report files (sim) */
    int shard, shards;            /* --shard i/k: the i-th (1-based) of k parts */
    const char *save_shard;       /* raw sums for foh merge */
    foh_script_limits limits;     /* --lua-instructions, --lua-memory */
    int skip_errors;              /* --on-error skip (sim) */
    const char *save, *load;      /* save files (play) */
    long stop_after;              /* --stop-after N actions (play) */
    int help;
} cli_options;

/* Players for every seat from o->seats (one spec for all seats, or one per
 * seat); the seat of player p is seeded from SEED. Prints and returns 0 on
 * a bad spec. */
int cli_seats(const cli_options *o, uint64_t seed, foh_player **seats);
void cli_free_seats(foh_player **seats, int n);

/* The folder of variant NAME: NAME itself if it contains a '/', else
 * NAME under the project's variants/ folder. */
void cli_variant_dir(const char *name, char *out, size_t len);

/* Parse --players, --seed, --games, --cards, --variant (repeatable), --help
 * from ARGV (after the command name); only the flags in ALLOWED (e.g.
 * "players,seed") are accepted. Prints the problem and returns 0 on bad
 * usage. */
int cli_parse(int argc, char **argv, const char *command, const char *allowed, cli_options *o);

/* Load the card set and an engine; prints the error and returns 0 on failure. */
int cli_load(const cli_options *o, foh_cardset **cs, foh_engine **eng);

/* Print the score table of a finished game. */
void cli_print_scores(FILE *out, foh_game *g);

struct sim_stats_s;
/* Play the simulation O describes (its shard) on CS, adding the games into
 * TOTAL (a sim_stats); writes the CSV file if asked. A CLI status. */
int sim_run(const cli_options *o, const foh_cardset *cs, struct sim_stats_s *total);

/* The simulation report's first line (foh sim and foh merge print the same). */
void sim_print_header(FILE *out, long games, const cli_options *o, const foh_cardset *cs);

int cmd_play(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_scenario(int argc, char **argv);
int cmd_variants(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_compare(int argc, char **argv);

#endif

/* options: each command's options come from one table (options.c) that
 * drives getopt_long and prints the command's --help; the card sets, variants
 * and seats they name. */
#ifndef FOH_OPTIONS_H
#define FOH_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "common/datadir.h"
#include "foh/foh.h"

#define CLI_MAX_VARIANTS 8
/* Most games of one run (--games): shards hold at most that many. */
#define CLI_MAX_GAMES 100000000L
/* Most actions of one game: a save holding more is corrupt (play/save.h);
 * the range of --stop-after. */
#define CLI_MAX_ACTIONS 1000000
/* The script limits' ranges on the command line (--lua-instructions,
 * --lua-memory in MiB, --action-time in ms); a save or a tune shard holds
 * 0 for the default or a value within the same range. */
#define CLI_MIN_LUA_INSTRUCTIONS 1000L
#define CLI_MAX_LUA_INSTRUCTIONS 0x7fffffffffffffffL
#define CLI_MAX_LUA_MEMORY_MIB (1L << 20) /* 1 TiB */
#define CLI_MAX_ACTION_TIME_MS 86400000L  /* a day */
/* Folders of the mod search path: $FOH_MODS and --mods, 8 each. */
#define CLI_MAX_MODS (2 * CLI_MAX_VARIANTS)
/* The whole search path: the project's folder, then the mod folders. */
#define CLI_MAX_SEARCH (1 + CLI_MAX_MODS)

/* Every option of every command (one row each in options.c's table). */
typedef enum {
    OPT_PLAYERS, OPT_SEED, OPT_GAMES, OPT_SEATS, OPT_CARDS, OPT_VARIANT, OPT_THREADS, OPT_SHARD, OPT_SAVE_SHARD,
    OPT_JSON, OPT_HTML, OPT_GAMES_CSV, OPT_TRACE, OPT_ON_ERROR, OPT_SAVE, OPT_LOAD, OPT_STOP_AFTER, OPT_COVERAGE,
    OPT_A_CARDS, OPT_A_VARIANT, OPT_B_CARDS, OPT_B_VARIANT, OPT_LUA_INSTRUCTIONS, OPT_LUA_MEMORY, OPT_ACTION_TIME,
    OPT_LUA_ONLY,
    OPT_MODS, OPT_EXPLAIN, OPT_REVEAL, OPT_WATCH, OPT_LONG_GAMES, OPT_QUICK, OPT_SCENARIOS, OPT_IMPACT, OPT_FATE, OPT_WITHOUT,
    OPT_ABLATION, OPT_SKILL_LADDER, OPT_LADDER_FROM, OPT_LADDER_RUNGS, /* ladder.c */
    OPT_STRENGTH,                                                        /* strength.c */
    OPT_OUT,                                                             /* foh run */
    OPT_PORT, OPT_HOST, OPT_TABLES, OPT_ABANDON, OPT_MAX_TABLES, OPT_ORIGIN, OPT_CLOSE_AFTER, /* foh serve */
    OPT_PARTIAL,                                                         /* foh merge */
    OPT_HELP, OPT_COUNT
} cli_option_id;

/* A command: its name, positional arguments, what it does, the options it
 * takes (ended by OPT_COUNT) and text after the options. */
typedef struct {
    const char *name;
    const char *args;  /* e.g. "FILE", "PATH...", or NULL for none */
    int min_args;      /* positional arguments required */
    const char *about; /* paragraphs (lines ending in \n) */
    const cli_option_id *options;
    const char *footer; /* or NULL */
} cli_command;

typedef struct {
    int players;
    uint64_t seed;
    long games;
    const char *cards;
    int cards_seen;                           /* --cards was given once already */
    int nmore_cards;                          /* --cards given again: sets extending the first */
    const char *more_cards[CLI_MAX_VARIANTS];
    int nmods;                                /* --mods DIR: named card sets and variants are looked up there too */
    const char *mods[CLI_MAX_MODS];           /* at most CLI_MAX_VARIANTS from the command line */
    int nenv_mods;                            /* $FOH_MODS, split at ':' */
    char env_mods[CLI_MAX_VARIANTS][1024];
    char cards_root[1024];                    /* the folder of the project's card sets (cards/) */
    cli_data data;                            /* foh's own data: the base set (the default cards) and variants */
    int nvariants;
    const char *variant[CLI_MAX_VARIANTS];   /* as given: a name or a folder */
    char variant_dir[CLI_MAX_VARIANTS][1024]; /* resolved folders */
    const char *seats; /* comma-separated seat specs, e.g. "greedy,random" */
    int threads;       /* worker threads (sim) */
    const char *json, *html, *games_csv, *trace; /* report and trace files */
    int shard, shards;            /* --shard i/k: the i-th (1-based) of k parts */
    const char *save_shard;       /* raw sums for foh merge */
    foh_script_limits limits;     /* --lua-instructions, --lua-memory, --action-time, --lua-only */
    int skip_errors;              /* --on-error skip (sim) */
    const char *save, *load;      /* save files (play) */
    long stop_after;              /* --stop-after N actions (play) */
    int coverage;                 /* --coverage (scenario) */
    int explain, reveal;          /* --explain, --reveal (play) */
    int watch;                    /* --watch (play): reload edited card files between turns */
    long long_games;              /* --long-games N (bench): the long simulation's games */
    int quick;                    /* --quick (bench): every measurement short */
    int strength;                 /* --strength (bench): the bots' round robin */
    const char *out;              /* --out DIR (run): the results folder */
    int port;                     /* --port P (serve; 0: any free port) */
    const char *host;             /* --host ADDR (serve; default 127.0.0.1) */
    const char *tables;           /* --tables DIR (serve): where tables are saved */
    int abandon;                  /* --abandon S (serve): seconds before a bot takes an absent player's seat */
    int max_tables;               /* --max-tables N (serve) */
    const char *origins[CLI_MAX_VARIANTS]; /* --origin URL (serve), at most CLI_MAX_VARIANTS: sites whose pages may post */
    int norigins;
    int close_after;              /* --close-after S (serve): seconds a table may go unvisited before it is closed */
    int partial;                  /* --partial (merge): merge with parts missing */
    int nscenarios;               /* --scenarios PATH (check), at most CLI_MAX_VARIANTS */
    const char *scenarios[CLI_MAX_VARIANTS];
    int impact;                   /* --impact (sim, compare): the per-card impact table */
    int fate;                     /* --fate (sim): what became of each card after it was gained */
    int ablation;                 /* --ablation (sim): every card removed in turn */
    int nwithout;                 /* --without CARD (sim), at most CLI_MAX_VARIANTS */
    const char *without[CLI_MAX_VARIANTS];
    int skill_ladder;             /* --skill-ladder (sim): the skill ladder instead of the report */
    long ladder_from;             /* --ladder-from B: the first rung's budget (iterations) */
    int ladder_rungs;             /* --ladder-rungs K */
    /* compare: configuration A (0) and B (1) */
    const char *side_cards[2];
    int side_nvariants[2];
    const char *side_variant[2][CLI_MAX_VARIANTS];
    int help;
    uint64_t given; /* bit OPT_X: the option was on the command line */
    int nargs;      /* positional arguments */
    char **args;
    int quiet_timing; /* not an option: no decision-time block on stderr (foh sim --ablation's card runs) */
    /* The command line as given (for the reports' provenance): the command's
     * name and its words (getopt may have moved the positional words after
     * the options, which means the same). */
    const char *command;
    int argc;
    char **argv;
} cli_options;

/* Parse ARGV (the words after the command name) for command CMD into O.
 * Only CMD's options are accepted, by their exact name (no abbreviations:
 * "--save" is not "--save-shard"); values are checked. Prints the problem
 * ("foh sim: unknown option '--save' (see foh sim --help)") and returns
 * CLI_USAGE on bad usage; CLI_OK otherwise (with o->help set for --help, for
 * which the caller prints cli_help). */
int cli_parse(const cli_command *cmd, int argc, char **argv, cli_options *o);
/* The options' defaults, as if nothing was given. */
void cli_defaults(cli_options *o);
/* CMD's --help: usage line, about, one line per option, footer. */
void cli_help(const cli_command *cmd, FILE *out);

/* Each seat's spec of --seats (one for all, or one per player) into
 * SPECS[0..players); 0 after saying what is wrong. */
int cli_seat_specs(const cli_options *o, char specs[FOH_MAX_PLAYERS][64]);
/* Whether SPEC is a human seat ("human" or "human:NAME"; foh play only). */
int cli_seat_is_human(const char *spec);
/* The seed of PLAYER's bot in a game seeded SEED. */
uint64_t cli_seat_seed(uint64_t seed, int player);
/* Players for every seat from o->seats (one spec for all seats, or one per
 * seat); the seat of player p is seeded from SEED. Prints and returns 0 on
 * a bad spec. */
int cli_seats(const cli_options *o, uint64_t seed, foh_player **seats);
void cli_free_seats(foh_player **seats, int n);

/* The folders where named card sets (KIND "cards") or variants ("variants")
 * are looked up, in order: the project's, then $FOH_MODS's, then --mods.
 * Returns how many (at most MAX) were written to OUT; they point into O. */
int cli_search_path(const cli_options *o, const char *kind, const char **out, int max);
/* Find NAME (a name or a path) of KIND along the search path: a path (with
 * a '/') as it is; a name as DIR/NAME holding FILE ("game.yaml",
 * "variant.yaml"). 0 if not found. */
int cli_find(const cli_options *o, const char *kind, const char *name, const char *file, char *out, size_t len);

/* What foh_cardset_load_sets takes, from O: the card set folders (--cards,
 * names found along the search path), the variants' folders and the
 * search path. Pointers into O and into the struct itself. */
typedef struct {
    char set_dir[CLI_MAX_VARIANTS + 1][1024];
    const char *sets[CLI_MAX_VARIANTS + 1], *variants[CLI_MAX_VARIANTS], *search[CLI_MAX_SEARCH];
    int nsets, nvariants, nsearch;
} cli_sources;
void cli_sources_of(const cli_options *o, cli_sources *out);
/* Call FN(CTX, dir) for each variant folder of the first card set's own
 * variants/ (a folder NAME holding a variant.yaml), in name order; returns
 * how many. */
int cli_each_own_variant(const cli_sources *src, void (*fn)(void *ctx, const char *dir), void *ctx);
/* Each of them loaded over the card sets of SRC in checking mode
 * (foh_cardset_check), its problems told to REPORT(CTX, ...), a variant
 * that does not load with none told reported with the loader's error: a
 * variant naming what does not exist is an error now, not when a designer
 * first uses it. Returns how many were checked. */
int cli_check_own_variants(const cli_sources *src, foh_problem_fn report, void *ctx);

/* Load the card set and an engine; prints the error and returns 0 on failure. */
/* The name of option ID ("players" for OPT_PLAYERS), or NULL. */
const char *cli_option_name(cli_option_id id);

/* 1 if the commands can play CS: their views (board, report, scenarios)
 * are written for the registry's default ruleset (The Flow of History);
 * else 0 with ERR naming CS's ruleset (FOH_ERR_USAGE). */
int cli_ruleset_supported(const foh_cardset *cs, foh_error *err);
/* Load O's card set (with its variants and mods) and an engine with its
 * script limits; 0 after saying why (a card set of another ruleset is
 * refused: cli_ruleset_supported). */
int cli_load(const cli_options *o, foh_cardset **cs, foh_engine **eng);
/* The same for a card set of any ruleset (for commands that play through
 * the ruleset interface alone, as foh bench does). */
int cli_load_any(const cli_options *o, foh_cardset **cs, foh_engine **eng);

/* The command that plays, alone, the game seeded SEED of a run with O's
 * players, seats, card sets, variants, mods and script limits ("foh play
 * --seed SEED --players N --seats ..."), words quoted for a POSIX shell,
 * into OUT (LEN bytes; cut short if it does not fit). */
void cli_play_command(const cli_options *o, uint64_t seed, char *out, size_t len);

#endif

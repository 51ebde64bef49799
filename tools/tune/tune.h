/* foh tune: search the smallest set of changes to a card set's numbers
 * (card params, stripe counts, rule numbers) that meets balance targets,
 * write them as a variant and verify the prediction on fresh seeds
 * (docs/tune.md). This header: the state of one run, which every file of
 * tools/tune shares, and the course of a run (tune.c).
 *
 * The files: tune.c (the command: its options, the run), tune_targets
 * (targets and the figures they judge), tune_tunables (the numbers a run
 * may change), tune_candidates (a set of changes: its variant folder and
 * card set), tune_evaluate (candidates' games on the worker threads),
 * tune_search (stage 1, successive halving, and stage 2, greedy
 * combination), tune_report (what a run prints and its --out variant),
 * tune_verify (predictions checked on fresh seeds), tune_merge (a run on
 * shards: --save-shard and --merge), over tune_games (each game kept),
 * tune_paired (paired estimates) and tune_shard (the shard file). foh tune
 * plays its games through foh sim's simulation (sim/sim.h). */
#ifndef FOH_TUNE_H
#define FOH_TUNE_H

#include "common/cli.h"
#include "common/origin.h"
#include "foh/foh.h"
#include "foh/yaml.h"
#include "sim/sim_stats.h"
#include "tune/tune_games.h"
#include "tune/tune_targets.h"

/* z of a 95% interval. */
#define TUNE_Z95 1.96
#define TUNE_MAX_TUNABLES 1024
#define TUNE_MAX_PATTERNS 16
#define TUNE_MAX_CHANGES 8

/* A number the search may change, with the values it may take. */
typedef struct {
    char path[200];  /* the variant `set:` path */
    char label[200]; /* "Theocracy: params.icons", "rules.harvest.tokens_per_icon" */
    int card;        /* the card (-1: a rule number) */
    int base, lo, hi;
    int floor;        /* the least value it may take (0, or 1 for a divisor) */
    double relevance; /* how much the base run points at it: screened first */
} tunable;

/* One change: tunable T (an index of tuner.tun) set to VALUE. */
typedef struct {
    int t, value;
} change;

/* A candidate: a set of changes from the base, its card set and the games
 * it has played. */
typedef struct {
    int n;
    change ch[TUNE_MAX_CHANGES];
    foh_cardset *cs;
    sim_stats *st;
    long games; /* played so far: games [0, games) */
    double loss, loss_var;
    tune_metrics m;
    int alive;
    int id; /* the order it was made in (ties of the loss) */
    int failed; /* a game stopped by an error (a script's, e.g. a division by a param set to 0) */
    char why[1000]; /* as long as a task's error: nothing cut */
    tune_games rec; /* each game played, for the paired comparisons */
} candidate;

/* Everything one run of foh tune holds (no global state). */
typedef struct {
    cli_options o;     /* the command's options; variants: those loaded as they are */
    tune_targets tg;
    const char *patterns[TUNE_MAX_PATTERNS];
    int npatterns;
    long budget, spent, verify_games;
    char set_hash[17];    /* the content hash of the card set with the user's variants (provenance.h) */
    int set_is_base;      /* it is the base set as shipped */
    uint64_t verify_seed; /* --verify-seed, when verify_seed_given */
    int verify_seed_given;
    int max_changes;
    double change_cost;
    const char *out;
    /* The user's variants made only of `set:`: merged into every candidate's variant. */
    foh_yaml_node *merged[CLI_MAX_VARIANTS];
    const char *merged_name[CLI_MAX_VARIANTS];
    int nmerged;
    tunable *tun;
    int ntun, nvalues_total;
    char tmp[1024]; /* temporary folder of the candidates' variants */
    int ncand_dirs;
    int tty;
    const char *stage;
    double started;
    origin *og;        /* where the card set comes from (the shard file's description; malloc'd) */
    int merge;         /* --merge: FILES[0, NFILES) are shard files */
    char **files;
    int nfiles;
    int out_made;       /* --out's folder was made by this run */
    unsigned own_given; /* bit k: tune's own option k was given (take_own_options' OWN) */
} tuner;

/* Every candidate made, each allocated once (the search keeps pointers to
 * them), in the order made; grown as needed. */
typedef struct {
    candidate **item;
    int n, cap;
} candidates;

/* Load the base (an empty candidate: the card set with every user variant)
 * into *BASEP, find the tunables and print the run's header. A CLI status. */
int tune_prepare(tuner *T, candidates *cand, candidate **basep);
/* The base's games are known (played here, or read from the shards): set
 * the guard and print it and the base's figures. */
void tune_base_ready(tuner *T, candidate *base);
/* Stage 1 is done (here or on the shards): ALIVE[0, NALIVE) the single
 * changes still in the search, best first. Stage 2 (greedy combination),
 * the patch notes, the variant folder and the verification. A CLI status. */
int tune_finish(tuner *T, candidates *cand, candidate *base, candidate **alive, int nalive);

#endif

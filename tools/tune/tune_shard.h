/* tune_shard: the file `foh tune --shard i/n --save-shard FILE` writes and
 * `foh tune --merge FILE...` reads (docs/tune.md, "Tune on shards"): the
 * run's description, the base's games and, for each single change that
 * reached the full G games of the shard's screening, its path and value,
 * its sums and its kept games (tune_games). JSON, format
 * "foh-tune-shard/2" (version 2 added the run's "sources"):
 *
 *   {"format": "foh-tune-shard/2", "shard": [i, n], "run": {...},
 *    "spent": games the shard's screening played,
 *    "base": {"sums": SUMS, "games": [GAME, ...]},
 *    "survivors": [{"path": "cards.x.stripe.culture", "value": 5,
 *                   "sums": SUMS, "games": [GAME, ...]}, ...]}
 *
 * GAME is [turns, [win units by seat], [starting card by seat, -1],
 * [owner at the end by card, -1]] and, when the run keeps the gains (an
 * impact target), a fifth item [[card, z_0, ..., z_{IMPACT_D-1}], ...];
 * a game's seats share at most WIN_UNITS win units and no starting card.
 * SUMS holds what the losses read ("games", "win_units", "turns_sum",
 * "turns_sq", "start_games", "start_win_units", "owned_n",
 * "owned_win_units"): the reader rebuilds them from the games and refuses
 * a file whose sums and games disagree. "run" is an object the caller
 * builds (whatever must agree between the shards of one run: foh tune puts
 * in it the card set's "sources" with their hashes, origin_sources); the reader
 * requires in it "players" (1..FOH_MAX_PLAYERS), "games" (G, 1 or more),
 * "card_count" (1..FOH_MAX_CARDS) and "impact" (true: the
 * gains are kept), checked against the base's games before they are read
 * (a mismatch names the run's field); the caller checks the run's other
 * fields. Unknown fields (top level, base, survivors) are refused. Every
 * field is checked: a malformed, truncated or
 * inconsistent file is refused with a message naming the file and the
 * field. */
#ifndef FOH_TUNE_SHARD_H
#define FOH_TUNE_SHARD_H

#include <jansson.h>

#include "sim/sim_stats.h"
#include "tune/tune_games.h"

#define TUNE_SHARD_FORMAT "foh-tune-shard/2"
/* The largest tune shard read (about 1.5 KiB a kept game: some 90,000
 * games), refused before reading. */
#define TUNE_SHARD_MAX_BYTES (128u << 20)

/* One candidate of the file: a single change (or the base: no path), its
 * games [0, G) and the sums the losses read. */
typedef struct {
    char *path;    /* the tunable's variant path (malloc'd; NULL for the base) */
    int value;     /* its value */
    tune_games rec; /* games [0, G) */
    sim_stats *st; /* sums rebuilt from REC by tune_games_sums (malloc'd) */
} tune_shard_cand;

/* A shard file as read. */
typedef struct {
    json_t *run;      /* the run's description (a reference owned here) */
    int shard, shards; /* part i (1-based) of n */
    long spent;       /* games the shard's screening played (the base not counted) */
    long games;       /* G: each candidate's games */
    int players, ncards, impact;
    tune_shard_cand base;
    tune_shard_cand *surv; /* the survivors, in the file's order */
    int nsurv;
} tune_shard;

/* Write the shard file PATH: RUN (the description: see above), part SHARD
 * of SHARDS, SPENT games screened, the base BASE and the NSURV survivors
 * SURV (each with REC holding games [0, RUN.games) and ST the sums of its
 * games). 0 after printing "foh tune: cannot write PATH: why". */
int tune_shard_write(const char *path, json_t *run, int shard, int shards, long spent, const tune_shard_cand *base,
                     const tune_shard_cand *surv, int nsurv);

/* Read the shard file PATH into *S (zeroed first; free with
 * tune_shard_free, also after a failure). 0 after printing what is wrong:
 * "foh tune: PATH: survivors[2].games[17][3][5]: must be -1 or a seat
 * from 0 to 3". */
int tune_shard_read(const char *path, tune_shard *s);
void tune_shard_free(tune_shard *s);

/* The first key whose value differs between run descriptions A and B
 * (either side's keys), or NULL if they are equal. */
const char *tune_shard_run_differs(json_t *a, json_t *b);

#endif

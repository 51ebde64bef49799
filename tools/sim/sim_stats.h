/* sim_stats: streaming aggregation of simulated games for `foh sim`.
 *
 * Every figure is an integer sum, so adding the games in any order (any
 * number of threads, later: shards) gives exactly the same report. Shared
 * wins count as 1/k of a win each: win "units" are 60ths of a win (60 is
 * divisible by every player count). */
#ifndef FOH_SIM_STATS_H
#define FOH_SIM_STATS_H

#include <jansson.h>
#include <stdio.h>

#include "common/origin.h"
#include "sim/sim_labels.h"
#include "foh/foh.h"

#define WIN_UNITS 60
#define SCORE_BINS 128
#define MAX_TIMINGS 16
/* Game lengths in bins of LEN_BIN turns (the last bin: that many and more);
 * the turns at which cards were gained, in bins of GAIN_BIN turns. */
#define LEN_BIN 10
#define LEN_BINS 101
#define GAIN_BIN 10
#define GAIN_BINS 50
/* The answers to choices inside effects, by what was picked: a card (its
 * index), a player (FOH_MAX_CARDS + seat offset from the chooser: 0 the
 * chooser, 1 the next player to act, ...), or any other label. Choices of
 * no card (a variant's hook) are counted under the row FOH_MAX_CARDS. */
#define PICK_PLAYER FOH_MAX_CARDS
#define PICK_OTHER (FOH_MAX_CARDS + FOH_MAX_PLAYERS)
#define PICK_KINDS (PICK_OTHER + 1)
#define CHOICE_ROWS (FOH_MAX_CARDS + 1)
/* Choice answers a game result can hold (more are counted as lost). */
#define MAX_GAME_CHOICES 4096
#define MAX_GAME_TEXT 256 /* of them, text answers kept by label (sim_labels.h) */

/* How a card came into a Nation. */
enum { GAIN_COMPLETE, GAIN_SNIPE, GAIN_EFFECT, GAIN_KINDS };

typedef struct sim_stats_s {
    long games, decisions;
    long skipped; /* games left out after an error (--on-error skip) */
    long stalled; /* games ended by the turn limit (engine ruling E1) */
    long win_units[FOH_MAX_PLAYERS];
    long score_sum[FOH_MAX_PLAYERS], score_sq[FOH_MAX_PLAYERS];
    long all_sum, all_sq;           /* every player's final score */
    long winner_sum, winner_sq, winner_n;
    long turns_sum, turns_sq;
    long snipes, substituted;
    long culture_vp, other_vp, end_vp; /* summed over players */
    long hist[SCORE_BINS];          /* scores, 0..127 (clamped) */
    long fired[MAX_TIMINGS];        /* on-gain effects fired, by timing */
    /* Per card (card set index). */
    long start_games[FOH_MAX_CARDS], start_win_units[FOH_MAX_CARDS];
    long gained[FOH_MAX_CARDS][GAIN_KINDS];
    long price_sum[FOH_MAX_CARDS], price_n[FOH_MAX_CARDS], price_sq[FOH_MAX_CARDS];
    long owned_n[FOH_MAX_CARDS], owned_win_units[FOH_MAX_CARDS]; /* player-games owning it at the end */
    long total_player_games, total_win_units;
    /* Added by the report work (shard format 4). */
    long first_win_units;                 /* the player who took the first turn */
    long order_win_units[FOH_MAX_PLAYERS]; /* by turn-order position: 0 acts first */
    long order_score_sum[FOH_MAX_PLAYERS];
    long len_hist[LEN_BINS];               /* game lengths, LEN_BIN turns a bin */
    long fired_games[FOH_MAX_CARDS];       /* games in which its Instant/Attack effect fired */
    long activations[FOH_MAX_CARDS];       /* Turn Action activations (Activate decisions) */
    long gain_turn_sum[FOH_MAX_CARDS], gain_turn_n[FOH_MAX_CARDS];
    long gain_turn_hist[FOH_MAX_CARDS][GAIN_BINS];
    long choices[CHOICE_ROWS];             /* choice decisions asked by the card's effects */
    long choice_options[CHOICE_ROWS];      /* their options, summed */
    long picks[CHOICE_ROWS][PICK_KINDS];
    long choices_lost;                     /* answers beyond MAX_GAME_CHOICES in one game */
} sim_stats;

/* What one finished game adds. */
typedef struct game_result_s {
    uint64_t seed;
    int players, turns, decisions, snipes, substituted;
    int stalled; /* ended by the turn limit */
    foh_score score[FOH_MAX_PLAYERS];
    int start_card[FOH_MAX_PLAYERS]; /* -1 if none */
    int gained_by[FOH_MAX_CARDS];    /* GAIN_* or -1 */
    int price[FOH_MAX_CARDS];        /* tokens paid, -1 if none */
    int owner[FOH_MAX_CARDS];        /* owner at the end, -1 */
    int fired[MAX_TIMINGS];
    int first;                        /* the player who took the first turn */
    unsigned char fired_card[FOH_MAX_CARDS]; /* 1: its Instant/Attack effect fired */
    int activations[FOH_MAX_CARDS];
    int gain_turn[FOH_MAX_CARDS];     /* turns completed when it was gained, -1 */
    int nchoices, choices_lost;
    struct {
        short row, pick, options;
    } choice[MAX_GAME_CHOICES];
    /* The text answers (PICK_OTHER) by label, the first MAX_GAME_TEXT of
     * the game (more are shown as "other labels"). */
    int ntext;
    struct {
        short row;
        char label[SIM_LABEL_BYTES];
    } text[MAX_GAME_TEXT];
} game_result;

void sim_stats_add(sim_stats *s, const foh_cardset *cs, const game_result *r);
/* Index of timing name TIMING among the card set's timings (for `fired`). */
int sim_timing_index(const foh_cardset *cs, const char *timing);
/* INTO += FROM, sums of a card set of NCARDS cards. */
void sim_stats_merge(sim_stats *into, const sim_stats *from, int ncards);

/* The variants applied to CS, read again from their variant.yaml: a JSON
 * array of {name, description, set: {path: value}, params: {name: value},
 * cards: ["override id", ...]} (values as text). */
struct json_t *sim_variants_json(const foh_cardset *cs);
/* One line per variant: "variant NAME: description; set k=v, ...; params k=v". */
void sim_print_variants(FILE *out, const foh_cardset *cs);

/* The readable summary. SEATS names the players; LABELS the text answers
 * to choices by label (NULL: not known, as for merged shards). */
void sim_stats_print(FILE *out, const sim_stats *s, const sim_labels *labels, const foh_cardset *cs, int players,
                     const char *seats);

/* The whole report as a jansson object (the caller json_decref's it), the
 * document `--json` writes and `--html` embeds. */
struct json_t;
struct json_t *sim_stats_report(const sim_stats *s, const sim_labels *labels, const foh_cardset *cs, int players,
                                const char *seats, uint64_t seed);

/* The 95% Wilson interval [*LO, *HI] of a proportion P of N (> 0) trials,
 * within [0, 1]: the interval of every rate the reports show. */
void sim_wilson(double p, double n, double *lo, double *hi);

/* Write the report as JSON to JSON_PATH and as HTML to HTML_PATH (either
 * may be NULL), with the fields of EXTRA (a JSON object, or NULL; its
 * reference is taken) added to its top level (foh sim --impact's
 * `impact`); prints "foh COMMAND: cannot write ..." and returns 0 if a
 * file cannot be written. */
int sim_stats_write_reports(const char *command, const char *json_path, const char *html_path, const sim_stats *s,
                            const sim_labels *labels, const foh_cardset *cs, int players, const char *seats,
                            uint64_t seed, json_t *extra);

/* The rows a shard's sums have for the cards and for the players (and
 * whether it is of version 7, which names them). */
typedef struct {
    int cards, players, wide;
} sim_shard_layout;
/* That of a run of NCARDS cards and PLAYERS players. */
sim_shard_layout sim_shard_layout_of(int ncards, int players);

/* The raw sums with what produced them (card sets, variants and mod
 * folders as in OG, players, seats, seed, games range), so that shards can
 * be merged exactly, from any working directory; IMPACT (or NULL; its
 * reference is taken): foh sim --impact's sums, kept as the file's
 * `impact`; the hashes of CS's sources (origin_sources), so that merge can
 * tell shards of different card contents apart; LABELS (or NULL): the text
 * answers by label, as `text_answers` [[row, label, count]] when any. Format foh-sim-shard/6
 * (the rows of 128 cards and 6 players), or /7 for a run beyond them,
 * with the rows of its cards and players (sim_shard_layout_of).
 * PROVENANCE (its reference is taken; NULL, provenance_json out of
 * memory, fails the whole): provenance_json of the run, kept as the file's
 * `provenance`, which foh merge checks against the rest
 * (shard_provenance.h). */
int sim_stats_save_shard(const char *path, const sim_stats *s, const sim_labels *labels, const origin *og,
                         const foh_cardset *cs, int players, const char *seats, uint64_t seed, long total_games,
                         int shard, int shards, json_t *impact, json_t *provenance);
/* The object sim_stats_save_shard writes (the same arguments, the same
 * references taken); NULL if out of memory. foh compare's shards hold one
 * per side (tools/sim/compare_shard.c). */
json_t *sim_stats_shard_json(const sim_stats *s, const sim_labels *labels, const origin *og, const foh_cardset *cs,
                             int players, const char *seats, uint64_t seed, long total_games, int shard, int shards,
                             json_t *impact, json_t *provenance);
/* Add the shard file PATH into S; on the first file fill the description
 * (strings owned by *META, a jansson object to json_decref); later files
 * must match it, sources (their hashes) included, FIRST naming the file
 * *META came from; *SHARD and *SHARDS: which part of the run it holds
 * (i/k); *IMPACT: the file's `impact` (a new reference to json_decref), or
 * NULL when it has none. Every field of the sums is checked against the
 * laws the sums of foh sim's games obey (counts not negative, at most what
 * the shard's games allow, totals the sums of their parts), and adding it
 * to S must not overflow (the caller checks `impact`): prints the problem,
 * naming PATH and the field, leaves S unchanged and returns 0 on error; a
 * shard of another format version is refused, naming its version. *LAYOUT:
 * the rows of the file's sums (its `impact` has them too). Its
 * `text_answers` are added into LABELS (unless NULL). */
int sim_stats_load_shard(const char *path, sim_stats *s, sim_labels *labels, void **meta, const char *first,
                         int *shard, int *shards, json_t **impact, sim_shard_layout *layout);
/* sim_stats_load_shard of the object ROOT (borrowed; *META takes a new
 * reference to it on the first), read from the file PATH names (the
 * messages name it): every check but the file's own. */
int sim_stats_read_shard(json_t *root, const char *path, sim_stats *s, sim_labels *labels, void **meta,
                         const char *first, int *shard, int *shards, json_t **impact, sim_shard_layout *layout);

/* The A/B report of foh compare: for each figure A, B, B - A with its 95%
 * interval and p-value (normal approximation), a '*' on those that survive
 * a Benjamini-Hochberg correction at a false-discovery rate of 5%; cards
 * matched by id, those of one side listed "only in A/B"; "-" where a side
 * has no data. Text on OUT, and the same as JSON / HTML into JSON_PATH /
 * HTML_PATH when not NULL (META: the runs' description, copied into the
 * JSON). 0 if a file cannot be written (said on stderr). */
/* What foh compare puts first (issue 31): DIFF (compare_diff, or NULL),
 * each side's fate sums (tools/sim/fate.h; NULL: not shown) and impact
 * table (impact_json; NULL: not asked). */
struct fate_stats_s;
typedef struct {
    const struct json_t *diff;
    struct fate_stats_s *fate[2];
    const struct json_t *impact[2];
} compare_focus;
/* The report starts with what differs between A and B read from their
 * files, then each changed card's rows, fate and impact, then the cards
 * ranked by how far their figures moved (the diff not used: the games
 * alone), then every figure. */
int sim_compare(FILE *out, const char *json_path, const char *html_path, const sim_stats *a, const foh_cardset *csa,
                const sim_stats *b, const foh_cardset *csb, int players, struct json_t *meta,
                const compare_focus *focus);

/* A self-contained HTML page (inline data, script and SVG charts, nothing
 * fetched) showing REPORT, a sim_stats_report; 0 on failure. */
int sim_html_write(const char *path, const struct json_t *report);

/* Benjamini-Hochberg at false-discovery rate Q over the N p-values P (a
 * negative one: not tested, never marked): MARKED[i] is 1 for those that
 * survive (every p at most the largest p_(k) with p_(k) <= k Q / m, m the
 * tested). Returns how many, or -1 if out of memory (MARKED untouched). */
int sim_bh(const double *p, int n, double q, int *marked);

/* Card C's id and name in CS ("?" for a bad index); "1st".."8th" for turn
 * order position K (0-based). */
const char *sim_card_id(const foh_cardset *cs, int c);
const char *sim_card_name(const foh_cardset *cs, int c);
const char *sim_ordinal(int k);

/* One CSV row per game (a header first when HEADER). */
void sim_csv_row(FILE *out, const game_result *r, const foh_cardset *cs, const char *seats);
void sim_csv_header(FILE *out, int players);

#endif

/* impact_shard: --impact's integer sums in shard files (`foh sim --impact
 * --save-shard`, `foh merge`; docs/scaling.md). Each field of impact_stats
 * is written under its own name as a flat array of integers, so that the
 * merged sums, and so the table, are exactly those of one run. */
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "sim/impact.h"
#include "sim/sim_stats.h"

/* One array of sums: its name in the file, where it is, whether it has a
 * row for each card, and the rank of what it has per card (or in all): 0
 * a number, 1 a row z, 2 a matrix of rows. */
typedef struct {
    const char *name;
    long *at;
    int per_card, rank;
} field;

#define NFIELDS 11

/* The NFIELDS fields of S into F, in file order (S is only read through
 * them when writing). */
static void fields(impact_stats *s, field f[NFIELDS])
{
    const field all[] = {
        {"games", &s->games, 0, 0},
        {"rows", &s->rows, 0, 0},
        {"player_games", &s->player_games, 0, 0},
        {"win_units", &s->win_units, 0, 0},
        {"all", &s->all[0][0], 0, 2},
        {"gain_all", &s->gain_all[0][0], 0, 2},
        {"card_games", s->card_games, 1, 0},
        {"card_sum", &s->card_sum[0][0], 1, 1},
        {"card_sq", &s->card_sq[0][0][0], 1, 2},
        {"owned_n", s->owned_n, 1, 0},
        {"owned_win", s->owned_win, 1, 0},
    };
    _Static_assert(sizeof all / sizeof all[0] == NFIELDS, "NFIELDS counts the fields");
    memcpy(f, all, sizeof all);
}

/* Entries of F in a file of CARDS cards' rows and rows z of D entries. */
static size_t file_size(const field *f, int cards, int d)
{
    size_t per = f->rank == 0 ? 1 : f->rank == 1 ? (size_t)d : (size_t)d * (size_t)d;
    return (f->per_card ? (size_t)cards : 1) * per;
}

/* The long of F holding entry E of its array in such a file. */
static long *file_entry(const field *f, int d, size_t e)
{
    size_t per = f->rank == 0 ? 1 : f->rank == 1 ? (size_t)d : (size_t)d * (size_t)d, c = e / per, r = e % per;
    size_t mper = f->rank == 0 ? 1 : f->rank == 1 ? IMPACT_D : (size_t)IMPACT_D * IMPACT_D;
    size_t i = f->rank == 2 ? r / (size_t)d : 0, j = f->rank == 2 ? r % (size_t)d : r;
    return f->at + c * mper + i * (f->rank == 2 ? IMPACT_D : 1) + j;
}

json_t *impact_stats_to_json(const impact_stats *s, int cards, int players)
{
    field f[NFIELDS];
    int d = IMPACT_FILE_D(players);
    fields((impact_stats *)s, f);
    json_t *root = json_pack("{s:i,s:b}", "k", s->k, "overflow", s->overflow);
    for (size_t i = 0; root && i < NFIELDS; i++) {
        json_t *a = json_array();
        for (size_t j = 0, n = file_size(&f[i], cards, d); a && j < n; j++)
            if (json_array_append_new(a, json_integer(*file_entry(&f[i], d, j))) != 0) {
                json_decref(a);
                a = NULL;
            }
        if (!a || json_object_set_new(root, f[i].name, a) != 0) {
            json_decref(root);
            root = NULL;
        }
    }
    return root;
}

/* What one row z of a run of K features can hold (impact.c's on_turn and
 * outcomes): LO[i] <= z[i] <= HI[i]; BINARY[i] when z[i] is 0 or 1. A
 * margin is the difference of two int scores, a turn at most the largest
 * turn limit, tokens at most the tokens in play; entries past the row's
 * K + 2 are 0. */
#define MARGIN_MAX ((long double)INT_MAX - (long double)INT_MIN)
static void row_bounds(int k, long double lo[IMPACT_D], long double hi[IMPACT_D], int binary[IMPACT_D])
{
    const long double turn = FOH_MAX_TURN_LIMIT, tokens = FOH_MAX_TOKENS;
    for (int i = 0; i < IMPACT_D; i++)
        lo[i] = hi[i] = binary[i] = 0;
    lo[0] = hi[0] = 1;                                   /* the constant */
    lo[1] = -(hi[1] = MARGIN_MAX);                       /* margin */
    hi[2] = turn;                                        /* turn */
    lo[3] = -(hi[3] = MARGIN_MAX * turn);                /* margin x turn */
    hi[4] = turn * turn;                                 /* turn^2 */
    hi[5] = FOH_MAX_CARDS;                               /* cards in the Nation */
    hi[6] = tokens;                                      /* tokens in hand */
    hi[7] = binary[7] = 1;                               /* acting */
    hi[8] = tokens;                                      /* tokens invested */
    hi[9] = tokens * turn;                               /* invested x turn */
    hi[10] = FOH_MAX_CARDS;                              /* cards left in the deck */
    for (int i = IMPACT_BASE_FEATURES; i < k; i++)
        hi[i] = binary[i] = 1;                           /* seat order */
    lo[k] = -(hi[k] = MARGIN_MAX);                       /* final margin */
    hi[k + 1] = WIN_UNITS;                               /* win units */
}

/* 'impact.NAME' of a matrix of sums of z z' (AT: its first entry's index in
 * the flat array, so [i][j] is AT + i D + j). 0 with WHY if it breaks a law
 * that any sum over rows bounded by LO, HI obeys: symmetric; a diagonal not
 * negative; Cauchy-Schwarz |S_ij|^2 <= S_ii S_jj (so S_0j^2 <= n S_jj, n =
 * S_00 the rows); n lo_j <= S_0j <= n hi_j and S_jj <= n max(lo_j^2,
 * hi_j^2); S_jj <= hi_j S_0j when z_j >= 0. ROWS: each z is one row (the
 * plain and gain matrices): S_jj = S_0j for 0/1 features and the features
 * that are products of others sum as such (turn^2 = turn turn, margin x turn,
 * invested x turn). For card_sq (a sum over games of the card's gains'
 * summed z, squared) the same laws hold with S_00 = sum of the squared gains
 * a game. All in 128-bit integers or long double: no product overflows. */
static int matrix_ok(const char *name, long at, const long m[IMPACT_D][IMPACT_D], const long double lo[IMPACT_D],
                     const long double hi[IMPACT_D], const int binary[IMPACT_D], int rows, int k, int d, char *why,
                     size_t len)
{
    const long double n = (long double)m[0][0];
    for (int i = 0; i < IMPACT_D; i++) {
        if (m[i][i] < 0) {
            snprintf(why, len, "'impact.%s'[%ld] is a sum of squares, and negative (%ld)", name, at + i * d + i,
                     m[i][i]);
            return 0;
        }
        for (int j = 0; j < IMPACT_D; j++)
            if (m[i][j] != m[j][i]) {
                snprintf(why, len, "'impact.%s'[%ld] is %ld, while 'impact.%s'[%ld], the same sum, is %ld", name,
                         at + i * d + j, m[i][j], name, at + j * d + i, m[j][i]);
                return 0;
            }
    }
    for (int i = 0; i < IMPACT_D; i++)
        for (int j = i + 1; j < IMPACT_D; j++)
            if ((__int128)m[i][j] * m[i][j] > (__int128)m[i][i] * m[j][j]) {
                snprintf(why, len, "'impact.%s'[%ld] is %ld, beyond the square root of the product of its squares "
                         "'impact.%s'[%ld] x [%ld] = %ld x %ld (Cauchy-Schwarz)", name, at + i * d + j,
                         m[i][j], name, at + i * d + i, at + j * d + j, m[i][i], m[j][j]);
                return 0;
            }
    for (int j = 1; j < IMPACT_D; j++) {
        long double s = (long double)m[0][j], big = fmaxl(lo[j] * lo[j], hi[j] * hi[j]);
        if (s < n * lo[j] || s > n * hi[j] || (long double)m[j][j] > n * big ||
            (lo[j] >= 0 && (long double)m[j][j] > hi[j] * s)) {
            snprintf(why, len, "'impact.%s'[%ld] (%ld) and [%ld] (%ld) are no sums of %ld values of feature %d, each "
                     "within %.0Lf to %.0Lf", name, at + j, m[0][j], at + j * d + j, m[j][j], m[0][0], j,
                     lo[j], hi[j]);
            return 0;
        }
    }
    if (!rows)
        return 1;
    for (int j = 0; j < k; j++)
        if (binary[j] && m[j][j] != m[0][j]) {
            snprintf(why, len, "'impact.%s'[%ld] is %ld, while feature %d is 0 or 1 and sums to %ld ([%ld])", name,
                     at + j * d + j, m[j][j], j, m[0][j], at + j);
            return 0;
        }
    static const int prod[][3] = {{4, 2, 2}, {3, 1, 2}, {9, 8, 2}}; /* feature a = feature b x feature c */
    for (size_t p = 0; p < sizeof prod / sizeof prod[0]; p++) {
        int a = prod[p][0], b = prod[p][1], c = prod[p][2];
        if (m[0][a] != m[b][c]) {
            snprintf(why, len, "'impact.%s'[%ld] is %ld, while feature %d is feature %d x feature %d, summed in [%ld] "
                     "as %ld", name, at + a, m[0][a], a, b, c, at + b * d + c, m[b][c]);
            return 0;
        }
    }
    return 1;
}

/* 0 with WHY naming the field if S holds sums no run of PLAYERS players
 * could have summed (docs/report.md lists the laws): the counts within the
 * games, the matrices as matrix_ok checks them, each card's sums those of
 * its gains (card_sum[c][0] of them in card_games[c] games), the cards'
 * sums adding up to the gains' (gain_all[0][j]) and their squares bounded
 * by the gains' (a game's m gains sum to at most m times their squares, and
 * m is at most the card's gains less its other games). A shard whose sums
 * overflowed is not checked: its table is refused anyway. */
static int impossible(const impact_stats *s, int players, int d, char *why, size_t len)
{
    if (s->overflow)
        return 1;
    int k = IMPACT_BASE_FEATURES + players - 1, binary[IMPACT_D];
    long double lo[IMPACT_D], hi[IMPACT_D];
    row_bounds(k, lo, hi, binary);
    long want;
    if (__builtin_mul_overflow(s->games, (long)players, &want) || s->player_games != want) {
        snprintf(why, len, "'impact.player_games' is %ld, not games x players = %ld x %d", s->player_games, s->games,
                 players);
        return 0;
    }
    if (s->rows != s->all[0][0] || s->rows % players) {
        snprintf(why, len, "'impact.rows' is %ld, while 'impact.all'[0] counts %ld rows, one for each of the %d "
                 "players a turn", s->rows, s->all[0][0], players);
        return 0;
    }
    if (s->win_units < 0 || (long double)s->win_units > (long double)s->games * WIN_UNITS) {
        snprintf(why, len, "'impact.win_units' is %ld, outside 0 to %d a game for the %ld games", s->win_units,
                 WIN_UNITS, s->games);
        return 0;
    }
    if (!matrix_ok("all", 0, s->all, lo, hi, binary, 1, k, d, why, len) ||
        !matrix_ok("gain_all", 0, s->gain_all, lo, hi, binary, 1, k, d, why, len))
        return 0;
    __int128 sums[IMPACT_D] = {0};
    long double squares[IMPACT_D] = {0};
    for (int c = 0; c < FOH_MAX_CARDS; c++) {
        static const char *const count[] = {"card_games", "owned_n"};
        const long v[] = {s->card_games[c], s->owned_n[c]};
        for (int f = 0; f < 2; f++)
            if (v[f] < 0 || v[f] > s->games) {
                snprintf(why, len, "'impact.%s'[%d] is %ld, outside 0 to the %ld games", count[f], c, v[f], s->games);
                return 0;
            }
        if (s->owned_win[c] < 0 || (long double)s->owned_win[c] > (long double)s->owned_n[c] * WIN_UNITS ||
            s->owned_win[c] > s->win_units) {
            snprintf(why, len, "'impact.owned_win'[%d] is %ld, outside 0 to %d units for each of the %ld owners "
                     "('impact.owned_n'[%d]) and the %ld of 'impact.win_units'", c, s->owned_win[c], WIN_UNITS,
                     s->owned_n[c], c, s->win_units);
            return 0;
        }
        long n = s->card_sum[c][0], g = s->card_games[c], sq = s->card_sq[c][0][0];
        if (n < g || (n > 0) != (g > 0) || (__int128)g * sq < (__int128)n * n ||
            (__int128)sq > (__int128)(n - g + 1) * n) {
            snprintf(why, len, "'impact.card_sum'[%d] (%ld gains) and 'impact.card_sq'[%d] (%ld) do not fit the %ld "
                     "games of 'impact.card_games'[%d]", c * d, n, c * d * d, sq, g, c);
            return 0;
        }
        for (int j = 1; j < IMPACT_D; j++) {
            long double sum = (long double)s->card_sum[c][j];
            if (sum < n * lo[j] || sum > n * hi[j] || (__int128)s->card_sum[c][j] * s->card_sum[c][j] >
                                                       (__int128)g * s->card_sq[c][j][j]) {
                snprintf(why, len, "'impact.card_sum'[%d] is %ld, no sum of the %ld gains' feature %d (each within "
                         "%.0Lf to %.0Lf) over %ld games with the squares of 'impact.card_sq'[%d] (%ld)",
                         c * d + j, s->card_sum[c][j], n, j, lo[j], hi[j], g,
                         (c * d + j) * d + j, s->card_sq[c][j][j]);
                return 0;
            }
        }
        if (!matrix_ok("card_sq", (long)c * d * d, s->card_sq[c], lo, hi, binary, 0, k, d, why, len))
            return 0;
        for (int j = 0; j < IMPACT_D; j++) {
            sums[j] += s->card_sum[c][j];
            if (n)
                squares[j] += (long double)s->card_sq[c][j][j] / (long double)(n - g + 1);
        }
    }
    for (int j = 0; j < IMPACT_D; j++) {
        if (sums[j] != s->gain_all[0][j]) {
            snprintf(why, len, "'impact.gain_all'[%d] sums the gains' feature %d to %ld, while 'impact.card_sum' "
                     "sums it to %.0Lf", j, j, s->gain_all[0][j], (long double)sums[j]);
            return 0;
        }
        if (squares[j] > (long double)s->gain_all[j][j] * (1 + 1e-12L)) {
            snprintf(why, len, "'impact.card_sq'[c x %d + %d] are too large for the squares of the gains' feature %d, "
                     "'impact.gain_all'[%d] (%ld)", d * d, j * d + j, j,
                     j * d + j, s->gain_all[j][j]);
            return 0;
        }
    }
    return 1;
}

int impact_stats_from_json(const json_t *j, int players, int cards, impact_stats *s, char *why, size_t len)
{
    memset(s, 0, sizeof *s);
    json_t *k = json_object_get(j, "k"), *overflow = json_object_get(j, "overflow");
    int want = IMPACT_BASE_FEATURES + players - 1;
    if (!json_is_object(j) || !json_is_integer(k) || (json_integer_value(k) != 0 && json_integer_value(k) != want) ||
        !json_is_boolean(overflow)) {
        snprintf(why, len, "'impact' must hold 'k' (0, or %d for %d players) and 'overflow' (true or false)", want,
                 players);
        return 0;
    }
    s->k = (int)json_integer_value(k);
    s->overflow = json_is_true(overflow);
    field f[NFIELDS];
    int d = IMPACT_FILE_D(players);
    fields(s, f);
    for (size_t i = 0; i < NFIELDS; i++) {
        json_t *a = json_object_get(j, f[i].name);
        size_t n = file_size(&f[i], cards, d);
        if (!json_is_array(a) || json_array_size(a) != n) {
            snprintf(why, len, "'impact.%s' must be an array of %zu whole numbers", f[i].name, n);
            return 0;
        }
        for (size_t e = 0; e < n; e++) {
            json_t *v = json_array_get(a, e);
            if (!json_is_integer(v)) {
                snprintf(why, len, "'impact.%s'[%zu] is not a whole number", f[i].name, e);
                return 0;
            }
            *file_entry(&f[i], d, e) = (long)json_integer_value(v);
        }
    }
    if (s->games < 0 || s->rows < 0 || s->player_games < 0 || (s->games > 0) != (s->k > 0)) {
        snprintf(why, len, "'impact': the counts of games, rows and player-games must not be negative, and 'k' is 0 "
                           "exactly when no game was played");
        return 0;
    }
    return impossible(s, players, d, why, len);
}

/* See impact.h. The checks of foh merge, shared with foh compare's merge
 * so that both refuse the same shards with the same words. */
int impact_add_shard(const char *path, const char *first, int index, json_t *isums, long games, int players,
                     int cards, impact_stats **total)
{
    if (index == 0 && isums && !(*total = calloc(1, sizeof **total))) {
        cli_error("merge", "out of memory");
        return 0;
    }
    if ((isums != NULL) != (*total != NULL)) {
        cli_error("merge", "%s: %s, while %s %s (merge shards of foh sim runs all with --impact or all without)", path,
                  isums ? "has --impact sums" : "has no --impact sums", first, *total ? "has them" : "has none");
        return 0;
    }
    if (!isums)
        return 1;
    json_t *igames = json_array_get(json_object_get(isums, "games"), 0);
    if (json_is_integer(igames) && json_integer_value(igames) != games) {
        cli_error("merge", "%s: 'impact.games' is %lld, while the shard holds %ld games (sums[0])", path,
                  (long long)json_integer_value(igames), games);
        return 0;
    }
    char why[400];
    impact_stats *part = malloc(sizeof *part);
    if (!part || !impact_stats_from_json(isums, players, cards, part, why, sizeof why)) {
        cli_error("merge", "%s: %s", path, part ? why : "out of memory");
        free(part);
        return 0;
    }
    if (part->overflow)
        cli_error("merge", "warning: %s: its --impact sums overflowed 64 bits or memory ran out in foh sim: the "
                  "merged run has no impact table", path);
    int before = (*total)->overflow;
    impact_merge(*total, part);
    if (!before && !part->overflow && (*total)->overflow)
        cli_error("merge", "warning: adding the --impact sums of %s overflowed 64 bits: the merged run has no "
                  "impact table (merge fewer games)", path);
    free(part);
    return 1;
}

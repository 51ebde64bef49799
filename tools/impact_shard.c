/* impact_shard: --impact's integer sums in shard files (`foh sim --impact
 * --save-shard`, `foh merge`; docs/scaling.md). Each field of impact_stats
 * is written under its own name as a flat array of integers, so that the
 * merged sums, and so the table, are exactly those of one run. */
#include <stdio.h>
#include <string.h>

#include "impact.h"

/* One array of sums: its name in the file, where it is, how many longs. */
typedef struct {
    const char *name;
    long *at;
    size_t n;
} field;

#define NFIELDS 11

/* The NFIELDS fields of S into F, in file order (S is only read through
 * them when writing). */
static void fields(impact_stats *s, field f[NFIELDS])
{
    const field all[] = {
        {"games", &s->games, 1},
        {"rows", &s->rows, 1},
        {"player_games", &s->player_games, 1},
        {"win_units", &s->win_units, 1},
        {"all", &s->all[0][0], IMPACT_D * IMPACT_D},
        {"gain_all", &s->gain_all[0][0], IMPACT_D * IMPACT_D},
        {"card_games", s->card_games, FOH_MAX_CARDS},
        {"card_sum", &s->card_sum[0][0], (size_t)FOH_MAX_CARDS * IMPACT_D},
        {"card_sq", &s->card_sq[0][0][0], (size_t)FOH_MAX_CARDS * IMPACT_D * IMPACT_D},
        {"owned_n", s->owned_n, FOH_MAX_CARDS},
        {"owned_win", s->owned_win, FOH_MAX_CARDS},
    };
    _Static_assert(sizeof all / sizeof all[0] == NFIELDS, "NFIELDS counts the fields");
    memcpy(f, all, sizeof all);
}

json_t *impact_stats_to_json(const impact_stats *s)
{
    field f[NFIELDS];
    fields((impact_stats *)s, f);
    json_t *root = json_pack("{s:i,s:b}", "k", s->k, "overflow", s->overflow);
    for (size_t i = 0; root && i < NFIELDS; i++) {
        json_t *a = json_array();
        for (size_t j = 0; a && j < f[i].n; j++)
            if (json_array_append_new(a, json_integer(f[i].at[j])) != 0) {
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

/* 0 with WHY naming the field if S holds sums no run could have summed:
 * a negative count or square, or counts the other sums contradict (the
 * first feature is the constant 1, so all[0][0] counts the rows,
 * gain_all[0][0] the gains and card_sum[c][0] the gains of card c). A
 * shard whose sums overflowed is not checked: its table is refused anyway. */
static int impossible(const impact_stats *s, int players, char *why, size_t len)
{
    long gains = 0;
    if (s->overflow)
        return 1;
    long want;
    if (__builtin_mul_overflow(s->games, (long)players, &want) || s->player_games != want) {
        snprintf(why, len, "'impact.player_games' is %ld, not games x players = %ld x %d", s->player_games, s->games,
                 players);
        return 0;
    }
    if (s->rows != s->all[0][0]) {
        snprintf(why, len, "'impact.rows' is %ld, while 'impact.all'[0] counts %ld rows", s->rows, s->all[0][0]);
        return 0;
    }
    if (s->win_units < 0) {
        snprintf(why, len, "'impact.win_units' is negative (%ld)", s->win_units);
        return 0;
    }
    for (int i = 0; i < IMPACT_D; i++)
        if (s->all[i][i] < 0 || s->gain_all[i][i] < 0) {
            snprintf(why, len, "'impact.%s'[%d] is a sum of squares, and negative (%ld)",
                     s->all[i][i] < 0 ? "all" : "gain_all", i * IMPACT_D + i,
                     s->all[i][i] < 0 ? s->all[i][i] : s->gain_all[i][i]);
            return 0;
        }
    for (int c = 0; c < FOH_MAX_CARDS; c++) {
        static const char *const count[] = {"card_games", "owned_n", "owned_win"};
        const long v[] = {s->card_games[c], s->owned_n[c], s->owned_win[c]};
        for (int f = 0; f < 3; f++)
            if (v[f] < 0 || (f < 2 && v[f] > s->games)) {
                snprintf(why, len, "'impact.%s'[%d] is %ld, outside 0 to the %ld games", count[f], c, v[f], s->games);
                return 0;
            }
        for (int i = 0; i < IMPACT_D; i++)
            if (s->card_sq[c][i][i] < 0) {
                snprintf(why, len, "'impact.card_sq'[%d] is a sum of squares, and negative (%ld)",
                         (c * IMPACT_D + i) * IMPACT_D + i, s->card_sq[c][i][i]);
                return 0;
            }
        if (s->card_sum[c][0] < s->card_games[c] || s->card_sq[c][0][0] < s->card_sum[c][0]) {
            snprintf(why, len, "'impact.card_sum'[%d] (%ld gains) and 'impact.card_sq'[%d] (%ld) do not fit the %ld "
                     "games of 'impact.card_games'[%d]", c * IMPACT_D, s->card_sum[c][0],
                     c * IMPACT_D * IMPACT_D, s->card_sq[c][0][0], s->card_games[c], c);
            return 0;
        }
        gains += s->card_sum[c][0];
    }
    if (gains != s->gain_all[0][0]) {
        snprintf(why, len, "'impact.gain_all'[0] counts %ld gains, while 'impact.card_sum' counts %ld",
                 s->gain_all[0][0], gains);
        return 0;
    }
    return 1;
}

int impact_stats_from_json(const json_t *j, int players, impact_stats *s, char *why, size_t len)
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
    fields(s, f);
    for (size_t i = 0; i < NFIELDS; i++) {
        json_t *a = json_object_get(j, f[i].name);
        if (!json_is_array(a) || json_array_size(a) != f[i].n) {
            snprintf(why, len, "'impact.%s' must be an array of %zu whole numbers", f[i].name, f[i].n);
            return 0;
        }
        for (size_t e = 0; e < f[i].n; e++) {
            json_t *v = json_array_get(a, e);
            if (!json_is_integer(v)) {
                snprintf(why, len, "'impact.%s'[%zu] is not a whole number", f[i].name, e);
                return 0;
            }
            f[i].at[e] = (long)json_integer_value(v);
        }
    }
    if (s->games < 0 || s->rows < 0 || s->player_games < 0 || (s->games > 0) != (s->k > 0)) {
        snprintf(why, len, "'impact': the counts of games, rows and player-games must not be negative, and 'k' is 0 "
                           "exactly when no game was played");
        return 0;
    }
    return impossible(s, players, why, len);
}

/* fate_shard: the fate sums (tools/sim/fate.h) in foh compare's shard
 * files (tools/sim/compare_shard.c; docs/scaling.md). Every fate figure is
 * a plain integer sum over games, so the sums of the shards add up to
 * exactly the single run's; each field is written under its own name as
 * a flat array, checked on reading against the laws real games obey. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/fate.h"
#include "sim/sim_stats.h"

/* A per-(card, fate kind) field: its name and where it is. */
typedef struct {
    const char *name;
    long (*at)[FATE_KINDS];
} kind_field;

static void kind_fields(fate_stats *s, kind_field f[4])
{
    f[0] = (kind_field){"n", s->n};
    f[1] = (kind_field){"win_units", s->win_units};
    f[2] = (kind_field){"margin_sum", s->margin_sum};
    f[3] = (kind_field){"margin_sq", s->margin_sq};
}

/* N longs from A as a JSON array; NULL if out of memory. */
static json_t *longs_json(const long *a, size_t n)
{
    json_t *j = json_array();
    for (size_t i = 0; j && i < n; i++)
        if (json_array_append_new(j, json_integer(a[i])) != 0) {
            json_decref(j);
            return NULL;
        }
    return j;
}

json_t *fate_stats_to_json(const fate_stats *s)
{
    size_t nc = (size_t)s->ncards;
    kind_field f[4];
    kind_fields((fate_stats *)s, f); /* only read */
    json_t *root = json_pack("{s:i,s:b,s:o*,s:o*}", "card_count", s->ncards, "overflow", s->overflow, "gains",
                             longs_json(s->gains, nc), "lost_by", longs_json(s->lost_by, nc * (nc + 1)));
    for (int i = 0; root && i < 4; i++)
        if (json_object_set_new(root, f[i].name, longs_json(&f[i].at[0][0], nc * FATE_KINDS)) != 0) {
            json_decref(root);
            root = NULL;
        }
    if (root && json_object_size(root) != 8) { /* an array was not made */
        json_decref(root);
        root = NULL;
    }
    return root;
}

/* J's array NAME of N whole numbers into A; 0 with WHY. */
static int read_longs(const json_t *j, const char *name, long *a, size_t n, char *why, size_t len)
{
    json_t *arr = json_object_get(j, name);
    if (!json_is_array(arr) || json_array_size(arr) != n) {
        snprintf(why, len, "'fate.%s' must be a list of %zu whole numbers", name, n);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(arr, i);
        if (!json_is_integer(v)) {
            snprintf(why, len, "'fate.%s[%zu]' is not a whole number", name, i);
            return 0;
        }
        a[i] = (long)json_integer_value(v);
    }
    return 1;
}

/* What is wrong with card C's sums in S, a shard of GAMES games (into
 * WHY), or NULL: each card is gained at most once a game, its fates count
 * its gains, each win share is within the gainers', Cauchy-Schwarz holds
 * for the margins, and the cards that removed it count its losses. */
static const char *card_broken(const fate_stats *s, int c, long games, char *why, size_t len)
{
    long kinds = 0, culprits = 0;
    for (int k = 0; k < FATE_KINDS; k++) {
        long n = s->n[c][k];
        if (n < 0 || s->win_units[c][k] < 0 || s->win_units[c][k] > (long double)n * WIN_UNITS ||
            s->margin_sq[c][k] < 0 ||
            (long double)s->margin_sum[c][k] * s->margin_sum[c][k] > (long double)n * s->margin_sq[c][k]) {
            snprintf(why, len, "card %d's fate %d: its win units or margins are not those of %ld gainers", c, k, n);
            return why;
        }
        kinds += n; /* no overflow: each checked against gains below, at most the games */
        if (kinds > games)
            break;
    }
    if (s->gains[c] < 0 || s->gains[c] > games || kinds != s->gains[c]) {
        snprintf(why, len, "card %d: 'gains' %ld, while its fates count %ld and the shard has %ld games", c,
                 s->gains[c], kinds, games);
        return why;
    }
    const long *row = s->lost_by + (size_t)c * (size_t)(s->ncards + 1);
    for (int k = 0; k <= s->ncards && culprits <= games; k++) {
        if (row[k] < 0)
            break;
        culprits += row[k];
    }
    if (culprits != s->n[c][FATE_LOST]) {
        snprintf(why, len, "card %d: 'lost_by' does not count its %ld losses", c, s->n[c][FATE_LOST]);
        return why;
    }
    return NULL;
}

int fate_stats_from_json(const json_t *j, long games, fate_stats *s, char *why, size_t len)
{
    size_t nc = (size_t)s->ncards;
    json_t *count = json_object_get(j, "card_count"), *overflow = json_object_get(j, "overflow");
    if (!json_is_object(j) || !json_is_integer(count) || json_integer_value(count) != s->ncards ||
        !json_is_boolean(overflow)) {
        snprintf(why, len, "'fate' must be an object with 'card_count' %d (the card set's) and 'overflow'",
                 s->ncards);
        return 0;
    }
    kind_field f[4];
    kind_fields(s, f);
    s->overflow = json_is_true(overflow);
    if (!read_longs(j, "gains", s->gains, nc, why, len) ||
        !read_longs(j, "lost_by", s->lost_by, nc * (nc + 1), why, len))
        return 0;
    for (int i = 0; i < 4; i++)
        if (!read_longs(j, f[i].name, &f[i].at[0][0], nc * FATE_KINDS, why, len))
            return 0;
    for (int c = 0; c < s->ncards; c++)
        if (card_broken(s, c, games, why, len))
            return 0;
    return 1;
}

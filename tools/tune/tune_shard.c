/* tune_shard: see tune_shard.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "tune/tune_shard.h"

/* ---- writing ---- */

static json_t *long_array(const long *x, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_integer(x[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

/* The sums the losses read, of S (PLAYERS seats, NCARDS cards). */
static json_t *sums_json(const sim_stats *s, int players, int ncards)
{
    return json_pack("{s:I,s:o*,s:I,s:I,s:o*,s:o*,s:o*,s:o*}", "games", (json_int_t)s->games, "win_units",
                     long_array(s->win_units, players), "turns_sum", (json_int_t)s->turns_sum, "turns_sq",
                     (json_int_t)s->turns_sq, "start_games", long_array(s->start_games, ncards), "start_win_units",
                     long_array(s->start_win_units, ncards), "owned_n", long_array(s->owned_n, ncards),
                     "owned_win_units", long_array(s->owned_win_units, ncards));
}

/* Game G of GS as [turns, wins, starts, owners(, gains)]. */
static json_t *game_json(const tune_games *gs, long g)
{
    const tune_game *t = &gs->g[g];
    json_t *win = json_array(), *start = json_array(), *owner = json_array();
    for (int p = 0; p < gs->players; p++) {
        json_array_append_new(win, json_integer(t->win[p]));
        json_array_append_new(start, json_integer(t->start[p]));
    }
    for (int c = 0; c < gs->ncards; c++)
        json_array_append_new(owner, json_integer(t->owner[c]));
    json_t *game = json_pack("[i,o,o,o]", t->turns, win, start, owner);
    if (game && gs->impact) {
        json_t *gains = json_array();
        for (int i = 0; i < t->ngain; i++) {
            json_t *row = json_array();
            json_array_append_new(row, json_integer(t->gain[i].card));
            for (int j = 0; j < IMPACT_FILE_D(gs->players); j++)
                json_array_append_new(row, json_integer(t->gain[i].z[j]));
            json_array_append_new(gains, row);
        }
        json_array_append_new(game, gains);
    }
    return game;
}

/* C as {"path", "value", "sums", "games"} (no path for the base). */
static json_t *cand_json(const tune_shard_cand *c, long games)
{
    json_t *o = json_object(), *list = json_array();
    if (!o || !list) {
        json_decref(o);
        json_decref(list);
        return NULL;
    }
    if (c->path) {
        json_object_set_new(o, "path", json_string(c->path));
        json_object_set_new(o, "value", json_integer(c->value));
    }
    json_object_set_new(o, "sums", sums_json(c->st, c->rec.players, c->rec.ncards));
    for (long g = 0; g < games; g++)
        json_array_append_new(list, game_json(&c->rec, g));
    json_object_set_new(o, "games", list);
    return o;
}

int tune_shard_write(const char *path, json_t *run, int shard, int shards, long spent, const tune_shard_cand *base,
                     const tune_shard_cand *surv, int nsurv)
{
    long games = (long)json_integer_value(json_object_get(run, "games"));
    json_t *list = json_array();
    for (int i = 0; list && i < nsurv; i++)
        json_array_append_new(list, cand_json(&surv[i], games));
    json_t *root = json_pack("{s:s,s:[i,i],s:O,s:I,s:o*,s:o*}", "format", TUNE_SHARD_FORMAT, "shard", shard, shards,
                             "run", run, "spent", (json_int_t)spent, "base", cand_json(base, games), "survivors", list);
    int ok = root && cli_write_json(root, path, JSON_COMPACT);
    if (!ok)
        cli_error("tune", "cannot write %s: %s", path, root ? strerror(errno) : "out of memory");
    json_decref(root);
    return ok;
}

/* ---- reading ---- */

/* What is being read, for the messages. */
typedef struct {
    const char *file;
    int players, ncards, impact;
    long games;
} reader;

static int bad(const reader *r, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(const reader *r, const char *field, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_error("tune", "%s: %s%s%s", r->file, field, field[0] ? ": " : "", msg);
    return 0;
}

/* The name of a field, "survivors[2].games[17][3]", into OUT (LEN bytes; a
 * longer name is cut, which only shortens a message). */
static void field_name(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void field_name(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, len, fmt, ap);
    va_end(ap);
}

/* The first key of object V not in KNOWN (NULL-ended), or NULL. */
static const char *unknown_key(json_t *v, const char *const *known)
{
    const char *key;
    json_t *x;
    json_object_foreach(v, key, x)
    {
        int k = 0;
        while (known[k] && strcmp(known[k], key))
            k++;
        if (!known[k])
            return key;
    }
    return NULL;
}

/* V as a whole number within [LO, HI] into *OUT; 0 (said, naming FIELD) if not. */
static int whole(const reader *r, json_t *v, const char *field, long lo, long hi, long *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return bad(r, field, "must be a whole number from %ld to %ld", lo, hi);
    *out = (long)json_integer_value(v);
    return 1;
}

/* V as an array of exactly N items; 0 (said) if not. */
static int array_of(const reader *r, json_t *v, const char *field, size_t n, const char *what)
{
    if (!json_is_array(v) || json_array_size(v) != n)
        return bad(r, field, "must be a list of %zu %s", n, what);
    return 1;
}

/* Game G at FIELD (survivors[k].games[g]) into GS->g[g]. */
static int read_game(const reader *r, json_t *v, const char *field, tune_games *gs, long g)
{
    char f[200];
    long x = 0;
    if (!json_is_array(v) || json_array_size(v) != (size_t)(r->impact ? 5 : 4))
        return bad(r, field, "must be [turns, wins, starting cards, owners%s]", r->impact ? ", gains" : "");
    tune_game *t = &gs->g[g];
    field_name(f, sizeof f, "%s[0]", field);
    if (!whole(r, json_array_get(v, 0), f, 0, 1000000, &x))
        return 0;
    t->turns = (int)x;
    json_t *win = json_array_get(v, 1), *start = json_array_get(v, 2), *owner = json_array_get(v, 3);
    field_name(f, sizeof f, "%s[1]", field);
    if (!array_of(r, win, f, (size_t)r->players, "win units, one a seat"))
        return 0;
    field_name(f, sizeof f, "%s[2]", field);
    if (!array_of(r, start, f, (size_t)r->players, "starting cards, one a seat"))
        return 0;
    field_name(f, sizeof f, "%s[3]", field);
    if (!array_of(r, owner, f, (size_t)r->ncards, "owners, one a card"))
        return 0;
    for (int p = 0; p < r->players; p++) {
        field_name(f, sizeof f, "%s[1][%d]", field, p);
        if (!whole(r, json_array_get(win, (size_t)p), f, 0, WIN_UNITS, &x))
            return 0;
        t->win[p] = (unsigned char)x;
        field_name(f, sizeof f, "%s[2][%d]", field, p);
        if (!whole(r, json_array_get(start, (size_t)p), f, -1, r->ncards - 1, &x))
            return 0;
        t->start[p] = (short)x;
    }
    /* One game: its win units are shared among the winners, each seat starts with its own card. */
    int units = 0;
    for (int p = 0; p < r->players; p++) {
        units += t->win[p];
        for (int q = 0; q < p; q++)
            if (t->start[p] >= 0 && t->start[p] == t->start[q]) {
                field_name(f, sizeof f, "%s[2][%d]", field, p);
                return bad(r, f, "card %d, the starting card of seat %d too: the file was altered", t->start[p], q + 1);
            }
    }
    if (units > WIN_UNITS) {
        field_name(f, sizeof f, "%s[1]", field);
        return bad(r, f, "%d win units in one game, more than %d: the file was altered", units, WIN_UNITS);
    }
    for (int c = 0; c < r->ncards; c++) {
        field_name(f, sizeof f, "%s[3][%d]", field, c);
        if (!whole(r, json_array_get(owner, (size_t)c), f, -1, r->players - 1, &x))
            return 0;
        t->owner[c] = (signed char)x;
    }
    if (r->impact) {
        json_t *gains = json_array_get(v, 4);
        field_name(f, sizeof f, "%s[4]", field);
        if (!json_is_array(gains) || json_array_size(gains) > 100000)
            return bad(r, f, "must be a list of gains [card, %d numbers]", IMPACT_FILE_D(r->players));
        size_t n = json_array_size(gains);
        if (n) {
            t->gain = calloc(n, sizeof *t->gain);
            if (!t->gain)
                return bad(r, f, "out of memory");
        }
        t->ngain = (int)n;
        for (size_t i = 0; i < n; i++) {
            json_t *row = json_array_get(gains, i);
            field_name(f, sizeof f, "%s[4][%zu]", field, i);
            if (!array_of(r, row, f, (size_t)IMPACT_FILE_D(r->players) + 1, "numbers: a card, then its gain's row"))
                return 0;
            field_name(f, sizeof f, "%s[4][%zu][0]", field, i);
            if (!whole(r, json_array_get(row, 0), f, 0, r->ncards - 1, &x))
                return 0;
            t->gain[i].card = (int)x;
            for (int j = 0; j < IMPACT_FILE_D(r->players); j++) {
                json_t *z = json_array_get(row, (size_t)j + 1);
                if (!json_is_integer(z)) {
                    field_name(f, sizeof f, "%s[4][%zu][%d]", field, i, j + 1);
                    return bad(r, f, "must be a whole number");
                }
                t->gain[i].z[j] = (long)json_integer_value(z);
            }
        }
    }
    t->played = 1;
    return 1;
}

/* Whether the array V at FIELD.KEY equals X[0, N). */
static int same_array(const reader *r, json_t *sums, const char *field, const char *key, const long *x, int n)
{
    char f[200];
    json_t *v = json_object_get(sums, key);
    field_name(f, sizeof f, "%s.%s", field, key);
    if (!array_of(r, v, f, (size_t)n, "whole numbers"))
        return 0;
    for (int i = 0; i < n; i++)
        if (!json_is_integer(json_array_get(v, (size_t)i)) || json_integer_value(json_array_get(v, (size_t)i)) != x[i])
            return bad(r, f, "item %d does not match the games' (%ld): the file was altered or cut", i, x[i]);
    return 1;
}

static int same_number(const reader *r, json_t *sums, const char *field, const char *key, long x)
{
    json_t *v = json_object_get(sums, key);
    if (!json_is_integer(v) || json_integer_value(v) != x) {
        char f[200];
        field_name(f, sizeof f, "%s.%s", field, key);
        return bad(r, f, "must be %ld, the games' sum: the file was altered or cut", x);
    }
    return 1;
}

/* The candidate at FIELD (V) into C: its change (unless BASE), its games, its sums checked against them. */
static int read_cand(const reader *r, json_t *v, const char *field, int base, tune_shard_cand *c)
{
    char f[200];
    c->rec.players = r->players;
    c->rec.ncards = r->ncards;
    c->rec.impact = r->impact;
    if (!json_is_object(v))
        return bad(r, field, "must be an object");
    static const char *const BASE_KEYS[] = {"sums", "games", NULL}, *const SURV_KEYS[] = {"path", "value", "sums",
                                                                                          "games", NULL};
    const char *unknown = unknown_key(v, base ? BASE_KEYS : SURV_KEYS);
    if (unknown) {
        field_name(f, sizeof f, "%s.%s", field, unknown);
        return bad(r, f, "unknown field (a file of another version of foh, or edited?)");
    }
    if (!base) {
        json_t *path = json_object_get(v, "path");
        long value = 0;
        field_name(f, sizeof f, "%s.path", field);
        if (!json_is_string(path) || !json_string_length(path) || json_string_length(path) >= 200)
            return bad(r, f, "must be a tunable's path (a string)");
        field_name(f, sizeof f, "%s.value", field);
        if (!whole(r, json_object_get(v, "value"), f, -1000000, 1000000, &value))
            return 0;
        c->value = (int)value;
        if (!(c->path = strdup(json_string_value(path))))
            return bad(r, field, "out of memory");
    }
    json_t *games = json_object_get(v, "games"), *sums = json_object_get(v, "sums");
    field_name(f, sizeof f, "%s.games", field);
    if (!json_is_array(games) || (long)json_array_size(games) != r->games)
        return bad(r, f, "must list the %ld games of the run (%zu found: %s)", r->games,
                   json_is_array(games) ? json_array_size(games) : (size_t)0,
                   json_is_array(games) && (long)json_array_size(games) > r->games
                       ? "more than the run's; the file may have been edited"
                       : "the file is cut or was edited?");
    if (!tune_games_reserve(&c->rec, r->games))
        return bad(r, f, "out of memory");
    for (long g = 0; g < r->games; g++) {
        field_name(f, sizeof f, "%s.games[%ld]", field, g);
        if (!read_game(r, json_array_get(games, (size_t)g), f, &c->rec, g))
            return 0;
    }
    if (!(c->st = malloc(sizeof *c->st)))
        return bad(r, field, "out of memory");
    tune_games_sums(&c->rec, r->games, c->st);
    const sim_stats *s = c->st;
    field_name(f, sizeof f, "%s.sums", field);
    if (!json_is_object(sums))
        return bad(r, f, "must be an object of the games' sums");
    return same_number(r, sums, f, "games", s->games) && same_number(r, sums, f, "turns_sum", s->turns_sum) &&
           same_number(r, sums, f, "turns_sq", s->turns_sq) &&
           same_array(r, sums, f, "win_units", s->win_units, r->players) &&
           same_array(r, sums, f, "start_games", s->start_games, r->ncards) &&
           same_array(r, sums, f, "start_win_units", s->start_win_units, r->ncards) &&
           same_array(r, sums, f, "owned_n", s->owned_n, r->ncards) &&
           same_array(r, sums, f, "owned_win_units", s->owned_win_units, r->ncards);
}

/* Whether the run's players, card_count, impact and games (in R) fit the
 * shape of the base's games (BASE, not yet read): a mismatch blames the
 * run's field, not every game it describes. 0 (said) if not; a malformed
 * base is left to read_cand. */
static int run_fits_games(const reader *r, json_t *base)
{
    json_t *games = json_object_get(base, "games");
    if (!json_is_array(games))
        return 1;
    size_t n = json_array_size(games);
    if ((long)n != r->games && n > 0)
        return bad(r, "run.games", "%ld, but the base has %zu games: the file may have been edited", r->games, n);
    json_t *g = json_array_get(games, 0);
    if (!json_is_array(g))
        return 1;
    size_t items = json_array_size(g);
    if (items == 4 || items == 5) {
        if ((items == 5) != r->impact)
            return bad(r, "run.impact", "%s, but the base's games %s the gains (an impact target's): the file "
                       "may have been edited", r->impact ? "true" : "false", r->impact ? "lack" : "hold");
    }
    json_t *win = json_array_get(g, 1), *owner = json_array_get(g, 3);
    if (json_is_array(win) && (long)json_array_size(win) != r->players)
        return bad(r, "run.players", "%d, but the base's first game has %zu seats: the file may have been edited",
                   r->players, json_array_size(win));
    if (json_is_array(owner) && (long)json_array_size(owner) != r->ncards)
        return bad(r, "run.card_count", "%d, but the base's first game has owners of %zu cards: the file may have "
                   "been edited", r->ncards, json_array_size(owner));
    return 1;
}

int tune_shard_read(const char *path, tune_shard *s)
{
    memset(s, 0, sizeof *s);
    reader r = {.file = path};
    json_error_t jerr;
    char *text;
    size_t len;
    foh_error ferr;
    if (foh_file_read(path, TUNE_SHARD_MAX_BYTES, "shards of foh tune", &text, &len, &ferr) != FOH_OK) {
        cli_error("tune", "%s", ferr.msg);
        return 0;
    }
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!root && jerr.line < 1) {
        cli_error("tune", "%s: %s", path, jerr.text[0] ? jerr.text : "out of memory");
        return 0;
    }
    if (!root) {
        cli_error("tune", "%s:%d:%d: %s (not a whole shard file of foh tune)", path, jerr.line, jerr.column,
                  jerr.text);
        return 0;
    }
    int ok = 0;
    long x = 0, i = 0, n = 0;
    const char *format = json_string_value(json_object_get(root, "format"));
    json_t *shard = json_object_get(root, "shard"), *run = json_object_get(root, "run");
    json_t *surv = json_object_get(root, "survivors");
    if (!json_is_object(root) || !format || strcmp(format, TUNE_SHARD_FORMAT)) {
        bad(&r, "format", "not a shard file of foh tune of this version (format %s)", TUNE_SHARD_FORMAT);
        goto done;
    }
    static const char *const TOP[] = {"format", "shard", "run", "spent", "base", "survivors", NULL};
    const char *unknown = unknown_key(root, TOP);
    if (unknown) {
        bad(&r, unknown, "unknown field (a file of another version of foh, or edited?)");
        goto done;
    }
    if (!array_of(&r, shard, "shard", 2, "numbers [i, n]") ||
        !whole(&r, json_array_get(shard, 1), "shard[1]", 1, 100000, &n) ||
        !whole(&r, json_array_get(shard, 0), "shard[0]", 1, n, &i))
        goto done;
    s->shard = (int)i;
    s->shards = (int)n;
    if (!json_is_object(run)) {
        bad(&r, "run", "must be an object describing the run");
        goto done;
    }
    s->run = json_incref(run);
    if (!whole(&r, json_object_get(run, "players"), "run.players", 1, FOH_MAX_PLAYERS, &x))
        goto done;
    r.players = s->players = (int)x;
    if (!whole(&r, json_object_get(run, "card_count"), "run.card_count", 1, FOH_MAX_CARDS, &x))
        goto done;
    r.ncards = s->ncards = (int)x;
    if (!whole(&r, json_object_get(run, "games"), "run.games", 1, 100000000L, &r.games))
        goto done;
    s->games = r.games;
    if (!json_is_boolean(json_object_get(run, "impact"))) {
        bad(&r, "run.impact", "must be true or false");
        goto done;
    }
    r.impact = s->impact = json_is_true(json_object_get(run, "impact"));
    if (!run_fits_games(&r, json_object_get(root, "base")))
        goto done;
    if (!whole(&r, json_object_get(root, "spent"), "spent", 0, 100000000000L, &s->spent) ||
        !read_cand(&r, json_object_get(root, "base"), "base", 1, &s->base))
        goto done;
    if (!json_is_array(surv)) {
        bad(&r, "survivors", "must be a list");
        goto done;
    }
    size_t ns = json_array_size(surv);
    if (ns && !(s->surv = calloc(ns, sizeof *s->surv))) {
        bad(&r, "survivors", "out of memory");
        goto done;
    }
    for (size_t k = 0; k < ns; k++) {
        char f[64];
        field_name(f, sizeof f, "survivors[%zu]", k);
        s->nsurv++;
        if (!read_cand(&r, json_array_get(surv, k), f, 0, &s->surv[k]))
            goto done;
    }
    ok = 1;
done:
    json_decref(root);
    return ok;
}

static void cand_free(tune_shard_cand *c)
{
    free(c->path);
    free(c->st);
    tune_games_free(&c->rec);
}

void tune_shard_free(tune_shard *s)
{
    cand_free(&s->base);
    for (int k = 0; k < s->nsurv; k++)
        cand_free(&s->surv[k]);
    free(s->surv);
    json_decref(s->run);
    memset(s, 0, sizeof *s);
}

const char *tune_shard_run_differs(json_t *a, json_t *b)
{
    const char *key;
    json_t *v;
    json_object_foreach(a, key, v)
    {
        if (!json_equal(v, json_object_get(b, key)))
            return key;
    }
    json_object_foreach(b, key, v)
    {
        if (!json_object_get(a, key))
            return key;
    }
    return NULL;
}

/* serve_table: one table of foh serve (see serve_table.h). The game is
 * played by the platform's match loop (foh/match.h): each seat's player is
 * a seat_player that answers with the decision a request handed it (a
 * human's), with the seat's bot, or, while a human is away, with a
 * stand-in bot. Replaying a save and the timeline hand it the recorded
 * decisions the same way. */
#include "serve/serve_table.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "any/any.h"
#include "any/any_save.h"
#include "common/origin.h"
#include "foh/match.h"
#include "foh/ruleset.h"
#include "serve/serve_views.h"

#define TABLE_FORMAT "foh-serve-table/1"

/* ---- the seats ---- */

typedef struct {
    foh_player base;
    serve_table *t;
    int seat;
} seat_player;

typedef struct {
    char spec[64];   /* "human" or a bot spec */
    int human;
    char token[SERVE_TOKEN_LEN + 1]; /* a human seat's secret ("" in a hot-seat table: its one token) */
    double last_seen; /* when its player last asked (seconds); the table's start for a seat never joined */
    int standin;      /* 1 while the stand-in bot plays the absent player's seat */
    foh_player *bot;  /* the bot, or a human seat's stand-in (made when first needed) */
    seat_player player;
} serve_seat;

struct serve_table {
    pthread_mutex_t lock;
    char id[SERVE_ID_LEN + 1];
    const serve_config *cfg;
    cli_options o;                   /* this table's card set, variants, players, seed and seats */
    char cards[1024];                /* the card set as requested: a name, or the server's --cards */
    char variant_name[CLI_MAX_VARIANTS][64];
    char seats_text[FOH_MAX_PLAYERS * 65];
    origin og;                       /* a resumed table's card set, variants and mods, which O points into */
    char save_path[2048], table_path[2048];
    int hotseat;
    char hot_token[SERVE_TOKEN_LEN + 1];
    char owner[SERVE_TOKEN_LEN + 1]; /* the creator's secret, which closes the table ("" for one made before it) */
    int closed;                      /* its files moved to closed/: no more actions */
    foh_cardset *cs;
    foh_engine *eng;
    foh_game *g;
    const foh_ruleset *rs;
    int players;
    serve_seat seat[FOH_MAX_PLAYERS];
    foh_player *seats[FOH_MAX_PLAYERS];
    foh_match match;
    foh_observer obs;
    any_saved_action *done; /* the actions applied, as saved */
    int *chosen;            /* and each one's index among the legal actions then */
    int ndone, cap;
    serve_log log;
    int pending;            /* the decision a seat_player hands over next: a legal index, or -1 */
    int replaying;          /* 1 while saved actions are replayed: nothing is written */
    char stopped[1024];     /* the engine error that stopped the table, or "" */
    any_save_game sg;
    serve_preview_cache preview;
    /* The log's lines of the seats' comings and goings ("P2's player is
     * away"), kept in the table's file with the number of actions then,
     * so that a restart puts them back where they were. */
    struct note {
        int at;
        char *line;
    } *note;
    int nnotes, notecap;
};

static int seat_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                       foh_error *err)
{
    seat_player *sp = (seat_player *)self;
    serve_table *t = sp->t;
    serve_seat *s = &t->seat[sp->seat];
    if (t->pending >= 0) {
        int i = t->pending;
        t->pending = -1;
        if (i >= n) {
            foh_error_set(err, FOH_ERR_ILLEGAL, "no legal action number %d here (there are %d)", i, n);
            return -1;
        }
        if (why && whylen)
            snprintf(why, whylen, "%s", t->replaying ? "recorded" : "the player's");
        return i;
    }
    if (s->human && !s->standin) {
        foh_error_set(err, FOH_ERR_USAGE, "waiting for the player of P%d", sp->seat + 1);
        return -1;
    }
    if (!s->bot) {
        /* The stand-in of a human seat, seeded like the seat's bot would be. */
        s->bot = foh_bot_from_spec(t->cfg->standin, foh_seed_for(t->o.seed, 1000u + (unsigned)sp->seat), err);
        if (!s->bot)
            return -1;
    }
    return s->bot->decide(s->bot, g, legal, n, why, whylen, err);
}

static void seat_free(foh_player *self) { (void)self; /* part of its table */ }

/* The index of A among LEGAL[0..N), every field alike, or -1. (The match
 * loop's foh_match_find compares only the fields The Flow of History's
 * kinds use; another ruleset's kinds use others: the civilization draft's
 * draw names its pile.) */
static int find_exact(const foh_action *legal, int n, const foh_action *a)
{
    for (int i = 0; i < n; i++)
        if (legal[i].kind == a->kind && legal[i].card == a->card && legal[i].tokens == a->tokens &&
            legal[i].option == a->option)
            return i;
    return -1;
}

/* ---- the log and the recorded actions ---- */

static void log_line(void *ud, const char *line)
{
    serve_table *t = ud;
    serve_log_add(&t->log, line);
}

static void table_say(serve_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void table_say(serve_table *t, const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    serve_log_add(&t->log, line);
}

static int write_seats(serve_table *t, char *why, size_t whylen);

/* Keep LINE (said at T's AT actions) among T's notes; 0 if out of memory. */
static int keep_note(serve_table *t, int at, const char *line)
{
    if (t->nnotes == t->notecap) {
        int cap = t->notecap ? 2 * t->notecap : 16;
        struct note *grown = realloc(t->note, sizeof *grown * (size_t)cap);
        if (!grown)
            return 0;
        t->note = grown;
        t->notecap = cap;
    }
    char *copy = strdup(line);
    if (!copy)
        return 0;
    t->note[t->nnotes++] = (struct note){.at = at, .line = copy};
    return 1;
}

/* LINE into T's log and its notes, and the table's file written again;
 * a line that cannot be kept says so in the log. */
static void table_note(serve_table *t, const char *line)
{
    serve_log_add(&t->log, line);
    char why[1600];
    if (!keep_note(t, t->ndone, line))
        serve_log_add(&t->log, "(the line above is lost at a restart: out of memory)");
    else if (!write_seats(t, why, sizeof why))
        table_say(t, "(the line above is lost at a restart: cannot write the table's file: %s)", why);
}

/* T's notes said at AT actions into its log (resuming, rebuilding). */
static void replay_notes(serve_table *t, int at, int later_too)
{
    for (int i = 0; i < t->nnotes; i++)
        if (t->note[i].at == at || (later_too && t->note[i].at > at))
            serve_log_add(&t->log, t->note[i].line);
}

static foh_status before(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    serve_table *t = ud;
    if (t->ndone == t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        any_saved_action *done = realloc(t->done, (size_t)cap * sizeof *done);
        if (done)
            t->done = done;
        int *chosen = done ? realloc(t->chosen, (size_t)cap * sizeof *chosen) : NULL;
        if (!chosen)
            return foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        t->chosen = chosen;
        t->cap = cap;
    }
    any_save_name(g, t->match.legal, d->nlegal, &d->action, &t->done[t->ndone]);
    t->chosen[t->ndone] = find_exact(t->match.legal, d->nlegal, &d->action);
    return FOH_OK;
}

static foh_status after(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    serve_table *t = ud;
    (void)d;
    t->ndone++;
    char why[1600];
    if (!t->replaying && !any_save_write(t->save_path, &t->sg, g, t->done, t->ndone, why, sizeof why))
        return foh_error_set(err, FOH_ERR_USAGE, "cannot save the table: %s", why);
    return FOH_OK;
}

/* ---- making a table ---- */

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 63)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
            return 0;
    return 1;
}

int serve_random_hex(char *out, int digits)
{
    unsigned char bytes[SERVE_TOKEN_LEN / 2];
    int n = (digits + 1) / 2;
    if (n > (int)sizeof bytes)
        return 0;
    FILE *f = fopen("/dev/urandom", "rb");
    int ok = f && fread(bytes, 1, (size_t)n, f) == (size_t)n;
    if (f)
        fclose(f);
    for (int i = 0; ok && i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", bytes[i]);
    if (ok)
        out[digits] = '\0';
    return ok;
}

/* A seat's secret. */
static int new_token(char out[SERVE_TOKEN_LEN + 1]) { return serve_random_hex(out, SERVE_TOKEN_LEN); }

/* The card set's name for people: its folder's last part. */
static void set_cards_name(serve_table *t, const char *cards)
{
    const char *slash = strrchr(cards, '/');
    snprintf(t->cards, sizeof t->cards, "%s", slash && slash[1] ? slash + 1 : cards);
}

static serve_table *table_new(const serve_config *cfg, const char *id)
{
    serve_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    snprintf(t->id, sizeof t->id, "%s", id);
    t->cfg = cfg;
    t->o = *cfg->o;
    t->pending = -1;
    set_cards_name(t, cfg->o->cards);
    snprintf(t->save_path, sizeof t->save_path, "%s/%s.json", cfg->o->tables, id);
    snprintf(t->table_path, sizeof t->table_path, "%s/%s.table.json", cfg->o->tables, id);
    return t;
}

/* The variant named NAME of the card set in O (the project's variants/,
 * the mods', or the card set's own variants/) into O's slot I. */
static int find_variant(cli_options *o, int i, const char *name)
{
    snprintf(o->variant_dir[i], sizeof o->variant_dir[i], "%s", name);
    if (cli_find(o, "variants", name, "variant.yaml", o->variant_dir[i], sizeof o->variant_dir[i]))
        return 1;
    char set[1100], probe[2400];
    if (!cli_find(o, "cards", o->cards, "game.yaml", set, sizeof set))
        return 0;
    snprintf(probe, sizeof probe, "%s/variants/%s/variant.yaml", set, name);
    if (access(probe, R_OK) != 0)
        return 0;
    int n = snprintf(o->variant_dir[i], sizeof o->variant_dir[i], "%s/variants/%s", set, name);
    return n > 0 && (size_t)n < sizeof o->variant_dir[i]; /* a longer folder is not found, never cut */
}

/* Every "FOLDER/" of WHY cut where FOLDER is the parent of one of O's
 * search folders (the project's, the mods'): a message for a page names
 * "variants/x/variant.yaml", never where the server's files lie. */
static void strip_paths(const cli_options *o, char *why)
{
    static const char *const kinds[] = {"cards", "variants"};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        const char *path[CLI_MAX_SEARCH];
        int np = cli_search_path(o, kinds[k], path, CLI_MAX_SEARCH);
        for (int i = 0; i < np; i++) {
            const char *slash = strrchr(path[i], '/');
            size_t n = slash ? (size_t)(slash - path[i]) + 1 : 0; /* the parent, with its '/' */
            if (n < 2)
                continue;
            for (char *at = why; (at = strstr(at, path[i])) != NULL;)
                memmove(at, at + n, strlen(at + n) + 1);
        }
    }
}

/* The card set, engine, game, seats and match of T, whose options are set.
 * An HTTP status (200, or 422 with WHY). */
static int table_start(serve_table *t, char *why, size_t whylen)
{
    foh_error err;
    t->cs = any_load(&t->o, &err);
    if (!t->cs) {
        snprintf(why, whylen, "the card set does not load: %s", err.msg);
        strip_paths(&t->o, why);
        return 422;
    }
    t->rs = foh_cardset_ruleset(t->cs);
    t->eng = foh_engine_new_limited(t->cs, &t->o.limits, &err);
    foh_options opt = {.players = t->o.players, .seed = t->o.seed};
    t->g = t->eng ? foh_game_new(t->eng, &opt, &err) : NULL;
    if (!t->g) { /* e.g. a number of players the card set does not allow */
        snprintf(why, whylen, "the game cannot start: %s", err.msg);
        strip_paths(&t->o, why);
        return 422;
    }
    t->players = t->o.players;
    foh_game_set_log(t->g, log_line, t);
    for (int p = 0; p < t->players; p++) {
        serve_seat *s = &t->seat[p];
        s->player = (seat_player){.base = {.name = s->human ? "human" : s->spec, .decide = seat_decide,
                                           .free = seat_free},
                                  .t = t, .seat = p};
        t->seats[p] = &s->player.base;
        if (!s->human && !(s->bot = foh_bot_from_spec(s->spec, foh_seed_for(t->o.seed, 1000u + (unsigned)p), &err))) {
            snprintf(why, whylen, "seat %d: %s", p + 1, err.msg);
            return 400;
        }
    }
    t->obs = (foh_observer){.before = before, .after = after, .ud = t};
    foh_match_init(&t->match, t->g, t->seats, &t->obs, 1);
    t->sg = (any_save_game){.o = &t->o, .ruleset = t->rs->name, .start_digest = foh_game_digest(t->g)};
    return 200;
}

/* The seats file: each seat's spec and secret, and the hot-seat token. */
static int write_seats(serve_table *t, char *why, size_t whylen)
{
    /* A closed table's secrets are gone with its file: a request that
     * was under way at the close (a seat's stand-in noted) writes none. */
    if (t->closed)
        return 1;
    json_t *root = json_object(), *seats = json_array();
    int ok = root && seats;
    for (int p = 0; ok && p < t->players; p++)
        ok = json_array_append_new(seats, json_pack("{s:s, s:s}", "spec", t->seat[p].spec, "token",
                                                    t->seat[p].token)) == 0;
    ok = ok && json_object_set_new(root, "format", json_string(TABLE_FORMAT)) == 0 &&
         json_object_set_new(root, "hotseat", json_boolean(t->hotseat)) == 0 &&
         json_object_set_new(root, "hot_token", json_string(t->hot_token)) == 0 &&
         json_object_set_new(root, "owner", json_string(t->owner)) == 0 &&
         json_object_set(root, "seats", seats) == 0;
    json_decref(seats);
    json_t *notes = ok ? json_array() : NULL;
    for (int i = 0; notes && i < t->nnotes; i++)
        if (json_array_append_new(notes, json_pack("{s:i, s:s}", "at", t->note[i].at, "line", t->note[i].line)))
            ok = 0;
    ok = ok && notes && json_object_set_new(root, "notes", notes) == 0;
    if (!ok)
        snprintf(why, whylen, "out of memory");
    /* 0600 whatever the folder's mode: the file holds the seats' secrets. */
    ok = ok && cli_write_save_mode(t->table_path, root, JSON_INDENT(1), 0600, why, whylen);
    json_decref(root);
    return ok;
}

/* Whether bot B (foh_bot_spec_parse: the reading the bot is made from)
 * thinks within a table's budget: ISMCTS at most SERVE_MAX_ITERATIONS
 * iterations or SERVE_MAX_MS milliseconds a decision (the bots of every
 * table wait while it thinks). */
static int within_budget(const foh_bot_spec *b)
{
    return b->kind != FOH_BOT_KIND_ISMCTS || (b->ms ? b->ms <= SERVE_MAX_MS : b->iterations <= SERVE_MAX_ITERATIONS);
}

/* The request's fields into T's options: an HTTP status, 200 or 400 with WHY. */
static int read_request(serve_table *t, json_t *req, char *why, size_t whylen)
{
    static const char *const keys[] = {"cards", "variants", "players", "seats", "seed", "hotseat"};
    const char *key;
    json_t *v;
    if (!json_is_object(req)) {
        snprintf(why, whylen, "the request must be a JSON object");
        return 400;
    }
    json_object_foreach(req, key, v) {
        size_t k = 0;
        while (k < sizeof keys / sizeof *keys && strcmp(key, keys[k]))
            k++;
        if (k == sizeof keys / sizeof *keys) {
            snprintf(why, whylen, "unknown field '%.64s' (fields: cards, variants, players, seats, seed, hotseat)",
                     key);
            return 400;
        }
    }
    cli_options *o = &t->o;
    if ((v = json_object_get(req, "cards"))) {
        if (!json_is_string(v) || !valid_name(json_string_value(v))) {
            snprintf(why, whylen, "cards: a card set's name (lower-case letters, digits, - and _), e.g. \"base\"");
            return 400;
        }
        snprintf(t->cards, sizeof t->cards, "%s", json_string_value(v));
        o->cards = t->cards;
        o->nmore_cards = 0;
        o->nvariants = 0;
        char dir[1100];
        if (!cli_find(o, "cards", o->cards, "game.yaml", dir, sizeof dir)) {
            snprintf(why, whylen, "cards: no card set named '%s'", t->cards);
            return 400;
        }
    }
    if ((v = json_object_get(req, "variants"))) {
        size_t i;
        json_t *name;
        if (!json_is_array(v) || json_array_size(v) > CLI_MAX_VARIANTS) {
            snprintf(why, whylen, "variants: a list of at most %d variant names", CLI_MAX_VARIANTS);
            return 400;
        }
        o->nvariants = 0;
        json_array_foreach(v, i, name) {
            if (!json_is_string(name) || !valid_name(json_string_value(name))) {
                snprintf(why, whylen, "variants[%zu]: a variant's name (as foh variants lists them)", i);
                return 400;
            }
            snprintf(t->variant_name[i], sizeof t->variant_name[i], "%s", json_string_value(name));
            o->variant[i] = t->variant_name[i];
            if (!find_variant(o, (int)i, t->variant_name[i])) {
                snprintf(why, whylen, "variants[%zu]: no variant named '%s'", i, t->variant_name[i]);
                return 400;
            }
            o->nvariants = (int)i + 1;
        }
    }
    json_t *seats = json_object_get(req, "seats");
    if (!json_is_array(seats) || json_array_size(seats) < 1 || json_array_size(seats) > FOH_MAX_PLAYERS) {
        snprintf(why, whylen, "seats: a list of 1 to %d seats, each \"human\" or a bot (random, greedy, ismcts...)",
                 FOH_MAX_PLAYERS);
        return 400;
    }
    o->players = (int)json_array_size(seats);
    if ((v = json_object_get(req, "players")) &&
        (!json_is_integer(v) || json_integer_value(v) != (json_int_t)json_array_size(seats))) {
        snprintf(why, whylen, "players: must be the number of seats (%zu)", json_array_size(seats));
        return 400;
    }
    if ((v = json_object_get(req, "seed"))) {
        if (!json_is_integer(v) || json_integer_value(v) < 0) {
            snprintf(why, whylen, "seed: a whole number, 0 or more");
            return 400;
        }
        o->seed = (uint64_t)json_integer_value(v);
    } else {
        char tok[SERVE_TOKEN_LEN + 1];
        if (!new_token(tok)) {
            snprintf(why, whylen, "no random source for the seed");
            return 500;
        }
        o->seed = strtoull(tok + 16, NULL, 16) >> 16; /* a seed a person can type again */
    }
    if ((v = json_object_get(req, "hotseat")) && !json_is_boolean(v)) {
        snprintf(why, whylen, "hotseat: true or false");
        return 400;
    }
    t->hotseat = json_is_true(v);
    int at = 0, humans = 0;
    for (int p = 0; p < o->players; p++) {
        json_t *s = json_array_get(seats, (size_t)p);
        const char *spec = json_string_value(s);
        foh_error err;
        if (!spec || strlen(spec) >= sizeof t->seat[p].spec || strchr(spec, ',')) {
            snprintf(why, whylen, "seats[%d]: \"human\" or a bot spec", p);
            return 400;
        }
        serve_seat *seat = &t->seat[p];
        snprintf(seat->spec, sizeof seat->spec, "%s", spec);
        seat->human = !strcmp(spec, "human");
        foh_bot_spec bot;
        if (!seat->human && foh_bot_spec_parse(spec, &bot, &err) != FOH_OK) {
            snprintf(why, whylen, "seats[%d]: %s", p, err.msg);
            return 400;
        }
        if (!seat->human && !within_budget(&bot)) {
            snprintf(why, whylen, "seats[%d]: '%s': at a table a bot thinks at most %d iterations or %d ms a "
                                  "decision (its table waits meanwhile)", p, spec, SERVE_MAX_ITERATIONS, SERVE_MAX_MS);
            return 400;
        }
        humans += seat->human;
        if (seat->human && !t->hotseat && !new_token(seat->token)) {
            snprintf(why, whylen, "no random source for the seats' links");
            return 500;
        }
        at += snprintf(t->seats_text + at, sizeof t->seats_text - (size_t)at, "%s%s", p ? "," : "", spec);
    }
    o->seats = t->seats_text;
    if (t->hotseat && (humans == 0 || !new_token(t->hot_token))) {
        snprintf(why, whylen, humans ? "no random source for the table's link" : "hotseat: the table has no human seat");
        return humans ? 500 : 400;
    }
    return 200;
}

serve_table *serve_table_create(const serve_config *cfg, const char *id, json_t *req, int *status, char *why,
                                size_t whylen)
{
    serve_table *t = table_new(cfg, id);
    if (!t) {
        *status = 500;
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    *status = read_request(t, req, why, whylen);
    if (*status == 200 && !new_token(t->owner)) {
        snprintf(why, whylen, "no random source for the table's owner secret");
        *status = 500;
    }
    if (*status == 200)
        *status = table_start(t, why, whylen);
    double start = serve_now();
    for (int p = 0; p < t->players; p++)
        t->seat[p].last_seen = start;
    char io[1600];
    if (*status == 200 && !write_seats(t, io, sizeof io)) {
        snprintf(why, whylen, "cannot save the table: %s", io);
        *status = 500;
    } else if (*status == 200 && !any_save_write(t->save_path, &t->sg, t->g, t->done, 0, io, sizeof io)) {
        /* All or nothing: a seats file without its game would stop the
         * next start (an orphan), and holds secrets to no table. */
        snprintf(why, whylen, "cannot save the table: %s", io);
        remove(t->table_path);
        remove(t->save_path);
        *status = 500;
    }
    if (*status != 200) {
        serve_table_free(t);
        return NULL;
    }
    table_say(t, "%s: %d players", t->rs->title, t->players); /* the seed would tell the hidden deck */
    return t;
}

/* ---- resuming ---- */

static int read_seats(serve_table *t, char *why, size_t whylen)
{
    json_error_t jerr;
    json_t *root = json_load_file(t->table_path, JSON_REJECT_DUPLICATES, &jerr);
    json_t *seats = json_object_get(root, "seats");
    const char *hot = json_string_value(json_object_get(root, "hot_token"));
    int ok = root && json_is_array(seats) && (int)json_array_size(seats) == t->players && hot &&
             strlen(hot) < sizeof t->hot_token && json_is_string(json_object_get(root, "format")) &&
             !strcmp(json_string_value(json_object_get(root, "format")), TABLE_FORMAT);
    if (!ok)
        snprintf(why, whylen, "%s: %s", t->table_path, root ? "not a table of this format" : jerr.text);
    t->hotseat = json_is_true(json_object_get(root, "hotseat"));
    const char *owner = json_string_value(json_object_get(root, "owner")); /* absent in older tables */
    if (ok && owner && strlen(owner) >= sizeof t->owner) {
        snprintf(why, whylen, "%s: its owner's secret is too long", t->table_path);
        ok = 0;
    }
    if (ok) {
        snprintf(t->hot_token, sizeof t->hot_token, "%s", hot);
        snprintf(t->owner, sizeof t->owner, "%s", owner ? owner : "");
    }
    for (int p = 0; ok && p < t->players; p++) {
        json_t *s = json_array_get(seats, (size_t)p);
        const char *spec = json_string_value(json_object_get(s, "spec"));
        const char *token = json_string_value(json_object_get(s, "token"));
        char one[128];
        any_seat_spec(t->o.seats, p, one, sizeof one);
        ok = spec && token && strlen(token) < sizeof t->seat[p].token && !strcmp(spec, one);
        if (!ok) {
            snprintf(why, whylen, "%s: seat %d differs from the save's", t->table_path, p + 1);
            break;
        }
        snprintf(t->seat[p].spec, sizeof t->seat[p].spec, "%s", spec);
        snprintf(t->seat[p].token, sizeof t->seat[p].token, "%s", token);
        t->seat[p].human = !strcmp(spec, "human");
    }
    json_t *notes = json_object_get(root, "notes"), *n; /* absent in a file of before the notes: none */
    size_t i;
    json_array_foreach(notes, i, n) {
        json_t *at = json_object_get(n, "at"), *line = json_object_get(n, "line");
        if (!ok)
            break;
        if (!json_is_integer(at) || json_integer_value(at) < 0 || json_integer_value(at) > INT_MAX ||
            !json_is_string(line)) {
            snprintf(why, whylen, "%s: notes[%zu]: {\"at\": N, \"line\": TEXT}", t->table_path, i);
            ok = 0;
        } else if (!keep_note(t, (int)json_integer_value(at), json_string_value(line))) {
            snprintf(why, whylen, "out of memory");
            ok = 0;
        }
    }
    json_decref(root);
    return ok;
}

serve_table *serve_table_resume(const serve_config *cfg, const char *id, char *why, size_t whylen)
{
    serve_table *t = table_new(cfg, id);
    any_save rec;
    memset(&rec, 0, sizeof rec);
    if (!t || !any_save_read(t ? t->save_path : "", &rec, why, whylen)) {
        if (!t)
            snprintf(why, whylen, "out of memory");
        serve_table_free(t);
        return NULL;
    }
    t->og = rec.origin;
    origin_apply(&t->og, &t->o);
    t->o.players = rec.players;
    t->o.seed = rec.seed;
    snprintf(t->seats_text, sizeof t->seats_text, "%s", rec.seats);
    t->o.seats = t->seats_text;
    t->o.limits = rec.limits;
    set_cards_name(t, t->o.cards);
    t->players = rec.players;
    int ok = read_seats(t, why, whylen) && table_start(t, why, whylen) == 200;
    if (ok && rec.has_start && foh_game_digest(t->g) != rec.start_digest) {
        snprintf(why, whylen, "%s: the card set sets up another game than the saved one (it changed)", t->save_path);
        ok = 0;
    }
    if (ok)
        table_say(t, "%s: %d players", t->rs->title, t->players);
    t->replaying = 1;
    for (int i = 0; ok && i < rec.nactions; i++) {
        foh_error err;
        replay_notes(t, i, 0);
        int n = foh_match_legal(t->g, &t->match.legal, &t->match.cap, &err), idx = -1;
        ok = n >= 0 && any_save_find(&rec, i, t->g, t->match.legal, n, &idx, why, whylen);
        if (n < 0)
            snprintf(why, whylen, "%s: %s", t->save_path, err.msg);
        t->pending = idx;
        if (ok && foh_match_step(&t->match, &err) != FOH_OK) {
            snprintf(why, whylen, "%s: action %d: %s", t->save_path, i + 1, err.msg);
            ok = 0;
        }
    }
    if (ok)
        replay_notes(t, rec.nactions, 1);
    t->replaying = 0;
    t->pending = -1;
    any_save_free(&rec);
    double start = serve_now();
    for (int p = 0; p < t->players; p++)
        t->seat[p].last_seen = start;
    if (!ok) {
        serve_table_free(t);
        return NULL;
    }
    table_say(t, "the table resumed after %d actions", t->ndone);
    return t;
}

void serve_table_free(serve_table *t)
{
    if (!t)
        return;
    if (t->g)
        foh_match_free(&t->match);
    for (int p = 0; p < FOH_MAX_PLAYERS; p++)
        foh_player_free(t->seat[p].bot);
    foh_game_free(t->g);
    foh_engine_free(t->eng);
    foh_cardset_free(t->cs);
    free(t->done);
    free(t->chosen);
    serve_log_free(&t->log);
    for (int i = 0; i < t->nnotes; i++)
        free(t->note[i].line);
    free(t->note);
    serve_preview_free(&t->preview);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

void serve_table_lock(serve_table *t) { pthread_mutex_lock(&t->lock); }
int serve_table_trylock(serve_table *t)
{
    /* A fifth of a second: long enough for the table's thread to look at the table
     * between bots' decisions, short of a bot's thinking. */
    struct timespec until = serve_deadline(200);
    return pthread_mutex_timedlock(&t->lock, &until) == 0;
}
int serve_table_trylock_now(serve_table *t) { return pthread_mutex_trylock(&t->lock) == 0; }
void serve_table_unlock(serve_table *t) { pthread_mutex_unlock(&t->lock); }
const char *serve_table_id(const serve_table *t) { return t->id; }

/* ---- who asks ---- */

static int same_secret(const char *a, const char *b)
{
    /* Compared in constant time: how long a guess matched is not told. */
    size_t na = strlen(a), nb = strlen(b);
    unsigned diff = (unsigned)(na ^ nb);
    for (size_t i = 0; i < na && i < nb; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0 && na == SERVE_TOKEN_LEN;
}

int serve_table_seat_of(serve_table *t, const char *token, double now)
{
    if (!token || !*token)
        return SERVE_SPECTATOR;
    if (t->hotseat && same_secret(token, t->hot_token)) {
        for (int p = 0; p < t->players; p++)
            if (t->seat[p].human) {
                t->seat[p].last_seen = now;
                if (t->seat[p].standin) {
                    char line[64];
                    snprintf(line, sizeof line, "P%d's player is back", p + 1);
                    table_note(t, line);
                }
                t->seat[p].standin = 0;
            }
        return SERVE_HOTSEAT;
    }
    for (int p = 0; p < t->players; p++)
        if (t->seat[p].human && same_secret(token, t->seat[p].token)) {
            t->seat[p].last_seen = now;
            if (t->seat[p].standin) {
                char line[80];
                snprintf(line, sizeof line, "P%d's player is back and takes the seat again", p + 1);
                table_note(t, line);
            }
            t->seat[p].standin = 0;
            return p;
        }
    return -3;
}

/* Whether WHO may take the decision now. */
static int decides(const serve_table *t, int who)
{
    int p = foh_game_to_act(t->g);
    if (p < 0 || !t->seat[p].human)
        return 0;
    return who == p || (who == SERVE_HOTSEAT && t->hotseat);
}

/* The seat whose eyes WHO sees with: a hot-seat table shows the human to
 * act (or the first human seat while a bot acts). */
static int viewer_of(const serve_table *t, int who)
{
    if (who != SERVE_HOTSEAT)
        return who;
    int p = foh_game_to_act(t->g);
    if (p >= 0 && t->seat[p].human)
        return p;
    for (p = 0; p < t->players; p++)
        if (t->seat[p].human)
            return p;
    return SERVE_SPECTATOR;
}

/* ---- views ---- */

json_t *serve_table_view(serve_table *t, int who)
{
    serve_view_in in = {.g = t->g, .rs = t->rs, .cs = t->cs, .viewer = viewer_of(t, who), .who = who,
                        .version = t->ndone, .log = &t->log, .stopped = t->stopped, .hotseat = t->hotseat,
                        .decides = decides(t, who), .preview = &t->preview, .table = t->id, .cards = t->cards};
    for (int p = 0; p < t->players; p++) {
        in.seat[p].spec = t->seat[p].spec;
        in.seat[p].human = t->seat[p].human;
        in.seat[p].standin = t->seat[p].standin;
        in.seat[p].present = t->seat[p].human && serve_now() - t->seat[p].last_seen < 10;
    }
    for (int i = 0; i < t->o.nvariants; i++)
        in.variants[in.nvariants++] = t->o.variant[i];
    return serve_view(&in);
}

json_t *serve_table_cards(serve_table *t) { return serve_cards(t->cs); }

json_t *serve_table_summary(serve_table *t)
{
    json_t *seats = json_array();
    for (int p = 0; seats && p < t->players; p++)
        json_array_append_new(seats, json_string(t->seat[p].spec));
    return json_pack("{s:s, s:s, s:s, s:i, s:o, s:i, s:b, s:b}", "id", t->id, "title", t->rs->title, "cards",
                     t->cards, "players", t->players, "seats", seats ? seats : json_null(), "turn",
                     foh_game_turn(t->g) + 1, "over", foh_game_is_over(t->g), "hotseat", t->hotseat);
}

json_t *serve_table_links(serve_table *t)
{
    json_t *links = json_array();
    if (t->hotseat)
        json_array_append_new(links, json_pack("{s:s, s:s}", "seat", "hotseat", "token", t->hot_token));
    for (int p = 0; links && !t->hotseat && p < t->players; p++)
        if (t->seat[p].human) {
            char seat[16];
            snprintf(seat, sizeof seat, "P%d", p + 1);
            json_array_append_new(links, json_pack("{s:s, s:s}", "seat", seat, "token", t->seat[p].token));
        }
    return links;
}

/* ---- decisions ---- */

/* One step of the match with the decision PENDING (-1: the seat's bot).
 * On an engine error the table stops (said in the log); a decision refused
 * by the rules (FOH_ERR_ILLEGAL) changes nothing. */
static foh_status step(serve_table *t, int pending, foh_error *err)
{
    t->pending = pending;
    foh_status s = foh_match_step(&t->match, err);
    t->pending = -1;
    if (s != FOH_OK && s != FOH_ERR_ILLEGAL) {
        snprintf(t->stopped, sizeof t->stopped, "%s", err->msg);
        table_say(t, "the table stops: %s", err->msg);
    }
    return s;
}

int serve_table_act(serve_table *t, int who, long version, long action, char *why, size_t whylen)
{
    if (t->closed) {
        snprintf(why, whylen, "the table is closed");
        return 410;
    }
    if (t->stopped[0]) {
        snprintf(why, whylen, "the table stopped: %s", t->stopped);
        return 409;
    }
    if (foh_game_is_over(t->g)) {
        snprintf(why, whylen, "the game is over");
        return 409;
    }
    /* The version first: a retry of an action that did arrive (its reply
     * lost) finds another seat to act, and is a duplicate (409), not an
     * intrusion (403). */
    if (version != t->ndone) {
        snprintf(why, whylen, "the table moved on (%d actions, not %ld): look again", t->ndone, version);
        return 409;
    }
    if (!decides(t, who)) {
        snprintf(why, whylen, "it is P%d's decision, not yours", foh_game_to_act(t->g) + 1);
        return 403;
    }
    foh_error err;
    int n = foh_match_legal(t->g, &t->match.legal, &t->match.cap, &err);
    if (n < 0) {
        snprintf(why, whylen, "%s", err.msg);
        return 500;
    }
    foh_action a;
    int i = foh_action_from_id(action, &a) == 0 ? find_exact(t->match.legal, n, &a) : -1;
    if (i < 0) {
        /* Not legal here: the rules say why (foh_game_check). */
        int bad = foh_action_from_id(action, &a) != 0;
        if (bad || foh_game_check(t->g, &a, &err) == FOH_OK)
            snprintf(why, whylen, "action %ld is not one of the legal actions here", action);
        else
            snprintf(why, whylen, "%s", err.msg);
        strip_paths(&t->o, why);
        return 422;
    }
    foh_status s = step(t, i, &err);
    if (s != FOH_OK) {
        snprintf(why, whylen, "%s", err.msg);
        strip_paths(&t->o, why);
        return s == FOH_ERR_ILLEGAL ? 422 : 500;
    }
    return 200;
}

/* Play T again from the start to its first N actions (as recorded), with
 * its log written anew. 0 with WHY on an engine error. */
static int rebuild(serve_table *t, int n, char *why, size_t whylen)
{
    foh_error err;
    foh_options opt = {.players = t->players, .seed = t->o.seed};
    foh_game *g = foh_game_new(t->eng, &opt, &err);
    if (!g) {
        snprintf(why, whylen, "%s", err.msg);
        return 0;
    }
    int *chosen = malloc(sizeof *chosen * (size_t)(n ? n : 1));
    if (!chosen) {
        foh_game_free(g);
        snprintf(why, whylen, "out of memory");
        return 0;
    }
    memcpy(chosen, t->chosen, sizeof *chosen * (size_t)n);
    foh_match_free(&t->match);
    foh_game_free(t->g);
    t->g = g;
    serve_log_clear(&t->log);
    foh_game_set_log(g, log_line, t);
    table_say(t, "%s: %d players", t->rs->title, t->players);
    foh_match_init(&t->match, t->g, t->seats, &t->obs, 1);
    t->ndone = 0;
    t->replaying = 1;
    int ok = 1;
    for (int i = 0; ok && i < n; i++) {
        replay_notes(t, i, 0);
        ok = step(t, chosen[i], &err) == FOH_OK;
    }
    if (ok)
        replay_notes(t, n, 1);
    t->replaying = 0;
    free(chosen);
    if (!ok)
        snprintf(why, whylen, "%s", err.msg);
    return ok;
}

int serve_table_undo(serve_table *t, int who, char *why, size_t whylen)
{
    if (t->closed) {
        snprintf(why, whylen, "the table is closed");
        return 410;
    }
    if (!t->hotseat || who != SERVE_HOTSEAT) {
        snprintf(why, whylen, "undo is for hot-seat tables, by their link");
        return 403;
    }
    int last = t->ndone - 1;
    while (last >= 0 && !t->seat[t->done[last].player].human)
        last--;
    if (last < 0) {
        snprintf(why, whylen, "no decision of a player to undo");
        return 409;
    }
    if (!rebuild(t, last, why, whylen))
        return 500;
    char io[1600];
    if (!any_save_write(t->save_path, &t->sg, t->g, t->done, t->ndone, io, sizeof io)) {
        snprintf(why, whylen, "cannot save the table: %s", io);
        return 500;
    }
    table_say(t, "undone: back to before P%d's decision", t->done[last].player + 1);
    return 200;
}

int serve_table_step(serve_table *t, double now, double abandon)
{
    if (t->closed || t->stopped[0] || foh_game_is_over(t->g))
        return 0;
    int p = foh_game_to_act(t->g);
    serve_seat *s = &t->seat[p];
    if (s->human && !s->standin && now - s->last_seen > abandon) {
        s->standin = 1;
        char line[200];
        snprintf(line, sizeof line, "P%d's player is away: a %.64s bot plays the seat until they return", p + 1,
                 t->cfg->standin);
        table_note(t, line);
    }
    if (s->human && !s->standin)
        return 0;
    foh_error err;
    return step(t, -1, &err) == FOH_OK;
}

/* ---- closing ---- */

const char *serve_table_owner(const serve_table *t) { return t->owner; }

int serve_table_opened_by_owner(const serve_table *t, const char *token)
{
    return t->owner[0] && token && same_secret(token, t->owner);
}

double serve_table_last_seen(const serve_table *t)
{
    double last = 0;
    for (int p = 0; p < t->players; p++)
        last = t->seat[p].last_seen > last ? t->seat[p].last_seen : last;
    return last;
}

int serve_table_close(serve_table *t, char *why, size_t whylen)
{
    char dir[2048], to[2100];
    snprintf(dir, sizeof dir, "%s/closed", t->cfg->o->tables);
    snprintf(to, sizeof to, "%s/%s.json", dir, t->id);
    if (t->closed)
        return 1;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(why, whylen, "%s: %s", dir, strerror(errno));
        return 0;
    }
    if (rename(t->save_path, to) != 0) {
        snprintf(why, whylen, "cannot move %s to %s: %s", t->save_path, to, strerror(errno));
        return 0;
    }
    t->closed = 1;
    /* Its seats' secrets open nothing now: the file that holds them goes. */
    if (unlink(t->table_path) != 0 && errno != ENOENT) {
        snprintf(why, whylen, "%s: %s", t->table_path, strerror(errno));
        return 0;
    }
    return 1;
}

/* ---- the timeline ---- */

typedef struct {
    foh_player base;
    const int *chosen;
    int at;
} replay_player;

static int replay_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                         foh_error *err)
{
    (void)g, (void)legal, (void)why, (void)whylen;
    replay_player *r = (replay_player *)self;
    int i = r->chosen[r->at++];
    if (i < 0 || i >= n) {
        foh_error_set(err, FOH_ERR_DATA, "the recorded decision %d is not legal on replay", r->at);
        return -1;
    }
    return i;
}

json_t *serve_table_replay(serve_table *t, long step_no, int *status, char *why, size_t whylen)
{
    if (!foh_game_is_over(t->g) && !t->stopped[0]) {
        *status = 409;
        snprintf(why, whylen, "the game is still being played: its timeline opens when it ends");
        return NULL;
    }
    if (step_no < 0 || step_no > t->ndone) {
        *status = 400;
        snprintf(why, whylen, "step: 0 to %d", t->ndone);
        return NULL;
    }
    foh_error err;
    foh_options opt = {.players = t->players, .seed = t->o.seed};
    foh_game *g = foh_game_new(t->eng, &opt, &err);
    serve_log log = {0};
    replay_player r = {.base = {.name = "recorded", .decide = replay_decide, .free = seat_free},
                       .chosen = t->chosen};
    foh_player *seats[FOH_MAX_PLAYERS];
    for (int p = 0; p < FOH_MAX_PLAYERS; p++)
        seats[p] = &r.base;
    foh_status s = g ? FOH_OK : err.code;
    if (g) {
        foh_game_set_log(g, (foh_log_fn)serve_log_add_fn, &log);
        foh_match m;
        foh_match_init(&m, g, seats, NULL, 0);
        for (long i = 0; s == FOH_OK && i < step_no; i++)
            s = foh_match_step(&m, &err);
        foh_match_free(&m);
    }
    json_t *view = NULL;
    if (s == FOH_OK) {
        serve_view_in in = {.g = g, .rs = t->rs, .cs = t->cs, .viewer = SERVE_SPECTATOR, .who = SERVE_SPECTATOR,
                            .version = (int)step_no, .log = &log, .stopped = "", .table = t->id, .cards = t->cards,
                            .replay_steps = t->ndone};
        for (int p = 0; p < t->players; p++) {
            in.seat[p].spec = t->seat[p].spec;
            in.seat[p].human = t->seat[p].human;
        }
        view = serve_view(&in);
    }
    foh_game_free(g);
    serve_log_free(&log);
    if (!view) {
        *status = 500;
        snprintf(why, whylen, "%s", s == FOH_OK ? "out of memory" : err.msg);
    }
    return view;
}

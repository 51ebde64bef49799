/* any_play: foh play and foh replay for a card set of any ruleset, through
 * the ruleset interface alone: the seats (bots, or humans shown what they
 * see), the match loop, the ruleset's log, the scores and the result.
 *
 * As The Flow of History's play does (tools/play/play.c): --save FILE
 * writes the game after every action (and a human's quit or end of input
 * saves it, to the --save file or foh-autosave.json); --load FILE replays
 * the saved actions by name, each checked to be legal, through a seat that
 * plays the recording first and then the seat's player; --stop-after N
 * stops after N actions in all; foh replay FILE prints the saved game's log
 * again, without bots; --trace FILE writes what each seat sees after each
 * action (any_trace.c). The save file: any_save.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "any/any.h"
#include "any/any_save.h"
#include "any/any_trace.h"
#include "play/watch.h"
#include "common/cli.h"
#include "common/origin.h"
#include "foh/match.h"
#include "foh/ruleset.h"

/* A game being played or replayed. */
typedef struct {
    const char *cmd;        /* "play" or "replay" */
    cli_options o;          /* the game's options (with a save file, from it) */
    const foh_ruleset *rs;
    foh_game *g;
    any_save rec;           /* the save file read (no actions without one) */
    int next;               /* the next recorded action to replay */
    char failed[2048];      /* why a recorded action cannot be replayed */
    const char *save;       /* written after every action, or NULL */
    any_save_game sg;       /* what the save holds besides the actions */
    any_saved_action *done; /* the actions applied, as saved */
    int ndone, cap;
    foh_action *legal;      /* scratch */
    int legal_cap;
    any_trace *trace;       /* --trace, or NULL */
    watcher watch;          /* --watch */
    foh_cardset **cs;       /* the card set and engine the game is on (--watch replaces them) */
    foh_engine **eng;
    foh_cardset **old_cs;   /* those replaced, freed at the end (the bots' copies may still use them) */
    foh_engine **old_eng;
    int nold;
} any_session;

/* ---- a seat that plays the recording first, then its player ---- */

typedef struct {
    foh_player base;
    any_session *ss;
    foh_player *seat; /* NULL: replay, which stops where the recording does */
} any_recorded;

static int recorded_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                           foh_error *err)
{
    any_recorded *rs = (any_recorded *)self;
    any_session *ss = rs->ss;
    if (ss->next >= ss->rec.nactions) {
        if (!rs->seat) {
            foh_error_set(err, FOH_ERR_USAGE, "the recording has no more actions");
            return -1;
        }
        return rs->seat->decide(rs->seat, g, legal, n, why, whylen, err);
    }
    int i;
    if (!any_save_find(&ss->rec, ss->next, g, legal, n, &i, ss->failed, sizeof ss->failed)) {
        foh_error_set(err, FOH_ERR_DATA, "%s", ss->failed);
        return -1;
    }
    ss->next++;
    if (why && whylen)
        snprintf(why, whylen, "recorded");
    return i;
}

static void recorded_free(foh_player *self)
{
    any_recorded *rs = (any_recorded *)self;
    foh_player_free(rs->seat);
    free(rs);
}

/* SEAT (may be NULL) behind the recording; NULL if out of memory (SEAT
 * stays the caller's). */
static foh_player *recorded_new(any_session *ss, foh_player *seat)
{
    any_recorded *rs = calloc(1, sizeof *rs);
    if (!rs)
        return NULL;
    rs->base.name = seat ? seat->name : "recording";
    rs->base.decide = recorded_decide;
    rs->base.free = recorded_free;
    rs->ss = ss;
    rs->seat = seat;
    return &rs->base;
}

/* ---- observing the match: the actions as saved, the save, the trace ---- */

static foh_status session_before(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    any_session *ss = ud;
    if (ss->ndone == ss->cap) {
        int cap = ss->cap ? 2 * ss->cap : 256;
        any_saved_action *grown = realloc(ss->done, (size_t)cap * sizeof *grown);
        if (!grown)
            return foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        ss->done = grown;
        ss->cap = cap;
    }
    int n = foh_match_legal(g, &ss->legal, &ss->legal_cap, err);
    if (n < 0)
        return err->code;
    any_save_name(g, ss->legal, n, &d->action, &ss->done[ss->ndone]);
    return FOH_OK;
}

static foh_status session_after(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    any_session *ss = ud;
    (void)d;
    const any_saved_action *a = &ss->done[ss->ndone++];
    /* Once the recording is replayed, the game must be where it was. */
    if (ss->ndone == ss->rec.nactions && ss->rec.has_digest && foh_game_digest(g) != ss->rec.digest)
        return foh_error_set(err, FOH_ERR_DATA,
                             "%s: the replayed game differs from the recorded one (digest): the card set or the "
                             "engine changed since it was saved",
                             ss->rec.path);
    foh_status s = ss->trace ? any_trace_step(ss->trace, g, ss->ndone, a->name, a->player, err) : FOH_OK;
    char why[1600];
    if (s == FOH_OK && ss->save && ss->ndone > ss->rec.nactions &&
        !any_save_write(ss->save, &ss->sg, g, ss->done, ss->ndone, why, sizeof why))
        s = foh_error_set(err, FOH_ERR_USAGE, "cannot write the save file: %s", why);
    return s;
}

/* A human's save (save FILE, quit, the end of the input): the game as it
 * stands. */
/* --watch: between turns, the card set's edited files are read again and
 * the game moved onto them (tools/play/watch.c, the ruleset's rebind). */
static foh_status session_turn(void *ud, foh_game *g, foh_error *err)
{
    (void)err;
    any_session *ss = ud;
    foh_cardset *old_cs;
    foh_engine *old_eng;
    char line[3000];
    if (!watch_poll(&ss->watch, g, ss->cs, ss->eng, &old_cs, &old_eng, line, sizeof line))
        return FOH_OK;
    foh_cardset **cs = realloc(ss->old_cs, sizeof *cs * (size_t)(ss->nold + 1));
    foh_engine **eng = cs ? realloc(ss->old_eng, sizeof *eng * (size_t)(ss->nold + 1)) : NULL;
    if (cs)
        ss->old_cs = cs;
    if (eng)
        ss->old_eng = eng;
    if (!eng) { /* kept alive for ever rather than freed under a bot */
        cli_error(ss->cmd, "out of memory");
        return FOH_OK;
    }
    ss->old_cs[ss->nold] = old_cs;
    ss->old_eng[ss->nold++] = old_eng;
    any_log_line(NULL, line);
    return FOH_OK;
}

static int save_now(void *ud, const char *path, char *err, size_t len)
{
    any_session *ss = ud;
    return any_save_write(path, &ss->sg, ss->g, ss->done, ss->ndone, err, len);
}

/* ---- the session ---- */

static void print_header(const any_session *ss)
{
    const cli_options *o = &ss->o;
    printf("%s: %d players, seed %llu, players:", ss->rs->title, o->players, (unsigned long long)o->seed);
    for (int p = 0; p < o->players; p++) {
        char one[128], safe[512];
        any_seat_spec(o->seats, p, one, sizeof one);
        printf(" P%d %s", p + 1, cli_safe(one, safe, sizeof safe)); /* from a save file with --load */
    }
    printf("\n");
}

/* The end of the game, of the recording or of the session, and the
 * scores; STOPPED: why a human stopped it, or NULL. 0 when scoring fails
 * (said). */
static int print_end(const any_session *ss, const char *stopped)
{
    foh_game *g = ss->g;
    int players = ss->o.players;
    double results[FOH_MAX_PLAYERS];
    foh_error err;
    if (stopped) {
        printf("\nStopped after %d turns (", foh_game_turn(g));
        cli_puts(stdout, stopped);
        printf("); the scores as the game stands:\n");
    } else if (foh_game_is_over(g)) {
        if (foh_game_results(g, results, &err) != FOH_OK) {
            cli_error(ss->cmd, "%s", err.msg);
            return 0;
        }
        printf("\nGame over after %d turns.\n", foh_game_turn(g));
        if (!any_print_scores(g, players))
            return 0;
        any_print_results(results, players);
        return 1;
    } else if (!strcmp(ss->cmd, "replay")) {
        printf("\nThe recording ends after %d actions, turn %d; the scores if the game ended now:\n", ss->ndone,
               foh_game_turn(g) + 1);
    } else {
        char safe[4096];
        printf("\nStopped after %d actions, turn %d%s%s; the scores if the game ended now:\n", ss->ndone,
               foh_game_turn(g) + 1, ss->save ? "; resume with foh play --load " : "",
               ss->save ? cli_safe(ss->save, safe, sizeof safe) : "");
    }
    return any_print_scores(g, players);
}

/* Read the save file PATH and take the game's options from it (what the
 * command line did not give). 0 after saying what is wrong. */
static int read_recording(any_session *ss, const char *path)
{
    char msg[2048];
    if (!any_save_read(path, &ss->rec, msg, sizeof msg)) {
        cli_error(ss->cmd, "%s", msg);
        return 0;
    }
    cli_options *o = &ss->o;
    origin_apply(&ss->rec.origin, o);
    o->players = ss->rec.players;
    o->seed = ss->rec.seed;
    if (!(o->given >> OPT_SEATS & 1))
        o->seats = ss->rec.seats;
    if (!o->limits.instructions)
        o->limits.instructions = ss->rec.limits.instructions;
    if (!o->limits.memory_bytes)
        o->limits.memory_bytes = ss->rec.limits.memory_bytes;
    if (!o->limits.time_ms)
        o->limits.time_ms = ss->rec.limits.time_ms;
    return 1;
}

/* The card set, the engine and the new game of the session, checked
 * against the save file if there is one. CLI_OK, or the status after
 * saying what is wrong. */
static int start_game(any_session *ss, foh_cardset **cs, foh_engine **eng)
{
    const char *cmd = ss->cmd, *file = ss->rec.path;
    foh_error err;
    *cs = any_load(&ss->o, &err);
    if (!*cs) {
        if (file)
            cli_error(cmd, "%s: the recorded card set does not load: %s", file, err.msg);
        else
            cli_error(NULL, "%s", err.msg);
        return CLI_DATA;
    }
    ss->rs = foh_cardset_ruleset(*cs);
    if (file && strcmp(ss->rs->name, ss->rec.ruleset)) {
        cli_error(cmd, "%s: the game was recorded with a card set of the ruleset '%s', but %s is one of '%s'", file,
                  ss->rec.ruleset, ss->o.cards, ss->rs->name);
        return CLI_DATA;
    }
    *eng = foh_engine_new_limited(*cs, &ss->o.limits, &err);
    foh_options opt = {.players = ss->o.players, .seed = ss->o.seed};
    ss->g = *eng ? foh_game_new(*eng, &opt, &err) : NULL;
    if (!ss->g && file) {
        /* The players and seed came from the file: it is the bad input. */
        cli_error(cmd, "%s: the recorded game cannot start: %s", file, err.msg);
        return CLI_DATA;
    }
    if (!ss->g) {
        cli_error(cmd, "%s", err.msg);
        return err.code == FOH_ERR_USAGE ? CLI_USAGE : CLI_DATA;
    }
    ss->sg = (any_save_game){.o = &ss->o, .ruleset = ss->rs->name, .start_digest = foh_game_digest(ss->g)};
    uint64_t now = foh_game_digest(ss->g);
    if (file && ((ss->rec.has_start && now != ss->rec.start_digest) ||
                 (ss->rec.nactions == 0 && ss->rec.has_digest && now != ss->rec.digest))) {
        cli_error(cmd, "%s: the card set sets up another game than the recorded one (digest): it (or the engine) "
                       "changed since the game was saved",
                  file);
        return CLI_DATA;
    }
    return CLI_OK;
}

/* The seats: bots and humans (play) behind the recording, or the recording
 * alone (replay). CLI_OK, or the status after saying what is wrong. */
static int make_seats(any_session *ss, any_input *in, foh_player **seats)
{
    foh_player *own[FOH_MAX_PLAYERS] = {0};
    int playing = !strcmp(ss->cmd, "play");
    if (playing && !any_seats(&ss->o, ss->cmd, ss->o.players, ss->o.seed, in, own)) {
        if (ss->rec.path && !(ss->o.given >> OPT_SEATS & 1)) { /* the seats came from the file */
            cli_error(ss->cmd, "%s: the recorded seats cannot be played (give --seats to choose others)",
                      ss->rec.path);
            return CLI_DATA;
        }
        return CLI_USAGE;
    }
    for (int p = 0; p < ss->o.players; p++) {
        /* A new game's bots play alone: the same game as without a save. */
        seats[p] = ss->rec.path ? recorded_new(ss, own[p]) : own[p];
        if (!seats[p]) {
            foh_player_free(own[p]);
            any_free_seats(seats, p);
            any_free_seats(own + p + 1, ss->o.players - p - 1);
            cli_error(ss->cmd, "out of memory");
            return CLI_DATA;
        }
    }
    return CLI_OK;
}

/* The match: the recording, then the seats (play), until the game ends,
 * --stop-after or a human stops it (*STOPPED: why). CLI_OK or the status
 * after saying what is wrong. */
static int run_match(any_session *ss, foh_player **seats, const any_input *in, char *stopped, size_t len)
{
    int playing = !strcmp(ss->cmd, "play");
    foh_observer obs = {.before = session_before, .after = session_after, .ud = ss,
                        .turn = playing && ss->o.watch ? session_turn : NULL};
    /* Replay stops where the recording does; play after --stop-after
     * actions in all, but never inside the recording. */
    long steps = playing ? ss->o.stop_after : ss->rec.nactions;
    if (playing && steps && steps < ss->rec.nactions)
        steps = ss->rec.nactions;
    foh_error err;
    foh_status s = FOH_OK;
    if (steps > 0 || playing) {
        foh_match m;
        foh_match_init(&m, ss->g, seats, &obs, 1);
        s = foh_match_run(&m, steps, &err);
        foh_match_free(&m);
    }
    if (s != FOH_OK && (in->ended || in->quit)) {
        snprintf(stopped, len, "%s", err.msg);
        return in->failed ? CLI_DATA : CLI_OK; /* saved if it could be, and said why */
    }
    if (s != FOH_OK) {
        cli_error(ss->cmd, "%s", ss->failed[0] ? ss->failed : err.msg);
        return CLI_DATA;
    }
    if (ss->next < ss->rec.nactions) {
        cli_error(ss->cmd, "%s: actions[%d]: the game is already over", ss->rec.path, ss->next);
        return CLI_DATA;
    }
    return CLI_OK;
}

/* Open --trace and write its step 0. CLI_OK or the status after saying why not. */
static int start_trace(any_session *ss, any_trace *tr)
{
    if (!ss->o.trace)
        return CLI_OK;
    foh_error err;
    tr->seed = ss->o.seed;
    if (!(tr->out = cli_create(ss->o.trace))) {
        cli_error(ss->cmd, "cannot write %s: %s", ss->o.trace, strerror(errno));
        return CLI_DATA;
    }
    ss->trace = tr;
    if (any_trace_step(tr, ss->g, 0, NULL, 0, &err) != FOH_OK) {
        cli_error(ss->cmd, "%s", err.msg);
        return CLI_DATA;
    }
    return CLI_OK;
}

static int run_session(any_session *ss, const char *load)
{
    if (load && !read_recording(ss, load))
        return CLI_DATA;
    foh_cardset *cs = NULL;
    foh_engine *eng = NULL;
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    any_input in = {.save = save_now, .save_ud = ss, .save_path = ss->save};
    any_trace tr = {0};
    char stopped[704] = "", msg[1600];
    int status = start_game(ss, &cs, &eng);
    ss->cs = &cs;
    ss->eng = &eng;
    if (status == CLI_OK && ss->o.watch)
        watch_init(&ss->watch, &ss->o, cs);
    if (status == CLI_OK && !strcmp(ss->cmd, "play") && !(in.t = term_open(stdin, stdout))) {
        cli_error(ss->cmd, "out of memory");
        status = CLI_DATA;
    }
    if (status == CLI_OK)
        status = make_seats(ss, &in, seats);
    if (status == CLI_OK) {
        print_header(ss);
        foh_game_set_log(ss->g, any_log_line, NULL);
        status = start_trace(ss, &tr);
    }
    if (status == CLI_OK)
        status = run_match(ss, seats, &in, stopped, sizeof stopped);
    /* A resumed game saved as loaded (`--load A --save B` copies A). */
    if (status == CLI_OK && ss->save && ss->ndone == ss->rec.nactions &&
        !any_save_write(ss->save, &ss->sg, ss->g, ss->done, ss->ndone, msg, sizeof msg)) {
        cli_error(ss->cmd, "cannot write the save file: %s", msg);
        status = CLI_DATA;
    }
    if (ss->g && (status == CLI_OK || stopped[0]) && !print_end(ss, stopped[0] ? stopped : NULL))
        status = CLI_DATA;
    if (tr.out && fclose(tr.out) != 0 && status == CLI_OK) {
        cli_error(ss->cmd, "cannot write %s", ss->o.trace);
        status = CLI_DATA;
    }
    any_trace_free(&tr);
    any_free_seats(seats, ss->o.players);
    if (in.t)
        term_close(in.t);
    foh_game_free(ss->g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
    for (int i = 0; i < ss->nold; i++) {
        foh_engine_free(ss->old_eng[i]);
        foh_cardset_free(ss->old_cs[i]);
    }
    free(ss->old_cs);
    free(ss->old_eng);
    any_save_free(&ss->rec);
    free(ss->done);
    free(ss->legal);
    if (fflush(stdout) != 0 && status == CLI_OK)
        status = CLI_DATA;
    return status;
}

int any_play(const cli_options *o)
{
    const uint64_t allowed = (uint64_t)1 << OPT_SAVE | (uint64_t)1 << OPT_LOAD | (uint64_t)1 << OPT_STOP_AFTER |
                             (uint64_t)1 << OPT_TRACE | (uint64_t)1 << OPT_WATCH;
    if (!any_only(o, "play", allowed))
        return CLI_USAGE;
    any_session ss = {.cmd = "play", .o = *o, .save = o->save ? o->save : o->load};
    return run_session(&ss, o->load);
}

int any_replay(const cli_options *o)
{
    if (!any_only(o, "replay", (uint64_t)1 << OPT_TRACE))
        return CLI_USAGE;
    any_session ss = {.cmd = "replay", .o = *o};
    return run_session(&ss, o->load);
}

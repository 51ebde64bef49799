/* foh play: one game between bots, with a turn-by-turn log; saved after
 * every action with --save, resumed with --load. foh replay: a saved game's
 * log again, without bots. foh legal: the legal actions where a saved game
 * stands. All three play through the match loop (foh/match.h): recorded
 * actions are played by a seat that replays them, then the seats' players. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "any/any.h"
#include "any/any_save.h"
#include "common/cli.h"
#include "common/origin.h"
#include "common/trace.h"
#include "play/human.h"
#include "play/save.h"
#include "play/watch.h"

static const cli_option_id PLAY_OPTIONS[] = {OPT_PLAYERS, OPT_SEED,    OPT_SEATS, OPT_CARDS, OPT_VARIANT,
                                             OPT_MODS,    OPT_SAVE,    OPT_LOAD,  OPT_STOP_AFTER, OPT_TRACE,
                                             OPT_EXPLAIN, OPT_REVEAL,  OPT_WATCH, OPT_LUA_INSTRUCTIONS,
                                             OPT_LUA_MEMORY, OPT_ACTION_TIME, OPT_LUA_ONLY, OPT_COUNT};
static const cli_command PLAY = {
    "play", NULL, 0,
    "Plays one full game and prints each action, the tokens it moves, the cards gained and\n"
    "discarded, attacks with their strengths, and the final score table with each\n"
    "player's VP breakdown. The same seed prints the same game, byte for byte.\n"
    "\n"
    "A seat 'human' (or 'human:NAME') is played at the terminal: the board before each\n"
    "decision (a compact one; board shows it all), the legal actions numbered, and\n"
    "commands help CARD, board, score, log,\n"
    "hint, undo, save FILE, quit (docs/play.md). Several human seats play hot-seat.\n"
    "With --load, --players, --seed, --cards, --variant and --mods come from the save\n"
    "file. With --watch, card files edited during the game take effect from the next\n"
    "turn (a game continued under edited cards is no longer saved after every action;\n"
    "save FILE saves it when its actions replay under the edited files).\n",
    PLAY_OPTIONS, NULL};

static const cli_option_id REPLAY_OPTIONS[] = {OPT_TRACE, OPT_COUNT};
static const cli_command REPLAY = {
    "replay", "FILE", 1,
    "Replays the game saved in FILE (by 'foh play --save') and prints the same log as the\n"
    "game printed, then the scores. Refused, naming what differs, if the card set or\n"
    "variants are not the ones the game was recorded with; a corrupt or hand-edited file\n"
    "is refused with the position of the problem.\n",
    REPLAY_OPTIONS, NULL};

static const cli_option_id LEGAL_OPTIONS[] = {OPT_JSON, OPT_COUNT};
static const cli_command LEGAL = {
    "legal", "FILE", 1,
    "Replays the game saved in FILE and lists the legal actions where it stands, numbered,\n"
    "with the player to act and the pending choice, if any. --json writes them and the\n"
    "whole public state (the format of --trace) to FILE.\n",
    LEGAL_OPTIONS, NULL};

/* What a session does beyond cli_options. */
typedef struct {
    const char *cmd;        /* "play", "replay" or "legal" */
    const cli_options *o;
    const foh_cardset *cs;
    foh_cardset *own_cs;    /* the card set and engine the game is on (a reload replaces them) */
    foh_engine *eng;
    watcher watch;          /* --watch */
    int reloaded;           /* the game went on under reloaded files: no more saving */
    foh_game *g;            /* the game being played */
    human_table *table;     /* the human seats' table, or NULL (bots only) */
    foh_player *const *seats;
    char explained[2048];   /* --explain: the lines for the decision being applied */
    const char *save;       /* written after every action, or NULL */
    save_file sv;           /* the loaded file's actions (none without --load) */
    int next;               /* the next recorded action to replay */
    int quiet;              /* legal: no log */
    save_entry *done;       /* every action applied, for the save file */
    int ndone, cap;
    int entry_pending;      /* done[ndone] is set for an action not applied yet (freed if it fails) */
} session;

/* A seat that plays the recorded actions first, then its player (none for
 * replay and legal, which stop where the recording does). */
typedef struct {
    foh_player base;
    session *ss;
    foh_player *seat;
    int replayed; /* the last decision came from the recording */
} recorded_seat;

static int recorded_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                           foh_error *err)
{
    recorded_seat *rs = (recorded_seat *)self;
    session *ss = rs->ss;
    rs->replayed = ss->next < ss->sv.nactions;
    if (ss->next >= ss->sv.nactions) {
        if (!rs->seat) {
            foh_error_set(err, FOH_ERR_USAGE, "the recording has no more actions");
            return -1;
        }
        return rs->seat->decide(rs->seat, g, legal, n, why, whylen, err);
    }
    char msg[1024];
    foh_action a;
    if (!save_action(&ss->sv, ss->next, ss->cs, &a, msg, sizeof msg) ||
        !save_check_choice(&ss->sv, ss->next, g, msg, sizeof msg)) {
        foh_error_set(err, FOH_ERR_DATA, "%s", msg);
        return -1;
    }
    int i = foh_match_find(legal, n, &a);
    if (i < 0) {
        foh_error why_not = {0};
        if (foh_game_check(g, &a, &why_not) == FOH_OK)
            snprintf(why_not.msg, sizeof why_not.msg, "not among the legal actions");
        foh_error_set(err, FOH_ERR_DATA, "%s: actions[%d]: %s", ss->sv.path, ss->next, why_not.msg);
        return -1;
    }
    ss->next++;
    return i;
}

static void recorded_free(foh_player *self)
{
    recorded_seat *rs = (recorded_seat *)self;
    foh_player_free(rs->seat);
    free(rs);
}

static int recorded_explain(foh_player *self, foh_alternative *out, int max)
{
    recorded_seat *rs = (recorded_seat *)self;
    /* -1: nothing to say (a recorded action, a human, a random bot). */
    return !rs->replayed && rs->seat && rs->seat->explain ? rs->seat->explain(rs->seat, out, max) : -1;
}

static recorded_seat *recorded_new(session *ss, foh_player *seat)
{
    recorded_seat *rs = calloc(1, sizeof *rs);
    if (!rs)
        return NULL; /* SEAT stays the caller's */
    rs->base.name = seat ? seat->name : "recording";
    rs->base.decide = recorded_decide;
    rs->base.free = recorded_free;
    rs->base.explain = recorded_explain;
    rs->ss = ss;
    rs->seat = seat;
    return rs;
}

/* A bot seat of a game with humans: the bot is made anew from its spec at
 * each decision, seeded by the seat and the number of actions applied, so
 * that after an undo the bots replay exactly what they played before. */
typedef struct {
    foh_player base;
    char spec[64];
    uint64_t seed;
    const human_table *t;
    foh_player *bot; /* the last decision's, for explain */
} fresh_seat;

static int fresh_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                        foh_error *err)
{
    fresh_seat *fs = (fresh_seat *)self;
    foh_player_free(fs->bot);
    fs->bot = foh_bot_from_spec(fs->spec, foh_seed_for(fs->seed, (uint64_t)fs->t->done), err);
    return fs->bot ? fs->bot->decide(fs->bot, g, legal, n, why, whylen, err) : -1;
}

static int fresh_explain(foh_player *self, foh_alternative *out, int max)
{
    fresh_seat *fs = (fresh_seat *)self;
    return fs->bot && fs->bot->explain ? fs->bot->explain(fs->bot, out, max) : -1;
}

static void fresh_free(foh_player *self)
{
    fresh_seat *fs = (fresh_seat *)self;
    foh_player_free(fs->bot);
    free(fs);
}

/* SPEC's bot for seat P, or NULL after saying what is wrong. */
static foh_player *fresh_new(const char *spec, uint64_t seed, const human_table *t)
{
    foh_error err;
    foh_player *probe = foh_bot_from_spec(spec, seed, &err);
    if (!probe) {
        cli_error("play", "--seats: %s", err.msg);
        return NULL;
    }
    foh_player_free(probe);
    fresh_seat *fs = calloc(1, sizeof *fs);
    if (!fs)
        return NULL;
    snprintf(fs->spec, sizeof fs->spec, "%s", spec);
    fs->base.name = fs->spec;
    fs->base.decide = fresh_decide;
    fs->base.explain = fresh_explain;
    fs->base.free = fresh_free;
    fs->seed = seed;
    fs->t = t;
    return &fs->base;
}

/* Every line of the log: printed, or (a game with humans) kept for the
 * board's recap of what happened since a player's last decision. */
static void log_line(void *ud, const char *line)
{
    session *ss = ud;
    if (ss->table) {
        if (!human_table_log(ss->table, line))
            cli_error(ss->cmd, "out of memory keeping the log");
    } else {
        cli_line(stdout, line);
    }
}

/* The seats of O: humans at a table (then the bots are fresh_seats), or
 * bots only. 0 after saying what is wrong. */
static int make_seats(session *ss, const cli_options *o, foh_player **seats)
{
    char specs[FOH_MAX_PLAYERS][64];
    if (!cli_seat_specs(o, specs))
        return 0;
    int humans = 0;
    for (int p = 0; p < o->players; p++)
        humans += cli_seat_is_human(specs[p]);
    if (!humans)
        return cli_seats(o, o->seed, seats);
    if (!(ss->table = human_table_new(stdin, stdout, ss->cs, o->seed))) {
        cli_error("play", "out of memory");
        return 0;
    }
    ss->table->style.reveal = o->reveal;
    for (int p = 0; p < o->players; p++) {
        if (cli_seat_is_human(specs[p])) {
            const char *name = specs[p][5] == ':' ? specs[p] + 6 : "";
            seats[p] = human_new(ss->table, name);
            ss->table->names[p] = seats[p] ? seats[p]->name : NULL;
            if (!name[0] && seats[p])
                ss->table->names[p] = NULL;
        } else {
            seats[p] = fresh_new(specs[p], cli_seat_seed(o->seed, p), ss->table);
        }
        if (!seats[p]) {
            cli_free_seats(seats, p);
            return 0;
        }
    }
    return 1;
}

/* After a --watch reload: whether the actions so far, replayed from the
 * start under the card files as they are now, reach the game as it stands
 * (then a save with the files' new hashes replays); 0 with ERR if not. */
static int replays_now(session *ss, char *err, size_t len)
{
    foh_error e;
    foh_options opt = {.players = ss->o->players, .seed = ss->o->seed};
    foh_game *again = foh_game_new(ss->eng, &opt, &e);
    if (!again) {
        snprintf(err, len, "the game cannot start under the reloaded card files: %s", e.msg);
        return 0;
    }
    int ok = 1;
    for (int i = 0; ok && i < ss->ndone; i++)
        if (foh_game_apply(again, &ss->done[i].action, &e) != FOH_OK) {
            snprintf(err, len, "under the reloaded card files, action %d of the game is refused (%s): a save could "
                               "not be replayed", i + 1, e.msg);
            ok = 0;
        }
    if (ok && foh_game_digest(again) != foh_game_digest(ss->g)) {
        snprintf(err, len, "the game went on under reloaded card files (--watch) and its actions play out "
                           "differently under them now: a save could not be replayed");
        ok = 0;
    }
    foh_game_free(again);
    return ok;
}

/* The human table's save: the game as it stands (after a reload, if its
 * actions replay under the files as they are now). */
static int save_now(void *ud, const char *path, char *err, size_t len)
{
    session *ss = ud;
    if (ss->reloaded && !replays_now(ss, err, len))
        return 0;
    if (!save_write(path, ss->o, ss->cs, ss->g, ss->done, ss->ndone, err, len))
        return 0;
    return 1;
}

/* --explain: the 3 best alternatives SEAT weighed for decision D at G, as
 * log lines kept in ss->explained until the action's own lines are out. */
static void explain(session *ss, foh_game *g, foh_player *seat)
{
    ss->explained[0] = '\0';
    foh_alternative alt[3];
    if (!seat || !seat->explain)
        return;
    int k = seat->explain(seat, alt, 3);
    if (k < 0)
        return;
    foh_action *legal = NULL;
    int cap = 0;
    foh_error err;
    int n = foh_match_legal(g, &legal, &cap, &err);
    size_t used = 0;
    if (n == 1 && k <= 1)
        snprintf(ss->explained, sizeof ss->explained, "    why: the only legal action\n");
    for (int i = 0; i < k && n > 1; i++) {
        char text[200];
        if (alt[i].index < 0 || alt[i].index >= n)
            continue;
        foh_game_describe_action(g, &legal[alt[i].index], text, sizeof text);
        if (alt[i].visits > 0)
            used += (size_t)snprintf(ss->explained + used, sizeof ss->explained - used,
                                     "    %s %d. %s: %ld simulations, mean reward %.3f\n", i ? "   " : "why", i + 1,
                                     text, alt[i].visits, alt[i].value);
        else
            used += (size_t)snprintf(ss->explained + used, sizeof ss->explained - used,
                                     "    %s %d. %s: value %.2f\n", i ? "   " : "why", i + 1, text, alt[i].value);
        if (used >= sizeof ss->explained)
            break;
    }
    free(legal);
}


static void print_setup(FILE *out, foh_game *g, int reveal)
{
    const foh_cardset *cs = foh_game_cardset(g);
    foh_card_info ci;
    fprintf(out, "Market:");
    for (int i = 0; i < foh_game_market_size(g); i++) {
        foh_cardset_card(cs, foh_game_market_card(g, i), &ci);
        fprintf(out, "%s %s (%s)", i ? "," : "", ci.name, ci.age);
    }
    fprintf(out, "\n");
    for (int p = 0; p < foh_game_players(g); p++)
        for (int t = 0; t < foh_cardset_type_count(cs); t++) {
            int cards[FOH_MAX_CARDS];
            int k = foh_game_nation_cards(g, p, t, cards, FOH_MAX_CARDS);
            for (int i = 0; i < k; i++) {
                foh_cardset_card(cs, cards[i], &ci);
                fprintf(out, "P%d starts with %s\n", p + 1, ci.name);
            }
        }
    fprintf(out, "Civilization deck: %d cards. Supply %d, Reserve %d. First player: P%d\n", foh_game_deck_size(g),
           foh_game_supply(g), foh_game_reserve(g), foh_game_first_player(g) + 1);
    if (reveal) {
        fprintf(out, "Civilization deck order (--reveal), top first:");
        for (int i = 0; i < foh_game_deck_size(g); i++) {
            foh_cardset_card(cs, foh_game_deck_card(g, i), &ci);
            fprintf(out, "%s %s (%s)", i ? "," : "", ci.name, ci.age);
        }
        fprintf(out, "\n");
    }
}

/* Observer: the turn header before each turn action, and the record of
 * every action (with what a choice offered) for the save file. */
static foh_status session_before(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    session *ss = ud;
    if (!ss->quiet && !foh_game_choice(g)) {
        char head[200];
        if (!ss->table)
            printf("\n");
        snprintf(head, sizeof head, "Turn %d: P%d (tokens %d; Supply %d, Reserve %d, Current Age %d, deck %d)",
                 foh_game_turn(g) + 1, foh_game_current_player(g) + 1,
                 foh_game_tokens(g, foh_game_current_player(g)), foh_game_supply(g), foh_game_reserve(g),
                 foh_game_current_age(g), foh_game_deck_size(g));
        log_line(ss, head);
    }
    if (ss->o->explain && ss->seats)
        explain(ss, g, ss->seats[d->player]);
    if (ss->ndone == ss->cap) {
        int cap = ss->cap ? ss->cap * 2 : 1024;
        save_entry *grown = realloc(ss->done, (size_t)cap * sizeof *grown);
        if (!grown)
            return foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        ss->done = grown;
        ss->cap = cap;
    }
    if (ss->entry_pending)
        save_entry_free(&ss->done[ss->ndone]);
    ss->entry_pending = save_entry_set(&ss->done[ss->ndone], g, &d->action);
    if (!ss->entry_pending)
        return foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
    return FOH_OK;
}

static foh_status session_after(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    session *ss = ud;
    (void)d;
    ss->ndone++;
    ss->entry_pending = 0;
    if (ss->table)
        ss->table->done = ss->ndone;
    /* --explain: the alternatives after the action's own lines. */
    for (char *line = ss->explained, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        *nl = '\0';
        log_line(ss, line);
    }
    ss->explained[0] = '\0';
    /* Once the recording is replayed, the game must be where it was. */
    if (ss->ndone == ss->sv.nactions && ss->sv.has_digest && foh_game_digest(g) != ss->sv.digest)
        return foh_error_set(err, FOH_ERR_DATA,
                             "%s: the replayed game differs from the recorded one (digest): the engine or its rules "
                             "changed since it was saved",
                             ss->sv.path);
    char why[1200];
    if (ss->save && ss->ndone > ss->sv.nactions &&
        !save_write(ss->save, ss->o, ss->cs, g, ss->done, ss->ndone, why, sizeof why))
        return foh_error_set(err, FOH_ERR_USAGE, "cannot write the save file: %s", why);
    return FOH_OK;
}

/* After a reload: the human table's undo positions onto engine ENG; one
 * the new card set does not fit (or inside an action) is dropped, so undo
 * cannot go back to it. */
static void rebind_marks(human_table *t, foh_engine *eng)
{
    int kept = 0;
    for (int i = 0; i < t->nmarks; i++) {
        if (foh_game_rebind(t->marks[i].at, eng, NULL) == FOH_OK)
            t->marks[kept++] = t->marks[i];
        else
            foh_game_free(t->marks[i].at);
    }
    t->nmarks = kept;
}

/* Observer, between turns: --watch's reload (once the recording of a
 * resumed game is replayed, under the files it was saved with). */
static foh_status session_turn(void *ud, foh_game *g, foh_error *err)
{
    session *ss = ud;
    (void)err;
    char line[2600];
    foh_cardset *old_cs;
    foh_engine *old_eng;
    if (!ss->o->watch || ss->next < ss->sv.nactions ||
        !watch_poll(&ss->watch, g, &ss->own_cs, &ss->eng, &old_cs, &old_eng, line, sizeof line))
        return FOH_OK;
    ss->cs = ss->own_cs;
    if (ss->table)
        rebind_marks(ss->table, ss->eng);
    foh_engine_free(old_eng);
    foh_cardset_free(old_cs);
    /* Its save could not be replayed: the actions so far were played under
     * other definitions than the files now hold. */
    if (ss->save) {
        size_t used = strlen(line);
        snprintf(line + used, sizeof line - used, "; %s is no longer saved", ss->save);
    }
    ss->save = NULL;
    if (ss->table)
        ss->table->save_path = NULL;
    ss->reloaded = 1;
    log_line(ss, line);
    return FOH_OK;
}

/* `foh legal`: the decision point's legal actions, numbered. */
static int print_legal(foh_game *g, const char *json_path)
{
    foh_error err;
    const foh_cardset *cs = foh_game_cardset(g);
    foh_action *legal = NULL;
    int cap = 0, n = foh_match_legal(g, &legal, &cap, &err);
    if (n < 0) {
        cli_error("legal", "%s", err.msg);
        return CLI_DATA;
    }
    const foh_choice *ch = foh_game_choice(g);
    if (foh_game_is_over(g))
        printf("The game is over (turn %d): no legal action.\n", foh_game_turn(g));
    else if (ch) {
        /* The prompt and name come from scripts: printed escaped. A choice
         * raised by a variant hook has no card. */
        foh_card_info ci;
        char line[600];
        int card = ch->card >= 0 && foh_cardset_card(cs, ch->card, &ci) == FOH_OK;
        snprintf(line, sizeof line, "Turn %d: P%d must choose for %s (%s):", foh_game_turn(g) + 1, ch->player + 1,
                 card ? ci.name : "the variant", ch->prompt);
        cli_line(stdout, line);
    } else {
        printf("Turn %d: P%d to act%s:\n", foh_game_turn(g) + 1, foh_game_to_act(g) + 1,
               foh_game_in_bonus(g) ? " (a bonus action)" : "");
    }
    for (int i = 0; i < n; i++) {
        char text[160], line[200];
        foh_game_describe_action(g, &legal[i], text, sizeof text);
        snprintf(line, sizeof line, "%4d  %s", i + 1, text);
        cli_line(stdout, line);
    }
    free(legal);
    if (json_path) {
        json_t *state = trace_state(g, &err), *list = state ? trace_legal(g, &err) : NULL;
        if (!list) {
            json_decref(state);
            cli_error("legal", "%s", err.msg);
            return CLI_DATA;
        }
        json_t *doc = json_pack("{s:o,s:o}", "state", state, "legal", list);
        int bad = !cli_write_json(doc, json_path, JSON_INDENT(1));
        json_decref(doc);
        if (bad) {
            cli_error("legal", "cannot write %s: %s", json_path, strerror(errno));
            return CLI_DATA;
        }
    }
    return CLI_OK;
}

/* Fill O from save file SV (what the command line did not override). */
static void options_from_save(cli_options *o, const save_file *sv)
{
    origin_apply(&sv->origin, o);
    o->players = sv->players;
    o->seed = sv->seed;
    if (!(o->given >> OPT_SEATS & 1))
        o->seats = sv->seats;
    if (!o->limits.instructions)
        o->limits.instructions = sv->limits.instructions;
    if (!o->limits.memory_bytes)
        o->limits.memory_bytes = sv->limits.memory_bytes;
    if (!o->limits.time_ms)
        o->limits.time_ms = sv->limits.time_ms;
}

static void print_header(FILE *out, const cli_options *o, const foh_cardset *cs, foh_game *g)
{
    fprintf(out, "The Flow of History: %d players, seed %llu, ", o->players, (unsigned long long)o->seed);
    origin_print_cards(out, o);
    fprintf(out, ", players:");
    /* One spec for all seats, or one per seat (as cli_seats reads them). */
    const char *spec = o->seats;
    for (int p = 0; p < o->players; p++) {
        size_t len = strcspn(spec, ",");
        char one[256], safe[4 * sizeof one];
        snprintf(one, sizeof one, "%.*s", (int)len, spec);
        fprintf(out, " P%d %s", p + 1, cli_safe(one, safe, sizeof safe)); /* from a save file with --load */
        if (spec[len] == ',')
            spec += len + 1;
    }
    fprintf(out, "\n");
    for (int i = 0; i < foh_cardset_variant_count(cs); i++) {
        fprintf(out, "Variant: ");
        cli_line(out, foh_cardset_variant_name(cs, i));
    }
    print_setup(out, g, o->reveal);
}

/* The header: the bots' as it always was, the humans' wrapped to their
 * terminal's width (as every line the table shows). */
static void print_game_header(session *ss, const cli_options *o, const foh_cardset *cs, foh_game *g)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = ss->table ? open_memstream(&text, &size) : NULL;
    if (!mem) {
        print_header(stdout, o, cs, g);
        return;
    }
    print_header(mem, o, cs, g);
    if (fclose(mem) == 0 && text)
        for (char *line = text, *nl; *line; line = nl + 1) {
            if (!(nl = strchr(line, '\n')))
                break;
            *nl = '\0';
            human_line(ss->table, line);
        }
    free(text);
}

/* The end of the game or of the recording, and the scores: 0 when scoring
 * fails (said). */
static int print_end(const session *ss, foh_game *g)
{
    if (ss->table) {
        human_table_last_turns(ss->table, g);
        fflush(ss->table->out);
    }
    if (ss->table && foh_game_is_over(g)) {
        char line[400];
        snprintf(line, sizeof line, "Game over after %d turns%s. Tokens substituted for an empty Reserve: %d",
                 foh_game_turn(g),
                 foh_game_is_stalled(g) ? ": the turn limit (engine ruling E1) ended it; the game is stalled and "
                                          "scored as usual"
                                        : "",
                 foh_game_substituted(g));
        printf("\n");
        human_line(ss->table, line);
    } else if (foh_game_is_stalled(g))
        printf("\nGame over after %d turns: the turn limit (engine ruling E1) ended it; the game is stalled and "
               "scored as usual. Tokens substituted for an empty Reserve: %d\n",
               foh_game_turn(g), foh_game_substituted(g));
    else if (foh_game_is_over(g))
        printf("\nGame over after %d turns. Tokens substituted for an empty Reserve: %d\n", foh_game_turn(g),
               foh_game_substituted(g));
    else if (!strcmp(ss->cmd, "replay"))
        printf("\nThe recording ends after %d actions, turn %d; the scores if the game ended now:\n", ss->ndone,
               foh_game_turn(g) + 1);
    else if (ss->table) {
        char line[2400];
        snprintf(line, sizeof line, "Stopped after %d actions, turn %d%s%s; the scores if the game ended now:",
                 ss->ndone, foh_game_turn(g) + 1, ss->save ? "; resume with foh play --load " : "",
                 ss->save ? ss->save : "");
        printf("\n");
        human_line(ss->table, line);
    } else
        printf("\nStopped after %d actions, turn %d%s%s; the scores if the game ended now:\n", ss->ndone,
               foh_game_turn(g) + 1, ss->save ? "; resume with foh play --load " : "", ss->save ? ss->save : "");
    return ss->table ? human_table_scores(ss->table, g) : cli_print_scores(stdout, g);
}

/* A human's undo: back to decision point K of the table (the position,
 * the actions recorded, the log and the save file as they were there). */
static void undo(session *ss, foh_game *g, int k)
{
    human_table *t = ss->table;
    const human_mark *m = &t->marks[k];
    foh_game_copy(g, m->at);
    if (ss->entry_pending)
        save_entry_free(&ss->done[ss->ndone]);
    ss->entry_pending = 0;
    while (ss->ndone > m->done)
        save_entry_free(&ss->done[--ss->ndone]);
    char name[96];
    fprintf(t->out, "\nUndone: back to %s's decision of turn %d.\n",
            board_player_name(&t->style, m->player, name, sizeof name), foh_game_turn(g) + 1);
    human_table_rewind(t, k);
    char why[1200];
    if (ss->save && !save_write(ss->save, ss->o, ss->cs, g, ss->done, ss->ndone, why, sizeof why))
        cli_error(ss->cmd, "cannot write the save file: %s", why);
}

static int run_session(cli_options *o, session *ss)
{
    const char *cmd = ss->cmd;
    char msg[2048];
    if (o->load) {
        if (!save_read(o->load, &ss->sv, msg, sizeof msg)) {
            cli_error(cmd, "%s", msg);
            return CLI_DATA;
        }
        options_from_save(o, &ss->sv);
    }
    foh_cardset *cs;
    foh_engine *eng;
    if (!cli_load(o, &cs, &eng)) {
        save_free(&ss->sv);
        return CLI_DATA;
    }
    ss->o = o;
    ss->cs = ss->own_cs = cs;
    ss->eng = eng;
    if (o->watch)
        watch_init(&ss->watch, o, cs);
    int status = CLI_OK;
    if (o->load && !save_check_cardset(&ss->sv, cs, msg, sizeof msg)) {
        cli_error(cmd, "%s was recorded with another card set: %s", o->load, msg);
        status = CLI_DATA;
    }
    foh_error err;
    foh_options opt = {.players = o->players, .seed = o->seed};
    foh_game *g = status == CLI_OK ? foh_game_new(eng, &opt, &err) : NULL;
    if (status == CLI_OK && !g && o->load) {
        /* The players and seed came from the file: it is the bad input. */
        cli_error(cmd, "%s: the recorded game cannot start: %s", o->load, err.msg);
        status = CLI_DATA;
    } else if (status == CLI_OK && !g) {
        cli_error(cmd, "%s", err.msg);
        status = err.code == FOH_ERR_USAGE ? CLI_USAGE : CLI_DATA;
    }
    /* Bots of a resumed game are seeded as at the start: the greedy bot,
     * whose choices depend on its seed and the position only, plays on as
     * if the game had not stopped (random and ISMCTS draw from streams and
     * continue differently). */
    foh_player *bots[FOH_MAX_PLAYERS] = {0}, *seats[FOH_MAX_PLAYERS] = {0};
    int playing = !strcmp(cmd, "play");
    ss->g = g;
    if (status == CLI_OK && playing && !make_seats(ss, o, bots)) {
        status = CLI_USAGE;
        if (o->load && !(o->given >> OPT_SEATS & 1)) { /* the seats came from the file */
            cli_error(cmd, "%s: the recorded seats cannot be played (give --seats to choose others)", o->load);
            status = CLI_DATA;
        }
    }
    if (ss->table) {
        ss->table->save = save_now;
        ss->table->save_ud = ss;
        ss->table->save_path = ss->save;
    }
    for (int p = 0; status == CLI_OK && p < o->players; p++)
        if (!(seats[p] = (foh_player *)recorded_new(ss, bots[p])))
            status = CLI_DATA;
    FILE *trace_file = NULL;
    tracer tr;
    if (status == CLI_OK && o->trace && !(trace_file = cli_create(o->trace))) {
        cli_error(cmd, "cannot write %s: %s", o->trace, strerror(errno));
        status = CLI_DATA; /* as for every file that cannot be written */
    }
    /* A recording without actions: the new game must be the saved one. */
    if (status == CLI_OK && ss->sv.nactions == 0 && ss->sv.has_digest && foh_game_digest(g) != ss->sv.digest) {
        cli_error(cmd, "%s: the new game differs from the recorded one (digest): the engine or its rules changed "
                       "since it was saved",
                  ss->sv.path);
        status = CLI_DATA;
    }
    if (status == CLI_OK && !ss->quiet) {
        print_game_header(ss, o, cs, g);
        foh_game_set_log(g, log_line, ss);
    }
    ss->seats = seats;
    if (status == CLI_OK && trace_file && trace_start(&tr, trace_file, 0, o->seed, g, &err) != FOH_OK) {
        cli_error(cmd, "%s", err.msg);
        status = CLI_DATA;
    }
    if (status == CLI_OK) {
        foh_observer obs[2] = {{.before = session_before, .after = session_after, .ud = ss, .turn = session_turn}};
        int nobs = 1;
        if (trace_file)
            obs[nobs++] = trace_observer(&tr);
        /* Replay and legal stop where the recording does; play stops after
         * --stop-after actions in all, but never inside the recording. */
        long steps = playing ? (o->stop_after ? o->stop_after : 0) : ss->sv.nactions;
        if (playing && steps && steps < ss->sv.nactions)
            steps = ss->sv.nactions;
        foh_match m;
        foh_match_init(&m, g, seats, obs, nobs);
        for (;;) {
            if (!(steps > 0 || playing) || foh_match_run(&m, steps, &err) == FOH_OK)
                break;
            human_table *t = ss->table;
            if (t && t->undo_to >= 0) {
                undo(ss, g, t->undo_to);
                continue;
            }
            if (!t || !t->quit) {
                cli_error(cmd, "%s", err.msg);
                status = CLI_DATA;
            }
            break;
        }
        foh_match_free(&m);
    }
    if (status == CLI_OK && ss->table && ss->table->input_failed)
        status = CLI_DATA; /* saved if it could be, and said why: still a failure */
    if (status == CLI_OK && ss->next < ss->sv.nactions) {
        cli_error(cmd, "%s: actions[%d]: the game is already over", o->load, ss->next);
        status = CLI_DATA;
    }
    /* A resumed game saved as loaded (its file is rewritten even if nothing
     * was played: `--load A --save B` copies A). */
    if (status == CLI_OK && ss->save && ss->ndone == ss->sv.nactions &&
        !save_write(ss->save, o, ss->cs, g, ss->done, ss->ndone, msg, sizeof msg)) {
        cli_error(cmd, "cannot write the save file: %s", msg);
        status = CLI_DATA;
    }
    if (status == CLI_OK && ss->quiet)
        status = print_legal(g, o->json);
    else if (status == CLI_OK && !print_end(ss, g))
        status = CLI_DATA;
    if (trace_file && fclose(trace_file) != 0 && status == CLI_OK) {
        cli_error(cmd, "cannot write %s", o->trace);
        status = CLI_DATA;
    }
    for (int i = 0; i < ss->ndone + ss->entry_pending; i++) /* and the entry of an action that failed */
        save_entry_free(&ss->done[i]);
    free(ss->done);
    for (int p = 0; p < o->players; p++)
        if (seats[p])
            foh_player_free(seats[p]);
        else
            foh_player_free(bots[p]);
    human_table_free(ss->table);
    foh_game_free(g);
    foh_engine_free(ss->eng);
    foh_cardset_free(ss->own_cs);
    save_free(&ss->sv);
    return status;
}

int cmd_play(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&PLAY, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&PLAY, stdout);
        return st;
    }
    static const cli_option_id from_save[] = {OPT_PLAYERS, OPT_SEED, OPT_CARDS, OPT_VARIANT, OPT_MODS};
    for (size_t i = 0; o.load && i < sizeof from_save / sizeof from_save[0]; i++)
        if (o.given >> from_save[i] & 1) {
            static const char *const names[] = {"--players", "--seed", "--cards", "--variant", "--mods"};
            cli_error("play", "%s comes from the save file with --load", names[i]);
            return CLI_USAGE;
        }
    /* Another ruleset's card set, or its save: through the interface alone. */
    if (o.load ? any_save_sniff(o.load) : any_ruleset(&o))
        return any_play(&o);
    session ss = {.cmd = "play", .save = o.save ? o.save : o.load};
    return run_session(&o, &ss);
}

int cmd_replay(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&REPLAY, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&REPLAY, stdout);
        return st;
    }
    o.load = o.args[0];
    if (o.nargs > 1) {
        cli_error("replay", "one save file at a time, not also '%s'", o.args[1]);
        return CLI_USAGE;
    }
    if (any_save_sniff(o.load)) /* a save of another ruleset's game */
        return any_replay(&o);
    session ss = {.cmd = "replay"};
    return run_session(&o, &ss);
}

int cmd_legal(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&LEGAL, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&LEGAL, stdout);
        return st;
    }
    o.load = o.args[0];
    if (o.nargs > 1) {
        cli_error("legal", "one save file at a time, not also '%s'", o.args[1]);
        return CLI_USAGE;
    }
    session ss = {.cmd = "legal", .quiet = 1};
    return run_session(&o, &ss);
}

/* foh sim: many bot games, aggregated into the designer's balance report.
 * Game i always uses the seed foh_seed_for(S, i) and its own bots, and the
 * statistics are integer sums, so the report is the same whatever the
 * number of threads; memory does not grow with the number of games. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "any/any.h"
#include "any/any_compare.h"
#include "common/cli.h"
#include "common/provenance.h"
#include "common/origin.h"
#include "common/trace.h"
#include "sim/fate.h"
#include "sim/impact.h"
#include "sim/ladder.h"
#include "sim/sim.h"
#include "sim/sim_stats.h"

static const cli_option_id SIM_OPTIONS[] = {
    OPT_PLAYERS, OPT_GAMES, OPT_SEED, OPT_SEATS, OPT_THREADS, OPT_SHARD, OPT_SAVE_SHARD, OPT_JSON, OPT_HTML,
    OPT_GAMES_CSV, OPT_TRACE, OPT_ON_ERROR, OPT_LUA_INSTRUCTIONS, OPT_LUA_MEMORY, OPT_ACTION_TIME, OPT_LUA_ONLY, OPT_CARDS, OPT_MODS,
    OPT_VARIANT, OPT_IMPACT, OPT_FATE, OPT_WITHOUT, OPT_ABLATION, OPT_SKILL_LADDER, OPT_LADDER_FROM, OPT_LADDER_RUNGS, OPT_COUNT};
static const cli_command SIM = {
    "sim", NULL, 0,
    "Plays G games (game i uses a seed derived from S and i, so a run is reproducible) and\n"
    "prints the balance report: game length and the share of stalled games (ended by the\n"
    "turn limit), scores and their VP breakdown, win rate per seat and per starting card,\n"
    "and per card how often it is acquired (by Complete, Snipe or effects), the mean price\n"
    "paid and the win rate of its owners; rates and means with 95% confidence intervals.\n"
    "A shared win counts as 1/k of a win for each of the k winners. Then the first player's\n"
    "and each turn-order position's win rate, the game-length distribution, and per card how\n"
    "often its effect fired, its activations, the turn it was gained and what its choices\n"
    "picked (docs/report.md describes every figure).\n"
    "\n"
    "--impact adds each card's impact, controlled for the gainer's position; --without and\n"
    "--ablation measure the game without cards (docs/impact.md).\n",
    SIM_OPTIONS, LADDER_HELP};

typedef struct {
    const cli_options *o;
    const foh_cardset *cs;
    long from, to;
    sim_stats *stats; /* where its games are added: its own (freed with it) or the caller's total */
    int own_stats;
    sim_labels *labels; /* the text answers to choices by label: its own, or NULL (not kept) */
    impact_stats *impact; /* --impact: this worker's sums, or NULL */
    fate_stats *fate;     /* --fate, compare: this worker's sums, or NULL */
    const sim_game_hook *hook; /* foh tune: each game handed to it, or NULL */
    sim_outcome *outcomes; /* each game's outcome (game i at i - outcome_from), or NULL */
    long outcome_from;
    /* Wall-clock decision time per seat (machine-dependent, so kept out of
     * the report): all decisions, and those with more than one legal action. */
    double think_s[FOH_MAX_PLAYERS], choice_s[FOH_MAX_PLAYERS], choice_max[FOH_MAX_PLAYERS];
    long think_n[FOH_MAX_PLAYERS], choice_n[FOH_MAX_PLAYERS];
    FILE *csv, *trace;
    atomic_long *done;
    atomic_int *exited; /* workers that have returned */
    /* Games numbered this or more are not played: lowered to the lowest
     * failing game found so far (--on-error stop), so that every game below
     * it is still played and the run reports the lowest failing game, as
     * one thread would, whatever the threads and their timing. */
    atomic_long *stop_at;
    pthread_mutex_t *print; /* stderr, shared by the workers */
    int status;
    long failed; /* with STATUS not CLI_OK: the failing game, or -1 (no engine: before any game) */
    char error[1000];
    int timing_index[FOH_MAX_CARDS]; /* each card's sim_timing_index, found once */
    const char *card_name[FOH_MAX_CARDS]; /* each card's name (the card set's), found once */
} worker;

/* What one game's observer keeps: the result being filled and, between
 * the two callbacks of a decision, what was there before it. */
typedef struct {
    worker *w;
    game_result *r;
    int started;        /* the starting cards are recorded */
    foh_action root;    /* the turn action in progress (a choice answers it) */
    int root_price;     /* tokens under its card before it */
    long placements;    /* Nation placements before the decision */
    int turn;           /* the turn in progress (1-based) at the decision */
} game_watch;

/* Count the answer D to the pending choice of G (sim_stats.h: PICK_*). */
static void record_choice(game_watch *gw, const foh_game *g, const foh_decision *d)
{
    const foh_choice *ch = foh_game_choice(g);
    game_result *r = gw->r;
    if (!ch || d->action.option < 0 || d->action.option >= ch->n)
        return;
    if (r->nchoices >= MAX_GAME_CHOICES) {
        r->choices_lost++;
        return;
    }
    const char *label = ch->label[d->action.option];
    int pick = PICK_OTHER, n = foh_game_players(g), who;
    if (label[0] == 'P' && sscanf(label + 1, "%d", &who) == 1 && who >= 1 && who <= n)
        pick = PICK_PLAYER + (who - 1 - ch->player + n) % n;
    for (int c = 0, ncards = foh_cardset_card_count(gw->w->cs); pick == PICK_OTHER && c < ncards; c++)
        if (!strcmp(gw->w->card_name[c], label))
            pick = c;
    int row = ch->card >= 0 && ch->card < FOH_MAX_CARDS ? ch->card : FOH_MAX_CARDS;
    if (pick == PICK_OTHER && r->ntext < MAX_GAME_TEXT) { /* a text option: kept by its label */
        r->text[r->ntext].row = (short)row;
        snprintf(r->text[r->ntext].label, sizeof r->text[0].label, "%s", label);
        r->ntext++;
    }
    r->choice[r->nchoices].row = (short)row;
    r->choice[r->nchoices].pick = (short)pick;
    r->choice[r->nchoices].options = (short)ch->n;
    r->nchoices++;
}

static foh_status watch_before(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    game_watch *gw = ud;
    game_result *r = gw->r;
    int ncards = foh_cardset_card_count(gw->w->cs);
    (void)err;
    if (!gw->started && !foh_game_choice(g)) {
        /* Starting cards: what each Nation holds before the first turn. */
        gw->started = 1;
        for (int c = 0; c < ncards; c++) {
            int owner;
            if (foh_game_card_zone(g, c, &owner) == FOH_ZONE_NATION && r->start_card[owner] < 0)
                r->start_card[owner] = c;
        }
    }
    const foh_action *a = &d->action;
    gw->turn = foh_game_turn(g) + 1;
    if (a->kind == FOH_ACT_CHOOSE)
        record_choice(gw, g, d);
    if (a->kind == FOH_ACT_ACTIVATE && a->card >= 0 && a->card < ncards)
        r->activations[a->card]++;
    if (a->kind != FOH_ACT_CHOOSE) {
        gw->root = *a;
        if (a->kind == FOH_ACT_COMPLETE)
            gw->root.card = foh_game_investment(g, d->player);
        gw->root_price = gw->root.card >= 0 ? foh_game_invested_tokens(g, gw->root.card) : 0;
        r->snipes += a->kind == FOH_ACT_SNIPE;
    }
    gw->placements = foh_game_placements(g);
    return FOH_OK;
}

static foh_status watch_after(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    game_watch *gw = ud;
    worker *w = gw->w;
    game_result *r = gw->r;
    (void)err;
    int who = d->player;
    w->think_s[who] += d->seconds;
    w->think_n[who] += d->timed;
    if (d->nlegal > 1 && d->timed) {
        w->choice_s[who] += d->seconds;
        w->choice_n[who]++;
        if (d->seconds > w->choice_max[who])
            w->choice_max[who] = d->seconds;
    }
    r->decisions++;
    /* The cards gained by the decision: placed in a Nation since (most
     * decisions place none). */
    if (foh_game_placements(g) == gw->placements)
        return FOH_OK;
    int placed[FOH_MAX_CARDS], n = foh_game_placed_since(g, gw->placements, placed, FOH_MAX_CARDS);
    for (int i = 0; i < n; i++) {
        int c = placed[i];
        int how = c == gw->root.card && gw->root.kind == FOH_ACT_COMPLETE ? GAIN_COMPLETE
                  : c == gw->root.card && gw->root.kind == FOH_ACT_SNIPE  ? GAIN_SNIPE
                                                                          : GAIN_EFFECT;
        r->gained_by[c] = how;
        r->gain_turn[c] = gw->turn;
        if (how != GAIN_EFFECT)
            r->price[c] = gw->root_price;
    }
    return FOH_OK;
}

/* Why game I (result R) stopped, for stderr: its number, seed and WHAT. */
static void game_error(worker *w, long i, const game_result *r, const char *what)
{
    snprintf(w->error, sizeof w->error, "game %ld (seed %llu): %s", i + 1, (unsigned long long)r->seed, what);
}

/* Play game I through the match loop and fill R. */
static int play_one(worker *w, foh_engine *eng, long i, game_result *r)
{
    const cli_options *o = w->o;
    const foh_cardset *cs = w->cs;
    int ncards = foh_cardset_card_count(cs);
    /* Only what is read: not the choices and text answers past the first
     * nchoices and ntext, the scores (foh_game_score fills them, and they
     * are read only then) nor the rows of cards past the card set's (sized
     * for the largest card set, these arrays are most of the result's size). */
    size_t choices_end = offsetof(game_result, choice) + sizeof r->choice;
    _Static_assert(offsetof(game_result, text) + sizeof(((game_result *)0)->text) == sizeof(game_result),
                   "the text answers are last: only the first ntext of them are read");
    memset(r, 0, offsetof(game_result, score));
    memset((char *)r + choices_end, 0, offsetof(game_result, text) - choices_end);
    r->seed = foh_seed_for(o->seed, (uint64_t)i);
    r->players = o->players;
    for (int c = 0; c < ncards; c++) {
        r->gained_by[c] = r->price[c] = r->owner[c] = r->gain_turn[c] = -1;
        r->fired_card[c] = 0;
        r->activations[c] = 0;
    }
    memset(r->fired, 0, sizeof r->fired);
    r->first = 0;
    r->nchoices = r->choices_lost = r->ntext = 0;
    for (int p = 0; p < FOH_MAX_PLAYERS; p++)
        r->start_card[p] = -1;
    foh_error err;
    foh_options opt = {.players = o->players, .seed = r->seed};
    foh_game *g = foh_game_new(eng, &opt, &err);
    if (!g) {
        game_error(w, i, r, err.msg);
        return 0;
    }
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    if (!cli_seats(o, r->seed, seats)) {
        foh_game_free(g);
        snprintf(w->error, sizeof w->error, "bad --seats");
        return 0;
    }
    game_watch gw = {.w = w, .r = r};
    tracer tr;
    foh_observer obs[4] = {{.before = watch_before, .after = watch_after, .ud = &gw}};
    int nobs = 1, ok = 1;
    impact_game *ig = NULL;
    if (w->impact || (w->hook && w->hook->impact)) {
        if ((ig = impact_game_new(cs, o->players)))
            obs[nobs++] = impact_observer(ig);
        else {
            foh_error_set(&err, FOH_ERR_MEMORY, "out of memory");
            ok = 0;
        }
    }
    fate_game *fg = NULL;
    if (ok && w->fate) {
        if ((fg = fate_game_new(cs)))
            obs[nobs++] = fate_observer(fg);
        else {
            foh_error_set(&err, FOH_ERR_MEMORY, "out of memory");
            ok = 0;
        }
    }
    if (ok && w->trace) {
        ok = trace_start(&tr, w->trace, i, r->seed, g, &err) == FOH_OK;
        obs[nobs++] = trace_observer(&tr);
    }
    if (ok)
        ok = foh_match_play(g, seats, obs, nobs, NULL, &err) == FOH_OK;
    if (!ok)
        game_error(w, i, r, err.msg);
    if (ok) {
        r->turns = foh_game_turn(g);
        r->stalled = foh_game_is_stalled(g);
        r->first = foh_game_first_player(g);
        r->substituted = foh_game_substituted(g);
        for (int c = 0; c < ncards; c++) {
            int owner;
            if (foh_game_card_zone(g, c, &owner) == FOH_ZONE_NATION)
                r->owner[c] = owner;
            if (foh_game_effect_fired(g, c)) {
                r->fired[w->timing_index[c]]++;
                r->fired_card[c] = 1;
            }
        }
        if (foh_game_score(g, r->score, NULL, &err) != FOH_OK) {
            game_error(w, i, r, err.msg);
            ok = 0;
        }
    }
    if (ok && ig && w->impact)
        impact_game_finish(ig, g, r->score, w->impact);
    if (ok && fg)
        fate_game_finish(fg, g, r->score, w->fate);
    fate_game_free(fg);
    if (ok && w->hook) {
        char why[300] = "";
        if (!w->hook->fn(w->hook->ud, i, r, ig, why, sizeof why)) {
            game_error(w, i, r, why[0] ? why : "the game could not be kept");
            ok = 0;
        }
    }
    impact_game_free(ig);
    cli_free_seats(seats, o->players);
    foh_game_free(g);
    return ok;
}

/* Lower *STOP_AT to I unless it is lower already. */
static void stop_before(atomic_long *stop_at, long i)
{
    long was = atomic_load(stop_at);
    while (i < was && !atomic_compare_exchange_weak(stop_at, &was, i))
        ;
}

static void *work(void *arg)
{
    worker *w = arg;
    foh_error err;
    foh_engine *eng = foh_engine_new_limited(w->cs, &w->o->limits, &err);
    if (!eng) {
        snprintf(w->error, sizeof w->error, "%s", err.msg);
        w->status = CLI_DATA;
        w->failed = -1;
        stop_before(w->stop_at, -1);
        atomic_fetch_add(w->exited, 1);
        return NULL;
    }
    for (int c = 0; c < foh_cardset_card_count(w->cs); c++) {
        foh_card_info ci;
        foh_cardset_card(w->cs, c, &ci);
        w->timing_index[c] = sim_timing_index(w->cs, ci.timing);
        w->card_name[c] = ci.name;
    }
    game_result r;
    for (long i = w->from; i < w->to && i < atomic_load(w->stop_at); i++) {
        if (!play_one(w, eng, i, &r)) {
            if (!w->o->skip_errors) {
                w->status = CLI_DATA;
                w->failed = i;
                stop_before(w->stop_at, i);
                break;
            }
            /* Left out of the report; each skipped game and its error on stderr. */
            w->stats->skipped++;
            pthread_mutex_lock(w->print);
            cli_error("sim", "skipped %s", w->error);
            pthread_mutex_unlock(w->print);
            atomic_fetch_add(w->done, 1);
            continue;
        }
        sim_stats_add(w->stats, w->cs, &r);
        for (int k = 0; w->labels && k < r.ntext; k++)
            sim_labels_add(w->labels, r.text[k].row, r.text[k].label, 1);
        if (w->outcomes) {
            sim_outcome *out = &w->outcomes[i - w->outcome_from];
            *out = (sim_outcome){.played = 1, .turns = r.turns, .stalled = r.stalled};
            for (int p = 0; p < r.players; p++) {
                out->score_sum += r.score[p].total;
                if (r.score[p].winner) {
                    out->winners++;
                    out->winner_sum += r.score[p].total;
                }
            }
        }
        if (w->csv) {
            fprintf(w->csv, "%ld,", i);
            sim_csv_row(w->csv, &r, w->cs, w->o->seats);
        }
        atomic_fetch_add(w->done, 1);
    }
    foh_engine_free(eng);
    atomic_fetch_add(w->exited, 1);
    return NULL;
}

int sim_play_range(const cli_options *o, const foh_cardset *cs, long from, long to, sim_stats *total,
                   const sim_game_hook *hook, char *err, size_t len)
{
    /* One worker, run in this thread (foh tune runs many such ranges at once). */
    worker *w = calloc(1, sizeof *w);
    atomic_long done = 0, stop_at = LONG_MAX;
    atomic_int exited = 0;
    pthread_mutex_t print = PTHREAD_MUTEX_INITIALIZER;
    if (!w) {
        snprintf(err, len, "out of memory");
        return CLI_DATA;
    }
    w->o = o;
    w->cs = cs;
    w->from = from;
    w->to = to;
    w->hook = hook;
    w->done = &done;
    w->stop_at = &stop_at;
    w->exited = &exited;
    w->print = &print;
    w->stats = total; /* added straight into (sim_stats has room for 1,024 cards: no copy of it) */
    work(w);
    int status = w->status;
    if (status != CLI_OK)
        snprintf(err, len, "%s", w->error);
    free(w);
    return status;
}

int sim_players_allowed(const char *command, const foh_cardset *cs, int players)
{
    if (foh_cardset_allows_players(cs, players, NULL))
        return 1;
    char counts[64];
    const char *note = foh_cardset_players_hint(cs, players, counts, sizeof counts);
    int hint = note[0] != '\0';
    cli_error(command, "%d players are not allowed: this card set is played with %s players%s%s", players,
              counts[0] ? counts : "no number of", hint ? ". " : "", hint ? note : "");
    return 0;
}

/* The report's first line; foh merge prints the same for merged shards. */
void sim_print_header(FILE *out, long games, const cli_options *o, const foh_cardset *cs)
{
    /* The seats and folders come from a shard with foh merge: escaped. */
    fprintf(out, "%ld games, %d players, seed %llu, players ", games, o->players, (unsigned long long)o->seed);
    cli_puts(out, o->seats);
    fprintf(out, ", ");
    origin_print_cards(out, o);
    for (int i = 0; i < foh_cardset_variant_count(cs); i++) {
        fprintf(out, "%s", i ? ", " : ", variants: ");
        cli_puts(out, foh_cardset_variant_name(cs, i));
    }
    fprintf(out, "\n");
    provenance_print(out, o, cs);
    sim_print_variants(out, cs);
}

/* Play this shard's games of O on CS with O->threads workers, adding them
 * into TOTAL; writes the CSV file if asked. Returns a CLI status. */
/* Join the workers' temporary files (the CSV rows, or with TRACE the
 * trace lines), in game order, into PATH. */
static int join_files(const char *path, worker *w, int nthreads, int trace, int players)
{
    FILE *out = cli_create(path);
    if (!out) {
        cli_error("sim", "cannot write %s: %s", path, strerror(errno));
        return 0;
    }
    if (!trace)
        sim_csv_header(out, players);
    for (int t = 0; t < nthreads; t++) {
        FILE *in = trace ? w[t].trace : w[t].csv;
        char buf[8192];
        size_t k;
        rewind(in);
        while ((k = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, k, out);
    }
    if (fclose(out) != 0) {
        cli_error("sim", "cannot write %s", path);
        return 0;
    }
    return 1;
}

/* The workers' decision times per seat, on stderr: they vary by machine
 * and must not change the report. */
static void print_timing(const cli_options *o, const worker *w, int nthreads, double start)
{
    /* Timing goes to stderr: it varies by machine and must not change the report. */
    fprintf(stderr, "decision time per seat (wall clock, %d thread%s): mean of all decisions / mean of those "
                    "with a choice / longest\n", nthreads, nthreads == 1 ? "" : "s");
    for (int p = 0; p < o->players; p++) {
        double t = 0, tc = 0, mx = 0;
        long n = 0, nc = 0;
        for (int k = 0; k < nthreads; k++) {
            t += w[k].think_s[p];
            n += w[k].think_n[p];
            tc += w[k].choice_s[p];
            nc += w[k].choice_n[p];
            mx = w[k].choice_max[p] > mx ? w[k].choice_max[p] : mx;
        }
        if (n == 0)
            fprintf(stderr, "  P%d not timed (a bot that decides in under a microsecond)\n", p + 1);
        else
            fprintf(stderr, "  P%d %.2f / %.2f / %.1f ms\n", p + 1, 1e3 * t / n, nc ? 1e3 * tc / nc : 0.0,
                    1e3 * mx);
    }
    fprintf(stderr, "%.1f s in all\n", cli_now_s() - start);
}

int sim_run(const cli_options *o, const foh_cardset *cs, sim_stats *total)
{
    return sim_run_impact(o, cs, total, NULL);
}

int sim_run_impact(const cli_options *o, const foh_cardset *cs, sim_stats *total, impact_stats *impact)
{
    return sim_run_outcomes(o, cs, total, impact, NULL);
}

int sim_run_outcomes(const cli_options *o, const foh_cardset *cs, sim_stats *total, impact_stats *impact,
                     sim_outcome *outcomes)
{
    return sim_run_labels(o, cs, total, NULL, impact, outcomes);
}

int sim_run_labels(const cli_options *o, const foh_cardset *cs, sim_stats *total, sim_labels *labels,
                   impact_stats *impact, sim_outcome *outcomes)
{
    return sim_run_fate(o, cs, total, labels, impact, outcomes, NULL);
}

int sim_run_fate(const cli_options *o, const foh_cardset *cs, sim_stats *total, sim_labels *labels,
                 impact_stats *impact, sim_outcome *outcomes, fate_stats *fate)
{
    int nthreads = o->threads;
    /* This shard's games: [first, last) of 0..G-1. */
    long first = o->games * (o->shard - 1) / o->shards, last = o->games * o->shard / o->shards;
    worker *w = calloc((size_t)nthreads, sizeof *w);
    pthread_t *tid = calloc((size_t)nthreads, sizeof *tid);
    atomic_long done = 0, stop_at = LONG_MAX;
    atomic_int exited = 0;
    pthread_mutex_t print = PTHREAD_MUTEX_INITIALIZER;
    if (!w || !tid) {
        cli_error("sim", "out of memory");
        free(w);
        free(tid);
        return CLI_DATA;
    }
    int status = CLI_OK;
    if (outcomes)
        memset(outcomes, 0, (size_t)(last - first) * sizeof *outcomes);
    for (int t = 0; status == CLI_OK && t < nthreads; t++) {
        w[t].o = o;
        w[t].cs = cs;
        w[t].from = first + (last - first) * t / nthreads;
        w[t].to = first + (last - first) * (t + 1) / nthreads;
        w[t].done = &done;
        w[t].stop_at = &stop_at;
        w[t].exited = &exited;
        w[t].print = &print;
        w[t].outcomes = outcomes;
        w[t].outcome_from = first;
        /* One thread adds into TOTAL; several, each into its own sums. */
        w[t].own_stats = nthreads > 1;
        w[t].stats = nthreads > 1 ? calloc(1, sizeof *w[t].stats) : total;
        if (!w[t].stats) {
            cli_error("sim", "out of memory");
            status = CLI_DATA;
            stop_before(&stop_at, -1);
            nthreads = t;
            break;
        }
        if ((labels && !(w[t].labels = calloc(1, sizeof *w[t].labels))) ||
            (impact && !(w[t].impact = calloc(1, sizeof *w[t].impact))) ||
            (fate && !(w[t].fate = fate_stats_new(foh_cardset_card_count(cs))))) {
            cli_error("sim", "out of memory");
            status = CLI_DATA;
            stop_before(&stop_at, -1);
            if (w[t].own_stats)
                free(w[t].stats);
            free(w[t].labels);
            w[t].labels = NULL;
            free(w[t].impact);
            fate_stats_free(w[t].fate);
            nthreads = t;
            break;
        }
        /* Each worker writes its games' rows and trace lines to its own
         * file; they are joined in game order at the end. */
        w[t].csv = o->games_csv ? tmpfile() : NULL;
        w[t].trace = o->trace ? tmpfile() : NULL;
        if ((o->games_csv && !w[t].csv) || (o->trace && !w[t].trace) ||
            pthread_create(&tid[t], NULL, work, &w[t]) != 0) {
            cli_error("sim", "cannot start a thread with its temporary files");
            status = CLI_DATA;
            stop_before(&stop_at, -1); /* the workers already started stop at their next game */
            if (w[t].csv)
                fclose(w[t].csv);
            if (w[t].trace)
                fclose(w[t].trace);
            free(w[t].impact);
            fate_stats_free(w[t].fate);
            if (w[t].labels)
                sim_labels_free(w[t].labels);
            free(w[t].labels);
            if (w[t].own_stats)
                free(w[t].stats);
            nthreads = t;
        }
    }
    double start = cli_now_s();
    int tty = isatty(2);
    /* Until every worker has returned (one may stop early on an error). */
    cli_workers ws = {.exited = &exited, .threads = nthreads, .done = &done, .total = last - first, .start = start,
                      .show_rate = 1};
    if (status == CLI_OK)
        cli_wait_threads(&ws, tty);
    /* Of the failing workers, the one whose failure comes first (the
     * lowest game, or no engine): what one thread would have reported. */
    const worker *first_failed = NULL;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(tid[t], NULL);
        if (w[t].status != CLI_OK && (!first_failed || w[t].failed < first_failed->failed))
            first_failed = &w[t];
        if (w[t].own_stats)
            sim_stats_merge(total, w[t].stats, foh_cardset_card_count(cs));
        if (labels && w[t].labels)
            sim_labels_merge(labels, w[t].labels);
        if (impact)
            impact_merge(impact, w[t].impact);
        if (fate)
            fate_merge(fate, w[t].fate);
    }
    if (first_failed) {
        cli_error("sim", "%s", first_failed->error);
        if (first_failed->failed >= 0 && !o->nwithout) {
            char again[4096];
            cli_play_command(o, foh_seed_for(o->seed, (uint64_t)first_failed->failed), again, sizeof again);
            cli_error("sim", "game %ld again, alone: %s", first_failed->failed + 1, again);
        }
        status = first_failed->status;
    }
    if (tty && status == CLI_OK)
        cli_progress(last - first, last - first, cli_now_s() - start, 1, 1);
    if (status == CLI_OK && !o->quiet_timing)
        print_timing(o, w, nthreads, start);
    if (status == CLI_OK && o->games_csv && !join_files(o->games_csv, w, nthreads, 0, o->players))
        status = CLI_DATA;
    if (status == CLI_OK && o->trace && !join_files(o->trace, w, nthreads, 1, o->players))
        status = CLI_DATA;
    for (int t = 0; t < nthreads; t++) {
        free(w[t].impact);
        fate_stats_free(w[t].fate);
        if (w[t].labels)
            sim_labels_free(w[t].labels);
        free(w[t].labels);
        if (w[t].own_stats)
            free(w[t].stats);
        if (w[t].csv)
            fclose(w[t].csv);
        if (w[t].trace)
            fclose(w[t].trace);
    }
    free(w);
    free(tid);
    return status;
}

/* Write the raw sums of the run O to --save-shard's file (with --impact's
 * IMPACT, or NULL), with where its card set CS comes from and the hashes of
 * its sources; 0 after saying why not. */
static int save_shard(const cli_options *o, const foh_cardset *cs, const sim_stats *total, const sim_labels *labels,
                      const impact_stats *impact)
{
    origin *og = malloc(sizeof *og);
    char why[ORIGIN_PATH + 64];
    sim_shard_layout layout = sim_shard_layout_of(foh_cardset_card_count(cs), o->players);
    json_t *isums = impact ? impact_stats_to_json(impact, layout.cards, o->players) : NULL;
    int ok = og && origin_of(o, og, why, sizeof why) && (isums || !impact);
    if (!ok) {
        cli_error("sim", "%s: %s", o->save_shard, og && (isums || !impact) ? why : "out of memory");
        json_decref(isums);
    } else if (!(ok = sim_stats_save_shard(o->save_shard, total, labels, og, cs, o->players, o->seats, o->seed, o->games,
                                           o->shard, o->shards, isums, provenance_json(o, cs))))
        cli_error("sim", "cannot write %s: %s", o->save_shard, strerror(errno));
    free(og);
    return ok;
}

int cmd_sim(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&SIM, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&SIM, stdout);
        return st;
    }
    for (int k = OPT_LADDER_FROM; !o.skill_ladder && k <= OPT_LADDER_RUNGS; k++)
        if (o.given >> k & 1) {
            cli_error("sim", "--%s needs --skill-ladder (without it the option would be ignored)",
                      k == OPT_LADDER_FROM ? "ladder-from" : "ladder-rungs");
            return CLI_USAGE;
        }
    if (o.skill_ladder) /* another ruleset's card set: its bots ranked through the interface alone */
        return any_ruleset(&o) ? any_ladder(&o) : ladder_main(&o);
    if (any_ruleset(&o)) /* another ruleset's card set: through the interface alone */
        return any_sim(&o);
    foh_cardset *cs;
    foh_engine *eng;
    if (!cli_load(&o, &cs, &eng))
        return CLI_DATA;
    foh_engine_free(eng); /* each worker makes its own */
    /* The temporary variant of --without is not in shard files; --ablation
     * prints its own table. */
    const char *refused = o.save_shard && o.nwithout    ? "--without with --save-shard (foh merge could not load it)"
                          : o.save_shard && o.fate      ? "--fate with --save-shard (shards do not keep its sums)"
                          : o.ablation && (o.impact || o.fate) ? "--ablation with --impact or --fate (run them apart)"
                          : o.ablation && (o.save_shard || o.json || o.html || o.games_csv || o.trace)
                              ? "--ablation with --save-shard, --json, --html, --games-csv or --trace"
                              : NULL;
    if (refused) {
        cli_error("sim", "%s is not supported", refused);
        foh_cardset_free(cs);
        return CLI_USAGE;
    }
    if (o.nwithout) {
        int why;
        foh_cardset *without = sim_load_without(&o, cs, &why);
        foh_cardset_free(cs);
        if (!without)
            return why;
        cs = without;
    }
    if (!sim_players_allowed("sim", cs, o.players)) {
        foh_cardset_free(cs);
        return CLI_USAGE;
    }
    foh_player *probe[FOH_MAX_PLAYERS];
    if (!cli_seats(&o, 0, probe)) {
        foh_cardset_free(cs);
        return CLI_USAGE;
    }
    cli_free_seats(probe, o.players);
    /* Every output is written at the end: find out now, not after hours of
     * games, that one cannot be. */
    const char *outputs[] = {o.games_csv, o.trace, o.save_shard, o.json, o.html};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++)
        if (outputs[i] && !cli_can_write(outputs[i])) {
            cli_error("sim", "cannot write %s: %s", outputs[i], strerror(errno));
            foh_cardset_free(cs);
            return CLI_DATA;
        }

    if (o.ablation) {
        st = sim_ablation(&o, cs);
        foh_cardset_free(cs);
        return st;
    }
    sim_stats *total = calloc(1, sizeof *total);
    impact_stats *impact = o.impact ? calloc(1, sizeof *impact) : NULL;
    sim_labels labels = {0};
    fate_stats *fate = o.fate ? fate_stats_new(foh_cardset_card_count(cs)) : NULL;
    int status = total && (impact || !o.impact) && (fate || !o.fate)
                     ? sim_run_fate(&o, cs, total, &labels, impact, NULL, fate)
                     : CLI_DATA;
    if (status == CLI_OK && total) {
        sim_print_header(stdout, total->games, &o, cs);
        sim_stats_print(stdout, total, &labels, cs, o.players, o.seats);
        if (impact)
            impact_print(stdout, impact, cs);
        if (fate)
            fate_print(stdout, fate, cs);
        if (o.save_shard && !save_shard(&o, cs, total, &labels, impact))
            status = CLI_DATA;
        json_t *extra = o.json || o.html ? json_pack("{s:o*}", "provenance", provenance_json(&o, cs)) : NULL;
        if (extra && impact)
            json_object_set_new(extra, "impact", impact_json(impact, cs));
        if (extra && fate)
            json_object_set_new(extra, "fate", fate_json(fate, cs));
        if (!sim_stats_write_reports("sim", o.json, o.html, total, &labels, cs, o.players, o.seats, o.seed, extra))
            status = CLI_DATA;
    }
    sim_labels_free(&labels);
    free(total);
    free(impact);
    fate_stats_free(fate);
    foh_cardset_free(cs);
    return status;
}

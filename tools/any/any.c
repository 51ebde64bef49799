/* any: foh sim and check for a card set of any ruleset, through the
 * ruleset interface alone (foh/ruleset.h), and what the any_* commands
 * share: the players' seats, the log, the scores and the result. foh play
 * and replay are any_play.c (the save file any_save.c, a human seat
 * any_human.c, --trace any_trace.c), foh scenario any_scenario.c. The
 * commands' richer views (the board, the scenario fields of
 * docs/scenarios.md) are still the default ruleset's; a card set of
 * another ruleset gets these instead, and an option they do not support is
 * refused by name. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "any/any.h"
#include "any/any_report.h"
#include "common/cli.h"
#include "foh/bot.h"
#include "foh/match.h"
#include "foh/position.h"
#include "foh/ruleset.h"
#include "foh/yaml.h"
#include "sim/sim_stats.h"

int any_ruleset(const cli_options *o)
{
    cli_sources src;
    cli_sources_of(o, &src);
    const foh_ruleset *rs;
    foh_error err;
    if (src.nsets < 1 || foh_ruleset_of_dir(src.sets[0], &rs, &err) != FOH_OK)
        return 0; /* the usual path reports it */
    return rs != foh_ruleset_at(0);
}

/* The options every generic command takes; the others are refused by name
 * unless the command's ALLOWED has them (nothing given is ignored). */
static const uint64_t GENERIC = (uint64_t)1 << OPT_PLAYERS | (uint64_t)1 << OPT_SEED | (uint64_t)1 << OPT_SEATS |
                                (uint64_t)1 << OPT_CARDS | (uint64_t)1 << OPT_MODS | (uint64_t)1 << OPT_VARIANT |
                                (uint64_t)1 << OPT_LUA_INSTRUCTIONS | (uint64_t)1 << OPT_LUA_MEMORY |
                                (uint64_t)1 << OPT_ACTION_TIME | (uint64_t)1 << OPT_LUA_ONLY | (uint64_t)1 << OPT_HELP;

int any_only(const cli_options *o, const char *cmd, uint64_t allowed)
{
    for (int id = 0; id < OPT_COUNT; id++)
        if ((o->given >> id & 1) && !((GENERIC | allowed) >> id & 1)) {
            cli_error(cmd, "--%s: only for card sets of %s, for now (this card set's ruleset is played through the "
                           "ruleset interface alone: docs/ruleset.md)",
                      cli_option_name((cli_option_id)id), foh_ruleset_at(0)->title);
            return 0;
        }
    return 1;
}

foh_cardset *any_load(const cli_options *o, foh_error *err)
{
    cli_sources src;
    cli_sources_of(o, &src);
    return foh_cardset_load_sets(src.sets, src.nsets, src.variants, src.nvariants, src.search, src.nsearch, err);
}

void any_seat_spec(const char *seats, int p, char *out, size_t len)
{
    const char *s = seats ? seats : "random";
    for (int k = 0; strchr(s, ',') && k < p; k++)
        s = strchr(s, ',') + 1;
    snprintf(out, len, "%.*s", (int)strcspn(s, ","), s);
}

int any_seats(const cli_options *o, const char *cmd, int players, uint64_t seed, any_input *in, foh_player **seats)
{
    const char *spec = o->seats ? o->seats : "random";
    int specs = 1;
    for (const char *c = spec; *c; c++)
        specs += *c == ',';
    if (specs != 1 && specs != players) {
        cli_error(cmd, "--seats names %d players for a %d-player game", specs, players);
        return 0;
    }
    for (int p = 0; p < players; p++) {
        char one[128];
        any_seat_spec(spec, p, one, sizeof one);
        foh_error err;
        int human = strcmp(one, "human") == 0;
        seats[p] = !human ? foh_bot_from_spec(one, foh_seed_for(seed, 1000u + (unsigned)p), &err)
                   : in   ? any_human_new(in)
                          : NULL;
        if (!seats[p] && human && !in)
            cli_error(cmd, "seat P%d: a human seat plays with foh play", p + 1);
        else if (!seats[p])
            cli_error(cmd, "seat P%d: %s", p + 1, human ? "out of memory" : err.msg);
        if (!seats[p]) {
            while (p-- > 0)
                seats[p]->free(seats[p]);
            return 0;
        }
    }
    return 1;
}

void any_free_seats(foh_player **seats, int n)
{
    for (int p = 0; p < n; p++)
        if (seats[p])
            seats[p]->free(seats[p]);
}

int any_bot_seats(const cli_options *o, const char *cmd, int players, uint64_t seed, foh_player **seats)
{
    return any_seats(o, cmd, players, seed, NULL, seats);
}

void any_log_line(void *ud, const char *line)
{
    (void)ud;
    cli_line(stdout, line); /* scripts' text is untrusted: escaped */
}

/* Each player's score broken down: "P1: 3 Victory Tokens, 35 points". 0
 * with the problem said when scoring fails. */
int any_print_scores(foh_game *g, int players)
{
    foh_score_line lines[16];
    foh_error err;
    for (int p = 0; p < players; p++) {
        int n = foh_game_score_lines(g, p, lines, 16, &err);
        if (n < 0) {
            cli_error("play", "%s", err.msg);
            return 0;
        }
        printf("P%d:", p + 1);
        for (int i = 0; i < n; i++)
            printf("%s %g %s", i ? "," : "", lines[i].value, lines[i].label);
        printf("\n");
    }
    return 1;
}

/* "P1 wins" / "P1 and P3 share the win", from the results. */
void any_print_results(const double *r, int n)
{
    int winners = 0;
    for (int p = 0; p < n; p++)
        winners += r[p] > 0;
    printf("Result:");
    for (int p = 0, k = 0; p < n; p++)
        if (r[p] > 0)
            printf("%s P%d", k++ ? (k == winners ? " and" : ",") : "", p + 1);
    printf(winners == 1 ? " wins\n" : " share the win\n");
}

int any_sim(const cli_options *o)
{
    if (!any_only(o, "sim", (uint64_t)1 << OPT_JSON | (uint64_t)1 << OPT_HTML | (uint64_t)1 << OPT_GAMES))
        return CLI_USAGE;
    foh_error err;
    foh_cardset *cs = any_load(o, &err);
    if (!cs) {
        cli_error(NULL, "%s", err.msg);
        return CLI_DATA;
    }
    const foh_ruleset *rs = foh_cardset_ruleset(cs);
    foh_engine *eng = foh_engine_new_limited(cs, &o->limits, &err);
    long games = o->games > 0 ? o->games : 1000, turns_sum = 0, turns_min = 0, turns_max = 0, played = 0;
    double wins[FOH_MAX_PLAYERS] = {0}, score[FOH_MAX_PLAYERS] = {0};
    char score_label[FOH_SCORE_LABEL] = "";
    int status = eng ? CLI_OK : CLI_DATA;
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    any_report *rep = eng ? any_report_new(cs, o->players) : NULL;
    if (!eng)
        cli_error("sim", "%s", err.msg);
    else if (!rep) {
        cli_error("sim", "out of memory");
        status = CLI_DATA;
    }
    for (long i = 0; status == CLI_OK && i < games; i++) {
        uint64_t seed = foh_seed_for(o->seed, (uint64_t)i);
        foh_options opt = {.players = o->players, .seed = seed};
        foh_game *g = foh_game_new(eng, &opt, &err);
        if (!g || !any_seats(o, "sim", o->players, seed, NULL, seats)) {
            if (!g)
                cli_error("sim", "%s", err.msg);
            status = g ? CLI_USAGE : err.code == FOH_ERR_USAGE ? CLI_USAGE : CLI_DATA;
            foh_game_free(g);
            break;
        }
        double r[FOH_MAX_PLAYERS];
        foh_observer watch = any_report_observer(rep);
        foh_status s = foh_match_play(g, seats, &watch, 1, NULL, &err);
        if (s == FOH_OK)
            s = foh_game_results(g, r, &err);
        if (s == FOH_OK)
            s = any_report_game(rep, g, r, &err);
        if (s != FOH_OK) {
            cli_sources where;
            cli_sources_of(o, &where);
            cli_error("sim", "game %ld (foh play --cards %s --players %d --seats %s --seed %llu): %s", i + 1,
                      where.sets[0], o->players, o->seats ? o->seats : "random", (unsigned long long)seed, err.msg);
            status = CLI_DATA;
        } else {
            for (int p = 0; p < o->players && s == FOH_OK; p++) {
                foh_score_line first;
                if (foh_game_score_lines(g, p, &first, 1, &err) < 1) {
                    cli_error("sim", "game %ld: %s", i + 1, err.msg);
                    status = CLI_DATA;
                    break;
                }
                wins[p] += r[p];
                score[p] += first.value;
                snprintf(score_label, sizeof score_label, "%s", first.label);
            }
            long t = foh_game_turn(g);
            turns_sum += t;
            turns_min = played == 0 || t < turns_min ? t : turns_min;
            turns_max = played == 0 || t > turns_max ? t : turns_max;
            played++;
        }
        any_free_seats(seats, o->players);
        foh_game_free(g);
    }
    if (status == CLI_OK) {
        printf("%s: %ld games, %d players, seed %llu, seats %s (one thread)\n", rs->title, played, o->players,
               (unsigned long long)o->seed, o->seats ? o->seats : "random");
        printf("seat  wins       win rate  95%% interval      mean %s\n", score_label);
        json_t *seats_json = json_array();
        for (int p = 0; p < o->players; p++) {
            double lo, hi;
            sim_wilson(wins[p] / (double)played, (double)played, &lo, &hi);
            printf("P%-4d %-10.1f %5.1f%%    [%5.1f%%, %5.1f%%]  %.2f\n", p + 1, wins[p],
                   100 * wins[p] / (double)played, 100 * lo, 100 * hi, score[p] / (double)played);
            json_array_append_new(seats_json, json_pack("{s:i, s:f, s:f, s:f, s:s, s:f}", "seat", p + 1, "wins", wins[p],
                                                        "low", lo, "high", hi, "score", score_label, "mean_score",
                                                        score[p] / (double)played));
        }
        printf("turns per game: mean %.1f (min %ld, max %ld)\n", (double)turns_sum / (double)played, turns_min,
               turns_max);
        any_report_print(rep, stdout);
        cli_sources src;
        cli_sources_of(o, &src);
        json_t *report = json_pack("{s:s, s:s, s:s, s:I, s:i, s:I, s:s, s:o, s:{s:f, s:I, s:I}, s:o}", "ruleset",
                                   rs->name, "title", rs->title, "cards", src.nsets > 0 ? src.sets[0] : "", "games",
                                   (json_int_t)played, "players", o->players, "seed", (json_int_t)o->seed, "seats",
                                   o->seats ? o->seats : "random", "seat_wins", seats_json, "turns", "mean",
                                   (double)turns_sum / (double)played, "min", (json_int_t)turns_min, "max",
                                   (json_int_t)turns_max, "report", any_report_json(rep));
        if (report && src.nvariants > 0) {
            json_t *variants = json_array();
            for (int v = 0; v < src.nvariants; v++)
                json_array_append_new(variants, json_string(src.variants[v]));
            json_object_set_new(report, "variants", variants);
        }
        if (o->json && (!report || !cli_write_json(report, o->json, JSON_INDENT(2)))) {
            cli_error("sim", "%s: cannot write the report", o->json);
            status = CLI_DATA;
        }
        if (o->html && (!report || !any_report_html(report, o->html))) {
            cli_error("sim", "%s: cannot write the report", o->html);
            status = CLI_DATA;
        }
        json_decref(report);
    }
    any_report_free(rep);
    foh_engine_free(eng);
    foh_cardset_free(cs);
    if (fflush(stdout) != 0 && status == CLI_OK)
        status = CLI_DATA;
    return status;
}

/* ---- foh check ---- */

static void told(void *ctx, int warning, const foh_error *problem)
{
    int *errors = ctx;
    *errors += !warning;
    fprintf(stderr, "%s: ", warning ? "warning" : "error");
    cli_line(stderr, problem->msg);
}

/* One random-bot game of SEED: its steps and final digest. *REFUSED is
 * set when the card set does not allow PLAYERS (nothing was played). */
static foh_status play_once(foh_engine *eng, int players, uint64_t seed, long *steps, uint64_t *digest,
                            int *refused, foh_error *err)
{
    foh_options opt = {.players = players, .seed = seed};
    foh_game *g = foh_game_new(eng, &opt, err);
    *refused = !g && err->code == FOH_ERR_USAGE;
    if (!g)
        return err->code;
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    foh_status s = FOH_OK;
    for (int p = 0; p < players; p++)
        if (!(seats[p] = foh_bot_random_new(foh_seed_for(seed, (uint64_t)p))))
            s = foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
    if (s == FOH_OK)
        s = foh_match_play(g, seats, NULL, 0, steps, err);
    *digest = foh_game_digest(g);
    any_free_seats(seats, players);
    foh_game_free(g);
    return s;
}

int any_check(const cli_options *o)
{
    if (!any_only(o, "check", (uint64_t)1 << OPT_GAMES | (uint64_t)1 << OPT_SCENARIOS))
        return CLI_USAGE;
    cli_sources src;
    cli_sources_of(o, &src);
    int errors = 0, played = 0, warnings = 0, scenarios = 0;
    foh_error err;
    foh_cardset *cs = foh_cardset_check(src.sets, src.nsets, src.variants, src.nvariants, src.search, src.nsearch,
                                        told, &errors, &err);
    if (!cs && errors == 0) {
        errors++;
        fprintf(stderr, "error: ");
        cli_line(stderr, err.msg);
    }
    foh_engine *eng = cs ? foh_engine_new_limited(cs, &o->limits, &err) : NULL;
    long games = o->given >> OPT_GAMES & 1 ? o->games : 12;
    const foh_ruleset *rs = cs ? foh_cardset_ruleset(cs) : NULL;
    for (long i = 0; eng && i < games; i++) {
        int players = 2 + (int)(i % (rs->max_players > 2 ? rs->max_players - 1 : 1));
        uint64_t seed = foh_seed_for(o->seed, (uint64_t)i), d1 = 0, d2 = 0;
        long s1 = 0, s2 = 0;
        int refused = 0;
        foh_status a = play_once(eng, players, seed, &s1, &d1, &refused, &err);
        if (refused)
            continue; /* a player count the card set does not allow */
        foh_status b = a == FOH_OK ? play_once(eng, players, seed, &s2, &d2, &refused, &err) : a;
        played++;
        if (a != FOH_OK || b != FOH_OK) {
            errors++;
            fprintf(stderr, "error: game %ld (%d players, seed %llu): ", i + 1, players, (unsigned long long)seed);
            cli_line(stderr, err.msg);
        } else if (s1 != s2 || d1 != d2) {
            errors++;
            fprintf(stderr, "error: game %ld (%d players, seed %llu) plays differently twice (%ld and %ld decisions): "
                            "the ruleset is not deterministic\n",
                    i + 1, players, (unsigned long long)seed, s1, s2);
        }
    }
    if (eng && played == 0 && games > 0) {
        errors++;
        fprintf(stderr, "error: no game could be set up: the card set allows no player count from 2 to %d\n",
                rs->max_players);
    }
    if (cs && !eng) {
        errors++;
        fprintf(stderr, "error: ");
        cli_line(stderr, err.msg);
    }
    if (eng && o->nscenarios)
        errors += any_check_scenarios(eng, cs, o->scenarios, o->nscenarios, &scenarios, &warnings);
    int own = cs && src.nvariants == 0 ? cli_check_own_variants(&src, told, &errors) : 0;
    if (own)
        printf("the card set's own variants (variants/): %d checked\n", own);
    printf("foh check: %d error%s, %d warning%s (%s: %d random-bot games played, each twice; %d scenarios run)\n",
           errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s",
           rs ? rs->name : "the card set does not load", played, scenarios);
    foh_engine_free(eng);
    foh_cardset_free(cs);
    return errors ? CLI_DATA : CLI_OK;
}

/* foh sim --skill-ladder for card sets of any ruleset (any_compare.h): the
 * bots of --seats, pair by pair. Each pair (X, Y) plays the same G deals
 * (deal d: seed foh_seed_for(S, d), for every pair); on each deal X sits
 * alone among copies of Y once in every seat, then (beyond 2 players) Y
 * alone among copies of X. A bot alone among N - 1 copies of another wins
 * a fair share of 1/N of the games when the two are as strong; X's win
 * rate alone among Y's, with its Wilson 95% interval, says whether X is
 * the stronger. With 2 players the two directions are the same games. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "any/any.h"
#include "any/any_compare.h"
#include "any/any_games.h"
#include "common/cli.h"
#include "foh/match.h"
#include "foh/ruleset.h"
#include "sim/sim_stats.h"

#define MAX_BOTS 8
#define DEFAULT_DEALS 50

/* X alone among copies of Y. */
typedef struct {
    long games;
    double wins, rate, lo, hi, turns; /* turns: mean per game */
} cell;

typedef struct {
    char bot[MAX_BOTS][64];
    int nbots, players;
    int pair_a[MAX_BOTS * MAX_BOTS], pair_b[MAX_BOTS * MAX_BOTS], npairs;
    long deals, plays; /* plays of a deal for each pair */
    uint64_t seed;
    cell m[MAX_BOTS][MAX_BOTS];
    double score[MAX_BOTS]; /* mean over the others of m[x][y].rate - 1/N */
    int order[MAX_BOTS];    /* the ranking: bots by score, best first */
} ladder;

/* Job J: pair, deal, then play: the play's first N: the pair's first bot
 * alone in seat 0..N-1; then its second bot alone. */
static void job_parts(const ladder *l, long j, int *pair, long *deal, int *play)
{
    *play = (int)(j % l->plays);
    *deal = j / l->plays % l->deals;
    *pair = (int)(j / l->plays / l->deals);
}

static void ladder_job(const void *ctx, long j, any_job *job)
{
    const ladder *l = ctx;
    int pair, play;
    long deal;
    job_parts(l, j, &pair, &deal, &play);
    int alone = play < l->players ? l->pair_a[pair] : l->pair_b[pair];
    int other = play < l->players ? l->pair_b[pair] : l->pair_a[pair];
    job->side = 0;
    job->seed = foh_seed_for(l->seed, (uint64_t)deal);
    /* The bots' seeds differ from one play of the deal to the next (else
     * random against random would replay one game N times). */
    job->bots = foh_seed_for(job->seed, (uint64_t)play);
    for (int p = 0; p < l->players; p++)
        job->spec[p] = l->bot[p == play % l->players ? alone : other];
}

/* --seats split at commas into L's bots; 0 after saying why. */
static int read_bots(const cli_options *o, ladder *l)
{
    const char *s = o->seats;
    l->nbots = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof l->bot[0] || l->nbots == MAX_BOTS) {
            cli_error("sim", "--skill-ladder: --seats names 2 to %d bots, each in fewer than %d characters, between "
                             "single commas",
                      MAX_BOTS, (int)sizeof l->bot[0]);
            return 0;
        }
        snprintf(l->bot[l->nbots++], sizeof l->bot[0], "%.*s", (int)len, s);
        s += len + (s[len] == ',');
    }
    if (l->nbots < 2) {
        cli_error("sim", "--skill-ladder: --seats names the bots to rank, at least 2 (e.g. random,greedy,ismcts:50)");
        return 0;
    }
    const char *specs[MAX_BOTS];
    char why[1100];
    for (int b = 0; b < l->nbots; b++)
        specs[b] = l->bot[b];
    if (!any_specs_valid(specs, l->nbots, why, sizeof why)) {
        cli_error("sim", "--seats: %s", why);
        return 0;
    }
    return 1;
}

/* The matrix, the scores and the ranking from the games' results. */
static void tally(ladder *l, const any_results *res)
{
    int n = l->players;
    for (long j = 0; j < (long)l->npairs * l->deals * l->plays; j++) {
        int pair, play;
        long deal;
        job_parts(l, j, &pair, &deal, &play);
        int alone = play < n ? l->pair_a[pair] : l->pair_b[pair];
        int other = play < n ? l->pair_b[pair] : l->pair_a[pair];
        const double *r = &res->result[(size_t)j * n];
        cell *c = &l->m[alone][other];
        c->games++;
        c->wins += r[play % n];
        c->turns += res->turns[j];
        if (n == 2) { /* the same game, seen from the other bot */
            cell *d = &l->m[other][alone];
            d->games++;
            d->wins += r[!(play % n)];
            d->turns += res->turns[j];
        }
    }
    for (int x = 0; x < l->nbots; x++) {
        l->score[x] = 0;
        for (int y = 0; y < l->nbots; y++) {
            cell *c = &l->m[x][y];
            if (x == y || !c->games)
                continue;
            c->rate = c->wins / (double)c->games;
            sim_wilson(c->rate, (double)c->games, &c->lo, &c->hi);
            c->turns /= (double)c->games;
            l->score[x] += (c->rate - 1.0 / n) / (l->nbots - 1);
        }
        l->order[x] = x;
    }
    for (int i = 1; i < l->nbots; i++) /* insertion sort, stable: ties keep --seats' order */
        for (int k = i; k > 0 && l->score[l->order[k]] > l->score[l->order[k - 1]]; k--) {
            int t = l->order[k];
            l->order[k] = l->order[k - 1];
            l->order[k - 1] = t;
        }
}

/* '+' when X alone among Y's wins significantly more than the fair share,
 * '-' less, '=' neither. */
static char verdict(const ladder *l, int x, int y)
{
    const cell *c = &l->m[x][y];
    double fair = 1.0 / l->players;
    return c->lo > fair ? '+' : c->hi < fair ? '-' : '=';
}

/* Bot B's name, escaped (--seats is the user's text), cut to fit a column. */
static const char *bot_name(const ladder *l, int b, char *buf, size_t len)
{
    char safe[256];
    cli_safe(l->bot[b], safe, sizeof safe);
    snprintf(buf, len, "%s", safe);
    return buf;
}

/* "beats X, Y; loses to Z" of bot X, from its row of the matrix. */
static void print_verdicts(const ladder *l, int x)
{
    char name[32];
    int any = 0;
    for (int want = 0; want < 2; want++) {
        int k = 0;
        for (int i = 0; i < l->nbots; i++) {
            int y = l->order[i];
            if (y == x || verdict(l, x, y) != (want ? '-' : '+'))
                continue;
            printf("%s%s", k++ ? ", " : !want ? "  beats " : any ? "; loses to " : "  loses to ",
                   bot_name(l, y, name, sizeof name));
        }
        any += k;
    }
    printf("\n");
}

static void print_ladder(const ladder *l, const foh_ruleset *rs, const cli_options *o)
{
    char name[32];
    double fair = 1.0 / l->players;
    printf("%s: skill ladder of %d bots, %d players, seed %llu, cards ", rs->title, l->nbots, l->players,
           (unsigned long long)l->seed);
    cli_puts(stdout, o->cards);
    for (int i = 0; i < o->nvariants; i++) {
        printf(i ? ", " : ", variants: ");
        cli_puts(stdout, o->variant[i]);
    }
    printf("\n%ld deals; on each, every pair of bots plays %ld games: ", l->deals, l->plays);
    if (l->players == 2)
        printf("each bot in each seat\n");
    else
        printf("each bot alone in every seat among copies of the other\n");
    printf("fair share 1/%d = %.1f%%: the row's bot wins more (+) or less (-) than it when its Wilson 95%% interval "
           "lies above or below it\n\nwin rate of the row's bot %s the column's [95%% interval]\n",
           l->players, 100 * fair, l->players == 2 ? "against" : "alone among copies of");
    printf("%-20s", "");
    for (int y = 0; y < l->nbots; y++)
        printf(y + 1 < l->nbots ? " %-24s" : " %s", bot_name(l, y, name, sizeof name));
    printf("\n");
    for (int x = 0; x < l->nbots; x++) {
        printf("%-20s", bot_name(l, x, name, sizeof name));
        for (int y = 0; y < l->nbots; y++) {
            const cell *c = &l->m[x][y];
            char text[64];
            if (x == y)
                snprintf(text, sizeof text, "-");
            else
                snprintf(text, sizeof text, "%5.1f%% [%4.1f-%4.1f] %c", 100 * c->rate, 100 * c->lo, 100 * c->hi,
                         verdict(l, x, y));
            printf(y + 1 < l->nbots ? " %-24s" : " %s", text);
        }
        printf("\n");
    }
    printf("\nranking (each bot's mean over the others of its win rate alone among them, minus the fair share):\n");
    for (int i = 0; i < l->nbots; i++) {
        int x = l->order[i];
        printf("  %d. %-20s %+6.1f points", i + 1, bot_name(l, x, name, sizeof name), 100 * l->score[x]);
        print_verdicts(l, x);
    }
    double turns = 0;
    long games = 0;
    for (int x = 0; x < l->nbots; x++)
        for (int y = 0; y < l->nbots; y++)
            if (x != y && (l->players > 2 || x < y)) {
                turns += l->m[x][y].turns * (double)l->m[x][y].games;
                games += l->m[x][y].games;
            }
    printf("%ld games, %.1f turns per game\n", games, games ? turns / (double)games : 0.0);
}

static int write_json(const ladder *l, const foh_ruleset *rs, const char *path)
{
    json_t *bots = json_array(), *cells = json_array(), *ranking = json_array();
    for (int x = 0; x < l->nbots; x++) {
        json_array_append_new(bots, json_string(l->bot[x]));
        for (int y = 0; y < l->nbots; y++) {
            const cell *c = &l->m[x][y];
            char v[2] = {verdict(l, x, y), 0};
            if (x != y)
                json_array_append_new(cells, json_pack("{s:s, s:s, s:I, s:f, s:f, s:[f, f], s:s, s:f}", "alone",
                                                       l->bot[x], "among", l->bot[y], "games", (json_int_t)c->games,
                                                       "wins", c->wins, "win_rate", c->rate, "ci95", c->lo, c->hi,
                                                       "verdict", v, "turns", c->turns));
        }
    }
    for (int i = 0; i < l->nbots; i++) {
        int x = l->order[i];
        json_t *beats = json_array(), *loses = json_array();
        for (int y = 0; y < l->nbots; y++)
            if (y != x && verdict(l, x, y) != '=')
                json_array_append_new(verdict(l, x, y) == '+' ? beats : loses, json_string(l->bot[y]));
        json_array_append_new(ranking, json_pack("{s:i, s:s, s:f, s:o, s:o}", "rank", i + 1, "bot", l->bot[x],
                                                 "score", l->score[x], "beats", beats, "loses_to", loses));
    }
    json_t *root = json_pack("{s:s, s:s, s:s, s:i, s:I, s:I, s:I, s:f, s:o, s:o, s:o}", "format", "foh-any-ladder/1",
                             "ruleset", rs->name, "title", rs->title, "players", l->players, "seed",
                             (json_int_t)l->seed, "deals", (json_int_t)l->deals, "games_per_deal_and_pair",
                             (json_int_t)l->plays, "fair_share", 1.0 / l->players, "bots", bots, "matrix", cells,
                             "ranking", ranking);
    int ok = root && cli_write_json(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    if (!ok)
        cli_error("sim", "cannot write %s: %s", path, root ? strerror(errno) : "out of memory");
    json_decref(root);
    return ok;
}

/* L's pairs, deals and plays from O; 0 after saying why. */
static int plan(const cli_options *o, ladder *l)
{
    if (!read_bots(o, l))
        return 0;
    if (o->players < 2) {
        cli_error("sim", "--skill-ladder needs at least 2 players");
        return 0;
    }
    l->players = o->players;
    l->seed = o->seed;
    l->deals = o->given >> OPT_GAMES & 1 ? o->games : DEFAULT_DEALS;
    l->plays = l->players == 2 ? 2 : 2L * l->players;
    l->npairs = 0;
    for (int a = 0; a < l->nbots; a++)
        for (int b = a + 1; b < l->nbots; b++) {
            l->pair_a[l->npairs] = a;
            l->pair_b[l->npairs++] = b;
        }
    if (l->deals > CLI_MAX_GAMES / l->plays / l->npairs) {
        cli_error("sim", "--skill-ladder: %ld deals for %d pairs make more than %ld games", l->deals, l->npairs,
                  CLI_MAX_GAMES);
        return 0;
    }
    if (o->json && !cli_can_write(o->json)) {
        cli_error("sim", "cannot write %s: %s", o->json, strerror(errno));
        return 0;
    }
    return 1;
}

int any_ladder(const cli_options *o)
{
    const uint64_t allowed = (uint64_t)1 << OPT_GAMES | (uint64_t)1 << OPT_THREADS | (uint64_t)1 << OPT_JSON |
                             (uint64_t)1 << OPT_SKILL_LADDER;
    if (!any_only(o, "sim", allowed))
        return CLI_USAGE;
    ladder *l = calloc(1, sizeof *l);
    if (!l) {
        cli_error("sim", "out of memory");
        return CLI_DATA;
    }
    int status = plan(o, l) ? CLI_OK : CLI_USAGE;
    foh_error err;
    foh_cardset *cs = status == CLI_OK ? any_load(o, &err) : NULL;
    if (status == CLI_OK && !cs) {
        cli_error("sim", "%s", err.msg);
        status = CLI_DATA;
    }
    any_results res;
    memset(&res, 0, sizeof res);
    if (status == CLI_OK) {
        any_run run = {.cs = {cs, NULL}, .limits = &o->limits, .players = l->players, .threads = o->threads,
                       .jobs = (long)l->npairs * l->deals * l->plays, .job = ladder_job, .ctx = l};
        if (!any_games_play(&run, &res)) {
            int pair = 0, play = 0;
            long deal = 0;
            if (res.failed_job >= 0) {
                job_parts(l, res.failed_job, &pair, &deal, &play);
                cli_error("sim", "%s vs %s, deal %ld (seed %llu), play %d: %s", l->bot[l->pair_a[pair]],
                          l->bot[l->pair_b[pair]], deal + 1, (unsigned long long)foh_seed_for(l->seed, (uint64_t)deal),
                          play + 1, res.error);
            } else {
                cli_error("sim", "%s", res.error);
            }
            status = res.usage ? CLI_USAGE : CLI_DATA;
        } else {
            tally(l, &res);
            print_ladder(l, foh_cardset_ruleset(cs), o);
            if (o->json && !write_json(l, foh_cardset_ruleset(cs), o->json))
                status = CLI_DATA;
        }
    }
    any_results_free(&res);
    foh_cardset_free(cs);
    free(l);
    if (fflush(stdout) != 0 && status == CLI_OK)
        status = CLI_DATA;
    return status;
}

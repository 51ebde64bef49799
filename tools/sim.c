/* foh sim: many bot games, summarised. */
#include <math.h>
#include <stdio.h>

#include "cli.h"

static const char HELP[] =
    "usage: foh sim [--players N] [--games G] [--seed S] [--seats SPECS] [--cards DIR] [--variant NAME]...\n"
    "\n"
    "Plays G games between random bots (game i uses a seed derived from S and\n"
    "i, so a run is reproducible) and prints the mean and spread of scores,\n"
    "the win rate of each seat, and the mean game length in turns.\n"
    "A shared win counts as 1/k of a win for each of the k winners.\n"
    "\n"
    "  --players N   number of players (default 4)\n"
    "  --games G     number of games (default 1000)\n"
    "  --seed S      seed of the run (default 1)\n"
    "  --seats SPECS the players: random, greedy, ismcts[:N|:MSms], one for all\n"
    "                seats or one per seat, comma-separated (default random)\n"
    "  --cards DIR   card set folder (default: the base set)\n"
    "  --variant V   apply variant V (repeat to combine)\n";

typedef struct {
    double n, sum, sumsq;
} stat;

static void add(stat *s, double x)
{
    s->n++;
    s->sum += x;
    s->sumsq += x * x;
}
static double mean(const stat *s) { return s->n ? s->sum / s->n : 0; }
static double sd(const stat *s)
{
    if (s->n < 2)
        return 0;
    double m = mean(s), v = (s->sumsq - s->n * m * m) / (s->n - 1);
    return v > 0 ? sqrt(v) : 0;
}

int cmd_sim(int argc, char **argv)
{
    cli_options o;
    if (!cli_parse(argc, argv, "sim", "players,seed,games,cards,variant,seats", &o))
        return CLI_USAGE;
    if (o.help) {
        fputs(HELP, stdout);
        return CLI_OK;
    }
    foh_cardset *cs;
    foh_engine *eng;
    if (!cli_load(&o, &cs, &eng))
        return CLI_DATA;
    stat score = {0}, winner_score = {0}, turns = {0}, seat_score[FOH_MAX_PLAYERS] = {{0}};
    double wins[FOH_MAX_PLAYERS] = {0}, first_wins = 0;
    int status = CLI_OK;
    foh_error err;
    for (long i = 0; i < o.games && status == CLI_OK; i++) {
        uint64_t seed = foh_seed_for(o.seed, (uint64_t)i);
        foh_options opt = {.players = o.players, .seed = seed};
        foh_game *g = foh_game_new(eng, &opt, &err);
        if (!g) {
            fprintf(stderr, "foh sim: %s\n", err.msg);
            status = err.code == FOH_ERR_USAGE ? CLI_USAGE : CLI_DATA;
            break;
        }
        foh_player *seats[FOH_MAX_PLAYERS] = {0};
        if (!cli_seats(&o, seed, seats)) {
            foh_game_free(g);
            status = CLI_USAGE;
            break;
        }
        foh_score sc[FOH_MAX_PLAYERS];
        if (foh_match_play(g, seats, 100000, NULL, NULL, NULL, &err) != FOH_OK ||
            foh_game_score(g, sc, NULL, &err) != FOH_OK) {
            fprintf(stderr, "foh sim: game %ld (seed %llu): %s\n", i, (unsigned long long)seed, err.msg);
            status = CLI_DATA;
        } else {
            int nwin = 0;
            for (int p = 0; p < o.players; p++)
                nwin += sc[p].winner;
            for (int p = 0; p < o.players; p++) {
                add(&score, sc[p].total);
                add(&seat_score[p], sc[p].total);
                if (sc[p].winner) {
                    wins[p] += 1.0 / nwin;
                    add(&winner_score, sc[p].total);
                    if (p == foh_game_first_player(g))
                        first_wins += 1.0 / nwin;
                }
            }
            add(&turns, foh_game_turn(g));
        }
        cli_free_seats(seats, o.players);
        foh_game_free(g);
    }
    if (status == CLI_OK) {
        printf("%ld games, %d players, seed %llu, bots: random, card set %s", o.games, o.players,
               (unsigned long long)o.seed, o.cards);
        for (int i = 0; i < foh_cardset_variant_count(cs); i++)
            printf("%s%s", i ? ", " : ", variants: ", foh_cardset_variant_name(cs, i));
        printf("\n");
        printf("score: mean %.2f, sd %.2f; winner's score: mean %.2f, sd %.2f\n", mean(&score), sd(&score),
               mean(&winner_score), sd(&winner_score));
        printf("game length: mean %.2f turns, sd %.2f\n", mean(&turns), sd(&turns));
        printf("%-6s %10s %8s %8s\n", "seat", "win rate", "mean", "sd");
        for (int p = 0; p < o.players; p++)
            printf("P%-5d %9.1f%% %8.2f %8.2f\n", p + 1, 100.0 * wins[p] / (double)o.games, mean(&seat_score[p]),
                   sd(&seat_score[p]));
        printf("first player: win rate %.1f%%\n", 100.0 * first_wins / (double)o.games);
    }
    foh_engine_free(eng);
    foh_cardset_free(cs);
    return status;
}

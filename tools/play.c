/* foh play: one game between random bots, with a turn-by-turn log. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char HELP[] =
    "usage: foh play [--players N] [--seed S] [--seats SPECS] [--cards DIR] [--variant NAME]...\n"
    "\n"
    "Plays one full game between random bots and prints each action, the\n"
    "tokens it moves, the cards gained and discarded, attacks with their\n"
    "strengths, and the final score table with each player's VP breakdown.\n"
    "The same seed prints the same game, byte for byte.\n"
    "\n"
    "  --players N   number of players (default 4)\n"
    "  --seed S      random seed of the game and its bots (default 1)\n"
    "  --seats SPECS the players: random, greedy, ismcts[:ITERATIONS|:MSms],\n"
    "                one for all seats or one per seat, comma-separated\n"
    "                (default random)\n"
    "  --cards DIR   card set folder (default: the base set)\n"
    "  --variant V   apply variant V (a name from 'foh variants', or a folder);\n"
    "                repeat to combine variants\n";

static void print_line(void *ud, const char *line) { fprintf(ud, "%s\n", line); }

static void print_setup(foh_game *g)
{
    const foh_cardset *cs = foh_game_cardset(g);
    foh_card_info ci;
    printf("Market:");
    for (int i = 0; i < foh_game_market_size(g); i++) {
        foh_cardset_card(cs, foh_game_market_card(g, i), &ci);
        printf("%s %s (%s)", i ? "," : "", ci.name, ci.age);
    }
    printf("\n");
    for (int p = 0; p < foh_game_players(g); p++)
        for (int t = 0; t < foh_cardset_type_count(cs); t++) {
            int cards[8];
            int k = foh_game_nation_cards(g, p, t, cards, 8);
            for (int i = 0; i < k && i < 8; i++) {
                foh_cardset_card(cs, cards[i], &ci);
                printf("P%d starts with %s\n", p + 1, ci.name);
            }
        }
    printf("Civilization deck: %d cards. Supply %d, Reserve %d. First player: P%d\n", foh_game_deck_size(g),
           foh_game_supply(g), foh_game_reserve(g), foh_game_first_player(g) + 1);
}

int cmd_play(int argc, char **argv)
{
    cli_options o;
    if (!cli_parse(argc, argv, "play", "players,seed,cards,variant,seats,lua-instructions,lua-memory", &o))
        return CLI_USAGE;
    if (o.help) {
        fputs(HELP, stdout);
        return CLI_OK;
    }
    foh_cardset *cs;
    foh_engine *eng;
    if (!cli_load(&o, &cs, &eng))
        return CLI_DATA;
    foh_error err;
    foh_options opt = {.players = o.players, .seed = o.seed};
    foh_game *g = foh_game_new(eng, &opt, &err);
    if (!g) {
        fprintf(stderr, "foh play: %s\n", err.msg);
        foh_engine_free(eng);
        foh_cardset_free(cs);
        return err.code == FOH_ERR_USAGE ? CLI_USAGE : CLI_DATA;
    }
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    if (!cli_seats(&o, o.seed, seats)) {
        foh_game_free(g);
        foh_engine_free(eng);
        foh_cardset_free(cs);
        return CLI_USAGE;
    }
    printf("The Flow of History: %d players, seed %llu, card set %s, players:", o.players, (unsigned long long)o.seed,
           o.cards);
    for (int p = 0; p < o.players; p++)
        printf(" P%d %s", p + 1, seats[p]->name);
    printf("\n");
    for (int i = 0; i < foh_cardset_variant_count(cs); i++)
        printf("Variant: %s\n", foh_cardset_variant_name(cs, i));
    print_setup(g);
    foh_game_set_log(g, print_line, stdout);

    int status = CLI_OK;
    foh_action *legal = NULL;
    int cap = 0;
    while (!foh_game_is_over(g)) {
        if (!foh_game_choice(g))
            printf("\nTurn %d: P%d (tokens %d; Supply %d, Reserve %d, Current Age %d, deck %d)\n",
                   foh_game_turn(g) + 1, foh_game_current_player(g) + 1,
                   foh_game_tokens(g, foh_game_current_player(g)), foh_game_supply(g), foh_game_reserve(g),
                   foh_game_current_age(g), foh_game_deck_size(g));
        int n = foh_match_legal(g, &legal, &cap);
        if (n < 1) {
            fprintf(stderr, "foh play: out of memory\n");
            status = CLI_DATA;
            break;
        }
        int who = foh_game_to_act(g);
        int pick = seats[who]->decide(seats[who], g, legal, n, NULL, 0);
        if (foh_game_apply(g, &legal[pick], &err) != FOH_OK) {
            fprintf(stderr, "foh play: %s\n", err.msg);
            status = CLI_DATA;
            break;
        }
    }
    free(legal);
    if (status == CLI_OK) {
        printf("\nGame over after %d turns. Tokens substituted for an empty Reserve: %d\n", foh_game_turn(g),
               foh_game_substituted(g));
        cli_print_scores(stdout, g);
    }
    cli_free_seats(seats, o.players);
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
    return status;
}

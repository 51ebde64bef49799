/* foh play: one game between bots, with a turn-by-turn log; saved after
 * every action with --save, resumed with --load. foh replay: a saved game's
 * log again, without bots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "save.h"

static const char HELP[] =
    "usage: foh play [--players N] [--seed S] [--seats SPECS] [--cards DIR] [--variant NAME]...\n"
    "                [--save FILE] [--stop-after N] [--lua-instructions N] [--lua-memory MIB]\n"
    "       foh play --load FILE [--seats SPECS] [--save FILE] [--stop-after N]\n"
    "\n"
    "Plays one full game between bots and prints each action, the\n"
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
    "                repeat to combine variants\n"
    "  --save FILE   write the game to FILE after every action (JSON, see\n"
    "                docs/save-format.md): an interrupted game can be resumed\n"
    "  --stop-after N  stop after N actions in all (the game stays resumable)\n"
    "  --load FILE   resume the saved game: its card set, variants, players,\n"
    "                seed and seats come from FILE (refused if the card set's\n"
    "                files changed); its actions are replayed, then the seats\n"
    "                play on (--seats replaces them). With --load, --save\n"
    "                defaults to the same FILE\n"
    "  --lua-instructions N, --lua-memory MIB  script limits (scripts/API.md)\n";

static const char REPLAY_HELP[] =
    "usage: foh replay FILE\n"
    "\n"
    "Replays the game saved in FILE (by 'foh play --save') and prints the same\n"
    "log as the game printed, then the scores. Refused, naming what differs,\n"
    "if the card set or variants are not the ones the game was recorded with;\n"
    "a corrupt or hand-edited file is refused with the position of the problem.\n";

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

/* What a session does beyond cli_options. */
typedef struct {
    const char *save, *load;
    long stop_after; /* 0: play to the end */
    int replay;      /* foh replay: recorded actions only, no bots */
} session;

static void print_turn(foh_game *g)
{
    if (!foh_game_choice(g))
        printf("\nTurn %d: P%d (tokens %d; Supply %d, Reserve %d, Current Age %d, deck %d)\n", foh_game_turn(g) + 1,
               foh_game_current_player(g) + 1, foh_game_tokens(g, foh_game_current_player(g)), foh_game_supply(g),
               foh_game_reserve(g), foh_game_current_age(g), foh_game_deck_size(g));
}

/* Fill O from save file SV (what the command line did not override). */
static void options_from_save(cli_options *o, const save_file *sv, int seats_given)
{
    o->cards = sv->cards;
    o->nvariants = sv->nvariants;
    for (int i = 0; i < sv->nvariants; i++) {
        snprintf(o->variant_dir[i], sizeof o->variant_dir[i], "%s", sv->variant[i]);
        o->variant[i] = o->variant_dir[i];
    }
    o->players = sv->players;
    o->seed = sv->seed;
    if (!seats_given)
        o->seats = sv->seats;
    if (!o->limits.instructions)
        o->limits.instructions = sv->limits.instructions;
    if (!o->limits.memory_bytes)
        o->limits.memory_bytes = sv->limits.memory_bytes;
}

static int run_session(cli_options *o, const session *ss, int seats_given)
{
    const char *cmd = ss->replay ? "replay" : "play";
    save_file sv = {0};
    char msg[2048];
    if (ss->load) {
        if (!save_read(ss->load, &sv, msg, sizeof msg)) {
            fprintf(stderr, "foh %s: %s\n", cmd, msg);
            return CLI_DATA;
        }
        options_from_save(o, &sv, seats_given);
    }
    foh_cardset *cs;
    foh_engine *eng;
    if (!cli_load(o, &cs, &eng)) {
        save_free(&sv);
        return CLI_DATA;
    }
    int status = CLI_OK;
    if (ss->load && !save_check_cardset(&sv, cs, msg, sizeof msg)) {
        fprintf(stderr, "foh %s: %s was recorded with another card set: %s\n", cmd, ss->load, msg);
        status = CLI_DATA;
    }
    foh_error err;
    foh_options opt = {.players = o->players, .seed = o->seed};
    foh_game *g = status == CLI_OK ? foh_game_new(eng, &opt, &err) : NULL;
    if (status == CLI_OK && !g) {
        fprintf(stderr, "foh %s: %s\n", cmd, err.msg);
        status = err.code == FOH_ERR_USAGE ? CLI_USAGE : CLI_DATA;
    }
    /* Bots of a resumed game are seeded from the seed and the resume point. */
    foh_player *seats[FOH_MAX_PLAYERS] = {0};
    uint64_t bot_seed = sv.nactions ? foh_seed_for(o->seed, (uint64_t)sv.nactions) : o->seed;
    if (status == CLI_OK && !ss->replay && !cli_seats(o, bot_seed, seats))
        status = CLI_USAGE;
    foh_action *done = NULL, *legal = NULL;
    int ndone = 0, cap = 0;
    if (status == CLI_OK) {
        printf("The Flow of History: %d players, seed %llu, card set %s, players:", o->players,
               (unsigned long long)o->seed, o->cards);
        /* One spec for all seats, or one per seat (as cli_seats reads them). */
        const char *spec = o->seats;
        for (int p = 0; p < o->players; p++) {
            size_t len = strcspn(spec, ",");
            printf(" P%d %.*s", p + 1, (int)len, spec);
            if (spec[len] == ',')
                spec += len + 1;
        }
        printf("\n");
        for (int i = 0; i < foh_cardset_variant_count(cs); i++)
            printf("Variant: %s\n", foh_cardset_variant_name(cs, i));
        print_setup(g);
        foh_game_set_log(g, print_line, stdout);
        done = malloc(sizeof *done * (size_t)(sv.nactions + 1024));
        if (!done)
            status = CLI_DATA;
    }
    long limit = sv.nactions + 1024;
    while (status == CLI_OK && !foh_game_is_over(g)) {
        foh_action a;
        if (ndone < sv.nactions) {
            if (!save_action(&sv, ndone, cs, &a, msg, sizeof msg)) {
                fprintf(stderr, "foh %s: %s\n", cmd, msg);
                status = CLI_DATA;
                break;
            }
        } else if (ss->replay || (ss->stop_after && ndone >= ss->stop_after)) {
            break;
        } else {
            int n = foh_match_legal(g, &legal, &cap);
            if (n < 1) {
                fprintf(stderr, "foh %s: out of memory\n", cmd);
                status = CLI_DATA;
                break;
            }
            int who = foh_game_to_act(g);
            int pick = seats[who]->decide(seats[who], g, legal, n, NULL, 0);
            a = legal[pick < 0 || pick >= n ? 0 : pick];
        }
        print_turn(g);
        if (foh_game_apply(g, &a, &err) != FOH_OK) {
            if (ndone < sv.nactions)
                fprintf(stderr, "foh %s: %s: actions[%d]: %s\n", cmd, ss->load, ndone, err.msg);
            else
                fprintf(stderr, "foh %s: %s\n", cmd, err.msg);
            status = CLI_DATA;
            break;
        }
        if (ndone == limit) {
            limit *= 2;
            foh_action *grown = realloc(done, sizeof *done * (size_t)limit);
            if (!grown) {
                status = CLI_DATA;
                break;
            }
            done = grown;
        }
        done[ndone++] = a;
        if (ss->save && ndone > sv.nactions && !save_write(ss->save, o, cs, g, done, ndone))
            status = CLI_DATA;
    }
    if (status == CLI_OK && ndone < sv.nactions) {
        fprintf(stderr, "foh %s: %s: actions[%d]: the game is already over\n", cmd, ss->load, ndone);
        status = CLI_DATA;
    }
    if (status == CLI_OK && ss->load && ndone == sv.nactions && sv.has_digest && foh_game_digest(g) != sv.digest) {
        fprintf(stderr, "foh %s: %s: the replayed game differs from the recorded one (digest): the engine or its "
                        "rules changed since it was saved\n", cmd, ss->load);
        status = CLI_DATA;
    }
    if (status == CLI_OK && ss->save && ndone == sv.nactions && !save_write(ss->save, o, cs, g, done, ndone))
        status = CLI_DATA;
    if (status == CLI_OK) {
        if (foh_game_is_over(g))
            printf("\nGame over after %d turns. Tokens substituted for an empty Reserve: %d\n", foh_game_turn(g),
                   foh_game_substituted(g));
        else if (ss->replay)
            printf("\nThe recording ends after %d actions, turn %d; the scores if the game ended now:\n", ndone,
                   foh_game_turn(g) + 1);
        else
            printf("\nStopped after %d actions, turn %d%s%s; the scores if the game ended now:\n", ndone,
                   foh_game_turn(g) + 1, ss->save ? "; resume with foh play --load " : "", ss->save ? ss->save : "");
        cli_print_scores(stdout, g);
    }
    free(done);
    free(legal);
    if (!ss->replay)
        cli_free_seats(seats, o->players);
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
    save_free(&sv);
    return status;
}

static int given(int argc, char **argv, const char *opt)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], opt))
            return 1;
    return 0;
}

int cmd_play(int argc, char **argv)
{
    cli_options o;
    if (!cli_parse(argc, argv, "play",
                   "players,seed,cards,variant,seats,lua-instructions,lua-memory,save,load,stop-after", &o))
        return CLI_USAGE;
    if (o.help) {
        fputs(HELP, stdout);
        return CLI_OK;
    }
    static const char *const from_save[] = {"--players", "--seed", "--cards", "--variant"};
    for (size_t i = 0; o.load && i < sizeof from_save / sizeof from_save[0]; i++)
        if (given(argc, argv, from_save[i])) {
            fprintf(stderr, "foh play: %s comes from the save file with --load\n", from_save[i]);
            return CLI_USAGE;
        }
    session ss = {.save = o.save ? o.save : o.load, .load = o.load, .stop_after = o.stop_after};
    return run_session(&o, &ss, given(argc, argv, "--seats"));
}

int cmd_replay(int argc, char **argv)
{
    if (argc == 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
        fputs(REPLAY_HELP, stdout);
        return CLI_OK;
    }
    if (argc != 1 || argv[0][0] == '-') {
        fprintf(stderr, "usage: foh replay FILE (see foh replay --help)\n");
        return CLI_USAGE;
    }
    cli_options o;
    cli_parse(0, NULL, "replay", "", &o);
    session ss = {.load = argv[0], .replay = 1};
    return run_session(&o, &ss, 0);
}

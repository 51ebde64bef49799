/* An embedder of the installed engine (ctest install_embed, docs/embedding.md):
 * a program that knows foh only through its public headers and libfoh. It
 * loads the base card set from the installed data folder, plays one
 * four-player game to the end - seat 1 its own bot, plugged in through the
 * foh_player interface (foh/bot.h), seats 2-4 the library's bots by seat
 * spec - and prints the scores.
 *
 *   embed [DATA_DIR]   (default: EMBED_DATA_DIR, compiled in)
 *
 * Exit status 0 when the game was played to its end, 1 otherwise. */
#include <foh/foh.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAYERS 4
#define SEED 7

/* The embedder's own bot: a one-move look-ahead. For each legal action it
 * applies the action to a copy of the game whose hidden cards were
 * re-sampled from what it may see (foh_game_determinize: no peeking), and
 * takes the one after which its own score is highest (the first of equals). */
typedef struct {
    foh_player base; /* first: the library calls it through a foh_player */
    uint64_t seed;   /* of the next re-sampling */
    foh_score score; /* scratch (a large struct: kept off the stack) */
} lookahead;

static int lookahead_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why,
                            size_t whylen, foh_error *err)
{
    lookahead *b = (lookahead *)self;
    int me = foh_game_to_act(g), best = 0, best_total = -1;
    foh_game *copy = foh_game_clone(g);
    if (!copy) {
        foh_error_set(err, FOH_ERR_MEMORY, "lookahead: out of memory");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        foh_game_copy(copy, g);
        foh_game_determinize(copy, me, b->seed++);
        if (foh_game_apply(copy, &legal[i], err) != FOH_OK ||
            foh_game_score_player(copy, me, &b->score, err) != FOH_OK) {
            foh_game_free(copy);
            return -1;
        }
        if (b->score.total > best_total) {
            best_total = b->score.total;
            best = i;
        }
    }
    foh_game_free(copy);
    if (why)
        snprintf(why, whylen, "%d VP after it", best_total);
    return best;
}

static void lookahead_free(foh_player *self) { free(self); }

static foh_player *lookahead_new(uint64_t seed)
{
    lookahead *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->base.name = "lookahead";
    b->base.decide = lookahead_decide;
    b->base.free = lookahead_free;
    b->seed = seed;
    return &b->base;
}

/* Play one game of CS with SEATS to the end and print its scores. */
static int play(const foh_cardset *cs, foh_player *const *seats, const char *const *names)
{
    foh_error err;
    foh_engine *eng = foh_engine_new(cs, &err);
    foh_options opt = {.players = PLAYERS, .seed = SEED};
    foh_game *g = eng ? foh_game_new(eng, &opt, &err) : NULL;
    foh_score *sc = malloc(PLAYERS * sizeof *sc);
    long steps = 0;
    int ok = g && sc && foh_match_play(g, seats, NULL, 0, &steps, &err) == FOH_OK && foh_game_is_over(g);
    foh_tiebreak tie;
    ok = ok && foh_game_score(g, sc, &tie, &err) == FOH_OK;
    if (ok) {
        printf("game over after %d turns, %ld decisions\n", foh_game_turn(g), steps);
        for (int p = 0; p < PLAYERS; p++)
            printf("P%d %-9s %3d VP %2d cards %2d tokens%s\n", p + 1, names[p], sc[p].total, sc[p].cards,
                   sc[p].tokens, sc[p].winner ? "  winner" : "");
    } else {
        fprintf(stderr, "embed: %s\n", g && sc ? err.msg : !sc ? "out of memory" : err.msg);
    }
    free(sc);
    foh_game_free(g);
    foh_engine_free(eng);
    return ok;
}

int main(int argc, char **argv)
{
#ifdef EMBED_DATA_DIR
    const char *data = argc > 1 ? argv[1] : EMBED_DATA_DIR;
#else
    const char *data = argc > 1 ? argv[1] : NULL;
#endif
    if (!data) {
        fprintf(stderr, "usage: embed DATA_DIR (foh's installed data folder, holding cards/base)\n");
        return 1;
    }
    char headers[32];
    snprintf(headers, sizeof headers, "%d.%d.%d", FOH_VERSION_MAJOR, FOH_VERSION_MINOR, FOH_VERSION_PATCH);
    printf("libfoh %s, headers %s\n", foh_version(), headers);
    if (strcmp(foh_version(), headers)) {
        fprintf(stderr, "embed: the library is not the headers' version\n");
        return 1;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/cards/base", data);
    foh_error err;
    foh_cardset *cs = foh_cardset_load(dir, &err);
    if (!cs) {
        fprintf(stderr, "embed: %s\n", err.msg);
        return 1;
    }
    printf("card set: %d cards, %d to %d players\n", foh_cardset_card_count(cs), foh_cardset_min_players(cs),
           foh_cardset_max_players(cs));
    const char *names[PLAYERS] = {"lookahead", "greedy", "random", "random"};
    foh_player *seats[PLAYERS] = {lookahead_new(SEED)};
    int ok = seats[0] != NULL;
    for (int p = 1; p < PLAYERS && ok; p++)
        ok = (seats[p] = foh_bot_from_spec(names[p], SEED + (uint64_t)p, &err)) != NULL;
    if (!ok)
        fprintf(stderr, "embed: %s\n", seats[0] ? err.msg : "out of memory");
    ok = ok && play(cs, seats, names);
    for (int p = 0; p < PLAYERS; p++)
        foh_player_free(seats[p]);
    foh_cardset_free(cs);
    return ok ? 0 : 1;
}

/* The toy game (toy.c) played through the platform alone: the registry
 * finds it by its game.yaml, the match loop plays it with the random,
 * greedy and ISMCTS bots for 2 to 8 players, its rounds score in the middle
 * of the game, and a bot's determinization keeps what its player sees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "foh/bot.h"
#include "foh/match.h"
#include "foh/position.h"
#include "foh/ruleset.h"

typedef struct {
    int lines, scored;
} log_count;

static void count_line(void *ud, const char *line)
{
    log_count *c = ud;
    c->lines++;
    c->scored += strstr(line, "scores a Victory Token") != NULL;
}

static foh_cardset *toy_cards(void)
{
    foh_error err = {0};
    foh_cardset *cs = foh_cardset_load(TOY_CARDS, &err);
    if (!cs)
        fail_msg("%s", err.msg);
    return cs;
}

static void test_registry_finds_the_toy(void **state)
{
    (void)state;
    foh_cardset *cs = toy_cards();
    assert_string_equal(foh_cardset_ruleset(cs)->name, "toy");
    assert_ptr_equal(foh_ruleset_find("toy"), foh_cardset_ruleset(cs));
    assert_string_equal(foh_ruleset_at(0)->name, "flow-of-history"); /* the default stays first */
    foh_cardset_free(cs);
}

static void test_bots_play_every_player_count(void **state)
{
    (void)state;
    foh_cardset *cs = toy_cards();
    foh_error err = {0};
    foh_engine *eng = foh_engine_new(cs, &err);
    assert_non_null(eng);
    for (int players = 2; players <= 8; players++) {
        foh_options opt = {.players = players, .seed = (uint64_t)players * 11};
        foh_game *g = foh_game_new(eng, &opt, &err);
        assert_non_null(g);
        log_count lc = {0};
        foh_game_set_log(g, count_line, &lc);
        foh_player *seats[8];
        for (int p = 0; p < players; p++)
            seats[p] = p % 3 == 0   ? foh_bot_random_new(foh_seed_for(1, (uint64_t)p))
                       : p % 3 == 1 ? foh_bot_greedy_new(foh_seed_for(2, (uint64_t)p))
                                    : foh_bot_ismcts_new(foh_seed_for(3, (uint64_t)p), 20, 0);
        long steps = 0;
        assert_int_equal(foh_match_play(g, seats, NULL, 0, &steps, &err), FOH_OK);
        assert_true(foh_game_is_over(g));
        assert_true(steps >= players); /* at least one round */
        assert_true(lc.scored >= 1);   /* a round's scoring event was logged */
        double results[8], sum = 0;
        assert_int_equal(foh_game_results(g, results, &err), FOH_OK);
        for (int p = 0; p < players; p++)
            sum += results[p];
        assert_true(sum > 0.999 && sum < 1.001);
        for (int p = 0; p < players; p++)
            seats[p]->free(seats[p]);
        foh_game_free(g);
    }
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

/* Greedy beats random more often than not: the ruleset's evaluation is
 * what the bot uses. */
static void test_greedy_uses_the_toys_evaluation(void **state)
{
    (void)state;
    foh_cardset *cs = toy_cards();
    foh_error err = {0};
    foh_engine *eng = foh_engine_new(cs, &err);
    double greedy = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        foh_options opt = {.players = 2, .seed = seed};
        foh_game *g = foh_game_new(eng, &opt, &err);
        foh_player *seats[2] = {foh_bot_greedy_new(seed), foh_bot_random_new(seed)};
        assert_int_equal(foh_match_play(g, seats, NULL, 0, NULL, &err), FOH_OK);
        double r[2];
        assert_int_equal(foh_game_results(g, r, &err), FOH_OK);
        greedy += r[0];
        seats[0]->free(seats[0]);
        seats[1]->free(seats[1]);
        foh_game_free(g);
    }
    assert_true(greedy > 220); /* of 400 (245 seen: 61%; random play would win about 200) */
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

/* A determinization for player 0 keeps player 0's hand (the legal actions)
 * and deals the others' hands again from what player 0 cannot see. */
static void test_determinize_from_one_view(void **state)
{
    (void)state;
    foh_cardset *cs = toy_cards();
    foh_error err = {0};
    foh_engine *eng = foh_engine_new(cs, &err);
    foh_options opt = {.players = 4, .seed = 5};
    foh_game *g = foh_game_new(eng, &opt, &err), *h = foh_game_clone(g);
    int changed = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        foh_game_copy(h, g);
        foh_game_determinize(h, 0, seed);
        foh_action a[8], b[8];
        int na = foh_game_legal_actions(g, a, 8, &err), nb = foh_game_legal_actions(h, b, 8, &err);
        assert_int_equal(na, nb);
        for (int i = 0; i < na; i++)
            assert_int_equal(a[i].card, b[i].card);
        changed += foh_game_digest(h) != foh_game_digest(g);
    }
    assert_true(changed >= 19);
    /* Player 0 sees their own hand, not player 1's. */
    char seen[1024], other[1024];
    foh_game_observe(g, 0, seen, sizeof seen);
    foh_game_observe(g, 1, other, sizeof other);
    assert_non_null(strstr(seen, "you: P1\nround: 1 of 6"));
    assert_string_not_equal(strstr(seen, "hand:"), strstr(other, "hand:"));
    /* The same seed, the same game. */
    foh_game *again = foh_game_new(eng, &opt, &err);
    assert_true(foh_game_digest(again) == foh_game_digest(g));
    foh_game_free(again);
    foh_game_free(h);
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

static void test_illegal_and_bad_counts_refused(void **state)
{
    (void)state;
    foh_cardset *cs = toy_cards();
    foh_error err = {0};
    foh_engine *eng = foh_engine_new(cs, &err);
    foh_options opt = {.players = 9, .seed = 1};
    assert_null(foh_game_new(eng, &opt, &err));
    assert_non_null(strstr(err.msg, "2 to 8 players"));
    opt.players = 2;
    foh_game *g = foh_game_new(eng, &opt, &err);
    uint64_t before = foh_game_digest(g);
    foh_action bad = {.kind = 0, .card = 999, .tokens = 0, .option = -1};
    assert_int_equal(foh_game_apply(g, &bad, &err), FOH_ERR_ILLEGAL);
    assert_true(foh_game_digest(g) == before); /* nothing applied */
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

/* The score breakdown of both rulesets: the first line is what ranks. */
static void test_score_lines(void **state)
{
    (void)state;
    const char *sets[2] = {TOY_CARDS, BASE_CARDS}, *first[2] = {"Victory Tokens", "VP"};
    for (int k = 0; k < 2; k++) {
        foh_error err = {0};
        foh_cardset *cs = foh_cardset_load(sets[k], &err);
        assert_non_null(cs);
        foh_engine *eng = foh_engine_new(cs, &err);
        foh_options opt = {.players = 3, .seed = 8};
        foh_game *g = foh_game_new(eng, &opt, &err);
        foh_player *seats[3] = {foh_bot_greedy_new(1), foh_bot_greedy_new(2), foh_bot_random_new(3)};
        assert_int_equal(foh_match_play(g, seats, NULL, 0, NULL, &err), FOH_OK);
        double r[3], best = -1;
        assert_int_equal(foh_game_results(g, r, &err), FOH_OK);
        int winner = 0;
        for (int p = 0; p < 3; p++) {
            foh_score_line lines[8];
            int n = foh_game_score_lines(g, p, lines, 8, &err);
            assert_true(n >= 2);
            assert_string_equal(lines[0].label, first[k]);
            if (lines[0].value > best) {
                best = lines[0].value;
                winner = p;
            }
        }
        assert_true(r[winner] > 0); /* the most of the first line wins, or shares */
        foh_score_line one;
        assert_int_equal(foh_game_score_lines(g, 3, &one, 1, &err), -1); /* no player 4 */
        for (int p = 0; p < 3; p++)
            seats[p]->free(seats[p]);
        foh_game_free(g);
        foh_engine_free(eng);
        foh_cardset_free(cs);
    }
}

/* Every legal action of both rulesets, along a game, has an id that gives
 * it back; ids of different legal actions differ. */
static void test_action_ids(void **state)
{
    (void)state;
    const char *sets[2] = {TOY_CARDS, BASE_CARDS};
    for (int k = 0; k < 2; k++) {
        foh_error err = {0};
        foh_cardset *cs = foh_cardset_load(sets[k], &err);
        foh_engine *eng = foh_engine_new(cs, &err);
        foh_options opt = {.players = 3, .seed = 4};
        foh_game *g = foh_game_new(eng, &opt, &err);
        foh_player *bot = foh_bot_random_new(9);
        foh_action legal[512];
        int64_t ids[512];
        for (int step = 0; step < 60 && !foh_game_is_over(g); step++) {
            int n = foh_game_legal_actions(g, legal, 512, &err);
            assert_true(n >= 1 && n <= 512);
            for (int i = 0; i < n; i++) {
                foh_action back;
                assert_int_equal(foh_action_id(&legal[i], &ids[i]), FOH_OK);
                assert_int_equal(foh_action_from_id(ids[i], &back), 0);
                assert_int_equal(back.kind, legal[i].kind);
                assert_int_equal(back.card, legal[i].card);
                assert_int_equal(back.tokens, legal[i].tokens);
                assert_int_equal(back.option, legal[i].option);
                for (int j = 0; j < i; j++)
                    assert_true(ids[j] != ids[i]);
            }
            int pick = bot->decide(bot, g, legal, n, NULL, 0, &err);
            assert_int_equal(foh_game_apply(g, &legal[pick], &err), FOH_OK);
        }
        foh_action bad = {.kind = 0, .card = 5000, .tokens = 0, .option = -1}, none;
        int64_t id = 7;
        assert_int_equal(foh_action_id(&bad, &id), FOH_ERR_USAGE);
        assert_true(id == 7);
        assert_int_equal(foh_action_from_id(-1, &none), -1);
        bot->free(bot);
        foh_game_free(g);
        foh_engine_free(eng);
        foh_cardset_free(cs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_finds_the_toy),
        cmocka_unit_test(test_bots_play_every_player_count),
        cmocka_unit_test(test_greedy_uses_the_toys_evaluation),
        cmocka_unit_test(test_determinize_from_one_view),
        cmocka_unit_test(test_illegal_and_bad_counts_refused),
        cmocka_unit_test(test_score_lines),
        cmocka_unit_test(test_action_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

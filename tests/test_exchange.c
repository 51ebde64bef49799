/* Exchanges inside one card effect (issue 28): tests/data/exchange's cards
 * have the player who gains them and the next player answer "reinforce" or
 * "stop" in turn, round after round, while both reinforce. A 100-round
 * exchange is 200 choices in one action, each answer re-running the action
 * with the answers so far: played to the end with scripted answers, random
 * answers and the greedy bot's; copies of a game paused inside one play on
 * the same; past the engine's limit on choices in one action (1,024) the
 * answer is refused, naming the card and the limit, and the game is left
 * as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define LIMIT 1024 /* FOH_MAX_ANSWERS (core/rulesets/flow/rules/internal.h) */
enum { REINFORCE, STOP };

static foh_cardset *cs;
static foh_engine *eng;

static int setup(void **state)
{
    (void)state;
    foh_error err;
    cs = foh_cardset_load(FOH_TEST_EXCHANGE, &err);
    if (!cs)
        fail_msg("loading %s: %s", FOH_TEST_EXCHANGE, err.msg);
    eng = foh_engine_new(cs, &err);
    if (!eng)
        fail_msg("creating an engine: %s", err.msg);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    foh_engine_free(eng);
    foh_cardset_free(cs);
    return 0;
}

/* A log held whole (t_collect_log's T_LOG_SIZE is less than 200 answers). */
#define LOG_SIZE 65536
static void collect(void *ud, const char *line)
{
    char *log = ud;
    size_t len = strlen(log);
    if (len + strlen(line) + 2 > LOG_SIZE)
        fail_msg("the log is longer than %d bytes", LOG_SIZE);
    snprintf(log + len, LOG_SIZE - len, "%s\n", line);
}

/* A 3-player game where P1 Completes CARD (invested 2 of its 5 tokens) and
 * the exchange starts: its first choice pending. With LOG (LOG_SIZE bytes)
 * the game keeps its log there. */
static foh_game *start(const char *card, char *log)
{
    foh_error err;
    foh_options opt = {.players = 3, .seed = 5};
    foh_game *g = foh_game_new(eng, &opt, &err);
    assert_non_null(g);
    int c = foh_cardset_find(cs, card);
    assert_true(c >= 0);
    assert_int_equal(foh_position_clear(g, 0, &err), FOH_OK);
    assert_int_equal(foh_position_put(g, c, FOH_ZONE_MARKET, -1, &err), FOH_OK);
    assert_int_equal(foh_position_set_tokens(g, 0, 5, &err), FOH_OK);
    assert_int_equal(foh_position_set_tokens(g, 1, 4, &err), FOH_OK);
    assert_int_equal(foh_position_invest(g, 0, c, 2, &err), FOH_OK);
    if (log) {
        log[0] = '\0';
        foh_game_set_log(g, collect, log);
    }
    foh_action a = {.kind = FOH_ACT_COMPLETE, .card = -1, .tokens = 0, .option = -1};
    if (foh_game_apply(g, &a, &err) != FOH_OK)
        fail_msg("completing %s: %s", card, err.msg);
    return g;
}

/* Answer the pending choice, which must be answer number K (0-based) of
 * the exchange: P1 answers the even ones, P2 the odd ones. */
static void answer(foh_game *g, int k, int option)
{
    const foh_choice *ch = foh_game_choice(g);
    if (!ch)
        fail_msg("answer %d: no choice pending", k + 1);
    assert_int_equal(ch->player, k % 2);
    assert_int_equal(ch->n, 2);
    assert_string_equal(ch->label[REINFORCE], "reinforce");
    assert_string_equal(ch->label[STOP], "stop");
    assert_string_equal(ch->prompt, k % 2 ? "exchange: answer" : "exchange: reinforce or stop");
    foh_error err;
    foh_action a = {.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = option};
    if (foh_game_apply(g, &a, &err) != FOH_OK)
        fail_msg("answer %d: %s", k + 1, err.msg);
}

/* What an exchange of at most MAX rounds comes to, by the card's text:
 * the rounds both reinforced; P1 takes that many tokens, P2 as many if P1
 * stopped. Returns how many answers it takes. */
static int model(const int *answers, int n, int max, int *rounds, int *p1, int *p2)
{
    int k = 0, stopper = -1;
    *rounds = 0;
    while (*rounds < max && k < n) {
        if (answers[k++] == STOP) {
            stopper = 0;
            break;
        }
        if (k >= n)
            break;
        if (answers[k++] == STOP) {
            stopper = 1;
            break;
        }
        ++*rounds;
    }
    *p1 = *rounds;
    *p2 = stopper == 0 ? *rounds : 0;
    return k;
}

/* P1's and P2's tokens after an exchange ending at once (P1 stops). */
static void tokens_before(int *p1, int *p2)
{
    foh_game *g = start("war_of_attrition", NULL);
    answer(g, 0, STOP);
    assert_null(foh_game_choice(g));
    *p1 = foh_game_tokens(g, 0);
    *p2 = foh_game_tokens(g, 1);
    foh_game_free(g);
}

/* Play ANSWERS (N of them, the whole exchange) on a new game of
 * war_of_attrition and check the outcome against the model. */
static void play(const int *answers, int n, int want_rounds, char *log)
{
    int b1, b2, rounds, t1, t2;
    tokens_before(&b1, &b2);
    assert_int_equal(model(answers, n, 100, &rounds, &t1, &t2), n);
    assert_int_equal(rounds, want_rounds);
    foh_game *g = start("war_of_attrition", log);
    for (int k = 0; k < n; k++)
        answer(g, k, answers[k]);
    assert_null(foh_game_choice(g));
    assert_int_equal(foh_game_current_player(g), 1); /* the turn is over */
    assert_int_equal(foh_game_tokens(g, 0), b1 + t1);
    assert_int_equal(foh_game_tokens(g, 1), b2 + t2);
    assert_int_equal(foh_game_card_zone(g, foh_cardset_find(cs, "war_of_attrition"), NULL), FOH_ZONE_NATION);
    if (log) {
        char line[64];
        snprintf(line, sizeof line, "The exchange lasts %d rounds\n", rounds);
        if (!strstr(log, line))
            fail_msg("no line '%s' in the log:\n%s", line, log);
    }
    t_invariants(g);
    foh_game_free(g);
}

/* Scripted: 100 rounds both reinforcing (200 answers, the exchange ends at
 * its limit of rounds), P1 stopping in round 38, P2 in round 60. */
static void test_scripted_exchanges(void **state)
{
    (void)state;
    int answers[200];
    static char log[LOG_SIZE];
    for (int k = 0; k < 200; k++)
        answers[k] = REINFORCE;
    play(answers, 200, 100, log);
    /* The log of the action holds every answer, in order. */
    const char *at = log;
    for (int k = 0; k < 200; k++) {
        char line[80];
        snprintf(line, sizeof line, "  P%d chooses reinforce (%s)\n", k % 2 + 1,
                 k % 2 ? "exchange: answer" : "exchange: reinforce or stop");
        const char *next = strstr(at, line);
        if (!next)
            fail_msg("answer %d is not in the log after the previous one:\n%s", k + 1, log);
        at = next + strlen(line);
    }
    answers[74] = STOP;
    play(answers, 75, 37, NULL);
    answers[74] = REINFORCE;
    answers[119] = STOP;
    play(answers, 120, 59, NULL);
}

/* Random answers, reinforcing 99 times in 100 (some exchanges reach their
 * 100 rounds, others end on either player's stop), checked against the
 * model. */
static void test_random_exchanges(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    int full = 0, stopped[2] = {0, 0};
    for (int game = 0; game < 24; game++) {
        int answers[200], n = 0, rounds, t1, t2;
        for (int k = 0; k < 200; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            answers[k] = x % 100 == 0 ? STOP : REINFORCE;
        }
        /* The answers the exchange takes: up to the first stop. */
        n = model(answers, 200, 100, &rounds, &t1, &t2);
        if (rounds == 100)
            full++;
        else
            stopped[(n - 1) % 2]++;
        play(answers, n, rounds, NULL);
    }
    assert_true(full > 0);
    assert_true(stopped[0] > 0 && stopped[1] > 0);
}

/* The random bot answers every choice (and so stops soon), then the game
 * is played to its end by random bots; and the greedy bot answers a whole
 * exchange, P1's answers and P2's. */
static void test_bots_answer(void **state)
{
    (void)state;
    foh_error err;
    foh_player *random = foh_bot_random_new(3), *greedy = foh_bot_greedy_new(3);
    for (int which = 0; which < 2; which++) {
        foh_player *bot = which ? greedy : random;
        int b1, b2;
        tokens_before(&b1, &b2);
        foh_game *g = start("war_of_attrition", NULL);
        int given[200], n = 0;
        while (foh_game_choice(g)) {
            assert_true(n < 200);
            foh_action legal[FOH_MAX_OPTIONS];
            int nl = foh_game_legal_actions(g, legal, FOH_MAX_OPTIONS, &err);
            assert_int_equal(nl, 2);
            int pick = bot->decide(bot, g, legal, nl, NULL, 0, &err);
            if (pick < 0)
                fail_msg("%s, answer %d: %s", bot->name, n + 1, err.msg);
            given[n] = legal[pick].option;
            answer(g, n++, legal[pick].option);
        }
        int rounds, t1, t2;
        assert_int_equal(model(given, n, 100, &rounds, &t1, &t2), n);
        assert_int_equal(foh_game_tokens(g, 0), b1 + t1);
        assert_int_equal(foh_game_tokens(g, 1), b2 + t2);
        int cap = 0;
        foh_action *legal = NULL;
        for (int step = 0; step < 100000 && !foh_game_is_over(g); step++) {
            int nl = foh_game_legal_actions(g, legal, cap, &err);
            if (nl > cap) { /* Invest amounts: one per token held */
                legal = realloc(legal, (size_t)(cap = nl) * sizeof *legal);
                assert_non_null(legal);
                nl = foh_game_legal_actions(g, legal, cap, &err);
            }
            assert_true(nl > 0 && nl <= cap);
            int pick = random->decide(random, g, legal, nl, NULL, 0, &err);
            assert_true(pick >= 0);
            assert_int_equal(foh_game_apply(g, &legal[pick], &err), FOH_OK);
        }
        free(legal);
        assert_true(foh_game_is_over(g));
        foh_game_free(g);
    }
    foh_player_free(random);
    foh_player_free(greedy);
}

/* A game paused inside an exchange, cloned or copied (over a game holding
 * more answers, and over one holding none), plays on exactly as the
 * original: same digests at every answer, same outcome. */
static void test_copies_inside_an_exchange(void **state)
{
    (void)state;
    foh_game *g = start("war_of_attrition", NULL);
    foh_game *more = start("war_of_attrition", NULL), *none = start("war_of_attrition", NULL);
    for (int k = 0; k < 150; k++)
        answer(more, k, REINFORCE);
    answer(none, 0, STOP);
    assert_null(foh_game_choice(none));
    for (int k = 0; k < 77; k++)
        answer(g, k, REINFORCE);
    foh_game *clone = foh_game_clone(g);
    assert_non_null(clone);
    foh_game_copy(more, g);
    foh_game_copy(none, g);
    foh_game *all[] = {g, clone, more, none};
    for (int k = 77; k < 200; k++) {
        for (int i = 0; i < 4; i++)
            answer(all[i], k, k == 160 ? STOP : REINFORCE);
        if (k == 160)
            break;
        for (int i = 1; i < 4; i++)
            assert_true(foh_game_digest(all[i]) == foh_game_digest(g));
    }
    for (int i = 0; i < 4; i++) {
        assert_null(foh_game_choice(all[i]));
        assert_true(foh_game_digest(all[i]) == foh_game_digest(g));
        assert_int_equal(foh_game_tokens(all[i], 0), foh_game_tokens(g, 0));
        assert_int_equal(foh_game_tokens(all[i], 1), foh_game_tokens(g, 1));
    }
    /* And a finished game copied over a paused one is a finished game. */
    foh_game *paused = start("war_of_attrition", NULL);
    for (int k = 0; k < 31; k++)
        answer(paused, k, REINFORCE);
    foh_game_copy(paused, g);
    assert_null(foh_game_choice(paused));
    assert_true(foh_game_digest(paused) == foh_game_digest(g));
    for (int i = 0; i < 4; i++)
        foh_game_free(all[i]);
    foh_game_free(paused);
}

/* Past the engine's limit: the answer whose re-run would ask choice
 * LIMIT + 1 is refused, naming the card and the limit, and the game stays
 * paused where it was; a stop then ends the exchange. */
static void test_past_the_limit(void **state)
{
    (void)state;
    foh_error err;
    foh_game *g = start("endless_war", NULL);
    for (int k = 0; k < LIMIT - 1; k++)
        answer(g, k, REINFORCE);
    const foh_choice *ch = foh_game_choice(g);
    assert_non_null(ch);
    assert_int_equal(ch->player, 1); /* answer LIMIT is P2's */
    uint64_t before = foh_game_digest(g);
    foh_action a = {.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = REINFORCE};
    assert_int_equal(foh_game_apply(g, &a, &err), FOH_ERR_SCRIPT);
    char limit[80];
    snprintf(limit, sizeof limit, "more than %d choices in one action (the engine's limit)", LIMIT);
    if (!strstr(err.msg, "card 'endless_war'") || !strstr(err.msg, limit))
        fail_msg("the card or '%s' not in: %s", limit, err.msg);
    assert_true(foh_game_digest(g) == before);
    ch = foh_game_choice(g);
    assert_non_null(ch);
    assert_int_equal(ch->player, 1);
    int b1 = foh_game_tokens(g, 0);
    answer(g, LIMIT - 1, STOP); /* P2 stops: 511 rounds */
    assert_null(foh_game_choice(g));
    assert_int_equal(foh_game_tokens(g, 0), b1 + (LIMIT - 2) / 2);
    t_invariants(g);
    foh_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scripted_exchanges),
        cmocka_unit_test(test_random_exchanges),
        cmocka_unit_test(test_bots_answer),
        cmocka_unit_test(test_copies_inside_an_exchange),
        cmocka_unit_test(test_past_the_limit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

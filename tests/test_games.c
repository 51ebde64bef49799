/* Whole games: 1,000 seeded random games each with 3, 4 and 5 players end,
 * with the invariants holding after every applied decision; a copy taken
 * mid-game and continued with the same actions ends identical; the same
 * seed gives the same game; score breakdowns add up; a game moved onto a
 * new load of its card set (foh_game_rebind) plays on, or is refused; the
 * cards a decision placed (foh_game_placed_since) are those a scan finds;
 * the grouped listing stands for the full one at every decision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#define GAMES 1000
#define MAX_DECISIONS 20000

typedef struct {
    foh_action a[MAX_DECISIONS];
    long n;
} action_log;

/* foh_game_placed_since(G, SINCE) lists what a scan of every card's
 * placement number finds, and says how many when the room is short. */
static void check_placed_since(const foh_game *g, long since)
{
    int want[FOH_MAX_CARDS], nwant = 0, got[FOH_MAX_CARDS];
    for (int c = 0; c < foh_cardset_card_count(foh_game_cardset(g)); c++)
        if (foh_game_card_placement(g, c) >= since)
            want[nwant++] = c;
    assert_int_equal(foh_game_placed_since(g, since, got, FOH_MAX_CARDS), nwant);
    for (int i = 0; i < nwant; i++)
        assert_int_equal(got[i], want[i]);
    assert_int_equal(foh_game_placed_since(g, since, got, 0), nwant);
    assert_int_equal(foh_game_placed_since(g, foh_game_placements(g), got, FOH_MAX_CARDS), 0);
}

/* The grouped listing (foh_game_legal_grouped) stands for exactly the full
 * one (the N actions LEGAL), in order; what does not fit is counted. */
static void check_grouped(foh_game *g, const foh_action *legal, int n)
{
    foh_action grouped[256], a;
    int nlegal = -2, m = foh_game_legal_grouped(g, grouped, 256, &nlegal, NULL);
    assert_true(m >= 1 && m <= 256 && m <= n);
    assert_int_equal(nlegal, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(foh_legal_ungroup(grouped, m, i, &a), 0);
        assert_memory_equal(&a, &legal[i], sizeof a);
    }
    assert_int_equal(foh_legal_ungroup(grouped, m, n, &a), -1);
    assert_int_equal(foh_legal_ungroup(grouped, m, -1, &a), -1);
    nlegal = -2;
    assert_int_equal(foh_game_legal_grouped(g, grouped, 0, &nlegal, NULL), m);
    assert_int_equal(nlegal, n);
}

/* Play one game with random bots; when COPY_AT >= 0, clone the game after
 * that many decisions and replay the rest of the actions on the clone. */
static uint64_t play_on(foh_engine *eng, int players, uint64_t seed, long copy_at, action_log *log)
{
    foh_error err;
    foh_options opt = {.players = players, .seed = seed};
    foh_game *g = foh_game_new(eng, &opt, &err);
    assert_non_null(g);
    t_invariants(g);
    foh_player *seats[FOH_MAX_PLAYERS];
    for (int p = 0; p < players; p++)
        seats[p] = foh_bot_random_new(foh_seed_for(seed, 1000 + (uint64_t)p));
    foh_game *copy = NULL;
    long copied_from = 0;
    foh_action *legal = NULL;
    int cap = 0;
    log->n = 0;
    while (!foh_game_is_over(g)) {
        if (log->n == copy_at) {
            copy = foh_game_clone(g);
            copied_from = log->n;
        }
        assert_true(log->n < MAX_DECISIONS);
        int n = foh_match_legal(g, &legal, &cap, NULL);
        assert_true(n >= 1);
        check_grouped(g, legal, n);
        int who = foh_game_to_act(g);
        int pick = seats[who]->decide(seats[who], g, legal, n, NULL, 0, NULL);
        long since = foh_game_placements(g);
        if (foh_game_apply(g, &legal[pick], &err) != FOH_OK)
            fail_msg("seed %llu decision %ld: %s", (unsigned long long)seed, log->n, err.msg);
        t_invariants(g);
        check_placed_since(g, since);
        log->a[log->n++] = legal[pick];
    }
    free(legal);
    /* The Future ended the game: it left the deck. */
    const foh_cardset *cs = foh_engine_cardset(eng);
    assert_int_not_equal(foh_game_card_zone(g, foh_cardset_find(cs, "the_future"), NULL), FOH_ZONE_DECK);

    foh_score sc[FOH_MAX_PLAYERS];
    assert_int_equal(foh_game_score(g, sc, NULL, &err), FOH_OK);
    int winners = 0;
    for (int p = 0; p < players; p++) {
        int end_vp = 0;
        for (int k = 0; k < sc[p].n_end; k++)
            end_vp += sc[p].end[k].full_vp;
        assert_int_equal(sc[p].other_vp, sc[p].other_icons / 2);
        assert_int_equal(sc[p].total, sc[p].culture_vp + sc[p].other_vp + end_vp);
        winners += sc[p].winner;
    }
    assert_true(winners >= 1);

    if (copy) {
        for (long i = copied_from; i < log->n; i++)
            if (foh_game_apply(copy, &log->a[i], &err) != FOH_OK)
                fail_msg("copy, decision %ld: %s", i, err.msg);
        assert_true(foh_game_is_over(copy));
        assert_true(foh_game_digest(copy) == foh_game_digest(g));
        foh_game_free(copy);
    }
    uint64_t digest = foh_game_digest(g);
    for (int p = 0; p < players; p++)
        foh_player_free(seats[p]);
    foh_game_free(g);
    return digest;
}

static uint64_t play(int players, uint64_t seed, long copy_at, action_log *log)
{
    return play_on(t_engine(), players, seed, copy_at, log);
}

static void many_games(int players)
{
    action_log *log = malloc(sizeof *log);
    assert_non_null(log);
    for (int i = 0; i < GAMES; i++)
        play(players, foh_seed_for(100 + (uint64_t)players, (uint64_t)i), (i * 37) % 150, log);
    free(log);
}

static void test_3_players(void **state)
{
    (void)state;
    many_games(3);
}
static void test_4_players(void **state)
{
    (void)state;
    many_games(4);
}
static void test_5_players(void **state)
{
    (void)state;
    many_games(5);
}

/* The platform's 8 players (issue 28), on the test set
 * tests/data/eight-players (the base set for 3 to 8 players, two more
 * starting cards): games of 6, 7 and 8 random players, checked as above.
 * And a neutral marker's number is past every player's: in an 8-player
 * game of a set with neutral markers, P7 (player 6, the neutral markers'
 * number when games had 6 players at most) invests, P8 Snipes the card
 * and P7 is paid, as a player; a neutral marker's card stays its own. */
static void test_eight_players(void **state)
{
    (void)state;
    const char *eight[] = {FOH_TEST_EIGHT}, *search[] = {FOH_TEST_CARDS "/.."};
    foh_error err;
    foh_cardset *cs = foh_cardset_load_sets(eight, 1, NULL, 0, search, 1, &err);
    if (!cs)
        fail_msg("%s", err.msg);
    assert_int_equal(foh_cardset_max_players(cs), 8);
    foh_engine *eng = foh_engine_new(cs, &err);
    assert_non_null(eng);
    action_log *log = malloc(sizeof *log);
    assert_non_null(log);
    for (int players = 6; players <= FOH_MAX_PLAYERS; players++)
        for (int i = 0; i < 4; i++)
            play_on(eng, players, foh_seed_for(800 + (uint64_t)players, (uint64_t)i), i * 41, log);
    free(log);
    foh_engine_free(eng);
    foh_cardset_free(cs);

    const char *neutral = t_cardset_dir("eight-neutral", "game.yaml",
                                        "name: eight players, two neutral markers\n"
                                        "setup: {neutral_investors: 2}\n",
                                        NULL);
    const char *sets[] = {FOH_TEST_EIGHT, neutral};
    cs = foh_cardset_load_sets(sets, 2, NULL, 0, search, 1, &err);
    if (!cs)
        fail_msg("%s", err.msg);
    eng = foh_engine_new(cs, &err);
    assert_non_null(eng);
    foh_options opt = {.players = 8, .seed = 3};
    foh_game *g = foh_game_new(eng, &opt, &err);
    assert_non_null(g);
    assert_int_equal(foh_position_clear(g, 7, &err), FOH_OK);
    int a = foh_cardset_find(cs, "warriors"), b = foh_cardset_find(cs, "barracks");
    assert_int_equal(foh_position_put(g, a, FOH_ZONE_MARKET, -1, &err), FOH_OK);
    assert_int_equal(foh_position_put(g, b, FOH_ZONE_MARKET, -1, &err), FOH_OK);
    assert_int_equal(foh_position_invest(g, 6, a, 2, &err), FOH_OK);
    assert_int_equal(foh_position_invest(g, FOH_NEUTRAL_INVESTOR, b, 1, &err), FOH_OK);
    assert_int_equal(foh_position_set_tokens(g, 7, 5, &err), FOH_OK);
    t_invariants(g);
    assert_int_equal(foh_game_investor(g, a), 6);
    assert_int_equal(foh_game_investment(g, 6), a);
    assert_int_equal(foh_game_investor(g, b), FOH_NEUTRAL_INVESTOR);
    assert_int_equal(foh_game_neutral_investment(g, 0), b);
    int before = foh_game_tokens(g, 6);
    foh_action snipe = {.kind = FOH_ACT_SNIPE, .card = a, .tokens = 0, .option = -1};
    if (foh_game_apply(g, &snipe, &err) != FOH_OK)
        fail_msg("P8 sniping P7's card: %s", err.msg);
    t_invariants(g);
    assert_true(foh_game_tokens(g, 6) >= before + 2); /* the price, then the Trade step and the Supply's share */
    assert_int_equal(foh_game_investment(g, 6), -1);
    assert_int_equal(foh_game_neutral_investment(g, 0), b);
    assert_int_equal(foh_game_investor(g, b), FOH_NEUTRAL_INVESTOR);
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

static void test_same_seed_same_game(void **state)
{
    (void)state;
    action_log *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_true(a && b);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        uint64_t da = play(4, seed, -1, a), db = play(4, seed, -1, b);
        assert_true(da == db);
        assert_int_equal(a->n, b->n);
    }
    assert_true(play(4, 1, -1, a) != play(4, 2, -1, b));
    free(a);
    free(b);
}

/* Whole games under variants: set-up choices, bonus actions, neutral
 * investors and hooks keep every invariant, and copies stay identical. */
static void variant_games(const char *const *variants, int nvariants, int players, int games)
{
    const char *dirs[8];
    char buf[8][512];
    for (int i = 0; i < nvariants; i++) {
        snprintf(buf[i], sizeof buf[i], "%s/%s", FOH_TEST_VARIANTS, variants[i]);
        dirs[i] = buf[i];
    }
    foh_error err;
    foh_cardset *cs = foh_cardset_load_variants(FOH_TEST_CARDS, dirs, nvariants, &err);
    if (!cs)
        fail_msg("%s", err.msg);
    foh_engine *eng = foh_engine_new(cs, &err);
    assert_non_null(eng);
    action_log *log = malloc(sizeof *log);
    assert_non_null(log);
    for (int i = 0; i < games; i++)
        play_on(eng, players, foh_seed_for(500, (uint64_t)i), (i * 13) % 60, log);
    free(log);
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

static void test_two_player_banker_games(void **state)
{
    (void)state;
    const char *v[] = {"two-player-banker"};
    variant_games(v, 1, 2, 500);
}

static void test_korean_edition_and_house_rules_games(void **state)
{
    (void)state;
    const char *v[] = {"korean-edition", "repeat-age-check", "culture-2vp", "market-6"};
    variant_games(v, 4, 4, 300);
}

/* Set-up: 5 cards in the Market (6 with 5 players), 4 tokens each, the rest
 * in the Reserve, the deck ends with The Internet and The Future. */
static void test_setup(void **state)
{
    (void)state;
    for (int players = 3; players <= 5; players++) {
        foh_options opt = {.players = players, .seed = 99};
        foh_game *g = foh_game_new(t_engine(), &opt, NULL);
        assert_non_null(g);
        assert_int_equal(foh_game_market_size(g), players == 5 ? 6 : 5);
        for (int p = 0; p < players; p++)
            assert_int_equal(foh_game_tokens(g, p), 4);
        assert_int_equal(foh_game_supply(g), 0);
        assert_int_equal(foh_game_reserve(g), 72 - 4 * players);
        int n = foh_game_deck_size(g);
        assert_int_equal(foh_game_deck_card(g, n - 1), t_card("the_future"));
        assert_int_equal(foh_game_deck_card(g, n - 2), t_card("the_internet"));
        /* Age I on top, then II ... V. */
        const foh_cardset *cs = t_cards();
        int last = 0;
        for (int i = 0; i < n - 2; i++) {
            foh_card_info ci;
            foh_cardset_card(cs, foh_game_deck_card(g, i), &ci);
            assert_true(ci.age_value >= last && ci.age_value >= 1);
            last = ci.age_value;
        }
        foh_game_free(g);
    }
    foh_options bad = {.players = 2, .seed = 1};
    foh_error err;
    assert_null(foh_game_new(t_engine(), &bad, &err));
    assert_int_equal(err.code, FOH_ERR_USAGE);
}

/* ---- foh_game_rebind: a game moved onto a new load of its card set ---- */

static const char *const CARD_FILES[] = {"1-age-S.yaml",  "2-age-A.yaml",  "3-age-I.yaml", "4-age-II.yaml",
                                         "5-age-III.yaml", "6-age-IV.yaml", "7-age-V.yaml"};
#define NFILES (int)(sizeof CARD_FILES / sizeof CARD_FILES[0])

/* TEXT with every FROM replaced by TO (malloc'd). */
static char *replaced(const char *text, const char *from, const char *to)
{
    size_t n = 0, lf = strlen(from), lt = strlen(to);
    for (const char *p = text; (p = strstr(p, from)); p += lf)
        n++;
    char *out = malloc(strlen(text) + n * (lt > lf ? lt - lf : 0) + 1), *w = out;
    assert_non_null(out);
    for (const char *p = text, *q; *p; p = q + lf) {
        if (!(q = strstr(p, from))) {
            strcpy(w, p);
            return out;
        }
        memcpy(w, p, (size_t)(q - p));
        w += q - p;
        memcpy(w, to, lt);
        w += lt;
    }
    *w = '\0';
    return out;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    text[len] = '\0';
    fclose(f);
    return text;
}

/* The base card set in /tmp/foh-test-PID-TAG, with every FROM replaced by
 * TO in the card file FILE (all of them when NULL, game.yaml when
 * "game.yaml"), and card files A and B swapped (-1: none); its game.yaml
 * is the base one with the script's path made absolute. Loaded, with an
 * engine in *ENG (NULL and the error in ERR if the load failed). */
static foh_cardset *edited(const char *tag, const char *file, const char *from, const char *to, int a, int b,
                           foh_engine **eng)
{
    char path[600], *text[NFILES + 1];
    for (int i = 0; i <= NFILES; i++) {
        snprintf(path, sizeof path, "%s/%s", FOH_TEST_CARDS, i < NFILES ? CARD_FILES[i] : "game.yaml");
        char *raw = slurp(path);
        if (i == NFILES) { /* game.yaml's scripts, absolute */
            char *scripts = strstr(raw, "scripts:"), *end = strchr(scripts, '\n');
            char line[400];
            snprintf(line, sizeof line, "%.*s", (int)(end - scripts), scripts);
            char abs_line[400];
            snprintf(abs_line, sizeof abs_line, "scripts: [%s/effects.lua]", FOH_TEST_SCRIPTS);
            char *fixed = replaced(raw, line, abs_line);
            free(raw);
            raw = fixed;
        }
        const char *name = i < NFILES ? CARD_FILES[i] : "game.yaml";
        text[i] = from && (!file || !strcmp(file, name)) && (file || i < NFILES) ? replaced(raw, from, to) : raw;
        if (text[i] != raw)
            free(raw);
    }
    if (a >= 0) {
        char *t = text[a];
        text[a] = text[b];
        text[b] = t;
    }
    const char *dir = t_cardset_dir(tag, CARD_FILES[0], text[0], CARD_FILES[1], text[1], CARD_FILES[2], text[2],
                                    CARD_FILES[3], text[3], CARD_FILES[4], text[4], CARD_FILES[5], text[5],
                                    CARD_FILES[6], text[6], "game.yaml", text[NFILES], (const char *)NULL);
    for (int i = 0; i <= NFILES; i++)
        free(text[i]);
    foh_error err;
    foh_cardset *cs = foh_cardset_load(dir, &err);
    if (!cs)
        fail_msg("%s: %s", tag, err.msg);
    if (!(*eng = foh_engine_new(cs, &err)))
        fail_msg("%s: %s", tag, err.msg);
    for (int i = 0; i <= NFILES; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, i < NFILES ? CARD_FILES[i] : "game.yaml");
        unlink(path);
    }
    rmdir(dir);
    return cs;
}

/* Refused: G stays on OLD, as it was, with a message containing WANT. */
static void expect_refused(foh_game *g, const foh_cardset *old, const char *tag, const char *file, const char *from,
                           const char *to, int a, int b, const char *want)
{
    foh_engine *eng;
    foh_cardset *cs = edited(tag, file, from, to, a, b, &eng);
    uint64_t digest = foh_game_digest(g);
    foh_error err = {0};
    assert_int_equal(foh_game_rebind(g, eng, &err), FOH_ERR_DATA);
    if (!strstr(err.msg, want))
        fail_msg("%s: '%s' lacks '%s'", tag, err.msg, want);
    assert_ptr_equal(foh_game_cardset(g), old);
    assert_true(foh_game_digest(g) == digest);
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

static void test_rebind(void **state)
{
    (void)state;
    foh_engine *eng;
    foh_cardset *cs = edited("rebind-0", NULL, NULL, NULL, -1, -1, &eng);
    foh_error err;
    foh_options opt = {.players = 3, .seed = 11};
    foh_game *g = foh_game_new(eng, &opt, &err);
    assert_non_null(g);
    foh_player *seats[3];
    for (int p = 0; p < 3; p++)
        seats[p] = foh_bot_random_new((uint64_t)p);
    foh_match m;
    foh_match_init(&m, g, seats, NULL, 0);
    while (foh_game_choice(g) || foh_game_in_bonus(g) || m.steps < 12)
        assert_int_equal(foh_match_step(&m, &err), FOH_OK);
    /* Two construction cards from the deck in P1's Nation, for the Leader
     * test below. */
    for (int i = 0, put = 0; put < 2; i++) {
        foh_card_info ci;
        int c = foh_game_deck_card(g, i);
        assert_true(c >= 0);
        foh_cardset_card(cs, c, &ci);
        if (!strcmp(ci.type, "construction")) {
            assert_int_equal(foh_position_put(g, c, FOH_ZONE_NATION, 0, &err), FOH_OK);
            put++;
            i--; /* the deck closed up */
        }
    }
    t_invariants(g);

    /* Refused, naming what changed; the game stays as it was. */
    expect_refused(g, cs, "rebind-new", "3-age-I.yaml", "id: aristotle", "id: aristoteles", -1, -1,
                   "card 'aristoteles' is new (");
    expect_refused(g, cs, "rebind-order", NULL, NULL, NULL, 2, 3, "the cards' order changed: card ");
    expect_refused(g, cs, "rebind-icons", "game.yaml", "icons: [attack,", "icons: [wealth, attack,", -1, -1,
                   "game.yaml: icon 1 was 'attack', is now 'wealth'");
    expect_refused(g, cs, "rebind-leader", NULL, "type: construction", "type: leader", -1, -1,
                   "does not fit the new card set (invariant: P1 has more than one leader)");

    /* The same files again: the game is the same, on the new engine. */
    uint64_t digest = foh_game_digest(g);
    foh_engine *again;
    foh_cardset *cs2 = edited("rebind-same", NULL, NULL, NULL, -1, -1, &again);
    assert_int_equal(foh_game_rebind(g, again, &err), FOH_OK);
    assert_ptr_equal(foh_game_cardset(g), cs2);
    assert_true(foh_game_digest(g) == digest);
    foh_engine_free(eng);
    foh_cardset_free(cs);

    /* The starting governments made age V: the Nations' index counts them
     * under their new age, so the Current Age is V at once. */
    int before = foh_game_current_age(g);
    assert_true(before < 5);
    foh_cardset *cs3 = edited("rebind-age", "1-age-S.yaml", "age: S", "age: V", -1, -1, &eng);
    assert_int_equal(foh_game_rebind(g, eng, &err), FOH_OK);
    assert_int_equal(foh_game_current_age(g), 5);
    t_invariants(g);
    foh_engine_free(again);
    foh_cardset_free(cs2);
    /* And plays on to the end on it (the invariants after every action in
     * test builds). */
    assert_int_equal(foh_match_run(&m, 0, &err), FOH_OK);
    assert_true(foh_game_is_over(g));
    t_invariants(g);
    foh_match_free(&m);
    for (int p = 0; p < 3; p++)
        foh_player_free(seats[p]);
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_same_seed_same_game),
        cmocka_unit_test(test_3_players),
        cmocka_unit_test(test_4_players),
        cmocka_unit_test(test_5_players),
        cmocka_unit_test(test_eight_players),
        cmocka_unit_test(test_two_player_banker_games),
        cmocka_unit_test(test_korean_edition_and_house_rules_games),
        cmocka_unit_test(test_rebind),
    };
    return cmocka_run_group_tests(tests, NULL, t_teardown);
}

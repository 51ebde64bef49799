/* The memo of icon counts and scores (core/rulesets/flow/rules/memo.h): a remembered result is
 * reused only when what it read is unchanged. Each test scores (or counts)
 * a position on one engine, changes what an effect reads, and checks the
 * new result against a fresh engine, which remembers nothing: other
 * players' Nations, tokens, the order of a pile, a counting effect reading
 * a rival, and the rule coverage that scenarios rely on. */
#include <string.h>

#include "support.h"

#define P1 0
#define P2 1

/* Three starting governments, then the cards under test (age I). */
static const char CARDS[] =
    "- id: s1\n  name: S1\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s2\n  name: S2\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s3\n  name: S3\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    /* End Game: 1 Culture per card in player 2's Nation (another Nation). */
    "- id: per_rival\n  name: Per Rival\n  age: I\n  type: wonder\n  timing: end_game\n  stripe: {}\n  text: x\n"
    "  effect: |\n    return { end_game = function(p) return { culture = #game.nation(2) } end }\n"
    /* End Game: 1 Culture per token held (not a Nation: never reused). */
    "- id: per_token\n  name: Per Token\n  age: I\n  type: wonder\n  timing: end_game\n  stripe: {}\n  text: x\n"
    "  effect: |\n    return { end_game = function(p) return { culture = game.tokens(p) } end }\n"
    /* End Game: 5 Culture if the oldest knowledge card is k1 (pile order). */
    "- id: oldest\n  name: Oldest\n  age: I\n  type: wonder\n  timing: end_game\n  stripe: {}\n  text: x\n"
    "  effect: |\n"
    "    return { end_game = function(p)\n"
    "      local pile = game.nation(p, 'knowledge')\n"
    "      return { culture = pile[1] == 'k1' and 5 or 0 }\n"
    "    end }\n"
    "- id: k1\n  name: K1\n  age: I\n  type: knowledge\n  timing: none\n  stripe: {science: 1}\n  text: x\n"
    "- id: k2\n  name: K2\n  age: I\n  type: knowledge\n  timing: none\n  stripe: {science: 1}\n  text: x\n"
    "- id: k3\n  name: K3\n  age: I\n  type: knowledge\n  timing: none\n  stripe: {science: 1}\n  text: x\n"
    /* Counting Permanent: 1 Attack per military card of player 2. */
    "- id: mirror\n  name: Mirror\n  age: I\n  type: construction\n  timing: permanent\n  stripe: {}\n  text: x\n"
    "  effect: |\n"
    "    return { reads = {}, gives = { 'attack' },\n"
    "      provides = function(p) return { attack = game.count(2, 'military') } end }\n"
    "- id: m1\n  name: M1\n  age: I\n  type: military\n  timing: none\n  stripe: {defense: 1}\n  text: x\n"
    "- id: m2\n  name: M2\n  age: I\n  type: military\n  timing: none\n  stripe: {defense: 1}\n  text: x\n";

typedef struct {
    foh_cardset *cs;
    foh_engine *memo;  /* the engine that remembers across the test */
} fixture;

static int setup(void **state)
{
    static fixture f;
    foh_error err;
    const char *dir = t_cardset_dir("memo", "cards.yaml", CARDS, (const char *)NULL);
    if (!(f.cs = foh_cardset_load(dir, &err)))
        fail_msg("%s", err.msg);
    if (!(f.memo = foh_engine_new(f.cs, &err)))
        fail_msg("%s", err.msg);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    if (!f)
        return 0;
    foh_engine_free(f->memo);
    foh_cardset_free(f->cs);
    return 0;
}

static int card(const fixture *f, const char *id)
{
    int c = foh_cardset_find(f->cs, id);
    if (c < 0)
        fail_msg("no card %s", id);
    return c;
}

/* A cleared 3-player game on engine E. */
static foh_game *empty(foh_engine *e)
{
    foh_error err;
    foh_options opt = {.players = 3, .seed = 3};
    foh_game *g = foh_game_new(e, &opt, &err);
    if (!g || foh_position_clear(g, P1, &err) != FOH_OK)
        fail_msg("%s", err.msg);
    return g;
}

static void put(const fixture *f, foh_game *g, int player, const char *id)
{
    foh_error err;
    if (foh_position_put(g, card(f, id), FOH_ZONE_NATION, player, &err) != FOH_OK)
        fail_msg("%s", err.msg);
}

/* P's score on G's engine, checked against a fresh engine's score of the
 * same position. */
static int score(const fixture *f, foh_game *g, int p)
{
    foh_error err;
    foh_score mine, fresh;
    if (foh_game_score_player(g, p, &mine, &err) != FOH_OK)
        fail_msg("%s", err.msg);
    foh_engine *e = foh_engine_new(f->cs, &err);
    foh_game *copy = foh_game_clone(g);
    if (!e || !copy || foh_game_rebind(copy, e, &err) != FOH_OK ||
        foh_game_score_player(copy, p, &fresh, &err) != FOH_OK)
        fail_msg("fresh engine: %s", err.msg);
    assert_int_equal(mine.total, fresh.total);
    assert_int_equal(mine.culture_icons, fresh.culture_icons);
    foh_game_free(copy);
    foh_engine_free(e);
    return mine.total;
}

/* An End Game effect reading another player's Nation sees it change. */
static void test_other_nation(void **state)
{
    fixture *f = *state;
    foh_game *g = empty(f->memo);
    put(f, g, P1, "per_rival");
    put(f, g, P2, "m1");
    assert_int_equal(score(f, g, P1), 1);
    assert_int_equal(score(f, g, P1), 1); /* remembered */
    put(f, g, P2, "k1");
    assert_int_equal(score(f, g, P1), 2);
    foh_game_free(g);
}

/* One reading tokens is computed every time. */
static void test_tokens(void **state)
{
    fixture *f = *state;
    foh_game *g = empty(f->memo);
    put(f, g, P1, "per_token");
    foh_position_set_tokens(g, P1, 3, NULL);
    assert_int_equal(score(f, g, P1), 3);
    foh_position_set_tokens(g, P1, 7, NULL);
    assert_int_equal(score(f, g, P1), 7);
    foh_game_free(g);
}

/* The same cards in another order are another Nation. */
static void test_pile_order(void **state)
{
    fixture *f = *state;
    foh_game *a = empty(f->memo), *b = empty(f->memo);
    const char *first[] = {"oldest", "k1", "k2", "k3"}, *second[] = {"oldest", "k2", "k1", "k3"};
    for (int i = 0; i < 4; i++) {
        put(f, a, P1, first[i]);
        put(f, b, P1, second[i]);
    }
    /* Same cards, same top (k3); k1 is the oldest only in A. */
    int sa = score(f, a, P1), sb = score(f, b, P1);
    assert_int_equal(sa - sb, 5);
    foh_game_free(a);
    foh_game_free(b);
}

/* A counting Permanent effect reading a rival's Nation: icon counts and
 * military strength follow the rival's cards. */
static void test_counting_reads_rival(void **state)
{
    fixture *f = *state;
    foh_game *g = empty(f->memo);
    put(f, g, P1, "mirror");
    int attack = foh_cardset_icon_find(f->cs, "attack");
    assert_true(attack >= 0);
    assert_int_equal(foh_game_icons(g, P1, attack), 0);
    put(f, g, P2, "m1");
    assert_int_equal(foh_game_icons(g, P1, attack), 1);
    assert_int_equal(foh_game_strength(g, P1, 0), 1);
    put(f, g, P2, "m2");
    assert_int_equal(foh_game_icons(g, P1, attack), 2);
    assert_int_equal(foh_game_strength(g, P1, 0), 2);
    foh_game_free(g);
}

/* A reused result still notes its cards' rules as exercised (scenario
 * coverage clears the notes before a scenario and reads them after). */
static void test_exercised(void **state)
{
    fixture *f = *state;
    foh_game *g = empty(f->memo);
    put(f, g, P1, "per_rival");
    score(f, g, P1);
    assert_int_equal(foh_engine_exercised(f->memo, card(f, "per_rival")), 1);
    foh_engine_exercised_clear(f->memo);
    assert_int_equal(foh_engine_exercised(f->memo, card(f, "per_rival")), 0);
    score(f, g, P1); /* remembered */
    assert_int_equal(foh_engine_exercised(f->memo, card(f, "per_rival")), 1);
    foh_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_nation),
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_pile_order),
        cmocka_unit_test(test_counting_reads_rival),
        cmocka_unit_test(test_exercised),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

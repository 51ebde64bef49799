/* Card effects (Lua) through the engine: attacks and military strength,
 * Mahatma Gandhi, Genghis Khan, Attack All, Communism, counting Permanent
 * effects, The Future drawn by an effect, Turn Action costs. */
#include <string.h>

#include "support.h"

#define P1 0
#define P2 1
#define P3 2

static int zone(foh_game *g, const char *id) { return (int)foh_game_card_zone(g, t_card(id), NULL); }

/* P1 completes CARD (invested with 1 token). */
static void complete(foh_game *g, const char *card)
{
    t_market(g, card);
    foh_error err;
    if (foh_position_invest(g, P1, t_card(card), 1, &err) != FOH_OK)
        fail_msg("%s", err.msg);
    foh_position_set_current(g, P1, NULL);
    t_apply(g, t_act(FOH_ACT_COMPLETE, NULL, 0), FOH_OK);
}

/* Equal strength is not weaker: no attack (default ruling 5). */
static void test_attack_needs_strictly_weaker(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "military_caste"); /* attack 1; with Warriors 2 */
    t_nation(g, P2, "barracks");       /* attack 1 + defense 1 = 2 */
    t_nation(g, P3, "archers");        /* attack 1 + defense 2 = 3 */
    t_tokens(g, P2, 5);
    t_tokens(g, P3, 5);
    complete(g, "warriors");
    assert_null(foh_game_choice(g));
    assert_int_equal(foh_game_tokens(g, P2), 5);
    assert_int_equal(foh_game_tokens(g, P3), 5);
    t_invariants(g);
    foh_game_free(g);
}

/* Mahatma Gandhi: its owner is not affected by attacks... */
static void test_gandhi_is_immune(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "military_caste");
    t_nation(g, P2, "mahatma_gandhi");
    t_tokens(g, P2, 5);
    t_tokens(g, P3, 5);
    complete(g, "warriors"); /* P2 is immune, so P3 is the only target */
    assert_null(foh_game_choice(g));
    assert_int_equal(foh_game_tokens(g, P2), 5);
    assert_int_equal(foh_game_tokens(g, P3), 3);
    assert_int_equal(foh_game_tokens(g, P1), 2);
    foh_game_free(g);
}

/* ... and does not activate its own attacks. */
static void test_gandhi_owner_does_not_attack(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "military_caste");
    t_nation(g, P1, "mahatma_gandhi");
    t_tokens(g, P2, 5);
    t_tokens(g, P3, 5);
    complete(g, "warriors");
    assert_int_equal(foh_game_tokens(g, P2), 5);
    assert_int_equal(foh_game_tokens(g, P3), 5);
    assert_true(foh_game_effect_fired(g, t_card("warriors")));
    foh_game_free(g);
}

/* Genghis Khan: 2 tokens from the Supply per attack, what is there if
 * fewer, whatever the result. */
static void test_genghis_khan(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "genghis_khan"); /* attack 2 */
    t_nation(g, P2, "archers");      /* strength 3: not weaker than 3 */
    t_nation(g, P3, "archers");
    foh_position_put(g, t_card("archers"), FOH_ZONE_BOX, -1, NULL);
    t_nation(g, P3, "crossbowmen"); /* strength 1 + 2 = 3 */
    t_nation(g, P2, "archers");
    complete(g, "warriors"); /* Supply 1 (the invested token), no target */
    assert_int_equal(foh_game_tokens(g, P1), 1);
    assert_int_equal(foh_game_supply(g), 0);
    foh_game_free(g);
}

/* Attack All hits every weaker opponent; revealing the card below. */
static void test_attack_all(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P2, "aristocracy");
    t_nation(g, P2, "republic");
    t_nation(g, P3, "religious_tribe");
    complete(g, "napoleon_bonaparte"); /* strength 2 against 0 and 0 */
    assert_int_equal(zone(g, "republic"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "religious_tribe"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "aristocracy"), FOH_ZONE_NATION);
    assert_true(foh_game_card_visible(g, t_card("aristocracy")));
    t_invariants(g);
    foh_game_free(g);

    g = t_empty_game(3, P1);
    t_nation(g, P1, "factory"); /* attack 3 + 2 */
    t_nation(g, P2, "lighthouse");
    t_nation(g, P2, "astronomy");
    t_nation(g, P3, "the_pyramids");
    t_nation(g, P3, "the_great_wall"); /* defense 2 */
    complete(g, "fighter_jet");        /* both tops of P2; P3 has none */
    assert_int_equal(zone(g, "lighthouse"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "astronomy"), FOH_ZONE_REMOVED);
    foh_game_free(g);

    g = t_empty_game(3, P1);
    t_nation(g, P1, "factory");
    t_nation(g, P2, "the_pyramids");
    t_nation(g, P2, "angkor_wat");
    t_nation(g, P3, "the_hanging_gardens");
    complete(g, "manhattan_project"); /* P2 chooses nothing: P1 picks a Wonder */
    const foh_choice *ch = foh_game_choice(g);
    assert_non_null(ch);
    assert_int_equal(ch->player, P1);
    t_apply(g, t_choose(t_option(g, "Angkor Wat")), FOH_OK);
    assert_int_equal(zone(g, "angkor_wat"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "the_pyramids"), FOH_ZONE_NATION);
    assert_int_equal(zone(g, "the_hanging_gardens"), FOH_ZONE_REMOVED);
    foh_game_free(g);
}

/* Communism: tokens in Nations go to the Supply and are shared equally;
 * the remainder and tokens under Market cards stay (default ruling 11). */
static void test_communism(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_tokens(g, P1, 1);
    t_tokens(g, P2, 7);
    t_tokens(g, P3, 3);
    t_tokens(g, -1, 2);
    t_market(g, "temple");
    foh_position_invest(g, P3, t_card("temple"), 2, NULL);
    complete(g, "communism"); /* Supply 2 + 1 invested + 1 + 7 + 3 = 14 */
    for (int p = 0; p < 3; p++)
        assert_int_equal(foh_game_tokens(g, p), 4);
    assert_int_equal(foh_game_supply(g), 2);
    assert_int_equal(foh_game_invested_tokens(g, t_card("temple")), 2);
    t_invariants(g);
    foh_game_free(g);
}

/* FAQ Q2: Printing Press with 4 Science icons and 3 tokens in the Supply. */
static void test_printing_press_takes_what_is_there(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "aristocracy");   /* science 1 */
    t_nation(g, P1, "lighthouse");    /* + 1 */
    t_tokens(g, -1, 2);               /* + 1 invested = 3 */
    int reserve = foh_game_reserve(g);
    complete(g, "printing_press");    /* bonus 2 (2 Science before gaining); then 4 Science */
    /* The investor bonus (2 Science before gaining) came first: 3 - 2 = 1 left. */
    assert_int_equal(foh_game_tokens(g, P1), 3);
    assert_int_equal(foh_game_supply(g), 0);
    assert_int_equal(foh_game_reserve(g), reserve - 1); /* only the set-up's invested token */
    foh_game_free(g);
}

/* Counting Permanent effects: per card and per icon. */
static void test_counting_effects(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    int attack = t_icon("attack"), defense = t_icon("defense");
    t_nation(g, P1, "theocracy"); /* 2 Attack per Wonder */
    assert_int_equal(foh_game_icons(g, P1, attack), 0);
    t_nation(g, P1, "the_pyramids");
    t_nation(g, P1, "the_great_wall");
    assert_int_equal(foh_game_icons(g, P1, attack), 4);
    t_nation(g, P1, "feudalism"); /* covers Theocracy: 1 Defense per Harvest (2) */
    assert_int_equal(foh_game_icons(g, P1, attack), 0);
    assert_int_equal(foh_game_icons(g, P1, defense), 2 + 2);
    foh_game_free(g);
}

/* Christopher Columbus draws The Future: the game ends after this turn and
 * The Future is never placed in a Nation (default ruling 8). */
static void test_the_future_drawn_by_an_effect(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "christopher_columbus");
    t_deck(g, "the_future");
    t_apply(g, t_act(FOH_ACT_ACTIVATE, "christopher_columbus", 0), FOH_OK);
    assert_true(foh_game_is_over(g));
    assert_int_equal(zone(g, "christopher_columbus"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "the_future"), FOH_ZONE_REMOVED);
    assert_int_equal(foh_game_to_act(g), -1);
    foh_action legal[4];
    assert_int_equal(foh_game_legal_actions(g, legal, 4, NULL), 0);
    foh_game_free(g);
}

/* John Lennon needs a Military card to discard; then gains any card. */
static void test_john_lennon(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "john_lennon");
    t_market(g, "the_taj_mahal");
    t_market(g, "temple");
    foh_action legal[64];
    int n = foh_game_legal_actions(g, legal, 64, NULL);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(legal[i].kind, FOH_ACT_ACTIVATE);
    t_nation(g, P1, "warriors");
    t_apply(g, t_act(FOH_ACT_ACTIVATE, "john_lennon", 0), FOH_OK);
    t_apply(g, t_choose(t_option(g, "The Taj Mahal")), FOH_OK);
    assert_int_equal(zone(g, "warriors"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "the_taj_mahal"), FOH_ZONE_NATION);
    foh_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attack_needs_strictly_weaker),
        cmocka_unit_test(test_gandhi_is_immune),
        cmocka_unit_test(test_gandhi_owner_does_not_attack),
        cmocka_unit_test(test_genghis_khan),
        cmocka_unit_test(test_attack_all),
        cmocka_unit_test(test_communism),
        cmocka_unit_test(test_printing_press_takes_what_is_there),
        cmocka_unit_test(test_counting_effects),
        cmocka_unit_test(test_the_future_drawn_by_an_effect),
        cmocka_unit_test(test_john_lennon),
    };
    return cmocka_run_group_tests(tests, NULL, t_teardown);
}

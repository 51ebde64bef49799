/* Card data: the base set equals the reference table field by field, and
 * bad card data or scripts are refused with file, line and card. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* Split LINE at tabs into at most N fields (in place). */
static int split_tabs(char *line, char **f, int n)
{
    int k = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; k < n;) {
        f[k++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    return k;
}

static void test_matches_reference_table(void **state)
{
    (void)state;
    foh_cardset *cs = t_cards();
    FILE *f = fopen(FOH_TEST_TSV, "r");
    assert_non_null(f);
    char line[4096], *col[9] = {0};
    assert_non_null(fgets(line, sizeof line, f)); /* header */
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        assert_int_equal(split_tabs(line, col, 9), 9);
        foh_card_info ci;
        int c = foh_cardset_find(cs, col[0]);
        if (c < 0)
            fail_msg("card '%s' of the reference table is missing", col[0]);
        assert_int_equal(foh_cardset_card(cs, c, &ci), FOH_OK);
        assert_int_equal(c, rows); /* same order as the table */
        assert_string_equal(ci.name, col[1]);
        assert_string_equal(ci.age, col[2]);
        assert_string_equal(ci.type, col[3]);
        assert_string_equal(ci.timing, col[4]);
        assert_int_equal(ci.obsolete, strcmp(col[5], "yes") == 0);
        int want[FOH_MAX_ICONS] = {0};
        for (char *save = NULL, *kv = strtok_r(col[6], ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
            char *colon = strchr(kv, ':');
            assert_non_null(colon);
            *colon = '\0';
            want[t_icon(kv)] = atoi(colon + 1);
        }
        for (int i = 0; i < FOH_MAX_ICONS; i++)
            if (ci.stripe[i] != want[i])
                fail_msg("%s: stripe %s is %d, the table says %d", ci.id, foh_cardset_icon_name(cs, i),
                         ci.stripe[i], want[i]);
        assert_string_equal(ci.stripe_source, "reconstructed");
        assert_string_equal(ci.text, col[7]);
        assert_string_equal(ci.edition_note, col[8]);
        rows++;
    }
    fclose(f);
    assert_int_equal(rows, 67);
    assert_int_equal(foh_cardset_card_count(cs), 67);
}

static void test_vocabulary_is_data(void **state)
{
    (void)state;
    foh_cardset *cs = t_cards();
    assert_int_equal(foh_cardset_icon_count(cs), 7);
    assert_int_equal(foh_cardset_type_count(cs), 7);
    assert_int_equal(foh_cardset_min_players(cs), 3);
    assert_int_equal(foh_cardset_max_players(cs), 5);
    assert_int_equal(foh_cardset_tokens_in_box(cs), 72);
}

/* Load a card set made of FILE (the cards) and expect an error containing
 * every string of WANT (NULL-terminated). */
static void expect_refused(const char *tag, const char *cards_yaml, ...)
{
    const char *dir = t_cardset_dir(tag, "cards.yaml", cards_yaml, (const char *)NULL);
    foh_error err = {0};
    foh_cardset *cs = foh_cardset_load(dir, &err);
    if (cs)
        fail_msg("%s: the card set was accepted", tag);
    assert_int_equal(err.code, FOH_ERR_DATA);
    va_list ap;
    va_start(ap, cards_yaml);
    for (const char *w; (w = va_arg(ap, const char *));)
        if (!strstr(err.msg, w))
            fail_msg("%s: message '%s' lacks '%s'", tag, err.msg, w);
    va_end(ap);
}

#define CARD_HEAD "- id: c1\n  name: C1\n  age: A\n  type: construction\n"

static void test_bad_data_is_refused_with_file_and_line(void **state)
{
    (void)state;
    expect_refused("dup", CARD_HEAD "  timing: none\n  stripe: {}\n  text: x\n  text: y\n", "cards.yaml:8:",
                   "duplicate key 'text'", NULL);
    expect_refused("alias", CARD_HEAD "  timing: none\n  stripe: &s {}\n  text: x\n", "cards.yaml:6:", "anchors",
                   NULL);
    expect_refused("alias2", "- &a {id: c1}\n- *a\n", "cards.yaml:1:", "anchors", NULL);
    expect_refused("field", CARD_HEAD "  timing: none\n  stripe: {}\n  text: x\n  colour: red\n", "cards.yaml:8:",
                   "card 'c1'", "unknown field 'colour'", NULL);
    expect_refused("icon", CARD_HEAD "  timing: none\n  stripe: {gold: 1}\n  text: x\n", "cards.yaml:6:",
                   "unknown icon 'gold'", NULL);
    expect_refused("type", "- id: c1\n  name: C1\n  age: A\n  type: spaceship\n  timing: none\n  stripe: {}\n  text: x\n",
                   "cards.yaml:4:", "unknown card type 'spaceship'", NULL);
    expect_refused("age", "- id: c1\n  name: C1\n  age: VI\n  type: wonder\n  timing: none\n  stripe: {}\n  text: x\n",
                   "cards.yaml:3:", "unknown age 'VI'", NULL);
    /* text, timing and stripe have defaults; name, age and type do not. */
    expect_refused("missing", "- id: c1\n  name: C1\n  age: A\n", "cards.yaml:1:", "missing field 'type'", NULL);
    expect_refused("noeffect", CARD_HEAD "  timing: instant\n  stripe: {}\n  text: x\n", "card 'c1'",
                   "needs an 'effect'", NULL);
    expect_refused("syntax", CARD_HEAD "  timing: instant\n  stripe: {}\n  text: x\n  effect: |\n    return {\n      on_gain = function(p) game.log('x' end,\n    }\n",
                   "cards.yaml:10:", "card 'c1'", NULL);
    expect_refused("runtime", CARD_HEAD "  timing: instant\n  stripe: {}\n  text: x\n  effect: |\n    local t = nil\n    return t.x\n",
                   "cards.yaml:10:", "card 'c1'", "nil", NULL);
    expect_refused("hook", CARD_HEAD "  timing: instant\n  stripe: {}\n  text: x\n  effect: return { activate = function() end }\n",
                   "cards.yaml:8:", "needs a function 'on_gain'", NULL);
    expect_refused("provides", CARD_HEAD "  timing: permanent\n  stripe: {}\n  text: x\n  effect: return provide { gold = 1 }\n",
                   "cards.yaml:8:", "unknown icon 'gold'", NULL);
    expect_refused("cycle",
                   CARD_HEAD "  timing: permanent\n  stripe: {}\n  text: x\n  effect: return provide_per_icon('defense', 1, 'trade')\n"
                             "- id: c2\n  name: C2\n  age: A\n  type: wonder\n  timing: permanent\n  stripe: {}\n  text: y\n"
                             "  effect: return provide_per_icon('trade', 1, 'defense')\n",
                   "cycle", NULL);
    expect_refused("twice", CARD_HEAD "  timing: none\n  stripe: {}\n  text: x\n" CARD_HEAD
                            "  timing: none\n  stripe: {}\n  text: x\n",
                   "cards.yaml:8:", "defined twice", NULL);

    char deep[400] = "- id: c1\n  x: ";
    for (int i = 0; i < 40; i++)
        strcat(deep, "[");
    for (int i = 0; i < 40; i++)
        strcat(deep, "]");
    strcat(deep, "\n");
    expect_refused("deep", deep, "cards.yaml:2:", "nesting deeper", NULL);
    expect_refused("syntaxyaml", "- id: c1\n  name: [unclosed\n", "cards.yaml:", "YAML syntax error", NULL);
}

/* A card set with cards whose effects misbehave at run time. */
static const char HOSTILE[] =
    "- id: s1\n  name: S1\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s2\n  name: S2\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s3\n  name: S3\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: boom\n  name: Boom\n  age: A\n  type: knowledge\n  timing: instant\n  stripe: {}\n  text: fails late\n"
    "  effect: |\n"
    "    return { on_gain = function(p)\n"
    "      game.take_from_reserve(p, 3)\n"
    "      error('boom after moving tokens')\n"
    "    end }\n"
    "- id: spin\n  name: Spin\n  age: A\n  type: military\n  timing: instant\n  stripe: {}\n  text: loops\n"
    "  effect: |\n"
    "    return { on_gain = function(p) while true do end end }\n";

static void test_script_errors_leave_the_game_unchanged(void **state)
{
    (void)state;
    const char *dir = t_cardset_dir("hostile", "cards.yaml", HOSTILE, (const char *)NULL);
    foh_error err = {0};
    foh_cardset *cs = foh_cardset_load(dir, &err);
    if (!cs)
        fail_msg("%s", err.msg);
    foh_engine *eng = foh_engine_new(cs, &err);
    assert_non_null(eng);
    foh_options opt = {.players = 3, .seed = 3};
    foh_game *g = foh_game_new(eng, &opt, &err);
    assert_non_null(g);
    const char *ids[] = {"boom", "spin"};
    for (int k = 0; k < 2; k++) {
        int card = foh_cardset_find(cs, ids[k]);
        foh_action invest = {.kind = FOH_ACT_INVEST, .card = card, .tokens = 1, .option = -1};
        assert_int_equal(foh_game_apply(g, &invest, &err), FOH_OK);
        /* Everyone else harvests until the investor's turn comes again. */
        while (foh_game_current_player(g) != foh_game_investor(g, card)) {
            foh_action h = {.kind = FOH_ACT_HARVEST, .card = -1, .tokens = 0, .option = -1};
            assert_int_equal(foh_game_apply(g, &h, &err), FOH_OK);
        }
        uint64_t before = foh_game_digest(g);
        foh_action complete = {.kind = FOH_ACT_COMPLETE, .card = -1, .tokens = 0, .option = -1};
        assert_int_equal(foh_game_apply(g, &complete, &err), FOH_ERR_SCRIPT);
        assert_non_null(strstr(err.msg, ids[k]));
        assert_non_null(strstr(err.msg, k == 0 ? "cards.yaml:32:" : "instruction limit"));
        assert_true(foh_game_digest(g) == before);
        t_invariants(g);
        /* The engine still works: another action goes through. */
        foh_action h = {.kind = FOH_ACT_HARVEST, .card = -1, .tokens = 0, .option = -1};
        assert_int_equal(foh_game_apply(g, &h, &err), FOH_OK);
    }
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_reference_table),
        cmocka_unit_test(test_vocabulary_is_data),
        cmocka_unit_test(test_bad_data_is_refused_with_file_and_line),
        cmocka_unit_test(test_script_errors_leave_the_game_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, t_teardown);
}

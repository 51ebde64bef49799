/* Card effects (Lua) through the engine: attacks and military strength,
 * Mahatma Gandhi, Genghis Khan, Attack All, Communism, counting Permanent
 * effects, The Future drawn by an effect, Turn Action costs; game.active_with
 * and its cache; game.log with a format; the Lua allocator's blocks. */
#include <malloc.h>
#include <stdio.h>
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

/* ---- game.active_with and its per-engine cache of effect fields ---- */

#define LONG_FIELD "a_field_name_far_longer_than_the_cache_keeps_for_one_field_x"

/* Cards whose effect tables carry fields (fa, fb, fc: Permanent, in this
 * card-set order: Wonders, always visible; fd a Knowledge card, visible
 * only on top of its stack), and probes (Instant) whose on_gain checks
 * game.active_with against what it should answer; a wrong answer is a
 * script error naming the field, the answer and the expected one. fc has
 * 20 more fields f1..f20: asked for, they overflow the cache (16 fields),
 * so fields past it take the uncached path. */
static const char ACTIVE_WITH_CARDS[] =
    "- id: s1\n  name: S1\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s2\n  name: S2\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: s3\n  name: S3\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
    "- id: fa\n  name: Fa\n  age: I\n  type: wonder\n  timing: permanent\n  stripe: {}\n  text: x\n"
    "  effect: return { provides = {}, flag_a = true, flag_c = 0, " LONG_FIELD " = true }\n"
    "- id: fb\n  name: Fb\n  age: I\n  type: wonder\n  timing: permanent\n  stripe: {}\n  text: x\n"
    "  effect: return { provides = {}, flag_a = false, flag_b = 'yes' }\n"
    "- id: fc\n  name: Fc\n  age: I\n  type: wonder\n  timing: permanent\n  stripe: {}\n  text: x\n"
    "  effect: |\n"
    "    local t = { provides = {}, flag_a = true, flag_b = true }\n"
    "    for i = 1, 20 do t['f' .. i] = true end\n"
    "    return t\n"
    "- id: fd\n  name: Fd\n  age: I\n  type: knowledge\n  timing: permanent\n  stripe: {}\n  text: x\n"
    "  effect: return { provides = {}, flag_a = true }\n"
    "- id: fe\n  name: Fe\n  age: I\n  type: knowledge\n  timing: permanent\n  stripe: {}\n  text: x\n"
    "  effect: return { provides = {} }\n"
    "- id: fr\n  name: Fr\n  age: I\n  type: wonder\n  timing: permanent\n  stripe: {}\n  text: x\n"
    "  effect: return { provides = {}, on = { attacked = function() end } }\n"
    "- id: probe1\n  name: Probe1\n  age: A\n  type: wonder\n  timing: instant\n  stripe: {}\n  text: x\n"
    "  effect: |\n"
    "    local function expect(p, field, want)\n"
    "      local got = {}\n"
    "      for _, id in ipairs(game.active_with(p, field)) do got[#got + 1] = id end\n"
    "      got = table.concat(got, ',')\n"
    "      if got ~= want then error(field .. ' of P' .. p .. ': [' .. got .. '], not [' .. want .. ']') end\n"
    "      if game.has_active(p, field) ~= (want ~= '') then error('has_active ' .. field .. ' of P' .. p) end\n"
    "    end\n"
    "    return { on_gain = function()\n"
    "      expect(1, 'flag_a', 'fa,fc') expect(2, 'flag_a', '') expect(3, 'flag_a', '')\n"
    "      expect(1, 'flag_b', 'fb,fc') expect(2, 'flag_b', '') expect(1, 'flag_c', 'fa')\n"
    "      expect(1, 'nothing', '') expect(1, '" LONG_FIELD "', 'fa') expect(2, '" LONG_FIELD "', '')\n"
    "      for i = 1, 20 do expect(1, 'f' .. i, 'fc') expect(3, 'f' .. i, '') end\n"
    "      expect(1, 'flag' .. '_a', 'fa,fc') expect(3, 'flag_b', '')\n"
    "      if game.reacts('attack') or not game.reacts('attacked') or game.reacts('gain') then error('reacts') end\n"
    "    end }\n"
    "- id: probe2\n  name: Probe2\n  age: A\n  type: wonder\n  timing: instant\n  stripe: {}\n  text: x\n"
    "  effect: |\n"
    "    local function expect(p, field, want)\n"
    "      local got = {}\n"
    "      for _, id in ipairs(game.active_with(p, field)) do got[#got + 1] = id end\n"
    "      got = table.concat(got, ',')\n"
    "      if got ~= want then error(field .. ' of P' .. p .. ': [' .. got .. '], not [' .. want .. ']') end\n"
    "      if game.has_active(p, field) ~= (want ~= '') then error('has_active ' .. field .. ' of P' .. p) end\n"
    "    end\n"
    "    return { on_gain = function()\n"
    "      expect(1, 'flag_a', 'fd') expect(2, 'flag_a', 'fa,fc') expect(3, 'flag_a', '')\n"
    "      expect(1, 'flag_b', 'fb') expect(2, 'flag_b', 'fc') expect(2, 'flag_c', 'fa')\n"
    "      expect(2, '" LONG_FIELD "', 'fa') expect(1, '" LONG_FIELD "', '')\n"
    "      for i = 1, 20 do expect(1, 'f' .. i, '') expect(2, 'f' .. i, 'fc') expect(3, 'f' .. i, '') end\n"
    "    end }\n"
    "- id: probe3\n  name: Probe3\n  age: A\n  type: wonder\n  timing: instant\n  stripe: {}\n  text: x\n"
    "  effect: return { on_gain = function(p) game.active_with(p, 'nothing')[1] = 'fa' end }\n"
    "- id: probe4\n  name: Probe4\n  age: A\n  type: wonder\n  timing: instant\n  stripe: {}\n  text: x\n"
    "  effect: return { on_gain = function() game.reacts('nope') end }\n";

/* An engine on the card set whose cards.yaml is CARDS (folder TAG, the base
 * game.yaml), the set in *CS; fails the test if either cannot be made. */
static foh_engine *cards_engine(const char *tag, const char *cards, foh_cardset **cs)
{
    foh_error err = {0};
    *cs = foh_cardset_load(t_cardset_dir(tag, "cards.yaml", cards, (const char *)NULL), &err);
    if (!*cs)
        fail_msg("%s", err.msg);
    foh_engine *e = foh_engine_new(*cs, &err);
    if (!e)
        fail_msg("%s", err.msg);
    return e;
}

/* game.active_with answers from the cache what the effect tables say, for
 * each Nation, on a second game of the same engine (the cache filled by
 * the first) as on the first; past the cache's 16 fields and for a name
 * too long to keep, too (and game.has_active the same). Its empty answer is
 * read-only. And game.reacts. */
static void test_active_with(void **state)
{
    (void)state;
    foh_error err = {0};
    foh_cardset *cs;
    foh_engine *e = cards_engine("active_with", ACTIVE_WITH_CARDS, &cs);
        /* fd (knowledge) is covered by fe in the first game, on top in the second. */
    static const char *const first[3][5] = {{"s1", "fa", "fb", "fc", NULL}, {"s2", NULL}, {"s3", "fd", "fe", NULL}};
    static const char *const second[3][5] = {{"s1", "fb", "fd", NULL}, {"s2", "fa", "fc", NULL}, {"s3", "fe", NULL}};
    for (int round = 0; round < 2; round++) {
        if (t_complete(e, first, foh_cardset_find(cs, "probe1"), NULL, NULL, &err) != FOH_OK)
            fail_msg("round %d, probe1: %s", round, err.msg);
        if (t_complete(e, second, foh_cardset_find(cs, "probe2"), NULL, NULL, &err) != FOH_OK)
            fail_msg("round %d, probe2: %s", round, err.msg);
    }
    assert_int_equal(t_complete(e, first, foh_cardset_find(cs, "probe3"), NULL, NULL, &err), FOH_ERR_SCRIPT);
    if (!strstr(err.msg, "cannot change game.active_with()[1]"))
        fail_msg("%s", err.msg);
    /* game.reacts (probe1): fr, in the box, reacts to 'attacked' only. */
    assert_int_equal(t_complete(e, first, foh_cardset_find(cs, "probe4"), NULL, NULL, &err), FOH_ERR_SCRIPT);
    if (!strstr(err.msg, "game.reacts: unknown event 'nope'"))
        fail_msg("%s", err.msg);
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* ---- game.log(format, value...) ---- */

/* Instant cards (Wonders) l1.. whose on_gain runs BODIES[i], after three
 * starting governments; the file in BUF. */
static const char *log_cards(char *buf, size_t len, const char *const *bodies, int n)
{
    size_t at = (size_t)snprintf(buf, len, "%s",
                                 "- id: s1\n  name: S1\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
                                 "- id: s2\n  name: S2\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
                                 "- id: s3\n  name: S3\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n");
    for (int i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at,
                               "- id: l%d\n  name: L%d\n  age: I\n  type: wonder\n  timing: instant\n  stripe: {}\n  text: x\n"
                               "  effect: |\n    return { on_gain = function(p)\n      %s\n    end }\n",
                               i + 1, i + 1, bodies[i]);
    assert_true(at < len);
    return buf;
}

/* An engine for log_cards' set of BODIES (N of them), written under
 * NAME; the card set in *CS. */
static foh_engine *log_engine(const char *name, const char *const *bodies, int n, foh_cardset **cs)
{
    static char yaml[16384];
    return cards_engine(name, log_cards(yaml, sizeof yaml, bodies, n), cs);
}

/* game.log with values writes each as Lua's tostring would (and a table
 * {format, value...} once per group of values); a bad call is the same
 * error with and without a log, naming the cause. */
static void test_log_format(void **state)
{
    (void)state;
    static const struct {
        const char *body, *line; /* LINE: the line logged, or part of the error */
        int fails;
    } cases[] = {
        {"game.log('100% sure')", "  100% sure\n", 0},
        {"game.log('%s|%s|%s|%s|%s', 'a', 7, -12, 2.5, 0)", "  a|7|-12|2.5|0\n", 0},
        {"game.log('%s %s %s %s', 3.0, 1e100, -0.0, math.mininteger)", "  3.0 1e+100 -0.0 -9223372036854775808\n", 0},
        {"game.log('%s%% %s', 50, p .. '')", "  50% 1\n", 0},
        {"game.log('x: %s.', {'P%s %s', 1, 'a', 2, 'b', 3, 4.5})", "  x: P1 a, P2 b, P3 4.5.\n", 0},
        {"game.log('[%s][%s]', {'P%s'}, {'none'})", "  [][none]\n", 0},
        {"game.log('%s', {'<%s>', {'%s-%s', 1, 2}, 'z'})", "  <1-2>, <z>\n", 0},
        {"game.log('%s', 'a%sb')", "  a%sb\n", 0},
        {"game.log('%d', 1)", "holds a % that is not %s or %%", 1},
        {"game.log('trailing %', 1)", "holds a % that is not %s or %%", 1},
        {"game.log('%s %s', 1)", "asks for more than the 1 values given", 1},
        {"game.log('%s', 1, 2)", "takes 1 values, not 2", 1},
        {"game.log('%s', true)", "a boolean cannot be logged", 1},
        {"game.log('%s', nil)", "a nil cannot be logged", 1},
        {"game.log('%s', {1, 2})", "a table must be {format, value...}, not start with a number", 1},
        {"game.log('%s', {'%s %s', 1, 2, 3})", "with 3 values, not a multiple of the format's 2 %s", 1},
        {"game.log('%s', {'x', 1})", "with 1 values, not a multiple of the format's 0 %s", 1},
        {"game.log('%s', {'%s', {'%s', {'%s', {'%s', {'%s', {'%s', {'%s', {'%s', {'%s', 1}}}}}}}}})",
         "nested more than 8 deep", 1},
        {"game.log('%s', string.rep('x', 1001))", "longer than 1000", 1},
        {"game.log('%s', {'%s', string.rep('x', 600), string.rep('y', 600)})", "the text is 1202 bytes", 1},
    };
    enum { N = sizeof cases / sizeof cases[0] };
    const char *bodies[N];
    for (int i = 0; i < N; i++)
        bodies[i] = cases[i].body;
    static char log[T_LOG_SIZE];
    foh_error err = {0};
    foh_cardset *cs;
    foh_engine *e = log_engine("log_format", bodies, N, &cs);
    for (int i = 0; i < N; i++) {
        char id[8], logged[sizeof err.msg];
        snprintf(id, sizeof id, "l%d", i + 1);
        int card = foh_cardset_find(cs, id);
        foh_status with = t_complete(e, NULL, card, NULL, log, &err);
        snprintf(logged, sizeof logged, "%s", err.msg);
        foh_status without = t_complete(e, NULL, card, NULL, NULL, &err);
        if (with != without || (cases[i].fails && strcmp(logged, err.msg) != 0))
            fail_msg("%s: with a log %d '%s', without %d '%s'", cases[i].body, with, logged, without, err.msg);
        if (cases[i].fails ? with != FOH_ERR_SCRIPT || !strstr(err.msg, cases[i].line)
                           : with != FOH_OK || !strstr(log, cases[i].line))
            fail_msg("%s: status %d, '%s', log:\n%s", cases[i].body, with, err.msg, log);
    }
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* The Lua allocator's reused small blocks (core/script/lua_sandbox.c): tables
 * and strings grown and shrunk through every size class and past it keep
 * their contents, game after game on one engine. */
static void test_allocator_blocks(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "local t, h = {}, {} "
        "for i = 1, 300 do t[i] = i * 3 end "
        "for i = 1, 60 do h['k' .. i] = { i, tostring(i) } end "
        "local sum = 0 for i = 1, 300 do sum = sum + t[i] end "
        "if sum ~= 135450 then error('array ' .. sum) end "
        "for i = 1, 60 do if h['k' .. i][1] ~= i or h['k' .. i][2] ~= tostring(i) then error('hash ' .. i) end end "
        "for n = 1, 400, 3 do local x = string.rep('ab', n) .. '!' "
        "  if #x ~= 2 * n + 1 or x:sub(-3) ~= 'ab!' or x:sub(1, 2) ~= 'ab' then error('rep ' .. n) end end "
        "for i = 1, 60 do h['k' .. i] = nil end "
        "local parts = {} for i = 1, 50 do parts[#parts + 1] = string.rep('x', i) end "
        "if #table.concat(parts) ~= 1275 then error('concat') end "
        "game.log('%s', sum)",
    };
    static char log[T_LOG_SIZE];
    foh_error err = {0};
    foh_cardset *cs;
    foh_engine *e = log_engine("alloc", bodies, 1, &cs);
    for (int round = 0; round < 5; round++) {
        if (t_complete(e, NULL, foh_cardset_find(cs, "l1"), NULL, log, &err) != FOH_OK)
            fail_msg("round %d: %s", round, err.msg);
        if (!strstr(log, "  135450\n"))
            fail_msg("round %d: %s", round, log);
    }
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* The allocator's free lists keep at most FOH_LUA_POOL_KEEP bytes: a
 * script that fills memory with small blocks of one size, drops them, and
 * does the same with each other size must not leave the engine holding its
 * memory cap once per size class (16 classes of 16 to 256 bytes). */
static void test_allocator_keeps_little(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "for size = 1, 15 do "
        "  local keep = {} "
        "  for i = 1, 8000 do keep[i] = string.rep('x', size * 16 - 8) .. i end "
        "  keep = nil "
        "end "
        "game.log('%s', 'done')",
    };
    static char log[T_LOG_SIZE];
    foh_error err = {0};
    foh_cardset *cs;
    foh_engine *e = log_engine("alloc_keep", bodies, 1, &cs);
    size_t before = mallinfo2().uordblks;
    if (t_complete(e, NULL, foh_cardset_find(cs, "l1"), NULL, log, &err) != FOH_OK)
        fail_msg("%s", err.msg);
    assert_non_null(strstr(log, "  done\n"));
    size_t after = mallinfo2().uordblks;
    /* Each size's strings are 8,000 x (its size + Lua's string header):
     * 24 MB over all sizes, all of it held afterwards if freed blocks were
     * kept without a bound (measured: 23.9 MB); with it, what Lua has not
     * collected yet plus at most 1 MiB of free blocks (measured: 4.1 MB). */
    if (after > before + ((size_t)12 << 20))
        fail_msg("the engine holds %zu more bytes after the call", after - before);
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* A reaction to 'attack' that takes the defence away (and makes the target
 * immune) stops the attack with an error naming the reaction's card and
 * script, not the attack's: the helper's check (game.fire's third
 * argument) runs after each reaction. */
static void test_attack_reaction_without_defence(void **state)
{
    (void)state;
    static const char cards[] =
        "- id: s1\n  name: S1\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
        "- id: s2\n  name: S2\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
        "- id: s3\n  name: S3\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
        "- id: shield\n  name: Shield\n  age: I\n  type: wonder\n  timing: permanent\n  stripe: {}\n  text: x\n"
        "  effect: |\n"
        "    return { provides = {}, on = { attack = function(p, card, ev)\n"
        "      if ev.target == p then ev.defence = nil ev.immune = true end\n"
        "    end } }\n"
        "- id: raid\n  name: Raid\n  age: A\n  type: military\n  timing: attack\n  stripe: {attack: 3}\n  text: x\n"
        "  effect: return attack(take_tokens(1))\n";
    foh_error err = {0};
    foh_cardset *cs;
    foh_engine *e = cards_engine("no_defence", cards, &cs);
    foh_options opt = {.players = 3, .seed = 5};
    foh_game *g = foh_game_new(e, &opt, &err);
    assert_non_null(g);
    assert_int_equal(foh_position_clear(g, 0, &err), FOH_OK);
    assert_int_equal(foh_position_put(g, foh_cardset_find(cs, "shield"), FOH_ZONE_NATION, 1, &err), FOH_OK);
    int raid = foh_cardset_find(cs, "raid");
    assert_int_equal(foh_position_put(g, raid, FOH_ZONE_MARKET, -1, &err), FOH_OK);
    assert_int_equal(foh_position_set_tokens(g, 0, 5, &err), FOH_OK);
    assert_int_equal(foh_position_invest(g, 0, raid, 2, &err), FOH_OK);
    foh_action a = {.kind = FOH_ACT_COMPLETE, .card = -1, .tokens = 0, .option = -1};
    assert_int_equal(foh_game_apply(g, &a, &err), FOH_ERR_SCRIPT);
    /* The reaction that broke the table is named, with its place. */
    if (!strstr(err.msg, "card 'shield' (on.attack): ") || !strstr(err.msg, "cards.yaml:") ||
        !strstr(err.msg, "'attack' and 'defence' must stay numbers (now number and nil)") || strstr(err.msg, "raid"))
        fail_msg("%s", err.msg);
    foh_game_free(g);
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* An attack's description names the effect fields the C attack reads on
 * active cards (scripts/effects.lua's ATTACK_NAMES); an engine keeps 8
 * distinct names (FOH_NATIVE_FIELDS). A card whose names do not all fit,
 * or that names an event the card set lacks, runs its Lua function: one
 * Lua call more when it is gained. Names already kept still resolve once
 * the room is full. */
static void test_native_field_limit(void **state)
{
    (void)state;
#define ATTACKER(id, names)                                                                                           \
    "- id: " id "\n  name: " id "\n  age: A\n  type: military\n  timing: attack\n  stripe: {attack: 3}\n  text: x\n"  \
    "  effect: |\n    local t = attack_all(take_tokens(1))\n" names "    return t\n"
#define NAMES(s, o, i, b, a)                                                                                          \
    "    t.native[3] = { suppress = '" s "', on_attack = '" o "', immune = '" i "', before = '" b "', after = '" a "' }\n"
    static const char cards[] =
        "- id: s1\n  name: S1\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
        "- id: s2\n  name: S2\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
        "- id: s3\n  name: S3\n  age: S\n  type: government\n  timing: none\n  stripe: {}\n  text: start\n"
        /* The helper's own names: 3 of the 8. */
        ATTACKER("helper", "")
        /* 3 more names kept, then an event the set lacks: Lua. */
        ATTACKER("unknown_event", NAMES("spare_1", "spare_2", "spare_3", "attack", "no_such_event"))
        /* 2 more kept (8 in all), the third does not fit: Lua. */
        ATTACKER("ninth_name", NAMES("spare_4", "spare_5", "spare_6", "attack", "attacked"))
        /* The helper's names, all kept: C. */
        ATTACKER("kept_names", NAMES("no_own_attacks", "on_attack", "immune_to_attacks", "attack", "attacked"))
        /* A new name once full: Lua. */
        ATTACKER("full", NAMES("no_own_attacks", "on_attack", "spare_7", "attack", "attacked"));
#undef ATTACKER
#undef NAMES
    foh_error err = {0};
    foh_cardset *cs;
    foh_engine *e = cards_engine("field_limit", cards, &cs);
    static const struct {
        const char *id;
        int lua;
    } want[] = {{"helper", 0}, {"unknown_event", 1}, {"ninth_name", 1}, {"kept_names", 0}, {"full", 1}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        long before = foh_engine_lua_calls(e);
        if (t_complete(e, NULL, foh_cardset_find(cs, want[i].id), NULL, NULL, &err) != FOH_OK)
            fail_msg("%s: %s", want[i].id, err.msg);
        if ((foh_engine_lua_calls(e) > before) != want[i].lua)
            fail_msg("%s: %ld Lua calls, expected %s", want[i].id, foh_engine_lua_calls(e) - before,
                     want[i].lua ? "some (its Lua function)" : "none (the C attack)");
    }
    foh_engine_free(e);
    foh_cardset_free(cs);
}

/* A card effect run in C (core/rulesets/flow/lua/native.c) that fails returns its status
 * when the caller wants no message (ERR NULL, as the public API allows),
 * and leaves the game as it was: Irrigation's tokens from an empty Reserve
 * with the engine's token limit reached. */
static void test_native_error_without_err(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_market(g, "irrigation");
    t_tokens(g, P1, 5);
    assert_int_equal(foh_position_invest(g, P1, t_card("irrigation"), 2, NULL), FOH_OK);
    int lo = 0, hi = 1000000000; /* P2 holds as many tokens as the engine allows */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (foh_position_set_tokens(g, P2, mid, NULL) == FOH_OK)
            lo = mid;
        else
            hi = mid - 1;
    }
    t_tokens(g, P2, lo);
    assert_int_equal(foh_game_reserve(g), 0);
    uint64_t before = foh_game_digest(g);
    foh_action complete = t_act(FOH_ACT_COMPLETE, NULL, 0);
    assert_int_equal(foh_game_apply(g, &complete, NULL), FOH_ERR_SCRIPT);
    assert_true(foh_game_digest(g) == before);
    foh_error err = {0};
    assert_int_equal(foh_game_apply(g, &complete, &err), FOH_ERR_SCRIPT);
    if (!strstr(err.msg, "card 'irrigation'") || !strstr(err.msg, "game.take_from_reserve"))
        fail_msg("%s", err.msg);
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
        cmocka_unit_test(test_active_with),
        cmocka_unit_test(test_log_format),
        cmocka_unit_test(test_allocator_blocks),
        cmocka_unit_test(test_allocator_keeps_little),
        cmocka_unit_test(test_attack_reaction_without_defence),
        cmocka_unit_test(test_native_field_limit),
        cmocka_unit_test(test_native_error_without_err),
    };
    return cmocka_run_group_tests(tests, NULL, t_teardown);
}

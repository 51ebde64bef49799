/* The civilization draft's ruleset through the platform: a bot's
 * determinization and decisions depend only on what its seat sees (two
 * games that differ only in where an opponent's hidden cards lie give the
 * same decision), every listed action applies and has a name no other
 * action of the position has, and a failing Event leaves the game as it
 * was. The struct layout is read through the ruleset's private header to
 * move one hidden card; everything else goes through the public API. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "civ.h"
#include "foh/bot.h"
#include "foh/position.h"
#include "foh/ruleset.h"
#include "foh/yaml.h"

static foh_engine *engine(const char *dir, foh_cardset **cs)
{
    foh_error err = {0};
    *cs = foh_cardset_load(dir, &err);
    if (!*cs)
        fail_msg("%s", err.msg);
    foh_engine *e = foh_engine_new(*cs, &err);
    if (!e)
        fail_msg("%s", err.msg);
    return e;
}

static void random_step(foh_game *g, uint64_t *rng)
{
    foh_action legal[4096];
    foh_error err;
    int n = foh_game_legal_actions(g, legal, 4096, &err);
    assert_true(n > 0 && n <= 4096);
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    assert_int_equal(foh_game_apply(g, &legal[(*rng >> 33) % (uint64_t)n], &err), FOH_OK);
}

/* A card of zone Z, owned by P when Z is a hand, that seat VIEWER has not seen. */
static int hidden_card(const civ_game *g, civ_zone z, int p, int viewer)
{
    for (int c = 0; c < g->set->ncards; c++)
        if (g->where[c] == z && (z != CIV_Z_HAND || g->owner[c] == p) && !(g->seen[c] >> viewer & 1))
            return c;
    return -1;
}

/* Swap hidden card X of P2's hand with hidden pile card Y. */
static void swap_hidden(civ_game *g, int x, int y)
{
    for (int j = 0; j < CIV_PILES; j++)
        for (int i = 0; i < g->npile[j]; i++)
            if (g->pile[j][i] == y)
                g->pile[j][i] = (short)x;
    g->where[x] = CIV_Z_PILE;
    g->seen[x] = 0;
    g->owner[x] = 0;
    g->where[y] = CIV_Z_HAND;
    g->owner[y] = 1;
    g->seen[y] = 1u << 1;
}

static int decide(const char *spec, foh_game *g)
{
    foh_error err = {0};
    foh_player *bot = foh_bot_from_spec(spec, 5, &err);
    foh_action legal[4096];
    int n = foh_game_legal_actions(g, legal, 4096, &err);
    int k = bot->decide(bot, g, legal, n, NULL, 0, &err);
    if (k < 0)
        fail_msg("%s", err.msg);
    foh_player_free(bot);
    return k;
}

static void test_a_bot_sees_only_its_view(void **state)
{
    (void)state;
    foh_cardset *cs;
    foh_engine *eng = engine(CIV_CARDS, &cs);
    int checked = 0;
    for (uint64_t seed = 1; seed <= 12 && checked < 6; seed++) {
        foh_error err;
        foh_options opt = {.players = 3, .seed = seed};
        foh_game *a = foh_game_new(eng, &opt, &err);
        assert_non_null(a);
        uint64_t rng = seed;
        for (int k = 0; k < 60 + (int)seed * 7 && !foh_game_is_over(a); k++)
            random_step(a, &rng);
        while (!foh_game_is_over(a) && foh_game_to_act(a) != 0)
            random_step(a, &rng);
        civ_game *ga = (civ_game *)a;
        int x = hidden_card(ga, CIV_Z_HAND, 1, 0), y = hidden_card(ga, CIV_Z_PILE, 0, 0);
        if (foh_game_is_over(a) || x < 0 || y < 0) {
            foh_game_free(a);
            continue;
        }
        foh_game *b = foh_game_clone(a);
        swap_hidden((civ_game *)b, x, y);
        assert_true(foh_game_digest(a) != foh_game_digest(b)); /* the two games differ */
        foh_game *da = foh_game_clone(a), *db = foh_game_clone(b);
        foh_game_determinize(da, 0, 99);
        foh_game_determinize(db, 0, 99);
        assert_int_equal(foh_game_digest(da), foh_game_digest(db)); /* the same sample from P1's view */
        assert_int_equal(decide("greedy", a), decide("greedy", b));
        assert_int_equal(decide("ismcts:60", a), decide("ismcts:60", b));
        checked++;
        foh_game_free(da);
        foh_game_free(db);
        foh_game_free(a);
        foh_game_free(b);
    }
    assert_true(checked >= 4);
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

/* The counts the game keeps (civ_game.attr, in_play, hand_n,
 * hand_leaders) equal those counted afresh from where the cards are. */
static void assert_counts(const foh_game *fg)
{
    const civ_game *g = (const civ_game *)fg;
    for (int p = 0; p < g->players; p++) {
        int attr[CIV_NATTRS] = {0}, types[CIV_NTYPES] = {0}, hand = 0, leaders = 0;
        for (int c = 0; c < g->set->ncards; c++) {
            const civ_card *d = &g->set->card[c];
            if (g->owner[c] != p)
                continue;
            if (g->where[c] == CIV_Z_HAND) {
                hand++;
                leaders += CIV_IS_LEADER(d->type);
            }
            for (int a = 0; g->where[c] == CIV_Z_PLAY && a < CIV_NATTRS; a++)
                attr[a] += d->adds[a];
            types[d->type] += g->where[c] == CIV_Z_PLAY;
        }
        assert_int_equal(hand, g->hand_n[p]);
        assert_int_equal(leaders, g->hand_leaders[p]);
        for (int a = 0; a < CIV_NATTRS; a++)
            assert_int_equal(attr[a], g->attr[p][a]);
        for (int t = 0; t < CIV_NTYPES; t++)
            assert_int_equal(types[t], g->in_play[p][t]);
    }
}

/* Every listed action has its own name and applies; games end; the kept
 * counts stay right, through determinizations too. */
static void test_every_listed_action_applies(void **state)
{
    (void)state;
    foh_cardset *cs;
    foh_engine *eng = engine(CIV_CARDS, &cs);
    static foh_action legal[4096];
    for (int game = 0; game < 8; game++) {
        foh_error err;
        foh_options opt = {.players = 2 + game % 5, .seed = (uint64_t)game + 100};
        foh_game *g = foh_game_new(eng, &opt, &err), *c = foh_game_clone(g);
        uint64_t rng = (uint64_t)game;
        long decisions = 0;
        while (!foh_game_is_over(g)) {
            int n = foh_game_legal_actions(g, legal, 4096, &err);
            assert_true(n > 0);
            for (int i = 0; i < n; i++) {
                char a[256], b[256];
                foh_game_describe_action(g, &legal[i], a, sizeof a);
                for (int j = 0; j < i; j++) {
                    foh_game_describe_action(g, &legal[j], b, sizeof b);
                    if (!strcmp(a, b))
                        fail_msg("two legal actions are both named '%s'", a);
                }
                foh_game_copy(c, g);
                if (foh_game_apply(c, &legal[i], &err) != FOH_OK)
                    fail_msg("listed action '%s' refused: %s", a, err.msg);
            }
            random_step(g, &rng);
            assert_counts(g);
            if (decisions % 50 == 0) {
                foh_game_copy(c, g);
                foh_game_determinize(c, (int)(decisions % opt.players), (uint64_t)decisions);
                assert_counts(c);
            }
            assert_true(++decisions < 20000);
        }
        assert_true(foh_game_turn(g) <= foh_game_turn_limit(g));
        foh_game_free(c);
        foh_game_free(g);
    }
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

static void test_a_failing_event_changes_nothing(void **state)
{
    (void)state;
    foh_cardset *cs;
    foh_engine *eng = engine(BROKEN_CARDS, &cs);
    foh_error err;
    foh_options opt = {.players = 2, .seed = 3};
    foh_game *g = foh_game_new(eng, &opt, &err);
    char yerr[512];
    foh_yaml_node *doc = foh_yaml_load(BROKEN_CARDS "/../broken-setup.yaml", yerr, sizeof yerr);
    assert_non_null(doc);
    assert_int_equal(foh_game_ruleset(g)->scenario_setup(g, foh_yaml_get(doc, "setup"), &err), FOH_OK);
    foh_yaml_free(doc);
    foh_action legal[64];
    int n = foh_game_legal_actions(g, legal, 64, &err), k = -1;
    char what[256];
    for (int i = 0; i < n; i++) {
        foh_game_describe_action(g, &legal[i], what, sizeof what);
        if (!strcmp(what, "play Curse"))
            k = i;
    }
    assert_true(k >= 0);
    uint64_t before = foh_game_digest(g);
    assert_int_equal(foh_game_apply(g, &legal[k], &err), FOH_ERR_SCRIPT);
    assert_non_null(strstr(err.msg, "card 'curse'"));
    assert_non_null(strstr(err.msg, "ancient.yaml:3:"));
    assert_non_null(strstr(err.msg, "boom"));
    assert_int_equal(foh_game_digest(g), before);
    assert_int_equal(((civ_game *)g)->vt[0], 10);
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_bot_sees_only_its_view),
        cmocka_unit_test(test_every_listed_action_applies),
        cmocka_unit_test(test_a_failing_event_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

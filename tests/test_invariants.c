/* The invariant checker catches broken states (each broken on purpose
 * through the engine's internal structures), so that the checks run after
 * every action in the other tests can fail. */
#include <string.h>

#include "internal.h"
#include "support.h"

static foh_game *fresh(void)
{
    foh_options opt = {.players = 4, .seed = 5};
    foh_game *g = foh_game_new(t_engine(), &opt, NULL);
    assert_non_null(g);
    t_invariants(g);
    return g;
}

static void expect_broken(foh_game *g, const char *what)
{
    foh_error err;
    assert_int_equal(foh_game_check_invariants(g, &err), FOH_ERR_DATA);
    if (!strstr(err.msg, what))
        fail_msg("'%s' does not mention '%s'", err.msg, what);
    foh_game_free(g);
}

static void test_detects_broken_states(void **state)
{
    (void)state;
    foh_game *g = fresh();
    g->st.supply += 1; /* a token from nowhere */
    expect_broken(g, "tokens in play");

    g = fresh();
    g->st.market[1] = g->st.market[0]; /* a card in two Market slots */
    expect_broken(g, "elsewhere or twice");

    g = fresh();
    g->st.loc[FOH_DECK(&g->st)[0]].zone = FOH_ZONE_REMOVED; /* deck card marked removed */
    expect_broken(g, "deck position 0");

    g = fresh();
    g->st.loc[t_card("warriors")].zone = FOH_ZONE_DECK; /* marked in the deck, not there */
    expect_broken(g, "Market slot");

    g = fresh();
    foh_position_put(g, t_card("confucius"), FOH_ZONE_NATION, 0, NULL);
    int aristotle = t_card("aristotle");
    foh_position_put(g, aristotle, FOH_ZONE_NATION, 1, NULL);
    g->st.loc[aristotle].owner = 0; /* two Leaders in one Nation */
    expect_broken(g, "more than one leader");

    g = fresh();
    int c = g->st.market[0];
    g->st.loc[c].investor = 2;
    g->st.loc[c].invested = 1;
    g->st.reserve -= 1; /* tokens still add up, but P3 does not know */
    expect_broken(g, "does not record");

    g = fresh();
    g->st.loc[t_card("the_future")].zone = FOH_ZONE_NATION;
    g->st.ndeck--; /* The Future (the bottom card) taken off the deck into a Nation */
    memmove(FOH_DECK(&g->st), FOH_DECK(&g->st) + 1, g->st.ndeck * sizeof FOH_DECK(&g->st)[0]);
    expect_broken(g, "never placed");

    /* (A Market short of its size while the deck has cards is not broken:
     * a script may take a Market card after the Cleanup phase, issue 30.) */
    g = fresh();
    g->st.nmarket = FOH_MAX_MARKET + 1; /* more Market slots than the engine has */
    expect_broken(g, "Market of 13 cards is out of range");

    g = fresh();
    FOH_BASE_ICONS(&g->st, 0)[1] += 1; /* a kept icon count the cards do not give */
    expect_broken(g, "kept count of icon");

    g = fresh();
    FOH_COUNTING_ON(&g->st, 2)[0] |= 1; /* a counting effect kept on, of a card not in the Nation */
    expect_broken(g, "kept Permanent effects");

    g = fresh();
    FOH_ACTIONS_ON(&g->st, 0)[1] |= 1; /* a Turn Action kept on, of a card not in the Nation */
    expect_broken(g, "Turn Actions");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detects_broken_states),
    };
    return cmocka_run_group_tests(tests, NULL, t_teardown);
}

/* Rules: each action's legality and token flow, stacking and reveal,
 * Leader replacement, the investor bonus cap, Harvest's top-up, the age
 * check, scoring; numbers from the rulebook's worked examples
 * (rulebook-en-2nd-edition.txt) where it has one. P1 is player 0. */
#include <string.h>

#include "support.h"

#define P1 0
#define P2 1
#define P3 2

static int icons(foh_game *g, int p, const char *icon) { return foh_game_icons(g, p, t_icon(icon)); }
static int zone(foh_game *g, const char *id) { return (int)foh_game_card_zone(g, t_card(id), NULL); }

/* Apply an action that must be refused, and check nothing changed. */
static void refused(foh_game *g, foh_action a, const char *why)
{
    uint64_t before = foh_game_digest(g);
    foh_error err = {0};
    assert_int_equal(foh_game_apply(g, &a, &err), FOH_ERR_ILLEGAL);
    if (!strstr(err.msg, why))
        fail_msg("refusal '%s' does not mention '%s'", err.msg, why);
    assert_true(foh_game_digest(g) == before);
}

static void test_invest(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_market(g, "monastery");
    t_market(g, "temple");
    t_nation(g, P1, "aristocracy");
    t_tokens(g, P1, 5);
    refused(g, t_act(FOH_ACT_INVEST, "monastery", 0), "1 to 5 tokens");
    refused(g, t_act(FOH_ACT_INVEST, "monastery", 6), "1 to 5 tokens");
    refused(g, t_act(FOH_ACT_INVEST, "archers", 1), "not in the Market");
    t_apply(g, t_act(FOH_ACT_INVEST, "monastery", 4), FOH_OK);
    t_invariants(g);
    assert_int_equal(foh_game_tokens(g, P1), 1);
    assert_int_equal(foh_game_investor(g, t_card("monastery")), P1);
    assert_int_equal(foh_game_invested_tokens(g, t_card("monastery")), 4);
    assert_int_equal(foh_game_investment(g, P1), t_card("monastery"));
    assert_int_equal(foh_game_current_player(g), P2);

    refused(g, t_act(FOH_ACT_INVEST, "temple", 1), "no resource tokens"); /* P2 has none */
    t_tokens(g, P2, 3);
    refused(g, t_act(FOH_ACT_INVEST, "monastery", 1), "already has an investor");
    foh_position_set_current(g, P1, NULL);
    refused(g, t_act(FOH_ACT_INVEST, "temple", 1), "already invested");
    foh_game_free(g);
}

/* Rulebook "Complete example": Monastery with 4 tokens, 2 Industry icons. */
static void test_complete_example_and_bonus_cap(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_market(g, "monastery");
    t_nation(g, P1, "craftsman_tribe"); /* 1 Industry */
    t_nation(g, P1, "iron_works");      /* 1 Industry */
    foh_position_set_fired(g, t_card("iron_works"), 1, NULL);
    t_tokens(g, -1, 3);
    foh_position_invest(g, P1, t_card("monastery"), 4, NULL);
    int reserve = foh_game_reserve(g);
    refused(g, t_act(FOH_ACT_SNIPE, "monastery", 0), "own investment");
    t_apply(g, t_act(FOH_ACT_COMPLETE, NULL, 0), FOH_OK);
    t_invariants(g);
    assert_int_equal(foh_game_supply(g), 3 + 4 - 2);
    assert_int_equal(foh_game_tokens(g, P1), 2);
    assert_int_equal(foh_game_reserve(g), reserve);
    assert_int_equal(foh_game_investment(g, P1), -1);
    assert_int_equal(zone(g, "monastery"), FOH_ZONE_NATION);
    assert_int_equal(icons(g, P1, "culture"), 2); /* stripe 1 + Permanent 1 */

    /* The bonus never exceeds the Supply and never comes from the Reserve. */
    foh_position_set_current(g, P1, NULL);
    t_tokens(g, -1, 0);
    t_market(g, "lighthouse");
    foh_position_invest(g, P1, t_card("lighthouse"), 1, NULL);
    reserve = foh_game_reserve(g);
    int before = foh_game_tokens(g, P1);
    t_apply(g, t_act(FOH_ACT_COMPLETE, NULL, 0), FOH_OK); /* 2 Industry, Supply 1 */
    assert_int_equal(foh_game_tokens(g, P1), before + 1);
    assert_int_equal(foh_game_supply(g), 0);
    assert_int_equal(foh_game_reserve(g), reserve);
    refused(g, t_act(FOH_ACT_COMPLETE, NULL, 0), "not invested"); /* P2 */
    foh_game_free(g);
}

/* Rulebook "Snipe example": Irrigation, 4 tokens under it, Supply 2,
 * Alexander (P2) has 1 Trade icon. */
static void test_snipe_example(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_market(g, "irrigation");
    t_nation(g, P2, "seafaring_traders"); /* 1 Trade */
    t_nation(g, P1, "agrarian_tribe");    /* 1 Harvest */
    t_tokens(g, -1, 2);
    t_tokens(g, P1, 3);
    foh_position_invest(g, P2, t_card("irrigation"), 4, NULL);
    refused(g, t_act(FOH_ACT_SNIPE, "irrigation", 0), "needs 4 tokens");
    t_tokens(g, P1, 5);
    int reserve = foh_game_reserve(g);
    t_apply(g, t_act(FOH_ACT_SNIPE, "irrigation", 0), FOH_OK);
    t_invariants(g);
    /* Supply 2 + 4 = 6; Alexander takes 1 (Trade), then 2 (half of 5). */
    assert_int_equal(foh_game_tokens(g, P2), 4 + 1 + 2);
    assert_int_equal(foh_game_supply(g), 3);
    assert_int_equal(foh_game_investment(g, P2), -1);
    /* Irrigation's Instant: 2 tokens from the Reserve per Harvest icon
     * (default ruling 3), with 2 Harvest icons counting Irrigation's own. */
    assert_int_equal(foh_game_tokens(g, P1), 5 - 4 + 4);
    assert_int_equal(foh_game_reserve(g), reserve - 4);
    assert_true(foh_game_effect_fired(g, t_card("irrigation")));
    foh_game_free(g);
}

/* Rulebook "Harvest example I" and "II". */
static void test_harvest_examples(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "agrarian_tribe");
    t_nation(g, P1, "working_animal"); /* 2 Harvest icons in all */
    foh_position_set_fired(g, t_card("working_animal"), 1, NULL);
    t_tokens(g, -1, 5);
    t_apply(g, t_act(FOH_ACT_HARVEST, NULL, 0), FOH_OK);
    assert_int_equal(foh_game_tokens(g, P1), 3); /* half of 7 */
    assert_int_equal(foh_game_supply(g), 4);
    t_invariants(g);
    foh_game_free(g);

    g = t_empty_game(3, P1);
    t_nation(g, P1, "aristocracy");
    t_market(g, "satellites"); /* Current Age V */
    t_tokens(g, -1, 3);
    t_tokens(g, P1, 1);
    int reserve = foh_game_reserve(g);
    assert_int_equal(foh_game_current_age(g), 5);
    t_apply(g, t_act(FOH_ACT_HARVEST, NULL, 0), FOH_OK);
    /* 1 (half of 3) -> 2 tokens; top-up to 5: 2 from the Supply, 1 from the Reserve. */
    assert_int_equal(foh_game_tokens(g, P1), 5);
    assert_int_equal(foh_game_supply(g), 0);
    assert_int_equal(foh_game_reserve(g), reserve - 1);
    t_invariants(g);
    foh_game_free(g);
}

/* Rulebook "Card stacking example I", and revealing a covered card. */
static void test_stacking_and_reveal(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "barracks");
    assert_int_equal(icons(g, P1, "defense"), 1);
    t_nation(g, P1, "lighthouse");
    assert_int_equal(icons(g, P1, "defense"), 0); /* Barracks' effect covered */
    assert_int_equal(icons(g, P1, "attack"), 1);  /* its stripe still counts */
    assert_int_equal(icons(g, P1, "science"), 1);
    assert_false(foh_game_card_visible(g, t_card("barracks")));
    assert_true(foh_game_card_visible(g, t_card("lighthouse")));

    /* Knights (P2, strength 1 + 2 = 3) attacks P1 (1 Attack, 0 Defense). */
    t_nation(g, P1, "iron_works");
    foh_position_set_fired(g, t_card("iron_works"), 1, NULL);
    t_nation(g, P1, "astronomy");
    foh_position_set_fired(g, t_card("astronomy"), 1, NULL);
    t_nation(g, P2, "military_caste");
    t_nation(g, P3, "temple");
    t_market(g, "knights");
    t_market(g, "archers"); /* would be gained if Iron Works fired again */
    foh_position_invest(g, P2, t_card("knights"), 1, NULL);
    foh_position_set_current(g, P2, NULL);
    t_apply(g, t_act(FOH_ACT_COMPLETE, NULL, 0), FOH_OK);
    /* P1 (strength 1) and P3 (0) are weaker: P2 chooses. */
    const foh_choice *ch = foh_game_choice(g);
    assert_non_null(ch);
    assert_int_equal(ch->player, P2);
    assert_int_equal(ch->n, 2);
    t_apply(g, t_choose(t_option(g, "P1")), FOH_OK);
    t_apply(g, t_choose(t_option(g, "Astronomy")), FOH_OK);
    assert_null(foh_game_choice(g));
    t_invariants(g);
    assert_int_equal(zone(g, "astronomy"), FOH_ZONE_REMOVED);
    assert_true(foh_game_card_visible(g, t_card("iron_works")));
    assert_int_equal(zone(g, "archers"), FOH_ZONE_MARKET); /* Instant not re-fired */

    /* Removing the top card reveals the Permanent effect below. */
    foh_position_put(g, t_card("lighthouse"), FOH_ZONE_REMOVED, -1, NULL);
    assert_int_equal(icons(g, P1, "defense"), 1);
    foh_game_free(g);
}

static void test_leader_replacement(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "confucius");
    t_market(g, "aristotle");
    t_tokens(g, P1, 2);
    t_apply(g, t_act(FOH_ACT_INVEST, "aristotle", 2), FOH_OK);
    foh_position_set_current(g, P1, NULL);
    t_apply(g, t_act(FOH_ACT_COMPLETE, NULL, 0), FOH_OK);
    /* Aristotle: no Knowledge card in the Market, so nothing (FAQ Q1). */
    assert_null(foh_game_choice(g));
    assert_int_equal(zone(g, "confucius"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "aristotle"), FOH_ZONE_NATION);
    int leaders[4];
    assert_int_equal(foh_game_nation_cards(g, P1, t_type("leader"), leaders, 4), 1);
    t_invariants(g);
    foh_game_free(g);
}

/* Rulebook "Activate example I" (Ramesses II), covered cards, costs. */
static void test_activate(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "ramesses_ii");
    t_nation(g, P1, "philosophy");
    t_nation(g, P1, "astronomy");
    t_market(g, "the_pyramids");
    t_market(g, "the_great_wall");
    foh_position_invest(g, P2, t_card("the_pyramids"), 2, NULL);
    refused(g, t_act(FOH_ACT_ACTIVATE, "philosophy", 0), "covered");
    refused(g, t_act(FOH_ACT_ACTIVATE, "astronomy", 0), "no Turn Action");
    refused(g, t_act(FOH_ACT_ACTIVATE, "confucius", 0), "not in P1's Nation");
    t_apply(g, t_act(FOH_ACT_ACTIVATE, "ramesses_ii", 0), FOH_OK);
    assert_int_equal(zone(g, "ramesses_ii"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "the_great_wall"), FOH_ZONE_NATION);
    assert_int_equal(zone(g, "the_pyramids"), FOH_ZONE_MARKET);
    t_invariants(g);

    /* Philosophy costs 3 tokens (paid to the Supply). */
    foh_position_put(g, t_card("astronomy"), FOH_ZONE_REMOVED, -1, NULL);
    foh_position_set_current(g, P1, NULL);
    t_market(g, "aristotle");
    t_market(g, "iron_works");
    t_tokens(g, P1, 2);
    refused(g, t_act(FOH_ACT_ACTIVATE, "philosophy", 0), "cannot be paid");
    t_tokens(g, P1, 3);
    t_apply(g, t_act(FOH_ACT_ACTIVATE, "philosophy", 0), FOH_OK);
    assert_int_equal(foh_game_tokens(g, P1), 0);
    assert_int_equal(foh_game_supply(g), 3);
    assert_int_equal(zone(g, "iron_works"), FOH_ZONE_NATION); /* the one Knowledge card */
    foh_game_free(g);
}

/* Rulebook "Cleanup example": an age II card enters, non-invested age A
 * cards are discarded, then the Market is replenished (once). */
static void test_age_check(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_market(g, "ramesses_ii");
    t_market(g, "warriors");
    t_market(g, "barracks");
    t_market(g, "the_pyramids");
    foh_position_invest(g, P2, t_card("ramesses_ii"), 1, NULL);
    t_deck(g, "astronomy");
    t_deck(g, "temple");
    t_deck(g, "archers");
    t_deck(g, "monastery"); /* top */
    t_apply(g, t_act(FOH_ACT_HARVEST, NULL, 0), FOH_OK);
    assert_int_equal(foh_game_current_age(g), 2);
    assert_int_equal(zone(g, "warriors"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "barracks"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "the_pyramids"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "ramesses_ii"), FOH_ZONE_MARKET); /* invested: safe */
    const char *want[] = {"ramesses_ii", "monastery", "archers", "temple", "astronomy"};
    assert_int_equal(foh_game_market_size(g), 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(foh_game_market_card(g, i), t_card(want[i]));
    assert_int_equal(foh_game_deck_size(g), 0);
    t_invariants(g);
    foh_game_free(g);
}

/* Rulebook "End game scoring example": 7 Culture (3 from Democracy), 23
 * other icons, Einstein with 2 Knowledge cards, the Great Mosque with 4
 * Government cards, the Great Wall with 3 Defense icons: 25 VP. */
static void test_scoring_example_25_vp(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    const char *nation[] = {"agrarian_tribe", "republic", "feudalism", "democracy", /* Government */
                            "iron_works", "steam_power",                            /* Knowledge */
                            "temple", "monastery", "castle", "lighthouse",          /* Construction */
                            "warriors", "knights",                                  /* Military */
                            "albert_einstein", "the_great_mosque", "the_great_wall"};
    for (size_t i = 0; i < sizeof nation / sizeof nation[0]; i++)
        t_nation(g, P1, nation[i]);
    t_nation(g, P2, "aristocracy");
    t_nation(g, P3, "religious_tribe");
    foh_score sc[3];
    foh_tiebreak tb;
    foh_error err;
    assert_int_equal(foh_game_score(g, sc, &tb, &err), FOH_OK);
    assert_int_equal(sc[P1].culture_icons, 7);
    assert_int_equal(sc[P1].other_icons, 23);
    assert_int_equal(sc[P1].other_vp, 11);
    assert_int_equal(sc[P1].n_end, 3);
    int end_vp[3] = {0};
    const char *ends[] = {"albert_einstein", "the_great_mosque", "the_great_wall"};
    for (int k = 0; k < sc[P1].n_end; k++)
        for (int i = 0; i < 3; i++)
            if (sc[P1].end[k].card == t_card(ends[i]))
                end_vp[i] = sc[P1].end[k].full_vp;
    assert_int_equal(end_vp[0], 2);
    assert_int_equal(end_vp[1], 4);
    assert_int_equal(end_vp[2], 1);
    assert_int_equal(sc[P1].total, 25);
    assert_true(sc[P1].winner);
    assert_int_equal(tb, FOH_TIE_NONE);
    foh_game_free(g);
}

/* Obsolete effects are off at scoring; icons stay (default ruling 7). */
static void test_obsolete_off_at_scoring(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "republic"); /* culture 1, trade 1 + 2 */
    t_nation(g, P1, "frigate");  /* attack 2, defense 1, + defense per Trade (obsolete) */
    assert_int_equal(icons(g, P1, "defense"), 1 + 3);
    t_nation(g, P2, "aristocracy");
    t_nation(g, P3, "craftsman_tribe");
    foh_score sc[3];
    assert_int_equal(foh_game_score(g, sc, NULL, NULL), FOH_OK);
    /* culture 1; attack 2 + defense 1 + trade 3 = 6 -> 3 VP. */
    assert_int_equal(sc[P1].culture_icons, 1);
    assert_int_equal(sc[P1].other_icons, 6);
    assert_int_equal(sc[P1].total, 4);
    assert_int_equal(icons(g, P1, "defense"), 4); /* scoring left the game as it was */
    foh_game_free(g);
}

/* Ties: most cards in the Nation, then most tokens, then a shared win. */
static void test_tie_breaks(void **state)
{
    (void)state;
    foh_score sc[3];
    foh_tiebreak tb;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "temple"); /* culture 1 + 2: 3 VP, 1 card */
    t_nation(g, P2, "monastery");
    t_nation(g, P2, "aristocracy");
    t_nation(g, P2, "religious_tribe"); /* culture 1 + 1 + 1, science 1: 3 VP, 3 cards */
    t_nation(g, P3, "craftsman_tribe");
    assert_int_equal(foh_game_score(g, sc, &tb, NULL), FOH_OK);
    assert_int_equal(sc[P1].total, 3);
    assert_int_equal(sc[P2].total, 3);
    assert_true(sc[P2].winner && !sc[P1].winner && !sc[P3].winner);
    assert_int_equal(tb, FOH_TIE_CARDS);
    foh_game_free(g);

    g = t_empty_game(3, P1);
    t_nation(g, P1, "aristocracy");
    t_nation(g, P2, "republic");  /* culture 1, trade 3 -> 1: 2 VP, 1 card */
    t_nation(g, P3, "monastery"); /* culture 2: 2 VP, 1 card */
    t_tokens(g, P2, 1);
    t_tokens(g, P3, 4);
    assert_int_equal(foh_game_score(g, sc, &tb, NULL), FOH_OK);
    assert_int_equal(sc[P2].total, 2);
    assert_int_equal(sc[P3].total, 2);
    assert_true(sc[P3].winner && !sc[P2].winner);
    assert_int_equal(tb, FOH_TIE_TOKENS);
    t_tokens(g, P2, 4);
    assert_int_equal(foh_game_score(g, sc, &tb, NULL), FOH_OK);
    assert_true(sc[P3].winner && sc[P2].winner && !sc[P1].winner);
    assert_int_equal(tb, FOH_TIE_SHARED);
    foh_game_free(g);
}

/* A choice inside an effect is a decision point: listed as legal actions,
 * copyable, and refused when answered out of turn or out of range. */
static void test_choice_inside_effect(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_market(g, "aristotle");
    t_market(g, "philosophy");
    t_market(g, "iron_works");
    t_market(g, "archers");
    foh_position_invest(g, P1, t_card("aristotle"), 2, NULL);
    t_apply(g, t_act(FOH_ACT_COMPLETE, NULL, 0), FOH_OK);
    const foh_choice *ch = foh_game_choice(g);
    assert_non_null(ch);
    assert_int_equal(foh_game_to_act(g), P1);
    assert_int_equal(ch->card, t_card("aristotle"));
    foh_action legal[8];
    assert_int_equal(foh_game_legal_actions(g, legal, 8, NULL), 2);
    assert_int_equal(legal[0].kind, FOH_ACT_CHOOSE);
    refused(g, t_act(FOH_ACT_HARVEST, NULL, 0), "must answer");
    refused(g, t_choose(2), "must answer");

    foh_game *copy = foh_game_clone(g);
    assert_true(foh_game_digest(copy) == foh_game_digest(g));
    int pick = t_option(g, "Iron Works");
    t_apply(g, t_choose(pick), FOH_OK);
    t_apply(copy, t_choose(pick), FOH_OK);
    /* Iron Works' Instant then gains the only Military card. */
    assert_int_equal(zone(g, "archers"), FOH_ZONE_NATION);
    assert_int_equal(zone(g, "philosophy"), FOH_ZONE_MARKET);
    assert_true(foh_game_digest(copy) == foh_game_digest(g));
    assert_int_equal(foh_game_current_player(g), P2);
    t_invariants(g);
    foh_game_free(copy);
    foh_game_free(g);
}

/* FAQ Q3: Confucius -> Justinian I -> Iron Works -> Knights, chained. */
static void test_chained_gains(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    t_nation(g, P1, "confucius");
    t_nation(g, P1, "military_caste");
    t_nation(g, P2, "aristocracy");
    t_nation(g, P3, "temple");
    t_market(g, "justinian_i");
    t_market(g, "iron_works");
    t_market(g, "knights");
    t_market(g, "lighthouse");
    t_apply(g, t_act(FOH_ACT_ACTIVATE, "confucius", 0), FOH_OK); /* one Leader: Justinian I */
    t_apply(g, t_choose(t_option(g, "Iron Works")), FOH_OK);    /* Justinian: Iron Works or Lighthouse */
    /* Iron Works gains Knights (the one Military card); Knights attacks:
     * strength 3 against P2 (0) and P3 (0). */
    t_apply(g, t_choose(t_option(g, "P3")), FOH_OK);
    assert_null(foh_game_choice(g));
    assert_int_equal(zone(g, "temple"), FOH_ZONE_REMOVED);
    assert_int_equal(zone(g, "confucius"), FOH_ZONE_REMOVED); /* replaced by Justinian I */
    assert_int_equal(zone(g, "knights"), FOH_ZONE_NATION);
    assert_int_equal(zone(g, "lighthouse"), FOH_ZONE_MARKET);
    t_invariants(g);
    foh_game_free(g);
}

/* One Invest per amount: a player with hundreds of millions of tokens has
 * more legal actions than an int counts. Up to the limit both listings
 * count them all (the grouped one in a handful of entries); past it they
 * refuse with a message, never wrap. */
static void test_invest_amounts_count(void **state)
{
    (void)state;
    foh_game *g = t_empty_game(3, P1);
    const char *market[] = {"aristotle", "philosophy", "iron_works", "archers", "temple"};
    for (int i = 0; i < 5; i++)
        t_market(g, market[i]);
    foh_action room[16];
    foh_error err = {0};
    t_tokens(g, P1, 400000000); /* 5 x 400 M amounts, and Harvest: under INT_MAX */
    int nlegal = 0;
    assert_int_equal(foh_game_legal_actions(g, room, 16, &err), 2000000001);
    assert_int_equal(foh_game_legal_grouped(g, room, 16, &nlegal, &err), 6);
    assert_int_equal(nlegal, 2000000001);
    foh_action last;
    assert_int_equal(foh_legal_ungroup(room, 6, 1999999999, &last), 0);
    assert_int_equal(last.kind, FOH_ACT_INVEST);
    assert_int_equal(last.card, t_card("temple"));
    assert_int_equal(last.tokens, 400000000);
    t_tokens(g, P1, 500000000); /* 2.5 billion */
    assert_int_equal(foh_game_legal_actions(g, room, 16, &err), -1);
    assert_int_equal(err.code, FOH_ERR_DATA);
    if (!strstr(err.msg, "P1 has 500000000 tokens") || !strstr(err.msg, "more legal actions than the engine counts"))
        fail_msg("%s", err.msg);
    err = (foh_error){0};
    assert_int_equal(foh_game_legal_grouped(g, room, 16, &nlegal, &err), -1);
    assert_int_equal(nlegal, -1);
    assert_int_equal(err.code, FOH_ERR_DATA);
    /* Only cards without an investor take Invest: with two invested in,
     * 3 x 500 M amounts, 2 Snipes and Harvest fit. */
    t_tokens(g, P2, 5);
    t_tokens(g, P3, 5);
    assert_int_equal(foh_position_invest(g, P2, t_card("aristotle"), 2, &err), FOH_OK);
    assert_int_equal(foh_position_invest(g, P3, t_card("philosophy"), 2, &err), FOH_OK);
    assert_int_equal(foh_game_legal_actions(g, room, 16, &err), 1500000003);
    assert_int_equal(foh_game_legal_grouped(g, room, 16, &nlegal, &err), 6);
    assert_int_equal(nlegal, 1500000003);
    foh_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invest),
        cmocka_unit_test(test_complete_example_and_bonus_cap),
        cmocka_unit_test(test_snipe_example),
        cmocka_unit_test(test_harvest_examples),
        cmocka_unit_test(test_stacking_and_reveal),
        cmocka_unit_test(test_leader_replacement),
        cmocka_unit_test(test_activate),
        cmocka_unit_test(test_age_check),
        cmocka_unit_test(test_scoring_example_25_vp),
        cmocka_unit_test(test_obsolete_off_at_scoring),
        cmocka_unit_test(test_tie_breaks),
        cmocka_unit_test(test_choice_inside_effect),
        cmocka_unit_test(test_chained_gains),
        cmocka_unit_test(test_invest_amounts_count),
    };
    return cmocka_run_group_tests(tests, NULL, t_teardown);
}

/* Helpers shared by the unit tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"

static foh_cardset *cards;
static foh_engine *engine;

static void load(void)
{
    if (cards)
        return;
    foh_error err;
    cards = foh_cardset_load(FOH_TEST_CARDS, &err);
    if (!cards)
        fail_msg("loading the base card set: %s", err.msg);
    engine = foh_engine_new(cards, &err);
    if (!engine)
        fail_msg("creating an engine: %s", err.msg);
}

foh_cardset *t_cards(void)
{
    load();
    return cards;
}

foh_engine *t_engine(void)
{
    load();
    return engine;
}

int t_teardown(void **state)
{
    (void)state;
    foh_engine_free(engine);
    foh_cardset_free(cards);
    engine = NULL;
    cards = NULL;
    return 0;
}

int t_card(const char *id)
{
    int c = foh_cardset_find(t_cards(), id);
    if (c < 0)
        fail_msg("no card '%s'", id);
    return c;
}

int t_icon(const char *name)
{
    int i = foh_cardset_icon_find(t_cards(), name);
    if (i < 0)
        fail_msg("no icon '%s'", name);
    return i;
}

int t_type(const char *name)
{
    for (int t = 0; t < foh_cardset_type_count(t_cards()); t++)
        if (!strcmp(foh_cardset_type_name(t_cards(), t), name))
            return t;
    fail_msg("no card type '%s'", name);
    return -1;
}

foh_game *t_empty_game(int players, int current)
{
    foh_error err;
    foh_options opt = {.players = players, .seed = 7};
    foh_game *g = foh_game_new(t_engine(), &opt, &err);
    if (!g)
        fail_msg("new game: %s", err.msg);
    if (foh_position_clear(g, current, &err) != FOH_OK)
        fail_msg("clear: %s", err.msg);
    return g;
}

static void put(foh_game *g, const char *id, foh_zone zone, int player)
{
    foh_error err;
    if (foh_position_put(g, t_card(id), zone, player, &err) != FOH_OK)
        fail_msg("put %s: %s", id, err.msg);
}

void t_nation(foh_game *g, int player, const char *id) { put(g, id, FOH_ZONE_NATION, player); }
void t_market(foh_game *g, const char *id) { put(g, id, FOH_ZONE_MARKET, -1); }
void t_deck(foh_game *g, const char *id) { put(g, id, FOH_ZONE_DECK, -1); }

void t_tokens(foh_game *g, int player, int tokens)
{
    foh_error err;
    if (foh_position_set_tokens(g, player, tokens, &err) != FOH_OK)
        fail_msg("tokens: %s", err.msg);
}

void t_apply(foh_game *g, foh_action a, foh_status code)
{
    foh_error err = {0};
    foh_status s = foh_game_apply(g, &a, &err);
    if (s != code)
        fail_msg("apply: expected status %d, got %d (%s)", code, s, err.msg);
}

foh_action t_act(foh_action_kind kind, const char *card, int tokens)
{
    return (foh_action){.kind = kind, .card = card ? t_card(card) : -1, .tokens = tokens, .option = -1};
}

foh_action t_choose(int option)
{
    return (foh_action){.kind = FOH_ACT_CHOOSE, .card = -1, .tokens = 0, .option = option};
}

int t_option(const foh_game *g, const char *label)
{
    const foh_choice *ch = foh_game_choice(g);
    if (!ch)
        fail_msg("no choice is pending (wanted '%s')", label);
    for (int i = 0; i < ch->n; i++)
        if (!strcmp(ch->label[i], label))
            return i;
    fail_msg("no option '%s' in the pending choice", label);
    return -1;
}

void t_invariants(const foh_game *g)
{
    foh_error err;
    if (foh_game_check_invariants(g, &err) != FOH_OK)
        fail_msg("%s", err.msg);
}

const char *t_cardset_dir(const char *tag, ...)
{
    static char dir[256];
    snprintf(dir, sizeof dir, "/tmp/foh-test-%d-%s", (int)getpid(), tag);
    mkdir(dir, 0700);
    char path[512];
    int have_game = 0;
    va_list ap;
    va_start(ap, tag);
    for (const char *name; (name = va_arg(ap, const char *));) {
        const char *text = va_arg(ap, const char *);
        have_game |= !strcmp(name, "game.yaml");
        snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *f = fopen(path, "w");
        fputs(text, f);
        fclose(f);
    }
    va_end(ap);
    if (!have_game) {
        /* The base game.yaml, with its script path made absolute. */
        FILE *in = fopen(FOH_TEST_CARDS "/game.yaml", "r");
        snprintf(path, sizeof path, "%s/game.yaml", dir);
        FILE *out = fopen(path, "w");
        char line[512];
        while (fgets(line, sizeof line, in)) {
            if (!strncmp(line, "scripts:", 8))
                fprintf(out, "scripts: [%s/effects.lua]\n", FOH_TEST_SCRIPTS);
            else if (!strncmp(line, "  deck_bottom:", 14))
                continue;
            else
                fputs(line, out);
        }
        fclose(in);
        fclose(out);
    }
    return dir;
}

void t_collect_log(void *ud, const char *line)
{
    char *log = ud;
    size_t n = strlen(log);
    snprintf(log + n, T_LOG_SIZE - n, "%s\n", line);
}

foh_status t_complete(foh_engine *e, const char *const (*nation)[5], int card, foh_game **out, char *log,
                      foh_error *err)
{
    const foh_cardset *cs = foh_engine_cardset(e);
    foh_options opt = {.players = 3, .seed = 5};
    foh_game *g = foh_game_new(e, &opt, err);
    assert_non_null(g);
    assert_int_equal(foh_position_clear(g, 0, err), FOH_OK);
    for (int p = 0; nation && p < 3; p++)
        for (int i = 0; nation[p][i]; i++)
            assert_int_equal(foh_position_put(g, foh_cardset_find(cs, nation[p][i]), FOH_ZONE_NATION, p, err),
                             FOH_OK);
    assert_int_equal(foh_position_put(g, card, FOH_ZONE_MARKET, -1, err), FOH_OK);
    assert_int_equal(foh_position_set_tokens(g, 0, 5, err), FOH_OK);
    assert_int_equal(foh_position_invest(g, 0, card, 2, err), FOH_OK);
    if (log) {
        log[0] = '\0';
        foh_game_set_log(g, t_collect_log, log);
    }
    foh_action a = {.kind = FOH_ACT_COMPLETE, .card = -1, .tokens = 0, .option = -1};
    foh_status s = foh_game_apply(g, &a, err);
    if (out)
        *out = g;
    else
        foh_game_free(g);
    return s;
}

/* trace: see trace.h. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/trace.h"

static json_t *card_or_null(const foh_cardset *cs, int card)
{
    foh_card_info ci;
    return card >= 0 && foh_cardset_card(cs, card, &ci) == FOH_OK ? json_string(ci.id) : json_null();
}

/* "P2", "N1" (a neutral investor) or null. */
static json_t *investor(int who)
{
    char buf[16];
    if (who < 0)
        return json_null();
    snprintf(buf, sizeof buf, who >= FOH_NEUTRAL_INVESTOR ? "N%d" : "P%d",
             who >= FOH_NEUTRAL_INVESTOR ? who - FOH_NEUTRAL_INVESTOR + 1 : who + 1);
    return json_string(buf);
}

static json_t *action_json(foh_game *g, const foh_action *a, const char *text)
{
    const foh_cardset *cs = foh_game_cardset(g);
    json_t *x = json_pack("{s:s}", "kind", foh_action_kind_name(a->kind));
    if (a->card >= 0)
        json_object_set_new(x, "card", card_or_null(cs, a->card));
    if (a->kind == FOH_ACT_INVEST)
        json_object_set_new(x, "tokens", json_integer(a->tokens));
    if (a->kind == FOH_ACT_CHOOSE)
        json_object_set_new(x, "option", json_integer(a->option));
    if (a->kind == FOH_ACT_CUSTOM) {
        json_object_set_new(x, "option", json_integer(a->option));
        json_object_set_new(x, "action", json_string(foh_cardset_action_name(cs, a->option)));
    }
    json_object_set_new(x, "text", json_string(text));
    return x;
}

json_t *trace_legal(foh_game *g, foh_error *err)
{
    foh_action *legal = NULL;
    int cap = 0, n = foh_match_legal(g, &legal, &cap, err);
    if (n < 0)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        char text[160];
        foh_game_describe_action(g, &legal[i], text, sizeof text);
        json_array_append_new(list, action_json(g, &legal[i], text));
    }
    free(legal);
    return list;
}

json_t *trace_state(foh_game *g, foh_error *err)
{
    const foh_cardset *cs = foh_game_cardset(g);
    int to_act = foh_game_to_act(g);
    json_t *st =
        json_pack("{s:i,s:i,s:o,s:b,s:b,s:i,s:i,s:i,s:i,s:i,s:b}", "turn", foh_game_turn(g), "current",
                  foh_game_current_player(g) + 1, "to_act", to_act < 0 ? json_null() : json_integer(to_act + 1), "over",
                  foh_game_is_over(g), "stalled", foh_game_is_stalled(g), "supply", foh_game_supply(g), "reserve",
                  foh_game_reserve(g), "substituted", foh_game_substituted(g), "current_age", foh_game_current_age(g),
                  "deck_size", foh_game_deck_size(g), "bonus", foh_game_in_bonus(g));
    json_t *market = json_array();
    for (int i = 0; i < foh_game_market_size(g); i++) {
        int c = foh_game_market_card(g, i);
        json_array_append_new(market,
                              json_pack("{s:o,s:o,s:i}", "card", card_or_null(cs, c), "investor",
                                        investor(foh_game_investor(g, c)), "tokens", foh_game_invested_tokens(g, c)));
    }
    json_object_set_new(st, "market", market);
    json_t *players = json_array();
    json_object_set_new(st, "players", players);
    for (int p = 0; p < foh_game_players(g); p++) {
        int icons[FOH_MAX_ICONS], attack, defence;
        if (foh_game_icon_counts(g, p, icons, err) != FOH_OK ||
            foh_game_strengths(g, p, &attack, &defence, err) != FOH_OK) {
            json_decref(st);
            return NULL;
        }
        json_t *nation = json_object(), *ic = json_object();
        for (int t = 0; t < foh_cardset_type_count(cs); t++) {
            int cards[FOH_MAX_CARDS], k = foh_game_nation_cards(g, p, t, cards, FOH_MAX_CARDS);
            json_t *pile = json_array();
            for (int i = 0; i < k; i++)
                json_array_append_new(pile, card_or_null(cs, cards[i]));
            json_object_set_new(nation, foh_cardset_type_name(cs, t), pile);
        }
        for (int i = 0; i < foh_cardset_icon_count(cs); i++)
            json_object_set_new(ic, foh_cardset_icon_name(cs, i), json_integer(icons[i]));
        json_array_append_new(players, json_pack("{s:i,s:i,s:o,s:o,s:o,s:i,s:i}", "player", p + 1, "tokens",
                                                 foh_game_tokens(g, p), "investment",
                                                 card_or_null(cs, foh_game_investment(g, p)), "nation", nation, "icons",
                                                 ic, "attack", attack, "defence", defence));
    }
    const foh_choice *ch = foh_game_choice(g);
    if (ch) {
        json_t *options = json_array();
        for (int i = 0; i < ch->n; i++)
            json_array_append_new(options, json_string(ch->label[i]));
        json_object_set_new(st, "choice",
                            json_pack("{s:i,s:o,s:s,s:o}", "player", ch->player + 1, "card", card_or_null(cs, ch->card),
                                      "prompt", ch->prompt, "options", options));
    } else {
        json_object_set_new(st, "choice", json_null());
    }
    return st;
}

/* One line: where the game is, what led there, what can be done now. */
static foh_status write_line(tracer *t, foh_game *g, const foh_decision *d, foh_error *err)
{
    json_t *state = trace_state(g, err), *legal = state ? trace_legal(g, err) : NULL;
    if (!legal) {
        json_decref(state);
        return err ? err->code : FOH_ERR_SCRIPT;
    }
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)t->seed);
    json_t *line = json_pack("{s:I,s:s,s:I}", "game", (json_int_t)t->game, "seed", seed, "step", (json_int_t)t->step);
    if (d) {
        json_t *a = action_json(g, &d->action, t->text);
        json_object_set_new(a, "player", json_integer(d->player + 1));
        json_object_set_new(line, "action", a);
    } else {
        json_object_set_new(line, "action", json_null());
    }
    json_object_set_new(line, "state", state);
    json_object_set_new(line, "legal", legal);
    int bad = json_dumpf(line, t->out, JSON_COMPACT) != 0 || fputc('\n', t->out) == EOF;
    json_decref(line);
    if (bad)
        return foh_error_set(err, FOH_ERR_USAGE, "cannot write the trace file");
    return FOH_OK;
}

foh_status trace_start(tracer *t, FILE *out, long game, uint64_t seed, foh_game *g, foh_error *err)
{
    t->out = out;
    t->game = game;
    t->seed = seed;
    t->step = 0;
    t->text[0] = '\0';
    return write_line(t, g, NULL, err);
}

static foh_status before(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    tracer *t = ud;
    (void)err;
    foh_game_describe_action(g, &d->action, t->text, sizeof t->text);
    return FOH_OK;
}

static foh_status after(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    tracer *t = ud;
    t->step++;
    return write_line(t, g, d, err);
}

foh_observer trace_observer(tracer *t) { return (foh_observer){.before = before, .after = after, .ud = t}; }

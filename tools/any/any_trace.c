/* any_trace: `--trace FILE` of foh play and foh replay for a card set of
 * any ruleset: JSON Lines, one object after the set-up (step 0) and one
 * after every action, with what each seat sees then (foh_game_observe),
 * the score lines and the legal actions by name (docs/trace-format.md,
 * "Other rulesets"). */
#include "any/any_trace.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "foh/match.h"
#include "foh/ruleset.h"

/* TEXT as a JSON string: escaped as for a terminal if it is not UTF-8. */
static json_t *text_of(const char *text)
{
    json_t *s = json_string(text);
    if (s)
        return s;
    size_t len = 4 * strlen(text) + 1;
    char *safe = malloc(len);
    if (!safe)
        return NULL;
    cli_escape(text, safe, len);
    s = json_string(safe);
    free(safe);
    return s;
}

/* What each player sees of G, one string each. */
static json_t *observations(const foh_game *g)
{
    json_t *list = json_array();
    char small[8192];
    for (int p = 0; list && p < foh_game_players(g); p++) {
        int need = foh_game_observe(g, p, small, sizeof small);
        char *view = need >= (int)sizeof small ? malloc((size_t)need + 1) : small;
        if (!view) {
            json_decref(list);
            return NULL;
        }
        if (view != small)
            foh_game_observe(g, p, view, (size_t)need + 1);
        if (json_array_append_new(list, text_of(need < 0 ? "" : view)) != 0) {
            json_decref(list);
            list = NULL;
        }
        if (view != small)
            free(view);
    }
    return list;
}

/* Each player's score lines, {label: value} each; NULL with ERR set. */
static json_t *scores(foh_game *g, foh_error *err)
{
    json_t *list = json_array();
    foh_score_line lines[16];
    for (int p = 0; list && p < foh_game_players(g); p++) {
        int n = foh_game_score_lines(g, p, lines, 16, err);
        json_t *one = n >= 0 ? json_object() : NULL;
        for (int i = 0; one && i < n; i++) {
            double v = lines[i].value; /* whole numbers written as integers */
            int whole = v > -9e15 && v < 9e15 && (double)(json_int_t)v == v;
            json_object_set_new(one, lines[i].label, whole ? json_integer((json_int_t)v) : json_real(v));
        }
        if (!one || json_array_append_new(list, one) != 0) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

/* The legal actions of G by name. */
static json_t *legal_names(any_trace *t, foh_game *g, foh_error *err)
{
    int n = foh_match_legal(g, &t->legal, &t->cap, err);
    json_t *list = n >= 0 ? json_array() : NULL;
    char what[256];
    for (int i = 0; list && i < n; i++) {
        foh_game_describe_action(g, &t->legal[i], what, sizeof what);
        if (json_array_append_new(list, text_of(what)) != 0) {
            json_decref(list);
            list = NULL;
        }
    }
    return list;
}

foh_status any_trace_step(any_trace *t, foh_game *g, long step, const char *action, int player, foh_error *err)
{
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, t->seed);
    int over = foh_game_is_over(g);
    foh_error why = {0};
    json_t *sc = scores(g, &why), *legal = sc ? legal_names(t, g, &why) : NULL;
    if (!legal) {
        json_decref(sc);
        return foh_error_set(err, why.code ? why.code : FOH_ERR_MEMORY, "--trace: %s",
                             why.code ? why.msg : "out of memory");
    }
    json_t *act = action ? json_pack("{s:o,s:i}", "text", text_of(action), "player", player + 1) : json_null();
    json_t *line = json_pack("{s:i,s:s,s:I,s:o,s:{s:i,s:o,s:b},s:o,s:o,s:o}", "game", 0, "seed", seed, "step",
                             (json_int_t)step, "action", act, "state", "turn", foh_game_turn(g), "to_act",
                             over ? json_null() : json_integer(foh_game_to_act(g) + 1), "over", over, "scores", sc,
                             "observe", observations(g), "legal", legal);
    int bad = !line || json_dumpf(line, t->out, JSON_COMPACT) != 0 || fputc('\n', t->out) == EOF;
    json_decref(line);
    return bad ? foh_error_set(err, FOH_ERR_USAGE, "--trace: cannot write the trace") : FOH_OK;
}

void any_trace_free(any_trace *t)
{
    free(t->legal);
    t->legal = NULL;
    t->cap = 0;
}

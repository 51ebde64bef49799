/* lua_hooks: calls into card effects and variant hooks (see lua_bridge.h).
 * Every call runs with the sandbox's limits; an error names the card (or
 * variant hook), the script's file and line, and the cause. */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "lua_internal.h"
#include "memo.h"
#include "native.h"
#include "nation.h"

/* Who a failing call was, for its error message: CARD's HOOK, or variant
 * hook number VHOOK when CARD is -1. Formatted only when there is an error:
 * calls run on the bots' hot path. */
static void caller_name(const foh_engine *e, int card, const char *hook, int vhook, char *buf, size_t len)
{
    const foh_cardset *cs = e->cs;
    if (card >= 0)
        snprintf(buf, len, "card '%s' (%s)", cs->card[card].id, hook);
    else if (vhook >= 0 && vhook < cs->nhooks && cs->hook[vhook].point == FOH_HOOK_REACTION)
        snprintf(buf, len, "variant '%s' reaction to '%s'", cs->variant[cs->hook[vhook].variant],
                 cs->event[cs->hook[vhook].event]);
    else if (vhook >= 0 && vhook < cs->nhooks)
        snprintf(buf, len, "variant '%s' hook '%s'", cs->variant[cs->hook[vhook].variant],
                 foh_hook_names[cs->hook[vhook].point]);
    else if (hook)
        snprintf(buf, len, "%s", hook);
    else
        snprintf(buf, len, "a script");
}

/* Call the function and NARGS arguments on the stack (above TOP) with the
 * sandbox's limits; CARD/HOOK/VHOOK name it in errors (see caller_name).
 * See call_hook for COUNTING. */
static foh_status call_pushed(foh_game *g, int top, int nargs, int nres, int counting, int card, const char *hook,
                              int vhook, foh_error *err)
{
    foh_engine *e = g->eng;
    lua_State *L = e->sb.L;
    foh_game *prev_g = e->g;
    int prev_counting = e->counting, outermost = prev_g == NULL;
    e->g = g;
    e->counting = counting;
    e->sb.call_id = card;
    if (outermost) {
        e->need_choice = 0;
        if (counting == 0)
            g->choice.card = card;
    }
    int st = foh_lua_protected_call(&e->sb, nargs, nres, outermost);
    e->g = prev_g;
    e->counting = prev_counting;
    if (st == LUA_OK)
        return FOH_OK;
    if (lua_touserdata(L, -1) == (void *)&foh_lua_nested_error_tag) {
        lua_settop(L, top);
        if (err)
            *err = e->nested_error;
        return e->nested_error.code;
    }
    char who[160];
    caller_name(e, card, hook, vhook, who, sizeof who);
    if (e->need_choice && lua_touserdata(L, -1) == (void *)&foh_lua_need_choice_tag) {
        /* Nested (a reaction inside an effect): the API function that fired
         * the event raises the question again, up to the outermost call. */
        lua_settop(L, top);
        return FOH_NEED_CHOICE;
    }
    foh_error_set(err, FOH_ERR_SCRIPT, "%s: %s", who, foh_lua_error_text(&e->sb, st));
    lua_settop(L, top);
    return FOH_ERR_SCRIPT;
}

/* Call every hook at POINT; with ICONS, sum their returned icon tables. */
static foh_status run_hooks(foh_game *g, foh_hook_point point, int player, const char *kind, int icons[FOH_MAX_ICONS],
                            int *any, foh_error *err)
{
    foh_engine *e = g->eng;
    const foh_cardset *cs = e->cs;
    lua_State *L = e->sb.L;
    for (int h = 0; h < cs->nhooks; h++) {
        if (cs->hook[h].point != point)
            continue;
        int top = lua_gettop(L);
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->hook_ref[h]);
        lua_pushinteger(L, player + 1);
        if (kind)
            lua_pushstring(L, kind);
        else
            lua_pushnil(L);
        foh_status s = call_pushed(g, top, 2, icons ? 1 : 0, icons ? -1 : 0, -1, NULL, h, err);
        if (s != FOH_OK)
            return s;
        if (icons) {
            char why[500];
            int ok = foh_lua_read_icons(L, -1, cs, icons, why, sizeof why);
            lua_settop(L, top);
            if (!ok) {
                char who[160];
                caller_name(e, -1, NULL, h, who, sizeof who);
                return foh_error_at(err, FOH_ERR_SCRIPT, cs->hook[h].file, cs->hook[h].line, 0, "%s: %s", who, why);
            }
            *any = 1;
        }
    }
    return FOH_OK;
}

foh_status flow_lua_hooks(foh_game *g, foh_hook_point point, int player, const char *kind, foh_error *err)
{
    return run_hooks(g, point, player, kind, NULL, NULL, err);
}

foh_status flow_lua_scoring_hooks(foh_game *g, int player, int icons[FOH_MAX_ICONS], int *any, foh_error *err)
{
    memset(icons, 0, sizeof(int) * FOH_MAX_ICONS);
    *any = 0;
    return run_hooks(g, FOH_HOOK_SCORING, player, NULL, icons, any, err);
}

/* Call HOOK of CARD's effect table as hook(player, card_id) with NRES
 * results left on the stack on success. COUNTING: 1 counting Permanent
 * effect (reads base icons), -1 read-only hook, 0 an effect that acts.
 * EXERCISES: whether the call uses the effect (foh_memo_exercise; asking
 * can_activate about a cost does not). */
static foh_status call_hook(foh_game *g, int card, int player, const char *hook, int nres, int counting,
                            int exercises, foh_error *err)
{
    foh_engine *e = g->eng;
    lua_State *L = e->sb.L;
    const foh_card_def *d = &e->cs->card[card];
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_ref[card]);
    if (!lua_istable(L, -1) || lua_getfield(L, -1, hook) != LUA_TFUNCTION) {
        lua_settop(L, top);
        return foh_error_set(err, FOH_ERR_SCRIPT, "card '%s' (%s:%d): its effect has no '%s' function", d->id,
                             d->file, d->line, hook);
    }
    lua_remove(L, -2);
    lua_pushinteger(L, player + 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->card_id_ref[card]);
    foh_status s = call_pushed(g, top, 2, nres, counting, card, hook, -1, err);
    if (exercises && s != FOH_ERR_SCRIPT)
        foh_memo_exercise(e, card);
    return s;
}

/* ---- Native effects (native.c) ---- */

static int native_on(const foh_engine *e, int card) { return e->native[card].op != FOH_NATIVE_NONE && !e->lua_only; }

/* The context call_pushed gives a Lua call, for a native effect of CARD:
 * the Lua calls it makes (reactions, counting effects) are nested in it
 * as they would be in the helper's Lua function. */
typedef struct {
    foh_game *g;
    int counting, outermost;
} native_frame;

static void native_enter(foh_game *g, int card, int counting, native_frame *f)
{
    foh_engine *e = g->eng;
    f->g = e->g;
    f->counting = e->counting;
    f->outermost = e->g == NULL;
    e->g = g;
    e->counting = counting;
    e->sb.call_id = card;
    if (f->outermost) {
        e->need_choice = 0;
        if (counting == 0)
            g->choice.card = card;
        e->sb.limits_due = 1; /* the first Lua call inside starts the limits (foh_lua_protected_call) */
    }
}

static foh_status native_leave(foh_game *g, int card, const native_frame *f, foh_status s)
{
    foh_engine *e = g->eng;
    e->g = f->g;
    e->counting = f->counting;
    if (f->outermost) {
        if (!e->sb.limits_due)
            foh_lua_watchdog_disarm(&e->sb);
        e->sb.limits_due = 0;
    }
    if (s != FOH_ERR_SCRIPT)
        foh_memo_exercise(e, card);
    return s;
}

/* An action's calls share one deadline: a span of the sandbox's meter. */
void flow_lua_action_begin(foh_engine *e) { foh_lua_span_begin(&e->sb); }

void flow_lua_action_end(foh_engine *e) { foh_lua_span_end(&e->sb); }

/* The tags raised through the sandbox's calls (lua_internal.h): only their
 * addresses matter. */
const char foh_lua_need_choice_tag = 0;
const char foh_lua_nested_error_tag = 0;

foh_status flow_lua_on_gain(foh_game *g, int card, int player, foh_error *err)
{
    const foh_native *n = &g->eng->native[card];
    int attack = n->op == FOH_NATIVE_ATTACK || n->op == FOH_NATIVE_ATTACK_ALL;
    if (native_on(g->eng, card) && (!attack || foh_native_attack_runs(g, card))) {
        native_frame f;
        native_enter(g, card, 0, &f);
        foh_status s = attack ? foh_native_attack(g, card, player, err) : foh_native_on_gain(g, card, player, err);
        return native_leave(g, card, &f, s);
    }
    return call_hook(g, card, player, "on_gain", 0, 0, 1, err);
}

foh_status foh_lua_effect_call(foh_game *g, int card, int player, const char *field, foh_error *err)
{
    return call_hook(g, card, player, field, 0, 0, 0, err);
}

foh_status flow_lua_activate(foh_game *g, int card, int player, foh_error *err)
{
    if (native_on(g->eng, card)) {
        native_frame f;
        native_enter(g, card, 0, &f);
        return native_leave(g, card, &f, foh_native_activate(g, card, player, err));
    }
    return call_hook(g, card, player, "activate", 0, 0, 1, err);
}

foh_status flow_lua_can_activate(foh_game *g, int card, int player, int *ok, foh_error *err)
{
    foh_engine *e = g->eng;
    lua_State *L = e->sb.L;
    if (native_on(e, card)) {
        *ok = foh_native_can_activate(g, card, player);
        return FOH_OK;
    }
    *ok = 1;
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_ref[card]);
    int has = lua_istable(L, -1) && lua_getfield(L, -1, "can_activate") == LUA_TFUNCTION;
    lua_settop(L, top);
    if (!has)
        return FOH_OK;
    foh_status s = call_hook(g, card, player, "can_activate", 1, -1, 0, err);
    if (s != FOH_OK)
        return s;
    *ok = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return FOH_OK;
}

static foh_status icon_result(foh_game *g, int card, int icons[FOH_MAX_ICONS], foh_error *err)
{
    lua_State *L = g->eng->sb.L;
    const foh_card_def *d = &g->eng->cs->card[card];
    char why[500];
    int ok = foh_lua_read_icons(L, -1, g->eng->cs, icons, why, sizeof why);
    lua_pop(L, 1);
    if (!ok)
        return foh_error_at(err, FOH_ERR_SCRIPT, d->effect_file, d->effect_line, 0, "card '%s': %s", d->id, why);
    return FOH_OK;
}

foh_status flow_lua_provides(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    if (native_on(g->eng, card)) { /* reads base icons and counts: no Lua call inside */
        foh_status s = foh_native_provides(g, card, player, icons, err);
        if (s != FOH_ERR_SCRIPT)
            foh_memo_exercise(g->eng, card);
        return s;
    }
    foh_status s = call_hook(g, card, player, "provides", 1, 1, 1, err);
    return s == FOH_OK ? icon_result(g, card, icons, err) : s;
}

foh_status flow_lua_end_game(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    if (native_on(g->eng, card)) {
        native_frame f;
        native_enter(g, card, -1, &f);
        return native_leave(g, card, &f, foh_native_end_game(g, card, player, icons, err));
    }
    memset(icons, 0, sizeof(int) * FOH_MAX_ICONS);
    foh_status s = call_hook(g, card, player, "end_game", 1, -1, 1, err);
    return s == FOH_OK ? icon_result(g, card, icons, err) : s;
}
/* ---- Events ---- */

/* After a reaction to an event (CARD's HOOK, or variant hook VHOOK when
 * CARD is -1), the firing script's CHECK(ev) of the table at EV: an error
 * it raises is the reaction's, which left the table so, and names it with
 * the place of its script. */
static foh_status check_reaction(foh_game *g, int check, int ev, int card, const char *hook, int vhook,
                                 foh_error *err)
{
    foh_engine *e = g->eng;
    lua_State *L = e->sb.L;
    int top = lua_gettop(L);
    lua_pushvalue(L, check);
    lua_pushvalue(L, ev);
    foh_status s = call_pushed(g, top, 1, 0, 0, -1, "check", -1, err); /* "check: ...", taken off below */
    if (s != FOH_ERR_SCRIPT || !err)
        return s;
    const foh_cardset *cs = e->cs;
    const char *file = card >= 0 ? cs->card[card].effect_file : cs->hook[vhook].file;
    int line = card >= 0 ? cs->card[card].effect_line : cs->hook[vhook].line;
    char who[160], why[sizeof err->msg];
    caller_name(e, card, hook, vhook, who, sizeof who);
    size_t skip = strncmp(err->msg, "check: ", 7) ? 0 : 7;
    snprintf(why, sizeof why, "%s", err->msg + skip);
    return foh_error_set(err, FOH_ERR_SCRIPT, "%s: %s:%d: after this reaction, the event's table fails the check "
                         "of %s: %s", who, file, line,
                         e->query_check ? "the engine, which reads it back" : "the script that fired the event", why);
}

/* Whether the cost event's table at EV says allowed = false now. */
static int forbidden(lua_State *L, int ev)
{
    int t = lua_getfield(L, ev, "allowed");
    int no = t == LUA_TBOOLEAN && !lua_toboolean(L, -1);
    lua_pop(L, 1);
    return no;
}

foh_status foh_lua_dispatch(foh_game *g, int event, int ev, int check, foh_error *err)
{
    foh_engine *e = g->eng;
    const foh_cardset *cs = e->cs;
    lua_State *L = e->sb.L;
    if (e->event_depth >= FOH_MAX_EVENT_DEPTH) {
        char who[160];
        caller_name(e, e->react_card, "reaction", e->react_hook, who, sizeof who);
        return foh_error_set(err, FOH_ERR_SCRIPT,
                             "%s: event '%s': reactions nested more than %d deep (the engine's limit: a reaction "
                             "that fires the event it reacts to, directly or through others)",
                             who, cs->event[event], FOH_MAX_EVENT_DEPTH);
    }
    ev = lua_absindex(L, ev);
    check = check ? lua_absindex(L, check) : 0;
    /* The cost events are asked while legal actions are listed: their
     * reactions may only read the game (and change the table). */
    int counting = event == FOH_EV_SNIPE_COST || event == FOH_EV_INVEST_COST || event == FOH_EV_COMPLETE_COST ? -1 : 0;
    int outer_card = e->react_card, outer_hook = e->react_hook;
    e->event_depth++;
    foh_status s = FOH_OK;
    for (int h = 0; h < cs->nhooks && s == FOH_OK; h++) {
        if (cs->hook[h].point != FOH_HOOK_REACTION || cs->hook[h].event != event)
            continue;
        int top = lua_gettop(L);
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->hook_ref[h]);
        lua_pushvalue(L, ev);
        e->react_card = -1;
        e->react_hook = h;
        s = call_pushed(g, top, 1, 0, counting, -1, NULL, h, err);
        if (s == FOH_OK && check)
            s = check_reaction(g, check, ev, -1, NULL, h, err);
        if (s == FOH_OK && counting && !e->forbidder[0] && forbidden(L, ev))
            snprintf(e->forbidder, sizeof e->forbidder, "variant '%s'", cs->variant[cs->hook[h].variant]);
    }
    char hook[FOH_NAME + 8];
    snprintf(hook, sizeof hook, "on.%s", cs->event[event]);
    int n = g->st.players;
    for (int k = 0; k < n && s == FOH_OK; k++) {
        int q = (g->st.current + k) % n;
        for (int c = foh_nation_next(&g->st, q, 0); c >= 0 && s == FOH_OK; c = foh_nation_next(&g->st, q, c + 1)) {
            if (!(cs->card[c].reacts >> event & 1) || !foh_nation_visible(g, c))
                continue;
            int top = lua_gettop(L);
            lua_rawgeti(L, LUA_REGISTRYINDEX, e->effect_ref[c]);
            lua_getfield(L, -1, "on");
            lua_getfield(L, -1, cs->event[event]);
            lua_replace(L, top + 1);
            lua_settop(L, top + 1);
            lua_pushinteger(L, q + 1);
            lua_rawgeti(L, LUA_REGISTRYINDEX, e->card_id_ref[c]);
            lua_pushvalue(L, ev);
            e->react_card = c;
            e->react_hook = -1;
            s = call_pushed(g, top, 3, 0, counting, c, hook, -1, err);
            if (s != FOH_ERR_SCRIPT)
                foh_memo_exercise(e, c);
            if (s == FOH_OK && check)
                s = check_reaction(g, check, ev, c, hook, -1, err);
            if (s == FOH_OK && counting && !e->forbidder[0] && forbidden(L, ev))
                snprintf(e->forbidder, sizeof e->forbidder, "card '%s'", cs->card[c].id);
        }
    }
    e->event_depth--;
    e->react_card = outer_card;
    e->react_hook = outer_hook;
    return s;
}

/* Push the value of event field F (a player 1-based, a card's id, a whole
 * number, a boolean, a string); 0 (nothing pushed) for an absent player or
 * card. */
static int push_field(lua_State *L, const foh_engine *e, const foh_event_field *f)
{
    if ((f->kind == FOH_EVF_PLAYER || f->kind == FOH_EVF_CARD) && f->value < 0)
        return 0;
    if (f->kind == FOH_EVF_PLAYER || f->kind == FOH_EVF_INT)
        lua_pushinteger(L, f->value + (f->kind == FOH_EVF_PLAYER));
    else if (f->kind == FOH_EVF_CARD)
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->card_id_ref[f->value]);
    else if (f->kind == FOH_EVF_BOOL)
        lua_pushboolean(L, f->value);
    else
        lua_pushstring(L, f->text);
    return 1;
}

foh_status flow_lua_event(foh_game *g, int event, const foh_event_field *fields, int n, foh_error *err)
{
    const foh_cardset *cs = g->eng->cs;
    if (!FOH_EVENT_WANTED(cs, event))
        return FOH_OK;
    lua_State *L = g->eng->sb.L;
    int top = lua_gettop(L);
    lua_createtable(L, 0, n + 1);
    lua_pushstring(L, cs->event[event]);
    lua_setfield(L, -2, "name");
    for (int i = 0; i < n; i++)
        if (push_field(L, g->eng, &fields[i]))
            lua_setfield(L, -2, fields[i].key);
    foh_status s = foh_lua_dispatch(g, event, -1, 0, err);
    lua_settop(L, top);
    return s;
}

/* The check after each reaction to a cost event (flow_lua_query): the
 * table keeps its fields, the fixed ones unchanged, the whole numbers 0 or
 * more, the booleans booleans. Upvalue 1: the fields as fired, each with
 * its kind in upvalue 2 (name -> "fixed", "count" or "boolean"). */
static int check_query(lua_State *L)
{
    const char *bad = NULL;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(not a name)";
        lua_pushvalue(L, -1);
        int known = lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL;
        lua_pop(L, 1);
        if (!known && (!bad || strcmp(k, bad) < 0)) /* the first in byte order: one message whatever the order */
            bad = k;
    }
    if (bad) {
        lua_pushliteral(L, "");
        const char *names[FOH_EV_FIELDS];
        int n = 0;
        lua_pushnil(L);
        while (lua_next(L, lua_upvalueindex(2)) && n < FOH_EV_FIELDS) {
            lua_pop(L, 1);
            names[n++] = lua_tostring(L, -1);
        }
        for (int i = 1; i < n; i++) /* sorted: the registry table's order varies */
            for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
                const char *t = names[j];
                names[j] = names[j - 1];
                names[j - 1] = t;
            }
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (int i = 0; i < n; i++) {
            if (i)
                luaL_addstring(&b, ", ");
            luaL_addstring(&b, names[i]);
        }
        luaL_pushresult(&b);
        const char *meant = foh_error_suggest(bad, names, n);
        if (meant)
            return luaL_error(L, "sets the field '%s', which this event does not have (did you mean '%s'? its "
                                 "fields: %s)", bad, meant, lua_tostring(L, -1));
        return luaL_error(L, "sets the field '%s', which this event does not have (its fields: %s)", bad,
                          lua_tostring(L, -1));
    }
    lua_pushnil(L);
    while (lua_next(L, lua_upvalueindex(2))) {
        const char *k = lua_tostring(L, -2), *kind = lua_tostring(L, -1);
        lua_getfield(L, 1, k);
        if (!strcmp(kind, "count") && (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0 ||
                                       lua_tointeger(L, -1) > FOH_MAX_TOKENS))
            return luaL_error(L, "'%s' must be a whole number of tokens, 0 to %d, not %s", k, FOH_MAX_TOKENS,
                              luaL_tolstring(L, -1, NULL));
        if (!strcmp(kind, "boolean") && !lua_isboolean(L, -1))
            return luaL_error(L, "'%s' must be true or false, not %s", k, luaL_tolstring(L, -1, NULL));
        if (!strcmp(kind, "fixed")) {
            lua_getfield(L, lua_upvalueindex(1), k);
            int same = lua_rawequal(L, -1, -2);
            lua_pop(L, 1);
            if (!same)
                return luaL_error(L, "'%s' says what is asked about and may not be changed", k);
        }
        lua_pop(L, 2);
    }
    return 0;
}

foh_status flow_lua_query(foh_game *g, int event, foh_event_field *fields, int n, foh_error *err)
{
    foh_engine *e = g->eng;
    const foh_cardset *cs = e->cs;
    if (!FOH_EVENT_WANTED(cs, event))
        return FOH_OK;
    lua_State *L = e->sb.L;
    int top = lua_gettop(L);
    lua_createtable(L, 0, n + 1); /* top + 1: the table the reactions see */
    lua_createtable(L, 0, n + 1); /* top + 2: the fields as fired */
    lua_createtable(L, 0, n + 1); /* top + 3: their kinds */
    lua_pushstring(L, cs->event[event]);
    lua_setfield(L, top + 2, "name");
    lua_pushliteral(L, "fixed");
    lua_setfield(L, top + 3, "name");
    for (int i = 0; i < n; i++) {
        const foh_event_field *f = &fields[i];
        if (!push_field(L, e, f))
            continue;
        lua_setfield(L, top + 2, f->key);
        lua_pushstring(L, f->kind == FOH_EVF_BOOL ? "boolean" : f->kind == FOH_EVF_INT ? "count" : "fixed");
        lua_setfield(L, top + 3, f->key);
    }
    lua_pushnil(L); /* the table the reactions see: a copy of the fields as fired */
    while (lua_next(L, top + 2)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, top + 1);
    }
    lua_pushvalue(L, top + 2);
    lua_pushvalue(L, top + 3);
    lua_pushcclosure(L, check_query, 2); /* top + 4 */
    int was = e->query_check;
    e->query_check = 1;
    e->forbidder[0] = '\0';
    foh_status s = foh_lua_dispatch(g, event, top + 1, top + 4, err);
    e->query_check = was;
    for (int i = 0; i < n && s == FOH_OK; i++) {
        foh_event_field *f = &fields[i];
        if (f->kind != FOH_EVF_INT && f->kind != FOH_EVF_BOOL)
            continue;
        lua_getfield(L, top + 1, f->key); /* checked after every reaction */
        f->value = f->kind == FOH_EVF_BOOL ? lua_toboolean(L, -1) : (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    lua_settop(L, top);
    return s;
}

/* ---- Declared turn actions ---- */

foh_status flow_lua_action_can(foh_game *g, int action, int player, int *ok, foh_error *err)
{
    foh_engine *e = g->eng;
    lua_State *L = e->sb.L;
    *ok = 1;
    if (e->action_can_ref[action] == LUA_NOREF)
        return FOH_OK;
    char who[FOH_NAME + 32];
    snprintf(who, sizeof who, "action '%s' (can)", e->cs->action[action].name);
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->action_can_ref[action]);
    lua_pushinteger(L, player + 1);
    foh_status s = call_pushed(g, top, 1, 1, -1, -1, who, -1, err);
    if (s != FOH_OK)
        return s;
    *ok = lua_toboolean(L, -1);
    lua_settop(L, top);
    return FOH_OK;
}

foh_status flow_lua_action_run(foh_game *g, int action, int player, foh_error *err)
{
    foh_engine *e = g->eng;
    lua_State *L = e->sb.L;
    char who[FOH_NAME + 32];
    snprintf(who, sizeof who, "action '%s' (run)", e->cs->action[action].name);
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->action_run_ref[action]);
    lua_pushinteger(L, player + 1);
    return call_pushed(g, top, 1, 0, 0, -1, who, -1, err);
}

const flow_effects flow_lua_effects = {
    .check_cardset = flow_lua_check_cardset,
    .action_begin = flow_lua_action_begin,
    .action_end = flow_lua_action_end,
    .on_gain = flow_lua_on_gain,
    .activate = flow_lua_activate,
    .can_activate = flow_lua_can_activate,
    .provides = flow_lua_provides,
    .end_game = flow_lua_end_game,
    .hooks = flow_lua_hooks,
    .scoring_hooks = flow_lua_scoring_hooks,
    .action_can = flow_lua_action_can,
    .action_run = flow_lua_action_run,
    .event = flow_lua_event,
    .query = flow_lua_query,
};

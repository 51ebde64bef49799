/* effects: the port through which The Flow of History's rules reach the
 * cards' effects and the variants' hooks, which are scripts. The rules call
 * only this table; the Lua binding (core/rulesets/flow/lua/) implements it
 * (flow_lua_effects in lua_hooks.c) and ruleset.c joins the two, so the
 * rules never call the binding (ctest layers: rules <- lua <- ruleset.c).
 * Every method returns FOH_OK, FOH_NEED_CHOICE (a script asked a question
 * that has no answer yet: the action pauses) or FOH_ERR_SCRIPT with ERR
 * naming the card, file:line and reason. Internal to the ruleset. */
#ifndef FLOW_EFFECTS_H
#define FLOW_EFFECTS_H

#include "internal.h"

/* Internal status: a script asked a question that has no answer yet. */
#define FOH_NEED_CHOICE 100

struct foh_loader;

/* One field of an event's table: KEY = a player (0-based, given 1-based;
 * < 0: absent), a card (index, given as its id; < 0: absent), a whole
 * number, a string, or a boolean (VALUE 0 or 1). */
typedef enum { FOH_EVF_PLAYER, FOH_EVF_CARD, FOH_EVF_INT, FOH_EVF_TEXT, FOH_EVF_BOOL } foh_event_field_kind;
typedef struct {
    const char *key;
    foh_event_field_kind kind;
    int value;
    const char *text;
} foh_event_field;

struct flow_effects {
    /* Compile every script of CS and check each card's effect table against
     * its timing, filling the card definitions' derived fields (constant
     * Permanent icons, counting reads and gives; default ruling 6); with
     * LD in checking mode every failing effect, hook and action is told.
     * Called once by the card set loader. */
    foh_status (*check_cardset)(foh_cardset *cs, struct foh_loader *ld, foh_error *err);
    /* An action starts and ends: its script calls share one deadline. */
    void (*action_begin)(foh_engine *e);
    void (*action_end)(foh_engine *e);
    /* CARD's effect for PLAYER (0-based): on gain (rulebook "Instant" and
     * "Attack"), activated (Turn Action), whether its cost can be paid now
     * (*OK), the icons a counting Permanent effect provides (added to
     * ICONS), the icons an End Game effect grants (written to ICONS). */
    foh_status (*on_gain)(foh_game *g, int card, int player, foh_error *err);
    foh_status (*activate)(foh_game *g, int card, int player, foh_error *err);
    foh_status (*can_activate)(foh_game *g, int card, int player, int *ok, foh_error *err);
    foh_status (*provides)(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err);
    foh_status (*end_game)(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err);
    /* Every variant hook at POINT, in variant order, as hook(player, kind)
     * (KIND the action's name or NULL); scoring hooks' icons for PLAYER
     * summed into ICONS (*ANY: whether there was one). */
    foh_status (*hooks)(foh_game *g, foh_hook_point point, int player, const char *kind, foh_error *err);
    foh_status (*scoring_hooks)(foh_game *g, int player, int icons[FOH_MAX_ICONS], int *any, foh_error *err);
    /* A declared turn action (cs->action[ACTION]): whether PLAYER may take
     * it now (*OK), and taking it. */
    foh_status (*action_can)(foh_game *g, int action, int player, int *ok, foh_error *err);
    foh_status (*action_run)(foh_game *g, int action, int player, foh_error *err);
    /* Fire EVENT with the N FIELDS to every reaction (scripts/API.md,
     * "Events"); nothing, at no cost, when nothing reacts. */
    foh_status (*event)(foh_game *g, int event, const foh_event_field *fields, int n, foh_error *err);
    /* Ask EVENT, one of the cost events (FOH_EV_SNIPE_COST...), with the N
     * FIELDS: every reaction runs read-only and may change the whole-number
     * fields (to a number 0 or more) and the boolean ones, which are read
     * back into FIELDS; a reaction that sets another field, or one of them
     * to a value of the wrong kind, is an error naming it. Nothing, at no
     * cost, when nothing reacts. */
    foh_status (*query)(foh_game *g, int event, foh_event_field *fields, int n, foh_error *err);
};

/* The rules' calls, through the engine's port. */
static inline void foh_lua_action_begin(foh_engine *e) { e->fx->action_begin(e); }
static inline void foh_lua_action_end(foh_engine *e) { e->fx->action_end(e); }
static inline foh_status foh_lua_on_gain(foh_game *g, int card, int player, foh_error *err)
{
    return g->eng->fx->on_gain(g, card, player, err);
}
static inline foh_status foh_lua_activate(foh_game *g, int card, int player, foh_error *err)
{
    return g->eng->fx->activate(g, card, player, err);
}
static inline foh_status foh_lua_can_activate(foh_game *g, int card, int player, int *ok, foh_error *err)
{
    return g->eng->fx->can_activate(g, card, player, ok, err);
}
static inline foh_status foh_lua_provides(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    return g->eng->fx->provides(g, card, player, icons, err);
}
static inline foh_status foh_lua_end_game(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    return g->eng->fx->end_game(g, card, player, icons, err);
}
static inline foh_status foh_lua_hooks(foh_game *g, foh_hook_point point, int player, const char *kind, foh_error *err)
{
    return g->eng->fx->hooks(g, point, player, kind, err);
}
static inline foh_status foh_lua_scoring_hooks(foh_game *g, int player, int icons[FOH_MAX_ICONS], int *any,
                                               foh_error *err)
{
    return g->eng->fx->scoring_hooks(g, player, icons, any, err);
}
static inline foh_status foh_lua_action_can(foh_game *g, int action, int player, int *ok, foh_error *err)
{
    return g->eng->fx->action_can(g, action, player, ok, err);
}
static inline foh_status foh_lua_action_run(foh_game *g, int action, int player, foh_error *err)
{
    return g->eng->fx->action_run(g, action, player, err);
}
static inline foh_status foh_lua_event(foh_game *g, int event, const foh_event_field *fields, int n, foh_error *err)
{
    return g->eng->fx->event(g, event, fields, n, err);
}

static inline foh_status foh_lua_query(foh_game *g, int event, foh_event_field *fields, int n, foh_error *err)
{
    return g->eng->fx->query(g, event, fields, n, err);
}

/* Whether any variant has a hook at POINT (known when the engine is made):
 * callers skip a point nothing hooks without a call (most points of most
 * games). */
static inline int foh_lua_has_hooks(const foh_engine *eng, foh_hook_point point)
{
    return eng->hook_points >> point & 1;
}

#endif

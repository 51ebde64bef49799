/* lua_bridge: the only door between The Flow of History's rules and Lua.
 * It builds the sandbox, compiles card scripts, calls their hooks (the
 * rules' port, effects.h, implemented here) and exposes the `game` API to
 * them (documented in scripts/API.md). Internal to the ruleset. */
#ifndef FOH_LUA_BRIDGE_H
#define FOH_LUA_BRIDGE_H

#include "effects.h"
#include "internal.h"
#include "loader.h"

/* The port of the rules (effects.h) as this binding implements it. */
extern const flow_effects flow_lua_effects;

/* An action (flow_game_apply) starts and ends: every script call in it
 * shares one wall-clock deadline (foh_script_limits.time_ms). */
void flow_lua_action_begin(foh_engine *e);
void flow_lua_action_end(foh_engine *e);

/* Compile every script of CS in a scratch state and check each card's
 * effect table against its timing; fills the derived fields of the card
 * definitions (constant Permanent icons, counting reads/gives) and rejects
 * cycles between counting effects (default ruling 6). With LD in checking
 * mode (may be NULL) every failing effect, hook and action is reported. */
foh_status flow_lua_check_cardset(foh_cardset *cs, foh_loader *ld, foh_error *err);

/* Hooks of CARD's effect table, run for PLAYER (0-based) on game G.
 * They return FOH_OK, FOH_NEED_CHOICE, or FOH_ERR_SCRIPT with ERR naming
 * the card, file:line and reason. */
foh_status flow_lua_on_gain(foh_game *g, int card, int player, foh_error *err);
foh_status flow_lua_activate(foh_game *g, int card, int player, foh_error *err);
/* CARD's effect function FIELD(player, card), called by a native effect
 * as its Lua helper calls game.effect(card)[FIELD] (the attacks' on_attack):
 * inside the running effect, not counted as the card's rule taking effect. */
foh_status foh_lua_effect_call(foh_game *g, int card, int player, const char *field, foh_error *err);
/* *OK is set to whether the Turn Action's cost can be paid now. */
foh_status flow_lua_can_activate(foh_game *g, int card, int player, int *ok, foh_error *err);
/* Icons provided by a counting Permanent effect (added to ICONS). */
foh_status flow_lua_provides(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err);
/* Icons granted by an End Game effect (written to ICONS). */
foh_status flow_lua_end_game(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err);

/* Run every variant hook at POINT, in variant order, as hook(player, kind)
 * (PLAYER 0-based, passed 1-based; KIND the action's name or NULL). */
foh_status flow_lua_hooks(foh_game *g, foh_hook_point point, int player, const char *kind, foh_error *err);
/* Scoring hooks for PLAYER: the icons they grant, summed into ICONS; *ANY
 * says whether there was a scoring hook at all. Read-only. */
foh_status flow_lua_scoring_hooks(foh_game *g, int player, int icons[FOH_MAX_ICONS], int *any, foh_error *err);

/* A declared turn action (cs->action[ACTION]) for PLAYER: whether it may
 * be taken now (*OK; read-only), and taking it. Errors as the hooks'. */
foh_status flow_lua_action_can(foh_game *g, int action, int player, int *ok, foh_error *err);
foh_status flow_lua_action_run(foh_game *g, int action, int player, foh_error *err);

/* Fire EVENT (foh_event, or a declared one) with the N FIELDS: every
 * variant reaction to it, then every reacting card whose effect is active,
 * the current player's Nation first, then in turn order, each Nation's
 * cards in card-set order (scripts/API.md, "Events"). Nothing happens, at
 * no cost, when nothing reacts to EVENT. FOH_NEED_CHOICE when a reaction
 * asks a question; FOH_ERR_SCRIPT for a reaction's error or reactions
 * nested deeper than FOH_MAX_EVENT_DEPTH. */
foh_status flow_lua_event(foh_game *g, int event, const foh_event_field *fields, int n, foh_error *err);
/* The same with the event's table already at stack index EV of the
 * engine's Lua state (game.fire); reactions may change it. With CHECK (a
 * stack index, 0 for none), the function there is called with the table
 * after each reaction: its error is reported as that reaction's. */
foh_status foh_lua_dispatch(foh_game *g, int event, int ev, int check, foh_error *err);
/* The effects port's query (effects.h): a cost event asked read-only. */
foh_status flow_lua_query(foh_game *g, int event, foh_event_field *fields, int n, foh_error *err);

#endif

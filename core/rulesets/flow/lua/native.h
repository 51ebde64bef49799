/* native: the C fast paths of the shipped effect helpers (see native.c). */
#ifndef FOH_NATIVE_H
#define FOH_NATIVE_H

#include <lua.h>
#include <stddef.h>

#include "internal.h"

/* Read the `native` field of the effect table on top of E's Lua stack
 * (left there) for card D into N: N->op 0 when there is none, when a
 * number is one the C path does not take, or when the table's hook
 * functions are not those the description was made with (the card changed
 * the helper's table: its own functions run). Returns 0 with a message in
 * WHY when the field names no helper the engine runs, or an icon, type or
 * source the card set lacks (a load error: the card's file and line). */
int foh_native_read(foh_engine *e, const foh_card_def *d, foh_native *n, char *why, size_t len);

/* After every effect is loaded: the counting effects run in C, and which
 * cards have each effect field the native attacks read (through the
 * read-only proxies, as game.has_active). Runs inside the engine's
 * protected load. */
void foh_native_finish(foh_engine *e);

/* The hooks of a card whose effect has a native description, for PLAYER
 * (0-based): what the helper's Lua function does, with the same results
 * and log lines (rulebook "Effect Timing"; default rulings 5 and 6 for
 * attacks and counting effects); errors are FOH_ERR_SCRIPT naming the card
 * and its effect's file:line, worded by the C path. The caller sets up the
 * call's context (lua_hooks.c). */
foh_status foh_native_provides(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err);
foh_status foh_native_end_game(foh_game *g, int card, int player, int icons[FOH_MAX_ICONS], foh_error *err);
foh_status foh_native_on_gain(foh_game *g, int card, int player, foh_error *err);
/* turn_action_gain: whether the Turn Action's cost can be paid now, and
 * the action. */
int foh_native_can_activate(foh_game *g, int card, int player);
foh_status foh_native_activate(foh_game *g, int card, int player, foh_error *err);

/* An Attack or Attack All (rulebook "Attack Effects", default ruling 5):
 * foh_native_attack_runs says whether the C attack may run: not when
 * something in the card set reacts to its events (the Lua helper makes
 * their tables). The owner's on_attack functions are called from C. */
int foh_native_attack_runs(const foh_game *g, int card);
foh_status foh_native_attack(foh_game *g, int card, int player, foh_error *err);

#endif

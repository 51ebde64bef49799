/* tokens: resource token accounting between players, the Supply and the
 * Reserve. Every move is capped by what its source holds, except the
 * Reserve, which never runs out: tokens taken from an empty Reserve are
 * substituted and counted (default ruling 9). Internal to core/. */
#ifndef FOH_TOKENS_H
#define FOH_TOKENS_H

#include "internal.h"

/* Up to N tokens Supply -> PLAYER (default ruling 10); returns tokens moved. */
int foh_tokens_from_supply(foh_state *st, int player, int n);
/* N tokens Reserve -> PLAYER, or -> Supply when PLAYER is -1. FOH_ERR_ILLEGAL
 * (nothing moved) if the tokens substituted for an empty Reserve would put
 * more than FOH_MAX_TOKENS in play. */
foh_status foh_tokens_from_reserve(foh_state *st, int player, int n, foh_error *err);
/* Up to N tokens PLAYER -> Supply; returns tokens moved. */
int foh_tokens_to_supply(foh_state *st, int player, int n);
/* Up to N tokens FROM -> TO (players); returns tokens moved. */
int foh_tokens_transfer(foh_state *st, int from, int to, int n);

/* The moves of an effect, with their log lines: one body for the `game`
 * API (scripts/API.md) and the native helpers that stand for it
 * (native.c), so that both log the same bytes. PLAYER, FROM and TO are
 * 0-based players; N is a count of tokens, 0 to 100000 (each caller checks
 * it in its own words). */
/* game.take_from_supply: up to N tokens Supply -> PLAYER, never from the
 * Reserve (default ruling 10); returns the tokens moved. */
int foh_tokens_take_from_supply(foh_game *g, int player, int n);
/* game.take_from_reserve: N tokens Reserve -> PLAYER, substituted when the
 * Reserve runs out (default ruling 9). Errors as foh_tokens_from_reserve
 * (FOH_ERR_ILLEGAL, nothing moved or logged), its message without the API
 * name: each caller words its own front. */
foh_status foh_tokens_take_from_reserve(foh_game *g, int player, int n, foh_error *err);
/* game.pay_to_supply: up to N tokens PLAYER -> Supply; returns the tokens
 * moved. */
int foh_tokens_pay_to_supply(foh_game *g, int player, int n);
/* game.give: up to N tokens FROM -> TO; returns the tokens moved. */
int foh_tokens_give(foh_game *g, int from, int to, int n);

#endif

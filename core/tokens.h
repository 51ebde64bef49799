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

#endif

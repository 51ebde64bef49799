/* actions: the five turn actions (rulebook "Phase I: Action Phase"). */
#ifndef FOH_ACTIONS_H
#define FOH_ACTIONS_H

#include <stddef.h>

#include "internal.h"

/* FOH_OK if turn action A is legal for the current player, else
 * FOH_ERR_ILLEGAL with a message naming the rule broken. */
foh_status foh_action_check(foh_game *g, const foh_action *a, foh_error *err);
/* List the legal turn actions (see flow_game_legal_actions; -1 with ERR on a
 * script error). */
int foh_action_list(foh_game *g, foh_action *out, int max, foh_error *err);
/* The same listing with each Market card's Invest amounts in one entry
 * whose tokens is the largest amount (see flow_game_legal_grouped); *NLEGAL
 * receives the count of the full listing. */
int foh_action_list_grouped(foh_game *g, foh_action *out, int max, int *nlegal, foh_error *err);
/* Carry out a legal turn action (not its queued on-gain effects). */
foh_status foh_action_perform(foh_game *g, const foh_action *a, foh_error *err);
void foh_action_describe(const foh_game *g, const foh_action *a, char *buf, size_t len);

#endif

/* choice: a decision point inside an effect (game.choose, scripts/API.md):
 * the answer recorded for it, or a pause of the action until the player
 * answers (game.c re-runs the action with the answers). One body for the
 * `game` API and the native helpers (native.c). Internal to core/. */
#ifndef FOH_CHOICE_H
#define FOH_CHOICE_H

#include "internal.h"

/* The label of option I (0-based) of a choice into OUT (FOH_OPTION_LABEL
 * bytes); with OUT NULL (the label is not needed), the option is only
 * checked. CTX is the caller's: where its options are. The API's may raise
 * a Lua error for a bad option (foh_choice_ask holds nothing to undo). */
typedef void (*foh_choice_label_fn)(void *ctx, int i, char *out);

/* PLAYER (0-based) picks one of N options (N as the caller counted them:
 * a script's list length) labelled by LABEL(CTX, i, ...), asked with
 * PROMPT (at most FOH_PROMPT - 1 bytes, checked by the caller). *PICK is
 * the index chosen: -1 when N is 0 and 0 when N is 1, nothing asked or
 * labelled; else the next recorded answer, labelled (checked) and logged
 * "P1 chooses X (prompt)", LABEL's last call being for it. With no
 * answer left: the game's choice set (every option labelled, in order)
 * and FOH_NEED_CHOICE (the run stops to ask). Errors, FOH_ERR_SCRIPT with
 * the limit in the message (without the API name: each caller words its
 * own front): more than FOH_MAX_OPTIONS options, a recorded answer out of
 * range, more than FOH_MAX_ANSWERS choices in one action. */
foh_status foh_choice_ask(foh_game *g, int player, long long n, const char *prompt, foh_choice_label_fn label,
                          void *ctx, int *pick, foh_error *err);

#endif

/* any_trace: `--trace FILE` of foh play and foh replay for a card set of
 * any ruleset (any_trace.c, docs/trace-format.md "Other rulesets"). */
#ifndef FOH_ANY_TRACE_H
#define FOH_ANY_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "foh/foh.h"

typedef struct {
    FILE *out;
    uint64_t seed;
    foh_action *legal; /* scratch */
    int cap;
} any_trace;

/* Write the line of step STEP (actions applied so far) of G: ACTION (the
 * name of the action just applied, taken by PLAYER, 0-based; NULL at step
 * 0), the state (turn, whose decision, over), each player's score lines,
 * what each player sees and the legal actions by name. */
foh_status any_trace_step(any_trace *t, foh_game *g, long step, const char *action, int player, foh_error *err);
void any_trace_free(any_trace *t);

#endif

/* trace: `--trace FILE` on play, replay and sim: JSON Lines with the whole
 * public state and the legal actions after every action (and after the
 * set-up), so that any game can be inspected from outside. Format:
 * docs/trace-format.md. */
#ifndef FOH_TRACE_H
#define FOH_TRACE_H

#include <stdio.h>

#include "foh/foh.h"

/* A trace observer for one game: give trace_observer(&t) to the match. */
typedef struct {
    FILE *out;
    long game;       /* the game's number in the run (0 for play) */
    uint64_t seed;   /* the game's seed */
    long step;       /* actions traced so far */
    char text[160];  /* the action in progress, described before it is applied */
} tracer;

/* Start tracing game G: writes its position after the set-up (step 0). */
foh_status trace_start(tracer *t, FILE *out, long game, uint64_t seed, foh_game *g, foh_error *err);
foh_observer trace_observer(tracer *t);

/* The whole public state of G as a JSON object (the caller json_decref's it):
 * also used by `foh legal --json`. NULL with ERR set if a script fails
 * while counting icons. */
struct json_t *trace_state(foh_game *g, foh_error *err);
/* The legal actions of G as a JSON array of {kind, card, tokens, option,
 * text}; NULL with ERR set on a script error. */
struct json_t *trace_legal(foh_game *g, foh_error *err);

#endif

/* probe: foh check runs every card's effect on purpose (issue 30), not
 * only when a random game happens to reach it: in positions built for it
 * (random games stopped early, mid and late, for each player count, and
 * positions where every Nation holds 1, 2, 3 cards of each type), the card
 * is gained by its owner (its Instant or Attack effect), or placed in a
 * Nation and every kind of turn action is taken by its owner and by an
 * opponent (its Turn Action, Permanent, End Game effects and reactions),
 * and every option of every choice the effect asks is taken in turn. */
#ifndef FOH_TOOLS_PROBE_H
#define FOH_TOOLS_PROBE_H

#include <foh/foh.h>
#include <stdint.h>

/* What the probes did: the cards with an effect and how many of them ran
 * (their rule took effect, foh_engine_exercised), the positions built, the
 * actions taken and the choice options tried; the ids of the cards whose
 * effect never ran, comma-separated (malloc'd, NULL for none). */
typedef struct {
    int effects, ran, positions;
    long actions, options;
    char *missed;
} probe_stats;

/* Probe every card of CS with an effect, on an engine made with LIMITS;
 * SEED varies the positions. Each error met (a script failing, a limit) is
 * told once through REPORT(CTX, message, core): the message starts with
 * the script's file:line and says where it was met; CORE is the engine's
 * message without its file:line (what another report of the same error
 * holds). 0 if the engine failed (told through REPORT too). */
int probe_cards(const foh_cardset *cs, const foh_script_limits *limits, uint64_t seed,
                void (*report)(void *ctx, const char *msg, const char *core), void *ctx, probe_stats *out);

#endif

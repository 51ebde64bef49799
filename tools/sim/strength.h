/* strength: foh bench --strength, a round robin of bot kinds with
 * Bradley-Terry ratings (issue 31, docs/bots.md). */
#ifndef FOH_STRENGTH_H
#define FOH_STRENGTH_H

#include "common/cli.h"

/* Every pair of the bot kinds O->seats names (comma-separated specs; at
 * least 2) plays O->games games of O->players players on CS, the seats
 * alternating the two kinds (A, B, A, B...; every other game B first);
 * in each game every seat of one kind is compared with every seat of the
 * other by final score (a tie on score broken by the win). Prints each
 * pair's head-to-head share and mean score margin, and the kinds' ratings
 * (Bradley-Terry, on the Elo scale, the first kind at 0) with 95%
 * bootstrap intervals over the games; writes them to O->json when set.
 * A CLI status. */
int strength_run(const cli_options *o, const foh_cardset *cs);

#endif

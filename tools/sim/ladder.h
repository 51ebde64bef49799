/* foh sim --skill-ladder: how far skill goes (one seat at twice the
 * others' search budget, budget after budget) and how much of the outcome
 * seat and deal explain (docs/skill.md). */
#ifndef FOH_LADDER_H
#define FOH_LADDER_H

#include "common/cli.h"

/* foh sim --help's closing paragraph. */
#define LADDER_HELP                                                                                                  \
    "With --skill-ladder, --seats names the bot climbing the ladder (ismcts or ismcts:N, N the first budget\n"       \
    "unless --ladder-from gives it) and G is the number of deals per rung (default 50): each deal is played once with the\n"      \
    "strong bot in each seat (seed S's deal i is the same on every rung). Printed: per rung the strong bot's\n"      \
    "win rate against the fair share 1/N, from random vs random and greedy vs random up; the skill depth;\n"         \
    "the win rate per seat; and the share of the outcome's variance explained by the deal (docs/skill.md).\n"

/* Run the skill ladder O describes; a CLI status. */
int ladder_main(const cli_options *o);

#endif

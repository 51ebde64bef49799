/* foh compare and foh sim --skill-ladder for card sets of any ruleset,
 * through the ruleset interface alone (any_compare.c, any_ladder.c;
 * docs/ruleset.md). */
#ifndef FOH_ANY_COMPARE_H
#define FOH_ANY_COMPARE_H

#include "common/cli.h"

/* 1 if configuration A's or B's card set of foh compare's options O
 * (--cards, --a-cards, --b-cards) names a ruleset other than the
 * registry's default: foh compare then runs any_compare. */
int any_compare_applies(const cli_options *o);
/* foh compare: A and B on the same seeds; each seat's win rate, each score
 * line's mean at the end, each seat's first score line and the game length,
 * B - A game by game with 95% intervals, what differs first; --json. */
int any_compare(const cli_options *o);
/* foh sim --skill-ladder: every pair of the bots of --seats, each alone in
 * every seat among copies of the other on the same deals; each one's win
 * rate against each other with 95% intervals, and the ranking; --json. */
int any_ladder(const cli_options *o);

#endif

/* compare_diff: what differs between configurations A and B of foh compare,
 * read from their card sets (issue 31: a comparison leads with what
 * changed). Cards are matched by id; for each card in both, every field
 * the loader keeps is compared (age, type, timing, obsolete, production
 * stripe, text, params, where its effect script is); then the cards of one
 * side only, the variants, and the source files whose contents differ
 * (game.yaml: rules, set-up or vocabulary; a script: every card using its
 * helpers may play differently). */
#ifndef FOH_COMPARE_DIFF_H
#define FOH_COMPARE_DIFF_H

#include <jansson.h>
#include <stdio.h>

#include "foh/foh.h"

/* {cards: [{card, name, changes: ["params.culture: 2 -> 6", ...]}],
 * only_in_a: [ids], only_in_b: [ids], variants_a: [names], variants_b:
 * [names], files: ["game.yaml", ...] (sources whose bytes differ or that
 * one side only has)}; NULL if out of memory. */
json_t *compare_diff(const foh_cardset *a, const foh_cardset *b);

/* The diff as text: "what differs between A and B (from their files):"
 * then one line per changed card, card of one side, variant and file, or
 * "nothing: the same cards, rules and scripts". */
void compare_diff_print(FILE *out, const json_t *diff);

/* Whether card ID is among the diff's changed cards or those of one side. */
int compare_diff_names(const json_t *diff, const char *id);

#endif

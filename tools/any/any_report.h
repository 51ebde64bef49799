/* any_report: what foh sim reports for a card set of any ruleset beyond
 * each seat's wins: which cards and kinds of card the winners played
 * (the ruleset's played_card and card_kind), and how the score lines of
 * winners and the others differ at the end (any_report.c). */
#ifndef FOH_ANY_REPORT_H
#define FOH_ANY_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "foh/match.h"
#include "foh/ruleset.h"

typedef struct any_report any_report;

/* A report of games of CS with PLAYERS players; NULL if out of memory. */
any_report *any_report_new(const foh_cardset *cs, int players);
void any_report_free(any_report *r);
/* The observer of one game (foh_match_play): it notes the cards played. */
foh_observer any_report_observer(any_report *r);
/* A game is over: G's score lines and RESULTS are counted with the cards
 * its players played; the marks are cleared for the next game. */
foh_status any_report_game(any_report *r, foh_game *g, const double *results, foh_error *err);
/* The tables as text (the cards: the ten best and worst of those played
 * in 30 player-games or more), and as JSON (every card). */
void any_report_print(const any_report *r, FILE *out);
json_t *any_report_json(const any_report *r);
/* What foh tune's targets read: the win rate of the players who played
 * card or kind NAME (KIND 1) and their player-games; the spread (max - min)
 * of the kinds' rates among kinds played in MIN player-games or more; a
 * score line's mean over every player at the end. 0 if there is none. */
int any_report_rate(const any_report *r, const char *name, int kind, double *rate, double *games);
int any_report_kind_spread(const any_report *r, double min, double *spread);
int any_report_line_mean(const any_report *r, const char *label, double *mean);

/* A page of SUMMARY (foh sim's JSON, with this report in it) at PATH; 1 if
 * written. */
int any_report_html(const json_t *summary, const char *path);

#endif

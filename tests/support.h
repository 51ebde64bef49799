/* Helpers shared by the unit tests. */
#ifndef FOH_TEST_SUPPORT_H
#define FOH_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "foh/foh.h"

/* The base card set and an engine, loaded once per test program. */
foh_cardset *t_cards(void);
foh_engine *t_engine(void);
/* cmocka group teardown: frees the card set and engine. */
int t_teardown(void **state);
/* Card index by id; fails the test if unknown. */
int t_card(const char *id);
/* Icon index by name; fails the test if unknown. */
int t_icon(const char *name);
/* Type index by name. */
int t_type(const char *name);
/* A new game of N players whose position is cleared (see foh_position_clear). */
foh_game *t_empty_game(int players, int current);
/* Put a card in a Nation / the Market / the deck top. */
void t_nation(foh_game *g, int player, const char *id);
void t_market(foh_game *g, const char *id);
void t_deck(foh_game *g, const char *id);
void t_tokens(foh_game *g, int player, int tokens); /* player -1: Supply */
/* Apply; fail the test unless the result is CODE. */
void t_apply(foh_game *g, foh_action a, foh_status code);
foh_action t_act(foh_action_kind kind, const char *card, int tokens);
foh_action t_choose(int option);
/* Index of the pending option whose label is LABEL; fails if none. */
int t_option(const foh_game *g, const char *label);
/* Fail the test if an invariant is broken. */
void t_invariants(const foh_game *g);
/* A log callback (foh_game_set_log): each line and "\n" appended to UD, a
 * string of T_LOG_SIZE bytes (cut there). */
#define T_LOG_SIZE 8192
void t_collect_log(void *ud, const char *line);
/* P1 of a 3-player game on E (seed 5, position cleared) Completes CARD,
 * after investing 2 of its 5 tokens in it from the Market; with NATION,
 * the card ids NATION[p] (NULL-ended) are put into P's Nation first. With
 * LOG (T_LOG_SIZE bytes) the game keeps its log there. Returns the
 * action's status (its error in ERR); the game in *OUT if OUT, else freed. */
foh_status t_complete(foh_engine *e, const char *const (*nation)[5], int card, foh_game **out, char *log,
                      foh_error *err);
/* Create a card set folder under /tmp from files given as name, text
 * pairs (NULL-terminated); game.yaml defaults to the base one. Returns the
 * folder (static buffer). */
const char *t_cardset_dir(const char *tag, ...);

#endif

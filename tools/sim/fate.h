/* fate: what became of each card after it was gained (issue 31), for
 * `foh sim --fate` and `foh compare`.
 *
 * The average effect of gaining a card hides how it plays out: a strong
 * card that the attack cards discard from most of its gainers looks
 * neutral on average and is in fact very swingy. So, per card, over the
 * games in which someone gained it (its first gainer), where it is when
 * the game ends: still active in the gainer's Nation (the top of its
 * stack, the Leader, a Wonder), covered there by a newer card, or lost
 * (discarded or taken out of the gainer's Nation), and then by which
 * card's action (the card completed, sniped or activated in the decision
 * that removed it: an attack on gain or a Turn Action; "no card" for a
 * rule such as an age's discard); and for each of those groups the
 * gainer's win share and final margin (own score minus the best other
 * score). Every sum is an integer, so the figures are the same whatever
 * the threads. */
#ifndef FOH_FATE_H
#define FOH_FATE_H

#include <jansson.h>
#include <stdio.h>

#include "foh/foh.h"

enum { FATE_ACTIVE, FATE_COVERED, FATE_LOST, FATE_KINDS };

typedef struct fate_stats_s {
    int ncards;
    int overflow; /* a sum would have overflowed: the figures are refused */
    long gains[FOH_MAX_CARDS];                 /* games in which the card was gained */
    long n[FOH_MAX_CARDS][FATE_KINDS];         /* of those: where it ended */
    long win_units[FOH_MAX_CARDS][FATE_KINDS]; /* the gainer's win share (WIN_UNITS a win) */
    long margin_sum[FOH_MAX_CARDS][FATE_KINDS], margin_sq[FOH_MAX_CARDS][FATE_KINDS];
    long *lost_by; /* [card * (ncards + 1) + culprit]: culprit ncards is "no card" */
} fate_stats;

/* Sums for a card set of NCARDS cards; NULL if out of memory. */
fate_stats *fate_stats_new(int ncards);
void fate_stats_free(fate_stats *s);
/* INTO += FROM (same card count); INTO->overflow set if a sum overflows. */
void fate_merge(fate_stats *into, const fate_stats *from);

/* S's sums as the `fate` of a foh compare shard (fate_shard.c): {card_count,
 * overflow, gains, n, win_units, margin_sum, margin_sq, lost_by}, flat
 * arrays of whole numbers; NULL if out of memory. */
json_t *fate_stats_to_json(const fate_stats *s);
/* J (such an object) into S, a fate_stats_new of J's card count, for a
 * shard of GAMES games: 0 with WHY if a field is missing or breaks the
 * laws of the sums (each card gained at most once a game, its fates
 * counting its gains, win shares within the gainers', Cauchy-Schwarz for
 * the margins, the removing cards counting its losses). */
int fate_stats_from_json(const json_t *j, long games, fate_stats *s, char *why, size_t len);

/* One game being watched. */
typedef struct fate_game_s fate_game;
fate_game *fate_game_new(const foh_cardset *cs);
void fate_game_free(fate_game *fg);
/* The observer to pass to the match loop (its ud is FG). */
foh_observer fate_observer(fate_game *fg);
/* The game G is over, scored SCORE: add it into S. */
void fate_game_finish(fate_game *fg, foh_game *g, const foh_score *score, fate_stats *s);

/* Card C's figures: shares of its gainers (Wilson 95% intervals, within
 * [0, 1]), win rates and mean margins by fate, the standard deviation of
 * the gainers' final margin (with a chi-square 95% interval, positive),
 * and the cards that removed it, most first. */
typedef struct {
    double value, low, high;
} fate_estimate;
typedef struct {
    long gains;
    fate_estimate share[FATE_KINDS];   /* of the gainers */
    long n[FATE_KINDS];
    fate_estimate win[FATE_KINDS];     /* win rate of the gainers by fate (0..1) */
    double margin[FATE_KINDS];         /* mean final margin (VP) */
    fate_estimate kept_win, lost_win;  /* kept = active or covered */
    double kept_margin, lost_margin;
    fate_estimate margin_sd;           /* spread of the gainers' final margin (VP) */
} fate_card;
/* 0 if C was never gained. */
int fate_card_figures(const fate_stats *s, int c, fate_card *out);
/* Up to MAX cards that removed C, most first, into CULPRIT (a card index,
 * or the card count for "no card") and COUNT; returns how many. */
int fate_culprits(const fate_stats *s, int c, int *culprit, long *count, int max);

/* The per-card table of foh sim --fate, cards in the card set's order. */
void fate_print(FILE *out, const fate_stats *s, const foh_cardset *cs);
/* Card C's block (foh compare prints one per changed card, for A and B):
 * "  gainers  active  covered  lost (by ...)  keepers win ... losers win ...". */
void fate_print_card(FILE *out, const fate_stats *s, const foh_cardset *cs, int c, const char *label);
/* {units, cards: [{card, name, gains, active_share, covered_share,
 * lost_share, kept_win_rate, lost_win_rate (each {value, low, high}, as
 * fractions 0..1; lost_win_rate null when none lost it), kept_margin_vp,
 * lost_margin_vp, margin_sd_vp {value, low, high} (null bounds below 10
 * gains), lost_to: [{card, name, games, share}]}]}, or
 * {not_computed: why}; NULL if out of memory. */
json_t *fate_json(const fate_stats *s, const foh_cardset *cs);
/* The same for card C alone (NULL if never gained or out of memory). */
json_t *fate_card_json(const fate_stats *s, const foh_cardset *cs, int c);

#endif

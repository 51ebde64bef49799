/* board: the whole public state of a game as a human player sees it before
 * a decision (docs/play.md): the Market, every Nation, Supply, Reserve,
 * Current Age, the deck, whose turn it is, in full or compact (80x24),
 * wrapped to the terminal's width (board_style.width); colours card types
 * and draws icon symbols when asked. Uses only the public API. */
#ifndef FOH_BOARD_H
#define FOH_BOARD_H

#include <stdio.h>

#include "foh/foh.h"

/* Room for a list of icons as text (every icon kind: "99 name, ", names
 * under 48 bytes) and for a whole line of the board before wrapping. */
#define BOARD_ICONS_TEXT (FOH_MAX_ICONS * 64)
#define BOARD_LINE (4 * BOARD_ICONS_TEXT)

typedef struct {
    int colour;  /* ANSI colours (card types by game.yaml's colour) */
    int symbols; /* icons by game.yaml's icon_symbols */
    int reveal;  /* designer mode: the Civilization deck's order too */
    const char *const *names; /* each player's name (P1..), or NULL */
    int width;   /* columns of the output (term_width) */
} board_style;

/* Print G's board for VIEWER (0-based; the player about to decide) to OUT. */
void board_print(FILE *out, foh_game *g, int viewer, const board_style *st);

/* A board that fits 80x24 with the list of actions: one line for the
 * state, the Market in a few lines, one or two lines per Nation (its top
 * cards by name), reconstructed stripes starred. */
void board_print_compact(FILE *out, foh_game *g, int viewer, const board_style *st);

/* What the icons mean (help): each icon's symbol and name, and what a
 * stripe, the investor bonus and the strengths are. */
void board_icon_legend(FILE *out, const foh_cardset *cs, const board_style *st);

/* TEXT word-wrapped to WIDTH display columns: the first line starts at
 * column FIRST, the others at INDENT (colour escapes take no room). */
void board_wrap(FILE *out, int width, int first, int indent, const char *text);

/* Player P as "P2" or "P2 Ann" (ST's names). */
const char *board_player_name(const board_style *st, int p, char *buf, size_t len);

/* ICON of card set CS as text: its symbol or its name. */
const char *board_icon(const foh_cardset *cs, int icon, const board_style *st);

/* Icons ICONS[0..n) as "2 science, 1 culture" (or symbols), nonzero only;
 * "none" if all are 0. */
void board_icons_text(const foh_cardset *cs, const int *icons, const board_style *st, char *buf, size_t len);

/* Card C's name, in its type's colour when ST asks. */
void board_card_name(const foh_cardset *cs, int c, const board_style *st, char *buf, size_t len);

/* Everything about card C (help CARD): name, age, type, timing, stripe,
 * investor bonus, text, edition note, file:line. */
void board_card_help(FILE *out, const foh_cardset *cs, int c, const board_style *st);

#endif

/* output: text for a terminal. Untrusted text (card files, scripts, saves,
 * shards, the keyboard) is escaped before it is printed; errors are worded
 * "foh COMMAND: message". */
#ifndef FOH_OUTPUT_H
#define FOH_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "foh/foh.h"

/* The one escape of untrusted text (from a file, a shard, a save, a script
 * or the keyboard) before it reaches a terminal: TEXT into OUT (LEN bytes,
 * cut short at a character's boundary if it does not fit), each byte a
 * terminal must not be given as it is written visibly as "\xNN": control
 * characters (ESC, BEL, newline...), DEL, C1 controls (U+0080-U+009F) and
 * bytes of invalid UTF-8; printable ASCII and well-formed UTF-8 are kept.
 * Returns the length written. */
size_t cli_escape(const char *text, char *out, size_t len);
/* cli_escape of TEXT (NULL: "") into OUT, returned: for a printf argument. */
const char *cli_safe(const char *text, char *out, size_t len);
/* Write TEXT to OUT escaped as cli_escape does, with no length limit. */
void cli_puts(FILE *out, const char *text);
/* Print "foh COMMAND: message" on stderr, with control characters written
 * visibly: messages carry names and text from card files and scripts,
 * which must not drive the terminal. */
void cli_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Write TEXT and a newline to OUT, escaped as cli_escape does ("\x1b"):
 * for lines whose text comes from data (log lines). */
void cli_line(FILE *out, const char *text);
/* TEXT word-wrapped to 80 columns from column COL, continuation lines
 * indented by INDENT; a blank line in TEXT starts a new paragraph. Ends
 * with a newline. */
void cli_wrap(FILE *out, const char *text, int indent, int col);

/* Print the score table of a finished game (or of the game as it stands).
 * Returns 0 after saying why when scoring fails (an End Game effect's
 * error), 1 otherwise. */
int cli_print_scores(FILE *out, foh_game *g);

#endif

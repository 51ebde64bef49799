/* terminal: where a human player's commands come from and how output is
 * styled. On a terminal, lines are read with libedit (history, Emacs keys,
 * Tab completion of commands and card names); from a pipe or a file, plain
 * lines, so that a scripted list of inputs drives a game. */
#ifndef FOH_TERMINAL_H
#define FOH_TERMINAL_H

#include <stdio.h>

typedef struct term term;

/* Words that complete the one being typed (commands, card ids): WORDS[0..N). */
typedef struct {
    const char *const *words;
    int n;
} term_words;

/* Open input IN (prompts and completion lists go to OUT). NULL if out of memory. */
term *term_open(FILE *in, FILE *out);
void term_close(term *t);

/* The words Tab completes (kept by the caller while T is in use). */
void term_set_words(term *t, term_words words);

/* The longest line read (a longer one stops the input: term_failure). */
#define TERM_MAX_LINE 4096
#define TERM_MAX_LINE_TEXT "4096"

/* One line, without its newline, after printing PROMPT; NULL at the end of
 * input, or when reading failed (term_failure says why: a line longer than
 * TERM_MAX_LINE, a read error; nothing is read after that). The text stays
 * valid until the next call. A non-empty line typed on a terminal enters
 * the history. */
const char *term_read(term *t, const char *prompt);

/* Why term_read stopped reading, or NULL at a plain end of input. */
const char *term_failure(const term *t);

/* Whether the input ended because Ctrl-C (SIGINT) was pressed while T was
 * open (term_read then returns NULL, as at the end of input). */
int term_interrupted(const term *t);

/* OUT's width in columns: the terminal's, else $COLUMNS, else 80 (at
 * least 30). */
int term_width(FILE *out);

/* Whether output OUT gets colour: a terminal, NO_COLOR unset, TERM not
 * "dumb" (https://no-color.org). */
int term_colour(FILE *out);
/* Whether OUT shows UTF-8 symbols: colour output in a UTF-8 locale. */
int term_symbols(FILE *out);

/* ANSI colour NAME ("red", ... "grey", as game.yaml's card_types colour)
 * as an escape sequence, or "" if NAME is NULL or unknown. */
const char *term_colour_code(const char *name);
#define TERM_BOLD "\033[1m"
#define TERM_DIM "\033[2m"
#define TERM_RESET "\033[0m"

#endif

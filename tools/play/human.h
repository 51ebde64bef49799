/* human: a human player at the terminal (docs/play.md), one more
 * foh_player beside the bots: before each of its decisions it prints the
 * board and what happened since its last decision, lists the legal actions
 * numbered and grouped by kind (Invest then asks how many tokens), and
 * reads commands: a number, help CARD, board, score, log [N], hint, undo,
 * save FILE, quit. Several humans share one table (hot-seat). */
#ifndef FOH_HUMAN_H
#define FOH_HUMAN_H

#include <stdio.h>

#include "foh/foh.h"
#include "play/board.h"
#include "play/terminal.h"

/* A decision point a human met: where undo goes back to. */
typedef struct {
    int done;     /* actions applied before it */
    int nlog;     /* log lines before it */
    int player;   /* who decided */
    foh_game *at; /* the position (owned) */
} human_mark;

/* What the humans of a game share with the session that plays it. */
typedef struct {
    FILE *out;
    term *in;
    board_style style;
    const char *names[FOH_MAX_PLAYERS];
    uint64_t seed;   /* hints are seeded from it */
    /* The game's log so far, and how much of it each player has seen. */
    char **log;   /* NULL: a line dropped (only the last HUMAN_LOG_BYTES are kept) */
    int nlog, logcap;
    size_t log_bytes; /* text kept in LOG */
    int log_kept;     /* the first line whose text is kept */
    int seen[FOH_MAX_PLAYERS];
    /* Kept by the session: actions applied so far. */
    int done;
    /* Decision points met, oldest first. */
    human_mark *marks;
    int nmarks, markcap;
    /* Set by a human's command; the session acts on it when the player
     * returns -1: rewind to marks[undo_to], or stop (saving if it can). */
    int undo_to;
    int quit;
    int end_of_input;
    int input_failed; /* the input stopped on an error (the command fails) */
    /* The session's save: writes the game as it stands to PATH (0 with ERR). */
    int (*save)(void *ud, const char *path, char *err, size_t len);
    void *save_ud;
    const char *save_path; /* --save, or NULL */
    /* Words for Tab completion: commands and card ids. */
    const char **words;
    int nwords;
} human_table;

/* A table for card set CS reading IN and writing OUT. NULL if out of memory. */
human_table *human_table_new(FILE *in, FILE *out, const foh_cardset *cs, uint64_t seed);
void human_table_free(human_table *t);

/* The game's log text a table keeps for `log N` and the recap: a script
 * may write a megabyte an action, so older lines are dropped past this. */
#define HUMAN_LOG_BYTES (16u << 20)

/* Add a line of the game's log (what every player sees). 0 if out of memory. */
int human_table_log(human_table *t, const char *line);

/* Go back to marks[K]: forget the log after it and the marks after it (the
 * caller restores the position and the recorded actions). */
void human_table_rewind(human_table *t, int k);

/* IN as the table shows it (OUT, LEN bytes): the Banker by its rulebook
 * name, "1 token" for the log's "1 tokens". The bots' logs keep the
 * engine's words (their outputs do not change). */
void human_text(const char *in, char *out, size_t len);

/* A line of the game's log (or of the scores) for the table: escaped,
 * shown as human_text does, word-wrapped to the table's width. */
void human_line(human_table *t, const char *line);

/* The end of game G for the humans, before "Game over": the turns since
 * the last human decision and the final board (a bot's turn may have
 * ended it). Nothing if G is not over. */
void human_table_last_turns(human_table *t, foh_game *g);

/* G's score table for the humans: wrapped to the table's width, and with
 * no winner named when G is not over (a game stopped is not won). 0 when
 * scoring fails (said). */
int human_table_scores(human_table *t, foh_game *g);

/* A human seat at table T named NAME (may be ""). NULL if out of memory. */
foh_player *human_new(human_table *t, const char *name);

#endif

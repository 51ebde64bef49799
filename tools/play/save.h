/* save: the save file of `foh play --save/--load` and `foh replay`, a JSON
 * document written and read with jansson. Format: docs/save-format.md. */
#ifndef FOH_SAVE_H
#define FOH_SAVE_H

#include <stddef.h>
#include <stdint.h>

#include "common/cli.h"
#include "common/origin.h"
#include "foh/foh.h"

#define SAVE_FORMAT "foh-save/1"
#define SAVE_MAX_ACTIONS CLI_MAX_ACTIONS /* a game that long is corrupt, not played */
/* The largest save file read: a game stalled at the turn limit writes
 * about 100 KiB, and reading a file costs up to 25 times its size in
 * memory (jansson's tree of the smallest values), so the cap keeps a
 * hostile file under about 200 MiB. */
#define SAVE_MAX_BYTES (8u << 20)

/* A save file as read: what produced the game and its actions. */
typedef struct {
    const char *path;
    origin origin; /* card sets, variants and mod folders */
    int players;
    uint64_t seed;
    char seats[512]; /* any --seats cli_seats accepts (6 specs of at most 63 bytes) */
    foh_script_limits limits;
    int nactions;
    struct save_action {
        char kind[16];
        char card[64]; /* card id, "" for none */
        int tokens, option;
        char label[FOH_OPTION_LABEL]; /* a choice: the option chosen, as offered ("" if not recorded) */
    } *actions;
    int has_digest;
    uint64_t digest; /* foh_game_digest after the actions */
    struct json_t *sources; /* the recorded card set files, checked by save_check_cardset */
} save_file;

/* One action applied in a game, as recorded: a choice keeps what was asked
 * and offered, so that the file says what was chosen, not only its index. */
typedef struct {
    foh_action action;
    foh_choice *choice; /* the pending choice the action answered (owned), or NULL */
} save_entry;

/* Record action A of game G (before it is applied) into *E; 0 if out of memory. */
int save_entry_set(save_entry *e, const foh_game *g, const foh_action *a);
void save_entry_free(save_entry *e);

/* Write the game G (card set CS, options O, actions ENTRIES[0..N)) to PATH
 * through a new temporary file PATH.tmp renamed into place, so that an
 * interrupted write never leaves a truncated save. PATH must be a plain
 * file (or not exist): a device or named pipe is refused, not replaced;
 * a link planted as PATH.tmp is removed, never followed. 0 on error with
 * WHY (WHYLEN bytes) saying what ("PATH: reason"). */
int save_write(const char *path, const cli_options *o, const foh_cardset *cs, const foh_game *g,
               const save_entry *entries, int n, char *why, size_t whylen);

/* Read and check the shape of save file PATH into S. On error returns 0
 * with ERR saying what and where: "FILE:LINE:COLUMN: ..." for bad JSON,
 * "FILE: actions[17].card: ..." for a bad field. */
int save_read(const char *path, save_file *s, char *err, size_t errlen);
void save_free(save_file *s);

/* Whether CS (with its variants) is the card set the save was recorded
 * with; if not, ERR names the files that differ, are missing or are new. */
int save_check_cardset(const save_file *s, const foh_cardset *cs, char *err, size_t errlen);

/* Action I of S as an action of the card set CS; 0 with ERR naming the
 * action (actions[I]) if its card is unknown. */
int save_action(const save_file *s, int i, const foh_cardset *cs, foh_action *out, char *err, size_t errlen);

/* Whether recorded choice I of S answers the choice G is waiting for the
 * same way it did when recorded (the label at its option); 0 with ERR
 * saying what differs. Actions recorded without a label pass. */
int save_check_choice(const save_file *s, int i, const foh_game *g, char *err, size_t errlen);

#endif

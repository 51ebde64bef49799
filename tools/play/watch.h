/* watch: `foh play --watch` (docs/play.md, "Live reload"). Between turns
 * the files the card set was read from (card files, game.yaml, scripts,
 * variant.yaml) are read again and their hashes compared with the ones
 * the card set recorded, and the card set folders are listed (a card file
 * added or removed). When something changed, the card set is loaded anew
 * with the same folders, variants and search path, an engine is made on it
 * with the same script limits, and the game is moved onto it
 * (foh_game_rebind). A load that fails, or a card set the game cannot move
 * onto, is reported on stderr ("watch: kept the old definitions: ...") and
 * the game goes on under the old one; the same files are not tried again
 * until they change again. */
#ifndef FOH_WATCH_H
#define FOH_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "common/cli.h"

typedef struct {
    const cli_options *o; /* the folders, variants, search path and limits to load with */
    uint64_t examined;    /* the files and folders as last examined (a fingerprint) */
} watcher;

/* Start watching the files of CS, loaded from O's options (O must outlive
 * W). */
void watch_init(watcher *w, const cli_options *o, const foh_cardset *cs);

/* Between turns of G, whose engine is *ENG on card set *CS: 0 if no file
 * changed since the last call, or after reporting on stderr why the change
 * was not taken (the game is then untouched). 1 if G was moved onto a new
 * load: *CS and *ENG are then the new card set and engine, *OLD_CS and
 * *OLD_ENG the previous ones (the caller frees them once nothing refers to
 * them: other games on the old engine, such as undo positions, are its to
 * move or free), and LINE (LEN bytes) the log line saying what changed:
 * "Reloaded the card set: cards/base/3-age-I.yaml changed (11 files
 * watched); the game goes on under the new definitions". */
int watch_poll(watcher *w, foh_game *g, foh_cardset **cs, foh_engine **eng, foh_cardset **old_cs,
               foh_engine **old_eng, char *line, size_t len);

#endif

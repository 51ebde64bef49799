/* autosave: the file a human seat's game is saved to when it ends without
 * a --save file (the end of input, Ctrl-C): foh-autosave.json, or the
 * first free foh-autosave-N.json, so that an earlier game's autosave is
 * never overwritten. */
#ifndef FOH_AUTOSAVE_H
#define FOH_AUTOSAVE_H

#include <stddef.h>

/* The most autosaves a folder may hold: foh-autosave.json and
 * foh-autosave-2.json to foh-autosave-CLI_AUTOSAVE_MAX.json. */
#define CLI_AUTOSAVE_MAX 1000

/* Reserve the first free autosave name of the current folder
 * (foh-autosave.json, foh-autosave-2.json, ...) by creating it empty
 * (O_EXCL: a file that exists, even one created at the same moment by
 * another program, is never taken), and write it to PATH (LEN bytes).
 * The save then replaces the empty file (cli_write_save renames onto it);
 * if the save fails, the caller removes it (cli_autosave_release).
 * Returns 1, or 0 with WHY (WHYLEN bytes) saying why: every name up to
 * CLI_AUTOSAVE_MAX taken, or the folder cannot be written. */
int cli_autosave_reserve(char *path, size_t len, char *why, size_t whylen);

/* Remove PATH, reserved by cli_autosave_reserve, if it is still the empty
 * file reserved (a save that failed leaves it so). */
void cli_autosave_release(const char *path);

#endif

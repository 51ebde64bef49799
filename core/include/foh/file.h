/* Files as the engine reads them: the one checked reader for every file a
 * user hands it (card folders and their scripts, game.yaml, variants,
 * scenarios, saves, shards, `--watch` reloads).
 *
 * Opening a named pipe blocks until a writer comes, and a device such as
 * /dev/zero never ends: so a path is opened without blocking, refused
 * unless it is a regular file, and refused when larger than the caller's
 * cap before any byte is read (and again while reading, for a file that
 * grows). */
#ifndef FOH_FILE_H
#define FOH_FILE_H

#include "foh/api.h"
#include "foh/error.h"

#include <stddef.h>
#include <stdint.h>

/* Read the whole regular file PATH, at most MAX_BYTES bytes. On success
 * *DATA is a malloc'd copy of its bytes with a NUL after them (free() it)
 * and *LEN their count. Errors (ERR may be NULL; *DATA is then NULL):
 * FOH_ERR_DATA "PATH: cannot open the file (reason)", "PATH: not a regular
 * file (a named pipe)" (likewise a folder, device or socket), "PATH: the
 * file is larger than N MiB (the limit for WHAT)" where WHAT names the
 * kind of file, "PATH: cannot read the file (reason)"; FOH_ERR_MEMORY
 * "PATH: out of memory for its N bytes". */
FOH_API foh_status foh_file_read(const char *path, size_t max_bytes, const char *what, char **data, size_t *len,
                                 foh_error *err);

/* The FNV-1a 64 hash of N bytes: how the engine fingerprints the files it
 * loads (foh_cardset_source), so that saves and shards can tell whether
 * the files they were made from have changed. */
FOH_API uint64_t foh_file_hash(const void *bytes, size_t n);

#endif

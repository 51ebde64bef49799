/* files: folders listed in order, and the output files of a command
 * (reports, shards, saves) created without ever blocking. */
#ifndef FOH_FILES_H
#define FOH_FILES_H

#include <stddef.h>
#include <stdio.h>

/* The entries of folder DIR whose names end in SUFFIX ("" for any; hidden
 * ones left out), sorted by name, as malloc'd strings in *NAMES (free with
 * cli_free_list). Returns their number, -1 if the folder cannot be read or
 * memory runs out. */
int cli_list_dir(const char *dir, const char *suffix, char ***names);
void cli_free_list(char **names, int n);

/* Whether PATH can be written (created in its folder, or replaced) without
 * touching it; errno tells why not. */
int cli_can_write(const char *path);

/* Open PATH for writing (created or truncated) as fopen(PATH, "w") does,
 * but never waiting: a named pipe that no program reads is refused at once
 * (errno ENXIO) instead of blocking the command. NULL with errno set. */
FILE *cli_create(const char *path);

/* Write JSON document J (json_dumpf FLAGS) to PATH through cli_create ("-":
 * standard output); 1 if it was all written and closed, else 0 with errno
 * set. */
struct json_t;
int cli_write_json(const struct json_t *j, const char *path, size_t flags);

/* Write JSON document J (json_dumpf FLAGS) to PATH as a save file is
 * written: through a new temporary file PATH.tmp renamed into place, so
 * that an interrupted write never leaves a truncated file. PATH must be a
 * plain file (or not exist): a device or named pipe is refused, not
 * replaced; a link planted as PATH.tmp is removed, never followed. 0 on
 * error with WHY (WHYLEN bytes) saying what ("PATH: reason"). */
int cli_write_save(const char *path, const struct json_t *j, size_t flags, char *why, size_t whylen);
/* cli_write_save with the new file's MODE (before the umask; 0600: a file
 * of secrets, unreadable by others whatever the folder). */
int cli_write_save_mode(const char *path, const struct json_t *j, size_t flags, int mode, char *why, size_t whylen);

#endif

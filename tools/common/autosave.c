/* autosave: a free name for a game saved without a --save file (see
 * autosave.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/autosave.h"

int cli_autosave_reserve(char *path, size_t len, char *why, size_t whylen) {
  for (int n = 1; n <= CLI_AUTOSAVE_MAX; n++) {
    if (n == 1)
      snprintf(path, len, "foh-autosave.json");
    else
      snprintf(path, len, "foh-autosave-%d.json", n);
    /* Created here, never found: an existing file (or a link, or a
     * pipe) of that name is someone's and is left alone. */
    int fd =
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      close(fd);
      return 1;
    }
    if (errno != EEXIST) {
      snprintf(why, whylen, "%s: %s", path, strerror(errno));
      return 0;
    }
  }
  snprintf(why, whylen,
           "foh-autosave.json and foh-autosave-2.json to foh-autosave-%d.json "
           "all exist (the most autosaves a "
           "folder holds: %d): move some away, or give --save FILE",
           CLI_AUTOSAVE_MAX, CLI_AUTOSAVE_MAX);
  return 0;
}

void cli_autosave_release(const char *path) {
  struct stat st;
  if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
    remove(path);
}

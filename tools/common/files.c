/* files: listing folders, creating and writing output files (see files.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void cli_free_list(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int cli_list_dir(const char *dir, const char *suffix, char ***names)
{
    DIR *d = opendir(dir);
    *names = NULL;
    if (!d)
        return -1;
    int n = 0, cap = 0;
    size_t slen = strlen(suffix);
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= slen || strcmp(e->d_name + len - slen, suffix))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(*names, (size_t)cap * sizeof *grown);
            if (!grown) {
                closedir(d);
                cli_free_list(*names, n);
                *names = NULL;
                return -1;
            }
            *names = grown;
        }
        if (!((*names)[n] = strdup(e->d_name))) {
            closedir(d);
            cli_free_list(*names, n);
            *names = NULL;
            return -1;
        }
        n++;
    }
    closedir(d);
    if (n)
        qsort(*names, (size_t)n, sizeof **names, cmp_str);
    return n;
}

int cli_can_write(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            return 0;
        }
        return access(path, W_OK) == 0;
    }
    if (errno != ENOENT)
        return 0;
    /* A new file: its folder must exist and be writable. */
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if ((size_t)(slash - path) >= sizeof dir) {
        errno = ENAMETOOLONG;
        return 0;
    } else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return access(dir, W_OK) == 0;
}

FILE *cli_create(const char *path)
{
    /* O_NONBLOCK: opening a named pipe with no reader fails (ENXIO) rather
     * than waiting for one; writes then block as usual. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0)
        return NULL;
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

int cli_write_json(const json_t *j, const char *path, size_t flags)
{
    if (!strcmp(path, "-")) /* standard output, as for foh check and foh legal (checked when the command ends) */
        return json_dumpf(j, stdout, flags) == 0 && putchar('\n') != EOF;
    FILE *f = cli_create(path);
    if (!f)
        return 0;
    int ok = json_dumpf(j, f, flags) == 0;
    int e = errno;
    if (fclose(f) != 0) {
        ok = 0;
        e = errno;
    }
    errno = ok ? 0 : e ? e : EIO;
    return ok;
}

int cli_write_save(const char *path, const json_t *j, size_t flags, char *why, size_t whylen)
{
    return cli_write_save_mode(path, j, flags, 0666, why, whylen);
}

int cli_write_save_mode(const char *path, const json_t *j, size_t flags, int mode, char *why, size_t whylen)
{
    /* Written beside, then renamed: a failed write leaves the old save. */
    size_t len = strlen(path) + 5;
    char *tmp = malloc(len);
    int ok = tmp != NULL;
    if (!ok)
        snprintf(why, whylen, "%s: out of memory", path);
    struct stat st;
    if (ok && lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
        /* The rename would replace a device or a named pipe with the save. */
        snprintf(why, whylen, "%s: not a regular file (%s): a save goes to a plain file", path,
                 S_ISFIFO(st.st_mode) ? "a named pipe" : S_ISDIR(st.st_mode) ? "a folder" : "a device or socket");
        ok = 0;
    }
    if (ok) {
        snprintf(tmp, len, "%s.tmp", path);
        /* A new file, never one planted there: a link named PATH.tmp is
         * removed, not followed. */
        if (unlink(tmp) != 0 && errno != ENOENT) {
            snprintf(why, whylen, "%s: %s", tmp, strerror(errno));
            ok = 0;
        }
        FILE *f = NULL;
        int fd = ok ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode) : -1;
        if (ok && (fd < 0 || !(f = fdopen(fd, "w")))) {
            snprintf(why, whylen, "%s: %s", tmp, strerror(errno));
            if (fd >= 0)
                close(fd);
            ok = 0;
        }
        if (ok) {
            int written = json_dumpf(j, f, flags) == 0;
            int e = errno;
            if (fclose(f) != 0 || !written) {
                snprintf(why, whylen, "%s: %s", tmp, strerror(written ? errno : e ? e : EIO));
                ok = 0;
            } else if (rename(tmp, path) != 0) {
                snprintf(why, whylen, "%s: %s", path, strerror(errno));
                ok = 0;
            }
            if (!ok)
                remove(tmp);
        }
    }
    free(tmp);
    return ok;
}

/* file: the one checked reader of users' files (see foh/file.h). */
#include "foh/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a non-regular file is, for the message. */
static const char *kind_of(mode_t m)
{
    return S_ISFIFO(m) ? "a named pipe" : S_ISDIR(m) ? "a folder" : S_ISCHR(m) || S_ISBLK(m) ? "a device"
           : S_ISSOCK(m)                           ? "a socket"
                                                   : "not a plain file";
}

static foh_status too_large(foh_error *err, const char *path, size_t max_bytes, const char *what)
{
    if (max_bytes >= (1u << 20))
        return foh_error_set(err, FOH_ERR_DATA, "%s: the file is larger than %zu MiB (the engine's limit for %s)", path,
                             max_bytes >> 20, what);
    return foh_error_set(err, FOH_ERR_DATA, "%s: the file is larger than %zu KiB (the engine's limit for %s)", path,
                         max_bytes >> 10, what);
}

foh_status foh_file_read(const char *path, size_t max_bytes, const char *what, char **data, size_t *len,
                         foh_error *err)
{
    *data = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a named pipe would otherwise wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return foh_error_set(err, FOH_ERR_DATA, "%s: cannot open the file (%s)", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return foh_error_set(err, FOH_ERR_DATA, "%s: cannot read the file (%s)", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return foh_error_set(err, FOH_ERR_DATA, "%s: not a regular file (%s)", path, kind_of(st.st_mode));
    }
    if (st.st_size < 0 || (uintmax_t)st.st_size > max_bytes) {
        close(fd);
        return too_large(err, path, max_bytes, what);
    }
    /* Room for the size seen now; a file that grows meanwhile gets more,
     * doubling, up to the cap (plus one byte to see it pass the cap). */
    size_t cap = (size_t)st.st_size + 1, used = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        close(fd);
        return foh_error_set(err, FOH_ERR_MEMORY, "%s: out of memory for its %zu bytes", path, cap);
    }
    for (;;) {
        if (used == cap) {
            if (used > max_bytes)
                break;
            size_t grown = cap > max_bytes / 2 ? max_bytes + 1 : cap * 2;
            char *b = realloc(buf, grown + 1);
            if (!b) {
                free(buf);
                close(fd);
                return foh_error_set(err, FOH_ERR_MEMORY, "%s: out of memory for its %zu bytes", path, grown);
            }
            buf = b;
            cap = grown;
        }
        ssize_t n = read(fd, buf + used, cap - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return foh_error_set(err, FOH_ERR_DATA, "%s: cannot read the file (%s)", path, strerror(e));
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    close(fd);
    if (used > max_bytes) {
        free(buf);
        return too_large(err, path, max_bytes, what);
    }
    buf[used] = '\0';
    *data = buf;
    *len = used;
    return FOH_OK;
}

uint64_t foh_file_hash(const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

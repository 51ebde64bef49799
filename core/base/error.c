/* error: the one place errors are formatted, and "did you mean" hints. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "foh/error.h"

foh_status foh_error_at(foh_error *err, foh_status code, const char *file, int line, int column, const char *fmt, ...)
{
    if (!err)
        return code;
    size_t n = 0;
    if (file && column > 0)
        n = (size_t)snprintf(err->msg, sizeof err->msg, "%s:%d:%d: ", file, line, column);
    else if (file)
        n = (size_t)snprintf(err->msg, sizeof err->msg, "%s:%d: ", file, line);
    if (n >= sizeof err->msg)
        n = sizeof err->msg - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - n, fmt, ap);
    va_end(ap);
    err->code = code;
    return code;
}

/* Levenshtein distance of A and B (at most 63 characters each matter). */
static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    int row[64];
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

const char *foh_error_suggest(const char *word, const char *const *names, int n)
{
    const char *best = NULL;
    int best_d = 99, limit = (int)strlen(word) / 3 + 1;
    if (limit < 2)
        limit = 2;
    /* The same name in another case ("ii" for "II") is the one meant. */
    for (int i = 0; i < n; i++)
        if (!strcasecmp(word, names[i]))
            return names[i];
    for (int i = 0; i < n; i++) {
        int d = distance(word, names[i]);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best_d <= limit ? best : NULL;
}

void foh_error_hint(char *buf, size_t len, const char *word, const char *what, const char *const *names, int n)
{
    const char *close = foh_error_suggest(word, names, n);
    size_t k = 0;
    if (close)
        k = (size_t)snprintf(buf, len, " (did you mean '%s'? %s: ", close, what);
    else
        k = (size_t)snprintf(buf, len, " (%s: ", what);
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", names[i]);
    if (k < len)
        snprintf(buf + k, len - k, ")");
}

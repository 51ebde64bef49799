/* Errors returned by every fallible foh_ function. */
#ifndef FOH_ERROR_H
#define FOH_ERROR_H

#include "foh/api.h"

#include <stddef.h>

/* Error codes. FOH_OK is 0 so `if (foh_...(...) != FOH_OK)` reads naturally. */
typedef enum {
    FOH_OK = 0,
    FOH_ERR_DATA,    /* bad card data, game YAML or script source (names file:line) */
    FOH_ERR_SCRIPT,  /* a Lua effect failed at run time (names card, file:line) */
    FOH_ERR_ILLEGAL, /* an action that is not legal now; the game is unchanged */
    FOH_ERR_USAGE,   /* a bad argument (player count, card index...) */
    FOH_ERR_MEMORY   /* out of memory */
} foh_status;

/* An error: its code and a one-line, human-readable message. */
typedef struct {
    foh_status code;
    char msg[640];
} foh_error;

/* Set ERR (may be NULL) to CODE and a printf-style message; returns CODE.
 * With FILE (not NULL), the message starts with "FILE:LINE:COLUMN: " (the
 * column left out when 0): the one way every module words a position. */
FOH_API foh_status foh_error_at(foh_error *err, foh_status code, const char *file, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
#define foh_error_set(err, code, ...) foh_error_at((err), (code), NULL, 0, 0, __VA_ARGS__)

/* The name of NAMES[0..N) closest to WORD (a typo of it: within about a
 * third of its letters), or NULL: for "did you mean" hints. */
FOH_API const char *foh_error_suggest(const char *word, const char *const *names, int n);

/* Write into BUF (LEN bytes) a hint for the unknown name WORD: " (did you
 * mean 'X'? WHAT: a, b, c)" when WORD is close to one of NAMES, else
 * " (WHAT: a, b, c)". */
FOH_API void foh_error_hint(char *buf, size_t len, const char *word, const char *what, const char *const *names, int n);

#endif

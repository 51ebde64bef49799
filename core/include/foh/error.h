/* Errors returned by every fallible foh_ function. */
#ifndef FOH_ERROR_H
#define FOH_ERROR_H

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

/* Set ERR (may be NULL) to CODE and a printf-style message; returns CODE. */
foh_status foh_error_set(foh_error *err, foh_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

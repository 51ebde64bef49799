/* log: the turn-by-turn game log. Lines are buffered by the engine while
 * an action runs and emitted only when it completes, so an action that
 * pauses for a choice or fails logs nothing. Internal to core/. */
#ifndef FOH_LOG_H
#define FOH_LOG_H

#include "internal.h"

/* One log line, printf-style, when the game keeps a log (g->log): the
 * check comes first so that a game without one (a simulation) neither
 * formats the line nor works out its values. */
#define foh_log(g, ...)                                                                                               \
    do {                                                                                                              \
        if ((g)->log)                                                                                                 \
            foh_log_line((g), __VA_ARGS__);                                                                           \
    } while (0)
void foh_log_line(foh_game *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void foh_log_discard(foh_game *g);
void foh_log_flush(foh_game *g);
/* Card name for logs. */
const char *foh_card_name(const foh_game *g, int card);

#endif

/* log: see log.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

void foh_log(foh_game *g, const char *fmt, ...)
{
    foh_engine *e = g->eng;
    if (!g->log)
        return;
    size_t room = sizeof e->logbuf - e->loglen;
    if (room < 2)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(e->logbuf + e->loglen, room - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    e->loglen += (size_t)n < room - 1 ? (size_t)n : room - 2;
    e->logbuf[e->loglen++] = '\n';
    e->logbuf[e->loglen] = '\0';
}

void foh_log_discard(foh_game *g) { g->eng->loglen = 0; }

void foh_log_flush(foh_game *g)
{
    foh_engine *e = g->eng;
    char *line = e->logbuf;
    if (g->log) {
        for (char *nl; e->loglen && (nl = memchr(line, '\n', e->loglen - (size_t)(line - e->logbuf)));) {
            *nl = '\0';
            g->log(g->log_ud, line);
            line = nl + 1;
        }
    }
    e->loglen = 0;
}

const char *foh_card_name(const foh_game *g, int card)
{
    const foh_cardset *cs = g->eng->cs;
    return card >= 0 && card < cs->ncards ? cs->card[card].name : "(none)";
}

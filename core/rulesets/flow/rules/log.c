/* log: see log.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* Room for N more bytes in the engine's log buffer; 0 if out of memory. */
static int reserve(foh_engine *e, size_t n)
{
    if (e->loglen + n <= e->logcap)
        return 1;
    size_t cap = e->logcap ? e->logcap : 4096;
    while (cap < e->loglen + n)
        cap *= 2;
    char *grown = realloc(e->logbuf, cap);
    if (!grown)
        return 0;
    e->logbuf = grown;
    e->logcap = cap;
    return 1;
}

/* Append TEXT with its control characters written visibly ("\x1b"): a
 * card or a script must not move the cursor, ring the bell or start a fake
 * log line (a newline) on the terminal that shows the log. */
static int append_escaped(foh_engine *e, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (!reserve(e, 5))
            return 0;
        if (*p < 0x20 || *p == 0x7f)
            e->loglen += (size_t)snprintf(e->logbuf + e->loglen, 5, "\\x%02x", *p);
        else
            e->logbuf[e->loglen++] = (char)*p;
    }
    return 1;
}

void foh_log_line(foh_game *g, const char *fmt, ...)
{
    foh_engine *e = g->eng;
    char small[512], *line = small;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof small && (line = malloc((size_t)n + 1)) != NULL) {
        va_start(ap, fmt);
        vsnprintf(line, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    int ok = line && append_escaped(e, line) && reserve(e, 1);
    if (ok)
        e->logbuf[e->loglen++] = '\n';
    else
        e->log_lost++;
    if (line != small)
        free(line);
}

void foh_log_discard(foh_game *g)
{
    g->eng->loglen = 0;
    g->eng->log_lost = 0;
}

void foh_log_flush(foh_game *g)
{
    foh_engine *e = g->eng;
    if (g->log) {
        size_t start = 0;
        for (size_t i = 0; i < e->loglen; i++)
            if (e->logbuf[i] == '\n') {
                e->logbuf[i] = '\0';
                g->log(g->log_ud, e->logbuf + start);
                start = i + 1;
            }
        if (e->log_lost) {
            char msg[80];
            snprintf(msg, sizeof msg, "(%d log line%s lost: out of memory)", e->log_lost, e->log_lost == 1 ? "" : "s");
            g->log(g->log_ud, msg);
        }
    }
    e->loglen = 0;
    e->log_lost = 0;
}

const char *foh_card_name(const foh_game *g, int card)
{
    const foh_cardset *cs = g->eng->cs;
    return card >= 0 && card < cs->ncards ? cs->card[card].name : "(none)";
}

/* bot_explain: the alternatives a bot weighed (see bot_explain.h). */
#include "bot_explain.h"

#include <stdlib.h>

void foh_weighed_clear(foh_weighed *w) { w->n = 0; }

int foh_weighed_add(foh_weighed *w, int index, double value, long visits)
{
    if (w->n == w->cap) {
        int cap = w->cap ? w->cap * 2 : 64;
        foh_alternative *grown = realloc(w->items, (size_t)cap * sizeof *grown);
        if (!grown)
            return 0;
        w->items = grown;
        w->cap = cap;
    }
    w->items[w->n++] = (foh_alternative){.index = index, .value = value, .visits = visits};
    return 1;
}

/* Whether A ranks before B. */
static int before(const foh_alternative *a, const foh_alternative *b, int chosen)
{
    if ((a->index == chosen) != (b->index == chosen))
        return a->index == chosen;
    if (a->visits != b->visits)
        return a->visits > b->visits;
    if (a->value != b->value)
        return a->value > b->value;
    return a->index < b->index;
}

int foh_weighed_top(const foh_weighed *w, int chosen, foh_alternative *out, int max)
{
    /* A selection of the best MAX: MAX is small (3 for --explain). */
    int k = 0;
    for (int i = 0; i < w->n && max > 0; i++) {
        int at;
        if (k < max)
            at = k++;
        else if (before(&w->items[i], &out[max - 1], chosen))
            at = max - 1;
        else
            continue;
        out[at] = w->items[i];
        for (int j = at; j > 0 && before(&out[j], &out[j - 1], chosen); j--) {
            foh_alternative t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    }
    return k;
}

void foh_weighed_free(foh_weighed *w)
{
    free(w->items);
    w->items = NULL;
    w->n = w->cap = 0;
}

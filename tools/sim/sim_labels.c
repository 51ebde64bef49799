/* sim_labels: text answers to choices, by label (see sim_labels.h). */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_labels.h"

void sim_labels_add(sim_labels *t, int row, const char *label, long count)
{
    for (int i = 0; i < t->n; i++)
        if (t->item[i].row == row && !strcmp(t->item[i].label, label)) {
            t->item[i].count += count;
            return;
        }
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        sim_label *grown = realloc(t->item, (size_t)cap * sizeof *grown);
        if (!grown) {
            t->lost += count;
            return;
        }
        t->item = grown;
        t->cap = cap;
    }
    sim_label *l = &t->item[t->n++];
    l->row = row;
    strncpy(l->label, label, sizeof l->label - 1);
    l->label[sizeof l->label - 1] = '\0';
    l->count = count;
}

void sim_labels_merge(sim_labels *into, const sim_labels *from)
{
    for (int i = 0; i < from->n; i++)
        sim_labels_add(into, from->item[i].row, from->item[i].label, from->item[i].count);
    into->lost += from->lost;
}

void sim_labels_free(sim_labels *t)
{
    free(t->item);
    *t = (sim_labels){0};
}

static int by_count(const void *a, const void *b)
{
    const sim_label *x = *(const sim_label *const *)a, *y = *(const sim_label *const *)b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->label, y->label);
}

int sim_labels_of_row(const sim_labels *t, int row, const sim_label **out, int max)
{
    int n = 0;
    for (int i = 0; t && i < t->n; i++)
        n += t->item[i].row == row;
    const sim_label **all = n ? malloc((size_t)n * sizeof *all) : NULL;
    if (!all)
        return 0; /* none, or out of memory: the caller shows them as other labels */
    for (int i = 0, k = 0; i < t->n; i++)
        if (t->item[i].row == row)
            all[k++] = &t->item[i];
    qsort(all, (size_t)n, sizeof *all, by_count); /* the best MAX, whatever the order they came in */
    for (int i = 0; i < n && i < max; i++)
        out[i] = all[i];
    free(all);
    return n < max ? n : max;
}

/* sim_labels: text answers to choices, by label (see sim_labels.h). */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_labels.h"

static unsigned hash_of(int row, const char *label)
{
    unsigned h = 2166136261u ^ (unsigned)row;
    for (const unsigned char *p = (const unsigned char *)label; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

/* The index of (ROW, LABEL) in T's slots: its item's slot, or the empty
 * slot where it would go. */
static int find_slot(const sim_labels *t, int row, const char *label)
{
    unsigned mask = (unsigned)t->nslots - 1, i = hash_of(row, label) & mask;
    while (t->slot[i] >= 0 && (t->item[t->slot[i]].row != row || strcmp(t->item[t->slot[i]].label, label)))
        i = (i + 1) & mask;
    return (int)i;
}

/* Room for one more item, the index at most half full: 0 if out of memory. */
static int grow(sim_labels *t)
{
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        sim_label *grown = realloc(t->item, (size_t)cap * sizeof *grown);
        if (!grown)
            return 0;
        t->item = grown;
        t->cap = cap;
    }
    if (2 * (t->n + 1) > t->nslots) {
        int nslots = t->nslots ? 2 * t->nslots : 32;
        int *slot = malloc((size_t)nslots * sizeof *slot);
        if (!slot)
            return 0;
        free(t->slot);
        t->slot = slot;
        t->nslots = nslots;
        for (int i = 0; i < nslots; i++)
            slot[i] = -1;
        for (int k = 0; k < t->n; k++)
            slot[find_slot(t, t->item[k].row, t->item[k].label)] = k;
    }
    return 1;
}

void sim_labels_add(sim_labels *t, int row, const char *label, long count)
{
    if (t->nslots) {
        int i = find_slot(t, row, label);
        if (t->slot[i] >= 0) {
            t->item[t->slot[i]].count += count;
            return;
        }
    }
    if (!grow(t)) {
        t->lost += count;
        return;
    }
    sim_label *l = &t->item[t->n];
    l->row = row;
    strncpy(l->label, label, sizeof l->label - 1);
    l->label[sizeof l->label - 1] = '\0';
    l->count = count;
    t->slot[find_slot(t, row, l->label)] = t->n++;
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
    free(t->slot);
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

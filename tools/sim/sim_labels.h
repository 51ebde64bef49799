/* sim_labels: the answers to choices inside effects that name no card and
 * no player (text options: game.choose(p, {'left', 'right'})), counted by
 * label for each choice row, beside sim_stats (which holds only sums and
 * counts them all under "other labels"). Shards carry them as
 * `text_answers` (sim_stats_save_shard), so foh merge names them too. */
#ifndef FOH_SIM_LABELS_H
#define FOH_SIM_LABELS_H

#define SIM_LABEL_BYTES 64 /* a choice's label: at most 63 bytes (scripts/API.md, game.choose) */

typedef struct {
    int row; /* sim_stats.h CHOICE_ROWS: a card, or the variants' row */
    char label[SIM_LABEL_BYTES];
    long count;
} sim_label;

typedef struct {
    sim_label *item;
    int n, cap;
    int *slot;  /* open-addressing index of ITEM by (row, label): -1 empty; NSLOTS a power of 2 */
    int nslots;
    long lost;  /* answers not kept: out of memory (shown as "other labels") */
} sim_labels;

/* COUNT more answers LABEL in choice ROW. */
void sim_labels_add(sim_labels *t, int row, const char *label, long count);
/* INTO += FROM. */
void sim_labels_merge(sim_labels *into, const sim_labels *from);
void sim_labels_free(sim_labels *t);
/* The MAX most answered labels of ROW (ties: by label), most first, into
 * OUT; returns how many were written (0 also when out of memory). */
int sim_labels_of_row(const sim_labels *t, int row, const sim_label **out, int max);

#endif

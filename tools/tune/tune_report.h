/* tune_report: what a run of foh tune prints (its targets, a candidate's
 * figures, the patch notes with their paired effects) and the variant
 * folder --out writes. */
#ifndef FOH_TUNE_REPORT_H
#define FOH_TUNE_REPORT_H

#include "tune/tune.h"
#include "tune/tune_paired.h"

/* The label of change CH: "Theocracy: params.icons 2 -> 1". */
void tune_change_label(const tuner *T, const change *ch, char *out, size_t len);
/* The paired difference B - A of figure F (card CARD) over the games both
 * played (the same seeds), and the two figures *XA, *XB on those games. 0
 * if it is not defined on one side (a card never owned...) or memory ran out. */
int tune_paired_figure(const tuner *T, const candidate *a, const candidate *b, tune_figure f, int card,
                       tune_pair *p, double *xa, double *xb);
/* The targets line of the run's header. */
void tune_print_targets(const tuner *T, FILE *f);
/* The figures of candidate C (WHAT: "base", "tuned") that the targets judge, and its loss. */
void tune_print_metrics(const tuner *T, FILE *f, const char *what, const candidate *c);
/* The patch notes of BEST against BASE: each change in the order it was
 * added (its marginal gain), with what it did on its own against the base;
 * the label of change j into NOTES[j] (the variant file's comments). */
void tune_patch_notes(const tuner *T, const candidates *cand, const candidate *base, const candidate *best,
                      char (*notes)[600]);
/* --out DIR: BEST written as a variant folder, NOTES its changes' labels;
 * nothing without a change. A CLI status. */
int tune_write_out(const tuner *T, const candidate *best, char (*notes)[600]);

#endif

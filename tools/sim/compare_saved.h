/* compare_saved: foh compare A.json B.json, two saved reports of foh sim
 * compared figure by figure (issue 31). */
#ifndef FOH_COMPARE_SAVED_H
#define FOH_COMPARE_SAVED_H

/* Compare the foh sim --json reports PATH_A and PATH_B: every estimate
 * they share (game length, scores, seat and turn-order win rates,
 * starting cards', and per card the owners', non-owners' and effect
 * figures), B - A with a 95% interval for independent samples, p-values
 * and a Benjamini-Hochberg correction; each report's provenance. Written
 * as JSON to JSON_PATH too unless NULL. A CLI status. */
int compare_saved(const char *path_a, const char *path_b, const char *json_path);

#endif

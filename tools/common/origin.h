/* origin: where a game's card set comes from (its card set folders,
 * variants and mod search path), recorded in save files and simulation
 * shards as absolute folders so that they load again from any working
 * directory, whichever --cards, --variant and --mods built them. */
#ifndef FOH_ORIGIN_H
#define FOH_ORIGIN_H

#include <stddef.h>
#include <stdio.h>

#include "common/cli.h"

struct json_t;

/* Folder paths are at most ORIGIN_PATH - 1 bytes (longer ones are refused). */
#define ORIGIN_PATH 1024

typedef struct {
    int ncards; /* the card sets: --cards, then those added by repeating it */
    char cards[CLI_MAX_VARIANTS + 1][ORIGIN_PATH];
    int nvariants; /* variant folders, in the order applied */
    char variant[CLI_MAX_VARIANTS][ORIGIN_PATH];
    int nmods; /* the search path after the project's folders: $FOH_MODS, then --mods */
    char mods[CLI_MAX_MODS][ORIGIN_PATH];
} origin;

/* The origin of the options O (after cli_parse): card sets found along the
 * search path, every folder made absolute (kept as given if it does not
 * exist: loading it then names it). 0 with ERR if a path is too long. */
int origin_of(const cli_options *o, origin *og, char *err, size_t len);

/* Print O's card sets as "card set DIR" or "card sets DIR + DIR2",
 * resolved as origin_of does (the same words whether a run was started
 * with a name, a relative path, or merged from its shards). */
void origin_print_cards(FILE *out, const cli_options *o);

/* Write OG into the JSON object ROOT: "cards" (the first set), "variants"
 * (a list), and "more_cards" and "mods" (lists) when not empty. 0 if out
 * of memory. */
int origin_write(struct json_t *root, const origin *og);

/* Read what origin_write wrote in ROOT into OG; 0 with WHY ("'variants'
 * must list at most 8 folders") if a field is missing or malformed. */
int origin_read(struct json_t *root, origin *og, char *why, size_t len);

/* Whether ROOT_A and ROOT_B record the same origin. */
int origin_equal(struct json_t *root_a, struct json_t *root_b);

/* The files CS was read from with the hashes of their bytes, as save files
 * and shards record them: a list of {"file": label, "hash": 16 hex digits}
 * (foh_cardset_source); NULL if out of memory. */
struct json_t *origin_sources(const foh_cardset *cs);

/* Whether the source lists A and B (as origin_sources writes them; A as
 * recorded in NAME_A, B in NAME_B) differ; if so, WHY names the first file
 * that does: "3-age-I.yaml differs (hash H in NAME_A, H2 in NAME_B)", or
 * "F is in NAME_A only", or says that a list is malformed. */
int origin_sources_differ(struct json_t *a, struct json_t *b, const char *name_a, const char *name_b, char *why,
                          size_t len);

/* Set O's card sets, variants and mod search path (replacing $FOH_MODS and
 * --mods) to OG's. O then points into OG, which must outlive it. */
void origin_apply(const origin *og, cli_options *o);

#endif

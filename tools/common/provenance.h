/* provenance: what a report was made from, written into every report
 * (text, JSON, CSV, HTML, shards) so that a figure can be traced back to
 * the exact cards, scripts and variants, the seeds and seats, the engine
 * and the command (issue 31). The card set's content hash is
 * foh_cardset_hash: one FNV-1a 64 hash over every file the card set was
 * read from (game.yaml, the card files, the scripts, the variants), so a
 * copy of a set in another folder has the same hash and any edit to a card
 * or a script gives another. */
#ifndef FOH_PROVENANCE_H
#define FOH_PROVENANCE_H

#include <stdio.h>

#include "common/cli.h"

struct json_t;

/* Whether CS, loaded with O, is the project's own base set as shipped: the
 * one card set of cards/base (by its resolved folder) with no variant.
 * Only then may a report say "base rules"; a copy or an edited set does
 * not qualify by name (its content hash tells the rest). */
int provenance_is_base(const cli_options *o, const foh_cardset *cs);

/* "foh VERSION": the engine, as reports name it. */
const char *provenance_engine(void);

/* CS's content hash as 16 hex digits into HEX. */
void provenance_hash(const foh_cardset *cs, char hex[17]);

/* The "provenance" object of a JSON report: {"engine": "foh VERSION",
 * "command": [words of the command line, "foh" first], "cards": [card set
 * folders, absolute], "variants": [names], "content_hash": "16 hex",
 * "base_set": bool, "players", "seed", "seats"}. Flat (no nested object)
 * so that it reads as one line of a table. NULL if out of memory. */
struct json_t *provenance_json(const cli_options *o, const foh_cardset *cs);

/* One text line for a report's head: "provenance: content hash H of card
 * set DIR (base set|modified or other set), variants ..., foh VERSION,
 * command: foh sim ..." (words quoted for a POSIX shell, escaped for the
 * terminal). */
void provenance_print(FILE *out, const cli_options *o, const foh_cardset *cs);

/* Write WORD to OUT quoted for a POSIX shell when it holds more than
 * letters, digits and ",.:/_+=@%-". */
void provenance_shell_word(FILE *out, const char *word);

/* The command line of O as a shell command ("foh sim --games 200 ...").
 * Returns a malloc'd string (free() it) or NULL if out of memory. */
char *provenance_command(const cli_options *o);

#endif

/* serve_tables: the open tables of `foh serve` (docs/serve.md), each with
 * its own thread for its bots' decisions and its absent players' stand-ins,
 * so that one table's long decision never holds another's. A table is
 * closed (serve_table_close) by its owner, or by its thread once none of
 * its players has asked for --close-after seconds; it then stops counting
 * against --max-tables and is freed once the last request using it ends. */
#ifndef FOH_SERVE_TABLES_H
#define FOH_SERVE_TABLES_H

#include <stddef.h>

#include "common/cli.h"
#include "serve/serve_table.h"

typedef struct serve_tables serve_tables;
typedef struct serve_entry serve_entry; /* one open table, counted while in use */

/* The tables of a server with options O (--max-tables, --abandon,
 * --close-after; O outlives them); NULL if out of memory. */
serve_tables *serve_tables_new(const cli_options *o);

/* Hold a place for a table about to be made or resumed: 0 if --max-tables
 * are open. */
int serve_tables_reserve(serve_tables *ts);

/* Put T in a place held by serve_tables_reserve and start its thread (T
 * NULL: give the place back). 0 with WHY if the thread could not start (T
 * is then not added, nor freed). */
int serve_tables_add(serve_tables *ts, serve_table *t, char *why, size_t whylen);

/* The open table ID, counted until serve_tables_release; NULL if none. */
serve_entry *serve_tables_find(serve_tables *ts, const char *id);
serve_table *serve_entry_table(serve_entry *e);
void serve_tables_release(serve_tables *ts, serve_entry *e);

/* Every open table, each counted (release each), into *OUT (malloc'd; the
 * caller frees it): their number, -1 if out of memory. */
int serve_tables_all(serve_tables *ts, serve_entry ***out);

/* The number of open tables. */
int serve_tables_count(serve_tables *ts);

/* Wake E's thread: a request changed its table (its bots may move). */
void serve_tables_poke(serve_tables *ts, serve_entry *e);

/* Close E's table (REASON for the server's log on stderr): 1, or 0 with
 * WHY (a file could not be moved: the table stays closed to new requests
 * all the same). */
int serve_tables_close(serve_tables *ts, serve_entry *e, const char *reason, char *why, size_t whylen);

/* Stop the tables' threads, waiting SECONDS at most for those in a bot's
 * decision: the number still deciding then (0: every thread ended, and
 * serve_tables_free may be called). */
int serve_tables_stop(serve_tables *ts, double seconds);

/* Free TS and its tables (after serve_tables_stop returned 0, with no
 * request in progress). */
void serve_tables_free(serve_tables *ts);

#endif

/* serve_table: one table of `foh serve` (docs/serve.md): a game of any
 * ruleset, its seats (a human by a secret link, or a bot), the one match
 * loop that plays it, its save file, written after every action, and what
 * each seat, a spectator or the timeline may see of it, as JSON.
 *
 * A table is used under its own lock (serve_table_lock): its engine runs
 * card scripts and belongs to one thread at a time. */
#ifndef FOH_SERVE_TABLE_H
#define FOH_SERVE_TABLE_H

#include <jansson.h>
#include <stddef.h>

#include "common/cli.h"

/* A bot's budget at a table: ISMCTS iterations, or milliseconds, a
 * decision (larger ones are refused: a table waits while its bot thinks). */
#define SERVE_MAX_ITERATIONS 5000
#define SERVE_MAX_MS 2000

/* A table id: 12 hexadecimal digits; a seat's secret: 32 (128 random bits). */
#define SERVE_ID_LEN 12
#define SERVE_TOKEN_LEN 32

typedef struct serve_table serve_table;

/* DIGITS (at most SERVE_TOKEN_LEN) hexadecimal digits from the system's
 * random source into OUT (DIGITS + 1 bytes); 0 if it could not be read. */
int serve_random_hex(char *out, int digits);

/* What every table of a server shares (read only once the server runs). */
typedef struct {
    const cli_options *o; /* the server's options: the card set and variants by default, --mods, --tables */
    const char *standin;  /* the bot that plays an absent human's seat ("greedy") */
} serve_config;

/* Who a request speaks for, from its token. */
enum { SERVE_SPECTATOR = -1, SERVE_HOTSEAT = -2 };

/* A new table from the request REQ (JSON: cards, variants, players, seats,
 * seed, hotseat; docs/serve.md), its game set up, its bots' first moves
 * left to serve_table_step. NULL with *STATUS (an HTTP status: 400 for a
 * bad request, 422 for a card set that does not load, 500) and WHY. ID is
 * the table's id (SERVE_ID_LEN hexadecimal digits). */
serve_table *serve_table_create(const serve_config *cfg, const char *id, json_t *req, int *status, char *why,
                                size_t whylen);

/* The table ID saved in the folder cfg->o->tables (ID.json, the game in
 * the save format; ID.table.json, its seats), its actions replayed. NULL
 * with WHY. */
serve_table *serve_table_resume(const serve_config *cfg, const char *id, char *why, size_t whylen);

void serve_table_free(serve_table *t);
void serve_table_lock(serve_table *t);
/* Lock T, waiting a fifth of a second at most (a bot may be thinking at
 * it): 1 if locked. */
int serve_table_trylock(serve_table *t);
/* Lock T if no one holds it: 1 if locked (the list of tables, which
 * waits for none: a fifth of a second a busy table added up). */
int serve_table_trylock_now(serve_table *t);
void serve_table_unlock(serve_table *t);
const char *serve_table_id(const serve_table *t);

/* The seat TOKEN opens (0-based), SERVE_HOTSEAT for a hot-seat table's one
 * token, SERVE_SPECTATOR for no token; -3 for a token the table does not
 * know (a forged one). Marks the seat's player present (time NOW, seconds). */
int serve_table_seat_of(serve_table *t, const char *token, double now);

/* What WHO (a seat, SERVE_HOTSEAT or SERVE_SPECTATOR) sees now (JSON: the
 * seats, whose turn, the ruleset's observation for WHO, the scores, the
 * log, and WHO's legal actions with a preview of each). NULL if out of
 * memory. */
json_t *serve_table_view(serve_table *t, int who);

/* The cards of the table's card set for people: names and texts, and the
 * legend of the observation's symbols (JSON). */
json_t *serve_table_cards(serve_table *t);

/* WHO takes legal action ACTION (an index into the legal actions of the
 * view of VERSION, the number of actions applied then). Returns an HTTP
 * status: 200 applied; 403 not WHO's decision; 410 the table is closed; 409 the table moved on
 * (VERSION is stale) or is over; 422 an illegal action, the rule's message
 * in WHY; 500 an engine error (the table stops with it). Nothing changes
 * unless 200. */
int serve_table_act(serve_table *t, int who, long version, long action, char *why, size_t whylen);

/* Undo, in a hot-seat table: back to before the last human decision.
 * HTTP status as serve_table_act. */
int serve_table_undo(serve_table *t, int who, char *why, size_t whylen);

/* The public view of the finished game after its first STEP actions (the
 * timeline). NULL with *STATUS 409 while it is being played, 400 for a
 * step out of range. */
json_t *serve_table_replay(serve_table *t, long step, int *status, char *why, size_t whylen);

/* One decision of a bot, or of the stand-in bot of a human seat whose
 * player was last seen more than ABANDON seconds before NOW. 1 if a
 * decision was made, 0 if a human is to decide (or the game is over or
 * stopped). */
int serve_table_step(serve_table *t, double now, double abandon);

/* The table's line in the list of tables (JSON: id, title, players, seats,
 * turn, over). */
json_t *serve_table_summary(serve_table *t);

/* The links of a new table (JSON: each human seat's token, or the one
 * hot-seat token). Only the creator is told them. */
json_t *serve_table_links(serve_table *t);

/* The creator's secret of T (SERVE_TOKEN_LEN hexadecimal digits; "" for a
 * table made before tables had one), told only to the creator. */
const char *serve_table_owner(const serve_table *t);

/* Whether TOKEN is T's owner secret (compared in constant time). */
int serve_table_opened_by_owner(const serve_table *t, const char *token);

/* When a player of T last asked (seconds, serve_now's clock); for a table
 * without human seats, when it was made or resumed. */
double serve_table_last_seen(const serve_table *t);

/* Close T: its save moves to the folder closed/ of cfg->o->tables (made if
 * need be; `foh replay` reads it there), its seats' file, which holds their
 * secrets, is removed, and T takes no more actions (serve_table_act and
 * serve_table_undo answer 410) but its views still work. 0 with WHY if a
 * file could not be moved or removed. */
int serve_table_close(serve_table *t, char *why, size_t whylen);

#endif

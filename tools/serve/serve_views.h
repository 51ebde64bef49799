/* serve_views: what a page of foh serve is sent (docs/serve.md, "The
 * view"): a game as one seat, a spectator or the timeline may see it, as
 * JSON, through the ruleset interface alone (observe, score_lines,
 * describe_action, legal actions, describe_card, legend); and the preview
 * of each legal action, played on copies of the game whose hidden parts
 * are re-sampled, so that a preview tells nothing the seat cannot see. */
#ifndef FOH_SERVE_VIEWS_H
#define FOH_SERVE_VIEWS_H

#include <jansson.h>
#include <time.h>

#include "foh/foh.h"
#include "foh/ruleset.h"

/* A table's log: its lines, grown as needed. */
typedef struct {
    char **line;
    int n, cap;
    int failed; /* a line could not be kept (out of memory): said at the end of the view */
} serve_log;

void serve_log_add(serve_log *log, const char *line);
/* serve_log_add with LOG as a void pointer, for foh_game_set_log. */
void serve_log_add_fn(void *log, const char *line);
void serve_log_clear(serve_log *log);
void serve_log_free(serve_log *log);

/* The previews of one position for one seat, kept until the table moves. */
typedef struct {
    int version, viewer; /* the position (actions applied) and the seat they are for; version -1: none */
    json_t *legal;       /* the legal actions with their previews */
} serve_preview_cache;

void serve_preview_free(serve_preview_cache *c);

/* What a view is made of. */
typedef struct {
    foh_game *g;
    const foh_ruleset *rs;
    const foh_cardset *cs; /* G's card set, of ruleset RS (its cards' names: describe_card) */
    int viewer;      /* the seat whose eyes (0-based), or -1: the public view */
    int who;         /* who asks: a seat, SERVE_HOTSEAT or SERVE_SPECTATOR (serve_table.h) */
    int decides;     /* 1: WHO takes the decision now (its legal actions and previews are sent) */
    int version;     /* actions applied so far */
    int replay_steps; /* the timeline: the finished game's actions (0: not the timeline) */
    const serve_log *log;
    const char *stopped; /* why the table stopped, or "" */
    int hotseat;
    const char *table, *cards;
    const char *variants[8];
    int nvariants;
    struct {
        const char *spec;
        int human, standin, present;
    } seat[FOH_MAX_PLAYERS];
    serve_preview_cache *preview; /* NULL: no cache (the timeline) */
} serve_view_in;

/* The view of IN (JSON, docs/serve.md); NULL if out of memory. */
json_t *serve_view(const serve_view_in *in);

/* The cards of CS for people (JSON: {cards: [{name, text}], legend}). */
json_t *serve_cards(const foh_cardset *cs);

/* The time MS milliseconds from now on CLOCK_REALTIME, the clock of
 * pthread_mutex_timedlock and pthread_cond_timedwait's deadlines. */
struct timespec serve_deadline(long ms);

/* Seconds on a clock that never goes back (CLOCK_MONOTONIC). */
double serve_now(void);

#endif

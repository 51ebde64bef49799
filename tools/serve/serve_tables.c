/* serve_tables: the open tables and their threads (serve_tables.h). */
#include "serve/serve_tables.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve/serve_views.h"

/* How often an idle table's thread looks whether a player's time ran out
 * (--abandon, --close-after): milliseconds. */
#define TABLE_LOOK_MS 250

struct serve_entry {
    serve_tables *ts;
    serve_table *t;
    int refs;            /* under ts->lock: the list's, its thread's, and each request's */
    int closed;          /* out of the list */
    pthread_cond_t wake; /* its thread's sleep, under ts->lock */
    int poked;
};

struct serve_tables {
    const cli_options *o;
    pthread_mutex_t lock;
    pthread_cond_t ended; /* a table's thread ended */
    serve_entry **open;   /* room for o->max_tables */
    int n, reserved, threads, stopping;
};

serve_tables *serve_tables_new(const cli_options *o)
{
    serve_tables *ts = calloc(1, sizeof *ts);
    if (ts && !(ts->open = calloc((size_t)o->max_tables, sizeof *ts->open))) {
        free(ts);
        ts = NULL;
    }
    if (!ts)
        return NULL;
    ts->o = o;
    pthread_mutex_init(&ts->lock, NULL);
    pthread_cond_init(&ts->ended, NULL);
    return ts;
}

int serve_tables_reserve(serve_tables *ts)
{
    pthread_mutex_lock(&ts->lock);
    int ok = ts->n + ts->reserved < ts->o->max_tables;
    ts->reserved += ok;
    pthread_mutex_unlock(&ts->lock);
    return ok;
}

serve_table *serve_entry_table(serve_entry *e) { return e->t; }

void serve_tables_release(serve_tables *ts, serve_entry *e)
{
    pthread_mutex_lock(&ts->lock);
    int last = --e->refs == 0;
    pthread_mutex_unlock(&ts->lock);
    if (last) {
        serve_table_free(e->t);
        pthread_cond_destroy(&e->wake);
        free(e);
    }
}

/* Take E out of the list, under ts->lock: 0 if it was out already. */
static int unlist(serve_tables *ts, serve_entry *e)
{
    if (e->closed)
        return 0;
    e->closed = 1;
    for (int i = 0; i < ts->n; i++)
        if (ts->open[i] == e) {
            ts->open[i] = ts->open[--ts->n];
            break;
        }
    pthread_cond_signal(&e->wake);
    return 1;
}

int serve_tables_close(serve_tables *ts, serve_entry *e, const char *reason, char *why, size_t whylen)
{
    pthread_mutex_lock(&ts->lock);
    int mine = unlist(ts, e);
    pthread_mutex_unlock(&ts->lock);
    if (!mine)
        return 1; /* closed by another meanwhile */
    serve_table_lock(e->t);
    int ok = serve_table_close(e->t, why, whylen);
    serve_table_unlock(e->t);
    if (ok)
        fprintf(stderr, "foh serve: table %s closed (%s); its save is %s/closed/%s.json\n", serve_table_id(e->t),
                reason, ts->o->tables, serve_table_id(e->t));
    else
        fprintf(stderr, "foh serve: table %s closed (%s), but %s\n", serve_table_id(e->t), reason, why);
    serve_tables_release(ts, e); /* the list's count */
    return ok;
}

static void *table_thread(void *ud)
{
    serve_entry *e = ud;
    serve_tables *ts = e->ts;
    const cli_options *o = ts->o;
    pthread_mutex_lock(&ts->lock);
    while (!ts->stopping && !e->closed) {
        e->poked = 0;
        pthread_mutex_unlock(&ts->lock);
        serve_table_lock(e->t);
        double now = serve_now();
        int worked = serve_table_step(e->t, now, o->abandon);
        int idle = !worked && now - serve_table_last_seen(e->t) > o->close_after;
        serve_table_unlock(e->t);
        if (idle) {
            char why[2400];
            serve_tables_close(ts, e, "none of its players asked for --close-after seconds", why, sizeof why);
        }
        pthread_mutex_lock(&ts->lock);
        if (!worked && !e->poked && !ts->stopping && !e->closed) {
            struct timespec until = serve_deadline(TABLE_LOOK_MS);
            pthread_cond_timedwait(&e->wake, &ts->lock, &until);
        }
    }
    ts->threads--;
    pthread_cond_broadcast(&ts->ended);
    pthread_mutex_unlock(&ts->lock);
    serve_tables_release(ts, e); /* the thread's count */
    return NULL;
}

int serve_tables_add(serve_tables *ts, serve_table *t, char *why, size_t whylen)
{
    serve_entry *e = t ? calloc(1, sizeof *e) : NULL;
    pthread_mutex_lock(&ts->lock);
    ts->reserved--;
    int ok = 1;
    if (t && !e) {
        snprintf(why, whylen, "out of memory");
        ok = 0;
    } else if (t) {
        *e = (serve_entry){.ts = ts, .t = t, .refs = 2};
        pthread_cond_init(&e->wake, NULL);
        pthread_t thread;
        pthread_attr_t attr;
        ok = pthread_attr_init(&attr) == 0;
        if (ok) {
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED); /* serve_tables_stop waits by count */
            ok = pthread_create(&thread, &attr, table_thread, e) == 0;
            pthread_attr_destroy(&attr);
        }
        if (ok) {
            ts->open[ts->n++] = e;
            ts->threads++;
        } else {
            snprintf(why, whylen, "cannot start a thread for the table");
            pthread_cond_destroy(&e->wake);
            free(e);
        }
    }
    pthread_mutex_unlock(&ts->lock);
    return ok;
}

serve_entry *serve_tables_find(serve_tables *ts, const char *id)
{
    serve_entry *e = NULL;
    pthread_mutex_lock(&ts->lock);
    for (int i = 0; i < ts->n && !e; i++)
        if (!strcmp(serve_table_id(ts->open[i]->t), id))
            e = ts->open[i];
    if (e)
        e->refs++;
    pthread_mutex_unlock(&ts->lock);
    return e;
}

int serve_tables_all(serve_tables *ts, serve_entry ***out)
{
    pthread_mutex_lock(&ts->lock);
    int n = ts->n;
    *out = malloc(sizeof **out * (size_t)(n ? n : 1));
    for (int i = 0; *out && i < n; i++) {
        (*out)[i] = ts->open[i];
        ts->open[i]->refs++;
    }
    pthread_mutex_unlock(&ts->lock);
    return *out ? n : -1;
}

int serve_tables_count(serve_tables *ts)
{
    pthread_mutex_lock(&ts->lock);
    int n = ts->n;
    pthread_mutex_unlock(&ts->lock);
    return n;
}

void serve_tables_poke(serve_tables *ts, serve_entry *e)
{
    pthread_mutex_lock(&ts->lock);
    e->poked = 1;
    pthread_cond_signal(&e->wake);
    pthread_mutex_unlock(&ts->lock);
}

int serve_tables_stop(serve_tables *ts, double seconds)
{
    pthread_mutex_lock(&ts->lock);
    ts->stopping = 1;
    for (int i = 0; i < ts->n; i++)
        pthread_cond_signal(&ts->open[i]->wake);
    struct timespec until = serve_deadline((long)(seconds * 1000));
    while (ts->threads > 0 && pthread_cond_timedwait(&ts->ended, &ts->lock, &until) == 0)
        ;
    int left = ts->threads;
    pthread_mutex_unlock(&ts->lock);
    return left;
}

void serve_tables_free(serve_tables *ts)
{
    if (!ts)
        return;
    while (ts->n > 0)
        serve_tables_release(ts, ts->open[--ts->n]);
    free(ts->open);
    pthread_mutex_destroy(&ts->lock);
    pthread_cond_destroy(&ts->ended);
    free(ts);
}

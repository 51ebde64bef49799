/* serve: `foh serve`, a browser table for any ruleset (docs/serve.md).
 *
 * An HTTP server on CivetWeb (Debian's libcivetweb; why in docs/serve.md)
 * serves the page (tools/serve/page/, compiled in: no file is read at run
 * time, so no path can lead out of it) and a JSON API over the tables
 * (serve_table.h). Each table's own thread (serve_tables.h) plays its bots'
 * decisions, and a human seat's when its player has been away longer than
 * --abandon. Requests that change something pass serve_guard.h's checks,
 * and no connection holds a thread long (serve_conn.h). The main
 * thread waits for SIGINT or SIGTERM, then stops the server; every table
 * was saved after its last action, and `foh serve` started again resumes
 * them. */
#include <civetweb.h>
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "any/any.h"
#include "commands.h"
#include "foh/ruleset.h"
#include "common/cli.h"
#include "page_app_js.h"
#include "page_index_html.h"
#include "page_style_css.h"
#include "serve/serve_conn.h"
#include "serve/serve_guard.h"
#include "serve/serve_table.h"
#include "serve/serve_tables.h"
#include "serve/serve_views.h"

/* The request limits, each refused with its own status (docs/serve.md). */
#define SERVE_MAX_BODY 65536  /* bytes of a request's body: 413 past it */
#define SERVE_WORKERS 2       /* threads running the engine for requests (besides the tables' own) */
#define SERVE_STOP_SECONDS 0.5 /* on SIGTERM, the longest wait for a bot's decision */
#define SERVE_MAX_NESTING 32  /* levels of a request's JSON: 400 past it */

static const cli_option_id serve_options[] = {OPT_PORT, OPT_HOST, OPT_TABLES, OPT_ABANDON, OPT_MAX_TABLES,
                                              OPT_CLOSE_AFTER, OPT_ORIGIN, OPT_CARDS, OPT_VARIANT, OPT_MODS, OPT_COUNT};
static const cli_command serve_command = {
    "serve", NULL, 0,
    "Serve a table in the browser: open the address it prints, make a table (a card set, its variants, "
    "and each seat a human or a bot), and send each human seat's link to its player. Spectators watch "
    "by the table's link without a seat; a bot plays a seat left empty or abandoned, and gives it back "
    "when its player returns. Tables are saved after every action in --tables and resumed when foh serve "
    "starts again; a finished table's timeline replays it. Ctrl-C stops the server.\n",
    serve_options, "The page and the JSON API: docs/serve.md.\n"};

typedef struct {
    serve_config cfg;
    cli_options o;
    serve_tables *tables; /* the open tables */
    /* The engine's work (loading card sets, playing, previews) runs on the
     * server's own threads, whose stacks are the system's default: the HTTP
     * library's threads have small ones. A request's handler queues a job
     * and waits for it. */
    pthread_mutex_t jobs_lock;
    pthread_cond_t jobs_wake, jobs_done;
    struct job *first, *last;
    int jobs_stop; /* under jobs_lock: the workers end once the queue is empty */
    pthread_t workers[SERVE_WORKERS];
    int nworkers;
} server;

typedef struct job {
    void (*fn)(void *arg);
    void *arg;
    int done;
    struct job *next;
} job;

/* Run FN(ARG) on a worker thread and wait for it. */
static void run_job(server *s, void (*fn)(void *), void *arg)
{
    job j = {.fn = fn, .arg = arg};
    pthread_mutex_lock(&s->jobs_lock);
    if (s->last)
        s->last->next = &j;
    else
        s->first = &j;
    s->last = &j;
    pthread_cond_signal(&s->jobs_wake);
    while (!j.done)
        pthread_cond_wait(&s->jobs_done, &s->jobs_lock);
    pthread_mutex_unlock(&s->jobs_lock);
}

static void *worker(void *ud)
{
    server *s = ud;
    pthread_mutex_lock(&s->jobs_lock);
    for (;;) {
        while (!s->first && !s->jobs_stop)
            pthread_cond_wait(&s->jobs_wake, &s->jobs_lock);
        if (!s->first)
            break; /* stopping, and nothing left to do */
        job *j = s->first;
        s->first = j->next;
        if (!s->first)
            s->last = NULL;
        pthread_mutex_unlock(&s->jobs_lock);
        j->fn(j->arg);
        pthread_mutex_lock(&s->jobs_lock);
        j->done = 1;
        pthread_cond_broadcast(&s->jobs_done);
    }
    pthread_mutex_unlock(&s->jobs_lock);
    return NULL;
}

/* ---- replies ---- */

static const char *reason(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 408: return "Request Timeout";
    case 410: return "Gone";
    case 415: return "Unsupported Media Type";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 422: return "Unprocessable Entity";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
    }
}

static int reply_bytes(struct mg_connection *c, int status, const char *type, const char *body, size_t len)
{
    mg_printf(c,
              "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-store\r\n"
              "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
              "Content-Security-Policy: default-src 'self'; frame-ancestors 'none'\r\nConnection: close\r\n\r\n",
              status, reason(status), type, len);
    if (strcmp(mg_get_request_info(c)->request_method, "HEAD")) /* HEAD: the headers alone */
        mg_write(c, body, len);
    return status;
}

/* Reply with JSON J (taken); a J that could not be made is a 500. */
static int reply_json(struct mg_connection *c, int status, json_t *j)
{
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!text)
        return reply_bytes(c, 500, "application/json", "{\"error\":\"out of memory\"}", 25);
    reply_bytes(c, status, "application/json; charset=utf-8", text, strlen(text));
    free(text);
    return status;
}

static int reply_error(struct mg_connection *c, int status, const char *msg)
{
    return reply_json(c, status, json_pack("{s:s?, s:i}", "error", msg, "status", status));
}

/* ---- the page ---- */

static int page(struct mg_connection *c, const struct mg_request_info *ri)
{
    static const struct {
        const char *path, *type, *body;
    } files[] = {
        {"/", "text/html; charset=utf-8", foh_page_index_html},
        {"/index.html", "text/html; charset=utf-8", foh_page_index_html},
        {"/app.js", "text/javascript; charset=utf-8", foh_page_app_js},
        {"/style.css", "text/css; charset=utf-8", foh_page_style_css},
    };
    if (strcmp(ri->request_method, "GET") && strcmp(ri->request_method, "HEAD"))
        return reply_error(c, 405, "the page is read with GET");
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if (!strcmp(ri->local_uri_raw ? ri->local_uri_raw : "", files[i].path))
            return reply_bytes(c, 200, files[i].type, files[i].body, strlen(files[i].body));
    return reply_error(c, 404, "no such page: the page is /, the API under /api/ (docs/serve.md)");
}

/* ---- requests ---- */

/* How deep the arrays and objects of JSON text TEXT nest (strings
 * skipped): the parser recurses once a level, on a thread whose stack the
 * HTTP library keeps small. */
static int nesting(const char *text, size_t len)
{
    int depth = 0, most = 0, in_string = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (in_string) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_string = 0;
        } else if (ch == '"')
            in_string = 1;
        else if (ch == '[' || ch == '{')
            most = ++depth > most ? depth : most;
        else if ((ch == ']' || ch == '}') && depth > 0)
            depth--;
    }
    return most;
}

/* The request's body as JSON into *OUT. An HTTP status: 200, or the one
 * sent (411, 413, 400). */
static int read_body(struct mg_connection *c, const struct mg_request_info *ri, json_t **out)
{
    *out = NULL;
    if (ri->content_length < 0)
        return reply_error(c, 411, "a request's body needs its Content-Length");
    if (ri->content_length > SERVE_MAX_BODY)
        return reply_error(c, 413, "the body is larger than 65536 bytes");
    char *buf = malloc((size_t)ri->content_length + 1);
    if (!buf)
        return reply_error(c, 500, "out of memory");
    size_t got = 0;
    if (foh_serve_conn_read(c, buf, (size_t)ri->content_length, &got) == 408) {
        free(buf);
        return reply_error(c, 408, "the body took longer than 10 seconds to arrive");
    }
    if (got == (size_t)ri->content_length && nesting(buf, got) > SERVE_MAX_NESTING) {
        free(buf);
        return reply_error(c, 400, "the body's JSON is nested deeper than 32 levels");
    }
    json_error_t jerr;
    *out = got == (size_t)ri->content_length ? json_loadb(buf, got, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    free(buf);
    if (!*out) {
        char msg[300];
        snprintf(msg, sizeof msg, "the body is not valid JSON%s%s", got == (size_t)ri->content_length ? ": " : "",
                 got == (size_t)ri->content_length ? jerr.text : " (cut short)");
        return reply_error(c, 400, msg);
    }
    return 200;
}

static int valid_id(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
            return 0;
    return n == SERVE_ID_LEN;
}

/* A request's work on the engine, run by a worker (run_job). */
typedef struct {
    server *s;
    json_t *body;             /* the request's JSON (create, actions, undo) */
    serve_entry *e;           /* the table asked about (NULL: create one) */
    serve_table *t;           /* its table */
    const char *what;         /* "", "cards", "replay", "actions", "undo" */
    char token[128];
    char id[SERVE_ID_LEN + 1];
    long step;                /* replay: the step asked */
    int post;
    int status;               /* the reply: an HTTP status, */
    json_t *out;              /* its JSON (status 200 or 201), */
    char why[1600];           /* or why not */
    int busy;                 /* 503 because a bot holds the table */
} call;

static void create_job(void *arg)
{
    call *k = arg;
    serve_table *t = serve_table_create(&k->s->cfg, k->id, k->body, &k->status, k->why, sizeof k->why);
    if (t)
        k->out = json_pack("{s:s, s:s, s:o, s:o}", "id", k->id, "owner", serve_table_owner(t), "links",
                           serve_table_links(t), "table", serve_table_summary(t));
    if (!serve_tables_add(k->s->tables, t, k->why, sizeof k->why)) {
        serve_table_free(t); /* its files stay: the next start resumes it */
        json_decref(k->out);
        k->out = NULL;
        k->status = 500;
        return;
    }
    if (t)
        k->status = 201; /* its thread may play from now on: the reply was made before */
}

static int create_table(server *s, struct mg_connection *c, const struct mg_request_info *ri)
{
    call k = {.s = s};
    int status = read_body(c, ri, &k.body);
    if (status != 200)
        return status;
    if (!serve_tables_reserve(s->tables)) {
        json_decref(k.body);
        return reply_error(c, 503, "the server holds its most tables (--max-tables)");
    }
    int ok = serve_random_hex(k.id, SERVE_ID_LEN);
    if (ok)
        run_job(s, create_job, &k);
    else
        serve_tables_add(s->tables, NULL, k.why, sizeof k.why);
    json_decref(k.body);
    if (!ok)
        return reply_error(c, 500, "no random source for the table's id");
    return k.out ? reply_json(c, k.status, k.out) : reply_error(c, k.status, k.why);
}

static int list_tables(server *s, struct mg_connection *c)
{
    json_t *list = json_array();
    serve_entry **all;
    int n = serve_tables_all(s->tables, &all);
    if (n < 0)
        json_decref(list), list = NULL;
    for (int i = 0; i < n; i++) {
        serve_table *t = serve_entry_table(all[i]);
        if (list && !serve_table_trylock_now(t)) /* its bot is thinking: the list does not wait */
            json_array_append_new(list, json_pack("{s:s, s:b}", "id", serve_table_id(t), "busy", 1));
        else if (list) {
            json_array_append_new(list, serve_table_summary(t));
            serve_table_unlock(t);
        }
        serve_tables_release(s->tables, all[i]);
    }
    free(all);
    return reply_json(c, 200, json_pack("{s:o?, s:i}", "tables", list, "max_tables", s->o.max_tables));
}

/* The names in folder DIR into array OUT (each one once). */
static void add_names(json_t *out, const char *dir)
{
    char **vn;
    int nv = cli_list_dir(dir, "", &vn);
    for (int v = 0; out && v < nv; v++) {
        size_t i;
        json_t *had;
        int seen = 0;
        json_array_foreach(out, i, had) {
            seen |= !strcmp(json_string_value(had), vn[v]);
        }
        if (!seen)
            json_array_append_new(out, json_string(vn[v]));
    }
    cli_free_list(vn, nv > 0 ? nv : 0);
}

/* The card sets a table may name (the project's and the mods'), each with
 * the variants it may name, for the page's form: its own (its folder's
 * variants/), and the shared folders' (the project's variants/, the
 * mods'), which are written for the default ruleset (the registry's
 * first, The Flow of History) alone: another ruleset's set would refuse
 * them (422). */
static int list_sets(server *s, struct mg_connection *c)
{
    const char *path[CLI_MAX_SEARCH];
    json_t *common = json_array();
    int np = cli_search_path(&s->o, "variants", path, CLI_MAX_SEARCH);
    for (int i = 0; common && i < np; i++)
        add_names(common, path[i]);
    np = cli_search_path(&s->o, "cards", path, CLI_MAX_SEARCH);
    json_t *sets = json_array();
    for (int i = 0; sets && i < np; i++) {
        char **names;
        int n = cli_list_dir(path[i], "", &names);
        for (int k = 0; k < n; k++) {
            char dir[2100], game[2200], vdir[2200];
            snprintf(dir, sizeof dir, "%s/%s", path[i], names[k]);
            snprintf(game, sizeof game, "%s/game.yaml", dir);
            struct stat st;
            const foh_ruleset *rs;
            foh_error err;
            if (stat(game, &st) != 0 || !S_ISREG(st.st_mode) || foh_ruleset_of_dir(dir, &rs, &err) != FOH_OK)
                continue; /* no card set, or one no ruleset plays */
            json_t *variants = json_array();
            snprintf(vdir, sizeof vdir, "%s/variants", dir);
            if (rs == foh_ruleset_at(0)) /* the shared ones first: the name a table's variants find first */
                json_array_extend(variants, common);
            add_names(variants, vdir);
            json_array_append_new(sets, json_pack("{s:s, s:s, s:o}", "name", names[k], "ruleset", rs->name,
                                                  "variants", variants));
        }
        cli_free_list(names, n > 0 ? n : 0);
    }
    return reply_json(c, 200, json_pack("{s:o?, s:o?}", "sets", sets, "variants", common));
}

/* The token of the request: ?k= in the address, or the body's "token"
 * ("-", which opens no seat, for one too long or not a string). */
static void token_of(const struct mg_request_info *ri, json_t *body, char *out, size_t len)
{
    out[0] = '\0';
    const char *q = ri->query_string;
    int got = q ? mg_get_var(q, strlen(q), "k", out, len) : -1;
    if (got == -1) /* none */
        out[0] = '\0';
    else if (got < 0) /* longer than any token: a forged one, never no token at all */
        snprintf(out, len, "-");
    json_t *b = json_object_get(body, "token");
    if (b)
        snprintf(out, len, "%s", json_is_string(b) && strlen(json_string_value(b)) < len ? json_string_value(b) : "-");
}

static long query_long(const struct mg_request_info *ri, const char *name, long fallback)
{
    char v[32];
    const char *q = ri->query_string;
    if (!q || mg_get_var(q, strlen(q), name, v, sizeof v) < 0)
        return fallback;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    return *v && !*end && !errno ? x : -1;
}

/* Whether every field of object BODY is one of KNOWN (space-separated
 * names); else 0 with WHY naming the first other one. */
static int known_fields(json_t *body, const char *known, char *why, size_t whylen)
{
    const char *key;
    json_t *v;
    json_object_foreach(body, key, v) {
        size_t n = strlen(key);
        const char *at = known;
        int found = 0;
        while (!found && *at) {
            size_t w = strcspn(at, " ");
            found = w == n && !strncmp(at, key, n);
            at += w + (at[w] == ' ');
        }
        if (!found) {
            snprintf(why, whylen, "unknown field '%.64s' (fields: %s)", key, known);
            return 0;
        }
    }
    return 1;
}

static void table_job(void *arg)
{
    call *k = arg;
    serve_table *t = k->t;
    if (!serve_table_trylock(t)) {
        /* Its bot is thinking (up to SERVE_MAX_MS): the worker does not
         * wait, so that other tables' requests are served meanwhile. */
        k->status = 503;
        k->busy = 1;
        snprintf(k->why, sizeof k->why, "a bot is thinking at this table: ask again in a moment");
        return;
    }
    int who = serve_table_seat_of(t, k->token, serve_now());
    k->status = 200;
    if (who == -3) {
        k->status = 403;
        snprintf(k->why, sizeof k->why, "this link's token opens no seat of the table");
    } else if (k->post && who == SERVE_SPECTATOR) {
        k->status = 401;
        snprintf(k->why, sizeof k->why, "a seat's token is needed (its link's k=...)");
    } else if (!strcmp(k->what, "")) {
        k->out = serve_table_view(t, who);
    } else if (!strcmp(k->what, "cards")) {
        k->out = serve_table_cards(t);
    } else if (!strcmp(k->what, "replay")) {
        k->out = serve_table_replay(t, k->step, &k->status, k->why, sizeof k->why);
    } else if (!known_fields(k->body, !strcmp(k->what, "undo") ? "token" : "token version action", k->why,
                             sizeof k->why)) {
        k->status = 400;
    } else if (!strcmp(k->what, "undo")) {
        k->status = serve_table_undo(t, who, k->why, sizeof k->why);
    } else {
        json_t *version = json_object_get(k->body, "version");
        const char *action = json_string_value(json_object_get(k->body, "action"));
        char *end = NULL;
        errno = 0;
        /* Digits alone: strtoll would also take " 16" and "+16". */
        long long id = action && isdigit((unsigned char)action[0]) ? strtoll(action, &end, 10) : -1;
        if (!json_is_integer(version) || !action || !*action || id < 0 || *end || errno) {
            k->status = 400;
            snprintf(k->why, sizeof k->why,
                     "send {\"token\": ..., \"version\": N, \"action\": \"ID\"} (an id of the view's legal actions)");
        } else
            k->status = serve_table_act(t, who, (long)json_integer_value(version), (long)id, k->why, sizeof k->why);
    }
    if (k->status == 200 && !k->out && k->post)
        k->out = serve_table_view(t, who);
    serve_table_unlock(t);
}

/* A table that is not open: 410 if it was closed (its save is kept in
 * closed/), else 404. */
static int not_open(server *s, struct mg_connection *c, const char *id)
{
    char path[2100], msg[2300];
    snprintf(path, sizeof path, "%s/closed/%s.json", s->o.tables, id);
    if (!valid_id(id) || access(path, F_OK) != 0)
        return reply_error(c, 404, "no such table");
    /* Named in the folder, as a 422 names files: the server's paths are its own. */
    snprintf(msg, sizeof msg, "the table is closed: its save is closed/%s.json in the server's tables folder "
                              "(foh replay reads it)", id);
    return reply_error(c, 410, msg);
}

/* Close table K->e at its owner's request (DELETE /api/tables/ID, or POST
 * /api/tables/ID/close, with the owner's secret as its token). */
static int close_request(server *s, struct mg_connection *c, call *k)
{
    char why[2400];
    if (k->body && !known_fields(k->body, "token", why, sizeof why))
        return reply_error(c, 400, why);
    if (!k->token[0])
        return reply_error(c, 401, "the table's owner secret is needed (the \"owner\" its maker was told)");
    if (!serve_table_opened_by_owner(k->t, k->token))
        return reply_error(c, 403, "this is not the table's owner secret");
    if (!serve_tables_close(s->tables, k->e, "its owner closed it", why, sizeof why))
        return reply_error(c, 500, why);
    return reply_json(c, 200, json_pack("{s:s, s:b}", "id", k->id, "closed", 1));
}

static int table_call(server *s, struct mg_connection *c, const struct mg_request_info *ri, call *k)
{
    int get = !strcmp(ri->request_method, "GET");
    int del = !strcmp(ri->request_method, "DELETE");
    k->post = !strcmp(ri->request_method, "POST");
    if (strcmp(k->what, "") && strcmp(k->what, "cards") && strcmp(k->what, "replay") && strcmp(k->what, "actions") &&
        strcmp(k->what, "undo") && strcmp(k->what, "close"))
        return reply_error(c, 404, "no such part of a table (cards, replay, actions, undo, close)");
    int changes = !strcmp(k->what, "actions") || !strcmp(k->what, "undo") || !strcmp(k->what, "close");
    if (del && !strcmp(k->what, ""))
        k->post = 1; /* DELETE /api/tables/ID: close it */
    else if (changes ? !k->post : !get)
        return reply_error(c, 405, k->post ? "read with GET" : "send with POST");
    if (k->post) {
        int status = del && ri->content_length <= 0 ? 200 : read_body(c, ri, &k->body);
        if (status != 200)
            return status;
    }
    token_of(ri, k->body, k->token, sizeof k->token);
    if (del || !strcmp(k->what, "close"))
        return close_request(s, c, k);
    k->step = query_long(ri, "step", 0);
    run_job(s, table_job, k);
    if (k->status == 200 && k->post)
        serve_tables_poke(s->tables, k->e); /* its bots may move now */
    if (k->busy) /* the page keeps what it shows and asks again */
        return reply_json(c, 503, json_pack("{s:s, s:i, s:b}", "error", k->why, "status", 503, "busy", 1));
    if (k->status != 200)
        return reply_error(c, k->status, k->why);
    return k->out ? reply_json(c, 200, k->out) : reply_error(c, 500, "out of memory");
}

/* /api/tables/ID[/WHAT] */
static int table_request(server *s, struct mg_connection *c, const struct mg_request_info *ri, const char *rest)
{
    call k = {.s = s};
    size_t n = strcspn(rest, "/");
    snprintf(k.id, sizeof k.id, "%.*s", (int)(n < sizeof k.id - 1 ? n : sizeof k.id - 1), rest);
    k.e = n == SERVE_ID_LEN && valid_id(k.id) ? serve_tables_find(s->tables, k.id) : NULL;
    if (!k.e)
        return n == SERVE_ID_LEN ? not_open(s, c, k.id) : reply_error(c, 404, "no such table");
    k.t = serve_entry_table(k.e);
    k.what = rest[n] ? rest + n + 1 : "";
    int status = table_call(s, c, ri, &k);
    json_decref(k.body);
    serve_tables_release(s->tables, k.e);
    return status;
}

/* Whether the request's Host names this server. Listening on the loopback
 * address alone, only 127.0.0.1, localhost and [::1] (with the port) are
 * accepted: a web page elsewhere whose name was pointed at 127.0.0.1 (DNS
 * rebinding) could otherwise read and make tables through its visitors'
 * browsers. Listening on another address, any Host is accepted. */
static int host_allowed(const server *s, const struct mg_request_info *ri)
{
    if (strcmp(s->o.host, "127.0.0.1") && strcmp(s->o.host, "localhost") && strcmp(s->o.host, "::1") &&
        strcmp(s->o.host, "[::1]"))
        return 1;
    const char *host = NULL;
    for (int i = 0; i < ri->num_headers; i++)
        if (!strcasecmp(ri->http_headers[i].name, "Host")) {
            if (host)
                return 0; /* two: which one a proxy or the browser meant is not known */
            host = ri->http_headers[i].value;
        }
    if (!host)
        return 0;
    static const char *const names[] = {"127.0.0.1", "localhost", "[::1]"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        size_t n = strlen(names[i]);
        if (strncasecmp(host, names[i], n))
            continue;
        if (host[n] == '\0')
            return 1;
        /* ":PORT", digits alone and this server's port: not "PORTjunk", not "PORT@elsewhere". */
        const char *port = host + n + 1;
        size_t digits = strspn(port, "0123456789");
        char want[16];
        snprintf(want, sizeof want, "%d", ri->server_port);
        if (host[n] == ':' && digits > 0 && port[digits] == '\0' && !strcmp(port, want))
            return 1;
    }
    return 0;
}

static int handle(struct mg_connection *c, void *ud)
{
    server *s = ud;
    const struct mg_request_info *ri = mg_get_request_info(c);
    int lengths = 0;
    for (int i = 0; i < ri->num_headers; i++)
        lengths += !strcasecmp(ri->http_headers[i].name, "Content-Length");
    if (lengths > 1) /* which one ends the body is not known (request smuggling): none is guessed */
        return reply_error(c, 400, "a request has at most one Content-Length header");
    if (!host_allowed(s, ri))
        return reply_error(c, 403, "this server answers to 127.0.0.1, localhost and [::1] alone (its Host header "
                                   "names another: --host sets the address to listen on)");
    const char *uri = ri->local_uri_raw ? ri->local_uri_raw : "";
    if (!strcmp(ri->request_method, "OPTIONS")) /* a cross-site preflight: never granted */
        return reply_error(c, 405, "no cross-site requests: the page and the API share one site");
    if (foh_serve_guard_changes(ri)) {
        char why[400];
        int status = foh_serve_guard_check(&s->o, ri, why, sizeof why);
        if (status != 200)
            return reply_error(c, status, why);
    }
    if (strncmp(uri, "/api/", 5))
        return page(c, ri);
    if (!strcmp(uri, "/api/tables")) {
        if (!strcmp(ri->request_method, "POST"))
            return create_table(s, c, ri);
        if (!strcmp(ri->request_method, "GET"))
            return list_tables(s, c);
        return reply_error(c, 405, "GET lists the tables, POST makes one");
    }
    if (!strcmp(uri, "/api/sets"))
        return strcmp(ri->request_method, "GET") ? reply_error(c, 405, "read with GET") : list_sets(s, c);
    if (!strncmp(uri, "/api/tables/", 12))
        return table_request(s, c, ri, uri + 12);
    return reply_error(c, 404, "no such API address (docs/serve.md)");
}

/* ---- the command ---- */

/* The tables saved in the --tables folder, resumed. One that cannot be
 * (a file unreadable, a seats file without its game) is skipped, said
 * with its file's name, its files left as they are: the others start. 0
 * if the folder cannot be read or holds more than --max-tables. */
static int resume_tables(server *s)
{
    char **names;
    int n = cli_list_dir(s->o.tables, ".table.json", &names), ok = 1;
    if (n < 0) {
        cli_error("serve", "%s: %s", s->o.tables, strerror(errno));
        return 0;
    }
    for (int i = 0; ok && i < n; i++) {
        char id[64], why[2048];
        snprintf(id, sizeof id, "%.*s", (int)(strlen(names[i]) - strlen(".table.json")), names[i]);
        if (!valid_id(id))
            continue; /* not one of ours */
        serve_table *t = serve_table_resume(&s->cfg, id, why, sizeof why);
        if (!t)
            cli_error("serve", "%s/%s: table %s is skipped, not resumed: %s (its files are left as they are)",
                      s->o.tables, names[i], id, why);
        else if (!serve_tables_reserve(s->tables)) {
            serve_table_free(t);
            cli_error("serve", "%s holds more tables than --max-tables %d", s->o.tables, s->o.max_tables);
            ok = 0;
        } else if (!serve_tables_add(s->tables, t, why, sizeof why)) {
            serve_table_free(t);
            cli_error("serve", "cannot resume table %s: %s", id, why);
            ok = 0;
        }
    }
    cli_free_list(names, n);
    return ok;
}

static void free_server(server *s)
{
    serve_tables_free(s->tables);
    pthread_mutex_destroy(&s->jobs_lock);
    pthread_cond_destroy(&s->jobs_wake);
    pthread_cond_destroy(&s->jobs_done);
}

/* Listen on the options' address: the context, or NULL after saying why. */
static struct mg_context *listen_on(server *s, int *port)
{
    char ports[300], err_text[256] = "";
    snprintf(ports, sizeof ports, "%s:%d", s->o.host, s->o.port);
    char timeout[32];
    snprintf(timeout, sizeof timeout, "%d", SERVE_HEADER_MS);
    /* No CORS answers: CivetWeb's default grants any site's preflight. */
    const char *options[] = {"listening_ports", ports, "num_threads", SERVE_THREADS, "request_timeout_ms", timeout,
                             "enable_keep_alive", "no", "access_control_allow_origin", "",
                             "access_control_allow_methods", "", "access_control_allow_headers", "", NULL};
    struct mg_callbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    foh_serve_conn_callbacks(&callbacks);
    struct mg_init_data init = {.callbacks = &callbacks, .user_data = s, .configuration_options = options};
    unsigned code = 0;
    struct mg_error_data error = {.code = &code, .text = err_text, .text_buffer_size = sizeof err_text};
    struct mg_context *ctx = mg_start2(&init, &error);
    if (!ctx) {
        cli_error("serve", "cannot listen on %s: %s", ports, err_text[0] ? err_text : "refused");
        return NULL;
    }
    mg_set_request_handler(ctx, "/", handle, s);
    struct mg_server_port sp[4];
    *port = mg_get_server_ports(ctx, 4, sp) > 0 ? sp[0].port : s->o.port;
    return ctx;
}

int cmd_serve(int argc, char **argv)
{
    server s;
    memset(&s, 0, sizeof s);
    int st = cli_parse(&serve_command, argc, argv, &s.o);
    if (st != CLI_OK)
        return st;
    if (s.o.help) {
        cli_help(&serve_command, stdout);
        return CLI_OK;
    }
    foh_error err;
    foh_cardset *probe = any_load(&s.o, &err); /* the default card set must load before anyone is told to come */
    if (!probe) {
        cli_error(NULL, "%s", err.msg);
        return CLI_DATA;
    }
    foh_cardset_free(probe);
    if (mkdir(s.o.tables, 0700) != 0 && errno != EEXIST) {
        cli_error("serve", "%s: %s", s.o.tables, strerror(errno));
        return CLI_USAGE;
    }
    s.cfg = (serve_config){.o = &s.o, .standin = "greedy"};
    pthread_mutex_init(&s.jobs_lock, NULL);
    pthread_cond_init(&s.jobs_wake, NULL);
    pthread_cond_init(&s.jobs_done, NULL);
    /* The signals are taken by sigwait below, so every thread blocks them
     * (the tables' threads start as they are resumed). */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGPIPE); /* a page closed mid-reply: the write fails, the server goes on */
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    s.tables = serve_tables_new(&s.o);
    if (!s.tables || !resume_tables(&s)) {
        if (!s.tables)
            cli_error("serve", "out of memory");
        free_server(&s);
        return CLI_DATA;
    }
    mg_init_library(0);
    int port = 0;
    struct mg_context *ctx = listen_on(&s, &port);
    for (int i = 0; ctx && i < SERVE_WORKERS; i++)
        if (pthread_create(&s.workers[s.nworkers], NULL, worker, &s) == 0)
            s.nworkers++;
    int started = ctx && s.nworkers > 0;
    if (ctx && !started)
        cli_error("serve", "cannot start the server's threads");
    int status = started ? CLI_OK : CLI_USAGE;
    if (started) {
        printf("foh serve: http://%s:%d/ (%d tables resumed from %s; Ctrl-C stops)\n", s.o.host, port,
               serve_tables_count(s.tables), s.o.tables);
        if (fflush(stdout) != 0) {
            cli_error("serve", "cannot write to standard output");
            status = CLI_USAGE;
        } else {
            sigdelset(&stop, SIGPIPE);
            int sig;
            sigwait(&stop, &sig);
            fprintf(stderr, "foh serve: stopping (%s); every table is saved\n", sig == SIGINT ? "Ctrl-C" : "SIGTERM");
        }
    }
    /* A bot in the middle of a decision is not waited for long: every table
     * was saved after its last action, and the decision is made again when
     * the server starts again. */
    int thinking = serve_tables_stop(s.tables, SERVE_STOP_SECONDS);
    if (ctx)
        mg_stop(ctx); /* waits for the requests being served */
    pthread_mutex_lock(&s.jobs_lock);
    s.jobs_stop = 1;
    pthread_cond_broadcast(&s.jobs_wake);
    pthread_mutex_unlock(&s.jobs_lock);
    for (int i = 0; i < s.nworkers; i++)
        pthread_join(s.workers[i], NULL);
    mg_exit_library();
    if (thinking) {
        /* Their threads hold their tables: the process ends without them. */
        fprintf(stderr, "foh serve: stopped without waiting for the bots thinking at %d tables\n", thinking);
        fflush(NULL);
        _exit(status);
    }
    free_server(&s);
    return status;
}

/* serve_views: the JSON a page of foh serve is sent (see serve_views.h). */
#include "serve/serve_views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "foh/match.h"
#include "foh/ruleset.h"
#include "serve/serve_table.h"

double serve_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct timespec serve_deadline(long ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    return until;
}

/* ---- the log ---- */

void serve_log_add(serve_log *log, const char *line)
{
    if (log->n == log->cap) {
        int cap = log->cap ? 2 * log->cap : 64;
        char **grown = realloc(log->line, sizeof *grown * (size_t)cap);
        if (!grown) {
            log->failed = 1;
            return;
        }
        log->line = grown;
        log->cap = cap;
    }
    char *copy = strdup(line);
    if (!copy) {
        log->failed = 1;
        return;
    }
    log->line[log->n++] = copy;
}

void serve_log_add_fn(void *log, const char *line) { serve_log_add(log, line); }

void serve_log_clear(serve_log *log)
{
    for (int i = 0; i < log->n; i++)
        free(log->line[i]);
    log->n = 0;
    log->failed = 0;
}

void serve_log_free(serve_log *log)
{
    serve_log_clear(log);
    free(log->line);
    log->line = NULL;
    log->cap = 0;
}

void serve_preview_free(serve_preview_cache *c)
{
    json_decref(c->legal);
    c->legal = NULL;
    c->version = -1;
}

/* ---- JSON of untrusted text ---- */

/* TEXT as a JSON string: card files and scripts may hold bytes that are
 * not UTF-8, which JSON cannot carry; each such byte becomes '?'. */
static json_t *text_json(const char *text)
{
    json_t *s = json_string(text ? text : "");
    if (s)
        return s;
    char *copy = strdup(text);
    if (!copy)
        return NULL;
    for (char *c = copy; *c; c++)
        if ((unsigned char)*c >= 0x80)
            *c = '?';
    s = json_string(copy);
    free(copy);
    return s;
}

/* What VIEWER sees of G, in a new string (NULL if out of memory). */
static char *observation(const foh_game *g, int viewer)
{
    int need = foh_game_observe(g, viewer, NULL, 0);
    char *text = malloc((size_t)need + 1);
    if (text)
        foh_game_observe(g, viewer, text, (size_t)need + 1);
    return text;
}

/* The first score line (what the ruleset ranks by) of every player into
 * OUT; 0 if scoring failed. */
static int ranking(foh_game *g, double *out)
{
    for (int p = 0; p < foh_game_players(g); p++) {
        foh_score_line line;
        foh_error err;
        if (foh_game_score_lines(g, p, &line, 1, &err) < 1)
            return 0;
        out[p] = line.value;
    }
    return 1;
}

/* Whether LINE (LEN bytes) is one of TEXT's lines. */
static int has_line(const char *text, const char *line, size_t len)
{
    for (const char *at = text; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
        if (strncmp(at, line, len) == 0 && (at[len] == '\n' || at[len] == '\0'))
            return 1;
    return 0;
}

/* ---- previews ---- */

typedef struct {
    char *seen;           /* what the viewer sees after the action */
    serve_log log;        /* what the log says of it */
    double rank[FOH_MAX_PLAYERS];
    int ranked;
    foh_status status;
    char msg[sizeof ((foh_error *)0)->msg];
} outcome;

/* A played on a copy of G whose hidden parts are re-sampled for VIEWER
 * with SEED. */
static void play_copy(foh_game *g, int viewer, const foh_action *a, uint64_t seed, outcome *out)
{
    memset(out, 0, sizeof *out);
    foh_game *c = foh_game_clone(g);
    foh_error err;
    if (!c) {
        out->status = FOH_ERR_MEMORY;
        snprintf(out->msg, sizeof out->msg, "out of memory");
        return;
    }
    foh_game_determinize(c, viewer, seed);
    foh_game_set_log(c, serve_log_add_fn, &out->log);
    out->status = foh_game_apply(c, a, &err);
    if (out->status != FOH_OK)
        snprintf(out->msg, sizeof out->msg, "%s", err.msg);
    else {
        out->seen = observation(c, viewer);
        out->ranked = ranking(c, out->rank);
    }
    foh_game_free(c);
}

static void outcome_free(outcome *o)
{
    free(o->seen);
    serve_log_free(&o->log);
}

/* How many copies of the game a preview plays, each re-sampled: a fact
 * shown must come out the same in all of them (with two, a 20-card
 * face-down pile would show a made-up card one time in twenty). */
#define SAMPLES 3

/* Whether LINE (LEN bytes) is among the lines of every outcome of O[1..N). */
static int in_all(const outcome *o, int n, const char *line, size_t len)
{
    for (int k = 1; k < n; k++)
        if (!has_line(o[k].seen, line, len))
            return 0;
    return 1;
}

/* The names of a card set's cards (describe_card), to tell a card the
 * viewer could not see before an action. */
typedef struct {
    char (*name)[256]; /* as long as describe_card writes them below */
    int n;
    char *shown;       /* shown[c]: card c's name is in the viewer's observation before the action */
} card_names;

static void card_names_of(const foh_cardset *cs, card_names *out)
{
    const foh_ruleset *rs = foh_cardset_ruleset(cs);
    char name[256], text[8];
    out->name = NULL;
    out->n = 0;
    int n = 0;
    while (rs->describe_card && rs->describe_card(cs, n, name, sizeof name, text, sizeof text))
        n++;
    out->name = n ? calloc((size_t)n, sizeof *out->name) : NULL;
    for (int c = 0; out->name && c < n; c++) {
        rs->describe_card(cs, c, name, sizeof name, text, sizeof text);
        snprintf(out->name[c], sizeof out->name[c], "%s", name);
    }
    out->n = out->name ? n : 0;
    out->shown = out->n ? calloc((size_t)out->n, 1) : NULL;
    if (!out->shown)
        out->n = 0;
}

/* Which names BEFORE (the viewer's observation) shows: once a position. */
static void card_names_shown(card_names *cn, const char *before)
{
    for (int c = 0; c < cn->n; c++)
        cn->shown[c] = strstr(before, cn->name[c]) != NULL;
}

/* Whether LINE (LEN bytes) names a card that BEFORE (the viewer's
 * observation before the action, card_names_shown) does not: a card that was hidden (drawn
 * from a deck or a face-down pile) and that chance picked in the copies,
 * however alike they came out. */
static int names_hidden(const card_names *cn, const char *line, size_t len)
{
    char one[2048];
    snprintf(one, sizeof one, "%.*s", (int)len, line);
    for (int c = 0; c < cn->n; c++)
        if (!cn->shown[c] && cn->name[c][0] && strstr(one, cn->name[c]))
            return 1;
    return 0;
}

/* The changes of the viewer's observation from BEFORE to the outcomes O
 * (N of them) that they all agree on and that name no hidden card:
 * [{from, to}]. */
static json_t *changed_lines(const char *before, const outcome *o, int n, const card_names *cn, int *uncertain)
{
    json_t *out = json_array();
    for (const char *at = o[0].seen; out && at && *at;) {
        size_t len = strcspn(at, "\n");
        if (!has_line(before, at, len)) {
            if (!in_all(o, n, at, len) || names_hidden(cn, at, len))
                *uncertain = 1; /* chance (a hidden card) decides it */
            else {
                /* The line it replaces: the one before with the same head ("supply:"). */
                size_t head = strcspn(at, ":");
                const char *was = NULL;
                for (const char *w = before; head < len && w && *w; w = strchr(w, '\n') ? strchr(w, '\n') + 1 : NULL)
                    if (!strncmp(w, at, head + 1)) {
                        was = w;
                        break;
                    }
                char to[2048], from[2048];
                snprintf(to, sizeof to, "%.*s", (int)len, at);
                snprintf(from, sizeof from, "%.*s", was ? (int)strcspn(was, "\n") : 0, was ? was : "");
                json_t *one = json_object();
                json_object_set_new(one, "to", text_json(to));
                if (was)
                    json_object_set_new(one, "from", text_json(from));
                json_array_append_new(out, one);
            }
        }
        at += len + (at[len] == '\n');
    }
    return out;
}

static json_t *preview(foh_game *g, int viewer, const foh_action *a, const char *before, const double *rank,
                       int ranked, const card_names *cn, uint64_t seed)
{
    outcome o[SAMPLES];
    for (int k = 0; k < SAMPLES; k++)
        play_copy(g, viewer, a, seed + 0x9e3779b97f4a7c15ull * (uint64_t)k, &o[k]);
    json_t *p = json_object();
    int ok = 1, all_ranked = ranked;
    for (int k = 0; k < SAMPLES; k++) {
        ok = ok && o[k].status == FOH_OK;
        all_ranked = all_ranked && o[k].ranked;
    }
    if (o[0].status != FOH_OK) {
        json_object_set_new(p, "error", text_json(o[0].msg));
    } else {
        int uncertain = !ok;
        json_t *log = json_array();
        for (int i = 0; i < o[0].log.n; i++) {
            int all = 1;
            for (int k = 1; k < SAMPLES && all; k++) {
                int found = 0;
                for (int j = 0; j < o[k].log.n && !found; j++)
                    found = !strcmp(o[0].log.line[i], o[k].log.line[j]);
                all = found;
            }
            if (all && !names_hidden(cn, o[0].log.line[i], strlen(o[0].log.line[i])))
                json_array_append_new(log, text_json(o[0].log.line[i]));
            else
                uncertain = 1;
        }
        json_object_set_new(p, "log", log);
        if (ok)
            json_object_set_new(p, "changes", changed_lines(before, o, SAMPLES, cn, &uncertain));
        json_t *scores = json_array();
        for (int q = 0; all_ranked && ok && q < foh_game_players(g); q++) {
            int same = o[0].rank[q] != rank[q];
            for (int k = 1; k < SAMPLES; k++)
                same = same && o[k].rank[q] == o[0].rank[q];
            if (same)
                json_array_append_new(scores, json_pack("{s:i, s:f, s:f}", "seat", q + 1, "from", rank[q], "to",
                                                        o[0].rank[q]));
        }
        json_object_set_new(p, "scores", scores);
        json_object_set_new(p, "uncertain", json_boolean(uncertain));
    }
    for (int k = 0; k < SAMPLES; k++)
        outcome_free(&o[k]);
    return p;
}

static json_t *id_json(const foh_action *a)
{
    int64_t id;
    char text[32];
    if (foh_action_id(a, &id) != FOH_OK)
        return json_null();
    snprintf(text, sizeof text, "%lld", (long long)id);
    return json_string(text);
}

/* The legal actions of the position with their previews, for the viewer. */
static json_t *legal_list(const serve_view_in *in)
{
    serve_preview_cache *c = in->preview;
    if (c && c->legal && c->version == in->version && c->viewer == in->viewer)
        return json_incref(c->legal);
    foh_game *g = in->g;
    foh_action *legal = NULL;
    int cap = 0;
    foh_error err;
    int n = foh_match_legal(g, &legal, &cap, &err);
    char *before = n > 0 ? observation(g, in->viewer) : NULL;
    double rank[FOH_MAX_PLAYERS];
    int ranked = ranking(g, rank), amount_kind = foh_game_amount_kind(g);
    card_names cn;
    card_names_of(in->cs, &cn); /* never foh_game_cardset: The Flow of History's alone */
    if (before)
        card_names_shown(&cn, before);
    json_t *out = json_array();
    for (int i = 0; out && before && i < n; i++) {
        char name[512];
        foh_game_describe_action(g, &legal[i], name, sizeof name);
        foh_action group = legal[i];
        if (group.kind == (foh_action_kind)amount_kind)
            group.tokens = 0;
        json_t *one = json_object();
        json_object_set_new(one, "id", id_json(&legal[i]));
        json_object_set_new(one, "name", text_json(name));
        json_object_set_new(one, "group", id_json(&group));
        json_object_set_new(one, "preview",
                            preview(g, in->viewer, &legal[i], before, rank, ranked, &cn, (uint64_t)in->version * 7919u));
        json_array_append_new(out, one);
    }
    free(before);
    free(legal);
    free(cn.name);
    free(cn.shown);
    if (n < 0) {
        json_decref(out);
        return json_pack("{s:s}", "error", err.msg);
    }
    if (c && out) {
        serve_preview_free(c);
        c->legal = json_incref(out);
        c->version = in->version;
        c->viewer = in->viewer;
    }
    return out;
}

/* ---- the view ---- */

static json_t *who_json(int who)
{
    return who >= 0 ? json_integer(who + 1) : json_string(who == SERVE_HOTSEAT ? "hotseat" : "spectator");
}

static json_t *scores_json(foh_game *g)
{
    json_t *all = json_array();
    for (int p = 0; all && p < foh_game_players(g); p++) {
        foh_score_line lines[32];
        foh_error err;
        int n = foh_game_score_lines(g, p, lines, 32, &err);
        json_t *one = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(one, json_pack("{s:o, s:f}", "label", text_json(lines[i].label), "value",
                                                 lines[i].value));
        if (n < 0)
            json_array_append_new(one, json_pack("{s:s, s:o}", "label", "error", "value", text_json(err.msg)));
        json_array_append_new(all, one);
    }
    return all;
}

static json_t *seats_json(const serve_view_in *in, int players)
{
    json_t *seats = json_array();
    for (int p = 0; seats && p < players; p++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", p + 1);
        json_array_append_new(seats, json_pack("{s:i, s:s, s:s, s:o, s:b, s:b}", "seat", p + 1, "name", name, "kind",
                                               in->seat[p].human ? "human" : "bot", "spec",
                                               text_json(in->seat[p].spec), "standin", in->seat[p].standin,
                                               "present", in->seat[p].present));
    }
    return seats;
}

json_t *serve_view(const serve_view_in *in)
{
    foh_game *g = in->g;
    int players = foh_game_players(g), over = foh_game_is_over(g);
    json_t *v = json_object(), *variants = json_array(), *log = json_array();
    if (!v || !variants || !log) {
        json_decref(v);
        json_decref(variants);
        json_decref(log);
        return NULL;
    }
    for (int i = 0; i < in->nvariants; i++)
        json_array_append_new(variants, text_json(in->variants[i]));
    for (int i = 0; i < in->log->n; i++)
        json_array_append_new(log, text_json(in->log->line[i]));
    if (in->log->failed)
        json_array_append_new(log, json_string("(some lines of the log were lost: out of memory)"));
    char *seen = observation(g, in->viewer);
    json_object_set_new(v, "table", text_json(in->table));
    json_object_set_new(v, "title", text_json(in->rs->title));
    json_object_set_new(v, "ruleset", text_json(in->rs->name));
    json_object_set_new(v, "cards", text_json(in->cards));
    json_object_set_new(v, "variants", variants);
    json_object_set_new(v, "players", json_integer(players));
    json_object_set_new(v, "you", who_json(in->who));
    json_object_set_new(v, "viewer", json_integer(in->viewer + 1));
    json_object_set_new(v, "hotseat", json_boolean(in->hotseat));
    json_object_set_new(v, "version", json_integer(in->version));
    json_object_set_new(v, "turn", json_integer(foh_game_turn(g) + 1));
    json_object_set_new(v, "to_act", json_integer(over ? 0 : foh_game_to_act(g) + 1));
    json_object_set_new(v, "over", json_boolean(over));
    json_object_set_new(v, "stopped", text_json(in->stopped));
    json_object_set_new(v, "seats", seats_json(in, players));
    json_object_set_new(v, "observation", text_json(seen ? seen : ""));
    json_object_set_new(v, "scores", scores_json(g));
    json_object_set_new(v, "log", log);
    free(seen);
    double results[FOH_MAX_PLAYERS];
    foh_error err;
    if (over && foh_game_results(g, results, &err) == FOH_OK) {
        json_t *r = json_array();
        for (int p = 0; p < players; p++)
            json_array_append_new(r, json_real(results[p]));
        json_object_set_new(v, "results", r);
    }
    const foh_choice *ch = foh_game_choice(g);
    if (ch && !over)
        json_object_set_new(v, "choice", json_pack("{s:i, s:o}", "seat", ch->player + 1, "prompt",
                                                   text_json(ch->prompt)));
    json_object_set_new(v, "decides", json_boolean(in->decides && !over));
    if (in->decides && !over)
        json_object_set_new(v, "legal", legal_list(in));
    if (in->replay_steps)
        json_object_set_new(v, "replay", json_pack("{s:i, s:i}", "step", in->version, "steps", in->replay_steps));
    return v;
}

json_t *serve_cards(const foh_cardset *cs)
{
    const foh_ruleset *rs = foh_cardset_ruleset(cs);
    json_t *cards = json_array();
    char name[256], text[4096];
    for (int c = 0; cards && rs->describe_card && rs->describe_card(cs, c, name, sizeof name, text, sizeof text); c++)
        json_array_append_new(cards, json_pack("{s:o, s:o}", "name", text_json(name), "text", text_json(text)));
    int need = rs->legend ? rs->legend(cs, NULL, 0) : 0;
    char *legend = malloc((size_t)need + 1);
    if (legend) {
        legend[0] = '\0';
        if (rs->legend)
            rs->legend(cs, legend, (size_t)need + 1);
    }
    json_t *out = json_pack("{s:o, s:o}", "cards", cards ? cards : json_array(), "legend", text_json(legend ? legend : ""));
    free(legend);
    return out;
}

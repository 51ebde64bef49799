/* compare_saved: foh compare A.json B.json, two saved reports of foh sim
 * (--json) compared figure by figure (issue 31). The games of two saved
 * reports are independent samples (nothing pairs them), so each
 * difference's interval combines the two reports' own intervals: the
 * standard error of each side is read back from its 95% interval. Every
 * estimate the two reports share is compared; '*' marks the differences
 * that survive a Benjamini-Hochberg correction over them; the cards are
 * ranked by their figure that moved most; each report's provenance says
 * what it was made from. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "sim/compare_saved.h"
#include "sim/sim_stats.h"

#define Z95 1.96

typedef struct {
    char name[160];
    char card[64];
    double a, b, sa, sb, diff, low, high, p;
    int significant;
} row;

typedef struct {
    row *r;
    int n, cap;
} rows;

/* An estimate {value, ci95_low, ci95_high}: its value and standard error.
 * 0 if absent; -1 if it is no estimate foh sim writes (a bound not
 * finite, a value outside its interval, a rate outside [0, 1]). */
static int estimate(const json_t *e, int rate, double *v, double *se)
{
    const json_t *x = json_object_get(e, "value"), *l = json_object_get(e, "ci95_low"),
                 *h = json_object_get(e, "ci95_high");
    if (!json_is_number(x) || !json_is_number(l) || !json_is_number(h))
        return 0;
    double lo = json_number_value(l), hi = json_number_value(h);
    *v = json_number_value(x);
    if (!isfinite(*v) || !isfinite(lo) || !isfinite(hi) || fabs(*v) > 1e9 || fabs(lo) > 1e9 || fabs(hi) > 1e9 ||
        lo > *v + 1e-9 || hi < *v - 1e-9 || (rate && (lo < -1e-9 || hi > 1 + 1e-9)))
        return -1;
    *se = (hi - lo) / (2 * Z95);
    return 1;
}

/* Add the figure NAME (card CARD or "") from estimates EA and EB (a rate
 * when RATE). 0 with *WHY when out of memory or an estimate is no report's. */
static int add_figure(rows *rs, const char *name, const char *card, int rate, const json_t *ea, const json_t *eb,
                      const char **why)
{
    double a, b, sa, sb;
    int ka = estimate(ea, rate, &a, &sa), kb = estimate(eb, rate, &b, &sb);
    if (ka < 0 || kb < 0) {
        *why = name;
        return 0;
    }
    if (!ka || !kb)
        return 1;
    double se = sqrt(sa * sa + sb * sb);
    if (se <= 0 || (rate && a == b && (a == 0 || a == 1)))
        return 1; /* no variation on either side (0% and 0%): nothing to test */
    if (strlen(name) >= sizeof rs->r[0].name || strlen(card) >= sizeof rs->r[0].card) {
        *why = "a card name or id longer than the reports of foh sim hold";
        return 0;
    }
    if (rs->n == rs->cap) {
        int cap = rs->cap ? 2 * rs->cap : 256;
        row *grown = realloc(rs->r, (size_t)cap * sizeof *grown);
        if (!grown)
            return 0;
        rs->r = grown;
        rs->cap = cap;
    }
    row *r = &rs->r[rs->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->card, sizeof r->card, "%s", card);
    r->a = a, r->b = b, r->sa = sa, r->sb = sb;
    r->diff = b - a;
    r->low = r->diff - Z95 * se;
    r->high = r->diff + Z95 * se;
    r->p = erfc(fabs(r->diff) / se / sqrt(2.0));
    return 1;
}

#define add(rs, name, card, ea, eb) add_figure(rs, name, card, is_rate(name), ea, eb, why)

/* Whether figure NAME is a rate or share (0..1). */
static int is_rate(const char *name)
{
    return strstr(name, "rate") || strstr(name, "share") || strstr(name, "fired");
}

/* The element of list L (in B) whose KEY equals that of X (in A). */
static const json_t *match(const json_t *l, const char *key, const json_t *x)
{
    const json_t *want = json_object_get(x, key), *y;
    size_t i;
    json_array_foreach(l, i, y) if (json_equal(json_object_get(y, key), want)) return y;
    return NULL;
}

/* Every estimate the two reports share. 0 with *WHY if out of memory or a
 * figure is no report's. */
static int collect(const json_t *A, const json_t *B, rows *rs, const char **why)
{
    static const char *const TOP[] = {"game_length_turns", "stalled_share", "score", "winner_score",
                                      "first_player_win_rate"};
    int ok = 1;
    for (size_t i = 0; ok && i < sizeof TOP / sizeof TOP[0]; i++)
        ok = add(rs, TOP[i], "", json_object_get(A, TOP[i]), json_object_get(B, TOP[i]));
    static const struct {
        const char *list, *key, *label;
    } LISTS[] = {{"seats_report", "seat", "win rate P"}, {"turn_order", "position", "win rate at position "}};
    for (size_t k = 0; ok && k < 2; k++) {
        const json_t *x;
        size_t i;
        json_array_foreach(json_object_get(A, LISTS[k].list), i, x) {
            char name[160];
            snprintf(name, sizeof name, "%s%lld", LISTS[k].label,
                     (long long)json_integer_value(json_object_get(x, LISTS[k].key)));
            const json_t *y = match(json_object_get(B, LISTS[k].list), LISTS[k].key, x);
            if (ok && y)
                ok = add(rs, name, "", json_object_get(x, "win_rate"), json_object_get(y, "win_rate"));
        }
    }
    const json_t *x;
    size_t i;
    json_array_foreach(json_object_get(A, "starting_cards"), i, x) {
        const json_t *y = match(json_object_get(B, "starting_cards"), "card", x);
        const char *id = json_string_value(json_object_get(x, "card")), *nm = json_string_value(json_object_get(x, "name"));
        char name[160];
        snprintf(name, sizeof name, "%s as starting card: win rate", nm ? nm : "?");
        if (ok && y && id)
            ok = add(rs, name, id, json_object_get(x, "win_rate"), json_object_get(y, "win_rate"));
    }
    static const char *const CARD[][2] = {{"owner_win_rate", "owners win rate"},
                                          {"non_owner_win_rate", "non-owners win rate"},
                                          {"effect_fired_share", "effect fired (games)"}};
    json_array_foreach(json_object_get(A, "cards"), i, x) {
        const json_t *y = match(json_object_get(B, "cards"), "card", x);
        const char *id = json_string_value(json_object_get(x, "card")), *nm = json_string_value(json_object_get(x, "name"));
        for (size_t k = 0; ok && y && id && k < 3; k++) {
            char name[160];
            snprintf(name, sizeof name, "%s %s", nm ? nm : "?", CARD[k][1]);
            ok = add(rs, name, id, json_object_get(x, CARD[k][0]), json_object_get(y, CARD[k][0]));
        }
    }
    return ok;
}

static json_t *load(const char *path)
{
    char *data;
    size_t len;
    foh_error err;
    if (foh_file_read(path, 256u << 20, "a report", &data, &len, &err) != FOH_OK) {
        cli_error("compare", "%s", err.msg);
        return NULL;
    }
    json_error_t je;
    json_t *j = json_loadb(data, len, 0, &je);
    free(data);
    if (!j) {
        cli_error("compare", "%s:%d: not JSON: %s", path, je.line, je.text);
        return NULL;
    }
    const char *why = NULL;
    if (!json_is_string(json_object_get(j, "format")) ||
        strcmp(json_string_value(json_object_get(j, "format")), "foh-sim-report/1"))
        why = "not a report of foh sim --json (format foh-sim-report/1)";
    else if (!json_is_integer(json_object_get(j, "games")) || json_integer_value(json_object_get(j, "games")) < 1 ||
             !json_is_integer(json_object_get(j, "players")) || !json_is_string(json_object_get(j, "seats")) ||
             !json_is_array(json_object_get(j, "cards")) || !json_is_array(json_object_get(j, "seats_report")))
        why = "a report of foh sim lacks games, players, seats, seats_report or cards: the file was edited or damaged";
    else if (json_array_size(json_object_get(j, "cards")) > FOH_MAX_CARDS ||
             json_array_size(json_object_get(j, "seats_report")) > FOH_MAX_PLAYERS ||
             json_array_size(json_object_get(j, "starting_cards")) > FOH_MAX_CARDS ||
             json_array_size(json_object_get(j, "turn_order")) > FOH_MAX_PLAYERS)
        why = "more cards or seats than a card set or game has: the file was edited or damaged";
    if (why) {
        cli_error("compare", "%s: %s", path, why);
        json_decref(j);
        return NULL;
    }
    return j;
}

static void print_side(const char *k, const char *path, const json_t *r)
{
    const json_t *p = json_object_get(r, "provenance");
    printf("%s: ", k);
    cli_puts(stdout, path);
    printf(": %lld games, %lld players, seats ", (long long)json_integer_value(json_object_get(r, "games")),
           (long long)json_integer_value(json_object_get(r, "players")));
    cli_puts(stdout, json_string_value(json_object_get(r, "seats")) ? json_string_value(json_object_get(r, "seats")) : "?");
    printf(", seed %lld; ", (long long)json_integer_value(json_object_get(r, "seed")));
    if (json_is_object(p)) {
        printf("content hash ");
        cli_puts(stdout, json_string_value(json_object_get(p, "content_hash")) ? json_string_value(json_object_get(p, "content_hash")) : "?");
        printf("%s\n", json_is_true(json_object_get(p, "base_set")) ? " (the base set as shipped)" : "");
    } else
        printf("no provenance recorded (a report from before issue 31)\n");
}

int compare_saved(const char *path_a, const char *path_b, const char *json_path)
{
    json_t *A = load(path_a), *B = A ? load(path_b) : NULL;
    if (!A || !B) {
        json_decref(A);
        return CLI_DATA;
    }
    rows rs = {NULL, 0, 0};
    const char *why = NULL;
    int status = collect(A, B, &rs, &why) ? CLI_OK : CLI_DATA;
    double *p = malloc((size_t)(rs.n > 0 ? rs.n : 1) * sizeof *p);
    int *mark = malloc((size_t)(rs.n > 0 ? rs.n : 1) * sizeof *mark), marked = 0;
    if (status != CLI_OK && why) {
        char safe[400];
        cli_error("compare", "%s or %s: the figure '%s' is no estimate foh sim writes (a bound not finite, a value "
                             "outside its interval, a rate outside 0..1): the file was edited or damaged",
                  path_a, path_b, cli_safe(why, safe, sizeof safe));
    } else if (status != CLI_OK || !p || !mark) {
        cli_error("compare", "out of memory");
        status = CLI_DATA;
    } else {
        for (int i = 0; i < rs.n; i++)
            p[i] = rs.r[i].p;
        marked = sim_bh(p, rs.n, 0.05, mark);
        for (int i = 0; i < rs.n; i++)
            rs.r[i].significant = marked >= 0 && mark[i];
        print_side("A", path_a, A);
        print_side("B", path_b, B);
        const json_t *pa = json_object_get(A, "provenance"), *pb = json_object_get(B, "provenance");
        if (json_is_object(pa) && json_is_object(pb))
            printf("%s\n", json_equal(json_object_get(pa, "content_hash"), json_object_get(pb, "content_hash"))
                               ? "the same card contents (content hash) on both sides"
                               : "the card contents differ (content hashes): see each report's provenance");
        printf("saved reports: the two sides' games are independent samples, not paired; intervals combine the "
               "reports' own\n");
        printf("%-44s %10s %10s %9s %18s %8s\n", "figure", "A", "B", "B - A", "95% CI", "p");
        for (int i = 0; i < rs.n; i++) {
            const row *r = &rs.r[i];
            int pct = is_rate(r->name);
            double k = pct ? 100 : 1;
            char safe[sizeof r->name * 4]; /* a card's name from the file: shown escaped */
            printf("%-44.44s %9.2f%s %9.2f%s %+9.2f [%+7.2f, %+7.2f] %8.4f%s\n", cli_safe(r->name, safe, sizeof safe),
                   k * r->a, pct ? "%" : " ",
                   k * r->b, pct ? "%" : " ", k * r->diff, k * r->low, k * r->high, r->p, r->significant ? "  *" : "");
        }
        printf("%d figures tested; %d differ at a false-discovery rate of 5%% (Benjamini-Hochberg)\n", rs.n, marked);
    }
    if (status == CLI_OK && json_path) {
        json_t *figs = json_array();
        for (int i = 0; i < rs.n; i++) {
            const row *r = &rs.r[i];
            json_array_append_new(figs, json_pack("{s:s,s:s,s:f,s:f,s:f,s:f,s:f,s:f,s:b}", "name", r->name, "card",
                                                  r->card, "a", r->a, "b", r->b, "diff", r->diff, "ci95_low", r->low,
                                                  "ci95_high", r->high, "p", r->p, "significant", r->significant));
        }
        json_t *root = json_pack("{s:s,s:s,s:s,s:O*,s:O*,s:i,s:o}", "format", "foh-compare-saved/1", "a", path_a, "b",
                                 path_b, "a_provenance", json_object_get(A, "provenance"), "b_provenance",
                                 json_object_get(B, "provenance"), "differ", marked, "figures", figs);
        if (!root || !cli_write_json(root, json_path, JSON_INDENT(2) | JSON_REAL_PRECISION(6))) {
            cli_error("compare", "cannot write %s: %s", json_path, strerror(errno));
            status = CLI_DATA;
        }
        json_decref(root);
    }
    free(p);
    free(mark);
    free(rs.r);
    json_decref(A);
    json_decref(B);
    return status;
}

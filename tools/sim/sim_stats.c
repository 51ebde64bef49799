/* sim_stats: see sim_stats.h. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "foh/yaml.h"
#include "sim/shard_provenance.h"
#include "sim/sim_stats.h"

#define Z95 1.96

void sim_stats_add(sim_stats *s, const foh_cardset *cs, const game_result *r)
{
    int n = r->players, nwin = 0, ncards = foh_cardset_card_count(cs);
    for (int p = 0; p < n; p++)
        nwin += r->score[p].winner;
    int unit = nwin ? WIN_UNITS / nwin : 0;
    s->games++;
    s->stalled += r->stalled;
    s->decisions += r->decisions;
    s->turns_sum += r->turns;
    s->turns_sq += (long)r->turns * r->turns;
    s->snipes += r->snipes;
    s->substituted += r->substituted;
    for (int t = 0; t < MAX_TIMINGS; t++)
        s->fired[t] += r->fired[t];
    for (int p = 0; p < n; p++) {
        const foh_score *sc = &r->score[p];
        int won = sc->winner ? unit : 0, end = 0;
        for (int k = 0; k < sc->n_end; k++)
            end += sc->end[k].full_vp;
        s->win_units[p] += won;
        s->score_sum[p] += sc->total;
        s->score_sq[p] += (long)sc->total * sc->total;
        s->all_sum += sc->total;
        s->all_sq += (long)sc->total * sc->total;
        if (sc->winner) {
            s->winner_sum += sc->total;
            s->winner_sq += (long)sc->total * sc->total;
            s->winner_n++;
        }
        s->culture_vp += sc->culture_vp;
        s->other_vp += sc->other_vp;
        s->end_vp += end;
        s->hist[sc->total < 0 ? 0 : sc->total >= SCORE_BINS ? SCORE_BINS - 1 : sc->total]++;
        s->total_player_games++;
        s->total_win_units += won;
        if (r->start_card[p] >= 0) {
            s->start_games[r->start_card[p]]++;
            s->start_win_units[r->start_card[p]] += won;
        }
    }
    int first = r->first >= 0 && r->first < n ? r->first : 0;
    s->first_win_units += r->score[first].winner ? unit : 0;
    for (int k = 0; k < n; k++) {
        int p = (first + k) % n;
        s->order_win_units[k] += r->score[p].winner ? unit : 0;
        s->order_score_sum[k] += r->score[p].total;
    }
    s->len_hist[r->turns < 0 ? 0 : r->turns / LEN_BIN >= LEN_BINS ? LEN_BINS - 1 : r->turns / LEN_BIN]++;
    for (int k = 0; k < r->nchoices; k++) {
        int row = r->choice[k].row, pick = r->choice[k].pick;
        s->choices[row]++;
        s->choice_options[row] += r->choice[k].options;
        s->picks[row][pick]++;
    }
    s->choices_lost += r->choices_lost;
    for (int c = 0; c < ncards; c++) {
        s->fired_games[c] += r->fired_card[c];
        s->activations[c] += r->activations[c];
        if (r->gain_turn[c] >= 0) {
            int b = r->gain_turn[c] / GAIN_BIN;
            s->gain_turn_sum[c] += r->gain_turn[c];
            s->gain_turn_n[c]++;
            s->gain_turn_hist[c][b >= GAIN_BINS ? GAIN_BINS - 1 : b]++;
        }
        if (r->gained_by[c] >= 0)
            s->gained[c][r->gained_by[c]]++;
        if (r->price[c] >= 0) {
            s->price_sum[c] += r->price[c];
            s->price_sq[c] += (long)r->price[c] * r->price[c];
            s->price_n[c]++;
        }
        if (r->owner[c] >= 0) {
            s->owned_n[c]++;
            s->owned_win_units[c] += r->score[r->owner[c]].winner ? unit : 0;
        }
    }
}

static sim_shard_layout rows_of(int ncards);
static size_t layout_size(const sim_shard_layout *L);
static void layout_map(const sim_shard_layout *L, size_t *map);

void sim_stats_merge(sim_stats *into, const sim_stats *from, int ncards)
{
    /* Every field is a long: add them, those of the card set's NCARDS
     * cards (the rows of others are 0, and neither read nor written, so
     * that their pages stay untouched), or all if out of memory. */
    long *a = (long *)into;
    const long *b = (const long *)from;
    sim_shard_layout L = rows_of(ncards);
    size_t n = layout_size(&L), *map = malloc(n * sizeof *map);
    if (!map) {
        for (size_t i = 0; i < sizeof *into / sizeof(long); i++)
            a[i] += b[i];
        return;
    }
    layout_map(&L, map);
    for (size_t i = 0; i < n; i++)
        a[map[i]] += b[map[i]];
    free(map);
}

typedef struct {
    double value, low, high;
} estimate;

static estimate mean_ci(long n, long sum, long sq)
{
    estimate e = {0, 0, 0};
    if (n <= 0)
        return e;
    e.value = (double)sum / n;
    double var = n > 1 ? ((double)sq - n * e.value * e.value) / (n - 1) : 0;
    double half = n > 1 && var > 0 ? Z95 * sqrt(var / n) : 0;
    e.low = e.value - half;
    e.high = e.value + half;
    return e;
}

static double sd_of(long n, long sum, long sq)
{
    if (n < 2)
        return 0;
    double m = (double)sum / n, var = ((double)sq - n * m * m) / (n - 1);
    return var > 0 ? sqrt(var) : 0;
}

void sim_wilson(double p, double n, double *lo, double *hi)
{
    double z2 = Z95 * Z95, centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = Z95 * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    /* The Wilson bounds lie within [0, 1]; rounding may step outside by 1e-17
     * (printed "-0.0%"): clamp. */
    *lo = centre - half < 0 ? 0 : centre - half;
    *hi = centre + half > 1 ? 1 : centre + half;
}

/* Wilson interval of a rate: WINS (in win units) out of N tries. */
static estimate rate_ci(long n, long win_units)
{
    estimate e = {0, 0, 0};
    if (n <= 0)
        return e;
    double p = (double)win_units / WIN_UNITS / n;
    e.value = p;
    sim_wilson(p, (double)n, &e.low, &e.high);
    if (e.low > p)
        e.low = p;
    if (e.high < p)
        e.high = p;
    return e;
}

const char *sim_card_name(const foh_cardset *cs, int c)
{
    foh_card_info ci;
    return foh_cardset_card(cs, c, &ci) == FOH_OK ? ci.name : "?";
}

static const char *card_age(const foh_cardset *cs, int c)
{
    foh_card_info ci;
    return foh_cardset_card(cs, c, &ci) == FOH_OK ? ci.age : "?";
}

const char *sim_card_id(const foh_cardset *cs, int c)
{
    foh_card_info ci;
    return foh_cardset_card(cs, c, &ci) == FOH_OK ? ci.id : "?";
}

/* Timing names of the card set, in first-seen card order (for `fired`). */
static int timing_names(const foh_cardset *cs, const char **names)
{
    int n = 0;
    for (int c = 0; c < foh_cardset_card_count(cs); c++) {
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen |= !strcmp(names[k], ci.timing);
        if (!seen && n < MAX_TIMINGS)
            names[n++] = ci.timing;
    }
    return n;
}

int sim_timing_index(const foh_cardset *cs, const char *timing)
{
    const char *names[MAX_TIMINGS];
    int n = timing_names(cs, names);
    for (int k = 0; k < n; k++)
        if (!strcmp(names[k], timing))
            return k;
    return 0;
}


/* ---- Additions of the report work: turn order, lengths, effects, choices ---- */

const char *sim_ordinal(int k)
{
    static const char *const names[] = {"1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"};
    _Static_assert(sizeof names / sizeof names[0] >= FOH_MAX_PLAYERS, "a name for every position");
    return k >= 0 && k < (int)(sizeof names / sizeof names[0]) ? names[k] : "?";
}

/* The Q-quantile (0..1) of a histogram of N bins of WIDTH (the last bin
 * open-ended), interpolated linearly within its bin; -1 if empty. */
static double hist_quantile(const long *h, int n, int width, double q)
{
    long total = 0;
    for (int b = 0; b < n; b++)
        total += h[b];
    if (!total)
        return -1;
    double want = q * total, seen = 0;
    for (int b = 0; b < n; b++) {
        if (h[b] && seen + h[b] >= want)
            return b * width + width * (want - seen) / h[b];
        seen += h[b];
    }
    return (double)n * width;
}

/* The label of pick kind K (sim_stats.h PICK_*). */
static void pick_label(const foh_cardset *cs, int k, char *buf, size_t len)
{
    static const char *const seat[] = {"self",             "next player",      "2nd player after", "3rd player after",
                                       "4th player after", "5th player after", "6th player after", "7th player after"};
    _Static_assert(sizeof seat / sizeof seat[0] >= FOH_MAX_PLAYERS, "a label for every seat offset");
    if (k < FOH_MAX_CARDS)
        snprintf(buf, len, "%s", sim_card_name(cs, k));
    else if (k < PICK_OTHER)
        snprintf(buf, len, "%s", seat[k - PICK_PLAYER]);
    else
        snprintf(buf, len, "other labels");
}

/* The most picked answer of choice ROW not yet DONE (ties: by kind, a
 * stable order), marked done; -1 when none is left. */
static int next_pick(const sim_stats *s, int row, int done[PICK_KINDS])
{
    int best = -1;
    for (int k = 0; k < PICK_KINDS; k++)
        if (!done[k] && s->picks[row][k] && (best < 0 || s->picks[row][k] > s->picks[row][best]))
            best = k;
    if (best >= 0)
        done[best] = 1;
    return best;
}

static void choice_row_name(const foh_cardset *cs, int row, char *buf, size_t len)
{
    snprintf(buf, len, "%s", row < FOH_MAX_CARDS ? sim_card_name(cs, row) : "(variant rules)");
}

/* Print the added sections (after the original report, so its lines stay). */
static void print_additions(FILE *out, const sim_stats *s, const sim_labels *labels, const foh_cardset *cs,
                            int players)
{
    long g = s->games;
    estimate f = rate_ci(g, s->first_win_units);
    fprintf(out, "\nturn order: the first player (who took the first turn) won %.1f%% [95%% CI %.1f-%.1f%%] "
                 "(parity %.1f%%)\n", 100 * f.value, 100 * f.low, 100 * f.high, 100.0 / players);
    fprintf(out, "%-8s %22s %8s\n", "to act", "win rate [95% CI]", "score");
    for (int k = 0; k < players; k++) {
        estimate r = rate_ci(g, s->order_win_units[k]);
        fprintf(out, "%-8s %7.1f%% [%4.1f-%4.1f%%] %8.2f\n", sim_ordinal(k), 100 * r.value, 100 * r.low, 100 * r.high,
                (double)s->order_score_sum[k] / g);
    }
    fprintf(out, "\ngame length distribution (turns, share of games):");
    for (int b = 0; b < LEN_BINS; b++)
        if (s->len_hist[b]) {
            if (b == LEN_BINS - 1)
                fprintf(out, " %d+: %.1f%%", b * LEN_BIN, 100.0 * s->len_hist[b] / g);
            else
                fprintf(out, " %d-%d: %.1f%%", b * LEN_BIN, b * LEN_BIN + LEN_BIN - 1, 100.0 * s->len_hist[b] / g);
        }
    fprintf(out, "\nlength quartiles: %.0f / %.0f / %.0f turns (interpolated within %d-turn bins)\n",
            hist_quantile(s->len_hist, LEN_BINS, LEN_BIN, 0.25), hist_quantile(s->len_hist, LEN_BINS, LEN_BIN, 0.5),
            hist_quantile(s->len_hist, LEN_BINS, LEN_BIN, 0.75), LEN_BIN);
    fprintf(out, "\ncard effects and acquisition turn (fired: share of games in which its Instant/Attack effect\n"
                 "fired; activations: Turn Action activations per game; turn gained: the turn number (1 = the\n"
                 "game's first turn) at which it was gained, mean and quartiles)\n");
    fprintf(out, "%-24s %7s %7s %8s %18s\n", "card", "fired", "activ", "gained", "turn mean [q1 q2 q3]");
    for (int c = 0; c < foh_cardset_card_count(cs); c++) {
        if (!s->fired_games[c] && !s->activations[c] && !s->gain_turn_n[c])
            continue;
        fprintf(out, "%-24s %6.1f%% %7.2f %8ld", sim_card_name(cs, c), 100.0 * s->fired_games[c] / g,
                (double)s->activations[c] / g, s->gain_turn_n[c]);
        if (s->gain_turn_n[c])
            fprintf(out, " %6.1f [%.0f %.0f %.0f]\n", (double)s->gain_turn_sum[c] / s->gain_turn_n[c],
                    hist_quantile(s->gain_turn_hist[c], GAIN_BINS, GAIN_BIN, 0.25),
                    hist_quantile(s->gain_turn_hist[c], GAIN_BINS, GAIN_BIN, 0.5),
                    hist_quantile(s->gain_turn_hist[c], GAIN_BINS, GAIN_BIN, 0.75));
        else
            fprintf(out, " %18s\n", "-");
    }
    fprintf(out, "\nchoices inside effects (answers per game; mean options offered; what was picked, share of\n"
                 "the answers, the 8 most picked; a player as seen from the chooser in turn order):\n");
    int any = 0;
    for (int row = 0; row < CHOICE_ROWS; row++) {
        if (!s->choices[row])
            continue;
        char name[96];
        choice_row_name(cs, row, name, sizeof name);
        fprintf(out, "%s: %.2f per game, %.1f options;", name, (double)s->choices[row] / g,
                (double)s->choice_options[row] / s->choices[row]);
        /* Most picked first, then by kind: a stable order; the text
         * answers by their labels (those not known: "other labels"). */
        int done[PICK_KINDS] = {0};
        for (int shown = 0; shown < 8;) {
            int best = next_pick(s, row, done);
            if (best < 0)
                break;
            if (best == PICK_OTHER) {
                const sim_label *top[8];
                int n = sim_labels_of_row(labels, row, top, 8 - shown);
                long named = 0;
                for (int i = 0; i < n; i++, shown++) {
                    fprintf(out, "%s ", shown ? "," : "");
                    cli_puts(out, top[i]->label); /* a script's text: shown escaped */
                    fprintf(out, " %.1f%%", 100.0 * top[i]->count / s->choices[row]);
                    named += top[i]->count;
                }
                if (s->picks[row][PICK_OTHER] > named && shown < 8)
                    fprintf(out, "%s other labels %.1f%%", shown++ ? "," : "",
                            100.0 * (s->picks[row][PICK_OTHER] - named) / s->choices[row]);
                continue;
            }
            char label[96];
            pick_label(cs, best, label, sizeof label);
            fprintf(out, "%s %s %.1f%%", shown ? "," : "", label, 100.0 * s->picks[row][best] / s->choices[row]);
            shown++;
        }
        fprintf(out, "\n");
        any = 1;
    }
    if (!any)
        fprintf(out, "(none)\n");
    if (s->choices_lost)
        fprintf(out, "(%ld answers not counted: more than %d in one game)\n", s->choices_lost, MAX_GAME_CHOICES);
}

/* Scalars of map NODE (nested maps flattened to dotted keys) into OBJ. */
static void yaml_flatten(json_t *obj, const foh_yaml_node *node, const char *prefix)
{
    for (size_t i = 0; node && node->kind == FOH_YAML_MAP && i < node->n; i++) {
        char key[256];
        snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "", node->keys[i]);
        const foh_yaml_node *v = node->items[i];
        if (v->kind == FOH_YAML_SCALAR)
            json_object_set_new(obj, key, json_string(v->text));
        else if (v->kind == FOH_YAML_MAP)
            yaml_flatten(obj, v, key);
        else {
            /* A list: its scalars joined. */
            char text[512] = "";
            for (size_t k = 0; k < v->n; k++)
                if (v->items[k]->kind == FOH_YAML_SCALAR)
                    snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", k ? ", " : "",
                             v->items[k]->text);
            json_object_set_new(obj, key, json_string(text));
        }
    }
}

json_t *sim_variants_json(const foh_cardset *cs)
{
    json_t *arr = json_array();
    for (int i = 0; i < foh_cardset_source_count(cs); i++) {
        const char *label = foh_cardset_source(cs, i, NULL), *path = foh_cardset_source_path(cs, i);
        if (!label || strncmp(label, "variant ", 8) || !path)
            continue;
        json_t *v = json_object(), *set = json_object(), *params = json_object(), *cards = json_array();
        json_object_set_new(v, "name", json_string(label + 8));
        char err[300];
        foh_yaml_node *root = foh_yaml_load(path, err, sizeof err);
        const foh_yaml_node *desc = foh_yaml_get(root, "description");
        json_object_set_new(v, "description",
                            json_string(desc && desc->kind == FOH_YAML_SCALAR ? desc->text : ""));
        yaml_flatten(set, foh_yaml_get(root, "set"), "");
        yaml_flatten(params, foh_yaml_get(root, "params"), "");
        const foh_yaml_node *cn = foh_yaml_get(root, "cards");
        for (size_t k = 0; cn && cn->kind == FOH_YAML_MAP && k < cn->n; k++) {
            const foh_yaml_node *part = cn->items[k];
            for (size_t j = 0; part && part->kind == FOH_YAML_MAP && j < part->n; j++) {
                char what[200];
                snprintf(what, sizeof what, "%s %s", cn->keys[k], part->keys[j]);
                json_array_append_new(cards, json_string(what));
            }
        }
        json_object_set_new(v, "set", set);
        json_object_set_new(v, "params", params);
        json_object_set_new(v, "cards", cards);
        foh_yaml_free(root);
        json_array_append_new(arr, v);
    }
    return arr;
}

void sim_print_variants(FILE *out, const foh_cardset *cs)
{
    json_t *arr = sim_variants_json(cs);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v)
    {
        fprintf(out, "variant %s: %s", json_string_value(json_object_get(v, "name")),
                json_string_value(json_object_get(v, "description")));
        static const char *const parts[] = {"set", "params"};
        for (int k = 0; k < 2; k++) {
            const char *key;
            json_t *val;
            int first = 1;
            json_object_foreach(json_object_get(v, parts[k]), key, val)
            {
                fprintf(out, "%s%s=%s", first ? (k ? "; params " : "; set ") : ", ", key, json_string_value(val));
                first = 0;
            }
        }
        size_t nc = json_array_size(json_object_get(v, "cards"));
        if (nc)
            fprintf(out, "; %zu card change%s", nc, nc == 1 ? "" : "s");
        fprintf(out, "\n");
    }
    json_decref(arr);
}

void sim_stats_print(FILE *out, const sim_stats *s, const sim_labels *labels, const foh_cardset *cs, int players,
                     const char *seats)
{
    long g = s->games;
    if (s->skipped)
        fprintf(out, "skipped: %ld game(s) stopped by an error (--on-error skip); the report leaves them out\n",
                s->skipped);
    if (!g)
        return;
    estimate len = mean_ci(g, s->turns_sum, s->turns_sq);
    estimate all = mean_ci(s->total_player_games, s->all_sum, s->all_sq);
    estimate win = mean_ci(s->winner_n, s->winner_sum, s->winner_sq);
    fprintf(out, "game length: %.2f turns [95%% CI %.2f-%.2f], sd %.2f\n", len.value, len.low, len.high,
            sd_of(g, s->turns_sum, s->turns_sq));
    estimate stall = rate_ci(g, s->stalled * WIN_UNITS);
    fprintf(out, "stalled: %ld of %ld games (%.2f%% [95%% CI %.2f-%.2f%%]) reached the turn limit (engine ruling E1) "
                 "and were scored as they stood\n",
            s->stalled, g, 100 * stall.value, 100 * stall.low, 100 * stall.high);
    fprintf(out, "score: mean %.2f [%.2f-%.2f], sd %.2f; winner's score: mean %.2f [%.2f-%.2f], sd %.2f\n",
            all.value, all.low, all.high, sd_of(s->total_player_games, s->all_sum, s->all_sq), win.value, win.low,
            win.high, sd_of(s->winner_n, s->winner_sum, s->winner_sq));
    double pg = (double)s->total_player_games;
    fprintf(out, "VP per player: %.2f Culture + %.2f other icons + %.2f end-game effects\n", s->culture_vp / pg,
            s->other_vp / pg, s->end_vp / pg);
    fprintf(out, "per game: %.2f snipes, %.2f tokens substituted for an empty Reserve, %.1f decisions\n",
            (double)s->snipes / g, (double)s->substituted / g, (double)s->decisions / g);
    const char *tn[MAX_TIMINGS];
    int nt = timing_names(cs, tn);
    fprintf(out, "on-gain effects per game:");
    for (int t = 0; t < nt; t++)
        if (s->fired[t])
            fprintf(out, " %s %.2f", tn[t], (double)s->fired[t] / g);
    fprintf(out, "\n\n%-6s %-12s %22s %8s %8s\n", "seat", "player", "win rate [95% CI]", "score", "sd");
    char names[FOH_MAX_PLAYERS][64];
    for (int p = 0, k = 0; p < players; p++) {
        size_t len2 = strcspn(seats + k, ",");
        char spec[64];
        snprintf(spec, sizeof spec, "%.*s", (int)len2, seats + k);
        cli_escape(spec, names[p], sizeof names[p]); /* from a shard with foh merge */
        if (seats[k + (int)len2] == ',')
            k += (int)len2 + 1;
    }
    for (int p = 0; p < players; p++) {
        estimate r = rate_ci(g, s->win_units[p]);
        fprintf(out, "P%-5d %-12s %7.1f%% [%4.1f-%4.1f%%] %8.2f %8.2f\n", p + 1, names[p], 100 * r.value, 100 * r.low,
                100 * r.high, (double)s->score_sum[p] / g, sd_of(g, s->score_sum[p], s->score_sq[p]));
    }
    fprintf(out, "\n%-26s %7s %22s\n", "starting card", "games", "win rate [95% CI]");
    for (int c = 0; c < foh_cardset_card_count(cs); c++)
        if (s->start_games[c]) {
            estimate r = rate_ci(s->start_games[c], s->start_win_units[c]);
            fprintf(out, "%-26s %7ld %7.1f%% [%4.1f-%4.1f%%]\n", sim_card_name(cs, c), s->start_games[c], 100 * r.value,
                    100 * r.low, 100 * r.high);
        }
    estimate base = rate_ci(s->total_player_games, s->total_win_units);
    fprintf(out, "\nper card (per game: how often acquired by Complete / Snipe / effect; mean price paid;\n"
                 "win rate of the players owning it at the end [95%% CI] vs the others; base rate %.1f%%)\n",
            100 * base.value);
    fprintf(out, "%-24s %6s %6s %6s %6s %22s %7s\n", "card", "compl", "snipe", "effect", "price", "owners win",
            "others");
    for (int c = 0; c < foh_cardset_card_count(cs); c++) {
        long any = s->gained[c][0] + s->gained[c][1] + s->gained[c][2];
        if (!any && !s->owned_n[c])
            continue;
        estimate o = rate_ci(s->owned_n[c], s->owned_win_units[c]);
        estimate rest = rate_ci(s->total_player_games - s->owned_n[c], s->total_win_units - s->owned_win_units[c]);
        char owners[40] = "                     -";
        if (s->owned_n[c])
            snprintf(owners, sizeof owners, "%7.1f%% [%4.1f-%4.1f%%]", 100 * o.value, 100 * o.low, 100 * o.high);
        fprintf(out, "%-24s %6.2f %6.2f %6.2f %6.2f %s %6.1f%%\n", sim_card_name(cs, c), (double)s->gained[c][0] / g,
                (double)s->gained[c][1] / g, (double)s->gained[c][2] / g,
                s->price_n[c] ? (double)s->price_sum[c] / s->price_n[c] : 0.0, owners, 100 * rest.value);
    }
    fprintf(out, "\nscore distribution (players):");
    for (int b = 0; b < SCORE_BINS; b += 10) {
        long n = 0;
        for (int k = b; k < b + 10 && k < SCORE_BINS; k++)
            n += s->hist[k];
        /* The last bin holds every score from SCORE_BINS - 1 up. */
        if (n && b + 10 >= SCORE_BINS)
            fprintf(out, " %d+: %.1f%%", b, 100.0 * n / pg);
        else if (n)
            fprintf(out, " %d-%d: %.1f%%", b, b + 9, 100.0 * n / pg);
    }
    fprintf(out, "\n");
    print_additions(out, s, labels, cs, players);
}

static json_t *estimate_json(estimate e)
{
    return json_pack("{s:f,s:f,s:f}", "value", e.value, "ci95_low", e.low, "ci95_high", e.high);
}

static json_t *quartiles_json(const long *h, int n, int width)
{
    double q[3];
    for (int k = 0; k < 3; k++)
        q[k] = hist_quantile(h, n, width, 0.25 * (k + 1));
    if (q[0] < 0)
        return json_null();
    return json_pack("{s:f,s:f,s:f}", "q1", q[0], "median", q[1], "q3", q[2]);
}

/* Histogram H of N bins of WIDTH as {bin, counts} with the trailing empty bins left out. */
static json_t *hist_json(const long *h, int n, int width)
{
    int last = -1;
    for (int b = 0; b < n; b++)
        if (h[b])
            last = b;
    json_t *counts = json_array();
    for (int b = 0; b <= last; b++)
        json_array_append_new(counts, json_integer(h[b]));
    return json_pack("{s:i,s:i,s:o}", "bin", width, "open_from", (n - 1) * width, "counts", counts);
}

#define SIM_TEXT_SHOWN 32 /* text answers of a choice row the JSON names (the rest: "other") */
static json_t *choices_json(const sim_stats *s, const sim_labels *labels, const foh_cardset *cs, int row)
{
    if (!s->choices[row])
        return json_null();
    json_t *picks = json_array();
    int done[PICK_KINDS] = {0};
    for (int best; (best = next_pick(s, row, done)) >= 0;) {
        long named = 0;
        if (best == PICK_OTHER) { /* the text answers by label, then those not known */
            const sim_label *top[SIM_TEXT_SHOWN];
            int n = sim_labels_of_row(labels, row, top, SIM_TEXT_SHOWN);
            for (int i = 0; i < n; i++) {
                named += top[i]->count;
                json_t *label = json_string(top[i]->label);
                if (!label) /* not UTF-8: the escaped form */
                    continue;
                json_array_append_new(picks, json_pack("{s:o,s:s,s:I,s:o}", "label", label, "kind", "text",
                                                       "count", (json_int_t)top[i]->count, "share",
                                                       estimate_json(rate_ci(s->choices[row],
                                                                             top[i]->count * WIN_UNITS))));
            }
            if (s->picks[row][PICK_OTHER] <= named)
                continue;
        }
        char label[96];
        pick_label(cs, best, label, sizeof label);
        long count = s->picks[row][best] - named;
        json_t *pk = json_pack("{s:s,s:s,s:I,s:o}", "label", label, "kind",
                               best < FOH_MAX_CARDS ? "card" : best < PICK_OTHER ? "player" : "other", "count",
                               (json_int_t)count, "share", estimate_json(rate_ci(s->choices[row], count * WIN_UNITS)));
        if (best < FOH_MAX_CARDS)
            json_object_set_new(pk, "card", json_string(sim_card_id(cs, best)));
        else if (best < PICK_OTHER)
            json_object_set_new(pk, "seat_offset", json_integer(best - PICK_PLAYER));
        json_array_append_new(picks, pk);
    }
    return json_pack("{s:I,s:f,s:f,s:o}", "answers", (json_int_t)s->choices[row], "per_game",
                     s->games ? (double)s->choices[row] / s->games : 0, "mean_options",
                     (double)s->choice_options[row] / s->choices[row], "picks", picks);
}

static void add_card_json(json_t *card, const sim_stats *s, const sim_labels *labels, const foh_cardset *cs, int c)
{
    long g = s->games;
    json_object_set_new(card, "effect_fired_share",
                        estimate_json(rate_ci(g, s->fired_games[c] * WIN_UNITS)));
    json_object_set_new(card, "activations_per_game", json_real(g ? (double)s->activations[c] / g : 0));
    json_object_set_new(card, "gained", json_integer(s->gain_turn_n[c]));
    json_object_set_new(card, "mean_price_or_null",
                        s->price_n[c] ? json_real((double)s->price_sum[c] / s->price_n[c]) : json_null());
    json_t *turn = json_object();
    json_object_set_new(turn, "mean", s->gain_turn_n[c] ? json_real((double)s->gain_turn_sum[c] / s->gain_turn_n[c])
                                                        : json_null());
    json_object_set_new(turn, "quartiles", quartiles_json(s->gain_turn_hist[c], GAIN_BINS, GAIN_BIN));
    json_object_set_new(turn, "histogram", hist_json(s->gain_turn_hist[c], GAIN_BINS, GAIN_BIN));
    json_object_set_new(card, "gain_turn", turn);
    json_object_set_new(card, "choices", choices_json(s, labels, cs, c));
}

static void add_report_json(json_t *root, const sim_stats *s, const sim_labels *labels, const foh_cardset *cs,
                            int players)
{
    long g = s->games;
    json_object_set_new(root, "variant_details", sim_variants_json(cs));
    json_object_set_new(root, "first_player_win_rate", estimate_json(rate_ci(g, s->first_win_units)));
    json_t *order = json_array();
    for (int k = 0; k < players; k++)
        json_array_append_new(order, json_pack("{s:i,s:s,s:o,s:f}", "position", k + 1, "name", sim_ordinal(k),
                                               "win_rate", estimate_json(rate_ci(g, s->order_win_units[k])),
                                               "mean_score", g ? (double)s->order_score_sum[k] / g : 0));
    json_object_set_new(root, "turn_order", order);
    json_t *len = hist_json(s->len_hist, LEN_BINS, LEN_BIN);
    json_object_set_new(len, "quartiles", quartiles_json(s->len_hist, LEN_BINS, LEN_BIN));
    json_object_set_new(root, "game_length_histogram", len);
    json_object_set_new(root, "variant_rule_choices", choices_json(s, labels, cs, FOH_MAX_CARDS));
    json_object_set_new(root, "choices_not_counted", json_integer(s->choices_lost));
}

json_t *sim_stats_report(const sim_stats *s, const sim_labels *labels, const foh_cardset *cs, int players,
                         const char *seats, uint64_t seed)
{
    long g = s->games;
    json_t *root = json_object(), *seat_arr = json_array(), *start = json_array(), *cards = json_array();
    json_object_set_new(root, "format", json_string("foh-sim-report/1"));
    json_object_set_new(root, "games", json_integer(g));
    json_object_set_new(root, "skipped_games", json_integer(s->skipped));
    json_object_set_new(root, "players", json_integer(players));
    json_object_set_new(root, "seed", json_integer((json_int_t)seed));
    json_object_set_new(root, "seats", json_string(seats));
    json_t *variants = json_array();
    for (int i = 0; i < foh_cardset_variant_count(cs); i++)
        json_array_append_new(variants, json_string(foh_cardset_variant_name(cs, i)));
    json_object_set_new(root, "variants", variants);
    json_object_set_new(root, "game_length_turns", estimate_json(mean_ci(g, s->turns_sum, s->turns_sq)));
    json_object_set_new(root, "stalled_games", json_integer(s->stalled));
    json_object_set_new(root, "stalled_share", estimate_json(rate_ci(g, s->stalled * WIN_UNITS)));
    json_object_set_new(root, "score", estimate_json(mean_ci(s->total_player_games, s->all_sum, s->all_sq)));
    json_object_set_new(root, "winner_score", estimate_json(mean_ci(s->winner_n, s->winner_sum, s->winner_sq)));
    double pg = s->total_player_games ? (double)s->total_player_games : 1;
    json_object_set_new(root, "vp_per_player",
                        json_pack("{s:f,s:f,s:f}", "culture", s->culture_vp / pg, "other_icons", s->other_vp / pg,
                                  "end_game", s->end_vp / pg));
    json_object_set_new(root, "snipes_per_game", json_real(g ? (double)s->snipes / g : 0));
    json_object_set_new(root, "substituted_per_game", json_real(g ? (double)s->substituted / g : 0));
    const char *tn[MAX_TIMINGS];
    int nt = timing_names(cs, tn);
    json_t *fired = json_object();
    for (int t = 0; t < nt; t++)
        json_object_set_new(fired, tn[t], json_real(g ? (double)s->fired[t] / g : 0));
    json_object_set_new(root, "on_gain_effects_per_game", fired);
    for (int p = 0; p < players; p++)
        json_array_append_new(seat_arr, json_pack("{s:i,s:o,s:f}", "seat", p + 1, "win_rate",
                                                  estimate_json(rate_ci(g, s->win_units[p])), "mean_score",
                                                  g ? (double)s->score_sum[p] / g : 0));
    json_object_set_new(root, "seats_report", seat_arr);
    for (int c = 0; c < foh_cardset_card_count(cs); c++)
        if (s->start_games[c])
            json_array_append_new(start, json_pack("{s:s,s:s,s:I,s:o}", "card", sim_card_id(cs, c), "name", sim_card_name(cs, c), "games",
                                                   (json_int_t)s->start_games[c], "win_rate",
                                                   estimate_json(rate_ci(s->start_games[c], s->start_win_units[c]))));
    json_object_set_new(root, "starting_cards", start);
    for (int c = 0; c < foh_cardset_card_count(cs); c++) {
        json_t *card = json_pack(
            "{s:s,s:s,s:s,s:f,s:f,s:f,s:f,s:o,s:o}", "card", sim_card_id(cs, c), "name", sim_card_name(cs, c), "age",
            card_age(cs, c), "complete_per_game",
            g ? (double)s->gained[c][0] / g : 0, "snipe_per_game", g ? (double)s->gained[c][1] / g : 0,
            "effect_per_game", g ? (double)s->gained[c][2] / g : 0, "mean_price",
            s->price_n[c] ? (double)s->price_sum[c] / s->price_n[c] : 0.0, "owner_win_rate",
            estimate_json(rate_ci(s->owned_n[c], s->owned_win_units[c])), "non_owner_win_rate",
            estimate_json(rate_ci(s->total_player_games - s->owned_n[c], s->total_win_units - s->owned_win_units[c])));
        add_card_json(card, s, labels, cs, c);
        json_array_append_new(cards, card);
    }
    json_object_set_new(root, "cards", cards);
    add_report_json(root, s, labels, cs, players);
    json_t *hist = json_array();
    for (int b = 0; b < SCORE_BINS; b++)
        json_array_append_new(hist, json_integer(s->hist[b]));
    json_object_set_new(root, "score_histogram", hist);
    return root;
}

int sim_stats_write_reports(const char *command, const char *json_path, const char *html_path, const sim_stats *s,
                            const sim_labels *labels, const foh_cardset *cs, int players, const char *seats,
                            uint64_t seed, json_t *extra)
{
    if (!json_path && !html_path) {
        json_decref(extra);
        return 1;
    }
    json_t *report = sim_stats_report(s, labels, cs, players, seats, seed), *root = json_object();
    /* How the report was made comes first, after its format (provenance.h),
     * then the report, then the extra tables (impact, fate). */
    static const char *const first[] = {"format", "provenance", "shards_provenance"};
    for (size_t i = 0; root && report && i < sizeof first / sizeof first[0]; i++) {
        json_t *v = json_object_get(i ? extra : report, first[i]);
        if (v)
            json_object_set(root, first[i], v);
    }
    if (root && report)
        json_object_update(root, report);
    if (root && report && extra)
        json_object_update_missing(root, extra);
    if (!report) {
        json_decref(root);
        root = NULL;
    }
    json_decref(report);
    json_decref(extra);
    int ok = 1;
    if (json_path && (!root || !cli_write_json(root, json_path, JSON_INDENT(2) | JSON_REAL_PRECISION(6)))) {
        cli_error(command, "cannot write %s: %s", json_path, root ? strerror(errno) : "out of memory");
        ok = 0;
    }
    if (html_path && (!root || !sim_html_write(html_path, root))) {
        cli_error(command, "cannot write %s: %s", html_path, root ? strerror(errno) : "out of memory");
        ok = 0;
    }
    json_decref(root);
    return ok;
}

void sim_csv_header(FILE *out, int players)
{
    fprintf(out, "game,seed,seats,length,stalled");
    for (int p = 1; p <= players; p++)
        fprintf(out, ",score_p%d", p);
    fprintf(out, ",winners");
    for (int p = 1; p <= players; p++)
        fprintf(out, ",start_p%d", p);
    fprintf(out, ",content_hash\n"); /* the card set's (provenance.h): which cards each row was played with */
}

void sim_csv_row(FILE *out, const game_result *r, const foh_cardset *cs, const char *seats)
{
    fprintf(out, "%llu,\"%s\",%d,%d", (unsigned long long)r->seed, seats, r->turns, r->stalled);
    for (int p = 0; p < r->players; p++)
        fprintf(out, ",%d", r->score[p].total);
    fprintf(out, ",");
    for (int p = 0, first = 1; p < r->players; p++)
        if (r->score[p].winner) {
            fprintf(out, "%sP%d", first ? "" : " ", p + 1);
            first = 0;
        }
    for (int p = 0; p < r->players; p++)
        fprintf(out, ",%s", r->start_card[p] >= 0 ? sim_card_id(cs, r->start_card[p]) : "");
    fprintf(out, ",%016" PRIx64 "\n", foh_cardset_hash(cs));
}

/* Version 5 added the `impact` sums of foh sim --impact, version 6 the
 * `sources` of the card set (their hashes), version 7 the sums of a card
 * set of more than 128 cards or a game of more than 6 players: the rows
 * of the card set's cards and the game's players (`card_count`, `players`),
 * where version 6 has rows for 128 cards and 6 players (the engine's
 * limits then), so that a run within them still writes version 6, byte
 * for byte as before. */
#define SHARD_FORMAT "foh-sim-shard/6"
#define SHARD_FORMAT_WIDE "foh-sim-shard/7"
#define SHARD_CARDS 128 /* the rows of version 6 */
#define SHARD_PLAYERS 6
/* The largest sim shard read: its sums are fixed in size (about 200 KiB
 * with --impact; a version 7 shard of 1,024 cards, a few MiB), so a larger
 * file is not a shard; refused before reading. */
#define SIM_SHARD_MAX_BYTES (16u << 20)

/* How a field of sim_stats has its sums in a shard: rows of it for the
 * players, for the cards, for the choice rows (the cards, then the
 * variants' row) or a fixed number of them; a row of picks is the pick
 * kinds (the cards, the seats, then other labels). */
enum { SHAPE_FIXED, SHAPE_PLAYERS, SHAPE_CARDS, SHAPE_CHOICES, SHAPE_PICKS };

/* The fields of sim_stats in their order, to name the shard's sums[i] in
 * messages: COLS 0 for a number, else the length of a row of the array;
 * SIGNED: the field may be negative (a sum of scores), the others count;
 * SHAPE: as above. */
#define FIELD(f, cols, sgn, shape)                                                                              \
    {#f, offsetof(sim_stats, f) / sizeof(long), sizeof(((sim_stats *)0)->f) / sizeof(long), cols, sgn, shape}
static const struct {
    const char *name;
    size_t at, n;
    int cols, sgn, shape;
} FIELDS[] = {
    FIELD(games, 0, 0, SHAPE_FIXED),         FIELD(decisions, 0, 0, SHAPE_FIXED),
    FIELD(skipped, 0, 0, SHAPE_FIXED),       FIELD(stalled, 0, 0, SHAPE_FIXED),
    FIELD(win_units, 1, 0, SHAPE_PLAYERS),   FIELD(score_sum, 1, 1, SHAPE_PLAYERS),
    FIELD(score_sq, 1, 0, SHAPE_PLAYERS),    FIELD(all_sum, 0, 1, SHAPE_FIXED),
    FIELD(all_sq, 0, 0, SHAPE_FIXED),        FIELD(winner_sum, 0, 1, SHAPE_FIXED),
    FIELD(winner_sq, 0, 0, SHAPE_FIXED),     FIELD(winner_n, 0, 0, SHAPE_FIXED),
    FIELD(turns_sum, 0, 0, SHAPE_FIXED),     FIELD(turns_sq, 0, 0, SHAPE_FIXED),
    FIELD(snipes, 0, 0, SHAPE_FIXED),        FIELD(substituted, 0, 0, SHAPE_FIXED),
    FIELD(culture_vp, 0, 1, SHAPE_FIXED),    FIELD(other_vp, 0, 1, SHAPE_FIXED),
    FIELD(end_vp, 0, 1, SHAPE_FIXED),        FIELD(hist, 1, 0, SHAPE_FIXED),
    FIELD(fired, 1, 0, SHAPE_FIXED),         FIELD(start_games, 1, 0, SHAPE_CARDS),
    FIELD(start_win_units, 1, 0, SHAPE_CARDS), FIELD(gained, GAIN_KINDS, 0, SHAPE_CARDS),
    FIELD(price_sum, 1, 0, SHAPE_CARDS),     FIELD(price_n, 1, 0, SHAPE_CARDS),
    FIELD(price_sq, 1, 0, SHAPE_CARDS),      FIELD(owned_n, 1, 0, SHAPE_CARDS),
    FIELD(owned_win_units, 1, 0, SHAPE_CARDS), FIELD(total_player_games, 0, 0, SHAPE_FIXED),
    FIELD(total_win_units, 0, 0, SHAPE_FIXED), FIELD(first_win_units, 0, 0, SHAPE_FIXED),
    FIELD(order_win_units, 1, 0, SHAPE_PLAYERS), FIELD(order_score_sum, 1, 1, SHAPE_PLAYERS),
    FIELD(len_hist, 1, 0, SHAPE_FIXED),      FIELD(fired_games, 1, 0, SHAPE_CARDS),
    FIELD(activations, 1, 0, SHAPE_CARDS),   FIELD(gain_turn_sum, 1, 0, SHAPE_CARDS),
    FIELD(gain_turn_n, 1, 0, SHAPE_CARDS),   FIELD(gain_turn_hist, GAIN_BINS, 0, SHAPE_CARDS),
    FIELD(choices, 1, 0, SHAPE_CHOICES),     FIELD(choice_options, 1, 0, SHAPE_CHOICES),
    FIELD(picks, PICK_KINDS, 0, SHAPE_PICKS), FIELD(choices_lost, 0, 0, SHAPE_FIXED),
};
#define NFIELDS (sizeof FIELDS / sizeof FIELDS[0])
_Static_assert(offsetof(sim_stats, choices_lost) + sizeof(long) == sizeof(sim_stats),
               "FIELDS must end with the last field of sim_stats");
_Static_assert(FOH_MAX_CARDS >= SHARD_CARDS && FOH_MAX_PLAYERS >= SHARD_PLAYERS, "version 6 fits sim_stats");

/* The layout a shard of a run of NCARDS cards and PLAYERS players is
 * written in: version 6's rows when they hold it, else its own. */
sim_shard_layout sim_shard_layout_of(int ncards, int players)
{
    if (ncards <= SHARD_CARDS && players <= SHARD_PLAYERS)
        return (sim_shard_layout){.cards = SHARD_CARDS, .players = SHARD_PLAYERS, .wide = 0};
    return (sim_shard_layout){.cards = ncards, .players = players, .wide = 1};
}

/* The rows of sim_stats that hold the sums of a card set of NCARDS cards. */
static sim_shard_layout rows_of(int ncards)
{
    return (sim_shard_layout){.cards = ncards, .players = FOH_MAX_PLAYERS, .wide = 1};
}

/* Field F's rows and the length of a row (1 for a number) in layout L. */
static size_t field_rows(const sim_shard_layout *L, size_t f)
{
    size_t cols = FIELDS[f].cols ? (size_t)FIELDS[f].cols : 1;
    switch (FIELDS[f].shape) {
    case SHAPE_PLAYERS:
        return (size_t)L->players;
    case SHAPE_CARDS:
        return (size_t)L->cards;
    case SHAPE_CHOICES:
    case SHAPE_PICKS:
        return (size_t)L->cards + 1;
    default:
        return FIELDS[f].n / cols;
    }
}
static size_t field_cols(const sim_shard_layout *L, size_t f)
{
    if (FIELDS[f].shape == SHAPE_PICKS)
        return (size_t)L->cards + (size_t)L->players + 1;
    return FIELDS[f].cols ? (size_t)FIELDS[f].cols : 1;
}

/* Sums in a shard of layout L. */
static size_t layout_size(const sim_shard_layout *L)
{
    size_t n = 0;
    for (size_t f = 0; f < NFIELDS; f++)
        n += field_rows(L, f) * field_cols(L, f);
    return n;
}

/* Row R and column C of field F in layout L, as the row and column of
 * sim_stats (the choice rows' last is the variants', the pick kinds' the
 * cards', the seats', then the other labels'), or the reverse (TO_FILE). */
static void map_cell(const sim_shard_layout *L, size_t f, size_t *r, size_t *c, int to_file)
{
    size_t lc = (size_t)L->cards, mc = FOH_MAX_CARDS;
    size_t from_cards = to_file ? mc : lc, to_cards = to_file ? lc : mc;
    size_t from_players = to_file ? FOH_MAX_PLAYERS : (size_t)L->players;
    int shape = FIELDS[f].shape;
    if ((shape == SHAPE_CHOICES || shape == SHAPE_PICKS) && *r == from_cards)
        *r = to_cards;
    if (shape == SHAPE_PICKS && *c >= from_cards)
        *c = *c - from_cards < from_players ? to_cards + (*c - from_cards) : to_cards + (to_file ? (size_t)L->players
                                                                                                  : FOH_MAX_PLAYERS);
}

/* Into MAP (room for layout_size(L)), for each sum of a shard of layout
 * L, the index of its long in sim_stats. */
static void layout_map(const sim_shard_layout *L, size_t *map)
{
    size_t k = 0;
    for (size_t f = 0; f < NFIELDS; f++) {
        size_t mcols = FIELDS[f].cols ? (size_t)FIELDS[f].cols : 1;
        for (size_t r = 0; r < field_rows(L, f); r++)
            for (size_t c = 0; c < field_cols(L, f); c++) {
                size_t mr = r, mcol = c;
                map_cell(L, f, &mr, &mcol, 0);
                map[k++] = FIELDS[f].at + mr * mcols + mcol;
            }
    }
}

/* The FIELDS entry holding sums[I]. */
static size_t field_of(size_t i)
{
    size_t f = 0;
    while (f + 1 < NFIELDS && FIELDS[f + 1].at <= i)
        f++;
    return f;
}

/* Say into WHY that the sum at X, a field of S, breaks a law: "'gained[3][1]'
 * (sums[437]) is 25, " and the law (FMT), with the indices of the shard
 * (layout L). Returns 0. */
static int broken(const sim_shard_layout *L, const sim_stats *s, const long *x, char *why, size_t len,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int broken(const sim_shard_layout *L, const sim_stats *s, const long *x, char *why, size_t len,
                  const char *fmt, ...)
{
    size_t i = (size_t)(x - (const long *)s), f = field_of(i), k = i - FIELDS[f].at;
    size_t mcols = FIELDS[f].cols ? (size_t)FIELDS[f].cols : 1, r = k / mcols, c = k % mcols, at = 0;
    map_cell(L, f, &r, &c, 1);
    for (size_t e = 0; e < f; e++)
        at += field_rows(L, e) * field_cols(L, e);
    size_t lcols = field_cols(L, f);
    char name[64];
    if (!FIELDS[f].cols)
        snprintf(name, sizeof name, "%s", FIELDS[f].name);
    else if (FIELDS[f].cols == 1)
        snprintf(name, sizeof name, "%s[%zu]", FIELDS[f].name, r);
    else
        snprintf(name, sizeof name, "%s[%zu][%zu]", FIELDS[f].name, r, c);
    int n = snprintf(why, len, "'%s' (sums[%zu]) is %ld, ", name, at + r * lcols + c, *x);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < len)
        vsnprintf(why + n, len - (size_t)n, fmt, ap);
    va_end(ap);
    return 0;
}

/* *SUM = the N numbers from A, STRIDE apart, added; 0 if that overflows. */
static int add_up(const long *a, int n, int stride, long *sum)
{
    *sum = 0;
    for (int i = 0; i < n; i++)
        if (__builtin_add_overflow(*sum, a[i * stride], sum))
            return 0;
    return 1;
}

/* Whether the sums S of one shard of PLAYERS players obey the laws of the
 * sums sim_stats_add makes (else WHY says which law the first bad field
 * breaks): they count, so they are not negative (the scores' sums may be);
 * a shard's games are at most CLI_MAX_GAMES; each count is at most what
 * its games allow; the totals are the sums of their parts. Each bound is
 * checked before it is used, so that no product or sum overflows; the sums
 * of lawful shards obey the same laws, so no report of them divides by 0 or
 * shows a share outside 0-100%. */
static int sums_lawful(const sim_shard_layout *L, const sim_stats *s, int players, char *why, size_t len)
{
    const long *x = (const long *)s;
    for (size_t f = 0; f < NFIELDS; f++)
        for (size_t k = 0; !FIELDS[f].sgn && k < FIELDS[f].n; k++)
            if (x[FIELDS[f].at + k] < 0)
                return broken(L, s, x + FIELDS[f].at + k, why, len, "a count, and negative");
    const long g = s->games, u = WIN_UNITS;
    if (g > CLI_MAX_GAMES)
        return broken(L, s, &s->games, why, len, "more than the %ld games foh sim plays at most", CLI_MAX_GAMES);
    const long gp = g * players; /* fits: g <= CLI_MAX_GAMES */
    long sum;
    if (s->total_player_games != gp)
        return broken(L, s, &s->total_player_games, why, len, "not the shard's %ld games times %d players", g, players);
    if (s->stalled > g)
        return broken(L, s, &s->stalled, why, len, "more than the shard's %ld games", g);
    /* A sum of squares of whole numbers is at least the sum of their sizes. */
    const long *sq[] = {&s->turns_sq, &s->all_sq, &s->winner_sq}, *of[] = {&s->turns_sum, &s->all_sum, &s->winner_sum};
    for (int k = 0; k < 3; k++)
        if (*sq[k] < *of[k] || (*of[k] < 0 && *sq[k] + *of[k] < 0))
            return broken(L, s, sq[k], why, len, "a sum of squares of whole numbers, less than their sum (%ld)", *of[k]);
    for (int p = 0; p < FOH_MAX_PLAYERS; p++) {
        const long *seat[] = {&s->win_units[p], &s->score_sum[p], &s->score_sq[p], &s->order_win_units[p],
                              &s->order_score_sum[p]};
        for (int k = 0; p >= players && k < 5; k++)
            if (*seat[k])
                return broken(L, s, seat[k], why, len, "while the shard has %d players", players);
        if (s->win_units[p] > g * u || s->order_win_units[p] > g * u)
            return broken(L, s, s->win_units[p] > g * u ? &s->win_units[p] : &s->order_win_units[p], why, len,
                          "more than %ld win units for each of the shard's %ld games", u, g);
        if (s->score_sq[p] < s->score_sum[p] || (s->score_sum[p] < 0 && s->score_sq[p] + s->score_sum[p] < 0))
            return broken(L, s, &s->score_sq[p], why, len,
                          "a sum of squares of whole numbers, less than their sum (%ld)", s->score_sum[p]);
    }
    /* The totals and their parts (each part is bounded above: they fit). */
    if (!add_up(s->win_units, FOH_MAX_PLAYERS, 1, &sum) || s->total_win_units != sum)
        return broken(L, s, &s->total_win_units, why, len, "not the sum of 'win_units' (%ld)", sum);
    if (!add_up(s->order_win_units, FOH_MAX_PLAYERS, 1, &sum) || s->total_win_units != sum)
        return broken(L, s, &s->total_win_units, why, len, "not the sum of 'order_win_units' (%ld)", sum);
    if (s->first_win_units != s->order_win_units[0])
        return broken(L, s, &s->first_win_units, why, len, "not 'order_win_units[0]' (%ld), the same wins",
                      s->order_win_units[0]);
    if (!add_up(s->score_sum, FOH_MAX_PLAYERS, 1, &sum) || s->all_sum != sum)
        return broken(L, s, &s->all_sum, why, len, "not the sum of 'score_sum'");
    if (!add_up(s->order_score_sum, FOH_MAX_PLAYERS, 1, &sum) || s->all_sum != sum)
        return broken(L, s, &s->all_sum, why, len, "not the sum of 'order_score_sum'");
    if (!add_up(s->score_sq, FOH_MAX_PLAYERS, 1, &sum) || s->all_sq != sum)
        return broken(L, s, &s->all_sq, why, len, "not the sum of 'score_sq'");
    if (s->winner_n > gp)
        return broken(L, s, &s->winner_n, why, len, "more winners than the shard's %ld player-games", gp);
    if (s->total_win_units > s->winner_n * u)
        return broken(L, s, &s->total_win_units, why, len, "more than %ld win units for each of the %ld winners", u,
                      s->winner_n);
    if (!add_up(s->hist, SCORE_BINS, 1, &sum) || sum != gp)
        return broken(L, s, &s->total_player_games, why, len, "while the score histogram 'hist' does not count as many");
    if (!add_up(s->len_hist, LEN_BINS, 1, &sum) || sum != g)
        return broken(L, s, &s->games, why, len, "while the game length histogram 'len_hist' does not count as many");
    /* Per card: each card is in one game at most once. */
    long starts = 0, start_units = 0;
    for (int c = 0; c < FOH_MAX_CARDS; c++) {
        const long *once[] = {&s->start_games[c], &s->price_n[c], &s->owned_n[c], &s->fired_games[c],
                              &s->gain_turn_n[c]};
        for (int k = 0; k < 5; k++)
            if (*once[k] > g)
                return broken(L, s, once[k], why, len, "more than the shard's %ld games", g);
        if (!add_up(s->gained[c], GAIN_KINDS, 1, &sum))
            return broken(L, s, &s->gained[c][0], why, len, "and its sum with the card's other gains ('gained[%d][*]') "
                          "overflows 64 bits", c);
        if (sum > g)
            return broken(L, s, &s->gained[c][0], why, len, "and with the card's other gains ('gained[%d][*]') %ld, more "
                          "than the shard's %ld games", c, sum, g);
        if (s->start_win_units[c] > s->start_games[c] * u)
            return broken(L, s, &s->start_win_units[c], why, len, "more than %ld win units for each of its %ld games", u,
                          s->start_games[c]);
        if (s->owned_win_units[c] > s->owned_n[c] * u)
            return broken(L, s, &s->owned_win_units[c], why, len, "more than %ld win units for each of its %ld owners",
                          u, s->owned_n[c]);
        if (s->owned_win_units[c] > s->total_win_units ||
            s->total_win_units - s->owned_win_units[c] > (gp - s->owned_n[c]) * u)
            return broken(L, s, &s->owned_win_units[c], why, len,
                          "while the players not owning the card won %ld of the shard's %ld win units",
                          s->total_win_units - s->owned_win_units[c], s->total_win_units);
        if (s->price_sq[c] < s->price_sum[c])
            return broken(L, s, &s->price_sq[c], why, len, "a sum of squares of whole numbers, less than their sum (%ld)",
                          s->price_sum[c]);
        if (!add_up(s->gain_turn_hist[c], GAIN_BINS, 1, &sum) || sum != s->gain_turn_n[c])
            return broken(L, s, &s->gain_turn_n[c], why, len,
                          "while the histogram 'gain_turn_hist[%d]' does not count as many", c);
        starts += s->start_games[c]; /* at most FOH_MAX_CARDS * CLI_MAX_GAMES */
        start_units += s->start_win_units[c];
    }
    if (starts > gp)
        return broken(L, s, &s->total_player_games, why, len, "fewer than the %ld starting cards ('start_games')", starts);
    if (start_units > s->total_win_units)
        return broken(L, s, &s->total_win_units, why, len, "fewer than the %ld win units of the starting cards",
                      start_units);
    /* Choices: at most MAX_GAME_CHOICES answers a game, each of FOH_MAX_OPTIONS options at most. */
    if (!add_up(s->choices, CHOICE_ROWS, 1, &sum) || sum > g * MAX_GAME_CHOICES)
        return broken(L, s, &s->choices[0], why, len, "and with the other rows of 'choices' more than %d answers for "
                      "each of the shard's %ld games", MAX_GAME_CHOICES, g);
    for (int row = 0; row < CHOICE_ROWS; row++) {
        if (s->choice_options[row] > s->choices[row] * FOH_MAX_OPTIONS)
            return broken(L, s, &s->choice_options[row], why, len, "more than %d options for each of its %ld answers",
                          FOH_MAX_OPTIONS, s->choices[row]);
        if (!add_up(s->picks[row], PICK_KINDS, 1, &sum) || sum != s->choices[row])
            return broken(L, s, &s->choices[row], why, len, "while its picks ('picks[%d][*]') do not count as many",
                          row == FOH_MAX_CARDS ? L->cards : row);
    }
    return 1;
}

json_t *sim_stats_shard_json(const sim_stats *s, const sim_labels *labels, const origin *og, const foh_cardset *cs,
                             int players, const char *seats, uint64_t seed, long total_games, int shard, int shards,
                             json_t *impact, json_t *provenance)
{
    sim_shard_layout L = sim_shard_layout_of(foh_cardset_card_count(cs), players);
    size_t n = layout_size(&L), *map = malloc(n * sizeof *map);
    json_t *root = json_object(), *sums = json_array();
    if (impact)
        json_object_set_new(root, "impact", impact);
    if (!map || !root || !sums || !provenance) { /* errno: ENOMEM (provenance_json's NULL too) */
        free(map);
        json_decref(root);
        json_decref(sums);
        json_decref(provenance);
        return NULL;
    }
    layout_map(&L, map);
    const long *x = (const long *)s;
    for (size_t i = 0; i < n; i++)
        json_array_append_new(sums, json_integer(x[map[i]]));
    free(map);
    json_object_set_new(root, "format", json_string(L.wide ? SHARD_FORMAT_WIDE : SHARD_FORMAT));
    json_object_set_new(root, "shard", json_pack("[i,i]", shard, shards));
    origin_write(root, og);
    json_object_set_new(root, "sources", origin_sources(cs));
    if (L.wide)
        json_object_set_new(root, "card_count", json_integer(L.cards));
    json_object_set_new(root, "players", json_integer(players));
    json_object_set_new(root, "seats", json_string(seats));
    json_object_set_new(root, "seed", json_integer((json_int_t)seed));
    json_object_set_new(root, "total_games", json_integer(total_games));
    json_object_set_new(root, "sums", sums);
    if (labels && labels->n) { /* only when there are some: other shards stay as they were */
        json_t *text = json_array();
        for (int i = 0; i < labels->n; i++)
            json_array_append_new(text, json_pack("[i,s,I]", labels->item[i].row, labels->item[i].label,
                                                  (json_int_t)labels->item[i].count));
        json_object_set_new(root, "text_answers", text);
    }
    json_object_set_new(root, "provenance", provenance); /* what made this shard; foh merge checks it */
    return root;
}

int sim_stats_save_shard(const char *path, const sim_stats *s, const sim_labels *labels, const origin *og,
                         const foh_cardset *cs, int players, const char *seats, uint64_t seed, long total_games,
                         int shard, int shards, json_t *impact, json_t *provenance)
{
    json_t *root = sim_stats_shard_json(s, labels, og, cs, players, seats, seed, total_games, shard, shards, impact,
                                        provenance);
    if (!root) {
        errno = ENOMEM;
        return 0;
    }
    int ok = cli_write_json(root, path, JSON_COMPACT);
    json_decref(root);
    return ok;
}

/* What is wrong with the description of shard ROOT (into WHY), or NULL. */
static const char *bad_description(json_t *root, char *why, size_t len)
{
    json_t *players = json_object_get(root, "players"), *games = json_object_get(root, "total_games");
    json_t *shard = json_object_get(root, "shard");
    origin *og = malloc(sizeof *og);
    if (!og)
        return "out of memory";
    int ok = origin_read(root, og, why, len);
    free(og);
    if (!ok)
        return why;
    if (!json_is_string(json_object_get(root, "seats")))
        return "'seats' must be a string";
    if (!json_is_integer(players) || json_integer_value(players) < 1 ||
        json_integer_value(players) > FOH_MAX_PLAYERS) {
        snprintf(why, len, "'players' must be a whole number from 1 to %d", FOH_MAX_PLAYERS);
        return why;
    }
    if (!json_is_integer(json_object_get(root, "seed")) || !json_is_integer(games) || json_integer_value(games) < 0)
        return "'seed' and 'total_games' must be whole numbers";
    if (json_integer_value(games) > CLI_MAX_GAMES) {
        snprintf(why, len, "'total_games' must be at most %ld (foh sim --games)", CLI_MAX_GAMES);
        return why;
    }
    json_int_t i = json_integer_value(json_array_get(shard, 0)), k = json_integer_value(json_array_get(shard, 1));
    if (json_array_size(shard) != 2 || !json_is_integer(json_array_get(shard, 0)) ||
        !json_is_integer(json_array_get(shard, 1)) || k < 1 || k > 100000 || i < 1 || i > k)
        return "'shard' must be [i, k] with 1 <= i <= k";
    return NULL;
}

/* The shard's `text_answers` ([[row, label, count], ...], or absent) into
 * a new table *OUT, checked against the shard's sums PART: each count at
 * most the row's text answers, which they may not pass in all. 0 with WHY. */
static int read_text_answers(json_t *list, const sim_stats *part, sim_labels *out, char *why, size_t len)
{
    *out = (sim_labels){0};
    if (!list)
        return 1;
    if (!json_is_array(list)) {
        snprintf(why, len, "'text_answers' must be a list of [row, label, count]");
        return 0;
    }
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        json_t *row = json_array_get(e, 0), *label = json_array_get(e, 1), *count = json_array_get(e, 2);
        const char *text = json_string_value(label);
        if (json_array_size(e) != 3 || !json_is_integer(row) || json_integer_value(row) < 0 ||
            json_integer_value(row) >= CHOICE_ROWS || !text || strlen(text) >= SIM_LABEL_BYTES ||
            !json_is_integer(count) || json_integer_value(count) < 0 ||
            json_integer_value(count) > part->picks[json_integer_value(row)][PICK_OTHER]) {
            snprintf(why, len, "'text_answers' entry %zu must be [row 0 to %d, a label of at most %d bytes, a count "
                               "no more than the row's text answers in 'sums']", i, CHOICE_ROWS - 1,
                     SIM_LABEL_BYTES - 1);
            sim_labels_free(out);
            return 0;
        }
        int n = out->n;
        sim_labels_add(out, (int)json_integer_value(row), text, (long)json_integer_value(count));
        if (out->n == n || json_integer_value(count) == 0) { /* foh sim writes each once, and none of 0 */
            snprintf(why, len, "'text_answers' entry %zu: %s", i,
                     json_integer_value(count) == 0 ? "a count of 0" : "the row and label of an earlier entry");
            sim_labels_free(out);
            return 0;
        }
    }
    long *sum = calloc(CHOICE_ROWS, sizeof *sum); /* each row's answers by label, against its text answers */
    if (!sum) {
        snprintf(why, len, "out of memory");
        sim_labels_free(out);
        return 0;
    }
    for (int k = 0; k < out->n; k++)
        sum[out->item[k].row] += out->item[k].count; /* no overflow: under 16 MiB of entries, each at most a row sum */
    for (int r = 0; r < CHOICE_ROWS; r++)
        if (sum[r] > part->picks[r][PICK_OTHER]) {
            snprintf(why, len, "'text_answers' of row %d count %ld answers, more than its %ld text answers in 'sums'",
                     r, sum[r], part->picks[r][PICK_OTHER]);
            free(sum);
            sim_labels_free(out);
            return 0;
        }
    free(sum);
    return 1;
}

int sim_stats_load_shard(const char *path, sim_stats *s, sim_labels *labels, void **meta, const char *first,
                         int *shard, int *shards, json_t **impact, sim_shard_layout *layout)
{
    *impact = NULL;
    json_error_t jerr;
    char *text;
    size_t len;
    foh_error ferr;
    if (foh_file_read(path, SIM_SHARD_MAX_BYTES, "shards of foh sim", &text, &len, &ferr) != FOH_OK) {
        cli_error("merge", "%s", ferr.msg);
        return 0;
    }
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!root) {
        cli_error("merge", "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column,
                  jerr.text[0] ? jerr.text : "out of memory");
        return 0;
    }
    const char *format = json_string_value(json_object_get(root, "format"));
    if (format && !strncmp(format, "foh-compare-shard/", 18)) { /* first: foh merge reads those apart */
        cli_error("merge", "%s: a shard of foh compare (format %s), not of foh sim: merge it with the other shards "
                  "of its foh compare run, apart from foh sim's", path, format);
        json_decref(root);
        return 0;
    }
    int ok = sim_stats_read_shard(root, path, s, labels, meta, first, shard, shards, impact, layout);
    json_decref(root);
    return ok;
}

/* See sim_stats.h. Long because: it reads a shard in the order of its
 * fields (its format and rows, the first shard's settings, the sources,
 * then the sums, all or nothing), each check needing the ones before it
 * and sharing their cleanup. */
int sim_stats_read_shard(json_t *root, const char *path, sim_stats *s, sim_labels *labels, void **meta,
                         const char *first, int *shard, int *shards, json_t **impact, sim_shard_layout *layout)
{
    *impact = NULL;
    json_t *sums = json_object_get(root, "sums");
    const char *format = json_string_value(json_object_get(root, "format"));
    int wide = format && !strcmp(format, SHARD_FORMAT_WIDE);
    if (format && !strncmp(format, "foh-tune-shard/", 15)) {
        cli_error("merge", "%s: a shard of foh tune (format %s), not of foh sim: merge it with foh tune --merge",
                  path, format);
        return 0;
    }
    if (format && !strncmp(format, "foh-sim-shard/", 14) && strcmp(format, SHARD_FORMAT) && !wide) {
        cli_error("merge", "%s: format %s, written by another version of foh; this one reads %s and %s only: run "
                  "its foh sim --save-shard again", path, format, SHARD_FORMAT, SHARD_FORMAT_WIDE);
        return 0;
    }
    /* The rows of the sums: version 6's, or those the file names. */
    json_t *jcards = json_object_get(root, "card_count"), *jplayers = json_object_get(root, "players");
    sim_shard_layout L = {.cards = SHARD_CARDS, .players = SHARD_PLAYERS, .wide = wide};
    if (wide && (!json_is_integer(jcards) || json_integer_value(jcards) < 1 ||
                 json_integer_value(jcards) > FOH_MAX_CARDS || !json_is_integer(jplayers) ||
                 json_integer_value(jplayers) < 1 || json_integer_value(jplayers) > FOH_MAX_PLAYERS)) {
        cli_error("merge", "%s: 'card_count' and 'players' must be whole numbers from 1 to %d and %d in format %s", path,
                  FOH_MAX_CARDS, FOH_MAX_PLAYERS, format);
        return 0;
    }
    if (wide) {
        L.cards = (int)json_integer_value(jcards);
        L.players = (int)json_integer_value(jplayers);
    }
    size_t n = layout_size(&L);
    if (!format || (strcmp(format, SHARD_FORMAT) && !wide) || !json_is_array(sums) || json_array_size(sums) != n) {
        cli_error("merge", "%s: not a shard file of this version of foh (format %s, %zu sums)", path,
                  wide ? SHARD_FORMAT_WIDE : SHARD_FORMAT, n);
        return 0;
    }
    char why[200];
    const char *bad = bad_description(root, why, sizeof why);
    if (!bad && !wide && json_integer_value(jplayers) > SHARD_PLAYERS) {
        snprintf(why, sizeof why, "'players' must be at most %d in format %s", SHARD_PLAYERS, format);
        bad = why;
    }
    if (bad) {
        cli_error("merge", "%s: %s", path, bad);
        return 0;
    }
    *layout = L;
    *shard = (int)json_integer_value(json_array_get(json_object_get(root, "shard"), 0));
    *shards = (int)json_integer_value(json_array_get(json_object_get(root, "shard"), 1));
    if (*meta) {
        static const char *const same[] = {"players", "seats", "seed", "total_games"};
        char differs[64] = "";
        if (!origin_equal(root, *meta))
            snprintf(differs, sizeof differs, "the card sets, variants or mod folders differ");
        for (size_t k = 0; !differs[0] && k < sizeof same / sizeof same[0]; k++)
            if (!json_equal(json_object_get(root, same[k]), json_object_get(*meta, same[k])))
                snprintf(differs, sizeof differs, "'%s' differs", same[k]);
        if (differs[0]) {
            cli_error("merge", "%s: %s from the first shard's", path, differs);
            return 0;
        }
    }
    /* Its sources: a well-formed list (compared with itself), the first
     * shard's. */
    json_t *src = json_object_get(root, "sources");
    char what[ORIGIN_PATH + 256];
    if (origin_sources_differ(src, src, path, path, what, sizeof what)) {
        cli_error("merge", "%s: %s", path, what);
        return 0;
    }
    if (*meta && origin_sources_differ(json_object_get(*meta, "sources"), src, first, path, what, sizeof what)) {
        cli_error("merge", "%s: made from other contents of the card set than %s: %s", path, first, what);
        return 0;
    }
    /* Its provenance, which the merged report copies: the one its run wrote. */
    if (shard_provenance_bad(root, what, sizeof what)) {
        cli_error("merge", "%s: %s: the shard was edited or damaged", path, what);
        return 0;
    }
    /* All or nothing: a bad number leaves S as it was. */
    int players = (int)json_integer_value(jplayers);
    sim_stats *part = calloc(1, sizeof *part);
    size_t *map = malloc(n * sizeof *map);
    long *x = (long *)s, *y = (long *)part;
    char law[300];
    if (!part || !map) {
        free(part);
        free(map);
        cli_error("merge", "out of memory");
        return 0;
    }
    layout_map(&L, map);
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(sums, i);
        if (!json_is_integer(v)) {
            cli_error("merge", "%s: sums[%zu] is not a whole number", path, i);
            free(part);
            free(map);
            return 0;
        }
        y[map[i]] = (long)json_integer_value(v);
    }
    free(map);
    n = sizeof *s / sizeof(long); /* the sums of S, each added */
    /* This part's games: [G (part - 1) / parts, G part / parts) of the run's
     * G (at most CLI_MAX_GAMES), as foh sim --shard plays them. */
    long run = (long)json_integer_value(json_object_get(root, "total_games"));
    long share = run * *shard / *shards - run * (*shard - 1) / *shards;
    int ok = part->games >= 0 && part->skipped >= 0 && part->games <= share && part->skipped <= share - part->games;
    if (!ok)
        cli_error("merge", "%s: holds %ld games and %ld skipped (sums[0] and sums[2]), while part %d of %d of the "
                  "run's %ld games has %ld: the shard was edited or damaged", path, part->games, part->skipped,
                  *shard, *shards, run, share);
    if (ok && !(ok = sums_lawful(&L, part, players, law, sizeof law)))
        cli_error("merge", "%s: %s: the shard was edited or damaged", path, law);
    sim_labels answers = {0}; /* the text answers by label, checked against this part's sums */
    if (ok && !(ok = read_text_answers(json_object_get(root, "text_answers"), part, &answers, law, sizeof law)))
        cli_error("merge", "%s: %s: the shard was edited or damaged", path, law);
    for (size_t i = 0; ok && i < n; i++)
        if (__builtin_add_overflow(x[i], y[i], &y[i])) {
            broken(&L, s, x + i, law, sizeof law, "and adding this shard's overflows 64 bits (merge fewer games)");
            cli_error("merge", "%s: the total %s", path, law);
            ok = 0;
        }
    if (ok)
        memcpy(x, y, n * sizeof *y);
    if (ok && labels)
        sim_labels_merge(labels, &answers);
    sim_labels_free(&answers);
    free(part);
    if (!ok)
        return 0;
    *impact = json_incref(json_object_get(root, "impact"));
    if (!*meta)
        *meta = json_incref(root);
    return 1;
}


static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int sim_bh(const double *p, int n, double q, int *marked)
{
    double *sorted = malloc((size_t)(n > 0 ? n : 1) * sizeof *sorted);
    int m = 0, count = 0;
    if (!sorted)
        return -1;
    for (int i = 0; i < n; i++)
        if (p[i] >= 0)
            sorted[m++] = p[i];
    qsort(sorted, (size_t)m, sizeof *sorted, by_value);
    double cut = -1;
    for (int k = m; k >= 1; k--)
        if (sorted[k - 1] <= q * k / m) {
            cut = sorted[k - 1];
            break;
        }
    free(sorted);
    for (int i = 0; i < n; i++) {
        marked[i] = p[i] >= 0 && p[i] <= cut;
        count += marked[i];
    }
    return count;
}

/* impact: see impact.h and docs/impact.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/impact.h"
#include "sim/sim_stats.h"

#define Z95 1.96

/* A recorded position: a player's features at the start of a turn, and
 * for a gain the card gained during that turn (-1 for a plain row). */
typedef struct {
    int player, card;
    long x[IMPACT_MAX_K];
} record;

struct impact_game_s {
    const foh_cardset *cs;
    int players, k;
    long snap[FOH_MAX_PLAYERS][IMPACT_MAX_K]; /* each player's features at the start of this turn */
    int have_snap;
    long placements; /* before the decision under way */
    record *rec;
    long nrec, cap;
    int oom;
};

impact_game *impact_game_new(const foh_cardset *cs, int players)
{
    impact_game *ig = calloc(1, sizeof *ig);
    if (!ig)
        return NULL;
    ig->cs = cs;
    ig->players = players;
    ig->k = IMPACT_BASE_FEATURES + players - 1;
    return ig;
}

void impact_game_free(impact_game *ig)
{
    if (ig)
        free(ig->rec);
    free(ig);
}

static record *add_record(impact_game *ig, int player, int card)
{
    if (ig->nrec == ig->cap) {
        long cap = ig->cap ? 2 * ig->cap : 256;
        record *grown = realloc(ig->rec, (size_t)cap * sizeof *grown);
        if (!grown) {
            ig->oom = 1;
            return NULL;
        }
        ig->rec = grown;
        ig->cap = cap;
    }
    record *r = &ig->rec[ig->nrec++];
    r->player = player;
    r->card = card;
    memcpy(r->x, ig->snap[player], sizeof r->x);
    return r;
}

/* A turn begins: every player's position, and one row each. */
static foh_status on_turn(void *ud, foh_game *g, foh_error *err)
{
    impact_game *ig = ud;
    int n = ig->players, ncards = foh_cardset_card_count(ig->cs);
    foh_score sc[FOH_MAX_PLAYERS];
    foh_status st = foh_game_score(g, sc, NULL, err);
    if (st != FOH_OK)
        return st;
    int cards[FOH_MAX_PLAYERS] = {0};
    for (int c = 0; c < ncards; c++) {
        int owner;
        if (foh_game_card_zone(g, c, &owner) == FOH_ZONE_NATION && owner >= 0 && owner < n)
            cards[owner]++;
    }
    long turn = foh_game_turn(g);
    int first = foh_game_first_player(g), acting = foh_game_current_player(g);
    for (int p = 0; p < n; p++) {
        int best = -1000000;
        for (int q = 0; q < n; q++)
            if (q != p && sc[q].total > best)
                best = sc[q].total;
        long margin = sc[p].total - best;
        int inv = foh_game_investment(g, p);
        long *x = ig->snap[p];
        memset(x, 0, sizeof ig->snap[p]);
        x[0] = 1;
        x[1] = margin;
        x[2] = turn;
        x[3] = margin * turn;
        x[4] = turn * turn;
        x[5] = cards[p];
        x[6] = foh_game_tokens(g, p);
        x[7] = p == acting;
        x[8] = inv >= 0 ? foh_game_invested_tokens(g, inv) : 0;
        x[9] = x[8] * turn;
        x[10] = foh_game_deck_size(g);
        int order = (p - first + n) % n;
        if (order > 0)
            x[IMPACT_BASE_FEATURES + order - 1] = 1;
    }
    ig->have_snap = 1;
    for (int p = 0; p < n; p++)
        if (!add_record(ig, p, -1))
            return foh_error_set(err, FOH_ERR_MEMORY, "out of memory recording positions for --impact");
    return FOH_OK;
}

static foh_status on_before(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    impact_game *ig = ud;
    (void)d;
    (void)err;
    ig->placements = foh_game_placements(g);
    return FOH_OK;
}

/* The cards the decision placed in a Nation, each with its gainer's
 * position at the start of the turn. */
static foh_status on_after(void *ud, foh_game *g, const foh_decision *d, foh_error *err)
{
    impact_game *ig = ud;
    (void)d;
    if (!ig->have_snap || foh_game_placements(g) == ig->placements)
        return FOH_OK;
    for (int c = 0; c < foh_cardset_card_count(ig->cs); c++) {
        int owner;
        if (foh_game_card_placement(g, c) >= ig->placements && foh_game_card_zone(g, c, &owner) == FOH_ZONE_NATION &&
            owner >= 0 && owner < ig->players && !add_record(ig, owner, c))
            return foh_error_set(err, FOH_ERR_MEMORY, "out of memory recording gains for --impact");
    }
    return FOH_OK;
}

foh_observer impact_observer(impact_game *ig)
{
    return (foh_observer){.before = on_before, .after = on_after, .turn = on_turn, .ud = ig};
}

/* *A += V, or mark the overflow. */
static void add(long *a, long v, int *overflow)
{
    if (__builtin_add_overflow(*a, v, a))
        *overflow = 1;
}

/* M += Z Z' (D x D). */
static void add_outer(long m[IMPACT_D][IMPACT_D], const long *z, int d, int *overflow)
{
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) {
            long v;
            if (__builtin_mul_overflow(z[i], z[j], &v))
                *overflow = 1;
            else
                add(&m[i][j], v, overflow);
        }
}

/* Each player's final outcome: margin over the best opponent (VP) and win units. */
static void outcomes(int n, const foh_score *score, long *margin, long *win)
{
    int nwin = 0;
    for (int p = 0; p < n; p++)
        nwin += score[p].winner;
    for (int p = 0; p < n; p++) {
        int best = -1000000;
        for (int q = 0; q < n; q++)
            if (q != p && score[q].total > best)
                best = score[q].total;
        margin[p] = score[p].total - best;
        win[p] = score[p].winner && nwin ? WIN_UNITS / nwin : 0;
    }
}

void impact_add_outer(long m[IMPACT_D][IMPACT_D], const long *z, int d, int *overflow)
{
    add_outer(m, z, d, overflow);
}

int impact_features(int players)
{
    return IMPACT_BASE_FEATURES + players - 1;
}

int impact_game_gains(const impact_game *ig, const foh_score *score, impact_gain **out, int *n)
{
    long margin[FOH_MAX_PLAYERS], win[FOH_MAX_PLAYERS];
    int k = ig->k, m = 0;
    *out = NULL;
    *n = 0;
    if (ig->oom)
        return 0;
    outcomes(ig->players, score, margin, win);
    for (long i = 0; i < ig->nrec; i++)
        m += ig->rec[i].card >= 0;
    if (!m)
        return 1;
    impact_gain *gs = calloc((size_t)m, sizeof *gs);
    if (!gs)
        return 0;
    m = 0;
    for (long i = 0; i < ig->nrec; i++) {
        const record *r = &ig->rec[i];
        if (r->card < 0)
            continue;
        gs[m].card = r->card;
        memcpy(gs[m].z, r->x, (size_t)k * sizeof r->x[0]);
        gs[m].z[k] = margin[r->player];
        gs[m].z[k + 1] = win[r->player];
        m++;
    }
    *out = gs;
    *n = m;
    return 1;
}

void impact_game_finish(impact_game *ig, foh_game *g, const foh_score *score, impact_stats *s)
{
    int n = ig->players, k = ig->k, d = k + 2, ncards = foh_cardset_card_count(ig->cs);
    long margin[FOH_MAX_PLAYERS], win[FOH_MAX_PLAYERS];
    outcomes(n, score, margin, win);
    if (ig->oom)
        s->overflow = 1; /* rows are missing: say so rather than print a biased table */
    s->k = k;
    s->games++;
    static const long zero[IMPACT_D];
    long (*cz)[IMPACT_D] = calloc((size_t)ncards, sizeof *cz);
    if (!cz) {
        s->overflow = 1;
        return;
    }
    for (long i = 0; i < ig->nrec; i++) {
        const record *r = &ig->rec[i];
        long z[IMPACT_D] = {0};
        memcpy(z, r->x, (size_t)k * sizeof z[0]);
        z[k] = margin[r->player];
        z[k + 1] = win[r->player];
        if (r->card < 0) {
            add_outer(s->all, z, d, &s->overflow);
            s->rows++;
        } else {
            add_outer(s->gain_all, z, d, &s->overflow);
            for (int j = 0; j < d; j++)
                add(&cz[r->card][j], z[j], &s->overflow);
        }
    }
    for (int c = 0; c < ncards; c++) {
        if (memcmp(cz[c], zero, sizeof zero)) {
            s->card_games[c]++;
            for (int j = 0; j < d; j++)
                add(&s->card_sum[c][j], cz[c][j], &s->overflow);
            add_outer(s->card_sq[c], cz[c], d, &s->overflow);
        }
        int owner;
        if (foh_game_card_zone(g, c, &owner) == FOH_ZONE_NATION && owner >= 0 && owner < n) {
            s->owned_n[c]++;
            s->owned_win[c] += win[owner];
        }
    }
    free(cz);
    for (int p = 0; p < n; p++) {
        s->player_games++;
        s->win_units += win[p];
    }
}

void impact_merge(impact_stats *into, const impact_stats *from)
{
    if (from->k)
        into->k = from->k;
    into->overflow |= from->overflow;
    add(&into->games, from->games, &into->overflow);
    add(&into->rows, from->rows, &into->overflow);
    add(&into->player_games, from->player_games, &into->overflow);
    add(&into->win_units, from->win_units, &into->overflow);
    for (int i = 0; i < IMPACT_D; i++)
        for (int j = 0; j < IMPACT_D; j++) {
            add(&into->all[i][j], from->all[i][j], &into->overflow);
            add(&into->gain_all[i][j], from->gain_all[i][j], &into->overflow);
        }
    for (int c = 0; c < FOH_MAX_CARDS; c++) {
        add(&into->card_games[c], from->card_games[c], &into->overflow);
        add(&into->owned_n[c], from->owned_n[c], &into->overflow);
        add(&into->owned_win[c], from->owned_win[c], &into->overflow);
        for (int i = 0; i < IMPACT_D; i++) {
            add(&into->card_sum[c][i], from->card_sum[c][i], &into->overflow);
            for (int j = 0; j < IMPACT_D; j++)
                add(&into->card_sq[c][i][j], from->card_sq[c][i][j], &into->overflow);
        }
    }
}

/* Solve A b = Y (K x K) by Gauss-Jordan elimination with partial
 * pivoting, the columns scaled to a unit diagonal first. A feature that
 * the others determine (e.g. "whose turn" when every gain is the acting
 * player's), or that never varies, is dropped: its coefficient is 0, the
 * fitted values are the same. 0 if no feature is left. */
static int solve(int k, double a[IMPACT_MAX_K][IMPACT_MAX_K], double *y, double *b)
{
    double m[IMPACT_MAX_K][IMPACT_MAX_K + 1], scale[IMPACT_MAX_K];
    int kept = 0;
    for (int i = 0; i < k; i++)
        scale[i] = a[i][i] > 0 ? 1 / sqrt(a[i][i]) : 0;
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++)
            m[i][j] = a[i][j] * scale[i] * scale[j];
        m[i][k] = y[i] * scale[i];
    }
    for (int col = 0; col < k; col++) {
        int piv = col;
        for (int r = col + 1; r < k; r++)
            if (fabs(m[r][col]) > fabs(m[piv][col]))
                piv = r;
        if (fabs(m[piv][col]) < 1e-9) {
            /* Dropped: its row and column become those of b = 0. */
            for (int r = 0; r < k; r++)
                m[r][col] = m[col][r] = 0;
            m[col][col] = 1;
            m[col][k] = 0;
            continue;
        }
        kept++;
        for (int j = 0; j <= k; j++) {
            double t = m[col][j];
            m[col][j] = m[piv][j];
            m[piv][j] = t;
        }
        for (int r = 0; r < k; r++)
            if (r != col) {
                double f = m[r][col] / m[col][col];
                for (int j = col; j <= k; j++)
                    m[r][j] -= f * m[col][j];
            }
    }
    for (int i = 0; i < k; i++)
        b[i] = m[i][k] / m[i][i] * scale[i];
    return kept > 0;
}

typedef struct {
    int card;
    long n, games;
    double raw[2], expected[2], impact[2], low[2], high[2], vs_turn;
    int has_ci[2];
    int sig[2]; /* the interval excludes 0 after the Benjamini-Hochberg correction over the cards */
} card_row;

/* Impact of card C on outcome O (0 margin, 1 win units) given the
 * regression's coefficients B. */
static void card_impact(const impact_stats *s, int c, int o, const double *b, card_row *row)
{
    int k = s->k;
    long n = s->card_sum[c][0]; /* the intercept's column counts the gains */
    double sy = (double)s->card_sum[c][k + o], pred = 0;
    for (int j = 0; j < k; j++)
        pred += b[j] * (double)s->card_sum[c][j];
    double m = (sy - pred) / n;
    row->raw[o] = sy / n;
    row->expected[o] = pred / n;
    row->impact[o] = m;
    /* Clustered by game: sum over games of (R_g - m n_g)^2, R_g the
     * game's summed residuals, as the quadratic form w' S w. */
    double w[IMPACT_D] = {0};
    for (int j = 0; j < k; j++)
        w[j] = -b[j];
    w[0] -= m;
    w[k + o] = 1;
    double q = 0;
    for (int i = 0; i < k + 2; i++)
        for (int j = 0; j < k + 2; j++)
            q += w[i] * w[j] * (double)s->card_sq[c][i][j];
    long g = s->card_games[c];
    row->has_ci[o] = g >= 2;
    double half = g >= 2 && q > 0 ? Z95 * sqrt(q * g / (g - 1)) / n : 0;
    row->low[o] = m - half;
    row->high[o] = m + half;
}

static int by_impact(const void *a, const void *b)
{
    const card_row *x = a, *y = b;
    if (x->impact[1] != y->impact[1])
        return x->impact[1] < y->impact[1] ? 1 : -1;
    return x->card - y->card;
}

/* Fit the outcomes' regressions on the rows summed in M into B; R^2 of
 * each into R2. 0 if the rows do not determine them. */
int impact_fit(int k, const long m[IMPACT_D][IMPACT_D], int o, double *b)
{
    if (k <= 0 || k > IMPACT_MAX_K || m[0][0] <= k)
        return 0;
    double a[IMPACT_MAX_K][IMPACT_MAX_K], y[IMPACT_MAX_K];
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++)
            a[i][j] = (double)m[i][j];
        y[i] = (double)m[i][k + o];
    }
    return solve(k, a, y, b);
}

static int fit(const impact_stats *s, const long m[IMPACT_D][IMPACT_D], double b[2][IMPACT_MAX_K], double *r2)
{
    int k = s->k;
    long n = m[0][0];
    if (n <= k)
        return 0;
    double a[IMPACT_MAX_K][IMPACT_MAX_K];
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            a[i][j] = (double)m[i][j];
    for (int o = 0; o < 2; o++) {
        double y[IMPACT_MAX_K];
        for (int i = 0; i < k; i++)
            y[i] = (double)m[i][k + o];
        if (!solve(k, a, y, b[o]))
            return 0;
        double yy = (double)m[k + o][k + o], sy = (double)m[0][k + o], f = 0;
        for (int j = 0; j < k; j++)
            f += b[o][j] * (double)m[j][k + o];
        double sst = yy - sy * sy / n;
        r2[o] = sst > 0 ? 1 - (yy - f) / sst : 0;
    }
    return 1;
}

/* 1 if every figure of ROW and R2 is finite and within its range: R^2 in
 * [0, 1], win rates in [0, 100]%; an impact (an outcome less a linear
 * prediction, which may fall outside [0, 100]%) only finite. The laws a shard's sums are checked against (impact_shard.c)
 * keep an honest run's figures there; this refuses the table, with WHY,
 * rather than print a figure no game could give. */
static int figures_ok(const impact_stats *s, const card_row *r, const double r2[2], const foh_cardset *cs,
                      char *why, size_t why_len)
{
    const double w = WIN_UNITS, tol = 0.005;
    const struct {
        const char *name;
        double v, lo, hi;
    } f[] = {
        {"R^2 of the margin", r2[0], -tol, 1 + tol},
        {"R^2 of the win", r2[1], -tol, 1 + tol},
        {"owners' win rate", s->owned_n[r->card] ? 100.0 * s->owned_win[r->card] / w / s->owned_n[r->card] : 0, 0,
         100},
        {"gainers' win rate", 100.0 / w * r->raw[1], 0, 100},
        {"impact on the win", 100.0 / w * r->impact[1], -INFINITY, INFINITY},
        {"impact on the win vs turn", 100.0 / w * r->vs_turn, -INFINITY, INFINITY},
        {"low end of the impact on the win", r->has_ci[1] ? r->low[1] : 0, -INFINITY, INFINITY},
        {"high end of the impact on the win", r->has_ci[1] ? r->high[1] : 0, -INFINITY, INFINITY},
        {"impact on the margin", r->impact[0], -INFINITY, INFINITY},
        {"low end of the impact on the margin", r->has_ci[0] ? r->low[0] : 0, -INFINITY, INFINITY},
        {"high end of the impact on the margin", r->has_ci[0] ? r->high[0] : 0, -INFINITY, INFINITY},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!isfinite(f[i].v) || f[i].v < f[i].lo || f[i].v > f[i].hi) {
            foh_card_info ci;
            foh_cardset_card(cs, r->card, &ci);
            if (isfinite(f[i].lo))
                snprintf(why, why_len, "the sums give %s %g for %s, outside %g to %g: they are no run's", f[i].name,
                         f[i].v, ci.name, f[i].lo, f[i].hi);
            else
                snprintf(why, why_len, "the sums give %s %g for %s: they are no run's", f[i].name, f[i].v, ci.name);
            return 0;
        }
    return 1;
}

/* Each row's verdict per outcome: its p-value of "no impact" (normal, from
 * the interval's half width) through Benjamini-Hochberg at 5% over every
 * card with an interval, so that with some 60 cards about 3 are not
 * starred by chance alone (issue 31). Out of memory: none starred. */
static void mark_significant(card_row *rows, int nr)
{
    double *p = malloc((size_t)(nr > 0 ? nr : 1) * sizeof *p);
    int *mark = malloc((size_t)(nr > 0 ? nr : 1) * sizeof *mark);
    for (int o = 0; p && mark && o < 2; o++) {
        for (int i = 0; i < nr; i++) {
            double se = (rows[i].high[o] - rows[i].low[o]) / (2 * Z95);
            p[i] = rows[i].has_ci[o] && se > 0 ? erfc(fabs(rows[i].impact[o]) / se / sqrt(2.0)) : -1;
        }
        if (sim_bh(p, nr, 0.05, mark) >= 0)
            for (int i = 0; i < nr; i++)
                rows[i].sig[o] = mark[i];
    }
    free(p);
    free(mark);
}

/* The table's rows, sorted by impact on the win (*NR of them, malloc'd),
 * with the position's R^2 of each outcome; NULL with *WHY set when there
 * is no table. */
static card_row *impact_rows(const impact_stats *s, const foh_cardset *cs, int *nr, double r2g[2], char *why,
                             size_t why_len)
{
    int ncards = foh_cardset_card_count(cs);
    *nr = 0;
    if (s->overflow) {
        snprintf(why, why_len, "a sum overflowed 64 bits or memory ran out (run fewer games)");
        return NULL;
    }
    double bg[2][IMPACT_MAX_K], bt[2][IMPACT_MAX_K], r2t[2];
    if (!s->k || !fit(s, s->gain_all, bg, r2g) || !fit(s, s->all, bt, r2t)) {
        snprintf(why, why_len,
                 "the %ld positions and %ld gains recorded do not determine the regression (too few games, or "
                 "every game alike)",
                 s->rows, s->gain_all[0][0]);
        return NULL;
    }
    card_row *rows = calloc((size_t)(ncards > 0 ? ncards : 1), sizeof *rows);
    if (!rows) {
        snprintf(why, why_len, "out of memory");
        return NULL;
    }
    for (int c = 0; c < ncards; c++) {
        if (!s->card_sum[c][0])
            continue;
        card_row *r = &rows[(*nr)++], vs_turn;
        r->card = c;
        r->n = s->card_sum[c][0];
        r->games = s->card_games[c];
        for (int o = 0; o < 2; o++)
            card_impact(s, c, o, bg[o], r);
        card_impact(s, c, 1, bt[1], &vs_turn);
        r->vs_turn = vs_turn.impact[1];
    }
    for (int i = 0; i < *nr; i++)
        if (!figures_ok(s, &rows[i], r2g, cs, why, why_len)) {
            free(rows);
            *nr = 0;
            return NULL;
        }
    qsort(rows, (size_t)*nr, sizeof *rows, by_impact);
    mark_significant(rows, *nr);
    return rows;
}

void impact_print(FILE *out, const impact_stats *s, const foh_cardset *cs)
{
    int ncards = foh_cardset_card_count(cs);
    fprintf(out, "\nimpact of gaining each card (docs/impact.md): the gainers' final outcome minus the outcome\n"
                 "predicted from their position at the start of the turn they gained it (VP margin over the\n"
                 "best opponent, turn, cards, tokens in hand and invested, cards left in the deck, seat\n"
                 "order, whose turn) by a regression fitted on the gains of every card: how much better a\n"
                 "gain of this card does than the average gain from the same position. 'vs turn': the\n"
                 "same against a regression on every player-turn (any gain or none). 95%% CI clustered by\n"
                 "game; '*' where it excludes 0 after a Benjamini-Hochberg correction over the cards\n"
                 "(false-discovery rate 5%%)\n");
    int nr;
    double r2g[2];
    char why[300];
    card_row *rows = impact_rows(s, cs, &nr, r2g, why, sizeof why);
    if (!rows) {
        fprintf(out, "impact: not computed: %s\n", why);
        return;
    }
    fprintf(out, "%ld gains and %ld player-turns of %ld games; the position explains R^2 = %.2f of the gainer's "
                 "final margin, %.2f of the win\n",
            s->gain_all[0][0], s->rows, s->games, r2g[0], r2g[1]);
    double base = s->player_games ? 100.0 * s->win_units / WIN_UNITS / s->player_games : 0;
    fprintf(out, "%-24s %6s %7s %7s %24s %26s %7s\n", "card", "gains", "owners", "gainers", "impact on win [95% CI]",
            "impact on margin [95% CI]", "vs turn");
    fprintf(out, "%-24s %6s %7s %7s %24s %26s %7s\n", "", "", "win", "win", "(points of %)", "(VP)", "(win)");
    for (int i = 0; i < nr; i++) {
        const card_row *r = &rows[i];
        foh_card_info ci;
        foh_cardset_card(cs, r->card, &ci);
        char owners[16] = "-", ci_txt[2][48];
        if (s->owned_n[r->card])
            snprintf(owners, sizeof owners, "%.1f%%", 100.0 * s->owned_win[r->card] / WIN_UNITS / s->owned_n[r->card]);
        for (int o = 0; o < 2; o++) {
            double f = o ? 100.0 / WIN_UNITS : 1;
            int sig = r->sig[o];
            if (r->has_ci[o])
                snprintf(ci_txt[o], sizeof ci_txt[o], "%+6.1f [%+6.1f, %+6.1f]%s", f * r->impact[o], f * r->low[o],
                         f * r->high[o], sig ? "*" : " ");
            else
                snprintf(ci_txt[o], sizeof ci_txt[o], "%+6.1f [ too few games ]", f * r->impact[o]);
        }
        fprintf(out, "%-24s %6ld %7s %6.1f%% %25s %26s %+7.1f\n", ci.name, r->n, owners,
                100.0 / WIN_UNITS * r->raw[1], ci_txt[1], ci_txt[0], 100.0 / WIN_UNITS * r->vs_turn);
    }
    int never = 0;
    for (int c = 0; c < ncards; c++)
        never += !s->card_sum[c][0];
    if (never) {
        fprintf(out, "not gained during a turn (starting cards, or never gained):");
        for (int c = 0, k = 0; c < ncards; c++)
            if (!s->card_sum[c][0]) {
                foh_card_info ci;
                foh_cardset_card(cs, c, &ci);
                fprintf(out, "%s %s", k++ ? "," : "", ci.name);
            }
        fprintf(out, "\n");
    }
    fprintf(out, "base win rate %.1f%%; owners win: the old figure (the players owning it at the end); gainers win: "
                 "raw, before any control\n",
            base);
    free(rows);
}

json_t *impact_json(const impact_stats *s, const foh_cardset *cs)
{
    int nr;
    double r2g[2];
    char why[300];
    card_row *rows = impact_rows(s, cs, &nr, r2g, why, sizeof why);
    if (!rows)
        return json_pack("{s:s}", "not_computed", why);
    json_t *cards = json_array();
    for (int i = 0; i < nr; i++) {
        const card_row *r = &rows[i];
        foh_card_info ci;
        foh_cardset_card(cs, r->card, &ci);
        json_t *card = json_pack("{s:s,s:s,s:I,s:I}", "card", ci.id, "name", ci.name, "gains", (json_int_t)r->n,
                                 "games", (json_int_t)r->games);
        json_object_set_new(card, "owners_win_rate",
                            s->owned_n[r->card] ? json_real(100.0 * s->owned_win[r->card] / WIN_UNITS /
                                                            s->owned_n[r->card])
                                                : json_null());
        json_object_set_new(card, "gainers_win_rate", json_real(100.0 / WIN_UNITS * r->raw[1]));
        for (int o = 1; o >= 0; o--) {
            double f = o ? 100.0 / WIN_UNITS : 1;
            json_t *e = json_pack("{s:f}", "value", f * r->impact[o]);
            json_object_set_new(e, "low", r->has_ci[o] ? json_real(f * r->low[o]) : json_null());
            json_object_set_new(e, "high", r->has_ci[o] ? json_real(f * r->high[o]) : json_null());
            json_object_set_new(e, "significant", json_boolean(r->sig[o]));
            json_object_set_new(card, o ? "impact_on_win_points" : "impact_on_margin_vp", e);
        }
        json_object_set_new(card, "vs_turn_win_points", json_real(100.0 / WIN_UNITS * r->vs_turn));
        json_array_append_new(cards, card);
    }
    free(rows);
    return json_pack("{s:I,s:I,s:I,s:f,s:f,s:f,s:o}", "gains", (json_int_t)s->gain_all[0][0], "player_turns",
                     (json_int_t)s->rows, "games", (json_int_t)s->games, "r2_margin", r2g[0], "r2_win", r2g[1],
                     "base_win_rate", s->player_games ? 100.0 * s->win_units / WIN_UNITS / s->player_games : 0.0,
                     "cards", cards);
}

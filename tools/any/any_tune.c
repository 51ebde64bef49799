/* any_tune: foh tune for a card set of another ruleset, through the
 * ruleset interface alone (the numbers to change come from its
 * `tunables`; a change is a variant's `set:` path).
 *
 * The designer states what "even" means as targets:
 *   seat-spread=P       the seats' win rates within P points (max - min)
 *   kind-spread=P       the kinds of card's players' win rates within P points
 *   length=LO..HI       the mean game length in turns
 *   card:ID=LO..HI      the win rate (%) of the players who played card ID
 *   line:LABEL=LO..HI   a score line's mean at the end (e.g. line:Culture=4..6)
 * The loss is the sum of each target's distance outside its band (points
 * of win rate; turns / 5; the line's own units). The search changes one
 * number at a time by -2..+2 within its range: every candidate is
 * screened on a quarter of the games, the best three are played on all of
 * them (the same seeds as the base, so the comparison is paired), and the
 * best is kept if it lowers the loss by at least 5%; at most
 * --max-changes changes. The result is checked on fresh seeds (derived
 * from --seed, printed; another --seed gives other fresh seeds), the
 * variant written with --out records the card set and seed it was tuned
 * on. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "any/any.h"
#include "any/any_report.h"
#include "common/cli.h"
#include "foh/match.h"
#include "foh/ruleset.h"

#define TUNE_MAX_TARGETS 16
#define TUNE_MAX_PARAMS 16
#define TUNE_MAX_CHANGES 8

typedef enum { T_SEAT_SPREAD, T_KIND_SPREAD, T_LENGTH, T_CARD, T_LINE } target_kind;

typedef struct {
    target_kind kind;
    char arg[FOH_SCORE_LABEL]; /* card id or line label */
    double lo, hi;
    char text[160];            /* as given */
} target;

typedef struct {
    int tunable;               /* index into tun */
    int value;
} change;

typedef struct {
    cli_options o;
    target tg[TUNE_MAX_TARGETS];
    int ntg;
    const char *param[TUNE_MAX_PARAMS];
    int nparam;
    int max_changes;
    const char *out;
    foh_tunable *tun;
    int ntun;
    char tmp[64];              /* the candidates' variant folder */
} tuner;

/* The games of one evaluation. REP names the cards by the card set CS it
 * was played with, so the evaluation owns CS until release(). */
typedef struct {
    double seat[FOH_MAX_PLAYERS], turns;
    long games;
    foh_cardset *cs;
    any_report *rep;
} evaluation;

static int own_options(tuner *T, int *argc, char **argv)
{
    int n = 0;
    for (int i = 0; i < *argc; i++) {
        const char *a = argv[i];
        int own = !strcmp(a, "--target") || !strcmp(a, "--param") || !strcmp(a, "--max-changes") || !strcmp(a, "--out");
        if (!own) {
            argv[n++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc) {
            cli_error("tune", "%s needs a value", a);
            return 0;
        }
        const char *v = argv[++i];
        if (!strcmp(a, "--param") && T->nparam < TUNE_MAX_PARAMS)
            T->param[T->nparam++] = v;
        else if (!strcmp(a, "--out"))
            T->out = v;
        else if (!strcmp(a, "--max-changes"))
            T->max_changes = atoi(v);
        else if (!strcmp(a, "--target") && T->ntg < TUNE_MAX_TARGETS) {
            target *t = &T->tg[T->ntg++];
            snprintf(t->text, sizeof t->text, "%s", v);
            const char *eq = strchr(v, '=');
            char name[64];
            snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - v) : 0, v);
            const char *dots = eq ? strstr(eq + 1, "..") : NULL;
            char lo_text[64], *end1 = NULL, *end2 = NULL; /* "100..150": strtod would read "100." */
            snprintf(lo_text, sizeof lo_text, "%.*s", dots ? (int)(dots - eq - 1) : 63, eq ? eq + 1 : "");
            double a1 = strtod(lo_text, &end1), a2 = dots ? strtod(dots + 2, &end2) : 0;
            int range = dots && end1 > lo_text && !*end1 && end2 && end2 > dots + 2 && !*end2 && a1 <= a2;
            int one = eq && !dots && end1 > lo_text && !*end1 && a1 >= 0;
            t->lo = range ? a1 : 0;
            t->hi = range ? a2 : a1;
            if (!strcmp(name, "seat-spread") && one)
                t->kind = T_SEAT_SPREAD;
            else if (!strcmp(name, "kind-spread") && one)
                t->kind = T_KIND_SPREAD;
            else if (!strcmp(name, "length") && range)
                t->kind = T_LENGTH;
            else if ((!strncmp(name, "card:", 5) || !strncmp(name, "line:", 5)) && range && name[5]) {
                t->kind = name[0] == 'c' ? T_CARD : T_LINE;
                snprintf(t->arg, sizeof t->arg, "%s", name + 5);
            } else {
                cli_error("tune", "--target %s: seat-spread=P, kind-spread=P, length=LO..HI, card:ID=LO..HI or "
                                  "line:LABEL=LO..HI", v);
                return 0;
            }
        } else {
            cli_error("tune", "%s: at most %d of them", a, a[2] == 't' ? TUNE_MAX_TARGETS : TUNE_MAX_PARAMS);
            return 0;
        }
    }
    *argc = n;
    argv[n] = NULL;
    if (T->max_changes < 1 || T->max_changes > TUNE_MAX_CHANGES) {
        cli_error("tune", "--max-changes: 1 to %d", TUNE_MAX_CHANGES);
        return 0;
    }
    return 1;
}

int any_tune_applies(int argc, char **argv)
{
    cli_options o;
    cli_defaults(&o); /* where named card sets are looked up */
    o.cards = NULL;
    for (int i = 0; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--cards") && !o.cards)
            o.cards = argv[i + 1];
        else if (!strcmp(argv[i], "--mods") && o.nmods < CLI_MAX_MODS)
            o.mods[o.nmods++] = argv[i + 1];
    if (!o.cards)
        return 0;
    cli_sources src;
    cli_sources_of(&o, &src);
    const foh_ruleset *rs;
    foh_error err;
    return src.nsets > 0 && foh_ruleset_of_dir(src.sets[0], &rs, &err) == FOH_OK && rs != foh_ruleset_at(0);
}

/* The candidate variant: the changes CH (N of them) as a `set:`. */
static int write_changes(const tuner *T, const char *dir, const change *ch, int n, const char *about)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return 0;
    FILE *f = cli_create(path);
    if (!f)
        return 0;
    fprintf(f, "name: %s\ndescription: \"%s\"\nset:\n", strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir, about);
    for (int i = 0; i < n; i++)
        fprintf(f, "  %s: %d\n", T->tun[ch[i].tunable].path, ch[i].value);
    int ok = !ferror(f);
    return fclose(f) == 0 && ok;
}

/* Play GAMES games from SEED with the changes CH into EV; EV must be
 * released (release()) whatever this returns. */
static int evaluate(const tuner *T, const change *ch, int n, uint64_t seed, long games, evaluation *ev)
{
    cli_sources src;
    cli_sources_of(&T->o, &src);
    const char *variants[CLI_MAX_VARIANTS + 1];
    int nv = 0;
    for (int i = 0; i < src.nvariants; i++)
        variants[nv++] = src.variants[i];
    if (n > 0) {
        if (!write_changes(T, T->tmp, ch, n, "foh tune's candidate")) {
            cli_error("tune", "cannot write the candidate in %s: %s", T->tmp, strerror(errno));
            return 0;
        }
        variants[nv++] = T->tmp;
    }
    foh_error err;
    foh_cardset *cs = foh_cardset_load_sets(src.sets, src.nsets, variants, nv, src.search, src.nsearch, &err);
    foh_engine *eng = cs ? foh_engine_new_limited(cs, &T->o.limits, &err) : NULL;
    memset(ev, 0, sizeof *ev);
    ev->cs = cs;
    ev->rep = eng ? any_report_new(cs, T->o.players) : NULL;
    int ok = ev->rep != NULL;
    if (!eng)
        cli_error("tune", "%s", err.msg);
    for (long i = 0; ok && i < games; i++) {
        uint64_t s = foh_seed_for(seed, (uint64_t)i);
        foh_options opt = {.players = T->o.players, .seed = s};
        foh_player *seats[FOH_MAX_PLAYERS] = {0};
        foh_game *g = foh_game_new(eng, &opt, &err);
        double r[FOH_MAX_PLAYERS];
        foh_observer watch = any_report_observer(ev->rep);
        ok = g && any_bot_seats(&T->o, "tune", T->o.players, s, seats) &&
             foh_match_play(g, seats, &watch, 1, NULL, &err) == FOH_OK && foh_game_results(g, r, &err) == FOH_OK &&
             any_report_game(ev->rep, g, r, &err) == FOH_OK;
        if (!ok && g)
            cli_error("tune", "game %ld (seed %llu): %s", i + 1, (unsigned long long)s, err.msg);
        for (int p = 0; ok && p < T->o.players; p++)
            ev->seat[p] += r[p];
        if (ok) {
            ev->turns += foh_game_turn(g);
            ev->games++;
        }
        any_free_seats(seats, T->o.players);
        foh_game_free(g);
    }
    foh_engine_free(eng);
    return ok;
}

/* Target I's measured value in EV, and its distance outside the band (in
 * the loss's units) into *MISS. A target EV cannot measure (its card
 * played by no player, no score line so labelled, no kind of card played
 * in 30 player-games) is not met: NAN, and an infinite miss. */
static double measure(const tuner *T, int i, const evaluation *ev, double *miss)
{
    const target *t = &T->tg[i];
    double v = NAN, games = 0, lo = t->lo, hi = t->hi, scale = 1;
    switch (t->kind) {
    case T_SEAT_SPREAD: {
        double a = 1, b = 0;
        for (int p = 0; p < T->o.players; p++) {
            double r = ev->seat[p] / (double)ev->games;
            a = r < a ? r : a;
            b = r > b ? r : b;
        }
        v = ev->games > 0 ? 100 * (b - a) : NAN;
        break;
    }
    case T_KIND_SPREAD:
        if (any_report_kind_spread(ev->rep, 30, &v))
            v *= 100;
        else
            v = NAN;
        break;
    case T_LENGTH:
        v = ev->games > 0 ? ev->turns / (double)ev->games : NAN;
        scale = 5;
        break;
    case T_CARD: {
        double rate = 0;
        if (any_report_rate(ev->rep, t->arg, 0, &rate, &games) && games > 0)
            v = 100 * rate;
        break;
    }
    case T_LINE:
        if (!any_report_line_mean(ev->rep, t->arg, &v))
            v = NAN;
        break;
    }
    *miss = isnan(v) ? INFINITY : (v < lo ? lo - v : v > hi ? v - hi : 0) / scale;
    return v;
}

/* Why target I is not measured on EV (measure() gave NAN), for a message. */
static const char *unmeasured(const tuner *T, int i, const evaluation *ev)
{
    double rate, games;
    switch (T->tg[i].kind) {
    case T_CARD:
        return any_report_rate(ev->rep, T->tg[i].arg, 0, &rate, &games)
                   ? "no player played the card"
                   : "no card so named among those whose plays the ruleset reports";
    case T_LINE:
        return "no score line so labelled at the games' end";
    case T_KIND_SPREAD:
        return "no kind of card was played in 30 player-games";
    default:
        return "no game was played";
    }
}

static double loss(const tuner *T, const evaluation *ev)
{
    double sum = 0, miss;
    for (int i = 0; i < T->ntg; i++) {
        measure(T, i, ev, &miss);
        sum += miss;
    }
    return sum;
}

static void release(evaluation *ev)
{
    any_report_free(ev->rep);
    foh_cardset_free(ev->cs);
    ev->rep = NULL;
    ev->cs = NULL;
}

typedef struct {
    change c;
    double loss;
} candidate;

static int by_loss(const void *a, const void *b)
{
    double x = ((const candidate *)a)->loss, y = ((const candidate *)b)->loss;
    return x < y ? -1 : x > y;
}

static int wanted(const tuner *T, int k)
{
    for (int i = 0; i < T->nparam; i++)
        if (!strncmp(T->tun[k].path, T->param[i], strlen(T->param[i])))
            return 1;
    return T->nparam == 0;
}

/* One round: the best single change to add to CH (N), or 0. */
static int search_round(const tuner *T, change *ch, int n, double *best_loss)
{
    candidate *cand = malloc(sizeof *cand * (size_t)T->ntun * 4);
    int nc = 0, ok = cand != NULL;
    long screen = T->o.games / 4 > 4 ? T->o.games / 4 : 4;
    for (int k = 0; ok && k < T->ntun; k++) {
        int used = !wanted(T, k);
        for (int i = 0; i < n; i++)
            used |= ch[i].tunable == k;
        for (int d = -2; !used && ok && d <= 2; d++) {
            int v = T->tun[k].value + d;
            if (d == 0 || v < T->tun[k].lo || v > T->tun[k].hi)
                continue;
            evaluation ev;
            ch[n] = (change){k, v};
            ok = evaluate(T, ch, n + 1, T->o.seed, screen, &ev);
            if (ok) /* the smaller change first among equal losses */
                cand[nc++] = (candidate){ch[n], loss(T, &ev) + 0.01 * (d < 0 ? -d : d)};
            release(&ev);
        }
    }
    qsort(cand, (size_t)nc, sizeof *cand, by_loss);
    int found = 0;
    for (int i = 0; ok && i < nc && i < 3; i++) { /* the best three, on every game */
        evaluation ev;
        ch[n] = cand[i].c;
        ok = evaluate(T, ch, n + 1, T->o.seed, T->o.games, &ev);
        int d = ch[n].value - T->tun[ch[n].tunable].value;
        double l = ok ? loss(T, &ev) : 0, key = l + 0.01 * (d < 0 ? -d : d);
        release(&ev);
        if (ok && l <= *best_loss * 0.95 && (!found || key < cand[0].loss)) {
            cand[0] = (candidate){ch[n], key};
            found = 1;
        }
    }
    if (found) {
        int d = cand[0].c.value - T->tun[cand[0].c.tunable].value;
        ch[n] = cand[0].c;
        *best_loss = cand[0].loss - 0.01 * (d < 0 ? -d : d);
    }
    free(cand);
    return ok ? found : -1;
}

/* V in a column of WIDTH ("unmeasured" if NAN or infinite, see measure()). */
static const char *figure(double v, int width, char *buf, size_t size)
{
    if (isnan(v) || isinf(v))
        snprintf(buf, size, "%*s", width, "unmeasured");
    else
        snprintf(buf, size, "%*.2f", width, v);
    return buf;
}

static void print_targets(const tuner *T, const evaluation *base, const evaluation *tuned, const char *what)
{
    char f1[32], f2[32];
    printf("%s:\n", what);
    for (int i = 0; i < T->ntg; i++) {
        double m1, m2, v1 = measure(T, i, base, &m1), v2 = measure(T, i, tuned, &m2);
        printf("  %-32.32s base %s%s   tuned %s%s\n", T->tg[i].text, figure(v1, 8, f1, sizeof f1),
               m1 > 0 ? " (missed)" : "         ", figure(v2, 8, f2, sizeof f2), m2 > 0 ? " (missed)" : "");
    }
    printf("  loss: base %s, tuned %s\n", figure(loss(T, base), 0, f1, sizeof f1),
           figure(loss(T, tuned), 0, f2, sizeof f2));
}

static int run(tuner *T)
{
    change ch[TUNE_MAX_CHANGES + 1] = {{0, 0}};
    int n = 0, st = 0;
    evaluation base = {0}, tuned = {0}, vb = {0}, vt = {0};
    if (!evaluate(T, ch, 0, T->o.seed, T->o.games, &base)) {
        release(&base);
        return CLI_DATA;
    }
    for (int i = 0; i < T->ntg; i++) { /* a target never measured would be missed whatever the change */
        double miss;
        if (isnan(measure(T, i, &base, &miss))) {
            cli_error("tune", "--target %s: not measured on the base's %ld games: %s", T->tg[i].text, base.games,
                      unmeasured(T, i, &base));
            release(&base);
            return CLI_USAGE;
        }
    }
    double best = loss(T, &base);
    int chosen = 0;
    for (int k = 0; k < T->ntun; k++)
        chosen += wanted(T, k);
    if (chosen == 0) {
        cli_error("tune", "--param: no number of the card set's %d starts so (e.g. %s)", T->ntun, T->tun[0].path);
        release(&base);
        return CLI_USAGE;
    }
    printf("foh tune: %d numbers of the card set's %d may change; %ld games per evaluation, seed %llu, seats %s\n",
           chosen, T->ntun, T->o.games, (unsigned long long)T->o.seed, T->o.seats ? T->o.seats : "random");
    printf("base loss %.2f\n", best);
    while (n < T->max_changes && best > 0 && (st = search_round(T, ch, n, &best)) == 1) {
        printf("change %d: %s %d -> %d (loss %.2f)\n", n + 1, T->tun[ch[n].tunable].path, T->tun[ch[n].tunable].value,
               ch[n].value, best);
        n++;
    }
    if (st < 0) {
        release(&base);
        return CLI_DATA;
    }
    if (n == 0) {
        printf("no change of one number by -2..+2 lowers the loss by 5%% or more\n");
        release(&base);
        return CLI_OK;
    }
    uint64_t fresh = foh_seed_for(T->o.seed, 0x7e57ull); /* games no candidate was chosen on */
    int ok = evaluate(T, ch, n, T->o.seed, T->o.games, &tuned) && evaluate(T, ch, 0, fresh, T->o.games, &vb) &&
             evaluate(T, ch, n, fresh, T->o.games, &vt);
    if (ok) {
        print_targets(T, &base, &tuned, "on the search's games");
        char what[96];
        snprintf(what, sizeof what, "verified on %ld fresh games (seed %llu)", T->o.games, (unsigned long long)fresh);
        print_targets(T, &vb, &vt, what);
    }
    char about[1400];
    cli_sources src;
    cli_sources_of(&T->o, &src);
    snprintf(about, sizeof about, "foh tune on %s, seats %s, seed %llu, %ld games", src.nsets ? src.sets[0] : "?",
             T->o.seats ? T->o.seats : "random", (unsigned long long)T->o.seed, T->o.games);
    for (char *q = about; *q; q++) /* a YAML text in double quotes */
        *q = *q == '"' || *q == '\\' || (unsigned char)*q < 0x20 ? '\'' : *q;
    if (ok && T->out && !write_changes(T, T->out, ch, n, about)) {
        cli_error("tune", "cannot write %s: %s", T->out, strerror(errno));
        ok = 0;
    } else if (ok && T->out)
        printf("written: %s/variant.yaml (foh sim --cards %s --variant %s)\n", T->out, src.nsets ? src.sets[0] : "?",
               T->out);
    release(&base);
    release(&tuned);
    release(&vb);
    release(&vt);
    return ok ? CLI_OK : CLI_DATA;
}

static const cli_option_id TUNE_ANY_OPTIONS[] = {OPT_PLAYERS, OPT_SEED, OPT_GAMES, OPT_SEATS, OPT_CARDS, OPT_VARIANT,
                                                 OPT_MODS, OPT_LUA_INSTRUCTIONS, OPT_LUA_MEMORY, OPT_ACTION_TIME,
                                                 OPT_HELP, OPT_COUNT};
static const cli_command TUNE_ANY = {
    "tune", NULL, 0,
    "For a card set of another ruleset: search the ruleset's numbers (its tunables) for the fewest changes of\n"
    "-2..+2 that bring the targets' measures into their bands, and check the result on fresh seeds.\n",
    TUNE_ANY_OPTIONS,
    "tune's own options here:\n"
    "  --target T          seat-spread=P, kind-spread=P, length=LO..HI, card:ID=LO..HI, line:LABEL=LO..HI\n"
    "                      (repeatable; default seat-spread=4 and kind-spread=6)\n"
    "  --param PREFIX      only the numbers whose path starts so, e.g. cards.attack. or rules.age_x (repeatable)\n"
    "  --max-changes N     at most N changes (default 2)\n"
    "  --out DIR           write the tuned variant there\n"};

int any_tune(int argc, char **argv)
{
    tuner *T = calloc(1, sizeof *T);
    char **args = calloc((size_t)argc + 2, sizeof *args); /* args[0]: the command's word, which cli_parse reads */
    int status = T && args ? CLI_OK : CLI_DATA;
    if (status == CLI_OK) {
        args[0] = "tune";
        memcpy(args + 1, argv, sizeof *args * (size_t)argc);
        T->max_changes = 2;
        int n = argc;
        status = own_options(T, &n, args + 1) ? cli_parse(&TUNE_ANY, n, args + 1, &T->o) : CLI_USAGE;
    }
    if (status == CLI_OK && T->o.help)
        cli_help(&TUNE_ANY, stdout);
    if (status == CLI_OK && !T->o.help) {
        if (!(T->o.given >> OPT_GAMES & 1))
            T->o.games = 200;
        if (T->ntg == 0) {
            T->tg[T->ntg++] = (target){.kind = T_SEAT_SPREAD, .hi = 4, .text = "seat-spread=4"};
            T->tg[T->ntg++] = (target){.kind = T_KIND_SPREAD, .hi = 6, .text = "kind-spread=6"};
        }
        foh_error err;
        foh_cardset *cs = any_load(&T->o, &err);
        const foh_ruleset *rs = cs ? foh_cardset_ruleset(cs) : NULL;
        /* As many as the ruleset names: counted first, then listed. */
        int count = rs && rs->tunables ? rs->tunables(cs, NULL, 0) : 0;
        T->tun = count > 0 ? malloc(sizeof *T->tun * (size_t)count) : NULL;
        T->ntun = T->tun ? rs->tunables(cs, T->tun, count) : 0;
        snprintf(T->tmp, sizeof T->tmp, "/tmp/foh-tune-XXXXXX");
        if (!cs) {
            cli_error("tune", "%s", err.msg);
            status = CLI_DATA;
        } else if (T->ntun == 0) {
            cli_error("tune", "the ruleset '%s' names no numbers to tune", rs->name);
            status = CLI_USAGE;
        } else if (!mkdtemp(T->tmp)) {
            cli_error("tune", "cannot make a temporary folder: %s", strerror(errno));
            status = CLI_DATA;
        } else {
            status = run(T);
            char path[128];
            snprintf(path, sizeof path, "%s/variant.yaml", T->tmp);
            unlink(path);
            rmdir(T->tmp);
        }
        foh_cardset_free(cs);
        free(T->tun);
    }
    free(args);
    free(T);
    return status;
}

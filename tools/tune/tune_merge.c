/* tune_merge: see tune_merge.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/origin.h"
#include "tune/tune.h"
#include "tune/tune_candidates.h"
#include "tune/tune_evaluate.h"
#include "tune/tune_merge.h"
#include "tune/tune_search.h"
#include "tune/tune_shard.h"
#include "tune/tune_targets.h"

/* The run's description a shard file carries (tools/tune/tune_shard.h): every
 * option that shapes the search, so that the shards of one run agree and
 * the merge rebuilds the same tuner. NULL if out of memory. */
static json_t *run_json(const tuner *T, const candidate *base)
{
    json_t *og = json_object(), *pat = json_array();
    if (og && !origin_write(og, T->og)) {
        json_decref(og);
        og = NULL;
    }
    for (int i = 0; pat && i < T->npatterns; i++)
        json_array_append_new(pat, json_string(T->patterns[i]));
    json_t *tg = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f}", "seat_spread", T->tg.seat_spread, "start_spread",
                           T->tg.start_spread, "card_band", T->tg.card_band, "impact_band", T->tg.impact_band,
                           "length_lo", T->tg.length_lo, "length_hi", T->tg.length_hi);
    json_t *lim = json_pack("{s:I,s:I,s:I}", "instructions", (json_int_t)T->o.limits.instructions, "memory_bytes",
                            (json_int_t)T->o.limits.memory_bytes, "time_ms", (json_int_t)T->o.limits.time_ms);
    return json_pack("{s:o*,s:o*,s:i,s:s,s:I,s:I,s:i,s:b,s:o*,s:o*,s:I,s:i,s:f,s:o*,s:i,s:i}", "origin", og,
                     "sources", origin_sources(base->cs), "players",
                     T->o.players, "seats", T->o.seats, "seed", (json_int_t)T->o.seed, "games", (json_int_t)T->o.games,
                     "card_count", foh_cardset_card_count(base->cs), "impact", T->tg.impact_band >= 0, "targets", tg,
                     "tunable", pat, "budget", (json_int_t)T->budget, "max_changes", T->max_changes, "change_cost",
                     T->change_cost, "limits", lim, "tunables", T->ntun, "single_changes", T->nvalues_total);
}

/* A candidate as the shard file holds it (pointers into C: nothing copied). */
static tune_shard_cand shard_cand(const tuner *T, const candidate *c)
{
    tune_shard_cand s = {.path = c->n ? T->tun[c->ch[0].t].path : NULL,
                         .value = c->n ? c->ch[0].value : 0,
                         .rec = c->rec,
                         .st = c->st};
    return s;
}

int tune_save_shard(tuner *T, candidate *base, candidate **alive, int nalive)
{
    long G = T->o.games;
    tune_shard_cand *surv = calloc((size_t)(nalive ? nalive : 1), sizeof *surv);
    json_t *run = run_json(T, base);
    int n = 0;
    if (!surv || !run) {
        free(surv);
        json_decref(run);
        cli_error("tune", "out of memory");
        return CLI_DATA;
    }
    for (int i = 0; i < nalive; i++)
        if (alive[i]->games == G && !alive[i]->failed)
            surv[n++] = shard_cand(T, alive[i]);
    tune_shard_cand b = shard_cand(T, base);
    int ok = tune_shard_write(T->o.save_shard, run, T->o.shard, T->o.shards, T->spent - G, &b, surv, n);
    free(surv);
    json_decref(run);
    if (!ok)
        return CLI_DATA;
    printf("\nshard %d of %d: %d single change%s reached %ld games, %ld games played (the base's %ld and the "
           "screening's %ld) in %.0f s\nwrote %s: merge the %d shard files with foh tune --merge FILE...\n",
           T->o.shard, T->o.shards, n, n == 1 ? "" : "s", G, T->spent, G, T->spent - G, cli_now_s() - T->started,
           T->o.save_shard, T->o.shards);
    return CLI_OK;
}

/* The number KEY of the run description RUN (of FILE) within [LO, HI]; 0 after saying what is wrong. */
static int run_number(json_t *run, const char *file, const char *key, double lo, double hi, double *out)
{
    json_t *v = json_object_get(run, key);
    if (!json_is_number(v) || json_number_value(v) < lo || json_number_value(v) > hi) {
        cli_error("tune", "%s: run.%s: must be a number from %g to %g", file, key, lo, hi);
        return 0;
    }
    *out = json_number_value(v);
    return 1;
}

/* Set T's options and targets to those of the run description RUN (of
 * FILE), the first shard file's. 0 after saying what is wrong. */
static int tuner_from_run(tuner *T, json_t *run, const char *file)
{
    double x;
    char why[ORIGIN_PATH + 64];
    json_t *og = json_object_get(run, "origin"), *tg = json_object_get(run, "targets");
    json_t *pat = json_object_get(run, "tunable"), *lim = json_object_get(run, "limits");
    if (!(T->og = malloc(sizeof *T->og))) {
        cli_error("tune", "out of memory");
        return 0;
    }
    if (!json_is_object(og) || !origin_read(og, T->og, why, sizeof why)) {
        cli_error("tune", "%s: run.origin: %s", file, json_is_object(og) ? why : "must be an object");
        return 0;
    }
    origin_apply(T->og, &T->o);
    if (!json_is_string(json_object_get(run, "seats")) || !json_is_integer(json_object_get(run, "seed"))) {
        cli_error("tune", "%s: run.seats and run.seed: must be a string and a whole number", file);
        return 0;
    }
    T->o.seats = json_string_value(json_object_get(run, "seats"));
    T->o.seed = (uint64_t)json_integer_value(json_object_get(run, "seed"));
    T->o.players = (int)json_integer_value(json_object_get(run, "players")); /* checked by tune_shard_read */
    T->o.games = (long)json_integer_value(json_object_get(run, "games"));
    /* The seats as --seats reads them (cli_seats: the same specs, the same caps). */
    foh_player *probe[FOH_MAX_PLAYERS];
    if (T->o.players < 1 || T->o.players > FOH_MAX_PLAYERS || !cli_seats(&T->o, 0, probe)) {
        cli_error("tune", "%s: run.seats: '%s' is refused as --seats (above)", file, T->o.seats);
        return 0;
    }
    cli_free_seats(probe, T->o.players);
    if (T->o.games < 8) {
        cli_error("tune", "%s: run.games: at least 8 games per evaluation", file);
        return 0;
    }
    static const char *const TG[] = {"seat_spread", "start_spread", "card_band", "impact_band", "length_lo",
                                     "length_hi"};
    double *tgv[] = {&T->tg.seat_spread, &T->tg.start_spread, &T->tg.card_band, &T->tg.impact_band,
                     &T->tg.length_lo, &T->tg.length_hi};
    if (!json_is_object(tg)) {
        cli_error("tune", "%s: run.targets: must be an object", file);
        return 0;
    }
    /* Each as --target reads it (tune_target_check), -1: no such target. */
    static const char *const TG_OPT[] = {"seat-spread", "start-spread", "card-band", "impact-band", "length",
                                         "length"};
    for (size_t i = 0; i < sizeof TG / sizeof TG[0]; i++) {
        json_t *v = json_object_get(tg, TG[i]);
        if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < -1) {
            cli_error("tune", "%s: run.targets.%s: must be a number (-1: no such target)", file, TG[i]);
            return 0;
        }
        *tgv[i] = json_number_value(v);
    }
    for (size_t i = 0; i < sizeof TG / sizeof TG[0] - 1; i++) {
        int length = !strcmp(TG[i], "length_lo");
        double lo = *tgv[i], hi = length ? *tgv[i + 1] : -1;
        char twhy[160];
        if ((lo != -1 || (length && hi != -1)) && tune_target_check(TG_OPT[i], strlen(TG_OPT[i]), lo, hi, twhy,
                                                               sizeof twhy) != 1) {
            if (length)
                cli_error("tune", "%s: run.targets.length_lo and length_hi: %g..%g, refused as --target length: %s",
                          file, lo, hi, twhy);
            else
                cli_error("tune", "%s: run.targets.%s: %g, refused as --target %s: %s", file, TG[i], lo, TG_OPT[i],
                          twhy);
            return 0;
        }
    }
    if (!json_is_array(pat) || json_array_size(pat) > TUNE_MAX_PATTERNS) {
        cli_error("tune", "%s: run.tunable: must be a list of at most %d patterns", file, TUNE_MAX_PATTERNS);
        return 0;
    }
    for (size_t i = 0; i < json_array_size(pat); i++) {
        if (!json_is_string(json_array_get(pat, i))) {
            cli_error("tune", "%s: run.tunable[%zu]: must be a pattern (a string)", file, i);
            return 0;
        }
        T->patterns[T->npatterns++] = json_string_value(json_array_get(pat, i));
    }
    if (!run_number(run, file, "budget", 1, 1e8, &x))
        return 0;
    T->budget = (long)x;
    if (!run_number(run, file, "max_changes", 1, TUNE_MAX_CHANGES, &x))
        return 0;
    T->max_changes = (int)x;
    if (!run_number(run, file, "change_cost", 0, 1000, &T->change_cost))
        return 0;
    json_t *li = json_object_get(lim, "instructions"), *lm = json_object_get(lim, "memory_bytes"),
           *lt = json_object_get(lim, "time_ms");
    if (!json_is_integer(li) || !json_is_integer(lm) || !json_is_integer(lt) || json_integer_value(li) < 0 ||
        json_integer_value(lm) < 0 || json_integer_value(lt) < 0) {
        cli_error("tune", "%s: run.limits: must hold whole numbers instructions, memory_bytes and time_ms, 0 or "
                  "more (0: the default)", file);
        return 0;
    }
    /* 0 (the default) or within the command line's range. */
    const struct {
        const char *name, *option;
        json_int_t v, lo, hi;
    } L[] = {
        {"instructions", "--lua-instructions", json_integer_value(li), CLI_MIN_LUA_INSTRUCTIONS,
         CLI_MAX_LUA_INSTRUCTIONS},
        {"memory_bytes", "--lua-memory (MiB) x 2^20", json_integer_value(lm), (json_int_t)1 << 20,
         (json_int_t)CLI_MAX_LUA_MEMORY_MIB << 20},
        {"time_ms", "--action-time", json_integer_value(lt), 1, CLI_MAX_ACTION_TIME_MS},
    };
    for (size_t i = 0; i < sizeof L / sizeof L[0]; i++)
        if (L[i].v != 0 && (L[i].v < L[i].lo || L[i].v > L[i].hi)) {
            cli_error("tune", "%s: run.limits.%s: %lld, outside %lld..%lld as %s takes it (0: the default)", file,
                      L[i].name, (long long)L[i].v, (long long)L[i].lo, (long long)L[i].hi, L[i].option);
            return 0;
        }
    T->o.limits.instructions = (long)json_integer_value(li);
    T->o.limits.memory_bytes = (size_t)json_integer_value(lm);
    T->o.limits.time_ms = (long)json_integer_value(lt);
    return 1;
}

/* Move the games and sums of C (read from a shard file) into candidate D, played to G games. */
static void take_games(tuner *T, candidate *d, tune_shard_cand *c, long G)
{
    tune_games_free(&d->rec);
    d->rec = c->rec;
    memset(&c->rec, 0, sizeof c->rec);
    memcpy(d->st, c->st, sizeof *d->st);
    d->games = G;
    tune_update_loss(T, d);
}

/* The first field of the run description RUN that run_json does not write, or NULL. */
static const char *run_unknown_key(json_t *run)
{
    static const char *const RUN_KEYS[] = {"origin", "sources", "players", "seats", "seed", "games", "card_count",
                                           "impact", "targets", "tunable", "budget", "max_changes", "change_cost", "limits",
                                           "tunables", "single_changes"};
    const char *key;
    json_t *val;
    json_object_foreach(run, key, val)
    {
        size_t k = 0;
        while (k < sizeof RUN_KEYS / sizeof RUN_KEYS[0] && strcmp(RUN_KEYS[k], key))
            k++;
        if (k == sizeof RUN_KEYS / sizeof RUN_KEYS[0])
            return key;
    }
    return NULL;
}

/* Read the NF shard files of --merge into SH and check that they are the
 * parts of one run, each part once: *NP parts, (*PARTP)[i - 1] the file
 * holding part i (*PARTP malloc'd: the caller frees it, whatever the
 * result). 0 after saying what is wrong. */
static int read_parts(const tuner *T, tune_shard *sh, int nf, int **partp, int *np)
{
    for (int f = 0; f < nf; f++) {
        if (!tune_shard_read(T->files[f], &sh[f]))
            return 0;
        const char *key = run_unknown_key(sh[f].run);
        if (key) {
            cli_error("tune", "%s: run.%s: unknown field (a file of another version of foh, or edited?)",
                      T->files[f], key);
            return 0;
        }
        json_t *src = json_object_get(sh[f].run, "sources");
        char why[ORIGIN_PATH + 256];
        if (origin_sources_differ(src, src, T->files[f], T->files[f], why, sizeof why)) { /* a malformed list */
            cli_error("tune", "%s: run.%s", T->files[f], why);
            return 0;
        }
    }
    int n = sh[0].shards;
    int *part = *partp = malloc((size_t)n * sizeof *part);
    if (!part) {
        cli_error("tune", "out of memory");
        return 0;
    }
    for (int i = 0; i < n; i++)
        part[i] = -1;
    /* The run most files describe (ties: the first file's): a file that differs from it is named. */
    int major = 0, most = 0;
    for (int f = 0; f < nf; f++) {
        int same = 0;
        for (int g = 0; g < nf; g++)
            same += json_equal(sh[f].run, sh[g].run);
        if (same > most) {
            most = same;
            major = f;
        }
    }
    for (int f = 0; f < nf; f++) {
        /* The card set's files first: the message names the one that differs. */
        char why[ORIGIN_PATH + 256];
        if (origin_sources_differ(json_object_get(sh[major].run, "sources"), json_object_get(sh[f].run, "sources"),
                                  T->files[major], T->files[f], why, sizeof why)) {
            cli_error("tune", "%s: made from other contents of the card set than %s: %s", T->files[f],
                      T->files[major], why);
            return 0;
        }
        const char *key = tune_shard_run_differs(sh[f].run, sh[major].run);
        if (key) {
            cli_error("tune", "%s: another run than %s's%s: run.%s differs (or the file was edited)", T->files[f],
                      T->files[major], most > 1 ? " (and the other files')" : "", key);
            return 0;
        }
        if (sh[f].shards != n) {
            cli_error("tune", "%s: shard %d of %d, while %s is one of %d", T->files[f], sh[f].shard, sh[f].shards,
                      T->files[0], n);
            return 0;
        }
        if (part[sh[f].shard - 1] >= 0) {
            cli_error("tune", "%s: shard %d of %d, the same part as %s", T->files[f], sh[f].shard, n,
                      T->files[part[sh[f].shard - 1]]);
            return 0;
        }
        part[sh[f].shard - 1] = f;
    }
    for (int i = 0; i < n; i++)
        if (part[i] < 0) {
            cli_error("tune", "shard %d of %d is missing: its single changes would never be tried (give every "
                      "shard's file)", i + 1, n);
            return 0;
        }
    *np = n;
    return 1;
}

/* The base of the merged run (BASE, loaded here) against the shards' SH
 * (N parts, PART as read_parts gives it): the same card set, the same
 * games in every shard, and its first games played here the same. A CLI
 * status. */
static int check_base(tuner *T, candidates *cand, tune_shard *sh, const int *part, int n, candidate *base)
{
    long G = T->o.games;
    const char *first = T->files[part[0]];
    int st;
    json_t *run = sh[0].run, *now = origin_sources(base->cs);
    char why[ORIGIN_PATH + 256];
    if (!now || origin_sources_differ(json_object_get(run, "sources"), now, first, "the card set now", why,
                                      sizeof why)) {
        cli_error("tune", "%s: its card set has changed since the shards were made: %s", first,
                  now ? why : "out of memory");
        json_decref(now);
        return CLI_DATA;
    }
    json_decref(now);
    if (foh_cardset_card_count(base->cs) != sh[0].ncards ||
        json_integer_value(json_object_get(run, "tunables")) != T->ntun ||
        json_integer_value(json_object_get(run, "single_changes")) != T->nvalues_total) {
        cli_error("tune", "%s: the shards' card set had %d cards, %lld tunables and %lld single changes; here it "
                  "has %d, %d and %d: the card data differ", first, sh[0].ncards,
                  (long long)json_integer_value(json_object_get(run, "tunables")),
                  (long long)json_integer_value(json_object_get(run, "single_changes")),
                  foh_cardset_card_count(base->cs), T->ntun, T->nvalues_total);
        return CLI_DATA;
    }
    /* Every shard played the same base games; this machine plays its first ones the same. */
    for (int i = 1; i < n; i++) {
        long g;
        if (!tune_games_equal(&sh[part[0]].base.rec, &sh[part[i]].base.rec, G, &g)) {
            cli_error("tune", "%s: the base's game %ld differs from %s's: the shards did not play the same games "
                      "(another version of foh or of the card data, or an edited file?)", T->files[part[i]], g + 1, first);
            return CLI_DATA;
        }
    }
    long check = G < 8 ? G : 8, g;
    candidate *probe = tune_new_candidate(T, cand, NULL, (change){-1, 0});
    T->stage = "checking the base";
    if (!probe)
        return CLI_DATA;
    if ((st = tune_evaluate(T, &probe, 1, check)) != CLI_OK)
        return st;
    T->spent = 0;
    if (probe->failed || !tune_games_equal(&probe->rec, &sh[part[0]].base.rec, check, &g)) {
        tune_clear_progress(T);
        cli_error("tune", "the base's game %ld played here differs from the shards' (%s): another version of foh "
                  "or of the card data?%s%s", probe->failed ? 1 : g + 1, first, probe->failed ? " " : "",
                  probe->failed ? probe->why : "");
        return CLI_DATA;
    }
    tune_drop_candidate(probe);
    tune_clear_progress(T);
    printf("merged %d shard%s (the base's games 1..%ld played again here: the same)\n", n, n == 1 ? "" : "s",
           check);
    return CLI_OK;
}

/* The survivors of the shards' screening (SH, N parts, PART as read_parts
 * gives it), shard by shard in order, each checked to be a single change of
 * this run's tunables screened by one shard only, as candidates into
 * ALIVE[*NALIVEP...]; the games the shards' screening played added to
 * *SPENTP. 0 after saying what is wrong. */
static int take_survivors(tuner *T, candidates *cand, tune_shard *sh, const int *part, int n, candidate **alive,
                          int *nalivep, long *spentp)
{
    long G = T->o.games, spent = 0;
    int nalive = 0;
    /* What each shard screened: its share of the single changes, at most all of them surviving, at least
     * round 1's games each and at most the whole halving's. */
    int rounds;
    long n0;
    int screened = tune_screening_size(T, T->nvalues_total, T->budget - G, &rounds, &n0);
    for (int i = 0; i < n; i++) {
        tune_shard *s = &sh[part[i]];
        int mine = tune_shard_share(screened, i + 1, n);
        long least = (long)mine * (rounds > 1 ? n0 : G), most_games = tune_halving_cost(mine, rounds, n0, G);
        if (s->nsurv > mine || s->spent < least || s->spent > most_games) {
            cli_error("tune", "%s: %d survivor%s and %ld games spent, while shard %d of %d screens %d single "
                      "change%s (%ld to %ld games): the file may have been edited", T->files[part[i]], s->nsurv,
                      s->nsurv == 1 ? "" : "s", s->spent, i + 1, n, mine, mine == 1 ? "" : "s", least, most_games);
            return 0;
        }
    }
    for (int i = 0; i < n; i++) {
        tune_shard *s = &sh[part[i]];
        int from = nalive; /* this shard's survivors: alive[from, nalive) */
        spent += s->spent;
        for (int k = 0; k < s->nsurv; k++) {
            int t = 0;
            while (t < T->ntun && strcmp(T->tun[t].path, s->surv[k].path))
                t++;
            int v = s->surv[k].value;
            if (t == T->ntun || v < T->tun[t].lo || v > T->tun[t].hi || v == T->tun[t].base) {
                cli_error("tune", "%s: survivors[%d]: %s = %d is not a single change of this run", T->files[part[i]],
                          k, s->surv[k].path, v);
                return 0;
            }
            for (int j = 0; j < nalive; j++)
                if (alive[j]->ch[0].t == t && alive[j]->ch[0].value == v) {
                    cli_error("tune", "%s: survivors[%d]: %s = %d %s", T->files[part[i]], k, s->surv[k].path, v,
                              j >= from ? "is twice in this shard" : "was screened by another shard too");
                    return 0;
                }
            candidate *c = tune_new_candidate(T, cand, NULL, (change){t, v});
            if (!c)
                return 0;
            take_games(T, c, &s->surv[k], G);
            alive[nalive++] = c;
        }
        printf("shard %d of %d (%s): %d single change%s at %ld games, %ld games screened\n", i + 1, n,
               T->files[part[i]], s->nsurv, s->nsurv == 1 ? "" : "s", G, s->spent);
    }
    *nalivep = nalive;
    *spentp = spent;
    return 1;
}

int tune_run_merge(tuner *T, candidates *cand)
{
    int nf = T->nfiles, st = CLI_DATA;
    tune_shard *sh = calloc((size_t)nf, sizeof *sh);
    int *part = NULL; /* part[i - 1]: the file holding shard i */
    candidate **alive = NULL, *base = NULL;
    if (!sh) {
        cli_error("tune", "out of memory");
        return CLI_DATA;
    }
    int n;
    if (!read_parts(T, sh, nf, &part, &n))
        goto done;
    const char *first = T->files[part[0]];
    if (!tuner_from_run(T, sh[part[0]].run, first))
        goto done;
    long G = T->o.games;
    if (T->verify_games < 0)
        T->verify_games = G;
    if ((st = tune_prepare(T, cand, &base)) != CLI_OK)
        goto done;
    if ((st = check_base(T, cand, sh, part, n, base)) != CLI_OK)
        goto done;
    st = CLI_DATA;
    take_games(T, base, &sh[part[0]].base, G);
    tune_base_ready(T, base);
    /* The survivors, shard by shard in order, each a single change of this run's tunables. */
    int total = 0, nalive = 0;
    long spent = 0;
    for (int i = 0; i < n; i++)
        total += sh[part[i]].nsurv;
    if (!(alive = calloc((size_t)(total ? total : 1), sizeof *alive))) {
        cli_error("tune", "out of memory");
        goto done;
    }
    if (!take_survivors(T, cand, sh, part, n, alive, &nalive, &spent))
        goto done;
    qsort(alive, (size_t)nalive, sizeof *alive, tune_by_loss);
    /* The budget as one run counts it: the base once, then the screening of every shard. */
    T->spent = G + spent;
    st = tune_finish(T, cand, base, alive, nalive);
done:
    free(alive);
    free(part);
    for (int f = 0; f < nf; f++)
        tune_shard_free(&sh[f]);
    free(sh);
    return st;
}

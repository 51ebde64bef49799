/* tune_verify: see tune_verify.h. */
#define _DEFAULT_SOURCE /* open_memstream */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/provenance.h"

#include "tune/tune.h"
#include "tune/tune_candidates.h"
#include "tune/tune_evaluate.h"
#include "tune/tune_paired.h"
#include "tune/tune_report.h"
#include "tune/tune_verify.h"


typedef struct {
    char what[160];
    tune_figure f;
    int card;
} prediction;

/* The effects to verify: every target's figure, and each changed card's
 * owners' (and starters') win rate and, with an impact target, its impact,
 * each figure once. At most 5 + TUNE_MAX_CARD_TARGETS + 3 TUNE_MAX_CHANGES. */
static int predictions_of(const tuner *T, const candidate *base, const candidate *tuned, prediction *p)
{
    int n = 0;
    if (T->tg.seat_spread >= 0)
        p[n++] = (prediction){"seat spread (points)", TF_SEAT_SPREAD, -1};
    if (T->tg.start_spread >= 0)
        p[n++] = (prediction){"start spread (points)", TF_START_SPREAD, -1};
    if (T->tg.card_band >= 0)
        p[n++] = (prediction){"card band (points)", TF_OWNER_BAND, -1};
    if (T->tg.impact_band >= 0)
        p[n++] = (prediction){"impact band (points)", TF_IMPACT_BAND, -1};
    if (T->tg.length_lo >= 0)
        p[n++] = (prediction){"game length (turns)", TF_LENGTH, -1};
    for (int k = 0; k < T->tg.ncard; k++) {
        foh_card_info ci;
        foh_cardset_card(base->cs, T->tg.card[k].card, &ci);
        int owners = T->tg.card[k].figure == TUNE_CARD_OWNERS, dup = 0;
        for (int i = 0; i < n; i++)
            dup |= p[i].card == T->tg.card[k].card && p[i].f == (owners ? TF_OWNERS : TF_IMPACT);
        if (dup) /* the same figure of the same card, targeted twice */
            continue;
        snprintf(p[n].what, sizeof p[n].what, owners ? "owners of %s win (%%)" : "impact of %s (points)", ci.id);
        p[n].f = owners ? TF_OWNERS : TF_IMPACT;
        p[n++].card = T->tg.card[k].card;
    }
    for (int j = 0; j < tuned->n; j++) {
        int c = T->tun[tuned->ch[j].t].card, dup = 0;
        for (int i = 0; i < j; i++)
            dup |= T->tun[tuned->ch[i].t].card == c;
        if (c < 0 || dup)
            continue;
        foh_card_info ci;
        foh_cardset_card(base->cs, c, &ci);
        int listed = 0; /* already listed for a per-card target */
        for (int i = 0; i < n; i++)
            listed |= p[i].card == c && p[i].f == TF_OWNERS;
        if (!listed) {
            snprintf(p[n].what, sizeof p[n].what, "owners of %s win (%%)", ci.id);
            p[n].f = TF_OWNERS;
            p[n++].card = c;
        }
        snprintf(p[n].what, sizeof p[n].what, "starters of %s win (%%)", ci.id);
        p[n].f = TF_STARTERS;
        p[n++].card = c;
        int listed_impact = 0;
        for (int i = 0; i < n; i++)
            listed_impact |= p[i].card == c && p[i].f == TF_IMPACT;
        if (tune_wants_impact(&T->tg) && !listed_impact) {
            snprintf(p[n].what, sizeof p[n].what, "impact of %s (points)", ci.id);
            p[n].f = TF_IMPACT;
            p[n++].card = c;
        }
    }
    return n;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}

uint64_t tune_verify_seed(const tuner *T, const candidate *base, const candidate *best)
{
    if (T->verify_seed_given)
        return T->verify_seed;
    /* Derived from the run: its seed, the card set's contents, the changes
     * found, the players, seats and games, so that every run (another card
     * set, another result, other settings) verifies on games it has not
     * played, while the same run verifies on the same ones whatever the
     * threads or the order of its shard files (issue 31: a fixed offset
     * made iterating reuse the same "fresh" games). */
    uint64_t h = mix(T->o.seed, foh_cardset_hash(base->cs));
    for (int j = 0; j < best->n; j++)
        h = mix(mix(h, (uint64_t)best->ch[j].t), (uint64_t)(int64_t)best->ch[j].value);
    h = mix(mix(mix(h, (uint64_t)T->o.players), (uint64_t)T->o.games), (uint64_t)T->verify_games);
    for (const char *c = T->o.seats; *c; c++)
        h = mix(h, (unsigned char)*c);
    return h % 1000000000000ULL + 1; /* a seed a person can type */
}

/* The compare command that shows the verification figure by figure: the
 * same card sets, mods, limits and variants on both sides, the base's
 * merged variants on A, the written variant on B, the verification's
 * seeds. NULL if out of memory. */
static char *compare_command(const tuner *T, uint64_t seed)
{
    char *text = NULL, num[32];
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    fprintf(out, "foh compare --players %d --seats ", T->o.players);
    provenance_shell_word(out, T->o.seats);
    fprintf(out, " --games %ld --seed %" PRIu64, T->verify_games, seed);
    for (int i = 0; T->og && i < T->og->ncards; i++) {
        fputs(" --cards ", out);
        provenance_shell_word(out, T->og->cards[i]);
    }
    for (int i = 0; T->og && i < T->og->nmods; i++) {
        fputs(" --mods ", out);
        provenance_shell_word(out, T->og->mods[i]);
    }
    if (T->o.limits.instructions > 0)
        fprintf(out, " --lua-instructions %lld", (long long)T->o.limits.instructions);
    if (T->o.limits.memory_bytes > 0)
        fprintf(out, " --lua-memory %zu", T->o.limits.memory_bytes >> 20);
    if (T->o.limits.time_ms > 0)
        fprintf(out, " --action-time %lld", (long long)T->o.limits.time_ms);
    for (int i = 0; i < T->o.nvariants; i++)
        for (int k = 0; k < 2; k++) {
            fputs(k ? " --b-variant " : " --a-variant ", out);
            provenance_shell_word(out, T->o.variant_dir[i]);
        }
    for (int i = 0; i < T->nmerged; i++) {
        fputs(" --a-variant ", out);
        provenance_shell_word(out, T->merged_name[i]);
    }
    fputs(" --b-variant ", out);
    provenance_shell_word(out, T->out);
    (void)num;
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The verdict on one prediction: the predicted paired difference PP
 * against the measured one MP, both with their 95% intervals. A direction
 * is predicted when PP's interval excludes 0; the measurement confirms it
 * when its own interval excludes 0 on the same side, contradicts it on the
 * other, and does not show it when it includes 0. */
static const char *verdict(const tune_pair *pp, const tune_pair *mp, int *kind)
{
    double hp = TUNE_Z95 * sqrt(pp->var), hm = TUNE_Z95 * sqrt(mp->var);
    int dp = pp->diff - hp > 0 ? 1 : pp->diff + hp < 0 ? -1 : 0;
    int dm = mp->diff - hm > 0 ? 1 : mp->diff + hm < 0 ? -1 : 0;
    *kind = !dp ? 3 : dm == dp ? 0 : dm == -dp ? 1 : 2;
    static const char *const words[] = {"confirmed", "CONTRADICTED", "not shown (measured interval includes 0)",
                                        "no direction predicted"};
    return words[*kind];
}

int tune_verify(const tuner *T, candidates *cand, const candidate *base, const candidate *best)
{
    int st;
    prediction pred[5 + 3 * TUNE_MAX_CHANGES + TUNE_MAX_CARD_TARGETS];
    int np = predictions_of(T, base, best, pred);
    tuner V = *T;
    V.o.seed = tune_verify_seed(T, base, best);
    V.stage = "verification";
    candidate *vb = tune_new_candidate(&V, cand, NULL, (change){-1, 0});
    candidate *vt = vb ? tune_new_candidate(&V, cand, best, (change){-1, 0}) : NULL;
    if (!vt)
        return CLI_DATA;
    candidate *both[2] = {vb, vt};
    if ((st = tune_evaluate(&V, both, 2, T->verify_games)) != CLI_OK)
        return st;
    if (vb->failed || vt->failed) {
        tune_clear_progress(T);
        cli_error("tune", "verification: %s", vb->failed ? vb->why : vt->why);
        return CLI_DATA;
    }
    tune_clear_progress(T);
    printf("\nverification: base and tuned on fresh seeds (seed %llu, derived from this run: its seed, card set, "
           "changes, players, seats and games; --verify-seed %llu plays the same games again), %ld games each:\n",
           (unsigned long long)V.o.seed, (unsigned long long)V.o.seed, T->verify_games);
    tune_print_metrics(T, stdout, "base", vb);
    tune_print_metrics(T, stdout, "tuned", vt);
    int count[4] = {0, 0, 0, 0}, sized = 0, nv = 0;
    printf("paired differences tuned - base, game by game on the same seeds: the direction each prediction "
           "names checked\nagainst the measured interval; 'size': the measured difference within the prediction "
           "interval [95%% PI]\n");
    printf("%-34s %23s %18s %23s\n", "effect (tuned - base)", "predicted [95% CI]", "[95% PI]",
           "measured [95% CI]");
    for (int i = 0; i < np; i++) {
        tune_pair pp, mp;
        double xa, xb;
        if (!tune_paired_figure(T, base, best, pred[i].f, pred[i].card, &pp, &xa, &xb))
            continue;
        if (!tune_paired_figure(T, vb, vt, pred[i].f, pred[i].card, &mp, &xa, &xb)) {
            printf("%-34s %+7.2f [%+6.2f, %+6.2f] %18s %23s\n", pred[i].what, pp.diff,
                   pp.diff - TUNE_Z95 * sqrt(pp.var), pp.diff + TUNE_Z95 * sqrt(pp.var), "", "not measured");
            continue;
        }
        /* A prediction interval for the new paired measurement: the
         * search's variance of the difference and the verification's. */
        double hc = TUNE_Z95 * sqrt(pp.var), h = TUNE_Z95 * sqrt(pp.var + mp.var), hm = TUNE_Z95 * sqrt(mp.var);
        int kind, in = fabs(mp.diff - pp.diff) <= h;
        const char *v = verdict(&pp, &mp, &kind);
        count[kind]++;
        sized += in;
        nv++;
        printf("%-34s %+7.2f [%+6.2f, %+6.2f] [%+6.2f, %+6.2f] %+7.2f [%+6.2f, %+6.2f] %s; size %s\n", pred[i].what,
               pp.diff, pp.diff - hc, pp.diff + hc, pp.diff - h, pp.diff + h, mp.diff, mp.diff - hm, mp.diff + hm, v,
               in ? "as predicted" : "differs");
    }
    printf("directions: %d confirmed, %d contradicted, %d not shown, %d not predicted (of %d measured); sizes: %d "
           "within their prediction interval\n",
           count[0], count[1], count[2], count[3], nv, sized);
    double vmiss = vt->loss - T->change_cost * vt->n, bmiss = vb->loss;
    printf("on the fresh seeds the tuned variant %s the targets (miss %.2f; base %.2f): %s\n",
           vmiss <= 0 ? "meets" : "misses", vmiss, bmiss,
           vmiss < bmiss ? "closer than the base" : vmiss > bmiss ? "FURTHER from them than the base"
                                                                 : "as far as the base");
    if (T->out) {
        char *cmd = compare_command(T, V.o.seed);
        printf("the same comparison, figure by figure: ");
        cli_puts(stdout, cmd ? cmd : "(out of memory)");
        printf("\n");
        free(cmd);
    }
    return CLI_OK;
}

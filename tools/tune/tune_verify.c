/* tune_verify: see tune_verify.h. */
#include <math.h>
#include <stdio.h>

#include "tune/tune.h"
#include "tune/tune_candidates.h"
#include "tune/tune_evaluate.h"
#include "tune/tune_paired.h"
#include "tune/tune_report.h"
#include "tune/tune_verify.h"

/* The verification's seeds: the run's seed plus this. */
#define VERIFY_SEED_OFFSET 1000000

typedef struct {
    char what[160];
    tune_figure f;
    int card;
} prediction;

/* The effects to verify: every target's figure, and each changed card's
 * owners' (and starters') win rate and, with an impact target, its impact.
 * At most 5 + 3 TUNE_MAX_CHANGES. */
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
    for (int j = 0; j < tuned->n; j++) {
        int c = T->tun[tuned->ch[j].t].card, dup = 0;
        for (int i = 0; i < j; i++)
            dup |= T->tun[tuned->ch[i].t].card == c;
        if (c < 0 || dup)
            continue;
        foh_card_info ci;
        foh_cardset_card(base->cs, c, &ci);
        snprintf(p[n].what, sizeof p[n].what, "owners of %s win (%%)", ci.id);
        p[n].f = TF_OWNERS;
        p[n++].card = c;
        snprintf(p[n].what, sizeof p[n].what, "starters of %s win (%%)", ci.id);
        p[n].f = TF_STARTERS;
        p[n++].card = c;
        if (T->tg.impact_band >= 0) {
            snprintf(p[n].what, sizeof p[n].what, "impact of %s (points)", ci.id);
            p[n].f = TF_IMPACT;
            p[n++].card = c;
        }
    }
    return n;
}

int tune_verify(const tuner *T, candidates *cand, const candidate *base, const candidate *best)
{
    int st;
    prediction pred[5 + 3 * TUNE_MAX_CHANGES];
    int np = predictions_of(T, base, best, pred);
    tuner V = *T;
    V.o.seed = T->o.seed + VERIFY_SEED_OFFSET;
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
    printf("\nverification: base and tuned on fresh seeds (seed %llu, %ld games each):\n",
           (unsigned long long)V.o.seed, T->verify_games);
    tune_print_metrics(T, stdout, "base", vb);
    tune_print_metrics(T, stdout, "tuned", vt);
    int held = 0, nv = 0;
    printf("paired differences tuned - base, game by game on the same seeds; held: the measured one within the "
           "prediction interval\n");
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
        int ok = fabs(mp.diff - pp.diff) <= h;
        held += ok;
        nv++;
        printf("%-34s %+7.2f [%+6.2f, %+6.2f] [%+6.2f, %+6.2f] %+7.2f [%+6.2f, %+6.2f] %s\n", pred[i].what,
               pp.diff, pp.diff - hc, pp.diff + hc, pp.diff - h, pp.diff + h, mp.diff, mp.diff - hm,
               mp.diff + hm, ok ? "held" : "missed");
    }
    printf("%d of %d predictions held\n", held, nv);
    double vmiss = vt->loss - T->change_cost * vt->n;
    printf("on the fresh seeds the tuned variant %s the targets (miss %.2f; base %.2f)\n",
           vmiss <= 0 ? "meets" : "misses", vmiss, vb->loss);
    if (T->out) {
        printf("the same comparison, figure by figure: foh compare --players %d --seats %s --games %ld "
               "--seed %llu",
               T->o.players, T->o.seats, T->verify_games, (unsigned long long)V.o.seed);
        for (int i = 0; i < T->o.nvariants; i++)
            printf(" --a-variant %s --b-variant %s", T->o.variant[i], T->o.variant[i]);
        for (int i = 0; i < T->nmerged; i++)
            printf(" --a-variant %s", T->merged_name[i]);
        printf(" --b-variant %s\n", T->out);
    }
    return CLI_OK;
}

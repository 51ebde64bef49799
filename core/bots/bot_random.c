/* bot_random: the uniform random bot (see foh/bot.h). */
#include <stdlib.h>
#include <string.h>

#include "foh/bot.h"
#include "rng.h"

typedef struct {
    foh_player base;
    uint64_t rng[4];
} random_bot;

/* The pick among the legal actions LEGAL, N entries each standing for one
 * action, or, GROUPED, an entry of kind AMOUNTS (the ruleset's amount kind,
 * The Flow of History's Invest) for its amounts 1..tokens
 * (foh_game_legal_grouped): the index of the pick in the full listing, or
 * -1 if there is none. Kind first, so that Invest's many token amounts do
 * not crowd out the other actions: the kinds in order of first appearance,
 * each with its count, then one action of the kind drawn. */
static int pick(random_bot *b, const foh_action *legal, int n, int grouped, int amounts)
{
    enum { KINDS = FOH_MAX_ACTION_KINDS };
    int kinds[KINDS], count[KINDS] = {0}, start[KINDS], split = 0, nkinds = 0;
    for (int i = 0, j, at = 0; i < n; i = j) { /* AT: the full listing's index of entry I */
        int k = (int)legal[i].kind, stands_for;
        if (grouped) { /* a run of a few entries; Invest's stand for their amounts */
            for (j = i, stands_for = 0; j < n && (int)legal[j].kind == k; j++)
                stands_for += k == amounts ? legal[j].tokens : 1;
        } else {
            for (j = i + 1; j + 4 <= n && (int)legal[j].kind == k && (int)legal[j + 1].kind == k &&
                            (int)legal[j + 2].kind == k && (int)legal[j + 3].kind == k;)
                j += 4; /* long runs (amounts) four at a time */
            while (j < n && (int)legal[j].kind == k)
                j++;
            stands_for = j - i;
        }
        if (k >= 0 && k < KINDS) {
            if (count[k] == 0) {
                kinds[nkinds++] = k;
                start[k] = at;
            } else {
                split |= 1 << k;
            }
            count[k] += stands_for;
        }
        at += stands_for;
    }
    if (nkinds == 0)
        return -1;
    int kind = kinds[foh_rng_below(b->rng, (uint32_t)nkinds)];
    int draw = (int)foh_rng_below(b->rng, (uint32_t)count[kind]);
    if (!(split >> kind & 1))
        return start[kind] + draw; /* its one run */
    /* A kind in two runs (not a listing of this engine's; a caller's own). */
    for (int i = 0, at = 0; i < n; i++) {
        int stands_for = grouped && (int)legal[i].kind == amounts ? legal[i].tokens : 1;
        if ((int)legal[i].kind == kind) {
            if (draw < stands_for)
                return at + draw;
            draw -= stands_for;
        }
        at += stands_for;
    }
    return -1;
}

static int random_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                         foh_error *err)
{
    (void)g;
    (void)err;
    if (why && whylen > 0) {
        why[0] = '\0';
        strncat(why, "random", whylen - 1);
    }
    int at = pick((random_bot *)self, legal, n, 0, -1);
    return at < 0 ? 0 : at;
}

static int random_decide_grouped(foh_player *self, foh_game *g, const foh_action *grouped, int m, int n,
                                 foh_error *err)
{
    (void)g;
    (void)err;
    (void)n;
    int at = pick((random_bot *)self, grouped, m, 1, foh_game_amount_kind(g));
    return at < 0 ? 0 : at;
}

static void random_free(foh_player *self) { free(self); }

foh_player *foh_bot_random_new(uint64_t seed)
{
    random_bot *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->base.name = "random";
    b->base.decide = random_decide;
    b->base.decide_grouped = random_decide_grouped;
    b->base.free = random_free;
    b->base.instant = 1;
    foh_rng_seed(b->rng, seed);
    return &b->base;
}

void foh_player_free(foh_player *p)
{
    if (p && p->free)
        p->free(p);
}

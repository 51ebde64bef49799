/* bot_random: the uniform random bot (see foh/bot.h). */
#include <stdlib.h>
#include <string.h>

#include "foh/bot.h"
#include "rng.h"

typedef struct {
    foh_player base;
    uint64_t rng[4];
} random_bot;

static int random_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                         foh_error *err)
{
    random_bot *b = (random_bot *)self;
    (void)g;
    (void)err;
    /* Kind first, so that Invest's many token amounts do not crowd out the
     * other actions: the kinds in order of first appearance, each with its
     * count, in one pass over the runs of one kind (a listing has each
     * kind in one run; a kind found in two runs is counted all the same). */
    enum { KINDS = FOH_ACT_CUSTOM + 1 };
    int kinds[KINDS], count[KINDS] = {0}, start[KINDS], split = 0, nkinds = 0;
    for (int i = 0, j; i < n; i = j) {
        int k = (int)legal[i].kind;
        for (j = i + 1; j + 4 <= n && (int)legal[j].kind == k && (int)legal[j + 1].kind == k &&
                        (int)legal[j + 2].kind == k && (int)legal[j + 3].kind == k;)
            j += 4; /* long runs (Invest's amounts) four at a time */
        while (j < n && (int)legal[j].kind == k)
            j++;
        if (k < 0 || k >= KINDS)
            continue;
        if (count[k] == 0) {
            kinds[nkinds++] = k;
            start[k] = i;
        } else {
            split |= 1 << k;
        }
        count[k] += j - i;
    }
    if (nkinds == 0)
        return 0;
    int kind = kinds[foh_rng_below(b->rng, (uint32_t)nkinds)];
    int pick = (int)foh_rng_below(b->rng, (uint32_t)count[kind]), at = -1;
    if (!(split >> kind & 1))
        at = start[kind] + pick; /* its one run */
    else
        for (int i = 0; at < 0; i++)
            if ((int)legal[i].kind == kind && pick-- == 0)
                at = i;
    if (why && whylen > 0) {
        why[0] = '\0';
        strncat(why, "random", whylen - 1);
    }
    return at;
}

static void random_free(foh_player *self) { free(self); }

foh_player *foh_bot_random_new(uint64_t seed)
{
    random_bot *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->base.name = "random";
    b->base.decide = random_decide;
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

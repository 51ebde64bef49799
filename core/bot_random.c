/* bot_random: the uniform random bot (see foh/bot.h). */
#include <stdio.h>
#include <stdlib.h>

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
     * other actions. */
    int kinds[8], nkinds = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int k = 0; k < nkinds; k++)
            seen |= kinds[k] == (int)legal[i].kind;
        if (!seen && nkinds < 8)
            kinds[nkinds++] = (int)legal[i].kind;
    }
    int kind = kinds[foh_rng_below(b->rng, (uint32_t)nkinds)];
    int count = 0;
    for (int i = 0; i < n; i++)
        count += (int)legal[i].kind == kind;
    int pick = (int)foh_rng_below(b->rng, (uint32_t)count);
    for (int i = 0; i < n; i++)
        if ((int)legal[i].kind == kind && pick-- == 0) {
            if (why)
                snprintf(why, whylen, "random");
            return i;
        }
    return 0;
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
    foh_rng_seed(b->rng, seed);
    return &b->base;
}

void foh_player_free(foh_player *p)
{
    if (p && p->free)
        p->free(p);
}

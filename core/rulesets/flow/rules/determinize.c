/* determinize: replace what no player can see by a sample consistent with
 * what every player sees, so bots can search a copy without cheating
 * (information-set sampling, as in ISMCTS). */
#include "foh/game.h"
#include "internal.h"
#include "rng.h"

/* Whether CARD's deck position is public: the fixed bottom cards. */
static int fixed_card(const foh_cardset *cs, int card)
{
    for (int i = 0; i < cs->ndeck_bottom; i++)
        if (cs->deck_bottom[i] == card)
            return 1;
    return 0;
}

void flow_game_determinize(foh_game *g, uint64_t seed)
{
    const foh_cardset *cs = g->eng->cs;
    foh_state *st = &g->st;
    uint64_t rng[4];
    foh_rng_seed(rng, seed);
    /* Shuffle each run of same-age cards: everyone knows how many cards of
     * each age are left and that the ages are stacked, not their order. */
    for (int i = 0; i < st->ndeck;) {
        int age = cs->card[FOH_DECK(st)[i]].age, j = i;
        while (j < st->ndeck && cs->card[FOH_DECK(st)[j]].age == age)
            j++;
        int pos[FOH_MAX_CARDS], n = 0;
        for (int k = i; k < j; k++)
            if (!fixed_card(cs, FOH_DECK(st)[k]))
                pos[n++] = k;
        /* Canonical order first, so that the sample depends on the seed and
         * the public information only, never on the true hidden order. */
        for (int a = 1; a < n; a++)
            for (int b = a; b > 0 && FOH_DECK(st)[pos[b]] < FOH_DECK(st)[pos[b - 1]]; b--) {
                uint16_t t = FOH_DECK(st)[pos[b]];
                FOH_DECK(st)[pos[b]] = FOH_DECK(st)[pos[b - 1]];
                FOH_DECK(st)[pos[b - 1]] = t;
            }
        for (int k = n - 1; k > 0; k--) {
            int r = (int)foh_rng_below(rng, (uint32_t)k + 1);
            uint16_t t = FOH_DECK(st)[pos[k]];
            FOH_DECK(st)[pos[k]] = FOH_DECK(st)[pos[r]];
            FOH_DECK(st)[pos[r]] = t;
        }
        i = j;
    }
    /* Future chance (scripts' game.random) is unknown too. */
    foh_rng_seed(st->rng, foh_rng_next(rng));
    if (g->pending) {
        /* The action in progress re-runs from base: the unseen part of its
         * deck is the same cards, so it takes the same sample. Its chance
         * before the pause was seen (the choice may depend on it): the
         * re-run draws it again from base's generator, and takes the sample
         * from there on (game.random, lua_api.c). */
        for (int k = 0; k < st->ndeck && k < g->base.ndeck; k++)
            FOH_DECK(&g->base)[k] = FOH_DECK(st)[k];
        if (g->random_calls == 0) {
            for (int i = 0; i < 4; i++)
                g->base.rng[i] = st->rng[i];
        } else {
            g->random_fork_on = 1;
            g->random_fork_at = g->random_calls;
            for (int i = 0; i < 4; i++)
                g->random_fork[i] = st->rng[i];
        }
    }
}

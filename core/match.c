/* match: playing whole games (see foh/match.h). */
#include <stdlib.h>

#include "foh/match.h"
#include "rng.h"

int foh_match_legal(foh_game *g, foh_action **buf, int *cap)
{
    int n = foh_game_legal_actions(g, *buf, *cap);
    if (n > *cap) {
        int want = n + 64;
        foh_action *grown = realloc(*buf, (size_t)want * sizeof *grown);
        if (!grown)
            return -1;
        *buf = grown;
        *cap = want;
        n = foh_game_legal_actions(g, *buf, *cap);
    }
    return n;
}

foh_status foh_match_play(foh_game *g, foh_player *const *seats, long max_decisions, foh_match_observer observe,
                          void *ud, long *decisions, foh_error *err)
{
    foh_action *legal = NULL;
    int cap = 0;
    long taken = 0;
    foh_status s = FOH_OK;
    while (!foh_game_is_over(g)) {
        if (taken >= max_decisions) {
            s = foh_error_set(err, FOH_ERR_USAGE, "the game did not end within %ld decisions", max_decisions);
            break;
        }
        int n = foh_match_legal(g, &legal, &cap);
        if (n < 0) {
            s = foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
            break;
        }
        int who = foh_game_to_act(g);
        if (n <= 0 || who < 0) {
            s = foh_error_set(err, FOH_ERR_ILLEGAL, "no legal action for P%d", who + 1);
            break;
        }
        int pick = seats[who]->decide(seats[who], g, legal, n, NULL, 0);
        if (pick < 0 || pick >= n) {
            s = foh_error_set(err, FOH_ERR_USAGE, "player %s picked action %d of %d", seats[who]->name, pick, n);
            break;
        }
        if ((s = foh_game_apply(g, &legal[pick], err)) != FOH_OK)
            break;
        taken++;
        if (observe)
            observe(ud, g, &legal[pick], who);
    }
    free(legal);
    if (decisions)
        *decisions = taken;
    return s;
}

uint64_t foh_seed_for(uint64_t seed, uint64_t index) { return foh_rng_mix(seed, index); }

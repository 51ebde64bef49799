/* Fuzz target: action sequences. The input picks a rule set (base, 2-player
 * Banker, Korean edition), the player count, the seed, then each action:
 * a byte picks one of the legal actions, or (byte 255) the next bytes make
 * an arbitrary, usually illegal one, which must be rejected with the game
 * unchanged. The invariants are checked after every action, and a copy of
 * the game must have the same digest. Must never crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foh/foh.h"

#define CONFIGS 3
static foh_cardset *sets[CONFIGS]; /* loaded once per process */
static foh_engine *engines[CONFIGS];

static void set_up(void)
{
    static const char *const variant[CONFIGS] = {NULL, "two-player-banker", "korean-edition"};
    for (int c = 0; c < CONFIGS; c++) {
        char vdir[512];
        const char *dirs[1] = {vdir};
        snprintf(vdir, sizeof vdir, "%s/%s", FOH_FUZZ_VARIANTS, variant[c] ? variant[c] : "");
        foh_error err;
        sets[c] = foh_cardset_load_variants(FOH_FUZZ_CARDS, dirs, variant[c] ? 1 : 0, &err);
        engines[c] = sets[c] ? foh_engine_new(sets[c], &err) : NULL;
        if (!engines[c]) {
            fprintf(stderr, "fuzz_actions: %s\n", err.msg);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!engines[0])
        set_up();
    if (size < 10)
        return 0;
    int c = data[0] % CONFIGS;
    const foh_cardset *cs = sets[c];
    int lo = foh_cardset_min_players(cs), hi = foh_cardset_max_players(cs);
    foh_options opt = {.players = lo + data[1] % (hi - lo + 1), .seed = 0};
    for (int i = 2; i < 10; i++)
        opt.seed = opt.seed << 8 | data[i];
    foh_error err;
    foh_game *g = foh_game_new(engines[c], &opt, &err);
    if (!g)
        return 0; /* e.g. a player count the variant refuses */
    foh_game *copy = foh_game_clone(g);
    foh_action *legal = NULL;
    int cap = 0;
    for (size_t i = 10; i < size && !foh_game_is_over(g); i++) {
        foh_action a;
        if (data[i] == 255 && i + 4 < size) {
            a.kind = (foh_action_kind)(data[i + 1] % 8);
            a.card = (int)data[i + 2] - 2;
            a.tokens = (int)(int8_t)data[i + 3];
            a.option = (int)data[i + 4] - 2;
            i += 4;
            uint64_t before = foh_game_digest(g);
            if (foh_game_apply(g, &a, &err) != FOH_OK && foh_game_digest(g) != before)
                abort(); /* a rejected action changed the game */
        } else {
            int n = foh_match_legal(g, &legal, &cap, NULL);
            if (n < 1)
                break;
            a = legal[data[i] % n];
            if (foh_game_apply(g, &a, &err) != FOH_OK) {
                fprintf(stderr, "a legal action was refused: %s\n", err.msg);
                abort();
            }
        }
        if (foh_game_check_invariants(g, &err) != FOH_OK) {
            fprintf(stderr, "invariant broken: %s\n", err.msg);
            abort();
        }
        foh_game_copy(copy, g);
        if (foh_game_digest(copy) != foh_game_digest(g))
            abort();
    }
    free(legal);
    foh_game_free(copy);
    foh_game_free(g);
    return 0;
}

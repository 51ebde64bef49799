/* Fuzz target: variant files. The input is a variant's variant.yaml
 * (variants/NAME/), overlaid on the base card set as foh --variant does
 * (core/rulesets/flow/rules/variant.c): its set, params, cards, hooks and players. When the
 * card set loads, a short game is played on it with its hooks. Must never
 * crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "foh/foh.h"

/* The harness's scratch folder (one per process): DIR/variant.yaml. */
static char dir[256];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        char parent[200];
        snprintf(parent, sizeof parent, "/tmp/foh-fuzz-variant-%d", (int)getpid());
        mkdir(parent, 0700);
        snprintf(dir, sizeof dir, "%s/fuzzed", parent);
        mkdir(dir, 0700);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    foh_error err;
    const char *variants[1] = {dir};
    foh_cardset *cs = foh_cardset_load_variants(FOH_FUZZ_CARDS, variants, 1, &err);
    if (!cs)
        return 0;
    /* Small limits keep hostile hooks quick. */
    foh_script_limits limits = {.instructions = 200000, .memory_bytes = (size_t)8 << 20};
    foh_engine *eng = foh_engine_new_limited(cs, &limits, &err);
    /* A player count the card set and its variant allow (foh_cardset_min_players
     * is the card set's own), the first from one the input's size picks. */
    int players = 0;
    for (int k = 0; !players && k < FOH_MAX_PLAYERS; k++)
        if (foh_cardset_allows_players(cs, 1 + (int)((size + (size_t)k) % FOH_MAX_PLAYERS), NULL))
            players = 1 + (int)((size + (size_t)k) % FOH_MAX_PLAYERS);
    foh_options opt = {.players = players, .seed = size};
    foh_game *g = eng ? foh_game_new(eng, &opt, &err) : NULL;
    foh_action *legal = NULL;
    int cap = 0;
    for (int step = 0; g && step < 300 && !foh_game_is_over(g); step++) {
        int n = foh_match_legal(g, &legal, &cap, NULL);
        if (n < 1)
            break;
        uint64_t before = foh_game_digest(g);
        const foh_action *a = &legal[(size_t)step * 7919 % (size_t)n];
        if (foh_game_apply(g, a, &err) != FOH_OK) {
            if (foh_game_digest(g) != before)
                abort(); /* a refused action changed the game */
            break;
        }
    }
    free(legal);
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
    return 0;
}

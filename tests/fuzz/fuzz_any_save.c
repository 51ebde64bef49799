/* Fuzz target: the save files of a card set of another ruleset
 * (tools/any/any_save.c). The input is read as such a save, and its
 * actions replayed by name on a new game of the toy card set (tests/toy/),
 * each one found among the legal actions as foh play --load and foh replay
 * find it; a found action must apply. Must never crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "any/any_save.h"
#include "foh/foh.h"

static foh_cardset *cs; /* loaded once per process */
static foh_engine *eng;
static char path[256];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    foh_error err;
    if (!cs) {
        cs = foh_cardset_load(FOH_FUZZ_TOY_CARDS, &err);
        eng = cs ? foh_engine_new(cs, &err) : NULL;
        if (!eng)
            abort();
        snprintf(path, sizeof path, "/tmp/foh-fuzz-any-save-%d.json", (int)getpid());
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    any_save sv;
    char msg[2048];
    if (!any_save_read(path, &sv, msg, sizeof msg))
        return 0;
    foh_options opt = {.players = sv.players, .seed = sv.seed};
    foh_game *g = foh_game_new(eng, &opt, &err);
    foh_action *legal = NULL;
    int cap = 0;
    for (int i = 0; g && i < sv.nactions && !foh_game_is_over(g); i++) {
        int n = foh_match_legal(g, &legal, &cap, &err), k;
        if (n <= 0 || !any_save_find(&sv, i, g, legal, n, &k, msg, sizeof msg))
            break;
        if (k < 0 || k >= n || foh_game_apply(g, &legal[k], &err) != FOH_OK)
            abort(); /* a legal action found by its name must apply */
    }
    free(legal);
    foh_game_free(g);
    any_save_free(&sv);
    return 0;
}

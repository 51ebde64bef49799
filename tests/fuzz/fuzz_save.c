/* Fuzz target: save files. The input is read as a save file (tools/play/save.c),
 * checked against the base card set, and its actions replayed on a new
 * game, each one checked by the engine. Must never crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "foh/foh.h"
#include "play/save.h"

static foh_cardset *cs; /* loaded once per process */
static foh_engine *eng;
static char path[256];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    foh_error err;
    if (!cs) {
        cs = foh_cardset_load(FOH_FUZZ_CARDS, &err);
        eng = cs ? foh_engine_new(cs, &err) : NULL;
        if (!eng)
            abort();
        snprintf(path, sizeof path, "/tmp/foh-fuzz-save-%d.json", (int)getpid());
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    save_file sv;
    char msg[2048];
    if (!save_read(path, &sv, msg, sizeof msg))
        return 0;
    save_check_cardset(&sv, cs, msg, sizeof msg); /* a mismatch is reported, not fatal here */
    foh_options opt = {.players = sv.players, .seed = sv.seed};
    foh_game *g = foh_game_new(eng, &opt, &err);
    for (int i = 0; g && i < sv.nactions && !foh_game_is_over(g); i++) {
        foh_action a;
        if (!save_action(&sv, i, cs, &a, msg, sizeof msg))
            break;
        uint64_t before = foh_game_digest(g);
        if (foh_game_apply(g, &a, &err) != FOH_OK) {
            if (foh_game_digest(g) != before)
                abort(); /* a rejected action changed the game */
            break;
        }
    }
    foh_game_free(g);
    save_free(&sv);
    return 0;
}

/* Fuzz target: the card and variant YAML loader. An input starting with
 * "#variant" is a variant.yaml applied to the base card set; any other
 * input is the only card file of a card set (with the base game.yaml).
 * Loading checks the YAML, the fields and the Lua of each effect (run in
 * the sandbox at load); when it loads, a short game is played on it. Must
 * never crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "foh/foh.h"

/* The harness's scratch folder (one per process). */
static char dir[256];

static void set_up(void)
{
    snprintf(dir, sizeof dir, "/tmp/foh-fuzz-cardset-%d", (int)getpid());
    mkdir(dir, 0700);
    char path[512], line[512];
    FILE *in = fopen(FOH_FUZZ_CARDS "/game.yaml", "r");
    snprintf(path, sizeof path, "%s/game.yaml", dir);
    FILE *out = fopen(path, "w");
    while (in && out && fgets(line, sizeof line, in)) {
        if (!strncmp(line, "scripts:", 8))
            fprintf(out, "scripts: [%s/effects.lua]\n", FOH_FUZZ_SCRIPTS);
        else if (strncmp(line, "  deck_bottom:", 14))
            fputs(line, out);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0])
        set_up();
    int variant = size >= 8 && !memcmp(data, "#variant", 8);
    char path[512], vdir[300];
    snprintf(vdir, sizeof vdir, "%s/variant", dir);
    mkdir(vdir, 0700);
    snprintf(path, sizeof path, variant ? "%s/variant/variant.yaml" : "%s/cards.yaml", dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    foh_error err;
    const char *vdirs[1] = {vdir};
    foh_cardset *cs = variant ? foh_cardset_load_variants(FOH_FUZZ_CARDS, vdirs, 1, &err) : foh_cardset_load(dir, &err);
    if (!cs)
        return 0;
    /* Small limits keep hostile effects quick. */
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
        if (foh_game_apply(g, &legal[(size_t)step * 7919 % (size_t)n], &err) != FOH_OK)
            break;
    }
    free(legal);
    foh_game_free(g);
    foh_engine_free(eng);
    foh_cardset_free(cs);
    return 0;
}

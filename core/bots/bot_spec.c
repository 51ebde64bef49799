/* bot_spec: players from seat specs such as "greedy", "ismcts:2000" or
 * "ismcts:200:random" (docs/bots.md). */
#include <stdlib.h>
#include <string.h>

#include "foh/bot.h"

/* MODEL for the opponent model word W (N bytes); 0 if W names none. */
static int model_of(const char *w, size_t n, int *model)
{
    if (n == 6 && !strncmp(w, "greedy", 6))
        *model = FOH_ISMCTS_MODEL_GREEDY;
    else if (n == 6 && !strncmp(w, "random", 6))
        *model = FOH_ISMCTS_MODEL_RANDOM;
    else
        return 0;
    return 1;
}

foh_player *foh_bot_from_spec(const char *spec, uint64_t seed, foh_error *err)
{
    if (!strcmp(spec, "random"))
        return foh_bot_random_new(seed);
    if (!strcmp(spec, "greedy"))
        return foh_bot_greedy_new(seed);
    if (!strncmp(spec, "ismcts", 6) && (spec[6] == '\0' || spec[6] == ':')) {
        const char *rest = spec[6] ? spec + 7 : spec + 6, *colon = strchr(rest, ':');
        int model = FOH_ISMCTS_MODEL_GREEDY;
        size_t blen = colon ? (size_t)(colon - rest) : strlen(rest);
        /* "ismcts:random": the model alone, the default budget. */
        if (!colon && model_of(rest, blen, &model))
            return foh_bot_ismcts_new_model(seed, 0, 0, model);
        if (colon && !model_of(colon + 1, strlen(colon + 1), &model))
            blen = (size_t)-1; /* a bad model: refused below */
        if (spec[6] == '\0') /* "ismcts": the default budget and model */
            return foh_bot_ismcts_new_model(seed, 0, 0, model);
        char budget[32], *end;
        if (blen != (size_t)-1 && blen > 0 && blen < sizeof budget) {
            memcpy(budget, rest, blen);
            budget[blen] = '\0';
            double x = strtod(budget, &end);
            int ms = !strcmp(end, "ms");
            if (end != budget && x >= 1 && (ms || *end == '\0')) {
                /* A budget per decision that ends: a spec read from a save or
                 * a shard must not stall a game for days. */
                if (x > (ms ? FOH_ISMCTS_MAX_MS : FOH_ISMCTS_MAX_ITERATIONS)) {
                    foh_error_set(err, FOH_ERR_USAGE,
                                  "player '%s': ISMCTS takes at most %d iterations or %d ms per decision", spec,
                                  FOH_ISMCTS_MAX_ITERATIONS, FOH_ISMCTS_MAX_MS);
                    return NULL;
                }
                return ms ? foh_bot_ismcts_new_model(seed, 0, x, model)
                          : foh_bot_ismcts_new_model(seed, (long)x, 0, model);
            }
        }
    }
    foh_error_set(err, FOH_ERR_USAGE,
                  "unknown player '%s' (random, greedy, ismcts, ismcts:ITERATIONS, ismcts:MSms, each ismcts one "
                  "optionally followed by :greedy or :random, its opponent model)",
                  spec);
    return NULL;
}

/* bot_spec: players from seat specs such as "greedy" or "ismcts:2000". */
#include <stdlib.h>
#include <string.h>

#include "foh/bot.h"

foh_player *foh_bot_from_spec(const char *spec, uint64_t seed, foh_error *err)
{
    if (!strcmp(spec, "random"))
        return foh_bot_random_new(seed);
    if (!strcmp(spec, "greedy"))
        return foh_bot_greedy_new(seed);
    if (!strncmp(spec, "ismcts", 6) && (spec[6] == '\0' || spec[6] == ':')) {
        if (spec[6] == '\0')
            return foh_bot_ismcts_new(seed, 0, 0);
        char *end;
        double x = strtod(spec + 7, &end);
        int ms = !strcmp(end, "ms");
        if (end != spec + 7 && x >= 1 && (ms || *end == '\0')) {
            /* A budget per decision that ends: a spec read from a save or a
             * shard must not stall a game for days. */
            if (x > (ms ? FOH_ISMCTS_MAX_MS : FOH_ISMCTS_MAX_ITERATIONS)) {
                foh_error_set(err, FOH_ERR_USAGE,
                              "player '%s': ISMCTS takes at most %d iterations or %d ms per decision", spec,
                              FOH_ISMCTS_MAX_ITERATIONS, FOH_ISMCTS_MAX_MS);
                return NULL;
            }
            return ms ? foh_bot_ismcts_new(seed, 0, x) : foh_bot_ismcts_new(seed, (long)x, 0);
        }
    }
    foh_error_set(err, FOH_ERR_USAGE, "unknown player '%s' (random, greedy, ismcts, ismcts:ITERATIONS, ismcts:MSms)",
                  spec);
    return NULL;
}

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
    foh_error_set(err, FOH_ERR_USAGE, "unknown player '%s' (random, greedy)", spec);
    return NULL;
}

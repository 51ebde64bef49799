/* bot_spec: players from seat specs such as "greedy", "ismcts:2000" or
 * "ismcts:200:random" (docs/bots.md). */
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

/* The budget W (N bytes): digits alone, then "ms" or nothing, into *COUNT
 * and *MS (1: milliseconds). 0 for anything else, or a count past LIMIT+1
 * (read no further: it is over the limits whatever follows). The number is
 * read here and nowhere else, so a check and the bot never disagree on it
 * (strtol and strtod did: "6e4ms" was 6 to one, 60,000 to the other). */
static int budget_of(const char *w, size_t n, long limit, long *count, int *ms)
{
    size_t digits = 0;
    long x = 0;
    while (digits < n && w[digits] >= '0' && w[digits] <= '9') {
        if (x <= limit) /* past it: kept at limit+1, never overflowing */
            x = x * 10 + (w[digits] - '0');
        digits++;
    }
    if (digits == 0)
        return 0;
    *ms = n - digits == 2 && !strncmp(w + digits, "ms", 2);
    if (!*ms && digits != n)
        return 0;
    *count = x > limit ? limit + 1 : x;
    return 1;
}

static foh_status bad_spec(const char *spec, foh_error *err)
{
    return foh_error_set(err, FOH_ERR_USAGE,
                         "unknown player '%s' (random, greedy, ismcts, ismcts:ITERATIONS, ismcts:MSms, each ismcts "
                         "one optionally followed by :greedy or :random, its opponent model; a budget is digits "
                         "alone)",
                         spec);
}

foh_status foh_bot_spec_parse(const char *spec, foh_bot_spec *out, foh_error *err)
{
    foh_bot_spec b = {.kind = FOH_BOT_KIND_ISMCTS, .model = FOH_ISMCTS_MODEL_GREEDY};
    if (!strcmp(spec, "random") || !strcmp(spec, "greedy")) {
        b.kind = !strcmp(spec, "random") ? FOH_BOT_KIND_RANDOM : FOH_BOT_KIND_GREEDY;
        *out = b;
        return FOH_OK;
    }
    if (strncmp(spec, "ismcts", 6) || (spec[6] != '\0' && spec[6] != ':'))
        return bad_spec(spec, err);
    if (spec[6] == '\0') { /* "ismcts": the default budget and model */
        *out = b;
        return FOH_OK;
    }
    const char *rest = spec + 7, *colon = strchr(rest, ':');
    size_t blen = colon ? (size_t)(colon - rest) : strlen(rest);
    if (!colon && model_of(rest, blen, &b.model)) { /* "ismcts:random": the model alone, the default budget */
        *out = b;
        return FOH_OK;
    }
    if (colon && !model_of(colon + 1, strlen(colon + 1), &b.model))
        return bad_spec(spec, err);
    long count = 0;
    int ms = 0;
    long limit = FOH_ISMCTS_MAX_ITERATIONS > FOH_ISMCTS_MAX_MS ? FOH_ISMCTS_MAX_ITERATIONS : FOH_ISMCTS_MAX_MS;
    if (!budget_of(rest, blen, limit, &count, &ms) || count < 1)
        return bad_spec(spec, err);
    /* A budget per decision that ends: a spec read from a save or a shard
     * must not stall a game for days. */
    if (count > (ms ? FOH_ISMCTS_MAX_MS : FOH_ISMCTS_MAX_ITERATIONS))
        return foh_error_set(err, FOH_ERR_USAGE, "player '%s': ISMCTS takes at most %d iterations or %d ms per decision",
                             spec, FOH_ISMCTS_MAX_ITERATIONS, FOH_ISMCTS_MAX_MS);
    if (ms)
        b.ms = count;
    else
        b.iterations = count;
    *out = b;
    return FOH_OK;
}

foh_player *foh_bot_from_spec(const char *spec, uint64_t seed, foh_error *err)
{
    foh_bot_spec b;
    if (foh_bot_spec_parse(spec, &b, err) != FOH_OK)
        return NULL;
    switch (b.kind) {
    case FOH_BOT_KIND_RANDOM: return foh_bot_random_new(seed);
    case FOH_BOT_KIND_GREEDY: return foh_bot_greedy_new(seed);
    default: return foh_bot_ismcts_new_model(seed, b.iterations, (double)b.ms, b.model);
    }
}

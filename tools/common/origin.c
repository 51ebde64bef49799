/* origin: where a game's card set comes from (see origin.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "common/origin.h"

#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DIR made absolute into OUT (as given if it does not exist); 0 if too long. */
static int absolute(const char *dir, char out[ORIGIN_PATH], char *err, size_t len)
{
    char full[PATH_MAX];
    const char *p = realpath(dir, full) ? full : dir;
    if (strlen(p) >= ORIGIN_PATH) {
        snprintf(err, len, "the folder %s is longer than %d bytes", p, ORIGIN_PATH - 1);
        return 0;
    }
    /* Saves and shards record folders as JSON text, which holds UTF-8 only:
     * another name would be dropped from the file, unloadable later. */
    json_t *text = json_string(p);
    if (!text) {
        char safe[ORIGIN_PATH * 4];
        snprintf(err, len, "the folder %s: its name is not valid UTF-8 (saves and shards record folders as JSON "
                 "text)", cli_safe(p, safe, sizeof safe));
        return 0;
    }
    json_decref(text);
    memcpy(out, p, strlen(p) + 1);
    return 1;
}

int origin_of(const cli_options *o, origin *og, char *err, size_t len)
{
    memset(og, 0, sizeof *og);
    for (int i = 0; i <= o->nmore_cards; i++) {
        const char *name = i ? o->more_cards[i - 1] : o->cards;
        char found[ORIGIN_PATH];
        if (!cli_find(o, "cards", name, "game.yaml", found, sizeof found))
            snprintf(found, sizeof found, "%s", name);
        if (!absolute(found, og->cards[og->ncards++], err, len))
            return 0;
    }
    for (int i = 0; i < o->nvariants; i++)
        if (!absolute(o->variant_dir[i], og->variant[og->nvariants++], err, len))
            return 0;
    for (int i = 0; i < o->nenv_mods; i++)
        if (!absolute(o->env_mods[i], og->mods[og->nmods++], err, len))
            return 0;
    for (int i = 0; i < o->nmods; i++)
        if (!absolute(o->mods[i], og->mods[og->nmods++], err, len))
            return 0;
    return 1;
}

void origin_print_cards(FILE *out, const cli_options *o)
{
    origin *og = malloc(sizeof *og);
    char why[ORIGIN_PATH + 64];
    if (!og || !origin_of(o, og, why, sizeof why)) {
        fprintf(out, "card set "); /* as given: loading it said what is wrong */
        cli_puts(out, o->cards);
        free(og);
        return;
    }
    fprintf(out, "card set%s ", og->ncards > 1 ? "s" : "");
    for (int i = 0; i < og->ncards; i++) {
        fprintf(out, "%s", i ? " + " : "");
        cli_puts(out, og->cards[i]); /* from a shard with foh merge */
    }
    free(og);
}

static json_t *list(const char (*items)[ORIGIN_PATH], int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_string(items[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

int origin_write(json_t *root, const origin *og)
{
    int ok = json_object_set_new(root, "cards", json_string(og->cards[0])) == 0;
    if (og->ncards > 1)
        ok &= json_object_set_new(root, "more_cards", list(og->cards + 1, og->ncards - 1)) == 0;
    ok &= json_object_set_new(root, "variants", list(og->variant, og->nvariants)) == 0;
    if (og->nmods > 0)
        ok &= json_object_set_new(root, "mods", list(og->mods, og->nmods)) == 0;
    return ok;
}

/* The list KEY of ROOT (absent: empty unless REQUIRED) into OUT[0..MAX). */
static int read_list(json_t *root, const char *key, int required, char (*out)[ORIGIN_PATH], int max, int *n, char *why,
                     size_t len)
{
    json_t *a = json_object_get(root, key);
    *n = 0;
    if (!a && !required)
        return 1;
    if (!json_is_array(a) || json_array_size(a) > (size_t)max) {
        snprintf(why, len, "'%s' must list at most %d folders", key, max);
        return 0;
    }
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *v = json_array_get(a, i);
        if (!json_is_string(v) || json_string_length(v) >= ORIGIN_PATH) {
            snprintf(why, len, "'%s' must list folder names (of at most %d bytes)", key, ORIGIN_PATH - 1);
            return 0;
        }
        snprintf(out[(*n)++], ORIGIN_PATH, "%s", json_string_value(v));
    }
    return 1;
}

int origin_read(json_t *root, origin *og, char *why, size_t len)
{
    memset(og, 0, sizeof *og);
    json_t *cards = json_object_get(root, "cards");
    if (!json_is_string(cards) || json_string_length(cards) >= ORIGIN_PATH) {
        snprintf(why, len, "'cards' must be a folder name (of at most %d bytes)", ORIGIN_PATH - 1);
        return 0;
    }
    snprintf(og->cards[0], ORIGIN_PATH, "%s", json_string_value(cards));
    int more = 0;
    if (!read_list(root, "more_cards", 0, og->cards + 1, CLI_MAX_VARIANTS, &more, why, len) ||
        !read_list(root, "variants", 1, og->variant, CLI_MAX_VARIANTS, &og->nvariants, why, len) ||
        !read_list(root, "mods", 0, og->mods, CLI_MAX_MODS, &og->nmods, why, len))
        return 0;
    og->ncards = 1 + more;
    return 1;
}

int origin_equal(json_t *a, json_t *b)
{
    static const char *const keys[] = {"cards", "more_cards", "variants", "mods"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        json_t *x = json_object_get(a, keys[k]), *y = json_object_get(b, keys[k]);
        if ((x || y) && !json_equal(x, y))
            return 0;
    }
    return 1;
}

void origin_apply(const origin *og, cli_options *o)
{
    o->cards = og->cards[0];
    o->nmore_cards = og->ncards - 1;
    for (int i = 1; i < og->ncards; i++)
        o->more_cards[i - 1] = og->cards[i];
    o->nvariants = og->nvariants;
    for (int i = 0; i < og->nvariants; i++) {
        snprintf(o->variant_dir[i], sizeof o->variant_dir[i], "%s", og->variant[i]);
        o->variant[i] = o->variant_dir[i];
    }
    o->nenv_mods = 0;
    o->nmods = og->nmods;
    for (int i = 0; i < og->nmods; i++)
        o->mods[i] = og->mods[i];
}

json_t *origin_sources(const foh_cardset *cs)
{
    json_t *sources = json_array();
    for (int i = 0; sources && i < foh_cardset_source_count(cs); i++) {
        uint64_t h;
        const char *label = foh_cardset_source(cs, i, &h);
        char hex[17];
        snprintf(hex, sizeof hex, "%016" PRIx64, h);
        if (json_array_append_new(sources, json_pack("{s:s,s:s}", "file", label, "hash", hex)) != 0) {
            json_decref(sources);
            return NULL;
        }
    }
    return sources;
}

/* The hash recorded for FILE in the source list SOURCES, or NULL. */
static const char *source_hash(json_t *sources, const char *file)
{
    for (size_t i = 0; i < json_array_size(sources); i++) {
        json_t *src = json_array_get(sources, i);
        if (!strcmp(json_string_value(json_object_get(src, "file")), file))
            return json_string_value(json_object_get(src, "hash"));
    }
    return NULL;
}

/* Whether SOURCES is a list of {file, hash} strings. */
static int sources_valid(json_t *sources)
{
    if (!json_is_array(sources))
        return 0;
    for (size_t i = 0; i < json_array_size(sources); i++) {
        json_t *src = json_array_get(sources, i);
        if (!json_is_string(json_object_get(src, "file")) || !json_is_string(json_object_get(src, "hash")))
            return 0;
    }
    return 1;
}

/* The file and hash of entry I of the source list SOURCES. */
static const char *source_file(json_t *sources, size_t i)
{
    return json_string_value(json_object_get(json_array_get(sources, i), "file"));
}

static const char *source_hash_at(json_t *sources, size_t i)
{
    return json_string_value(json_object_get(json_array_get(sources, i), "hash"));
}

int origin_sources_differ(json_t *a, json_t *b, const char *name_a, const char *name_b, char *why, size_t len)
{
    if (!sources_valid(a) || !sources_valid(b)) {
        snprintf(why, len, "'sources' must be a list of the card set's files, each with a file and a hash");
        return 1;
    }
    /* The same card set lists the same files in the same order (the order
     * of its cards): one pass, and a search at the first difference. */
    size_t na = json_array_size(a), nb = json_array_size(b);
    for (size_t i = 0; i < na || i < nb; i++) {
        const char *fa = i < na ? source_file(a, i) : NULL, *fb = i < nb ? source_file(b, i) : NULL;
        if (fa && fb && !strcmp(fa, fb)) {
            if (!strcmp(source_hash_at(a, i), source_hash_at(b, i)))
                continue;
            snprintf(why, len, "%s differs (hash %s in %s, %s in %s)", fa, source_hash_at(a, i), name_a,
                     source_hash_at(b, i), name_b);
        } else if (fa && !source_hash(b, fa))
            snprintf(why, len, "%s is in %s only", fa, name_a);
        else if (fb && !source_hash(a, fb))
            snprintf(why, len, "%s is in %s only", fb, name_b);
        else if (!fa || !fb) /* the longer list names a file twice */
            snprintf(why, len, "%s is listed twice in %s", fa ? fa : fb, fa ? name_a : name_b);
        else
            snprintf(why, len, "the files are read in another order (%s in %s, %s in %s)", fa, name_a, fb, name_b);
        return 1;
    }
    return 0;
}

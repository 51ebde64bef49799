/* shard_provenance: see shard_provenance.h. */
#include "sim/shard_provenance.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/provenance.h"
#include "foh/file.h"

/* The content hash of a card set whose sources are SOURCES (a valid list
 * of {file, hash}): foh_cardset_hash's fold of each label's FNV-1a hash
 * and the file's hash (core/rulesets/flow/rules/cardset.c), so that it
 * can be checked without loading the set. 0 if a hash is not 16 hex. */
static int content_hash(json_t *sources, char hex[17])
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a 64's offset basis */
    for (size_t i = 0; i < json_array_size(sources); i++) {
        json_t *src = json_array_get(sources, i);
        const char *label = json_string_value(json_object_get(src, "file"));
        const char *text = json_string_value(json_object_get(src, "hash"));
        uint64_t file = 0;
        int used = 0;
        if (!label || !text || strlen(text) != 16 || sscanf(text, "%16" SCNx64 "%n", &file, &used) != 1 || used != 16)
            return 0;
        h = (h ^ foh_file_hash(label, strlen(label))) * 0x100000001b3ULL;
        h = (h ^ file) * 0x100000001b3ULL;
    }
    snprintf(hex, 17, "%016" PRIx64, h);
    return 1;
}

/* Whether A is a list of strings (at least MIN of them). */
static int strings(json_t *a, size_t min)
{
    if (!json_is_array(a) || json_array_size(a) < min)
        return 0;
    for (size_t i = 0; i < json_array_size(a); i++)
        if (!json_is_string(json_array_get(a, i)))
            return 0;
    return 1;
}

/* The shard's card set folders as provenance_json lists them: `cards`,
 * then `more_cards`. NULL if out of memory. */
static json_t *card_folders(json_t *root)
{
    json_t *list = json_array();
    if (list && json_array_append(list, json_object_get(root, "cards")) != 0) {
        json_decref(list);
        return NULL;
    }
    json_t *more = json_object_get(root, "more_cards");
    if (list && more && json_array_extend(list, more) != 0) {
        json_decref(list);
        return NULL;
    }
    return list;
}

/* The names of the variants among SOURCES ("variant NAME"), in order. */
static json_t *variant_names(json_t *sources)
{
    json_t *list = json_array();
    for (size_t i = 0; list && i < json_array_size(sources); i++) {
        const char *label = json_string_value(json_object_get(json_array_get(sources, i), "file"));
        if (label && !strncmp(label, "variant ", 8) && json_array_append_new(list, json_string(label + 8)) != 0) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

/* The fields of provenance_json's object, each with its type (the JSON_
 * type; JSON_TRUE stands for either boolean). */
static const struct {
    const char *key;
    json_type type;
} FIELDS[] = {{"engine", JSON_STRING},       {"command", JSON_ARRAY},  {"cards", JSON_ARRAY},
              {"variants", JSON_ARRAY},      {"content_hash", JSON_STRING}, {"base_set", JSON_TRUE},
              {"players", JSON_INTEGER},     {"seed", JSON_INTEGER},   {"seats", JSON_STRING}};
#define NFIELDS (sizeof FIELDS / sizeof FIELDS[0])

/* What is wrong with the fields of P and their types (into WHY), or NULL. */
static const char *bad_shape(json_t *p, char *why, size_t len)
{
    const char *key;
    json_t *v;
    json_object_foreach(p, key, v)
    {
        size_t k = 0;
        while (k < NFIELDS && strcmp(FIELDS[k].key, key))
            k++;
        if (k == NFIELDS) {
            snprintf(why, len, "'provenance.%s': unknown field (foh sim --save-shard writes %s, ..., %s)", key,
                     FIELDS[0].key, FIELDS[NFIELDS - 1].key);
            return why;
        }
    }
    static const char *const type_name[] = {[JSON_STRING] = "a text", [JSON_ARRAY] = "a list of texts",
                                            [JSON_TRUE] = "true or false", [JSON_INTEGER] = "a whole number"};
    for (size_t k = 0; k < NFIELDS; k++) {
        v = json_object_get(p, FIELDS[k].key);
        int ok = FIELDS[k].type == JSON_TRUE ? json_is_boolean(v)
                 : FIELDS[k].type == JSON_ARRAY ? strings(v, 0)
                                                : v && json_typeof(v) == FIELDS[k].type;
        if (!ok) {
            snprintf(why, len, "'provenance.%s' %s %s", FIELDS[k].key, v ? "must be" : "is missing: it must be",
                     type_name[FIELDS[k].type]);
            return why;
        }
    }
    return NULL;
}

const char *shard_provenance_bad(json_t *root, char *why, size_t len)
{
    json_t *p = json_object_get(root, "provenance"), *sources = json_object_get(root, "sources");
    if (!json_is_object(p)) {
        snprintf(why, len, "'provenance' %s (the object of the card set, engine and command foh sim --save-shard "
                           "records)", p ? "must be an object" : "is missing");
        return why;
    }
    if (bad_shape(p, why, len))
        return why;
    const char *engine = json_string_value(json_object_get(p, "engine"));
    if (strcmp(engine, provenance_engine())) {
        snprintf(why, len, "'provenance.engine' is '%.64s', while this is %s: a shard of another build played other "
                           "games (run its foh sim --save-shard with this one)", engine, provenance_engine());
        return why;
    }
    json_t *command = json_object_get(p, "command");
    if (json_array_size(command) == 0 || strcmp(json_string_value(json_array_get(command, 0)), "foh")) {
        snprintf(why, len, "'provenance.command' must list the command's words, \"foh\" first");
        return why;
    }
    char hex[17];
    const char *recorded = json_string_value(json_object_get(p, "content_hash"));
    if (!content_hash(sources, hex) || strcmp(recorded, hex)) {
        snprintf(why, len, "'provenance.content_hash' is '%.64s', while the shard's 'sources' give %s", recorded, hex);
        return why;
    }
    json_t *cards = card_folders(root), *variants = variant_names(sources);
    const char *differs = !cards || !variants                                     ? "out of memory"
                          : !json_equal(json_object_get(p, "cards"), cards)       ? "cards"
                          : !json_equal(json_object_get(p, "variants"), variants) ? "variants"
                                                                                  : NULL;
    int alone = json_array_size(cards) == 1 && json_array_size(variants) == 0;
    json_decref(cards);
    json_decref(variants);
    static const char *const same[] = {"players", "seats", "seed"};
    for (size_t k = 0; !differs && k < sizeof same / sizeof same[0]; k++)
        if (!json_equal(json_object_get(p, same[k]), json_object_get(root, same[k])))
            differs = same[k];
    if (differs && !strcmp(differs, "out of memory"))
        return "out of memory";
    if (differs) {
        snprintf(why, len, "'provenance.%s' differs from the shard's %s", differs,
                 !strcmp(differs, "variants") ? "variants among its 'sources'"
                 : !strcmp(differs, "cards")  ? "'cards' and 'more_cards'"
                                              : "own");
        return why;
    }
    if (json_is_true(json_object_get(p, "base_set")) && !alone) {
        snprintf(why, len, "'provenance.base_set' is true, while the shard's card set has variants or more card sets");
        return why;
    }
    return NULL;
}

/* provenance: what a report was made from (see provenance.h). */
#define _DEFAULT_SOURCE /* realpath, open_memstream */
#include "common/provenance.h"

#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/origin.h"

#ifndef FOH_VERSION
#define FOH_VERSION "unknown"
#endif

int provenance_is_base(const cli_options *o, const foh_cardset *cs)
{
    if (o->nmore_cards > 0 || foh_cardset_variant_count(cs) > 0)
        return 0;
    char base[PATH_MAX], given[PATH_MAX], found[PATH_MAX];
    if (!cli_find(o, "cards", o->cards, "game.yaml", found, sizeof found))
        snprintf(found, sizeof found, "%s", o->cards);
    return realpath(o->data.cards, base) && realpath(found, given) && !strcmp(base, given);
}

const char *provenance_engine(void)
{
    return "foh " FOH_VERSION;
}

void provenance_hash(const foh_cardset *cs, char hex[17])
{
    snprintf(hex, 17, "%016" PRIx64, foh_cardset_hash(cs));
}

void provenance_shell_word(FILE *out, const char *word)
{
    int plain = word[0] != '\0';
    for (const char *p = word; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                strchr(",.:/_+=@%-", *p);
    if (plain) {
        fputs(word, out);
        return;
    }
    fputc('\'', out);
    for (const char *p = word; *p; p++)
        fputs(*p == '\'' ? "'\\''" : (char[2]){*p, '\0'}, out);
    fputc('\'', out);
}

char *provenance_command(const cli_options *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    fputs("foh", out);
    if (o->command) {
        fputc(' ', out);
        provenance_shell_word(out, o->command);
    }
    for (int i = 0; i < o->argc; i++) {
        fputc(' ', out);
        provenance_shell_word(out, o->argv[i]);
    }
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

json_t *provenance_json(const cli_options *o, const foh_cardset *cs)
{
    char hex[17];
    provenance_hash(cs, hex);
    json_t *root = json_object(), *command = json_array(), *cards = json_array(), *variants = json_array();
    json_array_append_new(command, json_string("foh"));
    if (o->command)
        json_array_append_new(command, json_string(o->command));
    for (int i = 0; i < o->argc; i++)
        json_array_append_new(command, json_string(o->argv[i])); /* NULL (not UTF-8): dropped, not a crash */
    origin *og = malloc(sizeof *og);
    char why[ORIGIN_PATH + 64];
    if (og && origin_of(o, og, why, sizeof why))
        for (int i = 0; i < og->ncards; i++)
            json_array_append_new(cards, json_string(og->cards[i]));
    free(og);
    for (int i = 0; i < foh_cardset_variant_count(cs); i++)
        json_array_append_new(variants, json_string(foh_cardset_variant_name(cs, i)));
    if (!root || !command || !cards || !variants ||
        json_object_set_new(root, "engine", json_string(provenance_engine())) != 0 ||
        json_object_set_new(root, "command", command) != 0 || json_object_set_new(root, "cards", cards) != 0 ||
        json_object_set_new(root, "variants", variants) != 0 ||
        json_object_set_new(root, "content_hash", json_string(hex)) != 0 ||
        json_object_set_new(root, "base_set", json_boolean(provenance_is_base(o, cs))) != 0 ||
        json_object_set_new(root, "players", json_integer(o->players)) != 0 ||
        json_object_set_new(root, "seed", json_integer((json_int_t)o->seed)) != 0 ||
        json_object_set_new(root, "seats", json_string(o->seats)) != 0) {
        json_decref(root);
        return NULL;
    }
    return root;
}

void provenance_print(FILE *out, const cli_options *o, const foh_cardset *cs)
{
    char hex[17];
    provenance_hash(cs, hex);
    fprintf(out, "provenance: content hash %s (%s), foh %s, command: ", hex,
            provenance_is_base(o, cs) ? "the base set as shipped" : "not the base set as shipped", FOH_VERSION);
    char *command = provenance_command(o);
    cli_puts(out, command ? command : "(out of memory)");
    free(command);
    fputc('\n', out);
}

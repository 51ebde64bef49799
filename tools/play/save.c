/* save: writing and reading save files (see save.h, docs/save-format.md).
 * Everything read is checked: a corrupt or hand-edited file gets a message
 * with its position, never a crash. */
#include "play/save.h"

#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *hex64(uint64_t x)
{
    char buf[17];
    snprintf(buf, sizeof buf, "%016" PRIx64, x);
    return json_string(buf);
}

int save_entry_set(save_entry *e, const foh_game *g, const foh_action *a)
{
    e->action = *a;
    e->choice = NULL;
    const foh_choice *ch = foh_game_choice(g);
    if (ch && a->kind == FOH_ACT_CHOOSE) {
        e->choice = malloc(sizeof *e->choice);
        if (!e->choice)
            return 0;
        *e->choice = *ch;
    }
    return 1;
}

void save_entry_free(save_entry *e)
{
    free(e->choice);
    e->choice = NULL;
}

int save_write(const char *path, const cli_options *o, const foh_cardset *cs, const foh_game *g,
               const save_entry *entries, int n, char *why, size_t whylen)
{
    /* Absolute folders: the save loads from any working directory. */
    origin *og = malloc(sizeof *og);
    char bad[ORIGIN_PATH + 64];
    if (!og || !origin_of(o, og, bad, sizeof bad)) {
        snprintf(why, whylen, "%s: %s", path, og ? bad : "out of memory");
        free(og);
        return 0;
    }
    json_t *root = json_object(), *acts = json_array();
    json_object_set_new(root, "format", json_string(SAVE_FORMAT));
    origin_write(root, og);
    free(og);
    json_object_set_new(root, "card_set_hash", hex64(foh_cardset_hash(cs)));
    json_object_set_new(root, "sources", origin_sources(cs));
    json_object_set_new(root, "options",
                        json_pack("{s:i,s:I,s:s,s:I,s:I,s:I}", "players", o->players, "seed", (json_int_t)o->seed,
                                  "seats", o->seats, "lua_instructions", (json_int_t)o->limits.instructions,
                                  "lua_memory_mib", (json_int_t)(o->limits.memory_bytes >> 20), "action_time_ms",
                                  (json_int_t)o->limits.time_ms));
    for (int i = 0; i < n; i++) {
        const foh_action *a = &entries[i].action;
        const foh_choice *ch = entries[i].choice;
        json_t *x = json_pack("{s:s}", "kind", foh_action_kind_name(a->kind));
        if (a->card >= 0) {
            foh_card_info ci;
            foh_cardset_card(cs, a->card, &ci);
            json_object_set_new(x, "card", json_string(ci.id));
        }
        if (a->kind == FOH_ACT_INVEST)
            json_object_set_new(x, "tokens", json_integer(a->tokens));
        if (a->kind == FOH_ACT_CHOOSE)
            json_object_set_new(x, "option", json_integer(a->option));
        if (a->kind == FOH_ACT_CUSTOM) {
            json_object_set_new(x, "option", json_integer(a->option));
            json_object_set_new(x, "action", json_string(foh_cardset_action_name(cs, a->option)));
        }
        if (ch && a->option >= 0 && a->option < ch->n) {
            json_t *offered = json_array();
            for (int k = 0; k < ch->n; k++)
                json_array_append_new(offered, json_string(ch->label[k]));
            json_object_set_new(x, "label", json_string(ch->label[a->option]));
            json_object_set_new(x, "player", json_integer(ch->player + 1));
            json_object_set_new(x, "prompt", json_string(ch->prompt));
            json_object_set_new(x, "options", offered);
        }
        json_array_append_new(acts, x);
    }
    json_object_set_new(root, "actions", acts);
    json_object_set_new(root, "turn", json_integer(foh_game_turn(g)));
    json_object_set_new(root, "over", json_boolean(foh_game_is_over(g)));
    json_object_set_new(root, "stalled", json_boolean(foh_game_is_stalled(g)));
    json_object_set_new(root, "digest", hex64(foh_game_digest(g)));

    int ok = cli_write_save(path, root, JSON_INDENT(1), why, whylen);
    json_decref(root);
    return ok;
}

/* ---- Reading ---- */

typedef struct {
    const char *file;
    char *err;
    size_t errlen;
} reader;

static int bad(reader *r, const char *where, const char *what)
{
    snprintf(r->err, r->errlen, "%s: %s: %s", r->file, where, what);
    return 0;
}

static int get_string(reader *r, json_t *obj, const char *key, const char *where, char *out, size_t len)
{
    json_t *v = json_object_get(obj, key);
    char at[128];
    snprintf(at, sizeof at, "%s%s%s", where, where[0] ? "." : "", key);
    if (!json_is_string(v))
        return bad(r, at, v ? "must be a string" : "is missing");
    if (json_string_length(v) >= len || strlen(json_string_value(v)) != json_string_length(v))
        return bad(r, at, "is too long or holds a NUL character");
    snprintf(out, len, "%s", json_string_value(v));
    return 1;
}

static int get_int(reader *r, json_t *obj, const char *key, const char *where, long long lo, long long hi,
                   long long *out)
{
    json_t *v = json_object_get(obj, key);
    char at[128];
    snprintf(at, sizeof at, "%s%s%s", where, where[0] ? "." : "", key);
    if (!json_is_integer(v))
        return bad(r, at, v ? "must be an integer" : "is missing");
    long long x = json_integer_value(v);
    if (x < lo || x > hi) {
        char what[96];
        snprintf(what, sizeof what, "%lld is out of range %lld..%lld", x, lo, hi);
        return bad(r, at, what);
    }
    *out = x;
    return 1;
}

static int get_hex64(reader *r, json_t *obj, const char *key, const char *where, uint64_t *out)
{
    char buf[32], *end;
    if (!get_string(r, obj, key, where, buf, sizeof buf))
        return 0;
    *out = strtoull(buf, &end, 16);
    if (strlen(buf) != 16 || *end)
        return bad(r, key, "must be 16 hexadecimal digits");
    return 1;
}

int save_read(const char *path, save_file *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    reader rd = {path, err, errlen}, *r = &rd;
    json_error_t jerr;
    char *text;
    size_t len;
    foh_error ferr;
    if (foh_file_read(path, SAVE_MAX_BYTES, "save files", &text, &len, &ferr) != FOH_OK) {
        snprintf(err, errlen, "%s", ferr.msg);
        return 0;
    }
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!root) {
        if (jerr.line > 0)
            snprintf(err, errlen, "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column, jerr.text);
        else
            snprintf(err, errlen, "%s: not valid JSON: %s", path, jerr.text[0] ? jerr.text : "out of memory");
        return 0;
    }
    char format[32];
    long long x;
    json_t *opts = json_object_get(root, "options");
    json_t *acts = json_object_get(root, "actions"), *sources = json_object_get(root, "sources");
    int ok = json_is_object(root) || bad(r, "top level", "must be an object");
    ok = ok && get_string(r, root, "format", "", format, sizeof format);
    if (ok && strcmp(format, SAVE_FORMAT))
        ok = bad(r, "format", "is not " SAVE_FORMAT " (not a save file of this version)");
    char why[ORIGIN_PATH + 64];
    if (ok && !origin_read(root, &s->origin, why, sizeof why))
        ok = bad(r, "top level", why);
    if (ok && !json_is_array(sources))
        ok = bad(r, "sources", "must be a list of the card set's files");
    if (ok && !json_is_object(opts))
        ok = bad(r, "options", json_object_get(root, "options") ? "must be an object" : "is missing");
    ok = ok && get_int(r, opts, "players", "options", 1, FOH_MAX_PLAYERS, &x) && (s->players = (int)x);
    /* Seeds above 2^63 are written as their two's complement. */
    ok = ok && get_int(r, opts, "seed", "options", INT64_MIN, INT64_MAX, &x) && ((s->seed = (uint64_t)x), 1);
    ok = ok && get_string(r, opts, "seats", "options", s->seats, sizeof s->seats);
    /* The script limits: 0 (the default) or within the command line's range. */
    ok = ok && get_int(r, opts, "lua_instructions", "options", 0, CLI_MAX_LUA_INSTRUCTIONS, &x) &&
         ((s->limits.instructions = (long)x), 1);
    if (ok && s->limits.instructions > 0 && s->limits.instructions < CLI_MIN_LUA_INSTRUCTIONS) {
        char what[96];
        snprintf(what, sizeof what, "%ld is out of range %ld..%ld (0: the default)", s->limits.instructions,
                 CLI_MIN_LUA_INSTRUCTIONS, CLI_MAX_LUA_INSTRUCTIONS);
        ok = bad(r, "options.lua_instructions", what);
    }
    ok = ok && get_int(r, opts, "lua_memory_mib", "options", 0, CLI_MAX_LUA_MEMORY_MIB, &x) &&
         ((s->limits.memory_bytes = (size_t)x << 20), 1);
    if (ok && json_object_get(opts, "action_time_ms"))
        ok = get_int(r, opts, "action_time_ms", "options", 0, CLI_MAX_ACTION_TIME_MS, &x) &&
             ((s->limits.time_ms = (long)x), 1);
    if (ok && (!json_is_array(acts) || json_array_size(acts) > SAVE_MAX_ACTIONS))
        ok = bad(r, "actions", "must be a list of at most 1,000,000 actions");
    size_t room = 0; /* grown as entries are found good: a bad file costs no large allocation */
    for (size_t i = 0; ok && i < json_array_size(acts); i++) {
        json_t *a = json_array_get(acts, i);
        char at[48];
        snprintf(at, sizeof at, "actions[%zu]", i);
        if (!json_is_object(a)) {
            ok = bad(r, at, "must be an object");
            break;
        }
        if (i == room) {
            room = room ? 2 * room : 64;
            if (room > json_array_size(acts))
                room = json_array_size(acts);
            struct save_action *grown = realloc(s->actions, room * sizeof *grown);
            if (!grown) {
                ok = bad(r, "actions", "out of memory");
                break;
            }
            s->actions = grown;
        }
        struct save_action *out = &s->actions[i];
        memset(out, 0, sizeof *out);
        ok = get_string(r, a, "kind", at, out->kind, sizeof out->kind);
        if (ok && foh_action_kind_find(out->kind) < 0) {
            char what[64];
            snprintf(what, sizeof what, "unknown action kind '%s'", out->kind);
            ok = bad(r, at, what);
        }
        out->option = -1;
        if (ok && json_object_get(a, "card"))
            ok = get_string(r, a, "card", at, out->card, sizeof out->card);
        if (ok && json_object_get(a, "tokens"))
            ok = get_int(r, a, "tokens", at, 0, 100000, &x) && ((out->tokens = (int)x), 1);
        if (ok && json_object_get(a, "option"))
            ok = get_int(r, a, "option", at, 0, 1000, &x) && ((out->option = (int)x), 1);
        if (ok && json_object_get(a, "label"))
            ok = get_string(r, a, "label", at, out->label, sizeof out->label);
        s->nactions = (int)i + 1;
    }
    if (ok && json_object_get(root, "digest")) {
        ok = get_hex64(r, root, "digest", "", &s->digest);
        s->has_digest = ok;
    }
    if (ok)
        s->sources = json_incref(sources);
    json_decref(root);
    if (!ok)
        save_free(s);
    return ok;
}

void save_free(save_file *s)
{
    free(s->actions);
    s->actions = NULL;
    json_decref(s->sources);
    s->sources = NULL;
}

int save_check_cardset(const save_file *s, const foh_cardset *cs, char *err, size_t errlen)
{
    size_t len = 0;
    err[0] = 0;
    /* Recorded files: each must be there with the same bytes. */
    for (size_t i = 0; i < json_array_size(s->sources); i++) {
        json_t *src = json_array_get(s->sources, i);
        const char *label = json_string_value(json_object_get(src, "file"));
        const char *hash = json_string_value(json_object_get(src, "hash"));
        if (!label || !hash) {
            snprintf(err, errlen, "%s: sources[%zu]: needs a file and a hash", s->path, i);
            return 0;
        }
        int found = 0;
        for (int k = 0; k < foh_cardset_source_count(cs) && !found; k++) {
            uint64_t h;
            if (strcmp(foh_cardset_source(cs, k, &h), label))
                continue;
            found = 1;
            char now[17];
            snprintf(now, sizeof now, "%016" PRIx64, h);
            if (strcmp(now, hash) && len < errlen)
                len += (size_t)snprintf(err + len, errlen - len, "%s%s differs (recorded %s, now %s)", len ? "; " : "",
                                        label, hash, now);
        }
        if (!found && len < errlen)
            len += (size_t)snprintf(err + len, errlen - len, "%s%s was in the recorded card set, not in this one",
                                    len ? "; " : "", label);
    }
    /* Files of this card set the recording did not have. */
    for (int k = 0; k < foh_cardset_source_count(cs); k++) {
        const char *label = foh_cardset_source(cs, k, NULL);
        int found = 0;
        for (size_t i = 0; i < json_array_size(s->sources) && !found; i++)
            found = !strcmp(label, json_string_value(json_object_get(json_array_get(s->sources, i), "file")));
        if (!found && len < errlen)
            len += (size_t)snprintf(err + len, errlen - len, "%s%s is in this card set, not in the recorded one",
                                    len ? "; " : "", label);
    }
    return len == 0;
}

int save_action(const save_file *s, int i, const foh_cardset *cs, foh_action *out, char *err, size_t errlen)
{
    const struct save_action *a = &s->actions[i];
    out->kind = (foh_action_kind)foh_action_kind_find(a->kind);
    out->card = -1;
    out->tokens = a->tokens;
    out->option = a->option;
    if (a->card[0] && (out->card = foh_cardset_find(cs, a->card)) < 0) {
        snprintf(err, errlen, "%s: actions[%d].card: unknown card '%s'", s->path, i, a->card);
        return 0;
    }
    return 1;
}

int save_check_choice(const save_file *s, int i, const foh_game *g, char *err, size_t errlen)
{
    const struct save_action *a = &s->actions[i];
    const foh_choice *ch = foh_game_choice(g);
    if (!a->label[0] || !ch || a->option < 0 || a->option >= ch->n || !strcmp(ch->label[a->option], a->label))
        return 1;
    snprintf(err, errlen,
             "%s: actions[%d]: the recorded answer was '%s' (option %d of \"%s\"), but the game now "
             "offers '%s' there",
             s->path, i, a->label, a->option, ch->prompt, ch->label[a->option]);
    return 0;
}

/* any_save: writing and reading the save files of a card set of any
 * ruleset (see any_save.h, docs/save-format.md). Everything read is
 * checked: a corrupt or hand-edited file gets a message naming the file and
 * the position of the problem, never a crash. */
#include "any/any_save.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/save.h" /* SAVE_MAX_BYTES, SAVE_MAX_ACTIONS: the limits of every save file */

#define ANY_MAX_WHICH 100000 /* legal actions of one name */

static json_t *hex64(uint64_t x)
{
    char buf[17];
    snprintf(buf, sizeof buf, "%016" PRIx64, x);
    return json_string(buf);
}

int any_save_sniff(const char *path)
{
    char *text;
    size_t len;
    if (foh_file_read(path, SAVE_MAX_BYTES, "save files", &text, &len, NULL) != FOH_OK)
        return 0;
    json_t *root = json_loadb(text, len, 0, NULL);
    free(text);
    const char *format = json_string_value(json_object_get(root, "format"));
    int ours = format && !strcmp(format, ANY_SAVE_FORMAT);
    json_decref(root);
    return ours;
}

/* A's name as saved: describe_action's words, without the last character
 * if the buffer cut it in the middle (JSON text holds valid UTF-8 only).
 * Names are compared the same way on replay. */
static void name_of(const foh_game *g, const foh_action *a, char name[ANY_ACTION_NAME])
{
    foh_game_describe_action(g, a, name, ANY_ACTION_NAME);
    size_t len = strlen(name), start = len;
    while (start > 0 && ((unsigned char)name[start - 1] & 0xC0) == 0x80)
        start--;
    if (start == 0 || !((unsigned char)name[start - 1] & 0x80))
        return; /* ends in ASCII (or holds no lead byte to judge) */
    unsigned char lead = (unsigned char)name[start - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (len - (start - 1) < need)
        name[start - 1] = '\0';
}

static int same_action(const foh_action *a, const foh_action *b)
{
    return a->kind == b->kind && a->card == b->card && a->tokens == b->tokens && a->option == b->option;
}

void any_save_name(const foh_game *g, const foh_action *legal, int n, const foh_action *a, any_saved_action *out)
{
    out->player = foh_game_to_act(g);
    out->which = 1;
    name_of(g, a, out->name);
    char other[ANY_ACTION_NAME];
    for (int i = 0; i < n && !same_action(&legal[i], a); i++) {
        name_of(g, &legal[i], other);
        out->which += !strcmp(other, out->name);
    }
}

int any_save_write(const char *path, const any_save_game *sg, const foh_game *g, const any_saved_action *actions,
                   int n, char *why, size_t whylen)
{
    const cli_options *o = sg->o;
    origin *og = malloc(sizeof *og); /* absolute folders: the save loads from any working directory */
    char bad[ORIGIN_PATH + 64];
    if (!og || !origin_of(o, og, bad, sizeof bad)) {
        snprintf(why, whylen, "%s: %s", path, og ? bad : "out of memory");
        free(og);
        return 0;
    }
    json_t *root = json_object(), *acts = json_array();
    int ok = root && acts && json_object_set_new(root, "format", json_string(ANY_SAVE_FORMAT)) == 0 &&
             json_object_set_new(root, "ruleset", json_string(sg->ruleset)) == 0 && origin_write(root, og);
    free(og);
    ok = ok && json_object_set_new(root, "options",
                                   json_pack("{s:i,s:I,s:s,s:I,s:I,s:I}", "players", o->players, "seed",
                                             (json_int_t)o->seed, "seats", o->seats ? o->seats : "random",
                                             "lua_instructions", (json_int_t)o->limits.instructions,
                                             "lua_memory_mib", (json_int_t)(o->limits.memory_bytes >> 20),
                                             "action_time_ms", (json_int_t)o->limits.time_ms)) == 0;
    for (int i = 0; ok && i < n; i++) {
        json_t *x = json_pack("{s:i,s:s}", "player", actions[i].player + 1, "action", actions[i].name);
        if (x && actions[i].which > 1)
            json_object_set_new(x, "which", json_integer(actions[i].which));
        if (!x || json_array_append_new(acts, x) != 0) {
            snprintf(why, whylen, "%s: actions[%d]: its name is not UTF-8 text (or out of memory)", path, i);
            json_decref(root);
            json_decref(acts);
            return 0;
        }
    }
    ok = ok && json_object_set(root, "actions", acts) == 0 &&
         json_object_set_new(root, "turn", json_integer(foh_game_turn(g))) == 0 &&
         json_object_set_new(root, "over", json_boolean(foh_game_is_over(g))) == 0 &&
         json_object_set_new(root, "start_digest", hex64(sg->start_digest)) == 0 &&
         json_object_set_new(root, "digest", hex64(foh_game_digest(g))) == 0;
    json_decref(acts);
    if (!ok)
        snprintf(why, whylen, "%s: out of memory", path);
    ok = ok && cli_write_save(path, root, JSON_INDENT(1), why, whylen);
    json_decref(root);
    return ok;
}

/* ---- Reading ---- */

typedef struct {
    const char *file;
    char *err;
    size_t errlen;
} reader;

static int bad(reader *r, const char *where, const char *key, const char *what)
{
    snprintf(r->err, r->errlen, "%s: %s%s%s: %s", r->file, where, where[0] && key[0] ? "." : "", key, what);
    return 0;
}

static int get_string(reader *r, json_t *obj, const char *where, const char *key, char *out, size_t len)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return bad(r, where, key, v ? "must be a string" : "is missing");
    if (json_string_length(v) >= len || strlen(json_string_value(v)) != json_string_length(v)) {
        char what[96];
        snprintf(what, sizeof what, "is longer than %zu bytes or holds a NUL character", len - 1);
        return bad(r, where, key, what);
    }
    snprintf(out, len, "%s", json_string_value(v));
    return 1;
}

static int get_int(reader *r, json_t *obj, const char *where, const char *key, long long lo, long long hi,
                   long long *out)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v))
        return bad(r, where, key, v ? "must be an integer" : "is missing");
    long long x = json_integer_value(v);
    if (x < lo || x > hi) {
        char what[96];
        snprintf(what, sizeof what, "%lld is out of range %lld..%lld", x, lo, hi);
        return bad(r, where, key, what);
    }
    *out = x;
    return 1;
}

/* Optional KEY of ROOT, 16 hexadecimal digits, into *OUT (*HAS: present). */
static int get_hex64(reader *r, json_t *root, const char *key, int *has, uint64_t *out)
{
    char buf[32], *end;
    *has = json_object_get(root, key) != NULL;
    if (!*has)
        return 1;
    if (!get_string(r, root, "", key, buf, sizeof buf))
        return 0;
    *out = strtoull(buf, &end, 16);
    if (strlen(buf) != 16 || *end)
        return bad(r, "", key, "must be 16 hexadecimal digits");
    return 1;
}

static int read_options(reader *r, json_t *root, any_save *s)
{
    json_t *opts = json_object_get(root, "options");
    long long x;
    if (!json_is_object(opts))
        return bad(r, "", "options", opts ? "must be an object" : "is missing");
    int ok = get_int(r, opts, "options", "players", 1, FOH_MAX_PLAYERS, &x) && (s->players = (int)x);
    /* Seeds above 2^63 are written as their two's complement. */
    ok = ok && get_int(r, opts, "options", "seed", INT64_MIN, INT64_MAX, &x) && ((s->seed = (uint64_t)x), 1);
    ok = ok && get_string(r, opts, "options", "seats", s->seats, sizeof s->seats);
    /* The script limits: 0 (the default) or within the command line's range. */
    ok = ok && get_int(r, opts, "options", "lua_instructions", 0, CLI_MAX_LUA_INSTRUCTIONS, &x) &&
         ((s->limits.instructions = (long)x), 1);
    if (ok && s->limits.instructions > 0 && s->limits.instructions < CLI_MIN_LUA_INSTRUCTIONS) {
        char what[96];
        snprintf(what, sizeof what, "%ld is out of range %ld..%ld (0: the default)", s->limits.instructions,
                 CLI_MIN_LUA_INSTRUCTIONS, CLI_MAX_LUA_INSTRUCTIONS);
        ok = bad(r, "options", "lua_instructions", what);
    }
    ok = ok && get_int(r, opts, "options", "lua_memory_mib", 0, CLI_MAX_LUA_MEMORY_MIB, &x) &&
         ((s->limits.memory_bytes = (size_t)x << 20), 1);
    ok = ok && get_int(r, opts, "options", "action_time_ms", 0, CLI_MAX_ACTION_TIME_MS, &x) &&
         ((s->limits.time_ms = (long)x), 1);
    return ok;
}

static int read_actions(reader *r, json_t *root, any_save *s)
{
    json_t *acts = json_object_get(root, "actions");
    if (!json_is_array(acts) || json_array_size(acts) > SAVE_MAX_ACTIONS)
        return bad(r, "", "actions", acts ? "must be a list of at most 1,000,000 actions" : "is missing");
    size_t n = json_array_size(acts), room = 0; /* grown as entries are found good: a bad file costs little */
    for (size_t i = 0; i < n; i++) {
        json_t *a = json_array_get(acts, i);
        if (i == room) {
            room = room ? 2 * room : 64;
            room = room < n ? room : n;
            any_saved_action *grown = realloc(s->actions, room * sizeof *grown);
            if (!grown)
                return bad(r, "", "actions", "out of memory");
            s->actions = grown;
        }
        any_saved_action *out = &s->actions[i];
        char at[48];
        long long x;
        snprintf(at, sizeof at, "actions[%zu]", i);
        if (!json_is_object(a))
            return bad(r, at, "", "must be an object");
        if (!get_int(r, a, at, "player", 1, s->players, &x))
            return 0;
        out->player = (int)x - 1;
        if (!get_string(r, a, at, "action", out->name, sizeof out->name))
            return 0;
        out->which = 1;
        if (json_object_get(a, "which") && !get_int(r, a, at, "which", 1, ANY_MAX_WHICH, &x))
            return 0;
        if (json_object_get(a, "which"))
            out->which = (int)x;
        s->nactions = (int)i + 1;
    }
    return 1;
}

int any_save_read(const char *path, any_save *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    reader rd = {path, err, errlen};
    char *text;
    size_t len;
    foh_error ferr;
    if (foh_file_read(path, SAVE_MAX_BYTES, "save files", &text, &len, &ferr) != FOH_OK) {
        snprintf(err, errlen, "%s", ferr.msg);
        return 0;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!root) {
        if (jerr.line > 0)
            snprintf(err, errlen, "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column, jerr.text);
        else
            snprintf(err, errlen, "%s: not valid JSON: %s", path, jerr.text[0] ? jerr.text : "out of memory");
        return 0;
    }
    char format[32], why[ORIGIN_PATH + 64];
    int ok = json_is_object(root) || bad(&rd, "top level", "", "must be an object");
    ok = ok && get_string(&rd, root, "", "format", format, sizeof format);
    if (ok && strcmp(format, ANY_SAVE_FORMAT))
        ok = bad(&rd, "", "format", "is not " ANY_SAVE_FORMAT " (not a save file of this version)");
    ok = ok && get_string(&rd, root, "", "ruleset", s->ruleset, sizeof s->ruleset);
    if (ok && !origin_read(root, &s->origin, why, sizeof why))
        ok = bad(&rd, "top level", "", why);
    ok = ok && read_options(&rd, root, s) && read_actions(&rd, root, s);
    ok = ok && get_hex64(&rd, root, "start_digest", &s->has_start, &s->start_digest) &&
         get_hex64(&rd, root, "digest", &s->has_digest, &s->digest);
    json_decref(root);
    if (!ok)
        any_save_free(s);
    return ok;
}

void any_save_free(any_save *s)
{
    free(s->actions);
    s->actions = NULL;
    s->nactions = 0;
}

int any_save_find(const any_save *s, int i, const foh_game *g, const foh_action *legal, int n, int *index, char *err,
                  size_t errlen)
{
    const any_saved_action *a = &s->actions[i];
    int p = foh_game_to_act(g), seen = 0;
    if (a->player != p) {
        snprintf(err, errlen, "%s: actions[%d]: recorded as P%d's, but the decision here is P%d's", s->path, i,
                 a->player + 1, p + 1);
        return 0;
    }
    char name[ANY_ACTION_NAME];
    for (int k = 0; k < n; k++) {
        name_of(g, &legal[k], name);
        if (!strcmp(name, a->name) && ++seen == a->which) {
            *index = k;
            return 1;
        }
    }
    if (seen > 0) {
        snprintf(err, errlen, "%s: actions[%d]: which: %d legal actions are named '%s' here, not %d", s->path, i, seen,
                 a->name, a->which);
        return 0;
    }
    size_t used = (size_t)snprintf(err, errlen, "%s: actions[%d]: '%s' is not a legal action here (P%d to act: ",
                                   s->path, i, a->name, p + 1);
    for (int k = 0; k < n && k < 8 && used < errlen; k++) {
        name_of(g, &legal[k], name);
        used += (size_t)snprintf(err + used, errlen - used, "%s'%s'", k ? ", " : "", name);
    }
    if (used < errlen)
        snprintf(err + used, errlen - used, "%s)", n > 8 ? ", ..." : n == 0 ? "no legal action" : "");
    return 0;
}

/* Card set loading: game.yaml (the vocabulary) and the card files.
 * Every name (icon, type, age, timing, card) comes from the data.
 *
 * Card files come from modders: every message names the file, line and
 * column, the card being read, and for an unknown name the valid names or
 * the one meant ("did you mean"). Names may not hold control characters
 * (they are printed on terminals), and no value is silently cut: a name or
 * a path longer than the engine keeps is refused with the limit named. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "foh/file.h"
#include "foh/yaml.h"
#include "internal.h"
#include "loader.h"
#include "effects.h"
#include "variant.h"

#define MAX_CARD_FILES 64
/* Compiling Lua is one step the count hook cannot interrupt, and Lua's
 * compiler can be made quadratic (numeric constants crafted to collide in
 * its hash): scripts are kept small enough to compile in a moment. */
#define MAX_SCRIPT_BYTES (256 << 10)
#define MAX_EFFECT_BYTES (64 << 10)

/* ---- Files ---- */

/* Fold "dir/../" out of PATH (in place) so messages name files plainly. */
static void normalize_path(char *path)
{
    size_t len = strlen(path);
    char *copy = malloc(len + 1), **seg = malloc((len / 2 + 2) * sizeof *seg);
    if (!copy || !seg) {
        free(copy);
        free(seg);
        return; /* left as it is: still the same file */
    }
    memcpy(copy, path, len + 1);
    int n = 0, absolute = path[0] == '/';
    for (char *save = NULL, *t = strtok_r(copy, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
        if (!strcmp(t, "."))
            continue;
        if (!strcmp(t, "..") && n > 0 && strcmp(seg[n - 1], ".."))
            n--;
        else
            seg[n++] = t;
    }
    size_t k = 0;
    if (absolute)
        path[k++] = '/';
    for (int i = 0; i < n; i++) {
        size_t l = strlen(seg[i]);
        if (i)
            path[k++] = '/';
        memmove(path + k, seg[i], l); /* never longer than the original */
        k += l;
    }
    if (!n && !absolute)
        path[k++] = '.';
    path[k] = '\0';
    free(copy);
    free(seg);
}

#define FNV_START 0xcbf29ce484222325ULL

/* Remember a source of the card set: LABEL, the file's PATH and the hash
 * of its bytes. The sources are bounded (game.yaml, card files, scripts,
 * variants): the table has room for all of them. */
static int add_source(foh_loader *ld, const char *label, const char *path, uint64_t hash)
{
    foh_cardset *cs = ld->cs;
    if (cs->nsources >= FOH_MAX_SOURCES || strlen(label) >= sizeof cs->source[0].label ||
        strlen(path) >= sizeof cs->source[0].path)
        return foh_error_set(ld->err, FOH_ERR_DATA,
                             "%s: more source files than the engine's limit of %d, or a "
                             "name too long",
                             label, FOH_MAX_SOURCES) == FOH_OK;
    snprintf(cs->source[cs->nsources].label, sizeof cs->source[0].label, "%s", label);
    snprintf(cs->source[cs->nsources].path, sizeof cs->source[0].path, "%s", path);
    cs->source[cs->nsources++].hash = hash;
    return 1;
}

/* Remember file PATH (already read successfully) as LABEL with its hash. */
static int record_source(foh_loader *ld, const char *label, const char *path)
{
    char *bytes;
    size_t n;
    foh_error e;
    if (foh_file_read(path, FOH_YAML_MAX_BYTES, "YAML files", &bytes, &n, &e) != FOH_OK)
        return foh_error_set(ld->err, e.code, "%s (reading it again to record its hash)", e.msg) == FOH_OK;
    uint64_t h = foh_file_hash(bytes, n);
    free(bytes);
    return add_source(ld, label, path, h);
}

/* Read the Lua file named by node S, relative to folder DIR, into the
 * card set's scripts (loaded into the sandbox in order). */
static int load_script(foh_loader *ld, const char *dir, const foh_yaml_node *s)
{
    foh_cardset *cs = ld->cs;
    const char *name = foh_load_scalar(ld, s, "scripts");
    if (!name)
        return 0;
    if (cs->nscripts >= FOH_MAX_SCRIPTS)
        return foh_load_bad_node(ld, s, "more than %d scripts in all (the engine's limit)", FOH_MAX_SCRIPTS);
    char path[sizeof cs->script[0].path];
    /* Relative paths are relative to the folder of the YAML file naming them. */
    if (snprintf(path, sizeof path, "%s%s%s", name[0] == '/' ? "" : dir, name[0] == '/' ? "" : "/", name) >=
        (int)sizeof path)
        return foh_load_bad_node(ld, s, "the script path '%s' is longer than %zu bytes", name, sizeof path - 1);
    normalize_path(path);
    char *src;
    size_t len;
    foh_error e;
    if (foh_file_read(path, MAX_SCRIPT_BYTES, "scripts", &src, &len, &e) != FOH_OK)
        return foh_load_bad_node(ld, s, "cannot load the script: %s", e.msg);
    snprintf(cs->script[cs->nscripts].path, sizeof cs->script[0].path, "%s", path);
    cs->script[cs->nscripts++].src = src;
    char label[sizeof cs->source[0].label];
    const char *base = strrchr(path, '/');
    snprintf(label, sizeof label, "script %s", base ? base + 1 : path);
    return add_source(ld, label, path, foh_file_hash(src, len));
}

/* Resolve setup.deck_bottom once the cards are known. */
static int read_deck_bottom(foh_loader *ld, const foh_yaml_node *root)
{
    const foh_yaml_node *db = foh_yaml_get(foh_yaml_get(root, "setup"), "deck_bottom");
    if (!db)
        return 1;
    int max = (int)(sizeof ld->cs->deck_bottom / sizeof ld->cs->deck_bottom[0]);
    if (db->kind != FOH_YAML_SEQ || db->n > (size_t)max)
        return foh_load_bad_node(ld, db, "setup.deck_bottom must list at most %d card ids, bottom first", max);
    for (size_t i = 0; i < db->n; i++) {
        const foh_yaml_node *v = db->items[i];
        const char *id = foh_load_scalar(ld, v, "deck_bottom");
        if (!id)
            return 0;
        int c = foh_cardset_find(ld->cs, id);
        if (c < 0)
            return foh_load_bad_node(ld, v, "setup.deck_bottom: unknown card '%s'", id);
        /* A card has one place: listed twice, or also dealt to the Market
         * or as a starting card, it would be in two. */
        for (int j = 0; j < ld->cs->ndeck_bottom; j++)
            if (ld->cs->deck_bottom[j] == c)
                return foh_load_bad_node(ld, v, "setup.deck_bottom: card '%s' is listed twice (items %d and %zu)", id,
                                         j + 1, i + 1);
        int age = ld->cs->card[c].age;
        if (age == ld->cs->market_age || age == ld->cs->starting_age)
            return foh_load_bad_node(ld, v,
                                     "setup.deck_bottom: card '%s' is of the age dealt to the %s "
                                     "(setup.%s): it cannot also "
                                     "be in the Civilization deck",
                                     id, age == ld->cs->market_age ? "Market" : "players",
                                     age == ld->cs->market_age ? "market_age" : "starting_card_age");
        ld->cs->deck_bottom[ld->cs->ndeck_bottom++] = c;
    }
    return 1;
}

/* Set-up deals every card of the Market age to the Market: they must fit
 * in it at every player count. */
static int check_market_age(foh_loader *ld, const foh_yaml_node *root)
{
    const foh_cardset *cs = ld->cs;
    int n = 0;
    for (int c = 0; c < cs->ncards; c++)
        n += cs->card[c].age == cs->market_age;
    const foh_yaml_node *ms = foh_yaml_get(foh_yaml_get(root, "setup"), "market_size");
    for (int p = 1; p <= FOH_MAX_PLAYERS; p++)
        if ((cs->players_allowed >> p & 1) && n > cs->market_size[p]) {
            char key[8];
            snprintf(key, sizeof key, "%d", p);
            const foh_yaml_node *at = foh_yaml_get(ms, key);
            return foh_load_bad_node(ld, at ? at : ms,
                                     "setup.market_size: the Market holds %d cards with %d players, but "
                                     "the %d cards of the "
                                     "Market age '%s' (setup.market_age) are all dealt to it at set-up",
                                     cs->market_size[p], p, n, cs->age[cs->market_age].name);
        }
    return 1;
}

/* Every card must be able to enter the game (ld->card is NULL here: each
 * message names its card itself): its age is the Market's,
 * the starting cards', or one setup.deck_ages lists, or the card is one of
 * setup.deck_bottom. A card of another age would silently never be seen
 * (a new age added without its place in the deck order): an error at the
 * card, one for each age. And every card must be able to enter a Nation,
 * unless it ends the game. */
static int check_reachable(foh_loader *ld)
{
    const foh_cardset *cs = ld->cs;
    int told[FOH_MAX_AGES] = {0}, ok = 1;
    for (int c = 0; c < cs->ncards; c++) {
        int a = cs->card[c].age, in = a == cs->market_age || a == cs->starting_age;
        for (int i = 0; !in && i < cs->ndeck_ages; i++)
            in = cs->deck_ages[i] == a;
        for (int i = 0; !in && i < cs->ndeck_bottom; i++)
            in = cs->deck_bottom[i] == c;
        if (in || told[a])
            continue;
        told[a] = 1;
        ok = foh_load_bad_at(ld, cs->card[c].file, cs->card[c].line, 0,
                             "card '%s': its age '%s' never enters the game: setup.deck_ages does not list it, and "
                             "it is neither setup.market_age nor setup.starting_card_age (every card of that age is "
                             "left out)",
                             cs->card[c].id, cs->age[a].name);
    }
    /* A card of a type never placed in a Nation (placement: none) that
     * does not end the game: gaining it would only remove it, silently. */
    for (int c = 0; c < cs->ncards; c++) {
        int t = cs->card[c].type;
        if (cs->type[t].place != FOH_PLACE_NONE || cs->card[c].ends_game)
            continue;
        ok = foh_load_bad_at(ld, cs->card[c].file, cs->card[c].line, 0,
                             "card '%s': its type '%s' is never placed in a Nation (placement: none) and the card "
                             "does not end the game (ends_game): whoever gains it would only remove it from the game "
                             "(give it a type that is placed)",
                             cs->card[c].id, cs->type[t].name);
    }
    return ok;
}

/* ---- Cards ---- */

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Card text and notes: any printable text, line breaks included. */
static int text_field(foh_loader *ld, const foh_yaml_node *m, const char *key, int required, const char *fallback,
                      char **out)
{
    const foh_yaml_node *v = foh_load_field(ld, m, key, required);
    const char *text = v ? foh_load_scalar(ld, v, key) : fallback;
    if (!text)
        return 0;
    if (!foh_load_printable(text, 1))
        return foh_load_bad_node(ld, v, "'%s' holds a control character", key);
    if (!(*out = dup_text(text)))
        return foh_load_bad_node(ld, m, "out of memory");
    return 1;
}

const char *const foh_card_fields[] = {"id",   "name",          "age",  "type",         "timing", "obsolete",
                                       "ends_game", "stripe", "stripe_source", "text", "edition_note", "effect",
                                       "params",    NULL};

/* A failed step of read_card: stop at the first error, or in checking mode
 * note it and go on with the card's other fields. */
#define STEP(x)                                                                                                        \
    do {                                                                                                               \
        if (!(x)) {                                                                                                    \
            if (!ld->report)                                                                                           \
                return 0;                                                                                              \
            ok = 0;                                                                                                    \
        }                                                                                                              \
    } while (0)

static int read_card(foh_loader *ld, const foh_yaml_node *m)
{
    foh_cardset *cs = ld->cs;
    ld->card = NULL;
    if (m->kind != FOH_YAML_MAP)
        return foh_load_bad_node(ld, m, "each card is a map of fields, not %s", foh_yaml_kind_name(m));
    const foh_yaml_node *idn = foh_load_field(ld, m, "id", 1);
    if (!idn)
        return 0;
    char id[FOH_NAME];
    if (!foh_load_name_value(ld, idn, "id", id, sizeof id))
        return 0;
    int ok = 1, twin = foh_cardset_find(cs, id);
    /* Checking: a twin's fields are still checked (the card is then dropped). */
    if (twin >= 0)
        STEP(foh_load_bad_node(ld, idn, "card id '%s' is defined twice (first at %s:%d)", id, cs->card[twin].file,
                               cs->card[twin].line));
    for (int i = 0; i < ld->ndropped; i++)
        if (!strcmp(ld->dropped[i].id, id))
            STEP(foh_load_bad_node(ld, idn, "card id '%s' is defined twice (first at %s:%d)", id, ld->dropped[i].file,
                                   ld->dropped[i].line));
    if (cs->ncards >= FOH_MAX_CARDS)
        return foh_load_bad_node(ld, m, "more than %d cards (the engine's limit)", FOH_MAX_CARDS);
    foh_card_def *c = &cs->card[cs->ncards];
    memset(c, 0, sizeof *c);
    memset(&cs->card_params[cs->ncards], 0, sizeof cs->card_params[0]);
    memcpy(c->id, id, sizeof id);
    cs->ncards++; /* from here on flow_cardset_free frees what the card holds */
    ld->card = c->id;
    if (strlen(m->file) >= sizeof c->file)
        return foh_load_bad_node(ld, m, "the file's path is longer than %zu bytes", sizeof c->file - 1);
    snprintf(c->file, sizeof c->file, "%s", m->file);
    c->line = m->line;
    STEP(foh_load_only_keys(ld, m, foh_card_fields));

    const foh_yaml_node *name = foh_load_field(ld, m, "name", 1), *type = foh_load_field(ld, m, "type", 1);
    /* Omitted fields take their defaults (docs/card-format.md): no timing is
     * the first timing that never fires, no stripe is {}, no text is "". */
    const foh_yaml_node *timing = foh_yaml_get(m, "timing");
    int never = -1;
    for (int t = cs->ntimings - 1; t >= 0; t--)
        if (cs->timing[t].fire == FOH_FIRE_NEVER)
            never = t;
    if (!timing && never < 0)
        timing = foh_load_field(ld, m, "timing", 1);
    if (!name || !type || (!timing && never < 0))
        STEP(0);
    if (name)
        STEP(foh_load_name_value(ld, name, "name", c->name, sizeof c->name));
    STEP((c->age = foh_load_age_field(ld, m, "age")) >= 0);
    const char *names[FOH_MAX_TYPES > FOH_MAX_TIMINGS ? FOH_MAX_TYPES : FOH_MAX_TIMINGS];
    if (type)
        STEP((c->type = foh_load_named_value(ld, type, "type", "card types", names,
                                             foh_load_name_list(cs->type[0].name, sizeof cs->type[0], cs->ntypes,
                                                                names))) >= 0);
    c->timing = never;
    if (timing)
        STEP((c->timing = foh_load_named_value(
                  ld, timing, "timing", "timings", names,
                  foh_load_name_list(cs->timing[0].name, sizeof cs->timing[0], cs->ntimings, names))) >= 0);
    STEP(foh_load_bool_field(ld, m, "obsolete", &c->obsolete));
    STEP(foh_load_bool_field(ld, m, "ends_game", &c->ends_game));

    const foh_yaml_node *stripe = foh_yaml_get(m, "stripe");
    if (stripe && stripe->kind != FOH_YAML_MAP) {
        STEP(foh_load_bad_node(ld, stripe, "'stripe' must map icon names to counts ({} for none)"));
        stripe = NULL;
    }
    for (size_t i = 0; stripe && i < stripe->n; i++) {
        const char *icons[FOH_MAX_ICONS];
        int n = foh_load_name_list(cs->icon[0], FOH_NAME, cs->nicons, icons),
            ic = foh_cardset_icon_find(cs, stripe->keys[i]);
        int count = 0;
        if (ic < 0) {
            char hint[600];
            foh_error_hint(hint, sizeof hint, stripe->keys[i], "icons", icons, n);
            STEP(foh_load_bad_key(ld, stripe, i, "unknown icon '%s' in the stripe%s", stripe->keys[i], hint));
            continue;
        }
        STEP(foh_load_int_value(ld, stripe->items[i], stripe->keys[i], 0, 99, &count));
        c->stripe[ic] = (int8_t)count;
    }
    const foh_yaml_node *src = foh_yaml_get(m, "stripe_source");
    if (src)
        STEP(foh_load_name_value(ld, src, "stripe_source", c->stripe_source, sizeof c->stripe_source));
    else
        snprintf(c->stripe_source, sizeof c->stripe_source, "printed");
    STEP(text_field(ld, m, "text", 0, "", &c->text));
    STEP(text_field(ld, m, "edition_note", 0, "same", &c->edition_note));

    const foh_yaml_node *params = foh_yaml_get(m, "params");
    char owner[FOH_NAME + 16];
    snprintf(owner, sizeof owner, "card '%s'", c->id);
    if (params) {
        int before = ld->reported;
        if (!foh_params_read(params, owner, &cs->card_params[c - cs->card], ld->err)) {
            STEP(0);
            foh_load_go_on(ld, before);
        }
    }

    const foh_yaml_node *eff = foh_yaml_get(m, "effect");
    if (eff) {
        if (eff->kind != FOH_YAML_SCALAR)
            return foh_load_bad_node(ld, eff, "'effect' must be Lua source text, not %s", foh_yaml_kind_name(eff));
        if (strlen(eff->text) > MAX_EFFECT_BYTES)
            return foh_load_bad_node(ld, eff,
                                     "the effect is larger than %d KiB (the engine's "
                                     "limit: put shared code in a "
                                     "helper script)",
                                     MAX_EFFECT_BYTES >> 10);
        if (!(c->effect_src = dup_text(eff->text)))
            return foh_load_bad_node(ld, m, "out of memory");
        c->effect_line = eff->line + eff->block_scalar;
        snprintf(c->effect_file, sizeof c->effect_file, "%s", eff->file);
    } else if (c->timing >= 0 && cs->timing[c->timing].fire != FOH_FIRE_NEVER) {
        return foh_load_bad_node(ld, m, "timing '%s' needs an 'effect' (Lua)", cs->timing[c->timing].name);
    }
    if (ld->report && (!params || cs->card_params[c - cs->card].n == (int)params->n))
        foh_check_card_params(ld, (int)(c - cs->card));
    return ok;
}
#undef STEP

/* Checking mode: a card that failed to load leaves the card set (it was
 * the last one added), so that what follows sees only good cards; its id
 * and place are kept for the duplicate check. */
static void drop_last_card(foh_loader *ld, const char *id)
{
    foh_cardset *cs = ld->cs;
    if (cs->ncards == 0 || strcmp(cs->card[cs->ncards - 1].id, id))
        return;
    foh_card_def *c = &cs->card[--cs->ncards];
    int twin = 0;
    for (int i = 0; i < cs->ncards && !twin; i++)
        twin = !strcmp(cs->card[i].id, c->id);
    if (!twin && ld->ndropped < FOH_MAX_CARDS) { /* at most one per card entry read */
        foh_loader_dropped *d = &ld->dropped[ld->ndropped++];
        snprintf(d->id, sizeof d->id, "%s", c->id);
        snprintf(d->file, sizeof d->file, "%s", c->file);
        d->line = c->line;
    }
    free(c->text);
    free(c->edition_note);
    free(c->effect_src);
    memset(c, 0, sizeof *c);
}

/* ---- Loading ---- */

/* Card files: every *.yaml in DIR but game.yaml, sorted by name. */
static int list_card_files(foh_loader *ld, const char *dir, char ***out, int *n)
{
    *n = 0;
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return foh_error_set(ld->err, FOH_ERR_DATA, "%s: cannot open the card set folder", dir) == FOH_OK;
    int cap = 0, ok = 1;
    for (struct dirent *e; ok && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") || !strcmp(e->d_name, "game.yaml"))
            continue;
        if (*n > MAX_CARD_FILES)
            break; /* the caller refuses the folder: no need to list (or sort) the rest */
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            char **grown = realloc(*out, (size_t)cap * sizeof **out);
            if (!grown)
                ok = 0;
            else
                *out = grown;
        }
        if (ok && !((*out)[*n] = dup_text(e->d_name)))
            ok = 0;
        if (ok)
            ++*n;
    }
    closedir(d);
    if (!ok)
        return foh_error_set(ld->err, FOH_ERR_MEMORY, "out of memory") == FOH_OK;
    for (int i = 1; i < *n; i++) /* by name: insertion sort, at most MAX_CARD_FILES + 1 files */
        for (int j = i; j > 0 && strcmp((*out)[j], (*out)[j - 1]) < 0; j--) {
            char *t = (*out)[j];
            (*out)[j] = (*out)[j - 1];
            (*out)[j - 1] = t;
        }
    return 1;
}


#define MAX_SETS 8  /* card set folders in one card set (extend chains, --cards) */
#define MAX_TREES (MAX_SETS * (MAX_CARD_FILES + 1))

/* The folders being loaded into one card set, and every YAML tree read
 * (freed at the end: merged nodes point into them). */
typedef struct {
    foh_yaml_node *trees[MAX_TREES];
    int ntrees;
    foh_yaml_node *game; /* the first folder's game.yaml, the others merged in */
    int nsets;
    char set_dir[MAX_SETS][FOH_PATH]; /* folders loaded */
    int nloading;
    char loading[MAX_SETS][FOH_PATH]; /* folders whose `extend` is being loaded: a cycle returns to one */
    const char *const *search;
    int nsearch;
} set_loader;

/* The folder of the file FILE into DIR. */
static void dir_of(const char *file, char *dir, size_t len)
{
    const char *slash = strrchr(file, '/');
    if (slash)
        snprintf(dir, len, "%.*s", (int)(slash - file), file);
    else
        snprintf(dir, len, ".");
}

/* Merge game.yaml tree EXT (of a folder that extends others) into BASE:
 * sections merge key by key, lists of names (icons, events, scripts) and
 * of named entries (card types, ages, timings, actions) gain the new ones,
 * any other value is replaced. `extend` and `cards` are not game.yaml's. */
static int merge_game(foh_loader *ld, foh_yaml_node *base, foh_yaml_node *ext, int top)
{
    for (size_t i = 0; i < ext->n; i++) {
        const char *key = ext->keys[i];
        foh_yaml_node *v = ext->items[i], *b = foh_yaml_get(base, key);
        if (!v || (top && (!strcmp(key, "extend") || !strcmp(key, "cards"))))
            continue;
        if (b && b->kind == FOH_YAML_MAP && v->kind == FOH_YAML_MAP) {
            if (!merge_game(ld, b, v, 0))
                return 0;
            continue;
        }
        if (b && b->kind == FOH_YAML_SEQ && v->kind == FOH_YAML_SEQ &&
            (!strcmp(key, "icons") || !strcmp(key, "events") || !strcmp(key, "scripts") ||
             !strcmp(key, "card_types") || !strcmp(key, "ages") || !strcmp(key, "timings") ||
             !strcmp(key, "actions"))) {
            for (size_t k = 0; k < v->n; k++) {
                foh_yaml_node *item = v->items[k];
                const foh_yaml_node *nm = item->kind == FOH_YAML_MAP ? foh_yaml_get(item, "name") : item;
                for (size_t j = 0; nm && nm->kind == FOH_YAML_SCALAR && j < b->n; j++) {
                    const foh_yaml_node *other = b->items[j]->kind == FOH_YAML_MAP
                                                     ? foh_yaml_get(b->items[j], "name")
                                                     : b->items[j];
                    if (other && other->kind == FOH_YAML_SCALAR && !strcmp(other->text, nm->text) &&
                        strcmp(key, "scripts"))
                        return foh_load_bad_node(ld, item, "%s: '%s' is already defined at %s:%d (an extension adds "
                                                           "new entries; a variant's `set` changes existing ones)",
                                                 key, nm->text, other->file, other->line);
                }
                if (!foh_yaml_push(b, item))
                    return foh_load_bad_node(ld, item, "out of memory");
                v->items[k] = NULL;
            }
            v->n = 0;
            continue;
        }
        if (b && b->kind == FOH_YAML_SEQ) {
            /* Any other inherited list: the extension says whether it adds
             * to it or replaces it (issue 30: a list replaced silently
             * stopped Culture scoring). */
            const foh_yaml_node *add = v->kind == FOH_YAML_MAP && v->n == 1 ? foh_yaml_get(v, "add") : NULL,
                                *rep = v->kind == FOH_YAML_MAP && v->n == 1 ? foh_yaml_get(v, "replace") : NULL;
            if ((!add && !rep) || (add ? add : rep)->kind != FOH_YAML_SEQ)
                return foh_load_bad_node(ld, v,
                                         "'%s' is a list the extended set defines (%s:%d): write `%s: {add: [...]}` "
                                         "to add to it or `%s: {replace: [...]}` to replace it",
                                         key, b->file, b->line, key, key);
            foh_yaml_node *list = (foh_yaml_node *)(add ? add : rep);
            if (rep) {
                if (!foh_yaml_set(base, key, ext->key_lines[i], list))
                    return foh_load_bad_node(ld, v, "out of memory");
                v->items[0] = NULL; /* now the base's */
                continue;
            }
            for (size_t k = 0; k < list->n; k++) {
                if (!foh_yaml_push(b, list->items[k]))
                    return foh_load_bad_node(ld, list->items[k], "out of memory");
                list->items[k] = NULL;
            }
            list->n = 0;
            continue;
        }
        if (!foh_yaml_set(base, key, ext->key_lines[i], v))
            return foh_load_bad_node(ld, v, "out of memory");
        ext->items[i] = NULL;
    }
    return 1;
}

/* Where the card set named by scalar NAME (in `extend`, of the folder DIR)
 * is: a path (with a '/', or '.'), relative to DIR, or a name looked up in
 * the search folders. */
static int find_set(foh_loader *ld, set_loader *sl, const char *dir, const foh_yaml_node *name, char *out, size_t len)
{
    const char *t = foh_load_scalar(ld, name, "extend");
    if (!t)
        return 0;
    if (strchr(t, '/') || t[0] == '.') {
        if (snprintf(out, len, "%s%s%s", t[0] == '/' ? "" : dir, t[0] == '/' ? "" : "/", t) >= (int)len)
            return foh_load_bad_node(ld, name, "extend: the path '%s' is too long", t);
        normalize_path(out);
        return 1;
    }
    char looked[600] = "";
    for (int i = 0; i < sl->nsearch; i++) {
        char probe[FOH_PATH + 64];
        snprintf(probe, sizeof probe, "%s/%s/game.yaml", sl->search[i], t);
        if (access(probe, R_OK) == 0) { /* never opened: a named pipe would block */
            snprintf(out, len, "%s/%s", sl->search[i], t);
            return 1;
        }
        snprintf(looked + strlen(looked), sizeof looked - strlen(looked), "%s%s", i ? ", " : "", sl->search[i]);
    }
    return foh_load_bad_node(ld, name, "extend: no card set named '%s' (looked in: %s; a path needs a '/')", t,
                             looked[0] ? looked : "no folders: give a path");
}

/* Load the card set folder DIR (after the folders its `extend` names) into
 * SL and CARDS: its game.yaml merged into the set's, its card files' entries
 * added, its `cards` operations (override, remove) applied. */
static int load_set(foh_loader *ld, set_loader *sl, foh_variant_cards *cards, foh_variant_claims *claims,
                    const char *dir)
{
    char path[FOH_PATH + 64], yerr[800], real[FOH_PATH];
    if (strlen(dir) >= FOH_PATH - 300)
        return foh_error_set(ld->err, FOH_ERR_USAGE, "the card set folder's path is longer than %d bytes",
                             FOH_PATH - 300) == FOH_OK;
    /* A folder reached twice (two extensions of one base) is loaded once;
     * one reached again while its `extend` loads is a cycle. */
    snprintf(real, sizeof real, "%s", dir);
    normalize_path(real);
    for (int i = 0; i < sl->nsets; i++)
        if (!strcmp(sl->set_dir[i], real))
            return 1;
    for (int i = 0; i < sl->nloading; i++)
        if (!strcmp(sl->loading[i], real)) {
            char chain[1200] = "";
            for (int k = i; k < sl->nloading; k++)
                snprintf(chain + strlen(chain), sizeof chain - strlen(chain), "%s -> ", sl->loading[k]);
            return foh_error_set(ld->err, FOH_ERR_DATA, "card sets extend each other in a cycle: %s%s", chain,
                                 real) == FOH_OK;
        }
    if (sl->nsets + sl->nloading >= MAX_SETS || sl->ntrees >= MAX_TREES - MAX_CARD_FILES - 1)
        return foh_error_set(ld->err, FOH_ERR_DATA, "%s: more than %d card set folders in one card set (the "
                                                    "engine's limit)", dir, MAX_SETS) == FOH_OK;
    snprintf(path, sizeof path, "%s/game.yaml", dir);
    foh_yaml_node *game = foh_yaml_load_within(path, &ld->yaml_values, yerr, sizeof yerr);
    if (!game)
        return foh_error_set(ld->err, FOH_ERR_DATA, "%s", yerr) == FOH_OK;
    sl->trees[sl->ntrees++] = game;
    const char *set_name = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
    char label[FOH_PATH + 16];
    if (game->kind != FOH_YAML_MAP)
        return foh_load_bad_node(ld, game, "game.yaml must be a map, not %s", foh_yaml_kind_name(game));
    const foh_yaml_node *ext = foh_yaml_get(game, "extend");
    if (ext && ext->kind != FOH_YAML_SEQ)
        return foh_load_bad_node(ld, ext, "'extend' lists the card sets this one adds to (names or paths)");
    /* The sets it extends come first: their game.yaml is the base. */
    snprintf(sl->loading[sl->nloading++], FOH_PATH, "%s", real);
    for (size_t i = 0; ext && i < ext->n; i++) {
        char base[FOH_PATH];
        if (!find_set(ld, sl, dir, ext->items[i], base, sizeof base) || !load_set(ld, sl, cards, claims, base))
            return 0;
    }
    sl->nloading--;
    snprintf(sl->set_dir[sl->nsets++], FOH_PATH, "%s", real);
    /* Save files name the sources: the base set's files plainly, the others
     * with their folder's name. */
    snprintf(label, sizeof label, "%s%sgame.yaml", sl->game ? set_name : "", sl->game ? "/" : "");
    if (!record_source(ld, label, path))
        return 0;
    if (!sl->game) {
        sl->game = game;
    } else if (!merge_game(ld, sl->game, game, 1)) {
        return 0;
    }

    /* The card files' entries, in file-name order. */
    char **files = NULL;
    int nfiles = 0, ok = list_card_files(ld, dir, &files, &nfiles);
    if (ok && nfiles > MAX_CARD_FILES)
        ok = foh_error_set(ld->err, FOH_ERR_DATA, "%s: more than %d card files (the engine's limit)", dir,
                           MAX_CARD_FILES) == FOH_OK;
    for (int i = 0; ok && i < nfiles; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        int before = ld->reported;
        foh_yaml_node *doc = foh_yaml_load_within(path, &ld->yaml_values, yerr, sizeof yerr);
        if (!doc) {
            ok = foh_error_set(ld->err, FOH_ERR_DATA, "%s", yerr) == FOH_OK;
            ok = foh_load_go_on(ld, before); /* checking: the other files still are */
            continue;
        }
        sl->trees[sl->ntrees++] = doc;
        snprintf(label, sizeof label, "%s%s%s", sl->game == game ? "" : set_name, sl->game == game ? "" : "/",
                 files[i]);
        ok = record_source(ld, label, path);
        if (ok && doc->kind != FOH_YAML_SEQ) {
            ok = foh_load_bad_node(ld, doc, "a card file is a list of cards, not %s", foh_yaml_kind_name(doc));
            ok = foh_load_go_on(ld, before);
            continue;
        }
        for (size_t k = 0; ok && k < doc->n; k++) {
            if (cards->n >= FOH_MAX_CARDS) {
                ok = foh_load_bad_node(ld, doc->items[k], "more than %d cards (the engine's limit)", FOH_MAX_CARDS);
                break;
            }
            cards->node[cards->n++] = doc->items[k];
        }
    }
    for (int i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);
    /* An extension's changes to inherited cards, like a variant's. */
    foh_yaml_node *ops = foh_yaml_get(game, "cards");
    if (ok && ops && sl->game != game)
        ok = foh_variant_cards_apply(ops, set_name, cards, claims, ld->err);
    else if (ok && ops)
        ok = foh_load_bad_node(ld, ops, "'cards' (override, remove) is for a card set that extends another");
    return ok;
}

foh_cardset *flow_cardset_check(const char *const *dirs, int ndirs, const char *const *variants, int nvariants,
                               const char *const *search, int nsearch, foh_problem_fn report, void *ctx,
                               const flow_effects *fx, foh_error *err)
{
    foh_cardset *cs = calloc(1, sizeof *cs);
    foh_variant_cards *cards = calloc(1, sizeof *cards);
    foh_variant_claims *claims = calloc(1, sizeof *claims);
    set_loader *sl = calloc(1, sizeof *sl);
    foh_yaml_node *vdocs[FOH_MAX_VARIANTS] = {0}, *game = NULL;
    foh_loader ld = {.cs = cs, .err = err, .report = report, .report_ctx = ctx, .yaml_values = FOH_YAML_MAX_NODES};
    if (report)
        ld.dropped = calloc(FOH_MAX_CARDS, sizeof *ld.dropped);
    int ok = cs && cards && claims && sl && (!report || ld.dropped);
    char path[FOH_PATH + 32], yerr[800];
    if (!ok)
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
    if (ok && nvariants > FOH_MAX_VARIANTS)
        ok = foh_error_set(err, FOH_ERR_USAGE, "at most %d variants", FOH_MAX_VARIANTS) == FOH_OK;
    if (ok && (ndirs < 1 || ndirs > MAX_SETS))
        ok = foh_error_set(err, FOH_ERR_USAGE, "give 1 to %d card set folders", MAX_SETS) == FOH_OK;
    if (ok) {
        sl->search = search;
        sl->nsearch = nsearch;
        snprintf(cs->dir, sizeof cs->dir, "%s", dirs[0]);
    }
    /* Each further folder extends the ones before it. */
    for (int i = 0; ok && i < ndirs; i++)
        ok = load_set(&ld, sl, cards, claims, dirs[i]);
    game = ok ? sl->game : NULL;

    /* Variants overlay game.yaml and the card entries, in order (checking:
     * a variant with an error is reported and the next one applied). */
    for (int v = 0; ok && v < nvariants; v++) {
        int before = ld.reported;
        snprintf(path, sizeof path, "%s/variant.yaml", variants[v]);
        vdocs[v] = foh_yaml_load_within(path, &ld.yaml_values, yerr, sizeof yerr);
        if (!vdocs[v])
            ok = foh_error_set(err, FOH_ERR_DATA, "%s", yerr) == FOH_OK;
        else
            ok = foh_variant_apply(vdocs[v], cs, game, cards, claims, &ld, err);
        if (ok) {
            char label[FOH_NAME + 16];
            snprintf(label, sizeof label, "variant %s", cs->variant[cs->nvariants - 1]);
            ok = record_source(&ld, label, path);
        }
        if (!ok)
            ok = foh_load_go_on(&ld, before);
    }

    ok = ok && foh_game_yaml_read(&ld, game);
    /* The variants' reactions name events, known now. */
    for (int h = 0; ok && h < cs->nhooks; h++) {
        if (cs->hook[h].point != FOH_HOOK_REACTION)
            continue;
        int ev = foh_load_find_named(cs->event[0], FOH_NAME, cs->nevents, cs->hook[h].event_name);
        if (ev < 0) {
            const char *names[FOH_MAX_EVENTS];
            char hint[700];
            foh_error_hint(hint, sizeof hint, cs->hook[h].event_name, "events", names,
                           foh_load_name_list(cs->event[0], FOH_NAME, cs->nevents, names));
            int before = ld.reported;
            ok = foh_error_at(err, FOH_ERR_DATA, cs->hook[h].file, cs->hook[h].line, 1,
                              "variant '%s': unknown event '%s'%s", cs->variant[cs->hook[h].variant],
                              cs->hook[h].event_name, hint) == FOH_OK;
            ok = ok || foh_load_go_on(&ld, before);
        } else {
            cs->hook[h].event = ev;
            cs->event_mask |= 1ull << ev;
        }
    }
    /* Checking: after a script that cannot be read the cards are still
     * read, but their effects are not run (they call the helpers). */
    int scripts_ok = 1;
    const foh_yaml_node *base_scripts = ok ? foh_yaml_get(game, "scripts") : NULL;
    for (size_t i = 0; ok && base_scripts && i < base_scripts->n; i++)
    {
        char from[FOH_PATH]; /* a script's path is relative to the game.yaml naming it */
        int before = ld.reported;
        dir_of(base_scripts->items[i]->file, from, sizeof from);
        if (!(ok = load_script(&ld, from, base_scripts->items[i])))
            scripts_ok = 0, ok = foh_load_go_on(&ld, before);
    }
    if (ok) {
        cs->players_allowed = 0;
        for (int p = cs->min_players; p <= cs->max_players; p++)
            cs->players_allowed |= 1u << p;
        if (claims->players_set)
            cs->players_allowed = claims->players_mask;
        for (int p = 1; ok && p <= FOH_MAX_PLAYERS; p++)
            if ((cs->players_allowed >> p & 1) && !cs->market_size[p]) {
                int before = ld.reported;
                ok = foh_load_bad_node(&ld, foh_yaml_get(foh_yaml_get(game, "setup"), "market_size"),
                                       "setup.market_size has no entry for %d players", p) ||
                     foh_load_go_on(&ld, before);
            }
    }
    for (int v = 0; ok && v < nvariants; v++) {
        const foh_yaml_node *scripts = foh_yaml_get(vdocs[v], "scripts");
        if (scripts && scripts->kind != FOH_YAML_SEQ)
            ok = foh_load_bad_node(&ld, scripts, "'scripts' must list Lua files, not be %s",
                                   foh_yaml_kind_name(scripts));
        for (size_t i = 0; ok && scripts && i < scripts->n; i++) {
            int before = ld.reported;
            if (!(ok = load_script(&ld, variants[v], scripts->items[i])))
                scripts_ok = 0, ok = foh_load_go_on(&ld, before);
        }
    }
    for (size_t k = 0; ok && k < cards->n; k++) {
        int before = ld.reported;
        if (!(ok = read_card(&ld, cards->node[k])) && ld.card && (ok = foh_load_go_on(&ld, before)))
            drop_last_card(&ld, ld.card);
        else if (!ok)
            ok = foh_load_go_on(&ld, before);
    }
    ld.card = NULL;
    if (ok && cs->ncards == 0)
        ok = foh_load_bad_node(&ld, game, "the card set has no cards");
    int before = ld.reported;
    ok = ok && (read_deck_bottom(&ld, game) || foh_load_go_on(&ld, before));
    ok = ok && (check_market_age(&ld, game) || foh_load_go_on(&ld, before));
    ok = ok && (check_reachable(&ld) || foh_load_go_on(&ld, before));
    if (ok && ld.report)
        foh_check_scripts(&ld);
    /* Base trees first: they may hold nodes whose file name a variant owns. */
    for (int i = 0; sl && i < sl->ntrees; i++)
        foh_yaml_free(sl->trees[i]);
    for (int v = 0; v < nvariants; v++)
        foh_yaml_free(vdocs[v]);
    free(sl);
    free(cards);
    free(claims);
    free(ld.dropped);
    /* Checking: the effects of the cards that read well are compiled and
     * checked even when others did not. */
    ok = ok && scripts_ok && fx->check_cardset(cs, &ld, err) == FOH_OK;
    /* Checking: an error that stopped loading (game.yaml unreadable, an
     * extend cycle...) is told too. */
    if (!ok && !ld.reported)
        foh_load_go_on(&ld, 0);
    ok = ok && !ld.reported;
    if (!ok) {
        flow_cardset_free(cs);
        return NULL;
    }
    return cs;
}

void flow_cardset_free(foh_cardset *cs)
{
    if (!cs)
        return;
    for (int i = 0; i < cs->ncards; i++) {
        free(cs->card[i].text);
        free(cs->card[i].edition_note);
        free(cs->card[i].effect_src);
    }
    for (int i = 0; i < cs->nscripts; i++)
        free(cs->script[i].src);
    for (int i = 0; i < cs->nhooks; i++)
        free(cs->hook[i].src);
    for (int i = 0; i < cs->nactions; i++) {
        free(cs->action[i].can_src);
        free(cs->action[i].run_src);
    }
    free(cs);
}

/* ---- Reading ---- */

int foh_cardset_action_count(const foh_cardset *cs) { return cs->nactions; }
const char *foh_cardset_action_name(const foh_cardset *cs, int i)
{
    return i >= 0 && i < cs->nactions ? cs->action[i].name : NULL;
}
const char *foh_cardset_action_label(const foh_cardset *cs, int i)
{
    return i >= 0 && i < cs->nactions ? cs->action[i].label : NULL;
}
int foh_cardset_action_find(const foh_cardset *cs, const char *name)
{
    for (int i = 0; i < cs->nactions; i++)
        if (!strcmp(cs->action[i].name, name))
            return i;
    return -1;
}

int foh_cardset_card_count(const foh_cardset *cs) { return cs->ncards; }

int foh_cardset_find(const foh_cardset *cs, const char *id)
{
    for (int i = 0; i < cs->ncards; i++)
        if (strcmp(cs->card[i].id, id) == 0)
            return i;
    return -1;
}

foh_status foh_cardset_card(const foh_cardset *cs, int card, foh_card_info *out)
{
    if (card < 0 || card >= cs->ncards)
        return foh_error_set(NULL, FOH_ERR_USAGE, "no card %d", card);
    const foh_card_def *c = &cs->card[card];
    out->id = c->id;
    out->name = c->name;
    out->age = cs->age[c->age].name;
    out->age_value = cs->age[c->age].value;
    out->type = cs->type[c->type].name;
    out->timing = cs->timing[c->timing].name;
    out->fires = foh_fire_names[cs->timing[c->timing].fire];
    out->type_index = c->type;
    out->obsolete = c->obsolete;
    for (int i = 0; i < FOH_MAX_ICONS; i++)
        out->stripe[i] = c->stripe[i];
    out->stripe_source = c->stripe_source;
    out->text = c->text;
    out->edition_note = c->edition_note;
    out->file = c->file;
    out->line = c->line;
    out->has_effect = c->effect_src != NULL;
    out->effect_file = c->effect_file;
    out->effect_line = c->effect_line;
    return FOH_OK;
}

int foh_cardset_card_param_count(const foh_cardset *cs, int card)
{
    return card >= 0 && card < cs->ncards ? cs->card_params[card].n : -1;
}

foh_status foh_cardset_card_param(const foh_cardset *cs, int card, int i, const char **name, const char **value)
{
    if (card < 0 || card >= cs->ncards || i < 0 || i >= cs->card_params[card].n)
        return foh_error_set(NULL, FOH_ERR_USAGE, "no param %d of card %d", i, card);
    *name = cs->card_params[card].p[i].name;
    *value = cs->card_params[card].p[i].value;
    return FOH_OK;
}

int foh_cardset_icon_count(const foh_cardset *cs) { return cs->nicons; }
const char *foh_cardset_icon_name(const foh_cardset *cs, int icon)
{
    return icon >= 0 && icon < cs->nicons ? cs->icon[icon] : "?";
}
int foh_cardset_icon_find(const foh_cardset *cs, const char *name)
{
    return foh_load_find_named(cs->icon[0], FOH_NAME, cs->nicons, name);
}
void foh_cardset_icon_list(const foh_cardset *cs, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < cs->nicons && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", cs->icon[i]);
}

int foh_cardset_type_count(const foh_cardset *cs) { return cs->ntypes; }
const char *foh_cardset_type_name(const foh_cardset *cs, int type)
{
    return type >= 0 && type < cs->ntypes ? cs->type[type].name : "?";
}
int foh_cardset_type_find(const foh_cardset *cs, const char *name)
{
    return foh_load_find_named(cs->type[0].name, sizeof cs->type[0], cs->ntypes, name);
}
int foh_cardset_min_players(const foh_cardset *cs) { return cs->min_players; }
int foh_cardset_max_players(const foh_cardset *cs) { return cs->max_players; }
int foh_cardset_tokens_in_box(const foh_cardset *cs) { return cs->tokens_in_box; }
int foh_cardset_other_icons_per_vp(const foh_cardset *cs) { return cs->other_icons_per_vp; }

const char *foh_cardset_type_placement(const foh_cardset *cs, int type)
{
    return type >= 0 && type < cs->ntypes ? foh_placement_names[cs->type[type].place] : NULL;
}

int foh_cardset_type_bonus_icon(const foh_cardset *cs, int type)
{
    return type >= 0 && type < cs->ntypes ? cs->type[type].bonus_icon : -1;
}

const char *foh_cardset_icon_symbol(const foh_cardset *cs, int icon)
{
    return icon >= 0 && icon < cs->nicons && cs->icon_symbol[icon][0] ? cs->icon_symbol[icon] : NULL;
}

void foh_cardset_scoring_rules(const foh_cardset *cs, foh_scoring_rules *out)
{
    out->full_vp_icons = cs->full_vp_icons;
    out->vp_per_full_icon = cs->vp_per_full_icon;
    out->other_icons_per_vp = cs->other_icons_per_vp;
    out->ntie_break = cs->ntie_break;
    out->tie_break[0] = cs->tie_break[0];
    out->tie_break[1] = cs->tie_break[1];
}
int foh_cardset_variant_count(const foh_cardset *cs) { return cs->nvariants; }
int foh_cardset_source_count(const foh_cardset *cs) { return cs->nsources; }

const char *foh_cardset_source(const foh_cardset *cs, int i, uint64_t *hash)
{
    if (i < 0 || i >= cs->nsources)
        return NULL;
    if (hash)
        *hash = cs->source[i].hash;
    return cs->source[i].label;
}

const char *foh_cardset_source_path(const foh_cardset *cs, int i)
{
    return i >= 0 && i < cs->nsources ? cs->source[i].path : NULL;
}

uint64_t foh_cardset_hash(const foh_cardset *cs)
{
    uint64_t h = FNV_START;
    for (int i = 0; i < cs->nsources; i++) {
        h = (h ^ foh_file_hash(cs->source[i].label, strlen(cs->source[i].label))) * 0x100000001b3ULL;
        h = (h ^ cs->source[i].hash) * 0x100000001b3ULL;
    }
    return h;
}

const char *foh_cardset_variant_name(const foh_cardset *cs, int i)
{
    return i >= 0 && i < cs->nvariants ? cs->variant[i] : "?";
}

int foh_cardset_allows_players(const foh_cardset *cs, int players, const char **note)
{
    if (note)
        *note = cs->players_note;
    return players >= 1 && players <= FOH_MAX_PLAYERS && (cs->players_allowed >> players & 1);
}

const char *foh_cardset_players_hint(const foh_cardset *cs, int players, char *counts, size_t len)
{
    int least = 0;
    if (len > 0)
        counts[0] = '\0';
    for (int p = 1; p <= FOH_MAX_PLAYERS; p++)
        if (foh_cardset_allows_players(cs, p, NULL)) {
            least = least ? least : p;
            size_t used = strlen(counts);
            snprintf(counts + used, len - used, "%s%d", used ? ", " : "", p);
        }
    return players < least ? cs->players_note : "";
}

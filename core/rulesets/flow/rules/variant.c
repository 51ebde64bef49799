/* variant: a variant folder's variant.yaml, overlaid on a card set's YAML
 * trees before they are read (see variant.h and docs/variants.md). Its
 * `scripts` (Lua helper files of the variant's folder) are loaded by the
 * card set loader after the base scripts. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "loader.h"
#include "variant.h"

const char *const foh_hook_names[FOH_HOOK_COUNT] = {
    "setup", "before_action", "after_action", "cleanup_start", "after_replenish", "after_age_check",
    "cleanup_end", "turn_start", "scoring",
};

/* A variant error at FILE:LINE:COLUMN; returns 0. */
static int fail(foh_error *err, const char *file, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail(foh_error *err, const char *file, int line, int column, const char *fmt, ...)
{
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    foh_error_at(err, FOH_ERR_DATA, file, line, column, "%s", what);
    return 0;
}
#define fail_node(err, n, ...) fail((err), (n)->file, (n)->line, (n)->column, __VA_ARGS__)
#define fail_key(err, m, i, ...) fail((err), (m)->file, (m)->key_lines[i], (m)->key_columns[i], __VA_ARGS__)

/* Two claims collide when equal or when one is a dotted prefix of the
 * other ("card temple" and "card temple.effect"). */
static int collide(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;
    return strncmp(a, b, n) == 0 && (la == lb || (la < lb ? b[n] : a[n]) == '.');
}

static int claim(foh_variant_claims *cl, const char *variant, const char *what, const foh_yaml_node *m, size_t key,
                 foh_error *err)
{
    for (int i = 0; i < cl->n; i++)
        if (strcmp(cl->variant[i], variant) && collide(cl->what[i], what))
            return fail_key(err, m, key, "variants '%s' and '%s' both change %s", cl->variant[i], variant, what);
    if (cl->n >= FOH_MAX_CLAIMS)
        return fail_key(err, m, key, "more than %d changes in the variants together (the engine's limit)",
                        FOH_MAX_CLAIMS);
    if (strlen(what) >= sizeof cl->what[0])
        return fail_key(err, m, key, "'%s' is longer than %zu bytes", what, sizeof cl->what[0] - 1);
    snprintf(cl->what[cl->n], sizeof cl->what[0], "%s", what);
    snprintf(cl->variant[cl->n], sizeof cl->variant[0], "%s", variant);
    cl->n++;
    return 1;
}

/* Claim for the sequence item V of list L: the list's own position. */
static int claim_item(foh_variant_claims *cl, const char *variant, const char *what, const foh_yaml_node *v,
                      foh_error *err)
{
    for (int i = 0; i < cl->n; i++)
        if (strcmp(cl->variant[i], variant) && collide(cl->what[i], what))
            return fail_node(err, v, "variants '%s' and '%s' both change %s", cl->variant[i], variant, what);
    if (cl->n >= FOH_MAX_CLAIMS || strlen(what) >= sizeof cl->what[0])
        return fail_node(err, v, "more than %d changes in the variants together, or a name too long",
                         FOH_MAX_CLAIMS);
    snprintf(cl->what[cl->n], sizeof cl->what[0], "%s", what);
    snprintf(cl->variant[cl->n], sizeof cl->variant[0], "%s", variant);
    cl->n++;
    return 1;
}

/* Move the value of item I of map M out (the variant tree keeps NULL). */
static foh_yaml_node *take(foh_yaml_node *m, size_t i)
{
    foh_yaml_node *v = m->items[i];
    m->items[i] = NULL;
    return v;
}

static int find_card(const foh_variant_cards *cards, const char *id);
static int unknown_card(foh_error *err, const char *file, int line, int column, const char *op, const char *id,
                        const foh_variant_cards *cards);

/* The item of list L that is a map named NAME (its `name`, or a card's `id`). */
static foh_yaml_node *named_item(const foh_yaml_node *l, const char *name)
{
    for (size_t k = 0; k < l->n; k++) {
        const foh_yaml_node *n = foh_yaml_get(l->items[k], "name");
        if (!n)
            n = foh_yaml_get(l->items[k], "id");
        if (n && n->kind == FOH_YAML_SCALAR && !strcmp(n->text, name))
            return l->items[k];
    }
    return NULL;
}

/* "there (did you mean ...)": the keys of map M, or the names of list M,
 * and the fields EXTRA (NULL-terminated, may be NULL) M may also hold. */
static void path_hint(const foh_yaml_node *m, const char *seg, const char *const *extra, char *hint, size_t len)
{
    const char *names[64];
    int n = 0;
    for (size_t k = 0; k < m->n && n < 64; k++) {
        if (m->kind == FOH_YAML_MAP) {
            names[n++] = m->keys[k];
        } else {
            const foh_yaml_node *nm = foh_yaml_get(m->items[k], "name");
            if (!nm)
                nm = foh_yaml_get(m->items[k], "id");
            if (nm && nm->kind == FOH_YAML_SCALAR)
                names[n++] = nm->text;
        }
    }
    for (; extra && *extra && n < 64; extra++)
        if (!foh_yaml_get(m, *extra))
            names[n++] = *extra;
    hint[0] = 0;
    foh_error_hint(hint, len, seg, "there", names, n);
}

/* The fields a section at dotted path PARENT may hold though absent (they
 * have defaults): game.yaml's sections, a card's fields; NULL if none. */
static const char *const *known_fields(const char *parent)
{
    if (!strncmp(parent, "cards.", 6) && !strchr(parent + 6, '.'))
        return foh_card_fields;
    return foh_game_yaml_fields(parent);
}

static int listed(const char *const *names, const char *name)
{
    for (; names && *names; names++)
        if (!strcmp(*names, name))
            return 1;
    return 0;
}

/* A new empty map at the position of node AT. */
static foh_yaml_node *new_map(const foh_yaml_node *at)
{
    foh_yaml_node *m = calloc(1, sizeof *m);
    if (m) {
        m->kind = FOH_YAML_MAP;
        m->file = at->file;
        m->line = at->line;
        m->column = at->column;
    }
    return m;
}

/* Entry I of set: {dotted.path: value}: replace that node of game.yaml,
 * or of a card (cards.ID.field...). A list's entry is named by its name
 * (card_types.military). */
static int apply_entry(foh_yaml_node *set, size_t i, const char *variant, foh_yaml_node *game,
                       foh_variant_cards *cards, foh_variant_claims *cl, foh_error *err)
{
    const char *key = set->keys[i];
    char path[256], what[300], parent[256] = "";
    if (strlen(key) >= sizeof path)
        return fail_key(err, set, i, "the path '%s' is longer than %zu bytes", key, sizeof path - 1);
    snprintf(path, sizeof path, "%s", key);
    foh_yaml_node *m = game;
    char *save = NULL, *seg = strtok_r(path, ".", &save), *next;
    const char *where = "game.yaml";
    if (seg && !strcmp(seg, "cards")) {
        /* cards.ID.field...: a card's field, claimed like cards.override's. */
        char *id = strtok_r(NULL, ".", &save);
        int at = id ? find_card(cards, id) : -1;
        if (at < 0)
            return unknown_card(err, set->file, set->key_lines[i], set->key_columns[i], "set", id ? id : "",
                                cards);
        snprintf(what, sizeof what, "card %s", key + strlen("cards."));
        m = cards->node[at];
        snprintf(parent, sizeof parent, "cards.%s", id);
        seg = strtok_r(NULL, ".", &save);
        where = "the card";
    } else {
        snprintf(what, sizeof what, "%s", key);
    }
    if (!claim(cl, variant, what, set, i, err))
        return 0;
    for (; seg && (next = strtok_r(NULL, ".", &save)); seg = next) {
        foh_yaml_node *child = m->kind == FOH_YAML_SEQ ? named_item(m, seg) : foh_yaml_get(m, seg);
        if (!child && m->kind == FOH_YAML_MAP && listed(known_fields(parent), seg)) {
            /* A section whose fields have defaults may be absent (rules.harvest). */
            if (!(child = new_map(set)) || !foh_yaml_set(m, seg, set->key_lines[i], child))
                return fail_key(err, set, i, "out of memory");
        }
        if (!child || (child->kind != FOH_YAML_MAP && child->kind != FOH_YAML_SEQ)) {
            char hint[600];
            path_hint(m, seg, NULL, hint, sizeof hint);
            return fail_key(err, set, i, "'%s': %s has no section '%s'%s", key, where, seg, hint);
        }
        m = child;
        size_t used = strlen(parent);
        snprintf(parent + used, sizeof parent - used, "%s%s", used ? "." : "", seg);
    }
    if (!seg)
        return fail_key(err, set, i, "'%s' is not a path to a value", key);
    if (m->kind == FOH_YAML_SEQ) {
        /* A whole named entry of a list (card_types.military: {...}). */
        foh_yaml_node *item = named_item(m, seg);
        if (!item) {
            char hint[600];
            path_hint(m, seg, NULL, hint, sizeof hint);
            return fail_key(err, set, i, "'%s': the list has no entry named '%s'%s", key, seg, hint);
        }
        for (size_t k = 0; k < m->n; k++)
            if (m->items[k] == item) {
                foh_yaml_free(item);
                m->items[k] = take(set, i);
            }
        return 1;
    }
    /* A new key may be added to a section whose fields have defaults, and
     * to a table keyed by numbers (Market size per player count);
     * anything else must exist: typos are caught here. A card's params
     * must exist (the effect reads them by name). */
    int numeric = m->n > 0;
    for (size_t k = 0; k < m->n; k++)
        numeric &= strspn(m->keys[k], "0123456789") == strlen(m->keys[k]);
    int is_params = strlen(parent) > 7 && !strcmp(parent + strlen(parent) - 7, ".params");
    int may_add = (numeric && strspn(seg, "0123456789") == strlen(seg)) || listed(known_fields(parent), seg);
    if (!foh_yaml_get(m, seg) && !may_add) {
        char hint[600];
        path_hint(m, seg, known_fields(parent), hint, sizeof hint);
        if (is_params)
            return fail_key(err, set, i, "'%s': the card has no param '%s'%s", key, seg, hint);
        return fail_key(err, set, i, "%s has no '%s' to set%s", where, key, hint);
    }
    if (!foh_yaml_set(m, seg, set->key_lines[i], take(set, i)))
        return fail_key(err, set, i, "out of memory");
    return 1;
}

/* set: every entry applied; in checking mode (LD) each entry's problem is
 * reported and the next one applied, so that one run names every typo. */
static int apply_set(foh_yaml_node *set, const char *variant, foh_yaml_node *game, foh_variant_cards *cards,
                     foh_variant_claims *cl, foh_loader *ld, foh_error *err)
{
    if (set->kind != FOH_YAML_MAP)
        return fail_node(err, set, "'set' maps game.yaml paths (like setup.starting_tokens) to values");
    int ok = 1;
    for (size_t i = 0; i < set->n; i++) {
        int before = ld ? ld->reported : 0;
        if (!apply_entry(set, i, variant, game, cards, cl, err)) {
            if (!ld || !foh_load_go_on(ld, before))
                return 0;
            ok = 0;
        }
    }
    return ok;
}

static const char *card_id_of(const foh_yaml_node *card)
{
    const foh_yaml_node *id = foh_yaml_get(card, "id");
    return id && id->kind == FOH_YAML_SCALAR ? id->text : "";
}

static int find_card(const foh_variant_cards *cards, const char *id)
{
    for (size_t i = 0; i < cards->n; i++)
        if (!strcmp(card_id_of(cards->node[i]), id))
            return (int)i;
    return -1;
}

/* The unknown card id ID, with the nearest id of CARDS if there is one. */
static int unknown_card(foh_error *err, const char *file, int line, int column, const char *op, const char *id,
                        const foh_variant_cards *cards)
{
    const char *ids[FOH_MAX_CARDS];
    for (size_t i = 0; i < cards->n; i++)
        ids[i] = card_id_of(cards->node[i]);
    const char *close = foh_error_suggest(id, ids, (int)cards->n);
    return fail(err, file, line, column, "%s: unknown card id '%s'%s%s%s", op, id, close ? " (did you mean '" : "",
                close ? close : "", close ? "'?)" : "");
}

static int apply_cards(foh_yaml_node *spec, const char *variant, foh_variant_cards *cards, foh_variant_claims *cl,
                       foh_error *err)
{
    static const char *const ops[] = {"remove", "add", "override"};
    if (spec->kind != FOH_YAML_MAP)
        return fail_node(err, spec, "'cards' is a map with remove, add and override");
    for (size_t s = 0; s < spec->n; s++) {
        const char *op = spec->keys[s];
        foh_yaml_node *v = spec->items[s];
        char what[200];
        if (!strcmp(op, "remove")) {
            if (v->kind != FOH_YAML_SEQ)
                return fail_node(err, v, "cards.remove: a list of card ids, not %s", foh_yaml_kind_name(v));
            for (size_t i = 0; i < v->n; i++) {
                const foh_yaml_node *item = v->items[i];
                if (item->kind != FOH_YAML_SCALAR)
                    return fail_node(err, item, "cards.remove: a card id, not %s", foh_yaml_kind_name(item));
                int at = find_card(cards, item->text);
                if (at < 0)
                    return unknown_card(err, item->file, item->line, item->column, "cards.remove", item->text, cards);
                snprintf(what, sizeof what, "card %.150s", item->text);
                if (!claim_item(cl, variant, what, item, err))
                    return 0;
                cards->node[at] = cards->node[--cards->n];
            }
        } else if (!strcmp(op, "add")) {
            if (v->kind != FOH_YAML_SEQ)
                return fail_node(err, v, "cards.add: a list of cards, written like the card files");
            for (size_t i = 0; i < v->n; i++) {
                const char *id = card_id_of(v->items[i]);
                if (find_card(cards, id) >= 0)
                    return fail_node(err, v->items[i], "cards.add: card '%s' exists already", id);
                snprintf(what, sizeof what, "card %.150s", id);
                if (!claim_item(cl, variant, what, v->items[i], err))
                    return 0;
                if (cards->n >= FOH_MAX_CARDS)
                    return fail_node(err, v->items[i], "more than %d cards (the engine's limit)", FOH_MAX_CARDS);
                cards->node[cards->n++] = v->items[i]; /* stays owned by the variant tree */
            }
        } else if (!strcmp(op, "override")) {
            if (v->kind != FOH_YAML_MAP)
                return fail_node(err, v, "cards.override: map card ids to {field: value}");
            for (size_t i = 0; i < v->n; i++) {
                int at = find_card(cards, v->keys[i]);
                foh_yaml_node *changes = v->items[i];
                if (at < 0)
                    return unknown_card(err, v->file, v->key_lines[i], v->key_columns[i], "cards.override", v->keys[i],
                                        cards);
                if (changes->kind != FOH_YAML_MAP)
                    return fail_node(err, changes, "cards.override.%s: a map of fields", v->keys[i]);
                for (size_t f = 0; f < changes->n; f++) {
                    if (!listed(foh_card_fields + 1, changes->keys[f])) { /* all but the id */
                        char hint[400];
                        int nf = 0;
                        while (foh_card_fields[nf + 1])
                            nf++;
                        foh_error_hint(hint, sizeof hint, changes->keys[f], "fields", foh_card_fields + 1, nf);
                        return fail_key(err, changes, f, "card '%s': unknown field '%s'%s", v->keys[i],
                                        changes->keys[f], hint);
                    }
                    snprintf(what, sizeof what, "card %.100s.%s", v->keys[i], changes->keys[f]);
                    if (!claim(cl, variant, what, changes, f, err))
                        return 0;
                    if (!foh_yaml_set(cards->node[at], changes->keys[f], changes->key_lines[f], take(changes, f)))
                        return fail_node(err, changes, "out of memory");
                }
            }
        } else {
            char hint[200];
            foh_error_hint(hint, sizeof hint, op, "operations", ops, 3);
            return fail_key(err, spec, s, "cards: unknown operation '%s'%s", op, hint);
        }
    }
    return 1;
}

int foh_variant_cards_apply(foh_yaml_node *spec, const char *owner, foh_variant_cards *cards,
                            foh_variant_claims *claims, foh_error *err)
{
    return apply_cards(spec, owner, cards, claims, err);
}

static char *dup_text(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

/* Keep the Lua text SRC (of hook or reaction WHAT) as CS's next hook at
 * POINT (a reaction: to event EVENT, resolved later). */
static int add_hook(foh_cardset *cs, foh_hook_point point, const char *event, const foh_yaml_node *src,
                    const char *what, int variant, foh_error *err)
{
    if (src->kind != FOH_YAML_SCALAR)
        return fail_node(err, src, "%s '%s' must be Lua text, not %s", event ? "reaction to" : "hook", what,
                         foh_yaml_kind_name(src));
    if (cs->nhooks >= FOH_MAX_HOOKS)
        return fail_node(err, src, "more than %d hooks and reactions in all (the engine's limit)", FOH_MAX_HOOKS);
    if (strlen(src->file) >= sizeof cs->hook[0].file)
        return fail_node(err, src, "the file's path is longer than %zu bytes", sizeof cs->hook[0].file - 1);
    int h = cs->nhooks;
    cs->hook[h].point = point;
    cs->hook[h].event = -1;
    snprintf(cs->hook[h].event_name, sizeof cs->hook[h].event_name, "%s", event ? event : "");
    cs->hook[h].src = dup_text(src->text);
    snprintf(cs->hook[h].file, sizeof cs->hook[0].file, "%s", src->file);
    cs->hook[h].line = src->line + src->block_scalar;
    cs->hook[h].variant = variant;
    cs->nhooks++; /* from here on flow_cardset_free frees the text */
    if (!cs->hook[h].src)
        return fail_node(err, src, "out of memory");
    return 1;
}

static int collect_hooks(foh_yaml_node *hooks, int variant, foh_cardset *cs, foh_error *err)
{
    if (hooks->kind != FOH_YAML_MAP)
        return fail_node(err, hooks, "'hooks' maps hook names to Lua returning a function");
    for (size_t i = 0; i < hooks->n; i++) {
        int point = -1;
        for (int k = 0; k < FOH_HOOK_COUNT; k++)
            if (!strcmp(foh_hook_names[k], hooks->keys[i]))
                point = k;
        if (point < 0) {
            char hint[400];
            foh_error_hint(hint, sizeof hint, hooks->keys[i], "hooks", foh_hook_names, FOH_HOOK_COUNT);
            return fail_key(err, hooks, i, "unknown hook '%s'%s", hooks->keys[i], hint);
        }
        if (!add_hook(cs, (foh_hook_point)point, NULL, hooks->items[i], hooks->keys[i], variant, err))
            return 0;
    }
    return 1;
}

/* on: {event: Lua returning function(ev)}: the variant's reactions, kept as
 * hooks; event names are resolved once game.yaml's `events` are known. */
static int collect_reactions(foh_yaml_node *on, int variant, foh_cardset *cs, foh_error *err)
{
    if (on->kind != FOH_YAML_MAP)
        return fail_node(err, on, "'on' maps event names to Lua returning a function(event)");
    for (size_t i = 0; i < on->n; i++) {
        if (strlen(on->keys[i]) >= FOH_NAME)
            return fail_key(err, on, i, "the event's name is longer than %d bytes", FOH_NAME - 1);
        if (!add_hook(cs, FOH_HOOK_REACTION, on->keys[i], on->items[i], on->keys[i], variant, err))
            return 0;
    }
    return 1;
}

/* Whether TEXT is one printable line. */
static int one_line(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

/* The variant's `players`: the player counts it allows, intersected with
 * those of the variants before it. */
static int read_players(const foh_yaml_node *players, foh_variant_claims *claims, foh_error *err)
{
    uint32_t mask = 0;
    if (players->kind != FOH_YAML_SEQ)
        return fail_node(err, players, "'players' lists the player counts the variant allows");
    for (size_t i = 0; i < players->n; i++) {
        const foh_yaml_node *p = players->items[i];
        char *end = NULL;
        long n = p->kind == FOH_YAML_SCALAR ? strtol(p->text, &end, 10) : 0;
        if (!end || *end || n < 1 || n > FOH_MAX_PLAYERS)
            return fail_node(err, p, "'%s' is not a player count (1 to %d)",
                             p->kind == FOH_YAML_SCALAR ? p->text : "?", FOH_MAX_PLAYERS);
        mask |= 1u << n;
    }
    claims->players_mask = claims->players_set ? claims->players_mask & mask : mask;
    claims->players_set = 1;
    if (!claims->players_mask)
        return fail_node(err, players, "no player count is allowed by every variant together");
    return 1;
}

/* A failed section of a variant: stop, or in checking mode report it and
 * go on with the next. */
#define SECTION(x)                                                                                                     \
    do {                                                                                                               \
        int before_ = ld ? ld->reported : 0;                                                                           \
        if (!(x)) {                                                                                                    \
            if (!ld || !foh_load_go_on(ld, before_))                                                                   \
                return 0;                                                                                              \
            ok = 0;                                                                                                    \
        }                                                                                                              \
    } while (0)

int foh_variant_apply(foh_yaml_node *doc, foh_cardset *cs, foh_yaml_node *game, foh_variant_cards *cards,
                      foh_variant_claims *claims, foh_loader *ld, foh_error *err)
{
    int ok = 1;
    static const char *const keys[] = {"name", "description", "players", "set", "cards", "hooks", "scripts", "params", "on", "actions"};
    if (doc->kind != FOH_YAML_MAP)
        return fail_node(err, doc, "variant.yaml must be a map, not %s", foh_yaml_kind_name(doc));
    for (size_t i = 0; i < doc->n; i++) {
        int known = 0;
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            known |= !strcmp(keys[k], doc->keys[i]);
        if (!known) {
            char hint[400];
            foh_error_hint(hint, sizeof hint, doc->keys[i], "fields", keys, (int)(sizeof keys / sizeof keys[0]));
            SECTION(fail_key(err, doc, i, "unknown field '%s'%s", doc->keys[i], hint));
        }
    }
    const foh_yaml_node *name = foh_yaml_get(doc, "name"), *desc = foh_yaml_get(doc, "description");
    if (!name || name->kind != FOH_YAML_SCALAR || !desc || desc->kind != FOH_YAML_SCALAR)
        return fail_node(err, doc, "a variant needs a name and a one-line description");
    if (!name->text[0] || strlen(name->text) >= FOH_NAME || !one_line(name->text))
        return fail_node(err, name, "a variant's name is one printable line of 1 to %d bytes", FOH_NAME - 1);
    if (!one_line(desc->text))
        return fail_node(err, desc, "the description must be one printable line");
    if (cs->nvariants >= FOH_MAX_VARIANTS)
        return fail_node(err, name, "more than %d variants (the engine's limit)", FOH_MAX_VARIANTS);
    for (int i = 0; i < cs->nvariants; i++)
        if (!strcmp(cs->variant[i], name->text))
            return fail_node(err, name, "variant '%s' is applied twice", name->text);
    int me = cs->nvariants++;
    snprintf(cs->variant[me], sizeof cs->variant[0], "%s", name->text);

    foh_yaml_node *players = foh_yaml_get(doc, "players");
    if (players)
        SECTION(read_players(players, claims, err));
    const foh_yaml_node *params = foh_yaml_get(doc, "params");
    char owner[FOH_NAME + 16];
    snprintf(owner, sizeof owner, "variant '%s'", name->text);
    if (params)
        SECTION(foh_params_read(params, owner, &cs->variant_params[me], err));
    if (foh_yaml_get(doc, "set"))
        SECTION(apply_set(foh_yaml_get(doc, "set"), name->text, game, cards, claims, ld, err));
    if (foh_yaml_get(doc, "cards"))
        SECTION(apply_cards(foh_yaml_get(doc, "cards"), name->text, cards, claims, err));
    if (foh_yaml_get(doc, "hooks"))
        SECTION(collect_hooks(foh_yaml_get(doc, "hooks"), me, cs, err));
    if (foh_yaml_get(doc, "on"))
        SECTION(collect_reactions(foh_yaml_get(doc, "on"), me, cs, err));
    if (foh_yaml_get(doc, "actions"))
        SECTION(foh_actions_read(foh_yaml_get(doc, "actions"), me, cs, err));
    return ok;
}
#undef SECTION

foh_status foh_variant_describe(const char *variant_dir, char *name, size_t name_len, char *desc, size_t desc_len,
                                foh_error *err)
{
    char path[FOH_PATH + 16], yerr[800];
    if (snprintf(path, sizeof path, "%s/variant.yaml", variant_dir) >= (int)sizeof path)
        return foh_error_set(err, FOH_ERR_USAGE, "the variant folder's path is too long");
    foh_yaml_node *doc = foh_yaml_load(path, yerr, sizeof yerr);
    if (!doc)
        return foh_error_set(err, FOH_ERR_DATA, "%s", yerr);
    const foh_yaml_node *n = foh_yaml_get(doc, "name"), *d = foh_yaml_get(doc, "description");
    foh_status s = FOH_OK;
    if (!n || n->kind != FOH_YAML_SCALAR || !d || d->kind != FOH_YAML_SCALAR)
        s = foh_error_at(err, FOH_ERR_DATA, path, doc->line, doc->column,
                         "a variant needs a name and a one-line description");
    else {
        snprintf(name, name_len, "%s", n->text);
        snprintf(desc, desc_len, "%s", d->text);
    }
    foh_yaml_free(doc);
    return s;
}

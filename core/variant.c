/* variant: a variant folder's variant.yaml, overlaid on a card set's YAML
 * trees before they are read (see variant.h and docs/variants.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variant.h"

/* Its `scripts` (Lua helper files of the variant's folder) are loaded by the
 * card set loader after the base scripts. */

const char *const foh_hook_names[FOH_HOOK_COUNT] = {
    "setup", "before_action", "after_action", "cleanup_start", "after_replenish", "after_age_check",
    "cleanup_end", "scoring",
};

static int fail(foh_error *err, const foh_yaml_node *n, int line, const char *fmt, const char *a, const char *b)
{
    char what[400];
    snprintf(what, sizeof what, fmt, a ? a : "", b ? b : "");
    foh_error_set(err, FOH_ERR_DATA, "%s:%d: %s", n->file, line, what);
    return 0;
}

/* Two claims collide when equal or when one is a dotted prefix of the
 * other ("card temple" and "card temple.effect"). */
static int collide(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;
    return strncmp(a, b, n) == 0 && (la == lb || (la < lb ? b[n] : a[n]) == '.');
}

static int claim(foh_variant_claims *cl, const char *variant, const char *what, const foh_yaml_node *at, int line,
                 foh_error *err)
{
    for (int i = 0; i < cl->n; i++)
        if (strcmp(cl->variant[i], variant) && collide(cl->what[i], what)) {
            char both[200];
            snprintf(both, sizeof both, "'%s' and '%s'", cl->variant[i], variant);
            return fail(err, at, line, "variants %s both change %s", both, what);
        }
    if (cl->n >= FOH_MAX_CLAIMS)
        return fail(err, at, line, "too many changes in variants", NULL, NULL);
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

/* set: {dotted.path: value}: replace that node of game.yaml. */
static int apply_set(foh_yaml_node *set, const char *variant, foh_yaml_node *game, foh_variant_claims *cl, foh_error *err)
{
    if (set->kind != FOH_YAML_MAP)
        return fail(err, set, set->line, "'set' maps game.yaml paths (like setup.starting_tokens) to values", NULL,
                    NULL);
    for (size_t i = 0; i < set->n; i++) {
        char path[256], what[300];
        snprintf(path, sizeof path, "%s", set->keys[i]);
        snprintf(what, sizeof what, "%s", path);
        if (!claim(cl, variant, what, set, set->key_lines[i], err))
            return 0;
        foh_yaml_node *m = game;
        char *save = NULL, *seg = strtok_r(path, ".", &save), *next;
        for (; seg && (next = strtok_r(NULL, ".", &save)); seg = next) {
            foh_yaml_node *child = foh_yaml_get(m, seg);
            if (!child || child->kind != FOH_YAML_MAP)
                return fail(err, set, set->key_lines[i], "'%s' is not a section of game.yaml", set->keys[i], NULL);
            m = child;
        }
        /* A new key may only be added to a table keyed by numbers (Market size
         * per player count); anything else must exist: typos are caught here. */
        int numeric = m->n > 0;
        for (size_t k = 0; k < m->n; k++)
            numeric &= strspn(m->keys[k], "0123456789") == strlen(m->keys[k]);
        if (!seg || (!foh_yaml_get(m, seg) && !(numeric && strspn(seg, "0123456789") == strlen(seg))))
            return fail(err, set, set->key_lines[i], "game.yaml has no '%s' to set", set->keys[i], NULL);
        if (!foh_yaml_set(m, seg, set->key_lines[i], take(set, i)))
            return fail(err, set, set->key_lines[i], "out of memory", NULL, NULL);
    }
    return 1;
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

static int apply_cards(foh_yaml_node *spec, const char *variant, foh_variant_cards *cards, foh_variant_claims *cl,
                       foh_error *err)
{
    static const char *const fields[] = {"name", "age", "type", "timing", "obsolete", "ends_game", "stripe",
                                         "stripe_source", "text", "edition_note", "effect", NULL};
    if (spec->kind != FOH_YAML_MAP)
        return fail(err, spec, spec->line, "'cards' is a map with remove, add and override", NULL, NULL);
    for (size_t s = 0; s < spec->n; s++) {
        const char *op = spec->keys[s];
        foh_yaml_node *v = spec->items[s];
        char what[200];
        if (!strcmp(op, "remove")) {
            if (v->kind != FOH_YAML_SEQ)
                return fail(err, v, v->line, "cards.remove: a list of card ids", NULL, NULL);
            for (size_t i = 0; i < v->n; i++) {
                const char *id = v->items[i]->kind == FOH_YAML_SCALAR ? v->items[i]->text : "";
                int at = find_card(cards, id);
                if (at < 0)
                    return fail(err, v->items[i], v->items[i]->line, "cards.remove: unknown card id '%s'", id, NULL);
                snprintf(what, sizeof what, "card %s", id);
                if (!claim(cl, variant, what, v->items[i], v->items[i]->line, err))
                    return 0;
                cards->node[at] = cards->node[--cards->n];
            }
        } else if (!strcmp(op, "add")) {
            if (v->kind != FOH_YAML_SEQ)
                return fail(err, v, v->line, "cards.add: a list of cards, written like the card files", NULL, NULL);
            for (size_t i = 0; i < v->n; i++) {
                const char *id = card_id_of(v->items[i]);
                if (find_card(cards, id) >= 0)
                    return fail(err, v->items[i], v->items[i]->line, "cards.add: card '%s' exists already", id, NULL);
                snprintf(what, sizeof what, "card %s", id);
                if (!claim(cl, variant, what, v->items[i], v->items[i]->line, err))
                    return 0;
                if (cards->n >= FOH_MAX_CARDS)
                    return fail(err, v->items[i], v->items[i]->line, "more than 128 cards", NULL, NULL);
                cards->node[cards->n++] = v->items[i]; /* stays owned by the variant tree */
            }
        } else if (!strcmp(op, "override")) {
            if (v->kind != FOH_YAML_MAP)
                return fail(err, v, v->line, "cards.override: map card ids to {field: value}", NULL, NULL);
            for (size_t i = 0; i < v->n; i++) {
                int at = find_card(cards, v->keys[i]);
                foh_yaml_node *changes = v->items[i];
                if (at < 0)
                    return fail(err, v, v->key_lines[i], "cards.override: unknown card id '%s'", v->keys[i], NULL);
                if (changes->kind != FOH_YAML_MAP)
                    return fail(err, changes, changes->line, "cards.override.%s: a map of fields", v->keys[i], NULL);
                for (size_t f = 0; f < changes->n; f++) {
                    int known = 0;
                    for (const char *const *k = fields; *k; k++)
                        known |= !strcmp(*k, changes->keys[f]);
                    if (!known)
                        return fail(err, changes, changes->key_lines[f], "card '%s': unknown field '%s'", v->keys[i],
                                    changes->keys[f]);
                    snprintf(what, sizeof what, "card %s.%s", v->keys[i], changes->keys[f]);
                    if (!claim(cl, variant, what, changes, changes->key_lines[f], err))
                        return 0;
                    if (!foh_yaml_set(cards->node[at], changes->keys[f], changes->key_lines[f], take(changes, f)))
                        return fail(err, changes, changes->line, "out of memory", NULL, NULL);
                }
            }
        } else {
            return fail(err, spec, spec->key_lines[s], "cards: unknown operation '%s' (remove, add, override)", op,
                        NULL);
        }
    }
    return 1;
}

static char *dup_text(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

static int collect_hooks(foh_yaml_node *hooks, int variant, foh_cardset *cs, foh_error *err)
{
    if (hooks->kind != FOH_YAML_MAP)
        return fail(err, hooks, hooks->line, "'hooks' maps hook names to Lua returning a function", NULL, NULL);
    for (size_t i = 0; i < hooks->n; i++) {
        int point = -1;
        for (int k = 0; k < FOH_HOOK_COUNT; k++)
            if (!strcmp(foh_hook_names[k], hooks->keys[i]))
                point = k;
        if (point < 0) {
            char names[200] = "";
            for (int k = 0; k < FOH_HOOK_COUNT; k++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                         foh_hook_names[k]);
            return fail(err, hooks, hooks->key_lines[i], "unknown hook '%s' (hooks: %s)", hooks->keys[i], names);
        }
        const foh_yaml_node *src = hooks->items[i];
        if (src->kind != FOH_YAML_SCALAR)
            return fail(err, src, src->line, "hook '%s' must be Lua text", hooks->keys[i], NULL);
        if (cs->nhooks >= FOH_MAX_HOOKS)
            return fail(err, src, src->line, "too many hooks", NULL, NULL);
        cs->hook[cs->nhooks].point = (foh_hook_point)point;
        cs->hook[cs->nhooks].src = dup_text(src->text);
        snprintf(cs->hook[cs->nhooks].file, sizeof cs->hook[0].file, "%s", src->file);
        cs->hook[cs->nhooks].line = src->line + src->block_scalar;
        cs->hook[cs->nhooks].variant = variant;
        if (!cs->hook[cs->nhooks++].src)
            return fail(err, src, src->line, "out of memory", NULL, NULL);
    }
    return 1;
}

int foh_variant_apply(foh_yaml_node *doc, foh_cardset *cs, foh_yaml_node *game, foh_variant_cards *cards,
                      foh_variant_claims *claims, foh_error *err)
{
    static const char *const keys[] = {"name", "description", "players", "set", "cards", "hooks", "scripts", NULL};
    if (doc->kind != FOH_YAML_MAP)
        return fail(err, doc, doc->line, "variant.yaml must be a map", NULL, NULL);
    for (size_t i = 0; i < doc->n; i++) {
        int ok = 0;
        for (const char *const *k = keys; *k; k++)
            ok |= !strcmp(*k, doc->keys[i]);
        if (!ok)
            return fail(err, doc, doc->key_lines[i], "unknown field '%s' (fields: name, description, players, set, "
                        "cards, hooks, scripts)", doc->keys[i], NULL);
    }
    const foh_yaml_node *name = foh_yaml_get(doc, "name"), *desc = foh_yaml_get(doc, "description");
    if (!name || name->kind != FOH_YAML_SCALAR || !desc || desc->kind != FOH_YAML_SCALAR)
        return fail(err, doc, doc->line, "a variant needs a name and a one-line description", NULL, NULL);
    if (strlen(name->text) >= FOH_NAME)
        return fail(err, name, name->line, "variant name '%s' is too long", name->text, NULL);
    if (cs->nvariants >= FOH_MAX_VARIANTS)
        return fail(err, name, name->line, "more than 8 variants", NULL, NULL);
    for (int i = 0; i < cs->nvariants; i++)
        if (!strcmp(cs->variant[i], name->text))
            return fail(err, name, name->line, "variant '%s' is applied twice", name->text, NULL);
    int me = cs->nvariants++;
    snprintf(cs->variant[me], sizeof cs->variant[0], "%s", name->text);

    foh_yaml_node *players = foh_yaml_get(doc, "players");
    if (players) {
        uint32_t mask = 0;
        if (players->kind != FOH_YAML_SEQ)
            return fail(err, players, players->line, "'players' lists the player counts the variant allows", NULL,
                        NULL);
        for (size_t i = 0; i < players->n; i++) {
            const foh_yaml_node *p = players->items[i];
            int n = p->kind == FOH_YAML_SCALAR ? atoi(p->text) : 0;
            if (n < 1 || n > FOH_MAX_PLAYERS)
                return fail(err, p, p->line, "'%s' is not a player count (1 to 6)", p->kind == FOH_YAML_SCALAR ? p->text : "?",
                            NULL);
            mask |= 1u << n;
        }
        claims->players_mask = claims->players_set ? claims->players_mask & mask : mask;
        claims->players_set = 1;
        if (!claims->players_mask)
            return fail(err, players, players->line, "no player count is allowed by every variant together", NULL,
                        NULL);
    }
    if (foh_yaml_get(doc, "set") && !apply_set(foh_yaml_get(doc, "set"), name->text, game, claims, err))
        return 0;
    if (foh_yaml_get(doc, "cards") && !apply_cards(foh_yaml_get(doc, "cards"), name->text, cards, claims, err))
        return 0;
    if (foh_yaml_get(doc, "hooks") && !collect_hooks(foh_yaml_get(doc, "hooks"), me, cs, err))
        return 0;
    return 1;
}

foh_status foh_variant_describe(const char *variant_dir, char *name, size_t name_len, char *desc, size_t desc_len,
                                foh_error *err)
{
    char path[1024], yerr[600];
    snprintf(path, sizeof path, "%s/variant.yaml", variant_dir);
    foh_yaml_node *doc = foh_yaml_load(path, yerr, sizeof yerr);
    if (!doc)
        return foh_error_set(err, FOH_ERR_DATA, "%s", yerr);
    const foh_yaml_node *n = foh_yaml_get(doc, "name"), *d = foh_yaml_get(doc, "description");
    foh_status s = FOH_OK;
    if (!n || n->kind != FOH_YAML_SCALAR || !d || d->kind != FOH_YAML_SCALAR)
        s = foh_error_set(err, FOH_ERR_DATA, "%s:%d: a variant needs a name and a one-line description", path,
                          doc->line);
    else {
        snprintf(name, name_len, "%s", n->text);
        snprintf(desc, desc_len, "%s", d->text);
    }
    foh_yaml_free(doc);
    return s;
}

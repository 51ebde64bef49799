/* tune_tunables: see tune_tunables.h. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/tune.h"
#include "tune/tune_tunables.h"

static int matches(const tuner *T, const char *path)
{
    if (!T->npatterns)
        return 1;
    for (int i = 0; i < T->npatterns; i++)
        if (fnmatch(T->patterns[i], path, 0) == 0)
            return 1;
    return 0;
}

static int whole_number(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < -1000000 || v > 1000000)
        return 0;
    *out = (int)v;
    return 1;
}

/* Whether a user variant that is loaded as it is sets PATH (then the
 * candidates may not: the loader refuses two variants setting one path). */
static int set_by_loaded_variant(const tuner *T, const char *path)
{
    for (int i = 0; i < T->o.nvariants; i++) {
        char file[1200], err[300];
        snprintf(file, sizeof file, "%s/variant.yaml", T->o.variant_dir[i]);
        foh_yaml_node *y = foh_yaml_load(file, err, sizeof err);
        const foh_yaml_node *set = y ? foh_yaml_get(y, "set") : NULL;
        int found = set && set->kind == FOH_YAML_MAP && foh_yaml_key(set, path) >= 0;
        /* A card the variant overrides is its own: its fields stay as they are. */
        const foh_yaml_node *ov = y ? foh_yaml_get(foh_yaml_get(y, "cards"), "override") : NULL;
        if (!found && ov && !strncmp(path, "cards.", 6)) {
            char id[128];
            snprintf(id, sizeof id, "%.*s", (int)strcspn(path + 6, "."), path + 6);
            found = foh_yaml_get(ov, id) != NULL;
        }
        foh_yaml_free(y);
        if (found)
            return 1;
    }
    return 0;
}

/* The value at dotted PATH in the merged variants' sets, else in game.yaml
 * tree G; 0 if neither has a whole number there. */
static int rule_value(const tuner *T, const foh_yaml_node *g, const char *path, int *out)
{
    for (int i = T->nmerged - 1; i >= 0; i--) {
        const foh_yaml_node *v = foh_yaml_get(foh_yaml_get(T->merged[i], "set"), path);
        if (v && v->kind == FOH_YAML_SCALAR)
            return whole_number(v->text, out);
    }
    char buf[200];
    snprintf(buf, sizeof buf, "%s", path);
    const foh_yaml_node *n = g;
    char *save = NULL;
    for (char *seg = strtok_r(buf, ".", &save); seg && n; seg = strtok_r(NULL, ".", &save))
        n = foh_yaml_get(n, seg);
    return n && n->kind == FOH_YAML_SCALAR && whole_number(n->text, out);
}

static int add_tunable(tuner *T, const char *path, const char *label, int card, int base, int lo, int hi, int floor)
{
    if (!matches(T, path) || set_by_loaded_variant(T, path) || lo >= hi)
        return 1;
    if (T->ntun >= TUNE_MAX_TUNABLES) {
        cli_error("tune", "more than %d tunables: restrict them with --tunable", TUNE_MAX_TUNABLES);
        return 0;
    }
    tunable *t = &T->tun[T->ntun++];
    snprintf(t->path, sizeof t->path, "%s", path);
    snprintf(t->label, sizeof t->label, "%s", label);
    t->card = card;
    t->base = base;
    t->lo = lo;
    t->hi = hi;
    t->floor = floor;
    T->nvalues_total += hi - lo;
    return 1;
}

int tune_find_tunables(tuner *T, const foh_cardset *cs)
{
    char path[200], label[200];
    for (int c = 0; c < foh_cardset_card_count(cs); c++) {
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        for (int i = 0; i < foh_cardset_card_param_count(cs, c); i++) {
            const char *name, *value;
            int v;
            foh_cardset_card_param(cs, c, i, &name, &value);
            if (!whole_number(value, &v))
                continue;
            snprintf(path, sizeof path, "cards.%s.params.%s", ci.id, name);
            snprintf(label, sizeof label, "%s: params.%s", ci.name, name);
            /* +-2, or for a larger number +-2/3 of it: a number of 6 may
             * become 2 or 10, where a step of 2 would leave a card made
             * three times too strong out of reach (issue 31). */
            int a = v < 0 ? -v : v, step = a * 2 / 3 > 2 ? a * 2 / 3 : 2;
            int lo = v - step < 0 && v >= 0 ? 0 : v - step;
            if (!add_tunable(T, path, label, c, v, lo, v + step, lo < 0 ? lo : 0))
                return 0;
        }
        for (int k = 0; k < foh_cardset_icon_count(cs); k++)
            if (ci.stripe[k] > 0) {
                const char *icon = foh_cardset_icon_name(cs, k);
                snprintf(path, sizeof path, "cards.%s.stripe.%s", ci.id, icon);
                snprintf(label, sizeof label, "%s: %s icons on the stripe", ci.name, icon);
                if (!add_tunable(T, path, label, c, ci.stripe[k], ci.stripe[k] - 1, ci.stripe[k] + 1, 0))
                    return 0;
            }
    }
    /* Rule numbers: game.yaml of the first card set, as the merged variants set them. */
    static const struct {
        const char *path;
        int min, step;
    } RULES[] = {{"setup.starting_tokens", 0, 2},          {"rules.harvest.tokens_per_icon", 0, 1},
                 {"rules.snipe.tokens_per_icon", 0, 1},     {"rules.investor_bonus.tokens_per_icon", 0, 1},
                 {"rules.other_icons_per_vp", 1, 1},        {"rules.vp_per_full_icon", 1, 1}};
    cli_sources src;
    cli_sources_of(&T->o, &src);
    char file[1200], err[300];
    snprintf(file, sizeof file, "%s/game.yaml", src.sets[0]);
    foh_yaml_node *g = foh_yaml_load(file, err, sizeof err);
    for (size_t r = 0; g && r < sizeof RULES / sizeof RULES[0]; r++) {
        int v;
        if (!rule_value(T, g, RULES[r].path, &v))
            continue;
        int lo = v - RULES[r].step < RULES[r].min ? RULES[r].min : v - RULES[r].step;
        if (!add_tunable(T, RULES[r].path, RULES[r].path, -1, v, lo, v + RULES[r].step, RULES[r].min)) {
            foh_yaml_free(g);
            return 0;
        }
    }
    foh_yaml_free(g);
    return 1;
}

int tune_split_variants(tuner *T)
{
    int keep = 0;
    for (int i = 0; i < T->o.nvariants; i++) {
        char file[1200], err[300];
        snprintf(file, sizeof file, "%s/variant.yaml", T->o.variant_dir[i]);
        foh_yaml_node *y = foh_yaml_load(file, err, sizeof err);
        static const char *const SET_ONLY[] = {"name", "description", "set", NULL};
        if (y && y->kind == FOH_YAML_MAP && foh_yaml_unknown_key(y, SET_ONLY) < 0 &&
            foh_yaml_get(y, "set") && foh_yaml_get(y, "set")->kind == FOH_YAML_MAP) {
            T->merged[T->nmerged] = y;
            T->merged_name[T->nmerged++] = T->o.variant[i];
            continue;
        }
        foh_yaml_free(y);
        T->o.variant[keep] = T->o.variant[i];
        memmove(T->o.variant_dir[keep], T->o.variant_dir[i], sizeof T->o.variant_dir[0]);
        keep++;
    }
    T->o.nvariants = keep;
    return 1;
}

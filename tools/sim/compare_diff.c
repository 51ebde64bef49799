/* compare_diff: what differs between A and B (see compare_diff.h). */
#define _GNU_SOURCE /* vasprintf */
#include "sim/compare_diff.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "sim/sim_stats.h"

static void note(json_t *list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(json_t *list, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    if (vasprintf(&text, fmt, ap) >= 0) {
        json_array_append_new(list, json_string(text)); /* not UTF-8: dropped, not a crash */
        free(text);
    }
    va_end(ap);
}

static void text_field(json_t *list, const char *what, const char *a, const char *b)
{
    a = a ? a : "";
    b = b ? b : "";
    if (strcmp(a, b))
        note(list, "%s: \"%s\" -> \"%s\"", what, a, b);
}

/* The file name of PATH (a copy of a set in another folder is the same). */
static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "";
}

static void stripe_text(const foh_cardset *cs, const int *stripe, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < foh_cardset_icon_count(cs) && n < len; i++)
        if (stripe[i])
            n += (size_t)snprintf(out + n, len - n, "%s%s %d", n ? ", " : "", foh_cardset_icon_name(cs, i), stripe[i]);
}

/* The changes of card CA of A to card CB of B, into LIST. */
static void card_changes(const foh_cardset *a, int ca, const foh_cardset *b, int cb, json_t *list)
{
    foh_card_info x, y;
    if (foh_cardset_card(a, ca, &x) != FOH_OK || foh_cardset_card(b, cb, &y) != FOH_OK)
        return;
    text_field(list, "name", x.name, y.name);
    text_field(list, "age", x.age, y.age);
    text_field(list, "type", x.type, y.type);
    text_field(list, "timing", x.timing, y.timing);
    if (x.obsolete != y.obsolete)
        note(list, "obsolete: %s -> %s", x.obsolete ? "true" : "false", y.obsolete ? "true" : "false");
    char sa[256], sb[256];
    stripe_text(a, x.stripe, sa, sizeof sa);
    stripe_text(b, y.stripe, sb, sizeof sb);
    text_field(list, "stripe", sa, sb);
    text_field(list, "text", x.text, y.text);
    /* Where the effect is written, by file (a line moved by an edit above
     * it is no change of the card; the file's bytes are compared below). */
    const char *la = base_name(x.effect_file), *lb = base_name(y.effect_file);
    if (x.has_effect != y.has_effect || (x.has_effect && strcmp(la, lb)))
        note(list, "effect script: %s -> %s", x.has_effect ? la : "none", y.has_effect ? lb : "none");
    /* Params by name, each side's. */
    for (int side = 0; side < 2; side++) {
        const foh_cardset *s = side ? b : a, *o = side ? a : b;
        int c = side ? cb : ca, oc = side ? ca : cb;
        for (int i = 0; i < foh_cardset_card_param_count(s, c); i++) {
            const char *name, *value, *on, *ov = NULL;
            if (foh_cardset_card_param(s, c, i, &name, &value) != FOH_OK)
                continue;
            for (int j = 0; !ov && j < foh_cardset_card_param_count(o, oc); j++)
                if (foh_cardset_card_param(o, oc, j, &on, &ov) != FOH_OK || strcmp(on, name))
                    ov = NULL;
            if (!ov)
                note(list, side ? "params.%s: none -> %.40s" : "params.%s: %.40s -> none", name, value);
            else if (!side && strcmp(value, ov))
                note(list, "params.%s: %.40s -> %.40s", name, value, ov);
        }
    }
}

/* Source labels of CS with their hashes, as a JSON object label -> hash. */
static json_t *sources(const foh_cardset *cs)
{
    json_t *o = json_object();
    for (int i = 0; o && i < foh_cardset_source_count(cs); i++) {
        uint64_t h;
        const char *label = foh_cardset_source(cs, i, &h);
        json_object_set_new(o, label, json_integer((json_int_t)h));
    }
    return o;
}

/* The rule numbers the loader exposes that differ, into LIST. */
static void rule_changes(const foh_cardset *a, const foh_cardset *b, json_t *list)
{
    foh_scoring_rules ra, rb;
    foh_cardset_scoring_rules(a, &ra);
    foh_cardset_scoring_rules(b, &rb);
    if (ra.vp_per_full_icon != rb.vp_per_full_icon)
        note(list, "rules.vp_per_full_icon: %d -> %d", ra.vp_per_full_icon, rb.vp_per_full_icon);
    if (ra.other_icons_per_vp != rb.other_icons_per_vp)
        note(list, "rules.other_icons_per_vp: %d -> %d", ra.other_icons_per_vp, rb.other_icons_per_vp);
    if (ra.full_vp_icons != rb.full_vp_icons)
        note(list, "rules.full_vp_icons: differ");
    if (ra.ntie_break != rb.ntie_break || memcmp(ra.tie_break, rb.tie_break, sizeof ra.tie_break))
        note(list, "rules.tie_break: differs");
    if (foh_cardset_tokens_in_box(a) != foh_cardset_tokens_in_box(b))
        note(list, "tokens in the box: %d -> %d", foh_cardset_tokens_in_box(a), foh_cardset_tokens_in_box(b));
    if (foh_cardset_min_players(a) != foh_cardset_min_players(b) ||
        foh_cardset_max_players(a) != foh_cardset_max_players(b))
        note(list, "players: %d-%d -> %d-%d", foh_cardset_min_players(a), foh_cardset_max_players(a),
             foh_cardset_min_players(b), foh_cardset_max_players(b));
}

json_t *compare_diff(const foh_cardset *a, const foh_cardset *b)
{
    json_t *root = json_object(), *cards = json_array(), *only_a = json_array(), *only_b = json_array();
    json_t *files = json_array(), *va = json_array(), *vb = json_array(), *rules = json_array();
    rule_changes(a, b, rules);
    for (int c = 0; c < foh_cardset_card_count(a); c++) {
        foh_card_info x;
        if (foh_cardset_card(a, c, &x) != FOH_OK)
            continue;
        int cb = foh_cardset_find(b, x.id);
        if (cb < 0) {
            json_array_append_new(only_a, json_string(x.id));
            continue;
        }
        json_t *changes = json_array();
        card_changes(a, c, b, cb, changes);
        if (json_array_size(changes))
            json_array_append_new(cards, json_pack("{s:s,s:s,s:o}", "card", x.id, "name", x.name, "changes", changes));
        else
            json_decref(changes);
    }
    for (int c = 0; c < foh_cardset_card_count(b); c++) {
        foh_card_info y;
        if (foh_cardset_card(b, c, &y) == FOH_OK && foh_cardset_find(a, y.id) < 0)
            json_array_append_new(only_b, json_string(y.id));
    }
    for (int i = 0; i < foh_cardset_variant_count(a); i++)
        json_array_append_new(va, json_string(foh_cardset_variant_name(a, i)));
    for (int i = 0; i < foh_cardset_variant_count(b); i++)
        json_array_append_new(vb, json_string(foh_cardset_variant_name(b, i)));
    json_t *sa = sources(a), *sb = sources(b);
    const char *label;
    json_t *h;
    json_object_foreach(sa, label, h) {
        json_t *other = json_object_get(sb, label);
        if (!other || json_integer_value(other) != json_integer_value(h))
            json_array_append_new(files, json_string(label));
    }
    json_object_foreach(sb, label, h) if (!json_object_get(sa, label)) json_array_append_new(files, json_string(label));
    json_decref(sa);
    json_decref(sb);
    /* Card files that differ with none of their cards named: what differs
     * there is what the diff does not read (an effect's Lua code written in
     * the card, a comment). */
    json_t *unexplained = json_array(), *f;
    size_t fi;
    json_array_foreach(files, fi, f) {
        const char *file = json_string_value(f);
        if (!file || !strstr(file, ".yaml") || !strcmp(file, "game.yaml") || !strncmp(file, "variant ", 8))
            continue;
        int named = 0;
        json_t *c;
        size_t ci;
        json_array_foreach(cards, ci, c) {
            foh_card_info info;
            int k = foh_cardset_find(b, json_string_value(json_object_get(c, "card")));
            named |= k >= 0 && foh_cardset_card(b, k, &info) == FOH_OK && !strcmp(base_name(info.file), file);
        }
        if (!named)
            json_array_append(unexplained, f);
    }
    if (!root || json_object_set_new(root, "cards", cards) || json_object_set_new(root, "only_in_a", only_a) ||
        json_object_set_new(root, "only_in_b", only_b) || json_object_set_new(root, "rules", rules) ||
        json_object_set_new(root, "unexplained_files", unexplained) ||
        json_object_set_new(root, "variants_a", va) ||
        json_object_set_new(root, "variant_details_a", sim_variants_json(a)) ||
        json_object_set_new(root, "variant_details_b", sim_variants_json(b)) ||
        json_object_set_new(root, "variants_b", vb) || json_object_set_new(root, "files", files)) {
        json_decref(root);
        return NULL;
    }
    return root;
}

static void list_line(FILE *out, const char *what, const json_t *list)
{
    if (!json_array_size(list))
        return;
    fprintf(out, "  %s: ", what);
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
        fprintf(out, "%s", i ? ", " : "");
        cli_puts(out, json_string_value(v));
    }
    fprintf(out, "\n");
}

void compare_diff_print(FILE *out, const json_t *diff)
{
    fprintf(out, "what differs between A and B (read from their files):\n");
    if (!diff) {
        fprintf(out, "  not known (out of memory)\n");
        return;
    }
    const json_t *cards = json_object_get(diff, "cards");
    size_t i;
    json_t *c;
    json_array_foreach(cards, i, c) {
        fprintf(out, "  card ");
        cli_puts(out, json_string_value(json_object_get(c, "name")));
        fprintf(out, " (");
        cli_puts(out, json_string_value(json_object_get(c, "card")));
        fprintf(out, "): ");
        size_t j;
        json_t *ch;
        json_array_foreach(json_object_get(c, "changes"), j, ch) {
            fprintf(out, "%s", j ? "; " : "");
            cli_puts(out, json_string_value(ch));
        }
        fprintf(out, "\n");
    }
    list_line(out, "cards only in A", json_object_get(diff, "only_in_a"));
    list_line(out, "cards only in B", json_object_get(diff, "only_in_b"));
    list_line(out, "rules", json_object_get(diff, "rules"));
    /* The variants only when the two sides' lists differ, with what they set. */
    if (!json_equal(json_object_get(diff, "variants_a"), json_object_get(diff, "variants_b"))) {
        static const char *const SIDE[][2] = {{"variants_a", "variant_details_a"}, {"variants_b", "variant_details_b"}};
        for (int k = 0; k < 2; k++) {
            list_line(out, k ? "variants of B" : "variants of A", json_object_get(diff, SIDE[k][0]));
            json_t *d;
            json_array_foreach(json_object_get(diff, SIDE[k][1]), i, d) {
                const char *key;
                json_t *v;
                json_object_foreach(json_object_get(d, "set"), key, v) {
                    fprintf(out, "    %c: variant ", 'A' + k);
                    cli_puts(out, json_string_value(json_object_get(d, "name")) ? json_string_value(json_object_get(d, "name")) : "?");
                    fprintf(out, " sets ");
                    cli_puts(out, key);
                    fprintf(out, " = ");
                    cli_puts(out, json_string_value(v) ? json_string_value(v) : "?");
                    fprintf(out, "\n");
                }
            }
        }
    }
    list_line(out, "files whose contents differ (game.yaml: rules, set-up, vocabulary; a script: any card using it)",
              json_object_get(diff, "files"));
    json_t *f;
    json_array_foreach(json_object_get(diff, "unexplained_files"), i, f) {
        fprintf(out, "  ");
        cli_puts(out, json_string_value(f) ? json_string_value(f) : "?");
        fprintf(out, " differs, but in nothing the fields above compare (an effect's Lua code, a comment): its "
                     "cards may play differently; the ranking below says which moved\n");
    }
    if (!json_array_size(cards) && !json_array_size(json_object_get(diff, "only_in_a")) &&
        !json_array_size(json_object_get(diff, "only_in_b")) && !json_array_size(json_object_get(diff, "files")) &&
        !json_array_size(json_object_get(diff, "variants_a")) && !json_array_size(json_object_get(diff, "variants_b")))
        fprintf(out, "  nothing: the same cards, rules, scripts and variants (the two columns differ by chance alone)\n");
}

int compare_diff_names(const json_t *diff, const char *id)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(diff, "cards"), i, c) if (!strcmp(json_string_value(json_object_get(c, "card")),
                                                                         id)) return 1;
    static const char *const only[] = {"only_in_a", "only_in_b"};
    for (int k = 0; k < 2; k++)
        json_array_foreach(json_object_get(diff, only[k]), i, c) if (!strcmp(json_string_value(c), id)) return 1;
    return 0;
}

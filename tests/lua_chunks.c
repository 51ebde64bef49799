/* lua_chunks OUT ROOT FILE.yaml...: writes every Lua chunk of the card
 * files, game.yaml and variant.yaml files given (a card's `effect`; a
 * variant's `hooks`, `on` and the `effect` of the cards it adds or
 * overrides; the `can` and `run` of declared `actions`) to its own file in
 * OUT, as the engine compiles it (core/script/lua_sandbox.c): `local params = ...;`
 * and padding, so that lines are the YAML file's. The files are named after
 * the YAML file (relative to ROOT, '/' written '__') and the chunk, for
 * tests/luacheck_effects.cmake to lint. */
#include <stdio.h>
#include <string.h>

#include "foh/yaml.h"

typedef struct {
    const char *out, *file; /* the output folder; the YAML file's name for output names */
    int written, failed;
} chunks;

static void write_chunk(chunks *c, const foh_yaml_node *n, const char *what)
{
    if (n->kind != FOH_YAML_SCALAR)
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s.lua", c->out, c->file, what);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "lua_chunks: cannot write %s\n", path);
        c->failed = 1;
        return;
    }
    fputs("local params = ...;", f); /* the engine adds a space: luacheck would see trailing whitespace */
    for (int i = 1; i < n->line + n->block_scalar; i++)
        fputc('\n', f);
    fputs(n->text, f);
    fputc('\n', f);
    if (fclose(f) != 0)
        c->failed = 1;
    c->written++;
}

/* The `effect` of card map CARD, named by its id (or PREFIX). */
static void card_effect(chunks *c, const foh_yaml_node *card, const char *prefix)
{
    const foh_yaml_node *effect = foh_yaml_get(card, "effect"), *id = foh_yaml_get(card, "id");
    char what[300];
    snprintf(what, sizeof what, "%s%s.effect", prefix,
             id && id->kind == FOH_YAML_SCALAR ? id->text : "card");
    if (effect)
        write_chunk(c, effect, what);
}

/* Each value of map M (hooks, on), named PREFIX.KEY. */
static void map_chunks(chunks *c, const foh_yaml_node *m, const char *prefix)
{
    if (!m || m->kind != FOH_YAML_MAP)
        return;
    for (size_t i = 0; i < m->n; i++) {
        char what[300];
        snprintf(what, sizeof what, "%s.%s", prefix, m->keys[i]);
        write_chunk(c, m->items[i], what);
    }
}

static void file_chunks(chunks *c, const foh_yaml_node *root)
{
    if (root->kind == FOH_YAML_SEQ) { /* a card file */
        for (size_t i = 0; i < root->n; i++)
            if (root->items[i]->kind == FOH_YAML_MAP)
                card_effect(c, root->items[i], "");
        return;
    }
    if (root->kind != FOH_YAML_MAP)
        return;
    map_chunks(c, foh_yaml_get(root, "hooks"), "hooks");
    map_chunks(c, foh_yaml_get(root, "on"), "on");
    const foh_yaml_node *actions = foh_yaml_get(root, "actions");
    for (size_t i = 0; actions && actions->kind == FOH_YAML_SEQ && i < actions->n; i++) {
        const foh_yaml_node *a = actions->items[i], *name = foh_yaml_get(a, "name");
        const char *parts[] = {"can", "run"};
        for (int k = 0; k < 2; k++) {
            const foh_yaml_node *chunk = foh_yaml_get(a, parts[k]);
            char what[300];
            snprintf(what, sizeof what, "action.%s.%s", name && name->kind == FOH_YAML_SCALAR ? name->text : "?",
                     parts[k]);
            if (chunk)
                write_chunk(c, chunk, what);
        }
    }
    const foh_yaml_node *cards = foh_yaml_get(root, "cards");
    const foh_yaml_node *add = foh_yaml_get(cards, "add"), *override = foh_yaml_get(cards, "override");
    for (size_t i = 0; add && add->kind == FOH_YAML_SEQ && i < add->n; i++)
        if (add->items[i]->kind == FOH_YAML_MAP)
            card_effect(c, add->items[i], "add.");
    for (size_t i = 0; override && override->kind == FOH_YAML_MAP && i < override->n; i++) {
        const foh_yaml_node *effect = foh_yaml_get(override->items[i], "effect");
        char what[300];
        snprintf(what, sizeof what, "override.%s.effect", override->keys[i]);
        if (effect)
            write_chunk(c, effect, what);
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: lua_chunks OUT ROOT FILE.yaml...\n");
        return 2;
    }
    chunks c = {.out = argv[1]};
    size_t root = strlen(argv[2]);
    for (int i = 3; i < argc; i++) {
        char err[700], name[512];
        foh_yaml_node *doc = foh_yaml_load(argv[i], err, sizeof err);
        if (!doc) {
            fprintf(stderr, "lua_chunks: %s\n", err);
            return 1;
        }
        const char *rel = strncmp(argv[i], argv[2], root) == 0 && argv[i][root] == '/' ? argv[i] + root + 1 : argv[i];
        size_t k = 0;
        for (const char *p = rel; *p && k + 3 < sizeof name; p++) {
            if (*p == '/') {
                name[k++] = '_';
                name[k++] = '_';
            } else {
                name[k++] = *p;
            }
        }
        name[k] = '\0';
        c.file = name;
        file_chunks(&c, doc);
        foh_yaml_free(doc);
    }
    printf("lua_chunks: %d chunks written to %s\n", c.written, c.out);
    return c.failed;
}

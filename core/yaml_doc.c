/* yaml_doc: libyaml events -> checked tree. See yaml_doc.h. */
#include "yaml_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define YDOC_MAX_DEPTH 32
#define YDOC_MAX_FILE_BYTES (8u << 20)

typedef struct {
    yaml_parser_t parser;
    const char *path;
    char *path_copy; /* given to every node; owned by the root */
    char *err;
    size_t errlen;
    int failed;
} ydoc_reader;

static void fail(ydoc_reader *r, int line, const char *what)
{
    if (r->failed)
        return;
    r->failed = 1;
    snprintf(r->err, r->errlen, "%s:%d: %s", r->path, line, what);
}

static ydoc_node *node_new(const char *file, ydoc_kind kind, int line)
{
    ydoc_node *n = calloc(1, sizeof *n);
    if (n) {
        n->kind = kind;
        n->file = file;
        n->line = line;
    }
    return n;
}

void ydoc_free(ydoc_node *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++) {
        if (n->keys)
            free(n->keys[i]);
        ydoc_free(n->items[i]);
    }
    free(n->keys);
    free(n->key_lines);
    free(n->items);
    free(n->text);
    free(n->own_file);
    free(n);
}

static int append(ydoc_node *parent, char *key, int key_line, ydoc_node *child)
{
    size_t m = parent->n + 1;
    ydoc_node **items = realloc(parent->items, m * sizeof *items);
    if (!items)
        return 0;
    parent->items = items;
    if (parent->kind == YDOC_MAP) {
        char **keys = realloc(parent->keys, m * sizeof *keys);
        if (!keys)
            return 0;
        parent->keys = keys;
        int *lines = realloc(parent->key_lines, m * sizeof *lines);
        if (!lines)
            return 0;
        parent->key_lines = lines;
        keys[parent->n] = key;
        lines[parent->n] = key_line;
    }
    items[parent->n] = child;
    parent->n = m;
    return 1;
}

static int next_event(ydoc_reader *r, yaml_event_t *ev)
{
    if (!yaml_parser_parse(&r->parser, ev)) {
        char msg[256];
        snprintf(msg, sizeof msg, "YAML syntax error: %s",
                 r->parser.problem ? r->parser.problem : "unknown");
        fail(r, (int)r->parser.problem_mark.line + 1, msg);
        return 0;
    }
    return 1;
}

/* Parse the node that starts with event EV (already read). */
static ydoc_node *parse_node(ydoc_reader *r, yaml_event_t *ev, int depth)
{
    int line = (int)ev->start_mark.line + 1;
    if (depth > YDOC_MAX_DEPTH) {
        fail(r, line, "nesting deeper than 32 levels");
        return NULL;
    }
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        fail(r, line, "YAML aliases (*name) are not allowed in card data");
        return NULL;
    case YAML_SCALAR_EVENT: {
        if (ev->data.scalar.anchor) {
            fail(r, line, "YAML anchors (&name) are not allowed in card data");
            return NULL;
        }
        ydoc_node *n = node_new(r->path_copy, YDOC_SCALAR, line);
        if (!n)
            return NULL;
        n->text = malloc(ev->data.scalar.length + 1);
        if (!n->text) {
            free(n);
            return NULL;
        }
        memcpy(n->text, ev->data.scalar.value, ev->data.scalar.length);
        n->text[ev->data.scalar.length] = '\0';
        n->block_scalar = ev->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
                          ev->data.scalar.style == YAML_FOLDED_SCALAR_STYLE;
        return n;
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        int is_map = ev->type == YAML_MAPPING_START_EVENT;
        yaml_char_t *anchor = is_map ? ev->data.mapping_start.anchor
                                     : ev->data.sequence_start.anchor;
        if (anchor) {
            fail(r, line, "YAML anchors (&name) are not allowed in card data");
            return NULL;
        }
        ydoc_node *n = node_new(r->path_copy, is_map ? YDOC_MAP : YDOC_SEQ, line);
        if (!n)
            return NULL;
        for (;;) {
            yaml_event_t child;
            if (!next_event(r, &child))
                break;
            if (child.type == YAML_SEQUENCE_END_EVENT || child.type == YAML_MAPPING_END_EVENT) {
                yaml_event_delete(&child);
                return n;
            }
            char *key = NULL;
            int key_line = (int)child.start_mark.line + 1;
            if (is_map) {
                if (child.type != YAML_SCALAR_EVENT) {
                    yaml_event_delete(&child);
                    fail(r, key_line, "map keys must be plain words");
                    break;
                }
                ydoc_node *k = parse_node(r, &child, depth + 1);
                yaml_event_delete(&child);
                if (!k)
                    break;
                key = k->text;
                k->text = NULL;
                ydoc_free(k);
                if (ydoc_get(n, key)) {
                    char msg[200];
                    snprintf(msg, sizeof msg, "duplicate key '%.100s'", key);
                    free(key);
                    fail(r, key_line, msg);
                    break;
                }
                if (!next_event(r, &child)) {
                    free(key);
                    break;
                }
            }
            ydoc_node *c = parse_node(r, &child, depth + 1);
            yaml_event_delete(&child);
            if (!c || !append(n, key, key_line, c)) {
                free(key);
                ydoc_free(c);
                fail(r, key_line, "out of memory");
                break;
            }
        }
        ydoc_free(n);
        return NULL;
    }
    default:
        fail(r, line, "unexpected YAML event");
        return NULL;
    }
}

ydoc_node *ydoc_load_file(const char *path, char *err, size_t errlen)
{
    ydoc_reader r = {.path = path, .err = err, .errlen = errlen};
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open file", path);
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && ftell(f) > (long)YDOC_MAX_FILE_BYTES) {
        fclose(f);
        snprintf(err, errlen, "%s: file larger than 8 MiB", path);
        return NULL;
    }
    rewind(f);
    r.path_copy = malloc(strlen(path) + 1);
    if (!r.path_copy) {
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    strcpy(r.path_copy, path);
    yaml_parser_initialize(&r.parser);
    yaml_parser_set_input_file(&r.parser, f);

    ydoc_node *root = NULL;
    yaml_event_t ev;
    int docs = 0;
    while (!r.failed && next_event(&r, &ev)) {
        yaml_event_type_t t = ev.type;
        if (t == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        if (t == YAML_STREAM_START_EVENT || t == YAML_DOCUMENT_END_EVENT) {
            yaml_event_delete(&ev);
            continue;
        }
        if (t == YAML_DOCUMENT_START_EVENT) {
            if (++docs > 1)
                fail(&r, (int)ev.start_mark.line + 1, "only one YAML document per file");
            yaml_event_delete(&ev);
            continue;
        }
        root = parse_node(&r, &ev, 0);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&r.parser);
    fclose(f);
    if (r.failed || !root) {
        if (!r.failed)
            snprintf(err, errlen, "%s:1: empty file", path);
        ydoc_free(root);
        free(r.path_copy);
        return NULL;
    }
    root->own_file = r.path_copy;
    return root;
}

int ydoc_set(ydoc_node *m, const char *key, int key_line, ydoc_node *v)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->keys[i], key) == 0) {
            ydoc_free(m->items[i]);
            m->items[i] = v;
            return 1;
        }
    char *k = malloc(strlen(key) + 1);
    if (!k)
        return 0;
    strcpy(k, key);
    if (!append(m, k, key_line, v)) {
        free(k);
        return 0;
    }
    return 1;
}

ydoc_node *ydoc_get(const ydoc_node *m, const char *key)
{
    if (!m || m->kind != YDOC_MAP)
        return NULL;
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->keys[i], key) == 0)
            return m->items[i];
    return NULL;
}

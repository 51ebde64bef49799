/* yaml: libyaml events -> checked tree (see foh/yaml.h). */
#include "foh/yaml.h"

#include "foh/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>


typedef struct {
    yaml_parser_t parser;
    const char *path;
    char *path_copy; /* given to every node; owned by the root */
    char *err;
    size_t errlen;
    int failed;
    size_t nodes;     /* read so far, at most MAX_NODES */
    size_t max_nodes; /* this file's share of the values */
    int shared;       /* 1: the limit is what the caller's budget has left */
    const char *text; /* the file's bytes, for the place of a reader error */
    size_t len;
} reader;

static void fail(reader *r, int line, int column, const char *what)
{
    if (r->failed)
        return;
    r->failed = 1;
    snprintf(r->err, r->errlen, "%s:%d:%d: %s", r->path, line, column, what);
}

static foh_yaml_node *node_new(const char *file, foh_yaml_kind kind, const yaml_event_t *ev)
{
    foh_yaml_node *n = calloc(1, sizeof *n);
    if (n) {
        n->kind = kind;
        n->file = file;
        n->line = (int)ev->start_mark.line + 1;
        n->column = (int)ev->start_mark.column + 1;
    }
    return n;
}

void foh_yaml_free(foh_yaml_node *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++) {
        if (n->keys)
            free(n->keys[i]);
        foh_yaml_free(n->items[i]);
    }
    free(n->keys);
    free(n->key_lines);
    free(n->key_columns);
    free(n->items);
    free(n->text);
    free(n->own_file);
    free(n->index);
    free(n);
}

/* Maps with at least this many keys get a hash index (foh_yaml_key). */
#define INDEX_FROM 16

static size_t key_hash(const char *k)
{
    size_t h = 0xcbf29ce484222325ULL;
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 0x100000001b3ULL;
    return h;
}

/* Put key I of map M in its index (which has a free slot). */
static void index_put(foh_yaml_node *m, size_t i)
{
    size_t mask = m->index_cap - 1, at = key_hash(m->keys[i]) & mask;
    while (m->index[at])
        at = (at + 1) & mask;
    m->index[at] = i + 1;
}

/* (Re)build map M's index with room for twice its keys; 0 if out of memory. */
static int index_build(foh_yaml_node *m)
{
    size_t slots = 64;
    while (slots < 4 * m->n)
        slots *= 2;
    size_t *index = calloc(slots, sizeof *index);
    if (!index)
        return 0;
    free(m->index);
    m->index = index;
    m->index_cap = slots;
    for (size_t i = 0; i < m->n; i++)
        index_put(m, i);
    return 1;
}

/* Make room in PARENT for one more child: every array doubles, so building
 * a node of n children is linear. */
static int reserve(foh_yaml_node *parent)
{
    if (parent->n < parent->cap)
        return 1;
    if (parent->cap > ((size_t)-1 / 2) / sizeof(char *))
        return 0;
    size_t m = parent->cap ? parent->cap * 2 : 4;
    foh_yaml_node **items = realloc(parent->items, m * sizeof *items);
    if (!items)
        return 0;
    parent->items = items;
    if (parent->kind == FOH_YAML_MAP) {
        char **keys = realloc(parent->keys, m * sizeof *keys);
        if (!keys)
            return 0;
        parent->keys = keys;
        int *lines = realloc(parent->key_lines, m * sizeof *lines);
        if (!lines)
            return 0;
        parent->key_lines = lines;
        int *columns = realloc(parent->key_columns, m * sizeof *columns);
        if (!columns)
            return 0;
        parent->key_columns = columns;
    }
    parent->cap = m;
    return 1;
}

static int append(foh_yaml_node *parent, char *key, int key_line, int key_column, foh_yaml_node *child)
{
    if (!reserve(parent))
        return 0;
    size_t i = parent->n;
    if (parent->kind == FOH_YAML_MAP) {
        parent->keys[i] = key;
        parent->key_lines[i] = key_line;
        parent->key_columns[i] = key_column;
    }
    parent->items[i] = child;
    parent->n = i + 1;
    if (parent->kind == FOH_YAML_MAP && parent->n >= INDEX_FROM) {
        if (4 * parent->n > 2 * parent->index_cap) { /* at most half full */
            if (!index_build(parent)) {
                parent->n = i; /* the caller still owns KEY and CHILD */
                return 0;
            }
        } else {
            index_put(parent, i);
        }
    }
    return 1;
}

static int next_event(reader *r, yaml_event_t *ev)
{
    if (!yaml_parser_parse(&r->parser, ev)) {
        char msg[256];
        snprintf(msg, sizeof msg, "YAML syntax error: %s",
                 r->parser.problem ? r->parser.problem : "unknown");
        int line = (int)r->parser.problem_mark.line + 1, column = (int)r->parser.problem_mark.column + 1;
        if (r->parser.error == YAML_READER_ERROR) {
            /* libyaml places a bad byte (invalid UTF-8, a control character)
             * by its offset only: count the lines up to it. */
            line = column = 1;
            for (size_t i = 0; i < r->parser.problem_offset && i < r->len; i++, column++)
                if (r->text[i] == '\n') {
                    line++;
                    column = 0;
                }
        }
        fail(r, line, column, msg);
        return 0;
    }
    return 1;
}

/* Parse the node that starts with event EV (already read). */
static foh_yaml_node *parse_node(reader *r, yaml_event_t *ev, int depth)
{
    int line = (int)ev->start_mark.line + 1, column = (int)ev->start_mark.column + 1;
    if (depth > FOH_YAML_MAX_DEPTH) {
        char msg[80];
        snprintf(msg, sizeof msg, "nesting deeper than %d levels", FOH_YAML_MAX_DEPTH);
        fail(r, line, column, msg);
        return NULL;
    }
    if (++r->nodes > r->max_nodes) {
        char msg[160];
        if (r->shared)
            snprintf(msg, sizeof msg, "more than %u values in the files of one card set in all (the reader's limit)",
                     FOH_YAML_MAX_NODES);
        else
            snprintf(msg, sizeof msg, "more than %u values in one file (the reader's limit)", FOH_YAML_MAX_NODES);
        fail(r, line, column, msg);
        return NULL;
    }
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        fail(r, line, column, "YAML aliases (*name) are not allowed in card data");
        return NULL;
    case YAML_SCALAR_EVENT: {
        if (ev->data.scalar.anchor) {
            fail(r, line, column, "YAML anchors (&name) are not allowed in card data");
            return NULL;
        }
        foh_yaml_node *n = node_new(r->path_copy, FOH_YAML_SCALAR, ev);
        if (n && !(n->text = malloc(ev->data.scalar.length + 1))) {
            free(n);
            n = NULL;
        }
        if (!n) {
            fail(r, line, column, "out of memory");
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
            fail(r, line, column, "YAML anchors (&name) are not allowed in card data");
            return NULL;
        }
        foh_yaml_node *n = node_new(r->path_copy, is_map ? FOH_YAML_MAP : FOH_YAML_SEQ, ev);
        if (!n) {
            fail(r, line, column, "out of memory");
            return NULL;
        }
        for (;;) {
            yaml_event_t child;
            if (!next_event(r, &child))
                break;
            if (child.type == YAML_SEQUENCE_END_EVENT || child.type == YAML_MAPPING_END_EVENT) {
                yaml_event_delete(&child);
                return n;
            }
            char *key = NULL;
            int key_line = (int)child.start_mark.line + 1, key_column = (int)child.start_mark.column + 1;
            if (is_map) {
                if (child.type != YAML_SCALAR_EVENT) {
                    yaml_event_delete(&child);
                    fail(r, key_line, key_column, "map keys must be plain words");
                    break;
                }
                foh_yaml_node *k = parse_node(r, &child, depth + 1);
                yaml_event_delete(&child);
                if (!k)
                    break;
                key = k->text;
                k->text = NULL;
                foh_yaml_free(k);
                r->nodes--; /* a key is kept as its text alone */
                int first = foh_yaml_key(n, key);
                if (first >= 0) {
                    char msg[200];
                    snprintf(msg, sizeof msg, "duplicate key '%.100s' (first at line %d)", key, n->key_lines[first]);
                    free(key);
                    fail(r, key_line, key_column, msg);
                    break;
                }
                if (!next_event(r, &child)) {
                    free(key);
                    break;
                }
            }
            foh_yaml_node *c = parse_node(r, &child, depth + 1);
            yaml_event_delete(&child);
            if (!c) {
                free(key);
                break;
            }
            if (!append(n, key, key_line, key_column, c)) {
                free(key);
                foh_yaml_free(c);
                fail(r, key_line, key_column, "out of memory");
                break;
            }
        }
        foh_yaml_free(n);
        return NULL;
    }
    default:
        fail(r, line, column, "unexpected YAML event");
        return NULL;
    }
}

foh_yaml_node *foh_yaml_load(const char *path, char *err, size_t errlen)
{
    return foh_yaml_load_within(path, NULL, err, errlen);
}

foh_yaml_node *foh_yaml_load_within(const char *path, size_t *values_left, char *err, size_t errlen)
{
    reader r = {.path = path, .err = err, .errlen = errlen, .max_nodes = FOH_YAML_MAX_NODES};
    if (values_left && *values_left < r.max_nodes) {
        r.max_nodes = *values_left;
        r.shared = 1;
    }
    char *text;
    size_t len;
    foh_error ferr;
    if (foh_file_read(path, FOH_YAML_MAX_BYTES, "YAML files", &text, &len, &ferr) != FOH_OK) {
        snprintf(err, errlen, "%s", ferr.msg);
        return NULL;
    }
    r.path_copy = malloc(strlen(path) + 1);
    if (!r.path_copy) {
        free(text);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    strcpy(r.path_copy, path);
    yaml_parser_initialize(&r.parser);
    r.text = text;
    r.len = len;
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);

    foh_yaml_node *root = NULL;
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
                fail(&r, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1, "only one YAML document per file");
            yaml_event_delete(&ev);
            continue;
        }
        root = parse_node(&r, &ev, 0);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&r.parser);
    free(text);
    if (r.failed || !root) {
        if (!r.failed)
            snprintf(err, errlen, "%s:1:1: empty file", path);
        foh_yaml_free(root);
        free(r.path_copy);
        return NULL;
    }
    root->own_file = r.path_copy;
    if (values_left)
        *values_left -= r.nodes;
    return root;
}

int foh_yaml_set(foh_yaml_node *m, const char *key, int key_line, foh_yaml_node *v)
{
    int i = foh_yaml_key(m, key);
    if (i >= 0) {
        foh_yaml_free(m->items[i]);
        m->items[i] = v;
        return 1;
    }
    char *k = malloc(strlen(key) + 1);
    if (!k)
        return 0;
    strcpy(k, key);
    if (!append(m, k, key_line, 0, v)) {
        free(k);
        return 0;
    }
    return 1;
}

int foh_yaml_push(foh_yaml_node *seq, foh_yaml_node *v) { return append(seq, NULL, 0, 0, v); }

int foh_yaml_unknown_key(const foh_yaml_node *m, const char *const *allowed)
{
    for (size_t i = 0; i < m->n; i++) {
        int ok = 0;
        for (int k = 0; allowed[k] && !ok; k++)
            ok = strcmp(allowed[k], m->keys[i]) == 0;
        if (!ok)
            return (int)i;
    }
    return -1;
}

foh_yaml_node *foh_yaml_get(const foh_yaml_node *m, const char *key)
{
    int i = foh_yaml_key(m, key);
    return i < 0 ? NULL : m->items[i];
}

int foh_yaml_key(const foh_yaml_node *m, const char *key)
{
    if (!m || m->kind != FOH_YAML_MAP)
        return -1;
    if (m->index_cap) {
        size_t mask = m->index_cap - 1;
        for (size_t at = key_hash(key) & mask; m->index[at]; at = (at + 1) & mask)
            if (strcmp(m->keys[m->index[at] - 1], key) == 0)
                return (int)(m->index[at] - 1);
        return -1;
    }
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->keys[i], key) == 0)
            return (int)i;
    return -1;
}

const char *foh_yaml_kind_name(const foh_yaml_node *n)
{
    return n->kind == FOH_YAML_MAP ? "a map" : n->kind == FOH_YAML_SEQ ? "a list" : "a single value";
}

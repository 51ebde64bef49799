/* yaml_doc: a small, checked document tree on top of libyaml.
 *
 * libyaml 0.2.5 accepts duplicate keys, expands aliases and has no nesting
 * limit; card files come from modders, so this reader refuses all three and
 * keeps the line of every node for error messages. Internal to core/. */
#ifndef FOH_YAML_DOC_H
#define FOH_YAML_DOC_H

#include <stddef.h>

typedef enum { YDOC_SCALAR, YDOC_MAP, YDOC_SEQ } ydoc_kind;

typedef struct ydoc_node {
    ydoc_kind kind;
    const char *file;  /* the file it was read from (owned by its root) */
    int line;          /* 1-based line of the node in its file */
    int block_scalar;  /* 1 for | and > scalars: their text starts on line + 1 */
    char *text;        /* scalar value (NUL-terminated); NULL otherwise */
    size_t n;          /* children: map pairs or sequence items */
    char **keys;       /* map keys (n of them) */
    int *key_lines;    /* line of each key */
    struct ydoc_node **items; /* map values or sequence items */
    char *own_file;    /* root only: the storage behind `file` */
} ydoc_node;

/* Parse FILE into a tree. On error returns NULL and writes
 * "file:line: reason" into err. Maximum nesting depth: 32. */
ydoc_node *ydoc_load_file(const char *path, char *err, size_t errlen);

/* Free a tree (NULL is allowed). Nodes moved into another tree keep
 * pointing at this tree's file name: free that tree first. */
void ydoc_free(ydoc_node *n);

/* Replace (or add) the value of KEY in map M with V, which M then owns;
 * the old value is freed. Returns 0 if out of memory. */
int ydoc_set(ydoc_node *m, const char *key, int key_line, ydoc_node *v);

/* Value for KEY in map M, or NULL. */
ydoc_node *ydoc_get(const ydoc_node *m, const char *key);

#endif

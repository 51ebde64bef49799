/* YAML documents as checked trees: the engine's one door to YAML, used for
 * game.yaml, card files, variants and scenario files.
 *
 * libyaml 0.2.5 accepts duplicate keys, expands aliases and has no nesting
 * limit; these files come from modders, so this reader refuses all three
 * and keeps the line and column of every node and key for messages. */
#ifndef FOH_YAML_H
#define FOH_YAML_H

#include "foh/api.h"

#include <stddef.h>

typedef enum { FOH_YAML_SCALAR, FOH_YAML_MAP, FOH_YAML_SEQ } foh_yaml_kind;

typedef struct foh_yaml_node {
    foh_yaml_kind kind;
    const char *file;  /* the file it was read from (owned by its root) */
    int line, column;  /* 1-based position of the node in its file */
    int block_scalar;  /* 1 for | and > scalars: their text starts on line + 1 */
    char *text;        /* scalar value (NUL-terminated); NULL otherwise */
    size_t n;          /* children: map pairs or sequence items */
    char **keys;       /* map keys (n of them) */
    int *key_lines, *key_columns; /* position of each key */
    struct foh_yaml_node **items; /* map values or sequence items */
    char *own_file;    /* root only: the storage behind `file` */
    size_t cap;        /* room in items (and keys, key_lines, key_columns) */
    size_t *index;     /* large maps: hash slots holding 1 + a key's index, 0 if empty */
    size_t index_cap;  /* slots in index (a power of two), 0 without one */
} foh_yaml_node;

/* Maximum nesting depth and file size the reader accepts. Reading is
 * linear in the file: lists and maps grow geometrically and a large map's
 * keys are hashed, for the duplicate check and for foh_yaml_get. */
#define FOH_YAML_MAX_DEPTH 32
#define FOH_YAML_MAX_BYTES (8u << 20)
/* Values (scalars, lists and maps; not keys) in one file: a card set of
 * hundreds of cards holds some ten thousand, a scenario of a million steps
 * written [harvest, ...] a million; the cap bounds the tree's memory (about
 * 170 bytes a value) whatever the file holds. */
#define FOH_YAML_MAX_NODES (2u << 20)

/* Parse file PATH into a tree. The file is read through foh_file_read (a
 * regular file of at most FOH_YAML_MAX_BYTES; never a pipe or device). On
 * error returns NULL and writes "file:line:column: reason" into ERR (a
 * duplicate key names the line of the first one), or "file: reason" for a
 * file that cannot be read. */
FOH_API foh_yaml_node *foh_yaml_load(const char *path, char *err, size_t errlen);

/* foh_yaml_load within a budget of values shared by several files (the
 * files of one card set, kept in memory together): *VALUES_LEFT (start it
 * at FOH_YAML_MAX_NODES) is lowered by the values read; a file that would
 * take more is refused, "more than N values in the files of one card set in
 * all". VALUES_LEFT NULL: foh_yaml_load. */
FOH_API foh_yaml_node *foh_yaml_load_within(const char *path, size_t *values_left, char *err, size_t errlen);

/* Free a tree (NULL is allowed). Nodes moved into another tree keep
 * pointing at this tree's file name: free that tree first. */
FOH_API void foh_yaml_free(foh_yaml_node *n);

/* Replace (or add) the value of KEY in map M with V, which M then owns;
 * the old value is freed. Returns 0 if out of memory. */
FOH_API int foh_yaml_set(foh_yaml_node *m, const char *key, int key_line, foh_yaml_node *v);

/* Append V to sequence SEQ, which then owns it. 0 if out of memory. */
FOH_API int foh_yaml_push(foh_yaml_node *seq, foh_yaml_node *v);

/* Value for KEY in map M (NULL if M is not a map or has no KEY). */
FOH_API foh_yaml_node *foh_yaml_get(const foh_yaml_node *m, const char *key);

/* Index of KEY in map M, or -1: for the position of the key itself. */
FOH_API int foh_yaml_key(const foh_yaml_node *m, const char *key);

/* Index of the first key of map M that is not among ALLOWED (a
 * NULL-terminated list of names), or -1 when every key is allowed: the
 * check of unknown fields, whoever words the message. */
FOH_API int foh_yaml_unknown_key(const foh_yaml_node *m, const char *const *allowed);

/* "a map", "a list" or "a single value": what node N is, for messages. */
FOH_API const char *foh_yaml_kind_name(const foh_yaml_node *n);

#endif

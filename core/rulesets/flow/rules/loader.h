/* loader: reading checked values out of the YAML trees of a card set
 * (game.yaml, card files), shared by the card set loader (cardset.c) and
 * game.yaml's reader (game_yaml.c). Every error names the file, line and
 * column, the card being read, and for an unknown name the valid ones.
 * Internal to core/. */
#ifndef FOH_LOADER_H
#define FOH_LOADER_H

#include "foh/yaml.h"
#include "internal.h"

/* A card checking mode dropped after an error: where it was. */
typedef struct {
    char id[FOH_NAME];
    char file[FOH_PATH];
    int line;
} foh_loader_dropped;

typedef struct foh_loader {
    foh_cardset *cs;
    foh_error *err;
    const char *card; /* card id being read, for messages */
    /* Checking mode (flow_cardset_check): every problem goes to REPORT as it
     * is found and loading goes on where it can; REPORTED counts the
     * errors so far (any one refuses the card set at the end). */
    foh_problem_fn report;
    void *report_ctx;
    int reported;
    foh_loader_dropped *dropped; /* FOH_MAX_CARDS of them */
    int ndropped;
    size_t yaml_values; /* left for the set's YAML files, all kept at once (foh_yaml_load_within) */
} foh_loader;

/* In checking mode, report PROBLEM (an error, or a warning if WARNING). */
void foh_load_report(foh_loader *ld, int warning, const foh_error *problem);

/* After a step that failed with LD's error, begun when LD had reported
 * BEFORE errors: in checking mode, report the error unless the step
 * already did and return 1 (go on with the next card, file, variant...);
 * otherwise 0 (stop at the first error). */
int foh_load_go_on(foh_loader *ld, int before);

/* Report a data error at FILE:LINE:COLUMN, naming the card being read (in
 * checking mode also to LD's report); returns 0. */
int foh_load_bad_at(foh_loader *ld, const char *file, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#define foh_load_bad_node(ld, n, ...) foh_load_bad_at((ld), (n)->file, (n)->line, (n)->column, __VA_ARGS__)
#define foh_load_bad_key(ld, m, i, ...)                                                                                \
    foh_load_bad_at((ld), (m)->file, (m)->key_lines[i], (m)->key_columns[i], __VA_ARGS__)

/* The names of a table of NAMED entries (each STRIDE bytes from the last)
 * as a list, for hints. */
int foh_load_name_list(const char *first, size_t stride, int n, const char **out);

int foh_load_find_named(const char *names, size_t stride, int n, const char *name);

/* Reject keys of map M that are not in ALLOWED (NULL-terminated). */
int foh_load_only_keys(foh_loader *ld, const foh_yaml_node *m, const char *const *allowed);

/* Field KEY of map M: NULL when absent (an error if REQUIRED). */
const foh_yaml_node *foh_load_field(foh_loader *ld, const foh_yaml_node *m, const char *key, int required);

/* The text of scalar V (field KEY, for messages), or NULL after an error. */
const char *foh_load_scalar(foh_loader *ld, const foh_yaml_node *v, const char *key);

/* Whether TEXT has no control character (NEWLINES: line breaks and tabs
 * are allowed). */
int foh_load_printable(const char *text, int newlines);

/* Copy the name in scalar V (field KEY) into DST (LEN bytes): not empty,
 * no control character, not longer than the engine keeps. */
int foh_load_name_value(foh_loader *ld, const foh_yaml_node *v, const char *key, char *dst, size_t len);

int foh_load_int_value(foh_loader *ld, const foh_yaml_node *v, const char *key, int lo, int hi, int *out);

/* Field KEY of M as a whole number; absent: 1 (*OUT unchanged) unless REQUIRED.
 */
int foh_load_int_field(foh_loader *ld, const foh_yaml_node *m, const char *key, int lo, int hi, int *out, int required);

/* Field KEY of M as true/false (absent: false). */
int foh_load_bool_field(foh_loader *ld, const foh_yaml_node *m, const char *key, int *out);

/* Index of the name in scalar V (field KEY) among N names, or -1 after an
 * error listing them (WHAT: "icons", "ages"...). */
int foh_load_named_value(foh_loader *ld, const foh_yaml_node *v, const char *key, const char *what,
                         const char *const *names,
                         int n);

int foh_load_icon_value(foh_loader *ld, const foh_yaml_node *v, const char *key);

int foh_load_age_value(foh_loader *ld, const foh_yaml_node *v, const char *key);

/* Field KEY of M: an icon (required) or an age (required). */
int foh_load_icon_field(foh_loader *ld, const foh_yaml_node *m, const char *key);

int foh_load_age_field(foh_loader *ld, const foh_yaml_node *m, const char *key);

/* Field KEY of M: a list of icon names, as a bit mask. */
int foh_load_icon_mask(foh_loader *ld, const foh_yaml_node *m, const char *key, uint32_t *mask);

/* game.yaml's tree ROOT (after the variants' changes): vocabulary, set-up
 * and rule numbers into LD's card set. Its `scripts` are left to the
 * caller. 0 after an error. */
int foh_game_yaml_read(foh_loader *ld, const foh_yaml_node *root);

/* Checking mode, once the cards are read: literal card ids and event
 * names in the scripts that name none (errors), and the params of
 * variant hooks and actions; see core/rulesets/flow/check.c. */
void foh_check_scripts(foh_loader *ld);
/* Checking mode, card C just read: every params.NAME its effect reads is
 * declared (errors), every declared param is read (warnings). */
void foh_check_card_params(foh_loader *ld, int c);

/* The fields of a card entry, NULL-terminated ("id" first). */
extern const char *const foh_card_fields[];

/* The fields a section of game.yaml may hold ("rules", "rules.harvest",
 * "setup", "card_types.NAME"), NULL-terminated; NULL for other paths. */
const char *const *foh_game_yaml_fields(const char *section);

#endif

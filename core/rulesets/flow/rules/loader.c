/* loader: see loader.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

int foh_load_bad_at(foh_loader *ld, const char *file, int line, int column, const char *fmt, ...)
{
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (ld->card)
        foh_error_at(ld->err, FOH_ERR_DATA, file, line, column, "card '%s': %s", ld->card, what);
    else
        foh_error_at(ld->err, FOH_ERR_DATA, file, line, column, "%s", what);
    if (ld->report) {
        foh_error e;
        if (ld->card)
            foh_error_at(&e, FOH_ERR_DATA, file, line, column, "card '%s': %s", ld->card, what);
        else
            foh_error_at(&e, FOH_ERR_DATA, file, line, column, "%s", what);
        foh_load_report(ld, 0, &e);
    }
    return 0;
}

void foh_load_report(foh_loader *ld, int warning, const foh_error *problem)
{
    if (!ld->report)
        return;
    ld->report(ld->report_ctx, warning, problem);
    ld->reported += !warning;
}

int foh_load_go_on(foh_loader *ld, int before)
{
    if (!ld->report)
        return 0;
    if (ld->reported == before) {
        foh_error e = {.code = FOH_ERR_DATA};
        snprintf(e.msg, sizeof e.msg, "%s", ld->err && ld->err->msg[0] ? ld->err->msg : "an error");
        foh_load_report(ld, 0, ld->err ? ld->err : &e);
    }
    return 1;
}

/* The names of a table of NAMED entries (each STRIDE bytes from the last)
 * as a list, for hints. */
int foh_load_name_list(const char *first, size_t stride, int n, const char **out)
{
    for (int i = 0; i < n; i++)
        out[i] = first + (size_t)i * stride;
    return n;
}

int foh_load_find_named(const char *names, size_t stride, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names + (size_t)i * stride, name) == 0)
            return i;
    return -1;
}

/* Reject keys of map M that are not in ALLOWED (NULL-terminated). */
int foh_load_only_keys(foh_loader *ld, const foh_yaml_node *m, const char *const *allowed)
{
    int i = foh_yaml_unknown_key(m, allowed), n = 0;
    if (i < 0)
        return 1;
    while (allowed[n])
        n++;
    char hint[600];
    foh_error_hint(hint, sizeof hint, m->keys[i], "fields", allowed, n);
    /* A key a variant added (`set`) is reported where the variant wrote it. */
    const foh_yaml_node *v = m->items[i];
    if (v && strcmp(v->file, m->file))
        return foh_load_bad_node(ld, v, "unknown field '%s'%s", m->keys[i], hint);
    return foh_load_bad_key(ld, m, i, "unknown field '%s'%s", m->keys[i], hint);
}

/* ---- Values ---- */

/* Field KEY of map M: NULL when absent (an error if REQUIRED). */
const foh_yaml_node *foh_load_field(foh_loader *ld, const foh_yaml_node *m, const char *key, int required)
{
    const foh_yaml_node *v = foh_yaml_get(m, key);
    if (!v && required)
        foh_load_bad_node(ld, m, "missing field '%s'", key);
    return v;
}

/* The text of scalar V (field KEY, for messages), or NULL after an error. */
const char *foh_load_scalar(foh_loader *ld, const foh_yaml_node *v, const char *key)
{
    if (v->kind != FOH_YAML_SCALAR) {
        foh_load_bad_node(ld, v, "'%s' must be a single value, not %s", key, foh_yaml_kind_name(v));
        return NULL;
    }
    return v->text;
}

/* Whether TEXT has no control character (NEWLINES: line breaks and tabs
 * are allowed). */
int foh_load_printable(const char *text, int newlines)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if ((*p < 0x20 && !(newlines && (*p == '\n' || *p == '\t'))) || *p == 0x7f)
            return 0;
    return 1;
}

/* Copy the name in scalar V (field KEY) into DST (LEN bytes): not empty,
 * no control character, not longer than the engine keeps. */
int foh_load_name_value(foh_loader *ld, const foh_yaml_node *v, const char *key, char *dst, size_t len)
{
    const char *text = foh_load_scalar(ld, v, key);
    if (!text)
        return 0;
    if (!text[0])
        return foh_load_bad_node(ld, v, "'%s' must not be empty", key);
    if (!foh_load_printable(text, 0))
        return foh_load_bad_node(ld, v, "'%s' holds a control character (names are shown on terminals)", key);
    if (strlen(text) >= len)
        return foh_load_bad_node(ld, v, "'%s' is %zu bytes long; the engine's limit is %zu", key, strlen(text),
                                 len - 1);
    memcpy(dst, text, strlen(text) + 1);
    return 1;
}

int foh_load_int_value(foh_loader *ld, const foh_yaml_node *v, const char *key, int lo, int hi, int *out)
{
    const char *text = foh_load_scalar(ld, v, key);
    if (!text)
        return 0;
    char *end;
    long x = strtol(text, &end, 10);
    if (!*text || *end || x < lo || x > hi)
        return foh_load_bad_node(ld, v, "'%s': '%s' is not a whole number from %d to %d", key, text, lo, hi);
    *out = (int)x;
    return 1;
}

/* Field KEY of M as a whole number; absent: 1 (*OUT unchanged) unless REQUIRED.
 */
int foh_load_int_field(foh_loader *ld, const foh_yaml_node *m, const char *key, int lo, int hi, int *out, int required)
{
    const foh_yaml_node *v = foh_load_field(ld, m, key, required);
    return v ? foh_load_int_value(ld, v, key, lo, hi, out) : !required;
}

/* Field KEY of M as true/false (absent: false). */
int foh_load_bool_field(foh_loader *ld, const foh_yaml_node *m, const char *key, int *out)
{
    const foh_yaml_node *v = foh_yaml_get(m, key);
    *out = 0;
    if (!v)
        return 1;
    const char *text = foh_load_scalar(ld, v, key);
    if (!text)
        return 0;
    if (!strcmp(text, "true") || !strcmp(text, "yes"))
        *out = 1;
    else if (strcmp(text, "false") && strcmp(text, "no"))
        return foh_load_bad_node(ld, v, "'%s' must be true or false, not '%s'", key, text);
    return 1;
}

/* Index of the name in scalar V (field KEY) among N names, or -1 after an
 * error listing them (WHAT: "icons", "ages"...). */
int foh_load_named_value(foh_loader *ld, const foh_yaml_node *v, const char *key, const char *what,
                         const char *const *names,
                         int n)
{
    const char *text = foh_load_scalar(ld, v, key);
    if (!text)
        return -1;
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], text))
            return i;
    char hint[600];
    foh_error_hint(hint, sizeof hint, text, what, names, n);
    return foh_load_bad_node(ld, v, "unknown %.*s '%s'%s", (int)strlen(what) - 1, what, text, hint) - 1;
}

int foh_load_icon_value(foh_loader *ld, const foh_yaml_node *v, const char *key)
{
    const char *names[FOH_MAX_ICONS];
    int n = foh_load_name_list(ld->cs->icon[0], FOH_NAME, ld->cs->nicons, names);
    return foh_load_named_value(ld, v, key, "icons", names, n);
}

int foh_load_age_value(foh_loader *ld, const foh_yaml_node *v, const char *key)
{
    const char *names[FOH_MAX_AGES];
    const foh_cardset *cs = ld->cs;
    int n = foh_load_name_list(cs->age[0].name, sizeof cs->age[0], cs->nages, names);
    /* An age written by its value ("6" for VI): say which age has it, not
     * the name nearest in spelling. */
    const char *text = v && v->kind == FOH_YAML_SCALAR ? v->text : NULL;
    char *end = NULL;
    long value = text ? strtol(text, &end, 10) : 0;
    int named = 0;
    for (int i = 0; text && i < n; i++)
        named |= !strcmp(names[i], text);
    if (text && !named && end != text && !*end) {
        char which[200] = "";
        for (int i = 0; i < cs->nages; i++)
            if (cs->age[i].value == value)
                snprintf(which + strlen(which), sizeof which - strlen(which), "%s'%s'", which[0] ? " or " : "",
                         cs->age[i].name);
        if (which[0])
            return foh_load_bad_node(ld, v, "unknown age '%s': ages are named, not numbered (did you mean %s, of "
                                            "value %ld?)", text, which, value) - 1;
        /* No age has that value: a name near in spelling ('S' for '6')
         * would mislead. */
        char list[FOH_MAX_AGES * (FOH_NAME + 2)] = "";
        for (int i = 0; i < n; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
        return foh_load_bad_node(ld, v, "unknown age '%s': ages are named, not numbered, and no age has the value "
                                        "%ld (ages: %s)", text, value, list) - 1;
    }
    return foh_load_named_value(ld, v, key, "ages", names, n);
}

/* Field KEY of M: an icon (required) or an age (required). */
int foh_load_icon_field(foh_loader *ld, const foh_yaml_node *m, const char *key)
{
    const foh_yaml_node *v = foh_load_field(ld, m, key, 1);
    return v ? foh_load_icon_value(ld, v, key) : -1;
}

int foh_load_age_field(foh_loader *ld, const foh_yaml_node *m, const char *key)
{
    const foh_yaml_node *v = foh_load_field(ld, m, key, 1);
    return v ? foh_load_age_value(ld, v, key) : -1;
}

/* Field KEY of M: a list of icon names, as a bit mask. */
int foh_load_icon_mask(foh_loader *ld, const foh_yaml_node *m, const char *key, uint32_t *mask)
{
    const foh_yaml_node *v = foh_load_field(ld, m, key, 1);
    *mask = 0;
    if (!v)
        return 0;
    if (v->kind != FOH_YAML_SEQ)
        return foh_load_bad_node(ld, v, "'%s' must be a list of icon names, not %s", key, foh_yaml_kind_name(v));
    for (size_t i = 0; i < v->n; i++) {
        int ic = foh_load_icon_value(ld, v->items[i], key);
        if (ic < 0)
            return 0;
        *mask |= 1u << ic;
    }
    return 1;
}

int foh_params_read(const foh_yaml_node *m, const char *owner, foh_params *out, foh_error *err)
{
    memset(out, 0, sizeof *out);
    if (m->kind != FOH_YAML_MAP)
        return foh_error_at(err, FOH_ERR_DATA, m->file, m->line, m->column,
                            "%s: 'params' maps names to numbers (or true/false, or text), not %s", owner,
                            foh_yaml_kind_name(m)) == FOH_OK;
    if (m->n > FOH_MAX_PARAMS)
        return foh_error_at(err, FOH_ERR_DATA, m->file, m->line, m->column,
                            "%s: more than %d params (the engine's limit)", owner, FOH_MAX_PARAMS) == FOH_OK;
    for (size_t i = 0; i < m->n; i++) {
        const foh_yaml_node *v = m->items[i];
        const char *name = m->keys[i];
        size_t len = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (!name[0] || name[len] || (name[0] >= '0' && name[0] <= '9') || strlen(name) >= FOH_NAME)
            return foh_error_at(err, FOH_ERR_DATA, m->file, m->key_lines[i], m->key_columns[i],
                                "%s: param '%s' must be a Lua name (letters, digits, _) of at most %d bytes", owner,
                                name, FOH_NAME - 1) == FOH_OK;
        if (v->kind != FOH_YAML_SCALAR || strlen(v->text) >= FOH_PARAM_VALUE || !foh_load_printable(v->text, 0))
            return foh_error_at(err, FOH_ERR_DATA, v->file, v->line, v->column,
                                "%s: param '%s' must be a single printable value of at most %d bytes", owner, name,
                                FOH_PARAM_VALUE - 1) == FOH_OK;
        snprintf(out->p[i].name, sizeof out->p[i].name, "%s", name);
        snprintf(out->p[i].value, sizeof out->p[i].value, "%s", v->text);
        out->n++;
    }
    return 1;
}

/* tune_candidates: see tune_candidates.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune/tune.h"
#include "tune/tune_candidates.h"

/* SCALAR as a double-quoted YAML string. */
static void put_scalar(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* Node N in YAML flow style. */
static void put_node(FILE *f, const foh_yaml_node *n)
{
    if (n->kind == FOH_YAML_SCALAR) {
        put_scalar(f, n->text);
        return;
    }
    fputc(n->kind == FOH_YAML_MAP ? '{' : '[', f);
    for (size_t i = 0; i < n->n; i++) {
        if (i)
            fputs(", ", f);
        if (n->kind == FOH_YAML_MAP) {
            put_scalar(f, n->keys[i]);
            fputs(": ", f);
        }
        put_node(f, n->items[i]);
    }
    fputc(n->kind == FOH_YAML_MAP ? '}' : ']', f);
}

/* Whether change set C changes PATH (then the merged variants' value is not written). */
static int changes_path(const tuner *T, const candidate *c, const char *path)
{
    for (int k = 0; k < c->n; k++)
        if (!strcmp(T->tun[c->ch[k].t].path, path))
            return 1;
    return 0;
}

int tune_write_variant(const tuner *T, const candidate *c, const char *dir, const char *name, const char *desc,
                       char notes[][600], const char *header)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("tune", "cannot create folder %s: %s", dir, strerror(errno));
        return 0;
    }
    char file[1200];
    snprintf(file, sizeof file, "%s/variant.yaml", dir);
    FILE *f = cli_create(file);
    if (!f) {
        cli_error("tune", "cannot write %s: %s", file, strerror(errno));
        return 0;
    }
    if (header)
        fputs(header, f);
    fputs("name: ", f);
    put_scalar(f, name);
    fputs("\ndescription: ", f);
    put_scalar(f, desc);
    fputs("\nset:", f);
    int any = 0;
    for (int i = 0; i < T->nmerged; i++) {
        const foh_yaml_node *set = foh_yaml_get(T->merged[i], "set");
        for (size_t k = 0; set && set->kind == FOH_YAML_MAP && k < set->n; k++) {
            if (changes_path(T, c, set->keys[k]))
                continue;
            if (notes)
                fprintf(f, "\n  # from variant %s", T->merged_name[i]);
            fputs("\n  ", f);
            put_scalar(f, set->keys[k]);
            fputs(": ", f);
            put_node(f, set->items[k]);
            any = 1;
        }
    }
    for (int k = 0; k < c->n; k++) {
        const tunable *t = &T->tun[c->ch[k].t];
        if (notes)
            fprintf(f, "\n  # %s", notes[k]);
        fprintf(f, "\n  %s: %d", t->path, c->ch[k].value);
        any = 1;
    }
    fputs(any ? "\n" : " {}\n", f);
    if (fclose(f) != 0) {
        cli_error("tune", "cannot write %s", file);
        return 0;
    }
    return 1;
}

int tune_load_candidate(tuner *T, candidate *c)
{
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/c%d", T->tmp, T->ncand_dirs++);
    if (!tune_write_variant(T, c, dir, "tune-candidate", "a candidate of foh tune", NULL, NULL))
        return 0;
    cli_sources src;
    cli_sources_of(&T->o, &src);
    const char *variants[CLI_MAX_VARIANTS + 1];
    for (int i = 0; i < src.nvariants; i++)
        variants[i] = src.variants[i];
    variants[src.nvariants] = dir;
    foh_error err;
    c->cs = foh_cardset_load_sets(src.sets, src.nsets, variants, src.nvariants + 1, src.search, src.nsearch, &err);
    char file[1300];
    snprintf(file, sizeof file, "%s/variant.yaml", dir);
    remove(file);
    rmdir(dir);
    if (!c->cs) {
        cli_error("tune", "a candidate does not load: %s", err.msg);
        return 0;
    }
    c->st = calloc(1, sizeof *c->st);
    if (!c->st) {
        cli_error("tune", "out of memory");
        return 0;
    }
    c->alive = 1;
    c->rec.players = T->o.players;
    c->rec.ncards = foh_cardset_card_count(c->cs);
    c->rec.impact = tune_wants_impact(&T->tg); /* the gains are kept only for an impact target */
    return 1;
}

void tune_drop_candidate(candidate *c)
{
    foh_cardset_free(c->cs);
    free(c->st);
    tune_games_free(&c->rec);
    c->cs = NULL;
    c->st = NULL;
}

candidate *tune_new_candidate(tuner *T, candidates *cand, const candidate *from, change ch)
{
    if (cand->n == cand->cap) {
        int cap = cand->cap ? 2 * cand->cap : 64;
        candidate **grown = realloc(cand->item, (size_t)cap * sizeof *grown);
        if (!grown) {
            cli_error("tune", "out of memory");
            return NULL;
        }
        cand->item = grown;
        cand->cap = cap;
    }
    candidate *c = calloc(1, sizeof *c);
    if (!c) {
        cli_error("tune", "out of memory");
        return NULL;
    }
    if (from) {
        c->n = from->n;
        memcpy(c->ch, from->ch, sizeof c->ch);
    }
    if (ch.t >= 0)
        c->ch[c->n++] = ch;
    c->id = cand->n;
    if (!tune_load_candidate(T, c)) {
        tune_drop_candidate(c);
        free(c);
        return NULL;
    }
    cand->item[cand->n++] = c;
    return c;
}

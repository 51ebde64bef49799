/* check: what flow_cardset_check finds in the scripts' text beyond what
 * loading them does - names written as literals that name no card or
 * event (they would fail only when the line runs, perhaps in no test), and
 * card params that no effect reads. A look at the source, not a parse:
 * only the literal forms below are judged, anything computed is left to
 * the games foh check plays. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "flow.h"
#include "loader.h"

/* The API calls whose first argument is a card id. */
static const char *const CARD_CALLS[] = {"game.card", "game.owner", "game.effect", "game.discard", "game.to_box",
                                         "game.market_discard"};

static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The line of SRC (whose first line is FIRST) holding AT. */
static int line_of(const char *src, const char *at, int first)
{
    int line = first;
    for (const char *p = src; p < at; p++)
        line += *p == '\n';
    return line;
}

/* The quoted literal right after "NAME(" at P (spaces allowed), into OUT
 * (LEN bytes): 1 if there is one. */
static int literal_arg(const char *p, char *out, size_t len)
{
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '(')
        return 0;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    char q = *p;
    if (q != '\'' && q != '"')
        return 0;
    const char *end = strchr(p + 1, q);
    if (!end || (size_t)(end - p - 1) >= len || memchr(p + 1, '\\', (size_t)(end - p - 1)) ||
        memchr(p + 1, '\n', (size_t)(end - p - 1)))
        return 0;
    snprintf(out, len, "%.*s", (int)(end - p - 1), p + 1);
    return 1;
}

/* Report an unknown NAME (WHAT: "cards", "events") used by CALL at FILE:LINE:
 * with the one meant, and the valid names unless they are cards (too many
 * to list). */
static void unknown(foh_loader *ld, const char *owner, const char *file, int line, const char *call, const char *what,
                    const char *name, const char *const *names, int n, const char *extra)
{
    char hint[700] = "";
    const char *meant = foh_error_suggest(name, names, n);
    if (strcmp(what, "cards"))
        foh_error_hint(hint, sizeof hint, name, what, names, n);
    else if (meant)
        snprintf(hint, sizeof hint, " (did you mean '%s'?)", meant);
    foh_error e;
    foh_error_at(&e, FOH_ERR_DATA, file, line, 0, "%s: %s('%s'): no such %.*s%s%s", owner, call, name,
                 (int)strlen(what) - 1, what, hint, extra);
    foh_load_report(ld, 0, &e);
}

/* The literal card ids and event names in SRC (file FILE from line LINE,
 * written by OWNER: "card 'x'", "variant 'v' hook 'h'"). */
static void check_literals(foh_loader *ld, const char *owner, const char *src, const char *file, int line)
{
    const foh_cardset *cs = ld->cs;
    const char *ids[FOH_MAX_CARDS], *events[FOH_MAX_EVENTS];
    int nids = foh_load_name_list(cs->card[0].id, sizeof cs->card[0], cs->ncards, ids);
    int nevents = foh_load_name_list(cs->event[0], FOH_NAME, cs->nevents, events);
    char name[FOH_NAME + 1];
    for (const char *p = strstr(src, "game."); p; p = strstr(p + 1, "game.")) {
        if (p > src && (ident_char(p[-1]) || p[-1] == '.'))
            continue;
        for (size_t k = 0; k < sizeof CARD_CALLS / sizeof CARD_CALLS[0]; k++) {
            size_t n = strlen(CARD_CALLS[k]);
            if (strncmp(p, CARD_CALLS[k], n) || ident_char(p[n]) || !literal_arg(p + n, name, sizeof name))
                continue;
            if (foh_cardset_find(cs, name) < 0)
                unknown(ld, owner, file, line_of(src, p, line), CARD_CALLS[k], "cards", name, ids, nids, "");
        }
        if (!strncmp(p, "game.fire", 9) && !ident_char(p[9]) && literal_arg(p + 9, name, sizeof name)) {
            int ev = foh_load_find_named(cs->event[0], FOH_NAME, cs->nevents, name);
            if (ev < 0)
                unknown(ld, owner, file, line_of(src, p, line), "game.fire", "events", name, events + FOH_EV_BUILTIN,
                        nevents - FOH_EV_BUILTIN, "; scripts fire the events game.yaml declares");
            else if (ev < FOH_EV_BUILTIN) {
                foh_error e;
                foh_error_at(&e, FOH_ERR_DATA, file, line_of(src, p, line), 0,
                             "%s: game.fire('%s'): '%s' is one of the engine's own events, which scripts cannot fire",
                             owner, name, name);
                foh_load_report(ld, 0, &e);
            }
        }
    }
}

/* Every `params.NAME` and `params['NAME']` SRC reads must be one of
 * PARAMS (else it reads nil: a typo). */
static void check_param_reads(foh_loader *ld, const char *owner, const char *src, const char *file, int line,
                              const foh_params *params)
{
    const char *names[FOH_MAX_PARAMS];
    for (int i = 0; i < params->n; i++)
        names[i] = params->p[i].name;
    for (const char *p = strstr(src, "params"); p; p = strstr(p + 1, "params")) {
        if ((p > src && (ident_char(p[-1]) || p[-1] == '.')) || ident_char(p[6]))
            continue;
        const char *q = p + 6, *name = NULL;
        size_t n = 0;
        if (*q == '.' && (isalpha((unsigned char)q[1]) || q[1] == '_')) {
            name = q + 1;
            while (ident_char(name[n]))
                n++;
        } else if (*q == '[' && (q[1] == '\'' || q[1] == '"')) {
            const char *end = strchr(q + 2, q[1]);
            name = q + 2;
            n = end ? (size_t)(end - name) : 0;
        }
        if (!name || n == 0 || n >= FOH_NAME)
            continue;
        char word[FOH_NAME];
        snprintf(word, sizeof word, "%.*s", (int)n, name);
        int found = 0;
        for (int i = 0; i < params->n && !found; i++)
            found = !strcmp(names[i], word);
        if (found)
            continue;
        char hint[700];
        if (params->n)
            foh_error_hint(hint, sizeof hint, word, "params", names, params->n);
        else
            snprintf(hint, sizeof hint, " (it declares no params)");
        foh_error e;
        foh_error_at(&e, FOH_ERR_DATA, file, line_of(src, p, line), 0, "%s: params.%s is not one of its params%s",
                     owner, word, hint);
        foh_load_report(ld, 0, &e);
    }
}

/* Whether SRC reads param NAME: `params.NAME` or `params['NAME']`; or
 * passes `params` on whole (then it cannot be told: counted as read). */
static int reads_param(const char *src, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(src, "params"); p; p = strstr(p + 1, "params")) {
        if ((p > src && (ident_char(p[-1]) || p[-1] == '.')) || ident_char(p[6]))
            continue;
        const char *q = p + 6;
        if (*q == '.' && !strncmp(q + 1, name, n) && !ident_char(q[1 + n]))
            return 1;
        if (*q == '[' && (q[1] == '\'' || q[1] == '"') && !strncmp(q + 2, name, n) && q[2 + n] == q[1])
            return 1;
        if (*q != '.' && *q != '[')
            return 1; /* the whole table goes somewhere */
    }
    return 0;
}

void foh_check_card_params(foh_loader *ld, int c)
{
    const foh_cardset *cs = ld->cs;
    const foh_card_def *d = &cs->card[c];
    const foh_params *pp = &cs->card_params[c];
    char owner[FOH_NAME + 16];
    snprintf(owner, sizeof owner, "card '%s'", d->id);
    if (d->effect_src)
        check_param_reads(ld, owner, d->effect_src, d->effect_file, d->effect_line, pp);
    for (int i = 0; i < pp->n; i++) {
        if (d->effect_src && reads_param(d->effect_src, pp->p[i].name))
            continue;
        char where[FOH_PATH + 40] = "";
        if (d->effect_src && strcmp(d->effect_file, d->file)) /* a variant gave the card its effect */
            snprintf(where, sizeof where, " (%s:%d)", d->effect_file, d->effect_line);
        foh_error e;
        foh_error_at(&e, FOH_ERR_DATA, d->file, d->line, 0,
                     "%s: param '%s' is never read: the effect%s has no params.%s (a typo, or left over?)", owner,
                     pp->p[i].name, where, pp->p[i].name);
        foh_load_report(ld, 1, &e);
    }
}

void foh_check_scripts(foh_loader *ld)
{
    const foh_cardset *cs = ld->cs;
    char owner[FOH_NAME * 2 + 40];
    for (int c = 0; c < cs->ncards; c++) {
        const foh_card_def *d = &cs->card[c];
        snprintf(owner, sizeof owner, "card '%s'", d->id);
        if (d->effect_src)
            check_literals(ld, owner, d->effect_src, d->effect_file, d->effect_line);
    }
    static const foh_params none;
    for (int h = 0; h < cs->nhooks; h++) {
        snprintf(owner, sizeof owner, "variant '%s' %s '%s'", cs->variant[cs->hook[h].variant],
                 cs->hook[h].point == FOH_HOOK_REACTION ? "reaction to" : "hook",
                 cs->hook[h].point == FOH_HOOK_REACTION ? cs->hook[h].event_name : foh_hook_names[cs->hook[h].point]);
        check_literals(ld, owner, cs->hook[h].src, cs->hook[h].file, cs->hook[h].line);
        check_param_reads(ld, owner, cs->hook[h].src, cs->hook[h].file, cs->hook[h].line,
                          &cs->variant_params[cs->hook[h].variant]);
    }
    for (int a = 0; a < cs->nactions; a++) {
        snprintf(owner, sizeof owner, "action '%s'", cs->action[a].name);
        const foh_params *params = cs->action[a].variant >= 0 ? &cs->variant_params[cs->action[a].variant] : &none;
        for (int part = 0; part < 2; part++) {
            const char *src = part ? cs->action[a].run_src : cs->action[a].can_src;
            int line = part ? cs->action[a].run_line : cs->action[a].can_line;
            if (!src)
                continue;
            check_literals(ld, owner, src, cs->action[a].file, line);
            check_param_reads(ld, owner, src, cs->action[a].file, line, params);
        }
    }
}

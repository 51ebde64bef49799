/* ruleset: the platform's side of the ruleset interface (foh/ruleset.h).
 * The public functions on card sets, engines and games (foh/cardset.h,
 * foh/game.h) that every game has are answered here by the methods of the
 * object's ruleset, found in the head each object begins with; a card
 * set's ruleset is the one its game.yaml names (`ruleset:`). */
#include <stdio.h>
#include <string.h>

#include "foh/cardset.h"
#include "foh/game.h"
#include "foh/position.h"
#include "foh/ruleset.h"
#include "foh/yaml.h"

static const foh_ruleset *of(const void *object) { return ((const foh_object_head *)object)->ruleset; }

const foh_ruleset *foh_cardset_ruleset(const foh_cardset *cs) { return of(cs); }
const foh_ruleset *foh_game_ruleset(const foh_game *g) { return of(g); }

foh_status foh_ruleset_of_dir(const char *dir, const foh_ruleset **out, foh_error *err)
{
    *out = foh_ruleset_at(0);
    char path[4096], yerr[256];
    if (snprintf(path, sizeof path, "%s/game.yaml", dir) >= (int)sizeof path)
        return FOH_OK;
    foh_yaml_node *doc = foh_yaml_load(path, yerr, sizeof yerr);
    if (!doc)
        return FOH_OK;
    foh_status s = FOH_OK;
    const foh_yaml_node *name = doc->kind == FOH_YAML_MAP ? foh_yaml_get(doc, "ruleset") : NULL;
    if (name) {
        const foh_ruleset *rs = name->kind == FOH_YAML_SCALAR ? foh_ruleset_find(name->text) : NULL;
        if (rs) {
            *out = rs;
        } else if (name->kind != FOH_YAML_SCALAR) {
            s = foh_error_at(err, FOH_ERR_DATA, path, name->line, name->column,
                             "ruleset: must be the name of a ruleset, not %s", foh_yaml_kind_name(name));
        } else {
            char known[512] = "";
            for (int i = 0, at = 0; i < foh_ruleset_count(); i++) {
                int n = snprintf(known + at, sizeof known - (size_t)at, "%s%s", i ? ", " : "", foh_ruleset_at(i)->name);
                if (n < 0 || (size_t)(at + n) >= sizeof known - 4) { /* said, not cut silently */
                    snprintf(known + (at < (int)sizeof known - 5 ? at : (int)sizeof known - 5), 5, " ...");
                    break;
                }
                at += n;
            }
            s = foh_error_at(err, FOH_ERR_DATA, path, name->line, name->column,
                             "ruleset: '%s' is not a ruleset of this program (it knows: %s)", name->text, known);
        }
    }
    foh_yaml_free(doc);
    return s;
}

static foh_cardset *load(const foh_load_request *req, foh_error *err)
{
    const foh_ruleset *rs;
    if (req->ndirs >= 1 && req->dirs && foh_ruleset_of_dir(req->dirs[0], &rs, err) != FOH_OK) {
        if (req->report)
            req->report(req->report_ctx, 0, err);
        return NULL;
    }
    if (req->ndirs < 1 || !req->dirs)
        rs = foh_ruleset_at(0); /* whose loader words the usage error */
    return rs->cardset_load(req, err);
}

foh_cardset *foh_cardset_load_sets(const char *const *dirs, int ndirs, const char *const *variants, int nvariants,
                                   const char *const *search, int nsearch, foh_error *err)
{
    foh_load_request req = {dirs, ndirs, variants, nvariants, search, nsearch, NULL, NULL};
    return load(&req, err);
}

foh_cardset *foh_cardset_check(const char *const *dirs, int ndirs, const char *const *variants, int nvariants,
                               const char *const *search, int nsearch, foh_problem_fn report, void *ctx,
                               foh_error *err)
{
    foh_load_request req = {dirs, ndirs, variants, nvariants, search, nsearch, report, ctx};
    return load(&req, err);
}

foh_cardset *foh_cardset_load(const char *dir, foh_error *err) { return foh_cardset_load_variants(dir, NULL, 0, err); }

foh_cardset *foh_cardset_load_variants(const char *dir, const char *const *variants, int nvariants, foh_error *err)
{
    return foh_cardset_load_sets(&dir, 1, variants, nvariants, NULL, 0, err);
}

void foh_cardset_free(foh_cardset *cs)
{
    if (cs)
        of(cs)->cardset_free(cs);
}

foh_engine *foh_engine_new(const foh_cardset *cs, foh_error *err) { return foh_engine_new_limited(cs, NULL, err); }

foh_engine *foh_engine_new_limited(const foh_cardset *cs, const foh_script_limits *limits, foh_error *err)
{
    return of(cs)->engine_new(cs, limits, err);
}

void foh_engine_free(foh_engine *eng)
{
    if (eng)
        of(eng)->engine_free(eng);
}

foh_game *foh_game_new(foh_engine *eng, const foh_options *opt, foh_error *err)
{
    return of(eng)->game_new(eng, opt, err);
}

foh_game *foh_game_clone(const foh_game *g) { return of(g)->game_clone(g); }
void foh_game_copy(foh_game *dst, const foh_game *src) { of(src)->game_copy(dst, src); }
void foh_game_free(foh_game *g)
{
    if (g)
        of(g)->game_free(g);
}
int foh_game_players(const foh_game *g) { return of(g)->players(g); }
int foh_game_to_act(const foh_game *g) { return of(g)->to_act(g); }
int foh_game_is_over(const foh_game *g) { return of(g)->is_over(g); }
int foh_game_turn(const foh_game *g) { return of(g)->turn(g); }
int foh_game_turn_limit(const foh_game *g) { return of(g)->turn_limit(g); }
int foh_game_in_bonus(const foh_game *g) { return of(g)->mid_turn(g); }

int foh_game_legal_actions(foh_game *g, foh_action *out, int max, foh_error *err)
{
    return of(g)->legal_actions(g, out, max, err);
}

int foh_game_legal_grouped(foh_game *g, foh_action *out, int max, int *nlegal, foh_error *err)
{
    const foh_ruleset *rs = of(g);
    if (rs->legal_grouped)
        return rs->legal_grouped(g, out, max, nlegal, err);
    int n = rs->legal_actions(g, out, max, err); /* nothing grouped: each entry one action */
    if (nlegal)
        *nlegal = n;
    return n;
}

int foh_game_ungroup(const foh_game *g, const foh_action *grouped, int n, int i, foh_action *out)
{
    int amounts = of(g)->legal_grouped ? of(g)->amount_kind : -1;
    for (int j = 0; j < n && i >= 0; j++) {
        const foh_action *e = &grouped[j];
        int stands_for = (int)e->kind != amounts ? 1 : e->tokens > 0 ? e->tokens : 0;
        if (i < stands_for) {
            *out = *e;
            if ((int)e->kind == amounts)
                out->tokens = i + 1;
            return 0;
        }
        i -= stands_for;
    }
    return -1;
}

int foh_game_amount_kind(const foh_game *g) { return of(g)->legal_grouped ? of(g)->amount_kind : -1; }

foh_status foh_game_check(foh_game *g, const foh_action *a, foh_error *err) { return of(g)->check(g, a, err); }
foh_status foh_game_apply(foh_game *g, const foh_action *a, foh_error *err) { return of(g)->apply(g, a, err); }
const foh_choice *foh_game_choice(const foh_game *g) { return of(g)->choice(g); }

void foh_game_describe_action(const foh_game *g, const foh_action *a, char *buf, size_t len)
{
    of(g)->describe_action(g, a, buf, len);
}

foh_status foh_game_results(foh_game *g, double *out, foh_error *err) { return of(g)->results(g, out, err); }
void foh_game_determinize(foh_game *g, int viewer, uint64_t seed) { of(g)->determinize(g, viewer, seed); }
int foh_game_score_lines(foh_game *g, int player, foh_score_line *out, int max, foh_error *err)
{
    if (player < 0 || player >= of(g)->players(g)) {
        foh_error_set(err, FOH_ERR_USAGE, "no player %d in a %d-player game", player + 1, of(g)->players(g));
        return -1;
    }
    return of(g)->score_lines(g, player, out, max, err);
}

foh_status foh_action_id(const foh_action *a, int64_t *id)
{
    if ((int)a->kind < 0 || (int)a->kind >= FOH_MAX_ACTION_KINDS || a->card < -1 || a->card >= 4095 ||
        a->option < -1 || a->option >= 255 || a->tokens < 0)
        return FOH_ERR_USAGE;
    *id = (int64_t)a->kind | (int64_t)(a->card + 1) << 4 | (int64_t)(a->option + 1) << 16 | (int64_t)a->tokens << 24;
    return FOH_OK;
}

int foh_action_from_id(int64_t id, foh_action *out)
{
    if (id < 0 || id >> 56)
        return -1;
    out->kind = (foh_action_kind)(id & 15);
    out->card = (int)(id >> 4 & 0xfff) - 1;
    out->option = (int)(id >> 16 & 0xff) - 1;
    int64_t amount = id >> 24 & 0xffffffffLL;
    if (amount > 0x7fffffff)
        return -1;
    out->tokens = (int)amount;
    return 0;
}

int foh_game_observe(const foh_game *g, int player, char *buf, size_t len)
{
    if (player < -1 || player >= foh_game_players(g)) { /* no such seat: nothing to see */
        if (len)
            buf[0] = '\0';
        return 0;
    }
    return of(g)->observe(g, player, buf, len);
}
void foh_game_set_log(foh_game *g, foh_log_fn fn, void *ud) { of(g)->set_log(g, fn, ud); }
uint64_t foh_game_digest(const foh_game *g) { return of(g)->digest(g); }

foh_status foh_game_eval_begin(foh_game *g, int player, foh_game *scratch, double *context, foh_error *err)
{
    return of(g)->eval_begin(g, player, scratch, context, err);
}

foh_status foh_game_evaluate(foh_game *g, int player, double context, foh_game *scratch, double *value,
                             foh_error *err)
{
    return of(g)->evaluate(g, player, context, scratch, value, err);
}

int foh_game_worth_weighing(const foh_game *g, const foh_action *a)
{
    return !of(g)->worth_weighing || of(g)->worth_weighing(g, a);
}

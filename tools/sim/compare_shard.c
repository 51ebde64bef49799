/* compare_shard: foh compare on shards (docs/scaling.md). A compare shard
 * holds, for each side, the object a foh sim shard file holds
 * (sim_stats_shard_json), so that foh merge reads each side with every
 * check it makes of a sim shard (sim_stats_read_shard), plus what the
 * compare report needs besides the sums: the card set as given and, when
 * a card differs between the sides, the fate sums (plain integer sums,
 * fate_shard.c), so that the merged report is the single run's. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/origin.h"
#include "common/provenance.h"
#include "sim/compare_diff.h"
#include "sim/compare_shard.h"
#include "sim/sim.h"

#define COMPARE_SHARD_FORMAT "foh-compare-shard/1"
/* Two sides of at most a sim shard's 16 MiB each, and their fate sums. */
#define COMPARE_SHARD_MAX_BYTES (64u << 20)

static const char *const SIDE[2] = {"a", "b"};

/* Side O's object of a compare shard; NULL after saying why not. */
static json_t *side_json(cli_options *o, foh_cardset *cs, sim_stats *st, fate_stats *fate, impact_stats *impact)
{
    origin *og = malloc(sizeof *og);
    char why[ORIGIN_PATH + 64];
    sim_shard_layout layout = sim_shard_layout_of(foh_cardset_card_count(cs), o->players);
    json_t *isums = impact ? impact_stats_to_json(impact, layout.cards, o->players) : NULL;
    json_t *side = NULL;
    if (!og || !origin_of(o, og, why, sizeof why) || (impact && !isums)) {
        cli_error("compare", "%s: %s", o->save_shard, og && (isums || !impact) ? why : "out of memory");
        json_decref(isums);
        free(og);
        return NULL;
    }
    side = sim_stats_shard_json(st, NULL, og, cs, o->players, o->seats, o->seed, o->games, o->shard, o->shards, isums,
                                provenance_json(o, cs));
    free(og);
    /* The card set as the report's JSON names it: as given, not absolute. */
    if (side && json_object_set_new(side, "report_cards", json_string(o->cards)) != 0) {
        json_decref(side);
        side = NULL;
    }
    if (side && fate && json_object_set_new(side, "fate", fate_stats_to_json(fate)) != 0) {
        json_decref(side);
        side = NULL;
    }
    if (!side)
        cli_error("compare", "%s: out of memory", o->save_shard);
    return side;
}

int compare_save_shard(cli_options o[2], foh_cardset *cs[2], sim_stats *st[2], fate_stats *fate[2],
                       impact_stats *impact[2])
{
    json_t *root = json_pack("{s:s}", "format", COMPARE_SHARD_FORMAT);
    for (int k = 0; root && k < 2; k++) {
        json_t *side = side_json(&o[k], cs[k], st[k], fate[k], impact[k]);
        if (!side || json_object_set_new(root, SIDE[k], side) != 0) {
            json_decref(root);
            return 0;
        }
    }
    int ok = root && cli_write_json(root, o[0].save_shard, JSON_COMPACT);
    if (!ok)
        cli_error("compare", "cannot write %s: %s", o[0].save_shard, root ? strerror(errno) : "out of memory");
    json_decref(root);
    return ok;
}

/* The JSON of the file PATH; NULL after saying why not, unless QUIET. */
static json_t *read_json(const char *path, int quiet)
{
    char *text;
    size_t len;
    foh_error ferr;
    json_error_t jerr;
    if (foh_file_read(path, COMPARE_SHARD_MAX_BYTES, "shards of foh compare", &text, &len, &ferr) != FOH_OK) {
        if (!quiet)
            cli_error("merge", "%s", ferr.msg);
        return NULL;
    }
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!root && !quiet)
        cli_error("merge", "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column,
                  jerr.text[0] ? jerr.text : "out of memory");
    return root;
}

int compare_shard_file(const char *path)
{
    json_t *root = read_json(path, 1);
    const char *format = json_string_value(json_object_get(root, "format"));
    int yes = format && !strncmp(format, "foh-compare-shard/", 18);
    json_decref(root);
    return yes;
}

/* The shards merged so far. */
typedef struct {
    const cli_options *opts; /* the files: opts->args */
    sim_stats *st[2];
    fate_stats *fate[2];      /* NULL each when the shards keep none (no card differs) */
    impact_stats *impact[2];  /* NULL each without --impact */
    json_t *meta[2];          /* the first shard's sides */
    char first[2][4200];      /* how the messages name them */
    int has_fate, shards;
    int *seen; /* seen[i - 1]: 1 + the argument holding part i */
} merged;

/* What is wrong with FILE's format (into WHY), or NULL. */
static const char *bad_format(const char *file, const char *first, json_t *root, char *why, size_t len)
{
    const char *format = json_string_value(json_object_get(root, "format"));
    if (format && !strcmp(format, COMPARE_SHARD_FORMAT))
        return NULL;
    if (format && !strncmp(format, "foh-compare-shard/", 18))
        snprintf(why, len, "%s: format %s, written by another version of foh; this one reads %s only: run its foh "
                 "compare --save-shard again", file, format, COMPARE_SHARD_FORMAT);
    else if (format && (!strncmp(format, "foh-sim-shard/", 14) || !strncmp(format, "foh-tune-shard/", 15)))
        snprintf(why, len, "%s: a shard of foh %s (format %s), while %s is a shard of foh compare: merge the shards "
                 "of each run apart", file, format[4] == 's' ? "sim" : "tune", format, first);
    else
        snprintf(why, len, "%s: not a shard of foh compare (format %s)", file, COMPARE_SHARD_FORMAT);
    return why;
}

/* Side K of the file ROOT (the argument I): its sums, --impact sums and
 * fate sums added into M's; *PART and *PARTS: which part it holds. 0
 * after saying why not. */
static int add_side(merged *m, int i, int k, json_t *root, int *part, int *parts)
{
    char label[4200];
    snprintf(label, sizeof label, "%s (side %c)", m->opts->args[i], 'A' + k);
    if (i == 0)
        snprintf(m->first[k], sizeof m->first[k], "%s", label);
    json_t *side = json_object_get(root, SIDE[k]), *isums = NULL;
    if (!json_is_object(side)) {
        cli_error("merge", "%s: '%s' must be an object (side %c's sums)", m->opts->args[i], SIDE[k], 'A' + k);
        return 0;
    }
    const char *cards = json_string_value(json_object_get(side, "report_cards"));
    if (!cards || (m->meta[k] && !json_equal(json_object_get(side, "report_cards"),
                                             json_object_get(m->meta[k], "report_cards")))) {
        cli_error("merge", "%s: %s", label, cards ? "'report_cards' differs from the first shard's (another card set "
                                                    "argument)" : "'report_cards' must be a string");
        return 0;
    }
    long before = m->st[k]->games;
    sim_shard_layout layout;
    if (!sim_stats_read_shard(side, label, m->st[k], NULL, (void **)&m->meta[k], m->first[k], part, parts, &isums,
                              &layout))
        return 0;
    long games = m->st[k]->games - before; /* checked against the part's share by sim_stats_read_shard */
    int players = (int)json_integer_value(json_object_get(side, "players"));
    int ok = impact_add_shard(label, m->first[k], i, isums, games, players, layout.cards, &m->impact[k]);
    json_decref(isums);
    json_t *jf = json_object_get(side, "fate");
    if (i == 0 && k == 0)
        m->has_fate = jf != NULL;
    if (ok && (jf != NULL) != m->has_fate) {
        cli_error("merge", "%s: %s fate sums, while %s %s: not shards of one foh compare run", label,
                  jf ? "has" : "has no", m->first[0], m->has_fate ? "has them" : "has none");
        return 0;
    }
    if (!ok || !jf)
        return ok;
    /* The first shard's card count (or its file's, checked on reading). */
    json_int_t n = json_integer_value(json_object_get(jf, "card_count"));
    int nc = m->fate[k] ? m->fate[k]->ncards : n >= 1 && n <= FOH_MAX_CARDS ? (int)n : 1;
    fate_stats *f = (m->fate[k] || (m->fate[k] = fate_stats_new(nc))) ? fate_stats_new(nc) : NULL;
    char why[300];
    if (!f || !fate_stats_from_json(jf, games, f, why, sizeof why)) {
        cli_error("merge", "%s: %s%s", label, f ? why : "out of memory", f ? ": the shard was edited or damaged" : "");
        fate_stats_free(f);
        return 0;
    }
    fate_merge(m->fate[k], f);
    fate_stats_free(f);
    return 1;
}

/* The compare shard argument I added into M; 0 after saying why not. */
static int add_file(merged *m, int i)
{
    const char *path = m->opts->args[i];
    json_t *root = read_json(path, 0);
    char why[8400];
    const char *bad = root ? bad_format(path, m->opts->args[0], root, why, sizeof why) : NULL;
    if (bad)
        cli_error("merge", "%s", bad);
    int part[2], parts[2], ok = root && !bad;
    for (int k = 0; ok && k < 2; k++)
        ok = add_side(m, i, k, root, &part[k], &parts[k]);
    json_decref(root);
    if (ok && (part[0] != part[1] || parts[0] != parts[1])) {
        cli_error("merge", "%s: its sides hold parts %d of %d and %d of %d: the shard was edited or damaged", path,
                  part[0], parts[0], part[1], parts[1]);
        return 0;
    }
    if (ok && !m->seen) {
        m->shards = parts[0];
        if (!(m->seen = calloc((size_t)parts[0], sizeof *m->seen))) {
            cli_error("merge", "out of memory");
            return 0;
        }
    }
    if (ok && parts[0] != m->shards) {
        cli_error("merge", "%s: part %d of %d, while the first shard is one of %d parts", path, part[0], parts[0],
                  m->shards);
        return 0;
    }
    if (ok && m->seen[part[0] - 1]) {
        cli_error("merge", "%s: part %d of %d, the same part as %s: its games would count twice", path, part[0],
                  parts[0], m->opts->args[m->seen[part[0] - 1] - 1]);
        return 0;
    }
    if (ok)
        m->seen[part[0] - 1] = i + 1;
    return ok;
}

/* 1 if every part of M's run was given; else 0 after naming the missing. */
static int all_parts(const merged *m)
{
    char list[400] = "";
    int missing = 0;
    size_t used = 0;
    for (int p = 0; p < m->shards; p++)
        if (!m->seen[p] && missing++ < 20 && used < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d/%d", used ? ", " : "", p + 1, m->shards);
    if (missing)
        cli_error("merge", "part%s %s%s of the foh compare run %s missing: its report needs all the games (give every "
                  "shard)", missing > 1 ? "s" : "", list, missing > 20 ? ", ..." : "", missing > 1 ? "are" : "is");
    return !missing;
}

/* Side K's options and card set *CS as M's first shard recorded them
 * (its folders, checked to hold still what the shards were made from):
 * O's strings point into OG and M. 0 after saying why not. */
static int load_side(const merged *m, int k, cli_options *o, origin *og, foh_cardset **cs)
{
    json_t *meta = m->meta[k];
    cli_defaults(o);
    o->command = m->opts->command; /* the report's provenance: this merge */
    o->argc = m->opts->argc;
    o->argv = m->opts->argv;
    o->players = (int)json_integer_value(json_object_get(meta, "players"));
    o->seats = json_string_value(json_object_get(meta, "seats"));
    o->seed = (uint64_t)json_integer_value(json_object_get(meta, "seed"));
    o->games = (long)json_integer_value(json_object_get(meta, "total_games"));
    char why[ORIGIN_PATH + 256];
    foh_engine *eng = NULL;
    *cs = NULL;
    if (!origin_read(meta, og, why, sizeof why)) {
        cli_error("merge", "%s", why);
        return 0;
    }
    origin_apply(og, o);
    if (!cli_load(o, cs, &eng))
        return 0;
    foh_engine_free(eng);
    json_t *now = origin_sources(*cs);
    if (!now || origin_sources_differ(json_object_get(meta, "sources"), now, m->first[k], "the card set now", why,
                                      sizeof why)) {
        cli_error("merge", "%s: its card set has changed since the shards were made: %s", m->first[k],
                  now ? why : "out of memory");
        json_decref(now);
        return 0;
    }
    json_decref(now);
    if (m->st[k]->games + m->st[k]->skipped > o->games) { /* each part is checked: cannot happen */
        cli_error("merge", "the shards of side %c hold %ld of the run's %ld games", 'A' + k,
                  m->st[k]->games + m->st[k]->skipped, o->games);
        return 0;
    }
    if (m->fate[k] && m->fate[k]->ncards != foh_cardset_card_count(*cs)) {
        cli_error("merge", "%s: its fate sums have %d cards, its card set %d: the shard was edited or damaged",
                  m->first[k], m->fate[k]->ncards, foh_cardset_card_count(*cs));
        return 0;
    }
    return 1;
}

/* M's report, as the single foh compare prints it. A CLI status. */
static int report(merged *m)
{
    cli_options o[2];
    origin *og = calloc(2, sizeof *og);
    foh_cardset *cs[2] = {NULL, NULL};
    int status = og ? CLI_OK : CLI_DATA;
    if (!og)
        cli_error("merge", "out of memory");
    for (int k = 0; status == CLI_OK && k < 2; k++)
        if (!load_side(m, k, &o[k], &og[k], &cs[k]))
            status = CLI_DATA;
    /* The fates were watched in the run only when a card differs. */
    json_t *diff = status == CLI_OK ? compare_diff(cs[0], cs[1]) : NULL;
    int want_fate = json_array_size(json_object_get(diff, "cards")) > 0;
    if (status == CLI_OK && want_fate != m->has_fate) {
        cli_error("merge", "%s %s fate sums, while the card sets %s: the shard was edited or damaged", m->first[0],
                  m->has_fate ? "has" : "has no", want_fate ? "differ in a card" : "have the same cards");
        status = CLI_DATA;
    }
    if (status == CLI_OK) {
        const char *cards[2];
        json_t *prov[2];
        for (int k = 0; k < 2; k++) {
            cards[k] = json_string_value(json_object_get(m->meta[k], "report_cards"));
            prov[k] = json_object_get(m->meta[k], "provenance");
            if (m->st[k]->games != o[k].games)
                cli_error("merge", "warning: the shards of side %c hold %ld of the run's %ld games", 'A' + k,
                          m->st[k]->games, o[k].games);
        }
        status = compare_report(o, cs, m->st, m->fate, m->impact, diff, m->opts->json, m->opts->html, cards, prov);
    }
    json_decref(diff);
    for (int k = 0; k < 2; k++)
        foh_cardset_free(cs[k]);
    free(og);
    return status;
}

int compare_merge(const cli_options *opts)
{
    merged m = {.opts = opts};
    int ok = 1;
    for (int k = 0; k < 2; k++)
        ok = ok && (m.st[k] = calloc(1, sizeof *m.st[k])) != NULL;
    if (!ok)
        cli_error("merge", "out of memory");
    for (int i = 0; ok && i < opts->nargs; i++)
        ok = add_file(&m, i);
    int status = ok && all_parts(&m) ? report(&m) : CLI_DATA;
    for (int k = 0; k < 2; k++) {
        free(m.st[k]);
        fate_stats_free(m.fate[k]);
        free(m.impact[k]);
        json_decref(m.meta[k]);
    }
    free(m.seen);
    return status;
}

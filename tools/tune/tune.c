/* foh tune: the command (its options, --help) and the course of a run; see
 * tune.h (the files of tools/tune) and docs/tune.md.
 *
 * The search: (1) every tunable number and its candidate values, each a
 * single change from the base; (2) a bandit over the single changes by
 * successive halving: every arm plays the same first games (common random
 * numbers: game i has the same seed for every candidate), the arms whose
 * loss is clearly worse than the best's are dropped and the better half
 * plays twice as many games, until the full --games; (3) greedy
 * combination: the best single change, then the next best ones added one
 * at a time while the loss falls; (4) patch notes, the variant folder,
 * and the verification on fresh seeds. Every figure is an integer sum of
 * games with fixed seeds, so a run is the same whatever the threads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "any/any.h"
#include "commands.h"
#include "common/cli.h"
#include "common/origin.h"
#include "common/provenance.h"
#include "tune/tune.h"
#include "tune/tune_candidates.h"
#include "tune/tune_evaluate.h"
#include "tune/tune_merge.h"
#include "tune/tune_report.h"
#include "tune/tune_search.h"
#include "tune/tune_tunables.h"
#include "tune/tune_verify.h"

static const cli_option_id TUNE_OPTIONS[] = {OPT_PLAYERS, OPT_GAMES, OPT_SEED, OPT_SEATS, OPT_THREADS,
                                             OPT_LUA_INSTRUCTIONS, OPT_LUA_MEMORY, OPT_ACTION_TIME, OPT_CARDS,
                                             OPT_MODS, OPT_VARIANT, OPT_SHARD, OPT_SAVE_SHARD, OPT_COUNT};
static const cli_command TUNE = {
    "tune", NULL, 0,
    "Searches the smallest set of changes to the card set's numbers (whole-number card params,\n"
    "stripe counts, some rule numbers) that meets the balance targets, prints them as ranked\n"
    "patch notes with their predicted effects [95% CI], writes them as a variant folder, and\n"
    "verifies the prediction: the base and the variant played on fresh seeds (derived from the\n"
    "run; --verify-seed), each predicted direction confirmed, contradicted or not shown.\n"
    "G (--games) is the games of one full evaluation; every candidate plays the same seeds.\n"
    "Deterministic for a seed, whatever the threads (docs/tune.md).\n"
    "On a cluster: each machine runs 'foh tune ... --shard i/n --save-shard FILE' (the same\n"
    "options; it plays the base and screens its share of the single changes), then one runs\n"
    "'foh tune --merge FILE...' (stage 2, patch notes, --out, verification).\n",
    TUNE_OPTIONS, NULL};

/* TUNE as --help shows it: --games, --shard and --save-shard mean something
 * else here than in foh sim (their shared help), so TUNE_OWN_HELP has them. */
static const cli_option_id TUNE_HELP_OPTIONS[] = {OPT_PLAYERS, OPT_SEED, OPT_SEATS, OPT_THREADS,
                                                  OPT_LUA_INSTRUCTIONS, OPT_LUA_MEMORY, OPT_ACTION_TIME, OPT_CARDS,
                                                  OPT_MODS, OPT_VARIANT, OPT_COUNT};

/* tune's own options, taken out of the arguments before the common ones are parsed. */
static const char TUNE_OWN_HELP[] =
    "\ntune's own options, and what --games, --shard and --save-shard mean here:\n"
    "  --games G             games of one full evaluation: the base and every candidate that\n"
    "                        reaches the last round play the same G seeds (default 1000, at\n"
    "                        least 8)\n"
    "  --shard i/n           screen only the i-th share of the single changes (numbers i, i+n,\n"
    "                        ... of the relevance order); needs --save-shard\n"
    "  --save-shard FILE     write the shard's base and surviving single changes for\n"
    "                        'foh tune --merge' (not 'foh merge')\n"
    "  --target NAME=VALUE   a balance target; repeatable (default seat-spread=2,\n"
    "                        start-spread=3, length=100..200):\n"
    "                          seat-spread=P   seat win rates within P points (max - min)\n"
    "                          start-spread=P  starting cards' win rates within P points\n"
    "                          card-band=P     every card's owners' win rate within P points of\n"
    "                                          the mean owners' win rate\n"
    "                          impact-band=P   every card's impact on the win (foh sim --impact's\n"
    "                                          estimate) within P points of 0\n"
    "                          length=LO..HI   mean game length in turns\n"
    "                          card:ID:owners=LO..HI  the owners' win rate of card ID (points;\n"
    "                                          either bound may be left out: ..35 is a ceiling)\n"
    "                          card:ID:impact=LO..HI  card ID's impact on the win (points), e.g.\n"
    "                                          card:temple:impact=-3..3; a card a target names\n"
    "                                          has its numbers screened first\n"
    "  --tunable PATTERN     tune only the paths matching this glob (cards.theocracy.*,\n"
    "                        rules.*, *.stripe.*); repeatable (default: every tunable)\n"
    "  --budget N            games the search may play in all (default 20 x G)\n"
    "  --max-changes K       at most K changes (default 3, at most 8)\n"
    "  --change-cost C       loss added per change, points (default 0.25): fewer changes win\n"
    "                        ties\n"
    "  --verify-games V      games of each side of the verification (default G; 0: none)\n"
    "  --verify-seed S       the verification's seed (default: derived from the run, its seed,\n"
    "                        card set, changes, players, seats and games, and printed: each\n"
    "                        run verifies on games of its own)\n"
    "  --out DIR             write the variant folder DIR (variant.yaml)\n"
    "  --merge FILE...       go on from the files of 'foh tune --shard i/n --save-shard FILE'\n"
    "                        (every part of one run): the run comes from the files; only\n"
    "                        --threads, --out and --verify-games may be given with it\n"
    "With --shard i/n, --save-shard FILE is required and --out, --verify-games belong to the\n"
    "merge. The merged result differs from one run's only in which single changes reach G\n"
    "games (the halving cuts within each shard's share); it is deterministic for a given n.\n";

/* Take tune's own options out of ARGV (into T), leaving the common ones. */
static int take_own_options(tuner *T, int *argc, char **argv)
{
    int k = 0, any_target = 0;
    for (int i = 0; i < *argc; i++) {
        static const char *const OWN[] = {"--target", "--tunable", "--budget", "--max-changes", "--change-cost",
                                          "--verify-games", "--out", "--verify-seed"};
        const char *arg = argv[i], *val = NULL;
        int which = -1;
        for (int j = 0; j < (int)(sizeof OWN / sizeof OWN[0]); j++) {
            size_t len = strlen(OWN[j]);
            if (!strncmp(arg, OWN[j], len) && (arg[len] == 0 || arg[len] == '=')) {
                which = j;
                val = arg[len] == '=' ? arg + len + 1 : NULL;
            }
        }
        if (!strcmp(arg, "--merge")) {
            T->merge = 1;
            continue;
        }
        if (!strcmp(arg, "--")) {
            while (i < *argc)
                argv[k++] = argv[i++];
            break;
        }
        if (which < 0) {
            argv[k++] = argv[i];
            continue;
        }
        T->own_given |= 1u << which;
        if (!val) {
            if (i + 1 >= *argc) {
                cli_error("tune", "%s needs a value (see foh tune --help)", OWN[which]);
                return 0;
            }
            val = argv[++i];
        }
        char *end;
        errno = 0;
        switch (which) {
        case 0:
            if (!any_target) {
                /* The first --target replaces the defaults. */
                T->tg.seat_spread = T->tg.start_spread = T->tg.card_band = T->tg.impact_band = T->tg.length_lo =
                    T->tg.length_hi = -1;
                any_target = 1;
            }
            if (!tune_parse_target(val, &T->tg))
                return 0;
            break;
        case 1:
            if (T->npatterns >= TUNE_MAX_PATTERNS) {
                cli_error("tune", "at most %d --tunable patterns", TUNE_MAX_PATTERNS);
                return 0;
            }
            T->patterns[T->npatterns++] = val;
            break;
        case 2:
        case 5: {
            long v = strtol(val, &end, 10);
            if (end == val || *end || errno || v < (which == 2 ? 1 : 0) || v > 100000000) {
                cli_error("tune", "%s '%s': a whole number of games%s", OWN[which], val,
                          which == 2 ? ", 1 or more" : ", 0 or more");
                return 0;
            }
            if (which == 2)
                T->budget = v;
            else
                T->verify_games = v;
            break;
        }
        case 3: {
            long v = strtol(val, &end, 10);
            if (end == val || *end || v < 1 || v > TUNE_MAX_CHANGES) {
                cli_error("tune", "--max-changes '%s': a whole number from 1 to %d", val, TUNE_MAX_CHANGES);
                return 0;
            }
            T->max_changes = (int)v;
            break;
        }
        case 4: {
            double v = strtod(val, &end);
            if (end == val || *end || !(v >= 0) || v > 1000) {
                cli_error("tune", "--change-cost '%s': a number of points, 0 or more", val);
                return 0;
            }
            T->change_cost = v;
            break;
        }
        case 6:
            T->out = val;
            break;
        case 7: {
            unsigned long long v = strtoull(val, &end, 10);
            if (end == val || *end || errno || val[0] == '-') {
                cli_error("tune", "--verify-seed '%s': a whole number, 0 or more", val);
                return 0;
            }
            T->verify_seed = v;
            T->verify_seed_given = 1;
            break;
        }
        }
    }
    *argc = k;
    return 1;
}

static void remove_tmp(tuner *T)
{
    if (T->tmp[0])
        rmdir(T->tmp);
}

static int run(tuner *T, candidates *cand);

/* TUNE with the shard files as arguments (foh tune --merge FILE...). */
static const cli_command TUNE_MERGE = {"tune", "--merge SHARD...", 1, NULL, TUNE_OPTIONS, NULL};

/* The name of the common option ID that tune takes (TUNE_OPTIONS). */
static const char *tune_option_name(cli_option_id id)
{
    static const struct {
        cli_option_id id;
        const char *name;
    } NAMES[] = {{OPT_PLAYERS, "--players"}, {OPT_GAMES, "--games"}, {OPT_SEED, "--seed"}, {OPT_SEATS, "--seats"},
                 {OPT_THREADS, "--threads"}, {OPT_LUA_INSTRUCTIONS, "--lua-instructions"},
                 {OPT_LUA_MEMORY, "--lua-memory"}, {OPT_ACTION_TIME, "--action-time"}, {OPT_CARDS, "--cards"},
                 {OPT_MODS, "--mods"}, {OPT_VARIANT, "--variant"}, {OPT_SHARD, "--shard"},
                 {OPT_SAVE_SHARD, "--save-shard"}};
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (NAMES[i].id == id)
            return NAMES[i].name;
    return "an option";
}

/* What is wrong with the options of a --shard or --merge run (into WHY,
 * returned), or NULL. */
static const char *bad_shard_usage(const tuner *T, char *why, size_t len)
{
    /* take_own_options' OWN: 5 --verify-games, 6 --out, 7 --verify-seed. */
    if (T->merge) {
        static const char *const OWN[] = {"--target", "--tunable", "--budget", "--max-changes", "--change-cost"};
        const char *refused = NULL;
        uint64_t common = T->o.given & ~(1ull << OPT_THREADS);
        for (int k = 0; k < OPT_COUNT && !refused; k++)
            if (common & (1ull << k))
                refused = tune_option_name((cli_option_id)k);
        for (int j = 0; j < 5 && !refused; j++)
            if (T->own_given & (1u << j))
                refused = OWN[j];
        if (!refused)
            return NULL;
        snprintf(why, len,
                 "%s is not allowed with --merge: the run comes from the shard files; give only --threads, --out, "
                 "--verify-games and --verify-seed",
                 refused);
        return why;
    }
    if ((T->o.given & (1ull << OPT_SAVE_SHARD)) && !(T->o.given & (1ull << OPT_SHARD)))
        return "--save-shard needs --shard i/n";
    if (!(T->o.given & (1ull << OPT_SHARD)))
        return NULL;
    if (T->tg.ncard)
        return "per-card targets (--target card:...) are not kept in tune's shard files: run this tune on one machine";
    if (!T->o.save_shard)
        return "--shard i/n needs --save-shard FILE (the file foh tune --merge reads)";
    if (T->own_given & ((1u << 5) | (1u << 6) | (1u << 7)))
        return "--out, --verify-games and --verify-seed go to foh tune --merge, not to a shard";
    return NULL;
}

int cmd_tune(int argc, char **argv)
{
    if (any_tune_applies(argc, argv)) /* another ruleset's card set: through the interface alone */
        return any_tune(argc, argv);
    tuner *T = calloc(1, sizeof *T);
    candidates cand = {0};
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!T || !args) {
        free(T);
        free(args);
        cli_error("tune", "out of memory");
        return CLI_DATA;
    }
    T->tg = (tune_targets){.seat_spread = 2, .start_spread = 3, .card_band = -1, .impact_band = -1,
                           .length_lo = 100, .length_hi = 200, .band_guard = -1};
    T->max_changes = 3;
    T->change_cost = 0.25;
    T->budget = -1;
    T->verify_games = -1;
    memcpy(args, argv, (size_t)argc * sizeof *args);
    int n = argc, status = CLI_OK;
    if (!take_own_options(T, &n, args))
        status = CLI_USAGE;
    if (status == CLI_OK) {
        status = cli_parse(T->merge ? &TUNE_MERGE : &TUNE, n, args, &T->o);
        /* The whole command line, tune's own options included, for what the
         * run writes (its variant's header, its printed commands). */
        T->o.argc = argc;
        T->o.argv = argv;
        char why[200];
        const char *bad = status == CLI_OK && !T->o.help ? bad_shard_usage(T, why, sizeof why) : NULL;
        if (bad) {
            cli_error("tune", "%s", bad);
            status = CLI_USAGE;
        }
        if (status == CLI_OK && T->o.help) {
            cli_command help = TUNE;
            help.options = TUNE_HELP_OPTIONS;
            cli_help(&help, stdout);
            fputs(TUNE_OWN_HELP, stdout);
        }
    }
    if (status == CLI_OK && !T->o.help && T->merge) {
        T->files = T->o.args;
        T->nfiles = T->o.nargs;
    } else if (status == CLI_OK && !T->o.help) {
        char why[ORIGIN_PATH + 64];
        if (T->o.games < 8) {
            cli_error("tune", "--games %ld: at least 8 games per evaluation", T->o.games);
            status = CLI_USAGE;
        }
        if (T->budget < 0)
            T->budget = 20 * T->o.games;
        if (T->verify_games < 0)
            T->verify_games = T->o.games;
        if (status == CLI_OK && T->o.save_shard && !cli_can_write(T->o.save_shard)) {
            cli_error("tune", "cannot write %s: %s", T->o.save_shard, strerror(errno));
            status = CLI_DATA;
        }
        /* Where the card set comes from, before tune_split_variants sorts the variants. */
        if (status == CLI_OK && (!(T->og = malloc(sizeof *T->og)) || !origin_of(&T->o, T->og, why, sizeof why))) {
            cli_error("tune", "%s", T->og ? why : "out of memory");
            status = CLI_DATA;
        }
    }
    struct stat out_st;
    int out_bad = 0;
    for (const char *p = T->out; status == CLI_OK && p && *p && !out_bad; p++)
        out_bad = (unsigned char)*p < 0x20 || *p == 0x7f; /* its name goes into the variant file */
    if (status == CLI_OK && !T->o.help && out_bad) {
        cli_error("tune", "--out: a folder name with a control character (a newline?) is refused");
        status = CLI_USAGE;
    } else if (status == CLI_OK && !T->o.help && T->out && !(T->out_made = mkdir(T->out, 0777) == 0) &&
               errno != EEXIST) {
        cli_error("tune", "cannot create folder %s: %s", T->out, strerror(errno));
        status = CLI_DATA;
    } else if (status == CLI_OK && !T->o.help && T->out && !T->out_made &&
               (stat(T->out, &out_st) != 0 || !S_ISDIR(out_st.st_mode))) {
        cli_error("tune", "--out %s: not a folder", T->out); /* said now, not after the search */
        status = CLI_USAGE;
    }
    if (status == CLI_OK && !T->o.help)
        status = T->merge ? tune_run_merge(T, &cand) : run(T, &cand);
    for (int k = 0; k < cand.n; k++) {
        tune_drop_candidate(cand.item[k]);
        free(cand.item[k]);
    }
    free(cand.item);
    for (int i = 0; i < T->nmerged; i++)
        foh_yaml_free(T->merged[i]);
    remove_tmp(T);
    free(T->tun);
    free(T->og);
    free(T);
    free(args);
    return status;
}

int tune_prepare(tuner *T, candidates *cand, candidate **basep)
{
    T->tty = isatty(2);
    T->started = cli_now_s();
    T->tun = calloc(TUNE_MAX_TUNABLES, sizeof *T->tun);
    snprintf(T->tmp, sizeof T->tmp, "%s/foh-tune-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!T->tun || !mkdtemp(T->tmp)) {
        cli_error("tune", "cannot make a temporary folder %s: %s", T->tmp, strerror(errno));
        T->tmp[0] = 0;
        return CLI_DATA;
    }
    /* The set as the user gave it (every variant), for what the run records. */
    foh_cardset *given;
    foh_engine *eng;
    if (!cli_load(&T->o, &given, &eng))
        return CLI_DATA;
    provenance_hash(given, T->set_hash);
    T->set_is_base = provenance_is_base(&T->o, given);
    foh_engine_free(eng);
    foh_cardset_free(given);
    tune_split_variants(T);
    candidate *base = tune_new_candidate(T, cand, NULL, (change){-1, 0});
    if (!base)
        return CLI_DATA;
    if (!tune_resolve_card_targets(&T->tg, base->cs))
        return CLI_USAGE;
    const char *note;
    if (!foh_cardset_allows_players(base->cs, T->o.players, &note)) {
        cli_error("tune", "%d players are not allowed. %s", T->o.players, note);
        return CLI_USAGE;
    }
    foh_player *probe[FOH_MAX_PLAYERS];
    if (!cli_seats(&T->o, 0, probe))
        return CLI_USAGE;
    cli_free_seats(probe, T->o.players);
    /* Cards owned in fewer than 2% of player-games are left out of the band. */
    T->tg.min_owned = (int)(T->o.games * T->o.players / 50);
    if (T->tg.min_owned < 10)
        T->tg.min_owned = 10;
    if (!tune_find_tunables(T, base->cs))
        return CLI_USAGE;
    printf("foh tune: %d players, seats %s, seed %llu, %ld games per evaluation, budget %ld games, %d thread%s\n",
           T->o.players, T->o.seats, (unsigned long long)T->o.seed, T->o.games, T->budget, T->o.threads,
           T->o.threads == 1 ? "" : "s");
    char *command = provenance_command(&T->o);
    printf("provenance: content hash %s of the card set with its variants (%s), %s, command: ", T->set_hash,
           T->set_is_base ? "the base set as shipped" : "not the base set as shipped",
           provenance_engine());
    cli_puts(stdout, command ? command : "(out of memory)");
    printf("\n");
    free(command);
    tune_print_targets(T, stdout);
    printf("tunables: %d numbers, %d single changes", T->ntun, T->nvalues_total);
    for (int i = 0; i < T->npatterns; i++)
        printf("%s%s", i ? ", " : " (--tunable ", T->patterns[i]);
    printf("%s\n", T->npatterns ? ")" : "");
    for (int i = 0; i < T->nmerged; i++)
        printf("variant %s (only `set:`) is merged into every candidate: its numbers are tunable too\n",
               T->merged_name[i]);
    if (!T->ntun) {
        cli_error("tune", "no tunable number%s", T->npatterns ? " matches the --tunable patterns" : "");
        return CLI_USAGE;
    }
    *basep = base;
    return CLI_OK;
}

void tune_base_ready(tuner *T, candidate *base)
{
    if (T->tg.card_band < 0) {
        /* A guard: no change may make some card's owners' win rate further
         * from the others' than the base's furthest (a card made too strong
         * would drown every other imbalance in noise). */
        T->tg.band_guard = base->m.band.v;
        tune_update_loss(T, base);
        foh_card_info ci = {.id = "-"};
        if (base->m.band_card >= 0)
            foh_cardset_card(base->cs, base->m.band_card, &ci);
        tune_clear_progress(T);
        printf("guard: no card's owners' win rate further than %.1f points from the mean of all cards' (the base's "
               "furthest, %s)\n", T->tg.band_guard, ci.id);
    }
    tune_clear_progress(T);
    tune_print_metrics(T, stdout, "base", base);
}

int tune_finish(tuner *T, candidates *cand, candidate *base, candidate **alive, int nalive)
{
    int st;
    candidate *best = base;
    if (base->loss > 0 && (st = tune_stage2(T, cand, base, alive, nalive, &best)) != CLI_OK)
        return st;
    tune_clear_progress(T);
    if (T->merge)
        printf("\nsearch: %ld games played (the base once, every shard's screening, stage 2 here), %.0f s here\n",
               T->spent, cli_now_s() - T->started);
    else
        printf("\nsearch: %ld games played in %.0f s\n", T->spent, cli_now_s() - T->started);
    tune_print_metrics(T, stdout, "base", base);
    tune_print_metrics(T, stdout, "tuned", best);
    double miss = best->loss - T->change_cost * best->n;
    printf("targets %s\n", miss <= 0 ? "all met (on the search's games)" : "not all met: the best found is below");

    char(*notes)[600] = calloc(TUNE_MAX_CHANGES, sizeof *notes);
    if (!notes)
        return CLI_DATA;
    tune_patch_notes(T, cand, base, best, notes);
    int status = T->out ? tune_write_out(T, best, notes) : CLI_OK;
    free(notes);
    if (status == CLI_OK && T->verify_games > 0 && !best->n)
        printf("verification skipped: no change to verify\n");
    if (status == CLI_OK && T->verify_games > 0 && best->n > 0)
        status = tune_verify(T, cand, base, best);
    return status;
}

/* One run on this machine, or one shard of it (--shard i/n --save-shard). */
static int run(tuner *T, candidates *cand)
{
    candidate *base = NULL;
    int st = tune_prepare(T, cand, &base);
    if (st != CLI_OK)
        return st;
    T->stage = "base";
    if ((st = tune_evaluate(T, &base, 1, T->o.games)) != CLI_OK)
        return st;
    if (base->failed) {
        tune_clear_progress(T);
        cli_error("tune", "the base game does not play: %s", base->why);
        return CLI_DATA;
    }
    tune_base_ready(T, base);
    /* A per-card target the base's games cannot measure would count as met:
     * refused (a starting card is never gained during a turn: no impact). */
    for (int k = 0; k < T->tg.ncard; k++)
        if (!base->m.card_known[k]) {
            cli_error("tune", "--target card:%s: its %s is not determined on the base's games (%s): it cannot be "
                              "tuned towards", T->tg.card[k].id,
                      T->tg.card[k].figure == TUNE_CARD_OWNERS ? "owners' win rate" : "impact on the win",
                      T->tg.card[k].figure == TUNE_CARD_OWNERS ? "nobody owned it at the end"
                                                               : "never gained during a turn: a starting card, or "
                                                                 "never taken");
            return CLI_USAGE;
        }
    candidate **alive = NULL;
    int nalive = 0;
    if (base->loss > 0 && (st = tune_stage1(T, cand, base, &alive, &nalive)) != CLI_OK)
        return st;
    st = T->o.save_shard ? tune_save_shard(T, base, alive, nalive) : tune_finish(T, cand, base, alive, nalive);
    free(alive);
    return st;
}

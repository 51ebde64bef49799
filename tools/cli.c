/* Shared pieces of the foh command-line program. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "save.h"

#ifndef FOH_DEFAULT_CARDS
#define FOH_DEFAULT_CARDS "cards/base"
#endif
#ifndef FOH_DEFAULT_VARIANTS
#define FOH_DEFAULT_VARIANTS "variants"
#endif

void cli_variant_dir(const char *name, char *out, size_t len)
{
    if (strchr(name, '/'))
        snprintf(out, len, "%s", name);
    else
        snprintf(out, len, "%s/%s", FOH_DEFAULT_VARIANTS, name);
}

static int number(const char *command, const char *flag, const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long long v = text ? strtoll(text, &end, 10) : 0;
    if (!text || *text == '\0' || *end != '\0' || errno || v < lo || v > hi) {
        fprintf(stderr, "foh %s: %s needs a whole number from %ld to %ld, got '%s'\n", command, flag, lo, hi,
                text ? text : "");
        return 0;
    }
    *out = (long)v;
    return 1;
}

int cli_parse(int argc, char **argv, const char *command, const char *allowed, cli_options *o)
{
    memset(o, 0, sizeof *o);
    o->players = 4;
    o->seed = 1;
    o->games = 1000;
    o->cards = FOH_DEFAULT_CARDS;
    o->seats = "random";
    o->threads = 1;
    o->shard = o->shards = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
            continue;
        }
        const char *name = strncmp(a, "--", 2) ? NULL : a + 2;
        if (!name || !strstr(allowed, name) || i + 1 >= argc) {
            fprintf(stderr, "foh %s: unknown option or missing value: '%s' (see foh %s --help)\n", command, a,
                    command);
            return 0;
        }
        const char *v = argv[++i];
        long x;
        if (!strcmp(name, "players")) {
            if (!number(command, a, v, 1, FOH_MAX_PLAYERS, &x))
                return 0;
            o->players = (int)x;
        } else if (!strcmp(name, "seed")) {
            if (!number(command, a, v, 0, 0x7fffffffffffffffL, &x))
                return 0;
            o->seed = (uint64_t)x;
        } else if (!strcmp(name, "games")) {
            if (!number(command, a, v, 1, 100000000L, &x))
                return 0;
            o->games = x;
        } else if (!strcmp(name, "cards")) {
            o->cards = v;
        } else if (!strcmp(name, "seats")) {
            o->seats = v;
        } else if (!strcmp(name, "threads")) {
            if (!number(command, a, v, 1, 256, &x))
                return 0;
            o->threads = (int)x;
        } else if (!strcmp(name, "json")) {
            o->json = v;
        } else if (!strcmp(name, "lua-instructions")) {
            if (!number(command, a, v, 1000, 0x7fffffffffffffffL, &x))
                return 0;
            o->limits.instructions = x;
        } else if (!strcmp(name, "lua-memory")) {
            if (!number(command, a, v, 1, 1 << 20, &x))
                return 0;
            o->limits.memory_bytes = (size_t)x << 20;
        } else if (!strcmp(name, "save")) {
            o->save = v;
        } else if (!strcmp(name, "load")) {
            o->load = v;
        } else if (!strcmp(name, "stop-after")) {
            if (!number(command, a, v, 1, SAVE_MAX_ACTIONS, &x))
                return 0;
            o->stop_after = x;
        } else if (!strcmp(name, "on-error")) {
            if (strcmp(v, "stop") && strcmp(v, "skip")) {
                fprintf(stderr, "foh %s: --on-error takes stop or skip, got '%s'\n", command, v);
                return 0;
            }
            o->skip_errors = !strcmp(v, "skip");
        } else if (!strcmp(name, "html")) {
            o->html = v;
        } else if (!strcmp(name, "games-csv")) {
            o->games_csv = v;
        } else if (!strcmp(name, "save-shard")) {
            o->save_shard = v;
        } else if (!strcmp(name, "shard")) {
            if (sscanf(v, "%d/%d", &o->shard, &o->shards) != 2 || o->shards < 1 || o->shards > 100000 ||
                o->shard < 1 || o->shard > o->shards) {
                fprintf(stderr, "foh %s: --shard needs i/k with 1 <= i <= k, got '%s'\n", command, v);
                return 0;
            }
        } else if (!strcmp(name, "variant")) {
            if (o->nvariants >= CLI_MAX_VARIANTS) {
                fprintf(stderr, "foh %s: at most %d variants\n", command, CLI_MAX_VARIANTS);
                return 0;
            }
            o->variant[o->nvariants] = v;
            cli_variant_dir(v, o->variant_dir[o->nvariants], sizeof o->variant_dir[0]);
            char probe[1100];
            snprintf(probe, sizeof probe, "%s/variant.yaml", o->variant_dir[o->nvariants]);
            FILE *f = fopen(probe, "r");
            if (!f) {
                fprintf(stderr, "foh %s: unknown variant '%s' ('foh variants' lists them)\n", command, v);
                return 0;
            }
            fclose(f);
            o->nvariants++;
        } else {
            fprintf(stderr, "foh %s: unknown option '%s'\n", command, a);
            return 0;
        }
    }
    return 1;
}

int cli_seats(const cli_options *o, uint64_t seed, foh_player **seats)
{
    char specs[FOH_MAX_PLAYERS][64];
    int n = 0;
    const char *s = o->seats;
    while (*s && n < FOH_MAX_PLAYERS) {
        size_t len = strcspn(s, ",");
        snprintf(specs[n++], sizeof specs[0], "%.*s", (int)(len < 63 ? len : 63), s);
        s += len + (s[len] == ',');
    }
    if (n != 1 && n != o->players) {
        fprintf(stderr, "foh: --seats names %d players for a %d-player game\n", n, o->players);
        return 0;
    }
    for (int p = 0; p < o->players; p++) {
        foh_error err;
        seats[p] = foh_bot_from_spec(specs[n == 1 ? 0 : p], foh_seed_for(seed, 1000 + (uint64_t)p), &err);
        if (!seats[p]) {
            fprintf(stderr, "foh: --seats: %s\n", err.msg);
            cli_free_seats(seats, p);
            return 0;
        }
    }
    return 1;
}

void cli_free_seats(foh_player **seats, int n)
{
    for (int p = 0; p < n; p++)
        foh_player_free(seats[p]);
}

int cli_load(const cli_options *o, foh_cardset **cs, foh_engine **eng)
{
    foh_error err;
    *eng = NULL;
    const char *dirs[CLI_MAX_VARIANTS];
    for (int i = 0; i < o->nvariants; i++)
        dirs[i] = o->variant_dir[i];
    *cs = foh_cardset_load_variants(o->cards, dirs, o->nvariants, &err);
    if (!*cs) {
        fprintf(stderr, "foh: %s\n", err.msg);
        return 0;
    }
    *eng = foh_engine_new_limited(*cs, &o->limits, &err);
    if (!*eng) {
        fprintf(stderr, "foh: %s\n", err.msg);
        foh_cardset_free(*cs);
        *cs = NULL;
        return 0;
    }
    return 1;
}

void cli_print_scores(FILE *out, foh_game *g)
{
    const foh_cardset *cs = foh_game_cardset(g);
    int n = foh_game_players(g);
    foh_score sc[FOH_MAX_PLAYERS];
    foh_tiebreak tb;
    foh_error err;
    if (foh_game_score(g, sc, &tb, &err) != FOH_OK) {
        fprintf(out, "scoring failed: %s\n", err.msg);
        return;
    }
    fprintf(out, "\nFinal scores (obsolete effects off; Culture icons 1 VP each; other icons halved, rounded down)\n");
    fprintf(out, "%-4s %8s %12s %9s %6s %6s %7s  %s\n", "", "Culture", "Other icons", "Other VP", "Total", "Cards",
            "Tokens", "End-game effects");
    for (int p = 0; p < n; p++) {
        char ends[512] = "";
        size_t len = 0;
        for (int k = 0; k < sc[p].n_end && len < sizeof ends; k++) {
            foh_card_info ci = {0};
            if (sc[p].end[k].card >= 0)
                foh_cardset_card(cs, sc[p].end[k].card, &ci);
            len += (size_t)snprintf(ends + len, sizeof ends - len, "%s%s +%d VP", k ? ", " : "",
                                    sc[p].end[k].card < 0 ? "variant scoring" : ci.name, sc[p].end[k].full_vp);
            if (sc[p].end[k].other_icons && len < sizeof ends)
                len += (size_t)snprintf(ends + len, sizeof ends - len, " (+%d other icons)", sc[p].end[k].other_icons);
        }
        fprintf(out, "P%-3d %8d %12d %9d %6d %6d %7d  %s%s\n", p + 1, sc[p].culture_icons, sc[p].other_icons,
                sc[p].other_vp, sc[p].total, sc[p].cards, sc[p].tokens, ends[0] ? ends : "-",
                sc[p].winner ? "   WINNER" : "");
    }
    for (int p = 0; p < n; p++) {
        int end_vp = 0;
        for (int k = 0; k < sc[p].n_end; k++)
            end_vp += sc[p].end[k].full_vp;
        fprintf(out, "P%d: %d (%d Culture icons) + %d (%d other icons) + %d end-game = %d VP\n", p + 1,
                sc[p].culture_vp, sc[p].culture_icons, sc[p].other_vp, sc[p].other_icons, end_vp, sc[p].total);
    }
    static const char *const why[] = {"most VP", "tie on VP broken by most cards in the Nation",
                                      "tie on VP and cards broken by most resource tokens",
                                      "tie on VP, cards and tokens: shared win"};
    fprintf(out, "Winner:");
    for (int p = 0; p < n; p++)
        if (sc[p].winner)
            fprintf(out, " P%d", p + 1);
    fprintf(out, " (%s)\n", why[tb]);
}

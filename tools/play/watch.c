/* watch: `foh play --watch` (see watch.h, docs/play.md). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/watch.h"
#include "common/cli.h"
#include "foh/ruleset.h"

/* The sources of a card set, whatever its ruleset: The Flow of History's
 * through foh_cardset_source*, another's through its `source` method (its
 * label is its path). COUNT: how many; AT: source I's label, path and
 * recorded hash (NULL past the last). */
static int is_flow(const foh_cardset *cs) { return foh_cardset_ruleset(cs) == foh_ruleset_at(0); }

static int source_count(const foh_cardset *cs)
{
    const foh_ruleset *rs = foh_cardset_ruleset(cs);
    if (is_flow(cs))
        return foh_cardset_source_count(cs);
    int n = 0;
    uint64_t h;
    while (rs->source && rs->source(cs, n, &h))
        n++;
    return n;
}

static const char *source_at(const foh_cardset *cs, int i, const char **path, uint64_t *hash)
{
    if (is_flow(cs)) {
        *path = foh_cardset_source_path(cs, i);
        return foh_cardset_source(cs, i, hash);
    }
    const foh_ruleset *rs = foh_cardset_ruleset(cs);
    *path = rs->source ? rs->source(cs, i, hash) : NULL;
    return *path;
}

#define FNV_START 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv_more(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * FNV_PRIME;
    return h;
}

/* FNV-1a 64 of file PATH's bytes, as the loader hashes its sources
 * (foh_cardset_source); 0 if it cannot be read (gone, being written, or
 * no longer a regular file of at most the reader's size: a named pipe or
 * a link to /dev/zero is never opened for reading, so a poll never
 * blocks or spins). */
static uint64_t file_hash(const char *path)
{
    char *bytes;
    size_t n;
    if (foh_file_read(path, FOH_YAML_MAX_BYTES, "YAML files", &bytes, &n, NULL) != FOH_OK)
        return 0;
    uint64_t h = foh_file_hash(bytes, n);
    free(bytes);
    return h;
}

/* The card files of folder DIR as the loader finds them (every name ending
 * in ".yaml" but game.yaml): a sum of their names' hashes, whatever the
 * order the folder lists them in. */
static uint64_t folder_listing(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    uint64_t sum = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len >= 6 && !strcmp(e->d_name + len - 5, ".yaml") && strcmp(e->d_name, "game.yaml"))
            sum += fnv_more(FNV_START, e->d_name, len);
    }
    closedir(d);
    return sum;
}

/* The files of CS and its card set folders (those of its game.yaml files),
 * as one number: each file's path and hash (the hashes CS recorded when
 * RECORDED, else the files' bytes now) and each folder's listing now. */
static uint64_t fingerprint(const foh_cardset *cs, int recorded)
{
    uint64_t h = FNV_START;
    for (int i = 0; i < source_count(cs); i++) {
        uint64_t hash;
        const char *path;
        source_at(cs, i, &path, &hash);
        if (!recorded)
            hash = file_hash(path);
        h = fnv_more(h, path, strlen(path) + 1);
        h = fnv_more(h, &hash, sizeof hash);
        size_t len = strlen(path);
        if (len >= 9 && !strcmp(path + len - 9, "game.yaml") && (len == 9 || path[len - 10] == '/')) {
            char dir[1200]; /* "game.yaml" is in ".", "/game.yaml" in "/" */
            snprintf(dir, sizeof dir, "%.*s", len > 10 ? (int)(len - 10) : 1, len > 10 ? path : len > 9 ? "/" : ".");
            uint64_t listing = folder_listing(dir);
            h = fnv_more(h, &listing, sizeof listing);
        }
    }
    return h;
}

void watch_init(watcher *w, const cli_options *o, const foh_cardset *cs)
{
    w->o = o;
    w->examined = fingerprint(cs, 1);
}

/* What differs between the sources of OLD and NEW (by label: hash changed,
 * added, removed), as "a, b and c changed" in BUF; "" if nothing. */
static void describe_changes(const foh_cardset *old, const foh_cardset *new, char *buf, size_t len)
{
    char what[3][700] = {"", "", ""}; /* changed, added, removed */
    int n[3] = {0, 0, 0};
    for (int pass = 0; pass < 2; pass++) {
        const foh_cardset *a = pass ? old : new, *b = pass ? new : old;
        for (int i = 0; i < source_count(a); i++) {
            uint64_t ha, hb;
            const char *path, *pb;
            const char *label = source_at(a, i, &path, &ha);
            int k = -1;
            for (int j = 0; j < source_count(b) && k < 0; j++)
                if (!strcmp(source_at(b, j, &pb, &hb), label))
                    k = j;
            int kind = k < 0 ? (pass ? 2 : 1) : !pass && ha != hb ? 0 : -1;
            if (kind < 0)
                continue;
            char *out = what[kind];
            size_t used = strlen(out);
            if (n[kind]++ < 4)
                snprintf(out + used, sizeof what[0] - used, "%s%s", used ? ", " : "", path);
            else if (n[kind] == 5)
                snprintf(out + used, sizeof what[0] - used, ", ...");
        }
    }
    static const char *const verb[3] = {"changed", "added", "removed"};
    buf[0] = '\0';
    for (int kind = 0; kind < 3; kind++)
        if (n[kind]) {
            size_t used = strlen(buf);
            snprintf(buf + used, len - used, "%s%s %s", used ? "; " : "", what[kind], verb[kind]);
        }
}

int watch_poll(watcher *w, foh_game *g, foh_cardset **cs, foh_engine **eng, foh_cardset **old_cs,
               foh_engine **old_eng, char *line, size_t len)
{
    uint64_t now = fingerprint(*cs, 0);
    if (now == w->examined)
        return 0;
    w->examined = now; /* what follows is said once for these files */
    cli_sources src;
    cli_sources_of(w->o, &src);
    foh_error err;
    foh_cardset *ncs =
        foh_cardset_load_sets(src.sets, src.nsets, src.variants, src.nvariants, src.search, src.nsearch, &err);
    if (ncs && foh_cardset_ruleset(ncs) != foh_cardset_ruleset(*cs)) {
        foh_error_set(&err, FOH_ERR_DATA, "the card set is now one of another ruleset, '%s'",
                      foh_cardset_ruleset(ncs)->name);
        foh_cardset_free(ncs);
        ncs = NULL;
    }
    foh_engine *neng = ncs ? foh_engine_new_limited(ncs, &w->o->limits, &err) : NULL;
    if (!neng) {
        cli_error("play", "watch: kept the old definitions: %s", err.msg);
        foh_cardset_free(ncs);
        return 0;
    }
    char changed[2200];
    describe_changes(*cs, ncs, changed, sizeof changed);
    if (!changed[0]) {
        /* Back as they were, or only other files of the folders changed. */
        foh_engine_free(neng);
        foh_cardset_free(ncs);
        return 0;
    }
    const foh_ruleset *rs = foh_cardset_ruleset(ncs);
    foh_status moved = is_flow(ncs) ? foh_game_rebind(g, neng, &err)
                       : rs->rebind ? rs->rebind(g, neng, &err)
                                    : foh_error_set(&err, FOH_ERR_USAGE, "the ruleset '%s' cannot move a game", rs->name);
    if (moved != FOH_OK) {
        cli_error("play", "watch: kept the old definitions: %s: %s", changed, err.msg);
        foh_engine_free(neng);
        foh_cardset_free(ncs);
        return 0;
    }
    *old_cs = *cs;
    *old_eng = *eng;
    *cs = ncs;
    *eng = neng;
    /* The files as loaded: a change while loading is seen next time. */
    w->examined = fingerprint(ncs, 1);
    snprintf(line, len, "Reloaded the card set: %s (%d files watched); the game goes on under the new definitions",
             changed, source_count(ncs));
    return 1;
}

/* datadir: where foh finds the data it ships (see datadir.h). */
#define _XOPEN_SOURCE 700 /* realpath, readlink */
#include "common/datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/output.h"

#ifndef FOH_DEFAULT_CARDS
#define FOH_DEFAULT_CARDS "cards/base"
#endif
#ifndef FOH_DEFAULT_VARIANTS
#define FOH_DEFAULT_VARIANTS "variants"
#endif
/* The installed data folder relative to the installed program's folder
 * (CMakeLists.txt: from CMAKE_INSTALL_BINDIR to CMAKE_INSTALL_DATADIR/foh). */
#ifndef FOH_EXE_TO_DATA
#define FOH_EXE_TO_DATA "../share/foh"
#endif

/* Note PLACE (what was tried, with WHY: how it was chosen) in D's list. */
static void note(cli_data *d, const char *place, const char *why)
{
    size_t n = strlen(d->looked);
    snprintf(d->looked + n, sizeof d->looked - n, "%s%s (%s)", n ? ", then " : "", place, why);
}

/* Take CARDS and VARIANTS as D's folders; 1 if CARDS holds a game.yaml. */
static int try_place(cli_data *d, const char *cards, const char *variants)
{
    snprintf(d->cards, sizeof d->cards, "%s", cards);
    snprintf(d->variants, sizeof d->variants, "%s", variants);
    char probe[CLI_DATA_PATH + 16];
    snprintf(probe, sizeof probe, "%s/game.yaml", cards);
    return strlen(cards) < sizeof d->cards && strlen(variants) < sizeof d->variants &&
           access(probe, R_OK) == 0; /* never opened: a named pipe would block */
}

/* Try the data folder ROOT (cards/base and variants in it). */
static int try_root(cli_data *d, const char *root, const char *why)
{
    char cards[CLI_DATA_PATH + 16], variants[CLI_DATA_PATH + 16];
    snprintf(cards, sizeof cards, "%s/cards/base", root);
    snprintf(variants, sizeof variants, "%s/variants", root);
    note(d, cards, why);
    return try_place(d, cards, variants);
}

/* The data folder beside the running program into OUT (absolute, resolved
 * when it exists); 0 when the program's own path cannot be read. */
static int beside_program(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    char joined[PATH_MAX + 32], resolved[PATH_MAX];
    snprintf(joined, sizeof joined, "%s/%s", exe, FOH_EXE_TO_DATA);
    const char *p = realpath(joined, resolved) ? resolved : joined;
    if (strlen(p) >= len)
        return 0;
    memcpy(out, p, strlen(p) + 1);
    return 1;
}

void cli_data_find(cli_data *d)
{
    memset(d, 0, sizeof *d);
    const char *env = getenv("FOH_DATA_DIR");
    if (env && *env) {
        d->found = try_root(d, env, "$FOH_DATA_DIR");
        return;
    }
    char root[CLI_DATA_PATH];
    if (beside_program(root, sizeof root) && try_root(d, root, "beside the program")) {
        d->found = 1;
        return;
    }
    note(d, FOH_DEFAULT_CARDS, "the source tree foh was built from");
    d->found = try_place(d, FOH_DEFAULT_CARDS, FOH_DEFAULT_VARIANTS);
}

void cli_data_missing(const char *command, const cli_data *d)
{
    cli_error(command,
              "cannot find foh's data: looked for the base card set (its game.yaml) in %s; FOH_DATA_DIR, when "
              "set, names the folder holding cards/, variants/ and scripts/ (an installed foh's share/foh)",
              d->looked);
}

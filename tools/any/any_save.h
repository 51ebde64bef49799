/* any_save: the save file of a card set of any ruleset (`foh play --save`,
 * `--load`, `foh replay`), a JSON document written and read with jansson
 * (docs/save-format.md, "Saves of another ruleset"). A save is the card
 * set's folders, the players, the seed, the seats and the actions by the
 * names the ruleset's describe_action gives them: the game is a function
 * of (card set, seed, actions), so the save replays bit for bit. */
#ifndef FOH_ANY_SAVE_H
#define FOH_ANY_SAVE_H

#include <stddef.h>
#include <stdint.h>

#include "common/cli.h"
#include "common/origin.h"
#include "foh/foh.h"

#define ANY_SAVE_FORMAT "foh-ruleset-save/1"
/* An action's name as saved, NUL included: a longer one is cut (the same
 * way when it is saved and when it is replayed; `which` tells apart the
 * actions a cut leaves with one name). */
#define ANY_ACTION_NAME 128

/* One action as saved: who took it and its name (describe_action), and
 * which of the legal actions of that name it was (1: the first; more only
 * when several legal actions share the name). */
typedef struct {
    int player; /* 0-based */
    int which;
    char name[ANY_ACTION_NAME];
} any_saved_action;

/* A save file as read. */
typedef struct {
    const char *path;
    char ruleset[64];
    origin origin; /* card sets, variants and mod folders */
    int players;
    uint64_t seed;
    char seats[512];
    foh_script_limits limits;
    int nactions;
    any_saved_action *actions;
    int has_start, has_digest;
    uint64_t start_digest, digest; /* foh_game_digest after the set-up, after the actions */
} any_save;

/* What a game's save holds besides its actions. */
typedef struct {
    const cli_options *o; /* card sets, variants, mods, players, seed, seats, limits */
    const char *ruleset;  /* the ruleset's name */
    uint64_t start_digest;
} any_save_game;

/* 1 if PATH is a readable save file of this format (not necessarily a
 * valid one): the commands then take their any_* form. Silent: 0 for
 * anything else, which the usual path reads and reports. */
int any_save_sniff(const char *path);

/* Write the game G (what SG says, and ACTIONS[0..N)) to PATH as
 * cli_write_save does. 0 with WHY ("PATH: reason") on error. */
int any_save_write(const char *path, const any_save_game *sg, const foh_game *g, const any_saved_action *actions,
                   int n, char *why, size_t whylen);

/* Read and check the shape of save file PATH into S (a regular file of at
 * most SAVE_MAX_BYTES). 0 on error with ERR naming the file and the
 * position: "FILE:LINE:COLUMN: not valid JSON", "FILE: options.seed: must
 * be an integer", "FILE: actions[3].action: is missing". */
int any_save_read(const char *path, any_save *s, char *err, size_t errlen);
void any_save_free(any_save *s);

/* The legal action of LEGAL[0..N) that saved action A names into *INDEX;
 * 0 with ERR ("FILE: actions[I]: 'NAME' is not a legal action here (P1 to
 * act: ...)") when there is none, or it is another player's decision. */
int any_save_find(const any_save *s, int i, const foh_game *g, const foh_action *legal, int n, int *index, char *err,
                  size_t errlen);

/* Action A of G, about to be taken (one of LEGAL[0..N), the legal actions
 * now), as it is saved into *OUT. */
void any_save_name(const foh_game *g, const foh_action *legal, int n, const foh_action *a, any_saved_action *out);

#endif

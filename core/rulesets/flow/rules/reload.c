/* reload: moving a game in progress onto a new load of its card set
 * (foh_game_rebind, for `foh play --watch`). The position refers to cards
 * by index, so the new card set must have the same cards in the same order
 * and the same vocabulary; what the position derives from card data (the
 * Nations' index: each pile's top card by type, the cards per age) is
 * rebuilt, and the result must pass every invariant. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "nation.h"

/* The first difference between two lists of names (NA names from A, NB
 * from B, each STRIDE bytes after the one before), as "WHAT N was 'x', is
 * now 'y'" (or "is new", "is gone") in BUF; 0 if the lists are equal. */
static int names_differ(const char *what, const char *a, int na, const char *b, int nb, size_t stride, char *buf,
                        size_t len)
{
    for (int i = 0; i < na || i < nb; i++) {
        const char *x = i < na ? a + (size_t)i * stride : NULL, *y = i < nb ? b + (size_t)i * stride : NULL;
        if (x && y && !strcmp(x, y))
            continue;
        if (x && y)
            snprintf(buf, len, "%s %d was '%s', is now '%s'", what, i + 1, x, y);
        else if (y)
            snprintf(buf, len, "%s %d '%s' is new", what, i + 1, y);
        else
            snprintf(buf, len, "%s %d '%s' is gone", what, i + 1, x);
        return 1;
    }
    return 0;
}

/* game.yaml's vocabulary: icons, ages, card types, timings (names, in
 * order). The first difference in BUF; 0 if the same. */
static int vocabulary_differs(const foh_cardset *a, const foh_cardset *b, char *buf, size_t len)
{
    return names_differ("icon", a->icon[0], a->nicons, b->icon[0], b->nicons, sizeof a->icon[0], buf, len) ||
           names_differ("age", a->age[0].name, a->nages, b->age[0].name, b->nages, sizeof a->age[0], buf, len) ||
           names_differ("card type", a->type[0].name, a->ntypes, b->type[0].name, b->ntypes, sizeof a->type[0], buf,
                        len) ||
           names_differ("timing", a->timing[0].name, a->ntimings, b->timing[0].name, b->ntimings,
                        sizeof a->timing[0], buf, len);
}

/* The first difference between the cards of A and of B (ids, in order):
 * a card added (with its file and line), removed, or moved. 0 if none. */
static int cards_differ(const foh_cardset *a, const foh_cardset *b, char *buf, size_t len)
{
    for (int c = 0; c < b->ncards; c++)
        if (foh_cardset_find(a, b->card[c].id) < 0) {
            snprintf(buf, len, "card '%s' is new (%s:%d)", b->card[c].id, b->card[c].file, b->card[c].line);
            return 1;
        }
    for (int c = 0; c < a->ncards; c++)
        if (foh_cardset_find(b, a->card[c].id) < 0) {
            snprintf(buf, len, "card '%s' is gone", a->card[c].id);
            return 1;
        }
    for (int c = 0; c < a->ncards; c++)
        if (strcmp(a->card[c].id, b->card[c].id)) {
            snprintf(buf, len, "the cards' order changed: card %d is now '%s' (%s:%d), was '%s'", c + 1,
                     b->card[c].id, b->card[c].file, b->card[c].line, a->card[c].id);
            return 1;
        }
    return 0;
}

foh_status foh_game_rebind(foh_game *g, foh_engine *eng, foh_error *err)
{
    const foh_cardset *old = g->eng->cs, *cs = eng->cs;
    char why[FOH_PATH + 200];
    if (g->pending)
        return foh_error_set(err, FOH_ERR_USAGE, "the game is inside an action (a choice is pending)");
    if (cards_differ(old, cs, why, sizeof why))
        return foh_error_set(err, FOH_ERR_DATA, "%s: a game in progress keeps its cards, in their order", why);
    if (vocabulary_differs(old, cs, why, sizeof why))
        return foh_error_set(err, FOH_ERR_DATA,
                             "game.yaml: %s: a game in progress keeps its icons, ages, card types and timings", why);
    if (!foh_cardset_allows_players(cs, g->st.players, NULL))
        return foh_error_set(err, FOH_ERR_DATA, "the card set no longer allows %d players", g->st.players);
    foh_game *moved = flow_game_clone(g);
    if (!moved)
        return foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
    moved->eng = eng;
    foh_nation_reindex(moved);
    moved->base = moved->st;
    foh_error broken;
    if (foh_game_check_invariants(moved, &broken) != FOH_OK) {
        flow_game_free(moved);
        return foh_error_set(err, FOH_ERR_DATA, "the game in progress does not fit the new card set (%s)",
                             broken.msg);
    }
    flow_game_copy(g, moved); /* G keeps its log sink */
    flow_game_free(moved);
    return FOH_OK;
}

/* memo: remembered icon counts and scores of Nations, so that the bots'
 * look-ahead, which values dozens of positions that differ in one player's
 * Nation at most, does not call the same counting and End Game effects
 * again for the Nations that did not change.
 *
 * A result is kept with what its computation read, tracked as it runs: the
 * Nations it looked at (the C code notes its own player's; the Lua API
 * notes every Nation a script asks about) and whether it read anything
 * else (tokens, the Market, the Current Age, the random generator, the
 * log: such a result is not kept). Scripts keep nothing between calls
 * (lua_freeze.c), so a result is a function of what it read: it is reused
 * only when every Nation it read holds the same cards placed in the same
 * order (card and placement number each), for the same number of players
 * and the same scoring mode. Games therefore play exactly as without it.
 *
 * The memo belongs to the engine (one per thread) and is not game state:
 * a copied or restored game finds the same results. */
#ifndef FOH_MEMO_H
#define FOH_MEMO_H

#include "internal.h"

typedef enum { FOH_MEMO_ICONS, FOH_MEMO_SCORE } foh_memo_kind;

/* Note a read by the computation in progress, if any: the Nations of
 * NATIONS (bit per player), or anything else. */
static inline void foh_memo_note(foh_engine *e, uint32_t nations)
{
    if (e->memo_depth)
        e->memo_reads.nations |= nations;
}
static inline void foh_memo_note_other(foh_engine *e)
{
    if (e->memo_depth)
        e->memo_reads.other = 1;
}
/* CARD's rule took effect (noted for scenario coverage; a reused result
 * notes its cards again). */
void foh_memo_exercise(foh_engine *e, int card);
/* foh_memo_exercise of every card of CARDS (bit c: card c). */
static inline void foh_memo_exercise_all(foh_engine *e, const uint64_t cards[FOH_OWNED_WORDS])
{
    for (int w = 0; w < e->words; w++) {
        e->exercised[w] |= cards[w];
        if (e->memo_depth)
            e->memo_reads.exercised[w] |= cards[w];
    }
}

/* Start tracking a computation; OUTER keeps the enclosing one's reads. */
void foh_memo_begin(foh_engine *e, foh_memo_reads *outer);
/* End it: MINE gets its reads, which are added to the enclosing one's. */
void foh_memo_end(foh_engine *e, const foh_memo_reads *outer, foh_memo_reads *mine);

/* A kept result of KIND for PLAYER of G into OUT (SIZE bytes): 1 if found
 * (its reads are noted in the computation in progress and copied to READS
 * if not NULL, its cards counted as exercised), 0 if not. */
int foh_memo_find(foh_game *g, foh_memo_kind kind, int player, void *out, size_t size, foh_memo_reads *reads);
/* Note READS, made by a computation whose result is reused, in the one in
 * progress (the cards are not counted again). */
void foh_memo_note_reads(foh_engine *e, const foh_memo_reads *reads);
/* Keep VALUE (SIZE bytes, of which the first USED hold something: a find
 * copies those) of KIND for PLAYER of G, computed with reads MINE; nothing
 * is kept when it read something else than Nations, or when out of memory
 * (the result is then computed again next time). */
void foh_memo_keep(foh_game *g, foh_memo_kind kind, int player, const foh_memo_reads *mine, const void *value,
                   size_t size, size_t used);
/* Free the engine's memo. */
void foh_memo_free(foh_engine *e);

#endif

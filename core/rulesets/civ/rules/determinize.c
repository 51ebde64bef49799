/* determinize: what one seat cannot see, drawn again. Hidden from VIEWER
 * are the cards of the piles it has not seen (a face-up pile shows its top;
 * a Leader discarded shows the next cards) and the cards in the others'
 * hands it did not see drawn; the later Age decks and the Victory deck
 * are shuffled when they come into play, from the generator reseeded here.
 * The unseen cards are collected in card order, so two games that differ
 * only in where those cards lie give the same sample: a bot cannot learn
 * from a determinization what its seat does not know. */
#include "civ.h"

void civ_determinize(civ_game *g, int viewer, uint64_t seed)
{
    const civ_set *cs = g->set;
    short pool[CIV_MAX_CARDS];
    int n = 0;
    for (int c = 0; c < cs->ncards; c++) {
        int z = g->where[c];
        int hidden = (z == CIV_Z_PILE || (z == CIV_Z_HAND && g->owner[c] != viewer)) && !(g->seen[c] >> viewer & 1);
        if (hidden)
            pool[n++] = (short)c;
    }
    /* The places they fill: pile positions first, then hands by player,
     * each as many as it holds. */
    int pile_slot[CIV_PILES][CIV_MAX_PILE], hand_slots[FOH_MAX_PLAYERS] = {0};
    for (int j = 0; j < CIV_PILES; j++)
        for (int i = 0; i < g->npile[j]; i++)
            pile_slot[j][i] = !(g->seen[g->pile[j][i]] >> viewer & 1);
    for (int k = 0; k < n; k++)
        if (g->where[pool[k]] == CIV_Z_HAND)
            hand_slots[g->owner[pool[k]]]++;
    g->rng = seed;
    civ_shuffle(pool, n, &g->rng);
    int k = 0;
    for (int j = 0; j < CIV_PILES; j++)
        for (int i = 0; i < g->npile[j]; i++)
            if (pile_slot[j][i]) {
                int c = pool[k++];
                g->pile[j][i] = (short)c;
                g->where[c] = CIV_Z_PILE;
                g->owner[c] = 0;
                g->seen[c] = 0;
            }
    for (int p = 0; p < g->players; p++)
        for (int s = 0; s < hand_slots[p]; s++) {
            int c = pool[k++];
            g->where[c] = CIV_Z_HAND;
            g->owner[c] = (unsigned char)p;
            g->seen[c] = (unsigned char)(1u << p);
        }
    civ_recount(g); /* the Leaders in each hand may have changed */
}

/* setup: a new game as the draft's "Setup" sets it out (lines 94-102): the
 * Age decks and the Victory deck shuffled, starting VT, one random Ancient
 * card dealt to each player, 7 Victory cards face up; and, each age, its
 * deck dealt into three piles, two face up ("Fate Phase", lines 111-116). */
#include <stdlib.h>
#include <string.h>

#include "civ.h"

uint64_t civ_rng_next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void civ_shuffle(short *a, int n, uint64_t *rng)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(civ_rng_next(rng) % (uint64_t)(i + 1));
        short t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

#define CIV_EVERYONE 0xFF

/* Everyone sees the top card of a face-up pile. */
void civ_reveal_tops(civ_game *g)
{
    for (int j = 0; j < g->set->rules.face_up_piles && j < CIV_PILES; j++)
        if (g->npile[j] > 0)
            g->seen[g->pile[j][g->npile[j] - 1]] = CIV_EVERYONE;
}

void civ_deal_age(civ_game *g)
{
    short deck[CIV_MAX_CARDS];
    int n = 0;
    for (int c = 0; c < g->set->ncards; c++)
        if (g->where[c] == CIV_Z_AGE_DECK && g->set->card[c].age == g->age)
            deck[n++] = (short)c;
    civ_shuffle(deck, n, &g->rng);
    if (g->age == 0 && g->turn == 0) /* "Each player is dealt 1 random card from the Ancient deck." */
        for (int k = 0; k < g->set->rules.starting_cards; k++)
            for (int p = 0; p < g->players && n > 0; p++) {
                int c = deck[--n];
                g->where[c] = CIV_Z_HAND;
                g->owner[c] = (unsigned char)p;
                g->seen[c] = (unsigned char)(1u << p);
            }
    memset(g->npile, 0, sizeof g->npile);
    for (int i = 0; i < n; i++) { /* "Keep the deck in 3 even size piles." */
        int j = i % CIV_PILES;
        g->pile[j][g->npile[j]++] = deck[i];
        g->where[deck[i]] = CIV_Z_PILE;
        g->seen[deck[i]] = 0;
    }
    civ_reveal_tops(g);
    g->drew_last = 0;
    civ_recount(g);
}

void civ_turn_up_victory(civ_game *g)
{
    short deck[CIV_MAX_CARDS];
    int n = 0;
    for (int c = 0; c < g->set->ncards; c++) {
        if (g->where[c] == CIV_Z_VICTORY_UP)
            g->where[c] = CIV_Z_VICTORY_DECK; /* "shuffle them into the Victory deck" */
        if (g->where[c] == CIV_Z_VICTORY_DECK)
            deck[n++] = (short)c;
    }
    civ_shuffle(deck, n, &g->rng);
    for (int i = 0; i < g->set->rules.face_up_victory && i < n; i++) {
        g->where[deck[i]] = CIV_Z_VICTORY_UP;
        g->seen[deck[i]] = CIV_EVERYONE;
    }
}

civ_game *civ_game_new(const civ_engine *eng, const foh_options *opt, foh_error *err)
{
    const civ_set *cs = eng->set;
    if (opt->players < cs->min_players || opt->players > cs->max_players) {
        foh_error_set(err, FOH_ERR_USAGE, "this card set is played by %d to %d players, not %d", cs->min_players,
                      cs->max_players, opt->players);
        return NULL;
    }
    civ_game *g = calloc(1, sizeof *g);
    if (!g) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return NULL;
    }
    g->head = eng->head; /* the ruleset: the rules name no method table */
    g->eng = eng;
    g->set = cs;
    g->rng = opt->seed;
    g->players = opt->players;
    for (int c = 0; c < cs->ncards; c++)
        g->where[c] = cs->card[c].age >= 0 ? CIV_Z_AGE_DECK : CIV_Z_VICTORY_DECK;
    for (int p = 0; p < g->players; p++)
        g->vt[p] = cs->rules.starting_vt;
    /* "The winner of the last game goes first": P1, unless the ruling draws one. */
    g->current = cs->rules.random_first ? (int)(civ_rng_next(&g->rng) % (uint64_t)g->players) : 0;
    civ_deal_age(g);
    civ_turn_up_victory(g);
    civ_start_turn(g);
    civ_advance(g);
    return g;
}

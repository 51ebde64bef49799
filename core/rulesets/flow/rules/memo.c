/* memo: see memo.h. Each kind of result has a direct-mapped table indexed
 * by a hash of the player's own Nation; a slot holds the exact key (every
 * Nation the result read: its cards and their placement numbers), so a
 * hash collision is a miss, never a wrong result. */
#include <stdlib.h>
#include <string.h>

#include "memo.h"

#define KEY_MAX 192 /* words of a key; a longer one (many Nations read, many cards) is not kept */

typedef struct {
    uint64_t hash; /* of kind, players, player and the player's cards; 0: empty */
    uint32_t nations;
    uint64_t exercised[FOH_OWNED_WORDS];
    uint32_t nkey;
    uint32_t used; /* bytes of the value that hold something */
    uint32_t key[KEY_MAX];
} slot;

typedef struct {
    size_t nslots, size; /* slots (a power of 2), bytes of a value */
    slot *slots;
    unsigned char *values;
} table;

struct foh_memo {
    table t[2]; /* by foh_memo_kind */
};

static const size_t table_slots[2] = {2048, 512};

void foh_memo_exercise(foh_engine *e, int card)
{
    e->exercised[card >> 6] |= 1ull << (card & 63);
    if (e->memo_depth)
        e->memo_reads.exercised[card >> 6] |= 1ull << (card & 63);
}

void foh_memo_note_reads(foh_engine *e, const foh_memo_reads *reads)
{
    if (!e->memo_depth)
        return;
    e->memo_reads.nations |= reads->nations;
    e->memo_reads.other |= reads->other;
    for (int w = 0; w < e->words; w++)
        e->memo_reads.exercised[w] |= reads->exercised[w];
}

void foh_memo_begin(foh_engine *e, foh_memo_reads *outer)
{
    *outer = e->memo_reads;
    memset(&e->memo_reads, 0, sizeof e->memo_reads);
    e->memo_depth++;
}

void foh_memo_end(foh_engine *e, const foh_memo_reads *outer, foh_memo_reads *mine)
{
    *mine = e->memo_reads;
    e->memo_depth--;
    e->memo_reads = *outer;
    foh_memo_note_reads(e, mine);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

static uint64_t lookup_hash(const foh_game *g, foh_memo_kind kind, int player)
{
    uint64_t h = mix(0, (uint64_t)kind | (uint64_t)player << 8 | (uint64_t)g->st.players << 16 |
                            (uint64_t)g->scoring << 24);
    for (int w = 0; w < g->st.words; w++)
        h = mix(h, FOH_OWNED(&g->st, player)[w]);
    return h | 1;
}

/* The key of a result of KIND for PLAYER that read NATIONS into KEY:
 * its words, or -1 if longer than KEY_MAX. */
static int build_key(const foh_game *g, foh_memo_kind kind, int player, uint32_t nations, uint32_t *key)
{
    int n = 0;
    key[n++] = nations;
    key[n++] = (uint32_t)kind | (uint32_t)player << 8 | (uint32_t)g->st.players << 16 | (uint32_t)g->scoring << 24;
    for (int p = 0; p < g->st.players; p++) {
        if (!(nations >> p & 1))
            continue;
        if (n + 2 * g->st.words > KEY_MAX)
            return -1;
        for (int w = 0; w < g->st.words; w++) {
            key[n++] = (uint32_t)FOH_OWNED(&g->st, p)[w];
            key[n++] = (uint32_t)(FOH_OWNED(&g->st, p)[w] >> 32);
        }
        /* The placement numbers give the order of every pile. */
        for (int w = 0; w < g->st.words; w++)
            for (uint64_t bits = FOH_OWNED(&g->st, p)[w]; bits; bits &= bits - 1) {
                if (n == KEY_MAX)
                    return -1;
                key[n++] = g->st.loc[w * 64 + __builtin_ctzll(bits)].seq;
            }
    }
    return n;
}

/* The engine's table of KIND, made at first use; NULL when out of memory. */
static table *table_of(foh_engine *e, foh_memo_kind kind, size_t size)
{
    if (!e->memo && !e->memo_off) {
        e->memo = calloc(1, sizeof *e->memo);
        e->memo_off = !e->memo;
    }
    if (!e->memo || e->memo_off)
        return NULL;
    table *t = &e->memo->t[kind];
    if (!t->slots) {
        t->nslots = table_slots[kind];
        t->size = size;
        t->slots = calloc(t->nslots, sizeof *t->slots);
        t->values = calloc(t->nslots, size);
        if (!t->slots || !t->values) {
            free(t->slots);
            free(t->values);
            t->slots = NULL;
            t->values = NULL;
            e->memo_off = 1; /* out of memory once: the memo is off for this engine */
            return NULL;
        }
    }
    return t->size == size ? t : NULL;
}

int foh_memo_find(foh_game *g, foh_memo_kind kind, int player, void *out, size_t size, foh_memo_reads *reads)
{
    foh_engine *e = g->eng;
    table *t = table_of(e, kind, size);
    if (!t)
        return 0;
    uint64_t h = lookup_hash(g, kind, player);
    size_t i = h & (t->nslots - 1);
    slot *s = &t->slots[i];
    if (s->hash != h)
        return 0;
    uint32_t key[KEY_MAX];
    int n = build_key(g, kind, player, s->nations, key);
    if (n != (int)s->nkey || memcmp(key, s->key, (size_t)n * sizeof *key) != 0)
        return 0;
    memcpy(out, t->values + i * size, s->used);
    foh_memo_note(e, s->nations);
    if (reads) {
        memset(reads, 0, sizeof *reads);
        reads->nations = s->nations;
        memcpy(reads->exercised, s->exercised, sizeof reads->exercised);
    }
    foh_memo_exercise_all(e, s->exercised);
    return 1;
}

void foh_memo_keep(foh_game *g, foh_memo_kind kind, int player, const foh_memo_reads *mine, const void *value,
                   size_t size, size_t used)
{
    if (mine->other)
        return;
    table *t = table_of(g->eng, kind, size);
    if (!t)
        return;
    uint64_t h = lookup_hash(g, kind, player);
    size_t i = h & (t->nslots - 1);
    slot *s = &t->slots[i];
    int n = build_key(g, kind, player, mine->nations, s->key);
    if (n < 0) {
        s->hash = 0;
        return;
    }
    s->hash = h;
    s->nkey = (uint32_t)n;
    s->nations = mine->nations;
    memcpy(s->exercised, mine->exercised, sizeof s->exercised);
    s->used = (uint32_t)used;
    memcpy(t->values + i * size, value, used);
}

void foh_memo_free(foh_engine *e)
{
    if (!e->memo)
        return;
    for (int k = 0; k < 2; k++) {
        free(e->memo->t[k].slots);
        free(e->memo->t[k].values);
    }
    free(e->memo);
    e->memo = NULL;
}

/* game: set-up, the turn loop (action, on-gain effects, cleanup), decision
 * points inside effects, copying and reading the state.
 *
 * An action that reaches a choice inside an effect is not kept half-run:
 * the game keeps the position before the action (base), the action and the
 * answers given so far. Each answer re-runs the action from base with the
 * answers, so a paused game stays a plain value that can be memcpy'd. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "actions.h"
#include "log.h"
#include "effects.h"
#include "market.h"
#include "nation.h"
#include "rng.h"

static void shuffle(uint64_t rng[4], uint16_t *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)foh_rng_below(rng, (uint32_t)i + 1);
        uint16_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static foh_status run(foh_game *g, const foh_action *a, foh_error *err);

_Static_assert(offsetof(foh_state, loc) + sizeof(((foh_state *)0)->loc) == sizeof(foh_state),
               "foh_state.loc is its last field");
_Static_assert(offsetof(foh_game, answers) == offsetof(foh_game, queue) + sizeof(((foh_game *)0)->queue),
               "foh_game ends with the queue, then the answers (flow_game_copy copies what they hold)");
_Static_assert(FOH_MAX_CARDS <= INT16_MAX && FOH_OWNED_WORDS <= UINT8_MAX && FOH_ROOM_WORDS <= UINT16_MAX,
               "card indices and the room's words fit foh_state's types");

/* Position SRC into DST, for what the game holds, not the room the state
 * keeps for the largest card set and player count: the deck of the card
 * set's NCARDS cards, the players' rows and card bit sets, the fixed fields
 * and the cards' places, one run of bytes (foh_state). Nothing outside it
 * is read. */
static void copy_state(foh_state *dst, const foh_state *src, int ncards)
{
    size_t from = offsetof(foh_state, room) + (size_t)src->deck_from * sizeof src->room[0];
    size_t to = offsetof(foh_state, loc) + (size_t)ncards * sizeof src->loc[0];
    memcpy((char *)dst + from, (const char *)src + from, to - from);
}

/* What lies before the deck's room for the card set's cards and past the
 * card set's places is never read: left as it is (a new game's is not even
 * zeroed); the deck past its cards is not read either. */
void foh_state_reset(foh_state *st, int players, const foh_cardset *cs)
{
    int words = foh_card_words(cs);
    size_t bits_from = FOH_ROOM_WORDS - (size_t)players * FOH_BITS_KINDS * (size_t)words;
    size_t rows_from = bits_from - (size_t)players * FOH_ROW_WORDS;
    size_t from = offsetof(foh_state, room) + rows_from * sizeof st->room[0];
    memset((char *)st + from, 0, offsetof(foh_state, loc) - from);
    st->players = (uint8_t)players;
    st->words = (uint8_t)words;
    st->bits_from = (uint16_t)bits_from;
    st->rows_from = (uint16_t)rows_from;
    st->deck_from = (uint16_t)(rows_from - FOH_DECK_USED(cs->ncards));
    memset(st->loc, 0, (size_t)cs->ncards * sizeof st->loc[0]);
    for (int c = 0; c < cs->ncards; c++) {
        st->loc[c].zone = FOH_ZONE_BOX;
        st->loc[c].investor = -1;
    }
    for (int p = 0; p < FOH_MAX_PLAYERS; p++)
        st->investment[p] = -1;
    for (int k = 0; k < FOH_MAX_NEUTRAL; k++)
        st->neutral[k] = -1;
    for (int p = 0; p < players; p++)
        memset(FOH_TOP(st, p), -1, sizeof FOH_TOP(st, p));
}

/* Rulebook "Game Setup". */
static void setup(foh_game *g, const foh_options *opt)
{
    const foh_cardset *cs = g->eng->cs;
    foh_state *st = &g->st;
    foh_state_reset(st, opt->players, cs);
    foh_rng_seed(st->rng, opt->seed);

    /* The Market: every card of the Market age, in card order. */
    for (int c = 0; c < cs->ncards && st->nmarket < FOH_MAX_MARKET; c++)
        if (cs->card[c].age == cs->market_age) {
            st->market[st->nmarket++] = (uint16_t)c;
            st->loc[c].zone = FOH_ZONE_MARKET;
        }

    /* Starting cards: random cards of the starting age, one per player (a
     * variant may deal more and have the players keep one). */
    uint16_t pool[FOH_MAX_CARDS];
    int n = 0;
    for (int c = 0; c < cs->ncards; c++)
        if (cs->card[c].age == cs->starting_age)
            pool[n++] = (uint16_t)c;
    shuffle(st->rng, pool, n);
    for (int i = 0, k = 0; i < cs->starting_cards; i++)
        for (int p = 0; p < st->players && k < n; p++)
            foh_nation_place(g, p, pool[k++]);

    /* The Civilization deck, bottom first: fixed bottom cards, then each
     * listed age shuffled on its own. */
    for (int i = 0; i < cs->ndeck_bottom; i++) {
        int c = cs->deck_bottom[i];
        FOH_DECK(st)[st->ndeck++] = (uint16_t)c;
        st->loc[c].zone = FOH_ZONE_DECK;
    }
    for (int a = 0; a < cs->ndeck_ages; a++) {
        n = 0;
        for (int c = 0; c < cs->ncards; c++)
            if (cs->card[c].age == cs->deck_ages[a] && st->loc[c].zone == FOH_ZONE_BOX)
                pool[n++] = (uint16_t)c;
        shuffle(st->rng, pool, n);
        for (int i = 0; i < n; i++) {
            FOH_DECK(st)[st->ndeck++] = pool[i];
            st->loc[pool[i]].zone = FOH_ZONE_DECK;
        }
    }

    for (int p = 0; p < st->players; p++)
        st->tokens[p] = cs->starting_tokens;
    st->supply = cs->supply_start;
    st->reserve = cs->tokens_in_box - st->players * cs->starting_tokens - cs->supply_start;
    if (st->reserve < 0) {
        st->substituted = -st->reserve;
        st->reserve = 0;
    }
    foh_market_replenish(g);
    st->first_player = (uint8_t)foh_rng_below(st->rng, st->players);
    st->current = st->first_player;
}

foh_game *flow_game_new(foh_engine *eng, const foh_options *opt, foh_error *err)
{
    const foh_cardset *cs = eng->cs;
    if (!opt || !foh_cardset_allows_players(cs, opt->players, NULL)) {
        char counts[64];
        const char *note = foh_cardset_players_hint(cs, opt ? opt->players : 0, counts, sizeof counts);
        if (!opt)
            note = "";
        foh_error_set(err, FOH_ERR_USAGE, "this game is played with %s players, not %d%s%s", counts,
                      opt ? opt->players : 0, note[0] ? ". " : "", note);
        return NULL;
    }
    /* Not zeroed whole: the room for the largest card set is most of a
     * game, and none of it is read (foh_state_reset). */
    foh_game *g = malloc(sizeof *g);
    if (!g) {
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return NULL;
    }
    memset(g, 0, offsetof(foh_game, st));
    memset(&g->pending, 0, offsetof(foh_game, queue) - offsetof(foh_game, pending));
    g->head = eng->head; /* the engine's ruleset */
    g->eng = eng;
    setup(g, opt);
    foh_log_discard(g);
    /* Set-up hooks, and the first turn's start, run like an action, so
     * that their choices (keep one of two starting cards) are decision
     * points before the first turn. */
    if (!opt->position_only && (foh_lua_has_hooks(eng, FOH_HOOK_SETUP) || foh_lua_has_hooks(eng, FOH_HOOK_TURN_START) ||
                                FOH_EVENT_WANTED(cs, FOH_EV_TURN_START))) {
        copy_state(&g->base, &g->st, cs->ncards);
        g->action = (foh_action){.kind = FOH_ACT_SETUP_RUN, .card = -1, .tokens = 0, .option = -1};
        g->nanswers = 0;
        foh_status s = run(g, &g->action, err);
        foh_log_discard(g);
        if (s == FOH_NEED_CHOICE) {
            g->pending = 1;
        } else if (s != FOH_OK) {
            free(g);
            return NULL;
        }
    }
    return g;
}

_Static_assert(sizeof(foh_game) - offsetof(foh_game, answers) - sizeof(((foh_game *)0)->answers) < sizeof(void *),
               "foh_game.answers is its last field");
_Static_assert(FOH_MAX_ANSWERS <= UINT16_MAX && FOH_MAX_OPTIONS <= UINT8_MAX + 1,
               "nanswers and the answers hold their ranges");

/* A copy of G for what it holds (flow_game_copy): the room for the largest
 * card set is left unwritten, so that its pages are not even mapped. */
foh_game *flow_game_clone(const foh_game *g)
{
    foh_game *c = malloc(sizeof *c);
    if (c) {
        c->log = NULL;
        c->log_ud = NULL;
        flow_game_copy(c, g);
    }
    return c;
}

/* DST becomes a copy of SRC for what it holds (copy_state): the position
 * before the action in progress only while one is (base is read then
 * alone), the answers and on-gain effects given and queued so far. */
void flow_game_copy(foh_game *dst, const foh_game *src)
{
    foh_log_fn log = dst->log;
    void *ud = dst->log_ud;
    int n = src->eng->cs->ncards;
    dst->head = src->head;
    dst->eng = src->eng;
    copy_state(&dst->st, &src->st, n);
    if (src->pending)
        copy_state(&dst->base, &src->base, n);
    memcpy(&dst->pending, &src->pending, offsetof(foh_game, queue) - offsetof(foh_game, pending));
    memcpy(dst->queue, src->queue, (size_t)src->nqueue * sizeof src->queue[0]);
    memcpy(dst->answers, src->answers, (size_t)src->nanswers * sizeof src->answers[0]);
    dst->log = log;
    dst->log_ud = ud;
}

void flow_game_free(foh_game *g) { free(g); }

void flow_game_set_log(foh_game *g, foh_log_fn fn, void *ud)
{
    g->log = fn;
    g->log_ud = ud;
}

/* Run every queued on-gain effect, in order, from *HEAD on. */
static foh_status drain(foh_game *g, int *head, foh_error *err)
{
    foh_status s = FOH_OK;
    for (; s == FOH_OK && *head < g->nqueue; ++*head)
        s = foh_lua_on_gain(g, g->queue[*head][0], g->queue[*head][1], err);
    return s;
}

static foh_status run_hooks(foh_game *g, foh_hook_point point, int player, const char *kind, int *head,
                            foh_error *err)
{
    foh_status s = foh_lua_has_hooks(g->eng, point) ? foh_lua_hooks(g, point, player, kind, err) : FOH_OK;
    return s == FOH_OK ? drain(g, head, err) : s;
}

/* Variant hooks at POINT, then the effects they queued. Inline for the
 * common case of a turn with neither (six points a turn). */
static inline foh_status hooks(foh_game *g, foh_hook_point point, int player, const char *kind, int *head,
                               foh_error *err)
{
    if (!foh_lua_has_hooks(g->eng, point) && *head >= g->nqueue)
        return FOH_OK;
    return run_hooks(g, point, player, kind, head, err);
}

static foh_status run_player_event(foh_game *g, int event, int p, int *head, foh_error *err)
{
    foh_status s = FOH_OK;
    if (FOH_EVENT_WANTED(g->eng->cs, event)) {
        foh_event_field f[] = {{"player", FOH_EVF_PLAYER, p, NULL}};
        s = foh_lua_event(g, event, f, 1, err);
    }
    return s == FOH_OK ? drain(g, head, err) : s;
}

/* EVENT {player: P}, then the effects its reactions queued; inline for the
 * common case of neither. */
static inline foh_status player_event(foh_game *g, int event, int p, int *head, foh_error *err)
{
    if (!FOH_EVENT_WANTED(g->eng->cs, event) && *head >= g->nqueue)
        return FOH_OK;
    return run_player_event(g, event, p, head, err);
}

/* The age event when the Current Age is no longer *AGE (which it becomes);
 * only counted when something reacts to it. */
static foh_status age_event(foh_game *g, int *age, int *head, foh_error *err)
{
    if (!FOH_EVENT_WANTED(g->eng->cs, FOH_EV_AGE))
        return FOH_OK;
    int now = foh_market_current_age(g);
    if (now == *age)
        return FOH_OK;
    foh_event_field f[] = {{"from", FOH_EVF_INT, *age, NULL}, {"to", FOH_EVF_INT, now, NULL}};
    *age = now;
    foh_status s = foh_lua_event(g, FOH_EV_AGE, f, 2, err);
    return s == FOH_OK ? drain(g, head, err) : s;
}

/* A turn begins (scripts/API.md "Events", docs/variants.md "Hooks"): the
 * variants' turn_start hooks, then the turn_start event, for the player
 * whose turn it is, before their legal actions are listed, so that what
 * they give (tokens, a card) can be used in this very turn (issue 30). With
 * AGE, the age event follows if they changed the Current Age. */
static foh_status run_turn_start(foh_game *g, int *head, int *age, foh_error *err)
{
    int p = g->st.current;
    g->turn_starting = 1; /* game.grant_action refuses: no action of P's is in progress */
    foh_status s = hooks(g, FOH_HOOK_TURN_START, p, NULL, head, err);
    if (s == FOH_OK)
        s = player_event(g, FOH_EV_TURN_START, p, head, err);
    g->turn_starting = 0;
    if (s == FOH_OK && age)
        s = age_event(g, age, head, err);
    return s;
}

/* run_turn_start, inline for the common case of nothing at that point (then
 * nothing can have changed the Current Age either). */
static inline foh_status turn_start(foh_game *g, int *head, int *age, foh_error *err)
{
    if (!foh_lua_has_hooks(g->eng, FOH_HOOK_TURN_START) && !FOH_EVENT_WANTED(g->eng->cs, FOH_EV_TURN_START))
        return FOH_OK;
    return run_turn_start(g, head, age, err);
}

/* Rulebook "Phase II: Cleanup Phase", with the variant hooks of each step
 * and the cleanup and turn_end events; then the next turn begins. */
static foh_status cleanup_steps(foh_game *g, int *head, int *age, foh_error *err)
{
    foh_state *st = &g->st;
    int p = st->current;
    foh_status s = hooks(g, FOH_HOOK_CLEANUP_START, p, NULL, head, err);
    if (s == FOH_OK)
        s = player_event(g, FOH_EV_CLEANUP, p, head, err);
    if (s != FOH_OK)
        return s;
    foh_market_replenish(g);
    if ((s = hooks(g, FOH_HOOK_AFTER_REPLENISH, p, NULL, head, err)) != FOH_OK)
        return s;
    foh_market_age_check(g);
    if ((s = hooks(g, FOH_HOOK_AFTER_AGE_CHECK, p, NULL, head, err)) != FOH_OK)
        return s;
    st->turn++;
    st->in_bonus = 0;
    if (st->ending) {
        st->over = 1;
        foh_log(g, "The game is over.");
    } else if (st->turn >= (uint32_t)g->eng->cs->turn_limit) {
        /* Engine ruling E1: a game that does not end by the rules ends here
         * and is scored as usual, marked stalled. */
        st->over = 1;
        st->stalled = 1;
        foh_log(g, "The game reaches the turn limit of %d turns (engine ruling E1): it ends, stalled, and is scored "
                   "as usual.",
                g->eng->cs->turn_limit);
    }
    if ((s = hooks(g, FOH_HOOK_CLEANUP_END, p, NULL, head, err)) != FOH_OK ||
        (s = age_event(g, age, head, err)) != FOH_OK || (s = player_event(g, FOH_EV_TURN_END, p, head, err)) != FOH_OK)
        return s;
    if (st->over)
        return FOH_OK;
    st->current = (uint8_t)((st->current + 1) % st->players);
    return turn_start(g, head, age, err);
}

/* cleanup_steps, marked as running: game.grant_action refuses there (the
 * turn's action is over; a bonus action would go to the next player). */
static foh_status cleanup(foh_game *g, int *head, int *age, foh_error *err)
{
    g->in_cleanup = 1;
    foh_status s = cleanup_steps(g, head, age, err);
    g->in_cleanup = 0;
    return s;
}

static const char *const KIND_NAMES[] = {"invest", "complete", "snipe",  "activate", "harvest",
                                         "choose", "pass",     "action", "setup"};

const char *foh_action_kind_name(int kind)
{
    return kind >= 0 && kind <= (int)FOH_ACT_CUSTOM ? KIND_NAMES[kind] : NULL;
}

int foh_action_kind_find(const char *name)
{
    for (int k = 0; k <= (int)FOH_ACT_CUSTOM; k++)
        if (name && !strcmp(name, KIND_NAMES[k]))
            return k;
    return -1;
}

/* Run action A from the current position with the answers recorded so far:
 * the action, its queued on-gain effects, the variant hooks around it, then
 * cleanup, unless a hook granted a bonus action (the turn goes on). */
static foh_status run(foh_game *g, const foh_action *a, foh_error *err)
{
    foh_state *st = &g->st;
    int head = 0, p = st->current;
    g->used_answers = 0;
    g->random_calls = 0;
    g->nqueue = 0;
    foh_log_discard(g);
    int age = FOH_EVENT_WANTED(g->eng->cs, FOH_EV_AGE) ? foh_market_current_age(g) : 0;
    if (a->kind == FOH_ACT_SETUP_RUN) { /* the set-up, then the first turn begins */
        foh_status s = hooks(g, FOH_HOOK_SETUP, p, NULL, &head, err);
        return s == FOH_OK ? turn_start(g, &head, &age, err) : s;
    }
    st->in_bonus = st->bonus_mask != 0;
    st->bonus_mask = 0;
    const char *kind = KIND_NAMES[a->kind];
    foh_status s = hooks(g, FOH_HOOK_BEFORE_ACTION, p, kind, &head, err);
    /* A before_action hook may have changed what the action needs (taken
     * the investment it completes, the card it snipes): checked again, so
     * that it is taken whole or refused, never half (issue 30). */
    if (s == FOH_OK && a->kind != FOH_ACT_PASS && foh_lua_has_hooks(g->eng, FOH_HOOK_BEFORE_ACTION) &&
        (s = foh_action_check(g, a, err)) == FOH_ERR_ILLEGAL && err) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        foh_error_set(err, FOH_ERR_ILLEGAL, "after the variants' before_action hooks: %s", why);
    }
    if (s == FOH_OK && a->kind == FOH_ACT_PASS)
        foh_log(g, "P%d passes the bonus action", p + 1);
    else if (s == FOH_OK)
        s = foh_action_perform(g, a, err);
    if (s == FOH_OK)
        s = drain(g, &head, err);
    if (s == FOH_OK)
        s = hooks(g, FOH_HOOK_AFTER_ACTION, p, kind, &head, err);
    if (s == FOH_OK)
        s = age_event(g, &age, &head, err);
    if (s == FOH_OK && st->bonus_mask)
        return FOH_OK; /* a bonus action follows before cleanup */
    if (s == FOH_OK)
        s = cleanup(g, &head, &age, err);
    return s;
}

static foh_status apply(foh_game *g, const foh_action *a, foh_error *err);

foh_status flow_game_apply(foh_game *g, const foh_action *a, foh_error *err)
{
    foh_lua_action_begin(g->eng);
    foh_status s = apply(g, a, err);
    foh_lua_action_end(g->eng);
    return s;
}

static foh_status apply(foh_game *g, const foh_action *a, foh_error *err)
{
    if (g->st.over)
        return foh_error_set(err, FOH_ERR_ILLEGAL, "the game is over");
    int was_pending = g->pending;
    foh_status s;
    if ((s = flow_game_check(g, a, err)) != FOH_OK)
        return s;
    if (was_pending) {
        if (g->nanswers >= FOH_MAX_ANSWERS)
            return foh_error_set(err, FOH_ERR_SCRIPT, "%s: more than %d choices in one action",
                                 foh_card_name(g, g->choice.card), FOH_MAX_ANSWERS);
        g->answers[g->nanswers++] = (uint8_t)a->option;
        copy_state(&g->st, &g->base, g->eng->cs->ncards);
        s = run(g, &g->action, err);
    } else {
        copy_state(&g->base, &g->st, g->eng->cs->ncards);
        g->action = *a;
        g->nanswers = 0;
        g->random_fork_on = 0;
        s = run(g, a, err);
    }
    if (s == FOH_NEED_CHOICE) {
        g->pending = 1;
        foh_log_discard(g);
        return FOH_OK;
    }
    if (s != FOH_OK) {
        /* Nothing of a failed action stays: back to the position before it,
         * which base holds (kept above for a new action; for an answer, the
         * paused position is rebuilt from it). */
        copy_state(&g->st, &g->base, g->eng->cs->ncards);
        if (was_pending) {
            g->nanswers--;
            run(g, &g->action, NULL); /* rebuild the paused position and choice */
        }
        foh_log_discard(g);
        return s;
    }
    g->pending = 0;
    g->nanswers = 0;
    g->random_fork_on = 0; /* the action is over: the generator goes on from where it is */
    foh_log_flush(g);
#ifdef FOH_CHECK_INVARIANTS
    /* Test builds: a broken invariant is an engine bug; stop at once. */
    foh_error broken;
    if (foh_game_check_invariants(g, &broken) != FOH_OK) {
        fprintf(stderr, "foh: after %s: %s\n", foh_card_name(g, a->card), broken.msg);
        abort();
    }
#endif
    return FOH_OK;
}

int flow_game_legal_actions(foh_game *g, foh_action *out, int max, foh_error *err)
{
    if (g->st.over)
        return 0;
    if (g->pending) {
        for (int i = 0; i < g->choice.n && i < max; i++)
            out[i] = (foh_action){.kind = FOH_ACT_CHOOSE, .card = g->choice.card, .tokens = 0, .option = i};
        return g->choice.n;
    }
    return foh_action_list(g, out, max, err);
}

int flow_game_legal_grouped(foh_game *g, foh_action *out, int max, int *nlegal, foh_error *err)
{
    int total = 0, n;
    if (g->st.over || g->pending)
        total = n = flow_game_legal_actions(g, out, max, err); /* no Invest among them */
    else
        n = foh_action_list_grouped(g, out, max, &total, err);
    if (nlegal)
        *nlegal = n < 0 ? -1 : total;
    return n;
}

int foh_legal_ungroup(const foh_action *grouped, int n, int i, foh_action *out)
{
    for (int j = 0; j < n && i >= 0; j++) {
        const foh_action *e = &grouped[j];
        int stands_for = e->kind != FOH_ACT_INVEST ? 1 : e->tokens > 0 ? e->tokens : 0;
        if (i < stands_for) {
            *out = *e;
            if (e->kind == FOH_ACT_INVEST)
                out->tokens = i + 1;
            return 0;
        }
        i -= stands_for;
    }
    return -1;
}

foh_status flow_game_check(foh_game *g, const foh_action *a, foh_error *err)
{
    if (g->st.over)
        return foh_error_set(err, FOH_ERR_ILLEGAL, "the game is over");
    if (g->pending) {
        if (a->kind != FOH_ACT_CHOOSE || a->option < 0 || a->option >= g->choice.n)
            return foh_error_set(err, FOH_ERR_ILLEGAL, "P%d must answer the choice of %s (%s): option 0 to %d",
                                 g->choice.player + 1, foh_card_name(g, g->choice.card), g->choice.prompt,
                                 g->choice.n - 1);
        return FOH_OK;
    }
    if (a->kind == FOH_ACT_SETUP_RUN)
        return foh_error_set(err, FOH_ERR_ILLEGAL, "the set-up is not an action");
    return foh_action_check(g, a, err);
}

const foh_choice *flow_game_choice(const foh_game *g) { return g->pending ? &g->choice : NULL; }

int flow_game_to_act(const foh_game *g)
{
    if (g->st.over)
        return -1;
    return g->pending ? g->choice.player : g->st.current;
}

void flow_game_describe_action(const foh_game *g, const foh_action *a, char *buf, size_t len)
{
    foh_action_describe(g, a, buf, len);
}

/* ---- Reading ---- */

const foh_cardset *foh_game_cardset(const foh_game *g) { return g->eng->cs; }
int flow_game_players(const foh_game *g) { return g->st.players; }
int foh_game_current_player(const foh_game *g) { return g->st.current; }
int foh_game_first_player(const foh_game *g) { return g->st.first_player; }
int flow_game_turn(const foh_game *g) { return (int)g->st.turn; }
int flow_game_is_over(const foh_game *g) { return g->st.over; }
int foh_game_is_stalled(const foh_game *g) { return g->st.stalled; }
int flow_game_turn_limit(const foh_game *g) { return g->eng->cs->turn_limit; }
int foh_game_tokens(const foh_game *g, int player)
{
    return player >= 0 && player < g->st.players ? g->st.tokens[player] : 0;
}
int foh_game_supply(const foh_game *g) { return g->st.supply; }
int foh_game_reserve(const foh_game *g) { return g->st.reserve; }
int foh_game_substituted(const foh_game *g) { return g->st.substituted; }
int foh_game_current_age(const foh_game *g) { return foh_market_current_age(g); }
int foh_game_deck_size(const foh_game *g) { return g->st.ndeck; }
int foh_game_deck_card(const foh_game *g, int i)
{
    return i >= 0 && i < g->st.ndeck ? FOH_DECK(&g->st)[g->st.ndeck - 1 - i] : -1;
}
int foh_game_market_size(const foh_game *g) { return g->st.nmarket; }
int foh_game_market_card(const foh_game *g, int slot)
{
    return slot >= 0 && slot < g->st.nmarket ? g->st.market[slot] : -1;
}

static int valid_card(const foh_game *g, int card) { return card >= 0 && card < g->eng->cs->ncards; }

int foh_game_investor(const foh_game *g, int card)
{
    return valid_card(g, card) && g->st.loc[card].zone == FOH_ZONE_MARKET ? g->st.loc[card].investor : -1;
}
int foh_game_invested_tokens(const foh_game *g, int card)
{
    return valid_card(g, card) && g->st.loc[card].zone == FOH_ZONE_MARKET ? g->st.loc[card].invested : 0;
}
int foh_game_neutral_investment(const foh_game *g, int k)
{
    return k >= 0 && k < FOH_MAX_NEUTRAL ? g->st.neutral[k] : -1;
}
int flow_game_in_bonus(const foh_game *g) { return g->st.bonus_mask != 0; }
int foh_game_investment(const foh_game *g, int player)
{
    return player >= 0 && player < g->st.players ? g->st.investment[player] : -1;
}
foh_zone foh_game_card_zone(const foh_game *g, int card, int *owner)
{
    if (!valid_card(g, card))
        return FOH_ZONE_BOX;
    if (owner)
        *owner = g->st.loc[card].zone == FOH_ZONE_NATION ? g->st.loc[card].owner : -1;
    return (foh_zone)g->st.loc[card].zone;
}

int foh_game_nation_cards(const foh_game *g, int player, int type, int *out, int max)
{
    /* Placement order is seq order; collect then sort by seq (small n). */
    const foh_cardset *cs = g->eng->cs;
    int n = 0, tmp[FOH_MAX_CARDS];
    if (player < 0 || player >= g->st.players)
        return 0;
    for (int c = foh_nation_next(&g->st, player, 0); c >= 0; c = foh_nation_next(&g->st, player, c + 1))
        if (cs->card[c].type == type)
            tmp[n++] = c;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && g->st.loc[tmp[j]].seq < g->st.loc[tmp[j - 1]].seq; j--) {
            int t = tmp[j];
            tmp[j] = tmp[j - 1];
            tmp[j - 1] = t;
        }
    for (int i = 0; i < n && i < max; i++)
        out[i] = tmp[i];
    return n;
}

int foh_game_card_visible(const foh_game *g, int card) { return valid_card(g, card) && foh_nation_visible(g, card); }

foh_status foh_game_icon_counts(foh_game *g, int player, int icons[FOH_MAX_ICONS], foh_error *err)
{
    if (player < 0 || player >= g->st.players)
        return foh_error_set(err, FOH_ERR_USAGE, "no player %d", player + 1);
    return foh_nation_icons(g, player, icons, err);
}

foh_status foh_game_strengths(foh_game *g, int player, int *attack, int *defence, foh_error *err)
{
    int icons[FOH_MAX_ICONS];
    foh_status s = foh_game_icon_counts(g, player, icons, err);
    if (s != FOH_OK)
        return s;
    const foh_cardset *cs = g->eng->cs;
    *attack = foh_nation_sum(cs, icons, cs->attacker_icons);
    *defence = foh_nation_sum(cs, icons, cs->defender_icons);
    return FOH_OK;
}

int foh_game_icons(foh_game *g, int player, int icon)
{
    int icons[FOH_MAX_ICONS];
    if (icon < 0 || icon >= g->eng->cs->nicons || foh_game_icon_counts(g, player, icons, NULL) != FOH_OK)
        return -1;
    return icons[icon];
}

int foh_game_strength(foh_game *g, int player, int defending)
{
    int attack, defence;
    if (foh_game_strengths(g, player, &attack, &defence, NULL) != FOH_OK)
        return -1;
    return defending ? defence : attack;
}

long foh_game_placements(const foh_game *g) { return (long)g->st.next_seq; }

long foh_game_card_placement(const foh_game *g, int card)
{
    return valid_card(g, card) && g->st.loc[card].zone == FOH_ZONE_NATION ? (long)g->st.loc[card].seq : -1;
}

int foh_game_placed_since(const foh_game *g, long since, int *out, int max)
{
    const foh_state *st = &g->st;
    int n = 0;
    if (since >= (long)st->next_seq)
        return 0;
    for (int w = 0; w < st->words; w++) {
        uint64_t any = 0; /* every Nation's cards of this word */
        for (int p = 0; p < st->players; p++)
            any |= FOH_OWNED(st, p)[w];
        for (; any; any &= any - 1) {
            int c = w * 64 + __builtin_ctzll(any);
            if ((long)st->loc[c].seq >= since) {
                if (n < max)
                    out[n] = c;
                n++;
            }
        }
    }
    return n;
}

int foh_game_effect_fired(const foh_game *g, int card) { return valid_card(g, card) && g->st.loc[card].fired; }

/* tokens: see tokens.h. */
#include "tokens.h"

#include "log.h"

static int cap(int n, int have) { return n < 0 ? 0 : n > have ? have : n; }

int foh_tokens_from_supply(foh_state *st, int player, int n)
{
    n = cap(n, st->supply);
    st->supply -= n;
    st->tokens[player] += n;
    return n;
}

foh_status foh_tokens_from_reserve(foh_state *st, int player, int n, foh_error *err)
{
    if (n <= 0)
        return FOH_OK;
    int have = cap(n, st->reserve);
    if ((long long)st->substituted + (n - have) > FOH_MAX_TOKENS - FOH_MAX_BOX_TOKENS)
        return foh_error_set(err, FOH_ERR_ILLEGAL,
                             "the Reserve is empty and %d more substituted tokens would put more than %d tokens in "
                             "play (the engine's limit)",
                             n - have, FOH_MAX_TOKENS);
    st->reserve -= have;
    st->substituted += n - have;
    if (player < 0)
        st->supply += n;
    else
        st->tokens[player] += n;
    return FOH_OK;
}

int foh_tokens_to_supply(foh_state *st, int player, int n)
{
    n = cap(n, st->tokens[player]);
    st->tokens[player] -= n;
    st->supply += n;
    return n;
}

int foh_tokens_transfer(foh_state *st, int from, int to, int n)
{
    n = cap(n, st->tokens[from]);
    st->tokens[from] -= n;
    st->tokens[to] += n;
    return n;
}

static const char *plural(int n) { return n == 1 ? "" : "s"; }

int foh_tokens_take_from_supply(foh_game *g, int player, int n)
{
    int moved = foh_tokens_from_supply(&g->st, player, n);
    foh_log(g, "  P%d takes %d token%s from the Supply", player + 1, moved, plural(moved));
    return moved;
}

foh_status foh_tokens_take_from_reserve(foh_game *g, int player, int n, foh_error *err)
{
    foh_status s = foh_tokens_from_reserve(&g->st, player, n, err);
    if (s == FOH_OK)
        foh_log(g, "  P%d takes %d token%s from the Reserve", player + 1, n, plural(n));
    return s;
}

int foh_tokens_pay_to_supply(foh_game *g, int player, int n)
{
    int moved = foh_tokens_to_supply(&g->st, player, n);
    foh_log(g, "  P%d pays %d token%s to the Supply", player + 1, moved, plural(moved));
    return moved;
}

int foh_tokens_give(foh_game *g, int from, int to, int n)
{
    int moved = foh_tokens_transfer(&g->st, from, to, n);
    foh_log(g, "  P%d gives %d token%s to P%d", from + 1, moved, plural(moved), to + 1);
    return moved;
}

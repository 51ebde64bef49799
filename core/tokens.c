/* tokens: see tokens.h. */
#include "tokens.h"

static int cap(int n, int have) { return n < 0 ? 0 : n > have ? have : n; }

int foh_tokens_from_supply(foh_state *st, int player, int n)
{
    n = cap(n, st->supply);
    st->supply -= n;
    st->tokens[player] += n;
    return n;
}

void foh_tokens_from_reserve(foh_state *st, int player, int n)
{
    if (n <= 0)
        return;
    int have = cap(n, st->reserve);
    st->reserve -= have;
    st->substituted += n - have;
    if (player < 0)
        st->supply += n;
    else
        st->tokens[player] += n;
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

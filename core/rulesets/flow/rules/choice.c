/* choice: see choice.h. */
#include <string.h>

#include "choice.h"
#include "log.h"
#include "effects.h"

foh_status foh_choice_ask(foh_game *g, int player, long long n, const char *prompt, foh_choice_label_fn label,
                          void *ctx, int *pick, foh_error *err)
{
    *pick = n == 1 ? 0 : -1;
    if (n == 0 || n == 1)
        return FOH_OK; /* nothing to decide: no answer used */
    if (n > FOH_MAX_OPTIONS)
        return foh_error_set(err, FOH_ERR_SCRIPT, "%d options, more than the engine's limit of %d per choice", (int)n,
                             FOH_MAX_OPTIONS);
    if (g->used_answers < g->nanswers) {
        int a = g->answers[g->used_answers++];
        if (a >= n)
            return foh_error_set(err, FOH_ERR_SCRIPT, "recorded answer %d is out of range", a);
        char text[FOH_OPTION_LABEL];
        label(ctx, a, g->log ? text : NULL); /* checked either way; the label is for the log */
        foh_log(g, "  P%d chooses %s (%s)", player + 1, text, prompt);
        *pick = a;
        return FOH_OK;
    }
    if (g->nanswers >= FOH_MAX_ANSWERS)
        return foh_error_set(err, FOH_ERR_SCRIPT, "more than %d choices in one action (the engine's limit)",
                             FOH_MAX_ANSWERS);
    foh_choice *ch = &g->choice;
    ch->player = player;
    size_t len = strnlen(prompt, FOH_PROMPT - 1); /* the whole prompt: its callers hold it to that */
    memcpy(ch->prompt, prompt, len);
    ch->prompt[len] = '\0';
    ch->n = (int)n;
    for (int i = 0; i < n; i++)
        label(ctx, i, ch->label[i]);
    return FOH_NEED_CHOICE;
}

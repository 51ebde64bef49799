/* any_human: a human seat of a card set of any ruleset, through what the
 * seat sees (foh_game_observe): its view, its legal actions by number, and
 * a number read; `save FILE` saves the game, `quit` stops it (saving it
 * to the --save file, else offering to), and the end of the input saves it
 * (to the --save file, else foh-autosave.json), as The Flow of History's
 * human seat does (docs/play.md). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "any/any.h"
#include "common/autosave.h"
#include "common/cli.h"
#include "play/terminal.h"

typedef struct {
    foh_player base;
    any_input *in; /* shared by the human seats of a game */
} any_human;

void any_print_lines(const char *text, const char *indent)
{
    char line[1024];
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        fputs(indent, stdout);
        cli_line(stdout, line);
        p += len + (p[len] == '\n');
    }
}

/* Save the game to PATH (NULL: the --save file, else a free autosave
 * name, which never overwrites an earlier game's) and say so, WHY first
 * ("Quit", "End of input", "save"). */
static void save_to(any_input *in, const char *path, const char *why)
{
    char err[1600], safe[4096], autosave[64];
    int reserved = 0;
    if (!path && in->save_path)
        path = in->save_path;
    else if (!path) /* "": no name (err says why, or there is no save) */
        path = in->save && (reserved = cli_autosave_reserve(autosave, sizeof autosave, err, sizeof err)) ? autosave : "";
    if (in->save && path[0] && in->save(in->save_ud, path, err, sizeof err)) {
        cli_safe(path, safe, sizeof safe);
        printf("%s: the game is saved in %s%s; resume with: foh play --load %s\n", why, safe,
               reserved && strcmp(path, "foh-autosave.json") ? " (the earlier autosaves are kept)" : "", safe);
    } else {
        if (reserved)
            cli_autosave_release(path);
        printf("%s: the game could not be saved: %s\n", why, cli_safe(in->save ? err : "no save", safe, sizeof safe));
    }
}

/* A line of input, trimmed; NULL at its end (the input told). */
static const char *ask(any_input *in, const char *prompt)
{
    fflush(stdout);
    const char *line = term_read(in->t, prompt);
    if (!line) {
        printf("\n");
        in->ended = 1;
        if (term_failure(in->t)) {
            cli_error("play", "input: %s: the rest is not read", term_failure(in->t));
            in->failed = 1;
        }
        return NULL;
    }
    while (isspace((unsigned char)*line))
        line++;
    snprintf(in->line, sizeof in->line, "%s", line);
    for (size_t n = strlen(in->line); n > 0 && isspace((unsigned char)in->line[n - 1]); n--)
        in->line[n - 1] = '\0';
    return in->line;
}

/* What the seat sees, its pending choice and its legal actions by number. */
static void show(foh_game *g, int seat, const foh_action *legal, int n)
{
    char view[8192], what[256];
    foh_game_observe(g, seat, view, sizeof view);
    printf("\n");
    any_print_lines(view, "  ");
    const foh_choice *ch = foh_game_choice(g);
    if (ch) {
        printf("  ");
        cli_line(stdout, ch->prompt);
    }
    for (int i = 0; i < n; i++) {
        foh_game_describe_action(g, &legal[i], what, sizeof what);
        printf("  %d. ", i + 1);
        cli_line(stdout, what);
    }
}

/* quit: saved to the --save file, or to a file the player names. */
static void quit(any_input *in)
{
    if (in->save_path) {
        save_to(in, NULL, "Quit");
    } else {
        const char *file = ask(in, "Save before quitting? A file name, or Enter to quit without saving: ");
        if (file && file[0])
            save_to(in, file, "Quit");
    }
    in->quit = 1;
}

static int human_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *why, size_t whylen,
                        foh_error *err)
{
    any_input *in = ((any_human *)self)->in;
    int seat = foh_game_to_act(g);
    char prompt[64];
    show(g, seat, legal, n);
    snprintf(prompt, sizeof prompt, "P%d, your action (1-%d)> ", seat + 1, n);
    for (;;) {
        const char *line = ask(in, prompt);
        if (!line) {
            save_to(in, NULL, term_interrupted(in->t) ? "Interrupted (Ctrl-C)" : "End of input");
            foh_error_set(err, FOH_ERR_USAGE, "%s", term_failure(in->t) ? term_failure(in->t) : "the input ended");
            return -1;
        }
        char *end;
        long k = strtol(line, &end, 10);
        if (end != line && *end == '\0' && k >= 1 && k <= n) {
            if (why && whylen)
                snprintf(why, whylen, "typed");
            return (int)k - 1;
        }
        if (!strcmp(line, "quit")) {
            quit(in);
            foh_error_set(err, FOH_ERR_USAGE, "the player stopped the game");
            return -1;
        }
        if (!strncmp(line, "save", 4) && (!line[4] || isspace((unsigned char)line[4]))) {
            const char *file = line + 4;
            while (isspace((unsigned char)*file))
                file++;
            if (!file[0])
                printf("  save FILE: name the file to save to.\n");
            else
                save_to(in, file, "save");
            continue;
        }
        printf("  a number from 1 to %d, please (or save FILE, or quit)\n", n);
    }
}

static void human_free(foh_player *self) { free(self); }

foh_player *any_human_new(any_input *in)
{
    any_human *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->base.name = "human";
    h->base.decide = human_decide;
    h->base.free = human_free;
    h->in = in;
    return &h->base;
}

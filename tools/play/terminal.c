/* terminal: input lines and output style (see terminal.h). */
#include "play/terminal.h"

#include <errno.h>
#include <histedit.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/cli.h"

struct term {
    FILE *in, *out;
    EditLine *el;   /* NULL when IN is not a terminal */
    History *hist;
    const char *prompt;
    term_words words;
    char *line;     /* plain input's line */
    size_t cap;
    const char *failure; /* why reading stopped, if not the end of input */
    char why[160];
    struct sigaction old_int; /* SIGINT's handler before term_open */
    int handling;             /* SIGINT is ours while T is open */
};

/* Set by the SIGINT handler: a handler can reach nothing else (it may only
 * touch a volatile sig_atomic_t), so this one flag is the process's. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* el_gets' reader: one byte, or end of input once Ctrl-C was pressed (the
 * handler interrupts the read: no SA_RESTART). */
static int read_char(EditLine *el, wchar_t *c)
{
    term *t;
    el_get(el, EL_CLIENTDATA, &t);
    for (;;) {
        if (interrupted)
            return 0;
        unsigned char b;
        ssize_t n = read(fileno(t->in), &b, 1);
        if (n == 1) {
            *c = (wchar_t)b;
            return 1;
        }
        if (n == 0)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}

static char *prompt_of(EditLine *el)
{
    term *t;
    el_get(el, EL_CLIENTDATA, &t);
    return (char *)t->prompt;
}

/* Tab: complete the word before the cursor among the words; several
 * matches complete their common prefix and are listed. */
static unsigned char complete(EditLine *el, int ch)
{
    (void)ch;
    term *t;
    el_get(el, EL_CLIENTDATA, &t);
    const LineInfo *li = el_line(el);
    const char *start = li->cursor;
    while (start > li->buffer && start[-1] != ' ')
        start--;
    size_t len = (size_t)(li->cursor - start);
    const char *first = NULL;
    size_t common = 0;
    int matches = 0;
    for (int i = 0; i < t->words.n; i++) {
        const char *w = t->words.words[i];
        if (strncmp(w, start, len) != 0)
            continue;
        if (!first) {
            first = w;
            common = strlen(w);
        } else {
            size_t k = 0;
            while (k < common && w[k] == first[k])
                k++;
            common = k;
        }
        matches++;
    }
    if (!matches)
        return CC_ERROR;
    if (common > len) {
        char add[256];
        snprintf(add, sizeof add, "%.*s%s", (int)(common - len), first + len, matches == 1 ? " " : "");
        el_insertstr(el, add);
        return CC_REFRESH;
    }
    if (matches == 1) {
        el_insertstr(el, " ");
        return CC_REFRESH;
    }
    fprintf(t->out, "\n");
    for (int i = 0; i < t->words.n; i++)
        if (!strncmp(t->words.words[i], start, len))
            fprintf(t->out, "%s  ", t->words.words[i]);
    fprintf(t->out, "\n");
    return CC_REDISPLAY;
}

term *term_open(FILE *in, FILE *out)
{
    term *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->in = in;
    t->out = out;
    t->prompt = "";
    if (isatty(fileno(in)) && isatty(fileno(out))) {
        t->el = el_init("foh", in, out, stderr);
        t->hist = history_init();
        if (!t->el || !t->hist) {
            term_close(t);
            return NULL;
        }
        HistEvent ev;
        history(t->hist, &ev, H_SETSIZE, 500);
        el_set(t->el, EL_CLIENTDATA, t);
        el_set(t->el, EL_PROMPT, prompt_of);
        el_set(t->el, EL_EDITOR, "emacs");
        el_set(t->el, EL_HIST, history, t->hist);
        el_set(t->el, EL_ADDFN, "foh-complete", "complete a command or card name", complete);
        el_set(t->el, EL_BIND, "^I", "foh-complete", NULL);
        el_set(t->el, EL_SIGNAL, 1);
        el_set(t->el, EL_GETCFN, read_char);
    }
    /* Ctrl-C ends the input as Ctrl-D does (the game is saved): the handler
     * only sets a flag; the read it interrupts returns and the caller's
     * usual end of input saves. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    t->handling = sigaction(SIGINT, &sa, &t->old_int) == 0;
    return t;
}

void term_close(term *t)
{
    if (!t)
        return;
    if (t->handling)
        sigaction(SIGINT, &t->old_int, NULL);
    if (t->el)
        el_end(t->el);
    if (t->hist)
        history_end(t->hist);
    free(t->line);
    free(t);
}

void term_set_words(term *t, term_words words) { t->words = words; }

/* Refuse the rest of the input: reading stops, the caller is told why. */
static const char *fail_input(term *t, const char *why)
{
    snprintf(t->why, sizeof t->why, "%s", why);
    t->failure = t->why;
    return NULL;
}

const char *term_read(term *t, const char *prompt)
{
    if (t->failure || interrupted)
        return NULL;
    if (t->el) {
        t->prompt = prompt;
        int n;
        const char *s = el_gets(t->el, &n);
        if (!s)
            return NULL;
        if (n < 0 || (size_t)n > TERM_MAX_LINE)
            return fail_input(t, "a line longer than " TERM_MAX_LINE_TEXT " bytes (the terminal's limit)");
        free(t->line);
        t->line = strdup(s);
        if (!t->line)
            return fail_input(t, "out of memory");
        t->line[strcspn(t->line, "\r\n")] = '\0';
        if (t->line[0]) {
            HistEvent ev;
            history(t->hist, &ev, H_ENTER, t->line);
        }
        return t->line;
    }
    fputs(prompt, t->out);
    fflush(t->out);
    /* A line at a time, never more than the limit in memory: input such as
     * /dev/zero has no end of line. */
    if (!t->line && !(t->line = malloc(TERM_MAX_LINE + 1)))
        return fail_input(t, "out of memory");
    size_t n = 0;
    int c;
    while ((c = getc(t->in)) != EOF && c != '\n' && !interrupted) {
        if (n == TERM_MAX_LINE)
            return fail_input(t, "a line longer than " TERM_MAX_LINE_TEXT " bytes (the terminal's limit)");
        t->line[n++] = (char)c;
    }
    if (interrupted)
        return NULL;
    if (c == EOF && ferror(t->in)) {
        char why[120];
        snprintf(why, sizeof why, "cannot read it (%s)", strerror(errno));
        return fail_input(t, why);
    }
    if (c == EOF && n == 0)
        return NULL;
    t->line[n] = '\0';
    t->line[strcspn(t->line, "\r")] = '\0';
    /* Echo piped input, so that a transcript reads like the session
     * (escaped: what was typed must not drive the terminal). */
    cli_line(t->out, t->line);
    return t->line;
}

const char *term_failure(const term *t) { return t->failure; }

int term_interrupted(const term *t)
{
    (void)t;
    return interrupted != 0;
}

int term_width(FILE *out)
{
    int w = 0;
    struct winsize ws;
    if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0)
        w = ws.ws_col;
    const char *cols = getenv("COLUMNS");
    if (w <= 0 && cols && cols[0])
        w = atoi(cols);
    if (w <= 0)
        w = 80;
    /* Narrower than a card's name and its number, nothing is readable. */
    return w < 30 ? 30 : w > 1000 ? 1000 : w;
}

int term_colour(FILE *out)
{
    const char *no = getenv("NO_COLOR"), *term_name = getenv("TERM");
    return isatty(fileno(out)) && !(no && no[0]) && !(term_name && !strcmp(term_name, "dumb"));
}

int term_symbols(FILE *out)
{
    const char *vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    if (!term_colour(out))
        return 0;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && v[0])
            return strstr(v, "UTF-8") || strstr(v, "utf8") || strstr(v, "UTF8") || strstr(v, "utf-8");
    }
    return 0;
}

const char *term_colour_code(const char *name)
{
    static const char *const names[] = {"red", "green", "yellow", "blue", "magenta", "cyan", "white", "grey"};
    static const char *const codes[] = {"\033[31m", "\033[32m", "\033[33m", "\033[34m",
                                        "\033[35m", "\033[36m", "\033[37m", "\033[90m"};
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i], name))
            return codes[i];
    return "";
}

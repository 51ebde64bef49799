/* human: a human player at the terminal (see human.h, docs/play.md). */
#include "play/human.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/autosave.h"
#include "common/cli.h"

static const char *const COMMANDS[] = {"help", "board", "score", "log", "hint", "undo", "save", "quit"};
#define NCOMMANDS (int)(sizeof COMMANDS / sizeof COMMANDS[0])

typedef struct {
    foh_player base;
    human_table *t;
    char name[64];
} human;

/* One line of the numbered list: a legal action, or every Invest in one
 * card (the amount is asked next). */
typedef struct {
    int first; /* index of its (first) legal action */
    foh_action_kind kind;
    int card, min, max;
} entry;

/* ---- The table ---- */

human_table *human_table_new(FILE *in, FILE *out, const foh_cardset *cs, uint64_t seed)
{
    human_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->out = out;
    t->seed = seed;
    t->undo_to = -1;
    t->in = term_open(in, out);
    int ncards = foh_cardset_card_count(cs);
    t->words = calloc((size_t)(NCOMMANDS + ncards), sizeof *t->words);
    if (!t->in || !t->words) {
        human_table_free(t);
        return NULL;
    }
    for (int i = 0; i < NCOMMANDS; i++)
        t->words[t->nwords++] = COMMANDS[i];
    for (int c = 0; c < ncards; c++) {
        foh_card_info ci;
        if (foh_cardset_card(cs, c, &ci) == FOH_OK)
            t->words[t->nwords++] = ci.id; /* owned by the card set, which outlives the table */
    }
    term_set_words(t->in, (term_words){t->words, t->nwords});
    t->style.colour = term_colour(out);
    t->style.symbols = term_symbols(out);
    t->style.names = t->names;
    t->style.width = term_width(out);
    return t;
}

void human_table_free(human_table *t)
{
    if (!t)
        return;
    term_close(t->in);
    for (int i = 0; i < t->nlog; i++)
        free(t->log[i]);
    free(t->log);
    for (int i = 0; i < t->nmarks; i++)
        foh_game_free(t->marks[i].at);
    free(t->marks);
    free(t->words);
    free(t);
}

int human_table_log(human_table *t, const char *line)
{
    if (t->nlog == t->logcap) {
        int cap = t->logcap ? t->logcap * 2 : 1024;
        char **grown = realloc(t->log, (size_t)cap * sizeof *grown);
        if (!grown)
            return 0;
        t->log = grown;
        t->logcap = cap;
    }
    if (!(t->log[t->nlog] = strdup(line)))
        return 0;
    t->log_bytes += strlen(line) + 1;
    t->nlog++;
    /* The oldest lines' text goes first: memory stays bounded whatever the
     * scripts log (the lines still count, for undo and the recaps). */
    while (t->log_bytes > HUMAN_LOG_BYTES && t->log_kept < t->nlog - 1) {
        t->log_bytes -= strlen(t->log[t->log_kept]) + 1;
        free(t->log[t->log_kept]);
        t->log[t->log_kept++] = NULL;
    }
    return 1;
}

/* Whether the N bytes at S are one of the plural nouns the log writes
 * after a count ("1 tokens"). */
static int plural_noun(const char *s, size_t n)
{
    static const char *const nouns[] = {"tokens", "icons", "cards", "turns", "actions", "VPs"};
    for (size_t i = 0; i < sizeof nouns / sizeof nouns[0]; i++)
        if (strlen(nouns[i]) == n && !strncmp(s, nouns[i], n))
            return 1;
    return 0;
}

void human_text(const char *in, char *out, size_t len)
{
    size_t k = 0;
    for (const char *s = in; *s && k + 1 < len;) {
        /* The engine's log names the Banker by its engine name (kept in
         * the bots' logs, which must not change): the player reads the
         * rulebook's. */
        if (!strncmp(s, "neutral investor 1", 18) && !isdigit((unsigned char)s[18])) {
            k += (size_t)snprintf(out + k, len - k, "the Banker");
            s += 18;
            continue;
        }
        /* "1 tokens", "1 Culture icons": one, singular. */
        if (s[0] == '1' && s[1] == ' ' && (s == in || !isalnum((unsigned char)s[-1]))) {
            const char *w1 = s + 2;
            size_t n1 = strspn(w1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
            const char *w2 = w1[n1] == ' ' ? w1 + n1 + 1 : NULL;
            size_t n2 = w2 ? strspn(w2, "abcdefghijklmnopqrstuvwxyz") : 0;
            size_t cut = plural_noun(w1, n1) ? (size_t)(w1 + n1 - 1 - s) : n2 && plural_noun(w2, n2) ? (size_t)(w2 + n2 - 1 - s) : 0;
            if (cut && !isalnum((unsigned char)s[cut + 1])) {
                k += (size_t)snprintf(out + k, len - k, "%.*s", (int)cut, s);
                s += cut + 1; /* the plural's s */
                continue;
            }
        }
        out[k++] = *s++;
    }
    out[k < len ? k : len - 1] = '\0';
}

void human_line(human_table *t, const char *line)
{
    /* From scripts: escaped first, so that it cannot drive the terminal. */
    char safe[4 * 1024], fixed[4 * 1024 + 64];
    if (strlen(line) > 1024) { /* a script's long line: whole, unwrapped */
        cli_line(t->out, line);
        return;
    }
    cli_escape(line, safe, sizeof safe);
    human_text(safe, fixed, sizeof fixed);
    int lead = (int)strspn(fixed, " ");
    board_wrap(t->out, t->style.width, lead, lead + 4, fixed + lead);
}

/* Print log lines [FROM, TO) of T (dropped ones said once). */
static void print_log(human_table *t, int from, int to)
{
    if (from < to && !t->log[from])
        fprintf(t->out, "(older lines of the log are not kept: the table keeps the last %u MiB)\n",
                HUMAN_LOG_BYTES >> 20);
    for (int i = from; i < to; i++)
        if (t->log[i])
            human_line(t, t->log[i]);
}

void human_table_rewind(human_table *t, int k)
{
    const human_mark *m = &t->marks[k];
    while (t->nlog > m->nlog) {
        char *line = t->log[--t->nlog];
        if (line)
            t->log_bytes -= strlen(line) + 1;
        free(line);
    }
    if (t->log_kept > t->nlog)
        t->log_kept = t->nlog;
    for (int p = 0; p < FOH_MAX_PLAYERS; p++)
        if (t->seen[p] > t->nlog)
            t->seen[p] = t->nlog;
    for (int i = k + 1; i < t->nmarks; i++)
        foh_game_free(t->marks[i].at);
    t->nmarks = k + 1;
    t->done = m->done;
    t->undo_to = -1;
}

/* Note the decision point G (player P) unless it is the last one noted. */
static int mark(human_table *t, foh_game *g, int p)
{
    if (t->nmarks > 0 && t->marks[t->nmarks - 1].done == t->done)
        return 1;
    if (t->nmarks == t->markcap) {
        int cap = t->markcap ? t->markcap * 2 : 64;
        human_mark *grown = realloc(t->marks, (size_t)cap * sizeof *grown);
        if (!grown)
            return 0;
        t->marks = grown;
        t->markcap = cap;
    }
    foh_game *at = foh_game_clone(g);
    if (!at)
        return 0;
    t->marks[t->nmarks++] = (human_mark){.done = t->done, .nlog = t->nlog, .player = p, .at = at};
    return 1;
}

/* ---- Showing ---- */

/* The log lines P has not seen yet. */
static void recap(human_table *t, int p)
{
    if (t->seen[p] < t->nlog) {
        fprintf(t->out, "\nSince your last decision:\n");
        print_log(t, t->seen[p], t->nlog);
    }
    t->seen[p] = t->nlog;
}

static int kind_rank(foh_action_kind k)
{
    static const foh_action_kind order[] = {FOH_ACT_INVEST,  FOH_ACT_COMPLETE, FOH_ACT_SNIPE, FOH_ACT_ACTIVATE,
                                            FOH_ACT_HARVEST, FOH_ACT_CUSTOM,   FOH_ACT_PASS,  FOH_ACT_CHOOSE};
    for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++)
        if (order[i] == k)
            return i;
    return 99;
}

/* The numbered entries of LEGAL[0..N), grouped by kind; returns how many. */
static int entries_of(const foh_action *legal, int n, entry *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        const foh_action *a = &legal[i];
        int merged = 0;
        for (int j = 0; j < k && a->kind == FOH_ACT_INVEST && !merged; j++)
            if (out[j].kind == FOH_ACT_INVEST && out[j].card == a->card) {
                if (a->tokens < out[j].min)
                    out[j].min = a->tokens;
                if (a->tokens > out[j].max)
                    out[j].max = a->tokens;
                merged = 1;
            }
        if (!merged)
            out[k++] = (entry){.first = i, .kind = a->kind, .card = a->card, .min = a->tokens, .max = a->tokens};
    }
    /* Stable sort by kind (insertion: the lists are short). */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && kind_rank(out[j].kind) < kind_rank(out[j - 1].kind); j--) {
            entry e = out[j];
            out[j] = out[j - 1];
            out[j - 1] = e;
        }
    return k;
}

static void entry_text(const human_table *t, foh_game *g, const foh_action *legal, const entry *e, char *buf,
                       size_t len)
{
    if (e->kind == FOH_ACT_INVEST) {
        char name[160];
        board_card_name(foh_game_cardset(g), e->card, &t->style, name, sizeof name);
        if (e->min == e->max)
            snprintf(buf, len, "Invest %d token%s in %s", e->min, e->min == 1 ? "" : "s", name);
        else
            snprintf(buf, len, "Invest in %s (%d to %d tokens; asks how many)", name, e->min, e->max);
    } else if (e->kind == FOH_ACT_CHOOSE) {
        const foh_choice *ch = foh_game_choice(g);
        /* From a script: escaped, so that it cannot move the cursor or change colours. */
        cli_escape(ch ? ch->label[legal[e->first].option] : "?", buf, len);
    } else {
        foh_game_describe_action(g, &legal[e->first], buf, len);
    }
}

/* The consequences of action A at G that its description does not say,
 * found by playing it on a copy whose hidden cards are shuffled (nothing
 * secret shows): what it pays or earns (a Snipe's cost, a Complete's
 * investor bonus), the attacks it makes with the strengths, the stack top
 * a gained card covers, and the player's strengths after it. "" if none. */
typedef struct {
    char text[1200];
    size_t used;
    int lines;
} preview_log;

static void preview_line(void *ud, const char *line)
{
    preview_log *pl = ud;
    const char *tail = strstr(line, ": ");
    size_t len = sizeof pl->text - pl->used;
    /* The action's own line (what it pays or earns), then attack results;
     * never a card drawn (even shuffled, it would read as news). */
    if (pl->lines++ == 0 && tail)
        pl->used += (size_t)snprintf(pl->text + pl->used, len, "%s", tail + 2);
    else if ((strstr(line, "attack") || strstr(line, "strength")) && !strstr(line, "enters the Market") &&
             pl->used < sizeof pl->text)
        pl->used += (size_t)snprintf(pl->text + pl->used, len, "%s%s", pl->used ? "; " : "", line + strspn(line, " "));
    if (pl->used >= sizeof pl->text)
        pl->used = sizeof pl->text - 1;
}

static void preview(const human_table *t, foh_game *g, const foh_action *a, char *buf, size_t len)
{
    buf[0] = '\0';
    if (a->kind != FOH_ACT_SNIPE && a->kind != FOH_ACT_COMPLETE && a->kind != FOH_ACT_ACTIVATE)
        return;
    const foh_cardset *cs = foh_game_cardset(g);
    int p = foh_game_to_act(g);
    size_t k = 0;
    foh_game *copy = foh_game_clone(g);
    if (!copy)
        return;
    preview_log pl = {.used = 0};
    foh_game_determinize(copy, p, foh_seed_for(t->seed, (uint64_t)t->done + 4242));
    foh_game_set_log(copy, preview_line, &pl);
    foh_error err;
    int a0 = 0, d0 = 0, a1 = 0, d1 = 0;
    foh_game_strengths(g, p, &a0, &d0, &err);
    if (foh_game_apply(copy, a, &err) == FOH_OK) {
        if (pl.text[0])
            k += (size_t)snprintf(buf + k, len - k, "%s", pl.text);
        if (foh_game_strengths(copy, p, &a1, &d1, &err) == FOH_OK && (a1 != a0 || d1 != d0) && k < len)
            k += (size_t)snprintf(buf + k, len - k, "%sattack/defence %d/%d -> %d/%d", k ? "; " : "", a0, d0, a1, d1);
    }
    foh_game_free(copy);
    /* The card goes on its type's stack: the top card there is covered
     * (its stripe stays, its effect ends). */
    foh_card_info ci;
    if (a->kind != FOH_ACT_ACTIVATE && k < len && foh_cardset_card(cs, a->card, &ci) == FOH_OK &&
        !strcmp(foh_cardset_type_placement(cs, ci.type_index), "stack")) {
        int cards[FOH_MAX_CARDS];
        int n = foh_game_nation_cards(g, p, ci.type_index, cards, FOH_MAX_CARDS);
        if (n > 0) {
            char name[160];
            board_style plain = t->style;
            plain.colour = 0;
            board_card_name(cs, cards[n - 1], &plain, name, sizeof name);
            k += (size_t)snprintf(buf + k, len - k, "%scovers %s (its stripe stays, its effect ends)", k ? "; " : "",
                                  name);
        }
    }
}

static void print_list(human_table *t, foh_game *g, int p, const foh_action *legal, const entry *e, int k, int full)
{
    char name[96];
    const foh_choice *ch = foh_game_choice(g);
    if (ch) {
        char card[160] = "the variant";
        if (ch->card >= 0)
            board_card_name(foh_game_cardset(g), ch->card, &t->style, card, sizeof card);
        char prompt[4 * FOH_PROMPT];
        cli_escape(ch->prompt, prompt, sizeof prompt);
        fprintf(t->out, "\n%s, %s asks: %s\n", board_player_name(&t->style, p, name, sizeof name), card, prompt);
    } else {
        fprintf(t->out, "\n%s, your %s:\n", board_player_name(&t->style, p, name, sizeof name),
                foh_game_in_bonus(g) ? "bonus action" : "action");
    }
    int last = -1;
    for (int i = 0; i < k; i++) {
        static const char *const heads[] = {[FOH_ACT_INVEST] = "Invest",     [FOH_ACT_COMPLETE] = "Complete",
                                            [FOH_ACT_SNIPE] = "Snipe",       [FOH_ACT_ACTIVATE] = "Activate",
                                            [FOH_ACT_HARVEST] = "Harvest",   [FOH_ACT_CHOOSE] = "Options",
                                            [FOH_ACT_PASS] = "Pass",         [FOH_ACT_CUSTOM] = "Other actions"};
        /* The kinds' headings only on the full board: the compact one
         * must leave the list room on 24 lines (each entry names its kind). */
        if ((int)e[i].kind != last && !ch && full)
            fprintf(t->out, "  %s\n", heads[e[i].kind]);
        last = (int)e[i].kind;
        char text[400], fixed[1800], why[1200], line[1900];
        entry_text(t, g, legal, &e[i], text, sizeof text);
        preview(t, g, &legal[e[i].first], why, sizeof why);
        snprintf(line, sizeof line, "%3d  %s%s%s%s", i + 1, text, why[0] ? " (" : "", why, why[0] ? ")" : "");
        human_text(line, fixed, sizeof fixed);
        board_wrap(t->out, t->style.width, 2, 7, fixed);
    }
    board_wrap(t->out, t->style.width, 0, 2,
               "Type a number, or help (and the icons), board (the full board), score, log [N], hint, undo, save FILE, quit.");
}

/* TEXT cut at spaces to WIDTH columns, its runs of spaces kept (a
 * table's columns stay aligned while they fit); the rest indented. */
static void wrap_spaced(FILE *out, int width, const char *text)
{
    int indent = 0;
    size_t len = strlen(text);
    while ((int)len + indent > width) {
        size_t room = (size_t)(width - indent), cut = room;
        while (cut > 0 && text[cut] != ' ')
            cut--;
        if (cut == 0) /* one word longer than the line: whole */
            cut = strcspn(text, " ");
        size_t end = cut;
        while (end > 0 && text[end - 1] == ' ')
            end--;
        fprintf(out, "%*s%.*s\n", indent, "", (int)end, text);
        text += cut;
        text += strspn(text, " ");
        len = strlen(text);
        indent = 4;
        if (!len)
            return;
    }
    fprintf(out, "%*s%s\n", indent, "", text);
}

/* ---- Commands ---- */

/* Whether TEXT (LEN bytes) begins a word of NAME, any case ("gandhi" in
 * "Mahatma Gandhi"; words split at spaces, '_' and '-'). */
static int begins_word(const char *name, const char *text, size_t len)
{
    for (const char *w = name; *w;) {
        if (!strncasecmp(w, text, len))
            return 1;
        w += strcspn(w, " _-");
        w += strspn(w, " _-");
    }
    return 0;
}

/* The card a player names in CARD: its id or name, any case; else the one
 * card whose id or name has a word starting so. */
static int find_card(const foh_cardset *cs, const char *text)
{
    int n = foh_cardset_card_count(cs), found = -1, count = 0;
    size_t len = strlen(text);
    for (int c = 0; c < n; c++) {
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        if (!strcasecmp(ci.id, text) || !strcasecmp(ci.name, text))
            return c;
        if (begins_word(ci.id, text, len) || begins_word(ci.name, text, len)) {
            found = c;
            count++;
        }
    }
    return count == 1 ? found : -1;
}

static void cmd_help(human_table *t, foh_game *g, const char *arg)
{
    if (!arg[0]) {
        static const char help[] = "Commands:\n"
                        "  N            take action N of the list (Invest then asks how many tokens)\n"
                        "  complete     (harvest, pass, ...) the action of that kind, when there is one\n"
                        "  help CARD    a card's full text and data (its id, or any word of its name;\n"
                        "               Tab completes)\n"
                        "  board        the board again\n"
                        "  score        everyone's VP if the game ended now, broken down\n"
                        "  log [N]      the last N lines of the game's log (20)\n"
                        "  hint         a bot's 3 best actions here, with its values\n"
                        "  undo         back to your previous decision (the bots replay as before)\n"
                        "  save FILE    save the game (resume with foh play --load FILE)\n"
                        "  quit         stop (offers to save); Ctrl-C and Ctrl-D save and stop\n"
                        "After a Snipe, Complete or Activate, in brackets: what it pays or earns, its\n"
                        "attacks, your attack/defence strength after it, and the card it covers.\n";
        /* Line by line, each cut to the width (its columns kept). */
        for (const char *h = help; *h;) {
            size_t len = strcspn(h, "\n");
            char line[200];
            snprintf(line, sizeof line, "%.*s", (int)len, h);
            wrap_spaced(t->out, t->style.width, line);
            h += len + (h[len] == '\n');
        }

        board_icon_legend(t->out, foh_game_cardset(g), &t->style);
        return;
    }
    char safe[4 * 256];
    int c = find_card(foh_game_cardset(g), arg);
    if (c < 0)
        fprintf(t->out, "No card is called '%s' (a card's id or name, or the start of a word of one card's).\n",
                cli_safe(arg, safe, sizeof safe));
    else
        board_card_help(t->out, foh_game_cardset(g), c, &t->style);
}

static void cmd_score(human_table *t, foh_game *g)
{
    foh_score sc[FOH_MAX_PLAYERS];
    foh_tiebreak tb;
    foh_error err;
    if (foh_game_score(g, sc, &tb, &err) != FOH_OK) {
        fprintf(t->out, "Scoring failed: %s\n", err.msg);
        return;
    }
    fprintf(t->out, "If the game ended now (rulebook \"End of Game\"; obsolete effects off):\n");
    for (int p = 0; p < foh_game_players(g); p++) {
        int end = 0;
        for (int k = 0; k < sc[p].n_end; k++)
            end += sc[p].end[k].full_vp;
        char name[96];
        fprintf(t->out, "  %-12s %3d VP = %d (%d full-VP icons) + %d (%d other icons) + %d end-game%s\n",
                board_player_name(&t->style, p, name, sizeof name), sc[p].total, sc[p].culture_vp, sc[p].culture_icons, sc[p].other_vp,
                sc[p].other_icons, end, sc[p].winner ? "  (leading)" : "");
    }
}

static void cmd_log(human_table *t, const char *arg)
{
    int n = arg[0] ? atoi(arg) : 20;
    if (n <= 0) {
        fprintf(t->out, "log N: N is a number of lines, 1 or more.\n");
        return;
    }
    print_log(t, t->nlog > n ? t->nlog - n : 0, t->nlog);
    if (t->nlog == 0)
        fprintf(t->out, "(nothing has happened yet)\n");
}

static void cmd_hint(human_table *t, foh_game *g, const foh_action *legal, int n)
{
    foh_player *bot = foh_bot_greedy_new(foh_seed_for(t->seed, (uint64_t)t->done + 7777));
    foh_error err;
    if (!bot) {
        fprintf(t->out, "hint: out of memory\n");
        return;
    }
    if (bot->decide(bot, g, legal, n, NULL, 0, &err) < 0) {
        fprintf(t->out, "hint: %s\n", err.msg);
        foh_player_free(bot);
        return;
    }
    foh_alternative alt[3];
    int k = bot->explain(bot, alt, 3);
    board_wrap(t->out, t->style.width, 0, 0,
               "The greedy bot's best actions here, each with how the position would stand after it: your VP and "
               "tokens (as the bot weighs them) ahead of (+) or behind (-) the best opponent's:");
    for (int i = 0; i < k; i++) {
        char text[200], line[400], fixed[500];
        double v = alt[i].value;
        foh_game_describe_action(g, &legal[alt[i].index], text, sizeof text);
        snprintf(line, sizeof line, "%d. %s: %+.1f (%s the best opponent)", i + 1, text, v,
                 v > 0.05 ? "ahead of" : v < -0.05 ? "behind" : "level with");
        human_text(line, fixed, sizeof fixed);
        board_wrap(t->out, t->style.width, 2, 5, fixed);
    }
    foh_player_free(bot);
}

/* Save the game to PATH (NULL: the --save file, else a free autosave
 * name, which never overwrites an earlier game's) and say so, WHY first
 * ("Quit", "End of input", "save"). */
static void save_to(human_table *t, const char *path, const char *why)
{
    char err[1200], autosave[64];
    int reserved = 0;
    if (!path && t->save_path)
        path = t->save_path;
    else if (!path) /* "": no name (err says why, or there is no save) */
        path = t->save && (reserved = cli_autosave_reserve(autosave, sizeof autosave, err, sizeof err)) ? autosave : "";
    char safe[4096];
    char line[3 * sizeof safe];
    if (t->save && path[0] && t->save(t->save_ud, path, err, sizeof err)) {
        cli_safe(path, safe, sizeof safe);
        snprintf(line, sizeof line, "%s: the game is saved in %s%s; resume with: foh play --load %s", why, safe,
                 reserved && strcmp(path, "foh-autosave.json") ? " (the earlier autosaves are kept)" : "", safe);
    } else {
        if (reserved)
            cli_autosave_release(path);
        snprintf(line, sizeof line, "%s: the game could not be saved: %s", why,
                 cli_safe(t->save ? err : "no save", safe, sizeof safe));
    }
    board_wrap(t->out, t->style.width, 0, 4, line);
}

/* ---- Deciding ---- */

/* Read a line; NULL (and the table told) at the end of input. */
static const char *ask(human_table *t, const char *prompt)
{
    const char *line = term_read(t->in, prompt);
    if (!line) {
        fprintf(t->out, "\n");
        t->end_of_input = t->quit = 1;
        if (term_failure(t->in)) {
            cli_error("play", "input: %s: the rest is not read", term_failure(t->in));
            t->input_failed = 1;
        }
    }
    return line;
}

/* The legal index of entry E (an Invest asks the amount); -1 to go back
 * to the list, or at the end of input (the table is told). */
static int ask_amount(human_table *t, foh_game *g, const foh_action *legal, int n, const entry *e)
{
    if (e->min == e->max)
        return e->first;
    char name[160], prompt[300];
    /* Without colour: the line editor shows its prompt as text, so colour
     * codes there would be printed raw (issue 32). */
    board_style plain = t->style;
    plain.colour = 0;
    board_card_name(foh_game_cardset(g), e->card, &plain, name, sizeof name);
    snprintf(prompt, sizeof prompt, "How many tokens in %s? (%d to %d; Enter to go back) ", name, e->min, e->max);
    for (;;) {
        const char *line = ask(t, prompt);
        if (!line)
            return -1;
        while (isspace((unsigned char)*line))
            line++;
        if (!line[0])
            return -1;
        char *end;
        long x = strtol(line, &end, 10);
        while (isspace((unsigned char)*end))
            end++;
        if (*end || end == line || x < -1000000 || x > 1000000) {
            char safe[200];
            fprintf(t->out, "'%s' is not a number of tokens.\n", cli_safe(line, safe, sizeof safe));
            continue;
        }
        foh_action a = {.kind = FOH_ACT_INVEST, .card = e->card, .tokens = (int)x, .option = 0};
        int i = foh_match_find(legal, n, &a);
        if (i >= 0)
            return i;
        foh_error why;
        if (foh_game_check(g, &a, &why) == FOH_OK)
            snprintf(why.msg, sizeof why.msg, "not among the legal actions");
        fprintf(t->out, "%s\n", why.msg);
    }
}

static int human_decide(foh_player *self, foh_game *g, const foh_action *legal, int n, char *whybuf, size_t whylen,
                        foh_error *err)
{
    human *h = (human *)self;
    human_table *t = h->t;
    int p = foh_game_to_act(g);
    entry *e = malloc((size_t)n * sizeof *e);
    if (!e || !mark(t, g, p)) {
        free(e);
        foh_error_set(err, FOH_ERR_MEMORY, "out of memory");
        return -1;
    }
    int k = entries_of(legal, n, e);
    /* What happened first, then the board and the list: on a small
     * terminal the recap scrolls away, the board and the prompt stay. */
    recap(t, p);
    board_print_compact(t->out, g, p, &t->style);
    print_list(t, g, p, legal, e, k, 0);
    char prompt[96], name[80];
    snprintf(prompt, sizeof prompt, "%s> ", board_player_name(&t->style, p, name, sizeof name));
    int pick = -1;
    while (pick < 0 && !t->end_of_input) {
        const char *line = ask(t, prompt);
        if (!line)
            break;
        while (isspace((unsigned char)*line))
            line++;
        char word[32], arg[256], safe[4 * sizeof word];
        size_t wl = strcspn(line, " \t");
        const char *from = line + wl;
        while (isspace((unsigned char)*from))
            from++;
        if (wl >= sizeof word || strlen(from) >= sizeof arg) {
            fprintf(t->out, "That is longer than any command (%zu characters, and %zu after it): type help.\n",
                    sizeof word - 1, sizeof arg - 1);
            continue;
        }
        snprintf(word, sizeof word, "%.*s", (int)wl, line);
        snprintf(arg, sizeof arg, "%s", from);
        for (size_t al = strlen(arg); al > 0 && isspace((unsigned char)arg[al - 1]); al--)
            arg[al - 1] = '\0';
        int chosen = -1; /* an entry of the list, by number or by its kind's name */
        if (!word[0]) {
            continue;
        } else if (isdigit((unsigned char)word[0])) {
            char *end;
            long x = strtol(word, &end, 10);
            if (*end || x < 1 || x > k) {
                fprintf(t->out, "There is no action %s here: type a number from 1 to %d (or help).\n",
                        cli_safe(word, safe, sizeof safe), k);
                continue;
            }
            chosen = (int)x - 1;
        } else if (foh_action_kind_find(word) >= 0 && foh_action_kind_find(word) != FOH_ACT_CHOOSE) {
            /* An action by its kind's name ("complete", "harvest"), when
             * one entry of that kind is listed: scripts need no numbers. */
            int kind = foh_action_kind_find(word), count = 0;
            for (int i = 0; i < k; i++)
                if ((int)e[i].kind == kind) {
                    chosen = i;
                    count++;
                }
            if (count != 1) {
                fprintf(t->out, "%s: %s; type its number.\n", word,
                        count ? "there are several, one per card" : "not one of the legal actions now");
                continue;
            }
        } else if (!strcmp(word, "help")) {
            cmd_help(t, g, arg);
        } else if (!strcmp(word, "board")) {
            board_print(t->out, g, p, &t->style);
            print_list(t, g, p, legal, e, k, 1);
        } else if (!strcmp(word, "score")) {
            cmd_score(t, g);
        } else if (!strcmp(word, "log")) {
            cmd_log(t, arg);
        } else if (!strcmp(word, "hint")) {
            cmd_hint(t, g, legal, n);
        } else if (!strcmp(word, "undo")) {
            int j = t->nmarks - 2;
            while (j >= 0 && t->marks[j].player != p)
                j--;
            if (j < 0) {
                fprintf(t->out, "Nothing to undo: this is your first decision of the game (or of this session).\n");
                continue;
            }
            t->undo_to = j;
            break;
        } else if (!strcmp(word, "save")) {
            if (!arg[0])
                fprintf(t->out, "save FILE: name the file to save to.\n");
            else
                save_to(t, arg, "save");
        } else if (!strcmp(word, "quit")) {
            if (t->save_path) {
                save_to(t, NULL, "Quit");
            } else {
                const char *file = ask(t, "Save first? A file name, or Enter to quit unsaved: ");
                while (file && isspace((unsigned char)*file))
                    file++;
                if (file && file[0])
                    save_to(t, file, "Quit");
            }
            t->quit = 1;
            break;
        } else {
            fprintf(t->out, "Unknown command '%s': type a number from 1 to %d, or help.\n",
                    cli_safe(word, safe, sizeof safe), k);
        }
        if (chosen >= 0)
            pick = ask_amount(t, g, legal, n, &e[chosen]); /* -1: back to the list */
    }
    if (t->end_of_input)
        save_to(t, NULL, term_interrupted(t->in) ? "Interrupted (Ctrl-C)" : "End of input");
    free(e);
    if (pick < 0) {
        foh_error_set(err, FOH_ERR_USAGE, "%s", t->undo_to >= 0 ? "undo" : "the player stopped the game");
        return -1;
    }
    if (whybuf && whylen)
        snprintf(whybuf, whylen, "chosen by %s", board_player_name(&t->style, p, name, sizeof name));
    return pick;
}

static void human_free(foh_player *self) { free(self); }

foh_player *human_new(human_table *t, const char *name)
{
    human *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    /* From --seats or a save file: escaped once, for every line naming the player. */
    cli_escape(name && name[0] ? name : "human", h->name, sizeof h->name);
    h->base.name = h->name;
    h->base.decide = human_decide;
    h->base.free = human_free;
    h->t = t;
    return &h->base;
}

void human_table_last_turns(human_table *t, foh_game *g)
{
    if (!foh_game_is_over(g))
        return;
    int from = t->nmarks > 0 ? t->marks[t->nmarks - 1].nlog : t->nlog > 40 ? t->nlog - 40 : 0;
    if (from < t->log_kept)
        from = t->log_kept;
    if (from < t->nlog) {
        fprintf(t->out, "\nThe last turns, since the last decision at the table:\n");
        print_log(t, from, t->nlog);
    }
    int viewer = t->nmarks > 0 ? t->marks[t->nmarks - 1].player : -1;
    board_print(t->out, g, viewer, &t->style);
}

int human_table_scores(human_table *t, foh_game *g)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (!mem)
        return cli_print_scores(t->out, g);
    int ok = cli_print_scores(mem, g);
    if (fclose(mem) != 0 || !text) {
        free(text);
        return cli_print_scores(t->out, g);
    }
    int over = foh_game_is_over(g);
    for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *mark = strstr(line, "   WINNER");
        if (!over && mark)
            *mark = '\0';
        if (!over && !strncmp(line, "Winner:", 7)) {
            board_wrap(t->out, t->style.width, 0, 0,
                       "No winner: the game is not over (the table above is the score if it ended now).");
            continue;
        }
        char fixed[4096];
        human_text(line, fixed, sizeof fixed);
        wrap_spaced(t->out, t->style.width, fixed);
    }
    free(text);
    return ok;
}

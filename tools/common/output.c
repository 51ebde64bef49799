/* output: what the program prints, made safe for a terminal (see output.h):
 * escaped text, error messages, word wrapping, the score table. */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "common/cli.h"

/* How many bytes at P a terminal may be given as they are: one printable
 * ASCII character, or one well-formed UTF-8 sequence that is not a C1
 * control (U+0080 to U+009F) nor a bidirectional control (U+200E, U+200F,
 * U+202A to U+202E, U+2066 to U+2069: they reorder the text around them on
 * the screen); 0 for a byte to write as "\xNN". */
static int shown_bytes(const unsigned char *p)
{
    if (p[0] >= 0x20 && p[0] < 0x7f)
        return 1;
    int n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
    /* The second byte's range: no overlong form, no surrogate, nothing past
     * U+10FFFF, no C1 control. */
    unsigned lo = p[0] == 0xe0 ? 0xa0 : p[0] == 0xf0 ? 0x90 : p[0] == 0xc2 ? 0xa0 : 0x80;
    unsigned hi = p[0] == 0xed ? 0x9f : p[0] == 0xf4 ? 0x8f : 0xbf;
    if (n == 0 || p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    if (p[0] == 0xe2 && ((p[1] == 0x80 && ((p[2] >= 0xaa && p[2] <= 0xae) || p[2] == 0x8e || p[2] == 0x8f)) ||
                         (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)))
        return 0;
    return n;
}

size_t cli_escape(const char *text, char *out, size_t len)
{
    size_t n = 0;
    if (len == 0)
        return 0;
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        int k = shown_bytes(p);
        if (k == 0 && n + 4 < len) {
            n += (size_t)snprintf(out + n, len - n, "\\x%02x", *p);
            p++;
        } else if (k > 0 && n + (size_t)k < len) {
            memcpy(out + n, p, (size_t)k);
            n += (size_t)k;
            p += k;
        } else
            break; /* cut short, at a character's boundary */
    }
    out[n] = '\0';
    return n;
}

const char *cli_safe(const char *text, char *out, size_t len)
{
    cli_escape(text ? text : "", out, len);
    return out;
}

void cli_puts(FILE *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        int k = shown_bytes(p);
        if (k == 0)
            fprintf(out, "\\x%02x", *p++);
        else {
            fwrite(p, 1, (size_t)k, out);
            p += k;
        }
    }
}

void cli_error(const char *command, const char *fmt, ...)
{
    char msg[2048], safe[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_escape(msg, safe, sizeof safe);
    fflush(stdout); /* what was printed so far comes first */
    fprintf(stderr, "foh%s%s: %s\n", command ? " " : "", command ? command : "", safe);
}

void cli_line(FILE *out, const char *text)
{
    cli_puts(out, text);
    putc('\n', out);
}

/* See output.h. */
void cli_wrap(FILE *out, const char *text, int indent, int col)
{
    for (const char *h = text; *h;) {
        if (h[0] == '\n' && h[1] == '\n') {
            fprintf(out, "\n\n%*s", indent, "");
            col = indent;
            h += 2;
            continue;
        }
        while (*h == ' ' || (*h == '\n' && h[1] != '\n'))
            h++;
        size_t w = strcspn(h, " \n");
        if (!w)
            continue;
        if (col > indent && col + 1 + (int)w > 80) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        }
        fprintf(out, "%s%.*s", col > indent ? " " : "", (int)w, h);
        col += (col > indent) + (int)w;
        h += w;
    }
    putc('\n', out);
}

/* "Culture icons 1 VP each; other icons halved, rounded down", from the
 * card set's scoring rules (a variant may change every number). */
static void print_scoring_rules(FILE *out, const foh_cardset *cs, const foh_scoring_rules *r)
{
    int k = 0, nfull = 0;
    for (int i = 0; i < foh_cardset_icon_count(cs); i++)
        nfull += r->full_vp_icons >> i & 1;
    for (int i = 0; i < foh_cardset_icon_count(cs); i++) {
        if (!(r->full_vp_icons >> i & 1))
            continue;
        const char *name = foh_cardset_icon_name(cs, i);
        fprintf(out, "%s%c%s", k == 0 ? "" : k == nfull - 1 ? " and " : ", ", toupper((unsigned char)name[0]),
                name + 1);
        k++;
    }
    if (nfull)
        fprintf(out, " icons %d VP each; other icons ", r->vp_per_full_icon);
    else
        fprintf(out, "icons ");
    if (r->other_icons_per_vp == 2)
        fprintf(out, "halved, rounded down");
    else if (r->other_icons_per_vp == 1)
        fprintf(out, "1 VP each");
    else
        fprintf(out, "1 VP per %d, rounded down", r->other_icons_per_vp);
}

/* Why the winners won: "most VP", "tie on VP broken by most cards in the
 * Nation", ..., following the card set's tie-break order. */
static void print_tie_break(FILE *out, const foh_scoring_rules *r, foh_tiebreak tb)
{
    static const char *const word[] = {[FOH_TIE_CARDS] = "cards", [FOH_TIE_TOKENS] = "tokens"};
    static const char *const most[] = {[FOH_TIE_CARDS] = "most cards in the Nation",
                                       [FOH_TIE_TOKENS] = "most resource tokens"};
    if (tb == FOH_TIE_NONE) {
        fprintf(out, "most VP");
        return;
    }
    /* The criteria tied on: every one before the deciding one, or all. */
    int tied = r->ntie_break;
    for (int i = 0; i < r->ntie_break; i++)
        if (tb != FOH_TIE_SHARED && r->tie_break[i] == (int)tb)
            tied = i;
    fprintf(out, "tie on VP");
    for (int i = 0; i < tied; i++)
        fprintf(out, "%s%s", i == tied - 1 ? " and " : ", ", word[r->tie_break[i]]);
    if (tb == FOH_TIE_SHARED)
        fprintf(out, ": shared win");
    else
        fprintf(out, " broken by %s", most[tb]);
}

int cli_print_scores(FILE *out, foh_game *g)
{
    const foh_cardset *cs = foh_game_cardset(g);
    int n = foh_game_players(g);
    foh_score sc[FOH_MAX_PLAYERS];
    foh_tiebreak tb;
    foh_error err;
    if (foh_game_score(g, sc, &tb, &err) != FOH_OK) {
        cli_error(NULL, "scoring failed: %s", err.msg);
        return 0;
    }
    foh_scoring_rules rules;
    foh_cardset_scoring_rules(cs, &rules);
    fprintf(out, "\nFinal scores (obsolete effects off; ");
    print_scoring_rules(out, cs, &rules);
    fprintf(out, ")\n");
    fprintf(out, "%-4s %8s %12s %9s %6s %6s %7s  %s\n", "", "Culture", "Other icons", "Other VP", "Total", "Cards",
            "Tokens", "End-game effects");
    for (int p = 0; p < n; p++) {
        fprintf(out, "P%-3d %8d %12d %9d %6d %6d %7d  ", p + 1, sc[p].culture_icons, sc[p].other_icons,
                sc[p].other_vp, sc[p].total, sc[p].cards, sc[p].tokens);
        if (sc[p].n_end == 0)
            fprintf(out, "-");
        for (int k = 0; k < sc[p].n_end; k++) {
            foh_card_info ci = {0};
            if (sc[p].end[k].card >= 0)
                foh_cardset_card(cs, sc[p].end[k].card, &ci);
            fprintf(out, "%s%s +%d VP", k ? ", " : "", sc[p].end[k].card < 0 ? "variant scoring" : ci.name,
                    sc[p].end[k].full_vp);
            if (sc[p].end[k].other_icons)
                fprintf(out, " (+%d other icons)", sc[p].end[k].other_icons);
        }
        fprintf(out, "%s\n", sc[p].winner ? "   WINNER" : "");
    }
    for (int p = 0; p < n; p++) {
        int end_vp = 0;
        for (int k = 0; k < sc[p].n_end; k++)
            end_vp += sc[p].end[k].full_vp;
        fprintf(out, "P%d: %d (%d Culture icons) + %d (%d other icons) + %d end-game = %d VP\n", p + 1,
                sc[p].culture_vp, sc[p].culture_icons, sc[p].other_vp, sc[p].other_icons, end_vp, sc[p].total);
    }
    fprintf(out, "Winner:");
    for (int p = 0; p < n; p++)
        if (sc[p].winner)
            fprintf(out, " P%d", p + 1);
    fprintf(out, " (");
    print_tie_break(out, &rules, tb);
    fprintf(out, ")\n");
    return 1;
}

/* board: printing a game's public state for a human (see board.h). */
#include "play/board.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "play/terminal.h"

/* Display columns of the N bytes at S: escape sequences take none, a UTF-8
 * character one. */
static int columns(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\033') {
            while (i < n && s[i] != 'm')
                i++;
            continue;
        }
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    }
    return w;
}

void board_wrap(FILE *out, int width, int first, int indent, const char *text)
{
    int col = first, fresh = 1; /* fresh: no word on this line yet */
    fprintf(out, "%*s", first, "");
    for (const char *h = text; *h;) {
        while (*h == ' ' || *h == '\n')
            h++;
        size_t len = strcspn(h, " \n");
        if (!len)
            break;
        int w = columns(h, len);
        if (!fresh && col + 1 + w > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            fresh = 1;
        }
        if (!fresh) {
            putc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", (int)len, h);
        col += w;
        fresh = 0;
        h += len;
    }
    putc('\n', out);
}

const char *board_icon(const foh_cardset *cs, int icon, const board_style *st)
{
    const char *sym = st->symbols ? foh_cardset_icon_symbol(cs, icon) : NULL;
    return sym ? sym : foh_cardset_icon_name(cs, icon);
}

void board_icons_text(const foh_cardset *cs, const int *icons, const board_style *st, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < foh_cardset_icon_count(cs) && k < len; i++)
        if (icons[i])
            k += (size_t)snprintf(buf + k, len - k, "%s%d %s", k ? ", " : "", icons[i], board_icon(cs, i, st));
    if (!buf[0])
        snprintf(buf, len, "none");
}

void board_card_name(const foh_cardset *cs, int c, const board_style *st, char *buf, size_t len)
{
    foh_card_info ci;
    if (foh_cardset_card(cs, c, &ci) != FOH_OK) {
        snprintf(buf, len, "?");
        return;
    }
    const char *code = st->colour ? term_colour_code(foh_cardset_type_colour(cs, ci.type_index)) : "";
    snprintf(buf, len, "%s%s%s", code, ci.name, code[0] ? TERM_RESET : "");
}

/* Whether card CI's stripe is the card files' reconstruction, not
 * printed fact (stripe_source: reconstructed). */
static int reconstructed(const foh_card_info *ci)
{
    return ci->stripe_source && !strcmp(ci->stripe_source, "reconstructed");
}

/* Card CI's production stripe, marked when it is a reconstruction: the
 * player must not take it for what the printed card says. */
static void stripe_text(const foh_cardset *cs, const foh_card_info *ci, const board_style *st, char *buf, size_t len)
{
    int icons[FOH_MAX_ICONS];
    for (int i = 0; i < FOH_MAX_ICONS; i++)
        icons[i] = ci->stripe[i];
    board_icons_text(cs, icons, st, buf, len);
    size_t k = strlen(buf);
    if (reconstructed(ci))
        snprintf(buf + k, len - k, " (reconstructed)");
}

/* "1 science per icon" style investor bonus of card C's type. */
static void bonus_text(const foh_cardset *cs, const foh_card_info *ci, const board_style *st, char *buf, size_t len)
{
    int icon = foh_cardset_type_bonus_icon(cs, ci->type_index);
    if (icon < 0)
        snprintf(buf, len, "no investor bonus");
    else
        snprintf(buf, len, "investor bonus per %s", board_icon(cs, icon, st));
}

const char *board_player_name(const board_style *st, int p, char *buf, size_t len)
{
    if (st->names && st->names[p] && st->names[p][0])
        snprintf(buf, len, "P%d %s", p + 1, st->names[p]);
    else
        snprintf(buf, len, "P%d", p + 1);
    return buf;
}

static void print_market(FILE *out, foh_game *g, const board_style *st)
{
    const foh_cardset *cs = foh_game_cardset(g);
    fprintf(out, "%sMarket%s\n", st->colour ? TERM_BOLD : "", st->colour ? TERM_RESET : "");
    for (int i = 0; i < foh_game_market_size(g); i++) {
        int c = foh_game_market_card(g, i);
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        char name[160], stripe[BOARD_ICONS_TEXT], bonus[BOARD_ICONS_TEXT], who[128] = "", pn[80];
        board_card_name(cs, c, st, name, sizeof name);
        stripe_text(cs, &ci, st, stripe, sizeof stripe);
        bonus_text(cs, &ci, st, bonus, sizeof bonus);
        int inv = foh_game_investor(g, c);
        if (inv >= 0 && inv < FOH_NEUTRAL_INVESTOR)
            snprintf(who, sizeof who, "; %s invested %d", board_player_name(st, inv, pn, sizeof pn),
                     foh_game_invested_tokens(g, c));
        else if (inv >= FOH_NEUTRAL_INVESTOR)
            snprintf(who, sizeof who, "; the Banker invested %d", foh_game_invested_tokens(g, c));
        char line[BOARD_LINE];
        snprintf(line, sizeof line, "%s (age %s, %s, %s): stripe %s; %s%s", name, ci.age, ci.type, ci.timing,
                 stripe, bonus, who);
        board_wrap(out, st->width, 2, 6, line);
        if (ci.text && ci.text[0])
            board_wrap(out, st->width, 6, 6, ci.text);
    }
}

/* Whether G is still in its setup: a variant's choice before the first
 * turn (the Banker's opening deals each player 2 starting cards to keep
 * one of: until then they are dealt, not owned). */
static int in_setup(foh_game *g)
{
    const foh_choice *ch = foh_game_choice(g);
    return ch && ch->card < 0 && foh_game_turn(g) == 0;
}

static void print_nation(FILE *out, foh_game *g, int p, int viewer, const board_style *st)
{
    const foh_cardset *cs = foh_game_cardset(g);
    int icons[FOH_MAX_ICONS] = {0}, attack = 0, defence = 0;
    foh_error err;
    char pn[80], text[BOARD_ICONS_TEXT];
    int ok = foh_game_icon_counts(g, p, icons, &err) == FOH_OK && foh_game_strengths(g, p, &attack, &defence, &err) == FOH_OK;
    board_icons_text(cs, icons, st, text, sizeof text);
    char line[BOARD_LINE];
    snprintf(line, sizeof line, "%s%s%s%s: %d tokens; icons %s; attack %d, defence %d%s", st->colour ? TERM_BOLD : "",
             board_player_name(st, p, pn, sizeof pn), p == viewer ? " (you)" : "", st->colour ? TERM_RESET : "",
             foh_game_tokens(g, p), ok ? text : "?", attack, defence,
             p == foh_game_to_act(g) ? "; to act" : "");
    board_wrap(out, st->width, 0, 6, line);
    if (!ok) {
        fprintf(out, "      (icons could not be counted: %s)\n", err.msg);
    }
    for (int t = 0; t < foh_cardset_type_count(cs); t++) {
        int cards[FOH_MAX_CARDS];
        int k = foh_game_nation_cards(g, p, t, cards, FOH_MAX_CARDS);
        if (k <= 0)
            continue;
        const char *place = foh_cardset_type_placement(cs, t);
        int stack = !strcmp(place, "stack");
        if (in_setup(g) && k > 1) {
            /* Dealt, not owned yet: the player keeps one of them. */
            size_t used = (size_t)snprintf(line, sizeof line, "%s: dealt", foh_cardset_type_name(cs, t));
            for (int i = 0; i < k && used < sizeof line; i++) {
                char name[160];
                board_card_name(cs, cards[i], st, name, sizeof name);
                used += (size_t)snprintf(line + used, sizeof line - used, "%s %s", i ? "," : "", name);
            }
            if (used < sizeof line)
                snprintf(line + used, sizeof line - used, " (one is kept, the others go back to the box)");
            board_wrap(out, st->width, 4, 8, line);
            continue;
        }
        /* A stack: the top card (the last) shows its effect; the others
         * only their stripes. Other placements: every card shows. */
        for (int i = stack ? k - 1 : 0; i < k; i++) {
            foh_card_info ci;
            foh_cardset_card(cs, cards[i], &ci);
            char name[160], stripe[BOARD_ICONS_TEXT];
            board_card_name(cs, cards[i], st, name, sizeof name);
            stripe_text(cs, &ci, st, stripe, sizeof stripe);
            const char *pending = !strcmp(ci.fires, "on_gain") && !foh_game_effect_fired(g, cards[i])
                                      ? "; effect not yet fired" : "";
            snprintf(line, sizeof line, "%s: %s (stripe %s%s)", foh_cardset_type_name(cs, t), name, stripe,
                     pending);
            board_wrap(out, st->width, 4, 8, line);
            if (ci.text && ci.text[0] && strcmp(ci.fires, "never"))
                board_wrap(out, st->width, 8, 8, ci.text);
        }
        if (stack && k > 1) {
            int covered[FOH_MAX_ICONS] = {0};
            for (int i = 0; i < k - 1; i++) {
                foh_card_info ci;
                foh_cardset_card(cs, cards[i], &ci);
                for (int x = 0; x < FOH_MAX_ICONS; x++)
                    covered[x] += ci.stripe[x];
            }
            board_icons_text(cs, covered, st, text, sizeof text);
            snprintf(line, sizeof line, "%d covered: stripes %s", k - 1, text);
            board_wrap(out, st->width, 8, 10, line);
        }
    }
    int inv = foh_game_investment(g, p);
    if (inv >= 0) {
        char name[160];
        board_card_name(cs, inv, st, name, sizeof name);
        snprintf(line, sizeof line, "invested %d in %s", foh_game_invested_tokens(g, inv), name);
        board_wrap(out, st->width, 4, 6, line);
    }
}

/* "Current Age 1; Supply 3, Reserve 36; Civilization deck 44 (I 10, ...)"
 * into LINE (BOARD_LINE bytes); returns the deck's size. */
static int state_text(foh_game *g, char *line)
{
    const foh_cardset *cs = foh_game_cardset(g);
    /* Cards left in the deck per age (public: the backs show the age),
     * by age name (two ages may share a value), in order of value. */
    int n = foh_game_deck_size(g), nages = 0, count[FOH_MAX_CARDS], value[FOH_MAX_CARDS];
    const char *age[FOH_MAX_CARDS];
    for (int i = 0; i < n && i < FOH_MAX_CARDS; i++) {
        foh_card_info ci;
        if (foh_cardset_card(cs, foh_game_deck_card(g, i), &ci) != FOH_OK)
            continue;
        int a = 0;
        while (a < nages && strcmp(age[a], ci.age))
            a++;
        if (a == nages) {
            for (; a > 0 && value[a - 1] > ci.age_value; a--) {
                age[a] = age[a - 1];
                count[a] = count[a - 1];
                value[a] = value[a - 1];
            }
            age[a] = ci.age;
            value[a] = ci.age_value;
            count[a] = 0;
            nages++;
        }
        count[a]++;
    }
    size_t k = (size_t)snprintf(line, BOARD_LINE, "Current Age %d; Supply %d, Reserve %d; Civilization deck %d (",
                                foh_game_current_age(g), foh_game_supply(g), foh_game_reserve(g), n);
    for (int a = 0; a < nages; a++) /* at most FOH_MAX_AGES names of < 48 bytes: fits */
        k += (size_t)snprintf(line + k, BOARD_LINE - k, "%s%s %d", a ? ", " : "", age[a], count[a]);
    snprintf(line + k, BOARD_LINE - k, "%s)", nages ? "" : "empty");
    return n;
}

/* The board's first line: the turn and who is to act. */
static void print_turn(FILE *out, foh_game *g, const board_style *st)
{
    char pn[80];
    if (foh_game_is_over(g)) {
        fprintf(out, "\n%s== The final board, after %d turns ==%s\n", st->colour ? TERM_BOLD : "", foh_game_turn(g),
                st->colour ? TERM_RESET : "");
        return;
    }
    fprintf(out, "\n%s== Turn %d: %s to act%s ==%s\n", st->colour ? TERM_BOLD : "", foh_game_turn(g) + 1,
            board_player_name(st, foh_game_to_act(g) >= 0 ? foh_game_to_act(g) : 0, pn, sizeof pn),
            foh_game_in_bonus(g) ? " (a bonus action)" : "", st->colour ? TERM_RESET : "");
}

void board_print(FILE *out, foh_game *g, int viewer, const board_style *st)
{
    const foh_cardset *cs = foh_game_cardset(g);
    char line[BOARD_LINE];
    print_turn(out, g, st);
    int n = state_text(g, line);
    size_t k;
    board_wrap(out, st->width, 0, 2, line);
    if (st->reveal && n > 0) {
        /* The whole order, however long the names: sized first. */
        size_t need = 64;
        for (int i = 0; i < n; i++) {
            foh_card_info ci;
            foh_cardset_card(cs, foh_game_deck_card(g, i), &ci);
            need += strlen(ci.name) + strlen(ci.age) + 6;
        }
        char *order = malloc(need);
        if (!order) {
            fprintf(out, "  (the deck order: out of memory)\n");
        } else {
            k = (size_t)snprintf(order, need, "Deck order (--reveal), top first: ");
            for (int i = 0; i < n; i++) {
                foh_card_info ci;
                foh_cardset_card(cs, foh_game_deck_card(g, i), &ci);
                k += (size_t)snprintf(order + k, need - k, "%s%s (%s)", i ? ", " : "", ci.name, ci.age);
            }
            board_wrap(out, st->width, 0, 2, order);
            free(order);
        }
    }
    print_market(out, g, st);
    fprintf(out, "%sNations%s\n", st->colour ? TERM_BOLD : "", st->colour ? TERM_RESET : "");
    for (int p = 0; p < foh_game_players(g); p++)
        print_nation(out, g, p, viewer, st);
}

void board_card_help(FILE *out, const foh_cardset *cs, int c, const board_style *st)
{
    foh_card_info ci;
    if (foh_cardset_card(cs, c, &ci) != FOH_OK)
        return;
    char name[160], stripe[BOARD_ICONS_TEXT], bonus[BOARD_ICONS_TEXT], line[BOARD_LINE];
    board_card_name(cs, c, st, name, sizeof name);
    stripe_text(cs, &ci, st, stripe, sizeof stripe);
    bonus_text(cs, &ci, st, bonus, sizeof bonus);
    snprintf(line, sizeof line, "%s (%s): age %s, %s, timing %s%s; stripe %s; %s", name, ci.id, ci.age, ci.type,
             ci.timing, ci.obsolete ? " (obsolete at final scoring)" : "", stripe, bonus);
    board_wrap(out, st->width, 0, 2, line);
    if (ci.text && ci.text[0])
        board_wrap(out, st->width, 2, 2, ci.text);
    if (ci.edition_note && strcmp(ci.edition_note, "same")) {
        snprintf(line, sizeof line, "Other editions: %s", ci.edition_note);
        board_wrap(out, st->width, 2, 2, line);
    }
    fprintf(out, "  defined at %s:%d\n", ci.file, ci.line);
}

/* Append to LINE (BOARD_LINE bytes, USED of them used) as snprintf does;
 * returns the new length (at most BOARD_LINE - 1). */
static size_t add(char *line, size_t used, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static size_t add(char *line, size_t used, const char *fmt, ...)
{
    if (used >= BOARD_LINE - 1)
        return BOARD_LINE - 1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line + used, BOARD_LINE - used, fmt, ap);
    va_end(ap);
    used += n > 0 ? (size_t)n : 0;
    return used < BOARD_LINE ? used : BOARD_LINE - 1;
}

/* Card C's stripe as "1 attack" with "*" when reconstructed (the compact
 * board's footnote says what the star means). */
static size_t add_stripe(char *line, size_t used, const foh_cardset *cs, const foh_card_info *ci,
                         const board_style *st)
{
    int icons[FOH_MAX_ICONS];
    char text[BOARD_ICONS_TEXT];
    for (int i = 0; i < FOH_MAX_ICONS; i++)
        icons[i] = ci->stripe[i];
    board_icons_text(cs, icons, st, text, sizeof text);
    return add(line, used, "%s%s", text, reconstructed(ci) ? "*" : "");
}

void board_print_compact(FILE *out, foh_game *g, int viewer, const board_style *st)
{
    const foh_cardset *cs = foh_game_cardset(g);
    char line[BOARD_LINE], pn[80], name[160];
    print_turn(out, g, st);
    state_text(g, line);
    board_wrap(out, st->width, 0, 2, line);
    const char *bold = st->colour ? TERM_BOLD : "", *reset = st->colour ? TERM_RESET : "";
    size_t k = add(line, 0, "%sMarket%s (* a stripe reconstructed, not printed):", bold, reset);
    for (int i = 0; i < foh_game_market_size(g); i++) {
        int c = foh_game_market_card(g, i);
        foh_card_info ci;
        foh_cardset_card(cs, c, &ci);
        board_card_name(cs, c, st, name, sizeof name);
        k = add(line, k, "%s %s (%s %s: ", i ? ";" : "", name, ci.age, ci.type);
        k = add_stripe(line, k, cs, &ci, st);
        int inv = foh_game_investor(g, c);
        if (inv >= 0 && inv < FOH_NEUTRAL_INVESTOR)
            k = add(line, k, "; %s invested %d", board_player_name(st, inv, pn, sizeof pn),
                    foh_game_invested_tokens(g, c));
        else if (inv >= FOH_NEUTRAL_INVESTOR)
            k = add(line, k, "; the Banker invested %d", foh_game_invested_tokens(g, c));
        k = add(line, k, ")");
    }
    board_wrap(out, st->width, 0, 2, line);
    snprintf(line, sizeof line, "%sNations%s (tokens; icons; attack/defence strength; the cards on top):", bold, reset);
    board_wrap(out, st->width, 0, 2, line);
    int setup = in_setup(g);
    for (int p = 0; p < foh_game_players(g); p++) {
        int icons[FOH_MAX_ICONS] = {0}, attack = 0, defence = 0;
        foh_error err;
        char text[BOARD_ICONS_TEXT];
        int ok = foh_game_icon_counts(g, p, icons, &err) == FOH_OK &&
                 foh_game_strengths(g, p, &attack, &defence, &err) == FOH_OK;
        board_icons_text(cs, icons, st, text, sizeof text);
        int tokens = foh_game_tokens(g, p);
        k = add(line, 0, "%s%s%s%s%s: %d token%s; %s; %d/%d;", bold, board_player_name(st, p, pn, sizeof pn),
                p == viewer ? " (you)" : "", p == foh_game_to_act(g) ? " to act" : "", reset, tokens,
                tokens == 1 ? "" : "s", ok ? text : "?", attack, defence);
        int any = 0;
        for (int t = 0; t < foh_cardset_type_count(cs); t++) {
            int cards[FOH_MAX_CARDS];
            int n = foh_game_nation_cards(g, p, t, cards, FOH_MAX_CARDS);
            int stack = n > 0 && !strcmp(foh_cardset_type_placement(cs, t), "stack");
            if (setup && n > 1) {
                k = add(line, k, "%s dealt", any++ ? "," : "");
                for (int i = 0; i < n; i++) {
                    board_card_name(cs, cards[i], st, name, sizeof name);
                    k = add(line, k, "%s %s", i ? " or" : "", name);
                }
                continue;
            }
            for (int i = stack ? n - 1 : 0; i < n; i++) {
                board_card_name(cs, cards[i], st, name, sizeof name);
                k = add(line, k, "%s %s", any++ ? "," : "", name);
                if (stack && n > 1)
                    k = add(line, k, " (+%d under)", n - 1);
            }
        }
        if (!any)
            k = add(line, k, " none");
        int inv = foh_game_investment(g, p);
        if (inv >= 0) {
            board_card_name(cs, inv, st, name, sizeof name);
            k = add(line, k, "; invested %d in %s", foh_game_invested_tokens(g, inv), name);
        }
        board_wrap(out, st->width, 2, 6, line);
    }
}

void board_icon_legend(FILE *out, const foh_cardset *cs, const board_style *st)
{
    char line[BOARD_LINE];
    size_t k = add(line, 0, "Icons:");
    for (int i = 0; i < foh_cardset_icon_count(cs); i++) {
        const char *sym = foh_cardset_icon_symbol(cs, i);
        /* The symbol is shown whenever the card set has one: the legend is
         * where a player who saw it elsewhere looks it up. */
        k = add(line, k, "%s %s%s%s", i ? "," : "", sym ? sym : "", sym ? " " : "", foh_cardset_icon_name(cs, i));
    }
    board_wrap(out, st->width, 0, 2, line);
    board_wrap(out, st->width, 0, 2,
               "A card's stripe is the icons its Nation gains from it (a covered card in a stack keeps its stripe, "
               "loses its effect); a stripe marked * or \"(reconstructed)\" is the card files' reconstruction, "
               "not what the printed card shows. The investor bonus: completing a card you invested in pays tokens from "
               "the Supply per icon of its kind (the magnifying glass) in your Nation. attack/defence: military strength (attack and defense icons and effects).");
}

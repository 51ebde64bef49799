/* any_html: foh sim --html for a card set of any ruleset: the JSON report
 * (any_sim and any_report_json) as one self-contained page of tables. No
 * script and no outside resource; every text from the card set is escaped. */
#include <stdio.h>
#include <string.h>

#include "any/any_report.h"
#include "common/cli.h"

static void text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else if ((unsigned char)*s >= 0x20 || *s == '\n')
            fputc(*s, f);
    }
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static double num(const json_t *o, const char *key) { return json_number_value(json_object_get(o, key)); }

static void rate_table(FILE *f, const char *title, const json_t *rows, double base)
{
    fprintf(f, "<h2>");
    text(f, title);
    fprintf(f, "</h2>\n<table><tr><th>name</th><th>plays a game</th><th>player-games</th><th>their win rate</th>"
               "<th>95%% interval</th><th>vs all (%.1f%%)</th></tr>\n", 100 * base);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        if (num(row, "player_games") <= 0)
            continue;
        fprintf(f, "<tr%s><td>", json_is_true(json_object_get(row, "outside_all_rows")) ? " class=star" : "");
        text(f, str(row, "name"));
        fprintf(f, "</td><td>%.2f</td><td>%.0f</td><td>%.1f%%</td><td>[%.1f%%, %.1f%%]</td><td>%+.1f</td></tr>\n",
                num(row, "plays_per_game"), num(row, "player_games"), 100 * num(row, "win_rate"), 100 * num(row, "low"),
                100 * num(row, "high"), 100 * (num(row, "win_rate") - base));
    }
    fprintf(f, "</table>\n");
}

int any_report_html(const json_t *summary, const char *path)
{
    FILE *f = cli_create(path);
    if (!f)
        return 0;
    const json_t *report = json_object_get(summary, "report");
    fprintf(f, "<!doctype html>\n<html><head><meta charset=utf-8><title>foh sim: ");
    text(f, str(summary, "title"));
    fprintf(f, "</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
               "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child{text-align:left}"
               ".star{background:#fff3c4}</style></head><body>\n<h1>");
    text(f, str(summary, "title"));
    fprintf(f, "</h1>\n<p>%lld games, %lld players, seed %lld, seats ", (long long)json_integer_value(json_object_get(summary, "games")),
            (long long)json_integer_value(json_object_get(summary, "players")),
            (long long)json_integer_value(json_object_get(summary, "seed")));
    text(f, str(summary, "seats"));
    fprintf(f, "; card set ");
    text(f, str(summary, "cards"));
    fprintf(f, ". Intervals are 95%% (Wilson); a highlighted row is outside its interval at 95%% for all the rows "
               "together (Bonferroni).</p>\n<h2>Seats</h2><table><tr><th>seat</th><th>wins</th><th>win rate</th>"
               "<th>95%% interval</th><th>mean score</th></tr>\n");
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(summary, "seat_wins"), i, row)
    fprintf(f, "<tr><td>P%lld</td><td>%.1f</td><td>%.1f%%</td><td>[%.1f%%, %.1f%%]</td><td>%.2f</td></tr>\n",
            (long long)json_integer_value(json_object_get(row, "seat")), num(row, "wins"),
            100 * num(row, "wins") / (double)json_integer_value(json_object_get(summary, "games")), 100 * num(row, "low"),
            100 * num(row, "high"), num(row, "mean_score"));
    fprintf(f, "</table>\n<h2>At the end: winners and the others</h2><table><tr><th>score line</th><th>winners</th>"
               "<th>others</th></tr>\n");
    json_array_foreach(json_object_get(report, "score_lines"), i, row)
    {
        fprintf(f, "<tr><td>");
        text(f, str(row, "label"));
        fprintf(f, "</td><td>%.2f</td><td>%.2f</td></tr>\n", num(row, "winners"), num(row, "others"));
    }
    fprintf(f, "</table>\n");
    double base = num(report, "all_cards_win_rate");
    rate_table(f, "Kinds of card: the players who played at least one", json_object_get(report, "kinds"), base);
    rate_table(f, "Cards: the players who played each", json_object_get(report, "cards"), base);
    fprintf(f, "</body></html>\n");
    int ok = !ferror(f);
    return fclose(f) == 0 && ok;
}

/* The self-contained HTML balance report of `foh sim --html` and
 * `foh merge --html`: the template tools/report.html (compiled in) with the
 * JSON report put in its data block. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"
#include "sim/sim_stats.h"

#define PLACEHOLDER "@REPORT_JSON@"

/* DATA (JSON) into OUT for a <script> block: '<', '>' and '&', which occur
 * only inside JSON strings, as \u escapes, so that no text of a card set
 * or a script ("</script>", "<!--") can end the block or change how the
 * HTML parser reads it. */
static int put_script_data(FILE *out, const char *data)
{
    for (const char *p = data; *p; p++) {
        int ok = *p == '<' ? fputs("\\u003c", out) >= 0 : *p == '>' ? fputs("\\u003e", out) >= 0
               : *p == '&' ? fputs("\\u0026", out) >= 0 : fputc(*p, out) != EOF;
        if (!ok)
            return 0;
    }
    return 1;
}

int sim_html_write(const char *path, const struct json_t *report)
{
    char *data = json_dumps(report, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_REAL_PRECISION(6));
    const char *at = strstr(foh_report_html, PLACEHOLDER);
    FILE *out = data && at ? cli_create(path) : NULL;
    int ok = out != NULL;
    if (out) {
        ok = fwrite(foh_report_html, 1, (size_t)(at - foh_report_html), out) == (size_t)(at - foh_report_html) &&
             put_script_data(out, data) && fputs(at + strlen(PLACEHOLDER), out) >= 0;
        ok = fclose(out) == 0 && ok;
    }
    free(data);
    return ok;
}

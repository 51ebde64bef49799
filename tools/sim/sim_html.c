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

int sim_html_write(const char *path, const struct json_t *report)
{
    /* JSON_ESCAPE_SLASH writes "/" as "\/": the data cannot contain "</script>". */
    char *data = json_dumps(report, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_REAL_PRECISION(6));
    const char *at = strstr(foh_report_html, PLACEHOLDER);
    FILE *out = data && at ? cli_create(path) : NULL;
    int ok = out != NULL;
    if (out) {
        ok = fwrite(foh_report_html, 1, (size_t)(at - foh_report_html), out) == (size_t)(at - foh_report_html) &&
             fputs(data, out) >= 0 && fputs(at + strlen(PLACEHOLDER), out) >= 0;
        ok = fclose(out) == 0 && ok;
    }
    free(data);
    return ok;
}

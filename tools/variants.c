/* foh variants: list the variants with their descriptions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_option_id VARIANTS_OPTIONS[] = {OPT_COUNT};
static const cli_command VARIANTS = {
    "variants", NULL, 0,
    "Lists the variants in the project's variants/ folder: the name to give to --variant\n"
    "and a one-line description.\n",
    VARIANTS_OPTIONS, NULL};

int cmd_variants(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&VARIANTS, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&VARIANTS, stdout);
        return st;
    }
    char root[1024];
    cli_variant_dir(".", root, sizeof root);
    root[strlen(root) - 2] = '\0'; /* the variants folder itself */
    char **names;
    int n = cli_list_dir(root, "", &names);
    if (n < 0) {
        cli_error("variants", "cannot read the folder %s", root);
        return CLI_DATA;
    }
    int status = CLI_OK;
    for (int i = 0; i < n; i++) {
        char dir[1100], probe[1200], name[64], desc[512];
        snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
        snprintf(probe, sizeof probe, "%s/variant.yaml", dir);
        FILE *f = fopen(probe, "r");
        if (!f)
            continue;
        fclose(f);
        foh_error err;
        if (foh_variant_describe(dir, name, sizeof name, desc, sizeof desc, &err) == FOH_OK) {
            char line[700];
            snprintf(line, sizeof line, "%-24s %s", names[i], desc);
            cli_line(stdout, line);
        } else {
            cli_error("variants", "%s", err.msg);
            status = CLI_DATA;
        }
    }
    cli_free_list(names, n);
    return status;
}

/* foh variants: list the variants with their descriptions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/cli.h"

static const cli_option_id VARIANTS_OPTIONS[] = {OPT_MODS, OPT_COUNT};
static const cli_command VARIANTS = {
    "variants", NULL, 0,
    "Lists the variants that --variant finds by name: the project's variants/ folder, then\n"
    "the folders of $FOH_MODS and --mods, each variant with a one-line description. A\n"
    "name found in an earlier folder hides the same name in a later one.\n",
    VARIANTS_OPTIONS, NULL};

/* Print the variants of folder ROOT (the Kth of O's search path DIRS)
 * that --variant NAME finds there, not in an earlier folder. */
static int list_folder(const cli_options *o, const char *const *dirs, int k, int heading)
{
    const char *root = dirs[k];
    char **names;
    int n = cli_list_dir(root, "", &names);
    if (n < 0 && k == 0 && !o->data.found) {
        cli_data_missing("variants", &o->data);
        return CLI_DATA;
    }
    if (n < 0) {
        cli_error("variants", "cannot read the folder %s", root);
        return CLI_DATA;
    }
    int status = CLI_OK;
    for (int i = 0; i < n; i++) {
        char dir[2100], found[2100], name[64], desc[512];
        snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
        if (!cli_find(o, "variants", names[i], "variant.yaml", found, sizeof found) || strcmp(found, dir))
            continue;
        if (heading) {
            printf("in ");
            cli_puts(stdout, root); /* from --mods or $FOH_MODS */
            printf(":\n");
            heading = 0;
        }
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

int cmd_variants(int argc, char **argv)
{
    cli_options o;
    int st = cli_parse(&VARIANTS, argc, argv, &o);
    if (st != CLI_OK || o.help) {
        if (o.help)
            cli_help(&VARIANTS, stdout);
        return st;
    }
    const char *dirs[CLI_MAX_SEARCH];
    int n = cli_search_path(&o, "variants", dirs, CLI_MAX_SEARCH);
    int status = CLI_OK;
    /* The project's own variants without a heading, as before; mod folders under theirs. */
    for (int k = 0; k < n; k++)
        if (list_folder(&o, dirs, k, k > 0) != CLI_OK)
            status = CLI_DATA;
    return status;
}

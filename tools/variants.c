/* foh variants: list the variants with their descriptions. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int cmd_variants(int argc, char **argv)
{
    if (argc > 0 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
        printf("usage: foh variants\n\nLists the variants in the project's variants/ folder: the name to give\n"
               "to --variant and a one-line description.\n");
        return CLI_OK;
    }
    if (argc > 0) {
        fprintf(stderr, "foh variants: takes no arguments (see foh variants --help)\n");
        return CLI_USAGE;
    }
    char root[1024];
    cli_variant_dir(".", root, sizeof root);
    root[strlen(root) - 2] = '\0'; /* the variants folder itself */
    DIR *d = opendir(root);
    if (!d) {
        fprintf(stderr, "foh variants: cannot open %s\n", root);
        return CLI_DATA;
    }
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;)
        if (e->d_name[0] != '.') {
            names[n] = malloc(strlen(e->d_name) + 1);
            if (names[n])
                strcpy(names[n++], e->d_name);
        }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    int status = CLI_OK;
    for (int i = 0; i < n; i++) {
        char dir[1100], name[64], desc[512];
        snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
        char probe[1200];
        snprintf(probe, sizeof probe, "%s/variant.yaml", dir);
        FILE *f = fopen(probe, "r");
        if (f) {
            fclose(f);
            foh_error err;
            if (foh_variant_describe(dir, name, sizeof name, desc, sizeof desc, &err) == FOH_OK) {
                printf("%-24s %s\n", names[i], desc);
            } else {
                fprintf(stderr, "foh variants: %s\n", err.msg);
                status = CLI_DATA;
            }
        }
        free(names[i]);
    }
    return status;
}

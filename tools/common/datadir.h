/* datadir: where foh finds the data it ships - the base card set and the
 * other card sets (cards/), the variants (variants/) and the Lua helpers
 * the card sets name (scripts/) - whether it runs from its build folder or
 * from an installed tree (docs/embedding.md, "Where foh finds its data"). */
#ifndef FOH_DATADIR_H
#define FOH_DATADIR_H

#define CLI_DATA_PATH 1024

/* The data folders found, and where they were looked for. */
typedef struct {
    char cards[CLI_DATA_PATH];    /* the base card set's folder (.../cards/base) */
    char variants[CLI_DATA_PATH]; /* the variants' folder (.../variants) */
    int found;                    /* 1: cards holds a game.yaml; 0: no place did (cards and variants are
                                   * then the last place tried, as if found) */
    char looked[4 * CLI_DATA_PATH]; /* the places tried, in order, for the error ("A, then B") */
} cli_data;

/* Find foh's data into D, trying in order: $FOH_DATA_DIR when set and not
 * empty (then no other place); the folder FOH_EXE_TO_DATA relative to the
 * program's own folder (/proc/self/exe: an installed tree's share/foh);
 * the source tree the program was built from (FOH_DEFAULT_CARDS and
 * FOH_DEFAULT_VARIANTS, exactly as compiled in). The first place whose
 * cards/base/game.yaml is readable wins. */
void cli_data_find(cli_data *d);

/* Print that foh's data was not found, naming the places D looked in and
 * how to say where it is (for COMMAND; NULL: just "foh"). */
void cli_data_missing(const char *command, const cli_data *d);

#endif

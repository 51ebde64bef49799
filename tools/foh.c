/* foh: the command-line program of The Flow of History rules engine. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char USAGE[] =
    "usage: foh COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  play   play one game between bots and print its log and scores (save, resume)\n"
    "  replay print a saved game's log and scores again\n"
    "  sim    play many bot games and print statistics\n"
    "  scenario  run scenario files: set-ups, steps, expectations\n"
    "  variants  list the variants (--variant NAME for play, sim, scenario)\n"
    "  merge  add the shards of a simulation into its report\n"
    "  compare  A/B: two configurations on the same seeds, differences with CIs\n"
    "\n"
    "'foh COMMAND --help' describes a command's options.\n"
    "exit status: 0 success, 1 bad card data or script error, 2 bad usage\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(USAGE, stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        fputs(USAGE, stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "play"))
        return cmd_play(argc - 2, argv + 2);
    if (!strcmp(argv[1], "replay"))
        return cmd_replay(argc - 2, argv + 2);
    if (!strcmp(argv[1], "sim"))
        return cmd_sim(argc - 2, argv + 2);
    if (!strcmp(argv[1], "scenario"))
        return cmd_scenario(argc - 2, argv + 2);
    if (!strcmp(argv[1], "variants"))
        return cmd_variants(argc - 2, argv + 2);
    if (!strcmp(argv[1], "merge"))
        return cmd_merge(argc - 2, argv + 2);
    if (!strcmp(argv[1], "compare"))
        return cmd_compare(argc - 2, argv + 2);
    fprintf(stderr, "foh: unknown command '%s'\n\n%s", argv[1], USAGE);
    return CLI_USAGE;
}

/* foh: the command-line program of The Flow of History rules engine. */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common/cli.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *what;
} COMMANDS[] = {
    {"play", cmd_play, "play one game between bots and print its log and scores (save, resume)"},
    {"replay", cmd_replay, "print a saved game's log and scores again"},
    {"legal", cmd_legal, "list the legal actions of a saved game's position"},
    {"check", cmd_check, "report every problem of a card set, its variants and scenarios (docs/modding.md)"},
    {"sim", cmd_sim, "play many bot games and print the balance report"},
    {"scenario", cmd_scenario, "run scenario files: set-ups, steps, expectations"},
    {"variants", cmd_variants, "list the variants (--variant NAME for play, sim, scenario)"},
    {"merge", cmd_merge, "add the shards of a simulation into its report"},
    {"compare", cmd_compare, "A/B: two configurations on the same seeds, differences with CIs"},
    {"tune", cmd_tune, "search the smallest set of changes meeting balance targets; write and verify a variant"},
    {"run", cmd_run, "run an experiment file: configurations, seats, games, metrics, targets, a sweep (docs/experiments.md)"},
    {"serve", cmd_serve, "a browser table: seats by link, bots in empty seats, replays (docs/serve.md)"},
    {"bench", cmd_bench, "measure the engine's and the bots' speed on this machine (docs/performance.md)"},
};
#define NCOMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: foh COMMAND [options]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-9s %s\n", COMMANDS[i].name, COMMANDS[i].what);
    fprintf(out, "\n'foh COMMAND --help' describes a command's options.\n"
                 "exit status: 0 success, 1 bad card data or script error, 2 bad usage\n");
}

/* Standard input, output or error closed when the program starts (foh ...
 * >&-): /dev/null opened read-only in its place, so that no file the
 * command opens takes its number (a report would go into a --json file),
 * and writing to it still fails (EBADF), as on the closed stream. */
static void hold_std_streams(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            int got = open("/dev/null", O_RDONLY);
            if (got >= 0 && got != fd)
                close(got); /* a lower number was free: it took that one */
        }
}

/* Whether everything written to standard output reached it (flushed and
 * closed without error); if not, says so on stderr with the cause. */
static int stdout_written(void)
{
    errno = 0;
    int err = fflush(stdout) != 0 ? errno : 0;
    int failed = err != 0 || ferror(stdout);
    if (failed && !err) {
        /* An earlier write failed and errno has changed since: the output is
         * cut short already; one newline more (ending its cut line) tells
         * the cause, if the failure lasts. */
        errno = 0;
        if (write(STDOUT_FILENO, "\n", 1) < 0)
            err = errno;
    }
    if (fclose(stdout) != 0) {
        failed = 1;
        err = err ? err : errno;
    }
    if (!failed)
        return 1;
    /* Not cli_error: it flushes stdout, closed now. */
    fprintf(stderr, "foh: cannot write standard output: %s\n", err ? strerror(err) : "a write failed");
    return 0;
}

/* Run the command of ARGV; its exit status. */
static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CLI_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], COMMANDS[i].name))
            return COMMANDS[i].run(argc - 2, argv + 2);
    cli_error(NULL, "unknown command '%s' (see foh --help)", argv[1]);
    return CLI_USAGE;
}

int main(int argc, char **argv)
{
    hold_std_streams();
#ifdef M_MMAP_THRESHOLD
    /* Blocks of 256 KiB and more straight from the system, whatever was
     * freed before: glibc would otherwise raise this threshold to the size
     * of the largest block freed, and take the next ones of that size from
     * its heap, cleared whole. Card sets, the sums of a simulation and the
     * memo's tables have room for 1,024 cards, of which a run touches its
     * own: foh tune, which makes and frees many, would hold them all. */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
    int status = run(argc, argv);
    /* Every command's report: lost output is an error (exit status 1). */
    if (!stdout_written() && status == CLI_OK)
        status = CLI_DATA;
    return status;
}

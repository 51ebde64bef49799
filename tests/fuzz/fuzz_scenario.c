/* Fuzz target: scenario files. The input is one scenario file run on the
 * base card set (tools/check/scenario_run.c): any shape of YAML must give a
 * malformed-scenario message or a result, never a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/scenario_run.h"

static char path[256];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        char dir[200];
        snprintf(dir, sizeof dir, "/tmp/foh-fuzz-scenario-%d", (int)getpid());
        mkdir(dir, 0700);
        snprintf(path, sizeof path, "%s/scenario.yaml", dir);
        /* The reports are not what is tested (malformed scenarios are still
         * named on stderr). */
        if (!freopen("/dev/null", "w", stdout))
            abort();
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    cli_options cli; /* the search path: the project's cards/ and variants/ */
    cli_defaults(&cli);
    scenario_options opt = {.cards = FOH_FUZZ_CARDS, .cli = &cli};
    scenario_stats stats = {0};
    scenario_run_file(path, &opt, &stats);
    scenario_stats_free(&stats);
    return 0;
}

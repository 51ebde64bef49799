/* Fuzz target: shard files of foh sim (--save-shard), as foh merge reads
 * them (tools/sim/merge.c, tools/sim/sim_stats.c). The input is one shard, or two
 * separated by a NUL byte (which JSON cannot hold), merged as
 * 'foh merge SHARD [SHARD]': any bytes must give a refusal naming the file
 * or the merged report, never a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"

static char path[2][256]; /* the harness's scratch files (one pair per process) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0][0]) {
        char dir[200];
        snprintf(dir, sizeof dir, "/tmp/foh-fuzz-shard-%d", (int)getpid());
        mkdir(dir, 0700);
        snprintf(path[0], sizeof path[0], "%s/a.json", dir);
        snprintf(path[1], sizeof path[1], "%s/b.json", dir);
        /* The report is not what is tested (refusals are still named on
         * stderr). */
        if (!freopen("/dev/null", "w", stdout))
            abort();
    }
    const uint8_t *nul = memchr(data, 0, size);
    size_t len[2] = {nul ? (size_t)(nul - data) : size, nul ? size - (size_t)(nul - data) - 1 : 0};
    const uint8_t *part[2] = {data, nul ? nul + 1 : NULL};
    int files = nul ? 2 : 1;
    for (int i = 0; i < files; i++) {
        FILE *f = fopen(path[i], "wb");
        if (!f)
            return 0;
        fwrite(part[i], 1, len[i], f);
        fclose(f);
    }
    /* cmd_merge reads its command's word before its arguments (cli_parse). */
    char *argv[] = {"foh", "merge", path[0], path[1], NULL};
    cmd_merge(files, argv + 2);
    fflush(stdout);
    return 0;
}

/* The parts of the foh program every command family shares (tools/common):
 * options (options.h), text for the terminal (output.h), output files
 * (files.h), progress and worker threads (progress.h); and the exit
 * statuses. */
#ifndef FOH_CLI_H
#define FOH_CLI_H

/* Exit statuses: 0 success, 1 bad card data or script error, 2 bad usage. */
enum { CLI_OK = 0, CLI_DATA = 1, CLI_USAGE = 2 };

#include "common/files.h"
#include "common/options.h"
#include "common/output.h"
#include "common/progress.h"

#endif

/* foh_error_set: the one place errors are formatted. */
#include <stdarg.h>
#include <stdio.h>

#include "foh/error.h"

foh_status foh_error_set(foh_error *err, foh_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

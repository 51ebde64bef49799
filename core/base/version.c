/* version: the library's version, as its headers give it (foh/api.h). */
#include "foh/api.h"

#define FOH_STR_(x) #x
#define FOH_STR(x) FOH_STR_(x)

const char *foh_version(void)
{
    return FOH_STR(FOH_VERSION_MAJOR) "." FOH_STR(FOH_VERSION_MINOR) "." FOH_STR(FOH_VERSION_PATCH);
}

/* FOH_API marks the engine library's public functions: the library is
 * built with hidden symbols by default, so only these are exported. */
#ifndef FOH_API_H
#define FOH_API_H

#define FOH_API __attribute__((visibility("default")))

#endif

/* FOH_API marks the engine library's public functions: the library is
 * built with hidden symbols by default, so only these are exported.
 *
 * The API and its stability (docs/embedding.md):
 *
 * - Public, and the only symbols an embedder may use: what the headers of
 *   core/include/foh/ (installed as include/foh/) declare - the FOH_API
 *   functions, the types, structs and macros they use - as documented
 *   there. foh/foh.h includes them all. Everything else (the library's
 *   hidden symbols, the core/ folders' own headers, the foh program's
 *   tools/) is internal and changes without notice.
 * - Before 1.0 (FOH_VERSION_MAJOR 0) each minor version (0.31 to 0.32) may
 *   change the API and the ABI: the shared library's SONAME carries the
 *   minor version (libfoh.so.0.31) so that a program runs only with the
 *   library it was built for. A patch version (0.31.0 to 0.31.1) changes
 *   neither: it fixes the library, adding no function and changing no
 *   declared type.
 * - From 1.0 on, the usual rule: within a major version functions are only
 *   added (a minor version), never removed or changed, and the SONAME is
 *   the major version.
 * - Games are deterministic: the same card set, options, seed and actions
 *   give the same game within a minor version (the rules engine's rulings
 *   may change between minor versions, as RULINGS.md records).
 *
 * FOH_VERSION_MAJOR/MINOR/PATCH are the version of these headers (equal to
 * the project's version in CMakeLists.txt, which checks it);
 * foh_version() is the version of the library actually loaded. */
#ifndef FOH_API_H
#define FOH_API_H

#define FOH_API __attribute__((visibility("default")))

#define FOH_VERSION_MAJOR 0
#define FOH_VERSION_MINOR 31
#define FOH_VERSION_PATCH 0

/* The version of the loaded library, "MAJOR.MINOR.PATCH" (e.g. "0.31.0"):
 * an embedder may check that its minor version is the headers' one. */
FOH_API const char *foh_version(void);

#endif

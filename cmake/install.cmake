# cmake --install (docs/embedding.md): the engine library and its public
# headers, the foh program, the data foh reads at run time under
# share/foh (the card sets, variants, the Lua helpers the card sets name,
# the Lua type stubs for editors, the JSON schemas), a pkg-config file
# (foh.pc) and a CMake package (find_package(foh): target foh::foh).
include(CMakePackageConfigHelpers)

set(FOH_INSTALL_DATA ${CMAKE_INSTALL_DATADIR}/foh)
set(FOH_INSTALL_CMAKE ${CMAKE_INSTALL_LIBDIR}/cmake/foh)
add_library(foh::foh ALIAS foh_core)

install(TARGETS foh_core EXPORT fohTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS foh RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY core/include/foh DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
# The base set names ../../scripts/effects.lua: cards/ and scripts/ keep
# their places side by side.
install(DIRECTORY cards variants scripts schemas DESTINATION ${FOH_INSTALL_DATA})

# pkg-config: relocatable (its prefix is found from the file's own place),
# so `cmake --install --prefix P` and a moved tree both work. No Requires:
# the public headers include only the C library's, and libfoh is shared
# (Lua and libyaml are its own dependencies).
file(RELATIVE_PATH FOH_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" FOH_PC_TO_PREFIX "${FOH_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/foh.pc.in ${CMAKE_BINARY_DIR}/foh.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/foh.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# CMake: foh::foh, with foh_DATA_DIR the installed data folder.
install(EXPORT fohTargets NAMESPACE foh:: DESTINATION ${FOH_INSTALL_CMAKE})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/fohConfig.cmake.in ${CMAKE_BINARY_DIR}/fohConfig.cmake
                              INSTALL_DESTINATION ${FOH_INSTALL_CMAKE} PATH_VARS FOH_INSTALL_DATA)
# Before 1.0 a minor version may break the API (foh/api.h): only the same
# minor version is compatible; from 1.0, the same major version.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(FOH_COMPATIBILITY SameMinorVersion)
else()
  set(FOH_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${CMAKE_BINARY_DIR}/fohConfigVersion.cmake COMPATIBILITY ${FOH_COMPATIBILITY})
install(FILES ${CMAKE_BINARY_DIR}/fohConfig.cmake ${CMAKE_BINARY_DIR}/fohConfigVersion.cmake
        DESTINATION ${FOH_INSTALL_CMAKE})

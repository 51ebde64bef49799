# The same seed prints the same game as the recorded golden files: rule
# numbers moved into data, events and added actions must not change the
# printed game. Each entry: output file | the foh arguments.
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
set(cases
  "play-random-4p-seed7.txt|play --players 4 --seed 7 --seats random"
  "play-greedy-3p-seed32.txt|play --players 3 --seed 32 --seats greedy"
  "play-banker-2p-seed5.txt|play --players 2 --seed 5 --seats random --variant two-player-banker"
  "play-korean-4p-seed3.txt|play --players 4 --seed 3 --seats random --variant korean-edition"
  "sim-random-4p-300.txt|sim --players 4 --games 300 --seed 11 --seats random")
foreach(c ${cases})
  string(FIND "${c}" "|" bar)
  string(SUBSTRING "${c}" 0 ${bar} name)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${c}" ${bar} -1 args)
  separate_arguments(parts UNIX_COMMAND "${args}")
  execute_process(COMMAND ${FOH} ${parts} WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE got ERROR_QUIET
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh ${parts} exited with ${rc}")
  endif()
  string(REPLACE "${SRC}/" "<src>/" got "${got}") # the card set's path, wherever the clone is
  foh_strip_provenance(got)
  file(READ ${SRC}/tests/golden/${name} want)
  if(NOT got STREQUAL want)
    file(WRITE ${OUT}/golden-${name} "${got}")
    message(FATAL_ERROR "foh ${parts}: output differs from tests/golden/${name} (got: ${OUT}/golden-${name})")
  endif()
  message(STATUS "${name}: identical")
endforeach()

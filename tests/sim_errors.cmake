# foh sim with a card whose script fails in some games: by default the run
# stops naming the game, seed, card and script line (exit 1); with
# --on-error skip those games are left out, counted, and named on stderr,
# and the report does not depend on the number of threads.
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
set(variant ${SRC}/tests/sim-errors/broken-working-animal)
execute_process(COMMAND ${FOH} sim --games 30 --seed 3 --variant ${variant}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "game [0-9]+ \\(seed [0-9]+\\): P[0-9] \\(random\\) playing '[^']*': card 'working_animal' \\(on_gain\\): [^\n]*variant.yaml:8: working animal is broken")
  message(FATAL_ERROR "stop: status ${rc}, stderr:\n${err}")
endif()
# With 2 threads the other worker stops too (this once hung).
execute_process(COMMAND ${FOH} sim --games 30 --seed 3 --variant ${variant} --threads 2
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 1 OR NOT err MATCHES "card 'working_animal'")
  message(FATAL_ERROR "stop with 2 threads: status ${rc}, stderr:\n${err}")
endif()
foreach(threads 1 2)
  execute_process(COMMAND ${FOH} sim --games 30 --seed 3 --variant ${variant} --on-error skip --threads ${threads}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out${threads} ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "skip: status ${rc}:\n${err}")
  endif()
endforeach()
foh_strip_provenance(out1)
foh_strip_provenance(out2)
if(NOT out1 STREQUAL out2)
  message(FATAL_ERROR "the report differs with 2 threads")
endif()
if(NOT out1 MATCHES "^([0-9]+) games,[^\n]*\n(variant [^\n]*\n)*skipped: ([0-9]+) game")
  message(FATAL_ERROR "no skipped line:\n${out1}")
endif()
set(played ${CMAKE_MATCH_1})
set(skipped ${CMAKE_MATCH_3})
math(EXPR total "${played} + ${skipped}")
if(NOT total EQUAL 30 OR skipped LESS 1)
  message(FATAL_ERROR "played ${played} + skipped ${skipped} != 30")
endif()
string(REGEX MATCHALL "skipped game [0-9]+ \\(seed [0-9]+\\): [^\n]*card 'working_animal'" named "${err}")
list(LENGTH named nnamed)
if(NOT nnamed EQUAL skipped)
  message(FATAL_ERROR "${skipped} games skipped but ${nnamed} named on stderr:\n${err}")
endif()
message(STATUS "${played} played, ${skipped} skipped")

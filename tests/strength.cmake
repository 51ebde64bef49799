# foh bench --strength (issue 31): a round robin of bot kinds, with
# Bradley-Terry ratings and bootstrap intervals; ISMCTS with the random
# opponent model is a seat spec of its own; a bad model is refused; the
# report is the same whatever the threads.
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
foreach(t 1 2)
  execute_process(COMMAND ${FOH} bench --strength --seats random,greedy,ismcts:2:random --games 12 --seed 4
                          --threads ${t} --json ${OUT}/strength${t}.json
                  OUTPUT_VARIABLE out${t} ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh bench --strength --threads ${t}: exit ${rc}: ${err}")
  endif()
endforeach()
foh_strip_provenance(out1)
foh_strip_provenance(out2)
if(NOT out1 STREQUAL out2)
  message(FATAL_ERROR "--threads 1 and 2 differ:\n${out1}\n${out2}")
endif()
foreach(what "\nrandom +greedy +[0-9.]+% \\[ *[0-9.]+, +[0-9.]+\\] +[-+][0-9.]+ \\["
             "\nratings: Bradley-Terry on the Elo scale"
             "\n  greedy +\\+[0-9]+ \\[ *\\+[0-9]+, +\\+[0-9]+\\]\n"
             "\n  ismcts:2:random +[-+][0-9]+ \\[")
  if(NOT out1 MATCHES "${what}")
    message(FATAL_ERROR "the report lacks ${what}:\n${out1}")
  endif()
endforeach()
file(READ ${OUT}/strength1.json j)
string(JSON n LENGTH "${j}" ratings)
string(JSON greedy GET "${j}" ratings 1 elo)
string(JSON low GET "${j}" ratings 1 low)
if(NOT n EQUAL 3 OR greedy LESS 200 OR low LESS 0)
  message(FATAL_ERROR "strength JSON: ${n} ratings, greedy ${greedy} (low ${low}): greedy should beat random clearly")
endif()
execute_process(COMMAND ${FOH} bench --strength --seats greedy,ismcts:2:clever --games 2
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "unknown player 'ismcts:2:clever'")
  message(FATAL_ERROR "a bad opponent model: exit ${rc}: ${err}")
endif()
message(STATUS "greedy rated ${greedy} above random")

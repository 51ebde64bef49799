# foh sim with a card whose script fails in some games names the lowest
# failing game, as one thread does, whatever the number of threads and
# their timing: the same stderr, stdout and exit status over repeated runs
# with 1, 2 and 3 threads (and in a shard), and the command it gives plays
# that game alone into the same error.
set(variant ${SRC}/tests/sim-errors/broken-working-animal)
# Seed 11: games 13, 69 and 104 fail (among others); each worker of 2 or 3
# threads meets a different one first.
foreach(shard 1/1 2/2)
  unset(want_err)
  foreach(threads 1 2 3)
    foreach(run RANGE 1 5)
      execute_process(COMMAND ${FOH} sim --games 200 --seed 11 --variant ${variant} --threads ${threads}
                              --shard ${shard}
                      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
      if(NOT DEFINED want_err)
        set(want_rc ${rc})
        set(want_out "${out}")
        set(want_err "${err}")
      elseif(NOT rc STREQUAL want_rc OR NOT out STREQUAL want_out OR NOT err STREQUAL want_err)
        message(FATAL_ERROR "shard ${shard}, ${threads} threads, run ${run}: status ${rc}, stderr:\n${err}\n"
                            "stdout:\n${out}\nbut 1 thread gave status ${want_rc}, stderr:\n${want_err}\n"
                            "stdout:\n${want_out}")
      endif()
    endforeach()
  endforeach()
  if(shard STREQUAL 1/1)
    set(first 13)
  else()
    set(first 104) # the shard's games are 101-200, numbered as in the whole run
  endif()
  if(NOT want_rc EQUAL 1 OR NOT want_out STREQUAL ""
     OR NOT want_err MATCHES "^foh sim: game ${first} \\(seed ([0-9]+)\\): (P[0-9] \\(random\\) playing [^\n]*working animal is broken)\nfoh sim: game ${first} again, alone: foh play ([^\n]*)\n$")
    message(FATAL_ERROR "shard ${shard}: status ${want_rc}, stderr:\n${want_err}")
  endif()
  set(seed ${CMAKE_MATCH_1})
  set(what "${CMAKE_MATCH_2}")
  separate_arguments(again UNIX_COMMAND "${CMAKE_MATCH_3}")
  if(NOT again MATCHES "--seed;${seed};")
    message(FATAL_ERROR "the command does not play seed ${seed}: ${again}")
  endif()
  execute_process(COMMAND ${FOH} play ${again} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 1 OR NOT err STREQUAL "foh play: ${what}\n")
    message(FATAL_ERROR "foh play ${again}: status ${rc}, stderr:\n${err}\nwanted: ${what}")
  endif()
endforeach()

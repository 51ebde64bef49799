# An expansion folder outside the project (a copy of tests/data/expansion-example
# in the build tree) that extends the base set by name: it plays, simulates
# and passes its own scenarios when foh runs from another working directory.
set(exp ${OUT}/expansion-copy/merchants)
file(REMOVE_RECURSE ${OUT}/expansion-copy)
file(MAKE_DIRECTORY ${OUT}/expansion-copy/elsewhere)
file(COPY ${SRC}/tests/data/expansion-example/ DESTINATION ${exp})
set(cwd ${OUT}/expansion-copy/elsewhere)
foreach(cmd "scenario ${exp}/scenarios" "play --cards ${exp} --players 4 --seed 3 --seats greedy"
            "sim --cards ${exp} --players 4 --games 100 --seed 2 --seats random"
            "scenario --cards ../merchants ../merchants/scenarios")
  separate_arguments(args UNIX_COMMAND "${cmd}")
  execute_process(COMMAND ${FOH} ${args} WORKING_DIRECTORY ${cwd} OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh ${cmd} (in ${cwd}) exited with ${rc}: ${err}\n${out}")
  endif()
  if(cmd MATCHES "^scenario" AND NOT out MATCHES "4 passed, 0 failed")
    message(FATAL_ERROR "foh ${cmd}: ${out}")
  endif()
  if(cmd MATCHES "^sim" AND NOT out MATCHES "100 games")
    message(FATAL_ERROR "foh ${cmd}: ${out}")
  endif()
  message(STATUS "foh ${cmd}: ok")
endforeach()
# The expansion's cards are in the game: 70 cards, 3 of them new.
execute_process(COMMAND ${FOH} play --cards ${exp} --players 4 --seed 3 --seats greedy WORKING_DIRECTORY ${cwd}
                OUTPUT_VARIABLE out)
if(NOT out MATCHES "Insurance Guild|Toll Gate|Mercenaries")
  message(FATAL_ERROR "a game with the expansion never showed its cards:\n${out}")
endif()

# Card sets extending each other in a cycle, and a chain longer than the
# engine's limit of 8 folders, are refused with a message naming them.
set(bad ${OUT}/expansion-copy/bad)
file(WRITE ${bad}/a/game.yaml "name: a\nextend: [../b]\n")
file(WRITE ${bad}/b/game.yaml "name: b\nextend: [../a]\n")
execute_process(COMMAND ${FOH} play --cards ${bad}/a RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "card sets extend each other in a cycle: .*/a -> .*/b -> .*/a")
  message(FATAL_ERROR "an extend cycle: exit ${rc}: ${err}")
endif()
file(WRITE ${bad}/c0/game.yaml "name: c0\nextend: [base]\n")
foreach(i RANGE 1 8)
  math(EXPR j "${i} - 1")
  file(WRITE ${bad}/c${i}/game.yaml "name: c${i}\nextend: [../c${j}]\n")
endforeach()
execute_process(COMMAND ${FOH} play --cards ${bad}/c8 RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "more than 8 card set folders in one card set \\(the engine's limit\\)")
  message(FATAL_ERROR "a chain of 10 card set folders: exit ${rc}: ${err}")
endif()
message(STATUS "cycle and folder limit refused")

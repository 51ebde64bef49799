# Every command that writes a report to standard output says so and exits
# 1 when it cannot be written (a full disk: /dev/full), instead of exiting 0
# with the report lost; a closed standard output (>&-) too, without a crash.
set(dir ${OUT}/lost-output)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
# What the commands read: a saved game stopped half-way, and a shard.
execute_process(COMMAND ${FOH} play --seed 2 --save ${dir}/game.json --stop-after 40 RESULT_VARIABLE rc1 OUTPUT_QUIET)
execute_process(COMMAND ${FOH} sim --games 4 --save-shard ${dir}/shard.json RESULT_VARIABLE rc2 OUTPUT_QUIET
                ERROR_QUIET)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "could not make the save (${rc1}) or the shard (${rc2})")
endif()
set(commands
    "--help"
    "play --seed 1"
    "play --load ${dir}/game.json"
    "sim --games 4"
    "merge ${dir}/shard.json"
    "replay ${dir}/game.json"
    "legal ${dir}/game.json"
    "compare --games 4"
    "scenario ${SRC}/tests/scenarios/attacks.yaml"
    "check --games 1 --json -"
    "variants"
    "bench --quick --long-games 8"
    "tune --help"
    "sim --help")
foreach(command IN LISTS commands)
  separate_arguments(args UNIX_COMMAND "${command}")
  # The command works when its output can be written.
  execute_process(COMMAND ${FOH} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0 OR out STREQUAL "")
    message(FATAL_ERROR "foh ${command}: status ${rc}, no report on stdout?\n${err}")
  endif()
  execute_process(COMMAND ${FOH} ${args} RESULT_VARIABLE rc OUTPUT_FILE /dev/full ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "foh: cannot write standard output: No space left on device\n")
    message(FATAL_ERROR "foh ${command} > /dev/full: status ${rc}, stderr:\n${err}")
  endif()
  execute_process(COMMAND sh -c "\"$0\" \"$@\" >&-" ${FOH} ${args} RESULT_VARIABLE rc ERROR_VARIABLE err
                  TIMEOUT 120)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "foh: cannot write standard output: Bad file descriptor\n")
    message(FATAL_ERROR "foh ${command} >&-: status ${rc}, stderr:\n${err}")
  endif()
endforeach()
# A closed standard output is not taken by a file the command writes.
file(REMOVE ${dir}/report.json)
execute_process(COMMAND sh -c "\"$0\" \"$@\" >&-" ${FOH} sim --games 4 --json ${dir}/report.json
                RESULT_VARIABLE rc ERROR_QUIET TIMEOUT 120)
file(READ ${dir}/report.json json)
if(NOT rc EQUAL 1 OR NOT json MATCHES "^{" OR json MATCHES "games, 4 players")
  message(FATAL_ERROR "sim --json with stdout closed: status ${rc}, the JSON file:\n${json}")
endif()

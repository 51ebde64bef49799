# Games of 8 players (issue 28: at least 8 players where a ruleset allows
# them) on the test set tests/data/eight-players (the base set for 3 to 8
# players): foh play with greedy and ISMCTS seats, saved and replayed;
# greedy seats stopped, saved and resumed to the same end; foh check (its bot games at every allowed count); foh
# sim, whose shards (format 7: the rows of 8 players) merge into the same
# report. The Flow of History itself keeps 3 to 5: 8 are refused there.
#   cmake -DFOH=... -DSRC=... -DOUT=... -P eight_players.cmake
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
set(cards --cards ${SRC}/tests/data/eight-players)

execute_process(COMMAND ${FOH} play ${cards} --players 8 --seed 4
                        --seats greedy,ismcts:200,random,greedy,ismcts:200,random,greedy,random
                        --save ${OUT}/eight.save
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\nP8 " OR NOT out MATCHES "\nWinners?: P")
  message(FATAL_ERROR "foh play of 8 players: exit ${rc}: ${err}\n${out}")
endif()
# Greedy bots (deterministic) stopped midway, saved, and played on from
# the save: the same game as without the stop.
execute_process(COMMAND ${FOH} play ${cards} --players 8 --seed 4 --seats greedy OUTPUT_VARIABLE whole
                ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
if(rc EQUAL 0)
  execute_process(COMMAND ${FOH} play ${cards} --players 8 --seed 4 --seats greedy --stop-after 120
                          --save ${OUT}/eight-half.save
                  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
endif()
if(rc EQUAL 0)
  execute_process(COMMAND ${FOH} play --load ${OUT}/eight-half.save OUTPUT_VARIABLE resumed ERROR_VARIABLE err
                  RESULT_VARIABLE rc TIMEOUT 300)
endif()
if(NOT rc EQUAL 0 OR NOT resumed STREQUAL whole)
  message(FATAL_ERROR "an 8-player game saved and resumed: exit ${rc}: ${err}\n${whole}\n---\n${resumed}")
endif()
execute_process(COMMAND ${FOH} replay ${OUT}/eight.save OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh replay of an 8-player game: exit ${rc}: ${err}")
endif()

execute_process(COMMAND ${FOH} check ${cards} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
if(NOT rc EQUAL 0 OR NOT out MATCHES "foh check: 0 errors")
  message(FATAL_ERROR "foh check of the 8-player set: exit ${rc}: ${err}\n${out}")
endif()

set(run ${cards} --players 8 --games 40 --seed 2 --seats greedy,random,random,random,greedy,random,random,random
        --impact)
execute_process(COMMAND ${FOH} sim ${run} --json ${OUT}/eight.json OUTPUT_FILE ${OUT}/eight.txt ERROR_VARIABLE err
                RESULT_VARIABLE rc TIMEOUT 300)
file(READ ${OUT}/eight.txt out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "40 games" OR NOT out MATCHES "\n8th ")
  message(FATAL_ERROR "foh sim of 8 players: exit ${rc}: ${err}\n${out}")
endif()
foreach(i 1 2)
  execute_process(COMMAND ${FOH} sim ${run} --shard ${i}/2 --save-shard ${OUT}/eight-shard${i}.json
                  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh sim --shard ${i}/2 of 8 players: exit ${rc}: ${err}")
  endif()
endforeach()
file(READ ${OUT}/eight-shard1.json shard)
string(JSON format GET "${shard}" format)
if(NOT format STREQUAL "foh-sim-shard/7")
  message(FATAL_ERROR "a shard of 8 players has format ${format}")
endif()
execute_process(COMMAND ${FOH} merge --json ${OUT}/eight-merged.json ${OUT}/eight-shard1.json ${OUT}/eight-shard2.json
                OUTPUT_FILE ${OUT}/eight-merged.txt ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh merge of shards of 8 players: exit ${rc}: ${err}")
endif()
foreach(f txt json)
  file(READ ${OUT}/eight.${f} a)
  file(READ ${OUT}/eight-merged.${f} b)
  foh_strip_provenance(a)
  foh_strip_provenance(b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "the merged ${f} report of 8 players differs from the single run's")
  endif()
endforeach()

# The Flow of History's own rules: 3 to 5 players.
execute_process(COMMAND ${FOH} play --players 8 --seed 1 OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "played with 3, 4, 5 players, not 8")
  message(FATAL_ERROR "foh play --players 8 of the base set: exit ${rc}: ${err}")
endif()
execute_process(COMMAND ${FOH} play --players 9 --seed 1 OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "8")
  message(FATAL_ERROR "foh play --players 9: exit ${rc}: ${err}")
endif()

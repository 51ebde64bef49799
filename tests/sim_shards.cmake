# foh merge of 3 shards prints exactly the report (and JSON) of the single run.
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
set(run --players 2 --games 60 --seed 4 --seats greedy,random --variant two-player-banker)
execute_process(COMMAND ${FOH} sim ${run} --json ${OUT}/whole.json OUTPUT_FILE ${OUT}/whole.txt RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh sim exited with ${rc}")
endif()
foreach(i 1 2 3)
  execute_process(COMMAND ${FOH} sim ${run} --shard ${i}/3 --save-shard ${OUT}/shard${i}.json
                  OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh sim --shard ${i}/3 exited with ${rc}")
  endif()
endforeach()
execute_process(COMMAND ${FOH} merge --json ${OUT}/merged.json ${OUT}/shard1.json ${OUT}/shard2.json ${OUT}/shard3.json
                OUTPUT_FILE ${OUT}/merged.txt RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh merge exited with ${rc}")
endif()
foreach(f txt json)
  file(READ ${OUT}/whole.${f} a)
  file(READ ${OUT}/merged.${f} b)
  foh_strip_provenance(a)
  foh_strip_provenance(b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "the merged ${f} report differs from the single run's")
  endif()
endforeach()
# The same part twice would count its games twice; a hand-edited shard with
# an impossible player count is refused, not read past its arrays.
execute_process(COMMAND ${FOH} merge ${OUT}/shard1.json ${OUT}/shard1.json OUTPUT_QUIET ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "the same part as")
  message(FATAL_ERROR "foh merge of one shard twice: exit ${rc}: ${err}")
endif()
# A lost part is refused, naming it; --partial merges what there is, with a warning.
execute_process(COMMAND ${FOH} merge ${OUT}/shard1.json ${OUT}/shard3.json OUTPUT_QUIET ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "part 2 of 3 is missing")
  message(FATAL_ERROR "foh merge with part 2 of 3 missing: exit ${rc}: ${err}")
endif()
execute_process(COMMAND ${FOH} merge --partial ${OUT}/shard1.json ${OUT}/shard3.json OUTPUT_QUIET ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT err MATCHES "warning: part 2 of 3 is missing")
  message(FATAL_ERROR "foh merge --partial with part 2 of 3 missing: exit ${rc}: ${err}")
endif()
file(READ ${OUT}/shard2.json shard)
string(REGEX REPLACE "\"players\": *2" "\"players\": 100000000" shard "${shard}")
file(WRITE ${OUT}/bad-shard.json "${shard}")
execute_process(COMMAND ${FOH} merge ${OUT}/bad-shard.json OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "'players' must be a whole number from 1 to")
  message(FATAL_ERROR "foh merge of a shard with 100000000 players: exit ${rc}: ${err}")
endif()
# A shard of an older format (foh-sim-shard/5 had no sources) is
# refused, naming both versions.
string(REPLACE "foh-sim-shard/6" "foh-sim-shard/5" old "${shard}")
file(WRITE ${OUT}/old-shard.json "${old}")
execute_process(COMMAND ${FOH} merge ${OUT}/old-shard.json OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "old-shard.json: format foh-sim-shard/5, written by another version of foh; this one reads foh-sim-shard/6")
  message(FATAL_ERROR "foh merge of a foh-sim-shard/5 file: exit ${rc}: ${err}")
endif()

# --impact: 3 shards (one thread each) merge into exactly the impact table,
# text, JSON and HTML, of the single run (two threads), 61 games split unevenly.
set(run --players 4 --games 61 --seed 8 --seats greedy,random,random,random --impact)
execute_process(COMMAND ${FOH} sim ${run} --threads 2 --json ${OUT}/iwhole.json --html ${OUT}/iwhole.html
                        OUTPUT_FILE ${OUT}/iwhole.txt
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh sim --impact exited with ${rc}")
endif()
foreach(i 1 2 3)
  execute_process(COMMAND ${FOH} sim ${run} --threads 1 --shard ${i}/3 --save-shard ${OUT}/ishard${i}.json
                  OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh sim --impact --shard ${i}/3 --save-shard exited with ${rc}")
  endif()
endforeach()
execute_process(COMMAND ${FOH} merge --json ${OUT}/imerged.json --html ${OUT}/imerged.html ${OUT}/ishard3.json ${OUT}/ishard1.json
                        ${OUT}/ishard2.json
                OUTPUT_FILE ${OUT}/imerged.txt RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh merge of --impact shards exited with ${rc}")
endif()
file(READ ${OUT}/iwhole.txt a)
if(NOT a MATCHES "impact of gaining each card" OR NOT a MATCHES "\nArchers +[0-9]+ ")
  message(FATAL_ERROR "the single --impact run printed no impact table:\n${a}")
endif()
foreach(f txt json html)
  file(READ ${OUT}/iwhole.${f} a)
  file(READ ${OUT}/imerged.${f} b)
  foh_strip_provenance(a)
  foh_strip_provenance(b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "the merged --impact ${f} report differs from the single run's")
  endif()
endforeach()
file(READ ${OUT}/imerged.json j)
string(JSON ncards LENGTH "${j}" impact cards)
if(ncards LESS 40)
  message(FATAL_ERROR "the merged JSON has ${ncards} cards in its impact table")
endif()
# Shards with and without --impact are not merged: the table would miss games.
execute_process(COMMAND ${FOH} sim --players 4 --games 61 --seed 8 --seats greedy,random,random,random --threads 1
                        --shard 2/3 --save-shard ${OUT}/noimpact2.json
                OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
execute_process(COMMAND ${FOH} merge ${OUT}/ishard1.json ${OUT}/noimpact2.json OUTPUT_QUIET ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "noimpact2.json: has no --impact sums, while [^\n]*ishard1.json has them")
  message(FATAL_ERROR "foh merge of shards with and without --impact: exit ${rc}: ${err}")
endif()
# A damaged impact field is refused, naming the file and the field.
file(READ ${OUT}/ishard2.json ishard)
string(REGEX REPLACE "\"card_games\": *\\[" "\"card_games\": [\"x\"," ishard "${ishard}")
file(WRITE ${OUT}/bad-ishard.json "${ishard}")
execute_process(COMMAND ${FOH} merge ${OUT}/ishard1.json ${OUT}/bad-ishard.json OUTPUT_QUIET ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "bad-ishard.json: 'impact.card_games' must be an array of 128 whole numbers")
  message(FATAL_ERROR "foh merge of a damaged impact field: exit ${rc}: ${err}")
endif()
# Hand-edited sums no run could have written are refused, naming the file
# and the field: more games than the part's share, impact games that are not
# the shard's, no rows, a negative sum of squares. A shard whose --impact
# sums overflowed is named.
file(READ ${OUT}/shard2.json shard)
string(JSON g GET "${shard}" sums 0)
math(EXPR g "${g} + 7")
string(JSON edited SET "${shard}" sums 0 ${g})
file(WRITE ${OUT}/more-games.json "${edited}")
execute_process(COMMAND ${FOH} merge ${OUT}/shard1.json ${OUT}/more-games.json ${OUT}/shard3.json OUTPUT_QUIET
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "more-games.json: holds 27 games and 0 skipped [^\n]*part 2 of 3 of the run's 60 games has 20")
  message(FATAL_ERROR "foh merge of a shard with 7 games added: exit ${rc}: ${err}")
endif()
file(READ ${OUT}/ishard2.json ishard)
set(edits "impact games 0 21" "impact rows 0 0" "impact card_sq 0 -1" "impact overflow true")
set(expect "bad-impact.json: 'impact.games' is 21, while the shard holds 20 games"
           "bad-impact.json: 'impact.rows' is 0, while 'impact.all'.0. counts"
           "bad-impact.json: 'impact.card_sq'.0. is a sum of squares, and negative"
           "warning: [^\n]*bad-impact.json: its --impact sums overflowed")
foreach(i 0 1 2 3)
  list(GET edits ${i} e)
  list(GET expect ${i} x)
  string(REPLACE " " ";" e "${e}")
  string(JSON edited SET "${ishard}" ${e})
  file(WRITE ${OUT}/bad-impact.json "${edited}")
  execute_process(COMMAND ${FOH} merge ${OUT}/ishard1.json ${OUT}/bad-impact.json ${OUT}/ishard3.json OUTPUT_QUIET
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(i EQUAL 3)
    set(want 0)
  else()
    set(want 1)
  endif()
  if(NOT rc EQUAL want OR NOT err MATCHES "${x}")
    message(FATAL_ERROR "foh merge of a shard edited (${e}): exit ${rc}: ${err}")
  endif()
endforeach()
# A foh tune shard is named as one, with the command that merges it.
string(REPLACE "foh-sim-shard/6" "foh-tune-shard/2" tuneshard "${shard}")
file(WRITE ${OUT}/tune-shard.json "${tuneshard}")
execute_process(COMMAND ${FOH} merge ${OUT}/tune-shard.json OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "tune-shard.json: a shard of foh tune [^\n]*foh tune --merge")
  message(FATAL_ERROR "foh merge of a foh tune shard: exit ${rc}: ${err}")
endif()

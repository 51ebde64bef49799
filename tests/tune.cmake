# foh tune on a deliberately broken variant (tests/data/broken-variant:
# Religious Tribe, a starting card, with 6 Culture icons instead of 1) with
# a small budget: weakening that card is among the top 3 patch notes, the
# variant folder is written and plays, and the output is the same on a
# second run with another number of threads. Also: the usage errors.
set(ARGS tune --variant ${SRC}/tests/data/broken-variant --target start-spread=5 --target length=100..200 --games 200 --budget 4000
         --verify-games 200 --seed 1 --out ${OUT}/tune-fixed)
execute_process(COMMAND ${FOH} ${ARGS} --threads 2 OUTPUT_VARIABLE first ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh tune: exit ${rc}\n${first}\n${err}")
endif()
message(STATUS "${first}")
# The patch notes: numbered lines after the heading; the broken card among the first three, its value decreased.
string(REGEX MATCH "\npatch notes[^\n]*\n(([0-9]+\\. [^\n]*\n)+)" notes "${first}")
set(notes "${CMAKE_MATCH_1}")
string(REGEX MATCH "(^|\n)([123])\\. Religious Tribe: culture icons on the stripe 6 -> ([0-9]+):" hit "${notes}")
if(NOT hit OR NOT CMAKE_MATCH_3 LESS 6)
  message(FATAL_ERROR "weakening Religious Tribe is not among the top 3 patch notes:\n${notes}")
endif()
message(STATUS "Religious Tribe 6 -> ${CMAKE_MATCH_3} Culture icons is patch note ${CMAKE_MATCH_2}")
if(NOT first MATCHES "\n[0-9]+ of [0-9]+ predictions held\n")
  message(FATAL_ERROR "no verification:\n${first}")
endif()
# Paired intervals: the broken card's patch note shows the starters' win
# rate with the paired difference and its interval, which contains the
# difference and is narrower, on average over the notes, than the same
# games taken as independent would give (tools/tune_paired.c; its
# arithmetic: ctest tune_paired).
string(REGEX MATCH "Religious Tribe: culture icons on the stripe 6 -> [0-9]+: [^\n]*starters' win rate [0-9.]+% -> [0-9.]+% \\(([-+][0-9.]+) \\[([-+][0-9.]+), ([-+][0-9.]+)\\]\\)"
       pnote "${notes}")
if(NOT pnote)
  message(FATAL_ERROR "no paired interval for Religious Tribe's starters:\n${notes}")
endif()
set(d ${CMAKE_MATCH_1})
set(lo ${CMAKE_MATCH_2})
set(hi ${CMAKE_MATCH_3})
if(d LESS lo OR d GREATER hi OR NOT d LESS 0)
  message(FATAL_ERROR "Religious Tribe's starters: the paired difference ${d} [${lo}, ${hi}] is not a lower rate inside its interval")
endif()
if(NOT first MATCHES "\npaired intervals: mean half-width ([0-9.]+) against ([0-9.]+) were the same games taken as independent")
  message(FATAL_ERROR "no paired interval summary:\n${first}")
endif()
if(NOT CMAKE_MATCH_1 LESS CMAKE_MATCH_2)
  message(FATAL_ERROR "the paired intervals (${CMAKE_MATCH_1}) are not narrower than unpaired ones (${CMAKE_MATCH_2})")
endif()
message(STATUS "paired half-width ${CMAKE_MATCH_1} against ${CMAKE_MATCH_2} unpaired")
# The verification compares paired differences: each row has the predicted
# difference [CI], its prediction interval and the measured difference [CI].
if(NOT first MATCHES "\nstarters of religious_tribe win \\(%\\) +[-+][0-9.]+ \\[ *[-+][0-9.]+, *[-+][0-9.]+\\] \\[ *[-+][0-9.]+, *[-+][0-9.]+\\] +[-+][0-9.]+ \\[ *[-+][0-9.]+, *[-+][0-9.]+\\] (held|missed)\n")
  message(FATAL_ERROR "no paired verification of Religious Tribe's starters:\n${first}")
endif()
# The variant folder: the fixed number, and it plays.
file(READ ${OUT}/tune-fixed/variant.yaml variant)
if(NOT variant MATCHES "\n  cards.religious_tribe.stripe.culture: [0-5]\n")
  message(FATAL_ERROR "the variant does not weaken Religious Tribe:\n${variant}")
endif()
execute_process(COMMAND ${FOH} sim --variant ${OUT}/tune-fixed --games 10 OUTPUT_VARIABLE sim ERROR_QUIET
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT sim MATCHES "^10 games")
  message(FATAL_ERROR "foh sim --variant ${OUT}/tune-fixed: exit ${rc}\n${sim}")
endif()
# Deterministic: the same output with one thread.
execute_process(COMMAND ${FOH} ${ARGS} --threads 1 OUTPUT_VARIABLE second ERROR_QUIET RESULT_VARIABLE rc)
string(REGEX REPLACE "in [0-9]+ s\n" "" a "${first}")
string(REGEX REPLACE "in [0-9]+ s\n" "" b "${second}")
string(REGEX REPLACE "2 threads" "T threads" a "${a}")
string(REGEX REPLACE "1 thread" "T threads" b "${b}")
if(NOT rc EQUAL 0 OR NOT a STREQUAL b)
  message(FATAL_ERROR "a second run differs (exit ${rc}):\n${second}")
endif()
# Usage errors: exit status 2 with a message.
foreach(bad "--shard;1/2" "--target;seat=2" "--target;length=9..3" "--budget;0" "--max-changes;9"
        "--tunable;nothing.matches.this")
  execute_process(COMMAND ${FOH} tune --games 20 ${bad} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "^foh tune: ")
    message(FATAL_ERROR "foh tune ${bad}: exit ${rc}, expected 2 with a message\n${err}")
  endif()
endforeach()

# foh tune on a deliberately broken variant (tests/data/broken-variant:
# Religious Tribe, a starting card, with 6 Culture icons instead of 1) with
# a small budget: weakening that card is among the top 3 patch notes, the
# variant folder is written and plays, and the output is the same on a
# second run with another number of threads. Also: the usage errors.
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
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
if(NOT first MATCHES "\ndirections: [0-9]+ confirmed, [0-9]+ contradicted, [0-9]+ not shown, [0-9]+ not predicted \\(of [0-9]+ measured\\); sizes: [0-9]+ within their prediction interval\n")
  message(FATAL_ERROR "no verification:\n${first}")
endif()
# Paired intervals: the broken card's patch note shows the starters' win
# rate with the paired difference and its interval, which contains the
# difference and is narrower, on average over the notes, than the same
# games taken as independent would give (tools/tune/tune_paired.c; its
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
if(NOT first MATCHES "\nstarters of religious_tribe win \\(%\\) +[-+][0-9.]+ \\[ *[-+][0-9.]+, *[-+][0-9.]+\\] \\[ *[-+][0-9.]+, *[-+][0-9.]+\\] +[-+][0-9.]+ \\[ *[-+][0-9.]+, *[-+][0-9.]+\\] (confirmed|CONTRADICTED|not shown \\(measured interval includes 0\\)|no direction predicted); size (as predicted|differs)\n")
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
foh_strip_provenance(a)
foh_strip_provenance(b)
if(NOT rc EQUAL 0 OR NOT a STREQUAL b)
  message(FATAL_ERROR "a second run differs (exit ${rc}):\n${second}")
endif()
# Usage errors: exit status 2 with a message.
foreach(bad "--shard;1/2" "--save-shard;x.json" "--merge;--games;20" "--target;seat=2" "--target;impact-band=-1" "--target;length=9..3" "--budget;0" "--max-changes;9"
        "--tunable;nothing.matches.this")
  execute_process(COMMAND ${FOH} tune --games 20 ${bad} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "^foh tune: ")
    message(FATAL_ERROR "foh tune ${bad}: exit ${rc}, expected 2 with a message\n${err}")
  endif()
endforeach()
# --help describes tune's --games, --shard and --save-shard, not foh sim's.
execute_process(COMMAND ${FOH} tune --help OUTPUT_VARIABLE help ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR help MATCHES "equal parts of the G games|'foh merge' adds shards|foh check: 12"
   OR NOT help MATCHES "\n  --games G +games of one full evaluation"
   OR NOT help MATCHES "\n  --shard i/n +screen only the i-th share of the single changes"
   OR NOT help MATCHES "\n  --save-shard FILE +write the shard's base and surviving single changes")
  message(FATAL_ERROR "foh tune --help: exit ${rc}, sim's or check's meaning of --games/--shard/--save-shard:\n${help}")
endif()
# Usage errors whose message must name what is wrong.
foreach(case "--games;20;--target;impact-band=1000|--target 'impact-band=1000': impact-band is a number of points above 0 and at most 100"
             "--games;20;--target;impact-band=0|--target 'impact-band=0': impact-band is a number of points above 0"
             "--merge;x.json;--seed;3|--seed is not allowed with --merge: "
             "--merge;x.json;--budget;300|--budget is not allowed with --merge: "
             "--merge;x.json;--shard;1/2|--shard is not allowed with --merge: "
             "--merge;x.json;--games;200|--games is not allowed with --merge: ")
  string(REPLACE "|" ";" case "${case}")
  list(POP_BACK case want)
  execute_process(COMMAND ${FOH} tune ${case} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(FIND "${err}" "${want}" at)
  if(NOT rc EQUAL 2 OR at LESS 0)
    message(FATAL_ERROR "foh tune ${case}: exit ${rc}, expected 2 with '${want}'\n${err}")
  endif()
endforeach()
# Stage 1's last round plays G games even when G is not n0 times a power
# of 2 (G 50: rounds of 12, 24 and 50 games), so that its survivors count
# as single changes at G games.
execute_process(COMMAND ${FOH} tune --games 50 --budget 600 --seed 1 --tunable "cards.theocracy.*" --verify-games 0
                --threads 2 OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\n  round 3: [0-9]+ candidates at 50 games, best "
   OR NOT out MATCHES "\nstage 1 done: [1-9][0-9]* single changes? beat the base at 50 games\n")
  message(FATAL_ERROR "G 50: stage 1's last round is not at 50 games or nothing beat the base (exit ${rc}):\n${out}\n${err}")
endif()
# No change found (the base meets the targets): --out writes nothing (the
# folder it made goes) and says so; the verification is skipped, saying so.
file(REMOVE_RECURSE ${OUT}/tune-none)
execute_process(COMMAND ${FOH} tune --games 20 --target length=1..1000 --seed 1 --out ${OUT}/tune-none
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR EXISTS ${OUT}/tune-none OR NOT out MATCHES "\n--out [^\n]*tune-none: nothing written: no change to write\n"
   OR NOT out MATCHES "\nverification skipped: no change to verify\n")
  message(FATAL_ERROR "no change: an empty variant written or no word of it (exit ${rc}):\n${out}\n${err}")
endif()
# The impact-band target (docs/tune.md): on the base game with random bots
# Apollo Program has the largest impact on the win. The base's impact band
# is foh sim --impact's estimate on the same games (the table's first row);
# the first patch note weakens Apollo Program and shows its impact falling,
# with a paired interval below 0; the verification checks its impact; the
# same output with 1 and 2 threads.
set(IARGS tune --target impact-band=5 --tunable "cards.apollo_program.*" --games 200 --budget 1500 --verify-games 200
          --seed 1)
execute_process(COMMAND ${FOH} ${IARGS} --threads 2 OUTPUT_VARIABLE ifirst ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh tune --target impact-band=5: exit ${rc}\n${ifirst}\n${err}")
endif()
message(STATUS "${ifirst}")
if(NOT ifirst MATCHES "\nbase \\(200 games\\):[^\n]* impact band ([0-9.]+) \\[[^\n]*\\] \\(apollo_program\\)")
  message(FATAL_ERROR "the base's impact band is not Apollo Program's:\n${ifirst}")
endif()
set(band ${CMAKE_MATCH_1})
execute_process(COMMAND ${FOH} sim --games 200 --seed 1 --seats random --impact --threads 2 OUTPUT_VARIABLE sim
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT sim MATCHES "\\(points of %\\)[^\n]*\nApollo Program +[0-9]+ +[0-9.]+% +[0-9.]+% +\\+([0-9.]+) ")
  message(FATAL_ERROR "foh sim --impact: Apollo Program is not first (exit ${rc}):\n${sim}")
endif()
if(NOT band STREQUAL CMAKE_MATCH_1)
  message(FATAL_ERROR "tune's impact band ${band} is not foh sim --impact's estimate ${CMAKE_MATCH_1} on the same games")
endif()
if(NOT ifirst MATCHES "\n1\\. Apollo Program: [^\n]* -> [0-9]+: [^\n]*impact \\+([0-9.]+) -> [-+]([0-9.]+) points \\(-[0-9.]+ \\[-[0-9.]+, -[0-9.]+\\]\\)")
  message(FATAL_ERROR "the first patch note does not lower Apollo Program's impact with an interval below 0:\n${ifirst}")
endif()
if(NOT ifirst MATCHES "\nimpact of apollo_program \\(points\\) +[-+][0-9.]+ \\[[^\n]*(confirmed|CONTRADICTED|not shown \\(measured interval includes 0\\)|no direction predicted); size (as predicted|differs)\n")
  message(FATAL_ERROR "the verification does not check Apollo Program's impact:\n${ifirst}")
endif()
execute_process(COMMAND ${FOH} ${IARGS} --threads 1 OUTPUT_VARIABLE isecond ERROR_QUIET RESULT_VARIABLE rc)
string(REGEX REPLACE "in [0-9]+ s\n" "" a "${ifirst}")
string(REGEX REPLACE "in [0-9]+ s\n" "" b "${isecond}")
string(REGEX REPLACE "2 threads" "T threads" a "${a}")
string(REGEX REPLACE "1 thread" "T threads" b "${b}")
foh_strip_provenance(a)
foh_strip_provenance(b)
if(NOT rc EQUAL 0 OR NOT a STREQUAL b)
  message(FATAL_ERROR "impact-band: a second run with 1 thread differs (exit ${rc}):\n${isecond}")
endif()

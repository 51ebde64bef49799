# foh tune on shards (docs/tune.md, "Tune on shards"): the broken variant
# of ctest tune (Religious Tribe with 6 Culture icons) screened by 2 shards,
# then merged: weakening that card is still among the top 3 patch notes, the
# variant is written and verified, and the merge gives the same output
# whatever the order of the files. Refused with their message: a shard of
# another run (another seed), a missing shard, the same shard twice, a cut
# file and a file whose sums do not match its games.
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
set(ARGS tune --variant ${SRC}/tests/data/broken-variant --target start-spread=5 --target length=100..200 --games 200
         --budget 4000 --threads 2)
foreach(i 1 2)
  execute_process(COMMAND ${FOH} ${ARGS} --seed 1 --shard ${i}/2 --save-shard ${OUT}/tune-shard-${i}.json
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\nshard ${i} of 2: screens [0-9]+ of them")
    message(FATAL_ERROR "foh tune --shard ${i}/2: exit ${rc}\n${out}\n${err}")
  endif()
endforeach()
set(MERGE tune --merge ${OUT}/tune-shard-1.json ${OUT}/tune-shard-2.json --verify-games 200 --threads 2)
execute_process(COMMAND ${FOH} ${MERGE} --out ${OUT}/tune-shard-fixed OUTPUT_VARIABLE first ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh tune --merge: exit ${rc}\n${first}\n${err}")
endif()
message(STATUS "${first}")
string(REGEX MATCH "\npatch notes[^\n]*\n(([0-9]+\\. [^\n]*\n)+)" notes "${first}")
set(notes "${CMAKE_MATCH_1}")
string(REGEX MATCH "(^|\n)([123])\\. Religious Tribe: culture icons on the stripe 6 -> ([0-9]+):" hit "${notes}")
if(NOT hit OR NOT CMAKE_MATCH_3 LESS 6)
  message(FATAL_ERROR "merged shards: weakening Religious Tribe is not among the top 3 patch notes:\n${notes}")
endif()
message(STATUS "merged: Religious Tribe 6 -> ${CMAKE_MATCH_3} Culture icons is patch note ${CMAKE_MATCH_2}")
if(NOT first MATCHES "\nshard 1 of 2 \\([^\n]*\\): [0-9]+ single changes? at 200 games"
   OR NOT first MATCHES "\ndirections: [0-9]+ confirmed, [0-9]+ contradicted, [0-9]+ not shown, [0-9]+ not predicted \\(of [0-9]+ measured\\); sizes: [0-9]+ within their prediction interval\n")
  message(FATAL_ERROR "merged shards: no shard summary or no verification:\n${first}")
endif()
file(READ ${OUT}/tune-shard-fixed/variant.yaml variant)
if(NOT variant MATCHES "\n  cards.religious_tribe.stripe.culture: [0-5]\n")
  message(FATAL_ERROR "merged shards: the variant does not weaken Religious Tribe:\n${variant}")
endif()
# Deterministic: the files in the other order give the same output.
execute_process(COMMAND ${FOH} tune --merge ${OUT}/tune-shard-2.json ${OUT}/tune-shard-1.json --verify-games 200
                        --threads 2 --out ${OUT}/tune-shard-fixed OUTPUT_VARIABLE second ERROR_QUIET RESULT_VARIABLE rc)
string(REGEX REPLACE ", [0-9]+ s here\n" "" a "${first}")
string(REGEX REPLACE ", [0-9]+ s here\n" "" b "${second}")
string(REGEX REPLACE "\nshard [12] of 2 \\([^\n]*" "" a "${a}")
string(REGEX REPLACE "\nshard [12] of 2 \\([^\n]*" "" b "${b}")
foh_strip_provenance(a)
foh_strip_provenance(b)
if(NOT rc EQUAL 0 OR NOT a STREQUAL b)
  message(FATAL_ERROR "merging the files in the other order differs (exit ${rc}):\n${second}")
endif()
# Refused, each with its message naming the problem (exit 1).
execute_process(COMMAND ${FOH} ${ARGS} --seed 2 --shard 2/2 --save-shard ${OUT}/tune-shard-seed2.json OUTPUT_QUIET
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh tune --seed 2 --shard 2/2: exit ${rc}\n${err}")
endif()
file(READ ${OUT}/tune-shard-1.json whole)
string(LENGTH "${whole}" len)
math(EXPR half "${len} / 2")
string(SUBSTRING "${whole}" 0 ${half} cut)
file(WRITE ${OUT}/tune-shard-cut.json "${cut}")
# Shard 1 with the length of the base's first game changed (a 9 put before
# it): its sums no longer match its games.
string(FIND "${whole}" "\"base\":{" at)
string(FIND "${whole}" "\"games\":[[" gat)
if(at LESS 0 OR gat LESS at)
  message(FATAL_ERROR "the test could not find the base's games in ${OUT}/tune-shard-1.json")
endif()
math(EXPR gat "${gat} + 10")
string(SUBSTRING "${whole}" 0 ${gat} before)
string(SUBSTRING "${whole}" ${gat} -1 after)
set(altered "${before}9${after}")
file(WRITE ${OUT}/tune-shard-altered.json "${altered}")
# Edited copies of shard 1, each refused naming the field at fault: an
# unknown top-level field, an unknown run field, run.card_count one less
# (the games' owner lists then disagree with the run, not the other way),
# run.games one less, a survivor with one game more than the run's, a
# survivor given twice, and fewer games spent than the shard's screening
# plays.
string(REPLACE "{\"format\":" "{\"extra\":1,\"format\":" edited "${whole}")
file(WRITE ${OUT}/tune-shard-extra.json "${edited}")
string(JSON edited SET "${whole}" run note "1")
file(WRITE ${OUT}/tune-shard-runextra.json "${edited}")
string(JSON cards GET "${whole}" run card_count)
math(EXPR cards "${cards} - 1")
string(JSON edited SET "${whole}" run card_count ${cards})
file(WRITE ${OUT}/tune-shard-cards.json "${edited}")
string(JSON edited SET "${whole}" run games 199)
file(WRITE ${OUT}/tune-shard-games.json "${edited}")
string(JSON nsurv LENGTH "${whole}" survivors)
if(nsurv LESS 1)
  message(FATAL_ERROR "the test needs a survivor in ${OUT}/tune-shard-1.json")
endif()
string(JSON game0 GET "${whole}" survivors 0 games 0)
string(JSON edited SET "${whole}" survivors 0 games 200 "${game0}")
file(WRITE ${OUT}/tune-shard-moregames.json "${edited}")
string(JSON surv0 GET "${whole}" survivors 0)
string(JSON edited SET "${whole}" survivors ${nsurv} "${surv0}")
file(WRITE ${OUT}/tune-shard-twice.json "${edited}")
string(JSON edited SET "${whole}" spent 10)
file(WRITE ${OUT}/tune-shard-spent.json "${edited}")
set(S1 ${OUT}/tune-shard-1.json)
set(S2 ${OUT}/tune-shard-2.json)
set(cases
    "${OUT}/tune-shard-extra.json,${S2}|tune-shard-extra.json: extra: unknown field"
    "${OUT}/tune-shard-runextra.json,${S2}|tune-shard-runextra.json: run.note: unknown field"
    "${OUT}/tune-shard-cards.json,${S2}|tune-shard-cards.json: run.card_count: ${cards}, but the base's first game has owners of [0-9]+ cards: the file may have been edited"
    "${OUT}/tune-shard-games.json,${S2}|tune-shard-games.json: run.games: 199, but the base has 200 games"
    "${OUT}/tune-shard-moregames.json,${S2}|tune-shard-moregames.json: survivors.0..games: must list the 200 games of the run .201 found: more than the run's"
    "${OUT}/tune-shard-twice.json,${S2}|tune-shard-twice.json: survivors.${nsurv}.: [^\n]* is twice in this shard"
    "${OUT}/tune-shard-spent.json,${S2}|tune-shard-spent.json: [0-9]+ survivors? and 10 games spent. while shard 1 of 2 screens [0-9]+ single changes"
    "${S1},${OUT}/tune-shard-seed2.json|tune-shard-seed2.json: another run than [^\n]*tune-shard-1.json's: run.seed differs"
    "${S1}|shard 2 of 2 is missing"
    "${S1},${S1}|tune-shard-1.json: shard 1 of 2. the same part as"
    "${OUT}/tune-shard-cut.json,${S2}|tune-shard-cut.json:1:[0-9]+: [^\n]*not a whole shard file of foh tune"
    "${OUT}/tune-shard-altered.json,${S2}|tune-shard-altered.json: base\\.sums\\.turns_sum: must be [0-9]+. the games' sum"
    "${OUT}/no-such-shard.json,${S2}|no-such-shard.json: cannot open the file \\(No such file")
foreach(case ${cases})
  # FILE,FILE|EXPECTED (a list of cases cannot hold ';')
  string(REPLACE "," ";" case "${case}")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts -1 expect)
  list(REMOVE_AT parts -1)
  execute_process(COMMAND ${FOH} tune --merge ${parts} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "^foh tune: [^\n]*${expect}")
    message(FATAL_ERROR "foh tune --merge ${parts}: exit ${rc}, expected 1 with a message matching '${expect}':\n${err}")
  endif()
endforeach()
# A shard beyond the single changes screened says it screens none.
execute_process(COMMAND ${FOH} ${ARGS} --seed 1 --shard 60/60 --save-shard ${OUT}/tune-shard-60.json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\nshard 60 of 60: screens none of them \\(only [0-9]+ are screened")
  message(FATAL_ERROR "foh tune --shard 60/60: exit ${rc}, no 'screens none'\n${out}\n${err}")
endif()

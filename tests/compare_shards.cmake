# foh compare on shards (docs/scaling.md): 3 shards of a compare merged by
# foh merge print exactly the single run's report (text, JSON and HTML, the
# provenance aside), both when B changes a card's number (the changed
# card's fate and impact come from the shards' sums) and when it changes
# only a rule; the same part twice, a missing part, shards of other
# options and a sim shard among compare shards (and the other way round)
# are refused with exit status 1, naming the files and parts.
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/plant.cmake)
set(root ${OUT}/compare-shards)
foh_plant_temple(${root} 6)

# RUN: the options; NAME: the files' prefix; FILES: the reports compared.
# The single run uses 2 threads, the shards 1 each, merged out of order.
function(shards_match name files)
  set(run ${ARGN})
  execute_process(COMMAND ${FOH} compare ${run} --threads 2 --json ${root}/${name}-whole.json
                          --html ${root}/${name}-whole.html
                  OUTPUT_FILE ${root}/${name}-whole.txt ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh compare ${run} exited with ${rc}: ${err}")
  endif()
  foreach(i 1 2 3)
    execute_process(COMMAND ${FOH} compare ${run} --threads 1 --shard ${i}/3 --save-shard ${root}/${name}${i}.json
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "foh compare ${run} --shard ${i}/3 exited with ${rc}: ${err}")
    endif()
  endforeach()
  execute_process(COMMAND ${FOH} merge --json ${root}/${name}-merged.json --html ${root}/${name}-merged.html
                          ${root}/${name}3.json ${root}/${name}1.json ${root}/${name}2.json
                  OUTPUT_FILE ${root}/${name}-merged.txt ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh merge of the ${name} compare shards exited with ${rc}: ${err}")
  endif()
  foreach(f ${files})
    file(READ ${root}/${name}-whole.${f} a)
    file(READ ${root}/${name}-merged.${f} b)
    foh_strip_provenance(a)
    foh_strip_provenance(b)
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "the merged ${name} compare ${f} report differs from the single run's")
    endif()
  endforeach()
endfunction()

# B: Temple's Culture 2 -> 6 (a card's number): the fates are watched.
shards_match(card "txt;json;html" --players 4 --games 45 --seed 6 --seats greedy,random,random,random --impact
             --b-cards ${root}/cards/t6)
file(READ ${root}/card-merged.txt text)
foreach(what "card Temple \\(temple\\): params.culture: 2 -> 6"
             "\nchanged card Temple \\(ranked "
             "  A: gained in [1-9][0-9]* games; at the end active"
             "  B: gained in [1-9][0-9]* games; at the end active"
             "impact on the win \\(points of %, docs/impact.md\\): A [-+][0-9.]+")
  if(NOT text MATCHES "${what}")
    message(FATAL_ERROR "the merged compare report lacks ${what}:\n${text}")
  endif()
endforeach()
# B: only a rule (a Market of 6): no card differs, no fate sums.
shards_match(rule "txt;json" --players 3 --games 31 --seed 9 --seats greedy,random,random --b-variant market-6)
file(READ ${root}/rule-merged.txt text)
if(NOT text MATCHES "variant market-6" OR text MATCHES "changed card")
  message(FATAL_ERROR "the merged rule-only compare report is not the one of a rule change:\n${text}")
endif()

# MESSAGE must be on stderr, with exit status 1, for foh merge ARGN.
function(merge_refused message)
  execute_process(COMMAND ${FOH} merge ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "${message}" OR NOT out STREQUAL "")
    message(FATAL_ERROR "foh merge ${ARGN}: exit ${rc}, expected 1 with '${message}': ${err}${out}")
  endif()
endfunction()
merge_refused("card2.json: part 2 of 3, the same part as [^\n]*card2.json: its games would count twice"
              ${root}/card1.json ${root}/card2.json ${root}/card2.json ${root}/card3.json)
merge_refused("part 2/3 of the foh compare run is missing" ${root}/card1.json ${root}/card3.json)
merge_refused("parts 1/3, 3/3 of the foh compare run are missing" ${root}/card2.json)
merge_refused("rule1.json \\(side A\\): 'players' differs from the first shard's"
              ${root}/card1.json ${root}/rule1.json)
# A part of another run (another seed): its side A is named.
execute_process(COMMAND ${FOH} compare --players 3 --games 31 --seed 10 --seats greedy,random,random
                        --b-variant market-6 --shard 2/3 --save-shard ${root}/seed10-2.json
                OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh compare --seed 10 --shard 2/3 exited with ${rc}")
endif()
merge_refused("seed10-2.json \\(side A\\): 'seed' differs from the first shard's"
              ${root}/rule1.json ${root}/seed10-2.json ${root}/rule3.json)
# A shard of foh sim, among compare shards and the other way round.
execute_process(COMMAND ${FOH} sim --players 3 --games 6 --seed 9 --seats greedy,random,random --shard 2/3
                        --save-shard ${root}/sim2.json
                OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh sim --save-shard exited with ${rc}")
endif()
merge_refused("sim2.json: a shard of foh sim \\(format foh-sim-shard/6\\), while [^\n]*rule1.json is a shard of foh compare"
              ${root}/rule1.json ${root}/sim2.json ${root}/rule3.json)
merge_refused("rule1.json: a shard of foh compare \\(format foh-compare-shard/1\\), not of foh sim"
              ${root}/sim2.json ${root}/rule1.json)
# A fate sum edited by hand breaks the laws of the sums.
file(READ ${root}/card1.json shard)
string(REGEX REPLACE "\"gains\":\\[[0-9]+," "\"gains\":[99999," forged "${shard}")
if(forged STREQUAL shard)
  message(FATAL_ERROR "could not edit a fate sum of card1.json")
endif()
file(WRITE ${root}/forged1.json "${forged}")
merge_refused("forged1.json \\(side A\\): card 0: 'gains' 99999, while its fates count"
              ${root}/forged1.json ${root}/card2.json ${root}/card3.json)
# Another ruleset's compare plays in one run.
execute_process(COMMAND ${FOH} compare --cards civ-draft --games 4 --shard 1/2 --save-shard ${root}/civ.json
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--shard and --save-shard are for The Flow of History's card sets only")
  message(FATAL_ERROR "foh compare --shard of civ-draft: exit ${rc}: ${err}")
endif()

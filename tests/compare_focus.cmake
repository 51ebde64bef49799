# foh compare leads with what changed (issue 31): a copy of the base set
# with Temple's Culture 2 -> 6, not named to the tool. The diff names the
# card and its param; the ranking of cards by the games alone puts Temple
# first; the changed card's fate (keepers against losers) and impact are
# shown in A and in B; the JSON says the same; the provenance names the
# copy by its content hash and not as the base set.
set(root ${OUT}/compare-focus)
include(${CMAKE_CURRENT_LIST_DIR}/plant.cmake)
foh_plant_temple(${root} 6)
execute_process(COMMAND ${FOH} compare --games 600 --seats greedy --seed 4 --threads 2 --impact
                        --b-cards ${root}/cards/t6 --json ${root}/compare.json
                OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh compare exited with ${rc}: ${err}")
endif()
foreach(what "\nwhat differs between A and B \\(read from their files\\):\n  card Temple \\(temple\\): params.culture: 2 -> 6\n"
             "files whose contents differ[^\n]*: 3-age-I.yaml\n"
             "\nchanged card Temple \\(ranked 1 of [0-9]+ by how far"
             "\nTemple price paid +[0-9.]+ +[0-9.]+ +\\+[0-9.]+ [^\n]*\\*\n"
             "  A: gained in [0-9]+ games; at the end active [0-9]+% \\[[0-9]+, [0-9]+\\], covered [0-9]+% [^\n]*lost [0-9]+%"
             "keepers \\(active or covered\\) win [0-9.]+% \\[[0-9.]+, [0-9.]+\\], margin [-+][0-9.]+ VP; losers win"
             "lost to Knights [0-9]+%"
             "impact on the win \\(points of %, docs/impact.md\\): A [-+][0-9.]+ \\[[^]]*\\], B [-+][0-9.]+"
             "\n   1 Temple +[0-9.]+ +[1-9][0-9]* +Temple [^\n]* changed\n"
             "\nB: [^\n]*t6\nprovenance: content hash [0-9a-f]+ \\(not the base set as shipped\\)"
             "^A: [^\n]*base\nprovenance: content hash [0-9a-f]+ \\(the base set as shipped\\)")
  if(NOT text MATCHES "${what}")
    message(FATAL_ERROR "foh compare's report lacks ${what}:\n${text}")
  endif()
endforeach()
file(READ ${root}/compare.json j)
string(JSON first GET "${j}" card_ranking 0 card)
string(JSON changed GET "${j}" card_ranking 0 changed)
string(JSON dcard GET "${j}" diff cards 0 card)
string(JSON kept GET "${j}" changed_cards 0 fate_b kept_win_rate value)
string(JSON lost GET "${j}" changed_cards 0 fate_b lost_win_rate value)
string(JSON base_a GET "${j}" a provenance base_set)
string(JSON base_b GET "${j}" b provenance base_set)
string(JSON hash_b GET "${j}" b provenance content_hash)
if(NOT first STREQUAL "temple" OR NOT changed OR NOT dcard STREQUAL "temple" OR kept LESS_EQUAL lost
   OR NOT base_a OR base_b OR NOT hash_b MATCHES "^[0-9a-f][0-9a-f][0-9a-f][0-9a-f]")
  message(FATAL_ERROR "compare.json: first ${first} changed ${changed} diff ${dcard} keepers ${kept} losers ${lost} "
                      "base ${base_a}/${base_b} hash ${hash_b}")
endif()
# An unchanged copy: nothing differs in the files, and they say so.
execute_process(COMMAND ${FOH} compare --games 100 --seats greedy --seed 4 --b-cards ${root}/cards/t6
                        --a-cards ${root}/cards/t6
                OUTPUT_VARIABLE same ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT same MATCHES "\n  nothing: the same cards, rules, scripts and variants")
  message(FATAL_ERROR "compare of a set with itself:\n${same}")
endif()
message(STATUS "Temple +4 ranked first; keepers win ${kept}%, losers ${lost}%")

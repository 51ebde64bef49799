# A card set of 1,000 cards loads and plays (issue 28: at least 1,024
# cards in a card set), and one of 1,025 is refused, naming the engine's
# limit. The sets are made here, in the build folder: the base set
# extended with copies of its cards of ages S and I to V (new ids and
# names), spread over the ages in the base set's proportions; The Future
# and The Internet stay the deck's last two cards, the Market's age A
# cards are not copied (the Market holds them all). The turn limit is
# raised so that a game plays through the deck to The Future. (Its Tank
# copies may ask a choice of more than FOH_MAX_OPTIONS cards late in a
# long game: the seeds below play without.)
#   cmake -DFOH=... -DSRC=... -DOUT=... -P many_cards.cmake
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)

# The card entries of the base set's FILE (one "- id:" each, with its
# lines), into the list variable OUT_VAR; ";" in them escaped as "\;".
function(card_entries file out_var)
  file(READ ${SRC}/cards/base/${file} text)
  string(REPLACE ";" "\\;" text "${text}")
  string(REGEX MATCHALL "\n- id: [^\n]*(\n[ #][^\n]*|\n)*" entries "${text}")
  set(${out_var} "${entries}" PARENT_SCOPE)
endfunction()

# A folder DIR holding the base set extended with copies up to TOTAL cards.
function(make_set dir total)
  file(REMOVE_RECURSE ${dir})
  file(WRITE ${dir}/game.yaml "name: The Flow of History with ${total} cards (ctest many_cards)\nextend: [base]\n"
                              "rules: {turn_limit: 5000}\n")
  set(base_cards 67)
  math(EXPR want "${total} - ${base_cards}")
  set(made 0)
  set(round 0)
  while(made LESS want)
    math(EXPR round "${round} + 1")
    foreach(f 1-age-S.yaml 3-age-I.yaml 4-age-II.yaml 5-age-III.yaml 6-age-IV.yaml 7-age-V.yaml)
      card_entries(${f} entries)
      set(out "")
      foreach(e IN LISTS entries)
        if(NOT made LESS want)
          break()
        endif()
        if(e MATCHES "\n- id: (the_future|the_internet)\n")
          continue()
        endif()
        string(REGEX REPLACE "\n- id: ([a-z0-9_]+)" "\n- id: \\1_copy${round}" e "${e}")
        string(REGEX REPLACE "\n  name: \"([^\"]*)\"" "\n  name: \"\\1 ${round}\"" e "${e}")
        string(APPEND out "${e}")
        math(EXPR made "${made} + 1")
      endforeach()
      file(APPEND ${dir}/copies-${f} "${out}")
    endforeach()
  endwhile()
endfunction()

make_set(${OUT}/many-cards-1000 1000)
make_set(${OUT}/many-cards-1025 1025)

# 1,000 cards: a game plays through the whole deck to The Future, with a
# greedy bot looking ahead on copies of the large position, and a short
# simulation reports on every card.
execute_process(COMMAND ${FOH} play --cards ${OUT}/many-cards-1000 --players 4 --seed 3
                        --seats greedy,random,random,random
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
if(NOT rc EQUAL 0 OR NOT out MATCHES "The Future enters the Market" OR NOT out MATCHES "\nWinners?: P")
  message(FATAL_ERROR "foh play of 1,000 cards: exit ${rc}: ${err}\n${out}")
endif()
set(run --cards ${OUT}/many-cards-1000 --players 4 --games 3 --seed 1 --impact)
execute_process(COMMAND ${FOH} sim ${run} --json ${OUT}/many-cards-1000.json
                OUTPUT_FILE ${OUT}/many-cards-1000.txt ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh sim of 1,000 cards: exit ${rc}: ${err}")
endif()
file(READ ${OUT}/many-cards-1000.json report)
string(JSON ncards LENGTH "${report}" cards)
if(NOT ncards EQUAL 1000)
  message(FATAL_ERROR "foh sim of 1,000 cards reports ${ncards} cards")
endif()
# Its shards (format 7: rows for its 1,000 cards) merge into the same report.
foreach(i 1 2)
  execute_process(COMMAND ${FOH} sim ${run} --shard ${i}/2 --save-shard ${OUT}/many-cards-shard${i}.json
                  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh sim --shard ${i}/2 of 1,000 cards: exit ${rc}: ${err}")
  endif()
endforeach()
file(READ ${OUT}/many-cards-shard1.json shard)
string(JSON format GET "${shard}" format)
string(JSON cards GET "${shard}" card_count)
if(NOT format STREQUAL "foh-sim-shard/7" OR NOT cards EQUAL 1000)
  message(FATAL_ERROR "a shard of 1,000 cards has format ${format} and ${cards} cards' rows")
endif()
execute_process(COMMAND ${FOH} merge --json ${OUT}/many-cards-merged.json ${OUT}/many-cards-shard1.json
                        ${OUT}/many-cards-shard2.json
                OUTPUT_FILE ${OUT}/many-cards-merged.txt ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh merge of shards of 1,000 cards: exit ${rc}: ${err}")
endif()
foreach(f txt json)
  file(READ ${OUT}/many-cards-1000.${f} a)
  file(READ ${OUT}/many-cards-merged.${f} b)
  foh_strip_provenance(a)
  foh_strip_provenance(b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "the merged ${f} report of 1,000 cards differs from the single run's")
  endif()
endforeach()
# A save of it loads again: replayed to the same position.
execute_process(COMMAND ${FOH} play --cards ${OUT}/many-cards-1000 --players 4 --seed 2 --seats random --stop-after 300
                        --save ${OUT}/many-cards.save
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
if(rc EQUAL 0)
  execute_process(COMMAND ${FOH} replay ${OUT}/many-cards.save OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc
                  TIMEOUT 300)
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a save of 1,000 cards, saved and replayed: exit ${rc}: ${err}")
endif()

# 1,025: refused at the card past the limit, naming it.
execute_process(COMMAND ${FOH} play --cards ${OUT}/many-cards-1025 --players 4 --seed 3
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
set(limit "copies-[^\n]*yaml:[0-9]+:[0-9]+: [^\n]*more than 1024 cards \\(the engine's limit\\)")
if(NOT rc EQUAL 1 OR NOT err MATCHES "${limit}")
  message(FATAL_ERROR "foh play of 1,025 cards: exit ${rc}: ${err}\n${out}")
endif()

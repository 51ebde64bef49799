# An expansion folder outside the project (a copy of tests/data/expansion-example
# in the build tree) that extends the base set by name: it plays, simulates
# and passes its own scenarios when foh runs from another working directory.
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
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

# --coverage counts the cards of every set and variant the scenarios load,
# a line per folder they come from: the expansion's 3 cards all exercised
# (its scenarios), the base set's 67 not all, and a card added by a variant
# named beside the scenario file.
set(cov ${OUT}/expansion-copy/coverage)
file(WRITE ${cov}/granary/variant.yaml [=[
name: granary
description: adds one card
cards:
  add:
    - id: granary
      name: "Granary"
      age: I
      type: construction
      timing: instant
      stripe: {harvest: 1}
      text: "Take 1 token from the Supply."
      effect: |
        return { on_gain = function(p) game.take_from_supply(p, 1) end }
]=])
file(WRITE ${cov}/s.yaml [=[
scenarios:
  - name: Granary - take 1 from the Supply
    variants: [granary]
    players: 3
    nations:
      1: {cards: [agrarian_tribe], tokens: 3}
    market:
      - {card: granary, investor: 1, tokens: 1}
    supply: 3
    steps:
      # The invested token goes to the Supply (4), Granary takes 1 back.
      - complete:
        expect: {tokens: {1: 4}, supply: 3}
]=])
execute_process(COMMAND ${FOH} scenario --coverage ${exp}/scenarios ${cov}/s.yaml WORKING_DIRECTORY ${cwd}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT out MATCHES "5 passed, 0 failed" OR NOT out MATCHES "exercised by passing scenarios: [0-9]+ of 71\n"
   OR NOT out MATCHES "/merchants: 3 of 3\n" OR NOT out MATCHES "/base: [0-9]+ of 67; not exercised:"
   OR NOT out MATCHES "/granary: 1 of 1\n")
  message(FATAL_ERROR "coverage of an expansion and a variant's card: exit ${rc}: ${err}\n${out}")
endif()
file(WRITE ${cov}/bad.yaml "name: x\nvariants: [no_such_variant]\nplayers: 3\nsteps: []\n")
execute_process(COMMAND ${FOH} scenario ${cov}/bad.yaml OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "bad.yaml:2:12: unknown variant 'no_such_variant': not in the project's variants/")
  message(FATAL_ERROR "a scenario naming an unknown variant: exit ${rc}: ${err}")
endif()
message(STATUS "coverage counts the expansion's and the variant's cards")

# Several --cards (a name found with --mods, from another directory): a
# save resumes and replays from elsewhere, and shards merge into the same
# report as the single run, with every set named in the header.
set(run --cards base --cards merchants --mods ${OUT}/expansion-copy --players 3 --seed 5)
execute_process(COMMAND ${FOH} play ${run} --seats greedy --save ${cov}/g.json --stop-after 40
                WORKING_DIRECTORY ${cwd} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
execute_process(COMMAND ${FOH} play --load g.json WORKING_DIRECTORY ${cov} OUTPUT_VARIABLE resumed
                ERROR_VARIABLE err2 RESULT_VARIABLE rc2)
execute_process(COMMAND ${FOH} play ${run} --seats greedy WORKING_DIRECTORY ${cwd} OUTPUT_VARIABLE whole)
string(REGEX MATCH "Final scores.*" resumed "${resumed}")
string(REGEX MATCH "Final scores.*" whole "${whole}")
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0 OR resumed STREQUAL "" OR NOT resumed STREQUAL whole)
  message(FATAL_ERROR "a game of two card sets saved and resumed: exit ${rc}/${rc2}: ${err}${err2}\n${resumed}\nvs\n${whole}")
endif()
file(READ ${cov}/g.json save)
if(NOT save MATCHES "\"more_cards\": \\[\n? *\"[^\"]*/merchants\"" OR NOT save MATCHES "\"mods\"")
  message(FATAL_ERROR "the save does not record the second card set and the mod folders:\n${save}")
endif()
foreach(i 1 2)
  execute_process(COMMAND ${FOH} sim ${run} --games 30 --shard ${i}/2 --save-shard ${cov}/s${i}.json
                  WORKING_DIRECTORY ${cwd} OUTPUT_QUIET RESULT_VARIABLE rc)
endforeach()
execute_process(COMMAND ${FOH} sim ${run} --games 30 WORKING_DIRECTORY ${cwd} OUTPUT_VARIABLE single)
execute_process(COMMAND ${FOH} merge s1.json s2.json WORKING_DIRECTORY ${cov} OUTPUT_VARIABLE merged
                ERROR_VARIABLE err RESULT_VARIABLE rc)
string(REGEX REPLACE "decision time per seat.*" "" single "${single}")
string(REGEX REPLACE "decision time per seat.*" "" merged "${merged}")
foh_strip_provenance(single)
foh_strip_provenance(merged)
if(NOT rc EQUAL 0 OR NOT merged STREQUAL single OR NOT merged MATCHES "card sets [^\n]*/base \\+ [^\n]*/merchants")
  message(FATAL_ERROR "shards of two card sets merged elsewhere: exit ${rc}: ${err}\n${merged}\nvs\n${single}")
endif()
message(STATUS "two card sets: saved, resumed elsewhere, shards merged")

# foh compare finds named card sets and variants along the same search path.
execute_process(COMMAND ${FOH} compare --b-cards merchants --b-variant granary --mods ${OUT}/expansion-copy
                        --mods ${cov} --games 10 --players 3 WORKING_DIRECTORY ${cwd}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "B: 10 games[^\n]*card set [^\n]*/merchants, variants: granary")
  message(FATAL_ERROR "foh compare with --mods: exit ${rc}: ${err}\n${out}")
endif()
message(STATUS "compare along the search path")

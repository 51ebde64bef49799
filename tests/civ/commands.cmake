# The civilization draft through the foh commands (tests/civ/CMakeLists.txt):
# cmake -DFOH=foh -DSRC=source -DOUT=dir -P commands.cmake
function(run expect_rc expect_text)
  execute_process(COMMAND ${FOH} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
                  WORKING_DIRECTORY ${SRC})
  string(REPLACE ";" " " args "${ARGN}")
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "foh ${args}: exit ${rc}, expected ${expect_rc}\n${out}${err}")
  endif()
  string(FIND "${out}${err}" "${expect_text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "foh ${args}: no '${expect_text}' in:\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# Games end for every player count, with random and greedy bots.
foreach(p 2 3 4 5 6)
  run(0 "turns per game" sim --cards civ-draft --players ${p} --games 200 --seats random --seed ${p})
endforeach()
foreach(p 2 3 4)
  run(0 "turns per game" sim --cards civ-draft --players ${p} --games 20 --seats greedy --seed ${p})
endforeach()
run(2 "this card set is played by 2 to 6 players, not 7" play --cards civ-draft --players 7)

# A human seat through a pipe, a full game against greedy and ISMCTS bots:
# the hand is private (the seat sees its own, not the others').
string(REPEAT "1\n" 3000 ones)
file(WRITE ${OUT}/civ-input.txt "${ones}")
execute_process(COMMAND ${FOH} play --cards civ-draft --players 4 --seats human,greedy,greedy,ismcts:20 --seed 2
                INPUT_FILE ${OUT}/civ-input.txt OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
                WORKING_DIRECTORY ${SRC})
if(NOT rc EQUAL 0 OR NOT out MATCHES "The game is over" OR NOT out MATCHES "Result: P[1-4]"
   OR NOT out MATCHES "\n    hand: " OR NOT out MATCHES "known in hand: ")
  message(FATAL_ERROR "foh play with a human seat: exit ${rc}\n${err}")
endif()

# The shipped card set, its scenarios and its variants.
run(0 "foh check: 0 errors" check --cards civ-draft --scenarios cards/civ-draft/scenarios)
file(GLOB variants RELATIVE ${SRC}/cards/civ-draft/variants ${SRC}/cards/civ-draft/variants/*/variant.yaml)
foreach(v ${variants})
  get_filename_component(name ${v} DIRECTORY)
  run(0 "turns per game" sim --cards civ-draft --variant cards/civ-draft/variants/${name} --players 3 --games 50)
endforeach()

# Mistakes in the cards are told at file:line, naming the card.
function(broken file from to expect)
  file(REMOVE_RECURSE ${OUT}/civ-broken)
  file(COPY ${SRC}/cards/civ-draft/ DESTINATION ${OUT}/civ-broken PATTERN scenarios EXCLUDE PATTERN variants EXCLUDE)
  file(READ ${OUT}/civ-broken/${file} text)
  string(REPLACE "${from}" "${to}" changed "${text}")
  if(changed STREQUAL text)
    message(FATAL_ERROR "broken(): '${from}' is not in ${file}")
  endif()
  file(WRITE ${OUT}/civ-broken/${file} "${changed}")
  run(1 "${expect}" check --cards ${OUT}/civ-broken)
endfunction()
broken(1-ancient.yaml "prestige: 3" "prestiege: 3" "1-ancient.yaml:382:5: card 'attack': unknown field 'prestiege' (did you mean 'prestige'?")
broken(1-ancient.yaml "boon: philosophy" "boon: filosophy" "1-ancient.yaml:13:11: card 'aristotle': boon 'filosophy' is no other card of the set")
broken(1-ancient.yaml "type: wonder" "type: wondre" "unknown card type 'wondre' (did you mean 'wonder'?")
broken(4-modern.yaml "effect: lose(target, params.vt)" "effect: lose(target, params.vt" "4-modern.yaml:338: card 'holocaust': ')' expected")
broken(game.yaml "base_hand: 3" "base_hands: 3" "game.yaml:19:3: unknown rule 'base_hands' (did you mean 'base_hand'?")
broken(5-victory.yaml "rank: lowest" "rank: lower" "unknown rank 'lower'")

# foh tune on the ruleset's own numbers: a target the rules numbers can
# meet (the game's length) is met with one change, checked on fresh seeds,
# and the variant written loads.
file(REMOVE_RECURSE ${OUT}/civ-tuned)
run(0 "change 1: rules." tune --cards civ-draft --players 3 --seats random --games 40 --param rules.
    --target length=100..180 --max-changes 1 --out ${OUT}/civ-tuned)
if(NOT out MATCHES "verified on 40 fresh games" OR NOT out MATCHES "length=100..180 +base +19[0-9][.][0-9]+ \\(missed\\) +tuned +1[0-7][0-9][.]")
  message(FATAL_ERROR "foh tune: no verified change:\n${out}")
endif()
run(0 "turns per game" sim --cards civ-draft --variant ${OUT}/civ-tuned --players 3 --games 20)
run(2 "--target speed=3: seat-spread=P" tune --cards civ-draft --target speed=3)

# The Events' helpers keep no state between calls (the sandbox refuses it).
broken(effects.lua "function destroy(target)\n" "local calls = 0\nfunction destroy(target)\n  calls = calls + 1\n"
       "effects.lua:10: helper 'destroy': writes to 'calls', a variable that outlives the call")

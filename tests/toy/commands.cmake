# The toy game through the foh commands (tests/toy/CMakeLists.txt):
# cmake -DFOH=foh -DTOY=tests/toy -DOUT=dir -P commands.cmake
function(run expect_rc expect_text)
  execute_process(COMMAND ${FOH} ${ARGN} --cards ${TOY}/cards OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
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

run(0 "Game over after 18 turns." play --players 3 --seats random,greedy,ismcts --seed 4)
set(first "${out}")
run(0 "Game over" play --players 3 --seats random,greedy,ismcts --seed 4)
if(NOT out STREQUAL first)
  message(FATAL_ERROR "foh play is not the same twice with one seed")
endif()
run(0 "round 1: P2 scores a Victory Token" play --players 2 --seats greedy --seed 1)
run(0 "Result: P1 wins" play --players 2 --seats greedy --seed 1)
run(0 "P1: 3 Victory Tokens, 35 points\nP2: 3 Victory Tokens, 29 points" play --players 2 --seats greedy --seed 1)
run(0 "95% interval" sim --players 3 --seats random,greedy,ismcts --games 200 --seed 2 --json ${OUT}/toy-sim.json)
file(READ ${OUT}/toy-sim.json json)
string(JSON games GET "${json}" games)
string(JSON ruleset GET "${json}" ruleset)
if(NOT games EQUAL 200 OR NOT ruleset STREQUAL "toy")
  message(FATAL_ERROR "toy-sim.json: games ${games}, ruleset ${ruleset}")
endif()
run(0 "0 errors, 0 warnings (toy: 12 random-bot games played, each twice; 0 scenarios run)" check)
run(0 "3 passed, 0 failed" scenario ${TOY}/scenarios/toy.yaml)
run(1 "illegal.yaml:5): step: 'play Harp (5)' is not a legal action here" scenario ${TOY}/scenario-errors/illegal.yaml)
run(2 "--impact: only for card sets of The Flow of History" sim --impact)
run(0 "95% interval" sim --players 2 --games 50 --html ${OUT}/toy-sim.html)
file(READ ${OUT}/toy-sim.html html)
if(NOT html MATCHES "<h2>Seats</h2>" OR NOT html MATCHES "<td>P2</td>")
  message(FATAL_ERROR "toy-sim.html has no table of the seats")
endif()
# A human seat: what it sees, its actions by number; a wrong number asked
# again; the end of the input saves the game (no --save: to
# foh-autosave.json) and stops it with the scores so far (saves.cmake
# tests saves).
file(WRITE ${OUT}/toy-input.txt "1\n2\nx\n9\n1\n")
file(REMOVE ${OUT}/foh-autosave.json)
execute_process(COMMAND ${FOH} play --players 2 --seats human,greedy --seed 1 --cards ${TOY}/cards
                INPUT_FILE ${OUT}/toy-input.txt WORKING_DIRECTORY ${OUT} OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
foreach(text "hand: Rope (3) Cart (6)" "  2. play Cart (6)" "round 2: P1 scores a Victory Token (6 points)"
        "a number from 1 to 2, please" "Stopped after 6 turns (P1 (human): the input ended)"
        "End of input: the game is saved in foh-autosave.json; resume with: foh play --load foh-autosave.json"
        "P1: 2 Victory Tokens, 17 points")
  string(FIND "${out}" "${text}" at)
  if(at EQUAL -1 OR NOT rc EQUAL 0)
    message(FATAL_ERROR "foh play with a human seat: exit ${rc}, no '${text}' in:\n${out}${err}")
  endif()
endforeach()
run(2 "--players" play --players 9)
# A typo in the toy's own files is told at its line, never ignored.
file(REMOVE_RECURSE ${OUT}/toy-typo)
file(COPY ${TOY}/cards/ DESTINATION ${OUT}/toy-typo)
file(APPEND ${OUT}/toy-typo/game.yaml "hand_sise: 3\n")
execute_process(COMMAND ${FOH} check --cards ${OUT}/toy-typo OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "game.yaml:8:1: unknown field 'hand_sise'")
  message(FATAL_ERROR "foh check on a toy game.yaml with a typo: exit ${rc}:\n${out}${err}")
endif()
# A ruleset no build has, or not a name: refused at its line, naming those known.
file(WRITE ${OUT}/toy-typo/game.yaml "ruleset: nosuch\n")
execute_process(COMMAND ${FOH} play --cards ${OUT}/toy-typo OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "game.yaml:1:10: ruleset: 'nosuch' is not a ruleset of this program \\(it knows: flow-of-history, [a-z, -]*toy\\)")
  message(FATAL_ERROR "foh play with an unknown ruleset: exit ${rc}:\n${out}${err}")
endif()
file(WRITE ${OUT}/toy-typo/game.yaml "ruleset: [toy]\n")
execute_process(COMMAND ${FOH} check --cards ${OUT}/toy-typo OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT "${out}${err}" MATCHES "ruleset: must be the name of a ruleset, not a list")
  message(FATAL_ERROR "foh check with a ruleset that is a list: exit ${rc}:\n${out}${err}")
endif()

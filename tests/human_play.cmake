# Human seats driven through a pipe (docs/play.md): a full 4-player game
# with one human whose scripted inputs also try every command and bad
# input; a hot-seat game of two humans with the Banker; end of input saving
# the game; --explain and --reveal; human seats refused outside foh play.
if(NOT OUT)
  message(FATAL_ERROR "OUT (a folder for the test's files) is not set")
endif()
set(dir ${OUT}/human)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})

# The script: commands and mistakes first, then always the first action
# (and 1 token when Invest asks how many).
set(script "help\nhelp temple\nabcdefghijabcdefghijabcdefghijabcdefghij\nscore\nhint\nlog 2\nfoo\n99\n1\nabc\n99\n2\nundo\nboard\n")
foreach(i RANGE 1 600)
  string(APPEND script "1\n")
endforeach()
file(WRITE ${dir}/inputs.txt "${script}")
# COLUMNS: lines as wide as the engine writes them, for the comparison
# with foh replay's score table below (the width is human_issue32's).
execute_process(COMMAND ${CMAKE_COMMAND} -E env COLUMNS=1000
                        ${FOH} play --players 4 --seed 3 --seats human:Ann,greedy,random,greedy --save ${dir}/game.json
                INPUT_FILE ${dir}/inputs.txt OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(WRITE ${dir}/transcript.txt "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a piped human game exited with ${rc}: ${err}")
endif()
foreach(want "P1 Ann, your action:" "Invest in Barracks \\(1 to 4 tokens; asks how many\\)"
        "Temple \\(temple\\): age I, construction" "Provides 2 Culture icons" "If the game ended now"
        "The greedy bot's best actions here" "\n  1\\. [^\n]+: [-+][0-9]+\\.[0-9] \\((ahead of|behind|level with) the best opponent\\)\n  2\\. " "Unknown command 'foo'" "That is longer than any command \\(31 characters, and 255 after it\\)"
        "There is no action 99 here: type a number from 1 to 6" "'abc' is not a number of tokens"
        "Invest: must place 1 to 4 tokens \\(P1 has 4\\), not 99" "Undone: back to P1 Ann's decision of turn 2"
        "Since your last decision:" "Nations\n" "Game over after [0-9]+ turns")
  if(NOT out MATCHES "${want}")
    message(FATAL_ERROR "the piped human game's transcript (${dir}/transcript.txt) lacks: ${want}")
  endif()
endforeach()
# The final score table is the game's: foh replay of the save prints the same.
execute_process(COMMAND ${FOH} replay ${dir}/game.json OUTPUT_VARIABLE replayed RESULT_VARIABLE rc)
# (Up to the players' lines: the table shows "1 other icon" where the
# engine's text says "1 other icons".)
string(REGEX MATCH "\nFinal scores[^:]*\n(P[0-9] [^\n]*\n)+" table "${out}")
string(REGEX MATCH "\nFinal scores[^:]*\n(P[0-9] [^\n]*\n)+" table2 "${replayed}")
if(NOT rc EQUAL 0 OR table STREQUAL "" OR NOT table STREQUAL table2 OR NOT table MATCHES "\nP1 +[0-9]+ +[0-9]+")
  message(FATAL_ERROR "final score table of the human game:\n${table}\nreplayed:\n${table2}")
endif()
message(STATUS "piped human game: ok")

# Hot-seat: two humans and the Banker, to the end.
execute_process(COMMAND ${FOH} play --players 2 --variant two-player-banker --seed 4 --seats human:Ann,human:Bob
                INPUT_FILE ${dir}/inputs.txt OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "P1 Ann, your action:" OR NOT out MATCHES "P2 Bob, your action:"
   OR NOT out MATCHES "Game over after [0-9]+ turns" OR NOT out MATCHES "Winner:")
  message(FATAL_ERROR "hot-seat Banker game: exit ${rc}: ${err}")
endif()
message(STATUS "hot-seat Banker game: ok")

# End of input: the game is saved and exits cleanly; it resumes.
file(WRITE ${dir}/short.txt "1\n1\n1\n")
# COLUMNS: the line is not wrapped, whatever the length of the folder's path.
execute_process(COMMAND ${CMAKE_COMMAND} -E env COLUMNS=1000 ${FOH} play --players 3 --seed 5 --seats human,greedy,greedy --save ${dir}/short.json
                INPUT_FILE ${dir}/short.txt OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "End of input: the game is saved in[ \n]+[^\n]*short.json;[ \n]+resume with")
  message(FATAL_ERROR "end of input: exit ${rc}: ${err}\n${out}")
endif()
execute_process(COMMAND ${FOH} play --load ${dir}/short.json --seats greedy OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "Game over after")
  message(FATAL_ERROR "resuming the game saved at end of input: exit ${rc}")
endif()

# End of input without --save: the autosave takes a free name and never
# overwrites an earlier one (foh-autosave.json, then foh-autosave-2.json,
# ...), for The Flow of History and for another ruleset's game alike.
set(auto ${dir}/autosaves)
file(REMOVE_RECURSE ${auto})
file(MAKE_DIRECTORY ${auto})
file(WRITE ${auto}/foh-autosave.json "an earlier game's autosave\n")
set(n 1)
foreach(game "--players;3;--seed;5;--seats;human,greedy,greedy" "--cards;civ-draft;--players;2;--seed;3;--seats;human,greedy")
  math(EXPR n "${n} + 1")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env COLUMNS=1000 ${FOH} play ${game} INPUT_FILE ${dir}/short.txt
                  WORKING_DIRECTORY ${auto} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "End of input: the game is saved in foh-autosave-${n}\\.json \\(the earlier autosaves are kept\\); resume with: foh play --load foh-autosave-${n}\\.json")
    message(FATAL_ERROR "end of input beside an autosave (foh play ${game}): exit ${rc}: ${err}\n${out}")
  endif()
  file(READ ${auto}/foh-autosave.json kept)
  if(NOT kept STREQUAL "an earlier game's autosave\n")
    message(FATAL_ERROR "foh play ${game} overwrote foh-autosave.json:\n${kept}")
  endif()
  execute_process(COMMAND ${FOH} play --load foh-autosave-${n}.json --seats greedy WORKING_DIRECTORY ${auto}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "(Game over|Final scores)")
    message(FATAL_ERROR "resuming foh-autosave-${n}.json: exit ${rc}: ${err}\n${out}")
  endif()
endforeach()
file(GLOB left ${auto}/*)
list(LENGTH left nleft)
if(NOT nleft EQUAL 3)
  message(FATAL_ERROR "the autosaves' folder holds ${left}, not the 3 saves")
endif()
message(STATUS "autosaves beside an earlier one: ok")

# --explain: each bot decision followed by its 3 best alternatives.
execute_process(COMMAND ${FOH} play --players 3 --seed 4 --seats greedy,ismcts:100,greedy --explain
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
string(REGEX MATCHALL "\n    why 1\\. [^\n]+: (value -?[0-9.]+|[0-9]+ simulations, mean reward [0-9.]+)\n        2\\. [^\n]+\n        3\\. [^\n]+"
       three "${out}")
string(REGEX MATCHALL "\n    why 1\\. [^\n]+\n        2\\. " two "${out}")
string(REGEX MATCHALL "\n    why" whys "${out}")
string(REGEX MATCHALL "\n    why: the only legal action" only "${out}")
string(REGEX MATCHALL "simulations, mean reward" ismcts "${out}")
list(LENGTH three n3)
list(LENGTH two n2)
list(LENGTH whys nwhy)
list(LENGTH only nonly)
list(LENGTH ismcts nismcts)
# Every bot decision is explained: forced ones say so, the others show
# their alternatives (3, or 2 where there were only 2 legal actions).
math(EXPR rest "${nwhy} - ${nonly}")
if(NOT rc EQUAL 0 OR n3 LESS 50 OR nismcts LESS 10 OR NOT rest EQUAL n2)
  message(FATAL_ERROR "--explain: ${n3} decisions with 3 alternatives, ${n2} with 2 or more, ${nwhy} explained, "
                      "${nonly} forced")
endif()
message(STATUS "--explain: ${n3} of ${nwhy} decisions with 3 alternatives (${nonly} forced)")

# --reveal: the deck order, every card of it.
execute_process(COMMAND ${FOH} play --players 3 --seed 4 --seats greedy --reveal --stop-after 1 OUTPUT_VARIABLE out)
string(REGEX MATCH "Civilization deck order \\(--reveal\\), top first:[^\n]*" order "${out}")
string(REGEX MATCHALL "\\([IV]+\\)" cards "${order}")
list(LENGTH cards ncards)
if(NOT ncards EQUAL 56)
  message(FATAL_ERROR "--reveal showed ${ncards} cards of 56: ${order}")
endif()

# Human seats only where a human can answer.
execute_process(COMMAND ${FOH} sim --seats human --games 2 OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "'human': human players play in foh play only")
  message(FATAL_ERROR "foh sim --seats human: exit ${rc}: ${err}")
endif()

# A choice inside a card effect, answered by a human: Knights asks which
# card to discard (seed 8; the script completes whenever it can).
set(script "")
foreach(i RANGE 1 300)
  string(APPEND script "complete\n1\n1\n")
endforeach()
file(WRITE ${dir}/complete.txt "${script}")
execute_process(COMMAND ${FOH} play --players 3 --seed 8 --seats human,greedy,greedy INPUT_FILE ${dir}/complete.txt
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "P1, Knights asks: card to discard\n +1 [^\n]+\n +2 "
   OR NOT out MATCHES "P1 completes" OR NOT out MATCHES "complete: not one of the legal actions now"
   OR NOT out MATCHES "Game over after")
  message(FATAL_ERROR "a human answering a card's choice: exit ${rc}: ${err}")
endif()
message(STATUS "a human's choice inside an effect: ok")

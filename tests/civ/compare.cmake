# foh compare and foh sim --skill-ladder of a card set of another ruleset
# (tools/any/any_compare.c, any_ladder.c), on the civilization draft and the
# toy game (tests/civ/CMakeLists.txt):
# cmake -DFOH=foh -DSRC=source -DOUT=dir -P compare.cmake
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

# The figure NAME of the compare report FILE: its fields into VAR_differs,
# VAR_low, VAR_high, VAR_significant.
function(figure file name var)
  file(READ ${file} json)
  string(JSON n LENGTH "${json}" figures)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON got GET "${json}" figures ${i} name)
    if(got STREQUAL name)
      foreach(field differs ci95_low ci95_high significant)
        string(JSON v GET "${json}" figures ${i} ${field})
        set(${var}_${field} "${v}" PARENT_SCOPE)
      endforeach()
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "${file}: no figure '${name}'")
endfunction()

file(MAKE_DIRECTORY ${OUT}/compare)

# A card set compared with itself: the same games, no difference, every
# interval [0, 0]; the JSON says the same.
run(0 "the same in every game: all " compare --cards civ-draft --games 100 --seed 5
    --json ${OUT}/compare/self.json)
file(READ ${OUT}/compare/self.json json)
string(JSON differ GET "${json}" differ)
string(JSON n LENGTH "${json}" figures)
# The game's 2 figures, 4 seats' win rates and first score lines, 7 lines or more.
if(NOT differ EQUAL 0 OR n LESS 17)
  message(FATAL_ERROR "compare with itself: ${differ} of ${n} figures differ")
endif()
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON low GET "${json}" figures ${i} ci95_low)
  string(JSON high GET "${json}" figures ${i} ci95_high)
  if(low GREATER 0 OR high LESS 0)
    message(FATAL_ERROR "compare with itself: figure ${i}'s interval [${low}, ${high}] excludes 0")
  endif()
endforeach()

# A planted change is found: two plays a turn shorten the game and raise
# the final Military (the Modern age's cards in play, ruling 27); starting with 40 Victory Tokens instead of 10 raises
# each player's by about 30 (the floor at 0 matters less) and changes no
# attribute.
file(WRITE ${OUT}/compare/two-plays/variant.yaml
     "name: two-plays\ndescription: \"two cards played a turn\"\nset:\n  rules.base_plays: 2\n")
run(0 "differs (the 95% interval excludes 0):\n  figure" compare --cards civ-draft --games 200
    --b-variant ${OUT}/compare/two-plays --json ${OUT}/compare/two-plays.json)
figure(${OUT}/compare/two-plays.json "game length (turns)" f)
if(NOT f_significant OR NOT f_ci95_high LESS 0)
  message(FATAL_ERROR "two plays a turn: the game length's difference [${f_ci95_low}, ${f_ci95_high}] is not "
                      "found below 0")
endif()
figure(${OUT}/compare/two-plays.json "Military (mean of the players)" f)
if(NOT f_significant OR NOT f_ci95_low GREATER 0)
  message(FATAL_ERROR "two plays a turn: Military's difference [${f_ci95_low}, ${f_ci95_high}] is not found above 0")
endif()
file(WRITE ${OUT}/compare/vt40/variant.yaml
     "name: vt40\ndescription: \"40 Victory Tokens at the start\"\nset:\n  rules.starting_vt: 40\n")
run(0 "Victory Tokens (mean of the players)" compare --cards civ-draft --games 100 --b-variant ${OUT}/compare/vt40
    --json ${OUT}/compare/vt40.json)
figure(${OUT}/compare/vt40.json "Victory Tokens (mean of the players)" f)
if(NOT f_significant OR f_ci95_low LESS 25 OR f_ci95_high GREATER 31)
  message(FATAL_ERROR "40 starting Victory Tokens: the difference [${f_ci95_low}, ${f_ci95_high}] is not about +30")
endif()
figure(${OUT}/compare/vt40.json "Culture (mean of the players)" f)
if(f_differs)
  message(FATAL_ERROR "40 starting Victory Tokens: Culture differs [${f_ci95_low}, ${f_ci95_high}]")
endif()

# Ruling 27: the Modern age's end discards hands, Leaders and the
# Revolution cards after its scoring, so keeping them in the final table
# (the variant final-table-undiscarded) changes no game: the same length,
# winners, Victory Tokens and conflicts in every game; only the final
# attributes, every one higher with the discarded cards still counted.
run(0 "5 of 18 figures differ" compare --cards civ-draft --games 100 --seed 3
    --b-variant cards/civ-draft/variants/final-table-undiscarded --json ${OUT}/compare/undiscarded.json)
foreach(name "game length (turns)" "win rate P1" "win rate P4" "Victory Tokens (mean of the players)"
        "Victory Tokens P2" "Conflicts won (mean of the players)" "Aggression cards (mean of the players)")
  figure(${OUT}/compare/undiscarded.json "${name}" f)
  if(f_differs)
    message(FATAL_ERROR "the final table undiscarded: ${name} differs [${f_ci95_low}, ${f_ci95_high}]")
  endif()
endforeach()
foreach(attribute Vitality Resources Stability Military Culture)
  figure(${OUT}/compare/undiscarded.json "${attribute} (mean of the players)" f)
  if(NOT f_significant OR NOT f_ci95_low GREATER 0.5)
    message(FATAL_ERROR "the final table undiscarded: ${attribute}'s difference [${f_ci95_low}, ${f_ci95_high}] is "
                        "not found above 0.5")
  endif()
endforeach()

# The same report whatever the threads; the side A figures are foh sim's.
run(0 "win rate P1" compare --cards civ-draft --games 60 --seats greedy,random,random,random
    --b-variant cards/civ-draft/variants/random-first --threads 1)
set(one "${out}")
run(0 "win rate P1" compare --cards civ-draft --games 60 --seats greedy,random,random,random
    --b-variant cards/civ-draft/variants/random-first --threads 2)
if(NOT one STREQUAL out)
  message(FATAL_ERROR "compare: 1 and 2 threads differ:\n${one}\n----\n${out}")
endif()
run(0 "P1" sim --cards civ-draft --games 60 --seats greedy,random,random,random)
string(REGEX MATCH "P1 +[0-9.]+ +([0-9.]+%)" m "${out}")
string(REGEX MATCH "win rate P1 +${CMAKE_MATCH_1}" same "${one}")
if(NOT same)
  message(FATAL_ERROR "compare's A is not foh sim's game for game: sim says P1 wins ${CMAKE_MATCH_1}:\n${one}")
endif()

# Refused: options of The Flow of History only, by name; two rulesets.
run(2 "--html: only for card sets of The Flow of History" compare --cards civ-draft --html ${OUT}/compare/x.html)
run(2 "A is played by the ruleset 'civ-draft' and B by 'flow-of-history'" compare --a-cards civ-draft)
run(2 "configuration A: this card set is played by 2 to 6 players, not 7" compare --cards civ-draft --players 7)
run(2 "--seats: 'human': a human seat plays with foh play" compare --cards civ-draft --seats human)
run(2 "--ladder-from: only for card sets of" sim --cards civ-draft --skill-ladder --ladder-from 4 --seats random,greedy)
run(2 "at least 2" sim --cards civ-draft --skill-ladder --seats greedy)

# The skill ladder ranks greedy above random, with the win rates'
# intervals apart from the fair share, in 2- and 4-player games.
run(0 "  1. greedy" sim --cards civ-draft --skill-ladder --players 2 --seats random,greedy --games 20
    --json ${OUT}/compare/ladder.json)
string(FIND "${out}" "beats random" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the ladder does not find greedy stronger than random:\n${out}")
endif()
file(READ ${OUT}/compare/ladder.json json)
string(JSON first GET "${json}" ranking 0 bot)
string(JSON beaten GET "${json}" ranking 0 beats 0)
if(NOT first STREQUAL "greedy" OR NOT beaten STREQUAL "random")
  message(FATAL_ERROR "ladder JSON: first ${first}, beats ${beaten}")
endif()
run(0 "  1. greedy" sim --cards civ-draft --skill-ladder --players 4 --seats greedy,random --games 6 --threads 2)
set(two "${out}")
run(0 "  1. greedy" sim --cards civ-draft --skill-ladder --players 4 --seats greedy,random --games 6 --threads 1)
if(NOT two STREQUAL out)
  message(FATAL_ERROR "ladder: 1 and 2 threads differ:\n${out}\n----\n${two}")
endif()

# The toy game: the same commands through the same interface.
run(0 "the same in every game: all " compare --cards tests/toy/cards --players 3 --games 200)
run(0 "  1. greedy" sim --cards tests/toy/cards --skill-ladder --players 3 --seats random,greedy --games 100)
string(FIND "${out}" "beats random" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the toy's ladder does not find greedy stronger than random:\n${out}")
endif()

# The toy game's saves through the foh commands (tests/toy/CMakeLists.txt):
# foh play --save/--load/--stop-after, a human seat's end of input and quit,
# foh replay (and --trace), and corrupt or hostile save files refused with
# the file and the position named.
# cmake -DFOH=foh -DTOY=tests/toy -DBASE=cards/base -DOUT=dir -P saves.cmake
cmake_policy(SET CMP0054 NEW) # "toy" is a text, not a variable
set(dir ${OUT}/toy-saves)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})

# foh ARGS... in DIR (INPUT: a file for the standard input); the exit status
# must be EXPECT_RC and the output hold EXPECT_TEXT. Sets out.
function(foh expect_rc expect_text)
  cmake_parse_arguments(F "" "INPUT" "" ${ARGN})
  if(F_INPUT)
    set(input INPUT_FILE ${F_INPUT})
  else()
    set(input INPUT_FILE /dev/null)
  endif()
  execute_process(COMMAND ${FOH} ${F_UNPARSED_ARGUMENTS} WORKING_DIRECTORY ${dir} ${input} OUTPUT_VARIABLE out
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(REPLACE ";" " " args "${F_UNPARSED_ARGUMENTS}")
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "foh ${args}: exit ${rc}, expected ${expect_rc}\n${out}${err}")
  endif()
  string(FIND "${out}${err}" "${expect_text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "foh ${args}: no '${expect_text}' in:\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# The text of OUT from "Game over" on: the end of a game, its scores and result.
function(ending text var)
  string(FIND "${text}" "Game over" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "no 'Game over' in:\n${text}")
  endif()
  string(SUBSTRING "${text}" ${at} -1 end)
  set(${var} "${end}" PARENT_SCOPE)
endfunction()

# 1. A game of bots saved, and replayed: the same log, scores and result,
# byte for byte. The file: the card set, the ruleset, the options and the
# actions by name.
set(cards --cards ${TOY}/cards)
foh(0 "Game over after 18 turns." play ${cards} --players 3 --seats random,greedy,ismcts --seed 4 --save bots.json)
set(played "${out}")
foh(0 "Game over after 18 turns." replay bots.json)
if(NOT out STREQUAL played)
  message(FATAL_ERROR "foh replay differs from the game it replays:\n${played}\n---\n${out}")
endif()
file(READ ${dir}/bots.json json)
string(JSON format GET "${json}" format)
string(JSON ruleset GET "${json}" ruleset)
string(JSON seed GET "${json}" options seed)
string(JSON seats GET "${json}" options seats)
string(JSON nactions LENGTH "${json}" actions)
string(JSON first GET "${json}" actions 0 action)
string(JSON over GET "${json}" over)
if(NOT format STREQUAL "foh-ruleset-save/1" OR NOT ruleset STREQUAL "toy" OR NOT seed EQUAL 4
   OR NOT seats STREQUAL "random,greedy,ismcts" OR NOT nactions EQUAL 18 OR NOT first MATCHES "^play .* \\([0-9]\\)$"
   OR NOT over STREQUAL "ON")
  message(FATAL_ERROR "bots.json: format ${format}, ruleset ${ruleset}, seed ${seed}, seats ${seats}, "
                      "${nactions} actions, the first '${first}', over ${over}")
endif()
# --trace: what each seat sees after the set-up and after each action.
foh(0 "Result:" replay bots.json --trace trace.jsonl)
file(STRINGS ${dir}/trace.jsonl lines)
list(LENGTH lines n)
list(GET lines 18 last)
string(JSON step GET "${last}" step)
string(JSON seen GET "${last}" observe 2)
string(JSON action GET "${last}" action text)
if(NOT n EQUAL 19 OR NOT step EQUAL 18 OR NOT seen MATCHES "^you: P3\n" OR NOT action MATCHES "^play ")
  message(FATAL_ERROR "trace.jsonl: ${n} lines, the last step ${step} ('${action}'), P3 sees '${seen}'")
endif()

# 2. Stopped after 7 actions and resumed (greedy bots play on as if the
# game had not stopped): the same end as the game played at once; the file
# then holds the whole game.
foh(0 "Game over after 18 turns." play ${cards} --players 3 --seats greedy --seed 4)
ending("${out}" whole)
foh(0 "Stopped after 7 actions, turn 8; resume with foh play --load half.json" play ${cards} --players 3 --seats greedy
    --seed 4 --save half.json --stop-after 7)
file(READ ${dir}/half.json json)
string(JSON nactions LENGTH "${json}" actions)
if(NOT nactions EQUAL 7)
  message(FATAL_ERROR "half.json: ${nactions} actions, expected 7")
endif()
foh(0 "Game over after 18 turns." play --load half.json)
ending("${out}" resumed)
if(NOT resumed STREQUAL whole)
  message(FATAL_ERROR "the resumed game ends otherwise:\n${whole}\n---\n${resumed}")
endif()
foh(0 "Game over after 18 turns." replay half.json)
ending("${out}" replayed)
if(NOT replayed STREQUAL whole)
  message(FATAL_ERROR "the resumed game's save replays otherwise:\n${whole}\n---\n${replayed}")
endif()
foh(2 "--players comes from the save file with --load" play --load half.json --players 3)

# 3. A human seat from a pipe: its input ends mid-game (saved, exit 0),
# the game is resumed with the rest of the input, and ends as the game
# played in one go.
file(WRITE ${dir}/all.txt "1\n2\n1\n2\n1\n1\n")
file(WRITE ${dir}/first.txt "1\n2\nx\n")
file(WRITE ${dir}/rest.txt "1\n2\n1\n1\n")
foh(0 "Game over after 12 turns." play ${cards} --players 2 --seats human,greedy --seed 1 INPUT ${dir}/all.txt)
ending("${out}" whole)
foh(0 "End of input: the game is saved in part.json; resume with: foh play --load part.json" play ${cards}
    --players 2 --seats human,greedy --seed 1 --save part.json INPUT ${dir}/first.txt)
foh(0 "Stopped after 4 turns (P1 (human): the input ended)" play ${cards} --players 2 --seats human,greedy --seed 1
    --save part.json INPUT ${dir}/first.txt)
foh(0 "Game over after 12 turns." play --load part.json INPUT ${dir}/rest.txt)
ending("${out}" resumed)
if(NOT resumed STREQUAL whole)
  message(FATAL_ERROR "the human's resumed game ends otherwise:\n${whole}\n---\n${resumed}")
endif()
# quit: saved to the --save file, or to the file the player names.
file(WRITE ${dir}/quit.txt "1\nquit\n")
foh(0 "Quit: the game is saved in quit.json" play ${cards} --players 2 --seats human,greedy --seed 1 --save quit.json
    INPUT ${dir}/quit.txt)
file(WRITE ${dir}/quit-ask.txt "save named.json\nquit\nasked.json\n")
foh(0 "Quit: the game is saved in asked.json" play ${cards} --players 2 --seats human,greedy --seed 1
    INPUT ${dir}/quit-ask.txt)
foh(0 "save: the game is saved in named.json" play ${cards} --players 2 --seats human,greedy --seed 1
    INPUT ${dir}/quit-ask.txt)
foh(0 "The recording ends after 0 actions, turn 1" replay asked.json)
foh(0 "The recording ends after 2 actions, turn 3" replay quit.json)

# 4. Corrupt saves: refused with exit 1, naming the file and the position.
file(READ ${dir}/bots.json json)
string(JSON bad SET "${json}" actions 3 action "\"play Nothing (0)\"")
file(WRITE ${dir}/bad-name.json "${bad}")
foh(1 "bad-name.json: actions[3]: 'play Nothing (0)' is not a legal action here (P1 to act: " replay bad-name.json)
foh(1 "bad-name.json: actions[3]: 'play Nothing (0)' is not a legal action here" play --load bad-name.json)
string(JSON bad SET "${json}" options seed "\"4\"")
file(WRITE ${dir}/bad-seed.json "${bad}")
foh(1 "bad-seed.json: options.seed: must be an integer" replay bad-seed.json)
foh(1 "bad-seed.json: options.seed: must be an integer" play --load bad-seed.json)
string(JSON bad REMOVE "${json}" options players)
file(WRITE ${dir}/no-players.json "${bad}")
foh(1 "no-players.json: options.players: is missing" replay no-players.json)
string(JSON bad REMOVE "${json}" actions 5 action)
file(WRITE ${dir}/no-action.json "${bad}")
foh(1 "no-action.json: actions[5].action: is missing" play --load no-action.json)
string(JSON bad SET "${json}" actions 2 player 1)
file(WRITE ${dir}/bad-player.json "${bad}")
foh(1 "bad-player.json: actions[2]: recorded as P1's, but the decision here is P3's" replay bad-player.json)
string(JSON bad SET "${json}" digest "\"0123456789abcdef\"")
file(WRITE ${dir}/bad-digest.json "${bad}")
foh(1 "bad-digest.json: the replayed game differs from the recorded one (digest)" replay bad-digest.json)
string(JSON bad SET "${json}" options players 9)
file(WRITE ${dir}/nine.json "${bad}")
foh(1 "nine.json: options.players: 9 is out of range 1..8" play --load nine.json)
string(JSON bad SET "${json}" options seats "\"nosuch\"")
file(WRITE ${dir}/seats.json "${bad}")
foh(1 "seats.json: the recorded seats cannot be played (give --seats to choose others)" play --load seats.json)
foh(0 "Game over after 18 turns." play --load seats.json --seats greedy)
file(WRITE ${dir}/cut.json "{\"format\": \"foh-ruleset-save/1\", \"ruleset\": \"toy\"")
foh(1 "cut.json:1:" replay cut.json)
# Another card set: of another ruleset, or changed since the save.
string(JSON bad SET "${json}" cards "\"${BASE}\"")
file(WRITE ${dir}/base.json "${bad}")
foh(1 "base.json: the game was recorded with a card set of the ruleset 'toy', but ${BASE} is one of 'flow-of-history'"
    replay base.json)
file(COPY ${TOY}/cards/ DESTINATION ${dir}/changed-cards)
file(READ ${dir}/changed-cards/game.yaml yaml)
string(REPLACE "hand_size: 2" "hand_size: 3" yaml "${yaml}")
file(WRITE ${dir}/changed-cards/game.yaml "${yaml}")
string(JSON bad SET "${json}" cards "\"${dir}/changed-cards\"")
file(WRITE ${dir}/changed.json "${bad}")
foh(1 "changed.json: the card set sets up another game than the recorded one (digest)" play --load changed.json)
# Hostile files: a folder, a named pipe, a file past the size cap.
foh(1 "toy-saves: not a regular file (a folder)" replay ${dir})
execute_process(COMMAND mkfifo ${dir}/pipe.json RESULT_VARIABLE rc)
if(rc EQUAL 0)
  foh(1 "pipe.json: not a regular file (a named pipe)" replay pipe.json)
  foh(1 "pipe.json: not a regular file (a named pipe)" play --load pipe.json)
endif()
string(REPEAT "          " 900000 padding)
file(WRITE ${dir}/huge.json "{\"format\": \"foh-ruleset-save/1\"${padding}}")
foh(1 "huge.json: the file is larger than 8 MiB" replay huge.json)
# A save goes to a plain file only.
foh(1 "/dev/null: not a regular file (a device or socket): a save goes to a plain file" play ${cards} --players 2
    --save /dev/null)

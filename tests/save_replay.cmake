# Save, resume and replay (`foh play --save/--load/--stop-after`, `foh replay`),
# and clear errors for corrupt, truncated or hand-edited save files.
function(run expect_rc out_var)
  execute_process(COMMAND ${FOH} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "foh ${ARGN}: status ${rc}, expected ${expect_rc}\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

# A whole game saved, then replayed: the same log and scores.
set(game ${OUT}/saved-game.json)
file(REMOVE ${game})
run(0 played play --seed 5 --seats greedy,random,greedy,random --save ${game})
run(0 replayed replay ${game})
if(NOT played STREQUAL replayed)
  message(FATAL_ERROR "foh replay printed another game")
endif()

# Round trips: loading a save and saving again gives the same bytes, for a
# finished game and for one stopped half-way.
set(copy ${OUT}/saved-game-copy.json)
file(REMOVE ${copy})
run(0 ignored play --load ${game} --save ${copy})
file(SHA256 ${game} h1)
file(SHA256 ${copy} h2)
if(NOT h1 STREQUAL h2)
  message(FATAL_ERROR "a finished game saved again differs from its save file")
endif()
set(half1 ${OUT}/half-1.json)
set(half2 ${OUT}/half-2.json)
file(REMOVE ${half1} ${half2})
run(0 ignored play --seed 12 --save ${half1} --stop-after 60)
run(0 ignored play --load ${half1} --save ${half2} --stop-after 60)
file(SHA256 ${half1} h1)
file(SHA256 ${half2} h2)
if(NOT h1 STREQUAL h2)
  message(FATAL_ERROR "a game stopped half-way saved again differs from its save file")
endif()

# Stopped after 40 actions and resumed: the log up to the stop is the same,
# and the deterministic greedy bots finish the game as without the stop.
set(part ${OUT}/partial-game.json)
file(REMOVE ${part})
run(0 whole play --seed 8 --seats greedy)
run(0 first play --seed 8 --seats greedy --save ${part} --stop-after 40)
if(NOT first MATCHES "Stopped after 40 actions")
  message(FATAL_ERROR "no stop message:\n${first}")
endif()
run(0 resumed play --load ${part})
if(NOT resumed STREQUAL whole)
  message(FATAL_ERROR "the resumed game differs from the game played without a stop")
endif()
run(0 again replay ${part})
if(NOT again STREQUAL whole)
  message(FATAL_ERROR "the save after resuming does not replay the whole game")
endif()

# A 2-player Banker game with random bots: resumed and replayed alike.
set(banker ${OUT}/banker-game.json)
file(REMOVE ${banker})
run(0 b1 play --players 2 --variant two-player-banker --seed 4 --save ${banker} --stop-after 25)
run(0 b2 play --load ${banker})
run(0 b3 replay ${banker})
if(NOT b2 STREQUAL b3 OR NOT b3 MATCHES "Variant: two-player-banker")
  message(FATAL_ERROR "the resumed Banker game does not replay")
endif()

# Bad files: each refused with status 1 and a message with the position.
file(READ ${game} good)
string(LENGTH "${good}" n)
math(EXPR half "${n} / 2")
string(SUBSTRING "${good}" 0 ${half} truncated)
string(REPLACE "\"kind\": \"invest\"" "\"kind\": \"steal\"" bad_kind "${good}")
string(REGEX REPLACE "\"tokens\": [0-9]+" "\"tokens\": 99" bad_tokens "${good}")
string(REPLACE "\"players\": 4" "\"players\": \"four\"" bad_type "${good}")
string(REPLACE "\"players\": 4" "\"players\": 40" bad_range "${good}")
string(REPLACE "\"players\": 4" "\"players\": 4, \"players\": 3" duplicate "${good}")
string(REGEX REPLACE "\"card\": \"[a-z_]+\"" "\"card\": \"no_such_card\"" bad_card "${good}")
string(REGEX REPLACE "\"digest\": \"[0-9a-f]+\"" "\"digest\": \"0123456789abcdef\"" bad_digest "${good}")
string(REGEX REPLACE "(\"file\": \"2-age-A.yaml\",[ \n]*\"hash\": \")[0-9a-f]+" "\\10000000000000000" changed_file
       "${good}")
string(REPLACE "\"variants\": []" "\"variants\": [\"${SRC}/variants/culture-2vp\"]" added_variant "${good}")
string(REPLACE "\"seed\": 5" "\"seed\": 6" other_seed "${good}")
string(REPLACE "foh-save/1" "foh-save/9" bad_format "${good}")
set(cases truncated "saved-game-truncated.json:[0-9]+:[0-9]+: not valid JSON"
          bad_kind "actions\\[0\\]: unknown action kind 'steal'"
          bad_tokens "actions\\[[0-9]+\\]: Invest: must place"
          bad_type "options.players: must be an integer"
          bad_range "options.players: 40 is out of range"
          duplicate "duplicate object key"
          bad_card "actions\\[[0-9]+\\].card: unknown card 'no_such_card'"
          bad_digest "differs from the recorded one"
          changed_file "another card set: 2-age-A.yaml differs"
          added_variant "another card set: variant culture-2vp is in this card set, not in the recorded one"
          other_seed "actions\\[[0-9]+\\]: "
          bad_format "format: is not foh-save/1")
list(LENGTH cases len)
math(EXPR last "${len} - 1")
foreach(i RANGE 0 ${last} 2)
  math(EXPR j "${i} + 1")
  list(GET cases ${i} name)
  list(GET cases ${j} expect)
  set(file ${OUT}/saved-game-${name}.json)
  file(WRITE ${file} "${${name}}")
  if(name STREQUAL "bad_digest" OR name STREQUAL "truncated")
    # also through --load
    run(1 ignored play --load ${file})
  endif()
  run(1 ignored replay ${file})
  if(NOT last_err MATCHES "${expect}")
    message(FATAL_ERROR "${name}: the message does not say '${expect}':\n${last_err}")
  endif()
endforeach()
run(2 ignored play --load ${game} --seed 3)
message(STATUS "save, resume, replay and 12 bad files checked")

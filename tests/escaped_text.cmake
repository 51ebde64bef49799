# Text from a save, a shard or the keyboard reaches the terminal escaped
# (cli_escape): a save's or shard's seats holding terminal controls
# (ESC ] 0 ; title BEL retitles the window, ESC [ 2 J clears it; U+0085 is a
# C1 control) are printed as \x1b... by foh replay, foh play --load and foh
# merge, and the human seat's complaints about typed input, and its echo of
# piped input, escape what was typed.
set(dir ${OUT}/escaped-text)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
string(ASCII 27 esc)
string(ASCII 7 bel)
# The same controls as JSON escapes, and as foh prints them.
set(json_controls "\\u001b]0;pwned\\u0007\\u001b[2J\\u0085")
set(shown "\\x1b]0;pwned\\x07\\x1b[2J\\xc2\\x85")
string(REPLACE "\\" "\\\\" shown_re "${shown}")
string(REPLACE "[" "\\[" shown_re "${shown_re}")

# No raw ESC or BEL byte in TEXT (what COMMAND printed), and WANT (a regex) in it.
function(check what text want)
  if(text MATCHES "${esc}" OR text MATCHES "${bel}")
    message(FATAL_ERROR "${what}: a raw ESC or BEL byte reaches the terminal:\n${text}")
  endif()
  if(NOT text MATCHES "${want}")
    message(FATAL_ERROR "${what}: no '${want}' in:\n${text}")
  endif()
endfunction()

# A save whose first seat is a human named with controls.
execute_process(COMMAND ${FOH} play --seed 1 --save ${dir}/game.json --stop-after 2 RESULT_VARIABLE rc OUTPUT_QUIET)
file(READ ${dir}/game.json save)
string(REPLACE "\"seats\": \"random\"" "\"seats\": \"human:${json_controls},random,random,random\"" evil
       "${save}")
if(NOT rc EQUAL 0 OR evil STREQUAL save)
  message(FATAL_ERROR "could not make the save (${rc}):\n${save}")
endif()
file(WRITE ${dir}/evil-game.json "${evil}")
execute_process(COMMAND ${FOH} replay ${dir}/evil-game.json OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
check("foh replay" "${rc} ${out}${err}" "^0 .*players: P1 human:${shown_re} P2 random")

# The human's inputs: an unknown command, a number of no action, a card
# that does not exist, then Invest's number of tokens, each with controls.
set(inputs "foo${esc}]0;pwned${bel}\n99${esc}[2J\nhelp zz${esc}[2J\n")
foreach(i RANGE 1 40)
  string(APPEND inputs "1\nabc${esc}[2J\n1\n")
endforeach()
file(WRITE ${dir}/inputs.txt "${inputs}")
# (COLUMNS: the header on one line, as the check below reads it.)
execute_process(COMMAND ${CMAKE_COMMAND} -E env COLUMNS=1000 ${FOH} play --load ${dir}/evil-game.json --stop-after 12
                INPUT_FILE ${dir}/inputs.txt
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(WRITE ${dir}/transcript.txt "${out}${err}")
check("foh play --load" "${rc} ${out}${err}" "^0 .*players: P1 human:${shown_re} P2 random")
foreach(want "P1 ${shown_re}, your action:" "Unknown command 'foo\\\\x1b]0;pwned\\\\x07'"
        "There is no action 99\\\\x1b\\[2J here" "No card is called 'zz\\\\x1b\\[2J'"
        "'abc\\\\x1b\\[2J' is not a number of tokens" "> foo\\\\x1b]0;pwned\\\\x07\n")
  check("foh play --load, the human's transcript" "${out}" "${want}")
endforeach()

# A shard whose seats hold the controls.
execute_process(COMMAND ${FOH} sim --games 4 --save-shard ${dir}/shard.json RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
file(READ ${dir}/shard.json shard)
string(REPLACE "\"seats\":\"random\"" "\"seats\":\"random${json_controls}\"" evil "${shard}")
if(NOT rc EQUAL 0 OR evil STREQUAL shard)
  message(FATAL_ERROR "could not make the shard (${rc}):\n${shard}")
endif()
file(WRITE ${dir}/evil-shard.json "${evil}")
execute_process(COMMAND ${FOH} merge ${dir}/evil-shard.json OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0)
  check("foh merge" "${out}${err}" "players random${shown_re}, .*\nP1     random\\\\x1b")
else() # refused (the seats are not bots): named escaped, if at all
  check("foh merge" "${out}${err}" "foh merge: ")
endif()

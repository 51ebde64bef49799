# foh scenario: malformed scenarios and failing ones exit 1 with messages
# naming the file, line and column and showing expected versus actual; a
# malformed scenario does not stop the others of its file.
function(expect file code)
  execute_process(COMMAND ${FOH} scenario ${DIR}/${file} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL ${code})
    message(FATAL_ERROR "${file}: expected exit ${code}, got ${rc}\n${out}${err}")
  endif()
  foreach(text ${ARGN})
    string(FIND "${out}${err}" "${text}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${file}: output lacks '${text}':\n${out}${err}")
    endif()
  endforeach()
endfunction()
expect(bad-field.yaml 1 "bad-field.yaml:3:1: unknown field 'natoins' in a scenario (did you mean 'nations'?")
expect(bad-card.yaml 1 "bad-card.yaml:3:10: unknown card id 'monastary' (did you mean 'monastery'?)")
expect(twice.yaml 1 "twice.yaml:5:10: card 'temple' is placed twice")
expect(failing.yaml 1 "FAIL" "failing.yaml:1: a wrong expectation" "step 1 (line 5: harvest)"
       "P1 tokens: expected 3, got 2" "0 passed, 1 failed")
# A list where a single value belongs (this once crashed), a single value
# where a list belongs (this was once ignored).
expect(list-for-scalar.yaml 1 "list-for-scalar.yaml:5:23: current must be a single value, not a list"
       "0 passed, 0 failed, 1 malformed")
expect(scalar-for-list.yaml 1 "scalar-for-list.yaml:3:10: removed (a list of card ids) must be a list, not a single value")
expect(one-bad-of-two.yaml 1 "one-bad-of-two.yaml:5:26: cards" "PASS" "still runs" "1 passed, 0 failed, 1 malformed")
# script_error: a step whose action must fail in a card script.
expect(script-error.yaml 1 "expected a script to fail (\"anything\"), but the action was applied"
       "but the rules refused the action: Snipe: Temple is not a Market card with an investor"
       "script-error.yaml:21:23: a step expects a refusal ('error') or a script's failure ('script_error'), not both"
       "script-error.yaml:26:23: 'script_error' goes with a turn action or one answer to a choice"
       "expected a script's error mentioning \"instruction limit\", got"
       "0 passed, 3 failed, 2 malformed")

# foh scenario: malformed files and failing scenarios exit 1 with messages
# naming the file and line and showing expected versus actual.
function(expect file code)
  execute_process(COMMAND ${FOH} scenario ${DIR}/${file} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "${file}: expected exit 1, got ${rc}")
  endif()
  foreach(text ${ARGN})
    string(FIND "${out}${err}" "${text}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${file}: output lacks '${text}':\n${out}${err}")
    endif()
  endforeach()
endfunction()
expect(bad-field.yaml 1 "bad-field.yaml:3: unknown field 'natoins'")
expect(bad-card.yaml 1 "bad-card.yaml:3: unknown card id 'monastary'")
expect(twice.yaml 1 "twice.yaml:5: card 'temple' is placed twice")
expect(failing.yaml 1 "FAIL" "failing.yaml:1: a wrong expectation" "step 1 (line 5: harvest)"
       "P1 tokens: expected 3, got 2" "0 passed, 1 failed")

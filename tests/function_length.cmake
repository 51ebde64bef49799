# tools/function_length.py (issue 28): no function of tools/, core/ or the
# toy ruleset over 150 lines
# without a reason written above it ("long because: ..."). First the
# checker itself, on two generated files: a 151-line function is refused,
# and accepted with the marker; then tools/.
set(dir ${OUT}/function-length)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
set(body "")
foreach(i RANGE 1 149)
  string(APPEND body "    x += ${i};\n")
endforeach()
# 151 lines from "{" to "}": the brace lines and 149 statements.
file(WRITE ${dir}/long.c "/* A long one. */\nstatic int f(int x,\n             int y)\n{\n${body}}\n")
file(WRITE ${dir}/reasoned.c "/* A long one. Long because: a test. */\nstatic int f(int x,\n             int y)\n{\n${body}}\n")
execute_process(COMMAND ${PYTHON} ${SRC}/tools/function_length.py --max 150 ${dir}/long.c OUTPUT_VARIABLE out
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT out MATCHES "long.c:2: f: 151 lines \\(limit 150\\)")
  message(FATAL_ERROR "a 151-line function without a reason: exit ${rc}, expected 1:\n${out}")
endif()
execute_process(COMMAND ${PYTHON} ${SRC}/tools/function_length.py --max 151 ${dir}/long.c RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a 151-line function within --max 151: exit ${rc}, expected 0")
endif()
execute_process(COMMAND ${PYTHON} ${SRC}/tools/function_length.py --max 150 ${dir}/reasoned.c OUTPUT_VARIABLE out
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a 151-line function with its reason: exit ${rc}, expected 0:\n${out}")
endif()
foreach(folder tools core tests/toy)
  execute_process(COMMAND ${PYTHON} ${SRC}/tools/function_length.py --max 150 --all ${SRC}/${folder}
                  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  message(STATUS "${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "functions of ${folder}/ over 150 lines without a reason above them "
                        "(split them, or write why next to them: tools/function_length.py):\n${out}")
  endif()
endforeach()

# ctest headers: every public header (core/include/foh/*.h) compiles on its
# own, as a client's first include, with the project's compiler and flags
# and no include folder but core/include.
#   cmake -DCC=compiler -DFLAGS=flag|flag|... -DSRC=source dir -DOUT=scratch dir -P headers.cmake
string(REPLACE "|" ";" flags "${FLAGS}")
file(GLOB headers RELATIVE ${SRC}/core/include ${SRC}/core/include/foh/*.h)
if(NOT headers)
  message(FATAL_ERROR "no header in ${SRC}/core/include/foh")
endif()
file(MAKE_DIRECTORY ${OUT}/headers)
set(failed)
foreach(h ${headers})
  string(MAKE_C_IDENTIFIER ${h} id)
  set(tu ${OUT}/headers/${id}.c)
  file(WRITE ${tu} "#include \"${h}\"\n")
  execute_process(COMMAND ${CC} ${flags} -I${SRC}/core/include -c ${tu} -o ${OUT}/headers/${id}.o
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message("core/include/${h} does not compile on its own (a one-line file including it):\n${out}")
    list(APPEND failed ${h})
  endif()
endforeach()
if(failed)
  list(JOIN failed ", " names)
  message(FATAL_ERROR "headers: not self-contained: ${names} (include what each uses)")
endif()
list(LENGTH headers n)
message("headers: the ${n} public headers each compile on their own")

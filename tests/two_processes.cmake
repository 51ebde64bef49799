# Two processes print byte-identical games for the same seed, with cards
# whose scripts show tables and functions with tostring and string.format
# (an address there would differ from process to process), and a trace.
foreach(i 1 2)
  execute_process(COMMAND ${FOH} play --players 4 --seed 4 --seats greedy --variant ${VARIANT}
                          --trace ${OUT}/two-processes-${i}.jsonl
                  OUTPUT_FILE ${OUT}/two-processes-${i}.txt RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh play exited with ${rc}")
  endif()
endforeach()
foreach(ext txt jsonl)
  file(SHA256 ${OUT}/two-processes-1.${ext} a)
  file(SHA256 ${OUT}/two-processes-2.${ext} b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "two processes printed different games (${ext})")
  endif()
endforeach()
file(READ ${OUT}/two-processes-1.txt log)
if(NOT log MATCHES "shows table table function table table")
  message(FATAL_ERROR "the game never showed the tables (the test proves nothing):\n${log}")
endif()

# The C fast paths of the effect helpers (core/rulesets/flow/lua/native.c) against the Lua
# functions they stand for: every run below must print the same with and
# without --lua-only (timing lines aside). Games of random and greedy bots
# (greedy scores positions, so End Game and counting effects run often), the
# Faith expansion, every variant, four game logs (every log line of an
# effect: attacks, their choices and hits among them), and cards that
# change a helper's table (their own functions must run: tests/data/
# decorated-helpers).
#
#   cmake -DFOH=build/foh -DSRC=. -DOUT=/tmp -P tests/native.cmake
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
cmake_minimum_required(VERSION 3.16)
set(runs
  "sim --players 4 --games 300 --seed 1 --threads 2 --seats random"
  "sim --players 4 --games 6 --seed 5 --threads 2 --seats greedy"
  "sim --cards ${SRC}/cards/faith --players 4 --games 100 --seed 3 --threads 2 --seats random,greedy,random,random"
  "play --players 4 --seed 3 --seats random"
  "play --players 5 --seed 7 --seats greedy,random,greedy,random,random"
  "play --variant korean-edition --players 4 --seed 5 --seats random,greedy,random,greedy"
  "play --cards ${SRC}/cards/faith --players 3 --seed 12 --seats random"
  "sim --cards ${SRC}/tests/data/decorated-helpers --players 4 --games 200 --seed 4 --threads 2 --seats random,greedy,random,random")
file(GLOB variants RELATIVE "${SRC}/variants" "${SRC}/variants/*")
list(SORT variants)
foreach(v ${variants})
  if(v STREQUAL "two-player-banker")
    list(APPEND runs "sim --variant ${v} --players 2 --games 60 --seed 2 --threads 2 --seats random,greedy")
  else()
    list(APPEND runs "sim --variant ${v} --games 60 --seed 2 --threads 2 --seats random,greedy,random,random")
  endif()
endforeach()

set(n 0)
foreach(r ${runs})
  separate_arguments(args UNIX_COMMAND "${r}")
  foreach(mode native lua)
    set(extra)
    if(mode STREQUAL "lua")
      set(extra --lua-only)
    endif()
    execute_process(COMMAND ${FOH} ${args} ${extra} WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE out_${mode}
                    ERROR_VARIABLE err_${mode} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "foh ${r} ${extra} exited with ${rc}: ${err_${mode}}")
    endif()
    # Wall-clock lines differ from run to run.
    string(REGEX REPLACE "[^\n]*( s in all| ms|wall clock)[^\n]*\n" "" out_${mode} "${out_${mode}}")
  endforeach()
  foh_strip_provenance(out_native)
  foh_strip_provenance(out_lua)
  if(NOT out_native STREQUAL out_lua)
    file(WRITE ${OUT}/native.txt "${out_native}")
    file(WRITE ${OUT}/lua-only.txt "${out_lua}")
    message(FATAL_ERROR "foh ${r}: the C fast paths and --lua-only differ (${OUT}/native.txt, ${OUT}/lua-only.txt)")
  endif()
  string(LENGTH "${out_native}" len)
  if(len LESS 200)
    message(FATAL_ERROR "foh ${r}: too little output to compare (${len} bytes)")
  endif()
  math(EXPR n "${n} + 1")
endforeach()
message(STATUS "${n} runs print the same with the C fast paths and with --lua-only")

# No printed interval of a figure that cannot be negative (a rate, share,
# spread, band, standard deviation, share of variance, length...) has a
# negative bound, and no share's passes 100% (issue 31): the JSON reports of
# foh sim (with --impact and --fate, tiny runs included), foh compare and
# the civilization draft, and the text of foh tune and --skill-ladder,
# which write no JSON, checked by tests/report_bounds.py.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(dir ${OUT}/report-bounds)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
if(SMALL) # sanitizers: some ten times slower
  set(greedy_games 40)
else()
  set(greedy_games 200)
endif()
set(runs
    "sim --games ${greedy_games} --seats greedy --seed 3 --impact --fate --json ${dir}/sim.json"
    "sim --games 3 --seats random --seed 5 --impact --fate --json ${dir}/tiny.json"
    "sim --games 2 --players 3 --seats greedy --seed 8 --json ${dir}/tiny3.json"
    "compare --games 100 --seats greedy --seed 2 --b-variant culture-2vp --impact --json ${dir}/compare.json"
    "sim --cards ${SRC}/cards/civ-draft --games 40 --seed 2 --json ${dir}/civ.json"
    "tune --games 40 --seats random --seed 2 --budget 300 --verify-games 40 --target card-band=5 --target impact-band=5")
set(i 0)
foreach(run IN LISTS runs)
  math(EXPR i "${i} + 1")
  separate_arguments(args UNIX_COMMAND "${run}")
  execute_process(COMMAND ${FOH} ${args} WORKING_DIRECTORY ${dir} OUTPUT_FILE ${dir}/out${i}.txt
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh ${run}: exit ${rc}: ${err}")
  endif()
endforeach()
execute_process(COMMAND ${FOH} sim --seats ismcts --players 4 --games 30 --ladder-from 2 --ladder-rungs 2 --skill-ladder
                OUTPUT_FILE ${dir}/ladder.txt ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh sim --skill-ladder: exit ${rc}")
endif()
file(GLOB texts ${dir}/*.txt)
file(GLOB jsons ${dir}/*.json)
execute_process(COMMAND ${Python3_EXECUTABLE} ${SRC}/tests/report_bounds.py ${jsons}
                OUTPUT_VARIABLE jout ERROR_VARIABLE jerr RESULT_VARIABLE jrc)
execute_process(COMMAND ${Python3_EXECUTABLE} ${SRC}/tests/report_bounds.py --text ${texts}
                OUTPUT_VARIABLE tout ERROR_VARIABLE terr RESULT_VARIABLE trc)
if(NOT jrc EQUAL 0 OR NOT trc EQUAL 0)
  message(FATAL_ERROR "intervals out of their figure's range:\n${jout}${jerr}${tout}${terr}")
endif()
# The checker itself finds what it is for: a spread of [-1.4, 4.8] and a
# share above 100%.
file(WRITE ${dir}/bad.json "{\"seat_spread\": {\"value\": 1.7, \"ci95_low\": -1.4, \"ci95_high\": 4.8}, \"owner_win_rate\": {\"value\": 0.9, \"ci95_low\": 0.8, \"ci95_high\": 1.2}}")
execute_process(COMMAND ${Python3_EXECUTABLE} ${SRC}/tests/report_bounds.py ${dir}/bad.json
                OUTPUT_VARIABLE bout RESULT_VARIABLE brc)
if(brc EQUAL 0 OR NOT bout MATCHES "2 flagged")
  message(FATAL_ERROR "report_bounds.py missed planted bad intervals:\n${bout}")
endif()
list(LENGTH jsons nj)
list(LENGTH texts nt)
message(STATUS "${nj} JSON reports and ${nt} text reports: no interval outside its figure's range")

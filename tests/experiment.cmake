# foh run (issue 31): an experiment file runs its configurations and its
# sweep into a results folder (the file, every report with provenance,
# versions.json, summary.txt/.csv, sweep.csv/.html); a report of it equals
# foh sim's for the same options; bad files are refused with file:line; a
# results folder that holds files is not overwritten; foh compare of two
# saved reports.
set(dir ${OUT}/experiment)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
file(WRITE ${dir}/exp.yaml "name: t
players: 4
seats: greedy
games: 40
seed: 3
configurations:
  - name: base
    cards: base
  - name: m6
    variants: [market-6]
metrics: [score, cards.temple.owner_win_rate]
targets:
  game_length_turns: 0..1000
  first_player_win_rate: ..0.001
sweep:
  path: cards.temple.params.culture
  values: 2..4
")
execute_process(COMMAND ${FOH} run exp.yaml --threads 2 WORKING_DIRECTORY ${dir} OUTPUT_VARIABLE out
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh run: exit ${rc}: ${err}")
endif()
foreach(f experiment.yaml versions.json summary.txt summary.csv base.json base.txt m6.json sweep.csv sweep.html
          sweep-2.json sweep-3.json sweep-4.json)
  if(NOT EXISTS ${dir}/exp-results/${f})
    message(FATAL_ERROR "foh run wrote no ${f}:\n${out}")
  endif()
endforeach()
file(READ ${dir}/exp-results/summary.txt summary)
file(STRINGS ${dir}/exp-results/sweep.csv lines)
list(LENGTH lines nlines)
file(READ ${dir}/exp-results/sweep.html html)
string(REGEX MATCHALL "<svg class=\"sweep\"" svgs "${html}")
list(LENGTH svgs nsvg)
if(NOT summary MATCHES "\nbase +score [0-9.]+ \\[[0-9.]+, [0-9.]+\\]  cards.temple.owner_win_rate [0-9.]+ [^\n]*game_length_turns [0-9.]+ [^\n]* ok  first_player_win_rate [0-9.]+ [^\n]* MISSED\n"
   OR NOT summary MATCHES "\nm6 " OR NOT summary MATCHES "\nsweep of cards.temple.params.culture in configuration base:\n2 "
   OR NOT summary MATCHES "\ntargets: [0-9]+ missed\n" OR NOT nlines EQUAL 4 OR NOT nsvg EQUAL 4)
  message(FATAL_ERROR "summary (${nlines} sweep lines, ${nsvg} charts):\n${summary}")
endif()
# A configuration's report is foh sim's for the same options (but for how it was made).
execute_process(COMMAND ${FOH} sim --games 40 --seats greedy --seed 3 --variant market-6 --json ${dir}/sim.json
                OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
file(READ ${dir}/sim.json a)
file(READ ${dir}/exp-results/m6.json b)
include(${CMAKE_CURRENT_LIST_DIR}/provenance.cmake)
foh_strip_provenance(a)
foh_strip_provenance(b)
if(NOT rc EQUAL 0 OR NOT a STREQUAL b)
  message(FATAL_ERROR "the experiment's m6 report differs from foh sim's")
endif()
file(READ ${dir}/exp-results/versions.json v)
string(JSON hash GET "${v}" configurations 0 provenance content_hash)
if(NOT hash MATCHES "^[0-9a-f]+$")
  message(FATAL_ERROR "versions.json: ${v}")
endif()
# The results folder is not overwritten.
execute_process(COMMAND ${FOH} run exp.yaml WORKING_DIRECTORY ${dir} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "it must not exist, or be empty")
  message(FATAL_ERROR "a second run into the same folder: exit ${rc}: ${err}")
endif()
# Bad files: file:line, exit 2.
file(WRITE ${dir}/bad.yaml "name: b\nconfigurations:\n  - name: a\n    variant: [x]\n")
execute_process(COMMAND ${FOH} run bad.yaml WORKING_DIRECTORY ${dir} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad.yaml:3:5: unknown key 'variant' in a configuration")
  message(FATAL_ERROR "a bad experiment: exit ${rc}: ${err}")
endif()
file(WRITE ${dir}/bad2.yaml "name: b\nconfigurations:\n  - name: a\nsweep:\n  path: x\n  values: 1..500\n")
execute_process(COMMAND ${FOH} run bad2.yaml WORKING_DIRECTORY ${dir} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad2.yaml:6:11: sweep values: LO..HI of whole numbers from -1000000 to 1000000, at most 64")
  message(FATAL_ERROR "a sweep too long: exit ${rc}: ${err}")
endif()
# A configuration named as the run's own files, and a rate target written in points.
file(WRITE ${dir}/bad3.yaml "name: b\nconfigurations:\n  - name: summary\n")
execute_process(COMMAND ${FOH} run bad3.yaml WORKING_DIRECTORY ${dir} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad3.yaml:3:11: a configuration may not be named 'summary'")
  message(FATAL_ERROR "a configuration named summary: exit ${rc}: ${err}")
endif()
file(WRITE ${dir}/bad4.yaml "name: b\nconfigurations:\n  - name: a\ntargets:\n  first_player_win_rate: ..35\n")
execute_process(COMMAND ${FOH} run bad4.yaml WORKING_DIRECTORY ${dir} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad4.yaml:5:26: target of first_player_win_rate: the reports give rates and shares as fractions")
  message(FATAL_ERROR "a rate target in points: exit ${rc}: ${err}")
endif()
file(WRITE ${dir}/bad5.yaml "name: b\nconfigurations:\n  - name: a\nsweep:\n  path: \"cards.temple.params.culture: 5\\n  x\"\n  values: [1]\n")
execute_process(COMMAND ${FOH} run bad5.yaml WORKING_DIRECTORY ${dir} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad5.yaml:5:9: sweep path")
  message(FATAL_ERROR "a sweep path that is no dotted path: exit ${rc}: ${err}")
endif()
# Two saved reports compared.
execute_process(COMMAND ${FOH} compare exp-results/sweep-2.json exp-results/sweep-4.json --json cmp.json
                WORKING_DIRECTORY ${dir} OUTPUT_VARIABLE cmp ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT cmp MATCHES "\nthe card contents differ \\(content hashes\\)"
   OR NOT cmp MATCHES "\nTemple owners win rate +[0-9.]+% +[0-9.]+% " OR NOT cmp MATCHES "\n[0-9]+ figures tested; ")
  message(FATAL_ERROR "compare of two saved reports: exit ${rc}:\n${cmp}\n${err}")
endif()
execute_process(COMMAND ${FOH} compare exp.yaml exp-results/base.json WORKING_DIRECTORY ${dir}
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "exp.yaml:1: not JSON")
  message(FATAL_ERROR "compare of a file that is no report: exit ${rc}: ${err}")
endif()
# A saved report with a figure no run writes, and one with control characters in a card's name.
file(READ ${dir}/exp-results/sweep-2.json r)
string(REPLACE "\"first_player_win_rate\": {\n    \"value\": " "\"first_player_win_rate\": {\n    \"value\": 5.0, \"was\": " bad "${r}")
file(WRITE ${dir}/forged.json "${bad}")
execute_process(COMMAND ${FOH} compare forged.json exp-results/sweep-4.json WORKING_DIRECTORY ${dir}
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "the figure 'first_player_win_rate' is no estimate foh sim writes")
  message(FATAL_ERROR "a forged saved report: exit ${rc}: ${err}")
endif()
string(REPLACE "\"name\": \"Temple\"" "\"name\": \"Temple\\u001b[2J\"" ctl "${r}")
file(WRITE ${dir}/ctl.json "${ctl}")
execute_process(COMMAND ${FOH} compare ctl.json ctl.json WORKING_DIRECTORY ${dir} OUTPUT_VARIABLE cout
                ERROR_QUIET RESULT_VARIABLE rc)
string(ASCII 27 esc)
if(NOT rc EQUAL 0 OR cout MATCHES "${esc}" OR NOT cout MATCHES "Temple\\\\x1b\\[2J")
  message(FATAL_ERROR "control characters of a saved report printed raw: exit ${rc}:\n${cout}")
endif()
message(STATUS "experiment: 2 configurations and a sweep of 3 values written; saved reports compared")

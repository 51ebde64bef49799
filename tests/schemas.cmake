# ctest schemas: the JSON Schemas of schemas/ (docs/schemas.md), checked with
# a real, packaged validator (Debian's python3-jsonschema, through
# tests/schema_check.py):
#   (a) the schemas pass their metaschema and the project's rules, and every
#       shipped YAML file validates against the schema for its kind;
#   (b) every file of tests/schema-bad/ is refused, with the text its first
#       line names ("# expect: TEXT"); its name's first word (card, game,
#       variant, scenario) says which schema it is checked against.
# Without python3, jsonschema or yaml the test fails: CI installs them
# (tools/deps.sh).
#   cmake -DPYTHON=/usr/bin/python3 -DSRC=<source dir> [-DBIN=<build dir>] -P schemas.cmake

set(check ${SRC}/tests/schema_check.py)
if(NOT EXISTS "${PYTHON}")
  message(FATAL_ERROR "${PYTHON} not found: install python3, python3-jsonschema and python3-yaml (bash tools/deps.sh)")
endif()
execute_process(COMMAND ${PYTHON} -c "import jsonschema, yaml" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PYTHON} lacks jsonschema or yaml: apt-get install python3-jsonschema python3-yaml "
                      "(bash tools/deps.sh)\n${err}")
endif()

# Run schema_check.py with ARGN in the source folder: OUT, RC in the caller.
function(schema_check)
  execute_process(COMMAND ${PYTHON} ${check} ${ARGN} WORKING_DIRECTORY ${SRC}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  set(out "${out}${err}" PARENT_SCOPE)
  set(rc "${rc}" PARENT_SCOPE)
endfunction()

# (a) The schemas themselves: one per kind of file.
set(kinds card-file game variant scenario)
schema_check(--schemas schemas)
string(REGEX MATCHALL "schema ok" oks "${out}")
list(LENGTH oks n)
list(LENGTH kinds nkinds)
if(NOT rc EQUAL 0 OR NOT n EQUAL nkinds)
  message(FATAL_ERROR "the schemas (expected ${nkinds}, each 'schema ok'): exit ${rc}\n${out}")
endif()

# Every YAML file of the source tree but the build folders and the files
# broken on purpose: fuzz seeds, the error tests' inputs (their mistakes are
# what those tests check: tests/bad-mods, scenario-errors, variant-errors)
# and tests/schema-bad; and the toy game and the civilization draft's tests (tests/toy, tests/civ: another ruleset). tests/sim-errors is kept: its variant is well
# formed, only its Lua fails.
file(GLOB_RECURSE found RELATIVE ${SRC} ${SRC}/*.yaml ${SRC}/*.yml)
set(skip "^(build[^/]*|\\.git|tests/browser/node_modules|tests/(fuzz|bad-mods|scenario-errors|variant-errors|schema-bad|toy|civ))/")
set(bin_rel "..")
if(BIN)
  file(RELATIVE_PATH bin_rel ${SRC} ${BIN}) # a build folder inside the sources, whatever its name
endif()
# Each file's schema by where it is (the loader reads them the same way).
foreach(kind ${kinds})
  set(files_${kind})
endforeach()
set(unknown)
foreach(f ${found})
  get_filename_component(name ${f} NAME)
  get_filename_component(dir ${f} DIRECTORY)
  string(FIND "${f}" "${bin_rel}/" in_bin)
  set(other_ruleset)
  set(set_dir ${dir}) # the card set a file belongs to: the nearest folder up with a game.yaml (its own
  foreach(up 1 2)     # scenarios and variants lie in subfolders of it)
    if(NOT EXISTS ${SRC}/${set_dir}/game.yaml)
      get_filename_component(set_dir ${set_dir} DIRECTORY)
    endif()
  endforeach()
  if(EXISTS ${SRC}/${set_dir}/game.yaml) # a card set of another ruleset (tests/toy): not these schemas' files
    file(STRINGS ${SRC}/${set_dir}/game.yaml other_ruleset REGEX "^ruleset:")
    list(FILTER other_ruleset EXCLUDE REGEX "^ruleset: *flow-of-history *(#.*)?$")
  endif()
  if(f MATCHES "${skip}" OR in_bin EQUAL 0 OR other_ruleset)
    continue()
  elseif(name STREQUAL "variant.yaml")
    list(APPEND files_variant ${f})
  elseif(name STREQUAL "game.yaml")
    list(APPEND files_game ${f})
  elseif(EXISTS ${SRC}/${dir}/game.yaml)
    list(APPEND files_card-file ${f}) # every other *.yaml of a card set folder
  elseif(f MATCHES "(^|/)scenarios/")
    list(APPEND files_scenario ${f})
  else()
    list(APPEND unknown ${f})
  endif()
endforeach()
if(unknown)
  string(REPLACE ";" "\n  " unknown "${unknown}")
  message(FATAL_ERROR "no schema for these YAML files (teach tests/schemas.cmake which one applies, or keep "
                      "files broken on purpose in an excluded folder):\n  ${unknown}")
endif()
set(summary)
set(total 0)
foreach(kind ${kinds})
  list(LENGTH files_${kind} n)
  if(n EQUAL 0)
    message(FATAL_ERROR "no ${kind} file found under ${SRC}: the search is broken")
  endif()
  schema_check(schemas/${kind}.schema.json ${files_${kind}})
  string(REGEX MATCHALL ": ok\n" oks "${out}")
  list(LENGTH oks nok)
  if(NOT rc EQUAL 0 OR NOT nok EQUAL n)
    message(FATAL_ERROR "shipped ${kind} files against schemas/${kind}.schema.json: exit ${rc}, ${nok} of ${n} ok\n${out}")
  endif()
  math(EXPR total "${total} + ${n}")
  list(APPEND summary "${n} ${kind}")
endforeach()
string(REPLACE ";" ", " summary "${summary}")
message(STATUS "${nkinds} schemas ok; ${total} shipped YAML files valid (${summary})")

# (b) Broken files are refused, each for the reason it names.
file(GLOB bad RELATIVE ${SRC} ${SRC}/tests/schema-bad/*.yaml)
list(LENGTH bad nbad)
if(nbad LESS 6)
  message(FATAL_ERROR "expected at least 6 broken files in tests/schema-bad, found ${nbad}")
endif()
foreach(f ${bad})
  file(READ ${SRC}/${f} text)
  if(NOT text MATCHES "^# expect: ([^\n]+)")
    message(FATAL_ERROR "${f}: the first line must be '# expect: TEXT' (what the validator must say)")
  endif()
  set(want "${CMAKE_MATCH_1}")
  get_filename_component(name ${f} NAME)
  string(REGEX MATCH "^[a-z]+" kind "${name}")
  if(kind STREQUAL "card")
    set(kind card-file)
  endif()
  list(FIND kinds "${kind}" known)
  if(known EQUAL -1)
    message(FATAL_ERROR "${f}: its name must start with card-, game-, variant- or scenario- (its schema)")
  endif()
  schema_check(schemas/${kind}.schema.json ${f})
  string(FIND "${out}" "${want}" at)
  if(NOT rc EQUAL 1 OR at EQUAL -1 OR out MATCHES ": ok\n")
    message(FATAL_ERROR "${f} against schemas/${kind}.schema.json: expected exit 1 and '${want}', got exit ${rc}:\n${out}")
  endif()
endforeach()
message(STATUS "${nbad} broken files in tests/schema-bad refused, each with its expected message")

# foh tune with a per-card target (issue 31): a copy of the base set with
# Temple's Culture 2 -> 6; the target caps Temple's owners' win rate. The
# search screens Temple's numbers first and proposes weakening Temple
# (a step beyond 2 said as a proportion); the verification runs on seeds
# derived from the run, each predicted direction judged; the written
# variant records the set it was tuned on; and the compare command the
# run prints, run as printed, compares the tuned set with its base.
set(root ${OUT}/tune-card-target)
include(${CMAKE_CURRENT_LIST_DIR}/plant.cmake)
foh_plant_temple(${root} 6)
if(SMALL) # sanitizers: Temple's numbers alone, fewer games
  set(size --games 200 --budget 2400 --verify-games 200 --tunable "cards.temple.*")
else()
  set(size --games 400 --budget 8000 --verify-games 400)
endif()
execute_process(COMMAND ${FOH} tune --cards ${root}/cards/t6 --seats greedy ${size} --seed 3
                        --target card:temple:owners=..32 --max-changes 1
                        --out ${root}/tuned --threads 2
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh tune: exit ${rc}: ${err}")
endif()
foreach(what "\ntargets: card temple: owners' win rate \\.\\.32 points"
             "\nscreened: [0-9]+ single changes, best first"
             "\n1\\. Temple: params\\.culture 6 -> [0-5]"
             "\nverification: base and tuned on fresh seeds \\(seed [0-9]+, derived from this run"
             "\nowners of temple win \\(%\\) [^\n]*(confirmed|not shown|no direction predicted|CONTRADICTED)"
             "\ndirections: [0-9]+ confirmed")
  if(NOT out MATCHES "${what}")
    message(FATAL_ERROR "foh tune's output lacks ${what}:\n${out}")
  endif()
endforeach()
file(READ ${root}/tuned/variant.yaml variant)
if(NOT variant MATCHES "# Tuned on the card set [^\n]*/t6, content hash [0-9a-f]+"
   OR NOT variant MATCHES "# Command: foh tune --cards [^\n]*--target card:temple:owners=\\.\\.32"
   OR NOT variant MATCHES "cards\\.temple\\.params\\.culture: [0-5]\n")
  message(FATAL_ERROR "the written variant:\n${variant}")
endif()
# The printed compare, run as printed.
string(REGEX MATCH "\nthe same comparison, figure by figure: foh (compare [^\n]*)\n" line "${out}")
if(NOT line)
  message(FATAL_ERROR "no compare command printed:\n${out}")
endif()
separate_arguments(args UNIX_COMMAND "${CMAKE_MATCH_1}")
execute_process(COMMAND ${FOH} ${args} OUTPUT_VARIABLE cmp ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT cmp MATCHES "^A: [^\n]*card set [^\n]*/t6\n" OR NOT cmp MATCHES "\nB: [^\n]*card set [^\n]*/t6, variants: "
   OR NOT cmp MATCHES "\n  variants of B: [^\n]*\n" OR NOT cmp MATCHES "\nchanged card Temple|\n  files whose contents differ[^\n]*variant")
  message(FATAL_ERROR "the printed compare (${CMAKE_MATCH_1}): exit ${rc}:\n${cmp}\n${err}")
endif()
# A target the games cannot measure (a starting card has no impact) is refused, not counted as met.
execute_process(COMMAND ${FOH} tune --games 40 --budget 400 --seats greedy --target card:religious_tribe:impact=-1..1
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "card:religious_tribe: its impact on the win is not determined on the base's games")
  message(FATAL_ERROR "an unmeasurable per-card target: exit ${rc}: ${err}")
endif()
foreach(bad "card:temple:owners=0x10" "card:temple:owners=...5" "card:nosuch:owners=..30" "card:temple:price=1..2")
  execute_process(COMMAND ${FOH} tune --games 40 --target ${bad} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "--target")
    message(FATAL_ERROR "--target ${bad}: exit ${rc}: ${err}")
  endif()
endforeach()
string(REGEX MATCH "\n1\\. Temple: params\\.culture 6 -> [0-9]+[^:]*" note "${out}")
message(STATUS "per-card target: ${note}; the printed compare compares the tuned set")

# Shards and saves hold what the command line would accept (issue 27): a
# tune shard's script limits, targets and seats, a save's script limits,
# each refused (exit 1) naming the file and the field; sim and tune shards
# holding a key twice are refused. Each was accepted on 6c7dd6b.
set(tune tune --players 3 --seats random --games 20 --budget 300 --target seat-spread=2 --seed 1)
foreach(i 1 2)
  execute_process(COMMAND ${FOH} ${tune} --shard ${i}/2 --save-shard ${OUT}/lshard${i}.json OUTPUT_QUIET ERROR_QUIET
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh tune --shard ${i}/2 exited with ${rc}")
  endif()
  file(READ ${OUT}/lshard${i}.json lshard${i})
endforeach()

# Each forgery, made in both shards (they must describe one run): name,
# "PATH... VALUE" as string(JSON SET) takes it, the field named.
set(names time memory instructions length-inverted length-huge seats)
set(edits "run limits time_ms 4611686018427387904" "run limits memory_bytes 4611686018427387904"
          "run limits instructions 999" "run targets length_lo 1e308|run targets length_hi -1"
          "run targets length_lo 1e300|run targets length_hi 1e301" "run seats \"ismcts:1000000000\"")
set(fields run.limits.time_ms run.limits.memory_bytes run.limits.instructions run.targets.length_lo
           run.targets.length_lo run.seats)
foreach(i 0 1 2 3 4 5)
  list(GET names ${i} name)
  list(GET edits ${i} edit)
  list(GET fields ${i} field)
  string(REPLACE "|" ";" sets "${edit}")
  foreach(s 1 2)
    set(edited "${lshard${s}}")
    foreach(one ${sets})
      string(REPLACE " " ";" one "${one}")
      string(JSON edited SET "${edited}" ${one})
    endforeach()
    file(WRITE ${OUT}/lforged-${name}-${s}.json "${edited}")
  endforeach()
  execute_process(COMMAND ${FOH} tune --merge ${OUT}/lforged-${name}-1.json ${OUT}/lforged-${name}-2.json
                          --verify-games 8 TIMEOUT 60
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "lforged-${name}-1.json: ${field}")
    message(FATAL_ERROR "foh tune --merge of forged shards (${name}: ${edit}): exit ${rc}: ${err}\n${out}")
  endif()
endforeach()
# The command line refuses what the shards are refused for: the same rules.
execute_process(COMMAND ${FOH} ${tune} --target length=1e300..1e301 OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "at most 1000000 turns")
  message(FATAL_ERROR "foh tune --target length=1e300..1e301: exit ${rc}: ${err}")
endif()

# A key twice: jansson would keep the last; refused instead.
string(REGEX REPLACE "^{" "{\"spent\":0," dup "${lshard1}")
file(WRITE ${OUT}/lforged-dup-1.json "${dup}")
execute_process(COMMAND ${FOH} tune --merge ${OUT}/lforged-dup-1.json ${OUT}/lshard2.json --verify-games 8
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "lforged-dup-1.json:[^\n]*duplicate")
  message(FATAL_ERROR "foh tune --merge of a shard with a key twice: exit ${rc}: ${err}\n${out}")
endif()
execute_process(COMMAND ${FOH} sim --games 10 --shard 1/2 --save-shard ${OUT}/lsim1.json OUTPUT_QUIET ERROR_QUIET
                RESULT_VARIABLE rc)
file(READ ${OUT}/lsim1.json sim)
string(REGEX REPLACE "^{" "{\"sums\":[0]," dup "${sim}")
file(WRITE ${OUT}/lforged-simdup.json "${dup}")
execute_process(COMMAND ${FOH} merge ${OUT}/lforged-simdup.json OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "lforged-simdup.json:[^\n]*duplicate")
  message(FATAL_ERROR "foh merge of a shard with a key twice: exit ${rc}: ${err}\n${out}")
endif()

# A save's script limits: within the command line's ranges, 0 the default.
set(game ${OUT}/lsave.json)
execute_process(COMMAND ${FOH} play --seed 5 --seats greedy --stop-after 20 --save ${game} OUTPUT_QUIET ERROR_QUIET
                RESULT_VARIABLE rc)
file(READ ${game} save)
foreach(edit "lua_instructions 999" "lua_memory_mib 1048577" "action_time_ms 86400001")
  string(REPLACE " " ";" e "${edit}")
  list(GET e 0 field)
  string(JSON edited SET "${save}" options ${e})
  file(WRITE ${OUT}/lforged-save.json "${edited}")
  execute_process(COMMAND ${FOH} play --load ${OUT}/lforged-save.json --stop-after 1 OUTPUT_VARIABLE out
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "lforged-save.json: options.${field}: [0-9]+ is out of range")
    message(FATAL_ERROR "foh play --load of a save with ${edit}: exit ${rc}: ${err}")
  endif()
endforeach()

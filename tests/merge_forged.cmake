# foh merge refuses shards no run could have written (exit 1, naming the
# file and the field) and shards made from different contents of the card
# set (naming the file that differs and both shards). Issue 27.
set(run --players 2 --games 60 --seed 4 --seats greedy,random --variant two-player-banker)
foreach(i 1 2 3)
  execute_process(COMMAND ${FOH} sim ${run} --shard ${i}/3 --save-shard ${OUT}/fshard${i}.json
                  OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh sim --shard ${i}/3 exited with ${rc}")
  endif()
endforeach()
execute_process(COMMAND ${FOH} merge ${OUT}/fshard1.json ${OUT}/fshard2.json ${OUT}/fshard3.json OUTPUT_QUIET
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "foh merge of honest shards: exit ${rc}: ${err}")
endif()

# Each edit: "INDEX VALUE ..." pairs into shard 2's sums (20 games); the
# indices are those of struct sim_stats (tools/sim/sim_stats.h): decisions 1,
# win_units[0] 4, turns_sq 28, gained[0][0] 434, gained[0][1] 435,
# owned_n[c] 1202 + c, owned_win_units[c] 1330 + c.
file(READ ${OUT}/fshard2.json shard)
set(cards 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39)
foreach(c ${cards})   # a card owned in some games of shard 2
  math(EXPR at "1202 + ${c}")
  string(JSON owned GET "${shard}" sums ${at})
  if(owned GREATER 0)
    set(card ${c})
    break()
  endif()
endforeach()
math(EXPR owned_at "1330 + ${card}")
math(EXPR owned_units "${owned} * 60 + 60")
set(names negative-count wins-over-games win-units-1e15 gain-sum-overflows gained-over-games owner-wins-over-owned)
set(edits "1 -5" "4 1260" "4 1000000000000000" "434 4611686018427387904 435 4611686018427387904" "434 15 435 10"
          "${owned_at} ${owned_units}")
set(fields "decisions" "win_units.0." "win_units.0." "gained.0..[01]." "gained.0." "owned_win_units.${card}.")
foreach(i 0 1 2 3 4 5)
  list(GET names ${i} name)
  list(GET edits ${i} edit)
  list(GET fields ${i} field)
  string(REPLACE " " ";" e "${edit}")
  set(edited "${shard}")
  while(e)
    list(POP_FRONT e at value)
    string(JSON edited SET "${edited}" sums ${at} ${value})
  endwhile()
  file(WRITE ${OUT}/forged-${name}.json "${edited}")
  execute_process(COMMAND ${FOH} merge --json ${OUT}/forged.json ${OUT}/fshard1.json ${OUT}/forged-${name}.json
                          ${OUT}/fshard3.json
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "forged-${name}.json: [^\n]*${field}")
    message(FATAL_ERROR "foh merge of a forged shard (${name}: sums ${edit}): exit ${rc}: ${err}\n${out}")
  endif()
  if(out MATCHES "nan|inf")
    message(FATAL_ERROR "foh merge of a forged shard (${name}) printed:\n${out}")
  endif()
endforeach()
# Two shards each lawful, whose sum overflows 64 bits: the second is named.
string(JSON big1 SET "${shard}" sums 28 4611686018427387904)
file(READ ${OUT}/fshard3.json shard3)
string(JSON big3 SET "${shard3}" sums 28 4611686018427387904)
file(WRITE ${OUT}/forged-big2.json "${big1}")
file(WRITE ${OUT}/forged-big3.json "${big3}")
execute_process(COMMAND ${FOH} merge ${OUT}/fshard1.json ${OUT}/forged-big2.json ${OUT}/forged-big3.json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "forged-big3.json: [^\n]*turns_sq[^\n]*overflow")
  message(FATAL_ERROR "foh merge of shards whose sums overflow: exit ${rc}: ${err}")
endif()

# Shard 1, a card's param edited in the folder, shard 2: refused, naming the
# card file and both shards.
# (game.yaml names its script as ../../scripts/effects.lua: copied too.)
file(REMOVE_RECURSE ${OUT}/edited)
file(COPY ${SRC}/cards/base/ DESTINATION ${OUT}/edited/cards/base)
file(COPY ${SRC}/scripts/ DESTINATION ${OUT}/edited/scripts)
set(run --players 3 --games 30 --seed 5 --seats random --cards ${OUT}/edited/cards/base)
execute_process(COMMAND ${FOH} sim ${run} --shard 1/2 --save-shard ${OUT}/eshard1.json OUTPUT_QUIET ERROR_QUIET
                RESULT_VARIABLE rc1)
file(READ ${OUT}/edited/cards/base/3-age-I.yaml yaml)
string(REPLACE "params: {defense: 2}" "params: {defense: 3}" edited "${yaml}")
if(edited STREQUAL yaml)
  message(FATAL_ERROR "no 'params: {defense: 2}' in cards/base/3-age-I.yaml to edit")
endif()
file(WRITE ${OUT}/edited/cards/base/3-age-I.yaml "${edited}")
execute_process(COMMAND ${FOH} sim ${run} --shard 2/2 --save-shard ${OUT}/eshard2.json OUTPUT_QUIET ERROR_QUIET
                RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "foh sim --shard of the copied cards exited with ${rc1} and ${rc2}")
endif()
execute_process(COMMAND ${FOH} merge ${OUT}/eshard1.json ${OUT}/eshard2.json OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "eshard2.json: [^\n]*3-age-I.yaml[^\n]*eshard1.json")
  message(FATAL_ERROR "foh merge of shards made before and after a card's edit: exit ${rc}: ${err}\n${out}")
endif()
# Merged where the card folder has changed since both shards were made: the
# report would name the new cards' contents; refused, naming the file.
file(WRITE ${OUT}/edited/cards/base/3-age-I.yaml "${yaml}")
execute_process(COMMAND ${FOH} merge --partial ${OUT}/eshard2.json OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "eshard2.json: [^\n]*3-age-I.yaml")
  message(FATAL_ERROR "foh merge of a shard whose card folder changed since: exit ${rc}: ${err}\n${out}")
endif()

# foh tune's shards the same way (tiny runs): shard 1, the card's param
# edited, shard 2: refused, naming the card file and both shards; and a
# game whose seats share more win units than one game has.
file(WRITE ${OUT}/edited/cards/base/3-age-I.yaml "${yaml}")
set(tune tune --players 3 --seats random --games 20 --budget 300 --target seat-spread=2 --seed 1
         --cards ${OUT}/edited/cards/base)
execute_process(COMMAND ${FOH} ${tune} --shard 1/2 --save-shard ${OUT}/tshard1.json OUTPUT_QUIET ERROR_QUIET
                RESULT_VARIABLE rc1)
file(WRITE ${OUT}/edited/cards/base/3-age-I.yaml "${edited}")
execute_process(COMMAND ${FOH} ${tune} --shard 2/2 --save-shard ${OUT}/tshard2.json OUTPUT_QUIET ERROR_QUIET
                RESULT_VARIABLE rc2)
file(WRITE ${OUT}/edited/cards/base/3-age-I.yaml "${yaml}")
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "foh tune --shard of the copied cards exited with ${rc1} and ${rc2}")
endif()
execute_process(COMMAND ${FOH} tune --merge ${OUT}/tshard1.json ${OUT}/tshard2.json --verify-games 20
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "tshard2.json: [^\n]*3-age-I.yaml[^\n]*tshard1.json")
  message(FATAL_ERROR "foh tune --merge of shards made before and after a card's edit: exit ${rc}: ${err}\n${out}")
endif()
file(READ ${OUT}/tshard1.json t1)
string(JSON t1 SET "${t1}" base games 0 1 "[60,60,60]")
file(WRITE ${OUT}/tforged-wins.json "${t1}")
execute_process(COMMAND ${FOH} tune --merge ${OUT}/tforged-wins.json ${OUT}/tshard2.json --verify-games 20
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "tforged-wins.json: base.games.0..1.: 180 win units in one game")
  message(FATAL_ERROR "foh tune --merge of a game with 180 win units: exit ${rc}: ${err}\n${out}")
endif()

# A shard's provenance, which the merged report copies as its
# `shards_provenance`: missing, not an object, or one that contradicts the
# shard (another content hash than its sources give, another engine, other
# players) is refused, exit 1, naming the file and the field, and no report
# is written. Sim shards, sim shards with --impact, each side of a compare
# shard; tune shards carry none (one added is an unknown field).
set(forged_provenance missing null text number list other-hash other-engine other-players no-engine)
set(forgery_fields "'provenance' is missing" "'provenance' must be an object" "'provenance' must be an object"
    "'provenance' must be an object" "'provenance' must be an object"
    "'provenance\\.content_hash' is '0123456789abcdef', while the shard's 'sources' give [0-9a-f]+"
    "'provenance\\.engine' is 'foh 9\\.9\\.9', while this is foh "
    "'provenance\\.players' differs from the shard's own" "'provenance\\.engine' is missing")
# FORGED: the shard object SHARD with forgery NAME, into the variable OUT_VAR;
# PREFIX: the JSON path of the object within it (empty: the top).
function(forge_provenance shard name out_var)
  set(at ${ARGN})
  if(name STREQUAL "missing")
    string(JSON f REMOVE "${shard}" ${at} provenance)
  elseif(name STREQUAL "null")
    string(JSON f SET "${shard}" ${at} provenance "null")
  elseif(name STREQUAL "text")
    string(JSON f SET "${shard}" ${at} provenance "\"made by hand\"")
  elseif(name STREQUAL "number")
    string(JSON f SET "${shard}" ${at} provenance "7")
  elseif(name STREQUAL "list")
    string(JSON f SET "${shard}" ${at} provenance "[1, 2]")
  elseif(name STREQUAL "other-hash")
    string(JSON f SET "${shard}" ${at} provenance content_hash "\"0123456789abcdef\"")
  elseif(name STREQUAL "other-engine")
    string(JSON f SET "${shard}" ${at} provenance engine "\"foh 9.9.9\"")
  elseif(name STREQUAL "other-players")
    string(JSON f SET "${shard}" ${at} provenance players "5")
  elseif(name STREQUAL "no-engine")
    string(JSON f REMOVE "${shard}" ${at} provenance engine)
  endif()
  set(${out_var} "${f}" PARENT_SCOPE)
endfunction()
# Merge FILES (the forged one named NAME among them) and expect the refusal FIELD.
function(expect_refused what name field)
  file(REMOVE ${OUT}/forged-prov.json)
  execute_process(COMMAND ${FOH} merge --json ${OUT}/forged-prov.json ${ARGN} OUTPUT_VARIABLE out
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "${name}: ${field}[^\n]*: the shard was edited or damaged"
     OR EXISTS ${OUT}/forged-prov.json)
    message(FATAL_ERROR "foh merge of ${what} whose provenance is forged (${name}): exit ${rc}: ${err}\n${out}")
  endif()
endfunction()
# The honest merge's report copies the first shard's provenance.
file(READ ${OUT}/fshard1.json s1)
string(JSON p1 GET "${s1}" provenance)
execute_process(COMMAND ${FOH} merge --json ${OUT}/honest.json ${OUT}/fshard1.json ${OUT}/fshard2.json
                        ${OUT}/fshard3.json OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${OUT}/honest.json honest)
string(JSON copied GET "${honest}" shards_provenance)
string(JSON same EQUAL "${p1}" "${copied}")
if(NOT rc EQUAL 0 OR NOT same)
  message(FATAL_ERROR "foh merge of honest shards (${rc}: ${err}): shards_provenance ${copied}, the shard's ${p1}")
endif()
# With --impact, the shards are the same kind with their impact sums.
foreach(i 1 2)
  execute_process(COMMAND ${FOH} sim --players 2 --games 8 --seed 4 --seats greedy,random --variant two-player-banker
                          --impact --shard ${i}/2 --save-shard ${OUT}/ishard${i}.json
                  OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh sim --impact --shard ${i}/2 exited with ${rc}")
  endif()
endforeach()
file(READ ${OUT}/ishard2.json ishard)
# A compare shard (B: another rule), each side forged in turn.
foreach(i 1 2)
  execute_process(COMMAND ${FOH} compare --players 3 --games 6 --seed 6 --seats greedy,random,random
                          --b-variant market-6 --threads 1 --shard ${i}/2 --save-shard ${OUT}/cshard${i}.json
                  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "foh compare --shard ${i}/2 exited with ${rc}: ${err}")
  endif()
endforeach()
execute_process(COMMAND ${FOH} merge ${OUT}/cshard1.json ${OUT}/cshard2.json OUTPUT_QUIET ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh merge of honest compare shards: exit ${rc}: ${err}")
endif()
file(READ ${OUT}/cshard2.json cshard)
list(LENGTH forged_provenance n)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  list(GET forged_provenance ${i} name)
  list(GET forgery_fields ${i} field)
  forge_provenance("${shard}" ${name} f)
  file(WRITE ${OUT}/fprov-${name}.json "${f}")
  expect_refused("a sim shard" "fprov-${name}\\.json" "${field}" ${OUT}/fshard1.json ${OUT}/fprov-${name}.json
                 ${OUT}/fshard3.json)
  forge_provenance("${ishard}" ${name} f)
  file(WRITE ${OUT}/iprov-${name}.json "${f}")
  expect_refused("an --impact sim shard" "iprov-${name}\\.json" "${field}" ${OUT}/ishard1.json
                 ${OUT}/iprov-${name}.json)
  foreach(side a b)
    string(TOUPPER ${side} SIDE)
    forge_provenance("${cshard}" ${name} f ${side})
    file(WRITE ${OUT}/cprov-${side}-${name}.json "${f}")
    expect_refused("a compare shard" "cprov-${side}-${name}\\.json \\(side ${SIDE}\\)" "${field}"
                   ${OUT}/cshard1.json ${OUT}/cprov-${side}-${name}.json)
  endforeach()
endforeach()
# A tune shard records its run without a provenance: one added is refused.
file(READ ${OUT}/tshard1.json t1)
string(JSON t1 SET "${t1}" provenance "${p1}")
file(WRITE ${OUT}/tforged-provenance.json "${t1}")
execute_process(COMMAND ${FOH} tune --merge ${OUT}/tforged-provenance.json ${OUT}/tshard2.json --verify-games 20
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "tforged-provenance.json: provenance: unknown field")
  message(FATAL_ERROR "foh tune --merge of a shard with a provenance added: exit ${rc}: ${err}\n${out}")
endif()

# luacheck on every Lua chunk of the shipped cards and variants (card
# effects, variant hooks and reactions, declared actions), which live in
# YAML: tests/lua_chunks.c writes each to a file of its own, its lines
# those of the YAML file, and luacheck reads them with the sandbox's
# globals, the `game` API and the helpers (.luacheckrc, stds foh_sandbox
# and foh_chunk). `params` is the chunk's own local: unused is fine; so
# are a hook's unused arguments (the engine fixes the signature).
# -DCHUNKS=lua_chunks -DLUACHECK=luacheck -DSRC=source dir -DOUT=build dir
set(dir ${OUT}/lua-chunks)
set(ENV{FOH_SOURCE_DIR} ${SRC}) # where .luacheckrc reads the API and the helpers
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
file(GLOB yaml ${SRC}/cards/*/*.yaml ${SRC}/variants/*/variant.yaml)
execute_process(COMMAND ${CHUNKS} ${dir} ${SRC} ${yaml} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lua_chunks failed (${rc})")
endif()
file(GLOB chunks ${dir}/*.lua)
list(LENGTH chunks n)
if(n LESS 50)
  message(FATAL_ERROR "only ${n} chunks extracted from ${SRC}/cards and ${SRC}/variants")
endif()
execute_process(COMMAND ${LUACHECK} --no-color --config ${SRC}/.luacheckrc --std foh_sandbox+foh_chunk
                        --ignore 211/params 212 -- ${dir}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "luacheck found problems in the cards' or variants' Lua (file names: YAML file and chunk; lines: the YAML file's)")
endif()

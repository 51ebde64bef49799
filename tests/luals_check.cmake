# lua-language-server --check with the type stubs (scripts/types) and the
# project's .luarc.json: on scripts/, then on every Lua chunk of the shipped
# cards and variants (written to files by tests/lua_chunks.c, lines those
# of the YAML files). Any diagnostic at Warning level or above fails.
# Registered only where lua-language-server is installed (docs/lua-types.md).
# -DLUALS=lua-language-server -DCHUNKS=lua_chunks -DSRC=source dir -DOUT=build dir
function(luals_check what dir config)
  execute_process(COMMAND ${LUALS} --check=${dir} --configpath=${config} --checklevel=Warning
                          --check_format=pretty --logpath=${OUT}/luals-log
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REGEX REPLACE "\r[^\n]*>>[^\n\r]*" "" out "${out}") # the progress bar
  message("${what}: ${out}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "no problems found")
    message(FATAL_ERROR "lua-language-server found problems in ${what} (exit status ${rc})")
  endif()
endfunction()

luals_check("scripts/" ${SRC}/scripts ${SRC}/.luarc.json)

set(dir ${OUT}/luals-chunks)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
file(GLOB yaml ${SRC}/cards/*/*.yaml ${SRC}/variants/*/variant.yaml)
execute_process(COMMAND ${CHUNKS} ${dir} ${SRC} ${yaml} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lua_chunks failed (${rc})")
endif()
# The project's settings, with the stubs and the helpers as a library.
file(READ ${SRC}/.luarc.json config)
string(REGEX REPLACE "\"workspace.library\": \\[[^]]*\\]" "\"workspace.library\": [\"${SRC}/scripts\"]" config
       "${config}")
file(WRITE ${OUT}/luals-chunks.luarc.json "${config}")
luals_check("the cards' and variants' chunks" ${dir} ${OUT}/luals-chunks.luarc.json)

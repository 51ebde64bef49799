# foh_plant_temple(ROOT CULTURE): a copy of the base set as ROOT/cards/t6
# (its scripts beside it, as game.yaml names them: ../../scripts) with
# Temple's Culture param 2 -> CULTURE, for the tests of a planted change.
function(foh_plant_temple root culture)
  file(REMOVE_RECURSE ${root})
  file(MAKE_DIRECTORY ${root}/cards)
  file(COPY ${SRC}/cards/base DESTINATION ${root}/cards)
  file(RENAME ${root}/cards/base ${root}/cards/t6)
  file(COPY ${SRC}/scripts DESTINATION ${root})
  file(READ ${root}/cards/t6/3-age-I.yaml y)
  string(REPLACE "  params: {culture: 2}\n  effect: return provide { culture = params.culture }"
                 "  params: {culture: ${culture}}\n  effect: return provide { culture = params.culture }" y2 "${y}")
  if(y2 STREQUAL y)
    message(FATAL_ERROR "could not plant Temple's change")
  endif()
  file(WRITE ${root}/cards/t6/3-age-I.yaml "${y2}")
endfunction()

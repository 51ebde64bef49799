# `foh sim --html` writes a self-contained page whose script draws the
# charts: render it in headless Chromium and check what the script built.
find_program(CHROMIUM NAMES chromium chromium-browser google-chrome)
if(NOT CHROMIUM)
  message(FATAL_ERROR "chromium not found: tools/deps.sh installs it (Debian package chromium)")
endif()
set(page ${OUT}/report.html)
file(REMOVE ${page})
execute_process(COMMAND ${FOH} sim --games 200 --seats greedy,random,random,random --seed 9 --html ${page}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0 OR NOT EXISTS ${page})
  message(FATAL_ERROR "foh sim --html failed (${rc})")
endif()
file(READ ${page} html)
# Self-contained: nothing is fetched from anywhere.
if(html MATCHES "(src|href)=\"?[a-z]+:" OR html MATCHES "@import|url\\(")
  message(FATAL_ERROR "the report refers to an outside resource")
endif()
execute_process(COMMAND ${CHROMIUM} --headless --no-sandbox --disable-gpu --disable-dev-shm-usage
                        --user-data-dir=${OUT}/chromium-profile --dump-dom file://${page}
                RESULT_VARIABLE rc OUTPUT_VARIABLE dom ERROR_QUIET TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "chromium failed (${rc})")
endif()
# The script marks the body with the number of charts it drew; a script
# error leaves the page without it.
if(NOT dom MATCHES "data-rendered=\"5\"")
  message(FATAL_ERROR "the page's script did not draw its 5 charts:\n${dom}")
endif()
if(NOT dom MATCHES "<p id=\"status\"></p>")
  message(FATAL_ERROR "the page still shows its no-script notice")
endif()
# Charts drawn from the data: a bar per seat, per starting card, per card.
string(REGEX MATCHALL "<rect" bars "${dom}")
list(LENGTH bars nbars)
if(nbars LESS 70)
  message(FATAL_ERROR "only ${nbars} bars were drawn")
endif()
foreach(label "seat 1" "seat 4" "The Pyramids" "Agrarian Tribe \\(" "200 games, 4 players, seats greedy,random,random,random")
  if(NOT dom MATCHES ">${label}")
    message(FATAL_ERROR "the rendered page lacks '${label}'")
  endif()
endforeach()
message(STATUS "report rendered: ${nbars} bars")

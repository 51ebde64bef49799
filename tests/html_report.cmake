# `foh sim --html` writes a self-contained page whose script draws the
# charts: render it in headless Chromium and check what the script built.
find_program(CHROMIUM NAMES chromium chromium-browser google-chrome)
if(NOT CHROMIUM)
  message(FATAL_ERROR "chromium not found: tools/deps.sh installs it (Debian package chromium)")
endif()
# Render PAGE in headless Chromium: its DOM once the script has run, into OUT.
function(render page out)
  execute_process(COMMAND ${CHROMIUM} --headless --no-sandbox --disable-gpu --disable-dev-shm-usage
                          --user-data-dir=${OUT}/chromium-profile --dump-dom file://${page}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE dom ERROR_QUIET TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "chromium failed on ${page} (${rc})")
  endif()
  set(${out} "${dom}" PARENT_SCOPE)
endfunction()
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
if(NOT dom MATCHES "data-rendered=\"7\"")
  message(FATAL_ERROR "the page's script did not draw its 7 charts:\n${dom}")
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
# Axes with ticks and labels on every chart, a legend for every colour, the
# added figures (turn order, game length, choices, stalled share).
foreach(what "class=\"axis x-axis\"" "class=\"axis y-axis\"" "class=\"tick-label\"" "class=\"axis-label\""
             "class=\"legend\"" ">1st to act<" ">turns per game<" ">% of games<" ">Choices inside effects<"
             ">stalled games \\(turn limit reached\\)<" ">first player's win rate<")
  if(NOT dom MATCHES "${what}")
    message(FATAL_ERROR "the rendered report lacks ${what}")
  endif()
endforeach()
string(REGEX MATCHALL "class=\"axis x-axis\"" axes "${dom}")
list(LENGTH axes naxes)
string(REGEX MATCHALL "class=\"legend\"" legends "${dom}")
list(LENGTH legends nlegends)
if(naxes LESS 7 OR nlegends LESS 7)
  message(FATAL_ERROR "${naxes} x axes and ${nlegends} legends for 7 charts")
endif()
# No interval below 0% or above 100%.
if(dom MATCHES "\\[-[0-9]" OR dom MATCHES "–-[0-9]" OR dom MATCHES "–(10[0-9]\\.[1-9]|1[1-9][0-9]\\.[0-9])%\\]")
  message(FATAL_ERROR "an interval goes below 0% or above 100%")
endif()
message(STATUS "report rendered: ${nbars} bars, ${naxes} axes, ${nlegends} legends")

# foh sim --impact --html: the per-card impact chart (docs/impact.md), two
# panels sharing the rows: impact on the win with its interval, and the
# owners' win rate with its Wilson interval.
set(ipage ${OUT}/impact.html)
file(REMOVE ${ipage} ${OUT}/impact-report.json)
execute_process(COMMAND ${FOH} sim --games 200 --seats greedy --seed 9 --impact --threads 2 --html ${ipage}
                        --json ${OUT}/impact-report.json
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT EXISTS ${ipage})
  message(FATAL_ERROR "foh sim --impact --html failed (${rc})")
endif()
render(${ipage} idom)
if(NOT idom MATCHES "data-rendered=\"8\"" OR NOT idom MATCHES "<p id=\"status\"></p>")
  message(FATAL_ERROR "the --impact page's script did not draw its 8 charts:\n${idom}")
endif()
foreach(what "<h2 id=\"impact\">Impact of gaining each card<" "class=\"chart impact-chart\"" "class=\"ref zero\""
             "class=\"ref base\"" ">impact on the win \\(points of win %\\)<" ">owners' win rate<"
             ">impact above 0 \\(Benjamini-Hochberg over the cards, 5%\\)<" ">impact not told apart from 0<"
             ">whisker: 95% interval \\(impact: clustered by game; owners: Wilson\\)<"
             ">owners' win rate at the end \\(confounded\\)<" ">dashed: no impact \\(0\\); base win rate 25.0%<"
             "the position explains R² = [0-9.]+ of the gainer's final margin")
  if(NOT idom MATCHES "${what}")
    message(FATAL_ERROR "the rendered --impact page lacks ${what}")
  endif()
endforeach()
# The chart alone: from its <svg> to its </svg>.
string(FIND "${idom}" "class=\"chart impact-chart\"" at)
string(SUBSTRING "${idom}" ${at} -1 chart)
string(FIND "${chart}" "</svg>" end)
string(SUBSTRING "${chart}" 0 ${end} chart)
file(READ ${OUT}/impact-report.json ij)
string(JSON ncards LENGTH "${ij}" impact cards)
string(JSON first GET "${ij}" impact cards 0 name)
string(REGEX MATCHALL "class=\"impact-row\"" rows "${chart}")
list(LENGTH rows nrows)
if(NOT nrows EQUAL ncards OR ncards LESS 50)
  message(FATAL_ERROR "the impact chart has ${nrows} rows for the ${ncards} cards of the JSON report")
endif()
# Sorted by impact: the first row is the JSON's first card.
string(FIND "${chart}" "<title>" t)
string(SUBSTRING "${chart}" ${t} 200 title)
if(NOT title MATCHES "^<title>${first}: impact on the win \\+")
  message(FATAL_ERROR "the impact chart does not start with ${first}, the card of the largest impact")
endif()
# Each panel: an x axis (line, ticks, labels) spanning exactly the panel,
# and every whisker and the dashed reference inside it: no interval is drawn
# outside its axis.
foreach(panel impact owners)
  string(REGEX MATCH "data-${panel}-x0=\"([0-9.]+)\" data-${panel}-x1=\"([0-9.]+)\"" m "${chart}")
  set(x0 ${CMAKE_MATCH_1})
  set(x1 ${CMAKE_MATCH_2})
  if(NOT m OR NOT chart MATCHES "<g class=\"axis x-axis\"><line x1=\"${x0}\" x2=\"${x1}\"")
    message(FATAL_ERROR "the ${panel} panel has no x axis from ${x0} to ${x1}")
  endif()
  string(REGEX MATCHALL "class=\"whisker ${panel}-ci\" x1=\"[-0-9.e]+\" x2=\"[-0-9.e]+\"" whiskers "${chart}")
  list(LENGTH whiskers nw)
  if(nw LESS 40)
    message(FATAL_ERROR "only ${nw} ${panel} intervals were drawn")
  endif()
  foreach(w ${whiskers})
    string(REGEX MATCH "x1=\"([-0-9.e]+)\" x2=\"([-0-9.e]+)\"" m "${w}")
    if(CMAKE_MATCH_1 LESS x0 OR CMAKE_MATCH_2 GREATER x1 OR CMAKE_MATCH_1 GREATER CMAKE_MATCH_2)
      message(FATAL_ERROR "an interval of the ${panel} panel, [${CMAKE_MATCH_1}, ${CMAKE_MATCH_2}], is drawn outside its axis [${x0}, ${x1}]")
    endif()
  endforeach()
endforeach()
string(REGEX MATCHALL "class=\"tick-label\"" ticks "${chart}")
list(LENGTH ticks nticks)
string(REGEX MATCHALL "class=\"axis-label\"" labels "${chart}")
list(LENGTH labels nlabels)
if(nticks LESS 9 OR NOT nlabels EQUAL 2)
  message(FATAL_ERROR "the impact chart has ${nticks} tick labels and ${nlabels} axis labels")
endif()
# Every card of the table, once: the same rows as the chart.
string(REGEX MATCHALL "<tr( class=\"sig\")?><td class=\"l\">${first}</td>" trs "${idom}")
list(LENGTH trs ntrs)
if(NOT ntrs EQUAL 2)
  message(FATAL_ERROR "${first} is in ${ntrs} table rows, not 2 (the card table and the impact table)")
endif()
message(STATUS "impact page rendered: ${nrows} rows, ${nw} owners' intervals")

# foh compare --html: the same checks on the A/B page.
set(cpage ${OUT}/compare.html)
file(REMOVE ${cpage} ${OUT}/compare.json)
execute_process(COMMAND ${FOH} compare --players 4 --games 60 --seed 5 --b-variant culture-2vp --html ${cpage}
                        --json ${OUT}/compare.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE ctext ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT EXISTS ${cpage} OR NOT EXISTS ${OUT}/compare.json)
  message(FATAL_ERROR "foh compare --html --json failed (${rc})")
endif()
file(READ ${cpage} chtml)
if(chtml MATCHES "(src|href)=\"?[a-z]+:" OR chtml MATCHES "@import|url\\(" OR chtml MATCHES "https?://[^\"]*\\.(js|css|woff)")
  message(FATAL_ERROR "the compare page refers to an outside resource")
endif()
render(${cpage} cdom)
# Rates, means, card rates, card means, scores A over B, lengths A over B.
if(NOT cdom MATCHES "data-rendered=\"6\"" OR NOT cdom MATCHES "<p id=\"status\"></p>")
  message(FATAL_ERROR "the compare page's script did not draw its 6 charts:\n${cdom}")
endif()
foreach(what "class=\"axis x-axis\"" "class=\"tick-label\"" "class=\"axis-label\"" "class=\"legend\""
             "class=\"key line\"" "differs \\(survives Benjamini-Hochberg at 5%\\)" "A/B comparison"
             "figures tested; [0-9]+ differ at a false-discovery rate of 5% \\(Benjamini-Hochberg\\)"
             "variant culture-2vp: [^<]*rules.vp_per_full_icon=2" "<tr class=\"sig\"><td class=\"l\">score</td>"
             ">What differs between A and B<" "variants of B: culture-2vp" "class=\"chart overlay\""
             ">Cards: the 25 means with the smallest p-values<")
  if(NOT cdom MATCHES "${what}")
    message(FATAL_ERROR "the rendered compare page lacks ${what}")
  endif()
endforeach()
# The text report agrees with the page: the score differs, the game length does not.
if(NOT ctext MATCHES "\nscore [^\n]*\\*" OR ctext MATCHES "game length[^\n]*\\*")
  message(FATAL_ERROR "compare text:\n${ctext}")
endif()
# Screenshots of both pages and of the impact section (docs/img holds
# copies made the same way): impact-section.html is the --impact page with
# the sections before the impact chart hidden.
file(READ ${ipage} ihtml)
string(REPLACE "</style>" "  #content > :not(#impact):not(#impact ~ *) { display: none; }\n</style>" ihtml "${ihtml}")
file(WRITE ${OUT}/impact-section.html "${ihtml}")
foreach(p report compare impact-section)
  file(REMOVE ${OUT}/${p}.png)
  execute_process(COMMAND ${CHROMIUM} --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars
                          --user-data-dir=${OUT}/chromium-profile --screenshot=${OUT}/${p}.png --window-size=1000,1400
                          file://${OUT}/${p}.html
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET TIMEOUT 120)
  file(SIZE ${OUT}/${p}.png size)
  file(READ ${OUT}/${p}.png magic LIMIT 4 HEX)
  if(NOT rc EQUAL 0 OR NOT magic STREQUAL "89504e47" OR size LESS 20000)
    message(FATAL_ERROR "no screenshot of ${p}.html (${rc}, ${size} bytes)")
  endif()
endforeach()
message(STATUS "compare page rendered; screenshots ${OUT}/report.png, ${OUT}/compare.png, ${OUT}/impact-section.png")

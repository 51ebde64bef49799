# foh tune for the civilization draft with a per-card target (the issue's
# run, on fewer games): the report after the search reads the cards of
# card sets that are still loaded (it read freed ones, and died or told
# "base 0.00"), and states the same base as the search's base loss.
# cmake -DFOH=foh -DSRC=source -DOUT=dir -P tune_card.cmake
set(tune tune --cards civ-draft --seats greedy --games 8 --param cards.war. --max-changes 1 --seed 2)
execute_process(COMMAND ${FOH} ${tune} --target card:war=0..18 OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc WORKING_DIRECTORY ${SRC})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh tune: exit ${rc}\n${out}${err}")
endif()
set(num "[0-9]+\\.[0-9][0-9]")
if(NOT out MATCHES "\nbase loss (${num})\nchange 1: cards\\.war\\.[a-z_]+ [0-9]+ -> [0-9]+ \\(loss (${num})\\)\n")
  message(FATAL_ERROR "foh tune: no base loss and change:\n${out}")
endif()
set(base_loss ${CMAKE_MATCH_1})
set(tuned_loss ${CMAKE_MATCH_2})
if(NOT out MATCHES "\non the search's games:\n  card:war=0\\.\\.18 +base +(${num})( \\(missed\\))? +tuned +(${num})[^\n]*\n  loss: base (${num}), tuned (${num})\n")
  message(FATAL_ERROR "foh tune: no report on the search's games:\n${out}")
endif()
set(base_war ${CMAKE_MATCH_1})
# The report's base is the search's base: the same loss, and War's rate
# is 18 plus that loss (the one target's distance above its band).
if(NOT CMAKE_MATCH_4 STREQUAL base_loss OR NOT CMAKE_MATCH_5 STREQUAL tuned_loss)
  message(FATAL_ERROR "foh tune: base loss ${base_loss}, change's loss ${tuned_loss}, but the report says "
                      "base ${CMAKE_MATCH_4}, tuned ${CMAKE_MATCH_5}:\n${out}")
endif()
string(REPLACE "." "" war_h ${base_war})
string(REPLACE "." "" loss_h ${base_loss})
math(EXPR diff "${war_h} - ${loss_h} - 1800")
if(base_loss STREQUAL "0.00" OR diff LESS -1 OR diff GREATER 1)
  message(FATAL_ERROR "foh tune: War's base rate ${base_war} is not 18 + the base loss ${base_loss}:\n${out}")
endif()
if(NOT out MATCHES "\nverified on 8 fresh games \\(seed [0-9]+\\):\n  card:war=0\\.\\.18 +base +${num}[^\n]*tuned +${num}")
  message(FATAL_ERROR "foh tune: no verification:\n${out}")
endif()
# A target the base's games cannot measure is refused, not counted as met.
foreach(case "card:nosuch=0..5|no card so named" "line:Nope=1..2|no score line so labelled")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 target)
  list(GET case 1 why)
  execute_process(COMMAND ${FOH} ${tune} --target ${target} OUTPUT_VARIABLE o ERROR_VARIABLE err
                  RESULT_VARIABLE rc WORKING_DIRECTORY ${SRC})
  string(REPLACE "." "\\." pattern "--target ${target}: not measured on the base's 8 games: ${why}")
  if(NOT rc EQUAL 2 OR NOT err MATCHES "${pattern}")
    message(FATAL_ERROR "foh tune --target ${target}: exit ${rc}\n${o}${err}")
  endif()
endforeach()
message(STATUS "foh tune: base loss ${base_loss} (War ${base_war}), tuned ${tuned_loss}")

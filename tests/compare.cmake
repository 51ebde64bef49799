# foh compare: identical configurations differ in nothing; a variant that
# doubles Culture VP raises the score significantly, not the game length.
execute_process(COMMAND ${FOH} compare --players 4 --games 80 --seed 5 OUTPUT_VARIABLE same RESULT_VARIABLE rc
                ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT same MATCHES "; 0 differ at a false-discovery rate of 5%")
  message(FATAL_ERROR "identical configurations: exit ${rc}\n${same}")
endif()
execute_process(COMMAND ${FOH} compare --players 4 --games 80 --seed 5 --b-variant culture-2vp
                OUTPUT_VARIABLE diff RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT diff MATCHES "\nscore [^\n]*\\*" OR diff MATCHES "game length[^\n]*\\*")
  message(FATAL_ERROR "culture-2vp: exit ${rc}\n${diff}")
endif()

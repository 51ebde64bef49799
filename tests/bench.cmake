# foh bench --quick: every measurement runs and is recorded (the numbers
# themselves are the machine's, so only their presence and sign are
# checked: speed targets live in docs/performance.md, not in a timed test).
if(NOT OUT)
  message(FATAL_ERROR "OUT (a folder for the test's files) is not set")
endif()
set(dir ${OUT}/bench)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
execute_process(COMMAND ${FOH} bench --quick --threads 2 --long-games 300 --json ${dir}/bench.json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "foh bench --quick exited with ${rc}: ${err}")
endif()
foreach(want "random bots: [0-9]+ games/s on 1 thread" "random bots: [0-9]+ games/s on 2 threads"
        "[0-9.]+ turns and [0-9.]+ Lua calls per game" "legal-action listing [0-9]+ ns \\(grouped [0-9]+ ns\\), apply -?[0-9]+ ns, game copy [0-9]+ ns"
        "greedy: [0-9]+ decisions/s" "ismcts \\(default [0-9]+ iterations\\): [0-9.]+ ms per decision"
        "foh sim of 300 random games on 2 threads: peak RSS [0-9.]+ MiB")
  if(NOT out MATCHES "${want}")
    message(FATAL_ERROR "foh bench printed no '${want}':\n${out}")
  endif()
endforeach()
file(READ ${dir}/bench.json json)
foreach(key random_games_per_s_1_thread random_games_per_s_all_threads turns_per_game lua_calls_per_game
        legal_listing_ns grouped_listing_ns copy_ns greedy_decisions_per_s ismcts_ms_per_decision ismcts_iterations_per_s long_peak_rss_mib)
  string(JSON v ERROR_VARIABLE e GET "${json}" ${key})
  if(e OR NOT v GREATER 0)
    message(FATAL_ERROR "bench.json: '${key}' is missing or not positive (${v}${e})")
  endif()
endforeach()
# A bad player count is refused before anything is measured.
execute_process(COMMAND ${FOH} bench --quick --players 9 RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "foh bench --players 9 exited with ${rc}, not 2: ${err}")
endif()

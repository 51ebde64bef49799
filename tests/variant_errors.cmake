# Variants with mistakes are refused: exit 1, a message with file:line:column,
# the reason and, for an unknown name, the one meant.
function(expect)
  cmake_parse_arguments(E "" "" "VARIANTS;TEXT" ${ARGN})
  set(args)
  foreach(v ${E_VARIANTS})
    list(APPEND args --variant ${DIR}/${v})
  endforeach()
  execute_process(COMMAND ${FOH} play --players 3 ${args} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "${E_VARIANTS}: expected exit 1, got ${rc}: ${err}")
  endif()
  foreach(text ${E_TEXT})
    string(FIND "${err}" "${text}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${E_VARIANTS}: message lacks '${text}': ${err}")
    endif()
  endforeach()
endfunction()
expect(VARIANTS unknown-card TEXT "unknown-card/variant.yaml:5:5: cards.override: unknown card id 'monastary' (did you mean 'monastery'?)")
expect(VARIANTS unknown-field TEXT "unknown-field/variant.yaml:2:1: unknown field 'descripton' (did you mean 'description'?")
expect(VARIANTS unknown-card-field TEXT "unknown-card-field/variant.yaml:6:7: card 'monastery': unknown field 'txet' (did you mean 'text'?")
expect(VARIANTS bad-hook TEXT "bad-hook/variant.yaml:4:3: unknown hook 'after_turn' (did you mean 'after_action'? hooks: setup,")
expect(VARIANTS lua-syntax TEXT "hook 'setup'" "lua-syntax/variant.yaml:7:")
expect(VARIANTS lua-runtime TEXT "hook 'setup'" "lua-runtime/variant.yaml:6:" "bad player 9")
expect(VARIANTS bad-set TEXT "bad-set/variant.yaml:4:3: game.yaml has no 'setup.starting_tokenz' to set (did you mean 'starting_tokens'?")
expect(VARIANTS conflict-a conflict-b
       TEXT "conflict-b/variant.yaml:4:3: variants 'conflict-a' and 'conflict-b' both change setup.starting_tokens")
expect(VARIANTS deck-bottom-twice
       TEXT "deck-bottom-twice/variant.yaml:4:49: setup.deck_bottom: card 'the_internet' is listed twice (items 2 and 3)")
expect(VARIANTS deck-bottom-market
       TEXT "deck-bottom-market/variant.yaml:4:35: setup.deck_bottom: card 'warriors' is of the age dealt to the Market")
expect(VARIANTS market-too-small
       TEXT "market-too-small/variant.yaml:4:24: setup.market_size: the Market holds 2 cards with 3 players, but the 5 cards of the Market age 'A'")
# Limits of issue 11's additions are refused, naming the limit.
expect(VARIANTS too-many-params TEXT "too-many-params/variant.yaml:4:3: variant 'too-many-params': more than 16 params (the engine's limit)")
expect(VARIANTS too-many-actions TEXT "too-many-actions/variant.yaml:12:5: more than 8 declared actions (the engine's limit)")
expect(VARIANTS too-many-events TEXT "too-many-events/variant.yaml:4:11: 'events' lists at most 20 event names (the engine's limit)")
expect(VARIANTS unknown-event TEXT "unknown-event/variant.yaml:5:1: variant 'unknown-event': unknown event 'snipd' (did you mean 'snipe'?")
expect(VARIANTS unknown-param TEXT "unknown-param/variant.yaml:4:3: 'cards.irrigation.params.tokns': the card has no param 'tokns' (did you mean 'tokens'?")
expect(VARIANTS long-param TEXT "long-param/variant.yaml:4:9: variant 'long-param': param 'note' must be a single printable value of at most 63 bytes")
expect(VARIANTS reaction-depth
       TEXT "variant 'reaction-depth' reaction to 'gain': event 'gain': reactions nested more than 8 deep (the engine's limit")

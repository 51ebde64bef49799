-- Helpers of the Faith and Pilgrims expansion (loaded after scripts/effects.lua).

-- Player P makes a Pilgrimage worth PER resource tokens per Faith icon:
-- count P's Faith icons, fire the event 'pilgrimage' {player, faith,
-- tokens = PER x the Faith icons} (a reaction may change `tokens`), then P
-- takes `tokens` (never fewer than 0) from the Supply, as many as it holds.
-- Returns the tokens taken.
function pilgrimage(p, per)
  local faith = game.icons(p, 'faith')
  local ev = game.fire('pilgrimage', { player = p, faith = faith, tokens = per * faith })
  local want = math.max(0, math.tointeger(ev.tokens) or 0)
  local took = game.take_from_supply(p, want)
  game.log('P' .. p .. ' makes a Pilgrimage with ' .. faith .. ' Faith icons: takes ' .. took ..
           ' of ' .. want .. ' tokens from the Supply')
  return took
end

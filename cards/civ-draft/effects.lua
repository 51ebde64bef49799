-- Helpers for the Events' effects of the civilization draft. Each Event's
-- `effect` runs as `local me, target, params = ...` followed by its text:
-- `me` is the player who played it (1-based), `target` the card id or
-- player it was played on (nil when it has none), `params` its numbers.
-- The game API (scripts see it as `game`) is documented in docs/civ-draft.md.

-- "Destroy = Discard Target Card in Play"
function destroy(target)
  if target then game.destroy(target) end
end

-- "Destroy All Troops in Play"
function destroy_all(kind)
  game.destroy_all(kind)
end

-- "Gain 5 VT"
function gain(player, n)
  game.gain(player, n)
end

-- "Target Player loses 5 VT"
function lose(player, n)
  if player then game.lose(player, n) end
end

-- "All Other players lose 3 VT"
function others_lose(me, n)
  for p = 1, game.players() do
    if p ~= me then game.lose(p, n) end
  end
end

-- "Steal 2 VT from each other Player"
function steal_from_each(me, n)
  for p = 1, game.players() do
    if p ~= me then game.steal(p, me, n) end
  end
end

-- "All players discard their Hand"
function all_discard_hands()
  for p = 1, game.players() do game.discard_hand(p) end
end

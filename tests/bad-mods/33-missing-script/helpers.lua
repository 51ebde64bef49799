function take_two(p) game.take_from_supply(p, 2) end

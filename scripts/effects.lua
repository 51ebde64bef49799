-- Effect helpers shared by the cards of a card set.
--
-- A card's `effect` (YAML) is a Lua chunk that returns its effect table;
-- these helpers build the usual ones. Hooks of an effect table, called by
-- the engine with (player, card_id), players numbered from 1:
--   on_gain(p, card)       Instant / Attack / Attack All: once, when gained
--   activate(p, card)      Turn Action; can_activate(p, card) -> boolean
--   provides               Permanent: an icon table, or function(p, card)
--                          returning one, with `reads` and `gives` icon lists
--   end_game(p, card)      End Game: returns the icons it grants
-- Other fields are read by these helpers on the active cards of a Nation:
--   immune_to_attacks      not affected by any Attack or Attack All effect
--   no_own_attacks         own Attack effects are not activated when gained
--   on_attack(p, card)     runs each time the owner activates an attack
-- `native` (the helper's name and arguments, see with_native) lets the
-- engine do the same work in C without calling the function (core/native.c,
-- scripts/API.md); the functions stay the reference: `--lua-only` calls
-- them, and the tests and `foh check` play games both ways. A card's own
-- effect needs no `native`, and a card may change a table a helper built:
-- its own functions then run.
-- Everything goes through the engine's `game` API (scripts/API.md).
-- Types: scripts/types/foh.lua (docs/lua-types.md). Helpers are globals on
-- purpose:
---@diagnostic disable: lowercase-global

-- The hooks an effect table may have that the engine calls itself.
local HOOKS = { 'on_gain', 'provides', 'end_game', 'activate', 'can_activate' }

-- T, an effect table a helper built, with the helper's DESCRIPTION (its
-- name and arguments) for the engine's C fast path, and T's own hook
-- functions beside it: the engine runs the description in C only while
-- the table's functions are still those (a card that changes one, say to
-- add a step, gets its own function run).
---@param t table
---@param description any[]
---@return table t
local function with_native(t, description)
  for _, hook in ipairs(HOOKS) do description[hook] = t[hook] end
  t.native = description
  return t
end

-- Permanent: a constant icon table, e.g. provide { defense = 1 }.
---@param icons foh.icons the icons it provides
---@return foh.effect.permanent
function provide(icons)
  return { provides = icons }
end

-- Permanent: PER icons of GIVE for each icon READ the Nation has (counting
-- effects see stripes and constant effects only: default ruling 6).
---@param give foh.icon the icon it provides
---@param per integer icons given per icon read
---@param read foh.icon the icon it counts
---@return foh.effect.permanent
function provide_per_icon(give, per, read)
  return with_native({
    reads = { read }, gives = { give },
    provides = function(p) return { [give] = per * game.icons(p, read) } end,
  }, { 'provide_per_icon', give, per, read })
end

-- Permanent: PER icons of GIVE for each card of type CTYPE in the Nation.
---@param give foh.icon the icon it provides
---@param per integer icons given per card
---@param ctype foh.card_type the card type it counts
---@return foh.effect.permanent
function provide_per_card(give, per, ctype)
  return with_native({
    reads = {}, gives = { give },
    provides = function(p) return { [give] = per * game.count(p, ctype) } end,
  }, { 'provide_per_card', give, per, ctype })
end

-- The acting player chooses one non-invested Market card of TYPES (all
-- types when nil) and gains it; with none to choose, nothing happens (FAQ Q1).
---@param p foh.player
---@param types? foh.card_type[]
local function choose_and_gain(p, types)
  local pick = game.choose(p, game.market(types), 'card to gain')
  if pick then
    game.gain(p, pick)
  else
    game.log('no card to gain')
  end
end

-- Instant: gain 1 non-invested Market card of one of TYPES.
---@param types? foh.card_type[] nil: any type
---@return foh.effect.on_gain
function gain_from_market(types)
  return with_native({ on_gain = function(p) choose_and_gain(p, types) end }, { 'gain_from_market', types })
end

-- Instant: gain the top card of the Civilization deck.
---@return foh.effect.on_gain
function gain_top_of_deck()
  return with_native({ on_gain = function(p) game.gain_top(p) end }, { 'gain_top_of_deck' })
end

---@param source 'supply'|'reserve'
---@param p foh.player
---@param n foh.tokens
local function take(source, p, n)
  if source == 'supply' then
    game.take_from_supply(p, n)
  elseif source == 'reserve' then
    game.take_from_reserve(p, n)
  else
    error("the source of tokens must be 'supply' or 'reserve', not "
      .. (type(source) == 'string' and "'" .. source .. "'" or 'a ' .. type(source)))
  end
end

-- Instant: PER tokens from SOURCE ('supply' or 'reserve') per icon READ.
---@param source 'supply'|'reserve'
---@param per foh.tokens tokens per icon
---@param read foh.icon the icon it counts
---@return foh.effect.on_gain
function tokens_per_icon(source, per, read)
  return with_native({
    on_gain = function(p) take(source, p, per * game.icons(p, read)) end,
  }, { 'tokens_per_icon', source, per, read })
end

-- Instant: PER tokens from SOURCE per card of type CTYPE.
---@param source 'supply'|'reserve'
---@param per foh.tokens tokens per card
---@param ctype foh.card_type the card type it counts
---@return foh.effect.on_gain
function tokens_per_card(source, per, ctype)
  return with_native({
    on_gain = function(p) take(source, p, per * game.count(p, ctype)) end,
  }, { 'tokens_per_card', source, per, ctype })
end

---@class foh.turn_action_gain
---@field types? foh.card_type[] Market card types to choose from (nil: any)
---@field from_deck? boolean gain the top card of the Civilization deck instead
---@field cost? foh.tokens tokens paid to the Supply first
---@field remove_self? boolean this card leaves the game first
---@field discard_top? foh.card_type the top card of that stack is discarded first

-- Turn Action: gain a card. OPTS: types (Market card types; nil = any),
-- from_deck (gain the top card of the deck instead), cost (tokens paid to
-- the Supply first), remove_self (this card leaves the game first),
-- discard_top (a type: the top card of that stack is discarded first).
-- The action may be taken whenever its cost can be paid (default ruling 4).
---@param opts foh.turn_action_gain
---@return foh.effect.turn_action
function turn_action_gain(opts)
  return with_native({
    can_activate = function(p)
      if opts.cost and game.tokens(p) < opts.cost then return false end
      if opts.discard_top and not game.top(p, opts.discard_top) then return false end
      return true
    end,
    activate = function(p, card)
      if opts.cost then game.pay_to_supply(p, opts.cost) end
      if opts.remove_self then game.discard(card) end
      -- can_activate checked that the pile has a top card.
      ---@diagnostic disable-next-line: param-type-mismatch
      if opts.discard_top then game.discard(game.top(p, opts.discard_top)) end
      if opts.from_deck then
        game.gain_top(p)
      else
        choose_and_gain(p, opts.types)
      end
    end,
  }, { 'turn_action_gain', opts })
end

-- End Game: PER icons of GIVE for each card of type CTYPE.
---@param give foh.icon the icon it scores
---@param per integer icons per card
---@param ctype foh.card_type the card type it counts
---@return foh.effect.end_game
function end_game_per_card(give, per, ctype)
  return with_native({
    end_game = function(p) return { [give] = per * game.count(p, ctype) } end,
  }, { 'end_game_per_card', give, per, ctype })
end

-- End Game: PER icons of GIVE for every EVERY icons READ (rounded down).
---@param give foh.icon the icon it scores
---@param per integer icons per EVERY icons read
---@param read foh.icon the icon it counts
---@param every integer icons read per step (rounded down)
---@return foh.effect.end_game
function end_game_per_icon(give, per, read, every)
  return with_native({
    end_game = function(p) return { [give] = per * (game.icons(p, read) // every) } end,
  }, { 'end_game_per_icon', give, per, read, every })
end

-- End Game: PER icons of GIVE for each full set of one card of each TYPES.
---@param give foh.icon the icon it scores
---@param per integer icons per full set
---@param types foh.card_type[] one card of each makes a set
---@return foh.effect.end_game
function end_game_per_set(give, per, types)
  return with_native({
    end_game = function(p)
      local sets
      for _, t in ipairs(types) do
        local n = game.count(p, t)
        if not sets or n < sets then sets = n end
      end
      return { [give] = per * (sets or 0) }
    end,
  }, { 'end_game_per_set', give, per, types })
end

-- End Game: a fixed icon table.
---@param icons foh.icons the icons it scores
---@return foh.effect.end_game
function end_game_icons(icons)
  return with_native({ end_game = function() return icons end }, { 'end_game_icons', icons })
end

-- After each reaction to the event 'attack' (game.fire's check): the two
-- strengths must still be numbers, for the comparison and the log line. A
-- reaction that breaks them is named in the error, not the attack.
---@param ev table the event's table
local function attack_event_check(ev)
  if type(ev.attack) ~= 'number' or type(ev.defence) ~= 'number' then
    error(string.format("'attack' and 'defence' must stay numbers (now %s and %s)", type(ev.attack),
      type(ev.defence)), 0)
  end
end

-- Opponents an attack by P affects: strictly weaker (attacker: own attack
-- strength; defender: attack + defense), not immune (default ruling 5).
-- Before the comparison each opponent's cards and the variants react to the
-- event 'attack' {attacker, target, card, attack, defence, immune}: a
-- reaction may set immune = true or change the two strengths. (When nothing
-- in the card set reacts to it, game.reacts, the table is not made.)
---@param p foh.player the attacker
---@param card foh.card the attack's card
---@param mine integer the attacker's strength
---@param q foh.player the first opponent to compare (then each later seat)
---@param n integer the number of players
---@param reacts boolean whether anything reacts to the event 'attack'
---@param targets foh.player[] where the weaker opponents are added
---@return any ... for each opponent: seat, defence and a note for the log
local function compare_from(p, card, mine, q, n, reacts, targets)
  if q > n then return end
  if q == p then return compare_from(p, card, mine, q + 1, n, reacts, targets) end
  local attack, defence, immune = mine, game.strength(q, 'defender'), game.has_active(q, 'immune_to_attacks')
  if reacts then -- else the event's table would come back unchanged
    local ev = game.fire('attack', {
      attacker = p, target = q, card = card, attack = attack, defence = defence, immune = immune,
    }, attack_event_check)
    attack, defence, immune = ev.attack, ev.defence, ev.immune
  end
  local note = ''
  if immune then
    note = ' (immune)'
  elseif defence < attack then
    targets[#targets + 1] = q
    note = ' (weaker)'
  end
  return q, defence, note, compare_from(p, card, mine, q + 1, n, reacts, targets)
end

---@param p foh.player the attacker
---@param card foh.card the attack's card
---@return foh.player[] targets in seat order
local function weaker_opponents(p, card)
  local mine = game.strength(p, 'attacker')
  local targets = {}
  -- The log line is formatted by the engine, only when the game keeps a
  -- log: P<seat> <defence><note> per opponent.
  local seen = { 'P%s %s%s', compare_from(p, card, mine, 1, game.players(), game.reacts('attack'), targets) }
  game.log('%s: P%s attacks with strength %s; defenders: %s', game.card(card).name, p, mine, seen)
  return targets
end

-- HIT(p, q), then the event 'attacked' {attacker, target, card}, to which
-- the target's cards (and every other active card) may react.
---@param hit foh.hit
---@param p foh.player the attacker
---@param q foh.player the target
---@param card foh.card the attack's card
local function strike(hit, p, q, card)
  hit(p, q)
  if game.reacts('attacked') then game.fire('attacked', { attacker = p, target = q, card = card }) end
end

-- Start an attack: false if P's own attacks are suppressed; otherwise runs
-- the on_attack hooks of P's active cards (whatever the result).
---@param p foh.player the attacker
---@param card foh.card the attack's card
---@return boolean attacks whether P's attacks are activated
local function begin_attack(p, card)
  if game.has_active(p, 'no_own_attacks') then
    game.log('%s: P%s does not activate attacks', game.card(card).name, p)
    return false
  end
  if game.has_active(p, 'on_attack') then
    for _, id in ipairs(game.active_with(p, 'on_attack')) do
      game.effect(id).on_attack(p, id)
    end
  end
  return true
end

-- The names the attack helpers use, given to the engine's C attack with
-- its description: the effect fields read on active cards and the events.
local ATTACK_NAMES = {
  suppress = 'no_own_attacks', on_attack = 'on_attack', immune = 'immune_to_attacks',
  before = 'attack', after = 'attacked',
}

-- Attack: the attacker chooses one weaker opponent and applies HIT(p, q).
-- HIT_NATIVE: the hit's description, the second value of the hit helpers
-- below (attack(take_tokens(2)) passes both), for the engine's C attack;
-- it is used only if it describes HIT (its field hit is HIT).
---@param hit foh.hit
---@param hit_native? table
---@return foh.effect.on_gain
function attack(hit, hit_native)
  local t = {
    on_gain = function(p, card)
      if not begin_attack(p, card) then return end
      local q = game.choose(p, weaker_opponents(p, card), 'opponent to attack')
      if q then strike(hit, p, q, card) else game.log('no opponent is weaker') end
    end,
  }
  if hit_native and hit_native.hit == hit then with_native(t, { 'attack', hit_native, ATTACK_NAMES }) end
  return t
end

-- Attack All: HIT(p, q) for every weaker opponent, in seat order.
---@param hit foh.hit
---@param hit_native? table as attack's
---@return foh.effect.on_gain
function attack_all(hit, hit_native)
  local t = {
    on_gain = function(p, card)
      if not begin_attack(p, card) then return end
      local targets = weaker_opponents(p, card)
      if #targets == 0 then game.log('no opponent is weaker') end
      for _, q in ipairs(targets) do strike(hit, p, q, card) end
    end,
  }
  if hit_native and hit_native.hit == hit then with_native(t, { 'attack_all', hit_native, ATTACK_NAMES }) end
  return t
end

-- Each hit helper returns the hit and its description: attack(take_tokens(2))
-- gives attack both, and the description lets the engine run the attack in C.

-- Hit: take N tokens from the opponent (as many as they have).
---@param n foh.tokens
---@return foh.hit, table
function take_tokens(n)
  local hit = function(p, q) game.give(q, p, n) end
  return hit, { 'take_tokens', n, hit = hit }
end

-- Hit: the attacker chooses one of the opponent's stacks of TYPES and its
-- top card is discarded.
---@param types foh.card_type[]
---@return foh.hit, table
function discard_top_of(types)
  local hit = function(p, q)
    local tops = {}
    for _, t in ipairs(types) do
      local top = game.top(q, t)
      if top then tops[#tops + 1] = top end
    end
    local pick = game.choose(p, tops, 'card to discard')
    if pick then game.discard(pick) end
  end
  return hit, { 'discard_top_of', types, hit = hit }
end

-- Hit: the top card of each of the opponent's stacks of TYPES is discarded.
---@param types foh.card_type[]
---@return foh.hit, table
function discard_top_each(types)
  local hit = function(_, q)
    for _, t in ipairs(types) do
      local top = game.top(q, t)
      if top then game.discard(top) end
    end
  end
  return hit, { 'discard_top_each', types, hit = hit }
end

-- Hit: the attacker chooses one of the opponent's cards of type CTYPE and
-- it is removed from the game.
---@param ctype foh.card_type
---@return foh.hit, table
function discard_one_of(ctype)
  local hit = function(p, q)
    local pick = game.choose(p, game.nation(q, ctype), 'card to discard')
    if pick then game.discard(pick) end
  end
  return hit, { 'discard_one_of', ctype, hit = hit }
end

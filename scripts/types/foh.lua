---@meta foh
-- Type stubs of the scripting API of The Flow of History, for
-- lua-language-server (LuaCATS annotations): what card effects, variant
-- hooks, reactions and declared actions see in the engine's sandbox
-- (scripts/API.md). This file is never run: the engine loads
-- scripts/effects.lua and the cards' `effect` chunks, not this.
--
-- Kept in step with the engine by `ctest -R lua_stubs`
-- (tests/test_lua_stubs.c): every function of the `game` table the sandbox
-- hands to scripts has a `function game.NAME(` below and every one below
-- exists; likewise the variant hook points, the events and the `fires`
-- kinds. docs/lua-types.md says how to use it.

-- ---------------------------------------------------------------------
-- Units
-- ---------------------------------------------------------------------

---A player number, 1 .. `game.players()`. A hook's player is the card's
---owner (the acting player).
---@alias foh.player integer

---A card id, as in the card files (`"iron_works"`).
---@alias foh.card string

---An icon name of the card set's game.yaml `icons` (base set:
---`attack`, `culture`, `defense`, `harvest`, `industry`, `science`, `trade`).
---@alias foh.icon string

---A card type name of game.yaml `card_types` (base set: `knowledge`,
---`construction`, `military`, `government`, `leader`, `wonder`, `special`).
---@alias foh.card_type string

---A number of resource tokens: a whole number, 0 .. 100000 per call.
---@alias foh.tokens integer

---An icon table: icon name -> count (whole numbers 0 and up), e.g.
---`{ defense = 2 }`.
---@alias foh.icons table<foh.icon, integer>

---What a player can be granted by `game.grant_action`.
---@alias foh.action_kind "invest"|"complete"|"snipe"|"activate"|"harvest"

---The turn action a variant hook is told about (`kind`); `"action"` is a
---declared turn action (game.yaml or a variant's `actions`).
---@alias foh.turn_kind "invest"|"complete"|"snipe"|"activate"|"harvest"|"pass"|"action"

---When the engine calls a card's effect: the `fires` of its timing in
---game.yaml `timings` (docs/card-format.md). `never`: no effect;
---`on_gain`: `foh.effect.on_gain`; `permanent`: `foh.effect.permanent`;
---`turn_action`: `foh.effect.turn_action`; `end_game`: `foh.effect.end_game`.
---@alias foh.fires "never"|"on_gain"|"permanent"|"turn_action"|"end_game"

-- ---------------------------------------------------------------------
-- Read-only tables the API returns
-- ---------------------------------------------------------------------

---`game.card(id)`: a card's fixed facts (read-only).
---@class foh.card_info
---@field id foh.card the card's id
---@field name string the printed name (at most 63 bytes)
---@field age string the age's name (`"S"`, `"A"`, `"I"` ... `"V"`)
---@field age_value integer the age's value (S and A count 0)
---@field type foh.card_type the card type
---@field timing string the timing's name (game.yaml `timings`)
---@field obsolete boolean whether the effect is off at final scoring

---An investment on a Market card (read-only): a player's (`investor`) or a
---neutral investor's (`neutral`); exactly one of the two is set.
---@class foh.investment
---@field card foh.card the Market card
---@field tokens foh.tokens tokens under it
---@field investor? foh.player the investing player
---@field neutral? integer the neutral investor's number, 1 .. setup.neutral_investors

-- ---------------------------------------------------------------------
-- The `game` API (core/rulesets/flow/lua/lua_api.c, scripts/API.md)
-- ---------------------------------------------------------------------

---The engine's API: the only way a script reads or changes the game. Bad
---arguments (unknown card id, player out of range, negative count) raise an
---error and the whole action is rejected. Functions that change the game
---raise an error inside read-only hooks (`can_activate`, counting
---`provides`, `end_game`, the `scoring` hook, an action's `can`).
---@class game
game = {}

-- Reading the game

---The number of players.
---@return integer players
function game.players() end

---The player whose turn it is.
---@return foh.player player
function game.current() end

---The Current Age value: the highest age value among Market cards and
---owned cards (default ruling 2).
---@return integer age_value
function game.age() end

---A card's fixed facts.
---@param id foh.card
---@return foh.card_info info read-only
function game.card(id) end

---Icons of kind ICON in player P's Nation: stripes plus Permanent effects
---(inside a counting effect: stripes plus constant effects only, ruling 6).
---@param p foh.player
---@param icon foh.icon
---@return integer icons
function game.icons(p, icon) end

---Military strength of player P: `"attacker"` counts game.yaml
---`rules.attacker_strength` icons (attack), `"defender"`
---`rules.defender_strength` (attack + defense).
---@param p foh.player
---@param role "attacker"|"defender"
---@return integer strength
function game.strength(p, role) end

---The number of cards of type CTYPE in player P's Nation, covered cards
---included.
---@param p foh.player
---@param ctype foh.card_type
---@return integer cards
function game.count(p, ctype) end

---The id of the top card of player P's pile of type CTYPE.
---@param p foh.player
---@param ctype foh.card_type
---@return foh.card? id nil if the pile is empty
function game.top(p, ctype) end

---The ids of the cards in player P's Nation (of type CTYPE only, if
---given), bottom first.
---@param p foh.player
---@param ctype? foh.card_type
---@return foh.card[] ids read-only
function game.nation(p, ctype) end

---The ids of the cards in player P's Nation whose effects are active (top
---of stacks, the Leader, Wonders).
---@param p foh.player
---@return foh.card[] ids read-only
function game.active(p) end

---The ids of the active cards of player P whose effect table has a true
---value at FIELD, in the order of game.active (one call instead of reading
---game.effect(id)[field] for every active card).
---@param p foh.player
---@param field string a field of the effect table
---@return foh.card[] ids read-only
function game.active_with(p, field) end

---Whether `game.active_with(p, field)` would list any card (without making
---the list).
---@param p foh.player
---@param field string a field of the effect table
---@return boolean
function game.has_active(p, field) end

---The player whose Nation holds card ID.
---@param id foh.card
---@return foh.player? owner nil if no Nation holds it
function game.owner(id) end

---Tokens held by player P.
---@param p foh.player
---@return foh.tokens tokens
function game.tokens(p) end

---Tokens in the Supply.
---@return foh.tokens tokens
function game.supply() end

---Tokens in the Reserve.
---@return foh.tokens tokens
function game.reserve() end

---The ids of the non-invested Market cards, in Market order, of the given
---TYPES (nil: every type).
---@param types? foh.card_type[]
---@return foh.card[] ids read-only
function game.market(types) end

---A card's effect table, read-only (one card cannot change another's).
---@param id foh.card
---@return foh.effect? effect nil if the card has no effect
function game.effect(id) end

---Every Market card with an investor, in Market order.
---@return foh.investment[] investments read-only
function game.investments() end

---Player P's investment.
---@param p foh.player
---@return foh.investment? investment read-only; nil if P has none
function game.investment(p) end

---The investment on Market card FROM (its marker, a player's or a neutral
---one, and the tokens under it) moves to TO, a Market card without investor.
---@param from foh.card
---@param to foh.card
function game.move_investment(from, to) end

---The investment on Market card ID is taken off: its marker comes back to
---its investor and the tokens under it go TO.
---@param id foh.card
---@param to "supply"|"reserve"|foh.player
---@return foh.tokens moved
function game.withdraw_investment(id, to) end

---The cards the Cleanup phase fills the Market to now: `setup.market_size`
---for the player count, plus what scripts changed, plus the `market_size`
---of every card whose effect is active; never below 0.
---@return integer cards
function game.market_size() end

---The Market size changes by N cards (may be negative) for the rest of the
---game. A Market holding more cards than its size keeps them.
---@param n integer
function game.change_market_size(n) end

---The top card of the Civilization deck enters the Market, beyond its size
---(The Future ends the game as when it is dealt).
---@return foh.card? id nil if the deck is empty
function game.deal_to_market() end

---Neutral investor K's card (variants: setup.neutral_investors).
---@param k integer neutral investor, 1 .. setup.neutral_investors
---@return foh.card? id nil if K is not invested
function game.neutral_card(k) end

-- Changing the game (an error inside read-only hooks)

---Moves up to N tokens from the Supply to player P; never from the Reserve
---(default ruling 10).
---@param p foh.player
---@param n foh.tokens
---@return foh.tokens moved
function game.take_from_supply(p, n) end

---Moves N tokens from the Reserve to player P; an empty Reserve
---substitutes tokens (default ruling 9).
---@param p foh.player
---@param n foh.tokens
---@return foh.tokens moved always N
function game.take_from_reserve(p, n) end

---Moves up to N tokens from player P to the Supply.
---@param p foh.player
---@param n foh.tokens
---@return foh.tokens moved
function game.pay_to_supply(p, n) end

---Moves up to N tokens from player FROM to player TO.
---@param from foh.player
---@param to foh.player
---@param n foh.tokens
---@return foh.tokens moved
function game.give(from, to, n) end

---Player P gains non-invested Market card ID: placed by its type's
---stacking rule; its on-gain effect is queued (runs after the current
---hook). An error if ID is not a non-invested Market card.
---@param p foh.player
---@param id foh.card
function game.gain(p, id) end

---Player P gains the top card of the Civilization deck (The Future ends
---the game instead).
---@param p foh.player
---@return foh.card? id nil if the deck is empty
function game.gain_top(p) end

---Card ID, in a Nation, leaves the game; the card below is revealed (its
---Instant effect does not fire again).
---@param id foh.card
function game.discard(id) end

---A decision point: player P picks one of OPTIONS (card ids, strings or
---player numbers; at most 24, labels at most 63 bytes of UTF-8 without
---control characters). No option: nil; one: that one, without asking.
---Otherwise the game pauses until P answers (`FOH_ACT_CHOOSE`) and the
---action re-runs with the answer.
---@generic T: foh.card|string|foh.player
---@param p foh.player
---@param options T[]
---@param prompt? string at most 79 bytes (default `"choose"`)
---@return T? chosen
function game.choose(p, options, prompt) end

---Adds a line to the game log (control characters shown escaped). At most
---1,000 bytes a line, 1 MiB an action. With values, TEXT is a format:
---each `%s` is the next value, `%%` a `%`; a value is a string, a number
---(written as `tostring` writes it) or a table `{format, value...}`,
---written as its format once per group of as many values as it has `%s`,
---the groups separated by `, `. Formatted only when the game keeps a log.
---@param text string the line, or its format when values follow
---@param ... string|number|table the values of the format's `%s`
function game.log(text, ...) end

---A whole number 1 .. N from the game's seeded generator (scripts have no
---`math.random`).
---@param n integer 1 .. 1000000
---@return integer number 1 .. N
function game.random(n) end

---Market card ID leaves the game; the tokens under it go to the Supply and
---its investor's marker comes back.
---@param id foh.card
function game.market_discard(id) end

---Card ID, in a Nation, goes back to the box (not in play, not removed).
---@param id foh.card
function game.to_box(id) end

---Variants: after the current action, player P (whose turn it is) takes
---one bonus action of KINDS or passes; not from inside a bonus action.
---@param p foh.player
---@param kinds foh.action_kind[]
function game.grant_action(p, kinds) end

---Variants: neutral investor K invests in non-invested Market card ID,
---FROM_SUPPLY tokens from the Supply (an error if it holds fewer) and
---FROM_RESERVE from the Reserve.
---@param k integer neutral investor, 1 .. setup.neutral_investors
---@param id foh.card
---@param from_supply foh.tokens
---@param from_reserve foh.tokens
function game.neutral_invest(k, id, from_supply, from_reserve) end

---Fires event EVENT, declared in game.yaml `events` (the engine's own
---events cannot be fired), with the table FIELDS: every reaction sees it,
---and may change it. `fields.name` is set to EVENT. With CHECK, CHECK(fields)
---runs after each reaction; an error it raises is reported as that
---reaction's (its card or variant, and the place of its script).
---@generic E: foh.event
---@param event string
---@param fields E
---@param check? fun(fields: E)
---@return E fields the same table, after the reactions
function game.fire(event, fields, check) end

---Whether anything of the card set (a variant's reaction, a card's `on`
---field) reacts to EVENT (the engine's or a declared one), wherever it is.
---When nothing does, `game.fire` returns its table unchanged: a script may
---skip making it.
---@param event string
---@return boolean
function game.reacts(event) end

-- ---------------------------------------------------------------------
-- params
-- ---------------------------------------------------------------------

---Inside a card's `effect` chunk (or a variant's hook, reaction or action
---chunk): its `params` from YAML, read-only. `true`/`false` are booleans,
---numbers are numbers, anything else a string (docs/card-format.md).
---@type table<string, integer|number|boolean|string>
params = {}

-- ---------------------------------------------------------------------
-- Effect tables: what a card's `effect` chunk returns
-- ---------------------------------------------------------------------

---A card's effect table, returned by its `effect` chunk. Which function
---the engine calls depends on the card's timing (`foh.fires`); the other
---fields are read by the helpers of scripts/effects.lua. Players are
---numbered from 1; PLAYER is the card's owner, CARD its id.
---@class foh.effect
---@field on_gain? fun(player: foh.player, card: foh.card) fires `on_gain` (Instant, Attack, Attack All): once, when the card is first gained, after it is placed
---@field activate? fun(player: foh.player, card: foh.card) fires `turn_action`: the Activate action, while the card is visible
---@field can_activate? fun(player: foh.player, card: foh.card): boolean fires `turn_action`, optional, read-only: whether the cost can be paid (default ruling 4)
---@field provides? foh.icons|fun(player: foh.player, card: foh.card): foh.icons fires `permanent`: an icon table, or a read-only counting function (ruling 6)
---@field reads? foh.icon[] with a counting `provides`: the icons it reads
---@field gives? foh.icon[] with a counting `provides`: the icons it gives (no cycle of reads and gives, checked at load)
---@field end_game? fun(player: foh.player, card: foh.card): foh.icons fires `end_game`, read-only: the icons it scores (default ruling 7)
---@field on? foh.reactions reactions to events while the effect is active
---@field market_size? integer cards the Market holds more (negative: fewer) while the effect is active (not 0; -12 to 12)
---@field immune_to_attacks? boolean (base helpers) not affected by any Attack or Attack All effect
---@field no_own_attacks? boolean (base helpers) own Attack effects are not activated when gained
---@field on_attack? fun(player: foh.player, card: foh.card) (base helpers) runs each time the owner activates an attack
---@field native? any[] (base helpers) the helper's name and arguments, for the engine's C fast path (scripts/API.md)

---The effect of a card whose timing fires `on_gain`.
---@class foh.effect.on_gain: foh.effect
---@field on_gain fun(player: foh.player, card: foh.card)

---The effect of a card whose timing fires `turn_action`.
---@class foh.effect.turn_action: foh.effect
---@field activate fun(player: foh.player, card: foh.card)

---The effect of a card whose timing fires `permanent`.
---@class foh.effect.permanent: foh.effect
---@field provides foh.icons|fun(player: foh.player, card: foh.card): foh.icons

---The effect of a card whose timing fires `end_game`.
---@class foh.effect.end_game: foh.effect
---@field end_game fun(player: foh.player, card: foh.card): foh.icons

---An attack's hit (scripts/effects.lua `attack`, `attack_all`): what the
---attacker P does to the weaker opponent Q.
---@alias foh.hit fun(p: foh.player, q: foh.player)

-- ---------------------------------------------------------------------
-- Events (core/rulesets/flow/lua/lua_hooks.c foh_event_names; game.yaml `events`)
-- ---------------------------------------------------------------------

---Every event table has the event's name; the other fields depend on the
---event. For the engine's events the table is information; for an event
---fired by `game.fire` the reactions may change it.
---@class foh.event
---@field name string the event's name

---A turn begins, before its legal actions are listed (after the variants'
---`turn_start` hooks): what a reaction gives can be used in this turn.
---@class foh.event.turn_start: foh.event
---@field player foh.player

---The Cleanup phase begins (after the variants' `cleanup_start` hooks).
---@class foh.event.cleanup: foh.event
---@field player foh.player

---After Cleanup, before the next player.
---@class foh.event.turn_end: foh.event
---@field player foh.player

---After an Invest.
---@class foh.event.invest: foh.event
---@field player foh.player
---@field card foh.card
---@field tokens foh.tokens invested
---@field fee foh.tokens paid to the Supply besides (invest_cost)

---After a Complete and the card's gain (before its Instant effect runs).
---@class foh.event.complete: foh.event
---@field player foh.player
---@field card foh.card
---@field tokens foh.tokens the tokens under the card, to the Supply
---@field bonus foh.tokens the investor bonus

---After a Snipe and the card's gain: both sides react to it. A player's
---investment sets `investor`, `trade` and `share`; a neutral one `neutral`.
---@class foh.event.snipe: foh.event
---@field player foh.player the sniper
---@field card foh.card
---@field price foh.tokens
---@field investor? foh.player the player sniped
---@field trade? foh.tokens what the investor took for the Trade step
---@field share? foh.tokens what the investor took as a share of the Supply
---@field neutral? integer the neutral investor sniped

---After a Harvest.
---@class foh.event.harvest: foh.event
---@field player foh.player
---@field tokens foh.tokens moved Reserve -> Supply by the icons
---@field took foh.tokens taken from the Supply
---@field top_up foh.tokens taken to top up

---A card enters a Nation.
---@class foh.event.gain: foh.event
---@field player foh.player
---@field card foh.card
---@field how "complete"|"snipe"|"effect"

---A card leaves a Nation.
---@class foh.event.leave: foh.event
---@field player foh.player
---@field card foh.card
---@field how "discarded"|"replaced" `replaced`: by a new Leader

---A card is covered by a newer one of its pile.
---@class foh.event.covered: foh.event
---@field player foh.player
---@field card foh.card the covered card
---@field by foh.card the card on top of it now

---The top card of a pile was discarded: the one below is active again.
---@class foh.event.revealed: foh.event
---@field player foh.player
---@field card foh.card

---The Current Age changed (checked after the action and after Cleanup).
---@class foh.event.age: foh.event
---@field from integer the former Current Age value
---@field to integer the new one

---Asked, read-only, whenever a Snipe's price is needed: while the legal
---actions are listed, when one is checked and when it is taken. A reaction
---may raise or lower `price` (what the sniper pays the investor, or the
---Supply for a neutral marker; the tokens under the card still go to the
---Supply) or set `allowed = false`; it may not change the game.
---@class foh.event.snipe_cost: foh.event
---@field player foh.player the sniper
---@field card foh.card
---@field investor? foh.player the player who invested
---@field neutral? integer the neutral investor's number
---@field price foh.tokens the tokens under the card, as the rulebook says
---@field allowed boolean

---Asked, read-only, whenever an Invest's price is needed (see snipe_cost):
---`fee` tokens go to the Supply besides those placed.
---@class foh.event.invest_cost: foh.event
---@field player foh.player
---@field card foh.card the Market card invested in
---@field fee foh.tokens 0 by the rulebook
---@field allowed boolean

---Asked, read-only, whenever a Complete's price is needed (see
---snipe_cost): `fee` tokens go to the Supply before the card is taken.
---@class foh.event.complete_cost: foh.event
---@field player foh.player
---@field card foh.card the card invested in
---@field fee foh.tokens 0 by the rulebook
---@field allowed boolean

---(base set, game.yaml `events`) An Attack or Attack All effect, for each
---opponent, before the strengths are compared. A reaction may set
---`immune = true` or change `attack` / `defence`; the helper then hits the
---target if not immune and `defence < attack`.
---@class foh.event.attack: foh.event
---@field attacker foh.player
---@field target foh.player
---@field card foh.card the attack's card
---@field attack integer the attacker's strength
---@field defence integer the target's strength
---@field immune boolean

---(base set, game.yaml `events`) After an attack hit a target.
---@class foh.event.attacked: foh.event
---@field attacker foh.player
---@field target foh.player
---@field card foh.card the attack's card

---A card's reactions: the `on` field of its effect table, active while the
---effect is (like a Permanent effect). PLAYER is the card's owner, CARD its
---id; a reaction acts through the `game` API and may call `game.choose`.
---@class foh.reactions
---@field turn_start? fun(player: foh.player, card: foh.card, ev: foh.event.turn_start)
---@field cleanup? fun(player: foh.player, card: foh.card, ev: foh.event.cleanup)
---@field turn_end? fun(player: foh.player, card: foh.card, ev: foh.event.turn_end)
---@field invest? fun(player: foh.player, card: foh.card, ev: foh.event.invest)
---@field complete? fun(player: foh.player, card: foh.card, ev: foh.event.complete)
---@field snipe? fun(player: foh.player, card: foh.card, ev: foh.event.snipe)
---@field harvest? fun(player: foh.player, card: foh.card, ev: foh.event.harvest)
---@field gain? fun(player: foh.player, card: foh.card, ev: foh.event.gain)
---@field leave? fun(player: foh.player, card: foh.card, ev: foh.event.leave)
---@field covered? fun(player: foh.player, card: foh.card, ev: foh.event.covered)
---@field revealed? fun(player: foh.player, card: foh.card, ev: foh.event.revealed)
---@field age? fun(player: foh.player, card: foh.card, ev: foh.event.age)
---@field snipe_cost? fun(player: foh.player, card: foh.card, ev: foh.event.snipe_cost)
---@field invest_cost? fun(player: foh.player, card: foh.card, ev: foh.event.invest_cost)
---@field complete_cost? fun(player: foh.player, card: foh.card, ev: foh.event.complete_cost)
---@field attack? fun(player: foh.player, card: foh.card, ev: foh.event.attack)
---@field attacked? fun(player: foh.player, card: foh.card, ev: foh.event.attacked)

-- ---------------------------------------------------------------------
-- Variants (docs/variants.md): hooks, reactions, declared actions
-- ---------------------------------------------------------------------

---A variant's `hooks`: each is a chunk returning one of these functions
---(`setup: "return function(first) ... end"`). Every hook is called with
---(player, kind); KIND is nil except at `before_action` and `after_action`.
---@class foh.variant.hooks
---@field setup? fun(first: foh.player) once after set-up, before the first turn; its choices are decision points
---@field before_action? fun(player: foh.player, kind: foh.turn_kind) before each turn action
---@field after_action? fun(player: foh.player, kind: foh.turn_kind) after the action and every effect it triggered
---@field cleanup_start? fun(player: foh.player) at the start of the Cleanup phase, before replenishing
---@field after_replenish? fun(player: foh.player) after the first replenish
---@field after_age_check? fun(player: foh.player) after the age check and its replenish
---@field cleanup_end? fun(player: foh.player) after the end-of-game check, before the next player
---@field turn_start? fun(player: foh.player) a turn begins (the first after set-up too), before its legal actions are listed
---@field scoring? fun(player: foh.player): foh.icons at final scoring, read-only: icons scored like an End Game effect

---A variant's reactions, `on`: each is a chunk returning one of these
---functions (`snipe: "return function(ev) ... end"`). Variants react first,
---in variant order.
---@class foh.variant.reactions
---@field turn_start? fun(ev: foh.event.turn_start)
---@field cleanup? fun(ev: foh.event.cleanup)
---@field turn_end? fun(ev: foh.event.turn_end)
---@field invest? fun(ev: foh.event.invest)
---@field complete? fun(ev: foh.event.complete)
---@field snipe? fun(ev: foh.event.snipe)
---@field harvest? fun(ev: foh.event.harvest)
---@field gain? fun(ev: foh.event.gain)
---@field leave? fun(ev: foh.event.leave)
---@field covered? fun(ev: foh.event.covered)
---@field revealed? fun(ev: foh.event.revealed)
---@field age? fun(ev: foh.event.age)
---@field snipe_cost? fun(ev: foh.event.snipe_cost)
---@field invest_cost? fun(ev: foh.event.invest_cost)
---@field complete_cost? fun(ev: foh.event.complete_cost)
---@field attack? fun(ev: foh.event.attack)
---@field attacked? fun(ev: foh.event.attacked)

---A declared turn action (game.yaml or variant.yaml `actions`): `can` and
---`run` are chunks returning these functions. P is the player whose turn
---it is.
---@class foh.action
---@field can? fun(p: foh.player): boolean read-only: whether P may take it now (absent: always)
---@field run fun(p: foh.player) takes it

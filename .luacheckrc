-- Lua scripts run in the engine's sandbox: the `game` API is their only
-- global besides the safe standard library; helpers define globals that
-- card effects call.
std = "lua54"
read_globals = { "game" }
allow_defined_top = true
files["scripts/effects.lua"] = { allow_defined_top = true, ignore = { "131" } }
-- The sandbox's own Lua half reads no global at all: everything it uses
-- is passed in.
files["core/sandbox.lua"] = { std = "none", read_globals = {} }

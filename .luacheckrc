-- Lua scripts run in the engine's sandbox (scripts/API.md, "The sandbox"):
-- they see the `game` API, the safe part of the standard library and the
-- helpers of the scripts; nothing else. The `game` functions are read from
-- the type stubs (scripts/types/foh.lua, kept in step with the engine by
-- `ctest -R lua_stubs`) and the helpers from scripts/effects.lua, so an
-- unknown `game.x` or helper is a warning (docs/lua-types.md).

-- The project's folder: $FOH_SOURCE_DIR, else the working directory or the
-- nearest one above it holding scripts/types/foh.lua (luacheck finds this
-- file the same way, and does not say where it found it).
local function project_dir()
  local dir = os.getenv("FOH_SOURCE_DIR")
  if dir then return dir end
  dir = "."
  for _ = 1, 32 do
    local f = io.open(dir .. "/scripts/types/foh.lua", "r")
    if f then
      f:close()
      return dir
    end
    dir = dir .. "/.."
  end
  return "."
end
local here = project_dir()

-- The names of the lines of file PATH that match PATTERN, or nil if the
-- file cannot be read.
local function names_in(path, pattern)
  local f = io.open(here .. "/" .. path, "r")
  if not f then return nil end
  local list = {}
  for line in f:lines() do
    local name = line:match(pattern)
    if name then list[#list + 1] = name end
  end
  f:close()
  return list
end

local api = names_in("scripts/types/foh.lua", "^function game%.([%w_]+)%(")
local helpers = names_in("scripts/effects.lua", "^function ([%w_]+)%(") or {}
-- Card sets ship helper scripts of their own (game.yaml `scripts`, e.g.
-- cards/faith/faith.lua): their global functions are helpers too.
local set_scripts = io.popen and io.popen("cd '" .. here .. "' && ls cards/*/*.lua 2>/dev/null")
for path in set_scripts and set_scripts:lines() or function() end do
  for _, name in ipairs(names_in(path, "^function ([%w_]+)%(") or {}) do
    helpers[#helpers + 1] = name
  end
end
if set_scripts then set_scripts:close() end

-- The sandbox's globals (core/script/lua_stdlib.c): no io, os, debug, package,
-- require, coroutine, pcall, next, print, getmetatable, setmetatable,
-- rawset, collectgarbage, string.dump, math.random or math.randomseed.
stds.foh_sandbox = {
  read_globals = {
    "assert", "error", "ipairs", "pairs", "select", "tonumber", "tostring", "type",
    "rawequal", "rawlen", "rawget", "load",
    string = { fields = { "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match",
                          "pack", "packsize", "rep", "reverse", "sub", "unpack", "upper" } },
    table = { fields = { "concat", "insert", "move", "pack", "remove", "sort", "unpack" } },
    math = { fields = { "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge",
                        "log", "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad", "sin", "sqrt",
                        "tan", "tointeger", "type", "ult" } },
    utf8 = { fields = { "char", "charpattern", "codepoint", "codes", "len", "offset" } },
    game = api and { fields = api } or { other_fields = true },
  },
}

-- What a card's `effect` or a variant's hook, reaction or action chunk
-- sees besides: the helpers (tests/luacheck_effects.cmake checks the
-- chunks of the shipped cards and variants with it).
stds.foh_chunk = { read_globals = helpers }

std = "foh_sandbox"
files["scripts/effects.lua"] = { allow_defined_top = true, ignore = { "131" } }
files["cards"] = { allow_defined_top = true, ignore = { "131" } }
-- The stubs declare the API for lua-language-server, never run: globals
-- defined and never used, arguments unused, long `---@field` lines.
files["scripts/types"] = { allow_defined_top = true, ignore = { "131", "212", "631" }, globals = { "game", "params" } }
-- The sandbox's own Lua half reads no global at all: everything it uses
-- is passed in.
files["core/script/sandbox.lua"] = { std = "none", read_globals = {} }

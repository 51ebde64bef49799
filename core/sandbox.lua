-- The Lua half of the sandbox (core/sandbox.lua, compiled into the engine
-- by CMakeLists.txt). It runs once per engine, before any script, with the
-- library functions it needs passed in (it reads no global), and returns
-- the `pairs` scripts see. Engine code: its locals are out of scripts' reach,
-- and the state checks of lua_freeze.c skip it.

local next, sort, type, error, real_of = ...

-- pairs in a fixed key order: Lua seeds string hashing per state, so the
-- order of its own pairs could differ between two runs of the same game.
local function before(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  return a < b -- only numbers and strings get here
end

local function pairs(t)
  -- A read-only table lists the keys of the table behind it, which never
  -- leaves this function: values are read, and returned, through t.
  local real = real_of[t] or t
  if type(real) ~= 'table' then
    error('bad argument #1 to \'pairs\' (table expected, got ' .. type(real) .. ')', 2)
  end
  local keys = {}
  for k in next, real do
    local tk = type(k)
    if tk ~= 'number' and tk ~= 'string' then
      error('pairs: keys must be numbers or strings, not ' .. tk, 2)
    end
    keys[#keys + 1] = k
  end
  sort(keys, before)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then return k, t[k] end
  end, t, nil
end

return pairs

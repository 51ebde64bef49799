-- The Lua half of the sandbox (core/script/sandbox.lua, compiled into the engine
-- by CMakeLists.txt). It runs once per engine, before any script, with the
-- library functions it needs passed in (it reads no global), and returns
-- the `pairs` and `table.sort` scripts see. Engine code: its locals are out
-- of scripts' reach, and the state checks of lua_freeze.c know these two.

local next, c_sort, type, error, real_of = ...

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
  c_sort(keys, before) -- unique keys in a total order: any sort gives the same order
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then return k, t[k] end
  end, t, nil
end

-- table.sort(t [, comp]): a merge sort, stable and the same in every run.
-- Lua's own sort picks its pivot from the clock when partitions are
-- unbalanced, so equal elements (or an inconsistent comparator) could come
-- out in another order in another process. Its work is Lua instructions,
-- counted like the script's own.
local function less(a, b) return a < b end

local function sort(t, comp)
  if type(t) ~= 'table' then
    error('bad argument #1 to \'sort\' (table expected, got ' .. type(t) .. ')', 2)
  end
  if comp ~= nil and type(comp) ~= 'function' then
    error('bad argument #2 to \'sort\' (function expected, got ' .. type(comp) .. ')', 2)
  end
  comp = comp or less
  local n = #t
  if n < 2 then return end
  local a, b = {}, {}
  for i = 1, n do a[i] = t[i] end
  local width = 1
  while width < n do
    local i = 1
    while i <= n do
      local mid, hi = i + width, i + 2 * width
      if mid > n + 1 then mid = n + 1 end
      if hi > n + 1 then hi = n + 1 end
      local l, r, k = i, mid, i
      while l < mid and r < hi do
        if comp(a[r], a[l]) then
          b[k] = a[r]
          r = r + 1
        else
          b[k] = a[l]
          l = l + 1
        end
        k = k + 1
      end
      while l < mid do
        b[k] = a[l]
        l, k = l + 1, k + 1
      end
      while r < hi do
        b[k] = a[r]
        r, k = r + 1, k + 1
      end
      i = hi
    end
    a, b = b, a
    width = width * 2
  end
  for i = 1, n do t[i] = a[i] end
end

return pairs, sort

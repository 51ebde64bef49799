---@meta foh_sandbox
-- The basic functions the engine's sandbox gives scripts (scripts/API.md,
-- "The sandbox"; core/script/lua_stdlib.c). .luarc.json turns off
-- lua-language-server's own `basic` library so that `print`, `pcall`,
-- `next`, `setmetatable`, `require`... show as undefined globals, as they
-- are in the engine; the `string` (no `dump`), `table`, `math` (no `random`,
-- `randomseed`: use `game.random`) and `utf8` libraries are Lua 5.4's.
-- There is no `io`, `os`, `debug`, `package` or `coroutine`.

---Raises an error if V is false or nil; returns its arguments otherwise.
---@generic T
---@param v? T
---@param message? any
---@param ... any
---@return T
---@return any ...
function assert(v, message, ...) end

---Raises an error with MESSAGE (LEVEL 1: the message gets the position of
---the caller; the engine adds the script's line in any case).
---@param message any
---@param level? integer
function error(message, level) end

---Iterates over T[1], T[2], ... up to the first nil.
---@generic V
---@param t V[]
---@return fun(t: V[], i: integer): integer, V
---@return V[]
---@return integer
function ipairs(t) end

---Iterates over the keys of T in sorted order (numbers before strings), the
---same in every run; keys must be numbers or strings.
---@generic K, V
---@param t table<K, V>
---@return fun(): K, V
---@return table<K, V>
---@return nil
function pairs(t) end

---The arguments after N (N = '#': their number).
---@param n integer|"#"
---@param ... any
---@return any
function select(n, ...) end

---Converts E to a number (in BASE, if given), or nil.
---@param e any
---@param base? integer
---@return number?
function tonumber(e, base) end

---A string for V: tables and functions are `"table"` and `"function"`
---(never an address).
---@param v any
---@return string
function tostring(v) end

---The type of V.
---@param v any
---@return "nil"|"number"|"string"|"boolean"|"table"|"function"|"thread"|"userdata"
function type(v) end

---Whether V1 and V2 are equal, without metamethods.
---@param v1 any
---@param v2 any
---@return boolean
function rawequal(v1, v2) end

---The length of V without metamethods.
---@param v table|string
---@return integer
function rawlen(v) end

---T[K] without metamethods (a read-only table shows the table behind it).
---@param t table
---@param k any
---@return any
function rawget(t, k) end

---Compiles TEXT (text only, never a binary chunk; at most 64 KiB), always
---in the sandbox's environment.
---@param text string
---@param chunkname? string
---@param mode? "t"
---@return function? chunk
---@return string? error
function load(text, chunkname, mode) end

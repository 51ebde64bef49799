#!/usr/bin/env bash
# The project's hostile inputs as one suite (issue 27): files and streams a
# user hands the engine that once hung it, took quadratic time, or blew its
# memory. Each attack must end within its time guard with a non-zero exit
# and a message naming the file (or, for large but valid input, finish),
# never a hang, a crash or silence. Prints one line per attack with its
# wall-clock and CPU seconds, then "N passed, N failed"; exits 1 if any
# failed.
#
# The guards catch hangs, and must not depend on the machine's speed or
# load (CI runners are slow and shared; a speed target belongs in a
# benchmark, docs/performance.md). A command is stopped as a hang when it
#   - has used CPU_GUARD seconds of CPU time, 60 (300 under ASan): a loop
#     or quadratic work (RLIMIT_CPU, the kernel's own count; each attack
#     below took 18 s to for ever before, and uses at most about 1 s in the
#     Release build, 7 s under ASan, whatever the load), or
#   - has used no CPU time at all for IDLE_GUARD seconds while not done (it
#     is blocked: opening a named pipe nobody writes; a process that is
#     merely waiting for a busy CPU gets some within milliseconds), or
#   - is still running after WALL_GUARD seconds, 600 (the last resort,
#     wide enough for the slowest build on a loaded machine).
# The seconds printed (wall clock and CPU) are what to read.
#   bash tests/hostile_inputs.sh FOH WORK_DIR [CPU_GUARD_SECONDS]
set -uo pipefail
foh=$1
work=$2/hostile-inputs
cpu_guard=${3:-60}
if [ -z "${3:-}" ] && ldd "$1" 2>/dev/null | grep -q libasan; then cpu_guard=300; fi
idle_guard=20
wall_guard=600
src=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
passed=0
failed=0
# A file descriptor nothing is ever written to: `read -t` on it sleeps
# without starting a process (whose CPU time would count as the command's).
exec {nap}<> <(:)

# ticks PID: set ticks to the CPU time of process PID (in clock ticks, all
# threads), or to nothing once it has ended. Builtins only, as above.
ticks() {
  local stat
  ticks=""
  read -r stat 2>/dev/null </proc/"$1"/stat || return
  stat=${stat##*) } # after the command name, which may hold spaces
  local -a f
  read -ra f <<<"$stat"
  [ "${f[0]}" != Z ] || return # ended, not yet waited for
  ticks=$((f[11] + f[12]))     # utime + stime (fields 14 and 15)
}

# guarded COMMAND...: run COMMAND (output in out.txt and err.txt) under the
# guards above; sets rc (124 for a hang, with hang saying which) and secs,
# cpu (wall-clock and CPU seconds).
guarded() {
  local t0 t1 pid last idle=0 waited=0
  hang=""
  times >times0.txt
  t0=$(date +%s.%N)
  (
    ulimit -S -c 0
    ulimit -S -t "$cpu_guard"
    exec "$@"
  ) >out.txt 2>err.txt &
  pid=$!
  ticks "$pid"
  last=$ticks
  # Watch in steps of 0.1 s: the CPU time must move, or the process end.
  while [ -n "$ticks" ]; do
    read -t 0.1 -u "$nap"
    waited=$((waited + 1))
    ticks "$pid"
    [ -n "$ticks" ] || break
    if [ "$ticks" = "$last" ]; then idle=$((idle + 1)); else idle=0; last=$ticks; fi
    if [ "$idle" -ge $((idle_guard * 10)) ]; then
      hang="blocked: no CPU time used for ${idle_guard} s (a hang)"
    elif [ "$waited" -ge $((wall_guard * 10)) ]; then
      hang="still running after ${wall_guard} s (a hang)"
    fi
    if [ -n "$hang" ]; then
      kill -KILL "$pid" 2>/dev/null
      break
    fi
  done
  wait "$pid" 2>/dev/null # (not the shell's "Killed" line: the verdict says it)
  rc=$?
  t1=$(date +%s.%N)
  times >times1.txt
  if [ -n "$hang" ]; then
    rc=124
  elif [ "$rc" = $((128 + 24)) ]; then # SIGXCPU: RLIMIT_CPU's soft limit
    rc=124
    hang="used ${cpu_guard} s of CPU time (a hang or quadratic work)"
  fi
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  # The children's user and system time (the second line of `times`), after
  # minus before: the command's own.
  cpu=$(awk 'function s(x) { split(x, p, "m"); sub("s", "", p[2]); return p[1] * 60 + p[2] }
             FNR == 2 { t = s($1) + s($2); if (FILENAME == ARGV[1]) a = t; else b = t }
             END { printf "%.2f", b - a }' times0.txt times1.txt)
}

# attack NAME WANT_EXIT EXPECTED_TEXT COMMAND...: run COMMAND under the
# guards; it must exit WANT_EXIT ("nonzero" for any failure) with
# EXPECTED_TEXT on stdout or stderr.
attack() {
  local name=$1 want=$2 text=$3
  shift 3
  guarded "$@"
  local why=""
  if [ "$rc" = 124 ]; then
    why=$hang
  elif [ "$rc" -ge 128 ]; then
    why="killed by signal $((rc - 128))"
  elif [ "$want" = nonzero ] && [ "$rc" = 0 ]; then
    why="exit 0, expected a failure"
  elif [ "$want" != nonzero ] && [ "$rc" != "$want" ]; then
    why="exit $rc, expected $want"
  elif ! grep -qF -- "$text" out.txt err.txt; then
    why="no '$text' in its output"
  fi
  if [ -z "$why" ]; then
    passed=$((passed + 1))
    printf 'ok    %6ss %6ss CPU  %s\n' "$secs" "$cpu" "$name"
  else
    failed=$((failed + 1))
    printf 'FAIL  %6ss %6ss CPU  %s: %s\n' "$secs" "$cpu" "$name" "$why"
    { head -c 600 err.txt; echo; } | sed 's/^/        stderr: /'
    { head -c 300 out.txt; echo; } | sed 's/^/        stdout: /'
  fi
}

# The guards themselves, with small limits: a command that spins and one
# that blocks are each stopped as a hang, in bounded time at any load.
hangs() {
  local name=$1 text=$2 saved_cpu=$cpu_guard saved_idle=$idle_guard
  shift 2
  cpu_guard=1 idle_guard=2
  guarded "$@"
  cpu_guard=$saved_cpu idle_guard=$saved_idle
  if [ "$rc" = 124 ] && [[ $hang == *"$text"* ]]; then
    passed=$((passed + 1))
    printf 'ok    %6ss %6ss CPU  %s\n' "$secs" "$cpu" "$name"
  else
    failed=$((failed + 1))
    printf 'FAIL  %6ss %6ss CPU  %s: exit %s, %s\n' "$secs" "$cpu" "$name" "$rc" "${hang:-not stopped as a hang}"
  fi
}
hangs "the guard stops a command that spins (1 s of CPU time here)" "of CPU time" \
  bash -c 'while :; do :; done'
mkfifo guard.fifo
hangs "the guard stops a command that blocks (2 s without CPU time here)" "no CPU time used" cat guard.fifo
rm -f guard.fifo

# A card set folder of our own: the base set and the scripts it names.
fresh_cards() {
  rm -rf cards scripts
  mkdir -p cards
  cp -r "$src/cards/base" cards/base
  cp -r "$src/scripts" scripts
}

# --- Files that are not regular files -------------------------------------
fresh_cards
mkfifo cards/base/0-pipe.yaml
attack "a named pipe among the card files: foh play" 1 "cards/base/0-pipe.yaml: not a regular file (a named pipe)" \
  "$foh" play --cards cards/base --seed 1
attack "a named pipe among the card files: foh check" 1 "0-pipe.yaml: not a regular file (a named pipe)" \
  "$foh" check --cards cards/base
attack "a named pipe among the card files: foh sim" 1 "0-pipe.yaml: not a regular file (a named pipe)" \
  "$foh" sim --cards cards/base --games 10
rm cards/base/0-pipe.yaml
ln -s /dev/zero cards/base/0-zero.yaml
attack "a link to /dev/zero among the card files" 1 "cards/base/0-zero.yaml: not a regular file (a device)" \
  "$foh" play --cards cards/base --seed 1
rm cards/base/0-zero.yaml
mv cards/base/game.yaml cards/base/game.yaml.orig
mkfifo cards/base/game.yaml
attack "game.yaml a named pipe" 1 "cards/base/game.yaml: not a regular file (a named pipe)" \
  "$foh" play --cards cards/base --seed 1
rm cards/base/game.yaml
mv cards/base/game.yaml.orig cards/base/game.yaml
mv scripts/effects.lua scripts/effects.lua.orig
mkfifo scripts/effects.lua
attack "a script a named pipe" 1 "effects.lua: not a regular file (a named pipe)" \
  "$foh" play --cards cards/base --seed 1
rm scripts/effects.lua
ln -s /dev/zero scripts/effects.lua
attack "a script a link to /dev/zero" 1 "effects.lua: not a regular file (a device)" \
  "$foh" play --cards cards/base --seed 1
rm scripts/effects.lua
mv scripts/effects.lua.orig scripts/effects.lua
mkdir -p pipe-variant
mkfifo pipe-variant/variant.yaml
attack "a variant.yaml a named pipe" 1 "pipe-variant/variant.yaml: not a regular file (a named pipe)" \
  "$foh" play --variant ./pipe-variant --seed 1
mkfifo save.json
attack "a save a named pipe: foh replay" 1 "save.json: not a regular file (a named pipe)" "$foh" replay save.json
attack "a save a named pipe: foh play --load" 1 "save.json: not a regular file (a named pipe)" \
  "$foh" play --load save.json
attack "a save a link to /dev/zero" 1 "not a regular file (a device)" "$foh" replay /dev/zero
mkfifo scenario.yaml
attack "a scenario a named pipe" 1 "scenario.yaml: not a regular file (a named pipe)" "$foh" scenario scenario.yaml
mkfifo shard.json
attack "a shard a named pipe" 1 "shard.json: not a regular file (a named pipe)" "$foh" merge shard.json
attack "a tune shard a named pipe" 1 "shard.json: not a regular file (a named pipe)" "$foh" tune --merge shard.json
rm -f save.json scenario.yaml shard.json

# A report written to a named pipe that nobody reads: refused, not a hang.
"$foh" play --seed 1 --save small-save.json --stop-after 3 >/dev/null || echo "cannot make a save"
mkfifo out.fifo
attack "foh sim --json into a named pipe with no reader" 1 "cannot write out.fifo" \
  "$foh" sim --games 10 --json out.fifo
attack "foh sim --html into a named pipe with no reader" 1 "cannot write out.fifo" \
  "$foh" sim --games 10 --html out.fifo
attack "foh sim --games-csv into a named pipe with no reader" 1 "cannot write out.fifo" \
  "$foh" sim --games 10 --games-csv out.fifo
attack "foh sim --save-shard into a named pipe with no reader" 1 "cannot write out.fifo" \
  "$foh" sim --games 10 --shard 1/2 --save-shard out.fifo
attack "foh play --trace into a named pipe with no reader" 1 "cannot write out.fifo" \
  "$foh" play --seed 1 --trace out.fifo
attack "foh legal --json into a named pipe with no reader" 1 "cannot write out.fifo" \
  "$foh" legal small-save.json --json out.fifo
attack "foh check --json into a named pipe with no reader" nonzero "out.fifo" \
  "$foh" check --json out.fifo
attack "foh play --save to a named pipe: refused, not replaced" 1 "out.fifo: not a regular file (a named pipe)" \
  "$foh" play --seed 1 --seats greedy --stop-after 3 --save out.fifo
[ -p out.fifo ] || { failed=$((failed + 1)); echo "FAIL  the named pipe was replaced by the save"; }
echo precious >victim.txt
ln -s "$PWD/victim.txt" planted.json.tmp
attack "foh play --save beside a planted PATH.tmp link" 0 "Winner" \
  "$foh" play --seed 1 --seats greedy --save planted.json
[ "$(cat victim.txt)" = precious ] || { failed=$((failed + 1)); echo "FAIL  the planted link was followed"; }
if mknod -m 666 full c 1 7 2>/dev/null; then
  attack "foh play --save to a device: refused, not replaced" 1 "full: not a regular file (a device or socket)" \
    "$foh" play --seed 1 --seats greedy --stop-after 3 --save full
  [ -c full ] || { failed=$((failed + 1)); echo "FAIL  the device was replaced by the save"; }
fi
rm -f out.fifo small-save.json victim.txt planted.json planted.json.tmp full
bad=$(printf 'cards/bad\xff\xfe')
cp -r cards/base "$bad"
attack "a save of a card folder whose name is not UTF-8: refused, not written without it" 1 "not valid UTF-8" \
  "$foh" play --seed 1 --seats greedy --stop-after 3 --save notutf8.json --cards "$bad"
attack "a shard of a card folder whose name is not UTF-8" 1 "not valid UTF-8" \
  "$foh" sim --games 4 --shard 1/1 --save-shard notutf8-shard.json --cards "$bad"
rm -rf "$bad" notutf8.json notutf8-shard.json

# --- Quadratic input --------------------------------------------------------
fresh_cards
{
  printf -- '- id: big\n  name: Big\n  age: I\n  type: knowledge\n  timing: none\n  stripe: {}\n  text: x\n  params:\n'
  awk 'BEGIN { for (i = 0; i < 120000; i++) printf "    k%d: %d\n", i, i }'
} >cards/base/9-big-params.yaml
attack "a card's params: a map of 120,000 keys" 1 "more than 16 params" "$foh" check --cards cards/base
rm cards/base/9-big-params.yaml
awk 'BEGIN { for (i = 0; i < 120000; i++) printf "k%d: %d\n", i, i }' >cards/base/9-big-map.yaml
attack "a card file: a map of 120,000 keys" 1 "a card file is a list of cards, not a map" "$foh" check --cards cards/base
{
  awk 'BEGIN { for (i = 0; i < 120000; i++) printf "k%d: %d\n", i, i }'
  echo "k77: again"
} >dup.yaml
cp dup.yaml cards/base/9-big-map.yaml
attack "a map of 120,000 keys with a duplicate at the end" 1 "duplicate key 'k77' (first at line 78)" \
  "$foh" check --cards cards/base
rm cards/base/9-big-map.yaml
awk 'BEGIN { printf "["; for (i = 0; i < 4190000; i++) printf "%s0", i ? "," : ""; print "]" }' >cards/base/9-flow.yaml
attack "a card file of 4 million numbers in one line (8 MB)" 1 "more than 2097152 values in" \
  "$foh" check --cards cards/base
rm cards/base/9-flow.yaml
for i in 1 2 3 4 5 6; do
  {
    printf -- '- id: fat%d\n  name: Fat%d\n  age: I\n  type: knowledge\n  timing: none\n  stripe: {}\n  text: x\n  junk: [' "$i" "$i"
    awk 'BEGIN { for (i = 0; i < 2000000; i++) printf "0," }'
    echo '0]'
  } >"cards/base/9-fat$i.yaml"
done
attack "six card files of 2 million values each (24 MB in all)" 1 "values in the files of one card set in all" \
  "$foh" check --cards cards/base
rm cards/base/9-fat*.yaml
{
  echo "name: many keys"
  echo "players: 3"
  echo "steps: [check]"
  echo "expect:"
  awk 'BEGIN { for (i = 0; i < 120000; i++) printf "  k%d: %d\n", i, i }'
} >keys-scenario.yaml
attack "a scenario: a map of 120,000 keys" 1 "unknown field" "$foh" scenario keys-scenario.yaml
{
  printf 'name: many steps\nplayers: 3\nsteps:\n'
  awk 'BEGIN { for (i = 0; i < 1000000; i++) print "- harvest:" }'
} >steps-1m.yaml
attack "a scenario of 1,000,000 steps (11 MB)" 1 "larger than 8 MiB" "$foh" scenario steps-1m.yaml
{
  printf 'name: many steps\nplayers: 3\nsteps:\n'
  awk 'BEGIN { for (i = 0; i < 800000; i++) print "- check:" }'
  printf '  expect: {turn: 0}\n'
} >steps-800k.yaml
attack "a scenario of 800,000 steps (7.2 MB), played" 0 "1 passed, 0 failed" "$foh" scenario steps-800k.yaml
{
  printf 'name: many steps\nplayers: 3\nsteps: ['
  awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "%sharvest", i ? "," : "" }'
  printf ']\n'
} >steps-1m-flow.yaml
attack "a scenario of 1,000,000 harvests in one line (8 MB), played to the game's end" 1 "the game is over" \
  "$foh" scenario steps-1m-flow.yaml
{
  echo "scenarios:"
  awk 'BEGIN { for (i = 0; i < 100000; i++)
    print "- {name: s" i ", players: 3, variants: [" (i % 2 ? "culture-2vp" : "korean-edition") "], steps: [check]}" }'
} >alternating.yaml
attack "100,000 scenarios alternating between two variants (7 MB)" 0 "100000 passed, 0 failed" \
  "$foh" scenario alternating.yaml
rm -f steps-*.yaml keys-scenario.yaml dup.yaml alternating.yaml

# --- Memory -----------------------------------------------------------------
# AddressSanitizer reserves terabytes of address space: no limit fits it.
if ldd "$foh" 2>/dev/null | grep -q libasan; then
  echo "skip          the memory attacks (an ASan build cannot run under prlimit --as)"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
  exit
fi
"$foh" play --seed 1 --save small.json --stop-after 3 >/dev/null || echo "cannot make a save"
python3 - <<'EOF'
import json
s = json.load(open("small.json"))
body = json.dumps({k: v for k, v in s.items() if k != "actions"})[:-1]
with open("save-60m.json", "w") as f:
    f.write(body + ',"actions":[')
    f.write("0," * (30000000 - 1) + "0]}")
with open("save-objects.json", "w") as f:
    f.write(body + ',"actions":[' + ",".join(["{}"] * 2700000) + "]}")
EOF
attack "a 60 MB save of 30 million actions, under 256 MiB of memory" 1 \
  "save-60m.json: the file is larger than 8 MiB (the engine's limit for save files)" \
  prlimit --as=268435456 "$foh" replay save-60m.json
attack "an 8 MB save of 2.7 million empty actions, under 256 MiB of memory" 1 "save-objects.json: " \
  prlimit --as=268435456 "$foh" replay save-objects.json
rm -f save-60m.json save-objects.json small.json

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

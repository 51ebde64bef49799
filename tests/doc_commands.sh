#!/usr/bin/env bash
# Every `./build/foh ...` command line of README.md and docs/play.md (the
# indented code lines), run as written, in order, in a scratch folder that
# has the tree's cards, variants, scripts and tests and build/foh; each must
# exit 0. Rules, so that each line runs as far as possible as written:
#  - the comment after '#' is dropped; "A; B" and "A, B" (two commands on
#    one line) run as two lines; a literal "..." is dropped; COMMAND is play;
#  - every line reads /dev/null as its input: a human seat's game stops at
#    its first decision, saved to foh-autosave.json (docs/play.md);
#  - long runs are shortened: --games N over 20 becomes --games 20, and
#    sim, compare (of games), tune and bench without --games get
#    --games 20; a play with an ismcts bot and no human seat gets
#    --stop-after 40 (ISMCTS thinks for seconds a move);
#  - `foh serve` (which serves until stopped) listens on any free port
#    (--port 0) unless the line names one; once it prints its address its
#    page is fetched, and Ctrl-C (SIGINT) must stop it with status 0;
#  - files the lines name that no earlier line writes are made first:
#    mods/mine (a copy of cards/base with tests/scenarios as its scenarios,
#    the tutorial's mod, docs/modding.md), experiment.yaml (the example of
#    docs/experiments.md with games: 20 and two sweep values), a.json and
#    b.json (foh sim --json reports).
# Usage: doc_commands.sh FOH OUT_DIR SOURCE_DIR
set -uo pipefail
foh=$1
dir=$2/doc-commands
src=$3
rm -rf "$dir" && mkdir -p "$dir/build" "$dir/mods" || exit 1
cd "$dir" || exit 1
ln -s "$foh" build/foh
for d in cards variants scripts tests; do ln -s "$src/$d" "$d"; done
cp -r "$src/cards/base" mods/mine
cp -r "$src/tests/scenarios" mods/mine/scenarios
# The example experiment of docs/experiments.md, shortened.
awk '/^```yaml$/ { on = 1; next } /^```$/ { on = 0 } on' "$src/docs/experiments.md" |
  sed -e 's/^games: [0-9]*/games: 20/' -e 's/^  values: .*/  values: [2, 4]/' >experiment.yaml
./build/foh sim --seats greedy --games 20 --json a.json >/dev/null 2>&1 || { echo "cannot make a.json"; exit 1; }
./build/foh sim --seats greedy --games 20 --seed 2 --json b.json >/dev/null 2>&1 || { echo "cannot make b.json"; exit 1; }

failed=0 ran=0
# foh serve, started as CMD: its page fetched once it listens, then stopped
# with SIGINT; its exit status in serve_rc (1 if it never listened or the
# page did not come).
serve() {
  bash -c "exec $1" </dev/null >serve.out 2>&1 &
  local pid=$! url="" i
  for i in $(seq 100); do
    url=$(grep -o 'http://[0-9.]*:[0-9]*/' serve.out | head -n 1)
    [ -n "$url" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
  done
  local page=1
  [ -n "$url" ] && curl -sf "$url" | grep -q '<html' && page=0
  kill -INT $pid 2>/dev/null
  wait $pid
  serve_rc=$?
  [ $page -eq 0 ] || { echo "(its page did not come)" >>serve.out; [ $serve_rc -ne 0 ] || serve_rc=1; }
}

run() {
  local line=$1 cmd
  cmd=$(sed -E -e 's/ \.\.\.//g' -e 's/ COMMAND / play /' -e 's/--games ([0-9]{3,}|[2-9][1-9]|[3-9][0-9])/--games 20/' <<<"$line")
  local verb
  verb=$(awk '{ print $2 }' <<<"$cmd")
  if [[ $cmd != *--games* && $cmd != *--help* ]]; then
    case $verb in
      sim | tune | bench) cmd="$cmd --games 20" ;;
      compare) [[ $cmd == *.json* ]] || cmd="$cmd --games 20" ;;
    esac
  fi
  if [[ $verb == play && $cmd == *ismcts* && $cmd != *human* && $cmd != *--stop-after* ]]; then
    cmd="$cmd --stop-after 40"
  fi
  ran=$((ran + 1))
  local out rc
  if [[ $verb == serve ]]; then
    [[ $cmd == *--port* ]] || cmd="$cmd --port 0"
    serve "$cmd"
    out=$(cat serve.out)
    rc=$serve_rc
  else
    out=$(timeout 300 bash -c "$cmd" </dev/null 2>&1)
    rc=$?
  fi
  if [ $rc -ne 0 ]; then
    echo "FAILED (exit $rc): $line"
    echo "  ran: $cmd"
    tail -n 5 <<<"$out" | sed 's/^/  | /'
    failed=$((failed + 1))
  else
    echo "ok: $cmd"
  fi
}

for doc in README.md docs/play.md; do
  while IFS= read -r line; do
    line=$(sed -E -e 's/^ +//' -e 's/ +#.*$//' <<<"$line")
    # Two commands on one line: "A; ./build/foh B" or "A, ./build/foh B".
    while [[ $line =~ ^(.*)[\;,]\ (\./build/foh .*)$ ]]; do
      first=${BASH_REMATCH[1]}
      rest=${BASH_REMATCH[2]}
      while [[ $first =~ ^(.*)[\;,]\ (\./build/foh .*)$ ]]; do first=${BASH_REMATCH[1]}; done
      run "$first"
      line=${line#"$first"}
      line=${line#[;,] }
    done
    run "$line"
  done < <(grep -E '^    \./build/foh ' "$src/$doc")
done
echo "$ran command lines of README.md and docs/play.md run, $failed failed"
[ $failed -eq 0 ]

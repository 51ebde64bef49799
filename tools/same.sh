#!/usr/bin/env bash
# tools/same.sh [REF]: The Flow of History's outputs, byte for byte, of this
# tree's build against those of commit REF (default: the last commit before
# the ruleset redesign of issue 28). A redesign proves with it that no game,
# log, save, trace, report, scenario result or check changed.
#
# REF is built in a temporary folder (git archive, Release); this tree's
# build is $FOH_BUILD (default ./build, built if it has no foh). Each
# command runs once with each binary, from its own source tree (so that the
# card sets and scenarios are the tree's own), writing its files into a
# scratch folder; stdout, stderr and every file written are compared.
# Issue 31 added to every report a record of how it was made (the
# "provenance: ..." line, the JSON "provenance" object, a shard's, a merged
# report's "shards_provenance"), removed from both sides like the probes;
# of an HTML report only its data is compared (the page's script changed);
# it restructured foh compare's report (what differs first, fate, the
# ranking of cards) and foh tune's (see docs/tune.md), both listed as
# "changed" rather than compared; and it stars a card's impact only after a
# Benjamini-Hochberg correction: the stars are removed before comparing.
# Normalised before comparing: the two trees' and scratch folders' absolute
# paths (written as SRC and OUT), and wall-clock figures ("in 0.15 s",
# "0.01 / 0.01 / 0.2 ms", "0.1 s in all",
# "N games/s", "played in N s": they vary from run to run), and the effect
# probes' summary foh check added with issue 30 (its "effect probes: ..."
# line and the "probes" object of its JSON: an addition the issue asks for,
# removed from both sides so that every other byte is still compared).
#
# Prints "same NAME" or "DIFFERENT NAME" (with the first lines of the diff)
# per output ("FAILED NAME" when a step of either binary did not exit 0),
# then "N/M same"; exit 0 only when all are the same, 1 when one differs,
# 2 when REF cannot be built.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:-5abe692}
build=${FOH_BUILD:-$src/build}
case $build in /*) ;; *) build=$src/$build ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/foh-same.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! git -C "$src" cat-file -e "$ref^{commit}" 2>/dev/null; then
  echo "same.sh: commit $ref is not in this repository (a shallow clone? git fetch --unshallow)" >&2
  exit 2
fi
mkdir -p "$tmp/ref"
git -C "$src" archive "$ref" | tar -x -C "$tmp/ref"
echo "same.sh: building $ref in $tmp/ref ..."
if ! { cmake -S "$tmp/ref" -B "$tmp/ref/build" -DCMAKE_BUILD_TYPE=Release -DFOH_WERROR=OFF >/dev/null &&
       cmake --build "$tmp/ref/build" -j"$(nproc)" --target foh >/dev/null; }; then
  echo "same.sh: cannot build $ref" >&2
  exit 2
fi
if [ ! -x "$build/foh" ]; then
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j"$(nproc)" --target foh >/dev/null
fi

# run SIDE NAME ARGS...: foh ARGS in SIDE's tree, outputs into $tmp/SIDE/NAME;
# in ARGS, @OUT@ is that scratch folder and @TREE@ the tree (the card set is
# passed as --cards @TREE@/cards/base wherever the command takes --cards, not
# left to the path each binary has compiled in).
run() {
  local side=$1 name=$2 tree bin
  shift 2
  if [ "$side" = old ]; then tree=$tmp/ref bin=$tmp/ref/build/foh; else tree=$src bin=$build/foh; fi
  local out=$tmp/$side/$name step=0 args=() a
  mkdir -p "$out/files"
  # ARGS may hold several commands, split by a lone "::": run in order,
  # in the same scratch folder (a save written, then replayed).
  for a in "$@" ::; do
    if [ "$a" != :: ]; then
      a=${a//@OUT@/$out/files}
      args+=("${a//@TREE@/$tree}")
      continue
    fi
    step=$((step + 1))
    (cd "$tree" && "$bin" "${args[@]}" >"$out/stdout.$step" 2>"$out/stderr.$step"; echo "exit $?" >"$out/status.$step") || true
    args=()
  done
  # Normalise what differs between the two runs without meaning anything.
  find "$out" -type f -print0 | xargs -0 sed -i -E \
    -e "s#$tree#SRC#g" -e "s#$out/files#OUT#g" \
    -e 's/in [0-9]+\.[0-9]+ s\b/in T s/g' -e 's/[0-9]+ games\/s/N games\/s/g' -e 's/played in [0-9.]+ s/played in T s/g' \
    -e 's/[0-9]+\.[0-9]+( \/ [0-9]+\.[0-9]+)* ms\b/T ms/g' -e 's/^[0-9]+\.[0-9]+ s in all$/T s in all/' \
    -e '/^effect probes: /d' -e '/^effects the probes did not run/d' -e '/^  "probes": \{$/,/^  \},$/d' \
    -e '/^provenance: /d' -e '/^  "(shards_)?provenance": \{$/,/^  \},$/d' -e '/^    "provenance": \{$/,/^    \},$/d' \
    -e 's/,"(shards_)?provenance":\{[^}]*\}//g'
  # The impact table's stars after issue 31's Benjamini-Hochberg correction
  # (a star, its legend, the JSON's "significant"): removed on both sides,
  # so that every figure is still compared.
  find "$out" -type f -print0 | xargs -0 perl -0pi -e 's/,\n *"significant": (true|false)//g; s/\]\*( |$)/] $1/mg; s/^game; .\*. where it excludes 0.*\n(\(false-discovery rate 5%\)\n)?//mg'
  # An HTML report: its data alone (issue 31 changed the page's script).
  find "$out" -type f -name '*.html' -print0 | xargs -0 -r sed -i -n '/<script id="report"/p'
}

total=0 same=0
# changed NAME WHY ARGS...: an output an issue changed on purpose: run with
# this tree's binary only (it must succeed), reported, not compared.
changed() {
  local name=$1 why=$2
  shift 2
  run new "$name" "$@"
  total=$((total + 1))
  if grep -L -x "exit 0" "$tmp/new/$name"/status.* | grep -q .; then
    echo "FAILED     $name: foh $* (a step did not exit 0)"
  else
    same=$((same + 1))
    echo "changed    $name: $why"
  fi
}
check() {
  local name=$1
  shift
  run old "$name" "$@"
  run new "$name" "$@"
  total=$((total + 1))
  # Every command must succeed: two identical failures prove nothing.
  if grep -L -x "exit 0" "$tmp/old/$name"/status.* "$tmp/new/$name"/status.* | grep -q .; then
    echo "FAILED     $name: foh $* (a step did not exit 0)"
    head -n 10 -q "$tmp/new/$name"/stderr.* "$tmp/old/$name"/stderr.* | cut -c1-200 | sed "s/^/    /"
  elif diff -r "$tmp/old/$name" "$tmp/new/$name" >"$tmp/diff" 2>&1; then
    same=$((same + 1))
    echo "same       $name"
  else
    echo "DIFFERENT  $name: foh $*"
    head -n 10 "$tmp/diff" | cut -c1-200 | sed "s/^/    /"
  fi
}

c=(--cards @TREE@/cards/base)
# 2 players only with the Banker variant (the base game is for 3 to 5).
check play-2p play "${c[@]}" --players 2 --variant two-player-banker --seats random,ismcts:15 --seed 1
check play-3p play "${c[@]}" --players 3 --seats greedy,ismcts:10,random --seed 2
check play-4p play "${c[@]}" --players 4 --seats ismcts:20,greedy,random,greedy --seed 3
check play-save play "${c[@]}" --players 4 --seats greedy,random,greedy,random --seed 5 --save @OUT@/game.json
check replay play "${c[@]}" --players 3 --seats greedy,random,ismcts:10 --seed 14 --save @OUT@/r.json \
  :: replay @OUT@/r.json :: legal @OUT@/r.json
check play-trace play "${c[@]}" --players 3 --seats greedy,random,random --seed 6 --trace @OUT@/trace.jsonl
check stop-and-load play "${c[@]}" --players 3 --seats random --seed 8 --stop-after 40 --save @OUT@/half.json \
  :: play --load @OUT@/half.json --save @OUT@/whole.json
check sim-json sim "${c[@]}" --games 300 --seed 7 --threads 1 --json @OUT@/sim.json
check sim-html-2threads sim "${c[@]}" --games 300 --seed 7 --threads 2 --html @OUT@/sim.html
check sim-impact sim "${c[@]}" --games 300 --seed 9 --impact --json @OUT@/impact.json
check sim-greedy sim "${c[@]}" --players 3 --seats greedy,random,random --games 100 --seed 4 --json @OUT@/greedy.json
check sim-shards sim "${c[@]}" --games 200 --seed 11 --shard 1/2 --save-shard @OUT@/part1.json \
  :: sim "${c[@]}" --games 200 --seed 11 --shard 2/2 --save-shard @OUT@/part2.json \
  :: merge @OUT@/part1.json @OUT@/part2.json --json @OUT@/merged.json
changed compare "issue 31 restructured foh compare's report" compare --games 200 --seed 3 --a-cards @TREE@/cards/base --b-cards @TREE@/cards/base \
  --b-variant market-6 --json @OUT@/compare.json
changed tune "issue 31: intervals cut at 0, per-card targets, relative steps, the screened changes listed, directional verification" tune "${c[@]}" --games 40 --seed 2 --budget 200 --max-changes 1 --verify-games 0 --out @OUT@/tuned
check scenarios scenario "${c[@]}" tests/scenarios
check scenarios-coverage scenario "${c[@]}" --coverage tests/scenarios
check check check "${c[@]}"
check check-json check "${c[@]}" --json @OUT@/check.json
check variant-game play "${c[@]}" --players 4 --seats greedy,random,random,random --seed 12 --variant korean-edition
check banker play "${c[@]}" --players 2 --seats greedy,random --seed 13 --variant two-player-banker \
  --save @OUT@/banker.json :: replay @OUT@/banker.json
check variants variants

echo "$same/$total same (or changed on purpose, listed above)"
[ "$same" -eq "$total" ]

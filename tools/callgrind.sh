#!/usr/bin/env bash
# Instructions per game under callgrind: repeatable, whatever the machine is
# doing (docs/performance.md). Plays A then B games of random bots (4
# players, one thread) and divides the difference in instructions by B - A,
# so loading the card set is left out; then lists the functions that cost
# most in the longer run. Usage: tools/callgrind.sh [FOH] [A] [B] [SEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
FOH=${1:-./build/foh}
A=${2:-100}
B=${3:-300}
SEATS=${4:-random}
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { # games -> instructions
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" "$FOH" sim --players 4 --games "$1" --seed 1 \
        --threads 1 --seats "$SEATS" >/dev/null 2>"$out/log.$1"
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log.$1"
}
ia=$(count "$A")
ib=$(count "$B")
echo "callgrind: $SEATS bots, 4 players: $ia instructions for $A games, $ib for $B games"
echo "instructions per game: $(( (ib - ia) / (B - A) ))"
echo
echo "most costly functions (self, $B games):"
callgrind_annotate "$out/cg.$B" 2>/dev/null | awk '/file:function/ {f = 1; getline; next} f && n < 15 {print; n++}'

#!/usr/bin/env bash
# foh play --watch (docs/play.md, "Live reload"): a game with a human seat
# driven through a FIFO, its card files edited between the human's turns.
# P1 (human, Agrarian Tribe: 1 harvest icon) harvests every turn; the log's
# harvest line shows P1's harvest icons, so each edit's effect is seen on
# P1's next turn:
#   1. Agrarian Tribe gets a Permanent effect providing params.harvest = 5
#      icons: reloaded (the log says so), P1 then harvests with 6 icons;
#   2. a YAML syntax error: reported with file:line:column, the old
#      definition kept (still 6 icons);
#   3. a Lua syntax error in the effect (with harvest = 9): reported with
#      file:line, kept (still 6);
#   4. the effect fixed with harvest = 9: reloaded, 10 icons;
#   5. a card file with a new card: refused, naming the card; still 10;
#   6. a named pipe among the card files, 7. a card file replaced by a link
#   to /dev/zero: each refused by name (never opened for reading, so the
#   game neither blocks nor spins), the game going on; still 10;
#   then undo goes back past a reload and that turn is played under the new
#   definitions; at the end of input the game is not saved (a game played
#   under changing definitions could not be replayed).
# Usage: watch.sh FOH OUT_DIR
set -euo pipefail
foh=$1
dir=$2/watch
rm -rf "$dir" && mkdir -p "$dir/cards"
here=$(cd "$(dirname "$0")/.." && pwd)
cp -r "$here/cards/base" "$dir/cards/base"
cp -r "$here/scripts" "$dir/scripts" # game.yaml names ../../scripts/effects.lua
cd "$dir"
file=cards/base/1-age-S.yaml
orig=$(<"$file")
# Agrarian Tribe (the file's first card) with its "timing: none" line replaced by $1.
edit() { printf '%s\n' "${orig/timing: none/$1}" >"$file"; }

mkfifo in.fifo
# COLUMNS: the log's lines unwrapped, for the greps below.
COLUMNS=1000 "$foh" play --players 3 --seed 5 --seats human,greedy,greedy --cards cards/base --watch <in.fifo >out.txt 2>err.txt &
pid=$!
exec 3>in.fifo
trap 'exec 3>&- 2>/dev/null || true; kill $pid 2>/dev/null || true' EXIT

fail() {
  echo "FAIL: $*"
  echo "--- stderr:"; cat err.txt
  echo "--- stdout (last 60 lines):"; tail -n 60 out.txt
  exit 1
}
# Wait until P1 has been asked N times (the prompt is flushed before foh
# reads its input; at most 120 s, for a slow build on a loaded machine).
asked() {
  for _ in $(seq 6000); do
    [ "$(grep -c '^P1> ' out.txt || true)" -ge "$1" ] && return 0
    kill -0 $pid 2>/dev/null || fail "foh exited before P1's decision $1"
    sleep 0.02
  done
  fail "P1 not asked $1 times within 120 s"
}
# P1's harvest lines so far, one per line: "N harvest icon(s)".
harvests() { grep -o 'P1 harvests: .*([0-9]* harvest icons\?)' out.txt | grep -o '[0-9]* harvest icons\?' || true; }
last_harvest() { harvests | tail -n 1; }

asked 1
# 1. A new effect with a param. The check before this turn is done: the
# edit is seen before P2's turn; P1's next harvest has 1 + 5 icons.
edit $'timing: permanent\n  params: {harvest: 5}\n  effect: return provide { harvest = params.harvest }'
echo harvest >&3
asked 2
[ "$(last_harvest)" = "1 harvest icon" ] || fail "turn 2's harvest, before the reload: $(last_harvest)"
grep -q '^Reloaded the card set: cards/base/1-age-S.yaml changed ([0-9]* files watched); the game goes on under the new definitions$' out.txt ||
  fail "no reload line in the log"
[ "$(grep -c '^Reloaded the card set' out.txt)" = 1 ] || fail "more than one reload"
echo "1. edit reloaded: ok"

# 2. A YAML syntax error (an unclosed flow mapping).
edit $'timing: permanent\n  params: {harvest: 7\n  effect: return provide { harvest = params.harvest }'
echo harvest >&3
asked 3
[ "$(last_harvest)" = "6 harvest icons" ] || fail "turn 5's harvest under the new effect: $(last_harvest)"
grep -q '^foh play: watch: kept the old definitions: cards/base/1-age-S.yaml:[0-9]*:[0-9]*: ' err.txt ||
  fail "no file:line:column message for the YAML error"
echo "2. YAML error reported, old definitions kept: ok"

# 3. A Lua syntax error in the effect (and a new param value, not taken).
edit $'timing: permanent\n  params: {harvest: 9}\n  effect: return provide { harvest = params.harvest'
echo harvest >&3
asked 4
[ "$(last_harvest)" = "6 harvest icons" ] || fail "turn 8's harvest after the YAML error: $(last_harvest)"
grep -q "^foh play: watch: kept the old definitions: card 'agrarian_tribe': cards/base/1-age-S.yaml:[0-9]*: " err.txt ||
  fail "no file:line message naming the card for the Lua error"
[ "$(grep -c 'kept the old definitions' err.txt)" = 2 ] || fail "each broken edit is reported once"
echo "3. Lua error reported, old definitions kept: ok"

# 4. Fixed, with harvest = 9.
edit $'timing: permanent\n  params: {harvest: 9}\n  effect: return provide { harvest = params.harvest }'
echo harvest >&3
asked 5
[ "$(last_harvest)" = "6 harvest icons" ] || fail "turn 11's harvest (the fix is seen after it): $(last_harvest)"
[ "$(grep -c '^Reloaded the card set: cards/base/1-age-S.yaml changed' out.txt)" = 2 ] || fail "the fix was not reloaded"

# 5. A card added: refused, naming it; the game goes on under harvest = 9.
printf -- '- id: extra_tribe\n  name: "Extra Tribe"\n  age: S\n  type: government\n  timing: none\n  text: "x"\n' \
  >cards/base/8-extra.yaml
echo harvest >&3
asked 6
[ "$(last_harvest)" = "10 harvest icons" ] || fail "turn 14's harvest under harvest = 9: $(last_harvest)"
grep -q "^foh play: watch: kept the old definitions: cards/base/8-extra.yaml added: card 'extra_tribe' is new (cards/base/8-extra.yaml:1): a game in progress keeps its cards, in their order$" err.txt ||
  fail "the added card was not refused by name"
echo "4, 5. fixed edit reloaded, added card refused: ok"

# Undo twice: back to P1's decision of turn 11, before the second reload;
# that turn is played again under the new definitions (10 icons, not 6).
echo undo >&3
asked 7
grep -q "^Undone: back to P1's decision of turn 14" out.txt || fail "the first undo"
echo undo >&3
asked 8
grep -q "^Undone: back to P1's decision of turn 11" out.txt || fail "undo past the reload"
echo harvest >&3
asked 9
# P1's harvests: turns 2 (before the first reload), 5, 8, 11, 14, then 11 again.
[ "$(harvests | sed 's/ harvest icons\?//' | tr '\n' ,)" = "1,6,6,6,10,10," ] ||
  fail "turn 11 played again after undo: $(harvests | tr '\n' ,)"

# 6. A named pipe added among the card files (the extra card file gone):
# never opened for reading, refused by name; the game goes on.
rm cards/base/8-extra.yaml
mkfifo cards/base/0-pipe.yaml
echo harvest >&3
asked 10
grep -q "^foh play: watch: kept the old definitions: cards/base/0-pipe.yaml: not a regular file (a named pipe)$" err.txt ||
  fail "the named pipe was not refused by name"
[ "$(last_harvest)" = "10 harvest icons" ] || fail "the harvest after the named pipe: $(last_harvest)"
echo "6. named pipe refused, the game goes on: ok"

# 7. A card file replaced by a link to /dev/zero: never read for ever.
rm cards/base/0-pipe.yaml
mv "$file" saved-age-S.yaml
ln -s /dev/zero "$file"
echo harvest >&3
asked 11
grep -q "^foh play: watch: kept the old definitions: cards/base/1-age-S.yaml: not a regular file (a device)$" err.txt ||
  fail "the link to /dev/zero was not refused by name"
[ "$(last_harvest)" = "10 harvest icons" ] || fail "the harvest after /dev/zero: $(last_harvest)"
rm "$file"
mv saved-age-S.yaml "$file"
echo harvest >&3
asked 12
[ "$(last_harvest)" = "10 harvest icons" ] || fail "the harvest with the file back: $(last_harvest)"
echo "7. link to /dev/zero refused, the game goes on: ok"

# End of input: not saved, saying why.
exec 3>&-
wait $pid || fail "foh exited with $?"
trap - EXIT
grep -q '^End of input: the game could not be saved: the game went on under reloaded card files' out.txt ||
  fail "the end of input saved a game continued under reloaded files"
[ ! -e foh-autosave.json ] || fail "foh-autosave.json written"
echo "undo, end of input: ok"

#!/bin/bash
# foh play --watch on the civilization draft (tests/civ/CMakeLists.txt):
# usage: watch.sh FOH SRC OUT. A human seat fed slowly through a pipe while
# the card files are edited: a changed number is reloaded between turns, a
# mistake is told and the old definitions kept, an added card is refused
# (the game cannot carry over), and the game ends.
set -u
FOH=$1 SRC=$2 OUT=$3
set_dir=$OUT/watch-set
rm -rf "$set_dir" && cp -r "$SRC/cards/civ-draft" "$set_dir" && rm -rf "$set_dir/scenarios" "$set_dir/variants"
feed() { for _ in $(seq 1 "$1"); do echo 1; sleep 0.05; done; }
{
  feed 15
  sed -i 's/boon_vt: 3 /boon_vt: 30/' "$set_dir/game.yaml"
  feed 15
  sed -i 's/base_hand: 3 /base_hnd: 3 /' "$set_dir/game.yaml"
  feed 15
  sed -i 's/base_hnd: 3 /base_hand: 3 /' "$set_dir/game.yaml"
  printf '  - {id: extra, name: Extra, type: advance, adds: {culture: 1}}\n' >> "$set_dir/1-ancient.yaml"
  feed 3000
} | "$FOH" play --cards "$set_dir" --players 2 --seats human,greedy --watch --seed 3 > "$OUT/watch.out" 2>&1
status=$?
fail() { echo "watch.sh: $1"; tail -20 "$OUT/watch.out"; exit 1; }
[ $status -eq 0 ] || fail "exit $status"
grep -q "Reloaded the card set: .*game.yaml changed" "$OUT/watch.out" || fail "no reload of the edited number"
grep -q "watch: kept the old definitions: .*game.yaml:19:3: unknown rule 'base_hnd'" "$OUT/watch.out" || fail "the mistake was not told"
grep -q "watch: kept the old definitions: .*cards cannot be added or removed during a game" "$OUT/watch.out" || fail "the added card was not refused"
grep -q "^Result: P[12]" "$OUT/watch.out" || fail "the game did not end"
echo "watch.sh: reload, mistake and added card as expected"

#!/usr/bin/env bash
# Issue 32, the human seat through pipes, one check per item:
#  1. a game a bot's turn ends shows the last turns and the final board
#     before "Game over";
#  2. (Ctrl-C: human_tmux24) SIGINT to a piped game of another ruleset
#     saves it and exits 0;
#  3. the compact board by default, the full one on `board`; every line
#     within COLUMNS=60, while the bots' output ignores COLUMNS;
#  4. previews of Snipe (cost, the card covered), Complete (investor
#     bonus), attacks (the defenders' strengths); hint values explained;
#  5. the icon legend in `help`;
#  6. reconstructed stripes marked (help CARD, the boards);
#  7. the Banker opening (dealt cards, who is to act), "the Banker" in the
#     log, no winner for a game stopped, `help gandhi`, "1 token", saving
#     after a --watch reload.
# Usage: human_issue32.sh FOH OUT_DIR SOURCE_DIR
set -euo pipefail
foh=$1
dir=$2/issue32
src=$3
rm -rf "$dir" && mkdir -p "$dir"
cd "$dir"
for i in $(seq 400); do echo harvest; done >harvest.txt
for i in $(seq 600); do echo 1; done >ones.txt
fail() { echo "FAIL: $*"; exit 1; }
# Whether file $1 has the lines matching $2, $3, ... in that order.
in_order() {
  local f=$1
  shift
  awk -v n=$# 'BEGIN { for (i = 1; i < ARGC; i++) re[i] = ARGV[i]; ARGC = 1; k = 1 }
               k <= n && $0 ~ re[k] { k++ } END { exit k <= n }' "$@" <"$f"
}

# 1. The end of the game: the bots' turns after P1's last input, then the
# final board, then Game over.
<harvest.txt "$foh" play --seats human,greedy,greedy,greedy --seed 1 >end.txt || fail "1: exit $?"
in_order end.txt '^P1> harvest$' '^The last turns, since the last decision at the table:$' '^P1 harvests' \
  '^Turn [0-9]+: P4' '^P4 ' '^== The final board, after [0-9]+ turns ==$' '^Nations$' '^Game over after' \
  '^Winner: ' || fail "1: the last turns and the final board are not shown before Game over"
[ "$(grep -c '^Game over after' end.txt)" = 1 ] || fail "1: Game over twice"
echo "1. the last turns and the final board before Game over: ok"

# 2. Ctrl-C (SIGINT) while a human of another ruleset's game is asked:
# saved to --save, exit 0, said.
mkfifo in.fifo
"$foh" play --cards "$src/tests/toy/cards" --players 2 --seats human,greedy --save toy.json <in.fifo >int.txt 2>&1 &
pid=$!
exec 3>in.fifo
for _ in $(seq 6000); do grep -q 'your action' int.txt && break; sleep 0.02; done # 120 s at most
kill -INT $pid
wait $pid || fail "2: Ctrl-C: exit $?"
exec 3>&-
grep -q '^Interrupted (Ctrl-C): the game is saved in toy.json' int.txt || fail "2: Ctrl-C did not save: $(cat int.txt)"
"$foh" replay toy.json >/dev/null || fail "2: the save after Ctrl-C does not replay"
echo "2. Ctrl-C saves (another ruleset's human seat): ok"

# 3. Compact board, full board on `board`, widths.
printf 'board\nquit\n\n' | COLUMNS=60 "$foh" play --players 4 --seed 3 --seats human,greedy,greedy,greedy >w60.txt ||
  fail "3: exit $?"
grep -q '^Market (\* a stripe reconstructed, not printed):' w60.txt || fail "3: no compact board"
grep -q '^Market$' w60.txt || fail "3: board does not show the full board"
awk 'length($0) > 60 { print; bad = 1 } END { exit bad }' w60.txt || fail "3: lines wider than COLUMNS=60"
<harvest.txt COLUMNS=60 "$foh" play --seats human,greedy,greedy,greedy --seed 1 >end60.txt
awk 'length($0) > 60 { print; bad = 1 } END { exit bad }' end60.txt || fail "3: log or score lines wider than 60"
grep -q '^Final scores' end60.txt || fail "3: no score table at 60 columns"
# Words are never cut: each line ends with a whole word of the game's text.
grep -Eq '^P[0-9] [a-z]+ [^ ]+' end60.txt || fail "3: no log line"
! grep -Eq '(^| )(Supp|Reser|toke|investo)$' end60.txt || fail "3: a word broken at the end of a line"
# The bots' output ignores the width (byte for byte).
"$foh" play --seed 1 >bots.txt
COLUMNS=60 "$foh" play --seed 1 >bots60.txt
cmp -s bots.txt bots60.txt || fail "3: COLUMNS changed the bots' output"
awk 'length($0) > 60 { n++ } END { exit !(n > 0) }' bots.txt || fail "3: the bots' lines were wrapped"
echo "3. compact board, board, widths (and the bots' output unchanged): ok"

# 4. Previews in the list, hint values explained.
<ones.txt COLUMNS=400 "$foh" play --players 4 --seed 3 --seats human,greedy,greedy,greedy >pre.txt || fail "4: exit $?"
grep -Eq '^ +[0-9]+ Snipe [A-Za-z ]+ \(pays [0-9]+ tokens?, .*covers [A-Z][a-z A-Z]+ \(its stripe stays, its effect ends\)\)$' pre.txt ||
  fail "4: no Snipe preview with its cost and the card it covers"
grep -Eq '^ +[0-9]+ Complete [A-Za-z ]+ \([0-9]+ tokens? to the Supply, investor bonus [0-9]+ \([a-z]+\) from the Supply' pre.txt ||
  fail "4: no Complete preview with its investor bonus"
<ones.txt COLUMNS=400 "$foh" play --players 4 --seed 8 --seats human,greedy,greedy,greedy >atk.txt || fail "4: exit $?"
grep -Eq '^ +[0-9]+ Complete Knights \(.*Knights: P1 attacks with strength [0-9]+; defenders: P2 [0-9]+, P3 [0-9]+, P4 [0-9]+' atk.txt ||
  fail "4: no attack preview with the defenders' strengths"
printf 'hint\nquit\n\n' | "$foh" play --players 4 --seed 3 --seats human,greedy,greedy,greedy >hint.txt
grep -Eq '^  1\. .*: [-+][0-9]+\.[0-9] \((ahead of|behind|level with) the best opponent\)$' hint.txt ||
  fail "4: hint values without their meaning"
echo "4. previews (Snipe, Complete, attacks) and hint: ok"

# 5, 6, 7: help, reconstructed stripes, help gandhi.
printf 'help\nhelp temple\nhelp gandhi\nhelp GANDHI\nboard\nquit\n\n' |
  COLUMNS=1000 "$foh" play --players 4 --seed 3 --seats human,greedy,greedy,greedy >help.txt
grep -q '^Icons: ⚔ attack, ♪ culture, ◆ defense, ♣ harvest, ⚙ industry, ⚗ science, ⚖' help.txt || fail "5: no icon legend"
grep -q "^A card's stripe is the icons its Nation gains from it" help.txt || fail "5: the legend does not say what a stripe is"
grep -q '^Temple (temple): age I, construction.*; stripe 1 culture (reconstructed);' help.txt ||
  fail "6: help CARD does not mark the reconstructed stripe"
grep -q 'Barracks (A construction: 1 attack\*)' help.txt || fail "6: the compact board does not star reconstructed stripes"
grep -Eq '\(stripe [^)]*\(reconstructed\)\)' help.txt || fail "6: the full board does not mark reconstructed stripes"
[ "$(grep -c '^Mahatma Gandhi (mahatma_gandhi)' help.txt)" = 2 ] || fail "7: help gandhi / GANDHI does not find Mahatma Gandhi"
echo "5, 6. icon legend, reconstructed stripes; 7. help gandhi: ok"

# 7. The Banker opening: dealt, not owned; P1 (who chooses) to act; quit
# names no winner.
printf 'board\nquit\n\n' | COLUMNS=1000 "$foh" play --players 2 --variant two-player-banker --seats human,greedy --seed 4 >bank.txt
grep -q '^    government: dealt Seafaring Traders, Religious Tribe (one is kept' bank.txt || fail "7: dealt cards shown as owned"
grep -q '^  P1 (you) to act: .* dealt Seafaring Traders or Religious Tribe' bank.txt || fail "7: compact: dealt cards, P1 to act"
grep -q '^P1 (you): .*; to act$' bank.txt || fail "7: P1 (choosing) is not the one to act"
grep -Eq '^P2: .*to act' bank.txt && fail "7: P2 marked to act while P1 chooses"
grep -Eq 'WINNER|^Winner:' bank.txt && fail "7: a game quit names a winner"
grep -q '^No winner: the game is not over' bank.txt || fail "7: quit does not say there is no winner"
# The Banker by name; singular nouns (the bots' log keeps its words).
<ones.txt "$foh" play --players 2 --variant two-player-banker --seats human,greedy --seed 5 >bank2.txt
grep -q 'the Banker invests 2 tokens in Warriors' bank2.txt || fail "7: the Banker not named"
grep -q 'neutral investor' bank2.txt && fail "7: 'neutral investor' shown to the human"
grep -Eq '(^|[^0-9])1 (tokens|icons|[A-Za-z]+ icons)\b' bank2.txt && fail "7: '1 tokens' shown to the human"
grep -Eq '(^|[^0-9])1 token\b' bank2.txt || fail "7: no '1 token' line to check"
"$foh" play --players 2 --variant two-player-banker --seed 5 >bank-bots.txt
grep -q 'neutral investor 1 invests' bank-bots.txt ||
  fail "7: the bots' log changed"
echo "7. Banker opening, the Banker, no winner on quit, 1 token: ok"

# 7. Saving after a --watch reload: an edit the game so far does not use
# (a card still in the deck) keeps it replayable.
mkdir -p w/cards && cp -r "$src/cards/base" w/cards/base && cp -r "$src/scripts" w/scripts
cd w
mkfifo in.fifo
COLUMNS=1000 "$foh" play --players 3 --seed 5 --seats human,greedy,greedy --cards cards/base --watch <in.fifo >out.txt 2>err.txt &
pid=$!
exec 3>in.fifo
asked() { for _ in $(seq 6000); do [ "$(grep -c '^P1> ' out.txt || true)" -ge "$1" ] && return 0; sleep 0.02; done; fail "7: P1 not asked $1 times"; }
asked 1
sed -i 's/Add 1 resource token from the Supply/Add one resource token from the Supply/' cards/base/5-age-III.yaml
grep -q 'Add one resource token' cards/base/5-age-III.yaml || fail "7: the test's edit did not apply"
echo harvest >&3
asked 2
grep -q '^Reloaded the card set: cards/base/5-age-III.yaml changed' out.txt || fail "7: no reload: $(cat err.txt)"
echo "save after.json" >&3
echo quit >&3
echo >&3
exec 3>&-
wait $pid || fail "7: --watch game exit $?"
grep -q '^save: the game is saved in after.json' out.txt || fail "7: not saved after the reload: $(grep -i saved out.txt)"
"$foh" replay after.json >/dev/null || fail "7: the save after the reload does not replay"
echo "7. saving after a --watch reload: ok"

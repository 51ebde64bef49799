#!/usr/bin/env bash
# Issue 32 in a real 80x24 terminal (tmux): the compact board, the list of
# actions and the prompt fit on the screen at once (the visible pane, not
# its scrollback, shows the Market, every Nation and the prompt); Ctrl-C
# saves the game (to --save) and exits cleanly with a message, and the
# save resumes.
# Usage: human_tmux24.sh FOH OUT_DIR
set -euo pipefail
foh=$1
out=$2/tmux24
rm -rf "$out" && mkdir -p "$out"
command -v tmux >/dev/null || { echo "tmux is missing (tools/deps.sh installs it)"; exit 1; }
sock=$out/sock
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null || true' EXIT
t -f /dev/null new-session -d -s foh -x 80 -y 24 \
  "env TERM=xterm-256color LANG=C.UTF-8 NO_COLOR= $foh play --players 4 --seed 3 --seats human,greedy,greedy,greedy --save $out/game.json; echo exit=\$?; sleep 180"

# Wait until TEXT is on the visible screen (120 s at most: a slow build on
# a loaded machine; it returns as soon as TEXT is there).
visible() {
  for _ in $(seq 2400); do
    t capture-pane -p -J -t foh >"$out/pane.txt"
    if grep -qF -- "$1" "$out/pane.txt"; then return 0; fi
    sleep 0.05
  done
  echo "not on the visible 80x24 screen after 120 s: $1"
  cat "$out/pane.txt"
  exit 1
}

for turn in 1 2 3; do
  visible "P1>"
  for want in "== Turn " "Market (* a stripe reconstructed" "Nations" "  P1 (you) to act:" "  P2:" "  P3:" "  P4:" "P1, your action:" \
              "Type a number"; do
    grep -qF -- "$want" "$out/pane.txt" || { echo "turn $turn: not on the 80x24 screen with the prompt: $want"; cat "$out/pane.txt"; exit 1; }
  done
  [ "$(wc -l <"$out/pane.txt")" -le 24 ] || { echo "more than 24 lines captured"; exit 1; }
  t send-keys -t foh "harvest" Enter
  sleep 0.3
done
echo "tmux 80x24: the compact board, the list and the prompt on one screen, 3 turns: ok"

visible "P1>"
t send-keys -t foh C-c
visible "exit="
grep -qF "exit=0" "$out/pane.txt" || { echo "Ctrl-C: foh did not exit 0"; cat "$out/pane.txt"; exit 1; }
# What it printed on the way out, scrollback included (the sanitizers' build
# adds its own lines below, which push the first ones off the screen).
t capture-pane -p -J -S -200 -t foh >"$out/pane.txt"
grep -qF "Interrupted (Ctrl-C): the game is saved in" "$out/pane.txt" && [ -s "$out/game.json" ] ||
  { echo "Ctrl-C did not save the game"; cat "$out/pane.txt"; exit 1; }
grep -qF "No winner: the game is not over" "$out/pane.txt" || { echo "Ctrl-C: a winner named"; cat "$out/pane.txt"; exit 1; }
"$foh" legal "$out/game.json" | grep -q "P1 to act" || { echo "the Ctrl-C save does not resume at P1's decision"; exit 1; }
echo "tmux Ctrl-C: saved, exit 0, no winner: ok"

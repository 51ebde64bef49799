#!/usr/bin/env bash
# A human game in a real terminal (tmux): the board, a hint, Tab completion
# of a card name, the Invest amount prompt, an undo, colours, then quit.
# Usage: human_tmux.sh FOH OUT_DIR
set -euo pipefail
foh=$1
out=$2/tmux
rm -rf "$out" && mkdir -p "$out"
command -v tmux >/dev/null || { echo "tmux is missing (tools/deps.sh installs it)"; exit 1; }
sock=$out/sock
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null || true' EXIT
t -f /dev/null new-session -d -s foh -x 80 -y 50 \
  "env TERM=xterm-256color LANG=C.UTF-8 NO_COLOR= $foh play --players 4 --seed 3 --seats human,greedy,greedy,greedy --save $out/game.json; sleep 180"

# Wait until TEXT is on the screen or in its scrollback (120 s at most:
# a slow build on a loaded machine; it returns as soon as TEXT is there).
seen() {
  for _ in $(seq 2400); do
    t capture-pane -p -t foh -S - >"$out/pane.txt"
    if grep -qF -- "$1" "$out/pane.txt"; then return 0; fi
    sleep 0.05
  done
  echo "not on screen after 120 s: $1"
  cat "$out/pane.txt"
  exit 1
}

seen "P1, your action:"
seen "Market"
seen "Nations"
seen "Invest in Barracks (1 to 4 tokens; asks how many)"
t send-keys -t foh "hint" Enter
seen "The greedy bot's best actions here"
seen "  3. "
t send-keys -t foh "help tem" Tab Enter
seen "Temple (temple): age I, construction"
t send-keys -t foh "1" Enter
seen "How many tokens in"
t send-keys -t foh "2" Enter
seen "P1 invests 2 tokens in Barracks"
t send-keys -t foh "undo" Enter
seen "Undone: back to P1's decision of turn 2"
# Card types in their colours on a terminal (game.yaml card_types colour).
t capture-pane -p -e -t foh -S - >"$out/colours.txt"
grep -q $'\e\\[3[1-7]m' "$out/colours.txt" || { echo "no colour on a terminal"; exit 1; }
t send-keys -t foh "quit" Enter
seen "Quit: the game is saved in $out/game.json"
seen "Stopped after"
echo "tmux: board, hint, completion, Invest amount, undo, colours, quit: ok"

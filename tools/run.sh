#!/usr/bin/env bash
# Set everything up on a new Debian machine and run the main job: one
# 4-player game between greedy bots with its full log, then the balance
# report of 1,000 games between greedy bots (both cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
./build/foh play --players 4 --seed 1 --seats greedy
echo
./build/foh sim --players 4 --games 1000 --seed 1 --seats greedy --threads "$(nproc)"

#!/usr/bin/env bash
# Set everything up on a new Debian machine and run the main job: one
# 4-player bot game with its full log, then a 1,000-game simulation.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
./build/foh play --players 4 --seed 1
echo
./build/foh sim --players 4 --games 1000 --seed 1

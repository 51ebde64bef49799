#!/usr/bin/env bash
# Fuzz with libFuzzer (clang) for SECONDS in all (default 60), split over
# the four targets of tests/fuzz/: the card-file loader (YAML and the Lua
# of effects), the save-file reader and replayer, action sequences (legal
# and arbitrary actions, invariants after each) and scenario files. New inputs go to
# build-fuzz/corpus-TARGET; a crash stops with its input in
# build-fuzz/crashes-TARGET/ (add it to tests/fuzz/TARGET/ once fixed:
# ctest replays those folders in every build).
#   bash tools/fuzz.sh 600
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
bash tools/deps.sh
if ! command -v clang >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -qq clang >/dev/null
fi
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DFOH_FUZZ=ON \
  -DFOH_CHECK_INVARIANTS=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_cardset fuzz_actions fuzz_save fuzz_scenario >/dev/null
each=$(( secs / 4 > 1 ? secs / 4 : 1 ))
for t in cardset actions save scenario; do
  mkdir -p "build-fuzz/corpus-$t" "build-fuzz/crashes-$t"
  echo "== fuzz_$t for ${each}s"
  ./build-fuzz/tests/fuzz_$t "build-fuzz/corpus-$t" "tests/fuzz/$t" -max_total_time="$each" \
    -artifact_prefix="build-fuzz/crashes-$t/" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    2>&1 | grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Test unit written" || true
  if [ -n "$(ls -A "build-fuzz/crashes-$t")" ]; then
    echo "fuzz_$t found a crash: build-fuzz/crashes-$t/"
    exit 1
  fi
done
echo "fuzz: no crash in ${secs}s"

#!/usr/bin/env bash
# The whole test suite: installs what it needs, then builds and runs every
# test with -Werror, compares The Flow of History's outputs with the last
# commit before the ruleset redesign (tools/same.sh), runs every test again
# under AddressSanitizer + UndefinedBehaviorSanitizer,
# runs a game and the rules tests under valgrind, lints the Lua scripts, and
# fuzzes each target of tests/fuzz/ for 45 s (tools/fuzz.sh; fails on a crash).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
jobs="$(nproc)"

echo "== build and test (Release, -Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFOH_WERROR=ON >/dev/null
cmake --build build -j"$jobs" >/dev/null
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== The Flow of History unchanged: 21 outputs against the last commit before the redesign (tools/same.sh)"
FOH_BUILD=build bash tools/same.sh

echo "== build and test under ASan + UBSan, checking invariants after every action"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFOH_WERROR=ON -DFOH_SANITIZE=ON -DFOH_CHECK_INVARIANTS=ON >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"

echo "== valgrind"
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
  ./build/foh play --players 5 --seed 3 >/dev/null
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite ./build/tests/test_rules >/dev/null
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
  ./build/foh play --cards tests/toy/cards --players 3 --seats random,greedy,ismcts >/dev/null
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
  ./build/foh play --cards civ-draft --players 3 --seats random,greedy,ismcts:10 >/dev/null
echo "valgrind: clean"

echo "== luacheck"
luacheck --no-color scripts core/script/sandbox.lua cards

echo "== fuzz (libFuzzer, 45 s a target; docs/fuzzing.md)"
bash tools/fuzz.sh --per-target 45

#!/usr/bin/env bash
# Fuzz with libFuzzer (clang) the seven targets of tests/fuzz/: the card-file
# loader (YAML and the Lua of effects), action sequences (legal and
# arbitrary actions, invariants after each), the save-file reader and
# replayer (The Flow of History's, and another ruleset's on the toy game),
# scenario files, foh merge's shards and variant files.
#   bash tools/fuzz.sh [SECONDS]                 SECONDS in all (default 60), split evenly
#   bash tools/fuzz.sh --per-target SECONDS      SECONDS for each target
#   bash tools/fuzz.sh [--per-target] SECONDS TARGET...   those targets only (e.g. shard variant)
# Each target starts from its seeds (tests/fuzz/TARGET/, with the
# dictionary tests/fuzz/TARGET.dict if there is one) and the inputs found
# before (build-fuzz/corpus-TARGET/, where new ones go), and prints one
# line: executions, edges covered (cov), features (ft), corpus size.
# A crash, a timeout (20 s an input) or running out of memory (2 GB) is
# written to build-fuzz/crashes-TARGET/ and named with libFuzzer's report;
# the other targets still run, then the script exits 1 (add the input to
# tests/fuzz/TARGET/ once fixed: ctest replays those folders in every
# build). tools/test.sh runs this with --per-target 55; docs/fuzzing.md has
# the results of longer runs.
set -euo pipefail
cd "$(dirname "$0")/.."
all_targets="cardset actions save any_save scenario shard variant"
per_target=0
if [ "${1:-}" = "--per-target" ]; then
  per_target=1
  shift
fi
secs="${1:-60}"
if [ $# -gt 0 ]; then shift; fi
targets="${*:-$all_targets}"
case "$secs" in
  '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, not '$secs'" >&2; exit 2 ;;
esac
for t in $targets; do
  case " $all_targets " in
    *" $t "*) ;;
    *) echo "fuzz.sh: no fuzz target '$t' (targets: $all_targets)" >&2; exit 2 ;;
  esac
done
set -- $targets
if [ "$per_target" = 1 ]; then
  each="$secs"
else
  each=$(( secs / $# > 1 ? secs / $# : 1 ))
fi

bash tools/deps.sh
if ! command -v clang >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -qq clang >/dev/null
fi
# build-fuzz is this script's own: a cache made by another configuration
# (another compiler, without FOH_FUZZ, another source folder) is started
# afresh rather than reused.
cache=build-fuzz/CMakeCache.txt
if [ -f "$cache" ] && ! { grep -q '^FOH_FUZZ:BOOL=ON$' "$cache" &&
    grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$(pwd -P)" "$cache" &&
    grep -q "^CMAKE_C_COMPILER:[A-Z]*=.*clang[^/]*\$" "$cache"; }; then
  echo "fuzz.sh: build-fuzz/ was configured otherwise: configuring it afresh"
  rm -rf "$cache" build-fuzz/CMakeFiles
fi
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DFOH_FUZZ=ON \
  -DFOH_CHECK_INVARIANTS=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" $(for t in "$@"; do echo --target "fuzz_$t"; done) >/dev/null

failed=""
for t in "$@"; do
  mkdir -p "build-fuzz/corpus-$t" "build-fuzz/crashes-$t"
  log="build-fuzz/fuzz-$t.log"
  echo "== fuzz_$t for ${each}s"
  status=0
  dict=()
  [ ! -f "tests/fuzz/$t.dict" ] || dict=(-dict="tests/fuzz/$t.dict")
  ./build-fuzz/tests/fuzz_$t "build-fuzz/corpus-$t" "tests/fuzz/$t" "${dict[@]}" -max_total_time="$each" \
    -artifact_prefix="build-fuzz/crashes-$t/" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    >"$log" 2>&1 || status=$?
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")
  corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$done_line")
  echo "fuzz_$t: ${runs:-?} executions in ${each}s (${rate:-?}/s), cov ${cov:-?}, ft ${ft:-?}," \
    "corpus ${corp:-?}, peak RSS ${rss:-?} MB"
  if [ "$status" -ne 0 ]; then
    echo "fuzz_$t FAILED (exit $status): its report, from $log:"
    grep -E -A40 '^==[0-9]+==|ERROR: libFuzzer|runtime error' "$log" | grep -v 'Test unit written' | head -50 ||
      tail -40 "$log"
    grep -m1 'Test unit written' "$log" || true
    failed="$failed $t"
  fi
done
if [ -n "$failed" ]; then
  echo "fuzz: FAILED:$failed (inputs in build-fuzz/crashes-TARGET/)"
  exit 1
fi
echo "fuzz: no crash in ${each}s for each of: $*"

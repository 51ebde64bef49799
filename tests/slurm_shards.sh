#!/usr/bin/env bash
# Shards on a real Slurm cluster (issue 33; docs/scaling.md): a single-node
# cluster (tools/slurm/cluster.sh: munged, slurmctld, slurmd, in OUT) runs
# each foh command as a job array through tools/slurm/sharded.sh, which
# submits with sbatch --array --wait and merges:
#  1. foh sim, 8 shards of 4,000 greedy games: the merged report (text and
#     JSON) is the single process's, byte for byte but the provenance;
#  2. foh compare, 3 shards: the merged report is the single compare's;
#  3. foh tune, 2 shards: the merge is what the same 2 shards give when run
#     on this machine without Slurm (a tune merged from shards screens each
#     share apart, docs/tune.md);
#  4. 8 shards of one game each, one of which meets a script error (the
#     broken Working Animal of tests/sim-errors, seed 3): the run fails,
#     naming exactly the shards that fail when run here;
#  5. a shard submitted twice (a second job for part 2) and a lost shard:
#     foh merge refuses both, naming them.
# The arrays are submitted at once and run side by side on the node.
# Usage: slurm_shards.sh FOH OUT_DIR SOURCE_DIR. Exit 0 when all holds.
set -uo pipefail
foh=$1
out=$2/slurm
src=$3
rm -rf "$out" && mkdir -p "$out" || exit 1
cluster=$out/cluster
bash "$src/tools/slurm/cluster.sh" start "$cluster" || exit 1
trap 'bash "$src/tools/slurm/cluster.sh" stop "$cluster"' EXIT
export SLURM_CONF=$cluster/slurm.conf
sharded=$src/tools/slurm/sharded.sh
failed=0
fail() {
  echo "FAILED: $*"
  failed=1
}
# A report without the lines and objects that say how it was made, and
# the seconds it took (a loaded machine takes longer)
# (tests/provenance.cmake does the same in cmake).
strip() {
  python3 -c '
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"provenance: [^\n]*\n", "", text)
text = re.sub(r", [0-9]+ s here\n", "\n", text)  # seconds taken here: the machine speed, not the result
text = re.sub(r"\"(shards_)?provenance\": ?\{[^}]*\},?[ \n]*", "", text)
sys.stdout.write(text.replace(sys.argv[2], "DIR") if len(sys.argv) > 2 else text)' "$@"
}
same() { # same A B [DIR_A DIR_B]: A and B alike but for provenance (and their folders)
  if ! cmp -s <(strip "$1" "${3:-//}") <(strip "$2" "${4:-//}"); then
    fail "$1 differs from $2:"
    diff <(strip "$1" "${3:-//}") <(strip "$2" "${4:-//}") | head -n 10
  fi
}

sim=(sim --games 4000 --seed 7 --seats greedy)
cmp_args=(compare --games 300 --seed 5 --seats greedy --b-variant culture-2vp)
tune_args=(tune --variant "$src/tests/data/broken-variant" --target start-spread=5 --games 60 --budget 600 --seed 1)
broken=(sim --games 8 --seed 3 --seats greedy --variant "$src/tests/sim-errors/broken-working-animal")
# Submitted at once: the arrays share the node's CPUs.
bash "$sharded" 8 "$out/sim" "$foh" "${sim[@]}" >"$out/sim.out" 2>&1 &
p_sim=$!
bash "$sharded" 3 "$out/compare" "$foh" "${cmp_args[@]}" >"$out/compare.out" 2>&1 &
p_cmp=$!
FOH_TUNE_MERGE="--verify-games 60" bash "$sharded" 2 "$out/tune" "$foh" "${tune_args[@]}" >"$out/tune.out" 2>&1 &
p_tune=$!
bash "$sharded" 8 "$out/broken" "$foh" "${broken[@]}" >"$out/broken.out" 2>&1 &
p_broken=$!
sbatch --quiet --wait --chdir="$out" --output="$out/again.log" \
  --wrap "$foh ${sim[*]} --shard 2/8 --save-shard $out/shard-2-again.json" &
p_again=$!

# Meanwhile, here: the single processes, and which shards of the broken run fail.
mkdir -p "$out/here"
"$foh" "${sim[@]}" --threads 2 --json "$out/here/sim.json" >"$out/here/sim.txt" 2>/dev/null || fail "foh sim here"
"$foh" "${cmp_args[@]}" --json "$out/here/compare.json" >"$out/here/compare.txt" 2>/dev/null ||
  fail "foh compare here"
for i in 1 2; do
  "$foh" "${tune_args[@]}" --shard "$i/2" --save-shard "$out/here/shard-$i.json" >/dev/null 2>&1 ||
    fail "foh tune --shard $i/2 here"
done
"$foh" tune --merge "$out/here/shard-1.json" "$out/here/shard-2.json" --verify-games 60 >"$out/here/tune.txt" ||
  fail "foh tune --merge here"
expected=()
for i in $(seq 8); do
  "$foh" "${broken[@]}" --shard "$i/8" --save-shard "$out/here/broken-$i.json" >/dev/null 2>&1 || expected+=("$i")
done

wait $p_sim || fail "the sim array: $(cat "$out/sim.out")"
same "$out/sim/report.txt" "$out/here/sim.txt"
same "$out/sim/report.json" "$out/here/sim.json"
wait $p_cmp || fail "the compare array: $(cat "$out/compare.out")"
same "$out/compare/report.txt" "$out/here/compare.txt"
same "$out/compare/report.json" "$out/here/compare.json"
wait $p_tune || fail "the tune array: $(cat "$out/tune.out")"
same "$out/tune/report.txt" "$out/here/tune.txt" "$out/tune" "$out/here"

# 4. The broken run fails, naming exactly the shards that fail here.
if wait $p_broken; then
  fail "the array with a script error succeeded"
fi
[ ${#expected[@]} -gt 0 ] && [ ${#expected[@]} -lt 8 ] ||
  fail "the broken run should fail in some shards, not ${#expected[@]} of 8 (pick another seed)"
named=$(grep -o 'shard [0-9]*/8 failed' "$out/broken.out" | grep -o '[0-9]*/' | tr -d / | tr '\n' ' ')
[ "$named" = "${expected[*]} " ] || fail "the failing shards named are '$named', here they are '${expected[*]}'"
grep -q "working animal is broken" "$out/broken.out" || fail "the failing shard's log does not say why"

# 5. A shard submitted twice, and a lost one: foh merge refuses them, naming them.
wait $p_again || fail "the second job of part 2: $(cat "$out/again.log")"
"$foh" merge "$out"/sim/shard-*.json "$out/shard-2-again.json" >/dev/null 2>"$out/twice.err" &&
  fail "foh merge took part 2 twice"
grep -q "shard-2-again.json: part 2 of 8, the same part as .*shard-2.json" "$out/twice.err" ||
  fail "foh merge of part 2 twice: $(cat "$out/twice.err")"
rm "$out/sim/shard-5.json"
"$foh" merge "$out"/sim/shard-*.json >/dev/null 2>"$out/lost.err" && fail "foh merge took a run with part 5 lost"
grep -q "part 5 of 8 is missing" "$out/lost.err" || fail "foh merge with part 5 lost: $(cat "$out/lost.err")"

if [ $failed -eq 0 ]; then
  echo "slurm: sim (8 shards of 4,000 games), compare (3) and tune (2) merged as one process; the failing shards" \
    "named (${expected[*]} of 8); part 2 twice and part 5 lost refused"
fi
exit $failed

#!/usr/bin/env bash
# Run a foh command on a Slurm cluster as a job array, one shard a task;
# wait for the array, and merge the shards into the one report
# (docs/scaling.md).
#
#   tools/slurm/sharded.sh K OUT FOH COMMAND [OPTIONS...]
#
# COMMAND is sim, compare or tune. Task i (1..K) runs, in OUT:
#   FOH COMMAND OPTIONS... --shard i/K --save-shard OUT/shard-i.json
# with its output in OUT/task-i.log and its exit status in OUT/task-i.status.
# After the array (sbatch --wait) every task must have ended with 0 and left
# its shard: a task that failed, or whose shard is missing, fails the run,
# naming the shard and the end of its log. Then the merge:
#   sim, compare: FOH merge --json OUT/report.json OUT/shard-*.json > OUT/report.txt
#   tune:         FOH tune --merge OUT/shard-*.json $FOH_TUNE_MERGE > OUT/report.txt
# $SBATCH_OPTIONS adds options to sbatch (--cpus-per-task=8 --time=1:00:00,
# a --partition). Exit status: 0, or 1 when a shard failed or the merge
# refused the shards (foh merge names what is wrong), 2 for bad usage.
set -uo pipefail
if [ $# -lt 4 ]; then
  echo "usage: sharded.sh K OUT FOH sim|compare|tune [OPTIONS...]" >&2
  exit 2
fi
k=$1 out=$2 foh=$3 command=$4
shift 4
case $command in sim | compare | tune) ;; *) echo "sharded.sh: sim, compare or tune, not '$command'" >&2; exit 2 ;; esac
[[ $k =~ ^[1-9][0-9]*$ ]] || { echo "sharded.sh: K must be a whole number from 1" >&2; exit 2; }
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
foh=$(cd "$(dirname "$foh")" && pwd)/$(basename "$foh")
rm -f "$out"/shard-*.json "$out"/task-*.log "$out"/task-*.status
# The task: the command with this task's shard, its status kept beside it.
{
  echo '#!/usr/bin/env bash'
  printf 'i=$SLURM_ARRAY_TASK_ID\n'
  printf '%q %q' "$foh" "$command"
  for a in "$@"; do printf ' %q' "$a"; done
  printf ' --shard "$i/%d" --save-shard %q/shard-"$i".json\n' "$k" "$out"
  printf 'echo $? >%q/task-"$i".status\n' "$out"
} >"$out/task.sh"
chmod +x "$out/task.sh"
# shellcheck disable=SC2086
sbatch --quiet --wait --array="1-$k" --job-name="foh-$command" --chdir="$out" --output="$out/task-%a.log" \
  ${SBATCH_OPTIONS:-} "$out/task.sh"
sbatch_rc=$?
failed=0
for i in $(seq "$k"); do
  status=$(cat "$out/task-$i.status" 2>/dev/null || echo "none")
  if [ "$status" != 0 ] || [ ! -s "$out/shard-$i.json" ]; then
    echo "sharded.sh: shard $i/$k failed (exit status $status$([ -s "$out/shard-$i.json" ] || echo ', no shard file')); the end of $out/task-$i.log:" >&2
    tail -n 3 "$out/task-$i.log" 2>/dev/null | sed 's/^/  | /' >&2
    failed=1
  fi
done
if [ $failed -ne 0 ] || [ $sbatch_rc -ne 0 ]; then
  [ $failed -ne 0 ] || echo "sharded.sh: sbatch --wait ended with $sbatch_rc" >&2
  exit 1
fi
shards=()
for i in $(seq "$k"); do shards+=("$out/shard-$i.json"); done
if [ "$command" = tune ]; then
  # shellcheck disable=SC2086
  "$foh" tune --merge "${shards[@]}" ${FOH_TUNE_MERGE:-} >"$out/report.txt"
else
  "$foh" merge --json "$out/report.json" "${shards[@]}" >"$out/report.txt"
fi

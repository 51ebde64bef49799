#!/usr/bin/env bash
# Run a command on a busy machine: two processes spin beside it (started
# and ended here, each bounded by `timeout` should this script be killed),
# so that it is paused by the scheduler as on a loaded CI runner. Its exit
# status is the command's. A verdict must be the same here as on an idle
# machine: the hostile scenarios' script_error pins ("instruction limit
# exceeded" for a loop for ever) must not turn into the wall-clock limit.
#   bash tests/busy_machine.sh COMMAND...
set -u
spinners=()
for i in 1 2; do
  timeout 900 sh -c 'while :; do :; done' &
  spinners+=($!)
done
trap 'kill "${spinners[@]}" 2>/dev/null; wait 2>/dev/null' EXIT
t0=$(date +%s.%N)
"$@"
rc=$?
# Printed to read, not judged: the verdict is the command's.
awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "took %.2f s beside two busy loops\n", b - a }'
exit "$rc"

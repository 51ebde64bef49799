#!/usr/bin/env bash
# A single-node Slurm cluster in a folder, for tests and for trying the
# scripts of docs/scaling.md on one machine: munged, slurmctld and slurmd
# (Debian's munge and slurm-wlm), started without systemd, every file of
# theirs (key, socket, state, spool, logs) in DIR.
#
#   tools/slurm/cluster.sh start DIR   # then: export SLURM_CONF=DIR/slurm.conf
#   tools/slurm/cluster.sh stop DIR
#
# start waits until the node is idle (60 s at most) and fails, printing the
# daemons' logs, when it is not; stop ends the three daemons (their pid
# files) and waits for them.
set -euo pipefail
cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: cluster.sh start|stop DIR" >&2
  exit 2
fi

stop() {
  local name pid
  for name in slurmd slurmctld munged; do
    [ -f "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/$name.pid"
  done
}

if [ "$cmd" = stop ]; then
  stop
  exit 0
fi
[ "$cmd" = start ] || { echo "cluster.sh: start or stop, not '$cmd'" >&2; exit 2; }

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
chmod 700 "$dir"
mkdir -p "$dir/state" "$dir/spool"
# Two free TCP ports on this machine, for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
cpus=$(nproc)
user=$(id -un)
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge.key"
cat >"$dir/slurm.conf" <<CONF
# Written by tools/slurm/cluster.sh: one node, this machine.
ClusterName=foh-test
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=sched_min_interval=100000
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
# munged refuses to run as root without --force (it would rather run as munge).
munged --force --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munge.seed"
slurmctld -i
slurmd
for _ in $(seq 120); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
    echo "cluster.sh: a Slurm node of $cpus CPUs is up; export SLURM_CONF=$dir/slurm.conf"
    exit 0
  fi
  sleep 0.5
done
echo "cluster.sh: the Slurm node did not come up in 60 s; its logs:" >&2
tail -n 20 "$dir"/*.log >&2 || true
stop
exit 1

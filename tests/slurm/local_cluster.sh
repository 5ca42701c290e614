#!/usr/bin/env bash
# A one-node Slurm on loopback in a folder of its own, for tests/slurm/slurm_test.sh and for trying
# `pkb slurm submit` by hand:
#   tests/slurm/local_cluster.sh start DIR   # writes DIR/slurm.conf, starts munged, slurmctld, slurmd
#   export SLURM_CONF=DIR/slurm.conf         # then sbatch, squeue, pkb slurm submit use it
#   tests/slurm/local_cluster.sh stop DIR
# Needs root (slurmd runs jobs as their user) and the slurm-wlm and munge packages
# (scripts/setup-slurm.sh). `start` exits 77 with the reason on stderr when a daemon cannot start.
set -euo pipefail

action=${1:?usage: local_cluster.sh start|stop DIR}
dir=${2:?usage: local_cluster.sh start|stop DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

skip() { echo "local_cluster: $*" >&2; exit 77; }

stop() {
  for name in slurmd slurmctld munged; do
    [[ -f "$dir/$name.pid" ]] || continue
    pid=$(cat "$dir/$name.pid" 2>/dev/null || true)
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true
  done
  sleep 1
}

if [[ "$action" == stop ]]; then stop; exit 0; fi
[[ "$action" == start ]] || { echo "local_cluster: unknown action '$action'" >&2; exit 2; }

for tool in munged slurmctld slurmd sbatch squeue; do
  command -v "$tool" >/dev/null || [[ -x "/usr/sbin/$tool" ]] || skip "$tool not installed (scripts/setup-slurm.sh installs slurm-wlm and munge)"
done
[[ $(id -u) -eq 0 ]] || skip "slurmd must run as root to start jobs, and this is uid $(id -u)"
PATH=$PATH:/usr/sbin

# Free ports from the kernel, so two clusters (or a real one) never collide.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')
host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"

cat > "$dir/slurm.conf" <<CONF
# One node on loopback, written by tests/slurm/local_cluster.sh.
ClusterName=pkbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf

munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" \
  || skip "munged did not start: $(tail -n 3 "$dir/munged.log" 2>/dev/null | tr '\n' ' ')"
slurmctld -f "$dir/slurm.conf" || { stop; skip "slurmctld did not start: $(tail -n 3 "$dir/slurmctld.log" | tr '\n' ' ')"; }
slurmd -f "$dir/slurm.conf" || { stop; skip "slurmd did not start: $(tail -n 3 "$dir/slurmd.log" | tr '\n' ' ')"; }

# The node is usable once sinfo reports it idle.
for _ in $(seq 60); do
  state=$(sinfo -h -N -o '%t' 2>/dev/null | head -n 1 || true)
  [[ "$state" == idle ]] && { echo "local_cluster: node $host idle (SLURM_CONF=$dir/slurm.conf)" >&2; exit 0; }
  sleep 1
done
stop
skip "the node never became idle (state '${state:-none}'): $(tail -n 3 "$dir/slurmd.log" | tr '\n' ' ')"

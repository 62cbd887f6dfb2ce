#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for the Slurm test suite
# (tests/tst_slurm.cpp) and for trying `dreamrsi round --backend slurm`.
#
#   packaging/slurm-test-cluster.sh start [DIR]   install slurm-wlm + munge when
#       missing, write DIR/slurm.conf (default /tmp/dreamrsi-slurm), start
#       munged, slurmctld and slurmd, wait until the node is idle
#   packaging/slurm-test-cluster.sh stop [DIR]    stop the daemons it started
#       (by the process ids it recorded in DIR)
#   packaging/slurm-test-cluster.sh status [DIR]
#
# Partition `debug` (default), one node = this host, no cgroups
# (proctrack/linuxproc, task/none), KillWait 5 s, finished jobs stay
# visible for 300 s. Memory requests are enforced without cgroups: the
# accounting plugin samples each job's memory every second and kills a job
# past its --mem (JobAcctGatherParams=OverMemoryKill; Slurm then says
# "Exceeded job memory limit" in the job's output). Needs root (slurmd
# starts jobs as their user). A `start` that finds the daemons running with
# an older slurm.conf restarts them (by their recorded process ids).
# Exit codes: 0 ok, 2 usage, 3 Slurm cannot be installed, 4 a daemon did
# not come up (its log is printed).
set -euo pipefail

action="${1:-}"
dir="${2:-/tmp/dreamrsi-slurm}"
conf="$dir/slurm.conf"

need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "slurm-test-cluster: needs root (slurmd runs jobs as their owner)" >&2
    exit 3
  fi
}

install_slurm() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null \
     && command -v sbatch >/dev/null; then
    return 0
  fi
  need_root
  echo "slurm-test-cluster: installing slurm-wlm and munge" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! { apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null 2>&1 \
         || { apt-get update -qq >/dev/null 2>&1 \
              && apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null 2>&1; }; }; then
    echo "slurm-test-cluster: cannot install slurm-wlm and munge" >&2
    exit 3
  fi
}

running() { [ -f "$dir/$1.pid" ] && kill -0 "$(cat "$dir/$1.pid")" 2>/dev/null; }

start() {
  install_slurm
  need_root
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  local host cpus mem
  host="$(hostname -s)"
  cpus="$(nproc)"
  # RealMemory below the machine's (MB): 3/4 of it.
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 3 / 4 ))

  if ! running munged; then
    if [ ! -s /etc/munge/munge.key ]; then
      mkdir -p /etc/munge
      dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
    chmod 0400 /etc/munge/munge.key
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
    if pid="$(cat /run/munge/munged.pid 2>/dev/null)" && kill -0 "$pid" 2>/dev/null; then
      : # a munged of the system is already running; use it, do not own it
    else
      su -s /bin/sh munge -c "munged --force" 2>>"$dir/log/munged.log" || munged --force 2>>"$dir/log/munged.log"
      for _ in $(seq 50); do [ -s /run/munge/munged.pid ] && break; sleep 0.1; done
      cp /run/munge/munged.pid "$dir/munged.pid"
    fi
  fi

  cat >"$conf.new" <<CONF
ClusterName=dreamrsi-test
SlurmctldHost=$host
AuthType=auth/munge
CryptoType=crypto/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
SchedulerType=sched/backfill
SlurmUser=root
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.log
MinJobAge=300
KillWait=5
OverTimeLimit=0
InactiveLimit=0
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  if [ -f "$conf" ] && ! cmp -s "$conf" "$conf.new" && { running slurmctld || running slurmd; }; then
    echo "slurm-test-cluster: slurm.conf changed; restarting the daemons" >&2
    stop_daemons slurmd slurmctld
  fi
  mv "$conf.new" "$conf"
  ln -sf "$conf" "$dir/current.conf"
  export SLURM_CONF="$conf"
  running slurmctld || slurmctld -f "$conf" || { cat "$dir/log/slurmctld.log" >&2; exit 4; }
  running slurmd || slurmd -f "$conf" || { cat "$dir/log/slurmd.log" >&2; exit 4; }
  for _ in $(seq 300); do
    # Idle, or busy with jobs that outlived a daemon restart.
    if sinfo -h -o '%t' 2>/dev/null | grep -Eqx 'idle|mix|alloc|comp'; then
      echo "slurm-test-cluster: node $host idle; export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.2
  done
  echo "slurm-test-cluster: the node did not become idle in 60 s" >&2
  sinfo >&2 || true
  tail -20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
  exit 4
}

stop_daemons() {
  for d in "$@"; do
    if running "$d"; then
      pid="$(cat "$dir/$d.pid")"
      kill "$pid"
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    fi
    rm -f "$dir/$d.pid"
  done
}

stop() {
  stop_daemons slurmd slurmctld munged
  echo "slurm-test-cluster: stopped"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  status) for d in munged slurmctld slurmd; do running "$d" && echo "$d running" || echo "$d stopped"; done ;;
  *) echo "usage: $0 start|stop|status [DIR]" >&2; exit 2 ;;
esac
